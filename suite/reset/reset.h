/* Query reset area: the scene of occlusion and timestamp pools, the expected state of
 * each query after use or reset, the guarded readback by vkGetQueryPoolResults or a
 * copy, and the gate that holds a submission while a case reads. Each group is one
 * file of this folder; reset.c lists them in order. */
#ifndef VKQS_SUITE_RESET_H
#define VKQS_SUITE_RESET_H

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "gate.h"
#include "tscheck.h"
#include "vkutil.h"

#define D (VKQS_D(ctx))

#define DEV (VKQS_DEV(ctx))

#define FB 64u

#define MAX_QUERIES 8u

/* The first result lands this far into the destination: a multiple of 8
 * (VUID-vkCmdCopyQueryPoolResults-queryCount-12255, VUID-vkGetQueryPoolResults-
 * queryCount-12252) but not of 16. */
#define DST_OFFSET 24u

/* Guard bytes between one query's words and the next one's. */
#define STRIDE_PAD 8u

#define TAIL_GUARD 40u

/* Not a plausible count, timestamp or availability word. */
#define GUARD 0xA5u

enum qtype { QT_OCCLUSION, QT_TIMESTAMP };

#define QTYPE_NAMES_COUNT 2
extern const char *const qtype_names[QTYPE_NAMES_COUNT];

enum path { PATH_GET, PATH_COPY };

#define PATH_NAMES_COUNT 2
extern const char *const path_names[PATH_NAMES_COUNT];

#define PATH_API_COUNT 2
extern const char *const path_api[PATH_API_COUNT];

uint32_t reset_rect_w(uint32_t query);

uint32_t reset_rect_h(uint32_t gen);

/* 4..25 x 3..52 pixels: inside the 64 x 64 target, every (query, gen)
 * pair of a case a different count. */
uint64_t reset_use_area(uint32_t query, uint32_t gen);

/* The scene ----------------------------------------------------------------*/

struct scene {
	enum qtype type;
	VkQueryPool pool;
	uint32_t queries;
	struct vkqs_target *t;        /* occlusion */
	struct vkqs_pipeline *p;      /* occlusion: no depth test */
	struct vkqs_pipeline *p_less; /* occlusion with depth: LESS, no writes */
	uint32_t ts_bits;             /* timestamp: the graphics family's */
};

struct scene *reset_scene_create(struct vkqs_ctx *ctx, enum qtype type,
				  uint32_t queries, VkQueryPoolCreateFlags flags,
				  bool depth);

/* Query q around `draws` draws of a w x h rectangle at the origin, inside
 * the current subpass. */
void reset_occ_query(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct scene *s,
		      const struct vkqs_pipeline *p, uint32_t q, uint32_t w, uint32_t h,
		      uint32_t draws, float z);

/* Uses queries [first, first + count) once each: one render pass instance
 * with a reset_rect_w(q) x reset_rect_h(gen) draw per occlusion query, or a timestamp
 * write per query.  The queries must be reset (18.2: "Queries must also be
 * reset between uses"; VUID-vkCmdBeginQuery-None-00807,
 * VUID-vkCmdWriteTimestamp-None-00830). */
void reset_record_use(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct scene *s,
		       uint32_t first, uint32_t count, uint32_t gen);

void reset_submit_wait_one(struct vkqs_ctx *ctx, VkCommandBuffer cb);

/* Resets [first, first + count) and waits for it: on the host
 * (vkResetQueryPool; VUID-vkResetQueryPool-firstQuery-02741 holds, every
 * earlier submission having completed) or in a submission of its own. */
void reset_now(struct vkqs_ctx *ctx, const struct scene *s, uint32_t first,
		      uint32_t count, bool host);

/* Reset (command) and use of [first, first + count), submitted and waited. */
void reset_use_now(struct vkqs_ctx *ctx, const struct scene *s, uint32_t first,
		    uint32_t count, uint32_t gen);

