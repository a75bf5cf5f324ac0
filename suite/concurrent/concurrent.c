/* Concurrent queries (spec 18.2): queries of different types active over
 * the same draws, queries across vkCmdExecuteCommands (inherited by
 * secondary command buffers, or begun and ended inside one), timestamps
 * written inside secondaries and inside other queries' scopes, and queries
 * that contain entire render pass instances.
 *
 * Every case is a script: a list of operations (render pass instances,
 * draws, query begin/end, timestamps, barriers, secondary command buffers
 * and their execution) that is first simulated, in execution order, to get
 * each query's expected value and what the device must support, and then
 * recorded into real command buffers.  The simulation follows 18.2: "Occlusion
 * queries and pipeline statistics queries count events ... resulting from
 * commands that are recorded between a vkCmdBeginQuery command and a
 * vkCmdEndQuery command", and "Queries active in a primary command buffer
 * when secondary command buffers are executed are considered active for
 * those secondary command buffers"; a secondary's draws count where it is
 * executed, as often as it is executed.
 *
 * Oracles:
 * - Occlusion, precise: exact.  Every rectangle has integer edges in a
 *   64 x 64 framebuffer, so with standard sample locations it covers
 *   exactly w * h pixels and all their samples (see suite/occlusion), and
 *   Sample Counting adds `samples` per covered pixel.  A query that begins
 *   outside a render pass instance contains whole instances, whose load
 *   operations "may count towards the results of queries" (18.2): there
 *   the draws are a lower bound and more is CompatibilityWarning.
 *   The rectangles' areas are distinct powers of two (64 ... 4096), so a
 *   wrong sum usually shows which draws were counted.
 * - Occlusion, not precise: non-zero exactly when samples passed (18.3).
 * - Pipeline statistics (18.4): lower bounds.  A draw of 6k vertices
 *   (triangle list, k copies of a rectangle) gives at least 6k input
 *   assembly vertices and vertex shader invocations (a vertex shader runs
 *   at least once per vertex of a draw; vertex indices of a non-indexed
 *   draw are all distinct, so no result can be reused), 2k primitives, and
 *   at least one fragment shader invocation per covered pixel (no sample
 *   shading: one invocation per fragment; the colour output is written to
 *   the attachment).  Rectangles have even edges, so 2 x 2 quads are whole
 *   and no helper invocation is needed.  "Various device architectures will
 *   count these values differently" (18.4), so a vertex-side count above
 *   the draws in scope is CompatibilityWarning, never Fail (the fragment
 *   count has no upper bound here, see check_stats).
 * - Timestamps (18.5): non-zero, no bit above timestampValidBits, and a
 *   write that happens-after another (a full barrier between them, in
 *   submission order through secondaries) is not lower, unless it wrapped
 *   within the host interval around the submission.
 *
 * Valid usage that shapes the scripts:
 * - VUID-vkCmdBeginQuery-queryPool-01922: a query pool's type must differ
 *   from that of every query active in the command buffer, so two
 *   occlusion queries (even of different pools) are never active at once;
 *   occlusion and statistics queries are.
 * - VUID-vkCmdExecuteCommands-commandBuffer-00101/00102/00103/00104: with
 *   a query active, inheritedQueries is required and each secondary must
 *   have occlusionQueryEnable, the query's flags, and the pool's
 *   statistics in its VkCommandBufferInheritanceInfo.
 * - VUID-vkCmdExecuteCommands-pCommandBuffers-00105: a secondary must not
 *   begin a query type active in the primary (it may begin another type).
 * - VUID-vkCmdExecuteCommands-pCommandBuffers-00092/00093: executing one
 *   secondary twice in a primary needs SIMULTANEOUS_USE.
 * - A subpass begun with VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS holds
 *   only vkCmdExecuteCommands, so a primary's query around secondaries
 *   that draw begins outside the render pass instance.
 */
#include <stdio.h>
#include <string.h>

#include "tscheck.h"
#include "verdict.h"
#include "vkutil.h"

#define D (VKQS_D(ctx))
#define DEV (VKQS_DEV(ctx))

#define FB 64u
#define OCC_POOLS 2u
#define QUERIES 4u     /* per occlusion pool, and in the statistics pool */
#define MAX_SEC 3u
#define MAX_OPS 64u
#define MAX_TS 12u     /* slots: first, the script's, last, unwritten */
#define FILL_SIZE (1u << 20)
#define TS_STAGE VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT

/* The statistics every pool counts, and their result order (bit order,
 * spec 18.2 "statistics values are written in bit order"). */
#define STATS_BITS                                                  \
	(VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_VERTICES_BIT |  \
	 VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT | \
	 VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT | \
	 VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT)
enum { ST_IA_VERTICES, ST_IA_PRIMITIVES, ST_VS_INVOCATIONS, ST_FS_INVOCATIONS, ST_COUNT };
static const char *const stat_names[ST_COUNT] = {
	"input assembly vertices",
	"input assembly primitives",
	"vertex shader invocations",
	"fragment shader invocations",
};

/* Targets: both FB x FB, colour only. */
enum { T1, T4, TARGETS };
static const VkSampleCountFlagBits target_samples[TARGETS] = {
	VK_SAMPLE_COUNT_1_BIT,
	VK_SAMPLE_COUNT_4_BIT,
};

struct rect {
	uint32_t x, y, w, h;
};

/* Scripts ----------------------------------------------------------------- */

enum op_kind {
	OP_END,
	OP_PASS,           /* vkCmdBeginRenderPass on target a, inline contents */
	OP_PASS_SECONDARY, /* ... with VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS */
	OP_END_PASS,
	OP_DRAW,           /* rectangle r, `copies` times (6 * copies vertices) */
	OP_BEGIN_OCC,      /* occlusion pool a, query b, PRECISE when precise */
	OP_END_OCC,
	OP_BEGIN_STATS,    /* statistics query b */
	OP_END_STATS,
	OP_TIMESTAMP,      /* the next timestamp slot, at TS_STAGE */
	OP_BARRIER,        /* full barrier; outside render pass instances */
	OP_FILL,           /* vkCmdFillBuffer of FILL_SIZE bytes */
	OP_SEC_BEGIN,      /* the ops up to OP_SEC_END are secondary a's */
	OP_SEC_END,
	OP_EXECUTE,        /* vkCmdExecuteCommands of secondaries ids[0..n) */
};

struct op {
	enum op_kind kind;
	uint8_t a, b;
	bool precise;
	uint8_t copies;
	struct rect r;
	uint8_t n;
	uint8_t ids[4];
};

/* The inheritance of one secondary command buffer. */
struct sec_desc {
	bool outside;      /* executed outside a render pass: no RENDER_PASS_CONTINUE */
	uint8_t target;    /* inherited render pass, subpass 0 and framebuffer */
	bool occlusion;    /* occlusionQueryEnable */
	bool precise;      /* queryFlags = VK_QUERY_CONTROL_PRECISE_BIT */
	bool stats;        /* pipelineStatistics = STATS_BITS */
	bool simultaneous; /* VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT */
};

struct script {
	const char *name;
	const struct op *ops;
	struct sec_desc sec[MAX_SEC];
	/* One more timestamp slot that is reset and never written: reading it
	 * without WAIT gives VK_NOT_READY and availability 0 (18.2). */
	bool unwritten_timestamp;
};

