/* vkqs.xfb.inflight.*: pipeline statistics, primitives generated and
 * transform feedback stream queries read while their work is really in
 * flight: the submission waits on a gate (framework/gate.h) the host opens.
 *
 * Real drivers published availability before the values landed (radv
 * 9ba41ed70af, 7d96fe853e1, be325029795; anv Gfx11 884397b587d: a reader
 * that saw available = 1 read a stale value) and returned from WAIT reads
 * before the work completed (radv video encode, ARM's driver: ANGLE's
 * forceWaitForSubmissionToCompleteForQueryResult).  vkqs's reset area
 * checks both for occlusion and timestamps; these cases check the types a
 * draw writes otherwise: pipeline statistics, primitives generated,
 * transform feedback stream, mesh primitives generated (mesh draws of
 * mesh_triangles.mesh) and VK_QCOM_elapsed_timer_query.
 *
 * - available_is_final: reads without WAIT, WITH_AVAILABILITY, from before
 *   the gate opens until the fence signals: a read that says available
 *   must hold the final values (18.2: an available query's results are its
 *   results; the values of an unavailable one are undefined and not read).
 * - wait: a WAIT read issued while the gate is shut returns only after it
 *   opened, with VK_SUCCESS, available, the final values (18.2
 *   VK_QUERY_RESULT_WAIT_BIT "will wait for each query's status to become
 *   available before retrieving its results"). */
#include "gate.h"
#include "shaders/mesh_triangles_mesh.h"
#include "verdict.h"
#include "xfb.h"

enum iftype { IF_STATS, IF_PGQ, IF_XFB, IF_MESH, IF_ELAPSED };
static const uint8_t if_types[] = {IF_STATS, IF_PGQ, IF_XFB, IF_MESH, IF_ELAPSED};
static const char *const if_names[] = {"statistics", "primitives_generated", "stream",
				       "mesh_primitives_generated", "elapsed"};

static void if_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", if_names[*(const uint8_t *)param]);
}

/* Polls stop after this; the gate's timer opens it long before (the
 * polling case opens it itself after 16 reads; the WAIT case waits for the
 * timer, WAIT_OPEN_NS after the submission). */
#define POLL_LIMIT_NS (5ull * 1000 * 1000 * 1000)
#define GATE_TIMER_NS (2ull * 1000 * 1000 * 1000)
#define WAIT_OPEN_NS (100ull * 1000 * 1000)
#define DRAWS 8u
#define MAX_VALUES 4u

struct inflight {
	VkQueryPool pool;
	uint32_t values;         /* per query, before the availability word */
	VkFence fence;
	struct vkqs_gate *gate;
	struct vkqs_buffer *b;   /* IF_XFB: the capture buffer */
};

static const VkQueryPipelineStatisticFlags if_stats =
	VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_VERTICES_BIT |
	VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT |
	VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT |
	VK_QUERY_PIPELINE_STATISTIC_CLIPPING_INVOCATIONS_BIT;

/* Records DRAWS draws of 12 vertices (4 triangles each) in query 0 and
 * submits them behind a shut gate. */
