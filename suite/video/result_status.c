/* Result status queries (VK_QUERY_TYPE_RESULT_STATUS_ONLY_KHR, spec
 * 18.11) around a video decode, on the queue family that reports
 * queryResultStatusSupport.
 *
 * The decode is a minimal valid one (h264.h): one IDR frame of I_PCM
 * macroblocks, so the decoded picture is known sample for sample.  The
 * oracles:
 * - 18.2 WITH_STATUS: "the final element of each query's result is an
 *   integer value indicating that status of the query result. Positive
 *   values indicate success, negative values indicate failure, and 0
 *   indicates that the result is not yet available"; a result status
 *   query writes no other value ("result status queries do not track or
 *   maintain any other data beyond the completion status, thus no other
 *   data is written"), so each query's result is that one signed word,
 *   32- or 64-bit;
 * - a decode that completed wrote the picture the bitstream describes, so
 *   a positive status comes with the PCM samples in the output picture
 *   (where the output can be copied to a buffer);
 * - a reset query is unavailable: without WAIT, VK_NOT_READY (and a status
 *   word, if written, of 0); so is one of a pool created with
 *   VK_QUERY_POOL_CREATE_RESET_BIT_KHR (VK_KHR_maintenance9), which then
 *   needs no reset before its first decode;
 * - vkCmdCopyQueryPoolResults writes what vkGetQueryPoolResults returns;
 * - VK_KHR_video_maintenance1's inline queries: a VkVideoInlineQueryInfoKHR
 *   in the decode's pNext runs the query with the decode, same status.
 * A negative status needs a decode that fails, which no valid usage can
 * ask for: not checked. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate.h"
#include "h264.h"
#include "session.h"
#include "vkutil.h"

#define D (VKQS_D(ctx))
#define DEV (VKQS_DEV(ctx))

#define SPEC_STATUS "18.2: WITH_STATUS \"Positive values indicate success, negative values indicate failure, and 0 indicates that the result is not yet available\""
#define SPEC_ONLY "18.11: \"result status queries do not track or maintain any other data beyond the completion status\""
#define SPEC_INLINE "VK_KHR_video_maintenance1: inline queries execute with the video coding operations"

struct decoder {
	struct vkqs_queue *q;
	VkVideoDecodeH264ProfileInfoKHR h264;
	VkVideoProfileInfoKHR profile;
	VkVideoProfileListInfoKHR list;
	VkVideoCapabilitiesKHR caps;
	VkVideoDecodeCapabilitiesKHR dcaps;
	VkVideoDecodeH264CapabilitiesKHR hcaps;
	bool coincide;                 /* DPB and output in one picture */
	VkFormat format;
	VkExtent2D extent;
	VkVideoSessionKHR session;
	VkVideoSessionParametersKHR params;
	VkImage dpb, out;              /* out == dpb when they coincide */
	VkImageView dpb_view, out_view;
	bool readable;                 /* out can be copied to a buffer */
	struct vkqs_buffer *bits;
	VkDeviceSize bits_range;
	struct vkqs_h264_picture pic;
};

static void free_picture(struct vkqs_ctx *ctx, void *arg)
{
	(void)ctx;
	vkqs_h264_free(arg);
}

/* The decode queue, its family's result status support, and an H.264
 * 4:2:0 8-bit progressive profile (Main, else Baseline) it decodes. */
