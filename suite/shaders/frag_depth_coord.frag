#version 450
// Writes a depth that varies with the framebuffer location (0.25 to about
// 0.31 over a 64 x 64 target) and nothing else: no two fragments may be
// merged into one invocation (fragops.adoc Fragment Shading, 1.3.274), and
// in a subpass with no colour attachment the depth is the shader's only
// result, which the depth test then compares.
void main()
{
	gl_FragDepth = 0.25 + (gl_FragCoord.x + 64.0 * gl_FragCoord.y) / 65536.0;
}
