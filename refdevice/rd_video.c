/* Video encode (VK_KHR_video_queue, VK_KHR_video_encode_queue,
 * VK_KHR_video_encode_h264): the queue family RD_FAMILY_ENCODE, its
 * capabilities, sessions and parameters objects, and the encoder the
 * executor runs for vkCmdEncodeVideoKHR.  refdevice/README.md "Video
 * encode" documents what it writes.
 *
 * One profile: H.264 High (profile_idc 100), monochrome, 8-bit, progressive,
 * pictures in VK_FORMAT_R8_UNORM.  Every macroblock is coded I_PCM (ITU-T
 * H.264 7.3.5: mb_type 25 in an I slice, then the 256 luma samples raw), so
 * the bitstream carries the picture sample for sample and its size is known
 * exactly: the encode feedback query's oracle.  Syntax elements the encoder
 * cannot write as given (CABAC, field coding, 4:2:0 chroma, VUI, scaling
 * matrices, picture order count type 1) are overridden: the bitstream uses
 * the default and the operation counts as having overrides. */
#include <stdlib.h>
#include <string.h>

#include "rd.h"
#include "rd_api.h"

/* Profile ----------------------------------------------------------------*/

static VkResult check_profile(const VkVideoProfileInfoKHR *p)
{
	if (!p || p->videoCodecOperation != VK_VIDEO_CODEC_OPERATION_ENCODE_H264_BIT_KHR)
		return VK_ERROR_VIDEO_PROFILE_CODEC_NOT_SUPPORTED_KHR;
	/* "If chromaSubsampling is VK_VIDEO_CHROMA_SUBSAMPLING_MONOCHROME_BIT_KHR,
	 * chromaBitDepth is ignored" */
	if (p->chromaSubsampling != VK_VIDEO_CHROMA_SUBSAMPLING_MONOCHROME_BIT_KHR ||
	    p->lumaBitDepth != VK_VIDEO_COMPONENT_BIT_DEPTH_8_BIT_KHR)
		return VK_ERROR_VIDEO_PROFILE_FORMAT_NOT_SUPPORTED_KHR;
	const VkVideoEncodeH264ProfileInfoKHR *h = NULL;
	for (const VkBaseInStructure *s = p->pNext; s; s = s->pNext)
		if (s->sType == VK_STRUCTURE_TYPE_VIDEO_ENCODE_H264_PROFILE_INFO_KHR)
			h = (const void *)s;
	if (!h || h->stdProfileIdc != STD_VIDEO_H264_PROFILE_IDC_HIGH)
		return VK_ERROR_VIDEO_PROFILE_OPERATION_NOT_SUPPORTED_KHR;
	return VK_SUCCESS;
}

static VkResult check_profile_list(const void *chain)
{
	for (const VkBaseInStructure *s = chain; s; s = s->pNext)
		if (s->sType == VK_STRUCTURE_TYPE_VIDEO_PROFILE_LIST_INFO_KHR) {
			const VkVideoProfileListInfoKHR *l = (const void *)s;
			if (!l->profileCount)
				return VK_ERROR_VIDEO_PROFILE_CODEC_NOT_SUPPORTED_KHR;
			for (uint32_t i = 0; i < l->profileCount; i++) {
				VkResult r = check_profile(&l->pProfiles[i]);
				if (r != VK_SUCCESS)
					return r;
			}
			return VK_SUCCESS;
		}
	return VK_ERROR_VIDEO_PROFILE_CODEC_NOT_SUPPORTED_KHR;
}

