#version 450
// rect.vert with a depth that depends on gl_InstanceIndex (0.5, 0.4375,
// 0.375, ... for pc.z 0.5): the instances' vertices shade to different
// results, so no invocation of one instance can be reused for another
// (shaders.adoc Vertex Shader Execution: reuse only where "the vertex shader
// invocations will produce identical results").  The rectangles cover the
// same pixels.
layout(push_constant) uniform PC {
	vec4 rect;     // x0, y0, x1, y1 in pixels
	vec2 fb_size;  // framebuffer width, height
	float z;       // depth of instance 0
	float pad;
} pc;

void main()
{
	int i = gl_VertexIndex % 6;
	float u = (i == 1 || i == 3 || i == 4) ? 1.0 : 0.0;
	float v = (i == 2 || i == 4 || i == 5) ? 1.0 : 0.0;
	vec2 p = vec2(mix(pc.rect.x, pc.rect.z, u), mix(pc.rect.y, pc.rect.w, v));
	float z = pc.z * (1.0 - 0.125 * float(gl_InstanceIndex));
	gl_Position = vec4(p / pc.fb_size * 2.0 - 1.0, z, 1.0);
	gl_PointSize = 1.0;
}
