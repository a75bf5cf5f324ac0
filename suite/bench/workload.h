/* Per-workload costing (workload.c), a benchmark of suite/bench/bench.c's table. */
#ifndef VKQS_BENCH_WORKLOAD_H
#define VKQS_BENCH_WORKLOAD_H

#include "vkqs.h"

#include <stdbool.h>
#include <stddef.h>

void vkqs_bench_workload_costing(struct vkqs_ctx *ctx, const void *param);
/* Its parameter: with a second queue or not. */
extern const bool vkqs_bench_workload_queues[2];
void vkqs_bench_workload_queues_name(const void *p, char *b, size_t n);

#endif
