/* Finishing the module: calls and recursion, entry points, their
 * interface variables (locations, builtins) and transform feedback outputs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "front.h"

static bool finish_calls(struct rd_parse *c)
{
	struct rd_program *p = c->p;
	for (uint32_t i = 0; i < c->ncalls; i++) {
		const struct pcall *k = &c->calls[i];
		struct rd_ins *in = &p->code[k->ins];
		c->pos = k->word;
		c->op = SpvOpFunctionCall;
		if (k->callee == 0 || k->callee >= c->bound || c->ids[k->callee].kind != ID_FUNC)
			return fail(c, "OpFunctionCall: %u is not a function", k->callee);
		const struct pfunc *f = &c->funcs[c->ids[k->callee].slot];
		const struct ptype *ft = T(c, f->type);
		if (!f->ended)
			return fail(c, "OpFunctionCall: function %u has no body", k->callee);
		if (ft->count != in->n)
			return fail(c, "OpFunctionCall: %u arguments for %u parameters", in->n, ft->count);
		if (!same_type(c, ft->elem, in->c))
			return fail(c, "OpFunctionCall: result type %u, function %u returns %u", in->c,
				    k->callee, ft->elem);
		for (uint32_t j = 0; j < in->n; j++) {
			uint32_t *a = &p->pool[in->x + 3 * j];
			uint32_t want = c->u32[ft->first + j];
			if (!same_type(c, a[0], want))
				return fail(c, "OpFunctionCall: argument %u has type %u, expected %u", j, a[0], want);
			a[0] = c->ids[c->u32[f->params + j]].slot;
		}
		in->a = f->code;
	}
	return true;
}

/* Spec 2.16.1: no recursion.  Also the deepest call chain, which sizes the
 * call stack.  Iterative: a hostile module may nest calls deeply. */
static bool check_calls(struct rd_parse *c)
{
	uint32_t n = c->nfuncs, maxd = 1;
	uint8_t *color = calloc(n + 1, 1);
	uint32_t *depth = calloc(n + 1, 4);
	struct { uint32_t f, it; } *stk = malloc((size_t)(n + 1) * sizeof(*stk));
	bool ok = color && depth && stk;
	if (!ok)
		(void)fail(c, "out of memory");
	for (uint32_t root = 0; ok && root < n; root++) {
		if (color[root])
			continue;
		uint32_t sp = 0;
		stk[sp].f = root;
		stk[sp++].it = c->funcs[root].calls;
		color[root] = 1;
		while (sp && ok) {
			uint32_t f = stk[sp - 1].f;
			if (stk[sp - 1].it) {
				const struct pcall *k = &c->calls[stk[sp - 1].it - 1];
				stk[sp - 1].it = k->next;
				uint32_t g = c->ids[k->callee].slot;
				if (color[g] == 1) {
					c->pos = k->word;
					c->op = SpvOpFunctionCall;
					ok = fail(c, "recursion through function %u (spec 2.16.1: not allowed)",
						  k->callee);
				} else if (color[g] == 0) {
					color[g] = 1;
					stk[sp].f = g;
					stk[sp++].it = c->funcs[g].calls;
				} else if (depth[g] > depth[f]) {
					depth[f] = depth[g];
				}
				continue;
			}
			depth[f] += 1;  /* its own frame over the deepest callee */
			color[f] = 2;
			if (depth[f] > maxd)
				maxd = depth[f];
			if (--sp && depth[f] > depth[stk[sp - 1].f])
				depth[stk[sp - 1].f] = depth[f];
		}
	}
	free(color);
	free(depth);
	free(stk);
	c->p->max_depth = maxd;
	return ok;
}

static bool push_loc(struct rd_parse *c, uint32_t slot, uint32_t loc, uint32_t n)
{
	struct rd_io_loc *l = PUSH(c, c->p->locs, c->p->nlocs, c->cap_locs);
	if (!l)
		return false;
	*l = (struct rd_io_loc){ slot, (uint8_t)loc, (uint8_t)c->io_vtx, (uint16_t)n,
				 (uint16_t)c->io_stride, c->io_prim };
	return true;
}

/* Location-assigned interface variables: one location per vector, matrix
 * column or array element, members of a struct in order (spec 15.1.4). */
static bool io_walk(struct rd_parse *c, struct rd_entry *e, uint32_t tid, uint32_t slot, uint32_t *loc,
		    bool input, bool flat, bool noperspective)
{
	const struct ptype *t = T(c, tid);
	switch (t->kind) {
	case T_INT:
	case T_FLOAT:
	case T_VECTOR: {
		bool patch = c->io_vtx == RD_IO_PATCH;
		uint32_t max = patch ? RD_MAX_PATCH_LOCATIONS : RD_MAX_LOCATIONS;
		if (*loc >= max)
			return fail(c, "interface %sLocation %u is beyond the %u supported", patch ? "Patch " : "",
				    *loc, max);
		if (patch) {
			if (input)
				e->info.patch_input_mask |= 1u << *loc;
			else
				e->info.patch_output_mask |= 1u << *loc;
			if (!push_loc(c, slot, *loc, t->words))
				return false;
			(*loc)++;
			return true;
		}
		bool is_int = ncomp_of(c, tid, T_INT) != 0;
		if (input && e->info.stage == RD_STAGE_FRAGMENT) {
			if (is_int && !flat)
				return fail(c, "integer fragment input at Location %u must be Flat "
					    "(VUID-StandaloneSpirv-Flat-04744)", *loc);
			if (flat)
				e->info.flat_mask |= 1u << *loc;
			if (noperspective)
				e->info.noperspective_mask |= 1u << *loc;
		}
		if (input)
			e->info.input_mask |= 1u << *loc;
		else if (c->io_prim)
			e->info.primitive_output_mask |= 1u << *loc;
		else
			e->info.output_mask |= 1u << *loc;
		if (!push_loc(c, slot, *loc, t->words))
			return false;
		(*loc)++;
		return true;
	}
	case T_MATRIX:
	case T_ARRAY: {
		uint32_t ew = T(c, t->elem)->words;
		for (uint32_t i = 0; i < t->count; i++)
			if (!io_walk(c, e, t->elem, slot + i * ew, loc, input, flat, noperspective))
				return false;
		return true;
	}
	case T_STRUCT:
		for (uint32_t i = 0; i < t->count; i++) {
			const struct pmember *m = &c->members[t->first + i];
			if (m->location != NONE)
				*loc = m->location;
			if (!io_walk(c, e, m->type, slot + m->word, loc, input, flat || m->flat || m->perprim,
				     noperspective || m->noperspective))
				return false;
		}
		return true;
	default:
		return fail(c, "interface variable of type %s", kind_name((enum tkind)t->kind));
	}
}

