/* The vkqs command's shared parts (framework/cli/): each command is a file
 * of its own (cmd_*.c), framework/main.c only dispatches. */
#ifndef VKQS_CLI_H
#define VKQS_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "registry.h"
#include "runner.h"

#define EXIT_UNEXPECTED 1
#define EXIT_USAGE 2

/* Under AddressSanitizer the refdevice and the suite run several times
 * slower (a loaded 2-core CI machine took over 30 s for one fence of
 * vkqs.perf.values.time_grows_with_work): the default --timeout, and with
 * it the fence timeout (half of it), scale by this. */
#if defined(__SANITIZE_ADDRESS__)
#define VKQS_SANITIZER_SLOWDOWN 4
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VKQS_SANITIZER_SLOWDOWN 4
#endif
#endif
#ifndef VKQS_SANITIZER_SLOWDOWN
#define VKQS_SANITIZER_SLOWDOWN 1
#endif

struct opts {
	const char *device;
	const char **filters;
	size_t nfilters;
	const char *caselist;
	const char *expectations;
	double timeout_s;
	unsigned jobs;
	bool jobs_given;
	unsigned batch;
	unsigned shard_i, shard_n;
	const char *json, *junit, *csv;
	const char *resume; /* run: complete this interrupted result */
	bool validation, no_fork, no_rerun;
	bool induce_device_loss; /* vkqs.lost runs on a GPU too (VKQS_INDUCE_DEVICE_LOSS) */
	bool verbose; /* run: a line for every case, every group in full */
	const char *outdir, *expectations_dir; /* compare */
	bool spec; /* list: also print each case's spec reference */
	unsigned repeat;    /* bench */
	double min_time_s;  /* bench */
	bool quick;         /* bench */
	unsigned processes; /* bench: fresh processes per benchmark */
	unsigned max_processes; /* bench: up to this many where a metric is still wide (0: processes) */
	double max_time_s;  /* bench: no round starts after this (0: none) */
	const char *baseline; /* bench: an earlier bench JSON to compare with */
};

enum { O_DEVICE = 1, O_FILTER = 2, O_RUN = 4, O_LIST = 8, O_BENCH = 16, O_TIMEOUT = 32,
       O_COMPARE = 64 };

/* One line "vkqs: error: ..." on stderr and exit 2. */
_Noreturn __attribute__((format(printf, 1, 2))) void die(const char *fmt, ...);
/* A warning about the inputs, found while they are still being checked:
 * it waits for their verdict.  A refused input gets its one error line
 * alone (die drops what waits); inputs_accepted() prints what waits, once
 * every input check has passed and before the first piece of work. */
__attribute__((format(printf, 1, 2))) void warn_input(const char *fmt, ...);
void inputs_accepted(void);
bool is_help(const char *a);
/* The usage of cmd (NULL: every command's) on stdout; returns 0. */
int print_usage(const char *cmd);
/* The usage text of one command. */
const char *cli_usage(const char *cmd);
/* An output file's path, checked before any work (vkqs_output_check). */
const char *output_path(const char *opt, const char *path);
void parse_opts(int argc, char **argv, unsigned allowed, const char *cmd, struct opts *o);
/* --jobs within the open-file limit. */
void bound_jobs(struct opts *o);
/* The current UTC time as ISO 8601. */
void utc_now(char *buf, size_t size);
void build_registry(struct vkqs_registry *reg);
bool *select_filters(const struct vkqs_registry *reg, const struct opts *o);
void apply_caselist(const struct vkqs_registry *reg, const char *path, bool *sel);
/* The runner's options for the probed device (the refdevice by its own
 * manifest when the loader sees only it) from the command's. */
struct vkqs_device_info;
struct vkqs_runner_opts runner_opts(const struct opts *o, const struct vkqs_device_info *dev);

int cmd_list(int argc, char **argv);
int cmd_devices(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_compare(int argc, char **argv);

#endif
