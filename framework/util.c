#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "vkqs_revision.h" /* generated: cmake/revision.cmake */

/* The folder part of path ("." for a bare name). */
static void folder_of(const char *path, char *dir, size_t size)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(dir, size, ".");
	else if (slash == path)
		snprintf(dir, size, "/");
	else
		snprintf(dir, size, "%.*s", (int)(slash - path), path);
}

/* The temporary an output is written to before it is renamed over the
 * output: beside it (one file system), ".<up to 40 bytes of its
 * name>.XXXXXX", so it fits NAME_MAX whatever the output's name. */
static void temp_pattern(const char *real, char *tmp, size_t size)
{
	char dir[4096];
	folder_of(real, dir, sizeof(dir));
	const char *slash = strrchr(real, '/'), *base = slash ? slash + 1 : real;
	snprintf(tmp, size, "%s/.%.40s.XXXXXX", dir, base);
}

/* A temporary made and opened for path's replacement (-1, errno set). */
static int temp_create(const char *real, char *tmp, size_t size)
{
	temp_pattern(real, tmp, size);
	int fd = mkstemp(tmp);
	if (fd < 0)
		return -1;
	/* the mode an ordinary new file gets, or the replaced file's */
	struct stat st;
	mode_t mask = umask(0);
	umask(mask);
	mode_t mode = stat(real, &st) == 0 ? (st.st_mode & 07777) : (0666 & ~mask);
	fchmod(fd, mode);
	return fd;
}

bool vkqs_output_check(const char *path, char *err, size_t errsize)
{
	struct stat st;
	if (!*path) {
		snprintf(err, errsize, "an empty output path");
		return false;
	}
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			snprintf(err, errsize, "cannot write %s: it is a directory", path);
			return false;
		}
		if (!S_ISREG(st.st_mode)) {
			if (access(path, W_OK) != 0) {
				snprintf(err, errsize, "cannot write %s: %s", path, strerror(errno));
				return false;
			}
			return true;
		}
	} else if (errno != ENOENT) {
		snprintf(err, errsize, "cannot write %s: %s", path, strerror(errno));
		return false;
	}
	if (vkqs_output_through(path))
		return true;
	char real[PATH_MAX], dir[PATH_MAX];
	/* a regular file is replaced from beside it: its folder must take a
	 * new file (a symlink's target's folder) */
	if (!realpath(path, real))
		snprintf(real, sizeof(real), "%s", path);
	folder_of(real, dir, sizeof(dir));
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		snprintf(err, errsize, "cannot write %s: no folder %s", path, dir);
		return false;
	}
	if (access(dir, W_OK) != 0) {
		snprintf(err, errsize, "cannot write %s: folder %s: %s", path, dir, strerror(errno));
		return false;
	}
	/* the temporary it will be written to, made now, before any work */
	char tmp[PATH_MAX + 64];
	int fd = temp_create(real, tmp, sizeof(tmp));
	if (fd < 0) {
		snprintf(err, errsize, "cannot write %s: a temporary file in %s: %s", path, dir,
			 strerror(errno));
		return false;
	}
	close(fd);
	unlink(tmp);
	return true;
}

static bool isatty_path(const char *path)
{
	int fd = open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return false;
	bool tty = isatty(fd);
	close(fd);
	return tty;
}

/* Whether two paths of files not made yet name one: the same folder (by
 * inode) and the same name. */