static void require_decoder(struct vkqs_ctx *ctx, struct decoder *d)
{
	d->q = &ctx->vk->decode;
	if (d->q->family == VKQS_NO_FAMILY)
		vkqs_skip(ctx, "no video decode queue (VK_KHR_video_decode_queue)");
	if (!ctx->vk->info.families[d->q->family].query_result_status)
		vkqs_skip(ctx, "the decode queue family %u has no queryResultStatusSupport",
			  d->q->family);
	if (!(ctx->vk->info.families[d->q->family].video_codecs &
	      VK_VIDEO_CODEC_OPERATION_DECODE_H264_BIT_KHR) ||
	    !vkqs_device_has_ext(&ctx->vk->info, VK_KHR_VIDEO_DECODE_H264_EXTENSION_NAME))
		vkqs_skip(ctx, "the decode queue family does not decode H.264");
	static const StdVideoH264ProfileIdc profiles[] = {STD_VIDEO_H264_PROFILE_IDC_MAIN,
							  STD_VIDEO_H264_PROFILE_IDC_BASELINE};
	VkResult r = VK_ERROR_VIDEO_PROFILE_OPERATION_NOT_SUPPORTED_KHR;
	for (size_t i = 0; i < 2 && r != VK_SUCCESS; i++) {
		d->h264 = (VkVideoDecodeH264ProfileInfoKHR){
			.sType = VK_STRUCTURE_TYPE_VIDEO_DECODE_H264_PROFILE_INFO_KHR,
			.stdProfileIdc = profiles[i],
			.pictureLayout = VK_VIDEO_DECODE_H264_PICTURE_LAYOUT_PROGRESSIVE_KHR};
		d->profile = (VkVideoProfileInfoKHR){
			.sType = VK_STRUCTURE_TYPE_VIDEO_PROFILE_INFO_KHR, .pNext = &d->h264,
			.videoCodecOperation = VK_VIDEO_CODEC_OPERATION_DECODE_H264_BIT_KHR,
			.chromaSubsampling = VK_VIDEO_CHROMA_SUBSAMPLING_420_BIT_KHR,
			.lumaBitDepth = VK_VIDEO_COMPONENT_BIT_DEPTH_8_BIT_KHR,
			.chromaBitDepth = VK_VIDEO_COMPONENT_BIT_DEPTH_8_BIT_KHR};
		d->hcaps = (VkVideoDecodeH264CapabilitiesKHR){
			.sType = VK_STRUCTURE_TYPE_VIDEO_DECODE_H264_CAPABILITIES_KHR};
		d->dcaps = (VkVideoDecodeCapabilitiesKHR){
			.sType = VK_STRUCTURE_TYPE_VIDEO_DECODE_CAPABILITIES_KHR, .pNext = &d->hcaps};
		d->caps = (VkVideoCapabilitiesKHR){.sType = VK_STRUCTURE_TYPE_VIDEO_CAPABILITIES_KHR,
						   .pNext = &d->dcaps};
		r = vkGetPhysicalDeviceVideoCapabilitiesKHR(ctx->vk->phys, &d->profile, &d->caps);
	}
	if (r != VK_SUCCESS)
		vkqs_skip(ctx, "no H.264 Main or Baseline 4:2:0 8-bit decode profile: %s",
			  vkqs_vk_result_name(r));
	d->list = (VkVideoProfileListInfoKHR){.sType = VK_STRUCTURE_TYPE_VIDEO_PROFILE_LIST_INFO_KHR,
					      .profileCount = 1, .pProfiles = &d->profile};
	if (d->dcaps.flags & VK_VIDEO_DECODE_CAPABILITY_DPB_AND_OUTPUT_COINCIDE_BIT_KHR)
		d->coincide = true;
	else if (!(d->dcaps.flags & VK_VIDEO_DECODE_CAPABILITY_DPB_AND_OUTPUT_DISTINCT_BIT_KHR))
		vkqs_skip(ctx, "decode capabilities name neither coinciding nor distinct output");
	if (d->caps.maxDpbSlots < 1 || d->caps.maxActiveReferencePictures < 1)
		vkqs_skip(ctx, "maxDpbSlots or maxActiveReferencePictures 0: an IDR picture is a "
			       "reference picture");
}

/* A format for pictures of `usage` (NV12 where offered). */
static VkVideoFormatPropertiesKHR picture_format(struct vkqs_ctx *ctx, struct decoder *d,
						 VkImageUsageFlags usage)
{
	return vkqs_video_format(ctx, &d->list, usage, VK_FORMAT_G8_B8R8_2PLANE_420_UNORM);
}

