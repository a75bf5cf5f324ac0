#version 450
layout(early_fragment_tests) in;
layout(location = 0) out vec4 c;

void main()
{
	if (gl_FragCoord.x > 10.0)
		discard;
	c = gl_FragCoord;
}
