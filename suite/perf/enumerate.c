/* vkqs.perf: counter enumeration and pass counts (perf.h; the area: perf.c). */
#include "perf.h"

/* Enumeration -------------------------------------------------------------------*/

static void enum_count_stable(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	uint32_t again = 0;
	VKQS_CHECK(ctx, pf->enumerate(ctx->vk->phys, pf->family, &again, NULL, NULL));
	VKQS_EXPECT_EQ(ctx, again, pf->count);
	uint32_t n = pf->count;
	VkPerformanceCounterKHR *c = vkqs_alloc(ctx, n * sizeof(*c));
	perf_enumerate(ctx, pf, pf->family, &n, c, NULL, NULL);
	VKQS_EXPECT_EQ(ctx, n, pf->count);
}

static const uint32_t short_by[] = {1, 2};
static void short_by_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "short_by_%u", *(const uint32_t *)p);
}

/* VK_INCOMPLETE, at most *pCounterCount written, nothing past them. */
static void enum_incomplete(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	uint32_t by = *(const uint32_t *)param;
	if (pf->count < by)
		vkqs_skip(ctx, "%u counters: cannot ask for %u fewer", pf->count, by);
	uint32_t n = pf->count - by;
	VkPerformanceCounterKHR *c = vkqs_alloc(ctx, pf->count * sizeof(*c));
	VkPerformanceCounterDescriptionKHR *d = vkqs_alloc(ctx, pf->count * sizeof(*d));
	memset(c, GUARD, pf->count * sizeof(*c));
	memset(d, GUARD, pf->count * sizeof(*d));
	VkResult r;
	perf_enumerate(ctx, pf, pf->family, &n, c, d, &r);
	VKQS_EXPECT_VK(ctx, r, VK_INCOMPLETE);
	VKQS_EXPECT_EQ(ctx, n, pf->count - by);
	for (uint32_t i = 0; i < n; i++) {
		VKQS_EXPECTF(ctx, memcmp(c[i].uuid, pf->c[i].uuid, VK_UUID_SIZE) == 0,
			     "counter %u: the UUID differs from the full enumeration's", i);
		VKQS_EXPECTF(ctx, strcmp(d[i].name, pf->d[i].name) == 0,
			     "counter %u: \"%s\", the full enumeration has \"%s\"", i, d[i].name,
			     pf->d[i].name);
	}
	const uint8_t *tail = (const uint8_t *)&c[pf->count - by];
	const uint8_t *dtail = (const uint8_t *)&d[pf->count - by];
	bool untouched = true;
	for (size_t i = 0; i < by * sizeof(*c); i++)
		untouched &= tail[i] == GUARD;
	for (size_t i = 0; i < by * sizeof(*d); i++)
		untouched &= dtail[i] == GUARD;
	VKQS_EXPECTF(ctx, untouched, "elements past *pCounterCount = %u were written", pf->count - by);
}

static void enum_zero_count(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	uint32_t n = 0;
	VkPerformanceCounterKHR c;
	VkPerformanceCounterDescriptionKHR d;
	memset(&c, GUARD, sizeof(c));
	memset(&d, GUARD, sizeof(d));
	VkResult r = pf->enumerate(ctx->vk->phys, pf->family, &n, &c, &d);
	VKQS_EXPECT_VK(ctx, r, VK_INCOMPLETE);
	VKQS_EXPECT_EQ(ctx, n, 0);
	VKQS_EXPECTF(ctx, c.unit == (VkPerformanceCounterUnitKHR)0xA5A5A5A5u &&
				  d.flags == 0xA5A5A5A5u,
		     "a zero count wrote an element");
}

/* Either array alone gets the same elements as both together. */
static void enum_one_array(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	bool counters = *(const bool *)param;
	uint32_t n = pf->count;
	VkPerformanceCounterKHR *c = vkqs_alloc(ctx, n * sizeof(*c));
	VkPerformanceCounterDescriptionKHR *d = vkqs_alloc(ctx, n * sizeof(*d));
	perf_enumerate(ctx, pf, pf->family, &n, counters ? c : NULL, counters ? NULL : d, NULL);
	VKQS_EXPECT_EQ(ctx, n, pf->count);
	for (uint32_t i = 0; i < n && i < pf->count; i++) {
		if (counters)
			VKQS_EXPECTF(ctx, memcmp(c[i].uuid, pf->c[i].uuid, VK_UUID_SIZE) == 0 &&
						  c[i].unit == pf->c[i].unit &&
						  c[i].storage == pf->c[i].storage &&
						  c[i].scope == pf->c[i].scope,
				     "counter %u differs from the enumeration with both arrays", i);
		else
			VKQS_EXPECTF(ctx, strcmp(d[i].name, pf->d[i].name) == 0,
				     "description %u differs from the enumeration with both arrays", i);
	}
}
static const bool one_array[] = {true, false};
static void one_array_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "%s", *(const bool *)p ? "counters_only" : "descriptions_only");
}

static void enum_unique_uuids(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	for (uint32_t i = 0; i < pf->count; i++)
		for (uint32_t k = i + 1; k < pf->count; k++)
			VKQS_EXPECTF(ctx, memcmp(pf->c[i].uuid, pf->c[k].uuid, VK_UUID_SIZE) != 0,
				     "counters %u \"%s\" and %u \"%s\" have the same UUID", i,
				     pf->d[i].name, k, pf->d[k].name);
}

