/* Occlusion area: the target, pool and submission every group records into, the
 * pipelines for rectangles, points, lines and triangles, the coverage oracle, and the
 * spec sentences the groups cite. Each group is one file of this folder; occlusion.c
 * lists them in order. */
#ifndef VKQS_SUITE_OCCLUSION_H
#define VKQS_SUITE_OCCLUSION_H

#include <math.h>
#include <stdio.h>

#include "vkutil.h"
#include "shaders/discard_odd_columns_early_frag.h"
#include "shaders/discard_odd_columns_frag.h"
#include "shaders/occlusion_color_frag.h"
#include "shaders/occlusion_discard_all_frag.h"
#include "shaders/occlusion_prims_vert.h"
#include "shaders/occlusion_samplemask_frag.h"

#define D (VKQS_D(ctx))

#define DEV (VKQS_DEV(ctx))

/* Every target is FB x FB pixels. */
#define FB 64u

/* Cases that do not vary the sample count use 4: a driver that counts
 * pixels instead of samples is then off by a factor of 4, and 4 is in the
 * required framebufferColor/DepthSampleCounts (spec "Limit Requirements"). */
#define FIXED_SAMPLES VK_SAMPLE_COUNT_4_BIT

#define MAX_QUERIES 4u

struct rect {
	uint32_t x, y, w, h;
};

uint64_t occ_area(struct rect r);

uint32_t occ_max_u32(uint32_t a, uint32_t b);

uint32_t occ_min_u32(uint32_t a, uint32_t b);

struct rect occ_intersect(struct rect a, struct rect b);

/* One submission: a target, a pool whose queries are reset at the start of
 * the command buffer (18.2: reset before use, outside a render pass). */
struct occ {
	struct vkqs_target *t;
	VkQueryPool pool;
	VkCommandBuffer cb;
	uint32_t queries;
};

/* On a target made by the caller (vkqs_target_create, stencil_target). */
struct occ occ_begin_on(struct vkqs_ctx *ctx, struct vkqs_target *t,
			       uint32_t queries);

struct occ occ_begin(struct vkqs_ctx *ctx, VkSampleCountFlagBits samples,
			    bool depth, uint32_t queries);

/* Submits, waits for the fence, reads every query with 64_BIT | WAIT. */
void occ_finish(struct vkqs_ctx *ctx, const struct occ *o,
		       uint64_t out[MAX_QUERIES]);

void occ_draw(struct vkqs_ctx *ctx, const struct occ *o,
		 const struct vkqs_pipeline *p, struct rect r, float z);

/* Query `query` around one draw, inside the current subpass. */
void occ_query_draw(struct vkqs_ctx *ctx, const struct occ *o, uint32_t query,
		       VkQueryControlFlags flags, const struct vkqs_pipeline *p,
		       struct rect r, float z);

/* One render pass instance holding query 0 around one draw of r (clipped
 * by scissor when given); returns the query's result. */
uint64_t occ_measure_rect(struct vkqs_ctx *ctx, const struct occ *o,
			     const struct vkqs_pipeline *p, struct rect r,
			     const struct rect *scissor, VkQueryControlFlags flags);

const struct vkqs_pipeline *occ_plain_pipeline(struct vkqs_ctx *ctx,
						  const struct occ *o);

const struct vkqs_pipeline *occ_depth_pipeline(struct vkqs_ctx *ctx,
						  const struct occ *o,
						  VkCompareOp op, bool write);

/* The control flag of a precise query; NotSupported without the feature
 * (vkCmdBeginQuery valid usage forbids the bit without occlusionQueryPrecise). */
VkQueryControlFlags occ_require_precise(struct vkqs_ctx *ctx);

/* 18.2: "Rendering operations such as clears, MSAA resolves, attachment
 * load/store operations, and blits may count towards the results of
 * queries.  This behavior is implementation-dependent."  Such work can only
 * add passing samples, so a precise result is at least the draws' exact
 * count; more, up to what the `ops` in-scope operations can add
 * (occ_ops_ceiling), is legal but not portable (CompatibilityWarning).
 * Above that ceiling the result matches no count of samples the query saw:
 * 18.3 "an implementation must return a result that matches the actual
 * number of samples passed" makes it a Fail. */
