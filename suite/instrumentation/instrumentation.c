/* Shader instrumentation (VK_ARM_shader_instrumentation; Vulkan-Docs
 * 1.4.360, the extension's appendix and vk.xml).
 *
 * What the extension fixes:
 * - metric descriptions enumerate with VK_INCOMPLETE; numMetrics >= 1;
 * - vkGetShaderInstrumentationValuesARM writes "a tightly packed array of
 *   metric blocks, where each block consists of a VkShaderInstrumentation-
 *   MetricDataHeaderARM header followed by numMetrics unsigned 64-bit
 *   values", the count with NULL, at most *pMetricBlockCount blocks and
 *   VK_INCOMPLETE when fewer than available; ordered by resultIndex, then
 *   resultSubIndex, then grouped by stages, then basicBlockIndex
 *   (basicBlockIndex 0 without perBasicBlockGranularity);
 * - the result index "is incremented by 1 for each draw, dispatch, and ray
 *   tracing command recorded while the shader instrumentation object is
 *   active" - instrumented or not - starts at 0 when the object is created
 *   and is kept across submissions; metrics aggregate over submissions
 *   until vkClearShaderInstrumentationMetricsARM, which zeroes them without
 *   invalidating recorded indices; multiview metrics are aggregated across
 *   views;
 * - every instrumented stage that ran has metrics for its action: the
 *   tessellation, geometry, task and mesh stages as much as vertex,
 *   fragment and compute (layout.stages_*).
 *
 * Values: metrics are the device's.  Where it has a metric named
 * "invocations" (the reference device's, refdevice/README.md "Shader
 * instrumentation": shader invocations, counted in the block the entry point
 * starts in) the cases state it exactly: a dispatch of N workgroups of 8
 * runs 8N compute invocations; a draw of V vertices V vertex invocations
 * (every index distinct); a rectangle of w x h pixels at one sample w * h
 * fragment invocations (vkqs_draw_rect covers exactly its pixels). */
#include <stdio.h>
#include <string.h>

#include "passtarget.h"
#include "vkutil.h"

#include "shaders/instr_loop_comp.h"
#include "shaders/mesh_counts_task.h"
#include "shaders/mesh_triangles_mesh.h"
#include "shaders/stats_copies_geom.h"
#include "shaders/stats_count_comp.h"
#include "shaders/stats_triangle_tesc.h"
#include "shaders/stats_triangle_tese.h"

#define D (VKQS_D(ctx))
#define DEV (VKQS_DEV(ctx))

#define FEATURE "VK_ARM_shader_instrumentation.shaderInstrumentation"
#define SPEC_VALUES "vkGetShaderInstrumentationValuesARM: tightly packed blocks of a 16-byte " \
		    "header and numMetrics uint64; at most *pMetricBlockCount, VK_INCOMPLETE if fewer"
#define SPEC_ORDER "VK_ARM_shader_instrumentation: blocks by resultIndex, resultSubIndex, " \
		   "grouped by stages, then basicBlockIndex"
#define SPEC_INDEX "VK_ARM_shader_instrumentation: the result index is incremented for each " \
		   "draw and dispatch recorded while the object is active"
#define SPEC_AGG "VK_ARM_shader_instrumentation: metrics of all submissions aggregate until " \
		 "vkClearShaderInstrumentationMetricsARM"

#define SIZE 32u
#define GUARD 0xA5u
#define MAX_METRICS 64u
#define HEADER sizeof(VkShaderInstrumentationMetricDataHeaderARM)

struct instr {
	VkPhysicalDeviceShaderInstrumentationPropertiesARM props;
	PFN_vkEnumeratePhysicalDeviceShaderInstrumentationMetricsARM enumerate;
	PFN_vkCreateShaderInstrumentationARM create;
	PFN_vkDestroyShaderInstrumentationARM destroy;
	PFN_vkCmdBeginShaderInstrumentationARM begin;
	PFN_vkCmdEndShaderInstrumentationARM end;
	PFN_vkGetShaderInstrumentationValuesARM get;
	PFN_vkClearShaderInstrumentationMetricsARM clear;
	uint32_t metrics;
	VkShaderInstrumentationMetricDescriptionARM desc[MAX_METRICS];
	size_t block; /* bytes of one metric block */
};

static struct instr *instr_require(struct vkqs_ctx *ctx)
{
	vkqs_require_queue(ctx, &ctx->vk->gfx, "graphics");
	vkqs_require_feature(ctx, FEATURE);
	struct instr *in = vkqs_alloc(ctx, sizeof(*in));
	memset(in, 0, sizeof(*in));
	in->props.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INSTRUMENTATION_PROPERTIES_ARM;
	VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
					  .pNext = &in->props};
	vkGetPhysicalDeviceProperties2(ctx->vk->phys, &p2);
	in->enumerate = (PFN_vkEnumeratePhysicalDeviceShaderInstrumentationMetricsARM)
		vkGetInstanceProcAddr(ctx->vk->inst.instance,
				      "vkEnumeratePhysicalDeviceShaderInstrumentationMetricsARM");
#define DEVFN(field, name) in->field = (__typeof__(in->field))vkGetDeviceProcAddr(DEV, name)
	DEVFN(create, "vkCreateShaderInstrumentationARM");
	DEVFN(destroy, "vkDestroyShaderInstrumentationARM");
	DEVFN(begin, "vkCmdBeginShaderInstrumentationARM");
	DEVFN(end, "vkCmdEndShaderInstrumentationARM");
	DEVFN(get, "vkGetShaderInstrumentationValuesARM");
	DEVFN(clear, "vkClearShaderInstrumentationMetricsARM");
#undef DEVFN
	VKQS_ASSERTF(ctx, in->enumerate && in->create && in->destroy && in->begin && in->end &&
				  in->get && in->clear,
		     "a VK_ARM_shader_instrumentation function is missing from the proc-address queries");
	in->metrics = in->props.numMetrics < MAX_METRICS ? in->props.numMetrics : MAX_METRICS;
	uint32_t n = in->metrics;
	for (uint32_t i = 0; i < n; i++)
		in->desc[i] = (VkShaderInstrumentationMetricDescriptionARM){
			.sType = VK_STRUCTURE_TYPE_SHADER_INSTRUMENTATION_METRIC_DESCRIPTION_ARM};
	VkResult r = in->enumerate(ctx->vk->phys, &n, in->desc);
	VKQS_ASSERTF(ctx, r == VK_SUCCESS || r == VK_INCOMPLETE, "metric enumeration returned %s",
		     vkqs_vk_result_name(r));
	in->block = HEADER + 8u * in->props.numMetrics;
	return in;
}

/* The metric named `name`, or NotSupported. */
static uint32_t instr_metric(struct vkqs_ctx *ctx, const struct instr *in, const char *name)
{
	for (uint32_t i = 0; i < in->metrics; i++)
		if (strcmp(in->desc[i].name, name) == 0)
			return i;
	vkqs_skip(ctx, "the device has no instrumentation metric named \"%s\" whose value the case "
		       "can state (refdevice/README.md)", name);
}

struct destroy_arg {
	const struct instr *in;
	VkShaderInstrumentationARM obj;
};
static void destroy_obj(struct vkqs_ctx *ctx, void *arg)
{
	struct destroy_arg *a = arg;
	a->in->destroy(DEV, a->obj, NULL);
}

/* A new object, destroyed at case end after the device is idle
 * (VUID-vkDestroyShaderInstrumentationARM-instrumentation-12374). */
