#version 450
// Two triangles covering [-0.5, 0.5]^2 in every view.
void main()
{
	const vec2 p[6] = vec2[](vec2(-0.5, -0.5), vec2(0.5, -0.5), vec2(-0.5, 0.5),
				 vec2(-0.5, 0.5), vec2(0.5, -0.5), vec2(0.5, 0.5));
	gl_Position = vec4(p[gl_VertexIndex % 6], 0.5, 1.0);
}
