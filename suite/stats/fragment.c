/* vkqs.stats.fragment.*: fragment shader invocations: a rectangle's fragments, sample
 * shading, scissoring everything away, early tests on occluded fragments and
 * rasterizer discard. */
#include "stats.h"
#include "shaders/frag_atomic_count_frag.h"
#include "shaders/frag_depth_coord_frag.h"
#include "shaders/frag_depth_quarter_frag.h"
#include "shaders/stats_early_tests_atomic_frag.h"

#define FRAG_MASK (BIT(VS) | BIT(FS))

/* Without sample shading the fragment shader runs "at least once" per
 * fragment whatever the sample count; 18.4's description is one per
 * fragment (add_fs). */
static void fragment_rect(struct vkqs_ctx *ctx, const void *param)
{
	VkSampleCountFlagBits samples = *(const VkSampleCountFlagBits *)param;
	struct gfx g = stats_gfx_begin(ctx, samples, false, FRAG_MASK, 1);
	const struct vkqs_pipeline *pipe = stats_rect_pipeline(ctx, g.t);

	stats_query_one_draw(ctx, &g, pipe, RA);

	struct expect e = stats_expect_zero("rect A");
	stats_use_pipeline(&e, STAGES_VS_FS);
	stats_add_natural(&e, VS, 6);
	stats_add_fs(ctx, &e, RA, 1, 1);
	stats_check_query(ctx, g.pool, 0, g.mask, &e);
}

static const VkSampleCountFlagBits sample_params[] = {VK_SAMPLE_COUNT_1_BIT,
						      VK_SAMPLE_COUNT_4_BIT};

static void samples_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "samples_%u", (unsigned)*(const VkSampleCountFlagBits *)param);
}

/* minSampleShading 1.0 at 4 samples: "Sample Shading": at least
 * max(ceil(minSampleShading * rasterizationSamples), 1) = 4 invocations per
 * fully covered pixel ("additional invocations must be executed as
 * specified"). */
static void fragment_sample_shading(struct vkqs_ctx *ctx, const void *param)
{
	vkqs_require_exact_coverage(ctx);
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_4_BIT, false, FRAG_MASK, 1);
	struct gdesc gd = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, .sample_shading = true};
	const struct vkqs_pipeline *pipe = stats_gfx_pipeline(ctx, g.t, &gd);

	stats_query_one_draw(ctx, &g, pipe, RA);

	struct expect e = stats_expect_zero("rect A, 4 samples, minSampleShading 1.0");
	stats_use_pipeline(&e, STAGES_VS_FS);
	stats_add_natural(&e, VS, 6);
	stats_add_fs(ctx, &e, RA, 1, 4);
	stats_check_query(ctx, g.pool, 0, g.mask, &e);
}

/* A fragment shader that counts its invocations with an atomic in its own
 * buffer (a side effect: not skipped, not merged; helper invocations do no
 * atomics). */
struct counted_fs {
	struct vkqs_buffer *buf;
	VkDescriptorSet set;
	VkDescriptorSetLayout dsl;
};

static struct counted_fs counted_fs_create(struct vkqs_ctx *ctx)
{
	if (!ctx->vk->features.features.fragmentStoresAndAtomics)
		vkqs_skip(ctx, "feature fragmentStoresAndAtomics is not supported (the case tells "
			       "whether the fragment shader ran from an atomic it adds)");
	struct counted_fs c;
	c.buf = vkqs_buffer_host(ctx, 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	memset(c.buf->map, 0, 64);
	vkqs_buffer_flush(ctx, c.buf);
	c.set = vkqs_storage_set(ctx, c.buf, VK_SHADER_STAGE_FRAGMENT_BIT, &c.dsl);
	return c;
}

static void counted_fs_bind(struct vkqs_ctx *ctx, VkCommandBuffer cb,
			    const struct vkqs_pipeline *p, const struct counted_fs *c)
{
	D->vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, p->layout, 0, 1, &c->set,
				   0, NULL);
}

