/* Execution of functions and control flow (spec 3.42.9, 3.42.17; decoded by
 * control.c): calls, returns, branches, switches, phis, kills. */
#include <stdint.h>
#include <string.h>

#include "exec.h"

/* Arguments: pool x holds n triples {parameter slot, argument slot, words};
 * a is the callee's first instruction, r the result slot. */
HANDLER(call)
{
	const struct rd_program *p = st->p;
	union rd_word *R = st->R;
	const uint32_t *args = &p->pool[in->x];
	for (uint32_t i = 0; i < in->n; i++)
		copy_words(&R[args[3 * i]], &R[args[3 * i + 1]], args[3 * i + 2]);
	if (st->depth >= p->max_depth)
		return rd_exec_fault(st, in, "call stack overflow");
	union rd_word *frame = &R[p->stack + 2 * st->depth++];
	frame[0].u = (uint32_t)(in - st->code) + 1;
	frame[1].u = in->r;
	st->pred = 0;
	return st->code + in->a;
}

static const struct rd_ins *ret(struct rd_state *st, const struct rd_ins *in, const union rd_word *value)
{
	if (st->depth == 0) {
		st->status = RD_RUN_DONE;
		return NULL;
	}
	const union rd_word *frame = &st->R[st->p->stack + 2 * --st->depth];
	uint32_t back = frame[0].u, dst = frame[1].u;
	if (back >= st->p->ncode)
		return rd_exec_fault(st, in, "corrupt call stack");
	if (value)
		copy_words(&st->R[dst], value, in->n);
	return st->code + back;
}

HANDLER(ret)
{
	return ret(st, in, NULL);
}

HANDLER(ret_value)
{
	return ret(st, in, &st->R[in->a]);
}

/* r is the label of the block a branch ends: OpPhi needs it. */
HANDLER(branch)
{
	st->pred = in->r;
	return st->code + in->a;
}

HANDLER(branch_cond)
{
	st->pred = in->r;
	return st->code + (st->R[in->a].u ? in->b : in->c);
}

/* Selector a, default b, n {literal, target} pairs at pool x. */
HANDLER(switch)
{
	uint32_t v = st->R[in->a].u;
	const uint32_t *cases = &st->p->pool[in->x];
	st->pred = in->r;
	for (uint32_t i = 0; i < in->n; i++)
		if (cases[2 * i] == v)
			return st->code + cases[2 * i + 1];
	return st->code + in->b;
}

/* The OpPhi instructions that start a block, as one parallel copy: n phis
 * at pool x, each {dst slot, words, pairs, {label, src slot}...}; c words
 * in all.  All sources are read before any destination is written (spec
 * 2.2.5: phis take their values on the edge, simultaneously). */
HANDLER(phi)
{
	const struct rd_program *p = st->p;
	union rd_word *R = st->R, *tmp = &R[p->phi_tmp];
	const uint32_t *q = &p->pool[in->x];
	uint32_t at = 0;
	for (uint32_t i = 0; i < in->n; i++) {
		uint32_t words = q[1], pairs = q[2], k;
		for (k = 0; k < pairs && q[3 + 2 * k] != st->pred; k++)
			;
		if (k == pairs)
			return rd_exec_fault(st, in, "no operand for predecessor block %u", st->pred);
		memcpy(&tmp[at], &R[q[4 + 2 * k]], (size_t)words * 4);
		at += words;
		q += 3 + 2 * pairs;
	}
	q = &p->pool[in->x];
	at = 0;
	for (uint32_t i = 0; i < in->n; i++) {
		memcpy(&R[q[0]], &tmp[at], (size_t)q[1] * 4);
		at += q[1];
		q += 3 + 2 * q[2];
	}
	return in + 1;
}

HANDLER(kill)
{
	st->inv->discarded = true;
	st->status = RD_RUN_KILLED;
	return NULL;
}

HANDLER(unreachable)
{
	return rd_exec_fault(st, in, "executed");
}
