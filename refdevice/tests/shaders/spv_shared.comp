#version 450
// Workgroup memory shared by the invocations of one workgroup; atomics on
// shared and buffer memory.
layout(local_size_x = 4) in;
shared uint counter;
shared uint slots[4];
layout(set = 0, binding = 0, std430) buffer B {
	uint r[16];
} b;

void main()
{
	uint slot = atomicAdd(counter, 1u);
	slots[gl_LocalInvocationIndex] = slot;
	b.r[gl_LocalInvocationIndex] = slot + 100u * slots[0];
	atomicMax(b.r[4], gl_LocalInvocationIndex * 7u);
	atomicMin(b.r[5], gl_LocalInvocationIndex + 10u);
	atomicOr(b.r[6], 1u << gl_LocalInvocationIndex);
	atomicAnd(b.r[7], ~(1u << gl_LocalInvocationIndex));
	atomicXor(b.r[8], 3u);
	b.r[9 + gl_LocalInvocationIndex % 2u] = atomicExchange(b.r[11], gl_LocalInvocationIndex);
	atomicCompSwap(b.r[12], gl_LocalInvocationIndex, 50u + gl_LocalInvocationIndex);
	atomicMin(b.r[13], uint(int(gl_LocalInvocationIndex) - 2));
}