#define PASS(t) {.kind = OP_PASS, .a = (t)}
#define PASS_SEC(t) {.kind = OP_PASS_SECONDARY, .a = (t)}
#define END_PASS {.kind = OP_END_PASS}
#define DRAWK(rect, k) {.kind = OP_DRAW, .r = rect, .copies = (k)}
#define DRAW(rect) {.kind = OP_DRAW, .r = rect, .copies = 1}
#define BEGIN_OCC(p, q) {.kind = OP_BEGIN_OCC, .a = (p), .b = (q), .precise = true}
#define BEGIN_OCC_IMPRECISE(p, q) {.kind = OP_BEGIN_OCC, .a = (p), .b = (q)}
#define END_OCC(p, q) {.kind = OP_END_OCC, .a = (p), .b = (q)}
#define BEGIN_STATS(q) {.kind = OP_BEGIN_STATS, .b = (q)}
#define END_STATS(q) {.kind = OP_END_STATS, .b = (q)}
#define TS {.kind = OP_TIMESTAMP}
#define BARRIER {.kind = OP_BARRIER}
#define FILL {.kind = OP_FILL}
#define SEC(id) {.kind = OP_SEC_BEGIN, .a = (id)}
#define SEC_END {.kind = OP_SEC_END}
#define EXEC1(x) {.kind = OP_EXECUTE, .n = 1, .ids = {(x)}}
#define EXEC2(x, y) {.kind = OP_EXECUTE, .n = 2, .ids = {(x), (y)}}
#define EXEC3(x, y, z) {.kind = OP_EXECUTE, .n = 3, .ids = {(x), (y), (z)}}
#define OPS(...) ((const struct op[]){__VA_ARGS__, {.kind = OP_END}})

/* Even edges (whole 2 x 2 quads), areas 64, 128, 256, 512 and 4096. */
#define RA {2, 2, 8, 8}
#define RB {12, 2, 16, 8}
#define RC {30, 2, 32, 8}
#define RD {2, 12, 16, 32}
#define BIG {0, 0, 64, 64}

/* Simulation --------------------------------------------------------------- */

struct work {
	uint64_t v[ST_COUNT];
};

struct occ_expect {
	bool used, active, precise;
	bool lenient;      /* begun outside a render pass instance */
	uint64_t samples;  /* passing samples of the draws in scope */
	/* the most the render pass instances in scope can add (their load and
	 * store operations, 18.2): each touches at most the whole FB x FB
	 * target of each attachment (colour, depth, a resolve) */
	uint64_t extra_max;
};

struct stats_expect {
	bool used, active;
	struct work in;    /* the draws in scope */
};

struct ts_expect {
	bool written;
	uint32_t order;    /* position in execution order */
	uint32_t epoch;    /* full barriers executed before the write */
};

struct sim {
	const struct script *s;
	uint32_t op_count;
	uint32_t sec_first[MAX_SEC], sec_end[MAX_SEC]; /* op index ranges */
	bool sec_used[MAX_SEC];
	uint8_t ts_slot[MAX_OPS];
	uint32_t ts_script;   /* timestamps in the script */
	uint32_t ts_slots;    /* pool size: first, script's, last[, unwritten] */

	bool in_pass;
	uint32_t samples;
	uint32_t epoch, order;
	struct occ_expect occ[OCC_POOLS][QUERIES];
	struct stats_expect stats[QUERIES];
	struct work total;
	struct ts_expect ts[MAX_TS];

	/* what the script needs */
	bool need_occ, need_stats, need_precise, need_inherited, need_fill;
	bool use_target[TARGETS];
};

static uint64_t area(struct rect r)
{
	return (uint64_t)r.w * r.h;
}

/* A script that cannot run as written is a harness bug. */
static void script_check(struct vkqs_ctx *ctx, bool ok, const struct script *s,
			 uint32_t i, const char *what)
{
	if (!ok)
		vkqs_internal_error(ctx, "script %s, op %u: %s", s->name, i, what);
}

/* Finds the secondaries' op ranges and numbers the timestamp slots: slot 0
 * is written first in the primary, the script's follow in script order,
 * then the last one. */
static void sim_scan(struct vkqs_ctx *ctx, struct sim *m)
{
	const struct script *s = m->s;
	int open = -1;
	uint32_t i = 0;
	for (; s->ops[i].kind != OP_END; i++) {
		const struct op *o = &s->ops[i];
		script_check(ctx, i + 1 < MAX_OPS, s, i, "too many ops");
		switch (o->kind) {
		case OP_SEC_BEGIN:
			script_check(ctx, open < 0 && o->a < MAX_SEC && !m->sec_used[o->a], s,
				     i, "bad secondary");
			open = o->a;
			m->sec_used[o->a] = true;
			m->sec_first[o->a] = i + 1;
			break;
		case OP_SEC_END:
			script_check(ctx, open >= 0, s, i, "no secondary open");
			m->sec_end[open] = i;
			open = -1;
			break;
		case OP_TIMESTAMP:
			m->ts_slot[i] = (uint8_t)(1 + m->ts_script++);
			break;
		case OP_FILL:
			m->need_fill = true;
			break;
		case OP_EXECUTE:
			script_check(ctx, open < 0 && o->n >= 1 && o->n <= 4, s, i,
				     "bad execute");
			for (uint32_t k = 0; k < o->n; k++)
				script_check(ctx, o->ids[k] < MAX_SEC && m->sec_used[o->ids[k]],
					     s, i, "execute of a secondary not recorded before");
			break;
		case OP_BEGIN_OCC:
		case OP_END_OCC:
			script_check(ctx, o->a < OCC_POOLS && o->b < QUERIES, s, i, "bad query");
			break;
		case OP_BEGIN_STATS:
		case OP_END_STATS:
			script_check(ctx, o->b < QUERIES, s, i, "bad query");
			break;
		case OP_PASS:
		case OP_PASS_SECONDARY:
			script_check(ctx, o->a < TARGETS, s, i, "bad target");
			break;
		default:
			break;
		}
	}
	script_check(ctx, open < 0, s, i, "secondary not ended");
	m->op_count = i;
	if (m->ts_script) {
		m->ts_slots = m->ts_script + 2 + (s->unwritten_timestamp ? 1 : 0);
		script_check(ctx, m->ts_slots <= MAX_TS, s, i, "too many timestamps");
	}
	for (uint32_t k = 0; k < MAX_SEC; k++) {
		const struct sec_desc *d = &s->sec[k];
		if (!m->sec_used[k])
			continue;
		m->need_inherited |= d->occlusion;
		m->need_precise |= d->precise;
		m->need_stats |= d->stats;
		if (!d->outside)
			m->use_target[d->target] = true;
	}
}

static void sim_draw(struct sim *m, const struct op *o)
{
	uint64_t k = o->copies, pixels = area(o->r) * k;
	struct work w = {{6 * k, 2 * k, 6 * k, pixels}};
	for (uint32_t p = 0; p < OCC_POOLS; p++)
		for (uint32_t q = 0; q < QUERIES; q++)
			if (m->occ[p][q].active)
				m->occ[p][q].samples += pixels * m->samples;
	for (uint32_t q = 0; q < QUERIES; q++)
		for (uint32_t j = 0; j < ST_COUNT; j++) {
			if (m->stats[q].active)
				m->stats[q].in.v[j] += w.v[j];
		}
	for (uint32_t j = 0; j < ST_COUNT; j++)
		m->total.v[j] += w.v[j];
}