static void picture_image(struct vkqs_ctx *ctx, struct decoder *d, VkImageUsageFlags usage,
			  VkImage *img, VkImageView *view, bool *readable)
{
	VkVideoFormatPropertiesKHR fp = picture_format(ctx, d, usage | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
	*readable = fp.format == VK_FORMAT_G8_B8R8_2PLANE_420_UNORM &&
		    (fp.imageUsageFlags & VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
	if (!*readable)
		fp = picture_format(ctx, d, usage);
	d->format = fp.format;
	uint32_t fams[2] = {d->q->family, ctx->vk->gfx.family};
	vkqs_video_picture(ctx, &d->list, &fp, d->extent,
			   usage | (*readable ? VK_IMAGE_USAGE_TRANSFER_SRC_BIT : 0), usage, fams, img,
			   view);
}

/* Session (inline queries if asked), its memory, parameters with the
 * picture's SPS and PPS, the pictures and the bitstream buffer. */
static void decoder_create(struct vkqs_ctx *ctx, struct decoder *d, bool inline_queries)
{
	uint32_t w = 64, h = 64;
	if (d->caps.minCodedExtent.width > w)
		w = (d->caps.minCodedExtent.width + 15) / 16 * 16;
	if (d->caps.minCodedExtent.height > h)
		h = (d->caps.minCodedExtent.height + 15) / 16 * 16;
	if (w > d->caps.maxCodedExtent.width || h > d->caps.maxCodedExtent.height)
		vkqs_skip(ctx, "a %ux%u picture is outside the coded extents", w, h);
	d->extent = (VkExtent2D){w, h};
	StdVideoH264LevelIdc level = STD_VIDEO_H264_LEVEL_IDC_3_0;
	if (d->hcaps.maxLevelIdc < level)
		level = d->hcaps.maxLevelIdc;
	vkqs_h264_idr_pcm(&d->pic, w, h, d->h264.stdProfileIdc, level);
	vkqs_defer(ctx, free_picture, &d->pic);

	VkImageUsageFlags dpb_usage = VK_IMAGE_USAGE_VIDEO_DECODE_DPB_BIT_KHR |
				      (d->coincide ? VK_IMAGE_USAGE_VIDEO_DECODE_DST_BIT_KHR : 0);
	bool dpb_readable;
	picture_image(ctx, d, dpb_usage, &d->dpb, &d->dpb_view, &dpb_readable);
	VkFormat dpb_format = d->format;
	if (d->coincide) {
		d->out = d->dpb;
		d->out_view = d->dpb_view;
		d->readable = dpb_readable;
	} else {
		picture_image(ctx, d, VK_IMAGE_USAGE_VIDEO_DECODE_DST_BIT_KHR, &d->out, &d->out_view,
			      &d->readable);
	}

	VkVideoSessionCreateInfoKHR sci = {
		.sType = VK_STRUCTURE_TYPE_VIDEO_SESSION_CREATE_INFO_KHR,
		.queueFamilyIndex = d->q->family,
		.flags = inline_queries ? VK_VIDEO_SESSION_CREATE_INLINE_QUERIES_BIT_KHR : 0,
		.pVideoProfile = &d->profile, .pictureFormat = d->format, .maxCodedExtent = d->extent,
		.referencePictureFormat = dpb_format, .maxDpbSlots = 1,
		/* both 0 or both non-zero (VUID-VkVideoSessionCreateInfoKHR-maxDpbSlots-04850) */
		.maxActiveReferencePictures = 1, .pStdHeaderVersion = &d->caps.stdHeaderVersion};
	d->session = vkqs_video_session(ctx, &sci);

	VkVideoDecodeH264SessionParametersAddInfoKHR add = {
		.sType = VK_STRUCTURE_TYPE_VIDEO_DECODE_H264_SESSION_PARAMETERS_ADD_INFO_KHR,
		.stdSPSCount = 1, .pStdSPSs = &d->pic.sps, .stdPPSCount = 1, .pStdPPSs = &d->pic.pps};
	VkVideoDecodeH264SessionParametersCreateInfoKHR hpi = {
		.sType = VK_STRUCTURE_TYPE_VIDEO_DECODE_H264_SESSION_PARAMETERS_CREATE_INFO_KHR,
		.maxStdSPSCount = 1, .maxStdPPSCount = 1, .pParametersAddInfo = &add};
	d->params = vkqs_video_params(ctx, d->session, &hpi);

	/* the bitstream: offset 0, the range a multiple of the size alignment */
	VkDeviceSize align = d->caps.minBitstreamBufferSizeAlignment ? d->caps.minBitstreamBufferSizeAlignment : 1;
	d->bits_range = (d->pic.size + align - 1) / align * align;
	d->bits = vkqs_buffer_host_next(ctx, d->bits_range, VK_BUFFER_USAGE_VIDEO_DECODE_SRC_BIT_KHR,
					&d->list);
	memset(d->bits->map, 0, d->bits_range);
	memcpy(d->bits->map, d->pic.bitstream, d->pic.size);
	vkqs_buffer_flush(ctx, d->bits);
}

/* A result status pool of `count` queries for the decoder's profile. */
static VkQueryPool status_pool(struct vkqs_ctx *ctx, struct decoder *d, uint32_t count)
{
	return vkqs_query_pool_next(ctx, VK_QUERY_TYPE_RESULT_STATUS_ONLY_KHR, count, &d->profile);
}

/* Records, on the decode queue: reset of `pool` queries [first, first + 1)
 * (outside the coding scope; not where `created_reset`: the pool was
 * created reset and the query is not used yet), the coding scope with a
 * reset control, and the decode of the picture inside query `first`
 * (begin/end, or inline). */
static void record_decode(struct vkqs_ctx *ctx, struct decoder *d, VkCommandBuffer cb,
			  VkQueryPool pool, uint32_t first, bool inline_query, bool created_reset)
{
	const VkImageLayout dpb_layout = VK_IMAGE_LAYOUT_VIDEO_DECODE_DPB_KHR;
	const VkImageLayout out_layout = d->coincide ? dpb_layout : VK_IMAGE_LAYOUT_VIDEO_DECODE_DST_KHR;
	if (!created_reset)
		D->vkCmdResetQueryPool(cb, pool, first, 1);
	vkqs_video_barrier(ctx, cb, d->dpb, VK_IMAGE_LAYOUT_UNDEFINED, dpb_layout,
			VK_PIPELINE_STAGE_2_NONE, 0, VK_PIPELINE_STAGE_2_VIDEO_DECODE_BIT_KHR,
			VK_ACCESS_2_VIDEO_DECODE_READ_BIT_KHR | VK_ACCESS_2_VIDEO_DECODE_WRITE_BIT_KHR);
	if (!d->coincide)
		vkqs_video_barrier(ctx, cb, d->out, VK_IMAGE_LAYOUT_UNDEFINED, out_layout,
				VK_PIPELINE_STAGE_2_NONE, 0, VK_PIPELINE_STAGE_2_VIDEO_DECODE_BIT_KHR,
				VK_ACCESS_2_VIDEO_DECODE_WRITE_BIT_KHR);
	VkVideoPictureResourceInfoKHR dpb_res = {
		.sType = VK_STRUCTURE_TYPE_VIDEO_PICTURE_RESOURCE_INFO_KHR,
		.codedExtent = d->extent, .imageViewBinding = d->dpb_view};
	VkVideoPictureResourceInfoKHR out_res = dpb_res;
	out_res.imageViewBinding = d->out_view;
	VkVideoReferenceSlotInfoKHR bound = {.sType = VK_STRUCTURE_TYPE_VIDEO_REFERENCE_SLOT_INFO_KHR,
					     .slotIndex = -1, .pPictureResource = &dpb_res};
	VkVideoBeginCodingInfoKHR begin = {.sType = VK_STRUCTURE_TYPE_VIDEO_BEGIN_CODING_INFO_KHR,
					   .videoSession = d->session,
					   .videoSessionParameters = d->params,
					   .referenceSlotCount = 1, .pReferenceSlots = &bound};
	D->vkCmdBeginVideoCodingKHR(cb, &begin);
	VkVideoCodingControlInfoKHR reset = {.sType = VK_STRUCTURE_TYPE_VIDEO_CODING_CONTROL_INFO_KHR,
					     .flags = VK_VIDEO_CODING_CONTROL_RESET_BIT_KHR};
	D->vkCmdControlVideoCodingKHR(cb, &reset);
	VkVideoDecodeH264DpbSlotInfoKHR slot_h264 = {
		.sType = VK_STRUCTURE_TYPE_VIDEO_DECODE_H264_DPB_SLOT_INFO_KHR,
		.pStdReferenceInfo = &d->pic.reference};
	VkVideoReferenceSlotInfoKHR setup = {.sType = VK_STRUCTURE_TYPE_VIDEO_REFERENCE_SLOT_INFO_KHR,
					     .pNext = &slot_h264, .slotIndex = 0,
					     .pPictureResource = &dpb_res};
	uint32_t slice_offset = 0;
	VkVideoInlineQueryInfoKHR iq = {.sType = VK_STRUCTURE_TYPE_VIDEO_INLINE_QUERY_INFO_KHR,
					.queryPool = pool, .firstQuery = first, .queryCount = 1};
	VkVideoDecodeH264PictureInfoKHR pic = {
		.sType = VK_STRUCTURE_TYPE_VIDEO_DECODE_H264_PICTURE_INFO_KHR,
		.pNext = inline_query ? &iq : NULL,
		.pStdPictureInfo = &d->pic.picture, .sliceCount = 1, .pSliceOffsets = &slice_offset};
	VkVideoDecodeInfoKHR di = {.sType = VK_STRUCTURE_TYPE_VIDEO_DECODE_INFO_KHR, .pNext = &pic,
				   .srcBuffer = d->bits->buf, .srcBufferOffset = 0,
				   .srcBufferRange = d->bits_range,
				   .dstPictureResource = d->coincide ? dpb_res : out_res,
				   .pSetupReferenceSlot = &setup};
	if (!inline_query)
		D->vkCmdBeginQuery(cb, pool, first, 0);
	D->vkCmdDecodeVideoKHR(cb, &di);
	if (!inline_query)
		D->vkCmdEndQuery(cb, pool, first);
	VkVideoEndCodingInfoKHR end = {.sType = VK_STRUCTURE_TYPE_VIDEO_END_CODING_INFO_KHR};
	D->vkCmdEndVideoCodingKHR(cb, &end);
}

/* Copies the output picture's two planes into a host buffer (on the
 * graphics queue, after the decode's submission) and checks every sample
 * against the PCM values.  Returns the samples that differ. */
static uint32_t check_picture(struct vkqs_ctx *ctx, struct decoder *d)
{
	uint32_t w = d->extent.width, h = d->extent.height;
	struct vkqs_buffer *buf = vkqs_buffer_host(ctx, (VkDeviceSize)w * h * 3 / 2, 0);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	VkImageLayout from = d->coincide ? VK_IMAGE_LAYOUT_VIDEO_DECODE_DPB_KHR
					 : VK_IMAGE_LAYOUT_VIDEO_DECODE_DST_KHR;
	vkqs_video_barrier(ctx, cb, d->out, from, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
			VK_PIPELINE_STAGE_2_NONE, 0, VK_PIPELINE_STAGE_2_COPY_BIT,
			VK_ACCESS_2_TRANSFER_READ_BIT);
	VkBufferImageCopy r[2] = {
		{0, 0, 0, {VK_IMAGE_ASPECT_PLANE_0_BIT, 0, 0, 1}, {0, 0, 0}, {w, h, 1}},
		{(VkDeviceSize)w * h, 0, 0, {VK_IMAGE_ASPECT_PLANE_1_BIT, 0, 0, 1}, {0, 0, 0},
		 {w / 2, h / 2, 1}}};
	D->vkCmdCopyImageToBuffer(cb, d->out, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buf->buf, 2, r);
	vkqs_cmd_transfer_to_host_barrier(ctx, cb);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	vkqs_buffer_invalidate(ctx, buf);
	const uint8_t *y = buf->map, *uv = buf->map + (size_t)w * h;
	uint32_t bad = 0;
	for (uint32_t j = 0; j < h; j++)
		for (uint32_t i = 0; i < w; i++) {
			uint8_t want = vkqs_h264_luma(i, j), got = y[j * w + i];
			if (got != want && !bad++)
				VKQS_EXPECTF(ctx, false, "decoded luma (%u, %u) is %u, the I_PCM sample %u",
					     i, j, got, want);
		}
	for (uint32_t j = 0; j < h / 2; j++)
		for (uint32_t i = 0; i < w / 2; i++) {
			uint8_t cb_ = uv[(j * (w / 2) + i) * 2], cr = uv[(j * (w / 2) + i) * 2 + 1];
			if ((cb_ != vkqs_h264_cb(i, j) || cr != vkqs_h264_cr(i, j)) && !bad++)
				VKQS_EXPECTF(ctx, false, "decoded chroma (%u, %u) is (%u, %u), the I_PCM "
					     "samples (%u, %u)", i, j, cb_, cr, vkqs_h264_cb(i, j),
					     vkqs_h264_cr(i, j));
		}
	return bad;
}

struct status_param {
	bool is64;
	bool inline_query;
};
static const struct status_param status_params[] = {{true, false}, {false, false}, {true, true}};
static void status_name(const void *p, char *b, size_t n)
{
	const struct status_param *s = p;
	snprintf(b, n, "%s%s", s->is64 ? "64" : "32", s->inline_query ? "_inline" : "");
}

/* The decode in query 1 of a pool of 3: with WAIT and WITH_STATUS a
 * positive status, one word per query (the neighbours' words and the
 * bytes past the read untouched), the picture decoded. */
static void decode_status(struct vkqs_ctx *ctx, const void *param)
{
	const struct status_param *sp = param;
	struct decoder *d = vkqs_alloc(ctx, sizeof(*d)); /* outlives the case: its defers use it */
	require_decoder(ctx, d);
	if (sp->inline_query)
		vkqs_require_feature(ctx, "VK_KHR_video_maintenance1.videoMaintenance1");
	decoder_create(ctx, d, sp->inline_query);
	VkQueryPool pool = status_pool(ctx, d, 3);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, d->q);
	record_decode(ctx, d, cb, pool, 1, sp->inline_query, false);
	vkqs_cmd_submit_wait(ctx, d->q, cb);
	size_t word = sp->is64 ? 8 : 4;
	uint8_t out[64];
	memset(out, 0xa5, sizeof(out));
	VkQueryResultFlags flags = VK_QUERY_RESULT_WITH_STATUS_BIT_KHR | VK_QUERY_RESULT_WAIT_BIT |
				   (sp->is64 ? VK_QUERY_RESULT_64_BIT : 0);
	VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, pool, 1, 1, word, out + word, word, flags));
	int64_t status = sp->is64 ? (int64_t)vkqs_load_word(out + word, 8)
				  : (int64_t)(int32_t)(uint32_t)vkqs_load_word(out + word, 4);
	VKQS_EXPECTF(ctx, status > 0,
		     "status %" PRId64 " after a valid decode completed (positive: success)", status);
	bool clean = true;
	for (size_t i = 0; i < sizeof(out); i++)
		if ((i < word || i >= 2 * word) && out[i] != 0xa5)
			clean = false;
	VKQS_EXPECTF(ctx, clean, "bytes written outside the one %zu-byte status word", word);
}

