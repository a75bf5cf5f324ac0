/* Mesh shader queries (spec 18.9, with the task and mesh counters of 18.4;
 * VK_EXT_mesh_shader): VK_QUERY_TYPE_MESH_PRIMITIVES_GENERATED_EXT counts
 * for direct and indirect vkCmdDrawMeshTasks*EXT draws with and without a
 * task shader, 32/64-bit, through vkGetQueryPoolResults and
 * vkCmdCopyQueryPoolResults, for the three output topologies, with face
 * culling, gl_CullPrimitiveEXT and rasterizer discard, in a multiview
 * subpass; VK_QUERY_PIPELINE_STATISTIC_TASK/MESH_SHADER_INVOCATIONS_BIT_EXT
 * for the same draws, beside a compute dispatch, with rasterizer discard and
 * in a multiview subpass.
 *
 * The work.  The task and mesh shaders (suite/mesh/shaders/) count what
 * they run in a host-visible "Counts" buffer with atomics: each task, mesh
 * and compute invocation adds 1 to its stage's word, each mesh workgroup 1
 * to mesh_workgroups and the primitives it emits to primitives.  A mesh
 * workgroup is 4 x 3 invocations and emits pc.prims (push constant, at most
 * 12) primitives; a task workgroup is 2 x 3 invocations and workgroup w
 * (flattened) launches w % 3 mesh workgroups.  Every primitive covers pixel
 * centres of its own 4 x 4 cell of a 64 x 64 framebuffer (none is clipped,
 * none is empty).  The expected counts (struct tally) follow from the draw
 * parameters; the Counts buffer must agree with them before any query is
 * judged, so a count of 0 cannot come from work that never ran.
 *
 * What the spec fixes.
 * - Primitives generated (18.9): "the mesh-primitives-generated count is
 *   incremented every time a primitive emitted from the mesh shader stage
 *   reaches the fragment shader stage" and "starts from zero"; 18.4's
 *   latitude ("Various device architectures will count these values
 *   differently") is about pipeline statistics only, so the count is exact.
 *   A face-culled primitive does not reach the fragment shader stage (the
 *   extension's proposal agrees: it counts primitives "not culled by fixed
 *   function culling").  Primitives culled by gl_CullPrimitiveEXT or
 *   discarded by rasterizerDiscardEnable do not reach it either, but the
 *   proposal's wording counts them (they are not culled by fixed-function
 *   culling) and the primitives generated query of 18.8 counts before
 *   rasterizer discard: there, the count of every emitted primitive is a
 *   CompatibilityWarning, any other value but the 18.9 one a Fail.
 * - Statistics (18.4, 18.9): the counters count "the number of task (mesh)
 *   shader invocations", "incremented every time the task (mesh) shader is
 *   invoked", and "function the same way that invocation queries work for
 *   other shader stages".  Every invocation here has a side effect, so none
 *   may be skipped (the compute counter's rule in 18.4 lets invocations be
 *   skipped only "as long as the results of rendering otherwise remain
 *   unchanged"): fewer than the invocations the draws make is Fail; more is
 *   a CompatibilityWarning (suite/stats/stats.c's bands: "Various device architectures
 *   will count these values differently").  18.4 adds that the difference
 *   "is especially true if the pipeline contains mesh or task shaders, which
 *   may affect several of the counters in unexpected ways".  The counter of
 *   a stage missing from a pipeline the query used (the task counter of a
 *   pipeline without a task shader, the compute counter around a mesh draw,
 *   the task and mesh counters around a dispatch) is undefined since
 *   1.3.282: no verdict (docs/verdicts.md); any counter of a query with no
 *   commands must be 0.
 * - Render pass instances: a query that contains one (CLEAR load op) may
 *   also count the clear (18.2: "Rendering operations such as clears ...
 *   may count towards the results of queries"), so there more is a
 *   CompatibilityWarning, not a Fail.
 * - Multiview (18.2): a query in a subpass with N views uses N consecutive
 *   queries whose sum "must accurately reflect the total result of the
 *   query summed over all views".  Each view rasterizes every primitive, so
 *   the primitives sum is N times the count of one view; the sum of one view
 *   (a count made once for all views, which CTS accepts) is a
 *   CompatibilityWarning.  A mesh or task shader may run once for all views
 *   or once per view, so its counter sums to between once and N times the
 *   invocations (CTS likewise).
 *
 * Task and mesh shaders need SPIR-V 1.4: cmake/spirv_header.cmake compiles
 * suite/shaders/mesh_*.{mesh,task} for Vulkan 1.2. */
#include <stdio.h>
#include <string.h>

#include "verdict.h"
#include "vkutil.h"

#include "shaders/mesh_counts_task.h"
#include "shaders/mesh_lines_mesh.h"
#include "shaders/mesh_points_mesh.h"
#include "shaders/mesh_triangles_mesh.h"
#include "shaders/color_frag.h"
#include "shaders/mesh_counts_comp.h"

#define D (VKQS_D(ctx))
#define DEV (VKQS_DEV(ctx))

#define FB 64u
#define MESH_LS 12u   /* mesh shaders' local size 4 x 3 x 1 */
#define TASK_LS 6u    /* mesh_counts.task's 2 x 3 x 1 */
#define COMPUTE_LS 8u /* mesh_counts.comp's 4 x 2 x 1 */
#define NQ 3u         /* queries of the full scene */
#define UNBOUNDED UINT64_MAX
/* Pre-fill of copy destinations and of the bytes after results: not a
 * plausible count or availability word. */
#define GUARD 0xA5u
#define GUARD_BYTES 32u

#define STAT_CS VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT
#define STAT_TASK VK_QUERY_PIPELINE_STATISTIC_TASK_SHADER_INVOCATIONS_BIT_EXT
#define STAT_MESH VK_QUERY_PIPELINE_STATISTIC_MESH_SHADER_INVOCATIONS_BIT_EXT

/* Deferred destruction (vkqs_defer_destroy: vkDestroy* of the type) ----- */

#define DEFER(objtype, h) vkqs_defer_destroy(ctx, VK_OBJECT_TYPE_##objtype, (void *)(h))

/* Requirements ------------------------------------------------------------- */

struct mesh_caps {
	VkPhysicalDeviceMeshShaderFeaturesEXT f;
	VkPhysicalDeviceMeshShaderPropertiesEXT p;
};

/* Ends the case as NotSupported unless the device has VK_EXT_mesh_shader
 * with meshShader, meshShaderQueries (VkQueryPoolCreateInfo's valid usage:
 * both the query type and the two statistics need it) and, for `task`,
 * taskShader.  The fixture enables every mesh
 * feature the device has (framework/device.c), so supported is enabled. */
static struct mesh_caps mesh_require(struct vkqs_ctx *ctx, bool task)
{
	struct mesh_caps c;
	memset(&c, 0, sizeof(c));
	if (!vkqs_device_has_ext(&ctx->vk->info, VK_EXT_MESH_SHADER_EXTENSION_NAME))
		vkqs_skip(ctx, "extension %s is not supported", VK_EXT_MESH_SHADER_EXTENSION_NAME);
	c.f.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_FEATURES_EXT;
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &c.f,
	};
	vkGetPhysicalDeviceFeatures2(ctx->vk->phys, &f2);
	c.p.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_PROPERTIES_EXT;
	VkPhysicalDeviceProperties2 p2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
		.pNext = &c.p,
	};
	vkGetPhysicalDeviceProperties2(ctx->vk->phys, &p2);
	if (!c.f.meshShader)
		vkqs_skip(ctx, "feature VK_EXT_mesh_shader.meshShader is not supported");
	vkqs_require_feature(ctx, "VK_EXT_mesh_shader.meshShaderQueries");
	if (task && !c.f.taskShader)
		vkqs_skip(ctx, "feature VK_EXT_mesh_shader.taskShader is not supported");
	vkqs_require_queue(ctx, &ctx->vk->gfx, "graphics");
	return c;
}

static void require_stats(struct vkqs_ctx *ctx)
{
	vkqs_require_feature(ctx, "pipelineStatisticsQuery");
}

/* Two views in one subpass: multiview, multiviewMeshShader (a mesh
 * pipeline for a subpass with a view mask needs it) and
 * maxMeshMultiviewViewCount >= 2 (the view indices of a mesh pipeline must
 * be below it). */
#define VIEWS 2u
static void require_multiview(struct vkqs_ctx *ctx, const struct mesh_caps *c)
{
	if (!ctx->vk->f11.multiview)
		vkqs_skip(ctx, "feature multiview is not supported");
	vkqs_require_feature(ctx, "VK_EXT_mesh_shader.multiviewMeshShader");
	if (c->p.maxMeshMultiviewViewCount < VIEWS)
		vkqs_skip(ctx, "maxMeshMultiviewViewCount is %u, below %u views",
			  c->p.maxMeshMultiviewViewCount, VIEWS);
}

