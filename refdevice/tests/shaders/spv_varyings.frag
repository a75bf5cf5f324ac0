#version 450
// Fragment inputs with interpolation qualifiers; fragment builtins in and
// out.
layout(location = 0) in vec4 i0;
layout(location = 1) flat in int i1;
layout(location = 2) noperspective in vec2 i2[2];   // locations 2, 3
layout(location = 0) out vec4 c;
layout(location = 3) out uvec4 u;

void main()
{
	c = i0 + vec4(i2[0], i2[1]);
	u = uvec4(uint(i1), gl_FrontFacing ? 1u : 0u, uint(gl_SampleID), uint(gl_SampleMaskIn[0]));
	gl_FragDepth = gl_FragCoord.z * 0.5;
	gl_SampleMask[0] = 5;
}
