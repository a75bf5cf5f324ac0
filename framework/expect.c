#include "expect.h"

#include <errno.h>
#include <glob.h>
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
	struct vkqs_expected_fail *f = &e->fails[e->nfails];
	f->status = s;
	f->pins = e->pending;
	f->file = strdup(fname);
	f->line = lineno;
	f->block_line = e->block_line ? e->block_line : lineno;
	f->title = strdup(e->block_line ? e->block_title : "");
	e->nfails++;
	e->last_line = lineno;
	e->last_entry = true;
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
	/* a comment after an entry or a blank line begins a block: the
	 * entries under it are one known bug (the console groups them) */
	bool pin = looks_like_pin(line);
	if (!pin && (e->last_entry || lineno != e->last_line + 1)) {
		e->block_line = lineno;
		e->block_title[0] = '\0';
	}
	e->last_line = lineno;
	e->last_entry = e->last_entry && pin; /* pins between entries: one block */
	if (!e->block_title[0] && !pin) {
		const char *t = line + 1;
		while (*t == ' ')
			t++;
		snprintf(e->block_title, sizeof(e->block_title), "%s", t);
	}
	if (!pin)
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
	e->last_line = 0;
	e->block_line = 0;
	e->last_entry = false;
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

static const char *const driver_ids[] = {
	NULL, "AMD_PROPRIETARY", "AMD_OPEN_SOURCE", "MESA_RADV", "NVIDIA_PROPRIETARY",
	"INTEL_PROPRIETARY_WINDOWS", "INTEL_OPEN_SOURCE_MESA", "IMAGINATION_PROPRIETARY",
	"QUALCOMM_PROPRIETARY", "ARM_PROPRIETARY", "GOOGLE_SWIFTSHADER", "GGP_PROPRIETARY",
	"BROADCOM_PROPRIETARY", "MESA_LLVMPIPE", "MOLTENVK", "COREAVI_PROPRIETARY",
	"JUICE_PROPRIETARY", "VERISILICON_PROPRIETARY", "MESA_TURNIP", "MESA_V3DV",
	"MESA_PANVK", "SAMSUNG_PROPRIETARY", "MESA_VENUS", "MESA_DOZEN", "MESA_NVK",
	"IMAGINATION_OPEN_SOURCE_MESA", "MESA_HONEYKRISP", "VULKAN_SC_EMULATION_ON_VULKAN",
	"MESA_KOSMICKRISP", "MESA_GFXSTREAM", "APE_SOFT",
};

const char *vkqs_driver_id_name(unsigned id)
{
	static char buf[sizeof(driver_ids) / sizeof(driver_ids[0])][48];
	if (id == 0 || id >= sizeof(driver_ids) / sizeof(driver_ids[0]))
		return NULL;
	if (!buf[id][0])
		snprintf(buf[id], sizeof(buf[id]), "VK_DRIVER_ID_%s", driver_ids[id]);
	return buf[id];
}

/* The value of the comment line "# KEY: ..." of text, or NULL. */
static char *scope_line(const char *text, const char *key)
{
	size_t k = strlen(key);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, "# ", 2) && !strncmp(p + 2, key, k) && p[2 + k] == ':') {
			p += 3 + k;
			return strndup(p, strcspn(p, "\r\n"));
		}
	return NULL;
}

static bool contains_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++)
		if (!strncasecmp(hay, needle, n))
			return true;
	return !n;
}

enum scope_key { SCOPE_IDS, SCOPE_VERSIONS, SCOPE_DEVICES };
static const char *const scope_keys[3] = {"driver ids", "driver versions", "devices"};

/* Whether one alternative v matches the target. */
static bool alternative_matches(enum scope_key k, const char *v,
				const struct vkqs_expect_target *t)
{
	switch (k) {
	case SCOPE_IDS: {
		const char *name = vkqs_driver_id_name(t->driver_id);
		char *end;
		unsigned long n = strtoul(v, &end, 0);
		return (*end == '\0' && end != v && n == t->driver_id) || (name && !strcmp(v, name));
	}
	case SCOPE_VERSIONS: return strstr(t->driver_info, v) != NULL;
	case SCOPE_DEVICES: return contains_ci(t->device_name, v);
	}
	return false;
}

