/* The verdict policy (docs/verdicts.md) as helpers, so that every area
 * judges a value the same way:
 *
 *   Fail                  the current spec says "must" or defines the value,
 *                         and the case's set-up leaves the driver no latitude
 *                         (no reuse, merge or "undefined" clause applies);
 *   CompatibilityWarning  the spec says "should", or the value lies in a range
 *                         the spec leaves open (fewer than the stage
 *                         description where a reuse or merge clause, or open
 *                         text, allows it; more than the description);
 *   no verdict, logged    the spec says the value is undefined.
 *
 * A counter's expectation is a band: [must, soft) is open, [soft, warn] is
 * the description, (warn, max] is more than the description. */
#ifndef VKQS_VERDICT_H
#define VKQS_VERDICT_H

#include "vkqs.h"

#define VKQS_UNBOUNDED UINT64_MAX

struct vkqs_band {
	uint64_t must; /* below: Fail (the least the current spec requires here) */
	uint64_t soft; /* below, from must up: CompatibilityWarning (soft_why) */
	uint64_t warn; /* above: CompatibilityWarning (more than the description) */
	uint64_t max;  /* above: Fail */
	const char *soft_why; /* the clause that allows fewer than soft */
	const char *warn_why; /* the clause that allows more than warn (NULL: the
				 counters' description, VKQS_SPEC_STATS_DESCRIPTION) */
	const char *undefined; /* non-NULL: the spec makes the value undefined (why) */
};

/* Exactly n: the spec defines the value (result plumbing, no work at all). */
struct vkqs_band vkqs_band_exact(uint64_t n);
/* At least n (must); more than n is CompatibilityWarning. */
struct vkqs_band vkqs_band_natural(uint64_t n);
/* At least must; fewer than soft is CompatibilityWarning (why); more than
 * soft is CompatibilityWarning too. */
struct vkqs_band vkqs_band_soft(uint64_t must, uint64_t soft, const char *why);
/* No verdict: the value is undefined (why, quoting the spec). */
struct vkqs_band vkqs_band_undefined(const char *why);

/* Adds b's bounds to a (two draws in one query): saturating; soft_why and
 * undefined carry over from whichever has them. */
void vkqs_band_add(struct vkqs_band *a, const struct vkqs_band *b);

/* Judges v against b; `what` names the value in the message ("query 0,
 * value 2 (vertex_shader_invocations)").  Returns false on Fail. */
bool vkqs_check_band(struct vkqs_ctx *ctx, const char *file, int line, const char *what,
		     uint64_t v, const struct vkqs_band *b);
#define VKQS_CHECK_BAND(ctx, what, v, b) \
	vkqs_check_band((ctx), __FILE__, __LINE__, (what), (v), (b))

/* CompatibilityWarning when !ok, saying why it is no Fail (kind). */
bool vkqs_check_compat(struct vkqs_ctx *ctx, const char *file, int line, bool ok,
		       const char *kind, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* A "should" of the current spec. */
#define VKQS_EXPECT_SHOULD(ctx, ok, ...) \
	vkqs_check_compat((ctx), __FILE__, __LINE__, (ok), "a \"should\" of the spec", __VA_ARGS__)
/* A value the spec leaves open (why: the clause). */
#define VKQS_EXPECT_OPEN(ctx, ok, why, ...) \
	vkqs_check_compat((ctx), __FILE__, __LINE__, (ok), (why), __VA_ARGS__)
/* Bytes inside a result's stride past what the layout places there: the
 * spec says what is written, not that the rest of the stride stays as it
 * was (CTS checks only the bytes before the destination offset). */
#define VKQS_SPEC_STRIDE_PADDING                                                    \
	"the spec places each query's values and availability or status word in the " \
	"stride but does not say the rest of the stride is left untouched"
#define VKQS_EXPECT_PADDING_UNTOUCHED(ctx, ok, ...) \
	vkqs_check_compat((ctx), __FILE__, __LINE__, (ok), VKQS_SPEC_STRIDE_PADDING, __VA_ARGS__)

/* Logged with the result, no verdict (a value the spec makes undefined). */
#define vkqs_note(ctx, ...) vkqs_report((ctx), VKQS_PASS, __FILE__, __LINE__, __VA_ARGS__)

/* Sentences of the current spec (Vulkan 1.4.360) the policy rests on. */
#define VKQS_SPEC_STATS_MISSING_STAGE                                                   \
	"queries.adoc (1.3.282+): \"or the counter corresponds to a shading stage which " \
	"is missing from any of the pipelines used while the query is active, the value " \
	"of that counter is undefined\""
/* The same, short, for the message of each value given no verdict. */
#define VKQS_WHY_MISSING_STAGE "its stage is missing from a pipeline the query used: queries.adoc 1.3.282"
#define VKQS_SPEC_FS_MERGE                                                              \
	"fragops.adoc Fragment Shading (1.3.274+): \"If a fragment shader statically "    \
	"computes the same values for different framebuffer locations, and does not "     \
	"write to any storage resources, multiple fragments may be shaded by one "        \
	"fragment shader invocation. This may affect "                                    \
	"VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT results\""
#define VKQS_SPEC_VS_REUSE                                                              \
	"shaders.adoc Vertex Shader Execution: \"the implementation may reuse the "      \
	"results of vertex shading if it can statically determine that the vertex "      \
	"shader invocations will produce identical results\" (whether a vertex of "      \
	"another instance is 'the same vertex' is open: Vulkan-Docs issue 106)"
#define VKQS_SPEC_ADJACENCY                                                             \
	"drawing.adoc: the adjacent vertices are \"only accessible in a geometry "       \
	"shader\"; 18.4: \"Various device architectures will count these values "        \
	"differently\" (CTS's minimum is the main primitives' vertices)"
#define VKQS_SPEC_MAY_COUNT                                                             \
	"queries.adoc: \"Rendering operations such as clears, MSAA resolves, attachment " \
	"load/store operations, and blits may count towards the results of queries\""
#define VKQS_SPEC_STATS_DESCRIPTION                                                     \
	"queries.adoc: \"Various device architectures will count these values "          \
	"differently\""

#endif
