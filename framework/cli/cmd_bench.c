/* vkqs bench: the microbenchmarks, each in fresh processes (docs/bench.md). */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

static json_t *machine_json(void)
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
	json_t *o = json_object();
	json_object_set_new(o, "hostname", vkqs_json_text(host));
	json_object_set_new(o, "cpu", vkqs_json_text(cpu));
	json_object_set_new(o, "cpus", json_integer(sysconf(_SC_NPROCESSORS_ONLN)));
	return o;
}

/* The statistics of a sample set as members of o. */
static void stats_json(json_t *o, const struct vkqs_bench_stats *s)
{
	json_object_set_new(o, "median", json_real(s->median));
	json_object_set_new(o, "p10", json_real(s->p10));
	json_object_set_new(o, "p90", json_real(s->p90));
	json_object_set_new(o, "min", json_real(s->min));
	json_object_set_new(o, "max", json_real(s->max));
	json_object_set_new(o, "mad", json_real(s->mad));
	json_object_set_new(o, "samples", json_integer((json_int_t)s->samples));
	json_object_set_new(o, "rejected", json_integer((json_int_t)s->rejected));
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

static json_t *metric_over_json(const struct metric_over *o)
{
	json_t *j = json_object();
	json_object_set_new(j, "name", vkqs_json_text(o->first->name));
	json_object_set_new(j, "unit", vkqs_json_text(o->first->unit));
	json_object_set_new(j, "lower_is_better", json_boolean(o->first->lower_is_better));
	json_object_set_new(j, "clock", vkqs_json_text(o->first->clock));
	stats_json(j, &o->pooled);
	/* the figure a baseline compares: the median of the process medians */
	json_object_set_new(j, "median", json_real(o->median));
	json_object_set_new(j, "processes", json_integer((json_int_t)o->have));
	json_object_set_new(j, "process_min", json_real(o->process_min));
	json_object_set_new(j, "process_max", json_real(o->process_max));
	json_t *per = json_array();
	for (size_t r = 0; r < o->procs; r++) {
		const struct metric *p = o->per[r];
		if (!p)
			continue;
		json_t *pj = json_object(), *raw = json_array();
		stats_json(pj, &p->st);
		for (size_t s = 0; s < p->n; s++)
			json_array_append_new(raw, json_real(p->samples[s]));
		json_object_set_new(pj, "raw", raw);
		json_array_append_new(per, pj);
	}
	json_object_set_new(j, "per_process", per);
	return j;
}

/* The unit a value of `unit` reads best in on the console, and the
 * divisor to it: nanoseconds become us, ms or s once they reach a
 * thousand of them; other units stay. */
static double display_scale(const char *unit, double v, const char **shown)
{
	static const struct {
		double at;
		const char *name;
	} ns[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "us"}};
	*shown = unit;
	if (strcmp(unit, "ns") != 0)
		return 1.0;
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		if (fabs(v) >= ns[i].at) {
			*shown = ns[i].name;
			return ns[i].at;
		}
	return 1.0;
}

/* --baseline OLD.json, read before any work: a vkqs bench result; its
 * device's name and driver in name/driver (compared once this run's
 * device is known). */
static void read_baseline(const char *path, char *name, size_t nsize, char *driver,
			  size_t dsize, size_t *processes)
{
	char err[512];
	json_t *j = vkqs_json_read(path, err, sizeof(err));
	if (!j)
		die("--baseline: %s", err);
	const char *fmt = json_string_value(json_object_get(j, "format"));
	json_t *dev = json_object_get(j, "device");
	const char *n = json_string_value(json_object_get(dev, "name")),
		   *d = json_string_value(json_object_get(dev, "driver_info"));
	if (!fmt || strcmp(fmt, "vkqs-bench") != 0 || !n || !d)
		die("--baseline: %s is not a vkqs bench result (vkqs bench --json)", path);
	snprintf(name, nsize, "%s", n);
	snprintf(driver, dsize, "%s", d);
	json_t *p = json_object_get(json_object_get(j, "options"), "processes");
	*processes = json_is_integer(p) && json_integer_value(p) > 0 ? (size_t)json_integer_value(p) : 0;
	json_decref(j);
}

