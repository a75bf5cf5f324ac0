/* xfb_stale_binding: a transform feedback buffer binding must not outlive
 * the command buffer that made it.
 *
 * Spec, "Transform Feedback": "Any outputs made to a XfbBuffer that is not
 * bound to a transform feedback buffer is ignored"; a command buffer starts
 * with no transform feedback buffer bound (vkCmdBindTransformFeedbackBuffersEXT
 * is recorded state).
 *
 *   step 1  CB1 binds A at binding 0 and B at binding 1, transform feedback
 *           of 4 points with a shader that captures to XfbBuffer 0 and 1.
 *   step 2  CB2 binds only A (a fresh A'), the same shader and draw: its
 *           outputs to XfbBuffer 1 must be ignored, so B keeps its bytes.
 *   step 3  CB3: a primitives generated query around 4 points drawn without
 *           the Xfb execution mode and with no transform feedback active:
 *           no transform feedback buffer may be written.
 *
 * Default mode keeps B alive and checks its bytes after steps 2 and 3
 * (exit 1 when written).  --free destroys B and frees its memory after
 * step 1, as an application may; a driver that still writes through the
 * binding of CB1 then writes to freed memory.  On NVIDIA 580.159.04
 * (H100, H200) that is an MMU fault of the primitive engine
 * (Xid 31 ... GPCCLIENT_PE ... FAULT_PTE ACCESS_TYPE_VIRT_WRITE) and
 * VK_ERROR_DEVICE_LOST; vkqs saw it as vkqs.xfb.capture.layout, then
 * vkqs.xfb.capture.unbound_buffer, then any primitives generated query
 * case in one process.
 *
 * Build: cc -std=c11 -I tools/repro tools/repro/xfb_stale_binding.c -lvulkan */
#include "repro.h"
#include "shaders.h"

#define POINTS 4u
#define STRIDE 16u
#define SIZE 4096u
#define FILL 0xa5u

struct ctx {
	struct repro r;
	struct repro_target t;
	VkPipeline xfb, plain;
	VkPipelineLayout layout;
	PFN_vkCmdBindTransformFeedbackBuffersEXT bind;
	PFN_vkCmdBeginTransformFeedbackEXT begin;
	PFN_vkCmdEndTransformFeedbackEXT end;
};

/* Transform feedback of POINTS points with xfb2.vert, with `n` buffers
 * bound from binding 0. */
static void capture(struct ctx *c, const struct repro_buffer *const *bufs, uint32_t n,
		    const char *step)
{
	VkCommandBuffer cb = repro_cmd_begin(&c->r);
	repro_target_begin(cb, &c->t);
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, c->xfb);
	VkBuffer b[2];
	VkDeviceSize off[2] = {0, 0}, size[2] = {VK_WHOLE_SIZE, VK_WHOLE_SIZE};
	for (uint32_t i = 0; i < n; i++)
		b[i] = bufs[i]->buf;
	c->bind(cb, 0, n, b, off, size);
	c->begin(cb, 0, 0, NULL, NULL);
	vkCmdDraw(cb, POINTS, 1, 0, 0);
	c->end(cb, 0, 0, NULL, NULL);
	vkCmdEndRenderPass(cb);
	repro_cmd_submit_wait(&c->r, cb, step);
}

