/* The vkqs command: list, devices, info, run, bench, report, merge,
 * compare.  Each is a file of framework/cli/ (cmd_*.c); this only
 * dispatches. */
#include <string.h>

#include "cli.h"
#include "device.h"
#include "proflock.h"
#include "vkqs.h"

int main(int argc, char **argv)
{
	vkqs_loader_add_refdevice();
	if (argc < 2)
		die("no command given (list, devices, info, run, bench, report, merge, compare; see vkqs --help)");
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} cmds[] = {
		{"list", cmd_list},   {"devices", cmd_devices}, {"info", cmd_info},
		{"run", cmd_run},     {"bench", cmd_bench},     {"report", cmd_report},
		{"merge", cmd_merge},   {"compare", cmd_compare},
		/* internal: the second process of the profiling-lock cases (proflock.h) */
		{"hold-profiling-lock", vkqs_hold_profiling_lock_main},
	};
	const char *cmd = argv[1];
	if (is_help(cmd) || !strcmp(cmd, "help"))
		return print_usage(argc > 2 ? argv[2] : NULL);
	for (size_t i = 0; i < VKQS_ARRAY_LEN(cmds); i++)
		if (!strcmp(cmd, cmds[i].name))
			return cmds[i].fn(argc - 2, argv + 2);
	die("unknown command '%s' (list, devices, info, run, bench, report, merge, compare; see vkqs --help)", cmd);
}
