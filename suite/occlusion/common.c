/* Occlusion area: the helpers its groups share (declared in occlusion.h). */
#include "occlusion.h"

uint64_t occ_area(struct rect r)
{
	return (uint64_t)r.w * r.h;
}

uint32_t occ_max_u32(uint32_t a, uint32_t b)
{
	return a > b ? a : b;
}

uint32_t occ_min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

struct rect occ_intersect(struct rect a, struct rect b)
{
	uint32_t x0 = occ_max_u32(a.x, b.x), y0 = occ_max_u32(a.y, b.y);
	uint32_t x1 = occ_min_u32(a.x + a.w, b.x + b.w), y1 = occ_min_u32(a.y + a.h, b.y + b.h);
	struct rect r = {x0, y0, x1 > x0 ? x1 - x0 : 0, y1 > y0 ? y1 - y0 : 0};
	return r;
}

/* On a target made by the caller (vkqs_target_create, stencil_target). */
struct occ occ_begin_on(struct vkqs_ctx *ctx, struct vkqs_target *t,
			       uint32_t queries)
{
	struct occ o;
	vkqs_require_queue(ctx, &ctx->vk->gfx, "graphics");
	o.t = t;
	o.pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_OCCLUSION, queries, 0);
	o.queries = queries;
	o.cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(o.cb, o.pool, 0, queries);
	return o;
}

struct occ occ_begin(struct vkqs_ctx *ctx, VkSampleCountFlagBits samples,
			    bool depth, uint32_t queries)
{
	vkqs_require_queue(ctx, &ctx->vk->gfx, "graphics");
	return occ_begin_on(ctx, vkqs_target_create(ctx, FB, FB, samples, depth), queries);
}

/* Submits, waits for the fence, reads every query with 64_BIT | WAIT. */
void occ_finish(struct vkqs_ctx *ctx, const struct occ *o,
		       uint64_t out[MAX_QUERIES])
{
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, o->cb);
	VKQS_ASSERT_VK(ctx,
		       D->vkGetQueryPoolResults(DEV, o->pool, 0, o->queries,
						o->queries * sizeof(uint64_t), out,
						sizeof(uint64_t),
						VK_QUERY_RESULT_64_BIT |
							VK_QUERY_RESULT_WAIT_BIT),
		       VK_SUCCESS);
}

void occ_draw(struct vkqs_ctx *ctx, const struct occ *o,
		 const struct vkqs_pipeline *p, struct rect r, float z)
{
	vkqs_draw_rect(ctx, o->cb, p, o->t, (float)r.x, (float)r.y,
		       (float)(r.x + r.w), (float)(r.y + r.h), z);
}

/* Query `query` around one draw, inside the current subpass. */
void occ_query_draw(struct vkqs_ctx *ctx, const struct occ *o, uint32_t query,
		       VkQueryControlFlags flags, const struct vkqs_pipeline *p,
		       struct rect r, float z)
{
	D->vkCmdBeginQuery(o->cb, o->pool, query, flags);
	occ_draw(ctx, o, p, r, z);
	D->vkCmdEndQuery(o->cb, o->pool, query);
}

/* One render pass instance holding query 0 around one draw of r (clipped
 * by scissor when given); returns the query's result. */
uint64_t occ_measure_rect(struct vkqs_ctx *ctx, const struct occ *o,
			     const struct vkqs_pipeline *p, struct rect r,
			     const struct rect *scissor, VkQueryControlFlags flags)
{
	vkqs_target_begin(ctx, o->cb, o->t, 1.0f);
	if (scissor) {
		VkRect2D s = {{(int32_t)scissor->x, (int32_t)scissor->y},
			      {scissor->w, scissor->h}};
		D->vkCmdSetScissor(o->cb, 0, 1, &s);
	}
	occ_query_draw(ctx, o, 0, flags, p, r, 0.5f);
	vkqs_target_end(ctx, o->cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, o, res);
	return res[0];
}

