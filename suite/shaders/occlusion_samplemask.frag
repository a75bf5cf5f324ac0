#version 450
// Writes the SampleMask output from a push constant (after
// occlusion_prims.vert's 48 bytes): spec "Multisample Coverage" ANDs it
// into the fragment's coverage, so a fully covered pixel then counts
// popcount(mask & ((1 << samples) - 1)) samples.
layout(push_constant) uniform PC {
	layout(offset = 48) uint mask;
} pc;
layout(location = 0) out vec4 color;

void main()
{
	gl_SampleMask[0] = int(pc.mask);
	color = vec4(0.0, 1.0, 0.0, 1.0);
}
