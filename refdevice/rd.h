/* The reference device's objects (STYLE 11, 12).
 *
 * Every object starts with struct rd_object: the loader's dispatch slot
 * (meaningful for dispatchable handles, unused otherwise), the object type
 * and the owning device.  Handles are pointers to these structs; the
 * handle-cast lines are all together below. */
#ifndef RD_H
#define RD_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <vulkan/vk_icd.h>
#include <vulkan/vulkan_core.h>

#include "compat.h"

#include "rd_draw.h"
#include "rd_format.h"
#include "rd_spirv.h"

struct rd_device;

struct rd_object {
	VK_LOADER_DATA loader_data; /* dispatch slot, first (loader interface) */
	VkObjectType type;
	struct rd_device *device;
};

/* Logging: one line per problem on stderr, prefixed "refdevice:". */
void rd_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Returns `result` after logging where it came from (STYLE 12). */
#define RD_ERROR(result, ...) (rd_log(__VA_ARGS__), rd_log_at(__FILE__, __LINE__), (result))
void rd_log_at(const char *file, int line);

void *rd_zalloc(const VkAllocationCallbacks *a, size_t size);
void rd_free(const VkAllocationCallbacks *a, void *p);
/* The allocator an object of `dev` is freed with: the call's, else the device's. */
#define DEV_ALLOC(dev, a) ((a) ? (a) : ((dev)->has_alloc ? &(dev)->alloc : NULL))
void *rd_object_alloc(struct rd_device *dev, const VkAllocationCallbacks *a, size_t size,
		      VkObjectType type);

/* Variation knobs (refdevice/README.md): spec-legal choices read from the
 * environment once per instance. */
enum rd_multiview_mode { RD_MV_FIRST, RD_MV_SPREAD, RD_MV_REVERSED };
enum rd_overflow_mode { RD_OVERFLOW_WRAP, RD_OVERFLOW_SATURATE };
enum rd_nonprecise_mode { RD_NP_EXACT, RD_NP_ONE, RD_NP_OTHER, RD_NP_PER_READ };
enum rd_arch { RD_ARCH_IMMEDIATE, RD_ARCH_TILER };

/* Injectable faults (RD_FAULT=<name>; refdevice/README.md "Faults"): each
 * one concrete violation of a spec rule, modelled on bugs real drivers
 * shipped (docs/cts-parity.md's bug classes), so the suite's power to catch
 * them can be measured (tools/mutation.py).  One list, read by the device
 * and by the harness: X(ID, "name", "areas the harness runs", "extra
 * environment", "the rule it breaks"). */
