/* Memory (spec 3.42.8): loads, stores, copies, access chains, array
 * lengths; atomics (spec 3.42.18) and barriers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "front.h"

/* Optional memory operands starting at word i; *next is past them. */
static bool memory_operands(struct rd_parse *c, uint32_t i, uint32_t *next)
{
	if (i >= c->wc) {
		*next = i;
		return true;
	}
	uint32_t mask = W(c, i++);
	if (mask & ~(uint32_t)(SpvMemoryAccessVolatileMask | SpvMemoryAccessAlignedMask |
			       SpvMemoryAccessNontemporalMask))
		return fail(c, "%s: unsupported memory operands 0x%x", opname(c->op), mask);
	if (mask & SpvMemoryAccessAlignedMask)
		i++;
	*next = i;
	return true;
}

/* A PhysicalStorageBuffer pointer is its 64-bit address in buffer memory
 * and a (region, offset) pair in the invocation state (program.h): loads
 * and stores of one convert; of a composite holding one, are refused. */
static bool address_in_memory(struct rd_parse *c, const struct pptr *q, bool *is_ptr)
{
	*is_ptr = false;
	if (!is_explicit(q->storage) || !holds_address(c, q->type))
		return true;
	if (T(c, q->type)->kind != T_POINTER)
		return fail(c, "%s: a composite holding PhysicalStorageBuffer pointers in %s memory "
			    "(load or store its members one by one)", opname(c->op),
			    rd_spirv_name(RD_NAME_STORAGE_CLASS, q->storage));
	*is_ptr = true;
	return true;
}

static bool emit_load(struct rd_parse *c, const struct pptr *q, uint32_t ptr_slot, uint32_t dst)
{
	uint32_t words = T(c, q->type)->words, plan, extent;
	struct rd_ins *in;
	bool is_ptr;
	if (!address_in_memory(c, q, &is_ptr))
		return false;
	if (is_explicit(q->storage)) {
		if (!get_plan(c, q, &plan, &extent))
			return false;
		note_use(c, q, pc_extent(c, q));
		if (q->is_static && q->region == RD_REGION_PUSH) {
			if ((uint64_t)q->offset + extent > RD_PUSH_CONSTANT_BYTES)
				return fail(c, "%s: push-constant access beyond %u bytes", opname(c->op),
					    RD_PUSH_CONSTANT_BYTES);
			if (!(in = emit(c, rd_ex_load_push)))
				return false;
			in->b = q->offset;
		} else if (!(in = emit(c, rd_ex_load_buf))) {
			return false;
		}
		in->r = dst;
		in->a = ptr_slot;
		in->n = words;
		in->x = plan;
		in->c = extent;
		if (is_ptr) {
			if (!(in = emit(c, rd_ex_address_to_ptr)))
				return false;
			in->r = dst;
			in->a = dst;
		}
		return true;
	}
	if (q->is_static && q->region == RD_REGION_STATE) {
		if (!(in = emit(c, rd_ex_copy)))
			return false;
		in->r = dst;
		in->a = q->offset / 4;
		in->n = words;
		return true;
	}
	if (!(in = emit(c, rd_ex_load_nat)))
		return false;
	in->r = dst;
	in->a = ptr_slot;
	in->n = words;
	return true;
}

static bool emit_store(struct rd_parse *c, const struct pptr *q, uint32_t ptr_slot, uint32_t src)
{
	uint32_t words = T(c, q->type)->words, plan, extent;
	struct rd_ins *in;
	bool is_ptr;
	if (!address_in_memory(c, q, &is_ptr))
		return false;
	if (is_ptr) {
		uint32_t tmp = alloc_slot(c, 2);
		if (c->failed || !(in = emit(c, rd_ex_ptr_to_address)))
			return false;
		in->r = tmp;
		in->a = src;
		src = tmp;
	}
	if (!writable(c, q))
		return fail(c, "%s: store into read-only %s memory", opname(c->op),
			    rd_spirv_name(RD_NAME_STORAGE_CLASS, q->storage));
	note_write(c, q);
	if (is_explicit(q->storage)) {
		if (!get_plan(c, q, &plan, &extent) || !(in = emit(c, rd_ex_store_buf)))
			return false;
		in->a = ptr_slot;
		in->b = src;
		in->n = words;
		in->x = plan;
		in->c = extent;
		return true;
	}
	if (q->is_static && q->region == RD_REGION_STATE) {
		if (!(in = emit(c, rd_ex_copy)))
			return false;
		in->r = q->offset / 4;
		in->a = src;
		in->n = words;
		return true;
	}
	if (!(in = emit(c, rd_ex_store_nat)))
		return false;
	in->a = ptr_slot;
	in->b = src;
	in->n = words;
	return true;
}

