/* Transform feedback area: the helpers its groups share (declared in xfb.h). */
#include "xfb.h"
#include "shaders/empty_frag.h"
#include "shaders/stats_triangle_tesc.h"
#include "shaders/stats_triangle_tese.h"
#include "shaders/xfb_triangle_tese.h"

VkPhysicalDeviceTransformFeedbackPropertiesEXT xfb_props(struct vkqs_ctx *ctx)
{
	VkPhysicalDeviceTransformFeedbackPropertiesEXT xp = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_PROPERTIES_EXT};
	VkPhysicalDeviceProperties2 p = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
					 .pNext = &xp};
	vkGetPhysicalDeviceProperties2(ctx->vk->phys, &p);
	return xp;
}

/* Transform feedback, and the transform feedback query type
 * (VUID-vkCmdBeginQuery-queryType-02328: transformFeedbackQueries). */
void xfb_require_xfb_query(struct vkqs_ctx *ctx)
{
	vkqs_require_queue(ctx, &ctx->vk->gfx, "graphics");
	vkqs_require_feature(ctx, ext_xfb);
	if (!xfb_props(ctx).transformFeedbackQueries)
		vkqs_skip(ctx, "VkPhysicalDeviceTransformFeedbackPropertiesEXT::"
			       "transformFeedbackQueries is VK_FALSE");
}

void xfb_require_pgq(struct vkqs_ctx *ctx)
{
	vkqs_require_queue(ctx, &ctx->vk->gfx, "graphics");
	vkqs_require_feature(ctx, ext_pgq);
}

void xfb_require_streams_geom(struct vkqs_ctx *ctx)
{
	vkqs_require_feature(ctx, "geometryShader");
	vkqs_require_feature(ctx, "VK_EXT_transform_feedback.geometryStreams");
	if (!ctx->vk->features.features.shaderTessellationAndGeometryPointSize)
		vkqs_skip(ctx, "feature shaderTessellationAndGeometryPointSize is not supported "
			       "(the geometry shader writes PointSize)");
	VkPhysicalDeviceTransformFeedbackPropertiesEXT xp = xfb_props(ctx);
	if (xp.maxTransformFeedbackStreams < 2 || xp.maxTransformFeedbackBuffers < 2)
		vkqs_skip(ctx, "maxTransformFeedbackStreams %u, maxTransformFeedbackBuffers %u: "
			       "two streams into two buffers need 2 each",
			  xp.maxTransformFeedbackStreams, xp.maxTransformFeedbackBuffers);
}

const struct topo *xfb_topo_of(VkPrimitiveTopology t)
{
	for (size_t i = 0; i < VKQS_ARRAY_LEN(topos); i++)
		if (topos[i].t == t)
			return &topos[i];
	return &topos[0];
}

/* Primitives of n vertices ("Primitive Topologies"; incomplete ones none). */
uint32_t xfb_prim_count(VkPrimitiveTopology t, uint32_t n)
{
	switch (t) {
	case VK_PRIMITIVE_TOPOLOGY_POINT_LIST: return n;
	case VK_PRIMITIVE_TOPOLOGY_LINE_LIST: return n / 2;
	case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP: return n > 1 ? n - 1 : 0;
	case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST: return n / 3;
	default: return n > 2 ? n - 2 : 0; /* strips and fans */
	}
}

/* Vertex j of primitive i, in the spec's order: triangle strip i is
 * (i, i + (1 + i % 2), i + (2 - i % 2)), triangle fan i is (i + 1, i + 2, 0). */
uint32_t xfb_prim_vertex(VkPrimitiveTopology t, uint32_t i, uint32_t j)
{
	switch (t) {
	case VK_PRIMITIVE_TOPOLOGY_POINT_LIST: return i;
	case VK_PRIMITIVE_TOPOLOGY_LINE_LIST: return 2 * i + j;
	case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP: return i + j;
	case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST: return 3 * i + j;
	case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP:
		return j == 0 ? i : j == 1 ? i + 1 + i % 2 : i + 2 - i % 2;
	default: return j == 0 ? i + 1 : j == 1 ? i + 2 : 0; /* fan */
	}
}

/* Whether got[0..k) is a rotation of want[0..k) (the first vertex written
 * may be any of the primitive's, the rest follow in winding order). */
bool xfb_rotation_of(const uint32_t *got, const uint32_t *want, uint32_t k)
{
	for (uint32_t r = 0; r < k; r++) {
		bool same = true;
		for (uint32_t j = 0; j < k; j++)
			same &= got[j] == want[(j + r) % k];
		if (same)
			return true;
	}
	return false;
}

