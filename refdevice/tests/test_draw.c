/* Unit tests of whole draws (rd_draw.h): vertex fetch, primitive
 * assembly, the counters, clipping, the viewport, multiview and
 * rasterizer discard, with C functions standing in for the shaders
 * (rd_draw_run), then end to end through the SPIR-V interpreter with the
 * suite's own shaders (rd_draw). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rd_draw_fixture.h"
#include "shaders/color_frag.h"
#include "shaders/discard_odd_columns_frag.h"
#include "shaders/rect_vert.h"

/* Vertex stand-in: Position from a table by VertexIndex (or from input
 * location 0), and Location 0 = (VertexIndex, InstanceIndex, ViewIndex,
 * input 1's x) for the fragment side to see. ------------------------------*/

struct vs {
	const float (*pos)[4];
	uint32_t npos;
	bool from_input;
	float point_size;
	uint32_t fail_at;     /* fail on this VertexIndex + 1 (0: never) */
	uint32_t views_seen;  /* bit per ViewIndex */
	uint32_t calls;
	uint32_t seen_index[64];
	float seen_input1[64];
};

static int vs_fn(void *user, struct rd_invocation *inv, char *err, size_t errsize)
{
	struct vs *v = user;
	if (v->fail_at && inv->vertex_index + 1 == v->fail_at) {
		snprintf(err, errsize, "stand-in fault");
		return -1;
	}
	if (v->calls < 64) {
		v->seen_index[v->calls] = inv->vertex_index;
		memcpy(&v->seen_input1[v->calls], inv->in[1], 4);
	}
	v->calls++;
	v->views_seen |= 1u << (inv->view_index & 31);
	if (v->from_input)
		memcpy(inv->position, inv->in[0], 16);
	else if (v->npos)
		memcpy(inv->position, v->pos[inv->vertex_index % v->npos], 16);
	inv->point_size = v->point_size;
	float o[4] = {(float)inv->vertex_index, (float)inv->instance_index, (float)inv->view_index, 0};
	memcpy(&o[3], inv->in[1], 4);
	memcpy(inv->out[0], o, 16);
	/* Location 1: xf on the 64-wide viewport (linear in framebuffer
	 * space); Location 2: xc + 2 wc (linear in clip space). */
	const float *p = inv->position;
	float o1[4] = {(p[0] / p[3] + 1.0f) * 32.0f, 0, 0, 0}, o2[4] = {p[0] + 2.0f * p[3], 0, 0, 0};
	memcpy(inv->out[1], o1, 16);
	memcpy(inv->out[2], o2, 16);
	return 0;
}

/* Fragment stand-in: records the flat Location 0 seen per pixel. */
struct fs {
	float seen[FB * FB][4];
	float loc1[FB * FB], loc2[FB * FB], fc_w[FB * FB];
	uint32_t calls;
};

static int fs_fn(void *user, struct rd_invocation *inv, char *err, size_t errsize)
{
	struct fs *f = user;
	int x = (int)inv->frag_coord[0], y = (int)inv->frag_coord[1];
	if (x >= 0 && x < FB && y >= 0 && y < FB)
	{
		memcpy(f->seen[y * FB + x], inv->in[0], 16);
		memcpy(&f->loc1[y * FB + x], inv->in[1], 4);
		memcpy(&f->loc2[y * FB + x], inv->in[2], 4);
		f->fc_w[y * FB + x] = inv->frag_coord[3];
	}
	f->calls++;
	float col[4] = {0.25f, 0.5f, 0.75f, 1.0f};
	memcpy(inv->out[0], col, 16);
	return 0;
}

static int run(struct target *t, struct vs *v, struct fs *f, const struct rd_draw_params *dp)
{
	memset(&t->c, 0, sizeof(t->c));
	return rd_draw_run(&t->st, dp, vs_fn, v, f ? fs_fn : NULL, f, &t->c, t->err, sizeof(t->err));
}

static struct rd_draw_params plain(uint32_t count, uint32_t instances)
{
	return (struct rd_draw_params){.count = count, .instance_count = instances};
}

/* Clip coordinates of a framebuffer pixel position on the 64x64 target
 * with the fixture's viewport (0, 0, 64, 64). */
#define NDC(p) ((float)(p) / 32.0f - 1.0f)

/* Counters per topology (spec 18.4) ---------------------------------------*/

struct topo_case {
	VkPrimitiveTopology topology;
	uint32_t count, primitives;
};

