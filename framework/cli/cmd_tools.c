/* vkqs report, merge and compare: the tools of the source tree this
 * binary was built from, and compare.c. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "cli.h"
#include "console.h"
#include "device.h"
#include "expect.h"
#include "proflock.h"
#include "record.h"
#include "registry.h"
#include "report.h"
#include "runner.h"
#include "util.h"
#include "compare.h"

/* Runs tools/<script> of the source tree this binary was built from. */
static int run_tool(const char *command, const char *script, int argc, char **argv)
{
	for (int i = 0; i < argc; i++)
		if (is_help(argv[i]))
			return print_usage(command);
	if (access(script, R_OK) != 0)
		die("%s: %s is not there (the source tree this vkqs was built from)", command,
		    script);
	char **args = calloc((size_t)argc + 3, sizeof(*args));
	if (!args)
		die("out of memory");
	args[0] = "python3";
	args[1] = (char *)script;
	for (int i = 0; i < argc; i++)
		args[i + 2] = argv[i];
	execvp("python3", args);
	die("%s: cannot run python3: %s", command, strerror(errno));
}

int cmd_report(int argc, char **argv)
{
	return run_tool("report", VKQS_SOURCE_DIR "/tools/report.py", argc, argv);
}

int cmd_merge(int argc, char **argv)
{
	return run_tool("merge", VKQS_SOURCE_DIR "/tools/merge.py", argc, argv);
}

int cmd_compare(int argc, char **argv)
{
	struct opts o = {0};
	parse_opts(argc, argv, O_COMPARE, "compare", &o);
	/* a --filter that selects nothing is bad input: one line, before any
	 * directory is made */
	struct vkqs_registry reg;
	build_registry(&reg);
	free(select_filters(&reg, &o));
	vkqs_registry_free(&reg);
	int rc = vkqs_compare_main(&o);
	free(o.filters);
	return rc;
}
