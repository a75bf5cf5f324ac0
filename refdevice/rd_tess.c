/* The fixed-function tessellator, following the spec chapter
 * "Tessellation" section by section:
 *
 * - "Tessellator Patch Discard": a relevant outer level <= 0 or NaN
 *   discards the patch (triangles: outer 0-2, quads: 0-3, isolines: 0-1).
 * - "Tessellator Spacing": a level is clamped ([1, max] equal, [2, max]
 *   fractional even, [1, max - 1] fractional odd) and rounded up to an
 *   integer, even or odd n.  Equal spacing makes n equal segments;
 *   fractional spacing n - 2 equal segments and two shorter ones whose
 *   length relative to the others is 1 - (n - f) / 2 (equal at n = f,
 *   towards zero as n - f approaches 2, the rule's "decrease monotonically
 *   with n - f"), placed symmetrically at the edge's two ends.  With the
 *   others' length L and the short ones' s: (n - 2) L + 2 s = 1 and
 *   s = L (1 - (n - f) / 2) give L = 1 / f.  A position past an edge's
 *   middle is computed from the far end, so an edge gets the same points
 *   in either direction.
 * - "Triangle Tessellation": concentric triangles from the first inner
 *   level (n segments: ring r's corners lie on the bisectors, where the
 *   perpendiculars through the inner subdivision's r-th vertices from
 *   each corner meet; its edges have n - 2r segments whose vertices are
 *   the perpendicular projections of that subdivision's inner vertices),
 *   ending in a point (n even) or a triangle (n odd); the outermost ring's
 *   edges subdivided by the outer levels (u = 0 by the first, v = 0 by
 *   the second, w = 0 by the third); all levels 1 make the single triangle.
 * - "Quad Tessellation": a grid from the inner levels (the u = 0 and u = 1
 *   edges in m segments by the first, the v = 0 and v = 1 edges in n by
 *   the second), two triangles per cell not on the border; the border
 *   filled against the outer edges (u = 0, v = 0, u = 1, v = 1 by outer
 *   levels 0 to 3); all levels 1 make one triangle pair.
 * - In both, an inner level of 1 with some other level above 1 acts as
 *   1 + epsilon: two segments (equal), three (fractional odd).
 * - The area between two rings is filled edge by edge, each triangle with
 *   two adjacent vertices of one edge and one of the other's ("stitch").
 * - "Isoline Tessellation": the first outer level (always equal spacing)
 *   gives n lines at v = 0, 1/n, ..., (n - 1)/n, the second the segments
 *   of each.
 * - "Tessellation Point Mode": one point per distinct vertex.
 * - "Tessellator Vertex Winding Order": every triangle is put in the
 *   declared order by the sign of a = u0 v1 - u1 v0 + u1 v2 - u2 v1 +
 *   u2 v0 - u0 v2 (counter-clockwise when a < 0 with the upper-left
 *   origin, a > 0 with the lower-left one). */
#include "rd_tess.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EDGE_MAX (RD_MAX_TESS_LEVEL + 1u)
/* "1 + epsilon" for an inner level of one */
#define ONE_PLUS_EPSILON (1.0f + 1.0f / 1024.0f)

struct build {
	struct rd_tess_mesh *m;
	bool oom;
};

static uint32_t add_vertex(struct build *b, double u, double v, double w)
{
	struct rd_tess_mesh *m = b->m;
	if (b->oom)
		return 0;
	if (m->nverts == m->cap_verts) {
		uint32_t cap = m->cap_verts ? 2 * m->cap_verts : 64;
		void *p = realloc(m->coord, (size_t)cap * sizeof(*m->coord));
		if (!p) {
			b->oom = true;
			return 0;
		}
		m->coord = p;
		m->cap_verts = cap;
	}
	m->coord[m->nverts][0] = (float)u;
	m->coord[m->nverts][1] = (float)v;
	m->coord[m->nverts][2] = (float)w;
	return m->nverts++;
}

static void add_prim(struct build *b, uint32_t a, uint32_t c, uint32_t d)
{
	struct rd_tess_mesh *m = b->m;
	if (b->oom)
		return;
	if (m->nprims == m->cap_prims) {
		uint32_t cap = m->cap_prims ? 2 * m->cap_prims : 64;
		void *p = realloc(m->prims, (size_t)cap * sizeof(*m->prims));
		if (!p) {
			b->oom = true;
			return;
		}
		m->prims = p;
		m->cap_prims = cap;
	}
	m->prims[m->nprims][0] = a;
	m->prims[m->nprims][1] = c;
	m->prims[m->nprims][2] = d;
	m->nprims++;
}

