/* The SPIR-V interpreter: the subset of SPIR-V the suite's shaders use, for
 * the vertex, tessellation, geometry, fragment and compute stages (see
 * refdevice/README.md).
 *
 * rd_shader_create() parses and validates a whole module up front (a
 * declaration pass); anything outside the subset or malformed is refused
 * there with a message naming the problem (opcode names from Debian's
 * spirv-headers), never a crash.  A parsed module is immutable and may be
 * run by several threads at once; each run has its own invocation state. */
#ifndef RD_SPIRV_H
#define RD_SPIRV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RD_MAX_LOCATIONS 16   /* vertex inputs, varyings, colour outputs */

enum rd_stage {
	RD_STAGE_VERTEX,
	RD_STAGE_FRAGMENT,
	RD_STAGE_COMPUTE,
	RD_STAGE_GEOMETRY,
	RD_STAGE_TESS_CONTROL,
	RD_STAGE_TESS_EVAL,
	RD_STAGE_TASK,
	RD_STAGE_MESH,
};

/* Geometry shaders: at most 6 input vertices (triangles with adjacency);
 * vertex streams (GeometryStreams) 0 to RD_MAX_STREAMS - 1. */
#define RD_MAX_GS_INPUT_VERTICES 6
#define RD_MAX_STREAMS 4
#define RD_MAX_GS_INVOCATIONS 32      /* maxGeometryShaderInvocations */
#define RD_MAX_GS_OUTPUT_VERTICES 256 /* maxGeometryOutputVertices */
enum rd_gs_output { RD_GS_OUT_POINTS, RD_GS_OUT_LINE_STRIP, RD_GS_OUT_TRIANGLE_STRIP };

/* Tessellation: patches of at most RD_MAX_PATCH_VERTICES control points
 * (maxTessellationPatchSize), per-patch outputs at Locations below
 * RD_MAX_PATCH_LOCATIONS (maxTessellationControlPerPatchOutputComponents
 * 120 needs 30).  The domain, spacing, winding and point mode may come
 * from either tessellation stage; the pipeline merges them. */
#define RD_MAX_PATCH_VERTICES 32
#define RD_MAX_PATCH_LOCATIONS 32
enum rd_tess_domain { RD_TESS_NONE, RD_TESS_TRIANGLES, RD_TESS_QUADS, RD_TESS_ISOLINES };
enum rd_tess_spacing { RD_SPACING_NONE, RD_SPACING_EQUAL, RD_SPACING_FRACTIONAL_EVEN,
		       RD_SPACING_FRACTIONAL_ODD };
enum rd_tess_order { RD_ORDER_NONE, RD_ORDER_CW, RD_ORDER_CCW };

/* Mesh shading (VK_EXT_mesh_shader): a mesh workgroup writes up to
 * OutputVertices vertices and OutputPrimitivesEXT primitives
 * (maxMeshOutputVertices, maxMeshOutputPrimitives: the spec's minimums);
 * a task workgroup's payload is at most maxTaskPayloadSize bytes. */
#define RD_MAX_MESH_VERTICES 256
#define RD_MAX_MESH_PRIMITIVES 256
#define RD_MAX_TASK_PAYLOAD 16384
#define RD_MAX_MESH_INVOCATIONS 128 /* maxTask/MeshWorkGroupInvocations */
enum rd_mesh_output { RD_MESH_OUT_NONE, RD_MESH_OUT_POINTS, RD_MESH_OUT_LINES, RD_MESH_OUT_TRIANGLES };

/* Transform feedback (VK_EXT_transform_feedback). */
#define RD_MAX_XFB_BUFFERS 4   /* maxTransformFeedbackBuffers */
#define RD_MAX_XFB_OUTPUTS 32
#define RD_XFB_POSITION 0xfffeu   /* rd_xfb_output.source: the Position builtin */
#define RD_XFB_POINT_SIZE 0xffffu /* ... the PointSize builtin */

/* One captured piece of a vertex: `words` 32-bit components of an output
 * written at byte `offset` of the vertex's XfbStride bytes in buffer
 * `buffer` (spec "Transform Feedback": Offset, XfbBuffer). */
struct rd_xfb_output {
	uint8_t buffer;               /* XfbBuffer */
	uint8_t words;                /* 1..4 */
	uint16_t source;              /* Location (components from 0), or RD_XFB_* */
	uint32_t offset;              /* Offset, bytes */
	uint32_t stream;              /* Stream (geometry), 0 otherwise */
};

