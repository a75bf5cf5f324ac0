/* Video encode feedback queries (VK_QUERY_TYPE_VIDEO_ENCODE_FEEDBACK_KHR,
 * spec 18.12) and result status queries on the encode queue (18.11),
 * around the encode of one H.264 IDR picture the case uploads.
 *
 * The oracles, all from the spec:
 * - 18.12: "the values corresponding to each enabled video encode feedback
 *   are written in the order of the bits ..., followed by an optional
 *   value indicating availability or result status";
 * - VkVideoEncodeFeedbackFlagBitsKHR: the bitstream offset is relative to
 *   dstBufferOffset and "For the first video encode operation issued by any
 *   video encode command, this value will always be zero"; bytes written
 *   is the size of what the operation wrote there, so offset + bytes fits
 *   in dstBufferRange ("the maximum bitstream size in bytes that can be
 *   written"), nothing is written outside it nor past the bytes it
 *   reports (they are "the number of bytes written"), and the bytes are the coded
 *   picture: an Annex B slice NAL unit of an IDR picture (nal_unit_type 5,
 *   nal_ref_idc non-zero) whose header carries the first macroblock 0, an
 *   I slice, the PPS id, frame_num and idr_pic_id the case gave (unless the
 *   has-overrides value says the implementation overrode parameters);
 *   has-overrides is a boolean, 0 or 1;
 * - 18.2 WITH_STATUS: positive after a successful encode, 0 while not
 *   available (a reset query), VK_QUERY_RESULT_STATUS_INSUFFICIENT_
 *   BITSTREAM_BUFFER_RANGE_KHR for an encode into a range too small where
 *   the profile reports INSUFFICIENT_BITSTREAM_BUFFER_RANGE_DETECTION.
 * The picture: H.264 4:2:0 8-bit (Main, High, else Baseline) where the
 * device encodes it, else monochrome High, 64x64, one slice, rate control
 * disabled with the least constant QP where the device allows it. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate.h"
#include "h264.h"
#include "session.h"
#include "verdict.h"
#include "vkutil.h"

#define D (VKQS_D(ctx))
#define DEV (VKQS_DEV(ctx))

#define SPEC_ORDER "18.12: feedback values \"are written in the order of the bits ..., followed by an optional value indicating availability or result status\""
#define SPEC_VALUES "18.12: the values \"must be configured on the query pool when it is created using the encodeFeedbackFlags\" member and \"are written in the order of the bits\", then the availability or status"
#define SPEC_OFFSET "VkVideoEncodeFeedbackFlagBitsKHR: the offset is relative to dstBufferOffset; \"For the first video encode operation ... this value will always be zero\""
#define SPEC_STATUS "18.2: WITH_STATUS \"Positive values indicate success, negative values indicate failure, and 0 indicates that the result is not yet available\""
#define SPEC_RANGE "VkQueryResultStatusKHR: INSUFFICIENT_BITSTREAM_BUFFER_RANGE \"did not complete successfully due to the destination video bitstream buffer range not being sufficiently large\""
#define SPEC_ONLY "18.11: \"result status queries do not track or maintain any other data beyond the completion status\""

#define ALL_FEEDBACK                                                                   \
	(VK_VIDEO_ENCODE_FEEDBACK_BITSTREAM_BUFFER_OFFSET_BIT_KHR |                     \
	 VK_VIDEO_ENCODE_FEEDBACK_BITSTREAM_BYTES_WRITTEN_BIT_KHR |                     \
	 VK_VIDEO_ENCODE_FEEDBACK_BITSTREAM_HAS_OVERRIDES_BIT_KHR)

#define OFFSET_AND_BYTES                                                               \
	(VK_VIDEO_ENCODE_FEEDBACK_BITSTREAM_BUFFER_OFFSET_BIT_KHR |                     \
	 VK_VIDEO_ENCODE_FEEDBACK_BITSTREAM_BYTES_WRITTEN_BIT_KHR)

struct encoder {
	struct vkqs_queue *q;
	PFN_vkCmdEncodeVideoKHR encode;
	VkVideoEncodeH264ProfileInfoKHR h264;
	VkVideoProfileInfoKHR profile;
	VkVideoProfileListInfoKHR list;
	VkVideoCapabilitiesKHR caps;
	VkVideoEncodeCapabilitiesKHR ecaps;
	VkVideoEncodeH264CapabilitiesKHR hcaps;
	bool mono;
	VkExtent2D extent;
	VkFormat src_format, dpb_format;
	VkImage src, dpb;
	VkImageView src_view, dpb_view;
	VkVideoSessionKHR session;
	VkVideoSessionParametersKHR params;
	StdVideoH264SequenceParameterSet sps;
	StdVideoH264PictureParameterSet pps;
	bool rc_disabled;             /* rate control DISABLED: constant QP */
	int32_t qp;
	VkSemaphore uploaded;         /* signalled by the upload, waited by the first encode */
	bool upload_pending;
};

static VkResult query_caps(struct vkqs_ctx *ctx, struct encoder *e, StdVideoH264ProfileIdc idc,
			   VkVideoChromaSubsamplingFlagBitsKHR chroma)
{
	e->h264 = (VkVideoEncodeH264ProfileInfoKHR){
		.sType = VK_STRUCTURE_TYPE_VIDEO_ENCODE_H264_PROFILE_INFO_KHR, .stdProfileIdc = idc};
	e->profile = (VkVideoProfileInfoKHR){
		.sType = VK_STRUCTURE_TYPE_VIDEO_PROFILE_INFO_KHR, .pNext = &e->h264,
		.videoCodecOperation = VK_VIDEO_CODEC_OPERATION_ENCODE_H264_BIT_KHR,
		.chromaSubsampling = chroma, .lumaBitDepth = VK_VIDEO_COMPONENT_BIT_DEPTH_8_BIT_KHR,
		.chromaBitDepth = chroma == VK_VIDEO_CHROMA_SUBSAMPLING_MONOCHROME_BIT_KHR
					  ? VK_VIDEO_COMPONENT_BIT_DEPTH_INVALID_KHR
					  : VK_VIDEO_COMPONENT_BIT_DEPTH_8_BIT_KHR};
	e->hcaps = (VkVideoEncodeH264CapabilitiesKHR){
		.sType = VK_STRUCTURE_TYPE_VIDEO_ENCODE_H264_CAPABILITIES_KHR};
	e->ecaps = (VkVideoEncodeCapabilitiesKHR){
		.sType = VK_STRUCTURE_TYPE_VIDEO_ENCODE_CAPABILITIES_KHR, .pNext = &e->hcaps};
	e->caps = (VkVideoCapabilitiesKHR){.sType = VK_STRUCTURE_TYPE_VIDEO_CAPABILITIES_KHR,
					   .pNext = &e->ecaps};
	return vkGetPhysicalDeviceVideoCapabilitiesKHR(ctx->vk->phys, &e->profile, &e->caps);
}

/* The encode queue, vkCmdEncodeVideoKHR, and an H.264 encode profile. */
static void require_encoder(struct vkqs_ctx *ctx, struct encoder *e)
{
	e->q = &ctx->vk->encode;
	if (e->q->family == VKQS_NO_FAMILY)
		vkqs_skip(ctx, "no video encode queue (VK_KHR_video_encode_queue)");
	/* Debian's 1.3.239 layer knows only the provisional encode API, whose
	 * structures differ from the final ones (VkVideoEncodeH264PictureInfoKHR
	 * has another layout than the provisional VCL frame info at the same
	 * sType): it cannot judge this usage, and it refuses
	 * vkGetPhysicalDeviceVideoCapabilitiesKHR for the final profile with
	 * VK_ERROR_VALIDATION_FAILED and no message.  Run without --validation,
	 * or with a 1.3.274 or later layer. */
	if (vkqs_layer_predates(&ctx->vk->inst, VK_KHR_VIDEO_ENCODE_QUEUE_EXTENSION_NAME) ||
	    vkqs_layer_predates(&ctx->vk->inst, VK_KHR_VIDEO_ENCODE_H264_EXTENSION_NAME))
		vkqs_skip(ctx, "the validation layer predates the final VK_KHR_video_encode_queue "
			       "(Vulkan-Headers 1.3.274): it validates the provisional API");
	if (!(ctx->vk->info.families[e->q->family].video_codecs &
	      VK_VIDEO_CODEC_OPERATION_ENCODE_H264_BIT_KHR) ||
	    !vkqs_device_has_ext(&ctx->vk->info, VK_KHR_VIDEO_ENCODE_H264_EXTENSION_NAME))
		vkqs_skip(ctx, "the encode queue family does not encode H.264");
	e->encode = (PFN_vkCmdEncodeVideoKHR)vkGetDeviceProcAddr(DEV, "vkCmdEncodeVideoKHR");
	if (!e->encode)
		vkqs_skip(ctx, "vkGetDeviceProcAddr returns no vkCmdEncodeVideoKHR");
	static const StdVideoH264ProfileIdc p420[] = {STD_VIDEO_H264_PROFILE_IDC_MAIN,
						      STD_VIDEO_H264_PROFILE_IDC_HIGH,
						      STD_VIDEO_H264_PROFILE_IDC_BASELINE};
	VkResult r = VK_ERROR_VIDEO_PROFILE_OPERATION_NOT_SUPPORTED_KHR;
	for (size_t i = 0; i < 3 && r != VK_SUCCESS; i++)
		r = query_caps(ctx, e, p420[i], VK_VIDEO_CHROMA_SUBSAMPLING_420_BIT_KHR);
	if (r != VK_SUCCESS) {
		/* monochrome: High profile and above (ITU-T H.264 A.2.4) */
		r = query_caps(ctx, e, STD_VIDEO_H264_PROFILE_IDC_HIGH,
			       VK_VIDEO_CHROMA_SUBSAMPLING_MONOCHROME_BIT_KHR);
		e->mono = true;
	}
	if (r != VK_SUCCESS)
		vkqs_skip(ctx, "no H.264 8-bit 4:2:0 or monochrome encode profile: %s",
			  vkqs_vk_result_name(r));
	e->list = (VkVideoProfileListInfoKHR){.sType = VK_STRUCTURE_TYPE_VIDEO_PROFILE_LIST_INFO_KHR,
					      .profileCount = 1, .pProfiles = &e->profile};
	if (e->caps.maxDpbSlots < 1 || e->caps.maxActiveReferencePictures < 1)
		vkqs_skip(ctx, "maxDpbSlots or maxActiveReferencePictures 0: an IDR picture is a "
			       "reference picture");
}

