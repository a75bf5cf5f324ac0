/* The queue's executor: runs recorded commands in order on the queue's
 * thread.  Queries are counters with a begin snapshot and an end difference
 * (STYLE 14): the draw and dispatch stages bump the queue's counters, a
 * query copies them at begin and subtracts at end. */
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

#define MAX_ACTIVE 32

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
	struct active_query active[MAX_ACTIVE];
	uint32_t active_count;
	uint64_t available_at_ns;      /* the latest RD_RESULT_LATENCY_US deadline */
	struct region_state rc;        /* counters by region of the tiled pass, if asked */
	uint32_t counter_pass;         /* VkPerformanceQuerySubmitInfoKHR::counterPassIndex */
	uint64_t cb_start_ns;          /* device time when the command buffer started */
	bool in_indirect;              /* the draws of an indirect draw are running */
	bool resets_hoisted;           /* RD_FAULT reset_hoisted_to_submission */
	/* the shader instrumentation and result index of the next action */
	struct rd_shader_instrumentation *instr;
	uint32_t instr_index;
	/* VK_INTEL_performance_query: this command buffer's last marker and
	 * its overrides */
	struct rd_intel_state intel;
	VkDeviceSize encode_offset;    /* dstBufferOffset of the last encode (a fault's) */
	char err[256];
};

/* The cost model (refdevice/README.md "Architectures"): the immediate
 * architecture has one timeline, the device clock.  The tiler has two
 * hardware queues: the geometry engine (binning, compute, transfers) and
 * the fragment engine (the main phase, tile by tile); each command
 * buffer starts both at the device clock and publishes the later one when
 * it completes. */
static bool tiler(const struct exec *e)
{
	return e->dev->instance->config.arch == RD_ARCH_TILER;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static void charge(struct exec *e, uint64_t ns)
{
	e->q->counters.work_ns += ns;
	if (!tiler(e))
		rd_clock_advance(e->dev, ns);
	else if (e->phase == PHASE_TILE)
		e->frag_ns += ns;
	else
		e->geom_ns += ns;
}

/* The device time a command sees: outside a render pass (and for the
 * start or end of an elapsed timer there) the completion of all earlier
 * work; in the binning phase the geometry engine's; in the main phase the
 * fragment engine's. */
static uint64_t exec_time(const struct exec *e)
{
	if (e->dev->instance->config.host_clock || !tiler(e))
		return rd_clock_ns(e->dev);
	switch (e->phase) {
	case PHASE_BIN: return e->geom_ns;
	case PHASE_TILE: return e->frag_ns;
	default: return max_u64(e->geom_ns, e->frag_ns);
	}
}

/* A barrier whose first synchronization scope includes fragment work
 * makes the geometry engine wait for the fragment engine; without one,
 * binning and compute run ahead (seed 003's timing diagram). */
static void barrier(struct exec *e, VkPipelineStageFlags2 src)
{
	const VkPipelineStageFlags2 fragment =
		VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |
		VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT |
		VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT |
		VK_PIPELINE_STAGE_2_ALL_GRAPHICS_BIT | VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT |
		VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT;
	if (src & fragment)
		e->geom_ns = max_u64(e->geom_ns, e->frag_ns);
}

/* The counters as a command sees them now (STYLE 17). */
static void sample(const struct exec *e, struct rd_counters *out)
{
	*out = e->q->counters;
	out->time_ns = exec_time(e);
}

/* Time spent running shader invocations: charged, and counted as such. */
static void charge_shader(struct exec *e, uint64_t ns)
{
	e->q->counters.shader_ns += ns;
	charge(e, ns);
}

/* Every field of struct rd_counters is a uint64_t counter. */
_Static_assert(sizeof(struct rd_counters) % sizeof(uint64_t) == 0, "counters are uint64_t");
static void counters_accumulate(struct rd_counters *acc, const struct rd_counters *end,
				const struct rd_counters *begin)
{
	uint64_t *a = (uint64_t *)acc;
	const uint64_t *x = (const uint64_t *)end, *y = (const uint64_t *)begin;
	for (size_t i = 0; i < sizeof(*acc) / sizeof(uint64_t); i++)
		a[i] += x[i] - y[i];
}

/* Descriptors seen by shaders ------------------------------------------------*/

struct env_ctx {
	struct exec *e;
	int bind; /* 0 graphics, 1 compute */
	struct rd_buffer_range ranges[4];
	int next;
};

static const struct rd_buffer_range *env_buffer(void *user, uint32_t set, uint32_t binding,
						uint32_t element)
{
	struct env_ctx *c = user;
	if (set >= RD_MAX_SETS)
		return NULL;
	struct rd_descriptor_set *ds = c->e->s.sets[c->bind][set];
	const struct rd_descriptor_slot *s = rd_descriptor_lookup(ds, binding, element);
	if (!s || !s->buffer || !s->buffer->data)
		return NULL;
	/* A dynamic descriptor: its offset plus the one bound with the set;
	 * the range stays (spec "Descriptor Set Binding"). */
	int k = rd_descriptor_dynamic_index(ds, binding, element);
	uint64_t offset = s->offset + (k >= 0 && k < RD_MAX_DYNAMIC ? c->e->s.dyn[c->bind][set][k] : 0);
	if (offset > s->buffer->size)
		return NULL;
	struct rd_buffer_range *r = &c->ranges[c->next++ & 3];
	r->data = s->buffer->data + offset;
	r->size = s->range < s->buffer->size - offset ? s->range : s->buffer->size - offset;
	return r;
}

/* PhysicalStorageBuffer accesses: the device's bound buffers. */
static bool env_address(void *user, uint64_t addr, uint64_t len, struct rd_address_range *r)
{
	struct env_ctx *c = user;
	return rd_device_address_range(c->e->dev, addr, len, r);
}

/* Input attachments (spec "Fragment Input Attachment Interface"): index i
 * reads pInputAttachments[i] of the current subpass, at the view's layer. */
static bool env_input(void *user, uint32_t index, int32_t x, int32_t y, uint32_t view,
		      uint32_t sample, uint32_t out[4])
{
	struct env_ctx *c = user;
	const struct exec *e = c->e;
	if (!e->s.pass || !e->s.fb || index >= RD_MAX_INPUT)
		return false;
	const struct rd_subpass *sp = &e->s.pass->subpasses[e->s.subpass];
	if (index >= sp->input_count || sp->input[index] >= e->s.fb->attachment_count)
		return false;
	const struct rd_image_view *v = e->s.fb->attachments[sp->input[index]];
	const struct rd_image *img = v ? v->image : NULL;
	uint32_t layer = v ? v->base_layer + (e->s.view_mask ? view : 0) : 0;
	if (!img || !img->data || x < 0 || y < 0 || (uint32_t)x >= img->extent.width ||
	    (uint32_t)y >= img->extent.height || layer >= img->layers || sample >= img->samples)
		return false;
	const uint8_t *t = rd_image_texel(img, (uint32_t)x, (uint32_t)y, layer, sample);
	memset(out, 0, 4 * sizeof(*out));
	if (img->fmt->color) {
		if (img->fmt->is_uint || img->fmt->is_sint) {
			rd_format_load_color_u(img->fmt, t, out);
		} else {
			float f[4];
			rd_format_load_color(img->fmt, t, f);
			memcpy(out, f, sizeof(f));
		}
	} else if (v->aspects & VK_IMAGE_ASPECT_DEPTH_BIT && img->fmt->depth) {
		float d = rd_format_load_depth(img->fmt, t);
		memcpy(&out[0], &d, sizeof(d));
	} else if (img->fmt->stencil) {
		out[0] = rd_format_load_stencil(img->fmt, t);
	}
	return true;
}

/* Attachments --------------------------------------------------------------------*/

static struct rd_attachment attachment_of(struct rd_image_view *v)
{
	struct rd_attachment a = {0};
	if (!v)
		return a;
	a.base = v->image->data;
	a.fmt = v->image->fmt;
	a.width = v->image->extent.width;
	a.height = v->image->extent.height;
	a.samples = v->image->samples;
	a.image_layers = v->image->layers;
	a.base_layer = v->base_layer;
	return a;
}

/* The layers a render pass instance writes: the view mask's views, or
 * layer_count layers. */
static bool layer_used(const struct exec *e, uint32_t layer)
{
	return e->s.view_mask ? (e->s.view_mask >> layer) & 1 : layer < e->s.layer_count;
}

static VkRect2D rect_intersect(VkRect2D a, VkRect2D b)
{
	int64_t x0 = a.offset.x > b.offset.x ? a.offset.x : b.offset.x;
	int64_t y0 = a.offset.y > b.offset.y ? a.offset.y : b.offset.y;
	int64_t x1 = (int64_t)a.offset.x + a.extent.width, bx1 = (int64_t)b.offset.x + b.extent.width;
	int64_t y1 = (int64_t)a.offset.y + a.extent.height, by1 = (int64_t)b.offset.y + b.extent.height;
	x1 = x1 < bx1 ? x1 : bx1;
	y1 = y1 < by1 ? y1 : by1;
	VkRect2D r = {{(int32_t)x0, (int32_t)y0},
		      {(uint32_t)(x1 > x0 ? x1 - x0 : 0), (uint32_t)(y1 > y0 ? y1 - y0 : 0)}};
	return r;
}

/* Attachment writes of a render pass (load ops, vkCmdClearAttachments,
 * resolves) happen in the main phase, each tile writing its own pixels:
 * the rectangle within the tile, or nothing in the binning phase. */
static bool pass_rect(const struct exec *e, VkRect2D *r)
{
	if (e->phase == PHASE_BIN)
		return false;
	if (e->phase == PHASE_TILE)
		*r = rect_intersect(*r, e->tile);
	return true;
}

static void clear_view_rect(struct exec *e, struct rd_image_view *v, VkImageAspectFlags aspects,
			    const VkClearValue *value, VkRect2D r, uint32_t base_layer,
			    uint32_t layer_count)
{
	if (!pass_rect(e, &r))
		return;
	struct rd_image *img = v->image;
	const struct rd_format_info *fi = img->fmt;
	int32_t x0 = r.offset.x < 0 ? 0 : r.offset.x, y0 = r.offset.y < 0 ? 0 : r.offset.y;
	uint32_t x1 = (uint32_t)r.offset.x + r.extent.width, y1 = (uint32_t)r.offset.y + r.extent.height;
	if (x1 > img->extent.width)
		x1 = img->extent.width;
	if (y1 > img->extent.height)
		y1 = img->extent.height;
	for (uint32_t l = base_layer; l < base_layer + layer_count; l++) {
		uint32_t layer = v->base_layer + l;
		if (layer >= img->layers)
			break;
		for (uint32_t y = (uint32_t)y0; y < y1; y++)
			for (uint32_t x = (uint32_t)x0; x < x1; x++)
				for (uint32_t s = 0; s < img->samples; s++) {
					uint8_t *t = rd_image_texel(img, x, y, layer, s);
					if (fi->color) {
						if (fi->is_uint || fi->is_sint)
							rd_format_store_color_u(fi, t, value->color.uint32);
						else
							rd_format_store_color(fi, t, value->color.float32);
					}
					if ((aspects & VK_IMAGE_ASPECT_DEPTH_BIT) && fi->depth)
						rd_format_store_depth(fi, t, value->depthStencil.depth);
					if ((aspects & VK_IMAGE_ASPECT_STENCIL_BIT) && fi->stencil)
						rd_format_store_stencil(fi, t,
									(uint8_t)value->depthStencil.stencil);
				}
	}
	charge(e, (uint64_t)(x1 - (uint32_t)x0) * (y1 - (uint32_t)y0) * fi->texel_size / COST_BYTES_PER_NS);
}

/* Load ops of the attachments first used by the current subpass. */
static void subpass_load(struct exec *e)
{
	const struct rd_subpass *sp = &e->s.pass->subpasses[e->s.subpass];
	e->s.view_mask = sp->view_mask;
	e->s.layer_count = e->s.fb->layers;
	e->s.color_count = sp->color_count;
	for (uint32_t c = 0; c < RD_MAX_COLOR; c++) {
		e->s.color[c] = c < sp->color_count && sp->color[c] != VK_ATTACHMENT_UNUSED
				      ? e->s.fb->attachments[sp->color[c]]
				      : NULL;
		e->s.resolve[c] = c < sp->color_count && sp->resolve[c] != VK_ATTACHMENT_UNUSED
					? e->s.fb->attachments[sp->resolve[c]]
					: NULL;
	}
	e->s.depth = sp->depth_stencil != VK_ATTACHMENT_UNUSED
			   ? e->s.fb->attachments[sp->depth_stencil]
			   : NULL;
	uint32_t layers = e->s.view_mask ? 32 - (uint32_t)__builtin_clz(e->s.view_mask) : e->s.layer_count;
	for (uint32_t a = 0; a < e->s.pass->attachment_count; a++) {
		uint32_t load = e->s.pass->load_views[e->s.subpass * e->s.pass->attachment_count + a];
		if (!load)
			continue;
		const struct rd_attachment_desc *d = &e->s.pass->attachments[a];
		struct rd_image_view *v = e->s.fb->attachments[a];
		VkImageAspectFlags aspects = 0;
		if (v->image->fmt->color && d->load_op == VK_ATTACHMENT_LOAD_OP_CLEAR)
			aspects |= VK_IMAGE_ASPECT_COLOR_BIT;
		if (v->image->fmt->depth && d->load_op == VK_ATTACHMENT_LOAD_OP_CLEAR)
			aspects |= VK_IMAGE_ASPECT_DEPTH_BIT;
		if (v->image->fmt->stencil && d->stencil_load_op == VK_ATTACHMENT_LOAD_OP_CLEAR)
			aspects |= VK_IMAGE_ASPECT_STENCIL_BIT;
		if (!aspects || a >= 16)
			continue;
		for (uint32_t l = 0; l < layers; l++)
			if (layer_used(e, l) && (l >= 32 || (load >> l & 1)))
				clear_view_rect(e, v, aspects, &e->s.clears[a], e->s.area, l, 1);
	}
}

/* Multisample resolve: the average of the samples for float/UNORM colour
 * ("Multisample Resolve" allows an implementation-chosen average; integer
 * formats take sample 0). */
static void resolve_pixels(struct rd_image *src, uint32_t src_layer, struct rd_image *dst,
			   uint32_t dst_layer, int32_t sx, int32_t sy, int32_t dx, int32_t dy,
			   uint32_t w, uint32_t h)
{
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++) {
			uint32_t px = (uint32_t)sx + x, py = (uint32_t)sy + y;
			uint32_t qx = (uint32_t)dx + x, qy = (uint32_t)dy + y;
			if (px >= src->extent.width || py >= src->extent.height ||
			    qx >= dst->extent.width || qy >= dst->extent.height)
				continue;
			uint8_t *out = rd_image_texel(dst, qx, qy, dst_layer, 0);
			if (src->fmt->is_uint || src->fmt->is_sint || !src->fmt->color) {
				memcpy(out, rd_image_texel(src, px, py, src_layer, 0), src->fmt->texel_size);
				continue;
			}
			float acc[4] = {0, 0, 0, 0};
			for (uint32_t s = 0; s < src->samples; s++) {
				float c[4];
				rd_format_load_color(src->fmt, rd_image_texel(src, px, py, src_layer, s), c);
				for (int k = 0; k < 4; k++)
					acc[k] += c[k];
			}
			for (int k = 0; k < 4; k++)
				acc[k] /= (float)src->samples;
			rd_format_store_color(dst->fmt, out, acc);
		}
}

