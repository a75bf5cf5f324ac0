/* Recorded commands (STYLE 13): one list generates the command enum and
 * names; rd_cmd.c records them, rd_exec.c's switch executes them. */
#ifndef RD_CMD_H
#define RD_CMD_H

#include "rd.h"

#define RD_COMMANDS(X)                \
	X(BIND_PIPELINE)              \
	X(SET_VIEWPORT)               \
	X(SET_SCISSOR)                \
	X(SET_LINE_WIDTH)             \
	X(SET_COLOR_WRITE_ENABLE)     \
	X(SET_DEPTH_BOUNDS)           \
	X(SET_STENCIL_COMPARE_MASK)   \
	X(SET_STENCIL_WRITE_MASK)     \
	X(SET_STENCIL_REFERENCE)      \
	X(BIND_DESCRIPTOR_SETS)       \
	X(BIND_INDEX_BUFFER)          \
	X(BIND_VERTEX_BUFFERS)        \
	X(DRAW)                       \
	X(DRAW_INDEXED)               \
	X(DRAW_INDIRECT)              \
	X(DRAW_INDEXED_INDIRECT)      \
	X(DRAW_INDIRECT_COUNT)        \
	X(DRAW_INDEXED_INDIRECT_COUNT) \
	X(DRAW_MESH)                  \
	X(DRAW_MESH_INDIRECT)         \
	X(DRAW_MESH_INDIRECT_COUNT)   \
	X(DISPATCH)                   \
	X(DISPATCH_INDIRECT)          \
	X(COPY_BUFFER)                \
	X(COPY_IMAGE)                 \
	X(BLIT_IMAGE)                 \
	X(COPY_BUFFER_TO_IMAGE)       \
	X(COPY_IMAGE_TO_BUFFER)       \
	X(UPDATE_BUFFER)              \
	X(FILL_BUFFER)                \
	X(CLEAR_COLOR_IMAGE)          \
	X(CLEAR_DEPTH_STENCIL_IMAGE)  \
	X(CLEAR_ATTACHMENTS)          \
	X(RESOLVE_IMAGE)              \
	X(SET_EVENT)                  \
	X(RESET_EVENT)                \
	X(WAIT_EVENTS)                \
	X(BARRIER)                    \
	X(BEGIN_QUERY)                \
	X(END_QUERY)                  \
	X(RESET_QUERY_POOL)           \
	X(WRITE_TIMESTAMP)            \
	X(COPY_QUERY_POOL_RESULTS)    \
	X(PUSH_CONSTANTS)             \
	X(BEGIN_RENDER_PASS)          \
	X(NEXT_SUBPASS)               \
	X(END_RENDER_PASS)            \
	X(BEGIN_RENDERING)            \
	X(END_RENDERING)              \
	X(EXECUTE_COMMANDS)           \
	X(BIND_TRANSFORM_FEEDBACK_BUFFERS) \
	X(BEGIN_TRANSFORM_FEEDBACK)   \
	X(END_TRANSFORM_FEEDBACK)     \
	X(INSTRUMENT)                 \
	X(INTEL_MARKER)               \
	X(INTEL_STREAM_MARKER)        \
	X(INTEL_OVERRIDE)             \
	X(BEGIN_VIDEO_CODING)         \
	X(END_VIDEO_CODING)           \
	X(CONTROL_VIDEO_CODING)       \
	X(ENCODE_VIDEO)               \
	X(BEGIN_CONDITIONAL_RENDERING) \
	X(END_CONDITIONAL_RENDERING)

enum rd_cmd_type {
#define X(e) RD_CMD_##e,
	RD_COMMANDS(X)
#undef X
	RD_CMD_COUNT
};
extern const char *const rd_cmd_names[RD_CMD_COUNT];

/* The draw commands, vertex and mesh, direct and indirect. */
static inline bool rd_cmd_is_draw(enum rd_cmd_type t)
{
	return t == RD_CMD_DRAW || t == RD_CMD_DRAW_INDEXED || t == RD_CMD_DRAW_INDIRECT ||
	       t == RD_CMD_DRAW_INDEXED_INDIRECT || t == RD_CMD_DRAW_INDIRECT_COUNT ||
	       t == RD_CMD_DRAW_INDEXED_INDIRECT_COUNT || t == RD_CMD_DRAW_MESH ||
	       t == RD_CMD_DRAW_MESH_INDIRECT || t == RD_CMD_DRAW_MESH_INDIRECT_COUNT;
}

/* Draws and dispatches: the action commands that take a result index of
 * the active shader instrumentation. */
static inline bool rd_cmd_is_action(enum rd_cmd_type t)
{
	return rd_cmd_is_draw(t) || t == RD_CMD_DISPATCH || t == RD_CMD_DISPATCH_INDIRECT;
}

struct rd_rendering_attachment {
	struct rd_image_view *view;   /* NULL: none */
	struct rd_image_view *resolve;
	VkAttachmentLoadOp load_op;
	VkClearValue clear;
};

/* VkRenderPassPerformanceCountersByRegionBeginInfoARM, copied. */
struct rd_region_request {
	uint32_t address_count;
	VkDeviceAddress *addresses;    /* [s * L + l]; 0: not written */
	uint32_t counter_count;
	uint32_t *ids;                 /* counterIDs, in output order */
	bool serialize;
};

