/* The case API: what a file under suite/ sees ("STYLE n": rule n of
 * docs/style.md; docs/writing-a-case.md walks a new case through).
 *
 * One case = one static function + one row in the area's table (STYLE 1).
 * A case that runs over combinations names a typed parameter array and a
 * hook that turns one element into the name suffix (STYLE 2).  The full name
 * is "vkqs.<area>.<case name>[_<suffix>]" and is the stable key everywhere.
 *
 * Checks: VKQS_EXPECT_* records a failure and continues; VKQS_ASSERT_* records
 * it and ends the case.  vkqs_skip() ends the case as NotSupported.  Objects
 * made through vkutil.h are destroyed after the case however it ends. */
#ifndef VKQS_H
#define VKQS_H

#include <inttypes.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compat.h"
#include "status.h"
#include "vkresult.h"

struct vkqs_vk;
struct vkqs_ctx;

typedef void (*vkqs_case_fn)(struct vkqs_ctx *ctx, const void *param);
/* Writes the name suffix of params[i] (lower_snake tokens, no leading '_'). */
typedef void (*vkqs_param_name_fn)(const void *param, char *buf, size_t size);

enum vkqs_case_flags {
	VKQS_CASE_NO_DEVICE = 1u << 0, /* runs without a Vulkan device */
	VKQS_CASE_SELFTEST = 1u << 1,  /* listed only when VKQS_SELFTEST=1 */
};

struct vkqs_case {
	const char *name;       /* "<group>.<case>", appended to "vkqs.<area>." */
	vkqs_case_fn fn;
	const char *spec;       /* the statement checked: "18.3 ...", a VUID */
	const void *params;     /* NULL: a single case */
	size_t param_size;
	size_t param_count;
	vkqs_param_name_fn param_name;
	unsigned flags;
};

/* The cases of one group (suite/<area>/<group>.c ends with its table). */
struct vkqs_group {
	const struct vkqs_case *cases;
	size_t count;
};

/* Rows [first, first + count) of a group, count 0 meaning to its end: an
 * area made of groups lists its parts in listing order, and the registry
 * checks that every row of each group is listed exactly once. */
struct vkqs_area_part {
	const struct vkqs_group *group;
	size_t first, count;
};

/* An area is one table of cases, or parts of its groups' tables. */
struct vkqs_area {
	const char *name;
	const struct vkqs_case *cases;
	size_t count;
	const struct vkqs_area_part *parts;
	size_t part_count;
};

#define VKQS_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define VKQS_AREA(area_name, table)                 \
	const struct vkqs_area vkqs_area_##area_name = { \
		.name = #area_name, .cases = table, .count = VKQS_ARRAY_LEN(table)}
#define VKQS_GROUP(area_name, group_name, table)                                \
	const struct vkqs_group vkqs_##area_name##_##group_name = {table,         \
								  VKQS_ARRAY_LEN(table)}
#define VKQS_GROUP_DECL(area_name, group_name) \
	extern const struct vkqs_group vkqs_##area_name##_##group_name
#define VKQS_AREA_OF_PARTS(area_name, part_table)   \
	const struct vkqs_area vkqs_area_##area_name = { \
		.name = #area_name, .parts = part_table, .part_count = VKQS_ARRAY_LEN(part_table)}
/* A parameterised row: params must be a static array. */
#define VKQS_PARAMS(array, namefn) \
	(array), sizeof((array)[0]), VKQS_ARRAY_LEN(array), (namefn)

#define VKQS_MSG_MAX 2048

/* Everything one running case can touch. */
struct vkqs_ctx {
	struct vkqs_vk *vk;     /* NULL for VKQS_CASE_NO_DEVICE cases */
	const char *name;       /* full case name */
	enum vkqs_status status;
	char message[VKQS_MSG_MAX];
	size_t message_len;
	struct vkqs_msg_items items; /* the message's items (status.h) */
	unsigned checks;        /* number of checks evaluated */
	jmp_buf *abort_to;
	struct vkqs_defer *defer; /* cleanup list, run newest first */
	/* The device may be unusable after this case (a fence that never
	 * signaled): the runner starts a fresh process for the next case. */
	bool poisoned;
};

/* Result recording ------------------------------------------------------- */

/* Appends "file:line: text" to the message and raises the status to s
 * (statuses only get more severe). */
