/* The flat list of concrete cases: every area's table with its parameter
 * arrays expanded, in table order (deterministic, no constructors). */
#ifndef VKQS_REGISTRY_H
#define VKQS_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>

#include "vkqs.h"

#define VKQS_NAME_MAX 256

struct vkqs_case_inst {
	char name[VKQS_NAME_MAX]; /* vkqs.<area>.<case>[_<param suffix>] */
	const struct vkqs_case *c;
	const void *param;
};

struct vkqs_registry {
	struct vkqs_case_inst *cases;
	size_t count;
};

/* NULL-terminated list of every area (suite/areas.c). */
extern const struct vkqs_area *const vkqs_areas[];

/* Expands `areas`.  Self-test cases are included only when selftest is set.
 * Fails (one line in err) on a malformed or duplicate name. */
bool vkqs_registry_build(struct vkqs_registry *r, const struct vkqs_area *const *areas,
			 bool selftest, char *err, size_t errsize);
void vkqs_registry_free(struct vkqs_registry *r);
const struct vkqs_case_inst *vkqs_registry_find(const struct vkqs_registry *r,
						const char *name);

/* Names are dotted lower_snake_case tokens (STYLE 3). */
bool vkqs_name_valid(const char *name);
/* Shell-style glob (fnmatch: '*', '?', '[...]'); '*' also crosses dots. */
bool vkqs_glob_match(const char *glob, const char *name);

#endif