static bool any_query_active(const struct sim *m)
{
	for (uint32_t q = 0; q < QUERIES; q++) {
		if (m->stats[q].active)
			return true;
		for (uint32_t p = 0; p < OCC_POOLS; p++)
			if (m->occ[p][q].active)
				return true;
	}
	return false;
}

/* Runs ops [first, end) in execution order; a secondary's ops run where
 * it is executed. */
static void sim_run(struct vkqs_ctx *ctx, struct sim *m, uint32_t first, uint32_t end)
{
	const struct script *s = m->s;
	for (uint32_t i = first; i < end; i++) {
		const struct op *o = &s->ops[i];
		switch (o->kind) {
		case OP_END:
		case OP_SEC_END:
		case OP_FILL:
			break;
		case OP_SEC_BEGIN:
			i = m->sec_end[o->a]; /* recorded here, executed later */
			break;
		case OP_PASS:
		case OP_PASS_SECONDARY:
			m->in_pass = true;
			m->samples = target_samples[o->a];
			m->use_target[o->a] = true;
			for (uint32_t p = 0; p < OCC_POOLS; p++)
				for (uint32_t k = 0; k < QUERIES; k++)
					if (m->occ[p][k].active)
						m->occ[p][k].extra_max +=
							2ull * FB * FB * target_samples[o->a] * 3u;
			break;
		case OP_END_PASS:
			m->in_pass = false;
			break;
		case OP_DRAW:
			sim_draw(m, o);
			break;
		case OP_BEGIN_OCC: {
			struct occ_expect *q = &m->occ[o->a][o->b];
			script_check(ctx, !q->used, s, i, "query begun twice");
			q->used = q->active = true;
			q->precise = o->precise;
			q->lenient = !m->in_pass;
			m->need_occ = true;
			m->need_precise |= o->precise;
			break;
		}
		case OP_END_OCC:
			m->occ[o->a][o->b].active = false;
			break;
		case OP_BEGIN_STATS:
			script_check(ctx, !m->stats[o->b].used, s, i, "query begun twice");
			m->stats[o->b].used = m->stats[o->b].active = true;
			m->need_stats = true;
			break;
		case OP_END_STATS:
			m->stats[o->b].active = false;
			break;
		case OP_TIMESTAMP: {
			struct ts_expect *t = &m->ts[m->ts_slot[i]];
			script_check(ctx, !t->written, s, i, "timestamp written twice");
			*t = (struct ts_expect){true, m->order++, m->epoch};
			break;
		}
		case OP_BARRIER:
			m->epoch++;
			break;
		case OP_EXECUTE:
			/* VUID-vkCmdExecuteCommands-commandBuffer-00101 */
			m->need_inherited |= any_query_active(m);
			/* sim_scan keeps vkCmdExecuteCommands out of secondaries */
			for (uint32_t k = 0; k < o->n; k++)
				sim_run(ctx, m, m->sec_first[o->ids[k]], m->sec_end[o->ids[k]]);
			break;
		}
	}
}

static void simulate(struct vkqs_ctx *ctx, const struct script *s, struct sim *m)
{
	memset(m, 0, sizeof(*m));
	m->s = s;
	sim_scan(ctx, m);
	if (m->ts_script) {
		/* first, then a full barrier */
		m->ts[0] = (struct ts_expect){true, m->order++, m->epoch++};
	}
	sim_run(ctx, m, 0, m->op_count);
	if (m->ts_script) {
		/* a full barrier, then last */
		m->epoch++;
		m->ts[m->ts_script + 1] = (struct ts_expect){true, m->order++, m->epoch};
	}
}

/* Recording --------------------------------------------------------------- */

struct rec {
	struct vkqs_target *t[TARGETS];
	const struct vkqs_pipeline *p[TARGETS];
	VkQueryPool occ[OCC_POOLS], stats, ts;
	struct vkqs_buffer *fill;
	VkCommandBuffer primary, sec[MAX_SEC];
};

/* vkqs_draw_rect with 6 * copies vertices in one draw: the draw covers the
 * rectangle `copies` times with distinct vertex indices (no vertex shading
 * may be reused: reuse is allowed only for the same vertex within one
 * drawing command). */
static void draw_op(struct vkqs_ctx *ctx, const struct rec *r, VkCommandBuffer cb,
		    int target, const struct op *o)
{
	if (target < 0)
		vkqs_internal_error(ctx, "draw outside a render pass instance in the script");
	const struct rect x = o->r;
	vkqs_draw_rect_n(ctx, cb, r->p[target], r->t[target], (float)x.x, (float)x.y,
			 (float)(x.x + x.w), (float)(x.y + x.h), 0.5f, 6u * o->copies);
}

