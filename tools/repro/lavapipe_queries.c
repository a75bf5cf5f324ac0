/* lavapipe_queries: two query bugs of Mesa 25.0.7's lavapipe (Debian 13),
 * each as vkqs meets it, reduced to the commands that matter.
 *
 *   mv-timestamp MASK  (default 0x5)
 *     Spec 18.5 (vkCmdWriteTimestamp): "If vkCmdWriteTimestamp is called
 *     while executing a render pass instance that has multiview enabled, the
 *     timestamp uses N consecutive query indices in the query pool (starting
 *     at query) where N is the number of bits set in the view mask of the
 *     subpass the command is executed in."  A timestamp before the render
 *     pass instance, one at TOP_OF_PIPE and one at BOTTOM_OF_PIPE around a
 *     draw in a subpass of view mask MASK (N queries each), one after it;
 *     after the fence every query must be available, and the first query of
 *     each multiview write must lie between the writes outside the instance.
 *     Lavapipe 25.0.7 crashes (SIGSEGV) with masks 0x3, 0x5 and 0xf; 0x1
 *     passes.  (22.3.6 returns VK_NOT_READY for the view queries past the
 *     first, WAIT or not: an older bug vkqs also lists.)
 *
 *   occlusion
 *     Spec 18.3: with VK_QUERY_CONTROL_PRECISE_BIT "an implementation must
 *     return a result that matches the actual number of samples passed".
 *     Three draws of 32x32 pixels in a 64x64, 1-sample render pass: 3072
 *     samples, in three arrangements, each its own query:
 *       a. begun and ended inside the subpass, a timestamp written after
 *          the draws, before the end of the query;
 *       b. begun before the render pass instance, ended after it;
 *       c. as b, with vkCmdClearAttachments after the draws (a clear may
 *          count, 18.2: so at least 3072).
 *     Lavapipe 25.0.7 counts 0 of the 3072 in each (vkqs saw 128 of 192
 *     and 0 of 448); 22.3.6 counts 3072.
 *
 * Exit 0: the driver did what the spec says; 1: it did not; 2: the device
 * lacks what is needed; 3: a fence did not signal.  A crash is the process
 * dying of its signal.
 * Usage: lavapipe_queries mv-timestamp [MASK] | occlusion
 * Build: cc -std=c11 -I tools/repro tools/repro/lavapipe_queries.c -lvulkan */
#include "repro.h"
#include "shaders.h"

#define SIZE 64u
#define RECT_SAMPLES (32u * 32u) /* rect.vert covers [-0.5, 0.5]^2: 32x32 pixels */

struct scene {
	struct repro_target t;
	VkShaderModule vs, fs;
	VkPipelineLayout layout;
	VkPipeline pipeline;
};

static void scene_up(struct repro *r, struct scene *s, uint32_t mask)
{
	uint32_t layers = mask ? 32u - (uint32_t)__builtin_clz(mask) : 1;
	repro_target(r, &s->t, SIZE, layers, VK_SAMPLE_COUNT_1_BIT, mask);
	s->vs = repro_shader(r, rect_vert, sizeof(rect_vert));
	s->fs = repro_shader(r, color_frag, sizeof(color_frag));
	s->pipeline = repro_pipeline(r, &s->t, s->vs, s->fs, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
				     VK_SAMPLE_COUNT_1_BIT, &s->layout);
}

static void scene_down(struct repro *r, struct scene *s)
{
	vkDestroyPipeline(r->device, s->pipeline, NULL);
	vkDestroyPipelineLayout(r->device, s->layout, NULL);
	vkDestroyShaderModule(r->device, s->vs, NULL);
	vkDestroyShaderModule(r->device, s->fs, NULL);
	repro_target_destroy(r, &s->t);
}

static void full_barrier(VkCommandBuffer cb)
{
	VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
			      .srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
			      .dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT};
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
			     VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
}

