/* The vkqs command: list, devices, info, run, bench, report. */
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
#include "compare.h"
#include "device.h"
#include "proflock.h"
#include "expect.h"
#include "json.h"
#include "record.h"
#include "registry.h"
#include "console.h"
#include "report.h"
#include "runner.h"
#include "util.h"

#define EXIT_UNEXPECTED 1
#define EXIT_USAGE 2

/* Under AddressSanitizer the refdevice and the suite run several times
 * slower (a loaded 2-core CI machine took over 30 s for one fence of
 * vkqs.perf.values.time_grows_with_work): the default --timeout, and with
 * it the fence timeout (half of it), scale by this. */
#if defined(__SANITIZE_ADDRESS__)
#define VKQS_SANITIZER_SLOWDOWN 4
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VKQS_SANITIZER_SLOWDOWN 4
#endif
#endif
#ifndef VKQS_SANITIZER_SLOWDOWN
#define VKQS_SANITIZER_SLOWDOWN 1
#endif

/* One usage text per command; `vkqs --help` prints them all, `vkqs CMD
 * --help` its own. */
static const struct {
	const char *cmd, *text;
} usages[] = {
	{"list", "vkqs list [--filter GLOB]... [--spec]\n"},
	{"devices", "vkqs devices [--timeout SECONDS]\n"},
	{"info", "vkqs info [--device D] [--timeout SECONDS]\n"},
	{"run", "vkqs run [--device D] [--filter GLOB]... [--caselist FILE]\n"
		"                [--expectations PREFIX] [--timeout SECONDS] [--jobs N]\n"
		"                [--shard I/N] [--json FILE] [--junit FILE] [--csv FILE]\n"
		"                [--validation] [--no-fork] [--batch N] [--no-rerun]\n"
		"                [-v|--verbose]  (a line per case, every group in full)\n"
		"                [--resume RESULTS.json]  (the same options again: runs what\n"
		"                the interrupted result lacks, and completes it)\n"},
	{"bench", "vkqs bench [--device D] [--filter GLOB]... [--repeat N] [--min-time S]\n"
		  "                [--processes K] [--json FILE] [--quick] [--timeout SECONDS]\n"
		  "                [--validation]\n"},
	{"report", "vkqs report RESULTS.json... [--html FILE] [--md FILE]\n"
		   "                   [--baseline OLD.json]  (tools/report.py)\n"},
	{"merge", "vkqs merge OUT.json SHARD.json...  (tools/merge.py: the shards of one\n"
		  "                   `vkqs run --shard I/N --json` as one result file)\n"},
	{"compare", "vkqs compare --outdir DIR [--filter GLOB]... [--timeout S] [--jobs N]\n"
		    "                   [--validation] [--expectations-dir DIR]  (the suite on every\n"
		    "                   device the loader sees, each with the ci/ expectations that\n"
		    "                   scope themselves to it; DIR/index.html compares them)\n"},
};
static const char usage_tail[] =
	"D: a device index, or a case-insensitive substring of the device or driver\n"
	"name (default: " VKQS_DEFAULT_DEVICE "). Exit: 0 no unexpected result, 1 some,\n"
	"2 usage or set-up error, 130 interrupted (SIGINT, SIGTERM, SIGHUP, a closed\n"
	"stdout: the reports hold what ran).  README.md says more.\n";

static int print_usage(const char *cmd)
{
	for (size_t i = 0; i < sizeof(usages) / sizeof(usages[0]); i++)
		if (!cmd || !strcmp(cmd, usages[i].cmd))
			printf("%s%s", i && !cmd ? "       " : "usage: ", usages[i].text);
	fputs(usage_tail, stdout);
	return 0;
}

static bool is_help(const char *a)
{
	return !strcmp(a, "--help") || !strcmp(a, "-h");
}