/* A positive status means the decode succeeded: the output picture holds
 * the I_PCM samples, every one (where the picture format allows copying
 * it to a buffer: NV12 with TRANSFER_SRC). */
static void decoded_picture(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	struct decoder *d = vkqs_alloc(ctx, sizeof(*d)); /* outlives the case: its defers use it */
	require_decoder(ctx, d);
	decoder_create(ctx, d, false);
	if (!d->readable)
		vkqs_skip(ctx, "the output picture is not NV12 with TRANSFER_SRC: it cannot be read");
	VkQueryPool pool = status_pool(ctx, d, 1);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, d->q);
	record_decode(ctx, d, cb, pool, 0, false, false);
	vkqs_cmd_submit_wait(ctx, d->q, cb);
	int64_t status = 0;
	VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, pool, 0, 1, 8, &status, 8,
						 VK_QUERY_RESULT_WITH_STATUS_BIT_KHR |
							 VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
	VKQS_ASSERTF(ctx, status > 0, "status %" PRId64 " after a valid decode", status);
	check_picture(ctx, d);
}

/* Reset, not begun: without WAIT, VK_NOT_READY; the status word is written,
 * and is 0. */
static void reset_not_ready(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	struct decoder *d = vkqs_alloc(ctx, sizeof(*d)); /* outlives the case: its defers use it */
	require_decoder(ctx, d);
	VkQueryPool pool = status_pool(ctx, d, 1);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, d->q);
	D->vkCmdResetQueryPool(cb, pool, 0, 1);
	vkqs_cmd_submit_wait(ctx, d->q, cb);
	const int64_t guard = 0x5a5a5a5a5a5a5a5all;
	int64_t v = guard;
	VkResult r = D->vkGetQueryPoolResults(DEV, pool, 0, 1, 8, &v, 8,
					      VK_QUERY_RESULT_WITH_STATUS_BIT_KHR |
						      VK_QUERY_RESULT_64_BIT);
	vkqs_video_expect_unavailable(ctx, r, v, guard, "a reset result status query");
}

