#version 450
// Comparisons, dynamic vector components, memory-scope atomics, a memory
// barrier; spv_opt_shaders.h has this after spirv-opt -O too, where the
// local vector becomes OpVectorInsertDynamic / OpCompositeInsert.
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, std430) buffer B {
	float f[4];     // 1, 2, NaN, 1
	uint u[4];      // 3, 5, 0xffffffff, 7
	int i[4];       // -3, 5, 2, 0
	uint atom[4];   // 10, 20, 30, 40
	uint r[32];
} b;

void main()
{
	float f0 = b.f[0], f1 = b.f[1], fn = b.f[2], f3 = b.f[3];
	b.r[0] = uint(f0 == f3);
	b.r[1] = uint(f0 == fn);
	b.r[2] = uint(f0 > f1);
	b.r[3] = uint(f1 > f0);
	b.r[4] = uint(f0 <= f3);
	b.r[5] = uint(fn <= f0);
	b.r[6] = uint(!(fn < f0));
	b.r[7] = uint(b.u[0] < b.u[1]);
	b.r[8] = uint(b.u[2] <= b.u[1]);
	b.r[9] = uint(b.u[2] >= b.u[1]);
	b.r[10] = uint(b.i[0] <= b.i[1]);
	b.r[11] = uint(b.i[0] >= b.i[1]);
	bvec2 x = bvec2(f0 < f1, fn < f1);
	b.r[12] = uint(x != bvec2(true, true));
	b.r[13] = bitfieldExtract(b.u[2], 4, 8);
	vec4 v = vec4(f0, f1, f3, 4.0);
	v[b.i[2]] = 9.0;
	b.r[14] = floatBitsToUint(v[b.u[0]]);
	b.r[15] = floatBitsToUint(v[2]);
	v.y = 7.0;
	b.r[16] = floatBitsToUint(v.y + v.x);
	b.r[17] = atomicLoad(b.atom[0], gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
	atomicStore(b.atom[1], 21u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
	b.r[18] = atomicAdd(b.atom[2], uint(-1));
	memoryBarrierBuffer();
	b.r[19] = uint(b.i[0] % b.i[1]);
	b.r[20] = b.u[1] % b.u[0];
	b.r[21] = floatBitsToUint(mod(-f1, f3 * 3.0));
	b.r[22] = uint(!(f0 > fn) && !(f0 >= fn) && !(fn <= f0) && (fn != f0));
}
