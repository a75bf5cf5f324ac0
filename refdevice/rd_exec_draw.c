/* The executor's draws and dispatches (rd_draw.c runs the pipeline), the
 * indirect ones, and what their shaders see: descriptors, device addresses,
 * input attachments. */
#include "rd_exec.h"

/* Descriptors seen by shaders ------------------------------------------------*/

struct env_ctx {
	struct exec *e;
	int bind; /* 0 graphics, 1 compute */
	struct rd_buffer_range ranges[4];
	int next;
};

static const struct rd_buffer_range *env_buffer(void *user, uint32_t set, uint32_t binding,
						uint32_t element)
{
	struct env_ctx *c = user;
	if (set >= RD_MAX_SETS)
		return NULL;
	struct rd_descriptor_set *ds = c->e->s.sets[c->bind][set];
	const struct rd_descriptor_slot *s = rd_descriptor_lookup(ds, binding, element);
	if (!s || !s->buffer || !s->buffer->data)
		return NULL;
	/* A dynamic descriptor: its offset plus the one bound with the set;
	 * the range stays (spec "Descriptor Set Binding"). */
	int k = rd_descriptor_dynamic_index(ds, binding, element);
	uint64_t offset = s->offset + (k >= 0 && k < RD_MAX_DYNAMIC ? c->e->s.dyn[c->bind][set][k] : 0);
	if (offset > s->buffer->size)
		return NULL;
	struct rd_buffer_range *r = &c->ranges[c->next++ & 3];
	r->data = s->buffer->data + offset;
	r->size = s->range < s->buffer->size - offset ? s->range : s->buffer->size - offset;
	return r;
}

/* PhysicalStorageBuffer accesses: the device's bound buffers. */
static bool env_address(void *user, uint64_t addr, uint64_t len, struct rd_address_range *r)
{
	struct env_ctx *c = user;
	return rd_device_address_range(c->e->dev, addr, len, r);
}

/* Input attachments (spec "Fragment Input Attachment Interface"): index i
 * reads pInputAttachments[i] of the current subpass, at the view's layer. */
static bool env_input(void *user, uint32_t index, int32_t x, int32_t y, uint32_t view,
		      uint32_t sample, uint32_t out[4])
{
	struct env_ctx *c = user;
	const struct exec *e = c->e;
	if (!e->s.pass || !e->s.fb || index >= RD_MAX_INPUT)
		return false;
	const struct rd_subpass *sp = &e->s.pass->subpasses[e->s.subpass];
	if (index >= sp->input_count || sp->input[index] >= e->s.fb->attachment_count)
		return false;
	const struct rd_image_view *v = e->s.fb->attachments[sp->input[index]];
	const struct rd_image *img = v ? v->image : NULL;
	uint32_t layer = v ? v->base_layer + (e->s.view_mask ? view : 0) : 0;
	if (!img || !img->data || x < 0 || y < 0 || (uint32_t)x >= img->extent.width ||
	    (uint32_t)y >= img->extent.height || layer >= img->layers || sample >= img->samples)
		return false;
	const uint8_t *t = rd_image_texel(img, (uint32_t)x, (uint32_t)y, layer, sample);
	memset(out, 0, 4 * sizeof(*out));
	if (img->fmt->color) {
		if (img->fmt->is_uint || img->fmt->is_sint) {
			rd_format_load_color_u(img->fmt, t, out);
		} else {
			float f[4];
			rd_format_load_color(img->fmt, t, f);
			memcpy(out, f, sizeof(f));
		}
	} else if (v->aspects & VK_IMAGE_ASPECT_DEPTH_BIT && img->fmt->depth) {
		float d = rd_format_load_depth(img->fmt, t);
		memcpy(&out[0], &d, sizeof(d));
	} else if (img->fmt->stencil) {
		out[0] = rd_format_load_stencil(img->fmt, t);
	}
	return true;
}

/* Draws and dispatches ---------------------------------------------------------------*/

/* A draw's counters into the sink; every field is a uint64_t counter. */
_Static_assert(sizeof(struct rd_draw_counters) % sizeof(uint64_t) == 0, "counters are uint64_t");
static void add_counters(struct rd_counters *total, const struct rd_draw_counters *d)
{
	uint64_t *t = (uint64_t *)&total->draw;
	const uint64_t *x = (const uint64_t *)d;
	for (size_t i = 0; i < sizeof(*d) / sizeof(uint64_t); i++)
		t[i] += x[i];
}