/* Whether the comma-separated alternatives of key k match the target. */
static bool scope_matches(enum scope_key k, const char *values,
			  const struct vkqs_expect_target *t)
{
	char *list = strdup(values), *save = NULL;
	bool match = false;
	for (char *v = list ? strtok_r(list, ",", &save) : NULL; v && !match;
	     v = strtok_r(NULL, ",", &save)) {
		while (*v == ' ')
			v++;
		size_t n = strlen(v);
		while (n && v[n - 1] == ' ')
			v[--n] = '\0';
		match = n && alternative_matches(k, v, t);
	}
	free(list);
	return match;
}

/* Whether a file's text applies to the target (NULL: any device), and
 * whether it has a scope line at all; when it does not apply, path is
 * noted in e->not_applied with the scope it was written for. */
static bool file_applies(struct vkqs_expectations *e, const char *path, const char *text,
			 const struct vkqs_expect_target *t, bool *scoped)
{
	bool applies = true;
	char written[512] = "";
	*scoped = false;
	for (int k = 0; k < 3; k++) {
		char *v = scope_line(text, scope_keys[k]);
		if (!v)
			continue;
		*scoped = true;
		size_t n = strlen(written);
		snprintf(written + n, sizeof(written) - n, "%s%s:%s", n ? "; " : "", scope_keys[k], v);
		if (t && !scope_matches((enum scope_key)k, v, t))
			applies = false;
		free(v);
	}
	if (!applies) {
		size_t n = strlen(e->not_applied);
		snprintf(e->not_applied + n, sizeof(e->not_applied) - n, "%s%s (%s)",
			 n ? "; " : "", path, written);
	}
	return applies;
}

static const char *const kinds[4] = {"-fails.txt", "-flakes.txt", "-skips.txt", "-serial.txt"};

static bool loaded(const struct vkqs_expectations *e, const char *path)
{
	for (size_t i = 0; i < e->nfiles; i++)
		if (!strcmp(e->files[i].path, path))
			return true;
	return false;
}

/* The files of one prefix that apply, appended to e; *found counts the
 * prefix's files, *applied those loaded.  A family member (member) applies
 * only when it has a scope line. */
