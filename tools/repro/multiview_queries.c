/* multiview_queries: occlusion (or pipeline statistics) queries in a
 * multiview render pass, read back late, copied with
 * VK_QUERY_RESULT_WAIT_BIT, and drawn from several processes at once.
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
 * Options that make the work more like a vkqs run of the multiview area:
 *   --view-index     the vertex shader reads gl_ViewIndex
 *   --vkqs-features  enable every supported core feature and the features
 *                    of VK_EXT_transform_feedback, VK_EXT_primitives_-
 *                    generated_query and VK_EXT_mesh_shader, as vkqs does
 *   --churn          a new instance and device for every round, destroyed
 *                    after it (vkqs runs a case per process)
 *   --all-queues     a queue of every queue family on each device
 *   --vkqs-pipeline  vkqs's vertex shader (push constants, gl_ViewIndex,
 *                    gl_PointSize) with dynamic viewport and scissor
 *
 * The query type:
 *   --stats FLAGS    a pipeline statistics query of these
 *                    VkQueryPipelineStatisticFlags (e.g. 0x80: fragment
 *                    shader invocations) instead of the precise occlusion
 *                    query; every query of the run must read available, the
 *                    values are printed, not checked
 *
 * Usage: multiview_queries [late | wait Q | concurrent P T] [--mask M]
 *                          [--samples S] [--view-index] [--vkqs-features] [--churn]
 *                          [--all-queues] [--vkqs-pipeline] [--stats FLAGS]
 * Build: cc -std=c11 -I tools/repro tools/repro/multiview_queries.c -lvulkan */
#include <sys/wait.h>
#include <time.h>

#include "repro.h"
#include "shaders.h"

/* One query's words in a readback WITH_AVAILABILITY: its values (one for
 * occlusion, one per statistic), then the availability word. */
#define MAX_WORDS 12u
struct slot {
	uint64_t w[MAX_WORDS];
};

struct opts {
	uint32_t mask, samples;
	bool wait;          /* `wait Q`, else `late` */
	uint32_t wait_q;
	bool view_index, vkqs_features, churn, vkqs_pipeline;
	uint32_t stats;     /* --stats: pipeline statistics flags, else occlusion */
};

/* Values per query: 1 (occlusion) or the statistics' count. */
static uint32_t nvalues(const struct opts *o)
{
	return o->stats ? (uint32_t)__builtin_popcount(o->stats) : 1;
}

/* mv_rect.vert's push constants (vkqs's struct vkqs_rect_push). */
struct rect_push {
	float rect[4];
	float fb_size[2];
	float z, dx;
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The features vkqs's fixture enables: every supported one but robustness
 * and primitiveFragmentShadingRateMeshShader (framework/device.c). */
struct vkqs_features {
	VkPhysicalDeviceFeatures2 f2;
	VkPhysicalDeviceVulkan11Features f11;
	VkPhysicalDeviceVulkan12Features f12;
	VkPhysicalDeviceVulkan13Features f13;
	VkPhysicalDeviceTransformFeedbackFeaturesEXT xfb;
	VkPhysicalDevicePrimitivesGeneratedQueryFeaturesEXT pgq;
	VkPhysicalDeviceMeshShaderFeaturesEXT mesh;
	const char *exts[3];
	uint32_t next;
};

static bool has_ext(VkPhysicalDevice phys, const char *name)
{
	uint32_t n = 0;
	vkEnumerateDeviceExtensionProperties(phys, NULL, &n, NULL);
	VkExtensionProperties *e = calloc(n ? n : 1, sizeof(*e));
	vkEnumerateDeviceExtensionProperties(phys, NULL, &n, e);
	bool found = false;
	for (uint32_t i = 0; i < n && !found; i++)
		found = !strcmp(e[i].extensionName, name);
	free(e);
	return found;
}

static void vkqs_features(struct repro *r, struct vkqs_features *f)
{
	memset(f, 0, sizeof(*f));
	f->f2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
	f->f11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
	f->f12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
	f->f13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
	f->xfb.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT;
	f->pgq.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVES_GENERATED_QUERY_FEATURES_EXT;
	f->mesh.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_FEATURES_EXT;
	f->f2.pNext = &f->f11;
	f->f11.pNext = &f->f12;
	void **tail = &f->f12.pNext;
	if (r->props.apiVersion >= VK_API_VERSION_1_3) {
		*tail = &f->f13;
		tail = &f->f13.pNext;
	}
	static const char *const names[3] = {VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME,
					      VK_EXT_PRIMITIVES_GENERATED_QUERY_EXTENSION_NAME,
					      VK_EXT_MESH_SHADER_EXTENSION_NAME};
	void *structs[3] = {&f->xfb, &f->pgq, &f->mesh};
	for (int i = 0; i < 3; i++)
		if (has_ext(r->phys, names[i])) {
			f->exts[f->next++] = names[i];
			*tail = structs[i];
			tail = (void **)&((VkBaseOutStructure *)structs[i])->pNext;
		}
	vkGetPhysicalDeviceFeatures2(r->phys, &f->f2);
	f->f2.features.robustBufferAccess = VK_FALSE;
	f->f13.robustImageAccess = VK_FALSE;
	f->mesh.primitiveFragmentShadingRateMeshShader = VK_FALSE;
}

static void device_up(struct repro *r, const struct opts *o)
{
	repro_pick(r);
	if (o->vkqs_features) {
		static struct vkqs_features f;
		vkqs_features(r, &f);
		repro_device(r, f.exts, f.next, &f.f2);
		return;
	}
	VkPhysicalDeviceMultiviewFeatures mv = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_FEATURES, .multiview = VK_TRUE};
	VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
					.pNext = &mv,
					.features = {.occlusionQueryPrecise = VK_TRUE,
						     .pipelineStatisticsQuery = o->stats != 0}};
	repro_device(r, NULL, 0, &f2);
}