static bool push_builtin(struct rd_parse *c, uint32_t slot, enum rd_builtin_io kind)
{
	struct rd_io_builtin *b = PUSH(c, c->p->builtins, c->p->nbuiltins, c->cap_builtins);
	if (!b)
		return false;
	*b = (struct rd_io_builtin){ slot, (uint16_t)kind, (uint16_t)c->io_vtx, (uint16_t)c->io_stride,
				     c->io_prim };
	return true;
}

/* A builtin in the interface: checks stage, direction and type, and
 * records how the run copies it. */
static bool io_builtin(struct rd_parse *c, struct rd_entry *e, uint32_t b, uint32_t tid, uint32_t slot,
		       bool input)
{
	const struct ptype *t = T(c, tid);
	enum rd_stage st = e->info.stage;
	bool ok = false, is_int = t->kind == T_INT, uvec3 = ncomp_of(c, tid, T_INT) == 3;
	/* gl_PerVertex: an output of every pre-rasterization stage, and per
	 * input vertex an input of the geometry and tessellation stages */
	bool tess = st == RD_STAGE_TESS_CONTROL || st == RD_STAGE_TESS_EVAL;
	bool mesh_prim = !input && st == RD_STAGE_MESH && c->io_prim;
	bool per_vertex = input ? st == RD_STAGE_GEOMETRY || tess
				: st == RD_STAGE_VERTEX || st == RD_STAGE_GEOMETRY || tess ||
					  (st == RD_STAGE_MESH && !c->io_prim);
	/* compute-like stages: a workgroup of invocations */
	bool group = st == RD_STAGE_COMPUTE || st == RD_STAGE_TASK || st == RD_STAGE_MESH;
	bool levels_dir = input ? st == RD_STAGE_TESS_EVAL : st == RD_STAGE_TESS_CONTROL;
	int kind = -1;
	switch (b) {
	case SpvBuiltInPosition:
		ok = per_vertex && ncomp_of(c, tid, T_FLOAT) == 4;
		kind = input ? RD_BI_IN_POSITION : RD_BI_POSITION;
		break;
	case SpvBuiltInPointSize:
		ok = per_vertex && t->kind == T_FLOAT;
		kind = input ? RD_BI_IN_POINT_SIZE : RD_BI_POINT_SIZE;
		/* (control and mesh outputs: shared memory, see rd_shader_mesh_vertex) */
		if (ok && !input && st != RD_STAGE_TESS_CONTROL && st != RD_STAGE_MESH)
			c->p->tmpl[slot].f = 1.0f;  /* "1.0 when not written" (rd_spirv.h) */
		break;
	case SpvBuiltInClipDistance:
	case SpvBuiltInCullDistance:
		/* Declared in every gl_PerVertex; the pipeline has no clip planes. */
		ok = per_vertex && t->kind == T_ARRAY && T(c, t->elem)->kind == T_FLOAT;
		break;
	case SpvBuiltInInvocationId:
		ok = input && (st == RD_STAGE_GEOMETRY || st == RD_STAGE_TESS_CONTROL) && is_int;
		kind = RD_BI_INVOCATION_ID;
		break;
	case SpvBuiltInPrimitiveId:
		ok = input && (st == RD_STAGE_GEOMETRY || tess) && is_int;
		kind = RD_BI_PRIMITIVE_ID;
		break;
	case SpvBuiltInPatchVertices:
		ok = input && tess && is_int;
		kind = RD_BI_PATCH_VERTICES;
		break;
	case SpvBuiltInTessCoord:
		ok = input && st == RD_STAGE_TESS_EVAL && ncomp_of(c, tid, T_FLOAT) == 3;
		kind = RD_BI_TESS_COORD;
		break;
	/* VUID-TessLevelOuter-TessLevelOuter-04393, -Inner-04397: arrays of
	 * 4 and 2 floats */
	case SpvBuiltInTessLevelOuter:
	case SpvBuiltInTessLevelInner:
		ok = levels_dir && t->kind == T_ARRAY && T(c, t->elem)->kind == T_FLOAT &&
		     t->count == (b == SpvBuiltInTessLevelOuter ? 4u : 2u);
		kind = b == SpvBuiltInTessLevelOuter ? RD_BI_TESS_LEVEL_OUTER : RD_BI_TESS_LEVEL_INNER;
		break;
	case SpvBuiltInVertexIndex:
	case SpvBuiltInInstanceIndex:
		ok = input && st == RD_STAGE_VERTEX && is_int;
		kind = b == SpvBuiltInVertexIndex ? RD_BI_VERTEX_INDEX : RD_BI_INSTANCE_INDEX;
		break;
	/* "BaseVertex ... BaseInstance ... DrawIndex": vertex shaders; task
	 * and mesh shaders read DrawIndex (SPV_EXT_mesh_shader) */
	case SpvBuiltInBaseVertex:
	case SpvBuiltInBaseInstance:
		ok = input && st == RD_STAGE_VERTEX && is_int;
		kind = b == SpvBuiltInBaseVertex ? RD_BI_BASE_VERTEX : RD_BI_BASE_INSTANCE;
		break;
	case SpvBuiltInDrawIndex:
		ok = input && (st == RD_STAGE_VERTEX || st == RD_STAGE_TASK || st == RD_STAGE_MESH) && is_int;
		kind = RD_BI_DRAW_INDEX;
		break;
	case SpvBuiltInViewIndex:
		ok = input && st != RD_STAGE_COMPUTE && is_int;
		kind = RD_BI_VIEW_INDEX;
		break;
	case SpvBuiltInFragCoord:
		ok = input && st == RD_STAGE_FRAGMENT && ncomp_of(c, tid, T_FLOAT) == 4;
		kind = RD_BI_FRAG_COORD;
		break;
	case SpvBuiltInFrontFacing:
		ok = input && st == RD_STAGE_FRAGMENT && t->kind == T_BOOL;
		kind = RD_BI_FRONT_FACING;
		break;
	case SpvBuiltInSampleId:
		ok = input && st == RD_STAGE_FRAGMENT && is_int;
		kind = RD_BI_SAMPLE_ID;
		e->info.reads_sample_id = true;
		break;
	case SpvBuiltInSamplePosition:
		ok = input && st == RD_STAGE_FRAGMENT && ncomp_of(c, tid, T_FLOAT) == 2;
		kind = RD_BI_SAMPLE_POSITION;
		e->info.reads_sample_id = true;  /* spec 27.4: enables sample shading */
		break;
	case SpvBuiltInSampleMask:
		ok = st == RD_STAGE_FRAGMENT && t->kind == T_ARRAY && T(c, t->elem)->kind == T_INT;
		kind = input ? RD_BI_SAMPLE_MASK_IN : RD_BI_SAMPLE_MASK_OUT;
		if (ok && !input)
			for (uint32_t i = 0; i < t->count; i++)
				c->p->tmpl[slot + i].u = ~0u;
		break;
	case SpvBuiltInFragDepth:
		ok = !input && st == RD_STAGE_FRAGMENT && t->kind == T_FLOAT;
		kind = RD_BI_FRAG_DEPTH;
		break;
	case SpvBuiltInGlobalInvocationId:
	case SpvBuiltInLocalInvocationId:
	case SpvBuiltInWorkgroupId:
	case SpvBuiltInNumWorkgroups:
		ok = input && group && uvec3 && t->kind == T_VECTOR;
		kind = b == SpvBuiltInGlobalInvocationId ? RD_BI_GLOBAL_ID
		       : b == SpvBuiltInLocalInvocationId ? RD_BI_LOCAL_ID
		       : b == SpvBuiltInWorkgroupId	  ? RD_BI_WORKGROUP_ID
							  : RD_BI_NUM_WORKGROUPS;
		break;
	case SpvBuiltInLocalInvocationIndex:
		ok = input && group && is_int;
		kind = RD_BI_LOCAL_INDEX;
		break;
	/* Mesh outputs per primitive (SPV_EXT_mesh_shader): the vertex
	 * indices, a uint, uvec2 or uvec3 by the output primitive, and
	 * CullPrimitiveEXT, a bool. */
	case SpvBuiltInPrimitivePointIndicesEXT:
	case SpvBuiltInPrimitiveLineIndicesEXT:
	case SpvBuiltInPrimitiveTriangleIndicesEXT: {
		uint32_t want = b == SpvBuiltInPrimitivePointIndicesEXT  ? 1
				: b == SpvBuiltInPrimitiveLineIndicesEXT ? 2 : 3;
		ok = mesh_prim && (uint32_t)e->info.mesh_output == want &&
		     (want == 1 ? is_int : ncomp_of(c, tid, T_INT) == want);
		kind = RD_BI_PRIMITIVE_INDICES;
		break;
	}
	case SpvBuiltInCullPrimitiveEXT:
		ok = mesh_prim && t->kind == T_BOOL;
		kind = RD_BI_CULL_PRIMITIVE;
		break;
	default:
		return fail(c, "BuiltIn %s on a variable is unsupported", rd_spirv_name(RD_NAME_BUILTIN, b));
	}
	if (!ok)
		return fail(c, "BuiltIn %s: wrong stage, direction or type", rd_spirv_name(RD_NAME_BUILTIN, b));
	return kind < 0 || push_builtin(c, slot, (enum rd_builtin_io)kind);
}

