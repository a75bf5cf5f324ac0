/* The geometry half of a draw (spec chapters "Fixed-Function Vertex
 * Processing", "Tessellation", "Geometry Shading", "Vertex
 * Post-Processing"): vertex fetch, the vertex shader, primitive assembly,
 * the tessellation shaders and the tessellator (rd_tess.c), the geometry
 * shader, transform feedback, clipping, the perspective divide and the viewport transform,
 * then rd_raster.c for everything from facing on.  Counters follow spec
 * 18.4 (pipeline statistics) and 18.8 (primitives generated).
 *
 * Vertices stream through: each is fetched and shaded once per use (no
 * post-transform cache), and the assembler keeps the last RING vertices
 * (and a fan's first), so a draw needs no allocation whatever its size. */
#include "rd_raster.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A vertex in clip coordinates, out of the vertex shader or clipping. */
struct clip_vertex {
	double p[4];            /* Position: xc, yc, zc, wc */
	float point_size;
	bool edge, orig;        /* see struct rd_raster_vertex */
	uint32_t var[RD_MAX_LOCATIONS][4];
};

#define CLIP_MAX RD_RASTER_MAX_POLYGON
/* Vertices the assembler keeps: a triangle strip with adjacency reaches
 * from vertex 2i - 2 to 2i + 7 (below); a power of two. */
#define RING 16u

struct draw {
	const struct rd_graphics_state *st;
	const struct rd_draw_params *dp;
	rd_stage_fn vs;
	void *vs_user;
	rd_stage_fn gs;          /* NULL: no geometry shader */
	void *gs_user;
	const struct rd_entry_info *last; /* the last pre-rasterization stage */
	struct rd_draw_counters *c;
	char *err;
	size_t errsize;
	struct rd_raster r;
	uint32_t view;
	uint32_t nplanes;       /* 6, or 4 with depth clamping (no z planes) */
	uint32_t var_mask;      /* varyings interpolated by clipping */
	uint32_t nop_mask;      /* ... linearly in framebuffer space */
	/* Primitive assembly: ring[k % RING] holds vertex k since the last
	 * restart; fan0 a fan's vertex 0. */
	struct clip_vertex ring[RING], fan0;
	uint32_t k;
	/* Geometry shading: PrimitiveId of the next input primitive (from 0 in
	 * each instance); per vertex stream the output strip's last two
	 * vertices and its length; vertices this invocation emitted. */
	uint32_t primitive_id;
	struct gs_strip {
		struct clip_vertex v[2];
		uint32_t n;
	} strip[RD_MAX_STREAMS];
	uint32_t gs_emitted;
	bool gs_failed;
	/* Transform feedback: per vertex stream, bit b when the last vertex
	 * stage captures outputs of that stream to buffer b. */
	uint8_t xfb_buffers[RD_MAX_STREAMS];
	bool gs_ended;           /* this invocation ran OpEndPrimitive */
	/* Tessellation: the patch being assembled (vertex k at k % size), the
	 * next patch's PrimitiveId (from 0 in each instance), the control
	 * shader's shared outputs, the tessellated patch and its evaluated
	 * vertices (freed when the draw ends). */
	struct clip_vertex patch_in[RD_MAX_PATCH_VERTICES];
	uint32_t patch_id;
	uint8_t *tcs_shared;
	struct rd_tess_mesh mesh;
	struct clip_vertex *tes_out;
	uint32_t tes_cap;
	/* Mesh shading: a workgroup's invocations, its shared memory (the
	 * mesh shader's outputs), the task workgroup's, and the output
	 * vertices (freed when the draw ends). */
	struct rd_invocation *group;
	uint8_t *mesh_shared, *task_shared;
	struct clip_vertex *mesh_vtx;
	/* Clipping buffers. */
	struct clip_vertex poly[2][CLIP_MAX];
	struct rd_raster_vertex screen[CLIP_MAX];
};

/* Vertex fetch ("Vertex Input Description") ------------------------------*/

static uint32_t index_size(VkIndexType t)
{
	switch (t) {
	case VK_INDEX_TYPE_UINT16: return 2;
	case VK_INDEX_TYPE_UINT32: return 4;
	case VK_INDEX_TYPE_UINT8_EXT: return 1;
	default: return 0;
	}
}

/* Index i of the draw; an index past the buffer's end reads 0 (robust
 * buffer access: never outside memory). */