#define RD_FAULT_LIST(X)                                                                     \
	X(RESULTS_STRIDE, "results_stride_ignored", "results", "",                          \
	  "18.2: results for query i are written at pData + i * stride")                     \
	X(RESULTS_32_AS_64, "results_32bit_as_64bit", "results", "",                        \
	  "18.2: without VK_QUERY_RESULT_64_BIT results are 32-bit values")                  \
	X(AVAIL_FIRST, "availability_before_values", "results", "",                          \
	  "18.2: the availability word follows the query's values")                          \
	X(AVAIL_ZERO, "availability_zero", "results", "",                                    \
	  "18.2: an available query's availability word is non-zero")                        \
	X(PAST_ELEMENT, "writes_past_element", "results", "",                                \
	  "18.2: nothing is written beyond a query's values and availability word")          \
	X(PARTIAL_ABOVE_FINAL, "partial_above_final", "reset", "",                           \
	  "18.2 PARTIAL: an intermediate result between zero and the final result")          \
	X(WAIT_IGNORED, "wait_ignored", "reset,xfb,video.encode_feedback,intel_perf.availability", "",                                     \
	  "18.2 WAIT: the results are waited for until they are available")                  \
	X(FIRST_QUERY_IGNORED, "first_query_ignored", "results", "",                         \
	  "18.2: the results of queries firstQuery to firstQuery + queryCount - 1")           \
	X(HOST_RESET_IGNORED, "host_reset_ignored", "reset", "",                             \
	  "18.2 vkResetQueryPool: the queries become unavailable")                           \
	X(CMD_RESET_IGNORED, "command_reset_ignored", "reset", "",                           \
	  "18.2 vkCmdResetQueryPool: the queries become unavailable")                        \
	X(RESET_SHORT, "reset_short_range", "reset", "",                                     \
	  "18.2: a reset covers firstQuery to firstQuery + queryCount - 1")                   \
	X(RESET_NEIGHBOUR, "reset_clears_neighbour", "reset", "",                            \
	  "18.2: a reset leaves queries outside its range alone")                            \
	X(PRECISE_BOOLEAN, "precise_as_boolean", "occlusion", "",                            \
	  "18.3: with PRECISE the result is the number of samples that passed")              \
	X(OCCLUSION_PLUS_ONE, "occlusion_off_by_one", "occlusion", "",                       \
	  "18.3: the count of samples that pass the per-fragment tests")                     \
	X(STATS_REVERSED, "statistics_order_reversed", "stats", "",                          \
	  "18.4: statistics are written in the order of their bits")                         \
	X(STATS_FS_AS_CLIP, "fragment_invocations_as_clipping", "stats", "",                 \
	  "18.4: FRAGMENT_SHADER_INVOCATIONS counts fragment shader invocations")             \
	X(TS_HIGH_BITS, "timestamp_bits_above_valid", "timestamp", "",                       \
	  "18.5: bits above timestampValidBits are zero")                                    \
	X(TS_ZERO, "timestamp_zero", "timestamp,elapsed", "",                                \
	  "18.5: the timestamp is the device time when the stage completed (an elapsed "     \
	  "time query between two timestamps cannot exceed their difference)")              \
	X(TS_BACKWARDS, "timestamp_backwards", "timestamp", "",                              \
	  "18.5: a timestamp that happens after another is not lower")                       \
	X(TS_PERIOD, "timestamp_period_doubled", "timestamp", "RD_CLOCK=host",                            \
	  "limits.timestampPeriod is the nanoseconds per tick")                              \
	X(MV_SECONDARY_FIRST_ONLY, "multiview_secondary_end_first_query_only", "multiview", "", \
	  "18.2 multiview: all N queries become available, the query ended in a secondary "  \
	  "command buffer too (v3dv e1b52e30522)")                                            \
	X(MV_SLOTS_UNAVAILABLE, "multiview_slots_unavailable", "multiview", "",              \
	  "18.2 multiview: all N queries become available")                                  \
	X(MV_TOTAL_EACH, "multiview_total_in_each", "multiview", "",                         \
	  "18.2 multiview: the N results sum to the total")                                  \
	X(COPY_OFFSET_IGNORED, "copy_dst_offset_ignored", "results", "",                     \
	  "vkCmdCopyQueryPoolResults writes at dstOffset")                                   \
	X(COPY_NO_AVAILABILITY, "copy_availability_missing", "results", "",                  \
	  "vkCmdCopyQueryPoolResults WITH_AVAILABILITY writes the availability word")        \
	X(XFB_SWAPPED, "xfb_counts_swapped", "xfb", "",                                      \
	  "18.7: primitives written, then primitives needed")                                \
	X(PGQ_POOL_STRIDE, "primitives_generated_pool_stride", "xfb", "",                    \
	  "18.2: each query of a primitives generated pool has its own result "              \
	  "(radv c119b19f98d: a multi-query pool laid out at the wrong stride)")             \
	X(PGQ_AS_WRITTEN, "primitives_generated_as_written", "xfb", "",                      \
	  "18.8: every primitive generated, captured or not")                                \
	X(ELAPSED_FIRST_TILE, "elapsed_first_tile_only", "elapsed", "RD_ARCH=tiler",         \
	  "VK_QCOM_elapsed_timer_query: the time of all operations, every tile")             \
	X(ELAPSED_ZERO, "elapsed_zero", "elapsed", "",                                       \
	  "VK_QCOM_elapsed_timer_query: the device execution time between begin and end")   \
	X(REGION_ROW_STRIDE, "region_row_stride_unaligned", "region_counters", "",           \
	  "VK_ARM_performance_counters_by_region: rows aligned to rowStrideAlignment")       \
	X(REGION_ORDER, "region_counters_reversed", "region_counters", "",                   \
	  "VK_ARM_performance_counters_by_region: values in the order of pCounterIndices")   \
	X(PERF_PASS_IGNORED, "counter_pass_index_ignored", "perf", "",                       \
	  "VkPerformanceQuerySubmitInfoKHR: counterPassIndex selects the pass collected")    \
	X(PERF_NO_INCOMPLETE, "perf_enumerate_no_incomplete", "perf", "",                    \
	  "vkEnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR: VK_INCOMPLETE")  \
	X(PERF_ORDER, "perf_results_in_enumeration_order", "perf", "",                       \
	  "18.6: results in the order of pCounterIndices")                                   \
	X(PERF_LOCK_PER_PROCESS, "profiling_lock_per_process", "selftest.refdevice", "VKQS_SELFTEST=1", \
	  "refdevice/README.md: the profiling lock is held machine-wide")                     \
	X(PERF_LOCK_NO_WAIT, "profiling_lock_timeout_not_waited", "perf", "",                \
	  "vkAcquireProfilingLockKHR: VK_TIMEOUT once timeout nanoseconds have passed")      \
	X(INSTR_NO_INCOMPLETE, "instrumentation_no_incomplete", "instrumentation", "",       \
	  "vkGetShaderInstrumentationValuesARM: VK_INCOMPLETE when blocks are left out")     \
	X(INSTR_INDEX_SKIP, "instrumentation_index_skips_plain_draws", "instrumentation", "", \
	  "VK_ARM_shader_instrumentation: every draw and dispatch advances the result index") \
	X(INSTR_CLEAR_RESETS, "instrumentation_clear_drops_blocks", "instrumentation", "",   \
	  "vkClearShaderInstrumentationMetricsARM: zeroes the blocks, indices stay valid")   \
	X(PARTIAL_UNWRITTEN, "partial_not_written", "results,reset", "",                     \
	  "18.2 PARTIAL: an intermediate result is written for an unavailable query")        \
	X(AVAIL_32, "availability_32bit_with_64bit", "results", "",                          \
	  "18.2: with VK_QUERY_RESULT_64_BIT the availability word is 64-bit too")           \
	X(AVAILABLE_AT_BEGIN, "available_before_the_work", "reset,xfb,video.encode_feedback", "RD_DRAW_DELAY_US=500", \
	  "18.2: a query becomes available when the commands it covers completed")           \
	X(SUSPENDED_QUERY_DROPPED, "suspended_pass_query_dropped", "occlusion", "",           \
	  "18.2: a query ended in a suspended render pass instance completes (venus 566df7821b2)") \
	X(LARGE_RESET_LATE, "large_reset_after_later_copies", "reset", "",                   \
	  "18.2: a reset of a large range happens before the copy recorded after it (anv c53a4711cb7, 0339ec4240c)") \
	X(COND_COPY_PREDICATED, "copy_query_predicated", "occlusion.conditional", "", \
	  "Conditional Rendering: vkCmdCopyQueryPoolResults is not a rendering command and is not discarded (nvk cdef36c4226)") \
	X(COND_QUERY_PREDICATED, "query_commands_predicated", "occlusion.conditional", "", \
	  "Conditional Rendering: query begins, ends, resets and timestamps are not discarded") \
	X(COND_PREDICATE_EARLY, "predicate_read_at_submission", "occlusion.conditional", "", \
	  "Conditional Rendering: the predicate is read when the block begins, after the copy that wrote it") \
	X(OCC_TESS_DROPPED, "occlusion_misses_tessellated_draws", "occlusion.tessellation", "", \
	  "18.3: every draw's passing samples count, tessellated or not (MoltenVK #1842, #1919)") \
	X(RESET_HOISTED, "reset_hoisted_to_submission", "reset", "",                         \
	  "vkCmdResetQueryPool executes in submission order after the commands before it")   \
	X(OCC_ACCUMULATE, "occlusion_accumulates_across_resets", "occlusion,reset", "",      \
	  "18.2: a reset query starts from zero; its next use counts only that use")         \
	X(OCC_PIXELS, "occlusion_counts_pixels_not_samples", "occlusion", "",                \
	  "18.3: the samples that passed, every sample of a multisampled pixel")             \
	X(OCC_NO_ATTACHMENTS_SAMPLES, "occlusion_no_attachments_single_sampled", "occlusion", "", \
	  "18.3: a subpass with no attachments counts at rasterizationSamples, not the "      \
	  "framebuffer's 1 (radv 9b089ca943c)")                                              \
	X(OCC_DISCARDED, "occlusion_counts_discarded_fragments", "occlusion", "",            \
	  "18.3: samples of fragments the shader discarded did not pass")                    \
	X(EARLY_COUNT_LATE, "early_tests_counted_after_shader", "occlusion,stats", "",       \
	  "Fragment Shading: a fragment the early depth test discards is not shaded")        \
	X(A2C_COUNTED, "alpha_to_coverage_ignored", "occlusion", "",                         \
	  "18.3 and Multisample Coverage: samples alpha to coverage removes do not pass")    \
	X(GS_INVOCATIONS_ONCE, "geometry_invocations_per_primitive", "stats", "",            \
	  "18.4: GEOMETRY_SHADER_INVOCATIONS counts each instanced invocation")              \
	X(GS_PRIMITIVES_RESTART, "geometry_primitives_stop_at_end_primitive", "stats", "",   \
	  "18.4: OpEndPrimitive has no effect on the geometry shader primitives count")      \
	X(TESS_PATCHES_PER_DRAW, "tessellation_patches_per_draw", "stats", "",               \
	  "18.4: TESSELLATION_CONTROL_SHADER_PATCHES counts each patch, not each draw")      \
	X(TES_COUNTS_PRIMITIVES, "tessellation_evaluation_counts_primitives", "stats", "",   \
	  "18.4: TESSELLATION_EVALUATION_SHADER_INVOCATIONS counts an invocation per tessellated vertex") \
	X(TASK_PER_WORKGROUP, "task_invocations_per_workgroup", "mesh", "",                  \
	  "18.4: TASK_SHADER_INVOCATIONS counts each invocation, not each workgroup")        \
	X(MESH_PER_WORKGROUP, "mesh_invocations_per_workgroup", "mesh", "",                  \
	  "18.4: MESH_SHADER_INVOCATIONS counts each invocation, not each workgroup")        \
	X(MESH_PRIMITIVES_CULLED, "mesh_primitives_count_culled", "mesh", "",                \
	  "18.9: a mesh primitive counts when it reaches the fragment shader stage, not when culled") \
	X(CLIP_BEFORE_GS, "clipping_counts_input_primitives", "stats", "",                   \
	  "18.4: clipping counts the primitives out of the last pre-rasterization stage")    \
	X(PGQ_WITH_STATS, "primitives_generated_zero_beside_statistics", "xfb", "",          \
	  "18.8: a primitives generated query counts also while a statistics query is active (radv 285223d0fd0)") \
	X(XFB_QUERY_AFTER_TESS, "xfb_query_off_after_tessellation", "xfb", "",               \
	  "18.7: a transform feedback stream query counts with tessellation last (radv 505290dc44a)") \
	X(PGQ_SHAPE_SWITCH, "primitives_generated_lost_on_shape_switch", "xfb", "",          \
	  "18.8: a query counts every draw in its scope, whatever the pipeline's shape (radv cdd201010df)") \
	X(PGQ_UNCAPTURED_RASTER, "primitives_generated_skip_uncaptured_raster_stream", "xfb", "", \
	  "18.8: primitives generated of the rasterization stream while another stream is captured (llpc#2256)") \
	X(STREAMS_MERGED, "vertex_streams_merged", "xfb", "",                                 \
	  "18.8: a primitives generated query counts the vertex stream of its index")        \
	X(CREATE_RESET_IGNORED, "create_reset_ignored", "reset,perf,video", "",                 \
	  "VK_KHR_maintenance9: a pool created with VK_QUERY_POOL_CREATE_RESET_BIT_KHR starts reset") \
	X(CREATE_RESET_COMMON_ONLY, "create_reset_common_types_only", "reset,perf,video", "",    \
	  "VK_KHR_maintenance9: a pool of any query type created with "                      \
	  "VK_QUERY_POOL_CREATE_RESET_BIT_KHR starts reset")                                 \
	X(COUNTING_OFF_AFTER_META, "counting_off_after_meta_operation", "stats,xfb", "",     \
	  "18.4, 18.8: a query counts every draw in its scope, also the draws after a clear, " \
	  "copy, blit or resolve in it (radv 738a6760e37, nvk 25.0.5: counters switched around " \
	  "internal operations)")                                                              \
	X(XFB_CAPTURES_CLEAR, "xfb_captures_clear_attachments", "xfb", "",                   \
	  "Transform Feedback: only primitives that reach the transform feedback stage are "    \
	  "appended; a vkCmdClearAttachments while transform feedback is active writes none "  \
	  "(radv 62356e71f43: NGG streamout counted meta operations)")                        \
	X(STATS_ACCUMULATE, "statistics_accumulate_across_resets", "stats", "",              \
	  "18.2: a reset statistics query starts from zero; its next use counts only that use") \
	X(STATS_AVAIL_ONE_WORD, "statistics_availability_after_first_value", "stats", "",    \
	  "18.2: an unavailable statistics query's availability word follows all its values") \
	X(STATS_INSTANCE_ONCE, "statistics_first_instance_only", "stats", "",                \
	  "18.4: input assembly and vertex shading of every instance")                       \
	X(STATS_ADJ_INSTANCES, "statistics_adjacency_instances_packed", "stats", "",        \
	  "18.4: input assembly and clipping of every instance, adjacency topologies too (radv 9348620946e)") \
	X(STATS_INDIRECT, "statistics_skip_indirect_draws", "stats", "",                     \
	  "18.4: indirect draws count like direct ones")                                      \
	X(CS_PER_GROUP, "compute_invocations_per_workgroup", "stats", "",                    \
	  "18.4: COMPUTE_SHADER_INVOCATIONS counts invocations, not workgroups")             \
	X(STATS_COMPUTE_QUERY_ZERO, "statistics_compute_queue_query_zero", "stats", "",     \
	  "18.2: a query's results go to its own index (radv a9945216ba2: at query 0 on the compute queue)") \
	X(TS_PER_CB, "timestamp_clock_per_command_buffer", "timestamp", "",                  \
	  "18.5: timestamps of later submissions are not lower (one device clock)")          \
	X(MV_FIRST_VIEW, "multiview_first_view_only", "multiview", "",                       \
	  "18.2 multiview: the results sum to the total over all views")                     \
	X(MV_STATS_FIRST_VIEW, "multiview_stats_first_view_only", "multiview", "",           \
	  "18.2 multiview: the statistics sum to the total over all views")                  \
	X(COPY_32, "copy_64bit_flag_ignored", "results", "",                                  \
	  "vkCmdCopyQueryPoolResults: VK_QUERY_RESULT_64_BIT writes 64-bit values")          \
	X(PGQ_DISCARD, "primitives_generated_not_with_discard", "xfb", "",                   \
	  "18.8: primitives are counted with rasterizer discard enabled")                    \
	X(XFB_WRITTEN_FULL, "xfb_written_when_buffer_full", "xfb", "",                       \
	  "18.7: primitives written counts only those captured in the buffers")              \
	X(ELAPSED_NS, "elapsed_in_nanoseconds", "elapsed", "RD_TIMESTAMP_PERIOD=2",          \
	  "VK_QCOM_elapsed_timer_query: the result is in timestamp ticks")                   \
	X(ELAPSED_MV_EACH, "elapsed_total_in_each_view", "elapsed", "RD_MULTIVIEW_QUERIES=spread", \
	  "VK_QCOM_elapsed_timer_query multiview: the views sum to the total")               \
	X(PERF_COPY, "perf_copy_writes_nothing", "perf", "",                                  \
	  "allowCommandBufferQueryCopies: vkCmdCopyQueryPoolResults writes the results")     \
	X(PERF_UUID, "perf_uuids_repeat", "perf", "",                                         \
	  "VkPerformanceCounterKHR::uuid identifies one counter")                             \
	X(PERF_PASSES_ONE, "perf_passes_underreported", "perf", "",                           \
	  "vkGetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR: the passes needed")      \
	X(INSTR_HEADER_SWAP, "instrumentation_header_fields_swapped", "instrumentation", "", \
	  "VkShaderInstrumentationMetricDataHeaderARM: resultIndex, resultSubIndex, stages, basicBlockIndex") \
	X(INSTR_STAGE_ORDER, "instrumentation_sorted_by_stage", "instrumentation", "",       \
	  "VK_ARM_shader_instrumentation: blocks in resultIndex order first")                \
	X(INSTR_NO_AGGREGATE, "instrumentation_not_aggregated", "instrumentation", "",       \
	  "VK_ARM_shader_instrumentation: metrics aggregate over submissions until cleared") \
	X(INSTR_VS_FS_ONLY, "instrumentation_vertex_fragment_only", "instrumentation", "",  \
	  "VK_ARM_shader_instrumentation: every instrumented stage that runs has metrics")    \
	X(INTEL_NULL_HW_IGNORED, "intel_null_hardware_ignored", "intel_perf", "",             \
	  "18.10: VK_PERFORMANCE_OVERRIDE_TYPE_NULL_HARDWARE_INTEL turns rendering into noop") \
	X(INTEL_FIRST_MARKER, "intel_first_marker_reported", "selftest.refdevice", "VKQS_SELFTEST=1", \
	  "18.10: the last marker set before the end of a query is part of its result")      \
	X(ENCODE_FEEDBACK_REVERSED, "encode_feedback_values_reversed", "video", "",           \
	  "18.12: feedback values are written in the order of the bits")                     \
	X(ENCODE_OFFSET_ABSOLUTE, "encode_offset_absolute", "video", "",                      \
	  "18.12: the bitstream offset is relative to VkVideoEncodeInfoKHR::dstBufferOffset") \
	X(ENCODE_PAST_RANGE, "encode_writes_past_range", "video", "",                         \
	  "VkVideoEncodeInfoKHR: nothing is written past dstBufferOffset + dstBufferRange")   \
	X(ENCODE_BYTES_SHORT, "encode_bytes_written_short", "video", "",                      \
	  "18.12: the number of bytes written by the video encode operation")                \
	X(ENCODE_INTRA_AS_INTER, "encode_intra_pixels_as_inter", "video.encode_feedback", "", \
	  "18.12 (VK_KHR_video_encode_feedback2): the pixels encoded as intra blocks")        \
	X(OCC_WRAP_16K, "occlusion_wraps_past_16k_in_a_pass", "scale", "",                     \
	  "18.3: a precise result must match the samples that passed, however many queries " \
	  "a render pass instance holds (MoltenVK#2682)")                                     \
	X(TS_POOL_4096, "timestamp_pool_capped_at_4096", "scale", "",                         \
	  "18.5: every timestamp written is available after the fence, whatever the pool's " \
	  "size (MoltenVK#1907)")                                                             \
	X(PERF_RESET_FROM_ZERO, "performance_reset_from_query_zero", "perf", "",               \
	  "18.2: a reset sets the status of queries [firstQuery, firstQuery + queryCount - 1] " \
	  "to unavailable, the others keep their results (v3dv b2db2e3f33d)")                  \
	X(TS_VIDEO_UNWRITTEN, "timestamp_unwritten_on_video_queue", "timestamp", "",          \
	  "VkQueueFamilyProperties: a family reporting timestampValidBits supports "         \
	  "timestamps; 18.5: the write makes the query available (anv 8c9a7f77303)")         \
	X(STATUS_UNWRITTEN, "result_status_unwritten", "video", "",                           \
	  "18.2 WITH_STATUS: an extra status value written directly after the results of "   \
	  "each query, 0 while unavailable")                                                 \
	X(CLOCK_RESET_IDLE, "clock_resets_after_idle", "idle", "RD_CLOCK=host",               \
	  "18.5: a timestamp written after another on the same queue is not lower (the "     \
	  "device clock restarted after 50 ms of idle: radv 5ae953b5e97, turnip 1989e1e6d86)") \
	X(WAIT_IGNORES_LOSS, "query_wait_ignores_lost_device", "lost", "",                    \
	  "Lost Device: vkGetQueryPoolResults with VK_QUERY_RESULT_WAIT_BIT must return in " \
	  "finite time even in the case of a lost device (radv 86954c766fa)")

