/* An invocation's interface (inputs, builtins, outputs; geometry shader
 * emits, mesh and task outputs) and the runs: rd_shader_run() for one
 * invocation, rd_shader_run_group() for a group that shares memory and
 * meets at control barriers; mesh and tessellation outputs read back. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec.h"

const struct rd_ins *rd_exec_fault(struct rd_state *st, const struct rd_ins *in, const char *fmt, ...)
{
	st->status = RD_RUN_FAULT;
	if (st->errsize == 0)
		return NULL;
	int n = snprintf(st->err, st->errsize, "word %u: %s: ", in->word, rd_spirv_ins_name(in));
	if (n < 0 || (size_t)n >= st->errsize)
		return NULL;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(st->err + n, st->errsize - (size_t)n, fmt, ap);
	va_end(ap);
	return NULL;
}

/* ------------------------------------------------------------------------ */
/* An invocation's interface                                                */

/* The vertices per-vertex inputs read: a geometry shader's input
 * primitive, a control shader's input patch, an evaluation shader's output
 * patch of the control shader.  Elements past them read 0. */
struct vertex_source {
	const struct rd_stage_vertex *v;
	uint32_t n;
};

static struct vertex_source vertex_source(const struct rd_entry *e, const struct rd_invocation *inv)
{
	switch (e->info.stage) {
	case RD_STAGE_GEOMETRY: return (struct vertex_source){inv->gs_in, e->info.gs_input_vertices};
	case RD_STAGE_TESS_CONTROL: return (struct vertex_source){inv->gs_in, inv->patch_vertices};
	case RD_STAGE_TESS_EVAL: return (struct vertex_source){inv->patch->vtx, inv->patch->vertices};
	default: return (struct vertex_source){NULL, 0};
	}
}

static void builtins_in(const struct rd_program *p, const struct rd_entry *e, union rd_word *R,
			const struct rd_invocation *inv, struct vertex_source src)
{
	for (uint32_t i = 0; i < e->bin_count; i++) {
		const struct rd_io_builtin *b = &p->builtins[e->bin_first + i];
		union rd_word *d = &R[b->slot];
		const uint32_t *v3 = NULL;
		bool have = b->vtx < src.n;
		switch ((enum rd_builtin_io)b->kind) {
		case RD_BI_VERTEX_INDEX: d->u = inv->vertex_index; break;
		case RD_BI_INSTANCE_INDEX: d->u = inv->instance_index; break;
		case RD_BI_BASE_VERTEX: d->u = inv->base_vertex; break;
		case RD_BI_BASE_INSTANCE: d->u = inv->base_instance; break;
		case RD_BI_DRAW_INDEX: d->u = inv->draw_index; break;
		case RD_BI_VIEW_INDEX: d->u = inv->view_index; break;
		case RD_BI_FRAG_COORD: memcpy(d, inv->frag_coord, 16); break;
		case RD_BI_FRONT_FACING: d->u = inv->front_facing; break;
		case RD_BI_SAMPLE_ID: d->u = inv->sample_id; break;
		case RD_BI_SAMPLE_POSITION: memcpy(d, inv->sample_position, 8); break;
		case RD_BI_SAMPLE_MASK_IN: d->u = inv->sample_mask_in; break;
		case RD_BI_GLOBAL_ID: v3 = inv->global_id; break;
		case RD_BI_LOCAL_ID: v3 = inv->local_id; break;
		case RD_BI_WORKGROUP_ID: v3 = inv->workgroup_id; break;
		case RD_BI_NUM_WORKGROUPS: v3 = inv->num_workgroups; break;
		case RD_BI_LOCAL_INDEX: d->u = inv->local_index; break;
		case RD_BI_IN_POSITION:
			if (have)
				memcpy(d, src.v[b->vtx].position, 16);
			break;
		case RD_BI_IN_POINT_SIZE:
			if (have)
				d->f = src.v[b->vtx].point_size;
			break;
		case RD_BI_INVOCATION_ID: d->u = inv->invocation_id; break;
		case RD_BI_PRIMITIVE_ID: d->u = inv->primitive_id; break;
		case RD_BI_PATCH_VERTICES: d->u = src.n; break;
		case RD_BI_TESS_COORD: memcpy(d, inv->tess_coord, 12); break;
		case RD_BI_TESS_LEVEL_OUTER: memcpy(d, inv->patch->tess_outer, 16); break;
		case RD_BI_TESS_LEVEL_INNER: memcpy(d, inv->patch->tess_inner, 8); break;
		default: break;
		}
		if (v3)
			memcpy(d, v3, 12);
	}
}