static uint32_t fetch_index(const struct rd_draw_params *dp, uint64_t i)
{
	uint32_t size = index_size(dp->index_type);
	uint64_t off = i * size;
	if (!dp->index_data || off > dp->index_size || size > dp->index_size - off)
		return 0;
	const uint8_t *p = dp->index_data + off;
	if (size == 1)
		return p[0];
	if (size == 2) {
		uint16_t v;
		memcpy(&v, p, 2);
		return v;
	}
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

/* The vertex shader's inputs for one vertex: each attribute from its
 * binding at vertex_index (or instance_index for instance-rate bindings)
 * times the stride plus its offset ("Vertex Input Address Calculation").
 * An address range outside the binding reads zeros. */
static void fetch_vertex(const struct draw *d, struct rd_invocation *inv)
{
	const struct rd_graphics_state *st = d->st;
	for (uint32_t i = 0; i < st->attribute_count && i < RD_MAX_LOCATIONS; i++) {
		const struct rd_vertex_attribute *a = &st->attributes[i];
		if (a->location >= RD_MAX_LOCATIONS || a->binding >= RD_MAX_BINDINGS ||
		    !(st->vs_info.input_mask >> a->location & 1))
			continue;
		const struct rd_vertex_binding *b = &st->bindings[a->binding];
		const struct rd_format_info *fi = rd_format(a->format);
		uint32_t index = b->rate == VK_VERTEX_INPUT_RATE_INSTANCE ? inv->instance_index
									 : inv->vertex_index;
		uint64_t off = (uint64_t)index * b->stride + a->offset;
		if (!fi || !b->data || off > b->size || fi->texel_size > b->size - off ||
		    !rd_format_fetch_attribute(a->format, b->data + off, inv->in[a->location]))
			memset(inv->in[a->location], 0, sizeof(inv->in[a->location]));
	}
}

/* A vertex out of a shader stage (vertex, evaluation, geometry): its
 * Position, PointSize (spec "Points": 1.0 without a PointSize write) and
 * output locations. */
static void stage_output(const struct rd_invocation *inv, const struct rd_entry_info *info,
			 struct clip_vertex *out)
{
	for (int i = 0; i < 4; i++)
		out->p[i] = inv->position[i];
	out->point_size = info->writes_point_size ? inv->point_size : 1.0f;
	out->edge = out->orig = true;
	memcpy(out->var, inv->out, sizeof(out->var));
}

/* Vertex shading: one invocation per vertex per instance per view (spec
 * 18.4 lets vs_invocations count every vertex shaded). */
static int shade_vertex(struct draw *d, uint32_t vertex_index, uint32_t instance_index,
			struct clip_vertex *out)
{
	struct rd_invocation inv;
	memset(&inv, 0, sizeof(inv));
	inv.vertex_index = vertex_index;
	inv.instance_index = instance_index;
	inv.base_vertex = d->dp->indexed ? (uint32_t)d->dp->vertex_offset : d->dp->first;
	inv.base_instance = d->dp->first_instance;
	inv.draw_index = d->dp->draw_index;
	inv.view_index = d->view;
	inv.point_size = 1.0f;
	inv.sample_mask_out = ~0u;
	fetch_vertex(d, &inv);
	char msg[256];
	if (d->vs(d->vs_user, &inv, msg, sizeof(msg)) != 0) {
		snprintf(d->err, d->errsize, "vertex shader (vertex %u, instance %u): %s",
			 vertex_index, instance_index, msg);
		return -1;
	}
	d->c->vs_invocations++;
	stage_output(&inv, &d->st->vs_info, out);
	return 0;
}

/* Clipping ("Primitive Clipping") -----------------------------------------*/

/* The view volume -wc <= xc, yc <= wc, 0 <= zc <= wc: distance to plane i
 * (inside when >= 0).  Depth clamping drops the z planes. */
static double plane_dist(uint32_t plane, const double p[4])
{
	switch (plane) {
	case 0: return p[3] + p[0];
	case 1: return p[3] - p[0];
	case 2: return p[3] + p[1];
	case 3: return p[3] - p[1];
	case 4: return p[2];
	default: return p[3] - p[2];
	}
}

static uint32_t outcode(const struct draw *d, const struct clip_vertex *v)
{
	uint32_t code = 0;
	for (uint32_t i = 0; i < d->nplanes; i++)
		if (!(plane_dist(i, v->p) >= 0.0)) /* NaN is outside */
			code |= 1u << i;
	return code;
}

/* The point where the edge from `in` (inside plane i) to `out` crosses
 * it.  Always computed from the inside vertex, so the two triangles that
 * share an edge get the same point and the shared edge stays shared.
 * Spec: varyings are interpolated with the clip parameter t, except that
 * for NoPerspective ones "t ... will be adjusted to produce results that
 * vary linearly in framebuffer space". */
static void clip_point(const struct draw *d, uint32_t plane, const struct clip_vertex *in,
		       const struct clip_vertex *out, double din, double dout,
		       struct clip_vertex *res)
{
	double t = din / (din - dout);
	for (int i = 0; i < 4; i++)
		res->p[i] = in->p[i] + t * (out->p[i] - in->p[i]);
	/* Put the point exactly on the plane, so an edge clipped to the
	 * volume's side lands exactly on the viewport's edge. */
	switch (plane) {
	case 0: res->p[0] = -res->p[3]; break;
	case 1: res->p[0] = res->p[3]; break;
	case 2: res->p[1] = -res->p[3]; break;
	case 3: res->p[1] = res->p[3]; break;
	case 4: res->p[2] = 0.0; break;
	default: res->p[2] = res->p[3]; break;
	}
	double den = (1.0 - t) * in->p[3] + t * out->p[3];
	double s = den != 0.0 ? t * out->p[3] / den : t;
	res->point_size = in->point_size;
	res->orig = false;
	for (uint32_t m = d->var_mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		double u = (d->nop_mask >> l & 1) ? s : t;
		for (int c = 0; c < 4; c++) {
			float a, b;
			memcpy(&a, &in->var[l][c], 4);
			memcpy(&b, &out->var[l][c], 4);
			float v = (float)(a + u * (b - a));
			memcpy(&res->var[l][c], &v, 4);
		}
	}
}

/* Sutherland-Hodgman against each plane in turn; returns the vertex count
 * of the clipped convex polygon in d->poly[*which]. */
static uint32_t clip_polygon(struct draw *d, uint32_t n, uint32_t *which)
{
	uint32_t cur = 0;
	for (uint32_t plane = 0; plane < d->nplanes && n >= 3; plane++) {
		const struct clip_vertex *src = d->poly[cur];
		struct clip_vertex *dst = d->poly[cur ^ 1];
		uint32_t m = 0;
		for (uint32_t i = 0; i < n; i++) {
			const struct clip_vertex *a = &src[i], *b = &src[(i + 1) % n];
			double da = plane_dist(plane, a->p), db = plane_dist(plane, b->p);
			if (da >= 0.0) {
				if (m < CLIP_MAX)
					dst[m++] = *a;
				if (db < 0.0 && m < CLIP_MAX) {
					clip_point(d, plane, a, b, da, db, &dst[m]);
					dst[m++].edge = false; /* runs along the plane */
				}
			} else if (db >= 0.0 && m < CLIP_MAX) {
				clip_point(d, plane, b, a, db, da, &dst[m]);
				dst[m++].edge = a->edge; /* part of the edge a -> b */
			}
		}
		n = m;
		cur ^= 1;
	}
	*which = cur;
	return n;
}

/* Perspective divide and viewport transform ("Coordinate Transformations",
 * "Controlling the Viewport"):
 *     xf = (px / 2) xd + ox,  ox = x + width / 2,  px = width
 *     yf = (py / 2) yd + oy,  oy = y + height / 2, py = height (may be < 0)
 *     zf = pz zd + oz,        pz = maxDepth - minDepth, oz = minDepth
 * False for a vertex that cannot be divided (wc <= 0 is only possible at
 * the volume's apex x = y = z = w = 0) or lands off the coordinate range. */
static bool to_screen(const struct draw *d, const struct clip_vertex *cv,
		      struct rd_raster_vertex *rv)
{
	const VkViewport *vp = &d->st->viewport;
	double w = cv->p[3];
	if (!(w > 0.0))
		return false;
	double xd = cv->p[0] / w, yd = cv->p[1] / w, zd = cv->p[2] / w;
	rv->x = vp->width / 2.0 * xd + (vp->x + vp->width / 2.0);
	rv->y = vp->height / 2.0 * yd + (vp->y + vp->height / 2.0);
	rv->z = ((double)vp->maxDepth - vp->minDepth) * zd + vp->minDepth;
	rv->inv_w = 1.0 / w;
	rv->point_size = cv->point_size;
	rv->edge = cv->edge;
	rv->orig = cv->orig;
	rv->var = (const uint32_t(*)[4])cv->var;
	return fabs(rv->x) <= RD_COORD_MAX && fabs(rv->y) <= RD_COORD_MAX && isfinite(rv->z);
}

/* Primitives: clipping and on to rasterization ----------------------------*/

static int raster_result(struct draw *d, int rc)
{
	if (rc != 0 && !d->r.failed)
		snprintf(d->err, d->errsize, "rasterization failed");
	return rc;
}

void rd_bin_clear(struct rd_bin *b)
{
	b->prim_count = 0;
	b->vertex_count = 0;
	b->oom = false;
}

void rd_bin_free(struct rd_bin *b)
{
	free(b->prims);
	free(b->vertices);
	free(b->vars);
	memset(b, 0, sizeof(*b));
}

static bool bin_grow(struct rd_bin *b, size_t prims, size_t vertices)
{
	if (b->prim_count + prims > b->prim_cap) {
		size_t cap = b->prim_cap ? b->prim_cap * 2 : 256;
		while (cap < b->prim_count + prims)
			cap *= 2;
		void *p = realloc(b->prims, cap * sizeof(*b->prims));
		if (!p)
			return false;
		b->prims = p;
		b->prim_cap = cap;
	}
	if (b->vertex_count + vertices > b->vertex_cap) {
		size_t cap = b->vertex_cap ? b->vertex_cap * 2 : 1024;
		while (cap < b->vertex_count + vertices)
			cap *= 2;
		void *v = realloc(b->vertices, cap * sizeof(*b->vertices));
		if (v)
			b->vertices = v;
		void *w = v ? realloc(b->vars, cap * sizeof(*b->vars)) : NULL;
		if (!w)
			return false;
		b->vars = w;
		b->vertex_cap = cap;
	}
	return true;
}

/* The binning phase keeps the primitive (n screen vertices and the
 * provoking vertex's outputs) with a bounding box widened by the point
 * size or line width, so a tile that misses the box misses the primitive;
 * otherwise the primitive is rasterized now. */
static int emit(struct draw *d, const struct rd_raster_vertex *v, uint32_t n,
		const uint32_t (*flat)[4])
{
	struct rd_bin *b = d->st->bin;
	if (!b) {
		if (n == 1)
			return raster_result(d, rd_raster_point(&d->r, v));
		if (n == 2)
			return raster_result(d, rd_raster_line(&d->r, &v[0], &v[1], flat));
		return raster_result(d, rd_raster_polygon(&d->r, v, n, flat));
	}
	if (b->oom || !bin_grow(b, 1, n + 1)) {
		b->oom = true;
		snprintf(d->err, d->errsize, "binning: out of memory");
		return -1;
	}
	struct rd_bin_prim *p = &b->prims[b->prim_count++];
	p->first_vertex = (uint32_t)b->vertex_count;
	p->n = (uint8_t)n;
	p->view = (uint8_t)d->view;
	double x0 = v[0].x, x1 = v[0].x, y0 = v[0].y, y1 = v[0].y, wide = 0;
	for (uint32_t i = 0; i < n; i++) {
		b->vertices[b->vertex_count] = v[i];
		b->vertices[b->vertex_count].var = NULL;
		memcpy(b->vars[b->vertex_count], v[i].var, sizeof(b->vars[0]));
		b->vertex_count++;
		x0 = fmin(x0, v[i].x);
		x1 = fmax(x1, v[i].x);
		y0 = fmin(y0, v[i].y);
		y1 = fmax(y1, v[i].y);
		wide = fmax(wide, v[i].point_size);
	}
	wide = fmax(wide, d->st->line_width) / 2.0 + 2.0;
	p->flat = (uint32_t)b->vertex_count;
	if (flat)
		memcpy(b->vars[b->vertex_count], flat, sizeof(b->vars[0]));
	else
		memset(b->vars[b->vertex_count], 0, sizeof(b->vars[0]));
	b->vertices[b->vertex_count++] = v[0]; /* unused slot beside the flat outputs */
	p->x0 = (int32_t)floor(x0 - wide);
	p->y0 = (int32_t)floor(y0 - wide);
	p->x1 = (int32_t)ceil(x1 + wide);
	p->y1 = (int32_t)ceil(y1 + wide);
	return 0;
}

/* Spec "Primitive Clipping": a point is kept only when inside the volume. */
static int clip_point_primitive(struct draw *d, const struct clip_vertex *v)
{
	if (outcode(d, v))
		return 0;
	struct rd_raster_vertex rv;
	if (!to_screen(d, v, &rv))
		return 0;
	d->c->clipping_primitives++;
	d->c->mesh_primitives += d->st->mesh != NULL;
	return emit(d, &rv, 1, NULL);
}

/* A line segment loses the parts outside each plane in turn. */
static int clip_line_primitive(struct draw *d, const struct clip_vertex *a,
			       const struct clip_vertex *b)
{
	uint32_t ca = outcode(d, a), cb = outcode(d, b);
	if (ca & cb)
		return 0;
	struct clip_vertex *e = d->poly[0];
	e[0] = *a;
	e[1] = *b;
	for (uint32_t plane = 0; plane < d->nplanes && (ca | cb); plane++) {
		double da = plane_dist(plane, e[0].p), db = plane_dist(plane, e[1].p);
		if (!(da >= 0.0) && !(db >= 0.0))
			return 0;
		if (!(da >= 0.0)) {
			clip_point(d, plane, &e[1], &e[0], db, da, &d->poly[1][0]);
			e[0] = d->poly[1][0];
		} else if (!(db >= 0.0)) {
			clip_point(d, plane, &e[0], &e[1], da, db, &d->poly[1][0]);
			e[1] = d->poly[1][0];
		}
	}
	struct rd_raster_vertex rv[2];
	if (!to_screen(d, &e[0], &rv[0]) || !to_screen(d, &e[1], &rv[1]))
		return 0;
	d->c->clipping_primitives++;
	d->c->mesh_primitives += d->st->mesh != NULL;
	/* Flat varyings come from the provoking (first) vertex as shaded. */
	return emit(d, rv, 2, (const uint32_t(*)[4])a->var);
}

static int clip_triangle_primitive(struct draw *d, const struct clip_vertex *const v[3])
{
	uint32_t c0 = outcode(d, v[0]), c1 = outcode(d, v[1]), c2 = outcode(d, v[2]);
	if (c0 & c1 & c2)
		return 0; /* wholly outside one plane */
	const struct clip_vertex *src[CLIP_MAX];
	uint32_t n = 3;
	if (c0 | c1 | c2) {
		for (int i = 0; i < 3; i++)
			d->poly[0][i] = *v[i];
		uint32_t which;
		n = clip_polygon(d, 3, &which);
		for (uint32_t i = 0; i < n; i++)
			src[i] = &d->poly[which][i];
	} else {
		for (int i = 0; i < 3; i++)
			src[i] = v[i];
	}
	if (n < 3)
		return 0;
	for (uint32_t i = 0; i < n; i++)
		if (!to_screen(d, src[i], &d->screen[i]))
			return 0;
	/* Spec 18.4: clipping primitives counts what clipping outputs; a
	 * clipped polygon is one primitive here. */
	d->c->clipping_primitives++;
	/* 18.9: a face-culled mesh primitive does not reach the fragment
	 * shader stage */
	if (d->st->mesh && !rd_raster_polygon_culled(d->st, d->screen, n))
		d->c->mesh_primitives++;
	return emit(d, d->screen, n, (const uint32_t(*)[4])v[0]->var);
}

/* Transform feedback ("Transform Feedback", before any other vertex
 * post-processing): the primitive's vertices are appended, each with all
 * its captured outputs, to every bound buffer the shader captures to for
 * the primitive's vertex stream, in the order output_primitive() gets them
 * (a rotation of the topology's winding order: "Implementations may write
 * out any vertex within the primitive first").  "If there is less space
 * remaining in any of the transform feedback buffers than the size of all
 * of the vertex data for that primitive ... then no vertex data of that
 * primitive is recorded in any transform feedback buffer, and the value
 * for the number of primitives written ... is no longer incremented":
 * from then on nothing is written for that stream until transform
 * feedback is begun again.  Parts of a vertex's stride with no output stay
 * as they were. */
static void xfb_capture(struct draw *d, uint32_t stream, const struct clip_vertex *const v[3],
			uint32_t n)
{
	struct rd_xfb *x = d->st->xfb;
	const struct rd_entry_info *info = d->last;
	d->c->xfb_primitives_needed[stream]++;
	if (x->full[stream])
		return;
	uint32_t mine = d->xfb_buffers[stream];
	for (uint32_t b = 0; b < RD_MAX_XFB_BUFFERS; b++) {
		uint64_t need = (uint64_t)n * info->xfb_stride[b];
		if ((mine >> b & 1) && need && x->data[b] &&
		    (x->pos[b] > x->size[b] || need > x->size[b] - x->pos[b])) {
			x->full[stream] = true;
			return;
		}
	}
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t k = 0; k < info->xfb_output_count; k++) {
			const struct rd_xfb_output *o = &info->xfb_outputs[k];
			if (o->stream != stream || !x->data[o->buffer])
				continue; /* "outputs made to a XfbBuffer that is not bound ... ignored" */
			uint8_t *dst = x->data[o->buffer] + x->pos[o->buffer] +
				       (uint64_t)i * info->xfb_stride[o->buffer] + o->offset;
			if (o->source == RD_XFB_POSITION) {
				for (uint32_t c = 0; c < o->words && c < 4; c++) {
					float f = (float)v[i]->p[c]; /* exact: p holds the shader's floats */
					memcpy(dst + 4 * c, &f, 4);
				}
			} else if (o->source == RD_XFB_POINT_SIZE) {
				memcpy(dst, &v[i]->point_size, 4);
			} else {
				memcpy(dst, v[i]->var[o->source], 4u * o->words);
			}
		}
	for (uint32_t b = 0; b < RD_MAX_XFB_BUFFERS; b++)
		if ((mine >> b & 1) && x->data[b])
			x->pos[b] += (uint64_t)n * info->xfb_stride[b];
	d->c->xfb_primitives_written[stream]++;
}