/* Needs every bit of `flags` in supportedEncodeFeedbackFlags. */
static void require_feedback(struct vkqs_ctx *ctx, const struct encoder *e,
			     VkVideoEncodeFeedbackFlagsKHR flags)
{
	if ((e->ecaps.supportedEncodeFeedbackFlags & flags) != flags)
		vkqs_skip(ctx, "encode feedback flags 0x%x not all in supportedEncodeFeedbackFlags 0x%x",
			  flags, e->ecaps.supportedEncodeFeedbackFlags);
}

static VkVideoFormatPropertiesKHR picture_format(struct vkqs_ctx *ctx, struct encoder *e,
						 VkImageUsageFlags usage)
{
	return vkqs_video_format(ctx, &e->list, usage,
				 e->mono ? VK_FORMAT_R8_UNORM : VK_FORMAT_G8_B8R8_2PLANE_420_UNORM);
}

static void picture_image(struct vkqs_ctx *ctx, struct encoder *e, const VkVideoFormatPropertiesKHR *fp,
			  VkImageUsageFlags usage, VkImage *img, VkImageView *view)
{
	const uint32_t fams[2] = {e->q->family, ctx->vk->gfx.family};
	vkqs_video_picture(ctx, &e->list, fp, e->extent, usage,
			   usage & ~(VkImageUsageFlags)VK_IMAGE_USAGE_TRANSFER_DST_BIT, fams, img, view);
}

/* Uploads the picture (h264.h's sample values; `noise`: a pseudo-random
 * picture no encoder compresses well) on the graphics queue and leaves it
 * in VIDEO_ENCODE_SRC layout; the first encode waits for e->uploaded. */
