#version 450
// std140 reads: offsets, array and matrix strides, a row-major matrix,
// an array of structs; static and dynamic indices.
layout(local_size_x = 1) in;
struct S {
	vec2 a;
	float b;
};
layout(set = 0, binding = 1, std140) uniform U {
	float f;                       // 0
	vec3 v;                        // 16
	int i;                         // 28
	mat3 m;                        // 32, 48, 64
	float arr[3];                  // 80, 96, 112
	layout(row_major) mat2 rm;     // 128 (rows at 128, 144)
	S s[2];                        // 160, 176
} u;
layout(set = 0, binding = 0, std430) buffer Out {
	float r[32];
} o;

void main()
{
	o.r[0] = u.f;
	o.r[1] = u.v.x;
	o.r[2] = u.v.y;
	o.r[3] = u.v.z;
	o.r[4] = float(u.i);
	o.r[5] = u.m[1][2];
	o.r[6] = u.m[u.i][0];
	o.r[7] = u.arr[2];
	o.r[8] = u.arr[u.i];
	o.r[9] = u.rm[1][0];
	o.r[10] = u.rm[0][1];
	vec2 col = u.rm[u.i];
	o.r[11] = col.x;
	o.r[12] = col.y;
	o.r[13] = u.s[1].a.y;
	o.r[14] = u.s[u.i].b;
	mat3 m = u.m;
	o.r[15] = m[2][1];
	S s = u.s[0];
	o.r[16] = s.a.x + s.b;
	mat2 rm = u.rm;
	o.r[17] = rm[0][0];
	o.r[18] = rm[0][1];
	o.r[19] = rm[1][0];
	o.r[20] = rm[1][1];
}
