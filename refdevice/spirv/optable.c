/* The opcode table: for every supported opcode, its decoder, its handler,
 * its logical layout section and where it may appear. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "front.h"

#define OP(name, dec, fn, sec, flags, arg, arg2) \
	[SpvOp##name] = { dec, fn, sec, flags, arg, arg2 }
#define BODY(name, dec, fn, arg, arg2) OP(name, dec, fn, S_ANY, F_BODY, arg, arg2)

static const struct opdesc ops[SpvOpCopyLogical + 1] = {
	/* 3.42.1 Miscellaneous */
	OP(Nop, dec_ignore, NULL, S_ANY, 0, 0, 0),
	OP(Undef, dec_undef, NULL, S_GLOBAL, F_EITHER, 0, 0),
	/* 3.42.2 Debug */
	OP(SourceContinued, dec_ignore, NULL, S_DEBUG, 0, 0, 0),
	OP(Source, dec_ignore, NULL, S_DEBUG, 0, 0, 0),
	OP(SourceExtension, dec_ignore, NULL, S_DEBUG, 0, 0, 0),
	OP(Name, dec_ignore, NULL, S_DEBUG, 0, 0, 0),
	OP(MemberName, dec_ignore, NULL, S_DEBUG, 0, 0, 0),
	OP(String, dec_string, NULL, S_DEBUG, 0, 0, 0),
	OP(ModuleProcessed, dec_ignore, NULL, S_DEBUG, 0, 0, 0),
	OP(Line, dec_ignore, NULL, S_ANY, 0, 0, 0),
	OP(NoLine, dec_ignore, NULL, S_ANY, 0, 0, 0),
	/* 3.42.3 Annotation */
	OP(Decorate, dec_decorate, NULL, S_ANNOT, 0, 0, 0),
	OP(MemberDecorate, dec_decorate, NULL, S_ANNOT, 0, 0, 0),
	/* 3.42.4 Extension */
	OP(Extension, dec_extension, NULL, S_EXT, 0, 0, 0),
	OP(ExtInstImport, dec_ext_inst_import, NULL, S_IMPORT, 0, 0, 0),
	BODY(ExtInst, dec_ext_inst, NULL, 0, 0),
	/* 3.42.5 Mode-Setting */
	OP(MemoryModel, dec_memory_model, NULL, S_MODEL, 0, 0, 0),
	OP(EntryPoint, dec_entry_point, NULL, S_ENTRY, 0, 0, 0),
	OP(ExecutionMode, dec_execution_mode, NULL, S_MODE, 0, 0, 0),
	OP(ExecutionModeId, dec_execution_mode, NULL, S_MODE, 0, 0, 0),
	OP(Capability, dec_capability, NULL, S_CAP, 0, 0, 0),
	/* 3.42.6 Type-Declaration */
	OP(TypeVoid, dec_type, NULL, S_GLOBAL, 0, 0, 0),
	OP(TypeBool, dec_type, NULL, S_GLOBAL, 0, 0, 0),
	OP(TypeInt, dec_type, NULL, S_GLOBAL, 0, 0, 0),
	OP(TypeFloat, dec_type, NULL, S_GLOBAL, 0, 0, 0),
	OP(TypeVector, dec_type, NULL, S_GLOBAL, 0, 0, 0),
	OP(TypeMatrix, dec_type, NULL, S_GLOBAL, 0, 0, 0),
	OP(TypeArray, dec_type, NULL, S_GLOBAL, 0, 0, 0),
	OP(TypeRuntimeArray, dec_type, NULL, S_GLOBAL, 0, 0, 0),
	OP(TypeStruct, dec_type, NULL, S_GLOBAL, 0, 0, 0),
	OP(TypePointer, dec_type, NULL, S_GLOBAL, 0, 0, 0),
	OP(TypeForwardPointer, dec_type, NULL, S_GLOBAL, 0, 0, 0),
	OP(TypeFunction, dec_type, NULL, S_GLOBAL, 0, 0, 0),
	OP(TypeImage, dec_type, NULL, S_GLOBAL, 0, 0, 0),
	/* 3.42.7 Constant-Creation */
	OP(ConstantTrue, dec_constant, NULL, S_GLOBAL, 0, 0, 0),
	OP(ConstantFalse, dec_constant, NULL, S_GLOBAL, 0, 0, 0),
	OP(Constant, dec_constant, NULL, S_GLOBAL, 0, 0, 0),
	OP(ConstantComposite, dec_constant, NULL, S_GLOBAL, 0, 0, 0),
	OP(ConstantNull, dec_constant, NULL, S_GLOBAL, 0, 0, 0),
	OP(SpecConstantTrue, dec_constant, NULL, S_GLOBAL, 0, 0, 0),
	OP(SpecConstantFalse, dec_constant, NULL, S_GLOBAL, 0, 0, 0),
	OP(SpecConstant, dec_constant, NULL, S_GLOBAL, 0, 0, 0),
	OP(SpecConstantComposite, dec_constant, NULL, S_GLOBAL, 0, 0, 0),
	OP(SpecConstantOp, dec_spec_constant_op, NULL, S_GLOBAL, 0, 0, 0),
	/* 3.42.8 Memory */
	OP(Variable, dec_variable, NULL, S_GLOBAL, F_EITHER, 0, 0),
	BODY(Load, dec_load, NULL, 0, 0),
	BODY(Store, dec_store, NULL, 0, 0),
	BODY(CopyMemory, dec_copy_memory, NULL, 0, 0),
	BODY(AccessChain, dec_access_chain, NULL, 0, 0),
	BODY(InBoundsAccessChain, dec_access_chain, NULL, 0, 0),
	BODY(ArrayLength, dec_array_length, NULL, 0, 0),
	/* 3.42.10 Image (input attachments only) */
	BODY(ImageRead, dec_image_read, rd_ex_subpass_read, 0, 0),
	/* 3.42.9 Function */
	OP(Function, dec_function, NULL, S_FUNC, 0, 0, 0),
	OP(FunctionParameter, dec_function_parameter, NULL, S_FUNC, 0, 0, 0),
	OP(FunctionEnd, dec_function_end, NULL, S_FUNC, 0, 0, 0),
	BODY(FunctionCall, dec_call, NULL, 0, 0),
	/* 3.42.11 Conversion */
	BODY(ConvertFToU, dec_convert, rd_ex_ftou, T_FLOAT, T_INT),
	BODY(ConvertFToS, dec_convert, rd_ex_ftos, T_FLOAT, T_INT),
	BODY(ConvertSToF, dec_convert, rd_ex_stof, T_INT, T_FLOAT),
	BODY(ConvertUToF, dec_convert, rd_ex_utof, T_INT, T_FLOAT),
	BODY(UConvert, dec_convert, NULL, T_INT, 0),
	BODY(SConvert, dec_convert, NULL, T_INT, 0),
	BODY(FConvert, dec_convert, NULL, T_FLOAT, 0),
	BODY(Bitcast, dec_convert, NULL, 0, 0),
	BODY(ConvertPtrToU, dec_convert, NULL, 0, 0),
	BODY(ConvertUToPtr, dec_convert, NULL, 0, 0),
	/* 3.42.12 Composite */
	BODY(VectorExtractDynamic, dec_composite, NULL, 0, 0),
	BODY(VectorInsertDynamic, dec_composite, NULL, 0, 0),
	BODY(VectorShuffle, dec_composite, NULL, 0, 0),
	BODY(CompositeConstruct, dec_composite, NULL, 0, 0),
	BODY(CompositeExtract, dec_composite, NULL, 0, 0),
	BODY(CompositeInsert, dec_composite, NULL, 0, 0),
	BODY(CopyObject, dec_composite, NULL, 0, 0),
	BODY(Transpose, dec_composite, NULL, 0, 0),
	BODY(CopyLogical, dec_composite, NULL, 0, 0),
	/* 3.42.13 Arithmetic */
	BODY(SNegate, dec_unary, rd_ex_snegate, T_INT, 0),
	BODY(FNegate, dec_unary, rd_ex_fnegate, T_FLOAT, 0),
	BODY(IAdd, dec_binary, rd_ex_iadd, T_INT, 0),
	BODY(FAdd, dec_binary, rd_ex_fadd, T_FLOAT, 0),
	BODY(ISub, dec_binary, rd_ex_isub, T_INT, 0),
	BODY(FSub, dec_binary, rd_ex_fsub, T_FLOAT, 0),
	BODY(IMul, dec_binary, rd_ex_imul, T_INT, 0),
	BODY(FMul, dec_binary, rd_ex_fmul, T_FLOAT, 0),
	BODY(UDiv, dec_binary, rd_ex_udiv, T_INT, 0),
	BODY(SDiv, dec_binary, rd_ex_sdiv, T_INT, 0),
	BODY(FDiv, dec_binary, rd_ex_fdiv, T_FLOAT, 0),
	BODY(UMod, dec_binary, rd_ex_umod, T_INT, 0),
	BODY(SRem, dec_binary, rd_ex_srem, T_INT, 0),
	BODY(SMod, dec_binary, rd_ex_smod, T_INT, 0),
	BODY(FRem, dec_binary, rd_ex_frem, T_FLOAT, 0),
	BODY(FMod, dec_binary, rd_ex_fmod, T_FLOAT, 0),
	BODY(VectorTimesScalar, dec_linear, rd_ex_vts, 0, 0),
	BODY(MatrixTimesScalar, dec_linear, rd_ex_vts, 0, 0),
	BODY(VectorTimesMatrix, dec_linear, rd_ex_vtm, 3, 0),
	BODY(MatrixTimesVector, dec_linear, rd_ex_mtv, 2, 0),
	BODY(MatrixTimesMatrix, dec_linear, rd_ex_mtm, 4, 0),
	BODY(OuterProduct, dec_linear, rd_ex_outer, 5, 0),
	BODY(Dot, dec_linear, rd_ex_dot, 1, 0),
	BODY(IAddCarry, dec_extended, rd_ex_iaddcarry, 0, 0),
	BODY(ISubBorrow, dec_extended, rd_ex_isubborrow, 0, 0),
	BODY(UMulExtended, dec_extended, rd_ex_umulext, 0, 0),
	BODY(SMulExtended, dec_extended, rd_ex_smulext, 0, 0),
	/* 3.42.14 Bit */
	BODY(ShiftRightLogical, dec_binary, rd_ex_shr, T_INT, 0),
	BODY(ShiftRightArithmetic, dec_binary, rd_ex_sar, T_INT, 0),
	BODY(ShiftLeftLogical, dec_binary, rd_ex_shl, T_INT, 0),
	BODY(BitwiseOr, dec_binary, rd_ex_or, T_INT, 0),
	BODY(BitwiseXor, dec_binary, rd_ex_xor, T_INT, 0),
	BODY(BitwiseAnd, dec_binary, rd_ex_and, T_INT, 0),
	BODY(Not, dec_unary, rd_ex_not, T_INT, 0),
	BODY(BitFieldInsert, dec_bitfield, rd_ex_bfi, 0, 0),
	BODY(BitFieldSExtract, dec_bitfield, rd_ex_bfse, 0, 0),
	BODY(BitFieldUExtract, dec_bitfield, rd_ex_bfue, 0, 0),
	BODY(BitReverse, dec_unary, rd_ex_bitrev, T_INT, 0),
	BODY(BitCount, dec_unary, rd_ex_bitcount, T_INT, 0),
	/* 3.42.15 Relational and Logical */
	BODY(Any, dec_reduce, rd_ex_any, 0, 0),
	BODY(All, dec_reduce, rd_ex_all, 0, 0),
	BODY(IsNan, dec_unary, rd_ex_isnan, T_FLOAT, T_BOOL),
	BODY(IsInf, dec_unary, rd_ex_isinf, T_FLOAT, T_BOOL),
	BODY(LogicalEqual, dec_binary, rd_ex_leq, T_BOOL, 0),
	BODY(LogicalNotEqual, dec_binary, rd_ex_lne, T_BOOL, 0),
	BODY(LogicalOr, dec_binary, rd_ex_lor, T_BOOL, 0),
	BODY(LogicalAnd, dec_binary, rd_ex_land, T_BOOL, 0),
	BODY(LogicalNot, dec_unary, rd_ex_lnot, T_BOOL, 0),
	BODY(Select, dec_select, rd_ex_select, 0, 0),
	BODY(IEqual, dec_binary, rd_ex_ieq, T_INT, T_BOOL),
	BODY(INotEqual, dec_binary, rd_ex_ine, T_INT, T_BOOL),
	BODY(UGreaterThan, dec_binary, rd_ex_ugt, T_INT, T_BOOL),
	BODY(SGreaterThan, dec_binary, rd_ex_sgt, T_INT, T_BOOL),
	BODY(UGreaterThanEqual, dec_binary, rd_ex_uge, T_INT, T_BOOL),
	BODY(SGreaterThanEqual, dec_binary, rd_ex_sge, T_INT, T_BOOL),
	BODY(ULessThan, dec_binary, rd_ex_ult, T_INT, T_BOOL),
	BODY(SLessThan, dec_binary, rd_ex_slt, T_INT, T_BOOL),
	BODY(ULessThanEqual, dec_binary, rd_ex_ule, T_INT, T_BOOL),
	BODY(SLessThanEqual, dec_binary, rd_ex_sle, T_INT, T_BOOL),
	BODY(FOrdEqual, dec_binary, rd_ex_foeq, T_FLOAT, T_BOOL),
	BODY(FUnordEqual, dec_binary, rd_ex_fueq, T_FLOAT, T_BOOL),
	BODY(FOrdNotEqual, dec_binary, rd_ex_fone, T_FLOAT, T_BOOL),
	BODY(FUnordNotEqual, dec_binary, rd_ex_fune, T_FLOAT, T_BOOL),
	BODY(FOrdLessThan, dec_binary, rd_ex_folt, T_FLOAT, T_BOOL),
	BODY(FUnordLessThan, dec_binary, rd_ex_fult, T_FLOAT, T_BOOL),
	BODY(FOrdGreaterThan, dec_binary, rd_ex_fogt, T_FLOAT, T_BOOL),
	BODY(FUnordGreaterThan, dec_binary, rd_ex_fugt, T_FLOAT, T_BOOL),
	BODY(FOrdLessThanEqual, dec_binary, rd_ex_fole, T_FLOAT, T_BOOL),
	BODY(FUnordLessThanEqual, dec_binary, rd_ex_fule, T_FLOAT, T_BOOL),
	BODY(FOrdGreaterThanEqual, dec_binary, rd_ex_foge, T_FLOAT, T_BOOL),
	BODY(FUnordGreaterThanEqual, dec_binary, rd_ex_fuge, T_FLOAT, T_BOOL),
	/* 3.42.17 Control-Flow */
	OP(Phi, dec_phi, NULL, S_ANY, F_BODY | F_PHI, 0, 0),
	BODY(LoopMerge, dec_merge, NULL, 0, 0),
	BODY(SelectionMerge, dec_merge, NULL, 0, 0),
	OP(Label, dec_label, NULL, S_FUNC, 0, 0, 0),
	OP(Branch, dec_branch, NULL, S_ANY, F_BODY | F_TERM, 0, 0),
	OP(BranchConditional, dec_branch, NULL, S_ANY, F_BODY | F_TERM, 0, 0),
	OP(Switch, dec_branch, NULL, S_ANY, F_BODY | F_TERM, 0, 0),
	OP(Kill, dec_kill, NULL, S_ANY, F_BODY | F_TERM, 0, 0),
	OP(Return, dec_return, NULL, S_ANY, F_BODY | F_TERM, 0, 0),
	OP(ReturnValue, dec_return, NULL, S_ANY, F_BODY | F_TERM, 0, 0),
	OP(Unreachable, dec_kill, NULL, S_ANY, F_BODY | F_TERM, 0, 0),
	/* 3.42.19 Primitive */
	BODY(EmitVertex, dec_emit, rd_ex_emit_vertex, 0, 0),
	BODY(EndPrimitive, dec_emit, rd_ex_end_primitive, 0, 0),
	BODY(EmitStreamVertex, dec_emit, rd_ex_emit_vertex, 0, 0),
	BODY(EndStreamPrimitive, dec_emit, rd_ex_end_primitive, 0, 0),
	/* 3.42.18 Atomic */
	BODY(AtomicLoad, dec_atomic, rd_ex_atomic_load, 0, 0),
	BODY(AtomicStore, dec_atomic, rd_ex_atomic_store, 1, 1),
	BODY(AtomicExchange, dec_atomic, rd_ex_atomic_xchg, 1, 0),
	BODY(AtomicCompareExchange, dec_atomic, rd_ex_atomic_cmpxchg, 2, 0),
	BODY(AtomicIIncrement, dec_atomic, rd_ex_atomic_inc, 0, 0),
	BODY(AtomicIDecrement, dec_atomic, rd_ex_atomic_dec, 0, 0),
	BODY(AtomicIAdd, dec_atomic, rd_ex_atomic_add, 1, 0),
	BODY(AtomicISub, dec_atomic, rd_ex_atomic_sub, 1, 0),
	BODY(AtomicSMin, dec_atomic, rd_ex_atomic_smin, 1, 0),
	BODY(AtomicUMin, dec_atomic, rd_ex_atomic_umin, 1, 0),
	BODY(AtomicSMax, dec_atomic, rd_ex_atomic_smax, 1, 0),
	BODY(AtomicUMax, dec_atomic, rd_ex_atomic_umax, 1, 0),
	BODY(AtomicAnd, dec_atomic, rd_ex_atomic_and, 1, 0),
	BODY(AtomicOr, dec_atomic, rd_ex_atomic_or, 1, 0),
	BODY(AtomicXor, dec_atomic, rd_ex_atomic_xor, 1, 0),
	/* 3.42.24 Non-Uniform */
	BODY(GroupNonUniformElect, dec_elect, rd_ex_elect, 0, 0),
	/* 3.42.20 Barrier */
	BODY(ControlBarrier, dec_barrier, rd_ex_control_barrier, 0, 0),
	BODY(MemoryBarrier, dec_barrier, rd_ex_fence, 0, 0),
};

