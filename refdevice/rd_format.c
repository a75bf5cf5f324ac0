#include "rd_format.h"

#include "compat.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#define COLOR_OPT                                                                  \
	(VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | \
	 VK_FORMAT_FEATURE_TRANSFER_DST_BIT | VK_FORMAT_FEATURE_BLIT_SRC_BIT |       \
	 VK_FORMAT_FEATURE_BLIT_DST_BIT)
#define DS_OPT                                                                             \
	(VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | \
	 VK_FORMAT_FEATURE_TRANSFER_DST_BIT | VK_FORMAT_FEATURE_BLIT_SRC_BIT)
#define VTX VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT

/* {format, size, components, color, depth, stencil, uint, sint, float, srgb,
 *  stencil_offset, depth_bytes, optimal features, buffer features} */
static const struct rd_format_info formats[] = {
	/* the video encode picture format (rd_video.c) */
	{VK_FORMAT_R8_UNORM, 1, 1, true, false, false, false, false, false, false, 0, 0,
	 COLOR_OPT | VK_FORMAT_FEATURE_VIDEO_ENCODE_INPUT_BIT_KHR |
		 VK_FORMAT_FEATURE_VIDEO_ENCODE_DPB_BIT_KHR,
	 VTX},
	{VK_FORMAT_R8G8_UNORM, 2, 2, true, false, false, false, false, false, false, 0, 0, COLOR_OPT, VTX},
	{VK_FORMAT_R8G8B8A8_UNORM, 4, 4, true, false, false, false, false, false, false, 0, 0, COLOR_OPT, VTX},
	{VK_FORMAT_R8G8B8A8_SRGB, 4, 4, true, false, false, false, false, false, true, 0, 0, COLOR_OPT, 0},
	{VK_FORMAT_B8G8R8A8_UNORM, 4, 4, true, false, false, false, false, false, false, 0, 0, COLOR_OPT, VTX},
	{VK_FORMAT_R8G8B8A8_UINT, 4, 4, true, false, false, true, false, false, false, 0, 0,
	 COLOR_OPT & ~(VkFormatFeatureFlags)VK_FORMAT_FEATURE_BLIT_DST_BIT, VTX},
	{VK_FORMAT_R32_UINT, 4, 1, true, false, false, true, false, false, false, 0, 0,
	 COLOR_OPT & ~(VkFormatFeatureFlags)VK_FORMAT_FEATURE_BLIT_DST_BIT, VTX},
	{VK_FORMAT_R32_SINT, 4, 1, true, false, false, false, true, false, false, 0, 0,
	 COLOR_OPT & ~(VkFormatFeatureFlags)VK_FORMAT_FEATURE_BLIT_DST_BIT, VTX},
	{VK_FORMAT_R32_SFLOAT, 4, 1, true, false, false, false, false, true, false, 0, 0, COLOR_OPT, VTX},
	{VK_FORMAT_R32G32_SFLOAT, 8, 2, true, false, false, false, false, true, false, 0, 0, COLOR_OPT, VTX},
	{VK_FORMAT_R32G32B32_SFLOAT, 12, 3, true, false, false, false, false, true, false, 0, 0, 0, VTX},
	{VK_FORMAT_R32G32B32A32_SFLOAT, 16, 4, true, false, false, false, false, true, false, 0, 0, COLOR_OPT, VTX},
	{VK_FORMAT_R32G32B32A32_UINT, 16, 4, true, false, false, true, false, false, false, 0, 0,
	 COLOR_OPT & ~(VkFormatFeatureFlags)VK_FORMAT_FEATURE_BLIT_DST_BIT, VTX},
	{VK_FORMAT_D16_UNORM, 2, 0, false, true, false, false, false, false, false, 0, 2, DS_OPT, 0},
	{VK_FORMAT_D32_SFLOAT, 4, 0, false, true, false, false, false, false, false, 0, 4, DS_OPT, 0},
	{VK_FORMAT_S8_UINT, 1, 0, false, false, true, false, false, false, false, 0, 0, DS_OPT, 0},
	/* depth in the low 3 bytes (as the buffer copy layout of the depth
	 * aspect: 24 bits in 32), stencil in the top byte */
	{VK_FORMAT_D24_UNORM_S8_UINT, 4, 0, false, true, true, false, false, false, false, 3, 4, DS_OPT, 0},
	{VK_FORMAT_D32_SFLOAT_S8_UINT, 8, 0, false, true, true, false, false, false, false, 4, 4, DS_OPT, 0},
};