/* Expected work ------------------------------------------------------------- */

/* What a sequence of draws runs. */
struct tally {
	uint64_t task_inv, mesh_inv, mesh_groups, emitted, visible, compute_inv;
};

/* One vkCmdDrawMeshTasksEXT: workgroup counts and pc.prims. */
struct mdraw {
	uint32_t x, y, z, prims;
};

/* The full scene's draws: A and B, one of no workgroups (Z) and one whose
 * workgroups emit no primitive (E).  A's 5 and B's 7 primitives per
 * workgroup are odd, so culling the odd-numbered ones keeps a count that
 * culling the even-numbered ones (or half of them) would not give. */
static const struct mdraw DRAW_A = {3, 2, 1, 5};
static const struct mdraw DRAW_B = {2, 1, 2, 7};
static const struct mdraw DRAW_Z = {0, 1, 1, 5};
static const struct mdraw DRAW_E = {2, 1, 1, 0};

/* Mesh workgroups that W task workgroups launch: workgroup w launches
 * w % 3 (mesh_counts.task), 3 per full cycle of 3. */
static uint64_t launched_mesh_groups(uint64_t w)
{
	uint64_t r = w % 3;
	return 3 * (w / 3) + r * (r - 1) / 2;
}

enum topo { TOPO_TRIANGLES, TOPO_LINES, TOPO_POINTS };
static const char *const topo_tokens[] = {"triangles", "lines", "points"};

struct mdesc {
	enum topo topo;
	bool task;           /* mesh_counts.task before the mesh shader */
	bool discard;        /* rasterizerDiscardEnable (no fragment shader) */
	bool cull_back;      /* cullMode BACK, odd-numbered triangles back-facing */
	bool cull_primitive; /* odd-numbered triangles set gl_CullPrimitiveEXT */
};

struct mpipe {
	struct mdesc d;
	VkPipeline pipeline;
	uint32_t flags; /* the mesh shader's pc.flags */
};

/* Primitives of a workgroup that reach rasterization: the even-numbered
 * ones of 0 .. prims - 1 when the odd ones are culled. */
static uint64_t visible_prims(const struct mpipe *p, uint32_t prims)
{
	return p->d.cull_back || p->d.cull_primitive ? (prims + 1u) / 2u : prims;
}

static void tally_draw(struct tally *t, const struct mpipe *p, struct mdraw d)
{
	uint64_t groups = (uint64_t)d.x * d.y * d.z, mesh = groups;
	if (p->d.task) {
		t->task_inv += groups * TASK_LS;
		mesh = launched_mesh_groups(groups);
	}
	t->mesh_groups += mesh;
	t->mesh_inv += mesh * MESH_LS;
	t->emitted += mesh * d.prims;
	t->visible += mesh * visible_prims(p, d.prims);
}

/* Environment: target, descriptors, Counts buffer, command buffer ---------- */

struct menv {
	uint32_t views;              /* 0: no multiview */
	struct vkqs_target *t;       /* without multiview */
	VkRenderPass rp;
	VkFramebuffer fb;
	VkDescriptorSetLayout dsl;
	VkDescriptorSet set;
	VkPipelineLayout layout;     /* set 0: Counts; push constants: mesh stage */
	struct vkqs_buffer *counts;  /* the shaders' Counts block */
	VkCommandBuffer cb;
	struct tally total;          /* everything the command buffer runs */
};

#define COUNTS_WORDS 5u
enum { W_TASK, W_MESH, W_GROUPS, W_PRIMS, W_COMPUTE };

struct push {
	uint32_t prims, flags;
};

/* A 64 x 64 R8G8B8A8 2D array image of `views` layers, a render pass whose
 * one subpass has view mask (1 << views) - 1 (VkRenderPassMultiviewCreateInfo)
 * and its framebuffer. */
static void multiview_target(struct vkqs_ctx *ctx, struct menv *e)
{
	VkImage img = vkqs_image_create(ctx, VK_FORMAT_R8G8B8A8_UNORM, FB, FB, e->views,
					VK_SAMPLE_COUNT_1_BIT, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
	VkImageView view = vkqs_image_view(ctx, img, VK_IMAGE_VIEW_TYPE_2D_ARRAY,
					   VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT,
					   e->views);

	VkAttachmentDescription att =
		vkqs_attachment_desc(VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_1_BIT, false);
	VkAttachmentReference ref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
	VkSubpassDescription sub = {
		.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
		.colorAttachmentCount = 1,
		.pColorAttachments = &ref,
	};
	uint32_t mask = (1u << e->views) - 1u;
	VkRenderPassMultiviewCreateInfo mv = {
		.sType = VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO,
		.subpassCount = 1,
		.pViewMasks = &mask,
	};
	VkRenderPassCreateInfo rci = {
		.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
		.pNext = &mv,
		.attachmentCount = 1,
		.pAttachments = &att,
		.subpassCount = 1,
		.pSubpasses = &sub,
	};
	VKQS_CHECK(ctx, D->vkCreateRenderPass(DEV, &rci, NULL, &e->rp));
	DEFER(RENDER_PASS, e->rp);
	e->fb = vkqs_framebuffer_create(ctx, e->rp, &view, 1, FB, FB);
}

/* The target (`views` > 0: multiview), the Counts buffer zeroed and bound
 * as set 0 for the task, mesh and compute stages, the pipeline layout, and
 * a command buffer in the recording state. */
static struct menv *menv_create(struct vkqs_ctx *ctx, uint32_t views)
{
	struct menv *e = vkqs_alloc(ctx, sizeof(*e));
	memset(e, 0, sizeof(*e));
	e->views = views;
	if (views) {
		multiview_target(ctx, e);
	} else {
		e->t = vkqs_target_create(ctx, FB, FB, VK_SAMPLE_COUNT_1_BIT, false);
		e->rp = e->t->render_pass;
		e->fb = e->t->framebuffer;
	}

	e->counts = vkqs_buffer_host(ctx, COUNTS_WORDS * 4ull, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	memset(e->counts->map, 0, COUNTS_WORDS * 4ull);
	vkqs_buffer_flush(ctx, e->counts);

	e->set = vkqs_storage_set(ctx, e->counts,
				  VK_SHADER_STAGE_TASK_BIT_EXT | VK_SHADER_STAGE_MESH_BIT_EXT |
					  VK_SHADER_STAGE_COMPUTE_BIT,
				  &e->dsl);

	VkPushConstantRange pcr = {VK_SHADER_STAGE_MESH_BIT_EXT, 0, sizeof(struct push)};
	VkPipelineLayoutCreateInfo lci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
		.setLayoutCount = 1,
		.pSetLayouts = &e->dsl,
		.pushConstantRangeCount = 1,
		.pPushConstantRanges = &pcr,
	};
	VKQS_CHECK(ctx, D->vkCreatePipelineLayout(DEV, &lci, NULL, &e->layout));
	DEFER(PIPELINE_LAYOUT, e->layout);

	e->cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	return e;
}

static void rp_begin(struct vkqs_ctx *ctx, struct menv *e)
{
	if (e->t) {
		vkqs_target_begin(ctx, e->cb, e->t, 1.0f);
		return;
	}
	VkClearValue clear = {.color = {.float32 = {0, 0, 0, 0}}};
	VkRenderPassBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
		.renderPass = e->rp,
		.framebuffer = e->fb,
		.renderArea = {{0, 0}, {FB, FB}},
		.clearValueCount = 1,
		.pClearValues = &clear,
	};
	D->vkCmdBeginRenderPass(e->cb, &bi, VK_SUBPASS_CONTENTS_INLINE);
	VkViewport vp = {0, 0, (float)FB, (float)FB, 0.0f, 1.0f};
	VkRect2D sc = {{0, 0}, {FB, FB}};
	D->vkCmdSetViewport(e->cb, 0, 1, &vp);
	D->vkCmdSetScissor(e->cb, 0, 1, &sc);
}

static void rp_end(struct vkqs_ctx *ctx, struct menv *e)
{
	D->vkCmdEndRenderPass(e->cb);
}

/* Makes the shaders' atomics and any query copy visible to the host, then
 * submits and waits. */
static void menv_submit(struct vkqs_ctx *ctx, struct menv *e)
{
	VkMemoryBarrier mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_HOST_READ_BIT,
	};
	D->vkCmdPipelineBarrier(e->cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
				VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, e->cb);
}

/* The Counts buffer against what the command buffer was made to run: the
 * shaders ran every invocation exactly once, launched the mesh workgroups
 * the task shader asked for and emitted the primitives pc.prims says.  In
 * a multiview subpass a mesh shader may run once for all views or once
 * per view, so mesh-side words may be `views` times the count; likewise,
 * independently, the task shader's. */