struct rd_shader;

/* NULL on failure, with one line in err ("word 57: unsupported opcode
 * OpImageSampleImplicitLod (87)"). */
struct rd_shader *rd_shader_create(const uint32_t *words, size_t size_bytes,
				   char *err, size_t errsize);
void rd_shader_destroy(struct rd_shader *s);

/* What the pipeline must know about one entry point. */
struct rd_entry_info {
	enum rd_stage stage;
	uint32_t entry_id;            /* pass to rd_shader_run */
	uint32_t input_mask;          /* bit L: Location L is an input */
	uint32_t output_mask;         /* bit L: Location L is an output */
	uint32_t flat_mask;           /* fragment inputs decorated Flat */
	uint32_t noperspective_mask;  /* fragment inputs decorated NoPerspective */
	bool writes_point_size;       /* vertex: PointSize is written */
	bool writes_frag_depth;       /* fragment: FragDepth (DepthReplacing) */
	bool writes_sample_mask;      /* fragment: SampleMask output */
	bool may_discard;             /* fragment: contains OpKill / OpTerminateInvocation / OpDemoteToHelperInvocation */
	bool early_fragment_tests;    /* fragment: EarlyFragmentTests mode */
	bool reads_sample_id;         /* fragment: SampleId/SamplePosition => per-sample shading */
	uint32_t local_size[3];       /* compute, task, mesh: LocalSize */
	uint32_t push_constant_size;  /* bytes of the push-constant block used */
	uint32_t workgroup_memory_size; /* compute: bytes of Workgroup variables; tessellation
	                                   control: of the outputs (see rd_invocation.workgroup_memory) */
	/* geometry: Invocations, the input primitive's vertex count (1 points,
	 * 2 lines, 4 lines with adjacency, 3 triangles, 6 triangles with
	 * adjacency), the output primitive and OutputVertices */
	uint32_t gs_invocations;
	uint32_t gs_input_vertices;
	enum rd_gs_output gs_output;
	uint32_t gs_max_vertices;
	/* tessellation: OutputVertices (control; 0 when not declared), the
	 * modes either stage may declare (NONE when not declared), and
	 * per-patch Locations read (evaluation) or written (control) */
	uint32_t tess_output_vertices;
	enum rd_tess_domain tess_domain;
	enum rd_tess_spacing tess_spacing;
	enum rd_tess_order tess_order;
	bool tess_point_mode;
	uint32_t patch_input_mask, patch_output_mask;
	/* mesh: the output primitive, OutputVertices, OutputPrimitivesEXT and
	 * the Locations of per-primitive outputs (PerPrimitiveEXT); task and
	 * mesh: the TaskPayloadWorkgroupEXT variable's byte offset in the
	 * workgroup memory and its size (0: none) */
	enum rd_mesh_output mesh_output;
	uint32_t mesh_max_vertices, mesh_max_primitives;
	uint32_t primitive_output_mask;
	uint32_t payload_offset, payload_size;
	/* compute and tessellation control: OpControlBarrier is reachable,
	 * so a workgroup or patch runs with rd_shader_run_group */
	bool has_barrier;
	bool xfb;                     /* last pre-rasterization stage: Xfb execution mode */
	uint32_t xfb_stride[RD_MAX_XFB_BUFFERS]; /* XfbStride of each buffer captured to, else 0 */
	uint32_t xfb_output_count;
	struct rd_xfb_output xfb_outputs[RD_MAX_XFB_OUTPUTS];
};

/* Looks up entry point `name` of `stage`; false with err when absent. */
bool rd_shader_entry(const struct rd_shader *s, const char *name, enum rd_stage stage,
		     struct rd_entry_info *info, char *err, size_t errsize);

/* A descriptor resolved to memory: uniform and storage buffers. */
struct rd_buffer_range {
	uint8_t *data;
	uint64_t size;
};

struct rd_address_range {
	uint64_t base, size;  /* device addresses [base, base + size) */
	uint8_t *data;        /* the memory at base */
};

