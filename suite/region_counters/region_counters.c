/* Performance counters by region (VK_ARM_performance_counters_by_region;
 * Vulkan-Docs 1.4.360, the extension's appendix and vk.xml).
 *
 * A render pass instance begun with VkRenderPassPerformanceCountersByRegion-
 * BeginInfoARM writes, for each subpass s and view or layer l, the chosen
 * counters of every region of the render area to pCounterAddresses[s * L +
 * l], "each counter value ... as an unsigned 32-bit integer value", in
 * framebuffer-space order when identityTransformOrder is VK_TRUE.
 *
 * The layout.  The spec bounds the bytes an element may cover by
 *   N = align(ceil(w / rsw) * align(c * 4, ra), rsa) * ceil(h / rsh)
 * (VUID-VkRenderPassPerformanceCountersByRegionBeginInfoARM-pCounterAddresses-11817)
 * and says only "in an implementation-dependent manner" about where each
 * value goes.  The formula is that of rows of ceil(w / rsw) regions, each
 * region's c values aligned to regionAlignment, each row aligned to
 * rowStrideAlignment; with identityTransformOrder the rows and regions are
 * in framebuffer order.  So every case checks that nothing at or past N is
 * written, and where identityTransformOrder holds it reads region (x, y)
 * at y * row stride + x * region stride and checks that the alignment
 * padding is untouched.
 *
 * Values.  The spec defines no counter; a device names its own.  Where the
 * device has counters named "samples_passed" and "fragment_shader_-
 * invocations" (the reference device documents them exactly:
 * refdevice/README.md) they are checked exactly: a region's samples passed
 * are the samples of the draw's pixels inside the region (the rectangle of
 * vkqs_draw_rect covers exactly its pixels: suite/occlusion/occlusion.c),
 * so their sum over the regions equals a precise occlusion query around
 * the same draw.  Elsewhere those cases are NotSupported, naming the
 * counter.  */
#include <stdio.h>
#include <string.h>

#include "passtarget.h"
#include "vkutil.h"

#define D (VKQS_D(ctx))
#define DEV (VKQS_DEV(ctx))

#define FEATURE "VK_ARM_performance_counters_by_region.performanceCountersByRegion"
#define SPEC_WRITE "VK_ARM_performance_counters_by_region: counters are written per region " \
		   "of each subpass and view to pCounterAddresses[s * L + l], each as a uint32"
#define SPEC_SIZE "VUID-VkRenderPassPerformanceCountersByRegionBeginInfoARM-pCounterAddresses-11817 " \
		  "(the output size N)"
#define SPEC_ENUM "vkEnumeratePhysicalDeviceQueueFamilyPerformanceCountersByRegionARM: count, " \
		  "then at most *pCounterCount written, VK_INCOMPLETE when fewer than available"

#define SIZE 128u
#define MAX_COUNTERS 64u
#define GUARD 0xA5u
#define GUARD_TAIL 256u /* guard bytes checked past N */

/* What a case needs: the properties, the graphics family's counters, and
 * the enumeration function (a physical-device function the loader reaches
 * through vk_icdGetPhysicalDeviceProcAddr). */
struct rc {
	VkPhysicalDevicePerformanceCountersByRegionPropertiesARM props;
	PFN_vkEnumeratePhysicalDeviceQueueFamilyPerformanceCountersByRegionARM enumerate;
	uint32_t count;
	VkPerformanceCounterARM ids[MAX_COUNTERS];
	VkPerformanceCounterDescriptionARM desc[MAX_COUNTERS];
};

static void rc_enumerate(struct vkqs_ctx *ctx, const struct rc *rc, uint32_t family,
			 uint32_t *count, VkPerformanceCounterARM *ids,
			 VkPerformanceCounterDescriptionARM *desc)
{
	for (uint32_t i = 0; i < *count; i++) {
		if (ids)
			ids[i] = (VkPerformanceCounterARM){.sType = VK_STRUCTURE_TYPE_PERFORMANCE_COUNTER_ARM};
		if (desc)
			desc[i] = (VkPerformanceCounterDescriptionARM){
				.sType = VK_STRUCTURE_TYPE_PERFORMANCE_COUNTER_DESCRIPTION_ARM};
	}
	VkResult r = rc->enumerate(ctx->vk->phys, family, count, ids, desc);
	VKQS_ASSERTF(ctx, r == VK_SUCCESS || r == VK_INCOMPLETE, "enumeration returned %s",
		     vkqs_vk_result_name(r));
}

