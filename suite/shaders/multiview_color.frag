#version 450
// A constant colour (color.frag's twin: generated shader headers define
// their arrays with external linkage, so each is included by one file).
layout(location = 0) out vec4 color;

void main()
{
	color = vec4(0.25, 0.5, 0.75, 1.0);
}
