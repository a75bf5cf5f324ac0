/* multiview_queries: occlusion queries in a multiview render pass, read
 * back late, copied with VK_QUERY_RESULT_WAIT_BIT, and drawn from several
 * processes at once.
 *
 * Spec 18.2 (vkCmdBeginQuery): "If queries are used while executing a
 * render pass instance that has multiview enabled, the query uses N
 * consecutive query indices in the query pool (starting at query) where N
 * is the number of bits set in the view mask in the subpass the query is
 * used in"; each of them becomes available when the query finishes, and
 * vkCmdCopyQueryPoolResults with WAIT "will wait for each query's status to
 * become available before retrieving its results".
 *
 * One precise occlusion query (index 1 of a pool of N + 2) around a draw in
 * a render pass of view mask M (default 0b11: N = 2), S samples (default 4).
 *
 *   late     (default) submit and wait; then vkGetQueryPoolResults and a
 *            copy in a second submission, both WITH_AVAILABILITY and without
 *            WAIT: every query 1..N must read available.  Never blocks on
 *            the GPU.
 *   wait Q   copy query Q alone with WAIT | WITH_AVAILABILITY in the same
 *            command buffer, after the render pass.  A driver that never
 *            marks query Q available to the GPU hangs here: the fence does
 *            not signal (exit 3), and the channel may take the GPU down.
 *   concurrent P T
 *            P processes, each with its own device, repeat `late` for T
 *            seconds at once.  Each process's work is the valid work above;
 *            a driver must not lose a device for it.  --mask 0 gives the
 *            control: the same render pass without multiview.
 *
 * Usage: multiview_queries [late | wait Q | concurrent P T] [--mask M] [--samples S]
 * Build: cc -std=c11 -I tools/repro tools/repro/multiview_queries.c -lvulkan */
#include <sys/wait.h>
#include <time.h>
#include "repro.h"
#include "shaders.h"

struct slot {
	uint64_t value, avail;
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One process's work: `late` or `wait Q` once, or `late` repeated for
 * `seconds` (> 0) on one device. */
static int run(uint32_t mask, uint32_t samples, bool wait, uint32_t wait_q, double seconds)
{
	/* Mask 0: no multiview, one query (the concurrent mode's control). */
	const uint32_t n = mask ? (uint32_t)__builtin_popcount(mask) : 1;
	const uint32_t layers = mask ? 32u - (uint32_t)__builtin_clz(mask) : 1;

	struct repro r;
	VkPhysicalDeviceMultiviewFeatures mv = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_FEATURES, .multiview = VK_TRUE};
	VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
					.pNext = &mv,
					.features = {.occlusionQueryPrecise = VK_TRUE}};
	repro_init(&r, NULL, 0, &f2);
	VkDevice dev = r.device;
	repro_log("view mask 0x%x (N = %u), %u samples, precise occlusion query 1 of %u, %s", mask,
		  n, samples, n + 2, wait ? "in-command-buffer copy with WAIT" : "late reads");

	struct repro_target t;
	repro_target(&r, &t, 32, layers, (VkSampleCountFlagBits)samples, mask);
	VkQueryPoolCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
				     .queryType = VK_QUERY_TYPE_OCCLUSION,
				     .queryCount = n + 2};
	VkQueryPool pool;
	REPRO_CHECK(vkCreateQueryPool(dev, &qci, NULL, &pool));
	struct repro_buffer dst;
	repro_buffer(&r, &dst, (n + 2) * sizeof(struct slot), VK_BUFFER_USAGE_TRANSFER_DST_BIT);
	memset(dst.map, 0xa5, dst.size);
	const VkQueryResultFlags flags =
		VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT;

	const double end = now_s() + seconds;
	int bad = 0;
	unsigned rounds = 0;
