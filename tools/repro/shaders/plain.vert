#version 450
// No Xfb execution mode.
void main()
{
	gl_Position = vec4(-0.75 + 0.25 * float(gl_VertexIndex), 0.0, 0.5, 1.0);
	gl_PointSize = 1.0;
}