/* Orders the fragment shaders' atomics before the host reads them. */
static void fragment_writes_to_host(struct vkqs_ctx *ctx, VkCommandBuffer cb)
{
	vkqs_cmd_to_host_barrier(ctx, cb, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
				 VK_ACCESS_SHADER_WRITE_BIT);
}

static uint32_t counted_fs_read(struct vkqs_ctx *ctx, const struct counted_fs *c)
{
	vkqs_buffer_invalidate(ctx, c->buf);
	uint32_t n;
	memcpy(&n, c->buf->map, sizeof(n));
	return n;
}

/* The shader ran for no fragment: "A fragment shader must not be executed
 * if a fragment operation that executes before fragment shading discards
 * the fragment" (its atomic: Fail).  The statistics counter's own count of
 * such fragments is counter fidelity, which 18.4 leaves to the architecture
 * ("Various device architectures will count these values differently"):
 * above 0 is CompatibilityWarning. */
static void expect_not_shaded(struct vkqs_ctx *ctx, struct expect *e, const struct counted_fs *c,
			      const char *op)
{
	uint32_t ran = counted_fs_read(ctx, c);
	VKQS_EXPECTF(ctx, ran == 0,
		     "%s: the fragment shader's atomic counted %u invocations for fragments the %s "
		     "discards before fragment shading (must not be executed)",
		     e->scene, ran, op);
	e->s[FS] = vkqs_band_natural(0);
}

/* Depth cleared to 0.0; stats_early_tests_atomic.frag declares
 * EarlyFragmentTests.  Query 0 draws rect A at depth 0.5 with LESS: the
 * early depth test discards every fragment, so the shader must not run
 * (expect_not_shaded).  Query 1 draws it with GREATER as the control: the
 * shader runs for every fragment (its atomic), and the statistic counts at
 * least the invocations the atomic saw. */
static void fragment_early_tests_occluded(struct vkqs_ctx *ctx, const void *param)
{
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, true, FRAG_MASK, 2);
	struct counted_fs occ = counted_fs_create(ctx), pass = counted_fs_create(ctx);
	struct vkqs_pipeline_desc desc = {
		.depth_test = true,
		.depth_compare = VK_COMPARE_OP_LESS,
		.frag_spv = stats_early_tests_atomic_frag,
		.frag_size = sizeof(stats_early_tests_atomic_frag),
		.set_layout = occ.dsl,
	};
	const struct vkqs_pipeline *less = vkqs_pipeline_rect(ctx, g.t, &desc);
	desc.depth_compare = VK_COMPARE_OP_GREATER;
	const struct vkqs_pipeline *greater = vkqs_pipeline_rect(ctx, g.t, &desc);

	vkqs_target_begin(ctx, g.cb, g.t, 0.0f);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	counted_fs_bind(ctx, g.cb, less, &occ);
	stats_draw(ctx, g.cb, less, g.t, RA);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	D->vkCmdBeginQuery(g.cb, g.pool, 1, 0);
	counted_fs_bind(ctx, g.cb, greater, &pass);
	stats_draw(ctx, g.cb, greater, g.t, RA);
	D->vkCmdEndQuery(g.cb, g.pool, 1);
	vkqs_target_end(ctx, g.cb);
	fragment_writes_to_host(ctx, g.cb);
	stats_gfx_submit(ctx, &g);

	struct expect occluded = stats_expect_zero("early depth test fails everywhere");
	stats_use_pipeline(&occluded, STAGES_VS_FS);
	stats_add_natural(&occluded, VS, 6);
	expect_not_shaded(ctx, &occluded, &occ, "early depth test");
	stats_check_query(ctx, g.pool, 0, g.mask, &occluded);

	uint32_t ran = counted_fs_read(ctx, &pass);
	uint64_t frags = stats_frag_min(ctx, RA);
	VKQS_EXPECTF(ctx, ran >= frags,
		     "early depth test passes everywhere: the shader's atomic counted %u "
		     "invocations for %" PRIu64 " fragments", ran, frags);
	struct expect passing = stats_expect_zero("early depth test passes everywhere");
	stats_use_pipeline(&passing, STAGES_VS_FS);
	stats_add_natural(&passing, VS, 6);
	stats_add(&passing, FS, ran, ran > 2 * stats_area(RA) ? ran : 2 * stats_area(RA),
		  UNBOUNDED);
	stats_check_query(ctx, g.pool, 1, g.mask, &passing);
}

