/* The queue's executor: runs recorded commands in order on the queue's
 * thread.  Queries are counters with a begin snapshot and an end difference
 * (STYLE 14): the draw and dispatch stages bump the queue's counters, a
 * query copies them at begin and subtracts at end. */
#include "rd_exec.h"

/* The cost model (refdevice/README.md "Architectures"): the immediate
 * architecture has one timeline, the device clock.  The tiler has two
 * hardware queues: the geometry engine (binning, compute, transfers) and
 * the fragment engine (the main phase, tile by tile); each command
 * buffer starts both at the device clock and publishes the later one when
 * it completes. */
void exec_charge(struct exec *e, uint64_t ns)
{
	e->q->counters.work_ns += ns;
	if (!tiler(e))
		rd_clock_advance(e->dev, ns);
	else if (e->phase == PHASE_TILE)
		e->frag_ns += ns;
	else
		e->geom_ns += ns;
}

/* The device time a command sees: outside a render pass (and for the
 * start or end of an elapsed timer there) the completion of all earlier
 * work; in the binning phase the geometry engine's; in the main phase the
 * fragment engine's. */
uint64_t exec_time(const struct exec *e)
{
	if (e->dev->instance->config.host_clock || !tiler(e))
		return rd_clock_ns(e->dev);
	switch (e->phase) {
	case PHASE_BIN: return e->geom_ns;
	case PHASE_TILE: return e->frag_ns;
	default: return max_u64(e->geom_ns, e->frag_ns);
	}
}

/* A barrier whose first synchronization scope includes fragment work
 * makes the geometry engine wait for the fragment engine; without one,
 * binning and compute run ahead (seed 003's timing diagram). */
static void barrier(struct exec *e, VkPipelineStageFlags2 src)
{
	const VkPipelineStageFlags2 fragment =
		VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |
		VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT |
		VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT |
		VK_PIPELINE_STAGE_2_ALL_GRAPHICS_BIT | VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT |
		VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT;
	if (src & fragment)
		e->geom_ns = max_u64(e->geom_ns, e->frag_ns);
}

/* The counters as a command sees them now (STYLE 17). */
void exec_sample(const struct exec *e, struct rd_counters *out)
{
	*out = e->q->counters;
	out->time_ns = exec_time(e);
}

/* Time spent running shader invocations: charged, and counted as such. */
void exec_charge_shader(struct exec *e, uint64_t ns)
{
	e->q->counters.shader_ns += ns;
	exec_charge(e, ns);
}

/* Every field of struct rd_counters is a uint64_t counter. */
_Static_assert(sizeof(struct rd_counters) % sizeof(uint64_t) == 0, "counters are uint64_t");
void exec_counters_accumulate(struct rd_counters *acc, const struct rd_counters *end,
			      const struct rd_counters *begin)
{
	uint64_t *a = (uint64_t *)acc;
	const uint64_t *x = (const uint64_t *)end, *y = (const uint64_t *)begin;
	for (size_t i = 0; i < sizeof(*acc) / sizeof(uint64_t); i++)
		a[i] += x[i] - y[i];
}

/* The executor ----------------------------------------------------------------------*/

static void execute(struct exec *e, struct rd_command_buffer *cb);

/* Transform feedback ("Transform Feedback"; rd_draw.c captures).  Begin:
 * capture starts at each binding's start, or at the byte offset a counter
 * buffer holds (as vkCmdEndTransformFeedbackEXT stored it, from the start
 * of the binding).  End: each counter buffer gets "the byte offset from
 * the start of the transform feedback buffer binding where the next vertex
 * data would be written". */
static void transform_feedback(struct exec *e, const struct rd_cmd *c, bool begin)
{
	const __typeof__(c->u.xfb_counters) *x = &c->u.xfb_counters;
	if (begin) {
		memset(&e->s.xfb, 0, sizeof(e->s.xfb));
		e->s.xfb_active = true;
	}
	for (uint32_t i = 0; i < x->count && x->first + i < RD_MAX_XFB_BUFFERS; i++) {
		uint32_t b = x->first + i, v;
		if (!buffer_range_ok(x->buffers[i], x->offsets[i], 4))
			continue;
		uint8_t *p = x->buffers[i]->data + x->offsets[i];
		if (begin) {
			memcpy(&v, p, 4);
			e->s.xfb.pos[b] = v;
		} else {
			v = (uint32_t)e->s.xfb.pos[b];
			memcpy(p, &v, 4);
		}
	}
	if (!begin)
		e->s.xfb_active = false;
}

