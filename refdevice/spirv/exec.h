/* Private to the SPIR-V interpreter's execution (exec_*.c, see program.h):
 * what its handlers share.  A handler executes one decoded instruction and
 * returns the next; it trusts what the front end (front.h) checked
 * statically (slots, types, code indices) and checks at run time what it
 * could not: pointer values against their region, dynamic indices, the
 * call stack.
 *
 * Float arithmetic is IEEE single precision as C does it on float (no fast
 * math, no contraction across instructions); where SPIR-V leaves a result
 * undefined (integer division by zero, shifts by 32 or more, float to
 * integer conversions out of range) the handler picks a value instead of
 * letting C's undefined behaviour happen.
 *
 * One file per concern, each decoded by the front-end file named:
 *
 *   exec_composites.c  construct, extract, insert, shuffle (composites.c)
 *   exec_arithmetic.c  conversions, arithmetic, bits, relations, 64-bit
 *                      integers (arithmetic.c)
 *   exec_glsl.c        GLSL.std.450 (arithmetic.c)
 *   exec_memory.c      loads, stores, access chains, device addresses,
 *                      input attachments, atomics, barriers (memory.c, image.c)
 *   exec_control.c     calls, returns, branches, phis, kills (control.c)
 *   exec_run.c         an invocation's inputs and outputs, geometry and mesh
 *                      outputs, the runs (rd_shader_run, rd_shader_run_group)
 *
 * The helpers below run inside the hot handlers, so they are static inline
 * here rather than functions of one file. */
#ifndef RD_SPIRV_EXEC_H
#define RD_SPIRV_EXEC_H

#include <stdint.h>

#include "program.h"

#define HANDLER(name) const struct rd_ins *rd_ex_##name(struct rd_state *st, const struct rd_ins *in)

/* Ends the invocation with a fault: st->status RD_RUN_FAULT, the message
 * (after the instruction's word and name) in st->err; returns NULL, for a
 * handler to return. */
const struct rd_ins *rd_exec_fault(struct rd_state *st, const struct rd_ins *in, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Word loops rather than memmove: the copies are short (mostly one word),
 * and a loop stays defined even if a broken module makes them overlap. */
static inline void copy_words(union rd_word *dst, const union rd_word *src, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		dst[i] = src[i];
}

/* 64-bit integers and device addresses: two words, low one first. */
static inline uint64_t get64(const union rd_word *R, uint32_t s)
{
	return (uint64_t)R[s].u | (uint64_t)R[s + 1].u << 32;
}

static inline void put64(union rd_word *R, uint32_t s, uint64_t v)
{
	R[s].u = (uint32_t)v;
	R[s + 1].u = (uint32_t)(v >> 32);
}

/* Dot product of n floats at strides sa and sb. */
static inline float dot(const union rd_word *a, uint32_t sa, const union rd_word *b, uint32_t sb, uint32_t n)
{
	float s = a[0].f * b[0].f;
	for (uint32_t i = 1; i < n; i++)
		s += a[i * sa].f * b[i * sb].f;
	return s;
}

/* Componentwise handlers: expr computes component i from a (and b, c). */
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

#endif