static void record(struct vkqs_ctx *ctx, const struct sim *m, struct rec *r)
{
	const struct script *s = m->s;
	VkCommandBuffer cb = r->primary;
	int pass_target = -1; /* the primary's current render pass instance */
	int cur_target = -1;  /* where draws of the command buffer being recorded go */

	for (uint32_t i = 0; i < m->op_count; i++) {
		const struct op *o = &s->ops[i];
		switch (o->kind) {
		case OP_END:
			break;
		case OP_SEC_BEGIN: {
			const struct sec_desc *d = &s->sec[o->a];
			cur_target = d->outside ? -1 : d->target;
			/* Inside a render pass instance it continues subpass 0
			 * of the target and sets its own viewport and scissor. */
			VkCommandBufferInheritanceInfo inh = {
				.occlusionQueryEnable = d->occlusion,
				.queryFlags = d->precise ? VK_QUERY_CONTROL_PRECISE_BIT : 0,
				.pipelineStatistics = d->stats ? STATS_BITS : 0,
			};
			r->sec[o->a] = vkqs_cmd_begin_secondary(
				ctx, &ctx->vk->gfx, d->outside ? NULL : r->t[d->target],
				d->simultaneous ? VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT : 0,
				&inh);
			cb = r->sec[o->a];
			break;
		}
		case OP_SEC_END:
			vkqs_cmd_end(ctx, cb);
			cb = r->primary;
			cur_target = pass_target;
			break;
		case OP_PASS:
			vkqs_target_begin(ctx, cb, r->t[o->a], 1.0f);
			pass_target = cur_target = o->a;
			break;
		case OP_PASS_SECONDARY:
			/* subpass contents in secondaries: no state set here */
			vkqs_target_begin_ex(ctx, cb, r->t[o->a], 1.0f, 0,
					     VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
			pass_target = cur_target = o->a;
			break;
		case OP_END_PASS:
			vkqs_target_end(ctx, cb);
			pass_target = cur_target = -1;
			break;
		case OP_DRAW:
			draw_op(ctx, r, cb, cur_target, o);
			break;
		case OP_BEGIN_OCC:
			D->vkCmdBeginQuery(cb, r->occ[o->a], o->b,
					   o->precise ? VK_QUERY_CONTROL_PRECISE_BIT : 0);
			break;
		case OP_END_OCC:
			D->vkCmdEndQuery(cb, r->occ[o->a], o->b);
			break;
		case OP_BEGIN_STATS:
			D->vkCmdBeginQuery(cb, r->stats, o->b, 0);
			break;
		case OP_END_STATS:
			D->vkCmdEndQuery(cb, r->stats, o->b);
			break;
		case OP_TIMESTAMP:
			D->vkCmdWriteTimestamp(cb, TS_STAGE, r->ts, m->ts_slot[i]);
			break;
		case OP_BARRIER:
			vkqs_cmd_full_barrier(ctx, cb);
			break;
		case OP_FILL:
			D->vkCmdFillBuffer(cb, r->fill->buf, 0, VK_WHOLE_SIZE, 0x01010101u * i);
			break;
		case OP_EXECUTE: {
			VkCommandBuffer list[4];
			for (uint32_t k = 0; k < o->n; k++)
				list[k] = r->sec[o->ids[k]];
			D->vkCmdExecuteCommands(cb, o->n, list);
			break;
		}
		}
	}
}

/* Checks ------------------------------------------------------------------- */

static void check_occ(struct vkqs_ctx *ctx, uint32_t pool, uint32_t query,
		      const struct occ_expect *e, uint64_t got)
{
	const uint64_t want = e->samples;
	if (e->precise && !e->lenient) {
		VKQS_EXPECTF(ctx, got == want,
			     "occlusion pool %u query %u (precise): expected exactly %" PRIu64
			     " passing samples (the draws in its scope), got %" PRIu64,
			     pool, query, want, got);
	} else if (e->precise) {
		VKQS_EXPECTF(ctx, got >= want,
			     "occlusion pool %u query %u (precise, contains render pass "
			     "instances): expected at least the %" PRIu64
			     " samples of the draws in its scope, got %" PRIu64,
			     pool, query, want, got);
		if (got > want + e->extra_max)
			vkqs_fail(ctx, "occlusion pool %u query %u (precise): %" PRIu64 " exceeds "
				       "the draws' %" PRIu64 " samples plus the at most %" PRIu64
				       " the load/store operations of its render pass instances can "
				       "add (18.3: \"must return a result that matches the actual "
				       "number of samples passed\")",
				  pool, query, got, want, e->extra_max);
		else if (got > want)
			vkqs_compat_warning(ctx,
					    "occlusion pool %u query %u: %" PRIu64 " exceeds the draws' "
					    "%" PRIu64 " by %" PRIu64 ": render pass load/store "
					    "operations counted (implementation-dependent per 18.2)",
					    pool, query, got, want, got - want);
	} else if (want > 0) {
		VKQS_EXPECTF(ctx, got > 0,
			     "occlusion pool %u query %u (not precise): %" PRIu64 " samples "
			     "passed in its scope, so the result must be non-zero (18.3), got 0",
			     pool, query, want);
	} else if (!e->lenient) {
		VKQS_EXPECTF(ctx, got == 0,
			     "occlusion pool %u query %u (not precise): no sample passed in "
			     "its scope, so the result must be 0 (18.3), got %" PRIu64,
			     pool, query, got);
	} else if (got) {
		vkqs_compat_warning(ctx,
				    "occlusion pool %u query %u: %" PRIu64 " with no draw in its "
				    "scope: render pass load/store operations counted "
				    "(implementation-dependent per 18.2)",
				    pool, query, got);
	}
}

static void check_stats(struct vkqs_ctx *ctx, uint32_t query, const struct stats_expect *e,
			const struct work *total, const uint64_t got[ST_COUNT])
{
	char over[512] = "";
	size_t len = 0;
	for (uint32_t j = 0; j < ST_COUNT; j++) {
		uint64_t want = e->in.v[j];
		/* the draws' fragment shader (color.frag) writes a constant
		 * colour: fragments may be merged (VKQS_SPEC_FS_MERGE), so
		 * fewer invocations than pixels is no Fail */
		if (j == ST_FS_INVOCATIONS)
			VKQS_EXPECT_OPEN(ctx, got[j] >= want, VKQS_SPEC_FS_MERGE,
					 "statistics query %u: %s %" PRIu64 " is below the %" PRIu64
					 " pixels of the draws in its scope",
					 query, stat_names[j], got[j], want);
		else
			VKQS_EXPECTF(ctx, got[j] >= want,
				     "statistics query %u: %s %" PRIu64 " is below the %" PRIu64
				     " of the draws in its scope (18.4)",
				     query, stat_names[j], got[j], want);
		/* Fragment shader invocations have no upper bound here: at 4
		 * samples a pixel on the rectangle's diagonal gets a fragment
		 * from each triangle, and rasterizers that shade whole blocks
		 * count them (llvmpipe: 16 per touched 4 x 4 block and
		 * triangle); suite/stats judges that counter. */
		if (j != ST_FS_INVOCATIONS && got[j] > want && len < sizeof(over))
			len += (size_t)snprintf(over + len, sizeof(over) - len,
						"%s%s %" PRIu64 " > %" PRIu64 " (draws outside "
						"its scope: %" PRIu64 ")",
						len ? ", " : "", stat_names[j], got[j], want,
						total->v[j] - want);
	}
	if (len)
		vkqs_compat_warning(ctx,
				    "statistics query %u counts more than the draws in its scope: "
				    "%s (18.4: architectures count differently; not portable)",
				    query, over);
}

/* 18.5 (framework/tscheck.h): every written timestamp is non-zero with no
 * bit above timestampValidBits; a write that happens-after another (a full
 * barrier between them) is not lower, unless it overflowed and wrapped to
 * zero within the ticks of the host interval around the submission. */
static void check_timestamps(struct vkqs_ctx *ctx, const struct sim *m, const uint64_t *v,
			     uint32_t bits, uint64_t host_ns)
{
	char a[32], b[32];
	for (uint32_t i = 0; i < m->ts_script + 2; i++) {
		snprintf(a, sizeof(a), "timestamp slot %u", i);
		VKQS_TS_EXPECT_VALID(ctx, a, v[i], bits);
	}
	for (uint32_t i = 0; i < m->ts_script + 2; i++)
		for (uint32_t j = 0; j < m->ts_script + 2; j++) {
			const struct ts_expect *x = &m->ts[i], *y = &m->ts[j];
			if (!(x->order < y->order && x->epoch < y->epoch))
				continue;
			snprintf(a, sizeof(a), "timestamp slot %u", i);
			snprintf(b, sizeof(b), "timestamp slot %u", j);
			VKQS_TS_EXPECT_NOT_BEFORE(ctx, a, v[i], b, v[j], bits, host_ns);
		}
}

/* 18.2 (vkGetQueryPoolResults): without WAIT and PARTIAL "no result values
 * are written to pData for queries that are in the unavailable state ...
 * and vkGetQueryPoolResults returns VK_NOT_READY.  However, availability
 * state is still written"; the availability of a written query is non-zero. */
static void check_unwritten(struct vkqs_ctx *ctx, const struct sim *m, VkQueryPool pool,
			    const uint64_t *written)
{
	const uint64_t sentinel = 0x5a5a5a5a5a5a5a5aull;
	uint64_t v[2 * MAX_TS];
	for (uint32_t i = 0; i < 2 * MAX_TS; i++)
		v[i] = sentinel;
	const uint32_t n = m->ts_slots, unwritten = n - 1;
	vkqs_expect_not_ready(ctx,
			      D->vkGetQueryPoolResults(DEV, pool, 0, n, sizeof(v), v,
						       2 * sizeof(uint64_t),
						       VK_QUERY_RESULT_64_BIT |
							       VK_QUERY_RESULT_WITH_AVAILABILITY_BIT),
			      "timestamps, one never written");
	for (uint32_t i = 0; i < unwritten; i++) {
		VKQS_EXPECTF(ctx, v[2 * i + 1] != 0,
			     "timestamp slot %u was written and waited for, but its "
			     "availability is 0", i);
		VKQS_EXPECTF(ctx, v[2 * i] == written[i],
			     "timestamp slot %u reads %" PRIu64 " without WAIT but %" PRIu64
			     " with it", i, v[2 * i], written[i]);
	}
	VKQS_EXPECTF(ctx, v[2 * unwritten + 1] == 0,
		     "timestamp slot %u was never written, but its availability is %" PRIu64,
		     unwritten, v[2 * unwritten + 1]);
	vkqs_expect_unwritten(ctx, (const uint8_t *)&v[2 * unwritten], sizeof(v[0]), 0x5a,
			      "the timestamp slot never written");
}

/* The case ------------------------------------------------------------------ */

static void run_script(struct vkqs_ctx *ctx, const void *param)
{
	const struct script *s = param;
	struct sim m;
	simulate(ctx, s, &m);

	vkqs_require_queue(ctx, &ctx->vk->gfx, "graphics");
	if (m.need_stats)
		vkqs_require_feature(ctx, "pipelineStatisticsQuery");
	if (m.need_precise)
		vkqs_require_feature(ctx, "occlusionQueryPrecise");
	/* VkCommandBufferInheritanceInfo occlusionQueryEnable (00056) and an
	 * active query at vkCmdExecuteCommands (00101) need it. */
	if (m.need_inherited)
		vkqs_require_feature(ctx, "inheritedQueries");
	vkqs_require_exact_coverage(ctx);
	uint32_t bits = 0;
	if (m.ts_script) {
		bits = ctx->vk->info.families[ctx->vk->gfx.family].timestamp_valid_bits;
		if (bits == 0)
			vkqs_skip(ctx, "the graphics queue family reports timestampValidBits 0");
	}

	struct rec r = {0};
	for (uint32_t t = 0; t < TARGETS; t++)
		if (m.use_target[t]) {
			r.t[t] = vkqs_target_create(ctx, FB, FB, target_samples[t], false);
			r.p[t] = vkqs_pipeline_rect(ctx, r.t[t], &(struct vkqs_pipeline_desc){0});
		}
	if (m.need_occ)
		for (uint32_t p = 0; p < OCC_POOLS; p++)
			r.occ[p] = vkqs_query_pool(ctx, VK_QUERY_TYPE_OCCLUSION, QUERIES, 0);
	if (m.need_stats)
		r.stats = vkqs_query_pool(ctx, VK_QUERY_TYPE_PIPELINE_STATISTICS, QUERIES,
					  STATS_BITS);
	if (m.ts_script)
		r.ts = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, m.ts_slots, 0);
	if (m.need_fill)
		r.fill = vkqs_buffer_device(ctx, FILL_SIZE, 0);

	/* 18.2: queries are reset before use, outside render pass instances. */
	r.primary = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	for (uint32_t p = 0; p < OCC_POOLS; p++)
		if (r.occ[p])
			D->vkCmdResetQueryPool(r.primary, r.occ[p], 0, QUERIES);
	if (r.stats)
		D->vkCmdResetQueryPool(r.primary, r.stats, 0, QUERIES);
	if (r.ts) {
		D->vkCmdResetQueryPool(r.primary, r.ts, 0, m.ts_slots);
		D->vkCmdWriteTimestamp(r.primary, TS_STAGE, r.ts, 0);
		vkqs_cmd_full_barrier(ctx, r.primary);
	}
	record(ctx, &m, &r);
	if (r.ts) {
		vkqs_cmd_full_barrier(ctx, r.primary);
		D->vkCmdWriteTimestamp(r.primary, TS_STAGE, r.ts, m.ts_script + 1);
	}
	vkqs_cmd_end(ctx, r.primary);
	uint64_t host_ns = vkqs_submit_timed(ctx, &ctx->vk->gfx, &r.primary, 1);

	const VkQueryResultFlags wait = VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT;
	for (uint32_t p = 0; p < OCC_POOLS; p++)
		for (uint32_t q = 0; q < QUERIES; q++) {
			if (!m.occ[p][q].used)
				continue;
			uint64_t v;
			VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, r.occ[p], q, 1, sizeof(v),
								 &v, sizeof(v), wait));
			check_occ(ctx, p, q, &m.occ[p][q], v);
		}
	for (uint32_t q = 0; q < QUERIES; q++) {
		if (!m.stats[q].used)
			continue;
		uint64_t v[ST_COUNT];
		VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, r.stats, q, 1, sizeof(v), v,
							 sizeof(v), wait));
		check_stats(ctx, q, &m.stats[q], &m.total, v);
	}
	if (m.ts_script) {
		uint64_t v[MAX_TS];
		const uint32_t n = m.ts_script + 2;
		VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, r.ts, 0, n, n * sizeof(v[0]), v,
							 sizeof(v[0]), wait));
		check_timestamps(ctx, &m, v, bits, host_ns);
		if (s->unwritten_timestamp)
			check_unwritten(ctx, &m, r.ts, v);
	}
}

