/* Unit tests of the rasterizer and the per-fragment pipeline (rd_raster.h),
 * with C functions standing in for the fragment shader.  Counts come from
 * geometry (areas, sample positions), never from the code under test. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rd_draw_fixture.h"

static int begin(struct target *t, rd_stage_fn fs, void *user)
{
	memset(&t->c, 0, sizeof(t->c));
	int rc = rd_raster_begin(&t->r, &t->st, 0, fs, user, &t->c, t->err, sizeof(t->err));
	CHECK(rc == 0, "rd_raster_begin: %s", t->err);
	return rc;
}

static const uint32_t zero_var[RD_MAX_LOCATIONS][4];

static struct rd_raster_vertex vtx(double x, double y, double z)
{
	return (struct rd_raster_vertex){x, y, z, 1.0, 1.0f, true, true, zero_var};
}

static int tri(struct target *t, double x0, double y0, double x1, double y1, double x2,
	       double y2, double z)
{
	struct rd_raster_vertex v[3] = {vtx(x0, y0, z), vtx(x1, y1, z), vtx(x2, y2, z)};
	return rd_raster_polygon(&t->r, v, 3, v[0].var);
}

/* Two triangles in rect.vert's vertex order. */
static int rect(struct target *t, double x0, double y0, double x1, double y1, double z)
{
	if (tri(t, x0, y0, x1, y0, x0, y1, z))
		return -1;
	return tri(t, x1, y0, x1, y1, x0, y1, z);
}

/* Fragment stand-ins --------------------------------------------------------*/

struct fsrec {
	uint32_t mask[FB * FB];  /* union of SampleMaskIn per pixel */
	uint32_t calls[FB * FB];
	uint32_t discard_odd;    /* discard odd columns */
	uint32_t mask_out;       /* SampleMask output */
	bool fail;
	/* the inputs seen at one pixel */
	int probe_x, probe_y;
	struct rd_invocation probe;
};

static int fs_record(void *user, struct rd_invocation *inv, char *err, size_t errsize)
{
	struct fsrec *f = user;
	if (f->fail) {
		snprintf(err, errsize, "stand-in fault");
		return -1;
	}
	int x = (int)floorf(inv->frag_coord[0]), y = (int)floorf(inv->frag_coord[1]);
	if (x >= 0 && x < FB && y >= 0 && y < FB) {
		f->mask[y * FB + x] |= inv->sample_mask_in;
		f->calls[y * FB + x]++;
	}
	if (x == f->probe_x && y == f->probe_y)
		f->probe = *inv;
	if (f->discard_odd && (x & 1))
		inv->discarded = true;
	inv->sample_mask_out = f->mask_out;
	float col[4] = {1.0f, 0.5f, 0.25f, 1.0f};
	memcpy(inv->out[0], col, sizeof(col));
	return 0;
}

static struct fsrec *fsrec_new(void)
{
	struct fsrec *f = calloc(1, sizeof(*f));
	f->mask_out = ~0u;
	f->probe_x = f->probe_y = -1;
	return f;
}

/* Tests -------------------------------------------------------------------*/

struct irect {
	int x0, y0, x1, y1;
};

/* A w x h rectangle at integer pixel edges covers exactly w*h pixels and
 * w*h*samples samples: each pixel's samples are strictly inside it or
 * strictly outside, and the shared diagonal's samples go to one triangle. */
static void test_rect_counts(void)
{
	static const struct irect rs[] = {{0, 0, 64, 64}, {0, 0, 1, 1},   {63, 63, 64, 64},
					  {5, 7, 20, 30}, {0, 10, 64, 11}, {31, 0, 33, 64},
					  {0, 0, 64, 1},  {60, 3, 64, 64}};
	for (uint32_t samples = 1; samples <= 4; samples += 3)
		for (size_t i = 0; i < sizeof(rs) / sizeof(rs[0]); i++) {
			const struct irect *q = &rs[i];
			struct target t;
			target_init(&t, samples, VK_FORMAT_UNDEFINED);
			struct fsrec *f = fsrec_new();
			if (begin(&t, fs_record, f) == 0) {
				rect(&t, q->x0, q->y0, q->x1, q->y1, 0.5);
				uint64_t area = (uint64_t)(q->x1 - q->x0) * (uint64_t)(q->y1 - q->y0);
				char what[96];
				snprintf(what, sizeof(what), "rect %d,%d-%d,%d samples %u", q->x0, q->y0,
					 q->x1, q->y1, samples);
				CHECK_EQ(t.c.samples_passed[0], area * samples, what);
				CHECK_EQ(pixels_written(&t, 0), area, what);
				/* Every pixel's samples are all covered, by one fragment,
				 * or (4 samples) by one from each triangle where the
				 * diagonal from (x1, y0) to (x0, y1) splits the pixel. */
				uint32_t full = 0, calls = 0, bad_split = 0;
				double dx = q->x0 - q->x1, dy = q->y1 - q->y0, len = sqrt(dx * dx + dy * dy);
				for (int p = 0; p < FB * FB; p++) {
					full += f->mask[p] == (1u << samples) - 1;
					calls += f->calls[p];
					double cx = p % FB + 0.5 - q->x1, cy = p / FB + 0.5 - q->y0;
					double dist = fabs(dx * cy - dy * cx) / len;
					if (f->calls[p] > 1 && (samples == 1 || f->calls[p] > 2 || dist > 0.7072))
						bad_split++;
				}
				CHECK_EQ(full, area, what);
				CHECK_EQ(rd_fs_invocations(&t.c), calls, what);
				CHECK_EQ(bad_split, 0, what);
				CHECK(rd_fs_invocations(&t.c) >= area && (samples > 1 || rd_fs_invocations(&t.c) == area),
				      "%s: %llu invocations", what, (unsigned long long)rd_fs_invocations(&t.c));
			}
			free(f);
			target_free(&t);
		}
	/* Without a fragment shader the tests and the count still run. */
	struct target t;
	target_init(&t, 4, VK_FORMAT_UNDEFINED);
	if (begin(&t, NULL, NULL) == 0) {
		rect(&t, 3, 4, 13, 9, 0.5);
		CHECK_EQ(t.c.samples_passed[0], 50 * 4, "no fragment shader");
		CHECK_EQ(rd_fs_invocations(&t.c), 0, "no fragment shader: invocations");
		CHECK_EQ(pixels_written(&t, 0), 0, "no fragment shader: colour");
	}
	target_free(&t);
}

/* Per-sample brute force in double precision on the unsnapped vertices:
 * >0 inside, <0 outside, 0 when the sample lies within `eps` pixels of an
 * edge line (snapping moves a vertex by at most 1/512 pixel per axis, so
 * beyond 1/64 pixel the answer cannot differ). */