/* Variable id's interface of type tid at slot (for a geometry input, one
 * input vertex's element). */
static bool io_var_type(struct rd_parse *c, struct rd_entry *e, uint32_t id, uint32_t tid, uint32_t slot,
			bool input)
{
	const struct ptype *t = T(c, tid);
	uint32_t b, loc;
	if (get_deco(c, id, NONE, SpvDecorationBuiltIn, &b))
		return io_builtin(c, e, b, tid, slot, input);
	if (t->kind == T_STRUCT && t->builtins) {
		for (uint32_t i = 0; i < t->count; i++) {
			const struct pmember *m = &c->members[t->first + i];
			if (m->builtin == NONE)
				return fail(c, "interface block %u mixes builtins and user variables", id);
			if (!io_builtin(c, e, m->builtin, m->type, slot + m->word, input))
				return false;
		}
		return true;
	}
	bool has_loc = get_deco(c, id, NONE, SpvDecorationLocation, &loc);
	if (!has_loc) {
		if (t->kind != T_STRUCT || t->count == 0 || c->members[t->first].location == NONE)
			return fail(c, "%s variable %u has neither a Location nor a BuiltIn",
				    input ? "Input" : "Output", id);
		loc = c->members[t->first].location;
	}
	/* a fragment input decorated PerPrimitiveEXT is the primitive's: flat */
	return io_walk(c, e, tid, slot, &loc, input,
		       get_deco(c, id, NONE, SpvDecorationFlat, NULL) ||
			       get_deco(c, id, NONE, SpvDecorationPerPrimitiveEXT, NULL),
		       get_deco(c, id, NONE, SpvDecorationNoPerspective, NULL));
}

/* A mesh shader's output (spec "Mesh Shader Output"): an array of one
 * element per vertex (OutputVertices) or, decorated PerPrimitiveEXT (the
 * variable or its block's members) or a Primitive*IndicesEXT builtin, per
 * primitive (OutputPrimitivesEXT).  Element 0's interface is recorded with
 * the array stride; the elements live in the workgroup's shared memory. */
static bool mesh_output_var(struct rd_parse *c, struct rd_entry *e, uint32_t id, const struct ptype *t,
			    uint32_t slot)
{
	uint32_t b = NONE;
	get_deco(c, id, NONE, SpvDecorationBuiltIn, &b);
	bool prim = get_deco(c, id, NONE, SpvDecorationPerPrimitiveEXT, NULL) ||
		    b == SpvBuiltInPrimitivePointIndicesEXT || b == SpvBuiltInPrimitiveLineIndicesEXT ||
		    b == SpvBuiltInPrimitiveTriangleIndicesEXT;
	if (t->kind != T_ARRAY)
		return fail(c, "mesh output %u is not an array (one element per vertex or primitive)", id);
	const struct ptype *et = T(c, t->elem);
	if (et->kind == T_STRUCT && et->count && c->members[et->first].perprim)
		prim = true;
	uint32_t max = prim ? e->info.mesh_max_primitives : e->info.mesh_max_vertices;
	if (t->count < max)
		return fail(c, "mesh %s output %u has %u elements, fewer than %s %u", prim ? "primitive" : "vertex",
			    id, t->count, prim ? "OutputPrimitivesEXT" : "OutputVertices", max);
	c->io_vtx = 0;
	c->io_stride = et->words;
	c->io_prim = prim;
	bool ok = io_var_type(c, e, id, t->elem, slot, false);
	c->io_stride = 0;
	c->io_prim = 0;
	return ok;
}

