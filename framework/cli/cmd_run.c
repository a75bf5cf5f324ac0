/* vkqs run: select, run, rerun, judge, report (docs/running.md). */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "cli.h"
#include "console.h"
#include "device.h"
#include "expect.h"
#include "proflock.h"
#include "record.h"
#include "registry.h"
#include "report.h"
#include "runner.h"
#include "util.h"

struct progress {
	size_t done, total;
	bool tty, verbose;
	double t0;
	const struct vkqs_expectations *e;
	/* Streaming: the runner's array (part) maps to run->results (where);
	 * the --json and --csv files are rewritten, incomplete, at most once a
	 * second as cases finish, so a SIGKILLed runner leaves a valid result
	 * of what ran (vkqs run --resume completes it). */
	struct vkqs_run *run;
	const struct opts *o;
	const struct vkqs_result *part;
	const size_t *where;
	size_t npart;
	double last_flush;
};

/* A console that cannot be written any more (a closed pipe with SIGPIPE
 * ignored: EPIPE) stops the run as SIGPIPE does. */
static void stdout_check(void)
{
	if (fflush(stdout) != 0 && errno == EPIPE)
		vkqs_runner_stop(SIGPIPE);
}

/* Whether an output is rewritten as the run goes: a regular file or a new
 * one; a device or FIFO gets the final result only. */
static bool streamable(const char *path)
{
	return path && !vkqs_output_through(path);
}

static void stream_results(struct progress *p, bool force)
{
	double now = vkqs_monotonic_s();
	if (!force && now - p->last_flush < 1.0)
		return;
	p->last_flush = now;
	char err[512];
	struct vkqs_run *run = p->run;
	/* which cases each running process was given, not only those done */
	for (size_t k = 0; p->part && k < p->npart; k++) {
		run->results[p->where[k]].process = p->part[k].process;
		run->results[p->where[k]].position = p->part[k].position;
	}
	/* every case: one not run yet is not_run, so the journal a SIGKILL
	 * leaves counts it as such (complete: false) */
	for (size_t i = 0; i < run->count; i++)
		vkqs_classify(&run->results[i], p->e);
	/* a failed rewrite is said once at the end, by the final write */
	if (streamable(p->o->json))
		(void)vkqs_write_json(run, p->o->json, err, sizeof(err));
	if (streamable(p->o->csv))
		(void)vkqs_write_csv(run, p->o->csv, err, sizeof(err));
}

static void on_result(void *user, const struct vkqs_result *r)
{
	struct progress *p = user;
	p->done++;
	if (p->part)
		p->run->results[p->where[r - p->part]] = *r;
	if (p->run && (p->o->json || p->o->csv))
		stream_results(p, false);
	if (p->tty)
		fputs("\r\033[K", stderr);
	/* a line for what is unexpected (before its rerun), every case with
	 * --verbose; the closing block has the rest */
	struct vkqs_result tmp = *r;
	vkqs_classify(&tmp, p->e);
	if (p->verbose || vkqs_outcome_unexpected(tmp.outcome)) {
		vkqs_console_case(stdout, &tmp);
		stdout_check();
	}
	if (p->tty) {
		/* one live line: done/total, elapsed, an estimate of the rest */
		double el = vkqs_monotonic_s() - p->t0;
		fprintf(stderr, "[%zu/%zu] %.0f s, ~%.0f s left  %.48s", p->done, p->total, el,
			p->done ? el / (double)p->done * (double)(p->total - p->done) : 0.0,
			r->ci->name);
		fflush(stderr);
	}
}

/* A failure that passed alone runs once more in one process after the
 * cases it followed in the run; failing again there, it is an
 * order-dependent failure (unexpected, naming them), not a flake: a driver
 * bug that depends on what ran before on the device (state left across
 * submissions) is found exactly where it hides (README: outcomes). */