static void upload(struct vkqs_ctx *ctx, struct encoder *e, bool noise)
{
	uint32_t w = e->extent.width, h = e->extent.height;
	VkDeviceSize luma = (VkDeviceSize)w * h, size = e->mono ? luma : luma * 3 / 2;
	struct vkqs_buffer *buf = vkqs_buffer_host(ctx, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
	uint32_t x = 0x9e3779b9u;
	for (VkDeviceSize i = 0; i < size; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		uint8_t v;
		if (noise)
			v = (uint8_t)x;
		else if (i < luma)
			v = vkqs_h264_luma((uint32_t)(i % w), (uint32_t)(i / w));
		else {
			VkDeviceSize c = (i - luma) / 2;
			uint32_t cx = (uint32_t)(c % (w / 2)), cy = (uint32_t)(c / (w / 2));
			v = (i - luma) % 2 ? vkqs_h264_cr(cx, cy) : vkqs_h264_cb(cx, cy);
		}
		buf->map[i] = v;
	}
	vkqs_buffer_flush(ctx, buf);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	vkqs_video_barrier(ctx, cb, e->src, VK_IMAGE_LAYOUT_UNDEFINED,
			   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_NONE, 0,
			   VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
	VkBufferImageCopy r[2] = {
		{0, 0, 0, {e->mono ? VK_IMAGE_ASPECT_COLOR_BIT : VK_IMAGE_ASPECT_PLANE_0_BIT, 0, 0, 1},
		 {0, 0, 0}, {w, h, 1}},
		{luma, 0, 0, {VK_IMAGE_ASPECT_PLANE_1_BIT, 0, 0, 1}, {0, 0, 0}, {w / 2, h / 2, 1}}};
	D->vkCmdCopyBufferToImage(cb, buf->buf, e->src, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
				  e->mono ? 1 : 2, r);
	/* to the encode source layout; the semaphore orders the encode after it */
	vkqs_video_barrier(ctx, cb, e->src, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
			   VK_IMAGE_LAYOUT_VIDEO_ENCODE_SRC_KHR, VK_PIPELINE_STAGE_2_COPY_BIT,
			   VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_NONE, 0);
	vkqs_cmd_end(ctx, cb);
	VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
	VKQS_CHECK(ctx, D->vkCreateSemaphore(DEV, &sci, NULL, &e->uploaded));
	vkqs_defer_destroy(ctx, VK_OBJECT_TYPE_SEMAPHORE, (void *)e->uploaded);
	VkSubmitInfo s = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1,
			  .pCommandBuffers = &cb, .signalSemaphoreCount = 1,
			  .pSignalSemaphores = &e->uploaded};
	VKQS_CHECK(ctx, D->vkQueueSubmit(ctx->vk->gfx.queue, 1, &s, VK_NULL_HANDLE));
	e->upload_pending = true;
}

/* Session, parameters (SPS/PPS as Std structures), pictures, upload. */
static void encoder_create(struct vkqs_ctx *ctx, struct encoder *e, uint32_t w, uint32_t h,
			   bool noise)
{
	/* at least minCodedExtent, rounded up to whole access granules (and
	 * macroblocks): the coded extent may exceed the picture asked for */
	VkExtent2D g = e->caps.pictureAccessGranularity;
	uint32_t gw = g.width > 16 ? g.width : 16, gh = g.height > 16 ? g.height : 16;
	w = w < e->caps.minCodedExtent.width ? e->caps.minCodedExtent.width : w;
	h = h < e->caps.minCodedExtent.height ? e->caps.minCodedExtent.height : h;
	w = (w + gw - 1) / gw * gw;
	h = (h + gh - 1) / gh * gh;
	if (w > e->caps.maxCodedExtent.width || h > e->caps.maxCodedExtent.height)
		vkqs_skip(ctx, "a %ux%u picture is outside the coded extents", w, h);
	e->extent = (VkExtent2D){w, h};
	VkVideoFormatPropertiesKHR sf =
		picture_format(ctx, e, VK_IMAGE_USAGE_VIDEO_ENCODE_SRC_BIT_KHR |
					       VK_IMAGE_USAGE_TRANSFER_DST_BIT);
	VkFormat want = e->mono ? VK_FORMAT_R8_UNORM : VK_FORMAT_G8_B8R8_2PLANE_420_UNORM;
	if (sf.format != want)
		vkqs_skip(ctx, "the encode source format %d is not %s with TRANSFER_DST: the case "
			       "cannot upload the picture", sf.format, e->mono ? "R8" : "NV12");
	e->src_format = sf.format;
	picture_image(ctx, e, &sf, VK_IMAGE_USAGE_VIDEO_ENCODE_SRC_BIT_KHR |
				       VK_IMAGE_USAGE_TRANSFER_DST_BIT, &e->src, &e->src_view);
	VkVideoFormatPropertiesKHR df = picture_format(ctx, e, VK_IMAGE_USAGE_VIDEO_ENCODE_DPB_BIT_KHR);
	e->dpb_format = df.format;
	picture_image(ctx, e, &df, VK_IMAGE_USAGE_VIDEO_ENCODE_DPB_BIT_KHR, &e->dpb, &e->dpb_view);

	VkVideoSessionCreateInfoKHR sci = {
		.sType = VK_STRUCTURE_TYPE_VIDEO_SESSION_CREATE_INFO_KHR,
		.queueFamilyIndex = e->q->family, .pVideoProfile = &e->profile,
		.pictureFormat = e->src_format, .maxCodedExtent = e->extent,
		.referencePictureFormat = e->dpb_format, .maxDpbSlots = 1,
		.maxActiveReferencePictures = 1, .pStdHeaderVersion = &e->caps.stdHeaderVersion};
	e->session = vkqs_video_session(ctx, &sci);

	/* SPS/PPS: CAVLC, frame coding, picture order count type 0, no
	 * deblocking control: the defaults every encoder supports */
	StdVideoH264LevelIdc level = STD_VIDEO_H264_LEVEL_IDC_4_1;
	if (e->hcaps.maxLevelIdc < level)
		level = e->hcaps.maxLevelIdc;
	e->sps = (StdVideoH264SequenceParameterSet){
		.flags = {.frame_mbs_only_flag = 1, .direct_8x8_inference_flag = 1},
		.profile_idc = e->h264.stdProfileIdc, .level_idc = level,
		.chroma_format_idc = e->mono ? STD_VIDEO_H264_CHROMA_FORMAT_IDC_MONOCHROME
					     : STD_VIDEO_H264_CHROMA_FORMAT_IDC_420,
		.seq_parameter_set_id = 0, .log2_max_frame_num_minus4 = 0,
		.pic_order_cnt_type = STD_VIDEO_H264_POC_TYPE_0,
		.log2_max_pic_order_cnt_lsb_minus4 = 0, .max_num_ref_frames = 1,
		.pic_width_in_mbs_minus1 = w / 16 - 1, .pic_height_in_map_units_minus1 = h / 16 - 1};
	e->pps = (StdVideoH264PictureParameterSet){
		.seq_parameter_set_id = 0, .pic_parameter_set_id = 0,
		.weighted_bipred_idc = STD_VIDEO_H264_WEIGHTED_BIPRED_IDC_DEFAULT};
	VkVideoEncodeH264SessionParametersAddInfoKHR add = {
		.sType = VK_STRUCTURE_TYPE_VIDEO_ENCODE_H264_SESSION_PARAMETERS_ADD_INFO_KHR,
		.stdSPSCount = 1, .pStdSPSs = &e->sps, .stdPPSCount = 1, .pStdPPSs = &e->pps};
	VkVideoEncodeH264SessionParametersCreateInfoKHR hpi = {
		.sType = VK_STRUCTURE_TYPE_VIDEO_ENCODE_H264_SESSION_PARAMETERS_CREATE_INFO_KHR,
		.maxStdSPSCount = 1, .maxStdPPSCount = 1, .pParametersAddInfo = &add};
	e->params = vkqs_video_params(ctx, e->session, &hpi);
	/* "If the rate control mode is DISABLED, constantQp" is the QP; in any
	 * other mode it must be 0 */
	e->rc_disabled = e->ecaps.rateControlModes & VK_VIDEO_ENCODE_RATE_CONTROL_MODE_DISABLED_BIT_KHR;
	e->qp = e->rc_disabled ? (e->hcaps.minQp > 10 ? e->hcaps.minQp : 10) : 0;
	if (e->rc_disabled && e->qp > e->hcaps.maxQp)
		e->qp = e->hcaps.maxQp;
	upload(ctx, e, noise);
}

/* An encoder whose profile supports the feedback values `need`, with its
 * session, parameters and a w x h picture (noise: see upload()). */
static struct encoder *encoder_ready(struct vkqs_ctx *ctx, VkVideoEncodeFeedbackFlagsKHR need,
				     uint32_t w, uint32_t h, bool noise)
{
	struct encoder *e = vkqs_alloc(ctx, sizeof(*e)); /* outlives the case: its defers use it */
	require_encoder(ctx, e);
	require_feedback(ctx, e, need);
	encoder_create(ctx, e, w, h, noise);
	return e;
}

/* A bitstream buffer of `size` bytes (host-visible), filled with 0xa5. */
static struct vkqs_buffer *bitstream_buffer(struct vkqs_ctx *ctx, struct encoder *e, VkDeviceSize size)
{
	struct vkqs_buffer *b = vkqs_buffer_host_next(ctx, size, VK_BUFFER_USAGE_VIDEO_ENCODE_DST_BIT_KHR,
						      &e->list);
	memset(b->map, 0xa5, size);
	vkqs_buffer_flush(ctx, b);
	return b;
}

static VkDeviceSize align_up(VkDeviceSize v, VkDeviceSize a)
{
	return a ? (v + a - 1) / a * a : v;
}

/* One encode: the picture as IDR idr_pic_id into dst at [offset, offset +
 * range), inside query `query` of `pool` (none: VK_NULL_HANDLE). */
struct encode_op {
	VkBuffer dst;
	VkDeviceSize offset, range;
	VkQueryPool pool;
	uint32_t query;
	uint16_t idr_pic_id;
	bool created_reset; /* the pool was created reset and the query is unused: no reset */
};

/* Records on the encode queue: the queries' reset, the DPB transition, the
 * coding scope (reset control and, where available, rate control
 * DISABLED), the encodes, each in its query. */
static VkCommandBuffer record_encodes(struct vkqs_ctx *ctx, struct encoder *e,
				      const struct encode_op *ops, uint32_t n)
{
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, e->q);
	for (uint32_t i = 0; i < n; i++)
		if (ops[i].pool && !ops[i].created_reset)
			D->vkCmdResetQueryPool(cb, ops[i].pool, ops[i].query, 1);
	vkqs_video_barrier(ctx, cb, e->dpb, VK_IMAGE_LAYOUT_UNDEFINED,
			   VK_IMAGE_LAYOUT_VIDEO_ENCODE_DPB_KHR, VK_PIPELINE_STAGE_2_NONE, 0,
			   VK_PIPELINE_STAGE_2_VIDEO_ENCODE_BIT_KHR,
			   VK_ACCESS_2_VIDEO_ENCODE_READ_BIT_KHR | VK_ACCESS_2_VIDEO_ENCODE_WRITE_BIT_KHR);
	VkVideoPictureResourceInfoKHR dpb_res = {
		.sType = VK_STRUCTURE_TYPE_VIDEO_PICTURE_RESOURCE_INFO_KHR,
		.codedExtent = e->extent, .imageViewBinding = e->dpb_view};
	VkVideoPictureResourceInfoKHR src_res = dpb_res;
	src_res.imageViewBinding = e->src_view;
	VkVideoReferenceSlotInfoKHR bound = {.sType = VK_STRUCTURE_TYPE_VIDEO_REFERENCE_SLOT_INFO_KHR,
					     .slotIndex = -1, .pPictureResource = &dpb_res};
	VkVideoEncodeRateControlInfoKHR rc = {.sType = VK_STRUCTURE_TYPE_VIDEO_ENCODE_RATE_CONTROL_INFO_KHR,
					      .rateControlMode = VK_VIDEO_ENCODE_RATE_CONTROL_MODE_DISABLED_BIT_KHR};
	VkVideoBeginCodingInfoKHR begin = {.sType = VK_STRUCTURE_TYPE_VIDEO_BEGIN_CODING_INFO_KHR,
					   .videoSession = e->session,
					   .videoSessionParameters = e->params,
					   .referenceSlotCount = 1, .pReferenceSlots = &bound};
	D->vkCmdBeginVideoCodingKHR(cb, &begin);
	VkVideoCodingControlInfoKHR control = {
		.sType = VK_STRUCTURE_TYPE_VIDEO_CODING_CONTROL_INFO_KHR,
		.pNext = e->rc_disabled ? &rc : NULL,
		.flags = VK_VIDEO_CODING_CONTROL_RESET_BIT_KHR |
			 (e->rc_disabled ? VK_VIDEO_CODING_CONTROL_ENCODE_RATE_CONTROL_BIT_KHR : 0)};
	D->vkCmdControlVideoCodingKHR(cb, &control);
	for (uint32_t i = 0; i < n; i++) {
		/* Each encode writes the same reconstructed picture (DPB slot 0):
		 * the next one waits for the write before (a WAW otherwise). */
		if (i > 0)
			vkqs_video_barrier(ctx, cb, e->dpb, VK_IMAGE_LAYOUT_VIDEO_ENCODE_DPB_KHR,
					   VK_IMAGE_LAYOUT_VIDEO_ENCODE_DPB_KHR,
					   VK_PIPELINE_STAGE_2_VIDEO_ENCODE_BIT_KHR,
					   VK_ACCESS_2_VIDEO_ENCODE_WRITE_BIT_KHR,
					   VK_PIPELINE_STAGE_2_VIDEO_ENCODE_BIT_KHR,
					   VK_ACCESS_2_VIDEO_ENCODE_READ_BIT_KHR |
						   VK_ACCESS_2_VIDEO_ENCODE_WRITE_BIT_KHR);
		StdVideoEncodeH264ReferenceInfo ref = {.primary_pic_type = STD_VIDEO_H264_PICTURE_TYPE_IDR};
		VkVideoEncodeH264DpbSlotInfoKHR slot_h264 = {
			.sType = VK_STRUCTURE_TYPE_VIDEO_ENCODE_H264_DPB_SLOT_INFO_KHR,
			.pStdReferenceInfo = &ref};
		VkVideoReferenceSlotInfoKHR setup = {.sType = VK_STRUCTURE_TYPE_VIDEO_REFERENCE_SLOT_INFO_KHR,
						     .pNext = &slot_h264, .slotIndex = 0,
						     .pPictureResource = &dpb_res};
		StdVideoEncodeH264SliceHeader sh = {
			.slice_type = STD_VIDEO_H264_SLICE_TYPE_I,
			.cabac_init_idc = STD_VIDEO_H264_CABAC_INIT_IDC_0,
			.disable_deblocking_filter_idc = STD_VIDEO_H264_DISABLE_DEBLOCKING_FILTER_IDC_DISABLED};
		VkVideoEncodeH264NaluSliceInfoKHR slice = {
			.sType = VK_STRUCTURE_TYPE_VIDEO_ENCODE_H264_NALU_SLICE_INFO_KHR,
			.constantQp = e->qp, .pStdSliceHeader = &sh};
		StdVideoEncodeH264PictureInfo pic = {
			.flags = {.IdrPicFlag = 1, .is_reference = 1},
			.seq_parameter_set_id = 0, .pic_parameter_set_id = 0,
			.idr_pic_id = ops[i].idr_pic_id,
			.primary_pic_type = STD_VIDEO_H264_PICTURE_TYPE_IDR};
		VkVideoEncodeH264PictureInfoKHR hpic = {
			.sType = VK_STRUCTURE_TYPE_VIDEO_ENCODE_H264_PICTURE_INFO_KHR,
			.naluSliceEntryCount = 1, .pNaluSliceEntries = &slice, .pStdPictureInfo = &pic};
		VkVideoEncodeInfoKHR ei = {.sType = VK_STRUCTURE_TYPE_VIDEO_ENCODE_INFO_KHR,
					   .pNext = &hpic, .dstBuffer = ops[i].dst,
					   .dstBufferOffset = ops[i].offset,
					   .dstBufferRange = ops[i].range,
					   .srcPictureResource = src_res,
					   .pSetupReferenceSlot = &setup};
		if (ops[i].pool)
			D->vkCmdBeginQuery(cb, ops[i].pool, ops[i].query, 0);
		e->encode(cb, &ei);
		if (ops[i].pool)
			D->vkCmdEndQuery(cb, ops[i].pool, ops[i].query);
	}
	VkVideoEndCodingInfoKHR end = {.sType = VK_STRUCTURE_TYPE_VIDEO_END_CODING_INFO_KHR};
	D->vkCmdEndVideoCodingKHR(cb, &end);
	vkqs_cmd_end(ctx, cb);
	return cb;
}

