/* The SPIR-V interpreter's execution: one handler per decoded instruction
 * (see program.h), grouped like the spec's sections, and
 * rd_shader_run() / rd_shader_run_group().  Handlers trust what the front end (front.h) checked statically
 * (slots, types, code indices) and check at run time what it could not:
 * pointer values against their region, dynamic indices, the call stack.
 *
 * Float arithmetic is IEEE single precision as C does it on float (no fast
 * math, no contraction across instructions); where SPIR-V leaves a result
 * undefined (integer division by zero, shifts by 32 or more, float to
 * integer conversions out of range) the handler picks a value instead of
 * letting C's undefined behaviour happen. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "program.h"

#define HANDLER(name) const struct rd_ins *rd_ex_##name(struct rd_state *st, const struct rd_ins *in)

static const struct rd_ins *fault(struct rd_state *st, const struct rd_ins *in, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static const struct rd_ins *fault(struct rd_state *st, const struct rd_ins *in, const char *fmt, ...)
{
	st->status = RD_RUN_FAULT;
	if (st->errsize == 0)
		return NULL;
	int n = snprintf(st->err, st->errsize, "word %u: %s: ", in->word, rd_spirv_ins_name(in));
	if (n < 0 || (size_t)n >= st->errsize)
		return NULL;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(st->err + n, st->errsize - (size_t)n, fmt, ap);
	va_end(ap);
	return NULL;
}

/* ------------------------------------------------------------------------ */
/* Composites and copies (spec 3.42.12)                                     */

/* Word loops rather than memmove: the copies are short (mostly one word),
 * and a loop stays defined even if a broken module makes them overlap. */
static void copy_words(union rd_word *dst, const union rd_word *src, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		dst[i] = src[i];
}

HANDLER(copy)
{
	copy_words(&st->R[in->r], &st->R[in->a], in->n);
	return in + 1;
}

/* R[r + i] = R[pool[x + i]]: construct, shuffle, transpose. */
HANDLER(gather)
{
	union rd_word *R = st->R;
	const uint32_t *src = &st->p->pool[in->x];
	for (uint32_t i = 0; i < in->n; i++)
		R[in->r + i] = R[src[i]];
	return in + 1;
}

/* CompositeInsert: composite a (n words) with object b (c words) at x. */
HANDLER(insert)
{
	union rd_word *R = st->R;
	copy_words(&R[in->r], &R[in->a], in->n);
	copy_words(&R[in->r + in->x], &R[in->b], in->c);
	return in + 1;
}

/* The dynamic index of b (signed when x) as a component of n, or -1. */
static int64_t dyn_index(const struct rd_state *st, const struct rd_ins *in)
{
	uint32_t v = st->R[in->b].u;
	int64_t i = in->x ? (int64_t)(int32_t)v : (int64_t)v;
	return i >= 0 && i < (int64_t)in->n ? i : -1;
}

HANDLER(extract_dyn)
{
	int64_t i = dyn_index(st, in);
	if (i < 0)  /* spec: undefined behaviour; a reference device says so */
		return fault(st, in, "index %d out of bounds (%u)", st->R[in->b].i, in->n);
	st->R[in->r] = st->R[in->a + (uint32_t)i];
	return in + 1;
}

HANDLER(insert_dyn)
{
	int64_t i = dyn_index(st, in);
	if (i < 0)
		return fault(st, in, "index %d out of bounds (%u)", st->R[in->b].i, in->n);
	copy_words(&st->R[in->r], &st->R[in->a], in->n);
	st->R[in->r + (uint32_t)i] = st->R[in->c];
	return in + 1;
}

HANDLER(zero)
{
	memset(&st->R[in->r], 0, (size_t)in->n * 4);
	return in + 1;
}

/* ------------------------------------------------------------------------ */
/* Memory (spec 3.42.8)                                                     */

/* Base and size of the memory a pointer's region names; NULL after a fault. */
static uint8_t *region(struct rd_state *st, const struct rd_ins *in, uint32_t reg, uint64_t *size)
{
	const struct rd_program *p = st->p;
	if (reg == RD_REGION_STATE) {
		*size = (uint64_t)p->nstate * 4;
		return (uint8_t *)st->R;
	}
	if (reg == RD_REGION_WG) {
		*size = p->wg_bytes;
		return st->wg;
	}
	if (reg == RD_REGION_PUSH) {
		if (!st->env->push_constants) {
			fault(st, in, "no push constants");
			return NULL;
		}
		*size = RD_PUSH_CONSTANT_BYTES;
		/* Stores through push-constant pointers are refused at create. */
		return (uint8_t *)(uintptr_t)st->env->push_constants;
	}
	if (reg & RD_REGION_DESC) {
		if (reg == st->cache_region) {
			*size = st->cache_size;
			return st->cache_data;
		}
		uint32_t k = (reg >> 16) & 0x7fffu, el = reg & 0xffffu;
		if (k >= p->ndescs || el >= p->descs[k].count) {
			fault(st, in, "invalid descriptor pointer 0x%08x", reg);
			return NULL;
		}
		const struct rd_desc *d = &p->descs[k];
		const struct rd_buffer_range *b =
			st->env->buffer ? st->env->buffer(st->env->user, d->set, d->binding, el) : NULL;
		if (!b || !b->data) {
			fault(st, in, "no buffer bound at set %u binding %u element %u", d->set, d->binding, el);
			return NULL;
		}
		st->cache_region = reg;
		st->cache_data = b->data;
		st->cache_size = b->size;
		*size = b->size;
		return b->data;
	}
	fault(st, in, "access through an invalid pointer (region 0x%08x)", reg);
	return NULL;
}

static bool is_address(uint32_t reg)
{
	return (reg & (RD_REGION_DESC | RD_REGION_ADDR)) == RD_REGION_ADDR;
}

/* Bytes [addr, addr + len) at a device address: they must lie in one
 * bound buffer (spec "Physical Storage Buffer": an address is valid in
 * the range of the buffer it came from). */
static uint8_t *address(struct rd_state *st, const struct rd_ins *in, uint64_t addr, uint64_t len)
{
	if (st->addr_size == 0 || addr < st->addr_base || addr - st->addr_base > st->addr_size ||
	    len > st->addr_size - (addr - st->addr_base)) {
		struct rd_address_range r;
		if (!st->env->address || !st->env->address(st->env->user, addr, len, &r)) {
			fault(st, in, "no buffer holds device addresses 0x%llx..0x%llx (%llu bytes)",
			      (unsigned long long)addr, (unsigned long long)(addr + len), (unsigned long long)len);
			return NULL;
		}
		st->addr_base = r.base;
		st->addr_size = r.size;
		st->addr_data = r.data;
	}
	return st->addr_data + (addr - st->addr_base);
}

/* The address of bytes [off, off + len) of pointer slot a's memory. */
static uint8_t *deref(struct rd_state *st, const struct rd_ins *in, uint32_t a, uint64_t len)
{
	uint64_t size;
	uint32_t reg = st->R[a].u, off = st->R[a + 1].u;
	if (is_address(reg))
		return address(st, in, (uint64_t)(reg & RD_REGION_ADDR_HIGH) << 32 | off, len);
	uint8_t *base = region(st, in, reg, &size);
	if (!base)
		return NULL;
	if (off > size || len > size - off) {
		fault(st, in, "out-of-bounds access: bytes %u..%llu of a %llu-byte %s", off,
		      (unsigned long long)(off + len), (unsigned long long)size,
		      reg & RD_REGION_DESC ? "buffer" : reg == RD_REGION_PUSH ? "push-constant block"
						       : "variable");
		return NULL;
	}
	return base + off;
}

/* OpImageRead of an input attachment (image.c): the fragment's pixel plus
 * the coordinate, of its view (spec "Multiview": "input attachments all
 * read ... the layer of the framebuffer corresponding to the view
 * index"). */
HANDLER(subpass_read)
{
	const struct rd_invocation *inv = st->inv;
	uint32_t index = st->R[in->a].u;
	int64_t x = (int64_t)floorf(inv->frag_coord[0]) + st->R[in->b].i;
	int64_t y = (int64_t)floorf(inv->frag_coord[1]) + st->R[in->b + 1].i;
	uint32_t sample = in->c == 0xffffffffu ? 0 : st->R[in->c].u;
	uint32_t v[4];
	if (x < INT32_MIN || x > INT32_MAX || y < INT32_MIN || y > INT32_MAX || !st->env->input_attachment ||
	    !st->env->input_attachment(st->env->user, index, (int32_t)x, (int32_t)y, inv->view_index, sample, v))
		return fault(st, in, "input attachment %u: nothing to read at (%lld, %lld) sample %u", index,
			     (long long)x, (long long)y, sample);
	memcpy(&st->R[in->r], v, sizeof(v));
	return in + 1;
}

