#version 460
// One ray query per invocation against the top-level structure at
// pc.tlas: ray i starts at (x_i, y_i, 10) and points down -z; the result is
// (primitive index, t, instance custom index, 1) of the closest committed
// triangle hit, or (-1, 0, 0, 0) for a miss.
#extension GL_EXT_ray_query : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;
layout(buffer_reference, std430) buffer Rays { vec4 v[]; };
layout(push_constant) uniform P {
	uint64_t tlas;
	uint64_t rays;     // vec4 per ray: x, y (origin), unused
	uint64_t hits;     // vec4 per ray, written
	uint count;
} pc;
void main()
{
	uint i = gl_GlobalInvocationID.x;
	if (i >= pc.count)
		return;
	vec4 r = Rays(pc.rays).v[i];
	rayQueryEXT q;
	rayQueryInitializeEXT(q, accelerationStructureEXT(pc.tlas), gl_RayFlagsOpaqueEXT, 0xff,
			      vec3(r.x, r.y, 10.0), 0.0, vec3(0.0, 0.0, -1.0), 100.0);
	while (rayQueryProceedEXT(q)) {
	}
	vec4 out_v = vec4(-1.0, 0.0, 0.0, 0.0);
	if (rayQueryGetIntersectionTypeEXT(q, true) == gl_RayQueryCommittedIntersectionTriangleEXT)
		out_v = vec4(float(rayQueryGetIntersectionPrimitiveIndexEXT(q, true)),
			     rayQueryGetIntersectionTEXT(q, true),
			     float(rayQueryGetIntersectionInstanceCustomIndexEXT(q, true)), 1.0);
	Rays(pc.hits).v[i] = out_v;
}