static void rerun_after_predecessors(const struct vkqs_runner_opts *ro, struct vkqs_result *r,
				     const struct vkqs_expectations *e)
{
	if (!r->npreds)
		return;
	size_t n = r->npreds + 1;
	struct vkqs_result *seq = calloc(n, sizeof(*seq));
	if (!seq)
		die("out of memory");
	for (size_t i = 0; i < r->npreds; i++)
		seq[i].ci = r->preds[i];
	seq[r->npreds].ci = r->ci;
	struct vkqs_runner_opts one = *ro;
	one.jobs = 1;
	one.batch = (unsigned)n;
	struct vkqs_device_lost lost;
	vkqs_runner_run(&one, seq, n, NULL, NULL, &lost);
	struct vkqs_result *last = &seq[r->npreds];
	if (last->done) {
		vkqs_classify(last, e);
		if (vkqs_outcome_unexpected(last->outcome) && last->npreds == r->npreds) {
			size_t len = 0, cap = 256 + r->npreds * 128;
			char *note = malloc(cap);
			if (note) {
				len += (size_t)snprintf(note, cap,
							"passes alone (%s); fails again (%s) after the "
							"%zu cases it followed in its process:",
							vkqs_status_name(r->rerun_status),
							vkqs_status_name(last->status), r->npreds);
				for (size_t i = 0; i < r->npreds && len < cap; i++)
					len += (size_t)snprintf(note + len, cap - len, " %s",
								r->preds[i]->name);
			}
			r->outcome = VKQS_OUTCOME_ORDER_DEPENDENT;
			free(r->order_note);
			r->order_note = note;
		}
	}
	for (size_t i = 0; i < n; i++) {
		free(seq[i].log);
		free(seq[i].preds);
	}
	free(seq);
}

static bool rerun_candidate(const struct vkqs_result *r)
{
	return r->outcome == VKQS_OUTCOME_UNEXPECTED || r->outcome == VKQS_OUTCOME_NOT_PINNED;
}

/* Reruns unexpected failures once, each in a fresh child: a result that
 * changes to what was expected is a flake (deqp-runner's rule) unless it
 * fails again after its predecessors (rerun_after_predecessors). */
static void rerun_failures(const struct opts *o, struct vkqs_runner_opts *ro,
			   struct vkqs_run *run, const struct vkqs_expectations *e)
{
	/* an unexpected failure, or a failure no pin matches: either may be
	 * a flake (a timing-dependent second failure beside a pinned one) */
	size_t n = 0;
	for (size_t i = 0; i < run->count; i++)
		n += rerun_candidate(&run->results[i]);
	if (n == 0 || o->no_fork)
		return;
	struct vkqs_result *again = calloc(n, sizeof(*again));
	size_t *where = calloc(n, sizeof(*where));
	if (!again || !where)
		die("out of memory");
	n = 0;
	for (size_t i = 0; i < run->count; i++)
		if (rerun_candidate(&run->results[i])) {
			again[n].ci = run->results[i].ci;
			where[n++] = i;
		}
	printf("vkqs: rerunning %zu unexpected result(s) once to detect flakes\n", n);
	fflush(stdout);
	struct vkqs_runner_opts one = *ro;
	one.batch = 1;
	for (size_t k = 0; k < n; k++)
		if (vkqs_regex_list_match(&e->serial, again[k].ci->name))
			one.jobs = 1; /* a serial case never runs beside another */
	struct vkqs_device_lost lost;
	vkqs_runner_run(&one, again, n, NULL, NULL, &lost);
	for (size_t k = 0; k < n; k++) {
		struct vkqs_result *r = &run->results[where[k]];
		if (!again[k].done)
			continue;
		vkqs_classify(&again[k], e);
		if (!vkqs_outcome_unexpected(again[k].outcome)) {
			r->outcome = VKQS_OUTCOME_FLAKE;
			r->rerun_status = again[k].status;
			if (!lost.at[0] && !vkqs_runner_stopped())
				rerun_after_predecessors(ro, r, e);
		}
		free(again[k].log);
		free(again[k].preds);
	}
	free(again);
	free(where);
}

static int cmp_cstr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The binary's SHA-256 and the options that decide which cases run and how
 * they are judged: what shards of one run must share (tools/merge.py). */