/* Opcodes from extensions, numbered far beyond the core ones. */
static const struct {
	uint32_t op;
	struct opdesc d;
} ops_ext[] = {
	{ SpvOpTerminateInvocation, { dec_kill, NULL, S_ANY, F_BODY | F_TERM, 0, 0 } },
	/* not a terminator: the block goes on (for helpers) */
	{ SpvOpDemoteToHelperInvocation, { dec_kill, NULL, S_ANY, F_BODY, 0, 0 } },
	{ SpvOpIsHelperInvocationEXT, { dec_helper, rd_ex_zero, S_ANY, F_BODY, 0, 0 } },
	{ SpvOpSetMeshOutputsEXT, { dec_mesh, rd_ex_set_mesh_outputs, S_ANY, F_BODY, 0, 0 } },
	{ SpvOpEmitMeshTasksEXT, { dec_mesh, rd_ex_emit_mesh_tasks, S_ANY, F_BODY | F_TERM, 0, 0 } },
};

const struct opdesc *op_desc(uint32_t op)
{
	if (op < sizeof(ops) / sizeof(ops[0]))
		return ops[op].decode ? &ops[op] : NULL;
	for (size_t i = 0; i < sizeof(ops_ext) / sizeof(ops_ext[0]); i++)
		if (ops_ext[i].op == op)
			return &ops_ext[i].d;
	return NULL;
}

bool decode_one(struct rd_parse *c, const struct opdesc *d)
{
	return d->decode(c, d);
}