bool dec_load(struct rd_parse *c, const struct opdesc *od)
{
	uint32_t next;
	if (!need_words(c, 4, 6) || !memory_operands(c, 4, &next))
		return false;
	if (next != c->wc)
		return fail(c, "OpLoad: trailing operands");
	const struct pptr *q = ptr_of(c, W(c, 3));
	if (!q || !get_type(c, W(c, 1)))
		return false;
	if (!same_type(c, q->type, W(c, 1)))
		return fail(c, "OpLoad: result type %u, pointer to %u", W(c, 1), q->type);
	uint32_t ptr_slot = c->ids[W(c, 3)].slot;
	/* Loading a pointer: only PhysicalStorageBuffer ones are values. */
	struct pid *d = def_result(c, W(c, 2), W(c, 1));
	return d && emit_load(c, &c->ptrs[c->ids[W(c, 3)].ptr], ptr_slot, d->slot);
}

bool dec_store(struct rd_parse *c, const struct opdesc *od)
{
	uint32_t next, slot;
	if (!need_words(c, 3, 5) || !memory_operands(c, 3, &next))
		return false;
	if (next != c->wc)
		return fail(c, "OpStore: trailing operands");
	const struct pptr *q = ptr_of(c, W(c, 1));
	if (!q || !value_of(c, W(c, 2), q->type, &slot))
		return false;
	return emit_store(c, q, c->ids[W(c, 1)].slot, slot);
}

bool dec_copy_memory(struct rd_parse *c, const struct opdesc *od)
{
	uint32_t next;
	if (!need_words(c, 3, 7) || !memory_operands(c, 3, &next) || !memory_operands(c, next, &next))
		return false;
	if (next != c->wc)
		return fail(c, "OpCopyMemory: trailing operands");
	const struct pptr *dst = ptr_of(c, W(c, 1)), *src = ptr_of(c, W(c, 2));
	if (!dst || !src)
		return false;
	if (!same_type(c, dst->type, src->type))
		return fail(c, "OpCopyMemory: pointee types %u and %u differ", dst->type, src->type);
	uint32_t words = T(c, src->type)->words;
	if (words == 0)
		return fail(c, "OpCopyMemory: unsized type");
	/* A load into a scratch slot of its own, then a store. */
	uint32_t tmp = alloc_slot(c, words);
	return !c->failed && emit_load(c, src, c->ids[W(c, 2)].slot, tmp) &&
	       emit_store(c, dst, c->ids[W(c, 1)].slot, tmp);
}

/* Access chain terms: pool entries of 4 words. */
#define AC_SIGNED 1u
#define AC_ELEMENT 2u