static void script_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", ((const struct script *)param)->name);
}

/* mixed: occlusion, statistics and timestamps in one command buffer ------- */

/* Draws of BIG (4096 pixels) outside every query: a scope that leaks shows
 * them. */
static const struct script mixed_nesting[] = {
	{"same_scope",
	 OPS(PASS(T1), DRAW(BIG), TS, BEGIN_OCC(0, 0), BEGIN_STATS(0), DRAW(RA), TS, DRAW(RB),
	     END_STATS(0), END_OCC(0, 0), TS, DRAWK(BIG, 3), END_PASS)},
	{"occlusion_outer",
	 OPS(PASS(T1), DRAW(BIG), BEGIN_OCC(0, 0), DRAW(RA), BEGIN_STATS(0), TS, DRAW(RB),
	     END_STATS(0), DRAW(RC), END_OCC(0, 0), DRAWK(BIG, 3), END_PASS)},
	{"stats_outer",
	 OPS(PASS(T1), DRAW(BIG), BEGIN_STATS(0), DRAW(RA), BEGIN_OCC(0, 0), DRAW(RB),
	     END_OCC(0, 0), TS, DRAW(RC), END_STATS(0), DRAWK(BIG, 3), END_PASS)},
	{"overlap_occlusion_first",
	 OPS(PASS(T1), DRAW(BIG), BEGIN_OCC(0, 0), DRAW(RA), BEGIN_STATS(0), DRAW(RB),
	     END_OCC(0, 0), TS, DRAW(RC), END_STATS(0), DRAWK(BIG, 3), END_PASS)},
	{"overlap_stats_first",
	 OPS(PASS(T1), DRAW(BIG), BEGIN_STATS(0), DRAW(RA), BEGIN_OCC(0, 0), DRAW(RB),
	     END_STATS(0), TS, DRAW(RC), END_OCC(0, 0), DRAWK(BIG, 3), END_PASS)},
	{"occlusion_outer_imprecise",
	 OPS(PASS(T1), DRAW(BIG), BEGIN_OCC_IMPRECISE(0, 0), DRAW(RA), BEGIN_STATS(0),
	     DRAW(RB), END_STATS(0), DRAW(RC), END_OCC(0, 0), DRAWK(BIG, 3), END_PASS)},
	{"samples_4",
	 OPS(PASS(T4), DRAW(BIG), BEGIN_OCC(0, 0), DRAW(RA), BEGIN_STATS(0), DRAW(RB),
	     END_OCC(0, 0), DRAW(RC), END_STATS(0), DRAWK(BIG, 3), END_PASS)},
};