HANDLER(load_nat)
{
	const uint8_t *m = deref(st, in, in->a, (uint64_t)in->n * 4);
	if (!m)
		return NULL;
	memmove(&st->R[in->r], m, (size_t)in->n * 4);
	return in + 1;
}

HANDLER(store_nat)
{
	uint8_t *m = deref(st, in, in->a, (uint64_t)in->n * 4);
	if (!m)
		return NULL;
	memmove(m, &st->R[in->b], (size_t)in->n * 4);
	return in + 1;
}

/* Plan x: byte offsets of the n words (NONE: contiguous); c: extent. */
static void plan_load(union rd_word *dst, const uint8_t *m, const struct rd_program *p, const struct rd_ins *in)
{
	if (in->x == 0xffffffffu) {
		memcpy(dst, m, (size_t)in->n * 4);
		return;
	}
	const uint32_t *plan = &p->pool[in->x];
	for (uint32_t i = 0; i < in->n; i++)
		memcpy(&dst[i], m + plan[i], 4);
}

/* A static offset (b) into the push constants, checked at create. */
HANDLER(load_push)
{
	const uint8_t *pc = st->env->push_constants;
	if (!pc)
		return fault(st, in, "no push constants");
	plan_load(&st->R[in->r], pc + in->b, st->p, in);
	return in + 1;
}

HANDLER(load_buf)
{
	const uint8_t *m = deref(st, in, in->a, in->c);
	if (!m)
		return NULL;
	plan_load(&st->R[in->r], m, st->p, in);
	return in + 1;
}

HANDLER(store_buf)
{
	uint8_t *m = deref(st, in, in->a, in->c);
	if (!m)
		return NULL;
	const union rd_word *src = &st->R[in->b];
	if (in->x == 0xffffffffu) {
		memcpy(m, src, (size_t)in->n * 4);
		return in + 1;
	}
	const uint32_t *plan = &st->p->pool[in->x];
	for (uint32_t i = 0; i < in->n; i++)
		memcpy(m + plan[i], &src[i], 4);
	return in + 1;
}

/* Base pointer a, static offset b, constant descriptor element c, n
 * dynamic terms at pool x: {index slot, stride, bound (0: none), flags}. */
HANDLER(access_chain)
{
	union rd_word *R = st->R;
	uint32_t reg = R[in->a].u + in->c;
	uint64_t off = (uint64_t)R[in->a + 1].u + in->b;
	const uint32_t *t = &st->p->pool[in->x];
	for (uint32_t i = 0; i < in->n; i++, t += 4) {
		uint32_t v = R[t[0]].u;
		int64_t idx = (t[3] & 1u) ? (int64_t)(int32_t)v : (int64_t)v;
		if (idx < 0 || (t[2] && idx >= (int64_t)t[2]))
			return fault(st, in, "index %lld out of bounds (%u)", (long long)idx, t[2]);
		if (t[3] & 2u)
			reg += (uint32_t)idx;  /* an element of a descriptor array */
		else
			off += (uint64_t)idx * t[1];
	}
	if (is_address(reg)) {
		/* A device address: the offset is its low 32 bits. */
		uint64_t addr = ((uint64_t)(reg & RD_REGION_ADDR_HIGH) << 32) + off;
		if (addr >> 32 > RD_REGION_ADDR_HIGH)
			return fault(st, in, "device address beyond 2^62");
		R[in->r].u = RD_REGION_ADDR | (uint32_t)(addr >> 32);
		R[in->r + 1].u = (uint32_t)addr;
		return in + 1;
	}
	if (off > 0xffffffffu)
		return fault(st, in, "out-of-bounds offset %llu (beyond 4 GiB)", (unsigned long long)off);
	R[in->r].u = reg;
	R[in->r + 1].u = (uint32_t)off;
	return in + 1;
}

/* 64-bit integers and device addresses -------------------------------------*/

static uint64_t get64(const union rd_word *R, uint32_t s)
{
	return (uint64_t)R[s].u | (uint64_t)R[s + 1].u << 32;
}

static void put64(union rd_word *R, uint32_t s, uint64_t v)
{
	R[s].u = (uint32_t)v;
	R[s + 1].u = (uint32_t)(v >> 32);
}

/* OpUConvert, OpSConvert from 32 to 64 bits. */
HANDLER(uext)
{
	put64(st->R, in->r, st->R[in->a].u);
	return in + 1;
}

HANDLER(sext)
{
	put64(st->R, in->r, (uint64_t)(int64_t)st->R[in->a].i);
	return in + 1;
}

/* An integer of n words (a) as a PhysicalStorageBuffer pointer (r):
 * OpConvertUToPtr, OpBitcast, and loads of pointers from buffer memory. */
HANDLER(address_to_ptr)
{
	union rd_word *R = st->R;
	uint64_t addr = in->n == 1 ? R[in->a].u : get64(R, in->a);
	if (addr >> 32 > RD_REGION_ADDR_HIGH)
		return fault(st, in, "device address 0x%llx beyond 2^62", (unsigned long long)addr);
	R[in->r].u = addr ? RD_REGION_ADDR | (uint32_t)(addr >> 32) : RD_REGION_NONE;
	R[in->r + 1].u = (uint32_t)addr;
	return in + 1;
}

/* The reverse, into n words: OpConvertPtrToU, OpBitcast, stores. */
HANDLER(ptr_to_address)
{
	union rd_word *R = st->R;
	uint32_t reg = R[in->a].u;
	if (reg != RD_REGION_NONE && !is_address(reg))
		return fault(st, in, "pointer of region 0x%08x has no device address", reg);
	uint64_t addr = (uint64_t)(reg & RD_REGION_ADDR_HIGH) << 32 | R[in->a + 1].u;
	if (in->n == 1)
		R[in->r].u = (uint32_t)addr;
	else
		put64(R, in->r, addr);
	return in + 1;
}

/* One 64-bit operation, by SPIR-V opcode: a and b the operands (b of c
 * words: shifts may take a 32-bit count; 0 for unary ones); results of
 * comparisons are one bool word.  As for 32 bits: division by 0 gives 0,
 * shifts of 64 or more what a wider shift would. */
HANDLER(i64)
{
	union rd_word *R = st->R;
	uint64_t a = get64(R, in->a), b = in->c == 2 ? get64(R, in->b) : in->c == 1 ? R[in->b].u : 0, v;
	int64_t sa = (int64_t)a, sb = (int64_t)b;
	switch (in->op) {
	case SpvOpSNegate: v = 0 - a; break;
	case SpvOpNot: v = ~a; break;
	case SpvOpIAdd: v = a + b; break;
	case SpvOpISub: v = a - b; break;
	case SpvOpIMul: v = a * b; break;
	case SpvOpUDiv: v = b ? a / b : 0; break;
	case SpvOpUMod: v = b ? a % b : 0; break;
	case SpvOpBitwiseOr: v = a | b; break;
	case SpvOpBitwiseXor: v = a ^ b; break;
	case SpvOpBitwiseAnd: v = a & b; break;
	case SpvOpShiftLeftLogical: v = b < 64 ? a << b : 0; break;
	case SpvOpShiftRightLogical: v = b < 64 ? a >> b : 0; break;
	case SpvOpShiftRightArithmetic: v = (uint64_t)(b < 64 ? sa >> b : (sa < 0 ? -1 : 0)); break;
	case SpvOpIEqual: R[in->r].u = a == b; return in + 1;
	case SpvOpINotEqual: R[in->r].u = a != b; return in + 1;
	case SpvOpUGreaterThan: R[in->r].u = a > b; return in + 1;
	case SpvOpUGreaterThanEqual: R[in->r].u = a >= b; return in + 1;
	case SpvOpULessThan: R[in->r].u = a < b; return in + 1;
	case SpvOpULessThanEqual: R[in->r].u = a <= b; return in + 1;
	case SpvOpSGreaterThan: R[in->r].u = sa > sb; return in + 1;
	case SpvOpSGreaterThanEqual: R[in->r].u = sa >= sb; return in + 1;
	case SpvOpSLessThan: R[in->r].u = sa < sb; return in + 1;
	case SpvOpSLessThanEqual: R[in->r].u = sa <= sb; return in + 1;
	default: return fault(st, in, "internal error: 64-bit %s", rd_spirv_ins_name(in));
	}
	put64(R, in->r, v);
	return in + 1;
}

/* OpGroupNonUniformElect: every subgroup has one invocation (subgroupSize
 * 1), which is its elected one. */
HANDLER(elect)
{
	st->R[in->r].u = 1;
	return in + 1;
}

/* Struct pointer a; the runtime array starts at member offset b, stride c. */
HANDLER(array_length)
{
	uint64_t size;
	uint32_t reg = st->R[in->a].u, off = st->R[in->a + 1].u;
	if (!region(st, in, reg, &size))
		return NULL;
	uint64_t start = (uint64_t)off + in->b;
	st->R[in->r].u = size > start ? (uint32_t)((size - start) / in->c) : 0;
	return in + 1;
}

