#version 450
// Early fragment tests, and a SampleMask output of 0 in every odd pixel
// column (all ones elsewhere).  Sample counting precedes the shader and
// multisample coverage, so the samples the mask removes were counted.
layout(early_fragment_tests) in;
layout(location = 0) out vec4 color;

void main()
{
	gl_SampleMask[0] = (int(gl_FragCoord.x) & 1) == 1 ? 0 : ~0;
	color = vec4(1.0, 0.0, 0.0, 1.0);
}