/* Reads queries [0, n) with WAIT | WITH_AVAILABILITY: value, availability.
 * With WAIT only VK_SUCCESS is right for queries whose work completed (18.2:
 * "VK_QUERY_RESULT_WAIT_BIT ... will wait for each query's status to become
 * available"); false (with the result printed) otherwise. */
static bool read_all(struct repro *r, VkQueryPool pool, uint32_t n, uint64_t (*v)[2])
{
	memset(v, 0, n * sizeof(*v));
	VkResult res = vkGetQueryPoolResults(r->device, pool, 0, n, n * 2 * sizeof(uint64_t), v,
					     2 * sizeof(uint64_t),
					     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT |
						     VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
	if (res != VK_SUCCESS)
		repro_log("FAIL: vkGetQueryPoolResults with WAIT after the fence returned %d%s",
			  (int)res, res == VK_NOT_READY ? " (VK_NOT_READY)" : "");
	return res == VK_SUCCESS;
}

static int mv_timestamp(uint32_t mask)
{
	struct repro r;
	VkPhysicalDeviceMultiviewFeatures mv = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_FEATURES, .multiview = VK_TRUE};
	VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
					.pNext = &mv};
	repro_pick(&r);
	uint32_t nq = 0;
	vkGetPhysicalDeviceQueueFamilyProperties(r.phys, &nq, NULL);
	VkQueueFamilyProperties qf[16];
	nq = nq > 16 ? 16 : nq;
	vkGetPhysicalDeviceQueueFamilyProperties(r.phys, &nq, qf);
	if (qf[r.family].timestampValidBits == 0)
		repro_exit(2, "the graphics family has timestampValidBits 0");
	repro_device(&r, NULL, 0, &f2);
	uint32_t n = (uint32_t)__builtin_popcount(mask);
	const uint32_t before = 0, a = 1, b = 1 + n, after = 1 + 2 * n, count = 2 + 2 * n;
	struct scene s;
	scene_up(&r, &s, mask);
	VkQueryPoolCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
				     .queryType = VK_QUERY_TYPE_TIMESTAMP,
				     .queryCount = count};
	VkQueryPool pool;
	REPRO_CHECK(vkCreateQueryPool(r.device, &qci, NULL, &pool));
	repro_log("view mask 0x%x: %u queries per write in the subpass", mask, n);
	VkCommandBuffer cb = repro_cmd_begin(&r);
	vkCmdResetQueryPool(cb, pool, 0, count);
	vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, before);
	full_barrier(cb);
	repro_target_begin(cb, &s.t);
	vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool, a);
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, s.pipeline);
	vkCmdDraw(cb, 6, 1, 0, 0);
	vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, b);
	vkCmdEndRenderPass(cb);
	full_barrier(cb);
	vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, after);
	repro_cmd_submit_wait(&r, cb, "timestamps around and inside the multiview subpass");
	uint64_t v[2 + 2 * 32][2];
	int bad = !read_all(&r, pool, count, v);
	for (uint32_t q = 0; q < count; q++)
		if (!v[q][1]) {
			repro_log("FAIL: query %u unavailable after the fence", q);
			bad = 1;
		}
	for (uint32_t q = a; q <= b; q += n)
		if (v[q][1] && (v[q][0] < v[before][0] || v[q][0] > v[after][0])) {
			repro_log("FAIL: query %u = %llu outside [%llu, %llu] of the writes around "
				  "the instance", q, (unsigned long long)v[q][0],
				  (unsigned long long)v[before][0], (unsigned long long)v[after][0]);
			bad = 1;
		}
	vkDestroyQueryPool(r.device, pool, NULL);
	scene_down(&r, &s);
	repro_fini(&r);
	if (!bad)
		printf("OK: %u timestamp queries available and in order\n", count);
	return bad;
}

