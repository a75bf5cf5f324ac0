#version 450
// A 4-point patch with every tessellation level 1 (quads: two triangles of
// the four corners; isolines: one line of one segment).  The evaluation
// shaders place their vertices themselves.
layout(vertices = 4) out;

void main()
{
	gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
	if (gl_InvocationID == 0) {
		gl_TessLevelOuter[0] = 1.0;
		gl_TessLevelOuter[1] = 1.0;
		gl_TessLevelOuter[2] = 1.0;
		gl_TessLevelOuter[3] = 1.0;
		gl_TessLevelInner[0] = 1.0;
		gl_TessLevelInner[1] = 1.0;
	}
}
