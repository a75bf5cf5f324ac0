/* Types (spec 3.42.6) and constants (spec 3.42.7), spec constants and
 * OpSpecConstantOp included. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "front.h"

static struct ptype *new_type(struct rd_parse *c, enum tkind kind)
{
	struct pid *d = new_id(c, W(c, 1), ID_TYPE);
	if (!d)
		return NULL;
	struct ptype *t = PUSH(c, c->types, c->ntypes, c->cap_types);
	if (!t)
		return NULL;
	memset(t, 0, sizeof(*t));
	t->kind = (uint8_t)kind;
	d->type = c->ntypes - 1;
	uint32_t stride;
	if (get_deco(c, W(c, 1), NONE, SpvDecorationArrayStride, &stride))
		t->stride = stride;
	return t;
}

static bool check_words(struct rd_parse *c, uint64_t words)
{
	if (words > RD_SPIRV_MAX_VALUE_WORDS)
		return fail(c, "%s: type of %llu words is larger than the interpreter allows (%u)",
			    opname(c->op), (unsigned long long)words, RD_SPIRV_MAX_VALUE_WORDS);
	return true;
}

bool dec_type(struct rd_parse *c, const struct opdesc *od)
{
	struct ptype *t, *e;
	uint32_t n;
	switch (c->op) {
	case SpvOpTypeVoid:
	case SpvOpTypeBool:
		if (!need_words(c, 2, 2) || !(t = new_type(c, c->op == SpvOpTypeVoid ? T_VOID : T_BOOL)))
			return false;
		t->words = t->fixed = c->op == SpvOpTypeBool;
		return true;
	case SpvOpTypeInt:
		if (!need_words(c, 4, 4))
			return false;
		if (W(c, 2) != 32 && W(c, 2) != 64)
			return fail(c, "unsupported type: %u-bit integer", W(c, 2));
		if (W(c, 3) > 1)
			return fail(c, "OpTypeInt: bad signedness %u", W(c, 3));
		/* 64-bit integers are a kind of their own, so that no decoder
		 * written for 32-bit components takes one by mistake. */
		if (!(t = new_type(c, W(c, 2) == 64 ? T_INT64 : T_INT)))
			return false;
		t->sign = (uint8_t)W(c, 3);
		t->words = t->fixed = W(c, 2) / 32;
		return true;
	case SpvOpTypeFloat:
		if (!need_words(c, 3, 3))
			return false;
		if (W(c, 2) != 32)
			return fail(c, "unsupported type: %u-bit float", W(c, 2));
		if (!(t = new_type(c, T_FLOAT)))
			return false;
		t->words = t->fixed = 1;
		return true;
	case SpvOpTypeVector:
		if (!need_words(c, 4, 4) || !(e = get_type(c, W(c, 2))))
			return false;
		if (e->kind == T_INT64)
			return fail(c, "unsupported type: vector of 64-bit integers");
		if (e->kind != T_BOOL && e->kind != T_INT && e->kind != T_FLOAT)
			return fail(c, "OpTypeVector: component type %u is not a scalar", W(c, 2));
		n = W(c, 3);
		if (n < 2 || n > 4)
			return fail(c, "unsupported type: vector of %u components", n);
		if (!(t = new_type(c, T_VECTOR)))
			return false;
		t->elem = W(c, 2);
		t->count = n;
		t->words = t->fixed = n;
		return true;
	case SpvOpTypeMatrix:
		if (!need_words(c, 4, 4) || !(e = get_type(c, W(c, 2))))
			return false;
		if (ncomp_of(c, W(c, 2), T_FLOAT) < 2)
			return fail(c, "OpTypeMatrix: column type %u is not a float vector", W(c, 2));
		n = W(c, 3);
		if (n < 2 || n > 4)
			return fail(c, "OpTypeMatrix: %u columns", n);
		if (!(t = new_type(c, T_MATRIX)))
			return false;
		t->elem = W(c, 2);
		t->count = n;
		t->words = t->fixed = n * e->count;
		return true;
	case SpvOpTypeArray:
	case SpvOpTypeRuntimeArray: {
		bool rt = c->op == SpvOpTypeRuntimeArray;
		if (!need_words(c, rt ? 3 : 4, rt ? 3 : 4) || !(e = get_type(c, W(c, 2))))
			return false;
		/* An array of blocks that end in runtime arrays is allowed: it
		 * can only be the type of a descriptor array. */
		bool unsized_elem = !rt && e->kind == T_STRUCT && e->unsized;
		if (e->words == 0 && !unsized_elem)
			return fail(c, "%s: element type %u has no size", opname(c->op), W(c, 2));
		uint32_t len = 0;
		if (!rt) {
			if (!const_u32(c, W(c, 3), &len))
				return false;
			if (len == 0 || (T(c, c->ids[W(c, 3)].type)->sign && (int32_t)len <= 0))
				return fail(c, "OpTypeArray: length %d", (int32_t)len);
			if (!check_words(c, (uint64_t)len * e->fixed))
				return false;
		}
		uint32_t ew = e->words, efixed = e->fixed, depth = e->depth + 1u;
		if (depth > RD_MAX_TYPE_DEPTH)
			return fail(c, "%s: types nested deeper than %u", opname(c->op), RD_MAX_TYPE_DEPTH);
		if (!(t = new_type(c, rt ? T_RTARRAY : T_ARRAY)))
			return false;
		t->depth = (uint8_t)depth;
		t->elem = W(c, 2);
		t->count = len;
		t->words = ew * len;
		t->fixed = efixed * len;
		t->unsized = rt || unsized_elem;
		return true;
	}
	case SpvOpTypeStruct: {
		uint32_t nm = c->wc - 2, first = c->nmembers;
		uint64_t words = 0, fixed = 0;
		bool unsized = false, builtins = false;
		uint32_t depth = 1;
		if (!reserve(c, (void **)&c->members, &c->cap_members, (uint64_t)c->nmembers + nm,
			     sizeof(*c->members)))
			return false;
		for (uint32_t i = 0; i < nm; i++) {
			uint32_t mt = W(c, 2 + i);
			if (!(e = get_type(c, mt)))
				return false;
			if (e->kind == T_VOID || e->kind == T_FUNCTION ||
			    (e->kind == T_POINTER && e->storage != SpvStorageClassPhysicalStorageBuffer))
				return fail(c, "OpTypeStruct: member %u has type %u (%s)", i, mt,
					    kind_name((enum tkind)e->kind));
			if (e->unsized && i + 1 != nm)
				return fail(c, "OpTypeStruct: only the last member may be unsized");
			unsized |= e->unsized;
			if (e->depth + 1u > depth)
				depth = e->depth + 1u;
			struct pmember *m = &c->members[first + i];
			*m = (struct pmember){ .type = mt, .word = (uint32_t)words, .offset = NONE,
					       .builtin = NONE, .location = NONE };
			words += e->words;
			fixed += e->fixed;
		}
		if (!check_words(c, fixed))
			return false;
		if (depth > RD_MAX_TYPE_DEPTH)
			return fail(c, "OpTypeStruct: types nested deeper than %u", RD_MAX_TYPE_DEPTH);
		/* Member decorations: one walk over the struct's list. */
		uint32_t sid = W(c, 1);
		if (sid == 0 || sid >= c->bound)
			return fail(c, "OpTypeStruct: result id %u out of range", sid);
		for (uint32_t i = c->ids[sid].deco; i; i = c->decos[i - 1].next) {
			const struct pdeco *q = &c->decos[i - 1];
			if (q->member == NONE)
				continue;
			if (q->member >= nm)
				return fail(c, "OpMemberDecorate: struct %u has no member %u", sid, q->member);
			struct pmember *m = &c->members[first + q->member];
			switch (q->deco) {
			case SpvDecorationOffset:
				m->offset = q->value;
				break;
			case SpvDecorationMatrixStride:
				m->mstride = q->value;
				break;
			case SpvDecorationRowMajor:
				m->rowmajor = 1;
				break;
			case SpvDecorationBuiltIn:
				m->builtin = q->value;
				builtins = true;
				break;
			case SpvDecorationLocation:
				m->location = q->value;
				break;
			case SpvDecorationFlat:
				m->flat = 1;
				break;
			case SpvDecorationNoPerspective:
				m->noperspective = 1;
				break;
			case SpvDecorationPerPrimitiveEXT:
				m->perprim = 1;
				break;
			default:
				break;
			}
		}
		c->nmembers += nm;
		if (!(t = new_type(c, T_STRUCT)))
			return false;
		t->count = nm;
		t->first = first;
		t->words = unsized ? 0 : (uint32_t)words;
		t->fixed = (uint32_t)fixed;
		t->unsized = unsized;
		t->builtins = builtins;
		t->depth = (uint8_t)depth;
		if (get_deco(c, sid, NONE, SpvDecorationBlock, NULL))
			t->block = 1;
		if (get_deco(c, sid, NONE, SpvDecorationBufferBlock, NULL))
			t->block = 2;
		return true;
	}
	case SpvOpTypeImage: {
		/* Input attachments only (spec "Fragment Input Attachment
		 * Interface": Dim SubpassData, Arrayed 0, Sampled 2); an image
		 * value is the input attachment index it reads (variables.c). */
		if (!need_words(c, 9, 10) || !(e = get_type(c, W(c, 2))))
			return false;
		if (e->kind != T_INT && e->kind != T_FLOAT)
			return fail(c, "OpTypeImage: sampled type %u is not a 32-bit number", W(c, 2));
		if (W(c, 3) != SpvDimSubpassData)
			return fail(c, "unsupported image: Dim %u; only input attachments (Dim SubpassData) are",
				    W(c, 3));
		if (W(c, 5) != 0 || W(c, 7) != 2 || W(c, 6) > 1)
			return fail(c, "OpTypeImage: a SubpassData image must have Arrayed 0, Sampled 2, MS 0 or 1");
		if (!(t = new_type(c, T_IMAGE)))
			return false;
		t->elem = W(c, 2);
		t->count = W(c, 6);
		t->words = t->fixed = 1;
		return true;
	}
	case SpvOpTypeForwardPointer:
		/* A pointer type named before its OpTypePointer (spec
		 * 3.42.6), so that a struct can hold pointers to itself:
		 * PhysicalStorageBuffer only; its pointee is filled in there. */
		if (!need_words(c, 3, 3))
			return false;
		if (W(c, 2) != SpvStorageClassPhysicalStorageBuffer)
			return fail(c, "OpTypeForwardPointer: storage class %u is not PhysicalStorageBuffer", W(c, 2));
		if (!(t = new_type(c, T_POINTER)))
			return false;
		t->storage = W(c, 2);
		t->elem = NONE;
		t->words = t->fixed = 2;
		return true;
	case SpvOpTypePointer: {
		if (!need_words(c, 4, 4) || !(e = get_type(c, W(c, 3))))
			return false;
		uint32_t sc = W(c, 2);
		if (W(c, 1) != 0 && W(c, 1) < c->bound && c->ids[W(c, 1)].kind == ID_TYPE) {
			/* The definition of a forward-declared pointer type. */
			t = &c->types[c->ids[W(c, 1)].type];
			if (t->kind != T_POINTER || t->elem != NONE || t->storage != sc)
				return fail(c, "OpTypePointer: id %u defined twice", W(c, 1));
			if (e->kind == T_VOID || e->kind == T_FUNCTION)
				return fail(c, "OpTypePointer: pointee %u is %s", W(c, 3),
					    kind_name((enum tkind)e->kind));
			t->elem = W(c, 3);
			return true;
		}
		switch (sc) {
		case SpvStorageClassInput:
		case SpvStorageClassOutput:
		case SpvStorageClassFunction:
		case SpvStorageClassPrivate:
		case SpvStorageClassPushConstant:
		case SpvStorageClassUniform:
		case SpvStorageClassStorageBuffer:
		case SpvStorageClassWorkgroup:
		case SpvStorageClassTaskPayloadWorkgroupEXT:
		case SpvStorageClassUniformConstant:
			break;
		case SpvStorageClassPhysicalStorageBuffer:
			break;
		default:
			return fail(c, "unsupported storage class %s (%u)",
				    rd_spirv_name(RD_NAME_STORAGE_CLASS, sc), sc);
		}
		/* Pointers to PhysicalStorageBuffer pointers are how buffer
		 * references nest; no other pointer is a pointee. */
		if (e->kind == T_VOID || e->kind == T_FUNCTION ||
		    (e->kind == T_POINTER && e->storage != SpvStorageClassPhysicalStorageBuffer))
			return fail(c, "OpTypePointer: pointee %u is %s", W(c, 3),
				    kind_name((enum tkind)e->kind));
		if (!(t = new_type(c, T_POINTER)))
			return false;
		t->storage = sc;
		t->elem = W(c, 3);
		t->words = t->fixed = 2;
		return true;
	}
	case SpvOpTypeFunction: {
		if (!need_words(c, 3, 0xffff) || !(e = get_type(c, W(c, 2))))
			return false;
		if (e->kind == T_FUNCTION || (e->words == 0 && e->kind != T_VOID))
			return fail(c, "OpTypeFunction: bad return type %u", W(c, 2));
		uint32_t np = c->wc - 3;
		if (!reserve(c, (void **)&c->u32, &c->cap_u32, (uint64_t)c->nu32 + np, 4))
			return false;
		uint32_t first = c->nu32;
		for (uint32_t i = 0; i < np; i++) {
			if (!(e = get_type(c, W(c, 3 + i))))
				return false;
			if (e->words == 0)
				return fail(c, "OpTypeFunction: parameter %u has no size", i);
			c->u32[c->nu32++] = W(c, 3 + i);
		}
		if (!(t = new_type(c, T_FUNCTION)))
			return false;
		t->elem = W(c, 2);
		t->count = np;
		t->first = first;
		return true;
	}
	default:
		return fail(c, "unsupported opcode %s (%u)", opname(c->op), c->op);
	}
}