/* Submits on the encode queue (after the upload) and waits. */
static void submit_wait(struct vkqs_ctx *ctx, struct encoder *e, VkCommandBuffer cb,
			VkSemaphore signal)
{
	const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
	VkSubmitInfo s = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			  .waitSemaphoreCount = e->upload_pending ? 1 : 0,
			  .pWaitSemaphores = &e->uploaded, .pWaitDstStageMask = &stage,
			  .commandBufferCount = 1, .pCommandBuffers = &cb,
			  .signalSemaphoreCount = signal ? 1 : 0, .pSignalSemaphores = &signal};
	VkFence f = vkqs_fence(ctx);
	VKQS_CHECK(ctx, D->vkQueueSubmit(e->q->queue, 1, &s, f));
	e->upload_pending = false;
	if (!signal)
		vkqs_fence_wait(ctx, f);
}

static VkQueryPool feedback_pool(struct vkqs_ctx *ctx, struct encoder *e,
				 VkVideoEncodeFeedbackFlagsKHR flags, uint32_t count,
				 VkQueryPoolCreateFlags create)
{
	/* the pool's pNext: the feedback flags, then the profile */
	VkQueryPoolVideoEncodeFeedbackCreateInfoKHR *fb = vkqs_alloc(ctx, sizeof(*fb));
	*fb = (VkQueryPoolVideoEncodeFeedbackCreateInfoKHR){
		.sType = VK_STRUCTURE_TYPE_QUERY_POOL_VIDEO_ENCODE_FEEDBACK_CREATE_INFO_KHR,
		.pNext = &e->profile, .encodeFeedbackFlags = flags};
	return vkqs_query_pool_flags(ctx, VK_QUERY_TYPE_VIDEO_ENCODE_FEEDBACK_KHR, count, 0, create,
				     fb);
}

/* The data an encode wrote at [offset, offset + bytes) of `buf` is an IDR
 * slice with the header the case asked for (skipped where the feedback
 * says parameters were overridden); nothing outside [offset, offset +
 * range) changed. */
static void check_bitstream(struct vkqs_ctx *ctx, struct encoder *e, struct vkqs_buffer *buf,
			    VkDeviceSize size, const struct encode_op *op, uint64_t bytes,
			    bool overrides)
{
	vkqs_buffer_invalidate(ctx, buf);
	VkDeviceSize outside = 0;
	for (VkDeviceSize i = 0; i < size; i++)
		if ((i < op->offset || i >= op->offset + op->range) && buf->map[i] != 0xa5)
			outside++;
	VKQS_EXPECTF(ctx, outside == 0,
		     "%" PRIu64 " bytes written outside [dstBufferOffset %" PRIu64 ", + dstBufferRange %"
		     PRIu64 ")", (uint64_t)outside, (uint64_t)op->offset, (uint64_t)op->range);
	if (bytes == 0 || bytes > op->range)
		return; /* reported by the caller */
	/* "the number of bytes written by the video encode operation": the
	 * rest of the range is not written */
	VkDeviceSize beyond = 0;
	for (VkDeviceSize i = op->offset + bytes; i < op->offset + op->range; i++)
		beyond += buf->map[i] != 0xa5;
	VKQS_EXPECTF(ctx, beyond == 0,
		     "%" PRIu64 " bytes of the range past the %" PRIu64 " bytes written changed: the "
		     "operation wrote more than it reports", (uint64_t)beyond, bytes);
	struct vkqs_h264_slice_header h;
	char why[160];
	if (!vkqs_h264_first_slice(buf->map + op->offset, (size_t)bytes,
				   e->sps.log2_max_frame_num_minus4 + 4u, &h, why, sizeof(why))) {
		VKQS_EXPECTF(ctx, false, "the %" PRIu64 " bytes written at dstBufferOffset: %s",
			     bytes, why);
		return;
	}
	VKQS_EXPECTF(ctx, h.nal_unit_type == 5 && h.nal_ref_idc != 0,
		     "the first slice NAL unit has nal_unit_type %u, nal_ref_idc %u (an IDR picture: "
		     "5, non-zero)", h.nal_unit_type, h.nal_ref_idc);
	if (overrides)
		return;
	VKQS_EXPECTF(ctx, h.first_mb_in_slice == 0 && (h.slice_type == 2 || h.slice_type == 7) &&
				  h.pic_parameter_set_id == e->pps.pic_parameter_set_id &&
				  h.frame_num == 0 && h.idr_pic_id == op->idr_pic_id,
		     "slice header first_mb %u slice_type %u pps %u frame_num %u idr_pic_id %u; asked "
		     "0, I (2 or 7), %u, 0, %u", h.first_mb_in_slice, h.slice_type,
		     h.pic_parameter_set_id, h.frame_num, h.idr_pic_id, e->pps.pic_parameter_set_id,
		     op->idr_pic_id);
}

/* The feedback values of one query (as 64-bit words), by flag; the
 * word after them. */
struct feedback {
	uint64_t offset, bytes, overrides;
	bool has_offset, has_bytes, has_overrides;
};

static struct feedback read_feedback(const uint8_t *words, size_t word,
				     VkVideoEncodeFeedbackFlagsKHR flags, uint32_t *n)
{
	struct feedback f = {0};
	uint32_t k = 0;
	if (flags & VK_VIDEO_ENCODE_FEEDBACK_BITSTREAM_BUFFER_OFFSET_BIT_KHR) {
		f.offset = vkqs_load_word(words + k++ * word, word);
		f.has_offset = true;
	}
	if (flags & VK_VIDEO_ENCODE_FEEDBACK_BITSTREAM_BYTES_WRITTEN_BIT_KHR) {
		f.bytes = vkqs_load_word(words + k++ * word, word);
		f.has_bytes = true;
	}
	if (flags & VK_VIDEO_ENCODE_FEEDBACK_BITSTREAM_HAS_OVERRIDES_BIT_KHR) {
		f.overrides = vkqs_load_word(words + k++ * word, word);
		f.has_overrides = true;
	}
	*n = k;
	return f;
}

static void check_feedback(struct vkqs_ctx *ctx, const struct feedback *f, VkDeviceSize range)
{
	if (f->has_offset)
		VKQS_EXPECTF(ctx, f->offset == 0,
			     "bitstream offset %" PRIu64 " for the only encode operation of the command "
			     "(0: data starts at dstBufferOffset)", f->offset);
	if (f->has_bytes)
		VKQS_EXPECTF(ctx, f->bytes > 0 && f->offset + f->bytes <= range,
			     "bytes written %" PRIu64 " (offset %" PRIu64 "): expected 1 .. dstBufferRange "
			     "%" PRIu64 " - offset", f->bytes, f->offset, (uint64_t)range);
	if (f->has_overrides)
		VKQS_EXPECTF(ctx, f->overrides <= 1,
			     "has-overrides value %" PRIu64 " is not a boolean (0 or 1)", f->overrides);
}

