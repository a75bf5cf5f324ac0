/* Unit tests of transform feedback (spec "Transform Feedback"; queries
 * 18.7, 18.8): what the SPIR-V declaration pass exposes of XfbBuffer,
 * XfbStride and Offset, and what a draw captures and counts, end to end
 * through the interpreter with the suite's xfb shaders and with a
 * stand-in vertex shader. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rd_draw_fixture.h"
#include "shaders/xfb_count_vert.h"
#include "shaders/xfb_layout_vert.h"
#include "shaders/xfb_plain_vert.h"

#define SENTINEL 0xa5u

struct program {
	struct rd_shader *s;
	struct rd_entry_info info;
};

static bool load(struct program *p, const uint32_t *words, size_t size)
{
	char err[256];
	p->s = rd_shader_create(words, size, err, sizeof(err));
	CHECK(p->s != NULL, "rd_shader_create: %s", err);
	if (!p->s)
		return false;
	bool ok = rd_shader_entry(p->s, "main", RD_STAGE_VERTEX, &p->info, err, sizeof(err));
	CHECK(ok, "rd_shader_entry: %s", err);
	return ok;
}

static const struct rd_xfb_output *find_output(const struct rd_entry_info *in, uint32_t source)
{
	for (uint32_t i = 0; i < in->xfb_output_count; i++)
		if (in->xfb_outputs[i].source == source)
			return &in->xfb_outputs[i];
	return NULL;
}

/* xfb_layout.vert: gl_Position at 0 and a vec3 at 20 of buffer 0 (stride
 * 32), an int at 4 of buffer 1 (stride 12); xfb_plain.vert has no Xfb. */
static void test_declarations(void)
{
	struct program layout = {0}, plain = {0};
	if (!load(&layout, xfb_layout_vert, sizeof(xfb_layout_vert)) ||
	    !load(&plain, xfb_plain_vert, sizeof(xfb_plain_vert)))
		goto out;
	const struct rd_entry_info *in = &layout.info;
	CHECK(in->xfb, "xfb_layout.vert: Xfb execution mode");
	CHECK_EQ(in->xfb_stride[0], 32, "XfbStride of buffer 0");
	CHECK_EQ(in->xfb_stride[1], 12, "XfbStride of buffer 1");
	CHECK_EQ(in->xfb_stride[2], 0, "XfbStride of unused buffer 2");
	CHECK_EQ(in->xfb_output_count, 3, "captured outputs");
	const struct rd_xfb_output *pos = find_output(in, RD_XFB_POSITION);
	const struct rd_xfb_output *ids = find_output(in, 0);
	const struct rd_xfb_output *code = find_output(in, 1);
	CHECK(pos && pos->buffer == 0 && pos->offset == 0 && pos->words == 4,
	      "gl_Position: buffer 0, Offset 0, 4 words");
	CHECK(ids && ids->buffer == 0 && ids->offset == 20 && ids->words == 3,
	      "location 0: buffer 0, Offset 20, 3 words");
	CHECK(code && code->buffer == 1 && code->offset == 4 && code->words == 1,
	      "location 1: buffer 1, Offset 4, 1 word");
	CHECK(!plain.info.xfb && plain.info.xfb_output_count == 0, "xfb_plain.vert: nothing captured");
out:
	rd_shader_destroy(layout.s);
	rd_shader_destroy(plain.s);
}

static const struct rd_buffer_range *no_buffer(void *user, uint32_t set, uint32_t binding,
					       uint32_t element)
{
	return NULL;
}

/* xfb_count.vert's push constants. */
struct push {
	float grid[4];
	float z, tag;
	uint8_t rest[232];
};

/* A 5-vertex strip (3 triangles) through xfb_count.vert into a binding
 * with room for 2 (100 bytes at stride 16): 2 written in the spec's strip
 * order, the third needed but not written, nothing after 96 bytes, the
 * position stopping at 96 and staying full for the next draw. */
static void test_capture_end_to_end(void)
{
	struct program vs = {0};
	if (!load(&vs, xfb_count_vert, sizeof(xfb_count_vert)))
		return;
	struct target t;
	target_init(&t, 1, VK_FORMAT_UNDEFINED);
	struct push pc = {{-0.75f, -0.75f, 0.125f, 0.5f}, 0.5f, 7.0f, {0}};
	struct rd_exec_env env = {(const uint8_t *)&pc, no_buffer, NULL};
	uint8_t buf[256];
	memset(buf, SENTINEL, sizeof(buf));
	struct rd_xfb x = {{buf}, {100}, {0}, {false}};
	t.st.vs = vs.s;
	t.st.vs_info = vs.info;
	t.st.env = &env;
	t.st.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
	t.st.xfb = &x;
	struct rd_draw_params dp = {.count = 5, .instance_count = 1};
	memset(&t.c, 0, sizeof(t.c));
	CHECK(rd_draw(&t.st, &dp, &t.c, t.err, sizeof(t.err)) == 0, "rd_draw: %s", t.err);
	CHECK_EQ(t.c.xfb_primitives_written[0], 2, "strip: primitives written");
	CHECK_EQ(t.c.xfb_primitives_needed[0], 3, "strip: primitives needed");
	CHECK_EQ(t.c.primitives_generated[0], 3, "strip: primitives generated");
	CHECK_EQ(x.pos[0], 96, "strip: next write position");
	CHECK(x.full[0], "strip: binding full");
	/* triangle strip i: (i, i + 1 + i % 2, i + 2 - i % 2) */
	static const float want[6] = {0, 1, 2, 1, 3, 2};
	for (int v = 0; v < 6; v++) {
		float rec[4];
		memcpy(rec, buf + 16 * v, 16);
		CHECK(rec[0] == want[v] && rec[1] == 0.0f && rec[2] == 7.0f && rec[3] == 1.0f,
		      "record %d: (%g, %g, %g, %g), expected (%g, 0, 7, 1)", v, rec[0], rec[1],
		      rec[2], rec[3], want[v]);
	}
	bool untouched = true;
	for (size_t i = 96; i < sizeof(buf); i++)
		untouched &= buf[i] == SENTINEL;
	CHECK(untouched, "nothing written after the second triangle");

	/* A point would fit, but "the number of primitives written ... is no
	 * longer incremented" once a primitive did not fit. */
	t.st.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
	memset(&t.c, 0, sizeof(t.c));
	dp.count = 1;
	CHECK(rd_draw(&t.st, &dp, &t.c, t.err, sizeof(t.err)) == 0, "rd_draw: %s", t.err);
	CHECK_EQ(t.c.xfb_primitives_written[0], 0, "after overflow: primitives written");
	CHECK_EQ(t.c.xfb_primitives_needed[0], 1, "after overflow: primitives needed");
	CHECK_EQ(buf[96], SENTINEL, "after overflow: nothing written");

	/* Without transform feedback active only primitives generated counts. */
	t.st.xfb = NULL;
	memset(&t.c, 0, sizeof(t.c));
	CHECK(rd_draw(&t.st, &dp, &t.c, t.err, sizeof(t.err)) == 0, "rd_draw: %s", t.err);
	CHECK_EQ(t.c.xfb_primitives_needed[0], 0, "inactive: primitives needed");
	CHECK_EQ(t.c.primitives_generated[0], 1, "inactive: primitives generated");
	target_free(&t);
	rd_shader_destroy(vs.s);
}