static void subpass_resolve(struct exec *e)
{
	VkRect2D r = e->s.area;
	if (!pass_rect(e, &r))
		return;
	for (uint32_t c = 0; c < e->s.color_count; c++) {
		if (!e->s.color[c] || !e->s.resolve[c])
			continue;
		uint32_t layers = e->s.view_mask ? 32 - (uint32_t)__builtin_clz(e->s.view_mask) : e->s.layer_count;
		for (uint32_t l = 0; l < layers; l++)
			if (layer_used(e, l))
				resolve_pixels(e->s.color[c]->image, e->s.color[c]->base_layer + l,
					       e->s.resolve[c]->image, e->s.resolve[c]->base_layer + l,
					       r.offset.x, r.offset.y, r.offset.x, r.offset.y,
					       r.extent.width, r.extent.height);
	}
}

/* Queries ----------------------------------------------------------------------------*/

static uint64_t total_samples(const struct rd_counters *c)
{
	uint64_t t = 0;
	for (int v = 0; v < RD_MAX_VIEWS; v++)
		t += c->draw.samples_passed[v];
	return t;
}

static uint32_t query_views(uint32_t view_mask)
{
	return view_mask ? (uint32_t)__builtin_popcount(view_mask) : 1;
}

static void make_available(struct exec *e, struct rd_query_pool *pool, uint32_t query)
{
	uint64_t at = rd_query_make_available(e->dev, pool, query);
	if (at > e->available_at_ns)
		e->available_at_ns = at;
}

static struct active_query *find_query(struct exec *e, struct rd_query_pool *pool,
				       uint32_t query, uint32_t index)
{
	for (uint32_t i = 0; i < e->active_count; i++)
		if (e->active[i].pool == pool && e->active[i].query == query &&
		    e->active[i].index == index)
			return &e->active[i];
	return NULL;
}

static void begin_query(struct exec *e, struct rd_query_pool *pool, uint32_t query,
			VkQueryControlFlags flags, uint32_t index)
{
	struct active_query *a = find_query(e, pool, query, index);
	if (!a) {
		if (e->active_count == MAX_ACTIVE) {
			rd_log("vkCmdBeginQuery: more than %d active queries", MAX_ACTIVE);
			return;
		}
		a = &e->active[e->active_count++];
		memset(a, 0, sizeof(*a));
		a->pool = pool;
		a->query = query;
		a->flags = flags;
		a->index = index;
		a->view_mask = e->s.in_pass ? e->s.view_mask : 0;
	}
	a->open = true;
	sample(e, &a->begin);
	if (rd_fault(&e->dev->instance->config, RD_FAULT_AVAILABLE_AT_BEGIN) &&
	    pool->type != VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR)
		make_available(e, pool, query);
}

/* The pipeline-statistics counters in VkQueryPipelineStatisticFlagBits bit
 * order. */
static uint64_t statistic(const struct rd_counters *c, uint32_t bit)
{
	switch (1u << bit) {
	case VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_VERTICES_BIT: return c->draw.ia_vertices;
	case VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT: return c->draw.ia_primitives;
	case VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT: return c->draw.vs_invocations;
	case VK_QUERY_PIPELINE_STATISTIC_GEOMETRY_SHADER_INVOCATIONS_BIT: return c->draw.gs_invocations;
	case VK_QUERY_PIPELINE_STATISTIC_GEOMETRY_SHADER_PRIMITIVES_BIT: return c->draw.gs_primitives;
	case VK_QUERY_PIPELINE_STATISTIC_CLIPPING_INVOCATIONS_BIT: return c->draw.clipping_invocations;
	case VK_QUERY_PIPELINE_STATISTIC_CLIPPING_PRIMITIVES_BIT: return c->draw.clipping_primitives;
	case VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT: return rd_fs_invocations(&c->draw);
	case VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT: return c->cs_invocations;
	case VK_QUERY_PIPELINE_STATISTIC_TESSELLATION_CONTROL_SHADER_PATCHES_BIT: return c->draw.tcs_patches;
	case VK_QUERY_PIPELINE_STATISTIC_TESSELLATION_EVALUATION_SHADER_INVOCATIONS_BIT:
		return c->draw.tes_invocations;
	case VK_QUERY_PIPELINE_STATISTIC_TASK_SHADER_INVOCATIONS_BIT_EXT: return c->draw.task_invocations;
	case VK_QUERY_PIPELINE_STATISTIC_MESH_SHADER_INVOCATIONS_BIT_EXT: return c->draw.mesh_invocations;
	default: return 0;
	}
}

static uint64_t nonprecise(const struct rd_config *cfg, uint64_t exact)
{
	/* 18.3: without PRECISE "an implementation may generate any non-zero
	 * result value for the query if the count of passing samples is
	 * non-zero" (RD_NONPRECISE_OCCLUSION). */
	if (!exact)
		return 0;
	switch (cfg->nonprecise) {
	case RD_NP_ONE: return 1;
	case RD_NP_OTHER: return 0x5a5a;
	default: return exact;
	}
}

static uint64_t valid_mask(const struct exec *e)
{
	uint32_t bits = rd_family_valid_bits(&e->dev->instance->config, e->q->family);
	return bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
}

/* A performance query (18.6): the pass the batch runs collects the
 * counters of its group, as VkPerformanceCounterResultKHR bytes in the
 * order of pCounterIndices; the query is available once every pass has
 * been collected since its reset. */
static void finish_perf_query(struct exec *e, const struct active_query *a)
{
	struct rd_query_pool *pool = a->pool;
	const struct rd_config *cfg = &e->dev->instance->config;
	uint32_t pass = e->counter_pass;
	if (pass >= pool->pass_count) {
		rd_log("performance query: counterPassIndex %u, the pool has %u passes "
		       "(VUID-VkPerformanceQuerySubmitInfoKHR-counterPassIndex-03221)",
		       pass, pool->pass_count);
		return;
	}
	bool every_pass = rd_fault(cfg, RD_FAULT_PERF_PASS_IGNORED);
	uint64_t *values = rd_query_values(pool, a->query);
	for (uint32_t k = 0; k < pool->value_count; k++) {
		/* the fault: the k-th counter in index order, not in pCounterIndices order */
		uint32_t counter = pool->counters[k];
		if (rd_fault(cfg, RD_FAULT_PERF_ORDER))
			for (uint32_t j = 0; j < pool->value_count; j++) {
				uint32_t rank = 0;
				for (uint32_t i = 0; i < pool->value_count; i++)
					rank += pool->counters[i] < pool->counters[j];
				if (rank == k)
					counter = pool->counters[j];
			}
		if (!every_pass && rd_perf_group(counter) != pool->pass_group[pass])
			continue;
		VkPerformanceCounterResultKHR r = rd_perf_value(counter, &a->delta);
		uint64_t v;
		memcpy(&v, &r, sizeof(v));
		values[k] = every_pass ? values[k] + v : v;
	}
	pool->passes_done[a->query] |= 1u << pass;
	if (pool->passes_done[a->query] == (1u << pool->pass_count) - 1)
		make_available(e, pool, a->query);
}

/* 18.11 / 18.12: the status of the video coding operations the query
 * covered (an insufficient bitstream buffer range is a failure of its own),
 * and the encode feedback values in the order of the bits: the bitstream
 * offset relative to dstBufferOffset (the refdevice writes every
 * operation's data there: 0), the bytes written, whether the bitstream has
 * overridden parameters (0 or 1). */
static void finish_video_query(struct exec *e, const struct active_query *a)
{
	struct rd_query_pool *pool = a->pool;
	const struct rd_counters *d = &a->delta;
	const struct rd_config *cfg = &e->dev->instance->config;
	pool->status[a->query] = d->encode_insufficient
					 ? (int32_t)VK_QUERY_RESULT_STATUS_INSUFFICIENT_BITSTREAM_BUFFER_RANGE_KHR
					 : (int32_t)VK_QUERY_RESULT_STATUS_COMPLETE_KHR;
	uint64_t *values = rd_query_values(pool, a->query);
	uint32_t k = 0;
	if (pool->encode_feedback & VK_VIDEO_ENCODE_FEEDBACK_BITSTREAM_BUFFER_OFFSET_BIT_KHR)
		values[k++] = rd_fault(cfg, RD_FAULT_ENCODE_OFFSET_ABSOLUTE) ? e->encode_offset : 0;
	if (pool->encode_feedback & VK_VIDEO_ENCODE_FEEDBACK_BITSTREAM_BYTES_WRITTEN_BIT_KHR)
		values[k++] = d->encode_bytes;
	if (pool->encode_feedback & VK_VIDEO_ENCODE_FEEDBACK_BITSTREAM_HAS_OVERRIDES_BIT_KHR)
		values[k++] = d->encode_overrides ? 1 : 0;
	if (rd_fault(cfg, RD_FAULT_ENCODE_FEEDBACK_REVERSED))
		for (uint32_t i = 0; i < k / 2; i++) {
			uint64_t t = values[i];
			values[i] = values[k - 1 - i];
			values[k - 1 - i] = t;
		}
	make_available(e, pool, a->query);
}

