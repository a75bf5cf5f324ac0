/* Unit tests of the tessellator (rd_tess.c) against the spec chapter
 * "Tessellation": vertex and primitive counts that follow from its
 * construction, patch discard, every triangle in the declared winding for
 * both domain origins, and the triangles covering the domain exactly once
 * (their areas, all of one sign, sum to the domain's); and the two
 * tessellation shader stages through the interpreter: a control patch's
 * invocations sharing their outputs across a barrier, its Patch outputs
 * and levels, and an evaluation shader reading them. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rd_draw_fixture.h"
#include "rd_tess.h"
#include "rdtest_shaders/spv_patch_tesc.h"
#include "rdtest_shaders/spv_patch_tese.h"

static double signed_area(const struct rd_tess_mesh *m, uint32_t i)
{
	const float *a = m->coord[m->prims[i][0]], *b = m->coord[m->prims[i][1]], *c = m->coord[m->prims[i][2]];
	/* the spec's a (twice the signed area) */
	return ((double)a[0] * b[1] - (double)b[0] * a[1] + (double)b[0] * c[1] - (double)c[0] * b[1] +
		(double)c[0] * a[1] - (double)a[0] * c[1]) / 2.0;
}

struct tcase {
	const char *name;
	enum rd_tess_domain domain;
	enum rd_tess_spacing spacing;
	float outer[4], inner[2];
	uint32_t verts, prims;
};

/* Counts from the construction:
 * - triangles, every level n (equal): rings of 3(n - 2r) vertices down to a
 *   point or a triangle; the area between rings of a and b segments per
 *   side takes 3(a + b) triangles.
 * - quads, every level n: (n + 1)^2 vertices, 2 n^2 triangles.
 * - isolines (a, b): a lines of b segments, a (b + 1) vertices. */
static const struct tcase cases[] = {
	{"triangles all 1", RD_TESS_TRIANGLES, RD_SPACING_EQUAL, {1, 1, 1, 1}, {1, 1}, 3, 1},
	{"triangles all 2", RD_TESS_TRIANGLES, RD_SPACING_EQUAL, {2, 2, 2, 1}, {2, 1}, 7, 6},
	{"triangles all 3", RD_TESS_TRIANGLES, RD_SPACING_EQUAL, {3, 3, 3, 1}, {3, 1}, 12, 13},
	{"triangles all 4", RD_TESS_TRIANGLES, RD_SPACING_EQUAL, {4, 4, 4, 1}, {4, 1}, 19, 24},
	/* inner 1 with an outer 3: 1 + epsilon, two segments: a centre point
	 * joined to 3 + 1 + 1 outer segments */
	{"triangles inner 1+e", RD_TESS_TRIANGLES, RD_SPACING_EQUAL, {3, 1, 1, 1}, {1, 1}, 6, 5},
	/* fractional odd 1 + epsilon: three segments, an inner triangle */
	{"triangles odd inner 1+e", RD_TESS_TRIANGLES, RD_SPACING_FRACTIONAL_ODD, {3, 1, 1, 1}, {1, 1}, 8, 9},
	/* 2.5 rounds to 3 (odd) and 4 (even) */
	{"triangles odd 2.5", RD_TESS_TRIANGLES, RD_SPACING_FRACTIONAL_ODD, {2.5f, 2.5f, 2.5f, 1}, {2.5f, 1}, 12, 13},
	{"triangles even 2.5", RD_TESS_TRIANGLES, RD_SPACING_FRACTIONAL_EVEN, {2.5f, 2.5f, 2.5f, 1}, {2.5f, 1}, 19, 24},
	/* fractional even clamps 1 to 2 */
	{"triangles even all 1", RD_TESS_TRIANGLES, RD_SPACING_FRACTIONAL_EVEN, {1, 1, 1, 1}, {1, 1}, 7, 6},
	{"quads all 1", RD_TESS_QUADS, RD_SPACING_EQUAL, {1, 1, 1, 1}, {1, 1}, 4, 2},
	{"quads all 2", RD_TESS_QUADS, RD_SPACING_EQUAL, {2, 2, 2, 2}, {2, 2}, 9, 8},
	{"quads all 3", RD_TESS_QUADS, RD_SPACING_EQUAL, {3, 3, 3, 3}, {3, 3}, 16, 18},
	{"quads all 5", RD_TESS_QUADS, RD_SPACING_EQUAL, {5, 5, 5, 5}, {5, 5}, 36, 50},
	/* inner (4, 2): grid 3 x 1 inner vertices, no inner cell; border
	 * 1 + 2 + 3 + 4 outer segments, inner sides 0, 2, 0, 2 */
	{"quads mixed", RD_TESS_QUADS, RD_SPACING_EQUAL, {1, 2, 3, 4}, {4, 2}, 3 + 10, 14},
	{"quads odd 3.2", RD_TESS_QUADS, RD_SPACING_FRACTIONAL_ODD, {3.2f, 3.2f, 3.2f, 3.2f}, {3.2f, 3.2f}, 36, 50},
	{"isolines 1 1", RD_TESS_ISOLINES, RD_SPACING_EQUAL, {1, 1, 0, 0}, {0, 0}, 2, 1},
	{"isolines 3 4", RD_TESS_ISOLINES, RD_SPACING_EQUAL, {3, 4, 0, 0}, {0, 0}, 15, 12},
	/* isolines' line count ignores the spacing: 2.5 lines are 3 */
	{"isolines even", RD_TESS_ISOLINES, RD_SPACING_FRACTIONAL_EVEN, {2.5f, 3, 0, 0}, {0, 0}, 15, 12},
	/* discard: a relevant outer level <= 0 or NaN; inner levels never */
	{"triangles discard", RD_TESS_TRIANGLES, RD_SPACING_EQUAL, {1, 0, 1, 1}, {4, 1}, 0, 0},
	{"triangles outer 3 ignored", RD_TESS_TRIANGLES, RD_SPACING_EQUAL, {1, 1, 1, 0}, {1, 1}, 3, 1},
	{"triangles negative inner", RD_TESS_TRIANGLES, RD_SPACING_EQUAL, {1, 1, 1, 1}, {-5, 1}, 3, 1},
	{"quads discard NaN", RD_TESS_QUADS, RD_SPACING_EQUAL, {1, 1, 1, NAN}, {1, 1}, 0, 0},
	{"isolines discard", RD_TESS_ISOLINES, RD_SPACING_EQUAL, {2, -1, 0, 0}, {0, 0}, 0, 0},
};