static int brute_tri(const double v[3][2], double px, double py, double eps)
{
	double area = (v[1][0] - v[0][0]) * (v[2][1] - v[0][1]) - (v[1][1] - v[0][1]) * (v[2][0] - v[0][0]);
	int inside = 1;
	for (int i = 0; i < 3; i++) {
		const double *a = v[i], *b = v[(i + 1) % 3];
		double ex = b[0] - a[0], ey = b[1] - a[1];
		double e = (ex * (py - a[1]) - ey * (px - a[0])) * (area > 0 ? 1 : -1);
		double dist = e / sqrt(ex * ex + ey * ey);
		if (fabs(dist) < eps)
			inside = inside > 0 ? 0 : inside;
		else if (dist < 0)
			inside = -1;
	}
	return inside;
}

static uint64_t lcg_state = 12345;
static double rnd(double lo, double hi)
{
	lcg_state = lcg_state * 6364136223846793005ull + 1442695040888963407ull;
	return lo + (hi - lo) * (double)(lcg_state >> 11) / 9007199254740992.0;
}

/* Draws triangles with stencil INCREMENT_AND_WRAP (compare ALWAYS): each
 * sample's stencil value is how many triangles covered it. */
static void stencil_counting(struct target *t)
{
	t->st.stencil_test = true;
	t->st.front.passOp = t->st.back.passOp = VK_STENCIL_OP_INCREMENT_AND_WRAP;
	clear_ds(t, 0.0f, 0);
}

/* Spec "Polygon Rasterization": a sample on an edge shared by two
 * triangles is covered by exactly one of them. */
static void test_shared_edges(void)
{
	for (uint32_t samples = 1; samples <= 4; samples += 3) {
		const float(*loc)[2] = rd_sample_locations(samples);
		/* A square split along each diagonal: at 1 sample the centres
		 * (x+.5, y+.5) with x == y (or x + y == const) lie exactly on the
		 * shared edge. */
		for (int diag = 0; diag < 2; diag++) {
			struct target t;
			target_init(&t, samples, VK_FORMAT_S8_UINT);
			stencil_counting(&t);
			if (begin(&t, NULL, NULL) == 0) {
				if (diag == 0) {
					tri(&t, 8, 8, 24, 24, 8, 24, 0.5);
					tri(&t, 8, 8, 24, 8, 24, 24, 0.5);
				} else {
					tri(&t, 24, 8, 8, 24, 8, 8, 0.5);
					tri(&t, 24, 8, 24, 24, 8, 24, 0.5);
				}
				uint32_t bad = 0;
				for (uint32_t y = 0; y < FB; y++)
					for (uint32_t x = 0; x < FB; x++)
						for (uint32_t s = 0; s < samples; s++) {
							uint8_t want = x >= 8 && x < 24 && y >= 8 && y < 24;
							bad += stencil_at(&t, x, y, s) != want;
						}
				CHECK_EQ(bad, 0, "square split on a diagonal: samples not covered once");
				CHECK_EQ(t.c.samples_passed[0], 256 * samples, "square split on a diagonal");
			}
			target_free(&t);
		}

		/* A fan of 8 triangles around a vertex placed exactly on a sample:
		 * every sample, the centre included, is covered at most once, and
		 * those well inside the octagon exactly once. */
		{
			struct target t;
			target_init(&t, samples, VK_FORMAT_S8_UINT);
			stencil_counting(&t);
			double cx = 30 + loc[0][0], cy = 30 + loc[0][1];
			double ring[8][2];
			for (int i = 0; i < 8; i++) {
				double a = i * 3.14159265358979 / 4 + 0.1;
				ring[i][0] = cx + 20 * cos(a);
				ring[i][1] = cy + 20 * sin(a);
			}
			if (begin(&t, NULL, NULL) == 0) {
				for (int i = 0; i < 8; i++)
					tri(&t, cx, cy, ring[i][0], ring[i][1], ring[(i + 1) % 8][0],
					    ring[(i + 1) % 8][1], 0.5);
				uint32_t twice = 0, missing = 0;
				for (uint32_t y = 0; y < FB; y++)
					for (uint32_t x = 0; x < FB; x++)
						for (uint32_t s = 0; s < samples; s++) {
							uint8_t v = stencil_at(&t, x, y, s);
							double px = x + loc[s][0] - cx, py = y + loc[s][1] - cy;
							twice += v > 1;
							/* inside the octagon's inscribed circle */
							if (px * px + py * py < 18 * 18)
								missing += v != 1;
						}
				CHECK_EQ(twice, 0, "fan: samples covered twice");
				CHECK_EQ(missing, 0, "fan: interior samples not covered once");
				CHECK_EQ(stencil_at(&t, 30, 30, 0), 1, "fan: the sample at the shared vertex");
			}
			target_free(&t);
		}

		/* Random triangle pairs sharing an edge, against brute force. */
		uint32_t bad_single = 0, bad_union = 0, twice = 0, checked = 0;
		for (int iter = 0; iter < 40; iter++) {
			double P[2] = {rnd(4, 60), rnd(4, 60)}, Q[2] = {rnd(4, 60), rnd(4, 60)};
			double R[2] = {rnd(0, 64), rnd(0, 64)}, S[2] = {rnd(0, 64), rnd(0, 64)};
			double A[3][2] = {{P[0], P[1]}, {Q[0], Q[1]}, {R[0], R[1]}};
			double B[3][2] = {{Q[0], Q[1]}, {P[0], P[1]}, {S[0], S[1]}};
			/* R and S on opposite sides of PQ: a proper shared edge */
			double sr = (Q[0] - P[0]) * (R[1] - P[1]) - (Q[1] - P[1]) * (R[0] - P[0]);
			double ss = (Q[0] - P[0]) * (S[1] - P[1]) - (Q[1] - P[1]) * (S[0] - P[0]);
			if (sr * ss >= 0)
				continue;
			struct target t;
			target_init(&t, samples, VK_FORMAT_S8_UINT);
			stencil_counting(&t);
			/* Triangle A alone, against brute force. */
			if (begin(&t, NULL, NULL) == 0)
				tri(&t, A[0][0], A[0][1], A[1][0], A[1][1], A[2][0], A[2][1], 0.5);
			for (uint32_t y = 0; y < FB; y++)
				for (uint32_t x = 0; x < FB; x++)
					for (uint32_t s = 0; s < samples; s++) {
						int b = brute_tri(A, x + loc[s][0], y + loc[s][1], 1.0 / 64);
						if (b != 0)
							bad_single += stencil_at(&t, x, y, s) != (b > 0);
					}
			/* Then B on top: no sample twice; brute-force union where it
			 * is unambiguous. */
			if (begin(&t, NULL, NULL) == 0)
				tri(&t, B[0][0], B[0][1], B[1][0], B[1][1], B[2][0], B[2][1], 0.5);
			for (uint32_t y = 0; y < FB; y++)
				for (uint32_t x = 0; x < FB; x++)
					for (uint32_t s = 0; s < samples; s++) {
						uint8_t v = stencil_at(&t, x, y, s);
						twice += v > 1;
						int a = brute_tri(A, x + loc[s][0], y + loc[s][1], 1.0 / 64);
						int b = brute_tri(B, x + loc[s][0], y + loc[s][1], 1.0 / 64);
						if (a > 0 || b > 0) {
							checked++;
							bad_union += v != 1;
						} else if (a < 0 && b < 0) {
							bad_union += v != 0;
						}
					}
			target_free(&t);
		}
		CHECK_EQ(bad_single, 0, "random triangles: samples differing from brute force");
		CHECK_EQ(twice, 0, "random pairs: samples covered twice");
		CHECK_EQ(bad_union, 0, "random pairs: union differing from brute force");
		CHECK(checked > 1000, "random pairs checked only %u samples", checked);
	}
}

