#version 450
// The pipeline statistics area's fragment shader: its colour comes from the
// fragment's framebuffer location, so it does not "statically compute the
// same values for different framebuffer locations" and no two fragments may
// be shaded by one invocation (fragops.adoc Fragment Shading, 1.3.274): one
// invocation per fragment stays a must (docs/verdicts.md).
layout(location = 0) out vec4 color;

void main()
{
	color = vec4(gl_FragCoord.xy / 64.0, 0.5, 1.0);
}
