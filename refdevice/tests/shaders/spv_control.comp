#version 450
// Loops, switch, functions with in/out/inout parameters, short-circuit
// operators (OpPhi), nested breaks.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, std430) buffer B {
	int in_v[8];
	int out_v[16];
} b;

int fib(int n)
{
	int a = 0, c = 1;
	for (int i = 0; i < n; i++) {
		int t = a + c;
		a = c;
		c = t;
	}
	return a;
}

int classify(int x)
{
	switch (x) {
	case 0:
		return 10;
	case 1:
	case 2:
		return 20;
	case -5:
		return 30;
	default:
		break;
	}
	return 40;
}

void inc(inout int v, out int w)
{
	v += 1;
	w = v * 2;
}

bool positive(int x)
{
	return x > 0;
}

int collatz(int n)
{
	int steps = 0;
	while (n != 1) {
		if ((n & 1) == 0)
			n /= 2;
		else
			n = 3 * n + 1;
		steps++;
	}
	return steps;
}

void main()
{
	b.out_v[0] = fib(b.in_v[0]);
	b.out_v[1] = classify(b.in_v[1]);
	b.out_v[2] = classify(b.in_v[2]);
	b.out_v[3] = classify(b.in_v[3]);
	int v = 5, w;
	inc(v, w);
	b.out_v[4] = v;
	b.out_v[5] = w;
	b.out_v[6] = (positive(b.in_v[1]) && positive(b.in_v[2])) ? 1 : 0;
	b.out_v[7] = (positive(b.in_v[1]) || positive(b.in_v[2])) ? 1 : 0;
	b.out_v[8] = collatz(b.in_v[6]);
	int s = 0;
	for (int i = 0; i < 10; i++) {
		if (i == 3)
			continue;
		if (i == 8)
			break;
		s += i;
	}
	b.out_v[9] = s;
	int d = 0;
	do {
		d += 3;
	} while (d < 10);
	b.out_v[10] = d;
	int found = -1;
	for (int i = 0; i < 4 && found < 0; i++)
		for (int j = 0; j < 4; j++)
			if (i * j == 6) {
				found = i * 10 + j;
				break;
			}
	b.out_v[11] = found;
	b.out_v[12] = b.in_v[4] / b.in_v[5];
	int arr[5] = int[5](9, 8, 7, 6, 5);
	int acc = 0;
	for (int i = 0; i < 5; i++)
		acc += arr[i] * (i + 1);
	b.out_v[13] = acc + arr[b.in_v[7]];
}