static void wait_events(struct exec *e, const struct rd_cmd *c)
{
	struct rd_device *dev = e->dev;
	pthread_mutex_lock(&dev->event_lock);
	for (;;) {
		bool all = true;
		for (uint32_t i = 0; i < c->u.wait_events.count; i++)
			all &= atomic_load(&c->u.wait_events.events[i]->set);
		if (all)
			break;
		pthread_cond_wait(&dev->event_cond, &dev->event_lock);
	}
	pthread_mutex_unlock(&dev->event_lock);
}

static void run_cmd(struct exec *e, const struct rd_cmd *c);

/* RD_BENCH_SLOWDOWN=P: timestamp writes and query begins and ends cost P %
 * more of the per-command cost (rounded down to a nanosecond), in the cost
 * model and in real time (the queue spins as long), as on a slower GPU. */
static bool slowed(const struct rd_config *cfg, enum rd_cmd_type t)
{
	return cfg->bench_slowdown_pct &&
	       (t == RD_CMD_WRITE_TIMESTAMP || t == RD_CMD_BEGIN_QUERY || t == RD_CMD_END_QUERY);
}

static void run(struct exec *e, const struct rd_cmd *c)
{
	if (rd_device_lost(e->dev))
		return; /* nothing more executes */
	const struct rd_config *cfg = &e->dev->instance->config;
	if (!slowed(cfg, c->type)) {
		run_cmd(e, c);
		return;
	}
	uint64_t extra = (uint64_t)cfg->command_cost_ns * cfg->bench_slowdown_pct / 100;
	if (extra) /* exec_charge(0) still advances the immediate clock by one */
		exec_charge(e, extra);
	run_cmd(e, c);
	rd_spin_ns(extra);
}

/* The 32-bit predicate of a conditional rendering block, read now (or,
 * with the fault, as it was when the command buffer started). */
static uint32_t predicate_value(const struct exec *e, const struct rd_cmd *c)
{
	for (size_t i = 0; i < sizeof(e->early_cmd) / sizeof(e->early_cmd[0]); i++)
		if (e->early_cmd[i] == c)
			return e->early_value[i];
	const struct rd_buffer *b = c->u.conditional.buffer;
	uint32_t v = 0;
	if (b) {
		if (b->data && c->u.conditional.offset + 4 <= b->size)
			memcpy(&v, b->data + c->u.conditional.offset, 4);
	} else if (c->u.conditional.address) {
		memcpy(&v, (const void *)(uintptr_t)c->u.conditional.address, 4);
	}
	return v;
}

/* The commands 18.2's "clears, MSAA resolves, ... and blits" name, and the
 * other copies a driver may run as internal draws or dispatches. */
static bool is_meta_operation(enum rd_cmd_type t)
{
	switch (t) {
	case RD_CMD_COPY_BUFFER:
	case RD_CMD_FILL_BUFFER:
	case RD_CMD_COPY_IMAGE:
	case RD_CMD_BLIT_IMAGE:
	case RD_CMD_COPY_BUFFER_TO_IMAGE:
	case RD_CMD_COPY_IMAGE_TO_BUFFER:
	case RD_CMD_CLEAR_COLOR_IMAGE:
	case RD_CMD_CLEAR_DEPTH_STENCIL_IMAGE:
	case RD_CMD_RESOLVE_IMAGE: return true;
	default: return false;
	}
}

