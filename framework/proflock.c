/* The profiling-lock holder process (proflock.h). */
#include "proflock.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "device.h"
#include "util.h"
#include "vkutil.h"

#define HOLD_MAX_MS 60000 /* a holder nobody talks to gives up */

static void sleep_ms(uint32_t ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* Reads one line (without the newline) from fd within timeout_ms; false on
 * EOF, error or timeout. */
static bool read_line(int fd, char *buf, size_t size, int timeout_ms)
{
	size_t n = 0;
	while (n + 1 < size) {
		struct pollfd p = {fd, POLLIN, 0};
		int r = poll(&p, 1, timeout_ms);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		char c;
		ssize_t k = read(fd, &c, 1);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		if (c == '\n')
			break;
		buf[n++] = c;
	}
	buf[n] = '\0';
	return true;
}

VkResult vkqs_acquire_profiling_lock(const struct VolkDeviceTable *d, VkDevice device,
				     uint32_t total_ms)
{
	uint64_t start = vkqs_now_ns(), total = (uint64_t)total_ms * 1000000u;
	for (;;) {
		uint64_t waited = vkqs_now_ns() - start;
		uint64_t left = waited < total ? total - waited : 0;
		VkAcquireProfilingLockInfoKHR info = {
			.sType = VK_STRUCTURE_TYPE_ACQUIRE_PROFILING_LOCK_INFO_KHR,
			.timeout = left < 100000000u ? left : 100000000u,
		};
		VkResult r = d->vkAcquireProfilingLockKHR(device, &info);
		if (r != VK_TIMEOUT || left == 0)
			return r;
		sleep_ms(2);
	}
}

int vkqs_hold_profiling_lock_main(int argc, char **argv)
{
	const char *device = "0";
	uint32_t acquire_ms = 10000;
	for (int i = 0; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--device"))
			device = argv[i + 1];
		else if (!strcmp(argv[i], "--acquire-ms"))
			acquire_ms = (uint32_t)strtoul(argv[i + 1], NULL, 10);
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	struct vkqs_vk vk;
	char err[512];
	memset(&vk, 0, sizeof(vk));
	if (!vkqs_vk_create(&vk, device, false, err, sizeof(err))) {
		printf("error %s\n", err);
		return 2;
	}
	if (!vk.d.vkAcquireProfilingLockKHR) {
		printf("error the device has no vkAcquireProfilingLockKHR\n");
		vkqs_vk_destroy(&vk);
		return 2;
	}
	VkResult r = vkqs_acquire_profiling_lock(&vk.d, vk.device, acquire_ms);
	if (r != VK_SUCCESS) {
		printf("%s\n", r == VK_TIMEOUT ? "timeout" : vkqs_vk_result_name(r));
		vkqs_vk_destroy(&vk);
		return r == VK_TIMEOUT ? 0 : 1;
	}
	printf("acquired\n");
	char line[64];
	uint32_t delay = 0;
	if (read_line(0, line, sizeof(line), HOLD_MAX_MS) && sscanf(line, "release %u", &delay) == 1)
		sleep_ms(delay);
	uint64_t t = vkqs_now_ns();
	vk.d.vkReleaseProfilingLockKHR(vk.device);
	printf("released %" PRIu64 "\n", t);
	vkqs_vk_destroy(&vk);
	return 0;
}

static void holder_stop(struct vkqs_ctx *ctx, void *arg)
{
	struct vkqs_lock_holder *h = arg;
	(void)ctx;
	if (h->to_child >= 0)
		close(h->to_child);
	if (h->from_child >= 0)
		close(h->from_child);
	h->to_child = h->from_child = -1;
	if (h->pid > 0) {
		/* closing its stdin makes it release and exit; give it a moment */
		for (int i = 0; i < 200; i++) {
			if (waitpid(h->pid, NULL, WNOHANG) == h->pid) {
				h->pid = 0;
				return;
			}
			sleep_ms(10);
		}
		kill(h->pid, SIGKILL);
		waitpid(h->pid, NULL, 0);
		h->pid = 0;
	}
}

struct vkqs_lock_holder *vkqs_lock_holder_start(struct vkqs_ctx *ctx, uint32_t acquire_ms,
						char *why, size_t why_size)
{
	/* case memory: the deferred stop runs after the case function returned */
	struct vkqs_lock_holder *h = vkqs_alloc(ctx, sizeof(*h));
	int in[2], out[2];
	h->pid = 0;
	h->to_child = h->from_child = -1;
	if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0)
		vkqs_internal_error(ctx, "pipe: %s", strerror(errno));
	char dev[16], ms[16];
	snprintf(dev, sizeof(dev), "%u", ctx->vk->index);
	snprintf(ms, sizeof(ms), "%u", acquire_ms);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0)
		vkqs_internal_error(ctx, "fork: %s", strerror(errno));
	if (pid == 0) {
		vkqs_die_with_parent(parent);
		dup2(in[0], 0);
		dup2(out[1], 1);
		char *args[] = {"vkqs", "hold-profiling-lock", "--device", dev, "--acquire-ms", ms,
				NULL};
		execv("/proc/self/exe", args);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	h->pid = pid;
	h->to_child = in[1];
	h->from_child = out[0];
	vkqs_defer(ctx, holder_stop, h);
	char line[600];
	if (!read_line(h->from_child, line, sizeof(line), (int)acquire_ms + 30000)) {
		snprintf(why, why_size, "the holder process said nothing");
		return NULL;
	}
	if (strcmp(line, "acquired") == 0)
		return h;
	snprintf(why, why_size, "%s", line);
	return NULL;
}

void vkqs_lock_holder_release(struct vkqs_ctx *ctx, struct vkqs_lock_holder *h, uint32_t delay_ms)
{
	char cmd[32];
	int n = snprintf(cmd, sizeof(cmd), "release %u\n", delay_ms);
	if (h->to_child < 0 || write(h->to_child, cmd, (size_t)n) != n)
		vkqs_internal_error(ctx, "cannot talk to the lock holder: %s", strerror(errno));
}

uint64_t vkqs_lock_holder_wait(struct vkqs_ctx *ctx, struct vkqs_lock_holder *h)
{
	char line[64];
	uint64_t t = 0;
	(void)ctx;
	if (read_line(h->from_child, line, sizeof(line), HOLD_MAX_MS))
		sscanf(line, "released %" SCNu64, &t);
	holder_stop(ctx, h);
	return t;
}
