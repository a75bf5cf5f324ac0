/* Private to the queue's executor (rd_exec*.c): the state it keeps while it
 * runs a command buffer, and what its files call of each other.
 *
 *   rd_exec.c           the cost model and clock, the command switch, render
 *                       pass instances (immediate, tiled), command buffers
 *   rd_exec_draw.c      draws, dispatches, indirect draws, the descriptors
 *                       and interface the shaders see
 *   rd_exec_pass.c      attachments: loads, clears, resolves; render pass and
 *                       dynamic rendering begins, vkCmdClearAttachments
 *   rd_exec_query.c     queries: begin, end, results, timestamps (its faults:
 *                       rd_fault_layer.c)
 *   rd_exec_transfer.c  copies and blits between buffers and images
 *   rd_exec_region.c    counters by region (VK_ARM_performance_counters_by_region)
 */
#ifndef RD_EXEC_H
#define RD_EXEC_H

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rd_api.h"
#include "rd_cmd.h"
#include "compat.h"


/* Cost model of the deterministic clock, in nanoseconds (refdevice/README.md). */
#define COST_VERTEX_NS 1
#define COST_FRAGMENT_NS 1
#define COST_INVOCATION_NS 1
#define COST_BYTES_PER_NS 100 /* 100 GB/s */
#define COST_BIN_NS 1          /* tiler: binning one primitive */
#define COST_TILE_NS 100       /* tiler: starting a tile */


/* A query is a begin snapshot and an end difference of the one set of
 * counters the stages bump (STYLE 14, 17).  On the tiler a query inside a
 * render pass is begun and ended once per phase (binning, then each tile):
 * delta sums the differences, and the result is written after the last. */
struct active_query {
	struct rd_query_pool *pool;
	uint32_t query;
	VkQueryControlFlags flags;
	uint32_t index;                /* vkCmdBeginQueryIndexedEXT index (vertex stream) */
	uint32_t view_mask;            /* multiview mask of the subpass at begin */
	bool open;                     /* begun and not yet ended in this phase */
	struct rd_counters begin;      /* the snapshot at begin in this phase */
	struct rd_counters delta;      /* the sum of end - begin over the phases */
	bool beside_stats;             /* a primitives generated query that was active
					  together with a statistics query (a fault) */
	uint32_t pass_ordinal;         /* how many queries its render pass instance
					  began before it (a fault reads it) */
	bool ended_in_secondary;       /* its end was recorded in a secondary command
					  buffer (a fault reads it) */
	bool meta_seen;                /* a clear, copy, blit or resolve ran while it
					  was open ... */
	struct rd_counters at_meta;    /* ... and the counters at the first one (a
					  fault reads them) */
};

/* The state commands set, which a tiled render pass replays per tile: it
 * is restored to its value at the pass's start before each replay. */
struct exec_state {
	struct rd_pipeline *gfx, *compute;
	VkViewport viewport;
	VkRect2D scissor;
	float line_width;
	uint32_t color_write_enable;  /* VK_EXT_color_write_enable, bit per attachment */
	float depth_bounds[2];
	uint32_t stencil_compare[2], stencil_write[2], stencil_ref[2];
	struct rd_descriptor_set *sets[2][RD_MAX_SETS]; /* graphics, compute */
	uint32_t dyn[2][RD_MAX_SETS][RD_MAX_DYNAMIC];    /* their dynamic offsets */
	struct rd_buffer *index_buffer;
	VkDeviceSize index_offset;
	VkIndexType index_type;
	struct rd_buffer *vertex_buffers[RD_MAX_BINDINGS];
	VkDeviceSize vertex_offsets[RD_MAX_BINDINGS];
	uint8_t push[256];
	/* render pass instance */
	bool in_pass;
	uint32_t pass_queries;         /* queries begun in this render pass instance */
	bool suspending;               /* dynamic rendering begun with SUSPENDING */
	struct rd_render_pass *pass;
	struct rd_framebuffer *fb;
	uint32_t subpass;
	VkRect2D area;
	VkClearValue clears[16];
	uint32_t view_mask;
	uint32_t layer_count;
	uint32_t color_count;
	struct rd_image_view *color[RD_MAX_COLOR], *resolve[RD_MAX_COLOR];
	struct rd_image_view *depth;
	/* transform feedback: bindings, and the state while active */
	struct rd_buffer *xfb_buffers[RD_MAX_XFB_BUFFERS];
	VkDeviceSize xfb_offsets[RD_MAX_XFB_BUFFERS], xfb_sizes[RD_MAX_XFB_BUFFERS];
	bool xfb_active;
	struct rd_xfb xfb;
	/* VK_EXT_conditional_rendering: the predicate, latched at the
	 * begin, discards the draws, dispatches and attachment clears */
	bool cond_discard;
};

