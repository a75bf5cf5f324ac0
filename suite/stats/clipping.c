/* vkqs.stats.clipping.*: clipping invocations and primitives for a rectangle inside
 * the view volume and one with vertices outside it. */
#include "stats.h"

/* Rect A inside; a rect crossing the left edge (x -16 .. 24; each of its
 * triangles has a vertex inside, so clipping outputs one or more primitives
 * each, and the visible 24 x 16 part makes its fragments); one wholly
 * outside (clipping outputs zero or more, no fragment); one whose vertices
 * are all outside but which covers the whole framebuffer (clipping outputs
 * "zero or more", yet all 64 x 64 fragments exist: a driver that drops
 * primitives whose vertices are all outside draws nothing). */
enum clip_kind { CLIP_INSIDE, CLIP_PARTIAL, CLIP_OUTSIDE, CLIP_COVERING };

static const enum clip_kind clip_params[] = {CLIP_INSIDE, CLIP_PARTIAL, CLIP_OUTSIDE,
					     CLIP_COVERING};

static const char *const clip_names[] = {"inside", "partially_outside", "wholly_outside",
					 "vertices_outside_covering_framebuffer"};

static void clip_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", clip_names[*(const enum clip_kind *)param]);
}

static void clipping(struct vkqs_ctx *ctx, const void *param)
{
	enum clip_kind k = *(const enum clip_kind *)param;
	static const struct rect partial = {-16, 8, 40, 16}, visible = {0, 8, 24, 16};
	/* Diagonal from (96, -40) to (-32, 100): 35x + 32y = 2080 holds at no
	 * pixel centre, so a clipped diagonal's rounding moves no sample. */
	static const struct rect covering = {-32, -40, 128, 140}, whole = {0, 0, FB, FB};
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE_GRAPHICS, 1);
	const struct vkqs_pipeline *pipe = stats_rect_pipeline(ctx, g.t);
	struct rect r = k == CLIP_INSIDE    ? RA
			: k == CLIP_PARTIAL ? partial
			: k == CLIP_OUTSIDE ? R_OUT
					    : covering;

	stats_query_one_draw(ctx, &g, pipe, r);

	struct expect e = stats_expect_zero(clip_names[k]);
	switch (k) {
	case CLIP_INSIDE:
		stats_add_rect_draw(ctx, &e, RA, 1);
		break;
	case CLIP_PARTIAL:
		stats_use_pipeline(&e, STAGES_VS_FS);
		stats_add_natural(&e, IA_V, 6);
		stats_add_natural(&e, IA_P, 2);
		stats_add_natural(&e, VS, 6);
		stats_add_natural(&e, CLIP_INV, 2);
		stats_add_lower(&e, CLIP_PRIM, 2);
		stats_add_fs(ctx, &e, visible, 1, 1);
		break;
	case CLIP_OUTSIDE:
		stats_add_outside_draw(&e);
		break;
	case CLIP_COVERING:
		stats_add_outside_draw(&e);
		/* The rectangle's edges lie outside the framebuffer: every
		 * sample of every pixel is inside, wherever it lies. */
		stats_add(&e, FS, stats_area(whole), 2 * stats_area(whole), UNBOUNDED);
		break;
	}
	stats_check_query(ctx, g.pool, 0, g.mask, &e);
}

static const struct vkqs_case cases[] = {
	{.name = "clipping.rect",
	 .fn = clipping,
	 .spec = "18.4: clipping invocations count each primitive reaching the clipping "
		 "stage; clipping primitives: one or more if at least one vertex lies inside "
		 "the clipping volume, otherwise zero or more; " FS_SPEC,
	 .params = VKQS_PARAMS(clip_params, clip_name)},
};

VKQS_GROUP(stats, clipping, cases);
