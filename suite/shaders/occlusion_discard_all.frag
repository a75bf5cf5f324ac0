#version 450
// Every fragment is discarded: no sample survives (spec "Discard"), so an
// occlusion query around its draws counts 0, precise or not.
layout(location = 0) out vec4 color;

void main()
{
	discard;
}
