/* rd_shader_create(): the declaration pass over the whole module, and the
 * shader API of rd_spirv.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "front.h"

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
	return finish_module(c);
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
	static const char *const stages[] = { "vertex", "fragment", "compute", "geometry" };
	const struct rd_program *p = &s->prog;
	for (uint32_t i = 0; name && i < p->nentries; i++) {
		if (p->entries[i].info.stage == stage && p->entries[i].name && strcmp(p->entries[i].name, name) == 0) {
			*info = p->entries[i].info;
			return true;
		}
	}
	if (err && errsize)
		snprintf(err, errsize, "no %s entry point named \"%s\"",
			 (unsigned)stage < 4 ? stages[stage] : "(bad stage)", name ? name : "(null)");
	return false;
}
