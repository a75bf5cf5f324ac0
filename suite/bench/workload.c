/* Per-workload costing with timer queries, as the profiling layer of seed
 * 003 does it on tile-based GPUs.
 *
 * A frame of three submissions: graphics [render pass A, a compute
 * dispatch], the second queue (compute, else transfer, where present)
 * [a dispatch or a fill], graphics [render pass B, a 2-view render pass].
 * Each workload is timed by the timestamps around it: N + 1 timestamps for
 * the N workloads of a command buffer, the end of one the start of the
 * next, in slots of managed 64-slot pools assigned when the command buffer
 * is recorded; a timestamp inside a multiview render pass takes one slot
 * per view.  Each command buffer resets its slots first, and is recorded
 * once and resubmitted every frame, its results read (consumed) before the
 * next submission.
 *
 * Twice: as recorded, and with the seed's serialization injected - a full
 * pipeline barrier before each workload's start timestamp and after its
 * end timestamp, and one timeline semaphore across the submissions
 * (submission n waits for n - 1 and signals n).  Reported per workload:
 * the cost unserialized and serialized and their difference, and the
 * frame time (the graphics queue's first to last timestamp) both ways.
 *
 * What the reference device's model predicts (refdevice/README.md
 * "Architectures"): on the immediate architecture one timeline, so every
 * difference is 0 (the injected barriers lie outside the timers); on the
 * tiler the geometry engine runs binning and compute beside the previous
 * pass's fragment work, so unserialized timers miss that overlapped work:
 * the compute dispatch after render pass A reads less than its serialized
 * cost.  (The injected barrier after a timer lies inside the next
 * workload's interval when they share the timer: on the immediate
 * architecture that workload's difference is the cost of one command,
 * RD_COMMAND_COST_NS, and every other difference is 0.)  With a second
 * queue the immediate model's one clock runs for both queues, so its
 * unserialized timers include the other queue's work; the graphics-only
 * variant is deterministic, and tests/bench_workload.sh checks it. */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "passtarget.h"
#include "vkutil.h"
#include "workload.h"

#include "shaders/stats_count_comp.h"

#define D (VKQS_D(ctx))
#define DEV (VKQS_DEV(ctx))

#define POOL_SLOTS 64u
#define MAX_WORK 8u

/* Managed query pools: 64 timestamp slots each, handed out at recording. */
struct pools {
	VkQueryPool pool[4];
	uint32_t count, next;
};

static uint32_t slots_take(struct vkqs_ctx *ctx, struct pools *p, uint32_t n, VkQueryPool *pool)
{
	if (p->count == 0 || p->next + n > POOL_SLOTS) {
		VKQS_ASSERTF(ctx, p->count < 4, "more than 4 managed query pools");
		p->pool[p->count++] = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, POOL_SLOTS, 0);
		p->next = 0;
	}
	*pool = p->pool[p->count - 1];
	uint32_t first = p->next;
	p->next += n;
	return first;
}

enum kind { RENDER_PASS, MULTIVIEW_PASS, DISPATCH, FILL };

struct work {
	const char *name;
	enum kind kind;
};

/* One command buffer of workloads: its N + 1 timers (the last one inside a
 * multiview pass takes a slot per view). */
struct cmd {
	struct vkqs_queue *q;
	VkCommandBuffer cb;
	VkQueryPool pool;
	uint32_t first, nslots;
	uint32_t nwork;
	const struct work *work[MAX_WORK];
	uint32_t timer_slot[MAX_WORK + 1]; /* slot of timer k (before work k) */
	bool host_reset;                   /* its slots are reset by the host */
};

struct frame {
	struct vkqs_target *t;
	struct vkqs_pipeline *p;
	struct vkqs_pass_target *mv;
	struct vkqs_pipeline *mvp;
	struct vkqs_compute *comp, *comp2;
	struct vkqs_buffer *fill;
	struct pools pools;
};

static void serialize(struct vkqs_ctx *ctx, VkCommandBuffer cb, bool on)
{
	if (on)
		vkqs_cmd_full_barrier(ctx, cb);
}