/* Writes a query's values from the differences it summed. */
static void finish_query(struct exec *e, const struct active_query *a)
{
	struct rd_query_pool *pool = a->pool;
	if (pool->type == VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR) {
		finish_perf_query(e, a);
		return;
	}
	if (pool->type == VK_QUERY_TYPE_VIDEO_ENCODE_FEEDBACK_KHR ||
	    pool->type == VK_QUERY_TYPE_RESULT_STATUS_ONLY_KHR) {
		finish_video_query(e, a);
		return;
	}
	if (pool->type == VK_QUERY_TYPE_PERFORMANCE_QUERY_INTEL) {
		/* the last marker set before the end is part of the result */
		struct rd_intel_state s = e->intel;
		s.stream_marker = e->q->intel_stream_marker;
		s.config = atomic_load(&e->q->intel_config);
		rd_intel_report(rd_query_values(pool, a->query), &a->delta, &s);
		make_available(e, pool, a->query);
		return;
	}
	const struct rd_counters *d = &a->delta;
	const struct rd_config *cfg = &e->dev->instance->config;
	uint32_t n = query_views(a->view_mask);
	for (uint32_t v = 0; v < n && a->query + v < pool->count; v++) {
		uint64_t *values = rd_query_values(pool, a->query + v);
		/* the faults: an occlusion count, or statistics, kept over
		 * resets (rd_query_reset leaves them) and added to */
		if (!rd_query_accumulates(cfg, pool))
			memset(values, 0, pool->value_count * sizeof(*values));
		/* Multiview (18.2): N consecutive queries whose sum is the total;
		 * RD_MULTIVIEW_QUERIES picks the total in the first one or one
		 * view per query. */
		bool spread = a->view_mask && cfg->multiview != RD_MV_FIRST;
		/* RD_MULTIVIEW_QUERIES=reversed: view order reversed over the
		 * queries ("how the numerical results of the query are
		 * distributed among the queries is implementation-dependent") */
		uint32_t slot = cfg->multiview == RD_MV_REVERSED ? n - 1 - v : v;
		if (!spread && v > 0) {
			if (rd_fault(cfg, RD_FAULT_MV_TOTAL_EACH) && pool->type == VK_QUERY_TYPE_OCCLUSION)
				values[0] = total_samples(d);
			if (!rd_fault(cfg, RD_FAULT_MV_SLOTS_UNAVAILABLE))
				make_available(e, pool, a->query + v);
			continue;
		}
		if (pool->type == VK_QUERY_TYPE_OCCLUSION) {
			uint64_t count;
			if (spread) {
				/* the slot-th set bit of the view mask */
				uint32_t m = a->view_mask, view = 0;
				for (uint32_t k = 0; k <= slot; k++) {
					view = (uint32_t)__builtin_ctz(m);
					m &= m - 1;
				}
				count = d->draw.samples_passed[view];
			} else if (rd_fault(cfg, RD_FAULT_MV_FIRST_VIEW) && a->view_mask) {
				count = d->draw.samples_passed[__builtin_ctz(a->view_mask)];
			} else {
				count = total_samples(d);
			}
			if (count && rd_fault(cfg, RD_FAULT_PRECISE_BOOLEAN))
				count = 1;
			if (count && rd_fault(cfg, RD_FAULT_OCCLUSION_PLUS_ONE))
				count++;
			values[0] += (a->flags & VK_QUERY_CONTROL_PRECISE_BIT) ? count
									  : nonprecise(cfg, count);
		} else if (pool->type == VK_QUERY_TYPE_PIPELINE_STATISTICS) {
			uint32_t k = 0;
			for (uint32_t bit = 0; bit < 32; bit++)
				if (pool->statistics & (1u << bit)) {
					/* statistics are counted for all views together:
					 * the first query holds the total */
					uint32_t b = bit;
					if (rd_fault(cfg, RD_FAULT_STATS_FS_AS_CLIP) &&
					    (1u << bit) == VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT)
						b = (uint32_t)__builtin_ctz(VK_QUERY_PIPELINE_STATISTIC_CLIPPING_INVOCATIONS_BIT);
					values[k++] += statistic(d, b);
				}
			if (rd_fault(cfg, RD_FAULT_STATS_REVERSED))
				for (uint32_t i = 0; i < k / 2; i++) {
					uint64_t t = values[i];
					values[i] = values[k - 1 - i];
					values[k - 1 - i] = t;
				}
		} else if (pool->type == VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT) {
			/* 18.7: primitives written, then primitives output to the
			 * query's vertex stream (index) while transform feedback
			 * was active. */
			if (a->index < RD_MAX_STREAMS) {
				bool swap = rd_fault(cfg, RD_FAULT_XFB_SWAPPED);
				values[swap] = d->draw.xfb_primitives_written[a->index];
				values[!swap] = d->draw.xfb_primitives_needed[a->index];
			}
		} else if (pool->type == VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT) {
			/* 18.8: every primitive output to the query's vertex
			 * stream (index), whether or not transform feedback is
			 * active. */
			if (a->index < RD_MAX_STREAMS)
				values[0] = rd_fault(cfg, RD_FAULT_PGQ_AS_WRITTEN)
						    ? d->draw.xfb_primitives_written[a->index]
						    : d->draw.primitives_generated[a->index];
		} else if (pool->type == VK_QUERY_TYPE_MESH_PRIMITIVES_GENERATED_EXT) {
			/* 18.9: mesh primitives that reach the fragment shader
			 * stage, counted for all views together (the first
			 * query holds the total) */
			values[0] = !spread || slot == 0 ? d->draw.mesh_primitives : 0;
		} else if (pool->type == VK_QUERY_TYPE_TIME_ELAPSED_QCOM) {
			/* The device time between begin and end, summed over the
			 * phases (every tile), in timestamp ticks within
			 * timestampValidBits.  Multiview: the total in the first
			 * query, or split evenly with the remainder in the first;
			 * "the sum of the results in all of the view query indices
			 * must accurately reflect the total". */
			uint64_t ticks = rd_fault(cfg, RD_FAULT_ELAPSED_ZERO) ? 0
					 : rd_fault(cfg, RD_FAULT_ELAPSED_NS)
						 ? d->time_ns
						 : (uint64_t)((double)d->time_ns / cfg->timestamp_period);
			uint64_t share = ticks / n;
			values[0] = (!spread ? ticks : slot == 0 ? ticks - share * (n - 1) : share) &
				    valid_mask(e);
			if (spread && rd_fault(cfg, RD_FAULT_ELAPSED_MV_EACH))
				values[0] = ticks & valid_mask(e); /* the total in each view */
		}
		make_available(e, pool, a->query + v);
	}
}

/* vkCmdEndQueryIndexedEXT "completes the query in queryPool identified by
 * query and index".  On the tiler a query inside a render pass completes
 * at its end in the last tile. */
static void end_query(struct exec *e, struct rd_query_pool *pool, uint32_t query, uint32_t index)
{
	struct active_query *a = find_query(e, pool, query, index);
	if (!a || !a->open) {
		rd_log("vkCmdEndQuery: query %u (index %u) is not active", query, index);
		return;
	}
	struct rd_counters now;
	sample(e, &now);
	uint64_t time_before = a->delta.time_ns;
	counters_accumulate(&a->delta, &now, &a->begin);
	if (rd_fault(&e->dev->instance->config, RD_FAULT_ELAPSED_FIRST_TILE) &&
	    (e->phase == PHASE_BIN || (e->phase == PHASE_TILE && e->tile_index > 0)))
		a->delta.time_ns = time_before;
	a->open = false;
	if (e->phase == PHASE_BIN || (e->phase == PHASE_TILE && e->tile_index + 1 < e->tile_count))
		return;
	struct active_query done = *a;
	*a = e->active[--e->active_count];
	finish_query(e, &done);
}

/* A timestamp inside a render pass on the tiler is written while the first
 * tile executes (spec 18.5 lets an implementation write it at any stage
 * logically after the one named; a tiler has no better moment: the pass
 * runs once per tile).  In the binning phase and later tiles it is not
 * written again. */
static void write_timestamp(struct exec *e, struct rd_query_pool *pool, uint32_t query)
{
	if (e->phase == PHASE_BIN || (e->phase == PHASE_TILE && e->tile_index > 0))
		return;
	/* "If an overflow occurs, the timestamp value must wrap back to zero";
	 * bits above timestampValidBits are zero. */
	const struct rd_config *cfg = &e->dev->instance->config;
	/* the fault: a clock that restarts with every command buffer */
	uint64_t t = rd_clock_ticks(e->dev, rd_fault(cfg, RD_FAULT_TS_PER_CB)
						    ? exec_time(e) - e->cb_start_ns
						    : exec_time(e)) &
		     valid_mask(e);
	if (rd_fault(cfg, RD_FAULT_TS_HIGH_BITS) && valid_mask(e) != UINT64_MAX)
		t |= ~valid_mask(e);
	if (rd_fault(cfg, RD_FAULT_TS_ZERO))
		t = 0;
	if (rd_fault(cfg, RD_FAULT_TS_BACKWARDS))
		t = (valid_mask(e) >> 1) - t; /* runs down as the clock runs up */
	uint32_t n = e->s.in_pass ? query_views(e->s.view_mask) : 1;
	bool spread = e->dev->instance->config.multiview != RD_MV_FIRST;
	for (uint32_t v = 0; v < n && query + v < pool->count; v++) {
		/* 18.5 multiview: the first query holds the timestamp and the
		 * others zero, or all N hold timestamps. */
		rd_query_values(pool, query + v)[0] = v == 0 || spread ? t : 0;
		make_available(e, pool, query + v);
	}
}

/* Draws and dispatches ---------------------------------------------------------------*/

/* A draw's counters into the sink; every field is a uint64_t counter. */
_Static_assert(sizeof(struct rd_draw_counters) % sizeof(uint64_t) == 0, "counters are uint64_t");
static void add_counters(struct rd_counters *total, const struct rd_draw_counters *d)
{
	uint64_t *t = (uint64_t *)&total->draw;
	const uint64_t *x = (const uint64_t *)d;
	for (size_t i = 0; i < sizeof(*d) / sizeof(uint64_t); i++)
		t[i] += x[i];
}

/* The state a draw runs with, from the pipeline, dynamic state and the
 * render pass instance; env and ec are the caller's. */
static bool draw_state(struct exec *e, struct rd_graphics_state *gs, struct rd_exec_env *env,
		       struct env_ctx *ec)
{
	struct rd_pipeline *p = e->s.gfx;
	if (!p || !e->s.in_pass) {
		rd_log("draw without a graphics pipeline or outside a render pass: skipped");
		return false;
	}
	*ec = (struct env_ctx){.e = e, .bind = 0};
	*env = (struct rd_exec_env){.push_constants = e->s.push, .buffer = env_buffer,
				    .input_attachment = env_input, .address = env_address, .user = ec};
	*gs = p->gs;
	struct rd_graphics_state *const g = gs;
	g->env = env;
	if (p->dynamic_mask & RD_DYN_VIEWPORT)
		g->viewport = e->s.viewport;
	if (p->dynamic_mask & RD_DYN_SCISSOR)
		g->scissor = e->s.scissor;
	if (p->dynamic_mask & RD_DYN_LINE_WIDTH)
		g->line_width = e->s.line_width;
	/* "VK_FALSE ... no color writes to the attachment" (as mask 0) */
	if (p->dynamic_mask & RD_DYN_COLOR_WRITE_ENABLE)
		for (uint32_t i = 0; i < RD_MAX_COLOR; i++)
			if (!(e->s.color_write_enable >> i & 1))
				g->color_write_mask[i] = 0;
	if (p->dynamic_mask & RD_DYN_DEPTH_BOUNDS) {
		g->min_depth_bounds = e->s.depth_bounds[0];
		g->max_depth_bounds = e->s.depth_bounds[1];
	}
	if (p->dynamic_mask & RD_DYN_STENCIL_COMPARE) {
		g->front.compareMask = e->s.stencil_compare[0];
		g->back.compareMask = e->s.stencil_compare[1];
	}
	if (p->dynamic_mask & RD_DYN_STENCIL_WRITE) {
		g->front.writeMask = e->s.stencil_write[0];
		g->back.writeMask = e->s.stencil_write[1];
	}
	if (p->dynamic_mask & RD_DYN_STENCIL_REFERENCE) {
		g->front.reference = e->s.stencil_ref[0];
		g->back.reference = e->s.stencil_ref[1];
	}
	for (uint32_t b = 0; b < RD_MAX_BINDINGS; b++) {
		struct rd_buffer *vb = e->s.vertex_buffers[b];
		g->bindings[b].stride = p->binding_strides[b];
		g->bindings[b].rate = p->binding_rates[b];
		if (vb && vb->data && e->s.vertex_offsets[b] <= vb->size) {
			g->bindings[b].data = vb->data + e->s.vertex_offsets[b];
			g->bindings[b].size = vb->size - e->s.vertex_offsets[b];
		}
	}
	g->render_area = e->s.area;
	g->color_count = e->s.color_count;
	for (uint32_t c = 0; c < e->s.color_count; c++)
		g->color[c] = attachment_of(e->s.color[c]);
	g->depth_stencil = attachment_of(e->s.depth);
	g->view_mask = e->s.view_mask;
	if (e->s.xfb_active) {
		/* "The sizes of the transform feedback buffers are defined by the
		 * pSizes parameter ... or the size of the bound buffer, whichever
		 * is the lesser." */
		for (uint32_t b = 0; b < RD_MAX_XFB_BUFFERS; b++) {
			struct rd_buffer *xb = e->s.xfb_buffers[b];
			e->s.xfb.data[b] = NULL;
			if (!xb || !xb->data || e->s.xfb_offsets[b] > xb->size)
				continue;
			VkDeviceSize rest = xb->size - e->s.xfb_offsets[b];
			e->s.xfb.data[b] = xb->data + e->s.xfb_offsets[b];
			e->s.xfb.size[b] = e->s.xfb_sizes[b] < rest ? e->s.xfb_sizes[b] : rest;
		}
		g->xfb = &e->s.xfb;
	}
	return true;
}