static struct rc *rc_require(struct vkqs_ctx *ctx)
{
	vkqs_require_queue(ctx, &ctx->vk->gfx, "graphics");
	vkqs_require_feature(ctx, FEATURE);
	struct rc *rc = vkqs_alloc(ctx, sizeof(*rc));
	rc->props.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_COUNTERS_BY_REGION_PROPERTIES_ARM;
	VkPhysicalDeviceProperties2 p2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
		.pNext = &rc->props,
	};
	vkGetPhysicalDeviceProperties2(ctx->vk->phys, &p2);
	rc->enumerate = (PFN_vkEnumeratePhysicalDeviceQueueFamilyPerformanceCountersByRegionARM)
		vkGetInstanceProcAddr(ctx->vk->inst.instance,
				      "vkEnumeratePhysicalDeviceQueueFamilyPerformanceCountersByRegionARM");
	VKQS_ASSERTF(ctx, rc->enumerate != NULL,
		     "vkGetInstanceProcAddr gives no vkEnumeratePhysicalDeviceQueueFamily"
		     "PerformanceCountersByRegionARM while the extension is supported");
	rc->count = 0;
	VKQS_CHECK(ctx, rc->enumerate(ctx->vk->phys, ctx->vk->gfx.family, &rc->count, NULL, NULL));
	if (rc->count > MAX_COUNTERS)
		rc->count = MAX_COUNTERS;
	rc_enumerate(ctx, rc, ctx->vk->gfx.family, &rc->count, rc->ids, rc->desc);
	return rc;
}

/* The counter named `name`, or NotSupported. */
static uint32_t rc_counter(struct vkqs_ctx *ctx, const struct rc *rc, const char *name)
{
	for (uint32_t i = 0; i < rc->count; i++)
		if (strcmp(rc->desc[i].name, name) == 0)
			return rc->ids[i].counterID;
	vkqs_skip(ctx, "the device has no region counter named \"%s\" whose value the case "
		       "can state exactly (refdevice/README.md)",
		  name);
}

static uint32_t align_up(uint32_t v, uint32_t a)
{
	return a ? (v + a - 1) / a * a : v;
}

/* The proposal's layout of one element for a w x h render area and c
 * counters. */
struct layout {
	uint32_t cols, rows, region_stride, row_stride;
	VkDeviceSize size; /* N */
};

static struct layout rc_layout(const struct rc *rc, uint32_t w, uint32_t h, uint32_t c)
{
	struct layout l;
	VkExtent2D r = rc->props.performanceCounterRegionSize;
	l.cols = (w + r.width - 1) / r.width;
	l.rows = (h + r.height - 1) / r.height;
	l.region_stride = align_up(c * 4, rc->props.regionAlignment);
	l.row_stride = align_up(l.cols * l.region_stride, rc->props.rowStrideAlignment);
	l.size = (VkDeviceSize)l.row_stride * l.rows;
	return l;
}

/* Output buffers: `elements` of N bytes each (each at a 256-byte aligned
 * offset), guard bytes in between and after, all GUARD. */
struct out {
	struct vkqs_buffer *buf;
	struct layout lay;
	VkDeviceSize stride; /* between elements */
	uint32_t elements;
	VkDeviceAddress addr[8];
};

static struct out *out_create(struct vkqs_ctx *ctx, const struct rc *rc, uint32_t w, uint32_t h,
			      uint32_t c, uint32_t elements)
{
	struct out *o = vkqs_alloc(ctx, sizeof(*o));
	o->lay = rc_layout(rc, w, h, c);
	o->stride = (o->lay.size + GUARD_TAIL + 255) / 256 * 256;
	o->elements = elements;
	o->buf = vkqs_buffer_host(ctx, o->stride * elements,
				  VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
					  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	memset(o->buf->map, GUARD, o->buf->size);
	vkqs_buffer_flush(ctx, o->buf);
	VkDeviceAddress base = vkqs_buffer_address(ctx, o->buf);
	for (uint32_t i = 0; i < elements; i++)
		o->addr[i] = base + i * o->stride;
	return o;
}

static bool is_guard(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != GUARD)
			return false;
	return true;
}

/* Element i: every byte at or past N untouched (up to the next element);
 * with identityTransformOrder, every region's c values written and the
 * padding after them and after each row untouched. */
static void expect_layout(struct vkqs_ctx *ctx, const struct rc *rc, const struct out *o,
			  uint32_t i, uint32_t c, bool written)
{
	const uint8_t *e = o->buf->map + i * o->stride;
	for (VkDeviceSize b = o->lay.size; b < o->stride; b++)
		VKQS_ASSERTF(ctx, e[b] == GUARD,
			     "element %u: byte %" PRIu64 " written, at or past N = %" PRIu64, i,
			     (uint64_t)b, (uint64_t)o->lay.size);
	if (!rc->props.identityTransformOrder)
		return;
	for (uint32_t y = 0; y < o->lay.rows; y++) {
		const uint8_t *row = e + (size_t)y * o->lay.row_stride;
		for (uint32_t x = 0; x < o->lay.cols; x++) {
			const uint8_t *r = row + (size_t)x * o->lay.region_stride;
			if (written)
				VKQS_ASSERTF(ctx, !is_guard(r, c * 4),
					     "element %u, region (%u, %u): counters not written", i, x,
					     y);
			else
				VKQS_ASSERTF(ctx, is_guard(r, c * 4),
					     "element %u, region (%u, %u): written, but its address "
					     "was 0 or the subpass/view drew nothing there", i, x, y);
			VKQS_ASSERTF(ctx, is_guard(r + c * 4, o->lay.region_stride - c * 4),
				     "element %u, region (%u, %u): alignment padding after the %u "
				     "counters written", i, x, y, c);
		}
		size_t used = (size_t)o->lay.cols * o->lay.region_stride;
		VKQS_ASSERTF(ctx, is_guard(row + used, o->lay.row_stride - used),
			     "element %u, row %u: row padding written", i, y);
	}
}

