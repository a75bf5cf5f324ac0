#version 450
// stats_triangle.tese with transform feedback: tessellation is the last
// pre-rasterization stage and captures each vertex's position to buffer 0,
// stride 16 (the patch corners, as the tessellator makes one triangle).
layout(triangles, equal_spacing, ccw) in;

layout(location = 0, xfb_buffer = 0, xfb_offset = 0, xfb_stride = 16) out vec4 pos;

void main()
{
	gl_Position = gl_TessCoord.x * gl_in[0].gl_Position +
		      gl_TessCoord.y * gl_in[1].gl_Position +
		      gl_TessCoord.z * gl_in[2].gl_Position;
	pos = gl_Position;
}