/* "Tessellator Spacing": the clamped level *f and the segment count. */
static uint32_t round_level(enum rd_tess_spacing sp, float level, float *f)
{
	float lo = sp == RD_SPACING_FRACTIONAL_EVEN ? 2.0f : 1.0f;
	float hi = sp == RD_SPACING_FRACTIONAL_ODD ? (float)RD_MAX_TESS_LEVEL - 1.0f : (float)RD_MAX_TESS_LEVEL;
	*f = fminf(fmaxf(level, lo), hi); /* fmaxf ignores a NaN (an inner level) */
	uint32_t n = (uint32_t)ceilf(*f);
	if (sp == RD_SPACING_FRACTIONAL_EVEN && n % 2)
		n++;
	if (sp == RD_SPACING_FRACTIONAL_ODD && n % 2 == 0)
		n++;
	return n;
}

/* Vertex positions t[0..n] along an edge of n segments, clamped level f. */
static void edge_positions(enum rd_tess_spacing sp, uint32_t n, float f, double *t)
{
	bool fractional = sp == RD_SPACING_FRACTIONAL_EVEN || sp == RD_SPACING_FRACTIONAL_ODD;
	double L = 1.0 / f, s = (2.0 - n + f) / (2.0 * f);
	for (uint32_t k = 0; k <= n; k++) {
		uint32_t near = k <= n / 2 ? k : n - k;
		double pos = near == 0 ? 0.0 : fractional && n >= 2 ? s + (near - 1) * L : (double)near / n;
		t[k] = k <= n / 2 ? pos : 1.0 - pos;
	}
}

/* One edge of a ring: n segments, n + 1 vertex indices from corner to
 * corner, and each vertex's position projected onto the outer edge. */
struct side {
	uint32_t n;
	uint32_t idx[EDGE_MAX];
	double proj[EDGE_MAX];
};

/* Fills the area between an outer edge and the inner edge facing it. */
static void stitch(struct build *b, const struct side *o, const struct side *in)
{
	uint32_t i = 0, j = 0;
	while (i < o->n || j < in->n) {
		bool outer = j == in->n ||
			     (i < o->n && o->proj[i] + o->proj[i + 1] <= in->proj[j] + in->proj[j + 1]);
		if (outer) {
			add_prim(b, o->idx[i], o->idx[i + 1], in->idx[j]);
			i++;
		} else {
			add_prim(b, o->idx[i], in->idx[j + 1], in->idx[j]);
			j++;
		}
	}
}

/* Triangles ---------------------------------------------------------------*/

static const double corner[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};

/* Ring 0 side s runs from corner s to corner s + 1: side 0 is the w = 0
 * edge (third outer level), side 1 u = 0 (first), side 2 v = 0 (second). */
static const uint32_t tri_side_level[3] = {2, 0, 1};

/* a to c at t, computed from the nearer end (the same point either way) */
static void lerp3(const double *a, const double *c, double t, double *out)
{
	for (int k = 0; k < 3; k++)
		out[k] = t <= 0.5 ? a[k] + (c[k] - a[k]) * t : c[k] + (a[k] - c[k]) * (1.0 - t);
}

static void triangles(struct build *b, enum rd_tess_spacing sp, const float outer[4], const float inner[2])
{
	float fo[3], fi;
	uint32_t no[3], ni = round_level(sp, inner[0], &fi);
	for (int i = 0; i < 3; i++)
		no[i] = round_level(sp, outer[i], &fo[i]);
	if (ni == 1 && no[0] == 1 && no[1] == 1 && no[2] == 1) {
		uint32_t a = add_vertex(b, 0, 0, 1), c = add_vertex(b, 1, 0, 0), d = add_vertex(b, 0, 1, 0);
		add_prim(b, a, c, d);
		return;
	}
	if (ni == 1) {
		fi = ONE_PLUS_EPSILON;
		ni = round_level(sp, fi, &fi);
	}
	double ti[EDGE_MAX];
	edge_positions(sp, ni, fi, ti);

	/* ring 0: the corners, then each side's inner vertices */
	struct side ring[2][3];
	uint32_t cur = 0, cidx[3];
	for (int s = 0; s < 3; s++)
		cidx[s] = add_vertex(b, corner[s][0], corner[s][1], corner[s][2]);
	for (int s = 0; s < 3; s++) {
		struct side *sd = &ring[cur][s];
		uint32_t lvl = tri_side_level[s];
		double t[EDGE_MAX];
		sd->n = no[lvl];
		edge_positions(sp, no[lvl], fo[lvl], t);
		for (uint32_t k = 0; k <= sd->n; k++) {
			double p[3];
			lerp3(corner[s], corner[(s + 1) % 3], t[k], p);
			sd->proj[k] = t[k];
			sd->idx[k] = k == 0 ? cidx[s] : k == sd->n ? cidx[(s + 1) % 3] : add_vertex(b, p[0], p[1], p[2]);
		}
	}
	/* rings 1, 2, ...: n - 2r segments per side */
	for (uint32_t r = 1; 2 * r <= ni; r++) {
		uint32_t seg = ni - 2 * r, nxt = cur ^ 1;
		if (seg == 0) {
			uint32_t c = add_vertex(b, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0);
			for (int s = 0; s < 3; s++) {
				ring[nxt][s].n = 0;
				ring[nxt][s].idx[0] = c;
				ring[nxt][s].proj[0] = 0.5;
			}
		} else {
			double K[3][3], t = ti[r];
			for (int s = 0; s < 3; s++)
				for (int k = 0; k < 3; k++)
					K[s][k] = corner[s][k] * (1.0 - 4.0 * t / 3.0) +
						  (1.0 - corner[s][k]) * (2.0 * t / 3.0);
			for (int s = 0; s < 3; s++)
				cidx[s] = add_vertex(b, K[s][0], K[s][1], K[s][2]);
			double span = ti[ni - r] - ti[r];
			for (int s = 0; s < 3; s++) {
				struct side *sd = &ring[nxt][s];
				sd->n = seg;
				for (uint32_t k = 0; k <= seg; k++) {
					double p[3], q = span > 0 ? (ti[r + k] - ti[r]) / span : 0;
					lerp3(K[s], K[(s + 1) % 3], q, p);
					sd->proj[k] = ti[r + k];
					sd->idx[k] = k == 0	? cidx[s]
						     : k == seg ? cidx[(s + 1) % 3]
								: add_vertex(b, p[0], p[1], p[2]);
				}
			}
		}
		for (int s = 0; s < 3; s++)
			stitch(b, &ring[cur][s], &ring[nxt][s]);
		cur = nxt;
		if (seg == 1) /* the innermost triangle, as it is */
			add_prim(b, ring[cur][0].idx[0], ring[cur][1].idx[0], ring[cur][2].idx[0]);
	}
}

