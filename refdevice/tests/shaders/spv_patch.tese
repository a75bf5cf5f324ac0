#version 450
// Evaluation: the control shader's per-vertex and Patch outputs, the
// levels, TessCoord, PrimitiveId and PatchVertices.
layout(triangles, fractional_odd_spacing, cw) in;
layout(location = 0) in vec4 next[];
layout(location = 1) patch in vec4 total;
layout(location = 0) out vec4 o;
layout(location = 1) out vec4 levels;

void main()
{
	gl_Position = gl_TessCoord.x * gl_in[0].gl_Position + gl_TessCoord.y * gl_in[1].gl_Position +
		      gl_TessCoord.z * gl_in[2].gl_Position;
	o = total + next[2];
	levels = vec4(gl_TessLevelOuter[0], gl_TessLevelOuter[2], gl_TessLevelInner[0],
		      float(gl_PrimitiveID + 10 * gl_PatchVerticesIn));
}
