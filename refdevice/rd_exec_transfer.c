/* The executor's copies and blits between buffers and images (buffer
 * copies, updates and fills are in the command switch, rd_exec.c). */
#include "rd_exec.h"

/* Transfers -------------------------------------------------------------------------*/

void exec_copy_buffer_image(struct exec *e, const struct rd_cmd *c, bool to_image)
{
	struct rd_buffer *buf = c->u.buffer_image.buffer;
	struct rd_image *img = c->u.buffer_image.image;
	const struct rd_format_info *fi = img->fmt;
	for (uint32_t i = 0; i < c->u.buffer_image.count; i++) {
		const VkBufferImageCopy *r = &c->u.buffer_image.regions[i];
		VkImageAspectFlags asp = r->imageSubresource.aspectMask;
		/* Buffer layout of one texel per aspect (spec "Copying Data
		 * Between Buffers and Images"): depth 2/4 bytes, stencil 1. */
		uint32_t tsize = fi->color ? fi->texel_size
				 : asp == VK_IMAGE_ASPECT_STENCIL_BIT ? 1
								      : fi->depth_bytes;
		uint32_t row = r->bufferRowLength ? r->bufferRowLength : r->imageExtent.width;
		uint32_t rows = r->bufferImageHeight ? r->bufferImageHeight : r->imageExtent.height;
		for (uint32_t l = 0; l < r->imageSubresource.layerCount; l++)
			for (uint32_t y = 0; y < r->imageExtent.height; y++)
				for (uint32_t x = 0; x < r->imageExtent.width; x++) {
					uint32_t ix = (uint32_t)r->imageOffset.x + x;
					uint32_t iy = (uint32_t)r->imageOffset.y + y;
					uint32_t layer = r->imageSubresource.baseArrayLayer + l;
					VkDeviceSize bo = r->bufferOffset +
							  (((VkDeviceSize)l * rows + y) * row + x) * tsize;
					if (ix >= img->extent.width || iy >= img->extent.height ||
					    layer >= img->layers || !buffer_range_ok(buf, bo, tsize))
						continue;
					uint8_t *t = rd_image_texel(img, ix, iy, layer, 0);
					uint8_t *bp = buf->data + bo;
					uint32_t toff = asp == VK_IMAGE_ASPECT_STENCIL_BIT ? fi->stencil_offset : 0;
					if (to_image)
						memcpy(t + toff, bp, tsize);
					else
						memcpy(bp, t + toff, tsize);
				}
		exec_charge(e, (uint64_t)r->imageExtent.width * r->imageExtent.height * tsize /
				  COST_BYTES_PER_NS);
	}
}

void exec_blit(struct exec *e, const struct rd_cmd *c)
{
	struct rd_image *src = c->u.blit.src, *dst = c->u.blit.dst;
	for (uint32_t i = 0; i < c->u.blit.count; i++) {
		const VkImageBlit *r = &c->u.blit.regions[i];
		int32_t dx0 = r->dstOffsets[0].x, dx1 = r->dstOffsets[1].x;
		int32_t dy0 = r->dstOffsets[0].y, dy1 = r->dstOffsets[1].y;
		int32_t sx0 = r->srcOffsets[0].x, sx1 = r->srcOffsets[1].x;
		int32_t sy0 = r->srcOffsets[0].y, sy1 = r->srcOffsets[1].y;
		int32_t xa = dx0 < dx1 ? dx0 : dx1, xb = dx0 < dx1 ? dx1 : dx0;
		int32_t ya = dy0 < dy1 ? dy0 : dy1, yb = dy0 < dy1 ? dy1 : dy0;
		for (uint32_t l = 0; l < r->dstSubresource.layerCount; l++)
			for (int32_t y = ya; y < yb; y++)
				for (int32_t x = xa; x < xb; x++) {
					/* nearest: the source texel under the destination
					 * texel's centre */
					float u = ((float)x + 0.5f - (float)dx0) / (float)(dx1 - dx0);
					float v = ((float)y + 0.5f - (float)dy0) / (float)(dy1 - dy0);
					int32_t sx = (int32_t)floorf((float)sx0 + u * (float)(sx1 - sx0));
					int32_t sy = (int32_t)floorf((float)sy0 + v * (float)(sy1 - sy0));
					if (x < 0 || y < 0 || (uint32_t)x >= dst->extent.width ||
					    (uint32_t)y >= dst->extent.height || sx < 0 || sy < 0 ||
					    (uint32_t)sx >= src->extent.width ||
					    (uint32_t)sy >= src->extent.height)
						continue;
					uint32_t sl = r->srcSubresource.baseArrayLayer + l;
					uint32_t dl = r->dstSubresource.baseArrayLayer + l;
					if (sl >= src->layers || dl >= dst->layers)
						continue;
					uint8_t *s = rd_image_texel(src, (uint32_t)sx, (uint32_t)sy, sl, 0);
					uint8_t *d = rd_image_texel(dst, (uint32_t)x, (uint32_t)y, dl, 0);
					if (src->format == dst->format) {
						memcpy(d, s, src->fmt->texel_size);
					} else {
						float col[4];
						rd_format_load_color(src->fmt, s, col);
						rd_format_store_color(dst->fmt, d, col);
					}
				}
		exec_charge(e, (uint64_t)(xb - xa) * (uint64_t)(yb - ya) * dst->fmt->texel_size /
				  COST_BYTES_PER_NS);
	}
}

void exec_copy_image(struct exec *e, const struct rd_cmd *c)
{
	struct rd_image *src = c->u.copy_image.src, *dst = c->u.copy_image.dst;
	for (uint32_t i = 0; i < c->u.copy_image.count; i++) {
		const VkImageCopy *r = &c->u.copy_image.regions[i];
		for (uint32_t l = 0; l < r->srcSubresource.layerCount; l++)
			for (uint32_t y = 0; y < r->extent.height; y++)
				for (uint32_t x = 0; x < r->extent.width; x++) {
					uint32_t sx = (uint32_t)r->srcOffset.x + x, sy = (uint32_t)r->srcOffset.y + y;
					uint32_t dx = (uint32_t)r->dstOffset.x + x, dy = (uint32_t)r->dstOffset.y + y;
					uint32_t sl = r->srcSubresource.baseArrayLayer + l;
					uint32_t dl = r->dstSubresource.baseArrayLayer + l;
					if (sx >= src->extent.width || sy >= src->extent.height ||
					    dx >= dst->extent.width || dy >= dst->extent.height ||
					    sl >= src->layers || dl >= dst->layers)
						continue;
					for (uint32_t s = 0; s < src->samples && s < dst->samples; s++)
						memcpy(rd_image_texel(dst, dx, dy, dl, s),
						       rd_image_texel(src, sx, sy, sl, s),
						       src->fmt->texel_size);
				}
		exec_charge(e, (uint64_t)r->extent.width * r->extent.height * src->fmt->texel_size /
				  COST_BYTES_PER_NS);
	}
}
