#version 450
// Early fragment tests: the depth test runs before fragment shading, so a
// fragment that fails it must not invoke this shader (spec "Fragment
// Shading": "A fragment shader must not be executed if a fragment operation
// that executes before fragment shading discards the fragment").
layout(early_fragment_tests) in;
layout(location = 0) out vec4 color;

void main()
{
	color = vec4(0.0, 1.0, 0.0, 1.0);
}