static void check_counts(struct vkqs_ctx *ctx, const struct menv *e)
{
	vkqs_buffer_invalidate(ctx, e->counts);
	uint32_t w[COUNTS_WORDS];
	memcpy(w, e->counts->map, sizeof(w));
	const struct tally *t = &e->total;
	uint64_t km = 1, kt = 1;
	if (e->views > 1 && w[W_GROUPS] == t->mesh_groups * e->views)
		km = e->views;
	if (e->views > 1 && w[W_TASK] == t->task_inv * e->views)
		kt = e->views;
	VKQS_EXPECTF(ctx,
		     w[W_TASK] == t->task_inv * kt && w[W_MESH] == t->mesh_inv * km &&
			     w[W_GROUPS] == t->mesh_groups * km && w[W_PRIMS] == t->emitted * km &&
			     w[W_COMPUTE] == t->compute_inv,
		     "the shaders did not run as recorded (shader execution, not the query): "
		     "task invocations %u (expected %" PRIu64 "), mesh invocations %u (%" PRIu64
		     "), mesh workgroups %u (%" PRIu64 "), primitives emitted %u (%" PRIu64
		     "), compute invocations %u (%" PRIu64 ")%s",
		     w[W_TASK], t->task_inv * kt, w[W_MESH], t->mesh_inv * km, w[W_GROUPS],
		     t->mesh_groups * km, w[W_PRIMS], t->emitted * km, w[W_COMPUTE],
		     t->compute_inv, e->views > 1 ? " (per view or once for all views)" : "");
}

/* Pipelines ---------------------------------------------------------------- */

static struct mpipe *mpipe_create(struct vkqs_ctx *ctx, const struct menv *e,
				  const struct mdesc *d)
{
	struct mpipe *p = vkqs_alloc(ctx, sizeof(*p));
	p->d = *d;
	p->flags = (d->cull_back ? 1u : 0u) | (d->cull_primitive ? 2u : 0u);

	VkPipelineShaderStageCreateInfo stages[3];
	uint32_t n = 0;
#define STAGE(bit, code)                                                      \
	stages[n++] = (VkPipelineShaderStageCreateInfo){                      \
		.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, \
		.stage = (bit),                                               \
		.module = vkqs_shader_module(ctx, (code), sizeof(code)),           \
		.pName = "main",                                              \
	}
	if (d->task)
		STAGE(VK_SHADER_STAGE_TASK_BIT_EXT, mesh_counts_task);
	if (d->topo == TOPO_LINES)
		STAGE(VK_SHADER_STAGE_MESH_BIT_EXT, mesh_lines_mesh);
	else if (d->topo == TOPO_POINTS)
		STAGE(VK_SHADER_STAGE_MESH_BIT_EXT, mesh_points_mesh);
	else
		STAGE(VK_SHADER_STAGE_MESH_BIT_EXT, mesh_triangles_mesh);
	/* With rasterizer discard the pipeline has no fragment shader state
	 * (VUID-VkGraphicsPipelineCreateInfo-pStages-06894). */
	if (!d->discard)
		STAGE(VK_SHADER_STAGE_FRAGMENT_BIT, color_frag);
#undef STAGE

	VkPipelineViewportStateCreateInfo vps = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
		.viewportCount = 1,
		.scissorCount = 1,
	};
	VkPipelineRasterizationStateCreateInfo rs = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
		.rasterizerDiscardEnable = d->discard,
		.polygonMode = VK_POLYGON_MODE_FILL,
		.cullMode = d->cull_back ? VK_CULL_MODE_BACK_BIT : VK_CULL_MODE_NONE,
		.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE,
		.lineWidth = 1.0f,
	};
	VkPipelineMultisampleStateCreateInfo ms = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
		.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT,
	};
	VkPipelineColorBlendAttachmentState cba = {
		.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
				  VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT,
	};
	VkPipelineColorBlendStateCreateInfo cb = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
		.attachmentCount = 1,
		.pAttachments = &cba,
	};
	static const VkDynamicState dyn[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
	VkPipelineDynamicStateCreateInfo dy = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
		.dynamicStateCount = 2,
		.pDynamicStates = dyn,
	};
	/* No vertex input or input assembly state: a mesh pipeline has none
	 * (spec "Graphics Pipelines": the vertex input state subset is absent
	 * when the pipeline has a mesh shader). */
	VkGraphicsPipelineCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
		.stageCount = n,
		.pStages = stages,
		.pViewportState = &vps,
		.pRasterizationState = &rs,
		.pMultisampleState = &ms,
		.pColorBlendState = &cb,
		.pDynamicState = &dy,
		.layout = e->layout,
		.renderPass = e->rp,
		.subpass = 0,
	};
	VKQS_CHECK(ctx, D->vkCreateGraphicsPipelines(DEV, VK_NULL_HANDLE, 1, &ci, NULL,
						     &p->pipeline));
	DEFER(PIPELINE, p->pipeline);
	return p;
}

static void mbind(struct vkqs_ctx *ctx, struct menv *e, const struct mpipe *p)
{
	D->vkCmdBindPipeline(e->cb, VK_PIPELINE_BIND_POINT_GRAPHICS, p->pipeline);
	D->vkCmdBindDescriptorSets(e->cb, VK_PIPELINE_BIND_POINT_GRAPHICS, e->layout, 0, 1,
				   &e->set, 0, NULL);
}

static void mpush(struct vkqs_ctx *ctx, struct menv *e, const struct mpipe *p, uint32_t prims)
{
	struct push pc = {prims, p->flags};
	D->vkCmdPushConstants(e->cb, e->layout, VK_SHADER_STAGE_MESH_BIT_EXT, 0, sizeof(pc), &pc);
}

/* Records draw d and adds it to the total and to `q` (the tally of the
 * query active around it; NULL: none). */
static void mdraw(struct vkqs_ctx *ctx, struct menv *e, const struct mpipe *p, struct mdraw d,
		  struct tally *q)
{
	mpush(ctx, e, p, d.prims);
	D->vkCmdDrawMeshTasksEXT(e->cb, d.x, d.y, d.z);
	tally_draw(&e->total, p, d);
	if (q)
		tally_draw(q, p, d);
}

/* Query pools -------------------------------------------------------------- */

/* Pools of different types are active at once; a scene begins and ends
 * query q of each. */
struct qset {
	VkQueryPool pool[2];
	uint32_t n;
	VkQueryControlFlags flags[2];
};

static void qbegin(struct vkqs_ctx *ctx, struct menv *e, const struct qset *s, uint32_t q)
{
	for (uint32_t i = 0; i < s->n; i++)
		D->vkCmdBeginQuery(e->cb, s->pool[i], q, s->flags[i]);
}

static void qend(struct vkqs_ctx *ctx, struct menv *e, const struct qset *s, uint32_t q)
{
	for (uint32_t i = 0; i < s->n; i++)
		D->vkCmdEndQuery(e->cb, s->pool[i], q);
}

static void qreset(struct vkqs_ctx *ctx, struct menv *e, const struct qset *s, uint32_t count)
{
	for (uint32_t i = 0; i < s->n; i++)
		D->vkCmdResetQueryPool(e->cb, s->pool[i], 0, count);
}

static VkQueryPool prims_pool(struct vkqs_ctx *ctx, uint32_t count)
{
	return vkqs_query_pool(ctx, VK_QUERY_TYPE_MESH_PRIMITIVES_GENERATED_EXT, count, 0);
}

/* Readback ----------------------------------------------------------------- */

/* Queries [first, first + count) of a pool with `nvals` values each, read
 * WAIT | WITH_AVAILABILITY at 32 or 64 bits with a stride of exactly one
 * query, through vkGetQueryPoolResults after the submission or through
 * vkCmdCopyQueryPoolResults recorded before it. */
struct readout {
	VkQueryPool pool;
	uint32_t first, count, nvals;
	bool copy, is64;
	VkDeviceSize stride;
	struct vkqs_buffer *dst;
};

static struct readout readout_make(VkQueryPool pool, uint32_t first, uint32_t count,
				   uint32_t nvals, bool copy, bool is64)
{
	struct readout r = {pool, first, count, nvals, copy, is64, 0, NULL};
	r.stride = (nvals + 1u) * (is64 ? 8u : 4u);
	return r;
}

static VkQueryResultFlags readout_flags(const struct readout *r)
{
	return VK_QUERY_RESULT_WAIT_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT |
	       (r->is64 ? VK_QUERY_RESULT_64_BIT : 0);
}