static bool paths_same_new(const char *a, const char *b)
{
	char da[PATH_MAX], db[PATH_MAX];
	folder_of(a, da, sizeof(da));
	folder_of(b, db, sizeof(db));
	const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');
	sa = sa ? sa + 1 : a;
	sb = sb ? sb + 1 : b;
	struct stat x, y;
	return strcmp(sa, sb) == 0 && stat(da, &x) == 0 && stat(db, &y) == 0 &&
	       x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

/* The file a path names, by device and inode (false when it does not
 * exist yet). */
static bool file_id(const char *path, struct stat *st)
{
	return stat(path, st) == 0;
}

static bool same_id(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

bool vkqs_outputs_distinct(const struct vkqs_named_path *outs, size_t nout,
			   const struct vkqs_named_path *ins, size_t nin, char *err,
			   size_t errsize)
{
	for (size_t i = 0; i < nout; i++) {
		struct stat so, sx;
		const char *o = outs[i].path;
		bool exists = file_id(o, &so);
		/* /dev/null and the like take any number of writers */
		bool sink = exists && S_ISCHR(so.st_mode) && !isatty_path(o);
		for (size_t k = 0; exists && !sink && k < nin; k++)
			if (ins[k].path && file_id(ins[k].path, &sx) && same_id(&so, &sx)) {
				snprintf(err, errsize,
					 "%s %s: that is %s, an input of this run: refused, "
					 "nothing was written",
					 outs[i].what, o, ins[k].what);
				return false;
			}
		for (int fd = 1; exists && !sink && fd <= 2; fd++)
			if (fstat(fd, &sx) == 0 && same_id(&so, &sx)) {
				snprintf(err, errsize,
					 "%s %s: that is this command's standard %s, which "
					 "carries its console lines: refused, write it to a file",
					 outs[i].what, o, fd == 1 ? "output" : "error");
				return false;
			}
		for (size_t k = 0; k < i; k++) {
			struct stat sk;
			bool same = exists ? file_id(outs[k].path, &sk) && same_id(&so, &sk) && !sink
					   : paths_same_new(o, outs[k].path);
			if (same) {
				snprintf(err, errsize, "%s %s and %s %s name one file: refused",
					 outs[k].what, outs[k].path, outs[i].what, o);
				return false;
			}
		}
	}
	return true;
}

int vkqs_tmpfile(char *why, size_t size)
{
	const char *dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0 && errno != ENOENT && errno != EACCES && errno != EROFS && errno != ENOSPC &&
	    errno != ENOTDIR) {
		/* a file system without O_TMPFILE */
		char path[PATH_MAX];
		if (snprintf(path, sizeof(path), "%s/vkqs-log-XXXXXX", dir) < (int)sizeof(path)) {
			fd = mkstemp(path);
			if (fd >= 0) {
				unlink(path);
				fcntl(fd, F_SETFD, FD_CLOEXEC);
			}
		}
	}
	if (fd < 0)
		snprintf(why, size, "a temporary file in %s (TMPDIR): %s", dir, strerror(errno));
	return fd;
}

/* Whether path or a link on its way leads into /dev or /proc. */
static bool system_path(const char *path)
{
	char cur[4096], link[4096];
	snprintf(cur, sizeof(cur), "%s", path);
	for (int depth = 0; depth < 16; depth++) {
		if (!strncmp(cur, "/dev/", 5) || !strncmp(cur, "/proc/", 6))
			return true;
		ssize_t n = readlink(cur, link, sizeof(link) - 1);
		if (n <= 0)
			return false;
		link[n] = '\0';
		if (link[0] == '/') {
			snprintf(cur, sizeof(cur), "%s", link);
		} else {
			char dir[4096];
			folder_of(cur, dir, sizeof(dir));
			if (snprintf(cur, sizeof(cur), "%s/%s", dir, link) >= (int)sizeof(cur))
				return false;
		}
	}
	return false;
}

bool vkqs_output_through(const char *path)
{
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		return true;
	return system_path(path);
}

bool vkqs_atomic_open(struct vkqs_atomic_file *af, const char *path, char *err,
		      size_t errsize)
{
	memset(af, 0, sizeof(*af));
	if (vkqs_output_through(path)) {
		/* a device or FIFO (maybe through a symlink), or a path into
		 * /dev or /proc (/dev/stdout: /proc/self/fd/1 names whatever
		 * stdout is): written through, never replaced */
		snprintf(af->path, sizeof(af->path), "%s", path);
		af->through = true;
		af->f = fopen(path, "w");
		if (!af->f) {
			snprintf(err, errsize, "cannot write %s: %s", path, strerror(errno));
			return false;
		}
		return true;
	}
	/* a symlink to a regular file: the target is replaced, the link stays */
	char real[PATH_MAX];
	if (!realpath(path, real))
		snprintf(real, sizeof(real), "%s", path);
	snprintf(af->path, sizeof(af->path), "%s", real);
	int fd = temp_create(real, af->tmp, sizeof(af->tmp));
	af->f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!af->f) {
		snprintf(err, errsize, "cannot write %s: %s", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(af->tmp);
		}
		return false;
	}
	return true;
}

