/* Private to the SPIR-V interpreter's declaration pass (the front end):
 * the state rd_shader_create() keeps while it walks a module, and the
 * helpers and decoders its files share.  One file per concern:
 *
 *   module.c       the walk over the module (spec 2.4 logical layout) and the API
 *   optable.c      the opcode table: decoder, handler, section, placement
 *   state.c        errors, arrays, ids, types, values, emitting instructions
 *   decorations.c  decorations and the module-level instructions
 *   types.c        types and constants
 *   layout.c       explicit layout plans (Offset, ArrayStride, MatrixStride)
 *   variables.c    OpVariable
 *   control.c      functions, blocks, branches, phis, calls
 *   memory.c       loads, stores, access chains, atomics, barriers
 *   composites.c   composite construction, extraction, insertion
 *   image.c        OpImageRead of input attachments
 *   arithmetic.c   conversions, arithmetic, bits, relations, GLSL.std.450
 *   interface.c    finishing: calls, entry points, interface variables, XFB
 *   names.c        names for messages
 *
 * Execution (the handlers) is in the exec_*.c files (exec.h lists them);
 * program.h describes the decoded program both halves share.
 *
 * The rule that makes one pass enough: in a valid module every use of a
 * value, except an OpPhi operand, comes after its definition in the module
 * (definitions dominate uses and blocks come in dominance order, spec 2.16.1
 * "Function ... block order").  Uses that break the rule are refused; phi
 * operands, branch targets and callees are resolved when their function (or
 * the module) ends. */
#ifndef RD_SPIRV_FRONT_H
#define RD_SPIRV_FRONT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "program.h"

/* ------------------------------------------------------------------------ */
/* Declaration-pass state                                                   */

enum id_kind { ID_NONE, ID_TYPE, ID_VALUE, ID_FUNC, ID_LABEL, ID_EXTSET, ID_STRING };

struct pid {
	uint8_t kind;
	uint8_t is_const;   /* a constant or spec constant: its value is in the template */
	uint8_t is_var;     /* an OpVariable */
	uint8_t global;     /* defined outside any function */
	uint32_t type;      /* TYPE: index into types; VALUE: its type id; LABEL: function index */
	uint32_t slot;      /* VALUE: state slot; LABEL: code index; FUNC: index into funcs */
	uint32_t ptr;       /* VALUE of pointer type: index into ptrs */
	uint32_t deco;      /* first decoration + 1, 0 for none */
};

enum tkind { T_VOID, T_BOOL, T_INT, T_FLOAT, T_VECTOR, T_MATRIX, T_ARRAY, T_RTARRAY,
	     T_STRUCT, T_POINTER, T_FUNCTION, T_IMAGE,
	     T_INT64 /* a 64-bit integer scalar: two words, low first (Int64) */ };

struct ptype {
	uint8_t kind;
	uint8_t sign;       /* T_INT: signedness */
	uint8_t block;      /* T_STRUCT: 1 Block, 2 BufferBlock */
	uint8_t unsized;    /* contains a runtime array */
	uint8_t builtins;   /* T_STRUCT: some member is a BuiltIn */
	uint8_t depth;      /* nesting: walks over types recurse this deep */
	uint32_t elem;      /* component, column, element, pointee or return type id */
	uint32_t count;     /* components, columns, length, members, parameters;
	                       T_IMAGE: the MS operand */
	uint32_t words;     /* natural size; 0 for void, functions, unsized */
	uint32_t fixed;     /* words of the sized part (== words unless unsized) */
	uint32_t first;     /* T_STRUCT: index into members; T_FUNCTION: into u32 */
	uint32_t storage;   /* T_POINTER */
	uint32_t stride;    /* ArrayStride, 0 when absent */
};

#define NONE 0xffffffffu
/* Arrays and structs nest at most this deep (walks over types recurse). */
#define RD_MAX_TYPE_DEPTH 48u

struct pmember {
	uint32_t type;
	uint32_t word;      /* natural word offset */
	uint32_t offset;    /* Offset decoration, NONE when absent */
	uint32_t mstride;   /* MatrixStride, 0 when absent */
	uint32_t builtin;   /* NONE when absent */
	uint32_t location;  /* NONE when absent */
	uint8_t rowmajor, flat, noperspective, perprim;
};

/* What the declaration pass knows about a pointer value. */
struct pptr {
	uint32_t storage;
	uint32_t type;      /* pointee type id */
	uint32_t var;       /* the variable it points into, 0 when unknown (parameter) */
	uint32_t region, offset;  /* the value, when is_static */
	uint32_t mstride;   /* explicit layout: MatrixStride for a matrix (or array of) */
	uint32_t vstride;   /* explicit layout: bytes between vector components */
	uint32_t builtin;   /* BuiltIn of what it points to, NONE when none */
	uint8_t is_static;
	uint8_t rowmajor;
	uint8_t desc_array; /* an array of descriptors: the first index picks one */
};

