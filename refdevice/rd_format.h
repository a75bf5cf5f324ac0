/* Formats the reference device supports, and how texels are stored.
 *
 * Image memory layout (all images, linear): texel (x, y) of array layer l
 * and sample s lives at
 *     base + (((l * height + y) * width + x) * samples + s) * texel_size
 * Depth/stencil formats store depth and stencil together in one texel (see
 * rd_format_info::stencil_offset).  Only mip level 0 exists (mipLevels 1). */
#ifndef RD_FORMAT_H
#define RD_FORMAT_H

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan_core.h>

struct rd_format_info {
	VkFormat format;
	uint32_t texel_size;       /* bytes per texel (per sample) */
	uint32_t components;       /* colour components, 0 for depth/stencil */
	bool color, depth, stencil;
	bool is_uint, is_sint, is_float, is_srgb; /* colour numeric type */
	uint32_t stencil_offset;   /* byte offset of the stencil byte */
	uint32_t depth_bytes;      /* bytes of the depth aspect (copies) */
	VkFormatFeatureFlags optimal_features, buffer_features;
};

/* NULL when the format is not supported. */
const struct rd_format_info *rd_format(VkFormat f);

/* Texel conversions.  Float/UNORM/SNORM/sRGB colour formats convert to and
 * from RGBA floats (the spec's "Fixed-Point Data Conversions"); integer
 * formats use the _u variants (sign-extended for SINT). */
void rd_format_load_color(const struct rd_format_info *fi, const void *texel, float rgba[4]);
void rd_format_store_color(const struct rd_format_info *fi, void *texel, const float rgba[4]);
void rd_format_load_color_u(const struct rd_format_info *fi, const void *texel, uint32_t v[4]);
void rd_format_store_color_u(const struct rd_format_info *fi, void *texel, const uint32_t v[4]);
float rd_format_load_depth(const struct rd_format_info *fi, const void *texel);
void rd_format_store_depth(const struct rd_format_info *fi, void *texel, float depth);
uint8_t rd_format_load_stencil(const struct rd_format_info *fi, const void *texel);
void rd_format_store_stencil(const struct rd_format_info *fi, void *texel, uint8_t s);

/* Standard sample locations (spec "Multisampling"), in pixel units. */
const float (*rd_sample_locations(uint32_t samples))[2];

/* Vertex attribute fetch: converts one attribute of format f at p into
 * four 32-bit words (floats as bit patterns for float/norm formats, missing
 * components 0,0,0,1 as the spec says).  False when f is not a vertex
 * format the device supports. */
bool rd_format_fetch_attribute(VkFormat f, const void *p, uint32_t out[4]);

/* Iteration over the supported formats (for vkGetPhysicalDeviceFormatProperties). */
uint32_t rd_format_count(void);
const struct rd_format_info *rd_format_at(uint32_t i);

#endif
