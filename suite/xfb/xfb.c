/* Transform feedback queries (spec 18.7) and primitives generated queries
 * (spec 18.8), with transform feedback itself (spec "Transform Feedback",
 * chapter "Fixed-Function Vertex Post-Processing") as the other half of the
 * oracle: what a query says was written must be in the buffer, and nothing
 * more.
 *
 * Oracles:
 * - Primitive counts come from the topology and the vertex count (spec
 *   "Primitive Topologies"): a list of n vertices holds n / k primitives
 *   (k = 1, 2, 3 vertices each), a line strip n - 1, a triangle strip or
 *   fan n - 2; "Individual lines or triangles of a strip or fan primitive
 *   will be extracted and recorded separately.  Incomplete primitives are
 *   not recorded"; a primitive restart index starts a new strip.  Both
 *   queries count primitives reaching the transform feedback stage, which
 *   comes "before any other fixed-function vertex post-processing", so
 *   clipping, culling and rasterizer discard change no count.
 * - Primitives written: "If there is less space remaining in any of the
 *   transform feedback buffers than the size of all of the vertex data for
 *   that primitive based on the XfbStride for that XfbBuffer then no vertex
 *   data of that primitive is recorded in any transform feedback buffer,
 *   and the value for the number of primitives written ... is no longer
 *   incremented".  With a binding of S bytes, stride s and k vertices per
 *   primitive: written = min(primitives, floor(S / (k s))); needed (18.7's
 *   second integer) = primitives.
 * - Buffer contents: primitive after primitive, "all values for a given
 *   vertex are written before writing values for any other vertex"; an
 *   implementation "may write out any vertex within the primitive first,
 *   but all subsequent vertices for that primitive must be written out in a
 *   consistent winding order" of the topology: each primitive's records
 *   are a rotation of the spec's vertex order.  Bytes of the stride that no
 *   captured output covers "will be unmodified", and nothing is written
 *   past what the query reports (buffers are pre-filled with a sentinel).
 * - Vertex positions are dyadic (x0 + (i / 2) dx with dx = 1/8), so the
 *   captured gl_Position is exact whatever the arithmetic.
 */
#include <stdio.h>
#include <string.h>

#include "vkutil.h"

#include "shaders/xfb_count_vert.h"
#include "shaders/xfb_layout_vert.h"
#include "shaders/xfb_omit_vert.h"
#include "shaders/xfb_plain_vert.h"

#define D (VKQS_D(ctx))
#define DEV (VKQS_DEV(ctx))

#define FB 16u
#define SENTINEL 0xa5u            /* every byte of a fresh buffer */
#define COUNT_STRIDE 16u          /* xfb_count.vert: XfbStride of buffer 0 */
#define BIG 4096u                 /* a buffer no case fills */
#define MAX_PRIMS 64u

static const char *const ext_xfb = "VK_EXT_transform_feedback.transformFeedback";
static const char *const ext_pgq = "VK_EXT_primitives_generated_query.primitivesGeneratedQuery";

/* Requirements ------------------------------------------------------------ */

static VkPhysicalDeviceTransformFeedbackPropertiesEXT xfb_props(struct vkqs_ctx *ctx)
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
static void require_xfb_query(struct vkqs_ctx *ctx)
{
	vkqs_require_queue(ctx, &ctx->vk->gfx, "graphics");
	vkqs_require_feature(ctx, ext_xfb);
	if (!xfb_props(ctx).transformFeedbackQueries)
		vkqs_skip(ctx, "VkPhysicalDeviceTransformFeedbackPropertiesEXT::"
			       "transformFeedbackQueries is VK_FALSE");
}

static void require_pgq(struct vkqs_ctx *ctx)
{
	vkqs_require_queue(ctx, &ctx->vk->gfx, "graphics");
	vkqs_require_feature(ctx, ext_pgq);
}

/* Topologies ------------------------------------------------------------- */

static const struct topo {
	VkPrimitiveTopology t;
	const char *name;
	uint32_t k; /* vertices per primitive */
} topos[] = {
	{VK_PRIMITIVE_TOPOLOGY_POINT_LIST, "point_list", 1},
	{VK_PRIMITIVE_TOPOLOGY_LINE_LIST, "line_list", 2},
	{VK_PRIMITIVE_TOPOLOGY_LINE_STRIP, "line_strip", 2},
	{VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, "triangle_list", 3},
	{VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, "triangle_strip", 3},
	{VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN, "triangle_fan", 3},
};

static const struct topo *topo_of(VkPrimitiveTopology t)
{
	for (size_t i = 0; i < VKQS_ARRAY_LEN(topos); i++)
		if (topos[i].t == t)
			return &topos[i];
	return &topos[0];
}

/* Primitives of n vertices ("Primitive Topologies"; incomplete ones none). */
static uint32_t prim_count(VkPrimitiveTopology t, uint32_t n)
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
static uint32_t prim_vertex(VkPrimitiveTopology t, uint32_t i, uint32_t j)
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
static bool rotation_of(const uint32_t *got, const uint32_t *want, uint32_t k)
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

/* Pipelines -------------------------------------------------------------- */

/* The vertex shaders (suite/shaders/xfb_*.vert); all share struct push. */
enum vs_kind { VS_COUNT, VS_PLAIN, VS_LAYOUT, VS_OMIT };

struct push {
	float grid[4]; /* x0, y0, dx, dy in clip coordinates */
	float z, tag;
	float pad[2];
};

/* Inside the view volume for vertex indices below 28. */
static const float default_grid[4] = {-0.75f, -0.75f, 0.125f, 0.5f};

struct pdesc {
	VkPrimitiveTopology topology;
	enum vs_kind vs;
	bool restart;          /* primitiveRestartEnable */
	bool discard;          /* rasterizerDiscardEnable */
	VkCullModeFlags cull;
};

/* A pipeline on target t's render pass, subpass 0, with the solid-colour
 * fragment shader; viewport and scissor are dynamic (vkqs_target_begin
 * sets them). */
static const struct vkqs_pipeline *pipeline(struct vkqs_ctx *ctx, const struct vkqs_target *t,
					    const struct pdesc *d)
{
	struct vkqs_pipeline_desc desc = {
		.set_topology = true,
		.topology = d->topology,
		.primitive_restart = d->restart,
		.push_size = sizeof(struct push),
		.rasterizer_discard = d->discard,
		.cull_mode = d->cull,
	};
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

static const struct vkqs_pipeline *simple_pipeline(struct vkqs_ctx *ctx,
						   const struct vkqs_target *t,
						   VkPrimitiveTopology topology, enum vs_kind vs)
{
	struct pdesc d = {.topology = topology, .vs = vs};
	return pipeline(ctx, t, &d);
}

static struct vkqs_target *target(struct vkqs_ctx *ctx)
{
	return vkqs_target_create(ctx, FB, FB, VK_SAMPLE_COUNT_1_BIT, false);
}

/* Binds p and pushes the grid and tag (the pipeline must be bound before
 * transform feedback begins: VUID-vkCmdBindPipeline-None-02323). */
static void bind(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_pipeline *p,
		 const float grid[4], float tag)
{
	struct push pc = {{grid[0], grid[1], grid[2], grid[3]}, 0.5f, tag, {0, 0}};
	D->vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, p->pipeline);
	D->vkCmdPushConstants(cb, p->layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(pc), &pc);
}

/* Buffers ------------------------------------------------------------------ */

/* A host-visible buffer usable for transform feedback data and counters,
 * every byte SENTINEL. */
static struct vkqs_buffer *xfb_buffer(struct vkqs_ctx *ctx, VkDeviceSize size)
{
	struct vkqs_buffer *b =
		vkqs_buffer_host(ctx, size,
				 VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT |
					 VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_COUNTER_BUFFER_BIT_EXT);
	memset(b->map, SENTINEL, (size_t)size);
	vkqs_buffer_flush(ctx, b);
	return b;
}

static void bind_xfb(struct vkqs_ctx *ctx, VkCommandBuffer cb, uint32_t binding,
		     const struct vkqs_buffer *b, VkDeviceSize offset, VkDeviceSize size)
{
	D->vkCmdBindTransformFeedbackBuffersEXT(cb, binding, 1, &b->buf, &offset, &size);
}

/* Transform feedback and counter writes, then transfers, made visible to
 * the host (transform feedback writes happen in TRANSFORM_FEEDBACK_BIT_EXT,
 * counter writes too; copies of query results in TRANSFER). */
static void to_host_barrier(struct vkqs_ctx *ctx, VkCommandBuffer cb)
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

/* Counter writes of one transform feedback made visible to the next's
 * counter reads (VK_ACCESS_TRANSFORM_FEEDBACK_COUNTER_READ_BIT_EXT happens
 * in DRAW_INDIRECT), and its data writes ordered before the next's. */
static void resume_barrier(struct vkqs_ctx *ctx, VkCommandBuffer cb)
{
	VkMemoryBarrier mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_TRANSFORM_FEEDBACK_WRITE_BIT_EXT |
				 VK_ACCESS_TRANSFORM_FEEDBACK_COUNTER_WRITE_BIT_EXT,
		.dstAccessMask = VK_ACCESS_TRANSFORM_FEEDBACK_WRITE_BIT_EXT |
				 VK_ACCESS_TRANSFORM_FEEDBACK_COUNTER_READ_BIT_EXT,
	};
	D->vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFORM_FEEDBACK_BIT_EXT,
				VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT |
					VK_PIPELINE_STAGE_TRANSFORM_FEEDBACK_BIT_EXT,
				0, 1, &mb, 0, NULL, 0, NULL);
}

static uint32_t get_u32(const struct vkqs_buffer *b, VkDeviceSize off)
{
	uint32_t v;
	memcpy(&v, b->map + off, 4);
	return v;
}

static float get_f32(const struct vkqs_buffer *b, VkDeviceSize off)
{
	float v;
	memcpy(&v, b->map + off, 4);
	return v;
}