static uint32_t value_at(const struct out *o, uint32_t i, uint32_t x, uint32_t y, uint32_t k)
{
	uint32_t v;
	memcpy(&v, o->buf->map + i * o->stride + (size_t)y * o->lay.row_stride +
			   (size_t)x * o->lay.region_stride + 4 * k,
	       4);
	return v;
}

static VkRenderPassPerformanceCountersByRegionBeginInfoARM rc_begin_info(const struct out *o,
									 uint32_t *ids,
									 uint32_t c,
									 bool serialize)
{
	return (VkRenderPassPerformanceCountersByRegionBeginInfoARM){
		.sType = VK_STRUCTURE_TYPE_RENDER_PASS_PERFORMANCE_COUNTERS_BY_REGION_BEGIN_INFO_ARM,
		.counterAddressCount = o->elements,
		.pCounterAddresses = o->addr,
		.serializeRegions = serialize,
		.counterIndexCount = c,
		.pCounterIndices = ids,
	};
}

/* The pipeline of vkqs_draw_rect for subpass s of t. */
static struct vkqs_pipeline *rc_pipeline(struct vkqs_ctx *ctx, const struct vkqs_pass_target *t,
					 uint32_t s)
{
	struct vkqs_pipeline_target where = {
		.render_pass = t->render_pass,
		.subpass = s,
		.samples = t->samples,
		.view_mask = t->view_masks[s],
		.color_format = t->color_format,
		.depth_format = t->depth_format,
	};
	struct vkqs_pipeline_desc desc = {0};
	return vkqs_pipeline_create(ctx, &where, &desc);
}

static void rc_rect(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_pipeline *p,
		    VkRect2D r)
{
	struct vkqs_rect_push pc = {{(float)r.offset.x, (float)r.offset.y,
				     (float)(r.offset.x + (int32_t)r.extent.width),
				     (float)(r.offset.y + (int32_t)r.extent.height)},
				    {(float)SIZE, (float)SIZE},
				    0.5f,
				    0};
	vkqs_cmd_bind_rect(ctx, cb, p, &pc);
	D->vkCmdDraw(cb, 6, 1, 0, 0);
}

/* Pixels of rectangle a inside rectangle b. */
static uint64_t overlap(VkRect2D a, VkRect2D b)
{
	int64_t x0 = a.offset.x > b.offset.x ? a.offset.x : b.offset.x;
	int64_t y0 = a.offset.y > b.offset.y ? a.offset.y : b.offset.y;
	int64_t x1 = (int64_t)a.offset.x + a.extent.width, bx = (int64_t)b.offset.x + b.extent.width;
	int64_t y1 = (int64_t)a.offset.y + a.extent.height, by = (int64_t)b.offset.y + b.extent.height;
	x1 = x1 < bx ? x1 : bx;
	y1 = y1 < by ? y1 : by;
	return x1 > x0 && y1 > y0 ? (uint64_t)((x1 - x0) * (y1 - y0)) : 0;
}

/* Region (x, y) of a render area, in framebuffer coordinates. */
static VkRect2D region_rect(const struct rc *rc, VkRect2D area, uint32_t x, uint32_t y)
{
	VkExtent2D r = rc->props.performanceCounterRegionSize;
	VkRect2D q = {{area.offset.x + (int32_t)(x * r.width), area.offset.y + (int32_t)(y * r.height)},
		      {r.width, r.height}};
	return q;
}

/* Cases ----------------------------------------------------------------------*/

static void properties(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	struct rc *rc = rc_require(ctx);
	const VkPhysicalDevicePerformanceCountersByRegionPropertiesARM *p = &rc->props;
	VKQS_EXPECTF(ctx, p->maxPerRegionPerformanceCounters >= 1,
		     "maxPerRegionPerformanceCounters 0 with the feature supported");
	VKQS_EXPECTF(ctx, p->performanceCounterRegionSize.width >= 1 &&
				  p->performanceCounterRegionSize.height >= 1,
		     "performanceCounterRegionSize %ux%u", p->performanceCounterRegionSize.width,
		     p->performanceCounterRegionSize.height);
	VKQS_EXPECTF(ctx, p->rowStrideAlignment >= 1 && p->regionAlignment >= 1,
		     "rowStrideAlignment %u, regionAlignment %u (alignments of 0)",
		     p->rowStrideAlignment, p->regionAlignment);
	VKQS_EXPECTF(ctx, p->identityTransformOrder == VK_TRUE || p->identityTransformOrder == VK_FALSE,
		     "identityTransformOrder %u is not a VkBool32", p->identityTransformOrder);
	VKQS_EXPECTF(ctx, rc->count >= 1, "the graphics family has no counters");
}