/* Queries of one type one after another while a query of the other type
 * stays active; two occlusion pools take turns (never both active,
 * VUID-vkCmdBeginQuery-queryPool-01922); an empty query is 0. */
static const struct script mixed_sequence[] = {
	{"occlusion_pools_under_stats",
	 OPS(PASS(T1), DRAW(BIG), BEGIN_STATS(0), BEGIN_OCC(0, 0), DRAW(RA), END_OCC(0, 0),
	     BEGIN_OCC(1, 0), DRAW(RB), END_OCC(1, 0), DRAW(RC), BEGIN_OCC(0, 1),
	     END_OCC(0, 1), TS, BEGIN_OCC(1, 1), DRAW(RD), END_OCC(1, 1), END_STATS(0),
	     DRAW(BIG), END_PASS)},
	{"stats_under_occlusion",
	 OPS(PASS(T1), DRAW(BIG), BEGIN_OCC(0, 0), BEGIN_STATS(0), DRAW(RA), END_STATS(0),
	     DRAW(RB), BEGIN_STATS(1), DRAW(RC), TS, END_STATS(1), BEGIN_STATS(2),
	     END_STATS(2), END_OCC(0, 0), DRAW(BIG), END_PASS)},
	{"two_passes_two_targets",
	 OPS(PASS(T1), BEGIN_OCC(0, 0), BEGIN_STATS(0), DRAW(RA), END_OCC(0, 0),
	     END_STATS(0), DRAW(BIG), END_PASS, BARRIER, TS, BARRIER, PASS(T4), DRAW(BIG),
	     BEGIN_STATS(1), BEGIN_OCC(1, 0), DRAW(RB), END_STATS(1), END_OCC(1, 0),
	     END_PASS)},
};

/* The check of CTS concurrent_queries: all three types, and one timestamp
 * slot left unwritten. */
static const struct script mixed_all_types[] = {
	{"unwritten_timestamp",
	 OPS(PASS(T1), BEGIN_OCC(0, 0), BEGIN_STATS(0), TS, DRAW(RA), TS, DRAW(RB),
	     END_STATS(0), END_OCC(0, 0), END_PASS),
	 .unwritten_timestamp = true},
};

/* spans: queries that contain entire render pass instances (bug class 6) -- */

static const struct script spans_contains_passes[] = {
	{"two_occlusion_and_stats",
	 OPS(PASS(T1), DRAW(BIG), END_PASS, BEGIN_OCC(0, 0), BEGIN_STATS(0), PASS(T1),
	     DRAW(RA), END_PASS, PASS(T1), DRAW(RB), DRAW(RC), END_PASS, END_STATS(0),
	     END_OCC(0, 0), PASS(T1), DRAW(BIG), END_PASS)},
	{"two_occlusion_imprecise",
	 OPS(BEGIN_OCC_IMPRECISE(0, 0), PASS(T1), DRAW(RA), END_PASS, PASS(T1), DRAW(RB),
	     END_PASS, END_OCC(0, 0))},
	{"two_targets",
	 OPS(BEGIN_OCC(0, 0), BEGIN_STATS(0), PASS(T1), DRAW(RA), END_PASS, PASS(T4),
	     DRAW(RB), END_PASS, END_STATS(0), END_OCC(0, 0))},
	{"three_one_empty",
	 OPS(BEGIN_OCC(0, 0), PASS(T1), DRAW(RA), END_PASS, PASS(T1), END_PASS, PASS(T1),
	     DRAW(RC), END_PASS, END_OCC(0, 0))},
	{"transfer_between",
	 OPS(BEGIN_OCC(0, 0), BEGIN_STATS(0), PASS(T1), DRAW(RA), END_PASS, BARRIER, FILL,
	     BARRIER, TS, BARRIER, PASS(T1), DRAW(RB), END_PASS, END_STATS(0),
	     END_OCC(0, 0))},
};

/* A query of one type contains render pass instances while queries of the
 * other type begin and end inside their subpasses. */
static const struct script spans_nested[] = {
	{"occlusion_outside_stats_inside",
	 OPS(BEGIN_OCC(0, 0), PASS(T1), DRAW(RA), BEGIN_STATS(0), DRAW(RB), END_STATS(0),
	     END_PASS, PASS(T1), BEGIN_STATS(1), DRAW(RC), END_STATS(1), DRAW(RD), END_PASS,
	     END_OCC(0, 0))},
	{"stats_outside_occlusion_inside",
	 OPS(BEGIN_STATS(0), PASS(T1), DRAW(RA), BEGIN_OCC(0, 0), DRAW(RB), END_OCC(0, 0),
	     END_PASS, BARRIER, TS, BARRIER, PASS(T4), BEGIN_OCC(1, 0), DRAW(RC),
	     END_OCC(1, 0), DRAW(RD), END_PASS, END_STATS(0))},
};

/* secondary: queries begun and ended inside a secondary command buffer;
 * no query is active in the primary when it runs, so no inheritedQueries.
 * A query in a later inline pass checks nothing leaks across. */
#define IN_T1 {.target = T1}
#define IN_T4 {.target = T4}
static const struct script secondary_query[] = {
	{"occlusion",
	 OPS(SEC(0), DRAW(BIG), BEGIN_OCC(0, 0), DRAW(RA), END_OCC(0, 0), DRAWK(BIG, 2),
	     SEC_END, PASS_SEC(T1), EXEC1(0), END_PASS, PASS(T1), BEGIN_OCC(0, 1), DRAW(RB),
	     END_OCC(0, 1), END_PASS),
	 {IN_T1}},
	{"occlusion_imprecise",
	 OPS(SEC(0), DRAW(BIG), BEGIN_OCC_IMPRECISE(0, 0), DRAW(RA), END_OCC(0, 0),
	     BEGIN_OCC_IMPRECISE(0, 1), END_OCC(0, 1), SEC_END, PASS_SEC(T1), EXEC1(0),
	     END_PASS),
	 {IN_T1}},
	{"occlusion_samples_4",
	 OPS(SEC(0), DRAW(BIG), BEGIN_OCC(0, 0), DRAW(RA), DRAW(RC), END_OCC(0, 0), SEC_END,
	     PASS_SEC(T4), EXEC1(0), END_PASS),
	 {IN_T4}},
	{"two_secondaries",
	 OPS(SEC(0), BEGIN_OCC(0, 0), DRAW(RA), END_OCC(0, 0), DRAW(BIG), SEC_END, SEC(1),
	     DRAW(RC), BEGIN_OCC(1, 0), DRAW(RB), END_OCC(1, 0), BEGIN_OCC(0, 1), DRAW(RD),
	     END_OCC(0, 1), SEC_END, PASS_SEC(T1), EXEC2(0, 1), END_PASS),
	 {IN_T1, IN_T1}},
	{"occlusion_and_stats",
	 OPS(SEC(0), DRAW(BIG), BEGIN_STATS(0), DRAW(RA), BEGIN_OCC(0, 0), DRAW(RB),
	     END_STATS(0), DRAW(RC), END_OCC(0, 0), DRAWK(BIG, 3), SEC_END, PASS_SEC(T1),
	     EXEC1(0), END_PASS, PASS(T1), BEGIN_STATS(1), BEGIN_OCC(0, 1), DRAW(RD),
	     END_OCC(0, 1), END_STATS(1), END_PASS),
	 {IN_T1}},
};