static void record_work(struct vkqs_ctx *ctx, struct frame *f, struct cmd *c, uint32_t k)
{
	VkCommandBuffer cb = c->cb;
	const struct work *w = c->work[k];
	bool last = k + 1 == c->nwork;
	switch (w->kind) {
	case RENDER_PASS:
		vkqs_target_begin(ctx, cb, f->t, 1.0f);
		for (int i = 0; i < 8; i++)
			vkqs_draw_rect(ctx, cb, f->p, f->t, 0, 0, (float)f->t->width,
				       (float)f->t->height, 0.5f);
		vkqs_target_end(ctx, cb);
		break;
	case MULTIVIEW_PASS: {
		vkqs_pass_begin(ctx, cb, f->mv, 1.0f);
		struct vkqs_rect_push pc = {{0, 0, (float)f->mv->size, (float)f->mv->size},
					    {(float)f->mv->size, (float)f->mv->size}, 0.5f, 0};
		vkqs_cmd_bind_rect(ctx, cb, f->mvp, &pc);
		for (int i = 0; i < 4; i++)
			D->vkCmdDraw(cb, 6, 1, 0, 0);
		/* the end timer inside the instance: one slot per view (18.5) */
		if (last)
			D->vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, c->pool,
					       c->timer_slot[k + 1]);
		vkqs_pass_end(ctx, cb, f->mv);
		break;
	}
	case DISPATCH:
		vkqs_cmd_bind_compute(ctx, cb, c->q == &ctx->vk->gfx ? f->comp : f->comp2);
		D->vkCmdDispatch(cb, 64, 1, 1);
		break;
	case FILL:
		D->vkCmdFillBuffer(cb, f->fill->buf, 0, VK_WHOLE_SIZE, 3);
		break;
	}
}

/* Records c's workloads with their timers; ser: with the seed's barriers. */
static void record(struct vkqs_ctx *ctx, struct frame *f, struct cmd *c, bool ser)
{
	uint32_t views = 1;
	if (c->nwork && c->work[c->nwork - 1]->kind == MULTIVIEW_PASS)
		views = (uint32_t)__builtin_popcount(f->mv->view_masks[0]);
	c->nslots = c->nwork + views;
	c->first = slots_take(ctx, &f->pools, c->nslots, &c->pool);
	for (uint32_t k = 0; k <= c->nwork; k++)
		c->timer_slot[k] = c->first + k;
	c->cb = vkqs_cmd_begin_usage(ctx, c->q, 0);
	/* "Query pools are fully reset on first use in the command buffer";
	 * a queue without vkCmdResetQueryPool (transfer only) has its slots
	 * reset from the host before each submission */
	VkQueueFlags qf = ctx->vk->info.families[c->q->family].flags;
	c->host_reset = !(qf & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT));
	if (c->host_reset && !ctx->vk->f12.hostQueryReset)
		vkqs_skip(ctx, "a transfer-only second queue and no hostQueryReset");
	if (!c->host_reset)
		D->vkCmdResetQueryPool(c->cb, c->pool, c->first, c->nslots);
	for (uint32_t k = 0; k < c->nwork; k++) {
		/* serialized: a full barrier before the start timer (the end
		 * timer of the workload before, already followed by one) */
		if (k == 0) {
			serialize(ctx, c->cb, ser);
			D->vkCmdWriteTimestamp(c->cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, c->pool,
					       c->timer_slot[0]);
		}
		record_work(ctx, f, c, k);
		bool inside = c->work[k]->kind == MULTIVIEW_PASS && k + 1 == c->nwork;
		if (!inside)
			D->vkCmdWriteTimestamp(c->cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, c->pool,
					       c->timer_slot[k + 1]);
		serialize(ctx, c->cb, ser);
	}
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(c->cb));
}

/* The frame's submissions; serialized: chained by the timeline semaphore,
 * each submission n waiting for n - 1 and signalling n. */
static void submit_frame(struct vkqs_ctx *ctx, struct cmd *c, uint32_t n, bool ser,
			 VkSemaphore sem, uint64_t *id)
{
	VkFence fences[4];
	for (uint32_t i = 0; i < n; i++) {
		uint64_t wait = *id, signal = *id + 1;
		VkTimelineSemaphoreSubmitInfo tl = {
			.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
			.waitSemaphoreValueCount = 1,
			.pWaitSemaphoreValues = &wait,
			.signalSemaphoreValueCount = 1,
			.pSignalSemaphoreValues = &signal,
		};
		VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
		VkSubmitInfo si = {
			.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			.pNext = ser ? &tl : NULL,
			.waitSemaphoreCount = ser ? 1 : 0,
			.pWaitSemaphores = &sem,
			.pWaitDstStageMask = &stage,
			.commandBufferCount = 1,
			.pCommandBuffers = &c[i].cb,
			.signalSemaphoreCount = ser ? 1 : 0,
			.pSignalSemaphores = &sem,
		};
		if (c[i].host_reset)
			D->vkResetQueryPool(DEV, c[i].pool, c[i].first, c[i].nslots);
		fences[i] = vkqs_fence(ctx);
		VKQS_CHECK(ctx, D->vkQueueSubmit(c[i].q->queue, 1, &si, fences[i]));
		if (ser)
			(*id)++;
	}
	for (uint32_t i = 0; i < n; i++)
		vkqs_fence_wait(ctx, fences[i]);
}