const struct vkqs_pipeline *occ_plain_pipeline(struct vkqs_ctx *ctx,
						  const struct occ *o)
{
	struct vkqs_pipeline_desc desc = {0};
	return vkqs_pipeline_rect(ctx, o->t, &desc);
}

const struct vkqs_pipeline *occ_depth_pipeline(struct vkqs_ctx *ctx,
						  const struct occ *o,
						  VkCompareOp op, bool write)
{
	struct vkqs_pipeline_desc desc = {
		.depth_test = true,
		.depth_write = write,
		.depth_compare = op,
	};
	return vkqs_pipeline_rect(ctx, o->t, &desc);
}

/* The control flag of a precise query; NotSupported without the feature
 * (vkCmdBeginQuery valid usage forbids the bit without occlusionQueryPrecise). */
VkQueryControlFlags occ_require_precise(struct vkqs_ctx *ctx)
{
	vkqs_require_feature(ctx, "occlusionQueryPrecise");
	return VK_QUERY_CONTROL_PRECISE_BIT;
}

/* 18.2: "Rendering operations such as clears, MSAA resolves, attachment
 * load/store operations, and blits may count towards the results of
 * queries.  This behavior is implementation-dependent."  Such work can only
 * add passing samples, so a precise result is at least the draws' exact
 * count; more is legal but not portable. */
uint64_t occ_ops_ceiling(const struct occ *o, unsigned ops)
{
	return (uint64_t)ops * o->t->width * o->t->height * (uint64_t)o->t->samples * 3u;
}

void occ_expect_draws_plus_clears(struct vkqs_ctx *ctx, const struct occ *o, uint64_t got,
				  uint64_t draws, unsigned ops, const char *extra)
{
	uint64_t ceiling = draws + occ_ops_ceiling(o, ops);
	if (!VKQS_EXPECT_GE(ctx, got, draws) || got <= draws)
		return;
	if (got > ceiling)
		vkqs_fail(ctx, "precise result %" PRIu64 " exceeds what the query saw: the draws' "
			       "%" PRIu64 " samples plus at most %" PRIu64 " from %u operation(s) "
			       "(%s), each at most the whole %ux%u target of each attachment at "
			       "%u samples (18.3: \"must return a result that matches the actual "
			       "number of samples passed\")",
			  got, draws, ceiling - draws, ops, extra, o->t->width, o->t->height,
			  (unsigned)o->t->samples);
	else
		vkqs_compat_warning(ctx,
				    "precise result %" PRIu64 " exceeds the draws' exact count %" PRIu64
				    " by %" PRIu64 ": %s counted towards the query "
				    "(implementation-dependent per 18.2, not portable)",
				    got, draws, got - draws, extra);
}

void occ_samples_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "samples_%u", (unsigned)*(const VkSampleCountFlagBits *)param);
}

/* The target's images start each submission UNDEFINED (the render pass
 * only ever reads them after its own CLEAR load op), so their contents may
 * be discarded; the render pass's external dependency (all commands, memory
 * writes) orders the clear before the instance. */