again:;
	/* Shaders and a pipeline of their own each round, as the suite makes
	 * them per case. */
	VkShaderModule vs = repro_shader(&r, rect_vert, sizeof(rect_vert));
	VkShaderModule fs = repro_shader(&r, color_frag, sizeof(color_frag));
	VkPipelineLayout layout;
	VkPipeline p = repro_pipeline(&r, &t, vs, fs, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
				      (VkSampleCountFlagBits)samples, &layout);
	VkCommandBuffer cb = repro_cmd_begin(&r);
	vkCmdResetQueryPool(cb, pool, 0, n + 2);
	repro_target_begin(cb, &t);
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, p);
	vkCmdBeginQuery(cb, pool, 1, VK_QUERY_CONTROL_PRECISE_BIT);
	vkCmdDraw(cb, 6, 1, 0, 0);
	vkCmdEndQuery(cb, pool, 1);
	vkCmdEndRenderPass(cb);
	if (wait) {
		repro_log("copying query %u with WAIT in the same command buffer", wait_q);
		vkCmdCopyQueryPoolResults(cb, pool, wait_q, 1, dst.buf, wait_q * sizeof(struct slot),
					  sizeof(struct slot), flags | VK_QUERY_RESULT_WAIT_BIT);
	}
	repro_cmd_submit_wait(&r, cb, "render pass submission");

	const uint64_t expect = 16ull * 16 * samples * n; /* [-0.5, 0.5]^2 of 32x32 */
	if (wait) {
		struct slot s;
		memcpy(&s, dst.map + wait_q * sizeof(s), sizeof(s));
		repro_log("query %u copied with WAIT: value %llu, availability %llu", wait_q,
			  (unsigned long long)s.value, (unsigned long long)s.avail);
		bad = s.avail == 0;
	} else {
		struct slot s[32];
		VkResult res = vkGetQueryPoolResults(dev, pool, 1, n, n * sizeof(s[0]), s,
						     sizeof(s[0]), flags);
		uint64_t sum = 0;
		for (uint32_t k = 0; k < n; k++) {
			if (repro_verbose)
				repro_log("vkGetQueryPoolResults: query %u value %llu availability %llu",
					  1 + k, (unsigned long long)s[k].value,
					  (unsigned long long)s[k].avail);
			sum += s[k].value;
			bad |= s[k].avail == 0;
		}
		if (repro_verbose || sum != expect)
			repro_log("vkGetQueryPoolResults returned %d; sum %llu (expected %llu)",
				  (int)res, (unsigned long long)sum, (unsigned long long)expect);
		bad |= sum != expect;
		cb = repro_cmd_begin(&r);
		vkCmdCopyQueryPoolResults(cb, pool, 1, n, dst.buf, sizeof(struct slot),
					  sizeof(struct slot), flags);
		repro_cmd_submit_wait(&r, cb, "late copy");
		for (uint32_t k = 0; k < n; k++) {
			struct slot c;
			memcpy(&c, dst.map + (1 + k) * sizeof(c), sizeof(c));
			if (repro_verbose || !c.avail)
				repro_log("late copy: query %u value %llu availability %llu", 1 + k,
					  (unsigned long long)c.value, (unsigned long long)c.avail);
			bad |= c.avail == 0;
		}
	}
	vkDestroyPipeline(dev, p, NULL);
	vkDestroyPipelineLayout(dev, layout, NULL);
	vkDestroyShaderModule(dev, vs, NULL);
	vkDestroyShaderModule(dev, fs, NULL);
	rounds++;
	repro_verbose = false;
	if (!bad && now_s() < end)
		goto again;
	if (seconds > 0)
		repro_log("%u rounds", rounds);
	repro_log(bad ? "RESULT: a query of the multiview run is not available"
		      : "RESULT: OK, every query of the run is available");
	return bad;
}

int main(int argc, char **argv)
{
	bool wait = false;
	uint32_t wait_q = 1, mask = 0x3, samples = 4, procs = 0;
	double seconds = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "late"))
			wait = false;
		else if (!strcmp(argv[i], "wait") && i + 1 < argc)
			wait = true, wait_q = (uint32_t)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "concurrent") && i + 2 < argc)
			procs = (uint32_t)strtoul(argv[i + 1], NULL, 0),
			seconds = strtod(argv[i + 2], NULL), i += 2;
		else if (!strcmp(argv[i], "--mask") && i + 1 < argc)
			mask = (uint32_t)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--samples") && i + 1 < argc)
			samples = (uint32_t)strtoul(argv[++i], NULL, 0);
		else
			repro_exit(2, "usage: %s [late | wait Q | concurrent P T] [--mask M] [--samples S]",
				   argv[0]);
	}
	if ((!mask && !procs) || (wait && (wait_q < 1 || wait_q > (uint32_t)__builtin_popcount(mask))))
		repro_exit(2, "need a non-zero mask (0 only with concurrent) and 1 <= Q <= N");
	if (!procs)
		return run(mask, samples, wait, wait_q, 0);
	if (procs > 64 || !(seconds > 0))
		repro_exit(2, "concurrent: 1..64 processes and a positive number of seconds");
	repro_log("%u processes, %.0f s each, view mask 0x%x", procs, seconds, mask);
	for (uint32_t p = 0; p < procs; p++) {
		pid_t pid = fork();
		if (pid == 0)
			_exit(run(mask, samples, false, 1, seconds));
		if (pid < 0)
			repro_exit(2, "fork failed");
	}
	int worst = 0, st;
	while (waitpid(-1, &st, 0) > 0) {
		int code = WIFEXITED(st) ? WEXITSTATUS(st) : 3;
		worst = code > worst ? code : worst;
	}
	repro_log("RESULT: %s (worst exit code %d)",
		  worst == 0 ? "OK, no process lost its device" : "a process failed", worst);
	return worst;
}
