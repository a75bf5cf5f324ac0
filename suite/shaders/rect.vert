#version 450
// An axis-aligned rectangle in framebuffer pixels as two triangles
// (vertices 0..5), see vkqs_draw_rect().  Arithmetic only, no arrays, so the
// reference device's interpreter needs no function-local memory for it.
layout(push_constant) uniform PC {
	vec4 rect;     // x0, y0, x1, y1 in pixels
	vec2 fb_size;  // framebuffer width, height
	float z;       // depth
	float pad;
} pc;

void main()
{
	int i = gl_VertexIndex % 6;
	float u = (i == 1 || i == 3 || i == 4) ? 1.0 : 0.0;
	float v = (i == 2 || i == 4 || i == 5) ? 1.0 : 0.0;
	vec2 p = vec2(mix(pc.rect.x, pc.rect.z, u), mix(pc.rect.y, pc.rect.w, v));
	gl_Position = vec4(p / pc.fb_size * 2.0 - 1.0, pc.z, 1.0);
	gl_PointSize = 1.0;
}
