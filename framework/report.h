/* Reporters: pure functions of the run record (STYLE 8).  File reporters
 * write atomically (util.h). */
#ifndef VKQS_REPORT_H
#define VKQS_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "record.h"

/* The device block of `vkqs info`, also used at the top of a run. */
void vkqs_print_device_info(FILE *f, const struct vkqs_device_info *d);

/* The closing lines: the partition of the cases (its counts add up to the
 * total), then "PASS: ...", "FAIL: N unexpected ..." or "INCOMPLETE: ...". */
void vkqs_print_summary(FILE *f, const struct vkqs_run *run);

/* The "device" member of the results and bench JSON (a new reference). */
json_t *vkqs_json_device(const struct vkqs_device_info *d);

/* The refdevice's knobs ("NAME=value" lines, vkqs_refdevice_knobs) as the
 * JSON object of the results' and the bench's "refdevice" member: tiler
 * and immediate runs are told apart. */
json_t *vkqs_refdevice_knobs_json(const char *knobs);

bool vkqs_write_json(const struct vkqs_run *run, const char *path, char *err,
		     size_t errsize);
bool vkqs_write_junit(const struct vkqs_run *run, const char *path, char *err,
		      size_t errsize);
bool vkqs_write_csv(const struct vkqs_run *run, const char *path, char *err,
		    size_t errsize);
/* The status word results.csv and JUnit show for a result. */
const char *vkqs_result_csv_status(const struct vkqs_result *r);

#endif
