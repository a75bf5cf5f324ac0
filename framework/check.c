/* Result recording, checks, deferred cleanup and the execution of one case
 * inside the current process. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "vkqs.h"

struct vkqs_defer {
	vkqs_defer_fn fn;
	void *arg;
	struct vkqs_defer *next;
};

/* Appends one item of status s to the message (status.h). */
static void append(struct vkqs_ctx *ctx, enum vkqs_status s, const char *fmt, va_list ap)
{
	if (ctx->message_len >= sizeof(ctx->message) - 1)
		return;
	char *p = ctx->message + ctx->message_len;
	size_t room = sizeof(ctx->message) - ctx->message_len;
	if (ctx->message_len && room > 2) {
		memcpy(p, "; ", 2);
		p += 2;
		room -= 2;
		ctx->message_len += 2;
	}
	size_t start = ctx->message_len;
	int n = vsnprintf(p, room, fmt, ap);
	if (n > 0)
		ctx->message_len += (size_t)n < room ? (size_t)n : room - 1;
	if (ctx->items.n < VKQS_MAX_ITEMS)
		ctx->items.it[ctx->items.n++] = (struct vkqs_msg_item){
			(unsigned short)start, (unsigned short)(ctx->message_len - start),
			(unsigned char)s};
}

static void append_f(struct vkqs_ctx *ctx, enum vkqs_status s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	append(ctx, s, fmt, ap);
	va_end(ap);
}