static void describe_build(struct vkqs_run *run, const struct opts *o)
{
	size_t len = 0;
	char *exe = vkqs_read_file("/proc/self/exe", &len);
	char hex[65] = "unknown";
	if (exe)
		vkqs_sha256_hex(exe, len, hex);
	free(exe);
	snprintf(run->build, sizeof(run->build), "sha256:%s", hex);
	/* Canonical, so that equivalent commands compare equal (resume,
	 * merge): the device is compared by what it is (name, driver), not
	 * how it was named; the caselist by its content; the filters as a set. */
	char cl[80] = "-";
	if (o->caselist) {
		size_t clen = 0;
		char *text = vkqs_read_file(o->caselist, &clen), hexs[65];
		if (text) {
			vkqs_sha256_hex(text, clen, hexs);
			snprintf(cl, sizeof(cl), "sha256:%s", hexs);
		}
		free(text);
	}
	size_t n = 0;
	n += (size_t)snprintf(run->options + n, sizeof(run->options) - n,
			      "%s%s--timeout %g --expectations %s --caselist %s",
			      o->validation ? "--validation " : "",
			      o->induce_device_loss ? "--induce-device-loss " : "", o->timeout_s,
			      o->expectations ? o->expectations : "-", cl);
	const char **f = calloc(o->nfilters + 1, sizeof(*f));
	for (size_t i = 0; f && i < o->nfilters; i++)
		f[i] = o->filters[i];
	if (f)
		qsort(f, o->nfilters, sizeof(*f), cmp_cstr);
	for (size_t i = 0; f && i < o->nfilters && n < sizeof(run->options); i++)
		if (!i || strcmp(f[i], f[i - 1]) != 0)
			n += (size_t)snprintf(run->options + n, sizeof(run->options) - n,
					      " --filter %s", f[i]);
	free(f);
}

/* The cases -serial.txt names run after the others, one at a time, with no
 * other case process alive; the rest at --jobs.  Results stay in list order. */
static bool run_with_serial(const struct vkqs_runner_opts *ro, struct vkqs_run *run,
			    const struct vkqs_expectations *e, struct progress *prog)
{
	size_t n = run->count;
	struct vkqs_result *part = calloc(n ? n : 1, sizeof(*part));
	size_t *where = calloc(n ? n : 1, sizeof(*where));
	if (!part || !where)
		die("out of memory");
	/* cases a resumed result already has are not run again; those of a
	 * process it cut short run first, each such process's cases again in
	 * one process, in their order (resume_processes) */
	size_t np = 0, nb = 0;
	size_t *lens = calloc(n ? n : 1, sizeof(*lens));
	if (!lens)
		die("out of memory");
	for (size_t i = 0; i < n; i++) {
		const struct vkqs_result *r = &run->results[i];
		if (r->done || !r->process || r->position ||
		    vkqs_regex_list_match(&e->serial, r->ci->name))
			continue;
		/* the first case of a cut-short process: the whole batch */
		size_t start = np;
		for (unsigned pos = 0;; pos++) {
			size_t k = 0;
			while (k < n && !(run->results[k].process == r->process &&
					  run->results[k].position == pos && !run->results[k].done))
				k++;
			if (k == n)
				break;
			where[np++] = k;
		}
		lens[nb++] = np - start;
	}
	for (size_t i = 0; i < n; i++) {
		bool placed = false;
		for (size_t k = 0; k < np && !placed; k++)
			placed = where[k] == i;
		if (!placed && !run->results[i].done &&
		    !vkqs_regex_list_match(&e->serial, run->results[i].ci->name))
			where[np++] = i;
	}
	size_t ns = 0;
	for (size_t i = 0; i < n; i++)
		if (vkqs_regex_list_match(&e->serial, run->results[i].ci->name)) {
			run->serial++;
			if (!run->results[i].done)
				where[np + ns++] = i;
		}
	n = np + ns;
	for (size_t k = 0; k < n; k++)
		part[k] = run->results[where[k]];
	prog->part = part;
	prog->where = where;
	prog->npart = n;
	struct vkqs_runner_opts first = *ro;
	first.batch_lens = lens;
	first.nbatch_lens = nb;
	bool complete = vkqs_runner_run(&first, part, np, on_result, prog, &run->lost);
	if (complete && ns && !run->lost.at[0] && !vkqs_runner_stopped()) {
		printf("vkqs: %zu serial case(s) now, one at a time (-serial.txt of %s)\n", ns,
		       run->expectations);
		fflush(stdout);
		struct vkqs_runner_opts one = *ro;
		one.jobs = 1;
		one.batch = 1;
		complete = vkqs_runner_run(&one, part + np, ns, on_result, prog, &run->lost);
	}
	for (size_t k = 0; k < n; k++)
		run->results[where[k]] = part[k];
	free(lens);
	prog->part = NULL;
	prog->where = NULL;
	free(part);
	free(where);
	return complete;
}