static VkShaderInstrumentationARM instr_new(struct vkqs_ctx *ctx, const struct instr *in)
{
	VkShaderInstrumentationCreateInfoARM ci = {
		.sType = VK_STRUCTURE_TYPE_SHADER_INSTRUMENTATION_CREATE_INFO_ARM};
	struct destroy_arg *a = vkqs_alloc(ctx, sizeof(*a));
	a->in = in;
	VKQS_CHECK(ctx, in->create(DEV, &ci, NULL, &a->obj));
	vkqs_defer(ctx, destroy_obj, a);
	return a->obj;
}

/* The blocks read back, decoded. */
struct blocks {
	uint32_t count;
	VkShaderInstrumentationMetricDataHeaderARM *h;
	uint64_t *v; /* count * numMetrics */
	uint32_t nm;
};

static struct blocks instr_read(struct vkqs_ctx *ctx, const struct instr *in,
				VkShaderInstrumentationARM obj)
{
	struct blocks b = {0};
	b.nm = in->props.numMetrics;
	VKQS_CHECK(ctx, in->get(DEV, obj, &b.count, NULL, 0));
	uint8_t *raw = vkqs_alloc(ctx, b.count * in->block + 1);
	uint32_t n = b.count;
	VkResult r = in->get(DEV, obj, &n, raw, 0);
	VKQS_ASSERTF(ctx, r == VK_SUCCESS && n == b.count,
		     "reading the %u blocks counted: %s, %u written", b.count, vkqs_vk_result_name(r), n);
	b.h = vkqs_alloc(ctx, (b.count + 1) * sizeof(*b.h));
	b.v = vkqs_alloc(ctx, (b.count * b.nm + 1) * sizeof(*b.v));
	for (uint32_t i = 0; i < b.count; i++) {
		memcpy(&b.h[i], raw + i * in->block, HEADER);
		memcpy(&b.v[i * b.nm], raw + i * in->block + HEADER, 8u * b.nm);
	}
	return b;
}

/* The sum of metric m over the blocks of result index ri and stage (0: any). */
static uint64_t sum_metric(const struct blocks *b, uint32_t ri, VkShaderStageFlags stage, uint32_t m)
{
	uint64_t t = 0;
	for (uint32_t i = 0; i < b->count; i++)
		if (b->h[i].resultIndex == ri && (!stage || (b->h[i].stages & stage)))
			t += b->v[i * b->nm + m];
	return t;
}

/* The stages the blocks of result index ri name, together. */
static VkShaderStageFlags index_stages(const struct blocks *b, uint32_t ri)
{
	VkShaderStageFlags s = 0;
	for (uint32_t i = 0; i < b->count; i++)
		if (b->h[i].resultIndex == ri)
			s |= b->h[i].stages;
	return s;
}

/* The result indices present, as a bit mask of 0..63. */
static uint64_t index_mask(const struct blocks *b)
{
	uint64_t m = 0;
	for (uint32_t i = 0; i < b->count; i++)
		if (b->h[i].resultIndex < 64)
			m |= 1ull << b->h[i].resultIndex;
	return m;
}

/* Work ------------------------------------------------------------------------*/

struct gfx {
	struct vkqs_target *t;
	struct vkqs_pipeline *on, *off; /* instrumented, not */
};

static struct gfx gfx_make(struct vkqs_ctx *ctx)
{
	struct gfx g;
	g.t = vkqs_target_create(ctx, SIZE, SIZE, VK_SAMPLE_COUNT_1_BIT, false);
	g.on = vkqs_pipeline_rect(ctx, g.t, &(struct vkqs_pipeline_desc){
						  .flags2 = VK_PIPELINE_CREATE_2_INSTRUMENT_SHADERS_BIT_ARM});
	g.off = vkqs_pipeline_rect(ctx, g.t, &(struct vkqs_pipeline_desc){0});
	return g;
}

/* A compute pipeline over a storage buffer (stats_count.comp, or the loop
 * shader with its length as push constant), instrumented or not. */
static struct vkqs_compute *comp_make(struct vkqs_ctx *ctx, bool instrumented, bool loop)
{
	struct vkqs_buffer *buf = vkqs_buffer_device(ctx, 65536, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	return loop ? vkqs_compute_create(ctx, instr_loop_comp, sizeof(instr_loop_comp), buf, 4,
					  instrumented ? VK_PIPELINE_CREATE_2_INSTRUMENT_SHADERS_BIT_ARM : 0)
		    : vkqs_compute_create(ctx, stats_count_comp, sizeof(stats_count_comp), buf, 0,
					  instrumented ? VK_PIPELINE_CREATE_2_INSTRUMENT_SHADERS_BIT_ARM : 0);
}

static void comp_dispatch(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_compute *c,
			  uint32_t groups, uint32_t loop_n)
{
	vkqs_cmd_bind_compute(ctx, cb, c);
	if (loop_n)
		D->vkCmdPushConstants(cb, c->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &loop_n);
	D->vkCmdDispatch(cb, groups, 1, 1);
	/* the next dispatch writes the same words */
	VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
			      .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
			      .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
	D->vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
				VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
}

/* A draw of `vertices` vertices covering w x h pixels with p. */
static void gfx_draw(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct gfx *g,
		     const struct vkqs_pipeline *p, uint32_t vertices, float w, float h)
{
	vkqs_draw_rect_n(ctx, cb, p, g->t, 0, 0, w, h, 0.5f, vertices);
}

/* Recorded: begin, the draws (on: instrumented or not per `plan`, a
 * string of 'i' instrumented, 'p' plain), end, in one render pass. */
static VkCommandBuffer record_plan(struct vkqs_ctx *ctx, const struct instr *in,
				   VkShaderInstrumentationARM obj, const struct gfx *g,
				   const char *plan, VkCommandBufferUsageFlags usage)
{
	VkCommandBuffer cb = vkqs_cmd_begin_usage(ctx, &ctx->vk->gfx, usage);
	vkqs_target_begin(ctx, cb, g->t, 1.0f);
	in->begin(cb, obj);
	for (const char *c = plan; *c; c++)
		gfx_draw(ctx, cb, g, *c == 'i' ? g->on : g->off, 6, 4, 4);
	in->end(cb);
	vkqs_target_end(ctx, cb);
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(cb));
	return cb;
}

static void submit_wait(struct vkqs_ctx *ctx, VkCommandBuffer cb)
{
	VkFence f = vkqs_fence(ctx);
	vkqs_submit(ctx, &ctx->vk->gfx, &cb, 1, f);
	vkqs_fence_wait(ctx, f);
}

/* Metric descriptions ------------------------------------------------------------*/

static void metrics_count(struct vkqs_ctx *ctx, const void *param)
{
	struct instr *in = instr_require(ctx);
	VKQS_EXPECTF(ctx, in->props.numMetrics >= 1, "numMetrics %u: the required limit is 1",
		     in->props.numMetrics);
	uint32_t n = 0;
	VKQS_CHECK(ctx, in->enumerate(ctx->vk->phys, &n, NULL));
	VKQS_EXPECT_EQ(ctx, n, in->props.numMetrics);
}

static const uint32_t short_by[] = {1, 2};
static void short_by_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "short_by_%u", *(const uint32_t *)p);
}

