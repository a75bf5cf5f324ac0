/* Execution of conversions, arithmetic, bit, relational and logical
 * instructions (spec 3.42.11, 3.42.13 to 3.42.15; decoded by arithmetic.c),
 * 32-bit componentwise and 64-bit scalar, and OpGroupNonUniformElect. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include <spirv/unified1/spirv.h>

#include "exec.h"

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

/* 64-bit integers ----------------------------------------------------------*/

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
	default: return rd_exec_fault(st, in, "internal error: 64-bit %s", rd_spirv_ins_name(in));
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
