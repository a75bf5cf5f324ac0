#version 450
// Control: per-vertex outputs every invocation reads after the barrier,
// a Patch output, the levels, PatchVertices and PrimitiveId.
layout(vertices = 3) out;
layout(location = 0) in vec4 pos[];
layout(location = 0) out vec4 next[];
layout(location = 1) patch out vec4 total;

void main()
{
	gl_out[gl_InvocationID].gl_Position = pos[gl_InvocationID] + vec4(float(gl_PrimitiveID));
	barrier();
	next[gl_InvocationID] = gl_out[(gl_InvocationID + 1) % 3].gl_Position;
	if (gl_InvocationID == 0) {
		total = gl_out[0].gl_Position + gl_out[1].gl_Position + gl_out[2].gl_Position +
			vec4(float(gl_PatchVerticesIn));
		gl_TessLevelOuter[0] = 2.0;
		gl_TessLevelOuter[1] = 3.0;
		gl_TessLevelOuter[2] = 4.0;
		gl_TessLevelInner[0] = 5.0;
	}
}
