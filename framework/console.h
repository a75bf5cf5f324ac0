/* The console of `vkqs run` (console.c): what is unexpected first. */
#ifndef VKQS_CONSOLE_H
#define VKQS_CONSOLE_H

#include <stdbool.h>
#include <stdio.h>

#include "expect.h"
#include "record.h"

/* One line for a result: status, name, outcome, duration and its first
 * failure with its file:line (a note when it has none), never cut behind
 * notes; how many more failures and notes the JSON has. */
void vkqs_console_case(FILE *f, const struct vkqs_result *r);
/* The closing block, then vkqs_print_summary (report.h).  verbose: every
 * group and every expected failure, not the first few. */
void vkqs_console_closing(FILE *f, const struct vkqs_run *run, const struct vkqs_expectations *e,
			  bool verbose);

#endif