/* The scissor excludes rect A: "Scissor Test" is a fragment operation
 * before fragment shading, so the shader must not run (expect_not_shaded);
 * clipping is not affected (the vertices are inside the view volume). */
static void fragment_scissor_excludes_all(struct vkqs_ctx *ctx, const void *param)
{
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE_GRAPHICS, 1);
	struct counted_fs c = counted_fs_create(ctx);
	struct vkqs_pipeline_desc desc = {
		.frag_spv = frag_atomic_count_frag,
		.frag_size = sizeof(frag_atomic_count_frag),
		.set_layout = c.dsl,
	};
	const struct vkqs_pipeline *pipe = vkqs_pipeline_rect(ctx, g.t, &desc);
	VkRect2D sc = {{48, 48}, {16, 16}};

	vkqs_target_begin(ctx, g.cb, g.t, 1.0f);
	D->vkCmdSetScissor(g.cb, 0, 1, &sc);
	counted_fs_bind(ctx, g.cb, pipe, &c);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	stats_draw(ctx, g.cb, pipe, g.t, RA);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	vkqs_target_end(ctx, g.cb);
	fragment_writes_to_host(ctx, g.cb);
	stats_gfx_submit(ctx, &g);

	struct expect e = stats_expect_zero("rect A outside the scissor");
	stats_use_pipeline(&e, STAGES_VS_FS);
	stats_add_natural(&e, IA_V, 6);
	stats_add_natural(&e, IA_P, 2);
	stats_add_natural(&e, VS, 6);
	stats_add_natural(&e, CLIP_INV, 2);
	stats_add_lower(&e, CLIP_PRIM, 2);
	expect_not_shaded(ctx, &e, &c, "scissor test");
	stats_check_query(ctx, g.pool, 0, g.mask, &e);
}

/* 18.4: "If a pipeline has rasterizerDiscardEnable enabled, implementations
 * may discard primitives after the final pre-rasterization shader stage.
 * As a result, if rasterizerDiscardEnable is enabled, the clipping input
 * and output primitives counters may not be incremented": 0 up to the
 * usual 2; the vertex stages count as usual; no fragment exists. */
static void fragment_rasterizer_discard(struct vkqs_ctx *ctx, const void *param)
{
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE_GRAPHICS, 1);
	struct gdesc gd = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, .discard = true};
	const struct vkqs_pipeline *pipe = stats_gfx_pipeline(ctx, g.t, &gd);

	stats_query_one_draw(ctx, &g, pipe, RA);

	struct expect e = stats_expect_zero("rasterizer discard");
	stats_use_pipeline(&e, STAGES_VS_FS);
	stats_add_natural(&e, IA_V, 6);
	stats_add_natural(&e, IA_P, 2);
	stats_add_natural(&e, VS, 6);
	stats_add_range(&e, CLIP_INV, 0, 2);
	stats_add_range(&e, CLIP_PRIM, 0, 2);
	stats_check_query(ctx, g.pool, 0, g.mask, &e);
}

/* A vertex-only pipeline: no fragment shader, rasterization on.  The
 * vertex stages and clipping count as for any draw inside the view volume
 * (stats_add_rect_draw's bounds); the fragment shader invocations counter
 * "corresponds to a shading stage which is missing from" the pipeline, so
 * its value is undefined: no verdict (VKQS_SPEC_STATS_MISSING_STAGE). */
