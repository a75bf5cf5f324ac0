#version 450
// Two instanced invocations per input triangle (invocations = 2): number 0
// emits the triangle once, number 1 emits it twice with EndPrimitive in
// between.  Per input triangle: 2 geometry shader invocations (18.4: "for
// each separate instanced invocation") and 3 output primitives (18.4:
// restarting the topology with OpEndPrimitive "has no effect on the
// geometry shader output primitives count").
layout(triangles, invocations = 2) in;
layout(triangle_strip, max_vertices = 6) out;

void main()
{
	int copies = gl_InvocationID + 1;
	for (int c = 0; c < copies; c++) {
		for (int i = 0; i < 3; i++) {
			gl_Position = gl_in[i].gl_Position;
			EmitVertex();
		}
		EndPrimitive();
	}
}
