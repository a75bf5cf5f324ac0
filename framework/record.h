/* The run record: the one in-memory account of a run that every reporter
 * (text, JSON, JUnit, results.csv) is a pure function of (STYLE 8). */
#ifndef VKQS_RECORD_H
#define VKQS_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include "device.h"
#include "expect.h"
#include "registry.h"
#include "status.h"

/* How a result compares with the expectations. */
#define VKQS_OUTCOME_LIST(X)                                                  \
	X(OK, "ok", false)                   /* success, no baseline */       \
	X(EXPECTED, "expected", false)       /* equals its baseline */        \
	X(UNEXPECTED, "unexpected", true)    /* a failure not expected */     \
	X(UNEXPECTED_PASS, "unexpected_pass", true) /* baseline to tighten */ \
	X(FLAKE, "flake", false)             /* failed, then passed on rerun */ \
	X(KNOWN_FLAKE, "known_flake", false) /* failed, listed in flakes */   \
	X(NOT_RUN, "not_run", true)          /* run interrupted before it */  \
	X(NOT_PINNED, "not_pinned", true)    /* the expected status, not the \
						pinned failure (expect.h) */   \
	X(ORDER_DEPENDENT, "order_dependent", true) /* passes alone, fails \
						after its predecessors */

enum vkqs_outcome {
#define X(e, n, bad) VKQS_OUTCOME_##e,
	VKQS_OUTCOME_LIST(X)
#undef X
};
const char *vkqs_outcome_name(enum vkqs_outcome o);
bool vkqs_outcome_unexpected(enum vkqs_outcome o);

struct vkqs_result {
	const struct vkqs_case_inst *ci;
	enum vkqs_status status;
	double duration_s;
	char message[VKQS_MSG_MAX];
	/* the message's items (status.h); none: the message is one item */
	struct vkqs_msg_items items;
	char *log;                 /* the case's stderr for non-Pass; may be NULL */
	bool done;
	enum vkqs_outcome outcome;
	bool has_expected;
	enum vkqs_status expected;
	enum vkqs_status rerun_status; /* valid when outcome is FLAKE */
	/* NOT_PINNED: the failure item (index in vkqs_result_item order) no
	 * pin of the entry matches whole, and the entry's first pin */
	int unpinned;
	const char *pin;
	/* The cases that ran before it in its process (runner.c), and for
	 * ORDER_DEPENDENT the account of the reruns. */
	const struct vkqs_case_inst **preds;
	size_t npreds;
	/* The case process it was given to (0: none yet) and its place in that
	 * process's batch: a journal cut short keeps which cases shared a
	 * process, so --resume runs them again together (cli/cmd_run.c). */
	long process;
	unsigned position;
	char *order_note;
};

/* The counts of a run, one model for every surface (console, JSON,
 * JUnit, tools/).  Each case is in exactly one class:
 *   total = passed + not_supported + warnings   (outcome ok)
 *         + expected_fails + flakes + failed + not_run
 * failed: ran, and its outcome fails the run (unexpected, unexpected
 * pass, not pinned, order-dependent); unexpected = failed + not_run, what
 * the exit code and a CI gate read; unexpected_passes is part of failed. */
struct vkqs_summary {
	size_t total, passed, not_supported, warnings, expected_fails, flakes, failed,
		not_run, unexpected, unexpected_passes;
};

/* A device that failed the runner's health check after a case: the run
 * stopped there. */
struct vkqs_device_lost {
	char at[256];   /* the case after which the device was found lost */
	char why[256];  /* what the health check saw */
};

struct vkqs_run {
	struct vkqs_device_info device;
	bool validation;
	struct vkqs_validation_stats vstats; /* under validation: what the layer said */
	bool complete;           /* every case ran and nothing stopped the run */
	char stopped[512];       /* why not, when not complete */
	char started_at[32];     /* UTC, ISO 8601 */
	double wall_s;
	const char *expectations; /* prefix, or NULL */
	/* prefixes not applied: written for other driver versions (expect.h) */
	char expectations_not_applied[2048];
	size_t count;
	struct vkqs_result *results; /* in case-list order */
	size_t skipped_by_list;    /* removed by <prefix>-skips.txt */
	struct vkqs_device_lost lost; /* lost.at[0] != 0: the device was lost */
	/* What a shard merge (tools/report.py --merge) checks shards against. */
	unsigned shard_i, shard_n;  /* --shard I/N; 0/0 when not sharded */
	size_t selected;            /* cases selected before sharding */
	size_t serial;              /* of them, run one at a time (-serial.txt) */
	char build[80];             /* "sha256:<hex>" of the vkqs binary */
	char options[2048];         /* the options that select and judge cases */
	/* On the refdevice: the RD_ knobs set, "NAME=value" lines in name
	 * order (vkqs_refdevice_knobs); the JSON's "refdevice" object. */
	char refdevice[2048];
	const struct vkqs_expectations_file *exp_files; /* with their SHA-256 */
	size_t nexp_files;
};

/* The i-th item of r's message (i < vkqs_result_items(r)): its text and
 * length (not NUL-terminated) and whether it is a failure (an item at the
 * case's status, which is not Pass) or a note. */
unsigned vkqs_result_items(const struct vkqs_result *r);
const char *vkqs_result_item(const struct vkqs_result *r, unsigned i, size_t *len,
			     bool *failure);
/* An item's text without its "file.c:line: " prefix (lines move: pins and
 * the console's NotSupported reasons use the words); *len shrinks to it. */
const char *vkqs_item_without_place(const char *t, size_t *len);
/* Rebuilds r->items from the failures and notes a result file lists (in
 * any order) by finding each in r->message; false when one is not there. */
bool vkqs_result_items_from(struct vkqs_result *r, const char *const *texts, const bool *failure,
			    unsigned n);

/* Sets outcome from status, baseline and flake list (before any rerun). */
void vkqs_classify(struct vkqs_result *r, const struct vkqs_expectations *e);
void vkqs_summarize(const struct vkqs_run *run, struct vkqs_summary *s);
/* Frees what the results own (logs, predecessors, order notes) and the
 * results array. */
void vkqs_run_free_results(struct vkqs_run *run);

#endif
