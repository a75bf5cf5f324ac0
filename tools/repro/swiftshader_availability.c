/* swiftshader_availability: the availability word of a query that is still
 * counting, as vkqs.reset.partial.pending_* meets it on SwiftShader.
 *
 * Spec 1.4.360, queries.adoc (vkGetQueryPoolResults): with
 * VK_QUERY_RESULT_WITH_AVAILABILITY_BIT "A value of zero indicates that the
 * results are not yet available, otherwise the query is complete and
 * results are available", and "Results for any available query written by
 * this command are final and represent the final result of the query."
 *
 * One precise occlusion query around DRAWS draws of a 32x32 rectangle in a
 * 64x64, 1-sample render pass (final result DRAWS * 1024).  While the
 * submission executes, the host reads the query again and again with
 * PARTIAL | WITH_AVAILABILITY | 64 (no WAIT).  Every read whose
 * availability word is non-zero must hold the final result; a zero word
 * allows any value up to the final one.  (The return code is printed, not
 * judged: VK_NOT_READY beside a non-zero word can be a query that became
 * available during the call.)  ROUNDS submissions, then a WAIT read for
 * the final result.
 *
 * SwiftShader (Chromium 156.0.8078.108) writes its internal query state as
 * the availability word (ACTIVE is 1): reads that land while the query is
 * active see availability 1, a partial count and VK_NOT_READY.  Which reads
 * land there depends on timing, so the program repeats until it has seen
 * it or ran ROUNDS rounds.
 *
 * Exit 0: every read was consistent; 1: one was not; 2: the device lacks
 * what is needed; 3: a fence did not signal.
 * Usage: swiftshader_availability [ROUNDS]   (default 50)
 * Build: cc -std=c11 -I tools/repro tools/repro/swiftshader_availability.c -lvulkan */
#include "repro.h"
#include "shaders.h"

#define SIZE 64u
#define RECT_SAMPLES (32u * 32u) /* rect.vert covers [-0.5, 0.5]^2: 32x32 pixels */
#define DRAWS 400u
#define MAX_READS 200000u