enum rd_fault {
	RD_FAULT_NONE,
#define X(id, name, areas, env, rule) RD_FAULT_##id,
	RD_FAULT_LIST(X)
#undef X
	RD_FAULT_COUNT
};
struct rd_config {
	enum rd_arch arch;              /* RD_ARCH: how a render pass instance runs */
	uint32_t tile_w, tile_h;        /* RD_TILE=WxH (tiler) */
	uint32_t region_w, region_h;    /* RD_REGION=WxH, a multiple of the tile */
	float timestamp_period;         /* RD_TIMESTAMP_PERIOD (ns per tick) */
	uint32_t timestamp_valid_bits;  /* RD_TIMESTAMP_VALID_BITS (graphics family) */
	uint32_t transfer_valid_bits;   /* RD_TRANSFER_TIMESTAMP_VALID_BITS */
	enum rd_nonprecise_mode nonprecise; /* RD_NONPRECISE_OCCLUSION */
	enum rd_multiview_mode multiview;   /* RD_MULTIVIEW_QUERIES */
	enum rd_overflow_mode overflow;     /* RD_RESULT_OVERFLOW */
	uint64_t availability_value;    /* RD_AVAILABILITY_VALUE */
	uint32_t result_latency_us;     /* RD_RESULT_LATENCY_US */
	uint32_t draw_delay_us;         /* RD_DRAW_DELAY_US: real time each draw takes */
	uint32_t host_stall_ms;         /* RD_HOST_STALL_MS: every other fence of a queue
					   signals that late in real time */
	bool meta_draws;                /* RD_META_DRAWS=1: clears, blits, resolves and copies
					   count as internal draws (18.2 "may count") */
	uint32_t bench_slowdown_pct;    /* RD_BENCH_SLOWDOWN: timestamp writes, query begin and
					   end, vkGetQueryPoolResults that much slower */
	int32_t bench_busy_cpu;         /* RD_BENCH_BUSY_CPU: vkGetQueryPoolResults and
					   vkResetQueryPool 10x slower on that CPU; -1: none */
	bool not_ready_success;         /* RD_NOT_READY=success */
	bool unavailable_zero;          /* RD_UNAVAILABLE_VALUES=zero */
	enum { RD_PARTIAL_ZERO, RD_PARTIAL_FINAL, RD_PARTIAL_HALF } partial; /* RD_PARTIAL_VALUES */
	uint32_t command_cost_ns;       /* RD_COMMAND_COST_NS: each command's cost (0: back-to-back
					   timestamps are equal) */
	uint64_t max_deviation_ns;      /* RD_MAX_DEVIATION_NS: added to maxDeviation */
	bool host_clock;                /* RD_CLOCK=host */
	bool instrument_blocks;         /* RD_INSTRUMENT_BLOCKS: perBasicBlockGranularity */
	const char *profiling_lock_file; /* RD_PROFILING_LOCK_FILE */
	uint64_t clock_start;           /* RD_CLOCK_START: first tick value */
	uint32_t video_min_w, video_min_h; /* RD_VIDEO_MIN_CODED_EXTENT=WxH (default 16x16) */
	/* Fault, not a variation: RD_WEDGE_FILE names a file shared by every
	 * process, as a GPU is; submission RD_WEDGE_AFTER + 1 counted there
	 * loses the device, and so does every later one in any process. */
	const char *wedge_file;
	uint64_t wedge_after;
	enum rd_fault fault;            /* RD_FAULT */
	bool invalid;                   /* a knob's value or name is not valid: instance
					   creation fails (the reason on stderr) */
};
static inline bool rd_fault(const struct rd_config *c, enum rd_fault f)
{
	return c->fault == f;
}
/* Counts one submission in the machine-wide RD_WEDGE_FILE; true when the
 * modelled GPU is (now) wedged. */