static _Noreturn __attribute__((format(printf, 1, 2))) void die(const char *fmt, ...)
{
	va_list ap;
	fputs("vkqs: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_USAGE);
}

/* An output file's path, checked before any work (vkqs_output_check). */
static const char *output_path(const char *opt, const char *path)
{
	char err[512];
	if (!vkqs_output_check(path, err, sizeof(err)))
		die("%s: %s", opt, err);
	return path;
}


/* Options ----------------------------------------------------------------*/

struct opts {
	const char *device;
	const char **filters;
	size_t nfilters;
	const char *caselist;
	const char *expectations;
	double timeout_s;
	unsigned jobs;
	bool jobs_given;
	unsigned batch;
	unsigned shard_i, shard_n;
	const char *json, *junit, *csv;
	const char *resume; /* run: complete this interrupted result */
	bool validation, no_fork, no_rerun;
	bool verbose; /* run: a line for every case, every group in full */
	bool spec; /* list: also print each case's spec reference */
	unsigned repeat;    /* bench */
	double min_time_s;  /* bench */
	bool quick;         /* bench */
	unsigned processes; /* bench: fresh processes per benchmark */
};

enum { O_DEVICE = 1, O_FILTER = 2, O_RUN = 4, O_LIST = 8, O_BENCH = 16, O_TIMEOUT = 32 };
struct optdef {
	const char *name;
	bool arg;
	unsigned allowed; /* which commands take it */
};
static const struct optdef optdefs[] = {
	{"--device", true, O_DEVICE | O_RUN | O_BENCH},
	{"--filter", true, O_FILTER | O_RUN | O_BENCH},
	{"--caselist", true, O_RUN},           {"--expectations", true, O_RUN},
	{"--timeout", true, O_RUN | O_BENCH | O_TIMEOUT},  {"--jobs", true, O_RUN},
	{"--shard", true, O_RUN},              {"--json", true, O_RUN | O_BENCH},
	{"--junit", true, O_RUN},              {"--csv", true, O_RUN},
	{"--validation", false, O_RUN | O_BENCH},        {"--no-fork", false, O_RUN},
	{"--batch", true, O_RUN},              {"--spec", false, O_LIST},
	{"--no-rerun", false, O_RUN},         {"--resume", true, O_RUN},
	{"--verbose", false, O_RUN},
	{"--repeat", true, O_BENCH},           {"--min-time", true, O_BENCH},
	{"--quick", false, O_BENCH},           {"--processes", true, O_BENCH},
};

/* Numbers through the one parser (util.h vkqs_parse_u64): digits only. */
static unsigned parse_uint(const char *opt, const char *v, unsigned min)
{
	unsigned long long x;
	if (!vkqs_parse_u64(v, min, 100000, &x))
		die("%s: expected an integer from %u to 100000, got '%s'", opt, min, v);
	return (unsigned)x;
}

static void parse_opts(int argc, char **argv, unsigned allowed, const char *cmd,
		       struct opts *o)
{
	o->device = VKQS_DEFAULT_DEVICE;
	o->timeout_s = 60 * VKQS_SANITIZER_SLOWDOWN;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	o->jobs = ncpu > 0 ? (unsigned)ncpu : 1;
	o->filters = calloc((size_t)argc + 1, sizeof(*o->filters));
	if (!o->filters)
		die("out of memory");
	for (int i = 0; i < argc; i++) {
		char name[64];
		const char *a = argv[i], *val = NULL, *eq = strchr(a, '=');
		if (is_help(a))
			exit(print_usage(cmd));
		if (!strcmp(a, "-v"))
			a = "--verbose";
		if (strncmp(a, "--", 2) != 0)
			die("%s: unexpected argument '%s' (see vkqs --help)", cmd, a);
		snprintf(name, sizeof(name), "%.*s", eq ? (int)(eq - a) : (int)strlen(a), a);
		const struct optdef *d = NULL;
		for (size_t k = 0; k < VKQS_ARRAY_LEN(optdefs); k++)
			if (strcmp(optdefs[k].name, name) == 0)
				d = &optdefs[k];
		if (!d)
			die("%s: unknown option '%s' (see vkqs --help)", cmd, name);
		if (!(d->allowed & allowed))
			die("%s does not take %s", cmd, name);
		if (d->arg) {
			if (eq)
				val = eq + 1;
			else if (i + 1 < argc)
				val = argv[++i];
			else
				die("%s needs a value", name);
		} else if (eq) {
			die("%s takes no value", name);
		}
		if (!strcmp(name, "--device")) {
			if (!*val)
				die("--device: an empty value (an unset variable?); give an index, "
				    "a name or 'refdevice' (see vkqs devices)");
			o->device = val;
		}
		else if (!strcmp(name, "--filter"))
			o->filters[o->nfilters++] = val;
		else if (!strcmp(name, "--caselist"))
			o->caselist = val;
		else if (!strcmp(name, "--expectations"))
			o->expectations = val;
		else if (!strcmp(name, "--timeout")) {
			if (!vkqs_parse_decimal(val, 0, true, 86400, &o->timeout_s))
				die("--timeout: expected seconds above 0, at most 86400, got '%s'",
				    val);
		} else if (!strcmp(name, "--jobs")) {
			o->jobs = parse_uint(name, val, 1);
			o->jobs_given = true;
		}
		else if (!strcmp(name, "--batch"))
			o->batch = parse_uint(name, val, 1);
		else if (!strcmp(name, "--shard")) {
			char part[32];
			const char *slash = strchr(val, '/');
			unsigned long long i1 = 0, n1 = 0;
			snprintf(part, sizeof(part), "%.*s", slash ? (int)(slash - val) : 0, val);
			if (!slash || strlen(val) > 30 || !vkqs_parse_u64(part, 1, 100000, &i1) ||
			    !vkqs_parse_u64(slash + 1, 1, 100000, &n1) || i1 > n1)
				die("--shard: expected I/N with 1 <= I <= N <= 100000, got '%s'", val);
			o->shard_i = (unsigned)i1;
			o->shard_n = (unsigned)n1;
		} else if (!strcmp(name, "--json"))
			o->json = output_path(name, val);
		else if (!strcmp(name, "--junit"))
			o->junit = output_path(name, val);
		else if (!strcmp(name, "--csv"))
			o->csv = output_path(name, val);
		else if (!strcmp(name, "--resume"))
			o->resume = val;
		else if (!strcmp(name, "--validation"))
			o->validation = true;
		else if (!strcmp(name, "--no-fork"))
			o->no_fork = true;
		else if (!strcmp(name, "--no-rerun"))
			o->no_rerun = true;
		else if (!strcmp(name, "--verbose"))
			o->verbose = true;
		else if (!strcmp(name, "--spec"))
			o->spec = true;
		else if (!strcmp(name, "--repeat"))
			o->repeat = parse_uint(name, val, 1);
		else if (!strcmp(name, "--quick"))
			o->quick = true;
		else if (!strcmp(name, "--processes")) {
			o->processes = parse_uint(name, val, 1);
			if (o->processes > 1000)
				die("--processes: expected 1 to 1000, got '%s'", val);
		}
		else if (!strcmp(name, "--min-time")) {
			if (!vkqs_parse_decimal(val, 0, false, 3600, &o->min_time_s))
				die("--min-time: expected seconds from 0 to 3600, got '%s'", val);
		}
	}
}

/* --jobs within what this process may open: each running case holds its
 * result pipe and its log file open in the runner (runner.c spawn), and the
 * runner keeps some for itself.  Asked for more: one line, exit 2; the
 * default (one job a CPU) is lowered with one line. */
static void bound_jobs(struct opts *o)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return;
	rlim_t reserve = 64, per_job = 2;
	unsigned max = rl.rlim_cur > reserve + per_job ? (unsigned)((rl.rlim_cur - reserve) / per_job)
						      : 1;
	if (o->jobs <= max)
		return;
	if (o->jobs_given)
		die("--jobs %u: this process may open %llu files (ulimit -n), enough for %u jobs",
		    o->jobs, (unsigned long long)rl.rlim_cur, max);
	printf("vkqs: %u jobs, not one a CPU (%u): this process may open %llu files "
	       "(ulimit -n)\n", max, o->jobs, (unsigned long long)rl.rlim_cur);
	o->jobs = max;
}