static void charge_fragments(struct exec *e, const struct rd_draw_counters *dc)
{
	uint64_t samples = 0;
	for (int v = 0; v < RD_MAX_VIEWS; v++)
		samples += dc->samples_passed[v] / 4;
	charge_shader(e, rd_fs_invocations(dc) * COST_FRAGMENT_NS);
	charge(e, samples * COST_FRAGMENT_NS);
}

/* Shader instrumentation (VK_ARM_shader_instrumentation): per-block entry
 * counts for a stage of an instrumented pipeline while an object is
 * active, NULL otherwise; instr_capture adds them to the object. */
static uint64_t *instr_counts(const struct exec *e, const struct rd_pipeline *p,
			      const struct rd_shader *s)
{
	if (!e->instr || !p->instrumented || !s)
		return NULL;
	uint64_t *c = calloc(rd_shader_block_count(s) + 1, sizeof(*c));
	if (!c)
		rd_log("shader instrumentation: out of memory; metrics dropped");
	return c;
}

static void instr_capture(struct exec *e, VkShaderStageFlagBits stage, const struct rd_shader *s,
			  const struct rd_entry_info *info, uint64_t *counts)
{
	if (!counts)
		return;
	rd_instr_capture(e->dev, e->instr, e->instr_index, stage, s, info, counts);
	free(counts);
}

/* Injected faults in a draw's counters (RD_FAULT; rd.h says the rule each
 * breaks).  dp is NULL in a tile (fragment work only). */
static void draw_faults(struct exec *e, const struct rd_graphics_state *g,
			const struct rd_draw_params *dp, struct rd_draw_counters *dc)
{
	const struct rd_config *cfg = &e->dev->instance->config;
	if (cfg->fault == RD_FAULT_NONE)
		return;
	for (int v = 0; v < RD_MAX_VIEWS; v++) {
		if (rd_fault(cfg, RD_FAULT_OCC_PIXELS) && g->samples > 1)
			dc->samples_passed[v] /= g->samples;
		uint64_t shaded = dc->fs_invocations[v] * (g->sample_shading ? 1 : g->samples);
		if (rd_fault(cfg, RD_FAULT_OCC_DISCARDED) && dc->samples_passed[v] < shaded)
			dc->samples_passed[v] = shaded;
	}
	if (g->gs && rd_fault(cfg, RD_FAULT_GS_INVOCATIONS_ONCE))
		dc->gs_invocations /= g->gs_info.gs_invocations;
	if (rd_fault(cfg, RD_FAULT_GS_PRIMITIVES_RESTART))
		dc->gs_primitives = dc->gs_primitives_first_strip;
	if (g->gs && dp && rd_fault(cfg, RD_FAULT_CLIP_BEFORE_GS))
		dc->clipping_invocations = dc->ia_primitives;
	if (g->tcs && dp && rd_fault(cfg, RD_FAULT_TESS_PATCHES_PER_DRAW))
		dc->tcs_patches = dc->tcs_patches != 0;
	if (rd_fault(cfg, RD_FAULT_TES_COUNTS_PRIMITIVES))
		dc->tes_invocations = dc->tess_primitives;
	const uint32_t *tl = g->task_info.local_size, *ml = g->mesh_info.local_size;
	if (g->task && rd_fault(cfg, RD_FAULT_TASK_PER_WORKGROUP))
		dc->task_invocations /= (uint64_t)tl[0] * tl[1] * tl[2];
	if (g->mesh && rd_fault(cfg, RD_FAULT_MESH_PER_WORKGROUP))
		dc->mesh_invocations /= (uint64_t)ml[0] * ml[1] * ml[2];
	if (g->mesh && rd_fault(cfg, RD_FAULT_MESH_PRIMITIVES_CULLED))
		dc->mesh_primitives = dc->mesh_primitives_emitted;
	if (rd_fault(cfg, RD_FAULT_ADJACENCY_UNSHADED))
		dc->vs_invocations -= dc->adjacent_vertices;
	if (rd_fault(cfg, RD_FAULT_STREAMS_MERGED))
		for (int s = 1; s < RD_MAX_STREAMS; s++) {
			dc->primitives_generated[0] += dc->primitives_generated[s];
			dc->primitives_generated[s] = 0;
		}
	for (int s = 0; s < RD_MAX_STREAMS; s++) {
		if (rd_fault(cfg, RD_FAULT_PGQ_DISCARD) && g->rasterizer_discard)
			dc->primitives_generated[s] = 0;
		if (rd_fault(cfg, RD_FAULT_XFB_WRITTEN_FULL))
			dc->xfb_primitives_written[s] = dc->xfb_primitives_needed[s];
	}
	uint64_t *vertex_side[] = {&dc->ia_vertices, &dc->ia_primitives, &dc->vs_invocations,
				   &dc->clipping_invocations, &dc->clipping_primitives};
	for (size_t i = 0; dp && i < sizeof(vertex_side) / sizeof(vertex_side[0]); i++) {
		if (rd_fault(cfg, RD_FAULT_STATS_INSTANCE_ONCE) && dp->instance_count > 1)
			*vertex_side[i] /= dp->instance_count;
		if (rd_fault(cfg, RD_FAULT_STATS_INDIRECT) && e->in_indirect)
			*vertex_side[i] = 0;
	}
}

/* A draw: straight through, or (tiler, binning phase) its vertex work,
 * the primitives kept for the main phase. */
static void draw(struct exec *e, const struct rd_draw_params *dp)
{
	struct rd_graphics_state g;
	struct rd_exec_env env;
	struct env_ctx ec;
	if (!draw_state(e, &g, &env, &ec))
		return;
	struct rd_draw_params d = *dp;
	if (d.indexed) {
		struct rd_buffer *ib = e->s.index_buffer;
		if (!ib || !ib->data || e->s.index_offset > ib->size) {
			rd_log("indexed draw without an index buffer: skipped");
			return;
		}
		d.index_data = ib->data + e->s.index_offset;
		d.index_size = ib->size - e->s.index_offset;
		d.index_type = e->s.index_type;
	}
	struct rd_draw_counters dc;
	memset(&dc, 0, sizeof(dc));
	char err[256];
	size_t first = e->bin.prim_count;
	if (e->phase == PHASE_BIN)
		g.bin = &e->bin;
	struct rd_pipeline *p = e->s.gfx;
	g.vs_blocks = instr_counts(e, p, p->vs);
	g.fs_blocks = e->phase == PHASE_BIN ? NULL : instr_counts(e, p, p->fs);
	if (rd_draw(&g, &d, &dc, err, sizeof(err)) != 0)
		rd_log("draw: %s", err);
	instr_capture(e, VK_SHADER_STAGE_VERTEX_BIT, p->vs, &p->vs_info, g.vs_blocks);
	instr_capture(e, VK_SHADER_STAGE_FRAGMENT_BIT, p->fs, &p->fs_info, g.fs_blocks);
	draw_faults(e, &g, &d, &dc);
	add_counters(&e->q->counters, &dc);
	e->q->counters.draws++;
	charge_shader(e, dc.vs_invocations * COST_VERTEX_NS +
			       (dc.task_invocations + dc.mesh_invocations) * COST_INVOCATION_NS);
	charge_fragments(e, &dc);
	if (e->phase != PHASE_BIN)
		return;
	charge(e, (e->bin.prim_count - first) * COST_BIN_NS);
	if (e->draw_count == e->draw_cap) {
		uint32_t cap = e->draw_cap ? 2 * e->draw_cap : 64;
		struct bin_draw *n = realloc(e->draws, cap * sizeof(*n));
		if (!n) {
			rd_log("binning: out of memory");
			return;
		}
		e->draws = n;
		e->draw_cap = cap;
	}
	e->draws[e->draw_count++] = (struct bin_draw){e->cmd_pos, first, e->bin.prim_count};
}

/* The main phase of the draws the binning phase recorded for the command
 * at this position, within the tile: the tile is the scissor. */
static void draw_tile(struct exec *e)
{
	struct rd_graphics_state g;
	struct rd_exec_env env;
	struct env_ctx ec;
	while (e->draw_next < e->draw_count && e->draws[e->draw_next].pos == e->cmd_pos) {
		const struct bin_draw *bd = &e->draws[e->draw_next++];
		if (!draw_state(e, &g, &env, &ec))
			continue;
		g.scissor = rect_intersect(g.scissor, e->tile);
		struct rd_draw_counters dc;
		memset(&dc, 0, sizeof(dc));
		char err[256];
		struct rd_pipeline *p = e->s.gfx;
		g.fs_blocks = instr_counts(e, p, p->fs);
		if (rd_draw_tile(&g, &e->bin, bd->first, bd->end, &dc, err, sizeof(err)) != 0)
			rd_log("draw: %s", err);
		instr_capture(e, VK_SHADER_STAGE_FRAGMENT_BIT, p->fs, &p->fs_info, g.fs_blocks);
		draw_faults(e, &g, NULL, &dc);
		add_counters(&e->q->counters, &dc);
		charge_fragments(e, &dc);
	}
}

static void dispatch(struct exec *e, const uint32_t base[3], const uint32_t groups[3])
{
	struct rd_pipeline *p = e->s.compute;
	if (!p || !p->cs) {
		rd_log("dispatch without a compute pipeline: skipped");
		return;
	}
	struct env_ctx ec = {.e = e, .bind = 1};
	struct rd_exec_env env = {.push_constants = e->s.push, .buffer = env_buffer,
				  .address = env_address, .user = &ec};
	const uint32_t *ls = p->cs_info.local_size;
	uint64_t count = 0;
	uint64_t *blocks = instr_counts(e, p, p->cs);
	/* Workgroup variables: one zeroed block shared by a workgroup's
	 * invocations, which run as a group (in lockstep between control
	 * barriers when the shader has any, rd_shader_run_group). */
	size_t wg_size = p->cs_info.workgroup_memory_size;
	uint64_t n = (uint64_t)ls[0] * ls[1] * ls[2];
	uint8_t *wg_mem = wg_size ? malloc(wg_size) : NULL;
	struct rd_invocation *inv = n <= 65536 ? calloc(n, sizeof(*inv)) : NULL;
	if ((wg_size && !wg_mem) || !inv) {
		rd_log("dispatch: out of memory for a workgroup of %llu invocations and %zu bytes",
		       (unsigned long long)n, wg_size);
		free(wg_mem);
		free(inv);
		free(blocks);
		return;
	}
	for (uint32_t gz = 0; gz < groups[2]; gz++)
		for (uint32_t gy = 0; gy < groups[1]; gy++)
			for (uint32_t gx = 0; gx < groups[0]; gx++) {
				if (wg_mem)
					memset(wg_mem, 0, wg_size);
				uint32_t wg[3] = {base[0] + gx, base[1] + gy, base[2] + gz};
				rd_shader_workgroup_invocations(inv, ls, wg, groups, wg_mem);
				for (uint32_t i = 0; i < n; i++)
					inv[i].block_counts = blocks;
				char err[256];
				if (rd_shader_run_group(p->cs, &p->cs_info, &env, inv, (uint32_t)n, err,
							sizeof(err)) != 0) {
					rd_log("dispatch: %s", err);
					goto done;
				}
				count += n;
			}
done:
	free(wg_mem);
	free(inv);
	instr_capture(e, VK_SHADER_STAGE_COMPUTE_BIT, p->cs, &p->cs_info, blocks);
	e->q->counters.cs_invocations +=
		rd_fault(&e->dev->instance->config, RD_FAULT_CS_PER_GROUP)
			? (uint64_t)groups[0] * groups[1] * groups[2]
			: count;
	e->q->counters.dispatches++;
	charge_shader(e, count * COST_INVOCATION_NS);
}