/* Where the executor is in a render pass instance (STYLE 16): straight
 * through (outside a pass, or any pass on the immediate architecture), the
 * tiler's binning phase, or its main phase for one tile. */
enum phase { PHASE_DIRECT, PHASE_BIN, PHASE_TILE };

/* A binned draw: the primitives of one draw (one record per indirect
 * draw) in exec.bin. */
struct bin_draw {
	uint32_t pos;                  /* the command's position in the pass */
	size_t first, end;
};

/* Counters by region of one tiled render pass instance. */
struct region_state {
	const struct rd_region_request *req;
	uint32_t layers;               /* L: layers, or the highest view index + 1 */
	uint32_t cols, rows;           /* regions over the render area */
	uint32_t region;               /* the running tile's region */
	struct rd_counters begin;      /* the snapshot at the subpass's start in this tile */
	uint64_t *acc;                 /* [element][row][column][counter] */
};

struct exec {
	struct rd_queue *q;
	struct rd_device *dev;
	/* RD_FAULT_PGQ_SHAPE_SWITCH: the last draw's shape (0 none, 1 without,
	 * 2 with a geometry shader) */
	int fault_prev_shape;
	struct exec_state s;
	enum phase phase;
	VkRect2D tile;                 /* PHASE_TILE: the tile, within the render area */
	uint32_t tile_index, tile_count;
	struct rd_bin bin;             /* the pass's primitives (tiler) */
	struct bin_draw *draws;
	uint32_t draw_count, draw_cap, draw_next;
	uint32_t cmd_pos;              /* position of the running command in the pass */
	/* the tiler's two hardware queues: when each is next free (device ns) */
	uint64_t geom_ns, frag_ns;
	/* queries: open ones, and (tiler) ones ended in an earlier phase of
	 * the pass that are begun again in the next */
	struct active_query *active;   /* grows: a tiled pass may hold any number; in
					  begin order, ended ones as holes (pool NULL) */
	uint32_t active_count, active_cap;
	uint32_t active_live;          /* entries that are not holes */
	uint32_t active_hint;          /* where find_query looks first */
	uint64_t available_at_ns;      /* the latest RD_RESULT_LATENCY_US deadline */
	struct region_state rc;        /* counters by region of the tiled pass, if asked */
	uint32_t counter_pass;         /* VkPerformanceQuerySubmitInfoKHR::counterPassIndex */
	uint32_t secondary_depth;      /* vkCmdExecuteCommands nesting (0: the primary) */
	const bool *pass_in_secondary; /* the running pass's commands: which came
					  from a secondary (render pass instances
					  run their secondaries flattened) */
	uint64_t cb_start_ns;          /* device time when the command buffer started */
	bool in_indirect;              /* the draws of an indirect draw are running */
	bool resets_hoisted;           /* RD_FAULT reset_hoisted_to_submission */
	/* RD_FAULT predicate_read_at_submission: the predicates of the
	 * command buffer's first conditional blocks, read at its start */
	const struct rd_cmd *early_cmd[8];
	uint32_t early_value[8];
	/* the shader instrumentation and result index of the next action */
	struct rd_shader_instrumentation *instr;
	uint32_t instr_index;
	/* VK_INTEL_performance_query: this command buffer's last marker and
	 * its overrides */
	struct rd_intel_state intel;
	VkDeviceSize encode_offset;    /* dstBufferOffset of the last encode (a fault's) */
	char err[256];
};

