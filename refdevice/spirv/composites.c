/* Composites (spec 3.42.12): construct, extract, insert, shuffle, copy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "front.h"

/* A result that is a copy of words already in the state shares their slot:
 * in SSA form the source cannot change between the copy and any use of it
 * (the source's definition dominates the copy, which dominates the use). */
struct pid *def_alias(struct rd_parse *c, uint32_t id, uint32_t tid, uint32_t slot)
{
	const struct ptype *t = get_type(c, tid);
	if (!t)
		return NULL;
	struct pid *d = new_id(c, id, ID_VALUE);
	if (!d)
		return NULL;
	d->type = tid;
	d->slot = slot;
	return d;
}

/* Walks literal indices into composite type *tid from word i on: the word
 * offset and the type reached. */
static bool walk_literals(struct rd_parse *c, uint32_t i, uint32_t *tid, uint32_t *off)
{
	*off = 0;
	for (; i < c->wc; i++) {
		const struct ptype *t = T(c, *tid);
		uint32_t k = W(c, i);
		switch (t->kind) {
		case T_VECTOR:
		case T_MATRIX:
		case T_ARRAY:
			if (k >= t->count)
				return fail(c, "%s: index %u out of bounds (%u)", opname(c->op), k, t->count);
			*off += k * T(c, t->elem)->words;
			*tid = t->elem;
			break;
		case T_STRUCT:
			if (k >= t->count)
				return fail(c, "%s: struct has no member %u", opname(c->op), k);
			*off += c->members[t->first + k].word;
			*tid = c->members[t->first + k].type;
			break;
		default:
			return fail(c, "%s: too many indices", opname(c->op));
		}
	}
	return true;
}

