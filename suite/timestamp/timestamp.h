/* Timestamp area: the pools, the work between writes, the series recorded inside and
 * outside render passes, and the checks of order and validBits the groups share. Each
 * group is one file of this folder; timestamp.c lists them in order. */
#ifndef VKQS_SUITE_TIMESTAMP_H
#define VKQS_SUITE_TIMESTAMP_H

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tscheck.h"
#include "vkqs.h"
#include "vkutil.h"

#define D (VKQS_D(ctx))

#define DEV (VKQS_DEV(ctx))

#define TS_MAX 32

#define TS_FLAGS64 (VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT)

/* Work between two writes: large enough to take measurable time on any
 * device, small enough for a CPU driver. */
#define WORK_FILL_SIZE (1u << 20)

#define TARGET_SIZE 64

struct ts_set {
	uint64_t v[TS_MAX];
	uint32_t n;
	uint32_t bits;    /* timestampValidBits of the queue that wrote them */
	uint64_t host_ns; /* from before vkQueueSubmit to after the fence wait */
};

/* VUID-vkCmdWriteTimestamp-timestampValidBits-00829: a family reporting 0
 * valid bits cannot write timestamps at all. */
uint32_t ts_queue_bits(struct vkqs_ctx *ctx, const struct vkqs_queue *q,
			   const char *what);

void ts_expect_after(struct vkqs_ctx *ctx, const struct ts_set *s, uint32_t i,
			 uint32_t j);

void ts_expect_all_valid(struct vkqs_ctx *ctx, const struct ts_set *s);

/* Every value valid, each one not before the one it happens-after. */
void ts_expect_series(struct vkqs_ctx *ctx, const struct ts_set *s);

void ts_get64(struct vkqs_ctx *ctx, VkQueryPool pool, uint32_t n, struct ts_set *s);

/* VUID-vkCmdResetQueryPool-commandBuffer-cmdpool: only graphics, compute
 * (and video) pools may record the reset.  For a transfer-only queue reset
 * on the host (hostQueryReset, core 1.2) or, lacking it, on the graphics
 * queue in a submission that completes first: queries are not tied to a
 * queue family. */
void ts_reset_for(struct vkqs_ctx *ctx, struct vkqs_queue *q, VkCommandBuffer cb,
		      VkQueryPool pool, uint32_t n);

struct work {
	struct vkqs_buffer *buf;      /* filled between two writes */
	const struct vkqs_target *t;  /* when set, every other step draws */
	const struct vkqs_pipeline *p;
	struct vkqs_buffer *copy_dst; /* when set, buf is copied here in turn with fills */
};

void ts_draw_pass(struct vkqs_ctx *ctx, VkCommandBuffer cb,
		      const struct vkqs_target *t, const struct vkqs_pipeline *p);

/* One write: vkCmdWriteTimestamp2 (synchronization2) or the 1.0 command;
 * every VkPipelineStageFlagBits has the same value in VkPipelineStageFlags2. */
void ts_write_ts(struct vkqs_ctx *ctx, VkCommandBuffer cb, bool sync2,
		     VkPipelineStageFlags2 stage, VkQueryPool pool, uint32_t query);

/* Work between full barriers before write i: a render pass that draws on
 * odd steps when the work has a target, else a fill, or (when the work has
 * a copy destination) a fill and a buffer copy in turn. */
void ts_work_step(struct vkqs_ctx *ctx, VkCommandBuffer cb, uint32_t i,
		      const struct work *w);

/* Writes queries first..first+n-1 at stages[i % nstages], with work between
 * full barriers before every write but the first.  The barrier's first
 * scope holds every earlier command (the previous write included) and its
 * second scope every later one at ALL_COMMANDS, so each write happens-after
 * the one before it. */
void ts_record_writes(struct vkqs_ctx *ctx, VkCommandBuffer cb, VkQueryPool pool,
			  uint32_t first, uint32_t n, const VkPipelineStageFlags2 *stages,
			  uint32_t nstages, bool sync2, const struct work *w);