/* Transfers -------------------------------------------------------------------------*/

static bool buffer_range_ok(const struct rd_buffer *b, VkDeviceSize off, VkDeviceSize size)
{
	return b && b->data && off <= b->size && size <= b->size - off;
}

static void copy_buffer_image(struct exec *e, const struct rd_cmd *c, bool to_image)
{
	struct rd_buffer *buf = c->u.buffer_image.buffer;
	struct rd_image *img = c->u.buffer_image.image;
	const struct rd_format_info *fi = img->fmt;
	for (uint32_t i = 0; i < c->u.buffer_image.count; i++) {
		const VkBufferImageCopy *r = &c->u.buffer_image.regions[i];
		VkImageAspectFlags asp = r->imageSubresource.aspectMask;
		/* Buffer layout of one texel per aspect (spec "Copying Data
		 * Between Buffers and Images"): depth 2/4 bytes, stencil 1. */
		uint32_t tsize = fi->color ? fi->texel_size
				 : asp == VK_IMAGE_ASPECT_STENCIL_BIT ? 1
								      : fi->depth_bytes;
		uint32_t row = r->bufferRowLength ? r->bufferRowLength : r->imageExtent.width;
		uint32_t rows = r->bufferImageHeight ? r->bufferImageHeight : r->imageExtent.height;
		for (uint32_t l = 0; l < r->imageSubresource.layerCount; l++)
			for (uint32_t y = 0; y < r->imageExtent.height; y++)
				for (uint32_t x = 0; x < r->imageExtent.width; x++) {
					uint32_t ix = (uint32_t)r->imageOffset.x + x;
					uint32_t iy = (uint32_t)r->imageOffset.y + y;
					uint32_t layer = r->imageSubresource.baseArrayLayer + l;
					VkDeviceSize bo = r->bufferOffset +
							  (((VkDeviceSize)l * rows + y) * row + x) * tsize;
					if (ix >= img->extent.width || iy >= img->extent.height ||
					    layer >= img->layers || !buffer_range_ok(buf, bo, tsize))
						continue;
					uint8_t *t = rd_image_texel(img, ix, iy, layer, 0);
					uint8_t *bp = buf->data + bo;
					uint32_t toff = asp == VK_IMAGE_ASPECT_STENCIL_BIT ? fi->stencil_offset : 0;
					if (to_image)
						memcpy(t + toff, bp, tsize);
					else
						memcpy(bp, t + toff, tsize);
				}
		charge(e, (uint64_t)r->imageExtent.width * r->imageExtent.height * tsize /
				  COST_BYTES_PER_NS);
	}
}

static void blit(struct exec *e, const struct rd_cmd *c)
{
	struct rd_image *src = c->u.blit.src, *dst = c->u.blit.dst;
	for (uint32_t i = 0; i < c->u.blit.count; i++) {
		const VkImageBlit *r = &c->u.blit.regions[i];
		int32_t dx0 = r->dstOffsets[0].x, dx1 = r->dstOffsets[1].x;
		int32_t dy0 = r->dstOffsets[0].y, dy1 = r->dstOffsets[1].y;
		int32_t sx0 = r->srcOffsets[0].x, sx1 = r->srcOffsets[1].x;
		int32_t sy0 = r->srcOffsets[0].y, sy1 = r->srcOffsets[1].y;
		int32_t xa = dx0 < dx1 ? dx0 : dx1, xb = dx0 < dx1 ? dx1 : dx0;
		int32_t ya = dy0 < dy1 ? dy0 : dy1, yb = dy0 < dy1 ? dy1 : dy0;
		for (uint32_t l = 0; l < r->dstSubresource.layerCount; l++)
			for (int32_t y = ya; y < yb; y++)
				for (int32_t x = xa; x < xb; x++) {
					/* nearest: the source texel under the destination
					 * texel's centre */
					float u = ((float)x + 0.5f - (float)dx0) / (float)(dx1 - dx0);
					float v = ((float)y + 0.5f - (float)dy0) / (float)(dy1 - dy0);
					int32_t sx = (int32_t)floorf((float)sx0 + u * (float)(sx1 - sx0));
					int32_t sy = (int32_t)floorf((float)sy0 + v * (float)(sy1 - sy0));
					if (x < 0 || y < 0 || (uint32_t)x >= dst->extent.width ||
					    (uint32_t)y >= dst->extent.height || sx < 0 || sy < 0 ||
					    (uint32_t)sx >= src->extent.width ||
					    (uint32_t)sy >= src->extent.height)
						continue;
					uint32_t sl = r->srcSubresource.baseArrayLayer + l;
					uint32_t dl = r->dstSubresource.baseArrayLayer + l;
					if (sl >= src->layers || dl >= dst->layers)
						continue;
					uint8_t *s = rd_image_texel(src, (uint32_t)sx, (uint32_t)sy, sl, 0);
					uint8_t *d = rd_image_texel(dst, (uint32_t)x, (uint32_t)y, dl, 0);
					if (src->format == dst->format) {
						memcpy(d, s, src->fmt->texel_size);
					} else {
						float col[4];
						rd_format_load_color(src->fmt, s, col);
						rd_format_store_color(dst->fmt, d, col);
					}
				}
		charge(e, (uint64_t)(xb - xa) * (uint64_t)(yb - ya) * dst->fmt->texel_size /
				  COST_BYTES_PER_NS);
	}
}

static void copy_image(struct exec *e, const struct rd_cmd *c)
{
	struct rd_image *src = c->u.copy_image.src, *dst = c->u.copy_image.dst;
	for (uint32_t i = 0; i < c->u.copy_image.count; i++) {
		const VkImageCopy *r = &c->u.copy_image.regions[i];
		for (uint32_t l = 0; l < r->srcSubresource.layerCount; l++)
			for (uint32_t y = 0; y < r->extent.height; y++)
				for (uint32_t x = 0; x < r->extent.width; x++) {
					uint32_t sx = (uint32_t)r->srcOffset.x + x, sy = (uint32_t)r->srcOffset.y + y;
					uint32_t dx = (uint32_t)r->dstOffset.x + x, dy = (uint32_t)r->dstOffset.y + y;
					uint32_t sl = r->srcSubresource.baseArrayLayer + l;
					uint32_t dl = r->dstSubresource.baseArrayLayer + l;
					if (sx >= src->extent.width || sy >= src->extent.height ||
					    dx >= dst->extent.width || dy >= dst->extent.height ||
					    sl >= src->layers || dl >= dst->layers)
						continue;
					for (uint32_t s = 0; s < src->samples && s < dst->samples; s++)
						memcpy(rd_image_texel(dst, dx, dy, dl, s),
						       rd_image_texel(src, sx, sy, sl, s),
						       src->fmt->texel_size);
				}
		charge(e, (uint64_t)r->extent.width * r->extent.height * src->fmt->texel_size /
				  COST_BYTES_PER_NS);
	}
}

/* Render pass commands -------------------------------------------------------------*/

static void begin_render_pass(struct exec *e, const struct rd_cmd *c)
{
	e->s.in_pass = true;
	e->s.pass = c->u.begin_rp.pass;
	e->s.fb = c->u.begin_rp.fb;
	e->s.subpass = 0;
	e->s.area = c->u.begin_rp.area;
	memset(e->s.clears, 0, sizeof(e->s.clears));
	for (uint32_t i = 0; i < c->u.begin_rp.clear_count && i < 16; i++)
		e->s.clears[i] = c->u.begin_rp.clears[i];
	subpass_load(e);
}

static void clear_attachments(struct exec *e, const struct rd_cmd *c)
{
	for (uint32_t a = 0; a < c->u.clear_attachments.attachment_count; a++) {
		const VkClearAttachment *ca = &c->u.clear_attachments.attachments[a];
		struct rd_image_view *v = ca->aspectMask & VK_IMAGE_ASPECT_COLOR_BIT
						  ? (ca->colorAttachment < RD_MAX_COLOR
							     ? e->s.color[ca->colorAttachment]
							     : NULL)
						  : e->s.depth;
		if (!v)
			continue;
		for (uint32_t r = 0; r < c->u.clear_attachments.rect_count; r++) {
			const VkClearRect *cr = &c->u.clear_attachments.rects[r];
			if (e->s.view_mask) {
				/* with multiview the views of the subpass are cleared */
				for (uint32_t l = 0; l < 32; l++)
					if (layer_used(e, l))
						clear_view_rect(e, v, ca->aspectMask, &ca->clearValue,
								cr->rect, l, 1);
			} else {
				clear_view_rect(e, v, ca->aspectMask, &ca->clearValue, cr->rect,
						cr->baseArrayLayer, cr->layerCount);
			}
		}
	}
}

static void begin_rendering(struct exec *e, const struct rd_cmd *c)
{
	e->s.in_pass = true;
	e->s.pass = NULL;
	e->s.fb = NULL;
	e->s.area = c->u.begin_rendering.area;
	e->s.view_mask = c->u.begin_rendering.view_mask;
	e->s.layer_count = c->u.begin_rendering.layer_count;
	e->s.color_count = c->u.begin_rendering.color_count;
	uint32_t layers = e->s.view_mask ? 32 - (uint32_t)__builtin_clz(e->s.view_mask) : e->s.layer_count;
	for (uint32_t i = 0; i < RD_MAX_COLOR; i++) {
		const struct rd_rendering_attachment *a =
			i < e->s.color_count ? &c->u.begin_rendering.color[i] : NULL;
		e->s.color[i] = a ? a->view : NULL;
		e->s.resolve[i] = a ? a->resolve : NULL;
		if (a && a->view && a->load_op == VK_ATTACHMENT_LOAD_OP_CLEAR)
			for (uint32_t l = 0; l < layers; l++)
				if (layer_used(e, l))
					clear_view_rect(e, a->view, VK_IMAGE_ASPECT_COLOR_BIT, &a->clear,
							e->s.area, l, 1);
	}
	const struct rd_rendering_attachment *d = &c->u.begin_rendering.depth;
	const struct rd_rendering_attachment *s = &c->u.begin_rendering.stencil;
	e->s.depth = d->view ? d->view : s->view;
	VkImageAspectFlags asp = 0;
	VkClearValue cv = {0};
	if (d->view && d->load_op == VK_ATTACHMENT_LOAD_OP_CLEAR) {
		asp |= VK_IMAGE_ASPECT_DEPTH_BIT;
		cv.depthStencil.depth = d->clear.depthStencil.depth;
	}
	if (s->view && s->load_op == VK_ATTACHMENT_LOAD_OP_CLEAR) {
		asp |= VK_IMAGE_ASPECT_STENCIL_BIT;
		cv.depthStencil.stencil = s->clear.depthStencil.stencil;
	}
	if (asp && e->s.depth)
		for (uint32_t l = 0; l < layers; l++)
			if (layer_used(e, l))
				clear_view_rect(e, e->s.depth, asp, &cv, e->s.area, l, 1);
}

/* The executor ----------------------------------------------------------------------*/

static void execute(struct exec *e, struct rd_command_buffer *cb);

