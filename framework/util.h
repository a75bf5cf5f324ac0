/* Small shared helpers: atomic file output, JSON/XML escaping, time. */
#ifndef VKQS_UTIL_H
#define VKQS_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Output files are written to "<path>.tmp.<pid>" and renamed over path on
 * commit, so a killed run never leaves a half-written file. */
struct vkqs_atomic_file {
	FILE *f;
	char tmp[4096];
	char path[4096];
};
bool vkqs_atomic_open(struct vkqs_atomic_file *af, const char *path, char *err,
		      size_t errsize);
/* Flushes, closes and renames; on any write error removes the temporary. */
bool vkqs_atomic_commit(struct vkqs_atomic_file *af, char *err, size_t errsize);
void vkqs_atomic_abort(struct vkqs_atomic_file *af);

void vkqs_json_string(FILE *f, const char *s);
void vkqs_xml_text(FILE *f, const char *s);

/* Reads a whole file; NULL (errno set) on failure.  Caller frees. */
char *vkqs_read_file(const char *path, size_t *len);

/* SHA-256 (FIPS 180-4) of n bytes as 64 lowercase hex digits and a NUL. */
void vkqs_sha256_hex(const void *data, size_t n, char out[65]);

double vkqs_monotonic_s(void);

#endif
