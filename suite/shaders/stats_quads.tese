#version 450
// Quads, every level 1: the tessellator's 4 corner vertices (u, v in
// {0, 1}) and 2 triangles, placed in the middle of the view volume.
layout(quads, equal_spacing, ccw) in;

void main()
{
	gl_Position = vec4(mix(-0.5, 0.5, gl_TessCoord.x), mix(-0.5, 0.5, gl_TessCoord.y), 0.5, 1.0);
}
