#version 450
// Isolines, outer levels 1 and 1: one line of one segment, 2 vertices
// (u in {0, 1}, v = 0), placed inside the view volume.
layout(isolines, equal_spacing) in;

void main()
{
	gl_Position = vec4(mix(-0.5, 0.5, gl_TessCoord.x), -0.5 + gl_TessCoord.y, 0.5, 1.0);
}
