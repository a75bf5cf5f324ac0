#include "expect.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util.h"

/* Splits text into lines in place-free fashion: calls fn for each line that
 * is not blank or a comment, with leading/trailing blanks trimmed. */
typedef bool (*line_fn)(void *user, char *line, const char *fname, int lineno,
			char *err, size_t errsize);

/* comment_fn, when not NULL, gets the comment lines (from their '#'). */
static bool for_each_line_c(const char *text, const char *fname, line_fn fn,
			    line_fn comment_fn, void *user, char *err, size_t errsize);

static bool for_each_line(const char *text, const char *fname, line_fn fn,
			  void *user, char *err, size_t errsize)
{
	return for_each_line_c(text, fname, fn, NULL, user, err, errsize);
}

static bool for_each_line_c(const char *text, const char *fname, line_fn fn,
			    line_fn comment_fn, void *user, char *err, size_t errsize)
{
	int lineno = 0;
	const char *p = text;
	while (*p) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		lineno++;
		char *line = strndup(p, len);
		if (!line) {
			snprintf(err, errsize, "%s: out of memory", fname);
			return false;
		}
		char *s = line;
		while (*s == ' ' || *s == '\t')
			s++;
		size_t n = strlen(s);
		while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
			s[--n] = '\0';
		bool ok = true;
		if (*s && *s != '#')
			ok = fn(user, s, fname, lineno, err, errsize);
		else if (*s == '#' && comment_fn)
			ok = comment_fn(user, s, fname, lineno, err, errsize);
		free(line);
		if (!ok)
			return false;
		p = end ? end + 1 : p + len;
	}
	return true;
}

static bool fails_line(void *user, char *line, const char *fname, int lineno,
		       char *err, size_t errsize)
{
	struct vkqs_expectations *e = user;
	char *comma = strchr(line, ',');
	if (!comma || comma == line) {
		snprintf(err, errsize, "%s:%d: expected 'name,Status', got '%s'",
			 fname, lineno, line);
		return false;
	}
	*comma = '\0';
	const char *status = comma + 1;
	/* deqp-runner also accepts a third column (duration): ignore it. */
	char *comma2 = strchr(comma + 1, ',');
	if (comma2)
		*comma2 = '\0';
	enum vkqs_status s;
	if (!vkqs_status_parse(status, &s)) {
		snprintf(err, errsize, "%s:%d: unknown status '%s' (one of Fail, Crash, Timeout, ...)",
			 fname, lineno, status);
		return false;
	}
	if (s == VKQS_PASS) {
		snprintf(err, errsize, "%s:%d: 'Pass' is not an expected failure", fname, lineno);
		return false;
	}
	if (vkqs_expected_status(e, line)) {
		snprintf(err, errsize, "%s:%d: '%s' is listed twice", fname, lineno, line);
		return false;
	}
	struct vkqs_expected_fail *nf = realloc(e->fails, (e->nfails + 1) * sizeof(*nf));
	if (!nf || !(nf[e->nfails].name = strdup(line))) {
		if (nf)
			e->fails = nf;
		snprintf(err, errsize, "%s: out of memory", fname);
		return false;
	}
	e->fails = nf;
	e->fails[e->nfails].status = s;
	e->fails[e->nfails].pins = e->pending;
	e->nfails++;
	memset(&e->pending, 0, sizeof(e->pending));
	return true;
}

static void free_pins(struct vkqs_pins *p)
{
	for (size_t i = 0; i < p->n; i++) {
		regfree(&p->re[i]);
		free(p->src[i]);
	}
	free(p->re);
	free(p->src);
	memset(p, 0, sizeof(*p));
}

bool vkqs_pins_match(const struct vkqs_pins *p, const char *text, size_t len)
{
	char *t = strndup(text, len);
	bool hit = false;
	for (size_t i = 0; t && i < p->n && !hit; i++)
		hit = regexec(&p->re[i], t, 0, NULL, 0) == 0;
	free(t);
	return hit;
}

/* Whether a comment line is meant as a pin: '#', blanks, "pin" in any
 * case, blanks, ':'. */
static bool looks_like_pin(const char *line)
{
	const char *p = line + 1;
	while (*p == ' ' || *p == '\t')
		p++;
	if (strncasecmp(p, "pin", 3) != 0)
		return false;
	p += 3;
	while (*p == ' ' || *p == '\t')
		p++;
	return *p == ':';
}

