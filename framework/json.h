/* A small JSON reader for vkqs's own files (vkqs run --resume reads a
 * results JSON back).  The whole document becomes a tree of vkqs_json
 * nodes; strings are UTF-8 with escapes decoded ("\u0000" is refused). */
#ifndef VKQS_JSON_H
#define VKQS_JSON_H

#include <stdbool.h>
#include <stddef.h>

enum vkqs_json_type {
	VKQS_JSON_NULL,
	VKQS_JSON_BOOL,
	VKQS_JSON_NUMBER,
	VKQS_JSON_STRING,
	VKQS_JSON_ARRAY,
	VKQS_JSON_OBJECT,
};

struct vkqs_json {
	enum vkqs_json_type type;
	bool boolean;
	double number;
	char *string;              /* STRING */
	size_t count;              /* ARRAY, OBJECT */
	struct vkqs_json *items;   /* ARRAY, OBJECT: the values */
	char **keys;               /* OBJECT: the members' names */
};

/* Parses text (NUL-terminated); on error returns false with the byte
 * offset and what was wrong in err. */
bool vkqs_json_parse(const char *text, struct vkqs_json *out, char *err, size_t errsize);
void vkqs_json_free(struct vkqs_json *j);

/* The member `key` of an object, or NULL (also when j is no object). */
const struct vkqs_json *vkqs_json_get(const struct vkqs_json *j, const char *key);
/* The member's string, or NULL when absent or not a string. */
const char *vkqs_json_str(const struct vkqs_json *j, const char *key);

#endif
