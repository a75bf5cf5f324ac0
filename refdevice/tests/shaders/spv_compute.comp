#version 450
// gl_GlobalInvocationID-derived values into a runtime array; an atomic
// counter; the array's length.
layout(local_size_x = 4, local_size_y = 2, local_size_z = 1) in;
layout(set = 0, binding = 0, std430) buffer Out {
	uint count;
	uint data[];
} o;

void main()
{
	uint i = gl_GlobalInvocationID.y * 8u + gl_GlobalInvocationID.x;
	o.data[i] = i * 3u + (gl_LocalInvocationIndex << 8) + (gl_WorkGroupID.x << 12) +
		    (gl_WorkGroupID.y << 16) + (uint(o.data.length()) << 20);
	atomicAdd(o.count, 1u);
}
