/* VK_KHR_performance_query: the counters, their passes and the profiling
 * lock (spec 18.6; refdevice/README.md "Performance counters" says what
 * each counter counts).  Every counter is a reader of the one counter sink
 * (STYLE 17): a function of a query's begin/end difference of struct
 * rd_counters. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "rd.h"
#include "rd_api.h"

#define U(x) VK_PERFORMANCE_COUNTER_UNIT_##x##_KHR
#define S(x) VK_PERFORMANCE_COUNTER_SCOPE_##x##_KHR
#define T(x) VK_PERFORMANCE_COUNTER_STORAGE_##x##_KHR
#define IMPACT VK_PERFORMANCE_COUNTER_DESCRIPTION_PERFORMANCE_IMPACTING_BIT_KHR
#define CONCURRENT VK_PERFORMANCE_COUNTER_DESCRIPTION_CONCURRENTLY_IMPACTED_BIT_KHR

/* The modelled clock runs at 1 GHz: a cycle is a nanosecond. */
#define CLOCK_HZ 1000000000ull

enum group { PIPELINE, MEMORY, CLOCK };

static const struct counter {
	const char *name, *category, *description;
	VkPerformanceCounterUnitKHR unit;
	VkPerformanceCounterScopeKHR scope;
	VkPerformanceCounterStorageKHR storage;
	VkPerformanceCounterDescriptionFlagsKHR flags;
	enum group group;
} counters[RD_PERF_COUNTERS] = {
	{"draws", "pipeline", "Draws executed; each draw of an indirect draw counts",
	 U(GENERIC), S(COMMAND), T(UINT32), 0, PIPELINE},
	{"dispatches", "pipeline", "Dispatches executed",
	 U(GENERIC), S(COMMAND), T(UINT32), 0, PIPELINE},
	{"vertex_invocations", "pipeline", "Vertex shader invocations",
	 U(GENERIC), S(COMMAND), T(UINT64), 0, PIPELINE},
	{"fragment_invocations", "pipeline", "Fragment shader invocations",
	 U(GENERIC), S(COMMAND), T(UINT64), 0, PIPELINE},
	{"compute_invocations", "pipeline", "Compute shader invocations",
	 U(GENERIC), S(COMMAND), T(UINT64), 0, PIPELINE},
	{"samples_passed", "pipeline", "Samples that passed the per-fragment tests, all views",
	 U(GENERIC), S(COMMAND), T(UINT64), 0, PIPELINE},
	{"primitives_discarded", "pipeline",
	 "Input assembly primitives minus primitives out of clipping (signed)",
	 U(GENERIC), S(COMMAND), T(INT64), 0, PIPELINE},
	{"commands", "pipeline", "Commands executed, each once however a render pass runs",
	 U(GENERIC), S(COMMAND), T(INT32), 0, PIPELINE},
	{"render_passes", "pipeline", "Render pass instances begun",
	 U(GENERIC), S(RENDER_PASS), T(UINT32), 0, PIPELINE},
	{"bytes_transferred", "memory", "Bytes of vkCmdCopyBuffer, vkCmdFillBuffer, vkCmdUpdateBuffer",
	 U(BYTES), S(COMMAND), T(UINT64), IMPACT, MEMORY},
	{"transfer_rate", "memory", "bytes_transferred per second of elapsed device time",
	 U(BYTES_PER_SECOND), S(COMMAND), T(FLOAT64), IMPACT, MEMORY},
	{"tile_store_bytes", "memory", "Bytes tiles wrote back to memory (0 on the immediate architecture)",
	 U(BYTES), S(RENDER_PASS), T(UINT64), IMPACT, MEMORY},
	{"elapsed_ns", "clock", "Device time between begin and end",
	 U(NANOSECONDS), S(COMMAND_BUFFER), T(UINT64), CONCURRENT, CLOCK},
	{"device_cycles", "clock", "Device clock cycles between begin and end (1 GHz)",
	 U(CYCLES), S(COMMAND_BUFFER), T(UINT64), CONCURRENT, CLOCK},
	{"shader_busy", "clock", "Shader time over all modelled work time, percent",
	 U(PERCENTAGE), S(COMMAND_BUFFER), T(FLOAT64), 0, CLOCK},
	{"clock_frequency", "clock", "The device clock: 1000000000 Hz",
	 U(HERTZ), S(COMMAND), T(UINT64), 0, CLOCK},
	{"temperature", "power", "Modelled die temperature: 300 K + 50 K x shader share",
	 U(KELVIN), S(COMMAND_BUFFER), T(FLOAT32), CONCURRENT, CLOCK},
	{"board_power", "power", "Modelled power: 20 W + 80 W x shader share",
	 U(WATTS), S(COMMAND_BUFFER), T(FLOAT32), CONCURRENT, CLOCK},
	{"core_voltage", "power", "Modelled voltage: 0.7 V + 0.2 V x shader share",
	 U(VOLTS), S(COMMAND_BUFFER), T(FLOAT32), CONCURRENT, CLOCK},
	{"core_current", "power", "board_power / core_voltage",
	 U(AMPS), S(COMMAND_BUFFER), T(FLOAT64), CONCURRENT, CLOCK},
};