bool vkqs_atomic_commit(struct vkqs_atomic_file *af, char *err, size_t errsize)
{
	bool ok = !ferror(af->f);
	ok = (fflush(af->f) == 0) && ok;
	ok = (fsync(fileno(af->f)) == 0 || errno == EINVAL) && ok;
	ok = (fclose(af->f) == 0) && ok;
	af->f = NULL;
	if (af->through) {
		if (!ok)
			snprintf(err, errsize, "cannot write %s: %s", af->path, strerror(errno));
		return ok;
	}
	if (ok && rename(af->tmp, af->path) == 0)
		return true;
	snprintf(err, errsize, "cannot write %s: %s", af->path, strerror(errno));
	unlink(af->tmp);
	return false;
}

void vkqs_atomic_abort(struct vkqs_atomic_file *af)
{
	if (af->f)
		fclose(af->f);
	af->f = NULL;
	if (!af->through)
		unlink(af->tmp);
}

/* The length of the UTF-8 sequence at p (RFC 3629: no overlong forms, no
 * surrogates, nothing past U+10FFFF), 0 when it is none. */
static size_t utf8_length(const unsigned char *p)
{
	if (p[0] < 0x80)
		return 1;
	size_t n = p[0] >= 0xc2 && p[0] <= 0xdf ? 2 : p[0] >= 0xe0 && p[0] <= 0xef ? 3
		   : p[0] >= 0xf0 && p[0] <= 0xf4                   ? 4
								    : 0;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] > 0x9f) ||
	    (p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] > 0x8f))
		return 0;
	return n;
}

json_t *vkqs_json_text(const char *s)
{
	if (!s)
		s = "";
	json_t *j = json_string(s);
	if (j)
		return j;
	/* not UTF-8: each byte that starts no sequence becomes U+FFFD */
	size_t len = strlen(s);
	char *clean = malloc(len * 3 + 1);
	if (!clean)
		return json_string("");
	size_t o = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		size_t n = utf8_length(p);
		if (n) {
			memcpy(clean + o, p, n);
			o += n;
			p += n;
		} else {
			memcpy(clean + o, "\xef\xbf\xbd", 3);
			o += 3;
			p++;
		}
	}
	clean[o] = '\0';
	j = json_string(clean);
	free(clean);
	return j ? j : json_string("");
}

json_t *vkqs_json_read(const char *path, char *err, size_t errsize)
{
	char *text = vkqs_read_text(path, err, errsize);
	if (!text)
		return NULL;
	json_error_t jerr;
	json_t *j = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	free(text);
	if (!j)
		snprintf(err, errsize, "%s is not JSON (line %d, column %d: %s)", path, jerr.line,
			 jerr.column, jerr.text);
	return j;
}

static bool json_dump_flags(json_t *root, FILE *f, size_t flags)
{
	bool ok = root && json_dumpf(root, f, flags | JSON_REAL_PRECISION(9)) == 0 &&
		  fputc('\n', f) != EOF;
	json_decref(root);
	return ok;
}

bool vkqs_json_dump(json_t *root, FILE *f)
{
	return json_dump_flags(root, f, JSON_INDENT(2));
}

bool vkqs_json_dump_compact(json_t *root, FILE *f)
{
	return json_dump_flags(root, f, JSON_COMPACT);
}