/* The state a draw runs with, from the pipeline, dynamic state and the
 * render pass instance; env and ec are the caller's. */
static bool draw_state(struct exec *e, struct rd_graphics_state *gs, struct rd_exec_env *env,
		       struct env_ctx *ec)
{
	struct rd_pipeline *p = e->s.gfx;
	if (!p || !e->s.in_pass) {
		rd_log("draw without a graphics pipeline or outside a render pass: skipped");
		return false;
	}
	*ec = (struct env_ctx){.e = e, .bind = 0};
	*env = (struct rd_exec_env){.push_constants = e->s.push, .buffer = env_buffer,
				    .input_attachment = env_input, .address = env_address, .user = ec};
	*gs = p->gs;
	struct rd_graphics_state *const g = gs;
	g->env = env;
	if (p->dynamic_mask & RD_DYN_VIEWPORT)
		g->viewport = e->s.viewport;
	if (p->dynamic_mask & RD_DYN_SCISSOR)
		g->scissor = e->s.scissor;
	if (p->dynamic_mask & RD_DYN_LINE_WIDTH)
		g->line_width = e->s.line_width;
	/* "VK_FALSE ... no color writes to the attachment" (as mask 0) */
	if (p->dynamic_mask & RD_DYN_COLOR_WRITE_ENABLE)
		for (uint32_t i = 0; i < RD_MAX_COLOR; i++)
			if (!(e->s.color_write_enable >> i & 1))
				g->color_write_mask[i] = 0;
	if (p->dynamic_mask & RD_DYN_DEPTH_BOUNDS) {
		g->min_depth_bounds = e->s.depth_bounds[0];
		g->max_depth_bounds = e->s.depth_bounds[1];
	}
	if (p->dynamic_mask & RD_DYN_STENCIL_COMPARE) {
		g->front.compareMask = e->s.stencil_compare[0];
		g->back.compareMask = e->s.stencil_compare[1];
	}
	if (p->dynamic_mask & RD_DYN_STENCIL_WRITE) {
		g->front.writeMask = e->s.stencil_write[0];
		g->back.writeMask = e->s.stencil_write[1];
	}
	if (p->dynamic_mask & RD_DYN_STENCIL_REFERENCE) {
		g->front.reference = e->s.stencil_ref[0];
		g->back.reference = e->s.stencil_ref[1];
	}
	for (uint32_t b = 0; b < RD_MAX_BINDINGS; b++) {
		struct rd_buffer *vb = e->s.vertex_buffers[b];
		g->bindings[b].stride = p->binding_strides[b];
		g->bindings[b].rate = p->binding_rates[b];
		if (vb && vb->data && e->s.vertex_offsets[b] <= vb->size) {
			g->bindings[b].data = vb->data + e->s.vertex_offsets[b];
			g->bindings[b].size = vb->size - e->s.vertex_offsets[b];
		}
	}
	g->render_area = e->s.area;
	g->color_count = e->s.color_count;
	for (uint32_t c = 0; c < e->s.color_count; c++)
		g->color[c] = exec_attachment_of(e->s.color[c]);
	g->depth_stencil = exec_attachment_of(e->s.depth);
	g->view_mask = e->s.view_mask;
	if (e->s.xfb_active) {
		/* "The sizes of the transform feedback buffers are defined by the
		 * pSizes parameter ... or the size of the bound buffer, whichever
		 * is the lesser." */
		for (uint32_t b = 0; b < RD_MAX_XFB_BUFFERS; b++) {
			struct rd_buffer *xb = e->s.xfb_buffers[b];
			e->s.xfb.data[b] = NULL;
			if (!xb || !xb->data || e->s.xfb_offsets[b] > xb->size)
				continue;
			VkDeviceSize rest = xb->size - e->s.xfb_offsets[b];
			e->s.xfb.data[b] = xb->data + e->s.xfb_offsets[b];
			e->s.xfb.size[b] = e->s.xfb_sizes[b] < rest ? e->s.xfb_sizes[b] : rest;
		}
		g->xfb = &e->s.xfb;
	}
	return true;
}

static void charge_fragments(struct exec *e, const struct rd_draw_counters *dc)
{
	uint64_t samples = 0;
	for (int v = 0; v < RD_MAX_VIEWS; v++)
		samples += dc->samples_passed[v] / 4;
	exec_charge_shader(e, rd_fs_invocations(dc) * COST_FRAGMENT_NS);
	exec_charge(e, samples * COST_FRAGMENT_NS);
}

