#version 450
// For the *_WITH_ADJACENCY triangle topologies: vertex i sits on a grid at
// j = i / 2, column j / 2, row j % 2, in framebuffer pixels.  The even
// vertices (those of the main triangles) then form non-degenerate
// triangles: a list's 0 2 4 and 6 8 10, a strip's zigzag.  Arithmetic only.
layout(push_constant) uniform PC {
	vec4 rect;     // x0, y0, unused, y1 in pixels
	vec2 fb_size;  // framebuffer width, height
	float z;       // depth
	float dx;      // column step in pixels
} pc;

void main()
{
	int j = gl_VertexIndex / 2;
	float col = float(j / 2);
	float y = (j % 2) == 0 ? pc.rect.y : pc.rect.w;
	vec2 p = vec2(pc.rect.x + col * pc.dx, y);
	gl_Position = vec4(p / pc.fb_size * 2.0 - 1.0, pc.z, 1.0);
	gl_PointSize = 1.0;
}
