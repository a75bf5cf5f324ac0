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
	/* Where: the file and line of the entry, and of the comment block it
	 * belongs to (entries under one comment block are one known bug), with
	 * that block's first line (without "# "): the console groups by it. */
	char *file;
	int line, block_line;
	char *title;
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
	int last_line, block_line; /* while parsing: the comment block */
	bool last_entry;
	char block_title[200];
	struct vkqs_regex_list flakes;
	struct vkqs_regex_list skips;
	struct vkqs_regex_list serial; /* run after the rest, one at a time */
#define VKQS_EXPECTATIONS_MAX_FILES 16
	struct vkqs_expectations_file files[VKQS_EXPECTATIONS_MAX_FILES];
	size_t nfiles;
	/* Files left out because their scope lines do not match the device:
	 * "FILE (driver versions: V)", "; "-separated */
	char not_applied[2048];
};

/* Loads the files of each prefix of a comma-separated list (-fails,
 * -flakes, -skips, -serial), later prefixes adding to earlier ones (e.g.
 * "ci/nvidia,ci/nvidia-h200": one GPU's additions to its driver's lists);
 * missing files are empty, but each prefix needs one.  On error: one line
 * (file:line: problem) in err. */
bool vkqs_expectations_load(struct vkqs_expectations *e, const char *prefixes,
			    char *err, size_t errsize);
/* What an expectations file may be scoped to. */
struct vkqs_expect_target {
	const char *driver_info; /* VkPhysicalDeviceDriverProperties::driverInfo */
	const char *device_name; /* VkPhysicalDeviceProperties::deviceName */
	unsigned driver_id;      /* VkDriverId */
};

/* The same for a device.  A file scopes itself with comment lines, each a
 * comma-separated list of alternatives:
 *   # driver ids: VK_DRIVER_ID_GOOGLE_SWIFTSHADER   (the name or its number)
 *   # driver versions: Mesa 22.3.6                  (within driverInfo)
 *   # devices: H200                                  (within deviceName, any case)
 * It applies when every key it has matches; one that does not is named in
 * not_applied.  A prefix also brings in its family: every
 * PREFIX-TAG-{fails,flakes,skips,serial}.txt that has a scope line and
 * matches (ci/nvidia brings in ci/nvidia-h200-skips.txt on an H200); a
 * family file without a scope line applies only when named.  Each file is
 * read once.  When no file applies: false, with one line saying for what
 * they were written. */
bool vkqs_expectations_load_for(struct vkqs_expectations *e, const char *prefixes,
				const struct vkqs_expect_target *t, char *err,
				size_t errsize);
/* The expectations of a device in dir (e.g. "ci"): the prefixes of dir's
 * -{fails,flakes,skips,serial}.txt files that are no other's family member
 * and of which a file, or a family member's, has a scope line matching t;
 * comma-separated into out ("" when none). */
void vkqs_expectations_find(const char *dir, const struct vkqs_expect_target *t, char *out,
			    size_t n);
/* VK_DRIVER_ID_... of a VkDriverId, or NULL when unknown. */
const char *vkqs_driver_id_name(unsigned id);
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
