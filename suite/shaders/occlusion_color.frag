#version 450
// The solid colour of occlusion.c's own pipelines (color.frag belongs to the
// framework's rect pipeline).
layout(location = 0) out vec4 color;

void main()
{
	color = vec4(0.75, 0.5, 0.25, 1.0);
}