static void metrics_incomplete(struct vkqs_ctx *ctx, const void *param)
{
	uint32_t by = *(const uint32_t *)param;
	struct instr *in = instr_require(ctx);
	if (in->metrics < by)
		vkqs_skip(ctx, "%u metrics: cannot ask for %u fewer", in->metrics, by);
	VkShaderInstrumentationMetricDescriptionARM d[MAX_METRICS];
	memset(d, GUARD, sizeof(d));
	uint32_t n = in->metrics - by;
	for (uint32_t i = 0; i < n; i++) {
		d[i].sType = VK_STRUCTURE_TYPE_SHADER_INSTRUMENTATION_METRIC_DESCRIPTION_ARM;
		d[i].pNext = NULL;
	}
	VkResult r = in->enumerate(ctx->vk->phys, &n, d);
	VKQS_EXPECT_VK(ctx, r, VK_INCOMPLETE);
	VKQS_EXPECT_EQ(ctx, n, in->metrics - by);
	for (uint32_t i = 0; i < n; i++)
		VKQS_EXPECTF(ctx, strcmp(d[i].name, in->desc[i].name) == 0,
			     "metric %u: \"%s\", the full enumeration has \"%s\"", i, d[i].name,
			     in->desc[i].name);
	const uint8_t *tail = (const uint8_t *)&d[in->metrics - by];
	bool untouched = true;
	for (size_t i = 0; i < by * sizeof(d[0]); i++)
		untouched &= tail[i] == GUARD;
	VKQS_EXPECTF(ctx, untouched, "descriptions past *pDescriptionCount were written");
}

static void metrics_names(struct vkqs_ctx *ctx, const void *param)
{
	struct instr *in = instr_require(ctx);
	for (uint32_t i = 0; i < in->metrics; i++) {
		VKQS_EXPECTF(ctx, memchr(in->desc[i].name, 0, VK_MAX_DESCRIPTION_SIZE) && in->desc[i].name[0],
			     "metric %u: the name is empty or unterminated", i);
		VKQS_EXPECTF(ctx, memchr(in->desc[i].description, 0, VK_MAX_DESCRIPTION_SIZE) != NULL,
			     "metric %u: the description is unterminated", i);
		for (uint32_t k = i + 1; k < in->metrics; k++)
			VKQS_EXPECTF(ctx, strcmp(in->desc[i].name, in->desc[k].name) != 0,
				     "metrics %u and %u are both \"%s\"", i, k, in->desc[i].name);
	}
}

/* Layout and counts ------------------------------------------------------------------*/

/* Some blocks: three draws and a dispatch, instrumented. */
static VkShaderInstrumentationARM some_blocks(struct vkqs_ctx *ctx, const struct instr *in)
{
	struct gfx g = gfx_make(ctx);
	struct vkqs_compute *c = comp_make(ctx, true, false);
	VkShaderInstrumentationARM obj = instr_new(ctx, in);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	in->begin(cb, obj);
	comp_dispatch(ctx, cb, c, 2, 0);
	vkqs_target_begin(ctx, cb, g.t, 1.0f);
	for (int i = 0; i < 3; i++)
		gfx_draw(ctx, cb, &g, g.on, 6, 8, 8);
	vkqs_target_end(ctx, cb);
	in->end(cb);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	return obj;
}

static void layout_empty_object(struct vkqs_ctx *ctx, const void *param)
{
	struct instr *in = instr_require(ctx);
	VkShaderInstrumentationARM obj = instr_new(ctx, in);
	uint32_t n = 77;
	VKQS_CHECK(ctx, in->get(DEV, obj, &n, NULL, 0));
	VKQS_EXPECT_EQ(ctx, n, 0);
	in->clear(DEV, obj);
	n = 77;
	VKQS_CHECK(ctx, in->get(DEV, obj, &n, NULL, 0));
	VKQS_EXPECT_EQ(ctx, n, 0);
}

/* The count with NULL, twice the same; all blocks read with exactly that
 * count: VK_SUCCESS, every byte of the N blocks written, none after. */
static void layout_packed(struct vkqs_ctx *ctx, const void *param)
{
	struct instr *in = instr_require(ctx);
	VkShaderInstrumentationARM obj = some_blocks(ctx, in);
	uint32_t n = 0, again = 0;
	VKQS_CHECK(ctx, in->get(DEV, obj, &n, NULL, 0));
	VKQS_CHECK(ctx, in->get(DEV, obj, &again, NULL, 0));
	VKQS_EXPECT_EQ(ctx, again, n);
	VKQS_ASSERTF(ctx, n > 0, "four instrumented actions left no metric block");
	size_t bytes = n * in->block, tail = 256;
	uint8_t *a = vkqs_alloc(ctx, bytes + tail), *b = vkqs_alloc(ctx, bytes + tail);
	memset(a, 0x00, bytes + tail);
	memset(b, 0xff, bytes + tail);
	uint32_t na = n, nb = n;
	VKQS_EXPECT_VK(ctx, in->get(DEV, obj, &na, a, 0), VK_SUCCESS);
	VKQS_EXPECT_VK(ctx, in->get(DEV, obj, &nb, b, 0), VK_SUCCESS);
	VKQS_EXPECT_EQ(ctx, na, n);
	VKQS_EXPECT_EQ(ctx, nb, n);
	/* two reads over different fills agree on every byte: all written */
	VKQS_EXPECTF(ctx, memcmp(a, b, bytes) == 0, "bytes of the %u blocks were left unwritten", n);
	bool untouched = true;
	for (size_t i = 0; i < tail; i++)
		untouched &= a[bytes + i] == 0x00 && b[bytes + i] == 0xff;
	VKQS_EXPECTF(ctx, untouched, "bytes past %u blocks of %zu bytes were written", n, in->block);
}

static const uint32_t fewer[] = {1, 2, 0};
static void fewer_name(const void *p, char *b, size_t n)
{
	uint32_t f = *(const uint32_t *)p;
	if (f)
		snprintf(b, n, "short_by_%u", f);
	else
		snprintf(b, n, "zero_count");
}

/* A short count: VK_INCOMPLETE, that many blocks (the first ones), no
 * byte past them. */
static void layout_incomplete(struct vkqs_ctx *ctx, const void *param)
{
	uint32_t by = *(const uint32_t *)param;
	struct instr *in = instr_require(ctx);
	VkShaderInstrumentationARM obj = some_blocks(ctx, in);
	struct blocks all = instr_read(ctx, in, obj);
	uint32_t want = by == 0 ? 0 : all.count - (by < all.count ? by : all.count);
	if (by && by >= all.count)
		vkqs_skip(ctx, "%u blocks: cannot ask for %u fewer", all.count, by);
	size_t bytes = all.count * in->block;
	uint8_t *buf = vkqs_alloc(ctx, bytes + 64);
	memset(buf, GUARD, bytes + 64);
	uint32_t n = want;
	VkResult r = in->get(DEV, obj, &n, buf, 0);
	VKQS_EXPECT_VK(ctx, r, VK_INCOMPLETE);
	VKQS_EXPECT_EQ(ctx, n, want);
	for (uint32_t i = 0; i < n && i < want; i++) {
		VkShaderInstrumentationMetricDataHeaderARM h;
		memcpy(&h, buf + i * in->block, HEADER);
		VKQS_EXPECTF(ctx, memcmp(&h, &all.h[i], HEADER) == 0 &&
					  memcmp(buf + i * in->block + HEADER, &all.v[i * all.nm], 8u * all.nm) == 0,
			     "block %u differs from the full read's", i);
	}
	for (size_t i = (size_t)want * in->block; i < bytes + 64; i++)
		if (buf[i] != GUARD) {
			vkqs_fail(ctx, "byte %zu past the %u blocks asked for was written", i, want);
			break;
		}
}

/* Keys strictly ascending in the spec's order: resultIndex, resultSubIndex,
 * stages (a group: a stage mask seen once per index and sub-index),
 * basicBlockIndex; basicBlockIndex 0 without perBasicBlockGranularity;
 * stages a non-empty set of the stages that ran. */