static const char *readout_how(const struct readout *r)
{
	if (r->copy)
		return r->is64 ? "vkCmdCopyQueryPoolResults 64-bit" : "vkCmdCopyQueryPoolResults 32-bit";
	return r->is64 ? "vkGetQueryPoolResults 64-bit" : "vkGetQueryPoolResults 32-bit";
}

/* The copy, into a buffer pre-filled with GUARD, queries then
 * GUARD_BYTES of guard; after the queries' last use in the command buffer
 * (a copy with WAIT waits for their results, 18.2). */
static void readout_record(struct vkqs_ctx *ctx, struct menv *e, struct readout *r)
{
	if (!r->copy)
		return;
	VkDeviceSize size = r->count * r->stride + GUARD_BYTES;
	r->dst = vkqs_buffer_host(ctx, size, 0);
	memset(r->dst->map, GUARD, size);
	vkqs_buffer_flush(ctx, r->dst);
	D->vkCmdCopyQueryPoolResults(e->cb, r->pool, r->first, r->count, r->dst->buf, 0,
				     r->stride, readout_flags(r));
}

/* Widens the values into out[count * nvals]; every query must be available
 * (WAIT) and nothing after the last must change. */
static void readout_values(struct vkqs_ctx *ctx, const struct readout *r, uint64_t *out)
{
	size_t word = r->is64 ? 8 : 4, size = r->count * r->stride;
	const uint8_t *bytes;
	if (r->copy) {
		vkqs_buffer_invalidate(ctx, r->dst);
		bytes = r->dst->map;
	} else {
		uint8_t *buf = vkqs_alloc(ctx, size + GUARD_BYTES);
		memset(buf, GUARD, size + GUARD_BYTES);
		VKQS_ASSERT_VK(ctx,
			       D->vkGetQueryPoolResults(DEV, r->pool, r->first, r->count, size, buf,
							r->stride, readout_flags(r)),
			       VK_SUCCESS);
		bytes = buf;
	}
	for (uint32_t q = 0; q < r->count; q++) {
		for (uint32_t k = 0; k <= r->nvals; k++) {
			const uint8_t *p = bytes + q * r->stride + k * word;
			uint64_t v;
			if (r->is64) {
				memcpy(&v, p, 8);
			} else {
				uint32_t v32;
				memcpy(&v32, p, 4);
				v = v32;
			}
			if (k < r->nvals)
				out[q * r->nvals + k] = v;
			else
				VKQS_EXPECTF(ctx, v != 0,
					     "%s, query %u: the availability word is 0 with "
					     "VK_QUERY_RESULT_WAIT_BIT (18.2: WAIT waits until the "
					     "result is available)",
					     readout_how(r), r->first + q);
		}
	}
	uint32_t bad = 0;
	for (size_t i = 0; i < GUARD_BYTES; i++)
		bad += bytes[size + i] != GUARD;
	VKQS_EXPECTF(ctx, bad == 0,
		     "%s: %u of the %u bytes after the last query's availability word changed "
		     "(stride %" PRIu64 " holds exactly one query)",
		     readout_how(r), bad, GUARD_BYTES, (uint64_t)r->stride);
}

/* Expectations ------------------------------------------------------------- */

/* Below min or above max: Fail.  Above warn, or equal to alt (when not
 * between min and warn): CompatibilityWarning, with `why`. */
struct want {
	uint64_t min, warn, max, alt;
	const char *why;
	bool undefined; /* no verdict, logged (why) */
};

static const char WHY_STATS[] =
	"18.4: \"Various device architectures will count these values differently\"";
static const char WHY_CLEARS[] =
	"18.2: the query contains a render pass instance whose CLEAR load op \"may count "
	"towards the results of queries\"";
static const char WHY_EXACT[] = "the spec defines this count exactly";

static struct want want_exact(uint64_t n)
{
	return (struct want){n, n, n, UNBOUNDED, WHY_EXACT};
}

/* The invocations a draw makes: fewer is Fail, more CompatibilityWarning. */
static struct want want_natural(uint64_t n)
{
	return (struct want){n, n, UNBOUNDED, UNBOUNDED, WHY_STATS};
}

static struct want want_clears(uint64_t n)
{
	return (struct want){n, n, UNBOUNDED, UNBOUNDED, WHY_CLEARS};
}

/* The counter of a stage missing from a pipeline the query used. */
static struct want want_undefined(void)
{
	return (struct want){0, 0, UNBOUNDED, UNBOUNDED, VKQS_WHY_MISSING_STAGE, true};
}

static void check_want(struct vkqs_ctx *ctx, const char *what, uint64_t v, const struct want *w)
{
	if (w->undefined) {
		vkqs_note(ctx, "%s is %" PRIu64 ": undefined, no verdict (%s)", what, v, w->why);
		return;
	}
	if (w->alt != UNBOUNDED && v == w->alt && (v < w->min || v > w->warn)) {
		vkqs_compat_warning(ctx, "%s is %" PRIu64 ", not the %" PRIu64 " of the spec's text: %s",
				    what, v, w->min, w->why);
		return;
	}
	char range[64];
	if (w->min == w->max)
		snprintf(range, sizeof(range), "exactly %" PRIu64, w->min);
	else if (w->max == UNBOUNDED)
		snprintf(range, sizeof(range), "at least %" PRIu64, w->min);
	else
		snprintf(range, sizeof(range), "%" PRIu64 " to %" PRIu64, w->min, w->max);
	if (!VKQS_EXPECTF(ctx, v >= w->min && v <= w->max, "%s is %" PRIu64 ", expected %s", what,
			  v, range))
		return;
	if (v > w->warn)
		vkqs_compat_warning(ctx, "%s is %" PRIu64 ", more than the %" PRIu64
				    " the work makes: legal, not portable (%s)",
				    what, v, w->warn, w->why);
}

/* Scenes ------------------------------------------------------------------- */

static const char *const full_scene_queries[NQ] = {
	"query 0 (draw A inside a render pass)",
	("query 1 (a whole render pass instance: draws A, B, one of no workgroups, one of "
	 "no primitives)"),
	"query 2 (no commands)",
};

/* Resets NQ queries of each pool, then:
 *   render pass: query 0 { A }, B;
 *   query 1 { render pass: A, Z, E, B };
 *   query 2 { }.
 * Draw B outside every query must count nowhere. */
static void scene_full(struct vkqs_ctx *ctx, struct menv *e, const struct mpipe *p,
		       const struct qset *s, struct tally q[NQ])
{
	memset(q, 0, NQ * sizeof(*q));
	qreset(ctx, e, s, NQ);
	rp_begin(ctx, e);
	mbind(ctx, e, p);
	qbegin(ctx, e, s, 0);
	mdraw(ctx, e, p, DRAW_A, &q[0]);
	qend(ctx, e, s, 0);
	mdraw(ctx, e, p, DRAW_B, NULL);
	rp_end(ctx, e);

	qbegin(ctx, e, s, 1);
	rp_begin(ctx, e);
	mdraw(ctx, e, p, DRAW_A, &q[1]);
	mdraw(ctx, e, p, DRAW_Z, &q[1]);
	mdraw(ctx, e, p, DRAW_E, &q[1]);
	mdraw(ctx, e, p, DRAW_B, &q[1]);
	rp_end(ctx, e);
	qend(ctx, e, s, 1);

	qbegin(ctx, e, s, 2);
	qend(ctx, e, s, 2);
}

/* Resets the pools' first max(views, 1) queries; render pass: query 0
 * { A, B }.  In a multiview subpass query 0 uses queries 0 .. views - 1. */
static void scene_simple(struct vkqs_ctx *ctx, struct menv *e, const struct mpipe *p,
			 const struct qset *s, struct tally *q)
{
	memset(q, 0, sizeof(*q));
	qreset(ctx, e, s, e->views ? e->views : 1);
	rp_begin(ctx, e);
	mbind(ctx, e, p);
	qbegin(ctx, e, s, 0);
	mdraw(ctx, e, p, DRAW_A, q);
	mdraw(ctx, e, p, DRAW_B, q);
	qend(ctx, e, s, 0);
	rp_end(ctx, e);
}

/* Indirect commands, 16 bytes apart (stride 16 > the 12 of
 * VkDrawMeshTasksIndirectCommandEXT, so a driver that assumes 12 reads the
 * wrong counts).  The entry at offset 0 is never read; a driver that
 * ignores `offset` draws 343 more workgroups. */
static const uint32_t indirect_cmds[] = {
	7, 7, 7, 0, /* offset 0: unused */
	3, 2, 1, 0, /* 16 */
	0, 4, 1, 0, /* 32: no workgroups */
	2, 2, 1, 0, /* 48 */
	1, 2, 1, 0, /* 64 */
};
#define INDIRECT_PRIMS 5u