/* Spec "Scissor Test": a pixel outside the scissor loses all its samples,
 * a pixel inside keeps all it had. */
static void test_scissor(void)
{
	const uint32_t samples = 4;
	VkRect2D sc = {{10, 12}, {17, 9}};
	struct fsrec *full = fsrec_new(), *cut = fsrec_new();
	struct target t;
	target_init(&t, samples, VK_FORMAT_UNDEFINED);
	if (begin(&t, fs_record, full) == 0)
		tri(&t, 3.3, 5.7, 40.1, 17.2, 14.9, 35.4, 0.5);
	t.st.scissor = sc;
	uint64_t expect = 0;
	if (begin(&t, fs_record, cut) == 0) {
		tri(&t, 3.3, 5.7, 40.1, 17.2, 14.9, 35.4, 0.5);
		uint32_t bad = 0;
		for (int y = 0; y < FB; y++)
			for (int x = 0; x < FB; x++) {
				bool in = x >= 10 && x < 27 && y >= 12 && y < 21;
				uint32_t want = in ? full->mask[y * FB + x] : 0;
				bad += cut->mask[y * FB + x] != want;
				expect += (uint64_t)__builtin_popcount(want);
			}
		CHECK_EQ(bad, 0, "scissored triangle: pixels whose coverage differs");
		CHECK_EQ(t.c.samples_passed[0], expect, "scissored triangle");
		/* The triangle's edges cross the scissor: partly covered pixels
		 * inside it keep exactly their samples. */
		uint32_t partial = 0;
		for (int y = 12; y < 21; y++)
			for (int x = 10; x < 27; x++) {
				int n = __builtin_popcount(cut->mask[y * FB + x]);
				partial += n > 0 && n < 4;
			}
		CHECK(partial > 0, "geometry does not exercise partly covered pixels");
	}
	/* An integer rectangle: area of the intersection times samples. */
	if (begin(&t, NULL, NULL) == 0) {
		rect(&t, 5, 5, 20, 30, 0.5);
		CHECK_EQ(t.c.samples_passed[0], (20 - 10) * (21 - 12) * samples, "scissored rect");
	}
	/* The render area clips as well, as does a scissor past the target. */
	t.st.scissor = (VkRect2D){{40, 40}, {100, 100}};
	t.st.render_area = (VkRect2D){{0, 0}, {60, 50}};
	if (begin(&t, NULL, NULL) == 0) {
		rect(&t, 0, 0, 64, 64, 0.5);
		CHECK_EQ(t.c.samples_passed[0], 20 * 10 * samples, "scissor within the render area");
	}
	target_free(&t);
	free(full);
	free(cut);
}

/* Spec "Basic Polygon Rasterization": a = -1/2 sum(x_i y_(i+1) - x_(i+1) y_i)
 * in framebuffer coordinates (y down); positive area is front-facing for
 * COUNTER_CLOCKWISE. */
static void test_culling(void)
{
	static const VkCullModeFlags culls[] = {VK_CULL_MODE_NONE, VK_CULL_MODE_FRONT_BIT,
						VK_CULL_MODE_BACK_BIT, VK_CULL_MODE_FRONT_AND_BACK};
	for (int ff = 0; ff < 2; ff++)
		for (int ci = 0; ci < 4; ci++)
			for (int pos = 0; pos < 2; pos++) {
				struct target t;
				target_init(&t, 1, VK_FORMAT_UNDEFINED);
				t.st.front_face = ff ? VK_FRONT_FACE_CLOCKWISE : VK_FRONT_FACE_COUNTER_CLOCKWISE;
				t.st.cull_mode = culls[ci];
				struct fsrec *f = fsrec_new();
				f->probe_x = 12;
				f->probe_y = 12;
				if (begin(&t, fs_record, f) == 0) {
					/* (10,10) (10,30) (30,10): sum = -400, a = +200 */
					if (pos)
						tri(&t, 10, 10, 10, 30, 30, 10, 0.5);
					else
						tri(&t, 10, 10, 30, 10, 10, 30, 0.5);
					bool front = ff ? !pos : pos;
					bool culled = culls[ci] & (front ? VK_CULL_MODE_FRONT_BIT
									 : VK_CULL_MODE_BACK_BIT);
					char what[96];
					snprintf(what, sizeof(what), "front_face %d cull %d area %s", ff, ci,
						 pos ? "positive" : "negative");
					CHECK_EQ(t.c.samples_passed[0] > 0, !culled, what);
					if (!culled)
						CHECK_EQ(f->probe.front_facing, front, what);
				}
				free(f);
				target_free(&t);
			}
}

