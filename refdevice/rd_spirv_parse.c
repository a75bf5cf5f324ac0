/* The SPIR-V interpreter's declaration pass: rd_shader_create() walks the
 * module once, in the logical layout order of spec 2.4, validates what the
 * interpreter relies on, refuses everything outside the subset with one line
 * naming it, and decodes function bodies into rd_ins arrays (see
 * rd_spirv_int.h).  Execution is in rd_spirv_exec.c.
 *
 * The rule that makes one pass enough: in a valid module every use of a
 * value, except an OpPhi operand, comes after its definition in the module
 * (definitions dominate uses and blocks come in dominance order, spec 2.16.1
 * "Function ... block order").  Uses that break the rule are refused; phi
 * operands, branch targets and callees are resolved when their function (or
 * the module) ends. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

#include "rd_spirv_int.h"
#include "rd_spirv_names.h"

/* ------------------------------------------------------------------------ */
/* Names                                                                    */

const char *rd_spirv_name(enum rd_spirv_name_kind kind, uint32_t value)
{
	static const struct {
		const struct rd_spirv_name_entry *t;
		size_t n;
	} tables[] = {
#define T(x) { rd_spirv_names_##x, sizeof(rd_spirv_names_##x) / sizeof(rd_spirv_names_##x[0]) }
		[RD_NAME_OP] = T(Op),
		[RD_NAME_CAPABILITY] = T(Capability),
		[RD_NAME_DECORATION] = T(Decoration),
		[RD_NAME_STORAGE_CLASS] = T(StorageClass),
		[RD_NAME_BUILTIN] = T(BuiltIn),
		[RD_NAME_EXECUTION_MODE] = T(ExecutionMode),
		[RD_NAME_EXECUTION_MODEL] = T(ExecutionModel),
		[RD_NAME_GLSL] = T(GLSL),
#undef T
	};
	if ((size_t)kind < sizeof(tables) / sizeof(tables[0]))
		for (size_t i = 0; i < tables[kind].n; i++)
			if (tables[kind].t[i].value == value)
				return tables[kind].t[i].name;
	return "(unknown)";
}

const char *rd_spirv_ins_name(const struct rd_ins *in)
{
	if (in->op >= RD_OP_GLSL)
		return rd_spirv_name(RD_NAME_GLSL, in->op - RD_OP_GLSL);
	return rd_spirv_name(RD_NAME_OP, in->op);
}

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
	     T_STRUCT, T_POINTER, T_FUNCTION };

