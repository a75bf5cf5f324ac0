#version 450
// Input attachments: one float, an array of two multisampled unsigned ones
// (indices 1 and 2), read at the fragment's pixel.
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput colour;
layout(input_attachment_index = 1, set = 0, binding = 1) uniform usubpassInputMS counts[2];
layout(location = 0) out vec4 o_colour;
layout(location = 1) out uvec4 o_count;

void main()
{
	o_colour = subpassLoad(colour);
	o_count = subpassLoad(counts[1], 3);
}
