#version 450
// Per input triangle: one point on vertex stream 0, rasterized and not
// captured (no output of stream 0 has an XfbBuffer), and two points on
// vertex stream 1, captured to buffer 0 (stride 16).
layout(triangles) in;
layout(points, max_vertices = 3) out;

layout(stream = 0, location = 0) out vec4 s0;
layout(stream = 1, location = 1, xfb_buffer = 0, xfb_offset = 0, xfb_stride = 16) out vec4 s1;

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