/* VK_KHR_maintenance9: a result status pool created with
 * VK_QUERY_POOL_CREATE_RESET_BIT_KHR ("queries in the query pool are
 * initialized on creation and do not need to be reset before first use")
 * reads unavailable before any use, like a reset query; its first decode,
 * with no vkCmdResetQueryPool anywhere, ends with a positive status.  The
 * bit is a property of the pool: a driver that honours it for occlusion and
 * timestamps only reads a stale status here. */
static void create_reset_first_use(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	struct decoder *d = vkqs_alloc(ctx, sizeof(*d)); /* outlives the case: its defers use it */
	require_decoder(ctx, d);
	if (!vkqs_device_has_ext(&ctx->vk->info, VK_KHR_MAINTENANCE_9_EXTENSION_NAME))
		vkqs_skip(ctx, "the device lacks %s", VK_KHR_MAINTENANCE_9_EXTENSION_NAME);
	vkqs_require_feature(ctx, VK_KHR_MAINTENANCE_9_EXTENSION_NAME ".maintenance9");
	decoder_create(ctx, d, false);
	VkQueryPool pool = vkqs_query_pool_flags(ctx, VK_QUERY_TYPE_RESULT_STATUS_ONLY_KHR, 1, 0,
						 VK_QUERY_POOL_CREATE_RESET_BIT_KHR, &d->profile);
	const int64_t guard = 0x5a5a5a5a5a5a5a5all;
	int64_t v = guard;
	VkResult r = D->vkGetQueryPoolResults(DEV, pool, 0, 1, 8, &v, 8,
					      VK_QUERY_RESULT_WITH_STATUS_BIT_KHR |
						      VK_QUERY_RESULT_64_BIT);
	vkqs_video_expect_unavailable(ctx, r, v, guard,
				      "a result status pool created with "
				      "VK_QUERY_POOL_CREATE_RESET_BIT_KHR, read before any use");
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, d->q);
	record_decode(ctx, d, cb, pool, 0, false, true);
	vkqs_cmd_submit_wait(ctx, d->q, cb);
	v = 0;
	VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, pool, 0, 1, 8, &v, 8,
						 VK_QUERY_RESULT_WITH_STATUS_BIT_KHR |
							 VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
	VKQS_EXPECTF(ctx, v > 0,
		     "status %" PRId64 " after a valid decode, the first use of a query created "
		     "reset (positive: success)", v);
}