/* The 64-bit results of available queries, for timestamps read again later. */
void reset_read_baseline(struct vkqs_ctx *ctx, const struct scene *s, uint32_t first,
			  uint32_t count, uint64_t *out);

/* What one read must write ------------------------------------------------*/

enum value_expect {
	V_EXACT,     /* == value */
	V_TS_KNOWN,  /* the timestamp value read before (32-bit: wrap or saturate) */
	V_TIMESTAMP, /* a written timestamp: non-zero, within the valid bits */
	V_AT_MOST,   /* <= value: a PARTIAL result of an unavailable query */
	V_UNDEFINED, /* may be written with anything */
	/* An unavailable query's value without PARTIAL, through
	 * vkGetQueryPoolResults: the current 18.2 lets an undefined value be
	 * written ("Otherwise, any result written by this command is
	 * undefined"); earlier versions said no result values are written for
	 * unavailable queries, and the CTS checks that.  Written bytes are a
	 * CompatibilityWarning. */
	V_UNWRITTEN,
};

enum avail_expect { A_NONZERO, A_ZERO };

struct qexp {
	enum value_expect v;
	uint64_t value;
	enum avail_expect a; /* also decides whether VK_NOT_READY may come back */
};

/* The expectation of a query used once (gen) and read after its work. */
struct qexp reset_exp_used(const struct scene *s, uint32_t q, uint32_t gen);

/* A used query whose 64-bit result `known` was read before: occlusion is
 * the area anyway; a timestamp must read `known` again ("Results for any
 * available query written by this command are final"). */
struct qexp reset_exp_known(const struct scene *s, uint32_t q, uint32_t gen,
			     uint64_t known);

/* A reset query that no command has used since. */
struct qexp reset_exp_reset(enum path path, VkQueryResultFlags flags);

/* One read and its destination -------------------------------------------*/

struct rb {
	enum path path;
	const struct scene *s;
	uint32_t first, count;
	VkQueryResultFlags flags;
	VkDeviceSize stride;
	size_t size;
	struct qexp e[MAX_QUERIES];
	uint8_t *init;           /* the pre-filled destination */
	uint8_t *bytes;          /* host array (get) or the mapping (copy) */
	struct vkqs_buffer *buf; /* copy */
	uint64_t value[MAX_QUERIES], avail[MAX_QUERIES]; /* decoded by rb_check */
};

size_t reset_rb_word(const struct rb *r);

bool reset_rb_has_avail(const struct rb *r);

/* (Re)writes the destination from the expectations: guard bytes, each value
 * word pre-filled so that leaving it unwritten fails (0 for a timestamp,
 * the guard otherwise: no count or bound here equals it), each
 * availability word the opposite of what it must become. */
void reset_rb_fill(struct vkqs_ctx *ctx, struct rb *r);

struct rb *reset_rb_create(struct vkqs_ctx *ctx, const struct scene *s, enum path path,
			    uint32_t first, uint32_t count, VkQueryResultFlags flags,
			    const struct qexp *e);

/* Never ends the case: safe while a gated submission is pending. */
VkResult reset_rb_get(struct vkqs_ctx *ctx, const struct rb *r);

/* vkCmdCopyQueryPoolResults is a transfer write (18.2): the barrier makes
 * it visible to the host after the fence. */
void reset_rb_record_copy(struct vkqs_ctx *ctx, const struct rb *r, VkCommandBuffer cb);

bool reset_any_unavailable(const struct rb *r);

/* 18.2: "If VK_QUERY_RESULT_WAIT_BIT is not set, vkGetQueryPoolResults may
 * return VK_NOT_READY if there are queries in the unavailable state."  With
 * every read query available (or WAIT) that leaves VK_SUCCESS.  With an
 * unavailable one the current text says "may"; earlier versions said it
 * returns VK_NOT_READY (when neither WAIT nor PARTIAL is set) and the CTS
 * requires it: VK_SUCCESS is a CompatibilityWarning there.  With PARTIAL
 * both are right. */
void reset_check_get_result(struct vkqs_ctx *ctx, const struct rb *r, VkResult got);

