/* Rasterization (spec chapter "Rasterization") and the per-fragment
 * pipeline (chapter "Fragment Operations") of the reference device.
 *
 * Coverage is exact: vertices are snapped to 1/256 pixel
 * (subPixelPrecisionBits 8), the standard sample locations are multiples of
 * 1/8 pixel, so every edge function is an integer evaluated without
 * rounding, and ties (a sample exactly on an edge) are broken by a
 * top-left rule that gives a shared edge's samples to exactly one of the
 * two primitives.  Points and lines are convex quadrilaterals through the
 * same edge functions.  Each primitive then walks the pixels of its
 * bounding box clipped to the scissor and hands every fragment with
 * coverage to the chain of fragment stages built by rd_raster_begin(). */
#include "rd_raster.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum prim_kind { PRIM_POINT, PRIM_LINE, PRIM_TRIANGLE };

/* One primitive set up for coverage and interpolation. */
struct rd_prim {
	enum prim_kind kind;
	bool front;
	uint32_t nedges;
	/* Edge i covers subpixel (X, Y) when a*X + b*Y + c >= 0; the tie-break
	 * bias is folded into c. */
	int64_t a[4], b[4], c[4];
	int64_t x0, y0, x1, y1; /* pixel bounding box, clipped to r->x0.. */
	const struct rd_raster_vertex *v[3];
	double vx[3], vy[3];    /* vertex positions in subpixels (interpolation) */
	double area2;           /* triangle: twice its area, in subpixels squared */
	double zx, zy, z0;      /* zf = zx * X + zy * Y + z0: depth is linear in
	                           framebuffer space (spec "Depth Test") */
	double len2;            /* line: squared length, in subpixels squared */
	const uint32_t (*flat)[4];
};

struct rd_fragment {
	int64_t x, y;
	uint32_t cov;           /* coverage mask: bit s = sample s */
	uint32_t stencil_pass;  /* samples that passed the stencil test */
	bool front;
	const struct rd_prim *prim;
	float z[RD_RASTER_MAX_SAMPLES];
	/* Fragment shader colour outputs: [0] for a per-fragment invocation,
	 * [s] for sample s's invocation when shading per sample. */
	uint32_t color[RD_RASTER_MAX_SAMPLES][RD_MAX_COLOR][4];
};

static int fail(struct rd_raster *r, const char *msg)
{
	snprintf(r->err, r->errsize, "%s", msg);
	r->failed = true;
	return -1;
}

static float as_float(uint32_t w)
{
	float f;
	memcpy(&f, &w, 4);
	return f;
}

static uint32_t as_word(float f)
{
	uint32_t w;
	memcpy(&w, &f, 4);
	return w;
}

