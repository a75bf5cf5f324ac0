/* vkqs.reset.partial.*: VK_QUERY_RESULT_PARTIAL_BIT while a query's work is pending: a
 * value no greater than the final one, with and without availability. */
#include "reset.h"

/* The watchdog opens a gate this long after the submission.  A read
 * without WAIT returns in microseconds; a second leaves four orders of
 * magnitude for a loaded machine, and bounds what a driver that blocks
 * there (lavapipe) costs the run. */
#define WATCHDOG_NS (1000ull * 1000 * 1000)

/* PARTIAL reads while a gated submission executes. */
#define MAX_POLLS 20000u

/* True while the gate is shut, i.e. the gated work cannot have started.
 * The timer opening it means the host was stuck in a Vulkan call for
 * WATCHDOG_NS since the submission: `during` names that call. */
static bool gate_still_shut(struct vkqs_ctx *ctx, struct vkqs_gate *g, const char *during)
{
	bool by_timer = false;
	if (!vkqs_gate_state(g, &by_timer, NULL))
		return true;
	/* The spec never says in words that a call without WAIT returns while
	 * work waits on the host: legal, but a valid program that signals
	 * after the call deadlocks, so it is a quality problem, not a Fail. */
	if (by_timer)
		vkqs_quality_warning(ctx, "%s did not return for %llu ms while the submission using "
			       "the query waited on a timeline semaphore that only the host "
			       "signals (the watchdog signalled it): it waited for work that "
			       "could not run, so a valid program that signals after the call "
			       "deadlocks.  Timeline semaphores allow wait-before-signal "
			       "(\"Queue Forward Progress\"), and 18.2 makes only "
			       "VK_QUERY_RESULT_WAIT_BIT wait for results",
			  during, (unsigned long long)(WATCHDOG_NS / 1000000ull));
	return false;
}

/* PARTIAL reads of query `q` of r while the gated work runs, until it is
 * available or the fence signals: an unavailable result must not exceed the
 * final one, an available one must be it (18.2).  Reads that happen to land
 * while the query is active are the interesting ones; every read is checked
 * whatever the timing.
 *
 * The evidence is the availability word: "A value of zero indicates that
 * the results are not yet available, otherwise the query is complete and
 * results are available", and "Results for any available query written by
 * this command are final" (1.4.360 queries.adoc).  A non-zero word with a
 * value that is not the final one fails.  VK_NOT_READY beside a non-zero
 * word is no verdict: the query may have become available during the call,
 * after the driver judged the return code (the spec does not say when in
 * the call "unavailable" is judged). */
static void poll_partial(struct vkqs_ctx *ctx, struct rb *r, uint32_t k, uint64_t final,
			 VkFence fence)
{
	for (uint32_t i = 0; i < MAX_POLLS; i++) {
		bool done = D->vkGetFenceStatus(DEV, fence) == VK_SUCCESS;
		reset_rb_fill(ctx, r);
		VkResult got = reset_rb_get(ctx, r);
		uint64_t a = vkqs_load_word(r->bytes + DST_OFFSET + (size_t)k * r->stride +
					       reset_rb_word(r),
				       reset_rb_word(r));
		r->e[k] = a ? (struct qexp){V_EXACT, final, A_NONZERO}
			    : (struct qexp){V_AT_MOST, final, A_ZERO};
		if (a && got == VK_NOT_READY)
			vkqs_report(ctx, VKQS_PASS, __FILE__, __LINE__,
				    "VK_NOT_READY beside a non-zero availability word: the query "
				    "may have become available during the call, no verdict on the "
				    "code");
		else
			reset_check_get_result(ctx, r, got);
		if (!reset_rb_check(ctx, r,
				    a ? "PARTIAL read while the submission executes, availability "
					"word non-zero (\"the query is complete\": the result is final)"
				      : "PARTIAL read while the submission executes") ||
		    a || done)
			return;
	}
}

struct pending_param {
	uint8_t bits;
	bool host;
};

static const struct pending_param pending_params[] = {
	{32, false}, {64, false}, {64, true}};

static void pending_name(const void *param, char *buf, size_t size)
{
	const struct pending_param *p = param;
	snprintf(buf, size, "%u_%s_reset", p->bits, p->host ? "host" : "command");
}

static VkQueryResultFlags width_flag(uint8_t bits)
{
	return bits == 64 ? VK_QUERY_RESULT_64_BIT : 0;
}

/* Submits cb waiting on a new gate (fence f) and, while the gate is still
 * shut, reads r without WAIT and checks it (`what`), then opens the gate.
 * While it is shut no check may end the case. */