void vkqs_report(struct vkqs_ctx *ctx, enum vkqs_status s, const char *file,
		 int line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Ends the case now (after vkqs_report, or for skip). */
_Noreturn void vkqs_abort_case(struct vkqs_ctx *ctx);

#define vkqs_fail(ctx, ...) \
	vkqs_report((ctx), VKQS_FAIL, __FILE__, __LINE__, __VA_ARGS__)
#define vkqs_quality_warning(ctx, ...) \
	vkqs_report((ctx), VKQS_QUALITY_WARNING, __FILE__, __LINE__, __VA_ARGS__)
#define vkqs_compat_warning(ctx, ...) \
	vkqs_report((ctx), VKQS_COMPATIBILITY_WARNING, __FILE__, __LINE__, __VA_ARGS__)
#define vkqs_skip(ctx, ...)                                                   \
	do {                                                                  \
		vkqs_report((ctx), VKQS_NOT_SUPPORTED, __FILE__, __LINE__,    \
			    __VA_ARGS__);                                     \
		vkqs_abort_case(ctx);                                         \
	} while (0)
/* The harness cannot judge this device: a limit of the oracle that depends
 * on a device property (e.g. subPixelPrecisionBits) ends the case as
 * NotSupported naming that property, never as InternalError (vkqs's own
 * bug) or Fail (the driver's).  "harness limit (PROPERTY): ..." */
#define vkqs_harness_limit(ctx, property, ...)                                \
	do {                                                                  \
		char vkqs_hl_[512];                                           \
		snprintf(vkqs_hl_, sizeof(vkqs_hl_), __VA_ARGS__);            \
		vkqs_report((ctx), VKQS_NOT_SUPPORTED, __FILE__, __LINE__,    \
			    "harness limit (%s): %s", (property), vkqs_hl_);  \
		vkqs_abort_case(ctx);                                         \
	} while (0)
/* vkqs's own bug: a combination the suite should never build. */
#define vkqs_internal_error(ctx, ...)                                         \
	do {                                                                  \
		vkqs_report((ctx), VKQS_INTERNAL_ERROR, __FILE__, __LINE__,   \
			    __VA_ARGS__);                                     \
		vkqs_abort_case(ctx);                                         \
	} while (0)

/* Checks (STYLE 7): the expression's text and both values, right signedness. */
bool vkqs_check_u64(struct vkqs_ctx *ctx, bool fatal, const char *file, int line,
		    const char *a_txt, const char *op, const char *b_txt,
		    uint64_t a, uint64_t b);
bool vkqs_check_i64(struct vkqs_ctx *ctx, bool fatal, const char *file, int line,
		    const char *a_txt, const char *op, const char *b_txt,
		    int64_t a, int64_t b);
bool vkqs_check_true(struct vkqs_ctx *ctx, bool fatal, const char *file,
		     int line, const char *txt, bool v);
bool vkqs_check_vk(struct vkqs_ctx *ctx, bool fatal, const char *file, int line,
		   const char *txt, VkResult got, VkResult want);
/* A check whose failure message is formatted by the case (built only when
 * the check fails): VKQS_EXPECTF(ctx, a <= b, "query %u: %llu > %llu", ...). */
bool vkqs_check_fmt(struct vkqs_ctx *ctx, bool fatal, const char *file, int line,
		    bool ok, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
#define VKQS_EXPECTF(ctx, ok, ...) \
	vkqs_check_fmt((ctx), false, __FILE__, __LINE__, (ok), __VA_ARGS__)
#define VKQS_ASSERTF(ctx, ok, ...) \
	vkqs_check_fmt((ctx), true, __FILE__, __LINE__, (ok), __VA_ARGS__)

#define VKQS__U(ctx, fatal, a, op, b) \
	vkqs_check_u64((ctx), (fatal), __FILE__, __LINE__, #a, #op, #b, \
		       (uint64_t)(a), (uint64_t)(b))
#define VKQS_EXPECT_EQ(ctx, a, b) VKQS__U(ctx, false, a, ==, b)
#define VKQS_EXPECT_NE(ctx, a, b) VKQS__U(ctx, false, a, !=, b)
#define VKQS_EXPECT_LE(ctx, a, b) VKQS__U(ctx, false, a, <=, b)
#define VKQS_EXPECT_LT(ctx, a, b) VKQS__U(ctx, false, a, <, b)
#define VKQS_EXPECT_GE(ctx, a, b) VKQS__U(ctx, false, a, >=, b)
#define VKQS_EXPECT_GT(ctx, a, b) VKQS__U(ctx, false, a, >, b)
#define VKQS_ASSERT_EQ(ctx, a, b) VKQS__U(ctx, true, a, ==, b)
#define VKQS_ASSERT_NE(ctx, a, b) VKQS__U(ctx, true, a, !=, b)
#define VKQS_ASSERT_LE(ctx, a, b) VKQS__U(ctx, true, a, <=, b)
#define VKQS_ASSERT_GE(ctx, a, b) VKQS__U(ctx, true, a, >=, b)
#define VKQS_ASSERT_GT(ctx, a, b) VKQS__U(ctx, true, a, >, b)
#define VKQS_EXPECT_TRUE(ctx, e) \
	vkqs_check_true((ctx), false, __FILE__, __LINE__, #e, (e))
#define VKQS_ASSERT_TRUE(ctx, e) \
	vkqs_check_true((ctx), true, __FILE__, __LINE__, #e, (e))
/* A Vulkan call that must return `want`; anything else ends the case
 * (VK_ERROR_OUT_OF_*_MEMORY as ResourceError, others as Fail). */
#define VKQS_ASSERT_VK(ctx, call, want) \
	vkqs_check_vk((ctx), true, __FILE__, __LINE__, #call, (call), (want))
#define VKQS_EXPECT_VK(ctx, call, want) \
	vkqs_check_vk((ctx), false, __FILE__, __LINE__, #call, (call), (want))
#define VKQS_CHECK(ctx, call) VKQS_ASSERT_VK(ctx, call, VK_SUCCESS)

/* Deferred cleanup (STYLE 6) --------------------------------------------- */
typedef void (*vkqs_defer_fn)(struct vkqs_ctx *ctx, void *arg);
/* Registers fn(ctx, arg) to run when the case ends, newest first. */
void vkqs_defer(struct vkqs_ctx *ctx, vkqs_defer_fn fn, void *arg);
/* malloc that ends the case as ResourceError on failure; freed at case end. */
void *vkqs_alloc(struct vkqs_ctx *ctx, size_t size);

/* Runs one case in this process: sets up ctx, runs fn, runs the cleanup
 * list.  Used by the runner's child and by --no-fork. */
void vkqs_case_execute(struct vkqs_ctx *ctx, const struct vkqs_case *c,
		       const void *param, struct vkqs_vk *vk);

#endif