/* What every invocation of a draw or dispatch shares. */
struct rd_exec_env {
	const uint8_t *push_constants; /* 256 bytes, the command buffer's state */
	/* The buffer bound at (set, binding, array element); NULL if none. */
	const struct rd_buffer_range *(*buffer)(void *user, uint32_t set,
						uint32_t binding, uint32_t element);
	/* Fragment shaders: input attachment `index` of the subpass (its
	 * InputAttachmentIndex) at pixel (x, y) of view `view`, sample
	 * `sample`, as the 4 words a colour output of its format would hold
	 * (floats for float formats, integers for integer ones; depth in the
	 * first); false when there is no such attachment or pixel. */
	bool (*input_attachment)(void *user, uint32_t index, int32_t x, int32_t y,
				 uint32_t view, uint32_t sample, uint32_t out[4]);
	/* PhysicalStorageBuffer accesses: the bound buffer whose device
	 * address range holds [addr, addr + len): its first address, size
	 * and memory in *range; false when no buffer does. */
	bool (*address)(void *user, uint64_t addr, uint64_t len, struct rd_address_range *range);
	void *user;
};

/* A vertex out of a vertex or geometry shader, as the next stage reads it. */
struct rd_stage_vertex {
	float position[4];
	float point_size;
	uint32_t var[RD_MAX_LOCATIONS][4];
};

/* A tessellation control shader's output patch, as the tessellator and
 * the evaluation shader read it (rd_shader_patch_outputs). */
struct rd_patch {
	uint32_t vertices;                 /* OutputVertices */
	struct rd_stage_vertex vtx[RD_MAX_PATCH_VERTICES];
	float tess_outer[4], tess_inner[2];
	uint32_t var[RD_MAX_PATCH_LOCATIONS][4]; /* Patch outputs by Location */
};

/* One invocation's inputs and outputs.  Locations hold raw 32-bit words
 * (floats as their bit patterns); the caller fills inputs and builtins,
 * the run fills outputs. */
struct rd_invocation {
	/* inputs */
	uint32_t in[RD_MAX_LOCATIONS][4];
	uint32_t vertex_index;       /* VertexIndex (includes the first vertex / vertex offset) */
	uint32_t instance_index;     /* InstanceIndex (includes firstInstance) */
	uint32_t base_vertex;        /* BaseVertex: firstVertex, or vertexOffset when indexed */
	uint32_t base_instance;      /* BaseInstance: firstInstance */
	uint32_t draw_index;         /* DrawIndex: the draw's index in a multi-draw, else 0 */
	uint32_t view_index;         /* ViewIndex */
	float frag_coord[4];         /* FragCoord: x, y, z, 1/w */
	bool front_facing;           /* FrontFacing */
	uint32_t sample_id;          /* SampleId */
	float sample_position[2];    /* SamplePosition */
	uint32_t sample_mask_in;     /* SampleMask input */
	uint32_t global_id[3], local_id[3], workgroup_id[3], num_workgroups[3];
	uint32_t local_index;        /* LocalInvocationIndex */
	/* geometry: the input primitive's vertices (gs_input_vertices of
	 * them), InvocationId, PrimitiveId; OpEmitVertex / OpEmitStreamVertex
	 * fill the outputs below and call emit, OpEndPrimitive /
	 * OpEndStreamPrimitive call end_primitive.  A non-zero return from
	 * emit faults the invocation (err holds why). */
	const struct rd_stage_vertex *gs_in;
	uint32_t invocation_id;
	uint32_t primitive_id;
	/* tessellation control: gs_in holds the input patch's patch_vertices
	 * control points (PatchVertices); its outputs go to the shared
	 * workgroup_memory (workgroup_memory_size bytes, zeroed by the caller
	 * for each patch) that rd_shader_patch_outputs reads.  Evaluation:
	 * `patch` (gl_in[], the levels, Patch inputs) and TessCoord. */
	uint32_t patch_vertices;
	const struct rd_patch *patch;
	float tess_coord[3];
	int (*emit)(void *user, uint32_t stream, const struct rd_invocation *inv);
	void (*end_primitive)(void *user, uint32_t stream);
	void *emit_user;
	/* mesh: OpSetMeshOutputsEXT's counts (mesh_outputs_set once it ran;
	 * the outputs themselves go to the shared workgroup_memory, read with
	 * rd_shader_mesh_vertex and rd_shader_mesh_primitive).  Task:
	 * OpEmitMeshTasksEXT's workgroup counts (task_emitted once it ran; its
	 * payload is in workgroup_memory at payload_offset).  The caller
	 * zeroes them. */
	uint32_t mesh_vertex_count, mesh_primitive_count;
	bool mesh_outputs_set;
	uint32_t task_groups[3];
	bool task_emitted;
	/* compute: workgroup_memory_size bytes (4-byte aligned) that all
	 * invocations of one workgroup share, zeroed by the caller when the
	 * workgroup starts; NULL gives each invocation its own, which is only
	 * right for workgroups of one invocation. */
	uint8_t *workgroup_memory;
	/* outputs */
	uint32_t out[RD_MAX_LOCATIONS][4];
	float position[4];           /* Position */
	float point_size;            /* PointSize (1.0 when not written) */
	float frag_depth;            /* FragDepth (valid when writes_frag_depth) */
	uint32_t sample_mask_out;    /* SampleMask output (all ones if not written) */
	bool discarded;              /* the invocation was killed / demoted */
	/* instrumentation: when not NULL, block_counts[b] is incremented each
	 * time basic block b is entered (rd_shader_block_count entries) */
	uint64_t *block_counts;
	/* set when the invocation ran past the step limit (an endless loop):
	 * the executor loses the device, as a GPU's watchdog would */
	bool hung;
};