/* The current UTC time as ISO 8601, as the reports carry it. */
static void utc_now(char *buf, size_t size)
{
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Case selection -----------------------------------------------------------*/

static void build_registry(struct vkqs_registry *reg)
{
	char err[512];
	const char *st = getenv("VKQS_SELFTEST");
	if (!vkqs_registry_build(reg, vkqs_areas, st && !strcmp(st, "1"), err, sizeof(err)))
		die("%s", err);
}

/* Applies --filter globs (each must match something); returns a mask. */
static bool *select_filters(const struct vkqs_registry *reg, const struct opts *o)
{
	bool *sel = calloc(reg->count ? reg->count : 1, sizeof(*sel));
	if (!sel)
		die("out of memory");
	for (size_t i = 0; i < reg->count; i++)
		sel[i] = o->nfilters == 0;
	for (size_t f = 0; f < o->nfilters; f++) {
		bool any = false;
		for (size_t i = 0; i < reg->count; i++)
			if (vkqs_glob_match(o->filters[f], reg->cases[i].name)) {
				sel[i] = true;
				any = true;
			}
		if (!any)
			die("--filter '%s' matches no case (see vkqs list)", o->filters[f]);
	}
	return sel;
}

/* --caselist: exact names, one per line, '#' comments; intersects filters. */
static void apply_caselist(const struct vkqs_registry *reg, const char *path, bool *sel)
{
	char err[512];
	char *text = vkqs_read_text(path, err, sizeof(err));
	if (!text)
		die("--caselist: %s", err);
	bool *in_list = calloc(reg->count ? reg->count : 1, sizeof(*in_list));
	if (!in_list)
		die("out of memory");
	int lineno = 0;
	for (char *line = text, *next; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		line[strcspn(line, "\r")] = '\0';
		while (*line == ' ' || *line == '\t')
			line++;
		size_t n = strlen(line);
		while (n && (line[n - 1] == ' ' || line[n - 1] == '\t'))
			line[--n] = '\0';
		if (!*line || *line == '#')
			continue;
		const struct vkqs_case_inst *ci = vkqs_registry_find(reg, line);
		if (!ci)
			die("%s:%d: unknown case '%s' (see vkqs list)", path, lineno, line);
		in_list[ci - reg->cases] = true;
	}
	for (size_t i = 0; i < reg->count; i++)
		sel[i] = sel[i] && in_list[i];
	free(in_list);
	free(text);
}

/* Commands -----------------------------------------------------------------*/

static int cmd_list(int argc, char **argv)
{
	struct opts o = {0};
	struct vkqs_registry reg;
	parse_opts(argc, argv, O_FILTER | O_LIST, "list", &o);
	build_registry(&reg);
	bool *sel = select_filters(&reg, &o);
	for (size_t i = 0; i < reg.count; i++)
		if (sel[i] && o.spec)
			printf("%s\t%s\n", reg.cases[i].name, reg.cases[i].c->spec);
		else if (sel[i])
			printf("%s\n", reg.cases[i].name);
	free(sel);
	free(o.filters);
	vkqs_registry_free(&reg);
	return 0;
}

/* devices and info load the driver in a child under --timeout (runner.h):
 * a driver that hangs while loading or enumerating costs the timeout and
 * one line, never the CI job. */
static int devices_child(void *arg)
{
	(void)arg;
	struct vkqs_instance inst;
	char err[512];
	if (!vkqs_instance_create(&inst, false, err, sizeof(err)))
		die("%s", err);
	if (inst.phys_count == 0)
		die("the Vulkan loader found no physical device");
	for (uint32_t i = 0; i < inst.phys_count; i++) {
		struct vkqs_device_info d;
		char api[32];
		vkqs_device_describe(&inst, i, &d);
		vkqs_version_string(d.api_version, api, sizeof(api));
		printf("%u: %s | driver %s (%s) | Vulkan %s | %s\n", i, d.name, d.driver_name,
		       d.driver_info, api, vkqs_device_type_name(d.type));
	}
	vkqs_instance_destroy(&inst);
	return 0;
}

static int info_child(void *arg)
{
	const struct opts *o = arg;
	struct vkqs_instance inst;
	uint32_t index;
	char err[512];
	if (!vkqs_instance_create(&inst, false, err, sizeof(err)) ||
	    !vkqs_instance_select(&inst, o->device, &index, err, sizeof(err)))
		die("%s", err);
	struct vkqs_device_info d;
	vkqs_device_describe(&inst, index, &d);
	vkqs_print_device_info(stdout, &d);
	vkqs_instance_destroy(&inst);
	return 0;
}

static int in_child(int (*fn)(void *), struct opts *o)
{
	char err[512];
	free(o->filters);
	vkqs_runner_install_signals();
	int rc = vkqs_call_in_child(fn, o, o->timeout_s, "loading or enumerating devices", err,
				    sizeof(err));
	if (rc < 0) {
		fflush(stdout);
		if (vkqs_runner_stopped())
			return 130;
		die("%s", err);
	}
	return rc;
}

static int cmd_devices(int argc, char **argv)
{
	struct opts o = {0};
	parse_opts(argc, argv, O_TIMEOUT, "devices", &o);
	return in_child(devices_child, &o);
}

static int cmd_info(int argc, char **argv)
{
	struct opts o = {0};
	parse_opts(argc, argv, O_DEVICE | O_TIMEOUT, "info", &o);
	return in_child(info_child, &o);
}

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
			      "%s--timeout %g --expectations %s --caselist %s",
			      o->validation ? "--validation " : "", o->timeout_s,
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

static bool json_bool_or_object(const struct vkqs_json *v)
{
	return v && (v->type == VKQS_JSON_OBJECT || (v->type == VKQS_JSON_BOOL && v->boolean));
}

/* --resume FILE: the results FILE has become this run's, after checking it
 * is a result of this build, these options, this device and these refdevice
 * knobs; cases it lacks or has as Missing run now.  Any mismatch: one line,
 * exit 2, before any case runs. */
static struct resumed resume_from(const char *path, struct vkqs_run *run)
{
	struct resumed out = {0};
	char err[512];
	char *text = vkqs_read_text(path, err, sizeof(err));
	if (!text)
		die("--resume: %s", err);
	struct vkqs_json j;
	if (!vkqs_json_parse(text, &j, err, sizeof(err)))
		die("--resume: %s is not JSON (%s)", path, err);
	free(text);
	const char *fmt = vkqs_json_str(&j, "format");
	if (!fmt || strcmp(fmt, "vkqs-results") != 0)
		die("--resume: %s is not a vkqs result", path);
	const char *build = vkqs_json_str(&j, "build"), *options = vkqs_json_str(&j, "options");
	if (!build || strcmp(build, run->build) != 0)
		die("--resume: %s was written by another vkqs build (%s; this one is %s)", path,
		    build ? build : "none", run->build);
	if (!options || strcmp(options, run->options) != 0)
		die("--resume: %s ran with other options ('%s'; now '%s')", path,
		    options ? options : "", run->options);
	const struct vkqs_json *sh = vkqs_json_get(&j, "shard");
	const struct vkqs_json *si = vkqs_json_get(sh, "index"), *sn = vkqs_json_get(sh, "count");
	unsigned shi = si ? (unsigned)si->number : 0, shn = sn ? (unsigned)sn->number : 0;
	if (shi != run->shard_i || shn != run->shard_n)
		die("--resume: %s is shard %u/%u, this run %u/%u", path, shi, shn, run->shard_i,
		    run->shard_n);
	const struct vkqs_json *dev = vkqs_json_get(&j, "device");
	const char *dname = vkqs_json_str(dev, "name"), *dinfo = vkqs_json_str(dev, "driver_info");
	if (!dname || !dinfo || strcmp(dname, run->device.name) || strcmp(dinfo, run->device.driver_info))
		die("--resume: %s ran on %s (%s), this run on %s (%s)", path, dname ? dname : "?",
		    dinfo ? dinfo : "?", run->device.name, run->device.driver_info);
	char knobs[sizeof(run->refdevice)] = "";
	const struct vkqs_json *rd = vkqs_json_get(&j, "refdevice");
	for (size_t i = 0; rd && rd->type == VKQS_JSON_OBJECT && i < rd->count; i++)
		snprintf(knobs + strlen(knobs), sizeof(knobs) - strlen(knobs), "%s=%s\n", rd->keys[i],
			 rd->items[i].type == VKQS_JSON_STRING ? rd->items[i].string : "");
	if (strcmp(knobs, run->refdevice) != 0)
		die("--resume: %s ran the refdevice with other knobs (%s; now %s)", path,
		    *knobs ? knobs : "none", *run->refdevice ? run->refdevice : "none");
	const struct vkqs_json *v = vkqs_json_get(&j, "validation");
	if (json_bool_or_object(v) != run->validation)
		die("--resume: %s ran with validation %s", path,
		    json_bool_or_object(v) ? "on" : "off");
	const struct vkqs_json *cases = vkqs_json_get(&j, "cases");
	if (!cases || cases->type != VKQS_JSON_ARRAY)
		die("--resume: %s has no list of cases", path);
	for (size_t c = 0; c < cases->count; c++) {
		const struct vkqs_json *cj = &cases->items[c];
		const char *name = vkqs_json_str(cj, "name"), *st = vkqs_json_str(cj, "status");
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
		const struct vkqs_json *pj = vkqs_json_get(cj, "process"),
				       *qj = vkqs_json_get(cj, "position");
		if (pj && qj && pj->type == VKQS_JSON_NUMBER && qj->type == VKQS_JSON_NUMBER &&
		    pj->number >= 1 && pj->number < 1e9 && qj->number >= 0 && qj->number < 1e6) {
			r->process = (long)pj->number;
			r->position = (unsigned)qj->number;
			vkqs_runner_first_process(r->process + 1);
		}
		if (!strcmp(st, "Missing"))
			continue;
		if (!vkqs_status_parse(st, &r->status))
			die("--resume: %s: %s has the status '%s'", path, name, st);
		const struct vkqs_json *d = vkqs_json_get(cj, "duration_s");
		r->duration_s = d && d->type == VKQS_JSON_NUMBER ? d->number : 0;
		const char *msg = vkqs_json_str(cj, "message"), *log = vkqs_json_str(cj, "log");
		snprintf(r->message, sizeof(r->message), "%s", msg ? msg : "");
		/* the failures and notes it kept apart */
		const char *texts[VKQS_MAX_ITEMS];
		bool failure[VKQS_MAX_ITEMS];
		unsigned nt = 0;
		for (int pass = 0; pass < 2; pass++) {
			const struct vkqs_json *a = vkqs_json_get(cj, pass ? "notes" : "failures");
			for (size_t t = 0; a && a->type == VKQS_JSON_ARRAY && t < a->count; t++) {
				if (a->items[t].type != VKQS_JSON_STRING || nt == VKQS_MAX_ITEMS)
					die("--resume: %s: %s: a %s item that is no string, or too many",
					    path, name, pass ? "notes" : "failures");
				texts[nt] = a->items[t].string;
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
	const char *started = vkqs_json_str(&j, "started_at");
	if (started)
		snprintf(run->started_at, sizeof(run->started_at), "%s", started);
	const struct vkqs_json *w = vkqs_json_get(&j, "wall_s");
	out.wall_s = w && w->type == VKQS_JSON_NUMBER ? w->number : 0;
	const struct vkqs_json *vr = vkqs_json_get(v, "reports"), *vi = vkqs_json_get(v, "ignored");
	out.reports = vr ? (unsigned)vr->number : 0;
	out.ignored = vi ? (unsigned)vi->number : 0;
	vkqs_json_free(&j);
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

static int cmd_run(int argc, char **argv)
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
			fprintf(stderr, "vkqs: warning: expectations name unknown case '%s'\n",
				e.fails[i].name);

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

	const char *only = vkqs_loader_only_refdevice(&run.device);
	struct vkqs_runner_opts ro = {
		.device = only ? only : o.device,
		.validation = o.validation,
		.timeout_s = o.timeout_s,
		.jobs = o.jobs,
		.batch = o.batch,
		.no_fork = o.no_fork,
		.verbose = o.verbose,
	};
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
	for (size_t i = 0; i < run.count; i++) {
		free(run.results[i].log);
		free(run.results[i].preds);
		free(run.results[i].order_note);
	}
	free(run.results);
	free(o.filters);
	vkqs_expectations_free(&e);
	vkqs_registry_free(&reg);
	return rc;
}

/* tools/report.py of the source tree this binary was built from. */
/* bench --------------------------------------------------------------------*/

/* One metric parsed from a benchmark's log. */
struct metric {
	char name[96], unit[32], clock[8];
	bool lower_is_better;
	double *samples;
	size_t n;
	struct vkqs_bench_stats st;
};

/* The "@metric" lines of a log (bench.h); returns how many (at most max). */
static size_t parse_metrics(const char *log, struct metric *m, size_t max)
{
	size_t k = 0;
	for (const char *p = log; p && *p && k < max;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		int lower, used;
		size_t n;
		if (strncmp(p, "@metric ", 8) == 0 &&
		    sscanf(p, "@metric %95s %31s %d %7s %zu%n", m[k].name, m[k].unit, &lower,
			   m[k].clock, &n, &used) == 5 &&
		    n < 10000000) {
			m[k].lower_is_better = lower != 0;
			m[k].samples = calloc(n ? n : 1, sizeof(double));
			const char *q = p + used;
			size_t got = 0;
			while (m[k].samples && got < n && q < p + len) {
				char *end;
				double v = strtod(q, &end);
				if (end == q)
					break;
				m[k].samples[got++] = v;
				q = end;
			}
			m[k].n = got;
			vkqs_bench_summarize(m[k].samples, got, &m[k].st);
			k++;
		}
		p = eol ? eol + 1 : NULL;
	}
	return k;
}

static void machine_json(FILE *f)
{
	char host[256] = "", cpu[256] = "";
	gethostname(host, sizeof(host) - 1);
	FILE *c = fopen("/proc/cpuinfo", "r");
	char line[512];
	while (c && fgets(line, sizeof(line), c))
		if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
			snprintf(cpu, sizeof(cpu), "%s", strchr(line, ':') + 2);
			cpu[strcspn(cpu, "\n")] = 0;
			break;
		}
	if (c)
		fclose(c);
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	fputs("  \"machine\": {\"hostname\": ", f);
	vkqs_json_string(f, host);
	fputs(", \"cpu\": ", f);
	vkqs_json_string(f, cpu);
	fprintf(f, ", \"cpus\": %ld},\n", ncpu);
}

static void stats_json(FILE *f, const struct vkqs_bench_stats *s)
{
	fprintf(f, "\"median\": %.9g, \"p10\": %.9g, \"p90\": %.9g, \"min\": %.9g, "
		   "\"max\": %.9g, \"mad\": %.9g, \"samples\": %zu, \"rejected\": %zu",
		s->median, s->p10, s->p90, s->min, s->max, s->mad, s->samples, s->rejected);
}

/* One metric of a benchmark over its processes (docs/bench-schema.md):
 * the median of the per-process medians is the figure a baseline
 * compares; the spread of those medians is the run-to-run noise it judges
 * a change against (docs/bench-regressions.md). */
struct metric_over {
	const struct metric *first; /* name, unit, direction, clock */
	const struct metric **per;  /* [procs], NULL where a process lacks it */
	size_t procs, have;         /* processes run, and of them reporting it */
	double median, process_min, process_max;
	struct vkqs_bench_stats pooled; /* over every process's kept samples */
};

static void metric_over(const struct metric *first, struct metric (*m)[64], const size_t *nm,
			size_t procs, struct metric_over *o)
{
	memset(o, 0, sizeof(*o));
	o->first = first;
	o->procs = procs;
	o->per = calloc(procs, sizeof(*o->per));
	double *med = calloc(procs, sizeof(double));
	size_t total = 0;
	if (!o->per || !med)
		die("out of memory");
	for (size_t r = 0; r < procs; r++)
		for (size_t k = 0; k < nm[r]; k++)
			if (!strcmp(m[r][k].name, first->name)) {
				o->per[r] = &m[r][k];
				med[o->have++] = m[r][k].st.median;
				total += m[r][k].n;
				break;
			}
	double *kept = calloc(total + 1, sizeof(double));
	if (!kept)
		die("out of memory");
	size_t k = 0, rejected = 0;
	for (size_t r = 0; r < procs; r++)
		if (o->per[r]) {
			size_t got = vkqs_bench_keep(o->per[r]->samples, o->per[r]->n, kept + k);
			k += got;
			rejected += o->per[r]->n - got;
		}
	vkqs_bench_describe(kept, k, rejected, &o->pooled);
	struct vkqs_bench_stats across; /* of the per-process medians */
	vkqs_bench_describe(med, o->have, 0, &across);
	o->median = across.median;
	o->process_min = across.min;
	o->process_max = across.max;
	free(med);
	free(kept);
}

static void metric_over_json(FILE *f, const struct metric_over *o)
{
	fputs("{\"name\": ", f);
	vkqs_json_string(f, o->first->name);
	fputs(", \"unit\": ", f);
	vkqs_json_string(f, o->first->unit);
	fprintf(f, ", \"lower_is_better\": %s, \"clock\": ",
		o->first->lower_is_better ? "true" : "false");
	vkqs_json_string(f, o->first->clock);
	fprintf(f, ",\n       \"median\": %.9g, \"p10\": %.9g, \"p90\": %.9g, \"min\": %.9g, "
		   "\"max\": %.9g, \"mad\": %.9g, \"samples\": %zu, \"rejected\": %zu,\n"
		   "       \"processes\": %zu, \"process_min\": %.9g, \"process_max\": %.9g, "
		   "\"per_process\": [",
		o->median, o->pooled.p10, o->pooled.p90, o->pooled.min, o->pooled.max, o->pooled.mad,
		o->pooled.samples, o->pooled.rejected, o->have, o->process_min, o->process_max);
	size_t n = 0;
	for (size_t r = 0; r < o->procs; r++) {
		const struct metric *p = o->per[r];
		if (!p)
			continue;
		fprintf(f, "%s\n        {", n++ ? "," : "");
		stats_json(f, &p->st);
		fputs(", \"raw\": [", f);
		for (size_t s = 0; s < p->n; s++)
			fprintf(f, "%s%.9g", s ? ", " : "", p->samples[s]);
		fputs("]}", f);
	}
	fputs("]}", f);
}

static int cmd_bench(int argc, char **argv)
{
	struct opts o = {0};
	struct vkqs_registry reg;
	char err[1024];
	parse_opts(argc, argv, O_BENCH, "bench", &o);
	if (!o.repeat)
		o.repeat = o.quick ? 3 : 30;
	if (!(o.min_time_s > 0))
		o.min_time_s = o.quick ? 0.0 : 0.1;
	/* docs/bench-regressions.md: 10 processes let a baseline judge every
	 * metric at a 1 % false-alarm rate; a smoke run needs one. */
	if (!o.processes)
		o.processes = o.quick ? 1 : 10;
	bool default_timeout = o.timeout_s == 60;
	if (default_timeout)
		o.timeout_s = 300;
	char buf[64];
	snprintf(buf, sizeof(buf), "%u", o.repeat);
	setenv("VKQS_BENCH_REPEAT", buf, 1);
	snprintf(buf, sizeof(buf), "%g", o.min_time_s);
	setenv("VKQS_BENCH_MIN_TIME", buf, 1);
	setenv("VKQS_BENCH_QUICK", o.quick ? "1" : "0", 1);
	if (!vkqs_registry_build(&reg, vkqs_bench_areas, false, err, sizeof(err)))
		die("%s", err);
	bool *sel = select_filters(&reg, &o);
	size_t nsel = 0;
	for (size_t i = 0; i < reg.count; i++)
		nsel += sel[i];
	if (!nsel)
		die("no benchmark selected");
	const size_t procs = o.processes;
	/* Every benchmark once per round, procs rounds: a drift of the machine
	 * during the run spreads over all benchmarks alike. */
	struct vkqs_run run = {0};
	run.results = calloc(nsel * procs, sizeof(*run.results));
	if (!run.results)
		die("out of memory");
	for (size_t r = 0; r < procs; r++)
		for (size_t i = 0; i < reg.count; i++)
			if (sel[i])
				run.results[run.count++].ci = &reg.cases[i];
	free(sel);
	bool driver_failed;
	if (!vkqs_probe_device(o.device, false, o.timeout_s, &run.device, &driver_failed, err,
			       sizeof(err)))
		die("%s", err);
	utc_now(run.started_at, sizeof(run.started_at));
	printf("vkqs: %zu benchmarks on device %u: %s (%s, %s), %u samples, %zu process%s each%s\n",
	       nsel, run.device.index, run.device.name, run.device.driver_name,
	       run.device.driver_info, o.repeat, procs, procs == 1 ? "" : "es",
	       o.quick ? ", quick" : "");
	fflush(stdout);
	/* One at a time: benchmarks must not share the machine. */
	const char *only = vkqs_loader_only_refdevice(&run.device);
	struct vkqs_runner_opts ro = {
		.device = only ? only : o.device,
		.validation = o.validation,
		.timeout_s = o.timeout_s,
		.jobs = 1,
		.batch = 1,
		.keep_log_bytes = 8u << 20,
	};
	vkqs_runner_install_signals();
	double t0 = vkqs_monotonic_s();
	run.complete = vkqs_runner_run(&ro, run.results, run.count, NULL, NULL, &run.lost);
	run.wall_s = vkqs_monotonic_s() - t0;

	/* The table, and the JSON (docs/bench-schema.md) */
	struct vkqs_atomic_file af = {0};
	FILE *f = NULL;
	if (o.json) {
		if (!vkqs_atomic_open(&af, o.json, err, sizeof(err)))
			die("%s", err);
		f = af.f;
		fputs("{\n  \"format\": \"vkqs-bench\",\n  \"format_version\": 2,\n", f);
		fputs("  \"started_at\": ", f);
		vkqs_json_string(f, run.started_at);
		fprintf(f, ",\n  \"wall_s\": %.3f,\n  \"complete\": %s,\n", run.wall_s,
			run.complete ? "true" : "false");
		fputs("  \"dispatch\": \"volk per-device table\",\n", f);
		fprintf(f, "  \"options\": {\"repeat\": %u, \"min_time_s\": %g, \"quick\": %s, "
			   "\"processes\": %zu},\n",
			o.repeat, o.min_time_s, o.quick ? "true" : "false", procs);
		machine_json(f);
		vkqs_json_device(f, &run.device);
		fputs("  \"benchmarks\": [", f);
	}
	size_t failed = 0;
	struct metric(*m)[64] = calloc(procs, sizeof(*m));
	size_t *nm = calloc(procs, sizeof(*nm));
	if (!m || !nm)
		die("out of memory");
	for (size_t i = 0; i < nsel; i++) {
		/* the benchmark's outcome: its worst process's */
		const struct vkqs_result *worst = &run.results[i];
		double duration = 0;
		bool done = true;
		for (size_t r = 0; r < procs; r++) {
			const struct vkqs_result *x = &run.results[r * nsel + i];
			done = done && x->done;
			duration += x->duration_s;
			if (x->done && vkqs_status_severity(x->status) > vkqs_status_severity(worst->status))
				worst = x;
		}
		const char *st = done ? vkqs_status_name(worst->status) : "Missing";
		bool pass = done && worst->status == VKQS_PASS;
		failed += !(done && (worst->status == VKQS_PASS || worst->status == VKQS_NOT_SUPPORTED));
		for (size_t r = 0; r < procs; r++)
			nm[r] = pass ? parse_metrics(run.results[r * nsel + i].log, m[r], 64) : 0;
		printf("%-12s %s%s%s\n", st, worst->ci->name, worst->message[0] ? ": " : "",
		       pass ? "" : worst->message);
		if (f) {
			fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
			vkqs_json_string(f, worst->ci->name);
			fputs(", \"status\": ", f);
			vkqs_json_string(f, st);
			fputs(", \"message\": ", f);
			vkqs_json_string(f, pass ? "" : worst->message);
			fputs(", \"description\": ", f);
			vkqs_json_string(f, worst->ci->c->spec);
			fprintf(f, ", \"duration_s\": %.3f, \"metrics\": [", duration);
		}
		for (size_t k = 0; k < nm[0]; k++) {
			struct metric_over mo;
			metric_over(&m[0][k], m, nm, procs, &mo);
			printf("    %-40s %14.6g %-10s p10 %.6g  p90 %.6g  n %zu (%zu rejected)",
			       mo.first->name, mo.median, mo.first->unit, mo.pooled.p10, mo.pooled.p90,
			       mo.pooled.samples, mo.pooled.rejected);
			if (procs > 1)
				printf("  %zu processes %.6g..%.6g", mo.have, mo.process_min,
				       mo.process_max);
			putchar('\n');
			if (f) {
				fputs(k ? ",\n      " : "\n      ", f);
				metric_over_json(f, &mo);
			}
			free(mo.per);
		}
		if (f)
			fputs(nm[0] ? "\n    ]}" : "]}", f);
		for (size_t r = 0; r < procs; r++)
			for (size_t k = 0; k < nm[r]; k++)
				free(m[r][k].samples);
	}
	free(m);
	free(nm);
	if (f) {
		fputs("\n  ]\n}\n", f);
		if (!vkqs_atomic_commit(&af, err, sizeof(err)))
			die("%s", err);
	}
	printf("%zu benchmarks (%zu processes) in %.1f s, %zu failed or crashed\n", nsel,
	       run.count, run.wall_s, failed);
	for (size_t i = 0; i < run.count; i++) {
		free(run.results[i].log);
		free(run.results[i].preds);
		free(run.results[i].order_note);
	}
	free(run.results);
	free(o.filters);
	vkqs_registry_free(&reg);
	if (!run.complete)
		return 130;
	return failed ? EXIT_UNEXPECTED : 0;
}

/* Runs tools/<script> of the source tree this binary was built from. */
static int run_tool(const char *command, const char *script, int argc, char **argv)
{
	for (int i = 0; i < argc; i++)
		if (is_help(argv[i]))
			return print_usage(command);
	if (access(script, R_OK) != 0)
		die("%s: %s is not there (the source tree this vkqs was built from)", command,
		    script);
	char **args = calloc((size_t)argc + 3, sizeof(*args));
	if (!args)
		die("out of memory");
	args[0] = "python3";
	args[1] = (char *)script;
	for (int i = 0; i < argc; i++)
		args[i + 2] = argv[i];
	execvp("python3", args);
	die("%s: cannot run python3: %s", command, strerror(errno));
}

static int cmd_report(int argc, char **argv)
{
	return run_tool("report", VKQS_SOURCE_DIR "/tools/report.py", argc, argv);
}

static int cmd_merge(int argc, char **argv)
{
	return run_tool("merge", VKQS_SOURCE_DIR "/tools/merge.py", argc, argv);
}

static int cmd_compare(int argc, char **argv)
{
	for (size_t i = 0; i < VKQS_ARRAY_LEN(usages); i++)
		if (!strcmp(usages[i].cmd, "compare"))
			return vkqs_compare_main(argc, argv, usages[i].text);
	return 2;
}

int main(int argc, char **argv)
{
	vkqs_loader_add_refdevice();
	if (argc < 2)
		die("no command given (list, devices, info, run, bench, report, merge, compare; see vkqs --help)");
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} cmds[] = {
		{"list", cmd_list},   {"devices", cmd_devices}, {"info", cmd_info},
		{"run", cmd_run},     {"bench", cmd_bench},     {"report", cmd_report},
		{"merge", cmd_merge},   {"compare", cmd_compare},
		/* internal: the second process of the profiling-lock cases (proflock.h) */
		{"hold-profiling-lock", vkqs_hold_profiling_lock_main},
	};
	const char *cmd = argv[1];
	if (is_help(cmd) || !strcmp(cmd, "help"))
		return print_usage(argc > 2 ? argv[2] : NULL);
	for (size_t i = 0; i < VKQS_ARRAY_LEN(cmds); i++)
		if (!strcmp(cmd, cmds[i].name))
			return cmds[i].fn(argc - 2, argv + 2);
	die("unknown command '%s' (list, devices, info, run, bench, report, merge, compare; see vkqs --help)", cmd);
}