/* inherited: queries active in the primary count the secondaries' draws
 * (inheritedQueries).  The primary's query contains the render pass
 * instance (module comment), so its precise count is a lower bound. */
#define OCC_P {.target = T1, .occlusion = true, .precise = true}
static const struct script inherited_occlusion[] = {
	{"precise",
	 OPS(PASS(T1), DRAW(BIG), END_PASS, SEC(0), DRAW(RA), SEC_END, BEGIN_OCC(0, 0),
	     PASS_SEC(T1), EXEC1(0), END_PASS, END_OCC(0, 0)),
	 {OCC_P}},
	{"imprecise",
	 OPS(SEC(0), DRAW(RA), SEC_END, BEGIN_OCC_IMPRECISE(0, 0), PASS_SEC(T1), EXEC1(0),
	     END_PASS, END_OCC(0, 0)),
	 {{.target = T1, .occlusion = true}}},
	/* queryFlags may hold bits the query lacks (00103 asks only for the
	 * query's): "the active query can return boolean results or actual
	 * sample counts". */
	{"imprecise_secondary_precise_flags",
	 OPS(SEC(0), DRAW(RA), SEC_END, BEGIN_OCC_IMPRECISE(0, 0), PASS_SEC(T1), EXEC1(0),
	     END_PASS, END_OCC(0, 0)),
	 {OCC_P}},
	{"three_secondaries_one_call",
	 OPS(SEC(0), DRAW(RA), SEC_END, SEC(1), DRAW(RB), DRAW(RC), SEC_END, SEC(2),
	     DRAW(RD), SEC_END, BEGIN_OCC(0, 0), PASS_SEC(T1), EXEC3(0, 1, 2), END_PASS,
	     END_OCC(0, 0)),
	 {OCC_P, OCC_P, OCC_P}},
	{"same_secondary_twice_one_call",
	 OPS(SEC(0), DRAW(RB), SEC_END, BEGIN_OCC(0, 0), PASS_SEC(T1), EXEC2(0, 0), END_PASS,
	     END_OCC(0, 0)),
	 {{.target = T1, .occlusion = true, .precise = true, .simultaneous = true}}},
	{"same_secondary_two_calls",
	 OPS(SEC(0), DRAW(RB), SEC_END, BEGIN_OCC(0, 0), PASS_SEC(T1), EXEC1(0), EXEC1(0),
	     END_PASS, END_OCC(0, 0)),
	 {{.target = T1, .occlusion = true, .precise = true, .simultaneous = true}}},
	{"inline_and_secondary_passes",
	 OPS(SEC(0), DRAW(RB), SEC_END, SEC(1), DRAW(RC), SEC_END, BEGIN_OCC(0, 0),
	     PASS(T1), DRAW(RA), END_PASS, PASS_SEC(T1), EXEC1(0), END_PASS, PASS_SEC(T4),
	     EXEC1(1), END_PASS, END_OCC(0, 0)),
	 {OCC_P, {.target = T4, .occlusion = true, .precise = true}}},
};

/* CTS inherited_occlusion_query_without_primary_query, with values.
 * VkCommandBufferInheritanceInfo: with occlusionQueryEnable "this command
 * buffer can be executed whether the primary command buffer has an
 * occlusion query active or not", and with a statistic bit "whether the
 * primary command buffer has a pipeline statistics query active that
 * includes this bit or not".  The secondary's draws must not reach the
 * queries before and after it. */
static const struct script inherited_without_active_query[] = {
	{"occlusion_precise",
	 OPS(SEC(0), DRAWK(BIG, 2), SEC_END, PASS(T1), BEGIN_OCC(0, 0), DRAW(RA),
	     END_OCC(0, 0), END_PASS, PASS_SEC(T1), EXEC1(0), END_PASS, PASS(T1),
	     BEGIN_OCC(0, 1), DRAW(RB), END_OCC(0, 1), END_PASS),
	 {OCC_P}},
	{"occlusion_imprecise",
	 OPS(SEC(0), DRAWK(BIG, 2), SEC_END, PASS(T1), BEGIN_OCC_IMPRECISE(0, 0), DRAW(RA),
	     END_OCC(0, 0), END_PASS, PASS_SEC(T1), EXEC1(0), END_PASS, PASS(T1),
	     BEGIN_OCC_IMPRECISE(0, 1), END_OCC(0, 1), END_PASS),
	 {{.target = T1, .occlusion = true}}},
	{"stats",
	 OPS(SEC(0), DRAWK(BIG, 2), SEC_END, PASS(T1), BEGIN_STATS(0), BEGIN_OCC(0, 0),
	     DRAW(RA), END_OCC(0, 0), END_STATS(0), END_PASS, PASS_SEC(T1), EXEC1(0),
	     END_PASS, PASS(T1), BEGIN_OCC(0, 1), BEGIN_STATS(1), DRAW(RB), END_STATS(1),
	     END_OCC(0, 1), END_PASS),
	 {{.target = T1, .stats = true}}},
};

#define ALL_P {.target = T1, .occlusion = true, .precise = true, .stats = true}
static const struct script inherited_stats[] = {
	{"secondary_draws",
	 OPS(SEC(0), DRAW(RB), DRAWK(RC, 2), SEC_END, PASS(T1), DRAW(BIG), END_PASS,
	     BEGIN_STATS(0), PASS(T1), DRAW(RA), END_PASS, PASS_SEC(T1), EXEC1(0), END_PASS,
	     END_STATS(0)),
	 {{.target = T1, .stats = true}}},
	{"with_occlusion",
	 OPS(SEC(0), DRAW(RB), SEC_END, SEC(1), DRAW(RC), SEC_END, BEGIN_STATS(0),
	     BEGIN_OCC(0, 0), PASS_SEC(T1), EXEC2(0, 1), END_PASS, END_OCC(0, 0),
	     END_STATS(0)),
	 {ALL_P, ALL_P}},
};

/* VUID-vkCmdExecuteCommands-pCommandBuffers-00105 forbids only the types
 * active in the primary: a secondary may run a query of the other type
 * inside the inherited one, within its subpass, and that one is exact. */
static const struct script inherited_other_type[] = {
	{"stats_in_secondary_under_occlusion",
	 OPS(SEC(0), DRAW(RA), BEGIN_STATS(0), DRAW(RB), END_STATS(0), DRAW(RC), SEC_END,
	     BEGIN_OCC(0, 0), PASS_SEC(T1), EXEC1(0), END_PASS, END_OCC(0, 0)),
	 {OCC_P}},
	{"occlusion_in_secondary_under_stats",
	 OPS(SEC(0), DRAW(RA), BEGIN_OCC(0, 0), DRAW(RB), END_OCC(0, 0), DRAW(RC), SEC_END,
	     BEGIN_STATS(0), PASS_SEC(T1), EXEC1(0), END_PASS, END_STATS(0)),
	 {{.target = T1, .stats = true}}},
};

