/* Conversion, arithmetic, bit, relational and logical instructions
 * (spec 3.42.11, 3.42.13 to 3.42.15), GLSL.std.450 and the miscellaneous
 * ones (spec 3.42.1: OpUndef; helper invocations). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

#include "front.h"

/* In the opcode table, desc->arg names the operand kind. */

/* The kind of value id, T_VOID when it is none (its decoder says why). */
static enum tkind kind_of(struct rd_parse *c, uint32_t id)
{
	if (id == 0 || id >= c->bound || c->ids[id].kind != ID_VALUE)
		return T_VOID;
	return (enum tkind)T(c, c->ids[id].type)->kind;
}

/* An integer operation on 64-bit scalars (rd_ex_i64, by opcode): the
 * integer instructions of the opcode table but the bit-field ones. */
static bool dec_int64(struct rd_parse *c, const struct opdesc *od, uint32_t nops)
{
	bool shift = c->op == SpvOpShiftLeftLogical || c->op == SpvOpShiftRightLogical ||
		     c->op == SpvOpShiftRightArithmetic;
	switch (c->op) {
	case SpvOpSNegate: case SpvOpNot: case SpvOpIAdd: case SpvOpISub: case SpvOpIMul:
	case SpvOpUDiv: case SpvOpUMod: case SpvOpBitwiseOr: case SpvOpBitwiseXor:
	case SpvOpBitwiseAnd: case SpvOpShiftLeftLogical: case SpvOpShiftRightLogical:
	case SpvOpShiftRightArithmetic: case SpvOpIEqual: case SpvOpINotEqual:
	case SpvOpUGreaterThan: case SpvOpUGreaterThanEqual: case SpvOpULessThan:
	case SpvOpULessThanEqual: case SpvOpSGreaterThan: case SpvOpSGreaterThanEqual:
	case SpvOpSLessThan: case SpvOpSLessThanEqual:
		break;
	default:
		return fail(c, "unsupported: %s of 64-bit integers", opname(c->op));
	}
	uint32_t t, sa, sb = 0, bw = 0;
	if (!need_words(c, 3 + nops, 3 + nops) || !get_type(c, W(c, 1)) || !use_value(c, W(c, 3), &t, &sa))
		return false;
	if (nops == 2) {
		uint32_t tb;
		if (!use_value(c, W(c, 4), &tb, &sb))
			return false;
		enum tkind kb = (enum tkind)T(c, tb)->kind;
		if (kb != T_INT64 && !(shift && kb == T_INT))
			return fail(c, "%s: operand %u is not a 64-bit integer", opname(c->op), W(c, 4));
		bw = T(c, tb)->words;
	}
	enum tkind rk = (enum tkind)T(c, W(c, 1))->kind;
	if (rk != (od->arg2 ? (enum tkind)od->arg2 : T_INT64))
		return fail(c, "%s: result type %u must be a %s scalar", opname(c->op), W(c, 1),
			    kind_name(od->arg2 ? (enum tkind)od->arg2 : T_INT64));
	struct pid *d = def_value(c, W(c, 2), W(c, 1));
	struct rd_ins *in = d ? emit(c, rd_ex_i64) : NULL;
	if (!in)
		return false;
	in->r = d->slot;
	in->a = sa;
	in->b = sb;
	in->c = bw;
	in->n = 1;
	return true;
}

/* Same-shape operation: result and n operands scalars/vectors of one kind
 * (result kind arg2 if nonzero, e.g. bool for comparisons). */
static bool dec_numeric(struct rd_parse *c, const struct opdesc *od, uint32_t nops)
{
	uint32_t n, s[3] = { 0, 0, 0 };
	if (od->arg == T_INT && c->wc > 3 && kind_of(c, W(c, 3)) == T_INT64)
		return dec_int64(c, od, nops);
	enum tkind rk = od->arg2 ? (enum tkind)od->arg2 : (enum tkind)od->arg;
	if (!need_words(c, 3 + nops, 3 + nops) || !result_num(c, W(c, 1), rk, &n))
		return false;
	for (uint32_t i = 0; i < nops; i++)
		if (!operand_num(c, W(c, 3 + i), (enum tkind)od->arg, n, &s[i]))
			return false;
	/* Floats of one width are one type; integers may differ in signedness. */
	struct pid *d = def_value(c, W(c, 2), W(c, 1));
	struct rd_ins *in = d ? emit(c, od->fn) : NULL;
	if (!in)
		return false;
	in->r = d->slot;
	in->a = s[0];
	in->b = s[1];
	in->c = s[2];
	in->n = n;
	return true;
}

