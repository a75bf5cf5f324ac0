#version 450
// Every invocation of a dispatch of any size adds 1 to its own word of the
// buffer (flattened global invocation id), so the result shows that each
// invocation ran exactly once: the lower bound of the compute-invocations
// statistic (spec 18.4: invocations may be skipped only when "the results
// of rendering otherwise remain unchanged").
layout(local_size_x = 4, local_size_y = 2, local_size_z = 1) in;

layout(set = 0, binding = 0, std430) buffer Out {
	uint v[];
} o;

void main()
{
	uvec3 size = gl_NumWorkGroups * gl_WorkGroupSize;
	uvec3 id = gl_GlobalInvocationID;
	uint i = id.x + size.x * (id.y + size.y * id.z);
	o.v[i] = o.v[i] + 1u;
}
