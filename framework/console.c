/* The console of `vkqs run`, built for triage (README: reading results):
 * while it runs, a line per case only for what is unexpected (every case
 * with --verbose); at the end one block, most urgent first:
 *   unexpected (case, first failure with its file:line), order-dependent,
 *   flakes, expected failures grouped by their -fails.txt entry (the
 *   comment block above them: one known bug), warnings grouped by class
 *   (status and group), NotSupported counted by reason, the expectation
 *   files and the driver;
 * then the partition line (its counts add up to the case count) and a
 * closing line that says PASS, FAIL or INCOMPLETE and why. */
#include <stdlib.h>
#include <string.h>

#include "console.h"
#include "device.h"
#include "expect.h"
#include "report.h"

#define ALL ((size_t)-1)

/* The first failure item of r (a note when it has none), its length, and
 * how many failures and notes it has. */
static const char *first_failure(const struct vkqs_result *r, size_t *len, unsigned *nfail,
				 unsigned *nnote)
{
	const char *first = NULL, *note = NULL;
	size_t flen = 0, nlen = 0;
	*nfail = *nnote = 0;
	for (unsigned i = 0; i < vkqs_result_items(r); i++) {
		size_t l;
		bool failure;
		const char *t = vkqs_result_item(r, i, &l, &failure);
		if (failure && !(*nfail)++) {
			first = t;
			flen = l;
		} else if (!failure && !(*nnote)++) {
			note = t;
			nlen = l;
		}
	}
	*len = first ? flen : nlen;
	return first ? first : note ? note : "";
}

static const char *tag(const struct vkqs_result *r)
{
	switch (r->outcome) {
	case VKQS_OUTCOME_EXPECTED: return " (expected)";
	case VKQS_OUTCOME_UNEXPECTED_PASS: return " (UNEXPECTED PASS: update the expectations)";
	case VKQS_OUTCOME_FLAKE: return " (flake: passed on rerun)";
	case VKQS_OUTCOME_KNOWN_FLAKE: return " (known flake)";
	case VKQS_OUTCOME_UNEXPECTED: return " (UNEXPECTED)";
	case VKQS_OUTCOME_NOT_RUN: return " (not run)";
	case VKQS_OUTCOME_NOT_PINNED: return " (UNEXPECTED: not the pinned failure)";
	case VKQS_OUTCOME_ORDER_DEPENDENT: return " (UNEXPECTED: order-dependent)";
	default: return "";
	}
}

void vkqs_console_case(FILE *f, const struct vkqs_result *r)
{
	size_t len;
	unsigned nf, nn;
	const char *t = first_failure(r, &len, &nf, &nn);
	fprintf(f, "%-20s %s%s (%.3f s)%s%.*s", r->done ? vkqs_status_name(r->status) : "Missing",
		r->ci->name, tag(r), r->duration_s, len ? ": " : "", (int)(len > 300 ? 300 : len),
		t);
	if (len > 300)
		fputs(" [...]", f);
	if (nf > 1 || (nf && nn))
		fprintf(f, " [+%u failure(s), %u note(s): --json has all]", nf - 1, nn);
	fputc('\n', f);
}

/* The end of a case's log, indented: what a reader of a crash needs. */
static void print_log(FILE *f, const char *log)
{
	const char *p = log + strlen(log);
	for (int lines = 0; p > log && lines < 12; lines++)
		while (--p > log && p[-1] != '\n')
			;
	while (*p) {
		const char *e = strchr(p, '\n');
		int len = e ? (int)(e - p) : (int)strlen(p);
		fprintf(f, "    | %.*s\n", len, p);
		p += len + (e ? 1 : 0);
	}
}

/* One unexpected result: its line, every failure (each with its
 * file:line), what the pins or the reruns said, and its log. */