/* Which arrays the enumeration fills. */
enum fill { FILL_IDS, FILL_DESC, FILL_BOTH };
static const enum fill fills[] = {FILL_IDS, FILL_DESC, FILL_BOTH};
static void fill_name(const void *param, char *buf, size_t size)
{
	static const char *const n[] = {"counters", "descriptions", "both"};
	snprintf(buf, size, "%s", n[*(const enum fill *)param]);
}

/* On every queue family: the count; then each shorter count gives
 * VK_INCOMPLETE with that many written and the rest untouched; the full
 * count VK_SUCCESS and the same IDs as a second call. */
static void enumerate(struct vkqs_ctx *ctx, const void *param)
{
	enum fill f = *(const enum fill *)param;
	struct rc *rc = rc_require(ctx);
	for (uint32_t fam = 0; fam < ctx->vk->info.family_count; fam++) {
		uint32_t n = 0;
		VKQS_CHECK(ctx, rc->enumerate(ctx->vk->phys, fam, &n, NULL, NULL));
		if (n > MAX_COUNTERS - 1)
			n = MAX_COUNTERS - 1;
		for (uint32_t ask = 0; ask <= n; ask++) {
			VkPerformanceCounterARM ids[MAX_COUNTERS];
			VkPerformanceCounterDescriptionARM desc[MAX_COUNTERS];
			memset(ids, GUARD, sizeof(ids));
			memset(desc, GUARD, sizeof(desc));
			for (uint32_t i = 0; i < ask; i++) {
				ids[i].sType = VK_STRUCTURE_TYPE_PERFORMANCE_COUNTER_ARM;
				ids[i].pNext = NULL;
				desc[i].sType = VK_STRUCTURE_TYPE_PERFORMANCE_COUNTER_DESCRIPTION_ARM;
				desc[i].pNext = NULL;
			}
			uint32_t got = ask;
			VkResult r = rc->enumerate(ctx->vk->phys, fam, &got,
						   f != FILL_DESC ? ids : NULL,
						   f != FILL_IDS ? desc : NULL);
			VKQS_EXPECTF(ctx, r == (ask < n ? VK_INCOMPLETE : VK_SUCCESS) && got == ask,
				     "family %u, %u of %u asked: %s, %u written", fam, ask, n,
				     vkqs_vk_result_name(r), got);
			VKQS_EXPECTF(ctx, is_guard((const uint8_t *)&ids[ask], sizeof(ids[0])) &&
						  is_guard((const uint8_t *)&desc[ask], sizeof(desc[0])),
				     "family %u, %u asked: the element after them was written", fam,
				     ask);
			for (uint32_t i = 0; i < ask && f != FILL_DESC && fam == ctx->vk->gfx.family; i++)
				VKQS_EXPECTF(ctx, ids[i].counterID == rc->ids[i].counterID,
					     "counter %u: ID 0x%x, 0x%x in a full enumeration", i,
					     ids[i].counterID, rc->ids[i].counterID);
		}
	}
}

/* IDs unique; names non-empty, null-terminated within VK_MAX_DESCRIPTION_SIZE
 * and unique. */
static void descriptions(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	struct rc *rc = rc_require(ctx);
	for (uint32_t i = 0; i < rc->count; i++) {
		const char *name = rc->desc[i].name;
		VKQS_EXPECTF(ctx, memchr(name, 0, VK_MAX_DESCRIPTION_SIZE) != NULL && name[0],
			     "counter %u (ID 0x%x): the name is empty or not null-terminated", i,
			     rc->ids[i].counterID);
		for (uint32_t j = 0; j < i; j++) {
			VKQS_EXPECTF(ctx, rc->ids[i].counterID != rc->ids[j].counterID,
				     "counters %u and %u share ID 0x%x", j, i, rc->ids[i].counterID);
			VKQS_EXPECTF(ctx, strncmp(rc->desc[i].name, rc->desc[j].name,
						  VK_MAX_DESCRIPTION_SIZE) != 0,
				     "counters %u and %u share the name \"%s\"", j, i, name);
		}
	}
}

/* Layout: render areas that are and are not multiples of the region, at a
 * non-zero offset, with 1 and the most counters. */
struct area_param {
	enum vkqs_pass_kind kind;
	VkRect2D area;
	bool max_counters;
};
#define AREA_PARAMS(k)                                              \
	{k, {{0, 0}, {SIZE, SIZE}}, false}, {k, {{0, 0}, {SIZE, SIZE}}, true},   \
	{k, {{0, 0}, {100, 70}}, false}, {k, {{0, 0}, {100, 70}}, true},       \
	{k, {{16, 8}, {96, 64}}, false}, {k, {{13, 7}, {90, 77}}, true}
static const struct area_param area_params[] = {
	AREA_PARAMS(VKQS_PASS_RP1), AREA_PARAMS(VKQS_PASS_RP2), AREA_PARAMS(VKQS_PASS_DYN),
};
static void area_name(const void *param, char *buf, size_t size)
{
	const struct area_param *p = param;
	snprintf(buf, size, "%s_%ux%u_at_%d_%d_%s", vkqs_pass_kind_tokens[p->kind],
		 p->area.extent.width, p->area.extent.height, p->area.offset.x, p->area.offset.y,
		 p->max_counters ? "max_counters" : "one_counter");
}

