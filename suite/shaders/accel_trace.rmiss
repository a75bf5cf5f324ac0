#version 460
// Miss of accel_trace.rgen: (-1, 0, 0, 0), as accel_trace.comp writes.
#extension GL_EXT_ray_tracing : require
layout(location = 0) rayPayloadInEXT vec4 payload;
void main()
{
	payload = vec4(-1.0, 0.0, 0.0, 0.0);
}