static void if_submit(struct vkqs_ctx *ctx, enum iftype type, struct inflight *f,
		      uint64_t open_after_ns)
{
	vkqs_require_queue(ctx, &ctx->vk->gfx, "graphics");
	if (type == IF_STATS)
		vkqs_require_feature(ctx, "pipelineStatisticsQuery");
	else if (type == IF_PGQ)
		xfb_require_pgq(ctx);
	else if (type == IF_XFB)
		xfb_require_xfb_query(ctx);
	else if (type == IF_MESH) {
		vkqs_require_feature(ctx, "VK_EXT_mesh_shader.meshShader");
		vkqs_require_feature(ctx, "VK_EXT_mesh_shader.meshShaderQueries");
	} else {
		vkqs_require_feature(ctx, "VK_QCOM_elapsed_timer_query.elapsedTimerQuery");
		if (!ctx->vk->info.families[ctx->vk->gfx.family].timestamp_valid_bits)
			vkqs_skip(ctx, "the graphics queue family reports timestampValidBits 0 "
				       "(VUID-vkCmdBeginQuery-queryType-12423)");
	}
	struct vkqs_target *t = xfb_target(ctx);
	const struct vkqs_pipeline *p;
	VkDescriptorSet set = VK_NULL_HANDLE;
	if (type == IF_MESH) {
		/* mesh_triangles.mesh counts what ran into a storage buffer */
		struct vkqs_buffer *counts = vkqs_buffer_host(ctx, 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
		VkDescriptorSetLayout dsl;
		set = vkqs_storage_set(ctx, counts, VK_SHADER_STAGE_MESH_BIT_EXT, &dsl);
		struct vkqs_pipeline_desc pd = {.mesh_spv = mesh_triangles_mesh,
						.mesh_size = sizeof(mesh_triangles_mesh),
						.push_size = 8,
						.push_stages = VK_SHADER_STAGE_MESH_BIT_EXT,
						.set_layout = dsl};
		p = vkqs_pipeline_rect(ctx, t, &pd);
	} else {
		p = xfb_simple_pipeline(ctx, t, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
					type == IF_XFB ? VS_COUNT : VS_PLAIN);
	}
	static const VkQueryType qt[] = {VK_QUERY_TYPE_PIPELINE_STATISTICS,
					 VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT,
					 VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT,
					 VK_QUERY_TYPE_MESH_PRIMITIVES_GENERATED_EXT,
					 VK_QUERY_TYPE_TIME_ELAPSED_QCOM};
	f->pool = vkqs_query_pool(ctx, qt[type], 1, type == IF_STATS ? if_stats : 0);
	f->values = type == IF_STATS ? 4 : type == IF_XFB ? 2 : 1;
	f->b = type == IF_XFB ? xfb_buffer(ctx, BIG) : NULL;
	/* the gate first: it may leave the case NotSupported */
	f->gate = vkqs_gate_create(ctx, open_after_ns);
	f->fence = vkqs_fence(ctx);

	/* reset in a submission of its own that completes: a query the gated
	 * one reset would be read before its reset ran (undefined state) */
	VkCommandBuffer cb = xfb_begin_cb(ctx);
	D->vkCmdResetQueryPool(cb, f->pool, 0, 1);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	cb = xfb_begin_cb(ctx);
	vkqs_target_begin(ctx, cb, t, 1.0f);
	if (type == IF_MESH) {
		D->vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, p->pipeline);
		D->vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, p->layout, 0, 1, &set,
					   0, NULL);
		const uint32_t pc[2] = {12, 0}; /* 12 triangles a workgroup, none culled */
		D->vkCmdPushConstants(cb, p->layout, VK_SHADER_STAGE_MESH_BIT_EXT, 0, sizeof(pc), pc);
	} else {
		xfb_bind(ctx, cb, p, default_grid, 0.0f);
	}
	if (f->b)
		xfb_bind_xfb(ctx, cb, 0, f->b, 0, VK_WHOLE_SIZE);
	D->vkCmdBeginQuery(cb, f->pool, 0, 0);
	if (f->b)
		D->vkCmdBeginTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	for (uint32_t i = 0; i < DRAWS; i++)
		if (type == IF_MESH)
			D->vkCmdDrawMeshTasksEXT(cb, 2, 1, 1);
		else
			D->vkCmdDraw(cb, 12, 1, 0, 0);
	if (f->b)
		D->vkCmdEndTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	D->vkCmdEndQuery(cb, f->pool, 0);
	vkqs_target_end(ctx, cb);
	xfb_to_host_barrier(ctx, cb);
	vkqs_cmd_end(ctx, cb);
	vkqs_submit_gated(ctx, f->gate, cb, f->fence);
}

/* One read of query 0 into v (values, then availability); no check here
 * ends the case (the gate may be shut). */
static VkResult if_read(struct vkqs_ctx *ctx, const struct inflight *f, VkQueryResultFlags flags,
			uint64_t *v)
{
	memset(v, 0, (MAX_VALUES + 1) * sizeof(*v));
	return D->vkGetQueryPoolResults(DEV, f->pool, 0, 1, (f->values + 1) * sizeof(*v), v,
					(f->values + 1) * sizeof(*v),
					VK_QUERY_RESULT_64_BIT |
						VK_QUERY_RESULT_WITH_AVAILABILITY_BIT | flags);
}

/* After the fence: the final values, read without WAIT (the query must
 * be available now). */