void occ_to_transfer_dst(struct vkqs_ctx *ctx, VkCommandBuffer cb, VkImage img,
			    VkImageAspectFlags aspect)
{
	vkqs_cmd_image_barrier(ctx, cb, img, aspect, 1, VK_IMAGE_LAYOUT_UNDEFINED,
			       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
			       VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
			       VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
}

/* A pipeline of occlusion_prims.vert on target t's render pass (subpass 0,
 * t's sample count); viewport and scissor are dynamic. */
const struct vkqs_pipeline *occ_prim_pipeline(struct vkqs_ctx *ctx,
						 const struct vkqs_target *t,
						 const struct prim_desc *d)
{
	struct vkqs_pipeline_desc pd = {
		.set_topology = true,
		.topology = d->topology,
		.vert_spv = occlusion_prims_vert,
		.vert_size = sizeof(occlusion_prims_vert),
		.push_size = sizeof(struct prim_push),
		.push_stages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
		.line_width = d->line_width,
		.cull_mode = d->cull,
		.sample_mask = d->sample_mask,
		.depth_test = d->depth_test,
		.depth_write = d->depth_write,
		.depth_compare = d->depth_op,
		.stencil_test = d->stencil_test,
		.stencil = d->stencil,
	};
	switch (d->frag) {
	case FRAG_SAMPLE_MASK:
		pd.frag_spv = occlusion_samplemask_frag;
		pd.frag_size = sizeof(occlusion_samplemask_frag);
		break;
	case FRAG_DISCARD_ALL:
		pd.frag_spv = occlusion_discard_all_frag;
		pd.frag_size = sizeof(occlusion_discard_all_frag);
		break;
	case FRAG_DISCARD_ODD_COLUMNS:
		pd.frag_spv = discard_odd_columns_frag;
		pd.frag_size = sizeof(discard_odd_columns_frag);
		break;
	case FRAG_COLOR:
	default:
		pd.frag_spv = occlusion_color_frag;
		pd.frag_size = sizeof(occlusion_color_frag);
		break;
	}
	return vkqs_pipeline_rect(ctx, t, &pd);
}

const struct vkqs_pipeline *occ_prim_pipeline_simple(struct vkqs_ctx *ctx,
							const struct vkqs_target *t,
							VkPrimitiveTopology topology)
{
	struct prim_desc d = {.topology = topology};
	return occ_prim_pipeline(ctx, t, &d);
}

/* One draw of `count` (1..3) vertices v[] (framebuffer pixels) at depth z:
 * up to three points, one line, a two-segment strip or one triangle. */
void occ_prim_draw(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_pipeline *p,
		      const float (*v)[2], uint32_t count, float z, float point_size,
		      uint32_t mask)
{
	struct prim_push pc = {{0}};
	const float *v1 = v[count > 1 ? 1 : 0], *v2 = v[count > 2 ? 2 : 0];
	pc.v01[0] = v[0][0];
	pc.v01[1] = v[0][1];
	pc.v01[2] = v1[0];
	pc.v01[3] = v1[1];
	pc.v2_fb[0] = v2[0];
	pc.v2_fb[1] = v2[1];
	pc.v2_fb[2] = (float)FB;
	pc.v2_fb[3] = (float)FB;
	pc.z = z;
	pc.point_size = point_size;
	pc.mask = mask;
	D->vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, p->pipeline);
	D->vkCmdPushConstants(cb, p->layout,
			      VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
			      sizeof(pc), &pc);
	D->vkCmdDraw(cb, count, 1, 0, 0);
}

/* The rectangle r as the two triangles of vkqs_draw_rect (same shared
 * diagonal), through a prim_pipeline. */
void occ_prim_rect(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_pipeline *p,
		      struct rect r, float z, uint32_t mask)
{
	float x0 = (float)r.x, y0 = (float)r.y, x1 = (float)(r.x + r.w), y1 = (float)(r.y + r.h);
	const float a[3][2] = {{x0, y0}, {x1, y0}, {x0, y1}};
	const float b[3][2] = {{x1, y0}, {x1, y1}, {x0, y1}};
	occ_prim_draw(ctx, cb, p, a, 3, z, 1.0f, mask);
	occ_prim_draw(ctx, cb, p, b, 3, z, 1.0f, mask);
}

/* Query `query` around prim_rect of r at depth 0.5, inside the current
 * subpass. */
void occ_query_prim_rect(struct vkqs_ctx *ctx, const struct occ *o, uint32_t query,
			    VkQueryControlFlags flags, const struct vkqs_pipeline *p,
			    struct rect r)
{
	D->vkCmdBeginQuery(o->cb, o->pool, query, flags);
	occ_prim_rect(ctx, o->cb, p, r, 0.5f, 0);
	D->vkCmdEndQuery(o->cb, o->pool, query);
}