/* Resets one query of each pool; render pass: query 0 { indirect draws }.
 * Without `count`: vkCmdDrawMeshTasksIndirectEXT at offset 16, drawCount
 * 3 (entries 16, 32, 48).  With it: vkCmdDrawMeshTasksIndirectCountEXT at
 * offset 32, maxDrawCount 3, the count 2 read from offset 4 of the count
 * buffer (entries 32, 48; a driver that draws maxDrawCount adds entry 64, one
 * that reads the count at offset 0 draws 9). */
static void scene_indirect(struct vkqs_ctx *ctx, struct menv *e, const struct mpipe *p,
			   const struct qset *s, bool count, struct tally *q)
{
	if (count) {
		if (!ctx->vk->f12.drawIndirectCount)
			vkqs_skip(ctx, "feature drawIndirectCount is not supported");
	} else if (!ctx->vk->features.features.multiDrawIndirect) {
		vkqs_skip(ctx, "feature multiDrawIndirect is not supported (drawCount 3)");
	}
	struct vkqs_buffer *cmds = vkqs_buffer_host(ctx, sizeof(indirect_cmds) + 16,
						    VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
	memset(cmds->map, 0, sizeof(indirect_cmds) + 16);
	memcpy(cmds->map, indirect_cmds, sizeof(indirect_cmds));
	vkqs_buffer_flush(ctx, cmds);
	static const uint32_t counts[] = {9, 2, 0, 0};
	struct vkqs_buffer *cbuf = vkqs_buffer_host(ctx, sizeof(counts),
						    VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
	memcpy(cbuf->map, counts, sizeof(counts));
	vkqs_buffer_flush(ctx, cbuf);

	memset(q, 0, sizeof(*q));
	qreset(ctx, e, s, 1);
	rp_begin(ctx, e);
	mbind(ctx, e, p);
	mpush(ctx, e, p, INDIRECT_PRIMS);
	qbegin(ctx, e, s, 0);
	uint32_t first, n;
	if (count) {
		D->vkCmdDrawMeshTasksIndirectCountEXT(e->cb, cmds->buf, 32, cbuf->buf, 4, 3, 16);
		first = 2;
		n = 2;
	} else {
		D->vkCmdDrawMeshTasksIndirectEXT(e->cb, cmds->buf, 16, 3, 16);
		first = 1;
		n = 3;
	}
	qend(ctx, e, s, 0);
	rp_end(ctx, e);
	for (uint32_t i = first; i < first + n; i++) {
		const uint32_t *c = &indirect_cmds[4 * i];
		struct mdraw d = {c[0], c[1], c[2], INDIRECT_PRIMS};
		tally_draw(&e->total, p, d);
		tally_draw(q, p, d);
	}
}

/* primitives: VK_QUERY_TYPE_MESH_PRIMITIVES_GENERATED_EXT ------------------- */

/* The full scene's three queries: query 0 exact; query 1 holds a render
 * pass instance (clears may count: more is CompatibilityWarning); query 2
 * exactly 0 ("starts from zero", and nothing ran). */
static void check_prims_full(struct vkqs_ctx *ctx, const struct readout *r, const uint64_t *v,
			     const struct tally q[NQ])
{
	char what[256];
	for (uint32_t i = 0; i < NQ; i++) {
		struct want w = i == 1 ? want_clears(q[i].visible) : want_exact(q[i].visible);
		snprintf(what, sizeof(what), "%s, %s: mesh primitives generated",
			 full_scene_queries[i], readout_how(r));
		check_want(ctx, what, v[i], &w);
	}
}

/* One query read with vkGetQueryPoolResults, 64-bit. */
static uint64_t read_one(struct vkqs_ctx *ctx, VkQueryPool pool, uint32_t nvals, uint64_t *vals)
{
	struct readout r = readout_make(pool, 0, 1, nvals, false, true);
	readout_values(ctx, &r, vals);
	return vals[0];
}

struct count_param {
	bool task, copy, is64;
};

static const struct count_param count_params[] = {
	{false, false, false}, {false, false, true}, {false, true, false}, {false, true, true},
	{true, false, false},  {true, false, true},  {true, true, false},  {true, true, true},
};

static void count_name(const void *param, char *buf, size_t size)
{
	const struct count_param *p = param;
	snprintf(buf, size, "%s_%s_%s", p->task ? "task" : "mesh", p->copy ? "copy" : "get",
		 p->is64 ? "64" : "32");
}

/* 18.9: "incremented every time a primitive emitted from the mesh shader
 * stage reaches the fragment shader stage" and "starts from zero": every
 * triangle of the full scene reaches rasterization, so each query counts
 * exactly the primitives of its draws (not the vertices, not max_primitives,
 * not the workgroups), a draw of no workgroups or no primitives adds 0, and
 * draw B outside every query counts nowhere.  With the task shader the mesh
 * workgroups are those it launches (some task workgroups launch none). */
static void primitives_count(struct vkqs_ctx *ctx, const void *param)
{
	const struct count_param *cp = param;
	mesh_require(ctx, cp->task);
	struct menv *e = menv_create(ctx, 0);
	struct mdesc d = {.topo = TOPO_TRIANGLES, .task = cp->task};
	const struct mpipe *p = mpipe_create(ctx, e, &d);
	struct qset s = {{prims_pool(ctx, NQ)}, 1};
	struct tally q[NQ];
	scene_full(ctx, e, p, &s, q);
	struct readout r = readout_make(s.pool[0], 0, NQ, 1, cp->copy, cp->is64);
	readout_record(ctx, e, &r);
	menv_submit(ctx, e);
	check_counts(ctx, e);
	uint64_t v[NQ];
	readout_values(ctx, &r, v);
	check_prims_full(ctx, &r, v, q);
}

static const enum topo topology_params[] = {TOPO_LINES, TOPO_POINTS};

static void topology_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", topo_tokens[*(const enum topo *)param]);
}

/* The full scene with line and point output (triangles: primitives.count):
 * lines of 2 vertices and points with one vertex more than points per
 * workgroup, so a count of vertices differs from one of primitives. */
static void primitives_topology(struct vkqs_ctx *ctx, const void *param)
{
	mesh_require(ctx, false);
	struct menv *e = menv_create(ctx, 0);
	struct mdesc d = {.topo = *(const enum topo *)param};
	const struct mpipe *p = mpipe_create(ctx, e, &d);
	struct qset s = {{prims_pool(ctx, NQ)}, 1};
	struct tally q[NQ];
	scene_full(ctx, e, p, &s, q);
	menv_submit(ctx, e);
	check_counts(ctx, e);
	struct readout r = readout_make(s.pool[0], 0, NQ, 1, false, true);
	uint64_t v[NQ];
	readout_values(ctx, &r, v);
	check_prims_full(ctx, &r, v, q);
}

static const bool task_params[] = {false, true};

static void task_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", *(const bool *)param ? "task" : "mesh");
}

static void primitives_indirect_common(struct vkqs_ctx *ctx, bool task, bool count)
{
	mesh_require(ctx, task);
	struct menv *e = menv_create(ctx, 0);
	struct mdesc d = {.topo = TOPO_TRIANGLES, .task = task};
	const struct mpipe *p = mpipe_create(ctx, e, &d);
	struct qset s = {{prims_pool(ctx, 1)}, 1};
	struct tally q;
	scene_indirect(ctx, e, p, &s, count, &q);
	menv_submit(ctx, e);
	check_counts(ctx, e);
	uint64_t v;
	read_one(ctx, s.pool[0], 1, &v);
	struct want w = want_exact(q.visible);
	check_want(ctx,
		   count ? "vkCmdDrawMeshTasksIndirectCountEXT (count 2 of at most 3): mesh "
			   "primitives generated"
			 : "vkCmdDrawMeshTasksIndirectEXT (3 draws, stride 16, offset 16): mesh "
			   "primitives generated",
		   v, &w);
}

/* 18.9 for the draws of vkCmdDrawMeshTasksIndirectEXT: each command's
 * workgroup counts as a direct draw's, one of them no workgroups. */
static void primitives_indirect(struct vkqs_ctx *ctx, const void *param)
{
	primitives_indirect_common(ctx, *(const bool *)param, false);
}

/* The same with the draw count read from a buffer. */
static void primitives_indirect_count(struct vkqs_ctx *ctx, const void *param)
{
	primitives_indirect_common(ctx, *(const bool *)param, true);
}

/* Draws A and B in one render pass with pipeline d, inside query 0 of a
 * mesh primitives pool (and of a precise occlusion pool when `samples` is
 * not NULL and the device can count samples exactly); returns the
 * primitives count, and the sample count through `samples`. */
