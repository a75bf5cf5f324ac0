#version 450
// Device addresses the way the Khronos validation layer's instrumentation
// uses them (GPU-assisted validation): buffer references (PhysicalStorageBuffer
// pointers) made from 64-bit integers and uvec2, loaded from and stored to
// buffers, walked as a list; 64-bit integer arithmetic; atomics through an
// address; subgroupElect.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_buffer_reference_uvec2 : require
#extension GL_EXT_scalar_block_layout : require
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 1) in;

layout(buffer_reference, scalar, buffer_reference_align = 4) buffer Words {
	uint w[];
};
layout(buffer_reference) buffer Node;  // declared first: it points to itself
layout(buffer_reference, scalar, buffer_reference_align = 8) buffer Node {
	uint value;
	Node next;
};

layout(push_constant, scalar) uniform PC {
	uint64_t words;  // the address of a Words
	Node head;       // a pointer in push constants
	uvec2 words2;    // the same address as words, as two words
	uint count;
} pc;

layout(set = 0, binding = 0, scalar) buffer Out {
	uint64_t wide;
	uint r[16];
	Node stored;
} o;

void main()
{
	Words w = Words(pc.words);  // OpConvertUToPtr
	uint s = 0u;
	for (uint i = 0u; i < pc.count; i++)
		s += w.w[i];
	o.r[0] = s;
	Words w2 = Words(pc.words2);  // OpBitcast uvec2 -> pointer
	o.r[1] = w2.w[1];
	uint n = 0u, sum = 0u;
	Node p = pc.head;
	while (uint64_t(p) != 0ul && n < 8u) {  // OpConvertPtrToU
		sum += p.value;
		p = p.next;  // a pointer loaded from buffer memory
		n++;
	}
	o.r[2] = n;
	o.r[3] = sum;
	uint64_t a = pc.words + uint64_t(pc.count) * 4ul;
	o.r[4] = uint(a - pc.words);  // 64-bit IMul, IAdd, ISub; UConvert to 32 bits
	int64_t neg = -int64_t(pc.count);  // SConvert, SNegate
	o.wide = uint64_t(pc.count) * 0x100000001ul + uint64_t(neg < 0l ? 1 : 0);
	o.r[5] = uint((uint64_t(pc.count) << 33) >> 32);  // 64-bit shifts
	o.r[6] = uint64_t(pc.count) > 0xfffffffful ? 1u : 0u;
	o.r[7] = uint(uint64_t(neg) >> 32);  // sign extension
	o.r[8] = subgroupElect() ? 1u : 0u;
	atomicAdd(w.w[0], 5u);  // an atomic through an address
	o.stored = pc.head.next;  // a pointer stored into buffer memory
	uvec2 back = uvec2(pc.head);  // OpBitcast pointer -> uvec2
	o.r[9] = back.x;
	o.r[10] = back.y;
	if (pc.count == 99u) {  // past the end of the Words buffer
		Words far = Words(pc.words + 4096ul);
		o.r[11] = far.w[0];
	}
}
