/* Private to the SPIR-V interpreter (refdevice/spirv/: the front end of
 * front.h and the handlers of exec.h's files).
 *
 * rd_shader_create() turns a module into an immutable rd_program: a flat
 * array of pre-decoded instructions (rd_ins), each naming its handler, and a
 * template of the invocation state.  rd_shader_run() copies the template
 * into a per-run state array and follows the handlers.
 *
 * The invocation state is one array of 32-bit words.  Every SSA value,
 * constant, pointer value and variable of natural (non-explicit) layout has
 * a fixed "slot" (a word index) in it: SPIR-V for shaders forbids recursion
 * (spec 2.16.1, "Recursion"), so no id is ever live in two calls at once and
 * no stack of frames is needed for values.  Composites are flattened in
 * declaration order (a vec4 is 4 words, a mat3 is 9 words column by column,
 * a struct its members one after another); booleans are 0 or 1.
 *
 * A pointer value is two words: a region code and a byte offset.  Regions:
 * the invocation state itself (Function, Private, Input, Output variables),
 * workgroup memory, the push constants, one element of a buffer
 * descriptor, or a device address (PhysicalStorageBuffer pointers: the
 * address's high bits in the region word, its low 32 bits in the offset;
 * in buffer memory such a pointer is its plain 64-bit address).  Loads and stores through pointers into explicitly laid out
 * memory (Uniform, StorageBuffer, PushConstant) use a "plan": the byte offset
 * of every flattened word, computed at create time from the Offset,
 * ArrayStride, MatrixStride and RowMajor decorations. */
#ifndef RD_SPIRV_INT_H
#define RD_SPIRV_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rd_spirv.h"

/* A runaway loop becomes an error after this many executed instructions
 * (the fuzz build lowers it so endless loops cost little time). */
#ifndef RD_SPIRV_STEP_LIMIT
#define RD_SPIRV_STEP_LIMIT 50000000u
#endif
/* Limits that keep hostile modules from asking for absurd memory. */
#define RD_SPIRV_MAX_VALUE_WORDS (1u << 16)  /* one value or variable */
#define RD_SPIRV_MAX_STATE_WORDS (1u << 20)  /* one invocation's state (4 MiB) */
#define RD_SPIRV_MAX_BOUND (1u << 22)        /* the module's id bound */

/* Pointer regions (first word of a pointer value). */
#define RD_REGION_NONE 0u   /* a null/undefined pointer: any access faults */
#define RD_REGION_STATE 1u  /* the invocation state */
#define RD_REGION_WG 2u     /* workgroup memory */
#define RD_REGION_PUSH 3u   /* push constants (256 bytes) */
/* Buffer descriptors: bit 31 set, descriptor index in bits 16..30, array
 * element in bits 0..15. */
#define RD_REGION_DESC 0x80000000u
/* Device addresses: bit 31 clear, bit 30 set, address bits 32..61 in bits
 * 0..29 (the address 0 is RD_REGION_NONE). */
#define RD_REGION_ADDR 0x40000000u
#define RD_REGION_ADDR_HIGH 0x3fffffffu
#define RD_REGION_DESC_MAX_ELEMENTS 0x10000u
#define RD_REGION_DESC_MAX 0x8000u

#define RD_PUSH_CONSTANT_BYTES 256u

union rd_word {
	uint32_t u;
	int32_t i;
	float f;
};

struct rd_program;
struct rd_state;
struct rd_ins;

/* A handler executes one decoded instruction and returns the next one, or
 * NULL when the invocation ends (returned, discarded or faulted: see
 * rd_state.status). */
typedef const struct rd_ins *rd_exec_fn(struct rd_state *st, const struct rd_ins *in);

/* One decoded instruction.  r, a, b, c are state slots (word indices) of the
 * result and operands, or code indices of branch targets, or literals; what
 * each means is up to the handler and its decoder. */
struct rd_ins {
	rd_exec_fn *fn;
	uint32_t r, a, b, c;
	uint32_t n;     /* components, words or list length */
	uint32_t x;     /* index into rd_program.pool for longer lists */
	uint32_t word;  /* word offset of the instruction in the module (errors) */
	uint32_t op;    /* SPIR-V opcode, or 0x10000 + GLSL.std.450 instruction */
};
#define RD_OP_GLSL 0x10000u

/* Where the run copies interface variables from and to. */
struct rd_io_loc {
	uint32_t slot;     /* first word in the state (tessellation control
	                      outputs: in the shared memory) */
	uint8_t loc;       /* Location */
	uint8_t vtx;       /* per-vertex arrays (geometry and tessellation
	                      inputs, control outputs): the vertex; RD_IO_PATCH
	                      for a Patch variable */
	uint16_t n;        /* words, 1..4 */
	uint16_t stride;   /* mesh outputs: words from one array element to the
	                      next (slot is element 0's, in the shared memory) */
	uint8_t prim;      /* mesh outputs: per primitive (PerPrimitiveEXT) */
};
#define RD_IO_PATCH 0xffu