static uint64_t simple_prims(struct vkqs_ctx *ctx, const struct mdesc *d, struct tally *q,
			     uint64_t *samples)
{
	mesh_require(ctx, d->task);
	struct menv *e = menv_create(ctx, 0);
	const struct mpipe *p = mpipe_create(ctx, e, d);
	struct qset s = {{prims_pool(ctx, 1)}, 1, {0}};
	if (samples && ctx->vk->features.features.occlusionQueryPrecise &&
	    ctx->vk->props.limits.standardSampleLocations) {
		s.pool[s.n] = vkqs_query_pool(ctx, VK_QUERY_TYPE_OCCLUSION, 1, 0);
		s.flags[s.n++] = VK_QUERY_CONTROL_PRECISE_BIT;
	}
	scene_simple(ctx, e, p, &s, q);
	menv_submit(ctx, e);
	check_counts(ctx, e);
	if (samples && s.n == 2)
		read_one(ctx, s.pool[1], 1, samples);
	else if (samples)
		*samples = UNBOUNDED;
	uint64_t v;
	read_one(ctx, s.pool[0], 1, &v);
	return v;
}

/* Triangles 1, 3, ... of every workgroup are back-facing and culled
 * (cullMode BACK): they do not reach the fragment shader stage, so 18.9
 * does not count them (the extension's proposal: primitives "not culled by
 * fixed function culling").  Exactly the front-facing ones count.
 *
 * A precise occlusion query around the same draws shows that the culling
 * happened, so a count of every emitted triangle cannot be blamed on a
 * cull mode that was ignored: each triangle lies in its own 4 x 4 cell
 * with vertices (0, 0), (0, 4), (4, 0) of the cell, so it covers the 6
 * pixel centres with x + y < 4 and at most the 4 on its hypotenuse (1
 * sample, at the pixel centre with standard sample locations): n triangles
 * pass 6n to 10n samples, and 10 * 34 < 6 * 58. */
static void primitives_face_culled(struct vkqs_ctx *ctx, const void *param)
{
	struct mdesc d = {.topo = TOPO_TRIANGLES, .cull_back = true};
	struct tally q;
	uint64_t samples;
	uint64_t v = simple_prims(ctx, &d, &q, &samples);
	if (samples != UNBOUNDED)
		VKQS_EXPECTF(ctx, samples >= 6 * q.visible && samples <= 10 * q.visible,
			     "face culling did not work as the case needs (rasterization, not the "
			     "query): the precise occlusion query passed %" PRIu64
			     " samples, expected %" PRIu64 " to %" PRIu64
			     " for the %" PRIu64 " front-facing triangles alone (%" PRIu64
			     " to %" PRIu64 " for all %" PRIu64 ")",
			     samples, 6 * q.visible, 10 * q.visible, q.visible, 6 * q.emitted,
			     10 * q.emitted, q.emitted);
	struct want w = want_exact(q.visible);
	check_want(ctx, "draws A and B with their odd-numbered triangles face-culled: mesh "
			"primitives generated",
		   v, &w);
}

/* Triangles 1, 3, ... of every workgroup set gl_CullPrimitiveEXT: they do
 * not reach the fragment shader stage, so 18.9 counts the others only, as
 * face_culled judges back-face culling by the same sentence (1.4.360
 * queries.adoc: "incremented every time a primitive emitted from the mesh
 * shader stage reaches the fragment shader stage").  The extension's
 * proposal ("not culled by fixed function culling") is not normative: a
 * count of every emitted triangle fails like any other count. */
static void primitives_cull_primitive(struct vkqs_ctx *ctx, const void *param)
{
	struct mdesc d = {.topo = TOPO_TRIANGLES, .cull_primitive = true};
	struct tally q;
	uint64_t v = simple_prims(ctx, &d, &q, NULL);
	struct want w = want_exact(q.visible);
	check_want(ctx, "draws A and B with their odd-numbered triangles culled by "
			"gl_CullPrimitiveEXT: mesh primitives generated",
		   v, &w);
}

/* With rasterizerDiscardEnable primitives "are discarded after they are
 * processed by the last active shader stage" (28.1) and none reaches the
 * fragment shader stage: 18.9's count is 0, by the sentence face_culled is
 * judged by.  Counting every emitted primitive (the proposal's wording;
 * 18.8's primitives generated query, another query type, counts before the
 * discard) fails like any other count. */
static void primitives_rasterizer_discard(struct vkqs_ctx *ctx, const void *param)
{
	struct mdesc d = {.topo = TOPO_TRIANGLES, .discard = true};
	struct tally q;
	uint64_t v = simple_prims(ctx, &d, &q, NULL);
	struct want w = want_exact(0);
	check_want(ctx, "draws A and B with rasterizerDiscardEnable: mesh primitives generated",
		   v, &w);
}

/* Queries 0 .. views - 1 of query 0 in a multiview subpass, summed. */
static void read_multiview(struct vkqs_ctx *ctx, VkQueryPool pool, uint32_t nvals, uint64_t *sum)
{
	uint64_t v[VIEWS * 2];
	struct readout r = readout_make(pool, 0, VIEWS, nvals, false, true);
	readout_values(ctx, &r, v);
	for (uint32_t k = 0; k < nvals; k++) {
		sum[k] = 0;
		for (uint32_t i = 0; i < VIEWS; i++)
			sum[k] += v[i * nvals + k];
	}
}

/* 18.2: in a subpass with view mask 0b11 the query uses queries 0 and 1,
 * whose sum "must accurately reflect the total result of the query summed
 * over all views"; each view rasterizes every primitive, so the sum is twice
 * the primitives of draws A and B.  The count of one view (once for all
 * views: CTS accepts it) is CompatibilityWarning; anything else Fail. */
static void primitives_multiview(struct vkqs_ctx *ctx, const void *param)
{
	struct mesh_caps c = mesh_require(ctx, false);
	require_multiview(ctx, &c);
	struct menv *e = menv_create(ctx, VIEWS);
	struct mdesc d = {.topo = TOPO_TRIANGLES};
	const struct mpipe *p = mpipe_create(ctx, e, &d);
	struct qset s = {{prims_pool(ctx, VIEWS)}, 1};
	struct tally q;
	scene_simple(ctx, e, p, &s, &q);
	menv_submit(ctx, e);
	check_counts(ctx, e);
	uint64_t sum;
	read_multiview(ctx, s.pool[0], 1, &sum);
	struct want w = want_exact(q.visible * VIEWS);
	w.alt = q.visible;
	w.why = "the primitives were counted once for all views, not in each view that "
		"rasterizes them (18.2: the sum \"must accurately reflect the total result of the "
		"query summed over all views\"; CTS accepts either)";
	check_want(ctx, "draws A and B in a 2-view subpass: mesh primitives generated, queries 0 "
			"+ 1",
		   sum, &w);
}

/* stats: task and mesh shader invocations ----------------------------------- */

static uint32_t nvalues(uint32_t mask)
{
	return (uint32_t)__builtin_popcount(mask);
}

static const char *stat_name(uint32_t bit)
{
	switch (bit) {
	case STAT_CS:
		return "compute shader invocations";
	case STAT_TASK:
		return "task shader invocations";
	default:
		return "mesh shader invocations";
	}
}

/* What a query of a pool with statistics `mask` must hold for the work `t`
 * of a pipeline with (`task`) or without a task shader; `empty`: the query
 * contains no command, so everything is exactly 0. */
static struct want stat_want(uint32_t bit, const struct tally *t, bool task, bool empty)
{
	if (empty)
		return want_exact(0);
	switch (bit) {
	case STAT_CS:
		return want_undefined();
	case STAT_TASK:
		return task ? want_natural(t->task_inv) : want_undefined();
	default:
		return want_natural(t->mesh_inv);
	}
}

/* Values are in bit order, least significant first (18.2). */
static void check_stats(struct vkqs_ctx *ctx, const char *scene, const char *how, uint32_t mask,
			const uint64_t *v, const struct want *w)
{
	char what[320];
	uint32_t k = 0;
	for (uint32_t bit = 1; bit <= STAT_MESH; bit <<= 1) {
		if (!(mask & bit))
			continue;
		snprintf(what, sizeof(what), "%s, %s: value %u (%s)", scene, how, k, stat_name(bit));
		check_want(ctx, what, v[k], &w[k]);
		k++;
	}
}

struct inv_param {
	bool task;
	uint32_t mask;
	bool copy, is64;
};

static const struct inv_param inv_params[] = {
	{false, STAT_MESH, false, true},
	{false, STAT_MESH, true, false},
	{false, STAT_TASK | STAT_MESH, false, true},
	{true, STAT_TASK | STAT_MESH, false, true},
	{true, STAT_TASK | STAT_MESH, true, false},
	{true, STAT_TASK, false, false},
};