static void layout_order(struct vkqs_ctx *ctx, const void *param)
{
	struct instr *in = instr_require(ctx);
	VkShaderInstrumentationARM obj = some_blocks(ctx, in);
	struct blocks b = instr_read(ctx, in, obj);
	const VkShaderStageFlags ran = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT |
				       VK_SHADER_STAGE_COMPUTE_BIT;
	for (uint32_t i = 0; i < b.count; i++) {
		const VkShaderInstrumentationMetricDataHeaderARM *h = &b.h[i];
		VKQS_EXPECTF(ctx, h->stages && !(h->stages & ~ran), "block %u: stages 0x%x", i, h->stages);
		if (!in->props.perBasicBlockGranularity)
			VKQS_EXPECTF(ctx, h->basicBlockIndex == 0,
				     "block %u: basicBlockIndex %u without perBasicBlockGranularity", i,
				     h->basicBlockIndex);
		VKQS_EXPECTF(ctx, h->resultIndex < 4, "block %u: result index %u of 4 actions", i,
			     h->resultIndex);
		if (i == 0)
			continue;
		const VkShaderInstrumentationMetricDataHeaderARM *p = &b.h[i - 1];
		bool ok;
		if (p->resultIndex != h->resultIndex)
			ok = p->resultIndex < h->resultIndex;
		else if (p->resultSubIndex != h->resultSubIndex)
			ok = p->resultSubIndex < h->resultSubIndex;
		else if (p->stages != h->stages) {
			/* grouped: this stage mask did not occur earlier in the group */
			ok = true;
			for (uint32_t k = 0; k + 1 < i; k++)
				if (b.h[k].resultIndex == h->resultIndex &&
				    b.h[k].resultSubIndex == h->resultSubIndex && b.h[k].stages == h->stages)
					ok = false;
		} else
			ok = p->basicBlockIndex < h->basicBlockIndex;
		VKQS_EXPECTF(ctx, ok, "blocks %u (%u, %u, 0x%x, %u) and %u (%u, %u, 0x%x, %u) are out of "
				      "order or repeat a key",
			     i - 1, p->resultIndex, p->resultSubIndex, p->stages, p->basicBlockIndex, i,
			     h->resultIndex, h->resultSubIndex, h->stages, h->basicBlockIndex);
	}
}

/* The stages of each action: compute for the dispatch, vertex and fragment
 * for the draws (every instrumented stage that ran has metrics). */
static void layout_stages(struct vkqs_ctx *ctx, const void *param)
{
	struct instr *in = instr_require(ctx);
	VkShaderInstrumentationARM obj = some_blocks(ctx, in);
	struct blocks b = instr_read(ctx, in, obj);
	for (uint32_t ri = 0; ri < 4; ri++) {
		VkShaderStageFlags s = index_stages(&b, ri);
		VkShaderStageFlags want = ri == 0 ? VK_SHADER_STAGE_COMPUTE_BIT
						  : VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
		VKQS_EXPECTF(ctx, s == want, "result index %u: stages 0x%x, the action ran 0x%x", ri, s, want);
	}
}

/* Result indices -------------------------------------------------------------------*/

struct plan {
	const char *name;
	const char *plan;   /* 'i' instrumented draw, 'p' plain draw */
};
static const struct plan plans[] = {
	{"one_draw", "i"},
	{"three_draws", "iii"},
	{"eight_draws", "iiiiiiii"},
	{"plain_between", "ipi"},
	{"plain_first", "pii"},
	{"plain_last", "iip"},
	{"plains_between", "ippppi"},
	{"only_plain", "pp"},
};
static void plan_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "%s", ((const struct plan *)p)->name);
}

/* Draw k of the plan has result index k; plain draws reserve theirs and
 * have no block. */
static void index_plan(struct vkqs_ctx *ctx, const void *param)
{
	const struct plan *pl = param;
	struct instr *in = instr_require(ctx);
	struct gfx g = gfx_make(ctx);
	VkShaderInstrumentationARM obj = instr_new(ctx, in);
	submit_wait(ctx, record_plan(ctx, in, obj, &g, pl->plan, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT));
	struct blocks b = instr_read(ctx, in, obj);
	uint64_t want = 0;
	for (size_t k = 0; pl->plan[k]; k++)
		if (pl->plan[k] == 'i')
			want |= 1ull << k;
	VKQS_EXPECTF(ctx, index_mask(&b) == want,
		     "plan \"%s\": blocks for result indices 0x%" PRIx64 ", expected 0x%" PRIx64
		     " (draw k has index k; plain draws have none)",
		     pl->plan, index_mask(&b), want);
}

/* Dispatches take indices too, between draws. */
static void index_dispatch(struct vkqs_ctx *ctx, const void *param)
{
	struct instr *in = instr_require(ctx);
	struct gfx g = gfx_make(ctx);
	struct vkqs_compute *on = comp_make(ctx, true, false), *off = comp_make(ctx, false, false);
	VkShaderInstrumentationARM obj = instr_new(ctx, in);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	in->begin(cb, obj);
	comp_dispatch(ctx, cb, on, 1, 0);   /* 0 */
	comp_dispatch(ctx, cb, off, 1, 0);  /* 1: reserved */
	vkqs_target_begin(ctx, cb, g.t, 1.0f);
	gfx_draw(ctx, cb, &g, g.on, 6, 4, 4); /* 2 */
	vkqs_target_end(ctx, cb);
	comp_dispatch(ctx, cb, on, 1, 0);   /* 3 */
	in->end(cb);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	struct blocks b = instr_read(ctx, in, obj);
	VKQS_EXPECTF(ctx, index_mask(&b) == 0xd, "result indices 0x%" PRIx64 ", expected 0xd",
		     index_mask(&b));
}

/* Draws recorded while no object is active take no index. */
static void index_inactive(struct vkqs_ctx *ctx, const void *param)
{
	struct instr *in = instr_require(ctx);
	struct gfx g = gfx_make(ctx);
	VkShaderInstrumentationARM obj = instr_new(ctx, in);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	vkqs_target_begin(ctx, cb, g.t, 1.0f);
	gfx_draw(ctx, cb, &g, g.on, 6, 4, 4);
	in->begin(cb, obj);
	gfx_draw(ctx, cb, &g, g.on, 6, 4, 4);
	in->end(cb);
	gfx_draw(ctx, cb, &g, g.on, 6, 4, 4);
	in->begin(cb, obj);
	gfx_draw(ctx, cb, &g, g.on, 6, 4, 4);
	in->end(cb);
	vkqs_target_end(ctx, cb);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	struct blocks b = instr_read(ctx, in, obj);
	VKQS_EXPECTF(ctx, index_mask(&b) == 0x3, "result indices 0x%" PRIx64 ", expected 0x3",
		     index_mask(&b));
}

/* Indices continue across command buffers in recording order, whatever
 * the order of submission: recorded A (2 draws), B (1 draw), submitted B
 * then A. */
