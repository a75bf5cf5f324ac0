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

const struct rd_descriptor_slot *rd_descriptor_lookup(struct rd_descriptor_set *s,
						      uint32_t binding, uint32_t element);

/* Cost model of the deterministic clock, in nanoseconds (refdevice/README.md). */
#define COST_COMMAND_NS 20
#define COST_VERTEX_NS 1
#define COST_FRAGMENT_NS 1
#define COST_INVOCATION_NS 1
#define COST_BYTES_PER_NS 100 /* 100 GB/s */

#define MAX_ACTIVE 32

struct active_query {
	struct rd_query_pool *pool;
	uint32_t query;
	VkQueryControlFlags flags;
	uint32_t index;                /* vkCmdBeginQueryIndexedEXT index (vertex stream) */
	uint32_t view_mask;            /* multiview mask of the subpass at begin */
	struct rd_counters begin;
};

struct exec {
	struct rd_queue *q;
	struct rd_device *dev;
	struct rd_pipeline *gfx, *compute;
	VkViewport viewport;
	VkRect2D scissor;
	float line_width;
	float depth_bounds[2];
	uint32_t stencil_compare[2], stencil_write[2], stencil_ref[2];
	struct rd_descriptor_set *sets[2][RD_MAX_SETS]; /* graphics, compute */
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
	/* queries */
	struct active_query active[MAX_ACTIVE];
	uint32_t active_count;
	uint64_t available_at_ns;      /* the latest RD_RESULT_LATENCY_US deadline */
	char err[256];
};

static void charge(struct exec *e, uint64_t ns)
{
	rd_clock_advance(e->dev, ns);
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
	const struct rd_descriptor_slot *s =
		rd_descriptor_lookup(c->e->sets[c->bind][set], binding, element);
	if (!s || !s->buffer || !s->buffer->data)
		return NULL;
	struct rd_buffer_range *r = &c->ranges[c->next++ & 3];
	r->data = s->buffer->data + s->offset;
	r->size = s->range;
	return r;
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
	return e->view_mask ? (e->view_mask >> layer) & 1 : layer < e->layer_count;
}