/* Quads -------------------------------------------------------------------*/

static void quads(struct build *b, enum rd_tess_spacing sp, const float outer[4], const float inner[2])
{
	float fo[4], fm, fn;
	uint32_t no[4];
	uint32_t m = round_level(sp, inner[0], &fm), n = round_level(sp, inner[1], &fn);
	for (int i = 0; i < 4; i++)
		no[i] = round_level(sp, outer[i], &fo[i]);
	if (m == 1 && n == 1 && no[0] == 1 && no[1] == 1 && no[2] == 1 && no[3] == 1) {
		uint32_t a = add_vertex(b, 0, 0, 0), c = add_vertex(b, 1, 0, 0);
		uint32_t d = add_vertex(b, 1, 1, 0), e = add_vertex(b, 0, 1, 0);
		add_prim(b, a, c, d);
		add_prim(b, a, d, e);
		return;
	}
	if (m == 1) {
		fm = ONE_PLUS_EPSILON;
		m = round_level(sp, fm, &fm);
	}
	if (n == 1) {
		fn = ONE_PLUS_EPSILON;
		n = round_level(sp, fn, &fn);
	}
	double tv[EDGE_MAX], tu[EDGE_MAX];
	edge_positions(sp, m, fm, tv); /* along u = 0 and u = 1: v */
	edge_positions(sp, n, fn, tu); /* along v = 0 and v = 1: u */

	/* the inner grid: vertices (tu[i], tv[j]), 1 <= i < n, 1 <= j < m */
	uint32_t grid[EDGE_MAX][EDGE_MAX];
	for (uint32_t j = 1; j < m; j++)
		for (uint32_t i = 1; i < n; i++)
			grid[i][j] = add_vertex(b, tu[i], tv[j], 0);
	for (uint32_t j = 1; j + 1 < m; j++)
		for (uint32_t i = 1; i + 1 < n; i++) {
			add_prim(b, grid[i][j], grid[i + 1][j], grid[i + 1][j + 1]);
			add_prim(b, grid[i][j], grid[i + 1][j + 1], grid[i][j + 1]);
		}

	/* the border, side by side counter-clockwise from (0, 0): v = 0
	 * (second outer level), u = 1 (third), v = 1 (fourth), u = 0 (first) */
	static const double qc[4][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
	static const uint32_t level[4] = {1, 2, 3, 0};
	uint32_t cidx[4];
	for (int s = 0; s < 4; s++)
		cidx[s] = add_vertex(b, qc[s][0], qc[s][1], 0);
	struct side o[4], in[4];
	for (int s = 0; s < 4; s++) {
		double t[EDGE_MAX];
		uint32_t lvl = level[s];
		o[s].n = no[lvl];
		edge_positions(sp, no[lvl], fo[lvl], t);
		for (uint32_t k = 0; k <= o[s].n; k++) {
			double q[3];
			lerp3(qc[s], qc[(s + 1) % 4], t[k], q);
			o[s].proj[k] = t[k];
			o[s].idx[k] = k == 0 ? cidx[s] : k == o[s].n ? cidx[(s + 1) % 4] : add_vertex(b, q[0], q[1], 0);
		}
	}
	/* the inner rectangle's sides, in the same directions, projected
	 * onto the outer side's parameter */
	in[0].n = n - 2; /* v = tv[1], u rising */
	for (uint32_t k = 0; k <= n - 2; k++) {
		in[0].idx[k] = grid[1 + k][1];
		in[0].proj[k] = tu[1 + k];
	}
	in[1].n = m - 2; /* u = tu[n-1], v rising */
	for (uint32_t k = 0; k <= m - 2; k++) {
		in[1].idx[k] = grid[n - 1][1 + k];
		in[1].proj[k] = tv[1 + k];
	}
	in[2].n = n - 2; /* v = tv[m-1], u falling */
	for (uint32_t k = 0; k <= n - 2; k++) {
		in[2].idx[k] = grid[n - 1 - k][m - 1];
		in[2].proj[k] = 1.0 - tu[n - 1 - k];
	}
	in[3].n = m - 2; /* u = tu[1], v falling */
	for (uint32_t k = 0; k <= m - 2; k++) {
		in[3].idx[k] = grid[1][m - 1 - k];
		in[3].proj[k] = 1.0 - tv[m - 1 - k];
	}
	for (int s = 0; s < 4; s++)
		stitch(b, &o[s], &in[s]);
}

/* Isolines ----------------------------------------------------------------*/

static void isolines(struct build *b, enum rd_tess_spacing sp, const float outer[4])
{
	float f0, f1;
	/* "the tessellation spacing mode is ignored and treated as equal_spacing" */
	uint32_t lines = round_level(RD_SPACING_EQUAL, outer[0], &f0);
	uint32_t segs = round_level(sp, outer[1], &f1);
	double t[EDGE_MAX];
	edge_positions(sp, segs, f1, t);
	for (uint32_t l = 0; l < lines; l++) {
		uint32_t first = b->m->nverts;
		for (uint32_t k = 0; k <= segs; k++)
			add_vertex(b, t[k], (double)l / lines, 0);
		for (uint32_t k = 0; k < segs; k++)
			add_prim(b, first + k, first + k + 1, 0);
	}
}

/* The patch ---------------------------------------------------------------*/

static bool discarded(enum rd_tess_domain d, const float outer[4])
{
	uint32_t relevant = d == RD_TESS_QUADS ? 4 : d == RD_TESS_TRIANGLES ? 3 : 2;
	for (uint32_t i = 0; i < relevant; i++)
		if (!(outer[i] > 0.0f))
			return true;
	return false;
}

/* "Tessellator Vertex Winding Order" */
static void orient(struct rd_tess_mesh *m, const struct rd_tess_params *p)
{
	bool want_ccw = p->order != RD_ORDER_CW;
	for (uint32_t i = 0; i < m->nprims; i++) {
		uint32_t *t = m->prims[i];
		const float *a = m->coord[t[0]], *c = m->coord[t[1]], *d = m->coord[t[2]];
		double area = (double)a[0] * c[1] - (double)c[0] * a[1] + (double)c[0] * d[1] -
			      (double)d[0] * c[1] + (double)d[0] * a[1] - (double)a[0] * d[1];
		bool ccw = p->lower_left ? area > 0 : area < 0;
		if (area != 0 && ccw != want_ccw) {
			uint32_t x = t[1];
			t[1] = t[2];
			t[2] = x;
		}
	}
}

int rd_tessellate(const struct rd_tess_params *p, const float outer[4], const float inner[2],
		  struct rd_tess_mesh *m)
{
	m->nverts = m->nprims = 0;
	m->prim_verts = p->point_mode ? 1 : p->domain == RD_TESS_ISOLINES ? 2 : 3;
	if (p->domain == RD_TESS_NONE || discarded(p->domain, outer))
		return 0;
	enum rd_tess_spacing sp = p->spacing == RD_SPACING_NONE ? RD_SPACING_EQUAL : p->spacing;
	struct build b = {m, false};
	switch (p->domain) {
	case RD_TESS_TRIANGLES: triangles(&b, sp, outer, inner); break;
	case RD_TESS_QUADS: quads(&b, sp, outer, inner); break;
	default: isolines(&b, sp, outer); break;
	}
	if (b.oom)
		return -1;
	if (m->prim_verts == 3)
		orient(m, p);
	if (p->point_mode) {
		m->nprims = 0;
		for (uint32_t i = 0; i < m->nverts; i++)
			add_prim(&b, i, 0, 0);
		if (b.oom)
			return -1;
	}
	return 0;
}

void rd_tess_mesh_free(struct rd_tess_mesh *m)
{
	free(m->coord);
	free(m->prims);
	memset(m, 0, sizeof(*m));
}