int main(int argc, char **argv)
{
	bool free_b = argc > 1 && !strcmp(argv[1], "--free");
	struct ctx c = {0};
	static const char *const exts[] = {VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME,
					   VK_EXT_PRIMITIVES_GENERATED_QUERY_EXTENSION_NAME};
	VkPhysicalDevicePrimitivesGeneratedQueryFeaturesEXT pgq = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVES_GENERATED_QUERY_FEATURES_EXT,
		.primitivesGeneratedQuery = VK_TRUE};
	VkPhysicalDeviceTransformFeedbackFeaturesEXT xfb = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT,
		.pNext = &pgq,
		.transformFeedback = VK_TRUE};
	VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
					.pNext = &xfb};
	repro_init(&c.r, exts, 2, &f2);
	VkDevice dev = c.r.device;
	c.bind = (PFN_vkCmdBindTransformFeedbackBuffersEXT)vkGetDeviceProcAddr(
		dev, "vkCmdBindTransformFeedbackBuffersEXT");
	c.begin = (PFN_vkCmdBeginTransformFeedbackEXT)vkGetDeviceProcAddr(
		dev, "vkCmdBeginTransformFeedbackEXT");
	c.end = (PFN_vkCmdEndTransformFeedbackEXT)vkGetDeviceProcAddr(
		dev, "vkCmdEndTransformFeedbackEXT");

	repro_target(&c.r, &c.t, 16, 1, VK_SAMPLE_COUNT_1_BIT, 0);
	VkShaderModule fs = repro_shader(&c.r, color_frag, sizeof(color_frag));
	VkPipelineLayout l2;
	c.xfb = repro_pipeline(&c.r, &c.t, repro_shader(&c.r, xfb2_vert, sizeof(xfb2_vert)), fs,
			       VK_PRIMITIVE_TOPOLOGY_POINT_LIST, VK_SAMPLE_COUNT_1_BIT, &c.layout);
	c.plain = repro_pipeline(&c.r, &c.t, repro_shader(&c.r, plain_vert, sizeof(plain_vert)),
				 fs, VK_PRIMITIVE_TOPOLOGY_POINT_LIST, VK_SAMPLE_COUNT_1_BIT, &l2);

	const VkBufferUsageFlags usage = VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT;
	struct repro_buffer a, a2, b;
	repro_buffer(&c.r, &a, SIZE, usage);
	repro_buffer(&c.r, &a2, SIZE, usage);
	repro_buffer(&c.r, &b, SIZE, usage);
	memset(a.map, FILL, SIZE);
	memset(a2.map, FILL, SIZE);
	memset(b.map, FILL, SIZE);

	repro_log("step 1: capture to A (binding 0) and B (binding 1)");
	const struct repro_buffer *both[2] = {&a, &b};
	capture(&c, both, 2, "step 1");
	if (repro_first_changed(&a, FILL) != 0 || repro_first_changed(&b, FILL) != 0)
		repro_exit(2, "step 1 captured nothing: transform feedback does not work here");
	int bad = 0;
	if (free_b) {
		repro_log("--free: destroying B and freeing its memory (CB1 has completed)");
		repro_buffer_destroy(&c.r, &b);
	} else {
		memset(b.map, FILL, SIZE);
	}

	repro_log("step 2: capture with only A' bound at binding 0 (XfbBuffer 1 unbound)");
	const struct repro_buffer *one[1] = {&a2};
	capture(&c, one, 1, "step 2");
	if (repro_first_changed(&a2, FILL) != 0)
		repro_exit(1, "FAIL: step 2 captured nothing to A'");
	long at = free_b ? -1 : repro_first_changed(&b, FILL);
	if (at >= 0) {
		repro_log("FAIL: step 2 wrote B (bound only in step 1's command buffer) at byte %ld; "
			  "outputs to an unbound XfbBuffer must be ignored", at);
		bad = 1;
		memset(b.map, FILL, SIZE);
	}

	repro_log("step 3: primitives generated query, no transform feedback active");
	memset(a.map, FILL, SIZE);
	memset(a2.map, FILL, SIZE);
	VkQueryPoolCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
				     .queryType = VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT,
				     .queryCount = 1};
	VkQueryPool pool;
	REPRO_CHECK(vkCreateQueryPool(dev, &qci, NULL, &pool));
	VkCommandBuffer cb = repro_cmd_begin(&c.r);
	vkCmdResetQueryPool(cb, pool, 0, 1);
	repro_target_begin(cb, &c.t);
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, c.plain);
	vkCmdBeginQuery(cb, pool, 0, 0);
	vkCmdDraw(cb, POINTS, 1, 0, 0);
	vkCmdEndQuery(cb, pool, 0);
	vkCmdEndRenderPass(cb);
	repro_cmd_submit_wait(&c.r, cb, "step 3");
	uint64_t g = 0;
	REPRO_CHECK(vkGetQueryPoolResults(dev, pool, 0, 1, sizeof(g), &g, sizeof(g),
					  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
	repro_log("step 3: primitives generated = %llu (expected %u)", (unsigned long long)g,
		  POINTS);
	if (g != POINTS)
		bad = 1;
	const struct repro_buffer *all[3] = {&a, &a2, free_b ? NULL : &b};
	static const char *const names[3] = {"A", "A'", "B"};
	for (int i = 0; i < 3; i++) {
		if (!all[i])
			continue;
		at = repro_first_changed(all[i], FILL);
		if (at >= 0) {
			repro_log("FAIL: step 3 wrote %s at byte %ld with no transform feedback active",
				  names[i], at);
			bad = 1;
		}
	}
	repro_log(bad ? "RESULT: the driver broke the rule above"
		      : "RESULT: OK, the driver behaved as the spec says");
	return bad;
}
