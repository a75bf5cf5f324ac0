/* Variables (spec 3.42.8 OpVariable): where each one lives, and which
 * builtins and push constants a function writes or reads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "front.h"

/* Output builtins a function may store to: bits of enum rd_builtin_io. */
static uint32_t builtin_bit(uint32_t b)
{
	switch (b) {
	case SpvBuiltInPosition:
		return 1u << RD_BI_POSITION;
	case SpvBuiltInPointSize:
		return 1u << RD_BI_POINT_SIZE;
	case SpvBuiltInFragDepth:
		return 1u << RD_BI_FRAG_DEPTH;
	case SpvBuiltInSampleMask:
		return 1u << RD_BI_SAMPLE_MASK_OUT;
	default:
		return 0;
	}
}

/* Records that the current function writes through pointer q. */
void note_write(struct rd_parse *c, const struct pptr *q)
{
	if (!c->fn || q->storage != SpvStorageClassOutput)
		return;
	if (q->builtin != NONE)
		c->fn->writes |= builtin_bit(q->builtin);
	const struct ptype *t = T(c, q->type);
	if (t->kind == T_STRUCT && t->builtins)  /* a whole gl_PerVertex */
		for (uint32_t i = 0; i < t->count; i++)
			if (c->members[t->first + i].builtin != NONE)
				c->fn->writes |= builtin_bit(c->members[t->first + i].builtin);
}

void note_use(struct rd_parse *c, const struct pptr *q, uint32_t extent)
{
	if (c->fn && q->storage == SpvStorageClassPushConstant) {
		c->fn->uses_pc = 1;
		if (extent > c->fn->pc_size)
			c->fn->pc_size = extent;
	}
}

/* Whether a pointer may be stored through (Input, push constants and
 * uniform blocks are read-only). */
bool writable(struct rd_parse *c, const struct pptr *q)
{
	switch (q->storage) {
	case SpvStorageClassInput:
	case SpvStorageClassPushConstant:
	case SpvStorageClassUniformConstant:
		return false;
	case SpvStorageClassUniform: {
		/* Uniform is writable only as an old-style BufferBlock. */
		const struct ptype *t = T(c, T(c, c->ids[q->var].type)->elem);
		if (t->kind == T_ARRAY)
			t = T(c, t->elem);
		return t->block == 2;
	}
	default:
		return true;
	}
}