/* Decodes the destination into r->value / r->avail and checks it against
 * r->e; `what` names the read.  True when every check held. */
bool reset_rb_check(struct vkqs_ctx *ctx, struct rb *r, const char *what);

/* One read after all the work that uses the queries completed; a copy goes
 * in a submission of its own (without WAIT the copy's first scope holds no
 * vkCmdEndQuery / vkCmdWriteTimestamp, 18.2: the fence wait in between
 * orders them). */
void reset_read_check(struct vkqs_ctx *ctx, const struct scene *s, enum path path,
			     uint32_t first, uint32_t count, VkQueryResultFlags flags,
			     const struct qexp *e, const char *what);

#define F64A (VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT)

/* Reads [0, n) of a scene where query q holds use gen (all available). */
void reset_read_used(struct vkqs_ctx *ctx, const struct scene *s, enum path path,
		      uint32_t n, uint32_t gen, const char *what);

/* The table's parameters ---------------------------------------------------*/

struct tp_param {
	uint8_t type; /* enum qtype */
	uint8_t path; /* enum path */
};

#define TP_PARAMS_COUNT 4
extern const struct tp_param tp_params[TP_PARAMS_COUNT];

void reset_tp_name(const void *param, char *buf, size_t size);

#define TYPE_PARAMS_COUNT 2
extern const uint8_t type_params[TYPE_PARAMS_COUNT];

void reset_type_name(const void *param, char *buf, size_t size);

/* order: where the reset happens ------------------------------------------*/

#define ORDER_QUERIES 3u

#define ORDER_GEN 2u

/* partial / wait: reads of a query whose work has not run ------------------*/

/* The earlier use leaves this result (48 x 40) in the query... */
#define OLD_W 48u

#define OLD_H 40u

/* ... and the gated use counts PENDING_DRAWS draws of 5 x 3: less, so a
 * driver that keeps the old result through the reset and returns it as a
 * PARTIAL result is caught (bug class 3: a partial value above the final
 * one).  Many draws keep the query active for a while, so some PARTIAL
 * reads may land in the middle of it. */
#define PENDING_W 5u

#define PENDING_H 3u

#define PENDING_DRAWS 64u

#define PENDING_FINAL ((uint64_t)PENDING_DRAWS * PENDING_W * PENDING_H)

/* The earlier use of query q (the big rectangle), waited for, read. */
void reset_old_use(struct vkqs_ctx *ctx, const struct scene *s, uint32_t q);

/* The gated command buffer: query q around the pending draws, or (with
 * `occluded`) around the same draws behind a depth clear of 0.0 that the
 * LESS test at 0.5 rejects everywhere: final result 0. */
VkCommandBuffer reset_record_pending(struct vkqs_ctx *ctx, const struct scene *s, uint32_t q,
				      bool occluded);

/* The table ----------------------------------------------------------------*/

#define SPEC_RESET                                                                 \
	"18.2: \"After query pool creation, each query must be reset before it is "  \
	"used. Queries must also be reset between uses.\"; vkCmdResetQueryPool "     \
	"\"sets the status of query indices [firstQuery, firstQuery + queryCount - " \
	"1] to unavailable\" and \"happens after the first scope and happens "       \
	"before the second scope\" (the commands referencing the queries earlier / " \
	"later in submission order)"

#define SPEC_HOST_RESET                                                            \
	"18.2: vkResetQueryPool \"sets the status of query indices [firstQuery, "    \
	"firstQuery + queryCount - 1] to unavailable\" (hostQueryReset)"

#define SPEC_COPY_SCOPES                                                           \
	"18.2: vkCmdCopyQueryPoolResults and vkCmdResetQueryPool each define an "    \
	"execution dependency with the other query commands referencing the same "  \
	"query, earlier and later in submission order"

#define SPEC_NOT_READY                                                             \
	"18.2: \"If VK_QUERY_RESULT_WAIT_BIT is not set, vkGetQueryPoolResults may " \
	"return VK_NOT_READY if there are queries in the unavailable state\""

#endif