void occ_expect_draws_plus_clears(struct vkqs_ctx *ctx, const struct occ *o, uint64_t got,
				  uint64_t draws, unsigned ops, const char *extra);
/* The most that `ops` operations other than draws (a clear, a load or
 * store operation of one attachment, a resolve, a blit or copy) can add:
 * each touches at most the whole target (width x height pixels) of each of
 * its attachments (colour, depth/stencil, a resolve) at its sample count. */
uint64_t occ_ops_ceiling(const struct occ *o, unsigned ops);

static const VkSampleCountFlagBits sample_params[] = {
	VK_SAMPLE_COUNT_1_BIT,
	VK_SAMPLE_COUNT_4_BIT,
};

void occ_samples_name(const void *param, char *buf, size_t size);

/* Measured draw of the clear cases. */
static const struct rect clear_draw = {12, 20, 28, 14};

/* The target's images start each submission UNDEFINED (the render pass
 * only ever reads them after its own CLEAR load op), so their contents may
 * be discarded; the render pass's external dependency (all commands, memory
 * writes) orders the clear before the instance. */
void occ_to_transfer_dst(struct vkqs_ctx *ctx, VkCommandBuffer cb, VkImage img,
			    VkImageAspectFlags aspect);

/* ========================================================================
 * Own objects: pipelines for points, lines and triangles with stencil,
 * sample masks and culling; render targets with a stencil aspect.
 * Everything is destroyed at case end.
 * ======================================================================== */

/* The push block of occlusion_prims.vert (bytes 0..39) followed by that of
 * occlusion_samplemask.frag (byte 48); one range serves both stages. */
struct prim_push {
	float v01[4];      /* v0.xy, v1.xy in framebuffer pixels */
	float v2_fb[4];    /* v2.xy, framebuffer width, height */
	float z, point_size;
	float pad0[2];
	uint32_t mask;     /* the SampleMask output */
	uint32_t pad1[3];
};

_Static_assert(sizeof(struct prim_push) == 64, "occlusion_prims.vert push block");

enum frag_kind {
	FRAG_COLOR,
	FRAG_SAMPLE_MASK,          /* writes SampleMask = prim_push.mask */
	FRAG_DISCARD_ALL,
	FRAG_DISCARD_ODD_COLUMNS,
};

struct prim_desc {
	VkPrimitiveTopology topology;
	float line_width;                 /* 0: 1.0 */
	enum frag_kind frag;
	const VkSampleMask *sample_mask;  /* NULL: all ones */
	VkCullModeFlags cull;             /* front face: counter-clockwise */
	bool depth_test, depth_write;
	VkCompareOp depth_op;
	bool stencil_test;
	VkStencilOpState stencil;         /* both faces */
};

/* A pipeline of occlusion_prims.vert on target t's render pass (subpass 0,
 * t's sample count); viewport and scissor are dynamic. */
const struct vkqs_pipeline *occ_prim_pipeline(struct vkqs_ctx *ctx,
						 const struct vkqs_target *t,
						 const struct prim_desc *d);

const struct vkqs_pipeline *occ_prim_pipeline_simple(struct vkqs_ctx *ctx,
							const struct vkqs_target *t,
							VkPrimitiveTopology topology);

/* One draw of `count` (1..3) vertices v[] (framebuffer pixels) at depth z:
 * up to three points, one line, a two-segment strip or one triangle. */
void occ_prim_draw(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_pipeline *p,
		      const float (*v)[2], uint32_t count, float z, float point_size,
		      uint32_t mask);

/* The rectangle r as the two triangles of vkqs_draw_rect (same shared
 * diagonal), through a prim_pipeline. */
void occ_prim_rect(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_pipeline *p,
		      struct rect r, float z, uint32_t mask);

/* Query `query` around prim_rect of r at depth 0.5, inside the current
 * subpass. */
void occ_query_prim_rect(struct vkqs_ctx *ctx, const struct occ *o, uint32_t query,
			    VkQueryControlFlags flags, const struct vkqs_pipeline *p,
			    struct rect r);

void occ_set_scissor(struct vkqs_ctx *ctx, VkCommandBuffer cb, struct rect r);