/* Spec "Depth Test". */
static void test_depth(void)
{
	static const VkFormat fmts[] = {VK_FORMAT_D32_SFLOAT, VK_FORMAT_D16_UNORM,
					VK_FORMAT_D24_UNORM_S8_UINT};
	for (uint32_t samples = 1; samples <= 4; samples += 3)
		for (int fi = 0; fi < 3; fi++) {
			struct target t;
			target_init(&t, samples, fmts[fi]);
			t.st.depth_test = true;
			t.st.depth_write = true;
			t.st.depth_compare = VK_COMPARE_OP_LESS;
			const uint64_t all = 16 * 16 * samples;
			clear_ds(&t, 0.5f, 0);
			/* Behind a cleared 0.5: full occlusion gives 0 samples. */
			if (begin(&t, NULL, NULL) == 0) {
				rect(&t, 8, 8, 24, 24, 0.75);
				CHECK_EQ(t.c.samples_passed[0], 0, "LESS behind the clear");
			}
			/* Equal to the clear: LESS fails, LESS_OR_EQUAL and EQUAL pass. */
			if (begin(&t, NULL, NULL) == 0) {
				rect(&t, 8, 8, 24, 24, 0.5);
				CHECK_EQ(t.c.samples_passed[0], 0, "LESS at the clear value");
			}
			t.st.depth_compare = VK_COMPARE_OP_EQUAL;
			t.st.depth_write = false;
			if (begin(&t, NULL, NULL) == 0) {
				rect(&t, 8, 8, 24, 24, 0.5);
				CHECK_EQ(t.c.samples_passed[0], all, "EQUAL at the clear value");
			}
			/* In front: passes and writes; a second draw behind the
			 * first is then occluded only where they overlap. */
			t.st.depth_compare = VK_COMPARE_OP_LESS;
			t.st.depth_write = true;
			if (begin(&t, NULL, NULL) == 0) {
				rect(&t, 8, 8, 24, 24, 0.25);
				CHECK_EQ(t.c.samples_passed[0], all, "LESS in front of the clear");
			}
			if (begin(&t, NULL, NULL) == 0) {
				rect(&t, 16, 16, 40, 40, 0.375);
				CHECK_EQ(t.c.samples_passed[0], (24 * 24 - 8 * 8) * samples,
					 "partly behind an earlier draw");
			}
			/* Writes off: the buffer keeps its values. */
			t.st.depth_write = false;
			if (begin(&t, NULL, NULL) == 0)
				rect(&t, 0, 0, 64, 64, 0.0);
			float d = rd_format_load_depth(t.st.depth_stencil.fmt,
						       texel_at(&t, &t.st.depth_stencil, 0, 60, 60, 0));
			CHECK(fabsf(d - 0.5f) < 1e-4f, "depth write off changed the buffer to %f", d);
			/* Depth bounds: the stored value 0.5 (outside the earlier
			 * draws) against [0.6, 1.0]. */
			t.st.depth_test = false;
			t.st.depth_bounds_test = true;
			t.st.min_depth_bounds = 0.6f;
			t.st.max_depth_bounds = 1.0f;
			if (begin(&t, NULL, NULL) == 0) {
				rect(&t, 48, 48, 64, 64, 0.9);
				CHECK_EQ(t.c.samples_passed[0], 0, "depth bounds excluding the stored 0.5");
			}
			t.st.min_depth_bounds = 0.4f;
			if (begin(&t, NULL, NULL) == 0) {
				rect(&t, 48, 48, 64, 64, 0.9);
				CHECK_EQ(t.c.samples_passed[0], 16 * 16 * samples, "depth bounds including it");
			}
			target_free(&t);
		}
	/* A fragment at zf 1.5 (as depth clamping lets through clipping)
	 * clamps to the viewport's maxDepth 0.8 and passes LESS against 0.9. */
	struct target t;
	target_init(&t, 1, VK_FORMAT_D32_SFLOAT);
	t.st.depth_test = true;
	t.st.depth_write = true;
	t.st.depth_compare = VK_COMPARE_OP_LESS;
	t.st.depth_clamp = true;
	t.st.viewport.maxDepth = 0.8f;
	clear_ds(&t, 0.9f, 0);
	if (begin(&t, NULL, NULL) == 0) {
		rect(&t, 0, 0, 4, 4, 1.5);
		CHECK_EQ(t.c.samples_passed[0], 16, "depth clamp to the viewport's range");
	}
	float d = rd_format_load_depth(t.st.depth_stencil.fmt,
				       texel_at(&t, &t.st.depth_stencil, 0, 1, 1, 0));
	CHECK(d == 0.8f, "depth clamp wrote %f, expected 0.8", d);
	target_free(&t);
}

/* Spec "Stencil Test": every VkStencilOp, the write and compare masks, and
 * the back-face state for back-facing triangles. */
