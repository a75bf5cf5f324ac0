#version 450
// Counts its invocations in a storage buffer (a side effect: helper
// invocations perform no atomics) and writes a colour.
layout(set = 0, binding = 0, std430) buffer Count { uint invocations; } count;
layout(location = 0) out vec4 color;

void main()
{
	atomicAdd(count.invocations, 1u);
	color = vec4(0.0, 1.0, 0.0, 1.0);
}