void ts_record_series(struct vkqs_ctx *ctx, VkCommandBuffer cb, VkQueryPool pool,
			  uint32_t first, uint32_t n,
			  const VkPipelineStageFlagBits *stages, uint32_t nstages,
			  const struct work *w);

/* Six writes at one stage outside any render pass, separated by a render
 * pass that draws or by a fill (and, with synchronization2, a copy), each
 * after a full barrier. */
void ts_series_outside_render_pass(struct vkqs_ctx *ctx, VkPipelineStageFlags2 stage,
				       bool sync2);

/* Writes inside one subpass around draws.  vkCmdPipelineBarrier inside a
 * render pass needs a subpass self-dependency, which the target's render
 * pass lacks, so the writes inside are not ordered among themselves (on
 * tilers they need not be: bug class 27).  Each is ordered after a write
 * before the pass (full barrier, then the EXTERNAL->0 dependency at
 * ALL_COMMANDS) and before a write after it (the 0->EXTERNAL dependency,
 * then a full barrier). */
void ts_series_inside_render_pass(struct vkqs_ctx *ctx, VkPipelineStageFlags2 stage,
				      bool sync2);

/* stage2.* -----------------------------------------------------------------*/

/* vkCmdWriteTimestamp2 needs the synchronization2 feature
 * (VUID-vkCmdWriteTimestamp2-synchronization2-03858), core in Vulkan 1.3. */
void ts_require_sync2(struct vkqs_ctx *ctx);

#define Q_G VK_QUEUE_GRAPHICS_BIT

#define Q_C VK_QUEUE_COMPUTE_BIT

#define Q_GC (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)

#define Q_GCT (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT)

struct stage2_param {
	const char *name;
	VkPipelineStageFlags2 stage;
	VkQueueFlags queues; /* 0: every family; else a family with one of these */
	const char *feature; /* the feature the stage needs, or NULL */
};

/* The rows both tables share: the stages of the graphics pipeline from
 * top_of_pipe to all_graphics, and the two that span every stage. */
#define STAGES2_GRAPHICS \
	{"top_of_pipe", VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, 0, NULL}, \
	{"draw_indirect", VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT, Q_GC, NULL}, \
	{"index_input", VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT, Q_G, NULL}, \
	{"vertex_attribute_input", VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT, Q_G, NULL}, \
	{"vertex_input", VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT, Q_G, NULL}, \
	{"vertex_shader", VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT, Q_G, NULL}, \
	{"tessellation_control_shader", VK_PIPELINE_STAGE_2_TESSELLATION_CONTROL_SHADER_BIT, \
	 Q_G, "tessellationShader"}, \
	{"tessellation_evaluation_shader", \
	 VK_PIPELINE_STAGE_2_TESSELLATION_EVALUATION_SHADER_BIT, Q_G, "tessellationShader"}, \
	{"geometry_shader", VK_PIPELINE_STAGE_2_GEOMETRY_SHADER_BIT, Q_G, "geometryShader"}, \
	{"pre_rasterization_shaders", VK_PIPELINE_STAGE_2_PRE_RASTERIZATION_SHADERS_BIT, Q_G, \
	 NULL}, \
	{"early_fragment_tests", VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT, Q_G, NULL}, \
	{"fragment_shader", VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, Q_G, NULL}, \
	{"late_fragment_tests", VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT, Q_G, NULL}, \
	{"color_attachment_output", VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, Q_G, NULL}, \
	{"all_graphics", VK_PIPELINE_STAGE_2_ALL_GRAPHICS_BIT, Q_G, NULL},

#define STAGES2_SPANNING \
	{"bottom_of_pipe", VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT, 0, NULL}, \
	{"all_commands", VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0, NULL},