/* Every byte of [from, to) of buffer `name` still SENTINEL. */
static void expect_untouched_in(struct vkqs_ctx *ctx, const struct vkqs_buffer *b,
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

static void expect_untouched(struct vkqs_ctx *ctx, const struct vkqs_buffer *b,
			     VkDeviceSize from, VkDeviceSize to, const char *why)
{
	expect_untouched_in(ctx, b, "transform feedback buffer", from, to, why);
}

/* Submission and results ------------------------------------------------- */

static VkCommandBuffer begin_cb(struct vkqs_ctx *ctx)
{
	return vkqs_cmd_begin(ctx, &ctx->vk->gfx);
}

static void finish(struct vkqs_ctx *ctx, VkCommandBuffer cb, struct vkqs_buffer *const *bufs,
		   uint32_t nbufs)
{
	to_host_barrier(ctx, cb);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	for (uint32_t i = 0; i < nbufs; i++)
		vkqs_buffer_invalidate(ctx, bufs[i]);
}

/* Queries [first, first + count) of a pool of `values` values per query,
 * 64-bit with WAIT, into out (count * values). */
static void results(struct vkqs_ctx *ctx, VkQueryPool pool, uint32_t first, uint32_t count,
		    uint32_t values, uint64_t *out)
{
	VKQS_ASSERT_VK(ctx,
		       D->vkGetQueryPoolResults(DEV, pool, first, count,
						(size_t)count * values * sizeof(uint64_t), out,
						values * sizeof(uint64_t),
						VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
		       VK_SUCCESS);
}

static void expect_stream(struct vkqs_ctx *ctx, const char *what, const uint64_t r[2],
			  uint64_t written, uint64_t needed)
{
	VKQS_EXPECTF(ctx, r[0] == written && r[1] == needed,
		     "%s: transform feedback query (written, needed) = (%" PRIu64 ", %" PRIu64
		     "), expected (%" PRIu64 ", %" PRIu64 ") (18.7)",
		     what, r[0], r[1], written, needed);
}

static void expect_pgq(struct vkqs_ctx *ctx, const char *what, uint64_t got, uint64_t want)
{
	VKQS_EXPECTF(ctx, got == want,
		     "%s: primitives generated query = %" PRIu64 ", expected %" PRIu64 " (18.8)",
		     what, got, want);
}

/* Records of xfb_count.vert -------------------------------------------------- */

struct rec {
	float vertex, instance, tag, one;
};

static struct rec get_rec(const struct vkqs_buffer *b, VkDeviceSize off)
{
	struct rec r;
	memcpy(&r, b->map + off, sizeof(r));
	return r;
}

/* What one drawn primitive must have produced. */
struct want_prim {
	uint32_t v[3];     /* VertexIndex of each vertex, the spec's order */
	uint32_t instance;
	float tag;
};

/* A captured float that should hold a small non-negative integer, as an
 * integer; UINT32_MAX when it does not (never an out-of-range cast). */
static uint32_t small_int(float f)
{
	return f >= 0.0f && f < 16777216.0f && (float)(uint32_t)f == f ? (uint32_t)f : UINT32_MAX;
}

/* The buffer from byte `base` holds `n` primitives of k vertices as
 * xfb_count.vert writes them (stride 16), each a rotation of want[i]. */
static void expect_records(struct vkqs_ctx *ctx, const struct vkqs_buffer *b, VkDeviceSize base,
			   const struct want_prim *want, uint32_t n, uint32_t k)
{
	for (uint32_t i = 0; i < n; i++) {
		VkDeviceSize at = base + (VkDeviceSize)i * k * COUNT_STRIDE;
		uint32_t got[3] = {0, 0, 0};
		bool ok = true;
		for (uint32_t j = 0; j < k; j++) {
			struct rec r = get_rec(b, at + (VkDeviceSize)j * COUNT_STRIDE);
			got[j] = small_int(r.vertex);
			ok &= r.instance == (float)want[i].instance && r.tag == want[i].tag &&
			      r.one == 1.0f;
		}
		if (!ok || !rotation_of(got, want[i].v, k)) {
			struct rec r0 = get_rec(b, at);
			vkqs_fail(ctx,
				  "captured primitive %u at byte %llu: vertices (%d, %d, %d), first "
				  "record's instance/tag/w (%g, %g, %g); expected a rotation of "
				  "(%u, %u, %u), instance %u, tag %g, w 1 (\"Transform Feedback\": "
				  "vertices in the topology's order, -1: not a vertex index)",
				  i, (unsigned long long)at, (int)got[0], k > 1 ? (int)got[1] : 0,
				  k > 2 ? (int)got[2] : 0, r0.instance, r0.tag, r0.one, want[i].v[0],
				  k > 1 ? want[i].v[1] : 0, k > 2 ? want[i].v[2] : 0, want[i].instance,
				  want[i].tag);
			return;
		}
	}
}

/* The primitives of a non-indexed draw of n vertices (first vertex 0),
 * instances [0, instances), into w; returns how many. */
static uint32_t want_draw(VkPrimitiveTopology t, uint32_t n, uint32_t instances, float tag,
			  uint32_t vertex_base, struct want_prim *w, uint32_t cap)
{
	uint32_t np = prim_count(t, n), out = 0;
	for (uint32_t inst = 0; inst < instances; inst++)
		for (uint32_t i = 0; i < np && out < cap; i++, out++) {
			for (uint32_t j = 0; j < 3; j++)
				w[out].v[j] = j < topo_of(t)->k ? vertex_base + prim_vertex(t, i, j) : 0;
			w[out].instance = inst;
			w[out].tag = tag;
		}
	return out;
}

/* The primitives of a non-indexed draw of n vertices (first vertex 0),
 * instances [0, instances), tagged `tag`, are the whole of buffer b's
 * records from byte 0, and nothing after them up to BIG is written. */
static void expect_draw_captured(struct vkqs_ctx *ctx, const struct vkqs_buffer *b,
				 VkPrimitiveTopology t, uint32_t n, uint32_t instances, float tag,
				 const char *why)
{
	uint32_t k = topo_of(t)->k;
	struct want_prim w[MAX_PRIMS] = {0}; /* GCC 12 -O3 cannot see want_draw fill it */
	uint32_t nw = want_draw(t, n, instances, tag, 0, w, MAX_PRIMS);
	expect_records(ctx, b, 0, w, nw, k);
	expect_untouched(ctx, b, (VkDeviceSize)nw * k * COUNT_STRIDE, BIG, why);
}

/* Restart-separated strips ------------------------------------------------ */

/* The restart-separated strips of an indexed draw. */
static const uint16_t restart_indices[] = {0, 1, 2, 3, 0xffff, 4, 5, 0xffff, 6, 7, 8};
#define RESTART_VERTEX_OFFSET 10
/* Strips (0 1 2 3), (4 5), (6 7 8): triangles (0 1 2), (1 3 2) and
 * (6 7 8) ("Primitive Restart": a restart index starts a new strip; the
 * strip of 2 vertices is incomplete), VertexIndex = index + vertexOffset. */
static uint32_t want_restart(uint32_t instances, float tag, struct want_prim *w)
{
	static const uint32_t tris[3][3] = {{0, 1, 2}, {1, 3, 2}, {6, 7, 8}};
	uint32_t n = 0;
	for (uint32_t inst = 0; inst < instances; inst++)
		for (uint32_t i = 0; i < 3; i++, n++) {
			for (uint32_t j = 0; j < 3; j++)
				w[n].v[j] = tris[i][j] + RESTART_VERTEX_OFFSET;
			w[n].instance = inst;
			w[n].tag = tag;
		}
	return n;
}

static struct vkqs_buffer *restart_index_buffer(struct vkqs_ctx *ctx)
{
	struct vkqs_buffer *ib =
		vkqs_buffer_host(ctx, sizeof(restart_indices), VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
	memcpy(ib->map, restart_indices, sizeof(restart_indices));
	vkqs_buffer_flush(ctx, ib);
	return ib;
}

static void draw_restart(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_buffer *ib,
			 uint32_t instances)
{
	D->vkCmdBindIndexBuffer(cb, ib->buf, 0, VK_INDEX_TYPE_UINT16);
	D->vkCmdDrawIndexed(cb, VKQS_ARRAY_LEN(restart_indices), instances, 0,
			    RESTART_VERTEX_OFFSET, 0);
}

/* One transform feedback query (stream 0) around one draw with transform
 * feedback active ------------------------------------------------------- */

struct once {
	struct pdesc pd;
	const float *grid;           /* NULL: default_grid */
	float tag;
	uint32_t vertices, instances, first_instance;
	bool indexed_restart;        /* draw_restart instead of vkCmdDraw */
	VkDeviceSize size;           /* buffer 0's size; 0: BIG */
	VkDeviceSize offset, range;  /* binding 0; range 0: VK_WHOLE_SIZE */
	bool second_buffer;          /* a BIG buffer 1 at binding 1 */
	bool counter;                /* a 16-byte counter buffer, written at counter_off */
	VkDeviceSize counter_off;
	bool pgq;                    /* a primitives generated query around it too */
};

struct once_out {
	struct vkqs_buffer *b, *b1, *counter;
	VkQueryPool pgq_pool;
	uint64_t r[2];               /* the transform feedback query's results */
};

/* Records and submits o on a new target, waits, and reads the transform
 * feedback query's results into out->r. */
static void run_once(struct vkqs_ctx *ctx, const struct once *o, struct once_out *out)
{
	struct vkqs_target *t = target(ctx);
	const struct vkqs_pipeline *p = pipeline(ctx, t, &o->pd);
	struct vkqs_buffer *b = xfb_buffer(ctx, o->size ? o->size : BIG);
	struct vkqs_buffer *b1 = o->second_buffer ? xfb_buffer(ctx, BIG) : NULL;
	struct vkqs_buffer *counter = o->counter ? xfb_buffer(ctx, 16) : NULL;
	struct vkqs_buffer *ib = o->indexed_restart ? restart_index_buffer(ctx) : NULL;
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT, 1, 0);
	VkQueryPool pgq_pool =
		o->pgq ? vkqs_query_pool(ctx, VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, 1, 0) : NULL;

	VkCommandBuffer cb = begin_cb(ctx);
	D->vkCmdResetQueryPool(cb, pool, 0, 1);
	if (o->pgq)
		D->vkCmdResetQueryPool(cb, pgq_pool, 0, 1);
	vkqs_target_begin(ctx, cb, t, 1.0f);
	bind(ctx, cb, p, o->grid ? o->grid : default_grid, o->tag);
	bind_xfb(ctx, cb, 0, b, o->offset, o->range ? o->range : VK_WHOLE_SIZE);
	if (b1)
		bind_xfb(ctx, cb, 1, b1, 0, VK_WHOLE_SIZE);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	if (o->pgq)
		D->vkCmdBeginQuery(cb, pgq_pool, 0, 0);
	D->vkCmdBeginTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	if (ib)
		draw_restart(ctx, cb, ib, o->instances);
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
	finish(ctx, cb, bufs, nbufs);

	results(ctx, pool, 0, 1, 2, out->r);
	out->b = b;
	out->b1 = b1;
	out->counter = counter;
	out->pgq_pool = pgq_pool;
}

/* Resets queries [0, nq) of pool, begins t's render pass and binds p with
 * the default grid and `tag`, and b (if any) whole at binding 0. */
static VkCommandBuffer begin_pass(struct vkqs_ctx *ctx, const struct vkqs_target *t,
				  const struct vkqs_pipeline *p, VkQueryPool pool, uint32_t nq,
				  float tag, const struct vkqs_buffer *b)
{
	VkCommandBuffer cb = begin_cb(ctx);
	D->vkCmdResetQueryPool(cb, pool, 0, nq);
	vkqs_target_begin(ctx, cb, t, 1.0f);
	bind(ctx, cb, p, default_grid, tag);
	if (b)
		bind_xfb(ctx, cb, 0, b, 0, VK_WHOLE_SIZE);
	return cb;
}

/* Ends t's render pass, submits and waits, and reads queries [0, nq) of a
 * transform feedback query pool into r (2 values each). */
static void end_xfb_pass(struct vkqs_ctx *ctx, VkCommandBuffer cb, struct vkqs_buffer *b,
			 VkQueryPool pool, uint32_t nq, uint64_t *r)
{
	vkqs_target_end(ctx, cb);
	finish(ctx, cb, &b, 1);
	results(ctx, pool, 0, nq, 2, r);
}

/* Ends t's render pass, submits and waits, and reads queries [0, nq) of a
 * primitives generated query pool into g. */
static void end_pgq_pass(struct vkqs_ctx *ctx, VkCommandBuffer cb, VkQueryPool pool,
			 uint32_t nq, uint64_t *g)
{
	vkqs_target_end(ctx, cb);
	finish(ctx, cb, NULL, 0);
	results(ctx, pool, 0, nq, 1, g);
}

/* Pushes the default grid with `tag` for p's layout (p already bound). */
static void push_tag(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_pipeline *p,
		     float tag)
{
	struct push pc = {{default_grid[0], default_grid[1], default_grid[2], default_grid[3]},
			  0.5f, tag, {0, 0}};
	D->vkCmdPushConstants(cb, p->layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(pc), &pc);
}

/* ========================================================================
 * stream: VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT
 * ======================================================================== */

struct count_param {
	VkPrimitiveTopology topology;
	uint32_t vertices;
};

static void count_param_name(const void *p, char *buf, size_t size)
{
	const struct count_param *c = p;
	snprintf(buf, size, "%s_%u", topo_of(c->topology)->name, c->vertices);
}

/* Vertex counts with an incomplete primitive at the end where the topology
 * can have one, and draws too short for any primitive. */
static const struct count_param count_params[] = {
	{VK_PRIMITIVE_TOPOLOGY_POINT_LIST, 7},	   {VK_PRIMITIVE_TOPOLOGY_LINE_LIST, 7},
	{VK_PRIMITIVE_TOPOLOGY_LINE_STRIP, 7},	   {VK_PRIMITIVE_TOPOLOGY_LINE_STRIP, 1},
	{VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, 8},  {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, 2},
	{VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, 7}, {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, 2},
	{VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN, 7},
};

/* One transform feedback query around one draw with a large buffer:
 * written == needed == the topology's primitive count, and the buffer
 * holds exactly those primitives. */
static void stream_counts(struct vkqs_ctx *ctx, const void *param)
{
	const struct count_param *cp = param;
	require_xfb_query(ctx);
	struct once o = {.pd = {.topology = cp->topology, .vs = VS_COUNT}, .tag = 3.0f,
			 .vertices = cp->vertices, .instances = 1};
	struct once_out out;
	run_once(ctx, &o, &out);
	uint32_t np = prim_count(cp->topology, cp->vertices);
	expect_stream(ctx, "one draw", out.r, np, np);
	expect_draw_captured(ctx, out.b, cp->topology, cp->vertices, 1, 3.0f,
			     "past the primitives drawn");
}

struct overflow_param {
	VkPrimitiveTopology topology;
	uint32_t vertices;
	uint32_t size;    /* pSizes[0]: bytes of the binding */
};

static void overflow_param_name(const void *p, char *buf, size_t size)
{
	const struct overflow_param *o = p;
	snprintf(buf, size, "%s_%u_size_%u", topo_of(o->topology)->name, o->vertices, o->size);
}

/* Stride 16: a triangle takes 48 bytes, a line 32, a point 16. */
static const struct overflow_param overflow_params[] = {
	{VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, 12, 100},  /* 2 of 4, 4 bytes spare */
	{VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, 7, 143},  /* 2 of 5, 1 byte short of 3 */
	{VK_PRIMITIVE_TOPOLOGY_POINT_LIST, 8, 80},       /* exactly 5 of 8 */
	{VK_PRIMITIVE_TOPOLOGY_LINE_STRIP, 6, 96},       /* exactly 3 of 5 */
	{VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN, 6, 44},     /* none of 4 */
};

/* A binding too small for the draw (pSizes[0] = size inside a larger
 * buffer, at offset 16): written = floor(size / (k * 16)), needed = all;
 * the bytes after the last whole primitive stay untouched, inside the
 * binding and beyond it; the counter buffer gets the bytes written
 * (vkCmdEndTransformFeedbackEXT: "the byte offset from the start of the
 * transform feedback buffer binding where the next vertex data would be
 * written"). */
static void stream_overflow(struct vkqs_ctx *ctx, const void *param)
{
	const struct overflow_param *op = param;
	require_xfb_query(ctx);
	const struct topo *tp = topo_of(op->topology);
	const VkDeviceSize base = 16;
	struct once o = {.pd = {.topology = op->topology, .vs = VS_COUNT}, .tag = 5.0f,
			 .vertices = op->vertices, .instances = 1, .size = 1024, .offset = base,
			 .range = op->size, .counter = true, .counter_off = 4};
	struct once_out out;
	run_once(ctx, &o, &out);
	struct vkqs_buffer *b = out.b, *counter = out.counter;
	VkDeviceSize counter_off = o.counter_off;

	uint32_t np = prim_count(op->topology, op->vertices);
	uint32_t fit = op->size / (tp->k * COUNT_STRIDE);
	uint32_t written = fit < np ? fit : np;
	expect_stream(ctx, "binding too small", out.r, written, np);
	struct want_prim w[MAX_PRIMS] = {0}; /* GCC 12 -O3 cannot see want_draw fill it */
	want_draw(op->topology, op->vertices, 1, 5.0f, 0, w, MAX_PRIMS);
	expect_records(ctx, b, base, w, written, tp->k);
	expect_untouched(ctx, b, 0, base, "before the binding's offset");
	expect_untouched(ctx, b, base + (VkDeviceSize)written * tp->k * COUNT_STRIDE, 1024,
			 "no whole primitive fits there");
	uint32_t c = get_u32(counter, counter_off);
	VKQS_EXPECTF(ctx, c == written * tp->k * COUNT_STRIDE,
		     "counter buffer after vkCmdEndTransformFeedbackEXT = %u, expected %u: the "
		     "byte offset from the start of the binding after %u primitives of %u bytes",
		     c, written * tp->k * COUNT_STRIDE, written, tp->k * COUNT_STRIDE);
	expect_untouched_in(ctx, counter, "counter buffer", 0, counter_off,
			    "before pCounterBufferOffsets[0]");
	expect_untouched_in(ctx, counter, "counter buffer", counter_off + 4, 16,
			    "after the 4-byte counter");
}

/* 18.7: "This query is updated during drawing commands while transform
 * feedback is active".  Inside one query: a draw before
 * vkCmdBeginTransformFeedbackEXT, one while active, one after
 * vkCmdEndTransformFeedbackEXT; only the middle one counts, and only it is
 * captured ("When transform feedback is inactive, no vertices are
 * recorded"). */
static void stream_only_while_active(struct vkqs_ctx *ctx, const void *param)
{
	require_xfb_query(ctx);
	const VkPrimitiveTopology topo = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
	struct vkqs_target *t = target(ctx);
	const struct vkqs_pipeline *p = simple_pipeline(ctx, t, topo, VS_COUNT);
	struct vkqs_buffer *b = xfb_buffer(ctx, BIG);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT, 1, 0);

	VkCommandBuffer cb = begin_pass(ctx, t, p, pool, 1, 1.0f, b);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	D->vkCmdDraw(cb, 6, 1, 0, 0);
	D->vkCmdBeginTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	push_tag(ctx, cb, p, 2.0f);
	D->vkCmdDraw(cb, 9, 1, 0, 0);
	D->vkCmdEndTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	push_tag(ctx, cb, p, 3.0f);
	D->vkCmdDraw(cb, 3, 1, 0, 0);
	D->vkCmdEndQuery(cb, pool, 0);
	uint64_t r[2];
	end_xfb_pass(ctx, cb, b, pool, 1, r);
	expect_stream(ctx, "2 + 3 + 1 triangles, the 3 while active", r, 3, 3);
	expect_draw_captured(ctx, b, topo, 9, 1, 2.0f,
			     "only 3 triangles were drawn while transform feedback was active");
}

/* Three queries in a row in one transform feedback: each counts its own
 * draw (18.7: "When a transform feedback query begins, the count of
 * primitives written and primitives needed starts from zero"), the last
 * one none; the second draw's lines are appended after the first's
 * ("subsequent primitives are appended to the buffer"). */
static void stream_multiple_queries(struct vkqs_ctx *ctx, const void *param)
{
	require_xfb_query(ctx);
	const VkPrimitiveTopology topo = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
	struct vkqs_target *t = target(ctx);
	const struct vkqs_pipeline *p = simple_pipeline(ctx, t, topo, VS_COUNT);
	struct vkqs_buffer *b = xfb_buffer(ctx, BIG);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT, 3, 0);

	VkCommandBuffer cb = begin_pass(ctx, t, p, pool, 3, 1.0f, b);
	D->vkCmdBeginTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	D->vkCmdDraw(cb, 6, 1, 0, 0);
	D->vkCmdEndQuery(cb, pool, 0);
	push_tag(ctx, cb, p, 2.0f);
	D->vkCmdBeginQuery(cb, pool, 1, 0);
	D->vkCmdDraw(cb, 5, 1, 6, 0); /* vertices 6..10: 2 lines and one left over */
	D->vkCmdEndQuery(cb, pool, 1);
	D->vkCmdBeginQuery(cb, pool, 2, 0);
	D->vkCmdEndQuery(cb, pool, 2);
	D->vkCmdEndTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	uint64_t r[6];
	end_xfb_pass(ctx, cb, b, pool, 3, r);
	expect_stream(ctx, "query 0: 3 lines", r, 3, 3);
	expect_stream(ctx, "query 1: 2 lines", r + 2, 2, 2);
	expect_stream(ctx, "query 2: no draw", r + 4, 0, 0);
	struct want_prim w[MAX_PRIMS] = {0}; /* GCC 12 -O3 cannot see want_draw fill it */
	uint32_t n0 = want_draw(topo, 6, 1, 1.0f, 0, w, MAX_PRIMS);
	uint32_t n1 = want_draw(topo, 5, 1, 2.0f, 6, w + n0, MAX_PRIMS - n0);
	expect_records(ctx, b, 0, w, n0 + n1, 2);
	expect_untouched(ctx, b, (VkDeviceSize)(n0 + n1) * 2 * COUNT_STRIDE, BIG,
			 "only 5 lines were drawn");
}

