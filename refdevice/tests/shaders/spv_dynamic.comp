#version 450
// Three storage buffers, bound as dynamic (0, 2) and static (1) descriptors
// of one set whose layout lists binding 2 first: each invocation writes its
// word, so the memory shows where each descriptor's dynamic offset put it.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer A { uint a; };
layout(set = 0, binding = 1) buffer B { uint b; };
layout(set = 0, binding = 2) buffer C { uint c; };

void main()
{
	a = 11u;
	b = 22u;
	c = 33u;
}
