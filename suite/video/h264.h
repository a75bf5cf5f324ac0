/* A minimal H.264 picture for video decode cases: one IDR frame of I_PCM
 * macroblocks (every sample sent raw, so the decoded picture is known
 * exactly), Main profile, CAVLC, picture order count type 2, deblocking
 * off; its SPS and PPS as the Std structures the session parameters take
 * (Vulkan decoders take those, not the parameter set NAL units). */
#ifndef VKQS_H264_H
#define VKQS_H264_H

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

#endif