/* 18.2: "Calling vkCmdBeginQuery is equivalent to calling
 * vkCmdBeginQueryIndexedEXT with the index parameter set to zero", and
 * likewise for the ends; 18.7: the plain commands query vertex stream
 * zero.  Query 0 with the plain commands and query 1 with the indexed
 * ones (index 0) around draws of 5 points each. */
static void stream_indexed_zero(struct vkqs_ctx *ctx, const void *param)
{
	require_xfb_query(ctx);
	struct vkqs_target *t = target(ctx);
	const struct vkqs_pipeline *p =
		simple_pipeline(ctx, t, VK_PRIMITIVE_TOPOLOGY_POINT_LIST, VS_COUNT);
	struct vkqs_buffer *b = xfb_buffer(ctx, BIG);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT, 2, 0);

	VkCommandBuffer cb = begin_pass(ctx, t, p, pool, 2, 1.0f, b);
	D->vkCmdBeginTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	D->vkCmdDraw(cb, 5, 1, 0, 0);
	D->vkCmdEndQuery(cb, pool, 0);
	D->vkCmdBeginQueryIndexedEXT(cb, pool, 1, 0, 0);
	D->vkCmdDraw(cb, 5, 1, 5, 0);
	D->vkCmdEndQueryIndexedEXT(cb, pool, 1, 0);
	D->vkCmdEndTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	uint64_t r[4];
	end_xfb_pass(ctx, cb, b, pool, 2, r);
	expect_stream(ctx, "vkCmdBeginQuery, 5 points", r, 5, 5);
	expect_stream(ctx, "vkCmdBeginQueryIndexedEXT index 0, 5 points", r + 2, 5, 5);
}

