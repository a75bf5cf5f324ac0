#version 450
// A 4-point patch with the tessellation levels of the push constants
// (after rect.vert's 32 bytes); the evaluation shaders place their
// vertices themselves.
layout(vertices = 4) out;
layout(push_constant) uniform PC {
	layout(offset = 32) vec4 outer;
	vec2 inner;
} pc;

void main()
{
	gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
	if (gl_InvocationID == 0) {
		gl_TessLevelOuter[0] = pc.outer.x;
		gl_TessLevelOuter[1] = pc.outer.y;
		gl_TessLevelOuter[2] = pc.outer.z;
		gl_TessLevelOuter[3] = pc.outer.w;
		gl_TessLevelInner[0] = pc.inner.x;
		gl_TessLevelInner[1] = pc.inner.y;
	}
}