struct pdeco {
	uint32_t member;    /* NONE: on the id itself */
	uint32_t deco, value, next;
};

struct pfunc {
	uint32_t id;
	uint32_t type;      /* OpTypeFunction id */
	uint32_t code;      /* first instruction, NONE until the first block */
	uint32_t params;    /* index into u32: parameter ids */
	uint32_t nparams;
	uint32_t writes;    /* bit per enum rd_builtin_io of output builtins stored to */
	uint32_t pc_size;   /* push-constant bytes of the blocks it uses */
	uint32_t calls;     /* first call site + 1 made by this function */
	uint8_t discards;
	uint8_t emits;      /* OpEmit(Stream)Vertex / OpEnd(Stream)Primitive */
	uint8_t barrier;    /* OpControlBarrier */
	uint8_t mesh_outputs; /* OpSetMeshOutputsEXT */
	uint8_t mesh_tasks;   /* OpEmitMeshTasksEXT */
	uint8_t uses_pc;
	uint8_t ended;
};

struct pcall {
	uint32_t callee;    /* function id */
	uint32_t ins;       /* the OpFunctionCall instruction */
	uint32_t word;
	uint32_t next;      /* next call site of the same caller + 1 */
};

/* A code or pool word that waits for a label's code index or a forward
 * phi operand's slot. */
struct ppatch {
	uint32_t idx;       /* code index (field != 0) or pool index (field == 0) */
	uint8_t field;      /* 0 pool, 1 a, 2 b, 3 c */
	uint8_t phi;        /* a phi operand: check type, fill slot */
	uint32_t id;
	uint32_t type;      /* phi operand: the expected type */
	uint32_t word;
};

struct pvar {            /* global variables */
	uint32_t id;
	uint32_t storage;
	uint32_t slot;      /* natural storage, NONE for explicit memory */
};

struct pmode {
	uint32_t pos;        /* OpExecutionMode(Id) instruction */
};

struct rd_parse {
	const uint32_t *w;   /* the module */
	uint32_t nw;
	uint32_t bound;
	uint32_t version;
	/* the current instruction */
	uint32_t pos;        /* word offset */
	const uint32_t *in;  /* its words (the module, or a synthesized one) */
	uint32_t wc, op;
	char *err;
	size_t errsize;
	bool failed;
	int section;

	struct pid *ids;
	struct pdeco *decos; uint32_t ndecos, cap_decos;
	struct ptype *types; uint32_t ntypes, cap_types;
	struct pmember *members; uint32_t nmembers, cap_members;
	struct pptr *ptrs; uint32_t nptrs, cap_ptrs;
	struct pfunc *funcs; uint32_t nfuncs, cap_funcs;
	struct pcall *calls; uint32_t ncalls, cap_calls;
	struct ppatch *patches; uint32_t npatches, cap_patches;
	struct pvar *vars; uint32_t nvars, cap_vars;
	uint32_t *u32; uint32_t nu32, cap_u32;
	uint32_t *entry_pos; uint32_t nentry_pos, cap_entry_pos;
	uint32_t *mode_pos; uint32_t nmode_pos, cap_mode_pos;
	struct plan { uint32_t type, mstride, vstride, rowmajor, pool, extent; } *plans;
	uint32_t nplans, cap_plans;

	/* the program under construction */
	struct rd_program *p;
	uint32_t cap_code, cap_pool, cap_tmpl;
	struct rd_entry *entries; uint32_t cap_entries;
	uint32_t cap_locs, cap_builtins, cap_descs;
	uint32_t cap_block_insns, cap_block_code;

	bool caps_shader, caps_demote;
	bool tcs_module;      /* has a TessellationControl entry point */
	bool mesh_module;     /* has a MeshEXT entry point */
	bool memory_model;
	uint32_t zero_slot;   /* one word that stays 0 (undefined shuffle lanes) */
	uint32_t max_phi_words;
	uint32_t wg_bytes;

	/* the function being decoded */
	struct pfunc *fn;     /* pointer into funcs (stable while decoding it) */
	uint32_t fn_index;
	uint32_t nparams_seen;
	uint32_t label;       /* the current block's label id, 0 between blocks */
	uint32_t nblocks;
	uint32_t first_patch; /* patches of this function start here */
	bool in_first_block;
	/* a run of OpPhi at the top of the current block */
	uint32_t phi_ins;     /* code index of the group, NONE when none */
	bool phis_done;       /* a non-phi instruction was seen in this block */