static void run_cmd(struct exec *e, const struct rd_cmd *c)
{
	const struct rd_config *cfg = &e->dev->instance->config;
	if (cfg->command_cost_ns)
		exec_charge(e, cfg->command_cost_ns);
	if (e->phase != PHASE_TILE)
		e->q->counters.commands++;
	/* VK_PERFORMANCE_OVERRIDE_TYPE_NULL_HARDWARE_INTEL "turns all rendering
	 * operations into noop": draws, dispatches and attachment clears */
	if (e->intel.null_hardware && (rd_cmd_is_action(c->type) || c->type == RD_CMD_CLEAR_ATTACHMENTS) &&
	    !rd_fault(&e->dev->instance->config, RD_FAULT_INTEL_NULL_HW_IGNORED)) {
		e->instr = NULL;
		return;
	}
	if (e->s.cond_discard) {
		if (rd_cmd_is_action(c->type) || c->type == RD_CMD_CLEAR_ATTACHMENTS) {
			e->instr = NULL;
			return;
		}
		/* the faults: a driver's copy or query work predicated too */
		if ((c->type == RD_CMD_COPY_QUERY_POOL_RESULTS &&
		     rd_fault(cfg, RD_FAULT_COND_COPY_PREDICATED)) ||
		    ((c->type == RD_CMD_BEGIN_QUERY || c->type == RD_CMD_END_QUERY ||
		      c->type == RD_CMD_RESET_QUERY_POOL || c->type == RD_CMD_WRITE_TIMESTAMP) &&
		     rd_fault(cfg, RD_FAULT_COND_QUERY_PREDICATED)))
			return;
	}
	if (is_meta_operation(c->type) && !e->s.in_pass)
		exec_meta_operation(e);
	switch (c->type) {
	case RD_CMD_INSTRUMENT:
		e->instr = c->u.instrument.obj;
		e->instr_index = c->u.instrument.index;
		break;
	case RD_CMD_INTEL_MARKER:
		/* the fault: the first marker of the command buffer stays */
		if (!(rd_fault(&e->dev->instance->config, RD_FAULT_INTEL_FIRST_MARKER) &&
		      e->intel.marker))
			e->intel.marker = c->u.intel.value;
		break;
	case RD_CMD_INTEL_STREAM_MARKER:
		if (e->phase != PHASE_TILE)
			e->q->intel_stream_marker = c->u.intel.value &
				((1ull << RD_INTEL_STREAM_BITS) - 1);
		break;
	case RD_CMD_INTEL_OVERRIDE:
		if (c->u.intel.type == VK_PERFORMANCE_OVERRIDE_TYPE_NULL_HARDWARE_INTEL)
			e->intel.null_hardware = c->u.intel.enable;
		else if (c->u.intel.enable && e->phase != PHASE_TILE)
			e->intel.flushes++;
		break;
	case RD_CMD_BEGIN_VIDEO_CODING:
	case RD_CMD_END_VIDEO_CODING:
	case RD_CMD_CONTROL_VIDEO_CODING:
		break;
	case RD_CMD_ENCODE_VIDEO:
		rd_video_encode(&e->dev->instance->config, c->u.encode, &e->q->counters);
		e->encode_offset = c->u.encode->offset;
		break;
	case RD_CMD_BIND_PIPELINE:
		if (c->u.bind_pipeline.bind_point == VK_PIPELINE_BIND_POINT_COMPUTE)
			e->s.compute = c->u.bind_pipeline.pipeline;
		else
			e->s.gfx = c->u.bind_pipeline.pipeline;
		break;
	case RD_CMD_SET_VIEWPORT: e->s.viewport = c->u.viewport; break;
	case RD_CMD_SET_SCISSOR: e->s.scissor = c->u.scissor; break;
	case RD_CMD_SET_LINE_WIDTH: e->s.line_width = c->u.line_width; break;
	case RD_CMD_SET_COLOR_WRITE_ENABLE: e->s.color_write_enable = c->u.color_write_enable; break;
	case RD_CMD_SET_DEPTH_BOUNDS:
		e->s.depth_bounds[0] = c->u.depth_bounds.min;
		e->s.depth_bounds[1] = c->u.depth_bounds.max;
		break;
	case RD_CMD_SET_STENCIL_COMPARE_MASK:
	case RD_CMD_SET_STENCIL_WRITE_MASK:
	case RD_CMD_SET_STENCIL_REFERENCE: {
		uint32_t *v = c->type == RD_CMD_SET_STENCIL_COMPARE_MASK ? e->s.stencil_compare
			      : c->type == RD_CMD_SET_STENCIL_WRITE_MASK ? e->s.stencil_write
									 : e->s.stencil_ref;
		if (c->u.stencil.faces & VK_STENCIL_FACE_FRONT_BIT)
			v[0] = c->u.stencil.value;
		if (c->u.stencil.faces & VK_STENCIL_FACE_BACK_BIT)
			v[1] = c->u.stencil.value;
		break;
	}
	case RD_CMD_BIND_DESCRIPTOR_SETS: {
		/* pDynamicOffsets: the sets' dynamic descriptors in set order
		 * (spec "Descriptor Set Binding"). */
		int bp = c->u.bind_sets.bind_point == VK_PIPELINE_BIND_POINT_COMPUTE;
		uint32_t k = 0;
		for (uint32_t i = 0; i < c->u.bind_sets.count && c->u.bind_sets.first + i < RD_MAX_SETS; i++) {
			uint32_t set = c->u.bind_sets.first + i;
			e->s.sets[bp][set] = c->u.bind_sets.sets[i];
			uint32_t n = rd_descriptor_dynamic_count(c->u.bind_sets.sets[i]);
			for (uint32_t d = 0; d < RD_MAX_DYNAMIC; d++)
				e->s.dyn[bp][set][d] = d < n && k + d < c->u.bind_sets.dyn_count ? c->u.bind_sets.dyn[k + d] : 0;
			k += n;
		}
		break;
	}
	case RD_CMD_BIND_INDEX_BUFFER:
		e->s.index_buffer = c->u.bind_index.buffer;
		e->s.index_offset = c->u.bind_index.offset;
		e->s.index_type = c->u.bind_index.type;
		break;
	case RD_CMD_BIND_VERTEX_BUFFERS:
		for (uint32_t i = 0; i < c->u.bind_vertex.count &&
				     c->u.bind_vertex.first + i < RD_MAX_BINDINGS; i++) {
			e->s.vertex_buffers[c->u.bind_vertex.first + i] = c->u.bind_vertex.buffers[i];
			e->s.vertex_offsets[c->u.bind_vertex.first + i] = c->u.bind_vertex.offsets[i];
		}
		break;
	case RD_CMD_DRAW:
	case RD_CMD_DRAW_INDEXED:
	case RD_CMD_DRAW_INDIRECT:
	case RD_CMD_DRAW_INDEXED_INDIRECT:
	case RD_CMD_DRAW_INDIRECT_COUNT:
	case RD_CMD_DRAW_INDEXED_INDIRECT_COUNT:
	case RD_CMD_DRAW_MESH:
	case RD_CMD_DRAW_MESH_INDIRECT:
	case RD_CMD_DRAW_MESH_INDIRECT_COUNT:
		if (e->dev->instance->config.draw_delay_us) {
			/* a slow device: the draw takes real time */
			uint32_t us = e->dev->instance->config.draw_delay_us;
			struct timespec ts = {(time_t)(us / 1000000u), (long)(us % 1000000u) * 1000};
			nanosleep(&ts, NULL);
		}
		if (e->phase == PHASE_TILE) {
			exec_draw_tile(e);
			break;
		}
		if (c->type == RD_CMD_DRAW_MESH) {
			exec_draw(e, &(struct rd_draw_params){
					.groups = {c->u.dispatch.groups[0], c->u.dispatch.groups[1],
						   c->u.dispatch.groups[2]}});
			break;
		}
		if (c->type != RD_CMD_DRAW && c->type != RD_CMD_DRAW_INDEXED) {
			exec_draw_indirect(e, c);
			break;
		}
		exec_draw(e, &(struct rd_draw_params){
				.indexed = c->type == RD_CMD_DRAW_INDEXED,
				.count = c->u.draw.count,
				.instance_count = c->u.draw.instances,
				.first = c->u.draw.first,
				.first_instance = c->u.draw.first_instance,
				.vertex_offset = c->u.draw.vertex_offset,
			});
		break;
	case RD_CMD_DISPATCH:
		exec_dispatch(e, c->u.dispatch.base, c->u.dispatch.groups);
		break;
	case RD_CMD_DISPATCH_INDIRECT: {
		uint32_t g[3], base[3] = {0, 0, 0};
		if (buffer_range_ok(c->u.indirect.buffer, c->u.indirect.offset, 12)) {
			memcpy(g, c->u.indirect.buffer->data + c->u.indirect.offset, 12);
			exec_dispatch(e, base, g);
		}
		break;
	}
	case RD_CMD_COPY_BUFFER:
		for (uint32_t i = 0; i < c->u.copy_buffer.count; i++) {
			const VkBufferCopy *r = &c->u.copy_buffer.regions[i];
			if (buffer_range_ok(c->u.copy_buffer.src, r->srcOffset, r->size) &&
			    buffer_range_ok(c->u.copy_buffer.dst, r->dstOffset, r->size))
				memmove(c->u.copy_buffer.dst->data + r->dstOffset,
					c->u.copy_buffer.src->data + r->srcOffset, r->size);
			exec_charge(e, r->size / COST_BYTES_PER_NS);
			e->q->counters.bytes_transferred += r->size;
		}
		break;
	case RD_CMD_COPY_IMAGE: exec_copy_image(e, c); break;
	case RD_CMD_BLIT_IMAGE: exec_blit(e, c); break;
	case RD_CMD_COPY_BUFFER_TO_IMAGE: exec_copy_buffer_image(e, c, true); break;
	case RD_CMD_COPY_IMAGE_TO_BUFFER: exec_copy_buffer_image(e, c, false); break;
	case RD_CMD_UPDATE_BUFFER:
		if (buffer_range_ok(c->u.update.dst, c->u.update.offset, c->u.update.size))
			memcpy(c->u.update.dst->data + c->u.update.offset, c->u.update.data,
			       c->u.update.size);
		e->q->counters.bytes_transferred += c->u.update.size;
		break;
	case RD_CMD_FILL_BUFFER: {
		struct rd_buffer *b = c->u.fill.dst;
		VkDeviceSize size = c->u.fill.size == VK_WHOLE_SIZE
					    ? (b->size - c->u.fill.offset) & ~(VkDeviceSize)3
					    : c->u.fill.size;
		if (buffer_range_ok(b, c->u.fill.offset, size)) {
			uint8_t *p = b->data + c->u.fill.offset;
			if (c->u.fill.data == 0 || c->u.fill.data == UINT32_MAX ||
			    ((c->u.fill.data & 0xff) * 0x01010101u) == c->u.fill.data)
				memset(p, (int)(c->u.fill.data & 0xff), size);
			else
				for (VkDeviceSize o = 0; o + 4 <= size; o += 4)
					memcpy(p + o, &c->u.fill.data, 4);
		}
		exec_charge(e, size / COST_BYTES_PER_NS);
		e->q->counters.bytes_transferred += size;
		break;
	}
	case RD_CMD_CLEAR_COLOR_IMAGE:
	case RD_CMD_CLEAR_DEPTH_STENCIL_IMAGE: {
		struct rd_image *img = c->u.clear_image.image;
		struct rd_image_view whole = {.image = img, .base_layer = 0, .layer_count = img->layers};
		VkRect2D all = {{0, 0}, {img->extent.width, img->extent.height}};
		for (uint32_t i = 0; i < c->u.clear_image.count; i++) {
			const VkImageSubresourceRange *r = &c->u.clear_image.ranges[i];
			uint32_t n = r->layerCount == VK_REMAINING_ARRAY_LAYERS
					     ? img->layers - r->baseArrayLayer
					     : r->layerCount;
			exec_clear_view_rect(e, &whole, r->aspectMask, &c->u.clear_image.value, all,
					r->baseArrayLayer, n);
		}
		break;
	}
	case RD_CMD_CLEAR_ATTACHMENTS: exec_clear_attachments(e, c); break;
	case RD_CMD_RESOLVE_IMAGE:
		for (uint32_t i = 0; i < c->u.resolve.count; i++) {
			const VkImageResolve *r = &c->u.resolve.regions[i];
			for (uint32_t l = 0; l < r->srcSubresource.layerCount; l++)
				exec_resolve_pixels(c->u.resolve.src, r->srcSubresource.baseArrayLayer + l,
					       c->u.resolve.dst, r->dstSubresource.baseArrayLayer + l,
					       r->srcOffset.x, r->srcOffset.y, r->dstOffset.x,
					       r->dstOffset.y, r->extent.width, r->extent.height);
		}
		break;
	case RD_CMD_SET_EVENT:
	case RD_CMD_RESET_EVENT:
		pthread_mutex_lock(&e->dev->event_lock);
		atomic_store(&c->u.event->set, c->type == RD_CMD_SET_EVENT);
		pthread_cond_broadcast(&e->dev->event_cond);
		pthread_mutex_unlock(&e->dev->event_lock);
		break;
	case RD_CMD_WAIT_EVENTS:
		/* waited on once, in the binning phase; on the tiler the wait
		 * orders both engines */
		if (e->phase != PHASE_TILE) {
			wait_events(e, c);
			e->geom_ns = e->frag_ns = max_u64(e->geom_ns, e->frag_ns);
		}
		break;
	case RD_CMD_BARRIER: barrier(e, c->u.barrier_src); break;
	case RD_CMD_BEGIN_QUERY:
		exec_begin_query(e, c->u.query.pool, c->u.query.query, c->u.query.flags,
			    c->u.query.index);
		break;
	case RD_CMD_END_QUERY:
		exec_end_query(e, c->u.query.pool, c->u.query.query, c->u.query.index);
		break;
	case RD_CMD_RESET_QUERY_POOL:
		/* the fault: a large reset lands after the rest of the command
		 * buffer (execute_cb runs it at the end) */
		if (rd_fault(cfg, RD_FAULT_LARGE_RESET_LATE) && c->u.reset_query.count > 1024)
			break;
		if (!rd_fault(cfg, RD_FAULT_CMD_RESET_IGNORED) && !e->resets_hoisted)
			rd_query_reset(cfg, c->u.reset_query.pool, c->u.reset_query.first,
				       c->u.reset_query.count);
		break;
	case RD_CMD_WRITE_TIMESTAMP:
		exec_write_timestamp(e, c->u.timestamp.pool, c->u.timestamp.query);
		break;
	case RD_CMD_COPY_QUERY_POOL_RESULTS: {
		const __typeof__(c->u.copy_query) *q = &c->u.copy_query;
		VkDeviceSize off = rd_fault(cfg, RD_FAULT_COPY_OFFSET_IGNORED) ? 0 : q->offset;
		VkQueryResultFlags flags = q->flags;
		if (rd_fault(cfg, RD_FAULT_COPY_NO_AVAILABILITY))
			flags &= ~(VkQueryResultFlags)VK_QUERY_RESULT_WITH_AVAILABILITY_BIT;
		if (rd_fault(cfg, RD_FAULT_COPY_32))
			flags &= ~(VkQueryResultFlags)VK_QUERY_RESULT_64_BIT;
		if (rd_fault(cfg, RD_FAULT_PERF_COPY) &&
		    q->pool->type == VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR)
			break;
		if (q->dst && q->dst->data && off <= q->dst->size)
			rd_query_write_results(e->dev, q->pool, q->first, q->count,
					       q->dst->data + off, q->stride, flags);
		else if (!q->dst && q->address)
			rd_query_write_results(e->dev, q->pool, q->first, q->count,
					       (uint8_t *)(uintptr_t)q->address, q->stride, flags);
		break;
	}
	case RD_CMD_PUSH_CONSTANTS:
		if (c->u.push.offset < sizeof(e->s.push) &&
		    c->u.push.size <= sizeof(e->s.push) - c->u.push.offset)
			memcpy(e->s.push + c->u.push.offset, c->u.push.data, c->u.push.size);
		break;
	case RD_CMD_BEGIN_RENDER_PASS:
		if (e->phase != PHASE_TILE)
			e->q->counters.render_passes++;
		exec_region_subpass_begin(e);
		exec_begin_render_pass(e, c);
		break;
	case RD_CMD_NEXT_SUBPASS:
		exec_subpass_resolve(e);
		exec_region_subpass_end(e);
		e->s.subpass++;
		exec_region_subpass_begin(e);
		if (e->s.pass && e->s.subpass < e->s.pass->subpass_count)
			exec_subpass_load(e);
		break;
	case RD_CMD_BEGIN_RENDERING:
		/* a resumed instance is the suspended one continued */
		if (e->phase != PHASE_TILE &&
		    !(c->u.begin_rendering.flags & VK_RENDERING_RESUMING_BIT))
			e->q->counters.render_passes++;
		exec_region_subpass_begin(e);
		exec_begin_rendering(e, c);
		break;
	case RD_CMD_END_RENDER_PASS:
	case RD_CMD_END_RENDERING:
		if (!(c->type == RD_CMD_END_RENDERING && e->s.suspending))
			exec_subpass_resolve(e);
		e->s.suspending = false;
		exec_region_subpass_end(e);
		e->s.in_pass = false;
		e->s.view_mask = 0;
		break;
	case RD_CMD_EXECUTE_COMMANDS:
		/* Secondaries run in the primary's state: active queries keep
		 * counting through them (18.2 inheritedQueries). */
		e->secondary_depth++;
		for (uint32_t i = 0; i < c->u.execute.count; i++)
			execute(e, c->u.execute.cbs[i]);
		e->secondary_depth--;
		break;
	case RD_CMD_BIND_TRANSFORM_FEEDBACK_BUFFERS:
		for (uint32_t i = 0; i < c->u.bind_xfb.count &&
				     c->u.bind_xfb.first + i < RD_MAX_XFB_BUFFERS; i++) {
			uint32_t b = c->u.bind_xfb.first + i;
			e->s.xfb_buffers[b] = c->u.bind_xfb.buffers[i];
			e->s.xfb_offsets[b] = c->u.bind_xfb.offsets[i];
			e->s.xfb_sizes[b] = c->u.bind_xfb.sizes[i];
		}
		break;
	case RD_CMD_BEGIN_TRANSFORM_FEEDBACK:
	case RD_CMD_END_TRANSFORM_FEEDBACK:
		/* vertex work: the binning phase captures */
		if (e->phase != PHASE_TILE)
			transform_feedback(e, c, c->type == RD_CMD_BEGIN_TRANSFORM_FEEDBACK);
		break;
	case RD_CMD_BEGIN_CONDITIONAL_RENDERING:
		e->s.cond_discard = (predicate_value(e, c) == 0) != c->u.conditional.inverted;
		break;
	case RD_CMD_END_CONDITIONAL_RENDERING:
		e->s.cond_discard = false;
		break;
	case RD_CMD_COUNT:
		break;
	}
	if (rd_cmd_is_action(c->type))
		e->instr = NULL; /* the marker covered this command only */
}