static float clampf(float v, float lo, float hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static int64_t floor_div(int64_t a, int64_t b)
{
	return a >= 0 ? a / b : -((-a + b - 1) / b);
}

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

static int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

/* Attachments -------------------------------------------------------------*/

/* rd_format.h's layout; x, y within the extent and the layer checked by
 * rd_raster_begin(), s < samples by the sample count check there. */
static uint8_t *texel(const struct rd_raster *r, const struct rd_attachment *a, int64_t x,
		      int64_t y, uint32_t s)
{
	size_t layer = (size_t)a->base_layer + r->layer;
	size_t i = ((layer * a->height + (size_t)y) * a->width + (size_t)x) * a->samples + s;
	return a->base + i * a->fmt->texel_size;
}

static const char *check_attachment(const struct rd_raster *r, const struct rd_attachment *a,
				    bool color)
{
	if (!a->fmt || (color ? !a->fmt->color : !(a->fmt->depth || a->fmt->stencil)))
		return "format is not renderable";
	if (a->samples != r->samples)
		return "sample count differs from the pipeline's";
	if (!((uint64_t)a->base_layer + r->layer < a->image_layers))
		return "layer is past the image's last layer";
	return NULL;
}

/* Spec "Depth Test": zf is converted to the attachment's format before the
 * comparison (fixed-point formats: "Fixed-Point Data Conversions"), so a
 * fragment at the depth a clear wrote compares equal to it. */
static float quantize_depth(const struct rd_format_info *fi, float z)
{
	if (fi->format == VK_FORMAT_D32_SFLOAT || fi->format == VK_FORMAT_D32_SFLOAT_S8_UINT)
		return z;
	uint8_t t[8] = {0};
	rd_format_store_depth(fi, t, z);
	return rd_format_load_depth(fi, t);
}

static bool compare(VkCompareOp op, double a, double b)
{
	switch (op) {
	case VK_COMPARE_OP_NEVER: return false;
	case VK_COMPARE_OP_LESS: return a < b;
	case VK_COMPARE_OP_EQUAL: return a == b;
	case VK_COMPARE_OP_LESS_OR_EQUAL: return a <= b;
	case VK_COMPARE_OP_GREATER: return a > b;
	case VK_COMPARE_OP_NOT_EQUAL: return a != b;
	case VK_COMPARE_OP_GREATER_OR_EQUAL: return a >= b;
	case VK_COMPARE_OP_ALWAYS: return true;
	default: return false;
	}
}

/* Spec "Stencil Test", VkStencilOp. */
static uint8_t stencil_op(VkStencilOp op, uint8_t s, uint8_t ref)
{
	switch (op) {
	case VK_STENCIL_OP_KEEP: return s;
	case VK_STENCIL_OP_ZERO: return 0;
	case VK_STENCIL_OP_REPLACE: return ref;
	case VK_STENCIL_OP_INCREMENT_AND_CLAMP: return s < 255 ? (uint8_t)(s + 1) : 255;
	case VK_STENCIL_OP_DECREMENT_AND_CLAMP: return s > 0 ? (uint8_t)(s - 1) : 0;
	case VK_STENCIL_OP_INVERT: return (uint8_t)~s;
	case VK_STENCIL_OP_INCREMENT_AND_WRAP: return (uint8_t)(s + 1);
	case VK_STENCIL_OP_DECREMENT_AND_WRAP: return (uint8_t)(s - 1);
	default: return s;
	}
}

static void stencil_update(const struct rd_raster *r, const struct rd_fragment *f, uint32_t s,
			   VkStencilOp op)
{
	const VkStencilOpState *so = f->front ? &r->st->front : &r->st->back;
	const struct rd_attachment *a = &r->st->depth_stencil;
	uint8_t *t = texel(r, a, f->x, f->y, s);
	uint8_t old = rd_format_load_stencil(a->fmt, t);
	uint8_t v = stencil_op(op, old, (uint8_t)so->reference);
	uint8_t wm = (uint8_t)so->writeMask;
	rd_format_store_stencil(a->fmt, t, (uint8_t)((old & ~wm) | (v & wm)));
}

/* Interpolation -----------------------------------------------------------*/

/* Screen-space weights of the primitive's vertices at subpixel (X, Y):
 * barycentric coordinates for triangles (spec "Barycentric Interpolation"),
 * (1 - t, t) for lines with t the projection on the segment (spec "Basic
 * Line Segment Rasterization"; clamped to the segment when `clamp`, for a
 * fragment centre past its end), 1 for points. */
static uint32_t weights(const struct rd_prim *p, double X, double Y, bool clamp, double w[3])
{
	switch (p->kind) {
	case PRIM_POINT:
		w[0] = 1.0;
		return 1;
	case PRIM_LINE: {
		double dx = p->vx[1] - p->vx[0], dy = p->vy[1] - p->vy[0];
		double t = ((X - p->vx[0]) * dx + (Y - p->vy[0]) * dy) / p->len2;
		if (clamp)
			t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
		w[0] = 1.0 - t;
		w[1] = t;
		return 2;
	}
	case PRIM_TRIANGLE:
	default:
		w[0] = ((p->vx[2] - p->vx[1]) * (Y - p->vy[1]) - (p->vy[2] - p->vy[1]) * (X - p->vx[1])) /
		       p->area2;
		w[1] = ((p->vx[0] - p->vx[2]) * (Y - p->vy[2]) - (p->vy[0] - p->vy[2]) * (X - p->vx[2])) /
		       p->area2;
		w[2] = 1.0 - w[0] - w[1];
		return 3;
	}
}

/* The depth plane through the primitive's vertices: the weights are
 * linear in (X, Y), so three evaluations give it (for a line, the
 * unclamped t, exact inside its rectangle). */
static void depth_plane(struct rd_prim *p)
{
	double w[3], z[3];
	for (int k = 0; k < 3; k++) {
		double X = k == 1 ? RD_SUBPIXEL : 0.0, Y = k == 2 ? RD_SUBPIXEL : 0.0;
		uint32_t n = weights(p, X, Y, false, w);
		z[k] = 0.0;
		for (uint32_t i = 0; i < n; i++)
			z[k] += w[i] * p->v[i]->z;
	}
	p->z0 = z[0];
	p->zx = (z[1] - z[0]) / RD_SUBPIXEL;
	p->zy = (z[2] - z[0]) / RD_SUBPIXEL;
}

/* The fragment shader's inputs at (X, Y): perspective-correct by default,
 * linear for NoPerspective, the provoking vertex's for Flat (spec
 * "Interpolation Decorations").  Also zf and 1/wc for FragCoord. */
static void interpolate(const struct rd_raster *r, const struct rd_prim *p, double X, double Y,
			struct rd_invocation *inv)
{
	double w[3], q[3];
	uint32_t n = weights(p, X, Y, true, w);
	double z = 0.0, iw = 0.0;
	for (uint32_t i = 0; i < n; i++) {
		z += w[i] * p->v[i]->z;
		iw += w[i] * p->v[i]->inv_w;
	}
	for (uint32_t i = 0; i < n; i++)
		q[i] = iw > 0.0 ? w[i] * p->v[i]->inv_w / iw : w[i];
	inv->frag_coord[2] = (float)z;
	inv->frag_coord[3] = (float)iw;
	for (uint32_t m = r->in_mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		if (r->flat_mask >> l & 1) {
			memcpy(inv->in[l], p->flat[l], sizeof(inv->in[l]));
			continue;
		}
		const double *k = (r->noperspective_mask >> l & 1) ? w : q;
		for (int c = 0; c < 4; c++) {
			double acc = 0.0;
			for (uint32_t i = 0; i < n; i++)
				acc += k[i] * (double)as_float(p->v[i]->var[l][c]);
			inv->in[l][c] = as_word((float)acc);
		}
	}
}

/* Fragment stages (spec "Fragment Operations") ---------------------------*/

/* Spec "Multisample Coverage", alpha to coverage: a temporary coverage
 * mask from the alpha of the colour output at Location 0 (a bit pattern in
 * out[0][3]), "the number of 1's in this value be proportional to the
 * alpha value (clamped to [0,1]), with all 1's corresponding to a value of
 * 1.0 and all 0's corresponding to 0.0"; the algorithm is not specified:
 * here round(alpha * samples) bits from sample 0 up.  A shader that does
 * not write Location 0 leaves it 0.0 (stage_shade zeroes the outputs). */
static uint32_t alpha_coverage(uint32_t alpha_bits, uint32_t samples)
{
	float a;
	memcpy(&a, &alpha_bits, sizeof(a));
	if (!(a > 0.0f)) /* NaN too */
		return 0;
	if (a >= 1.0f)
		return samples >= 32 ? ~0u : (1u << samples) - 1;
	uint32_t n = (uint32_t)(a * (float)samples + 0.5f);
	return n >= 32 ? ~0u : (1u << n) - 1;
}

/* Fragment shading, then "Multisample Coverage": a discarded invocation's
 * samples and those cleared in its SampleMask output lose coverage, and
 * with alpha to coverage those alpha_coverage clears. */
static bool stage_shade(struct rd_raster *r, struct rd_fragment *f)
{
	const struct rd_graphics_state *st = r->st;
	const struct rd_entry_info *fi = &st->fs_info;
	const float(*loc)[2] = rd_sample_locations(r->samples);
	bool late_depth = fi->writes_frag_depth && !fi->early_fragment_tests;
	uint32_t runs = r->per_sample ? f->cov : 1;
	uint32_t cov = 0;
	uint32_t ncolor = st->color_count < RD_MAX_COLOR ? st->color_count : RD_MAX_COLOR;
	for (; runs; runs &= runs - 1) {
		uint32_t s = (uint32_t)__builtin_ctz(runs);
		struct rd_invocation *inv = &r->inv;
		double fx = 0.5, fy = 0.5;
		uint32_t mine = f->cov;
		if (r->per_sample) {
			/* Spec "FragCoord": with sample shading, x and y are the
			 * location of the invocation's sample. */
			fx = loc[s][0];
			fy = loc[s][1];
			mine = 1u << s;
		}
		inv->sample_id = r->per_sample ? s : 0;
		inv->sample_position[0] = (float)fx;
		inv->sample_position[1] = (float)fy;
		inv->frag_coord[0] = (float)((double)f->x + fx);
		inv->frag_coord[1] = (float)((double)f->y + fy);
		interpolate(r, f->prim, ((double)f->x + fx) * RD_SUBPIXEL,
			    ((double)f->y + fy) * RD_SUBPIXEL, inv);
		inv->front_facing = f->front;
		inv->sample_mask_in = mine;
		/* outputs: unwritten ones read as zero (colour), the defaults
		 * rd_spirv.h names, or this fragment's depth */
		/* (fixed-size copies per location: variable-length ones become
		 * "rep" string instructions, slow to start for 16 bytes) */
		for (uint32_t i = 0; i < ncolor; i++)
			memset(inv->out[i], 0, sizeof(inv->out[i]));
		memset(inv->position, 0, sizeof(inv->position));
		inv->point_size = 1.0f;
		inv->frag_depth = inv->frag_coord[2];
		inv->sample_mask_out = ~0u;
		inv->discarded = false;
		if (r->fs(r->fs_user, inv, r->err, r->errsize) != 0) {
			r->failed = true;
			return false;
		}
		/* Spec 18.4: one invocation per fragment, or per sample with
		 * sample shading; no helper invocations here. */
		r->c->fs_invocations[r->view]++;
		uint32_t keep = inv->discarded ? 0 : mine;
		if (fi->writes_sample_mask)
			keep &= inv->sample_mask_out;
		if (st->alpha_to_coverage)
			keep &= alpha_coverage(inv->out[0][3], r->samples);
		cov |= keep;
		uint32_t slot = r->per_sample ? s : 0;
		for (uint32_t i = 0; i < ncolor; i++)
			memcpy(f->color[slot][i], inv->out[i], sizeof(inv->out[i]));
		if (late_depth) {
			/* "Depth Test": with depth clamping zf is clamped to the
			 * viewport's range; without it, a FragDepth outside [0, 1]
			 * is undefined (no VK_EXT_depth_range_unrestricted), and
			 * clamping is the choice made here. */
			float d = st->depth_clamp ? clampf(inv->frag_depth, r->zmin, r->zmax)
						  : clampf(inv->frag_depth, 0.0f, 1.0f);
			for (uint32_t m = keep; m; m &= m - 1)
				f->z[__builtin_ctz(m)] = d;
		}
	}
	f->cov = cov;
	return cov != 0;
}

/* Spec "Depth Bounds Test": the stored depth za of each sample must lie in
 * [minDepthBounds, maxDepthBounds]. */
static bool stage_depth_bounds(struct rd_raster *r, struct rd_fragment *f)
{
	const struct rd_attachment *a = &r->st->depth_stencil;
	for (uint32_t m = f->cov; m; m &= m - 1) {
		uint32_t s = (uint32_t)__builtin_ctz(m);
		float za = rd_format_load_depth(a->fmt, texel(r, a, f->x, f->y, s));
		if (!(za >= r->st->min_depth_bounds && za <= r->st->max_depth_bounds))
			f->cov &= ~(1u << s);
	}
	return f->cov != 0;
}

/* Spec "Stencil Test": (reference & compareMask) op (stored & compareMask),
 * the front or back state by the primitive's facing (points and lines are
 * front-facing); failing samples take failOp and lose coverage. */
static bool stage_stencil(struct rd_raster *r, struct rd_fragment *f)
{
	const VkStencilOpState *so = f->front ? &r->st->front : &r->st->back;
	const struct rd_attachment *a = &r->st->depth_stencil;
	f->stencil_pass = 0;
	for (uint32_t m = f->cov; m; m &= m - 1) {
		uint32_t s = (uint32_t)__builtin_ctz(m);
		uint8_t sa = rd_format_load_stencil(a->fmt, texel(r, a, f->x, f->y, s));
		if (compare(so->compareOp, so->reference & so->compareMask, sa & so->compareMask)) {
			f->stencil_pass |= 1u << s;
		} else {
			stencil_update(r, f, s, so->failOp);
			f->cov &= ~(1u << s);
		}
	}
	return f->cov != 0;
}

/* Spec "Depth Test": zf op za per sample; passing samples write zf when
 * depth writes are on; then the stencil attachment takes passOp or
 * depthFailOp (a disabled depth test passes). */
static bool stage_depth(struct rd_raster *r, struct rd_fragment *f)
{
	const struct rd_graphics_state *st = r->st;
	const struct rd_attachment *a = &st->depth_stencil;
	const VkStencilOpState *so = f->front ? &st->front : &st->back;
	bool depth = st->depth_test && a->fmt->depth;
	bool stencil = st->stencil_test && a->fmt->stencil;
	uint8_t *px = texel(r, a, f->x, f->y, 0);
	for (uint32_t m = f->cov; m; m &= m - 1) {
		uint32_t s = (uint32_t)__builtin_ctz(m);
		bool pass = true;
		if (depth) {
			uint8_t *t = px + s * a->fmt->texel_size;
			float zf = f->z[s];
			if (st->depth_clamp)
				zf = clampf(zf, r->zmin, r->zmax);
			zf = quantize_depth(a->fmt, zf);
			pass = compare(st->depth_compare, zf, rd_format_load_depth(a->fmt, t));
			if (pass && st->depth_write)
				rd_format_store_depth(a->fmt, t, zf);
		}
		if (stencil)
			stencil_update(r, f, s, pass ? so->passOp : so->depthFailOp);
		if (!pass)
			f->cov &= ~(1u << s);
	}
	return f->cov != 0;
}

/* Spec 18.3 "Occlusion Queries": "the occlusion query sample counter
 * increments by one for each sample with a coverage value of 1 in each
 * fragment that survives all the per-fragment tests". */
static bool stage_count(struct rd_raster *r, struct rd_fragment *f)
{
	uint64_t n = 0;
	for (uint32_t m = f->cov; m; m &= m - 1) /* at most 4 bits */
		n++;
	r->c->samples_passed[r->view] += n;
	return true;
}

/* A shader output converted to the attachment's texel. */
static void convert_color(const struct rd_format_info *fi, const uint32_t w[4], uint8_t nt[16])
{
	memset(nt, 0, 16);
	if (fi->is_uint || fi->is_sint) {
		rd_format_store_color_u(fi, nt, w);
	} else {
		float v[4] = {as_float(w[0]), as_float(w[1]), as_float(w[2]), as_float(w[3])};
		rd_format_store_color(fi, nt, v);
	}
}

/* Spec "Color Write Mask": components outside the mask keep their stored
 * bytes (no load/store round trip, which sRGB might not survive). */
static void write_texel(const struct rd_format_info *fi, uint8_t *t, const uint8_t nt[16],
			VkColorComponentFlags mask)
{
	if ((mask & 0xf) == 0xf) {
		if (fi->texel_size == 4) /* the common case as a fixed-size copy */
			memcpy(t, nt, 4);
		else
			memcpy(t, nt, fi->texel_size);
		return;
	}
	uint32_t csize = fi->texel_size / fi->components;
	for (uint32_t j = 0; j < fi->components; j++) {
		/* Memory order B, G, R, A for B8G8R8A8; the mask names R, G, B, A. */
		uint32_t logical = (fi->format == VK_FORMAT_B8G8R8A8_UNORM && (j == 0 || j == 2)) ? 2 - j : j;
		if (mask >> logical & 1)
			memcpy(t + j * csize, nt + j * csize, csize);
	}
}

/* Spec "Blend Factors": factor f for component k (3 = alpha) of source s,
 * destination d and the blend constants c. */
static float blend_factor(VkBlendFactor f, int k, const float s[4], const float d[4], const float c[4])
{
	switch (f) {
	case VK_BLEND_FACTOR_ZERO: return 0.0f;
	case VK_BLEND_FACTOR_ONE: return 1.0f;
	case VK_BLEND_FACTOR_SRC_COLOR: return s[k];
	case VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR: return 1.0f - s[k];
	case VK_BLEND_FACTOR_DST_COLOR: return d[k];
	case VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR: return 1.0f - d[k];
	case VK_BLEND_FACTOR_SRC_ALPHA: return s[3];
	case VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA: return 1.0f - s[3];
	case VK_BLEND_FACTOR_DST_ALPHA: return d[3];
	case VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA: return 1.0f - d[3];
	case VK_BLEND_FACTOR_CONSTANT_COLOR: return c[k];
	case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR: return 1.0f - c[k];
	case VK_BLEND_FACTOR_CONSTANT_ALPHA: return c[3];
	case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA: return 1.0f - c[3];
	case VK_BLEND_FACTOR_SRC_ALPHA_SATURATE:
		return k == 3 ? 1.0f : fminf(s[3], 1.0f - d[3]);
	default: return 0.0f; /* dual-source factors are refused at pipeline creation */
	}
}

/* Spec "Blend Operations" on one texel: the source words w, the stored
 * texel t; the result, stored in the attachment's format, in nt.  For
 * UNORM and sRGB attachments source and destination are clamped to [0, 1]
 * first (sRGB destinations blend in linear space: the load converts). */
static void blend_texel(const struct rd_graphics_state *st, uint32_t i, const struct rd_format_info *fi,
			const uint32_t w[4], const uint8_t *t, uint8_t nt[16])
{
	const VkPipelineColorBlendAttachmentState *b = &st->blend[i];
	float s[4] = {as_float(w[0]), as_float(w[1]), as_float(w[2]), as_float(w[3])}, d[4], o[4];
	rd_format_load_color(fi, t, d);
	if (!fi->is_float)
		for (int k = 0; k < 4; k++)
			s[k] = clampf(s[k], 0.0f, 1.0f), d[k] = clampf(d[k], 0.0f, 1.0f);
	for (int k = 0; k < 4; k++) {
		VkBlendOp op = k == 3 ? b->alphaBlendOp : b->colorBlendOp;
		float sf = blend_factor(k == 3 ? b->srcAlphaBlendFactor : b->srcColorBlendFactor, k, s, d,
					st->blend_constants);
		float df = blend_factor(k == 3 ? b->dstAlphaBlendFactor : b->dstColorBlendFactor, k, s, d,
					st->blend_constants);
		switch (op) {
		case VK_BLEND_OP_SUBTRACT: o[k] = s[k] * sf - d[k] * df; break;
		case VK_BLEND_OP_REVERSE_SUBTRACT: o[k] = d[k] * df - s[k] * sf; break;
		case VK_BLEND_OP_MIN: o[k] = fminf(s[k], d[k]); break;
		case VK_BLEND_OP_MAX: o[k] = fmaxf(s[k], d[k]); break;
		default: o[k] = s[k] * sf + d[k] * df; break;
		}
	}
	memset(nt, 0, 16);
	rd_format_store_color(fi, nt, o);
}

/* Each covered sample takes its fragment's (or its own invocation's)
 * output for every attachment the shader writes, blended where the
 * attachment blends (integer formats never do: "Blending ... only
 * applies to fixed-point and floating-point color attachments"). */
static bool stage_color(struct rd_raster *r, struct rd_fragment *f)
{
	const struct rd_graphics_state *st = r->st;
	for (uint32_t i = 0; i < st->color_count && i < RD_MAX_COLOR; i++) {
		const struct rd_attachment *a = &st->color[i];
		if (!a->base || !(st->fs_info.output_mask >> i & 1) || !st->color_write_mask[i])
			continue;
		bool blend = st->blend[i].blendEnable && !a->fmt->is_uint && !a->fmt->is_sint;
		uint8_t nt[16];
		if (!r->per_sample && !blend)
			convert_color(a->fmt, f->color[0][i], nt);
		uint8_t *px = texel(r, a, f->x, f->y, 0);
		for (uint32_t m = f->cov; m; m &= m - 1) {
			uint32_t s = (uint32_t)__builtin_ctz(m);
			uint8_t *t = px + s * a->fmt->texel_size;
			const uint32_t *w = f->color[r->per_sample ? s : 0][i];
			if (blend)
				blend_texel(st, i, a->fmt, w, t, nt);
			else if (r->per_sample)
				convert_color(a->fmt, w, nt);
			write_texel(a->fmt, t, nt, st->color_write_mask[i]);
		}
	}
	return true;
}

static void run_fragment(struct rd_raster *r, struct rd_fragment *f)
{
	for (uint32_t i = 0; i < r->nstages; i++)
		if (!r->stages[i](r, f))
			return;
}

/* Coverage ----------------------------------------------------------------*/

/* Snaps a framebuffer coordinate to the subpixel grid ("Rasterization":
 * subPixelPrecisionBits); false past RD_COORD_MAX (and for NaN). */
static bool snap(double v, int64_t *out)
{
	if (!(v >= -RD_COORD_MAX && v <= RD_COORD_MAX))
		return false;
	*out = (int64_t)llround(v * RD_SUBPIXEL);
	return true;
}

/* Sets up the edges of a convex polygon of k <= 4 snapped vertices in
 * positive order (cross(v1 - v0, v2 - v0) > 0) and its bounding box.
 * Spec "Polygon Rasterization": a sample on an edge shared by two
 * primitives must be covered by exactly one; the top-left rule does that
 * because the shared edge runs in opposite directions in the two.  With
 * E(P) = cross(B - A, P - A) > 0 inside and y pointing down, the edges
 * whose ties count are the left ones (dy < 0) and the top ones (dy == 0,
 * dx > 0).  False when the box misses the pixel bounds. */
static bool setup_edges(const struct rd_raster *r, struct rd_prim *p, const int64_t *X,
			const int64_t *Y, uint32_t k)
{
	int64_t minx = X[0], maxx = X[0], miny = Y[0], maxy = Y[0];
	p->nedges = k;
	for (uint32_t i = 0; i < k; i++) {
		uint32_t j = (i + 1) % k;
		int64_t dx = X[j] - X[i], dy = Y[j] - Y[i];
		bool top_left = dy < 0 || (dy == 0 && dx > 0);
		p->a[i] = -dy;
		p->b[i] = dx;
		p->c[i] = dy * X[i] - dx * Y[i] - (top_left ? 0 : 1);
		minx = min64(minx, X[i]);
		maxx = max64(maxx, X[i]);
		miny = min64(miny, Y[i]);
		maxy = max64(maxy, Y[i]);
	}
	p->x0 = max64(floor_div(minx, RD_SUBPIXEL), r->x0);
	p->y0 = max64(floor_div(miny, RD_SUBPIXEL), r->y0);
	p->x1 = min64(floor_div(maxx + RD_SUBPIXEL - 1, RD_SUBPIXEL), r->x1);
	p->y1 = min64(floor_div(maxy + RD_SUBPIXEL - 1, RD_SUBPIXEL), r->y1);
	return p->x0 < p->x1 && p->y0 < p->y1;
}

/* Walks the pixels of the primitive's box (already inside the scissor: a
 * pixel outside it keeps no sample, one inside keeps all, spec "Scissor
 * Test"), builds each fragment's coverage at the sample locations, ANDs
 * the sample mask ("Sample Mask Test") and runs the fragment chain. */
static int scan(struct rd_raster *r, struct rd_prim *p)
{
	depth_plane(p);
	struct rd_fragment f;
	f.prim = p;
	f.front = p->front;
	/* Edge k at sample s of the pixel at (x, y) is e[k] + off[k][s], with
	 * e[k] the value at the pixel's corner; lo/hi bound it over the
	 * samples, so most pixels are decided whole. */
	uint32_t full = (1u << r->samples) - 1;
	int64_t off[4][RD_RASTER_MAX_SAMPLES], lo[4], hi[4];
	for (uint32_t k = 0; k < p->nedges; k++) {
		lo[k] = INT64_MAX;
		hi[k] = INT64_MIN;
		for (uint32_t s = 0; s < r->samples; s++) {
			off[k][s] = p->a[k] * r->sample_xy[s][0] + p->b[k] * r->sample_xy[s][1];
			lo[k] = min64(lo[k], off[k][s]);
			hi[k] = max64(hi[k], off[k][s]);
		}
	}
	for (int64_t y = p->y0; y < p->y1; y++) {
		int64_t e[4];
		for (uint32_t k = 0; k < p->nedges; k++)
			e[k] = p->a[k] * p->x0 * RD_SUBPIXEL + p->b[k] * y * RD_SUBPIXEL + p->c[k];
		for (int64_t x = p->x0; x < p->x1; x++) {
			bool all = true, none = false;
			for (uint32_t k = 0; k < p->nedges; k++) {
				all &= e[k] + lo[k] >= 0;
				none |= e[k] + hi[k] < 0;
			}
			uint32_t cov = all ? full : 0;
			if (!all && !none)
				for (uint32_t s = 0; s < r->samples; s++) {
					bool in = true;
					for (uint32_t k = 0; k < p->nedges; k++)
						in &= e[k] + off[k][s] >= 0;
					cov |= (uint32_t)in << s;
				}
			for (uint32_t k = 0; k < p->nedges; k++)
				e[k] += p->a[k] * RD_SUBPIXEL;
			cov &= r->sample_mask;
			if (!cov)
				continue;
			f.x = x;
			f.y = y;
			f.cov = cov;
			if (r->need_z)
				for (uint32_t m = cov; m; m &= m - 1) {
					uint32_t s = (uint32_t)__builtin_ctz(m);
					double z = p->zx * (double)(x * RD_SUBPIXEL + r->sample_xy[s][0]) +
						   p->zy * (double)(y * RD_SUBPIXEL + r->sample_xy[s][1]) + p->z0;
					/* Clipping keeps zf in the depth range; the clamp
					 * only absorbs rounding. */
					f.z[s] = clampf((float)z, r->zmin, r->zmax);
				}
			run_fragment(r, &f);
			if (r->failed)
				return -1;
		}
	}
	return 0;
}

/* Primitives --------------------------------------------------------------*/

/* cross(v1 - v0, v2 - v0) of snapped vertices: positive order when > 0. */
static int64_t cross3(const int64_t *X, const int64_t *Y)
{
	return (X[1] - X[0]) * (Y[2] - Y[0]) - (Y[1] - Y[0]) * (X[2] - X[0]);
}

static void swap_xy(int64_t *X, int64_t *Y, int i, int j)
{
	int64_t t = X[i];
	X[i] = X[j];
	X[j] = t;
	t = Y[i];
	Y[i] = Y[j];
	Y[j] = t;
}

/* Spec "Basic Point Rasterization": the samples inside a square of side
 * the point size centred on (xf, yf); size clamped to pointSizeRange.  The
 * square's left and top sides are inclusive, right and bottom exclusive. */
static int point(struct rd_raster *r, const struct rd_raster_vertex *v, bool front)
{
	float size = v->point_size;
	if (!(size >= RD_POINT_SIZE_MIN))
		size = RD_POINT_SIZE_MIN;
	if (size > RD_POINT_SIZE_MAX)
		size = RD_POINT_SIZE_MAX;
	double h = size / 2.0;
	int64_t lx, ly, hx, hy;
	if (!snap(v->x - h, &lx) || !snap(v->y - h, &ly) || !snap(v->x + h, &hx) ||
	    !snap(v->y + h, &hy))
		return 0;
	struct rd_prim p = {.kind = PRIM_POINT, .front = front, .flat = v->var};
	p.v[0] = v;
	int64_t X[4] = {lx, hx, hx, lx}, Y[4] = {ly, ly, hy, hy};
	if (!setup_edges(r, &p, X, Y, 4))
		return 0;
	return scan(r, &p);
}

/* Lines are rectangles of the line width centred on the segment (spec
 * "Basic Line Segment Rasterization", strict lines); the rectangle's sides
 * go through the same edge functions, so the shared end of two segments of
 * a straight strip is covered once. */
static int line(struct rd_raster *r, const struct rd_raster_vertex *a,
		const struct rd_raster_vertex *b, const uint32_t (*flat)[4], bool front)
{
	float width = r->st->line_width;
	if (!(width >= RD_LINE_WIDTH_MIN))
		width = RD_LINE_WIDTH_MIN;
	if (width > RD_LINE_WIDTH_MAX)
		width = RD_LINE_WIDTH_MAX;
	double dx = b->x - a->x, dy = b->y - a->y;
	double len = sqrt(dx * dx + dy * dy);
	if (!(len > 0.0) || !isfinite(len))
		return 0;
	double nx = -dy / len * width / 2.0, ny = dx / len * width / 2.0;
	int64_t X[4], Y[4];
	if (!snap(a->x + nx, &X[0]) || !snap(a->y + ny, &Y[0]) || !snap(b->x + nx, &X[1]) ||
	    !snap(b->y + ny, &Y[1]) || !snap(b->x - nx, &X[2]) || !snap(b->y - ny, &Y[2]) ||
	    !snap(a->x - nx, &X[3]) || !snap(a->y - ny, &Y[3]))
		return 0;
	int64_t cross = cross3(X, Y);
	if (cross == 0)
		return 0;
	if (cross < 0) /* make the order positive: reverse */
		swap_xy(X, Y, 1, 3);
	struct rd_prim p = {.kind = PRIM_LINE, .front = front, .flat = flat};
	p.v[0] = a;
	p.v[1] = b;
	p.vx[0] = a->x * RD_SUBPIXEL;
	p.vy[0] = a->y * RD_SUBPIXEL;
	p.vx[1] = b->x * RD_SUBPIXEL;
	p.vy[1] = b->y * RD_SUBPIXEL;
	p.len2 = (p.vx[1] - p.vx[0]) * (p.vx[1] - p.vx[0]) + (p.vy[1] - p.vy[0]) * (p.vy[1] - p.vy[0]);
	if (!setup_edges(r, &p, X, Y, 4))
		return 0;
	return scan(r, &p);
}

static int triangle(struct rd_raster *r, const struct rd_raster_vertex *v0,
		    const struct rd_raster_vertex *v1, const struct rd_raster_vertex *v2,
		    const int64_t X_in[3], const int64_t Y_in[3], const uint32_t (*flat)[4],
		    bool front)
{
	int64_t X[3] = {X_in[0], X_in[1], X_in[2]}, Y[3] = {Y_in[0], Y_in[1], Y_in[2]};
	int64_t cross = cross3(X, Y);
	if (cross == 0)
		return 0; /* no area: no sample is inside all three edges' open sides */
	struct rd_prim p = {.kind = PRIM_TRIANGLE, .front = front, .flat = flat};
	p.v[0] = v0;
	p.v[1] = v1;
	p.v[2] = v2;
	if (cross < 0) { /* coverage wants positive order; facing is already known */
		swap_xy(X, Y, 1, 2);
		p.v[1] = v2;
		p.v[2] = v1;
		cross = -cross;
	}
	for (int i = 0; i < 3; i++) {
		p.vx[i] = (double)X[i];
		p.vy[i] = (double)Y[i];
	}
	p.area2 = (double)cross;
	if (!setup_edges(r, &p, X, Y, 3))
		return 0;
	return scan(r, &p);
}

int rd_raster_point(struct rd_raster *r, const struct rd_raster_vertex *v)
{
	return point(r, v, true);
}

int rd_raster_line(struct rd_raster *r, const struct rd_raster_vertex *a,
		   const struct rd_raster_vertex *b, const uint32_t (*flat)[4])
{
	return line(r, a, b, flat, true);
}

/* Spec "Basic Polygon Rasterization": the signed area
 *     a = -1/2 sum_i (xf_i yf_(i+1) - xf_(i+1) yf_i)
 * decides facing (positive is front-facing for COUNTER_CLOCKWISE), culling
 * drops the faces cull_mode names, and the polygon mode picks how the
 * survivor is drawn ("Polygon Mode"): filled as a fan of triangles, its
 * original edges as lines, or its original vertices as points. */
/* Snaps the polygon and decides its facing; false when it has no area,
 * a vertex past the coordinate range, or its face is culled. */
static bool polygon_face(const struct rd_graphics_state *st, const struct rd_raster_vertex *v, uint32_t n,
			 int64_t *X, int64_t *Y, bool *front)
{
	for (uint32_t i = 0; i < n; i++)
		if (!snap(v[i].x, &X[i]) || !snap(v[i].y, &Y[i]))
			return false;
	int64_t sum = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t j = (i + 1) % n;
		sum += X[i] * Y[j] - X[j] * Y[i];
	}
	if (sum == 0)
		return false;
	bool positive = sum < 0; /* a = -sum / 2 */
	*front = st->front_face == VK_FRONT_FACE_COUNTER_CLOCKWISE ? positive : !positive;
	return !(st->cull_mode & (*front ? VK_CULL_MODE_FRONT_BIT : VK_CULL_MODE_BACK_BIT));
}

