/* Execution of memory instructions (spec 3.42.8: loads, stores, access
 * chains, array lengths, device addresses), input attachment reads, atomics
 * (spec 3.42.18) and barriers; decoded by memory.c and image.c. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "exec.h"

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
			rd_exec_fault(st, in, "no push constants");
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
			rd_exec_fault(st, in, "invalid descriptor pointer 0x%08x", reg);
			return NULL;
		}
		const struct rd_desc *d = &p->descs[k];
		const struct rd_buffer_range *b =
			st->env->buffer ? st->env->buffer(st->env->user, d->set, d->binding, el) : NULL;
		if (!b || !b->data) {
			rd_exec_fault(st, in, "no buffer bound at set %u binding %u element %u", d->set, d->binding, el);
			return NULL;
		}
		st->cache_region = reg;
		st->cache_data = b->data;
		st->cache_size = b->size;
		*size = b->size;
		return b->data;
	}
	rd_exec_fault(st, in, "access through an invalid pointer (region 0x%08x)", reg);
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
			rd_exec_fault(st, in, "no buffer holds device addresses 0x%llx..0x%llx (%llu bytes)",
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
		rd_exec_fault(st, in, "out-of-bounds access: bytes %u..%llu of a %llu-byte %s", off,
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
		return rd_exec_fault(st, in, "input attachment %u: nothing to read at (%lld, %lld) sample %u", index,
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
		return rd_exec_fault(st, in, "no push constants");
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
			return rd_exec_fault(st, in, "index %lld out of bounds (%u)", (long long)idx, t[2]);
		if (t[3] & 2u)
			reg += (uint32_t)idx;  /* an element of a descriptor array */
		else
			off += (uint64_t)idx * t[1];
	}
	if (is_address(reg)) {
		/* A device address: the offset is its low 32 bits. */
		uint64_t addr = ((uint64_t)(reg & RD_REGION_ADDR_HIGH) << 32) + off;
		if (addr >> 32 > RD_REGION_ADDR_HIGH)
			return rd_exec_fault(st, in, "device address beyond 2^62");
		R[in->r].u = RD_REGION_ADDR | (uint32_t)(addr >> 32);
		R[in->r + 1].u = (uint32_t)addr;
		return in + 1;
	}
	if (off > 0xffffffffu)
		return rd_exec_fault(st, in, "out-of-bounds offset %llu (beyond 4 GiB)", (unsigned long long)off);
	R[in->r].u = reg;
	R[in->r + 1].u = (uint32_t)off;
	return in + 1;
}

/* Device addresses ---------------------------------------------------------*/

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
		return rd_exec_fault(st, in, "device address 0x%llx beyond 2^62", (unsigned long long)addr);
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
		return rd_exec_fault(st, in, "pointer of region 0x%08x has no device address", reg);
	uint64_t addr = (uint64_t)(reg & RD_REGION_ADDR_HIGH) << 32 | R[in->a + 1].u;
	if (in->n == 1)
		R[in->r].u = (uint32_t)addr;
	else
		put64(R, in->r, addr);
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
/* Atomics (spec 3.42.18): pointer a, value b, comparator c.  Buffers may be */
/* shared with other queues running at once, so these are real atomics;    */
/* sequentially consistent covers every memory semantics operand.           */

static uint32_t *atomic_ptr(struct rd_state *st, const struct rd_ins *in)
{
	uint8_t *m = deref(st, in, in->a, 4);
	if (m && ((uintptr_t)m & 3u)) {
		rd_exec_fault(st, in, "misaligned atomic access");
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