/* Every single stage vkCmdWriteTimestamp2 accepts on a graphics queue,
 * with the families that support it (the spec's table of supported
 * pipeline stage flags; VUID-vkCmdWriteTimestamp2-stage-03860) and the
 * feature it needs (VUID-vkCmdWriteTimestamp2-stage-03929/03930).  Left out:
 * NONE, which is no stage at all (VUID-vkCmdWriteTimestamp2-stage-03859:
 * "stage must only include a single pipeline stage"), and HOST, "a
 * pseudo-stage indicating execution on the host ... not invoked by any
 * commands recorded in a command buffer", so no place in a queue's
 * execution for a device write. */
#define STAGES2_OUTSIDE_COUNT 23
extern const struct stage2_param stages2_outside[STAGES2_OUTSIDE_COUNT];

/* valid_bits.* -------------------------------------------------------------*/

enum which_queue { QUEUE_GRAPHICS, QUEUE_COMPUTE, QUEUE_TRANSFER };

struct queue_param {
	const char *name;
	enum which_queue which;
	const char *what; /* for messages */
};

#define QUEUE_PARAMS_COUNT 3
extern const struct queue_param queue_params[QUEUE_PARAMS_COUNT];

void ts_queue_name(const void *param, char *buf, size_t size);

struct vkqs_queue *ts_pick_queue(struct vkqs_ctx *ctx, const struct queue_param *p);

/* result_width.* and copy.* -------------------------------------------------*/

/* Four writes alternating BOTTOM and TOP with fills between, on the graphics
 * queue; returns the command buffer still recording. */
VkCommandBuffer ts_record_four(struct vkqs_ctx *ctx, VkQueryPool pool);

/* Copies the four values with vkCmdCopyQueryPoolResults (WAIT, so the copy
 * waits for the writes recorded before it, spec 18.2) into a buffer preset
 * to a sentinel, at the given width. */
void ts_copy_four(struct vkqs_ctx *ctx, bool is64, struct ts_set *s, void *out);

/* order.* ------------------------------------------------------------------*/

static const VkPipelineStageFlagBits bottom_top[] = {
	VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
	VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
};

bool ts_has_calibrated(const struct vkqs_ctx *ctx);

/* Calibrated timestamps (calibrated.c) ------------------------------------*/

/* The calibrated-timestamp entry points and the domains the device lists. */
struct calib {
	PFN_vkGetCalibratedTimestampsKHR get;
	VkTimeDomainKHR domains[16];
	uint32_t n;
};
/* Fills c; ends the case as NotSupported without either extension. */
void calib_require(struct vkqs_ctx *ctx, struct calib *c);
bool calib_has(const struct calib *c, VkTimeDomainKHR d);
/* One vkGetCalibratedTimestamps call over n distinct domains; every
 * call's deviation must be strictly positive. */
void calib_get(struct vkqs_ctx *ctx, const struct calib *c, const VkTimeDomainKHR *doms,
	       uint32_t n, uint64_t *ts, uint64_t *deviation);
/* The pair (device, host) with the least deviation of four calls. */
struct calib_pair {
	uint64_t dev_ts, host_ts, deviation;
};
struct calib_pair calib_best_pair(struct vkqs_ctx *ctx, const struct calib *c,
				  VkTimeDomainKHR host);
/* The width device-domain values are compared at: the narrowest family's
 * timestampValidBits. */
uint32_t device_domain_bits(const struct vkqs_ctx *ctx);
/* Sleeps ns of CLOCK_MONOTONIC, through interruptions. */
void ts_sleep_ns(uint64_t ns);

/* The table ----------------------------------------------------------------*/

#define ORDER_SPEC_TAIL                                                        \
	"Any timestamp write that happens-after another timestamp write "       \
	"in the same submission must not have a lower value unless its value "  \
	"overflows the maximum supported integer bit width of the query"

#define ORDER_SPEC "18.5: " ORDER_SPEC_TAIL

#define PERIOD_SPEC                                                            \
	"18.5: The number of nanoseconds it takes for a timestamp value to be "  \
	"incremented by 1 can be obtained from VkPhysicalDeviceLimits::"         \
	"timestampPeriod"

#endif