/* 18.7: the query counts "by the vertex stream being captured"; without a
 * geometry shader every primitive goes to vertex stream 0, so a query of
 * stream 1 (vkCmdBeginQueryIndexedEXT index 1, active together with one of
 * stream 0) counts nothing. */
static void stream_nonzero_stream(struct vkqs_ctx *ctx, const void *param)
{
	require_xfb_query(ctx);
	uint32_t streams = xfb_props(ctx).maxTransformFeedbackStreams;
	if (streams < 2)
		vkqs_skip(ctx, "maxTransformFeedbackStreams is %u: no vertex stream 1", streams);
	struct vkqs_target *t = target(ctx);
	const struct vkqs_pipeline *p =
		simple_pipeline(ctx, t, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, VS_COUNT);
	struct vkqs_buffer *b = xfb_buffer(ctx, BIG);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT, 2, 0);

	VkCommandBuffer cb = begin_pass(ctx, t, p, pool, 2, 1.0f, b);
	D->vkCmdBeginQueryIndexedEXT(cb, pool, 0, 0, 0);
	D->vkCmdBeginQueryIndexedEXT(cb, pool, 1, 0, 1);
	D->vkCmdBeginTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	D->vkCmdDraw(cb, 6, 1, 0, 0);
	D->vkCmdEndTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	D->vkCmdEndQueryIndexedEXT(cb, pool, 1, 1);
	D->vkCmdEndQueryIndexedEXT(cb, pool, 0, 0);
	uint64_t r[4];
	end_xfb_pass(ctx, cb, b, pool, 2, r);
	expect_stream(ctx, "stream 0, 4 triangles", r, 4, 4);
	expect_stream(ctx, "stream 1, nothing emitted to it", r + 2, 0, 0);
}

/* Transform feedback resumed from a counter buffer, at binding offset 32:
 * the first one captures 3 triangles and vkCmdEndTransformFeedbackEXT
 * stores 144 ("the byte offset from the start of the transform feedback
 * buffer binding where the next vertex data would be written"); the second,
 * begun with that counter ("the starting points within the transform
 * feedback buffers are adjusted so data is appended to the previously
 * written values"), appends 2 triangles after them and stores 240 in a
 * second counter.  A query around each counts its own. */
static void stream_resume_counter(struct vkqs_ctx *ctx, const void *param)
{
	require_xfb_query(ctx);
	const VkPrimitiveTopology topo = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
	const VkDeviceSize base = 32, size = 1024;
	struct vkqs_target *t = target(ctx);
	const struct vkqs_pipeline *p = simple_pipeline(ctx, t, topo, VS_COUNT);
	struct vkqs_buffer *b = xfb_buffer(ctx, BIG);
	struct vkqs_buffer *counter = xfb_buffer(ctx, 64);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT, 2, 0);
	const VkDeviceSize c1 = 8, c2 = 20;

	VkCommandBuffer cb = begin_cb(ctx);
	D->vkCmdResetQueryPool(cb, pool, 0, 2);
	vkqs_target_begin(ctx, cb, t, 1.0f);
	bind(ctx, cb, p, default_grid, 1.0f);
	bind_xfb(ctx, cb, 0, b, base, size);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	D->vkCmdBeginTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	D->vkCmdDraw(cb, 9, 1, 0, 0);
	D->vkCmdEndTransformFeedbackEXT(cb, 0, 1, &counter->buf, &c1);
	D->vkCmdEndQuery(cb, pool, 0);
	vkqs_target_end(ctx, cb);
	resume_barrier(ctx, cb);
	vkqs_target_begin(ctx, cb, t, 1.0f);
	bind(ctx, cb, p, default_grid, 2.0f);
	bind_xfb(ctx, cb, 0, b, base, size);
	D->vkCmdBeginQuery(cb, pool, 1, 0);
	D->vkCmdBeginTransformFeedbackEXT(cb, 0, 1, &counter->buf, &c1);
	D->vkCmdDraw(cb, 6, 1, 0, 0);
	D->vkCmdEndTransformFeedbackEXT(cb, 0, 1, &counter->buf, &c2);
	D->vkCmdEndQuery(cb, pool, 1);
	vkqs_target_end(ctx, cb);
	struct vkqs_buffer *bufs[2] = {b, counter};
	finish(ctx, cb, bufs, 2);

	uint64_t r[4];
	results(ctx, pool, 0, 2, 2, r);
	expect_stream(ctx, "first transform feedback, 3 triangles", r, 3, 3);
	expect_stream(ctx, "resumed transform feedback, 2 triangles", r + 2, 2, 2);
	uint32_t v1 = get_u32(counter, c1), v2 = get_u32(counter, c2);
	VKQS_EXPECTF(ctx, v1 == 3 * 3 * COUNT_STRIDE && v2 == 5 * 3 * COUNT_STRIDE,
		     "counters after the two vkCmdEndTransformFeedbackEXT: %u and %u, expected "
		     "%u and %u (bytes from the start of the binding)",
		     v1, v2, 3 * 3 * COUNT_STRIDE, 5 * 3 * COUNT_STRIDE);
	struct want_prim w[MAX_PRIMS] = {0}; /* GCC 12 -O3 cannot see want_draw fill it */
	uint32_t n0 = want_draw(topo, 9, 1, 1.0f, 0, w, MAX_PRIMS);
	uint32_t n1 = want_draw(topo, 6, 1, 2.0f, 0, w + n0, MAX_PRIMS - n0);
	expect_untouched(ctx, b, 0, base, "before the binding's offset");
	expect_records(ctx, b, base, w, n0 + n1, 3);
	expect_untouched(ctx, b, base + (VkDeviceSize)(n0 + n1) * 3 * COUNT_STRIDE, BIG,
			 "only 5 triangles were drawn");
}

/* Instances in order: 3 instances of a 4-vertex strip are 6 triangles,
 * instance 0's first (primitives of a draw are processed instance after
 * instance), each record with its InstanceIndex. */