static void test_topology_counters(void)
{
	static const struct topo_case cs[] = {
		{VK_PRIMITIVE_TOPOLOGY_POINT_LIST, 5, 5},     {VK_PRIMITIVE_TOPOLOGY_LINE_LIST, 5, 2},
		{VK_PRIMITIVE_TOPOLOGY_LINE_STRIP, 5, 4},     {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, 7, 2},
		{VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, 6, 4}, {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN, 6, 4},
		{VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, 2, 0},  {VK_PRIMITIVE_TOPOLOGY_LINE_STRIP, 1, 0},
	};
	/* All vertices inside the volume: every primitive survives clipping. */
	static const float pos[7][4] = {{-0.5f, -0.5f, 0.5f, 1}, {0.5f, -0.5f, 0.5f, 1},
					{-0.5f, 0.5f, 0.5f, 1},  {0.5f, 0.5f, 0.5f, 1},
					{0.0f, 0.9f, 0.5f, 1},   {0.9f, 0.0f, 0.5f, 1},
					{-0.9f, 0.0f, 0.5f, 1}};
	for (size_t i = 0; i < sizeof(cs) / sizeof(cs[0]); i++)
		for (uint32_t inst = 1; inst <= 3; inst += 2) {
			struct target t;
			target_init(&t, 1, VK_FORMAT_UNDEFINED);
			t.st.topology = cs[i].topology;
			struct vs v = {.pos = pos, .npos = 7, .point_size = 1.0f};
			struct rd_draw_params dp = plain(cs[i].count, inst);
			char what[64];
			snprintf(what, sizeof(what), "topology %d, %u vertices, %u instances",
				 (int)cs[i].topology, cs[i].count, inst);
			CHECK(run(&t, &v, NULL, &dp) == 0, "%s: %s", what, t.err);
			CHECK_EQ(t.c.ia_vertices, cs[i].count * inst, what);
			CHECK_EQ(t.c.vs_invocations, cs[i].count * inst, what);
			CHECK_EQ(t.c.ia_primitives, cs[i].primitives * inst, what);
			CHECK_EQ(t.c.primitives_generated[0], cs[i].primitives * inst, what);
			CHECK_EQ(t.c.clipping_invocations, cs[i].primitives * inst, what);
			CHECK_EQ(t.c.clipping_primitives, cs[i].primitives * inst, what);
			CHECK_EQ(rd_fs_invocations(&t.c), 0, what);
			target_free(&t);
		}
	struct target t;
	target_init(&t, 1, VK_FORMAT_UNDEFINED);
	struct vs v = {.pos = pos, .npos = 7};
	struct rd_draw_params dp = plain(6, 1);
	/* Adjacency without a geometry shader: every vertex is shaded, each
	 * primitive counts once and its own vertices go on ("Triangle Lists
	 * With Adjacency": 6 a triangle; "Triangle Strips With Adjacency":
	 * 2n + 4 vertices make n triangles, with a restart ending a strip). */
	static const struct {
		VkPrimitiveTopology topology;
		uint32_t count, primitives;
	} adj[] = {
		{VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY, 6, 1},
		{VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY, 6, 3},
		{VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY, 6, 1},
		{VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY, 5, 0},
		{VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY, 6, 1},
		{VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY, 7, 1},
	};
	for (size_t i = 0; i < sizeof(adj) / sizeof(adj[0]); i++) {
		struct rd_draw_params ap = plain(adj[i].count, 1);
		t.st.topology = adj[i].topology;
		memset(&t.c, 0, sizeof(t.c));
		CHECK(run(&t, &v, NULL, &ap) == 0, "adjacency %zu: %s", i, t.err);
		CHECK_EQ(t.c.vs_invocations, adj[i].count, "adjacency: every vertex shaded");
		CHECK_EQ(t.c.ia_primitives, adj[i].primitives, "adjacency: primitives");
		CHECK_EQ(t.c.clipping_invocations, adj[i].primitives, "adjacency: clipped");
	}
	t.st.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
	CHECK(run(&t, &v, NULL, &dp) == -1 && strstr(t.err, "tessellation"), "patches refused: '%s'",
	      t.err);
	target_free(&t);
}

/* Indexed draws: vertexOffset, 16/32-bit indices, primitive restart --------*/

static void test_indexed(void)
{
	static const float pos[1][4] = {{0, 0, 0.5f, 1}};
	static const uint16_t idx16[] = {0, 1, 2, 3, 0xffff, 4, 5, 6};
	static const uint32_t idx32[] = {0, 1, 2, 3, 0xffffffffu, 4, 5, 6};
	for (int wide = 0; wide < 2; wide++)
		for (int restart = 0; restart < 2; restart++) {
			struct target t;
			target_init(&t, 1, VK_FORMAT_UNDEFINED);
			t.st.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
			t.st.primitive_restart = restart;
			struct vs v = {.pos = pos, .npos = 1};
			struct rd_draw_params dp = {
				.indexed = true, .count = 7, .instance_count = 1, .first = 1,
				.vertex_offset = 100,
				.index_data = wide ? (const uint8_t *)idx32 : (const uint8_t *)idx16,
				.index_size = wide ? sizeof(idx32) : sizeof(idx16),
				.index_type = wide ? VK_INDEX_TYPE_UINT32 : VK_INDEX_TYPE_UINT16};
			char what[64];
			snprintf(what, sizeof(what), "%s indices, restart %s", wide ? "32-bit" : "16-bit",
				 restart ? "on" : "off");
			CHECK(run(&t, &v, NULL, &dp) == 0, "%s: %s", what, t.err);
			if (restart) {
				/* (1 2 3) | (4 5 6): one triangle each; the restart
				 * index is no vertex */
				CHECK_EQ(t.c.ia_vertices, 6, what);
				CHECK_EQ(t.c.ia_primitives, 2, what);
				CHECK_EQ(v.seen_index[3], 104, what);
			} else {
				/* the all-ones index is an ordinary index */
				CHECK_EQ(t.c.ia_vertices, 7, what);
				CHECK_EQ(t.c.ia_primitives, 5, what);
				CHECK_EQ(v.seen_index[3], (wide ? 0xffffffffu : 0xffffu) + 100u, what);
			}
			CHECK_EQ(v.seen_index[0], 101, what);
			target_free(&t);
		}
	/* Indices past the buffer's end read 0 (never outside memory). */
	struct target t;
	target_init(&t, 1, VK_FORMAT_UNDEFINED);
	struct vs v = {.pos = pos, .npos = 1};
	struct rd_draw_params dp = {.indexed = true, .count = 6, .instance_count = 1, .first = 6,
				    .index_data = (const uint8_t *)idx16, .index_size = sizeof(idx16),
				    .index_type = VK_INDEX_TYPE_UINT16};
	CHECK(run(&t, &v, NULL, &dp) == 0, "out-of-range indices: %s", t.err);
	CHECK(v.seen_index[0] == 5 && v.seen_index[1] == 6 && v.seen_index[2] == 0 &&
		      v.seen_index[5] == 0,
	      "out-of-range indices read %u %u %u .. %u", v.seen_index[0], v.seen_index[1],
	      v.seen_index[2], v.seen_index[5]);
	target_free(&t);
}

