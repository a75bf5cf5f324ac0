/* vkqs.reset.create_reset.*: VK_KHR_maintenance9's reset-on-create lets the first use
 * come without a reset. */
#include "reset.h"

/* create_reset: VK_QUERY_POOL_CREATE_RESET_BIT_KHR (maintenance9) ----------*/

/* A pool created with VK_QUERY_POOL_CREATE_RESET_BIT_KHR: "queries in the
 * query pool are initialized on creation and do not need to be reset
 * before first use".  Initialized means reset: read before any use, the
 * queries are unavailable; used without any reset, they hold exact
 * results. */
static void create_reset(struct vkqs_ctx *ctx, const void *param)
{
	const struct tp_param *p = param;
	const uint32_t n = ORDER_QUERIES;
	if (!vkqs_device_has_ext(&ctx->vk->info, VK_KHR_MAINTENANCE_9_EXTENSION_NAME))
		vkqs_skip(ctx, "the device lacks %s", VK_KHR_MAINTENANCE_9_EXTENSION_NAME);
	vkqs_require_feature(ctx, VK_KHR_MAINTENANCE_9_EXTENSION_NAME ".maintenance9");
	struct scene *s = reset_scene_create(ctx, p->type, n, VK_QUERY_POOL_CREATE_RESET_BIT_KHR,
				       false);
	struct qexp e[ORDER_QUERIES];
	for (uint32_t q = 0; q < n; q++)
		e[q] = reset_exp_reset(p->path, F64A);
	reset_read_check(ctx, s, p->path, 0, n, F64A, e, "a pool created reset, before any use");

	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	reset_record_use(ctx, cb, s, 0, n, ORDER_GEN);
	reset_submit_wait_one(ctx, cb);
	reset_read_used(ctx, s, p->path, n, ORDER_GEN, "first use without a reset");
}

/* The other query types: a pool created with the bit, read before any
 * use, has every query unavailable: each availability word 0 (the return
 * code may be VK_NOT_READY or VK_SUCCESS; the values are undefined and not
 * looked at).
 * The bit is a property of the pool, not of a query type, so a driver that
 * honours it for occlusion and timestamps only fails here.  Performance
 * queries are left out: a pool not yet recorded once per pass cannot be
 * read (VUID-vkGetQueryPoolResults-queryType-03231); video pools need a
 * profile of their own. */
struct cr_type {
	VkQueryType type;
	const char *name;
	const char *feature;     /* enabled feature the type needs */
	uint32_t values;         /* result values per query */
	VkQueryPipelineStatisticFlags stats;
};

static const struct cr_type cr_types[] = {
	{VK_QUERY_TYPE_PIPELINE_STATISTICS, "pipeline_statistics", "pipelineStatisticsQuery", 2,
	 VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_VERTICES_BIT |
		 VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT},
	{VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT, "transform_feedback_stream",
	 VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME ".transformFeedback", 2, 0},
	{VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, "primitives_generated",
	 VK_EXT_PRIMITIVES_GENERATED_QUERY_EXTENSION_NAME ".primitivesGeneratedQuery", 1, 0},
	{VK_QUERY_TYPE_MESH_PRIMITIVES_GENERATED_EXT, "mesh_primitives_generated",
	 VK_EXT_MESH_SHADER_EXTENSION_NAME ".meshShaderQueries", 1, 0},
	{VK_QUERY_TYPE_TIME_ELAPSED_QCOM, "time_elapsed",
	 VK_QCOM_ELAPSED_TIMER_QUERY_EXTENSION_NAME ".elapsedTimerQuery", 1, 0},
	{VK_QUERY_TYPE_ACCELERATION_STRUCTURE_COMPACTED_SIZE_KHR, "accel_compacted_size",
	 VK_KHR_ACCELERATION_STRUCTURE_EXTENSION_NAME ".accelerationStructure", 1, 0},
};

static void cr_type_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", ((const struct cr_type *)param)->name);
}

static void create_reset_unavailable(struct vkqs_ctx *ctx, const void *param)
{
	const struct cr_type *t = param;
	enum { N = 4 };
	if (!vkqs_device_has_ext(&ctx->vk->info, VK_KHR_MAINTENANCE_9_EXTENSION_NAME))
		vkqs_skip(ctx, "the device lacks %s", VK_KHR_MAINTENANCE_9_EXTENSION_NAME);
	vkqs_require_feature(ctx, VK_KHR_MAINTENANCE_9_EXTENSION_NAME ".maintenance9");
	vkqs_require_feature(ctx, t->feature);
	VkQueryPool pool = vkqs_query_pool_flags(ctx, t->type, N, t->stats,
						 VK_QUERY_POOL_CREATE_RESET_BIT_KHR, NULL);
	const uint32_t words = t->values + 1;
	uint64_t data[N * 3];
	memset(data, GUARD, sizeof(data));
	VkResult r = D->vkGetQueryPoolResults(DEV, pool, 0, N, (size_t)N * words * 8, data,
					      (VkDeviceSize)words * 8,
					      VK_QUERY_RESULT_64_BIT |
						      VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
	/* "If VK_QUERY_RESULT_WAIT_BIT is not set, vkGetQueryPoolResults may
	 * return VK_NOT_READY if there are queries in the unavailable state"
	 * (queries.adoc): VK_SUCCESS is legal too; the availability words are
	 * what says it. */
	VKQS_EXPECTF(ctx, r == VK_NOT_READY || r == VK_SUCCESS,
		     "vkGetQueryPoolResults of %u never-used queries of a %s pool created with "
		     "VK_QUERY_POOL_CREATE_RESET_BIT_KHR returned %s, expected VK_NOT_READY or "
		     "VK_SUCCESS",
		     N, t->name, vkqs_vk_result_name(r));
	for (uint32_t q = 0; q < N; q++)
		VKQS_EXPECTF(ctx, data[q * words + t->values] == 0,
			     "query %u of a %s pool created with VK_QUERY_POOL_CREATE_RESET_BIT_KHR, "
			     "read before any use: availability word 0x%llx, expected 0 (unavailable)",
			     q, t->name, (unsigned long long)data[q * words + t->values]);
}

static const struct vkqs_case cases[] = {
	{.name = "create_reset.first_use_without_reset",
	 .fn = create_reset,
	 .spec = "VK_KHR_maintenance9: VK_QUERY_POOL_CREATE_RESET_BIT_KHR \"specifies "
		 "that queries in the query pool are initialized on creation and do not "
		 "need to be reset before first use\"",
	 .params = VKQS_PARAMS(tp_params, reset_tp_name)},
	{.name = "create_reset.unavailable_before_use",
	 .fn = create_reset_unavailable,
	 .spec = "VK_KHR_maintenance9: VK_QUERY_POOL_CREATE_RESET_BIT_KHR \"specifies "
		 "that queries in the query pool are initialized on creation\": of every query "
		 "type, read before any use, the queries are unavailable",
	 VKQS_PARAMS(cr_types, cr_type_name)},
};

VKQS_GROUP(reset, create_reset, cases);
