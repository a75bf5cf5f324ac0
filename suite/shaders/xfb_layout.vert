#version 450
// Captured outputs with gaps, in two buffers (xfb.c: capture.layout).
// Buffer 0, stride 32: gl_Position at 0..15, (VertexIndex, InstanceIndex,
// tag) at 20..31; bytes 16..19 belong to no output.  Buffer 1, stride 12:
// the int VertexIndex * 16 + InstanceIndex at 4..7; bytes 0..3 and 8..11
// belong to no output.  Positions as in xfb_count.vert.
layout(push_constant) uniform PC {
	vec4 grid;   // x0, y0, dx, dy in clip coordinates (w = 1)
	float z;     // depth
	float tag;   // copied into every vertex's record
} pc;

layout(xfb_buffer = 0, xfb_stride = 32) out;
out gl_PerVertex {
	layout(xfb_offset = 0) vec4 gl_Position;
	float gl_PointSize;
};
layout(location = 0, xfb_offset = 20) out vec3 ids;
layout(location = 1, xfb_buffer = 1, xfb_offset = 4, xfb_stride = 12) flat out int code;

void main()
{
	int i = gl_VertexIndex;
	gl_Position = vec4(pc.grid.x + float(i / 2) * pc.grid.z,
			   pc.grid.y + float(i % 2) * pc.grid.w, pc.z, 1.0);
	gl_PointSize = 1.0;
	ids = vec3(float(gl_VertexIndex), float(gl_InstanceIndex), pc.tag);
	code = gl_VertexIndex * 16 + gl_InstanceIndex;
}