/* Strips and fans: consistent winding, and the provoking vertex of each
 * triangle (spec "Primitive Topologies": strip i is (i, i+1+i%2, i+2-i%2),
 * fan i is (i+1, i+2, 0), the first vertex provoking). */
static void test_strip_fan(void)
{
	for (int fan = 0; fan < 2; fan++) {
		/* A quad as a strip (0 1 2 3) or fan (0 1 2 3) of 2 triangles. */
		static const float strip[4][4] = {
			{NDC(8), NDC(8), 0.5f, 1}, {NDC(40), NDC(8), 0.5f, 1},
			{NDC(8), NDC(40), 0.5f, 1}, {NDC(40), NDC(40), 0.5f, 1}};
		static const float fanpos[4][4] = {
			{NDC(8), NDC(8), 0.5f, 1}, {NDC(40), NDC(8), 0.5f, 1},
			{NDC(40), NDC(40), 0.5f, 1}, {NDC(8), NDC(40), 0.5f, 1}};
		struct target t;
		target_init(&t, 4, VK_FORMAT_UNDEFINED);
		t.st.topology = fan ? VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN : VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
		t.st.fs_info.input_mask = 1;
		t.st.fs_info.flat_mask = 1;
		struct vs v = {.pos = fan ? fanpos : strip, .npos = 4};
		struct fs *f = calloc(1, sizeof(*f));
		struct rd_draw_params dp = plain(4, 1);
		/* Both triangles have the same facing: culling one face keeps
		 * both or neither. */
		uint64_t counts[2];
		for (int cull = 0; cull < 2; cull++) {
			t.st.cull_mode = cull ? VK_CULL_MODE_FRONT_BIT : VK_CULL_MODE_BACK_BIT;
			CHECK(run(&t, &v, f, &dp) == 0, "%s", t.err);
			counts[cull] = t.c.samples_passed[0];
		}
		CHECK((counts[0] == 0) != (counts[1] == 0) && counts[0] + counts[1] == 32 * 32 * 4,
		      "%s: counts with cull back %llu, front %llu", fan ? "fan" : "strip",
		      (unsigned long long)counts[0], (unsigned long long)counts[1]);
		t.st.cull_mode = VK_CULL_MODE_NONE;
		CHECK(run(&t, &v, f, &dp) == 0, "%s", t.err);
		/* strip: triangle 0 = (0 1 2) provoking 0 near (8,8); triangle 1 =
		 * (1 3 2) provoking 1, near (40,40).  fan: triangle 0 = (1 2 0)
		 * provoking 1 near (40,8); triangle 1 = (2 3 0) provoking 2 near
		 * (8,40). */
		float a = f->seen[10 * FB + 10][0], b = f->seen[38 * FB + 38][0];
		float c = f->seen[10 * FB + 38][0], d = f->seen[38 * FB + 10][0];
		if (!fan)
			CHECK(a == 0 && b == 1, "strip provoking vertices %g %g", a, b);
		else
			CHECK(c == 1 && d == 2, "fan provoking vertices %g %g", c, d);
		free(f);
		target_free(&t);
	}
}

/* Vertex fetch (spec "Vertex Input Description") ----------------------------*/

static void test_vertex_fetch(void)
{
	static const float xy[6][2] = {{NDC(0), NDC(0)}, {NDC(10), NDC(0)}, {NDC(0), NDC(10)},
				       {NDC(10), NDC(0)}, {NDC(10), NDC(10)}, {NDC(0), NDC(10)}};
	static const float per_instance[4] = {7, 8, 9, 10};
	struct target t;
	target_init(&t, 1, VK_FORMAT_UNDEFINED);
	t.st.vs_info.input_mask = 0x3;
	t.st.attribute_count = 2;
	t.st.attributes[0] = (struct rd_vertex_attribute){0, 0, 0, VK_FORMAT_R32G32_SFLOAT};
	t.st.attributes[1] = (struct rd_vertex_attribute){1, 1, 4, VK_FORMAT_R32_SFLOAT};
	t.st.bindings[0] = (struct rd_vertex_binding){(const uint8_t *)xy, sizeof(xy), 8,
						     VK_VERTEX_INPUT_RATE_VERTEX};
	t.st.bindings[1] = (struct rd_vertex_binding){(const uint8_t *)per_instance,
						     sizeof(per_instance), 4,
						     VK_VERTEX_INPUT_RATE_INSTANCE};
	struct vs v = {.from_input = true};
	/* Position (x, y, 0, 1) from R32G32 ("missing components 0, 0, 1"). */
	struct rd_draw_params dp = {.count = 6, .instance_count = 2, .first_instance = 1};
	CHECK(run(&t, &v, NULL, &dp) == 0, "%s", t.err);
	CHECK_EQ(t.c.samples_passed[0], 2 * 100, "rectangle from vertex buffer, 2 instances");
	/* instance-rate attribute at offset 4: element firstInstance + i */
	CHECK(v.seen_input1[0] == 9 && v.seen_input1[6] == 10, "instance attribute %g %g",
	      v.seen_input1[0], v.seen_input1[6]);
	/* Vertices past the binding's range read zeros (Position (0,0,0,0):
	 * dropped), so drawing vertices 3..8 draws the second triangle only,
	 * whose samples and the first's make the rectangle. */
	v.calls = 0;
	dp = (struct rd_draw_params){.count = 3, .instance_count = 1};
	CHECK(run(&t, &v, NULL, &dp) == 0, "%s", t.err);
	uint64_t first = t.c.samples_passed[0];
	dp = (struct rd_draw_params){.count = 6, .instance_count = 1, .first = 3};
	CHECK(run(&t, &v, NULL, &dp) == 0, "%s", t.err);
	CHECK_EQ(first + t.c.samples_passed[0], 100, "second triangle, then vertices past the end");
	CHECK_EQ(t.c.ia_primitives, 2, "vertices past the end are still assembled");
	/* Instance index past the instance binding: zeros. */
	v.calls = 0;
	dp = (struct rd_draw_params){.count = 3, .instance_count = 1, .first_instance = 3};
	CHECK(run(&t, &v, NULL, &dp) == 0, "%s", t.err);
	CHECK(v.seen_input1[0] == 0, "instance attribute past the end read %g", v.seen_input1[0]);
	target_free(&t);
}