bool rd_raster_polygon_culled(const struct rd_graphics_state *st, const struct rd_raster_vertex *v,
			      uint32_t n)
{
	int64_t X[RD_RASTER_MAX_POLYGON], Y[RD_RASTER_MAX_POLYGON];
	bool front;
	return n < 3 || n > RD_RASTER_MAX_POLYGON || !polygon_face(st, v, n, X, Y, &front);
}

int rd_raster_polygon(struct rd_raster *r, const struct rd_raster_vertex *v, uint32_t n,
		      const uint32_t (*flat)[4])
{
	if (n < 3)
		return 0;
	if (n > RD_RASTER_MAX_POLYGON)
		return fail(r, "polygon has too many vertices");
	int64_t X[RD_RASTER_MAX_POLYGON], Y[RD_RASTER_MAX_POLYGON];
	bool front;
	if (!polygon_face(r->st, v, n, X, Y, &front))
		return 0;
	switch (r->st->polygon_mode) {
	case VK_POLYGON_MODE_FILL:
		for (uint32_t i = 1; i + 1 < n; i++) {
			int64_t tx[3] = {X[0], X[i], X[i + 1]}, ty[3] = {Y[0], Y[i], Y[i + 1]};
			if (triangle(r, &v[0], &v[i], &v[i + 1], tx, ty, flat, front))
				return -1;
		}
		return 0;
	case VK_POLYGON_MODE_LINE:
		for (uint32_t i = 0; i < n; i++)
			if (v[i].edge && line(r, &v[i], &v[(i + 1) % n], flat, front))
				return -1;
		return 0;
	case VK_POLYGON_MODE_POINT:
		for (uint32_t i = 0; i < n; i++)
			if (v[i].orig && point(r, &v[i], front))
				return -1;
		return 0;
	default:
		return fail(r, "unsupported polygon mode");
	}
}