static bool io_var(struct rd_parse *c, struct rd_entry *e, uint32_t id, bool input)
{
	const struct pptr *q = &c->ptrs[c->ids[id].ptr];
	const struct ptype *t = T(c, q->type);
	uint32_t slot = q->offset / 4, b;
	enum rd_stage st = e->info.stage;
	bool tess = st == RD_STAGE_TESS_CONTROL || st == RD_STAGE_TESS_EVAL;
	bool patch = get_deco(c, id, NONE, SpvDecorationPatch, NULL);
	c->io_vtx = 0;
	/* only gl_PerVertex's members come per vertex */
	bool scalar_builtin = get_deco(c, id, NONE, SpvDecorationBuiltIn, &b) && b != SpvBuiltInPosition &&
			      b != SpvBuiltInPointSize && b != SpvBuiltInClipDistance &&
			      b != SpvBuiltInCullDistance;
	if (patch && (!tess || (input ? st != RD_STAGE_TESS_EVAL : st != RD_STAGE_TESS_CONTROL)))
		return fail(c, "%s variable %u decorated Patch outside a tessellation %s shader",
			    input ? "Input" : "Output", id, input ? "evaluation" : "control");
	if (patch && !scalar_builtin) {
		/* per-patch (spec 15.1.4: Patch variables are not arrayed) */
		c->io_vtx = RD_IO_PATCH;
		bool ok = io_var_type(c, e, id, q->type, slot, input);
		c->io_vtx = 0;
		return ok;
	}
	if (st == RD_STAGE_MESH && !input)
		return mesh_output_var(c, e, id, t, slot);
	bool arrayed = input ? st == RD_STAGE_GEOMETRY || tess : st == RD_STAGE_TESS_CONTROL;
	if (!arrayed || scalar_builtin)
		return io_var_type(c, e, id, q->type, slot, input);
	/* A geometry or tessellation shader's other inputs, and a control
	 * shader's other outputs, are arrays with one element per vertex
	 * (spec 15.1.3 "Interface Matching": the outermost array dimension):
	 * the input primitive's vertices, up to maxTessellationPatchSize
	 * control points (an input patch has patchControlPoints, an output
	 * patch OutputVertices; shaders size them gl_MaxPatchVertices). */
	if (st == RD_STAGE_GEOMETRY && (t->kind != T_ARRAY || t->count != e->info.gs_input_vertices))
		return fail(c, "geometry input %u must be an array of the %u input vertices", id,
			    e->info.gs_input_vertices);
	if (tess && (t->kind != T_ARRAY || t->count > RD_MAX_PATCH_VERTICES))
		return fail(c, "tessellation %s %u must be an array of at most %u control points",
			    input ? "input" : "output", id, RD_MAX_PATCH_VERTICES);
	uint32_t ew = T(c, t->elem)->words;
	for (uint32_t v = 0; v < t->count; v++) {
		c->io_vtx = v;
		if (!io_var_type(c, e, id, t->elem, slot + v * ew, input))
			return false;
	}
	c->io_vtx = 0;
	return true;
}

/* Transform feedback (spec "Transform Feedback" in "Fixed-Function Vertex
 * Post-Processing"): each output variable or output block member decorated
 * Offset is captured to its XfbBuffer at that byte offset of the XfbStride
 * bytes reserved per vertex; "array elements or structure members are
 * written tightly packed in order", matrices as arrays of columns. */
static bool xfb_push(struct rd_parse *c, struct rd_entry *e, uint32_t buffer, uint32_t stride,
		     uint32_t source, uint32_t words, uint32_t offset)
{
	struct rd_entry_info *in = &e->info;
	if (buffer == NONE || stride == NONE)
		return fail(c, "captured output at Offset %u without XfbBuffer and XfbStride", offset);
	if (buffer >= RD_MAX_XFB_BUFFERS)
		return fail(c, "XfbBuffer %u is beyond the %u supported", buffer, RD_MAX_XFB_BUFFERS);
	if (in->xfb_stride[buffer] && in->xfb_stride[buffer] != stride)
		return fail(c, "XfbBuffer %u with XfbStride %u and %u", buffer, in->xfb_stride[buffer], stride);
	/* "All components ... must be written at an offset aligned to the size
	 * of the component"; they must fit the stride. */
	if (offset % 4 || stride % 4 || (uint64_t)offset + words * 4u > stride)
		return fail(c, "captured output of %u words at Offset %u does not fit XfbStride %u", words,
			    offset, stride);
	if (source < RD_XFB_POSITION && source >= RD_MAX_LOCATIONS)
		return fail(c, "captured output at Location %u is beyond the %u supported", source,
			    RD_MAX_LOCATIONS);
	if (in->xfb_output_count == RD_MAX_XFB_OUTPUTS)
		return fail(c, "more than %u captured outputs", RD_MAX_XFB_OUTPUTS);
	/* Outputs captured to one buffer belong to one vertex stream (spec
	 * "Transform Feedback": each buffer is bound to a single stream). */
	for (uint32_t k = 0; k < in->xfb_output_count; k++)
		if (in->xfb_outputs[k].buffer == buffer && in->xfb_outputs[k].stream != c->xfb_stream)
			return fail(c, "XfbBuffer %u captures streams %u and %u", buffer,
				    in->xfb_outputs[k].stream, c->xfb_stream);
	in->xfb_stride[buffer] = stride;
	in->xfb_outputs[in->xfb_output_count++] = (struct rd_xfb_output){
		(uint8_t)buffer, (uint8_t)words, (uint16_t)source, offset, c->xfb_stream};
	return true;
}

/* Walks type tid from Location *loc the way io_walk assigns locations,
 * capturing each vector at *off (tightly packed) when `capture`. */
