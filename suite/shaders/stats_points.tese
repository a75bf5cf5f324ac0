#version 450
// Triangles in point mode, every level 1: the 3 corner vertices of the
// domain become 3 points, placed inside the view volume.
layout(triangles, equal_spacing, ccw, point_mode) in;

void main()
{
	vec2 p = gl_TessCoord.x * vec2(-0.5, -0.5) + gl_TessCoord.y * vec2(0.5, -0.5) +
		 gl_TessCoord.z * vec2(0.0, 0.5);
	gl_Position = vec4(p, 0.5, 1.0);
	gl_PointSize = 1.0;
}
