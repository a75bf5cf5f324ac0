#version 450
// Compute shader of suite/mesh/mesh.c: each invocation adds 1 to
// compute_invocations of the Counts buffer the area's task and mesh shaders
// share (a side effect: no invocation can be skipped).
layout(local_size_x = 4, local_size_y = 2, local_size_z = 1) in;

layout(set = 0, binding = 0, std430) buffer Counts {
	uint task_invocations;
	uint mesh_invocations;
	uint mesh_workgroups;
	uint primitives;
	uint compute_invocations;
} cnt;

void main()
{
	atomicAdd(cnt.compute_invocations, 1u);
}