bool dec_access_chain(struct rd_parse *c, const struct opdesc *od)
{
	if (!need_words(c, 4, 0xffff))
		return false;
	uint32_t rt = W(c, 1), nidx = c->wc - 4;
	const struct ptype *rpt = get_type(c, rt);
	const struct pptr *b = ptr_of(c, W(c, 3));
	if (!rpt || !b)
		return false;
	if (rpt->kind != T_POINTER || rpt->storage != b->storage)
		return fail(c, "%s: result type %u is not a pointer of the base's storage class", opname(c->op), rt);
	struct pptr n = *b;  /* b may move when new_ptr() grows the array */
	bool explicit_ = is_explicit(b->storage), base_static = b->is_static;
	uint64_t soff = 0;
	uint32_t nterms = 0, elem = 0, at = pool_alloc(c, 4 * nidx);
	if (at == NONE)
		return false;
	uint32_t cur = b->type;
	for (uint32_t i = 0; i < nidx; i++) {
		uint32_t id = W(c, 4 + i), it, islot;
		if (!use_value(c, id, &it, &islot))
			return false;
		if (T(c, it)->kind != T_INT)
			return fail(c, "%s: index %u is not an integer scalar", opname(c->op), id);
		bool is_const = c->ids[id].is_const;
		uint32_t iv = c->p->tmpl[islot].u;
		bool sign = T(c, it)->sign;
		const struct ptype *t = T(c, cur);
		uint32_t stride = 0, bound = 0, flags = sign ? AC_SIGNED : 0;
		if (n.desc_array) {
			n.desc_array = 0;
			stride = 0;
			bound = t->count;
			flags |= AC_ELEMENT;
			cur = t->elem;
		} else {
			switch (t->kind) {
			case T_STRUCT: {
				if (!is_const)
					return fail(c, "%s: struct index %u is not a constant", opname(c->op), id);
				if (iv >= t->count)
					return fail(c, "%s: struct has no member %u", opname(c->op), iv);
				const struct pmember *m = &c->members[t->first + iv];
				if (explicit_ && (m->offset == NONE || m->offset % 4))
					return fail(c, "%s: member %u has no Offset (or not a multiple of 4)",
						    opname(c->op), iv);
				soff += explicit_ ? m->offset : (uint64_t)m->word * 4;
				n.mstride = m->mstride;
				n.rowmajor = m->rowmajor;
				n.vstride = 4;
				n.builtin = m->builtin;
				cur = m->type;
				continue;
			}
			case T_ARRAY:
			case T_RTARRAY:
				if (explicit_ && (t->stride == 0 || t->stride % 4))
					return fail(c, "%s: array without an ArrayStride (or not a multiple of 4)",
						    opname(c->op));
				stride = explicit_ ? t->stride : T(c, t->elem)->words * 4;
				bound = t->kind == T_ARRAY ? t->count : 0;
				break;
			case T_MATRIX:
				if (explicit_) {
					if (n.mstride == 0 || n.mstride % 4)
						return fail(c, "%s: matrix without a MatrixStride", opname(c->op));
					stride = n.rowmajor ? 4 : n.mstride;
					n.vstride = n.rowmajor ? n.mstride : 4;
				} else {
					stride = T(c, t->elem)->count * 4;
				}
				bound = t->count;
				break;
			case T_VECTOR:
				stride = explicit_ ? n.vstride : 4;
				bound = t->count;
				break;
			default:
				return fail(c, "%s: too many indices", opname(c->op));
			}
			cur = t->elem;
		}
		if (is_const) {
			if ((sign && (int32_t)iv < 0) || (bound && iv >= bound))
				return fail(c, "%s: index %d out of bounds (%u)", opname(c->op),
					    (int32_t)iv, bound);
			if (flags & AC_ELEMENT)
				elem = iv;
			else
				soff += (uint64_t)iv * stride;
			continue;
		}
		uint32_t *term = &c->p->pool[at + 4 * nterms++];
		term[0] = islot;
		term[1] = stride;
		term[2] = bound;
		term[3] = flags;
	}
	if (n.desc_array)
		return fail(c, "%s: pointer to a whole array of descriptors", opname(c->op));
	if (!same_type(c, rpt->elem, cur))
		return fail(c, "%s: result points to %u, the indices reach %u", opname(c->op), rpt->elem, cur);
	if (soff > 0x7fffffffu)
		return fail(c, "%s: offset beyond 2 GiB", opname(c->op));
	n.type = cur;
	struct pid *d = def_value(c, W(c, 2), rt);
	struct pptr *q = d ? new_ptr(c, d) : NULL;
	if (!q)
		return false;
	note_use(c, &n, pc_extent(c, &n));
	if (nterms == 0 && base_static) {
		n.region += elem;
		n.offset += (uint32_t)soff;
		*q = n;
		set_static_ptr(c, d, q);
		c->p->npool = at;  /* no terms needed */
		return true;
	}
	n.is_static = 0;
	*q = n;
	struct rd_ins *in = emit(c, rd_ex_access_chain);
	if (!in)
		return false;
	in->r = d->slot;
	in->a = c->ids[W(c, 3)].slot;
	in->b = (uint32_t)soff;
	in->c = elem;  /* a constant descriptor array element */
	in->n = nterms;
	in->x = at;
	return true;
}

