#version 450
layout(local_size_x = 2) in;
shared uint s[2];
layout(set = 0, binding = 0, std430) buffer B {
	uint r[2];
} b;

void main()
{
	s[gl_LocalInvocationIndex] = gl_LocalInvocationIndex;
	barrier();
	b.r[gl_LocalInvocationIndex] = s[1u - gl_LocalInvocationIndex];
}