void occ_set_scissor(struct vkqs_ctx *ctx, VkCommandBuffer cb, struct rect r)
{
	VkRect2D s = {{(int32_t)r.x, (int32_t)r.y}, {r.w, r.h}};
	D->vkCmdSetScissor(cb, 0, 1, &s);
}

struct window occ_exact(uint64_t n)
{
	struct window w = {n, n};
	return w;
}

/* How far a vertex may lie from (x, y), see above. */
double occ_vertex_slack(const struct vkqs_ctx *ctx, float x, float y)
{
	double grid = ldexp(1.0, (int)ctx->vk->props.limits.subPixelPrecisionBits);
	double sx = (double)x * grid, sy = (double)y * grid;
	if (sx == floor(sx) && sy == floor(sy))
		return 0.0;
	return sqrt(2.0) * (1.0 / grid + ldexp(1.0, -16));
}

/* The samples of the pixels in `clip` (and only the even columns when
 * even_columns) covered by the convex polygon v[0..n). */
struct window occ_polygon_window(const struct vkqs_ctx *ctx, const float (*v)[2], uint32_t n,
				    uint32_t samples, struct rect clip, bool even_columns)
{
	const double(*loc)[2] = samples == 4 ? std_locations_4 : std_locations_1;
	double slack[8], area2 = 0.0;
	for (uint32_t i = 0; i < n; i++) {
		const float *a = v[i], *b = v[(i + 1) % n];
		slack[i] = occ_vertex_slack(ctx, a[0], a[1]);
		area2 += (double)a[0] * b[1] - (double)b[0] * a[1];
	}
	double orient = area2 > 0.0 ? 1.0 : -1.0; /* inside: orient * E > 0 */
	struct window w = {0, 0};
	for (uint32_t py = clip.y; py < clip.y + clip.h; py++) {
		for (uint32_t px = clip.x; px < clip.x + clip.w; px++) {
			if (even_columns && (px & 1))
				continue;
			for (uint32_t s = 0; s < samples; s++) {
				double x = px + loc[s][0], y = py + loc[s][1];
				bool out = false, in = true;
				for (uint32_t i = 0; i < n; i++) {
					uint32_t j = (i + 1) % n;
					double ax = v[i][0], ay = v[i][1], bx = v[j][0], by = v[j][1];
					double e = orient * ((bx - ax) * (y - ay) - (by - ay) * (x - ax));
					double ra = slack[i], rb = slack[j];
					double bound = hypot(bx - ax, by - ay) * ra +
						       (ra + rb) * hypot(x - ax, y - ay) + (ra + rb) * ra;
					if (e < -bound)
						out = true;
					if (!(e > bound))
						in = false;
				}
				if (out)
					continue;
				w.hi++;
				if (in)
					w.lo++;
			}
		}
	}
	return w;
}

bool occ_expect_window(struct vkqs_ctx *ctx, uint64_t got, struct window w,
			  const char *what)
{
	if (w.lo == w.hi)
		return VKQS_EXPECTF(ctx, got == w.lo,
				    "%s: precise result %" PRIu64 ", expected exactly %" PRIu64,
				    what, got, w.lo);
	return VKQS_EXPECTF(ctx, got >= w.lo && got <= w.hi,
			    "%s: precise result %" PRIu64 " outside [%" PRIu64 ", %" PRIu64
			    "] (samples certainly covered, plus those within the sub-pixel "
			    "tolerance of an edge)", what, got, w.lo, w.hi);
}

/* The count of `segments` segments of total length `len` pixels and width
 * `rows`, as argued above. */
struct window occ_line_window(const struct vkqs_ctx *ctx, uint64_t len, uint64_t rows,
				 uint64_t segments, uint32_t samples)
{
	struct window w = occ_exact(len * rows * samples);
	if (!ctx->vk->props.limits.strictLines) {
		w.lo -= segments * rows * samples;
		w.hi += segments * rows * samples;
	}
	return w;
}