/* A primitive out of the last pre-rasterization stage, provoking vertex
 * first, on vertex stream `stream`: counted (18.8, even with rasterizer
 * discard), captured, and when it is on the rasterization stream (0)
 * clipped and rasterized. */
static int output_primitive(struct draw *d, uint32_t stream, const struct clip_vertex *const v[3],
			    uint32_t n)
{
	d->c->primitives_generated[stream]++;
	if (d->st->xfb)
		xfb_capture(d, stream, v, n);
	if (stream != 0 || d->st->rasterizer_discard)
		return 0; /* spec "Rasterizer Discard": nothing after the vertex stages */
	d->c->clipping_invocations++;
	switch (n) {
	case 1: return clip_point_primitive(d, v[0]);
	case 2: return clip_line_primitive(d, v[0], v[1]);
	default: return clip_triangle_primitive(d, v);
	}
}

/* Geometry shading ("Geometry Shading"): every input primitive runs the
 * shader Invocations times (18.4 counts each); the vertices an invocation
 * emits to a stream form strips of its output primitive, ended by
 * OpEndPrimitive and by the invocation's end, and each complete point,
 * line or triangle goes on as an output primitive (18.4 "each time the
 * geometry shader emits a primitive"; restarting a strip has "no effect"
 * on that count).  A triangle strip's triangle i has the vertex order
 * (i, i+1, i+2) for even i and (i, i+2, i+1) for odd i, as in "Triangle
 * Strips". */
