/* Execution of GLSL.std.450 (the extended instruction set's own
 * specification; decoded by arithmetic.c). */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "exec.h"

static float g_fsign(float a)
{
	return a > 0.0f ? 1.0f : a < 0.0f ? -1.0f : a;
}

static float g_fmin(float a, float b)
{
	return b < a ? b : a;  /* "y if y < x, otherwise x" */
}

static float g_fmax(float a, float b)
{
	return a < b ? b : a;  /* "y if x < y, otherwise x" */
}

static float g_smoothstep(float e0, float e1, float x)
{
	float t = g_fmin(g_fmax((x - e0) / (e1 - e0), 0.0f), 1.0f);
	return t * t * (3.0f - 2.0f * t);
}

static uint32_t g_find_smsb(int32_t a)
{
	uint32_t v = a < 0 ? ~(uint32_t)a : (uint32_t)a;
	return v ? 31u - (uint32_t)__builtin_clz(v) : 0xffffffffu;
}

MAP1(g_round, float, f, OUT_F = roundf(a))
MAP1(g_roundeven, float, f, OUT_F = nearbyintf(a))  /* default mode: to nearest even */
MAP1(g_trunc, float, f, OUT_F = truncf(a))
MAP1(g_fabs, float, f, OUT_F = fabsf(a))
MAP1(g_sabs, int32_t, i, OUT_U = a < 0 ? 0u - (uint32_t)a : (uint32_t)a)
MAP1(g_fsign, float, f, OUT_F = g_fsign(a))
MAP1(g_ssign, int32_t, i, R[in->r + i].i = a > 0 ? 1 : a < 0 ? -1 : 0)
MAP1(g_floor, float, f, OUT_F = floorf(a))
MAP1(g_ceil, float, f, OUT_F = ceilf(a))
MAP1(g_fract, float, f, OUT_F = a - floorf(a))
MAP1(g_radians, float, f, OUT_F = a * 0.017453292519943295f)
MAP1(g_degrees, float, f, OUT_F = a * 57.29577951308232f)
MAP1(g_sin, float, f, OUT_F = sinf(a))
MAP1(g_cos, float, f, OUT_F = cosf(a))
MAP1(g_tan, float, f, OUT_F = tanf(a))
MAP1(g_asin, float, f, OUT_F = asinf(a))
MAP1(g_acos, float, f, OUT_F = acosf(a))
MAP1(g_atan, float, f, OUT_F = atanf(a))
MAP1(g_sinh, float, f, OUT_F = sinhf(a))
MAP1(g_cosh, float, f, OUT_F = coshf(a))
MAP1(g_tanh, float, f, OUT_F = tanhf(a))
MAP1(g_asinh, float, f, OUT_F = asinhf(a))
MAP1(g_acosh, float, f, OUT_F = acoshf(a))
MAP1(g_atanh, float, f, OUT_F = atanhf(a))
MAP2(g_atan2, float, f, OUT_F = atan2f(a, b))
MAP2(g_pow, float, f, OUT_F = powf(a, b))
MAP1(g_exp, float, f, OUT_F = expf(a))
MAP1(g_log, float, f, OUT_F = logf(a))
MAP1(g_exp2, float, f, OUT_F = exp2f(a))
MAP1(g_log2, float, f, OUT_F = log2f(a))
MAP1(g_sqrt, float, f, OUT_F = sqrtf(a))
MAP1(g_isqrt, float, f, OUT_F = 1.0f / sqrtf(a))
MAP2(g_fmin, float, f, OUT_F = g_fmin(a, b))
MAP2(g_umin, uint32_t, u, OUT_U = b < a ? b : a)
MAP2(g_smin, int32_t, i, R[in->r + i].i = b < a ? b : a)
MAP2(g_fmax, float, f, OUT_F = g_fmax(a, b))
MAP2(g_umax, uint32_t, u, OUT_U = a < b ? b : a)
MAP2(g_smax, int32_t, i, R[in->r + i].i = a < b ? b : a)
MAP3(g_fclamp, float, f, OUT_F = g_fmin(g_fmax(a, b), c))
MAP3(g_uclamp, uint32_t, u, uint32_t t = a < b ? b : a; OUT_U = c < t ? c : t)
MAP3(g_sclamp, int32_t, i, int32_t t = a < b ? b : a; R[in->r + i].i = c < t ? c : t)
MAP3(g_fmix, float, f, OUT_F = a * (1.0f - c) + b * c)  /* "x * (1 - a) + y * a" */
MAP2(g_step, float, f, OUT_F = b < a ? 0.0f : 1.0f)
MAP3(g_smoothstep, float, f, OUT_F = g_smoothstep(a, b, c))
MAP3(g_fma, float, f, OUT_F = fmaf(a, b, c))
MAP2(g_nmin, float, f, OUT_F = fminf(a, b))
MAP2(g_nmax, float, f, OUT_F = fmaxf(a, b))
MAP3(g_nclamp, float, f, OUT_F = fminf(fmaxf(a, b), c))
MAP1(g_findilsb, uint32_t, u, OUT_U = a ? (uint32_t)__builtin_ctz(a) : 0xffffffffu)
MAP1(g_findsmsb, int32_t, i, OUT_U = g_find_smsb(a))
MAP1(g_findumsb, uint32_t, u, OUT_U = a ? 31u - (uint32_t)__builtin_clz(a) : 0xffffffffu)