/* "# pin: REGEX": pins the next entry (one or more pins). */
static bool fails_comment(void *user, char *line, const char *fname, int lineno,
			  char *err, size_t errsize)
{
	struct vkqs_expectations *e = user;
	static const char key[] = "# pin: ";
	if (!looks_like_pin(line))
		return true;
	if (strncmp(line, key, sizeof(key) - 1) != 0) {
		snprintf(err, errsize, "%s:%d: a malformed pin '%.40s' (write '# pin: REGEX')", fname,
			 lineno, line);
		return false;
	}
	const char *re = line + sizeof(key) - 1;
	while (*re == ' ')
		re++;
	if (!*re) {
		snprintf(err, errsize, "%s:%d: '# pin:' without a regex", fname, lineno);
		return false;
	}
	/* anchored: the pin matches a failure whole */
	size_t len = strlen(re);
	char *anchored = malloc(len + 5);
	char **src = realloc(e->pending.src, (e->pending.n + 1) * sizeof(*src));
	if (src)
		e->pending.src = src;
	regex_t *res = realloc(e->pending.re, (e->pending.n + 1) * sizeof(*res));
	if (res)
		e->pending.re = res;
	if (!anchored || !src || !res) {
		free(anchored);
		snprintf(err, errsize, "%s: out of memory", fname);
		return false;
	}
	snprintf(anchored, len + 5, "^(%s)$", re);
	int rc = regcomp(&e->pending.re[e->pending.n], anchored, REG_EXTENDED | REG_NOSUB);
	free(anchored);
	if (rc != 0) {
		char msg[256];
		regerror(rc, &e->pending.re[e->pending.n], msg, sizeof(msg));
		snprintf(err, errsize, "%s:%d: bad pin regex '%s': %s", fname, lineno, re, msg);
		return false;
	}
	if (!(e->pending.src[e->pending.n] = strdup(re))) {
		regfree(&e->pending.re[e->pending.n]);
		snprintf(err, errsize, "%s: out of memory", fname);
		return false;
	}
	e->pending.n++;
	e->pending_pin_line = lineno;
	return true;
}

static bool regex_line(void *user, char *line, const char *fname, int lineno,
		       char *err, size_t errsize)
{
	struct vkqs_regex_list *l = user;
	regex_t re;
	int rc = regcomp(&re, line, REG_EXTENDED | REG_NOSUB);
	if (rc != 0) {
		char msg[256];
		regerror(rc, &re, msg, sizeof(msg));
		snprintf(err, errsize, "%s:%d: bad regex '%s': %s", fname, lineno, line, msg);
		return false;
	}
	regex_t *nre = realloc(l->re, (l->count + 1) * sizeof(*nre));
	char **nsrc = nre ? realloc(l->src, (l->count + 1) * sizeof(*nsrc)) : NULL;
	if (nre)
		l->re = nre;
	if (nsrc)
		l->src = nsrc;
	if (!nre || !nsrc || !(l->src[l->count] = strdup(line))) {
		regfree(&re);
		snprintf(err, errsize, "%s: out of memory", fname);
		return false;
	}
	l->re[l->count++] = re;
	return true;
}

bool vkqs_parse_fails(struct vkqs_expectations *e, const char *text,
		      const char *fname, char *err, size_t errsize)
{
	bool ok = for_each_line_c(text, fname, fails_line, fails_comment, e, err, errsize);
	if (ok && e->pending.n) {
		snprintf(err, errsize, "%s:%d: '# pin:' with no entry after it", fname,
			 e->pending_pin_line);
		ok = false;
	}
	free_pins(&e->pending);
	return ok;
}

bool vkqs_parse_regexes(struct vkqs_regex_list *l, const char *text,
			const char *fname, char *err, size_t errsize)
{
	return for_each_line(text, fname, regex_line, l, err, errsize);
}

/* The "# driver versions:" line of a -fails.txt text, or NULL. */
static char *driver_versions(const char *text)
{
	static const char key[] = "# driver versions:";
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (strncmp(p, key, sizeof(key) - 1) == 0) {
			p += sizeof(key) - 1;
			return strndup(p, strcspn(p, "\r\n"));
		}
	return NULL;
}

/* Whether driver_info contains one of the comma-separated versions. */
static bool version_matches(const char *versions, const char *driver_info)
{
	char *list = strdup(versions), *save = NULL;
	bool match = false;
	for (char *v = list ? strtok_r(list, ",", &save) : NULL; v && !match;
	     v = strtok_r(NULL, ",", &save)) {
		while (*v == ' ')
			v++;
		size_t n = strlen(v);
		while (n && v[n - 1] == ' ')
			v[--n] = '\0';
		match = n && strstr(driver_info, v);
	}
	free(list);
	return match;
}

/* Whether prefix applies to driver_info (NULL: any driver); when not, it is
 * noted in e->not_applied. */
