#version 450
#extension GL_EXT_multiview : require
// The multiview area's fragment shader: its colour comes from the fragment's
// framebuffer location and view, so it does not "statically compute the same
// values for different framebuffer locations" and no two fragments, of one
// view or of two, may be shaded by one invocation (fragops.adoc Fragment
// Shading, 1.3.274): the statistics cases keep one invocation per fragment
// per view as a must.  (Generated shader headers are static arrays; this one
// is the multiview area's own.)
layout(location = 0) out vec4 color;

void main()
{
	color = vec4(gl_FragCoord.xy / 64.0, float(gl_ViewIndex) / 32.0, 1.0);
}