static void stream_instanced(struct vkqs_ctx *ctx, const void *param)
{
	require_xfb_query(ctx);
	const VkPrimitiveTopology topo = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
	struct once o = {.pd = {.topology = topo, .vs = VS_COUNT}, .tag = 4.0f, .vertices = 4,
			 .instances = 3};
	struct once_out out;
	run_once(ctx, &o, &out);
	expect_stream(ctx, "3 instances of 2 triangles", out.r, 6, 6);
	expect_draw_captured(ctx, out.b, topo, 4, 3, 4.0f, "only 6 triangles were drawn");
}


/* An indexed triangle strip with primitive restart: "Individual lines or
 * triangles of a strip ... will be extracted and recorded separately.
 * Incomplete primitives are not recorded." */
static void stream_indexed_restart(struct vkqs_ctx *ctx, const void *param)
{
	require_xfb_query(ctx);
	struct once o = {.pd = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, .vs = VS_COUNT,
				.restart = true},
			 .tag = 6.0f, .instances = 1, .indexed_restart = true};
	struct once_out out;
	run_once(ctx, &o, &out);
	expect_stream(ctx, "strips of 4, 2 and 3 vertices", out.r, 3, 3);
	struct want_prim w[MAX_PRIMS] = {0}; /* GCC 12 -O3 cannot see want_draw fill it */
	uint32_t nw = want_restart(1, 6.0f, w);
	expect_records(ctx, out.b, 0, w, nw, 3);
	expect_untouched(ctx, out.b, (VkDeviceSize)nw * 3 * COUNT_STRIDE, BIG,
			 "only 3 triangles were drawn");
}

/* Where the primitives go after the transform feedback stage changes
 * nothing: it comes "before any other fixed-function vertex
 * post-processing".  Variants: rasterizer discard; every vertex outside
 * the view volume (clipped away); all three vertices of each triangle at
 * one point (degenerate, zero area: a real driver bug class). */
enum after_kind { AFTER_DISCARD, AFTER_CLIPPED, AFTER_DEGENERATE };

static const struct after_param {
	enum after_kind kind;
	const char *name;
} after_params[] = {
	{AFTER_DISCARD, "rasterizer_discard"},
	{AFTER_CLIPPED, "outside_view_volume"},
	{AFTER_DEGENERATE, "degenerate_triangles"},
};

static void after_param_name(const void *p, char *buf, size_t size)
{
	snprintf(buf, size, "%s", ((const struct after_param *)p)->name);
}

static void stream_after(struct vkqs_ctx *ctx, const void *param)
{
	const struct after_param *ap = param;
	require_xfb_query(ctx);
	bool pgq = vkqs_device_feature(&ctx->vk->info, ext_pgq);
	if (pgq && ap->kind == AFTER_DISCARD &&
	    !vkqs_device_feature(&ctx->vk->info, "VK_EXT_primitives_generated_query."
						 "primitivesGeneratedQueryWithRasterizerDiscard"))
		pgq = false; /* VUID-vkCmdDraw-primitivesGeneratedQueryWithRasterizerDiscard-06708 */
	const VkPrimitiveTopology topo = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
	static const float outside[4] = {3.0f, 3.0f, 0.125f, 0.5f};
	static const float point[4] = {0.25f, 0.25f, 0.0f, 0.0f};
	const float *grid = ap->kind == AFTER_CLIPPED	  ? outside
			    : ap->kind == AFTER_DEGENERATE ? point
							   : default_grid;
	struct once o = {.pd = {.topology = topo, .vs = VS_COUNT,
				.discard = ap->kind == AFTER_DISCARD},
			 .grid = grid, .tag = 7.0f, .vertices = 12, .instances = 1, .pgq = pgq};
	struct once_out out;
	run_once(ctx, &o, &out);
	expect_stream(ctx, ap->name, out.r, 4, 4);
	if (pgq) {
		uint64_t g;
		results(ctx, out.pgq_pool, 0, 1, 1, &g);
		expect_pgq(ctx, ap->name, g, 4);
	}
	expect_draw_captured(ctx, out.b, topo, 12, 1, 7.0f, "only 4 triangles were drawn");
}

/* A captured output the shader never writes: "the value recorded for that
 * component is undefined", but the primitives are captured and counted
 * all the same (a real driver bug class: counters not incremented). */
static void stream_omit_write(struct vkqs_ctx *ctx, const void *param)
{
	require_xfb_query(ctx);
	struct once o = {.pd = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, .vs = VS_OMIT},
			 .tag = 0.0f, .vertices = 6, .instances = 1, .counter = true,
			 .counter_off = 0};
	struct once_out out;
	run_once(ctx, &o, &out);
	expect_stream(ctx, "4 triangles of an unwritten output", out.r, 4, 4);
	uint32_t c = get_u32(out.counter, o.counter_off);
	VKQS_EXPECTF(ctx, c == 4 * 3 * COUNT_STRIDE,
		     "counter after vkCmdEndTransformFeedbackEXT = %u, expected %u (4 triangles)",
		     c, 4 * 3 * COUNT_STRIDE);
	expect_untouched(ctx, out.b, 4 * 3 * COUNT_STRIDE, BIG, "only 4 triangles were drawn");
}

/* ========================================================================
 * capture: what lands in the buffers
 * ======================================================================== */

#define LAYOUT_STRIDE0 32u
#define LAYOUT_STRIDE1 12u

/* One captured vertex of xfb_layout.vert: buffer 0 (stride 32) holds
 * gl_Position at 0..15 and (VertexIndex, InstanceIndex, tag) at 20..31,
 * buffer 1 (stride 12) the int VertexIndex * 16 + InstanceIndex at 4..7;
 * the other bytes are no output's: "any portion of the reserved storage
 * not associated with an output variable with an assigned transform
 * feedback offset will be unmodified".  Returns the VertexIndex, or
 * UINT32_MAX after a failure. */
static uint32_t check_layout_vertex(struct vkqs_ctx *ctx, const struct vkqs_buffer *b0,
				    const struct vkqs_buffer *b1, uint32_t rec, uint32_t instance,
				    float tag)
{
	VkDeviceSize o0 = (VkDeviceSize)rec * LAYOUT_STRIDE0, o1 = (VkDeviceSize)rec * LAYOUT_STRIDE1;
	float vf = get_f32(b0, o0 + 20);
	uint32_t v = small_int(vf);
	float want_pos[4] = {default_grid[0] + (float)(v / 2) * default_grid[2],
			     default_grid[1] + (float)(v % 2) * default_grid[3], 0.5f, 1.0f};
	bool ok = v < 64;
	for (int c = 0; c < 4; c++)
		ok &= get_f32(b0, o0 + 4 * (VkDeviceSize)c) == want_pos[c];
	ok &= get_f32(b0, o0 + 24) == (float)instance && get_f32(b0, o0 + 28) == tag;
	ok &= get_u32(b1, o1 + 4) == v * 16 + instance;
	if (!ok) {
		vkqs_fail(ctx,
			  "vertex record %u: buffer 0 has position (%g, %g, %g, %g), ids (%g, %g, %g); "
			  "buffer 1 has %u; expected position (%g, %g, 0.5, 1), ids (%u, %u, %g) and "
			  "%u for VertexIndex %u (Offset/XfbStride layout, \"Transform Feedback\")",
			  rec, get_f32(b0, o0), get_f32(b0, o0 + 4), get_f32(b0, o0 + 8),
			  get_f32(b0, o0 + 12), vf, get_f32(b0, o0 + 24), get_f32(b0, o0 + 28),
			  get_u32(b1, o1 + 4), want_pos[0], want_pos[1], v, instance, tag,
			  v * 16 + instance, v);
		return UINT32_MAX;
	}
	expect_untouched(ctx, b0, o0 + 16, o0 + 20, "no output has Offset 16 in buffer 0");
	expect_untouched_in(ctx, b1, "transform feedback buffer 1", o1, o1 + 4,
			    "no output has Offset 0 in buffer 1");
	expect_untouched_in(ctx, b1, "transform feedback buffer 1", o1 + 8, o1 + 12,
			    "no output has Offset 8 in buffer 1");
	return v;
}

/* Outputs at their Offset in their XfbBuffer, the builtin gl_Position
 * included; each buffer advances by its own XfbStride per vertex; gaps in
 * a stride keep their bytes.  6 vertices x 2 instances (firstInstance 1)
 * of a triangle list: 4 triangles. */
static void capture_layout(struct vkqs_ctx *ctx, const void *param)
{
	require_xfb_query(ctx);
	if (xfb_props(ctx).maxTransformFeedbackBuffers < 2)
		vkqs_skip(ctx, "maxTransformFeedbackBuffers is 1");
	const VkPrimitiveTopology topo = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
	struct once o = {.pd = {.topology = topo, .vs = VS_LAYOUT}, .tag = 9.0f, .vertices = 6,
			 .instances = 2, .first_instance = 1, .second_buffer = true};
	struct once_out out;
	run_once(ctx, &o, &out);
	struct vkqs_buffer *b0 = out.b, *b1 = out.b1;

	expect_stream(ctx, "2 instances of 2 triangles", out.r, 4, 4);
	for (uint32_t prim = 0; prim < 4 && ctx->status == VKQS_PASS; prim++) {
		uint32_t instance = 1 + prim / 2, got[3], want[3];
		for (uint32_t j = 0; j < 3; j++) {
			got[j] = check_layout_vertex(ctx, b0, b1, prim * 3 + j, instance, 9.0f);
			want[j] = prim_vertex(topo, prim % 2, j);
		}
		VKQS_EXPECTF(ctx, rotation_of(got, want, 3),
			     "triangle %u: vertices (%u, %u, %u), expected a rotation of (%u, %u, %u)",
			     prim, got[0], got[1], got[2], want[0], want[1], want[2]);
	}
	expect_untouched(ctx, b0, 12 * LAYOUT_STRIDE0, BIG, "only 12 vertices were captured");
	expect_untouched_in(ctx, b1, "transform feedback buffer 1", 12 * LAYOUT_STRIDE1, BIG,
			    "only 12 vertices were captured");
}