static void test_counts(void)
{
	struct rd_tess_mesh m;
	memset(&m, 0, sizeof(m));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct tcase *t = &cases[i];
		for (int origin = 0; origin < 2; origin++)
			for (int order = RD_ORDER_CW; order <= RD_ORDER_CCW; order++) {
				struct rd_tess_params p = {t->domain, t->spacing, (enum rd_tess_order)order,
							   false, origin == 1};
				CHECK(rd_tessellate(&p, t->outer, t->inner, &m) == 0, "%s: tessellate", t->name);
				CHECK(m.nverts == t->verts, "%s: %u vertices, expected %u", t->name, m.nverts, t->verts);
				CHECK(m.nprims == t->prims, "%s: %u primitives, expected %u", t->name, m.nprims,
				      t->prims);
				if (m.prim_verts != 3 || !m.nprims)
					continue;
				/* "counter-clockwise if a is negative" (upper-left) */
				bool want_negative = (order == RD_ORDER_CCW) != (origin == 1);
				double total = 0;
				uint32_t wrong = 0;
				for (uint32_t k = 0; k < m.nprims; k++) {
					double a = signed_area(&m, k);
					wrong += want_negative ? a > 0 : a < 0;
					total += fabs(a);
				}
				CHECK(wrong == 0, "%s: %u triangles in the wrong winding", t->name, wrong);
				double domain = t->domain == RD_TESS_TRIANGLES ? 0.5 : 1.0;
				CHECK(fabs(total - domain) < 1e-5, "%s: the triangles cover %.7f of %.1f", t->name,
				      total, domain);
			}
		/* point mode: one point per distinct vertex */
		struct rd_tess_params p = {t->domain, t->spacing, RD_ORDER_CCW, true, false};
		CHECK(rd_tessellate(&p, t->outer, t->inner, &m) == 0 && m.prim_verts == 1 &&
			      m.nprims == t->verts,
		      "%s: point mode gives %u points for %u vertices", t->name, m.nprims, t->verts);
		uint32_t same = 0;
		for (uint32_t a = 0; a < m.nverts; a++)
			for (uint32_t b = a + 1; b < m.nverts; b++)
				same += memcmp(m.coord[a], m.coord[b], sizeof(m.coord[a])) == 0;
		CHECK(same == 0 || t->spacing == RD_SPACING_FRACTIONAL_ODD, "%s: %u repeated vertices", t->name,
		      same);
	}
	rd_tess_mesh_free(&m);
}

