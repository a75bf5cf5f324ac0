#version 450
// Alpha 0.0 in every odd pixel column, 1.0 elsewhere: with alpha to
// coverage the odd columns lose every sample, the others keep all.
layout(location = 0) out vec4 color;

void main()
{
	float a = (int(gl_FragCoord.x) & 1) == 1 ? 0.0 : 1.0;
	color = vec4(1.0, 1.0, 1.0, a);
}
