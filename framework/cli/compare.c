/* vkqs compare: the suite on every device the loader sees, then one
 * comparison page (tools/report.py) of them all.
 *
 *   vkqs compare --outdir DIR [--filter GLOB]... [--timeout S] [--jobs N]
 *                [--validation] [--expectations-dir DIR]
 *
 * Each device runs in its own `vkqs run` process (this binary), with the
 * expectations of ci/ whose scope lines match it (expect.h
 * vkqs_expectations_find; none found: the run has none, and says so), its
 * JSON and console in DIR; then DIR/index.html and DIR/summary.md.  DIR
 * must be new or empty: nothing that exists is overwritten.  Exit 0 when
 * every run has no unexpected result, 1 when one has, 2 on bad input or a
 * device that cannot be probed, 130 when interrupted (the runs' files
 * hold what ran). */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "compare.h"
#include "device.h"
#include "expect.h"
#include "runner.h"

static volatile sig_atomic_t stop_sig;
static volatile pid_t child;

static void on_signal(int sig)
{
	stop_sig = sig;
	if (child > 0)
		kill(child, sig);
}

/* Runs argv (stdout and stderr to log when not NULL); its exit code, 128 +
 * the signal when one ended it, -1 when it could not start. */
static int spawn(char *const *argv, const char *log)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (log) {
			FILE *f = fopen(log, "w");
			if (!f || dup2(fileno(f), STDOUT_FILENO) < 0 || dup2(fileno(f), STDERR_FILENO) < 0)
				_exit(127);
		}
		execv(argv[0], argv);
		if (errno == ENOENT || errno == EACCES)
			execvp(argv[0], argv);
		_exit(127);
	}
	child = pid;
	if (stop_sig)
		kill(pid, stop_sig);
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	child = 0;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The last line of a log that begins with one of the words. */
static void closing_line(const char *log, char *out, size_t n)
{
	out[0] = '\0';
	FILE *f = fopen(log, "r");
	char line[1024];
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "PASS: ", 6) || !strncmp(line, "FAIL: ", 6) ||
		    !strncmp(line, "INCOMPLETE: ", 12) || !strncmp(line, "vkqs: error: ", 13)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(out, n, "%s", line);
		}
	if (f)
		fclose(f);
}

/* A file name part from a device name: lower case, [a-z0-9] and '-'. */
static void slug(const char *name, char *out, size_t n)
{
	size_t k = 0;
	for (const char *p = name; *p && k + 1 < n && k < 40; p++) {
		char c = *p >= 'A' && *p <= 'Z' ? (char)(*p - 'A' + 'a') : *p;
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
			out[k++] = c;
		else if (k && out[k - 1] != '-')
			out[k++] = '-';
	}
	while (k && out[k - 1] == '-')
		k--;
	out[k] = '\0';
}