bool rd_wedge_submit(const struct rd_config *c);
void rd_config_load(struct rd_config *c);

struct rd_instance {
	struct rd_object base;
	VkAllocationCallbacks alloc;
	bool has_alloc;
	uint32_t api_version;
	struct rd_config config;
	struct rd_physical_device *phys;
};

#define RD_FAMILY_GRAPHICS 0
#define RD_FAMILY_TRANSFER 1
#define RD_FAMILY_ENCODE 2   /* video encode (rd_video.c) */
#define RD_FAMILY_COMPUTE 3  /* compute and transfer, no graphics */
#define RD_FAMILY_COUNT 4
#define RD_GRAPHICS_QUEUES 2

struct rd_physical_device {
	struct rd_object base;
	struct rd_instance *instance;
};

/* Memory --------------------------------------------------------------- */
struct rd_memory {
	struct rd_object base;
	uint8_t *data;                  /* host memory backing the allocation */
	VkDeviceSize size;
	uint32_t type_index;
	bool mapped;
};

struct rd_buffer {
	struct rd_object base;
	VkDeviceSize size;
	VkBufferUsageFlags usage;
	struct rd_memory *mem;
	VkDeviceSize offset;
	uint8_t *data;                  /* mem->data + offset once bound */
};

struct rd_image {
	struct rd_object base;
	VkImageType type;
	VkFormat format;
	const struct rd_format_info *fmt;
	VkExtent3D extent;
	uint32_t layers;
	VkSampleCountFlagBits samples;
	VkImageUsageFlags usage;
	VkDeviceSize size;
	struct rd_memory *mem;
	VkDeviceSize offset;
	uint8_t *data;
};
/* Address of texel (x, y) of layer l, sample s (rd_format.h layout). */
static inline uint8_t *rd_image_texel(const struct rd_image *img, uint32_t x, uint32_t y,
				      uint32_t layer, uint32_t s)
{
	uint64_t i = (((uint64_t)layer * img->extent.height + y) * img->extent.width + x) *
			     img->samples + s;
	return img->data + i * img->fmt->texel_size;
}

