/* Graphics work of the reference device: a draw through vertex fetch, the
 * vertex shader, primitive assembly, tessellation, the geometry shader,
 * clipping, rasterization (points,
 * lines, triangles; 1 and 4 samples), the fragment shader and the
 * per-fragment tests, in the spec's order (early or late fragment tests),
 * bumping the counters that queries read. */
#ifndef RD_DRAW_H
#define RD_DRAW_H

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan_core.h>

#include "rd_format.h"
#include "rd_spirv.h"
#include "rd_tess.h"

#define RD_MAX_COLOR 8
#define RD_MAX_BINDINGS 16
#define RD_MAX_VIEWS 8

/* Limits the rasterizer implements (rd_raster.c), for the ICD to report in
 * VkPhysicalDeviceLimits: subPixelPrecisionBits, pointSizeRange,
 * lineWidthRange (lines are rectangles: strictLines), and the largest
 * |framebuffer coordinate| a vertex may have (viewportBoundsRange must lie
 * inside it; primitives beyond it are dropped). */
#define RD_SUBPIXEL_BITS 8
#define RD_POINT_SIZE_MIN 1.0f
#define RD_POINT_SIZE_MAX 64.0f
#define RD_LINE_WIDTH_MIN 1.0f
#define RD_LINE_WIDTH_MAX 8.0f
#define RD_COORD_MAX 1048576.0

/* An attachment view: texel addressing as in rd_format.h; the view covers
 * array layers [base_layer, base_layer + layer_count). */
struct rd_attachment {
	uint8_t *base;                 /* NULL: no attachment */
	const struct rd_format_info *fmt;
	uint32_t width, height, samples;
	uint32_t image_layers;         /* layers of the image (address computation) */
	uint32_t base_layer;
};

struct rd_vertex_binding {
	const uint8_t *data;           /* buffer memory at the bound offset */
	uint64_t size;                 /* bytes from data to the buffer's end */
	uint32_t stride;
	VkVertexInputRate rate;
};

struct rd_vertex_attribute {
	uint32_t location, binding, offset;
	VkFormat format;
};

/* Everything a draw needs, resolved from the pipeline, dynamic state, the
 * render pass instance and the bound resources. */
struct rd_graphics_state {
	const struct rd_shader *vs;
	struct rd_entry_info vs_info;
	const struct rd_shader *gs;    /* NULL: no geometry shader */
	struct rd_entry_info gs_info;
	/* tessellation (NULL: none): both shaders, the input patch size and
	 * the tessellator's modes (both stages' merged, the domain origin) */
	const struct rd_shader *tcs, *tes;
	struct rd_entry_info tcs_info, tes_info;
	uint32_t patch_control_points;
	struct rd_tess_params tess;
	/* mesh shading (NULL: none; then vs is NULL and draws are
	 * vkCmdDrawMeshTasks*EXT): the task shader (NULL: none) and the mesh
	 * shader */
	const struct rd_shader *task, *mesh;
	struct rd_entry_info task_info, mesh_info;
	const struct rd_shader *fs;    /* NULL: no fragment shader */
	struct rd_entry_info fs_info;
	const struct rd_exec_env *env; /* push constants and descriptors */

	VkPrimitiveTopology topology;
	bool primitive_restart;
	uint32_t attribute_count;
	struct rd_vertex_attribute attributes[RD_MAX_LOCATIONS];
	struct rd_vertex_binding bindings[RD_MAX_BINDINGS];

	VkViewport viewport;
	VkRect2D scissor;
	VkRect2D render_area;
	bool rasterizer_discard;
	VkPolygonMode polygon_mode;
	VkCullModeFlags cull_mode;
	VkFrontFace front_face;
	bool depth_clamp;
	float line_width;

	VkSampleCountFlagBits samples;
	VkSampleMask sample_mask;
	bool sample_shading;           /* run the fragment shader per sample */
	bool alpha_to_coverage;        /* alphaToCoverageEnable */

	bool depth_test, depth_write;
	VkCompareOp depth_compare;
	bool depth_bounds_test;
	float min_depth_bounds, max_depth_bounds;
	bool stencil_test;
	VkStencilOpState front, back;  /* reference/masks already resolved */

	uint32_t color_count;
	struct rd_attachment color[RD_MAX_COLOR];
	VkColorComponentFlags color_write_mask[RD_MAX_COLOR];
	/* blending (spec "Framebuffer: Blending"): per attachment, with the
	 * pipeline's blend constants */
	VkPipelineColorBlendAttachmentState blend[RD_MAX_COLOR];
	float blend_constants[4];
	struct rd_attachment depth_stencil;

	uint32_t view_mask;            /* multiview: views to render; 0 = one view, layer 0 */
	struct rd_xfb *xfb;            /* transform feedback while active, else NULL */
	struct rd_bin *bin;            /* the binning phase of a tiled render pass: primitives
	                                  are appended here, not rasterized (rd_draw_tile) */
	/* shader instrumentation: per-basic-block entry counts of each
	 * stage's shader (rd_invocation.block_counts), or NULL */
	uint64_t *vs_blocks, *tcs_blocks, *tes_blocks, *gs_blocks, *task_blocks, *mesh_blocks,
		*fs_blocks;
};

/* A tiled render pass's primitive list (refdevice/README.md "Architectures"):
 * what the binning phase produced, in draw order, per view in view order;
 * each primitive after clipping and the viewport transform, with a
 * conservative pixel bounding box for binning. */