/* Setup -------------------------------------------------------------------*/

static void add_stage(struct rd_raster *r, rd_fragment_stage s)
{
	if (r->nstages < RD_RASTER_MAX_STAGES)
		r->stages[r->nstages++] = s;
}

int rd_raster_begin(struct rd_raster *r, const struct rd_graphics_state *st, uint32_t view,
		    rd_stage_fn fs, void *fs_user, struct rd_draw_counters *c, char *err,
		    size_t errsize)
{
	memset(r, 0, sizeof(*r));
	r->st = st;
	r->c = c;
	r->fs = fs;
	r->fs_user = fs_user;
	r->err = err;
	r->errsize = errsize;
	if (st->samples != VK_SAMPLE_COUNT_1_BIT && st->samples != VK_SAMPLE_COUNT_4_BIT) {
		snprintf(err, errsize, "rasterization: %u samples (the device supports 1 and 4)",
			 (unsigned)st->samples);
		return -1;
	}
	if (view >= RD_MAX_VIEWS) {
		snprintf(err, errsize, "rasterization: view %u (at most %u views)", view, RD_MAX_VIEWS);
		return -1;
	}
	r->view = view;
	r->layer = st->view_mask ? view : 0;
	r->samples = (uint32_t)st->samples;
	r->sample_mask = st->sample_mask & ((1u << r->samples) - 1);
	const float(*loc)[2] = rd_sample_locations(r->samples);
	for (uint32_t s = 0; s < r->samples; s++) {
		/* Standard locations are multiples of 1/8 pixel: exact in subpixels. */
		r->sample_xy[s][0] = (int32_t)lrint(loc[s][0] * RD_SUBPIXEL);
		r->sample_xy[s][1] = (int32_t)lrint(loc[s][1] * RD_SUBPIXEL);
	}

	/* Pixel bounds: the scissor ("Scissor Test") within the render area
	 * and every attachment's extent, so no texel address leaves memory. */
	r->x0 = max64(max64(st->scissor.offset.x, st->render_area.offset.x), 0);
	r->y0 = max64(max64(st->scissor.offset.y, st->render_area.offset.y), 0);
	r->x1 = min64((int64_t)st->scissor.offset.x + st->scissor.extent.width,
		      (int64_t)st->render_area.offset.x + st->render_area.extent.width);
	r->y1 = min64((int64_t)st->scissor.offset.y + st->scissor.extent.height,
		      (int64_t)st->render_area.offset.y + st->render_area.extent.height);
	bool any_color = false;
	for (uint32_t i = 0; i < st->color_count && i < RD_MAX_COLOR; i++) {
		const struct rd_attachment *a = &st->color[i];
		if (!a->base)
			continue;
		const char *why = check_attachment(r, a, true);
		if (why) {
			snprintf(err, errsize, "colour attachment %u: %s", i, why);
			return -1;
		}
		r->x1 = min64(r->x1, a->width);
		r->y1 = min64(r->y1, a->height);
		any_color = true;
	}
	const struct rd_attachment *ds = &st->depth_stencil;
	if (ds->base) {
		const char *why = check_attachment(r, ds, false);
		if (why) {
			snprintf(err, errsize, "depth/stencil attachment: %s", why);
			return -1;
		}
		r->x1 = min64(r->x1, ds->width);
		r->y1 = min64(r->y1, ds->height);
	}
	/* Keeps the edge functions' products within int64 (see snap()). */
	r->x1 = min64(r->x1, (int64_t)RD_COORD_MAX);
	r->y1 = min64(r->y1, (int64_t)RD_COORD_MAX);
	r->zmin = fminf(st->viewport.minDepth, st->viewport.maxDepth);
	r->zmax = fmaxf(st->viewport.minDepth, st->viewport.maxDepth);

	r->inv.view_index = view;
	if (fs) {
		r->in_mask = st->fs_info.input_mask;
		r->flat_mask = st->fs_info.flat_mask;
		r->noperspective_mask = st->fs_info.noperspective_mask;
		r->per_sample = r->samples > 1 && (st->sample_shading || st->fs_info.reads_sample_id);
	}

	/* The fragment chain (spec "Fragment Operations"); the scissor and
	 * sample mask tests happen in scan().  With EarlyFragmentTests the
	 * shader and multisample coverage run after sample counting (spec:
	 * "fragment shading and multisample coverage operations should
	 * instead be performed after sample counting";
	 * earlyFragmentMultisampleCoverageAfterSampleCounting). */
	bool has_depth = ds->base && ds->fmt->depth, has_stencil = ds->base && ds->fmt->stencil;
	bool bounds = st->depth_bounds_test && has_depth;
	bool stencil = st->stencil_test && has_stencil;
	bool depth = st->depth_test && has_depth;
	bool early = fs && st->fs_info.early_fragment_tests;
	if (fs && !early)
		add_stage(r, stage_shade);
	if (bounds)
		add_stage(r, stage_depth_bounds);
	if (stencil)
		add_stage(r, stage_stencil);
	if (depth || stencil)
		add_stage(r, stage_depth);
	add_stage(r, stage_count);
	if (early)
		add_stage(r, stage_shade);
	if (fs && any_color)
		add_stage(r, stage_color);
	r->need_z = depth;
	return 0;
}