struct rd_image_view {
	struct rd_object base;
	struct rd_image *image;
	VkFormat format;
	VkImageAspectFlags aspects;
	uint32_t base_layer, layer_count;
};

struct rd_sampler {
	struct rd_object base;
};

/* Synchronization ------------------------------------------------------- */
struct rd_fence {
	struct rd_object base;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool signaled;
};

struct rd_semaphore {
	struct rd_object base;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool timeline;
	uint64_t value;                 /* timeline value, or 1/0 for binary */
};

struct rd_event {
	struct rd_object base;
	atomic_bool set;
};

/* Queries --------------------------------------------------------------- */
#define RD_PERF_GROUPS 3 /* counters of different groups are collected in different passes */
/* A query's state (spec 18.2): unavailable or available, with its values
 * (one per statistic, or one).  Values are stored contiguously per pool so
 * reading many results back runs at memory speed. */
struct rd_query_pool {
	struct rd_object base;
	VkQueryType type;
	uint32_t count;
	VkQueryPipelineStatisticFlags statistics;
	uint32_t value_count;           /* values per query */
	uint64_t *values;               /* count * value_count */
	_Atomic uint8_t *available;     /* per query: 0 unavailable, 1 available */
	uint64_t *available_at_ns;      /* per query: host time from which it may be
					   reported available (RD_RESULT_LATENCY_US) */
	/* VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR: value k is counter counters[k]
	 * (a VkPerformanceCounterResultKHR's bytes); pass p collects the
	 * counters of group pass_group[p]; a query is available once every
	 * pass has been collected since its reset (passes_done). */
	uint32_t *counters;
	uint32_t pass_count;
	uint32_t pass_group[RD_PERF_GROUPS];
	uint32_t *passes_done;
	/* result status (VK_QUERY_RESULT_WITH_STATUS_BIT_KHR) of RESULT_STATUS_ONLY
	 * and VIDEO_ENCODE_FEEDBACK pools, per query (NULL for other types) */
	int32_t *status;
	uint32_t encode_feedback;       /* VkVideoEncodeFeedbackFlagsKHR of the pool */
	/* occlusion: per query, whether its last end was without PRECISE
	 * (RD_NONPRECISE_OCCLUSION=per_read reads it), and the results calls
	 * made so far */
	uint8_t *nonprecise;
	_Atomic uint32_t reads;
};

static inline uint64_t *rd_query_values(struct rd_query_pool *p, uint32_t query)
{
	return p->values + (size_t)query * p->value_count;
}

/* Pipelines and descriptors ----------------------------------------------*/
struct rd_shader_module {
	struct rd_object base;
	struct rd_shader *shader;       /* parsed once to refuse bad modules early */
	uint32_t *words;                /* a copy: pipelines parse their own */
	size_t size;
};

struct rd_descriptor_binding {
	uint32_t binding;
	VkDescriptorType type;
	uint32_t count;
	uint32_t first;                 /* index of its first slot in a set */
};

struct rd_descriptor_set_layout {
	struct rd_object base;
	uint32_t binding_count;
	struct rd_descriptor_binding *bindings;
	uint32_t slot_count;
};

/* Nothing of a pipeline layout is kept: the shaders address descriptors by
 * (set, binding) and push constants by offset, and a layout may be
 * destroyed while pipelines and command buffers made with it live. */
struct rd_pipeline_layout {
	struct rd_object base;
};

struct rd_descriptor_slot {
	struct rd_buffer *buffer;
	VkDeviceSize offset, range;
};

struct rd_descriptor_set {
	struct rd_object base;
	/* a copy of its layout's bindings: a set layout may be destroyed
	 * while sets allocated with it live (spec "Descriptor Set Layout":
	 * only vkUpdateDescriptorSets of such a set is then invalid) */
	uint32_t binding_count, slot_count;
	struct rd_descriptor_binding *bindings;
	struct rd_descriptor_slot *slots;
	struct rd_descriptor_pool *pool;
	struct rd_descriptor_set *next_in_pool;
};