void vkqs_report(struct vkqs_ctx *ctx, enum vkqs_status s, const char *file,
		 int line, const char *fmt, ...)
{
	const char *base = strrchr(file, '/');
	char prefix[VKQS_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	if (line > 0)
		append_f(ctx, s, "%s:%d: %s", base ? base + 1 : file, line, prefix);
	else
		append_f(ctx, s, "%s", prefix);
	/* A driver's value that failed a check, then left the oracle unable to
	 * go on (garbage out of every bound), is the driver's Fail, not the
	 * harness's InternalError: that item stays, as a note. */
	if (s == VKQS_INTERNAL_ERROR && ctx->status == VKQS_FAIL)
		return;
	if (vkqs_status_severity(s) > vkqs_status_severity(ctx->status))
		ctx->status = s;
}

_Noreturn void vkqs_abort_case(struct vkqs_ctx *ctx)
{
	if (ctx->abort_to)
		longjmp(*ctx->abort_to, 1);
	/* Outside vkqs_case_execute (unit tests): nothing to return to. */
	fprintf(stderr, "vkqs: case ended outside the runner: %s\n", ctx->message);
	exit(3);
}

static void fatal_if(struct vkqs_ctx *ctx, bool fatal, bool ok)
{
	if (!ok && fatal)
		vkqs_abort_case(ctx);
}

/* Evaluates `a op b` from the three-way comparison c (<0, 0, >0). */
static bool holds(const char *op, int c)
{
	if (!strcmp(op, "=="))
		return c == 0;
	if (!strcmp(op, "!="))
		return c != 0;
	if (!strcmp(op, "<="))
		return c <= 0;
	if (!strcmp(op, "<"))
		return c < 0;
	if (!strcmp(op, ">="))
		return c >= 0;
	return c > 0;
}

bool vkqs_check_u64(struct vkqs_ctx *ctx, bool fatal, const char *file, int line,
		    const char *a_txt, const char *op, const char *b_txt,
		    uint64_t a, uint64_t b)
{
	bool ok = holds(op, (a > b) - (a < b));
	ctx->checks++;
	if (!ok)
		vkqs_report(ctx, VKQS_FAIL, file, line,
			    "expected %s %s %s, got %" PRIu64 " (0x%" PRIx64 ") vs %" PRIu64
			    " (0x%" PRIx64 ")",
			    a_txt, op, b_txt, a, a, b, b);
	fatal_if(ctx, fatal, ok);
	return ok;
}

bool vkqs_check_i64(struct vkqs_ctx *ctx, bool fatal, const char *file, int line,
		    const char *a_txt, const char *op, const char *b_txt,
		    int64_t a, int64_t b)
{
	bool ok = holds(op, (a > b) - (a < b));
	ctx->checks++;
	if (!ok)
		vkqs_report(ctx, VKQS_FAIL, file, line,
			    "expected %s %s %s, got %" PRId64 " vs %" PRId64, a_txt, op,
			    b_txt, a, b);
	fatal_if(ctx, fatal, ok);
	return ok;
}

bool vkqs_check_fmt(struct vkqs_ctx *ctx, bool fatal, const char *file, int line,
		    bool ok, const char *fmt, ...)
{
	ctx->checks++;
	if (!ok) {
		char buf[VKQS_MSG_MAX];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(buf, sizeof(buf), fmt, ap);
		va_end(ap);
		vkqs_report(ctx, VKQS_FAIL, file, line, "%s", buf);
	}
	fatal_if(ctx, fatal, ok);
	return ok;
}

bool vkqs_check_true(struct vkqs_ctx *ctx, bool fatal, const char *file,
		     int line, const char *txt, bool v)
{
	ctx->checks++;
	if (!v)
		vkqs_report(ctx, VKQS_FAIL, file, line, "expected %s", txt);
	fatal_if(ctx, fatal, v);
	return v;
}

bool vkqs_check_vk(struct vkqs_ctx *ctx, bool fatal, const char *file, int line,
		   const char *txt, VkResult got, VkResult want)
{
	if (got == want)
		return true;
	/* A lost device stays lost: the runner starts the next case in a
	 * fresh process (and device) rather than fail the batch with it. */
	if (got == VK_ERROR_DEVICE_LOST)
		ctx->poisoned = true;
	enum vkqs_status s = (got == VK_ERROR_OUT_OF_HOST_MEMORY ||
			      got == VK_ERROR_OUT_OF_DEVICE_MEMORY)
				     ? VKQS_RESOURCE_ERROR
				     : VKQS_FAIL;
	vkqs_report(ctx, s, file, line, "%s returned %s (%d), expected %s", txt,
		    vkqs_vk_result_name(got), got, vkqs_vk_result_name(want));
	fatal_if(ctx, fatal, false);
	return false;
}

void vkqs_defer(struct vkqs_ctx *ctx, vkqs_defer_fn fn, void *arg)
{
	struct vkqs_defer *d = malloc(sizeof(*d));
	if (!d) {
		fn(ctx, arg);
		vkqs_report(ctx, VKQS_RESOURCE_ERROR, __FILE__, __LINE__, "out of host memory");
		vkqs_abort_case(ctx);
	}
	d->fn = fn;
	d->arg = arg;
	d->next = ctx->defer;
	ctx->defer = d;
}

static void free_arg(struct vkqs_ctx *ctx, void *arg)
{
	(void)ctx;
	free(arg);
}

void *vkqs_alloc(struct vkqs_ctx *ctx, size_t size)
{
	void *p = calloc(1, size ? size : 1);
	if (!p) {
		vkqs_report(ctx, VKQS_RESOURCE_ERROR, __FILE__, __LINE__,
			    "out of host memory (%zu bytes)", size);
		vkqs_abort_case(ctx);
	}
	vkqs_defer(ctx, free_arg, p);
	return p;
}

void vkqs_case_execute(struct vkqs_ctx *ctx, const struct vkqs_case *c,
		       const void *param, struct vkqs_vk *vk)
{
	jmp_buf jb;
	ctx->vk = vk;
	ctx->status = VKQS_PASS;
	ctx->message[0] = '\0';
	ctx->message_len = 0;
	ctx->items.n = 0;
	ctx->checks = 0;
	ctx->defer = NULL;
	ctx->poisoned = false;
	ctx->abort_to = &jb;
	if (vk) {
		vkqs_validation_take(vk, NULL, 0);
		vk->inst.newer_used = 0; /* what this case uses (vkqs_extension_used) */
	}
	if (setjmp(jb) == 0)
		c->fn(ctx, param);
	ctx->abort_to = NULL;

	/* Cleanup runs after the device is idle: objects may still be in use
	 * by work that a failed check left in flight. */
	if (vk && ctx->defer)
		vk->d.vkDeviceWaitIdle(vk->device);
	while (ctx->defer) {
		struct vkqs_defer *d = ctx->defer;
		ctx->defer = d->next;
		d->fn(ctx, d->arg);
		free(d);
	}

	if (vk) {
		char first[1024];
		uint32_t n = vkqs_validation_take(vk, first, sizeof(first));
		if (n)
			vkqs_report(ctx, VKQS_FAIL, c->name, 0,
				    "%u validation error(s), first: %s", n, first);
	}
	/* A case that passes must have checked something (no vacuous passes). */
	if (ctx->status == VKQS_PASS && ctx->checks == 0)
		vkqs_report(ctx, VKQS_INTERNAL_ERROR, c->name, 0,
			    "case made no check");
}