static int gs_emit(void *user, uint32_t stream, const struct rd_invocation *inv)
{
	struct draw *d = user;
	const struct rd_entry_info *gi = &d->st->gs_info;
	/* the stream is a constant below RD_MAX_STREAMS (spirv/control.c) */
	if (++d->gs_emitted > gi->gs_max_vertices) {
		snprintf(d->err, d->errsize, "geometry shader: more vertices emitted than OutputVertices (%u)",
			 gi->gs_max_vertices);
		d->gs_failed = true;
		return -1;
	}
	struct gs_strip *s = &d->strip[stream];
	struct clip_vertex cv;
	stage_output(inv, gi, &cv);
	const struct clip_vertex *v[3];
	uint32_t n = 0;
	switch (gi->gs_output) {
	case RD_GS_OUT_POINTS:
		v[0] = &cv;
		n = 1;
		break;
	case RD_GS_OUT_LINE_STRIP:
		if (s->n >= 1) {
			v[0] = &s->v[1];
			v[1] = &cv;
			n = 2;
		}
		break;
	case RD_GS_OUT_TRIANGLE_STRIP:
		if (s->n >= 2) {
			bool odd = (s->n - 2) % 2;
			v[0] = &s->v[0];
			v[1] = odd ? &cv : &s->v[1];
			v[2] = odd ? &s->v[1] : &cv;
			n = 3;
		}
		break;
	}
	int rc = 0;
	if (n) {
		d->c->gs_primitives++;
		d->c->gs_primitives_first_strip += !d->gs_ended;
		rc = output_primitive(d, stream, v, n);
	}
	s->v[0] = s->v[1];
	s->v[1] = cv;
	s->n++;
	if (rc)
		d->gs_failed = true;
	return rc;
}

static void gs_end_primitive(void *user, uint32_t stream)
{
	struct draw *d = user;
	d->strip[stream].n = 0;
	d->gs_ended = true;
}

/* A vertex as the next shader stage reads it. */
static void stage_vertex(const struct clip_vertex *v, struct rd_stage_vertex *out)
{
	for (int c = 0; c < 4; c++)
		out->position[c] = (float)v->p[c]; /* exact: p holds the shader's floats */
	out->point_size = v->point_size;
	memcpy(out->var, v->var, sizeof(out->var));
}

static int run_geometry(struct draw *d, const struct clip_vertex *const v[6], uint32_t n)
{
	const struct rd_entry_info *gi = &d->st->gs_info;
	if (n != gi->gs_input_vertices) {
		snprintf(d->err, d->errsize,
			 "draw: the topology gives %u vertices per primitive, the geometry shader takes %u",
			 n, gi->gs_input_vertices);
		return -1;
	}
	struct rd_stage_vertex in[RD_MAX_GS_INPUT_VERTICES];
	for (uint32_t i = 0; i < n; i++)
		stage_vertex(v[i], &in[i]);
	for (uint32_t id = 0; id < gi->gs_invocations; id++) {
		struct rd_invocation inv;
		memset(&inv, 0, sizeof(inv));
		inv.gs_in = in;
		inv.invocation_id = id;
		inv.primitive_id = d->primitive_id;
		inv.view_index = d->view;
		inv.emit = gs_emit;
		inv.end_primitive = gs_end_primitive;
		inv.emit_user = d;
		for (uint32_t s = 0; s < RD_MAX_STREAMS; s++)
			d->strip[s].n = 0;
		d->gs_emitted = 0;
		d->gs_failed = false;
		d->gs_ended = false;
		d->c->gs_invocations++;
		char msg[256];
		if (d->gs(d->gs_user, &inv, msg, sizeof(msg)) != 0) {
			if (!d->gs_failed)
				snprintf(d->err, d->errsize, "geometry shader (primitive %u, invocation %u): %s",
					 d->primitive_id, id, msg);
			return -1;
		}
	}
	d->primitive_id++;
	return 0;
}