struct rd_descriptor_pool {
	struct rd_object base;
	struct rd_descriptor_set *sets;
};

#define RD_MAX_SETS 8
/* Dynamic offsets of one vkCmdBindDescriptorSets: at most
 * maxDescriptorSetUniformBuffersDynamic + maxDescriptorSetStorageBuffersDynamic. */
#define RD_MAX_DYNAMIC 12

/* The slot of (binding, array element) of a set, NULL if none. */
const struct rd_descriptor_slot *rd_descriptor_lookup(struct rd_descriptor_set *s, uint32_t binding,
						      uint32_t element);
/* The dynamic buffer descriptors of a set take pDynamicOffsets in binding
 * number order, then array element order: the position of (binding,
 * element) among them, -1 when it is not one; and how many a set has. */
int rd_descriptor_dynamic_index(const struct rd_descriptor_set *s, uint32_t binding, uint32_t element);
uint32_t rd_descriptor_dynamic_count(const struct rd_descriptor_set *s);

struct rd_pipeline {
	struct rd_object base;
	VkPipelineBindPoint bind_point;
	struct rd_shader_module *vs_module, *fs_module, *cs_module; /* kept alive */
	struct rd_shader *vs, *fs, *cs;
	struct rd_shader *gs_shader;    /* geometry (gs is the graphics state) */
	struct rd_shader *tcs, *tes;    /* tessellation control and evaluation */
	struct rd_shader *task, *mesh;  /* task and mesh (VK_EXT_mesh_shader) */
	struct rd_entry_info vs_info, fs_info, cs_info, gs_info, tcs_info, tes_info;
	struct rd_entry_info task_info, mesh_info;
	/* graphics state; dynamic_mask says which fields come from commands */
	struct rd_graphics_state gs;
	uint32_t dynamic_mask;          /* RD_DYN_* */
	uint32_t binding_strides[RD_MAX_BINDINGS];
	VkVertexInputRate binding_rates[RD_MAX_BINDINGS];
	uint32_t stencil_compare_mask[2], stencil_write_mask[2], stencil_reference[2];
	uint32_t view_mask;             /* dynamic rendering viewMask */
	bool instrumented;              /* VK_PIPELINE_CREATE_2_INSTRUMENT_SHADERS_BIT_ARM */
};

enum {
	RD_DYN_VIEWPORT = 1u << 0,
	RD_DYN_SCISSOR = 1u << 1,
	RD_DYN_STENCIL_COMPARE = 1u << 2,
	RD_DYN_STENCIL_WRITE = 1u << 3,
	RD_DYN_STENCIL_REFERENCE = 1u << 4,
	RD_DYN_DEPTH_BOUNDS = 1u << 5,
	RD_DYN_LINE_WIDTH = 1u << 6,
	RD_DYN_COLOR_WRITE_ENABLE = 1u << 7,
	RD_DYN_BLEND_CONSTANTS = 1u << 8,
};

/* Render passes ---------------------------------------------------------*/
struct rd_attachment_desc {
	VkFormat format;
	VkSampleCountFlagBits samples;
	VkAttachmentLoadOp load_op, stencil_load_op;
};

#define RD_MAX_INPUT 4 /* maxPerStageDescriptorInputAttachments */

struct rd_subpass {
	uint32_t color_count;
	uint32_t color[RD_MAX_COLOR];   /* attachment index or VK_ATTACHMENT_UNUSED */
	uint32_t resolve[RD_MAX_COLOR]; /* or VK_ATTACHMENT_UNUSED */
	uint32_t depth_stencil;         /* or VK_ATTACHMENT_UNUSED */
	uint32_t input_count;
	uint32_t input[RD_MAX_INPUT];   /* InputAttachmentIndex i: attachment or VK_ATTACHMENT_UNUSED */
	uint32_t view_mask;
};

struct rd_render_pass {
	struct rd_object base;
	uint32_t attachment_count;
	struct rd_attachment_desc *attachments;
	uint32_t subpass_count;
	struct rd_subpass *subpasses;
	/* load_views[s * attachment_count + a]: what subpass s loads of
	 * attachment a (its load op): all its layers (UINT32_MAX) where a
	 * subpass without multiview uses it first; with multiview, the views
	 * of its view mask no earlier subpass used ("the load and store
	 * operations apply to attachments on a per-view basis": each view is
	 * loaded on its first use); 0: nothing */
	uint32_t *load_views;
};

struct rd_framebuffer {
	struct rd_object base;
	uint32_t width, height, layers;
	uint32_t attachment_count;
	struct rd_image_view **attachments;
};

/* Command buffers --------------------------------------------------------*/
struct rd_cmd;

struct rd_command_pool {
	struct rd_object base;
	uint32_t family;
	struct rd_command_buffer *buffers;
};

enum rd_cb_state { RD_CB_INITIAL, RD_CB_RECORDING, RD_CB_EXECUTABLE, RD_CB_INVALID };

struct rd_command_buffer {
	struct rd_object base;          /* dispatchable */
	struct rd_command_pool *pool;
	struct rd_command_buffer *next_in_pool;
	VkCommandBufferLevel level;
	enum rd_cb_state state;
	VkResult record_error;          /* sticky, returned by vkEndCommandBuffer */
	struct rd_cmd *cmds;
	uint32_t cmd_count, cmd_cap;
	struct rd_arena_block *arena;   /* command payloads */
	/* secondary inheritance */
	uint32_t inherit_view_mask;
	/* recording: the shader instrumentation active (vkCmdBeginShader-
	 * InstrumentationARM), and the pipelines bound */
	struct rd_shader_instrumentation *instr_active;
	struct rd_pipeline *bound[2];   /* graphics, compute */
	/* recording: the session parameters of the video coding scope */
	struct rd_video_params *video_params;
};

/* VK_ARM_shader_instrumentation --------------------------------------------*/
#define RD_INSTR_METRICS 3 /* invocations, basic blocks, instructions */
/* One metric block: VkShaderInstrumentationMetricDataHeaderARM's key and
 * the values. */
struct rd_instr_block {
	uint32_t result_index, sub_index, stages, basic_block;
	uint64_t values[RD_INSTR_METRICS];
};
struct rd_shader_instrumentation {
	struct rd_object base;
	_Atomic uint32_t next_index;    /* the result index of the next action recorded */
	pthread_mutex_t lock;           /* blocks: written by queues, read by the host */
	struct rd_instr_block *blocks;  /* sorted by key */
	size_t count, cap;
};
/* Adds one stage's run of one instrumented action: block_counts[b] is how
 * often basic block b of `shader` was entered. */
