#version 450
// Indexes a runtime array with a push constant: out of bounds for a small
// buffer.
layout(local_size_x = 1) in;
layout(push_constant) uniform PC {
	uint index;
	uint write;
} pc;
layout(set = 0, binding = 0, std430) buffer B {
	uint data[];
} b;

void main()
{
	if (pc.write != 0u)
		b.data[pc.index] = 7u;
	else
		b.data[0] = b.data[pc.index];
}