/* One input primitive in the order the geometry shader reads it (spec
 * "Geometry Shader Input Primitives"; with adjacency the primitive's own
 * vertices are 0 and 2 of a line's 4, 0, 2 and 4 of a triangle's 6).
 * Without a geometry shader the adjacent vertices are dropped. */
static int input_primitive(struct draw *d, const struct clip_vertex *const v[6], uint32_t n)
{
	d->c->ia_primitives++;
	if (d->gs)
		return run_geometry(d, v, n);
	const struct clip_vertex *b[3];
	switch (n) {
	case 4:
		b[0] = v[1], b[1] = v[2];
		return output_primitive(d, 0, b, 2);
	case 6:
		b[0] = v[0], b[1] = v[2], b[2] = v[4];
		return output_primitive(d, 0, b, 3);
	default:
		return output_primitive(d, 0, v, n);
	}
}

/* Tessellation (chapter "Tessellation"; counters 18.4): a patch is one
 * input assembly primitive; the control shader runs OutputVertices
 * invocations that share the output patch (rd_shader_run_group: barriers
 * in lockstep) and counts once per patch; the tessellator subdivides the
 * domain by the levels they wrote (a discarded patch makes nothing); the
 * evaluation shader runs once per distinct vertex it made, with TessCoord,
 * and each primitive over those vertices goes to the geometry shader, or
 * on as an output primitive.  PrimitiveId is the patch's index in the
 * instance in both shaders. */
static int input_patch(struct draw *d)
{
	const struct rd_graphics_state *st = d->st;
	uint32_t n = st->patch_control_points, nout = st->tcs_info.tess_output_vertices;
	d->c->ia_primitives++;
	struct rd_stage_vertex in[RD_MAX_PATCH_VERTICES];
	for (uint32_t i = 0; i < n; i++)
		stage_vertex(&d->patch_in[i], &in[i]);
	struct rd_invocation inv[RD_MAX_PATCH_VERTICES];
	memset(d->tcs_shared, 0, st->tcs_info.workgroup_memory_size);
	for (uint32_t id = 0; id < nout; id++) {
		memset(&inv[id], 0, sizeof(inv[id]));
		inv[id].gs_in = in;
		inv[id].patch_vertices = n;
		inv[id].invocation_id = id;
		inv[id].primitive_id = d->patch_id;
		inv[id].view_index = d->view;
		inv[id].workgroup_memory = d->tcs_shared;
		inv[id].block_counts = st->tcs_blocks;
	}
	char msg[256];
	d->c->tcs_patches++;
	if (rd_shader_run_group(st->tcs, &st->tcs_info, st->env, inv, nout, msg, sizeof(msg)) != 0) {
		snprintf(d->err, d->errsize, "tessellation control shader (patch %u): %s", d->patch_id, msg);
		return -1;
	}
	struct rd_patch patch;
	rd_shader_patch_outputs(st->tcs, &st->tcs_info, d->tcs_shared, &patch);
	struct rd_tess_mesh *m = &d->mesh;
	if (rd_tessellate(&st->tess, patch.tess_outer, patch.tess_inner, m) != 0) {
		snprintf(d->err, d->errsize, "tessellator: out of memory");
		return -1;
	}
	if (m->nverts > d->tes_cap) {
		void *p = realloc(d->tes_out, (size_t)m->nverts * sizeof(*d->tes_out));
		if (!p) {
			snprintf(d->err, d->errsize, "tessellation: out of memory");
			return -1;
		}
		d->tes_out = p;
		d->tes_cap = m->nverts;
	}
	for (uint32_t v = 0; v < m->nverts; v++) {
		struct rd_invocation e;
		memset(&e, 0, sizeof(e));
		e.patch = &patch;
		memcpy(e.tess_coord, m->coord[v], sizeof(e.tess_coord));
		e.primitive_id = d->patch_id;
		e.view_index = d->view;
		e.block_counts = st->tes_blocks;
		if (rd_shader_run(st->tes, &st->tes_info, st->env, &e, msg, sizeof(msg)) != 0) {
			snprintf(d->err, d->errsize, "tessellation evaluation shader (patch %u, vertex %u): %s",
				 d->patch_id, v, msg);
			return -1;
		}
		d->c->tes_invocations++;
		stage_output(&e, &st->tes_info, &d->tes_out[v]);
	}
	d->patch_id++;
	d->c->tess_primitives += m->nprims;
	for (uint32_t i = 0; i < m->nprims; i++) {
		const struct clip_vertex *v[6] = {0};
		for (uint32_t k = 0; k < m->prim_verts; k++)
			v[k] = &d->tes_out[m->prims[i][k]];
		int rc = d->gs ? run_geometry(d, v, m->prim_verts) : output_primitive(d, 0, v, m->prim_verts);
		if (rc)
			return rc;
	}
	return 0;
}

/* Triangle strips with adjacency ("Triangle Strips With Adjacency"):
 * triangle i of n reads, in the geometry shader's order (vertex, adjacent,
 * vertex, adjacent, vertex, adjacent),
 *   only (n = 1):   0, 1, 2, 5, 4, 3
 *   first (i = 0):  0, 1, 2, 6, 4, 3
 *   middle, even i: 2i, 2i-2, 2i+2, 2i+6, 2i+4, 2i+3
 *   middle, odd i:  2i+2, 2i-2, 2i, 2i+3, 2i+4, 2i+6
 *   last, even i:   2i, 2i-2, 2i+2, 2i+5, 2i+4, 2i+3
 *   last, odd i:    2i+2, 2i-2, 2i, 2i+3, 2i+4, 2i+5
 * so whether a triangle is the last is known only when the strip ends:
 * triangle i goes on once vertex 2i + 7 (the next triangle's) arrives,
 * the last one at the strip's end. */
static int strip_adjacency_triangle(struct draw *d, uint32_t i, bool last)
{
	uint32_t x[6];
	if (i == 0) {
		uint32_t only[6] = {0, 1, 2, 5, 4, 3}, first[6] = {0, 1, 2, 6, 4, 3};
		memcpy(x, last ? only : first, sizeof(x));
	} else {
		uint32_t far = last ? 2 * i + 5 : 2 * i + 6;
		if (i % 2 == 0) {
			uint32_t e[6] = {2 * i, 2 * i - 2, 2 * i + 2, far, 2 * i + 4, 2 * i + 3};
			memcpy(x, e, sizeof(x));
		} else {
			uint32_t o[6] = {2 * i + 2, 2 * i - 2, 2 * i, 2 * i + 3, 2 * i + 4, far};
			memcpy(x, o, sizeof(x));
		}
	}
	const struct clip_vertex *v[6];
	for (int k = 0; k < 6; k++)
		v[k] = &d->ring[x[k] % RING];
	return input_primitive(d, v, 6);
}