struct rd_cmd {
	enum rd_cmd_type type;
	union {
		struct {
			VkPipelineBindPoint bind_point;
			struct rd_pipeline *pipeline;
		} bind_pipeline;
		VkViewport viewport;
		VkRect2D scissor;
		float line_width;
		uint32_t color_write_enable;  /* bit i: attachment i */
		struct {
			float min, max;
		} depth_bounds;
		struct {
			VkStencilFaceFlags faces;
			uint32_t value;
		} stencil;
		struct {
			VkPipelineBindPoint bind_point;
			uint32_t first, count;
			struct rd_descriptor_set *sets[RD_MAX_SETS];
			uint32_t dyn_count;
			uint32_t dyn[RD_MAX_DYNAMIC];
		} bind_sets;
		struct {
			struct rd_buffer *buffer;
			VkDeviceSize offset;
			VkIndexType type;
		} bind_index;
		struct {
			uint32_t first, count;
			struct rd_buffer *buffers[RD_MAX_BINDINGS];
			VkDeviceSize offsets[RD_MAX_BINDINGS];
		} bind_vertex;
		struct {
			uint32_t count, instances, first, first_instance;
			int32_t vertex_offset;
		} draw;
		/* count: drawCount, or maxDrawCount with count_buffer (the
		 * *IndirectCount draws: the count read at count_offset) */
		struct {
			struct rd_buffer *buffer;
			VkDeviceSize offset;
			uint32_t count, stride;
			struct rd_buffer *count_buffer;
			VkDeviceSize count_offset;
		} indirect;
		struct {
			uint32_t base[3], groups[3];
		} dispatch;
		struct {
			struct rd_buffer *src, *dst;
			uint32_t count;
			VkBufferCopy *regions;
		} copy_buffer;
		struct {
			struct rd_image *src, *dst;
			uint32_t count;
			VkImageCopy *regions;
		} copy_image;
		struct {
			struct rd_image *src, *dst;
			uint32_t count;
			VkImageBlit *regions;
		} blit;
		struct {
			struct rd_buffer *buffer;
			struct rd_image *image;
			uint32_t count;
			VkBufferImageCopy *regions;
		} buffer_image;
		struct {
			struct rd_buffer *dst;
			VkDeviceSize offset, size;
			uint8_t *data;
		} update;
		struct {
			struct rd_buffer *dst;
			VkDeviceSize offset, size;
			uint32_t data;
		} fill;
		struct {
			struct rd_image *image;
			VkClearValue value;
			uint32_t count;
			VkImageSubresourceRange *ranges;
		} clear_image;
		struct {
			uint32_t attachment_count, rect_count;
			VkClearAttachment *attachments;
			VkClearRect *rects;
		} clear_attachments;
		struct {
			struct rd_image *src, *dst;
			uint32_t count;
			VkImageResolve *regions;
		} resolve;
		struct rd_event *event;
		VkPipelineStageFlags2 barrier_src; /* the first synchronization scope's stages */
		struct {
			uint32_t count;
			struct rd_event **events;
		} wait_events;
		struct {
			struct rd_query_pool *pool;
			uint32_t query;
			VkQueryControlFlags flags;
			uint32_t index;         /* vkCmd*QueryIndexedEXT: the vertex stream */
		} query;
		struct {
			struct rd_query_pool *pool;
			uint32_t first, count;
		} reset_query;
		struct {
			struct rd_query_pool *pool;
			uint32_t query;
		} timestamp;
		struct {
			struct rd_query_pool *pool;
			uint32_t first, count;
			struct rd_buffer *dst;   /* NULL: to memory at `address` */
			VkDeviceSize offset, stride;
			VkQueryResultFlags flags;
			VkDeviceAddress address; /* ...Results(ToMemoryKHR) */
			VkDeviceSize size;
		} copy_query;
		struct {
			uint32_t offset, size;
			uint8_t *data;
		} push;
		struct {
			struct rd_render_pass *pass;
			struct rd_framebuffer *fb;
			VkRect2D area;
			uint32_t clear_count;
			VkClearValue *clears;
			struct rd_region_request *regions; /* NULL: none */
		} begin_rp;
		struct {
			VkRect2D area;
			uint32_t layer_count, view_mask, color_count;
			VkRenderingFlags flags; /* SUSPENDING, RESUMING */
			struct rd_rendering_attachment *color;
			struct rd_rendering_attachment depth, stencil;
			struct rd_region_request *regions; /* NULL: none */
		} begin_rendering;
		struct {
			uint32_t count;
			struct rd_command_buffer **cbs;
		} execute;
		struct {
			uint32_t first, count;
			struct rd_buffer *buffers[RD_MAX_XFB_BUFFERS];
			VkDeviceSize offsets[RD_MAX_XFB_BUFFERS];
			VkDeviceSize sizes[RD_MAX_XFB_BUFFERS]; /* VK_WHOLE_SIZE: the rest */
		} bind_xfb;
		/* the next draw or dispatch is instrumented with this result index */
		struct {
			struct rd_shader_instrumentation *obj;
			uint32_t index;
		} instrument;
		/* VK_INTEL_performance_query markers and overrides */
		struct {
			uint64_t value;
			VkPerformanceOverrideTypeINTEL type;
			bool enable;
		} intel;
		struct rd_encode *encode;    /* vkCmdEncodeVideoKHR */
		/* VK_EXT_conditional_rendering: the predicate's address (a
		 * buffer's memory is its device address here) */
		struct {
			struct rd_buffer *buffer;   /* NULL: at `address` */
			VkDeviceSize offset;
			VkDeviceAddress address;
			bool inverted;
		} conditional;
		struct {
			uint32_t first, count;
			struct rd_buffer *buffers[RD_MAX_XFB_BUFFERS]; /* counter buffers, or NULL */
			VkDeviceSize offsets[RD_MAX_XFB_BUFFERS];
		} xfb_counters;
	} u;
};

#endif