static bool if_final(struct vkqs_ctx *ctx, const struct inflight *f, uint64_t *final)
{
	vkqs_fence_wait(ctx, f->fence);
	VkResult r = if_read(ctx, f, 0, final);
	VKQS_EXPECTF(ctx, r == VK_SUCCESS && final[f->values] != 0,
		     "after the fence the query reads %s, availability %" PRIu64,
		     vkqs_vk_result_name(r), final[f->values]);
	return r == VK_SUCCESS && final[f->values] != 0;
}

static uint32_t if_poll_read(struct vkqs_ctx *ctx, void *arg, uint32_t poll,
			     uint64_t out[VKQS_POLL_WORDS])
{
	(void)poll;
	const struct inflight *f = arg;
	if_read(ctx, f, 0, out);
	return f->values;
}

static void available_is_final(struct vkqs_ctx *ctx, const void *param)
{
	enum iftype type = *(const uint8_t *)param;
	struct inflight f;
	struct vkqs_poll *p = vkqs_alloc(ctx, sizeof(*p));
	if_submit(ctx, type, &f, GATE_TIMER_NS);
	/* --- the gate is shut: record, check later --- */
	vkqs_poll_in_flight(ctx, f.gate, f.fence, POLL_LIMIT_NS, if_poll_read, &f, p);
	vkqs_gate_release(ctx, f.gate);
	/* --- the gate is open --- */
	uint64_t final[MAX_VALUES + 1];
	if (!if_final(ctx, &f, final))
		return;
	char a[128], b[128];
	vkqs_values_text(final, f.values, b, sizeof(b));
	VKQS_EXPECTF(ctx, p->early == 0,
		     "%u reads said available before the submission could start (its gate was "
		     "shut): 18.2 a query becomes available when its results are written", p->early);
	for (uint32_t k = 0; k < p->kept; k++) {
		vkqs_values_text(p->seen[k], f.values, a, sizeof(a));
		VKQS_EXPECTF(ctx, !memcmp(p->seen[k], final, f.values * sizeof(uint64_t)),
			     "a read while the work was in flight said available with (%s); the "
			     "final results are (%s): availability came before the values", a, b);
	}
	vkqs_note(ctx, "%u reads in flight, %u unavailable, final (%s)", p->polls, p->unavailable,
		  b);
}

static void wait_in_flight(struct vkqs_ctx *ctx, const void *param)
{
	enum iftype type = *(const uint8_t *)param;
	struct inflight f;
	if_submit(ctx, type, &f, WAIT_OPEN_NS);
	/* --- the gate is shut until its timer opens it, while WAIT waits --- */
	uint64_t v[MAX_VALUES + 1];
	VkResult r = if_read(ctx, &f, VK_QUERY_RESULT_WAIT_BIT, v);
	bool waited = vkqs_gate_opened_by_now(f.gate);
	vkqs_gate_release(ctx, f.gate);
	/* --- the gate is open --- */
	VKQS_EXPECTF(ctx, waited,
		     "vkGetQueryPoolResults with WAIT returned before the submission that writes "
		     "the query could start (its gate was shut)");
	VKQS_EXPECTF(ctx, r == VK_SUCCESS, "vkGetQueryPoolResults with WAIT returned %s",
		     vkqs_vk_result_name(r));
	uint64_t final[MAX_VALUES + 1];
	if (!if_final(ctx, &f, final))
		return;
	char a[128], b[128];
	vkqs_values_text(v, f.values, a, sizeof(a));
	vkqs_values_text(final, f.values, b, sizeof(b));
	VKQS_EXPECTF(ctx, v[f.values] != 0 && !memcmp(v, final, f.values * sizeof(uint64_t)),
		     "the WAIT read returned (%s), availability %" PRIu64 "; the final results "
		     "are (%s)", a, v[f.values], b);
}

static const struct vkqs_case cases[] = {
	{"inflight.available_is_final", available_is_final,
	 "18.2: an available query's results are its final results (reads without WAIT "
	 "while the draws are in flight)",
	 VKQS_PARAMS(if_types, if_name)},
	{"inflight.wait", wait_in_flight,
	 "18.2: VK_QUERY_RESULT_WAIT_BIT \"specifies that Vulkan will wait for each query's "
	 "status to become available before retrieving its results\" (issued before the draws "
	 "could start)",
	 VKQS_PARAMS(if_types, if_name)},
};

VKQS_GROUP(xfb, inflight, cases);