/* A pipeline on target t's render pass, subpass 0, with the solid-colour
 * fragment shader; viewport and scissor are dynamic (vkqs_target_begin
 * sets them). */
const struct vkqs_pipeline *xfb_pipeline(struct vkqs_ctx *ctx, const struct vkqs_target *t,
					    const struct pdesc *d)
{
	struct vkqs_pipeline_desc desc = {
		.set_topology = true,
		.topology = d->topology,
		.primitive_restart = d->restart,
		.push_size = sizeof(struct push),
		.rasterizer_discard = d->discard,
		.cull_mode = d->cull,
		.no_color_writes = d->no_color_writes,
		.dynamic_color_write = d->dynamic_color_write,
	};
	desc.geom_spv = d->geom;
	desc.geom_size = d->geom_size;
	if (d->tess || d->tess_xfb) {
		desc.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
		desc.tesc_spv = stats_triangle_tesc;
		desc.tesc_size = sizeof(stats_triangle_tesc);
		desc.tese_spv = d->tess_xfb ? xfb_triangle_tese : stats_triangle_tese;
		desc.tese_size = d->tess_xfb ? sizeof(xfb_triangle_tese) : sizeof(stats_triangle_tese);
		desc.patch_control_points = 3;
	}
	if (d->empty_fs) {
		desc.frag_spv = empty_frag;
		desc.frag_size = sizeof(empty_frag);
	}
	switch (d->vs) {
	case VS_PLAIN:
		desc.vert_spv = xfb_plain_vert;
		desc.vert_size = sizeof(xfb_plain_vert);
		break;
	case VS_LAYOUT:
		desc.vert_spv = xfb_layout_vert;
		desc.vert_size = sizeof(xfb_layout_vert);
		break;
	case VS_OMIT:
		desc.vert_spv = xfb_omit_vert;
		desc.vert_size = sizeof(xfb_omit_vert);
		break;
	case VS_COUNT:
	default:
		desc.vert_spv = xfb_count_vert;
		desc.vert_size = sizeof(xfb_count_vert);
		break;
	}
	return vkqs_pipeline_rect(ctx, t, &desc);
}

const struct vkqs_pipeline *xfb_simple_pipeline(struct vkqs_ctx *ctx,
						   const struct vkqs_target *t,
						   VkPrimitiveTopology topology, enum vs_kind vs)
{
	struct pdesc d = {.topology = topology, .vs = vs};
	return xfb_pipeline(ctx, t, &d);
}

struct vkqs_target *xfb_target(struct vkqs_ctx *ctx)
{
	return vkqs_target_create(ctx, FB, FB, VK_SAMPLE_COUNT_1_BIT, false);
}

/* Binds p and pushes the grid and tag (the pipeline must be bound before
 * transform feedback begins: VUID-vkCmdBindPipeline-None-02323). */
void xfb_bind(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_pipeline *p,
		 const float grid[4], float tag)
{
	struct push pc = {{grid[0], grid[1], grid[2], grid[3]}, 0.5f, tag, {0, 0}};
	D->vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, p->pipeline);
	D->vkCmdPushConstants(cb, p->layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(pc), &pc);
}

/* A host-visible buffer usable for transform feedback data and counters,
 * every byte SENTINEL. */
struct vkqs_buffer *xfb_buffer(struct vkqs_ctx *ctx, VkDeviceSize size)
{
	struct vkqs_buffer *b =
		vkqs_buffer_host(ctx, size,
				 VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT |
					 VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_COUNTER_BUFFER_BIT_EXT);
	memset(b->map, SENTINEL, (size_t)size);
	vkqs_buffer_flush(ctx, b);
	return b;
}

void xfb_bind_xfb(struct vkqs_ctx *ctx, VkCommandBuffer cb, uint32_t binding,
		     const struct vkqs_buffer *b, VkDeviceSize offset, VkDeviceSize size)
{
	D->vkCmdBindTransformFeedbackBuffersEXT(cb, binding, 1, &b->buf, &offset, &size);
}

/* Transform feedback and counter writes, then transfers, made visible to
 * the host (transform feedback writes happen in TRANSFORM_FEEDBACK_BIT_EXT,
 * counter writes too; copies of query results in TRANSFER). */