static void test_stencil(void)
{
	struct opcase {
		VkStencilOp op;
		uint8_t before, after;
	};
	const uint8_t ref = 0x3c;
	static const struct opcase ops[] = {
		{VK_STENCIL_OP_KEEP, 200, 200},
		{VK_STENCIL_OP_ZERO, 200, 0},
		{VK_STENCIL_OP_REPLACE, 200, 0x3c},
		{VK_STENCIL_OP_INCREMENT_AND_CLAMP, 200, 201},
		{VK_STENCIL_OP_INCREMENT_AND_CLAMP, 255, 255},
		{VK_STENCIL_OP_DECREMENT_AND_CLAMP, 200, 199},
		{VK_STENCIL_OP_DECREMENT_AND_CLAMP, 0, 0},
		{VK_STENCIL_OP_INVERT, 200, 55},
		{VK_STENCIL_OP_INCREMENT_AND_WRAP, 255, 0},
		{VK_STENCIL_OP_INCREMENT_AND_WRAP, 7, 8},
		{VK_STENCIL_OP_DECREMENT_AND_WRAP, 0, 255},
		{VK_STENCIL_OP_DECREMENT_AND_WRAP, 7, 6},
	};
	for (uint32_t samples = 1; samples <= 4; samples += 3)
		for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
			for (int which = 0; which < 3; which++) { /* pass, fail, depth fail */
				struct target t;
				target_init(&t, samples, VK_FORMAT_D24_UNORM_S8_UINT);
				t.st.stencil_test = true;
				t.st.depth_test = which == 2;
				t.st.depth_compare = VK_COMPARE_OP_NEVER;
				VkStencilOpState so = {VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP,
						       VK_STENCIL_OP_KEEP,
						       which == 1 ? VK_COMPARE_OP_NEVER : VK_COMPARE_OP_ALWAYS,
						       0xff, 0xff, ref};
				if (which == 0)
					so.passOp = ops[i].op;
				else if (which == 1)
					so.failOp = ops[i].op;
				else
					so.depthFailOp = ops[i].op;
				t.st.front = t.st.back = so;
				clear_ds(&t, 0.5f, ops[i].before);
				if (begin(&t, NULL, NULL) == 0) {
					rect(&t, 4, 4, 12, 12, 0.5);
					char what[96];
					snprintf(what, sizeof(what), "stencil op %d (%s) from %u, samples %u",
						 (int)ops[i].op, which == 0 ? "pass" : which == 1 ? "fail" : "depth fail",
						 ops[i].before, samples);
					CHECK_EQ(t.c.samples_passed[0], which == 0 ? 64 * samples : 0, what);
					CHECK_EQ(stencil_at(&t, 5, 5, samples - 1), ops[i].after, what);
					CHECK_EQ(stencil_at(&t, 20, 20, 0), ops[i].before, what);
				}
				target_free(&t);
			}
	/* Write mask 0x0f: REPLACE keeps the high nibble. Compare mask 0x0f:
	 * EQUAL of 0x12 against 0x32 passes. */
	struct target t;
	target_init(&t, 4, VK_FORMAT_S8_UINT);
	t.st.stencil_test = true;
	t.st.front = t.st.back = (VkStencilOpState){VK_STENCIL_OP_KEEP, VK_STENCIL_OP_REPLACE,
						     VK_STENCIL_OP_KEEP, VK_COMPARE_OP_EQUAL,
						     0x0f, 0x0f, 0x12};
	clear_ds(&t, 0.0f, 0x32);
	if (begin(&t, NULL, NULL) == 0) {
		rect(&t, 0, 0, 8, 8, 0.5);
		CHECK_EQ(t.c.samples_passed[0], 64 * 4, "compare mask");
		CHECK_EQ(stencil_at(&t, 1, 1, 2), 0x32, "write mask"); /* (0x32 & 0xf0) | 0x2 */
	}
	t.st.front.reference = 0x5c;
	t.st.front.compareOp = VK_COMPARE_OP_ALWAYS;
	t.st.back = t.st.front; /* rect()'s triangles are back-facing */
	if (begin(&t, NULL, NULL) == 0) {
		rect(&t, 0, 0, 8, 8, 0.5);
		CHECK_EQ(stencil_at(&t, 1, 1, 2), 0x3c, "write mask 0x0f with reference 0x5c");
	}
	/* Front and back states by facing. */
	t.st.front = (VkStencilOpState){VK_STENCIL_OP_KEEP, VK_STENCIL_OP_ZERO, VK_STENCIL_OP_KEEP,
					VK_COMPARE_OP_ALWAYS, 0xff, 0xff, 0};
	t.st.back = (VkStencilOpState){VK_STENCIL_OP_KEEP, VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_KEEP,
				       VK_COMPARE_OP_ALWAYS, 0xff, 0xff, 77};
	clear_ds(&t, 0.0f, 9);
	if (begin(&t, NULL, NULL) == 0) {
		tri(&t, 10, 10, 10, 30, 30, 10, 0.5); /* positive area: front (CCW) */
		tri(&t, 40, 40, 60, 40, 40, 60, 0.5); /* negative area: back */
		CHECK_EQ(stencil_at(&t, 12, 12, 0), 0, "front-facing takes the front ops");
		CHECK_EQ(stencil_at(&t, 42, 42, 0), 77, "back-facing takes the back ops");
	}
	target_free(&t);
}

/* Spec "Sample Mask Test" and "Multisample Coverage" (SampleMask output). */
static void test_sample_mask(void)
{
	struct target t;
	target_init(&t, 4, VK_FORMAT_UNDEFINED);
	t.st.sample_mask = 0x5;
	if (begin(&t, NULL, NULL) == 0) {
		rect(&t, 0, 0, 10, 10, 0.5);
		CHECK_EQ(t.c.samples_passed[0], 100 * 2, "sample mask 0x5");
	}
	t.st.sample_mask = 0;
	if (begin(&t, NULL, NULL) == 0) {
		rect(&t, 0, 0, 10, 10, 0.5);
		CHECK_EQ(t.c.samples_passed[0], 0, "sample mask 0");
	}
	t.st.sample_mask = ~0u;
	t.st.fs_info.writes_sample_mask = true;
	struct fsrec *f = fsrec_new();
	f->mask_out = 0x8;
	if (begin(&t, fs_record, f) == 0) {
		rect(&t, 0, 0, 10, 10, 0.5);
		CHECK_EQ(t.c.samples_passed[0], 100, "SampleMask output 0x8");
		CHECK_EQ(f->mask[0], 0xf, "SampleMaskIn");
		CHECK_EQ(texel_at(&t, &t.st.color[0], 0, 3, 3, 3)[0], 255, "sample 3 written");
		CHECK_EQ(texel_at(&t, &t.st.color[0], 0, 3, 3, 0)[0], 0, "sample 0 not written");
	}
	t.st.sample_mask = 0x5;
	memset(f->mask, 0, sizeof(f->mask));
	if (begin(&t, fs_record, f) == 0) {
		rect(&t, 0, 0, 10, 10, 0.5);
		CHECK_EQ(t.c.samples_passed[0], 0, "sample mask 0x5 and SampleMask 0x8");
		CHECK_EQ(f->mask[0], 0x5, "SampleMaskIn after the sample mask test");
	}
	free(f);
	target_free(&t);
}

/* Discard in the stand-in shader; early fragment tests count before
 * shading; sample shading runs per sample. */
static void test_discard(void)
{
	for (uint32_t samples = 1; samples <= 4; samples += 3) {
		struct target t;
		target_init(&t, samples, VK_FORMAT_UNDEFINED);
		t.st.fs_info.may_discard = true;
		struct fsrec *f = fsrec_new();
		f->discard_odd = 1;
		if (begin(&t, fs_record, f) == 0) {
			rect(&t, 2, 0, 18, 8, 0.5);
			CHECK_EQ(t.c.samples_passed[0], 8 * 8 * samples, "discard odd columns");
			/* (4 samples: pixels on the diagonal are shaded once per triangle) */
			CHECK(rd_fs_invocations(&t.c) >= 16 * 8 && (samples > 1 || rd_fs_invocations(&t.c) == 16 * 8),
			      "discard odd columns: %llu invocations", (unsigned long long)rd_fs_invocations(&t.c));
			CHECK_EQ(pixels_written(&t, 0), 8 * 8, "discard odd columns: pixels written");
		}
		/* Spec "Fragment Operations": with EarlyFragmentTests, shading
		 * and multisample coverage come after sample counting, so
		 * discarded fragments were already counted. */
		t.st.fs_info.early_fragment_tests = true;
		memset(t.color, 0, (size_t)FB * FB * samples * LAYERS * 4);
		if (begin(&t, fs_record, f) == 0) {
			rect(&t, 2, 0, 18, 8, 0.5);
			CHECK_EQ(t.c.samples_passed[0], 16 * 8 * samples, "early tests: discard after counting");
			CHECK_EQ(pixels_written(&t, 0), 8 * 8, "early tests: pixels written");
		}
		t.st.fs_info.early_fragment_tests = false;
		/* Sample shading: one invocation per covered sample. */
		t.st.sample_shading = true;
		if (begin(&t, fs_record, f) == 0) {
			rect(&t, 2, 0, 18, 8, 0.5);
			CHECK_EQ(rd_fs_invocations(&t.c), 16 * 8 * samples, "sample shading invocations");
			CHECK_EQ(t.c.samples_passed[0], 8 * 8 * samples, "sample shading with discard");
		}
		free(f);
		target_free(&t);
	}
	/* Early tests: a fragment failing the depth test is never shaded. */
	struct target t;
	target_init(&t, 4, VK_FORMAT_D32_SFLOAT);
	t.st.depth_test = true;
	t.st.depth_compare = VK_COMPARE_OP_LESS;
	t.st.fs_info.early_fragment_tests = true;
	clear_ds(&t, 0.5f, 0);
	struct fsrec *f = fsrec_new();
	if (begin(&t, fs_record, f) == 0) {
		rect(&t, 0, 0, 8, 8, 0.75);
		CHECK_EQ(rd_fs_invocations(&t.c), 0, "early depth fail: no invocations");
		rect(&t, 0, 0, 8, 8, 0.25);
		CHECK(rd_fs_invocations(&t.c) >= 64, "early depth pass: %llu invocations",
		      (unsigned long long)rd_fs_invocations(&t.c));
	}
	/* Late tests with FragDepth: the shader's depth replaces zf. */
	t.st.fs_info.early_fragment_tests = false;
	free(f);
	target_free(&t);
}

