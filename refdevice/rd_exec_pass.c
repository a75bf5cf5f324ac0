/* The executor's attachments: load operations, clears and resolves per
 * subpass and per view, and the commands that begin render pass instances
 * (render passes, dynamic rendering) or clear inside them. */
#include "rd_exec.h"
#include "rd_fault_layer.h"

/* Attachments --------------------------------------------------------------------*/

struct rd_attachment exec_attachment_of(struct rd_image_view *v)
{
	struct rd_attachment a = {0};
	if (!v)
		return a;
	a.base = v->image->data;
	a.fmt = v->image->fmt;
	a.width = v->image->extent.width;
	a.height = v->image->extent.height;
	a.samples = v->image->samples;
	a.image_layers = v->image->layers;
	a.base_layer = v->base_layer;
	return a;
}

/* The layers a render pass instance writes: the view mask's views, or
 * layer_count layers. */
static bool layer_used(const struct exec *e, uint32_t layer)
{
	return e->s.view_mask ? (e->s.view_mask >> layer) & 1 : layer < e->s.layer_count;
}

VkRect2D exec_rect_intersect(VkRect2D a, VkRect2D b)
{
	int64_t x0 = a.offset.x > b.offset.x ? a.offset.x : b.offset.x;
	int64_t y0 = a.offset.y > b.offset.y ? a.offset.y : b.offset.y;
	int64_t x1 = (int64_t)a.offset.x + a.extent.width, bx1 = (int64_t)b.offset.x + b.extent.width;
	int64_t y1 = (int64_t)a.offset.y + a.extent.height, by1 = (int64_t)b.offset.y + b.extent.height;
	x1 = x1 < bx1 ? x1 : bx1;
	y1 = y1 < by1 ? y1 : by1;
	VkRect2D r = {{(int32_t)x0, (int32_t)y0},
		      {(uint32_t)(x1 > x0 ? x1 - x0 : 0), (uint32_t)(y1 > y0 ? y1 - y0 : 0)}};
	return r;
}

/* Attachment writes of a render pass (load ops, vkCmdClearAttachments,
 * resolves) happen in the main phase, each tile writing its own pixels:
 * the rectangle within the tile, or nothing in the binning phase. */
static bool pass_rect(const struct exec *e, VkRect2D *r)
{
	if (e->phase == PHASE_BIN)
		return false;
	if (e->phase == PHASE_TILE)
		*r = exec_rect_intersect(*r, e->tile);
	return true;
}

void exec_clear_view_rect(struct exec *e, struct rd_image_view *v, VkImageAspectFlags aspects,
			  const VkClearValue *value, VkRect2D r, uint32_t base_layer,
			  uint32_t layer_count)
{
	if (!pass_rect(e, &r))
		return;
	struct rd_image *img = v->image;
	const struct rd_format_info *fi = img->fmt;
	int32_t x0 = r.offset.x < 0 ? 0 : r.offset.x, y0 = r.offset.y < 0 ? 0 : r.offset.y;
	uint32_t x1 = (uint32_t)r.offset.x + r.extent.width, y1 = (uint32_t)r.offset.y + r.extent.height;
	if (x1 > img->extent.width)
		x1 = img->extent.width;
	if (y1 > img->extent.height)
		y1 = img->extent.height;
	for (uint32_t l = base_layer; l < base_layer + layer_count; l++) {
		uint32_t layer = v->base_layer + l;
		if (layer >= img->layers)
			break;
		for (uint32_t y = (uint32_t)y0; y < y1; y++)
			for (uint32_t x = (uint32_t)x0; x < x1; x++)
				for (uint32_t s = 0; s < img->samples; s++) {
					uint8_t *t = rd_image_texel(img, x, y, layer, s);
					if (fi->color) {
						if (fi->is_uint || fi->is_sint)
							rd_format_store_color_u(fi, t, value->color.uint32);
						else
							rd_format_store_color(fi, t, value->color.float32);
					}
					if ((aspects & VK_IMAGE_ASPECT_DEPTH_BIT) && fi->depth)
						rd_format_store_depth(fi, t, value->depthStencil.depth);
					if ((aspects & VK_IMAGE_ASPECT_STENCIL_BIT) && fi->stencil)
						rd_format_store_stencil(fi, t,
									(uint8_t)value->depthStencil.stencil);
				}
	}
	exec_charge(e, (uint64_t)(x1 - (uint32_t)x0) * (y1 - (uint32_t)y0) * fi->texel_size / COST_BYTES_PER_NS);
}