HANDLER(fence)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return in + 1;
}

/* OpControlBarrier: the run stops here until every invocation of the group
 * has arrived (rd_shader_run_group); a lone invocation goes straight on. */
HANDLER(control_barrier)
{
	st->status = RD_RUN_BARRIER;
	st->resume = in + 1;
	return NULL;
}

/* ------------------------------------------------------------------------ */
/* Functions and control flow (spec 3.42.9, 3.42.17)                        */

/* Arguments: pool x holds n triples {parameter slot, argument slot, words};
 * a is the callee's first instruction, r the result slot. */
HANDLER(call)
{
	const struct rd_program *p = st->p;
	union rd_word *R = st->R;
	const uint32_t *args = &p->pool[in->x];
	for (uint32_t i = 0; i < in->n; i++)
		copy_words(&R[args[3 * i]], &R[args[3 * i + 1]], args[3 * i + 2]);
	if (st->depth >= p->max_depth)
		return fault(st, in, "call stack overflow");
	union rd_word *frame = &R[p->stack + 2 * st->depth++];
	frame[0].u = (uint32_t)(in - st->code) + 1;
	frame[1].u = in->r;
	st->pred = 0;
	return st->code + in->a;
}

static const struct rd_ins *ret(struct rd_state *st, const struct rd_ins *in, const union rd_word *value)
{
	if (st->depth == 0) {
		st->status = RD_RUN_DONE;
		return NULL;
	}
	const union rd_word *frame = &st->R[st->p->stack + 2 * --st->depth];
	uint32_t back = frame[0].u, dst = frame[1].u;
	if (back >= st->p->ncode)
		return fault(st, in, "corrupt call stack");
	if (value)
		copy_words(&st->R[dst], value, in->n);
	return st->code + back;
}

HANDLER(ret)
{
	return ret(st, in, NULL);
}

HANDLER(ret_value)
{
	return ret(st, in, &st->R[in->a]);
}

/* r is the label of the block a branch ends: OpPhi needs it. */
HANDLER(branch)
{
	st->pred = in->r;
	return st->code + in->a;
}

HANDLER(branch_cond)
{
	st->pred = in->r;
	return st->code + (st->R[in->a].u ? in->b : in->c);
}

/* Selector a, default b, n {literal, target} pairs at pool x. */
HANDLER(switch)
{
	uint32_t v = st->R[in->a].u;
	const uint32_t *cases = &st->p->pool[in->x];
	st->pred = in->r;
	for (uint32_t i = 0; i < in->n; i++)
		if (cases[2 * i] == v)
			return st->code + cases[2 * i + 1];
	return st->code + in->b;
}

/* The OpPhi instructions that start a block, as one parallel copy: n phis
 * at pool x, each {dst slot, words, pairs, {label, src slot}...}; c words
 * in all.  All sources are read before any destination is written (spec
 * 2.2.5: phis take their values on the edge, simultaneously). */
HANDLER(phi)
{
	const struct rd_program *p = st->p;
	union rd_word *R = st->R, *tmp = &R[p->phi_tmp];
	const uint32_t *q = &p->pool[in->x];
	uint32_t at = 0;
	for (uint32_t i = 0; i < in->n; i++) {
		uint32_t words = q[1], pairs = q[2], k;
		for (k = 0; k < pairs && q[3 + 2 * k] != st->pred; k++)
			;
		if (k == pairs)
			return fault(st, in, "no operand for predecessor block %u", st->pred);
		memcpy(&tmp[at], &R[q[4 + 2 * k]], (size_t)words * 4);
		at += words;
		q += 3 + 2 * pairs;
	}
	q = &p->pool[in->x];
	at = 0;
	for (uint32_t i = 0; i < in->n; i++) {
		memcpy(&R[q[0]], &tmp[at], (size_t)q[1] * 4);
		at += q[1];
		q += 3 + 2 * q[2];
	}
	return in + 1;
}

HANDLER(kill)
{
	st->inv->discarded = true;
	st->status = RD_RUN_KILLED;
	return NULL;
}

HANDLER(unreachable)
{
	return fault(st, in, "executed");
}

/* ------------------------------------------------------------------------ */
/* Componentwise operations                                                 */

#define MAP1(name, T, field, expr)                                            \
	HANDLER(name)                                                         \
	{                                                                     \
		union rd_word *R = st->R;                                     \
		for (uint32_t i = 0; i < in->n; i++) {                        \
			T a = R[in->a + i].field;                             \
			expr;                                                 \
		}                                                             \
		return in + 1;                                                \
	}
#define MAP2(name, T, field, expr)                                            \
	HANDLER(name)                                                         \
	{                                                                     \
		union rd_word *R = st->R;                                     \
		for (uint32_t i = 0; i < in->n; i++) {                        \
			T a = R[in->a + i].field, b = R[in->b + i].field;     \
			expr;                                                 \
		}                                                             \
		return in + 1;                                                \
	}
#define MAP3(name, T, field, expr)                                            \
	HANDLER(name)                                                         \
	{                                                                     \
		union rd_word *R = st->R;                                     \
		for (uint32_t i = 0; i < in->n; i++) {                        \
			T a = R[in->a + i].field, b = R[in->b + i].field,     \
			  c = R[in->c + i].field;                             \
			expr;                                                 \
		}                                                             \
		return in + 1;                                                \
	}
#define OUT_U R[in->r + i].u
#define OUT_F R[in->r + i].f

/* 3.42.11 Conversion: out-of-range float to integer is undefined in SPIR-V
 * and in C; saturate (NaN gives 0). */
static uint32_t f_to_u(float a)
{
	if (!(a > 0.0f))
		return 0;
	return a >= 4294967296.0f ? 0xffffffffu : (uint32_t)a;
}

static int32_t f_to_s(float a)
{
	if (a != a)
		return 0;
	if (a >= 2147483648.0f)
		return INT32_MAX;
	if (a < -2147483648.0f)
		return INT32_MIN;
	return (int32_t)a;
}

MAP1(ftou, float, f, OUT_U = f_to_u(a))
MAP1(ftos, float, f, R[in->r + i].i = f_to_s(a))
MAP1(stof, int32_t, i, OUT_F = (float)a)
MAP1(utof, uint32_t, u, OUT_F = (float)a)

/* 3.42.13 Arithmetic: integer arithmetic wraps (unsigned in C). */
static uint32_t sdiv(uint32_t a, uint32_t b)
{
	int32_t x = (int32_t)a, y = (int32_t)b;
	if (y == 0)
		return 0;  /* undefined in SPIR-V */
	if (y == -1)
		return 0u - a;  /* INT32_MIN / -1 wraps instead of trapping */
	return (uint32_t)(x / y);
}

static uint32_t srem(uint32_t a, uint32_t b)
{
	int32_t x = (int32_t)a, y = (int32_t)b;
	return y == 0 || y == -1 ? 0 : (uint32_t)(x % y);
}

/* The sign of the result follows the divisor. */
static uint32_t smod(uint32_t a, uint32_t b)
{
	int32_t y = (int32_t)b, r = (int32_t)srem(a, b);
	if (r != 0 && (r < 0) != (y < 0))
		r += y;
	return (uint32_t)r;
}

static float fmod_floor(float a, float b)
{
	float r = fmodf(a, b);
	if (r != 0.0f && (r < 0.0f) != (b < 0.0f))
		r += b;
	return r;
}

MAP1(snegate, uint32_t, u, OUT_U = 0u - a)
MAP1(fnegate, float, f, OUT_F = -a)
MAP2(iadd, uint32_t, u, OUT_U = a + b)
MAP2(fadd, float, f, OUT_F = a + b)
MAP2(isub, uint32_t, u, OUT_U = a - b)
MAP2(fsub, float, f, OUT_F = a - b)
MAP2(imul, uint32_t, u, OUT_U = a * b)
MAP2(fmul, float, f, OUT_F = a * b)
MAP2(udiv, uint32_t, u, OUT_U = b ? a / b : 0)
MAP2(sdiv, uint32_t, u, OUT_U = sdiv(a, b))
MAP2(fdiv, float, f, OUT_F = a / b)
MAP2(umod, uint32_t, u, OUT_U = b ? a % b : 0)
MAP2(srem, uint32_t, u, OUT_U = srem(a, b))
MAP2(smod, uint32_t, u, OUT_U = smod(a, b))
MAP2(frem, float, f, OUT_F = fmodf(a, b))
MAP2(fmod, float, f, OUT_F = fmod_floor(a, b))

/* Vector (or matrix, n words) a times scalar b. */
HANDLER(vts)
{
	union rd_word *R = st->R;
	float s = R[in->b].f;
	for (uint32_t i = 0; i < in->n; i++)
		R[in->r + i].f = R[in->a + i].f * s;
	return in + 1;
}