bool dec_unary(struct rd_parse *c, const struct opdesc *d)
{
	return dec_numeric(c, d, 1);
}

bool dec_binary(struct rd_parse *c, const struct opdesc *d)
{
	return dec_numeric(c, d, 2);
}

/* Words of a number or PhysicalStorageBuffer pointer type for OpBitcast,
 * 0 when it is neither. */
static uint32_t bitcast_words(struct rd_parse *c, uint32_t tid)
{
	const struct ptype *t = T(c, tid);
	if (t->kind == T_POINTER)
		return is_address_type(c, tid) && t->elem != NONE ? 2 : 0;
	if (t->kind == T_INT64)
		return 2;
	return ncomp_of(c, tid, T_INT) + ncomp_of(c, tid, T_FLOAT);
}

/* A conversion between an integer of n words (1 or 2) and a
 * PhysicalStorageBuffer pointer: OpConvertUToPtr, OpConvertPtrToU and the
 * OpBitcasts between them. */
static bool dec_address_convert(struct rd_parse *c, uint32_t s, uint32_t n, bool to_ptr)
{
	uint32_t rt = W(c, 1);
	struct pid *d = def_result(c, W(c, 2), rt);
	struct rd_ins *in = d ? emit(c, to_ptr ? rd_ex_address_to_ptr : rd_ex_ptr_to_address) : NULL;
	if (!in)
		return false;
	in->r = d->slot;
	in->a = s;
	in->n = n;
	return true;
}

/* Conversions that keep every bit (32-bit to 32-bit) share the operand's slot. */
bool dec_convert(struct rd_parse *c, const struct opdesc *od)
{
	uint32_t n, s, t;
	if (!need_words(c, 4, 4))
		return false;
	if (od->fn)
		return dec_numeric(c, od, 1);
	if (c->op == SpvOpConvertUToPtr || c->op == SpvOpConvertPtrToU) {
		bool to_ptr = c->op == SpvOpConvertUToPtr;
		if (!get_type(c, W(c, 1)) || !use_value(c, W(c, 3), &t, &s))
			return false;
		uint32_t it = to_ptr ? t : W(c, 1), pt = to_ptr ? W(c, 1) : t;
		enum tkind ik = (enum tkind)T(c, it)->kind;
		if (ik != T_INT && ik != T_INT64)
			return fail(c, "%s: %u is not an integer scalar type", opname(c->op), it);
		if (!is_address_type(c, pt))
			return fail(c, "%s: %u is not a PhysicalStorageBuffer pointer type", opname(c->op), pt);
		return dec_address_convert(c, s, T(c, it)->words, to_ptr);
	}
	if ((c->op == SpvOpUConvert || c->op == SpvOpSConvert) &&
	    (kind_of(c, W(c, 3)) == T_INT64 || (get_type(c, W(c, 1)) && T(c, W(c, 1))->kind == T_INT64))) {
		/* Between 32 and 64 bits: scalars only (no 64-bit vectors). */
		if (!use_value(c, W(c, 3), &t, &s))
			return false;
		enum tkind rk = (enum tkind)T(c, W(c, 1))->kind, ok = (enum tkind)T(c, t)->kind;
		if ((rk != T_INT && rk != T_INT64) || (ok != T_INT && ok != T_INT64))
			return fail(c, "%s: needs integer scalars", opname(c->op));
		if (rk == T_INT || ok == T_INT64)  /* narrowing or same width: the low word */
			return def_alias(c, W(c, 2), W(c, 1), s) != NULL;
		struct pid *d = def_value(c, W(c, 2), W(c, 1));
		struct rd_ins *in = d ? emit(c, c->op == SpvOpSConvert ? rd_ex_sext : rd_ex_uext) : NULL;
		if (!in)
			return false;
		in->r = d->slot;
		in->a = s;
		return true;
	}
	if (c->op == SpvOpBitcast) {
		if (!get_type(c, W(c, 1)) || !use_value(c, W(c, 3), &t, &s))
			return false;
		bool rp = T(c, W(c, 1))->kind == T_POINTER, op = T(c, t)->kind == T_POINTER;
		if (rp || op || T(c, W(c, 1))->kind == T_INT64 || T(c, t)->kind == T_INT64) {
			n = bitcast_words(c, W(c, 1));
			if (n == 0 || n != bitcast_words(c, t))
				return fail(c, "OpBitcast: types %u and %u are not numbers or PhysicalStorageBuffer "
					    "pointers of equal size", W(c, 1), t);
			if (rp != op)
				return dec_address_convert(c, s, 2, rp);
			if (!rp)
				return def_alias(c, W(c, 2), W(c, 1), s) != NULL;
			/* pointer to pointer: the same address, another pointee */
			struct pid *d = def_address_ptr(c, W(c, 2), W(c, 1));
			struct rd_ins *in = d ? emit(c, rd_ex_copy) : NULL;
			if (!in)
				return false;
			in->r = d->slot;
			in->a = s;
			in->n = 2;
			return true;
		}
		if (!get_type(c, W(c, 1)) || !use_value(c, W(c, 3), &t, &s))
			return false;
		n = ncomp_of(c, W(c, 1), T_INT) + ncomp_of(c, W(c, 1), T_FLOAT);
		uint32_t m = ncomp_of(c, t, T_INT) + ncomp_of(c, t, T_FLOAT);
		if (n == 0 || n != m)
			return fail(c, "OpBitcast: types %u and %u are not 32-bit numbers of equal count", W(c, 1), t);
	} else if (!result_num(c, W(c, 1), (enum tkind)od->arg, &n) ||
		   !operand_num(c, W(c, 3), (enum tkind)od->arg, n, &s)) {
		return false;
	}
	return def_alias(c, W(c, 2), W(c, 1), s) != NULL;
}