static void print_unexpected(FILE *f, const struct vkqs_result *r)
{
	fprintf(f, "%-20s %s%s (%.3f s)\n", r->done ? vkqs_status_name(r->status) : "Missing",
		r->ci->name, tag(r), r->duration_s);
	unsigned shown = 0;
	for (unsigned i = 0; i < vkqs_result_items(r); i++) {
		size_t l;
		bool failure;
		const char *t = vkqs_result_item(r, i, &l, &failure);
		if (!failure && r->status != VKQS_PASS)
			continue;
		if (shown++ == 4) {
			fputs("    [more failures: --json has all]\n", f);
			break;
		}
		fprintf(f, "    %.*s%s\n", (int)(l > 400 ? 400 : l), t, l > 400 ? " [...]" : "");
	}
	if (r->unpinned >= 0) {
		size_t len;
		bool failure;
		const char *t = vkqs_result_item(r, (unsigned)r->unpinned, &len, &failure);
		fprintf(f, "    no pin of its entry matches the failure '%.*s' (first pin: /%s/)\n",
			(int)(len > 300 ? 300 : len), t, r->pin);
	}
	if (r->order_note)
		fprintf(f, "    %.600s%s\n", r->order_note, strlen(r->order_note) > 600 ? " [...]" : "");
	if (r->log)
		print_log(f, r->log);
}

/* A counted class: a key, its count, and the first case in it. */
struct group {
	char key[240];
	size_t n;
	const struct vkqs_result *first;
	const struct vkqs_expected_fail *entry;
};

struct groups {
	struct group *g;
	size_t n;
};