struct values_param {
	VkVideoEncodeFeedbackFlagsKHR flags;
	bool is64;
	bool availability; /* WITH_AVAILABILITY, else WITH_STATUS */
};
static const struct values_param values_params[] = {
	{1, true, false}, {2, true, false}, {4, true, false}, {3, true, false},
	{5, true, false}, {6, true, false}, {7, true, false},
	{7, false, false}, {7, true, true}, {7, false, true},
};
static void values_name(const void *p, char *b, size_t n)
{
	const struct values_param *v = p;
	snprintf(b, n, "%s%s%s_%s_%s", v->flags & 1 ? "o" : "", v->flags & 2 ? "b" : "",
		 v->flags & 4 ? "h" : "", v->is64 ? "64" : "32",
		 v->availability ? "availability" : "status");
}

/* The encode in query 1 of a pool of 3: popcount(flags) values in bit
 * order, then one status (positive) or availability (non-zero) word;
 * neighbours' words untouched; the bitstream where the values say. */
static void feedback_values(struct vkqs_ctx *ctx, const void *param)
{
	const struct values_param *vp = param;
	struct encoder *e = encoder_ready(ctx, vp->flags, 64, 64, false);
	VkQueryPool pool = feedback_pool(ctx, e, vp->flags, 3, 0);
	VkDeviceSize range = align_up(64 * 1024, e->caps.minBitstreamBufferSizeAlignment);
	struct vkqs_buffer *bits = bitstream_buffer(ctx, e, range);
	struct encode_op op = {bits->buf, 0, range, pool, 1, 0};
	submit_wait(ctx, e, record_encodes(ctx, e, &op, 1), VK_NULL_HANDLE);
	size_t word = vp->is64 ? 8 : 4;
	uint32_t nvals = (uint32_t)__builtin_popcount(vp->flags);
	size_t elem = (nvals + 1) * word;
	uint8_t out[128];
	memset(out, 0xa5, sizeof(out));
	VkQueryResultFlags flags = VK_QUERY_RESULT_WAIT_BIT | (vp->is64 ? VK_QUERY_RESULT_64_BIT : 0) |
				   (vp->availability ? VK_QUERY_RESULT_WITH_AVAILABILITY_BIT
						     : VK_QUERY_RESULT_WITH_STATUS_BIT_KHR);
	VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, pool, 1, 1, elem, out + word, elem, flags));
	uint32_t n;
	struct feedback f = read_feedback(out + word, word, vp->flags, &n);
	check_feedback(ctx, &f, range);
	uint64_t last = vkqs_load_word(out + word + n * word, word);
	if (vp->availability)
		VKQS_EXPECTF(ctx, last != 0, "availability word 0 after WAIT (%u values before it)", n);
	else {
		int64_t st = vp->is64 ? (int64_t)last : (int64_t)(int32_t)(uint32_t)last;
		VKQS_EXPECTF(ctx, st > 0, "status %" PRId64 " after a valid encode completed "
			     "(positive: success), after %u values", st, n);
	}
	bool clean = true;
	for (size_t i = 0; i < sizeof(out); i++)
		if ((i < word || i >= word + elem) && out[i] != 0xa5)
			clean = false;
	VKQS_EXPECTF(ctx, clean, "bytes written outside the %zu-byte result (%u values and one word)",
		     elem, n);
	check_bitstream(ctx, e, bits, range, &op, f.has_bytes ? f.bytes : 0,
			f.has_overrides && f.overrides);
}

/* The feedback of every supported value, 64-bit with status. */
static struct feedback get_all(struct vkqs_ctx *ctx, VkQueryPool pool,
			       uint32_t query, VkVideoEncodeFeedbackFlagsKHR flags, int64_t *status)
{
	uint64_t w[5] = {0};
	VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, pool, query, 1, sizeof(w), w, sizeof(w),
						 VK_QUERY_RESULT_WAIT_BIT | VK_QUERY_RESULT_64_BIT |
							 VK_QUERY_RESULT_WITH_STATUS_BIT_KHR));
	uint32_t n;
	struct feedback f = read_feedback((const uint8_t *)w, 8, flags, &n);
	*status = (int64_t)w[n];
	return f;
}

/* Every feedback value the profile supports (NotSupported where none). */
static VkVideoEncodeFeedbackFlagsKHR supported(struct vkqs_ctx *ctx, const struct encoder *e)
{
	VkVideoEncodeFeedbackFlagsKHR flags = e->ecaps.supportedEncodeFeedbackFlags & ALL_FEEDBACK;
	if (!flags)
		vkqs_skip(ctx, "no encode feedback flag supported");
	return flags;
}

/* dstBufferOffset non-zero (a multiple of the offset alignment): the
 * offset value is still 0, the data starts there, nothing before it. */
static void dst_offset(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	struct encoder *e = encoder_ready(ctx, OFFSET_AND_BYTES, 64, 64, false);
	VkVideoEncodeFeedbackFlagsKHR flags = supported(ctx, e);
	VkQueryPool pool = feedback_pool(ctx, e, flags, 1, 0);
	VkDeviceSize off = align_up(3 * 256, e->caps.minBitstreamBufferOffsetAlignment);
	VkDeviceSize range = align_up(64 * 1024, e->caps.minBitstreamBufferSizeAlignment);
	struct vkqs_buffer *bits = bitstream_buffer(ctx, e, off + range + 256);
	struct encode_op op = {bits->buf, off, range, pool, 0, 0};
	submit_wait(ctx, e, record_encodes(ctx, e, &op, 1), VK_NULL_HANDLE);
	int64_t st;
	struct feedback f = get_all(ctx, pool, 0, flags, &st);
	VKQS_EXPECTF(ctx, st > 0, "status %" PRId64 " after a valid encode", st);
	check_feedback(ctx, &f, range);
	check_bitstream(ctx, e, bits, off + range + 256, &op, f.bytes,
			f.has_overrides && f.overrides);
}

/* Two encodes (IDR 0 and IDR 1) in queries 0 and 1, each into its own
 * range: each query has its own operation's feedback. */
static void two_queries(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	struct encoder *e = encoder_ready(ctx, OFFSET_AND_BYTES, 64, 64, false);
	VkVideoEncodeFeedbackFlagsKHR flags = supported(ctx, e);
	VkQueryPool pool = feedback_pool(ctx, e, flags, 2, 0);
	VkDeviceSize range = align_up(64 * 1024, e->caps.minBitstreamBufferSizeAlignment);
	VkDeviceSize second = align_up(range, e->caps.minBitstreamBufferOffsetAlignment);
	struct vkqs_buffer *bits = bitstream_buffer(ctx, e, second + range);
	struct encode_op ops[2] = {{bits->buf, 0, range, pool, 0, 0},
				   {bits->buf, second, range, pool, 1, 1}};
	submit_wait(ctx, e, record_encodes(ctx, e, ops, 2), VK_NULL_HANDLE);
	for (uint32_t q = 0; q < 2; q++) {
		int64_t st;
		struct feedback f = get_all(ctx, pool, q, flags, &st);
		VKQS_EXPECTF(ctx, st > 0, "query %u: status %" PRId64 " after a valid encode", q, st);
		check_feedback(ctx, &f, range);
		/* the other query's range is "outside" this one: only the slice
		 * header is checked here */
		if (f.bytes && f.bytes <= range) {
			struct vkqs_h264_slice_header h;
			char why[160];
			vkqs_buffer_invalidate(ctx, bits);
			bool ok = vkqs_h264_first_slice(bits->map + ops[q].offset, (size_t)f.bytes,
							e->sps.log2_max_frame_num_minus4 + 4u, &h, why,
							sizeof(why));
			VKQS_EXPECTF(ctx, ok, "query %u: %s", q, why);
			if (ok && !(f.has_overrides && f.overrides))
				VKQS_EXPECTF(ctx, h.nal_unit_type == 5 && h.idr_pic_id == ops[q].idr_pic_id,
					     "query %u: nal_unit_type %u idr_pic_id %u (asked 5, %u): "
					     "the feedback of another operation?", q, h.nal_unit_type,
					     h.idr_pic_id, ops[q].idr_pic_id);
		}
	}
}

/* Query 0 of pool (feedback `flags`), unavailable, read with WITH_STATUS
 * and no WAIT: VK_NOT_READY, its status word written and 0. */
static void expect_unavailable(struct vkqs_ctx *ctx, VkQueryPool pool,
			       VkVideoEncodeFeedbackFlagsKHR flags, const char *what)
{
	const uint64_t guard = 0x5a5a5a5a5a5a5a5aull;
	uint64_t w[5];
	for (int i = 0; i < 5; i++)
		w[i] = guard;
	VkResult r = D->vkGetQueryPoolResults(DEV, pool, 0, 1, sizeof(w), w, sizeof(w),
					      VK_QUERY_RESULT_WITH_STATUS_BIT_KHR | VK_QUERY_RESULT_64_BIT);
	uint32_t n = (uint32_t)__builtin_popcount(flags);
	vkqs_video_expect_unavailable(ctx, r, (int64_t)w[n], (int64_t)guard, what);
}

/* Reset, not begun: without WAIT, VK_NOT_READY; the status word is written,
 * and is 0. */