static void clear_color(VkCommandBuffer cb)
{
	VkClearAttachment ca = {.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT,
				.colorAttachment = 0,
				.clearValue = {.color = {.float32 = {0, 0, 1, 1}}}};
	VkClearRect cr = {{{0, 0}, {8, 8}}, 0, 1};
	vkCmdClearAttachments(cb, 1, &ca, 1, &cr);
}

static int occlusion(void)
{
	struct repro r;
	VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
					.features = {.occlusionQueryPrecise = VK_TRUE}};
	repro_init(&r, NULL, 0, &f2);
	struct scene s;
	scene_up(&r, &s, 0);
	VkQueryPoolCreateInfo oci = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
				     .queryType = VK_QUERY_TYPE_OCCLUSION,
				     .queryCount = 3};
	VkQueryPoolCreateInfo tci = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
				     .queryType = VK_QUERY_TYPE_TIMESTAMP,
				     .queryCount = 1};
	VkQueryPool occ, ts;
	REPRO_CHECK(vkCreateQueryPool(r.device, &oci, NULL, &occ));
	REPRO_CHECK(vkCreateQueryPool(r.device, &tci, NULL, &ts));
	static const char *const what[3] = {
		"a. inside the subpass, a timestamp after the draws",
		"b. around the render pass instance",
		"c. around the instance, a clear after the draws"};
	int bad = 0;
	for (uint32_t k = 0; k < 3; k++) {
		VkCommandBuffer cb = repro_cmd_begin(&r);
		vkCmdResetQueryPool(cb, occ, k, 1);
		vkCmdResetQueryPool(cb, ts, 0, 1);
		if (k > 0)
			vkCmdBeginQuery(cb, occ, k, VK_QUERY_CONTROL_PRECISE_BIT);
		repro_target_begin(cb, &s.t);
		if (k == 0)
			vkCmdBeginQuery(cb, occ, k, VK_QUERY_CONTROL_PRECISE_BIT);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, s.pipeline);
		for (int d = 0; d < 3; d++)
			vkCmdDraw(cb, 6, 1, 0, 0);
		if (k == 0) {
			vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, ts, 0);
			vkCmdEndQuery(cb, occ, k);
		}
		if (k == 2)
			clear_color(cb);
		vkCmdEndRenderPass(cb);
		if (k > 0)
			vkCmdEndQuery(cb, occ, k);
		repro_cmd_submit_wait(&r, cb, what[k]);
		uint64_t v[2];
		REPRO_CHECK(vkGetQueryPoolResults(r.device, occ, k, 1, sizeof(v), v, sizeof(v),
						  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT |
							  VK_QUERY_RESULT_WITH_AVAILABILITY_BIT));
		const uint64_t want = 3 * RECT_SAMPLES;
		bool ok = v[1] && (k == 2 ? v[0] >= want : v[0] == want);
		repro_log("%s: %llu samples passed, %s %llu%s", what[k], (unsigned long long)v[0],
			  k == 2 ? "at least" : "exactly", (unsigned long long)want,
			  ok ? "" : ": FAIL");
		bad |= !ok;
	}
	vkDestroyQueryPool(r.device, occ, NULL);
	vkDestroyQueryPool(r.device, ts, NULL);
	scene_down(&r, &s);
	repro_fini(&r);
	if (!bad)
		printf("OK: every precise occlusion query counted the draws' 3072 samples\n");
	return bad;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "mv-timestamp") && argc <= 3) {
		char *end = NULL;
		unsigned long mask = argc == 3 ? strtoul(argv[2], &end, 0) : 0x5;
		if ((argc == 3 && (*end || end == argv[2])) || mask == 0 || mask > 0xff)
			repro_exit(2, "MASK: a view mask of 1 to 8 bits, e.g. 0x5");
		return mv_timestamp((uint32_t)mask);
	}
	if (argc == 2 && !strcmp(argv[1], "occlusion"))
		return occlusion();
	fprintf(stderr, "usage: lavapipe_queries mv-timestamp [MASK] | occlusion\n");
	return 2;
}