static void read_while_gated(struct vkqs_ctx *ctx, VkCommandBuffer cb, VkFence f,
			     struct rb *r, const char *what)
{
	struct vkqs_gate *g = vkqs_gate_create(ctx, WATCHDOG_NS);
	vkqs_submit_gated(ctx, g, cb, f);
	/* --- the gate is shut: no check that ends the case --- */
	if (gate_still_shut(ctx, g, "vkQueueSubmit")) {
		VkResult got = reset_rb_get(ctx, r);
		if (gate_still_shut(ctx, g, "vkGetQueryPoolResults without WAIT")) {
			reset_check_get_result(ctx, r, got);
			reset_rb_check(ctx, r, what);
		}
	}
	vkqs_gate_release(ctx, g);
	/* --- the gate is open --- */
}

/* The common part of the partial.* cases on one occlusion query: an
 * earlier use with the big result, a reset that completes, the gated use
 * (final result `final`).  While the gate is shut the query is unavailable
 * (reset, its use not started): `shut_flags` reads it with expectation
 * `shut`.  Then PARTIAL reads while the work runs (if `poll`), and reads
 * after the fence: exact and available. */
static void pending_case(struct vkqs_ctx *ctx, uint8_t bits, bool host, bool occluded,
			 VkQueryResultFlags shut_flags, struct qexp shut, bool poll)
{
	if (host)
		vkqs_require_feature(ctx, "hostQueryReset");
	struct scene *s = reset_scene_create(ctx, QT_OCCLUSION, 1, 0, occluded);
	const uint64_t final = occluded ? 0 : PENDING_FINAL;
	reset_old_use(ctx, s, 0);
	reset_now(ctx, s, 0, 1, host);
	VkCommandBuffer cb = reset_record_pending(ctx, s, 0, occluded);

	/* Everything the window needs exists before the submission. */
	struct rb *shut_rb = reset_rb_create(ctx, s, PATH_GET, 0, 1, shut_flags, &shut);
	struct qexp pe = {V_AT_MOST, final, A_ZERO};
	struct rb *poll_rb = reset_rb_create(ctx, s, PATH_GET, 0, 1,
				       width_flag(bits) | VK_QUERY_RESULT_PARTIAL_BIT |
					       VK_QUERY_RESULT_WITH_AVAILABILITY_BIT,
				       &pe);
	VkFence f = vkqs_fence(ctx);
	read_while_gated(ctx, cb, f, shut_rb,
			 "read while the submission using the query waits on the host");

	if (poll)
		poll_partial(ctx, poll_rb, 0, final, f);
	vkqs_fence_wait(ctx, f);
	/* The fence signalled after vkCmdEndQuery executed: the query is
	 * available (18.3 "When an occlusion query finishes, the result for
	 * that query is marked as available"), read without WAIT. */
	struct qexp e = {V_EXACT, final, A_NONZERO};
	reset_read_check(ctx, s, PATH_GET, 0, 1, width_flag(bits) | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT,
		   &e, "after the fence");
}

/* PARTIAL | WITH_AVAILABILITY without WAIT while the use waits: availability
 * 0 and a value between 0 and the final result (18.2), never the old one. */
static void partial_pending(struct vkqs_ctx *ctx, const void *param)
{
	const struct pending_param *p = param;
	struct qexp shut = {V_AT_MOST, PENDING_FINAL, A_ZERO};
	pending_case(ctx, p->bits, p->host, false,
		     width_flag(p->bits) | VK_QUERY_RESULT_PARTIAL_BIT |
			     VK_QUERY_RESULT_WITH_AVAILABILITY_BIT,
		     shut, true);
}

/* The gated draws are all rejected by the depth test: final result 0, so
 * the only intermediate result "between zero and the final result value"
 * is 0 (bug class 3: NVIDIA returned non-zero partial results for fully
 * occluded objects). */
static void partial_pending_zero_final(struct vkqs_ctx *ctx, const void *param)
{
	struct qexp shut = {V_AT_MOST, 0, A_ZERO};
	pending_case(ctx, 64, false, true,
		     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_PARTIAL_BIT |
			     VK_QUERY_RESULT_WITH_AVAILABILITY_BIT,
		     shut, true);
}

struct no_partial_param {
	uint8_t bits;
	bool avail;
};

static const struct no_partial_param no_partial_params[] = {{32, false}, {64, true}};

static void no_partial_name(const void *param, char *buf, size_t size)
{
	const struct no_partial_param *p = param;
	snprintf(buf, size, "%u%s", p->bits, p->avail ? "_with_availability" : "");
}

/* Without PARTIAL or WAIT while the use waits: VK_NOT_READY, availability 0,
 * the value not written (18.2; see V_UNWRITTEN). */
