#version 450
// A loop the push constant sets the length of: VK_ARM_shader_instrumentation
// cases count its basic blocks (the body runs n times per invocation).
layout(local_size_x = 4, local_size_y = 2, local_size_z = 1) in;

layout(push_constant) uniform P {
	uint n;
} pc;

layout(set = 0, binding = 0, std430) buffer Out {
	uint v[];
} o;

void main()
{
	uvec3 size = gl_NumWorkGroups * gl_WorkGroupSize;
	uvec3 id = gl_GlobalInvocationID;
	uint i = id.x + size.x * (id.y + size.y * id.z);
	uint acc = 0u;
	for (uint k = 0u; k < pc.n; k++)
		acc += k * 3u + i;
	o.v[i] = acc;
}