/* Fractional spacing: the two short segments are symmetric, equal to the
 * others when the level is an integer of the right parity, and shorter
 * otherwise; coordinates stay in [0, 1]. */
static void test_fractional(void)
{
	struct rd_tess_mesh m;
	memset(&m, 0, sizeof(m));
	struct rd_tess_params p = {RD_TESS_ISOLINES, RD_SPACING_FRACTIONAL_ODD, RD_ORDER_CCW, false, false};
	float outer[4] = {1, 3, 0, 0}, inner[2] = {0, 0};
	CHECK(rd_tessellate(&p, outer, inner, &m) == 0 && m.nverts == 4, "odd 3: 4 vertices");
	if (m.nverts == 4)
		CHECK(fabsf(m.coord[1][0] - 1.0f / 3) < 1e-6f && fabsf(m.coord[2][0] - 2.0f / 3) < 1e-6f,
		      "odd 3: thirds (%g, %g)", m.coord[1][0], m.coord[2][0]);
	outer[1] = 2.0f;  /* rounds to 3, n - f = 1: short segments half the middle one */
	CHECK(rd_tessellate(&p, outer, inner, &m) == 0 && m.nverts == 4, "odd 2: 4 vertices");
	if (m.nverts == 4) {
		float s0 = m.coord[1][0], mid = m.coord[2][0] - m.coord[1][0], s1 = 1.0f - m.coord[2][0];
		CHECK(fabsf(s0 - s1) < 1e-6f && fabsf(s0 - mid / 2) < 1e-6f,
		      "odd 2: segments %g %g %g (short ones symmetric, half the other)", s0, mid, s1);
	}
	p.spacing = RD_SPACING_FRACTIONAL_EVEN;
	outer[1] = 5.0f; /* rounds to 6, n - f = 1 */
	CHECK(rd_tessellate(&p, outer, inner, &m) == 0 && m.nverts == 7, "even 5: 7 vertices");
	for (uint32_t i = 0; i + 1 < m.nverts; i++)
		CHECK(m.coord[i][0] < m.coord[i + 1][0] && m.coord[i][0] >= 0 && m.coord[i + 1][0] <= 1,
		      "even 5: increasing u in [0, 1]");
	p.spacing = RD_SPACING_EQUAL;
	outer[1] = 100.0f; /* clamped to maxTessellationGenerationLevel */
	CHECK(rd_tessellate(&p, outer, inner, &m) == 0 && m.nprims == RD_MAX_TESS_LEVEL,
	      "equal 100: %u segments (clamped to %u)", m.nprims, RD_MAX_TESS_LEVEL);
	rd_tess_mesh_free(&m);
}

static bool load(const uint32_t *words, size_t size, enum rd_stage stage, struct rd_shader **s,
		 struct rd_entry_info *info)
{
	char err[256];
	*s = rd_shader_create(words, size, err, sizeof(err));
	CHECK(*s != NULL, "rd_shader_create: %s", err);
	bool ok = *s && rd_shader_entry(*s, "main", stage, info, err, sizeof(err));
	CHECK(ok, "rd_shader_entry: %s", err);
	return ok;
}

