#version 450
// Vertex i of a draw at column i / 2 and row i % 2 of a grid in framebuffer
// pixels: x = x0 + (i / 2) * dx, y = y0 (even i) or y1 (odd i).  Strips,
// lists and fans of any length get distinct, non-degenerate positions
// inside the framebuffer.  Arithmetic only (no arrays).
layout(push_constant) uniform PC {
	vec4 rect;     // x0, y0, unused, y1 in pixels
	vec2 fb_size;  // framebuffer width, height
	float z;       // depth
	float dx;      // column step in pixels
} pc;

void main()
{
	int i = gl_VertexIndex;
	float col = float(i / 2);
	float y = (i % 2) == 0 ? pc.rect.y : pc.rect.w;
	vec2 p = vec2(pc.rect.x + col * pc.dx, y);
	gl_Position = vec4(p / pc.fb_size * 2.0 - 1.0, pc.z, 1.0);
	gl_PointSize = 1.0;
}