/* Shader instrumentation (VK_ARM_shader_instrumentation): per-block entry
 * counts for a stage of an instrumented pipeline while an object is
 * active, NULL otherwise; instr_capture adds them to the object. */
static uint64_t *instr_counts(const struct exec *e, const struct rd_pipeline *p,
			      const struct rd_shader *s)
{
	if (!e->instr || !p->instrumented || !s)
		return NULL;
	uint64_t *c = calloc(rd_shader_block_count(s) + 1, sizeof(*c));
	if (!c)
		rd_log("shader instrumentation: out of memory; metrics dropped");
	return c;
}

static void instr_capture(struct exec *e, VkShaderStageFlagBits stage, const struct rd_shader *s,
			  const struct rd_entry_info *info, uint64_t *counts)
{
	if (!counts)
		return;
	rd_instr_capture(e->dev, e->instr, e->instr_index, stage, s, info, counts);
	free(counts);
}

/* Injected faults in a draw's counters (RD_FAULT; rd.h says the rule each
 * breaks).  dp is NULL in a tile (fragment work only). */
static void draw_faults(struct exec *e, const struct rd_graphics_state *g,
			const struct rd_draw_params *dp, struct rd_draw_counters *dc)
{
	const struct rd_config *cfg = &e->dev->instance->config;
	if (cfg->fault == RD_FAULT_NONE)
		return;
	/* a subpass with no attachments at all counted at the framebuffer's
	 * sample count (1), not the pipeline's rasterizationSamples */
	bool no_attachments = !e->s.depth;
	for (uint32_t c = 0; c < e->s.color_count && c < RD_MAX_COLOR; c++)
		no_attachments &= !e->s.color[c];
	for (int v = 0; v < RD_MAX_VIEWS; v++) {
		if (rd_fault(cfg, RD_FAULT_OCC_PIXELS) && g->samples > 1)
			dc->samples_passed[v] /= g->samples;
		if (rd_fault(cfg, RD_FAULT_OCC_NO_ATTACHMENTS_SAMPLES) && no_attachments &&
		    g->samples > 1)
			dc->samples_passed[v] /= g->samples;
		if (g->tcs && rd_fault(cfg, RD_FAULT_OCC_TESS_DROPPED))
			dc->samples_passed[v] = 0;
		uint64_t shaded = dc->fs_invocations[v] * (g->sample_shading ? 1 : g->samples);
		if (rd_fault(cfg, RD_FAULT_OCC_DISCARDED) && dc->samples_passed[v] < shaded)
			dc->samples_passed[v] = shaded;
	}
	if (g->gs && rd_fault(cfg, RD_FAULT_GS_INVOCATIONS_ONCE))
		dc->gs_invocations /= g->gs_info.gs_invocations;
	if (rd_fault(cfg, RD_FAULT_GS_PRIMITIVES_RESTART))
		dc->gs_primitives = dc->gs_primitives_first_strip;
	if (g->gs && dp && rd_fault(cfg, RD_FAULT_CLIP_BEFORE_GS))
		dc->clipping_invocations = dc->ia_primitives;
	if (g->tcs && dp && rd_fault(cfg, RD_FAULT_TESS_PATCHES_PER_DRAW))
		dc->tcs_patches = dc->tcs_patches != 0;
	if (rd_fault(cfg, RD_FAULT_TES_COUNTS_PRIMITIVES))
		dc->tes_invocations = dc->tess_primitives;
	const uint32_t *tl = g->task_info.local_size, *ml = g->mesh_info.local_size;
	if (g->task && rd_fault(cfg, RD_FAULT_TASK_PER_WORKGROUP))
		dc->task_invocations /= (uint64_t)tl[0] * tl[1] * tl[2];
	if (g->mesh && rd_fault(cfg, RD_FAULT_MESH_PER_WORKGROUP))
		dc->mesh_invocations /= (uint64_t)ml[0] * ml[1] * ml[2];
	if (g->mesh && rd_fault(cfg, RD_FAULT_MESH_PRIMITIVES_CULLED))
		dc->mesh_primitives = dc->mesh_primitives_emitted;
	if (rd_fault(cfg, RD_FAULT_STREAMS_MERGED))
		for (int s = 1; s < RD_MAX_STREAMS; s++) {
			dc->primitives_generated[0] += dc->primitives_generated[s];
			dc->primitives_generated[s] = 0;
		}
	/* a draw of another pipeline shape than the one before it in the
	 * command stream: its primitives generated lost (the vertex work
	 * only: dp is NULL in a tile) */
	int shape = g->gs ? 2 : 1;
	bool switched = dp && e->fault_prev_shape && shape != e->fault_prev_shape;
	if (dp)
		e->fault_prev_shape = shape;
	/* the rasterization stream (0) of a geometry shader, not captured
	 * while another stream is: its primitives generated left out */
	bool stream0_captured = false, other_captured = false;
	for (uint32_t k = 0; g->gs && k < g->gs_info.xfb_output_count; k++) {
		stream0_captured |= g->gs_info.xfb_outputs[k].stream == 0;
		other_captured |= g->gs_info.xfb_outputs[k].stream != 0;
	}
	if (rd_fault(cfg, RD_FAULT_PGQ_UNCAPTURED_RASTER) && e->s.xfb_active && other_captured &&
	    !stream0_captured)
		dc->primitives_generated[0] = 0;
	for (int s = 0; s < RD_MAX_STREAMS; s++) {
		if (rd_fault(cfg, RD_FAULT_PGQ_SHAPE_SWITCH) && switched)
			dc->primitives_generated[s] = 0;
		if (rd_fault(cfg, RD_FAULT_PGQ_DISCARD) && g->rasterizer_discard)
			dc->primitives_generated[s] = 0;
		/* the stream query left off when tessellation is the last
		 * pre-rasterization stage (the capture itself happens) */
		if (rd_fault(cfg, RD_FAULT_XFB_QUERY_AFTER_TESS) && g->tes && !g->gs)
			dc->xfb_primitives_written[s] = dc->xfb_primitives_needed[s] = 0;
		if (rd_fault(cfg, RD_FAULT_XFB_WRITTEN_FULL))
			dc->xfb_primitives_written[s] = dc->xfb_primitives_needed[s];
	}
	uint64_t *vertex_side[] = {&dc->ia_vertices, &dc->ia_primitives, &dc->vs_invocations,
				   &dc->clipping_invocations, &dc->clipping_primitives};
	for (size_t i = 0; dp && i < sizeof(vertex_side) / sizeof(vertex_side[0]); i++) {
		if (rd_fault(cfg, RD_FAULT_STATS_INSTANCE_ONCE) && dp->instance_count > 1)
			*vertex_side[i] /= dp->instance_count;
		if (rd_fault(cfg, RD_FAULT_STATS_INDIRECT) && e->in_indirect)
			*vertex_side[i] = 0;
	}
	/* instances of an adjacency topology packed into one: the input
	 * assembly primitives and clipping of the first alone */
	bool adjacency = g->topology >= VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY &&
			 g->topology <= VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY;
	if (dp && adjacency && dp->instance_count > 1 &&
	    rd_fault(cfg, RD_FAULT_STATS_ADJ_INSTANCES)) {
		dc->ia_primitives /= dp->instance_count;
		dc->clipping_invocations /= dp->instance_count;
	}
}

