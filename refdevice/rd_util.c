/* Logging, allocation, the variation knobs and the device clock. */
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rd.h"
#include "numparse.h"

void rd_log(const char *fmt, ...)
{
	va_list ap;
	fputs("refdevice: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void rd_log_at(const char *file, int line)
{
	if (getenv("RD_DEBUG"))
		fprintf(stderr, "refdevice:   at %s:%d\n", file, line);
}

void *rd_zalloc(const VkAllocationCallbacks *a, size_t size)
{
	if (a && a->pfnAllocation) {
		void *p = a->pfnAllocation(a->pUserData, size, 16,
					   VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
		if (p)
			memset(p, 0, size);
		return p;
	}
	return calloc(1, size);
}

void rd_free(const VkAllocationCallbacks *a, void *p)
{
	if (!p)
		return;
	if (a && a->pfnFree)
		a->pfnFree(a->pUserData, p);
	else
		free(p);
}

void *rd_object_alloc(struct rd_device *dev, const VkAllocationCallbacks *a, size_t size,
		      VkObjectType type)
{
	struct rd_object *o = rd_zalloc(a ? a : (dev && dev->has_alloc ? &dev->alloc : NULL), size);
	if (!o)
		return NULL;
	set_loader_magic_value(o);
	o->type = type;
	o->device = dev;
	return o;
}

uint64_t rd_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static double spin_per_ns;
static pthread_once_t spin_once = PTHREAD_ONCE_INIT;

static void spin(uint64_t n)
{
	for (volatile uint64_t i = 0; i < n; i++)
		;
}

static void spin_calibrate(void)
{
	const uint64_t n = 1u << 22;
	uint64_t t0 = rd_now_ns();
	spin(n);
	uint64_t dt = rd_now_ns() - t0;
	spin_per_ns = (double)n / (double)(dt ? dt : 1);
}

void rd_spin_ns(uint64_t ns)
{
	pthread_once(&spin_once, spin_calibrate);
	spin((uint64_t)((double)ns * spin_per_ns));
}

/* Knobs ------------------------------------------------------------------*/

static const char *env(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

/* A knob with a value it does not take makes the instance fail to start
 * (rd_config.invalid): a misspelt value must not give a green run of
 * another configuration. */
static __attribute__((format(printf, 2, 3))) void refuse(struct rd_config *c, const char *fmt, ...)
{
	char msg[4608];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	rd_log("%s: the reference device refuses to start", msg);
	c->invalid = true;
}

/* Numbers through vkqs's one parser (common/numparse.h): digits only. */
static uint64_t env_u64(struct rd_config *c, const char *name, uint64_t def, uint64_t min,
			uint64_t max)
{
	const char *v = env(name);
	if (!v)
		return def;
	unsigned long long x;
	if (!vkqs_parse_u64(v, min, max, &x)) {
		refuse(c, "%s=%s is not a number in [%llu, %llu]", name, v,
		       (unsigned long long)min, (unsigned long long)max);
		return def;
	}
	return x;
}

/* "WxH", each a number in [min, max]. */
static bool parse_wxh(const char *v, unsigned min, unsigned max, unsigned *w, unsigned *h)
{
	const char *x = strchr(v, 'x');
	char first[24];
	unsigned long long a, b;
	if (!x || (size_t)(x - v) >= sizeof(first))
		return false;
	snprintf(first, sizeof(first), "%.*s", (int)(x - v), v);
	if (!vkqs_parse_u64(first, min, max, &a) || !vkqs_parse_u64(x + 1, min, max, &b))
		return false;
	*w = (unsigned)a;
	*h = (unsigned)b;
	return true;
}

static int env_choice(struct rd_config *c, const char *name, const char *const *choices,
		      int def)
{
	const char *v = env(name);
	if (!v)
		return def;
	char list[256] = "";
	for (int i = 0; choices[i]; i++) {
		if (!strcmp(v, choices[i]))
			return i;
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "",
			 choices[i]);
	}
	refuse(c, "%s=%s is not one of %s", name, v, list);
	return def;
}

/* Every knob rd_config_load reads (and RD_DEBUG): another RD_ name in the
 * environment is most likely a misspelt knob. */
static const char *const knob_names[] = {
	"RD_ARCH", "RD_TILE", "RD_REGION", "RD_TIMESTAMP_PERIOD", "RD_TIMESTAMP_VALID_BITS",
	"RD_TRANSFER_TIMESTAMP_VALID_BITS", "RD_NONPRECISE_OCCLUSION", "RD_MULTIVIEW_QUERIES",
	"RD_RESULT_OVERFLOW", "RD_AVAILABILITY_VALUE", "RD_RESULT_LATENCY_US",
	"RD_DRAW_DELAY_US", "RD_HOST_STALL_MS", "RD_BENCH_SLOWDOWN", "RD_BENCH_BUSY_CPU", "RD_NOT_READY", "RD_UNAVAILABLE_VALUES",
	"RD_PARTIAL_VALUES", "RD_COMMAND_COST_NS", "RD_MAX_DEVIATION_NS", "RD_CLOCK",
	"RD_CLOCK_START", "RD_INSTRUMENT_BLOCKS", "RD_PROFILING_LOCK_FILE", "RD_FAULT",
	"RD_WEDGE_FILE", "RD_WEDGE_AFTER", "RD_VIDEO_MIN_CODED_EXTENT", "RD_META_DRAWS",
	"RD_DEBUG", NULL};

extern char **environ;

static void check_knob_names(struct rd_config *c)
{
	for (char **e = environ; e && *e; e++) {
		if (strncmp(*e, "RD_", 3) != 0)
			continue;
		size_t len = strcspn(*e, "=");
		bool known = false;
		for (int i = 0; knob_names[i] && !known; i++)
			known = strlen(knob_names[i]) == len && !strncmp(*e, knob_names[i], len);
		if (!known)
			refuse(c, "%.*s is not a knob of the reference device (refdevice/README.md "
				  "lists them)", (int)len, *e);
	}
}

void rd_config_load(struct rd_config *c)
{
	static const char *const np[] = {"exact", "one", "other", "per_read", NULL};
	static const char *const mv[] = {"first", "spread", "reversed", NULL};
	static const char *const ov[] = {"wrap", "saturate", NULL};
	static const char *const clk[] = {"model", "host", NULL};
	static const char *const arch[] = {"immediate", "tiler", NULL};
	memset(c, 0, sizeof(*c));
	check_knob_names(c);
	c->arch = (enum rd_arch)env_choice(c, "RD_ARCH", arch, 0);
	/* RD_TILE=WxH, each 8..256: any size, not only powers of two. */
	c->tile_w = c->tile_h = 32;
	const char *t = env("RD_TILE");
	if (t) {
		unsigned w = 0, h = 0;
		if (!parse_wxh(t, 8, 256, &w, &h))
			refuse(c, "RD_TILE=%s is not WxH with each in [8, 256]", t);
		else
			c->tile_w = w, c->tile_h = h;
	}
	/* RD_REGION=WxH: a region of VK_ARM_performance_counters_by_region is
	 * a whole number of tiles. */
	c->region_w = c->tile_w;
	c->region_h = c->tile_h;
	const char *r = env("RD_REGION");
	if (r) {
		unsigned w = 0, h = 0;
		if (!parse_wxh(r, 1, 4096, &w, &h) || w % c->tile_w || h % c->tile_h)
			refuse(c, "RD_REGION=%s is not WxH with each a multiple of the tile's %ux%u",
			       r, c->tile_w, c->tile_h);
		else
			c->region_w = w, c->region_h = h;
	}
	/* RD_VIDEO_MIN_CODED_EXTENT=WxH: VkVideoCapabilitiesKHR::minCodedExtent
	 * of the encoder, whole macroblocks; an application's coded extent may
	 * then exceed the picture it wanted (e.g. 80x64 for 64x64). */
	c->video_min_w = c->video_min_h = 16;
	const char *ve = env("RD_VIDEO_MIN_CODED_EXTENT");
	if (ve) {
		unsigned w = 0, h = 0;
		if (!parse_wxh(ve, 16, RD_VIDEO_MAX_EXTENT, &w, &h) || w % 16 || h % 16)
			refuse(c, "RD_VIDEO_MIN_CODED_EXTENT=%s is not WxH, multiples of 16 in "
				  "[16, %d]", ve, RD_VIDEO_MAX_EXTENT);
		else
			c->video_min_w = w, c->video_min_h = h;
	}
	const char *p = env("RD_TIMESTAMP_PERIOD");
	c->timestamp_period = 1.0f;
	if (p) {
		double f;
		if (!vkqs_parse_decimal(p, 0, true, 1e6, &f))
			refuse(c, "RD_TIMESTAMP_PERIOD=%s is not a positive number", p);
		else
			c->timestamp_period = (float)f;
	}
	/* VkQueueFamilyProperties: "The valid range for the count is 36 to 64
	 * bits, or a value of 0". */
	c->timestamp_valid_bits = (uint32_t)env_u64(c, "RD_TIMESTAMP_VALID_BITS", 64, 36, 64);
	c->transfer_valid_bits = (uint32_t)env_u64(c, "RD_TRANSFER_TIMESTAMP_VALID_BITS", 48, 36, 64);
	c->nonprecise = (enum rd_nonprecise_mode)env_choice(c, "RD_NONPRECISE_OCCLUSION", np, 0);
	c->multiview = (enum rd_multiview_mode)env_choice(c, "RD_MULTIVIEW_QUERIES", mv, 0);
	c->overflow = (enum rd_overflow_mode)env_choice(c, "RD_RESULT_OVERFLOW", ov, 0);
	c->availability_value = env_u64(c, "RD_AVAILABILITY_VALUE", 1, 1, UINT32_MAX);
	c->result_latency_us = (uint32_t)env_u64(c, "RD_RESULT_LATENCY_US", 0, 0, 10000000);
	c->draw_delay_us = (uint32_t)env_u64(c, "RD_DRAW_DELAY_US", 0, 0, 1000000);
	c->host_stall_ms = (uint32_t)env_u64(c, "RD_HOST_STALL_MS", 0, 0, 10000);
	c->meta_draws = env_u64(c, "RD_META_DRAWS", 0, 0, 1) != 0;
	/* A slower build of the same device, for proving that `vkqs report
	 * --baseline` sees a slowdown (docs/bench-regressions.md) */
	c->bench_slowdown_pct = (uint32_t)env_u64(c, "RD_BENCH_SLOWDOWN", 0, 0, 1000);
	c->bench_busy_cpu = env("RD_BENCH_BUSY_CPU")
				    ? (int32_t)env_u64(c, "RD_BENCH_BUSY_CPU", 0, 0, 1023)
				    : -1;
	/* 18.2: "vkGetQueryPoolResults may return VK_NOT_READY if there are
	 * queries in the unavailable state"; "any result written by this
	 * command is undefined" for them. */
	static const char *const nr[] = {"not_ready", "success", NULL};
	static const char *const uv[] = {"unwritten", "zero", NULL};
	c->not_ready_success = env_choice(c, "RD_NOT_READY", nr, 0) == 1;
	c->unavailable_zero = env_choice(c, "RD_UNAVAILABLE_VALUES", uv, 0) == 1;
	/* 18.2 PARTIAL: "an intermediate result value between zero and the
	 * final result value" for an unavailable query */
	static const char *const pv[] = {"zero", "final", "half", NULL};
	c->partial = env_choice(c, "RD_PARTIAL_VALUES", pv, 0);
	/* 0: commands without work take no time, so back-to-back timestamps
	 * are equal (18.5 asks only that a later one is not lower) */
	c->command_cost_ns = (uint32_t)env_u64(c, "RD_COMMAND_COST_NS", 20, 0, 1000000);
	/* VkGetCalibratedTimestamps: maxDeviation is an upper bound, it may be loose */
	c->max_deviation_ns = env_u64(c, "RD_MAX_DEVIATION_NS", 0, 0, 1000000000);
	c->host_clock = env_choice(c, "RD_CLOCK", clk, 0) == 1;
	c->clock_start = env_u64(c, "RD_CLOCK_START", 1000000, 0, UINT64_MAX);
	/* VK_ARM_shader_instrumentation: perBasicBlockGranularity (VK_TRUE
	 * unless RD_INSTRUMENT_BLOCKS=off, the required minimum). */
	static const char *const ib[] = {"on", "off", NULL};
	c->instrument_blocks = env_choice(c, "RD_INSTRUMENT_BLOCKS", ib, 0) == 0;
	c->profiling_lock_file = env("RD_PROFILING_LOCK_FILE");
	const char *fault = env("RD_FAULT");
	if (fault) {
		static const char *const names[] = {
#define X(id, name, areas, env, rule) name,
			RD_FAULT_LIST(X)
#undef X
		};
		for (int i = 0; i < RD_FAULT_COUNT - 1; i++)
			if (!strcmp(fault, names[i]))
				c->fault = (enum rd_fault)(i + 1);
		if (!c->fault) {
			char list[4096] = "";
			for (int i = 0; i < RD_FAULT_COUNT - 1; i++)
				snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
					 i ? ", " : "", names[i]);
			refuse(c, "RD_FAULT=%s is not a fault; the faults are: %s", fault, list);
		}
	}
	c->wedge_file = env("RD_WEDGE_FILE");
	c->wedge_after = env_u64(c, "RD_WEDGE_AFTER", 0, 0, UINT64_MAX);
}

bool rd_wedge_submit(const struct rd_config *c)
{
	if (!c->wedge_file)
		return false;
	/* The count lives in the file, under an exclusive lock, so every
	 * process sees the same GPU. */
	int fd = open(c->wedge_file, O_RDWR | O_CREAT, 0644);
	if (fd < 0) {
		rd_log("RD_WEDGE_FILE=%s: cannot open it", c->wedge_file);
		return true;
	}
	flock(fd, LOCK_EX);
	char buf[32] = {0};
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	unsigned long long done = n > 0 ? strtoull(buf, NULL, 10) : 0;
	int len = snprintf(buf, sizeof(buf), "%llu\n", done + 1);
	if (pwrite(fd, buf, (size_t)len, 0) != len)
		rd_log("RD_WEDGE_FILE=%s: cannot update it", c->wedge_file);
	flock(fd, LOCK_UN);
	close(fd);
	return done >= c->wedge_after;
}

uint32_t rd_family_valid_bits(const struct rd_config *c, uint32_t family)
{
	return family == RD_FAMILY_TRANSFER ? c->transfer_valid_bits : c->timestamp_valid_bits;
}

/* The device clock.  By default a cost model (rd_exec.c) advances it in
 * nanoseconds, converted to ticks of timestampPeriod: the same commands
 * give the same timestamps.  The model is that of a device faster than this
 * emulation, so a device interval never exceeds the host time around it.
 * RD_CLOCK=host reads CLOCK_MONOTONIC instead. */
uint64_t rd_clock_ns(struct rd_device *dev)
{
	const struct rd_config *c = &dev->instance->config;
	return c->host_clock ? rd_now_ns() - dev->clock_host_base : atomic_load(&dev->clock);
}

uint64_t rd_clock_ticks(struct rd_device *dev, uint64_t ns)
{
	const struct rd_config *c = &dev->instance->config;
	return c->clock_start + (uint64_t)((double)ns / c->timestamp_period);
}

uint64_t rd_clock_now(struct rd_device *dev)
{
	return rd_clock_ticks(dev, rd_clock_ns(dev));
}

void rd_clock_advance(struct rd_device *dev, uint64_t ns)
{
	atomic_fetch_add(&dev->clock, ns ? ns : 1);
}

void rd_clock_advance_to(struct rd_device *dev, uint64_t ns)
{
	uint64_t old = atomic_load(&dev->clock);
	while (old < ns && !atomic_compare_exchange_weak(&dev->clock, &old, ns))
		;
}