/* The objects of one device: target, query pool, copy destination. */
struct scene {
	struct repro_target t;
	VkQueryPool pool;
	struct repro_buffer dst;
	uint32_t n; /* queries of the run */
	VkDeviceSize stride; /* bytes of one query in a readback */
};

static void scene_up(struct repro *r, const struct opts *o, struct scene *sc)
{
	/* Mask 0: no multiview, one query (the concurrent mode's control). */
	sc->n = o->mask ? (uint32_t)__builtin_popcount(o->mask) : 1;
	uint32_t layers = o->mask ? 32u - (uint32_t)__builtin_clz(o->mask) : 1;
	repro_target(r, &sc->t, 32, layers, (VkSampleCountFlagBits)o->samples, o->mask);
	VkQueryPoolCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
				     .queryType = VK_QUERY_TYPE_OCCLUSION,
				     .queryCount = sc->n + 2};
	if (o->stats) {
		qci.queryType = VK_QUERY_TYPE_PIPELINE_STATISTICS;
		qci.pipelineStatistics = o->stats;
	}
	REPRO_CHECK(vkCreateQueryPool(r->device, &qci, NULL, &sc->pool));
	sc->stride = (nvalues(o) + 1) * sizeof(uint64_t);
	repro_buffer(r, &sc->dst, (sc->n + 2) * sc->stride, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
	memset(sc->dst.map, 0xa5, sc->dst.size);
}

static void scene_down(struct repro *r, struct scene *sc)
{
	vkDestroyQueryPool(r->device, sc->pool, NULL);
	repro_buffer_destroy(r, &sc->dst);
	repro_target_destroy(r, &sc->t);
}

/* "v0, v1, ..." of a query's n values, for messages. */
static const char *slot_values(const struct slot *s, uint32_t n, char *buf, size_t size)
{
	size_t len = 0;
	buf[0] = 0;
	for (uint32_t i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%llu", i ? ", " : "",
					(unsigned long long)s->w[i]);
	return buf;
}

/* One round: shaders and a pipeline of their own (as the suite makes them
 * per case), the render pass with the query, the readback of o.  Returns
 * whether every query of the run read available with the right sum. */
