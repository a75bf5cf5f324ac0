#version 450
// Per input triangle: one point on vertex stream 0 and two points on
// vertex stream 1, each stream captured to its own buffer (stride 16).
// With several streams the output is points.
layout(triangles) in;
layout(points, max_vertices = 3) out;

layout(stream = 0, location = 0, xfb_buffer = 0, xfb_offset = 0, xfb_stride = 16) out vec4 s0;
layout(stream = 1, location = 1, xfb_buffer = 1, xfb_offset = 0, xfb_stride = 16) out vec4 s1;

void main()
{
	gl_Position = gl_in[0].gl_Position;
	gl_PointSize = 1.0;
	s0 = vec4(float(gl_PrimitiveIDIn), 0.0, 0.0, 1.0);
	EmitStreamVertex(0);
	EndStreamPrimitive(0);
	for (int k = 1; k <= 2; k++) {
		s1 = vec4(float(gl_PrimitiveIDIn), float(k), 1.0, 1.0);
		EmitStreamVertex(1);
		EndStreamPrimitive(1);
	}
}