/* Render pass instances (STYLE 16) ------------------------------------------------*/

/* A render pass instance's commands, from its begin to its end, with the
 * secondaries it executes flattened in. */
struct pass_list {
	const struct rd_cmd **v;
	bool *in_secondary; /* per command: recorded in a secondary */
	uint32_t n, cap;
};

static void pass_add(struct pass_list *l, const struct rd_cmd *c, bool in_secondary)
{
	if (l->n == l->cap) {
		uint32_t cap = l->cap ? 2 * l->cap : 64;
		const struct rd_cmd **v = realloc(l->v, cap * sizeof(*v));
		if (v)
			l->v = v;
		bool *s = v ? realloc(l->in_secondary, cap * sizeof(*s)) : NULL;
		if (s)
			l->in_secondary = s;
		if (!v || !s) {
			rd_log("render pass: out of memory; commands dropped");
			return;
		}
		l->cap = cap;
	}
	l->in_secondary[l->n] = in_secondary;
	l->v[l->n++] = c;
}

static void pass_add_secondary(struct pass_list *l, const struct rd_command_buffer *cb)
{
	for (uint32_t i = 0; i < cb->cmd_count; i++) {
		const struct rd_cmd *c = &cb->cmds[i];
		if (c->type != RD_CMD_EXECUTE_COMMANDS) {
			pass_add(l, c, true);
			continue;
		}
		for (uint32_t k = 0; k < c->u.execute.count; k++)
			pass_add_secondary(l, c->u.execute.cbs[k]);
	}
}