void xfb_to_host_barrier(struct vkqs_ctx *ctx, VkCommandBuffer cb)
{
	VkMemoryBarrier mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_TRANSFORM_FEEDBACK_WRITE_BIT_EXT |
				 VK_ACCESS_TRANSFORM_FEEDBACK_COUNTER_WRITE_BIT_EXT |
				 VK_ACCESS_TRANSFER_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_HOST_READ_BIT,
	};
	D->vkCmdPipelineBarrier(cb,
				VK_PIPELINE_STAGE_TRANSFORM_FEEDBACK_BIT_EXT |
					VK_PIPELINE_STAGE_TRANSFER_BIT,
				VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
}

uint32_t xfb_get_u32(const struct vkqs_buffer *b, VkDeviceSize off)
{
	uint32_t v;
	memcpy(&v, b->map + off, 4);
	return v;
}

/* Every byte of [from, to) of buffer `name` still SENTINEL. */
void xfb_expect_untouched_in(struct vkqs_ctx *ctx, const struct vkqs_buffer *b,
				const char *name, VkDeviceSize from, VkDeviceSize to,
				const char *why)
{
	for (VkDeviceSize i = from; i < to; i++)
		if (b->map[i] != SENTINEL) {
			vkqs_fail(ctx, "%s: byte %llu is 0x%02x, was 0x%02x before: written although %s",
				  name, (unsigned long long)i, b->map[i], SENTINEL, why);
			return;
		}
}

void xfb_expect_untouched(struct vkqs_ctx *ctx, const struct vkqs_buffer *b,
			     VkDeviceSize from, VkDeviceSize to, const char *why)
{
	xfb_expect_untouched_in(ctx, b, "transform feedback buffer", from, to, why);
}

VkCommandBuffer xfb_begin_cb(struct vkqs_ctx *ctx)
{
	return vkqs_cmd_begin(ctx, &ctx->vk->gfx);
}

void xfb_finish(struct vkqs_ctx *ctx, VkCommandBuffer cb, struct vkqs_buffer *const *bufs,
		   uint32_t nbufs)
{
	xfb_to_host_barrier(ctx, cb);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	for (uint32_t i = 0; i < nbufs; i++)
		vkqs_buffer_invalidate(ctx, bufs[i]);
}

/* Queries [first, first + count) of a pool of `values` values per query,
 * 64-bit with WAIT, into out (count * values). */