static void reset_not_ready(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	struct encoder *e = vkqs_alloc(ctx, sizeof(*e));
	require_encoder(ctx, e);
	VkVideoEncodeFeedbackFlagsKHR flags = supported(ctx, e);
	VkQueryPool pool = feedback_pool(ctx, e, flags, 1, 0);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, e->q);
	D->vkCmdResetQueryPool(cb, pool, 0, 1);
	vkqs_cmd_submit_wait(ctx, e->q, cb);
	expect_unavailable(ctx, pool, flags, "a reset encode feedback query");
}

/* VK_KHR_maintenance9: an encode feedback pool created with
 * VK_QUERY_POOL_CREATE_RESET_BIT_KHR ("queries in the query pool are
 * initialized on creation and do not need to be reset before first use")
 * reads unavailable before any use; its first encode, with no
 * vkCmdResetQueryPool anywhere, has a positive status and the feedback
 * every encode must give. */
static void create_reset_first_use(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	/* before the encoder: a session costs more than the check */
	if (!vkqs_device_has_ext(&ctx->vk->info, VK_KHR_MAINTENANCE_9_EXTENSION_NAME))
		vkqs_skip(ctx, "the device lacks %s", VK_KHR_MAINTENANCE_9_EXTENSION_NAME);
	vkqs_require_feature(ctx, VK_KHR_MAINTENANCE_9_EXTENSION_NAME ".maintenance9");
	struct encoder *e = encoder_ready(ctx, OFFSET_AND_BYTES, 64, 64, false);
	VkVideoEncodeFeedbackFlagsKHR flags = supported(ctx, e);
	VkQueryPool pool = feedback_pool(ctx, e, flags, 1, VK_QUERY_POOL_CREATE_RESET_BIT_KHR);
	expect_unavailable(ctx, pool, flags,
			   "an encode feedback pool created with VK_QUERY_POOL_CREATE_RESET_BIT_KHR, "
			   "read before any use");
	VkDeviceSize range = align_up(64 * 1024, e->caps.minBitstreamBufferSizeAlignment);
	struct vkqs_buffer *bits = bitstream_buffer(ctx, e, range);
	struct encode_op op = {bits->buf, 0, range, pool, 0, 0, true};
	submit_wait(ctx, e, record_encodes(ctx, e, &op, 1), VK_NULL_HANDLE);
	int64_t st;
	struct feedback f = get_all(ctx, pool, 0, flags, &st);
	VKQS_EXPECTF(ctx, st > 0,
		     "status %" PRId64 " after a valid encode, the first use of a query created reset",
		     st);
	check_feedback(ctx, &f, range);
	check_bitstream(ctx, e, bits, range, &op, f.bytes, f.has_overrides && f.overrides);
}

/* vkCmdCopyQueryPoolResults (on the graphics queue: the copy needs
 * graphics or compute, VUID-vkCmdCopyQueryPoolResults-commandBuffer-cmdpool)
 * after the encode's submission: what vkGetQueryPoolResults returns. */
static void copy_results(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	struct encoder *e = vkqs_alloc(ctx, sizeof(*e));
	require_encoder(ctx, e);
	VkVideoEncodeFeedbackFlagsKHR flags = supported(ctx, e);
	encoder_create(ctx, e, 64, 64, false);
	VkQueryPool pool = feedback_pool(ctx, e, flags, 1, 0);
	VkDeviceSize range = align_up(64 * 1024, e->caps.minBitstreamBufferSizeAlignment);
	struct vkqs_buffer *bits = bitstream_buffer(ctx, e, range);
	struct encode_op op = {bits->buf, 0, range, pool, 0, 0};
	VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
	VkSemaphore sem;
	VKQS_CHECK(ctx, D->vkCreateSemaphore(DEV, &sci, NULL, &sem));
	vkqs_defer_destroy(ctx, VK_OBJECT_TYPE_SEMAPHORE, (void *)sem);
	submit_wait(ctx, e, record_encodes(ctx, e, &op, 1), sem);
	uint32_t n = (uint32_t)__builtin_popcount(flags);
	VkDeviceSize elem = (n + 1) * 8;
	struct vkqs_buffer *buf = vkqs_buffer_host(ctx, elem + 16, 0);
	memset(buf->map, 0xa5, elem + 16);
	vkqs_buffer_flush(ctx, buf);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	const VkQueryResultFlags rf = VK_QUERY_RESULT_WITH_STATUS_BIT_KHR | VK_QUERY_RESULT_64_BIT |
				      VK_QUERY_RESULT_WAIT_BIT;
	D->vkCmdCopyQueryPoolResults(cb, pool, 0, 1, buf->buf, 8, elem, rf);
	vkqs_cmd_transfer_to_host_barrier(ctx, cb);
	vkqs_cmd_end(ctx, cb);
	const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
	VkSubmitInfo s = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .waitSemaphoreCount = 1,
			  .pWaitSemaphores = &sem, .pWaitDstStageMask = &stage,
			  .commandBufferCount = 1, .pCommandBuffers = &cb};
	VkFence f = vkqs_fence(ctx);
	VKQS_CHECK(ctx, D->vkQueueSubmit(ctx->vk->gfx.queue, 1, &s, f));
	vkqs_fence_wait(ctx, f);
	D->vkQueueWaitIdle(e->q->queue);
	vkqs_buffer_invalidate(ctx, buf);
	uint64_t host[5] = {0};
	VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, pool, 0, 1, sizeof(host), host, sizeof(host), rf));
	bool same = memcmp(buf->map + 8, host, (size_t)elem) == 0;
	VKQS_EXPECTF(ctx, same && (int64_t)host[n] > 0,
		     "vkCmdCopyQueryPoolResults wrote %s what vkGetQueryPoolResults returns (status %"
		     PRId64 ", positive: success)", same ? "" : "other than", (int64_t)host[n]);
	bool guards = true;
	for (VkDeviceSize i = 0; i < elem + 16; i++)
		if ((i < 8 || i >= 8 + elem) && buf->map[i] != 0xa5)
			guards = false;
	VKQS_EXPECTF(ctx, guards, "the copy wrote outside its %" PRIu64 "-byte result", (uint64_t)elem);
}

/* A noise picture into a range of one size alignment unit (at least 64
 * bytes): where the profile reports INSUFFICIENT_BITSTREAM_BUFFER_RANGE_
 * DETECTION, the status is that code; nothing is written past the range.
 * Why the picture cannot fit: 256x256 uniformly random 8-bit samples
 * (standard deviation ~74) coded at a constant QP <= 30 (quantizer step
 * <= 20, rate control disabled).  Noise has no spatial correlation for
 * intra prediction to remove, so the residual's transform coefficients keep
 * that spread and most quantize to non-zero levels: well over one bit per
 * sample.  The case runs only where the range is at most 1/64 of the luma
 * samples' bytes, 1/8 bit per sample, and skips otherwise. */
static void insufficient_range(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	struct encoder *e = vkqs_alloc(ctx, sizeof(*e));
	require_encoder(ctx, e);
	if (!(e->ecaps.flags & VK_VIDEO_ENCODE_CAPABILITY_INSUFFICIENT_BITSTREAM_BUFFER_RANGE_DETECTION_BIT_KHR))
		vkqs_skip(ctx, "the profile does not report INSUFFICIENT_BITSTREAM_BUFFER_RANGE_DETECTION");
	VkVideoEncodeFeedbackFlagsKHR flags = supported(ctx, e);
	encoder_create(ctx, e, 256, 256, true);
	if (!e->rc_disabled || e->qp > 30)
		vkqs_skip(ctx, "rate control cannot be disabled at QP <= 30: the coded size of the "
			       "noise picture is not bounded from below");
	VkDeviceSize range = align_up(64, e->caps.minBitstreamBufferSizeAlignment);
	if (range * 64 > (VkDeviceSize)e->extent.width * e->extent.height)
		vkqs_skip(ctx, "minBitstreamBufferSizeAlignment %" PRIu64 " is too large for a range "
			       "that cannot hold the picture", (uint64_t)e->caps.minBitstreamBufferSizeAlignment);
	VkQueryPool pool = feedback_pool(ctx, e, flags, 1, 0);
	VkDeviceSize size = range + 4096;
	struct vkqs_buffer *bits = bitstream_buffer(ctx, e, size);
	struct encode_op op = {bits->buf, 0, range, pool, 0, 0};
	submit_wait(ctx, e, record_encodes(ctx, e, &op, 1), VK_NULL_HANDLE);
	int64_t st;
	get_all(ctx, pool, 0, flags, &st);
	VKQS_EXPECTF(ctx, st == (int64_t)VK_QUERY_RESULT_STATUS_INSUFFICIENT_BITSTREAM_BUFFER_RANGE_KHR,
		     "status %" PRId64 " for an encode into %" PRIu64 " bytes (INSUFFICIENT_BITSTREAM_"
		     "BUFFER_RANGE_KHR: %d)", st, (uint64_t)range,
		     (int)VK_QUERY_RESULT_STATUS_INSUFFICIENT_BITSTREAM_BUFFER_RANGE_KHR);
	vkqs_buffer_invalidate(ctx, bits);
	VkDeviceSize past = 0;
	for (VkDeviceSize i = range; i < size; i++)
		past += bits->map[i] != 0xa5;
	VKQS_EXPECTF(ctx, past == 0, "%" PRIu64 " bytes written past dstBufferRange", (uint64_t)past);
}