static void layout(struct vkqs_ctx *ctx, const void *param)
{
	const struct area_param *p = param;
	struct rc *rc = rc_require(ctx);
	uint32_t c = p->max_counters ? rc->props.maxPerRegionPerformanceCounters : 1;
	if (c > rc->count)
		c = rc->count;
	uint32_t ids[MAX_COUNTERS];
	for (uint32_t k = 0; k < c; k++)
		ids[k] = rc->ids[k].counterID;
	struct vkqs_pass_target *t = vkqs_pass_target_create(ctx, p->kind, SIZE, VK_SAMPLE_COUNT_1_BIT,
							     false, 1, (uint32_t[]){0});
	struct vkqs_pipeline *pl = rc_pipeline(ctx, t, 0);
	struct out *o = out_create(ctx, rc, p->area.extent.width, p->area.extent.height, c, 1);
	VkRenderPassPerformanceCountersByRegionBeginInfoARM bi = rc_begin_info(o, ids, c, VK_TRUE);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	vkqs_pass_begin_ex(ctx, cb, t, 1.0f, p->area, &bi);
	rc_rect(ctx, cb, pl, (VkRect2D){{0, 0}, {SIZE, SIZE}});
	vkqs_pass_end(ctx, cb, t);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	vkqs_buffer_invalidate(ctx, o->buf);
	expect_layout(ctx, rc, o, 0, c, true);
}

/* Exact values: samples passed and fragment shader invocations per region
 * of one rectangle, and their sum against a precise occlusion query around
 * the same draw. */
struct value_param {
	enum vkqs_pass_kind kind;
	VkSampleCountFlagBits samples;
	VkRect2D rect;
};
#define VALUE_PARAMS(k, s)                                     \
	{k, s, {{0, 0}, {SIZE, SIZE}}}, {k, s, {{3, 5}, {20, 17}}}, \
	{k, s, {{25, 30}, {70, 41}}}
static const struct value_param value_params[] = {
	VALUE_PARAMS(VKQS_PASS_RP1, VK_SAMPLE_COUNT_1_BIT),
	VALUE_PARAMS(VKQS_PASS_RP2, VK_SAMPLE_COUNT_1_BIT),
	VALUE_PARAMS(VKQS_PASS_DYN, VK_SAMPLE_COUNT_1_BIT),
	VALUE_PARAMS(VKQS_PASS_RP1, VK_SAMPLE_COUNT_4_BIT),
	VALUE_PARAMS(VKQS_PASS_RP2, VK_SAMPLE_COUNT_4_BIT),
	VALUE_PARAMS(VKQS_PASS_DYN, VK_SAMPLE_COUNT_4_BIT),
};
static void value_name(const void *param, char *buf, size_t size)
{
	const struct value_param *p = param;
	snprintf(buf, size, "%s_%usample_rect_%ux%u_at_%d_%d", vkqs_pass_kind_tokens[p->kind],
		 (unsigned)p->samples, p->rect.extent.width, p->rect.extent.height, p->rect.offset.x,
		 p->rect.offset.y);
}

static void values(struct vkqs_ctx *ctx, const void *param)
{
	const struct value_param *p = param;
	struct rc *rc = rc_require(ctx);
	vkqs_require_feature(ctx, "occlusionQueryPrecise");
	vkqs_require_exact_coverage(ctx);
	if (!rc->props.identityTransformOrder)
		vkqs_skip(ctx, "identityTransformOrder is VK_FALSE: which value is which region's "
			       "is implementation-dependent");
	uint32_t ids[2] = {rc_counter(ctx, rc, "samples_passed"),
			   rc_counter(ctx, rc, "fragment_shader_invocations")};
	uint32_t c = rc->props.maxPerRegionPerformanceCounters >= 2 ? 2 : 1;
	struct vkqs_pass_target *t = vkqs_pass_target_create(ctx, p->kind, SIZE, p->samples, false, 1,
							     (uint32_t[]){0});
	struct vkqs_pipeline *pl = rc_pipeline(ctx, t, 0);
	VkRect2D area = {{0, 0}, {SIZE, SIZE}};
	struct out *o = out_create(ctx, rc, SIZE, SIZE, c, 1);
	VkRenderPassPerformanceCountersByRegionBeginInfoARM bi = rc_begin_info(o, ids, c, VK_TRUE);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_OCCLUSION, 1, 0);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, pool, 0, 1);
	vkqs_pass_begin_ex(ctx, cb, t, 1.0f, area, &bi);
	D->vkCmdBeginQuery(cb, pool, 0, VK_QUERY_CONTROL_PRECISE_BIT);
	rc_rect(ctx, cb, pl, p->rect);
	D->vkCmdEndQuery(cb, pool, 0);
	vkqs_pass_end(ctx, cb, t);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	vkqs_buffer_invalidate(ctx, o->buf);
	uint64_t occ;
	VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, pool, 0, 1, sizeof(occ), &occ, sizeof(occ),
						 VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
	expect_layout(ctx, rc, o, 0, c, true);
	uint64_t sum = 0;
	for (uint32_t y = 0; y < o->lay.rows; y++)
		for (uint32_t x = 0; x < o->lay.cols; x++) {
			uint64_t px = overlap(p->rect, region_rect(rc, area, x, y));
			uint32_t s = value_at(o, 0, x, y, 0);
			sum += s;
			VKQS_EXPECTF(ctx, s == px * p->samples,
				     "region (%u, %u): samples_passed %u, the rectangle covers %" PRIu64
				     " pixels of it x %u samples", x, y, s, px, (unsigned)p->samples);
			/* Without sample shading a pixel runs one invocation per
			 * primitive covering any of its samples: with one sample
			 * exactly one of the two triangles; with four, the pixels
			 * on the shared diagonal may run one for each. */
			uint32_t fs = c == 2 ? value_at(o, 0, x, y, 1) : 0;
			if (c == 2)
				VKQS_EXPECTF(ctx, p->samples == VK_SAMPLE_COUNT_1_BIT
							  ? fs == px
							  : fs >= px && fs <= 2 * px,
					     "region (%u, %u): fragment_shader_invocations %u for %" PRIu64
					     " pixels at %u samples", x, y, fs, px, (unsigned)p->samples);
		}
	VKQS_EXPECTF(ctx, sum == occ,
		     "samples_passed summed over the regions: %" PRIu64 "; a precise occlusion "
		     "query around the same draw: %" PRIu64, sum, occ);
}