/* The immediate architecture runs the pass straight through. */
static void pass_immediate(struct exec *e, const struct rd_cmd *const *cmds, uint32_t n)
{
	/* a pass begun in a secondary (vkCmdBeginRendering) is in it whole */
	const uint32_t outer = e->secondary_depth;
	for (uint32_t k = 0; k < n; k++) {
		e->cmd_pos = k;
		e->secondary_depth = outer + (e->pass_in_secondary && e->pass_in_secondary[k]);
		run(e, cmds[k]);
	}
	e->secondary_depth = outer;
}

/* Bytes a tile writes back to memory at its end: every attachment of the
 * last subpass, every sample, every view or layer. */
static uint64_t tile_store_bytes(const struct exec *e)
{
	uint64_t px = (uint64_t)e->tile.extent.width * e->tile.extent.height, bytes = 0;
	uint32_t layers = e->s.view_mask ? (uint32_t)__builtin_popcount(e->s.view_mask)
					 : e->s.layer_count;
	for (uint32_t c = 0; c < e->s.color_count && c < RD_MAX_COLOR; c++)
		if (e->s.color[c])
			bytes += px * e->s.color[c]->image->fmt->texel_size * e->s.color[c]->image->samples;
	if (e->s.depth)
		bytes += px * e->s.depth->image->fmt->texel_size * e->s.depth->image->samples;
	return bytes * (layers ? layers : 1);
}