static int fs_depth(void *user, struct rd_invocation *inv, char *err, size_t errsize)
{
	inv->frag_depth = *(const float *)user;
	return 0;
}

static void test_frag_depth(void)
{
	struct target t;
	target_init(&t, 4, VK_FORMAT_D32_SFLOAT);
	t.st.depth_test = true;
	t.st.depth_compare = VK_COMPARE_OP_LESS;
	t.st.fs_info.writes_frag_depth = true;
	t.st.fs_info.output_mask = 0;
	clear_ds(&t, 0.5f, 0);
	float fd = 0.75f;
	if (begin(&t, fs_depth, &fd) == 0) {
		rect(&t, 0, 0, 8, 8, 0.25); /* interpolated 0.25 would pass */
		CHECK_EQ(t.c.samples_passed[0], 0, "FragDepth 0.75 behind 0.5");
		CHECK(rd_fs_invocations(&t.c) >= 64, "FragDepth: %llu invocations",
		      (unsigned long long)rd_fs_invocations(&t.c));
	}
	fd = 0.125f;
	if (begin(&t, fs_depth, &fd) == 0) {
		rect(&t, 0, 0, 8, 8, 0.75);
		CHECK_EQ(t.c.samples_passed[0], 64 * 4, "FragDepth 0.125 in front of 0.5");
	}
	target_free(&t);
}

/* Spec "Basic Point Rasterization": the samples in a square of side the
 * point size centred on the point (left/top sides inclusive). */
static uint64_t point_brute(uint32_t samples, double cx, double cy, double size)
{
	const float(*loc)[2] = rd_sample_locations(samples);
	uint64_t n = 0;
	for (int y = 0; y < FB; y++)
		for (int x = 0; x < FB; x++)
			for (uint32_t s = 0; s < samples; s++) {
				double px = x + loc[s][0], py = y + loc[s][1];
				n += px >= cx - size / 2 && px < cx + size / 2 && py >= cy - size / 2 &&
				     py < cy + size / 2;
			}
	return n;
}

static void test_points(void)
{
	struct pcase {
		double x, y;
		float size;
		uint64_t pixels; /* 0: brute force only */
	};
	static const struct pcase ps[] = {
		{10.5, 10.5, 1.0f, 1}, {20, 20, 4.0f, 16}, {30.5, 30.5, 4.0f, 16},
		{40.3, 12.8, 2.5f, 0}, {5.5, 50.5, 0.25f, 1}, /* clamped up to 1 */
		{32, 32, 1000.0f, 64 * 64},                    /* clamped to 64 */
		{0.5, 0.5, 3.0f, 4},                           /* partly off the target */
	};
	for (uint32_t samples = 1; samples <= 4; samples += 3)
		for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
			struct target t;
			target_init(&t, samples, VK_FORMAT_UNDEFINED);
			struct fsrec *f = fsrec_new();
			if (begin(&t, fs_record, f) == 0) {
				struct rd_raster_vertex v = vtx(ps[i].x, ps[i].y, 0.5);
				v.point_size = ps[i].size;
				rd_raster_point(&t.r, &v);
				double size = ps[i].size < 1 ? 1 : ps[i].size > 64 ? 64 : ps[i].size;
				char what[96];
				snprintf(what, sizeof(what), "point at %.2f,%.2f size %.2f samples %u",
					 ps[i].x, ps[i].y, ps[i].size, samples);
				CHECK_EQ(t.c.samples_passed[0], point_brute(samples, ps[i].x, ps[i].y, size), what);
				if (ps[i].pixels && (samples == 1 || ps[i].x == floor(ps[i].x) ||
						     ps[i].size <= 1))
					CHECK_EQ(t.c.samples_passed[0], ps[i].pixels * samples, what);
			}
			free(f);
			target_free(&t);
		}
}

