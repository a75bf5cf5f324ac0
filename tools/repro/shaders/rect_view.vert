#version 450
#extension GL_EXT_multiview : require
// rect.vert moved right by 2 pixels of a 32-pixel target per view index,
// as vkqs's multiview_rect.vert reads gl_ViewIndex: every view keeps
// 16 x 16 pixels inside the target.
void main()
{
	const vec2 p[6] = vec2[](vec2(-0.5, -0.5), vec2(0.5, -0.5), vec2(-0.5, 0.5),
				 vec2(-0.5, 0.5), vec2(0.5, -0.5), vec2(0.5, 0.5));
	gl_Position = vec4(p[gl_VertexIndex % 6] + vec2(0.125 * float(gl_ViewIndex), 0.0), 0.5, 1.0);
}
