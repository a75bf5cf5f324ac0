/* Microbenchmark support (bench.h): the child's side (options, metrics
 * into the log) and the parent's (statistics). */
#include "bench.h"

#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static double env_double(const char *name, double def)
{
	const char *v = getenv(name);
	return v && *v ? strtod(v, NULL) : def;
}

uint32_t vkqs_bench_repeat(void)
{
	double r = env_double("VKQS_BENCH_REPEAT", 30);
	return r < 1 ? 1 : r > 100000 ? 100000 : (uint32_t)r;
}

double vkqs_bench_min_time_s(void)
{
	return env_double("VKQS_BENCH_MIN_TIME", 0.1);
}

bool vkqs_bench_quick(void)
{
	const char *v = getenv("VKQS_BENCH_QUICK");
	return v && !strcmp(v, "1");
}

double vkqs_bench_host_window_s(void)
{
	const double min_s = vkqs_bench_min_time_s();
	if (vkqs_bench_quick() || min_s >= VKQS_BENCH_HOST_WINDOW_S)
		return min_s;
	return VKQS_BENCH_HOST_WINDOW_S;
}

/* The rotation over the process's CPUs (bench.h), read at first use in
 * each process: a child forked after its parent read it reads its own
 * (its affinity may have been narrowed since), never the parent's. */
static struct {
	pid_t pid; /* the process that read it; 0: none */
	cpu_set_t home;
	unsigned n, next;
	int cpu[CPU_SETSIZE];
} rot;

static void rotation_read(void)
{
	const pid_t self = getpid();
	if (rot.pid == self)
		return;
	rot.pid = self;
	rot.n = rot.next = 0;
	CPU_ZERO(&rot.home);
	if (sched_getaffinity(0, sizeof(rot.home), &rot.home))
		return;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &rot.home))
			rot.cpu[rot.n++] = c;
}

unsigned vkqs_bench_cpu_spread(void)
{
	rotation_read();
	return rot.n == 0 ? 1 : rot.n > 16 ? 16 : rot.n;
}

bool vkqs_bench_pin_next(void)
{
	rotation_read();
	if (rot.n < 2)
		return false;
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(rot.cpu[rot.next++ % rot.n], &one);
	return sched_setaffinity(0, sizeof(one), &one) == 0;
}

void vkqs_bench_unpin(void)
{
	if (rot.pid == getpid() && rot.n >= 2)
		sched_setaffinity(0, sizeof(rot.home), &rot.home);
}

/* One line per metric in the case's log: "@metric <name> <unit> <lower>
 * <clock> <n> s1 s2 ...", read back by the parent (vkqs bench). */
void vkqs_bench_metric(struct vkqs_ctx *ctx, const char *name, const char *unit,
		       bool lower_is_better, enum vkqs_bench_clock clock, const double *samples,
		       size_t n)
{
	/* a figure is the benchmark's check: none is an internal error */
	ctx->checks++;
	if (n == 0)
		return;
	fprintf(stdout, "@metric %s %s %d %s %zu", name, unit, lower_is_better ? 1 : 0,
		clock == VKQS_BENCH_HOST ? "host" : "device", n);
	for (size_t i = 0; i < n; i++)
		fprintf(stdout, " %.9g", samples[i]);
	fputc('\n', stdout);
	fflush(stdout);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The q-quantile of sorted v[0..n), linear between ranks. */
static double quantile(const double *v, size_t n, double q)
{
	if (n == 0)
		return 0;
	double pos = q * (double)(n - 1);
	size_t i = (size_t)pos;
	double f = pos - (double)i;
	return i + 1 < n ? v[i] * (1 - f) + v[i + 1] * f : v[i];
}

size_t vkqs_bench_keep(const double *samples, size_t n, double *kept)
{
	if (n == 0)
		return 0;
	double *dev = malloc(n * sizeof(*dev));
	if (!dev)
		return 0;
	memcpy(kept, samples, n * sizeof(*kept));
	qsort(kept, n, sizeof(*kept), cmp_double);
	double med = quantile(kept, n, 0.5);
	for (size_t i = 0; i < n; i++)
		dev[i] = fabs(kept[i] - med);
	qsort(dev, n, sizeof(*dev), cmp_double);
	double mad = quantile(dev, n, 0.5);
	free(dev);
	/* Reject samples beyond 5 scaled MADs (none when MAD is 0: then every
	 * sample not equal to the median would go). */
	size_t k = 0;
	double limit = 5 * 1.4826 * mad;
	for (size_t i = 0; i < n; i++)
		if (mad == 0 || fabs(kept[i] - med) <= limit)
			kept[k++] = kept[i];
	return k;
}

void vkqs_bench_describe(const double *kept, size_t k, size_t rejected,
			 struct vkqs_bench_stats *out)
{
	memset(out, 0, sizeof(*out));
	out->rejected = rejected;
	if (k == 0)
		return;
	double *v = malloc(k * sizeof(*v));
	if (!v)
		return;
	memcpy(v, kept, k * sizeof(*v));
	qsort(v, k, sizeof(*v), cmp_double);
	out->samples = k;
	out->median = quantile(v, k, 0.5);
	out->p10 = quantile(v, k, 0.1);
	out->p90 = quantile(v, k, 0.9);
	out->min = v[0];
	out->max = v[k - 1];
	for (size_t i = 0; i < k; i++)
		v[i] = fabs(v[i] - out->median);
	qsort(v, k, sizeof(*v), cmp_double);
	out->mad = quantile(v, k, 0.5);
	free(v);
}

void vkqs_bench_summarize(const double *samples, size_t n, struct vkqs_bench_stats *out)
{
	memset(out, 0, sizeof(*out));
	if (n == 0)
		return;
	double *v = malloc(n * sizeof(*v));
	if (!v)
		return;
	size_t k = vkqs_bench_keep(samples, n, v);
	vkqs_bench_describe(v, k, n - k, out);
	free(v);
}