/* Timestamps written by a secondary while both query types are inherited. */
static const struct script inherited_timestamps[] = {
	{"in_secondary_under_queries",
	 OPS(SEC(0), DRAW(RA), TS, DRAW(RB), TS, SEC_END, BARRIER, TS, BARRIER,
	     BEGIN_STATS(0), BEGIN_OCC(0, 0), PASS_SEC(T1), EXEC1(0), END_PASS, END_OCC(0, 0),
	     END_STATS(0), BARRIER, TS),
	 {ALL_P}},
};

/* timestamp: vkCmdWriteTimestamp inside secondaries, ordered with the
 * primary's writes by full barriers in the primary or in a secondary
 * (submission order runs through vkCmdExecuteCommands). */
#define OUTSIDE {.outside = true}
static const struct script timestamp_secondary[] = {
	{"outside_render_pass",
	 OPS(SEC(0), TS, BARRIER, FILL, BARRIER, TS, SEC_END, BARRIER, TS, BARRIER,
	     EXEC1(0), BARRIER, TS),
	 {OUTSIDE}},
	{"inside_render_pass",
	 OPS(SEC(0), DRAW(RA), TS, DRAW(BIG), TS, SEC_END, BARRIER, TS, BARRIER, PASS_SEC(T1),
	     EXEC1(0), END_PASS, BARRIER, TS),
	 {IN_T1}},
	{"around_primary_write",
	 OPS(SEC(0), FILL, BARRIER, TS, SEC_END, SEC(1), TS, BARRIER, FILL, SEC_END,
	     EXEC1(0), BARRIER, TS, BARRIER, EXEC1(1)),
	 {OUTSIDE, OUTSIDE}},
	{"two_in_one_call",
	 OPS(SEC(0), TS, FILL, BARRIER, SEC_END, SEC(1), TS, BARRIER, FILL, BARRIER, TS,
	     SEC_END, EXEC2(0, 1)),
	 {OUTSIDE, OUTSIDE}},
};

/* The table --------------------------------------------------------------- */

#define SCOPE_SPEC \
	"18.2: occlusion and pipeline statistics queries count events resulting from " \
	"commands recorded between vkCmdBeginQuery and vkCmdEndQuery; queries of " \
	"different types may be active together (VUID-vkCmdBeginQuery-queryPool-01922)"
#define INHERIT_SPEC \
	"18.2: queries active in a primary command buffer when secondary command " \
	"buffers are executed are considered active for those secondary command buffers"
#define VALUES_SPEC \
	"; 18.3 precise counts exact (a lower bound when the query contains render pass " \
	"instances, whose load/store operations may count), non-precise non-zero; " \
	"18.4 statistics lower bounds"
#define SPANS_SPEC \
	"18.2: a query must either begin and end inside the same subpass of a render " \
	"pass instance, or must both begin and end outside of a render pass instance " \
	"(i.e. contain entire render pass instances)"

static const struct vkqs_case cases[] = {
	{.name = "mixed.nesting",
	 .fn = run_script,
	 .spec = SCOPE_SPEC "; each query counts only the draws inside its own begin/end "
			    "however the scopes nest or overlap" VALUES_SPEC
			    "; 18.5 timestamps written inside the scopes",
	 .params = VKQS_PARAMS(mixed_nesting, script_name)},
	{.name = "mixed.sequence",
	 .fn = run_script,
	 .spec = SCOPE_SPEC "; 18.3/18.4 each query starts at zero: queries of one type "
			    "follow one another while one of the other type stays active"
			    VALUES_SPEC,
	 .params = VKQS_PARAMS(mixed_sequence, script_name)},
	{.name = "mixed.all_types",
	 .fn = run_script,
	 .spec = SCOPE_SPEC "; 18.2 vkGetQueryPoolResults without WAIT returns "
			    "VK_NOT_READY and writes availability 0 and no value for a "
			    "query never written",
	 .params = VKQS_PARAMS(mixed_all_types, script_name)},
	{.name = "spans.contains_passes",
	 .fn = run_script,
	 .spec = SPANS_SPEC "; the query counts the draws of every instance it contains"
			    VALUES_SPEC,
	 .params = VKQS_PARAMS(spans_contains_passes, script_name)},
	{.name = "spans.nested",
	 .fn = run_script,
	 .spec = SPANS_SPEC "; queries of the other type inside the subpasses are exact"
			    VALUES_SPEC,
	 .params = VKQS_PARAMS(spans_nested, script_name)},
	{.name = "secondary.query",
	 .fn = run_script,
	 .spec = "18.2: a query must begin and end in the same command buffer, a secondary "
		 "one included, inside one subpass" VALUES_SPEC,
	 .params = VKQS_PARAMS(secondary_query, script_name)},
	{.name = "inherited.occlusion",
	 .fn = run_script,
	 .spec = INHERIT_SPEC "; with inheritedQueries a primary command buffer can execute "
			      "secondary command buffers during the query "
			      "(occlusionQueryEnable, queryFlags); every execution counts"
			      VALUES_SPEC,
	 .params = VKQS_PARAMS(inherited_occlusion, script_name)},
	{.name = "inherited.without_active_query",
	 .fn = run_script,
	 .spec = "VkCommandBufferInheritanceInfo: with occlusionQueryEnable (or a "
		 "pipelineStatistics bit) the secondary can be executed whether the primary "
		 "has such a query active or not; 18.3 queries before and after it count "
		 "only their own draws",
	 .params = VKQS_PARAMS(inherited_without_active_query, script_name)},
	{.name = "inherited.stats",
	 .fn = run_script,
	 .spec = INHERIT_SPEC " (VkCommandBufferInheritanceInfo::pipelineStatistics)"
			      VALUES_SPEC,
	 .params = VKQS_PARAMS(inherited_stats, script_name)},
	{.name = "inherited.other_type_in_secondary",
	 .fn = run_script,
	 .spec = INHERIT_SPEC "; VUID-vkCmdExecuteCommands-pCommandBuffers-00105: a secondary "
			      "may begin a query of a type not active in the primary, counted "
			      "exactly within its subpass" VALUES_SPEC,
	 .params = VKQS_PARAMS(inherited_other_type, script_name)},
	{.name = "inherited.timestamps",
	 .fn = run_script,
	 .spec = INHERIT_SPEC "; 18.5 timestamps written by the secondary are valid and "
			      "ordered by full barriers around vkCmdExecuteCommands" VALUES_SPEC,
	 .params = VKQS_PARAMS(inherited_timestamps, script_name)},
	{.name = "timestamp.secondary",
	 .fn = run_script,
	 .spec = "18.5: any timestamp write that happens-after another timestamp write in "
		 "the same submission must not have a lower value unless it overflows; "
		 "writes in secondary command buffers, ordered by full barriers in "
		 "submission order",
	 .params = VKQS_PARAMS(timestamp_secondary, script_name)},
};

VKQS_AREA(concurrent, cases);