/* "Any outputs made to a XfbBuffer that is not bound to a transform
 * feedback buffer is ignored": xfb_layout.vert with only buffer 0 bound
 * captures buffer 0 as usual, and counts the same. */
static void capture_unbound_buffer(struct vkqs_ctx *ctx, const void *param)
{
	require_xfb_query(ctx);
	struct once o = {.pd = {.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST, .vs = VS_LAYOUT},
			 .tag = 2.0f, .vertices = 5, .instances = 1};
	struct once_out out;
	run_once(ctx, &o, &out);
	struct vkqs_buffer *b0 = out.b;

	expect_stream(ctx, "5 points, buffer 1 unbound", out.r, 5, 5);
	for (uint32_t i = 0; i < 5; i++) {
		VkDeviceSize o0 = (VkDeviceSize)i * LAYOUT_STRIDE0;
		float want_pos[4] = {default_grid[0] + (float)(i / 2) * default_grid[2],
				     default_grid[1] + (float)(i % 2) * default_grid[3], 0.5f, 1.0f};
		bool ok = get_f32(b0, o0 + 20) == (float)i && get_f32(b0, o0 + 24) == 0.0f &&
			  get_f32(b0, o0 + 28) == 2.0f;
		for (int c = 0; c < 4; c++)
			ok &= get_f32(b0, o0 + 4 * (VkDeviceSize)c) == want_pos[c];
		if (!ok) {
			vkqs_fail(ctx, "point %u: buffer 0 has position (%g, %g, %g, %g), ids (%g, %g, "
				       "%g); expected (%g, %g, 0.5, 1), (%u, 0, 2)",
				  i, get_f32(b0, o0), get_f32(b0, o0 + 4), get_f32(b0, o0 + 8),
				  get_f32(b0, o0 + 12), get_f32(b0, o0 + 20), get_f32(b0, o0 + 24),
				  get_f32(b0, o0 + 28), want_pos[0], want_pos[1], i);
			break;
		}
		expect_untouched(ctx, b0, o0 + 16, o0 + 20, "no output has Offset 16 in buffer 0");
	}
	expect_untouched(ctx, b0, 5 * LAYOUT_STRIDE0, BIG, "only 5 points were captured");
}

/* ========================================================================
 * pgq: VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT
 * ======================================================================== */

/* A primitives generated query around one draw, transform feedback never
 * active and the shader without the Xfb mode (18.8: "whether or not
 * transform feedback is active"). */
static void pgq_counts(struct vkqs_ctx *ctx, const void *param)
{
	const struct count_param *cp = param;
	require_pgq(ctx);
	struct vkqs_target *t = target(ctx);
	const struct vkqs_pipeline *p = simple_pipeline(ctx, t, cp->topology, VS_PLAIN);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, 1, 0);

	VkCommandBuffer cb = begin_pass(ctx, t, p, pool, 1, 0.0f, NULL);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	D->vkCmdDraw(cb, cp->vertices, 1, 0, 0);
	D->vkCmdEndQuery(cb, pool, 0);
	uint64_t g;
	end_pgq_pass(ctx, cb, pool, 1, &g);
	expect_pgq(ctx, "one draw", g, prim_count(cp->topology, cp->vertices));
}

/* Both query types, one of each, for a triangle list of xfb_count.vert
 * captured into a BIG buffer. */
struct both {
	struct vkqs_target *t;
	const struct vkqs_pipeline *p;
	struct vkqs_buffer *b;
	VkQueryPool xq, gq;
};

/* Creates q's objects and begins a command buffer with both queries reset,
 * t's render pass begun, p bound (tag 1) and q->b bound at binding 0 with
 * pSizes[0] = range. */
static VkCommandBuffer begin_both(struct vkqs_ctx *ctx, struct both *q, VkDeviceSize range)
{
	q->t = target(ctx);
	q->p = simple_pipeline(ctx, q->t, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, VS_COUNT);
	q->b = xfb_buffer(ctx, BIG);
	q->xq = vkqs_query_pool(ctx, VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT, 1, 0);
	q->gq = vkqs_query_pool(ctx, VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, 1, 0);

	VkCommandBuffer cb = begin_cb(ctx);
	D->vkCmdResetQueryPool(cb, q->xq, 0, 1);
	D->vkCmdResetQueryPool(cb, q->gq, 0, 1);
	vkqs_target_begin(ctx, cb, q->t, 1.0f);
	bind(ctx, cb, q->p, default_grid, 1.0f);
	bind_xfb(ctx, cb, 0, q->b, 0, range);
	return cb;
}

/* Ends the render pass, submits and waits, and reads both queries. */
static void end_both(struct vkqs_ctx *ctx, VkCommandBuffer cb, struct both *q, uint64_t r[2],
		     uint64_t *g)
{
	vkqs_target_end(ctx, cb);
	finish(ctx, cb, &q->b, 1);
	results(ctx, q->xq, 0, 1, 2, r);
	results(ctx, q->gq, 0, 1, 1, g);
}

/* 18.8: the primitives generated count "is identical to the second
 * integer of the transform feedback queries if transform feedback is
 * active", also when the buffer is too small and the first integer falls
 * behind: both queries around 4 triangles into room for 2. */
static void pgq_xfb_needed(struct vkqs_ctx *ctx, const void *param)
{
	require_xfb_query(ctx);
	require_pgq(ctx);
	struct both q;
	VkCommandBuffer cb = begin_both(ctx, &q, 2 * 3 * COUNT_STRIDE + 20);
	VkQueryPool xq = q.xq, gq = q.gq;
	D->vkCmdBeginTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	D->vkCmdBeginQuery(cb, gq, 0, 0);
	D->vkCmdBeginQuery(cb, xq, 0, 0);
	D->vkCmdDraw(cb, 12, 1, 0, 0);
	D->vkCmdEndQuery(cb, xq, 0);
	D->vkCmdEndQuery(cb, gq, 0);
	D->vkCmdEndTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	uint64_t r[2], g;
	end_both(ctx, cb, &q, r, &g);
	expect_stream(ctx, "4 triangles, room for 2", r, 2, 4);
	expect_pgq(ctx, "4 triangles, room for 2", g, 4);
	VKQS_EXPECTF(ctx, g == r[1],
		     "primitives generated %" PRIu64 " differs from the transform feedback "
		     "query's primitives needed %" PRIu64 " (18.8: \"identical to the second "
		     "integer of the transform feedback queries if transform feedback is active\")",
		     g, r[1]);
}

/* 18.8 counts "whether or not transform feedback is active"; 18.7 only
 * "while transform feedback is active".  Both queries around 3 triangles
 * drawn with transform feedback inactive and 2 with it active. */
static void pgq_xfb_inactive(struct vkqs_ctx *ctx, const void *param)
{
	require_xfb_query(ctx);
	require_pgq(ctx);
	struct both q;
	VkCommandBuffer cb = begin_both(ctx, &q, VK_WHOLE_SIZE);
	VkQueryPool xq = q.xq, gq = q.gq;
	D->vkCmdBeginQuery(cb, gq, 0, 0);
	D->vkCmdBeginQuery(cb, xq, 0, 0);
	D->vkCmdDraw(cb, 9, 1, 0, 0);
	D->vkCmdBeginTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	D->vkCmdDraw(cb, 6, 1, 0, 0);
	D->vkCmdEndTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	D->vkCmdEndQuery(cb, xq, 0);
	D->vkCmdEndQuery(cb, gq, 0);
	uint64_t r[2], g;
	end_both(ctx, cb, &q, r, &g);
	expect_stream(ctx, "3 triangles inactive, 2 active", r, 2, 2);
	expect_pgq(ctx, "3 triangles inactive, 2 active", g, 5);
}

/* With primitivesGeneratedQueryWithRasterizerDiscard the query may be
 * active while rasterizer discard is enabled
 * (VUID-vkCmdDraw-primitivesGeneratedQueryWithRasterizerDiscard-06708),
 * and counts the same: the primitives reach the transform feedback stage
 * before rasterization is discarded. */
static void pgq_rasterizer_discard(struct vkqs_ctx *ctx, const void *param)
{
	require_pgq(ctx);
	vkqs_require_feature(ctx, "VK_EXT_primitives_generated_query."
				  "primitivesGeneratedQueryWithRasterizerDiscard");
	struct vkqs_target *t = target(ctx);
	struct pdesc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, .vs = VS_PLAIN,
			  .discard = true};
	const struct vkqs_pipeline *discard = pipeline(ctx, t, &d);
	d.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
	const struct vkqs_pipeline *lines = pipeline(ctx, t, &d);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, 1, 0);

	VkCommandBuffer cb = begin_cb(ctx);
	D->vkCmdResetQueryPool(cb, pool, 0, 1);
	vkqs_target_begin(ctx, cb, t, 1.0f);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	bind(ctx, cb, discard, default_grid, 0.0f);
	D->vkCmdDraw(cb, 7, 1, 0, 0);
	bind(ctx, cb, lines, default_grid, 0.0f);
	D->vkCmdDraw(cb, 9, 1, 0, 0);
	D->vkCmdEndQuery(cb, pool, 0);
	uint64_t g;
	end_pgq_pass(ctx, cb, pool, 1, &g);
	expect_pgq(ctx, "5 triangles and 4 lines, rasterizer discard", g, 9);
}

/* Clipping and culling come after the transform feedback stage: a query
 * counts triangles culled (cullMode FRONT_AND_BACK) and triangles wholly
 * outside the view volume like any others. */