/* Draws shape s with pipeline p; returns its samples' window within the
 * pixels of `clip` (even columns only when even_columns). */
struct window occ_shape_draw(struct vkqs_ctx *ctx, VkCommandBuffer cb,
				const struct vkqs_pipeline *p, enum shape s, float z,
				uint32_t samples, struct rect clip, bool even_columns)
{
	switch (s) {
	case SHAPE_FAN:
		for (uint32_t i = 0; i < 8; i++) {
			const float t[3][2] = {{fan_center[0], fan_center[1]},
					       {fan_ring[i][0], fan_ring[i][1]},
					       {fan_ring[(i + 1) % 8][0], fan_ring[(i + 1) % 8][1]}};
			occ_prim_draw(ctx, cb, p, t, 3, z, 1.0f, 0);
		}
		return occ_polygon_window(ctx, fan_hull, 4, samples, clip, even_columns);
	case SHAPE_SAMPLE_STRIPS: {
		struct window w = {0, 0};
		for (uint32_t i = 0; i < 4; i++) {
			const float(*q)[2] = strips[i];
			const float a[3][2] = {{q[0][0], q[0][1]}, {q[1][0], q[1][1]}, {q[3][0], q[3][1]}};
			const float b[3][2] = {{q[1][0], q[1][1]}, {q[2][0], q[2][1]}, {q[3][0], q[3][1]}};
			occ_prim_draw(ctx, cb, p, a, 3, z, 1.0f, 0);
			occ_prim_draw(ctx, cb, p, b, 3, z, 1.0f, 0);
			struct window one = occ_polygon_window(ctx, q, 4, samples, clip, even_columns);
			w.lo += one.lo;
			w.hi += one.hi;
		}
		return w;
	}
	case SHAPE_SLIVER:
		occ_prim_draw(ctx, cb, p, sliver_tri, 3, z, 1.0f, 0);
		return occ_polygon_window(ctx, sliver_tri, 3, samples, clip, even_columns);
	case SHAPE_SLANTED:
	default:
		occ_prim_draw(ctx, cb, p, slanted_tri, 3, z, 1.0f, 0);
		return occ_polygon_window(ctx, slanted_tri, 3, samples, clip, even_columns);
	}
}

void occ_precise_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", *(const bool *)param ? "precise" : "nonprecise");
}

unsigned occ_popcount(uint32_t v)
{
	unsigned n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}

void occ_sample_mask(struct vkqs_ctx *ctx, const void *param)
{
	const struct mask_param *p = param;
	VkQueryControlFlags flags = occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, p->samples, false, 1);
	VkSampleMask mask = p->pipeline_mask;
	struct prim_desc d = {
		.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
		.frag = p->shader ? FRAG_SAMPLE_MASK : FRAG_COLOR,
		.sample_mask = &mask,
	};
	const struct vkqs_pipeline *pipe = occ_prim_pipeline(ctx, o.t, &d);
	const struct rect r = {10, 14, 20, 12};

	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	D->vkCmdBeginQuery(o.cb, o.pool, 0, flags);
	occ_prim_rect(ctx, o.cb, pipe, r, 0.5f, p->shader_mask);
	D->vkCmdEndQuery(o.cb, o.pool, 0);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	uint32_t kept = p->pipeline_mask & (p->shader ? p->shader_mask : ~0u) &
			((1u << p->samples) - 1);
	VKQS_EXPECTF(ctx, res[0] == occ_area(r) * occ_popcount(kept),
		     "pipeline mask 0x%x, SampleMask output 0x%x at %u samples: %" PRIu64
		     ", expected %" PRIu64 " pixels x %u samples", p->pipeline_mask,
		     p->shader ? p->shader_mask : 0xffffffffu, (unsigned)p->samples, res[0],
		     occ_area(r), occ_popcount(kept));
}

/* The arrays occlusion.h declares (no definitions in headers). */
const bool precise_params[PRECISE_PARAMS_COUNT] = {true, false};
