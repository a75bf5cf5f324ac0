#version 450
// xfb_count.vert without transform feedback (no Xfb execution mode): the
// primitives generated query counts without it (spec 18.8).
layout(push_constant) uniform PC {
	vec4 grid;   // x0, y0, dx, dy in clip coordinates (w = 1)
	float z;     // depth
	float tag;   // unused
} pc;

void main()
{
	int i = gl_VertexIndex;
	gl_Position = vec4(pc.grid.x + float(i / 2) * pc.grid.z,
			   pc.grid.y + float(i % 2) * pc.grid.w, pc.z, 1.0);
	gl_PointSize = 1.0;
}