/* A draw: straight through, or (tiler, binning phase) its vertex work,
 * the primitives kept for the main phase. */
void exec_draw(struct exec *e, const struct rd_draw_params *dp)
{
	struct rd_graphics_state g;
	struct rd_exec_env env;
	struct env_ctx ec;
	if (!draw_state(e, &g, &env, &ec))
		return;
	struct rd_draw_params d = *dp;
	if (d.indexed) {
		struct rd_buffer *ib = e->s.index_buffer;
		if (!ib || !ib->data || e->s.index_offset > ib->size) {
			rd_log("indexed draw without an index buffer: skipped");
			return;
		}
		d.index_data = ib->data + e->s.index_offset;
		d.index_size = ib->size - e->s.index_offset;
		d.index_type = e->s.index_type;
	}
	struct rd_draw_counters dc;
	memset(&dc, 0, sizeof(dc));
	char err[256];
	size_t first = e->bin.prim_count;
	if (e->phase == PHASE_BIN)
		g.bin = &e->bin;
	struct rd_pipeline *p = e->s.gfx;
	/* Every stage that runs is instrumented; the fault keeps to the
	 * vertex and fragment stages, as the refdevice did before it ran
	 * tessellation, geometry and mesh shaders.  The tiler's binning phase
	 * runs no fragment shader. */
	VkShaderStageFlags counted = rd_fault(&e->dev->instance->config, RD_FAULT_INSTR_VS_FS_ONLY)
					     ? VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT
					     : VK_SHADER_STAGE_ALL_GRAPHICS | VK_SHADER_STAGE_TASK_BIT_EXT |
						       VK_SHADER_STAGE_MESH_BIT_EXT;
	if (e->phase == PHASE_BIN)
		counted &= ~(VkShaderStageFlags)VK_SHADER_STAGE_FRAGMENT_BIT;
	struct {
		VkShaderStageFlagBits stage;
		const struct rd_shader *s;
		const struct rd_entry_info *info;
		uint64_t **blocks;
	} stages[] = {
		{VK_SHADER_STAGE_TASK_BIT_EXT, p->task, &p->task_info, &g.task_blocks},
		{VK_SHADER_STAGE_MESH_BIT_EXT, p->mesh, &p->mesh_info, &g.mesh_blocks},
		{VK_SHADER_STAGE_VERTEX_BIT, p->vs, &p->vs_info, &g.vs_blocks},
		{VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, p->tcs, &p->tcs_info, &g.tcs_blocks},
		{VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, p->tes, &p->tes_info, &g.tes_blocks},
		{VK_SHADER_STAGE_GEOMETRY_BIT, p->gs_shader, &p->gs_info, &g.gs_blocks},
		{VK_SHADER_STAGE_FRAGMENT_BIT, p->fs, &p->fs_info, &g.fs_blocks},
	};
	const size_t nstages = sizeof(stages) / sizeof(stages[0]);
	for (size_t i = 0; i < nstages; i++)
		if (stages[i].stage & counted)
			*stages[i].blocks = instr_counts(e, p, stages[i].s);
	if (rd_draw(&g, &d, &dc, err, sizeof(err)) != 0)
		rd_log("draw: %s", err);
	for (size_t i = 0; i < nstages; i++)
		instr_capture(e, stages[i].stage, stages[i].s, stages[i].info, *stages[i].blocks);
	draw_faults(e, &g, &d, &dc);
	add_counters(&e->q->counters, &dc);
	e->q->counters.draws++;
	exec_charge_shader(e, dc.vs_invocations * COST_VERTEX_NS +
			       (dc.task_invocations + dc.mesh_invocations) * COST_INVOCATION_NS);
	charge_fragments(e, &dc);
	if (e->phase != PHASE_BIN)
		return;
	exec_charge(e, (e->bin.prim_count - first) * COST_BIN_NS);
	if (e->draw_count == e->draw_cap) {
		uint32_t cap = e->draw_cap ? 2 * e->draw_cap : 64;
		struct bin_draw *n = realloc(e->draws, cap * sizeof(*n));
		if (!n) {
			rd_log("binning: out of memory");
			return;
		}
		e->draws = n;
		e->draw_cap = cap;
	}
	e->draws[e->draw_count++] = (struct bin_draw){e->cmd_pos, first, e->bin.prim_count};
}

