/* Case status words, as in the Khronos CTS (qpTestLog status codes).
 * One X-macro list generates the enum, the names and the success table. */
#ifndef VKQS_STATUS_H
#define VKQS_STATUS_H

#include <stdbool.h>

/* X(enum suffix, name, counts as success for conformance, severity)
 * Success follows CTS conformance: Pass, NotSupported, QualityWarning and
 * CompatibilityWarning are passing results.  Severity orders the outcomes a
 * single case can accumulate (a warning never hides a failure). */
#define VKQS_STATUS_LIST(X)                                   \
	X(PASS, "Pass", true, 0)                              \
	X(FAIL, "Fail", false, 4)                             \
	X(NOT_SUPPORTED, "NotSupported", true, 3)             \
	X(QUALITY_WARNING, "QualityWarning", true, 2)         \
	X(COMPATIBILITY_WARNING, "CompatibilityWarning", true, 1) \
	X(RESOURCE_ERROR, "ResourceError", false, 5)          \
	X(INTERNAL_ERROR, "InternalError", false, 6)          \
	X(CRASH, "Crash", false, 7)                           \
	X(TIMEOUT, "Timeout", false, 8)

/* The items of a case's message: each vkqs_report is one, with the status
 * it reported.  The message joins them with "; " for the console; the
 * JSON keeps the failures (items at the case's status) apart from the
 * notes (the rest), and a pin must match each failure whole (expect.h). */
#define VKQS_MAX_ITEMS 32
struct vkqs_msg_item {
	unsigned short start, len; /* bytes of the message */
	unsigned char status;      /* enum vkqs_status */
};
struct vkqs_msg_items {
	unsigned n;
	struct vkqs_msg_item it[VKQS_MAX_ITEMS];
};

enum vkqs_status {
#define X(e, n, s, v) VKQS_##e,
	VKQS_STATUS_LIST(X)
#undef X
	VKQS_STATUS_COUNT
};

const char *vkqs_status_name(enum vkqs_status s);
/* Returns false when name is not one of the status words (exact case). */
bool vkqs_status_parse(const char *name, enum vkqs_status *out);
bool vkqs_status_success(enum vkqs_status s);
int vkqs_status_severity(enum vkqs_status s);

#endif
