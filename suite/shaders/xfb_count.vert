#version 450
// The xfb area's counting shader.  Vertex i on a grid in clip coordinates,
// x = x0 + (i / 2) * dx, y = y0 + (i % 2) * dy (exact for the dyadic values
// xfb.c uses), so lists, strips and fans of any length get distinct
// positions.  Captured per vertex to buffer 0, stride 16:
// (VertexIndex, InstanceIndex, tag, 1) as floats (exact below 2^24).
layout(push_constant) uniform PC {
	vec4 grid;   // x0, y0, dx, dy in clip coordinates (w = 1)
	float z;     // depth
	float tag;   // copied into every vertex's record
} pc;

layout(location = 0, xfb_buffer = 0, xfb_offset = 0, xfb_stride = 16) out vec4 id;

void main()
{
	int i = gl_VertexIndex;
	gl_Position = vec4(pc.grid.x + float(i / 2) * pc.grid.z,
			   pc.grid.y + float(i % 2) * pc.grid.w, pc.z, 1.0);
	gl_PointSize = 1.0;
	id = vec4(float(gl_VertexIndex), float(gl_InstanceIndex), pc.tag, 1.0);
}