static void inv_name(const void *param, char *buf, size_t size)
{
	const struct inv_param *p = param;
	const char *bits = p->mask == STAT_MESH ? "mesh_bit"
			   : p->mask == STAT_TASK ? "task_bit"
						  : "task_mesh_bits";
	snprintf(buf, size, "%s_pipeline_%s_%s_%s", p->task ? "task" : "mesh", bits,
		 p->copy ? "copy" : "get", p->is64 ? "64" : "32");
}

/* 18.4 / 18.9 on the full scene: the task and mesh counters count at least
 * the invocations the draws make (every one has a side effect, see the top
 * of the file; more is CompatibilityWarning), 0 in the empty query, and
 * nothing of draw B outside every query.  With no task shader in the
 * pipeline the task counter's stage is missing, so its value is undefined
 * (no verdict, VKQS_SPEC_STATS_MISSING_STAGE). */
static void stats_invocations(struct vkqs_ctx *ctx, const void *param)
{
	const struct inv_param *ip = param;
	mesh_require(ctx, ip->task);
	require_stats(ctx);
	struct menv *e = menv_create(ctx, 0);
	struct mdesc d = {.topo = TOPO_TRIANGLES, .task = ip->task};
	const struct mpipe *p = mpipe_create(ctx, e, &d);
	struct qset s = {{vkqs_query_pool(ctx, VK_QUERY_TYPE_PIPELINE_STATISTICS, NQ, ip->mask)},
			 1};
	struct tally q[NQ];
	scene_full(ctx, e, p, &s, q);
	uint32_t n = nvalues(ip->mask);
	struct readout r = readout_make(s.pool[0], 0, NQ, n, ip->copy, ip->is64);
	readout_record(ctx, e, &r);
	menv_submit(ctx, e);
	check_counts(ctx, e);
	uint64_t v[NQ * 2];
	readout_values(ctx, &r, v);
	for (uint32_t i = 0; i < NQ; i++) {
		struct want w[2];
		uint32_t k = 0;
		for (uint32_t bit = STAT_TASK; bit <= STAT_MESH; bit <<= 1)
			if (ip->mask & bit)
				w[k++] = stat_want(bit, &q[i], ip->task, i == 2);
		check_stats(ctx, full_scene_queries[i], readout_how(&r), ip->mask, &v[i * n], w);
	}
}

/* A pool counting compute, task and mesh invocations:
 *   query 0 { vkCmdDispatch(3, 2, 1) of mesh_counts.comp }: compute at
 *     least 48; task and mesh undefined (their stages are missing from the
 *     compute pipeline, VKQS_SPEC_STATS_MISSING_STAGE): no verdict;
 *   query 1 { render pass: draw A with the task shader }: task and mesh
 *     their invocations; the compute counter undefined likewise. */
static void stats_compute_dispatch(struct vkqs_ctx *ctx, const void *param)
{
	mesh_require(ctx, true);
	require_stats(ctx);
	const uint32_t mask = STAT_CS | STAT_TASK | STAT_MESH;
	struct menv *e = menv_create(ctx, 0);
	struct mdesc d = {.topo = TOPO_TRIANGLES, .task = true};
	const struct mpipe *p = mpipe_create(ctx, e, &d);
	VkComputePipelineCreateInfo cci = {
		.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
		.stage = {
			.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
			.stage = VK_SHADER_STAGE_COMPUTE_BIT,
			.module = vkqs_shader_module(ctx, mesh_counts_comp, sizeof(mesh_counts_comp)),
			.pName = "main",
		},
		.layout = e->layout,
	};
	VkPipeline comp;
	VKQS_CHECK(ctx, D->vkCreateComputePipelines(DEV, VK_NULL_HANDLE, 1, &cci, NULL, &comp));
	DEFER(PIPELINE, comp);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_PIPELINE_STATISTICS, 2, mask);

	D->vkCmdResetQueryPool(e->cb, pool, 0, 2);
	D->vkCmdBindPipeline(e->cb, VK_PIPELINE_BIND_POINT_COMPUTE, comp);
	D->vkCmdBindDescriptorSets(e->cb, VK_PIPELINE_BIND_POINT_COMPUTE, e->layout, 0, 1, &e->set,
				   0, NULL);
	D->vkCmdBeginQuery(e->cb, pool, 0, 0);
	D->vkCmdDispatch(e->cb, 3, 2, 1);
	D->vkCmdEndQuery(e->cb, pool, 0);
	e->total.compute_inv += 6 * COMPUTE_LS;
	struct tally q1 = {0};
	rp_begin(ctx, e);
	mbind(ctx, e, p);
	D->vkCmdBeginQuery(e->cb, pool, 1, 0);
	mdraw(ctx, e, p, DRAW_A, &q1);
	D->vkCmdEndQuery(e->cb, pool, 1);
	rp_end(ctx, e);
	menv_submit(ctx, e);
	check_counts(ctx, e);

	uint64_t v[6];
	struct readout r = readout_make(pool, 0, 2, 3, false, true);
	readout_values(ctx, &r, v);
	/* 18.4: compute invocations may be skipped only "as long as the
	 * results of rendering otherwise remain unchanged"; each adds 1 to the
	 * Counts buffer. */
	struct want w0[3] = {want_natural(6 * COMPUTE_LS), want_undefined(), want_undefined()};
	check_stats(ctx, "query 0 (vkCmdDispatch(3, 2, 1), no draw)", readout_how(&r), mask, v, w0);
	struct want w1[3] = {want_undefined(), want_natural(q1.task_inv),
			     want_natural(q1.mesh_inv)};
	check_stats(ctx, "query 1 (draw A with a task shader, no dispatch)", readout_how(&r), mask,
		    &v[3], w1);
}

/* The task and mesh counters for the draws of vkCmdDrawMeshTasksIndirectEXT
 * (see scene_indirect), task shader included. */
static void stats_indirect(struct vkqs_ctx *ctx, const void *param)
{
	mesh_require(ctx, true);
	require_stats(ctx);
	const uint32_t mask = STAT_TASK | STAT_MESH;
	struct menv *e = menv_create(ctx, 0);
	struct mdesc d = {.topo = TOPO_TRIANGLES, .task = true};
	const struct mpipe *p = mpipe_create(ctx, e, &d);
	struct qset s = {{vkqs_query_pool(ctx, VK_QUERY_TYPE_PIPELINE_STATISTICS, 1, mask)}, 1};
	struct tally q;
	scene_indirect(ctx, e, p, &s, false, &q);
	menv_submit(ctx, e);
	check_counts(ctx, e);
	uint64_t v[2];
	read_one(ctx, s.pool[0], 2, v);
	struct want w[2] = {want_natural(q.task_inv), want_natural(q.mesh_inv)};
	check_stats(ctx, "vkCmdDrawMeshTasksIndirectEXT (3 draws, stride 16, offset 16)",
		    "vkGetQueryPoolResults 64-bit", mask, v, w);
}

/* Rasterizer discard drops primitives after the mesh shader (28.1): the
 * mesh shader still runs every invocation, which the counter counts. */
static void stats_rasterizer_discard(struct vkqs_ctx *ctx, const void *param)
{
	mesh_require(ctx, false);
	require_stats(ctx);
	struct menv *e = menv_create(ctx, 0);
	struct mdesc d = {.topo = TOPO_TRIANGLES, .discard = true};
	const struct mpipe *p = mpipe_create(ctx, e, &d);
	struct qset s = {{vkqs_query_pool(ctx, VK_QUERY_TYPE_PIPELINE_STATISTICS, 1, STAT_MESH)},
			 1};
	struct tally q;
	scene_simple(ctx, e, p, &s, &q);
	menv_submit(ctx, e);
	check_counts(ctx, e);
	uint64_t v;
	read_one(ctx, s.pool[0], 1, &v);
	struct want w = want_natural(q.mesh_inv);
	check_stats(ctx, "draws A and B with rasterizerDiscardEnable",
		    "vkGetQueryPoolResults 64-bit", STAT_MESH, &v, &w);
}

/* 18.2 in a 2-view subpass: queries 0 and 1 sum to the total over the
 * views.  A task or mesh shader may run once for all views or once per
 * view, so each counter sums to between its invocations and twice them;
 * fewer is Fail, more CompatibilityWarning. */