/* Transform feedback ("Transform Feedback"; rd_draw.c captures).  Begin:
 * capture starts at each binding's start, or at the byte offset a counter
 * buffer holds (as vkCmdEndTransformFeedbackEXT stored it, from the start
 * of the binding).  End: each counter buffer gets "the byte offset from
 * the start of the transform feedback buffer binding where the next vertex
 * data would be written". */
static void transform_feedback(struct exec *e, const struct rd_cmd *c, bool begin)
{
	const __typeof__(c->u.xfb_counters) *x = &c->u.xfb_counters;
	if (begin) {
		memset(&e->s.xfb, 0, sizeof(e->s.xfb));
		e->s.xfb_active = true;
	}
	for (uint32_t i = 0; i < x->count && x->first + i < RD_MAX_XFB_BUFFERS; i++) {
		uint32_t b = x->first + i, v;
		if (!buffer_range_ok(x->buffers[i], x->offsets[i], 4))
			continue;
		uint8_t *p = x->buffers[i]->data + x->offsets[i];
		if (begin) {
			memcpy(&v, p, 4);
			e->s.xfb.pos[b] = v;
		} else {
			v = (uint32_t)e->s.xfb.pos[b];
			memcpy(p, &v, 4);
		}
	}
	if (!begin)
		e->s.xfb_active = false;
}

static void wait_events(struct exec *e, const struct rd_cmd *c)
{
	struct rd_device *dev = e->dev;
	pthread_mutex_lock(&dev->event_lock);
	for (;;) {
		bool all = true;
		for (uint32_t i = 0; i < c->u.wait_events.count; i++)
			all &= atomic_load(&c->u.wait_events.events[i]->set);
		if (all)
			break;
		pthread_cond_wait(&dev->event_cond, &dev->event_lock);
	}
	pthread_mutex_unlock(&dev->event_lock);
}

/* Counters by region (VK_ARM_performance_counters_by_region) -------------------*/

/* One more reader of the counter sink (STYLE 17): in each tile, a snapshot
 * at a subpass's start and a difference at its end, added to the tile's
 * region of that subpass's elements (one per view or layer); written to
 * the application's addresses after the last tile, each value as a uint32
 * (refdevice/README.md has the counters and the layout). */
static void region_subpass_begin(struct exec *e)
{
	if (e->phase == PHASE_TILE && e->rc.acc)
		sample(e, &e->rc.begin);
}

static uint64_t region_value(uint32_t id, const struct rd_counters *d, uint32_t l)
{
	switch (id) {
	case RD_RC_SAMPLES_PASSED: return d->draw.samples_passed[l];
	case RD_RC_FS_INVOCATIONS: return d->draw.fs_invocations[l];
	case RD_RC_FRAGMENT_NS:
		return (d->draw.fs_invocations[l] + d->draw.samples_passed[l] / 4) * COST_FRAGMENT_NS;
	case RD_RC_REGION_NS: return l == 0 ? d->time_ns : 0;
	case RD_RC_TILES: return l == 0;
	default: return 0;
	}
}

static void region_subpass_end(struct exec *e)
{
	struct region_state *r = &e->rc;
	if (e->phase != PHASE_TILE || !r->acc)
		return;
	struct rd_counters now, d;
	sample(e, &now);
	memset(&d, 0, sizeof(d));
	counters_accumulate(&d, &now, &r->begin);
	uint32_t regions = r->cols * r->rows, c = r->req->counter_count;
	for (uint32_t l = 0; l < r->layers && l < RD_MAX_VIEWS; l++) {
		uint32_t element = e->s.subpass * r->layers + l;
		uint64_t *acc = r->acc + ((size_t)element * regions + r->region) * c;
		for (uint32_t k = 0; k < c; k++)
			acc[k] += region_value(r->req->ids[k], &d, l);
	}
}

static uint32_t align_up(uint32_t v, uint32_t a)
{
	return (v + a - 1) / a * a;
}

/* Sets up the regions of a tiled pass whose begin command asked for
 * counters; a request the spec forbids is reported and ignored. */
static void region_start(struct exec *e, const struct rd_cmd *begin, VkRect2D area)
{
	const struct rd_config *cfg = &e->dev->instance->config;
	struct region_state *r = &e->rc;
	memset(r, 0, sizeof(*r));
	bool rp = begin->type == RD_CMD_BEGIN_RENDER_PASS;
	const struct rd_region_request *req = rp ? begin->u.begin_rp.regions
						 : begin->u.begin_rendering.regions;
	if (!req)
		return;
	uint32_t subpasses = 1, views = 0;
	if (rp) {
		subpasses = begin->u.begin_rp.pass->subpass_count;
		for (uint32_t s = 0; s < subpasses; s++)
			views |= begin->u.begin_rp.pass->subpasses[s].view_mask;
		r->layers = views ? 32 - (uint32_t)__builtin_clz(views)
				  : begin->u.begin_rp.fb->layers;
	} else {
		views = begin->u.begin_rendering.view_mask;
		r->layers = views ? 32 - (uint32_t)__builtin_clz(views)
				  : begin->u.begin_rendering.layer_count;
	}
	if (!r->layers)
		r->layers = 1;
	/* VUID-VkRenderPassPerformanceCountersByRegionBeginInfoARM-counterAddressCount-11815
	 * and -counterIndexCount-11818 */
	if (req->address_count != subpasses * r->layers || !req->counter_count ||
	    req->counter_count > RD_REGION_MAX_COUNTERS) {
		rd_log("counters by region: %u addresses for %u subpasses x %u layers, %u counters "
		       "(at most %u): not written",
		       req->address_count, subpasses, r->layers, req->counter_count,
		       RD_REGION_MAX_COUNTERS);
		return;
	}
	for (uint32_t k = 0; k < req->counter_count; k++) {
		bool known = false;
		for (uint32_t i = 0; i < RD_REGION_COUNTERS; i++)
			known |= rd_region_counters[i].id == req->ids[k];
		if (!known) {
			rd_log("counters by region: counterID 0x%x is not one of the device's: "
			       "not written", req->ids[k]);
			return;
		}
	}
	r->req = req;
	r->cols = (area.extent.width + cfg->region_w - 1) / cfg->region_w;
	r->rows = (area.extent.height + cfg->region_h - 1) / cfg->region_h;
	size_t n = (size_t)req->address_count * r->cols * r->rows * req->counter_count;
	r->acc = n ? calloc(n, sizeof(*r->acc)) : NULL;
	if (n && !r->acc)
		rd_log("counters by region: out of memory; not written");
}

/* The tile at tile-grid position (tx, ty) is in region (tx * tile_w /
 * region_w, ty * tile_h / region_h): regions are whole tiles. */
static void region_tile(struct exec *e, uint32_t tx, uint32_t ty)
{
	const struct rd_config *cfg = &e->dev->instance->config;
	e->rc.region = tx * cfg->tile_w / cfg->region_w +
		       ty * cfg->tile_h / cfg->region_h * e->rc.cols;
}

/* Region (x, y) of element i starts at pCounterAddresses[i] + y * row
 * stride + x * region stride; the region stride is the counters' bytes
 * aligned to regionAlignment, the row stride the row's regions aligned
 * to rowStrideAlignment (the proposal's buffer size formula). */
static void region_write(struct exec *e)
{
	struct region_state *r = &e->rc;
	if (!r->acc)
		return;
	uint32_t c = r->req->counter_count;
	uint32_t region_stride = align_up(c * 4, RD_REGION_ALIGN);
	const struct rd_config *cfg = &e->dev->instance->config;
	uint32_t row_stride = rd_fault(cfg, RD_FAULT_REGION_ROW_STRIDE)
				      ? r->cols * region_stride
				      : align_up(r->cols * region_stride, RD_REGION_ROW_ALIGN);
	for (uint32_t i = 0; i < r->req->address_count; i++) {
		uint8_t *base = (uint8_t *)(uintptr_t)r->req->addresses[i];
		if (!base)
			continue;
		for (uint32_t y = 0; y < r->rows; y++)
			for (uint32_t x = 0; x < r->cols; x++) {
				const uint64_t *acc =
					r->acc + (((size_t)i * r->rows + y) * r->cols + x) * c;
				uint8_t *p = base + (size_t)y * row_stride + (size_t)x * region_stride;
				for (uint32_t k = 0; k < c; k++) {
					uint32_t v = (uint32_t)acc[rd_fault(cfg, RD_FAULT_REGION_ORDER)
									   ? c - 1 - k
									   : k];
					memcpy(p + 4 * k, &v, 4);
				}
			}
	}
	free(r->acc);
	r->acc = NULL;
}

/* The indirect draws: drawCount records, or for the *IndirectCount
 * draws the count read from the count buffer, at most maxDrawCount (spec
 * "Programmable Primitive Shading": "the actual number of executed draw
 * calls is the minimum of the count specified in countBuffer and
 * maxDrawCount"). */
static void draw_indirect(struct exec *e, const struct rd_cmd *c)
{
	bool indexed = c->type == RD_CMD_DRAW_INDEXED_INDIRECT || c->type == RD_CMD_DRAW_INDEXED_INDIRECT_COUNT;
	bool mesh = c->type == RD_CMD_DRAW_MESH_INDIRECT || c->type == RD_CMD_DRAW_MESH_INDIRECT_COUNT;
	uint32_t words = indexed ? 5 : mesh ? 3 : 4, count = c->u.indirect.count;
	if (c->u.indirect.count_buffer) {
		uint32_t n = 0;
		if (buffer_range_ok(c->u.indirect.count_buffer, c->u.indirect.count_offset, 4))
			memcpy(&n, c->u.indirect.count_buffer->data + c->u.indirect.count_offset, 4);
		count = n < count ? n : count;
	}
	for (uint32_t i = 0; i < count; i++) {
		VkDeviceSize off = c->u.indirect.offset + (VkDeviceSize)i * c->u.indirect.stride;
		if (!buffer_range_ok(c->u.indirect.buffer, off, words * 4))
			break;
		uint32_t a[5];
		memcpy(a, c->u.indirect.buffer->data + off, words * 4);
		struct rd_draw_params dp = {.indexed = indexed, .count = a[0],
					    .instance_count = a[1], .first = a[2]};
		if (mesh) {
			dp = (struct rd_draw_params){.groups = {a[0], a[1], a[2]}};
		} else if (indexed) {
			dp.vertex_offset = (int32_t)a[3];
			dp.first_instance = a[4];
		} else {
			dp.first_instance = a[3];
		}
		dp.draw_index = i;
		e->in_indirect = true;
		draw(e, &dp);
		e->in_indirect = false;
	}
}

static void run_cmd(struct exec *e, const struct rd_cmd *c);

/* RD_BENCH_SLOWDOWN=P: timestamp writes and query begins and ends cost P %
 * more of the per-command cost (rounded down to a nanosecond), in the cost
 * model and in real time (the queue spins as long), as on a slower GPU. */
static bool slowed(const struct rd_config *cfg, enum rd_cmd_type t)
{
	return cfg->bench_slowdown_pct &&
	       (t == RD_CMD_WRITE_TIMESTAMP || t == RD_CMD_BEGIN_QUERY || t == RD_CMD_END_QUERY);
}

static void run(struct exec *e, const struct rd_cmd *c)
{
	const struct rd_config *cfg = &e->dev->instance->config;
	if (!slowed(cfg, c->type)) {
		run_cmd(e, c);
		return;
	}
	uint64_t extra = (uint64_t)cfg->command_cost_ns * cfg->bench_slowdown_pct / 100;
	if (extra) /* charge(0) still advances the immediate clock by one */
		charge(e, extra);
	run_cmd(e, c);
	rd_spin_ns(extra);
}