/* Primitive assembly ("Primitive Topologies"), with the spec's vertex
 * order and first-vertex provoking convention:
 *   triangle strip i: (v_i, v_(i+1+i%2), v_(i+2-i%2))
 *   triangle fan i:   (v_(i+1), v_(i+2), v_0)
 * Called after vertex k (since the last restart) was shaded into ring. */
static int assemble(struct draw *d)
{
	uint32_t k = d->k++;
	const struct clip_vertex *v[6];
#define RING_AT(i) (&d->ring[(i) % RING])
	switch (d->st->topology) {
	case VK_PRIMITIVE_TOPOLOGY_PATCH_LIST: /* "Patch Lists": patchControlPoints each */
		return (k + 1) % d->st->patch_control_points ? 0 : input_patch(d);
	case VK_PRIMITIVE_TOPOLOGY_POINT_LIST:
		v[0] = RING_AT(k);
		return input_primitive(d, v, 1);
	case VK_PRIMITIVE_TOPOLOGY_LINE_LIST:
		if (k % 2 == 0)
			return 0;
		v[0] = RING_AT(k - 1);
		v[1] = RING_AT(k);
		return input_primitive(d, v, 2);
	case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP:
		if (k < 1)
			return 0;
		v[0] = RING_AT(k - 1);
		v[1] = RING_AT(k);
		return input_primitive(d, v, 2);
	case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST:
		if (k % 3 != 2)
			return 0;
		v[0] = RING_AT(k - 2);
		v[1] = RING_AT(k - 1);
		v[2] = RING_AT(k);
		return input_primitive(d, v, 3);
	case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP: {
		if (k < 2)
			return 0;
		uint32_t i = k - 2;
		v[0] = RING_AT(i);
		v[1] = RING_AT(i + 1 + i % 2);
		v[2] = RING_AT(i + 2 - i % 2);
		return input_primitive(d, v, 3);
	}
	case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN:
		if (k == 0)
			d->fan0 = d->ring[0];
		if (k < 2)
			return 0;
		v[0] = RING_AT(k - 1);
		v[1] = RING_AT(k);
		v[2] = &d->fan0;
		return input_primitive(d, v, 3);
	/* "Line Lists With Adjacency": vertices 4i + 1 and 4i + 2 make the
	 * line, 4i and 4i + 3 are adjacent; "Line Strips With Adjacency":
	 * line i is i + 1 to i + 2 between i and i + 3; "Triangle Lists With
	 * Adjacency": 6i, 6i + 2, 6i + 4 with 6i + 1, 6i + 3, 6i + 5. */
	case VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY:
	case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY:
		if (d->st->topology == VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY ? k % 4 != 3 : k < 3)
			return 0;
		for (uint32_t j = 0; j < 4; j++)
			v[j] = RING_AT(k - 3 + j);
		return input_primitive(d, v, 4);
	case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY:
		if (k % 6 != 5)
			return 0;
		for (uint32_t j = 0; j < 6; j++)
			v[j] = RING_AT(k - 5 + j);
		return input_primitive(d, v, 6);
	case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY:
		if (k >= 7 && k % 2 == 1)
			return strip_adjacency_triangle(d, (k - 7) / 2, false);
		return 0;
	default:
		return 0;
	}
#undef RING_AT
}

/* The strip ends (a restart, the end of an instance): a triangle strip
 * with adjacency's last triangle goes on; n vertices make (n - 4) / 2. */
static int assemble_end(struct draw *d)
{
	int rc = 0;
	if (d->st->topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY && d->k >= 6)
		rc = strip_adjacency_triangle(d, (d->k - 4) / 2 - 1, true);
	d->k = 0;
	return rc;
}

static const char *topology_problem(const struct rd_graphics_state *st)
{
	VkPrimitiveTopology t = st->topology;
	if (st->tcs && t != VK_PRIMITIVE_TOPOLOGY_PATCH_LIST)
		return "tessellation needs the patch list topology";
	switch (t) {
	case VK_PRIMITIVE_TOPOLOGY_POINT_LIST:
	case VK_PRIMITIVE_TOPOLOGY_LINE_LIST:
	case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP:
	case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST:
	case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP:
	case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN:
	case VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY:
	case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY:
	case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY:
	case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY:
		return NULL;
	case VK_PRIMITIVE_TOPOLOGY_PATCH_LIST:
		if (!st->tcs || !st->tes)
			return "a patch list without tessellation shaders";
		if (st->patch_control_points == 0 || st->patch_control_points > RD_MAX_PATCH_VERTICES)
			return "patchControlPoints outside 1 to maxTessellationPatchSize";
		return NULL;
	default:
		return "unknown primitive topology";
	}
}

/* One view of the draw: every instance, every vertex. */
static int draw_view(struct draw *d)
{
	const struct rd_draw_params *dp = d->dp;
	uint32_t isize = index_size(dp->index_type);
	/* Spec "Primitive Restart": the all-ones index of the index type. */
	uint32_t restart = isize == 4 ? 0xffffffffu : isize == 2 ? 0xffffu : 0xffu;
	for (uint32_t inst = 0; inst < dp->instance_count; inst++) {
		uint32_t instance_index = dp->first_instance + inst;
		d->k = 0;
		d->primitive_id = 0; /* PrimitiveId counts from 0 in each instance */
		d->patch_id = 0;
		for (uint32_t i = 0; i < dp->count; i++) {
			uint32_t vertex_index;
			if (dp->indexed) {
				uint32_t index = fetch_index(dp, (uint64_t)dp->first + i);
				if (d->st->primitive_restart && index == restart) {
					/* the incomplete primitive is dropped */
					if (assemble_end(d))
						return -1;
					continue;
				}
				vertex_index = index + (uint32_t)dp->vertex_offset;
			} else {
				vertex_index = dp->first + i;
			}
			/* Spec 18.4: vertices of incomplete primitives may count;
			 * every vertex of the draw does here (a restart index is
			 * no vertex). */
			d->c->ia_vertices++;
			struct clip_vertex *dst = d->st->tcs ? &d->patch_in[d->k % d->st->patch_control_points]
							     : &d->ring[d->k % RING];
			if (shade_vertex(d, vertex_index, instance_index, dst))
				return -1;
			if (assemble(d))
				return -1;
		}
		if (assemble_end(d))
			return -1;
	}
	return 0;
}

/* Mesh shading (spec "Mesh Shading"; counters 18.4 and 18.9) -------------*/

/* Runs one workgroup of `info`'s shader: the invocations share `shared`
 * (zeroed first, then the payload copied in) and run as a group. */
static int run_workgroup(struct draw *d, const struct rd_shader *sh, const struct rd_entry_info *info,
			 uint64_t *blocks, uint8_t *shared, const uint32_t id[3], const uint32_t count[3],
			 const uint8_t *payload, uint32_t payload_size, const char *what)
{
	const uint32_t *ls = info->local_size;
	uint32_t n = ls[0] * ls[1] * ls[2];
	memset(shared, 0, info->workgroup_memory_size);
	if (payload && info->payload_size)
		memcpy(shared + info->payload_offset, payload,
		       payload_size < info->payload_size ? payload_size : info->payload_size);
	rd_shader_workgroup_invocations(d->group, ls, id, count, shared);
	for (uint32_t i = 0; i < n; i++) {
		d->group[i].view_index = d->view;
		d->group[i].draw_index = d->dp->draw_index;
		d->group[i].block_counts = blocks;
	}
	char msg[256];
	if (rd_shader_run_group(sh, info, d->st->env, d->group, n, msg, sizeof(msg)) != 0) {
		snprintf(d->err, d->errsize, "%s shader (workgroup %u, %u, %u): %s", what, id[0], id[1],
			 id[2], msg);
		return -1;
	}
	return 0;
}

