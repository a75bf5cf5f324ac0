#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

bool vkqs_atomic_open(struct vkqs_atomic_file *af, const char *path, char *err,
		      size_t errsize)
{
	memset(af, 0, sizeof(*af));
	snprintf(af->path, sizeof(af->path), "%s", path);
	snprintf(af->tmp, sizeof(af->tmp), "%s.tmp.%ld", path, (long)getpid());
	af->f = fopen(af->tmp, "w");
	if (!af->f) {
		snprintf(err, errsize, "cannot write %s: %s", path, strerror(errno));
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
	unlink(af->tmp);
}

void vkqs_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

void vkqs_xml_text(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		switch (*p) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			/* XML 1.0 forbids most control characters even escaped. */
			if (*p < 0x20 && *p != '\n' && *p != '\t')
				fputc('?', f);
			else
				fputc(*p, f);
		}
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

double vkqs_monotonic_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