static bool round_once(struct repro *r, const struct opts *o, struct scene *sc)
{
	const VkQueryResultFlags flags =
		VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT;
	VkDevice dev = r->device;
	const uint32_t n = sc->n;
	VkShaderModule vs = o->vkqs_pipeline ? repro_shader(r, mv_rect_vert, sizeof(mv_rect_vert))
			    : o->view_index  ? repro_shader(r, rect_view_vert, sizeof(rect_view_vert))
					     : repro_shader(r, rect_vert, sizeof(rect_vert));
	VkShaderModule fs = repro_shader(r, color_frag, sizeof(color_frag));
	VkPipelineLayout layout;
	const struct repro_pipeline_opts po = {
		.push_size = o->vkqs_pipeline ? (uint32_t)sizeof(struct rect_push) : 0,
		.dynamic_viewport = o->vkqs_pipeline};
	VkPipeline p = repro_pipeline_ex(r, &sc->t, vs, fs, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
					 (VkSampleCountFlagBits)o->samples, &po, &layout);
	VkCommandBuffer cb = repro_cmd_begin(r);
	vkCmdResetQueryPool(cb, sc->pool, 0, n + 2);
	repro_target_begin(cb, &sc->t);
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, p);
	if (o->vkqs_pipeline) {
		/* The same 16 x 16 pixels in every view (dx 0). */
		const float size = (float)sc->t.size;
		VkViewport vp = {0, 0, size, size, 0, 1};
		VkRect2D sr = {{0, 0}, {sc->t.size, sc->t.size}};
		struct rect_push pc = {{8, 8, 24, 24}, {size, size}, 0.5f, 0};
		vkCmdSetViewport(cb, 0, 1, &vp);
		vkCmdSetScissor(cb, 0, 1, &sr);
		vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(pc), &pc);
	}
	vkCmdBeginQuery(cb, sc->pool, 1, o->stats ? 0 : VK_QUERY_CONTROL_PRECISE_BIT);
	vkCmdDraw(cb, 6, 1, 0, 0);
	vkCmdEndQuery(cb, sc->pool, 1);
	vkCmdEndRenderPass(cb);
	if (o->wait) {
		repro_log("copying query %u with WAIT in the same command buffer", o->wait_q);
		vkCmdCopyQueryPoolResults(cb, sc->pool, o->wait_q, 1, sc->dst.buf, o->wait_q * sc->stride,
					  sc->stride, flags | VK_QUERY_RESULT_WAIT_BIT);
	}
	repro_cmd_submit_wait(r, cb, "render pass submission");

	bool ok = true;
	/* [-0.5, 0.5]^2 of a 32x32 target in every view: 16 x 16 pixels. */
	const uint64_t expect = 16ull * 16 * o->samples * n;
	const uint32_t nv = nvalues(o);
	char vals[160];
	if (o->wait) {
		struct slot s;
		memcpy(&s, sc->dst.map + o->wait_q * sc->stride, sc->stride);
		repro_log("query %u copied with WAIT: values %s, availability %llu", o->wait_q,
			  slot_values(&s, nv, vals, sizeof(vals)), (unsigned long long)s.w[nv]);
		ok = s.w[nv] != 0;
	} else {
		static struct slot s[32];
		VkResult res = vkGetQueryPoolResults(dev, sc->pool, 1, n, n * sc->stride, s, sc->stride,
						     flags);
		uint64_t sum = 0;
		for (uint32_t k = 0; k < n; k++) {
			const struct slot *q = (const struct slot *)((const uint8_t *)s + k * sc->stride);
			if (repro_verbose)
				repro_log("vkGetQueryPoolResults: query %u values %s availability %llu",
					  1 + k, slot_values(q, nv, vals, sizeof(vals)),
					  (unsigned long long)q->w[nv]);
			sum += q->w[0];
			ok &= q->w[nv] != 0;
		}
		if (!o->stats && (repro_verbose || sum != expect))
			repro_log("vkGetQueryPoolResults returned %d; sum %llu (expected %llu)",
				  (int)res, (unsigned long long)sum, (unsigned long long)expect);
		ok &= o->stats || sum == expect;
		cb = repro_cmd_begin(r);
		vkCmdCopyQueryPoolResults(cb, sc->pool, 1, n, sc->dst.buf, sc->stride, sc->stride, flags);
		repro_cmd_submit_wait(r, cb, "late copy");
		for (uint32_t k = 0; k < n; k++) {
			struct slot c;
			memcpy(&c, sc->dst.map + (1 + k) * sc->stride, sc->stride);
			if (repro_verbose || !c.w[nv])
				repro_log("late copy: query %u values %s availability %llu", 1 + k,
					  slot_values(&c, nv, vals, sizeof(vals)), (unsigned long long)c.w[nv]);
			ok &= c.w[nv] != 0;
		}
	}
	vkDestroyPipeline(dev, p, NULL);
	vkDestroyPipelineLayout(dev, layout, NULL);
	vkDestroyShaderModule(dev, vs, NULL);
	vkDestroyShaderModule(dev, fs, NULL);
	return ok;
}