/* A graphics or compute queue (the copy needs one:
 * VUID-vkCmdCopyQueryPoolResults-commandBuffer-cmdpool) whose family reports
 * queryResultStatusSupport: devsandqueues.adoc, "queryResultStatusSupport
 * reports VK_TRUE if query type VK_QUERY_TYPE_RESULT_STATUS_ONLY_KHR and use
 * of VK_QUERY_RESULT_WITH_STATUS_BIT_KHR are supported", a property of each
 * queue family: a WITH_STATUS copy on another family is not supported. */
static struct vkqs_queue *status_copy_queue(struct vkqs_ctx *ctx)
{
	struct vkqs_queue *qs[2] = {&ctx->vk->gfx, &ctx->vk->compute};
	for (int i = 0; i < 2; i++)
		if (qs[i]->family != VKQS_NO_FAMILY &&
		    ctx->vk->info.families[qs[i]->family].query_result_status)
			return qs[i];
	vkqs_skip(ctx, "no graphics or compute queue family reports queryResultStatusSupport "
		       "(a WITH_STATUS copy needs one)");
}

/* vkCmdCopyQueryPoolResults of the status (64-bit, WITH_STATUS, with or
 * without WAIT) on a graphics or compute queue whose family supports
 * result status (status_copy_queue), after the decode's submission
 * completed: what vkGetQueryPoolResults returns. */