/* ========================================================================
 * The coverage oracle: which samples a polygon covers, by the spec's rule.
 *
 * Spec "Basic Polygon Rasterization": "Fragments are produced for any
 * fragment area groups of pixels for which any sample points lie inside of
 * this polygon.  Coverage bits that correspond to sample points that
 * satisfy the point sampling criteria are 1"; a sample exactly on an edge
 * shared by two polygons is covered by exactly one of them.  The polygon is
 * the one of the vertices' framebuffer coordinates, which the device holds
 * with limits.subPixelPrecisionBits ("the number of bits of subpixel
 * precision in framebuffer coordinates xf and yf").  So the test evaluates
 * the edge functions E(P) = cross(B - A, P - A) at every standard sample
 * location P and allows for how far the device's vertices may lie from
 * the ones it computes:
 *
 * - a vertex coordinate that is a multiple of 2^-subPixelPrecisionBits
 *   (and has few bits, as all of ours do) goes through occlusion_prims.vert
 *   (p / 64 * 2 - 1) and the viewport transform back without rounding and
 *   is on the sub-pixel grid: that vertex is occ_exact (r = 0);
 * - any other vertex may move by up to 2^-bits per coordinate when snapped
 *   (rounding or truncation), plus the float rounding of those few
 *   operations on values below 64 (at most 4 * 64 * 2^-24 = 2^-16 px), so
 *   by r = sqrt(2) * (2^-bits + 2^-16) in distance.
 *
 * With A and B moved by at most rA and rB, |E'(P) - E(P)| <= |B - A| rA +
 * (rA + rB) |P - A| + (rA + rB) rA (expand cross(B' - A', P - A')).  A
 * sample whose E is beyond that bound on the outside of some edge is
 * certainly not covered; one beyond it on the inside of every edge is
 * certainly covered; any other (including one exactly on an edge of an
 * exact polygon, which the tie rule may give either way) is ambiguous.  A
 * precise count must lie in [certain, certain + ambiguous].
 * ======================================================================== */

/* Spec "Multisampling", standard sample locations (offsets in the pixel). */
static const double std_locations_1[1][2] = {{0.5, 0.5}};

static const double std_locations_4[4][2] = {
	{0.375, 0.125}, {0.875, 0.375}, {0.125, 0.625}, {0.625, 0.875}};

/* A count known to lie in [lo, hi]. */
struct window {
	uint64_t lo, hi;
};

struct window occ_exact(uint64_t n);

/* How far a vertex may lie from (x, y), see above. */
double occ_vertex_slack(const struct vkqs_ctx *ctx, float x, float y);

/* The samples of the pixels in `clip` (and only the even columns when
 * even_columns) covered by the convex polygon v[0..n). */
struct window occ_polygon_window(const struct vkqs_ctx *ctx, const float (*v)[2], uint32_t n,
				    uint32_t samples, struct rect clip, bool even_columns);

static const struct rect whole_fb = {0, 0, FB, FB};

bool occ_expect_window(struct vkqs_ctx *ctx, uint64_t got, struct window w,
			  const char *what);

/* The count of `segments` segments of total length `len` pixels and width
 * `rows`, as argued above. */
struct window occ_line_window(const struct vkqs_ctx *ctx, uint64_t len, uint64_t rows,
				 uint64_t segments, uint32_t samples);

enum shape { SHAPE_SLANTED, SHAPE_SLIVER, SHAPE_FAN, SHAPE_SAMPLE_STRIPS };

static const float slanted_tri[3][2] = {{6.3f, 10.7f}, {57.9f, 20.2f}, {21.6f, 55.4f}};

/* About 80 px long and 2 px wide: most samples lie near an edge. */
static const float sliver_tri[3][2] = {{3.2f, 60.1f}, {61.7f, 4.9f}, {62.4f, 7.3f}};

/* Eight triangles fanned from C = (32.5, 32.25) to consecutive points of
 * the boundary of [8, 56] x [8.25, 56.25].  Every vertex is on the 1/4
 * pixel grid (exact), no sample lies on the outer edges, so the union's
 * count is exact.  The inner edges carry samples: those to (32.5, 8.25)
 * and (32.5, 56.25) run along x = 32.5 through pixel centres, those to
 * (24.5, 8.25) and (40.5, 56.25) run along (1, 3) through the standard
 * location (0.875, 0.375) of a pixel every step; C is no sample location.
 * Each such sample is on an edge shared by two triangles "with identical
 * endpoints" and must be covered by exactly one of them. */
