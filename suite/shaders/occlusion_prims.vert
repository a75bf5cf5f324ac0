#version 450
// Up to three vertices in framebuffer pixels from push constants: vertex
// gl_VertexIndex % 3 takes v0, v1 or v2, so one draw is up to three points,
// a line, a two-segment line strip or a triangle (prim_draw() in
// occlusion.c).  Positions go through p / size * 2 - 1 and the viewport
// back, which is exact for coordinates with few fraction bits.  Selects
// only, no arrays, so the reference device's interpreter needs no
// function-local memory for it.
layout(push_constant) uniform PC {
	vec4 v01;        // v0.xy, v1.xy in pixels
	vec4 v2_fb;      // v2.xy in pixels, framebuffer width, height
	float z;         // depth of every vertex
	float point_size;
} pc;

void main()
{
	int i = gl_VertexIndex % 3;
	vec2 p = i == 0 ? pc.v01.xy : (i == 1 ? pc.v01.zw : pc.v2_fb.xy);
	gl_Position = vec4(p / pc.v2_fb.zw * 2.0 - 1.0, pc.z, 1.0);
	gl_PointSize = pc.point_size;
}
