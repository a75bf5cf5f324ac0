/* Microbenchmarks (`vkqs bench`).
 *
 * A benchmark is a case of the bench areas (suite/bench/), run by the same
 * runner in its own child process, one at a time: a crash or hang is
 * reported and the run goes on.  It reports named metrics, each a list of
 * samples taken after warm-up, with vkqs_bench_metric(); the samples travel
 * to the parent in the case's log ("@metric" lines) and the parent
 * summarises them (median, p10, p90, min, max, MAD, samples, outliers
 * rejected) and writes the JSON of docs/bench-schema.md. */
#ifndef VKQS_BENCH_H
#define VKQS_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vkqs.h"

/* The areas of benchmarks (suite/bench/), NULL-terminated. */
extern const struct vkqs_area *const vkqs_bench_areas[];

/* Samples to take per metric (--repeat; fewer with --quick), the least
 * wall time a benchmark should spend sampling (--min-time), and whether
 * this is a smoke run (--quick: small sizes, few samples). */
uint32_t vkqs_bench_repeat(void);
double vkqs_bench_min_time_s(void);
bool vkqs_bench_quick(void);

/* The CPUs a host-clock sample visits.  On a shared machine (the lent
 * virtual machines) the same host code runs at one of two speeds, about
 * 1.5x apart, on each CPU, and which CPUs are slow changes within tens of
 * milliseconds (docs/bench-stability.md): a thread that stays on one CPU
 * for a benchmark's sampling gets one draw for the whole process.  So a
 * host-clock sample times its operation once on each of
 * vkqs_bench_cpu_spread() CPUs of the process's affinity (all of them, at
 * most 16; `taskset` narrows the set), one after the other, and keeps the
 * fastest: the operation's cost where nothing else slowed it.
 * vkqs_bench_pin_next() pins the calling thread to the next CPU of the
 * rotation (false where it cannot: the sample then runs where it is);
 * vkqs_bench_unpin() gives the thread its whole affinity back. */
unsigned vkqs_bench_cpu_spread(void);
/* The least time a host-clock metric's samples span (unless --quick, or
 * --min-time is longer): on a shared machine the whole machine runs host
 * code up to 4x slower for tens of milliseconds at a time, and a process
 * whose samples all fall in one such stretch would report it as its level
 * (docs/bench-stability.md). */
#define VKQS_BENCH_HOST_WINDOW_S 0.2
/* The least time a host-clock metric's samples span in this run: the
 * window, --min-time where longer, --min-time alone with --quick.  Read
 * from the options the parent passes its children (VKQS_BENCH_*), so the
 * parent's record of a run and its children's sampling agree. */
double vkqs_bench_host_window_s(void);
bool vkqs_bench_pin_next(void);
void vkqs_bench_unpin(void);

/* Which clock a metric's time comes from: the device's (timestamps; a
 * figure of GPU work) or the host's (CLOCK_MONOTONIC around driver calls
 * and host code).  docs/bench-regressions.md: the two classes differ in
 * run-to-run noise and in the smallest change a baseline judges. */
enum vkqs_bench_clock { VKQS_BENCH_DEVICE, VKQS_BENCH_HOST };

/* Reports one metric of the running benchmark: `n` samples in `unit`
 * ("ns", "ns/query", "GB/s", "ppm", ...).  lower_is_better says which way
 * a regression goes. */
void vkqs_bench_metric(struct vkqs_ctx *ctx, const char *name, const char *unit,
		       bool lower_is_better, enum vkqs_bench_clock clock, const double *samples,
		       size_t n);

/* Summary statistics of samples (the parent's side; exported for tests).
 * Outliers: samples farther than 5 scaled MADs (1.4826 MAD) from the
 * median are rejected; the other figures are over the samples kept. */
struct vkqs_bench_stats {
	double median, p10, p90, min, max, mad;
	size_t samples, rejected;
};
void vkqs_bench_summarize(const double *samples, size_t n, struct vkqs_bench_stats *out);
/* The two halves of vkqs_bench_summarize: the samples kept (sorted, into
 * kept[0..n), returning how many), and the figures of samples already
 * kept (rejected is carried through).  `vkqs bench --processes` pools the
 * kept samples of every process with them. */
size_t vkqs_bench_keep(const double *samples, size_t n, double *kept);
void vkqs_bench_describe(const double *kept, size_t k, size_t rejected,
			 struct vkqs_bench_stats *out);

#endif