static void run_cmd(struct exec *e, const struct rd_cmd *c)
{
	const struct rd_config *cfg = &e->dev->instance->config;
	if (cfg->command_cost_ns)
		charge(e, cfg->command_cost_ns);
	if (e->phase != PHASE_TILE)
		e->q->counters.commands++;
	/* VK_PERFORMANCE_OVERRIDE_TYPE_NULL_HARDWARE_INTEL "turns all rendering
	 * operations into noop": draws, dispatches and attachment clears */
	if (e->intel.null_hardware && (rd_cmd_is_action(c->type) || c->type == RD_CMD_CLEAR_ATTACHMENTS) &&
	    !rd_fault(&e->dev->instance->config, RD_FAULT_INTEL_NULL_HW_IGNORED)) {
		e->instr = NULL;
		return;
	}
	switch (c->type) {
	case RD_CMD_INSTRUMENT:
		e->instr = c->u.instrument.obj;
		e->instr_index = c->u.instrument.index;
		break;
	case RD_CMD_INTEL_MARKER:
		/* the fault: the first marker of the command buffer stays */
		if (!(rd_fault(&e->dev->instance->config, RD_FAULT_INTEL_FIRST_MARKER) &&
		      e->intel.marker))
			e->intel.marker = c->u.intel.value;
		break;
	case RD_CMD_INTEL_STREAM_MARKER:
		if (e->phase != PHASE_TILE)
			e->q->intel_stream_marker = c->u.intel.value &
				((1ull << RD_INTEL_STREAM_BITS) - 1);
		break;
	case RD_CMD_INTEL_OVERRIDE:
		if (c->u.intel.type == VK_PERFORMANCE_OVERRIDE_TYPE_NULL_HARDWARE_INTEL)
			e->intel.null_hardware = c->u.intel.enable;
		else if (c->u.intel.enable && e->phase != PHASE_TILE)
			e->intel.flushes++;
		break;
	case RD_CMD_BEGIN_VIDEO_CODING:
	case RD_CMD_END_VIDEO_CODING:
	case RD_CMD_CONTROL_VIDEO_CODING:
		break;
	case RD_CMD_ENCODE_VIDEO:
		rd_video_encode(&e->dev->instance->config, c->u.encode, &e->q->counters);
		e->encode_offset = c->u.encode->offset;
		break;
	case RD_CMD_BIND_PIPELINE:
		if (c->u.bind_pipeline.bind_point == VK_PIPELINE_BIND_POINT_COMPUTE)
			e->s.compute = c->u.bind_pipeline.pipeline;
		else
			e->s.gfx = c->u.bind_pipeline.pipeline;
		break;
	case RD_CMD_SET_VIEWPORT: e->s.viewport = c->u.viewport; break;
	case RD_CMD_SET_SCISSOR: e->s.scissor = c->u.scissor; break;
	case RD_CMD_SET_LINE_WIDTH: e->s.line_width = c->u.line_width; break;
	case RD_CMD_SET_COLOR_WRITE_ENABLE: e->s.color_write_enable = c->u.color_write_enable; break;
	case RD_CMD_SET_DEPTH_BOUNDS:
		e->s.depth_bounds[0] = c->u.depth_bounds.min;
		e->s.depth_bounds[1] = c->u.depth_bounds.max;
		break;
	case RD_CMD_SET_STENCIL_COMPARE_MASK:
	case RD_CMD_SET_STENCIL_WRITE_MASK:
	case RD_CMD_SET_STENCIL_REFERENCE: {
		uint32_t *v = c->type == RD_CMD_SET_STENCIL_COMPARE_MASK ? e->s.stencil_compare
			      : c->type == RD_CMD_SET_STENCIL_WRITE_MASK ? e->s.stencil_write
									 : e->s.stencil_ref;
		if (c->u.stencil.faces & VK_STENCIL_FACE_FRONT_BIT)
			v[0] = c->u.stencil.value;
		if (c->u.stencil.faces & VK_STENCIL_FACE_BACK_BIT)
			v[1] = c->u.stencil.value;
		break;
	}
	case RD_CMD_BIND_DESCRIPTOR_SETS: {
		/* pDynamicOffsets: the sets' dynamic descriptors in set order
		 * (spec "Descriptor Set Binding"). */
		int bp = c->u.bind_sets.bind_point == VK_PIPELINE_BIND_POINT_COMPUTE;
		uint32_t k = 0;
		for (uint32_t i = 0; i < c->u.bind_sets.count && c->u.bind_sets.first + i < RD_MAX_SETS; i++) {
			uint32_t set = c->u.bind_sets.first + i;
			e->s.sets[bp][set] = c->u.bind_sets.sets[i];
			uint32_t n = rd_descriptor_dynamic_count(c->u.bind_sets.sets[i]);
			for (uint32_t d = 0; d < RD_MAX_DYNAMIC; d++)
				e->s.dyn[bp][set][d] = d < n && k + d < c->u.bind_sets.dyn_count ? c->u.bind_sets.dyn[k + d] : 0;
			k += n;
		}
		break;
	}
	case RD_CMD_BIND_INDEX_BUFFER:
		e->s.index_buffer = c->u.bind_index.buffer;
		e->s.index_offset = c->u.bind_index.offset;
		e->s.index_type = c->u.bind_index.type;
		break;
	case RD_CMD_BIND_VERTEX_BUFFERS:
		for (uint32_t i = 0; i < c->u.bind_vertex.count &&
				     c->u.bind_vertex.first + i < RD_MAX_BINDINGS; i++) {
			e->s.vertex_buffers[c->u.bind_vertex.first + i] = c->u.bind_vertex.buffers[i];
			e->s.vertex_offsets[c->u.bind_vertex.first + i] = c->u.bind_vertex.offsets[i];
		}
		break;
	case RD_CMD_DRAW:
	case RD_CMD_DRAW_INDEXED:
	case RD_CMD_DRAW_INDIRECT:
	case RD_CMD_DRAW_INDEXED_INDIRECT:
	case RD_CMD_DRAW_INDIRECT_COUNT:
	case RD_CMD_DRAW_INDEXED_INDIRECT_COUNT:
	case RD_CMD_DRAW_MESH:
	case RD_CMD_DRAW_MESH_INDIRECT:
	case RD_CMD_DRAW_MESH_INDIRECT_COUNT:
		if (e->dev->instance->config.draw_delay_us) {
			/* a slow device: the draw takes real time */
			uint32_t us = e->dev->instance->config.draw_delay_us;
			struct timespec ts = {(time_t)(us / 1000000u), (long)(us % 1000000u) * 1000};
			nanosleep(&ts, NULL);
		}
		if (e->phase == PHASE_TILE) {
			draw_tile(e);
			break;
		}
		if (c->type == RD_CMD_DRAW_MESH) {
			draw(e, &(struct rd_draw_params){
					.groups = {c->u.dispatch.groups[0], c->u.dispatch.groups[1],
						   c->u.dispatch.groups[2]}});
			break;
		}
		if (c->type != RD_CMD_DRAW && c->type != RD_CMD_DRAW_INDEXED) {
			draw_indirect(e, c);
			break;
		}
		draw(e, &(struct rd_draw_params){
				.indexed = c->type == RD_CMD_DRAW_INDEXED,
				.count = c->u.draw.count,
				.instance_count = c->u.draw.instances,
				.first = c->u.draw.first,
				.first_instance = c->u.draw.first_instance,
				.vertex_offset = c->u.draw.vertex_offset,
			});
		break;
	case RD_CMD_DISPATCH:
		dispatch(e, c->u.dispatch.base, c->u.dispatch.groups);
		break;
	case RD_CMD_DISPATCH_INDIRECT: {
		uint32_t g[3], base[3] = {0, 0, 0};
		if (buffer_range_ok(c->u.indirect.buffer, c->u.indirect.offset, 12)) {
			memcpy(g, c->u.indirect.buffer->data + c->u.indirect.offset, 12);
			dispatch(e, base, g);
		}
		break;
	}
	case RD_CMD_COPY_BUFFER:
		for (uint32_t i = 0; i < c->u.copy_buffer.count; i++) {
			const VkBufferCopy *r = &c->u.copy_buffer.regions[i];
			if (buffer_range_ok(c->u.copy_buffer.src, r->srcOffset, r->size) &&
			    buffer_range_ok(c->u.copy_buffer.dst, r->dstOffset, r->size))
				memmove(c->u.copy_buffer.dst->data + r->dstOffset,
					c->u.copy_buffer.src->data + r->srcOffset, r->size);
			charge(e, r->size / COST_BYTES_PER_NS);
			e->q->counters.bytes_transferred += r->size;
		}
		break;
	case RD_CMD_COPY_IMAGE: copy_image(e, c); break;
	case RD_CMD_BLIT_IMAGE: blit(e, c); break;
	case RD_CMD_COPY_BUFFER_TO_IMAGE: copy_buffer_image(e, c, true); break;
	case RD_CMD_COPY_IMAGE_TO_BUFFER: copy_buffer_image(e, c, false); break;
	case RD_CMD_UPDATE_BUFFER:
		if (buffer_range_ok(c->u.update.dst, c->u.update.offset, c->u.update.size))
			memcpy(c->u.update.dst->data + c->u.update.offset, c->u.update.data,
			       c->u.update.size);
		e->q->counters.bytes_transferred += c->u.update.size;
		break;
	case RD_CMD_FILL_BUFFER: {
		struct rd_buffer *b = c->u.fill.dst;
		VkDeviceSize size = c->u.fill.size == VK_WHOLE_SIZE
					    ? (b->size - c->u.fill.offset) & ~(VkDeviceSize)3
					    : c->u.fill.size;
		if (buffer_range_ok(b, c->u.fill.offset, size)) {
			uint8_t *p = b->data + c->u.fill.offset;
			if (c->u.fill.data == 0 || c->u.fill.data == UINT32_MAX ||
			    ((c->u.fill.data & 0xff) * 0x01010101u) == c->u.fill.data)
				memset(p, (int)(c->u.fill.data & 0xff), size);
			else
				for (VkDeviceSize o = 0; o + 4 <= size; o += 4)
					memcpy(p + o, &c->u.fill.data, 4);
		}
		charge(e, size / COST_BYTES_PER_NS);
		e->q->counters.bytes_transferred += size;
		break;
	}
	case RD_CMD_CLEAR_COLOR_IMAGE:
	case RD_CMD_CLEAR_DEPTH_STENCIL_IMAGE: {
		struct rd_image *img = c->u.clear_image.image;
		struct rd_image_view whole = {.image = img, .base_layer = 0, .layer_count = img->layers};
		VkRect2D all = {{0, 0}, {img->extent.width, img->extent.height}};
		for (uint32_t i = 0; i < c->u.clear_image.count; i++) {
			const VkImageSubresourceRange *r = &c->u.clear_image.ranges[i];
			uint32_t n = r->layerCount == VK_REMAINING_ARRAY_LAYERS
					     ? img->layers - r->baseArrayLayer
					     : r->layerCount;
			clear_view_rect(e, &whole, r->aspectMask, &c->u.clear_image.value, all,
					r->baseArrayLayer, n);
		}
		break;
	}
	case RD_CMD_CLEAR_ATTACHMENTS: clear_attachments(e, c); break;
	case RD_CMD_RESOLVE_IMAGE:
		for (uint32_t i = 0; i < c->u.resolve.count; i++) {
			const VkImageResolve *r = &c->u.resolve.regions[i];
			for (uint32_t l = 0; l < r->srcSubresource.layerCount; l++)
				resolve_pixels(c->u.resolve.src, r->srcSubresource.baseArrayLayer + l,
					       c->u.resolve.dst, r->dstSubresource.baseArrayLayer + l,
					       r->srcOffset.x, r->srcOffset.y, r->dstOffset.x,
					       r->dstOffset.y, r->extent.width, r->extent.height);
		}
		break;
	case RD_CMD_SET_EVENT:
	case RD_CMD_RESET_EVENT:
		pthread_mutex_lock(&e->dev->event_lock);
		atomic_store(&c->u.event->set, c->type == RD_CMD_SET_EVENT);
		pthread_cond_broadcast(&e->dev->event_cond);
		pthread_mutex_unlock(&e->dev->event_lock);
		break;
	case RD_CMD_WAIT_EVENTS:
		/* waited on once, in the binning phase; on the tiler the wait
		 * orders both engines */
		if (e->phase != PHASE_TILE) {
			wait_events(e, c);
			e->geom_ns = e->frag_ns = max_u64(e->geom_ns, e->frag_ns);
		}
		break;
	case RD_CMD_BARRIER: barrier(e, c->u.barrier_src); break;
	case RD_CMD_BEGIN_QUERY:
		begin_query(e, c->u.query.pool, c->u.query.query, c->u.query.flags,
			    c->u.query.index);
		break;
	case RD_CMD_END_QUERY:
		end_query(e, c->u.query.pool, c->u.query.query, c->u.query.index);
		break;
	case RD_CMD_RESET_QUERY_POOL:
		if (!rd_fault(cfg, RD_FAULT_CMD_RESET_IGNORED) && !e->resets_hoisted)
			rd_query_reset(cfg, c->u.reset_query.pool, c->u.reset_query.first,
				       c->u.reset_query.count);
		break;
	case RD_CMD_WRITE_TIMESTAMP:
		write_timestamp(e, c->u.timestamp.pool, c->u.timestamp.query);
		break;
	case RD_CMD_COPY_QUERY_POOL_RESULTS: {
		const __typeof__(c->u.copy_query) *q = &c->u.copy_query;
		VkDeviceSize off = rd_fault(cfg, RD_FAULT_COPY_OFFSET_IGNORED) ? 0 : q->offset;
		VkQueryResultFlags flags = q->flags;
		if (rd_fault(cfg, RD_FAULT_COPY_NO_AVAILABILITY))
			flags &= ~(VkQueryResultFlags)VK_QUERY_RESULT_WITH_AVAILABILITY_BIT;
		if (rd_fault(cfg, RD_FAULT_COPY_32))
			flags &= ~(VkQueryResultFlags)VK_QUERY_RESULT_64_BIT;
		if (rd_fault(cfg, RD_FAULT_PERF_COPY) &&
		    q->pool->type == VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR)
			break;
		if (q->dst && q->dst->data && off <= q->dst->size)
			rd_query_write_results(e->dev, q->pool, q->first, q->count,
					       q->dst->data + off, q->stride, flags);
		else if (!q->dst && q->address)
			rd_query_write_results(e->dev, q->pool, q->first, q->count,
					       (uint8_t *)(uintptr_t)q->address, q->stride, flags);
		break;
	}
	case RD_CMD_PUSH_CONSTANTS:
		if (c->u.push.offset < sizeof(e->s.push) &&
		    c->u.push.size <= sizeof(e->s.push) - c->u.push.offset)
			memcpy(e->s.push + c->u.push.offset, c->u.push.data, c->u.push.size);
		break;
	case RD_CMD_BEGIN_RENDER_PASS:
		if (e->phase != PHASE_TILE)
			e->q->counters.render_passes++;
		region_subpass_begin(e);
		begin_render_pass(e, c);
		break;
	case RD_CMD_NEXT_SUBPASS:
		subpass_resolve(e);
		region_subpass_end(e);
		e->s.subpass++;
		region_subpass_begin(e);
		if (e->s.pass && e->s.subpass < e->s.pass->subpass_count)
			subpass_load(e);
		break;
	case RD_CMD_BEGIN_RENDERING:
		if (e->phase != PHASE_TILE)
			e->q->counters.render_passes++;
		region_subpass_begin(e);
		begin_rendering(e, c);
		break;
	case RD_CMD_END_RENDER_PASS:
	case RD_CMD_END_RENDERING:
		subpass_resolve(e);
		region_subpass_end(e);
		e->s.in_pass = false;
		e->s.view_mask = 0;
		break;
	case RD_CMD_EXECUTE_COMMANDS:
		/* Secondaries run in the primary's state: active queries keep
		 * counting through them (18.2 inheritedQueries). */
		for (uint32_t i = 0; i < c->u.execute.count; i++)
			execute(e, c->u.execute.cbs[i]);
		break;
	case RD_CMD_BIND_TRANSFORM_FEEDBACK_BUFFERS:
		for (uint32_t i = 0; i < c->u.bind_xfb.count &&
				     c->u.bind_xfb.first + i < RD_MAX_XFB_BUFFERS; i++) {
			uint32_t b = c->u.bind_xfb.first + i;
			e->s.xfb_buffers[b] = c->u.bind_xfb.buffers[i];
			e->s.xfb_offsets[b] = c->u.bind_xfb.offsets[i];
			e->s.xfb_sizes[b] = c->u.bind_xfb.sizes[i];
		}
		break;
	case RD_CMD_BEGIN_TRANSFORM_FEEDBACK:
	case RD_CMD_END_TRANSFORM_FEEDBACK:
		/* vertex work: the binning phase captures */
		if (e->phase != PHASE_TILE)
			transform_feedback(e, c, c->type == RD_CMD_BEGIN_TRANSFORM_FEEDBACK);
		break;
	case RD_CMD_COUNT:
		break;
	}
	if (rd_cmd_is_action(c->type))
		e->instr = NULL; /* the marker covered this command only */
}