/* Load ops of the attachments first used by the current subpass. */
void exec_subpass_load(struct exec *e)
{
	const struct rd_subpass *sp = &e->s.pass->subpasses[e->s.subpass];
	e->s.view_mask = sp->view_mask;
	e->s.layer_count = e->s.fb->layers;
	e->s.color_count = sp->color_count;
	for (uint32_t c = 0; c < RD_MAX_COLOR; c++) {
		e->s.color[c] = c < sp->color_count && sp->color[c] != VK_ATTACHMENT_UNUSED
				      ? e->s.fb->attachments[sp->color[c]]
				      : NULL;
		e->s.resolve[c] = c < sp->color_count && sp->resolve[c] != VK_ATTACHMENT_UNUSED
					? e->s.fb->attachments[sp->resolve[c]]
					: NULL;
	}
	e->s.depth = sp->depth_stencil != VK_ATTACHMENT_UNUSED
			   ? e->s.fb->attachments[sp->depth_stencil]
			   : NULL;
	uint32_t layers = e->s.view_mask ? 32 - (uint32_t)__builtin_clz(e->s.view_mask) : e->s.layer_count;
	for (uint32_t a = 0; a < e->s.pass->attachment_count; a++) {
		uint32_t load = e->s.pass->load_views[e->s.subpass * e->s.pass->attachment_count + a];
		if (!load)
			continue;
		const struct rd_attachment_desc *d = &e->s.pass->attachments[a];
		struct rd_image_view *v = e->s.fb->attachments[a];
		VkImageAspectFlags aspects = 0;
		if (v->image->fmt->color && d->load_op == VK_ATTACHMENT_LOAD_OP_CLEAR)
			aspects |= VK_IMAGE_ASPECT_COLOR_BIT;
		if (v->image->fmt->depth && d->load_op == VK_ATTACHMENT_LOAD_OP_CLEAR)
			aspects |= VK_IMAGE_ASPECT_DEPTH_BIT;
		if (v->image->fmt->stencil && d->stencil_load_op == VK_ATTACHMENT_LOAD_OP_CLEAR)
			aspects |= VK_IMAGE_ASPECT_STENCIL_BIT;
		if (!aspects || a >= 16)
			continue;
		for (uint32_t l = 0; l < layers; l++)
			if (layer_used(e, l) && (l >= 32 || (load >> l & 1)))
				exec_clear_view_rect(e, v, aspects, &e->s.clears[a], e->s.area, l, 1);
	}
}

/* Multisample resolve: the average of the samples for float/UNORM colour
 * ("Multisample Resolve" allows an implementation-chosen average; integer
 * formats take sample 0). */
void exec_resolve_pixels(struct rd_image *src, uint32_t src_layer, struct rd_image *dst,
			 uint32_t dst_layer, int32_t sx, int32_t sy, int32_t dx, int32_t dy,
			 uint32_t w, uint32_t h)
{
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++) {
			uint32_t px = (uint32_t)sx + x, py = (uint32_t)sy + y;
			uint32_t qx = (uint32_t)dx + x, qy = (uint32_t)dy + y;
			if (px >= src->extent.width || py >= src->extent.height ||
			    qx >= dst->extent.width || qy >= dst->extent.height)
				continue;
			uint8_t *out = rd_image_texel(dst, qx, qy, dst_layer, 0);
			if (src->fmt->is_uint || src->fmt->is_sint || !src->fmt->color) {
				memcpy(out, rd_image_texel(src, px, py, src_layer, 0), src->fmt->texel_size);
				continue;
			}
			float acc[4] = {0, 0, 0, 0};
			for (uint32_t s = 0; s < src->samples; s++) {
				float c[4];
				rd_format_load_color(src->fmt, rd_image_texel(src, px, py, src_layer, s), c);
				for (int k = 0; k < 4; k++)
					acc[k] += c[k];
			}
			for (int k = 0; k < 4; k++)
				acc[k] /= (float)src->samples;
			rd_format_store_color(dst->fmt, out, acc);
		}
}

void exec_subpass_resolve(struct exec *e)
{
	VkRect2D r = e->s.area;
	if (!pass_rect(e, &r))
		return;
	for (uint32_t c = 0; c < e->s.color_count; c++) {
		if (!e->s.color[c] || !e->s.resolve[c])
			continue;
		uint32_t layers = e->s.view_mask ? 32 - (uint32_t)__builtin_clz(e->s.view_mask) : e->s.layer_count;
		for (uint32_t l = 0; l < layers; l++)
			if (layer_used(e, l))
				exec_resolve_pixels(e->s.color[c]->image, e->s.color[c]->base_layer + l,
					       e->s.resolve[c]->image, e->s.resolve[c]->base_layer + l,
					       r.offset.x, r.offset.y, r.offset.x, r.offset.y,
					       r.extent.width, r.extent.height);
	}
}

/* Render pass commands -------------------------------------------------------------*/

void exec_begin_render_pass(struct exec *e, const struct rd_cmd *c)
{
	e->s.in_pass = true;
	e->s.pass_queries = 0;
	e->s.pass = c->u.begin_rp.pass;
	e->s.fb = c->u.begin_rp.fb;
	e->s.subpass = 0;
	e->s.area = c->u.begin_rp.area;
	memset(e->s.clears, 0, sizeof(e->s.clears));
	for (uint32_t i = 0; i < c->u.begin_rp.clear_count && i < 16; i++)
		e->s.clears[i] = c->u.begin_rp.clears[i];
	exec_subpass_load(e);
}

