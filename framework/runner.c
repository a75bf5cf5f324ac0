#include "runner.h"

#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"
#include "vkutil.h"

/* Pipe protocol: fixed-size records no larger than PIPE_BUF, so each write
 * is atomic and a record is never torn. */
enum rec_kind { REC_START = 1, REC_RESULT = 2 };
struct rec {
	uint32_t kind;
	uint32_t slot;       /* index into the batch */
	int32_t status;
	uint32_t poisoned;   /* the device may be unusable after this case */
	double duration_s;
	int64_t log_offset;  /* child's stderr file offset at START / RESULT */
	char message[VKQS_MSG_MAX];
	struct vkqs_msg_items items;
};
_Static_assert(sizeof(struct rec) <= PIPE_BUF, "records must be atomic pipe writes");

/* Signals arrive in one place: the handler records the first stop signal
 * and writes a byte to a self-pipe that every wait of the parent polls
 * beside its children, so no wait can miss a stop.  A stop (SIGINT,
 * SIGTERM, SIGHUP, SIGPIPE, or EPIPE on stdout through vkqs_runner_stop)
 * kills every child, reaps it, and the run ends with what ran.  A signal
 * this process inherited as ignored (nohup, a background job) stays
 * ignored. */
static volatile sig_atomic_t interrupted; /* the stop's signal, 0 while running */
static int stop_pipe[2] = {-1, -1};

static void on_signal(int sig)
{
	int saved = errno;
	if (!interrupted)
		interrupted = sig;
	if (stop_pipe[1] >= 0)
		(void)!write(stop_pipe[1], "s", 1);
	errno = saved;
}

void vkqs_runner_install_signals(void)
{
	if (stop_pipe[0] < 0 && pipe(stop_pipe) == 0)
		for (int i = 0; i < 2; i++) {
			fcntl(stop_pipe[i], F_SETFD, FD_CLOEXEC);
			fcntl(stop_pipe[i], F_SETFL, O_NONBLOCK);
		}
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old;
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue; /* nohup: SIGHUP stays ignored; an ignored SIGPIPE
				     is an EPIPE, which vkqs_runner_stop takes */
		struct sigaction sa = {.sa_handler = on_signal};
		sigemptyset(&sa.sa_mask);
		sigaction(sigs[i], &sa, NULL);
	}
}

void vkqs_runner_stop(int sig)
{
	on_signal(sig);
}

int vkqs_runner_stopped(void)
{
	return interrupted;
}

/* The two fds every wait of the runner polls beside its own: the stop
 * pipe (readable when a stop arrived), and stdout when it is a pipe or
 * socket, whose reader closing it (`vkqs run | head -1`) is a stop at
 * once, not only at the next line written. */
#define STOP_FDS 2
static void stop_pollfds(struct pollfd *p)
{
	static int stdout_pipe = -1;
	if (stdout_pipe < 0) {
		struct stat st;
		stdout_pipe = fstat(STDOUT_FILENO, &st) == 0 &&
			      (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
	}
	p[0] = (struct pollfd){.fd = stop_pipe[0], .events = POLLIN};
	p[1] = (struct pollfd){.fd = stdout_pipe == 1 ? STDOUT_FILENO : -1, .events = 0};
}

/* After a poll over stop_pollfds: a closed stdout pipe stops the run. */
static void stop_pollfds_check(const struct pollfd *p)
{
	if (p[1].fd >= 0 && (p[1].revents & (POLLERR | POLLHUP)))
		vkqs_runner_stop(SIGPIPE);
}

/* In a fresh child: the parent's signal set-up is not the child's. */
static void child_signals(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
	for (int i = 0; i < 2; i++)
		if (stop_pipe[i] >= 0)
			close(stop_pipe[i]);
}

static bool write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		p += w;
		len -= (size_t)w;
	}
	return true;
}

/* Reads up to len bytes from fd until EOF, an error, a stop
 * (vkqs_runner_stop), or the monotonic time `deadline`; returns how many
 * arrived.  Never waits without a deadline. */