/* Clipping (spec "Primitive Clipping") --------------------------------------*/

/* Samples inside the triangle (pixel coordinates) and the target: a lower
 * bound (inside by more than eps) and an upper bound (inside or within
 * eps).  Snapping moves vertices by at most 1/512 pixel per axis, and the
 * clipped polygon's vertices lie on the original edges up to rounding, so
 * with eps = 1/64 the rasterizer's count lies between the two. */
static void brute_bounds(const double v[3][2], uint32_t samples, double eps, uint64_t *lo,
			 uint64_t *hi)
{
	const float(*loc)[2] = rd_sample_locations(samples);
	double area = (v[1][0] - v[0][0]) * (v[2][1] - v[0][1]) - (v[1][1] - v[0][1]) * (v[2][0] - v[0][0]);
	*lo = *hi = 0;
	for (int y = 0; y < FB; y++)
		for (int x = 0; x < FB; x++)
			for (uint32_t s = 0; s < samples; s++) {
				double px = x + loc[s][0], py = y + loc[s][1], dmin = 1e9;
				for (int i = 0; i < 3; i++) {
					const double *a = v[i], *b = v[(i + 1) % 3];
					double ex = b[0] - a[0], ey = b[1] - a[1];
					double e = (ex * (py - a[1]) - ey * (px - a[0])) * (area > 0 ? 1 : -1);
					double dd = e / sqrt(ex * ex + ey * ey);
					dmin = dd < dmin ? dd : dmin;
				}
				*lo += dmin > eps;
				*hi += dmin > -eps;
			}
}