/* The main phase of the draws the binning phase recorded for the command
 * at this position, within the tile: the tile is the scissor. */
void exec_draw_tile(struct exec *e)
{
	struct rd_graphics_state g;
	struct rd_exec_env env;
	struct env_ctx ec;
	while (e->draw_next < e->draw_count && e->draws[e->draw_next].pos == e->cmd_pos) {
		const struct bin_draw *bd = &e->draws[e->draw_next++];
		if (!draw_state(e, &g, &env, &ec))
			continue;
		g.scissor = exec_rect_intersect(g.scissor, e->tile);
		struct rd_draw_counters dc;
		memset(&dc, 0, sizeof(dc));
		char err[256];
		struct rd_pipeline *p = e->s.gfx;
		g.fs_blocks = instr_counts(e, p, p->fs);
		if (rd_draw_tile(&g, &e->bin, bd->first, bd->end, &dc, err, sizeof(err)) != 0)
			rd_log("draw: %s", err);
		instr_capture(e, VK_SHADER_STAGE_FRAGMENT_BIT, p->fs, &p->fs_info, g.fs_blocks);
		draw_faults(e, &g, NULL, &dc);
		add_counters(&e->q->counters, &dc);
		charge_fragments(e, &dc);
	}
}

void exec_dispatch(struct exec *e, const uint32_t base[3], const uint32_t groups[3])
{
	struct rd_pipeline *p = e->s.compute;
	if (!p || !p->cs) {
		rd_log("dispatch without a compute pipeline: skipped");
		return;
	}
	struct env_ctx ec = {.e = e, .bind = 1};
	struct rd_exec_env env = {.push_constants = e->s.push, .buffer = env_buffer,
				  .address = env_address, .user = &ec};
	const uint32_t *ls = p->cs_info.local_size;
	uint64_t count = 0;
	uint64_t *blocks = instr_counts(e, p, p->cs);
	/* Workgroup variables: one zeroed block shared by a workgroup's
	 * invocations, which run as a group (in lockstep between control
	 * barriers when the shader has any, rd_shader_run_group). */
	size_t wg_size = p->cs_info.workgroup_memory_size;
	uint64_t n = (uint64_t)ls[0] * ls[1] * ls[2];
	uint8_t *wg_mem = wg_size ? malloc(wg_size) : NULL;
	struct rd_invocation *inv = n <= 65536 ? calloc(n, sizeof(*inv)) : NULL;
	if ((wg_size && !wg_mem) || !inv) {
		rd_log("dispatch: out of memory for a workgroup of %llu invocations and %zu bytes",
		       (unsigned long long)n, wg_size);
		free(wg_mem);
		free(inv);
		free(blocks);
		return;
	}
	for (uint32_t gz = 0; gz < groups[2]; gz++)
		for (uint32_t gy = 0; gy < groups[1]; gy++)
			for (uint32_t gx = 0; gx < groups[0]; gx++) {
				if (wg_mem)
					memset(wg_mem, 0, wg_size);
				uint32_t wg[3] = {base[0] + gx, base[1] + gy, base[2] + gz};
				rd_shader_workgroup_invocations(inv, ls, wg, groups, wg_mem);
				for (uint32_t i = 0; i < n; i++)
					inv[i].block_counts = blocks;
				char err[256];
				if (rd_shader_run_group(p->cs, &p->cs_info, &env, inv, (uint32_t)n, err,
							sizeof(err)) != 0) {
					rd_log("dispatch: %s", err);
					for (uint32_t i = 0; i < n; i++)
						if (inv[i].hung) {
							rd_device_lose(e->dev, "a compute shader did not end "
									       "(the step limit)");
							break;
						}
					goto done;
				}
				count += n;
			}
done:
	free(wg_mem);
	free(inv);
	instr_capture(e, VK_SHADER_STAGE_COMPUTE_BIT, p->cs, &p->cs_info, blocks);
	e->q->counters.cs_invocations +=
		rd_fault(&e->dev->instance->config, RD_FAULT_CS_PER_GROUP)
			? (uint64_t)groups[0] * groups[1] * groups[2]
			: count;
	e->q->counters.dispatches++;
	exec_charge_shader(e, count * COST_INVOCATION_NS);
}

