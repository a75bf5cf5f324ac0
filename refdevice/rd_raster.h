/* Private to the reference device's graphics work: the rasterizer and the
 * per-fragment pipeline (rd_raster.c), and the draw with its shader stages
 * as callbacks (rd_draw.c), so both can be tested with C functions standing
 * in for shaders.
 *
 * The chain of stages (STYLE 15, after softpipe's quad pipeline):
 *   rd_draw.c:   vertex fetch -> vertex shader -> primitive assembly ->
 *                clipping -> perspective divide + viewport transform
 *   rd_raster.c: facing + culling -> polygon mode -> coverage (edge
 *                functions at the sample locations, scissor per pixel,
 *                sample mask) -> the fragment chain, built once per draw
 *                in the spec's order:
 *       late tests:  shade -> depth bounds -> stencil -> depth -> count -> colour
 *       early tests: depth bounds -> stencil -> depth -> count -> shade -> colour
 *   where "shade" includes the multisample coverage step (discard and the
 *   SampleMask output). */
#ifndef RD_RASTER_H
#define RD_RASTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rd_draw.h"

#define RD_SUBPIXEL (1 << RD_SUBPIXEL_BITS)
#define RD_RASTER_MAX_SAMPLES 4
#define RD_RASTER_MAX_POLYGON 12 /* a triangle clipped by 6 planes has at most 9 vertices */
#define RD_RASTER_MAX_STAGES 8

/* A shader stage as the pipeline calls it: rd_shader_run behind rd_draw(),
 * or a C stand-in in the tests.  Returns 0, or -1 with one line in err. */
typedef int (*rd_stage_fn)(void *user, struct rd_invocation *inv, char *err, size_t errsize);

/* A vertex after the viewport transform. */
struct rd_raster_vertex {
	double x, y;                 /* framebuffer coordinates xf, yf (pixels) */
	double z;                    /* zf */
	double inv_w;                /* 1 / wc, for perspective-correct interpolation */
	float point_size;            /* PointSize, or 1.0 when the vertex shader does not write it */
	bool edge;                   /* polygon mode LINE: the edge to the next vertex is an edge
	                                of the original primitive (not made by clipping) */
	bool orig;                   /* polygon mode POINT: a vertex of the original primitive */
	const uint32_t (*var)[4];    /* RD_MAX_LOCATIONS varyings (raw words, floats as bits) */
};

struct rd_raster;
struct rd_fragment;
typedef bool (*rd_fragment_stage)(struct rd_raster *r, struct rd_fragment *f);

/* One view of one draw.  Filled by rd_raster_begin(); the fields are
 * private to rd_raster.c. */
struct rd_raster {
	const struct rd_graphics_state *st;
	struct rd_draw_counters *c;
	rd_stage_fn fs;              /* NULL: no fragment shader */
	void *fs_user;
	char *err;
	size_t errsize;
	bool failed;

	uint32_t view;               /* ViewIndex, samples_passed[] index */
	uint32_t layer;              /* added to each attachment's base_layer */
	uint32_t samples, sample_mask;
	int32_t sample_xy[RD_RASTER_MAX_SAMPLES][2]; /* sample offsets in subpixels */
	int64_t x0, y0, x1, y1;      /* pixels [x0, x1) x [y0, y1): scissor, render area, attachments */
	uint32_t in_mask, flat_mask, noperspective_mask;
	bool per_sample;             /* one fragment shader invocation per covered sample */
	bool need_z;                 /* some stage reads the per-sample depth */
	float zmin, zmax;            /* the viewport's depth range, ordered */
	uint32_t nstages;
	rd_fragment_stage stages[RD_RASTER_MAX_STAGES];
	/* The fragment shader's invocation, zeroed once: each run sets the
	 * inputs and resets the outputs it reads back (zeroing the whole
	 * struct per fragment cost more than the rest of the fragment). */
	struct rd_invocation inv;
};

/* Prepares view `view` of a draw (layer base_layer + view when
 * st->view_mask is non-zero, else base_layer) with `fs` as the fragment
 * stage (its rd_entry_info is st->fs_info).  Returns 0, or -1 with one line
 * in err when the state cannot be rasterized (sample count, layers). */
int rd_raster_begin(struct rd_raster *r, const struct rd_graphics_state *st, uint32_t view,
		    rd_stage_fn fs, void *fs_user, struct rd_draw_counters *c, char *err,
		    size_t errsize);

/* Rasterize one primitive through the fragment chain.  `flat` holds the
 * provoking vertex's varyings (flat-shaded inputs).  Each returns 0, or -1
 * when the fragment shader failed (the message is in r->err). */
int rd_raster_point(struct rd_raster *r, const struct rd_raster_vertex *v);
int rd_raster_line(struct rd_raster *r, const struct rd_raster_vertex *a,
		   const struct rd_raster_vertex *b, const uint32_t (*flat)[4]);
/* A convex polygon of n vertices (a triangle, or one clipped from it). */
int rd_raster_polygon(struct rd_raster *r, const struct rd_raster_vertex *v, uint32_t n,
		      const uint32_t (*flat)[4]);

/* Whether rd_raster_polygon would draw nothing of the polygon as a whole:
 * no area, or its face culled (spec "Basic Polygon Rasterization"). */
bool rd_raster_polygon_culled(const struct rd_graphics_state *st, const struct rd_raster_vertex *v,
			      uint32_t n);

/* rd_draw() with its vertex and fragment stages as callbacks (fs NULL: no
 * fragment shader); the entry infos are st->vs_info and st->fs_info. */
int rd_draw_run(const struct rd_graphics_state *st, const struct rd_draw_params *dp,
		rd_stage_fn vs, void *vs_user, rd_stage_fn fs, void *fs_user,
		struct rd_draw_counters *c, char *err, size_t errsize);

#endif