/* The tiler: a binning phase runs the pass's vertex work once on the
 * geometry engine and keeps the primitives; then the main phase replays
 * the same commands once per tile on the fragment engine, the tile as
 * scissor, load ops, clears and resolves within the tile.  Tiles are
 * RD_TILE-sized cells of a grid anchored at the render area's offset (so
 * the regions of VK_ARM_performance_counters_by_region, whole tiles, are
 * laid out over the render area as its buffer size formula counts them);
 * one empty tile when the area is empty, so queries still complete. */
static void pass_tiled(struct exec *e, const struct rd_cmd *const *cmds, uint32_t n)
{
	const struct rd_config *cfg = &e->dev->instance->config;
	struct exec_state start = e->s;
	rd_bin_clear(&e->bin);
	e->draw_count = 0;
	e->phase = PHASE_BIN;
	pass_immediate(e, cmds, n);
	struct exec_state end = e->s;

	VkRect2D area = end.area;
	uint32_t tw = cfg->tile_w, th = cfg->tile_h;
	uint32_t cols = (area.extent.width + tw - 1) / tw;
	uint32_t rows = (area.extent.height + th - 1) / th;
	e->tile_count = cols && rows ? cols * rows : 1;
	exec_region_start(e, cmds[0], area);
	/* the main phase of a pass waits for its own binning */
	e->frag_ns = max_u64(e->frag_ns, e->geom_ns);
	e->phase = PHASE_TILE;
	for (uint32_t t = 0; t < e->tile_count; t++) {
		e->s = start;
		e->tile_index = t;
		e->draw_next = 0;
		VkRect2D cell = {area.offset, {0, 0}};
		if (cols && rows) {
			cell.offset.x += (int32_t)(t % cols * tw);
			cell.offset.y += (int32_t)(t / cols * th);
			cell.extent.width = tw;
			cell.extent.height = th;
			cell = exec_rect_intersect(cell, area);
			exec_region_tile(e, t % cols, t / cols);
		}
		e->tile = cell;
		exec_charge(e, COST_TILE_NS);
		pass_immediate(e, cmds, n);
		uint64_t stored = tile_store_bytes(e);
		exec_charge(e, stored / COST_BYTES_PER_NS);
		e->q->counters.tile_store_bytes += stored;
	}
	exec_region_write(e);
	e->s = end;
	e->phase = PHASE_DIRECT;
}