uint32_t rd_perf_group(uint32_t counter)
{
	return counter < RD_PERF_COUNTERS ? counters[counter].group : 0;
}

static uint64_t samples(const struct rd_counters *d)
{
	uint64_t t = 0;
	for (int v = 0; v < RD_MAX_VIEWS; v++)
		t += d->draw.samples_passed[v];
	return t;
}

/* The share of modelled work spent running shaders, 0..1. */
static double shader_share(const struct rd_counters *d)
{
	return d->work_ns ? (double)d->shader_ns / (double)d->work_ns : 0.0;
}

VkPerformanceCounterResultKHR rd_perf_value(uint32_t counter, const struct rd_counters *d)
{
	VkPerformanceCounterResultKHR r;
	memset(&r, 0, sizeof(r)); /* the bytes past a 32-bit value are zero */
	double share = shader_share(d);
	switch (counter) {
	case 0: r.uint32 = (uint32_t)d->draws; break;
	case 1: r.uint32 = (uint32_t)d->dispatches; break;
	case 2: r.uint64 = d->draw.vs_invocations; break;
	case 3: r.uint64 = rd_fs_invocations(&d->draw); break;
	case 4: r.uint64 = d->cs_invocations; break;
	case 5: r.uint64 = samples(d); break;
	case 6: r.int64 = (int64_t)d->draw.ia_primitives - (int64_t)d->draw.clipping_primitives; break;
	case 7: r.int32 = (int32_t)d->commands; break;
	case 8: r.uint32 = (uint32_t)d->render_passes; break;
	case 9: r.uint64 = d->bytes_transferred; break;
	case 10:
		r.float64 = d->time_ns ? (double)d->bytes_transferred * 1e9 / (double)d->time_ns : 0.0;
		break;
	case 11: r.uint64 = d->tile_store_bytes; break;
	case 12: r.uint64 = d->time_ns; break;
	case 13: r.uint64 = d->time_ns * (CLOCK_HZ / 1000000000ull); break;
	case 14: r.float64 = 100.0 * share; break;
	case 15: r.uint64 = CLOCK_HZ; break;
	case 16: r.float32 = (float)(300.0 + 50.0 * share); break;
	case 17: r.float32 = (float)(20.0 + 80.0 * share); break;
	case 18: r.float32 = (float)(0.7 + 0.2 * share); break;
	case 19: r.float64 = (20.0 + 80.0 * share) / (0.7 + 0.2 * share); break;
	default: break;
	}
	return r;
}

/* The graphics family has the counters; the transfer family records no
 * queries a performance pool could hold (vkCmdBeginQuery needs graphics or
 * compute) and has none. */