static bool xfb_walk(struct rd_parse *c, struct rd_entry *e, uint32_t tid, uint32_t *loc, bool capture,
		     uint32_t buffer, uint32_t stride, uint32_t *off)
{
	const struct ptype *t = T(c, tid);
	switch (t->kind) {
	case T_INT:
	case T_FLOAT:
	case T_VECTOR:
		if (capture && !xfb_push(c, e, buffer, stride, *loc, t->words, *off))
			return false;
		*off += t->words * 4;
		(*loc)++;
		return true;
	case T_MATRIX:
	case T_ARRAY:
		for (uint32_t i = 0; i < t->count; i++)
			if (!xfb_walk(c, e, t->elem, loc, capture, buffer, stride, off))
				return false;
		return true;
	case T_STRUCT:
		for (uint32_t i = 0; i < t->count; i++) {
			const struct pmember *m = &c->members[t->first + i];
			if (m->location != NONE)
				*loc = m->location;
			if (!xfb_walk(c, e, m->type, loc, capture, buffer, stride, off))
				return false;
		}
		return true;
	default:
		return fail(c, "interface variable of type %s", kind_name((enum tkind)t->kind));
	}
}

static bool xfb_builtin(struct rd_parse *c, struct rd_entry *e, uint32_t b, uint32_t buffer,
			uint32_t stride, uint32_t offset)
{
	switch (b) {
	case SpvBuiltInPosition:
		return xfb_push(c, e, buffer, stride, RD_XFB_POSITION, 4, offset);
	case SpvBuiltInPointSize:
		return xfb_push(c, e, buffer, stride, RD_XFB_POINT_SIZE, 1, offset);
	default:
		return fail(c, "capturing BuiltIn %s is unsupported", rd_spirv_name(RD_NAME_BUILTIN, b));
	}
}

/* The captured parts of output variable id (entry with the Xfb mode). */
static bool xfb_var(struct rd_parse *c, struct rd_entry *e, uint32_t id)
{
	const struct pptr *q = &c->ptrs[c->ids[id].ptr];
	const struct ptype *t = T(c, q->type);
	uint32_t buffer = NONE, stride = NONE, off, b, loc = 0, stream = 0;
	get_deco(c, id, NONE, SpvDecorationStream, &stream);
	if (stream >= RD_MAX_STREAMS)
		return fail(c, "output %u on Stream %u, beyond the %u supported", id, stream, RD_MAX_STREAMS);
	c->xfb_stream = stream;
	get_deco(c, id, NONE, SpvDecorationXfbBuffer, &buffer);
	get_deco(c, id, NONE, SpvDecorationXfbStride, &stride);
	bool builtin = get_deco(c, id, NONE, SpvDecorationBuiltIn, &b);
	bool members = t->kind == T_STRUCT;
	if (!builtin && !get_deco(c, id, NONE, SpvDecorationLocation, &loc) && members &&
	    t->count && c->members[t->first].location != NONE)
		loc = c->members[t->first].location;
	if (get_deco(c, id, NONE, SpvDecorationOffset, &off)) {
		if (builtin)
			return xfb_builtin(c, e, b, buffer, stride, off);
		if (members && t->builtins)
			return fail(c, "Offset on a whole block of builtins is unsupported");
		return xfb_walk(c, e, q->type, &loc, true, buffer, stride, &off);
	}
	if (!members || builtin)
		return true;
	/* A block: its members decorated Offset, each with the block's
	 * XfbBuffer and XfbStride unless it has its own. */
	for (uint32_t i = 0; i < t->count; i++) {
		const struct pmember *m = &c->members[t->first + i];
		uint32_t mbuf = buffer, mstride = stride, moff = m->offset, mstream = stream;
		get_deco(c, q->type, i, SpvDecorationStream, &mstream);
		if (mstream >= RD_MAX_STREAMS)
			return fail(c, "output %u member %u on Stream %u, beyond the %u supported", id, i,
				    mstream, RD_MAX_STREAMS);
		c->xfb_stream = mstream;
		get_deco(c, q->type, i, SpvDecorationXfbBuffer, &mbuf);
		get_deco(c, q->type, i, SpvDecorationXfbStride, &mstride);
		if (m->builtin != NONE) {
			if (moff != NONE && !xfb_builtin(c, e, m->builtin, mbuf, mstride, moff))
				return false;
			continue;
		}
		if (m->location != NONE)
			loc = m->location;
		if (!xfb_walk(c, e, m->type, &loc, moff != NONE, mbuf, mstride, &moff))
			return false;
	}
	return true;
}

/* OR of what every function reachable from f does. */
static bool reach(struct rd_parse *c, uint32_t f, struct rd_entry *e, uint32_t *writes, bool *emits,
		  bool *barrier, bool *mesh_outputs, bool *mesh_tasks)
{
	uint32_t n = c->nfuncs, sp = 0;
	uint8_t *seen = calloc(n + 1, 1);
	uint32_t *stk = malloc((size_t)(n + 1) * 4);
	if (!seen || !stk) {
		free(seen);
		free(stk);
		return fail(c, "out of memory");
	}
	seen[f] = 1;
	stk[sp++] = f;
	while (sp) {
		const struct pfunc *fn = &c->funcs[stk[--sp]];
		*writes |= fn->writes;
		*emits |= fn->emits;
		*barrier |= fn->barrier;
		*mesh_outputs |= fn->mesh_outputs;
		*mesh_tasks |= fn->mesh_tasks;
		e->info.may_discard |= fn->discards;
		e->uses_push_constants |= fn->uses_pc;
		if (fn->pc_size > e->info.push_constant_size)
			e->info.push_constant_size = fn->pc_size;
		for (uint32_t k = fn->calls; k; k = c->calls[k - 1].next) {
			uint32_t g = c->ids[c->calls[k - 1].callee].slot;
			if (!seen[g]) {
				seen[g] = 1;
				stk[sp++] = g;
			}
		}
	}
	free(seen);
	free(stk);
	return true;
}

