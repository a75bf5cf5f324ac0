/* The tests' shared fixture: pass/fail counting, and a 64x64 target of
 * RGBA8 colour plus a depth/stencil format, 1 or 4 samples, 3 layers, with
 * a graphics state that draws into it. */
#ifndef RD_DRAW_FIXTURE_H
#define RD_DRAW_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rd_raster.h"

static int passed, failed;

#define CHECK(cond, ...)                                                  \
	do {                                                              \
		if (cond) {                                               \
			passed++;                                         \
		} else {                                                  \
			failed++;                                         \
			printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			printf(__VA_ARGS__);                              \
			printf("\n");                                     \
		}                                                         \
	} while (0)
#define CHECK_EQ(a, b, what)                                                              \
	do {                                                                              \
		unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b); \
		CHECK(a_ == b_, "%s: got %llu, expected %llu", what, a_, b_);            \
	} while (0)

/* Fixture: a 64x64 target of RGBA8 colour and a depth/stencil format,
 * 1 or 4 samples, 3 layers. ------------------------------------------------*/

#define FB 64
#define LAYERS 3

struct target {
	uint32_t samples;
	uint8_t *color, *ds;
	struct rd_graphics_state st;
	struct rd_draw_counters c;
	struct rd_raster r;
	char err[256];
};

static inline void target_init(struct target *t, uint32_t samples, VkFormat ds_format)
{
	memset(t, 0, sizeof(*t));
	t->samples = samples;
	t->color = calloc((size_t)FB * FB * samples * LAYERS, 4);
	t->ds = calloc((size_t)FB * FB * samples * LAYERS, 8);
	struct rd_graphics_state *st = &t->st;
	st->topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
	st->viewport = (VkViewport){0, 0, FB, FB, 0.0f, 1.0f};
	st->scissor = (VkRect2D){{0, 0}, {FB, FB}};
	st->render_area = st->scissor;
	st->polygon_mode = VK_POLYGON_MODE_FILL;
	st->cull_mode = VK_CULL_MODE_NONE;
	st->front_face = VK_FRONT_FACE_COUNTER_CLOCKWISE;
	st->line_width = 1.0f;
	st->samples = (VkSampleCountFlagBits)samples;
	st->sample_mask = ~0u;
	st->color_count = 1;
	st->color[0] = (struct rd_attachment){t->color, rd_format(VK_FORMAT_R8G8B8A8_UNORM), FB, FB,
					      samples, LAYERS, 0};
	st->color_write_mask[0] = 0xf;
	if (ds_format != VK_FORMAT_UNDEFINED)
		st->depth_stencil = (struct rd_attachment){t->ds, rd_format(ds_format), FB, FB, samples,
							   LAYERS, 0};
	VkStencilOpState so = {VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP,
			       VK_COMPARE_OP_ALWAYS, 0xff, 0xff, 0};
	st->front = st->back = so;
	st->fs_info.stage = RD_STAGE_FRAGMENT;
	st->fs_info.output_mask = 1;
}

static inline void target_free(struct target *t)
{
	free(t->color);
	free(t->ds);
}

static inline uint8_t *texel_at(struct target *t, const struct rd_attachment *a, uint32_t layer,
			 uint32_t x, uint32_t y, uint32_t s)
{
	size_t i = (((size_t)layer * FB + y) * FB + x) * t->samples + s;
	return (a == &t->st.color[0] ? t->color : t->ds) + i * a->fmt->texel_size;
}

static inline uint8_t stencil_at(struct target *t, uint32_t x, uint32_t y, uint32_t s)
{
	const struct rd_attachment *a = &t->st.depth_stencil;
	return rd_format_load_stencil(a->fmt, texel_at(t, a, 0, x, y, s));
}

static inline void clear_ds(struct target *t, float depth, uint8_t stencil)
{
	const struct rd_attachment *a = &t->st.depth_stencil;
	for (uint32_t l = 0; l < LAYERS; l++)
		for (uint32_t y = 0; y < FB; y++)
			for (uint32_t x = 0; x < FB; x++)
				for (uint32_t s = 0; s < t->samples; s++) {
					uint8_t *p = texel_at(t, a, l, x, y, s);
					rd_format_store_depth(a->fmt, p, depth);
					rd_format_store_stencil(a->fmt, p, stencil);
				}
}

/* Pixels of `layer` with a sample written (alpha non-zero). */
static inline uint32_t pixels_written(struct target *t, uint32_t layer)
{
	uint32_t n = 0;
	for (uint32_t y = 0; y < FB; y++)
		for (uint32_t x = 0; x < FB; x++)
			for (uint32_t s = 0; s < t->samples; s++)
				if (texel_at(t, &t->st.color[0], layer, x, y, s)[3] != 0) {
					n++;
					break;
				}
	return n;
}

#endif