/* A two-subpass instance over the whole target with the counters of bi,
 * drawing rect[s] in subpass s; submitted and waited for. */
static void two_subpasses(struct vkqs_ctx *ctx, const struct vkqs_pass_target *t,
			  const VkRenderPassPerformanceCountersByRegionBeginInfoARM *bi,
			  const VkRect2D rect[2])
{
	const VkRect2D area = {{0, 0}, {SIZE, SIZE}};
	struct vkqs_pipeline *pl[2] = {rc_pipeline(ctx, t, 0), rc_pipeline(ctx, t, 1)};
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	vkqs_pass_begin_ex(ctx, cb, t, 1.0f, area, bi);
	for (uint32_t s = 0; s < 2; s++) {
		if (s)
			vkqs_pass_next_subpass(ctx, cb, t);
		rc_rect(ctx, cb, pl[s], rect[s]);
	}
	vkqs_pass_end(ctx, cb, t);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
}

/* Two subpasses, one element each: each element has its subpass's draw. */
static void subpasses(struct vkqs_ctx *ctx, const void *param)
{
	enum vkqs_pass_kind kind = *(const enum vkqs_pass_kind *)param;
	struct rc *rc = rc_require(ctx);
	vkqs_require_exact_coverage(ctx);
	if (!rc->props.identityTransformOrder)
		vkqs_skip(ctx, "identityTransformOrder is VK_FALSE");
	uint32_t id = rc_counter(ctx, rc, "samples_passed");
	struct vkqs_pass_target *t = vkqs_pass_target_create(ctx, kind, SIZE, VK_SAMPLE_COUNT_1_BIT,
							     false, 2, (uint32_t[]){0, 0});
	VkRect2D area = {{0, 0}, {SIZE, SIZE}};
	const VkRect2D rect[2] = {{{0, 0}, {40, 50}}, {{30, 20}, {90, 100}}};
	struct out *o = out_create(ctx, rc, SIZE, SIZE, 1, 2);
	VkRenderPassPerformanceCountersByRegionBeginInfoARM bi = rc_begin_info(o, &id, 1, VK_TRUE);
	two_subpasses(ctx, t, &bi, rect);
	vkqs_buffer_invalidate(ctx, o->buf);
	for (uint32_t s = 0; s < 2; s++) {
		expect_layout(ctx, rc, o, s, 1, true);
		for (uint32_t y = 0; y < o->lay.rows; y++)
			for (uint32_t x = 0; x < o->lay.cols; x++) {
				uint64_t px = overlap(rect[s], region_rect(rc, area, x, y));
				VKQS_EXPECTF(ctx, value_at(o, s, x, y, 0) == px,
					     "subpass %u, region (%u, %u): samples_passed %u, %" PRIu64
					     " expected", s, x, y, value_at(o, s, x, y, 0), px);
			}
	}
}
static const enum vkqs_pass_kind rp_kinds[] = {VKQS_PASS_RP1, VKQS_PASS_RP2};

/* Multiview: L = the highest view index + 1 elements; element l has view
 * l's samples, a view outside the mask has none. */
static const struct vkqs_pass_views mv_params[] = {
	{VKQS_PASS_RP1, 0x3}, {VKQS_PASS_RP1, 0x5}, {VKQS_PASS_RP2, 0x3},
	{VKQS_PASS_RP2, 0x5}, {VKQS_PASS_DYN, 0x3}, {VKQS_PASS_DYN, 0x5},
};