static void pending_without_partial(struct vkqs_ctx *ctx, const void *param)
{
	const struct no_partial_param *p = param;
	VkQueryResultFlags flags = width_flag(p->bits) |
				   (p->avail ? VK_QUERY_RESULT_WITH_AVAILABILITY_BIT : 0);
	pending_case(ctx, p->bits, false, false, flags, reset_exp_reset(PATH_GET, flags), false);
}

/* Query 0 holds a final result, query 1 was reset and its use waits: one
 * PARTIAL | WITH_AVAILABILITY read of both returns query 0's final result
 * (available) and for query 1 availability 0 and at most its final result. */
static void partial_pending_mixed(struct vkqs_ctx *ctx, const void *param)
{
	const uint32_t gen = 3;
	const VkQueryResultFlags flags = VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_PARTIAL_BIT |
					 VK_QUERY_RESULT_WITH_AVAILABILITY_BIT;
	struct scene *s = reset_scene_create(ctx, QT_OCCLUSION, 2, 0, false);
	reset_use_now(ctx, s, 0, 1, gen);
	reset_old_use(ctx, s, 1);
	reset_now(ctx, s, 1, 1, false);
	VkCommandBuffer cb = reset_record_pending(ctx, s, 1, false);

	struct qexp shut[2] = {reset_exp_used(s, 0, gen), {V_AT_MOST, PENDING_FINAL, A_ZERO}};
	struct rb *r = reset_rb_create(ctx, s, PATH_GET, 0, 2, flags, shut);
	VkFence f = vkqs_fence(ctx);
	read_while_gated(ctx, cb, f, r, "an available query and one whose use waits");
	vkqs_fence_wait(ctx, f);
	struct qexp done[2] = {reset_exp_used(s, 0, gen), {V_EXACT, PENDING_FINAL, A_NONZERO}};
	reset_read_check(ctx, s, PATH_GET, 0, 2, flags, done, "after the fence");
}

/* A timestamp query reset, its write gated: PARTIAL is not allowed on
 * timestamp pools (VUID-vkGetQueryPoolResults-queryType-09439), so the
 * read is WITH_AVAILABILITY only: VK_NOT_READY, availability 0, the value
 * not written, never the old timestamp. */
static void pending_timestamp(struct vkqs_ctx *ctx, const void *param)
{
	const VkQueryResultFlags flags = F64A;
	struct scene *s = reset_scene_create(ctx, QT_TIMESTAMP, 1, 0, false);
	reset_use_now(ctx, s, 0, 1, 0);
	reset_now(ctx, s, 0, 1, false);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	reset_record_use(ctx, cb, s, 0, 1, 0);
	vkqs_cmd_end(ctx, cb);

	struct qexp shut = reset_exp_reset(PATH_GET, flags);
	struct rb *r = reset_rb_create(ctx, s, PATH_GET, 0, 1, flags, &shut);
	VkFence f = vkqs_fence(ctx);
	read_while_gated(ctx, cb, f, r, "read while the timestamp write waits on the host");
	vkqs_fence_wait(ctx, f);
	struct qexp done = reset_exp_used(s, 0, 0);
	reset_read_check(ctx, s, PATH_GET, 0, 1, flags, &done, "after the fence");
}

#define SPEC_PARTIAL                                                               \
	"18.2: \"If VK_QUERY_RESULT_PARTIAL_BIT is set, then for any query that is " \
	"unavailable, an intermediate result between zero and the final result "    \
	"value is written for that query\"; with WITH_AVAILABILITY \"A value of "    \
	"zero indicates that the results are not yet available\""

static const struct vkqs_case cases[] = {
	{.name = "partial.pending",
	 .fn = partial_pending,
	 .spec = SPEC_PARTIAL " (the query reset, its use waiting on a timeline "
			      "semaphore; then while it executes)",
	 .params = VKQS_PARAMS(pending_params, pending_name)},
	{.name = "partial.pending_zero_final",
	 .fn = partial_pending_zero_final,
	 .spec = SPEC_PARTIAL " (final result 0: every intermediate result is 0)"},
	{.name = "partial.pending_mixed",
	 .fn = partial_pending_mixed,
	 .spec = SPEC_PARTIAL "; \"Results for any available query written by this "
			      "command are final\""},
	{.name = "partial.pending_without_partial",
	 .fn = pending_without_partial,
	 .spec = SPEC_NOT_READY "; without PARTIAL or WAIT no value is written for an "
				"unavailable query (earlier spec versions, the CTS)",
	 .params = VKQS_PARAMS(no_partial_params, no_partial_name)},
	{.name = "partial.pending_timestamp",
	 .fn = pending_timestamp,
	 .spec = SPEC_NOT_READY "; VUID-vkGetQueryPoolResults-queryType-09439 (no PARTIAL "
				"for timestamps): availability 0 while the write waits"},
};

VKQS_GROUP(reset, partial, cases);
