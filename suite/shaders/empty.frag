#version 450
// An empty fragment shader: no outputs, no side effects.
void main()
{
}