static bool load_prefix(struct vkqs_expectations *e, const char *prefix, bool member,
			const struct vkqs_expect_target *t, size_t *found, size_t *applied,
			char *err, size_t errsize)
{
	for (int i = 0; i < 4; i++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s%s", prefix, kinds[i]);
		if (loaded(e, path)) {
			++*found;
			continue;
		}
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
		++*found;
		bool scoped;
		if (!file_applies(e, path, text, t, &scoped)) {
			free(text);
			continue;
		}
		if (member && !scoped) {
			size_t n = strlen(e->not_applied);
			snprintf(e->not_applied + n, sizeof(e->not_applied) - n,
				 "%s%s (no scope line: applies only when named)", n ? "; " : "", path);
			free(text);
			continue;
		}
		if (e->nfiles == VKQS_EXPECTATIONS_MAX_FILES) {
			free(text);
			snprintf(err, errsize, "more than %d expectations files",
				 VKQS_EXPECTATIONS_MAX_FILES);
			return false;
		}
		struct vkqs_expectations_file *f = &e->files[e->nfiles++];
		snprintf(f->path, sizeof(f->path), "%s", path);
		memcpy(f->sha256, sha, sizeof(f->sha256));
		++*applied;
		bool ok = i == 0   ? vkqs_parse_fails(e, text, path, err, errsize)
			  : i == 1 ? vkqs_parse_regexes(&e->flakes, text, path, err, errsize)
			  : i == 2 ? vkqs_parse_regexes(&e->skips, text, path, err, errsize)
				   : vkqs_parse_regexes(&e->serial, text, path, err, errsize);
		free(text);
		if (!ok)
			return false;
	}
	return true;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The prefixes P of every file "<head>*KIND" (P: the path without
 * KIND), sorted, each once. */
static size_t prefixes_of(const char *head, char ***out)
{
	*out = NULL;
	size_t n = 0;
	for (int i = 0; i < 4; i++) {
		char pat[4200];
		snprintf(pat, sizeof(pat), "%s*%s", head, kinds[i]);
		glob_t g;
		if (glob(pat, 0, NULL, &g) != 0)
			continue;
		for (size_t k = 0; k < g.gl_pathc; k++) {
			size_t len = strlen(g.gl_pathv[k]) - strlen(kinds[i]);
			char *m = strndup(g.gl_pathv[k], len);
			bool dup = !m;
			for (size_t j = 0; m && j < n && !dup; j++)
				dup = !strcmp((*out)[j], m);
			char **grown = dup ? NULL : realloc(*out, (n + 1) * sizeof(**out));
			if (!grown) {
				free(m);
				continue;
			}
			*out = grown;
			(*out)[n++] = m;
		}
		globfree(&g);
	}
	if (n)
		qsort(*out, n, sizeof(**out), cmp_str);
	return n;
}

/* The family of prefix: PREFIX-TAG of every PREFIX-TAG-KIND.txt. */
static size_t family(const char *prefix, char ***out)
{
	char head[4200];
	snprintf(head, sizeof(head), "%s-", prefix);
	return prefixes_of(head, out);
}

/* Whether a file of prefix has a scope line and it matches t. */
static bool scoped_match(const char *prefix, const struct vkqs_expect_target *t)
{
	for (int i = 0; i < 4; i++) {
		char path[4200];
		snprintf(path, sizeof(path), "%s%s", prefix, kinds[i]);
		char *text = vkqs_read_file(path, NULL);
		if (!text)
			continue;
		struct vkqs_expectations scratch = {0};
		bool scoped, applies = file_applies(&scratch, path, text, t, &scoped);
		free(text);
		if (scoped && applies)
			return true;
	}
	return false;
}

void vkqs_expectations_find(const char *dir, const struct vkqs_expect_target *t, char *out,
			    size_t n)
{
	out[0] = '\0';
	char head[4200], **bases;
	snprintf(head, sizeof(head), "%s/", dir);
	size_t nb = prefixes_of(head, &bases);
	for (size_t i = 0; i < nb; i++) {
		/* a family member of another prefix is that prefix's business */
		bool member = false;
		for (size_t j = 0; j < nb && !member; j++) {
			size_t l = strlen(bases[j]);
			member = j != i && !strncmp(bases[i], bases[j], l) && bases[i][l] == '-';
		}
		bool match = !member && scoped_match(bases[i], t);
		if (!member && !match) {
			char **fam;
			size_t nf = family(bases[i], &fam);
			for (size_t k = 0; k < nf; k++) {
				match = match || scoped_match(fam[k], t);
				free(fam[k]);
			}
			free(fam);
		}
		if (match) {
			size_t len = strlen(out);
			snprintf(out + len, n - len, "%s%s", len ? "," : "", bases[i]);
		}
	}
	for (size_t i = 0; i < nb; i++)
		free(bases[i]);
	free(bases);
}

bool vkqs_expectations_load_for(struct vkqs_expectations *e, const char *prefixes,
				const struct vkqs_expect_target *t, char *err, size_t errsize)
{
	memset(e, 0, sizeof(*e));
	char *list = strdup(prefixes), *save = NULL;
	if (!list) {
		snprintf(err, errsize, "out of memory");
		return false;
	}
	bool ok = true;
	size_t applied = 0;
	for (char *p = strtok_r(list, ",", &save); p && ok; p = strtok_r(NULL, ",", &save)) {
		size_t found = 0;
		ok = load_prefix(e, p, false, t, &found, &applied, err, errsize);
		char **members;
		size_t nm = family(p, &members);
		for (size_t i = 0; i < nm; i++) {
			if (ok)
				ok = load_prefix(e, members[i], true, t, &found, &applied, err,
						 errsize);
			free(members[i]);
		}
		free(members);
		if (ok && !found) {
			snprintf(err, errsize,
				 "no expectations files %s-{fails,flakes,skips,serial}.txt", p);
			ok = false;
		}
	}
	free(list);
	if (ok && !applied) {
		snprintf(err, errsize, "no expectations for this device (%s, driver %s): %s",
			 t && t->device_name ? t->device_name : "?",
			 t && t->driver_info ? t->driver_info : "?", e->not_applied);
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
		free(e->fails[i].file);
		free(e->fails[i].title);
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
