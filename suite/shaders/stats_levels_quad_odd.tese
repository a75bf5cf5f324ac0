#version 450
// Quads, fractional odd spacing, placed in the middle of the view volume
// (stats tessellation.levels_*).
layout(quads, fractional_odd_spacing, cw) in;

void main()
{
	gl_Position = vec4(mix(-0.5, 0.5, gl_TessCoord.x), mix(-0.5, 0.5, gl_TessCoord.y), 0.5, 1.0);
}