bool dec_variable(struct rd_parse *c, const struct opdesc *od)
{
	if (!need_words(c, 4, 5))
		return false;
	uint32_t ptid = W(c, 1), id = W(c, 2), sc = W(c, 3);
	const struct ptype *pt = get_type(c, ptid);
	if (!pt)
		return false;
	if (pt->kind != T_POINTER || pt->storage != sc)
		return fail(c, "OpVariable: type %u is not a pointer of storage class %s", ptid,
			    rd_spirv_name(RD_NAME_STORAGE_CLASS, sc));
	uint32_t vt = pt->elem;
	if (c->fn) {
		if (sc != SpvStorageClassFunction)
			return fail(c, "OpVariable of storage class %s inside a function",
				    rd_spirv_name(RD_NAME_STORAGE_CLASS, sc));
		if (!c->in_first_block)
			return fail(c, "OpVariable outside the first block of its function");
	} else if (sc == SpvStorageClassFunction) {
		return fail(c, "OpVariable of storage class Function outside a function");
	}
	struct pid *d = def_value(c, id, ptid);
	struct pptr *q = d ? new_ptr(c, d) : NULL;
	if (!q)
		return false;
	d->is_var = 1;
	q->storage = sc;
	q->type = vt;
	q->var = id;
	get_deco(c, id, NONE, SpvDecorationBuiltIn, &q->builtin);
	const struct ptype *t = T(c, vt);
	uint32_t storage_slot = NONE, extent = 0;
	/* A tessellation control shader's outputs: every invocation of the
	 * patch reads and writes the same gl_out[] and per-patch outputs
	 * (spec "Tessellation Control Shader Execution"), so they live in the
	 * memory the patch's invocations share, like Workgroup variables; so
	 * do a mesh shader's (any invocation of the workgroup may write any
	 * vertex or primitive, spec "Mesh Shading") and a task payload (one
	 * per workgroup, read by the mesh workgroups it launches). */
	bool shared = sc == SpvStorageClassWorkgroup || sc == SpvStorageClassTaskPayloadWorkgroupEXT ||
		      (sc == SpvStorageClassOutput && (c->tcs_module || c->mesh_module));
	switch (shared ? SpvStorageClassWorkgroup : sc) {
	case SpvStorageClassInput:
	case SpvStorageClassOutput:
	case SpvStorageClassFunction:
	case SpvStorageClassPrivate:
		if (t->unsized)
			return fail(c, "OpVariable: unsized type in storage class %s",
				    rd_spirv_name(RD_NAME_STORAGE_CLASS, sc));
		storage_slot = alloc_slot(c, t->words);
		if (c->failed)
			return false;
		q->region = RD_REGION_STATE;
		q->offset = storage_slot * 4;
		break;
	case SpvStorageClassWorkgroup:
		if (t->unsized)
			return fail(c, "OpVariable: unsized %s variable", rd_spirv_name(RD_NAME_STORAGE_CLASS, sc));
		if ((uint64_t)c->wg_bytes + (uint64_t)t->words * 4 > RD_SPIRV_MAX_VALUE_WORDS * 4)
			return fail(c, "%s variables larger than %u bytes", rd_spirv_name(RD_NAME_STORAGE_CLASS, sc),
				    RD_SPIRV_MAX_VALUE_WORDS * 4);
		q->region = RD_REGION_WG;
		q->offset = c->wg_bytes;
		c->wg_bytes += t->words * 4;
		break;
	case SpvStorageClassPushConstant:
		if (t->kind != T_STRUCT || t->block != 1)
			return fail(c, "PushConstant variable %u is not a Block struct", id);
		if (!block_extent(c, vt, &extent))
			return false;
		if (extent > RD_PUSH_CONSTANT_BYTES)
			return fail(c, "push-constant block of %u bytes is larger than %u", extent,
				    RD_PUSH_CONSTANT_BYTES);
		q->region = RD_REGION_PUSH;
		break;
	case SpvStorageClassUniform:
	case SpvStorageClassStorageBuffer: {
		uint32_t set, binding, count = 1, bt = vt;
		if (!get_deco(c, id, NONE, SpvDecorationDescriptorSet, &set) ||
		    !get_deco(c, id, NONE, SpvDecorationBinding, &binding))
			return fail(c, "%s variable %u without DescriptorSet and Binding",
				    rd_spirv_name(RD_NAME_STORAGE_CLASS, sc), id);
		if (t->kind == T_ARRAY) {
			count = t->count;
			bt = t->elem;
			q->desc_array = 1;
		} else if (t->kind == T_RTARRAY) {
			return fail(c, "runtime arrays of descriptors are unsupported");
		}
		const struct ptype *b = T(c, bt);
		bool ok = b->kind == T_STRUCT &&
			  (sc == SpvStorageClassStorageBuffer ? b->block == 1 : b->block != 0);
		if (!ok)
			return fail(c, "%s variable %u is not a %s struct",
				    rd_spirv_name(RD_NAME_STORAGE_CLASS, sc), id,
				    sc == SpvStorageClassStorageBuffer ? "Block" : "Block or BufferBlock");
		if (b->unsized && sc == SpvStorageClassUniform && b->block == 1)
			return fail(c, "uniform block %u has a runtime array", id);
		if (count > RD_REGION_DESC_MAX_ELEMENTS)
			return fail(c, "descriptor array of %u elements is too large", count);
		if (!block_extent(c, bt, &extent))
			return false;
		struct rd_desc *ds = PUSH(c, c->p->descs, c->p->ndescs, c->cap_descs);
		if (!ds)
			return false;
		if (c->p->ndescs > RD_REGION_DESC_MAX)
			return fail(c, "too many descriptor variables");
		*ds = (struct rd_desc){ set, binding, count };
		q->region = RD_REGION_DESC | ((c->p->ndescs - 1) << 16);
		break;
	}
	case SpvStorageClassUniformConstant: {
		/* Input attachments (an image or an array of them): the
		 * variable holds, in the invocation state, the input attachment
		 * index each element reads ("consumes consecutive input
		 * attachments, starting with the index specified"); OpImageRead
		 * asks the environment for the texel. */
		uint32_t index, count = t->kind == T_ARRAY ? t->count : 1;
		const struct ptype *it = t->kind == T_ARRAY ? T(c, t->elem) : t;
		if (it->kind != T_IMAGE)
			return fail(c, "UniformConstant variable %u is not an input attachment "
				    "(samplers and sampled or storage images are unsupported)", id);
		if (!get_deco(c, id, NONE, SpvDecorationInputAttachmentIndex, &index))
			return fail(c, "input attachment variable %u without InputAttachmentIndex", id);
		storage_slot = alloc_slot(c, count);
		if (c->failed)
			return false;
		for (uint32_t i = 0; i < count; i++)
			c->p->tmpl[storage_slot + i].u = index + i;
		q->region = RD_REGION_STATE;
		q->offset = storage_slot * 4;
		break;
	}
	default:
		return fail(c, "unsupported storage class %s (%u)", rd_spirv_name(RD_NAME_STORAGE_CLASS, sc), sc);
	}
	set_static_ptr(c, d, q);
	if (c->wc == 5) {
		uint32_t init = W(c, 4), slot;
		if (storage_slot == NONE || sc == SpvStorageClassInput)
			return fail(c, "OpVariable: initializer in storage class %s is unsupported",
				    rd_spirv_name(RD_NAME_STORAGE_CLASS, sc));
		if (!value_of(c, init, vt, &slot))
			return false;
		if (!c->fn) {
			if (!c->ids[init].is_const)
				return fail(c, "OpVariable: initializer %u is not a constant", init);
			memcpy(&c->p->tmpl[storage_slot], &c->p->tmpl[slot], (size_t)t->words * 4);
		} else {
			struct rd_ins *in = emit(c, rd_ex_copy);
			if (!in)
				return false;
			in->r = storage_slot;
			in->a = slot;
			in->n = t->words;
		}
	}
	if (!c->fn) {
		struct pvar *v = PUSH(c, c->vars, c->nvars, c->cap_vars);
		if (!v)
			return false;
		*v = (struct pvar){ id, sc, storage_slot };
	}
	return true;
}

/* The byte extent of the block a pointer into push constants points into. */
uint32_t pc_extent(struct rd_parse *c, const struct pptr *q)
{
	uint32_t e = 0;
	if (q->storage == SpvStorageClassPushConstant && q->var)
		block_extent(c, T(c, c->ids[q->var].type)->elem, &e);
	return e;
}
