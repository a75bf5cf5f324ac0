#include "registry.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool vkqs_name_valid(const char *name)
{
	bool token_start = true;
	if (!*name)
		return false;
	for (const char *p = name; *p; p++) {
		if (*p == '.') {
			if (token_start)
				return false; /* empty token */
			token_start = true;
			continue;
		}
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
			return false;
		token_start = false;
	}
	return !token_start;
}

bool vkqs_glob_match(const char *glob, const char *name)
{
	return fnmatch(glob, name, 0) == 0;
}

static int cmp_name(const void *a, const void *b)
{
	const struct vkqs_case_inst *const *x = a, *const *y = b;
	return strcmp((*x)->name, (*y)->name);
}

static size_t part_len(const struct vkqs_area_part *p)
{
	return p->count ? p->count : p->group->count - p->first;
}

/* Rows of an area in listing order: its table, or its parts in turn. */
static size_t area_row_count(const struct vkqs_area *a)
{
	size_t n = a->count;
	for (size_t k = 0; a->parts && k < a->part_count; k++)
		n += part_len(&a->parts[k]);
	return n;
}

static const struct vkqs_case *area_row(const struct vkqs_area *a, size_t i)
{
	if (i < a->count)
		return &a->cases[i];
	i -= a->count;
	for (size_t k = 0; k < a->part_count; k++) {
		if (i < part_len(&a->parts[k]))
			return &a->parts[k].group->cases[a->parts[k].first + i];
		i -= part_len(&a->parts[k]);
	}
	return NULL;
}

/* Every row of every group an area names is listed by exactly one part. */
static bool parts_cover_groups(const struct vkqs_area *a, char *err, size_t errsize)
{
	for (size_t k = 0; k < a->part_count; k++) {
		const struct vkqs_area_part *p = &a->parts[k];
		if (p->first >= p->group->count || p->first + part_len(p) > p->group->count) {
			snprintf(err, errsize, "area %s: part %zu lies outside its group's %zu rows",
				 a->name, k, p->group->count);
			return false;
		}
	}
	for (size_t k = 0; k < a->part_count; k++) {
		const struct vkqs_group *g = a->parts[k].group;
		bool first_of_group = true;
		for (size_t j = 0; j < k; j++)
			first_of_group = first_of_group && a->parts[j].group != g;
		if (!first_of_group)
			continue;
		for (size_t row = 0; row < g->count; row++) {
			unsigned listed = 0;
			for (size_t j = k; j < a->part_count; j++) {
				const struct vkqs_area_part *q = &a->parts[j];
				listed += q->group == g && row >= q->first && row < q->first + part_len(q);
			}
			if (listed != 1) {
				snprintf(err, errsize, "area %s: case %s is listed by %u parts, not 1",
					 a->name, g->cases[row].name, listed);
				return false;
			}
		}
	}
	return true;
}

bool vkqs_registry_build(struct vkqs_registry *r, const struct vkqs_area *const *areas,
			 bool selftest, char *err, size_t errsize)
{
	size_t n = 0;
	memset(r, 0, sizeof(*r));
	for (const struct vkqs_area *const *a = areas; *a; a++) {
		if (!parts_cover_groups(*a, err, errsize))
			return false;
		for (size_t i = 0; i < area_row_count(*a); i++) {
			const struct vkqs_case *c = area_row(*a, i);
			if ((c->flags & VKQS_CASE_SELFTEST) && !selftest)
				continue;
			n += c->params ? c->param_count : 1;
		}
	}
	r->cases = calloc(n ? n : 1, sizeof(*r->cases));
	if (!r->cases) {
		snprintf(err, errsize, "out of memory building the case list");
		return false;
	}
	for (const struct vkqs_area *const *a = areas; *a; a++)
		for (size_t i = 0; i < area_row_count(*a); i++) {
			const struct vkqs_case *c = area_row(*a, i);
			if ((c->flags & VKQS_CASE_SELFTEST) && !selftest)
				continue;
			size_t np = c->params ? c->param_count : 1;
			for (size_t k = 0; k < np; k++) {
				struct vkqs_case_inst *ci = &r->cases[r->count++];
				ci->c = c;
				ci->param = c->params
						    ? (const char *)c->params + k * c->param_size
						    : NULL;
				char suffix[128] = "";
				if (c->params && c->param_name)
					c->param_name(ci->param, suffix, sizeof(suffix));
				int len = snprintf(ci->name, sizeof(ci->name), "vkqs.%s.%s%s%s",
						   (*a)->name, c->name, suffix[0] ? "_" : "",
						   suffix);
				if (len < 0 || (size_t)len >= sizeof(ci->name) ||
				    !vkqs_name_valid(ci->name)) {
					snprintf(err, errsize, "malformed case name '%s'", ci->name);
					vkqs_registry_free(r);
					return false;
				}
			}
		}
	/* Names are the stable key: a duplicate would merge two results. */
	const struct vkqs_case_inst **sorted = malloc((r->count ? r->count : 1) * sizeof(*sorted));
	if (!sorted) {
		snprintf(err, errsize, "out of memory building the case list");
		vkqs_registry_free(r);
		return false;
	}
	for (size_t i = 0; i < r->count; i++)
		sorted[i] = &r->cases[i];
	qsort(sorted, r->count, sizeof(*sorted), cmp_name);
	for (size_t i = 1; i < r->count; i++)
		if (strcmp(sorted[i - 1]->name, sorted[i]->name) == 0) {
			snprintf(err, errsize, "duplicate case name '%s'", sorted[i]->name);
			free(sorted);
			vkqs_registry_free(r);
			return false;
		}
	free(sorted);
	return true;
}

void vkqs_registry_free(struct vkqs_registry *r)
{
	free(r->cases);
	memset(r, 0, sizeof(*r));
}

const struct vkqs_case_inst *vkqs_registry_find(const struct vkqs_registry *r,
						const char *name)
{
	for (size_t i = 0; i < r->count; i++)
		if (strcmp(r->cases[i].name, name) == 0)
			return &r->cases[i];
	return NULL;
}