static void clear_view_rect(struct exec *e, struct rd_image_view *v, VkImageAspectFlags aspects,
			    const VkClearValue *value, VkRect2D r, uint32_t base_layer,
			    uint32_t layer_count)
{
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
	const struct rd_subpass *sp = &e->pass->subpasses[e->subpass];
	e->view_mask = sp->view_mask;
	e->layer_count = e->fb->layers;
	e->color_count = sp->color_count;
	for (uint32_t c = 0; c < RD_MAX_COLOR; c++) {
		e->color[c] = c < sp->color_count && sp->color[c] != VK_ATTACHMENT_UNUSED
				      ? e->fb->attachments[sp->color[c]]
				      : NULL;
		e->resolve[c] = c < sp->color_count && sp->resolve[c] != VK_ATTACHMENT_UNUSED
					? e->fb->attachments[sp->resolve[c]]
					: NULL;
	}
	e->depth = sp->depth_stencil != VK_ATTACHMENT_UNUSED
			   ? e->fb->attachments[sp->depth_stencil]
			   : NULL;
	uint32_t layers = e->view_mask ? 32 - (uint32_t)__builtin_clz(e->view_mask) : e->layer_count;
	for (uint32_t a = 0; a < e->pass->attachment_count; a++) {
		if (e->pass->first_use[a] != e->subpass)
			continue;
		const struct rd_attachment_desc *d = &e->pass->attachments[a];
		struct rd_image_view *v = e->fb->attachments[a];
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
			if (layer_used(e, l))
				clear_view_rect(e, v, aspects, &e->clears[a], e->area, l, 1);
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
	for (uint32_t c = 0; c < e->color_count; c++) {
		if (!e->color[c] || !e->resolve[c])
			continue;
		uint32_t layers = e->view_mask ? 32 - (uint32_t)__builtin_clz(e->view_mask) : e->layer_count;
		for (uint32_t l = 0; l < layers; l++)
			if (layer_used(e, l))
				resolve_pixels(e->color[c]->image, e->color[c]->base_layer + l,
					       e->resolve[c]->image, e->resolve[c]->base_layer + l,
					       e->area.offset.x, e->area.offset.y, e->area.offset.x,
					       e->area.offset.y, e->area.extent.width,
					       e->area.extent.height);
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

static void begin_query(struct exec *e, struct rd_query_pool *pool, uint32_t query,
			VkQueryControlFlags flags, uint32_t index)
{
	if (e->active_count == MAX_ACTIVE) {
		rd_log("vkCmdBeginQuery: more than %d active queries", MAX_ACTIVE);
		return;
	}
	struct active_query *a = &e->active[e->active_count++];
	a->pool = pool;
	a->query = query;
	a->flags = flags;
	a->index = index;
	a->view_mask = e->in_pass ? e->view_mask : 0;
	a->begin = e->q->counters;
}

/* The pipeline-statistics counters in VkQueryPipelineStatisticFlagBits bit
 * order; stages the device lacks (geometry, tessellation) count nothing. */
static uint64_t statistic(const struct rd_counters *c, uint32_t bit)
{
	switch (1u << bit) {
	case VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_VERTICES_BIT: return c->draw.ia_vertices;
	case VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT: return c->draw.ia_primitives;
	case VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT: return c->draw.vs_invocations;
	case VK_QUERY_PIPELINE_STATISTIC_CLIPPING_INVOCATIONS_BIT: return c->draw.clipping_invocations;
	case VK_QUERY_PIPELINE_STATISTIC_CLIPPING_PRIMITIVES_BIT: return c->draw.clipping_primitives;
	case VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT: return c->draw.fs_invocations;
	case VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT: return c->cs_invocations;
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

/* vkCmdEndQueryIndexedEXT "completes the query in queryPool identified by
 * query and index". */
static void end_query(struct exec *e, struct rd_query_pool *pool, uint32_t query, uint32_t index)
{
	uint32_t i = 0;
	while (i < e->active_count && !(e->active[i].pool == pool && e->active[i].query == query &&
					e->active[i].index == index))
		i++;
	if (i == e->active_count) {
		rd_log("vkCmdEndQuery: query %u (index %u) is not active", query, index);
		return;
	}
	struct active_query a = e->active[i];
	e->active[i] = e->active[--e->active_count];
	const struct rd_counters *now = &e->q->counters;
	const struct rd_config *cfg = &e->dev->instance->config;
	uint32_t n = query_views(a.view_mask);
	for (uint32_t v = 0; v < n && query + v < pool->count; v++) {
		uint64_t *values = rd_query_values(pool, query + v);
		memset(values, 0, pool->value_count * sizeof(*values));
		/* Multiview (18.2): N consecutive queries whose sum is the total;
		 * RD_MULTIVIEW_QUERIES picks the total in the first one or one
		 * view per query. */
		bool spread = a.view_mask && cfg->multiview == RD_MV_SPREAD;
		if (!spread && v > 0) {
			make_available(e, pool, query + v);
			continue;
		}
		if (pool->type == VK_QUERY_TYPE_OCCLUSION) {
			uint64_t count;
			if (spread) {
				/* the v-th set bit of the view mask */
				uint32_t m = a.view_mask, view = 0;
				for (uint32_t k = 0; k <= v; k++) {
					view = (uint32_t)__builtin_ctz(m);
					m &= m - 1;
				}
				count = now->draw.samples_passed[view] - a.begin.draw.samples_passed[view];
			} else {
				count = total_samples(now) - total_samples(&a.begin);
			}
			values[0] = (a.flags & VK_QUERY_CONTROL_PRECISE_BIT) ? count
										 : nonprecise(cfg, count);
		} else if (pool->type == VK_QUERY_TYPE_PIPELINE_STATISTICS) {
			uint32_t k = 0;
			for (uint32_t bit = 0; bit < 32; bit++)
				if (pool->statistics & (1u << bit)) {
					/* statistics are counted for all views together:
					 * the first query holds the total */
					values[k++] = statistic(now, bit) - statistic(&a.begin, bit);
				}
		} else if (pool->type == VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT) {
			/* 18.7: primitives written, then primitives output to the
			 * stream while transform feedback was active.  Vertex
			 * stream 0 is the only one (maxTransformFeedbackStreams 1):
			 * nothing reaches another. */
			if (a.index == 0) {
				values[0] = now->draw.xfb_primitives_written -
					    a.begin.draw.xfb_primitives_written;
				values[1] = now->draw.xfb_primitives_needed -
					    a.begin.draw.xfb_primitives_needed;
			}
		} else if (pool->type == VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT) {
			/* 18.8: every primitive output to the stream, whether or
			 * not transform feedback is active. */
			if (a.index == 0)
				values[0] = now->draw.primitives_generated -
					    a.begin.draw.primitives_generated;
		}
		make_available(e, pool, query + v);
	}
}

static void write_timestamp(struct exec *e, struct rd_query_pool *pool, uint32_t query)
{
	uint32_t bits = rd_family_valid_bits(&e->dev->instance->config, e->q->family);
	uint64_t mask = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
	/* "If an overflow occurs, the timestamp value must wrap back to zero";
	 * bits above timestampValidBits are zero. */
	uint64_t t = rd_clock_now(e->dev) & mask;
	uint32_t n = e->in_pass ? query_views(e->view_mask) : 1;
	bool spread = e->dev->instance->config.multiview == RD_MV_SPREAD;
	for (uint32_t v = 0; v < n && query + v < pool->count; v++) {
		/* 18.5 multiview: the first query holds the timestamp and the
		 * others zero, or all N hold timestamps. */
		rd_query_values(pool, query + v)[0] = v == 0 || spread ? t : 0;
		make_available(e, pool, query + v);
	}
}

/* Draws and dispatches ---------------------------------------------------------------*/

static void add_counters(struct rd_counters *total, const struct rd_draw_counters *d)
{
	for (int v = 0; v < RD_MAX_VIEWS; v++)
		total->draw.samples_passed[v] += d->samples_passed[v];
	total->draw.ia_vertices += d->ia_vertices;
	total->draw.ia_primitives += d->ia_primitives;
	total->draw.vs_invocations += d->vs_invocations;
	total->draw.clipping_invocations += d->clipping_invocations;
	total->draw.clipping_primitives += d->clipping_primitives;
	total->draw.fs_invocations += d->fs_invocations;
	total->draw.primitives_generated += d->primitives_generated;
	total->draw.xfb_primitives_written += d->xfb_primitives_written;
	total->draw.xfb_primitives_needed += d->xfb_primitives_needed;
}

static void draw(struct exec *e, const struct rd_draw_params *dp)
{
	struct rd_pipeline *p = e->gfx;
	if (!p || !e->in_pass) {
		rd_log("draw without a graphics pipeline or outside a render pass: skipped");
		return;
	}
	struct rd_graphics_state g = p->gs;
	struct env_ctx ec = {.e = e, .bind = 0};
	struct rd_exec_env env = {.push_constants = e->push, .buffer = env_buffer, .user = &ec};
	g.env = &env;
	if (p->dynamic_mask & RD_DYN_VIEWPORT)
		g.viewport = e->viewport;
	if (p->dynamic_mask & RD_DYN_SCISSOR)
		g.scissor = e->scissor;
	if (p->dynamic_mask & RD_DYN_LINE_WIDTH)
		g.line_width = e->line_width;
	if (p->dynamic_mask & RD_DYN_DEPTH_BOUNDS) {
		g.min_depth_bounds = e->depth_bounds[0];
		g.max_depth_bounds = e->depth_bounds[1];
	}
	if (p->dynamic_mask & RD_DYN_STENCIL_COMPARE) {
		g.front.compareMask = e->stencil_compare[0];
		g.back.compareMask = e->stencil_compare[1];
	}
	if (p->dynamic_mask & RD_DYN_STENCIL_WRITE) {
		g.front.writeMask = e->stencil_write[0];
		g.back.writeMask = e->stencil_write[1];
	}
	if (p->dynamic_mask & RD_DYN_STENCIL_REFERENCE) {
		g.front.reference = e->stencil_ref[0];
		g.back.reference = e->stencil_ref[1];
	}
	for (uint32_t b = 0; b < RD_MAX_BINDINGS; b++) {
		struct rd_buffer *vb = e->vertex_buffers[b];
		g.bindings[b].stride = p->binding_strides[b];
		g.bindings[b].rate = p->binding_rates[b];
		if (vb && vb->data && e->vertex_offsets[b] <= vb->size) {
			g.bindings[b].data = vb->data + e->vertex_offsets[b];
			g.bindings[b].size = vb->size - e->vertex_offsets[b];
		}
	}
	g.render_area = e->area;
	g.color_count = e->color_count;
	for (uint32_t c = 0; c < e->color_count; c++)
		g.color[c] = attachment_of(e->color[c]);
	g.depth_stencil = attachment_of(e->depth);
	g.view_mask = e->view_mask;
	if (e->xfb_active) {
		/* "The sizes of the transform feedback buffers are defined by the
		 * pSizes parameter ... or the size of the bound buffer, whichever
		 * is the lesser." */
		for (uint32_t b = 0; b < RD_MAX_XFB_BUFFERS; b++) {
			struct rd_buffer *xb = e->xfb_buffers[b];
			e->xfb.data[b] = NULL;
			if (!xb || !xb->data || e->xfb_offsets[b] > xb->size)
				continue;
			VkDeviceSize rest = xb->size - e->xfb_offsets[b];
			e->xfb.data[b] = xb->data + e->xfb_offsets[b];
			e->xfb.size[b] = e->xfb_sizes[b] < rest ? e->xfb_sizes[b] : rest;
		}
		g.xfb = &e->xfb;
	}
	struct rd_draw_params d = *dp;
	if (d.indexed) {
		struct rd_buffer *ib = e->index_buffer;
		if (!ib || !ib->data || e->index_offset > ib->size) {
			rd_log("indexed draw without an index buffer: skipped");
			return;
		}
		d.index_data = ib->data + e->index_offset;
		d.index_size = ib->size - e->index_offset;
		d.index_type = e->index_type;
	}
	struct rd_draw_counters dc;
	memset(&dc, 0, sizeof(dc));
	char err[256];
	if (rd_draw(&g, &d, &dc, err, sizeof(err)) != 0)
		rd_log("draw: %s", err);
	add_counters(&e->q->counters, &dc);
	uint64_t frags = dc.fs_invocations;
	for (int v = 0; v < RD_MAX_VIEWS; v++)
		frags += dc.samples_passed[v] / 4;
	charge(e, dc.vs_invocations * COST_VERTEX_NS + frags * COST_FRAGMENT_NS);
}

static void dispatch(struct exec *e, const uint32_t base[3], const uint32_t groups[3])
{
	struct rd_pipeline *p = e->compute;
	if (!p || !p->cs) {
		rd_log("dispatch without a compute pipeline: skipped");
		return;
	}
	struct env_ctx ec = {.e = e, .bind = 1};
	struct rd_exec_env env = {.push_constants = e->push, .buffer = env_buffer, .user = &ec};
	const uint32_t *ls = p->cs_info.local_size;
	struct rd_invocation inv;
	uint64_t count = 0;
	/* Workgroup variables: one zeroed block shared by a workgroup's
	 * invocations (run one after another: no barriers in the subset). */
	size_t wg_size = p->cs_info.workgroup_memory_size;
	uint8_t *wg_mem = wg_size ? malloc(wg_size) : NULL;
	if (wg_size && !wg_mem) {
		rd_log("dispatch: out of memory for %zu bytes of workgroup memory", wg_size);
		return;
	}
	for (uint32_t gz = 0; gz < groups[2]; gz++)
		for (uint32_t gy = 0; gy < groups[1]; gy++)
			for (uint32_t gx = 0; gx < groups[0]; gx++) {
				if (wg_mem)
					memset(wg_mem, 0, wg_size);
				for (uint32_t lz = 0; lz < ls[2]; lz++)
					for (uint32_t ly = 0; ly < ls[1]; ly++)
						for (uint32_t lx = 0; lx < ls[0]; lx++) {
							memset(&inv, 0, sizeof(inv));
							uint32_t wg[3] = {base[0] + gx, base[1] + gy,
									  base[2] + gz};
							uint32_t l[3] = {lx, ly, lz};
							for (int k = 0; k < 3; k++) {
								inv.workgroup_id[k] = wg[k];
								inv.local_id[k] = l[k];
								inv.global_id[k] = wg[k] * ls[k] + l[k];
								inv.num_workgroups[k] = groups[k];
							}
							inv.local_index = (lz * ls[1] + ly) * ls[0] + lx;
							inv.workgroup_memory = wg_mem;
							char err[256];
							if (rd_shader_run(p->cs, &p->cs_info, &env, &inv,
									  err, sizeof(err)) != 0) {
								rd_log("dispatch: %s", err);
								goto done;
							}
							count++;
						}
			}
done:
	free(wg_mem);
	e->q->counters.cs_invocations += count;
	charge(e, count * COST_INVOCATION_NS);
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
	e->in_pass = true;
	e->pass = c->u.begin_rp.pass;
	e->fb = c->u.begin_rp.fb;
	e->subpass = 0;
	e->area = c->u.begin_rp.area;
	memset(e->clears, 0, sizeof(e->clears));
	for (uint32_t i = 0; i < c->u.begin_rp.clear_count && i < 16; i++)
		e->clears[i] = c->u.begin_rp.clears[i];
	subpass_load(e);
}

static void clear_attachments(struct exec *e, const struct rd_cmd *c)
{
	for (uint32_t a = 0; a < c->u.clear_attachments.attachment_count; a++) {
		const VkClearAttachment *ca = &c->u.clear_attachments.attachments[a];
		struct rd_image_view *v = ca->aspectMask & VK_IMAGE_ASPECT_COLOR_BIT
						  ? (ca->colorAttachment < RD_MAX_COLOR
							     ? e->color[ca->colorAttachment]
							     : NULL)
						  : e->depth;
		if (!v)
			continue;
		for (uint32_t r = 0; r < c->u.clear_attachments.rect_count; r++) {
			const VkClearRect *cr = &c->u.clear_attachments.rects[r];
			if (e->view_mask) {
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
	e->in_pass = true;
	e->pass = NULL;
	e->fb = NULL;
	e->area = c->u.begin_rendering.area;
	e->view_mask = c->u.begin_rendering.view_mask;
	e->layer_count = c->u.begin_rendering.layer_count;
	e->color_count = c->u.begin_rendering.color_count;
	uint32_t layers = e->view_mask ? 32 - (uint32_t)__builtin_clz(e->view_mask) : e->layer_count;
	for (uint32_t i = 0; i < RD_MAX_COLOR; i++) {
		const struct rd_rendering_attachment *a =
			i < e->color_count ? &c->u.begin_rendering.color[i] : NULL;
		e->color[i] = a ? a->view : NULL;
		e->resolve[i] = a ? a->resolve : NULL;
		if (a && a->view && a->load_op == VK_ATTACHMENT_LOAD_OP_CLEAR)
			for (uint32_t l = 0; l < layers; l++)
				if (layer_used(e, l))
					clear_view_rect(e, a->view, VK_IMAGE_ASPECT_COLOR_BIT, &a->clear,
							e->area, l, 1);
	}
	const struct rd_rendering_attachment *d = &c->u.begin_rendering.depth;
	const struct rd_rendering_attachment *s = &c->u.begin_rendering.stencil;
	e->depth = d->view ? d->view : s->view;
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
	if (asp && e->depth)
		for (uint32_t l = 0; l < layers; l++)
			if (layer_used(e, l))
				clear_view_rect(e, e->depth, asp, &cv, e->area, l, 1);
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
		memset(&e->xfb, 0, sizeof(e->xfb));
		e->xfb_active = true;
	}
	for (uint32_t i = 0; i < x->count && x->first + i < RD_MAX_XFB_BUFFERS; i++) {
		uint32_t b = x->first + i, v;
		if (!buffer_range_ok(x->buffers[i], x->offsets[i], 4))
			continue;
		uint8_t *p = x->buffers[i]->data + x->offsets[i];
		if (begin) {
			memcpy(&v, p, 4);
			e->xfb.pos[b] = v;
		} else {
			v = (uint32_t)e->xfb.pos[b];
			memcpy(p, &v, 4);
		}
	}
	if (!begin)
		e->xfb_active = false;
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

static void run(struct exec *e, const struct rd_cmd *c)
{
	charge(e, COST_COMMAND_NS);
	switch (c->type) {
	case RD_CMD_BIND_PIPELINE:
		if (c->u.bind_pipeline.bind_point == VK_PIPELINE_BIND_POINT_COMPUTE)
			e->compute = c->u.bind_pipeline.pipeline;
		else
			e->gfx = c->u.bind_pipeline.pipeline;
		break;
	case RD_CMD_SET_VIEWPORT: e->viewport = c->u.viewport; break;
	case RD_CMD_SET_SCISSOR: e->scissor = c->u.scissor; break;
	case RD_CMD_SET_LINE_WIDTH: e->line_width = c->u.line_width; break;
	case RD_CMD_SET_DEPTH_BOUNDS:
		e->depth_bounds[0] = c->u.depth_bounds.min;
		e->depth_bounds[1] = c->u.depth_bounds.max;
		break;
	case RD_CMD_SET_STENCIL_COMPARE_MASK:
	case RD_CMD_SET_STENCIL_WRITE_MASK:
	case RD_CMD_SET_STENCIL_REFERENCE: {
		uint32_t *v = c->type == RD_CMD_SET_STENCIL_COMPARE_MASK ? e->stencil_compare
			      : c->type == RD_CMD_SET_STENCIL_WRITE_MASK ? e->stencil_write
									 : e->stencil_ref;
		if (c->u.stencil.faces & VK_STENCIL_FACE_FRONT_BIT)
			v[0] = c->u.stencil.value;
		if (c->u.stencil.faces & VK_STENCIL_FACE_BACK_BIT)
			v[1] = c->u.stencil.value;
		break;
	}
	case RD_CMD_BIND_DESCRIPTOR_SETS: {
		int bp = c->u.bind_sets.bind_point == VK_PIPELINE_BIND_POINT_COMPUTE;
		for (uint32_t i = 0; i < c->u.bind_sets.count && c->u.bind_sets.first + i < RD_MAX_SETS; i++)
			e->sets[bp][c->u.bind_sets.first + i] = c->u.bind_sets.sets[i];
		break;
	}
	case RD_CMD_BIND_INDEX_BUFFER:
		e->index_buffer = c->u.bind_index.buffer;
		e->index_offset = c->u.bind_index.offset;
		e->index_type = c->u.bind_index.type;
		break;
	case RD_CMD_BIND_VERTEX_BUFFERS:
		for (uint32_t i = 0; i < c->u.bind_vertex.count &&
				     c->u.bind_vertex.first + i < RD_MAX_BINDINGS; i++) {
			e->vertex_buffers[c->u.bind_vertex.first + i] = c->u.bind_vertex.buffers[i];
			e->vertex_offsets[c->u.bind_vertex.first + i] = c->u.bind_vertex.offsets[i];
		}
		break;
	case RD_CMD_DRAW:
	case RD_CMD_DRAW_INDEXED: {
		struct rd_draw_params dp = {
			.indexed = c->type == RD_CMD_DRAW_INDEXED,
			.count = c->u.draw.count,
			.instance_count = c->u.draw.instances,
			.first = c->u.draw.first,
			.first_instance = c->u.draw.first_instance,
			.vertex_offset = c->u.draw.vertex_offset,
		};
		draw(e, &dp);
		break;
	}
	case RD_CMD_DRAW_INDIRECT:
	case RD_CMD_DRAW_INDEXED_INDIRECT: {
		bool indexed = c->type == RD_CMD_DRAW_INDEXED_INDIRECT;
		uint32_t words = indexed ? 5 : 4;
		for (uint32_t i = 0; i < c->u.indirect.count; i++) {
			VkDeviceSize off = c->u.indirect.offset + (VkDeviceSize)i * c->u.indirect.stride;
			if (!buffer_range_ok(c->u.indirect.buffer, off, words * 4))
				break;
			uint32_t a[5];
			memcpy(a, c->u.indirect.buffer->data + off, words * 4);
			struct rd_draw_params dp = {.indexed = indexed, .count = a[0],
						    .instance_count = a[1], .first = a[2]};
			if (indexed) {
				dp.vertex_offset = (int32_t)a[3];
				dp.first_instance = a[4];
			} else {
				dp.first_instance = a[3];
			}
			draw(e, &dp);
		}
		break;
	}
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
	case RD_CMD_WAIT_EVENTS: wait_events(e, c); break;
	case RD_CMD_BARRIER: break;
	case RD_CMD_BEGIN_QUERY:
		begin_query(e, c->u.query.pool, c->u.query.query, c->u.query.flags,
			    c->u.query.index);
		break;
	case RD_CMD_END_QUERY:
		end_query(e, c->u.query.pool, c->u.query.query, c->u.query.index);
		break;
	case RD_CMD_RESET_QUERY_POOL:
		rd_query_reset(c->u.reset_query.pool, c->u.reset_query.first, c->u.reset_query.count);
		break;
	case RD_CMD_WRITE_TIMESTAMP:
		write_timestamp(e, c->u.timestamp.pool, c->u.timestamp.query);
		break;
	case RD_CMD_COPY_QUERY_POOL_RESULTS: {
		const __typeof__(c->u.copy_query) *q = &c->u.copy_query;
		if (q->dst && q->dst->data && q->offset <= q->dst->size)
			rd_query_write_results(e->dev, q->pool, q->first, q->count,
					       q->dst->data + q->offset, q->stride, q->flags);
		break;
	}
	case RD_CMD_PUSH_CONSTANTS:
		if (c->u.push.offset < sizeof(e->push) &&
		    c->u.push.size <= sizeof(e->push) - c->u.push.offset)
			memcpy(e->push + c->u.push.offset, c->u.push.data, c->u.push.size);
		break;
	case RD_CMD_BEGIN_RENDER_PASS: begin_render_pass(e, c); break;
	case RD_CMD_NEXT_SUBPASS:
		subpass_resolve(e);
		e->subpass++;
		if (e->pass && e->subpass < e->pass->subpass_count)
			subpass_load(e);
		break;
	case RD_CMD_END_RENDER_PASS:
		subpass_resolve(e);
		e->in_pass = false;
		e->view_mask = 0;
		break;
	case RD_CMD_BEGIN_RENDERING: begin_rendering(e, c); break;
	case RD_CMD_END_RENDERING:
		subpass_resolve(e);
		e->in_pass = false;
		e->view_mask = 0;
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
			e->xfb_buffers[b] = c->u.bind_xfb.buffers[i];
			e->xfb_offsets[b] = c->u.bind_xfb.offsets[i];
			e->xfb_sizes[b] = c->u.bind_xfb.sizes[i];
		}
		break;
	case RD_CMD_BEGIN_TRANSFORM_FEEDBACK: transform_feedback(e, c, true); break;
	case RD_CMD_END_TRANSFORM_FEEDBACK: transform_feedback(e, c, false); break;
	case RD_CMD_COUNT:
		break;
	}
}

static void execute(struct exec *e, struct rd_command_buffer *cb)
{
	for (uint32_t i = 0; i < cb->cmd_count; i++)
		run(e, &cb->cmds[i]);
}

void rd_execute_command_buffer(struct rd_queue *q, struct rd_command_buffer *cb)
{
	struct exec *e = calloc(1, sizeof(*e));
	if (!e) {
		rd_log("out of memory executing a command buffer");
		return;
	}
	e->q = q;
	e->dev = q->base.device;
	e->line_width = 1.0f;
	execute(e, cb);
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