static void fragment_no_fragment_shader(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE_GRAPHICS, 1);
	struct gdesc gd = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, .no_fs = true};
	const struct vkqs_pipeline *pipe = stats_gfx_pipeline(ctx, g.t, &gd);

	stats_query_one_draw(ctx, &g, pipe, RA);

	struct expect e = stats_expect_zero("no fragment shader");
	stats_use_pipeline(&e, VK_SHADER_STAGE_VERTEX_BIT);
	stats_add_rect_draw(ctx, &e, RA, 1);
	stats_check_query(ctx, g.pool, 0, g.mask, &e);
}

/* vkCmdClearAttachments (colour, or depth) between two draws inside the
 * query: the draws count as usual; 18.2 lets clears "count towards the
 * results of queries" implementation-dependently, so beyond the draws'
 * description is CompatibilityWarning, below it Fail. */
static const bool clear_depth[] = {false, true};
static void clear_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", *(const bool *)param ? "depth" : "color");
}

static void fragment_clear_attachments(struct vkqs_ctx *ctx, const void *param)
{
	bool depth = *(const bool *)param;
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, depth, CORE_GRAPHICS, 1);
	const struct vkqs_pipeline *pipe = stats_rect_pipeline(ctx, g.t);
	VkClearAttachment ca = {.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT,
				.clearValue.color.float32 = {0.0f, 1.0f, 0.0f, 1.0f}};
	if (depth)
		ca = (VkClearAttachment){.aspectMask = VK_IMAGE_ASPECT_DEPTH_BIT,
					 .clearValue.depthStencil = {0.5f, 0}};
	VkClearRect cr = {{{0, 0}, {FB, FB}}, 0, 1};

	vkqs_target_begin(ctx, g.cb, g.t, 1.0f);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	stats_draw(ctx, g.cb, pipe, g.t, RA);
	D->vkCmdClearAttachments(g.cb, 1, &ca, 1, &cr);
	stats_draw(ctx, g.cb, pipe, g.t, RB);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	vkqs_target_end(ctx, g.cb);
	stats_gfx_submit(ctx, &g);

	struct expect e = stats_expect_zero(depth ? "two draws around a depth clear"
						  : "two draws around a colour clear");
	stats_add_rect_draw(ctx, &e, RA, 1);
	stats_add_rect_draw(ctx, &e, RB, 1);
	stats_loosen_for_clears(&e);
	stats_check_query(ctx, g.pool, 0, g.mask, &e);
}

/* A subpass with a depth attachment and no colour attachment; the fragment
 * shader's one result is the depth it writes (tested LESS against the
 * cleared 1.0, written).  frag_depth_coord.frag writes a depth that varies
 * with the location, so no fragments may be merged and every fragment it
 * shades affects the framebuffer: the counters are a rect draw's
 * (stats_add_rect_draw), the fragment shader at least once per fragment.  A
 * driver that drops fragment shading, or the draw, for want of a colour
 * attachment fails.  frag_depth_quarter.frag (`constant`) writes 0.25
 * everywhere: "statically computes the same values for different
 * framebuffer locations", so fragments may be merged (VKQS_SPEC_FS_MERGE)
 * and fewer invocations than fragments is CompatibilityWarning. */
static void depth_only(struct vkqs_ctx *ctx, bool constant)
{
	struct vkqs_target *t = vkqs_target_create_depth_only(ctx, FB, FB, VK_SAMPLE_COUNT_1_BIT);
	struct gfx g = stats_gfx_begin_on(ctx, t, CORE_GRAPHICS, 1);
	struct vkqs_pipeline_desc desc = {
		.depth_test = true,
		.depth_write = true,
		.depth_compare = VK_COMPARE_OP_LESS,
		.frag_spv = constant ? frag_depth_quarter_frag : frag_depth_coord_frag,
		.frag_size = constant ? sizeof(frag_depth_quarter_frag) : sizeof(frag_depth_coord_frag),
	};
	const struct vkqs_pipeline *pipe = vkqs_pipeline_rect(ctx, t, &desc);

	stats_query_one_draw(ctx, &g, pipe, RA);

	struct expect e = stats_expect_zero(constant ? "depth attachment only, shader writes "
						       "a constant depth"
						     : "depth attachment only, shader writes a "
						       "per-fragment depth");
	stats_add_rect_draw(ctx, &e, RA, 1);
	if (constant) {
		e.s[FS] = vkqs_band_exact(0);
		stats_add_fs_static(ctx, &e, RA, 1, 1);
	}
	stats_check_query(ctx, g.pool, 0, g.mask, &e);
}