static void test_clipping(void)
{
	for (uint32_t samples = 1; samples <= 4; samples += 3) {
		struct target t;
		target_init(&t, samples, VK_FORMAT_UNDEFINED);
		struct vs v = {.npos = 3};
		struct rd_draw_params dp = plain(3, 1);
		char what[96];

		/* Partly outside the left and bottom edges, with w != 1 so the
		 * clipped vertices go through the perspective divide. */
		const double tv[3][2] = {{-20.3, 10.7}, {50.2, 30.1}, {12.6, 80.9}};
		const float w[3] = {1.0f, 2.0f, 0.5f};
		float pos[3][4];
		for (int i = 0; i < 3; i++) {
			pos[i][0] = NDC(tv[i][0]) * w[i];
			pos[i][1] = NDC(tv[i][1]) * w[i];
			pos[i][2] = 0.5f * w[i];
			pos[i][3] = w[i];
		}
		v.pos = (const float(*)[4])pos;
		CHECK(run(&t, &v, NULL, &dp) == 0, "%s", t.err);
		uint64_t lo, hi;
		brute_bounds(tv, samples, 1.0 / 64, &lo, &hi);
		snprintf(what, sizeof(what), "partly outside, %u samples: %llu not in [%llu, %llu]",
			 samples, (unsigned long long)t.c.samples_passed[0], (unsigned long long)lo,
			 (unsigned long long)hi);
		CHECK(t.c.samples_passed[0] >= lo && t.c.samples_passed[0] <= hi && lo > 0, "%s", what);
		CHECK_EQ(t.c.clipping_invocations, 1, "partly outside");
		/* Interpolation across the vertices clipping made (spec
		 * "Primitive Clipping": NoPerspective outputs use a t adjusted
		 * to be linear in framebuffer space): xf comes back exactly
		 * linearly, xc + 2 wc perspective-correctly. */
		{
			struct fs *f = calloc(1, sizeof(*f));
			t.st.fs_info.input_mask = 0x6;
			t.st.fs_info.noperspective_mask = 0x2;
			CHECK(run(&t, &v, f, &dp) == 0, "%s", t.err);
			double err1 = 0, err2 = 0;
			for (int p = 0; p < FB * FB; p++) {
				if (f->fc_w[p] == 0)
					continue;
				double x = p % FB + 0.5, xndc = x / 32 - 1;
				err1 = fmax(err1, fabs(f->loc1[p] - x));
				err2 = fmax(err2, fabs(f->loc2[p] - (xndc + 2) / f->fc_w[p]));
			}
			CHECK(f->calls > 100 && err1 < 1e-3 && err2 < 1e-4,
			      "clipped varyings: noperspective error %g, perspective error %g", err1, err2);
			t.st.fs_info.input_mask = 0;
			t.st.fs_info.noperspective_mask = 0;
			free(f);
		}
		CHECK_EQ(t.c.clipping_primitives, 1, "partly outside");
		/* Analytic check: the visible part's area (a polygon clipped to
		 * [0,64]^2, by the shoelace formula) against the count; a
		 * lattice count of a convex region differs from its area by
		 * less than its perimeter / 2 + 1 pixels (Nosarzewska's
		 * bound, per sample grid). */
		{
			double poly[12][2], tmp[12][2];
			int n = 3;
			for (int i = 0; i < 3; i++) {
				poly[i][0] = tv[i][0];
				poly[i][1] = tv[i][1];
			}
			for (int plane = 0; plane < 4; plane++) {
				int m = 0;
				for (int i = 0; i < n; i++) {
					const double *a = poly[i], *b = poly[(i + 1) % n];
					int ax = plane < 2 ? 0 : 1;
					double lim = plane % 2 ? 64 : 0, sgn = plane % 2 ? -1 : 1;
					double da = sgn * (a[ax] - lim), db = sgn * (b[ax] - lim);
					if (da >= 0) {
						tmp[m][0] = a[0];
						tmp[m++][1] = a[1];
					}
					if ((da >= 0) != (db >= 0)) {
						double tt = da / (da - db);
						tmp[m][0] = a[0] + tt * (b[0] - a[0]);
						tmp[m++][1] = a[1] + tt * (b[1] - a[1]);
					}
				}
				memcpy(poly, tmp, sizeof(tmp));
				n = m;
			}
			double area = 0, perim = 0;
			for (int i = 0; i < n; i++) {
				const double *a = poly[i], *b = poly[(i + 1) % n];
				area += a[0] * b[1] - b[0] * a[1];
				perim += hypot(b[0] - a[0], b[1] - a[1]);
			}
			area = fabs(area) / 2;
			double got = (double)t.c.samples_passed[0] / samples;
			CHECK(fabs(got - area) < perim / 2 + 1, "visible area %.2f, count / samples %.2f",
			      area, got);
		}

		/* Wholly outside: clipped away, counted as a clipping invocation. */
		static const float out[3][4] = {{-2, -2, 0.5f, 1}, {-1.5f, -2, 0.5f, 1}, {-2, -1.5f, 0.5f, 1}};
		v.pos = out;
		CHECK(run(&t, &v, NULL, &dp) == 0, "%s", t.err);
		CHECK(t.c.samples_passed[0] == 0 && t.c.clipping_invocations == 1 &&
			      t.c.clipping_primitives == 0,
		      "outside: %llu samples, %llu invocations, %llu primitives",
		      (unsigned long long)t.c.samples_passed[0],
		      (unsigned long long)t.c.clipping_invocations,
		      (unsigned long long)t.c.clipping_primitives);

		/* Covering the whole volume with every vertex outside: exactly
		 * the target, the clipped edges landing on its sides. */
		static const float big[3][4] = {{-10, -10, 0.5f, 1}, {30, -10, 0.5f, 1}, {-10, 30, 0.5f, 1}};
		v.pos = big;
		CHECK(run(&t, &v, NULL, &dp) == 0, "%s", t.err);
		CHECK_EQ(t.c.samples_passed[0], FB * FB * samples, "triangle around the volume");
		CHECK_EQ(t.c.clipping_primitives, 1, "triangle around the volume");

		/* A rectangle (two triangles) from x = -8 to 24 pixels: the part
		 * inside counts exactly (24 x 16), as the suite relies on. */
		const float rx[6] = {-8, 24, -8, 24, 24, -8}, ry[6] = {4, 4, 20, 4, 20, 20};
		float rp[6][4];
		for (int i = 0; i < 6; i++) {
			rp[i][0] = NDC(rx[i]);
			rp[i][1] = NDC(ry[i]);
			rp[i][2] = 0.5f;
			rp[i][3] = 1.0f;
		}
		v.pos = (const float(*)[4])rp;
		v.npos = 6;
		dp = plain(6, 1);
		CHECK(run(&t, &v, NULL, &dp) == 0, "%s", t.err);
		CHECK_EQ(t.c.samples_passed[0], 24 * 16 * samples, "rectangle clipped at x = 0");

		/* Depth: z from -0.5 to 1.5 across x clips at zc = 0 and zc = wc,
		 * keeping the middle half; with depth clamping nothing is
		 * clipped and depth clamps to the viewport's range. */
		const float zx[6] = {0, 64, 0, 64, 64, 0}, zz[6] = {-0.5f, 1.5f, -0.5f, 1.5f, 1.5f, -0.5f};
		for (int i = 0; i < 6; i++) {
			rp[i][0] = NDC(zx[i]);
			rp[i][1] = NDC(ry[i]);
			rp[i][2] = zz[i];
		}
		CHECK(run(&t, &v, NULL, &dp) == 0, "%s", t.err);
		CHECK_EQ(t.c.samples_passed[0], 32 * 16 * samples, "z clipping keeps 16 <= x < 48");
		t.st.depth_clamp = true;
		CHECK(run(&t, &v, NULL, &dp) == 0, "%s", t.err);
		CHECK_EQ(t.c.samples_passed[0], 64 * 16 * samples, "depth clamp: no z clipping");
		t.st.depth_clamp = false;
		v.npos = 3;
		dp = plain(3, 1);
		target_free(&t);
	}

	/* Points are dropped when outside; lines are cut. */
	struct target t;
	target_init(&t, 1, VK_FORMAT_UNDEFINED);
	static const float pts[3][4] = {{NDC(10.5), NDC(10.5), 0.5f, 1}, {1.5f, 0, 0.5f, 1},
					{NDC(20.5), NDC(20.5), -0.5f, 1}};
	struct vs v = {.pos = pts, .npos = 3, .point_size = 1.0f};
	struct rd_draw_params dp = plain(3, 1);
	t.st.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
	CHECK(run(&t, &v, NULL, &dp) == 0, "%s", t.err);
	CHECK(t.c.samples_passed[0] == 1 && t.c.clipping_invocations == 3 &&
		      t.c.clipping_primitives == 1,
	      "points: %llu samples, %llu clipped of %llu", (unsigned long long)t.c.samples_passed[0],
	      (unsigned long long)t.c.clipping_primitives, (unsigned long long)t.c.clipping_invocations);
	/* Point size from the vertex shader when it writes PointSize. */
	t.st.vs_info.writes_point_size = true;
	v.point_size = 4.0f;
	static const float p4[1][4] = {{NDC(20), NDC(20), 0.5f, 1}};
	v.pos = p4;
	v.npos = 1;
	dp = plain(1, 1);
	CHECK(run(&t, &v, NULL, &dp) == 0, "%s", t.err);
	CHECK_EQ(t.c.samples_passed[0], 16, "point of size 4 from the vertex shader");
	t.st.vs_info.writes_point_size = false;
	CHECK(run(&t, &v, NULL, &dp) == 0, "%s", t.err);
	CHECK_EQ(t.c.samples_passed[0], 1, "PointSize not written: 1.0");
	/* A horizontal line from x = -20 to 10 at a pixel centre row. */
	static const float ln[2][4] = {{NDC(-20), NDC(30.5), 0.5f, 1}, {NDC(10), NDC(30.5), 0.5f, 1}};
	t.st.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
	v.pos = ln;
	v.npos = 2;
	dp = plain(2, 1);
	CHECK(run(&t, &v, NULL, &dp) == 0, "%s", t.err);
	CHECK_EQ(t.c.samples_passed[0], 10, "line clipped at x = 0");
	target_free(&t);
}