static size_t read_full(int fd, void *buf, size_t len, double deadline, bool *expired)
{
	size_t got = 0;
	*expired = false;
	while (got < len && !interrupted) {
		double left = deadline - vkqs_monotonic_s();
		int ms = left > 0 ? (int)(left * 1000) + 1 : 0;
		if (ms <= 0) {
			*expired = true;
			break;
		}
		struct pollfd pfd[1 + STOP_FDS] = {{.fd = fd, .events = POLLIN}};
		stop_pollfds(pfd + 1);
		int pr = poll(pfd, 1 + STOP_FDS, ms);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr == 0)
			continue; /* the deadline: said above */
		if (pr < 0)
			break;
		stop_pollfds_check(pfd + 1);
		if (interrupted)
			break;
		if (!(pfd[0].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		ssize_t r = read(fd, (char *)buf + got, len - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	return got;
}

/* Kills a child's process group and reaps the child: the parent never
 * blocks on a child it has not killed. */
static int kill_and_reap(pid_t pid)
{
	int wstatus = 0;
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
		;
	return wstatus;
}

/* How long a case waits for a fence, and the health check for the device,
 * given the per-case --timeout: half of it each, so a case that hangs on
 * the GPU reports before the runner kills it, and a wedged device ends the
 * run within about twice the timeout. */
static double fence_timeout_s(double case_timeout_s)
{
	return case_timeout_s / 2;
}

/* Child side --------------------------------------------------------------*/

struct child_state {
	const struct vkqs_runner_opts *o;
	struct vkqs_vk vk;
	bool vk_ready, vk_failed;
	char vk_err[512];
};

/* Creates the process's device (vk_ready), or records why not (vk_failed). */
static void child_vk(struct child_state *cs)
{
	if (vkqs_vk_create(&cs->vk, cs->o->device, cs->o->validation, cs->vk_err,
			   sizeof(cs->vk_err))) {
		cs->vk_ready = true;
		cs->vk.fence_timeout_ns = (uint64_t)(fence_timeout_s(cs->o->timeout_s) * 1e9);
	} else {
		cs->vk_failed = true;
	}
}

/* Runs one case in this process; fills status/message/duration.
 * Returns whether the device may be unusable afterwards. */
static bool run_one(struct child_state *cs, const struct vkqs_case_inst *ci,
		    enum vkqs_status *status, char *message, size_t msize,
		    struct vkqs_msg_items *items, double *duration)
{
	items->n = 0;
	static struct vkqs_ctx ctx;
	memset(&ctx, 0, sizeof(ctx));
	ctx.name = ci->name;
	bool need_vk = !(ci->c->flags & VKQS_CASE_NO_DEVICE);
	if (need_vk && !cs->vk_ready && !cs->vk_failed)
		child_vk(cs);
	if (need_vk && cs->vk_failed) {
		*status = VKQS_INTERNAL_ERROR;
		snprintf(message, msize, "device set-up failed: %s", cs->vk_err);
		*duration = 0;
		/* A device that worked for the probe and now cannot be created
		 * may have been lost for good: let the runner check. */
		return true;
	}
	double t0 = vkqs_monotonic_s();
	vkqs_case_execute(&ctx, ci->c, ci->param, need_vk ? &cs->vk : NULL);
	*duration = vkqs_monotonic_s() - t0;
	*status = ctx.status;
	snprintf(message, msize, "%s", ctx.message);
	if (strlen(ctx.message) < msize)
		*items = ctx.items;
	return ctx.poisoned;
}

static int64_t log_offset(void)
{
	fflush(stdout);
	fflush(stderr);
	off_t off = lseek(STDERR_FILENO, 0, SEEK_CUR);
	return off < 0 ? 0 : (int64_t)off;
}

/* A crash in a case's process, most often inside the driver: before the
 * process dies of the signal (the runner reports it as Crash), its log -
 * which the result keeps - gets the signal, the faulting address and a
 * backtrace of shared objects and offsets, so a driver engineer sees
 * which library faulted and where.  Only async-signal-safe calls, and
 * backtrace(), which crash_report_arm() has already called once so that
 * it does not load libgcc inside the handler.  Not under AddressSanitizer,
 * whose own report says more. */
#ifndef __SANITIZE_ADDRESS__
static void put_str(const char *s)
{
	size_t n = strlen(s);
	while (n) {
		ssize_t w = write(STDERR_FILENO, s, n);
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

static void put_hex(uintptr_t v)
{
	char buf[2 + 2 * sizeof(v) + 1], *p = buf + sizeof(buf) - 1;
	*p = 0;
	do {
		*--p = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	*--p = 'x';
	*--p = '0';
	put_str(p);
}

static void on_crash(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	static const char *const names[] = {[SIGSEGV] = "SIGSEGV", [SIGBUS] = "SIGBUS",
					    [SIGILL] = "SIGILL", [SIGFPE] = "SIGFPE",
					    [SIGABRT] = "SIGABRT"};
	put_str("\nvkqs: the case's process got ");
	put_str(sig > 0 && (size_t)sig < sizeof(names) / sizeof(names[0]) && names[sig] ? names[sig]
											 : "a signal");
	if (sig != SIGABRT) {
		put_str(" at address ");
		put_hex((uintptr_t)si->si_addr);
	}
	put_str("; backtrace:\n");
	void *frames[64];
	int n = backtrace(frames, 64);
	backtrace_symbols_fd(frames, n, STDERR_FILENO);
	raise(sig); /* SA_RESETHAND: the default action now, so the parent sees the signal */
}

static void crash_report_arm(void)
{
	static char stack[64 * 1024];
	stack_t ss = {.ss_sp = stack, .ss_size = sizeof(stack)};
	sigaltstack(&ss, NULL);
	void *f[1];
	(void)backtrace(f, 1);
	struct sigaction sa = {.sa_sigaction = on_crash,
			       .sa_flags = SA_SIGINFO | SA_RESETHAND | SA_ONSTACK};
	sigemptyset(&sa.sa_mask);
	static const int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}
#else
static void crash_report_arm(void)
{
}
#endif

static _Noreturn void child_main(const struct vkqs_runner_opts *o,
				 struct vkqs_result *results, const size_t *batch,
				 size_t count, int wfd, int logfd, pid_t parent)
{
	setpgid(0, 0);
	vkqs_die_with_parent(parent);
	child_signals();
	dup2(logfd, STDOUT_FILENO);
	dup2(logfd, STDERR_FILENO);
	close(logfd);
	crash_report_arm();
	struct child_state cs = {.o = o};
	static struct rec rec;
	for (size_t i = 0; i < count; i++) {
		memset(&rec, 0, sizeof(rec));
		rec.kind = REC_START;
		rec.slot = (uint32_t)i;
		rec.log_offset = log_offset();
		if (!write_all(wfd, &rec, sizeof(rec)))
			_exit(4);
		enum vkqs_status st;
		double dur;
		bool poisoned = run_one(&cs, results[batch[i]].ci, &st, rec.message,
					sizeof(rec.message), &rec.items, &dur);
		rec.kind = REC_RESULT;
		rec.status = st;
		rec.duration_s = dur;
		rec.poisoned = poisoned;
		rec.log_offset = log_offset();
		if (!write_all(wfd, &rec, sizeof(rec)))
			_exit(4);
		if (poisoned)
			_exit(0); /* the parent reruns the rest in fresh children */
	}
	if (cs.vk_ready)
		vkqs_vk_destroy(&cs.vk);
	_exit(0);
}

/* Parent side -------------------------------------------------------------*/

struct slot {
	pid_t pid;
	int rfd;
	int logfd;
	size_t *batch;     /* indices into results */
	size_t count;
	size_t next;       /* batch position of the next START expected */
	bool in_case;      /* a START without RESULT */
	double case_start;
	double deadline;
	int64_t case_log_offset;
	bool timed_out;
	bool poisoned;
	size_t suspect;    /* results index of the case that may have lost the device */
	char buf[sizeof(struct rec)];
	size_t buffered;
};

struct queue {
	size_t **batches; /* each a malloc'd array of indices into results */
	size_t *lens;
	size_t n, head;
};

static bool queue_push(struct queue *q, const size_t *idx, size_t n)
{
	size_t *items = malloc(n * sizeof(*items));
	size_t **b = realloc(q->batches, (q->n + 1) * sizeof(*b));
	if (b)
		q->batches = b;
	size_t *lens = realloc(q->lens, (q->n + 1) * sizeof(*lens));
	if (lens)
		q->lens = lens;
	if (!items || !b || !lens) {
		free(items);
		return false;
	}
	memcpy(items, idx, n * sizeof(*items));
	q->batches[q->n] = items;
	q->lens[q->n++] = n;
	return true;
}

static size_t *queue_pop(struct queue *q, size_t *n)
{
	if (q->head == q->n)
		return NULL;
	*n = q->lens[q->head];
	return q->batches[q->head++];
}

static void queue_free(struct queue *q)
{
	for (size_t i = q->head; i < q->n; i++)
		free(q->batches[i]);
	free(q->batches);
	free(q->lens);
	memset(q, 0, sizeof(*q));
}

/* The child's output between two offsets (to the end when to < 0). */
static char *read_log(int fd, int64_t from, int64_t to, size_t keep_head)
{
	struct stat st;
	if (fstat(fd, &st) != 0)
		return NULL;
	if (to < 0 || to > st.st_size)
		to = st.st_size;
	if (from >= to)
		return NULL;
	/* Keep the end: the last lines say most about a crash; or the head
	 * (keep_head bytes) of a benchmark's log. */
	const int64_t max = keep_head ? (int64_t)keep_head : 16384;
	if (to - from > max) {
		if (keep_head)
			to = from + max;
		else
			from = to - max;
	}
	char *buf = malloc((size_t)(to - from) + 1);
	if (!buf)
		return NULL;
	ssize_t r = pread(fd, buf, (size_t)(to - from), from);
	if (r <= 0) {
		free(buf);
		return NULL;
	}
	buf[r] = '\0';
	return buf;
}

/* Why the runner could not start a case process (vkqs_runner_stop_reason). */
static char spawn_error[256];
/* The id of the next case process: unique in this vkqs process, and above
 * the ids of a result being resumed (vkqs_runner_first_process). */
static long next_process = 1;

void vkqs_runner_first_process(long id)
{
	if (id > next_process)
		next_process = id;
}

static bool spawn(const struct vkqs_runner_opts *o, struct vkqs_result *results,
		  struct slot *s, size_t *batch, size_t count)
{
	int p[2];
	char why[200];
	int logfd = vkqs_tmpfile(why, sizeof(why));
	if (logfd < 0) {
		snprintf(spawn_error, sizeof(spawn_error), "cannot start a case process: %s", why);
		return false;
	}
	if (pipe(p) != 0) {
		snprintf(spawn_error, sizeof(spawn_error),
			 "cannot start a case process: pipe: %s", strerror(errno));
		close(logfd);
		return false;
	}
	fflush(stdout);
	fflush(stderr);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(spawn_error, sizeof(spawn_error),
			 "cannot start a case process: fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		close(logfd);
		return false;
	}
	if (pid == 0) {
		close(p[0]);
		child_main(o, results, batch, count, p[1], logfd, parent);
	}
	/* Also from the parent, so a kill right after fork finds the group. */
	setpgid(pid, pid);
	close(p[1]);
	/* every case of the batch belongs to this process, in this order,
	 * from now on: a journal cut short says which cases shared it */
	long id = next_process++;
	for (size_t k = 0; k < count; k++) {
		results[batch[k]].process = id;
		results[batch[k]].position = (unsigned)k;
	}
	memset(s, 0, sizeof(*s));
	s->pid = pid;
	s->rfd = p[0];
	s->logfd = logfd;
	s->batch = batch;
	s->count = count;
	s->suspect = SIZE_MAX;
	/* Device set-up happens inside the first case's deadline; until the
	 * first START arrives this bounds a child stuck before it. */
	s->deadline = vkqs_monotonic_s() + o->timeout_s;
	return true;
}

const char *vkqs_runner_stop_reason(void)
{
	static char buf[64];
	int sig = interrupted;
	if (!sig)
		return NULL;
	if (sig == VKQS_STOP_SPAWN)
		return spawn_error;
	if (sig == SIGPIPE)
		return "interrupted: standard output was closed (SIGPIPE)";
	snprintf(buf, sizeof(buf), "interrupted by %s", sig == SIGINT ? "SIGINT" :
			 sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "a signal");
	return buf;
}

static void set_result(struct vkqs_result *r, enum vkqs_status st, double dur,
		       const char *msg)
{
	r->status = st;
	r->duration_s = dur;
	snprintf(r->message, sizeof(r->message), "%s", msg);
	r->items.n = 0; /* the runner's own message: one item */
	r->done = true;
}

static void handle_record(struct slot *s, struct vkqs_result *results,
			  const struct rec *rec, const struct vkqs_runner_opts *o,
			  vkqs_progress_fn progress, void *user)
{
	if (rec->slot >= s->count)
		return;
	struct vkqs_result *r = &results[s->batch[rec->slot]];
	if (rec->kind == REC_START) {
		/* the cases this one follows in its process: what an
		 * order-dependent failure is rerun after (cli/cmd_run.c) */
		free(r->preds);
		r->preds = NULL;
		r->npreds = rec->slot;
		if (rec->slot) {
			r->preds = malloc(rec->slot * sizeof(*r->preds));
			for (size_t i = 0; r->preds && i < rec->slot; i++)
				r->preds[i] = results[s->batch[i]].ci;
			if (!r->preds)
				r->npreds = 0;
		}
		s->in_case = true;
		s->next = rec->slot;
		s->case_start = vkqs_monotonic_s();
		s->deadline = s->case_start + o->timeout_s;
		s->case_log_offset = rec->log_offset;
		return;
	}
	s->in_case = false;
	s->next = rec->slot + 1;
	s->poisoned = rec->poisoned != 0;
	if (s->poisoned)
		s->suspect = s->batch[rec->slot];
	set_result(r, (enum vkqs_status)rec->status, rec->duration_s, rec->message);
	if (rec->items.n <= VKQS_MAX_ITEMS)
		r->items = rec->items;
	if (r->status != VKQS_PASS || o->keep_log_bytes)
		r->log = read_log(s->logfd, s->case_log_offset, rec->log_offset, o->keep_log_bytes);
	s->deadline = vkqs_monotonic_s() + o->timeout_s;
	if (progress)
		progress(user, r);
}

static void describe_exit(int wstatus, char *buf, size_t size)
{
	if (WIFSIGNALED(wstatus))
		snprintf(buf, size, "child killed by signal %d (%s)", WTERMSIG(wstatus),
			 strsignal(WTERMSIG(wstatus)));
	else
		snprintf(buf, size, "child exited with code %d before reporting a result",
			 WEXITSTATUS(wstatus));
}

/* Reaps a finished or killed child.  If it stopped before reporting every
 * case of its batch, the case it was in (or about to start) becomes Timeout
 * or Crash, and the cases it did not start go back to the queue one per
 * child.  A case that reported but left the device unusable is not charged. */
static size_t finish(struct slot *s, struct vkqs_result *results, struct queue *q,
		     const struct vkqs_runner_opts *o, vkqs_progress_fn progress,
		     void *user)
{
	/* after EOF the child is exiting: the kill changes nothing there, and
	 * a child still writing (a stop) cannot block the reap */
	int wstatus = kill_and_reap(s->pid);
	if (!interrupted && s->next < s->count) {
		if (s->in_case || s->timed_out || !s->poisoned) {
			struct vkqs_result *r = &results[s->batch[s->next]];
			double dur = s->in_case ? vkqs_monotonic_s() - s->case_start : 0;
			char msg[256];
			if (s->timed_out)
				snprintf(msg, sizeof(msg),
					 "no result after %.0f s: killed the child's process group",
					 o->timeout_s);
			else
				describe_exit(wstatus, msg, sizeof(msg));
			set_result(r, s->timed_out ? VKQS_TIMEOUT : VKQS_CRASH, dur, msg);
			/* A hang, or a crash inside the driver (NVIDIA segfaults
			 * beside its Xid 13), may have taken the GPU with it. */
			s->suspect = s->batch[s->next];
			r->log = read_log(s->logfd, s->case_log_offset, -1, o->keep_log_bytes);
			if (progress)
				progress(user, r);
			s->next++;
		}
		for (size_t i = s->next; i < s->count; i++)
			queue_push(q, &s->batch[i], 1);
	}
	close(s->rfd);
	close(s->logfd);
	free(s->batch);
	s->pid = 0;
	return s->suspect;
}

/* Kills a slot's child and drops its batch; the cases it did not report
 * keep done == false, with msg (when given) saying why. */
static void drop_slot(struct slot *s, struct vkqs_result *results, const char *msg)
{
	if (!s->pid)
		return;
	kill_and_reap(s->pid);
	for (size_t i = s->next; msg && i < s->count; i++)
		snprintf(results[s->batch[i]].message, VKQS_MSG_MAX, "%s", msg);
	close(s->rfd);
	close(s->logfd);
	free(s->batch);
	s->pid = 0;
}

/* The health check's work: a draw inside an occlusion query, waited for,
 * its result read.  An empty submission is not enough: after an NVIDIA
 * graphics exception (Xid 13) a fresh process could still create a device
 * and complete an empty command buffer, while every draw lost the device. */
static void health_probe(struct vkqs_ctx *ctx, const void *param)
{
	const struct VolkDeviceTable *d = VKQS_D(ctx);
	struct vkqs_target *t = vkqs_target_create(ctx, 16, 16, VK_SAMPLE_COUNT_1_BIT, false);
	struct vkqs_pipeline_desc desc = {0};
	struct vkqs_pipeline *p = vkqs_pipeline_rect(ctx, t, &desc);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_OCCLUSION, 1, 0);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	d->vkCmdResetQueryPool(cb, pool, 0, 1);
	vkqs_target_begin(ctx, cb, t, 1.0f);
	d->vkCmdBeginQuery(cb, pool, 0, 0);
	vkqs_draw_rect(ctx, cb, p, t, 0, 0, 16, 16, 0.5f);
	d->vkCmdEndQuery(cb, pool, 0);
	vkqs_target_end(ctx, cb);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	uint64_t v = 0;
	VKQS_ASSERT_VK(ctx,
		       d->vkGetQueryPoolResults(VKQS_DEV(ctx), pool, 0, 1, sizeof(v), &v, sizeof(v),
						VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
		       VK_SUCCESS);
	VKQS_EXPECT_GT(ctx, v, 0);
}

static const struct vkqs_case probe = {"runner.health_probe", health_probe,
				       "the device still executes a draw"};
static const struct vkqs_case_inst probe_inst = {.name = "vkqs.runner.health_probe",
						 .c = &probe};

/* Runs health_probe in a fresh process, within fence_timeout_s of
 * --timeout.  The device counts lost when the process cannot create it,
 * loses it, waits for a fence in vain, crashes or does not answer in time;
 * a wrong occlusion count still means the GPU executes work. */
static bool device_healthy(const struct vkqs_runner_opts *o, char *why, size_t size)
{
	struct {
		int ok;
		char err[VKQS_MSG_MAX];
	} msg = {0};
	int p[2];
	if (pipe(p) != 0) {
		snprintf(why, size, "cannot create a pipe for the health check");
		return false;
	}
	struct vkqs_runner_opts po = *o;
	po.validation = false;
	po.timeout_s = fence_timeout_s(o->timeout_s);
	fflush(stdout);
	fflush(stderr);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		vkqs_die_with_parent(parent);
		child_signals();
		close(p[0]);
		/* The driver's chatter about a lost device is not the run's. */
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0) {
			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
		}
		struct child_state cs = {.o = &po};
		enum vkqs_status st;
		double dur;
		struct vkqs_msg_items items;
		bool poisoned = run_one(&cs, &probe_inst, &st, msg.err, sizeof(msg.err), &items,
					&dur);
		msg.ok = !poisoned && !cs.vk_failed;
		_exit(write_all(p[1], &msg, sizeof(msg)) ? 0 : 1);
	}
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		snprintf(why, size, "cannot fork the health check");
		return false;
	}
	setpgid(pid, pid);
	bool expired;
	size_t got = read_full(p[0], &msg, sizeof(msg), vkqs_monotonic_s() + po.timeout_s,
			       &expired);
	close(p[0]);
	bool answered = got == sizeof(msg);
	kill_and_reap(pid);
	if (!answered)
		snprintf(why, size, "a draw in a fresh process did not finish within %.0f s",
			 po.timeout_s);
	else if (!msg.ok)
		snprintf(why, size, "a draw in a fresh process: %.200s", msg.err);
	return answered && msg.ok;
}

/* The device is gone: kills the children still running, and marks every
 * case not run (theirs, the rest of their batches, the queue) as such. */
static void stop_after_loss(struct slot *slots, unsigned jobs, struct vkqs_result *results,
			    struct queue *q, const struct vkqs_device_lost *lost)
{
	char msg[VKQS_MSG_MAX];
	snprintf(msg, sizeof(msg), "not run: the device was lost at %s", lost->at);
	for (unsigned j = 0; j < jobs; j++)
		drop_slot(&slots[j], results, msg);
	size_t cnt;
	size_t *b;
	while ((b = queue_pop(q, &cnt))) {
		for (size_t i = 0; i < cnt; i++)
			snprintf(results[b[i]].message, VKQS_MSG_MAX, "%s", msg);
		free(b);
	}
}

/* --no-fork: every case in this process, one device.  A case that may
 * have left the device unusable (a lost device, a fence that did not
 * signal) is followed by a fresh one, as the forked runner follows it with
 * a fresh process; where a draw on a fresh device fails too, the device
 * counts lost there and the rest is not run. */
static bool run_no_fork(const struct vkqs_runner_opts *o, struct vkqs_result *results,
			size_t n, vkqs_progress_fn progress, void *user,
			struct vkqs_device_lost *lost)
{
	struct child_state cs = {.o = o};
	for (size_t i = 0; i < n && !interrupted; i++) {
		struct vkqs_result *r = &results[i];
		enum vkqs_status st;
		double dur;
		char msg[VKQS_MSG_MAX];
		struct vkqs_msg_items items;
		bool poisoned = run_one(&cs, r->ci, &st, msg, sizeof(msg), &items, &dur);
		set_result(r, st, dur, msg);
		r->items = items;
		r->process = 1;
		r->position = (unsigned)i;
		if (progress)
			progress(user, r);
		if (!poisoned || !cs.vk_ready)
			continue;
		/* The old device is left as it is, never destroyed: a case
		 * whose fence did not signal may leave work that never ends,
		 * and vkDestroyDevice would wait for it (the forked runner
		 * discards the whole process instead). */
		vkqs_vk_abandon(&cs.vk);
		cs.vk_ready = false;
		if (i + 1 == n)
			break;
		/* the check device_healthy makes, on the fresh device, here */
		enum vkqs_status pst;
		char pmsg[VKQS_MSG_MAX];
		struct vkqs_msg_items pitems;
		bool bad = run_one(&cs, &probe_inst, &pst, pmsg, sizeof(pmsg), &pitems, &dur);
		if (!bad && !cs.vk_failed)
			continue;
		snprintf(lost->at, sizeof(lost->at), "%s", r->ci->name);
		snprintf(lost->why, sizeof(lost->why), "a draw on a fresh device: %.200s", pmsg);
		for (size_t k = i + 1; k < n; k++)
			snprintf(results[k].message, VKQS_MSG_MAX,
				 "not run: the device was lost at %s", lost->at);
		break;
	}
	if (cs.vk_ready)
		vkqs_vk_destroy(&cs.vk);
	/* every instance of the run destroyed or abandoned (runner.selftest) */
	if (vkqs_instances_alive())
		fprintf(stderr, "vkqs: internal error: --no-fork left %u Vulkan instances alive\n",
			vkqs_instances_alive());
	return !interrupted;
}

bool vkqs_runner_run(const struct vkqs_runner_opts *o, struct vkqs_result *results,
		     size_t n, vkqs_progress_fn progress, void *user,
		     struct vkqs_device_lost *lost)
{
	memset(lost, 0, sizeof(*lost));
	if (o->no_fork)
		return run_no_fork(o, results, n, progress, user, lost);

	unsigned jobs = o->jobs ? o->jobs : 1;
	size_t batch = o->batch;
	if (!batch) {
		/* Enough batches to keep every job busy to the end, few enough
		 * that device creation is amortised: it costs ~0.5 s on a
		 * proprietary GPU driver (measured on NVIDIA 580), so at least
		 * 16 cases share one device. */
		batch = n / ((size_t)jobs * 4);
		if (batch < 16)
			batch = 16;
		if (batch > 64)
			batch = 64;
	}
	struct queue q = {0};
	size_t *idx = malloc((n ? n : 1) * sizeof(*idx));
	if (!idx)
		return false;
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	/* explicit batches first (a resumed run's cut-short processes, each
	 * again in one process), then the rest in batches of `batch` */
	size_t i = 0;
	for (size_t b = 0; b < o->nbatch_lens && i < n; b++) {
		size_t len = o->batch_lens[b] < n - i ? o->batch_lens[b] : n - i;
		if (len)
			queue_push(&q, idx + i, len);
		i += len;
	}
	for (; i < n; i += batch)
		queue_push(&q, idx + i, n - i < batch ? n - i : batch);
	free(idx);

	struct slot *slots = calloc(jobs, sizeof(*slots));
	struct pollfd *pfd = calloc((size_t)jobs + STOP_FDS, sizeof(*pfd));
	if (!slots || !pfd) {
		free(slots);
		free(pfd);
		queue_free(&q);
		return false;
	}
	size_t active = 0;
	/* pollfd [jobs..]: the stop pipe and stdout (stop_pollfds) */
	struct pollfd *stopfd = &pfd[jobs];
	while (!interrupted) {
		for (unsigned j = 0; j < jobs && !interrupted; j++) {
			if (slots[j].pid)
				continue;
			size_t cnt;
			size_t *b = queue_pop(&q, &cnt);
			if (!b)
				break;
			if (!spawn(o, results, &slots[j], b, cnt)) {
				/* the environment, not a case: the run stops,
				 * saying why (vkqs_runner_stop_reason) */
				free(b);
				vkqs_runner_stop(VKQS_STOP_SPAWN);
				break;
			}
			active++;
		}
		if (active == 0 || interrupted)
			break;

		double now = vkqs_monotonic_s(), next_deadline = now + 3600;
		for (unsigned j = 0; j < jobs; j++) {
			pfd[j].fd = slots[j].pid ? slots[j].rfd : -1;
			pfd[j].events = POLLIN;
			pfd[j].revents = 0;
			if (slots[j].pid && slots[j].deadline < next_deadline)
				next_deadline = slots[j].deadline;
		}
		stop_pollfds(stopfd);
		int wait_ms = (int)((next_deadline - now) * 1000) + 1;
		if (wait_ms < 0)
			wait_ms = 0;
		int pr = poll(pfd, jobs + STOP_FDS, wait_ms);
		if (pr < 0 && errno != EINTR)
			break;
		if (pr > 0)
			stop_pollfds_check(stopfd);
		for (unsigned j = 0; j < jobs && !interrupted; j++) {
			struct slot *s = &slots[j];
			if (!s->pid)
				continue;
			bool eof = false;
			if (pr > 0 && (pfd[j].revents & (POLLIN | POLLHUP | POLLERR))) {
				ssize_t r = read(s->rfd, s->buf + s->buffered,
						 sizeof(s->buf) - s->buffered);
				if (r > 0) {
					s->buffered += (size_t)r;
					if (s->buffered == sizeof(s->buf)) {
						struct rec rec;
						memcpy(&rec, s->buf, sizeof(rec));
						s->buffered = 0;
						/* may stop the run (EPIPE, SIGPIPE) */
						handle_record(s, results, &rec, o, progress, user);
					}
				} else if (r == 0 || errno != EINTR) {
					eof = true;
				}
			}
			if (!eof && vkqs_monotonic_s() > s->deadline) {
				kill(-s->pid, SIGKILL);
				s->timed_out = true;
				eof = true;
			}
			if (eof) {
				size_t suspect = finish(s, results, &q, o, progress, user);
				active--;
				if (suspect != SIZE_MAX && !interrupted && o->verbose) {
					const struct vkqs_result *sr = &results[suspect];
					printf("vkqs: %s ended in %s: checking the device in a "
					       "fresh process\n",
					       sr->ci->name, sr->done ? vkqs_status_name(sr->status)
								 : "an unusable device");
					fflush(stdout);
				}
				/* a stop during the check is not a lost device */
				if (suspect != SIZE_MAX && !interrupted &&
				    !device_healthy(o, lost->why, sizeof(lost->why)) && !interrupted) {
					snprintf(lost->at, sizeof(lost->at), "%s",
						 results[suspect].ci->name);
					stop_after_loss(slots, jobs, results, &q, lost);
					active = 0;
					break;
				}
			}
		}
		if (lost->at[0])
			break;
	}
	/* A stop: every child killed and reaped; what did not report keeps
	 * done == false. */
	for (unsigned j = 0; j < jobs; j++)
		drop_slot(&slots[j], results, NULL);
	free(slots);
	free(pfd);
	queue_free(&q);
	return !interrupted;
}

/* Runs fn(arg) in a child process in its own process group, and waits at
 * most timeout_s for it, or until a stop.  The child sends back up to size
 * bytes of msg.  Returns how many arrived; *wstatus gets the child's wait
 * status, *timed_out whether the deadline passed.  The child is always
 * killed and reaped before this returns. */
static size_t child_call(void (*fn)(void *arg, void *msg), void *arg, void *msg,
			 size_t size, double timeout_s, int *wstatus, bool *timed_out)
{
	int p[2];
	*timed_out = false;
	*wstatus = 0;
	if (pipe(p) != 0)
		return 0;
	fflush(stdout);
	fflush(stderr);
	pid_t parent = getpid();
	double deadline = vkqs_monotonic_s() + timeout_s;
	pid_t pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		vkqs_die_with_parent(parent);
		child_signals();
		close(p[0]);
		fn(arg, msg);
		_exit(write_all(p[1], msg, size) ? 0 : 1);
	}
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		return 0;
	}
	setpgid(pid, pid);
	bool expired;
	size_t got = read_full(p[0], msg, size, deadline, &expired);
	*timed_out = got != size && !interrupted && expired;
	close(p[0]);
	*wstatus = kill_and_reap(pid);
	return got;
}

struct probe_msg {
	int ok;
	char err[512];
	struct vkqs_device_info info;
};
struct probe_arg {
	const char *device;
	bool validation;
};

static void probe_child(void *arg, void *msgp)
{
	const struct probe_arg *a = arg;
	struct probe_msg *msg = msgp;
	struct vkqs_instance inst;
	uint32_t index;
	if (vkqs_instance_create(&inst, a->validation, msg->err, sizeof(msg->err))) {
		if (vkqs_instance_select(&inst, a->device, &index, msg->err, sizeof(msg->err))) {
			vkqs_device_describe(&inst, index, &msg->info);
			msg->info.same_driver_count =
				vkqs_instance_count_driver(&inst, msg->info.driver_name);
			msg->ok = 1;
		}
		vkqs_instance_destroy(&inst);
	}
}

/* What went wrong with a child_call that did not answer. */
static void describe_no_answer(bool timed_out, int wstatus, double timeout_s, const char *what,
			       char *err, size_t errsize)
{
	if (interrupted)
		snprintf(err, errsize, "%s", vkqs_runner_stop_reason());
	else if (timed_out)
		snprintf(err, errsize,
			 "the Vulkan driver did not answer within %g s while %s (its process "
			 "was killed; --timeout sets the limit)",
			 timeout_s, what);
	else {
		char how[128];
		describe_exit(wstatus, how, sizeof(how));
		snprintf(err, errsize, "the Vulkan driver failed while %s (%s)", what, how);
	}
}

bool vkqs_probe_device(const char *device, bool validation, double timeout_s,
		       struct vkqs_device_info *out, bool *driver_failed, char *err,
		       size_t errsize)
{
	struct probe_msg *msg = calloc(1, sizeof(*msg));
	if (!msg) {
		snprintf(err, errsize, "out of memory");
		return false;
	}
	struct probe_arg a = {device, validation};
	int wstatus;
	bool timed_out;
	size_t got = child_call(probe_child, &a, msg, sizeof(*msg), timeout_s, &wstatus,
				&timed_out);
	bool ok = false;
	*driver_failed = got != sizeof(*msg);
	if (got != sizeof(*msg))
		describe_no_answer(timed_out, wstatus, timeout_s,
				   "loading or enumerating devices", err, errsize);
	else if (!msg->ok)
		snprintf(err, errsize, "%s", msg->err);
	else {
		*out = msg->info;
		ok = true;
	}
	free(msg);
	return ok;
}

struct call_arg {
	int (*fn)(void *);
	void *arg;
};

static void call_child(void *arg, void *msg)
{
	const struct call_arg *a = arg;
	int rc = a->fn(a->arg);
	fflush(stdout);
	fflush(stderr);
	memcpy(msg, &rc, sizeof(rc));
}

int vkqs_call_in_child(int (*fn)(void *), void *arg, double timeout_s, const char *what,
		       char *err, size_t errsize)
{
	struct call_arg a = {fn, arg};
	int rc = -1, wstatus;
	bool timed_out;
	if (child_call(call_child, &a, &rc, sizeof(rc), timeout_s, &wstatus, &timed_out) !=
	    sizeof(rc)) {
		/* exited on its own (die(): its line is said) */
		if (!timed_out && !interrupted && WIFEXITED(wstatus) && WEXITSTATUS(wstatus)) {
			err[0] = '\0';
			return WEXITSTATUS(wstatus);
		}
		describe_no_answer(timed_out, wstatus, timeout_s, what, err, errsize);
		return -1;
	}
	return rc;
}