bool dec_select(struct rd_parse *c, const struct opdesc *od)
{
	uint32_t ct, cs, s1, s2;
	if (!need_words(c, 6, 6) || !get_type(c, W(c, 1)) || !use_value(c, W(c, 3), &ct, &cs) ||
	    !value_of(c, W(c, 4), W(c, 1), &s1) || !value_of(c, W(c, 5), W(c, 1), &s2))
		return false;
	const struct ptype *t = T(c, W(c, 1));
	uint32_t nc = ncomp_of(c, ct, T_BOOL);
	if (t->kind == T_POINTER && !is_address_type(c, W(c, 1)))
		return fail(c, "OpSelect of pointers needs VariablePointers (unsupported)");
	if (nc == 0 || (nc > 1 && (t->kind != T_VECTOR || t->count != nc)))
		return fail(c, "OpSelect: condition %u does not match the result", W(c, 3));
	struct pid *d = def_result(c, W(c, 2), W(c, 1));
	struct rd_ins *in = d ? emit(c, nc > 1 ? rd_ex_select_vec : od->fn) : NULL;
	if (!in)
		return false;
	in->r = d->slot;
	in->a = s1;
	in->b = s2;
	in->c = cs;
	in->n = t->words;
	return true;
}

/* OpAny, OpAll: a bool from a bool vector. */
bool dec_reduce(struct rd_parse *c, const struct opdesc *od)
{
	uint32_t n, t, s;
	if (!need_words(c, 4, 4) || !result_num(c, W(c, 1), T_BOOL, &n) || !use_value(c, W(c, 3), &t, &s))
		return false;
	uint32_t m = ncomp_of(c, t, T_BOOL);
	if (n != 1 || m == 0)
		return fail(c, "%s: needs a bool vector and a bool result", opname(c->op));
	struct pid *d = def_value(c, W(c, 2), W(c, 1));
	struct rd_ins *in = d ? emit(c, od->fn) : NULL;
	if (!in)
		return false;
	in->r = d->slot;
	in->a = s;
	in->n = m;
	return true;
}

/* Vector, matrix products (spec 3.42.13).  arg: 0 VectorTimesScalar /
 * MatrixTimesScalar, 1 Dot, 2 MatrixTimesVector, 3 VectorTimesMatrix,
 * 4 MatrixTimesMatrix, 5 OuterProduct. */
