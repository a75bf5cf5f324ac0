/* vkqs list, devices and info. */
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

int cmd_list(int argc, char **argv)
{
	struct opts o = {0};
	struct vkqs_registry reg;
	parse_opts(argc, argv, O_FILTER | O_LIST, "list", &o);
	build_registry(&reg);
	bool *sel = select_filters(&reg, &o);
	for (size_t i = 0; i < reg.count; i++)
		if (sel[i] && o.spec)
			printf("%s\t%s\n", reg.cases[i].name, reg.cases[i].c->spec);
		else if (sel[i])
			printf("%s\n", reg.cases[i].name);
	free(sel);
	free(o.filters);
	vkqs_registry_free(&reg);
	return 0;
}

/* devices and info load the driver in a child under --timeout (runner.h):
 * a driver that hangs while loading or enumerating costs the timeout and
 * one line, never the CI job. */
static int devices_child(void *arg)
{
	(void)arg;
	struct vkqs_instance inst;
	char err[512];
	if (!vkqs_instance_create(&inst, false, err, sizeof(err)))
		die("%s", err);
	if (inst.phys_count == 0)
		die("the Vulkan loader found no physical device");
	for (uint32_t i = 0; i < inst.phys_count; i++) {
		struct vkqs_device_info d;
		char api[32];
		vkqs_device_describe(&inst, i, &d);
		vkqs_version_string(d.api_version, api, sizeof(api));
		printf("%u: %s | driver %s (%s) | Vulkan %s | %s\n", i, d.name, d.driver_name,
		       d.driver_info, api, vkqs_device_type_name(d.type));
	}
	vkqs_instance_destroy(&inst);
	return 0;
}

static int info_child(void *arg)
{
	const struct opts *o = arg;
	struct vkqs_instance inst;
	uint32_t index;
	char err[512];
	if (!vkqs_instance_create(&inst, false, err, sizeof(err)) ||
	    !vkqs_instance_select(&inst, o->device, &index, err, sizeof(err)))
		die("%s", err);
	struct vkqs_device_info d;
	vkqs_device_describe(&inst, index, &d);
	vkqs_print_device_info(stdout, &d);
	vkqs_instance_destroy(&inst);
	return 0;
}

static int in_child(int (*fn)(void *), struct opts *o)
{
	char err[512];
	free(o->filters);
	vkqs_runner_install_signals();
	int rc = vkqs_call_in_child(fn, o, o->timeout_s, "loading or enumerating devices", err,
				    sizeof(err));
	if (rc < 0) {
		fflush(stdout);
		if (vkqs_runner_stopped())
			return 130;
		die("%s", err);
	}
	return rc;
}

int cmd_devices(int argc, char **argv)
{
	struct opts o = {0};
	parse_opts(argc, argv, O_TIMEOUT, "devices", &o);
	return in_child(devices_child, &o);
}

int cmd_info(int argc, char **argv)
{
	struct opts o = {0};
	parse_opts(argc, argv, O_DEVICE | O_TIMEOUT, "info", &o);
	return in_child(info_child, &o);
}