static bool prefix_applies(struct vkqs_expectations *e, const char *prefix,
			   const char *driver_info)
{
	if (!driver_info)
		return true;
	char path[4096];
	snprintf(path, sizeof(path), "%s-fails.txt", prefix);
	char *text = vkqs_read_file(path, NULL);
	char *versions = text ? driver_versions(text) : NULL;
	free(text);
	bool applies = !versions || version_matches(versions, driver_info);
	if (!applies) {
		size_t n = strlen(e->not_applied);
		snprintf(e->not_applied + n, sizeof(e->not_applied) - n, "%s%s (written for%s)",
			 n ? "; " : "", prefix, versions);
	}
	free(versions);
	return applies;
}

/* The files of one prefix, appended to e. */
static bool load_prefix(struct vkqs_expectations *e, const char *prefix, char *err,
			size_t errsize)
{
	static const char *const suffix[4] = {"-fails.txt", "-flakes.txt", "-skips.txt",
					      "-serial.txt"};
	int found = 0;
	for (int i = 0; i < 4; i++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s%s", prefix, suffix[i]);
		size_t len = 0;
		char *raw = vkqs_read_file(path, &len);
		if (!raw && errno == ENOENT)
			continue;
		char sha[65] = "";
		if (raw)
			vkqs_sha256_hex(raw, len, sha);
		free(raw);
		/* the one text reader: UTF-8, no stray bytes, CRLF as LF */
		char *text = vkqs_read_text(path, err, errsize);
		if (!text)
			return false;
		found++;
		if (e->nfiles == VKQS_EXPECTATIONS_MAX_FILES) {
			free(text);
			snprintf(err, errsize, "more than %d expectations files",
				 VKQS_EXPECTATIONS_MAX_FILES);
			return false;
		}
		struct vkqs_expectations_file *f = &e->files[e->nfiles++];
		snprintf(f->path, sizeof(f->path), "%s", path);
		memcpy(f->sha256, sha, sizeof(f->sha256));
		bool ok = i == 0   ? vkqs_parse_fails(e, text, path, err, errsize)
			  : i == 1 ? vkqs_parse_regexes(&e->flakes, text, path, err, errsize)
			  : i == 2 ? vkqs_parse_regexes(&e->skips, text, path, err, errsize)
				   : vkqs_parse_regexes(&e->serial, text, path, err, errsize);
		free(text);
		if (!ok)
			return false;
	}
	if (!found) {
		snprintf(err, errsize, "no expectations files %s-{fails,flakes,skips,serial}.txt",
			 prefix);
		return false;
	}
	return true;
}

bool vkqs_expectations_load_for(struct vkqs_expectations *e, const char *prefixes,
				const char *driver_info, char *err, size_t errsize)
{
	memset(e, 0, sizeof(*e));
	char *list = strdup(prefixes), *save = NULL;
	if (!list) {
		snprintf(err, errsize, "out of memory");
		return false;
	}
	bool ok = true;
	size_t applied = 0;
	for (char *p = strtok_r(list, ",", &save); p && ok; p = strtok_r(NULL, ",", &save))
		if (prefix_applies(e, p, driver_info)) {
			ok = load_prefix(e, p, err, errsize);
			applied++;
		}
	free(list);
	if (ok && !applied) {
		snprintf(err, errsize, "no expectations for this driver (%s): %s", driver_info,
			 e->not_applied);
		ok = false;
	}
	if (!ok)
		vkqs_expectations_free(e);
	return ok;
}

bool vkqs_expectations_load(struct vkqs_expectations *e, const char *prefixes,
			    char *err, size_t errsize)
{
	return vkqs_expectations_load_for(e, prefixes, NULL, err, errsize);
}

static void free_list(struct vkqs_regex_list *l)
{
	for (size_t i = 0; i < l->count; i++) {
		regfree(&l->re[i]);
		free(l->src[i]);
	}
	free(l->re);
	free(l->src);
	memset(l, 0, sizeof(*l));
}

void vkqs_expectations_free(struct vkqs_expectations *e)
{
	for (size_t i = 0; i < e->nfails; i++) {
		free(e->fails[i].name);
		free_pins(&e->fails[i].pins);
	}
	free(e->fails);
	free_list(&e->flakes);
	free_list(&e->skips);
	free_list(&e->serial);
	memset(e, 0, sizeof(*e));
}

const struct vkqs_expected_fail *vkqs_expected_fail(const struct vkqs_expectations *e,
						    const char *name)
{
	for (size_t i = 0; i < e->nfails; i++)
		if (strcmp(e->fails[i].name, name) == 0)
			return &e->fails[i];
	return NULL;
}

const enum vkqs_status *vkqs_expected_status(const struct vkqs_expectations *e,
					      const char *name)
{
	const struct vkqs_expected_fail *f = vkqs_expected_fail(e, name);
	return f ? &f->status : NULL;
}

bool vkqs_regex_list_match(const struct vkqs_regex_list *l, const char *name)
{
	for (size_t i = 0; i < l->count; i++)
		if (regexec(&l->re[i], name, 0, NULL, 0) == 0)
			return true;
	return false;
}