typedef void (*render_pass_fn)(struct exec *e, const struct rd_cmd *const *cmds, uint32_t n);

/* The one place the architecture is chosen, per render pass instance (as
 * turnip's use_sysmem_rendering): the tiler's path for every pass on the
 * tiler, and on the immediate architecture for a pass that asks for
 * counters by region, which are counted per tile. */
static render_pass_fn choose_architecture(const struct exec *e, const struct rd_cmd *begin)
{
	const struct rd_region_request *req = begin->type == RD_CMD_BEGIN_RENDER_PASS
						      ? begin->u.begin_rp.regions
						      : begin->u.begin_rendering.regions;
	return tiler(e) || req ? pass_tiled : pass_immediate;
}

static void execute(struct exec *e, struct rd_command_buffer *cb)
{
	for (uint32_t i = 0; i < cb->cmd_count; i++) {
		const struct rd_cmd *c = &cb->cmds[i];
		if (c->type != RD_CMD_BEGIN_RENDER_PASS && c->type != RD_CMD_BEGIN_RENDERING) {
			run(e, c);
			continue;
		}
		enum rd_cmd_type last = c->type == RD_CMD_BEGIN_RENDER_PASS ? RD_CMD_END_RENDER_PASS
									    : RD_CMD_END_RENDERING;
		struct pass_list l = {0};
		for (; i < cb->cmd_count; i++) {
			const struct rd_cmd *x = &cb->cmds[i];
			if (x->type == RD_CMD_EXECUTE_COMMANDS)
				for (uint32_t k = 0; k < x->u.execute.count; k++)
					pass_add_secondary(&l, x->u.execute.cbs[k]);
			else
				pass_add(&l, x, false);
			if (x->type == last)
				break;
		}
		e->pass_in_secondary = l.in_secondary;
		choose_architecture(e, l.v[0])(e, l.v, l.n);
		e->pass_in_secondary = NULL;
		free(l.v);
		free(l.in_secondary);
	}
}