static double ns_between(struct vkqs_ctx *ctx, const struct vkqs_queue *q, uint64_t a, uint64_t b)
{
	uint32_t bits = ctx->vk->info.families[q->family].timestamp_valid_bits;
	uint64_t m = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
	return (double)((b - a) & m) * ctx->vk->props.limits.timestampPeriod;
}

const bool vkqs_bench_workload_queues[2] = {false, true};
void vkqs_bench_workload_queues_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "%s", *(const bool *)p ? "two_queues" : "graphics_only");
}

void vkqs_bench_workload_costing(struct vkqs_ctx *ctx, const void *param)
{
	bool two = *(const bool *)param;
	struct vkqs_queue *g = &ctx->vk->gfx;
	if (!ctx->vk->info.families[g->family].timestamp_valid_bits)
		vkqs_skip(ctx, "the graphics queue family has timestampValidBits 0");
	vkqs_require_feature(ctx, "timelineSemaphore");
	struct frame *f = vkqs_alloc(ctx, sizeof(*f));
	memset(f, 0, sizeof(*f));
	f->t = vkqs_target_create(ctx, 64, 64, VK_SAMPLE_COUNT_1_BIT, false);
	f->p = vkqs_pipeline_rect(ctx, f->t, &(struct vkqs_pipeline_desc){0});
	struct vkqs_buffer *sb = vkqs_buffer_device(ctx, 1 << 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	f->comp = vkqs_compute_create(ctx, stats_count_comp, sizeof(stats_count_comp), sb, 0, 0);
	bool multiview = ctx->vk->f11.multiview;
	if (multiview) {
		const uint32_t mask = 0x3;
		f->mv = vkqs_pass_target_create(ctx, VKQS_PASS_RP2, 64, VK_SAMPLE_COUNT_1_BIT, false, 1,
						&mask);
		struct vkqs_pipeline_target where = {.render_pass = f->mv->render_pass,
						     .samples = f->mv->samples, .view_mask = mask,
						     .color_format = f->mv->color_format,
						     .depth_format = f->mv->depth_format};
		f->mvp = vkqs_pipeline_create(ctx, &where, &(struct vkqs_pipeline_desc){0});
	}
	/* the second queue: a compute-only family, else a transfer-only one */
	struct vkqs_queue *q2 = NULL;
	static const struct work w_a = {"render_pass_a", RENDER_PASS}, w_c = {"compute", DISPATCH},
				 w_b = {"render_pass_b", RENDER_PASS},
				 w_mv = {"render_pass_multiview", MULTIVIEW_PASS},
				 w_q2c = {"second_queue_dispatch", DISPATCH},
				 w_q2f = {"second_queue_fill", FILL};
	const struct work *q2work = NULL;
	if (!two) {
		/* the graphics queue alone */
	} else if (ctx->vk->compute.family != VKQS_NO_FAMILY &&
	    ctx->vk->info.families[ctx->vk->compute.family].timestamp_valid_bits) {
		q2 = &ctx->vk->compute;
		struct vkqs_buffer *b2 = vkqs_buffer_device(ctx, 1 << 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
		f->comp2 = vkqs_compute_create(ctx, stats_count_comp, sizeof(stats_count_comp), b2, 0, 0);
		q2work = &w_q2c;
	} else if (ctx->vk->transfer.family != VKQS_NO_FAMILY &&
		   ctx->vk->info.families[ctx->vk->transfer.family].timestamp_valid_bits) {
		q2 = &ctx->vk->transfer;
		f->fill = vkqs_buffer_device(ctx, 1 << 20, 0);
		q2work = &w_q2f;
	} else {
		vkqs_skip(ctx, "no second queue family with timestamps");
	}

	/* [0]: as recorded, [1]: serialized */
	struct cmd c[2][3];
	uint32_t ncmd = q2 ? 3 : 2;
	for (int ser = 0; ser < 2; ser++) {
		memset(c[ser], 0, sizeof(c[ser]));
		struct cmd *g1 = &c[ser][0], *g2 = &c[ser][ncmd - 1];
		g1->q = g2->q = g;
		g1->work[g1->nwork++] = &w_a;
		g1->work[g1->nwork++] = &w_c;
		g2->work[g2->nwork++] = &w_b;
		if (multiview)
			g2->work[g2->nwork++] = &w_mv;
		if (q2) {
			c[ser][1].q = q2;
			c[ser][1].work[c[ser][1].nwork++] = q2work;
		}
		for (uint32_t i = 0; i < ncmd; i++)
			record(ctx, f, &c[ser][i], ser != 0);
	}
	VkSemaphoreTypeCreateInfo sti = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
					 .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE};
	VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &sti};
	VkSemaphore sem;
	VKQS_CHECK(ctx, D->vkCreateSemaphore(DEV, &sci, NULL, &sem));
	vkqs_defer_destroy(ctx, VK_OBJECT_TYPE_SEMAPHORE, sem);
	uint64_t id = 0;

	/* samples: [ser][workload index over the frame], and the frame */
	uint32_t nw = 0;
	const char *names[MAX_WORK];
	for (uint32_t i = 0; i < ncmd; i++)
		for (uint32_t k = 0; k < c[0][i].nwork; k++)
			names[nw++] = c[0][i].work[k]->name;
	uint32_t want = vkqs_bench_repeat();
	double *s[2][MAX_WORK], *frame[2], *diff[MAX_WORK];
	for (int ser = 0; ser < 2; ser++) {
		for (uint32_t w = 0; w < nw; w++)
			s[ser][w] = vkqs_alloc(ctx, want * sizeof(double));
		frame[ser] = vkqs_alloc(ctx, want * sizeof(double));
	}
	for (uint32_t w = 0; w < nw; w++)
		diff[w] = vkqs_alloc(ctx, want * sizeof(double));
	for (uint32_t round = 0; round < 2 + want; round++) {
		for (int ser = 0; ser < 2; ser++) {
			submit_frame(ctx, c[ser], ncmd, ser != 0, sem, &id);
			/* consume the results before the next submission */
			uint32_t w = 0;
			uint64_t start = 0, end = 0;
			for (uint32_t i = 0; i < ncmd; i++) {
				struct cmd *x = &c[ser][i];
				uint64_t t[MAX_WORK + 2];
				VKQS_CHECK(ctx, D->vkGetQueryPoolResults(
							DEV, x->pool, x->first, x->nwork + 1, sizeof(t), t, 8,
							VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
				for (uint32_t k = 0; k < x->nwork; k++, w++)
					if (round >= 2)
						s[ser][w][round - 2] = ns_between(ctx, x->q, t[k], t[k + 1]);
				if (x->q == g && i == 0)
					start = t[0];
				if (x->q == g)
					end = t[x->nwork];
			}
			if (round >= 2)
				frame[ser][round - 2] = ns_between(ctx, g, start, end);
		}
		if (round >= 2)
			for (uint32_t w = 0; w < nw; w++)
				diff[w][round - 2] = s[1][w][round - 2] - s[0][w][round - 2];
	}
	char name[96];
	for (uint32_t w = 0; w < nw; w++) {
		snprintf(name, sizeof(name), "%s.unserialized", names[w]);
		vkqs_bench_metric(ctx, name, "ns", true, VKQS_BENCH_DEVICE, s[0][w], want);
		snprintf(name, sizeof(name), "%s.serialized", names[w]);
		vkqs_bench_metric(ctx, name, "ns", true, VKQS_BENCH_DEVICE, s[1][w], want);
		snprintf(name, sizeof(name), "%s.difference", names[w]);
		vkqs_bench_metric(ctx, name, "ns", false, VKQS_BENCH_DEVICE, diff[w], want);
	}
	vkqs_bench_metric(ctx, "frame.unserialized", "ns", true, VKQS_BENCH_DEVICE, frame[0], want);
	vkqs_bench_metric(ctx, "frame.serialized", "ns", true, VKQS_BENCH_DEVICE, frame[1], want);
}