	bool spec_eval;       /* decoding the operation of an OpSpecConstantOp */

	/* the interface walk (interface.c): the input vertex of a geometry
	 * shader's per-vertex input, and the Stream of a captured output */
	uint32_t io_vtx;      /* or RD_IO_PATCH for a Patch variable */
	uint32_t io_stride;   /* mesh output arrays: words per element */
	uint8_t io_prim;      /* ... per primitive */
	uint32_t xfb_stream;
};

/* One row of the opcode table (see ops[] below). */
struct opdesc {
	bool (*decode)(struct rd_parse *c, const struct opdesc *d);
	rd_exec_fn *fn;
	uint8_t section;
	uint8_t flags;
	uint8_t arg;   /* enum tkind of the operands, or a decoder-specific variant */
	uint8_t arg2;  /* enum tkind of the result where it differs */
};

/* Logical layout sections (spec 2.4), in the order they must come. */
enum { S_ANY, S_CAP, S_EXT, S_IMPORT, S_MODEL, S_ENTRY, S_MODE, S_DEBUG, S_ANNOT, S_GLOBAL, S_FUNC };
#define F_BODY 1u    /* only inside a block */
#define F_EITHER 2u  /* at module scope (S_GLOBAL) or inside a block */
#define F_TERM 4u    /* ends its block */
#define F_PHI 8u     /* may only start a block */