/* What an interrupted result brings to the run that completes it. */
struct resumed {
	size_t have;          /* cases with a result */
	double wall_s;
	unsigned reports, ignored;
};

static bool json_bool_or_object(const json_t *v)
{
	return json_is_object(v) || json_is_true(v);
}

/* The member k of o as a string, or NULL (absent, not a string, o no
 * object). */
static const char *member_str(const json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

/* The member k of o as a number (integer or real), or dflt. */
static double member_num(const json_t *o, const char *k, double dflt)
{
	const json_t *v = json_object_get(o, k);
	return json_is_number(v) ? json_number_value(v) : dflt;
}

/* --resume FILE: the results FILE has become this run's, after checking it
 * is a result of this build, these options, this device and these refdevice
 * knobs; cases it lacks or has as Missing run now.  Any mismatch: one line,
 * exit 2, before any case runs. */
static struct resumed resume_from(const char *path, struct vkqs_run *run)
{
	struct resumed out = {0};
	char err[512];
	json_t *j = vkqs_json_read(path, err, sizeof(err));
	if (!j)
		die("--resume: %s", err);
	const char *fmt = member_str(j, "format");
	if (!fmt || strcmp(fmt, "vkqs-results") != 0)
		die("--resume: %s is not a vkqs result", path);
	const char *build = member_str(j, "build"), *options = member_str(j, "options");
	if (!build || strcmp(build, run->build) != 0)
		die("--resume: %s was written by another vkqs build (%s; this one is %s)", path,
		    build ? build : "none", run->build);
	if (!options || strcmp(options, run->options) != 0)
		die("--resume: %s ran with other options ('%s'; now '%s')", path,
		    options ? options : "", run->options);
	const json_t *sh = json_object_get(j, "shard");
	double shi = member_num(sh, "index", 0), shn = member_num(sh, "count", 0);
	if (shi != run->shard_i || shn != run->shard_n)
		die("--resume: %s is shard %g/%g, this run %u/%u", path, shi, shn, run->shard_i,
		    run->shard_n);
	const json_t *dev = json_object_get(j, "device");
	const char *dname = member_str(dev, "name"), *dinfo = member_str(dev, "driver_info");
	if (!dname || !dinfo || strcmp(dname, run->device.name) || strcmp(dinfo, run->device.driver_info))
		die("--resume: %s ran on %s (%s), this run on %s (%s)", path, dname ? dname : "?",
		    dinfo ? dinfo : "?", run->device.name, run->device.driver_info);
	char knobs[sizeof(run->refdevice)] = "";
	const char *key;
	json_t *value;
	json_object_foreach(json_object_get(j, "refdevice"), key, value) {
		const char *sv = json_string_value(value);
		snprintf(knobs + strlen(knobs), sizeof(knobs) - strlen(knobs), "%s=%s\n", key,
			 sv ? sv : "");
	}
	if (strcmp(knobs, run->refdevice) != 0)
		die("--resume: %s ran the refdevice with other knobs (%s; now %s)", path,
		    *knobs ? knobs : "none", *run->refdevice ? run->refdevice : "none");
	const json_t *v = json_object_get(j, "validation");
	if (json_bool_or_object(v) != run->validation)
		die("--resume: %s ran with validation %s", path,
		    json_bool_or_object(v) ? "on" : "off");
	const json_t *cases = json_object_get(j, "cases");
	if (!json_is_array(cases))
		die("--resume: %s has no list of cases", path);
	for (size_t c = 0; c < json_array_size(cases); c++) {
		const json_t *cj = json_array_get(cases, c);
		const char *name = member_str(cj, "name"), *st = member_str(cj, "status");
		if (!name || !st)
			die("--resume: %s: case %zu has no name and status", path, c);
		size_t k = 0;
		while (k < run->count && strcmp(run->results[k].ci->name, name) != 0)
			k++;
		if (k == run->count)
			die("--resume: %s has %s, which this selection does not run", path, name);
		struct vkqs_result *r = &run->results[k];
		if (r->done || r->process)
			die("--resume: %s lists %s twice", path, name);
		double pn = member_num(cj, "process", -1), qn = member_num(cj, "position", -1);
		if (pn >= 1 && pn < 1e9 && qn >= 0 && qn < 1e6) {
			r->process = (long)pn;
			r->position = (unsigned)qn;
			vkqs_runner_first_process(r->process + 1);
		}
		if (!strcmp(st, "Missing"))
			continue;
		if (!vkqs_status_parse(st, &r->status))
			die("--resume: %s: %s has the status '%s'", path, name, st);
		r->duration_s = member_num(cj, "duration_s", 0);
		const char *msg = member_str(cj, "message"), *log = member_str(cj, "log");
		snprintf(r->message, sizeof(r->message), "%s", msg ? msg : "");
		/* the failures and notes it kept apart */
		const char *texts[VKQS_MAX_ITEMS];
		bool failure[VKQS_MAX_ITEMS];
		unsigned nt = 0;
		for (int pass = 0; pass < 2; pass++) {
			const json_t *a = json_object_get(cj, pass ? "notes" : "failures");
			for (size_t t = 0; t < json_array_size(a); t++) {
				const char *item = json_string_value(json_array_get(a, t));
				if (!item || nt == VKQS_MAX_ITEMS)
					die("--resume: %s: %s: a %s item that is no string, or too many",
					    path, name, pass ? "notes" : "failures");
				texts[nt] = item;
				failure[nt++] = pass == 0;
			}
		}
		if (!vkqs_result_items_from(r, texts, failure, nt))
			die("--resume: %s: %s: its failures and notes are not its message", path,
			    name);
		r->log = log ? strdup(log) : NULL;
		r->done = true;
		out.have++;
	}
	const char *started = member_str(j, "started_at");
	if (started)
		snprintf(run->started_at, sizeof(run->started_at), "%s", started);
	out.wall_s = member_num(j, "wall_s", 0);
	double reports = member_num(v, "reports", 0), ignored = member_num(v, "ignored", 0);
	out.reports = reports >= 0 && reports < 1e9 ? (unsigned)reports : 0;
	out.ignored = ignored >= 0 && ignored < 1e9 ? (unsigned)ignored : 0;
	json_decref(j);
	return out;
}

/* The files of a run, checked before any work: each output can be
 * written, and none is an input (the binary, the caselist, an expectations
 * file, the result resumed unless it is completed in place), another
 * output, or the file behind stdout or stderr (util.h); and a case's log
 * can be made in TMPDIR. */
static void check_run_files(const struct opts *o)
{
	struct vkqs_named_path outs[3], ins[2 + 4 * VKQS_EXPECTATIONS_MAX_FILES];
	size_t nout = 0, nin = 0;
	if (o->json)
		outs[nout++] = (struct vkqs_named_path){"--json", o->json};
	if (o->junit)
		outs[nout++] = (struct vkqs_named_path){"--junit", o->junit};
	if (o->csv)
		outs[nout++] = (struct vkqs_named_path){"--csv", o->csv};
	ins[nin++] = (struct vkqs_named_path){"the vkqs binary", "/proc/self/exe"};
	if (o->caselist)
		ins[nin++] = (struct vkqs_named_path){"the --caselist", o->caselist};
	static char names[4 * VKQS_EXPECTATIONS_MAX_FILES][4096];
	static const char *const suffixes[] = {"-fails.txt", "-flakes.txt", "-skips.txt",
					       "-serial.txt"};
	size_t nn = 0;
	for (const char *p = o->expectations; p && *p && nn + 4 <= VKQS_ARRAY_LEN(names);) {
		size_t len = strcspn(p, ",");
		for (size_t k = 0; k < 4; k++) {
			snprintf(names[nn], sizeof(names[nn]), "%.*s%s", (int)len, p, suffixes[k]);
			ins[nin++] = (struct vkqs_named_path){"an expectations file", names[nn++]};
		}
		p += len + (p[len] == ',');
	}
	char err[1024];
	/* --resume FILE with another --json: FILE is an input */
	struct vkqs_named_path resume = {"the --resume result", o->resume};
	if (o->resume && o->json && strcmp(o->resume, o->json) != 0) {
		struct stat a, b;
		if (!(stat(o->resume, &a) == 0 && stat(o->json, &b) == 0 && a.st_dev == b.st_dev &&
		      a.st_ino == b.st_ino))
			ins[nin++] = resume;
	}
	if (!vkqs_outputs_distinct(outs, nout, ins, nin, err, sizeof(err)))
		die("%s", err);
	if (!o->no_fork) {
		int fd = vkqs_tmpfile(err, sizeof(err));
		if (fd < 0)
			die("cannot keep the cases' logs: %s", err);
		close(fd);
	}
}

/* The run could not start (the device probe failed): the result files
 * say so, with every selected case not run and why. */
static void report_unrun(const struct opts *o, const struct vkqs_registry *reg, const bool *sel,
			 const char *why)
{
	if (!o->json && !o->junit && !o->csv)
		return;
	struct vkqs_run run = {.validation = o->validation, .expectations = o->expectations,
			       .shard_i = o->shard_i, .shard_n = o->shard_n};
	run.results = calloc(reg->count ? reg->count : 1, sizeof(*run.results));
	if (!run.results)
		return;
	for (size_t i = 0; i < reg->count; i++)
		if (sel[i] && (!o->shard_n || run.selected++ % o->shard_n == o->shard_i - 1)) {
			struct vkqs_result *r = &run.results[run.count++];
			r->ci = &reg->cases[i];
			snprintf(r->message, sizeof(r->message), "not run: %s", why);
			vkqs_classify(r, NULL);
		}
	if (!o->shard_n)
		run.selected = run.count;
	describe_build(&run, o);
	utc_now(run.started_at, sizeof(run.started_at));
	snprintf(run.device.name, sizeof(run.device.name), "unknown (%s)", o->device);
	snprintf(run.stopped, sizeof(run.stopped), "%.500s", why);
	char err[1024];
	if (o->json && !vkqs_write_json(&run, o->json, err, sizeof(err)))
		fprintf(stderr, "vkqs: error: %s\n", err);
	if (o->junit && !vkqs_write_junit(&run, o->junit, err, sizeof(err)))
		fprintf(stderr, "vkqs: error: %s\n", err);
	if (o->csv && !vkqs_write_csv(&run, o->csv, err, sizeof(err)))
		fprintf(stderr, "vkqs: error: %s\n", err);
	free(run.results);
}

/* Whether the run completed, and why not: a stop (signal, closed stdout,
 * no case process), a lost device.  Each case not run says why in its
 * message; its outcome is not_run. */
static void finish_run(struct vkqs_run *run, const struct vkqs_expectations *e)
{
	const char *why = vkqs_runner_stop_reason();
	char lost[512];
	if (!why && run->lost.at[0]) {
		snprintf(lost, sizeof(lost), "the device was lost at %s", run->lost.at);
		why = lost;
	}
	size_t not_run = 0;
	for (size_t i = 0; i < run->count; i++) {
		struct vkqs_result *r = &run->results[i];
		if (r->done)
			continue;
		not_run++;
		if (!r->message[0])
			snprintf(r->message, sizeof(r->message), "not run: %s",
				 why ? why : "the runner did not start it");
		vkqs_classify(r, e);
	}
	run->complete = !why && !not_run;
	if (why)
		snprintf(run->stopped, sizeof(run->stopped), "%s", why);
	else if (not_run)
		snprintf(run->stopped, sizeof(run->stopped), "%zu cases were not run", not_run);
}

/* What a resumed result's processes mean now (issue 43: order context).
 * A process it cut short (some of its cases not done) runs again whole:
 * its done cases are run again with the rest, in their order, so a
 * failure that depends on what ran before it in its process stays one
 * (run_with_serial).  A finished process gives its cases their
 * predecessors, which rerun_after_predecessors runs a failure after. */
static size_t resume_processes(struct vkqs_run *run)
{
	size_t again = 0;
	for (size_t i = 0; i < run->count; i++) {
		struct vkqs_result *r = &run->results[i];
		if (r->done || !r->process)
			continue;
		for (size_t k = 0; k < run->count; k++) {
			struct vkqs_result *x = &run->results[k];
			if (x->process == r->process && x->done) {
				x->done = false;
				free(x->log);
				x->log = NULL;
				x->message[0] = '\0';
				x->items.n = 0;
				again++;
			}
		}
	}
	for (size_t i = 0; i < run->count; i++) {
		struct vkqs_result *r = &run->results[i];
		if (!r->done || !r->process || !r->position)
			continue;
		r->preds = calloc(r->position, sizeof(*r->preds));
		r->npreds = 0;
		for (unsigned pos = 0; r->preds && pos < r->position; pos++)
			for (size_t k = 0; k < run->count; k++)
				if (run->results[k].process == r->process &&
				    run->results[k].position == pos && run->results[k].done)
					r->preds[r->npreds++] = run->results[k].ci;
	}
	return again;
}

int cmd_run(int argc, char **argv)
{
	struct opts o = {0};
	struct vkqs_registry reg;
	struct vkqs_expectations e = {0};
	char err[1024];
	parse_opts(argc, argv, O_RUN, "run", &o);
	bound_jobs(&o);
	if (o.resume && !o.json)
		o.json = output_path("--resume", o.resume); /* completed in place */
	check_run_files(&o);
	/* the case processes inherit it (suite/lost/lost.c) */
	if (o.induce_device_loss)
		setenv("VKQS_INDUCE_DEVICE_LOSS", "1", 1);
	else
		unsetenv("VKQS_INDUCE_DEVICE_LOSS");
	vkqs_runner_install_signals();
	build_registry(&reg);
	bool *sel = select_filters(&reg, &o);
	if (o.caselist)
		apply_caselist(&reg, o.caselist, sel);
	/* The device first: expectations may be written for some of its
	 * driver's versions only. */
	struct vkqs_device_info dev;
	bool driver_failed = false;
	if (!vkqs_probe_device(o.device, o.validation, o.timeout_s, &dev, &driver_failed, err,
			       sizeof(err))) {
		/* a driver that hangs or crashes while loading: the result
		 * files say so, every selected case not run (bad input such
		 * as an unknown device writes none) */
		if (driver_failed)
			report_unrun(&o, &reg, sel, err);
		if (vkqs_runner_stopped())
			return 130;
		die("%s", err);
	}
	struct vkqs_expect_target target = {.driver_info = dev.driver_info,
					     .device_name = dev.name,
					     .driver_id = dev.driver_id};
	if (o.expectations &&
	    !vkqs_expectations_load_for(&e, o.expectations, &target, err, sizeof(err)))
		die("%s", err);
	for (size_t i = 0; i < e.nfails; i++)
		if (!vkqs_registry_find(&reg, e.fails[i].name))
			warn_input("expectations name unknown case '%s'", e.fails[i].name);

	struct vkqs_run run = {.validation = o.validation, .expectations = o.expectations,
			       .shard_i = o.shard_i, .shard_n = o.shard_n,
			       .exp_files = e.files, .nexp_files = e.nfiles};
	run.results = calloc(reg.count ? reg.count : 1, sizeof(*run.results));
	if (!run.results)
		die("out of memory");
	for (size_t i = 0; i < reg.count; i++) {
		if (!sel[i])
			continue;
		if (vkqs_regex_list_match(&e.skips, reg.cases[i].name)) {
			run.skipped_by_list++;
			continue;
		}
		/* Interleaved sharding, as Mesa CI: shard I takes every Nth. */
		if (o.shard_n && run.selected++ % o.shard_n != o.shard_i - 1)
			continue;
		if (!o.shard_n)
			run.selected++;
		run.results[run.count++].ci = &reg.cases[i];
	}
	free(sel);
	describe_build(&run, &o);
	/* A shard may be empty (more shards than cases): it writes its
	 * (empty, complete) result, so that a merge finds every shard. */
	if (run.count == 0 && !(o.shard_n && run.selected))
		die("no case selected (filters, caselist, skips and shard leave nothing)");

	run.device = dev;
	if (!strcmp(dev.driver_name, VKQS_REFDEVICE_DRIVER_NAME))
		vkqs_refdevice_knobs(run.refdevice, sizeof(run.refdevice));
	snprintf(run.expectations_not_applied, sizeof(run.expectations_not_applied), "%s",
		 e.not_applied);

	utc_now(run.started_at, sizeof(run.started_at));
	struct resumed prior = {0};
	if (o.resume)
		prior = resume_from(o.resume, &run);
	inputs_accepted();
	printf("vkqs: %zu cases on device %u: %s (%s, %s)%s\n", run.count, run.device.index,
	       run.device.name, run.device.driver_name, run.device.driver_info,
	       o.validation ? ", validation on" : "");
	size_t again = o.resume ? resume_processes(&run) : 0;
	prior.have -= again;
	if (o.resume)
		printf("vkqs: resuming %s: %zu cases have results, %zu run now (%zu of them again, "
		       "with the process the kill cut short)\n",
		       o.resume, prior.have, run.count - prior.have, again);
	fflush(stdout);

	struct vkqs_runner_opts ro = runner_opts(&o, &run.device);
	if (o.validation && !vkqs_validation_stats_init())
		die("cannot map the validation counters");
	struct progress prog = {.total = run.count - prior.have, .tty = isatty(STDERR_FILENO),
				.verbose = o.verbose, .t0 = vkqs_monotonic_s(),
				.e = &e, .run = &run, .o = &o};
	/* the journal exists before the first case: a runner killed at once
	 * leaves every case Missing, not no file */
	if (o.json || o.csv)
		stream_results(&prog, true);
	double t0 = vkqs_monotonic_s();
	run_with_serial(&ro, &run, &e, &prog);
	if (prog.tty)
		fputs("\r\033[K", stderr);
	for (size_t i = 0; i < run.count; i++)
		vkqs_classify(&run.results[i], &e);
	/* A rerun on a lost device would only fail again. */
	if (!vkqs_runner_stopped() && !run.lost.at[0] && !o.no_rerun)
		rerun_failures(&o, &ro, &run, &e);
	/* complete: every case ran, and no stop came, the reruns' included */
	finish_run(&run, &e);
	run.wall_s = prior.wall_s + vkqs_monotonic_s() - t0;
	run.vstats = vkqs_validation_stats();
	run.vstats.reports += prior.reports;
	run.vstats.ignored += prior.ignored;

	int rc = 0;
	if (o.json && !vkqs_write_json(&run, o.json, err, sizeof(err)))
		fprintf(stderr, "vkqs: error: %s\n", err), rc = EXIT_USAGE;
	if (o.junit && !vkqs_write_junit(&run, o.junit, err, sizeof(err)))
		fprintf(stderr, "vkqs: error: %s\n", err), rc = EXIT_USAGE;
	if (o.csv && !vkqs_write_csv(&run, o.csv, err, sizeof(err)))
		fprintf(stderr, "vkqs: error: %s\n", err), rc = EXIT_USAGE;
	/* The triage block, unexpected first, with the logs a reader needs. */
	vkqs_console_closing(stdout, &run, &e, o.verbose);

	struct vkqs_summary s;
	vkqs_summarize(&run, &s);
	if (!rc)
		rc = s.unexpected ? EXIT_UNEXPECTED : 0;
	if (vkqs_runner_stopped() && vkqs_runner_stopped() != VKQS_STOP_SPAWN)
		rc = 130;
	else if (!run.complete && !rc)
		rc = EXIT_UNEXPECTED;
	vkqs_run_free_results(&run);
	free(o.filters);
	vkqs_expectations_free(&e);
	vkqs_registry_free(&reg);
	return rc;
}
