#version 450
// A captured output the shader never writes (bug class: counters not
// incremented then): its values are undefined ("Transform Feedback"), the
// queries' counts are not.  Positions as in xfb_count.vert.
layout(push_constant) uniform PC {
	vec4 grid;   // x0, y0, dx, dy in clip coordinates (w = 1)
	float z;     // depth
	float tag;   // unused
} pc;

layout(location = 0, xfb_buffer = 0, xfb_offset = 0, xfb_stride = 16) out vec4 never_written;

void main()
{
	int i = gl_VertexIndex;
	gl_Position = vec4(pc.grid.x + float(i / 2) * pc.grid.z,
			   pc.grid.y + float(i % 2) * pc.grid.w, pc.z, 1.0);
	gl_PointSize = 1.0;
}