void vkqs_xml_text(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p;) {
		size_t n = utf8_length(p);
		switch (*p) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			/* XML 1.0 forbids most control characters even escaped;
			 * a byte that is no UTF-8 (a driver's log) is U+FFFD, as
			 * in the JSON */
			if (*p < 0x20 && *p != '\n' && *p != '\t')
				fputc('?', f);
			else if (!n)
				fputs("\xef\xbf\xbd", f);
			else
				fwrite(p, 1, n, f);
		}
		p += n ? n : 1;
	}
}

char *vkqs_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		size_t r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
		if (r == 0)
			break;
		if (n + 1 == cap) {
			char *nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	bool bad = ferror(f);
	fclose(f);
	if (!buf || bad) {
		free(buf);
		errno = bad ? EIO : ENOMEM;
		return NULL;
	}
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

/* Length of the UTF-8 sequence at p (of at most n bytes), 0 if invalid. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	if (p[0] < 0x80)
		return 1;
	size_t len = p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 ? 2 : 0;
	if (!len || len > n || (p[0] >= 0xf8))
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	if (len == 3 && ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] >= 0xa0)))
		return 0; /* overlong, or a surrogate */
	if (len == 4 && ((p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] >= 0x90)))
		return 0;
	return len;
}

char *vkqs_read_text(const char *path, char *err, size_t errsize)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(err, errsize, "%s: a folder, not a file", path);
		return NULL;
	}
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
		snprintf(err, errsize, "%s: not a regular file", path);
		return NULL;
	}
	size_t len = 0;
	char *text = vkqs_read_file(path, &len);
	if (!text) {
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		return NULL;
	}
	/* A byte order mark (Windows editors write one) is not part of the
	 * first line: a caselist or expectations file saved with one reads
	 * as the same file without it, as Python's utf-8-sig reads it. */
	size_t start = len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3) ? 3 : 0;
	size_t line = 1, w = 0;
	for (size_t i = start; i < len;) {
		unsigned char c = (unsigned char)text[i];
		if (c == '\r' && i + 1 < len && text[i + 1] == '\n') {
			i++; /* CRLF: LF */
			continue;
		}
		size_t n = utf8_len((const unsigned char *)text + i, len - i);
		if (!n || (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
			snprintf(err, errsize, "%s:%zu: %s (byte 0x%02x at offset %zu): not a text file",
				 path, line, !n ? "not UTF-8" : "a control byte", c, i);
			free(text);
			return NULL;
		}
		line += c == '\n';
		memmove(text + w, text + i, n);
		w += n;
		i += n;
	}
	text[w] = '\0';
	return text;
}

const char *vkqs_revision(void)
{
	return VKQS_REVISION;
}

double vkqs_monotonic_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* SHA-256 -------------------------------------------------------------------*/

static const uint32_t sha_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
	0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
	0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
	0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
	0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
	0xc67178f2};

static uint32_t ror(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static void sha_block(uint32_t h[8], const uint8_t *p)
{
	uint32_t w[64];
	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
	for (int i = 0; i < 64; i++) {
		uint32_t t1 = k + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) +
			      sha_k[i] + w[i];
		uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
		k = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
	}
	h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += k;
}

void vkqs_sha256_hex(const void *data, size_t n, char out[65])
{
	uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
			 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
	const uint8_t *p = data;
	size_t left = n;
	for (; left >= 64; left -= 64, p += 64)
		sha_block(h, p);
	uint8_t tail[128] = {0};
	memcpy(tail, p, left);
	tail[left] = 0x80;
	size_t blocks = left + 9 <= 64 ? 1 : 2;
	uint64_t bits = (uint64_t)n * 8;
	for (int i = 0; i < 8; i++)
		tail[blocks * 64 - 1 - i] = (uint8_t)(bits >> (8 * i));
	for (size_t b = 0; b < blocks; b++)
		sha_block(h, tail + 64 * b);
	for (int i = 0; i < 8; i++)
		snprintf(out + 8 * i, 9, "%08x", h[i]);
}

void vkqs_die_with_parent(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
}