/* unit, scope and storage are values of their enums; flags only the two
 * defined bits; the strings terminated within VK_MAX_DESCRIPTION_SIZE, the
 * name not empty. */
static void enum_fields_valid(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	for (uint32_t i = 0; i < pf->count; i++) {
		const VkPerformanceCounterKHR *c = &pf->c[i];
		const VkPerformanceCounterDescriptionKHR *d = &pf->d[i];
		VKQS_EXPECTF(ctx, (uint32_t)c->unit <= VK_PERFORMANCE_COUNTER_UNIT_CYCLES_KHR,
			     "counter %u: unit %d", i, c->unit);
		VKQS_EXPECTF(ctx, (uint32_t)c->scope <= VK_PERFORMANCE_COUNTER_SCOPE_COMMAND_KHR,
			     "counter %u: scope %d", i, c->scope);
		VKQS_EXPECTF(ctx, (uint32_t)c->storage <= VK_PERFORMANCE_COUNTER_STORAGE_FLOAT64_KHR,
			     "counter %u: storage %d", i, c->storage);
		VKQS_EXPECTF(ctx, (d->flags & ~(VkPerformanceCounterDescriptionFlagsKHR)(
						     VK_PERFORMANCE_COUNTER_DESCRIPTION_PERFORMANCE_IMPACTING_BIT_KHR |
						     VK_PERFORMANCE_COUNTER_DESCRIPTION_CONCURRENTLY_IMPACTED_BIT_KHR)) == 0,
			     "counter %u: description flags 0x%x", i, d->flags);
		VKQS_EXPECTF(ctx, memchr(d->name, 0, sizeof(d->name)) && d->name[0],
			     "counter %u: the name is empty or unterminated", i);
		VKQS_EXPECTF(ctx, memchr(d->category, 0, sizeof(d->category)) &&
					  memchr(d->description, 0, sizeof(d->description)),
			     "counter %u: category or description unterminated", i);
	}
}

/* Every queue family answers; a family's count is stable. */
static void enum_every_family(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	for (uint32_t f = 0; f < ctx->vk->info.family_count; f++) {
		uint32_t a = 0, b = 0;
		VKQS_CHECK(ctx, pf->enumerate(ctx->vk->phys, f, &a, NULL, NULL));
		VKQS_CHECK(ctx, pf->enumerate(ctx->vk->phys, f, &b, NULL, NULL));
		VKQS_EXPECTF(ctx, a == b, "family %u: %u counters, then %u", f, a, b);
	}
}

/* Passes ----------------------------------------------------------------------*/

static void passes_single(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	for (uint32_t i = 0; i < pf->count; i++) {
		uint32_t n = perf_passes(ctx, pf, &i, 1);
		VKQS_EXPECTF(ctx, n >= 1, "counter %u \"%s\" alone needs %u passes", i, pf->d[i].name, n);
		VKQS_EXPECTF(ctx, perf_passes(ctx, pf, &i, 1) == n, "counter %u: the pass count changed", i);
	}
}

/* A set needs at least the passes of each of its counters. */
static void passes_all(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	uint32_t *all = vkqs_alloc(ctx, pf->count * sizeof(*all));
	uint32_t most = 0;
	for (uint32_t i = 0; i < pf->count; i++) {
		all[i] = i;
		uint32_t n = perf_passes(ctx, pf, &i, 1);
		most = n > most ? n : most;
	}
	uint32_t n = perf_passes(ctx, pf, all, pf->count);
	VKQS_EXPECTF(ctx, n >= most, "all %u counters need %u passes; one of them alone needs %u",
		     pf->count, n, most);
}

static void passes_pairs(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	for (uint32_t i = 0; i + 1 < pf->count; i++) {
		uint32_t pair[2] = {i, i + 1};
		uint32_t a = perf_passes(ctx, pf, &pair[0], 1), b = perf_passes(ctx, pf, &pair[1], 1);
		uint32_t ab = perf_passes(ctx, pf, pair, 2);
		VKQS_EXPECTF(ctx, ab >= a && ab >= b, "counters %u and %u need %u and %u passes, "
						      "together %u", i, i + 1, a, b, ab);
	}
}

static const struct vkqs_case cases[] = {
	ROW("enumerate.count_stable", enum_count_stable, SPEC_ENUM),
	{"enumerate.incomplete", enum_incomplete, SPEC_ENUM, VKQS_PARAMS(short_by, short_by_name)},
	ROW("enumerate.zero_count", enum_zero_count, SPEC_ENUM),
	{"enumerate.one_array", enum_one_array, SPEC_ENUM, VKQS_PARAMS(one_array, one_array_name)},
	ROW("enumerate.unique_uuids", enum_unique_uuids,
	    "VkPerformanceCounterKHR::uuid: a unique identifier for the counter"),
	ROW("enumerate.fields_valid", enum_fields_valid,
	    "VkPerformanceCounterKHR / VkPerformanceCounterDescriptionKHR: values of their enums, "
	    "null-terminated UTF-8 strings"),
	ROW("enumerate.every_family", enum_every_family, SPEC_ENUM),
	ROW("passes.single_counter", passes_single,
	    "vkGetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR: the passes a pool needs"),
	ROW("passes.all_counters", passes_all,
	    "vkGetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR: a set needs each member's passes"),
	ROW("passes.pairs", passes_pairs,
	    "vkGetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR: a set needs each member's passes"),
};

VKQS_GROUP(perf, enumerate, cases);