static void index_record_order(struct vkqs_ctx *ctx, const void *param)
{
	struct instr *in = instr_require(ctx);
	uint32_t inv = instr_metric(ctx, in, "invocations");
	struct gfx g = gfx_make(ctx);
	VkShaderInstrumentationARM obj = instr_new(ctx, in);
	VkCommandBuffer a = record_plan(ctx, in, obj, &g, "ii", VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
	VkCommandBuffer bcb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	vkqs_target_begin(ctx, bcb, g.t, 1.0f);
	in->begin(bcb, obj);
	gfx_draw(ctx, bcb, &g, g.on, 12, 4, 4);
	in->end(bcb);
	vkqs_target_end(ctx, bcb);
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(bcb));
	submit_wait(ctx, bcb);
	submit_wait(ctx, a);
	struct blocks b = instr_read(ctx, in, obj);
	VKQS_EXPECTF(ctx, index_mask(&b) == 0x7, "result indices 0x%" PRIx64 ", expected 0x7",
		     index_mask(&b));
	/* index 2 is B's draw of 12 vertices */
	VKQS_EXPECT_EQ(ctx, sum_metric(&b, 2, VK_SHADER_STAGE_VERTEX_BIT, inv), 12);
}

/* A command buffer recorded and never submitted still used its indices. */
static void index_unsubmitted(struct vkqs_ctx *ctx, const void *param)
{
	struct instr *in = instr_require(ctx);
	struct gfx g = gfx_make(ctx);
	VkShaderInstrumentationARM obj = instr_new(ctx, in);
	(void)record_plan(ctx, in, obj, &g, "iii", VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
	submit_wait(ctx, record_plan(ctx, in, obj, &g, "i", VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT));
	struct blocks b = instr_read(ctx, in, obj);
	VKQS_EXPECTF(ctx, index_mask(&b) == 0x8, "result indices 0x%" PRIx64 ", expected 0x8 (three "
						 "indices recorded before)", index_mask(&b));
}

/* Re-recording a command buffer takes new indices. */
static void index_rerecord(struct vkqs_ctx *ctx, const void *param)
{
	struct instr *in = instr_require(ctx);
	struct gfx g = gfx_make(ctx);
	VkShaderInstrumentationARM obj = instr_new(ctx, in);
	VkCommandBuffer cb = record_plan(ctx, in, obj, &g, "ii", 0);
	submit_wait(ctx, cb);
	VKQS_CHECK(ctx, D->vkResetCommandBuffer(cb, 0));
	VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	VKQS_CHECK(ctx, D->vkBeginCommandBuffer(cb, &bi));
	vkqs_target_begin(ctx, cb, g.t, 1.0f);
	in->begin(cb, obj);
	gfx_draw(ctx, cb, &g, g.on, 6, 4, 4);
	in->end(cb);
	vkqs_target_end(ctx, cb);
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(cb));
	submit_wait(ctx, cb);
	struct blocks b = instr_read(ctx, in, obj);
	VKQS_EXPECTF(ctx, index_mask(&b) == 0x7, "result indices 0x%" PRIx64 ", expected 0x7",
		     index_mask(&b));
}

/* Two objects used one after the other in a command buffer: each counts
 * from 0. */
static void index_two_objects(struct vkqs_ctx *ctx, const void *param)
{
	struct instr *in = instr_require(ctx);
	struct gfx g = gfx_make(ctx);
	VkShaderInstrumentationARM a = instr_new(ctx, in), bo = instr_new(ctx, in);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	vkqs_target_begin(ctx, cb, g.t, 1.0f);
	in->begin(cb, a);
	gfx_draw(ctx, cb, &g, g.on, 6, 4, 4);
	gfx_draw(ctx, cb, &g, g.on, 6, 4, 4);
	in->end(cb);
	in->begin(cb, bo);
	gfx_draw(ctx, cb, &g, g.off, 6, 4, 4);
	gfx_draw(ctx, cb, &g, g.on, 6, 4, 4);
	in->end(cb);
	vkqs_target_end(ctx, cb);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	struct blocks ba = instr_read(ctx, in, a), bb = instr_read(ctx, in, bo);
	VKQS_EXPECTF(ctx, index_mask(&ba) == 0x3, "first object: indices 0x%" PRIx64 ", expected 0x3",
		     index_mask(&ba));
	VKQS_EXPECTF(ctx, index_mask(&bb) == 0x2, "second object: indices 0x%" PRIx64 ", expected 0x2",
		     index_mask(&bb));
}

/* Begin and end in a secondary command buffer (recorded first), then in
 * the primary that executes it: indices in recording order. */
static void index_secondary(struct vkqs_ctx *ctx, const void *param)
{
	struct instr *in = instr_require(ctx);
	uint32_t inv = instr_metric(ctx, in, "invocations");
	struct gfx g = gfx_make(ctx);
	VkShaderInstrumentationARM obj = instr_new(ctx, in);
	VkCommandBuffer sec = vkqs_cmd_begin_secondary(ctx, &ctx->vk->gfx, g.t,
						       VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, NULL);
	in->begin(sec, obj);
	gfx_draw(ctx, sec, &g, g.on, 6, 4, 4);
	gfx_draw(ctx, sec, &g, g.on, 18, 4, 4);
	in->end(sec);
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(sec));
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	vkqs_target_begin_ex(ctx, cb, g.t, 1.0f, 0, VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
	D->vkCmdExecuteCommands(cb, 1, &sec);
	vkqs_target_end(ctx, cb);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	struct blocks b = instr_read(ctx, in, obj);
	VKQS_EXPECTF(ctx, index_mask(&b) == 0x3, "result indices 0x%" PRIx64 ", expected 0x3",
		     index_mask(&b));
	VKQS_EXPECT_EQ(ctx, sum_metric(&b, 1, VK_SHADER_STAGE_VERTEX_BIT, inv), 18);
}

/* One indirect draw of three draws is one result index. */
static void index_indirect(struct vkqs_ctx *ctx, const void *param)
{
	struct instr *in = instr_require(ctx);
	struct gfx g = gfx_make(ctx);
	struct vkqs_buffer *ind = vkqs_buffer_host(ctx, 3 * sizeof(VkDrawIndirectCommand),
						   VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
	VkDrawIndirectCommand cmds[3] = {{6, 1, 0, 0}, {6, 1, 0, 0}, {6, 1, 0, 0}};
	memcpy(ind->map, cmds, sizeof(cmds));
	vkqs_buffer_flush(ctx, ind);
	VkShaderInstrumentationARM obj = instr_new(ctx, in);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	vkqs_target_begin(ctx, cb, g.t, 1.0f);
	in->begin(cb, obj);
	struct vkqs_rect_push pc = {{0, 0, 4, 4}, {SIZE, SIZE}, 0.5f, 0};
	vkqs_cmd_bind_rect(ctx, cb, g.on, &pc);
	uint32_t stride = sizeof(VkDrawIndirectCommand);
	if (ctx->vk->features.features.multiDrawIndirect)
		D->vkCmdDrawIndirect(cb, ind->buf, 0, 3, stride);
	else
		D->vkCmdDrawIndirect(cb, ind->buf, 0, 1, stride);
	gfx_draw(ctx, cb, &g, g.on, 6, 4, 4);
	in->end(cb);
	vkqs_target_end(ctx, cb);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	struct blocks b = instr_read(ctx, in, obj);
	VKQS_EXPECTF(ctx, index_mask(&b) == 0x3, "result indices 0x%" PRIx64 ", expected 0x3: the "
						 "indirect draw is one command", index_mask(&b));
}

/* Values ---------------------------------------------------------------------------*/

static const uint32_t group_counts[] = {1, 4, 16};
static void groups_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "%u_workgroups", *(const uint32_t *)p);
}
static void values_compute(struct vkqs_ctx *ctx, const void *param)
{
	uint32_t groups = *(const uint32_t *)param;
	struct instr *in = instr_require(ctx);
	uint32_t inv = instr_metric(ctx, in, "invocations");
	struct vkqs_compute *c = comp_make(ctx, true, false);
	VkShaderInstrumentationARM obj = instr_new(ctx, in);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	in->begin(cb, obj);
	comp_dispatch(ctx, cb, c, groups, 0);
	in->end(cb);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	struct blocks b = instr_read(ctx, in, obj);
	/* stats_count.comp: local size 4 x 2 x 1 */
	VKQS_EXPECT_EQ(ctx, sum_metric(&b, 0, VK_SHADER_STAGE_COMPUTE_BIT, inv), 8u * groups);
}

