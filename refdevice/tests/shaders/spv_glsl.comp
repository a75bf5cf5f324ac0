#version 450
// GLSL.std.450 instructions; operands come from the buffer so that
// glslang cannot fold them.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, std430) buffer B {
	float x[4];   // 1.75, -2.5, 0.5, 3.0
	int ix[4];    // -7, 12, 0x00f0, -1
	float r[48];
	int ir[16];
} b;

void main()
{
	float x0 = b.x[0], x1 = b.x[1], x2 = b.x[2], x3 = b.x[3];
	b.r[0] = round(x1);
	b.r[1] = roundEven(x1);
	b.r[2] = trunc(x0);
	b.r[3] = abs(x1);
	b.r[4] = sign(x1);
	b.r[5] = floor(x1);
	b.r[6] = ceil(x1);
	b.r[7] = fract(x0);
	b.r[8] = degrees(radians(x3));
	b.r[9] = sin(x2);
	b.r[10] = cos(x2);
	b.r[11] = tan(x2);
	b.r[12] = asin(x2);
	b.r[13] = acos(x2);
	b.r[14] = atan(x2);
	b.r[15] = atan(x2, x1);
	b.r[16] = pow(x3, x0);
	b.r[17] = exp(x2);
	b.r[18] = log(x3);
	b.r[19] = exp2(x3);
	b.r[20] = log2(x3 + 5.0);
	b.r[21] = sqrt(x3 + 6.0);
	b.r[22] = inversesqrt(4.0 * x0);
	b.r[23] = min(x0, x1);
	b.r[24] = max(x0, x1);
	b.r[25] = clamp(x3, x2, x0);
	b.r[26] = mix(x1, x3, x2 * 0.5);
	b.r[27] = step(x0, x3) + 2.0 * step(x3, x0);
	b.r[28] = smoothstep(0.0, x3 + 1.0, x0);
	b.r[29] = fma(x0, x1, x3);
	b.r[30] = length(vec2(x3, x3 + 1.0));
	b.r[31] = distance(vec2(x2, x2), vec2(x2 + 3.0, x2 + 4.0));
	vec3 c = cross(vec3(x3, 0.0, 0.0), vec3(0.0, x0, 0.0));
	b.r[32] = c.x;
	b.r[33] = c.y;
	b.r[34] = c.z;
	vec2 n = normalize(vec2(x3, x3 + 1.0));
	b.r[35] = n.x;
	b.r[36] = n.y;
	vec2 rf = reflect(vec2(x2, -x2), vec2(0.0, 1.0));
	b.r[37] = rf.x;
	b.r[38] = rf.y;
	vec2 ff = faceforward(vec2(x0, x1), vec2(x2, 0.0), vec2(1.0, 0.0));
	b.r[39] = ff.x;
	b.r[40] = ff.y;
	b.r[41] = sinh(x2) + cosh(x2) - exp(x2);
	vec3 mv = mix(vec3(x0), vec3(x3), vec3(0.0, x2, 1.0));
	b.r[42] = mv.x;
	b.r[43] = mv.y;
	b.r[44] = mv.z;
	b.r[45] = mod(x1, x3);
	b.r[46] = x1 / x2;
	b.r[47] = -x0;

	int i0 = b.ix[0], i1 = b.ix[1], i2 = b.ix[2], i3 = b.ix[3];
	b.ir[0] = abs(i0);
	b.ir[1] = sign(i0);
	b.ir[2] = min(i0, i1);
	b.ir[3] = max(i0, i1);
	b.ir[4] = clamp(i0, -3, i1);
	b.ir[5] = int(min(uint(i3), uint(i1)));
	b.ir[6] = int(max(uint(i3), uint(i1)));
	b.ir[7] = findLSB(i2);
	b.ir[8] = findMSB(i2);
	b.ir[9] = findMSB(i0);
	b.ir[10] = int(findMSB(uint(i3)));
	b.ir[11] = bitCount(i2);
	b.ir[12] = bitfieldExtract(i2, 4, 3);
	b.ir[13] = bitfieldExtract(i0, 0, 4);
	b.ir[14] = bitfieldInsert(i2, i3, 12, 8);
	b.ir[15] = bitfieldReverse(i2);
}