static const float fan_center[2] = {32.5f, 32.25f};

static const float fan_ring[8][2] = {
	{8, 8.25f},     {24.5f, 8.25f},  {32.5f, 8.25f}, {56, 8.25f},
	{56, 56.25f},   {40.5f, 56.25f}, {32.5f, 56.25f}, {8, 56.25f},
};

static const float fan_hull[4][2] = {{8, 8.25f}, {56, 8.25f}, {56, 56.25f}, {8, 56.25f}};

/* Four thin quadrilaterals on the 1/16 pixel grid (exact at the minimum
 * subPixelPrecisionBits of 4), each between standard sample locations so
 * that it holds one kind of sample only: [8, 56] x [10.25, 10.4375] the
 * row y = 0.375 (sample 1 of 4), [8, 56] x [12.5625, 12.6875] the row
 * y = 0.625 (sample 2), [30.8125, 30.9375] x [16, 48] the column x = 0.875
 * (sample 1), and the band -39.9375 <= x - 2y <= -39.8125 for 20 <= y <= 50
 * the samples with x - 2y = 0.125 (mod 1), samples 0 and 1 of one pixel per
 * row (the transposed pattern has none there).  No pixel centre is inside:
 * 0 at 1 sample, 48 + 48 + 32 + 60 at 4; a device sampling elsewhere than
 * the standard locations differs. */
static const float strips[4][4][2] = {
	{{8, 10.25f}, {56, 10.25f}, {56, 10.4375f}, {8, 10.4375f}},
	{{8, 12.5625f}, {56, 12.5625f}, {56, 12.6875f}, {8, 12.6875f}},
	{{30.8125f, 16}, {30.9375f, 16}, {30.9375f, 48}, {30.8125f, 48}},
	{{0.0625f, 20}, {0.1875f, 20}, {60.1875f, 50}, {60.0625f, 50}},
};

/* Draws shape s with pipeline p; returns its samples' window within the
 * pixels of `clip` (even columns only when even_columns). */
struct window occ_shape_draw(struct vkqs_ctx *ctx, VkCommandBuffer cb,
				const struct vkqs_pipeline *p, enum shape s, float z,
				uint32_t samples, struct rect clip, bool even_columns);

#define PRECISE_PARAMS_COUNT 2
extern const bool precise_params[PRECISE_PARAMS_COUNT];

void occ_precise_name(const void *param, char *buf, size_t size);

/* Spec "Sample Mask Test": "If the bit is 0, coverage for the sample is
 * set to 0"; spec "Multisample Coverage": the SampleMask output is ANDed
 * with the coverage (bits of samples that do not exist have no coverage to
 * keep).  "Sample Counting" names the sample mask among the tests a
 * counted sample survives.  A whole-pixel rectangle then counts
 * area * occ_popcount(mask & (2^samples - 1)). */
struct mask_param {
	VkSampleCountFlagBits samples;
	uint32_t pipeline_mask;   /* VkPipelineMultisampleStateCreateInfo::pSampleMask */
	bool shader;              /* SampleMask output of occlusion_samplemask.frag */
	uint32_t shader_mask;
};

unsigned occ_popcount(uint32_t v);

void occ_sample_mask(struct vkqs_ctx *ctx, const void *param);

#define PRECISE_SPEC \
	"18.2: with VK_QUERY_CONTROL_PRECISE_BIT an implementation must return a result " \
	"that matches the actual number of samples passed"

#define SAMPLE_COUNTING_SPEC \
	"Sample Counting: the occlusion query sample counter increments by one for " \
	"each sample with a coverage value of 1 in each fragment that survives all " \
	"the per-fragment tests"

#define CLEARS_SPEC \
	"18.2: clears, MSAA resolves, attachment load/store operations and blits may count " \
	"towards the results of queries (implementation-dependent): a precise result is " \
	"at least the draws' exact count; more is CompatibilityWarning"

#endif