const struct rd_format_info *rd_format(VkFormat f)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (formats[i].format == f)
			return &formats[i];
	return NULL;
}

uint32_t rd_format_count(void)
{
	return (uint32_t)(sizeof(formats) / sizeof(formats[0]));
}

const struct rd_format_info *rd_format_at(uint32_t i)
{
	return i < rd_format_count() ? &formats[i] : NULL;
}

static float clampf(float v, float lo, float hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* "Fixed-Point Data Conversions": float -> UNORM rounds to nearest. */
static uint32_t unorm(float v, uint32_t max)
{
	if (v != v)
		return 0;
	return (uint32_t)lrintf(clampf(v, 0.0f, 1.0f) * (float)max);
}

static float srgb_to_linear(float c)
{
	return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

static float linear_to_srgb(float l)
{
	l = clampf(l, 0.0f, 1.0f);
	return l <= 0.0031308f ? l * 12.92f : 1.055f * powf(l, 1.0f / 2.4f) - 0.055f;
}

void rd_format_load_color(const struct rd_format_info *fi, const void *texel, float rgba[4])
{
	const uint8_t *b = texel;
	rgba[0] = rgba[1] = rgba[2] = 0.0f;
	rgba[3] = 1.0f;
	if (fi->is_float) {
		memcpy(rgba, b, fi->components * sizeof(float));
		return;
	}
	if (fi->is_uint || fi->is_sint) {
		uint32_t u[4];
		rd_format_load_color_u(fi, texel, u);
		for (uint32_t i = 0; i < fi->components; i++)
			rgba[i] = fi->is_sint ? (float)(int32_t)u[i] : (float)u[i];
		return;
	}
	/* 8-bit UNORM / sRGB */
	for (uint32_t i = 0; i < fi->components; i++)
		rgba[i] = (float)b[i] / 255.0f;
	if (fi->format == VK_FORMAT_B8G8R8A8_UNORM) {
		float t = rgba[0];
		rgba[0] = rgba[2];
		rgba[2] = t;
	}
	if (fi->is_srgb)
		for (int i = 0; i < 3; i++)
			rgba[i] = srgb_to_linear(rgba[i]);
}

void rd_format_store_color(const struct rd_format_info *fi, void *texel, const float rgba[4])
{
	uint8_t *b = texel;
	if (fi->is_float) {
		memcpy(b, rgba, fi->components * sizeof(float));
		return;
	}
	if (fi->is_uint || fi->is_sint) {
		uint32_t u[4];
		for (int i = 0; i < 4; i++)
			u[i] = fi->is_sint ? (uint32_t)(int32_t)rgba[i] : (uint32_t)rgba[i];
		rd_format_store_color_u(fi, texel, u);
		return;
	}
	float c[4] = {rgba[0], rgba[1], rgba[2], rgba[3]};
	if (fi->format == VK_FORMAT_B8G8R8A8_UNORM) {
		c[0] = rgba[2];
		c[2] = rgba[0];
	}
	if (fi->is_srgb)
		for (int i = 0; i < 3; i++)
			c[i] = linear_to_srgb(c[i]);
	for (uint32_t i = 0; i < fi->components; i++)
		b[i] = (uint8_t)unorm(c[i], 255);
}

void rd_format_load_color_u(const struct rd_format_info *fi, const void *texel, uint32_t v[4])
{
	const uint8_t *b = texel;
	v[0] = v[1] = v[2] = 0;
	v[3] = 1;
	if (fi->texel_size == fi->components) { /* 8-bit components */
		for (uint32_t i = 0; i < fi->components; i++)
			v[i] = b[i];
	} else {
		memcpy(v, b, fi->components * 4);
	}
}

void rd_format_store_color_u(const struct rd_format_info *fi, void *texel, const uint32_t v[4])
{
	uint8_t *b = texel;
	if (fi->texel_size == fi->components) {
		for (uint32_t i = 0; i < fi->components; i++)
			b[i] = (uint8_t)(v[i] > 255 ? 255 : v[i]);
	} else {
		memcpy(b, v, fi->components * 4);
	}
}

float rd_format_load_depth(const struct rd_format_info *fi, const void *texel)
{
	const uint8_t *b = texel;
	switch (fi->format) {
	case VK_FORMAT_D16_UNORM: {
		uint16_t v;
		memcpy(&v, b, 2);
		return (float)v / 65535.0f;
	}
	case VK_FORMAT_D24_UNORM_S8_UINT: {
		uint32_t v;
		memcpy(&v, b, 4);
		return (float)(v & 0xffffffu) / 16777215.0f;
	}
	case VK_FORMAT_D32_SFLOAT:
	case VK_FORMAT_D32_SFLOAT_S8_UINT: {
		float f;
		memcpy(&f, b, 4);
		return f;
	}
	default:
		return 0.0f;
	}
}

void rd_format_store_depth(const struct rd_format_info *fi, void *texel, float depth)
{
	uint8_t *b = texel;
	switch (fi->format) {
	case VK_FORMAT_D16_UNORM: {
		uint16_t v = (uint16_t)unorm(depth, 65535);
		memcpy(b, &v, 2);
		break;
	}
	case VK_FORMAT_D24_UNORM_S8_UINT: {
		uint32_t v;
		memcpy(&v, b, 4);
		v = (v & 0xff000000u) | unorm(depth, 16777215);
		memcpy(b, &v, 4);
		break;
	}
	case VK_FORMAT_D32_SFLOAT:
	case VK_FORMAT_D32_SFLOAT_S8_UINT:
		memcpy(b, &depth, 4);
		break;
	default:
		break;
	}
}

uint8_t rd_format_load_stencil(const struct rd_format_info *fi, const void *texel)
{
	return fi->stencil ? ((const uint8_t *)texel)[fi->stencil_offset] : 0;
}

void rd_format_store_stencil(const struct rd_format_info *fi, void *texel, uint8_t s)
{
	if (fi->stencil)
		((uint8_t *)texel)[fi->stencil_offset] = s;
}

/* Spec "Multisampling", standard sample locations. */
static const float loc1[1][2] = {{0.5f, 0.5f}};
static const float loc4[4][2] = {
	{0.375f, 0.125f}, {0.875f, 0.375f}, {0.125f, 0.625f}, {0.625f, 0.875f}};

const float (*rd_sample_locations(uint32_t samples))[2]
{
	return samples == 4 ? loc4 : loc1;
}

bool rd_format_fetch_attribute(VkFormat f, const void *p, uint32_t out[4])
{
	const struct rd_format_info *fi = rd_format(f);
	if (!fi || !(fi->buffer_features & VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT))
		return false;
	float one = 1.0f;
	uint32_t one_bits;
	memcpy(&one_bits, &one, 4);
	out[0] = out[1] = out[2] = 0;
	/* "missing components are filled with 0,0,1" (0, 0, 0, 1) */
	out[3] = (fi->is_uint || fi->is_sint) ? 1 : one_bits;
	if (fi->is_float || fi->is_uint || fi->is_sint) {
		memcpy(out, p, fi->texel_size);
		return true;
	}
	float c[4];
	rd_format_load_color(fi, p, c);
	for (uint32_t i = 0; i < fi->components; i++)
		memcpy(&out[i], &c[i], 4);
	return true;
}