static struct group *group_add(struct groups *gs, const char *key, const struct vkqs_result *r)
{
	for (size_t i = 0; i < gs->n; i++)
		if (!strcmp(gs->g[i].key, key)) {
			gs->g[i].n++;
			return &gs->g[i];
		}
	struct group *grown = realloc(gs->g, (gs->n + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	gs->g = grown;
	struct group *g = &gs->g[gs->n++];
	memset(g, 0, sizeof(*g));
	snprintf(g->key, sizeof(g->key), "%s", key);
	g->n = 1;
	g->first = r;
	return g;
}

static int by_count(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	return x->n != y->n ? (x->n < y->n ? 1 : -1) : strcmp(x->key, y->key);
}

/* The text of a NotSupported reason: its message without "file.c:line: ". */
static void reason_of(const struct vkqs_result *r, char *out, size_t n)
{
	size_t len;
	unsigned nf, nn;
	const char *t = vkqs_item_without_place(first_failure(r, &len, &nf, &nn), &len);
	snprintf(out, n, "%.*s", (int)(len > n - 1 ? n - 1 : len), t);
}

/* "area.group" of vkqs.area.group.case... */
static void group_of(const char *name, char *out, size_t n)
{
	const char *p = strncmp(name, "vkqs.", 5) ? name : name + 5;
	const char *dot = strchr(p, '.');
	dot = dot ? strchr(dot + 1, '.') : NULL;
	snprintf(out, n, "%.*s", dot ? (int)(dot - p) : (int)strlen(p), p);
}

static void heading(FILE *f, const char *what, size_t n, const char *why)
{
	fprintf(f, "\n== %s: %zu%s%s\n", what, n, why ? " " : "", why ? why : "");
}

static void print_groups(FILE *f, struct groups *gs, size_t limit, const char *rest)
{
	qsort(gs->g, gs->n, sizeof(*gs->g), by_count);
	size_t other = 0, other_cases = 0;
	for (size_t i = 0; i < gs->n; i++) {
		if (i < limit) {
			fprintf(f, "  %5zu  %s\n", gs->g[i].n, gs->g[i].key);
			continue;
		}
		other++;
		other_cases += gs->g[i].n;
	}
	if (other)
		fprintf(f, "  %5zu  in %zu other %s (--verbose lists them)\n", other_cases, other,
			rest);
	free(gs->g);
	gs->g = NULL;
	gs->n = 0;
}

void vkqs_console_closing(FILE *f, const struct vkqs_run *run, const struct vkqs_expectations *e,
			  bool verbose)
{
	size_t limit = verbose ? ALL : 8, n;
	struct vkqs_summary s;
	vkqs_summarize(run, &s);

	/* Unexpected: each with its failures; cases not run as one line per
	 * reason (a lost device leaves hundreds). */
	size_t order = 0, nflakes = 0, nexp = 0, nwarn = 0, nns = 0, not_run = 0;
	n = 0;
	for (size_t i = 0; i < run->count; i++) {
		const struct vkqs_result *r = &run->results[i];
		enum vkqs_outcome o = r->done ? r->outcome : VKQS_OUTCOME_NOT_RUN;
		order += o == VKQS_OUTCOME_ORDER_DEPENDENT;
		not_run += o == VKQS_OUTCOME_NOT_RUN;
		n += vkqs_outcome_unexpected(o) && o != VKQS_OUTCOME_ORDER_DEPENDENT &&
		     o != VKQS_OUTCOME_NOT_RUN;
		nflakes += o == VKQS_OUTCOME_FLAKE || o == VKQS_OUTCOME_KNOWN_FLAKE;
		nexp += o == VKQS_OUTCOME_EXPECTED;
		nwarn += o == VKQS_OUTCOME_OK && r->status != VKQS_PASS &&
			 r->status != VKQS_NOT_SUPPORTED;
		nns += o == VKQS_OUTCOME_OK && r->status == VKQS_NOT_SUPPORTED;
	}
	heading(f, "Unexpected", n, n ? "(these fail the run)" : NULL);
	size_t shown = 0;
	for (size_t i = 0; i < run->count; i++) {
		const struct vkqs_result *r = &run->results[i];
		enum vkqs_outcome o = r->done ? r->outcome : VKQS_OUTCOME_NOT_RUN;
		if (!vkqs_outcome_unexpected(o) || o == VKQS_OUTCOME_ORDER_DEPENDENT ||
		    o == VKQS_OUTCOME_NOT_RUN)
			continue;
		if (shown++ == (verbose ? ALL : 20)) {
			fprintf(f, "  ... and %zu more (--verbose, or the --json file)\n", n - 20);
			break;
		}
		print_unexpected(f, r);
	}
	if (order) {
		heading(f, "Order-dependent", order,
			"(pass alone, fail again after the cases before them: unexpected)");
		for (size_t i = 0; i < run->count; i++)
			if (run->results[i].done &&
			    run->results[i].outcome == VKQS_OUTCOME_ORDER_DEPENDENT)
				print_unexpected(f, &run->results[i]);
	}
	if (not_run) {
		struct groups gs = {0};
		for (size_t i = 0; i < run->count; i++) {
			const struct vkqs_result *r = &run->results[i];
			if (r->done && r->outcome != VKQS_OUTCOME_NOT_RUN)
				continue;
			char why[240];
			snprintf(why, sizeof(why), "%.200s", r->message[0] ? r->message : "not run");
			group_add(&gs, why, r);
		}
		heading(f, "Not run", not_run, "(unexpected: the run is incomplete)");
		print_groups(f, &gs, limit, "reasons");
	}
	if (nflakes) {
		heading(f, "Flakes", nflakes,
			"(tolerated: listed in -flakes.txt, or passed on a rerun)");
		for (size_t i = 0; i < run->count; i++) {
			const struct vkqs_result *r = &run->results[i];
			if (r->done && (r->outcome == VKQS_OUTCOME_FLAKE ||
					r->outcome == VKQS_OUTCOME_KNOWN_FLAKE))
				vkqs_console_case(f, r);
		}
	}
	if (nexp) {
		/* by entry: the comment block above it in its -fails.txt */
		struct groups gs = {0};
		for (size_t i = 0; i < run->count; i++) {
			const struct vkqs_result *r = &run->results[i];
			if (!r->done || r->outcome != VKQS_OUTCOME_EXPECTED)
				continue;
			const struct vkqs_expected_fail *x = e ? vkqs_expected_fail(e, r->ci->name) : NULL;
			char key[240];
			if (x && x->file)
				snprintf(key, sizeof(key), "%s:%d", x->file, x->block_line);
			else
				snprintf(key, sizeof(key), "%s", vkqs_status_name(r->status));
			struct group *g = group_add(&gs, key, r);
			if (g)
				g->entry = x;
		}
		heading(f, "Expected failures", nexp,
			"(listed in -fails.txt; by entry: the comment block above them)");
		qsort(gs.g, gs.n, sizeof(*gs.g), by_count);
		for (size_t i = 0; i < gs.n; i++) {
			const struct group *g = &gs.g[i];
			const char *title = g->entry && g->entry->title ? g->entry->title : "";
			fprintf(f, "  %5zu  %s %s: %.90s%s\n", g->n, vkqs_status_name(g->first->status),
				g->key, title[0] ? title : g->first->ci->name,
				strlen(title) > 90 ? "..." : "");
			for (size_t k = 0; verbose && k < run->count; k++) {
				const struct vkqs_result *r = &run->results[k];
				const struct vkqs_expected_fail *x =
					e ? vkqs_expected_fail(e, r->ci->name) : NULL;
				if (r->done && r->outcome == VKQS_OUTCOME_EXPECTED && x && x->file &&
				    g->entry && !strcmp(x->file, g->entry->file) &&
				    x->block_line == g->entry->block_line)
					fprintf(f, "           %s\n", r->ci->name);
			}
		}
		free(gs.g);
	}
	if (nwarn) {
		struct groups gs = {0};
		for (size_t i = 0; i < run->count; i++) {
			const struct vkqs_result *r = &run->results[i];
			if (!r->done || r->outcome != VKQS_OUTCOME_OK || r->status == VKQS_PASS ||
			    r->status == VKQS_NOT_SUPPORTED)
				continue;
			char grp[120], key[240];
			group_of(r->ci->name, grp, sizeof(grp));
			snprintf(key, sizeof(key), "%s %s", vkqs_status_name(r->status), grp);
			group_add(&gs, key, r);
		}
		heading(f, "Warnings", nwarn, "(pass with a remark: should-level or quality; by class)");
		print_groups(f, &gs, limit, "classes");
	}
	if (nns) {
		struct groups gs = {0};
		for (size_t i = 0; i < run->count; i++) {
			const struct vkqs_result *r = &run->results[i];
			if (!r->done || r->outcome != VKQS_OUTCOME_OK || r->status != VKQS_NOT_SUPPORTED)
				continue;
			char why[240];
			reason_of(r, why, sizeof(why));
			group_add(&gs, why, r);
		}
		heading(f, "NotSupported", nns, "(by reason)");
		print_groups(f, &gs, limit, "reasons");
	}

	fputs("\n== Expectations: ", f);
	if (!run->nexp_files)
		fputs("none", f);
	for (size_t i = 0; i < run->nexp_files; i++)
		fprintf(f, "%s%s", i ? ", " : "", run->exp_files[i].path);
	if (run->expectations_not_applied[0])
		fprintf(f, "\n   not applied (written for another driver or device): %s", run->expectations_not_applied);
	if (run->skipped_by_list)
		fprintf(f, "\n   %zu cases not run: listed in -skips.txt", run->skipped_by_list);
	char api[32];
	vkqs_version_string(run->device.api_version, api, sizeof(api));
	const char *id = vkqs_driver_id_name(run->device.driver_id);
	char idbuf[48];
	snprintf(idbuf, sizeof(idbuf), "driverID %#x", run->device.driver_id);
	fprintf(f, "\n== Driver: %s, %s (%s), %s, Vulkan %s\n", run->device.name,
		run->device.driver_name,
		run->device.driver_info[0] ? run->device.driver_info : "no driverInfo",
		id ? id : idbuf, api);
	vkqs_print_summary(f, run);
}
