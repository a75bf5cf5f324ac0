#version 450
// Never ends while the buffer's first word is zero: the vkqs.lost cases
// give the device a shader its watchdog has to stop (losing the device).
// A device without a watchdog is released by another queue writing 1:
// volatile (which glslang makes coherent too), so that every iteration
// loads the word again.
layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

layout(set = 0, binding = 0, std430) volatile buffer B {
	uint stop;
	uint spins;
} b;

void main()
{
	while (b.stop == 0u)
		b.spins++;
}