/* The count every invocation that set it agrees on ("must be called with
 * dynamically uniform values"); false when two disagree. */
static bool group_counts(const struct draw *d, uint32_t n, bool mesh, uint32_t out[3])
{
	bool any = false;
	out[0] = out[1] = out[2] = 0;
	for (uint32_t i = 0; i < n; i++) {
		const struct rd_invocation *inv = &d->group[i];
		uint32_t v[3] = {inv->mesh_vertex_count, inv->mesh_primitive_count, 0};
		if (!mesh)
			memcpy(v, inv->task_groups, sizeof(v));
		if (!(mesh ? inv->mesh_outputs_set : inv->task_emitted))
			continue;
		if (any && memcmp(v, out, sizeof(v)) != 0)
			return false;
		memcpy(out, v, sizeof(v));
		any = true;
	}
	return true;
}

/* One mesh workgroup: its vertices and primitives (below the counts
 * OpSetMeshOutputsEXT set; none without it) go on as primitives of the
 * output topology, per-primitive outputs on each of their vertices (a
 * fragment shader reads them flat), those with CullPrimitiveEXT dropped. */
static int mesh_workgroup(struct draw *d, const uint32_t id[3], const uint32_t count[3],
			  const uint8_t *payload, uint32_t payload_size)
{
	const struct rd_graphics_state *st = d->st;
	const struct rd_entry_info *mi = &st->mesh_info;
	if (run_workgroup(d, st->mesh, mi, st->mesh_blocks, d->mesh_shared, id, count, payload,
			  payload_size, "mesh"))
		return -1;
	uint32_t n = mi->local_size[0] * mi->local_size[1] * mi->local_size[2], c[3];
	d->c->mesh_invocations += n;
	if (!group_counts(d, n, true, c)) {
		snprintf(d->err, d->errsize, "mesh shader: invocations of one workgroup set different "
			 "output counts (OpSetMeshOutputsEXT takes dynamically uniform values)");
		return -1;
	}
	for (uint32_t v = 0; v < c[0]; v++) {
		struct rd_stage_vertex sv;
		rd_shader_mesh_vertex(st->mesh, mi, d->mesh_shared, v, &sv);
		struct clip_vertex *cv = &d->mesh_vtx[v];
		for (int k = 0; k < 4; k++)
			cv->p[k] = sv.position[k];
		cv->point_size = sv.point_size;
		cv->edge = cv->orig = true;
		memcpy(cv->var, sv.var, sizeof(cv->var));
	}
	uint32_t nv = (uint32_t)mi->mesh_output; /* 1, 2 or 3 vertices per primitive */
	for (uint32_t i = 0; i < c[1]; i++) {
		struct rd_mesh_primitive mp;
		rd_shader_mesh_primitive(st->mesh, mi, d->mesh_shared, i, &mp);
		d->c->mesh_primitives_emitted++;
		if (mp.cull)
			continue;
		struct clip_vertex pv[3];
		const struct clip_vertex *pp[3];
		for (uint32_t k = 0; k < nv; k++) {
			if (mp.index[k] >= c[0]) {
				snprintf(d->err, d->errsize, "mesh shader: primitive %u uses vertex %u of %u",
					 i, mp.index[k], c[0]);
				return -1;
			}
			pv[k] = d->mesh_vtx[mp.index[k]];
			for (uint32_t m = mi->primitive_output_mask; m; m &= m - 1)
				memcpy(pv[k].var[__builtin_ctz(m)], mp.var[__builtin_ctz(m)], 16);
			pp[k] = &pv[k];
		}
		if (output_primitive(d, 0, pp, nv))
			return -1;
	}
	return 0;
}

/* maxTaskWorkGroupTotalCount, maxMeshWorkGroupTotalCount: 2^22, and each
 * count at most 65535 (the spec's minimums, offered as the limits). */
#define RD_MESH_GROUPS_TOTAL (1u << 22)
#define RD_MESH_GROUPS_EACH 65535u
static bool groups_ok(const uint32_t g[3])
{
	return g[0] <= RD_MESH_GROUPS_EACH && g[1] <= RD_MESH_GROUPS_EACH && g[2] <= RD_MESH_GROUPS_EACH &&
	       (uint64_t)g[0] * g[1] * g[2] <= RD_MESH_GROUPS_TOTAL;
}

/* Workgroup w of grid g in x-fastest order; false past the last. */
static bool grid_id(const uint32_t g[3], uint64_t w, uint32_t id[3])
{
	if (w >= (uint64_t)g[0] * g[1] * g[2])
		return false;
	id[0] = (uint32_t)(w % g[0]);
	id[1] = (uint32_t)(w / g[0] % g[1]);
	id[2] = (uint32_t)(w / g[0] / g[1]);
	return true;
}

/* One view of a mesh draw: the task workgroups, each launching the mesh
 * workgroups it emits with its payload, or the mesh workgroups alone. */
static int mesh_view(struct draw *d)
{
	const struct rd_graphics_state *st = d->st;
	const uint32_t *g = d->dp->groups;
	if (!groups_ok(g)) {
		snprintf(d->err, d->errsize, "draw: %u x %u x %u workgroups, beyond the limits", g[0], g[1],
			 g[2]);
		return -1;
	}
	const struct rd_entry_info *ti = &st->task_info;
	uint32_t id[3];
	for (uint64_t w = 0; grid_id(g, w, id); w++) {
		if (!st->task) {
			if (mesh_workgroup(d, id, g, NULL, 0))
				return -1;
			continue;
		}
		if (run_workgroup(d, st->task, ti, st->task_blocks, d->task_shared, id, g, NULL, 0, "task"))
			return -1;
		uint32_t n = ti->local_size[0] * ti->local_size[1] * ti->local_size[2], m[3], mid[3];
		d->c->task_invocations += n;
		if (!group_counts(d, n, false, m) || !groups_ok(m)) {
			snprintf(d->err, d->errsize, "task shader: invocations of one workgroup "
				 "emitted different counts, or counts beyond the limits");
			return -1;
		}
		for (uint64_t k = 0; grid_id(m, k, mid); k++)
			if (mesh_workgroup(d, mid, m, d->task_shared + ti->payload_offset, ti->payload_size))
				return -1;
	}
	return 0;
}

/* The memory a mesh draw needs: a workgroup's invocations, the shared
 * memory of a task and a mesh workgroup, the mesh output vertices. */