/* ------------------------------------------------------------------------ */
/* Constants (spec 3.42.7).  Spec constants keep their default values: the  */
/* API has no specialization info.                                          */

static struct pid *def_const(struct rd_parse *c, uint32_t *words)
{
	if (c->fn)
		(void)fail(c, "%s inside a function", opname(c->op));
	struct pid *d = c->failed ? NULL : def_value(c, W(c, 2), W(c, 1));
	if (!d)
		return NULL;
	d->is_const = 1;
	*words = T(c, d->type)->words;
	return d;
}

bool dec_constant(struct rd_parse *c, const struct opdesc *od)
{
	uint32_t words;
	struct pid *d;
	union rd_word *tm;
	switch (c->op) {
	case SpvOpConstantTrue:
	case SpvOpConstantFalse:
	case SpvOpSpecConstantTrue:
	case SpvOpSpecConstantFalse:
		if (!need_words(c, 3, 3) || !(d = def_const(c, &words)))
			return false;
		if (T(c, d->type)->kind != T_BOOL)
			return fail(c, "%s: type %u is not bool", opname(c->op), d->type);
		c->p->tmpl[d->slot].u = c->op == SpvOpConstantTrue || c->op == SpvOpSpecConstantTrue;
		return true;
	case SpvOpConstant:
	case SpvOpSpecConstant:
		if (!need_words(c, 4, 5) || !(d = def_const(c, &words)))
			return false;
		if (T(c, d->type)->kind != T_INT && T(c, d->type)->kind != T_FLOAT &&
		    T(c, d->type)->kind != T_INT64)
			return fail(c, "%s: type %u is not a 32-bit scalar or a 64-bit integer", opname(c->op),
				    d->type);
		if (c->wc != 3 + words)
			return fail(c, "%s: %u literal words for a %u-word type", opname(c->op), c->wc - 3, words);
		/* A 64-bit literal is its low word first (spec 2.2.1), as
		 * the invocation state keeps it. */
		for (uint32_t i = 0; i < words; i++)
			c->p->tmpl[d->slot + i].u = W(c, 3 + i);
		return true;
	case SpvOpConstantNull:
		if (!need_words(c, 3, 3) || !(d = def_const(c, &words)))
			return false;
		if (T(c, d->type)->kind == T_POINTER)
			return fail(c, "OpConstantNull: null pointers are unsupported");
		return true;  /* alloc_slot zeroed it */
	case SpvOpConstantComposite:
	case SpvOpSpecConstantComposite: {
		if (!need_words(c, 3, 0xffff) || !(d = def_const(c, &words)))
			return false;
		const struct ptype *t = T(c, d->type);
		uint32_t n = c->wc - 3, at = d->slot;
		if (t->kind != T_VECTOR && t->kind != T_MATRIX && t->kind != T_ARRAY && t->kind != T_STRUCT)
			return fail(c, "%s: type %u is not a composite", opname(c->op), d->type);
		if (n != t->count)
			return fail(c, "%s: %u constituents for a composite of %u", opname(c->op), n, t->count);
		for (uint32_t i = 0; i < n; i++) {
			uint32_t want = t->kind == T_STRUCT ? c->members[t->first + i].type : t->elem;
			uint32_t id = W(c, 3 + i), slot;
			if (!value_of(c, id, want, &slot))
				return false;
			if (!c->ids[id].is_const)
				return fail(c, "%s: constituent %u is not a constant", opname(c->op), id);
			uint32_t w = T(c, want)->words;
			tm = c->p->tmpl;
			memcpy(&tm[at], &tm[slot], (size_t)w * 4);
			at += w;
		}
		return true;
	}
	default:
		return fail(c, "unsupported opcode %s (%u)", opname(c->op), c->op);
	}
}