static void test_lines(void)
{
	for (uint32_t samples = 1; samples <= 4; samples += 3) {
		struct target t;
		target_init(&t, samples, VK_FORMAT_S8_UINT);
		stencil_counting(&t);
		struct rd_raster_vertex a, b, c;
		/* Horizontal and vertical at pixel centres: rectangles of whole pixels. */
		if (begin(&t, NULL, NULL) == 0) {
			a = vtx(2, 10.5, 0.5);
			b = vtx(12, 10.5, 0.5);
			rd_raster_line(&t.r, &a, &b, a.var);
			CHECK_EQ(t.c.samples_passed[0], 10 * samples, "horizontal line");
		}
		if (begin(&t, NULL, NULL) == 0) {
			a = vtx(5.5, 20, 0.5);
			b = vtx(5.5, 37, 0.5);
			rd_raster_line(&t.r, &a, &b, a.var);
			CHECK_EQ(t.c.samples_passed[0], 17 * samples, "vertical line");
		}
		/* A straight strip: the shared end is covered once. */
		clear_ds(&t, 0.0f, 0);
		if (begin(&t, NULL, NULL) == 0) {
			a = vtx(2, 40.5, 0.5);
			b = vtx(7, 40.5, 0.5);
			c = vtx(12, 40.5, 0.5);
			rd_raster_line(&t.r, &a, &b, a.var);
			rd_raster_line(&t.r, &b, &c, b.var);
			CHECK_EQ(t.c.samples_passed[0], 10 * samples, "straight strip");
			uint32_t twice = 0;
			for (uint32_t x = 0; x < FB; x++)
				for (uint32_t s = 0; s < samples; s++)
					twice += stencil_at(&t, x, 40, s) > 1;
			CHECK_EQ(twice, 0, "straight strip: samples covered twice");
		}
		/* Width 3. */
		t.st.line_width = 3.0f;
		if (begin(&t, NULL, NULL) == 0) {
			a = vtx(10, 50.5, 0.5);
			b = vtx(20, 50.5, 0.5);
			rd_raster_line(&t.r, &a, &b, a.var);
			CHECK_EQ(t.c.samples_passed[0], 30 * samples, "line width 3");
		}
		t.st.line_width = 1.0f;
		/* A diagonal of length 50: its 1 x 50 rectangle holds 50 pixels'
		 * worth of samples, give or take the samples near its ends and
		 * sides (at most a few). */
		if (begin(&t, NULL, NULL) == 0) {
			a = vtx(0.2, 0.7, 0.5);
			b = vtx(40.2, 30.7, 0.5);
			rd_raster_line(&t.r, &a, &b, a.var);
			double got = (double)t.c.samples_passed[0] / samples;
			CHECK(fabs(got - 50.0) <= 3.0, "diagonal line covers %.2f pixels, expected 50 +- 3", got);
		}
		/* Zero length: nothing. */
		if (begin(&t, NULL, NULL) == 0) {
			a = vtx(9.5, 9.5, 0.5);
			rd_raster_line(&t.r, &a, &a, a.var);
			CHECK_EQ(t.c.samples_passed[0], 0, "zero-length line");
		}
		target_free(&t);
	}
}

/* Polygon modes LINE and POINT draw the edges / vertices. */
static void test_polygon_mode(void)
{
	struct target t;
	target_init(&t, 1, VK_FORMAT_UNDEFINED);
	t.st.polygon_mode = VK_POLYGON_MODE_POINT;
	if (begin(&t, NULL, NULL) == 0) {
		tri(&t, 10.5, 10.5, 30.5, 10.5, 10.5, 30.5, 0.5);
		CHECK_EQ(t.c.samples_passed[0], 3, "polygon mode POINT");
	}
	t.st.polygon_mode = VK_POLYGON_MODE_LINE;
	if (begin(&t, NULL, NULL) == 0) {
		tri(&t, 10.5, 10.5, 30.5, 10.5, 10.5, 30.5, 0.5);
		/* two 20-pixel axis lines and a 28.3-pixel diagonal, overlapping
		 * at the corners */
		uint64_t n = t.c.samples_passed[0];
		CHECK(n >= 60 && n <= 72, "polygon mode LINE covered %llu pixels", (unsigned long long)n);
	}
	t.st.polygon_mode = VK_POLYGON_MODE_LINE;
	t.st.cull_mode = VK_CULL_MODE_FRONT_AND_BACK;
	if (begin(&t, NULL, NULL) == 0) {
		tri(&t, 10.5, 10.5, 30.5, 10.5, 10.5, 30.5, 0.5);
		CHECK_EQ(t.c.samples_passed[0], 0, "culling applies to polygon mode LINE");
	}
	target_free(&t);
}

/* Spec "Interpolation Decorations" and FragCoord. */
static void test_interpolation(void)
{
	static uint32_t var[3][RD_MAX_LOCATIONS][4];
	static const float val[3][4] = {{1, 0, 0, 10}, {0, 1, 0, 20}, {0, 0, 1, 30}};
	for (int i = 0; i < 3; i++)
		for (int l = 0; l < 3; l++)
			memcpy(var[i][l], val[i], 16);
	uint32_t flat_words[RD_MAX_LOCATIONS][4] = {{0}};
	flat_words[2][0] = 0xdeadbeef; /* an integer, bit-exact */
	const double inv_w[3] = {1.0, 0.5, 0.25}, z[3] = {0.2, 0.4, 0.6};
	struct rd_raster_vertex v[3] = {
		{0, 0, z[0], inv_w[0], 1.0f, true, true, (const uint32_t(*)[4])var[0]},
		{64, 0, z[1], inv_w[1], 1.0f, true, true, (const uint32_t(*)[4])var[1]},
		{0, 64, z[2], inv_w[2], 1.0f, true, true, (const uint32_t(*)[4])var[2]},
	};
	struct target t;
	target_init(&t, 4, VK_FORMAT_UNDEFINED);
	t.st.fs_info.input_mask = 0x7;
	t.st.fs_info.noperspective_mask = 0x2;
	t.st.fs_info.flat_mask = 0x4;
	struct fsrec *f = fsrec_new();
	f->probe_x = 20;
	f->probe_y = 9;
	if (begin(&t, fs_record, f) == 0)
		rd_raster_polygon(&t.r, v, 3, (const uint32_t(*)[4])flat_words);
	const struct rd_invocation *p = &f->probe;
	double x = 20.5, y = 9.5;
	double w[3] = {1 - x / 64 - y / 64, x / 64, y / 64};
	double iw = w[0] * inv_w[0] + w[1] * inv_w[1] + w[2] * inv_w[2];
	float got[4];
	memcpy(got, p->in[0], 16);
	for (int k = 0; k < 3; k++) {
		double persp = w[k] * inv_w[k] / iw;
		CHECK(fabs(got[k] - persp) < 1e-5, "perspective component %d: %f, expected %f", k, got[k], persp);
	}
	memcpy(got, p->in[1], 16);
	for (int k = 0; k < 3; k++)
		CHECK(fabs(got[k] - w[k]) < 1e-5, "noperspective component %d: %f, expected %f", k, got[k], w[k]);
	CHECK_EQ(p->in[2][0], 0xdeadbeef, "flat input");
	CHECK(p->frag_coord[0] == 20.5f && p->frag_coord[1] == 9.5f, "FragCoord xy %f %f",
	      p->frag_coord[0], p->frag_coord[1]);
	double zz = w[0] * z[0] + w[1] * z[1] + w[2] * z[2];
	CHECK(fabs(p->frag_coord[2] - zz) < 1e-6, "FragCoord.z %f, expected %f", p->frag_coord[2], zz);
	CHECK(fabs(p->frag_coord[3] - iw) < 1e-6, "FragCoord.w %f, expected %f", p->frag_coord[3], iw);
	CHECK_EQ(p->sample_mask_in, 0xf, "SampleMaskIn");

	/* Per sample: FragCoord at the sample, SampleId, one bit of SampleMaskIn. */
	t.st.sample_shading = true;
	if (begin(&t, fs_record, f) == 0)
		rd_raster_polygon(&t.r, v, 3, (const uint32_t(*)[4])flat_words);
	const float(*loc)[2] = rd_sample_locations(4);
	/* the probe holds the last sample shaded at (20, 9): sample 3 */
	CHECK_EQ(p->sample_id, 3, "SampleId");
	CHECK_EQ(p->sample_mask_in, 8, "SampleMaskIn per sample");
	CHECK(p->frag_coord[0] == 20 + loc[3][0] && p->frag_coord[1] == 9 + loc[3][1],
	      "FragCoord at sample 3: %f %f", p->frag_coord[0], p->frag_coord[1]);
	CHECK_EQ(rd_fs_invocations(&t.c), t.c.samples_passed[0], "one invocation per covered sample");
	free(f);
	target_free(&t);
}