/* Stand-in vertex shader: Position from VertexIndex, location 2 =
 * (VertexIndex + 100, -1, -2, -3), PointSize 4. */
static int vs_fn(void *user, struct rd_invocation *inv, char *err, size_t errsize)
{
	float p[4] = {(float)inv->vertex_index / 16.0f, 0.25f, 0.5f, 1.0f};
	memcpy(inv->position, p, 16);
	inv->point_size = 4.0f;
	float o[4] = {(float)inv->vertex_index + 100.0f, -1.0f, -2.0f, -3.0f};
	memcpy(inv->out[2], o, 16);
	return 0;
}

/* Two buffers with their own strides, rasterizer discard, a fan with an
 * unbound second buffer ("ignored"), and a vertex's unused bytes kept. */
static void test_capture_stand_in(void)
{
	struct target t;
	target_init(&t, 1, VK_FORMAT_UNDEFINED);
	struct rd_entry_info *in = &t.st.vs_info;
	in->stage = RD_STAGE_VERTEX;
	in->output_mask = 1u << 2;
	in->writes_point_size = true;
	in->xfb = true;
	in->xfb_stride[0] = 24;
	in->xfb_stride[1] = 4;                                                    /* unbound */
	in->xfb_stride[3] = 8;
	in->xfb_output_count = 4;
	in->xfb_outputs[0] = (struct rd_xfb_output){0, 2, 2, 4};                  /* loc 2 .xy at 4 */
	in->xfb_outputs[1] = (struct rd_xfb_output){0, 1, RD_XFB_POINT_SIZE, 16}; /* at 16 */
	in->xfb_outputs[2] = (struct rd_xfb_output){3, 1, RD_XFB_POSITION, 4};    /* .x at 4 */
	in->xfb_outputs[3] = (struct rd_xfb_output){1, 1, 2, 0};
	t.st.rasterizer_discard = true;
	t.st.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN;
	uint8_t b0[256], b3[64];
	memset(b0, SENTINEL, sizeof(b0));
	memset(b3, SENTINEL, sizeof(b3));
	struct rd_xfb x = {{b0, NULL, NULL, b3}, {sizeof(b0), 0, 0, sizeof(b3)}, {0}, {false}};
	t.st.xfb = &x;
	struct rd_draw_params dp = {.count = 4, .instance_count = 1};
	CHECK(rd_draw_run(&t.st, &dp, vs_fn, NULL, NULL, NULL, &t.c, t.err, sizeof(t.err)) == 0,
	      "%s", t.err);
	CHECK_EQ(t.c.xfb_primitives_written[0], 2, "fan: primitives written");
	CHECK_EQ(t.c.xfb_primitives_needed[0], 2, "fan: primitives needed");
	CHECK_EQ(x.pos[0], 6 * 24, "fan: buffer 0 position");
	CHECK_EQ(x.pos[3], 6 * 8, "fan: buffer 3 position");
	/* triangle fan i: (i + 1, i + 2, 0) */
	static const uint32_t order[6] = {1, 2, 0, 2, 3, 0};
	for (int v = 0; v < 6; v++) {
		float got[2], ps, px;
		memcpy(got, b0 + 24 * v + 4, 8);
		memcpy(&ps, b0 + 24 * v + 16, 4);
		memcpy(&px, b3 + 8 * v + 4, 4);
		CHECK(got[0] == (float)order[v] + 100.0f && got[1] == -1.0f && ps == 4.0f &&
			      px == (float)order[v] / 16.0f,
		      "vertex %d: (%g, %g) size %g x %g, expected vertex %u", v, got[0], got[1], ps,
		      px, order[v]);
		CHECK(b0[24 * v] == SENTINEL && b0[24 * v + 12] == SENTINEL &&
			      b0[24 * v + 20] == SENTINEL && b3[8 * v] == SENTINEL,
		      "vertex %d: bytes of no output kept", v);
	}
	CHECK_EQ(t.c.clipping_invocations, 0, "discard: nothing clipped");
	target_free(&t);
}

int main(void)
{
	test_declarations();
	test_capture_end_to_end();
	test_capture_stand_in();
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