struct rd_bin_prim {
	uint32_t first_vertex;         /* index into vertices and vars */
	uint32_t flat;                 /* index into vars: the provoking vertex's outputs */
	uint8_t n;                     /* 1 point, 2 line, 3.. polygon */
	uint8_t view;
	int32_t x0, y0, x1, y1;        /* pixels that may be covered, inclusive */
};
struct rd_bin {
	struct rd_bin_prim *prims;
	size_t prim_count, prim_cap;
	struct rd_raster_vertex *vertices; /* var pointers are set on replay */
	uint32_t (*vars)[RD_MAX_LOCATIONS][4];
	size_t vertex_count, vertex_cap;   /* vars holds vertex_count entries too */
	bool oom;
};
void rd_bin_clear(struct rd_bin *b);
void rd_bin_free(struct rd_bin *b);

/* The entry point whose outputs are the last pre-rasterization stage's
 * (mesh, geometry, tessellation evaluation or vertex): what transform
 * feedback captures. */
static inline const struct rd_entry_info *rd_last_stage_info(const struct rd_graphics_state *st)
{
	return st->mesh ? &st->mesh_info : st->gs ? &st->gs_info
	       : st->tes ? &st->tes_info : &st->vs_info;
}

/* Transform feedback while active (spec "Transform Feedback"): the bound
 * ranges and where the next vertex goes in each; it lives from
 * vkCmdBeginTransformFeedbackEXT to vkCmdEndTransformFeedbackEXT. */
struct rd_xfb {
	uint8_t *data[RD_MAX_XFB_BUFFERS]; /* binding start (buffer + pOffsets[i]); NULL: unbound */
	uint64_t size[RD_MAX_XFB_BUFFERS]; /* bytes of the binding (pSizes[i] or the rest) */
	uint64_t pos[RD_MAX_XFB_BUFFERS];  /* next vertex, bytes from the binding start */
	bool full[RD_MAX_STREAMS];         /* a primitive of the stream did not fit: nothing
	                                      more is written for it */
};

struct rd_draw_params {
	bool indexed;
	uint32_t count;                /* vertexCount or indexCount */
	uint32_t instance_count;
	uint32_t first;                /* firstVertex or firstIndex */
	uint32_t first_instance;
	int32_t vertex_offset;         /* indexed only */
	const uint8_t *index_data;     /* indexed: buffer memory at the bound offset */
	uint64_t index_size;           /* bytes from index_data to the buffer's end */
	VkIndexType index_type;
	uint32_t draw_index;           /* DrawIndex: the record of an indirect draw, else 0 */
	/* a mesh draw (the pipeline has a mesh shader): the workgroup counts
	 * of vkCmdDrawMeshTasks*EXT, task workgroups if there is a task
	 * shader, else mesh workgroups */
	uint32_t groups[3];
};

/* The counters a draw bumps (spec 18.3 Sample Counting, 18.4 the pipeline
 * statistics, 18.8 primitives generated).  Views are counted separately so
 * multiview queries can be distributed. */
struct rd_draw_counters {
	uint64_t samples_passed[RD_MAX_VIEWS]; /* per view index */
	uint64_t ia_vertices;
	uint64_t ia_primitives;
	uint64_t vs_invocations;
	uint64_t tcs_patches;
	uint64_t tes_invocations;
	uint64_t tess_primitives;        /* the tessellator's (no statistic: for a fault) */
	uint64_t gs_invocations;
	uint64_t gs_primitives;
	uint64_t gs_primitives_first_strip; /* emitted before an invocation's first
	                                       OpEndPrimitive (no statistic: for a fault) */
	uint64_t clipping_invocations;
	uint64_t clipping_primitives;
	uint64_t task_invocations;
	uint64_t mesh_invocations;
	/* 18.9: mesh primitives that reach the fragment shader stage (not
	 * culled by CullPrimitiveEXT or facing, not clipped away, not
	 * discarded) */
	uint64_t mesh_primitives;
	uint64_t mesh_primitives_emitted; /* every one below the count set (no query: for a fault) */
	uint64_t fs_invocations[RD_MAX_VIEWS]; /* per view index */
	/* primitives out of the last vertex stage, per vertex stream */
	uint64_t primitives_generated[RD_MAX_STREAMS];
	/* 18.7, per vertex stream while transform feedback is active:
	 * primitives captured, and primitives output (captured or not). */
	uint64_t xfb_primitives_written[RD_MAX_STREAMS];
	uint64_t xfb_primitives_needed[RD_MAX_STREAMS];
};

static inline uint64_t rd_fs_invocations(const struct rd_draw_counters *c)
{
	uint64_t t = 0;
	for (int v = 0; v < RD_MAX_VIEWS; v++)
		t += c->fs_invocations[v];
	return t;
}

/* Executes one draw, adding to *c.  Returns 0, or -1 with one line in err
 * (a shader runtime fault). */
int rd_draw(const struct rd_graphics_state *st, const struct rd_draw_params *dp,
	    struct rd_draw_counters *c, char *err, size_t errsize);

/* The main phase of one binned draw for one tile: primitives [first, end)
 * of bin, rasterized within st->scissor (the tile already intersected),
 * through st's fragment shader.  Fragment-side counters only (the
 * binning phase counted the vertex side).  Returns as rd_draw. */
int rd_draw_tile(const struct rd_graphics_state *st, const struct rd_bin *bin, size_t first,
		 size_t end, struct rd_draw_counters *c, char *err, size_t errsize);

#endif
