/* Explicit layout: the byte offset of every flattened word of a value in
 * Uniform, StorageBuffer and PushConstant memory ("plans"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "front.h"

/* Context that a struct member gives to the matrices inside it. */
struct lctx {
	uint32_t mstride, vstride;
	uint8_t rowmajor;
};

/* Appends the byte offset of every flattened word of type tid at base. */
static bool plan_walk(struct rd_parse *c, uint32_t tid, struct lctx x, uint64_t base, uint32_t *out,
		      uint32_t *n, uint32_t cap, uint64_t *extent)
{
	const struct ptype *t = T(c, tid);
	if (base > 0x7fffffffu)
		return fail(c, "%s: explicit layout offset beyond 2 GiB", opname(c->op));
	switch (t->kind) {
	case T_INT:
	case T_FLOAT:
		if (*n >= cap)  /* cannot happen: cap is the type's fixed size */
			return fail(c, "%s: internal error: layout plan overflow", opname(c->op));
		out[(*n)++] = (uint32_t)base;
		if (base + 4 > *extent)
			*extent = base + 4;
		return true;
	case T_INT64:
	case T_POINTER:
		/* Two words, low first; a PhysicalStorageBuffer pointer is
		 * its 64-bit address there (the loads and stores of pointers
		 * convert, memory.c). */
		if (t->kind == T_POINTER && !is_address_type(c, tid))
			return fail(c, "%s: a logical pointer in explicitly laid out memory", opname(c->op));
		if (*n + 2 > cap)
			return fail(c, "%s: internal error: layout plan overflow", opname(c->op));
		out[(*n)++] = (uint32_t)base;
		out[(*n)++] = (uint32_t)base + 4;
		if (base + 8 > *extent)
			*extent = base + 8;
		return true;
	case T_BOOL:
		return fail(c, "%s: bool in explicitly laid out memory", opname(c->op));
	case T_VECTOR:
		for (uint32_t i = 0; i < t->count; i++)
			if (!plan_walk(c, t->elem, x, base + (uint64_t)i * x.vstride, out, n, cap, extent))
				return false;
		return true;
	case T_MATRIX: {
		if (x.mstride == 0 || x.mstride % 4)
			return fail(c, "%s: matrix without a MatrixStride (or not a multiple of 4)", opname(c->op));
		struct lctx col = { 0, x.rowmajor ? x.mstride : 4, 0 };
		for (uint32_t i = 0; i < t->count; i++)
			if (!plan_walk(c, t->elem, col, base + (uint64_t)i * (x.rowmajor ? 4 : x.mstride),
				       out, n, cap, extent))
				return false;
		return true;
	}
	case T_ARRAY:
		if (t->stride == 0 || t->stride % 4)
			return fail(c, "%s: array type without an ArrayStride (or not a multiple of 4)",
				    opname(c->op));
		for (uint32_t i = 0; i < t->count; i++)
			if (!plan_walk(c, t->elem, x, base + (uint64_t)i * t->stride, out, n, cap, extent))
				return false;
		return true;
	case T_STRUCT:
		for (uint32_t i = 0; i < t->count; i++) {
			const struct pmember *m = &c->members[t->first + i];
			if (m->offset == NONE || m->offset % 4)
				return fail(c, "%s: member %u of struct has no Offset (or not a multiple of 4)",
					    opname(c->op), i);
			struct lctx mx = { m->mstride, 4, m->rowmajor };
			if (T(c, m->type)->kind == T_RTARRAY) {
				const struct ptype *rt = T(c, m->type);
				if (rt->stride == 0 || rt->stride % 4)
					return fail(c, "%s: runtime array without an ArrayStride", opname(c->op));
				/* Check the element once; it takes no words here. */
				uint32_t sub_n = 0, sub_cap = T(c, rt->elem)->words;
				uint64_t sub_extent = 0;
				uint32_t *sub = malloc((size_t)sub_cap * 4);
				if (!sub)
					return fail(c, "out of memory");
				bool ok = plan_walk(c, rt->elem, mx, 0, sub, &sub_n, sub_cap, &sub_extent);
				free(sub);
				if (!ok)
					return false;
				if (base + m->offset > *extent)
					*extent = base + m->offset;
				continue;
			}
			if (!plan_walk(c, m->type, mx, base + m->offset, out, n, cap, extent))
				return false;
		}
		return true;
	default:
		return fail(c, "%s: %s in explicitly laid out memory", opname(c->op), kind_name((enum tkind)t->kind));
	}
}

/* A load/store plan for type tid under pointer q's context: its pool index
 * (NONE when the words are contiguous from offset 0) and its extent. */
bool get_plan(struct rd_parse *c, const struct pptr *q, uint32_t *pool, uint32_t *extent)
{
	for (uint32_t i = 0; i < c->nplans; i++) {
		const struct plan *pl = &c->plans[i];
		if (pl->type == q->type && pl->mstride == q->mstride && pl->vstride == q->vstride &&
		    pl->rowmajor == q->rowmajor) {
			*pool = pl->pool;
			*extent = pl->extent;
			return true;
		}
	}
	const struct ptype *t = T(c, q->type);
	uint32_t words = t->words, n = 0;
	uint64_t ext = 0;
	if (words == 0)
		return fail(c, "%s: cannot load or store an unsized type", opname(c->op));
	uint32_t *tmp = malloc((size_t)words * 4);
	if (!tmp)
		return fail(c, "out of memory");
	struct lctx x = { q->mstride, q->vstride, q->rowmajor };
	if (!plan_walk(c, q->type, x, 0, tmp, &n, words, &ext)) {
		free(tmp);
		return false;
	}
	bool contiguous = true;
	for (uint32_t i = 0; i < n; i++)
		contiguous &= tmp[i] == 4 * i;
	uint32_t at = NONE;
	if (!contiguous) {
		at = pool_alloc(c, n);
		if (at != NONE)
			memcpy(&c->p->pool[at], tmp, (size_t)n * 4);
	}
	free(tmp);
	if (c->failed)
		return false;
	struct plan *pl = PUSH(c, c->plans, c->nplans, c->cap_plans);
	if (!pl)
		return false;
	*pl = (struct plan){ q->type, q->mstride, q->vstride, q->rowmajor, at, (uint32_t)ext };
	*pool = at;
	*extent = (uint32_t)ext;
	return true;
}

/* Validates a whole interface block's layout; its size in bytes. */
bool block_extent(struct rd_parse *c, uint32_t tid, uint32_t *extent)
{
	const struct ptype *t = T(c, tid);
	uint32_t *tmp = malloc((size_t)(t->fixed ? t->fixed : 1) * 4), n = 0;
	uint64_t ext = 0;
	if (!tmp)
		return fail(c, "out of memory");
	struct lctx x = { 0, 4, 0 };
	bool ok = plan_walk(c, tid, x, 0, tmp, &n, t->fixed, &ext);
	free(tmp);
	*extent = (uint32_t)ext;
	return ok;
}