int main(int argc, char **argv)
{
	unsigned long rounds = 50;
	if (argc > 2 || (argc == 2 && ((rounds = strtoul(argv[1], NULL, 10)) == 0 || rounds > 100000))) {
		fprintf(stderr, "usage: swiftshader_availability [ROUNDS]  (1 to 100000)\n");
		return 2;
	}
	struct repro r;
	VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
					.features = {.occlusionQueryPrecise = VK_TRUE}};
	repro_init(&r, NULL, 0, &f2);
	struct repro_target t;
	repro_target(&r, &t, SIZE, 1, VK_SAMPLE_COUNT_1_BIT, 0);
	VkShaderModule vs = repro_shader(&r, rect_vert, sizeof(rect_vert));
	VkShaderModule fs = repro_shader(&r, color_frag, sizeof(color_frag));
	VkPipelineLayout layout;
	VkPipeline pipe = repro_pipeline(&r, &t, vs, fs, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
					 VK_SAMPLE_COUNT_1_BIT, &layout);
	VkQueryPoolCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
				     .queryType = VK_QUERY_TYPE_OCCLUSION,
				     .queryCount = 1};
	VkQueryPool pool;
	REPRO_CHECK(vkCreateQueryPool(r.device, &qci, NULL, &pool));
	VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	VkFence fence;
	REPRO_CHECK(vkCreateFence(r.device, &fci, NULL, &fence));
	const uint64_t final = (uint64_t)DRAWS * RECT_SAMPLES;
	const VkQueryResultFlags flags = VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_PARTIAL_BIT |
					 VK_QUERY_RESULT_WITH_AVAILABILITY_BIT;
	unsigned long bad = 0, reads = 0, active_reads = 0, round;
	for (round = 0; round < rounds && !bad; round++) {
		VkCommandBuffer cb = repro_cmd_begin(&r);
		vkCmdResetQueryPool(cb, pool, 0, 1);
		repro_target_begin(cb, &t);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
		vkCmdBeginQuery(cb, pool, 0, VK_QUERY_CONTROL_PRECISE_BIT);
		for (uint32_t d = 0; d < DRAWS; d++)
			vkCmdDraw(cb, 6, 1, 0, 0);
		vkCmdEndQuery(cb, pool, 0);
		vkCmdEndRenderPass(cb);
		REPRO_CHECK(vkEndCommandBuffer(cb));
		REPRO_CHECK(vkResetFences(r.device, 1, &fence));
		VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
				   .commandBufferCount = 1,
				   .pCommandBuffers = &cb};
		if (round == 0)
			repro_log("round 1: submit %u draws in one precise occlusion query, then "
				  "read it with PARTIAL | WITH_AVAILABILITY | 64 until the fence "
				  "signals", DRAWS);
		REPRO_CHECK(vkQueueSubmit(r.queue, 1, &si, fence));
		for (uint32_t i = 0; i < MAX_READS; i++) {
			bool done = vkGetFenceStatus(r.device, fence) == VK_SUCCESS;
			uint64_t v[2] = {~0ull, ~0ull};
			VkResult res = vkGetQueryPoolResults(r.device, pool, 0, 1, sizeof(v), v,
							     sizeof(v), flags);
			reads++;
			if (res != VK_SUCCESS && res != VK_NOT_READY)
				repro_exit(res == VK_ERROR_DEVICE_LOST ? 3 : 2,
					   "vkGetQueryPoolResults returned %d", (int)res);
			if (v[0] > 0 && v[0] < final)
				active_reads++;
			if (v[1] != 0 && v[0] != final) {
				repro_log("round %lu, read %u: availability %llu (\"the query is "
					  "complete\") with value %llu (final %llu), returned %s: "
					  "FAIL", round + 1, i + 1, (unsigned long long)v[1],
					  (unsigned long long)v[0], (unsigned long long)final,
					  res == VK_SUCCESS ? "VK_SUCCESS" : "VK_NOT_READY");
				bad++;
				break;
			}
			if (v[1] == 0 && v[0] > final) {
				repro_log("round %lu: unavailable with %llu, above the final %llu: FAIL",
					  round + 1, (unsigned long long)v[0],
					  (unsigned long long)final);
				bad++;
				break;
			}
			if (v[1] != 0 || done)
				break;
		}
		VkResult w = vkWaitForFences(r.device, 1, &fence, VK_TRUE, REPRO_FENCE_NS);
		if (w != VK_SUCCESS)
			repro_exit(3, "round %lu: vkWaitForFences returned %d", round + 1, (int)w);
		uint64_t v[2];
		REPRO_CHECK(vkGetQueryPoolResults(r.device, pool, 0, 1, sizeof(v), v, sizeof(v),
						  flags | VK_QUERY_RESULT_WAIT_BIT));
		if (v[0] != final || v[1] == 0) {
			repro_log("round %lu: after the fence %llu (availability %llu), expected %llu: "
				  "FAIL", round + 1, (unsigned long long)v[0],
				  (unsigned long long)v[1], (unsigned long long)final);
			bad++;
		}
		vkFreeCommandBuffers(r.device, r.pool, 1, &cb);
	}
	vkDestroyFence(r.device, fence, NULL);
	vkDestroyQueryPool(r.device, pool, NULL);
	vkDestroyPipeline(r.device, pipe, NULL);
	vkDestroyPipelineLayout(r.device, layout, NULL);
	vkDestroyShaderModule(r.device, vs, NULL);
	vkDestroyShaderModule(r.device, fs, NULL);
	repro_target_destroy(&r, &t);
	repro_fini(&r);
	if (!bad)
		printf("OK: %lu rounds, %lu reads (%lu with a partial count), every non-zero "
		       "availability word came with the final result\n",
		       round, reads, active_reads);
	return bad ? 1 : 0;
}