/* A result status query around the encode on the encode family (where it
 * reports queryResultStatusSupport): one positive word, nothing else. */
static void status_only(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	struct encoder *e = vkqs_alloc(ctx, sizeof(*e));
	require_encoder(ctx, e);
	if (!ctx->vk->info.families[e->q->family].query_result_status)
		vkqs_skip(ctx, "the encode queue family %u has no queryResultStatusSupport",
			  e->q->family);
	encoder_create(ctx, e, 64, 64, false);
	VkQueryPool pool = vkqs_query_pool_next(ctx, VK_QUERY_TYPE_RESULT_STATUS_ONLY_KHR, 1,
						&e->profile);
	VkDeviceSize range = align_up(64 * 1024, e->caps.minBitstreamBufferSizeAlignment);
	struct vkqs_buffer *bits = bitstream_buffer(ctx, e, range);
	struct encode_op op = {bits->buf, 0, range, pool, 0, 0};
	submit_wait(ctx, e, record_encodes(ctx, e, &op, 1), VK_NULL_HANDLE);
	uint32_t out[3] = {0xa5a5a5a5u, 0xa5a5a5a5u, 0xa5a5a5a5u};
	VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, pool, 0, 1, 4, &out[1], 4,
						 VK_QUERY_RESULT_WITH_STATUS_BIT_KHR |
							 VK_QUERY_RESULT_WAIT_BIT));
	VKQS_EXPECTF(ctx, (int32_t)out[1] > 0, "status %d after a valid encode (positive: success)",
		     (int32_t)out[1]);
	VKQS_EXPECTF(ctx, out[0] == 0xa5a5a5a5u && out[2] == 0xa5a5a5a5u,
		     "bytes written outside the one 32-bit status word");
}

/* In flight (issue: WAIT not honoured, availability before the values;
 * radv returned video encode feedback before the encode completed, Mesa
 * 25.2.1 and 25.3.0 release notes).  One encode in query 0 of a pool of
 * every supported feedback value, submitted behind a shut gate
 * (framework/gate.h) on the encode queue; reads with WITH_STATUS, 64-bit.
 * - wait: a WAIT read issued while the gate is shut returns after it
 *   opened, with a positive status and the final values (18.2 WAIT "will
 *   wait for each query's status to become available").
 * - available_is_final: reads without WAIT from before the gate opens to
 *   the fence, WITH_STATUS and WITH_AVAILABILITY in turn: any read with a
 *   non-zero status or availability holds the final values. */
#define INFLIGHT_TIMER_NS (2ull * 1000 * 1000 * 1000)
#define INFLIGHT_WAIT_NS (100ull * 1000 * 1000)
#define INFLIGHT_POLL_NS (5ull * 1000 * 1000 * 1000)

struct inflight_encode {
	VkQueryPool pool;
	bool status_only;        /* a RESULT_STATUS_ONLY query: no values */
	uint32_t values;
	VkFence fence;
	struct vkqs_gate *gate;
};

static void inflight_submit(struct vkqs_ctx *ctx, struct inflight_encode *f, uint64_t open_after,
			    bool status_only)
{
	vkqs_require_feature(ctx, "timelineSemaphore");
	struct encoder *e = vkqs_alloc(ctx, sizeof(*e));
	require_encoder(ctx, e);
	if (status_only && !ctx->vk->info.families[e->q->family].query_result_status)
		vkqs_skip(ctx, "the encode queue family %u has no queryResultStatusSupport",
			  e->q->family);
	encoder_create(ctx, e, 64, 64, false);
	f->status_only = status_only;
	if (status_only) {
		f->values = 0;
		f->pool = vkqs_query_pool_next(ctx, VK_QUERY_TYPE_RESULT_STATUS_ONLY_KHR, 1,
					       &e->profile);
	} else {
		VkVideoEncodeFeedbackFlagsKHR flags = supported(ctx, e);
		f->values = (uint32_t)__builtin_popcount(flags);
		f->pool = feedback_pool(ctx, e, flags, 1, 0);
	}
	VkDeviceSize range = align_up(64 * 1024, e->caps.minBitstreamBufferSizeAlignment);
	struct vkqs_buffer *bits = bitstream_buffer(ctx, e, range);
	struct encode_op op = {bits->buf, 0, range, f->pool, 0, 0};
	/* reset first in a submission of its own that completes: the reads
	 * while the gate is shut must not see an uninitialized query
	 * (VUID-vkGetQueryPoolResults-None-09401) */
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, e->q);
	D->vkCmdResetQueryPool(cb, f->pool, 0, 1);
	vkqs_cmd_submit_wait(ctx, e->q, cb);
	cb = record_encodes(ctx, e, &op, 1);
	f->fence = vkqs_fence(ctx);
	f->gate = vkqs_gate_create(ctx, open_after);
	vkqs_submit_gated_on(ctx, f->gate, e->q->queue, cb, f->fence,
			     e->upload_pending ? e->uploaded : VK_NULL_HANDLE);
	e->upload_pending = false;
}

/* values then the status word (or, with `availability`, the
 * availability word), 64-bit */
static VkResult inflight_read(struct vkqs_ctx *ctx, const struct inflight_encode *f,
			      VkQueryResultFlags wait, uint64_t v[8], bool availability)
{
	memset(v, 0, 8 * sizeof(uint64_t));
	return D->vkGetQueryPoolResults(DEV, f->pool, 0, 1, (f->values + 1) * 8, v,
					(f->values + 1) * 8,
					wait | VK_QUERY_RESULT_64_BIT |
						(availability ? VK_QUERY_RESULT_WITH_AVAILABILITY_BIT
							      : VK_QUERY_RESULT_WITH_STATUS_BIT_KHR));
}

/* The final result, after the fence: a positive status. */
static bool inflight_final(struct vkqs_ctx *ctx, const struct inflight_encode *f, uint64_t v[8])
{
	vkqs_fence_wait(ctx, f->fence);
	VkResult r = inflight_read(ctx, f, 0, v, false);
	int64_t st = (int64_t)v[f->values];
	VKQS_EXPECTF(ctx, r == VK_SUCCESS && st > 0,
		     "after the fence the feedback query reads %s, status %" PRId64,
		     vkqs_vk_result_name(r), st);
	return r == VK_SUCCESS && st > 0;
}

static const bool inflight_status_only[] = {false, true};
static void inflight_type_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "%s", *(const bool *)p ? "result_status" : "feedback");
}

static void inflight_wait(struct vkqs_ctx *ctx, const void *param)
{
	struct inflight_encode f;
	inflight_submit(ctx, &f, INFLIGHT_WAIT_NS, *(const bool *)param);
	/* --- the gate is shut until its timer opens it, while WAIT waits --- */
	uint64_t v[8], fin[8];
	VkResult r = inflight_read(ctx, &f, VK_QUERY_RESULT_WAIT_BIT, v, false);
	bool waited = vkqs_gate_opened_by_now(f.gate);
	vkqs_gate_release(ctx, f.gate);
	/* --- the gate is open --- */
	VKQS_EXPECTF(ctx, waited,
		     "vkGetQueryPoolResults with WAIT returned before the submission that encodes "
		     "could start (its gate was shut)");
	VKQS_EXPECTF(ctx, r == VK_SUCCESS, "vkGetQueryPoolResults with WAIT returned %s",
		     vkqs_vk_result_name(r));
	if (!inflight_final(ctx, &f, fin))
		return;
	char a[96], b[96];
	VKQS_EXPECTF(ctx, (int64_t)v[f.values] > 0 && !memcmp(v, fin, f.values * 8),
		     "the WAIT read returned status %" PRId64 ", values (%s); the final values are "
		     "(%s)", (int64_t)v[f.values], vkqs_values_text(v, f.values, a, sizeof(a)),
		     vkqs_values_text(fin, f.values, b, sizeof(b)));
}

/* every other read WITH_AVAILABILITY instead of WITH_STATUS; either
 * word non-zero says available */
static uint32_t inflight_poll_read(struct vkqs_ctx *ctx, void *arg, uint32_t poll,
				   uint64_t out[VKQS_POLL_WORDS])
{
	const struct inflight_encode *f = arg;
	/* a status-only query has no availability form (WITH_STATUS is required) */
	inflight_read(ctx, f, 0, out, !f->status_only && poll % 2);
	if (poll % 2 && out[f->values]) /* compared as a status below */
		out[f->values] = VK_QUERY_RESULT_STATUS_COMPLETE_KHR;
	return f->values;
}