struct draw_case {
	uint32_t vertices, w, h;
};
static const struct draw_case draw_cases[] = {{6, 8, 8}, {60, 8, 8}, {6, 16, 4}, {6, 32, 32}};
static void draw_case_name(const void *p, char *b, size_t n)
{
	const struct draw_case *d = p;
	snprintf(b, n, "%u_vertices_%ux%u", d->vertices, d->w, d->h);
}
static void values_draw(struct vkqs_ctx *ctx, const void *param)
{
	const struct draw_case *d = param;
	struct instr *in = instr_require(ctx);
	uint32_t inv = instr_metric(ctx, in, "invocations");
	struct gfx g = gfx_make(ctx);
	VkShaderInstrumentationARM obj = instr_new(ctx, in);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	vkqs_target_begin(ctx, cb, g.t, 1.0f);
	in->begin(cb, obj);
	gfx_draw(ctx, cb, &g, g.on, d->vertices, (float)d->w, (float)d->h);
	in->end(cb);
	vkqs_target_end(ctx, cb);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	struct blocks b = instr_read(ctx, in, obj);
	VKQS_EXPECT_EQ(ctx, sum_metric(&b, 0, VK_SHADER_STAGE_VERTEX_BIT, inv), d->vertices);
	/* every 6 vertices cover the rectangle once more */
	VKQS_EXPECT_EQ(ctx, sum_metric(&b, 0, VK_SHADER_STAGE_FRAGMENT_BIT, inv),
		       (uint64_t)d->w * d->h * (d->vertices / 6));
}

/* Metrics aggregate over k submissions of one command buffer; indices stay. */
static const uint32_t submit_counts[] = {2, 3};
static void submit_count_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "%u_submissions", *(const uint32_t *)p);
}
static void values_aggregate(struct vkqs_ctx *ctx, const void *param)
{
	uint32_t k = *(const uint32_t *)param;
	struct instr *in = instr_require(ctx);
	struct gfx g = gfx_make(ctx);
	VkShaderInstrumentationARM obj = instr_new(ctx, in);
	VkCommandBuffer cb = record_plan(ctx, in, obj, &g, "ipi", 0);
	submit_wait(ctx, cb);
	struct blocks once = instr_read(ctx, in, obj);
	for (uint32_t i = 1; i < k; i++)
		submit_wait(ctx, cb);
	struct blocks many = instr_read(ctx, in, obj);
	VKQS_ASSERT_EQ(ctx, many.count, once.count);
	for (uint32_t i = 0; i < once.count; i++) {
		VKQS_EXPECTF(ctx, memcmp(&once.h[i], &many.h[i], HEADER) == 0,
			     "block %u's header changed between submissions", i);
		for (uint32_t m = 0; m < once.nm; m++)
			VKQS_EXPECTF(ctx, many.v[i * many.nm + m] == k * once.v[i * once.nm + m],
				     "block %u metric %u: %" PRIu64 " after %u submissions, %" PRIu64
				     " after one",
				     i, m, many.v[i * many.nm + m], k, once.v[i * once.nm + m]);
	}
}

/* Clear zeroes every block and keeps them (indices stay valid); the next
 * submission counts from zero. */
static void values_clear(struct vkqs_ctx *ctx, const void *param)
{
	struct instr *in = instr_require(ctx);
	struct gfx g = gfx_make(ctx);
	VkShaderInstrumentationARM obj = instr_new(ctx, in);
	VkCommandBuffer cb = record_plan(ctx, in, obj, &g, "ii", 0);
	submit_wait(ctx, cb);
	struct blocks once = instr_read(ctx, in, obj);
	submit_wait(ctx, cb);
	in->clear(DEV, obj);
	struct blocks cleared = instr_read(ctx, in, obj);
	VKQS_EXPECT_EQ(ctx, cleared.count, once.count);
	for (uint32_t i = 0; i < cleared.count && i < once.count; i++) {
		VKQS_EXPECTF(ctx, memcmp(&cleared.h[i], &once.h[i], HEADER) == 0,
			     "block %u's header changed by the clear", i);
		for (uint32_t m = 0; m < cleared.nm; m++)
			VKQS_EXPECTF(ctx, cleared.v[i * cleared.nm + m] == 0,
				     "block %u metric %u is %" PRIu64 " after the clear", i, m,
				     cleared.v[i * cleared.nm + m]);
	}
	submit_wait(ctx, cb);
	struct blocks again = instr_read(ctx, in, obj);
	VKQS_ASSERT_EQ(ctx, again.count, once.count);
	VKQS_EXPECTF(ctx, memcmp(again.v, once.v, once.count * once.nm * 8u) == 0,
		     "one submission after the clear does not read as one submission did");
}

/* No blocks from a plain pipeline while active, nor from an instrumented
 * one while no object is active. */
static void values_nothing(struct vkqs_ctx *ctx, const void *param)
{
	bool active = *(const bool *)param;
	struct instr *in = instr_require(ctx);
	struct gfx g = gfx_make(ctx);
	VkShaderInstrumentationARM obj = instr_new(ctx, in);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	vkqs_target_begin(ctx, cb, g.t, 1.0f);
	if (active)
		in->begin(cb, obj);
	gfx_draw(ctx, cb, &g, active ? g.off : g.on, 6, 8, 8);
	if (active)
		in->end(cb);
	vkqs_target_end(ctx, cb);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	uint32_t n = 0;
	VKQS_CHECK(ctx, in->get(DEV, obj, &n, NULL, 0));
	VKQS_EXPECT_EQ(ctx, n, 0);
}
static const bool actives[] = {true, false};
static void active_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "%s", *(const bool *)p ? "plain_pipeline_active" : "instrumented_inactive");
}

/* A loop of n iterations: as many invocations whatever n; with the
 * device's basic-block metric, some block entered at least n times per
 * invocation and more blocks entered for a longer loop. */
static const uint32_t loop_lengths[] = {1, 4, 32};
static void loop_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "%u_iterations", *(const uint32_t *)p);
}
static void values_loop(struct vkqs_ctx *ctx, const void *param)
{
	uint32_t n = *(const uint32_t *)param;
	struct instr *in = instr_require(ctx);
	uint32_t inv = instr_metric(ctx, in, "invocations");
	uint32_t bbm = instr_metric(ctx, in, "basic_blocks");
	struct vkqs_compute *c = comp_make(ctx, true, true);
	VkShaderInstrumentationARM obj = instr_new(ctx, in);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	in->begin(cb, obj);
	comp_dispatch(ctx, cb, c, 2, n);      /* 0 */
	comp_dispatch(ctx, cb, c, 2, n + 8);  /* 1 */
	in->end(cb);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	struct blocks b = instr_read(ctx, in, obj);
	VKQS_EXPECT_EQ(ctx, sum_metric(&b, 0, 0, inv), 16);
	VKQS_EXPECT_EQ(ctx, sum_metric(&b, 1, 0, inv), 16);
	VKQS_EXPECTF(ctx, sum_metric(&b, 1, 0, bbm) > sum_metric(&b, 0, 0, bbm),
		     "basic blocks: %" PRIu64 " for %u iterations, %" PRIu64 " for %u",
		     sum_metric(&b, 1, 0, bbm), n + 8, sum_metric(&b, 0, 0, bbm), n);
	if (in->props.perBasicBlockGranularity) {
		uint64_t most = 0;
		uint32_t blocks0 = 0;
		for (uint32_t i = 0; i < b.count; i++)
			if (b.h[i].resultIndex == 0) {
				blocks0++;
				uint64_t v = b.v[i * b.nm + bbm];
				most = v > most ? v : most;
			}
		VKQS_EXPECTF(ctx, blocks0 > 1, "a loop reported as %u basic block(s)", blocks0);
		VKQS_EXPECTF(ctx, most >= 16u * n, "no block was entered %u x 16 times: at most %" PRIu64,
			     n, most);
	}
}

