#version 450
// An array of storage buffer descriptors: constant and dynamic elements,
// the runtime array length of one element.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, std430) buffer Out {
	uint n;
	uint data[];
} o[3];
layout(push_constant) uniform PC {
	uint k;
} pc;

void main()
{
	o[1].data[o[1].n] = 11u;
	o[pc.k].data[0] = 22u + o[pc.k].n;
	o[2].n = uint(o[2].data.length());
}
