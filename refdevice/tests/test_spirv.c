/* Unit tests of the SPIR-V interpreter (rd_spirv.h): the suite's own
 * shaders, test shaders in tests/shaders/spv_*, and modules it must refuse.
 * Prints "N passed, N failed"; exits non-zero on a failure. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rd_spirv.h"

#include "shaders/color_frag.h"
#include "shaders/discard_odd_columns_frag.h"
#include "shaders/rect_vert.h"

#include "rdtest_shaders/spv_address_refs_comp.h"
#include "rdtest_shaders/spv_barrier_comp.h"
#include "rdtest_shaders/spv_barrier_divergent_comp.h"
#include "rdtest_shaders/spv_mesh_mesh.h"
#include "rdtest_shaders/spv_mesh_task.h"
#include "rdtest_shaders/spv_bits_comp.h"
#include "rdtest_shaders/spv_compute_comp.h"
#include "rdtest_shaders/spv_control_comp.h"
#include "rdtest_shaders/spv_desc_array_comp.h"
#include "rdtest_shaders/spv_early_frag.h"
#include "rdtest_shaders/spv_glsl_comp.h"
#include "rdtest_shaders/spv_loop_comp.h"
#include "rdtest_shaders/spv_matrix_comp.h"
#include "rdtest_shaders/spv_oob_comp.h"
#include "rdtest_shaders/spv_ops_comp.h"
#include "rdtest_shaders/spv_sampler_frag.h"
#include "rdtest_shaders/spv_subpass_frag.h"
#include "rdtest_shaders/spv_shared_comp.h"
#include "rdtest_shaders/spv_ubo_comp.h"
#include "rdtest_shaders/spv_varyings_frag.h"
#include "rdtest_shaders/spv_varyings_vert.h"

#include "spv_opt_shaders.h"

static int passed, failed;

#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		if (cond) {                                                    \
			passed++;                                              \
		} else {                                                       \
			failed++;                                              \
			printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			printf(__VA_ARGS__);                                   \
			printf("\n");                                          \
		}                                                              \
	} while (0)

#define CHECK_U(actual, expected)                                                              \
	CHECK((uint32_t)(actual) == (uint32_t)(expected), "got %u (0x%08x, %d), expected %u (0x%08x, %d)", \
	      (uint32_t)(actual), (uint32_t)(actual), (int32_t)(actual), (uint32_t)(expected),         \
	      (uint32_t)(expected), (int32_t)(expected))

#define CHECK_F(actual, expected, tol)                                                       \
	CHECK(fabsf((float)(actual) - (float)(expected)) <= (tol), "got %.9g, expected %.9g", \
	      (double)(actual), (double)(expected))

/* ------------------------------------------------------------------------ */
/* Fixtures                                                                 */

static struct rd_shader *create(const uint32_t *words, size_t size)
{
	char err[256];
	struct rd_shader *s = rd_shader_create(words, size, err, sizeof(err));
	CHECK(s != NULL, "rd_shader_create: %s", err);
	return s;
}

static bool entry(const struct rd_shader *s, enum rd_stage stage, struct rd_entry_info *info)
{
	char err[256];
	bool ok = s && rd_shader_entry(s, "main", stage, info, err, sizeof(err));
	CHECK(ok, "rd_shader_entry: %s", s ? err : "no shader");
	return ok;
}

/* Descriptors: buffers[set][binding][array element]. */
struct env {
	struct rd_exec_env env;
	struct rd_buffer_range buffers[2][4][4];
	uint8_t push[256];
};

static const struct rd_buffer_range *env_buffer(void *user, uint32_t set, uint32_t binding, uint32_t element)
{
	struct env *e = user;
	if (set >= 2 || binding >= 4 || element >= 4 || !e->buffers[set][binding][element].data)
		return NULL;
	return &e->buffers[set][binding][element];
}

static void env_init(struct env *e)
{
	memset(e, 0, sizeof(*e));
	e->env.push_constants = e->push;
	e->env.buffer = env_buffer;
	e->env.user = e;
}

static void env_bind_element(struct env *e, uint32_t set, uint32_t binding, uint32_t element, void *data,
			     uint64_t size)
{
	e->buffers[set][binding][element].data = data;
	e->buffers[set][binding][element].size = size;
}

static void env_bind(struct env *e, uint32_t set, uint32_t binding, void *data, uint64_t size)
{
	env_bind_element(e, set, binding, 0, data, size);
}

static int run(const struct rd_shader *s, const struct rd_entry_info *info, struct env *e,
	       struct rd_invocation *inv, char *err, size_t errsize)
{
	return rd_shader_run(s, info, &e->env, inv, err, errsize);
}

/* Runs a compute entry over one workgroup of a 1x1x1 dispatch. */
static int run_one(const struct rd_shader *s, const struct rd_entry_info *info, struct env *e)
{
	struct rd_invocation inv;
	char err[256];
	memset(&inv, 0, sizeof(inv));
	inv.num_workgroups[0] = inv.num_workgroups[1] = inv.num_workgroups[2] = 1;
	int r = run(s, info, e, &inv, err, sizeof(err));
	CHECK(r == 0, "rd_shader_run: %s", err);
	return r;
}