bool rd_video_image_profiles_ok(const void *chain)
{
	return check_profile_list(chain) == VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_GetPhysicalDeviceVideoCapabilitiesKHR(
	VkPhysicalDevice physicalDevice, const VkVideoProfileInfoKHR *pVideoProfile,
	VkVideoCapabilitiesKHR *caps)
{
	RD_FROM_HANDLE(rd_physical_device, pd, physicalDevice);
	const struct rd_config *cfg = &pd->instance->config;
	VkResult r = check_profile(pVideoProfile);
	if (r != VK_SUCCESS)
		return r;
	caps->flags = 0;
	caps->minBitstreamBufferOffsetAlignment = RD_VIDEO_OFFSET_ALIGN;
	caps->minBitstreamBufferSizeAlignment = RD_VIDEO_SIZE_ALIGN;
	caps->pictureAccessGranularity = (VkExtent2D){16, 16};
	caps->minCodedExtent = (VkExtent2D){cfg->video_min_w, cfg->video_min_h};
	caps->maxCodedExtent = (VkExtent2D){RD_VIDEO_MAX_EXTENT, RD_VIDEO_MAX_EXTENT};
	caps->maxDpbSlots = 2;
	caps->maxActiveReferencePictures = 1;
	snprintf(caps->stdHeaderVersion.extensionName, VK_MAX_EXTENSION_NAME_SIZE, "%s",
		 VK_STD_VULKAN_VIDEO_CODEC_H264_ENCODE_EXTENSION_NAME);
	caps->stdHeaderVersion.specVersion = VK_STD_VULKAN_VIDEO_CODEC_H264_ENCODE_SPEC_VERSION;
	for (VkBaseOutStructure *s = caps->pNext; s; s = s->pNext) {
		if (s->sType == VK_STRUCTURE_TYPE_VIDEO_ENCODE_CAPABILITIES_KHR) {
			VkVideoEncodeCapabilitiesKHR *e = (void *)s;
			e->flags = VK_VIDEO_ENCODE_CAPABILITY_INSUFFICIENT_BITSTREAM_BUFFER_RANGE_DETECTION_BIT_KHR;
			/* I_PCM has no quantizer to control */
			e->rateControlModes = VK_VIDEO_ENCODE_RATE_CONTROL_MODE_DISABLED_BIT_KHR;
			e->maxRateControlLayers = 1;
			e->maxBitrate = 1000000000;
			e->maxQualityLevels = 1;
			e->encodeInputPictureGranularity = (VkExtent2D){16, 16};
			/* and of VK_KHR_video_encode_feedback2 the pixel counts and
			 * the partition count; no quantization values (I_PCM has
			 * no quantizer) */
			e->supportedEncodeFeedbackFlags = RD_ENCODE_FEEDBACK_FLAGS;
		} else if (s->sType == VK_STRUCTURE_TYPE_VIDEO_ENCODE_FEEDBACK_2_CAPABILITIES_KHR) {
			/* no per picture partition feedback */
			VkVideoEncodeFeedback2CapabilitiesKHR *f = (void *)s;
			f->maxPerPartitionFeedbackEntries = 0;
			f->supportedPerPartitionEncodeFeedbackFlags = 0;
		} else if (s->sType == VK_STRUCTURE_TYPE_VIDEO_ENCODE_H264_CAPABILITIES_KHR) {
			VkVideoEncodeH264CapabilitiesKHR *h = (void *)s;
			h->flags = 0;
			h->maxLevelIdc = STD_VIDEO_H264_LEVEL_IDC_5_1;
			h->maxSliceCount = 1;
			h->maxPPictureL0ReferenceCount = 0;
			h->maxBPictureL0ReferenceCount = 0;
			h->maxL1ReferenceCount = 0;
			h->maxTemporalLayerCount = 1;
			h->expectDyadicTemporalLayerPattern = VK_FALSE;
			h->minQp = 0;
			h->maxQp = 51;
			h->prefersGopRemainingFrames = VK_FALSE;
			h->requiresGopRemainingFrames = VK_FALSE;
			h->stdSyntaxFlags = 0; /* no value other than the default */
		}
	}
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_GetPhysicalDeviceVideoFormatPropertiesKHR(
	VkPhysicalDevice physicalDevice, const VkPhysicalDeviceVideoFormatInfoKHR *info,
	uint32_t *pCount, VkVideoFormatPropertiesKHR *pProps)
{
	(void)physicalDevice;
	VkResult r = check_profile_list(info->pNext);
	if (r != VK_SUCCESS)
		return r;
	const VkImageUsageFlags ours = VK_IMAGE_USAGE_VIDEO_ENCODE_SRC_BIT_KHR |
				       VK_IMAGE_USAGE_VIDEO_ENCODE_DPB_BIT_KHR |
				       VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
				       VK_IMAGE_USAGE_TRANSFER_DST_BIT;
	if ((info->imageUsage & ~ours) ||
	    !(info->imageUsage & (VK_IMAGE_USAGE_VIDEO_ENCODE_SRC_BIT_KHR |
				  VK_IMAGE_USAGE_VIDEO_ENCODE_DPB_BIT_KHR)))
		return VK_ERROR_IMAGE_USAGE_NOT_SUPPORTED_KHR;
	if (!pProps) {
		*pCount = 1;
		return VK_SUCCESS;
	}
	if (*pCount < 1)
		return VK_INCOMPLETE;
	*pCount = 1;
	pProps->format = VK_FORMAT_R8_UNORM;
	pProps->componentMapping = (VkComponentMapping){
		VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_IDENTITY,
		VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_IDENTITY};
	pProps->imageCreateFlags = 0;
	pProps->imageType = VK_IMAGE_TYPE_2D;
	pProps->imageTiling = VK_IMAGE_TILING_OPTIMAL;
	pProps->imageUsageFlags = ours;
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_GetPhysicalDeviceVideoEncodeQualityLevelPropertiesKHR(
	VkPhysicalDevice physicalDevice, const VkPhysicalDeviceVideoEncodeQualityLevelInfoKHR *info,
	VkVideoEncodeQualityLevelPropertiesKHR *props)
{
	(void)physicalDevice;
	VkResult r = check_profile(info->pVideoProfile);
	if (r != VK_SUCCESS)
		return r;
	props->preferredRateControlMode = VK_VIDEO_ENCODE_RATE_CONTROL_MODE_DISABLED_BIT_KHR;
	props->preferredRateControlLayerCount = 0;
	return VK_SUCCESS;
}

/* Sessions and parameters ------------------------------------------------*/

VKAPI_ATTR VkResult VKAPI_CALL rd_CreateVideoSessionKHR(VkDevice device,
							const VkVideoSessionCreateInfoKHR *ci,
							const VkAllocationCallbacks *pAllocator,
							VkVideoSessionKHR *pSession)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	if (ci->queueFamilyIndex != RD_FAMILY_ENCODE)
		return RD_ERROR(VK_ERROR_INITIALIZATION_FAILED,
				"vkCreateVideoSessionKHR: family %u has no video operations",
				ci->queueFamilyIndex);
	VkResult r = check_profile(ci->pVideoProfile);
	if (r != VK_SUCCESS)
		return r;
	if (strcmp(ci->pStdHeaderVersion->extensionName,
		   VK_STD_VULKAN_VIDEO_CODEC_H264_ENCODE_EXTENSION_NAME) != 0 ||
	    ci->pStdHeaderVersion->specVersion > (uint32_t)VK_STD_VULKAN_VIDEO_CODEC_H264_ENCODE_SPEC_VERSION)
		return VK_ERROR_VIDEO_STD_VERSION_NOT_SUPPORTED_KHR;
	if (ci->maxCodedExtent.width > RD_VIDEO_MAX_EXTENT ||
	    ci->maxCodedExtent.height > RD_VIDEO_MAX_EXTENT ||
	    ci->pictureFormat != VK_FORMAT_R8_UNORM)
		return RD_ERROR(VK_ERROR_INITIALIZATION_FAILED,
				"vkCreateVideoSessionKHR: extent %ux%u or format %d unsupported",
				ci->maxCodedExtent.width, ci->maxCodedExtent.height,
				ci->pictureFormat);
	struct rd_video_session *s = rd_object_alloc(dev, pAllocator, sizeof(*s),
						     VK_OBJECT_TYPE_VIDEO_SESSION_KHR);
	if (!s)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	*pSession = RD_TO_HANDLE(VkVideoSessionKHR, s);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL rd_DestroyVideoSessionKHR(VkDevice device, VkVideoSessionKHR session,
						     const VkAllocationCallbacks *pAllocator)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	RD_FROM_HANDLE(rd_video_session, s, session);
	if (s)
		rd_free(DEV_ALLOC(dev, pAllocator), s);
}

/* The session keeps its state in host memory: nothing to bind. */
VKAPI_ATTR VkResult VKAPI_CALL rd_GetVideoSessionMemoryRequirementsKHR(
	VkDevice device, VkVideoSessionKHR session, uint32_t *pCount,
	VkVideoSessionMemoryRequirementsKHR *pReqs)
{
	(void)device;
	(void)session;
	(void)pReqs;
	*pCount = 0;
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_BindVideoSessionMemoryKHR(
	VkDevice device, VkVideoSessionKHR session, uint32_t count,
	const VkBindVideoSessionMemoryInfoKHR *infos)
{
	(void)device;
	(void)session;
	(void)infos;
	return count ? RD_ERROR(VK_ERROR_INITIALIZATION_FAILED,
				"vkBindVideoSessionMemoryKHR: the session has no memory bindings")
		     : VK_SUCCESS;
}

/* Adds (or, for an id already there, replaces) parameter sets; the Std
 * structures' pointers (VUI, scaling lists, offsets for ref frames) are not
 * kept: the encoder never writes what they point at. */
static VkResult add_sets(struct rd_video_params *p, const void *chain)
{
	const VkVideoEncodeH264SessionParametersAddInfoKHR *a = NULL;
	for (const VkBaseInStructure *s = chain; s; s = s->pNext)
		if (s->sType == VK_STRUCTURE_TYPE_VIDEO_ENCODE_H264_SESSION_PARAMETERS_ADD_INFO_KHR)
			a = (const void *)s;
	if (!a)
		return VK_SUCCESS;
	for (uint32_t i = 0; i < a->stdSPSCount; i++) {
		StdVideoH264SequenceParameterSet sps = a->pStdSPSs[i];
		sps.pOffsetForRefFrame = NULL;
		sps.pScalingLists = NULL;
		sps.pSequenceParameterSetVui = NULL;
		uint32_t k = 0;
		while (k < p->sps_count && p->sps[k].seq_parameter_set_id != sps.seq_parameter_set_id)
			k++;
		if (k == RD_VIDEO_MAX_PS)
			return VK_ERROR_TOO_MANY_OBJECTS;
		p->sps[k] = sps;
		if (k == p->sps_count)
			p->sps_count++;
	}
	for (uint32_t i = 0; i < a->stdPPSCount; i++) {
		StdVideoH264PictureParameterSet pps = a->pStdPPSs[i];
		pps.pScalingLists = NULL;
		uint32_t k = 0;
		while (k < p->pps_count &&
		       (p->pps[k].pic_parameter_set_id != pps.pic_parameter_set_id ||
			p->pps[k].seq_parameter_set_id != pps.seq_parameter_set_id))
			k++;
		if (k == RD_VIDEO_MAX_PS)
			return VK_ERROR_TOO_MANY_OBJECTS;
		p->pps[k] = pps;
		if (k == p->pps_count)
			p->pps_count++;
	}
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_CreateVideoSessionParametersKHR(
	VkDevice device, const VkVideoSessionParametersCreateInfoKHR *ci,
	const VkAllocationCallbacks *pAllocator, VkVideoSessionParametersKHR *pParams)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	struct rd_video_params *p = rd_object_alloc(dev, pAllocator, sizeof(*p),
						    VK_OBJECT_TYPE_VIDEO_SESSION_PARAMETERS_KHR);
	if (!p)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	pthread_mutex_init(&p->lock, NULL);
	struct rd_video_params *tmpl =
		(struct rd_video_params *)(uintptr_t)ci->videoSessionParametersTemplate;
	if (tmpl) {
		p->sps_count = tmpl->sps_count;
		p->pps_count = tmpl->pps_count;
		memcpy(p->sps, tmpl->sps, sizeof(p->sps));
		memcpy(p->pps, tmpl->pps, sizeof(p->pps));
	}
	const VkVideoEncodeH264SessionParametersCreateInfoKHR *h = NULL;
	for (const VkBaseInStructure *s = ci->pNext; s; s = s->pNext)
		if (s->sType == VK_STRUCTURE_TYPE_VIDEO_ENCODE_H264_SESSION_PARAMETERS_CREATE_INFO_KHR)
			h = (const void *)s;
	VkResult r = h && h->pParametersAddInfo ? add_sets(p, h->pParametersAddInfo) : VK_SUCCESS;
	if (r != VK_SUCCESS) {
		pthread_mutex_destroy(&p->lock);
		rd_free(DEV_ALLOC(dev, pAllocator), p);
		return r;
	}
	*pParams = RD_TO_HANDLE(VkVideoSessionParametersKHR, p);
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_UpdateVideoSessionParametersKHR(
	VkDevice device, VkVideoSessionParametersKHR params,
	const VkVideoSessionParametersUpdateInfoKHR *info)
{
	(void)device;
	RD_FROM_HANDLE(rd_video_params, p, params);
	pthread_mutex_lock(&p->lock);
	VkResult r = add_sets(p, info->pNext);
	pthread_mutex_unlock(&p->lock);
	return r;
}

VKAPI_ATTR void VKAPI_CALL rd_DestroyVideoSessionParametersKHR(
	VkDevice device, VkVideoSessionParametersKHR params, const VkAllocationCallbacks *pAllocator)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	RD_FROM_HANDLE(rd_video_params, p, params);
	if (!p)
		return;
	pthread_mutex_destroy(&p->lock);
	rd_free(DEV_ALLOC(dev, pAllocator), p);
}

/* Bitstream --------------------------------------------------------------*/

/* An RBSP under construction: bits, then NAL unit bytes with emulation
 * prevention (7.4.1: 0x000003 before a byte 0..3 that follows two zeros). */
struct bits {
	uint8_t *rbsp;
	size_t len, cap, bit; /* bit: bits used in rbsp[len - 1] (8: full) */
	bool oom;
};

static void put_bit(struct bits *b, unsigned v)
{
	if (b->bit == 8 || b->len == 0) {
		if (b->len == b->cap) {
			size_t cap = b->cap ? b->cap * 2 : 1024;
			uint8_t *n = realloc(b->rbsp, cap);
			if (!n) {
				b->oom = true;
				return;
			}
			b->rbsp = n;
			b->cap = cap;
		}
		b->rbsp[b->len++] = 0;
		b->bit = 0;
	}
	if (v)
		b->rbsp[b->len - 1] |= (uint8_t)(0x80u >> b->bit);
	b->bit++;
}

static void put_u(struct bits *b, unsigned n, uint32_t v)
{
	while (n--)
		put_bit(b, (v >> n) & 1);
}

static void put_ue(struct bits *b, uint32_t v)
{
	uint64_t x = (uint64_t)v + 1;
	unsigned n = 0;
	while ((x >> n) > 1)
		n++;
	put_u(b, n, 0);
	put_u(b, 1, 1);
	put_u(b, n, (uint32_t)(x & ((1ull << n) - 1)));
}

static void put_se(struct bits *b, int32_t v)
{
	put_ue(b, v > 0 ? (uint32_t)(2 * v - 1) : (uint32_t)(-2 * (int64_t)v));
}

static bool aligned(const struct bits *b)
{
	return b->len == 0 || b->bit == 8;
}

static void trailing_bits(struct bits *b)
{
	put_bit(b, 1);
	while (!aligned(b))
		put_bit(b, 0);
}

/* Start code, NAL header, the RBSP with emulation prevention; appended to
 * *out.  False when out of memory. */
static bool emit_nal(struct bits *out, unsigned ref_idc, unsigned type, const struct bits *b)
{
	if (b->oom)
		return false;
	static const uint8_t start[4] = {0, 0, 0, 1};
	for (int i = 0; i < 4; i++)
		put_u(out, 8, start[i]);
	put_u(out, 8, (ref_idc << 5) | type);
	unsigned zeros = 0;
	for (size_t i = 0; i < b->len; i++) {
		if (zeros >= 2 && b->rbsp[i] <= 3) {
			put_u(out, 8, 3);
			zeros = 0;
		}
		put_u(out, 8, b->rbsp[i]);
		zeros = b->rbsp[i] == 0 ? zeros + 1 : 0;
	}
	return !out->oom;
}

/* What the encoder writes of an SPS: the given one but for the syntax it
 * cannot write, which takes the default (the override). */
static bool sps_written(const StdVideoH264SequenceParameterSet *in,
			StdVideoH264SequenceParameterSet *out)
{
	*out = *in;
	out->chroma_format_idc = STD_VIDEO_H264_CHROMA_FORMAT_IDC_MONOCHROME;
	out->flags.frame_mbs_only_flag = 1;
	out->flags.mb_adaptive_frame_field_flag = 0;
	out->flags.vui_parameters_present_flag = 0;
	out->flags.seq_scaling_matrix_present_flag = 0;
	out->flags.separate_colour_plane_flag = 0;
	out->flags.qpprime_y_zero_transform_bypass_flag = 0;
	out->bit_depth_luma_minus8 = 0;
	out->bit_depth_chroma_minus8 = 0;
	if (out->pic_order_cnt_type == STD_VIDEO_H264_POC_TYPE_1)
		out->pic_order_cnt_type = STD_VIDEO_H264_POC_TYPE_2;
	return memcmp(in, out, sizeof(*in)) != 0;
}

static bool pps_written(const StdVideoH264PictureParameterSet *in,
			StdVideoH264PictureParameterSet *out)
{
	*out = *in;
	out->flags.entropy_coding_mode_flag = 0;
	out->flags.pic_scaling_matrix_present_flag = 0;
	return memcmp(in, out, sizeof(*in)) != 0;
}

static void write_sps(struct bits *b, const StdVideoH264SequenceParameterSet *s)
{
	put_u(b, 8, (uint32_t)s->profile_idc);
	put_u(b, 1, s->flags.constraint_set0_flag);
	put_u(b, 1, s->flags.constraint_set1_flag);
	put_u(b, 1, s->flags.constraint_set2_flag);
	put_u(b, 1, s->flags.constraint_set3_flag);
	put_u(b, 1, s->flags.constraint_set4_flag);
	put_u(b, 1, s->flags.constraint_set5_flag);
	put_u(b, 2, 0);
	/* level_idc: the Std enum counts levels; the syntax is 10 * level */
	static const uint8_t level[] = {10, 11, 12, 13, 20, 21, 22, 30, 31, 32,
					40, 41, 42, 50, 51, 52, 60, 61, 62};
	uint32_t li = (uint32_t)s->level_idc;
	put_u(b, 8, li < sizeof(level) ? level[li] : 51);
	put_ue(b, s->seq_parameter_set_id);
	put_ue(b, (uint32_t)s->chroma_format_idc); /* High profile: 7.3.2.1.1 */
	put_ue(b, s->bit_depth_luma_minus8);
	put_ue(b, s->bit_depth_chroma_minus8);
	put_u(b, 1, s->flags.qpprime_y_zero_transform_bypass_flag);
	put_u(b, 1, 0); /* seq_scaling_matrix_present_flag */
	put_ue(b, s->log2_max_frame_num_minus4);
	put_ue(b, (uint32_t)s->pic_order_cnt_type);
	if (s->pic_order_cnt_type == STD_VIDEO_H264_POC_TYPE_0)
		put_ue(b, s->log2_max_pic_order_cnt_lsb_minus4);
	put_ue(b, s->max_num_ref_frames);
	put_u(b, 1, s->flags.gaps_in_frame_num_value_allowed_flag);
	put_ue(b, s->pic_width_in_mbs_minus1);
	put_ue(b, s->pic_height_in_map_units_minus1);
	put_u(b, 1, 1); /* frame_mbs_only_flag */
	put_u(b, 1, s->flags.direct_8x8_inference_flag);
	put_u(b, 1, s->flags.frame_cropping_flag);
	if (s->flags.frame_cropping_flag) {
		put_ue(b, s->frame_crop_left_offset);
		put_ue(b, s->frame_crop_right_offset);
		put_ue(b, s->frame_crop_top_offset);
		put_ue(b, s->frame_crop_bottom_offset);
	}
	put_u(b, 1, 0); /* vui_parameters_present_flag */
	trailing_bits(b);
}

static void write_pps(struct bits *b, const StdVideoH264PictureParameterSet *p)
{
	put_ue(b, p->pic_parameter_set_id);
	put_ue(b, p->seq_parameter_set_id);
	put_u(b, 1, 0); /* entropy_coding_mode_flag */
	put_u(b, 1, p->flags.bottom_field_pic_order_in_frame_present_flag);
	put_ue(b, 0);   /* num_slice_groups_minus1 */
	put_ue(b, p->num_ref_idx_l0_default_active_minus1);
	put_ue(b, p->num_ref_idx_l1_default_active_minus1);
	put_u(b, 1, p->flags.weighted_pred_flag);
	put_u(b, 2, (uint32_t)p->weighted_bipred_idc);
	put_se(b, p->pic_init_qp_minus26);
	put_se(b, p->pic_init_qs_minus26);
	put_se(b, p->chroma_qp_index_offset);
	put_u(b, 1, p->flags.deblocking_filter_control_present_flag);
	put_u(b, 1, p->flags.constrained_intra_pred_flag);
	put_u(b, 1, p->flags.redundant_pic_cnt_present_flag);
	if (p->flags.transform_8x8_mode_flag ||
	    p->second_chroma_qp_index_offset != p->chroma_qp_index_offset) {
		put_u(b, 1, p->flags.transform_8x8_mode_flag);
		put_u(b, 1, 0); /* pic_scaling_matrix_present_flag */
		put_se(b, p->second_chroma_qp_index_offset);
	}
	trailing_bits(b);
}

VKAPI_ATTR VkResult VKAPI_CALL rd_GetEncodedVideoSessionParametersKHR(
	VkDevice device, const VkVideoEncodeSessionParametersGetInfoKHR *info,
	VkVideoEncodeSessionParametersFeedbackInfoKHR *feedback, size_t *pDataSize, void *pData)
{
	(void)device;
	RD_FROM_HANDLE(rd_video_params, p, info->videoSessionParameters);
	const VkVideoEncodeH264SessionParametersGetInfoKHR *g = NULL;
	for (const VkBaseInStructure *s = info->pNext; s; s = s->pNext)
		if (s->sType == VK_STRUCTURE_TYPE_VIDEO_ENCODE_H264_SESSION_PARAMETERS_GET_INFO_KHR)
			g = (const void *)s;
	if (!g)
		return RD_ERROR(VK_ERROR_INITIALIZATION_FAILED,
				"vkGetEncodedVideoSessionParametersKHR: no H.264 get info");
	struct bits out = {0};
	bool sps_over = false, pps_over = false;
	VkResult r = VK_SUCCESS;
	pthread_mutex_lock(&p->lock);
	if (g->writeStdSPS) {
		uint32_t k = 0;
		while (k < p->sps_count && p->sps[k].seq_parameter_set_id != g->stdSPSId)
			k++;
		if (k == p->sps_count) {
			r = VK_ERROR_INITIALIZATION_FAILED;
		} else {
			StdVideoH264SequenceParameterSet s;
			sps_over = sps_written(&p->sps[k], &s);
			struct bits b = {0};
			write_sps(&b, &s);
			if (!emit_nal(&out, 3, 7, &b))
				r = VK_ERROR_OUT_OF_HOST_MEMORY;
			free(b.rbsp);
		}
	}
	if (g->writeStdPPS && r == VK_SUCCESS) {
		uint32_t k = 0;
		while (k < p->pps_count && (p->pps[k].pic_parameter_set_id != g->stdPPSId ||
					    p->pps[k].seq_parameter_set_id != g->stdSPSId))
			k++;
		if (k == p->pps_count) {
			r = VK_ERROR_INITIALIZATION_FAILED;
		} else {
			StdVideoH264PictureParameterSet s;
			pps_over = pps_written(&p->pps[k], &s);
			struct bits b = {0};
			write_pps(&b, &s);
			if (!emit_nal(&out, 3, 8, &b))
				r = VK_ERROR_OUT_OF_HOST_MEMORY;
			free(b.rbsp);
		}
	}
	pthread_mutex_unlock(&p->lock);
	if (r == VK_SUCCESS && feedback) {
		feedback->hasOverrides = sps_over || pps_over;
		for (VkBaseOutStructure *s = feedback->pNext; s; s = s->pNext)
			if (s->sType == VK_STRUCTURE_TYPE_VIDEO_ENCODE_H264_SESSION_PARAMETERS_FEEDBACK_INFO_KHR) {
				VkVideoEncodeH264SessionParametersFeedbackInfoKHR *h = (void *)s;
				h->hasStdSPSOverrides = sps_over;
				h->hasStdPPSOverrides = pps_over;
			}
	}
	if (r == VK_SUCCESS) {
		if (!pData) {
			*pDataSize = out.len;
		} else if (*pDataSize < out.len) {
			*pDataSize = 0;
			r = VK_INCOMPLETE;
		} else {
			memcpy(pData, out.rbsp, out.len);
			*pDataSize = out.len;
		}
	}
	free(out.rbsp);
	return r;
}

/* The encoder --------------------------------------------------------------*/

/* One slice NAL unit (7.3.3 slice header, 7.3.4 slice data, CAVLC) of the
 * whole picture in I_PCM macroblocks.  *overridden: the SPS or PPS it
 * follows had syntax the encoder overrode. */
static bool encode_slice(const struct rd_encode *op, const StdVideoH264SequenceParameterSet *sps,
			 const StdVideoH264PictureParameterSet *pps, struct bits *out)
{
	const StdVideoEncodeH264PictureInfo *pic = &op->picture;
	const StdVideoEncodeH264SliceHeader *sh = &op->slice;
	struct bits b = {0};
	put_ue(&b, sh->first_mb_in_slice);
	put_ue(&b, (uint32_t)sh->slice_type);
	put_ue(&b, pps->pic_parameter_set_id);
	put_u(&b, sps->log2_max_frame_num_minus4 + 4u, pic->frame_num);
	if (pic->flags.IdrPicFlag)
		put_ue(&b, pic->idr_pic_id);
	if (sps->pic_order_cnt_type == STD_VIDEO_H264_POC_TYPE_0) {
		uint32_t lsb_bits = sps->log2_max_pic_order_cnt_lsb_minus4 + 4u;
		put_u(&b, lsb_bits, (uint32_t)pic->PicOrderCnt & ((1u << lsb_bits) - 1));
		if (pps->flags.bottom_field_pic_order_in_frame_present_flag)
			put_se(&b, 0); /* delta_pic_order_cnt_bottom */
	}
	if (pps->flags.redundant_pic_cnt_present_flag)
		put_ue(&b, 0);
	/* I slice: no reference list syntax, no weights */
	bool reference = pic->flags.is_reference || pic->flags.IdrPicFlag;
	if (reference) {
		if (pic->flags.IdrPicFlag) {
			put_u(&b, 1, pic->flags.no_output_of_prior_pics_flag);
			put_u(&b, 1, pic->flags.long_term_reference_flag);
		} else {
			put_u(&b, 1, 0); /* adaptive_ref_pic_marking_mode_flag */
		}
	}
	put_se(&b, sh->slice_qp_delta);
	if (pps->flags.deblocking_filter_control_present_flag) {
		put_ue(&b, (uint32_t)sh->disable_deblocking_filter_idc);
		if (sh->disable_deblocking_filter_idc != STD_VIDEO_H264_DISABLE_DEBLOCKING_FILTER_IDC_DISABLED) {
			put_se(&b, sh->slice_alpha_c0_offset_div2);
			put_se(&b, sh->slice_beta_offset_div2);
		}
	}
	/* slice data: every macroblock from first_mb_in_slice on */
	uint32_t mbw = op->extent.width / 16, mbh = op->extent.height / 16;
	const struct rd_image *img = op->src->image;
	for (uint32_t mb = sh->first_mb_in_slice; mb < mbw * mbh; mb++) {
		put_ue(&b, 25); /* mb_type I_PCM */
		while (!aligned(&b))
			put_bit(&b, 0); /* pcm_alignment_zero_bit */
		uint32_t x0 = (mb % mbw) * 16 + (uint32_t)op->src_offset.x;
		uint32_t y0 = (mb / mbw) * 16 + (uint32_t)op->src_offset.y;
		for (uint32_t y = 0; y < 16; y++)
			for (uint32_t x = 0; x < 16; x++)
				put_u(&b, 8, *rd_image_texel(img, x0 + x, y0 + y,
							      op->src->base_layer, 0));
	}
	trailing_bits(&b);
	bool ok = emit_nal(out, reference ? 3 : 0, pic->flags.IdrPicFlag ? 5 : 1, &b);
	free(b.rbsp);
	return ok;
}

void rd_video_encode(const struct rd_config *cfg, const struct rd_encode *op,
		     struct rd_counters *counters)
{
	struct rd_video_params *p = op->params;
	StdVideoH264SequenceParameterSet sps;
	StdVideoH264PictureParameterSet pps;
	bool found_sps = false, found_pps = false, over = false;
	pthread_mutex_lock(&p->lock);
	for (uint32_t k = 0; k < p->pps_count && !found_pps; k++)
		if (p->pps[k].pic_parameter_set_id == op->picture.pic_parameter_set_id &&
		    p->pps[k].seq_parameter_set_id == op->picture.seq_parameter_set_id) {
			over |= pps_written(&p->pps[k], &pps);
			found_pps = true;
		}
	for (uint32_t k = 0; k < p->sps_count && !found_sps; k++)
		if (p->sps[k].seq_parameter_set_id == op->picture.seq_parameter_set_id) {
			over |= sps_written(&p->sps[k], &sps);
			found_sps = true;
		}
	pthread_mutex_unlock(&p->lock);
	if (!found_sps || !found_pps) {
		rd_log("vkCmdEncodeVideoKHR: SPS %u / PPS %u not in the session parameters",
		       op->picture.seq_parameter_set_id, op->picture.pic_parameter_set_id);
		return;
	}
	struct bits out = {0};
	if (!encode_slice(op, &sps, &pps, &out)) {
		rd_log("vkCmdEncodeVideoKHR: out of host memory");
		free(out.rbsp);
		return;
	}
	counters->encode_ops++;
	bool fits = out.len <= op->range;
	/* "did not complete successfully due to the destination video bitstream
	 * buffer range not being sufficiently large": nothing is written */
	if (fits || rd_fault(cfg, RD_FAULT_ENCODE_PAST_RANGE)) {
		uint8_t *dst = op->dst->data + op->offset;
		VkDeviceSize room = op->dst->size - op->offset;
		memcpy(dst, out.rbsp, out.len < room ? out.len : (size_t)room);
	}
	if (fits) {
		/* the fault: the start code left out of the count */
		counters->encode_bytes += rd_fault(cfg, RD_FAULT_ENCODE_BYTES_SHORT) ? out.len - 4 : out.len;
		counters->encode_overrides += over;
		/* VK_KHR_video_encode_feedback2: every macroblock from
		 * first_mb_in_slice on is an intra (I_PCM) block of 16x16 pixels,
		 * in one slice */
		uint32_t mbs = (op->extent.width / 16) * (op->extent.height / 16);
		uint32_t first = op->slice.first_mb_in_slice;
		counters->encode_intra_pixels += (uint64_t)(first < mbs ? mbs - first : 0) * 256;
		counters->encode_partitions++;
		/* the reconstructed picture: I_PCM is lossless */
		if (op->setup)
			for (uint32_t y = 0; y < op->extent.height; y++)
				memcpy(rd_image_texel(op->setup->image, 0, y, op->setup->base_layer, 0),
				       rd_image_texel(op->src->image, (uint32_t)op->src_offset.x,
						      (uint32_t)op->src_offset.y + y,
						      op->src->base_layer, 0),
				       op->extent.width);
	} else {
		counters->encode_insufficient++;
	}
	free(out.rbsp);
}
