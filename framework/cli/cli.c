/* What the commands share: their usage texts, option parsing, case
 * selection, and the one error exit (cli.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cli.h"
#include "device.h"
#include "numparse.h"
#include "util.h"

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
		"                [--induce-device-loss]  (vkqs.lost on a GPU: resets it)\n"
		"                [-v|--verbose]  (a line per case, every group in full)\n"
		"                [--resume RESULTS.json]  (the same options again: runs what\n"
		"                the interrupted result lacks, and completes it)\n"},
	{"bench", "vkqs bench [--device D] [--filter GLOB]... [--repeat N] [--min-time S]\n"
		  "                [--processes K] [--json FILE] [--quick] [--timeout SECONDS]\n"
		  "                [--max-time S]  (no round of processes starts after S seconds:\n"
		  "                the rounds that ran are the result)\n"
		  "                [--max-processes M]  (after K, more rounds of the benchmarks\n"
		  "                whose metrics a baseline could not yet judge to 3 % device-side,\n"
		  "                10 % host-side; up to M processes, within --max-time)\n"
		  "                [--validation] [--baseline OLD.json]  (a run of the same vkqs\n"
		  "                format; then compares with it: tools/report.py; exit 1 when a\n"
		  "                metric regressed)\n"
		  "                A host-clock sample is the fastest over the CPUs of the\n"
		  "                affinity (taskset narrows them): docs/bench-stability.md\n"},
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

int print_usage(const char *cmd)
{
	for (size_t i = 0; i < sizeof(usages) / sizeof(usages[0]); i++)
		if (!cmd || !strcmp(cmd, usages[i].cmd))
			printf("%s%s", i && !cmd ? "       " : "usage: ", usages[i].text);
	fputs(usage_tail, stdout);
	return 0;
}

bool is_help(const char *a)
{
	return !strcmp(a, "--help") || !strcmp(a, "-h");
}

static char *warned;	/* warn_input's lines, each ending in '\n' */
static size_t nwarned;

void warn_input(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	size_t len = strlen(line);
	char *grown = realloc(warned, nwarned + len + sizeof("vkqs: warning: \n"));
	if (!grown)
		return;
	warned = grown;
	nwarned += (size_t)sprintf(warned + nwarned, "vkqs: warning: %s\n", line);
}

void inputs_accepted(void)
{
	if (nwarned)
		fwrite(warned, 1, nwarned, stderr);
	free(warned);
	warned = NULL;
	nwarned = 0;
}

_Noreturn void die(const char *fmt, ...)
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
const char *output_path(const char *opt, const char *path)
{
	char err[512];
	if (!vkqs_output_check(path, err, sizeof(err)))
		die("%s: %s", opt, err);
	return path;
}


const char *cli_usage(const char *cmd)
{
	for (size_t i = 0; i < sizeof(usages) / sizeof(usages[0]); i++)
		if (!strcmp(cmd, usages[i].cmd))
			return usages[i].text;
	return "";
}

/* Options ----------------------------------------------------------------*/


struct optdef {
	const char *name;
	bool arg;
	unsigned allowed; /* which commands take it */
};
static const struct optdef optdefs[] = {
	{"--device", true, O_DEVICE | O_RUN | O_BENCH},
	{"--filter", true, O_FILTER | O_RUN | O_BENCH | O_COMPARE},
	{"--caselist", true, O_RUN},           {"--expectations", true, O_RUN},
	{"--timeout", true, O_RUN | O_BENCH | O_TIMEOUT | O_COMPARE},
	{"--jobs", true, O_RUN | O_COMPARE},
	{"--shard", true, O_RUN},              {"--json", true, O_RUN | O_BENCH},
	{"--junit", true, O_RUN},              {"--csv", true, O_RUN},
	{"--validation", false, O_RUN | O_BENCH | O_COMPARE}, {"--no-fork", false, O_RUN},
	{"--batch", true, O_RUN},              {"--spec", false, O_LIST},
	{"--no-rerun", false, O_RUN},         {"--resume", true, O_RUN},
	{"--induce-device-loss", false, O_RUN},
	{"--verbose", false, O_RUN},           {"--outdir", true, O_COMPARE},
	{"--expectations-dir", true, O_COMPARE},
	{"--repeat", true, O_BENCH},           {"--min-time", true, O_BENCH},
	{"--quick", false, O_BENCH},           {"--processes", true, O_BENCH},
	{"--max-processes", true, O_BENCH},
	{"--baseline", true, O_BENCH},         {"--max-time", true, O_BENCH},
};

