#version 450
// Integer and bit operations, conversions, comparisons, NaN and infinity.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, std430) buffer B {
	int i[4];      // -7, 3, 0x7fffffff, 5
	uint u[4];     // 0xf0f0f0f0, 4, 0xffffffff, 40
	float f[4];    // -3.75, NaN, +inf, 2.5
	uint r[40];
} b;

void main()
{
	int i0 = b.i[0], i1 = b.i[1], i2 = b.i[2];
	uint u0 = b.u[0], u1 = b.u[1], u2 = b.u[2];
	float f0 = b.f[0], f1 = b.f[1], f2 = b.f[2], f3 = b.f[3];
	b.r[0] = uint(i0 >> 1);
	b.r[1] = u0 >> u1;
	b.r[2] = u0 << u1;
	b.r[3] = u0 & ~u1;
	b.r[4] = u0 | u1;
	b.r[5] = u0 ^ u2;
	b.r[6] = uint(i0 / i1);
	b.r[7] = u0 / u1;
	b.r[8] = u0 % 7u;
	b.r[9] = uint(int(f0));
	b.r[10] = uint(f3);
	b.r[11] = floatBitsToUint(float(i0));
	b.r[12] = floatBitsToUint(float(u2));
	b.r[13] = floatBitsToUint(uintBitsToFloat(u0));
	uint carry, borrow, hi, lo;
	b.r[14] = uaddCarry(u2, u1, carry);
	b.r[15] = carry;
	b.r[16] = usubBorrow(u1, u2, borrow);
	b.r[17] = borrow;
	umulExtended(u0, u1, hi, lo);
	b.r[18] = hi;
	b.r[19] = lo;
	int shi, slo;
	imulExtended(i0, i2, shi, slo);
	b.r[20] = uint(shi);
	b.r[21] = uint(slo);
	b.r[22] = isnan(f1) ? 1u : 0u;
	b.r[23] = isinf(f2) ? 1u : 0u;
	b.r[24] = (f1 < f0 || f1 >= f0) ? 1u : 0u;   // ordered: false
	b.r[25] = (f1 != f1) ? 1u : 0u;              // unordered not-equal: true
	b.r[26] = any(lessThan(ivec2(i0, i1), ivec2(-8, 4))) ? 1u : 0u;
	b.r[27] = all(lessThan(ivec2(i0, i1), ivec2(-8, 4))) ? 1u : 0u;
	b.r[28] = (i0 < i1 && u0 > u1) ? 1u : 0u;     // signed vs unsigned compare
	b.r[29] = uint(-i0);
	b.r[30] = uint(i2 + 1);                       // wraps
	bvec2 bv = bvec2(f0 < 0.0, f3 < 0.0);
	b.r[31] = (bv == bvec2(true, false)) ? 1u : 0u;
	b.r[32] = uint(mix(ivec2(1, 2), ivec2(3, 4), bv).x * 10 + mix(ivec2(1, 2), ivec2(3, 4), bv).y);
	vec4 sw = vec4(f0, f3, 1.0, 2.0).wzyx;
	b.r[33] = floatBitsToUint(sw.x + sw.y * 10.0);
	b.r[34] = uint(float(u1) * f3);
	b.r[35] = uint(-f3 < f0);
}