static void pgq_clipped_culled(struct vkqs_ctx *ctx, const void *param)
{
	require_pgq(ctx);
	static const float outside[4] = {-3.0f, 2.0f, 0.125f, 0.5f};
	struct vkqs_target *t = target(ctx);
	struct pdesc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, .vs = VS_PLAIN,
			  .cull = VK_CULL_MODE_FRONT_AND_BACK};
	const struct vkqs_pipeline *culled = pipeline(ctx, t, &d);
	d.cull = VK_CULL_MODE_NONE;
	const struct vkqs_pipeline *plain = pipeline(ctx, t, &d);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, 2, 0);

	VkCommandBuffer cb = begin_cb(ctx);
	D->vkCmdResetQueryPool(cb, pool, 0, 2);
	vkqs_target_begin(ctx, cb, t, 1.0f);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	bind(ctx, cb, culled, default_grid, 0.0f);
	D->vkCmdDraw(cb, 9, 1, 0, 0);
	D->vkCmdEndQuery(cb, pool, 0);
	D->vkCmdBeginQuery(cb, pool, 1, 0);
	bind(ctx, cb, plain, outside, 0.0f);
	D->vkCmdDraw(cb, 6, 1, 0, 0);
	D->vkCmdEndQuery(cb, pool, 1);
	uint64_t g[2];
	end_pgq_pass(ctx, cb, pool, 2, g);
	expect_pgq(ctx, "3 culled triangles", g[0], 3);
	expect_pgq(ctx, "2 triangles outside the view volume", g[1], 2);
}

/* vkCmdBeginQueryIndexedEXT "index represents the vertex stream": without
 * a geometry shader nothing reaches stream 1, so a query of stream 1 (with
 * primitivesGeneratedQueryWithNonZeroStreams) counts 0 while one of stream
 * 0, active at the same time, counts every triangle. */
static void pgq_nonzero_stream(struct vkqs_ctx *ctx, const void *param)
{
	require_pgq(ctx);
	vkqs_require_feature(ctx, "VK_EXT_primitives_generated_query."
				  "primitivesGeneratedQueryWithNonZeroStreams");
	uint32_t streams = xfb_props(ctx).maxTransformFeedbackStreams;
	if (streams < 2)
		vkqs_skip(ctx, "maxTransformFeedbackStreams is %u: no vertex stream 1", streams);
	struct vkqs_target *t = target(ctx);
	const struct vkqs_pipeline *p =
		simple_pipeline(ctx, t, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN, VS_PLAIN);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, 2, 0);

	VkCommandBuffer cb = begin_pass(ctx, t, p, pool, 2, 0.0f, NULL);
	D->vkCmdBeginQueryIndexedEXT(cb, pool, 0, 0, 0);
	D->vkCmdBeginQueryIndexedEXT(cb, pool, 1, 0, 1);
	D->vkCmdDraw(cb, 7, 1, 0, 0);
	D->vkCmdEndQueryIndexedEXT(cb, pool, 1, 1);
	D->vkCmdEndQueryIndexedEXT(cb, pool, 0, 0);
	uint64_t g[2];
	end_pgq_pass(ctx, cb, pool, 2, g);
	expect_pgq(ctx, "stream 0, 5 triangles", g[0], 5);
	expect_pgq(ctx, "stream 1, nothing emitted to it", g[1], 0);
}

/* 18.8: vkCmdBeginQuery / vkCmdEndQuery query vertex stream zero, the same
 * as vkCmdBeginQueryIndexedEXT / vkCmdEndQueryIndexedEXT with index 0. */
static void pgq_indexed_zero(struct vkqs_ctx *ctx, const void *param)
{
	require_pgq(ctx);
	struct vkqs_target *t = target(ctx);
	const struct vkqs_pipeline *p =
		simple_pipeline(ctx, t, VK_PRIMITIVE_TOPOLOGY_LINE_STRIP, VS_PLAIN);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, 2, 0);

	VkCommandBuffer cb = begin_pass(ctx, t, p, pool, 2, 0.0f, NULL);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	D->vkCmdDraw(cb, 6, 1, 0, 0);
	D->vkCmdEndQuery(cb, pool, 0);
	D->vkCmdBeginQueryIndexedEXT(cb, pool, 1, 0, 0);
	D->vkCmdDraw(cb, 6, 1, 0, 0);
	D->vkCmdEndQueryIndexedEXT(cb, pool, 1, 0);
	uint64_t g[2];
	end_pgq_pass(ctx, cb, pool, 2, g);
	expect_pgq(ctx, "vkCmdBeginQuery, 5 lines", g[0], 5);
	expect_pgq(ctx, "vkCmdBeginQueryIndexedEXT index 0, 5 lines", g[1], 5);
}

/* An instanced indexed strip with primitive restart: 3 triangles per
 * instance (see want_restart), 2 instances. */
static void pgq_indexed_restart(struct vkqs_ctx *ctx, const void *param)
{
	require_pgq(ctx);
	struct vkqs_target *t = target(ctx);
	struct pdesc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, .vs = VS_PLAIN,
			  .restart = true};
	const struct vkqs_pipeline *p = pipeline(ctx, t, &d);
	struct vkqs_buffer *ib = restart_index_buffer(ctx);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, 1, 0);

	VkCommandBuffer cb = begin_pass(ctx, t, p, pool, 1, 0.0f, NULL);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	draw_restart(ctx, cb, ib, 2);
	D->vkCmdEndQuery(cb, pool, 0);
	uint64_t g;
	end_pgq_pass(ctx, cb, pool, 1, &g);
	expect_pgq(ctx, "2 instances of strips of 4, 2 and 3 vertices", g, 6);
}

/* A query begun outside and ended after two render pass instances counts
 * the draws of both. */
static void pgq_across_render_passes(struct vkqs_ctx *ctx, const void *param)
{
	require_pgq(ctx);
	struct vkqs_target *t = target(ctx);
	const struct vkqs_pipeline *p =
		simple_pipeline(ctx, t, VK_PRIMITIVE_TOPOLOGY_POINT_LIST, VS_PLAIN);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, 1, 0);

	VkCommandBuffer cb = begin_cb(ctx);
	D->vkCmdResetQueryPool(cb, pool, 0, 1);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	vkqs_target_begin(ctx, cb, t, 1.0f);
	bind(ctx, cb, p, default_grid, 0.0f);
	D->vkCmdDraw(cb, 7, 1, 0, 0);
	vkqs_target_end(ctx, cb);
	vkqs_target_begin(ctx, cb, t, 1.0f);
	bind(ctx, cb, p, default_grid, 0.0f);
	D->vkCmdDraw(cb, 4, 2, 0, 0);
	vkqs_target_end(ctx, cb);
	D->vkCmdEndQuery(cb, pool, 0);
	finish(ctx, cb, NULL, 0);

	uint64_t g;
	results(ctx, pool, 0, 1, 1, &g);
	expect_pgq(ctx, "7 + 2 x 4 points in two render pass instances", g, 15);
}

/* 18.2: "Queries active in a primary command buffer when secondary command
 * buffers are executed are considered active for those secondary command
 * buffers" (with inheritedQueries): the draws of a secondary count. */
static void pgq_secondary(struct vkqs_ctx *ctx, const void *param)
{
	require_pgq(ctx);
	vkqs_require_feature(ctx, "inheritedQueries");
	struct vkqs_target *t = target(ctx);
	const struct vkqs_pipeline *p =
		simple_pipeline(ctx, t, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, VS_PLAIN);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, 1, 0);

	VkCommandBuffer sec = vkqs_cmd_begin_secondary(ctx, &ctx->vk->gfx, t,
						       VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
						       NULL);
	bind(ctx, sec, p, default_grid, 0.0f);
	D->vkCmdDraw(sec, 9, 1, 0, 0);
	vkqs_cmd_end(ctx, sec);

	VkCommandBuffer cb = begin_cb(ctx);
	D->vkCmdResetQueryPool(cb, pool, 0, 1);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	vkqs_target_begin_ex(ctx, cb, t, 1.0f, 0, VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
	D->vkCmdExecuteCommands(cb, 1, &sec);
	vkqs_target_end(ctx, cb);
	D->vkCmdEndQuery(cb, pool, 0);
	finish(ctx, cb, NULL, 0);

	uint64_t g;
	results(ctx, pool, 0, 1, 1, &g);
	expect_pgq(ctx, "3 triangles in a secondary command buffer", g, 3);
}

/* ========================================================================
 * results: the layout of both query types' results (spec 18.2)
 * ======================================================================== */

static const struct result_param {
	bool pgq;
	bool is64;
	bool copy;
} result_params[] = {
	{false, false, false}, {false, true, false}, {false, false, true}, {false, true, true},
	{true, false, false},  {true, true, false},  {true, false, true},  {true, true, true},
};

static void result_param_name(const void *p, char *buf, size_t size)
{
	const struct result_param *r = p;
	snprintf(buf, size, "%s_%s_%s", r->pgq ? "pgq" : "stream", r->is64 ? "64" : "32",
		 r->copy ? "copy" : "get");
}

#define GUARD 8u

/* The results of query 0 (4 triangles into room for 2, so the two
 * integers of a transform feedback query differ) and query 1 (reset,
 * never begun) of a pool of rp's type, read with WITH_AVAILABILITY at a
 * stride with GUARD spare bytes: query 0 with WAIT, query 1 without.
 * Returns the bytes read (2 strides); *nv_out, *w_out, *stride_out. */
