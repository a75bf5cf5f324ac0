/* vkqs.reset.not_ready.*: VK_NOT_READY for unavailable queries, one unavailable among
 * available ones, and a range that excludes them. */
#include "reset.h"

/* not_ready: VK_NOT_READY exactly when a read query is unavailable ---------*/

#define NR_QUERIES 4u

#define NR_GEN 3u

/* Every query of the pool available: VK_SUCCESS for any flags without WAIT
 * (18.2 allows VK_NOT_READY only "if there are queries in the unavailable
 * state"), with and without WITH_AVAILABILITY. */
static void not_ready_all_available(struct vkqs_ctx *ctx, const void *param)
{
	const enum qtype type = *(const uint8_t *)param;
	struct scene *s = reset_scene_create(ctx, type, NR_QUERIES, 0, false);
	reset_use_now(ctx, s, 0, NR_QUERIES, NR_GEN);
	struct qexp e[NR_QUERIES];
	for (uint32_t q = 0; q < NR_QUERIES; q++)
		e[q] = reset_exp_used(s, q, NR_GEN);
	reset_read_check(ctx, s, PATH_GET, 0, NR_QUERIES, F64A, e,
		   "every query available, WITH_AVAILABILITY");
	reset_read_check(ctx, s, PATH_GET, 0, NR_QUERIES, VK_QUERY_RESULT_64_BIT, e,
		   "every query available, no availability word");
	reset_read_check(ctx, s, PATH_GET, 0, NR_QUERIES, 0, e,
		   "every query available, 32-bit");
}

struct one_unavailable_param {
	uint8_t type;
	uint8_t pos;
};

static const struct one_unavailable_param one_unavailable_params[] = {
	{QT_OCCLUSION, 0}, {QT_OCCLUSION, 1}, {QT_OCCLUSION, NR_QUERIES - 1},
	{QT_TIMESTAMP, 0}, {QT_TIMESTAMP, 1}, {QT_TIMESTAMP, NR_QUERIES - 1},
};

static void one_unavailable_name(const void *param, char *buf, size_t size)
{
	const struct one_unavailable_param *p = param;
	snprintf(buf, size, "%s_%s", qtype_names[p->type],
		 p->pos == 0 ? "first" : p->pos == NR_QUERIES - 1 ? "last" : "middle");
}

/* All queries but one reset and used; that one reset and never used.  A
 * read of all of them without WAIT: VK_NOT_READY (CompatibilityWarning if
 * VK_SUCCESS, see check_get_result), the others' final results and non-zero
 * availability, availability 0 for that one, wherever it is (a driver that
 * checks only the first or the last query is caught). */
static void not_ready_one_unavailable(struct vkqs_ctx *ctx, const void *param)
{
	const struct one_unavailable_param *p = param;
	struct scene *s = reset_scene_create(ctx, p->type, NR_QUERIES, 0, false);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, s->pool, 0, NR_QUERIES);
	if (p->pos > 0)
		reset_record_use(ctx, cb, s, 0, p->pos, NR_GEN);
	const uint32_t pos = p->pos;
	if (pos + 1 < NR_QUERIES)
		reset_record_use(ctx, cb, s, pos + 1, NR_QUERIES - pos - 1, NR_GEN);
	reset_submit_wait_one(ctx, cb);
	struct qexp e[NR_QUERIES];
	for (uint32_t q = 0; q < NR_QUERIES; q++)
		e[q] = q == p->pos ? reset_exp_reset(PATH_GET, F64A) : reset_exp_used(s, q, NR_GEN);
	reset_read_check(ctx, s, PATH_GET, 0, NR_QUERIES, F64A, e,
		   "one query reset and never used");
	for (uint32_t q = 0; q < NR_QUERIES; q++)
		if (q == p->pos)
			e[q] = reset_exp_reset(PATH_GET, 0);
	reset_read_check(ctx, s, PATH_GET, 0, NR_QUERIES, VK_QUERY_RESULT_64_BIT, e,
		   "one query reset and never used, no availability word");
}

/* Queries 0..2 available, 3 reset and never used: reads of [0, 3) and
 * [1, 3) do not include the unavailable one and return VK_SUCCESS (a driver
 * that decides VK_NOT_READY over the whole pool, or the wrong range, is
 * caught); a read of [2, 4) does include it. */
static void not_ready_range_excludes_unavailable(struct vkqs_ctx *ctx, const void *param)
{
	const enum qtype type = *(const uint8_t *)param;
	const uint32_t last = NR_QUERIES - 1;
	struct scene *s = reset_scene_create(ctx, type, NR_QUERIES, 0, false);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, s->pool, 0, NR_QUERIES);
	reset_record_use(ctx, cb, s, 0, last, NR_GEN);
	reset_submit_wait_one(ctx, cb);
	struct qexp e[NR_QUERIES];
	for (uint32_t q = 0; q < NR_QUERIES; q++)
		e[q] = q == last ? reset_exp_reset(PATH_GET, F64A) : reset_exp_used(s, q, NR_GEN);
	reset_read_check(ctx, s, PATH_GET, 0, last, F64A, e, "queries [0, 3), all available");
	reset_read_check(ctx, s, PATH_GET, 1, last - 1, F64A, e + 1, "queries [1, 3), all available");
	reset_read_check(ctx, s, PATH_GET, 2, 2, F64A, e + 2, "queries [2, 4), query 3 unavailable");
}

static const struct vkqs_case cases[] = {
	{.name = "not_ready.all_available",
	 .fn = not_ready_all_available,
	 .spec = SPEC_NOT_READY ": with every read query available the result is VK_SUCCESS",
	 .params = VKQS_PARAMS(type_params, reset_type_name)},
	{.name = "not_ready.one_unavailable",
	 .fn = not_ready_one_unavailable,
	 .spec = SPEC_NOT_READY "; \"Results for any available query written by this "
				"command are final\"; availability 0 for the unavailable one",
	 .params = VKQS_PARAMS(one_unavailable_params, one_unavailable_name)},
	{.name = "not_ready.range_excludes_unavailable",
	 .fn = not_ready_range_excludes_unavailable,
	 .spec = SPEC_NOT_READY ": only the queries [firstQuery, firstQuery + "
				"queryCount - 1] decide it",
	 .params = VKQS_PARAMS(type_params, reset_type_name)},
};

VKQS_GROUP(reset, not_ready, cases);