/* Multiview: one set of blocks per action, the views aggregated: the
 * fragment invocations of both views. */
static void values_multiview(struct vkqs_ctx *ctx, const void *param)
{
	struct instr *in = instr_require(ctx);
	uint32_t inv = instr_metric(ctx, in, "invocations");
	const uint32_t mask = 0x3;
	struct vkqs_pass_target *t = vkqs_pass_target_create(ctx, VKQS_PASS_RP2, SIZE,
							     VK_SAMPLE_COUNT_1_BIT, false, 1, &mask);
	struct vkqs_pipeline_target where = {
		.render_pass = t->render_pass,
		.samples = t->samples,
		.view_mask = mask,
		.color_format = t->color_format,
		.depth_format = t->depth_format,
	};
	struct vkqs_pipeline *p = vkqs_pipeline_create(
		ctx, &where,
		&(struct vkqs_pipeline_desc){.flags2 = VK_PIPELINE_CREATE_2_INSTRUMENT_SHADERS_BIT_ARM});
	VkShaderInstrumentationARM obj = instr_new(ctx, in);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	vkqs_pass_begin(ctx, cb, t, 1.0f);
	in->begin(cb, obj);
	struct vkqs_rect_push pc = {{0, 0, 8, 4}, {SIZE, SIZE}, 0.5f, 0};
	vkqs_cmd_bind_rect(ctx, cb, p, &pc);
	D->vkCmdDraw(cb, 6, 1, 0, 0);
	in->end(cb);
	vkqs_pass_end(ctx, cb, t);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	struct blocks b = instr_read(ctx, in, obj);
	VKQS_EXPECTF(ctx, index_mask(&b) == 0x1, "result indices 0x%" PRIx64 ": one draw",
		     index_mask(&b));
	VKQS_EXPECT_EQ(ctx, sum_metric(&b, 0, VK_SHADER_STAGE_FRAGMENT_BIT, inv), 2u * 8 * 4);
}

/* Objects: several at once, independent; destroy with VK_NULL_HANDLE. */
static void object_many(struct vkqs_ctx *ctx, const void *param)
{
	struct instr *in = instr_require(ctx);
	struct gfx g = gfx_make(ctx);
	VkShaderInstrumentationARM objs[6];
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	vkqs_target_begin(ctx, cb, g.t, 1.0f);
	for (uint32_t i = 0; i < 6; i++) {
		objs[i] = instr_new(ctx, in);
		in->begin(cb, objs[i]);
		for (uint32_t k = 0; k <= i; k++)
			gfx_draw(ctx, cb, &g, g.on, 6, 4, 4);
		in->end(cb);
	}
	vkqs_target_end(ctx, cb);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	for (uint32_t i = 0; i < 6; i++) {
		struct blocks b = instr_read(ctx, in, objs[i]);
		VKQS_EXPECTF(ctx, index_mask(&b) == (1ull << (i + 1)) - 1,
			     "object %u: result indices 0x%" PRIx64 " for %u draws", i, index_mask(&b),
			     i + 1);
	}
	in->destroy(DEV, VK_NULL_HANDLE, NULL);
}

/* Every stage ------------------------------------------------------------------------*/

/* Pipelines with the other graphics stages, one instrumented draw each.
 * The pre-rasterization draws: rect.vert's 6 vertices over 8 x 8 pixels,
 * as 2 patches of stats_triangle.tesc/.tese (3 output vertices, every
 * level 1: the tessellator makes one triangle of 3 vertices per patch)
 * and/or 2 triangles into stats_copies.geom (Invocations 2).  The mesh
 * draws: 3 workgroups of mesh_triangles.mesh (4 x 3 invocations, 2
 * triangles each), or 3 of mesh_counts.task (2 x 3 invocations; workgroup
 * w launches w % 3 mesh workgroups: 0 + 1 + 2 = 3) in front of it. */
#define TCS VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT
#define TES VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT
#define GS VK_SHADER_STAGE_GEOMETRY_BIT
#define TASK VK_SHADER_STAGE_TASK_BIT_EXT
#define MESH VK_SHADER_STAGE_MESH_BIT_EXT
#define VS_FS (VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT)
#define MESH_GROUPS 3u

struct stage_pipe {
	const char *name;
	VkShaderStageFlags stages; /* the pipeline's */
};
static const struct stage_pipe stage_pipes[] = {
	{"tessellation", VS_FS | TCS | TES},
	{"geometry", VS_FS | GS},
	{"tessellation_geometry", VS_FS | TCS | TES | GS},
	{"mesh", MESH | VK_SHADER_STAGE_FRAGMENT_BIT},
	{"task_mesh", TASK | MESH | VK_SHADER_STAGE_FRAGMENT_BIT},
};
static void stage_pipe_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "%s", ((const struct stage_pipe *)p)->name);
}

/* One draw of `sp`'s instrumented pipeline inside an object; its blocks. */
static struct blocks stage_draw(struct vkqs_ctx *ctx, const struct instr *in,
				const struct stage_pipe *sp)
{
	if (sp->stages & (TCS | TES))
		vkqs_require_feature(ctx, "tessellationShader");
	if (sp->stages & GS)
		vkqs_require_feature(ctx, "geometryShader");
	if (sp->stages & MESH)
		vkqs_require_feature(ctx, "VK_EXT_mesh_shader.meshShader");
	if (sp->stages & TASK)
		vkqs_require_feature(ctx, "VK_EXT_mesh_shader.taskShader");
	struct vkqs_target *t = vkqs_target_create(ctx, SIZE, SIZE, VK_SAMPLE_COUNT_1_BIT, false);
	struct vkqs_pipeline_desc pd = {.flags2 = VK_PIPELINE_CREATE_2_INSTRUMENT_SHADERS_BIT_ARM};
	VkDescriptorSet set = VK_NULL_HANDLE;
	if (sp->stages & MESH) {
		/* the mesh and task shaders count what they run in set 0 */
		struct vkqs_buffer *counts =
			vkqs_buffer_device(ctx, 256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
		set = vkqs_storage_set(ctx, counts, TASK | MESH, &pd.set_layout);
		pd.mesh_spv = mesh_triangles_mesh;
		pd.mesh_size = sizeof(mesh_triangles_mesh);
		if (sp->stages & TASK) {
			pd.task_spv = mesh_counts_task;
			pd.task_size = sizeof(mesh_counts_task);
		}
		pd.push_stages = MESH;
		pd.push_size = 8; /* prims, flags */
	}
	if (sp->stages & TCS) {
		pd.set_topology = true;
		pd.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
		pd.patch_control_points = 3;
		pd.tesc_spv = stats_triangle_tesc;
		pd.tesc_size = sizeof(stats_triangle_tesc);
		pd.tese_spv = stats_triangle_tese;
		pd.tese_size = sizeof(stats_triangle_tese);
	}
	if (sp->stages & GS) {
		pd.geom_spv = stats_copies_geom;
		pd.geom_size = sizeof(stats_copies_geom);
	}
	struct vkqs_pipeline *p = vkqs_pipeline_rect(ctx, t, &pd);
	VkShaderInstrumentationARM obj = instr_new(ctx, in);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	vkqs_target_begin(ctx, cb, t, 1.0f);
	in->begin(cb, obj);
	if (sp->stages & MESH) {
		const uint32_t push[2] = {2, 0};
		D->vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, p->pipeline);
		D->vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, p->layout, 0, 1, &set,
					   0, NULL);
		D->vkCmdPushConstants(cb, p->layout, MESH, 0, sizeof(push), push);
		D->vkCmdDrawMeshTasksEXT(cb, MESH_GROUPS, 1, 1);
	} else {
		vkqs_draw_rect_n(ctx, cb, p, t, 0, 0, 8, 8, 0.5f, 6);
	}
	in->end(cb);
	vkqs_target_end(ctx, cb);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	return instr_read(ctx, in, obj);
}

