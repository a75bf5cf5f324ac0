#include "json.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct parser {
	const char *s, *p;
	char *err;
	size_t errsize;
	bool failed;
	unsigned depth;
};

static bool fail(struct parser *ps, const char *what)
{
	if (!ps->failed)
		snprintf(ps->err, ps->errsize, "byte %zu: %s", (size_t)(ps->p - ps->s), what);
	ps->failed = true;
	return false;
}

static void skip_ws(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
		ps->p++;
}

static int hex4(const char *p)
{
	int v = 0;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		int d = c >= '0' && c <= '9' ? c - '0'
			: c >= 'a' && c <= 'f' ? c - 'a' + 10
			: c >= 'A' && c <= 'F' ? c - 'A' + 10
					       : -1;
		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

static size_t put_utf8(char *o, uint32_t cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | (cp >> 18));
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* At the opening quote; the decoded string is never longer than its
 * source. */
static char *parse_string(struct parser *ps)
{
	const char *start = ++ps->p;
	const char *end = start;
	while (*end && *end != '"')
		end += *end == '\\' && end[1] ? 2 : 1;
	if (*end != '"') {
		fail(ps, "an unterminated string");
		return NULL;
	}
	char *out = malloc((size_t)(end - start) + 1), *o = out;
	if (!out) {
		fail(ps, "out of memory");
		return NULL;
	}
	while (ps->p < end) {
		unsigned char c = (unsigned char)*ps->p;
		if (c < 0x20) {
			free(out);
			fail(ps, "a control character in a string");
			return NULL;
		}
		if (c != '\\') {
			*o++ = (char)c;
			ps->p++;
			continue;
		}
		char e = ps->p[1];
		ps->p += 2;
		static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
		const char *k = e ? strchr(from, e) : NULL;
		if (k) {
			*o++ = to[k - from];
			continue;
		}
		int cp = e == 'u' && end - ps->p >= 4 ? hex4(ps->p) : -1;
		if (cp <= 0) {
			free(out);
			fail(ps, cp == 0 ? "\\u0000 in a string" : "a bad escape in a string");
			return NULL;
		}
		ps->p += 4;
		uint32_t u = (uint32_t)cp;
		if (u >= 0xd800 && u < 0xdc00 && end - ps->p >= 6 && ps->p[0] == '\\' &&
		    ps->p[1] == 'u') {
			int lo = hex4(ps->p + 2);
			if (lo >= 0xdc00 && lo < 0xe000) {
				u = 0x10000 + ((u - 0xd800) << 10) + ((uint32_t)lo - 0xdc00);
				ps->p += 6;
			}
		}
		o += put_utf8(o, u);
	}
	*o = '\0';
	ps->p = end + 1;
	return out;
}

static bool parse_value(struct parser *ps, struct vkqs_json *j);

static bool append(struct parser *ps, struct vkqs_json *j, size_t *cap)
{
	if (j->count < *cap)
		return true;
	size_t n = *cap ? *cap * 2 : 8;
	struct vkqs_json *items = realloc(j->items, n * sizeof(*items));
	if (items)
		j->items = items;
	if (j->type == VKQS_JSON_OBJECT) {
		char **keys = realloc(j->keys, n * sizeof(*keys));
		if (!keys)
			return fail(ps, "out of memory");
		j->keys = keys;
	}
	if (!items)
		return fail(ps, "out of memory");
	*cap = n;
	return true;
}

static bool parse_container(struct parser *ps, struct vkqs_json *j, bool object)
{
	char close = object ? '}' : ']';
	size_t cap = 0;
	j->type = object ? VKQS_JSON_OBJECT : VKQS_JSON_ARRAY;
	if (++ps->depth > 64)
		return fail(ps, "nested too deep");
	ps->p++;
	skip_ws(ps);
	if (*ps->p == close) {
		ps->p++;
		ps->depth--;
		return true;
	}
	for (;;) {
		skip_ws(ps);
		if (!append(ps, j, &cap))
			return false;
		if (object) {
			if (*ps->p != '"')
				return fail(ps, "a member name expected");
			char *key = parse_string(ps);
			if (!key)
				return false;
			j->keys[j->count] = key;
			skip_ws(ps);
			if (*ps->p != ':') {
				free(key);
				return fail(ps, "':' expected");
			}
			ps->p++;
		}
		memset(&j->items[j->count], 0, sizeof(j->items[0]));
		j->count++;
		if (!parse_value(ps, &j->items[j->count - 1]))
			return false;
		skip_ws(ps);
		if (*ps->p == ',') {
			ps->p++;
			continue;
		}
		if (*ps->p == close) {
			ps->p++;
			ps->depth--;
			return true;
		}
		return fail(ps, object ? "',' or '}' expected" : "',' or ']' expected");
	}
}

static bool parse_value(struct parser *ps, struct vkqs_json *j)
{
	skip_ws(ps);
	const char *p = ps->p;
	if (*p == '{' || *p == '[')
		return parse_container(ps, j, *p == '{');
	if (*p == '"') {
		j->type = VKQS_JSON_STRING;
		j->string = parse_string(ps);
		return j->string != NULL;
	}
	static const struct {
		const char *word;
		enum vkqs_json_type type;
		bool value;
	} words[] = {{"null", VKQS_JSON_NULL, false},
		     {"true", VKQS_JSON_BOOL, true},
		     {"false", VKQS_JSON_BOOL, false}};
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strncmp(p, words[i].word, strlen(words[i].word))) {
			j->type = words[i].type;
			j->boolean = words[i].value;
			ps->p += strlen(words[i].word);
			return true;
		}
	if (*p == '-' || (*p >= '0' && *p <= '9')) {
		char *end;
		j->type = VKQS_JSON_NUMBER;
		j->number = strtod(p, &end);
		ps->p = end;
		return true;
	}
	return fail(ps, *p ? "a value expected" : "the text ends early");
}

bool vkqs_json_parse(const char *text, struct vkqs_json *out, char *err, size_t errsize)
{
	struct parser ps = {.s = text, .p = text, .err = err, .errsize = errsize};
	memset(out, 0, sizeof(*out));
	if (parse_value(&ps, out)) {
		skip_ws(&ps);
		if (*ps.p)
			fail(&ps, "text after the value");
	}
	if (ps.failed)
		vkqs_json_free(out);
	return !ps.failed;
}

void vkqs_json_free(struct vkqs_json *j)
{
	for (size_t i = 0; i < j->count; i++) {
		vkqs_json_free(&j->items[i]);
		if (j->type == VKQS_JSON_OBJECT)
			free(j->keys[i]);
	}
	free(j->items);
	free(j->keys);
	free(j->string);
	memset(j, 0, sizeof(*j));
}

const struct vkqs_json *vkqs_json_get(const struct vkqs_json *j, const char *key)
{
	if (!j || j->type != VKQS_JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < j->count; i++)
		if (!strcmp(j->keys[i], key))
			return &j->items[i];
	return NULL;
}

const char *vkqs_json_str(const struct vkqs_json *j, const char *key)
{
	const struct vkqs_json *v = vkqs_json_get(j, key);
	return v && v->type == VKQS_JSON_STRING ? v->string : NULL;
}
