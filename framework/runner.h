/* Runs cases in child processes (STYLE 5).
 *
 * Each child takes a batch of cases, sets its own process group, creates the
 * Vulkan device once, and for each case writes a START record then a RESULT
 * record (fixed size, atomic pipe writes) to the parent.  The parent polls
 * every child with a per-case deadline: a child that outlives it is killed
 * with its process group (Timeout); a child that dies mid-case is a Crash
 * with the signal.  After a crash, timeout or a case that left the device
 * unusable, the rest of that batch runs one case per child.
 *
 * A case that ends in VK_ERROR_DEVICE_LOST or a fence that never signals,
 * that crashes, or that the runner kills on timeout, may have taken the GPU
 * down for every process (as NVIDIA GPUs do after an MMU fault or a
 * graphics exception: tools/repro/README.md); so may a child that cannot
 * create the device.  The runner then checks the device in a fresh process
 * with a draw inside an occlusion query; if that fails too, the device is
 * gone: no case is started any more, the children still running are
 * killed, and every case not run keeps done == false with the message
 * "not run: the device was lost at <case>". */
#ifndef VKQS_RUNNER_H
#define VKQS_RUNNER_H

#include <stdbool.h>
#include <stddef.h>

#include "device.h"
#include "record.h"

struct vkqs_runner_opts {
	const char *device;   /* --device spec */
	bool validation;
	double timeout_s;     /* per case */
	unsigned jobs;        /* children at a time */
	unsigned batch;       /* cases per child; 0 = choose */
	bool no_fork;         /* run in this process (debugging) */
	bool verbose;         /* say each device health check on stdout */
	/* 0: keep the log (its last 16 KiB) of non-Pass results only; else
	 * the first this many bytes of every result's log (benchmarks report
	 * their samples there). */
	size_t keep_log_bytes;
	/* When set: the first nbatch_lens batches have these lengths (cases in
	 * list order), the rest `batch` each. */
	const size_t *batch_lens;
	size_t nbatch_lens;
};

/* Case process ids start at id or above (a resumed result's are below). */
void vkqs_runner_first_process(long id);

typedef void (*vkqs_progress_fn)(void *user, const struct vkqs_result *r);

/* Runs results[i].ci for every i, filling status, duration, message, log
 * and done; fills *lost when the device was lost for good (lost->at[0]
 * stays 0 otherwise).  Returns false when stopped (a signal, a closed
 * stdout, no case process could be started: vkqs_runner_stop_reason);
 * results not run keep done == false. */
bool vkqs_runner_run(const struct vkqs_runner_opts *o, struct vkqs_result *results,
		     size_t n, vkqs_progress_fn progress, void *user,
		     struct vkqs_device_lost *lost);


/* Describes the device in a child process (the parent never loads a
 * driver, so a driver that crashes or hangs while loading or enumerating
 * cannot take the run down), waiting at most timeout_s.  One line in err
 * on failure; *driver_failed tells a driver that hung or crashed (or a
 * stop) from an answer such as "no device matches". */
bool vkqs_probe_device(const char *device, bool validation, double timeout_s,
		       struct vkqs_device_info *out, bool *driver_failed, char *err,
		       size_t errsize);

/* Runs fn(arg) in a child process (it may print to stdout) and returns
 * its return value; -1 with one line in err when the child hung past
 * timeout_s (killed), crashed, or the run was stopped.  A child that
 * exits non-zero on its own (die) returns that code with err empty.
 * `what` says what the driver was doing, for the message. */
int vkqs_call_in_child(int (*fn)(void *), void *arg, double timeout_s, const char *what,
		       char *err, size_t errsize);

/* The one place signals arrive (runner.c): SIGINT, SIGTERM, SIGHUP and
 * SIGPIPE stop the run (an inherited SIG_IGN is kept); every wait of the
 * runner wakes on a stop, kills its children and reaps them. */
void vkqs_runner_install_signals(void);
/* Stops the run as a signal would (sig: the signal, SIGPIPE for an EPIPE
 * on stdout, or VKQS_STOP_SPAWN). */
#define VKQS_STOP_SPAWN 1000
void vkqs_runner_stop(int sig);
/* The stop's signal, 0 while not stopped; and why, in words (NULL while
 * not stopped). */
int vkqs_runner_stopped(void);
const char *vkqs_runner_stop_reason(void);

#endif