static float dot(const union rd_word *a, uint32_t sa, const union rd_word *b, uint32_t sb, uint32_t n)
{
	float s = a[0].f * b[0].f;
	for (uint32_t i = 1; i < n; i++)
		s += a[i * sa].f * b[i * sb].f;
	return s;
}

HANDLER(dot)
{
	union rd_word *R = st->R;
	R[in->r].f = dot(&R[in->a], 1, &R[in->b], 1, in->n);
	return in + 1;
}

/* Matrices are columns of n rows; c columns. */
HANDLER(mtv)
{
	union rd_word *R = st->R;
	for (uint32_t i = 0; i < in->n; i++)
		R[in->r + i].f = dot(&R[in->a + i], in->n, &R[in->b], 1, in->c);
	return in + 1;
}

HANDLER(vtm)
{
	union rd_word *R = st->R;
	for (uint32_t j = 0; j < in->c; j++)
		R[in->r + j].f = dot(&R[in->a], 1, &R[in->b + j * in->n], 1, in->n);
	return in + 1;
}

/* A (x columns of n rows) times B (c columns of x rows). */
HANDLER(mtm)
{
	union rd_word *R = st->R;
	for (uint32_t j = 0; j < in->c; j++)
		for (uint32_t i = 0; i < in->n; i++)
			R[in->r + j * in->n + i].f = dot(&R[in->a + i], in->n, &R[in->b + j * in->x], 1, in->x);
	return in + 1;
}

HANDLER(outer)
{
	union rd_word *R = st->R;
	for (uint32_t j = 0; j < in->c; j++)
		for (uint32_t i = 0; i < in->n; i++)
			R[in->r + j * in->n + i].f = R[in->a + i].f * R[in->b + j].f;
	return in + 1;
}

/* Results are a struct {low, high} of n-component members. */
MAP2(iaddcarry, uint32_t, u, OUT_U = a + b; R[in->r + in->n + i].u = a + b < a)
MAP2(isubborrow, uint32_t, u, OUT_U = a - b; R[in->r + in->n + i].u = a < b)
MAP2(umulext, uint32_t, u, uint64_t m = (uint64_t)a * b; OUT_U = (uint32_t)m;
     R[in->r + in->n + i].u = (uint32_t)(m >> 32))
MAP2(smulext, int32_t, i, int64_t m = (int64_t)a * b; OUT_U = (uint32_t)(uint64_t)m;
     R[in->r + in->n + i].u = (uint32_t)((uint64_t)m >> 32))

/* 3.42.14 Bit: shifts of 32 or more are undefined; give what a wider shift
 * would. */
MAP2(shr, uint32_t, u, OUT_U = b < 32 ? a >> b : 0)
MAP2(sar, int32_t, i, R[in->r + i].i = (uint32_t)b < 32 ? a >> b : (a < 0 ? -1 : 0))
MAP2(shl, uint32_t, u, OUT_U = b < 32 ? a << b : 0)
MAP2(or, uint32_t, u, OUT_U = a | b)
MAP2(xor, uint32_t, u, OUT_U = a ^ b)
MAP2(and, uint32_t, u, OUT_U = a & b)
MAP1(not, uint32_t, u, OUT_U = ~a)

static uint32_t low_mask(uint32_t count)
{
	return count >= 32 ? 0xffffffffu : (1u << count) - 1;
}

/* base a, insert b, offset R[c], count R[x]; offset + count > 32 is
 * undefined: the base comes back unchanged. */
HANDLER(bfi)
{
	union rd_word *R = st->R;
	uint32_t off = R[in->c].u, count = R[in->x].u;
	for (uint32_t i = 0; i < in->n; i++) {
		uint32_t base = R[in->a + i].u;
		if (count == 0 || off >= 32 || count > 32 - off) {
			R[in->r + i].u = base;
			continue;
		}
		uint32_t mask = low_mask(count) << off;
		R[in->r + i].u = (base & ~mask) | ((R[in->b + i].u << off) & mask);
	}
	return in + 1;
}

static const struct rd_ins *extract(struct rd_state *st, const struct rd_ins *in, bool sign)
{
	union rd_word *R = st->R;
	uint32_t off = R[in->c].u, count = R[in->x].u;
	for (uint32_t i = 0; i < in->n; i++) {
		if (count == 0 || off >= 32 || count > 32 - off) {
			R[in->r + i].u = 0;
			continue;
		}
		uint32_t v = (R[in->a + i].u >> off) & low_mask(count);
		if (sign && count < 32 && (v >> (count - 1)) & 1u)
			v |= ~low_mask(count);
		R[in->r + i].u = v;
	}
	return in + 1;
}

HANDLER(bfse)
{
	return extract(st, in, true);
}

HANDLER(bfue)
{
	return extract(st, in, false);
}

static uint32_t bit_reverse(uint32_t v)
{
	v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
	v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
	v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
	v = ((v >> 8) & 0x00ff00ffu) | ((v & 0x00ff00ffu) << 8);
	return (v >> 16) | (v << 16);
}

MAP1(bitrev, uint32_t, u, OUT_U = bit_reverse(a))
MAP1(bitcount, uint32_t, u, OUT_U = (uint32_t)__builtin_popcount(a))

/* 3.42.15 Relational and Logical: booleans are 0 or 1. */
HANDLER(any)
{
	uint32_t v = 0;
	for (uint32_t i = 0; i < in->n; i++)
		v |= st->R[in->a + i].u;
	st->R[in->r].u = v != 0;
	return in + 1;
}

HANDLER(all)
{
	uint32_t v = 1;
	for (uint32_t i = 0; i < in->n; i++)
		v &= st->R[in->a + i].u != 0;
	st->R[in->r].u = v;
	return in + 1;
}

MAP1(isnan, float, f, OUT_U = isnan(a) != 0)
MAP1(isinf, float, f, OUT_U = isinf(a) != 0)
MAP2(leq, uint32_t, u, OUT_U = !a == !b)
MAP2(lne, uint32_t, u, OUT_U = !a != !b)
MAP2(lor, uint32_t, u, OUT_U = a || b)
MAP2(land, uint32_t, u, OUT_U = a && b)
MAP1(lnot, uint32_t, u, OUT_U = !a)

/* Scalar condition c picks all n words of a or b (composites: SPIR-V 1.4). */
HANDLER(select)
{
	union rd_word *R = st->R;
	copy_words(&R[in->r], &R[R[in->c].u ? in->a : in->b], in->n);
	return in + 1;
}

HANDLER(select_vec)
{
	union rd_word *R = st->R;
	for (uint32_t i = 0; i < in->n; i++)
		R[in->r + i] = R[(R[in->c + i].u ? in->a : in->b) + i];
	return in + 1;
}

MAP2(ieq, uint32_t, u, OUT_U = a == b)
MAP2(ine, uint32_t, u, OUT_U = a != b)
MAP2(ugt, uint32_t, u, OUT_U = a > b)
MAP2(sgt, int32_t, i, OUT_U = a > b)
MAP2(uge, uint32_t, u, OUT_U = a >= b)
MAP2(sge, int32_t, i, OUT_U = a >= b)
MAP2(ult, uint32_t, u, OUT_U = a < b)
MAP2(slt, int32_t, i, OUT_U = a < b)
MAP2(ule, uint32_t, u, OUT_U = a <= b)
MAP2(sle, int32_t, i, OUT_U = a <= b)
/* Ordered: false if either is NaN (C's relational operators already are);
 * unordered: true if either is NaN. */
MAP2(foeq, float, f, OUT_U = a == b)
MAP2(fueq, float, f, OUT_U = isunordered(a, b) || a == b)
MAP2(fone, float, f, OUT_U = !isunordered(a, b) && a != b)
MAP2(fune, float, f, OUT_U = a != b)
MAP2(folt, float, f, OUT_U = a < b)
MAP2(fult, float, f, OUT_U = !(a >= b))
MAP2(fogt, float, f, OUT_U = a > b)
MAP2(fugt, float, f, OUT_U = !(a <= b))
MAP2(fole, float, f, OUT_U = a <= b)
MAP2(fule, float, f, OUT_U = !(a > b))
MAP2(foge, float, f, OUT_U = a >= b)
MAP2(fuge, float, f, OUT_U = !(a < b))

/* ------------------------------------------------------------------------ */
/* Atomics (spec 3.42.18): pointer a, value b, comparator c.  Buffers may be */
/* shared with other queues running at once, so these are real atomics;    */
/* sequentially consistent covers every memory semantics operand.           */

static uint32_t *atomic_ptr(struct rd_state *st, const struct rd_ins *in)
{
	uint8_t *m = deref(st, in, in->a, 4);
	if (m && ((uintptr_t)m & 3u)) {
		fault(st, in, "misaligned atomic access");
		return NULL;
	}
	return (uint32_t *)(void *)m;
}

