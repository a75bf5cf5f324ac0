#version 450
// Matrix and vector products, transpose, outer product; a row-major
// matrix written to and read from a storage buffer.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, std430) buffer B {
	mat3 a;                      // 0: columns of 3 floats, stride 16
	mat3 b;                      // 48
	vec3 v;                      // 96
	layout(row_major) mat2x3 w;  // 112: 2 columns of 3 rows; 3 rows of 2 floats, stride 8
	float r[64];                 // 136
} m;

void main()
{
	vec3 mv = m.a * m.v;
	vec3 vm = m.v * m.a;
	mat3 mm = m.a * m.b;
	mat3 t = transpose(m.a);
	mat3 op = outerProduct(m.v, vec3(1.0, 2.0, 3.0));
	mat3 ms = m.a * 2.0;
	int k = 0;
	for (int i = 0; i < 3; i++) m.r[k++] = mv[i];
	for (int i = 0; i < 3; i++) m.r[k++] = vm[i];
	for (int c = 0; c < 3; c++) for (int r = 0; r < 3; r++) m.r[k++] = mm[c][r];
	for (int c = 0; c < 3; c++) for (int r = 0; r < 3; r++) m.r[k++] = t[c][r];
	for (int c = 0; c < 3; c++) for (int r = 0; r < 3; r++) m.r[k++] = op[c][r];
	m.r[k++] = ms[1][2];
	m.r[k++] = dot(m.v, vec3(1.0, 2.0, 3.0));
	mat2x3 w = m.w;
	m.w = mat2x3(w[1], w[0] * 10.0);
	m.w[1][2] = 99.0;
	m.r[k++] = w[0][1];
	m.r[k++] = w[1][2];
}
