#version 450
// Writes depth 0.25 and nothing else: in a subpass with a depth attachment
// and no colour attachment its only result is the depth it replaces
// (DepthReplacing), which the depth test then compares.
void main()
{
	gl_FragDepth = 0.25;
}