static const uint8_t *results_read(struct vkqs_ctx *ctx, const struct result_param *rp,
				   uint8_t *host, uint32_t *nv_out, uint32_t *w_out,
				   VkDeviceSize *stride_out)
{
	require_xfb_query(ctx);
	if (rp->pgq)
		require_pgq(ctx);
	const uint32_t nv = rp->pgq ? 1 : 2, w = rp->is64 ? 8 : 4;
	const VkDeviceSize stride = (nv + 1) * w + GUARD;
	const VkQueryType type = rp->pgq ? VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT
					 : VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT;
	*nv_out = nv;
	*w_out = w;
	*stride_out = stride;
	struct vkqs_target *t = target(ctx);
	const struct vkqs_pipeline *p =
		simple_pipeline(ctx, t, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, VS_COUNT);
	struct vkqs_buffer *b = xfb_buffer(ctx, BIG);
	VkQueryPool pool = vkqs_query_pool(ctx, type, 2, 0);
	struct vkqs_buffer *dst =
		rp->copy ? xfb_buffer(ctx, 2 * stride) : NULL; /* SENTINEL-filled */
	VkQueryResultFlags flags = VK_QUERY_RESULT_WITH_AVAILABILITY_BIT |
				   (rp->is64 ? VK_QUERY_RESULT_64_BIT : 0);

	VkCommandBuffer cb = begin_cb(ctx);
	D->vkCmdResetQueryPool(cb, pool, 0, 2);
	vkqs_target_begin(ctx, cb, t, 1.0f);
	bind(ctx, cb, p, default_grid, 1.0f);
	bind_xfb(ctx, cb, 0, b, 0, 2 * 3 * COUNT_STRIDE);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	D->vkCmdBeginTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	D->vkCmdDraw(cb, 12, 1, 0, 0);
	D->vkCmdEndTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	D->vkCmdEndQuery(cb, pool, 0);
	vkqs_target_end(ctx, cb);
	if (rp->copy) {
		D->vkCmdCopyQueryPoolResults(cb, pool, 0, 1, dst->buf, 0, stride,
					     flags | VK_QUERY_RESULT_WAIT_BIT);
		D->vkCmdCopyQueryPoolResults(cb, pool, 1, 1, dst->buf, stride, stride, flags);
	}
	struct vkqs_buffer *bufs[2] = {b, dst};
	finish(ctx, cb, bufs, rp->copy ? 2 : 1);
	if (rp->copy)
		return dst->map;
	memset(host, SENTINEL, 2 * (size_t)stride);
	VKQS_EXPECT_VK(ctx,
		       D->vkGetQueryPoolResults(DEV, pool, 0, 1, (size_t)stride, host, stride,
						flags | VK_QUERY_RESULT_WAIT_BIT),
		       VK_SUCCESS);
	vkqs_expect_not_ready(ctx,
			      D->vkGetQueryPoolResults(DEV, pool, 1, 1, (size_t)stride,
						       host + stride, stride, flags),
			      "the unavailable query");
	return host;
}

#define RESULTS_HOST (2 * ((2 + 1) * 8 + GUARD))

/* 18.2: "Transform feedback queries write two integers; the first integer
 * is the number of primitives successfully written ... and the second is
 * the number of primitives output to the vertex stream"; "Primitives
 * generated queries write the number of primitives output to the vertex
 * stream"; each 32 or 64 bits, then the availability word, and nothing
 * else up to the next stride. */
static void results_layout(struct vkqs_ctx *ctx, const void *param)
{
	const struct result_param *rp = param;
	uint8_t host[RESULTS_HOST];
	uint32_t nv, w;
	VkDeviceSize stride;
	const uint8_t *out = results_read(ctx, rp, host, &nv, &w, &stride);
	const uint64_t want[2] = {rp->pgq ? 4 : 2, 4};
	for (uint32_t k = 0; k < nv; k++) {
		uint64_t v = 0;
		memcpy(&v, out + (size_t)k * w, w);
		VKQS_EXPECTF(ctx, v == want[k],
			     "%u-bit value %u = %" PRIu64 ", expected %" PRIu64 " (%s; 18.2 layout)",
			     w * 8, k, v, want[k],
			     rp->pgq ? "primitives generated"
				     : k == 0 ? "primitives written" : "primitives needed");
	}
	uint64_t avail = 0;
	memcpy(&avail, out + (size_t)nv * w, w);
	VKQS_EXPECTF(ctx, avail != 0, "availability word 0 after WAIT (18.2)");
	for (VkDeviceSize i = (nv + 1) * w; i < stride; i++)
		if (!VKQS_EXPECTF(ctx, out[i] == SENTINEL,
				  "byte %llu, after the availability word, written (0x%02x)",
				  (unsigned long long)i, out[i]))
			break;
}

/* The unavailable query 1 of results_read, without WAIT or PARTIAL: its
 * availability word is 0, and nothing after it up to the next stride is
 * written (18.2 layout).  vkGetQueryPoolResults writes no values for it
 * ("If VK_QUERY_RESULT_WAIT_BIT and VK_QUERY_RESULT_PARTIAL_BIT are both
 * not set then no result values are written to pData for queries that are
 * in the unavailable state"); vkCmdCopyQueryPoolResults with
 * WITH_AVAILABILITY copies "results for all queries", undefined ones
 * included, so its value words are not checked. */
static void results_unavailable(struct vkqs_ctx *ctx, const void *param)
{
	const struct result_param *rp = param;
	uint8_t host[RESULTS_HOST];
	uint32_t nv, w;
	VkDeviceSize stride;
	const uint8_t *out = results_read(ctx, rp, host, &nv, &w, &stride) + stride;
	if (!rp->copy)
		vkqs_expect_unwritten(ctx, out, (size_t)nv * w, SENTINEL, "the unavailable query");
	uint64_t avail = 0;
	memcpy(&avail, out + (size_t)nv * w, w);
	VKQS_EXPECTF(ctx, avail == 0, "availability word %" PRIu64 ", expected 0", avail);
	for (VkDeviceSize i = (nv + 1) * w; i < stride; i++)
		if (!VKQS_EXPECTF(ctx, out[i] == SENTINEL,
				  "byte %llu, after the availability word, written (0x%02x)",
				  (unsigned long long)i, out[i]))
			break;
}

/* ======================================================================== */

static const struct vkqs_case cases[] = {
	{"stream.counts", stream_counts,
	 "18.7 primitives written and needed; \"Transform Feedback\": strips and fans "
	 "recorded separately, incomplete primitives not recorded",
	 VKQS_PARAMS(count_params, count_param_name)},
	{"stream.overflow", stream_overflow,
	 "18.2 \"the first integer represents the number of primitives actually written and the "
	 "second is the number that would have been written if all the transform feedback "
	 "buffers ... were large enough\"; \"Transform Feedback\": a primitive that does not "
	 "fit is not recorded; counter = bytes written",
	 VKQS_PARAMS(overflow_params, overflow_param_name)},
	{"stream.only_while_active", stream_only_while_active,
	 "18.7 \"updated during drawing commands while transform feedback is active\""},
	{"stream.multiple_queries", stream_multiple_queries,
	 "18.7 \"When a transform feedback query begins, the count ... starts from zero\""},
	{"stream.indexed_zero", stream_indexed_zero,
	 "18.2 vkCmdBeginQuery equivalent to vkCmdBeginQueryIndexedEXT with index 0"},
	{"stream.nonzero_stream", stream_nonzero_stream,
	 "18.7 counts by the vertex stream; vkCmdBeginQueryIndexedEXT index is the stream"},
	{"stream.resume_counter", stream_resume_counter,
	 "vkCmdEndTransformFeedbackEXT counter: byte offset from the binding start; "
	 "vkCmdBeginTransformFeedbackEXT counter resumes appending"},
	{"stream.instanced", stream_instanced,
	 "18.7 counts every instance's primitives, captured in order"},
	{"stream.indexed_restart", stream_indexed_restart,
	 "\"Transform Feedback\": strips extracted separately, incomplete primitives not "
	 "recorded (primitive restart)"},
	{"stream.after", stream_after,
	 "\"Transform Feedback\" happens before any other vertex post-processing: discard, "
	 "clipping and degenerate primitives change no count",
	 VKQS_PARAMS(after_params, after_param_name)},
	{"stream.omit_write", stream_omit_write,
	 "18.7 counts primitives captured even when a captured output is never written"},
	{"capture.layout", capture_layout,
	 "\"Transform Feedback\": outputs at Offset in XfbBuffer, XfbStride per vertex, other "
	 "bytes of the stride unmodified"},
	{"capture.unbound_buffer", capture_unbound_buffer,
	 "\"Transform Feedback\": outputs to an XfbBuffer that is not bound are ignored"},
	{"pgq.counts", pgq_counts,
	 "18.2 \"Primitives generated queries write the number of primitives output to the "
	 "vertex stream, regardless of whether transform feedback is active or not\"",
	 VKQS_PARAMS(count_params, count_param_name)},
	{"pgq.xfb_needed", pgq_xfb_needed,
	 "18.2 PGQ \"identical to the second integer of the transform feedback queries if "
	 "transform feedback is active\""},
	{"pgq.xfb_inactive", pgq_xfb_inactive,
	 "18.8 \"whether or not transform feedback is active\" vs 18.7 \"while transform "
	 "feedback is active\""},
	{"pgq.rasterizer_discard", pgq_rasterizer_discard,
	 "18.8 with primitivesGeneratedQueryWithRasterizerDiscard: counted before discard"},
	{"pgq.clipped_culled", pgq_clipped_culled,
	 "18.8 counted when reaching the transform feedback stage, before clipping and culling"},
	{"pgq.nonzero_stream", pgq_nonzero_stream,
	 "18.8 per vertex stream (primitivesGeneratedQueryWithNonZeroStreams)"},
	{"pgq.indexed_zero", pgq_indexed_zero,
	 "18.8 vkCmdBeginQuery queries vertex stream zero, as vkCmdBeginQueryIndexedEXT index 0"},
	{"pgq.indexed_restart", pgq_indexed_restart,
	 "18.8 instanced indexed strips with primitive restart"},
	{"pgq.across_render_passes", pgq_across_render_passes,
	 "18.8 a query spanning two render pass instances"},
	{"pgq.secondary", pgq_secondary,
	 "18.2 queries active in a primary are active for executed secondaries"},
	{"results.layout", results_layout,
	 "18.2 \"Transform feedback queries write two integers; the first integer is the number "
	 "of primitives successfully written\"; \"Primitives generated queries write the number "
	 "of primitives output to the vertex stream\"; 32/64-bit, availability, get and copy",
	 VKQS_PARAMS(result_params, result_param_name)},
	{"results.unavailable", results_unavailable,
	 "18.2 unavailable query without WAIT/PARTIAL: availability 0, no values (get), "
	 "nothing past the availability word",
	 VKQS_PARAMS(result_params, result_param_name)},
};
VKQS_AREA(xfb, cases);
