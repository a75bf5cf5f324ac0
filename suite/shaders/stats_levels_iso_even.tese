#version 450
// Isolines, fractional even spacing (the line count ignores it), inside
// the view volume (stats tessellation.levels_*).
layout(isolines, fractional_even_spacing) in;

void main()
{
	gl_Position = vec4(mix(-0.5, 0.5, gl_TessCoord.x), -0.5 + gl_TessCoord.y, 0.5, 1.0);
}