static inline bool tiler(const struct exec *e)
{
	return e->dev->instance->config.arch == RD_ARCH_TILER;
}

static inline uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static inline bool buffer_range_ok(const struct rd_buffer *b, VkDeviceSize off, VkDeviceSize size)
{
	return b && b->data && off <= b->size && size <= b->size - off;
}

/* the cost model (rd_exec.c) */
void exec_charge(struct exec *e, uint64_t ns);
uint64_t exec_time(const struct exec *e);
void exec_sample(const struct exec *e, struct rd_counters *out);
void exec_charge_shader(struct exec *e, uint64_t ns);
void exec_counters_accumulate(struct rd_counters *acc, const struct rd_counters *end,
	const struct rd_counters *begin);

/* query values (rd_exec_query.c), also for the fault layer */
uint64_t exec_statistic(const struct rd_counters *c, uint32_t bit);
uint64_t exec_nonprecise(const struct rd_config *cfg, uint64_t exact);
uint64_t exec_valid_mask(const struct exec *e);
uint64_t exec_elapsed_share(uint64_t ticks, uint32_t n, uint32_t slot, bool spread);

/* draws and dispatches (rd_exec_draw.c) */
void exec_draw(struct exec *e, const struct rd_draw_params *dp);
void exec_draw_tile(struct exec *e);
void exec_dispatch(struct exec *e, const uint32_t base[3], const uint32_t groups[3]);
void exec_draw_indirect(struct exec *e, const struct rd_cmd *c);

/* attachments and render pass begins (rd_exec_pass.c) */
struct rd_attachment exec_attachment_of(struct rd_image_view *v);
VkRect2D exec_rect_intersect(VkRect2D a, VkRect2D b);
void exec_clear_view_rect(struct exec *e, struct rd_image_view *v, VkImageAspectFlags aspects,
	const VkClearValue *value, VkRect2D r, uint32_t base_layer, uint32_t layer_count);
void exec_subpass_load(struct exec *e);
void exec_resolve_pixels(struct rd_image *src, uint32_t src_layer, struct rd_image *dst,
	uint32_t dst_layer, int32_t sx, int32_t sy, int32_t dx, int32_t dy, uint32_t w, uint32_t h);
void exec_subpass_resolve(struct exec *e);
void exec_begin_render_pass(struct exec *e, const struct rd_cmd *c);
void exec_clear_attachments(struct exec *e, const struct rd_cmd *c);
void exec_begin_rendering(struct exec *e, const struct rd_cmd *c);

/* queries (rd_exec_query.c) */
void exec_begin_query(struct exec *e, struct rd_query_pool *pool, uint32_t query,
	VkQueryControlFlags flags, uint32_t index);
void exec_end_query(struct exec *e, struct rd_query_pool *pool, uint32_t query, uint32_t index);
/* A clear, copy, blit or resolve outside a render pass instance: each open
 * query notes the counters at the first one it meets. */
void exec_meta_operation(struct exec *e);
void exec_write_timestamp(struct exec *e, struct rd_query_pool *pool, uint32_t query);

/* transfers (rd_exec_transfer.c) */
void exec_copy_buffer_image(struct exec *e, const struct rd_cmd *c, bool to_image);
void exec_blit(struct exec *e, const struct rd_cmd *c);
void exec_copy_image(struct exec *e, const struct rd_cmd *c);

/* counters by region (rd_exec_region.c) */
void exec_region_subpass_begin(struct exec *e);
void exec_region_subpass_end(struct exec *e);
void exec_region_start(struct exec *e, const struct rd_cmd *begin, VkRect2D area);
void exec_region_tile(struct exec *e, uint32_t tx, uint32_t ty);
void exec_region_write(struct exec *e);

#endif
