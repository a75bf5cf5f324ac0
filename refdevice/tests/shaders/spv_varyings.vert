#version 450
// Vertex inputs and outputs over several locations: a matrix, an array.
layout(location = 0) in vec4 pos;
layout(location = 1) in ivec2 iv;
layout(location = 2) in mat2 m;          // locations 2, 3
layout(location = 0) out vec4 o0;
layout(location = 1) flat out int o1;
layout(location = 2) noperspective out vec2 o2[2];  // locations 2, 3

void main()
{
	gl_Position = pos * 2.0;
	o0 = vec4(m[0], m[1]);
	o1 = iv.x + iv.y + gl_InstanceIndex;
	o2[0] = vec2(float(gl_VertexIndex));
	o2[1] = m * vec2(1.0, 1.0);
	gl_PointSize = 3.0;
}