static bool finish_entry(struct rd_parse *c, uint32_t pos, uint32_t index, uint32_t wgsize_id)
{
	c->pos = pos;
	c->in = c->w + pos;
	c->wc = c->in[0] >> 16;
	c->op = SpvOpEntryPoint;
	uint32_t model = W(c, 1), fid = W(c, 2), next;
	const char *name;
	if (!get_string(c, 3, &name, &next))
		return false;
	struct rd_entry *e = &c->p->entries[index];
	memset(e, 0, sizeof(*e));
	switch (model) {
	case SpvExecutionModelVertex:
		e->info.stage = RD_STAGE_VERTEX;
		break;
	case SpvExecutionModelFragment:
		e->info.stage = RD_STAGE_FRAGMENT;
		break;
	case SpvExecutionModelGLCompute:
		e->info.stage = RD_STAGE_COMPUTE;
		break;
	case SpvExecutionModelGeometry:
		e->info.stage = RD_STAGE_GEOMETRY;
		e->info.gs_invocations = 1; /* without Invocations: one */
		break;
	case SpvExecutionModelTessellationControl:
		e->info.stage = RD_STAGE_TESS_CONTROL;
		break;
	case SpvExecutionModelTessellationEvaluation:
		e->info.stage = RD_STAGE_TESS_EVAL;
		break;
	case SpvExecutionModelTaskEXT:
		e->info.stage = RD_STAGE_TASK;
		break;
	case SpvExecutionModelMeshEXT:
		e->info.stage = RD_STAGE_MESH;
		break;
	default:
		return fail(c, "unsupported execution model %s (%u)", rd_spirv_name(RD_NAME_EXECUTION_MODEL, model),
			    model);
	}
	size_t len = strlen(name);
	if (!(e->name = malloc(len + 1)))
		return fail(c, "out of memory");
	memcpy(e->name, name, len + 1);
	if (fid == 0 || fid >= c->bound || c->ids[fid].kind != ID_FUNC)
		return fail(c, "OpEntryPoint: %u is not a function", fid);
	const struct pfunc *f = &c->funcs[c->ids[fid].slot];
	const struct ptype *ft = T(c, f->type);
	if (ft->count || T(c, ft->elem)->kind != T_VOID)
		return fail(c, "OpEntryPoint: function %u must take no parameters and return void", fid);
	e->info.entry_id = index;
	e->code = f->code;

	/* Execution modes (spec 3.6). */
	bool upper_left = false, gs_out = false, mesh_vertices = false, mesh_primitives = false;
	for (uint32_t i = 0; i < c->nmode_pos; i++) {
		c->pos = c->mode_pos[i];
		c->in = c->w + c->pos;
		c->wc = c->in[0] >> 16;
		c->op = c->in[0] & 0xffff;
		if (W(c, 1) != fid)
			continue;
		uint32_t mode = W(c, 2);
		bool id_form = c->op == SpvOpExecutionModeId, ok;
		enum rd_stage st = e->info.stage;
		bool tess = st == RD_STAGE_TESS_CONTROL || st == RD_STAGE_TESS_EVAL;
		bool plain = c->wc == 3 && !id_form;  /* a mode without operands */
		switch (mode) {
		case SpvExecutionModeLocalSize:
		case SpvExecutionModeLocalSizeId:
			ok = (st == RD_STAGE_COMPUTE || st == RD_STAGE_TASK || st == RD_STAGE_MESH) && c->wc == 6 &&
			     id_form == (mode == SpvExecutionModeLocalSizeId);
			for (uint32_t k = 0; ok && k < 3; k++) {
				if (id_form && !const_u32(c, W(c, 3 + k), &e->info.local_size[k]))
					return false;
				if (!id_form)
					e->info.local_size[k] = W(c, 3 + k);
			}
			break;
		case SpvExecutionModeOriginUpperLeft:
			ok = upper_left = st == RD_STAGE_FRAGMENT && c->wc == 3 && !id_form;
			break;
		case SpvExecutionModeEarlyFragmentTests:
			ok = st == RD_STAGE_FRAGMENT && c->wc == 3 && !id_form;
			e->info.early_fragment_tests = true;
			break;
		case SpvExecutionModeDepthReplacing:
		case SpvExecutionModeDepthGreater:
		case SpvExecutionModeDepthLess:
		case SpvExecutionModeDepthUnchanged:
			/* Greater/Less/Unchanged are hints an implementation may ignore. */
			ok = st == RD_STAGE_FRAGMENT && c->wc == 3 && !id_form;
			break;
		case SpvExecutionModeXfb:
			/* on the last pre-rasterization stage: vertex, evaluation or geometry */
			ok = e->info.xfb = (st == RD_STAGE_VERTEX || st == RD_STAGE_GEOMETRY ||
					    st == RD_STAGE_TESS_EVAL) && plain;
			break;
		/* Geometry (spec 3.6): invocations, input and output primitives */
		case SpvExecutionModeInvocations:
			ok = st == RD_STAGE_GEOMETRY && c->wc == 4 && !id_form && W(c, 3) >= 1 &&
			     W(c, 3) <= RD_MAX_GS_INVOCATIONS;
			e->info.gs_invocations = W(c, 3);
			break;
		/* Tessellation (chapter "Tessellation"): the domain, spacing,
		 * vertex order and point mode, in either stage */
		case SpvExecutionModeTriangles:
		case SpvExecutionModeQuads:
		case SpvExecutionModeIsolines:
			if (st == RD_STAGE_GEOMETRY && mode == SpvExecutionModeTriangles)
				goto gs_input;
			ok = tess && plain && !e->info.tess_domain;
			e->info.tess_domain = mode == SpvExecutionModeTriangles ? RD_TESS_TRIANGLES
					      : mode == SpvExecutionModeQuads ? RD_TESS_QUADS : RD_TESS_ISOLINES;
			break;
		case SpvExecutionModeSpacingEqual:
		case SpvExecutionModeSpacingFractionalEven:
		case SpvExecutionModeSpacingFractionalOdd:
			ok = tess && plain && !e->info.tess_spacing;
			e->info.tess_spacing = mode == SpvExecutionModeSpacingEqual ? RD_SPACING_EQUAL
					       : mode == SpvExecutionModeSpacingFractionalEven ? RD_SPACING_FRACTIONAL_EVEN
												 : RD_SPACING_FRACTIONAL_ODD;
			break;
		case SpvExecutionModeVertexOrderCw:
		case SpvExecutionModeVertexOrderCcw:
			ok = tess && plain && !e->info.tess_order;
			e->info.tess_order = mode == SpvExecutionModeVertexOrderCw ? RD_ORDER_CW : RD_ORDER_CCW;
			break;
		case SpvExecutionModePointMode:
			ok = e->info.tess_point_mode = tess && plain;
			break;
		case SpvExecutionModeInputPoints:
		case SpvExecutionModeInputLines:
		case SpvExecutionModeInputLinesAdjacency:
		case SpvExecutionModeInputTrianglesAdjacency:
		gs_input:
			ok = st == RD_STAGE_GEOMETRY && c->wc == 3 && !id_form && !e->info.gs_input_vertices;
			e->info.gs_input_vertices = mode == SpvExecutionModeInputPoints ? 1
						    : mode == SpvExecutionModeInputLines ? 2
						    : mode == SpvExecutionModeInputLinesAdjacency ? 4
						    : mode == SpvExecutionModeTriangles ? 3 : 6;
			break;
		case SpvExecutionModeOutputVertices:
			if (st == RD_STAGE_MESH) {
				ok = c->wc == 4 && !id_form && W(c, 3) <= RD_MAX_MESH_VERTICES;
				e->info.mesh_max_vertices = W(c, 3);
				mesh_vertices = true;
				break;
			}
			if (tess) {  /* the output patch's control points */
				ok = c->wc == 4 && !id_form && W(c, 3) >= 1 && W(c, 3) <= RD_MAX_PATCH_VERTICES;
				e->info.tess_output_vertices = W(c, 3);
				break;
			}
			ok = st == RD_STAGE_GEOMETRY && c->wc == 4 && !id_form && W(c, 3) >= 1 &&
			     W(c, 3) <= RD_MAX_GS_OUTPUT_VERTICES;
			e->info.gs_max_vertices = W(c, 3);
			break;
		/* Mesh (SPV_EXT_mesh_shader): the output primitive and count */
		case SpvExecutionModeOutputPrimitivesEXT:
			ok = st == RD_STAGE_MESH && c->wc == 4 && !id_form && W(c, 3) <= RD_MAX_MESH_PRIMITIVES;
			e->info.mesh_max_primitives = W(c, 3);
			mesh_primitives = true;
			break;
		case SpvExecutionModeOutputLinesEXT:
		case SpvExecutionModeOutputTrianglesEXT:
			ok = st == RD_STAGE_MESH && plain && !e->info.mesh_output;
			e->info.mesh_output = mode == SpvExecutionModeOutputLinesEXT ? RD_MESH_OUT_LINES
										: RD_MESH_OUT_TRIANGLES;
			break;
		case SpvExecutionModeOutputPoints:
			if (st == RD_STAGE_MESH) {
				ok = plain && !e->info.mesh_output;
				e->info.mesh_output = RD_MESH_OUT_POINTS;
				break;
			}
			/* fall through */
		case SpvExecutionModeOutputLineStrip:
		case SpvExecutionModeOutputTriangleStrip:
			ok = st == RD_STAGE_GEOMETRY && c->wc == 3 && !id_form && !gs_out;
			gs_out = true;
			e->info.gs_output = mode == SpvExecutionModeOutputPoints ? RD_GS_OUT_POINTS
					    : mode == SpvExecutionModeOutputLineStrip ? RD_GS_OUT_LINE_STRIP
										       : RD_GS_OUT_TRIANGLE_STRIP;
			break;
		default:
			return fail(c, "unsupported execution mode %s (%u)",
				    rd_spirv_name(RD_NAME_EXECUTION_MODE, mode), mode);
		}
		if (!ok)
			return fail(c, "execution mode %s: wrong stage or operands",
				    rd_spirv_name(RD_NAME_EXECUTION_MODE, mode));
	}
	c->pos = pos;
	c->in = c->w + pos;
	c->wc = c->in[0] >> 16;
	c->op = SpvOpEntryPoint;
	if (e->info.stage == RD_STAGE_GEOMETRY &&
	    (!e->info.gs_input_vertices || !gs_out || !e->info.gs_max_vertices))
		return fail(c, "geometry entry point without its input primitive, output primitive or "
			    "OutputVertices (spec 3.6)");
	if (e->info.stage == RD_STAGE_FRAGMENT && !upper_left)
		return fail(c, "fragment entry point without OriginUpperLeft (VUID-StandaloneSpirv-OriginLowerLeft-04653)");
	if (e->info.stage == RD_STAGE_MESH && (!e->info.mesh_output || !mesh_vertices || !mesh_primitives))
		return fail(c, "mesh entry point without its output primitive, OutputVertices or "
			    "OutputPrimitivesEXT (SPV_EXT_mesh_shader)");
	if (e->info.stage == RD_STAGE_COMPUTE || e->info.stage == RD_STAGE_TASK ||
	    e->info.stage == RD_STAGE_MESH) {
		if (wgsize_id) {  /* spec 3.21 WorkgroupSize: takes precedence over LocalSize */
			const union rd_word *v = &c->p->tmpl[c->ids[wgsize_id].slot];
			for (int k = 0; k < 3; k++)
				e->info.local_size[k] = v[k].u;
		}
		if (!e->info.local_size[0] || !e->info.local_size[1] || !e->info.local_size[2])
			return fail(c, "compute, task or mesh entry point without a (nonzero) LocalSize");
		e->info.workgroup_memory_size = c->wg_bytes;
	}
	if (e->info.stage == RD_STAGE_TESS_CONTROL) {
		/* spec "Tessellation": OutputVertices in at least one stage;
		 * a control shader needs it to know its invocations */
		if (!e->info.tess_output_vertices)
			return fail(c, "tessellation control entry point without OutputVertices");
		e->info.workgroup_memory_size = c->wg_bytes;  /* its outputs (variables.c) */
	}

	/* The interface: inputs, then outputs, so each has one range. */
	for (int pass = 0; pass < 2; pass++) {
		uint32_t l0 = c->p->nlocs, b0 = c->p->nbuiltins;
		for (uint32_t i = next; i < c->wc; i++) {
			uint32_t id = W(c, i);
			if (id == 0 || id >= c->bound || c->ids[id].kind != ID_VALUE || !c->ids[id].is_var ||
			    !c->ids[id].global)
				return fail(c, "OpEntryPoint: interface id %u is not a global variable", id);
			uint32_t sc = c->ptrs[c->ids[id].ptr].storage;
			if (pass && sc == SpvStorageClassTaskPayloadWorkgroupEXT) {
				/* at most one per entry point (SPV_EXT_mesh_shader) */
				const struct pptr *pq = &c->ptrs[c->ids[id].ptr];
				uint32_t size = T(c, pq->type)->words * 4;
				if (e->info.payload_size)
					return fail(c, "two TaskPayloadWorkgroupEXT variables in one entry point");
				if (size > RD_MAX_TASK_PAYLOAD)
					return fail(c, "a task payload of %u bytes, above %u", size, RD_MAX_TASK_PAYLOAD);
				e->info.payload_offset = pq->offset;
				e->info.payload_size = size;
			}
			if (sc == (pass ? SpvStorageClassOutput : SpvStorageClassInput) &&
			    !io_var(c, e, id, pass == 0))
				return false;
			if (pass && sc == SpvStorageClassOutput && e->info.xfb && !xfb_var(c, e, id))
				return false;
		}
		if (pass == 0) {
			e->in_first = l0, e->in_count = c->p->nlocs - l0;
			e->bin_first = b0, e->bin_count = c->p->nbuiltins - b0;
		} else {
			e->out_first = l0, e->out_count = c->p->nlocs - l0;
			e->bout_first = b0, e->bout_count = c->p->nbuiltins - b0;
		}
	}

	uint32_t writes = 0;
	bool emits = false, barrier = false, mesh_outputs = false, mesh_tasks = false;
	if (!reach(c, c->ids[fid].slot, e, &writes, &emits, &barrier, &mesh_outputs, &mesh_tasks))
		return false;
	static const char *const stage_names[] = {
		[RD_STAGE_VERTEX] = "vertex", [RD_STAGE_FRAGMENT] = "fragment",
		[RD_STAGE_COMPUTE] = "compute", [RD_STAGE_GEOMETRY] = "geometry",
		[RD_STAGE_TESS_CONTROL] = "tessellation control",
		[RD_STAGE_TESS_EVAL] = "tessellation evaluation", [RD_STAGE_TASK] = "task",
		[RD_STAGE_MESH] = "mesh"};
	if (mesh_outputs && e->info.stage != RD_STAGE_MESH)
		return fail(c, "OpSetMeshOutputsEXT reachable from a %s entry point", stage_names[e->info.stage]);
	if (mesh_tasks && e->info.stage != RD_STAGE_TASK)
		return fail(c, "OpEmitMeshTasksEXT reachable from a %s entry point", stage_names[e->info.stage]);
	if (emits && e->info.stage != RD_STAGE_GEOMETRY)
		return fail(c, "OpEmitVertex or OpEndPrimitive reachable from a %s entry point",
			    stage_names[e->info.stage]);
	/* Control barriers synchronize a workgroup or a patch's invocations:
	 * compute and tessellation control only (spec 3.42.20, "Execution
	 * scope ... Workgroup" for these models). */
	if (barrier && e->info.stage != RD_STAGE_COMPUTE && e->info.stage != RD_STAGE_TESS_CONTROL &&
	    e->info.stage != RD_STAGE_TASK && e->info.stage != RD_STAGE_MESH)
		return fail(c, "OpControlBarrier reachable from a %s entry point", stage_names[e->info.stage]);
	e->info.has_barrier = barrier;
	/* Outputs of a module with a control shader are shared memory
	 * (variables.c): no other stage of that module may have outputs. */
	if (c->tcs_module && e->info.stage != RD_STAGE_TESS_CONTROL && e->out_count + e->bout_count)
		return fail(c, "a %s entry point with outputs in a module with a tessellation control "
			    "entry point is unsupported", stage_names[e->info.stage]);
	if (c->mesh_module && e->info.stage != RD_STAGE_MESH && e->out_count + e->bout_count)
		return fail(c, "a %s entry point with outputs in a module with a mesh entry point is "
			    "unsupported", stage_names[e->info.stage]);
	/* A builtin counts as written only if the entry's interface has it. */
	for (uint32_t i = 0; i < e->bout_count; i++) {
		uint32_t k = c->p->builtins[e->bout_first + i].kind, hit = writes & (1u << k);
		e->info.writes_point_size |= k == RD_BI_POINT_SIZE && hit;
		e->info.writes_frag_depth |= k == RD_BI_FRAG_DEPTH && hit;
		e->info.writes_sample_mask |= k == RD_BI_SAMPLE_MASK_OUT && hit;
	}
	if (e->info.stage != RD_STAGE_FRAGMENT)
		e->info.may_discard = false;
	return true;
}