static void stats_multiview(struct vkqs_ctx *ctx, const void *param)
{
	struct mesh_caps c = mesh_require(ctx, true);
	require_multiview(ctx, &c);
	require_stats(ctx);
	const uint32_t mask = STAT_TASK | STAT_MESH;
	struct menv *e = menv_create(ctx, VIEWS);
	struct mdesc d = {.topo = TOPO_TRIANGLES, .task = true};
	const struct mpipe *p = mpipe_create(ctx, e, &d);
	struct qset s = {{vkqs_query_pool(ctx, VK_QUERY_TYPE_PIPELINE_STATISTICS, VIEWS, mask)}, 1};
	struct tally q;
	scene_simple(ctx, e, p, &s, &q);
	menv_submit(ctx, e);
	check_counts(ctx, e);
	uint64_t sum[2];
	read_multiview(ctx, s.pool[0], 2, sum);
	static const char why[] = "18.4: \"Various device architectures will count these values "
				  "differently\"; a shader runs at most once per view";
	struct want w[2] = {
		{q.task_inv, q.task_inv * VIEWS, UNBOUNDED, UNBOUNDED, why},
		{q.mesh_inv, q.mesh_inv * VIEWS, UNBOUNDED, UNBOUNDED, why},
	};
	check_stats(ctx, "draws A and B in a 2-view subpass, queries 0 + 1",
		    "vkGetQueryPoolResults 64-bit", mask, sum, w);
}

/* Secondary command buffers ------------------------------------------------ */

/* Draws A and B recorded into a secondary that continues e's render pass
 * (e->cb is the secondary while recording); `prims`: a mesh primitives
 * query begun and ended inside it (a query active in the primary across
 * vkCmdExecuteCommands may only be occlusion or statistics:
 * VUID-vkCmdExecuteCommands-commandBuffer-07594); `stats`: the statistics
 * the secondary inherits (0: none).  The primary executes it inside the
 * render pass, with `outer` (a statistics pool, or VK_NULL_HANDLE) active
 * around the render pass instance. */
static void secondary_scene(struct vkqs_ctx *ctx, struct menv *e, const struct mpipe *p,
			    VkQueryPool prims, uint32_t stats, VkQueryPool outer, struct tally *q)
{
	memset(q, 0, sizeof(*q));
	VkCommandBuffer primary = e->cb;
	if (prims)
		D->vkCmdResetQueryPool(primary, prims, 0, 1);
	if (outer)
		D->vkCmdResetQueryPool(primary, outer, 0, 1);
	VkCommandBufferInheritanceInfo ii = {.pipelineStatistics = stats};
	e->cb = vkqs_cmd_begin_secondary(ctx, &ctx->vk->gfx, e->t,
					 VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, &ii);
	VkCommandBuffer sec = e->cb;
	mbind(ctx, e, p);
	if (prims)
		D->vkCmdBeginQuery(sec, prims, 0, 0);
	mdraw(ctx, e, p, DRAW_A, q);
	mdraw(ctx, e, p, DRAW_B, q);
	if (prims)
		D->vkCmdEndQuery(sec, prims, 0);
	vkqs_cmd_end(ctx, sec);
	e->cb = primary;
	if (outer)
		D->vkCmdBeginQuery(primary, outer, 0, 0);
	vkqs_target_begin_ex(ctx, primary, e->t, 1.0f, 0,
			     VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
	D->vkCmdExecuteCommands(primary, 1, &sec);
	vkqs_target_end(ctx, primary);
	if (outer)
		D->vkCmdEndQuery(primary, outer, 0);
}

/* 18.9 in a secondary command buffer: a mesh primitives query begun and
 * ended there counts draws A and B exactly, as in a primary. */
static void primitives_secondary(struct vkqs_ctx *ctx, const void *param)
{
	bool task = *(const bool *)param;
	mesh_require(ctx, task);
	struct menv *e = menv_create(ctx, 0);
	struct mdesc d = {.topo = TOPO_TRIANGLES, .task = task};
	const struct mpipe *p = mpipe_create(ctx, e, &d);
	VkQueryPool pool = prims_pool(ctx, 1);
	struct tally q;
	secondary_scene(ctx, e, p, pool, 0, VK_NULL_HANDLE, &q);
	menv_submit(ctx, e);
	check_counts(ctx, e);
	uint64_t v;
	read_one(ctx, pool, 1, &v);
	struct want w = want_exact(q.visible);
	check_want(ctx, "draws A and B in a secondary, the query inside it: mesh primitives "
			"generated", v, &w);
}

/* 18.2: queries active in the primary when secondaries execute "are
 * considered active for those secondary command buffers"
 * (inheritedQueries; the secondary names the pool's statistics): task and
 * mesh invocations of draws A and B in the secondary count in the
 * primary's query as they would inline (the query contains the render
 * pass instance, so its load operation may add: want_clears). */
static void stats_inherited(struct vkqs_ctx *ctx, const void *param)
{
	bool task = *(const bool *)param;
	mesh_require(ctx, task);
	require_stats(ctx);
	vkqs_require_feature(ctx, "inheritedQueries");
	uint32_t mask = task ? STAT_TASK | STAT_MESH : STAT_MESH;
	struct menv *e = menv_create(ctx, 0);
	struct mdesc d = {.topo = TOPO_TRIANGLES, .task = task};
	const struct mpipe *p = mpipe_create(ctx, e, &d);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_PIPELINE_STATISTICS, 1, mask);
	struct tally q;
	secondary_scene(ctx, e, p, VK_NULL_HANDLE, mask, pool, &q);
	menv_submit(ctx, e);
	check_counts(ctx, e);
	uint64_t v[2];
	read_one(ctx, pool, nvalues(mask), v);
	struct want w[2];
	uint32_t k = 0;
	for (uint32_t bit = STAT_TASK; bit <= STAT_MESH; bit <<= 1)
		if (mask & bit)
			w[k++] = stat_want(bit, &q, task, false);
	check_stats(ctx, "draws A and B in a secondary inheriting the primary's query",
		    "vkGetQueryPoolResults 64-bit", mask, v, w);
}

static const struct vkqs_case cases[] = {
	{"primitives.count", primitives_count,
	 "18.9 \"the mesh-primitives-generated count is incremented every time a primitive "
	 "emitted from the mesh shader stage reaches the fragment shader stage\"; 18.2 result "
	 "layout, 32/64-bit, availability",
	 VKQS_PARAMS(count_params, count_name)},
	{"primitives.topology", primitives_topology,
	 "18.9 mesh-primitives-generated count for line and point output",
	 VKQS_PARAMS(topology_params, topology_name)},
	{"primitives.indirect", primitives_indirect,
	 "18.9 mesh-primitives-generated count for vkCmdDrawMeshTasksIndirectEXT",
	 VKQS_PARAMS(task_params, task_name)},
	{"primitives.indirect_count", primitives_indirect_count,
	 "18.9 mesh-primitives-generated count for vkCmdDrawMeshTasksIndirectCountEXT",
	 VKQS_PARAMS(task_params, task_name)},
	{"primitives.face_culled", primitives_face_culled,
	 "18.9 only primitives that reach the fragment shader stage count: face culling"},
	{"primitives.cull_primitive_ext", primitives_cull_primitive,
	 "18.9 only primitives that reach the fragment shader stage count: gl_CullPrimitiveEXT"},
	{"primitives.rasterizer_discard", primitives_rasterizer_discard,
	 "18.9 only primitives that reach the fragment shader stage count: rasterizer discard"},
	{"primitives.multiview", primitives_multiview,
	 "18.2 multiview: N consecutive queries whose sum is \"the total result of the query "
	 "summed over all views\"; 18.9"},
	{"stats.invocations", stats_invocations,
	 "18.4 VK_QUERY_PIPELINE_STATISTIC_TASK/MESH_SHADER_INVOCATIONS_BIT_EXT \"incremented "
	 "every time the task (mesh) shader is invoked\"; 18.9",
	 VKQS_PARAMS(inv_params, inv_name)},
	{"stats.compute_dispatch", stats_compute_dispatch,
	 "18.4 task and mesh counters count only task and mesh shader invocations; compute "
	 "counter beside mesh work"},
	{"stats.indirect", stats_indirect,
	 "18.4 task and mesh shader invocations of vkCmdDrawMeshTasksIndirectEXT"},
	{"stats.rasterizer_discard", stats_rasterizer_discard,
	 "18.4 mesh shader invocations with rasterizerDiscardEnable"},
	{"primitives.secondary", primitives_secondary,
	 "18.9 mesh-primitives-generated count of draws in a secondary command buffer (the "
	 "query begun and ended there: VUID-vkCmdExecuteCommands-commandBuffer-07594)",
	 VKQS_PARAMS(task_params, task_name)},
	{"stats.inherited_secondary", stats_inherited,
	 "18.2 queries active in the primary are active for its secondaries (inheritedQueries); "
	 "18.4 task and mesh shader invocations",
	 VKQS_PARAMS(task_params, task_name)},
	{"stats.multiview", stats_multiview,
	 "18.2 multiview sum over N consecutive queries; 18.4 task and mesh shader invocations"},
};
VKQS_AREA(mesh, cases);