static void test_shaders(void)
{
	struct rd_shader *tcs = NULL, *tes = NULL;
	struct rd_entry_info ci, ei;
	if (!load(spv_patch_tesc, sizeof(spv_patch_tesc), RD_STAGE_TESS_CONTROL, &tcs, &ci) ||
	    !load(spv_patch_tese, sizeof(spv_patch_tese), RD_STAGE_TESS_EVAL, &tes, &ei))
		goto out;
	CHECK(ci.tess_output_vertices == 3 && ci.has_barrier && ci.patch_output_mask == 2 &&
		      ci.workgroup_memory_size > 0,
	      "control: OutputVertices %u, barrier %d, Patch outputs 0x%x", ci.tess_output_vertices,
	      ci.has_barrier, ci.patch_output_mask);
	CHECK(ei.tess_domain == RD_TESS_TRIANGLES && ei.tess_spacing == RD_SPACING_FRACTIONAL_ODD &&
		      ei.tess_order == RD_ORDER_CW && !ei.tess_point_mode && ei.patch_input_mask == 2,
	      "evaluation: modes %d %d %d, Patch inputs 0x%x", ei.tess_domain, ei.tess_spacing,
	      ei.tess_order, ei.patch_input_mask);
	uint8_t push[256] = {0};
	struct rd_exec_env env = {.push_constants = push};
	/* an input patch of 4 control points, vertex i's location 0 = i */
	struct rd_stage_vertex in[4];
	memset(in, 0, sizeof(in));
	for (uint32_t i = 0; i < 4; i++)
		for (int c = 0; c < 4; c++) {
			float f = (float)i;
			memcpy(&in[i].var[0][c], &f, 4);
		}
	uint8_t *shared = calloc(1, ci.workgroup_memory_size);
	struct rd_invocation inv[3];
	memset(inv, 0, sizeof(inv));
	for (uint32_t id = 0; id < 3; id++) {
		inv[id].gs_in = in;
		inv[id].patch_vertices = 4;
		inv[id].invocation_id = id;
		inv[id].primitive_id = 7;
		inv[id].workgroup_memory = shared;
	}
	char err[256];
	CHECK(rd_shader_run_group(tcs, &ci, &env, inv, 3, err, sizeof(err)) == 0, "control: %s", err);
	struct rd_patch patch;
	rd_shader_patch_outputs(tcs, &ci, shared, &patch);
	free(shared);
	/* gl_out[i].gl_Position = i + 7; next[i] = gl_out[(i + 1) % 3] */
	CHECK(patch.vertices == 3, "output patch of %u vertices", patch.vertices);
	for (uint32_t i = 0; i < 3; i++) {
		float next;
		memcpy(&next, &patch.vtx[i].var[0][0], 4);
		CHECK(patch.vtx[i].position[0] == 7.0f + i && next == 7.0f + (i + 1) % 3,
		      "vertex %u: position %g, next %g", i, patch.vtx[i].position[0], next);
	}
	float total;
	memcpy(&total, &patch.var[1][0], 4);
	CHECK(total == 7 + 8 + 9 + 4, "Patch output total %g (positions 24 + PatchVertices 4)", total);
	CHECK(patch.tess_outer[0] == 2 && patch.tess_outer[1] == 3 && patch.tess_outer[2] == 4 &&
		      patch.tess_inner[0] == 5,
	      "levels %g %g %g / %g", patch.tess_outer[0], patch.tess_outer[1], patch.tess_outer[2],
	      patch.tess_inner[0]);

	struct rd_invocation e;
	memset(&e, 0, sizeof(e));
	e.patch = &patch;
	e.tess_coord[0] = 0.5f, e.tess_coord[1] = 0.25f, e.tess_coord[2] = 0.25f;
	e.primitive_id = 7;
	CHECK(rd_shader_run(tes, &ei, &env, &e, err, sizeof(err)) == 0, "evaluation: %s", err);
	float o, lv[4];
	memcpy(&o, &e.out[0][0], 4);
	memcpy(lv, e.out[1], 16);
	CHECK(e.position[0] == 0.5f * 7 + 0.25f * 8 + 0.25f * 9, "evaluation position %g", e.position[0]);
	CHECK(o == 28 + 7, "evaluation: total + next[2] = %g", o);
	CHECK(lv[0] == 2 && lv[1] == 4 && lv[2] == 5 && lv[3] == 7 + 10 * 3,
	      "evaluation: levels and ids %g %g %g %g", lv[0], lv[1], lv[2], lv[3]);
out:
	rd_shader_destroy(tcs);
	rd_shader_destroy(tes);
}

int main(void)
{
	test_counts();
	test_fractional();
	test_shaders();
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