/* Numbers through the one parser (util.h vkqs_parse_u64): digits only. */
static unsigned parse_uint(const char *opt, const char *v, unsigned min)
{
	unsigned long long x;
	if (!vkqs_parse_u64(v, min, 100000, &x))
		die("%s: expected an integer from %u to 100000, got '%s'", opt, min, v);
	return (unsigned)x;
}

void parse_opts(int argc, char **argv, unsigned allowed, const char *cmd,
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
		else if (!strcmp(name, "--induce-device-loss"))
			o->induce_device_loss = true;
		else if (!strcmp(name, "--verbose"))
			o->verbose = true;
		else if (!strcmp(name, "--outdir"))
			o->outdir = val;
		else if (!strcmp(name, "--expectations-dir"))
			o->expectations_dir = val;
		else if (!strcmp(name, "--spec"))
			o->spec = true;
		else if (!strcmp(name, "--repeat"))
			o->repeat = parse_uint(name, val, 1);
		else if (!strcmp(name, "--baseline"))
			o->baseline = val;
		else if (!strcmp(name, "--quick"))
			o->quick = true;
		else if (!strcmp(name, "--processes")) {
			o->processes = parse_uint(name, val, 1);
			if (o->processes > 1000)
				die("--processes: expected 1 to 1000, got '%s'", val);
		}
		else if (!strcmp(name, "--max-processes")) {
			o->max_processes = parse_uint(name, val, 1);
			if (o->max_processes > 1000)
				die("--max-processes: expected 1 to 1000, got '%s'", val);
		}
		else if (!strcmp(name, "--min-time")) {
			if (!vkqs_parse_decimal(val, 0, false, 3600, &o->min_time_s))
				die("--min-time: expected seconds from 0 to 3600, got '%s'", val);
		}
		else if (!strcmp(name, "--max-time")) {
			if (!vkqs_parse_decimal(val, 0, true, 86400, &o->max_time_s))
				die("--max-time: expected seconds above 0, at most 86400, got '%s'", val);
		}
	}
}

/* --jobs within what this process may open: each running case holds its
 * result pipe and its log file open in the runner (runner.c spawn), and the
 * runner keeps some for itself.  Asked for more: one line, exit 2; the
 * default (one job a CPU) is lowered with one line. */
void bound_jobs(struct opts *o)
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
void utc_now(char *buf, size_t size)
{
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Case selection -----------------------------------------------------------*/

void build_registry(struct vkqs_registry *reg)
{
	char err[512];
	const char *st = getenv("VKQS_SELFTEST");
	if (!vkqs_registry_build(reg, vkqs_areas, st && !strcmp(st, "1"), err, sizeof(err)))
		die("%s", err);
}

/* Applies --filter globs (each must match something); returns a mask. */
bool *select_filters(const struct vkqs_registry *reg, const struct opts *o)
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
void apply_caselist(const struct vkqs_registry *reg, const char *path, bool *sel)
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

struct vkqs_runner_opts runner_opts(const struct opts *o, const struct vkqs_device_info *dev)
{
	const char *only = vkqs_loader_only_refdevice(dev);
	return (struct vkqs_runner_opts){
		.device = only ? only : o->device,
		.validation = o->validation,
		.timeout_s = o->timeout_s,
		.jobs = o->jobs,
		.batch = o->batch,
		.no_fork = o->no_fork,
		.verbose = o->verbose,
	};
}
