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

bool vkqs_registry_build(struct vkqs_registry *r, const struct vkqs_area *const *areas,
			 bool selftest, char *err, size_t errsize)
{
	size_t n = 0;
	memset(r, 0, sizeof(*r));
	for (const struct vkqs_area *const *a = areas; *a; a++)
		for (size_t i = 0; i < (*a)->count; i++) {
			const struct vkqs_case *c = &(*a)->cases[i];
			if ((c->flags & VKQS_CASE_SELFTEST) && !selftest)
				continue;
			n += c->params ? c->param_count : 1;
		}
	r->cases = calloc(n ? n : 1, sizeof(*r->cases));
	if (!r->cases) {
		snprintf(err, errsize, "out of memory building the case list");
		return false;
	}
	for (const struct vkqs_area *const *a = areas; *a; a++)
		for (size_t i = 0; i < (*a)->count; i++) {
			const struct vkqs_case *c = &(*a)->cases[i];
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