/* n triangles appended to each bound transform feedback buffer, zeros at
 * the pipeline's strides, and counted as written and generated on stream
 * 0 (only a fault asks for it). */
static void xfb_append_zeros(struct exec *e, uint32_t n)
{
	const struct rd_pipeline *p = e->s.gfx;
	if (!p || !e->s.xfb_active)
		return;
	const struct rd_graphics_state *st = &p->gs;
	const struct rd_entry_info *last = rd_last_stage_info(st);
	struct rd_xfb *x = &e->s.xfb;
	for (uint32_t b = 0; b < RD_MAX_XFB_BUFFERS; b++) {
		uint64_t need = 3ull * n * last->xfb_stride[b];
		if (!x->data[b] || !need || x->pos[b] > x->size[b] || need > x->size[b] - x->pos[b])
			continue;
		memset(x->data[b] + x->pos[b], 0, need);
		x->pos[b] += need;
	}
	e->q->counters.draw.xfb_primitives_needed[0] += n;
	e->q->counters.draw.xfb_primitives_written[0] += n;
	e->q->counters.draw.primitives_generated[0] += n;
}

void exec_clear_attachments(struct exec *e, const struct rd_cmd *c)
{
	xfb_append_zeros(e, rd_hook_clear_captured(e));
	for (uint32_t a = 0; a < c->u.clear_attachments.attachment_count; a++) {
		const VkClearAttachment *ca = &c->u.clear_attachments.attachments[a];
		struct rd_image_view *v = ca->aspectMask & VK_IMAGE_ASPECT_COLOR_BIT
						  ? (ca->colorAttachment < RD_MAX_COLOR
							     ? e->s.color[ca->colorAttachment]
							     : NULL)
						  : e->s.depth;
		if (!v)
			continue;
		for (uint32_t r = 0; r < c->u.clear_attachments.rect_count; r++) {
			const VkClearRect *cr = &c->u.clear_attachments.rects[r];
			if (e->s.view_mask) {
				/* with multiview the views of the subpass are cleared */
				for (uint32_t l = 0; l < 32; l++)
					if (layer_used(e, l))
						exec_clear_view_rect(e, v, ca->aspectMask, &ca->clearValue,
								cr->rect, l, 1);
			} else {
				exec_clear_view_rect(e, v, ca->aspectMask, &ca->clearValue, cr->rect,
						cr->baseArrayLayer, cr->layerCount);
			}
		}
	}
}

void exec_begin_rendering(struct exec *e, const struct rd_cmd *c)
{
	e->s.in_pass = true;
	e->s.pass_queries = 0;
	e->s.pass = NULL;
	e->s.fb = NULL;
	e->s.area = c->u.begin_rendering.area;
	e->s.view_mask = c->u.begin_rendering.view_mask;
	e->s.layer_count = c->u.begin_rendering.layer_count;
	e->s.color_count = c->u.begin_rendering.color_count;
	/* A resumed instance continues the suspended one (its load operations
	 * are not performed); a suspended one resolves at its real end. */
	bool resuming = c->u.begin_rendering.flags & VK_RENDERING_RESUMING_BIT;
	e->s.suspending = c->u.begin_rendering.flags & VK_RENDERING_SUSPENDING_BIT;
	uint32_t layers = e->s.view_mask ? 32 - (uint32_t)__builtin_clz(e->s.view_mask) : e->s.layer_count;
	for (uint32_t i = 0; i < RD_MAX_COLOR; i++) {
		const struct rd_rendering_attachment *a =
			i < e->s.color_count ? &c->u.begin_rendering.color[i] : NULL;
		e->s.color[i] = a ? a->view : NULL;
		e->s.resolve[i] = a ? a->resolve : NULL;
		if (a && a->view && a->load_op == VK_ATTACHMENT_LOAD_OP_CLEAR && !resuming)
			for (uint32_t l = 0; l < layers; l++)
				if (layer_used(e, l))
					exec_clear_view_rect(e, a->view, VK_IMAGE_ASPECT_COLOR_BIT, &a->clear,
							e->s.area, l, 1);
	}
	const struct rd_rendering_attachment *d = &c->u.begin_rendering.depth;
	const struct rd_rendering_attachment *s = &c->u.begin_rendering.stencil;
	e->s.depth = d->view ? d->view : s->view;
	VkImageAspectFlags asp = 0;
	VkClearValue cv = {0};
	if (d->view && d->load_op == VK_ATTACHMENT_LOAD_OP_CLEAR) {
		asp |= VK_IMAGE_ASPECT_DEPTH_BIT;
		cv.depthStencil.depth = d->clear.depthStencil.depth;
	}
	if (s->view && s->load_op == VK_ATTACHMENT_LOAD_OP_CLEAR) {
		asp |= VK_IMAGE_ASPECT_STENCIL_BIT;
		cv.depthStencil.stencil = s->clear.depthStencil.stencil;
	}
	if (asp && e->s.depth && !resuming)
		for (uint32_t l = 0; l < layers; l++)
			if (layer_used(e, l))
				exec_clear_view_rect(e, e->s.depth, asp, &cv, e->s.area, l, 1);
}
