#version 450
// Captures to XfbBuffer 0 and XfbBuffer 1.
layout(location = 0, xfb_buffer = 0, xfb_offset = 0, xfb_stride = 16) out vec4 a;
layout(location = 1, xfb_buffer = 1, xfb_offset = 0, xfb_stride = 16) out vec4 b;
void main()
{
	gl_Position = vec4(-0.75 + 0.25 * float(gl_VertexIndex), 0.0, 0.5, 1.0);
	gl_PointSize = 1.0;
	a = vec4(float(gl_VertexIndex), 1.0, 2.0, 3.0);
	b = vec4(float(gl_VertexIndex), 4.0, 5.0, 6.0);
}