struct rd_shader;
void rd_instr_capture(struct rd_device *dev, struct rd_shader_instrumentation *in,
		      uint32_t result_index, VkShaderStageFlagBits stage,
		      const struct rd_shader *shader, const struct rd_entry_info *entry,
		      const uint64_t *block_counts);

/* Queues and the device ----------------------------------------------------*/
struct rd_submission;

/* The running counters of one queue's executor; queries snapshot them. */
struct rd_counters {
	struct rd_draw_counters draw;
	uint64_t cs_invocations;
	/* Counted once per command however a pass runs (not per tile). */
	uint64_t draws;                 /* draws, each draw of an indirect draw */
	uint64_t dispatches;
	uint64_t commands;              /* commands executed */
	uint64_t render_passes;         /* render pass instances begun */
	uint64_t bytes_transferred;     /* bytes of copy, fill and update commands */
	uint64_t tile_store_bytes;      /* bytes the tiler's tiles wrote back */
	/* Modelled work in ns (the cost model's charges): all of it, on any
	 * engine, and the part spent running shader invocations. */
	uint64_t work_ns;
	uint64_t shader_ns;
	/* Video encode operations (rd_video.c): those run, the bitstream bytes
	 * they wrote, those whose bitstream overrides parameters, those that
	 * failed for an insufficient bitstream buffer range. */
	uint64_t encode_ops;
	uint64_t encode_bytes;
	uint64_t encode_overrides;
	uint64_t encode_insufficient;
	uint64_t encode_intra_pixels;   /* VK_KHR_video_encode_feedback2 */
	uint64_t encode_partitions;
	/* Not bumped: the executor samples the modelled time (ns) into a
	 * snapshot, so a time-elapsed query is one more begin/end difference. */
	uint64_t time_ns;
};

struct rd_queue {
	struct rd_object base;          /* dispatchable */
	uint32_t family, index;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;            /* work queued / work done */
	struct rd_submission *head, *tail;
	bool busy, stop;
	struct rd_counters counters;
	/* VK_INTEL_performance_query: the configuration set on the queue (its
	 * id, 0: none) and the last stream marker executed */
	_Atomic uint64_t intel_config;
	uint64_t intel_stream_marker;
	uint64_t fences; /* fences signalled (RD_HOST_STALL_MS), on the queue's thread */
};

/* The encode feedback the refdevice reports (supportedEncodeFeedbackFlags),
 * the values in this bit order (rd_exec_query.c). */
#define RD_ENCODE_FEEDBACK_FLAGS                                                              \
	(VK_VIDEO_ENCODE_FEEDBACK_BITSTREAM_BUFFER_OFFSET_BIT_KHR |                           \
	 VK_VIDEO_ENCODE_FEEDBACK_BITSTREAM_BYTES_WRITTEN_BIT_KHR |                           \
	 VK_VIDEO_ENCODE_FEEDBACK_BITSTREAM_HAS_OVERRIDES_BIT_KHR |                           \
	 VK_VIDEO_ENCODE_FEEDBACK_INTRA_PIXELS_BIT_KHR | VK_VIDEO_ENCODE_FEEDBACK_INTER_PIXELS_BIT_KHR | \
	 VK_VIDEO_ENCODE_FEEDBACK_SKIPPED_PIXELS_BIT_KHR |                                    \
	 VK_VIDEO_ENCODE_FEEDBACK_PICTURE_PARTITION_COUNT_BIT_KHR)

struct rd_device {
	struct rd_object base;          /* dispatchable */
	struct rd_physical_device *phys;
	struct rd_instance *instance;
	VkAllocationCallbacks alloc;
	bool has_alloc;
	uint32_t queue_count[RD_FAMILY_COUNT];
	struct rd_queue *queues[RD_FAMILY_COUNT][RD_GRAPHICS_QUEUES];
	_Atomic uint64_t clock;         /* modelled device time in ns (rd_clock_now) */
	_Atomic uint64_t clock_host_base; /* RD_CLOCK=host: host ns at creation */
	bool elapsed_timer_query;       /* VK_QCOM_elapsed_timer_query enabled */
	bool performance_query;         /* VK_KHR_performance_query enabled */
	bool shader_instrumentation;    /* VK_ARM_shader_instrumentation enabled */
	bool intel_perf;                /* VK_INTEL_performance_query enabled */
	_Atomic bool intel_initialized; /* vkInitializePerformanceApiINTEL ... Uninitialize */
	_Atomic uint64_t intel_next_config; /* ids of acquired configurations */
	int profiling_lock_fd;          /* the lock file while this device holds it, else -1 */
	pthread_mutex_t event_lock;     /* vkCmdWaitEvents wake-ups */
	pthread_cond_t event_cond;
	/* Bound buffers, for shader accesses through device addresses
	 * (rd_device_address_range); guarded by addr_lock. */
	pthread_mutex_t addr_lock;
	struct rd_buffer **addr_buffers;
	uint32_t addr_count, addr_cap;
	/* Lost (rd_device_lose): nothing more executes; submissions and waits
	 * return VK_ERROR_DEVICE_LOST (devsandqueues.adoc, "Lost Device"). */
	_Atomic bool lost;
	/* host ns when the last command buffer finished (the fault
	 * clock_resets_after_idle reads it) */
	_Atomic uint64_t idle_since_ns;
};

/* The device is lost (why: one line for the log): as a GPU's watchdog
 * resets it after a shader that does not end.  Work already queued is
 * dropped, its fences and semaphores signalled so that no wait hangs. */
void rd_device_lose(struct rd_device *dev, const char *why);
static inline bool rd_device_lost(struct rd_device *dev)
{
	return atomic_load(&dev->lost);
}

/* The bound buffer whose device addresses hold [addr, addr + len). */
bool rd_device_address_range(struct rd_device *dev, uint64_t addr, uint64_t len,
			      struct rd_address_range *out);

/* Handle casts (STYLE 11): one line per type, all together. */
#define RD_FROM_HANDLE(T, name, h) struct T *name = (struct T *)(h)
#define RD_TO_HANDLE(VkT, p) ((VkT)(p))
_Static_assert(offsetof(struct rd_instance, base) == 0, "base first");
_Static_assert(offsetof(struct rd_physical_device, base) == 0, "base first");
_Static_assert(offsetof(struct rd_device, base) == 0, "base first");
_Static_assert(offsetof(struct rd_queue, base) == 0, "base first");
_Static_assert(offsetof(struct rd_command_buffer, base) == 0, "base first");

/* VK_ARM_performance_counters_by_region ------------------------------------*/
#define RD_REGION_MAX_COUNTERS 4        /* maxPerRegionPerformanceCounters */
#define RD_REGION_ALIGN 16              /* regionAlignment (bytes) */
#define RD_REGION_ROW_ALIGN 256         /* rowStrideAlignment (bytes) */
enum rd_region_counter_id {
	RD_RC_SAMPLES_PASSED = 0x5201,
	RD_RC_FS_INVOCATIONS = 0x5202,
	RD_RC_FRAGMENT_NS = 0x5203,
	RD_RC_REGION_NS = 0x5204,
	RD_RC_TILES = 0x5205,
};
#define RD_REGION_COUNTERS 5
struct rd_region_counter {
	uint32_t id;
	const char *name;
};
extern const struct rd_region_counter rd_region_counters[RD_REGION_COUNTERS];

