#version 450
// Discards every fragment whose pixel column is odd: a rectangle of even
// width w and height h at an even x0 keeps exactly (w / 2) * h fragments.
layout(location = 0) out vec4 color;

void main()
{
	if ((int(gl_FragCoord.x) & 1) == 1)
		discard;
	color = vec4(1.0, 0.0, 0.0, 1.0);
}