void fail_at(struct rd_parse *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Records the first error and is false, visibly to the compiler, so that a
 * decoder's `return fail(...)` after a failed helper leaves no path on
 * which the helper's outputs look used uninitialized. */
#define fail(...) (fail_at(__VA_ARGS__), false)

static inline const char *opname(uint32_t op)
{
	return rd_spirv_name(RD_NAME_OP, op);
}

/* Operand word i of the current instruction; 0 (never a valid id) past its
 * end, so decoders that read too far fail on "id 0" instead of reading
 * beyond the instruction. */
static inline uint32_t W(const struct rd_parse *c, uint32_t i)
{
	return i < c->wc ? c->in[i] : 0;
}

/* Only for ids already known to be types. */
static inline struct ptype *T(struct rd_parse *c, uint32_t id)
{
	return &c->types[c->ids[id].type];
}

/* Appends one element to a growing array (see reserve()); NULL on failure. */
#define PUSH(c, arr, n, cap) \
	(reserve((c), (void **)&(arr), &(cap), (uint64_t)(n) + 1, sizeof(*(arr))) ? &(arr)[(n)++] : NULL)

/* state.c */
bool reserve(struct rd_parse *c, void **arr, uint32_t *cap, uint64_t need, size_t elem);
bool need_words(struct rd_parse *c, uint32_t min, uint32_t max);
bool get_string(struct rd_parse *c, uint32_t i, const char **s, uint32_t *next);
struct pid *new_id(struct rd_parse *c, uint32_t id, enum id_kind kind);
struct ptype *get_type(struct rd_parse *c, uint32_t id);
uint32_t alloc_slot(struct rd_parse *c, uint32_t words);
bool use_value(struct rd_parse *c, uint32_t id, uint32_t *type, uint32_t *slot);
bool same_type(struct rd_parse *c, uint32_t a, uint32_t b);
bool value_of(struct rd_parse *c, uint32_t id, uint32_t want, uint32_t *slot);
uint32_t ncomp_of(struct rd_parse *c, uint32_t tid, enum tkind kind);
const char *kind_name(enum tkind k);
bool result_num(struct rd_parse *c, uint32_t tid, enum tkind kind, uint32_t *n);
bool operand_num(struct rd_parse *c, uint32_t id, enum tkind kind, uint32_t n, uint32_t *slot);
bool const_u32(struct rd_parse *c, uint32_t id, uint32_t *v);
struct rd_ins *emit(struct rd_parse *c, rd_exec_fn *fn);
uint32_t pool_alloc(struct rd_parse *c, uint32_t n);
bool add_patch(struct rd_parse *c, uint32_t idx, uint8_t field, uint32_t id, bool phi,
	       uint32_t type);
bool target(struct rd_parse *c, uint32_t idx, uint8_t field, uint32_t label);
struct pid *def_value(struct rd_parse *c, uint32_t id, uint32_t tid);
struct pptr *new_ptr(struct rd_parse *c, struct pid *d);
struct pptr *ptr_of(struct rd_parse *c, uint32_t id);
void set_static_ptr(struct rd_parse *c, struct pid *d, struct pptr *q);
bool is_explicit(uint32_t storage);
struct pid *def_address_ptr(struct rd_parse *c, uint32_t id, uint32_t tid);
bool is_address_type(struct rd_parse *c, uint32_t tid);
struct pid *def_result(struct rd_parse *c, uint32_t id, uint32_t tid);
bool holds_address(struct rd_parse *c, uint32_t tid);

/* decorations.c */
bool dec_decorate(struct rd_parse *c, const struct opdesc *od);
bool get_deco(const struct rd_parse *c, uint32_t id, uint32_t member, uint32_t deco, uint32_t *value);
bool dec_ignore(struct rd_parse *c, const struct opdesc *od);
bool dec_string(struct rd_parse *c, const struct opdesc *od);
bool dec_capability(struct rd_parse *c, const struct opdesc *od);
bool dec_extension(struct rd_parse *c, const struct opdesc *od);
bool dec_ext_inst_import(struct rd_parse *c, const struct opdesc *od);
bool dec_memory_model(struct rd_parse *c, const struct opdesc *od);
bool dec_entry_point(struct rd_parse *c, const struct opdesc *od);
bool dec_execution_mode(struct rd_parse *c, const struct opdesc *od);

/* types.c */
bool dec_type(struct rd_parse *c, const struct opdesc *od);
bool dec_constant(struct rd_parse *c, const struct opdesc *od);
bool dec_spec_constant_op(struct rd_parse *c, const struct opdesc *od);

/* layout.c */
bool get_plan(struct rd_parse *c, const struct pptr *q, uint32_t *pool, uint32_t *extent);
bool block_extent(struct rd_parse *c, uint32_t tid, uint32_t *extent);

/* variables.c */
void note_write(struct rd_parse *c, const struct pptr *q);
void note_use(struct rd_parse *c, const struct pptr *q, uint32_t extent);
bool writable(struct rd_parse *c, const struct pptr *q);
bool dec_variable(struct rd_parse *c, const struct opdesc *od);
uint32_t pc_extent(struct rd_parse *c, const struct pptr *q);

/* control.c */
bool dec_function(struct rd_parse *c, const struct opdesc *od);
bool dec_function_parameter(struct rd_parse *c, const struct opdesc *od);
bool dec_label(struct rd_parse *c, const struct opdesc *od);
bool dec_function_end(struct rd_parse *c, const struct opdesc *od);
bool dec_call(struct rd_parse *c, const struct opdesc *od);
bool dec_merge(struct rd_parse *c, const struct opdesc *od);
bool dec_phi(struct rd_parse *c, const struct opdesc *od);
bool dec_branch(struct rd_parse *c, const struct opdesc *od);
bool dec_return(struct rd_parse *c, const struct opdesc *od);
bool dec_kill(struct rd_parse *c, const struct opdesc *od);
bool dec_emit(struct rd_parse *c, const struct opdesc *od);
bool dec_mesh(struct rd_parse *c, const struct opdesc *od);
bool dec_image_read(struct rd_parse *c, const struct opdesc *od);

/* memory.c */
bool dec_load(struct rd_parse *c, const struct opdesc *od);
bool dec_store(struct rd_parse *c, const struct opdesc *od);
bool dec_copy_memory(struct rd_parse *c, const struct opdesc *od);
bool dec_access_chain(struct rd_parse *c, const struct opdesc *od);
bool dec_array_length(struct rd_parse *c, const struct opdesc *od);
bool dec_atomic(struct rd_parse *c, const struct opdesc *od);
bool dec_barrier(struct rd_parse *c, const struct opdesc *od);

/* composites.c */
struct pid *def_alias(struct rd_parse *c, uint32_t id, uint32_t tid, uint32_t slot);
bool dec_composite(struct rd_parse *c, const struct opdesc *od);

/* arithmetic.c */
bool dec_unary(struct rd_parse *c, const struct opdesc *d);
bool dec_binary(struct rd_parse *c, const struct opdesc *d);
bool dec_convert(struct rd_parse *c, const struct opdesc *od);
bool dec_select(struct rd_parse *c, const struct opdesc *od);
bool dec_reduce(struct rd_parse *c, const struct opdesc *od);
bool dec_linear(struct rd_parse *c, const struct opdesc *od);
bool dec_extended(struct rd_parse *c, const struct opdesc *od);
bool dec_bitfield(struct rd_parse *c, const struct opdesc *od);
bool dec_undef(struct rd_parse *c, const struct opdesc *od);
bool dec_helper(struct rd_parse *c, const struct opdesc *od);
bool dec_elect(struct rd_parse *c, const struct opdesc *od);
bool dec_ext_inst(struct rd_parse *c, const struct opdesc *od);

/* optable.c */
const struct opdesc *op_desc(uint32_t op);
bool decode_one(struct rd_parse *c, const struct opdesc *d);

/* interface.c */
bool finish_module(struct rd_parse *c);

#endif
