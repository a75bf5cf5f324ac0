/* Expectations in deqp-runner's style (STYLE 9):
 *   <prefix>-fails.txt   "name,Status" lines: known results other than Pass
 *   <prefix>-flakes.txt  regexes of cases whose failures are tolerated
 *   <prefix>-skips.txt   regexes of cases not run at all
 *   <prefix>-serial.txt  regexes of cases run after the others, one at a
 *                        time with no other case process alive
 * Blank lines and lines starting with '#' are comments.  Regexes are POSIX
 * extended and match anywhere in the name (anchor with ^...$).
 *
 * Comments "# pin: REGEX" before an entry of -fails.txt (one or more) pin
 * what is expected to fail: each failure of the case (each item of its
 * message at the case's status, without its "file.c:line: " prefix) must
 * match one of the entry's pins whole (POSIX extended, anchored at both
 * ends); a failure no pin matches makes the result not_pinned
 * (unexpected), so a second bug in the same case, or changed observed
 * values, is not hidden by the first.  The notes of a case (items below its
 * status: "no verdict", warnings beside a failure) are not pinned.  A line
 * that looks like a pin but is not exactly "# pin: " ("#pin:", "# Pin:")
 * is refused.  deqp-runner reads such a file as it is (pins are comments). */
#ifndef VKQS_EXPECT_H
#define VKQS_EXPECT_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

#include "status.h"

/* The pins of an entry: their texts and compiled, anchored, regexes. */
struct vkqs_pins {
	char **src;
	regex_t *re;
	size_t n;
};

struct vkqs_expected_fail {
	char *name;
	enum vkqs_status status;
	struct vkqs_pins pins;
};

/* Whether text (len bytes) matches one of the pins whole. */
bool vkqs_pins_match(const struct vkqs_pins *p, const char *text, size_t len);

struct vkqs_regex_list {
	regex_t *re;
	char **src;
	size_t count;
};

/* A file the expectations were read from, and its SHA-256. */
struct vkqs_expectations_file {
	char path[4096];
	char sha256[65];
};

struct vkqs_expectations {
	struct vkqs_expected_fail *fails;
	size_t nfails;
	struct vkqs_pins pending; /* while parsing: pins awaiting their entry */
	int pending_pin_line;
	struct vkqs_regex_list flakes;
	struct vkqs_regex_list skips;
	struct vkqs_regex_list serial; /* run after the rest, one at a time */
#define VKQS_EXPECTATIONS_MAX_FILES 16
	struct vkqs_expectations_file files[VKQS_EXPECTATIONS_MAX_FILES];
	size_t nfiles;
	/* Prefixes left out because their -fails.txt says "# driver versions:"
	 * and the driver is none of them: "PREFIX (written for V)", "; "-separated */
	char not_applied[1024];
};

/* Loads the files of each prefix of a comma-separated list (-fails,
 * -flakes, -skips, -serial), later prefixes adding to earlier ones (e.g.
 * "ci/nvidia,ci/nvidia-h200": one GPU's additions to its driver's lists);
 * missing files are empty, but each prefix needs one.  On error: one line
 * (file:line: problem) in err. */
bool vkqs_expectations_load(struct vkqs_expectations *e, const char *prefixes,
			    char *err, size_t errsize);
/* The same for a driver: a prefix whose -fails.txt has a line
 * "# driver versions: V1, V2" applies only when driver_info contains one of
 * them; the others are listed in not_applied.  When none of the prefixes
 * applies: false, with one line saying for which versions they were
 * written. */
bool vkqs_expectations_load_for(struct vkqs_expectations *e, const char *prefixes,
				const char *driver_info, char *err, size_t errsize);
/* Parsers over text already in memory (fname is used in messages). */
bool vkqs_parse_fails(struct vkqs_expectations *e, const char *text,
		      const char *fname, char *err, size_t errsize);
bool vkqs_parse_regexes(struct vkqs_regex_list *l, const char *text,
			const char *fname, char *err, size_t errsize);
void vkqs_expectations_free(struct vkqs_expectations *e);

/* The baseline status of name, or NULL. */
const enum vkqs_status *vkqs_expected_status(const struct vkqs_expectations *e,
					      const char *name);
/* The entry of name, or NULL. */
const struct vkqs_expected_fail *vkqs_expected_fail(const struct vkqs_expectations *e,
						    const char *name);
bool vkqs_regex_list_match(const struct vkqs_regex_list *l, const char *name);

#endif