/* Builtins copied between struct rd_invocation and the state. */
enum rd_builtin_io {
	RD_BI_VERTEX_INDEX,
	RD_BI_INSTANCE_INDEX,
	RD_BI_VIEW_INDEX,
	RD_BI_FRAG_COORD,
	RD_BI_FRONT_FACING,
	RD_BI_SAMPLE_ID,
	RD_BI_SAMPLE_POSITION,
	RD_BI_SAMPLE_MASK_IN,
	RD_BI_GLOBAL_ID,
	RD_BI_LOCAL_ID,
	RD_BI_WORKGROUP_ID,
	RD_BI_NUM_WORKGROUPS,
	RD_BI_LOCAL_INDEX,
	RD_BI_IN_POSITION,     /* geometry: gl_in[vtx].gl_Position */
	RD_BI_IN_POINT_SIZE,   /* geometry: gl_in[vtx].gl_PointSize */
	RD_BI_INVOCATION_ID,
	RD_BI_PRIMITIVE_ID,
	RD_BI_PATCH_VERTICES,
	RD_BI_TESS_COORD,
	/* tessellation levels: control outputs, evaluation inputs */
	RD_BI_TESS_LEVEL_OUTER,
	RD_BI_TESS_LEVEL_INNER,
	/* draw parameters (SPV_KHR_shader_draw_parameters, core in 1.1) */
	RD_BI_BASE_VERTEX,
	RD_BI_BASE_INSTANCE,
	RD_BI_DRAW_INDEX,
	/* outputs */
	RD_BI_POSITION,
	RD_BI_POINT_SIZE,
	RD_BI_FRAG_DEPTH,
	RD_BI_SAMPLE_MASK_OUT,
	/* mesh outputs, per primitive */
	RD_BI_PRIMITIVE_INDICES, /* Primitive{Point,Line,Triangle}IndicesEXT */
	RD_BI_CULL_PRIMITIVE,
};

struct rd_io_builtin {
	uint32_t slot;
	uint16_t kind;     /* enum rd_builtin_io */
	uint16_t vtx;      /* RD_BI_IN_*: the input vertex */
	uint16_t stride;   /* mesh outputs: as in struct rd_io_loc */
	uint8_t prim;
};

struct rd_entry {
	char *name;
	struct rd_entry_info info;
	uint32_t code;               /* first instruction of the entry function */
	uint32_t in_first, in_count;     /* rd_program.locs */
	uint32_t out_first, out_count;   /* rd_program.locs */
	uint32_t bin_first, bin_count;   /* rd_program.builtins: inputs */
	uint32_t bout_first, bout_count; /* rd_program.builtins: outputs */
	bool uses_push_constants;
};

struct rd_desc {
	uint32_t set, binding;
	uint32_t count;              /* array elements (1 when not an array) */
};

struct rd_program {
	struct rd_ins *code;
	uint32_t ncode;
	uint32_t *pool;              /* operand lists and load/store plans */
	uint32_t npool;
	union rd_word *tmpl;         /* initial invocation state */
	uint32_t nstate;             /* words in the invocation state */
	uint32_t phi_tmp;            /* scratch slot for parallel phi copies */
	uint32_t stack;              /* call stack: 2 words (return, result) per frame */
	uint32_t max_depth;          /* frames */
	uint32_t wg_slot;            /* private workgroup memory when the caller gives none */
	uint32_t wg_bytes;
	struct rd_entry *entries;
	uint32_t nentries;
	struct rd_desc *descs;
	uint32_t ndescs;
	struct rd_io_loc *locs;
	uint32_t nlocs;
	/* Basic blocks, the module's OpLabels in order: the SPIR-V
	 * instructions of each (OpLabel to its terminator), where its code
	 * starts, and per code index the block starting there + 1 (else 0). */
	uint32_t nblocks;
	uint32_t *block_insns;
	uint32_t *block_code;
	uint32_t *block_at;
	struct rd_io_builtin *builtins;
	uint32_t nbuiltins;
};

struct rd_shader {
	struct rd_program prog;
};

/* Per-run state; lives on the caller's stack in rd_shader_run(). */
enum rd_run_status { RD_RUN_GOING, RD_RUN_DONE, RD_RUN_KILLED, RD_RUN_FAULT, RD_RUN_BARRIER };

struct rd_state {
	union rd_word *R;            /* the invocation state, nstate words */
	const struct rd_program *p;
	const struct rd_ins *code;
	const struct rd_exec_env *env;
	struct rd_invocation *inv;
	uint32_t entry;              /* the entry point run (index into p->entries) */
	uint8_t *wg;                 /* workgroup memory, wg_bytes */
	uint32_t pred;               /* label id of the block we came from (OpPhi) */
	uint32_t depth;              /* call frames in use */
	enum rd_run_status status;
	const struct rd_ins *resume;  /* RD_RUN_BARRIER: where to go on */
	char *err;
	size_t errsize;
	/* Last buffer descriptor resolved: loads in a loop ask env once. */
	uint32_t cache_region;
	uint8_t *cache_data;
	uint64_t cache_size;
	/* Last buffer a device address resolved to (addr_size 0: none). */
	uint64_t addr_base, addr_size;
	uint8_t *addr_data;
};