/* The viewport: a negative height flips y (spec "Controlling the
 * Viewport": oy = y + height / 2, py = height). */
static void test_viewport(void)
{
	static const float tri[3][4] = {{-1, -1, 0.5f, 1}, {0, -1, 0.5f, 1}, {-1, 0, 0.5f, 1}};
	struct target t;
	target_init(&t, 1, VK_FORMAT_UNDEFINED);
	struct vs v = {.pos = tri, .npos = 3};
	struct fs *f = calloc(1, sizeof(*f));
	struct rd_draw_params dp = plain(3, 1);
	t.st.fs_info.input_mask = 1;
	t.st.viewport = (VkViewport){0, 64, 64, -64, 0, 1};
	CHECK(run(&t, &v, f, &dp) == 0, "%s", t.err);
	CHECK(f->calls > 0 && f->seen[62 * FB + 1][3] == 0 && pixels_written(&t, 0) == f->calls,
	      "flipped viewport");
	CHECK(texel_at(&t, &t.st.color[0], 0, 1, 62, 0)[3] == 255 &&
		      texel_at(&t, &t.st.color[0], 0, 1, 1, 0)[3] == 0,
	      "flipped viewport: the triangle is at the bottom left");
	/* A viewport in the middle maps the volume onto it. */
	memset(t.color, 0, (size_t)FB * FB * LAYERS * 4);
	t.st.viewport = (VkViewport){16, 16, 32, 32, 0, 1};
	static const float full[6][4] = {{-1, -1, 0.5f, 1}, {1, -1, 0.5f, 1}, {-1, 1, 0.5f, 1},
					 {1, -1, 0.5f, 1},  {1, 1, 0.5f, 1},  {-1, 1, 0.5f, 1}};
	v.pos = full;
	v.npos = 6;
	dp = plain(6, 1);
	CHECK(run(&t, &v, f, &dp) == 0, "%s", t.err);
	CHECK_EQ(t.c.samples_passed[0], 32 * 32, "viewport 32x32 at 16,16");
	CHECK(texel_at(&t, &t.st.color[0], 0, 16, 16, 0)[3] == 255 &&
		      texel_at(&t, &t.st.color[0], 0, 15, 15, 0)[3] == 0,
	      "viewport placement");
	free(f);
	target_free(&t);
}

/* Multiview and rasterizer discard ------------------------------------------*/

static const float rect_pos[6][4] = {{NDC(0), NDC(0), 0.5f, 1},  {NDC(10), NDC(0), 0.5f, 1},
				     {NDC(0), NDC(8), 0.5f, 1},  {NDC(10), NDC(0), 0.5f, 1},
				     {NDC(10), NDC(8), 0.5f, 1}, {NDC(0), NDC(8), 0.5f, 1}};

static void test_multiview(void)
{
	struct target t;
	target_init(&t, 4, VK_FORMAT_UNDEFINED);
	t.st.view_mask = 0x5;
	t.st.fs_info.input_mask = 1;
	struct vs v = {.pos = rect_pos, .npos = 6};
	struct fs *f = calloc(1, sizeof(*f));
	struct rd_draw_params dp = plain(6, 1);
	CHECK(run(&t, &v, f, &dp) == 0, "%s", t.err);
	CHECK_EQ(t.c.samples_passed[0], 80 * 4, "view 0");
	CHECK_EQ(t.c.samples_passed[1], 0, "view 1 (not in the mask)");
	CHECK_EQ(t.c.samples_passed[2], 80 * 4, "view 2");
	CHECK_EQ(pixels_written(&t, 0), 80, "layer 0");
	CHECK_EQ(pixels_written(&t, 1), 0, "layer 1");
	CHECK_EQ(pixels_written(&t, 2), 80, "layer 2");
	CHECK_EQ(v.views_seen, 0x5, "ViewIndex seen by the vertex shader");
	/* every statistic once per view */
	CHECK_EQ(t.c.vs_invocations, 12, "multiview vertex invocations");
	CHECK_EQ(t.c.ia_primitives, 4, "multiview primitives");
	CHECK_EQ(t.c.clipping_primitives, 4, "multiview clipping primitives");
	/* Layers follow base_layer. */
	t.st.view_mask = 0x3;
	t.st.color[0].base_layer = 1;
	memset(t.color, 0, (size_t)FB * FB * 4 * LAYERS * 4);
	CHECK(run(&t, &v, f, &dp) == 0, "%s", t.err);
	CHECK(pixels_written(&t, 0) == 0 && pixels_written(&t, 1) == 80 && pixels_written(&t, 2) == 80,
	      "base layer 1, views 0 and 1");
	t.st.view_mask = 0x7;
	CHECK(run(&t, &v, f, &dp) == -1 && strstr(t.err, "layer"), "view past the layers: '%s'", t.err);
	t.st.view_mask = 0x100;
	CHECK(run(&t, &v, f, &dp) == -1, "view 8 refused");
	free(f);
	target_free(&t);
}

