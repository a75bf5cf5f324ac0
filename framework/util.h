/* Small shared helpers: atomic file output, JSON values, XML escaping, time. */
#ifndef VKQS_UTIL_H
#define VKQS_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include <jansson.h>

/* A report file written whole or not at all: a regular file (or one a
 * symlink names) is written to a temporary beside it and renamed over it;
 * anything else that exists (a character device such as /dev/null or
 * /dev/stdout, a FIFO) is written through, never replaced. */
struct vkqs_atomic_file {
	FILE *f;
	char tmp[4096 + 64];
	char path[4096]; /* the file renamed over: a symlink's target */
	bool through;    /* written in place (not a regular file) */
};
/* Whether path can take a report, checked before any work: not a
 * directory, its folder exists and takes the temporary the report will be
 * written to (made and removed now: ".<name>.XXXXXX", within NAME_MAX
 * whatever the name), or the existing non-regular file is writable.  On
 * failure one line in err. */
bool vkqs_output_check(const char *path, char *err, size_t errsize);

/* A path and what it is to the command ("--json", "the expectations
 * file"), for messages. */
struct vkqs_named_path {
	const char *what;
	const char *path;
};
/* The one rule for a command's outputs, checked before any work: no
 * output is (by device and inode) one of the inputs, another output, or
 * the file behind stdout or stderr (/dev/stdout into a log); a character
 * device that is no terminal (/dev/null) takes any number.  On failure one
 * line in err. */
bool vkqs_outputs_distinct(const struct vkqs_named_path *outs, size_t nout,
			   const struct vkqs_named_path *ins, size_t nin, char *err,
			   size_t errsize);

/* An unnamed temporary file in TMPDIR (default /tmp), close-on-exec; -1
 * with one line in why. */
int vkqs_tmpfile(char *why, size_t size);
/* Whether an output is written through instead of replaced: a device or
 * FIFO, or a path whose links lead into /dev or /proc (/dev/stdout). */
bool vkqs_output_through(const char *path);
bool vkqs_atomic_open(struct vkqs_atomic_file *af, const char *path, char *err,
		      size_t errsize);
/* Flushes, closes and renames; on any write error removes the temporary. */
bool vkqs_atomic_commit(struct vkqs_atomic_file *af, char *err, size_t errsize);
void vkqs_atomic_abort(struct vkqs_atomic_file *af);

/* JSON goes through jansson (Debian's libjansson-dev).  A string value of
 * s (NULL as ""): jansson takes UTF-8 only, so a byte that is no UTF-8 (a
 * driver's log) becomes U+FFFD. */
json_t *vkqs_json_text(const char *s);
/* A JSON file read whole and parsed (duplicate keys refused: one key, one
 * meaning); NULL with one line in err (the read error, or "PATH is not
 * JSON (line L, column C: why)"). */
json_t *vkqs_json_read(const char *path, char *err, size_t errsize);
/* Writes root (and releases it) to an open report file: two-space indent,
 * reals with 9 significant digits.  False when the write failed. */
bool vkqs_json_dump(json_t *root, FILE *f);
/* The same on one line, no indent: the bench JSON, whose raw samples (tens
 * of thousands of numbers a run) would take a line each. */
bool vkqs_json_dump_compact(json_t *root, FILE *f);
void vkqs_xml_text(FILE *f, const char *s);

/* Reads a whole file; NULL (errno set) on failure.  Caller frees. */
char *vkqs_read_file(const char *path, size_t *len);

/* Numbers: common/numparse.h (vkqs_parse_u64, vkqs_parse_decimal). */
#include "numparse.h"

/* The one reader of text inputs (caselist, expectations, results to
 * resume): a regular file (not a folder or device), UTF-8, no NUL or
 * other control byte but tab, CRLF read as LF, a leading byte order mark
 * dropped.  NULL with one line in err
 * ("PATH: ..."); caller frees. */
char *vkqs_read_text(const char *path, char *err, size_t errsize);

/* SHA-256 (FIPS 180-4) of n bytes as 64 lowercase hex digits and a NUL. */
void vkqs_sha256_hex(const void *data, size_t n, char out[65]);

/* In a child just forked from `parent`: SIGKILL when the parent dies
 * (PR_SET_PDEATHSIG, kept across exec), and _exit now if it already has.
 * No case process outlives the runner, even one SIGKILLed itself. */
void vkqs_die_with_parent(pid_t parent);
/* The commit of the source this binary was built from (12 hex digits,
 * "-modified" when tracked files differed from it), or "unknown" when it
 * was not built from a git checkout (cmake/revision.cmake). */
const char *vkqs_revision(void);
double vkqs_monotonic_s(void);

#endif