#define ATOMIC(name, expr)                                                    \
	HANDLER(name)                                                         \
	{                                                                     \
		uint32_t *m = atomic_ptr(st, in);                             \
		if (!m)                                                       \
			return NULL;                                          \
		uint32_t v = st->R[in->b].u;                                  \
		(void)v;                                                      \
		st->R[in->r].u = (expr);                                      \
		return in + 1;                                                \
	}

ATOMIC(atomic_load, __atomic_load_n(m, __ATOMIC_SEQ_CST))
ATOMIC(atomic_xchg, __atomic_exchange_n(m, v, __ATOMIC_SEQ_CST))
ATOMIC(atomic_inc, __atomic_fetch_add(m, 1u, __ATOMIC_SEQ_CST))
ATOMIC(atomic_dec, __atomic_fetch_sub(m, 1u, __ATOMIC_SEQ_CST))
ATOMIC(atomic_add, __atomic_fetch_add(m, v, __ATOMIC_SEQ_CST))
ATOMIC(atomic_sub, __atomic_fetch_sub(m, v, __ATOMIC_SEQ_CST))
ATOMIC(atomic_and, __atomic_fetch_and(m, v, __ATOMIC_SEQ_CST))
ATOMIC(atomic_or, __atomic_fetch_or(m, v, __ATOMIC_SEQ_CST))
ATOMIC(atomic_xor, __atomic_fetch_xor(m, v, __ATOMIC_SEQ_CST))

HANDLER(atomic_store)
{
	uint32_t *m = atomic_ptr(st, in);
	if (!m)
		return NULL;
	__atomic_store_n(m, st->R[in->b].u, __ATOMIC_SEQ_CST);
	return in + 1;
}

HANDLER(atomic_cmpxchg)
{
	uint32_t *m = atomic_ptr(st, in);
	if (!m)
		return NULL;
	uint32_t expected = st->R[in->c].u;
	/* On failure `expected` receives the current value; on success it
	 * already is the original value. */
	__atomic_compare_exchange_n(m, &expected, st->R[in->b].u, false, __ATOMIC_SEQ_CST,
				    __ATOMIC_SEQ_CST);
	st->R[in->r].u = expected;
	return in + 1;
}