static void test_rasterizer_discard(void)
{
	struct target t;
	target_init(&t, 4, VK_FORMAT_UNDEFINED);
	t.st.rasterizer_discard = true;
	/* Attachments need not be valid when nothing is rasterized. */
	t.st.samples = VK_SAMPLE_COUNT_2_BIT;
	struct vs v = {.pos = rect_pos, .npos = 6};
	struct fs *f = calloc(1, sizeof(*f));
	struct rd_draw_params dp = plain(6, 2);
	CHECK(run(&t, &v, f, &dp) == 0, "%s", t.err);
	CHECK_EQ(t.c.ia_vertices, 12, "discard: vertices");
	CHECK_EQ(t.c.vs_invocations, 12, "discard: vertex invocations");
	CHECK_EQ(t.c.ia_primitives, 4, "discard: primitives");
	CHECK_EQ(t.c.primitives_generated[0], 4, "discard: primitives generated");
	CHECK_EQ(t.c.clipping_invocations, 0, "discard: clipping invocations");
	CHECK_EQ(t.c.clipping_primitives, 0, "discard: clipping primitives");
	CHECK_EQ(rd_fs_invocations(&t.c), 0, "discard: fragment invocations");
	CHECK_EQ(t.c.samples_passed[0], 0, "discard: samples");
	CHECK_EQ(f->calls, 0, "discard: fragment stand-in calls");
	free(f);
	target_free(&t);
}

/* Faults: a vertex shader fault aborts the draw with its message. */
static void test_faults(void)
{
	struct target t;
	target_init(&t, 1, VK_FORMAT_UNDEFINED);
	struct vs v = {.pos = rect_pos, .npos = 6, .fail_at = 4};
	struct rd_draw_params dp = plain(6, 1);
	CHECK(run(&t, &v, NULL, &dp) == -1 && strstr(t.err, "vertex 3") &&
		      strstr(t.err, "stand-in fault"),
	      "vertex fault: '%s'", t.err);
	CHECK_EQ(t.c.ia_primitives, 1, "primitives before the fault");
	/* NaN and infinite positions: dropped, no crash. */
	static const float bad[3][4] = {{NAN, 0, 0.5f, 1}, {INFINITY, 0, 0.5f, 1}, {0, 0, 0.5f, 0}};
	v = (struct vs){.pos = bad, .npos = 3};
	dp = plain(3, 1);
	CHECK(run(&t, &v, NULL, &dp) == 0, "%s", t.err);
	CHECK_EQ(t.c.samples_passed[0], 0, "NaN/infinite positions");
	t.st.topology = VK_PRIMITIVE_TOPOLOGY_LINE_STRIP;
	CHECK(run(&t, &v, NULL, &dp) == 0, "%s", t.err);
	t.st.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
	CHECK(run(&t, &v, NULL, &dp) == 0, "%s", t.err);
	CHECK_EQ(t.c.samples_passed[0], 0, "NaN/infinite points");
	target_free(&t);
}

/* End to end through the interpreter, with the suite's shaders ------------*/

struct program {
	struct rd_shader *s;
	struct rd_entry_info info;
};

static bool load(struct program *p, const uint32_t *words, size_t size, enum rd_stage stage)
{
	char err[256];
	p->s = rd_shader_create(words, size, err, sizeof(err));
	CHECK(p->s != NULL, "rd_shader_create: %s", err);
	if (!p->s)
		return false;
	bool ok = rd_shader_entry(p->s, "main", stage, &p->info, err, sizeof(err));
	CHECK(ok, "rd_shader_entry: %s", err);
	return ok;
}

static const struct rd_buffer_range *no_buffer(void *user, uint32_t set, uint32_t binding,
					       uint32_t element)
{
	return NULL;
}

/* vkqs_draw_rect()'s push constants: vec4 rect, vec2 fb_size, float z. */
struct rect_push {
	float rect[4];
	float fb_size[2];
	float z, pad;
	uint8_t rest[224];
};