static void builtins_out(const struct rd_program *p, const struct rd_entry *e, const union rd_word *R,
			 struct rd_invocation *inv)
{
	for (uint32_t i = 0; i < e->bout_count; i++) {
		const struct rd_io_builtin *b = &p->builtins[e->bout_first + i];
		const union rd_word *s = &R[b->slot];
		switch ((enum rd_builtin_io)b->kind) {
		case RD_BI_POSITION: memcpy(inv->position, s, 16); break;
		case RD_BI_POINT_SIZE: inv->point_size = s->f; break;
		case RD_BI_FRAG_DEPTH: inv->frag_depth = s->f; break;
		case RD_BI_SAMPLE_MASK_OUT: inv->sample_mask_out = s->u; break;
		default: break;
		}
	}
}

static void outputs_out(const struct rd_program *p, const struct rd_entry *e, const union rd_word *R,
			struct rd_invocation *inv)
{
	for (uint32_t i = 0; i < e->out_count; i++) {
		const struct rd_io_loc *l = &p->locs[e->out_first + i];
		memcpy(inv->out[l->loc], &R[l->slot], (size_t)l->n * 4);
	}
	builtins_out(p, e, R, inv);
}

/* Geometry shaders (spec "Geometry Shading"): OpEmitVertex and
 * OpEmitStreamVertex (in->a the stream) hand the current output values to
 * the pipeline as one vertex; OpEndPrimitive and OpEndStreamPrimitive end
 * the current output strip.  The values stay in the variables (the spec
 * makes them undefined after an emit: keeping them is one choice). */
const struct rd_ins *rd_ex_emit_vertex(struct rd_state *st, const struct rd_ins *in)
{
	const struct rd_entry *e = &st->p->entries[st->entry];
	struct rd_invocation *inv = st->inv;
	if (!inv->emit)
		return rd_exec_fault(st, in, "the pipeline takes no vertices from this stage");
	outputs_out(st->p, e, st->R, inv);
	if (inv->emit(inv->emit_user, in->a, inv) != 0)
		return rd_exec_fault(st, in, "the pipeline failed on the vertex (see its message)");
	return in + 1;
}

const struct rd_ins *rd_ex_end_primitive(struct rd_state *st, const struct rd_ins *in)
{
	if (st->inv->end_primitive)
		st->inv->end_primitive(st->inv->emit_user, in->a);
	return in + 1;
}

/* Mesh shading (spec "Mesh Shading", SPV_EXT_mesh_shader).
 * OpSetMeshOutputsEXT (a, b: the vertex and primitive counts) sets how
 * many of the workgroup's outputs count; a count above OutputVertices or
 * OutputPrimitivesEXT is undefined behaviour, a fault here, and so is a
 * second call by one invocation ("at most once").  OpEmitMeshTasksEXT
 * (a, b, c: the workgroup counts; r: the payload's byte offset, or ~0u)
 * ends the task invocation, launching the counts' product of mesh
 * workgroups. */
HANDLER(set_mesh_outputs)
{
	const struct rd_entry_info *info = &st->p->entries[st->entry].info;
	struct rd_invocation *inv = st->inv;
	uint32_t v = st->R[in->a].u, p = st->R[in->b].u;
	if (inv->mesh_outputs_set)
		return rd_exec_fault(st, in, "OpSetMeshOutputsEXT executed twice by one invocation");
	if (v > info->mesh_max_vertices || p > info->mesh_max_primitives)
		return rd_exec_fault(st, in, "OpSetMeshOutputsEXT(%u, %u) beyond OutputVertices %u or "
			     "OutputPrimitivesEXT %u", v, p, info->mesh_max_vertices,
			     info->mesh_max_primitives);
	inv->mesh_vertex_count = v;
	inv->mesh_primitive_count = p;
	inv->mesh_outputs_set = true;
	return in + 1;
}

