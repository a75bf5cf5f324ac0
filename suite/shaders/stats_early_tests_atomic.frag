#version 450
// Early fragment tests and a side effect: the depth test runs before
// fragment shading, so a fragment that fails it must not invoke this shader
// (fragops.adoc Fragment Shading: "A fragment shader must not be executed if
// a fragment operation that executes before fragment shading discards the
// fragment"); the atomic shows whether it ran, whatever the statistics
// counter says (helper invocations perform no atomics).
layout(early_fragment_tests) in;
layout(set = 0, binding = 0, std430) buffer Count { uint invocations; } count;
layout(location = 0) out vec4 color;

void main()
{
	atomicAdd(count.invocations, 1u);
	color = vec4(0.0, 1.0, 0.0, 1.0);
}