static uint32_t family_counters(uint32_t family)
{
	return family == RD_FAMILY_GRAPHICS ? RD_PERF_COUNTERS : 0;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_EnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR(
	VkPhysicalDevice physicalDevice, uint32_t queueFamilyIndex, uint32_t *pCounterCount,
	VkPerformanceCounterKHR *pCounters, VkPerformanceCounterDescriptionKHR *pCounterDescriptions)
{
	RD_FROM_HANDLE(rd_physical_device, pd, physicalDevice);
	uint32_t n = family_counters(queueFamilyIndex);
	if (!pCounters && !pCounterDescriptions) {
		*pCounterCount = n;
		return VK_SUCCESS;
	}
	uint32_t w = *pCounterCount < n ? *pCounterCount : n;
	for (uint32_t i = 0; i < w; i++) {
		const struct counter *k = &counters[i];
		if (pCounters) {
			pCounters[i].unit = k->unit;
			pCounters[i].scope = k->scope;
			pCounters[i].storage = k->storage;
			/* "vkqs-refdev" and the counter index: stable across runs */
			memset(pCounters[i].uuid, 0, VK_UUID_SIZE);
			memcpy(pCounters[i].uuid, "vkqs-refdev-pc", 14);
			pCounters[i].uuid[15] =
				(uint8_t)(rd_fault(&pd->instance->config, RD_FAULT_PERF_UUID) ? i / 2 : i);
		}
		if (pCounterDescriptions) {
			VkPerformanceCounterDescriptionKHR *d = &pCounterDescriptions[i];
			d->flags = k->flags;
			snprintf(d->name, sizeof(d->name), "%s", k->name);
			snprintf(d->category, sizeof(d->category), "%s", k->category);
			snprintf(d->description, sizeof(d->description), "%s", k->description);
		}
	}
	*pCounterCount = w;
	if (rd_fault(&pd->instance->config, RD_FAULT_PERF_NO_INCOMPLETE))
		return VK_SUCCESS;
	return w < n ? VK_INCOMPLETE : VK_SUCCESS;
}

/* One pass per group the pool's counters come from. */
static uint32_t passes(const struct rd_config *c, uint32_t family, uint32_t count,
		       const uint32_t *indices, uint32_t pass_group[RD_PERF_GROUPS])
{
	bool used[RD_PERF_GROUPS] = {false};
	for (uint32_t i = 0; i < count; i++)
		if (indices[i] < family_counters(family))
			used[counters[indices[i]].group] = true;
	uint32_t n = 0;
	for (uint32_t g = 0; g < RD_PERF_GROUPS; g++)
		if (used[g]) {
			if (pass_group)
				pass_group[n] = g;
			n++;
		}
	/* the fault: one pass claimed, the other groups never collected */
	return rd_fault(c, RD_FAULT_PERF_PASSES_ONE) && n > 1 ? 1 : n;
}

VKAPI_ATTR void VKAPI_CALL rd_GetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR(
	VkPhysicalDevice physicalDevice, const VkQueryPoolPerformanceCreateInfoKHR *ci,
	uint32_t *pNumPasses)
{
	RD_FROM_HANDLE(rd_physical_device, pd, physicalDevice);
	*pNumPasses = passes(&pd->instance->config, ci->queueFamilyIndex, ci->counterIndexCount,
			     ci->pCounterIndices, NULL);
}

/* The pool's counters and passes (rd_CreateQueryPool). */
VkResult rd_perf_pool_init(struct rd_query_pool *p, const VkQueryPoolCreateInfo *ci)
{
	const VkQueryPoolPerformanceCreateInfoKHR *pc = NULL;
	for (const VkBaseInStructure *s = ci->pNext; s; s = s->pNext)
		if (s->sType == VK_STRUCTURE_TYPE_QUERY_POOL_PERFORMANCE_CREATE_INFO_KHR)
			pc = (const void *)s;
	if (!pc || pc->counterIndexCount == 0)
		return RD_ERROR(VK_ERROR_INITIALIZATION_FAILED,
				"vkCreateQueryPool: a performance pool needs counters "
				"(VUID-VkQueryPoolCreateInfo-queryType-03222)");
	for (uint32_t i = 0; i < pc->counterIndexCount; i++)
		if (pc->pCounterIndices[i] >= family_counters(pc->queueFamilyIndex))
			return RD_ERROR(VK_ERROR_INITIALIZATION_FAILED,
					"vkCreateQueryPool: counter index %u is not one of family "
					"%u's (VUID-VkQueryPoolPerformanceCreateInfoKHR-pCounterIndices-03321)",
					pc->pCounterIndices[i], pc->queueFamilyIndex);
	p->value_count = pc->counterIndexCount;
	p->counters = calloc(pc->counterIndexCount, sizeof(*p->counters));
	p->passes_done = calloc(p->count ? p->count : 1, sizeof(*p->passes_done));
	if (!p->counters || !p->passes_done)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	memcpy(p->counters, pc->pCounterIndices, pc->counterIndexCount * sizeof(*p->counters));
	p->pass_count = passes(&p->base.device->instance->config, pc->queueFamilyIndex,
			       pc->counterIndexCount, pc->pCounterIndices, p->pass_group);
	return VK_SUCCESS;
}

/* The profiling lock (18.6.1) -------------------------------------------------*/

/* One lock for the machine: an flock on a file every process using the
 * refdevice opens (RD_PROFILING_LOCK_FILE, default below), so a device in
 * another process, or another device in this one, waits.  Opened
 * read-only: flock needs no write access, so users share it. */
#define DEFAULT_LOCK_FILE "/tmp/vkqs-refdevice-profiling.lock"

static int open_lock(const struct rd_config *c)
{
	char path[512];
	const char *base = c->profiling_lock_file ? c->profiling_lock_file : DEFAULT_LOCK_FILE;
	/* The fault: a lock file per process, so other processes never wait. */
	if (rd_fault(c, RD_FAULT_PERF_LOCK_PER_PROCESS))
		snprintf(path, sizeof(path), "%s.%ld", base, (long)getpid());
	else
		snprintf(path, sizeof(path), "%s", base);
	return open(path, O_RDONLY | O_CREAT | O_CLOEXEC, 0644);
}

VKAPI_ATTR VkResult VKAPI_CALL rd_AcquireProfilingLockKHR(VkDevice device,
							 const VkAcquireProfilingLockInfoKHR *info)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	const struct rd_config *c = &dev->instance->config;
	if (dev->profiling_lock_fd >= 0)
		return VK_SUCCESS; /* this device holds it already */
	int fd = open_lock(c);
	if (fd < 0)
		return RD_ERROR(VK_ERROR_UNKNOWN, "vkAcquireProfilingLockKHR: cannot open the lock file: %s",
				strerror(errno));
	uint64_t timeout = info->timeout;
	/* the fault: a finite timeout tries once, as timeout 0 */
	if (rd_fault(c, RD_FAULT_PERF_LOCK_NO_WAIT) && timeout != UINT64_MAX)
		timeout = 0;
	if (timeout == UINT64_MAX) {
		/* "will not return until the profiling lock was acquired" */
		while (flock(fd, LOCK_EX) != 0)
			if (errno != EINTR) {
				close(fd);
				return RD_ERROR(VK_ERROR_UNKNOWN, "vkAcquireProfilingLockKHR: flock: %s",
						strerror(errno));
			}
	} else {
		/* timeout 0: one try, no blocking; else try until the deadline */
		uint64_t start = rd_now_ns();
		for (;;) {
			if (flock(fd, LOCK_EX | LOCK_NB) == 0)
				break;
			if (errno != EWOULDBLOCK && errno != EINTR) {
				close(fd);
				return RD_ERROR(VK_ERROR_UNKNOWN, "vkAcquireProfilingLockKHR: flock: %s",
						strerror(errno));
			}
			uint64_t waited = rd_now_ns() - start;
			if (waited >= timeout) {
				close(fd);
				return VK_TIMEOUT;
			}
			uint64_t nap = timeout - waited < 500000 ? timeout - waited : 500000;
			struct timespec ts = {0, (long)nap};
			nanosleep(&ts, NULL);
		}
	}
	dev->profiling_lock_fd = fd;
	return VK_SUCCESS;
}

void rd_perf_release_lock(struct rd_device *dev)
{
	if (dev->profiling_lock_fd < 0)
		return;
	flock(dev->profiling_lock_fd, LOCK_UN);
	close(dev->profiling_lock_fd);
	dev->profiling_lock_fd = -1;
}

VKAPI_ATTR void VKAPI_CALL rd_ReleaseProfilingLockKHR(VkDevice device)
{
	rd_perf_release_lock((struct rd_device *)device);
}