static void inflight_available_is_final(struct vkqs_ctx *ctx, const void *param)
{
	struct inflight_encode f;
	struct vkqs_poll *p = vkqs_alloc(ctx, sizeof(*p));
	uint64_t fin[8];
	inflight_submit(ctx, &f, INFLIGHT_TIMER_NS, *(const bool *)param);
	/* --- the gate is shut: record, check later --- */
	vkqs_poll_in_flight(ctx, f.gate, f.fence, INFLIGHT_POLL_NS, inflight_poll_read, &f, p);
	vkqs_gate_release(ctx, f.gate);
	/* --- the gate is open --- */
	if (!inflight_final(ctx, &f, fin))
		return;
	VKQS_EXPECTF(ctx, p->early == 0,
		     "%u reads had a status or availability before the submission could start "
		     "(its gate was shut)",
		     p->early);
	char a[96], b[96];
	for (uint32_t k = 0; k < p->kept; k++)
		VKQS_EXPECTF(ctx, (int64_t)p->seen[k][f.values] > 0 &&
				     !memcmp(p->seen[k], fin, f.values * 8),
			     "a read while the encode was in flight said available (status %" PRId64
			     ") with values (%s); the final values are (%s)",
			     (int64_t)p->seen[k][f.values],
			     vkqs_values_text(p->seen[k], f.values, a, sizeof(a)),
			     vkqs_values_text(fin, f.values, b, sizeof(b)));
	vkqs_note(ctx, "%u reads in flight, %u unavailable", p->polls, p->unavailable);
}

/* VK_KHR_video_encode_feedback2: the values it adds, of one 64x64 IDR
 * picture in one slice (18.12 Video Encode Feedback Queries).
 * - Fail: an I slice has only intra blocks, so the intra pixels are the
 *   picture padded to whole 16x16 macroblocks ("include padding pixels
 *   beyond the requested coded extent that are part of the complete coding
 *   blocks"): 4096; inter and skipped pixels 0 (H.264 skipped blocks are
 *   inter blocks); at least one picture partition; the minimum QP at most
 *   the average, the average at most the maximum.
 * - CompatibilityWarning: more than the one slice the encode asked for; a
 *   QP other than the constantQp of rate control DISABLED ("the QP to use
 *   for the slice").
 * Per picture partition feedback is not checked here. */
#define FEEDBACK2_ALL                                                                     \
	(VK_VIDEO_ENCODE_FEEDBACK_AVERAGE_QUANTIZATION_BIT_KHR |                          \
	 VK_VIDEO_ENCODE_FEEDBACK_MIN_QUANTIZATION_BIT_KHR |                              \
	 VK_VIDEO_ENCODE_FEEDBACK_MAX_QUANTIZATION_BIT_KHR |                              \
	 VK_VIDEO_ENCODE_FEEDBACK_INTRA_PIXELS_BIT_KHR |                                  \
	 VK_VIDEO_ENCODE_FEEDBACK_INTER_PIXELS_BIT_KHR |                                  \
	 VK_VIDEO_ENCODE_FEEDBACK_SKIPPED_PIXELS_BIT_KHR |                                \
	 VK_VIDEO_ENCODE_FEEDBACK_PICTURE_PARTITION_COUNT_BIT_KHR)

static void feedback2_values(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	if (!vkqs_device_has_ext(&ctx->vk->info, VK_KHR_VIDEO_ENCODE_FEEDBACK_2_EXTENSION_NAME))
		vkqs_skip(ctx, "the device does not offer VK_KHR_video_encode_feedback2");
	vkqs_require_feature(ctx, "VK_KHR_video_encode_feedback2.videoEncodeFeedback2");
	struct encoder *e = vkqs_alloc(ctx, sizeof(*e));
	require_encoder(ctx, e);
	VkVideoEncodeFeedbackFlagsKHR flags = e->ecaps.supportedEncodeFeedbackFlags & FEEDBACK2_ALL;
	if (!flags)
		vkqs_skip(ctx, "supportedEncodeFeedbackFlags 0x%x has none of VK_KHR_video_encode_"
			  "feedback2's values", e->ecaps.supportedEncodeFeedbackFlags);
	encoder_create(ctx, e, 64, 64, false);
	VkQueryPool pool = feedback_pool(ctx, e, flags, 1, 0);
	VkDeviceSize range = align_up(64 * 1024, e->caps.minBitstreamBufferSizeAlignment);
	struct vkqs_buffer *bits = bitstream_buffer(ctx, e, range);
	struct encode_op op = {bits->buf, 0, range, pool, 0, 0};
	submit_wait(ctx, e, record_encodes(ctx, e, &op, 1), VK_NULL_HANDLE);
	uint64_t w[8] = {0};
	uint32_t n = (uint32_t)__builtin_popcount(flags);
	VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, pool, 0, 1, (n + 1) * 8, w, (n + 1) * 8,
						 VK_QUERY_RESULT_WAIT_BIT | VK_QUERY_RESULT_64_BIT |
							 VK_QUERY_RESULT_WITH_STATUS_BIT_KHR));
	VKQS_ASSERTF(ctx, (int64_t)w[n] > 0, "status %" PRId64 " after a valid encode", (int64_t)w[n]);
	/* the values in the order of their bits */
	int64_t v[10];
	bool has[10] = {false};
	for (uint32_t bit = 3, k = 0; bit < 10; bit++)
		if (flags & (1u << bit)) {
			has[bit] = true;
			v[bit] = (int64_t)w[k++];
		}
	/* 1.4.360 queries.adoc: the counts "include padding pixels beyond the
	 * requested coded extent that are part of the complete coding blocks";
	 * the coded extent is e->extent (encoder_create: at least
	 * minCodedExtent, whole granules, so whole macroblocks), not the 64x64
	 * asked for. */
	const uint64_t pixels = (uint64_t)e->extent.width * e->extent.height;
	if (has[6])
		VKQS_EXPECTF(ctx, (uint64_t)v[6] == pixels,
			     "intra pixels %" PRId64 " for an IDR picture of %ux%u coded pixels "
			     "(every block of an I slice is intra): expected %" PRIu64, v[6],
			     e->extent.width, e->extent.height, pixels);
	if (has[7])
		VKQS_EXPECTF(ctx, v[7] == 0, "inter pixels %" PRId64 " in an I slice", v[7]);
	if (has[8])
		VKQS_EXPECTF(ctx, v[8] == 0, "skipped pixels %" PRId64 " in an I slice", v[8]);
	if (has[9]) {
		VKQS_EXPECTF(ctx, v[9] >= 1, "picture partition count %" PRId64, v[9]);
		if (v[9] > 1)
			vkqs_compat_warning(ctx, "%" PRId64 " picture partitions for an encode of one "
					    "slice", v[9]);
	}
	if (has[3] && has[4] && has[5])
		VKQS_EXPECTF(ctx, v[4] <= v[3] && v[3] <= v[5],
			     "QP minimum %" PRId64 ", average %" PRId64 ", maximum %" PRId64, v[4], v[3],
			     v[5]);
	for (uint32_t bit = 3; bit <= 5 && e->rc_disabled; bit++)
		if (has[bit] && v[bit] != e->qp)
			vkqs_compat_warning(ctx, "QP value of bit %u is %" PRId64 "; rate control is "
					    "DISABLED with constantQp %d", bit, v[bit], e->qp);
}

static const struct vkqs_case cases[] = {
	{"encode_feedback.values", feedback_values, SPEC_VALUES,
	 VKQS_PARAMS(values_params, values_name)},
	{"encode_feedback.dst_offset", dst_offset, SPEC_OFFSET},
	{"encode_feedback.two_queries", two_queries, SPEC_ORDER},
	{"encode_feedback.reset_not_ready", reset_not_ready, SPEC_STATUS},
	{"encode_feedback.create_reset_first_use", create_reset_first_use,
	 "VK_KHR_maintenance9: VK_QUERY_POOL_CREATE_RESET_BIT_KHR \"specifies that queries in the "
	 "query pool are initialized on creation and do not need to be reset before first use\""},
	{"encode_feedback.copy", copy_results, SPEC_ORDER},
	{"encode_feedback.insufficient_range", insufficient_range, SPEC_RANGE},
	{"encode_feedback.inflight_wait", inflight_wait,
	 "18.2: VK_QUERY_RESULT_WAIT_BIT \"specifies that Vulkan will wait for each query's status "
	 "to become available before retrieving its results\" (video encode feedback and result "
	 "status queries, issued before the encode could start)",
	 VKQS_PARAMS(inflight_status_only, inflight_type_name)},
	{"encode_feedback.inflight_available_is_final", inflight_available_is_final,
	 "18.2: a query whose status is available holds its final results (video encode feedback "
	 "and result status queries read without WAIT while the encode is in flight)",
	 VKQS_PARAMS(inflight_status_only, inflight_type_name)},
	{"encode_feedback.feedback2_values", feedback2_values,
	 "18.12 (VK_KHR_video_encode_feedback2): intra, inter and skipped pixels, the picture "
	 "partition count and the QP values of one IDR picture, in the order of their bits"},
	{"result_status.encode", status_only, SPEC_ONLY},
};
/* A second table of the video area (result_status.c has the first). */
const struct vkqs_area vkqs_area_video_encode = {"video", cases, VKQS_ARRAY_LEN(cases)};