/* Min/max: a compare-exchange loop (GCC has no fetch-min builtin). */
static const struct rd_ins *atomic_minmax(struct rd_state *st, const struct rd_ins *in, bool sign, bool max)
{
	uint32_t *m = atomic_ptr(st, in);
	if (!m)
		return NULL;
	uint32_t v = st->R[in->b].u, old = __atomic_load_n(m, __ATOMIC_SEQ_CST), want;
	do {
		bool less = sign ? (int32_t)v < (int32_t)old : v < old;
		want = less != max ? v : old;
	} while (!__atomic_compare_exchange_n(m, &old, want, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
	st->R[in->r].u = old;
	return in + 1;
}

HANDLER(atomic_smin)
{
	return atomic_minmax(st, in, true, false);
}

HANDLER(atomic_umin)
{
	return atomic_minmax(st, in, false, false);
}

HANDLER(atomic_smax)
{
	return atomic_minmax(st, in, true, true);
}

HANDLER(atomic_umax)
{
	return atomic_minmax(st, in, false, true);
}

/* ------------------------------------------------------------------------ */
/* GLSL.std.450 (the extended instruction set's own specification)          */

static float g_fsign(float a)
{
	return a > 0.0f ? 1.0f : a < 0.0f ? -1.0f : a;
}

static float g_fmin(float a, float b)
{
	return b < a ? b : a;  /* "y if y < x, otherwise x" */
}

static float g_fmax(float a, float b)
{
	return a < b ? b : a;  /* "y if x < y, otherwise x" */
}

static float g_smoothstep(float e0, float e1, float x)
{
	float t = g_fmin(g_fmax((x - e0) / (e1 - e0), 0.0f), 1.0f);
	return t * t * (3.0f - 2.0f * t);
}

static uint32_t g_find_smsb(int32_t a)
{
	uint32_t v = a < 0 ? ~(uint32_t)a : (uint32_t)a;
	return v ? 31u - (uint32_t)__builtin_clz(v) : 0xffffffffu;
}

MAP1(g_round, float, f, OUT_F = roundf(a))
MAP1(g_roundeven, float, f, OUT_F = nearbyintf(a))  /* default mode: to nearest even */
MAP1(g_trunc, float, f, OUT_F = truncf(a))
MAP1(g_fabs, float, f, OUT_F = fabsf(a))
MAP1(g_sabs, int32_t, i, OUT_U = a < 0 ? 0u - (uint32_t)a : (uint32_t)a)
MAP1(g_fsign, float, f, OUT_F = g_fsign(a))
MAP1(g_ssign, int32_t, i, R[in->r + i].i = a > 0 ? 1 : a < 0 ? -1 : 0)
MAP1(g_floor, float, f, OUT_F = floorf(a))
MAP1(g_ceil, float, f, OUT_F = ceilf(a))
MAP1(g_fract, float, f, OUT_F = a - floorf(a))
MAP1(g_radians, float, f, OUT_F = a * 0.017453292519943295f)
MAP1(g_degrees, float, f, OUT_F = a * 57.29577951308232f)
MAP1(g_sin, float, f, OUT_F = sinf(a))
MAP1(g_cos, float, f, OUT_F = cosf(a))
MAP1(g_tan, float, f, OUT_F = tanf(a))
MAP1(g_asin, float, f, OUT_F = asinf(a))
MAP1(g_acos, float, f, OUT_F = acosf(a))
MAP1(g_atan, float, f, OUT_F = atanf(a))
MAP1(g_sinh, float, f, OUT_F = sinhf(a))
MAP1(g_cosh, float, f, OUT_F = coshf(a))
MAP1(g_tanh, float, f, OUT_F = tanhf(a))
MAP1(g_asinh, float, f, OUT_F = asinhf(a))
MAP1(g_acosh, float, f, OUT_F = acoshf(a))
MAP1(g_atanh, float, f, OUT_F = atanhf(a))
MAP2(g_atan2, float, f, OUT_F = atan2f(a, b))
MAP2(g_pow, float, f, OUT_F = powf(a, b))
MAP1(g_exp, float, f, OUT_F = expf(a))
MAP1(g_log, float, f, OUT_F = logf(a))
MAP1(g_exp2, float, f, OUT_F = exp2f(a))
MAP1(g_log2, float, f, OUT_F = log2f(a))
MAP1(g_sqrt, float, f, OUT_F = sqrtf(a))
MAP1(g_isqrt, float, f, OUT_F = 1.0f / sqrtf(a))
MAP2(g_fmin, float, f, OUT_F = g_fmin(a, b))
MAP2(g_umin, uint32_t, u, OUT_U = b < a ? b : a)
MAP2(g_smin, int32_t, i, R[in->r + i].i = b < a ? b : a)
MAP2(g_fmax, float, f, OUT_F = g_fmax(a, b))
MAP2(g_umax, uint32_t, u, OUT_U = a < b ? b : a)
MAP2(g_smax, int32_t, i, R[in->r + i].i = a < b ? b : a)
MAP3(g_fclamp, float, f, OUT_F = g_fmin(g_fmax(a, b), c))
MAP3(g_uclamp, uint32_t, u, uint32_t t = a < b ? b : a; OUT_U = c < t ? c : t)
MAP3(g_sclamp, int32_t, i, int32_t t = a < b ? b : a; R[in->r + i].i = c < t ? c : t)
MAP3(g_fmix, float, f, OUT_F = a * (1.0f - c) + b * c)  /* "x * (1 - a) + y * a" */
MAP2(g_step, float, f, OUT_F = b < a ? 0.0f : 1.0f)
MAP3(g_smoothstep, float, f, OUT_F = g_smoothstep(a, b, c))
MAP3(g_fma, float, f, OUT_F = fmaf(a, b, c))
MAP2(g_nmin, float, f, OUT_F = fminf(a, b))
MAP2(g_nmax, float, f, OUT_F = fmaxf(a, b))
MAP3(g_nclamp, float, f, OUT_F = fminf(fmaxf(a, b), c))
MAP1(g_findilsb, uint32_t, u, OUT_U = a ? (uint32_t)__builtin_ctz(a) : 0xffffffffu)
MAP1(g_findsmsb, int32_t, i, OUT_U = g_find_smsb(a))
MAP1(g_findumsb, uint32_t, u, OUT_U = a ? 31u - (uint32_t)__builtin_clz(a) : 0xffffffffu)

/* n is the operands' component count. */
HANDLER(g_length)
{
	union rd_word *R = st->R;
	R[in->r].f = sqrtf(dot(&R[in->a], 1, &R[in->a], 1, in->n));
	return in + 1;
}

HANDLER(g_distance)
{
	union rd_word *R = st->R, d[4] = { { 0 } };
	for (uint32_t i = 0; i < in->n && i < 4; i++)
		d[i].f = R[in->a + i].f - R[in->b + i].f;
	R[in->r].f = sqrtf(dot(d, 1, d, 1, in->n < 4 ? in->n : 4));
	return in + 1;
}

HANDLER(g_cross)
{
	union rd_word *R = st->R;
	const union rd_word *a = &R[in->a], *b = &R[in->b];
	float x = a[1].f * b[2].f - b[1].f * a[2].f;
	float y = a[2].f * b[0].f - b[2].f * a[0].f;
	float z = a[0].f * b[1].f - b[0].f * a[1].f;
	R[in->r].f = x;
	R[in->r + 1].f = y;
	R[in->r + 2].f = z;
	return in + 1;
}

HANDLER(g_normalize)
{
	union rd_word *R = st->R;
	float len = sqrtf(dot(&R[in->a], 1, &R[in->a], 1, in->n));
	for (uint32_t i = 0; i < in->n; i++)
		R[in->r + i].f = R[in->a + i].f / len;
	return in + 1;
}

/* FaceForward(N, I, Nref): N if dot(Nref, I) < 0, else -N. */
HANDLER(g_faceforward)
{
	union rd_word *R = st->R;
	bool keep = dot(&R[in->c], 1, &R[in->b], 1, in->n) < 0.0f;
	for (uint32_t i = 0; i < in->n; i++)
		R[in->r + i].f = keep ? R[in->a + i].f : -R[in->a + i].f;
	return in + 1;
}

/* Reflect(I, N) = I - 2 * dot(N, I) * N */
HANDLER(g_reflect)
{
	union rd_word *R = st->R;
	float d = dot(&R[in->b], 1, &R[in->a], 1, in->n);
	for (uint32_t i = 0; i < in->n; i++)
		R[in->r + i].f = R[in->a + i].f - 2.0f * d * R[in->b + i].f;
	return in + 1;
}

/* Refract(I, N, eta) */
HANDLER(g_refract)
{
	union rd_word *R = st->R;
	float eta = R[in->c].f, d = dot(&R[in->b], 1, &R[in->a], 1, in->n);
	float k = 1.0f - eta * eta * (1.0f - d * d);
	for (uint32_t i = 0; i < in->n; i++)
		R[in->r + i].f = k < 0.0f ? 0.0f : eta * R[in->a + i].f - (eta * d + sqrtf(k)) * R[in->b + i].f;
	return in + 1;
}

/* ------------------------------------------------------------------------ */
/* An invocation's interface                                                */

/* The vertices per-vertex inputs read: a geometry shader's input
 * primitive, a control shader's input patch, an evaluation shader's output
 * patch of the control shader.  Elements past them read 0. */
struct vertex_source {
	const struct rd_stage_vertex *v;
	uint32_t n;
};

static struct vertex_source vertex_source(const struct rd_entry *e, const struct rd_invocation *inv)
{
	switch (e->info.stage) {
	case RD_STAGE_GEOMETRY: return (struct vertex_source){inv->gs_in, e->info.gs_input_vertices};
	case RD_STAGE_TESS_CONTROL: return (struct vertex_source){inv->gs_in, inv->patch_vertices};
	case RD_STAGE_TESS_EVAL: return (struct vertex_source){inv->patch->vtx, inv->patch->vertices};
	default: return (struct vertex_source){NULL, 0};
	}
}

static void builtins_in(const struct rd_program *p, const struct rd_entry *e, union rd_word *R,
			const struct rd_invocation *inv, struct vertex_source src)
{
	for (uint32_t i = 0; i < e->bin_count; i++) {
		const struct rd_io_builtin *b = &p->builtins[e->bin_first + i];
		union rd_word *d = &R[b->slot];
		const uint32_t *v3 = NULL;
		bool have = b->vtx < src.n;
		switch ((enum rd_builtin_io)b->kind) {
		case RD_BI_VERTEX_INDEX: d->u = inv->vertex_index; break;
		case RD_BI_INSTANCE_INDEX: d->u = inv->instance_index; break;
		case RD_BI_BASE_VERTEX: d->u = inv->base_vertex; break;
		case RD_BI_BASE_INSTANCE: d->u = inv->base_instance; break;
		case RD_BI_DRAW_INDEX: d->u = inv->draw_index; break;
		case RD_BI_VIEW_INDEX: d->u = inv->view_index; break;
		case RD_BI_FRAG_COORD: memcpy(d, inv->frag_coord, 16); break;
		case RD_BI_FRONT_FACING: d->u = inv->front_facing; break;
		case RD_BI_SAMPLE_ID: d->u = inv->sample_id; break;
		case RD_BI_SAMPLE_POSITION: memcpy(d, inv->sample_position, 8); break;
		case RD_BI_SAMPLE_MASK_IN: d->u = inv->sample_mask_in; break;
		case RD_BI_GLOBAL_ID: v3 = inv->global_id; break;
		case RD_BI_LOCAL_ID: v3 = inv->local_id; break;
		case RD_BI_WORKGROUP_ID: v3 = inv->workgroup_id; break;
		case RD_BI_NUM_WORKGROUPS: v3 = inv->num_workgroups; break;
		case RD_BI_LOCAL_INDEX: d->u = inv->local_index; break;
		case RD_BI_IN_POSITION:
			if (have)
				memcpy(d, src.v[b->vtx].position, 16);
			break;
		case RD_BI_IN_POINT_SIZE:
			if (have)
				d->f = src.v[b->vtx].point_size;
			break;
		case RD_BI_INVOCATION_ID: d->u = inv->invocation_id; break;
		case RD_BI_PRIMITIVE_ID: d->u = inv->primitive_id; break;
		case RD_BI_PATCH_VERTICES: d->u = src.n; break;
		case RD_BI_TESS_COORD: memcpy(d, inv->tess_coord, 12); break;
		case RD_BI_TESS_LEVEL_OUTER: memcpy(d, inv->patch->tess_outer, 16); break;
		case RD_BI_TESS_LEVEL_INNER: memcpy(d, inv->patch->tess_inner, 8); break;
		default: break;
		}
		if (v3)
			memcpy(d, v3, 12);
	}
}

static void builtins_out(const struct rd_program *p, const struct rd_entry *e, const union rd_word *R,
			 struct rd_invocation *inv)
{
	for (uint32_t i = 0; i < e->bout_count; i++) {
		const struct rd_io_builtin *b = &p->builtins[e->bout_first + i];
		const union rd_word *s = &R[b->slot];
		switch ((enum rd_builtin_io)b->kind) {
		case RD_BI_POSITION: memcpy(inv->position, s, 16); break;
		case RD_BI_POINT_SIZE: inv->point_size = s->f; break;
		case RD_BI_FRAG_DEPTH: inv->frag_depth = s->f; break;
		case RD_BI_SAMPLE_MASK_OUT: inv->sample_mask_out = s->u; break;
		default: break;
		}
	}
}

static void outputs_out(const struct rd_program *p, const struct rd_entry *e, const union rd_word *R,
			struct rd_invocation *inv)
{
	for (uint32_t i = 0; i < e->out_count; i++) {
		const struct rd_io_loc *l = &p->locs[e->out_first + i];
		memcpy(inv->out[l->loc], &R[l->slot], (size_t)l->n * 4);
	}
	builtins_out(p, e, R, inv);
}

/* Geometry shaders (spec "Geometry Shading"): OpEmitVertex and
 * OpEmitStreamVertex (in->a the stream) hand the current output values to
 * the pipeline as one vertex; OpEndPrimitive and OpEndStreamPrimitive end
 * the current output strip.  The values stay in the variables (the spec
 * makes them undefined after an emit: keeping them is one choice). */
const struct rd_ins *rd_ex_emit_vertex(struct rd_state *st, const struct rd_ins *in)
{
	const struct rd_entry *e = &st->p->entries[st->entry];
	struct rd_invocation *inv = st->inv;
	if (!inv->emit)
		return fault(st, in, "the pipeline takes no vertices from this stage");
	outputs_out(st->p, e, st->R, inv);
	if (inv->emit(inv->emit_user, in->a, inv) != 0)
		return fault(st, in, "the pipeline failed on the vertex (see its message)");
	return in + 1;
}

const struct rd_ins *rd_ex_end_primitive(struct rd_state *st, const struct rd_ins *in)
{
	if (st->inv->end_primitive)
		st->inv->end_primitive(st->inv->emit_user, in->a);
	return in + 1;
}

/* Mesh shading (spec "Mesh Shading", SPV_EXT_mesh_shader).
 * OpSetMeshOutputsEXT (a, b: the vertex and primitive counts) sets how
 * many of the workgroup's outputs count; a count above OutputVertices or
 * OutputPrimitivesEXT is undefined behaviour, a fault here, and so is a
 * second call by one invocation ("at most once").  OpEmitMeshTasksEXT
 * (a, b, c: the workgroup counts; r: the payload's byte offset, or ~0u)
 * ends the task invocation, launching the counts' product of mesh
 * workgroups. */
HANDLER(set_mesh_outputs)
{
	const struct rd_entry_info *info = &st->p->entries[st->entry].info;
	struct rd_invocation *inv = st->inv;
	uint32_t v = st->R[in->a].u, p = st->R[in->b].u;
	if (inv->mesh_outputs_set)
		return fault(st, in, "OpSetMeshOutputsEXT executed twice by one invocation");
	if (v > info->mesh_max_vertices || p > info->mesh_max_primitives)
		return fault(st, in, "OpSetMeshOutputsEXT(%u, %u) beyond OutputVertices %u or "
			     "OutputPrimitivesEXT %u", v, p, info->mesh_max_vertices,
			     info->mesh_max_primitives);
	inv->mesh_vertex_count = v;
	inv->mesh_primitive_count = p;
	inv->mesh_outputs_set = true;
	return in + 1;
}

HANDLER(emit_mesh_tasks)
{
	struct rd_invocation *inv = st->inv;
	inv->task_groups[0] = st->R[in->a].u;
	inv->task_groups[1] = st->R[in->b].u;
	inv->task_groups[2] = st->R[in->c].u;
	inv->task_emitted = true;
	st->status = RD_RUN_DONE;
	return NULL;
}

/* ------------------------------------------------------------------------ */
/* Runs: one invocation, or a group that shares memory                      */

static int arg_error(char *err, size_t errsize, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int arg_error(char *err, size_t errsize, const char *fmt, ...)
{
	if (err && errsize) {
		int n = snprintf(err, errsize, "rd_shader_run: ");
		va_list ap;
		va_start(ap, fmt);
		if (n > 0 && (size_t)n < errsize)
			vsnprintf(err + n, errsize - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* What a run needs from its caller, checked before anything is allocated. */
static int check_run(const struct rd_program *p, const struct rd_entry_info *entry, const struct rd_exec_env *env,
		     const struct rd_invocation *inv, char *err, size_t errsize)
{
	if (err && errsize)
		err[0] = 0;
	if (!entry || !env || !inv || entry->entry_id >= p->nentries)
		return arg_error(err, errsize, "bad arguments (entry %u of %u)", entry ? entry->entry_id : 0,
				 p->nentries);
	const struct rd_entry *e = &p->entries[entry->entry_id];
	enum rd_stage stage = e->info.stage;
	if (e->uses_push_constants && !env->push_constants)
		return arg_error(err, errsize, "the entry point uses push constants, env has none");
	if (((uintptr_t)inv->workgroup_memory & 3u) != 0)
		return arg_error(err, errsize, "workgroup memory is not 4-byte aligned");
	if (stage == RD_STAGE_GEOMETRY && !inv->gs_in)
		return arg_error(err, errsize, "a geometry shader without input vertices");
	if (stage == RD_STAGE_TESS_CONTROL &&
	    ((!inv->gs_in && inv->patch_vertices) || inv->patch_vertices > RD_MAX_PATCH_VERTICES ||
	     (!inv->workgroup_memory && e->info.workgroup_memory_size)))
		return arg_error(err, errsize, "a tessellation control shader without its input patch "
				 "(at most %u control points) or shared output memory", RD_MAX_PATCH_VERTICES);
	if (stage == RD_STAGE_TESS_EVAL && (!inv->patch || inv->patch->vertices > RD_MAX_PATCH_VERTICES))
		return arg_error(err, errsize, "a tessellation evaluation shader without its patch");
	if (stage == RD_STAGE_MESH && !inv->workgroup_memory && e->info.workgroup_memory_size)
		return arg_error(err, errsize, "a mesh shader without its shared output memory");
	return 0;
}

/* Sets up one invocation's state R (p->nstate words) and st; returns the
 * first instruction. */
static const struct rd_ins *run_begin(const struct rd_program *p, const struct rd_entry_info *entry,
				      const struct rd_exec_env *env, struct rd_invocation *inv,
				      union rd_word *R, struct rd_state *st, char *err, size_t errsize)
{
	const struct rd_entry *e = &p->entries[entry->entry_id];
	memcpy(R, p->tmpl, (size_t)p->nstate * 4);
	*st = (struct rd_state){
		.R = R,
		.p = p,
		.code = p->code,
		.env = env,
		.inv = inv,
		.wg = inv->workgroup_memory ? inv->workgroup_memory : (uint8_t *)&R[p->wg_slot],
		.err = err,
		.errsize = err ? errsize : 0,
		.cache_region = RD_REGION_NONE,
		.entry = entry->entry_id,
	};
	struct vertex_source src = vertex_source(e, inv);
	bool arrayed = e->info.stage == RD_STAGE_GEOMETRY || e->info.stage == RD_STAGE_TESS_CONTROL ||
		       e->info.stage == RD_STAGE_TESS_EVAL;
	for (uint32_t i = 0; i < e->in_count; i++) {
		const struct rd_io_loc *l = &p->locs[e->in_first + i];
		const uint32_t *from = NULL;
		if (l->vtx == RD_IO_PATCH)
			from = inv->patch->var[l->loc];
		else if (arrayed)
			from = l->vtx < src.n ? src.v[l->vtx].var[l->loc] : NULL;
		else
			from = inv->in[l->loc];
		if (from)
			memcpy(&R[l->slot], from, (size_t)l->n * 4);
	}
	builtins_in(p, e, R, inv, src);
	/* Locations outside output_mask are left alone: clearing all of
	 * inv->out costs more than many a fragment shader. */
	memset(inv->position, 0, sizeof(inv->position));
	inv->point_size = 1.0f;
	inv->frag_depth = inv->frag_coord[2];
	inv->sample_mask_out = ~0u;
	inv->discarded = false;
	/* FragDepth keeps the fragment's depth unless the shader writes it. */
	for (uint32_t i = 0; i < e->bout_count; i++)
		if (p->builtins[e->bout_first + i].kind == RD_BI_FRAG_DEPTH)
			R[p->builtins[e->bout_first + i].slot].f = inv->frag_coord[2];
	return &p->code[e->code];
}

/* Runs from ip until the invocation ends or reaches a control barrier
 * (st->status says which; st->resume is where it goes on). */
static void run_go(struct rd_state *st, const struct rd_ins *ip, uint32_t *budget)
{
	const struct rd_program *p = st->p;
	/* Instrumented: a block is entered whenever execution lands on its
	 * first instruction (entry, branch, call); nothing else lands there. */
	uint64_t *counts = st->inv->block_counts;
	st->status = RD_RUN_GOING;
	while (ip && counts) {
		uint32_t b = p->block_at[ip - p->code];
		if (b)
			counts[b - 1]++;
		ip = ip->fn(st, ip);
		if (--*budget == 0 && ip) {
			fault(st, ip, "step limit of %u instructions exceeded (an endless loop?)",
			      RD_SPIRV_STEP_LIMIT);
			ip = NULL;
		}
	}
	while (ip) {
		ip = ip->fn(st, ip);
		if (--*budget == 0 && ip) {
			fault(st, ip, "step limit of %u instructions exceeded (an endless loop?)",
			      RD_SPIRV_STEP_LIMIT);
			break;
		}
	}
}

/* Copies a finished invocation's outputs out (geometry shaders emitted
 * theirs, control shaders left them in the shared memory). */
static void run_end(struct rd_state *st)
{
	const struct rd_entry *e = &st->p->entries[st->entry];
	if (st->status == RD_RUN_DONE && e->info.stage != RD_STAGE_GEOMETRY &&
	    e->info.stage != RD_STAGE_TESS_CONTROL && e->info.stage != RD_STAGE_MESH)
		outputs_out(st->p, e, st->R, st->inv);
}

/* Invocation states up to this many words live on the stack. */
#define RD_RUN_STACK_WORDS 2048u

int rd_shader_run(const struct rd_shader *s, const struct rd_entry_info *entry, const struct rd_exec_env *env,
		  struct rd_invocation *inv, char *err, size_t errsize)
{
	const struct rd_program *p = &s->prog;
	if (check_run(p, entry, env, inv, err, errsize))
		return -1;
	union rd_word local[RD_RUN_STACK_WORDS];
	union rd_word *R = p->nstate <= RD_RUN_STACK_WORDS ? local : malloc((size_t)p->nstate * 4);
	if (!R)
		return arg_error(err, errsize, "out of memory");
	struct rd_state st;
	const struct rd_ins *ip = run_begin(p, entry, env, inv, R, &st, err, errsize);
	uint32_t budget = RD_SPIRV_STEP_LIMIT;
	run_go(&st, ip, &budget);
	/* alone, a control barrier waits for nobody */
	while (st.status == RD_RUN_BARRIER)
		run_go(&st, st.resume, &budget);
	run_end(&st);
	if (R != local)
		free(R);
	return st.status == RD_RUN_FAULT ? -1 : 0;
}

int rd_shader_run_group(const struct rd_shader *s, const struct rd_entry_info *entry,
			const struct rd_exec_env *env, struct rd_invocation *inv, uint32_t count,
			char *err, size_t errsize)
{
	const struct rd_program *p = &s->prog;
	if (!entry || entry->entry_id >= p->nentries || !p->entries[entry->entry_id].info.has_barrier) {
		for (uint32_t i = 0; i < count; i++)
			if (rd_shader_run(s, entry, env, &inv[i], err, errsize))
				return -1;
		return 0;
	}
	for (uint32_t i = 0; i < count; i++)
		if (check_run(p, entry, env, &inv[i], err, errsize))
			return -1;
	if (count == 0)
		return 0;
	union rd_word *R = malloc((size_t)count * p->nstate * 4);
	struct rd_state *st = calloc(count, sizeof(*st));
	uint32_t *budget = malloc((size_t)count * sizeof(*budget));
	int rc = 0;
	if (!R || !st || !budget) {
		rc = arg_error(err, errsize, "out of memory for a group of %u invocations", count);
		goto out;
	}
	for (uint32_t i = 0; i < count; i++) {
		budget[i] = RD_SPIRV_STEP_LIMIT;
		st[i].resume = run_begin(p, entry, env, &inv[i], R + (size_t)i * p->nstate, &st[i], err, errsize);
		st[i].status = RD_RUN_BARRIER; /* as if waiting at the start */
	}
	/* Phases: every waiting invocation runs to its next barrier or end. */
	for (;;) {
		uint32_t waiting = 0, ended = 0, first_ended = 0;
		for (uint32_t i = 0; i < count; i++) {
			if (st[i].status == RD_RUN_BARRIER)
				run_go(&st[i], st[i].resume, &budget[i]);
			if (st[i].status == RD_RUN_FAULT) {
				rc = -1;
				goto out;
			}
		}
		for (uint32_t i = 0; i < count; i++) {
			if (st[i].status == RD_RUN_BARRIER) {
				waiting++;
			} else if (!ended++) {
				first_ended = i;
			}
		}
		if (!waiting)
			break;
		if (ended) {
			/* spec 3.42.20 OpControlBarrier: "all active invocations
			 * ... must execute this instruction"; here one ended */
			rc = arg_error(err, errsize,
				       "OpControlBarrier: invocation %u ended while %u of the group wait at a "
				       "barrier (a control barrier must be in uniform control flow)",
				       first_ended, waiting);
			goto out;
		}
	}
	for (uint32_t i = 0; i < count; i++)
		run_end(&st[i]);
out:
	free(R);
	free(st);
	free(budget);
	return rc;
}

void rd_shader_patch_outputs(const struct rd_shader *s, const struct rd_entry_info *entry,
			     const uint8_t *shared, struct rd_patch *out)
{
	const struct rd_program *p = &s->prog;
	memset(out, 0, sizeof(*out));
	if (!entry || entry->entry_id >= p->nentries)
		return;
	const struct rd_entry *e = &p->entries[entry->entry_id];
	out->vertices = e->info.tess_output_vertices;
	if (e->info.stage != RD_STAGE_TESS_CONTROL || !shared)
		return;
	for (uint32_t i = 0; i < e->out_count; i++) {
		const struct rd_io_loc *l = &p->locs[e->out_first + i];
		const uint8_t *from = shared + (size_t)l->slot * 4;
		if (l->vtx == RD_IO_PATCH)
			memcpy(out->var[l->loc], from, (size_t)l->n * 4);
		else if (l->vtx < RD_MAX_PATCH_VERTICES)
			memcpy(out->vtx[l->vtx].var[l->loc], from, (size_t)l->n * 4);
	}
	for (uint32_t i = 0; i < e->bout_count; i++) {
		const struct rd_io_builtin *b = &p->builtins[e->bout_first + i];
		const uint8_t *from = shared + (size_t)b->slot * 4;
		struct rd_stage_vertex *v = b->vtx < RD_MAX_PATCH_VERTICES ? &out->vtx[b->vtx] : NULL;
		switch ((enum rd_builtin_io)b->kind) {
		case RD_BI_POSITION: if (v) memcpy(v->position, from, 16); break;
		case RD_BI_POINT_SIZE: if (v) memcpy(&v->point_size, from, 4); break;
		case RD_BI_TESS_LEVEL_OUTER: memcpy(out->tess_outer, from, 16); break;
		case RD_BI_TESS_LEVEL_INNER: memcpy(out->tess_inner, from, 8); break;
		default: break;
		}
	}
}

/* Mesh outputs (spec "Mesh Shader Output"): element v or i of each output
 * array, from the shared memory the workgroup's invocations wrote. */
void rd_shader_mesh_vertex(const struct rd_shader *s, const struct rd_entry_info *entry,
			   const uint8_t *shared, uint32_t v, struct rd_stage_vertex *out)
{
	const struct rd_program *p = &s->prog;
	memset(out, 0, sizeof(*out));
	out->point_size = 1.0f; /* not written: the primitive is no point, or 1.0 is one choice */
	if (!entry || entry->entry_id >= p->nentries || !shared)
		return;
	const struct rd_entry *e = &p->entries[entry->entry_id];
	if (e->info.stage != RD_STAGE_MESH || v >= e->info.mesh_max_vertices)
		return;
	for (uint32_t i = 0; i < e->out_count; i++) {
		const struct rd_io_loc *l = &p->locs[e->out_first + i];
		if (!l->prim)
			memcpy(out->var[l->loc], shared + ((size_t)l->slot + (size_t)v * l->stride) * 4,
			       (size_t)l->n * 4);
	}
	for (uint32_t i = 0; i < e->bout_count; i++) {
		const struct rd_io_builtin *b = &p->builtins[e->bout_first + i];
		const uint8_t *from = shared + ((size_t)b->slot + (size_t)v * b->stride) * 4;
		if (b->prim)
			continue;
		if (b->kind == RD_BI_POSITION)
			memcpy(out->position, from, 16);
		else if (b->kind == RD_BI_POINT_SIZE && e->info.writes_point_size)
			memcpy(&out->point_size, from, 4);
	}
}

void rd_shader_mesh_primitive(const struct rd_shader *s, const struct rd_entry_info *entry,
			      const uint8_t *shared, uint32_t i, struct rd_mesh_primitive *out)
{
	const struct rd_program *p = &s->prog;
	memset(out, 0, sizeof(*out));
	if (!entry || entry->entry_id >= p->nentries || !shared)
		return;
	const struct rd_entry *e = &p->entries[entry->entry_id];
	if (e->info.stage != RD_STAGE_MESH || i >= e->info.mesh_max_primitives)
		return;
	uint32_t nidx = (uint32_t)e->info.mesh_output; /* 1 points, 2 lines, 3 triangles */
	for (uint32_t k = 0; k < e->out_count; k++) {
		const struct rd_io_loc *l = &p->locs[e->out_first + k];
		if (l->prim)
			memcpy(out->var[l->loc], shared + ((size_t)l->slot + (size_t)i * l->stride) * 4,
			       (size_t)l->n * 4);
	}
	for (uint32_t k = 0; k < e->bout_count; k++) {
		const struct rd_io_builtin *b = &p->builtins[e->bout_first + k];
		const uint8_t *from = shared + ((size_t)b->slot + (size_t)i * b->stride) * 4;
		if (!b->prim)
			continue;
		if (b->kind == RD_BI_PRIMITIVE_INDICES) {
			memcpy(out->index, from, (size_t)nidx * 4);
		} else if (b->kind == RD_BI_CULL_PRIMITIVE) {
			uint32_t w;
			memcpy(&w, from, 4);
			out->cull = w != 0;
		}
	}
}

void rd_shader_workgroup_invocations(struct rd_invocation *inv, const uint32_t local_size[3],
				     const uint32_t id[3], const uint32_t count[3], uint8_t *shared)
{
	const uint32_t *ls = local_size;
	uint32_t n = ls[0] * ls[1] * ls[2];
	for (uint32_t i = 0; i < n; i++) {
		uint32_t l[3] = {i % ls[0], i / ls[0] % ls[1], i / ls[0] / ls[1]};
		memset(&inv[i], 0, sizeof(inv[i]));
		for (int k = 0; k < 3; k++) {
			inv[i].workgroup_id[k] = id[k];
			inv[i].local_id[k] = l[k];
			inv[i].global_id[k] = id[k] * ls[k] + l[k];
			inv[i].num_workgroups[k] = count[k];
		}
		inv[i].local_index = i;
		inv[i].workgroup_memory = shared;
	}
}
