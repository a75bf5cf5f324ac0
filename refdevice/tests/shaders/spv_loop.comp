#version 450
// Loops forever while the buffer holds zero: the step limit must stop it.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, std430) buffer B {
	uint stop;
	uint n;
} b;

void main()
{
	while (b.stop == 0u)
		b.n++;
}