/* The indirect draws: drawCount records, or for the *IndirectCount
 * draws the count read from the count buffer, at most maxDrawCount (spec
 * "Programmable Primitive Shading": "the actual number of executed draw
 * calls is the minimum of the count specified in countBuffer and
 * maxDrawCount"). */
void exec_draw_indirect(struct exec *e, const struct rd_cmd *c)
{
	bool indexed = c->type == RD_CMD_DRAW_INDEXED_INDIRECT || c->type == RD_CMD_DRAW_INDEXED_INDIRECT_COUNT;
	bool mesh = c->type == RD_CMD_DRAW_MESH_INDIRECT || c->type == RD_CMD_DRAW_MESH_INDIRECT_COUNT;
	uint32_t words = indexed ? 5 : mesh ? 3 : 4, count = c->u.indirect.count;
	if (c->u.indirect.count_buffer) {
		uint32_t n = 0;
		if (buffer_range_ok(c->u.indirect.count_buffer, c->u.indirect.count_offset, 4))
			memcpy(&n, c->u.indirect.count_buffer->data + c->u.indirect.count_offset, 4);
		count = n < count ? n : count;
	}
	for (uint32_t i = 0; i < count; i++) {
		VkDeviceSize off = c->u.indirect.offset + (VkDeviceSize)i * c->u.indirect.stride;
		if (!buffer_range_ok(c->u.indirect.buffer, off, words * 4))
			break;
		uint32_t a[5];
		memcpy(a, c->u.indirect.buffer->data + off, words * 4);
		struct rd_draw_params dp = {.indexed = indexed, .count = a[0],
					    .instance_count = a[1], .first = a[2]};
		if (mesh) {
			dp = (struct rd_draw_params){.groups = {a[0], a[1], a[2]}};
		} else if (indexed) {
			dp.vertex_offset = (int32_t)a[3];
			dp.first_instance = a[4];
		} else {
			dp.first_instance = a[3];
		}
		dp.draw_index = i;
		e->in_indirect = true;
		exec_draw(e, &dp);
		e->in_indirect = false;
	}
}