void xfb_results(struct vkqs_ctx *ctx, VkQueryPool pool, uint32_t first, uint32_t count,
		    uint32_t values, uint64_t *out)
{
	VKQS_ASSERT_VK(ctx,
		       D->vkGetQueryPoolResults(DEV, pool, first, count,
						(size_t)count * values * sizeof(uint64_t), out,
						values * sizeof(uint64_t),
						VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
		       VK_SUCCESS);
}

void xfb_expect_stream(struct vkqs_ctx *ctx, const char *what, const uint64_t r[2],
			  uint64_t written, uint64_t needed)
{
	VKQS_EXPECTF(ctx, r[0] == written && r[1] == needed,
		     "%s: transform feedback query (written, needed) = (%" PRIu64 ", %" PRIu64
		     "), expected (%" PRIu64 ", %" PRIu64 ") (18.7)",
		     what, r[0], r[1], written, needed);
}

void xfb_expect_pgq(struct vkqs_ctx *ctx, const char *what, uint64_t got, uint64_t want)
{
	VKQS_EXPECTF(ctx, got == want,
		     "%s: primitives generated query = %" PRIu64 ", expected %" PRIu64 " (18.8)",
		     what, got, want);
}

/* A captured float that should hold a small non-negative integer, as an
 * integer; UINT32_MAX when it does not (never an out-of-range cast). */
uint32_t xfb_small_int(float f)
{
	return f >= 0.0f && f < 16777216.0f && (float)(uint32_t)f == f ? (uint32_t)f : UINT32_MAX;
}

struct vkqs_buffer *xfb_restart_index_buffer(struct vkqs_ctx *ctx)
{
	struct vkqs_buffer *ib =
		vkqs_buffer_host(ctx, sizeof(restart_indices), VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
	memcpy(ib->map, restart_indices, sizeof(restart_indices));
	vkqs_buffer_flush(ctx, ib);
	return ib;
}

void xfb_draw_restart(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_buffer *ib,
			 uint32_t instances)
{
	D->vkCmdBindIndexBuffer(cb, ib->buf, 0, VK_INDEX_TYPE_UINT16);
	D->vkCmdDrawIndexed(cb, VKQS_ARRAY_LEN(restart_indices), instances, 0,
			    RESTART_VERTEX_OFFSET, 0);
}

/* Records and submits o on a new target, waits, and reads the transform
 * feedback query's results into out->r. */
void xfb_run_once(struct vkqs_ctx *ctx, const struct once *o, struct once_out *out)
{
	struct vkqs_target *t = xfb_target(ctx);
	const struct vkqs_pipeline *p = xfb_pipeline(ctx, t, &o->pd);
	struct vkqs_buffer *b = xfb_buffer(ctx, o->size ? o->size : BIG);
	struct vkqs_buffer *b1 = o->second_buffer ? xfb_buffer(ctx, BIG) : NULL;
	struct vkqs_buffer *counter = o->counter ? xfb_buffer(ctx, 16) : NULL;
	struct vkqs_buffer *ib = o->indexed_restart ? xfb_restart_index_buffer(ctx) : NULL;
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT, 1, 0);
	VkQueryPool pgq_pool =
		o->pgq ? vkqs_query_pool(ctx, VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, 1, 0) : NULL;

	VkCommandBuffer cb = xfb_begin_cb(ctx);
	D->vkCmdResetQueryPool(cb, pool, 0, 1);
	if (o->pgq)
		D->vkCmdResetQueryPool(cb, pgq_pool, 0, 1);
	vkqs_target_begin(ctx, cb, t, 1.0f);
	xfb_bind(ctx, cb, p, o->grid ? o->grid : default_grid, o->tag);
	xfb_bind_xfb(ctx, cb, 0, b, o->offset, o->range ? o->range : VK_WHOLE_SIZE);
	if (b1)
		xfb_bind_xfb(ctx, cb, 1, b1, 0, VK_WHOLE_SIZE);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	if (o->pgq)
		D->vkCmdBeginQuery(cb, pgq_pool, 0, 0);
	D->vkCmdBeginTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	if (ib)
		xfb_draw_restart(ctx, cb, ib, o->instances);
	else
		D->vkCmdDraw(cb, o->vertices, o->instances, 0, o->first_instance);
	if (counter)
		D->vkCmdEndTransformFeedbackEXT(cb, 0, 1, &counter->buf, &o->counter_off);
	else
		D->vkCmdEndTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	if (o->pgq)
		D->vkCmdEndQuery(cb, pgq_pool, 0);
	D->vkCmdEndQuery(cb, pool, 0);
	vkqs_target_end(ctx, cb);
	struct vkqs_buffer *bufs[3] = {b};
	uint32_t nbufs = 1;
	if (b1)
		bufs[nbufs++] = b1;
	if (counter)
		bufs[nbufs++] = counter;
	xfb_finish(ctx, cb, bufs, nbufs);

	xfb_results(ctx, pool, 0, 1, 2, out->r);
	out->b = b;
	out->b1 = b1;
	out->counter = counter;
	out->pgq_pool = pgq_pool;
}

/* Resets queries [0, nq) of pool, begins t's render pass and binds p with
 * the default grid and `tag`, and b (if any) whole at binding 0. */
VkCommandBuffer xfb_begin_pass(struct vkqs_ctx *ctx, const struct vkqs_target *t,
				  const struct vkqs_pipeline *p, VkQueryPool pool, uint32_t nq,
				  float tag, const struct vkqs_buffer *b)
{
	VkCommandBuffer cb = xfb_begin_cb(ctx);
	D->vkCmdResetQueryPool(cb, pool, 0, nq);
	vkqs_target_begin(ctx, cb, t, 1.0f);
	xfb_bind(ctx, cb, p, default_grid, tag);
	if (b)
		xfb_bind_xfb(ctx, cb, 0, b, 0, VK_WHOLE_SIZE);
	return cb;
}

void xfb_count_param_name(const void *p, char *buf, size_t size)
{
	const struct count_param *c = p;
	snprintf(buf, size, "%s_%u", xfb_topo_of(c->topology)->name, c->vertices);
}

/* The arrays xfb.h declares (no definitions in headers). */
const uint16_t restart_indices[RESTART_INDICES_COUNT] = {0, 1, 2, 3, 0xffff, 4, 5, 0xffff, 6, 7, 8};

const struct count_param count_params[COUNT_PARAMS_COUNT] = {
	{VK_PRIMITIVE_TOPOLOGY_POINT_LIST, 7},	   {VK_PRIMITIVE_TOPOLOGY_LINE_LIST, 7},
	{VK_PRIMITIVE_TOPOLOGY_LINE_STRIP, 7},	   {VK_PRIMITIVE_TOPOLOGY_LINE_STRIP, 1},
	{VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, 8},  {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, 2},
	{VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, 7}, {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, 2},
	{VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN, 7},
};
