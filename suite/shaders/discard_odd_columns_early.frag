#version 450
// discard_odd_columns.frag with early fragment tests: the depth test and
// sample counting run before this shader (spec "Early Fragment Test Mode"),
// so the fragments it then discards have been counted.
layout(early_fragment_tests) in;
layout(location = 0) out vec4 color;

void main()
{
	if ((int(gl_FragCoord.x) & 1) == 1)
		discard;
	color = vec4(1.0, 0.0, 0.0, 1.0);
}
