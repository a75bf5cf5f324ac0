#version 450
// A control barrier only one of the two invocations reaches: the group
// run must refuse it (spec 3.42.20 OpControlBarrier: every invocation of
// the workgroup executes it), not wait for ever or go on.
layout(local_size_x = 2) in;
layout(set = 0, binding = 0, std430) buffer B {
	uint r[2];
} b;

void main()
{
	if (gl_LocalInvocationIndex == 0u) {
		b.r[0] = 1u;
		return;
	}
	barrier();
	b.r[1] = 2u;
}
