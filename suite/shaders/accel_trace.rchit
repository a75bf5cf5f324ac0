#version 460
// Closest hit of accel_trace.rgen: (primitive index, t, instance custom index, 1).
#extension GL_EXT_ray_tracing : require
layout(location = 0) rayPayloadInEXT vec4 payload;
void main()
{
	payload = vec4(float(gl_PrimitiveID), gl_HitTEXT, float(gl_InstanceCustomIndexEXT), 1.0);
}