static void multiview(struct vkqs_ctx *ctx, const void *param)
{
	const struct vkqs_pass_views *p = param;
	struct rc *rc = rc_require(ctx);
	vkqs_require_exact_coverage(ctx);
	if (!rc->props.identityTransformOrder)
		vkqs_skip(ctx, "identityTransformOrder is VK_FALSE");
	uint32_t id = rc_counter(ctx, rc, "samples_passed");
	uint32_t L = 32u - (uint32_t)__builtin_clz(p->mask);
	struct vkqs_pass_target *t = vkqs_pass_target_create(ctx, p->kind, SIZE, VK_SAMPLE_COUNT_1_BIT,
							     false, 1, &p->mask);
	struct vkqs_pipeline *pl = rc_pipeline(ctx, t, 0);
	VkRect2D area = {{0, 0}, {SIZE, SIZE}}, rect = {{10, 20}, {60, 50}};
	struct out *o = out_create(ctx, rc, SIZE, SIZE, 1, L);
	VkRenderPassPerformanceCountersByRegionBeginInfoARM bi = rc_begin_info(o, &id, 1, VK_TRUE);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	/* L elements, as the index s * L + l of the highest view needs; the
	 * VUID's "index of the most significant bit" is one fewer
	 * (docs/validation.md). */
	ctx->vk->inst.region_views = true;
	vkqs_pass_begin_ex(ctx, cb, t, 1.0f, area, &bi);
	ctx->vk->inst.region_views = false;
	rc_rect(ctx, cb, pl, rect);
	vkqs_pass_end(ctx, cb, t);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	vkqs_buffer_invalidate(ctx, o->buf);
	for (uint32_t l = 0; l < L; l++) {
		bool in = (p->mask >> l) & 1;
		expect_layout(ctx, rc, o, l, 1, true);
		for (uint32_t y = 0; y < o->lay.rows; y++)
			for (uint32_t x = 0; x < o->lay.cols; x++) {
				uint64_t px = in ? overlap(rect, region_rect(rc, area, x, y)) : 0;
				VKQS_EXPECTF(ctx, value_at(o, l, x, y, 0) == px,
					     "view %u (%s the mask 0x%x), region (%u, %u): samples_passed "
					     "%u, %" PRIu64 " expected", l, in ? "in" : "not in", p->mask,
					     x, y, value_at(o, l, x, y, 0), px);
			}
	}
}

/* The same pass with serializeRegions on and off, twice each.  Counters
 * that count work the device documents as exact (samples passed, fragment
 * shader invocations) agree in all four runs: serialization changes when
 * regions run, not what they draw.  Any counter of two serialized runs
 * that differs by more than half is a QualityWarning: serialization is for
 * "more repeatable counter results", which the spec does not quantify (a
 * time counter never repeats exactly on a real clock). */
static void serialize(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	struct rc *rc = rc_require(ctx);
	if (!rc->props.identityTransformOrder)
		vkqs_skip(ctx, "identityTransformOrder is VK_FALSE");
	uint32_t c = rc->props.maxPerRegionPerformanceCounters;
	if (c > rc->count)
		c = rc->count;
	uint32_t ids[MAX_COUNTERS];
	bool exact[MAX_COUNTERS];
	for (uint32_t k = 0; k < c; k++) {
		ids[k] = rc->ids[k].counterID;
		exact[k] = !strcmp(rc->desc[k].name, "samples_passed") ||
			   !strcmp(rc->desc[k].name, "fragment_shader_invocations");
	}
	struct vkqs_pass_target *t = vkqs_pass_target_create(ctx, VKQS_PASS_DYN, SIZE,
							     VK_SAMPLE_COUNT_1_BIT, false, 1,
							     (uint32_t[]){0});
	struct vkqs_pipeline *pl = rc_pipeline(ctx, t, 0);
	VkRect2D area = {{0, 0}, {SIZE, SIZE}};
	struct out *o[4];
	for (uint32_t run = 0; run < 4; run++) {
		o[run] = out_create(ctx, rc, SIZE, SIZE, c, 1);
		VkRenderPassPerformanceCountersByRegionBeginInfoARM bi =
			rc_begin_info(o[run], ids, c, run < 2);
		VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
		vkqs_pass_begin_ex(ctx, cb, t, 1.0f, area, &bi);
		for (uint32_t i = 0; i < 4; i++)
			rc_rect(ctx, cb, pl, (VkRect2D){{(int32_t)(7 * i), (int32_t)(5 * i)}, {90, 80}});
		vkqs_pass_end(ctx, cb, t);
		vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
		vkqs_buffer_invalidate(ctx, o[run]->buf);
		expect_layout(ctx, rc, o[run], 0, c, true);
	}
	bool warned = false;
	for (uint32_t y = 0; y < o[0]->lay.rows; y++)
		for (uint32_t x = 0; x < o[0]->lay.cols; x++)
			for (uint32_t k = 0; k < c; k++) {
				uint32_t a = value_at(o[0], 0, x, y, k), b = value_at(o[1], 0, x, y, k);
				uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
				if (!warned && hi - lo > hi / 2) {
					warned = true;
					vkqs_quality_warning(ctx, "serialized runs, region (%u, %u), "
							     "counter \"%s\": %u, then %u",
							     x, y, rc->desc[k].name, a, b);
				}
				if (!exact[k])
					continue;
				for (uint32_t run = 1; run < 4; run++)
					VKQS_EXPECTF(ctx, value_at(o[run], 0, x, y, k) == a,
						     "region (%u, %u), counter \"%s\": %u in run %u "
						     "(serialized: %s), %u in run 0 (serialized)", x, y,
						     rc->desc[k].name, value_at(o[run], 0, x, y, k), run,
						     run < 2 ? "yes" : "no", a);
			}
}

