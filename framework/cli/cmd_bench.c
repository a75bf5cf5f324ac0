/* vkqs bench: the microbenchmarks, each in fresh processes (docs/bench.md). */
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
#include "json.h"
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
	struct vkqs_runner_opts ro = runner_opts(&o, &run.device);
	ro.jobs = ro.batch = 1;
	ro.no_fork = ro.verbose = false;
	ro.keep_log_bytes = 8u << 20;
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
	bool complete = run.complete;
	vkqs_run_free_results(&run);
	free(o.filters);
	vkqs_registry_free(&reg);
	if (!complete)
		return 130;
	return failed ? EXIT_UNEXPECTED : 0;
}