static float f32(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

static uint32_t u32(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* ------------------------------------------------------------------------ */
/* The suite's shaders                                                      */

struct rect_pc {
	float rect[4];
	float fb_size[2];
	float z;
	float pad;
};

static void test_rect_vert(void)
{
	struct rd_shader *s = create(rect_vert, sizeof(rect_vert));
	struct rd_entry_info info;
	if (!entry(s, RD_STAGE_VERTEX, &info))
		goto out;
	CHECK(info.push_constant_size == 32, "push_constant_size %u", info.push_constant_size);
	CHECK(info.writes_point_size, "writes_point_size");
	CHECK(info.input_mask == 0 && info.output_mask == 0, "masks %x %x", info.input_mask, info.output_mask);
	struct env e;
	env_init(&e);
	struct rect_pc pc = { { 8, 16, 40, 48 }, { 64, 64 }, 0.25f, 0 };
	memcpy(e.push, &pc, sizeof(pc));
	/* Two triangles, (0,1,2) and (3,4,5): u = 1 at 1,3,4 and v = 1 at 2,4,5. */
	static const int u[6] = { 0, 1, 0, 1, 1, 0 }, v[6] = { 0, 0, 1, 0, 1, 1 };
	for (uint32_t i = 0; i < 12; i++) {
		struct rd_invocation inv;
		char err[256];
		memset(&inv, 0, sizeof(inv));
		inv.vertex_index = i;
		inv.point_size = 0;
		int r = run(s, &info, &e, &inv, err, sizeof(err));
		CHECK(r == 0, "run: %s", err);
		float x = (u[i % 6] ? 40.0f : 8.0f) / 64.0f * 2.0f - 1.0f;
		float y = (v[i % 6] ? 48.0f : 16.0f) / 64.0f * 2.0f - 1.0f;
		CHECK(inv.position[0] == x && inv.position[1] == y && inv.position[2] == 0.25f &&
			      inv.position[3] == 1.0f,
		      "vertex %u: (%g %g %g %g), expected (%g %g 0.25 1)", i, inv.position[0], inv.position[1],
		      inv.position[2], inv.position[3], x, y);
		CHECK(inv.point_size == 1.0f, "point size %g", inv.point_size);
	}
	/* Without push constants the run must fail, not crash. */
	e.env.push_constants = NULL;
	struct rd_invocation inv;
	char err[256];
	memset(&inv, 0, sizeof(inv));
	CHECK(run(s, &info, &e, &inv, err, sizeof(err)) == -1 && strstr(err, "push constants"), "%s", err);
out:
	rd_shader_destroy(s);
}

static void test_color_frag(void)
{
	struct rd_shader *s = create(color_frag, sizeof(color_frag));
	struct rd_entry_info info;
	if (!entry(s, RD_STAGE_FRAGMENT, &info))
		goto out;
	CHECK(info.output_mask == 1 && info.input_mask == 0, "masks %x %x", info.output_mask, info.input_mask);
	CHECK(!info.may_discard && !info.writes_frag_depth && !info.writes_sample_mask && !info.early_fragment_tests,
	      "flags");
	struct env e;
	env_init(&e);
	struct rd_invocation inv;
	char err[256];
	memset(&inv, 0, sizeof(inv));
	inv.frag_coord[2] = 0.5f;
	CHECK(run(s, &info, &e, &inv, err, sizeof(err)) == 0, "%s", err);
	CHECK(f32(inv.out[0][0]) == 0.25f && f32(inv.out[0][1]) == 0.5f && f32(inv.out[0][2]) == 0.75f &&
		      f32(inv.out[0][3]) == 1.0f,
	      "color (%g %g %g %g)", f32(inv.out[0][0]), f32(inv.out[0][1]), f32(inv.out[0][2]), f32(inv.out[0][3]));
	CHECK(!inv.discarded && inv.sample_mask_out == ~0u && inv.frag_depth == 0.5f, "defaults");
out:
	rd_shader_destroy(s);
}

static void test_discard_odd_columns(void)
{
	struct rd_shader *s = create(discard_odd_columns_frag, sizeof(discard_odd_columns_frag));
	struct rd_entry_info info;
	if (!entry(s, RD_STAGE_FRAGMENT, &info))
		goto out;
	CHECK(info.may_discard, "may_discard");
	struct env e;
	env_init(&e);
	int wrong = 0;
	for (int y = 0; y < 4; y++)
		for (int x = 0; x < 16; x++) {
			struct rd_invocation inv;
			char err[256];
			memset(&inv, 0, sizeof(inv));
			inv.frag_coord[0] = x + 0.5f;
			inv.frag_coord[1] = y + 0.5f;
			inv.frag_coord[3] = 1.0f;
			if (run(s, &info, &e, &inv, err, sizeof(err)) != 0 || inv.discarded != (x & 1) ||
			    (!inv.discarded && f32(inv.out[0][0]) != 1.0f))
				wrong++;
		}
	CHECK(wrong == 0, "%d fragments wrong", wrong);
out:
	rd_shader_destroy(s);
}

/* A 64x64 rectangle: 6 vertices, 4096 fragments. */
static void test_speed(void)
{
	struct rd_shader *vs = create(rect_vert, sizeof(rect_vert));
	struct rd_shader *fs = create(color_frag, sizeof(color_frag));
	struct rd_entry_info vi, fi;
	if (!entry(vs, RD_STAGE_VERTEX, &vi) || !entry(fs, RD_STAGE_FRAGMENT, &fi))
		goto out;
	struct env e;
	env_init(&e);
	struct rect_pc pc = { { 0, 0, 64, 64 }, { 64, 64 }, 0.5f, 0 };
	memcpy(e.push, &pc, sizeof(pc));
	struct rd_invocation inv;
	char err[256];
	memset(&inv, 0, sizeof(inv));
	enum { REPS = 20 };
	double best_v = 1e30, best_f = 1e30;
	int bad = 0;
	for (int rep = 0; rep < REPS; rep++) {
		double t0 = now_ns();
		for (uint32_t i = 0; i < 6; i++) {
			inv.vertex_index = i;
			bad += run(vs, &vi, &e, &inv, err, sizeof(err)) != 0;
		}
		double t1 = now_ns();
		for (int y = 0; y < 64; y++)
			for (int x = 0; x < 64; x++) {
				inv.frag_coord[0] = x + 0.5f;
				inv.frag_coord[1] = y + 0.5f;
				bad += run(fs, &fi, &e, &inv, err, sizeof(err)) != 0;
			}
		double t2 = now_ns();
		if (t1 - t0 < best_v)
			best_v = t1 - t0;
		if (t2 - t1 < best_f)
			best_f = t2 - t1;
	}
	CHECK(bad == 0, "%d runs failed", bad);
	printf("speed: rect.vert %.0f ns/invocation, color.frag %.1f ns/invocation, "
	       "64x64 rectangle %.3f ms of shader time\n",
	       best_v / 6, best_f / 4096, (best_v + best_f) / 1e6);
out:
	rd_shader_destroy(vs);
	rd_shader_destroy(fs);
}

/* ------------------------------------------------------------------------ */
/* Compute                                                                  */

static void test_compute(void)
{
	struct rd_shader *s = create(spv_compute_comp, sizeof(spv_compute_comp));
	struct rd_entry_info info;
	if (!entry(s, RD_STAGE_COMPUTE, &info))
		goto out;
	CHECK(info.local_size[0] == 4 && info.local_size[1] == 2 && info.local_size[2] == 1, "local size %u %u %u",
	      info.local_size[0], info.local_size[1], info.local_size[2]);
	uint32_t buf[1 + 32];
	memset(buf, 0, sizeof(buf));
	struct env e;
	env_init(&e);
	env_bind(&e, 0, 0, buf, sizeof(buf));
	int bad = 0;
	/* A 2x2x1 dispatch of 4x2x1 workgroups: 8 x 4 invocations. */
	for (uint32_t wy = 0; wy < 2; wy++)
		for (uint32_t wx = 0; wx < 2; wx++)
			for (uint32_t ly = 0; ly < 2; ly++)
				for (uint32_t lx = 0; lx < 4; lx++) {
					struct rd_invocation inv;
					char err[256];
					memset(&inv, 0, sizeof(inv));
					inv.workgroup_id[0] = wx, inv.workgroup_id[1] = wy;
					inv.local_id[0] = lx, inv.local_id[1] = ly;
					inv.global_id[0] = wx * 4 + lx, inv.global_id[1] = wy * 2 + ly;
					inv.num_workgroups[0] = inv.num_workgroups[1] = 2, inv.num_workgroups[2] = 1;
					inv.local_index = ly * 4 + lx;
					bad += run(s, &info, &e, &inv, err, sizeof(err)) != 0;
				}
	CHECK(bad == 0, "%d runs failed", bad);
	CHECK_U(buf[0], 32);
	int wrong = 0;
	for (uint32_t gy = 0; gy < 4; gy++)
		for (uint32_t gx = 0; gx < 8; gx++) {
			uint32_t i = gy * 8 + gx, li = (gy % 2) * 4 + gx % 4;
			uint32_t want = i * 3 + (li << 8) + ((gx / 4) << 12) + ((gy / 2) << 16) + (32u << 20);
			wrong += buf[1 + i] != want;
		}
	CHECK(wrong == 0, "%d values wrong", wrong);
out:
	rd_shader_destroy(s);
}

static void check_control(const uint32_t *words, size_t size, const char *what)
{
	struct rd_shader *s = create(words, size);
	struct rd_entry_info info;
	if (!entry(s, RD_STAGE_COMPUTE, &info))
		goto out;
	int32_t buf[24] = { 10, -5, 2, 7, -7, 2, 27, 3 };
	struct env e;
	env_init(&e);
	env_bind(&e, 0, 0, buf, sizeof(buf));
	run_one(s, &info, &e);
	static const int32_t want[14] = { 55, 30, 20, 40, 6, 12, 0, 1, 111, 25, 12, 23, -3,
					  9 + 16 + 21 + 24 + 25 + 6 };
	for (int i = 0; i < 14; i++)
		CHECK(buf[8 + i] == want[i], "%s: out_v[%d] = %d, expected %d", what, i, buf[8 + i], want[i]);
out:
	rd_shader_destroy(s);
}

static void test_control(void)
{
	check_control(spv_control_comp, sizeof(spv_control_comp), "glslang");
	/* The same shader after spirv-opt -O: phis everywhere, inlined calls. */
	check_control(spv_control_opt, sizeof(spv_control_opt), "spirv-opt");
}

static void test_glsl(void)
{
	struct rd_shader *s = create(spv_glsl_comp, sizeof(spv_glsl_comp));
	struct rd_entry_info info;
	if (!entry(s, RD_STAGE_COMPUTE, &info))
		goto out;
	struct {
		float x[4];
		int32_t ix[4];
		float r[48];
		int32_t ir[16];
	} b = { { 1.75f, -2.5f, 0.5f, 3.0f }, { -7, 12, 0x00f0, -1 }, { 0 }, { 0 } };
	struct env e;
	env_init(&e);
	env_bind(&e, 0, 0, &b, sizeof(b));
	run_one(s, &info, &e);
	const float t = 2e-6f;
	CHECK_F(b.r[0], -3.0f, 0);
	CHECK_F(b.r[1], -2.0f, 0);
	CHECK_F(b.r[2], 1.0f, 0);
	CHECK_F(b.r[3], 2.5f, 0);
	CHECK_F(b.r[4], -1.0f, 0);
	CHECK_F(b.r[5], -3.0f, 0);
	CHECK_F(b.r[6], -2.0f, 0);
	CHECK_F(b.r[7], 0.75f, 0);
	CHECK_F(b.r[8], 3.0f, t);
	CHECK_F(b.r[9], 0.479425539f, t);
	CHECK_F(b.r[10], 0.877582562f, t);
	CHECK_F(b.r[11], 0.546302490f, t);
	CHECK_F(b.r[12], 0.523598776f, t);
	CHECK_F(b.r[13], 1.047197551f, t);
	CHECK_F(b.r[14], 0.463647609f, t);
	CHECK_F(b.r[15], 2.944197094f, t);
	CHECK_F(b.r[16], 6.838521170f, 1e-5f);
	CHECK_F(b.r[17], 1.648721271f, t);
	CHECK_F(b.r[18], 1.098612289f, t);
	CHECK_F(b.r[19], 8.0f, t);
	CHECK_F(b.r[20], 3.0f, t);
	CHECK_F(b.r[21], 3.0f, 0);
	CHECK_F(b.r[22], 0.377964473f, t);
	CHECK_F(b.r[23], -2.5f, 0);
	CHECK_F(b.r[24], 1.75f, 0);
	CHECK_F(b.r[25], 1.75f, 0);
	CHECK_F(b.r[26], -2.5f * 0.75f + 3.0f * 0.25f, 0);
	CHECK_F(b.r[27], 1.0f, 0);
	float st = 1.75f / 4.0f;
	CHECK_F(b.r[28], st * st * (3.0f - 2.0f * st), t);
	CHECK_F(b.r[29], fmaf(1.75f, -2.5f, 3.0f), 0);
	CHECK_F(b.r[30], 5.0f, 0);
	CHECK_F(b.r[31], 5.0f, 0);
	CHECK_F(b.r[32], 0.0f, 0);
	CHECK_F(b.r[33], 0.0f, 0);
	CHECK_F(b.r[34], 3.0f * 1.75f, 0);
	CHECK_F(b.r[35], 0.6f, t);
	CHECK_F(b.r[36], 0.8f, t);
	CHECK_F(b.r[37], 0.5f, 0);
	CHECK_F(b.r[38], 0.5f, 0);
	CHECK_F(b.r[39], -1.75f, 0);  /* dot(Nref, I) = 0.5 >= 0: -N */
	CHECK_F(b.r[40], 2.5f, 0);
	CHECK_F(b.r[41], 0.0f, t);
	CHECK_F(b.r[42], 1.75f, 0);
	CHECK_F(b.r[43], 1.75f * 0.5f + 3.0f * 0.5f, 0);
	CHECK_F(b.r[44], 3.0f, 0);
	CHECK_F(b.r[45], 0.5f, 0);  /* mod(-2.5, 3) = 0.5 */
	CHECK_F(b.r[46], -5.0f, 0);
	CHECK_F(b.r[47], -1.75f, 0);
	static const int32_t want[16] = { 7, -1, -7, 12, -3, 12, -1, 4, 7, 2, 31, 4, -1, -7, 0x000ff0f0,
					  0x0f000000 };
	for (int i = 0; i < 16; i++)
		CHECK(b.ir[i] == want[i], "ir[%d] = %d (0x%x), expected %d (0x%x)", i, b.ir[i], b.ir[i], want[i],
		      want[i]);
out:
	rd_shader_destroy(s);
}

static void put_f(uint8_t *m, uint32_t off, float v)
{
	memcpy(m + off, &v, 4);
}

static void test_ubo_std140(void)
{
	struct rd_shader *s = create(spv_ubo_comp, sizeof(spv_ubo_comp));
	struct rd_entry_info info;
	if (!entry(s, RD_STAGE_COMPUTE, &info))
		goto out;
	uint8_t ubo[192];
	memset(ubo, 0xee, sizeof(ubo));  /* padding that must never be read */
	put_f(ubo, 0, 1.5f);
	put_f(ubo, 16, 2.0f), put_f(ubo, 20, 3.0f), put_f(ubo, 24, 4.0f);
	int32_t one = 1;
	memcpy(ubo + 28, &one, 4);
	for (int c = 0; c < 3; c++)
		for (int r = 0; r < 3; r++)
			put_f(ubo, 32 + 16 * c + 4 * r, 10.0f * c + r);  /* m[c][r] */
	for (int i = 0; i < 3; i++)
		put_f(ubo, 80 + 16 * i, 100.0f + i);
	/* row-major mat2: rows at 128 and 144; element (col c, row r) at 128 + 16 r + 4 c */
	for (int c = 0; c < 2; c++)
		for (int r = 0; r < 2; r++)
			put_f(ubo, 128 + 16 * r + 4 * c, 200.0f + 10 * c + r);
	for (int i = 0; i < 2; i++) {
		put_f(ubo, 160 + 16 * i, 300.0f + i);      /* s[i].a.x */
		put_f(ubo, 164 + 16 * i, 310.0f + i);      /* s[i].a.y */
		put_f(ubo, 168 + 16 * i, 320.0f + i);      /* s[i].b */
	}
	float out[32] = { 0 };
	struct env e;
	env_init(&e);
	env_bind(&e, 0, 0, out, sizeof(out));
	env_bind(&e, 0, 1, ubo, sizeof(ubo));
	run_one(s, &info, &e);
	static const float want[21] = { 1.5f, 2, 3, 4, 1, 12, 10, 102, 101, 210, 201, 210, 211, 311, 321, 21,
					300 + 320, 200, 201, 210, 211 };
	for (int i = 0; i < 21; i++)
		CHECK(out[i] == want[i], "r[%d] = %g, expected %g", i, out[i], want[i]);
	/* A UBO smaller than the block: the first read past its end faults. */
	env_bind(&e, 0, 1, ubo, 100);
	struct rd_invocation inv;
	char err[256];
	memset(&inv, 0, sizeof(inv));
	CHECK(run(s, &info, &e, &inv, err, sizeof(err)) == -1 && strstr(err, "out-of-bounds"), "%s", err);
out:
	rd_shader_destroy(s);
}

static void test_matrix(void)
{
	struct rd_shader *s = create(spv_matrix_comp, sizeof(spv_matrix_comp));
	struct rd_entry_info info;
	if (!entry(s, RD_STAGE_COMPUTE, &info))
		goto out;
	uint8_t buf[136 + 64 * 4];
	memset(buf, 0, sizeof(buf));
	float a[3][3], b[3][3], v[3] = { 1, -2, 0.5f }, w[2][3];
	for (int c = 0; c < 3; c++)
		for (int r = 0; r < 3; r++) {
			a[c][r] = (float)(c * 3 + r + 1);
			b[c][r] = (float)((c + 2) * (r + 1)) * 0.5f;
			put_f(buf, 16 * c + 4 * r, a[c][r]);
			put_f(buf, 48 + 16 * c + 4 * r, b[c][r]);
		}
	for (int i = 0; i < 3; i++)
		put_f(buf, 96 + 4 * i, v[i]);
	for (int c = 0; c < 2; c++)
		for (int r = 0; r < 3; r++) {
			w[c][r] = (float)(c * 10 + r);
			put_f(buf, 112 + 8 * r + 4 * c, w[c][r]);
		}
	struct env e;
	env_init(&e);
	env_bind(&e, 0, 0, buf, sizeof(buf));
	run_one(s, &info, &e);
	float want[64];
	int k = 0;
	for (int i = 0; i < 3; i++)
		want[k++] = a[0][i] * v[0] + a[1][i] * v[1] + a[2][i] * v[2];
	for (int i = 0; i < 3; i++)
		want[k++] = v[0] * a[i][0] + v[1] * a[i][1] + v[2] * a[i][2];
	for (int c = 0; c < 3; c++)
		for (int r = 0; r < 3; r++)
			want[k++] = a[0][r] * b[c][0] + a[1][r] * b[c][1] + a[2][r] * b[c][2];
	for (int c = 0; c < 3; c++)
		for (int r = 0; r < 3; r++)
			want[k++] = a[r][c];
	for (int c = 0; c < 3; c++)
		for (int r = 0; r < 3; r++)
			want[k++] = v[r] * (float)(c + 1);
	want[k++] = a[1][2] * 2.0f;
	want[k++] = v[0] * 1 + v[1] * 2 + v[2] * 3;
	want[k++] = w[0][1];
	want[k++] = w[1][2];
	for (int i = 0; i < k; i++) {
		float got;
		memcpy(&got, buf + 136 + 4 * i, 4);
		CHECK(got == want[i], "r[%d] = %g, expected %g", i, got, want[i]);
	}
	/* m.w = mat2x3(w[1], w[0] * 10) then m.w[1][2] = 99, row-major. */
	for (int c = 0; c < 2; c++)
		for (int r = 0; r < 3; r++) {
			float got, exp = c == 0 ? w[1][r] : (r == 2 ? 99.0f : w[0][r] * 10.0f);
			memcpy(&got, buf + 112 + 8 * r + 4 * c, 4);
			CHECK(got == exp, "w[%d][%d] = %g, expected %g", c, r, got, exp);
		}
out:
	rd_shader_destroy(s);
}

static void test_desc_array(void)
{
	struct rd_shader *s = create(spv_desc_array_comp, sizeof(spv_desc_array_comp));
	struct rd_entry_info info;
	if (!entry(s, RD_STAGE_COMPUTE, &info))
		goto out;
	uint32_t b[3][6] = { { 100 }, { 2 }, { 300 } };
	struct env e;
	env_init(&e);
	for (uint32_t i = 0; i < 3; i++)
		env_bind_element(&e, 0, 0, i, b[i], (2 + 2 * i) * 4);  /* 1, 3, 5 array elements */
	uint32_t k = 2;
	memcpy(e.push, &k, 4);
	run_one(s, &info, &e);
	CHECK_U(b[1][1 + 2], 11);  /* o[1].data[o[1].n = 2] */
	CHECK_U(b[2][1], 322);     /* o[k = 2].data[0] = 22 + o[2].n */
	CHECK_U(b[2][0], 5);       /* o[2].data.length() */
	CHECK_U(b[0][1], 0);
	k = 3;  /* beyond the array of 3 descriptors */
	memcpy(e.push, &k, 4);
	struct rd_invocation inv;
	char err[256];
	memset(&inv, 0, sizeof(inv));
	CHECK(run(s, &info, &e, &inv, err, sizeof(err)) == -1 && strstr(err, "out of bounds (3)"), "%s", err);
out:
	rd_shader_destroy(s);
}

static void test_bits(void)
{
	struct rd_shader *s = create(spv_bits_comp, sizeof(spv_bits_comp));
	struct rd_entry_info info;
	if (!entry(s, RD_STAGE_COMPUTE, &info))
		goto out;
	struct {
		int32_t i[4];
		uint32_t u[4];
		float f[4];
		uint32_t r[40];
	} b = { { -7, 3, 0x7fffffff, 5 }, { 0xf0f0f0f0u, 4, 0xffffffffu, 40 }, { -3.75f, NAN, INFINITY, 2.5f }, { 0 } };
	struct env e;
	env_init(&e);
	env_bind(&e, 0, 0, &b, sizeof(b));
	run_one(s, &info, &e);
	CHECK_U(b.r[0], (uint32_t)-4);
	CHECK_U(b.r[1], 0x0f0f0f0fu);
	CHECK_U(b.r[2], 0x0f0f0f00u);
	CHECK_U(b.r[3], 0xf0f0f0f0u);
	CHECK_U(b.r[4], 0xf0f0f0f4u);
	CHECK_U(b.r[5], 0x0f0f0f0fu);
	CHECK_U(b.r[6], (uint32_t)-2);
	CHECK_U(b.r[7], 0xf0f0f0f0u / 4);
	CHECK_U(b.r[8], 0xf0f0f0f0u % 7);
	CHECK_U(b.r[9], (uint32_t)-3);
	CHECK_U(b.r[10], 2);
	CHECK_U(b.r[11], u32(-7.0f));
	CHECK_U(b.r[12], u32(4294967296.0f));
	CHECK_U(b.r[13], 0xf0f0f0f0u);
	CHECK_U(b.r[14], 3);
	CHECK_U(b.r[15], 1);
	CHECK_U(b.r[16], 5);
	CHECK_U(b.r[17], 1);
	uint64_t m = (uint64_t)0xf0f0f0f0u * 4;
	CHECK_U(b.r[18], m >> 32);
	CHECK_U(b.r[19], (uint32_t)m);
	int64_t sm = (int64_t)-7 * 0x7fffffff;
	CHECK_U(b.r[20], (uint64_t)sm >> 32);
	CHECK_U(b.r[21], (uint32_t)sm);
	CHECK_U(b.r[22], 1);
	CHECK_U(b.r[23], 1);
	CHECK_U(b.r[24], 0);
	CHECK_U(b.r[25], 1);
	CHECK_U(b.r[26], 1);
	CHECK_U(b.r[27], 0);
	CHECK_U(b.r[28], 1);
	CHECK_U(b.r[29], 7);
	CHECK_U(b.r[30], 0x80000000u);
	CHECK_U(b.r[31], 1);
	CHECK_U(b.r[32], 3 * 10 + 2);
	CHECK_U(b.r[33], u32(2.0f + 1.0f * 10.0f));
	CHECK_U(b.r[34], 10);
	CHECK_U(b.r[35], 0);  /* -2.5 < -3.75 */
out:
	rd_shader_destroy(s);
}

static void test_ops(void)
{
	struct rd_shader *s = create(spv_ops_comp, sizeof(spv_ops_comp));
	struct rd_entry_info info;
	if (!entry(s, RD_STAGE_COMPUTE, &info))
		goto out;
	struct {
		float f[4];
		uint32_t u[4];
		int32_t i[4];
		uint32_t atom[4];
		uint32_t r[32];
	} b = { { 1, 2, NAN, 1 }, { 3, 5, 0xffffffffu, 7 }, { -3, 5, 2, 0 }, { 10, 20, 30, 40 }, { 0 } };
	struct env e;
	env_init(&e);
	env_bind(&e, 0, 0, &b, sizeof(b));
	run_one(s, &info, &e);
	const uint32_t want[23] = { 1, 0, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 0xff, u32(4), u32(9), u32(8), 10, 30,
				    2, 2, u32(1), 1 };
	for (int i = 0; i < 23; i++)
		CHECK(b.r[i] == want[i], "r[%d] = %u (0x%x), expected %u (0x%x)", i, b.r[i], b.r[i], want[i], want[i]);
	CHECK_U(b.atom[1], 21);
	CHECK_U(b.atom[2], 29);
out:
	rd_shader_destroy(s);
}

static void test_asm_ops(void)
{
	struct rd_shader *s = create(spv_asm_ops, sizeof(spv_asm_ops));
	struct rd_entry_info info;
	if (!entry(s, RD_STAGE_COMPUTE, &info))
		goto out;
	uint32_t w[20] = { (uint32_t)-7, 3 };
	w[9] = 40, w[11] = 50, w[12] = 60;
	struct env e;
	env_init(&e);
	env_bind(&e, 0, 0, w, sizeof(w));
	run_one(s, &info, &e);
	CHECK_U(w[2], (uint32_t)-1);  /* SRem: the sign of the dividend */
	CHECK_U(w[3], 2);             /* SMod: the sign of the divisor */
	CHECK_U(w[4], u32(-1.0f));
	CHECK_U(w[5], u32(2.0f));
	CHECK_U(w[6], 21);            /* OpSpecConstantOp IMul of the default 7 */
	CHECK_U(w[7], 21);
	CHECK_U(w[8], 7);
	CHECK_U(w[9], 41);
	CHECK_U(w[10], 40);
	CHECK_U(w[11], 49);
	CHECK_U(w[12], 55);
	CHECK_U(w[13], 3 + 50 + 60);  /* OpCopyMemory buffer -> Function array */
	CHECK_U(w[14], 21);           /* OpSelect of a vector by a scalar */
	CHECK_U(w[16], 1 + 2 + 4 + 16 + 64 + 128 + 512);
	CHECK_U(w[17], 959);
	w[15] = 1;
	struct rd_invocation inv;
	char err[256];
	memset(&inv, 0, sizeof(inv));
	CHECK(run(s, &info, &e, &inv, err, sizeof(err)) == -1 && strstr(err, "OpUnreachable"), "%s", err);
out:
	rd_shader_destroy(s);
}

static void test_shared(void)
{
	struct rd_shader *s = create(spv_shared_comp, sizeof(spv_shared_comp));
	struct rd_entry_info info;
	if (!entry(s, RD_STAGE_COMPUTE, &info))
		goto out;
	CHECK(info.workgroup_memory_size == 20, "workgroup_memory_size %u", info.workgroup_memory_size);
	uint32_t b[16] = { 0 };
	b[5] = 1000, b[7] = 0xff, b[11] = 77, b[12] = 2, b[13] = 5;
	uint32_t *wg = calloc(1, info.workgroup_memory_size);
	struct env e;
	env_init(&e);
	env_bind(&e, 0, 0, b, sizeof(b));
	for (uint32_t i = 0; i < 4; i++) {
		struct rd_invocation inv;
		char err[256];
		memset(&inv, 0, sizeof(inv));
		inv.local_id[0] = inv.global_id[0] = inv.local_index = i;
		inv.num_workgroups[0] = inv.num_workgroups[1] = inv.num_workgroups[2] = 1;
		inv.workgroup_memory = (uint8_t *)wg;
		CHECK(run(s, &info, &e, &inv, err, sizeof(err)) == 0, "%s", err);
	}
	for (uint32_t i = 0; i < 4; i++)
		CHECK_U(b[i], i);  /* slots[0] is 0 */
	CHECK_U(wg[0], 4);
	CHECK_U(b[4], 21);
	CHECK_U(b[5], 10);
	CHECK_U(b[6], 0xf);
	CHECK_U(b[7], 0xf0);
	CHECK_U(b[8], 0);
	/* exchanges 77 -> 0 -> 1 -> 2 -> 3: invocations 0 and 2 write b[9], 1 and 3 b[10] */
	CHECK_U(b[9], 1);
	CHECK_U(b[10], 2);
	CHECK_U(b[11], 3);
	CHECK_U(b[12], 52);
	CHECK_U(b[13], 0);  /* unsigned min with 0 - 2 = 0xfffffffe, 5, 0, 1 */
	free(wg);
out:
	rd_shader_destroy(s);
}

/* Control barriers: a workgroup's invocations run in lockstep between
 * barriers (rd_shader_run_group), so each reads what the other stored
 * before the barrier; a barrier only some invocations reach is an error. */
static void test_barrier(void)
{
	struct rd_shader *s = create(spv_barrier_comp, sizeof(spv_barrier_comp));
	struct rd_shader *d = create(spv_barrier_divergent_comp, sizeof(spv_barrier_divergent_comp));
	struct rd_entry_info info, dinfo;
	if (!entry(s, RD_STAGE_COMPUTE, &info) || !entry(d, RD_STAGE_COMPUTE, &dinfo))
		goto out;
	CHECK(info.has_barrier && dinfo.has_barrier, "has_barrier");
	uint32_t b[2] = {77, 77}, wg[2];
	struct env e;
	env_init(&e);
	env_bind(&e, 0, 0, b, sizeof(b));
	struct rd_invocation inv[2];
	char err[256];
	for (int pass = 0; pass < 2; pass++) {
		memset(inv, 0, sizeof(inv));
		memset(wg, 0, sizeof(wg));
		for (uint32_t i = 0; i < 2; i++) {
			inv[i].local_id[0] = inv[i].global_id[0] = inv[i].local_index = i;
			inv[i].num_workgroups[0] = inv[i].num_workgroups[1] = inv[i].num_workgroups[2] = 1;
			inv[i].workgroup_memory = (uint8_t *)wg;
		}
		if (pass == 0) {
			CHECK(rd_shader_run_group(s, &info, &e.env, inv, 2, err, sizeof(err)) == 0, "%s", err);
			CHECK(b[0] == 1 && b[1] == 0, "after the barrier each reads the other's value: %u %u",
			      b[0], b[1]);
		} else {
			int rc = rd_shader_run_group(d, &dinfo, &e.env, inv, 2, err, sizeof(err));
			CHECK(rc != 0 && strstr(err, "OpControlBarrier"), "divergent barrier refused: %s", err);
		}
	}
out:
	rd_shader_destroy(s);
	rd_shader_destroy(d);
}

/* Task and mesh workgroups (SPV_EXT_mesh_shader): the task payload, the
 * launch counts, SetMeshOutputsEXT, per-vertex and per-primitive outputs
 * in the shared memory, CullPrimitiveEXT. */
static void test_mesh(void)
{
	struct rd_shader *t = create(spv_mesh_task, sizeof(spv_mesh_task));
	struct rd_shader *m = create(spv_mesh_mesh, sizeof(spv_mesh_mesh));
	struct rd_entry_info ti, mi;
	if (!entry(t, RD_STAGE_TASK, &ti) || !entry(m, RD_STAGE_MESH, &mi))
		goto out;
	CHECK(ti.payload_size == 4 && mi.payload_size == 4, "payload sizes %u %u", ti.payload_size,
	      mi.payload_size);
	CHECK(mi.mesh_output == RD_MESH_OUT_TRIANGLES && mi.mesh_max_vertices == 4 &&
		      mi.mesh_max_primitives == 2 && mi.primitive_output_mask == 2u && mi.output_mask == 1u,
	      "mesh modes %d %u %u masks %x %x", mi.mesh_output, mi.mesh_max_vertices, mi.mesh_max_primitives,
	      mi.primitive_output_mask, mi.output_mask);
	struct env e;
	env_init(&e);
	uint8_t tsh[256], msh[1024];
	CHECK(ti.workgroup_memory_size <= sizeof(tsh) && mi.workgroup_memory_size <= sizeof(msh),
	      "shared sizes %u %u", ti.workgroup_memory_size, mi.workgroup_memory_size);
	struct rd_invocation inv[2];
	char err[256];
	memset(inv, 0, sizeof(inv));
	memset(tsh, 0, sizeof(tsh));
	for (uint32_t i = 0; i < 2; i++) {
		inv[i].local_id[0] = inv[i].local_index = i;
		inv[i].workgroup_id[0] = 3;
		inv[i].num_workgroups[0] = 4;
		inv[i].num_workgroups[1] = inv[i].num_workgroups[2] = 1;
		inv[i].workgroup_memory = tsh;
	}
	CHECK(rd_shader_run_group(t, &ti, &e.env, inv, 2, err, sizeof(err)) == 0, "task: %s", err);
	uint32_t base;
	memcpy(&base, tsh + ti.payload_offset, 4);
	CHECK(inv[0].task_emitted && inv[1].task_emitted && inv[1].task_groups[0] == 2 &&
		      inv[1].task_groups[1] == 1 && inv[1].task_groups[2] == 1 && base == 43,
	      "task: emitted %d %d, groups %u %u %u, payload %u", inv[0].task_emitted, inv[1].task_emitted,
	      inv[1].task_groups[0], inv[1].task_groups[1], inv[1].task_groups[2], base);
	memset(inv, 0, sizeof(inv));
	memset(msh, 0, sizeof(msh));
	memcpy(msh + mi.payload_offset, &base, 4);
	for (uint32_t i = 0; i < 2; i++) {
		inv[i].local_id[0] = inv[i].local_index = i;
		inv[i].workgroup_id[0] = 1;
		inv[i].num_workgroups[0] = 2;
		inv[i].num_workgroups[1] = inv[i].num_workgroups[2] = 1;
		inv[i].workgroup_memory = msh;
	}
	CHECK(rd_shader_run_group(m, &mi, &e.env, inv, 2, err, sizeof(err)) == 0, "mesh: %s", err);
	CHECK(inv[0].mesh_outputs_set && inv[0].mesh_vertex_count == 4 && inv[1].mesh_primitive_count == 2,
	      "SetMeshOutputsEXT %d %u %u", inv[0].mesh_outputs_set, inv[0].mesh_vertex_count,
	      inv[1].mesh_primitive_count);
	struct rd_stage_vertex v;
	rd_shader_mesh_vertex(m, &mi, msh, 3, &v);
	float c0;
	memcpy(&c0, &v.var[0][0], 4);
	CHECK(v.position[0] == 1.0f && v.position[1] == 1.0f && v.position[3] == 1.0f && c0 == 44.5f,
	      "vertex 3: (%g, %g, %g, %g), color %g", v.position[0], v.position[1], v.position[2],
	      v.position[3], c0);
	struct rd_mesh_primitive p;
	rd_shader_mesh_primitive(m, &mi, msh, 0, &p);
	CHECK(p.index[0] == 0 && p.index[1] == 1 && p.index[2] == 2 && !p.cull && p.var[1][0] == 440,
	      "primitive 0: (%u, %u, %u) cull %d id %u", p.index[0], p.index[1], p.index[2], p.cull,
	      p.var[1][0]);
	rd_shader_mesh_primitive(m, &mi, msh, 1, &p);
	CHECK(p.index[2] == 3 && p.cull && p.var[1][0] == 441, "primitive 1: (%u, %u, %u) cull %d id %u",
	      p.index[0], p.index[1], p.index[2], p.cull, p.var[1][0]);
out:
	rd_shader_destroy(t);
	rd_shader_destroy(m);
}

/* ------------------------------------------------------------------------ */
/* Graphics interfaces                                                      */

static void test_varyings(void)
{
	struct rd_shader *vs = create(spv_varyings_vert, sizeof(spv_varyings_vert));
	struct rd_shader *fs = create(spv_varyings_frag, sizeof(spv_varyings_frag));
	struct rd_entry_info vi, fi;
	struct env e;
	struct rd_invocation inv;
	char err[256];
	env_init(&e);
	if (!entry(vs, RD_STAGE_VERTEX, &vi) || !entry(fs, RD_STAGE_FRAGMENT, &fi))
		goto out;
	CHECK(vi.input_mask == 0xf && vi.output_mask == 0xf, "vs masks %x %x", vi.input_mask, vi.output_mask);
	CHECK(vi.writes_point_size, "writes_point_size");
	memset(&inv, 0, sizeof(inv));
	for (int i = 0; i < 4; i++)
		inv.in[0][i] = u32(1.0f + i);
	inv.in[1][0] = 5, inv.in[1][1] = (uint32_t)-2;
	inv.in[2][0] = u32(1), inv.in[2][1] = u32(2), inv.in[3][0] = u32(3), inv.in[3][1] = u32(4);
	inv.vertex_index = 9, inv.instance_index = 100;
	CHECK(run(vs, &vi, &e, &inv, err, sizeof(err)) == 0, "%s", err);
	CHECK(inv.position[0] == 2 && inv.position[3] == 8, "position %g %g", inv.position[0], inv.position[3]);
	CHECK(f32(inv.out[0][0]) == 1 && f32(inv.out[0][3]) == 4, "o0");
	CHECK_U(inv.out[1][0], 103);
	CHECK(f32(inv.out[2][0]) == 9 && f32(inv.out[2][1]) == 9, "o2[0]");
	CHECK(f32(inv.out[3][0]) == 4 && f32(inv.out[3][1]) == 6, "o2[1] = (%g %g)", f32(inv.out[3][0]),
	      f32(inv.out[3][1]));
	CHECK(inv.point_size == 3.0f, "point size %g", inv.point_size);

	CHECK(fi.input_mask == 0xf && fi.output_mask == 0x9, "fs masks %x %x", fi.input_mask, fi.output_mask);
	CHECK(fi.flat_mask == 0x2 && fi.noperspective_mask == 0xc, "interpolation %x %x", fi.flat_mask,
	      fi.noperspective_mask);
	CHECK(fi.writes_frag_depth && fi.writes_sample_mask && fi.reads_sample_id && !fi.may_discard, "flags");
	memset(&inv, 0, sizeof(inv));
	for (int i = 0; i < 4; i++)
		inv.in[0][i] = u32(10.0f * i);
	inv.in[1][0] = 42;
	inv.in[2][0] = u32(1), inv.in[2][1] = u32(2), inv.in[3][0] = u32(3), inv.in[3][1] = u32(4);
	inv.front_facing = true, inv.sample_id = 3, inv.sample_mask_in = 0x8;
	inv.frag_coord[2] = 0.5f;
	CHECK(run(fs, &fi, &e, &inv, err, sizeof(err)) == 0, "%s", err);
	CHECK(f32(inv.out[0][0]) == 1 && f32(inv.out[0][1]) == 12 && f32(inv.out[0][3]) == 34, "c");
	CHECK(inv.out[3][0] == 42 && inv.out[3][1] == 1 && inv.out[3][2] == 3 && inv.out[3][3] == 8, "u");
	CHECK(inv.frag_depth == 0.25f && inv.sample_mask_out == 5, "depth %g mask %x", inv.frag_depth,
	      inv.sample_mask_out);
out:
	rd_shader_destroy(vs);
	rd_shader_destroy(fs);
}

static void test_early(void)
{
	struct rd_shader *s = create(spv_early_frag, sizeof(spv_early_frag));
	struct rd_entry_info info;
	char err[256];
	if (!entry(s, RD_STAGE_FRAGMENT, &info))
		goto out;
	CHECK(info.early_fragment_tests && info.may_discard && !info.reads_sample_id, "flags");
	CHECK(!rd_shader_entry(s, "main", RD_STAGE_VERTEX, &info, err, sizeof(err)) && strstr(err, "vertex"),
	      "%s", err);
	CHECK(!rd_shader_entry(s, "other", RD_STAGE_FRAGMENT, &info, err, sizeof(err)) && strstr(err, "other"),
	      "%s", err);
out:
	rd_shader_destroy(s);
}

/* Input attachments: the environment answers (index, x, y, view, sample)
 * with a value naming them, so each read shows what it asked for. */
static bool env_input(void *user, uint32_t index, int32_t x, int32_t y, uint32_t view, uint32_t sample,
		      uint32_t out[4])
{
	(void)user;
	if (index > 2)
		return false;
	if (index == 0) {
		float f[4] = { (float)x, (float)y, (float)view, (float)sample };
		memcpy(out, f, sizeof(f));
	} else {
		out[0] = index, out[1] = (uint32_t)x, out[2] = (uint32_t)y, out[3] = sample;
	}
	return true;
}

static void test_input_attachments(void)
{
	struct rd_shader *s = create(spv_subpass_frag, sizeof(spv_subpass_frag));
	struct rd_entry_info info;
	if (!entry(s, RD_STAGE_FRAGMENT, &info))
		goto out;
	struct env e;
	env_init(&e);
	struct rd_invocation inv;
	char err[256];
	memset(&inv, 0, sizeof(inv));
	inv.frag_coord[0] = 5.5f, inv.frag_coord[1] = 7.5f, inv.view_index = 2;
	CHECK(run(s, &info, &e, &inv, err, sizeof(err)) == -1 && strstr(err, "input attachment 0"),
	      "no input attachments: %s", err);
	e.env.input_attachment = env_input;
	int r = run(s, &info, &e, &inv, err, sizeof(err));
	CHECK(r == 0, "%s", err);
	if (r != 0)
		goto out;
	float f[4];
	memcpy(f, inv.out[0], sizeof(f));
	/* subpassLoad(colour): pixel (5, 7) of view 2, sample 0 */
	CHECK(f[0] == 5 && f[1] == 7 && f[2] == 2 && f[3] == 0, "colour read %g %g %g %g", f[0], f[1], f[2], f[3]);
	/* subpassLoad(counts[1], 3): input attachment 1 + 1, sample 3 */
	CHECK(inv.out[1][0] == 2 && inv.out[1][1] == 5 && inv.out[1][2] == 7 && inv.out[1][3] == 3,
	      "count read %u %u %u %u", inv.out[1][0], inv.out[1][1], inv.out[1][2], inv.out[1][3]);
out:
	rd_shader_destroy(s);
}

/* Device addresses: the buffers a test shader may reach through them. */
static struct rd_address_range addr_ranges[4];

static bool env_address(void *user, uint64_t addr, uint64_t len, struct rd_address_range *r)
{
	(void)user;
	for (size_t i = 0; i < sizeof(addr_ranges) / sizeof(addr_ranges[0]); i++) {
		const struct rd_address_range *a = &addr_ranges[i];
		if (a->data && addr >= a->base && addr - a->base <= a->size && len <= a->size - (addr - a->base)) {
			*r = *a;
			return true;
		}
	}
	return false;
}

static uint64_t addr_of(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

/* Buffer references, 64-bit integers, subgroupElect: what the Khronos
 * validation layer's GPU-assisted instrumentation adds to every shader. */
static void test_address(void)
{
	struct rd_shader *s = create(spv_address_refs_comp, sizeof(spv_address_refs_comp));
	struct rd_entry_info info;
	if (!entry(s, RD_STAGE_COMPUTE, &info))
		goto out;
	uint32_t words[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct node { uint32_t value, pad; uint64_t next; } nodes[3] = { { 10, 0, 0 }, { 20, 0, 0 }, { 30, 0, 0 } };
	nodes[0].next = addr_of(&nodes[1]);
	nodes[1].next = addr_of(&nodes[2]);
	uint8_t o[80];
	memset(o, 0, sizeof(o));
	struct env e;
	env_init(&e);
	env_bind(&e, 0, 0, o, sizeof(o));
	uint64_t wa = addr_of(words), head = addr_of(&nodes[0]);
	uint32_t count = 4, wlo = (uint32_t)wa, whi = (uint32_t)(wa >> 32);
	memcpy(e.push, &wa, 8);
	memcpy(e.push + 8, &head, 8);
	memcpy(e.push + 16, &wlo, 4);
	memcpy(e.push + 20, &whi, 4);
	memcpy(e.push + 24, &count, 4);
	struct rd_invocation inv;
	char err[256];
	memset(&inv, 0, sizeof(inv));
	CHECK(run(s, &info, &e, &inv, err, sizeof(err)) == -1 && strstr(err, "no buffer holds device addresses"),
	      "no address lookup: %s", err);
	memset(o, 0, sizeof(o));
	e.env.address = env_address;
	addr_ranges[0] = (struct rd_address_range){ wa, sizeof(words), (uint8_t *)words };
	addr_ranges[1] = (struct rd_address_range){ head, sizeof(nodes), (uint8_t *)nodes };
	int r = run(s, &info, &e, &inv, err, sizeof(err));
	CHECK(r == 0, "%s", err);
	uint32_t res[16];
	uint64_t wide, stored;
	memcpy(&wide, o, 8);
	memcpy(res, o + 8, sizeof(res));
	memcpy(&stored, o + 72, 8);
	CHECK_U(res[0], 1 + 2 + 3 + 4);  /* through OpConvertUToPtr */
	CHECK_U(res[1], 2);              /* through a uvec2 */
	CHECK_U(res[2], 3);              /* the list, ended by a null pointer */
	CHECK_U(res[3], 10 + 20 + 30);
	CHECK_U(res[4], 16);
	CHECK(wide == 4 * 0x100000001ull + 1, "wide 0x%llx", (unsigned long long)wide);
	CHECK_U(res[5], 8);
	CHECK_U(res[6], 0);
	CHECK_U(res[7], 0xffffffffu);  /* the high word of -4 */
	CHECK_U(res[8], 1);            /* every invocation is its subgroup's elected one */
	CHECK_U(words[0], 1 + 5);      /* atomicAdd through the address */
	CHECK(stored == addr_of(&nodes[1]), "stored pointer 0x%llx", (unsigned long long)stored);
	CHECK_U(res[9], (uint32_t)head);
	CHECK_U(res[10], (uint32_t)(head >> 32));
	count = 99;  /* reads past the end of words */
	memcpy(e.push + 24, &count, 4);
	CHECK(run(s, &info, &e, &inv, err, sizeof(err)) == -1 && strstr(err, "no buffer holds device addresses"),
	      "out of range: %s", err);
	printf("fault message: %s\n", err);
out:
	memset(addr_ranges, 0, sizeof(addr_ranges));
	rd_shader_destroy(s);
}

/* ------------------------------------------------------------------------ */
/* Runtime faults                                                           */

static void test_oob(void)
{
	struct rd_shader *s = create(spv_oob_comp, sizeof(spv_oob_comp));
	struct rd_entry_info info;
	if (!entry(s, RD_STAGE_COMPUTE, &info))
		goto out;
	uint32_t buf[4] = { 0, 11, 22, 33 };
	struct env e;
	env_init(&e);
	env_bind(&e, 0, 0, buf, sizeof(buf));
	uint32_t pc[2] = { 3, 1 };
	struct rd_invocation inv;
	char err[256];
	memset(&inv, 0, sizeof(inv));
	memcpy(e.push, pc, sizeof(pc));
	CHECK(run(s, &info, &e, &inv, err, sizeof(err)) == 0 && buf[3] == 7, "%s", err);
	pc[0] = 4;  /* one past the end: a store */
	memcpy(e.push, pc, sizeof(pc));
	CHECK(run(s, &info, &e, &inv, err, sizeof(err)) == -1 && strstr(err, "out-of-bounds"), "%s", err);
	pc[0] = 0x40000000u, pc[1] = 0;  /* a load far away */
	memcpy(e.push, pc, sizeof(pc));
	CHECK(run(s, &info, &e, &inv, err, sizeof(err)) == -1 && strstr(err, "out-of-bounds"), "%s", err);
	pc[0] = 2;
	memcpy(e.push, pc, sizeof(pc));
	CHECK(run(s, &info, &e, &inv, err, sizeof(err)) == 0 && buf[0] == 22, "%s", err);
	env_bind(&e, 0, 0, NULL, 0);  /* nothing bound */
	CHECK(run(s, &info, &e, &inv, err, sizeof(err)) == -1 && strstr(err, "no buffer bound at set 0 binding 0"),
	      "%s", err);
	printf("fault message: %s\n", err);
out:
	rd_shader_destroy(s);
}

static void test_step_limit(void)
{
	struct rd_shader *s = create(spv_loop_comp, sizeof(spv_loop_comp));
	struct rd_entry_info info;
	if (!entry(s, RD_STAGE_COMPUTE, &info))
		goto out;
	uint32_t buf[2] = { 0, 0 };
	struct env e;
	env_init(&e);
	env_bind(&e, 0, 0, buf, sizeof(buf));
	struct rd_invocation inv;
	char err[256];
	memset(&inv, 0, sizeof(inv));
	double t0 = now_ns();
	CHECK(run(s, &info, &e, &inv, err, sizeof(err)) == -1 && strstr(err, "step limit"), "%s", err);
	printf("step limit hit after %u loop iterations in %.0f ms: %s\n", buf[1], (now_ns() - t0) / 1e6, err);
	buf[0] = 1;
	CHECK(run(s, &info, &e, &inv, err, sizeof(err)) == 0, "%s", err);
out:
	rd_shader_destroy(s);
}

/* ------------------------------------------------------------------------ */
/* Refusals                                                                 */

static void refuse(const uint32_t *words, size_t size, const char *want, const char *what)
{
	char err[256] = "(none)";
	struct rd_shader *s = rd_shader_create(words, size, err, sizeof(err));
	CHECK(s == NULL && strstr(err, want) != NULL, "%s: expected refusal naming \"%s\", got \"%s\"", what, want,
	      s ? "(accepted)" : err);
	CHECK(strchr(err, '\n') == NULL, "%s: message is not one line", what);
	if (!s)
		printf("refused %s: %s\n", what, err);
	rd_shader_destroy(s);
}

/* The word offset of the first instruction with opcode op, or 0. */
static size_t find_op(const uint32_t *w, size_t n, uint32_t op)
{
	for (size_t i = 5; i < n && (w[i] >> 16); i += w[i] >> 16)
		if ((w[i] & 0xffff) == op)
			return i;
	return 0;
}

static void test_refusals(void)
{
	size_t n = sizeof(color_frag) / 4;
	uint32_t *w = malloc(sizeof(color_frag));
	memcpy(w, color_frag, sizeof(color_frag));

	refuse(w, sizeof(color_frag) - 8, "truncated", "truncated module");
	refuse(w, sizeof(color_frag) - 4, "truncated", "truncated instruction");
	refuse(w, 12, "5-word header", "truncated header");
	refuse(w, sizeof(color_frag) - 2, "whole number of words", "odd size");

	w[0] = 0x12345678;
	refuse(w, sizeof(color_frag), "bad magic", "bad magic");
	w[0] = color_frag[0];

	w[3] = 5;  /* the id bound */
	refuse(w, sizeof(color_frag), "out of range (bound 5)", "id >= bound");
	w[3] = color_frag[3];

	size_t at = find_op(w, n, 62 /* OpStore */);
	CHECK(at != 0, "no OpStore in color.frag");
	w[at] = (w[at] & 0xffff0000u) | 87u;
	char want[64];
	snprintf(want, sizeof(want), "word %zu: unsupported opcode OpImageSampleImplicitLod (87)", at);
	refuse(w, sizeof(color_frag), want, "patched opcode");
	w[at] = color_frag[at];

	at = find_op(w, n, 17 /* OpCapability */);
	w[at + 1] = 10;  /* Float64 */
	refuse(w, sizeof(color_frag), "unsupported capability Float64 (10)", "capability");
	w[at + 1] = color_frag[at + 1];

	at = find_op(w, n, 71 /* OpDecorate */);
	w[at + 2] = 17;  /* Sample: an interpolation the rasterizer does not do */
	w[at] = (w[at] & 0xffffu) | (3u << 16);
	uint32_t saved = w[at + 3];
	w[at + 3] = 0x00010000u | 0;  /* OpNop to fill the word left over */
	refuse(w, sizeof(color_frag), "unsupported decoration Sample (17)", "decoration");
	w[at] = color_frag[at], w[at + 2] = color_frag[at + 2], w[at + 3] = saved;

	at = find_op(w, n, 32 /* OpTypePointer */);
	w[at + 2] = 5;  /* CrossWorkgroup */
	refuse(w, sizeof(color_frag), "unsupported storage class CrossWorkgroup (5)", "storage class");
	memcpy(w, color_frag, sizeof(color_frag));

	refuse(spv_sampler_frag, sizeof(spv_sampler_frag), "unsupported image: Dim 1", "image sampling");
	refuse(NULL, 0, "bytes", "no module");

	/* The same module in the other byte order is fine. */
	for (size_t i = 0; i < n; i++)
		w[i] = __builtin_bswap32(color_frag[i]);
	struct rd_shader *s = create(w, sizeof(color_frag));
	rd_shader_destroy(s);
	free(w);
}

/* Every prefix and every single-word corruption of real modules: refused
 * or accepted, never a crash (CI runs this under the sanitizers).  The
 * corrupted modules that pass also run; spv_ubo has no loops, so few of
 * them can spin until the step limit. */
static void test_mutations(void)
{
	int accepted = 0;
	char err[256];
	for (size_t len = 0; len < sizeof(spv_control_comp) / 4; len++) {
		struct rd_shader *s = rd_shader_create(spv_control_comp, len * 4, err, sizeof(err));
		accepted += s != NULL;
		rd_shader_destroy(s);
	}
	CHECK(accepted == 0, "%d prefixes accepted", accepted);
	const uint32_t *src = spv_ubo_comp;
	size_t n = sizeof(spv_ubo_comp) / 4;
	uint32_t *w = malloc(n * 4);
	uint8_t ubo[192] = { 0 };
	float out[32];
	static const uint32_t vals[] = { 0, 1, 2, 3, 4, 0xffff, 0x10000, 0x7fffffff, 0xffffffff };
	int runs = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < sizeof(vals) / sizeof(vals[0]); k++) {
			memcpy(w, src, n * 4);
			w[i] = vals[k];
			struct rd_shader *s = rd_shader_create(w, n * 4, err, sizeof(err));
			struct rd_entry_info info;
			if (s && rd_shader_entry(s, "main", RD_STAGE_COMPUTE, &info, err, sizeof(err))) {
				struct env e;
				env_init(&e);
				env_bind(&e, 0, 0, out, sizeof(out));
				env_bind(&e, 0, 1, ubo, sizeof(ubo));
				struct rd_invocation inv;
				memset(&inv, 0, sizeof(inv));
				run(s, &info, &e, &inv, err, sizeof(err));
				runs++;
			}
			rd_shader_destroy(s);
		}
	printf("mutations: %zu words x %zu values, %d modules ran\n", n, sizeof(vals) / sizeof(vals[0]), runs);
	CHECK(runs > 0, "no mutated module ran");
	free(w);
}

static const struct {
	const char *name;
	void (*fn)(void);
} tests[] = {
	{ "rect_vert", test_rect_vert },
	{ "color_frag", test_color_frag },
	{ "discard_odd_columns", test_discard_odd_columns },
	{ "speed", test_speed },
	{ "compute", test_compute },
	{ "control", test_control },
	{ "glsl", test_glsl },
	{ "address", test_address },
	{ "ubo_std140", test_ubo_std140 },
	{ "matrix", test_matrix },
	{ "desc_array", test_desc_array },
	{ "bits", test_bits },
	{ "ops", test_ops },
	{ "asm_ops", test_asm_ops },
	{ "shared", test_shared },
	{ "barrier", test_barrier },
	{ "mesh", test_mesh },
	{ "varyings", test_varyings },
	{ "early", test_early },
	{ "input_attachments", test_input_attachments },
	{ "oob", test_oob },
	{ "step_limit", test_step_limit },
	{ "refusals", test_refusals },
	{ "mutations", test_mutations },
};

int main(int argc, char **argv)
{
	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		if (argc > 1 && strcmp(argv[1], tests[i].name) != 0)
			continue;
		int f = failed;
		tests[i].fn();
		printf("%s %s\n", failed == f ? "ok  " : "FAIL", tests[i].name);
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
