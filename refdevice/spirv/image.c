/* Images (spec 3.42.10): OpImageRead of input attachments (subpassLoad), the
 * one image access the interpreter runs.  Sampled and storage images are
 * refused at OpTypeImage (types.c). */
#include <spirv/unified1/spirv.h>

#include "front.h"

/* OpImageRead result, image, coordinate [, operands]: the image an input
 * attachment (its value the attachment index, variables.c), the coordinate
 * an integer 2-vector offset from the fragment ("subpassLoad" reads the
 * fragment's own pixel plus it), the only operand Sample (MS images). */
bool dec_image_read(struct rd_parse *c, const struct opdesc *od)
{
	uint32_t n, img_t, img, coord_t, coord, sample = NONE;
	if (!need_words(c, 5, 7) || !get_type(c, W(c, 1)))
		return false;
	if (!use_value(c, W(c, 3), &img_t, &img) || !use_value(c, W(c, 4), &coord_t, &coord))
		return false;
	const struct ptype *it = T(c, img_t);
	if (it->kind != T_IMAGE)
		return fail(c, "OpImageRead: operand %u is not an image", W(c, 3));
	if (ncomp_of(c, coord_t, T_INT) != 2)
		return fail(c, "OpImageRead: the coordinate of an input attachment is not a 2-component integer vector");
	if (c->wc > 5) {
		if (W(c, 5) != SpvImageOperandsSampleMask || c->wc != 7)
			return fail(c, "OpImageRead: image operands 0x%x are unsupported (Sample alone is)", W(c, 5));
		uint32_t st;
		if (!use_value(c, W(c, 6), &st, &sample) || ncomp_of(c, st, T_INT) != 1)
			return fail(c, "OpImageRead: the Sample operand is not a 32-bit integer");
	}
	bool ms = it->count != 0;
	if (ms != (sample != NONE))
		return fail(c, "OpImageRead: a multisampled input attachment needs the Sample operand, others must not have it");
	if (!result_num(c, W(c, 1), (enum tkind)T(c, it->elem)->kind, &n) || n != 4)
		return fail(c, "OpImageRead: the result is not a 4-component vector of the image's sampled type");
	struct pid *d = def_value(c, W(c, 2), W(c, 1));
	struct rd_ins *in = d ? emit(c, od->fn) : NULL;
	if (!in)
		return false;
	in->r = d->slot;
	in->a = img;
	in->b = coord;
	in->c = sample;
	in->n = 4;
	return true;
}