int vkqs_compare_main(const struct opts *o)
{
	const char *outdir = o->outdir;
	const char *expdir = o->expectations_dir ? o->expectations_dir : VKQS_SOURCE_DIR "/ci";
	const double t = o->timeout_s;
	char tbuf[32], jbuf[16];
	snprintf(tbuf, sizeof(tbuf), "%g", o->timeout_s);
	snprintf(jbuf, sizeof(jbuf), "%u", o->jobs);
	const char *timeout = tbuf, *jobs = o->jobs_given ? jbuf : NULL;
	const bool validation = o->validation;
	const char *const *filters = o->filters;
	const size_t nf = o->nfilters;
	if (!outdir || !*outdir)
		die("compare: --outdir DIR is needed: a new or empty directory for the runs and the page");
	struct stat st;
	if (stat(expdir, &st) != 0 || !S_ISDIR(st.st_mode))
		die("compare: --expectations-dir %s is not a directory", expdir);
	/* a new or empty directory: nothing that exists is overwritten */
	DIR *d = opendir(outdir);
	if (d) {
		struct dirent *e;
		while ((e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				die("compare: --outdir %s is not empty: give a new or empty directory", outdir);
		closedir(d);
	} else if (errno != ENOENT || mkdir(outdir, 0777) != 0) {
		die("compare: --outdir %s: %s", outdir, strerror(errno));
	}
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		die("compare: cannot find this binary (/proc/self/exe)");
	exe[n] = '\0';

	struct sigaction sa = {.sa_handler = on_signal};
	sigemptyset(&sa.sa_mask);
	int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);

	/* the devices, each probed in a child under --timeout */
	struct vkqs_device_info dev;
	char err[1024];
	bool driver_failed = false;
	if (!vkqs_probe_device("0", false, t, &dev, &driver_failed, err, sizeof(err)))
		die("compare: %s", err);
	uint32_t count = dev.device_count;
	printf("vkqs compare: %u device(s); runs and the page in %s\n", count, outdir);
	char **jsons = calloc(count + 1, sizeof(*jsons));
	if (!jsons)
		die("compare: out of memory");
	int worst = 0;
	size_t nj = 0;
	for (uint32_t i = 0; i < count && !stop_sig; i++) {
		char idx[16];
		snprintf(idx, sizeof(idx), "%u", i);
		if (i && !vkqs_probe_device(idx, false, t, &dev, &driver_failed, err, sizeof(err))) {
			printf("device %u: cannot be probed: %s\n", i, err);
			worst = worst > 2 ? worst : 2;
			continue;
		}
		struct vkqs_expect_target target = {.driver_info = dev.driver_info,
						     .device_name = dev.name,
						     .driver_id = dev.driver_id};
		char exp[2048], name[64], json[4300], log[4300];
		vkqs_expectations_find(expdir, &target, exp, sizeof(exp));
		slug(dev.name, name, sizeof(name));
		snprintf(json, sizeof(json), "%s/%u-%s.json", outdir, i, name);
		snprintf(log, sizeof(log), "%s/%u-%s.txt", outdir, i, name);
		const char *args[16 + 2 * 64];
		size_t k = 0;
		args[k++] = exe;
		args[k++] = "run";
		args[k++] = "--device";
		args[k++] = idx;
		args[k++] = "--json";
		args[k++] = json;
		if (exp[0]) {
			args[k++] = "--expectations";
			args[k++] = exp;
		}
		if (timeout) {
			args[k++] = "--timeout";
			args[k++] = timeout;
		}
		if (jobs) {
			args[k++] = "--jobs";
			args[k++] = jobs;
		}
		if (validation)
			args[k++] = "--validation";
		for (size_t f = 0; f < nf && f < 64; f++) {
			args[k++] = "--filter";
			args[k++] = filters[f];
		}
		args[k] = NULL;
		printf("device %u: %s (%s): expectations %s ...\n", i, dev.name, dev.driver_name,
		       exp[0] ? exp : "none found (every non-Pass is unexpected)");
		int rc = spawn((char *const *)args, log);
		char last[1024];
		closing_line(log, last, sizeof(last));
		printf("device %u: %s (exit %d; console in %s)\n", i, last[0] ? last : "no result", rc,
		       log);
		if (access(json, R_OK) == 0)
			jsons[nj++] = strdup(json);
		int cls = rc == 0 ? 0 : rc == 1 ? 1 : rc >= 128 ? 130 : 2;
		worst = cls > worst ? cls : worst;
	}
	if (nj) {
		char html[4300], md[4300];
		snprintf(html, sizeof(html), "%s/index.html", outdir);
		snprintf(md, sizeof(md), "%s/summary.md", outdir);
		const char **r = calloc(nj + 8, sizeof(*r));
		if (!r)
			die("compare: out of memory");
		size_t k = 0;
		r[k++] = "python3";
		r[k++] = VKQS_SOURCE_DIR "/tools/report.py";
		for (size_t i = 0; i < nj; i++)
			r[k++] = jsons[i];
		r[k++] = "--html";
		r[k++] = html;
		r[k++] = "--md";
		r[k++] = md;
		r[k] = NULL;
		int rc = spawn((char *const *)r, NULL);
		if (rc != 0) {
			printf("vkqs compare: the report tool exited %d\n", rc);
			worst = worst > 2 ? worst : 2;
		} else {
			printf("vkqs compare: %zu run(s) on one page: %s (summary: %s)\n", nj, html, md);
		}
		free(r);
	}
	for (size_t i = 0; i < nj; i++)
		free(jsons[i]);
	free(jsons);
	if (stop_sig)
		return 130;
	printf("%s\n", worst == 0   ? "PASS: no run has an unexpected result"
		       : worst == 1 ? "FAIL: a run has unexpected results (see above)"
				    : "FAIL: a run could not be made or judged (see above)");
	return worst;
}