void rd_execute_command_buffer(struct rd_queue *q, struct rd_command_buffer *cb,
			       uint32_t counter_pass)
{
	struct exec *e = calloc(1, sizeof(*e));
	if (!e) {
		rd_log("out of memory executing a command buffer");
		return;
	}
	e->q = q;
	e->dev = q->base.device;
	e->counter_pass = counter_pass;
	/* the fault: the device powers down after 50 ms of idle and its
	 * clock starts again from RD_CLOCK_START (RD_CLOCK=host) */
	uint64_t idle_since = atomic_load(&e->dev->idle_since_ns);
	if (rd_fault(&e->dev->instance->config, RD_FAULT_CLOCK_RESET_IDLE) && idle_since &&
	    rd_now_ns() - idle_since > 50000000u)
		e->dev->clock_host_base = rd_now_ns();
	e->cb_start_ns = rd_clock_ns(e->dev);
	/* the fault: the command buffer's resets run first, at submission */
	if (rd_fault(&e->dev->instance->config, RD_FAULT_RESET_HOISTED)) {
		for (uint32_t i = 0; i < cb->cmd_count; i++)
			if (cb->cmds[i].type == RD_CMD_RESET_QUERY_POOL)
				run(e, &cb->cmds[i]);
		e->resets_hoisted = true;
	}
	if (rd_fault(&e->dev->instance->config, RD_FAULT_COND_PREDICATE_EARLY))
		for (uint32_t i = 0, k = 0; i < cb->cmd_count && k < 8; i++)
			if (cb->cmds[i].type == RD_CMD_BEGIN_CONDITIONAL_RENDERING) {
				e->early_value[k] = predicate_value(e, &cb->cmds[i]);
				e->early_cmd[k++] = &cb->cmds[i];
			}
	e->s.line_width = 1.0f;
	e->s.color_write_enable = ~0u;
	e->geom_ns = e->frag_ns = rd_clock_ns(e->dev);
	execute(e, cb);
	if (rd_fault(&e->dev->instance->config, RD_FAULT_LARGE_RESET_LATE))
		for (uint32_t i = 0; i < cb->cmd_count; i++)
			if (cb->cmds[i].type == RD_CMD_RESET_QUERY_POOL &&
			    cb->cmds[i].u.reset_query.count > 1024)
				rd_query_reset(&e->dev->instance->config, cb->cmds[i].u.reset_query.pool,
					       cb->cmds[i].u.reset_query.first,
					       cb->cmds[i].u.reset_query.count);
	if (tiler(e))
		rd_clock_advance_to(e->dev, max_u64(e->geom_ns, e->frag_ns));
	rd_bin_free(&e->bin);
	free(e->draws);
	free(e->active);
	/* Results become available a while after the work, but before the
	 * fence that follows it. */
	uint64_t now = rd_now_ns();
	if (e->available_at_ns > now) {
		struct timespec ts = {(time_t)((e->available_at_ns - now) / 1000000000u),
				      (long)((e->available_at_ns - now) % 1000000000u)};
		nanosleep(&ts, NULL);
	}
	atomic_store(&e->dev->idle_since_ns, rd_now_ns());
	free(e);
}