bool dec_linear(struct rd_parse *c, const struct opdesc *od)
{
	uint32_t rt = W(c, 1), ta, sa, tb, sb;
	if (!need_words(c, 5, 5) || !get_type(c, rt) || !use_value(c, W(c, 3), &ta, &sa) ||
	    !use_value(c, W(c, 4), &tb, &sb))
		return false;
	const struct ptype *r = T(c, rt), *a = T(c, ta), *b = T(c, tb);
	uint32_t rows = 0, inner = 0, cols = 0, n = r->words;
	bool ok;
	switch (od->arg) {
	case 0:  /* result and a the same float vector/matrix type, b its float scalar */
		ok = ta == rt && T(c, tb)->kind == T_FLOAT &&
		     (c->op == SpvOpVectorTimesScalar ? ncomp_of(c, rt, T_FLOAT) > 1 && r->elem == tb
						      : r->kind == T_MATRIX && T(c, r->elem)->elem == tb);
		break;
	case 1:
		ok = ta == tb && a->kind == T_VECTOR && ncomp_of(c, ta, T_FLOAT) && a->elem == rt;
		n = a->count;
		break;
	case 2:  /* M (cols of rows) x v(cols) = v(rows) */
		ok = a->kind == T_MATRIX && a->elem == rt && b->kind == T_VECTOR && b->count == a->count &&
		     b->elem == r->elem;
		rows = r->count, cols = a->count;
		break;
	case 3:  /* v(rows) x M = v(cols) */
		ok = b->kind == T_MATRIX && b->elem == ta && r->kind == T_VECTOR && r->count == b->count &&
		     r->elem == a->elem;
		rows = a->count, cols = b->count;
		break;
	case 4:  /* A (inner cols of rows) x B (cols of inner) = R (cols of rows) */
		ok = r->kind == T_MATRIX && a->kind == T_MATRIX && b->kind == T_MATRIX &&
		     a->elem == r->elem && b->count == r->count && T(c, b->elem)->count == a->count;
		rows = r->kind == T_MATRIX ? T(c, r->elem)->count : 0;
		inner = a->count, cols = r->count;
		break;
	default:  /* outer product: a (rows) x b (cols) */
		ok = r->kind == T_MATRIX && r->elem == ta && b->kind == T_VECTOR && b->count == r->count &&
		     b->elem == a->elem;
		rows = a->count, cols = r->count;
		break;
	}
	if (!ok)
		return fail(c, "%s: operand or result types do not match", opname(c->op));
	struct pid *d = def_value(c, W(c, 2), rt);
	struct rd_ins *in = d ? emit(c, od->fn) : NULL;
	if (!in)
		return false;
	in->r = d->slot;
	in->a = sa;
	in->b = sb;
	in->n = od->arg >= 2 ? rows : n;
	in->c = cols;
	in->x = inner;
	return true;
}

/* OpIAddCarry, OpISubBorrow, OpUMulExtended, OpSMulExtended: a struct of
 * two members of the operands' type. */
bool dec_extended(struct rd_parse *c, const struct opdesc *od)
{
	uint32_t rt = W(c, 1), ta, sa, sb;
	if (!need_words(c, 5, 5) || !get_type(c, rt) || !use_value(c, W(c, 3), &ta, &sa) ||
	    !value_of(c, W(c, 4), ta, &sb))
		return false;
	const struct ptype *r = T(c, rt);
	uint32_t n = ncomp_of(c, ta, T_INT);
	if (r->kind != T_STRUCT || r->count != 2 || c->members[r->first].type != ta ||
	    c->members[r->first + 1].type != ta || n == 0)
		return fail(c, "%s: result must be a struct of two operand types", opname(c->op));
	struct pid *d = def_value(c, W(c, 2), rt);
	struct rd_ins *in = d ? emit(c, od->fn) : NULL;
	if (!in)
		return false;
	in->r = d->slot;
	in->a = sa;
	in->b = sb;
	in->n = n;
	return true;
}

/* OpBitFieldInsert (base, insert, offset, count) and the extracts (base,
 * offset, count): offset and count are integer scalars. */
bool dec_bitfield(struct rd_parse *c, const struct opdesc *od)
{
	bool ins = c->op == SpvOpBitFieldInsert;
	uint32_t n, sb, si = 0, so, sc;
	if (!need_words(c, ins ? 7 : 6, ins ? 7 : 6) || !result_num(c, W(c, 1), T_INT, &n) ||
	    !operand_num(c, W(c, 3), T_INT, n, &sb) || (ins && !operand_num(c, W(c, 4), T_INT, n, &si)) ||
	    !operand_num(c, W(c, ins ? 5 : 4), T_INT, 1, &so) || !operand_num(c, W(c, ins ? 6 : 5), T_INT, 1, &sc))
		return false;
	struct pid *d = def_value(c, W(c, 2), W(c, 1));
	struct rd_ins *in = d ? emit(c, od->fn) : NULL;
	if (!in)
		return false;
	in->r = d->slot;
	in->a = sb;
	in->b = si;
	in->c = so;
	in->x = sc;
	in->n = n;
	return true;
}