/* tools/report.py NEW --baseline OLD: the comparison on stdout; its exit
 * status (1: a metric regressed, 2: it could not compare).  NULL new_json:
 * only whether OLD can be a baseline (--check-baseline).  With why: stdout
 * is dropped, and the error line (without its "report: error: ") lands in
 * why. */
static int compare_with_baseline(const char *new_json, const char *old_json, char *why,
				 size_t whysize)
{
	fflush(stdout);
	int fds[2] = {-1, -1};
	if (why && pipe(fds) != 0)
		die("--baseline: cannot make a pipe: %s", strerror(errno));
	pid_t pid = fork();
	if (pid < 0)
		die("--baseline: cannot fork: %s", strerror(errno));
	if (pid == 0) {
		if (why && (!freopen("/dev/null", "w", stdout) || dup2(fds[1], 2) < 0))
			_exit(2);
		if (new_json)
			execlp("python3", "python3", VKQS_SOURCE_DIR "/tools/report.py", new_json,
			       "--baseline", old_json, (char *)NULL);
		else
			execlp("python3", "python3", VKQS_SOURCE_DIR "/tools/report.py", old_json,
			       "--check-baseline", (char *)NULL);
		fprintf(stderr, "vkqs: error: --baseline: cannot run python3: %s\n", strerror(errno));
		_exit(2);
	}
	if (why) {
		close(fds[1]);
		size_t len = 0;
		ssize_t got;
		while (len + 1 < whysize &&
		       (got = read(fds[0], why + len, whysize - 1 - len)) != 0) {
			if (got < 0 && errno == EINTR)
				continue;
			if (got < 0)
				break;
			len += (size_t)got;
		}
		close(fds[0]);
		why[len] = '\0';
		why[strcspn(why, "\n")] = '\0';
		const char *prefix = "report: error: ";
		if (!strncmp(why, prefix, strlen(prefix)))
			memmove(why, why + strlen(prefix), strlen(why + strlen(prefix)) + 1);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}

/* Adaptive processes (--max-processes) --------------------------------------*/

/* The upper alpha/2 point of the standard normal: erfc inverted by
 * bisection (the stopping rule's only need; the verdict is
 * tools/report.py's, with scipy). */
static double normal_upper(double alpha)
{
	double lo = 0, hi = 40;
	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;
		if (0.5 * erfc(mid / sqrt(2.0)) > alpha / 2)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The 0-based index c of the lower end of the Mann-Whitney interval of
 * the shift between two samples of n values each at level alpha (the
 * upper end is the (n*n - 1 - c)th difference): the largest c with
 * P(U <= c - 1) <= alpha / 2; 0 (or below, from the normal
 * approximation) where the test cannot reject at any shift, too few
 * processes for the level (tools/report.py refuses such a pair).  Up
 * to 20 values a sample, U's exact distribution without ties (as
 * tools/report.py's scipy test, exact up to 40 values in all): the
 * coefficients of the Gaussian binomial [2n choose n]_q, built as the
 * product over i of (1 - q^(n+i)) / (1 - q^i); past that, the normal
 * approximation. */
static long mw_lower_index(size_t n, double alpha)
{
	const double mn = (double)n * (double)n;
	if (n > 20)
		return (long)floor(mn / 2 - normal_upper(alpha) * sqrt(mn * (2.0 * n + 1) / 12));
	const size_t top = n * n;
	double p[401] = {1};
	for (size_t i = 1; i <= n; i++) {
		for (size_t u = top; u >= n + i; u--)
			p[u] -= p[u - (n + i)];
		for (size_t u = i; u <= top; u++)
			p[u] += p[u - i];
	}
	double total = 0;
	for (size_t u = 0; u <= top; u++)
		total += p[u];
	double below = 0; /* P(U <= c - 1) */
	long c = -1;
	for (size_t u = 0; u <= top / 2; u++) {
		if (below > alpha / 2 * total)
			break;
		c = (long)u;
		below += p[u];
	}
	return c;
}

/* The half-width, relative to `scale` (0: the median of x), of the
 * interval a baseline comparison would give this metric against a second
 * run like this one (docs/bench-regressions.md): the Mann-Whitney interval
 * of the shift between the per-process medians x[0..n) and themselves, at
 * the level alpha.  Infinite where nothing can be said (a scale of 0 with
 * spread, or too few processes). */
static double predicted_half_width(const double *x, size_t n, double alpha, double scale)
{
	if (n < 2)
		return INFINITY;
	long c = mw_lower_index(n, alpha);
	if (c < 1)
		return INFINITY;
	double *d = malloc(n * n * sizeof(double));
	double *sorted = malloc(n * sizeof(double));
	if (!d || !sorted)
		die("out of memory");
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		sorted[i] = x[i];
		for (size_t j = 0; j < n; j++)
			d[k++] = x[j] - x[i];
	}
	qsort(d, k, sizeof(double), cmp_double);
	qsort(sorted, n, sizeof(double), cmp_double);
	double med = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	double width = (d[k - 1 - (size_t)c] - d[(size_t)c]) / 2;
	if (scale <= 0)
		scale = fabs(med);
	double hw = width == 0 ? 0 : scale != 0 ? width / scale : INFINITY;
	free(d);
	free(sorted);
	return hw;
}

/* The median of the per-process medians of metric `name` (n processes of
 * m[0..n), nm[r] metrics each); 0 where no process has it. */
static double process_median_of(struct metric (*m)[64], const size_t *nm, size_t n,
				const char *name, double *buf)
{
	size_t have = 0;
	for (size_t r = 0; r < n; r++)
		for (size_t j = 0; j < nm[r]; j++)
			if (!strcmp(m[r][j].name, name)) {
				buf[have++] = m[r][j].st.median;
				break;
			}
	if (!have)
		return 0;
	qsort(buf, have, sizeof(double), cmp_double);
	return have % 2 ? buf[have / 2] : (buf[have / 2 - 1] + buf[have / 2]) / 2;
}

/* What a comparison's shift of a metric is relative to (tools/report.py
 * relative_scale): a difference's whole - `<x>.difference` against
 * `<x>.serialized`, a drift in ppm against 10^6 ppm - else 0 (the
 * metric's own median). */
static double relative_scale(const struct metric *k, struct metric (*m)[64], const size_t *nm,
			     size_t n, double *buf)
{
	static const char diff[] = ".difference";
	size_t len = strlen(k->name);
	if (len > sizeof(diff) - 1 && !strcmp(k->name + len - (sizeof(diff) - 1), diff)) {
		char whole[sizeof(k->name) + 16];
		snprintf(whole, sizeof(whole), "%.*s.serialized", (int)(len - (sizeof(diff) - 1)),
			 k->name);
		return fabs(process_median_of(m, nm, n, whole, buf));
	}
	if (!strcmp(k->unit, "ppm"))
		return 1e6;
	return 0;
}

/* The floor of a metric's clock (docs/bench-regressions.md): the smallest
 * change a comparison reports, so no narrower interval is sought. */
static double clock_floor(const char *clock)
{
	return strcmp(clock, "host") == 0 ? 0.10 : 0.03;
}

/* Whether every metric of one benchmark, over its processes `res[0..n)`,
 * would already be judged to its floor; the widest metric's name and
 * predicted half-width in widest/hw. */
static bool bench_settled(const struct vkqs_result *const *res, size_t n, double alpha,
			  char *widest, size_t wsize, double *hw)
{
	struct metric(*m)[64] = calloc(n, sizeof(*m));
	size_t *nm = calloc(n, sizeof(*nm));
	double *med = calloc(n, sizeof(double)), *buf = calloc(n, sizeof(double));
	if (!m || !nm || !med || !buf)
		die("out of memory");
	for (size_t r = 0; r < n; r++)
		nm[r] = res[r]->status == VKQS_PASS ? parse_metrics(res[r]->log, m[r], 64) : 0;
	bool settled = true;
	*hw = 0;
	for (size_t k = 0; k < nm[0]; k++) {
		size_t have = 0;
		for (size_t r = 0; r < n; r++)
			for (size_t j = 0; j < nm[r]; j++)
				if (!strcmp(m[r][j].name, m[0][k].name)) {
					med[have++] = m[r][j].st.median;
					break;
				}
		double w = predicted_half_width(med, have, alpha,
						relative_scale(&m[0][k], m, nm, n, buf));
		if (w > clock_floor(m[0][k].clock))
			settled = false;
		if (w > *hw || (k == 0 && w >= *hw)) {
			*hw = w;
			snprintf(widest, wsize, "%s", m[0][k].name);
		}
	}
	for (size_t r = 0; r < n; r++)
		for (size_t k = 0; k < nm[r]; k++)
			free(m[r][k].samples);
	free(m);
	free(nm);
	free(med);
	free(buf);
	return settled;
}

/* The results of benchmark b among the first `kept` (the rounds that ran
 * whole), in run order, into mine; how many. */
static size_t results_of(const struct vkqs_run *run, size_t kept, const struct vkqs_case_inst *b,
			 const struct vkqs_result **mine)
{
	size_t n = 0;
	for (size_t r = 0; r < kept; r++)
		if (run->results[r].ci == b)
			mine[n++] = &run->results[r];
	return n;
}

int cmd_bench(int argc, char **argv)
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
	char base_name[256] = "", base_driver[256] = "", tmp_json[4200] = "";
	if (o.baseline) {
		size_t base_procs;
		read_baseline(o.baseline, base_name, sizeof(base_name), base_driver,
			      sizeof(base_driver), &base_procs);
		/* one configuration: as many processes per benchmark */
		if (!(o.max_time_s > 0) && base_procs != o.processes)
			die("--baseline: %s ran %zu process%s per benchmark, this run %u: give "
			    "--processes %zu",
			    o.baseline, base_procs, base_procs == 1 ? "" : "es", o.processes, base_procs);
		/* whether it can be judged at all (enough processes for its metrics):
		 * the comparison of the baseline with itself says, before any work */
		char why[1024];
		if (compare_with_baseline(NULL, o.baseline, why, sizeof(why)) != 0)
			die("--baseline: %s", *why ? why : "tools/report.py cannot read it");
		if (access(VKQS_SOURCE_DIR "/tools/report.py", R_OK) != 0)
			die("--baseline: %s is not there (the source tree this vkqs was built from)",
			    VKQS_SOURCE_DIR "/tools/report.py");
		if (o.json) {
			const struct vkqs_named_path outs[] = {{"--json", o.json}};
			const struct vkqs_named_path ins[] = {{"--baseline", o.baseline}};
			if (!vkqs_outputs_distinct(outs, 1, ins, 1, err, sizeof(err)))
				die("%s", err);
		}
	}
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
	/* --max-processes: up to that many where a metric is still wide */
	if (o.max_processes && o.max_processes < procs)
		die("--max-processes %u is below --processes %zu", o.max_processes, procs);
	const size_t max_procs = o.max_processes ? o.max_processes : procs;
	/* Every benchmark once per round, procs rounds: a drift of the machine
	 * during the run spreads over all benchmarks alike.  Further rounds
	 * (--max-processes) hold only the benchmarks still too wide. */
	struct vkqs_run run = {0};
	run.results = calloc(nsel * max_procs, sizeof(*run.results));
	const struct vkqs_case_inst **bench = calloc(nsel, sizeof(*bench));
	if (!run.results || !bench)
		die("out of memory");
	for (size_t i = 0, b = 0; i < reg.count; i++)
		if (sel[i])
			bench[b++] = &reg.cases[i];
	free(sel);
	bool driver_failed;
	if (!vkqs_probe_device(o.device, false, o.timeout_s, &run.device, &driver_failed, err,
			       sizeof(err)))
		die("%s", err);
	if (o.baseline && (strcmp(base_name, run.device.name) || strcmp(base_driver, run.device.driver_info)))
		die("--baseline: %s ran on %s (%s), this run is on %s (%s)", o.baseline, base_name,
		    base_driver, run.device.name, run.device.driver_info);
	/* the result the comparison reads: --json, or a temporary made now,
	 * after every check, and removed at the end */
	if (o.baseline && !o.json) {
		const char *dir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
		snprintf(tmp_json, sizeof(tmp_json), "%s/vkqs-bench-XXXXXX.json", dir);
		int fd = mkstemps(tmp_json, 5);
		if (fd < 0)
			die("--baseline: cannot make a temporary result in %s: %s", dir, strerror(errno));
		close(fd);
		o.json = tmp_json;
	}
	utc_now(run.started_at, sizeof(run.started_at));
	char upto[64] = "";
	if (max_procs > procs)
		snprintf(upto, sizeof(upto), " (up to %zu where still wide)", max_procs);
	printf("vkqs: %zu benchmarks on device %u: %s (%s, %s), %u samples, %zu process%s each%s%s\n",
	       nsel, run.device.index, run.device.name, run.device.driver_name,
	       run.device.driver_info, o.repeat, procs, procs == 1 ? "" : "es", upto,
	       o.quick ? ", quick" : "");
	fflush(stdout);
	/* One at a time: benchmarks must not share the machine. */
	struct vkqs_runner_opts ro = runner_opts(&o, &run.device);
	ro.jobs = ro.batch = 1;
	ro.no_fork = ro.verbose = false;
	ro.keep_log_bytes = 8u << 20;
	vkqs_runner_install_signals();
	double t0 = vkqs_monotonic_s();
	/* Round after round: a round interrupted (a signal, a lost device)
	 * ends the run, --max-time ends it before a round would start late;
	 * either way the rounds that ran whole are the result.  The first
	 * `procs` rounds hold every benchmark; then, up to --max-processes,
	 * each round holds the benchmarks a baseline could not yet judge to
	 * their floor (predicted_half_width), until none is left. */
	size_t rounds = 0, kept = 0; /* rounds, and results, that ran whole */
	bool capped = false;
	double alpha = 0;            /* 1 % over the run's metrics */
	bool *settled = calloc(nsel, sizeof(bool));   /* once narrow, no more rounds */
	const struct vkqs_result **mine = calloc(max_procs, sizeof(*mine));
	if (!settled || !mine)
		die("out of memory");
	run.complete = true;
	while (rounds < max_procs) {
		if (rounds && o.max_time_s > 0 && vkqs_monotonic_s() - t0 >= o.max_time_s) {
			capped = rounds < procs;
			break;
		}
		size_t in_round = 0;
		for (size_t i = 0; i < nsel; i++) {
			bool wide = rounds < procs;
			if (!wide && !settled[i]) {
				size_t n = results_of(&run, kept, bench[i], mine);
				char widest[96] = "";
				double hw;
				settled[i] = bench_settled(mine, n, alpha, widest, sizeof(widest), &hw);
				wide = !settled[i];
			}
			if (wide)
				run.results[kept + in_round++].ci = bench[i];
		}
		if (!in_round)
			break;
		run.count = kept + in_round;
		if (!vkqs_runner_run(&ro, run.results + kept, in_round, NULL, NULL, &run.lost)) {
			run.complete = false;
			break;
		}
		bool whole = true;
		for (size_t i = 0; i < in_round; i++)
			whole = whole && run.results[kept + i].done;
		if (whole) {
			kept += in_round;
			rounds++;
		}
		if (!whole || run.lost.at[0]) {
			run.complete = false;
			break;
		}
		if (rounds == procs && procs < max_procs) {
			/* the run's metrics, counted in its first round */
			size_t metrics = 0;
			struct metric(*m)[64] = calloc(1, sizeof(*m));
			if (!m)
				die("out of memory");
			for (size_t i = 0; i < nsel; i++) {
				size_t n = run.results[i].status == VKQS_PASS
						   ? parse_metrics(run.results[i].log, m[0], 64)
						   : 0;
				metrics += n;
				for (size_t k = 0; k < n; k++)
					free(m[0][k].samples);
			}
			free(m);
			alpha = 0.01 / (double)(metrics ? metrics : 1);
		}
	}
	run.wall_s = vkqs_monotonic_s() - t0;
	if (capped)
		printf("vkqs: --max-time %g s reached: %zu of %zu rounds ran\n", o.max_time_s, rounds,
		       procs);
	else if (run.lost.at[0])
		printf("vkqs: the device was lost at %s: %zu of %zu rounds ran whole; the result "
		       "holds them\n", run.lost.at, rounds, procs);
	else if (!run.complete)
		printf("vkqs: %s: %zu of %zu rounds ran whole; the result holds them\n",
		       vkqs_runner_stop_reason() ? vkqs_runner_stop_reason()
						 : "a round did not finish",
		       rounds, procs);
	else if (rounds > procs || max_procs > procs) {
		size_t wide = 0;
		for (size_t i = 0; i < nsel; i++) {
			size_t n = results_of(&run, kept, bench[i], mine);
			char widest[96] = "";
			double hw;
			if (!bench_settled(mine, n, alpha, widest, sizeof(widest), &hw)) {
				wide++;
				printf("vkqs: %s: %s still +-%.1f %% after %zu processes\n",
				       bench[i]->name, widest, 100 * hw, n);
			}
		}
		printf("vkqs: %zu rounds; %zu of %zu benchmarks narrow enough to judge to the floor "
		       "(3 %% device-side, 10 %% host-side)%s\n",
		       rounds, nsel - wide, nsel,
		       wide && rounds < max_procs ? ": --max-time reached" : "");
	}

	/* The table, and the JSON (docs/bench-schema.md) */
	json_t *doc = NULL, *benchmarks = NULL;
	if (o.json) {
		doc = json_object();
		json_object_set_new(doc, "format", json_string("vkqs-bench"));
		json_object_set_new(doc, "format_version", json_integer(3));
		json_object_set_new(doc, "started_at", vkqs_json_text(run.started_at));
		json_object_set_new(doc, "revision", vkqs_json_text(vkqs_revision()));
		json_object_set_new(doc, "wall_s", json_real(run.wall_s));
		json_object_set_new(doc, "complete", json_boolean(run.complete));
		json_object_set_new(doc, "dispatch", json_string("volk per-device table"));
		json_t *opt = json_object();
		json_object_set_new(opt, "repeat", json_integer(o.repeat));
		json_object_set_new(opt, "min_time_s", json_real(o.min_time_s));
		json_object_set_new(opt, "quick", json_boolean(o.quick));
		json_object_set_new(opt, "processes", json_integer((json_int_t)procs));
		json_object_set_new(opt, "max_processes", json_integer((json_int_t)max_procs));
		json_object_set_new(opt, "max_time_s", json_real(o.max_time_s));
		/* how a host-clock sample is taken (bench.h): on each of this
		 * many CPUs, the fastest kept, over at least this long */
		json_object_set_new(opt, "host_cpus", json_integer(vkqs_bench_cpu_spread()));
		json_object_set_new(opt, "host_window_s", json_real(vkqs_bench_host_window_s()));
		json_object_set_new(doc, "options", opt);
		/* the rounds that ran whole: each benchmark's processes */
		json_object_set_new(doc, "processes_done", json_integer((json_int_t)rounds));
		json_object_set_new(doc, "machine", machine_json());
		json_object_set_new(doc, "device", vkqs_json_device(&run.device));
		if (!strcmp(run.device.driver_name, VKQS_REFDEVICE_DRIVER_NAME)) {
			char knobs[4096];
			vkqs_refdevice_knobs(knobs, sizeof(knobs));
			json_object_set_new(doc, "refdevice", vkqs_refdevice_knobs_json(knobs));
		}
		benchmarks = json_array();
		json_object_set_new(doc, "benchmarks", benchmarks);
	}
	size_t failed = 0;
	struct metric(*m)[64] = calloc(max_procs, sizeof(*m));
	size_t *nm = calloc(max_procs, sizeof(*nm));
	if (!m || !nm)
		die("out of memory");
	for (size_t i = 0; i < nsel; i++) {
		/* its processes that ran whole; none: the first round's, as Missing */
		size_t have = results_of(&run, kept, bench[i], mine);
		if (!have)
			mine[have++] = &run.results[i];
		/* the benchmark's outcome: its worst process's */
		const struct vkqs_result *worst = mine[0];
		double duration = 0;
		bool done = true;
		for (size_t r = 0; r < have; r++) {
			const struct vkqs_result *x = mine[r];
			done = done && x->done;
			duration += x->duration_s;
			if (x->done && vkqs_status_severity(x->status) > vkqs_status_severity(worst->status))
				worst = x;
		}
		const char *st = done ? vkqs_status_name(worst->status) : "Missing";
		bool pass = done && worst->status == VKQS_PASS;
		failed += !(done && (worst->status == VKQS_PASS || worst->status == VKQS_NOT_SUPPORTED));
		for (size_t r = 0; r < have; r++)
			nm[r] = pass ? parse_metrics(mine[r]->log, m[r], 64) : 0;
		printf("%-12s %s%s%s\n", st, bench[i]->name, worst->message[0] ? ": " : "",
		       pass ? "" : worst->message);
		json_t *metrics = NULL;
		if (doc) {
			json_t *b = json_object();
			json_object_set_new(b, "name", vkqs_json_text(bench[i]->name));
			json_object_set_new(b, "status", vkqs_json_text(st));
			json_object_set_new(b, "message", vkqs_json_text(pass ? "" : worst->message));
			json_object_set_new(b, "description", vkqs_json_text(bench[i]->c->spec));
			json_object_set_new(b, "duration_s", json_real(duration));
			metrics = json_array();
			json_object_set_new(b, "metrics", metrics);
			json_array_append_new(benchmarks, b);
		}
		for (size_t k = 0; k < nm[0]; k++) {
			struct metric_over mo;
			metric_over(&m[0][k], m, nm, have, &mo);
			/* the console in a readable unit (ns: ns, us, ms, s), the
			 * JSON in the metric's own */
			const char *unit;
			double scale = display_scale(mo.first->unit, mo.median, &unit);
			printf("    %-40s %10.4g %-7s p10 %.4g  p90 %.4g  n %zu (%zu rejected)",
			       mo.first->name, mo.median / scale, unit, mo.pooled.p10 / scale,
			       mo.pooled.p90 / scale, mo.pooled.samples, mo.pooled.rejected);
			if (have > 1)
				printf("  %zu processes %.4g..%.4g %s", mo.have, mo.process_min / scale,
				       mo.process_max / scale, unit);
			putchar('\n');
			if (metrics)
				json_array_append_new(metrics, metric_over_json(&mo));
			free(mo.per);
		}
		for (size_t r = 0; r < have; r++)
			for (size_t k = 0; k < nm[r]; k++)
				free(m[r][k].samples);
	}
	free(m);
	free(nm);
	free(mine);
	free(settled);
	free(bench);
	if (doc) {
		struct vkqs_atomic_file af;
		if (!vkqs_atomic_open(&af, o.json, err, sizeof(err)))
			die("%s", err);
		if (!vkqs_json_dump_compact(doc, af.f)) {
			vkqs_atomic_abort(&af);
			die("cannot write %s: out of memory or a write error", o.json);
		}
		if (!vkqs_atomic_commit(&af, err, sizeof(err)))
			die("%s", err);
	}
	printf("%zu benchmarks (%zu processes) in %.1f s, %zu failed or crashed\n", nsel, kept,
	       run.wall_s, failed);
	bool complete = run.complete, lost = run.lost.at[0] != 0;
	vkqs_run_free_results(&run);
	free(o.filters);
	vkqs_registry_free(&reg);
	int against = 0;
	if (o.baseline && complete) {
		printf("\n== Against the baseline %s\n", o.baseline);
		against = compare_with_baseline(o.json, o.baseline, NULL, 0);
	}
	if (*tmp_json)
		unlink(tmp_json);
	/* a lost device is a failure, not an interruption */
	if (!complete)
		return lost ? EXIT_UNEXPECTED : 130;
	if (against == 2)
		return 2;
	return failed || against ? EXIT_UNEXPECTED : 0;
}