/* n is the operands' component count. */
HANDLER(g_length)
{
	union rd_word *R = st->R;
	R[in->r].f = sqrtf(dot(&R[in->a], 1, &R[in->a], 1, in->n));
	return in + 1;
}

HANDLER(g_distance)
{
	union rd_word *R = st->R, d[4] = { { 0 } };
	for (uint32_t i = 0; i < in->n && i < 4; i++)
		d[i].f = R[in->a + i].f - R[in->b + i].f;
	R[in->r].f = sqrtf(dot(d, 1, d, 1, in->n < 4 ? in->n : 4));
	return in + 1;
}

HANDLER(g_cross)
{
	union rd_word *R = st->R;
	const union rd_word *a = &R[in->a], *b = &R[in->b];
	float x = a[1].f * b[2].f - b[1].f * a[2].f;
	float y = a[2].f * b[0].f - b[2].f * a[0].f;
	float z = a[0].f * b[1].f - b[0].f * a[1].f;
	R[in->r].f = x;
	R[in->r + 1].f = y;
	R[in->r + 2].f = z;
	return in + 1;
}

HANDLER(g_normalize)
{
	union rd_word *R = st->R;
	float len = sqrtf(dot(&R[in->a], 1, &R[in->a], 1, in->n));
	for (uint32_t i = 0; i < in->n; i++)
		R[in->r + i].f = R[in->a + i].f / len;
	return in + 1;
}

/* FaceForward(N, I, Nref): N if dot(Nref, I) < 0, else -N. */
HANDLER(g_faceforward)
{
	union rd_word *R = st->R;
	bool keep = dot(&R[in->c], 1, &R[in->b], 1, in->n) < 0.0f;
	for (uint32_t i = 0; i < in->n; i++)
		R[in->r + i].f = keep ? R[in->a + i].f : -R[in->a + i].f;
	return in + 1;
}

/* Reflect(I, N) = I - 2 * dot(N, I) * N */
HANDLER(g_reflect)
{
	union rd_word *R = st->R;
	float d = dot(&R[in->b], 1, &R[in->a], 1, in->n);
	for (uint32_t i = 0; i < in->n; i++)
		R[in->r + i].f = R[in->a + i].f - 2.0f * d * R[in->b + i].f;
	return in + 1;
}

/* Refract(I, N, eta) */
HANDLER(g_refract)
{
	union rd_word *R = st->R;
	float eta = R[in->c].f, d = dot(&R[in->b], 1, &R[in->a], 1, in->n);
	float k = 1.0f - eta * eta * (1.0f - d * d);
	for (uint32_t i = 0; i < in->n; i++)
		R[in->r + i].f = k < 0.0f ? 0.0f : eta * R[in->a + i].f - (eta * d + sqrtf(k)) * R[in->b + i].f;
	return in + 1;
}