static void copy_status(struct vkqs_ctx *ctx, const void *param)
{
	const bool wait = *(const bool *)param;
	struct decoder *d = vkqs_alloc(ctx, sizeof(*d)); /* outlives the case: its defers use it */
	require_decoder(ctx, d);
	struct vkqs_queue *cq = status_copy_queue(ctx);
	decoder_create(ctx, d, false);
	VkQueryPool pool = status_pool(ctx, d, 1);
	struct vkqs_buffer *buf = vkqs_buffer_host(ctx, 32, 0);
	memset(buf->map, 0xa5, 32);
	vkqs_buffer_flush(ctx, buf);
	/* the decode, then the copy on the graphics queue waiting on a
	 * semaphore the decode's submission signals: an execution and memory
	 * dependency from the decode (and its query) to the copy */
	VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
	VkSemaphore sem;
	VKQS_CHECK(ctx, D->vkCreateSemaphore(DEV, &sci, NULL, &sem));
	vkqs_defer_destroy(ctx, VK_OBJECT_TYPE_SEMAPHORE, (void *)sem);
	VkCommandBuffer dcb = vkqs_cmd_begin(ctx, d->q);
	record_decode(ctx, d, dcb, pool, 0, false, false);
	vkqs_cmd_end(ctx, dcb);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, cq);
	const VkQueryResultFlags flags = VK_QUERY_RESULT_WITH_STATUS_BIT_KHR |
					 VK_QUERY_RESULT_64_BIT | (wait ? VK_QUERY_RESULT_WAIT_BIT : 0);
	D->vkCmdCopyQueryPoolResults(cb, pool, 0, 1, buf->buf, 8, 8, flags);
	vkqs_cmd_transfer_to_host_barrier(ctx, cb);
	vkqs_cmd_end(ctx, cb);
	VkSubmitInfo s1 = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1,
			   .pCommandBuffers = &dcb, .signalSemaphoreCount = 1,
			   .pSignalSemaphores = &sem};
	VKQS_CHECK(ctx, D->vkQueueSubmit(d->q->queue, 1, &s1, VK_NULL_HANDLE));
	const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
	VkSubmitInfo s2 = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .waitSemaphoreCount = 1,
			   .pWaitSemaphores = &sem, .pWaitDstStageMask = &stage,
			   .commandBufferCount = 1, .pCommandBuffers = &cb};
	VkFence f = vkqs_fence(ctx);
	VKQS_CHECK(ctx, D->vkQueueSubmit(cq->queue, 1, &s2, f));
	vkqs_fence_wait(ctx, f);
	D->vkQueueWaitIdle(d->q->queue);
	vkqs_buffer_invalidate(ctx, buf);
	int64_t host = 0, copied = (int64_t)vkqs_load_word(buf->map + 8, 8);
	VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, pool, 0, 1, 8, &host, 8,
						 flags | VK_QUERY_RESULT_WAIT_BIT));
	VKQS_EXPECTF(ctx, copied == host && host > 0,
		     "vkCmdCopyQueryPoolResults wrote status %" PRId64 ", vkGetQueryPoolResults "
		     "returns %" PRId64 " (positive: success)", copied, host);
	VKQS_EXPECTF(ctx, buf->map[0] == 0xa5 && buf->map[16] == 0xa5,
		     "the copy wrote outside its 8-byte status word");
}
static const bool copy_params[] = {false, true};
static void copy_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "%s", *(const bool *)p ? "wait" : "no_wait");
}

/* In flight: one decode in query 0, submitted behind a shut gate
 * (framework/gate.h) on the decode queue.
 * - wait: a WAIT read issued while the gate is shut returns only after it
 *   opened, VK_SUCCESS with a positive status (18.2 WAIT "will wait for
 *   each query's status to become available"; radv returned video query
 *   results before the work completed, Mesa 25.2.1 release notes).
 * - no_wait: reads without WAIT while the gate is shut write status
 *   VK_QUERY_RESULT_STATUS_NOT_READY_KHR (0) or nothing: the decode has not
 *   started, so no status is available (VK_SUCCESS instead of VK_NOT_READY
 *   is a CompatibilityWarning: the spec says "may return VK_NOT_READY"). */
/* the WAIT read's gate opens after 100 ms; the 64 reads without WAIT open
 * theirs when they are done, the timer only backs them up */
#define DECODE_GATE_NS (100ull * 1000 * 1000)
#define DECODE_TIMER_NS (2ull * 1000 * 1000 * 1000)