/* Runs one invocation.  Returns 0, or -1 with one line in err on a runtime
 * fault (e.g. an out-of-bounds buffer access, a step limit exceeded). */
int rd_shader_run(const struct rd_shader *s, const struct rd_entry_info *entry,
		  const struct rd_exec_env *env, struct rd_invocation *inv,
		  char *err, size_t errsize);

/* Runs `count` invocations that share workgroup memory (a compute
 * workgroup, a tessellation control patch: inv[i].workgroup_memory all the
 * same) to their end.  With entry->has_barrier they run in lockstep:
 * each up to its next OpControlBarrier, then all go on (spec "Control
 * Barrier Instructions"); an invocation that ends while others wait at a
 * barrier is a fault (the barrier must be in uniform control flow).
 * Returns as rd_shader_run (the first fault). */
int rd_shader_run_group(const struct rd_shader *s, const struct rd_entry_info *entry,
			const struct rd_exec_env *env, struct rd_invocation *inv, uint32_t count,
			char *err, size_t errsize);

/* Sets up the n = local_size product invocations of workgroup `id` of a
 * `count` grid (compute, task, mesh): zeroed, then WorkgroupId,
 * LocalInvocationId, GlobalInvocationId, NumWorkgroups, LocalInvocationIndex
 * ((z * ly + y) * lx + x) and the shared memory. */
void rd_shader_workgroup_invocations(struct rd_invocation *inv, const uint32_t local_size[3],
				     const uint32_t id[3], const uint32_t count[3], uint8_t *shared);

/* The output patch a tessellation control shader's invocations left in
 * their shared memory. */
void rd_shader_patch_outputs(const struct rd_shader *s, const struct rd_entry_info *entry,
			     const uint8_t *shared, struct rd_patch *out);

/* A mesh workgroup's output vertex v (below the count it set) and output
 * primitive i, as its invocations left them in their shared memory. */
struct rd_mesh_primitive {
	uint32_t index[3];             /* its vertices: 1, 2 or 3 by the output primitive */
	bool cull;                     /* CullPrimitiveEXT */
	uint32_t var[RD_MAX_LOCATIONS][4]; /* per-primitive outputs (primitive_output_mask) */
};
void rd_shader_mesh_vertex(const struct rd_shader *s, const struct rd_entry_info *entry,
			   const uint8_t *shared, uint32_t v, struct rd_stage_vertex *out);
void rd_shader_mesh_primitive(const struct rd_shader *s, const struct rd_entry_info *entry,
			      const uint8_t *shared, uint32_t i, struct rd_mesh_primitive *out);

/* Basic blocks (VK_ARM_shader_instrumentation): the module's OpLabels in
 * order, the SPIR-V instructions of each from its OpLabel to its
 * terminator, and the block an entry point starts in (the first block of
 * a function is never a branch target, so it is entered once per
 * invocation). */
uint32_t rd_shader_block_count(const struct rd_shader *s);
uint32_t rd_shader_block_instructions(const struct rd_shader *s, uint32_t block);
uint32_t rd_shader_entry_block(const struct rd_shader *s, const struct rd_entry_info *e);

#endif