HANDLER(emit_mesh_tasks)
{
	struct rd_invocation *inv = st->inv;
	inv->task_groups[0] = st->R[in->a].u;
	inv->task_groups[1] = st->R[in->b].u;
	inv->task_groups[2] = st->R[in->c].u;
	inv->task_emitted = true;
	st->status = RD_RUN_DONE;
	return NULL;
}

/* ------------------------------------------------------------------------ */
/* Runs: one invocation, or a group that shares memory                      */

static int arg_error(char *err, size_t errsize, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int arg_error(char *err, size_t errsize, const char *fmt, ...)
{
	if (err && errsize) {
		int n = snprintf(err, errsize, "rd_shader_run: ");
		va_list ap;
		va_start(ap, fmt);
		if (n > 0 && (size_t)n < errsize)
			vsnprintf(err + n, errsize - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* What a run needs from its caller, checked before anything is allocated. */
static int check_run(const struct rd_program *p, const struct rd_entry_info *entry, const struct rd_exec_env *env,
		     const struct rd_invocation *inv, char *err, size_t errsize)
{
	if (err && errsize)
		err[0] = 0;
	if (!entry || !env || !inv || entry->entry_id >= p->nentries)
		return arg_error(err, errsize, "bad arguments (entry %u of %u)", entry ? entry->entry_id : 0,
				 p->nentries);
	const struct rd_entry *e = &p->entries[entry->entry_id];
	enum rd_stage stage = e->info.stage;
	if (e->uses_push_constants && !env->push_constants)
		return arg_error(err, errsize, "the entry point uses push constants, env has none");
	if (((uintptr_t)inv->workgroup_memory & 3u) != 0)
		return arg_error(err, errsize, "workgroup memory is not 4-byte aligned");
	if (stage == RD_STAGE_GEOMETRY && !inv->gs_in)
		return arg_error(err, errsize, "a geometry shader without input vertices");
	if (stage == RD_STAGE_TESS_CONTROL &&
	    ((!inv->gs_in && inv->patch_vertices) || inv->patch_vertices > RD_MAX_PATCH_VERTICES ||
	     (!inv->workgroup_memory && e->info.workgroup_memory_size)))
		return arg_error(err, errsize, "a tessellation control shader without its input patch "
				 "(at most %u control points) or shared output memory", RD_MAX_PATCH_VERTICES);
	if (stage == RD_STAGE_TESS_EVAL && (!inv->patch || inv->patch->vertices > RD_MAX_PATCH_VERTICES))
		return arg_error(err, errsize, "a tessellation evaluation shader without its patch");
	if (stage == RD_STAGE_MESH && !inv->workgroup_memory && e->info.workgroup_memory_size)
		return arg_error(err, errsize, "a mesh shader without its shared output memory");
	return 0;
}

/* Sets up one invocation's state R (p->nstate words) and st; returns the
 * first instruction. */
static const struct rd_ins *run_begin(const struct rd_program *p, const struct rd_entry_info *entry,
				      const struct rd_exec_env *env, struct rd_invocation *inv,
				      union rd_word *R, struct rd_state *st, char *err, size_t errsize)
{
	const struct rd_entry *e = &p->entries[entry->entry_id];
	memcpy(R, p->tmpl, (size_t)p->nstate * 4);
	*st = (struct rd_state){
		.R = R,
		.p = p,
		.code = p->code,
		.env = env,
		.inv = inv,
		.wg = inv->workgroup_memory ? inv->workgroup_memory : (uint8_t *)&R[p->wg_slot],
		.err = err,
		.errsize = err ? errsize : 0,
		.cache_region = RD_REGION_NONE,
		.entry = entry->entry_id,
	};
	struct vertex_source src = vertex_source(e, inv);
	bool arrayed = e->info.stage == RD_STAGE_GEOMETRY || e->info.stage == RD_STAGE_TESS_CONTROL ||
		       e->info.stage == RD_STAGE_TESS_EVAL;
	for (uint32_t i = 0; i < e->in_count; i++) {
		const struct rd_io_loc *l = &p->locs[e->in_first + i];
		const uint32_t *from = NULL;
		if (l->vtx == RD_IO_PATCH)
			from = inv->patch->var[l->loc];
		else if (arrayed)
			from = l->vtx < src.n ? src.v[l->vtx].var[l->loc] : NULL;
		else
			from = inv->in[l->loc];
		if (from)
			memcpy(&R[l->slot], from, (size_t)l->n * 4);
	}
	builtins_in(p, e, R, inv, src);
	/* Locations outside output_mask are left alone: clearing all of
	 * inv->out costs more than many a fragment shader. */
	memset(inv->position, 0, sizeof(inv->position));
	inv->point_size = 1.0f;
	inv->frag_depth = inv->frag_coord[2];
	inv->sample_mask_out = ~0u;
	inv->discarded = false;
	/* FragDepth keeps the fragment's depth unless the shader writes it. */
	for (uint32_t i = 0; i < e->bout_count; i++)
		if (p->builtins[e->bout_first + i].kind == RD_BI_FRAG_DEPTH)
			R[p->builtins[e->bout_first + i].slot].f = inv->frag_coord[2];
	return &p->code[e->code];
}

/* Runs from ip until the invocation ends or reaches a control barrier
 * (st->status says which; st->resume is where it goes on). */
static void run_go(struct rd_state *st, const struct rd_ins *ip, uint32_t *budget)
{
	const struct rd_program *p = st->p;
	/* Instrumented: a block is entered whenever execution lands on its
	 * first instruction (entry, branch, call); nothing else lands there. */
	uint64_t *counts = st->inv->block_counts;
	st->status = RD_RUN_GOING;
	while (ip && counts) {
		uint32_t b = p->block_at[ip - p->code];
		if (b)
			counts[b - 1]++;
		ip = ip->fn(st, ip);
		if (--*budget == 0 && ip) {
			rd_exec_fault(st, ip, "step limit of %u instructions exceeded (an endless loop?)",
			      RD_SPIRV_STEP_LIMIT);
			st->inv->hung = true;
			ip = NULL;
		}
	}
	while (ip) {
		ip = ip->fn(st, ip);
		if (--*budget == 0 && ip) {
			rd_exec_fault(st, ip, "step limit of %u instructions exceeded (an endless loop?)",
			      RD_SPIRV_STEP_LIMIT);
			st->inv->hung = true;
			break;
		}
	}
}

/* Copies a finished invocation's outputs out (geometry shaders emitted
 * theirs, control shaders left them in the shared memory). */
static void run_end(struct rd_state *st)
{
	const struct rd_entry *e = &st->p->entries[st->entry];
	if (st->status == RD_RUN_DONE && e->info.stage != RD_STAGE_GEOMETRY &&
	    e->info.stage != RD_STAGE_TESS_CONTROL && e->info.stage != RD_STAGE_MESH)
		outputs_out(st->p, e, st->R, st->inv);
}

/* Invocation states up to this many words live on the stack. */
#define RD_RUN_STACK_WORDS 2048u

int rd_shader_run(const struct rd_shader *s, const struct rd_entry_info *entry, const struct rd_exec_env *env,
		  struct rd_invocation *inv, char *err, size_t errsize)
{
	const struct rd_program *p = &s->prog;
	if (check_run(p, entry, env, inv, err, errsize))
		return -1;
	union rd_word local[RD_RUN_STACK_WORDS];
	union rd_word *R = p->nstate <= RD_RUN_STACK_WORDS ? local : malloc((size_t)p->nstate * 4);
	if (!R)
		return arg_error(err, errsize, "out of memory");
	struct rd_state st;
	const struct rd_ins *ip = run_begin(p, entry, env, inv, R, &st, err, errsize);
	uint32_t budget = RD_SPIRV_STEP_LIMIT;
	run_go(&st, ip, &budget);
	/* alone, a control barrier waits for nobody */
	while (st.status == RD_RUN_BARRIER)
		run_go(&st, st.resume, &budget);
	run_end(&st);
	if (R != local)
		free(R);
	return st.status == RD_RUN_FAULT ? -1 : 0;
}

int rd_shader_run_group(const struct rd_shader *s, const struct rd_entry_info *entry,
			const struct rd_exec_env *env, struct rd_invocation *inv, uint32_t count,
			char *err, size_t errsize)
{
	const struct rd_program *p = &s->prog;
	if (!entry || entry->entry_id >= p->nentries || !p->entries[entry->entry_id].info.has_barrier) {
		for (uint32_t i = 0; i < count; i++)
			if (rd_shader_run(s, entry, env, &inv[i], err, errsize))
				return -1;
		return 0;
	}
	for (uint32_t i = 0; i < count; i++)
		if (check_run(p, entry, env, &inv[i], err, errsize))
			return -1;
	if (count == 0)
		return 0;
	union rd_word *R = malloc((size_t)count * p->nstate * 4);
	struct rd_state *st = calloc(count, sizeof(*st));
	uint32_t *budget = malloc((size_t)count * sizeof(*budget));
	int rc = 0;
	if (!R || !st || !budget) {
		rc = arg_error(err, errsize, "out of memory for a group of %u invocations", count);
		goto out;
	}
	for (uint32_t i = 0; i < count; i++) {
		budget[i] = RD_SPIRV_STEP_LIMIT;
		st[i].resume = run_begin(p, entry, env, &inv[i], R + (size_t)i * p->nstate, &st[i], err, errsize);
		st[i].status = RD_RUN_BARRIER; /* as if waiting at the start */
	}
	/* Phases: every waiting invocation runs to its next barrier or end. */
	for (;;) {
		uint32_t waiting = 0, ended = 0, first_ended = 0;
		for (uint32_t i = 0; i < count; i++) {
			if (st[i].status == RD_RUN_BARRIER)
				run_go(&st[i], st[i].resume, &budget[i]);
			if (st[i].status == RD_RUN_FAULT) {
				rc = -1;
				goto out;
			}
		}
		for (uint32_t i = 0; i < count; i++) {
			if (st[i].status == RD_RUN_BARRIER) {
				waiting++;
			} else if (!ended++) {
				first_ended = i;
			}
		}
		if (!waiting)
			break;
		if (ended) {
			/* spec 3.42.20 OpControlBarrier: "all active invocations
			 * ... must execute this instruction"; here one ended */
			rc = arg_error(err, errsize,
				       "OpControlBarrier: invocation %u ended while %u of the group wait at a "
				       "barrier (a control barrier must be in uniform control flow)",
				       first_ended, waiting);
			goto out;
		}
	}
	for (uint32_t i = 0; i < count; i++)
		run_end(&st[i]);
out:
	free(R);
	free(st);
	free(budget);
	return rc;
}

void rd_shader_patch_outputs(const struct rd_shader *s, const struct rd_entry_info *entry,
			     const uint8_t *shared, struct rd_patch *out)
{
	const struct rd_program *p = &s->prog;
	memset(out, 0, sizeof(*out));
	if (!entry || entry->entry_id >= p->nentries)
		return;
	const struct rd_entry *e = &p->entries[entry->entry_id];
	out->vertices = e->info.tess_output_vertices;
	if (e->info.stage != RD_STAGE_TESS_CONTROL || !shared)
		return;
	for (uint32_t i = 0; i < e->out_count; i++) {
		const struct rd_io_loc *l = &p->locs[e->out_first + i];
		const uint8_t *from = shared + (size_t)l->slot * 4;
		if (l->vtx == RD_IO_PATCH)
			memcpy(out->var[l->loc], from, (size_t)l->n * 4);
		else if (l->vtx < RD_MAX_PATCH_VERTICES)
			memcpy(out->vtx[l->vtx].var[l->loc], from, (size_t)l->n * 4);
	}
	for (uint32_t i = 0; i < e->bout_count; i++) {
		const struct rd_io_builtin *b = &p->builtins[e->bout_first + i];
		const uint8_t *from = shared + (size_t)b->slot * 4;
		struct rd_stage_vertex *v = b->vtx < RD_MAX_PATCH_VERTICES ? &out->vtx[b->vtx] : NULL;
		switch ((enum rd_builtin_io)b->kind) {
		case RD_BI_POSITION: if (v) memcpy(v->position, from, 16); break;
		case RD_BI_POINT_SIZE: if (v) memcpy(&v->point_size, from, 4); break;
		case RD_BI_TESS_LEVEL_OUTER: memcpy(out->tess_outer, from, 16); break;
		case RD_BI_TESS_LEVEL_INNER: memcpy(out->tess_inner, from, 8); break;
		default: break;
		}
	}
}

/* Mesh outputs (spec "Mesh Shader Output"): element v or i of each output
 * array, from the shared memory the workgroup's invocations wrote. */
void rd_shader_mesh_vertex(const struct rd_shader *s, const struct rd_entry_info *entry,
			   const uint8_t *shared, uint32_t v, struct rd_stage_vertex *out)
{
	const struct rd_program *p = &s->prog;
	memset(out, 0, sizeof(*out));
	out->point_size = 1.0f; /* not written: the primitive is no point, or 1.0 is one choice */
	if (!entry || entry->entry_id >= p->nentries || !shared)
		return;
	const struct rd_entry *e = &p->entries[entry->entry_id];
	if (e->info.stage != RD_STAGE_MESH || v >= e->info.mesh_max_vertices)
		return;
	for (uint32_t i = 0; i < e->out_count; i++) {
		const struct rd_io_loc *l = &p->locs[e->out_first + i];
		if (!l->prim)
			memcpy(out->var[l->loc], shared + ((size_t)l->slot + (size_t)v * l->stride) * 4,
			       (size_t)l->n * 4);
	}
	for (uint32_t i = 0; i < e->bout_count; i++) {
		const struct rd_io_builtin *b = &p->builtins[e->bout_first + i];
		const uint8_t *from = shared + ((size_t)b->slot + (size_t)v * b->stride) * 4;
		if (b->prim)
			continue;
		if (b->kind == RD_BI_POSITION)
			memcpy(out->position, from, 16);
		else if (b->kind == RD_BI_POINT_SIZE && e->info.writes_point_size)
			memcpy(&out->point_size, from, 4);
	}
}

void rd_shader_mesh_primitive(const struct rd_shader *s, const struct rd_entry_info *entry,
			      const uint8_t *shared, uint32_t i, struct rd_mesh_primitive *out)
{
	const struct rd_program *p = &s->prog;
	memset(out, 0, sizeof(*out));
	if (!entry || entry->entry_id >= p->nentries || !shared)
		return;
	const struct rd_entry *e = &p->entries[entry->entry_id];
	if (e->info.stage != RD_STAGE_MESH || i >= e->info.mesh_max_primitives)
		return;
	uint32_t nidx = (uint32_t)e->info.mesh_output; /* 1 points, 2 lines, 3 triangles */
	for (uint32_t k = 0; k < e->out_count; k++) {
		const struct rd_io_loc *l = &p->locs[e->out_first + k];
		if (l->prim)
			memcpy(out->var[l->loc], shared + ((size_t)l->slot + (size_t)i * l->stride) * 4,
			       (size_t)l->n * 4);
	}
	for (uint32_t k = 0; k < e->bout_count; k++) {
		const struct rd_io_builtin *b = &p->builtins[e->bout_first + k];
		const uint8_t *from = shared + ((size_t)b->slot + (size_t)i * b->stride) * 4;
		if (!b->prim)
			continue;
		if (b->kind == RD_BI_PRIMITIVE_INDICES) {
			memcpy(out->index, from, (size_t)nidx * 4);
		} else if (b->kind == RD_BI_CULL_PRIMITIVE) {
			uint32_t w;
			memcpy(&w, from, 4);
			out->cull = w != 0;
		}
	}
}

void rd_shader_workgroup_invocations(struct rd_invocation *inv, const uint32_t local_size[3],
				     const uint32_t id[3], const uint32_t count[3], uint8_t *shared)
{
	const uint32_t *ls = local_size;
	uint32_t n = ls[0] * ls[1] * ls[2];
	for (uint32_t i = 0; i < n; i++) {
		uint32_t l[3] = {i % ls[0], i / ls[0] % ls[1], i / ls[0] / ls[1]};
		memset(&inv[i], 0, sizeof(inv[i]));
		for (int k = 0; k < 3; k++) {
			inv[i].workgroup_id[k] = id[k];
			inv[i].local_id[k] = l[k];
			inv[i].global_id[k] = id[k] * ls[k] + l[k];
			inv[i].num_workgroups[k] = count[k];
		}
		inv[i].local_index = i;
		inv[i].workgroup_memory = shared;
	}
}