struct ptype {
	uint8_t kind;
	uint8_t sign;       /* T_INT: signedness */
	uint8_t block;      /* T_STRUCT: 1 Block, 2 BufferBlock */
	uint8_t unsized;    /* contains a runtime array */
	uint8_t builtins;   /* T_STRUCT: some member is a BuiltIn */
	uint8_t depth;      /* nesting: walks over types recurse this deep */
	uint32_t elem;      /* component, column, element, pointee or return type id */
	uint32_t count;     /* components, columns, length, members, parameters */
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
	uint8_t rowmajor, flat, noperspective;
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
	bool memory_model;
	uint32_t glsl_set;
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

static void fail_at(struct rd_parse *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Records the first error and is false, visibly to the compiler, so that a
 * decoder's `return fail(...)` after a failed helper leaves no path on
 * which the helper's outputs look used uninitialized. */
#define fail(...) (fail_at(__VA_ARGS__), false)

static void fail_at(struct rd_parse *c, const char *fmt, ...)
{
	if (c->failed)
		return;
	c->failed = true;
	if (c->errsize == 0)
		return;
	int n = snprintf(c->err, c->errsize, "word %u: ", c->pos);
	if (n < 0 || (size_t)n >= c->errsize)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->err + n, c->errsize - (size_t)n, fmt, ap);
	va_end(ap);
}

static const char *opname(uint32_t op)
{
	return rd_spirv_name(RD_NAME_OP, op);
}

/* Grows *arr to hold need elements. */
static bool reserve(struct rd_parse *c, void **arr, uint32_t *cap, uint64_t need, size_t elem)
{
	if (need <= *cap)
		return true;
	if (need > (1u << 28))
		return fail(c, "module too large for the interpreter");
	uint64_t n = *cap ? *cap : 16;
	while (n < need)
		n *= 2;
	void *q = realloc(*arr, (size_t)n * elem);
	if (!q)
		return fail(c, "out of memory");
	*arr = q;
	*cap = (uint32_t)n;
	return true;
}

#define PUSH(c, arr, n, cap) \
	(reserve((c), (void **)&(arr), &(cap), (uint64_t)(n) + 1, sizeof(*(arr))) ? &(arr)[(n)++] : NULL)

/* Operand word i of the current instruction; 0 (never a valid id) past its
 * end, so decoders that read too far fail on "id 0" instead of reading
 * beyond the instruction. */
static uint32_t W(const struct rd_parse *c, uint32_t i)
{
	return i < c->wc ? c->in[i] : 0;
}

static bool need_words(struct rd_parse *c, uint32_t min, uint32_t max)
{
	if (c->wc < min || c->wc > max)
		return fail(c, "%s has %u words, expected %u%s", opname(c->op), c->wc, min,
			    max == min ? "" : " or more");
	return true;
}

/* A literal string starting at operand word i; *next is the word after it. */
static bool get_string(struct rd_parse *c, uint32_t i, const char **s, uint32_t *next)
{
	if (i >= c->wc)
		return fail(c, "%s: missing string", opname(c->op));
	const char *b = (const char *)&c->in[i];
	size_t max = (size_t)(c->wc - i) * 4;
	const char *z = memchr(b, 0, max);
	if (!z)
		return fail(c, "%s: unterminated string", opname(c->op));
	*s = b;
	*next = i + (uint32_t)((size_t)(z - b) / 4) + 1;
	return true;
}

/* ------------------------------------------------------------------------ */
/* Ids, types and values                                                    */

static struct pid *new_id(struct rd_parse *c, uint32_t id, enum id_kind kind)
{
	if (id == 0 || id >= c->bound) {
		(void)fail(c, "%s: result id %u out of range (bound %u)", opname(c->op), id, c->bound);
		return NULL;
	}
	struct pid *d = &c->ids[id];
	if (d->kind != ID_NONE) {
		(void)fail(c, "%s: id %u defined twice", opname(c->op), id);
		return NULL;
	}
	d->kind = (uint8_t)kind;
	d->global = c->fn == NULL;
	return d;
}

static struct ptype *get_type(struct rd_parse *c, uint32_t id)
{
	if (id == 0 || id >= c->bound || c->ids[id].kind != ID_TYPE) {
		(void)fail(c, "%s: id %u is not a type", opname(c->op), id);
		return NULL;
	}
	return &c->types[c->ids[id].type];
}

/* Only for ids already known to be types. */
static struct ptype *T(struct rd_parse *c, uint32_t id)
{
	return &c->types[c->ids[id].type];
}

static uint32_t alloc_slot(struct rd_parse *c, uint32_t words)
{
	struct rd_program *p = c->p;
	uint64_t need = (uint64_t)p->nstate + words;
	if (need > RD_SPIRV_MAX_STATE_WORDS) {
		(void)fail(c, "module needs more than %u words of invocation state", RD_SPIRV_MAX_STATE_WORDS);
		return 0;
	}
	if (!reserve(c, (void **)&p->tmpl, &c->cap_tmpl, need, sizeof(*p->tmpl)))
		return 0;
	uint32_t slot = p->nstate;
	memset(&p->tmpl[slot], 0, (size_t)words * 4);
	p->nstate = (uint32_t)need;
	return slot;
}

/* A value the current instruction uses (constant, variable, result,
 * parameter, undef), with its type id and slot. */
static bool use_value(struct rd_parse *c, uint32_t id, uint32_t *type, uint32_t *slot)
{
	if (id == 0 || id >= c->bound)
		return fail(c, "%s: id %u out of range (bound %u)", opname(c->op), id, c->bound);
	const struct pid *d = &c->ids[id];
	if (d->kind == ID_NONE)
		return fail(c, "%s: id %u used before its definition", opname(c->op), id);
	if (d->kind != ID_VALUE)
		return fail(c, "%s: id %u is not a value", opname(c->op), id);
	if (c->spec_eval && !d->is_const)
		return fail(c, "OpSpecConstantOp: operand %u is not a constant", id);
	if (T(c, d->type)->words == 0)
		return fail(c, "%s: id %u has no value", opname(c->op), id);
	*type = d->type;
	*slot = d->slot;
	return true;
}

/* Two pointer types with the same storage class and pointee are the same
 * type for our purposes (a module may declare a pointer type twice). */
static bool same_type(struct rd_parse *c, uint32_t a, uint32_t b)
{
	if (a == b)
		return true;
	const struct ptype *ta = T(c, a), *tb = T(c, b);
	return ta->kind == T_POINTER && tb->kind == T_POINTER && ta->storage == tb->storage &&
	       ta->elem == tb->elem;
}

static bool value_of(struct rd_parse *c, uint32_t id, uint32_t want, uint32_t *slot)
{
	uint32_t t;
	if (!use_value(c, id, &t, slot))
		return false;
	if (!same_type(c, t, want))
		return fail(c, "%s: id %u has type %u, expected type %u", opname(c->op), id, t, want);
	return true;
}

/* Scalar or vector of a kind: number of components, 0 when it is not. */
static uint32_t ncomp_of(struct rd_parse *c, uint32_t tid, enum tkind kind)
{
	const struct ptype *t = T(c, tid);
	if (t->kind == (uint8_t)kind)
		return 1;
	if (t->kind == T_VECTOR && T(c, t->elem)->kind == (uint8_t)kind)
		return t->count;
	return 0;
}

static const char *kind_name(enum tkind k)
{
	static const char *const names[] = { "void", "bool", "integer", "float", "vector",
					     "matrix", "array", "runtime array", "struct",
					     "pointer", "function" };
	return names[k];
}

/* The result type of the current instruction as a scalar or vector of kind;
 * its component count in *n. */
static bool result_num(struct rd_parse *c, uint32_t tid, enum tkind kind, uint32_t *n)
{
	if (!get_type(c, tid))
		return false;
	*n = ncomp_of(c, tid, kind);
	if (*n == 0)
		return fail(c, "%s: result type %u must be a %s scalar or vector", opname(c->op), tid,
			    kind_name(kind));
	return true;
}

/* An operand that is a scalar or vector of kind with n components. */
static bool operand_num(struct rd_parse *c, uint32_t id, enum tkind kind, uint32_t n, uint32_t *slot)
{
	uint32_t t;
	if (!use_value(c, id, &t, slot))
		return false;
	if (ncomp_of(c, t, kind) != n)
		return fail(c, "%s: operand %u must be a %s %s of %u component%s", opname(c->op), id,
			    kind_name(kind), n == 1 ? "scalar" : "vector", n, n == 1 ? "" : "s");
	return true;
}

static bool const_u32(struct rd_parse *c, uint32_t id, uint32_t *v)
{
	uint32_t t, slot;
	if (!use_value(c, id, &t, &slot))
		return false;
	if (!c->ids[id].is_const || T(c, t)->kind != T_INT)
		return fail(c, "%s: id %u must be an integer constant", opname(c->op), id);
	*v = c->p->tmpl[slot].u;
	return true;
}

/* ------------------------------------------------------------------------ */
/* Emitting code                                                            */

static struct rd_ins *emit(struct rd_parse *c, rd_exec_fn *fn)
{
	struct rd_program *p = c->p;
	struct rd_ins *in = PUSH(c, p->code, p->ncode, c->cap_code);
	if (!in)
		return NULL;
	memset(in, 0, sizeof(*in));
	in->fn = fn;
	in->word = c->pos;
	in->op = c->op;
	return in;
}

static uint32_t pool_alloc(struct rd_parse *c, uint32_t n)
{
	struct rd_program *p = c->p;
	if (!reserve(c, (void **)&p->pool, &c->cap_pool, (uint64_t)p->npool + n, sizeof(*p->pool)))
		return NONE;
	uint32_t at = p->npool;
	memset(&p->pool[at], 0, (size_t)n * 4);
	p->npool += n;
	return at;
}

static bool add_patch(struct rd_parse *c, uint32_t idx, uint8_t field, uint32_t id, bool phi,
		      uint32_t type)
{
	struct ppatch *q = PUSH(c, c->patches, c->npatches, c->cap_patches);
	if (!q)
		return false;
	*q = (struct ppatch){ .idx = idx, .field = field, .phi = phi, .id = id, .type = type,
			      .word = c->pos };
	return true;
}

/* A branch target: the label's code index, filled in when the function ends. */
static bool target(struct rd_parse *c, uint32_t idx, uint8_t field, uint32_t label)
{
	return add_patch(c, idx, field, label, false, 0);
}

/* Defines the result id of the current instruction as a value of type tid. */
static struct pid *def_value(struct rd_parse *c, uint32_t id, uint32_t tid)
{
	const struct ptype *t = get_type(c, tid);
	if (!t)
		return NULL;
	if (t->kind == T_FUNCTION || t->unsized) {
		(void)fail(c, "%s: a value cannot have type %u (%s)", opname(c->op), tid,
		     t->unsized ? "unsized" : "function");
		return NULL;
	}
	struct pid *d = new_id(c, id, ID_VALUE);
	if (!d)
		return NULL;
	d->type = tid;
	if (t->words) {
		d->slot = alloc_slot(c, t->words);
		if (c->failed)
			return NULL;
	}
	return d;
}

static struct pptr *new_ptr(struct rd_parse *c, struct pid *d)
{
	struct pptr *q = PUSH(c, c->ptrs, c->nptrs, c->cap_ptrs);
	if (!q)
		return NULL;
	memset(q, 0, sizeof(*q));
	q->builtin = NONE;
	q->vstride = 4;
	d->ptr = c->nptrs - 1;
	return q;
}

static struct pptr *ptr_of(struct rd_parse *c, uint32_t id)
{
	if (id == 0 || id >= c->bound || c->ids[id].kind != ID_VALUE ||
	    T(c, c->ids[id].type)->kind != T_POINTER) {
		(void)fail(c, "%s: id %u is not a pointer", opname(c->op), id);
		return NULL;
	}
	return &c->ptrs[c->ids[id].ptr];
}

/* Puts a static pointer's value in the template. */
static void set_static_ptr(struct rd_parse *c, struct pid *d, struct pptr *q)
{
	q->is_static = 1;
	c->p->tmpl[d->slot].u = q->region;
	c->p->tmpl[d->slot + 1].u = q->offset;
}

static bool is_explicit(uint32_t storage)
{
	return storage == SpvStorageClassUniform || storage == SpvStorageClassStorageBuffer ||
	       storage == SpvStorageClassPushConstant;
}

/* ------------------------------------------------------------------------ */
/* Decorations (spec 3.20; what the subset accepts)                         */

static bool deco_supported(uint32_t deco, uint32_t *nlit)
{
	switch (deco) {
	case SpvDecorationLocation:
	case SpvDecorationComponent:
	case SpvDecorationBuiltIn:
	case SpvDecorationBinding:
	case SpvDecorationDescriptorSet:
	case SpvDecorationOffset:
	case SpvDecorationArrayStride:
	case SpvDecorationMatrixStride:
	case SpvDecorationSpecId:
	case SpvDecorationXfbBuffer:
	case SpvDecorationXfbStride:
		*nlit = 1;
		return true;
	case SpvDecorationFlat:
	case SpvDecorationNoPerspective:
	case SpvDecorationColMajor:
	case SpvDecorationRowMajor:
	case SpvDecorationBlock:
	case SpvDecorationBufferBlock:
	case SpvDecorationNonWritable:
	case SpvDecorationNonReadable:
	case SpvDecorationRestrict:
	case SpvDecorationAliased:
	case SpvDecorationCoherent:
	case SpvDecorationVolatile:
	case SpvDecorationRelaxedPrecision:
	case SpvDecorationInvariant:
	case SpvDecorationNoContraction:  /* `precise`: we never contract anyway */
		*nlit = 0;
		return true;
	default:
		return false;
	}
}

static bool builtin_supported(uint32_t b)
{
	switch (b) {
	case SpvBuiltInPosition:
	case SpvBuiltInPointSize:
	case SpvBuiltInClipDistance:
	case SpvBuiltInCullDistance:
	case SpvBuiltInVertexIndex:
	case SpvBuiltInInstanceIndex:
	case SpvBuiltInViewIndex:
	case SpvBuiltInFragCoord:
	case SpvBuiltInFrontFacing:
	case SpvBuiltInSampleId:
	case SpvBuiltInSamplePosition:
	case SpvBuiltInSampleMask:
	case SpvBuiltInFragDepth:
	case SpvBuiltInGlobalInvocationId:
	case SpvBuiltInLocalInvocationId:
	case SpvBuiltInWorkgroupId:
	case SpvBuiltInNumWorkgroups:
	case SpvBuiltInLocalInvocationIndex:
	case SpvBuiltInWorkgroupSize:
		return true;
	default:
		return false;
	}
}

/* OpDecorate / OpMemberDecorate */
static bool dec_decorate(struct rd_parse *c, const struct opdesc *od)
{
	bool member = c->op == SpvOpMemberDecorate;
	uint32_t base = member ? 3 : 2;
	if (!need_words(c, base + 1, 0xffff))
		return false;
	uint32_t id = W(c, 1), deco = W(c, base), nlit;
	if (id == 0 || id >= c->bound)
		return fail(c, "%s: target id %u out of range (bound %u)", opname(c->op), id, c->bound);
	if (!deco_supported(deco, &nlit))
		return fail(c, "unsupported decoration %s (%u)", rd_spirv_name(RD_NAME_DECORATION, deco),
			    deco);
	if (c->wc != base + 1 + nlit)
		return fail(c, "%s %s: expected %u literal%s", opname(c->op),
			    rd_spirv_name(RD_NAME_DECORATION, deco), nlit, nlit == 1 ? "" : "s");
	uint32_t value = nlit ? W(c, base + 1) : 0;
	if (deco == SpvDecorationComponent && value != 0)
		return fail(c, "unsupported decoration Component %u (only 0)", value);
	if (deco == SpvDecorationBuiltIn && !builtin_supported(value))
		return fail(c, "unsupported builtin %s (%u)", rd_spirv_name(RD_NAME_BUILTIN, value), value);
	/* Decorations come before the ids they decorate (spec 2.4), so the id
	 * must still be undefined; a later definition reads the list. */
	if (c->ids[id].kind != ID_NONE)
		return fail(c, "%s: id %u is decorated after its definition", opname(c->op), id);
	struct pdeco *q = PUSH(c, c->decos, c->ndecos, c->cap_decos);
	if (!q)
		return false;
	*q = (struct pdeco){ .member = member ? W(c, 2) : NONE, .deco = deco, .value = value,
			     .next = c->ids[id].deco };
	c->ids[id].deco = c->ndecos;
	return true;
}

/* The value of decoration deco on id (member NONE) or on one of its members. */
static bool get_deco(const struct rd_parse *c, uint32_t id, uint32_t member, uint32_t deco, uint32_t *value)
{
	for (uint32_t i = c->ids[id].deco; i; i = c->decos[i - 1].next) {
		const struct pdeco *q = &c->decos[i - 1];
		if (q->member == member && q->deco == deco) {
			if (value)
				*value = q->value;
			return true;
		}
	}
	return false;
}

/* ------------------------------------------------------------------------ */
/* Module-level instructions (spec 3.42.5-3.42.6, 3.42.2-3.42.4)             */

static bool dec_ignore(struct rd_parse *c, const struct opdesc *od)
{
	return true;
}

static bool dec_string(struct rd_parse *c, const struct opdesc *od)
{
	const char *s;
	uint32_t next;
	if (!need_words(c, 3, 0xffff) || !get_string(c, 2, &s, &next))
		return false;
	return new_id(c, W(c, 1), ID_STRING) != NULL;
}

static bool dec_capability(struct rd_parse *c, const struct opdesc *od)
{
	if (!need_words(c, 2, 2))
		return false;
	uint32_t cap = W(c, 1);
	switch (cap) {
	case SpvCapabilityShader:
		c->caps_shader = true;
		return true;
	case SpvCapabilityMatrix:
	case SpvCapabilitySampleRateShading:
	case SpvCapabilityClipDistance:
	case SpvCapabilityCullDistance:
	case SpvCapabilityMultiView:
	case SpvCapabilityTransformFeedback:
		return true;
	case SpvCapabilityDemoteToHelperInvocation:
		c->caps_demote = true;
		return true;
	default:
		return fail(c, "unsupported capability %s (%u)", rd_spirv_name(RD_NAME_CAPABILITY, cap), cap);
	}
}

static bool dec_extension(struct rd_parse *c, const struct opdesc *od)
{
	static const char *const ok[] = {
		"SPV_KHR_storage_buffer_storage_class",
		"SPV_KHR_multiview",
		"SPV_KHR_terminate_invocation",
		"SPV_EXT_demote_to_helper_invocation",
	};
	const char *s;
	uint32_t next;
	if (!get_string(c, 1, &s, &next))
		return false;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (strcmp(s, ok[i]) == 0)
			return true;
	return fail(c, "unsupported extension %s", s);
}

static bool dec_ext_inst_import(struct rd_parse *c, const struct opdesc *od)
{
	const char *s;
	uint32_t next;
	if (!need_words(c, 3, 0xffff) || !get_string(c, 2, &s, &next))
		return false;
	if (strcmp(s, "GLSL.std.450") != 0)
		return fail(c, "unsupported extended instruction set %s", s);
	if (!new_id(c, W(c, 1), ID_EXTSET))
		return false;
	c->glsl_set = W(c, 1);
	return true;
}

static bool dec_memory_model(struct rd_parse *c, const struct opdesc *od)
{
	if (!need_words(c, 3, 3))
		return false;
	if (c->memory_model)
		return fail(c, "second OpMemoryModel");
	if (W(c, 1) != SpvAddressingModelLogical || W(c, 2) != SpvMemoryModelGLSL450)
		return fail(c, "unsupported memory model (addressing %u, memory %u): only Logical GLSL450",
			    W(c, 1), W(c, 2));
	c->memory_model = true;
	return true;
}

/* Entry points and execution modes are read again at the end, when the
 * functions and constants they name exist. */
static bool dec_entry_point(struct rd_parse *c, const struct opdesc *od)
{
	if (!need_words(c, 4, 0xffff))
		return false;
	uint32_t *q = PUSH(c, c->entry_pos, c->nentry_pos, c->cap_entry_pos);
	return q && (*q = c->pos, true);
}

static bool dec_execution_mode(struct rd_parse *c, const struct opdesc *od)
{
	if (!need_words(c, 3, 0xffff))
		return false;
	uint32_t *q = PUSH(c, c->mode_pos, c->nmode_pos, c->cap_mode_pos);
	return q && (*q = c->pos, true);
}

/* ------------------------------------------------------------------------ */
/* Types (spec 3.42.6)                                                      */

static struct ptype *new_type(struct rd_parse *c, enum tkind kind)
{
	struct pid *d = new_id(c, W(c, 1), ID_TYPE);
	if (!d)
		return NULL;
	struct ptype *t = PUSH(c, c->types, c->ntypes, c->cap_types);
	if (!t)
		return NULL;
	memset(t, 0, sizeof(*t));
	t->kind = (uint8_t)kind;
	d->type = c->ntypes - 1;
	uint32_t stride;
	if (get_deco(c, W(c, 1), NONE, SpvDecorationArrayStride, &stride))
		t->stride = stride;
	return t;
}

static bool check_words(struct rd_parse *c, uint64_t words)
{
	if (words > RD_SPIRV_MAX_VALUE_WORDS)
		return fail(c, "%s: type of %llu words is larger than the interpreter allows (%u)",
			    opname(c->op), (unsigned long long)words, RD_SPIRV_MAX_VALUE_WORDS);
	return true;
}

static bool dec_type(struct rd_parse *c, const struct opdesc *od)
{
	struct ptype *t, *e;
	uint32_t n;
	switch (c->op) {
	case SpvOpTypeVoid:
	case SpvOpTypeBool:
		if (!need_words(c, 2, 2) || !(t = new_type(c, c->op == SpvOpTypeVoid ? T_VOID : T_BOOL)))
			return false;
		t->words = t->fixed = c->op == SpvOpTypeBool;
		return true;
	case SpvOpTypeInt:
		if (!need_words(c, 4, 4))
			return false;
		if (W(c, 2) != 32)
			return fail(c, "unsupported type: %u-bit integer", W(c, 2));
		if (W(c, 3) > 1)
			return fail(c, "OpTypeInt: bad signedness %u", W(c, 3));
		if (!(t = new_type(c, T_INT)))
			return false;
		t->sign = (uint8_t)W(c, 3);
		t->words = t->fixed = 1;
		return true;
	case SpvOpTypeFloat:
		if (!need_words(c, 3, 3))
			return false;
		if (W(c, 2) != 32)
			return fail(c, "unsupported type: %u-bit float", W(c, 2));
		if (!(t = new_type(c, T_FLOAT)))
			return false;
		t->words = t->fixed = 1;
		return true;
	case SpvOpTypeVector:
		if (!need_words(c, 4, 4) || !(e = get_type(c, W(c, 2))))
			return false;
		if (e->kind != T_BOOL && e->kind != T_INT && e->kind != T_FLOAT)
			return fail(c, "OpTypeVector: component type %u is not a scalar", W(c, 2));
		n = W(c, 3);
		if (n < 2 || n > 4)
			return fail(c, "unsupported type: vector of %u components", n);
		if (!(t = new_type(c, T_VECTOR)))
			return false;
		t->elem = W(c, 2);
		t->count = n;
		t->words = t->fixed = n;
		return true;
	case SpvOpTypeMatrix:
		if (!need_words(c, 4, 4) || !(e = get_type(c, W(c, 2))))
			return false;
		if (ncomp_of(c, W(c, 2), T_FLOAT) < 2)
			return fail(c, "OpTypeMatrix: column type %u is not a float vector", W(c, 2));
		n = W(c, 3);
		if (n < 2 || n > 4)
			return fail(c, "OpTypeMatrix: %u columns", n);
		if (!(t = new_type(c, T_MATRIX)))
			return false;
		t->elem = W(c, 2);
		t->count = n;
		t->words = t->fixed = n * e->count;
		return true;
	case SpvOpTypeArray:
	case SpvOpTypeRuntimeArray: {
		bool rt = c->op == SpvOpTypeRuntimeArray;
		if (!need_words(c, rt ? 3 : 4, rt ? 3 : 4) || !(e = get_type(c, W(c, 2))))
			return false;
		/* An array of blocks that end in runtime arrays is allowed: it
		 * can only be the type of a descriptor array. */
		bool unsized_elem = !rt && e->kind == T_STRUCT && e->unsized;
		if (e->words == 0 && !unsized_elem)
			return fail(c, "%s: element type %u has no size", opname(c->op), W(c, 2));
		uint32_t len = 0;
		if (!rt) {
			if (!const_u32(c, W(c, 3), &len))
				return false;
			if (len == 0 || (T(c, c->ids[W(c, 3)].type)->sign && (int32_t)len <= 0))
				return fail(c, "OpTypeArray: length %d", (int32_t)len);
			if (!check_words(c, (uint64_t)len * e->fixed))
				return false;
		}
		uint32_t ew = e->words, efixed = e->fixed, depth = e->depth + 1u;
		if (depth > RD_MAX_TYPE_DEPTH)
			return fail(c, "%s: types nested deeper than %u", opname(c->op), RD_MAX_TYPE_DEPTH);
		if (!(t = new_type(c, rt ? T_RTARRAY : T_ARRAY)))
			return false;
		t->depth = (uint8_t)depth;
		t->elem = W(c, 2);
		t->count = len;
		t->words = ew * len;
		t->fixed = efixed * len;
		t->unsized = rt || unsized_elem;
		return true;
	}
	case SpvOpTypeStruct: {
		uint32_t nm = c->wc - 2, first = c->nmembers;
		uint64_t words = 0, fixed = 0;
		bool unsized = false, builtins = false;
		uint32_t depth = 1;
		if (!reserve(c, (void **)&c->members, &c->cap_members, (uint64_t)c->nmembers + nm,
			     sizeof(*c->members)))
			return false;
		for (uint32_t i = 0; i < nm; i++) {
			uint32_t mt = W(c, 2 + i);
			if (!(e = get_type(c, mt)))
				return false;
			if (e->kind == T_VOID || e->kind == T_FUNCTION || e->kind == T_POINTER)
				return fail(c, "OpTypeStruct: member %u has type %u (%s)", i, mt,
					    kind_name((enum tkind)e->kind));
			if (e->unsized && i + 1 != nm)
				return fail(c, "OpTypeStruct: only the last member may be unsized");
			unsized |= e->unsized;
			if (e->depth + 1u > depth)
				depth = e->depth + 1u;
			struct pmember *m = &c->members[first + i];
			*m = (struct pmember){ .type = mt, .word = (uint32_t)words, .offset = NONE,
					       .builtin = NONE, .location = NONE };
			words += e->words;
			fixed += e->fixed;
		}
		if (!check_words(c, fixed))
			return false;
		if (depth > RD_MAX_TYPE_DEPTH)
			return fail(c, "OpTypeStruct: types nested deeper than %u", RD_MAX_TYPE_DEPTH);
		/* Member decorations: one walk over the struct's list. */
		uint32_t sid = W(c, 1);
		if (sid == 0 || sid >= c->bound)
			return fail(c, "OpTypeStruct: result id %u out of range", sid);
		for (uint32_t i = c->ids[sid].deco; i; i = c->decos[i - 1].next) {
			const struct pdeco *q = &c->decos[i - 1];
			if (q->member == NONE)
				continue;
			if (q->member >= nm)
				return fail(c, "OpMemberDecorate: struct %u has no member %u", sid, q->member);
			struct pmember *m = &c->members[first + q->member];
			switch (q->deco) {
			case SpvDecorationOffset:
				m->offset = q->value;
				break;
			case SpvDecorationMatrixStride:
				m->mstride = q->value;
				break;
			case SpvDecorationRowMajor:
				m->rowmajor = 1;
				break;
			case SpvDecorationBuiltIn:
				m->builtin = q->value;
				builtins = true;
				break;
			case SpvDecorationLocation:
				m->location = q->value;
				break;
			case SpvDecorationFlat:
				m->flat = 1;
				break;
			case SpvDecorationNoPerspective:
				m->noperspective = 1;
				break;
			default:
				break;
			}
		}
		c->nmembers += nm;
		if (!(t = new_type(c, T_STRUCT)))
			return false;
		t->count = nm;
		t->first = first;
		t->words = unsized ? 0 : (uint32_t)words;
		t->fixed = (uint32_t)fixed;
		t->unsized = unsized;
		t->builtins = builtins;
		t->depth = (uint8_t)depth;
		if (get_deco(c, sid, NONE, SpvDecorationBlock, NULL))
			t->block = 1;
		if (get_deco(c, sid, NONE, SpvDecorationBufferBlock, NULL))
			t->block = 2;
		return true;
	}
	case SpvOpTypePointer: {
		if (!need_words(c, 4, 4) || !(e = get_type(c, W(c, 3))))
			return false;
		uint32_t sc = W(c, 2);
		switch (sc) {
		case SpvStorageClassInput:
		case SpvStorageClassOutput:
		case SpvStorageClassFunction:
		case SpvStorageClassPrivate:
		case SpvStorageClassPushConstant:
		case SpvStorageClassUniform:
		case SpvStorageClassStorageBuffer:
		case SpvStorageClassWorkgroup:
			break;
		default:
			return fail(c, "unsupported storage class %s (%u)",
				    rd_spirv_name(RD_NAME_STORAGE_CLASS, sc), sc);
		}
		if (e->kind == T_VOID || e->kind == T_FUNCTION || e->kind == T_POINTER)
			return fail(c, "OpTypePointer: pointee %u is %s", W(c, 3),
				    kind_name((enum tkind)e->kind));
		if (!(t = new_type(c, T_POINTER)))
			return false;
		t->storage = sc;
		t->elem = W(c, 3);
		t->words = t->fixed = 2;
		return true;
	}
	case SpvOpTypeFunction: {
		if (!need_words(c, 3, 0xffff) || !(e = get_type(c, W(c, 2))))
			return false;
		if (e->kind == T_FUNCTION || (e->words == 0 && e->kind != T_VOID))
			return fail(c, "OpTypeFunction: bad return type %u", W(c, 2));
		uint32_t np = c->wc - 3;
		if (!reserve(c, (void **)&c->u32, &c->cap_u32, (uint64_t)c->nu32 + np, 4))
			return false;
		uint32_t first = c->nu32;
		for (uint32_t i = 0; i < np; i++) {
			if (!(e = get_type(c, W(c, 3 + i))))
				return false;
			if (e->words == 0)
				return fail(c, "OpTypeFunction: parameter %u has no size", i);
			c->u32[c->nu32++] = W(c, 3 + i);
		}
		if (!(t = new_type(c, T_FUNCTION)))
			return false;
		t->elem = W(c, 2);
		t->count = np;
		t->first = first;
		return true;
	}
	default:
		return fail(c, "unsupported opcode %s (%u)", opname(c->op), c->op);
	}
}

/* ------------------------------------------------------------------------ */
/* Constants (spec 3.42.7).  Spec constants keep their default values: the  */
/* API has no specialization info.                                          */

static struct pid *def_const(struct rd_parse *c, uint32_t *words)
{
	if (c->fn)
		(void)fail(c, "%s inside a function", opname(c->op));
	struct pid *d = c->failed ? NULL : def_value(c, W(c, 2), W(c, 1));
	if (!d)
		return NULL;
	d->is_const = 1;
	*words = T(c, d->type)->words;
	return d;
}

static bool dec_constant(struct rd_parse *c, const struct opdesc *od)
{
	uint32_t words;
	struct pid *d;
	union rd_word *tm;
	switch (c->op) {
	case SpvOpConstantTrue:
	case SpvOpConstantFalse:
	case SpvOpSpecConstantTrue:
	case SpvOpSpecConstantFalse:
		if (!need_words(c, 3, 3) || !(d = def_const(c, &words)))
			return false;
		if (T(c, d->type)->kind != T_BOOL)
			return fail(c, "%s: type %u is not bool", opname(c->op), d->type);
		c->p->tmpl[d->slot].u = c->op == SpvOpConstantTrue || c->op == SpvOpSpecConstantTrue;
		return true;
	case SpvOpConstant:
	case SpvOpSpecConstant:
		if (!need_words(c, 4, 4) || !(d = def_const(c, &words)))
			return false;
		if (T(c, d->type)->kind != T_INT && T(c, d->type)->kind != T_FLOAT)
			return fail(c, "%s: type %u is not a 32-bit scalar", opname(c->op), d->type);
		c->p->tmpl[d->slot].u = W(c, 3);
		return true;
	case SpvOpConstantNull:
		if (!need_words(c, 3, 3) || !(d = def_const(c, &words)))
			return false;
		if (T(c, d->type)->kind == T_POINTER)
			return fail(c, "OpConstantNull: null pointers are unsupported");
		return true;  /* alloc_slot zeroed it */
	case SpvOpConstantComposite:
	case SpvOpSpecConstantComposite: {
		if (!need_words(c, 3, 0xffff) || !(d = def_const(c, &words)))
			return false;
		const struct ptype *t = T(c, d->type);
		uint32_t n = c->wc - 3, at = d->slot;
		if (t->kind != T_VECTOR && t->kind != T_MATRIX && t->kind != T_ARRAY && t->kind != T_STRUCT)
			return fail(c, "%s: type %u is not a composite", opname(c->op), d->type);
		if (n != t->count)
			return fail(c, "%s: %u constituents for a composite of %u", opname(c->op), n, t->count);
		for (uint32_t i = 0; i < n; i++) {
			uint32_t want = t->kind == T_STRUCT ? c->members[t->first + i].type : t->elem;
			uint32_t id = W(c, 3 + i), slot;
			if (!value_of(c, id, want, &slot))
				return false;
			if (!c->ids[id].is_const)
				return fail(c, "%s: constituent %u is not a constant", opname(c->op), id);
			uint32_t w = T(c, want)->words;
			tm = c->p->tmpl;
			memcpy(&tm[at], &tm[slot], (size_t)w * 4);
			at += w;
		}
		return true;
	}
	default:
		return fail(c, "unsupported opcode %s (%u)", opname(c->op), c->op);
	}
}

static const struct opdesc *op_desc(uint32_t op);
static bool decode_one(struct rd_parse *c, const struct opdesc *d);

/* OpSpecConstantOp: decode the operation like a function-body instruction
 * and run its handler once on the template, where all constants live. */
static bool dec_spec_constant_op(struct rd_parse *c, const struct opdesc *od)
{
	static const uint16_t allowed[] = {
		SpvOpSConvert, SpvOpUConvert, SpvOpFConvert, SpvOpSNegate, SpvOpNot, SpvOpIAdd,
		SpvOpISub, SpvOpIMul, SpvOpUDiv, SpvOpSDiv, SpvOpUMod, SpvOpSRem, SpvOpSMod,
		SpvOpShiftRightLogical, SpvOpShiftRightArithmetic, SpvOpShiftLeftLogical,
		SpvOpBitwiseOr, SpvOpBitwiseXor, SpvOpBitwiseAnd, SpvOpVectorShuffle,
		SpvOpCompositeExtract, SpvOpCompositeInsert, SpvOpLogicalOr, SpvOpLogicalAnd,
		SpvOpLogicalNot, SpvOpLogicalEqual, SpvOpLogicalNotEqual, SpvOpSelect, SpvOpIEqual,
		SpvOpINotEqual, SpvOpULessThan, SpvOpSLessThan, SpvOpUGreaterThan,
		SpvOpSGreaterThan, SpvOpULessThanEqual, SpvOpSLessThanEqual,
		SpvOpUGreaterThanEqual, SpvOpSGreaterThanEqual,
	};
	if (!need_words(c, 4, 0xffff))
		return false;
	if (c->fn)
		return fail(c, "OpSpecConstantOp inside a function");
	uint32_t op = W(c, 3);
	bool ok = false;
	for (size_t i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++)
		ok |= allowed[i] == op;
	if (!ok)
		return fail(c, "OpSpecConstantOp: unsupported operation %s (%u)", opname(op), op);
	/* The same instruction without the opcode operand. */
	uint32_t n = c->wc - 1;
	uint32_t *syn = malloc((size_t)n * 4);
	if (!syn)
		return fail(c, "out of memory");
	syn[0] = (n << 16) | op;
	syn[1] = W(c, 1);
	syn[2] = W(c, 2);
	for (uint32_t i = 3; i < n; i++)
		syn[i] = W(c, i + 1);
	const uint32_t *saved_in = c->in;
	uint32_t saved_wc = c->wc, saved_op = c->op, ncode = c->p->ncode;
	c->in = syn;
	c->wc = n;
	c->op = op;
	c->spec_eval = true;
	ok = decode_one(c, op_desc(op));
	c->spec_eval = false;
	c->in = saved_in;
	c->wc = saved_wc;
	c->op = saved_op;
	free(syn);
	if (!ok)
		return false;
	uint32_t id = W(c, 2);
	c->ids[id].is_const = 1;
	if (c->p->ncode == ncode)
		return true;  /* folded at decode time (e.g. a static copy) */
	struct rd_state st = { .R = c->p->tmpl, .p = c->p, .code = c->p->code };
	const struct rd_ins *in = &c->p->code[ncode];
	in->fn(&st, in);
	c->p->ncode = ncode;
	if (st.status == RD_RUN_FAULT)
		return fail(c, "OpSpecConstantOp: %s faulted", opname(op));
	return true;
}

/* ------------------------------------------------------------------------ */
/* Explicit layout (Offset, ArrayStride, MatrixStride, RowMajor)            */

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
static bool get_plan(struct rd_parse *c, const struct pptr *q, uint32_t *pool, uint32_t *extent)
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
static bool block_extent(struct rd_parse *c, uint32_t tid, uint32_t *extent)
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

/* ------------------------------------------------------------------------ */
/* Variables (spec 3.42.8 OpVariable)                                       */

/* Output builtins a function may store to: bits of enum rd_builtin_io. */
static uint32_t builtin_bit(uint32_t b)
{
	switch (b) {
	case SpvBuiltInPosition:
		return 1u << RD_BI_POSITION;
	case SpvBuiltInPointSize:
		return 1u << RD_BI_POINT_SIZE;
	case SpvBuiltInFragDepth:
		return 1u << RD_BI_FRAG_DEPTH;
	case SpvBuiltInSampleMask:
		return 1u << RD_BI_SAMPLE_MASK_OUT;
	default:
		return 0;
	}
}

/* Records that the current function writes through pointer q. */
static void note_write(struct rd_parse *c, const struct pptr *q)
{
	if (!c->fn || q->storage != SpvStorageClassOutput)
		return;
	if (q->builtin != NONE)
		c->fn->writes |= builtin_bit(q->builtin);
	const struct ptype *t = T(c, q->type);
	if (t->kind == T_STRUCT && t->builtins)  /* a whole gl_PerVertex */
		for (uint32_t i = 0; i < t->count; i++)
			if (c->members[t->first + i].builtin != NONE)
				c->fn->writes |= builtin_bit(c->members[t->first + i].builtin);
}

static void note_use(struct rd_parse *c, const struct pptr *q, uint32_t extent)
{
	if (c->fn && q->storage == SpvStorageClassPushConstant) {
		c->fn->uses_pc = 1;
		if (extent > c->fn->pc_size)
			c->fn->pc_size = extent;
	}
}

/* Whether a pointer may be stored through (Input, push constants and
 * uniform blocks are read-only). */
static bool writable(struct rd_parse *c, const struct pptr *q)
{
	switch (q->storage) {
	case SpvStorageClassInput:
	case SpvStorageClassPushConstant:
		return false;
	case SpvStorageClassUniform: {
		/* Uniform is writable only as an old-style BufferBlock. */
		const struct ptype *t = T(c, T(c, c->ids[q->var].type)->elem);
		if (t->kind == T_ARRAY)
			t = T(c, t->elem);
		return t->block == 2;
	}
	default:
		return true;
	}
}

static bool dec_variable(struct rd_parse *c, const struct opdesc *od)
{
	if (!need_words(c, 4, 5))
		return false;
	uint32_t ptid = W(c, 1), id = W(c, 2), sc = W(c, 3);
	const struct ptype *pt = get_type(c, ptid);
	if (!pt)
		return false;
	if (pt->kind != T_POINTER || pt->storage != sc)
		return fail(c, "OpVariable: type %u is not a pointer of storage class %s", ptid,
			    rd_spirv_name(RD_NAME_STORAGE_CLASS, sc));
	uint32_t vt = pt->elem;
	if (c->fn) {
		if (sc != SpvStorageClassFunction)
			return fail(c, "OpVariable of storage class %s inside a function",
				    rd_spirv_name(RD_NAME_STORAGE_CLASS, sc));
		if (!c->in_first_block)
			return fail(c, "OpVariable outside the first block of its function");
	} else if (sc == SpvStorageClassFunction) {
		return fail(c, "OpVariable of storage class Function outside a function");
	}
	struct pid *d = def_value(c, id, ptid);
	struct pptr *q = d ? new_ptr(c, d) : NULL;
	if (!q)
		return false;
	d->is_var = 1;
	q->storage = sc;
	q->type = vt;
	q->var = id;
	get_deco(c, id, NONE, SpvDecorationBuiltIn, &q->builtin);
	const struct ptype *t = T(c, vt);
	uint32_t storage_slot = NONE, extent = 0;
	switch (sc) {
	case SpvStorageClassInput:
	case SpvStorageClassOutput:
	case SpvStorageClassFunction:
	case SpvStorageClassPrivate:
		if (t->unsized)
			return fail(c, "OpVariable: unsized type in storage class %s",
				    rd_spirv_name(RD_NAME_STORAGE_CLASS, sc));
		storage_slot = alloc_slot(c, t->words);
		if (c->failed)
			return false;
		q->region = RD_REGION_STATE;
		q->offset = storage_slot * 4;
		break;
	case SpvStorageClassWorkgroup:
		if (t->unsized)
			return fail(c, "OpVariable: unsized Workgroup variable");
		if ((uint64_t)c->wg_bytes + (uint64_t)t->words * 4 > RD_SPIRV_MAX_VALUE_WORDS * 4)
			return fail(c, "Workgroup variables larger than %u bytes", RD_SPIRV_MAX_VALUE_WORDS * 4);
		q->region = RD_REGION_WG;
		q->offset = c->wg_bytes;
		c->wg_bytes += t->words * 4;
		break;
	case SpvStorageClassPushConstant:
		if (t->kind != T_STRUCT || t->block != 1)
			return fail(c, "PushConstant variable %u is not a Block struct", id);
		if (!block_extent(c, vt, &extent))
			return false;
		if (extent > RD_PUSH_CONSTANT_BYTES)
			return fail(c, "push-constant block of %u bytes is larger than %u", extent,
				    RD_PUSH_CONSTANT_BYTES);
		q->region = RD_REGION_PUSH;
		break;
	case SpvStorageClassUniform:
	case SpvStorageClassStorageBuffer: {
		uint32_t set, binding, count = 1, bt = vt;
		if (!get_deco(c, id, NONE, SpvDecorationDescriptorSet, &set) ||
		    !get_deco(c, id, NONE, SpvDecorationBinding, &binding))
			return fail(c, "%s variable %u without DescriptorSet and Binding",
				    rd_spirv_name(RD_NAME_STORAGE_CLASS, sc), id);
		if (t->kind == T_ARRAY) {
			count = t->count;
			bt = t->elem;
			q->desc_array = 1;
		} else if (t->kind == T_RTARRAY) {
			return fail(c, "runtime arrays of descriptors are unsupported");
		}
		const struct ptype *b = T(c, bt);
		bool ok = b->kind == T_STRUCT &&
			  (sc == SpvStorageClassStorageBuffer ? b->block == 1 : b->block != 0);
		if (!ok)
			return fail(c, "%s variable %u is not a %s struct",
				    rd_spirv_name(RD_NAME_STORAGE_CLASS, sc), id,
				    sc == SpvStorageClassStorageBuffer ? "Block" : "Block or BufferBlock");
		if (b->unsized && sc == SpvStorageClassUniform && b->block == 1)
			return fail(c, "uniform block %u has a runtime array", id);
		if (count > RD_REGION_DESC_MAX_ELEMENTS)
			return fail(c, "descriptor array of %u elements is too large", count);
		if (!block_extent(c, bt, &extent))
			return false;
		struct rd_desc *ds = PUSH(c, c->p->descs, c->p->ndescs, c->cap_descs);
		if (!ds)
			return false;
		if (c->p->ndescs > RD_REGION_DESC_MAX)
			return fail(c, "too many descriptor variables");
		*ds = (struct rd_desc){ set, binding, count };
		q->region = RD_REGION_DESC | ((c->p->ndescs - 1) << 16);
		break;
	}
	default:
		return fail(c, "unsupported storage class %s (%u)", rd_spirv_name(RD_NAME_STORAGE_CLASS, sc), sc);
	}
	set_static_ptr(c, d, q);
	if (c->wc == 5) {
		uint32_t init = W(c, 4), slot;
		if (storage_slot == NONE || sc == SpvStorageClassInput)
			return fail(c, "OpVariable: initializer in storage class %s is unsupported",
				    rd_spirv_name(RD_NAME_STORAGE_CLASS, sc));
		if (!value_of(c, init, vt, &slot))
			return false;
		if (!c->fn) {
			if (!c->ids[init].is_const)
				return fail(c, "OpVariable: initializer %u is not a constant", init);
			memcpy(&c->p->tmpl[storage_slot], &c->p->tmpl[slot], (size_t)t->words * 4);
		} else {
			struct rd_ins *in = emit(c, rd_ex_copy);
			if (!in)
				return false;
			in->r = storage_slot;
			in->a = slot;
			in->n = t->words;
		}
	}
	if (!c->fn) {
		struct pvar *v = PUSH(c, c->vars, c->nvars, c->cap_vars);
		if (!v)
			return false;
		*v = (struct pvar){ id, sc, storage_slot };
	}
	return true;
}

/* The byte extent of the block a pointer into push constants points into. */
static uint32_t pc_extent(struct rd_parse *c, const struct pptr *q)
{
	uint32_t e = 0;
	if (q->storage == SpvStorageClassPushConstant && q->var)
		block_extent(c, T(c, c->ids[q->var].type)->elem, &e);
	return e;
}

/* ------------------------------------------------------------------------ */
/* Functions (spec 3.42.9)                                                  */

static bool dec_function(struct rd_parse *c, const struct opdesc *od)
{
	if (!need_words(c, 5, 5))
		return false;
	if (c->fn)
		return fail(c, "OpFunction inside a function");
	uint32_t rt = W(c, 1), id = W(c, 2), ft = W(c, 4);
	const struct ptype *f = get_type(c, ft);
	if (!f || !get_type(c, rt))
		return false;
	if (f->kind != T_FUNCTION || f->elem != rt)
		return fail(c, "OpFunction: type %u is not a function returning %u", ft, rt);
	if (W(c, 3) & SpvFunctionControlOptNoneINTELMask)
		return fail(c, "OpFunction: unsupported function control 0x%x", W(c, 3));
	struct pid *d = new_id(c, id, ID_FUNC);
	if (!d)
		return false;
	uint32_t np = f->count;
	if (!reserve(c, (void **)&c->u32, &c->cap_u32, (uint64_t)c->nu32 + np, 4))
		return false;
	struct pfunc *fn = PUSH(c, c->funcs, c->nfuncs, c->cap_funcs);
	if (!fn)
		return false;
	*fn = (struct pfunc){ .id = id, .type = ft, .code = NONE, .params = c->nu32, .nparams = np };
	c->nu32 += np;
	d->type = ft;
	d->slot = c->nfuncs - 1;
	c->fn = fn;
	c->fn_index = c->nfuncs - 1;
	c->nparams_seen = 0;
	c->label = 0;
	c->nblocks = 0;
	c->first_patch = c->npatches;
	return true;
}

static bool dec_function_parameter(struct rd_parse *c, const struct opdesc *od)
{
	if (!need_words(c, 3, 3))
		return false;
	if (!c->fn || c->nblocks || c->nparams_seen >= c->fn->nparams)
		return fail(c, "unexpected OpFunctionParameter");
	const struct ptype *f = T(c, c->fn->type);
	uint32_t want = c->u32[f->first + c->nparams_seen];
	if (!get_type(c, W(c, 1)))
		return false;
	if (!same_type(c, W(c, 1), want))
		return fail(c, "OpFunctionParameter: type %u, the function type says %u", W(c, 1), want);
	struct pid *d = def_value(c, W(c, 2), W(c, 1));
	if (!d)
		return false;
	c->u32[c->fn->params + c->nparams_seen++] = W(c, 2);
	const struct ptype *t = T(c, d->type);
	if (t->kind == T_POINTER) {
		/* glslang passes `out`/`inout` through Function temporaries;
		 * pointers into buffers would need their layout per call. */
		if (is_explicit(t->storage))
			return fail(c, "OpFunctionParameter: pointers into %s memory are unsupported",
				    rd_spirv_name(RD_NAME_STORAGE_CLASS, t->storage));
		struct pptr *q = new_ptr(c, d);
		if (!q)
			return false;
		q->storage = t->storage;
		q->type = t->elem;
	}
	return true;
}

static bool dec_label(struct rd_parse *c, const struct opdesc *od)
{
	if (!need_words(c, 2, 2))
		return false;
	if (!c->fn)
		return fail(c, "OpLabel outside a function");
	if (c->label)
		return fail(c, "block %u has no terminator", c->label);
	if (c->nparams_seen != c->fn->nparams)
		return fail(c, "function %u: %u of %u parameters declared", c->fn->id, c->nparams_seen,
			    c->fn->nparams);
	struct pid *d = new_id(c, W(c, 1), ID_LABEL);
	if (!d)
		return false;
	d->type = c->fn_index;
	d->slot = c->p->ncode;
	if (c->nblocks == 0)
		c->fn->code = c->p->ncode;
	c->in_first_block = c->nblocks == 0;
	c->nblocks++;
	uint32_t *insns = PUSH(c, c->p->block_insns, c->p->nblocks, c->cap_block_insns);
	c->p->nblocks--;
	uint32_t *code = insns ? PUSH(c, c->p->block_code, c->p->nblocks, c->cap_block_code) : NULL;
	if (!code)
		return false;
	*insns = 0;
	*code = c->p->ncode;
	c->label = W(c, 1);
	c->phi_ins = NONE;
	c->phis_done = false;
	return true;
}

static bool dec_function_end(struct rd_parse *c, const struct opdesc *od)
{
	if (!need_words(c, 1, 1))
		return false;
	if (!c->fn)
		return fail(c, "OpFunctionEnd outside a function");
	if (c->label)
		return fail(c, "function ends inside block %u", c->label);
	if (c->nblocks == 0)
		return fail(c, "function %u has no body (declarations need Linkage, unsupported)", c->fn->id);
	struct rd_program *p = c->p;
	for (uint32_t i = c->first_patch; i < c->npatches; i++) {
		const struct ppatch *q = &c->patches[i];
		uint32_t v;
		c->pos = q->word;
		if (q->id == 0 || q->id >= c->bound)
			return fail(c, "id %u out of range", q->id);
		const struct pid *d = &c->ids[q->id];
		if (q->phi) {
			if (d->kind != ID_VALUE)
				return fail(c, "OpPhi: operand %u is not a value", q->id);
			if (!same_type(c, d->type, q->type))
				return fail(c, "OpPhi: operand %u has type %u, expected %u", q->id, d->type, q->type);
			v = d->slot;
		} else {
			if (d->kind != ID_LABEL || d->type != c->fn_index)
				return fail(c, "branch target %u is not a label of this function", q->id);
			v = d->slot;
		}
		switch (q->field) {
		case 0: p->pool[q->idx] = v; break;
		case 1: p->code[q->idx].a = v; break;
		case 2: p->code[q->idx].b = v; break;
		default: p->code[q->idx].c = v; break;
		}
	}
	c->npatches = c->first_patch;
	c->fn->ended = 1;
	c->fn = NULL;
	return true;
}

static bool dec_call(struct rd_parse *c, const struct opdesc *od)
{
	if (!need_words(c, 4, 0xffff))
		return false;
	uint32_t rt = W(c, 1), nargs = c->wc - 4;
	struct pid *d = def_value(c, W(c, 2), rt);
	if (!d)
		return false;
	uint32_t at = pool_alloc(c, 3 * nargs);
	if (at == NONE)
		return false;
	for (uint32_t i = 0; i < nargs; i++) {
		uint32_t t, slot, id = W(c, 4 + i);
		if (!use_value(c, id, &t, &slot))
			return false;
		if (T(c, t)->kind == T_POINTER)
			note_write(c, &c->ptrs[c->ids[id].ptr]);
		c->p->pool[at + 3 * i] = t;  /* the parameter's slot once the callee is known */
		c->p->pool[at + 3 * i + 1] = slot;
		c->p->pool[at + 3 * i + 2] = T(c, t)->words;
	}
	struct rd_ins *in = emit(c, rd_ex_call);
	struct pcall *k = in ? PUSH(c, c->calls, c->ncalls, c->cap_calls) : NULL;
	if (!k)
		return false;
	in = &c->p->code[c->p->ncode - 1];
	in->r = d->slot;
	in->b = T(c, rt)->words;
	in->c = rt;  /* checked against the callee when the module ends */
	in->n = nargs;
	in->x = at;
	*k = (struct pcall){ .callee = W(c, 3), .ins = c->p->ncode - 1, .word = c->pos, .next = c->fn->calls };
	c->fn->calls = c->ncalls;
	return true;
}

/* ------------------------------------------------------------------------ */
/* Control flow (spec 3.42.17)                                              */

static bool dec_merge(struct rd_parse *c, const struct opdesc *od)
{
	/* Structured control flow needs no code here: branches say it all. */
	return need_words(c, c->op == SpvOpLoopMerge ? 4 : 3, 0xffff);
}

static bool dec_phi(struct rd_parse *c, const struct opdesc *od)
{
	if (!need_words(c, 5, 0xffff))
		return false;
	if ((c->wc - 3) % 2)
		return fail(c, "OpPhi: odd operand count");
	if (c->phis_done)
		return fail(c, "OpPhi after other instructions of its block");
	uint32_t rt = W(c, 1);
	struct pid *d = def_value(c, W(c, 2), rt);
	if (!d)
		return false;
	if (T(c, rt)->kind == T_POINTER)
		return fail(c, "OpPhi of pointers needs VariablePointers (unsupported)");
	uint32_t words = T(c, rt)->words, npairs = (c->wc - 3) / 2;
	if (c->phi_ins == NONE) {
		struct rd_ins *in = emit(c, rd_ex_phi);
		if (!in)
			return false;
		in->x = c->p->npool;
		c->phi_ins = c->p->ncode - 1;
	}
	uint32_t at = pool_alloc(c, 3 + 2 * npairs);
	if (at == NONE)
		return false;
	uint32_t *pl = &c->p->pool[at];
	pl[0] = d->slot;
	pl[1] = words;
	pl[2] = npairs;
	for (uint32_t i = 0; i < npairs; i++) {
		uint32_t v = W(c, 3 + 2 * i), parent = W(c, 4 + 2 * i), slot;
		if (parent == 0 || parent >= c->bound || v == 0 || v >= c->bound)
			return fail(c, "OpPhi: id out of range");
		c->p->pool[at + 3 + 2 * i] = parent;
		if (c->ids[v].kind == ID_NONE) {
			if (!add_patch(c, at + 4 + 2 * i, 0, v, true, rt))
				return false;
		} else {
			if (!value_of(c, v, rt, &slot))
				return false;
			c->p->pool[at + 4 + 2 * i] = slot;
		}
	}
	struct rd_ins *g = &c->p->code[c->phi_ins];
	g->n++;
	g->c += words;
	if (g->c > c->max_phi_words)
		c->max_phi_words = g->c;
	return true;
}

static bool dec_branch(struct rd_parse *c, const struct opdesc *od)
{
	struct rd_ins *in;
	uint32_t slot;
	switch (c->op) {
	case SpvOpBranch:
		if (!need_words(c, 2, 2) || !(in = emit(c, rd_ex_branch)))
			return false;
		in->r = c->label;
		return target(c, c->p->ncode - 1, 1, W(c, 1));
	case SpvOpBranchConditional:
		if (c->wc != 4 && c->wc != 6)
			return fail(c, "OpBranchConditional has %u words", c->wc);
		if (!operand_num(c, W(c, 1), T_BOOL, 1, &slot) || !(in = emit(c, rd_ex_branch_cond)))
			return false;
		in->r = c->label;
		in->a = slot;
		return target(c, c->p->ncode - 1, 2, W(c, 2)) && target(c, c->p->ncode - 1, 3, W(c, 3));
	default: {  /* OpSwitch */
		if (!need_words(c, 3, 0xffff))
			return false;
		if ((c->wc - 3) % 2)
			return fail(c, "OpSwitch: only 32-bit selectors are supported");
		if (!operand_num(c, W(c, 1), T_INT, 1, &slot))
			return false;
		uint32_t n = (c->wc - 3) / 2, at = pool_alloc(c, 2 * n);
		if (at == NONE || !(in = emit(c, rd_ex_switch)))
			return false;
		in->r = c->label;
		in->a = slot;
		in->n = n;
		in->x = at;
		uint32_t k = c->p->ncode - 1;
		if (!target(c, k, 2, W(c, 2)))
			return false;
		for (uint32_t i = 0; i < n; i++) {
			c->p->pool[at + 2 * i] = W(c, 3 + 2 * i);
			if (!target(c, at + 2 * i + 1, 0, W(c, 4 + 2 * i)))
				return false;
		}
		return true;
	}
	}
}

static bool dec_return(struct rd_parse *c, const struct opdesc *od)
{
	uint32_t rt = T(c, c->fn->type)->elem, slot;
	struct rd_ins *in;
	if (c->op == SpvOpReturn) {
		if (!need_words(c, 1, 1))
			return false;
		if (T(c, rt)->kind != T_VOID)
			return fail(c, "OpReturn in a function returning a value");
		return emit(c, rd_ex_ret) != NULL;
	}
	if (!need_words(c, 2, 2) || !value_of(c, W(c, 1), rt, &slot) || !(in = emit(c, rd_ex_ret_value)))
		return false;
	in->a = slot;
	in->n = T(c, rt)->words;
	return true;
}

static bool dec_kill(struct rd_parse *c, const struct opdesc *od)
{
	if (!need_words(c, 1, 1))
		return false;
	if (c->op == SpvOpDemoteToHelperInvocation && !c->caps_demote)
		return fail(c, "OpDemoteToHelperInvocation without its capability");
	/* A demoted invocation's further side effects are not observable
	 * (spec 3.42.17), so demote ends the run like a discard. */
	if (c->op != SpvOpUnreachable)
		c->fn->discards = 1;
	return emit(c, c->op == SpvOpUnreachable ? rd_ex_unreachable : rd_ex_kill) != NULL;
}

/* ------------------------------------------------------------------------ */
/* Memory (spec 3.42.8)                                                     */

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

static bool emit_load(struct rd_parse *c, const struct pptr *q, uint32_t ptr_slot, uint32_t dst)
{
	uint32_t words = T(c, q->type)->words, plan, extent;
	struct rd_ins *in;
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

static bool dec_load(struct rd_parse *c, const struct opdesc *od)
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
	struct pid *d = def_value(c, W(c, 2), W(c, 1));
	return d && emit_load(c, &c->ptrs[c->ids[W(c, 3)].ptr], ptr_slot, d->slot);
}

static bool dec_store(struct rd_parse *c, const struct opdesc *od)
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

static bool dec_copy_memory(struct rd_parse *c, const struct opdesc *od)
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

static bool dec_access_chain(struct rd_parse *c, const struct opdesc *od)
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

static bool dec_array_length(struct rd_parse *c, const struct opdesc *od)
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
/* Composites (spec 3.42.12)                                                */

/* A result that is a copy of words already in the state shares their slot:
 * in SSA form the source cannot change between the copy and any use of it
 * (the source's definition dominates the copy, which dominates the use). */
static struct pid *def_alias(struct rd_parse *c, uint32_t id, uint32_t tid, uint32_t slot)
{
	const struct ptype *t = get_type(c, tid);
	if (!t)
		return NULL;
	struct pid *d = new_id(c, id, ID_VALUE);
	if (!d)
		return NULL;
	d->type = tid;
	d->slot = slot;
	return d;
}

/* Walks literal indices into composite type *tid from word i on: the word
 * offset and the type reached. */
static bool walk_literals(struct rd_parse *c, uint32_t i, uint32_t *tid, uint32_t *off)
{
	*off = 0;
	for (; i < c->wc; i++) {
		const struct ptype *t = T(c, *tid);
		uint32_t k = W(c, i);
		switch (t->kind) {
		case T_VECTOR:
		case T_MATRIX:
		case T_ARRAY:
			if (k >= t->count)
				return fail(c, "%s: index %u out of bounds (%u)", opname(c->op), k, t->count);
			*off += k * T(c, t->elem)->words;
			*tid = t->elem;
			break;
		case T_STRUCT:
			if (k >= t->count)
				return fail(c, "%s: struct has no member %u", opname(c->op), k);
			*off += c->members[t->first + k].word;
			*tid = c->members[t->first + k].type;
			break;
		default:
			return fail(c, "%s: too many indices", opname(c->op));
		}
	}
	return true;
}

static bool dec_composite(struct rd_parse *c, const struct opdesc *od)
{
	uint32_t rt = W(c, 1), id = W(c, 2), t1, s1, t2, s2, off, n;
	const struct ptype *t = get_type(c, rt);
	struct rd_ins *in;
	struct pid *d;
	if (!t || !need_words(c, 3, 0xffff))
		return false;
	switch (c->op) {
	case SpvOpCompositeConstruct: {
		uint32_t nc = c->wc - 3, k = 0, at;
		if (t->kind != T_VECTOR && t->kind != T_MATRIX && t->kind != T_ARRAY && t->kind != T_STRUCT)
			return fail(c, "OpCompositeConstruct: type %u is not a composite", rt);
		if (t->kind != T_VECTOR && nc != t->count)
			return fail(c, "OpCompositeConstruct: %u constituents for %u", nc, t->count);
		if ((at = pool_alloc(c, t->words)) == NONE)
			return false;
		for (uint32_t i = 0; i < nc; i++) {
			uint32_t cid = W(c, 3 + i);
			if (t->kind == T_VECTOR) {
				if (!use_value(c, cid, &t1, &s1))
					return false;
				uint32_t m = ncomp_of(c, t1, (enum tkind)T(c, t->elem)->kind);
				if (m == 0 || (T(c, t1)->kind == T_VECTOR ? T(c, t1)->elem : t1) != t->elem)
					return fail(c, "OpCompositeConstruct: constituent %u is not made of %u", cid, t->elem);
				if (k + m > t->words)
					return fail(c, "OpCompositeConstruct: too many components");
				for (uint32_t j = 0; j < m; j++)
					c->p->pool[at + k++] = s1 + j;
				continue;
			}
			uint32_t want = t->kind == T_STRUCT ? c->members[t->first + i].type : t->elem;
			if (!value_of(c, cid, want, &s1))
				return false;
			for (uint32_t j = 0; j < T(c, want)->words; j++)
				c->p->pool[at + k++] = s1 + j;
		}
		if (k != t->words)
			return fail(c, "OpCompositeConstruct: %u components for %u", k, t->words);
		if (!(d = def_value(c, id, rt)) || !(in = emit(c, rd_ex_gather)))
			return false;
		in->r = d->slot;
		in->n = t->words;
		in->x = at;
		return true;
	}
	case SpvOpCompositeExtract:
		if (!need_words(c, 5, 0xffff) || !use_value(c, W(c, 3), &t1, &s1) ||
		    !walk_literals(c, 4, &t1, &off))
			return false;
		if (!same_type(c, t1, rt))
			return fail(c, "OpCompositeExtract: result type %u, the indices reach %u", rt, t1);
		if (t->kind == T_POINTER)
			return fail(c, "OpCompositeExtract: pointer result");
		return def_alias(c, id, rt, s1 + off) != NULL;
	case SpvOpCompositeInsert:
		if (!need_words(c, 6, 0xffff) || !value_of(c, W(c, 4), rt, &s2) ||
		    !use_value(c, W(c, 3), &t1, &s1))
			return false;
		t2 = rt;
		if (!walk_literals(c, 5, &t2, &off))
			return false;
		if (!same_type(c, t1, t2))
			return fail(c, "OpCompositeInsert: object type %u, the indices reach %u", t1, t2);
		if (!(d = def_value(c, id, rt)) || !(in = emit(c, rd_ex_insert)))
			return false;
		in->r = d->slot;
		in->a = s2;
		in->b = s1;
		in->n = t->words;
		in->c = T(c, t1)->words;
		in->x = off;
		return true;
	case SpvOpVectorShuffle: {
		if (!need_words(c, 6, 0xffff) || !use_value(c, W(c, 3), &t1, &s1) ||
		    !use_value(c, W(c, 4), &t2, &s2))
			return false;
		const struct ptype *v1 = T(c, t1), *v2 = T(c, t2);
		n = c->wc - 5;
		if (t->kind != T_VECTOR || v1->kind != T_VECTOR || v2->kind != T_VECTOR ||
		    v1->elem != t->elem || v2->elem != t->elem || n != t->count)
			return fail(c, "OpVectorShuffle: operand or result types do not match");
		uint32_t at = pool_alloc(c, n);
		if (at == NONE)
			return false;
		for (uint32_t i = 0; i < n; i++) {
			uint32_t k = W(c, 5 + i);
			if (k == 0xffffffffu)  /* an undefined component */
				c->p->pool[at + i] = c->zero_slot;
			else if (k < v1->count)
				c->p->pool[at + i] = s1 + k;
			else if (k - v1->count < v2->count)
				c->p->pool[at + i] = s2 + (k - v1->count);
			else
				return fail(c, "OpVectorShuffle: component %u out of range", k);
		}
		if (!(d = def_value(c, id, rt)) || !(in = emit(c, rd_ex_gather)))
			return false;
		in->r = d->slot;
		in->n = n;
		in->x = at;
		return true;
	}
	case SpvOpVectorExtractDynamic:
	case SpvOpVectorInsertDynamic: {
		bool ins = c->op == SpvOpVectorInsertDynamic;
		if (!need_words(c, ins ? 6 : 5, ins ? 6 : 5) || !use_value(c, W(c, 3), &t1, &s1) ||
		    !use_value(c, W(c, ins ? 5 : 4), &t2, &s2))
			return false;
		const struct ptype *v = T(c, t1);
		if (v->kind != T_VECTOR || T(c, t2)->kind != T_INT ||
		    (ins ? t1 != rt : v->elem != rt))
			return fail(c, "%s: operand or result types do not match", opname(c->op));
		uint32_t s3 = 0;
		if (ins && !value_of(c, W(c, 4), v->elem, &s3))
			return false;
		if (!(d = def_value(c, id, rt)) || !(in = emit(c, ins ? rd_ex_insert_dyn : rd_ex_extract_dyn)))
			return false;
		in->r = d->slot;
		in->a = s1;
		in->b = s2;     /* index */
		in->c = s3;     /* component to insert */
		in->n = v->count;
		in->x = T(c, t2)->sign;
		return true;
	}
	case SpvOpCopyObject:
	case SpvOpCopyLogical: {
		if (!need_words(c, 4, 4) || !use_value(c, W(c, 3), &t1, &s1))
			return false;
		bool ok = c->op == SpvOpCopyObject ? same_type(c, t1, rt)
			: T(c, t1)->words == t->words && t->kind != T_POINTER && T(c, t1)->kind != T_POINTER;
		if (!ok)
			return fail(c, "%s: result type %u does not match operand type %u", opname(c->op), rt, t1);
		if (!(d = def_alias(c, id, rt, s1)))
			return false;
		if (t->kind == T_POINTER) {
			struct pptr *q = new_ptr(c, d);
			if (!q)
				return false;
			*q = c->ptrs[c->ids[W(c, 3)].ptr];
		}
		return true;
	}
	default: {  /* OpTranspose */
		if (!need_words(c, 4, 4) || !use_value(c, W(c, 3), &t1, &s1))
			return false;
		const struct ptype *m = T(c, t1);
		if (t->kind != T_MATRIX || m->kind != T_MATRIX || t->count != T(c, m->elem)->count ||
		    m->count != T(c, t->elem)->count)
			return fail(c, "OpTranspose: type %u is not the transpose of %u", rt, t1);
		uint32_t cols = m->count, rows = T(c, m->elem)->count, at = pool_alloc(c, t->words);
		if (at == NONE)
			return false;
		for (uint32_t r = 0; r < rows; r++)
			for (uint32_t k = 0; k < cols; k++)
				c->p->pool[at + r * cols + k] = s1 + k * rows + r;
		if (!(d = def_value(c, id, rt)) || !(in = emit(c, rd_ex_gather)))
			return false;
		in->r = d->slot;
		in->n = t->words;
		in->x = at;
		return true;
	}
	}
}

/* ------------------------------------------------------------------------ */
/* Conversion, arithmetic, bit, relational and logical instructions         */
/* (spec 3.42.11, 3.42.13-15).  desc->arg names the operand kind.           */


/* Same-shape operation: result and n operands scalars/vectors of one kind
 * (result kind arg2 if nonzero, e.g. bool for comparisons). */
static bool dec_numeric(struct rd_parse *c, const struct opdesc *od, uint32_t nops)
{
	uint32_t n, s[3] = { 0, 0, 0 };
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

static bool dec_unary(struct rd_parse *c, const struct opdesc *d)
{
	return dec_numeric(c, d, 1);
}

static bool dec_binary(struct rd_parse *c, const struct opdesc *d)
{
	return dec_numeric(c, d, 2);
}

/* Conversions that keep every bit (32-bit to 32-bit) share the operand's slot. */
static bool dec_convert(struct rd_parse *c, const struct opdesc *od)
{
	uint32_t n, s, t;
	if (!need_words(c, 4, 4))
		return false;
	if (od->fn)
		return dec_numeric(c, od, 1);
	if (c->op == SpvOpBitcast) {
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

static bool dec_select(struct rd_parse *c, const struct opdesc *od)
{
	uint32_t ct, cs, s1, s2;
	if (!need_words(c, 6, 6) || !get_type(c, W(c, 1)) || !use_value(c, W(c, 3), &ct, &cs) ||
	    !value_of(c, W(c, 4), W(c, 1), &s1) || !value_of(c, W(c, 5), W(c, 1), &s2))
		return false;
	const struct ptype *t = T(c, W(c, 1));
	uint32_t nc = ncomp_of(c, ct, T_BOOL);
	if (t->kind == T_POINTER)
		return fail(c, "OpSelect of pointers needs VariablePointers (unsupported)");
	if (nc == 0 || (nc > 1 && (t->kind != T_VECTOR || t->count != nc)))
		return fail(c, "OpSelect: condition %u does not match the result", W(c, 3));
	struct pid *d = def_value(c, W(c, 2), W(c, 1));
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
static bool dec_reduce(struct rd_parse *c, const struct opdesc *od)
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
static bool dec_linear(struct rd_parse *c, const struct opdesc *od)
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
static bool dec_extended(struct rd_parse *c, const struct opdesc *od)
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
static bool dec_bitfield(struct rd_parse *c, const struct opdesc *od)
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
static bool dec_atomic(struct rd_parse *c, const struct opdesc *od)
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
	case SpvStorageClassUniform:
	case SpvStorageClassWorkgroup:
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
	if (q->storage != SpvStorageClassWorkgroup && !writable(c, q))
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

static bool dec_barrier(struct rd_parse *c, const struct opdesc *od)
{
	if (c->op == SpvOpControlBarrier)
		return fail(c, "unsupported opcode OpControlBarrier (%u): the interpreter runs a "
			    "workgroup's invocations one at a time", c->op);
	if (!need_words(c, 3, 3) || !scope_semantics(c, 1, 2))
		return false;
	return emit(c, od->fn) != NULL;
}

/* ------------------------------------------------------------------------ */
/* Miscellaneous (spec 3.42.1) and extended instructions (3.42.4)           */

static bool dec_undef(struct rd_parse *c, const struct opdesc *od)
{
	if (!need_words(c, 3, 3))
		return false;
	/* Any value will do: the template's zeros. */
	struct pid *d = def_value(c, W(c, 2), W(c, 1));
	if (d && T(c, d->type)->kind == T_POINTER)
		return fail(c, "OpUndef of a pointer type is unsupported");
	return d != NULL;
}

static bool dec_helper(struct rd_parse *c, const struct opdesc *od)
{
	uint32_t n;
	if (!need_words(c, 3, 3) || !result_num(c, W(c, 1), T_BOOL, &n))
		return false;
	if (!c->caps_demote || n != 1)
		return fail(c, "OpIsHelperInvocationEXT without DemoteToHelperInvocation");
	/* Demotion ends the run here, so a running invocation is never a helper. */
	struct pid *d = def_value(c, W(c, 2), W(c, 1));
	struct rd_ins *in = d ? emit(c, od->fn) : NULL;
	if (!in)
		return false;
	in->r = d->slot;
	in->n = 1;
	return true;
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

static bool dec_ext_inst(struct rd_parse *c, const struct opdesc *od)
{
	if (!need_words(c, 5, 0xffff))
		return false;
	uint32_t rt = W(c, 1), set = W(c, 3), g = W(c, 4), nops = c->wc - 5, n, s[3] = { 0, 0, 0 }, t;
	if (set == 0 || set != c->glsl_set)
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

/* ------------------------------------------------------------------------ */
/* The opcode table, by spec section                                        */

/* Logical layout sections (spec 2.4), in the order they must come. */
enum { S_ANY, S_CAP, S_EXT, S_IMPORT, S_MODEL, S_ENTRY, S_MODE, S_DEBUG, S_ANNOT, S_GLOBAL, S_FUNC };
#define F_BODY 1u    /* only inside a block */
#define F_EITHER 2u  /* at module scope (S_GLOBAL) or inside a block */
#define F_TERM 4u    /* ends its block */
#define F_PHI 8u     /* may only start a block */

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
	OP(TypeFunction, dec_type, NULL, S_GLOBAL, 0, 0, 0),
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
	/* 3.42.20 Barrier */
	BODY(ControlBarrier, dec_barrier, NULL, 0, 0),
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
};

static const struct opdesc *op_desc(uint32_t op)
{
	if (op < sizeof(ops) / sizeof(ops[0]))
		return ops[op].decode ? &ops[op] : NULL;
	for (size_t i = 0; i < sizeof(ops_ext) / sizeof(ops_ext[0]); i++)
		if (ops_ext[i].op == op)
			return &ops_ext[i].d;
	return NULL;
}

static bool decode_one(struct rd_parse *c, const struct opdesc *d)
{
	return d->decode(c, d);
}

/* ------------------------------------------------------------------------ */
/* Finishing: calls, recursion, entry points                                */

static bool finish_calls(struct rd_parse *c)
{
	struct rd_program *p = c->p;
	for (uint32_t i = 0; i < c->ncalls; i++) {
		const struct pcall *k = &c->calls[i];
		struct rd_ins *in = &p->code[k->ins];
		c->pos = k->word;
		c->op = SpvOpFunctionCall;
		if (k->callee == 0 || k->callee >= c->bound || c->ids[k->callee].kind != ID_FUNC)
			return fail(c, "OpFunctionCall: %u is not a function", k->callee);
		const struct pfunc *f = &c->funcs[c->ids[k->callee].slot];
		const struct ptype *ft = T(c, f->type);
		if (!f->ended)
			return fail(c, "OpFunctionCall: function %u has no body", k->callee);
		if (ft->count != in->n)
			return fail(c, "OpFunctionCall: %u arguments for %u parameters", in->n, ft->count);
		if (!same_type(c, ft->elem, in->c))
			return fail(c, "OpFunctionCall: result type %u, function %u returns %u", in->c,
				    k->callee, ft->elem);
		for (uint32_t j = 0; j < in->n; j++) {
			uint32_t *a = &p->pool[in->x + 3 * j];
			uint32_t want = c->u32[ft->first + j];
			if (!same_type(c, a[0], want))
				return fail(c, "OpFunctionCall: argument %u has type %u, expected %u", j, a[0], want);
			a[0] = c->ids[c->u32[f->params + j]].slot;
		}
		in->a = f->code;
	}
	return true;
}

/* Spec 2.16.1: no recursion.  Also the deepest call chain, which sizes the
 * call stack.  Iterative: a hostile module may nest calls deeply. */
static bool check_calls(struct rd_parse *c)
{
	uint32_t n = c->nfuncs, maxd = 1;
	uint8_t *color = calloc(n + 1, 1);
	uint32_t *depth = calloc(n + 1, 4);
	struct { uint32_t f, it; } *stk = malloc((size_t)(n + 1) * sizeof(*stk));
	bool ok = color && depth && stk;
	if (!ok)
		(void)fail(c, "out of memory");
	for (uint32_t root = 0; ok && root < n; root++) {
		if (color[root])
			continue;
		uint32_t sp = 0;
		stk[sp].f = root;
		stk[sp++].it = c->funcs[root].calls;
		color[root] = 1;
		while (sp && ok) {
			uint32_t f = stk[sp - 1].f;
			if (stk[sp - 1].it) {
				const struct pcall *k = &c->calls[stk[sp - 1].it - 1];
				stk[sp - 1].it = k->next;
				uint32_t g = c->ids[k->callee].slot;
				if (color[g] == 1) {
					c->pos = k->word;
					c->op = SpvOpFunctionCall;
					ok = fail(c, "recursion through function %u (spec 2.16.1: not allowed)",
						  k->callee);
				} else if (color[g] == 0) {
					color[g] = 1;
					stk[sp].f = g;
					stk[sp++].it = c->funcs[g].calls;
				} else if (depth[g] > depth[f]) {
					depth[f] = depth[g];
				}
				continue;
			}
			depth[f] += 1;  /* its own frame over the deepest callee */
			color[f] = 2;
			if (depth[f] > maxd)
				maxd = depth[f];
			if (--sp && depth[f] > depth[stk[sp - 1].f])
				depth[stk[sp - 1].f] = depth[f];
		}
	}
	free(color);
	free(depth);
	free(stk);
	c->p->max_depth = maxd;
	return ok;
}

static bool push_loc(struct rd_parse *c, uint32_t slot, uint32_t loc, uint32_t n)
{
	struct rd_io_loc *l = PUSH(c, c->p->locs, c->p->nlocs, c->cap_locs);
	if (!l)
		return false;
	*l = (struct rd_io_loc){ slot, (uint16_t)loc, (uint16_t)n };
	return true;
}

/* Location-assigned interface variables: one location per vector, matrix
 * column or array element, members of a struct in order (spec 15.1.4). */
static bool io_walk(struct rd_parse *c, struct rd_entry *e, uint32_t tid, uint32_t slot, uint32_t *loc,
		    bool input, bool flat, bool noperspective)
{
	const struct ptype *t = T(c, tid);
	switch (t->kind) {
	case T_INT:
	case T_FLOAT:
	case T_VECTOR: {
		if (*loc >= RD_MAX_LOCATIONS)
			return fail(c, "interface Location %u is beyond the %u supported", *loc, RD_MAX_LOCATIONS);
		bool is_int = ncomp_of(c, tid, T_INT) != 0;
		if (input && e->info.stage == RD_STAGE_FRAGMENT) {
			if (is_int && !flat)
				return fail(c, "integer fragment input at Location %u must be Flat "
					    "(VUID-StandaloneSpirv-Flat-04744)", *loc);
			if (flat)
				e->info.flat_mask |= 1u << *loc;
			if (noperspective)
				e->info.noperspective_mask |= 1u << *loc;
		}
		if (input)
			e->info.input_mask |= 1u << *loc;
		else
			e->info.output_mask |= 1u << *loc;
		if (!push_loc(c, slot, *loc, t->words))
			return false;
		(*loc)++;
		return true;
	}
	case T_MATRIX:
	case T_ARRAY: {
		uint32_t ew = T(c, t->elem)->words;
		for (uint32_t i = 0; i < t->count; i++)
			if (!io_walk(c, e, t->elem, slot + i * ew, loc, input, flat, noperspective))
				return false;
		return true;
	}
	case T_STRUCT:
		for (uint32_t i = 0; i < t->count; i++) {
			const struct pmember *m = &c->members[t->first + i];
			if (m->location != NONE)
				*loc = m->location;
			if (!io_walk(c, e, m->type, slot + m->word, loc, input, flat || m->flat,
				     noperspective || m->noperspective))
				return false;
		}
		return true;
	default:
		return fail(c, "interface variable of type %s", kind_name((enum tkind)t->kind));
	}
}

static bool push_builtin(struct rd_parse *c, uint32_t slot, enum rd_builtin_io kind)
{
	struct rd_io_builtin *b = PUSH(c, c->p->builtins, c->p->nbuiltins, c->cap_builtins);
	if (!b)
		return false;
	*b = (struct rd_io_builtin){ slot, (uint32_t)kind };
	return true;
}

/* A builtin in the interface: checks stage, direction and type, and
 * records how the run copies it. */
static bool io_builtin(struct rd_parse *c, struct rd_entry *e, uint32_t b, uint32_t tid, uint32_t slot,
		       bool input)
{
	const struct ptype *t = T(c, tid);
	enum rd_stage st = e->info.stage;
	bool ok = false, is_int = t->kind == T_INT, uvec3 = ncomp_of(c, tid, T_INT) == 3;
	int kind = -1;
	switch (b) {
	case SpvBuiltInPosition:
		ok = !input && st == RD_STAGE_VERTEX && ncomp_of(c, tid, T_FLOAT) == 4;
		kind = RD_BI_POSITION;
		break;
	case SpvBuiltInPointSize:
		ok = !input && st == RD_STAGE_VERTEX && t->kind == T_FLOAT;
		kind = RD_BI_POINT_SIZE;
		if (ok)
			c->p->tmpl[slot].f = 1.0f;  /* "1.0 when not written" (rd_spirv.h) */
		break;
	case SpvBuiltInClipDistance:
	case SpvBuiltInCullDistance:
		/* Declared in every gl_PerVertex; the pipeline has no clip planes. */
		ok = !input && st == RD_STAGE_VERTEX && t->kind == T_ARRAY && T(c, t->elem)->kind == T_FLOAT;
		break;
	case SpvBuiltInVertexIndex:
	case SpvBuiltInInstanceIndex:
		ok = input && st == RD_STAGE_VERTEX && is_int;
		kind = b == SpvBuiltInVertexIndex ? RD_BI_VERTEX_INDEX : RD_BI_INSTANCE_INDEX;
		break;
	case SpvBuiltInViewIndex:
		ok = input && st != RD_STAGE_COMPUTE && is_int;
		kind = RD_BI_VIEW_INDEX;
		break;
	case SpvBuiltInFragCoord:
		ok = input && st == RD_STAGE_FRAGMENT && ncomp_of(c, tid, T_FLOAT) == 4;
		kind = RD_BI_FRAG_COORD;
		break;
	case SpvBuiltInFrontFacing:
		ok = input && st == RD_STAGE_FRAGMENT && t->kind == T_BOOL;
		kind = RD_BI_FRONT_FACING;
		break;
	case SpvBuiltInSampleId:
		ok = input && st == RD_STAGE_FRAGMENT && is_int;
		kind = RD_BI_SAMPLE_ID;
		e->info.reads_sample_id = true;
		break;
	case SpvBuiltInSamplePosition:
		ok = input && st == RD_STAGE_FRAGMENT && ncomp_of(c, tid, T_FLOAT) == 2;
		kind = RD_BI_SAMPLE_POSITION;
		e->info.reads_sample_id = true;  /* spec 27.4: enables sample shading */
		break;
	case SpvBuiltInSampleMask:
		ok = st == RD_STAGE_FRAGMENT && t->kind == T_ARRAY && T(c, t->elem)->kind == T_INT;
		kind = input ? RD_BI_SAMPLE_MASK_IN : RD_BI_SAMPLE_MASK_OUT;
		if (ok && !input)
			for (uint32_t i = 0; i < t->count; i++)
				c->p->tmpl[slot + i].u = ~0u;
		break;
	case SpvBuiltInFragDepth:
		ok = !input && st == RD_STAGE_FRAGMENT && t->kind == T_FLOAT;
		kind = RD_BI_FRAG_DEPTH;
		break;
	case SpvBuiltInGlobalInvocationId:
	case SpvBuiltInLocalInvocationId:
	case SpvBuiltInWorkgroupId:
	case SpvBuiltInNumWorkgroups:
		ok = input && st == RD_STAGE_COMPUTE && uvec3 && t->kind == T_VECTOR;
		kind = b == SpvBuiltInGlobalInvocationId ? RD_BI_GLOBAL_ID
		       : b == SpvBuiltInLocalInvocationId ? RD_BI_LOCAL_ID
		       : b == SpvBuiltInWorkgroupId	  ? RD_BI_WORKGROUP_ID
							  : RD_BI_NUM_WORKGROUPS;
		break;
	case SpvBuiltInLocalInvocationIndex:
		ok = input && st == RD_STAGE_COMPUTE && is_int;
		kind = RD_BI_LOCAL_INDEX;
		break;
	default:
		return fail(c, "BuiltIn %s on a variable is unsupported", rd_spirv_name(RD_NAME_BUILTIN, b));
	}
	if (!ok)
		return fail(c, "BuiltIn %s: wrong stage, direction or type", rd_spirv_name(RD_NAME_BUILTIN, b));
	return kind < 0 || push_builtin(c, slot, (enum rd_builtin_io)kind);
}

static bool io_var(struct rd_parse *c, struct rd_entry *e, uint32_t id, bool input)
{
	const struct pptr *q = &c->ptrs[c->ids[id].ptr];
	const struct ptype *t = T(c, q->type);
	uint32_t slot = q->offset / 4, b, loc;
	if (get_deco(c, id, NONE, SpvDecorationBuiltIn, &b))
		return io_builtin(c, e, b, q->type, slot, input);
	if (t->kind == T_STRUCT && t->builtins) {
		for (uint32_t i = 0; i < t->count; i++) {
			const struct pmember *m = &c->members[t->first + i];
			if (m->builtin == NONE)
				return fail(c, "interface block %u mixes builtins and user variables", id);
			if (!io_builtin(c, e, m->builtin, m->type, slot + m->word, input))
				return false;
		}
		return true;
	}
	bool has_loc = get_deco(c, id, NONE, SpvDecorationLocation, &loc);
	if (!has_loc) {
		if (t->kind != T_STRUCT || t->count == 0 || c->members[t->first].location == NONE)
			return fail(c, "%s variable %u has neither a Location nor a BuiltIn",
				    input ? "Input" : "Output", id);
		loc = c->members[t->first].location;
	}
	return io_walk(c, e, q->type, slot, &loc, input, get_deco(c, id, NONE, SpvDecorationFlat, NULL),
		       get_deco(c, id, NONE, SpvDecorationNoPerspective, NULL));
}

/* Transform feedback (spec "Transform Feedback" in "Fixed-Function Vertex
 * Post-Processing"): each output variable or output block member decorated
 * Offset is captured to its XfbBuffer at that byte offset of the XfbStride
 * bytes reserved per vertex; "array elements or structure members are
 * written tightly packed in order", matrices as arrays of columns. */
static bool xfb_push(struct rd_parse *c, struct rd_entry *e, uint32_t buffer, uint32_t stride,
		     uint32_t source, uint32_t words, uint32_t offset)
{
	struct rd_entry_info *in = &e->info;
	if (buffer == NONE || stride == NONE)
		return fail(c, "captured output at Offset %u without XfbBuffer and XfbStride", offset);
	if (buffer >= RD_MAX_XFB_BUFFERS)
		return fail(c, "XfbBuffer %u is beyond the %u supported", buffer, RD_MAX_XFB_BUFFERS);
	if (in->xfb_stride[buffer] && in->xfb_stride[buffer] != stride)
		return fail(c, "XfbBuffer %u with XfbStride %u and %u", buffer, in->xfb_stride[buffer], stride);
	/* "All components ... must be written at an offset aligned to the size
	 * of the component"; they must fit the stride. */
	if (offset % 4 || stride % 4 || (uint64_t)offset + words * 4u > stride)
		return fail(c, "captured output of %u words at Offset %u does not fit XfbStride %u", words,
			    offset, stride);
	if (source < RD_XFB_POSITION && source >= RD_MAX_LOCATIONS)
		return fail(c, "captured output at Location %u is beyond the %u supported", source,
			    RD_MAX_LOCATIONS);
	if (in->xfb_output_count == RD_MAX_XFB_OUTPUTS)
		return fail(c, "more than %u captured outputs", RD_MAX_XFB_OUTPUTS);
	in->xfb_stride[buffer] = stride;
	in->xfb_outputs[in->xfb_output_count++] = (struct rd_xfb_output){
		(uint8_t)buffer, (uint8_t)words, (uint16_t)source, offset};
	return true;
}

/* Walks type tid from Location *loc the way io_walk assigns locations,
 * capturing each vector at *off (tightly packed) when `capture`. */
static bool xfb_walk(struct rd_parse *c, struct rd_entry *e, uint32_t tid, uint32_t *loc, bool capture,
		     uint32_t buffer, uint32_t stride, uint32_t *off)
{
	const struct ptype *t = T(c, tid);
	switch (t->kind) {
	case T_INT:
	case T_FLOAT:
	case T_VECTOR:
		if (capture && !xfb_push(c, e, buffer, stride, *loc, t->words, *off))
			return false;
		*off += t->words * 4;
		(*loc)++;
		return true;
	case T_MATRIX:
	case T_ARRAY:
		for (uint32_t i = 0; i < t->count; i++)
			if (!xfb_walk(c, e, t->elem, loc, capture, buffer, stride, off))
				return false;
		return true;
	case T_STRUCT:
		for (uint32_t i = 0; i < t->count; i++) {
			const struct pmember *m = &c->members[t->first + i];
			if (m->location != NONE)
				*loc = m->location;
			if (!xfb_walk(c, e, m->type, loc, capture, buffer, stride, off))
				return false;
		}
		return true;
	default:
		return fail(c, "interface variable of type %s", kind_name((enum tkind)t->kind));
	}
}

static bool xfb_builtin(struct rd_parse *c, struct rd_entry *e, uint32_t b, uint32_t buffer,
			uint32_t stride, uint32_t offset)
{
	switch (b) {
	case SpvBuiltInPosition:
		return xfb_push(c, e, buffer, stride, RD_XFB_POSITION, 4, offset);
	case SpvBuiltInPointSize:
		return xfb_push(c, e, buffer, stride, RD_XFB_POINT_SIZE, 1, offset);
	default:
		return fail(c, "capturing BuiltIn %s is unsupported", rd_spirv_name(RD_NAME_BUILTIN, b));
	}
}

/* The captured parts of output variable id (entry with the Xfb mode). */
static bool xfb_var(struct rd_parse *c, struct rd_entry *e, uint32_t id)
{
	const struct pptr *q = &c->ptrs[c->ids[id].ptr];
	const struct ptype *t = T(c, q->type);
	uint32_t buffer = NONE, stride = NONE, off, b, loc = 0;
	get_deco(c, id, NONE, SpvDecorationXfbBuffer, &buffer);
	get_deco(c, id, NONE, SpvDecorationXfbStride, &stride);
	bool builtin = get_deco(c, id, NONE, SpvDecorationBuiltIn, &b);
	bool members = t->kind == T_STRUCT;
	if (!builtin && !get_deco(c, id, NONE, SpvDecorationLocation, &loc) && members &&
	    t->count && c->members[t->first].location != NONE)
		loc = c->members[t->first].location;
	if (get_deco(c, id, NONE, SpvDecorationOffset, &off)) {
		if (builtin)
			return xfb_builtin(c, e, b, buffer, stride, off);
		if (members && t->builtins)
			return fail(c, "Offset on a whole block of builtins is unsupported");
		return xfb_walk(c, e, q->type, &loc, true, buffer, stride, &off);
	}
	if (!members || builtin)
		return true;
	/* A block: its members decorated Offset, each with the block's
	 * XfbBuffer and XfbStride unless it has its own. */
	for (uint32_t i = 0; i < t->count; i++) {
		const struct pmember *m = &c->members[t->first + i];
		uint32_t mbuf = buffer, mstride = stride, moff = m->offset;
		get_deco(c, q->type, i, SpvDecorationXfbBuffer, &mbuf);
		get_deco(c, q->type, i, SpvDecorationXfbStride, &mstride);
		if (m->builtin != NONE) {
			if (moff != NONE && !xfb_builtin(c, e, m->builtin, mbuf, mstride, moff))
				return false;
			continue;
		}
		if (m->location != NONE)
			loc = m->location;
		if (!xfb_walk(c, e, m->type, &loc, moff != NONE, mbuf, mstride, &moff))
			return false;
	}
	return true;
}

/* OR of what every function reachable from f does. */
static bool reach(struct rd_parse *c, uint32_t f, struct rd_entry *e, uint32_t *writes)
{
	uint32_t n = c->nfuncs, sp = 0;
	uint8_t *seen = calloc(n + 1, 1);
	uint32_t *stk = malloc((size_t)(n + 1) * 4);
	if (!seen || !stk) {
		free(seen);
		free(stk);
		return fail(c, "out of memory");
	}
	seen[f] = 1;
	stk[sp++] = f;
	while (sp) {
		const struct pfunc *fn = &c->funcs[stk[--sp]];
		*writes |= fn->writes;
		e->info.may_discard |= fn->discards;
		e->uses_push_constants |= fn->uses_pc;
		if (fn->pc_size > e->info.push_constant_size)
			e->info.push_constant_size = fn->pc_size;
		for (uint32_t k = fn->calls; k; k = c->calls[k - 1].next) {
			uint32_t g = c->ids[c->calls[k - 1].callee].slot;
			if (!seen[g]) {
				seen[g] = 1;
				stk[sp++] = g;
			}
		}
	}
	free(seen);
	free(stk);
	return true;
}

static bool finish_entry(struct rd_parse *c, uint32_t pos, uint32_t index, uint32_t wgsize_id)
{
	c->pos = pos;
	c->in = c->w + pos;
	c->wc = c->in[0] >> 16;
	c->op = SpvOpEntryPoint;
	uint32_t model = W(c, 1), fid = W(c, 2), next;
	const char *name;
	if (!get_string(c, 3, &name, &next))
		return false;
	struct rd_entry *e = &c->p->entries[index];
	memset(e, 0, sizeof(*e));
	switch (model) {
	case SpvExecutionModelVertex:
		e->info.stage = RD_STAGE_VERTEX;
		break;
	case SpvExecutionModelFragment:
		e->info.stage = RD_STAGE_FRAGMENT;
		break;
	case SpvExecutionModelGLCompute:
		e->info.stage = RD_STAGE_COMPUTE;
		break;
	default:
		return fail(c, "unsupported execution model %s (%u)", rd_spirv_name(RD_NAME_EXECUTION_MODEL, model),
			    model);
	}
	size_t len = strlen(name);
	if (!(e->name = malloc(len + 1)))
		return fail(c, "out of memory");
	memcpy(e->name, name, len + 1);
	if (fid == 0 || fid >= c->bound || c->ids[fid].kind != ID_FUNC)
		return fail(c, "OpEntryPoint: %u is not a function", fid);
	const struct pfunc *f = &c->funcs[c->ids[fid].slot];
	const struct ptype *ft = T(c, f->type);
	if (ft->count || T(c, ft->elem)->kind != T_VOID)
		return fail(c, "OpEntryPoint: function %u must take no parameters and return void", fid);
	e->info.entry_id = index;
	e->code = f->code;

	/* Execution modes (spec 3.6). */
	bool upper_left = false;
	for (uint32_t i = 0; i < c->nmode_pos; i++) {
		c->pos = c->mode_pos[i];
		c->in = c->w + c->pos;
		c->wc = c->in[0] >> 16;
		c->op = c->in[0] & 0xffff;
		if (W(c, 1) != fid)
			continue;
		uint32_t mode = W(c, 2);
		bool id_form = c->op == SpvOpExecutionModeId, ok;
		enum rd_stage st = e->info.stage;
		switch (mode) {
		case SpvExecutionModeLocalSize:
		case SpvExecutionModeLocalSizeId:
			ok = st == RD_STAGE_COMPUTE && c->wc == 6 && id_form == (mode == SpvExecutionModeLocalSizeId);
			for (uint32_t k = 0; ok && k < 3; k++) {
				if (id_form && !const_u32(c, W(c, 3 + k), &e->info.local_size[k]))
					return false;
				if (!id_form)
					e->info.local_size[k] = W(c, 3 + k);
			}
			break;
		case SpvExecutionModeOriginUpperLeft:
			ok = upper_left = st == RD_STAGE_FRAGMENT && c->wc == 3 && !id_form;
			break;
		case SpvExecutionModeEarlyFragmentTests:
			ok = st == RD_STAGE_FRAGMENT && c->wc == 3 && !id_form;
			e->info.early_fragment_tests = true;
			break;
		case SpvExecutionModeDepthReplacing:
		case SpvExecutionModeDepthGreater:
		case SpvExecutionModeDepthLess:
		case SpvExecutionModeDepthUnchanged:
			/* Greater/Less/Unchanged are hints an implementation may ignore. */
			ok = st == RD_STAGE_FRAGMENT && c->wc == 3 && !id_form;
			break;
		case SpvExecutionModeXfb:
			/* the vertex stage is the last pre-rasterization stage here */
			ok = e->info.xfb = st == RD_STAGE_VERTEX && c->wc == 3 && !id_form;
			break;
		default:
			return fail(c, "unsupported execution mode %s (%u)",
				    rd_spirv_name(RD_NAME_EXECUTION_MODE, mode), mode);
		}
		if (!ok)
			return fail(c, "execution mode %s: wrong stage or operands",
				    rd_spirv_name(RD_NAME_EXECUTION_MODE, mode));
	}
	c->pos = pos;
	c->in = c->w + pos;
	c->wc = c->in[0] >> 16;
	c->op = SpvOpEntryPoint;
	if (e->info.stage == RD_STAGE_FRAGMENT && !upper_left)
		return fail(c, "fragment entry point without OriginUpperLeft (VUID-StandaloneSpirv-OriginLowerLeft-04653)");
	if (e->info.stage == RD_STAGE_COMPUTE) {
		if (wgsize_id) {  /* spec 3.21 WorkgroupSize: takes precedence over LocalSize */
			const union rd_word *v = &c->p->tmpl[c->ids[wgsize_id].slot];
			for (int k = 0; k < 3; k++)
				e->info.local_size[k] = v[k].u;
		}
		if (!e->info.local_size[0] || !e->info.local_size[1] || !e->info.local_size[2])
			return fail(c, "compute entry point without a (nonzero) LocalSize");
		e->info.workgroup_memory_size = c->wg_bytes;
	}

	/* The interface: inputs, then outputs, so each has one range. */
	for (int pass = 0; pass < 2; pass++) {
		uint32_t l0 = c->p->nlocs, b0 = c->p->nbuiltins;
		for (uint32_t i = next; i < c->wc; i++) {
			uint32_t id = W(c, i);
			if (id == 0 || id >= c->bound || c->ids[id].kind != ID_VALUE || !c->ids[id].is_var ||
			    !c->ids[id].global)
				return fail(c, "OpEntryPoint: interface id %u is not a global variable", id);
			uint32_t sc = c->ptrs[c->ids[id].ptr].storage;
			if (sc == (pass ? SpvStorageClassOutput : SpvStorageClassInput) &&
			    !io_var(c, e, id, pass == 0))
				return false;
			if (pass && sc == SpvStorageClassOutput && e->info.xfb && !xfb_var(c, e, id))
				return false;
		}
		if (pass == 0) {
			e->in_first = l0, e->in_count = c->p->nlocs - l0;
			e->bin_first = b0, e->bin_count = c->p->nbuiltins - b0;
		} else {
			e->out_first = l0, e->out_count = c->p->nlocs - l0;
			e->bout_first = b0, e->bout_count = c->p->nbuiltins - b0;
		}
	}

	uint32_t writes = 0;
	if (!reach(c, c->ids[fid].slot, e, &writes))
		return false;
	/* A builtin counts as written only if the entry's interface has it. */
	for (uint32_t i = 0; i < e->bout_count; i++) {
		uint32_t k = c->p->builtins[e->bout_first + i].kind, hit = writes & (1u << k);
		e->info.writes_point_size |= k == RD_BI_POINT_SIZE && hit;
		e->info.writes_frag_depth |= k == RD_BI_FRAG_DEPTH && hit;
		e->info.writes_sample_mask |= k == RD_BI_SAMPLE_MASK_OUT && hit;
	}
	if (e->info.stage != RD_STAGE_FRAGMENT)
		e->info.may_discard = false;
	return true;
}

static bool finish(struct rd_parse *c)
{
	struct rd_program *p = c->p;
	c->pos = c->nw;
	if (c->fn)
		return fail(c, "module ends inside function %u (truncated?)", c->fn->id);
	if (!c->memory_model)
		return fail(c, "module without OpMemoryModel");
	if (!c->caps_shader)
		return fail(c, "module without capability Shader");
	if (!finish_calls(c) || !check_calls(c))
		return false;
	p->phi_tmp = alloc_slot(c, c->max_phi_words);
	p->stack = alloc_slot(c, 2 * p->max_depth);
	p->wg_bytes = c->wg_bytes;
	p->wg_slot = alloc_slot(c, c->wg_bytes / 4);
	if (c->failed)
		return false;
	p->block_at = calloc(p->ncode ? p->ncode : 1, sizeof(*p->block_at));
	if (!p->block_at)
		return fail(c, "out of memory");
	for (uint32_t b = 0; b < p->nblocks; b++)
		if (p->block_code[b] < p->ncode)
			p->block_at[p->block_code[b]] = b + 1;

	/* The WorkgroupSize builtin decorates a constant (spec 15.9). */
	uint32_t wgsize_id = 0;
	for (uint32_t id = 1; id < c->bound; id++) {
		uint32_t b;
		if (c->ids[id].kind == ID_VALUE && c->ids[id].is_const &&
		    get_deco(c, id, NONE, SpvDecorationBuiltIn, &b)) {
			if (b != SpvBuiltInWorkgroupSize || ncomp_of(c, c->ids[id].type, T_INT) != 3)
				return fail(c, "constant %u decorated BuiltIn %s: only a uvec3 WorkgroupSize", id,
					    rd_spirv_name(RD_NAME_BUILTIN, b));
			wgsize_id = id;
		}
	}
	if (c->nentry_pos == 0)
		return fail(c, "module without entry points");
	if (!reserve(c, (void **)&c->entries, &c->cap_entries, c->nentry_pos, sizeof(*c->entries)))
		return false;
	p->entries = c->entries;
	c->entries = NULL;
	memset(p->entries, 0, (size_t)c->nentry_pos * sizeof(*p->entries));
	p->nentries = c->nentry_pos;
	for (uint32_t i = 0; i < c->nentry_pos; i++)
		if (!finish_entry(c, c->entry_pos[i], i, wgsize_id))
			return false;
	/* Every execution mode must belong to an entry point. */
	for (uint32_t i = 0; i < c->nmode_pos; i++) {
		uint32_t fid = c->w[c->mode_pos[i] + 1];
		bool found = false;
		for (uint32_t k = 0; k < c->nentry_pos; k++)
			found |= c->w[c->entry_pos[k] + 2] == fid;
		if (!found) {
			c->pos = c->mode_pos[i];
			return fail(c, "execution mode for %u, which is no entry point", fid);
		}
	}
	return true;
}

/* ------------------------------------------------------------------------ */
/* API                                                                      */

static bool parse(struct rd_parse *c)
{
	const uint32_t *w = c->w;
	c->pos = 0;
	if (w[0] != SpvMagicNumber)
		return fail(c, "bad magic number 0x%08x (expected 0x%08x)", w[0], SpvMagicNumber);
	c->pos = 1;
	c->version = w[1];
	if ((w[1] & 0xff0000ffu) || w[1] < 0x10000u || w[1] > 0x10600u)
		return fail(c, "unsupported SPIR-V version 0x%08x (1.0 to 1.6)", w[1]);
	c->pos = 3;
	c->bound = w[3];
	if (c->bound == 0 || c->bound > RD_SPIRV_MAX_BOUND || c->bound > 64 * (uint64_t)c->nw + 1024)
		return fail(c, "id bound %u is out of proportion to a module of %u words", c->bound, c->nw);
	c->pos = 4;
	if (w[4] != 0)
		return fail(c, "schema %u is not 0", w[4]);
	if (!(c->ids = calloc(c->bound, sizeof(*c->ids))))
		return fail(c, "out of memory");
	c->zero_slot = alloc_slot(c, 1);
	/* The pool is never NULL: handlers take &pool[x] of empty lists too. */
	pool_alloc(c, 1);
	c->phi_ins = NONE;
	if (c->failed)
		return false;
	for (uint32_t pos = 5; pos < c->nw; pos += c->wc) {
		c->pos = pos;
		c->in = w + pos;
		c->wc = w[pos] >> 16;
		c->op = w[pos] & 0xffff;
		if (c->wc == 0)
			return fail(c, "instruction with word count 0");
		if (c->wc > c->nw - pos)
			return fail(c, "%s runs past the end of the module (truncated?)", opname(c->op));
		const struct opdesc *d = op_desc(c->op);
		if (!d)
			return fail(c, "unsupported opcode %s (%u)", opname(c->op), c->op);
		bool body = (d->flags & F_BODY) || ((d->flags & F_EITHER) && c->fn);
		if (body) {
			if (!c->fn || !c->label)
				return fail(c, "%s outside a block", opname(c->op));
			if (!(d->flags & F_PHI))
				c->phis_done = true;
		} else if (d->section != S_ANY) {
			if (c->fn && d->section != S_FUNC)
				return fail(c, "%s inside a function", opname(c->op));
			if (d->section < c->section)
				return fail(c, "%s out of order (spec 2.4, logical layout)", opname(c->op));
			c->section = d->section;
		}
		if (!decode_one(c, d))
			return false;
		if (c->label) /* in a block: OpLabel to its terminator */
			c->p->block_insns[c->p->nblocks - 1]++;
		if (d->flags & F_TERM)
			c->label = 0;
	}
	return finish(c);
}

static void parse_free(struct rd_parse *c)
{
	free(c->ids);
	free(c->decos);
	free(c->types);
	free(c->members);
	free(c->ptrs);
	free(c->funcs);
	free(c->calls);
	free(c->patches);
	free(c->vars);
	free(c->u32);
	free(c->entry_pos);
	free(c->mode_pos);
	free(c->plans);
	free(c->entries);
}

struct rd_shader *rd_shader_create(const uint32_t *words, size_t size_bytes, char *err, size_t errsize)
{
	struct rd_parse c;
	memset(&c, 0, sizeof(c));
	c.err = err;
	c.errsize = errsize;
	if (err && errsize)
		err[0] = 0;
	struct rd_shader *s = calloc(1, sizeof(*s));
	if (!s) {
		(void)fail(&c, "out of memory");
		return NULL;
	}
	c.p = &s->prog;
	uint32_t *swapped = NULL;
	if (!words || size_bytes % 4 || size_bytes < 20 || size_bytes / 4 > (1u << 28)) {
		(void)fail(&c, "module of %zu bytes: not a whole number of words, shorter than the 5-word header "
			 "or too large", size_bytes);
	} else {
		c.w = words;
		c.nw = (uint32_t)(size_bytes / 4);
		/* A module may come in the other byte order (spec 2.3). */
		if (words[0] == __builtin_bswap32(SpvMagicNumber)) {
			swapped = malloc(size_bytes);
			if (!swapped) {
				(void)fail(&c, "out of memory");
			} else {
				for (uint32_t i = 0; i < c.nw; i++)
					swapped[i] = __builtin_bswap32(words[i]);
				c.w = swapped;
			}
		}
		if (!c.failed)
			parse(&c);
	}
	parse_free(&c);
	free(swapped);
	if (c.failed) {
		rd_shader_destroy(s);
		return NULL;
	}
	return s;
}

void rd_shader_destroy(struct rd_shader *s)
{
	if (!s)
		return;
	struct rd_program *p = &s->prog;
	for (uint32_t i = 0; i < p->nentries; i++)
		free(p->entries[i].name);
	free(p->entries);
	free(p->code);
	free(p->pool);
	free(p->tmpl);
	free(p->descs);
	free(p->locs);
	free(p->builtins);
	free(p->block_insns);
	free(p->block_code);
	free(p->block_at);
	free(s);
}

uint32_t rd_shader_block_count(const struct rd_shader *s)
{
	return s->prog.nblocks;
}

uint32_t rd_shader_block_instructions(const struct rd_shader *s, uint32_t block)
{
	return block < s->prog.nblocks ? s->prog.block_insns[block] : 0;
}

uint32_t rd_shader_entry_block(const struct rd_shader *s, const struct rd_entry_info *e)
{
	const struct rd_program *p = &s->prog;
	if (e->entry_id >= p->nentries || p->entries[e->entry_id].code >= p->ncode)
		return 0;
	uint32_t b = p->block_at[p->entries[e->entry_id].code];
	return b ? b - 1 : 0;
}

bool rd_shader_entry(const struct rd_shader *s, const char *name, enum rd_stage stage,
		     struct rd_entry_info *info, char *err, size_t errsize)
{
	static const char *const stages[] = { "vertex", "fragment", "compute" };
	const struct rd_program *p = &s->prog;
	for (uint32_t i = 0; name && i < p->nentries; i++) {
		if (p->entries[i].info.stage == stage && p->entries[i].name && strcmp(p->entries[i].name, name) == 0) {
			*info = p->entries[i].info;
			return true;
		}
	}
	if (err && errsize)
		snprintf(err, errsize, "no %s entry point named \"%s\"",
			 (unsigned)stage < 3 ? stages[stage] : "(bad stage)", name ? name : "(null)");
	return false;
}