static int draw_rect(struct target *t, const struct program *vs, const struct program *fs,
		     float x0, float y0, float x1, float y1, float z)
{
	struct rect_push pc = {{x0, y0, x1, y1}, {FB, FB}, z, 0, {0}};
	struct rd_exec_env env = {(const uint8_t *)&pc, no_buffer, NULL};
	t->st.vs = vs->s;
	t->st.vs_info = vs->info;
	t->st.fs = fs ? fs->s : NULL;
	if (fs)
		t->st.fs_info = fs->info;
	t->st.env = &env;
	struct rd_draw_params dp = plain(6, 1);
	memset(&t->c, 0, sizeof(t->c));
	int rc = rd_draw(&t->st, &dp, &t->c, t->err, sizeof(t->err));
	CHECK(rc == 0, "rd_draw: %s", t->err);
	t->st.env = NULL;
	return rc;
}

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void test_end_to_end(void)
{
	struct program vs = {0}, color = {0}, discard = {0};
	if (!load(&vs, rect_vert, sizeof(rect_vert), RD_STAGE_VERTEX) ||
	    !load(&color, color_frag, sizeof(color_frag), RD_STAGE_FRAGMENT) ||
	    !load(&discard, discard_odd_columns_frag, sizeof(discard_odd_columns_frag),
		  RD_STAGE_FRAGMENT))
		goto out;
	static const struct irect {
		int x0, y0, x1, y1;
	} rs[] = {{0, 0, 64, 64}, {0, 0, 1, 1}, {63, 63, 64, 64}, {5, 7, 20, 30}, {-8, 10, 24, 80}};
	for (uint32_t samples = 1; samples <= 4; samples += 3) {
		for (size_t i = 0; i < sizeof(rs) / sizeof(rs[0]); i++) {
			const struct irect *q = &rs[i];
			struct target t;
			target_init(&t, samples, VK_FORMAT_UNDEFINED);
			char what[96];
			snprintf(what, sizeof(what), "rect.vert/color.frag %d,%d-%d,%d, %u samples", q->x0,
				 q->y0, q->x1, q->y1, samples);
			if (draw_rect(&t, &vs, &color, (float)q->x0, (float)q->y0, (float)q->x1,
				      (float)q->y1, 0.5f) == 0) {
				int x0 = q->x0 < 0 ? 0 : q->x0, y0 = q->y0 < 0 ? 0 : q->y0;
				int x1 = q->x1 > FB ? FB : q->x1, y1 = q->y1 > FB ? FB : q->y1;
				uint64_t area = (uint64_t)(x1 - x0) * (uint64_t)(y1 - y0);
				CHECK_EQ(t.c.samples_passed[0], area * samples, what);
				CHECK_EQ(pixels_written(&t, 0), area, what);
				CHECK_EQ(t.c.vs_invocations, 6, what);
				CHECK_EQ(t.c.ia_primitives, 2, what);
				CHECK(rd_fs_invocations(&t.c) >= area, "%s: %llu invocations", what,
				      (unsigned long long)rd_fs_invocations(&t.c));
				const uint8_t *p = texel_at(&t, &t.st.color[0], 0, (uint32_t)x0, (uint32_t)y0,
							    samples - 1);
				/* (0.25, 0.5, 0.75, 1) in UNORM8, rounding to nearest */
				CHECK(p[0] == 64 && p[1] == 128 && p[2] == 191 && p[3] == 255,
				      "%s: colour %u %u %u %u", what, p[0], p[1], p[2], p[3]);
			}
			target_free(&t);
		}
		/* discard_odd_columns.frag keeps (w / 2) * h fragments. */
		struct target t;
		target_init(&t, samples, VK_FORMAT_D32_SFLOAT);
		if (draw_rect(&t, &vs, &discard, 2, 3, 18, 11, 0.5f) == 0) {
			CHECK_EQ(t.c.samples_passed[0], 8 * 8 * samples, "discard_odd_columns.frag");
			CHECK_EQ(pixels_written(&t, 0), 8 * 8, "discard_odd_columns.frag pixels");
		}
		/* Depth LESS against a cleared 0.5, the rectangle's z from the
		 * push constants. */
		t.st.depth_test = true;
		t.st.depth_write = true;
		t.st.depth_compare = VK_COMPARE_OP_LESS;
		clear_ds(&t, 0.5f, 0);
		if (draw_rect(&t, &vs, &color, 0, 0, 16, 16, 0.75f) == 0)
			CHECK_EQ(t.c.samples_passed[0], 0, "rect.vert behind the clear");
		if (draw_rect(&t, &vs, &color, 0, 0, 16, 16, 0.25f) == 0)
			CHECK_EQ(t.c.samples_passed[0], 256 * samples, "rect.vert in front of the clear");
		/* Multiview: views 0 and 2 into layers 0 and 2. */
		t.st.depth_test = false;
		t.st.view_mask = 0x5;
		memset(t.color, 0, (size_t)FB * FB * samples * LAYERS * 4);
		if (draw_rect(&t, &vs, &color, 4, 4, 12, 8, 0.5f) == 0) {
			CHECK(t.c.samples_passed[0] == 32 * samples && t.c.samples_passed[2] == 32 * samples &&
				      t.c.samples_passed[1] == 0,
			      "multiview counts %llu %llu %llu", (unsigned long long)t.c.samples_passed[0],
			      (unsigned long long)t.c.samples_passed[1],
			      (unsigned long long)t.c.samples_passed[2]);
			CHECK(pixels_written(&t, 0) == 32 && pixels_written(&t, 1) == 0 &&
				      pixels_written(&t, 2) == 32,
			      "multiview layers");
		}
		t.st.view_mask = 0;
		/* Speed: a full-target rectangle, the best of 10 (the machine
		 * may be shared). */
		const int reps = 10;
		double us = 1e30, fixed = 1e30;
		for (int i = 0; i < reps; i++) {
			double t0 = now_us();
			draw_rect(&t, &vs, &color, 0, 0, FB, FB, 0.5f);
			us = fmin(us, now_us() - t0);
		}
		/* The same with C stand-ins for both stages: the fixed-function
		 * share of the cost. */
		static const float quad[6][4] = {{-1, -1, 0.5f, 1}, {1, -1, 0.5f, 1}, {-1, 1, 0.5f, 1},
						 {1, -1, 0.5f, 1},  {1, 1, 0.5f, 1},  {-1, 1, 0.5f, 1}};
		struct vs sv = {.pos = quad, .npos = 6};
		struct fs *sf = calloc(1, sizeof(*sf));
		struct rd_draw_params dp = plain(6, 1);
		t.st.fs_info.input_mask = 0;
		for (int i = 0; i < reps; i++) {
			double t0 = now_us();
			run(&t, &sv, sf, &dp);
			fixed = fmin(fixed, now_us() - t0);
		}
		free(sf);
		printf("speed: 64x64 rect.vert/color.frag at %u sample%s: %.0f us per draw "
		       "(%llu fragment invocations); with C stand-in shaders %.0f us\n",
		       samples, samples > 1 ? "s" : "", us, (unsigned long long)rd_fs_invocations(&t.c), fixed);
		target_free(&t);
	}
out:
	rd_shader_destroy(vs.s);
	rd_shader_destroy(color.s);
	rd_shader_destroy(discard.s);
}

int main(void)
{
	test_topology_counters();
	test_indexed();
	test_strip_fan();
	test_vertex_fetch();
	test_clipping();
	test_viewport();
	test_multiview();
	test_rasterizer_discard();
	test_faults();
	test_end_to_end();
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