static void inflight_decode(struct vkqs_ctx *ctx, const void *param)
{
	bool wait = *(const bool *)param;
	vkqs_require_feature(ctx, "timelineSemaphore");
	struct decoder *d = vkqs_alloc(ctx, sizeof(*d));
	require_decoder(ctx, d);
	decoder_create(ctx, d, false);
	VkQueryPool pool = status_pool(ctx, d, 1);
	/* reset first in a submission of its own that completes: the reads
	 * while the gate is shut must not see an uninitialized query
	 * (VUID-vkGetQueryPoolResults-None-09401) */
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, d->q);
	D->vkCmdResetQueryPool(cb, pool, 0, 1);
	vkqs_cmd_submit_wait(ctx, d->q, cb);
	cb = vkqs_cmd_begin(ctx, d->q);
	record_decode(ctx, d, cb, pool, 0, false, false);
	vkqs_cmd_end(ctx, cb);
	VkFence fence = vkqs_fence(ctx);
	struct vkqs_gate *g = vkqs_gate_create(ctx, wait ? DECODE_GATE_NS : DECODE_TIMER_NS);
	vkqs_submit_gated_on(ctx, g, d->q->queue, cb, fence, VK_NULL_HANDLE);
	/* --- the gate is shut --- */
	int64_t status = 0, early_status = 0, fin = 0;
	uint32_t polls = 0, early = 0, unwritten = 0;
	VkResult r = VK_SUCCESS, early_result = VK_SUCCESS, any = VK_NOT_READY;
	bool waited = false;
	if (wait) {
		r = D->vkGetQueryPoolResults(DEV, pool, 0, 1, 8, &status, 8,
					     VK_QUERY_RESULT_WAIT_BIT | VK_QUERY_RESULT_64_BIT |
						     VK_QUERY_RESULT_WITH_STATUS_BIT_KHR);
		waited = vkqs_gate_opened_by_now(g);
	} else {
		for (; polls < 64; polls++) {
			status = 0x5a5a5a5a5a5a5a5all; /* a guard: the word is written */
			VkResult x = D->vkGetQueryPoolResults(DEV, pool, 0, 1, 8, &status, 8,
							      VK_QUERY_RESULT_64_BIT |
								      VK_QUERY_RESULT_WITH_STATUS_BIT_KHR);
			if (x != VK_NOT_READY)
				any = x;
			/* after the read: a read that blocks until the gate opens is no
			 * early status */
			if (status == 0x5a5a5a5a5a5a5a5all) {
				unwritten++;
				continue;
			}
			if (!vkqs_gate_state(g, NULL, NULL) && status != 0) {
				early++;
				early_result = x;
				early_status = status;
			}
		}
	}
	vkqs_gate_release(ctx, g);
	/* --- the gate is open --- */
	vkqs_fence_wait(ctx, fence);
	if (wait) {
		VKQS_EXPECTF(ctx, waited,
			     "vkGetQueryPoolResults with WAIT returned before the submission that "
			     "decodes could start (its gate was shut)");
		VKQS_EXPECTF(ctx, r == VK_SUCCESS && status > 0,
			     "vkGetQueryPoolResults with WAIT returned %s, status %" PRId64,
			     vkqs_vk_result_name(r), status);
		return;
	}
	VKQS_EXPECTF(ctx, early == 0,
		     "%u of %u reads without WAIT before the decode could start returned "
		     "a status (the last: %s, status %" PRId64 ")", early, polls,
		     vkqs_vk_result_name(early_result), early_status);
	/* 1.4.360 queries.adoc: with WITH_STATUS "results for all queries ... are
	 * copied to pData, along with an extra status value written directly
	 * after the results of each query"; "A value of zero indicates that the
	 * results are not yet available".  The word is written for every query,
	 * as the availability word is (an unwritten one fails the same way). */
	VKQS_EXPECTF(ctx, unwritten == 0,
		     "%u of %u reads without WAIT left the status word unwritten", unwritten, polls);
	vkqs_expect_not_ready(ctx, any, "reads without WAIT before the decode could start");
	VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, pool, 0, 1, 8, &fin, 8,
						 VK_QUERY_RESULT_64_BIT |
							 VK_QUERY_RESULT_WITH_STATUS_BIT_KHR));
	VKQS_EXPECTF(ctx, fin > 0, "after the fence the status is %" PRId64, fin);
}

static const bool inflight_params[] = {true, false};
static void inflight_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "%s", *(const bool *)p ? "wait" : "no_wait");
}

static const struct vkqs_case cases[] = {
	{"result_status.decode", decode_status, SPEC_STATUS,
	 VKQS_PARAMS(status_params, status_name)},
	{"result_status.decoded_picture", decoded_picture, SPEC_STATUS},
	{"result_status.reset_not_ready", reset_not_ready, SPEC_STATUS},
	{"result_status.create_reset_first_use", create_reset_first_use,
	 "VK_KHR_maintenance9: VK_QUERY_POOL_CREATE_RESET_BIT_KHR \"specifies that queries in the "
	 "query pool are initialized on creation and do not need to be reset before first use\""},
	{"result_status.copy", copy_status, SPEC_ONLY, VKQS_PARAMS(copy_params, copy_name)},
	{"result_status.inflight_decode", inflight_decode,
	 "18.2: VK_QUERY_RESULT_WAIT_BIT waits for the query's status; without it, a query whose "
	 "decode has not run reads VK_NOT_READY with status 0",
	 VKQS_PARAMS(inflight_params, inflight_name)},
};
VKQS_AREA(video, cases);
