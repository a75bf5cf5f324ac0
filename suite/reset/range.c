/* vkqs.reset.range.*: resetting part of a pool leaves the other queries' results and
 * availability alone, by command and from the host. */
#include "reset.h"

/* range: a reset of part of a pool ----------------------------------------*/

#define RANGE_QUERIES 6u

#define RANGE_FIRST 2u

#define RANGE_COUNT 2u

struct range_param {
	uint8_t type;
	uint8_t path;
	bool host;
};

static const struct range_param range_params[] = {
	{QT_OCCLUSION, PATH_GET, false},  {QT_OCCLUSION, PATH_COPY, false},
	{QT_OCCLUSION, PATH_GET, true},   {QT_OCCLUSION, PATH_COPY, true},
	{QT_TIMESTAMP, PATH_GET, false},  {QT_TIMESTAMP, PATH_COPY, false},
	{QT_TIMESTAMP, PATH_GET, true},   {QT_TIMESTAMP, PATH_COPY, true},
};

static void range_name(const void *param, char *buf, size_t size)
{
	const struct range_param *p = param;
	snprintf(buf, size, "%s_%s_reset_%s", qtype_names[p->type],
		 p->host ? "host" : "command", path_names[p->path]);
}

static bool in_range(uint32_t q)
{
	return q >= RANGE_FIRST && q < RANGE_FIRST + RANGE_COUNT;
}

/* Six queries hold results; queries 2 and 3 are reset (18.2: the status of
 * "[firstQuery, firstQuery + queryCount - 1]" becomes unavailable, nothing
 * else).  The others keep their final results and stay available; the
 * reset ones read availability 0 (and VK_NOT_READY from the get).  Then
 * only 2 and 3 are used again: they read the new use, the others the old. */
static void range_partial_reset(struct vkqs_ctx *ctx, const void *param)
{
	const struct range_param *p = param;
	const uint32_t n = RANGE_QUERIES, gen0 = 1, gen1 = 6;
	enum path path = p->path;
	if (p->host)
		vkqs_require_feature(ctx, "hostQueryReset");
	struct scene *s = reset_scene_create(ctx, p->type, n, 0, false);
	reset_use_now(ctx, s, 0, n, gen0);
	uint64_t known[RANGE_QUERIES];
	reset_read_baseline(ctx, s, 0, n, known);

	reset_now(ctx, s, RANGE_FIRST, RANGE_COUNT, p->host);
	struct qexp e[RANGE_QUERIES];
	for (uint32_t q = 0; q < n; q++)
		e[q] = in_range(q) ? reset_exp_reset(path, F64A) : reset_exp_known(s, q, gen0, known[q]);
	reset_read_check(ctx, s, path, 0, n, F64A, e, "after the reset of queries 2 and 3");

	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	reset_record_use(ctx, cb, s, RANGE_FIRST, RANGE_COUNT, gen1);
	reset_submit_wait_one(ctx, cb);
	for (uint32_t q = RANGE_FIRST; q < RANGE_FIRST + RANGE_COUNT; q++)
		e[q] = reset_exp_used(s, q, gen1);
	reset_read_check(ctx, s, path, 0, n, F64A, e, "after queries 2 and 3 were used again");
}

static const struct vkqs_case cases[] = {
	{.name = "range.partial_reset",
	 .fn = range_partial_reset,
	 .spec = SPEC_RESET "; " SPEC_HOST_RESET ": only the queries in the range become "
				"unavailable; the others keep their final results",
	 .params = VKQS_PARAMS(range_params, range_name)},
};

VKQS_GROUP(reset, range, cases);
