/* A minimal H.264 picture for video decode cases: one IDR frame of I_PCM
 * macroblocks (every sample sent raw, so the decoded picture is known
 * exactly), Main profile, CAVLC, picture order count type 2, deblocking
 * off; its SPS and PPS as the Std structures the session parameters take
 * (Vulkan decoders take those, not the parameter set NAL units). */
#ifndef VKQS_H264_H
#define VKQS_H264_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compat.h"
#include <vk_video/vulkan_video_codec_h264std.h>
#include <vk_video/vulkan_video_codec_h264std_decode.h>

struct vkqs_h264_picture {
	uint32_t width, height;            /* multiples of 16 */
	StdVideoH264SequenceParameterSet sps;
	StdVideoH264PictureParameterSet pps;
	StdVideoDecodeH264PictureInfo picture;
	StdVideoDecodeH264ReferenceInfo reference;
	uint8_t *bitstream;                /* start code, then the IDR slice NAL unit */
	size_t size;
};

/* The sample values the picture carries: luma at (x, y), and Cb / Cr of
 * the 4:2:0 chroma sample (x, y), all in 16..239. */
uint8_t vkqs_h264_luma(uint32_t x, uint32_t y);
uint8_t vkqs_h264_cb(uint32_t x, uint32_t y);
uint8_t vkqs_h264_cr(uint32_t x, uint32_t y);

/* Fills *p for a width x height picture (profile_idc and level_idc as
 * the decoder's capabilities allow); the bitstream is malloc'ed. */
void vkqs_h264_idr_pcm(struct vkqs_h264_picture *p, uint32_t width, uint32_t height,
		       StdVideoH264ProfileIdc profile, StdVideoH264LevelIdc level);
void vkqs_h264_free(struct vkqs_h264_picture *p);

/* The header of the first VCL NAL unit (nal_unit_type 1..5) of an Annex B
 * byte stream, as far as the fields every slice has (7.3.3). */
struct vkqs_h264_slice_header {
	unsigned nal_ref_idc, nal_unit_type;
	uint32_t first_mb_in_slice, slice_type, pic_parameter_set_id, frame_num, idr_pic_id;
};
/* False, with the reason in why, when data does not start with a start
 * code or holds no complete slice header.  log2_max_frame_num: the SPS's
 * log2_max_frame_num_minus4 + 4 (frame_num's width). */
bool vkqs_h264_first_slice(const uint8_t *data, size_t size, uint32_t log2_max_frame_num,
			   struct vkqs_h264_slice_header *h, char *why, size_t why_size);

#endif