/* Every handler, by name; the exec_*.c files define rd_ex_<name>. */
#define RD_SPIRV_HANDLERS(X)                                                   \
	/* composites, copies */                                               \
	X(copy) X(gather) X(insert) X(extract_dyn) X(insert_dyn) X(zero)       \
	/* memory */                                                           \
	X(load_nat) X(store_nat) X(load_push) X(load_buf) X(store_buf)        \
	X(access_chain) X(array_length) X(fence) X(control_barrier)            \
	/* functions and control flow */                                       \
	X(call) X(ret) X(ret_value) X(branch) X(branch_cond) X(switch)        \
	X(phi) X(kill) X(unreachable) X(emit_vertex) X(end_primitive)          \
	X(set_mesh_outputs) X(emit_mesh_tasks) X(subpass_read)                \
	/* conversions */                                                      \
	X(ftou) X(ftos) X(stof) X(utof)                                        \
	X(uext) X(sext) X(address_to_ptr) X(ptr_to_address)                   \
	/* 64-bit integer arithmetic, bits and comparisons (by in->op) */      \
	X(i64) X(elect)                                                        \
	/* arithmetic */                                                       \
	X(snegate) X(fnegate) X(iadd) X(fadd) X(isub) X(fsub) X(imul) X(fmul) \
	X(udiv) X(sdiv) X(fdiv) X(umod) X(srem) X(smod) X(frem) X(fmod)       \
	X(vts) X(vtm) X(mtv) X(mtm) X(outer) X(dot)                            \
	X(iaddcarry) X(isubborrow) X(umulext) X(smulext)                       \
	/* bits */                                                             \
	X(shr) X(sar) X(shl) X(or) X(xor) X(and) X(not)                        \
	X(bfi) X(bfse) X(bfue) X(bitrev) X(bitcount)                           \
	/* relational and logical */                                           \
	X(any) X(all) X(isnan) X(isinf) X(leq) X(lne) X(lor) X(land) X(lnot)   \
	X(select) X(select_vec) X(ieq) X(ine) X(ugt) X(sgt) X(uge) X(sge)      \
	X(ult) X(slt) X(ule) X(sle) X(foeq) X(fueq) X(fone) X(fune) X(folt)    \
	X(fult) X(fogt) X(fugt) X(fole) X(fule) X(foge) X(fuge)                \
	/* atomics */                                                          \
	X(atomic_load) X(atomic_store) X(atomic_xchg) X(atomic_cmpxchg)        \
	X(atomic_inc) X(atomic_dec) X(atomic_add) X(atomic_sub)                \
	X(atomic_smin) X(atomic_umin) X(atomic_smax) X(atomic_umax)            \
	X(atomic_and) X(atomic_or) X(atomic_xor)                               \
	/* GLSL.std.450 */                                                     \
	X(g_round) X(g_roundeven) X(g_trunc) X(g_fabs) X(g_sabs) X(g_fsign)    \
	X(g_ssign) X(g_floor) X(g_ceil) X(g_fract) X(g_radians) X(g_degrees)   \
	X(g_sin) X(g_cos) X(g_tan) X(g_asin) X(g_acos) X(g_atan) X(g_sinh)     \
	X(g_cosh) X(g_tanh) X(g_asinh) X(g_acosh) X(g_atanh) X(g_atan2)        \
	X(g_pow) X(g_exp) X(g_log) X(g_exp2) X(g_log2) X(g_sqrt) X(g_isqrt)    \
	X(g_fmin) X(g_umin) X(g_smin) X(g_fmax) X(g_umax) X(g_smax)            \
	X(g_fclamp) X(g_uclamp) X(g_sclamp) X(g_fmix) X(g_step)                \
	X(g_smoothstep) X(g_fma) X(g_length) X(g_distance) X(g_cross)          \
	X(g_normalize) X(g_faceforward) X(g_reflect) X(g_refract) X(g_nmin)    \
	X(g_nmax) X(g_nclamp) X(g_findilsb) X(g_findsmsb) X(g_findumsb)

#define RD_DECLARE_HANDLER(name) rd_exec_fn rd_ex_##name;
RD_SPIRV_HANDLERS(RD_DECLARE_HANDLER)
#undef RD_DECLARE_HANDLER

/* Names from Debian's spirv-headers (generated rd_spirv_names.h). */
enum rd_spirv_name_kind {
	RD_NAME_OP,
	RD_NAME_CAPABILITY,
	RD_NAME_DECORATION,
	RD_NAME_STORAGE_CLASS,
	RD_NAME_BUILTIN,
	RD_NAME_EXECUTION_MODE,
	RD_NAME_EXECUTION_MODEL,
	RD_NAME_GLSL,
};
const char *rd_spirv_name(enum rd_spirv_name_kind kind, uint32_t value);

/* The opcode name of a decoded instruction, for runtime messages. */
const char *rd_spirv_ins_name(const struct rd_ins *in);

#endif