/* Every stage of the pipeline has metrics for the draw, and no other
 * ("every instrumented stage that ran has metrics"; a block's stages are
 * "the stages aggregated", so one block may stand for several). */
static void layout_stages_pipeline(struct vkqs_ctx *ctx, const void *param)
{
	const struct stage_pipe *sp = param;
	struct instr *in = instr_require(ctx);
	struct blocks b = stage_draw(ctx, in, sp);
	for (uint32_t i = 0; i < b.count; i++) {
		VKQS_EXPECTF(ctx, b.h[i].resultIndex == 0, "block %u: result index %u of one draw", i,
			     b.h[i].resultIndex);
		VKQS_EXPECTF(ctx, b.h[i].stages && !(b.h[i].stages & ~sp->stages),
			     "block %u: stages 0x%x, the pipeline has 0x%x", i, b.h[i].stages,
			     sp->stages);
	}
	VkShaderStageFlags s = index_stages(&b, 0);
	VKQS_EXPECTF(ctx, s == sp->stages, "the draw's blocks name the stages 0x%x, the pipeline "
					   "ran 0x%x (missing: 0x%x)",
		     s, sp->stages, sp->stages & ~s);
}

/* The "invocations" metric of each stage against the spec's count of
 * invocations: "at least once for each output vertex in a patch"
 * (tessellation control: 2 patches x 3), "at least once for each vertex
 * generated by the tessellator" (evaluation: 2 x 3), "at least once for
 * each primitive" and instance (geometry: 2 triangles x Invocations 2);
 * the task and mesh stages run workgroups of their local size, as a
 * compute dispatch does (values.compute_invocations), every invocation
 * with a side effect: exactly. */
static void values_stage_invocations(struct vkqs_ctx *ctx, const void *param)
{
	const struct stage_pipe *sp = param;
	struct instr *in = instr_require(ctx);
	uint32_t inv = instr_metric(ctx, in, "invocations");
	struct blocks b = stage_draw(ctx, in, sp);
	const struct {
		VkShaderStageFlagBits stage;
		uint64_t n;
		bool exact;
	} want[] = {
		{TCS, 2 * 3, false},
		{TES, 2 * 3, false},
		{GS, 2 * 2, false},
		{TASK, MESH_GROUPS * 6u, true},
		{MESH, MESH_GROUPS * 12u, true},
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		if (!(sp->stages & want[i].stage))
			continue;
		uint64_t v = sum_metric(&b, 0, want[i].stage, inv);
		VKQS_EXPECTF(ctx, want[i].exact ? v == want[i].n : v >= want[i].n,
			     "stage 0x%x: %" PRIu64 " invocations, %s %" PRIu64, want[i].stage, v,
			     want[i].exact ? "expected" : "at least", want[i].n);
	}
}

#define ROW(name, fn, spec) {name, fn, spec}
static const struct vkqs_case cases[] = {
	ROW("metrics.count", metrics_count,
	    "vkEnumeratePhysicalDeviceShaderInstrumentationMetricsARM: numMetrics descriptions, at least 1"),
	{"metrics.incomplete", metrics_incomplete,
	 "vkEnumeratePhysicalDeviceShaderInstrumentationMetricsARM: VK_INCOMPLETE, at most the count",
	 VKQS_PARAMS(short_by, short_by_name)},
	ROW("metrics.names", metrics_names, "VkShaderInstrumentationMetricDescriptionARM: names"),
	ROW("layout.empty_object", layout_empty_object,
	    "vkCreateShaderInstrumentationARM: no metrics before any capture"),
	ROW("layout.packed", layout_packed, SPEC_VALUES),
	{"layout.incomplete", layout_incomplete, SPEC_VALUES, VKQS_PARAMS(fewer, fewer_name)},
	ROW("layout.order", layout_order, SPEC_ORDER),
	ROW("layout.stages", layout_stages,
	    "VkShaderInstrumentationMetricDataHeaderARM::stages: the stages aggregated"),
	{"layout.stages", layout_stages_pipeline,
	 "VkShaderInstrumentationMetricDataHeaderARM::stages: every instrumented stage that ran",
	 VKQS_PARAMS(stage_pipes, stage_pipe_name)},
	{"index.plan", index_plan, SPEC_INDEX, VKQS_PARAMS(plans, plan_name)},
	ROW("index.dispatches", index_dispatch, SPEC_INDEX),
	ROW("index.inactive_draws", index_inactive, SPEC_INDEX),
	ROW("index.recording_order", index_record_order, SPEC_INDEX),
	ROW("index.unsubmitted_recording", index_unsubmitted, SPEC_INDEX),
	ROW("index.rerecorded", index_rerecord, SPEC_INDEX),
	ROW("index.two_objects", index_two_objects,
	    "vkCreateShaderInstrumentationARM: each object's result index starts at 0"),
	ROW("index.secondary", index_secondary,
	    "vkCmdBeginShaderInstrumentationARM: primary and secondary command buffers"),
	ROW("index.indirect_draw", index_indirect, SPEC_INDEX),
	{"values.compute_invocations", values_compute, "the device documents \"invocations\"",
	 VKQS_PARAMS(group_counts, groups_name)},
	{"values.draw_invocations", values_draw, "the device documents \"invocations\"",
	 VKQS_PARAMS(draw_cases, draw_case_name)},
	{"values.stage_invocations", values_stage_invocations,
	 "the device documents \"invocations\"; the shader stages' invocation counts",
	 VKQS_PARAMS(stage_pipes, stage_pipe_name)},
	{"values.aggregate", values_aggregate, SPEC_AGG, VKQS_PARAMS(submit_counts, submit_count_name)},
	ROW("values.clear", values_clear, SPEC_AGG "; clearing is not a reset"),
	{"values.nothing_captured", values_nothing,
	 "VK_PIPELINE_CREATE_2_INSTRUMENT_SHADERS_BIT_ARM and an active object are both needed",
	 VKQS_PARAMS(actives, active_name)},
	{"values.loop", values_loop, "perBasicBlockGranularity: metrics per basic block",
	 VKQS_PARAMS(loop_lengths, loop_name)},
	ROW("values.multiview", values_multiview,
	    "VK_ARM_shader_instrumentation: multiview metrics aggregated across views"),
	ROW("object.many", object_many, "vkCreateShaderInstrumentationARM: independent objects"),
};

VKQS_AREA(instrumentation, cases);