bool dec_composite(struct rd_parse *c, const struct opdesc *od)
{
	uint32_t rt = W(c, 1), id = W(c, 2), t1, s1, t2, s2, off, n;
	const struct ptype *t = get_type(c, rt);
	struct rd_ins *in;
	struct pid *d;
	if (!t || !need_words(c, 3, 0xffff))
		return false;
	switch (c->op) {
	case SpvOpCompositeConstruct: {
		uint32_t nc = c->wc - 3, k = 0, at;
		if (t->kind != T_VECTOR && t->kind != T_MATRIX && t->kind != T_ARRAY && t->kind != T_STRUCT)
			return fail(c, "OpCompositeConstruct: type %u is not a composite", rt);
		if (t->kind != T_VECTOR && nc != t->count)
			return fail(c, "OpCompositeConstruct: %u constituents for %u", nc, t->count);
		if ((at = pool_alloc(c, t->words)) == NONE)
			return false;
		for (uint32_t i = 0; i < nc; i++) {
			uint32_t cid = W(c, 3 + i);
			if (t->kind == T_VECTOR) {
				if (!use_value(c, cid, &t1, &s1))
					return false;
				uint32_t m = ncomp_of(c, t1, (enum tkind)T(c, t->elem)->kind);
				if (m == 0 || (T(c, t1)->kind == T_VECTOR ? T(c, t1)->elem : t1) != t->elem)
					return fail(c, "OpCompositeConstruct: constituent %u is not made of %u", cid, t->elem);
				if (k + m > t->words)
					return fail(c, "OpCompositeConstruct: too many components");
				for (uint32_t j = 0; j < m; j++)
					c->p->pool[at + k++] = s1 + j;
				continue;
			}
			uint32_t want = t->kind == T_STRUCT ? c->members[t->first + i].type : t->elem;
			if (!value_of(c, cid, want, &s1))
				return false;
			for (uint32_t j = 0; j < T(c, want)->words; j++)
				c->p->pool[at + k++] = s1 + j;
		}
		if (k != t->words)
			return fail(c, "OpCompositeConstruct: %u components for %u", k, t->words);
		if (!(d = def_value(c, id, rt)) || !(in = emit(c, rd_ex_gather)))
			return false;
		in->r = d->slot;
		in->n = t->words;
		in->x = at;
		return true;
	}
	case SpvOpCompositeExtract:
		if (!need_words(c, 5, 0xffff) || !use_value(c, W(c, 3), &t1, &s1) ||
		    !walk_literals(c, 4, &t1, &off))
			return false;
		if (!same_type(c, t1, rt))
			return fail(c, "OpCompositeExtract: result type %u, the indices reach %u", rt, t1);
		if (t->kind == T_POINTER)
			return fail(c, "OpCompositeExtract: pointer result");
		return def_alias(c, id, rt, s1 + off) != NULL;
	case SpvOpCompositeInsert:
		if (!need_words(c, 6, 0xffff) || !value_of(c, W(c, 4), rt, &s2) ||
		    !use_value(c, W(c, 3), &t1, &s1))
			return false;
		t2 = rt;
		if (!walk_literals(c, 5, &t2, &off))
			return false;
		if (!same_type(c, t1, t2))
			return fail(c, "OpCompositeInsert: object type %u, the indices reach %u", t1, t2);
		if (!(d = def_value(c, id, rt)) || !(in = emit(c, rd_ex_insert)))
			return false;
		in->r = d->slot;
		in->a = s2;
		in->b = s1;
		in->n = t->words;
		in->c = T(c, t1)->words;
		in->x = off;
		return true;
	case SpvOpVectorShuffle: {
		if (!need_words(c, 6, 0xffff) || !use_value(c, W(c, 3), &t1, &s1) ||
		    !use_value(c, W(c, 4), &t2, &s2))
			return false;
		const struct ptype *v1 = T(c, t1), *v2 = T(c, t2);
		n = c->wc - 5;
		if (t->kind != T_VECTOR || v1->kind != T_VECTOR || v2->kind != T_VECTOR ||
		    v1->elem != t->elem || v2->elem != t->elem || n != t->count)
			return fail(c, "OpVectorShuffle: operand or result types do not match");
		uint32_t at = pool_alloc(c, n);
		if (at == NONE)
			return false;
		for (uint32_t i = 0; i < n; i++) {
			uint32_t k = W(c, 5 + i);
			if (k == 0xffffffffu)  /* an undefined component */
				c->p->pool[at + i] = c->zero_slot;
			else if (k < v1->count)
				c->p->pool[at + i] = s1 + k;
			else if (k - v1->count < v2->count)
				c->p->pool[at + i] = s2 + (k - v1->count);
			else
				return fail(c, "OpVectorShuffle: component %u out of range", k);
		}
		if (!(d = def_value(c, id, rt)) || !(in = emit(c, rd_ex_gather)))
			return false;
		in->r = d->slot;
		in->n = n;
		in->x = at;
		return true;
	}
	case SpvOpVectorExtractDynamic:
	case SpvOpVectorInsertDynamic: {
		bool ins = c->op == SpvOpVectorInsertDynamic;
		if (!need_words(c, ins ? 6 : 5, ins ? 6 : 5) || !use_value(c, W(c, 3), &t1, &s1) ||
		    !use_value(c, W(c, ins ? 5 : 4), &t2, &s2))
			return false;
		const struct ptype *v = T(c, t1);
		if (v->kind != T_VECTOR || T(c, t2)->kind != T_INT ||
		    (ins ? t1 != rt : v->elem != rt))
			return fail(c, "%s: operand or result types do not match", opname(c->op));
		uint32_t s3 = 0;
		if (ins && !value_of(c, W(c, 4), v->elem, &s3))
			return false;
		if (!(d = def_value(c, id, rt)) || !(in = emit(c, ins ? rd_ex_insert_dyn : rd_ex_extract_dyn)))
			return false;
		in->r = d->slot;
		in->a = s1;
		in->b = s2;     /* index */
		in->c = s3;     /* component to insert */
		in->n = v->count;
		in->x = T(c, t2)->sign;
		return true;
	}
	case SpvOpCopyObject:
	case SpvOpCopyLogical: {
		if (!need_words(c, 4, 4) || !use_value(c, W(c, 3), &t1, &s1))
			return false;
		bool ok = c->op == SpvOpCopyObject ? same_type(c, t1, rt)
			: T(c, t1)->words == t->words && t->kind != T_POINTER && T(c, t1)->kind != T_POINTER;
		if (!ok)
			return fail(c, "%s: result type %u does not match operand type %u", opname(c->op), rt, t1);
		if (!(d = def_alias(c, id, rt, s1)))
			return false;
		if (t->kind == T_POINTER) {
			struct pptr *q = new_ptr(c, d);
			if (!q)
				return false;
			*q = c->ptrs[c->ids[W(c, 3)].ptr];
		}
		return true;
	}
	default: {  /* OpTranspose */
		if (!need_words(c, 4, 4) || !use_value(c, W(c, 3), &t1, &s1))
			return false;
		const struct ptype *m = T(c, t1);
		if (t->kind != T_MATRIX || m->kind != T_MATRIX || t->count != T(c, m->elem)->count ||
		    m->count != T(c, t->elem)->count)
			return fail(c, "OpTranspose: type %u is not the transpose of %u", rt, t1);
		uint32_t cols = m->count, rows = T(c, m->elem)->count, at = pool_alloc(c, t->words);
		if (at == NONE)
			return false;
		for (uint32_t r = 0; r < rows; r++)
			for (uint32_t k = 0; k < cols; k++)
				c->p->pool[at + r * cols + k] = s1 + k * rows + r;
		if (!(d = def_value(c, id, rt)) || !(in = emit(c, rd_ex_gather)))
			return false;
		in->r = d->slot;
		in->n = t->words;
		in->x = at;
		return true;
	}
	}
}
