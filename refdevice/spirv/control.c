/* Functions (spec 3.42.9) and control flow (spec 3.42.17): blocks,
 * branches, phis, calls, returns, kills. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "front.h"

bool dec_function(struct rd_parse *c, const struct opdesc *od)
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

bool dec_function_parameter(struct rd_parse *c, const struct opdesc *od)
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
	/* An address is a value like any other. */
	bool address = is_address_type(c, W(c, 1));
	struct pid *d = address ? def_address_ptr(c, W(c, 2), W(c, 1)) : def_value(c, W(c, 2), W(c, 1));
	if (!d)
		return false;
	c->u32[c->fn->params + c->nparams_seen++] = W(c, 2);
	const struct ptype *t = T(c, d->type);
	if (t->kind == T_POINTER && !address) {
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

bool dec_label(struct rd_parse *c, const struct opdesc *od)
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

bool dec_function_end(struct rd_parse *c, const struct opdesc *od)
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

bool dec_call(struct rd_parse *c, const struct opdesc *od)
{
	if (!need_words(c, 4, 0xffff))
		return false;
	uint32_t rt = W(c, 1), nargs = c->wc - 4;
	if (!get_type(c, rt))
		return false;
	struct pid *d = def_result(c, W(c, 2), rt);
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

bool dec_merge(struct rd_parse *c, const struct opdesc *od)
{
	/* Structured control flow needs no code here: branches say it all. */
	return need_words(c, c->op == SpvOpLoopMerge ? 4 : 3, 0xffff);
}

bool dec_phi(struct rd_parse *c, const struct opdesc *od)
{
	if (!need_words(c, 5, 0xffff))
		return false;
	if ((c->wc - 3) % 2)
		return fail(c, "OpPhi: odd operand count");
	if (c->phis_done)
		return fail(c, "OpPhi after other instructions of its block");
	uint32_t rt = W(c, 1);
	if (!get_type(c, rt))
		return false;
	/* PhysicalStorageBuffer pointers are values; logical ones are not. */
	if (T(c, rt)->kind == T_POINTER && !is_address_type(c, rt))
		return fail(c, "OpPhi of pointers needs VariablePointers (unsupported)");
	struct pid *d = def_result(c, W(c, 2), rt);
	if (!d)
		return false;
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

bool dec_branch(struct rd_parse *c, const struct opdesc *od)
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

bool dec_return(struct rd_parse *c, const struct opdesc *od)
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

/* OpEmitVertex, OpEndPrimitive, and the stream forms whose operand is the
 * stream, an integer constant (spec 3.42.19 "Primitive Instructions");
 * only a geometry entry point may reach them (checked in interface.c). */
bool dec_emit(struct rd_parse *c, const struct opdesc *od)
{
	bool stream = c->op == SpvOpEmitStreamVertex || c->op == SpvOpEndStreamPrimitive;
	if (!need_words(c, stream ? 2 : 1, stream ? 2 : 1))
		return false;
	uint32_t s = 0;
	if (stream && !const_u32(c, W(c, 1), &s))
		return false;
	if (s >= RD_MAX_STREAMS)
		return fail(c, "%s: stream %u is beyond the %u supported", opname(c->op), s, RD_MAX_STREAMS);
	c->fn->emits = 1;
	struct rd_ins *in = emit(c, od->fn);
	if (!in)
		return false;
	in->a = s;
	return true;
}

/* OpSetMeshOutputsEXT (vertex count, primitive count) and
 * OpEmitMeshTasksEXT (group count x, y, z, optional payload variable), a
 * terminator: mesh and task entry points alone may reach them (checked
 * in interface.c). */
bool dec_mesh(struct rd_parse *c, const struct opdesc *od)
{
	bool tasks = c->op == SpvOpEmitMeshTasksEXT;
	uint32_t n = tasks ? 3 : 2, slot[3];
	if (!need_words(c, 1 + n, tasks ? 5 : 3))
		return false;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t id = W(c, 1 + i);
		if (id >= c->bound || c->ids[id].kind != ID_VALUE || T(c, c->ids[id].type)->kind != T_INT)
			return fail(c, "%s: operand %u is not a 32-bit integer", opname(c->op), i + 1);
		if (!value_of(c, id, c->ids[id].type, &slot[i]))
			return false;
	}
	if (tasks && c->wc == 5) {
		const struct pptr *q = ptr_of(c, W(c, 4));
		if (!q || q->storage != SpvStorageClassTaskPayloadWorkgroupEXT)
			return fail(c, "OpEmitMeshTasksEXT: the payload is not a TaskPayloadWorkgroupEXT variable");
	}
	if (tasks)
		c->fn->mesh_tasks = 1;
	else
		c->fn->mesh_outputs = 1;
	struct rd_ins *in = emit(c, od->fn);
	if (!in)
		return false;
	in->a = slot[0];
	in->b = slot[1];
	if (tasks)
		in->c = slot[2];
	return true;
}

bool dec_kill(struct rd_parse *c, const struct opdesc *od)
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