bool dec_array_length(struct rd_parse *c, const struct opdesc *od)
{
	uint32_t n;
	if (!need_words(c, 5, 5) || !result_num(c, W(c, 1), T_INT, &n))
		return false;
	const struct pptr *q = ptr_of(c, W(c, 3));
	if (!q || n != 1)
		return fail(c, "OpArrayLength: bad result or pointer");
	const struct ptype *t = T(c, q->type);
	uint32_t m = W(c, 4);
	if (t->kind != T_STRUCT || m + 1 != t->count || T(c, c->members[t->first + m].type)->kind != T_RTARRAY)
		return fail(c, "OpArrayLength: member %u is not a trailing runtime array", m);
	const struct pmember *mm = &c->members[t->first + m];
	const struct ptype *rt = T(c, mm->type);
	if (q->storage == SpvStorageClassPhysicalStorageBuffer)
		return fail(c, "OpArrayLength: needs a logical pointer, not a PhysicalStorageBuffer one");
	if (!is_explicit(q->storage) || mm->offset == NONE || rt->stride == 0)
		return fail(c, "OpArrayLength: runtime array without an explicit layout");
	uint32_t ptr_slot = c->ids[W(c, 3)].slot;
	struct pid *d = def_value(c, W(c, 2), W(c, 1));
	struct rd_ins *in = d ? emit(c, rd_ex_array_length) : NULL;
	if (!in)
		return false;
	in->r = d->slot;
	in->a = ptr_slot;
	in->b = mm->offset;
	in->c = rt->stride;
	return true;
}

/* ------------------------------------------------------------------------ */
/* Atomics (spec 3.42.18) and barriers (3.42.20)                            */

static bool scope_semantics(struct rd_parse *c, uint32_t i, uint32_t n)
{
	uint32_t v;
	for (uint32_t k = 0; k < n; k++)
		if (!const_u32(c, W(c, i + k), &v))
			return false;
	return true;
}

/* arg: number of value operands after scope and semantics (0 load/inc/dec,
 * 1 most, 2 compare-exchange with its second semantics); arg2 1: store. */
bool dec_atomic(struct rd_parse *c, const struct opdesc *od)
{
	bool store = od->arg2 == 1, cmpx = c->op == SpvOpAtomicCompareExchange;
	uint32_t p = store ? 1 : 3, nw = p + 3 + od->arg + cmpx;
	uint32_t sv = 0, scmp = 0;
	if (!need_words(c, nw, nw))
		return false;
	const struct pptr *q = ptr_of(c, W(c, p));
	if (!q)
		return false;
	uint32_t ptype = q->type, ptr_slot = c->ids[W(c, p)].slot;
	if (T(c, ptype)->kind != T_INT)
		return fail(c, "%s: pointer to a non-integer", opname(c->op));
	switch (q->storage) {
	case SpvStorageClassStorageBuffer:
	case SpvStorageClassPhysicalStorageBuffer:
	case SpvStorageClassUniform:
	case SpvStorageClassWorkgroup:
	case SpvStorageClassTaskPayloadWorkgroupEXT:
		break;
	default:
		return fail(c, "%s: atomics in %s memory are unsupported", opname(c->op),
			    rd_spirv_name(RD_NAME_STORAGE_CLASS, q->storage));
	}
	if (!scope_semantics(c, p + 1, 2 + cmpx))
		return false;
	if (od->arg >= 1 && !value_of(c, W(c, p + 3 + cmpx), ptype, &sv))
		return false;
	if (od->arg >= 2 && !value_of(c, W(c, p + 4 + cmpx), ptype, &scmp))
		return false;
	if (q->storage != SpvStorageClassWorkgroup && q->storage != SpvStorageClassTaskPayloadWorkgroupEXT &&
	    !writable(c, q))
		return fail(c, "%s: atomic on read-only memory", opname(c->op));
	uint32_t r = 0;
	if (!store) {
		if (!get_type(c, W(c, 1)))
			return false;
		if (!same_type(c, W(c, 1), ptype))
			return fail(c, "%s: result type %u, pointer to %u", opname(c->op), W(c, 1), ptype);
		struct pid *d = def_value(c, W(c, 2), W(c, 1));
		if (!d)
			return false;
		r = d->slot;
	}
	struct rd_ins *in = emit(c, od->fn);
	if (!in)
		return false;
	in->r = r;
	in->a = ptr_slot;
	in->b = sv;
	in->c = scmp;
	return true;
}

/* OpControlBarrier (execution scope, memory scope, semantics) waits for the
 * workgroup's or patch's other invocations (rd_shader_run_group runs them
 * in lockstep); memory is always coherent here, so its memory barrier and
 * OpMemoryBarrier order nothing more. */
bool dec_barrier(struct rd_parse *c, const struct opdesc *od)
{
	bool control = c->op == SpvOpControlBarrier;
	uint32_t n = control ? 3 : 2;
	if (!need_words(c, 1 + n, 1 + n) || !scope_semantics(c, 1, n))
		return false;
	if (control)
		c->fn->barrier = 1;
	return emit(c, od->fn) != NULL;
}