static bool mesh_alloc(struct draw *d)
{
	const struct rd_graphics_state *st = d->st;
	const uint32_t *ml = st->mesh_info.local_size;
	uint64_t n = (uint64_t)ml[0] * ml[1] * ml[2];
	if (st->task) {
		const uint32_t *tl = st->task_info.local_size;
		uint64_t t = (uint64_t)tl[0] * tl[1] * tl[2];
		n = t > n ? t : n;
	}
	if (n > RD_MAX_MESH_INVOCATIONS)
		return false;
	d->group = calloc(n, sizeof(*d->group));
	d->mesh_shared = calloc(1, st->mesh_info.workgroup_memory_size + 4);
	d->task_shared = calloc(1, (st->task ? st->task_info.workgroup_memory_size : 0) + 4);
	d->mesh_vtx = calloc(st->mesh_info.mesh_max_vertices + 1, sizeof(*d->mesh_vtx));
	return d->group && d->mesh_shared && d->task_shared && d->mesh_vtx;
}

static int run_gs(void *user, struct rd_invocation *inv, char *err, size_t errsize);

/* What a draw allocated. */
static void rc_free(struct draw *d)
{
	free(d->tcs_shared);
	free(d->tes_out);
	rd_tess_mesh_free(&d->mesh);
	free(d->group);
	free(d->mesh_shared);
	free(d->task_shared);
	free(d->mesh_vtx);
}

int rd_draw_run(const struct rd_graphics_state *st, const struct rd_draw_params *dp,
		rd_stage_fn vs, void *vs_user, rd_stage_fn fs, void *fs_user,
		struct rd_draw_counters *c, char *err, size_t errsize)
{
	const char *why = topology_problem(st);
	if (why) {
		snprintf(err, errsize, "draw: %s", why);
		return -1;
	}
	if (dp->indexed && !index_size(dp->index_type)) {
		snprintf(err, errsize, "draw: unsupported index type %d", (int)dp->index_type);
		return -1;
	}
	if (!vs && !st->mesh) {
		snprintf(err, errsize, "draw: no vertex shader");
		return -1;
	}
	if (st->view_mask >> RD_MAX_VIEWS) {
		snprintf(err, errsize, "draw: view mask 0x%x names views past %u", st->view_mask,
			 RD_MAX_VIEWS - 1);
		return -1;
	}
	struct draw draw;
	struct draw *d = &draw;
	memset(d, 0, sizeof(*d));
	d->st = st;
	d->dp = dp;
	d->vs = vs;
	d->vs_user = vs_user;
	if (st->gs) {
		d->gs = run_gs;
		d->gs_user = (void *)st;
	}
	const struct rd_entry_info *last = rd_last_stage_info(st);
	d->last = last;
	for (uint32_t k = 0; st->xfb && k < last->xfb_output_count; k++)
		d->xfb_buffers[last->xfb_outputs[k].stream] |= (uint8_t)(1u << last->xfb_outputs[k].buffer);
	d->c = c;
	d->err = err;
	d->errsize = errsize;
	d->nplanes = st->depth_clamp ? 4 : 6;
	if (fs) {
		d->var_mask = st->fs_info.input_mask & ~st->fs_info.flat_mask;
		d->nop_mask = st->fs_info.noperspective_mask;
	}
	/* Multiview ("Multiview" in the render pass chapter): the draw runs
	 * once per view in view_mask, ViewIndex set, into layer base + view;
	 * every counter counts each view (spec 18.4 allows statistics to
	 * count per view). */
	if ((st->tcs && !(d->tcs_shared = calloc(1, st->tcs_info.workgroup_memory_size + 4))) ||
	    (st->mesh && !mesh_alloc(d))) {
		snprintf(err, errsize, "draw: out of memory");
		rc_free(d);
		return -1;
	}
	int rc = 0;
	uint32_t views = st->view_mask ? st->view_mask : 1;
	for (; views && !rc; views &= views - 1) {
		d->view = st->view_mask ? (uint32_t)__builtin_ctz(views) : 0;
		if (!st->rasterizer_discard &&
		    rd_raster_begin(&d->r, st, d->view, fs, fs_user, c, err, errsize))
			rc = -1;
		else
			rc = st->mesh ? mesh_view(d) : draw_view(d);
	}
	rc_free(d);
	return rc;
}

/* The shader stages through the interpreter. */
static int run_gs(void *user, struct rd_invocation *inv, char *err, size_t errsize)
{
	const struct rd_graphics_state *st = user;
	inv->block_counts = st->gs_blocks;
	return rd_shader_run(st->gs, &st->gs_info, st->env, inv, err, errsize);
}

static int run_vs(void *user, struct rd_invocation *inv, char *err, size_t errsize)
{
	const struct rd_graphics_state *st = user;
	inv->block_counts = st->vs_blocks;
	return rd_shader_run(st->vs, &st->vs_info, st->env, inv, err, errsize);
}

static int run_fs(void *user, struct rd_invocation *inv, char *err, size_t errsize)
{
	const struct rd_graphics_state *st = user;
	inv->block_counts = st->fs_blocks;
	return rd_shader_run(st->fs, &st->fs_info, st->env, inv, err, errsize);
}

int rd_draw(const struct rd_graphics_state *st, const struct rd_draw_params *dp,
	    struct rd_draw_counters *c, char *err, size_t errsize)
{
	if (!st->vs && !st->mesh) {
		snprintf(err, errsize, "draw: no vertex shader");
		return -1;
	}
	return rd_draw_run(st, dp, st->vs ? run_vs : NULL, (void *)st, st->fs ? run_fs : NULL,
			   (void *)st, c, err, errsize);
}

int rd_draw_tile(const struct rd_graphics_state *st, const struct rd_bin *bin, size_t first,
		 size_t end, struct rd_draw_counters *c, char *err, size_t errsize)
{
	struct rd_raster r;
	int view = -1;
	int64_t sx0 = st->scissor.offset.x, sy0 = st->scissor.offset.y;
	int64_t sx1 = sx0 + st->scissor.extent.width, sy1 = sy0 + st->scissor.extent.height;
	struct rd_raster_vertex v[RD_RASTER_MAX_POLYGON];
	for (size_t i = first; i < end; i++) {
		const struct rd_bin_prim *p = &bin->prims[i];
		if (p->x1 < sx0 || p->x0 >= sx1 || p->y1 < sy0 || p->y0 >= sy1)
			continue; /* not binned to this tile */
		if ((int)p->view != view) {
			view = p->view;
			if (rd_raster_begin(&r, st, p->view, st->fs ? run_fs : NULL, (void *)st, c,
					    err, errsize))
				return -1;
		}
		for (uint32_t k = 0; k < p->n; k++) {
			v[k] = bin->vertices[p->first_vertex + k];
			v[k].var = (const uint32_t(*)[4])bin->vars[p->first_vertex + k];
		}
		const uint32_t(*flat)[4] = (const uint32_t(*)[4])bin->vars[p->flat];
		int rc = p->n == 1   ? rd_raster_point(&r, v)
			 : p->n == 2 ? rd_raster_line(&r, &v[0], &v[1], flat)
				     : rd_raster_polygon(&r, v, p->n, flat);
		if (rc != 0) {
			if (!r.failed)
				snprintf(err, errsize, "rasterization failed");
			return -1;
		}
	}
	return 0;
}