/* Render pass instances (STYLE 16) ------------------------------------------------*/

/* A render pass instance's commands, from its begin to its end, with the
 * secondaries it executes flattened in. */
struct pass_list {
	const struct rd_cmd **v;
	uint32_t n, cap;
};

static void pass_add(struct pass_list *l, const struct rd_cmd *c)
{
	if (l->n == l->cap) {
		uint32_t cap = l->cap ? 2 * l->cap : 64;
		const struct rd_cmd **v = realloc(l->v, cap * sizeof(*v));
		if (!v) {
			rd_log("render pass: out of memory; commands dropped");
			return;
		}
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = c;
}

static void pass_add_secondary(struct pass_list *l, const struct rd_command_buffer *cb)
{
	for (uint32_t i = 0; i < cb->cmd_count; i++) {
		const struct rd_cmd *c = &cb->cmds[i];
		if (c->type != RD_CMD_EXECUTE_COMMANDS) {
			pass_add(l, c);
			continue;
		}
		for (uint32_t k = 0; k < c->u.execute.count; k++)
			pass_add_secondary(l, c->u.execute.cbs[k]);
	}
}

/* The immediate architecture runs the pass straight through. */
static void pass_immediate(struct exec *e, const struct rd_cmd *const *cmds, uint32_t n)
{
	for (uint32_t k = 0; k < n; k++) {
		e->cmd_pos = k;
		run(e, cmds[k]);
	}
}

/* Bytes a tile writes back to memory at its end: every attachment of the
 * last subpass, every sample, every view or layer. */
static uint64_t tile_store_bytes(const struct exec *e)
{
	uint64_t px = (uint64_t)e->tile.extent.width * e->tile.extent.height, bytes = 0;
	uint32_t layers = e->s.view_mask ? (uint32_t)__builtin_popcount(e->s.view_mask)
					 : e->s.layer_count;
	for (uint32_t c = 0; c < e->s.color_count && c < RD_MAX_COLOR; c++)
		if (e->s.color[c])
			bytes += px * e->s.color[c]->image->fmt->texel_size * e->s.color[c]->image->samples;
	if (e->s.depth)
		bytes += px * e->s.depth->image->fmt->texel_size * e->s.depth->image->samples;
	return bytes * (layers ? layers : 1);
}

/* The tiler: a binning phase runs the pass's vertex work once on the
 * geometry engine and keeps the primitives; then the main phase replays
 * the same commands once per tile on the fragment engine, the tile as
 * scissor, load ops, clears and resolves within the tile.  Tiles are
 * RD_TILE-sized cells of a grid anchored at the render area's offset (so
 * the regions of VK_ARM_performance_counters_by_region, whole tiles, are
 * laid out over the render area as its buffer size formula counts them);
 * one empty tile when the area is empty, so queries still complete. */
static void pass_tiled(struct exec *e, const struct rd_cmd *const *cmds, uint32_t n)
{
	const struct rd_config *cfg = &e->dev->instance->config;
	struct exec_state start = e->s;
	rd_bin_clear(&e->bin);
	e->draw_count = 0;
	e->phase = PHASE_BIN;
	pass_immediate(e, cmds, n);
	struct exec_state end = e->s;

	VkRect2D area = end.area;
	uint32_t tw = cfg->tile_w, th = cfg->tile_h;
	uint32_t cols = (area.extent.width + tw - 1) / tw;
	uint32_t rows = (area.extent.height + th - 1) / th;
	e->tile_count = cols && rows ? cols * rows : 1;
	region_start(e, cmds[0], area);
	/* the main phase of a pass waits for its own binning */
	e->frag_ns = max_u64(e->frag_ns, e->geom_ns);
	e->phase = PHASE_TILE;
	for (uint32_t t = 0; t < e->tile_count; t++) {
		e->s = start;
		e->tile_index = t;
		e->draw_next = 0;
		VkRect2D cell = {area.offset, {0, 0}};
		if (cols && rows) {
			cell.offset.x += (int32_t)(t % cols * tw);
			cell.offset.y += (int32_t)(t / cols * th);
			cell.extent.width = tw;
			cell.extent.height = th;
			cell = rect_intersect(cell, area);
			region_tile(e, t % cols, t / cols);
		}
		e->tile = cell;
		charge(e, COST_TILE_NS);
		pass_immediate(e, cmds, n);
		uint64_t stored = tile_store_bytes(e);
		charge(e, stored / COST_BYTES_PER_NS);
		e->q->counters.tile_store_bytes += stored;
	}
	region_write(e);
	e->s = end;
	e->phase = PHASE_DIRECT;
}

typedef void (*render_pass_fn)(struct exec *e, const struct rd_cmd *const *cmds, uint32_t n);

/* The one place the architecture is chosen, per render pass instance (as
 * turnip's use_sysmem_rendering): the tiler's path for every pass on the
 * tiler, and on the immediate architecture for a pass that asks for
 * counters by region, which are counted per tile. */
static render_pass_fn choose_architecture(const struct exec *e, const struct rd_cmd *begin)
{
	const struct rd_region_request *req = begin->type == RD_CMD_BEGIN_RENDER_PASS
						      ? begin->u.begin_rp.regions
						      : begin->u.begin_rendering.regions;
	return tiler(e) || req ? pass_tiled : pass_immediate;
}

static void execute(struct exec *e, struct rd_command_buffer *cb)
{
	for (uint32_t i = 0; i < cb->cmd_count; i++) {
		const struct rd_cmd *c = &cb->cmds[i];
		if (c->type != RD_CMD_BEGIN_RENDER_PASS && c->type != RD_CMD_BEGIN_RENDERING) {
			run(e, c);
			continue;
		}
		enum rd_cmd_type last = c->type == RD_CMD_BEGIN_RENDER_PASS ? RD_CMD_END_RENDER_PASS
									    : RD_CMD_END_RENDERING;
		struct pass_list l = {0};
		for (; i < cb->cmd_count; i++) {
			const struct rd_cmd *x = &cb->cmds[i];
			if (x->type == RD_CMD_EXECUTE_COMMANDS)
				for (uint32_t k = 0; k < x->u.execute.count; k++)
					pass_add_secondary(&l, x->u.execute.cbs[k]);
			else
				pass_add(&l, x);
			if (x->type == last)
				break;
		}
		choose_architecture(e, l.v[0])(e, l.v, l.n);
		free(l.v);
	}
}

void rd_execute_command_buffer(struct rd_queue *q, struct rd_command_buffer *cb,
			       uint32_t counter_pass)
{
	struct exec *e = calloc(1, sizeof(*e));
	if (!e) {
		rd_log("out of memory executing a command buffer");
		return;
	}
	e->q = q;
	e->dev = q->base.device;
	e->counter_pass = counter_pass;
	e->cb_start_ns = rd_clock_ns(e->dev);
	/* the fault: the command buffer's resets run first, at submission */
	if (rd_fault(&e->dev->instance->config, RD_FAULT_RESET_HOISTED)) {
		for (uint32_t i = 0; i < cb->cmd_count; i++)
			if (cb->cmds[i].type == RD_CMD_RESET_QUERY_POOL)
				run(e, &cb->cmds[i]);
		e->resets_hoisted = true;
	}
	e->s.line_width = 1.0f;
	e->s.color_write_enable = ~0u;
	e->geom_ns = e->frag_ns = rd_clock_ns(e->dev);
	execute(e, cb);
	if (tiler(e))
		rd_clock_advance_to(e->dev, max_u64(e->geom_ns, e->frag_ns));
	rd_bin_free(&e->bin);
	free(e->draws);
	/* Results become available a while after the work, but before the
	 * fence that follows it. */
	uint64_t now = rd_now_ns();
	if (e->available_at_ns > now) {
		struct timespec ts = {(time_t)((e->available_at_ns - now) / 1000000000u),
				      (long)((e->available_at_ns - now) % 1000000000u)};
		nanosleep(&ts, NULL);
	}
	free(e);
}