/* OpSpecConstantOp: decode the operation like a function-body instruction
 * and run its handler once on the template, where all constants live. */
bool dec_spec_constant_op(struct rd_parse *c, const struct opdesc *od)
{
	static const uint16_t allowed[] = {
		SpvOpSConvert, SpvOpUConvert, SpvOpFConvert, SpvOpSNegate, SpvOpNot, SpvOpIAdd,
		SpvOpISub, SpvOpIMul, SpvOpUDiv, SpvOpSDiv, SpvOpUMod, SpvOpSRem, SpvOpSMod,
		SpvOpShiftRightLogical, SpvOpShiftRightArithmetic, SpvOpShiftLeftLogical,
		SpvOpBitwiseOr, SpvOpBitwiseXor, SpvOpBitwiseAnd, SpvOpVectorShuffle,
		SpvOpCompositeExtract, SpvOpCompositeInsert, SpvOpLogicalOr, SpvOpLogicalAnd,
		SpvOpLogicalNot, SpvOpLogicalEqual, SpvOpLogicalNotEqual, SpvOpSelect, SpvOpIEqual,
		SpvOpINotEqual, SpvOpULessThan, SpvOpSLessThan, SpvOpUGreaterThan,
		SpvOpSGreaterThan, SpvOpULessThanEqual, SpvOpSLessThanEqual,
		SpvOpUGreaterThanEqual, SpvOpSGreaterThanEqual,
	};
	if (!need_words(c, 4, 0xffff))
		return false;
	if (c->fn)
		return fail(c, "OpSpecConstantOp inside a function");
	uint32_t op = W(c, 3);
	bool ok = false;
	for (size_t i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++)
		ok |= allowed[i] == op;
	if (!ok)
		return fail(c, "OpSpecConstantOp: unsupported operation %s (%u)", opname(op), op);
	/* The same instruction without the opcode operand. */
	uint32_t n = c->wc - 1;
	uint32_t *syn = malloc((size_t)n * 4);
	if (!syn)
		return fail(c, "out of memory");
	syn[0] = (n << 16) | op;
	syn[1] = W(c, 1);
	syn[2] = W(c, 2);
	for (uint32_t i = 3; i < n; i++)
		syn[i] = W(c, i + 1);
	const uint32_t *saved_in = c->in;
	uint32_t saved_wc = c->wc, saved_op = c->op, ncode = c->p->ncode;
	c->in = syn;
	c->wc = n;
	c->op = op;
	c->spec_eval = true;
	ok = decode_one(c, op_desc(op));
	c->spec_eval = false;
	c->in = saved_in;
	c->wc = saved_wc;
	c->op = saved_op;
	free(syn);
	if (!ok)
		return false;
	uint32_t id = W(c, 2);
	c->ids[id].is_const = 1;
	if (c->p->ncode == ncode)
		return true;  /* folded at decode time (e.g. a static copy) */
	struct rd_state st = { .R = c->p->tmpl, .p = c->p, .code = c->p->code };
	const struct rd_ins *in = &c->p->code[ncode];
	in->fn(&st, in);
	c->p->ncode = ncode;
	if (st.status == RD_RUN_FAULT)
		return fail(c, "OpSpecConstantOp: %s faulted", opname(op));
	return true;
}
