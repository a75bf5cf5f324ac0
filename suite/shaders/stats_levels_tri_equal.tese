#version 450
// Triangles, equal_spacing: the tessellated triangle placed inside the view
// volume (stats tessellation.levels_*).
layout(triangles, equal_spacing, ccw) in;

void main()
{
	vec2 p = gl_TessCoord.x * vec2(-0.5, -0.5) + gl_TessCoord.y * vec2(0.5, -0.5) +
		 gl_TessCoord.z * vec2(0.0, 0.5);
	gl_Position = vec4(p, 0.5, 1.0);
}
