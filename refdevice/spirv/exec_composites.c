/* Execution of composites and copies (spec 3.42.12; decoded by
 * composites.c). */
#include <stdint.h>
#include <string.h>

#include "exec.h"

HANDLER(copy)
{
	copy_words(&st->R[in->r], &st->R[in->a], in->n);
	return in + 1;
}

/* R[r + i] = R[pool[x + i]]: construct, shuffle, transpose. */
HANDLER(gather)
{
	union rd_word *R = st->R;
	const uint32_t *src = &st->p->pool[in->x];
	for (uint32_t i = 0; i < in->n; i++)
		R[in->r + i] = R[src[i]];
	return in + 1;
}

/* CompositeInsert: composite a (n words) with object b (c words) at x. */
HANDLER(insert)
{
	union rd_word *R = st->R;
	copy_words(&R[in->r], &R[in->a], in->n);
	copy_words(&R[in->r + in->x], &R[in->b], in->c);
	return in + 1;
}

/* The dynamic index of b (signed when x) as a component of n, or -1. */
static int64_t dyn_index(const struct rd_state *st, const struct rd_ins *in)
{
	uint32_t v = st->R[in->b].u;
	int64_t i = in->x ? (int64_t)(int32_t)v : (int64_t)v;
	return i >= 0 && i < (int64_t)in->n ? i : -1;
}

HANDLER(extract_dyn)
{
	int64_t i = dyn_index(st, in);
	if (i < 0)  /* spec: undefined behaviour; a reference device says so */
		return rd_exec_fault(st, in, "index %d out of bounds (%u)", st->R[in->b].i, in->n);
	st->R[in->r] = st->R[in->a + (uint32_t)i];
	return in + 1;
}

HANDLER(insert_dyn)
{
	int64_t i = dyn_index(st, in);
	if (i < 0)
		return rd_exec_fault(st, in, "index %d out of bounds (%u)", st->R[in->b].i, in->n);
	copy_words(&st->R[in->r], &st->R[in->a], in->n);
	st->R[in->r + (uint32_t)i] = st->R[in->c];
	return in + 1;
}

HANDLER(zero)
{
	memset(&st->R[in->r], 0, (size_t)in->n * 4);
	return in + 1;
}
