/* The declaration pass's helpers: errors, growing arrays, ids, types,
 * values, and emitting decoded instructions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "front.h"

void fail_at(struct rd_parse *c, const char *fmt, ...)
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

/* Grows *arr to hold need elements. */
bool reserve(struct rd_parse *c, void **arr, uint32_t *cap, uint64_t need, size_t elem)
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

bool need_words(struct rd_parse *c, uint32_t min, uint32_t max)
{
	if (c->wc < min || c->wc > max)
		return fail(c, "%s has %u words, expected %u%s", opname(c->op), c->wc, min,
			    max == min ? "" : " or more");
	return true;
}

/* A literal string starting at operand word i; *next is the word after it. */
bool get_string(struct rd_parse *c, uint32_t i, const char **s, uint32_t *next)
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

struct pid *new_id(struct rd_parse *c, uint32_t id, enum id_kind kind)
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

struct ptype *get_type(struct rd_parse *c, uint32_t id)
{
	if (id == 0 || id >= c->bound || c->ids[id].kind != ID_TYPE) {
		(void)fail(c, "%s: id %u is not a type", opname(c->op), id);
		return NULL;
	}
	return &c->types[c->ids[id].type];
}

uint32_t alloc_slot(struct rd_parse *c, uint32_t words)
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
bool use_value(struct rd_parse *c, uint32_t id, uint32_t *type, uint32_t *slot)
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
bool same_type(struct rd_parse *c, uint32_t a, uint32_t b)
{
	if (a == b)
		return true;
	const struct ptype *ta = T(c, a), *tb = T(c, b);
	return ta->kind == T_POINTER && tb->kind == T_POINTER && ta->storage == tb->storage &&
	       ta->elem == tb->elem;
}

bool value_of(struct rd_parse *c, uint32_t id, uint32_t want, uint32_t *slot)
{
	uint32_t t;
	if (!use_value(c, id, &t, slot))
		return false;
	if (!same_type(c, t, want))
		return fail(c, "%s: id %u has type %u, expected type %u", opname(c->op), id, t, want);
	return true;
}

/* Scalar or vector of a kind: number of components, 0 when it is not. */
uint32_t ncomp_of(struct rd_parse *c, uint32_t tid, enum tkind kind)
{
	const struct ptype *t = T(c, tid);
	if (t->kind == (uint8_t)kind)
		return 1;
	if (t->kind == T_VECTOR && T(c, t->elem)->kind == (uint8_t)kind)
		return t->count;
	return 0;
}

const char *kind_name(enum tkind k)
{
	static const char *const names[] = { "void", "bool", "integer", "float", "vector",
					     "matrix", "array", "runtime array", "struct",
					     "pointer", "function", "image", "64-bit integer" };
	return names[k];
}

/* The result type of the current instruction as a scalar or vector of kind;
 * its component count in *n. */
bool result_num(struct rd_parse *c, uint32_t tid, enum tkind kind, uint32_t *n)
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
bool operand_num(struct rd_parse *c, uint32_t id, enum tkind kind, uint32_t n, uint32_t *slot)
{
	uint32_t t;
	if (!use_value(c, id, &t, slot))
		return false;
	if (ncomp_of(c, t, kind) != n)
		return fail(c, "%s: operand %u must be a %s %s of %u component%s", opname(c->op), id,
			    kind_name(kind), n == 1 ? "scalar" : "vector", n, n == 1 ? "" : "s");
	return true;
}

bool const_u32(struct rd_parse *c, uint32_t id, uint32_t *v)
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

struct rd_ins *emit(struct rd_parse *c, rd_exec_fn *fn)
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

uint32_t pool_alloc(struct rd_parse *c, uint32_t n)
{
	struct rd_program *p = c->p;
	if (!reserve(c, (void **)&p->pool, &c->cap_pool, (uint64_t)p->npool + n, sizeof(*p->pool)))
		return NONE;
	uint32_t at = p->npool;
	memset(&p->pool[at], 0, (size_t)n * 4);
	p->npool += n;
	return at;
}

bool add_patch(struct rd_parse *c, uint32_t idx, uint8_t field, uint32_t id, bool phi,
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
bool target(struct rd_parse *c, uint32_t idx, uint8_t field, uint32_t label)
{
	return add_patch(c, idx, field, label, false, 0);
}

/* Defines the result id of the current instruction as a value of type tid. */
struct pid *def_value(struct rd_parse *c, uint32_t id, uint32_t tid)
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

struct pptr *new_ptr(struct rd_parse *c, struct pid *d)
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

struct pptr *ptr_of(struct rd_parse *c, uint32_t id)
{
	if (id == 0 || id >= c->bound || c->ids[id].kind != ID_VALUE ||
	    T(c, c->ids[id].type)->kind != T_POINTER) {
		(void)fail(c, "%s: id %u is not a pointer", opname(c->op), id);
		return NULL;
	}
	return &c->ptrs[c->ids[id].ptr];
}

/* Puts a static pointer's value in the template. */
void set_static_ptr(struct rd_parse *c, struct pid *d, struct pptr *q)
{
	q->is_static = 1;
	c->p->tmpl[d->slot].u = q->region;
	c->p->tmpl[d->slot + 1].u = q->offset;
}

bool is_explicit(uint32_t storage)
{
	return storage == SpvStorageClassUniform || storage == SpvStorageClassStorageBuffer ||
	       storage == SpvStorageClassPushConstant || storage == SpvStorageClassPhysicalStorageBuffer;
}

/* Defines value id of type tid, a PhysicalStorageBuffer pointer made at
 * run time (loaded, converted from an integer, a parameter): what the
 * declaration pass knows about it is its pointee. */
struct pid *def_address_ptr(struct rd_parse *c, uint32_t id, uint32_t tid)
{
	const struct ptype *t = T(c, tid);
	if (!is_address_type(c, tid)) {
		(void)fail(c, "%s: %u is not a PhysicalStorageBuffer pointer type", opname(c->op), tid);
		return NULL;
	}
	if (t->elem == NONE) {
		(void)fail(c, "%s: pointer type %u was declared (OpTypeForwardPointer) but never defined",
			   opname(c->op), tid);
		return NULL;
	}
	struct pid *d = def_value(c, id, tid);
	struct pptr *q = d ? new_ptr(c, d) : NULL;
	if (!q)
		return NULL;
	q->storage = t->storage;
	q->type = t->elem;
	return d;
}

bool is_address_type(struct rd_parse *c, uint32_t tid)
{
	const struct ptype *t = T(c, tid);
	return t->kind == T_POINTER && t->storage == SpvStorageClassPhysicalStorageBuffer;
}

/* Defines the result id of type tid of the current instruction: a value,
 * or for a pointer type a PhysicalStorageBuffer pointer (the only pointers
 * an instruction other than OpVariable and the access chains makes). */
struct pid *def_result(struct rd_parse *c, uint32_t id, uint32_t tid)
{
	return T(c, tid)->kind == T_POINTER ? def_address_ptr(c, id, tid) : def_value(c, id, tid);
}

/* Whether a value of type tid holds a PhysicalStorageBuffer pointer
 * (itself, or in a member or element). */
bool holds_address(struct rd_parse *c, uint32_t tid)
{
	const struct ptype *t = T(c, tid);
	switch (t->kind) {
	case T_POINTER:
		return is_address_type(c, tid);
	case T_ARRAY:
	case T_RTARRAY:
		return holds_address(c, t->elem);
	case T_STRUCT:
		for (uint32_t i = 0; i < t->count; i++)
			if (holds_address(c, c->members[t->first + i].type))
				return true;
		return false;
	default:
		return false;
	}
}
