#version 450
#extension GL_EXT_multiview : require
// A copy of vkqs's suite/shaders/multiview_rect.vert: view v draws
// [x0, x1 + v * dx) x [y0, y1) in pixels, from push constants.
layout(push_constant) uniform PC {
	vec4 rect;     // x0, y0, x1, y1 in pixels (view 0)
	vec2 fb_size;  // framebuffer width, height
	float z;       // depth
	float dx;      // x1 grows by dx pixels per view index
} pc;

void main()
{
	int i = gl_VertexIndex % 6;
	float u = (i == 1 || i == 3 || i == 4) ? 1.0 : 0.0;
	float v = (i == 2 || i == 4 || i == 5) ? 1.0 : 0.0;
	float x1 = pc.rect.z + pc.dx * float(gl_ViewIndex);
	vec2 p = vec2(mix(pc.rect.x, x1, u), mix(pc.rect.y, pc.rect.w, v));
	gl_Position = vec4(p / pc.fb_size * 2.0 - 1.0, pc.z, 1.0);
	gl_PointSize = 1.0;
}