bool finish_module(struct rd_parse *c)
{
	struct rd_program *p = c->p;
	c->pos = c->nw;
	if (c->fn)
		return fail(c, "module ends inside function %u (truncated?)", c->fn->id);
	if (!c->memory_model)
		return fail(c, "module without OpMemoryModel");
	if (!c->caps_shader)
		return fail(c, "module without capability Shader");
	if (!finish_calls(c) || !check_calls(c))
		return false;
	p->phi_tmp = alloc_slot(c, c->max_phi_words);
	p->stack = alloc_slot(c, 2 * p->max_depth);
	p->wg_bytes = c->wg_bytes;
	p->wg_slot = alloc_slot(c, c->wg_bytes / 4);
	if (c->failed)
		return false;
	p->block_at = calloc(p->ncode ? p->ncode : 1, sizeof(*p->block_at));
	if (!p->block_at)
		return fail(c, "out of memory");
	for (uint32_t b = 0; b < p->nblocks; b++)
		if (p->block_code[b] < p->ncode)
			p->block_at[p->block_code[b]] = b + 1;

	/* The WorkgroupSize builtin decorates a constant (spec 15.9). */
	uint32_t wgsize_id = 0;
	for (uint32_t id = 1; id < c->bound; id++) {
		uint32_t b;
		if (c->ids[id].kind == ID_VALUE && c->ids[id].is_const &&
		    get_deco(c, id, NONE, SpvDecorationBuiltIn, &b)) {
			if (b != SpvBuiltInWorkgroupSize || ncomp_of(c, c->ids[id].type, T_INT) != 3)
				return fail(c, "constant %u decorated BuiltIn %s: only a uvec3 WorkgroupSize", id,
					    rd_spirv_name(RD_NAME_BUILTIN, b));
			wgsize_id = id;
		}
	}
	if (c->nentry_pos == 0)
		return fail(c, "module without entry points");
	if (!reserve(c, (void **)&c->entries, &c->cap_entries, c->nentry_pos, sizeof(*c->entries)))
		return false;
	p->entries = c->entries;
	c->entries = NULL;
	memset(p->entries, 0, (size_t)c->nentry_pos * sizeof(*p->entries));
	p->nentries = c->nentry_pos;
	for (uint32_t i = 0; i < c->nentry_pos; i++)
		if (!finish_entry(c, c->entry_pos[i], i, wgsize_id))
			return false;
	/* Every execution mode must belong to an entry point. */
	for (uint32_t i = 0; i < c->nmode_pos; i++) {
		uint32_t fid = c->w[c->mode_pos[i] + 1];
		bool found = false;
		for (uint32_t k = 0; k < c->nentry_pos; k++)
			found |= c->w[c->entry_pos[k] + 2] == fid;
		if (!found) {
			c->pos = c->mode_pos[i];
			return fail(c, "execution mode for %u, which is no entry point", fid);
		}
	}
	return true;
}