/* ------------------------------------------------------------------------ */
/* Miscellaneous (spec 3.42.1) and extended instructions (3.42.4)           */

bool dec_undef(struct rd_parse *c, const struct opdesc *od)
{
	if (!need_words(c, 3, 3))
		return false;
	/* Any value will do: the template's zeros. */
	struct pid *d = def_value(c, W(c, 2), W(c, 1));
	if (d && T(c, d->type)->kind == T_POINTER)
		return fail(c, "OpUndef of a pointer type is unsupported");
	return d != NULL;
}

/* A bool the handler sets from nothing but the invocation. */
static bool emit_bool(struct rd_parse *c, const struct opdesc *od)
{
	struct pid *d = def_value(c, W(c, 2), W(c, 1));
	struct rd_ins *in = d ? emit(c, od->fn) : NULL;
	if (!in)
		return false;
	in->r = d->slot;
	in->n = 1;
	return true;
}

/* OpGroupNonUniformElect (spec 3.42.24) with Subgroup scope. */
bool dec_elect(struct rd_parse *c, const struct opdesc *od)
{
	uint32_t n, scope;
	if (!need_words(c, 4, 4) || !result_num(c, W(c, 1), T_BOOL, &n) || !const_u32(c, W(c, 3), &scope))
		return false;
	if (n != 1 || scope != SpvScopeSubgroup)
		return fail(c, "OpGroupNonUniformElect: needs a bool result and Subgroup scope");
	return emit_bool(c, od);
}

bool dec_helper(struct rd_parse *c, const struct opdesc *od)
{
	uint32_t n;
	if (!need_words(c, 3, 3) || !result_num(c, W(c, 1), T_BOOL, &n))
		return false;
	if (!c->caps_demote || n != 1)
		return fail(c, "OpIsHelperInvocationEXT without DemoteToHelperInvocation");
	/* Demotion ends the run here, so a running invocation is never a helper. */
	return emit_bool(c, od);
}

enum glsl_class {
	G_NONE, G_F1, G_F2, G_F3, G_S1, G_I2, G_I3, G_LENGTH, G_DISTANCE, G_CROSS, G_REFRACT,
};

static const struct {
	uint8_t cls;
	rd_exec_fn *fn;
} glsl_ops[] = {
#define G(name, cls, fn) [GLSLstd450##name] = { cls, rd_ex_g_##fn }
	G(Round, G_F1, round), G(RoundEven, G_F1, roundeven), G(Trunc, G_F1, trunc),
	G(FAbs, G_F1, fabs), G(SAbs, G_S1, sabs), G(FSign, G_F1, fsign), G(SSign, G_S1, ssign),
	G(Floor, G_F1, floor), G(Ceil, G_F1, ceil), G(Fract, G_F1, fract),
	G(Radians, G_F1, radians), G(Degrees, G_F1, degrees), G(Sin, G_F1, sin), G(Cos, G_F1, cos),
	G(Tan, G_F1, tan), G(Asin, G_F1, asin), G(Acos, G_F1, acos), G(Atan, G_F1, atan),
	G(Sinh, G_F1, sinh), G(Cosh, G_F1, cosh), G(Tanh, G_F1, tanh), G(Asinh, G_F1, asinh),
	G(Acosh, G_F1, acosh), G(Atanh, G_F1, atanh), G(Atan2, G_F2, atan2), G(Pow, G_F2, pow),
	G(Exp, G_F1, exp), G(Log, G_F1, log), G(Exp2, G_F1, exp2), G(Log2, G_F1, log2),
	G(Sqrt, G_F1, sqrt), G(InverseSqrt, G_F1, isqrt), G(FMin, G_F2, fmin), G(UMin, G_I2, umin),
	G(SMin, G_I2, smin), G(FMax, G_F2, fmax), G(UMax, G_I2, umax), G(SMax, G_I2, smax),
	G(FClamp, G_F3, fclamp), G(UClamp, G_I3, uclamp), G(SClamp, G_I3, sclamp),
	G(FMix, G_F3, fmix), G(Step, G_F2, step), G(SmoothStep, G_F3, smoothstep),
	G(Fma, G_F3, fma), G(Length, G_LENGTH, length), G(Distance, G_DISTANCE, distance),
	G(Cross, G_CROSS, cross), G(Normalize, G_F1, normalize), G(FaceForward, G_F3, faceforward),
	G(Reflect, G_F2, reflect), G(Refract, G_REFRACT, refract), G(NMin, G_F2, nmin),
	G(NMax, G_F2, nmax), G(NClamp, G_F3, nclamp), G(FindILsb, G_S1, findilsb),
	G(FindSMsb, G_S1, findsmsb), G(FindUMsb, G_S1, findumsb),
#undef G
};

