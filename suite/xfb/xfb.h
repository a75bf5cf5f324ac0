/* Transform feedback and primitives generated area: the extension checks, the
 * pipelines and capture buffers, the guarded readback and the expectations the groups
 * share. Each group is one file of this folder; xfb.c lists them in order. */
#ifndef VKQS_SUITE_XFB_H
#define VKQS_SUITE_XFB_H

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

static const char *const ext_xfb = "VK_EXT_transform_feedback.transformFeedback";

static const char *const ext_pgq = "VK_EXT_primitives_generated_query.primitivesGeneratedQuery";

VkPhysicalDeviceTransformFeedbackPropertiesEXT xfb_props(struct vkqs_ctx *ctx);

/* Transform feedback, and the transform feedback query type
 * (VUID-vkCmdBeginQuery-queryType-02328: transformFeedbackQueries). */
void xfb_require_xfb_query(struct vkqs_ctx *ctx);

void xfb_require_pgq(struct vkqs_ctx *ctx);

/* What xfb_streams.geom needs: geometryShader, geometryStreams,
 * shaderTessellationAndGeometryPointSize (it writes PointSize), and 2
 * streams and 2 buffers (maxTransformFeedbackStreams/Buffers). */
void xfb_require_streams_geom(struct vkqs_ctx *ctx);

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

const struct topo *xfb_topo_of(VkPrimitiveTopology t);

/* Primitives of n vertices ("Primitive Topologies"; incomplete ones none). */
uint32_t xfb_prim_count(VkPrimitiveTopology t, uint32_t n);

/* Vertex j of primitive i, in the spec's order: triangle strip i is
 * (i, i + (1 + i % 2), i + (2 - i % 2)), triangle fan i is (i + 1, i + 2, 0). */
uint32_t xfb_prim_vertex(VkPrimitiveTopology t, uint32_t i, uint32_t j);

/* Whether got[0..k) is a rotation of want[0..k) (the first vertex written
 * may be any of the primitive's, the rest follow in winding order). */
bool xfb_rotation_of(const uint32_t *got, const uint32_t *want, uint32_t k);

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
	bool no_color_writes;      /* colorWriteMask 0 */
	bool dynamic_color_write;  /* VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT */
	bool empty_fs;             /* empty.frag: no outputs, no side effects */
	const uint32_t *geom;      /* a geometry shader, or NULL */
	size_t geom_size;
	bool tess;                 /* stats_triangle.tesc/.tese on 3-point patches */
	bool tess_xfb;             /* with xfb_triangle.tese, which captures */
};

/* A pipeline on target t's render pass, subpass 0, with the solid-colour
 * fragment shader; viewport and scissor are dynamic (vkqs_target_begin
 * sets them). */
const struct vkqs_pipeline *xfb_pipeline(struct vkqs_ctx *ctx, const struct vkqs_target *t,
					    const struct pdesc *d);

const struct vkqs_pipeline *xfb_simple_pipeline(struct vkqs_ctx *ctx,
						   const struct vkqs_target *t,
						   VkPrimitiveTopology topology, enum vs_kind vs);

struct vkqs_target *xfb_target(struct vkqs_ctx *ctx);

/* Binds p and pushes the grid and tag (the pipeline must be bound before
 * transform feedback begins: VUID-vkCmdBindPipeline-None-02323). */
void xfb_bind(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_pipeline *p,
		 const float grid[4], float tag);

/* A host-visible buffer usable for transform feedback data and counters,
 * every byte SENTINEL. */
struct vkqs_buffer *xfb_buffer(struct vkqs_ctx *ctx, VkDeviceSize size);

void xfb_bind_xfb(struct vkqs_ctx *ctx, VkCommandBuffer cb, uint32_t binding,
		     const struct vkqs_buffer *b, VkDeviceSize offset, VkDeviceSize size);

/* Transform feedback and counter writes, then transfers, made visible to
 * the host (transform feedback writes happen in TRANSFORM_FEEDBACK_BIT_EXT,
 * counter writes too; copies of query results in TRANSFER). */
void xfb_to_host_barrier(struct vkqs_ctx *ctx, VkCommandBuffer cb);

uint32_t xfb_get_u32(const struct vkqs_buffer *b, VkDeviceSize off);

/* Every byte of [from, to) of buffer `name` still SENTINEL. */
void xfb_expect_untouched_in(struct vkqs_ctx *ctx, const struct vkqs_buffer *b,
				const char *name, VkDeviceSize from, VkDeviceSize to,
				const char *why);

void xfb_expect_untouched(struct vkqs_ctx *ctx, const struct vkqs_buffer *b,
			     VkDeviceSize from, VkDeviceSize to, const char *why);

VkCommandBuffer xfb_begin_cb(struct vkqs_ctx *ctx);

void xfb_finish(struct vkqs_ctx *ctx, VkCommandBuffer cb, struct vkqs_buffer *const *bufs,
		   uint32_t nbufs);

/* Queries [first, first + count) of a pool of `values` values per query,
 * 64-bit with WAIT, into out (count * values). */
void xfb_results(struct vkqs_ctx *ctx, VkQueryPool pool, uint32_t first, uint32_t count,
		    uint32_t values, uint64_t *out);

void xfb_expect_stream(struct vkqs_ctx *ctx, const char *what, const uint64_t r[2],
			  uint64_t written, uint64_t needed);

void xfb_expect_pgq(struct vkqs_ctx *ctx, const char *what, uint64_t got, uint64_t want);

struct rec {
	float vertex, instance, tag, one;
};

/* A captured float that should hold a small non-negative integer, as an
 * integer; UINT32_MAX when it does not (never an out-of-range cast). */
uint32_t xfb_small_int(float f);

/* The restart-separated strips of an indexed draw. */
#define RESTART_INDICES_COUNT 11
extern const uint16_t restart_indices[RESTART_INDICES_COUNT];

#define RESTART_VERTEX_OFFSET 10

struct vkqs_buffer *xfb_restart_index_buffer(struct vkqs_ctx *ctx);

void xfb_draw_restart(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_buffer *ib,
			 uint32_t instances);

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
void xfb_run_once(struct vkqs_ctx *ctx, const struct once *o, struct once_out *out);

/* Resets queries [0, nq) of pool, begins t's render pass and binds p with
 * the default grid and `tag`, and b (if any) whole at binding 0. */
VkCommandBuffer xfb_begin_pass(struct vkqs_ctx *ctx, const struct vkqs_target *t,
				  const struct vkqs_pipeline *p, VkQueryPool pool, uint32_t nq,
				  float tag, const struct vkqs_buffer *b);

struct count_param {
	VkPrimitiveTopology topology;
	uint32_t vertices;
};

void xfb_count_param_name(const void *p, char *buf, size_t size);

/* Vertex counts with an incomplete primitive at the end where the topology
 * can have one, and draws too short for any primitive. */
#define COUNT_PARAMS_COUNT 9
extern const struct count_param count_params[COUNT_PARAMS_COUNT];

#endif