/* One process's work: one round, or rounds for `seconds` (> 0), on one
 * device or (churn) a new device each round. */
static int run(const struct opts *o, double seconds)
{
	const double end = now_s() + seconds;
	unsigned rounds = 0;
	bool ok = true;
	struct repro r;
	struct scene sc;
	do {
		if (rounds == 0 || o->churn) {
			device_up(&r, o);
			scene_up(&r, o, &sc);
		}
		if (rounds == 0)
			repro_log("view mask 0x%x (N = %u), %u samples, %s query 1 "
				  "of %u, %s%s%s%s%s",
				  o->mask, sc.n, o->samples,
				  o->stats ? "pipeline statistics" : "precise occlusion", sc.n + 2,
				  o->wait ? "in-command-buffer copy with WAIT" : "late reads",
				  o->view_index ? ", gl_ViewIndex" : "",
				  o->vkqs_features ? ", vkqs's features" : "",
				  o->churn ? ", a device per round" : "",
				  o->vkqs_pipeline ? ", vkqs's pipeline" : "");
		ok = round_once(&r, o, &sc);
		rounds++;
		repro_verbose = false;
		if (o->churn || !ok || now_s() >= end) {
			scene_down(&r, &sc);
			repro_fini(&r);
		}
	} while (ok && now_s() < end);
	if (seconds > 0)
		repro_log("%u rounds", rounds);
	repro_log(ok ? "RESULT: OK, every query of the run is available"
		     : "RESULT: a query of the multiview run is not available");
	return !ok;
}

int main(int argc, char **argv)
{
	struct opts o = {.mask = 0x3, .samples = 4, .wait_q = 1};
	uint32_t procs = 0;
	double seconds = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "late"))
			o.wait = false;
		else if (!strcmp(argv[i], "wait") && i + 1 < argc)
			o.wait = true, o.wait_q = (uint32_t)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "concurrent") && i + 2 < argc)
			procs = (uint32_t)strtoul(argv[i + 1], NULL, 0),
			seconds = strtod(argv[i + 2], NULL), i += 2;
		else if (!strcmp(argv[i], "--mask") && i + 1 < argc)
			o.mask = (uint32_t)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--samples") && i + 1 < argc)
			o.samples = (uint32_t)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--view-index"))
			o.view_index = true;
		else if (!strcmp(argv[i], "--vkqs-features"))
			o.vkqs_features = true;
		else if (!strcmp(argv[i], "--churn"))
			o.churn = true;
		else if (!strcmp(argv[i], "--all-queues"))
			repro_all_queues = true;
		else if (!strcmp(argv[i], "--stats") && i + 1 < argc)
			o.stats = (uint32_t)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--vkqs-pipeline"))
			o.vkqs_pipeline = true;
		else
			repro_exit(2, "usage: %s [late | wait Q | concurrent P T] [--mask M] "
				      "[--samples S] [--view-index] [--vkqs-features] [--churn] [--all-queues] [--vkqs-pipeline] "
				      "[--stats FLAGS]",
				   argv[0]);
	}
	uint32_t n = (uint32_t)__builtin_popcount(o.mask);
	if ((!o.mask && (!procs || o.view_index)) || (o.wait && (o.wait_q < 1 || o.wait_q > n)))
		repro_exit(2, "need a non-zero mask (0 only with concurrent, without --view-index) "
			      "and 1 <= Q <= N");
	if (o.stats & ~0x7ffu)
		repro_exit(2, "--stats: core VkQueryPipelineStatisticFlags only (bits 0..10)");
	if (!procs)
		return run(&o, 0);
	if (procs > 64 || !(seconds > 0))
		repro_exit(2, "concurrent: 1..64 processes and a positive number of seconds");
	repro_log("%u processes, %.0f s each", procs, seconds);
	for (uint32_t p = 0; p < procs; p++) {
		pid_t pid = fork();
		if (pid == 0)
			_exit(run(&o, seconds));
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