static void fragment_depth_only(struct vkqs_ctx *ctx, const void *param)
{
	depth_only(ctx, false);
}

static void fragment_depth_only_constant(struct vkqs_ctx *ctx, const void *param)
{
	depth_only(ctx, true);
}

/* A fragment shader with a side effect (an atomic add per invocation)
 * drawn twice over rect A, the second draw covering the first exactly.
 * "Fragment Shading" lets a fragment shader invocation be skipped only
 * where a later primitive's shader overwrites all its results; an atomic
 * is not overwritten, so every fragment of both draws is shaded at least
 * once: the counter is at least 2 * (rect A's fragments).  Helper
 * invocations perform no atomics, so each invocation the counter saw is one
 * the fragment shader invocations statistic must count ("each time the
 * fragment shader is invoked"): the statistic is at least the counter.  In
 * the primary, or in a secondary that inherits the query
 * (inheritedQueries). */
static const bool in_secondary[] = {false, true};
static void where_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", *(const bool *)param ? "secondary" : "primary");
}

static void fragment_side_effects(struct vkqs_ctx *ctx, const void *param)
{
	bool secondary = *(const bool *)param;
	if (!ctx->vk->features.features.fragmentStoresAndAtomics)
		vkqs_skip(ctx, "feature fragmentStoresAndAtomics is not supported");
	if (secondary)
		vkqs_require_feature(ctx, "inheritedQueries");
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, FRAG_MASK, 1);
	struct vkqs_buffer *buf = vkqs_buffer_host(ctx, 256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	memset(buf->map, 0, 256);
	vkqs_buffer_flush(ctx, buf);
	VkDescriptorSetLayout dsl;
	VkDescriptorSet set = vkqs_storage_set(ctx, buf, VK_SHADER_STAGE_FRAGMENT_BIT, &dsl);
	struct vkqs_pipeline_desc desc = {
		.frag_spv = frag_atomic_count_frag,
		.frag_size = sizeof(frag_atomic_count_frag),
		.set_layout = dsl,
	};
	const struct vkqs_pipeline *pipe = vkqs_pipeline_rect(ctx, g.t, &desc);

	/* the draws: in the primary's render pass, or in a secondary */
	VkCommandBuffer sec = VK_NULL_HANDLE, draw_cb = g.cb;
	if (secondary) {
		VkCommandBufferInheritanceInfo ii = {.pipelineStatistics = FRAG_MASK};
		sec = draw_cb = vkqs_cmd_begin_secondary(
			ctx, &ctx->vk->gfx, g.t, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, &ii);
	} else {
		vkqs_target_begin(ctx, g.cb, g.t, 1.0f);
		D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	}
	D->vkCmdBindDescriptorSets(draw_cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe->layout, 0, 1,
				   &set, 0, NULL);
	stats_draw(ctx, draw_cb, pipe, g.t, RA);
	stats_draw(ctx, draw_cb, pipe, g.t, RA);
	struct expect e = stats_expect_zero("two draws of rect A, shader with an atomic");
	stats_use_pipeline(&e, STAGES_VS_FS);
	if (secondary) {
		/* the query contains the render pass instance: its load
		 * operation may count (stats_loosen_for_clears) */
		vkqs_cmd_end(ctx, sec);
		D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
		vkqs_target_begin_ex(ctx, g.cb, g.t, 1.0f, 0,
				     VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
		D->vkCmdExecuteCommands(g.cb, 1, &sec);
		vkqs_target_end(ctx, g.cb);
		D->vkCmdEndQuery(g.cb, g.pool, 0);
	} else {
		D->vkCmdEndQuery(g.cb, g.pool, 0);
		vkqs_target_end(ctx, g.cb);
	}
	fragment_writes_to_host(ctx, g.cb);
	stats_gfx_submit(ctx, &g);
	vkqs_buffer_invalidate(ctx, buf);
	uint32_t counted;
	memcpy(&counted, buf->map, sizeof(counted));

	uint64_t frags = stats_frag_min(ctx, RA);
	VKQS_EXPECTF(ctx, counted >= 2 * frags,
		     "the shader's atomic counted %u invocations for two draws of a rectangle of "
		     "%llu fragments: at least %llu expected (a shader with side effects is not "
		     "skipped)", counted, (unsigned long long)frags,
		     (unsigned long long)(2 * frags));
	stats_add_natural(&e, VS, 12);
	/* helpers at most double the description (stats_add_fs) */
	uint64_t warn = 2 * 2 * stats_area(RA);
	stats_add(&e, FS, counted, counted > warn ? counted : warn, UNBOUNDED);
	if (secondary)
		stats_loosen_for_clears(&e);
	stats_check_query(ctx, g.pool, 0, g.mask, &e);
}

static const struct vkqs_case cases[] = {
	{.name = "fragment.rect",
	 .fn = fragment_rect,
	 .spec = FS_SPEC,
	 .params = VKQS_PARAMS(sample_params, samples_name)},
	{.name = "fragment.sample_shading_samples_4",
	 .fn = fragment_sample_shading,
	 .spec = FS_SPEC "; Sample Shading: minSampleShading 1.0 invokes the shader per "
			 "covered sample"},
	{.name = "fragment.early_tests_occluded_is_zero",
	 .fn = fragment_early_tests_occluded,
	 .spec = "fragops.adoc Fragment Shading: \"A fragment shader must not be executed if a "
		 "fragment operation that executes before fragment shading discards the "
		 "fragment\" (EarlyFragmentTests; the shader's atomic shows whether it ran; the "
		 "counter above 0: CompatibilityWarning)"},
	{.name = "fragment.scissor_excludes_all_is_zero",
	 .fn = fragment_scissor_excludes_all,
	 .spec = "fragops.adoc Fragment Shading: \"A fragment shader must not be executed if a "
		 "fragment operation that executes before fragment shading discards the "
		 "fragment\" (the scissor test; the shader's atomic shows whether it ran; the "
		 "counter above 0: CompatibilityWarning)"},
	{.name = "fragment.rasterizer_discard",
	 .fn = fragment_rasterizer_discard,
	 .spec = "18.4: with rasterizerDiscardEnable the clipping input and output "
		 "primitives counters may not be incremented; no fragment is shaded"},
	{.name = "fragment.no_fragment_shader",
	 .fn = fragment_no_fragment_shader,
	 .spec = COUNTERS_SPEC "; " VKQS_SPEC_STATS_MISSING_STAGE " (the fragment counter of a "
		 "pipeline without a fragment shader: no verdict)"},
	{.name = "fragment.clear_attachments",
	 .fn = fragment_clear_attachments,
	 .spec = COUNTERS_SPEC "; 18.2: clears may count towards the results of queries "
		 "(vkCmdClearAttachments inside a statistics query)",
	 .params = VKQS_PARAMS(clear_depth, clear_name)},
	{.name = "fragment.side_effects",
	 .fn = fragment_side_effects,
	 .spec = FS_SPEC "; Fragment Shading: only a shader whose results a later primitive "
		 "overwrites may be skipped, so a shader with an atomic runs for every fragment",
	 .params = VKQS_PARAMS(in_secondary, where_name)},
	{.name = "fragment.depth_only",
	 .fn = fragment_depth_only,
	 .spec = FS_SPEC " (a subpass with a depth attachment and no colour attachment, "
		 "the fragment shader writing a per-fragment depth)"},
	{.name = "fragment.depth_only_constant",
	 .fn = fragment_depth_only_constant,
	 .spec = FS_SPEC_STATIC " (a subpass with a depth attachment and no colour attachment, "
		 "the fragment shader writing a constant depth)"},
};

VKQS_GROUP(stats, fragment, cases);