/* The counters read by a later command: a barrier from COLOR_ATTACHMENT_-
 * OUTPUT / MEMORY_WRITE (the proposal: "the performance counter values are
 * written at the end of the fragment processing stage") to a copy in the
 * same command buffer, which must see what the host sees after the fence. */
static void device_read(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	struct rc *rc = rc_require(ctx);
	uint32_t id = rc->ids[0].counterID;
	struct vkqs_pass_target *t = vkqs_pass_target_create(ctx, VKQS_PASS_RP1, SIZE,
							     VK_SAMPLE_COUNT_1_BIT, false, 1,
							     (uint32_t[]){0});
	struct vkqs_pipeline *pl = rc_pipeline(ctx, t, 0);
	VkRect2D area = {{0, 0}, {SIZE, SIZE}};
	struct out *o = out_create(ctx, rc, SIZE, SIZE, 1, 1);
	struct vkqs_buffer *copy = vkqs_buffer_host(ctx, o->lay.size, 0);
	VkRenderPassPerformanceCountersByRegionBeginInfoARM bi = rc_begin_info(o, &id, 1, VK_FALSE);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	vkqs_pass_begin_ex(ctx, cb, t, 1.0f, area, &bi);
	rc_rect(ctx, cb, pl, (VkRect2D){{5, 5}, {100, 90}});
	vkqs_pass_end(ctx, cb, t);
	VkMemoryBarrier mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT,
	};
	D->vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
				VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
	VkBufferCopy region = {0, 0, o->lay.size};
	D->vkCmdCopyBuffer(cb, o->buf->buf, copy->buf, 1, &region);
	vkqs_cmd_transfer_to_host_barrier(ctx, cb);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	vkqs_buffer_invalidate(ctx, o->buf);
	vkqs_buffer_invalidate(ctx, copy);
	expect_layout(ctx, rc, o, 0, 1, true);
	VKQS_EXPECTF(ctx, memcmp(copy->map, o->buf->map, o->lay.size) == 0,
		     "the copy made after the barrier differs from the counters the host reads");
}

static const struct vkqs_case cases[] = {
	{.name = "properties.limits",
	 .fn = properties,
	 .spec = "VkPhysicalDevicePerformanceCountersByRegionPropertiesARM: the region size, "
		 "alignments and counter count of a device with the feature"},
	{.name = "enumerate.incomplete",
	 .fn = enumerate,
	 .spec = SPEC_ENUM,
	 .params = VKQS_PARAMS(fills, fill_name)},
	{.name = "enumerate.descriptions",
	 .fn = descriptions,
	 .spec = "VkPerformanceCounterARM::counterID \"an identifier for the counter\"; "
		 "VkPerformanceCounterDescriptionARM::name, null-terminated UTF-8"},
	{.name = "layout.area",
	 .fn = layout,
	 .spec = SPEC_WRITE "; " SPEC_SIZE "; identityTransformOrder",
	 .params = VKQS_PARAMS(area_params, area_name)},
	{.name = "values.exact",
	 .fn = values,
	 .spec = SPEC_WRITE "; the device's samples_passed and fragment_shader_invocations "
		 "per region sum to a precise occlusion query (18.3)",
	 .params = VKQS_PARAMS(value_params, value_name)},
	{.name = "subpasses.per_subpass",
	 .fn = subpasses,
	 .spec = SPEC_WRITE " (index s * L + l: one element per subpass)",
	 .params = VKQS_PARAMS(rp_kinds, vkqs_pass_kind_name)},
	{.name = "multiview.per_view",
	 .fn = multiview,
	 .spec = SPEC_WRITE " (L: the highest view index + 1; l the view index)",
	 .params = VKQS_PARAMS(mv_params, vkqs_pass_views_name)},
	{.name = "serialize.repeatable",
	 .fn = serialize,
	 .spec = "VkRenderPassPerformanceCountersByRegionBeginInfoARM::serializeRegions: "
		 "\"more repeatable counter results\""},
	{.name = "sync.device_read",
	 .fn = device_read,
	 .spec = "VK_ARM_performance_counters_by_region: written in "
		 "VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, read after a barrier with "
		 "VK_ACCESS_2_MEMORY_WRITE_BIT"},
};

VKQS_AREA(region_counters, cases);