/* Cross-file internals ------------------------------------------------------*/
extern const VkPhysicalDeviceLimits rd_limits;
uint32_t rd_family_valid_bits(const struct rd_config *c, uint32_t family);
uint64_t rd_clock_now(struct rd_device *dev);
/* Device time in ns (the cost model's, or the host's with RD_CLOCK=host),
 * and its conversion to timestamp ticks. */
uint64_t rd_clock_ns(struct rd_device *dev);
uint64_t rd_clock_ticks(struct rd_device *dev, uint64_t ns);
void rd_clock_advance(struct rd_device *dev, uint64_t ns);
/* Moves the model clock forward to ns if it is behind (the tiler's
 * engines publish their time when a command buffer completes). */
void rd_clock_advance_to(struct rd_device *dev, uint64_t ns);

int rd_queue_start(struct rd_queue *q);
void rd_queue_stop(struct rd_queue *q);
VkResult rd_queue_submit(struct rd_queue *q, uint32_t count, const VkSubmitInfo2 *submits,
			 struct rd_fence *fence);
void rd_queue_wait_idle(struct rd_queue *q);

void rd_fence_signal(struct rd_fence *f);
void rd_semaphore_signal(struct rd_semaphore *s, uint64_t value);
bool rd_semaphore_wait(struct rd_semaphore *s, uint64_t value, uint64_t timeout_ns);

void rd_command_buffer_reset(struct rd_command_buffer *cb);
void rd_command_buffer_free(struct rd_command_buffer *cb);
/* counter_pass: VkPerformanceQuerySubmitInfoKHR::counterPassIndex of the batch. */
void rd_execute_command_buffer(struct rd_queue *q, struct rd_command_buffer *cb,
			       uint32_t counter_pass);

/* VK_KHR_performance_query (rd_perf.c; refdevice/README.md lists the
 * counters).  rd_perf_group: the group a counter is collected in;
 * rd_perf_value: a counter's value over a query's counters difference. */
#define RD_PERF_COUNTERS 20
uint32_t rd_perf_group(uint32_t counter);
VkPerformanceCounterResultKHR rd_perf_value(uint32_t counter, const struct rd_counters *d);
void rd_perf_release_lock(struct rd_device *dev);
VkResult rd_perf_pool_init(struct rd_query_pool *p, const VkQueryPoolCreateInfo *ci);

/* VK_INTEL_performance_query (rd_intel.c; refdevice/README.md "Intel
 * performance queries" documents the report).  A query's result is an
 * opaque report of RD_INTEL_REPORT_WORDS 64-bit words; stream markers keep
 * RD_INTEL_STREAM_BITS bits. */
#define RD_INTEL_REPORT_WORDS 16
#define RD_INTEL_STREAM_BITS 24
#define RD_INTEL_MAGIC 0x495158564bull /* the bytes "KVXQI" */
struct rd_performance_configuration {
	struct rd_object base;
	uint64_t id;
};
/* The executor's state at a query's end, written into the report. */
struct rd_intel_state {
	uint64_t marker, stream_marker, config;
	bool null_hardware;
	uint32_t flushes;
};
void rd_intel_report(uint64_t *words, const struct rd_counters *d, const struct rd_intel_state *s);

/* Video encode (rd_video.c; refdevice/README.md "Video encode").  One
 * profile: H.264 High, monochrome, 8-bit luma, progressive; pictures are
 * VK_FORMAT_R8_UNORM; every macroblock is coded I_PCM, so the bitstream
 * carries the picture exactly. */
#define RD_VIDEO_MAX_PS 8          /* SPS and PPS each per parameters object */
#define RD_VIDEO_MAX_EXTENT 1024
#define RD_VIDEO_OFFSET_ALIGN 64   /* minBitstreamBufferOffsetAlignment */
#define RD_VIDEO_SIZE_ALIGN 64     /* minBitstreamBufferSizeAlignment */
/* A session keeps no state: the encoder needs none between operations
 * (every picture is I_PCM); creation checks the profile and limits. */
struct rd_video_session {
	struct rd_object base;
};
struct rd_video_params {
	struct rd_object base;
	pthread_mutex_t lock;           /* updates race with nothing recorded, but
					   vkGetEncodedVideoSessionParametersKHR may run anywhere */
	uint32_t sps_count, pps_count;
	StdVideoH264SequenceParameterSet sps[RD_VIDEO_MAX_PS]; /* pointers cleared */
	StdVideoH264PictureParameterSet pps[RD_VIDEO_MAX_PS];
};
/* vkCmdEncodeVideoKHR, copied at recording. */
struct rd_encode {
	struct rd_video_params *params;
	struct rd_buffer *dst;
	VkDeviceSize offset, range;
	struct rd_image_view *src, *setup; /* setup: the reconstructed picture's DPB slot, or NULL */
	VkOffset2D src_offset;
	VkExtent2D extent;
	StdVideoEncodeH264PictureInfo picture; /* pRefLists cleared */
	StdVideoEncodeH264SliceHeader slice;   /* pWeightTable cleared */
};
/* Runs one encode operation: writes the bitstream into dst (nothing past
 * offset + range) and adds it to the counter sink.  The refdevice writes
 * each operation's data at dstBufferOffset. */
void rd_video_encode(const struct rd_config *cfg, const struct rd_encode *op,
		     struct rd_counters *counters);
/* True when the VkVideoProfileListInfoKHR in the chain names only the
 * refdevice's profile. */
bool rd_video_image_profiles_ok(const void *chain);

/* The one writer behind vkGetQueryPoolResults and vkCmdCopyQueryPoolResults
 * (STYLE 14).  Returns VK_NOT_READY when a query was unavailable without
 * WAIT; with WAIT it waits for each query, on the host and on the queue. */
VkResult rd_query_write_results(struct rd_device *dev, struct rd_query_pool *pool,
				uint32_t first, uint32_t count, uint8_t *dst,
				VkDeviceSize stride, VkQueryResultFlags flags);
void rd_query_reset(const struct rd_config *c, struct rd_query_pool *pool, uint32_t first,
		    uint32_t count);
/* Returns the host time (ns) from which the query reads as available. */
uint64_t rd_query_make_available(struct rd_device *dev, struct rd_query_pool *pool,
				 uint32_t query);

uint64_t rd_now_ns(void);
/* Busy-waits about ns nanoseconds without reading a clock (a loop timed
 * once per process): RD_BENCH_SLOWDOWN's real time on the queue, where
 * two clock reads would cost more than the commands they stretch. */
void rd_spin_ns(uint64_t ns);

#endif