/* Colour write mask, formats, layers, errors. */
static void test_color_and_layers(void)
{
	struct target t;
	target_init(&t, 1, VK_FORMAT_UNDEFINED);
	struct fsrec *f = fsrec_new();
	memset(t.color, 0x11, (size_t)FB * FB * LAYERS * 4);
	t.st.color_write_mask[0] = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_A_BIT;
	if (begin(&t, fs_record, f) == 0) {
		rect(&t, 0, 0, 2, 2, 0.5);
		uint8_t *p = texel_at(&t, &t.st.color[0], 0, 1, 1, 0);
		CHECK(p[0] == 255 && p[1] == 0x11 && p[2] == 0x11 && p[3] == 255,
		      "write mask R|A: %02x %02x %02x %02x", p[0], p[1], p[2], p[3]);
	}
	t.st.color[0].fmt = rd_format(VK_FORMAT_B8G8R8A8_UNORM);
	t.st.color_write_mask[0] = VK_COLOR_COMPONENT_R_BIT;
	if (begin(&t, fs_record, f) == 0) {
		rect(&t, 4, 0, 6, 2, 0.5);
		uint8_t *p = texel_at(&t, &t.st.color[0], 0, 5, 1, 0);
		CHECK(p[0] == 0x11 && p[1] == 0x11 && p[2] == 255 && p[3] == 0x11,
		      "BGRA write mask R: %02x %02x %02x %02x", p[0], p[1], p[2], p[3]);
	}
	t.st.color[0].fmt = rd_format(VK_FORMAT_R8G8B8A8_UNORM);
	t.st.color_write_mask[0] = 0xf;
	/* view 2 of a multiview draw writes layer 2 */
	memset(t.color, 0, (size_t)FB * FB * LAYERS * 4);
	t.st.view_mask = 0x5;
	memset(&t.c, 0, sizeof(t.c));
	if (rd_raster_begin(&t.r, &t.st, 2, fs_record, f, &t.c, t.err, sizeof(t.err)) == 0) {
		rect(&t, 0, 0, 4, 4, 0.5);
		CHECK_EQ(t.c.samples_passed[2], 16, "view 2 count");
		CHECK_EQ(t.c.samples_passed[0], 0, "view 0 count");
		CHECK_EQ(pixels_written(&t, 2), 16, "layer 2 written");
		CHECK_EQ(pixels_written(&t, 0) + pixels_written(&t, 1), 0, "layers 0, 1 untouched");
	} else {
		CHECK(0, "rd_raster_begin: %s", t.err);
	}
	t.st.color[0].base_layer = 1;
	CHECK(rd_raster_begin(&t.r, &t.st, 2, fs_record, f, &t.c, t.err, sizeof(t.err)) == -1 &&
		      strstr(t.err, "layer"),
	      "layer past the image: %s", t.err);
	t.st.color[0].base_layer = 0;
	t.st.view_mask = 0;
	t.st.samples = VK_SAMPLE_COUNT_2_BIT;
	CHECK(rd_raster_begin(&t.r, &t.st, 0, fs_record, f, &t.c, t.err, sizeof(t.err)) == -1,
	      "2 samples refused");
	t.st.samples = VK_SAMPLE_COUNT_1_BIT;
	/* A fragment shader fault stops the primitive with its message. */
	f->fail = true;
	if (begin(&t, fs_record, f) == 0) {
		int rc = rect(&t, 0, 0, 4, 4, 0.5);
		CHECK(rc == -1 && strcmp(t.err, "stand-in fault") == 0, "fault: rc %d, '%s'", rc, t.err);
		CHECK_EQ(rd_fs_invocations(&t.c), 0, "faulting invocation not counted");
	}
	/* Huge and NaN coordinates: dropped, no crash. */
	f->fail = false;
	if (begin(&t, fs_record, f) == 0) {
		CHECK(tri(&t, -1e30, 0, 1e30, 0, 0, 1e30, 0.5) == 0, "huge triangle");
		CHECK(tri(&t, NAN, 0, 10, 0, 0, 10, 0.5) == 0, "NaN triangle");
		CHECK_EQ(t.c.samples_passed[0], 0, "huge/NaN triangles dropped");
	}
	free(f);
	target_free(&t);
}

/* Rasterization cost: a full-target rectangle at 4 samples with the
 * stand-in fragment stage. */
static void bench(void)
{
	struct target t;
	target_init(&t, 4, VK_FORMAT_D32_SFLOAT);
	t.st.depth_test = true;
	t.st.depth_write = true;
	t.st.depth_compare = VK_COMPARE_OP_LESS_OR_EQUAL;
	struct fsrec *f = fsrec_new();
	clear_ds(&t, 1.0f, 0);
	/* the best of 50 (the machine may be shared) */
	double us = 1e30;
	for (int i = 0; i < 50; i++) {
		struct timespec a, b;
		clock_gettime(CLOCK_MONOTONIC, &a);
		if (begin(&t, fs_record, f) == 0)
			rect(&t, 0, 0, FB, FB, 0.5);
		clock_gettime(CLOCK_MONOTONIC, &b);
		us = fmin(us, (double)(b.tv_sec - a.tv_sec) * 1e6 + (double)(b.tv_nsec - a.tv_nsec) / 1e3);
	}
	printf("bench: 64x64 4-sample rectangle with depth test, C fragment stage: %.1f us per draw\n", us);
	free(f);
	target_free(&t);
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "bench") == 0) { /* profiling */
		for (int i = 0; i < 10; i++)
			bench();
		return 0;
	}
	test_rect_counts();
	test_shared_edges();
	test_scissor();
	test_culling();
	test_depth();
	test_frag_depth();
	test_stencil();
	test_sample_mask();
	test_discard();
	test_points();
	test_lines();
	test_polygon_mode();
	test_interpolation();
	test_color_and_layers();
	bench();
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