bool dec_ext_inst(struct rd_parse *c, const struct opdesc *od)
{
	if (!need_words(c, 5, 0xffff))
		return false;
	uint32_t rt = W(c, 1), set = W(c, 3), g = W(c, 4), nops = c->wc - 5, n, s[3] = { 0, 0, 0 }, t;
	/* Every import this interpreter accepts is GLSL.std.450 (a module
	 * may import it twice, as instrumented ones do). */
	if (set == 0 || set >= c->bound || c->ids[set].kind != ID_EXTSET)
		return fail(c, "OpExtInst: %u is not the GLSL.std.450 import", set);
	if (g >= sizeof(glsl_ops) / sizeof(glsl_ops[0]) || glsl_ops[g].cls == G_NONE)
		return fail(c, "unsupported GLSL.std.450 instruction %s (%u)", rd_spirv_name(RD_NAME_GLSL, g), g);
	static const uint8_t arity[] = { [G_F1] = 1, [G_F2] = 2, [G_F3] = 3, [G_S1] = 1, [G_I2] = 2,
					 [G_I3] = 3, [G_LENGTH] = 1, [G_DISTANCE] = 2,
					 [G_CROSS] = 2, [G_REFRACT] = 3 };
	uint8_t cls = glsl_ops[g].cls;
	if (nops != arity[cls])
		return fail(c, "GLSL.std.450 %s takes %u operands, not %u", rd_spirv_name(RD_NAME_GLSL, g),
			    arity[cls], nops);
	if (!get_type(c, rt))
		return false;
	bool is_int = cls == G_S1 || cls == G_I2 || cls == G_I3;
	n = ncomp_of(c, rt, is_int ? T_INT : T_FLOAT);
	if (n == 0)
		return fail(c, "GLSL.std.450 %s: result type %u must be a %s scalar or vector",
			    rd_spirv_name(RD_NAME_GLSL, g), rt, is_int ? "integer" : "float");
	for (uint32_t i = 0; i < nops; i++) {
		uint32_t id = W(c, 5 + i);
		if (!use_value(c, id, &t, &s[i]))
			return false;
		bool ok;
		switch (cls) {
		case G_LENGTH:
		case G_DISTANCE:  /* a float scalar from float vectors; n becomes their size */
			ok = (i > 0 || n == 1) && ncomp_of(c, t, T_FLOAT) && (i == 0 || t == c->ids[W(c, 5)].type);
			if (i == 0)
				n = ncomp_of(c, t, T_FLOAT);
			break;
		case G_CROSS:
			ok = t == rt && n == 3;
			break;
		case G_REFRACT:  /* eta is the component type */
			ok = i < 2 ? t == rt : (T(c, rt)->kind == T_VECTOR ? T(c, rt)->elem == t : t == rt);
			break;
		default:
			ok = is_int ? ncomp_of(c, t, T_INT) == n : t == rt;
			break;
		}
		if (!ok)
			return fail(c, "GLSL.std.450 %s: operand %u has the wrong type",
				    rd_spirv_name(RD_NAME_GLSL, g), id);
	}
	struct pid *d = def_value(c, W(c, 2), rt);
	struct rd_ins *in = d ? emit(c, glsl_ops[g].fn) : NULL;
	if (!in)
		return false;
	in->op = RD_OP_GLSL + g;
	in->r = d->slot;
	in->a = s[0];
	in->b = s[1];
	in->c = s[2];
	in->n = n;
	return true;
}
