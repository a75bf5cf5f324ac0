/* Command pools and buffers: recording.  Payload arrays live in a per
 * command buffer arena; an allocation failure is sticky and returned by
 * vkEndCommandBuffer (STYLE 12). */
#include <stdlib.h>
#include <string.h>

#include "rd_api.h"
#include "rd_cmd.h"


const char *const rd_cmd_names[RD_CMD_COUNT] = {
#define X(e) #e,
	RD_COMMANDS(X)
#undef X
};

struct rd_arena_block {
	struct rd_arena_block *next;
	size_t used, size;
	_Alignas(16) uint8_t data[];
};

static void *arena_alloc(struct rd_command_buffer *cb, size_t size)
{
	size = (size + 15) & ~(size_t)15;
	struct rd_arena_block *b = cb->arena;
	if (!b || b->used + size > b->size) {
		size_t cap = size > 65536 ? size : 65536;
		b = malloc(sizeof(*b) + cap);
		if (!b) {
			cb->record_error = VK_ERROR_OUT_OF_HOST_MEMORY;
			return NULL;
		}
		b->next = cb->arena;
		b->used = 0;
		b->size = cap;
		cb->arena = b;
	}
	void *p = b->data + b->used;
	b->used += size;
	return p;
}

static void *arena_copy(struct rd_command_buffer *cb, const void *src, size_t size)
{
	void *p = arena_alloc(cb, size ? size : 1);
	if (p && size)
		memcpy(p, src, size);
	return p;
}

static struct rd_cmd *cmd_push(struct rd_command_buffer *cb, enum rd_cmd_type type)
{
	if (cb->record_error != VK_SUCCESS)
		return NULL;
	if (cb->cmd_count == cb->cmd_cap) {
		uint32_t cap = cb->cmd_cap ? cb->cmd_cap * 2 : 64;
		struct rd_cmd *n = realloc(cb->cmds, cap * sizeof(*n));
		if (!n) {
			cb->record_error = VK_ERROR_OUT_OF_HOST_MEMORY;
			return NULL;
		}
		cb->cmds = n;
		cb->cmd_cap = cap;
	}
	struct rd_cmd *c = &cb->cmds[cb->cmd_count++];
	memset(c, 0, sizeof(*c));
	c->type = type;
	return c;
}

/* A new command; a draw or dispatch recorded while shader instrumentation
 * is active first takes the object's next result index ("incremented by 1
 * for each draw, dispatch ... recorded while the shader instrumentation
 * object is active", instrumented pipeline or not). */
static struct rd_cmd *cmd_new(VkCommandBuffer commandBuffer, enum rd_cmd_type type)
{
	struct rd_command_buffer *cb = (struct rd_command_buffer *)commandBuffer;
	struct rd_shader_instrumentation *in = cb->instr_active;
	if (in && rd_cmd_is_action(type)) {
		const struct rd_pipeline *p =
			cb->bound[type == RD_CMD_DISPATCH || type == RD_CMD_DISPATCH_INDIRECT];
		bool skip = rd_fault(&cb->base.device->instance->config, RD_FAULT_INSTR_INDEX_SKIP) &&
			    !(p && p->instrumented);
		struct rd_cmd *m = skip ? NULL : cmd_push(cb, RD_CMD_INSTRUMENT);
		if (m) {
			m->u.instrument.obj = in;
			m->u.instrument.index = atomic_fetch_add(&in->next_index, 1);
		}
	}
	return cmd_push(cb, type);
}

#define CB(h) ((struct rd_command_buffer *)(h))
/* Copies an application array into the arena; NULL only on failure. */
#define COPY_ARRAY(h, src, n) arena_copy(CB(h), (src), sizeof(*(src)) * (size_t)(n))

void rd_command_buffer_reset(struct rd_command_buffer *cb)
{
	while (cb->arena) {
		struct rd_arena_block *b = cb->arena;
		cb->arena = b->next;
		free(b);
	}
	cb->cmd_count = 0;
	cb->record_error = VK_SUCCESS;
	cb->state = RD_CB_INITIAL;
}

void rd_command_buffer_free(struct rd_command_buffer *cb)
{
	rd_command_buffer_reset(cb);
	free(cb->cmds);
	free(cb);
}

/* Pools --------------------------------------------------------------------*/

VKAPI_ATTR VkResult VKAPI_CALL rd_CreateCommandPool(VkDevice device,
						    const VkCommandPoolCreateInfo *ci,
						    const VkAllocationCallbacks *pAllocator,
						    VkCommandPool *pPool)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	struct rd_command_pool *p = rd_object_alloc(dev, pAllocator, sizeof(*p),
						    VK_OBJECT_TYPE_COMMAND_POOL);
	if (!p)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	p->family = ci->queueFamilyIndex;
	*pPool = RD_TO_HANDLE(VkCommandPool, p);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL rd_DestroyCommandPool(VkDevice device, VkCommandPool pool,
						 const VkAllocationCallbacks *pAllocator)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	RD_FROM_HANDLE(rd_command_pool, p, pool);
	if (!p)
		return;
	while (p->buffers) {
		struct rd_command_buffer *cb = p->buffers;
		p->buffers = cb->next_in_pool;
		rd_command_buffer_free(cb);
	}
	rd_free(DEV_ALLOC(dev, pAllocator), p);
}

VKAPI_ATTR VkResult VKAPI_CALL rd_ResetCommandPool(VkDevice device, VkCommandPool pool,
						   VkCommandPoolResetFlags flags)
{
	RD_FROM_HANDLE(rd_command_pool, p, pool);
	for (struct rd_command_buffer *cb = p->buffers; cb; cb = cb->next_in_pool)
		rd_command_buffer_reset(cb);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL rd_TrimCommandPool(VkDevice device, VkCommandPool pool,
					      VkCommandPoolTrimFlags flags)
{
}

VKAPI_ATTR VkResult VKAPI_CALL rd_AllocateCommandBuffers(VkDevice device,
							 const VkCommandBufferAllocateInfo *ai,
							 VkCommandBuffer *pCbs)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	RD_FROM_HANDLE(rd_command_pool, p, ai->commandPool);
	for (uint32_t i = 0; i < ai->commandBufferCount; i++) {
		struct rd_command_buffer *cb = calloc(1, sizeof(*cb));
		if (!cb) {
			rd_FreeCommandBuffers(device, ai->commandPool, i, pCbs);
			for (uint32_t k = 0; k < ai->commandBufferCount; k++)
				pCbs[k] = VK_NULL_HANDLE;
			return VK_ERROR_OUT_OF_HOST_MEMORY;
		}
		set_loader_magic_value(cb);
		cb->base.type = VK_OBJECT_TYPE_COMMAND_BUFFER;
		cb->base.device = dev;
		cb->pool = p;
		cb->level = ai->level;
		cb->next_in_pool = p->buffers;
		p->buffers = cb;
		pCbs[i] = RD_TO_HANDLE(VkCommandBuffer, cb);
	}
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL rd_FreeCommandBuffers(VkDevice device, VkCommandPool pool,
						 uint32_t count, const VkCommandBuffer *cbs)
{
	RD_FROM_HANDLE(rd_command_pool, p, pool);
	for (uint32_t i = 0; i < count; i++) {
		struct rd_command_buffer **pp = &p->buffers;
		while (*pp && *pp != CB(cbs[i]))
			pp = &(*pp)->next_in_pool;
		if (*pp) {
			struct rd_command_buffer *cb = *pp;
			*pp = cb->next_in_pool;
			rd_command_buffer_free(cb);
		}
	}
}

VKAPI_ATTR VkResult VKAPI_CALL rd_BeginCommandBuffer(VkCommandBuffer commandBuffer,
						     const VkCommandBufferBeginInfo *bi)
{
	struct rd_command_buffer *cb = CB(commandBuffer);
	rd_command_buffer_reset(cb);
	cb->state = RD_CB_RECORDING;
	cb->inherit_view_mask = 0;
	cb->instr_active = NULL;
	cb->bound[0] = cb->bound[1] = NULL;
	if (cb->level == VK_COMMAND_BUFFER_LEVEL_SECONDARY && bi->pInheritanceInfo)
		for (const VkBaseInStructure *s = bi->pInheritanceInfo->pNext; s; s = s->pNext)
			if (s->sType == VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_RENDERING_INFO)
				cb->inherit_view_mask =
					((const VkCommandBufferInheritanceRenderingInfo *)s)->viewMask;
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_EndCommandBuffer(VkCommandBuffer commandBuffer)
{
	struct rd_command_buffer *cb = CB(commandBuffer);
	cb->state = cb->record_error == VK_SUCCESS ? RD_CB_EXECUTABLE : RD_CB_INVALID;
	return cb->record_error;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_ResetCommandBuffer(VkCommandBuffer commandBuffer,
						     VkCommandBufferResetFlags flags)
{
	rd_command_buffer_reset(CB(commandBuffer));
	return VK_SUCCESS;
}

/* Recorders ------------------------------------------------------------------*/

VKAPI_ATTR void VKAPI_CALL rd_CmdBindPipeline(VkCommandBuffer cb, VkPipelineBindPoint bp,
					      VkPipeline pipeline)
{
	struct rd_cmd *c = cmd_new(cb, RD_CMD_BIND_PIPELINE);
	CB(cb)->bound[bp == VK_PIPELINE_BIND_POINT_COMPUTE] = (struct rd_pipeline *)pipeline;
	if (c) {
		c->u.bind_pipeline.bind_point = bp;
		c->u.bind_pipeline.pipeline = (struct rd_pipeline *)pipeline;
	}
}

/* One viewport and scissor (maxViewports 1). */
VKAPI_ATTR void VKAPI_CALL rd_CmdSetViewport(VkCommandBuffer cb, uint32_t first, uint32_t count,
					     const VkViewport *v)
{
	struct rd_cmd *c = first == 0 && count ? cmd_new(cb, RD_CMD_SET_VIEWPORT) : NULL;
	if (c)
		c->u.viewport = v[0];
}

VKAPI_ATTR void VKAPI_CALL rd_CmdSetScissor(VkCommandBuffer cb, uint32_t first, uint32_t count,
					    const VkRect2D *r)
{
	struct rd_cmd *c = first == 0 && count ? cmd_new(cb, RD_CMD_SET_SCISSOR) : NULL;
	if (c)
		c->u.scissor = r[0];
}

VKAPI_ATTR void VKAPI_CALL rd_CmdSetLineWidth(VkCommandBuffer cb, float w)
{
	struct rd_cmd *c = cmd_new(cb, RD_CMD_SET_LINE_WIDTH);
	if (c)
		c->u.line_width = w;
}

VKAPI_ATTR void VKAPI_CALL rd_CmdSetDepthBias(VkCommandBuffer cb, float constant, float clamp,
					      float slope)
{
	/* depthBiasEnable is never honoured (no depth bias): nothing to record */
}

VKAPI_ATTR void VKAPI_CALL rd_CmdSetBlendConstants(VkCommandBuffer cb, const float c[4])
{
	/* no blending */
}

VKAPI_ATTR void VKAPI_CALL rd_CmdSetDepthBounds(VkCommandBuffer cb, float min, float max)
{
	struct rd_cmd *c = cmd_new(cb, RD_CMD_SET_DEPTH_BOUNDS);
	if (c) {
		c->u.depth_bounds.min = min;
		c->u.depth_bounds.max = max;
	}
}

static void stencil(VkCommandBuffer cb, enum rd_cmd_type t, VkStencilFaceFlags faces, uint32_t v)
{
	struct rd_cmd *c = cmd_new(cb, t);
	if (c) {
		c->u.stencil.faces = faces;
		c->u.stencil.value = v;
	}
}

VKAPI_ATTR void VKAPI_CALL rd_CmdSetStencilCompareMask(VkCommandBuffer cb, VkStencilFaceFlags f,
						       uint32_t v)
{
	stencil(cb, RD_CMD_SET_STENCIL_COMPARE_MASK, f, v);
}

VKAPI_ATTR void VKAPI_CALL rd_CmdSetStencilWriteMask(VkCommandBuffer cb, VkStencilFaceFlags f,
						     uint32_t v)
{
	stencil(cb, RD_CMD_SET_STENCIL_WRITE_MASK, f, v);
}

VKAPI_ATTR void VKAPI_CALL rd_CmdSetStencilReference(VkCommandBuffer cb, VkStencilFaceFlags f,
						     uint32_t v)
{
	stencil(cb, RD_CMD_SET_STENCIL_REFERENCE, f, v);
}

VKAPI_ATTR void VKAPI_CALL rd_CmdBindDescriptorSets(VkCommandBuffer cb, VkPipelineBindPoint bp,
						    VkPipelineLayout layout, uint32_t first,
						    uint32_t count, const VkDescriptorSet *sets,
						    uint32_t dynCount, const uint32_t *dyn)
{
	/* More than the limits allow: the error is sticky, vkEndCommandBuffer
	 * returns it. */
	if (dynCount > RD_MAX_DYNAMIC) {
		rd_log("vkCmdBindDescriptorSets: %u dynamic offsets, more than the limits allow (%u)", dynCount,
		       RD_MAX_DYNAMIC);
		CB(cb)->record_error = VK_ERROR_FEATURE_NOT_PRESENT;
		return;
	}
	struct rd_cmd *c = cmd_new(cb, RD_CMD_BIND_DESCRIPTOR_SETS);
	if (!c)
		return;
	c->u.bind_sets.bind_point = bp;
	c->u.bind_sets.first = first;
	c->u.bind_sets.count = count;
	c->u.bind_sets.dyn_count = dynCount;
	for (uint32_t i = 0; i < dynCount; i++)
		c->u.bind_sets.dyn[i] = dyn[i];
	for (uint32_t i = 0; i < count && first + i < RD_MAX_SETS; i++)
		c->u.bind_sets.sets[i] = (struct rd_descriptor_set *)sets[i];
}

VKAPI_ATTR void VKAPI_CALL rd_CmdBindIndexBuffer(VkCommandBuffer cb, VkBuffer buffer,
						 VkDeviceSize offset, VkIndexType type)
{
	struct rd_cmd *c = cmd_new(cb, RD_CMD_BIND_INDEX_BUFFER);
	if (c) {
		c->u.bind_index.buffer = (struct rd_buffer *)buffer;
		c->u.bind_index.offset = offset;
		c->u.bind_index.type = type;
	}
}

VKAPI_ATTR void VKAPI_CALL rd_CmdBindVertexBuffers(VkCommandBuffer cb, uint32_t first,
						   uint32_t count, const VkBuffer *buffers,
						   const VkDeviceSize *offsets)
{
	struct rd_cmd *c = cmd_new(cb, RD_CMD_BIND_VERTEX_BUFFERS);
	if (!c)
		return;
	c->u.bind_vertex.first = first;
	c->u.bind_vertex.count = count;
	for (uint32_t i = 0; i < count && first + i < RD_MAX_BINDINGS; i++) {
		c->u.bind_vertex.buffers[i] = (struct rd_buffer *)buffers[i];
		c->u.bind_vertex.offsets[i] = offsets[i];
	}
}

VKAPI_ATTR void VKAPI_CALL rd_CmdDraw(VkCommandBuffer cb, uint32_t vertexCount,
				      uint32_t instanceCount, uint32_t firstVertex,
				      uint32_t firstInstance)
{
	struct rd_cmd *c = cmd_new(cb, RD_CMD_DRAW);
	if (c)
		c->u.draw = (__typeof__(c->u.draw)){vertexCount, instanceCount, firstVertex,
						firstInstance, 0};
}

VKAPI_ATTR void VKAPI_CALL rd_CmdDrawIndexed(VkCommandBuffer cb, uint32_t indexCount,
					     uint32_t instanceCount, uint32_t firstIndex,
					     int32_t vertexOffset, uint32_t firstInstance)
{
	struct rd_cmd *c = cmd_new(cb, RD_CMD_DRAW_INDEXED);
	if (c)
		c->u.draw = (__typeof__(c->u.draw)){indexCount, instanceCount, firstIndex,
						firstInstance, vertexOffset};
}

static struct rd_cmd *indirect(VkCommandBuffer cb, enum rd_cmd_type t, VkBuffer b, VkDeviceSize off,
			       uint32_t count, uint32_t stride)
{
	struct rd_cmd *c = cmd_new(cb, t);
	if (c) {
		c->u.indirect.buffer = (struct rd_buffer *)b;
		c->u.indirect.offset = off;
		c->u.indirect.count = count;
		c->u.indirect.stride = stride;
	}
	return c;
}

VKAPI_ATTR void VKAPI_CALL rd_CmdDrawIndirect(VkCommandBuffer cb, VkBuffer b, VkDeviceSize off,
					      uint32_t count, uint32_t stride)
{
	indirect(cb, RD_CMD_DRAW_INDIRECT, b, off, count, stride);
}

VKAPI_ATTR void VKAPI_CALL rd_CmdDrawIndexedIndirect(VkCommandBuffer cb, VkBuffer b,
						     VkDeviceSize off, uint32_t count,
						     uint32_t stride)
{
	indirect(cb, RD_CMD_DRAW_INDEXED_INDIRECT, b, off, count, stride);
}

static void indirect_count(VkCommandBuffer cb, enum rd_cmd_type t, VkBuffer b, VkDeviceSize off,
			   VkBuffer cbuf, VkDeviceSize coff, uint32_t max, uint32_t stride)
{
	struct rd_cmd *c = indirect(cb, t, b, off, max, stride);
	if (c) {
		c->u.indirect.count_buffer = (struct rd_buffer *)cbuf;
		c->u.indirect.count_offset = coff;
	}
}

VKAPI_ATTR void VKAPI_CALL rd_CmdDrawIndirectCount(VkCommandBuffer cb, VkBuffer b, VkDeviceSize off,
						   VkBuffer cbuf, VkDeviceSize coff, uint32_t max,
						   uint32_t stride)
{
	indirect_count(cb, RD_CMD_DRAW_INDIRECT_COUNT, b, off, cbuf, coff, max, stride);
}

VKAPI_ATTR void VKAPI_CALL rd_CmdDrawIndexedIndirectCount(VkCommandBuffer cb, VkBuffer b,
							  VkDeviceSize off, VkBuffer cbuf,
							  VkDeviceSize coff, uint32_t max,
							  uint32_t stride)
{
	indirect_count(cb, RD_CMD_DRAW_INDEXED_INDIRECT_COUNT, b, off, cbuf, coff, max, stride);
}

/* VK_EXT_mesh_shader */
VKAPI_ATTR void VKAPI_CALL rd_CmdDrawMeshTasksEXT(VkCommandBuffer cb, uint32_t x, uint32_t y,
						  uint32_t z)
{
	struct rd_cmd *c = cmd_new(cb, RD_CMD_DRAW_MESH);
	if (c) {
		c->u.dispatch.groups[0] = x;
		c->u.dispatch.groups[1] = y;
		c->u.dispatch.groups[2] = z;
	}
}

VKAPI_ATTR void VKAPI_CALL rd_CmdDrawMeshTasksIndirectEXT(VkCommandBuffer cb, VkBuffer b,
							  VkDeviceSize off, uint32_t count,
							  uint32_t stride)
{
	indirect(cb, RD_CMD_DRAW_MESH_INDIRECT, b, off, count, stride);
}

VKAPI_ATTR void VKAPI_CALL rd_CmdDrawMeshTasksIndirectCountEXT(VkCommandBuffer cb, VkBuffer b,
							       VkDeviceSize off, VkBuffer cbuf,
							       VkDeviceSize coff, uint32_t max,
							       uint32_t stride)
{
	indirect_count(cb, RD_CMD_DRAW_MESH_INDIRECT_COUNT, b, off, cbuf, coff, max, stride);
}

VKAPI_ATTR void VKAPI_CALL rd_CmdDispatchBase(VkCommandBuffer cb, uint32_t bx, uint32_t by,
					      uint32_t bz, uint32_t x, uint32_t y, uint32_t z)
{
	struct rd_cmd *c = cmd_new(cb, RD_CMD_DISPATCH);
	if (c)
		c->u.dispatch = (__typeof__(c->u.dispatch)){{bx, by, bz}, {x, y, z}};
}

VKAPI_ATTR void VKAPI_CALL rd_CmdDispatch(VkCommandBuffer cb, uint32_t x, uint32_t y, uint32_t z)
{
	rd_CmdDispatchBase(cb, 0, 0, 0, x, y, z);
}

VKAPI_ATTR void VKAPI_CALL rd_CmdDispatchIndirect(VkCommandBuffer cb, VkBuffer b,
						  VkDeviceSize off)
{
	indirect(cb, RD_CMD_DISPATCH_INDIRECT, b, off, 1, 0);
}

VKAPI_ATTR void VKAPI_CALL rd_CmdCopyBuffer(VkCommandBuffer cb, VkBuffer src, VkBuffer dst,
					    uint32_t n, const VkBufferCopy *regions)
{
	struct rd_cmd *c = cmd_new(cb, RD_CMD_COPY_BUFFER);
	if (c) {
		c->u.copy_buffer.src = (struct rd_buffer *)src;
		c->u.copy_buffer.dst = (struct rd_buffer *)dst;
		c->u.copy_buffer.count = n;
		c->u.copy_buffer.regions = COPY_ARRAY(cb, regions, n);
	}
}

VKAPI_ATTR void VKAPI_CALL rd_CmdCopyImage(VkCommandBuffer cb, VkImage src, VkImageLayout sl,
					   VkImage dst, VkImageLayout dl, uint32_t n,
					   const VkImageCopy *regions)
{
	struct rd_cmd *c = cmd_new(cb, RD_CMD_COPY_IMAGE);
	if (c) {
		c->u.copy_image.src = (struct rd_image *)src;
		c->u.copy_image.dst = (struct rd_image *)dst;
		c->u.copy_image.count = n;
		c->u.copy_image.regions = COPY_ARRAY(cb, regions, n);
	}
}

VKAPI_ATTR void VKAPI_CALL rd_CmdBlitImage(VkCommandBuffer cb, VkImage src, VkImageLayout sl,
					   VkImage dst, VkImageLayout dl, uint32_t n,
					   const VkImageBlit *regions, VkFilter filter)
{
	struct rd_cmd *c = cmd_new(cb, RD_CMD_BLIT_IMAGE);
	if (c) {
		c->u.blit.src = (struct rd_image *)src;
		c->u.blit.dst = (struct rd_image *)dst;
		c->u.blit.count = n;
		c->u.blit.regions = COPY_ARRAY(cb, regions, n);
	}
}

static void buffer_image(VkCommandBuffer cb, enum rd_cmd_type t, VkBuffer b, VkImage img,
			 uint32_t n, const VkBufferImageCopy *regions)
{
	struct rd_cmd *c = cmd_new(cb, t);
	if (c) {
		c->u.buffer_image.buffer = (struct rd_buffer *)b;
		c->u.buffer_image.image = (struct rd_image *)img;
		c->u.buffer_image.count = n;
		c->u.buffer_image.regions = COPY_ARRAY(cb, regions, n);
	}
}

VKAPI_ATTR void VKAPI_CALL rd_CmdCopyBufferToImage(VkCommandBuffer cb, VkBuffer src,
						   VkImage dst, VkImageLayout l, uint32_t n,
						   const VkBufferImageCopy *regions)
{
	buffer_image(cb, RD_CMD_COPY_BUFFER_TO_IMAGE, src, dst, n, regions);
}

VKAPI_ATTR void VKAPI_CALL rd_CmdCopyImageToBuffer(VkCommandBuffer cb, VkImage src,
						   VkImageLayout l, VkBuffer dst, uint32_t n,
						   const VkBufferImageCopy *regions)
{
	buffer_image(cb, RD_CMD_COPY_IMAGE_TO_BUFFER, dst, src, n, regions);
}

VKAPI_ATTR void VKAPI_CALL rd_CmdUpdateBuffer(VkCommandBuffer cb, VkBuffer dst,
					      VkDeviceSize off, VkDeviceSize size, const void *data)
{
	struct rd_cmd *c = cmd_new(cb, RD_CMD_UPDATE_BUFFER);
	if (c) {
		c->u.update.dst = (struct rd_buffer *)dst;
		c->u.update.offset = off;
		c->u.update.size = size;
		c->u.update.data = arena_copy(CB(cb), data, (size_t)size);
	}
}

VKAPI_ATTR void VKAPI_CALL rd_CmdFillBuffer(VkCommandBuffer cb, VkBuffer dst, VkDeviceSize off,
					    VkDeviceSize size, uint32_t data)
{
	struct rd_cmd *c = cmd_new(cb, RD_CMD_FILL_BUFFER);
	if (c) {
		c->u.fill.dst = (struct rd_buffer *)dst;
		c->u.fill.offset = off;
		c->u.fill.size = size;
		c->u.fill.data = data;
	}
}

static void clear_image(VkCommandBuffer cb, enum rd_cmd_type t, VkImage img, VkClearValue v,
			uint32_t n, const VkImageSubresourceRange *ranges)
{
	struct rd_cmd *c = cmd_new(cb, t);
	if (c) {
		c->u.clear_image.image = (struct rd_image *)img;
		c->u.clear_image.value = v;
		c->u.clear_image.count = n;
		c->u.clear_image.ranges = COPY_ARRAY(cb, ranges, n);
	}
}

VKAPI_ATTR void VKAPI_CALL rd_CmdClearColorImage(VkCommandBuffer cb, VkImage img,
						 VkImageLayout l, const VkClearColorValue *color,
						 uint32_t n, const VkImageSubresourceRange *ranges)
{
	clear_image(cb, RD_CMD_CLEAR_COLOR_IMAGE, img, (VkClearValue){.color = *color}, n, ranges);
}

VKAPI_ATTR void VKAPI_CALL rd_CmdClearDepthStencilImage(VkCommandBuffer cb, VkImage img,
							VkImageLayout l,
							const VkClearDepthStencilValue *ds,
							uint32_t n,
							const VkImageSubresourceRange *ranges)
{
	clear_image(cb, RD_CMD_CLEAR_DEPTH_STENCIL_IMAGE, img,
		    (VkClearValue){.depthStencil = *ds}, n, ranges);
}

VKAPI_ATTR void VKAPI_CALL rd_CmdClearAttachments(VkCommandBuffer cb, uint32_t na,
						  const VkClearAttachment *atts, uint32_t nr,
						  const VkClearRect *rects)
{
	struct rd_cmd *c = cmd_new(cb, RD_CMD_CLEAR_ATTACHMENTS);
	if (c) {
		c->u.clear_attachments.attachment_count = na;
		c->u.clear_attachments.attachments = COPY_ARRAY(cb, atts, na);
		c->u.clear_attachments.rect_count = nr;
		c->u.clear_attachments.rects = COPY_ARRAY(cb, rects, nr);
	}
}

VKAPI_ATTR void VKAPI_CALL rd_CmdResolveImage(VkCommandBuffer cb, VkImage src, VkImageLayout sl,
					      VkImage dst, VkImageLayout dl, uint32_t n,
					      const VkImageResolve *regions)
{
	struct rd_cmd *c = cmd_new(cb, RD_CMD_RESOLVE_IMAGE);
	if (c) {
		c->u.resolve.src = (struct rd_image *)src;
		c->u.resolve.dst = (struct rd_image *)dst;
		c->u.resolve.count = n;
		c->u.resolve.regions = COPY_ARRAY(cb, regions, n);
	}
}

static void event(VkCommandBuffer cb, enum rd_cmd_type t, VkEvent e)
{
	struct rd_cmd *c = cmd_new(cb, t);
	if (c)
		c->u.event = (struct rd_event *)e;
}

VKAPI_ATTR void VKAPI_CALL rd_CmdSetEvent(VkCommandBuffer cb, VkEvent e, VkPipelineStageFlags s)
{
	event(cb, RD_CMD_SET_EVENT, e);
}

VKAPI_ATTR void VKAPI_CALL rd_CmdResetEvent(VkCommandBuffer cb, VkEvent e, VkPipelineStageFlags s)
{
	event(cb, RD_CMD_RESET_EVENT, e);
}

VKAPI_ATTR void VKAPI_CALL rd_CmdSetEvent2(VkCommandBuffer cb, VkEvent e,
					   const VkDependencyInfo *dep)
{
	event(cb, RD_CMD_SET_EVENT, e);
}

VKAPI_ATTR void VKAPI_CALL rd_CmdResetEvent2(VkCommandBuffer cb, VkEvent e,
					     VkPipelineStageFlags2 s)
{
	event(cb, RD_CMD_RESET_EVENT, e);
}

static void wait_events(VkCommandBuffer cb, uint32_t n, const VkEvent *events)
{
	struct rd_cmd *c = cmd_new(cb, RD_CMD_WAIT_EVENTS);
	if (c) {
		c->u.wait_events.count = n;
		c->u.wait_events.events = COPY_ARRAY(cb, (struct rd_event *const *)events, n);
	}
}

VKAPI_ATTR void VKAPI_CALL rd_CmdWaitEvents(VkCommandBuffer cb, uint32_t n, const VkEvent *events,
					    VkPipelineStageFlags src, VkPipelineStageFlags dst,
					    uint32_t nm, const VkMemoryBarrier *mb, uint32_t nb,
					    const VkBufferMemoryBarrier *bb, uint32_t ni,
					    const VkImageMemoryBarrier *ib)
{
	wait_events(cb, n, events);
}

VKAPI_ATTR void VKAPI_CALL rd_CmdWaitEvents2(VkCommandBuffer cb, uint32_t n, const VkEvent *events,
					     const VkDependencyInfo *deps)
{
	wait_events(cb, n, events);
}

/* The queue executes in order, one command at a time: every barrier is
 * already satisfied for the data.  Recorded for the cost model: on the
 * tiler a barrier whose first scope holds fragment work holds back the
 * geometry engine (rd_exec.c). */
VKAPI_ATTR void VKAPI_CALL rd_CmdPipelineBarrier(VkCommandBuffer cb, VkPipelineStageFlags src,
						 VkPipelineStageFlags dst, VkDependencyFlags f,
						 uint32_t nm, const VkMemoryBarrier *mb,
						 uint32_t nb, const VkBufferMemoryBarrier *bb,
						 uint32_t ni, const VkImageMemoryBarrier *ib)
{
	struct rd_cmd *c = cmd_new(cb, RD_CMD_BARRIER);
	if (c)
		c->u.barrier_src = src;
}

VKAPI_ATTR void VKAPI_CALL rd_CmdPipelineBarrier2(VkCommandBuffer cb, const VkDependencyInfo *d)
{
	struct rd_cmd *c = cmd_new(cb, RD_CMD_BARRIER);
	if (!c)
		return;
	VkPipelineStageFlags2 src = 0;
	for (uint32_t i = 0; i < d->memoryBarrierCount; i++)
		src |= d->pMemoryBarriers[i].srcStageMask;
	for (uint32_t i = 0; i < d->bufferMemoryBarrierCount; i++)
		src |= d->pBufferMemoryBarriers[i].srcStageMask;
	for (uint32_t i = 0; i < d->imageMemoryBarrierCount; i++)
		src |= d->pImageMemoryBarriers[i].srcStageMask;
	c->u.barrier_src = src;
}

static void query(VkCommandBuffer cb, enum rd_cmd_type t, VkQueryPool pool, uint32_t q,
		  VkQueryControlFlags flags, uint32_t index)
{
	struct rd_cmd *c = cmd_new(cb, t);
	if (c) {
		c->u.query.pool = (struct rd_query_pool *)pool;
		c->u.query.query = q;
		c->u.query.flags = flags;
		c->u.query.index = index;
	}
}

/* "Calling vkCmdBeginQuery is equivalent to calling
 * vkCmdBeginQueryIndexedEXT with the index parameter set to zero" (18.2);
 * likewise for the ends. */
VKAPI_ATTR void VKAPI_CALL rd_CmdBeginQuery(VkCommandBuffer cb, VkQueryPool pool, uint32_t q,
					    VkQueryControlFlags flags)
{
	query(cb, RD_CMD_BEGIN_QUERY, pool, q, flags, 0);
}

VKAPI_ATTR void VKAPI_CALL rd_CmdEndQuery(VkCommandBuffer cb, VkQueryPool pool, uint32_t q)
{
	query(cb, RD_CMD_END_QUERY, pool, q, 0, 0);
}

VKAPI_ATTR void VKAPI_CALL rd_CmdBeginQueryIndexedEXT(VkCommandBuffer cb, VkQueryPool pool,
						      uint32_t q, VkQueryControlFlags flags,
						      uint32_t index)
{
	query(cb, RD_CMD_BEGIN_QUERY, pool, q, flags, index);
}

VKAPI_ATTR void VKAPI_CALL rd_CmdEndQueryIndexedEXT(VkCommandBuffer cb, VkQueryPool pool,
						    uint32_t q, uint32_t index)
{
	query(cb, RD_CMD_END_QUERY, pool, q, 0, index);
}

/* Transform feedback ("Transform Feedback"): bindings and the begin/end
 * counter buffers; maxTransformFeedbackBuffers bounds every index. */
VKAPI_ATTR void VKAPI_CALL rd_CmdBindTransformFeedbackBuffersEXT(
	VkCommandBuffer cb, uint32_t first, uint32_t count, const VkBuffer *buffers,
	const VkDeviceSize *offsets, const VkDeviceSize *sizes)
{
	struct rd_cmd *c = cmd_new(cb, RD_CMD_BIND_TRANSFORM_FEEDBACK_BUFFERS);
	if (!c)
		return;
	c->u.bind_xfb.first = first;
	c->u.bind_xfb.count = count;
	for (uint32_t i = 0; i < count && first + i < RD_MAX_XFB_BUFFERS; i++) {
		c->u.bind_xfb.buffers[i] = (struct rd_buffer *)buffers[i];
		c->u.bind_xfb.offsets[i] = offsets[i];
		c->u.bind_xfb.sizes[i] = sizes ? sizes[i] : VK_WHOLE_SIZE;
	}
}

static void xfb_counters(VkCommandBuffer cb, enum rd_cmd_type t, uint32_t first, uint32_t count,
			 const VkBuffer *buffers, const VkDeviceSize *offsets)
{
	struct rd_cmd *c = cmd_new(cb, t);
	if (!c)
		return;
	c->u.xfb_counters.first = first;
	c->u.xfb_counters.count = count;
	/* "If pCounterBuffers is NULL, then transform feedback will start
	 * capturing vertex data to byte offset zero"; NULL offsets are zeros. */
	for (uint32_t i = 0; buffers && i < count && first + i < RD_MAX_XFB_BUFFERS; i++) {
		c->u.xfb_counters.buffers[i] = (struct rd_buffer *)buffers[i];
		c->u.xfb_counters.offsets[i] = offsets ? offsets[i] : 0;
	}
}

VKAPI_ATTR void VKAPI_CALL rd_CmdBeginTransformFeedbackEXT(VkCommandBuffer cb, uint32_t first,
							   uint32_t count,
							   const VkBuffer *buffers,
							   const VkDeviceSize *offsets)
{
	xfb_counters(cb, RD_CMD_BEGIN_TRANSFORM_FEEDBACK, first, count, buffers, offsets);
}

VKAPI_ATTR void VKAPI_CALL rd_CmdEndTransformFeedbackEXT(VkCommandBuffer cb, uint32_t first,
							 uint32_t count, const VkBuffer *buffers,
							 const VkDeviceSize *offsets)
{
	xfb_counters(cb, RD_CMD_END_TRANSFORM_FEEDBACK, first, count, buffers, offsets);
}

/* transformFeedbackDraw is VK_FALSE: refused, the error returned by
 * vkEndCommandBuffer. */
VKAPI_ATTR void VKAPI_CALL rd_CmdDrawIndirectByteCountEXT(VkCommandBuffer cb, uint32_t instances,
							  uint32_t first_instance,
							  VkBuffer counter, VkDeviceSize offset,
							  uint32_t counter_offset, uint32_t stride)
{
	rd_log("vkCmdDrawIndirectByteCountEXT is not implemented (transformFeedbackDraw is VK_FALSE)");
	CB(cb)->record_error = VK_ERROR_FEATURE_NOT_PRESENT;
}

VKAPI_ATTR void VKAPI_CALL rd_CmdResetQueryPool(VkCommandBuffer cb, VkQueryPool pool,
						uint32_t first, uint32_t count)
{
	struct rd_cmd *c = cmd_new(cb, RD_CMD_RESET_QUERY_POOL);
	if (c) {
		c->u.reset_query.pool = (struct rd_query_pool *)pool;
		c->u.reset_query.first = first;
		c->u.reset_query.count = count;
	}
}

/* Every stage's timestamp is written when the command executes: all
 * earlier commands have completed by then, which is "any stage logically
 * later than" the one asked for (18.5). */
VKAPI_ATTR void VKAPI_CALL rd_CmdWriteTimestamp2(VkCommandBuffer cb, VkPipelineStageFlags2 stage,
						 VkQueryPool pool, uint32_t q)
{
	struct rd_cmd *c = cmd_new(cb, RD_CMD_WRITE_TIMESTAMP);
	if (c) {
		c->u.timestamp.pool = (struct rd_query_pool *)pool;
		c->u.timestamp.query = q;
	}
}

VKAPI_ATTR void VKAPI_CALL rd_CmdWriteTimestamp(VkCommandBuffer cb, VkPipelineStageFlagBits stage,
						VkQueryPool pool, uint32_t q)
{
	rd_CmdWriteTimestamp2(cb, stage, pool, q);
}

VKAPI_ATTR void VKAPI_CALL rd_CmdCopyQueryPoolResults(VkCommandBuffer cb, VkQueryPool pool,
						      uint32_t first, uint32_t count,
						      VkBuffer dst, VkDeviceSize off,
						      VkDeviceSize stride, VkQueryResultFlags flags)
{
	struct rd_cmd *c = cmd_new(cb, RD_CMD_COPY_QUERY_POOL_RESULTS);
	if (c)
		c->u.copy_query = (__typeof__(c->u.copy_query)){
			(struct rd_query_pool *)pool, first, count, (struct rd_buffer *)dst, off, stride, flags};
}

/* VK_KHR_device_address_commands: the range's address is the buffer's
 * memory (rd_GetBufferDeviceAddress). */
VKAPI_ATTR void VKAPI_CALL rd_CmdCopyQueryPoolResultsToMemoryKHR(
	VkCommandBuffer cb, VkQueryPool pool, uint32_t first, uint32_t count,
	const VkStridedDeviceAddressRangeKHR *range, VkAddressCommandFlagsKHR dst_flags,
	VkQueryResultFlags flags)
{
	struct rd_cmd *c = cmd_new(cb, RD_CMD_COPY_QUERY_POOL_RESULTS);
	if (c)
		c->u.copy_query = (__typeof__(c->u.copy_query)){
			.pool = (struct rd_query_pool *)pool, .first = first, .count = count,
			.stride = range->stride, .flags = flags, .address = range->address,
			.size = range->size};
}

/* VK_EXT_conditional_rendering: the predicate is read when the command
 * executes and latched for the block, which the spec allows ("Some
 * implementations may latch the value of the predicate upon beginning
 * conditional rendering"). */
VKAPI_ATTR void VKAPI_CALL rd_CmdBeginConditionalRenderingEXT(
	VkCommandBuffer cb, const VkConditionalRenderingBeginInfoEXT *info)
{
	struct rd_cmd *c = cmd_new(cb, RD_CMD_BEGIN_CONDITIONAL_RENDERING);
	if (c)
		c->u.conditional = (__typeof__(c->u.conditional)){
			.buffer = (struct rd_buffer *)info->buffer, .offset = info->offset,
			.inverted = info->flags & VK_CONDITIONAL_RENDERING_INVERTED_BIT_EXT};
}

VKAPI_ATTR void VKAPI_CALL rd_CmdBeginConditionalRendering2EXT(
	VkCommandBuffer cb, const VkConditionalRenderingBeginInfo2EXT *info)
{
	struct rd_cmd *c = cmd_new(cb, RD_CMD_BEGIN_CONDITIONAL_RENDERING);
	if (c)
		c->u.conditional = (__typeof__(c->u.conditional)){
			.address = info->addressRange.address,
			.inverted = info->flags & VK_CONDITIONAL_RENDERING_INVERTED_BIT_EXT};
}

VKAPI_ATTR void VKAPI_CALL rd_CmdEndConditionalRenderingEXT(VkCommandBuffer cb)
{
	cmd_new(cb, RD_CMD_END_CONDITIONAL_RENDERING);
}

VKAPI_ATTR void VKAPI_CALL rd_CmdSetColorWriteEnableEXT(VkCommandBuffer cb, uint32_t count,
							const VkBool32 *enables)
{
	struct rd_cmd *c = cmd_new(cb, RD_CMD_SET_COLOR_WRITE_ENABLE);
	if (c) {
		c->u.color_write_enable = 0;
		for (uint32_t i = 0; i < count && i < 32; i++)
			c->u.color_write_enable |= enables[i] ? 1u << i : 0;
	}
}

VKAPI_ATTR void VKAPI_CALL rd_CmdPushConstants(VkCommandBuffer cb, VkPipelineLayout layout,
					       VkShaderStageFlags stages, uint32_t offset,
					       uint32_t size, const void *values)
{
	struct rd_cmd *c = cmd_new(cb, RD_CMD_PUSH_CONSTANTS);
	if (c) {
		c->u.push.offset = offset;
		c->u.push.size = size;
		c->u.push.data = arena_copy(CB(cb), values, size);
	}
}

/* A VkRenderPassPerformanceCountersByRegionBeginInfoARM in the chain of a
 * render pass or rendering begin info, copied into the command buffer. */
static struct rd_region_request *region_request(VkCommandBuffer cb, const void *chain)
{
	for (const VkBaseInStructure *p = chain; p; p = p->pNext) {
		if ((int)p->sType !=
		    (int)VK_STRUCTURE_TYPE_RENDER_PASS_PERFORMANCE_COUNTERS_BY_REGION_BEGIN_INFO_ARM)
			continue;
		const VkRenderPassPerformanceCountersByRegionBeginInfoARM *bi = (const void *)p;
		struct rd_region_request *r = arena_alloc(CB(cb), sizeof(*r));
		if (!r)
			return NULL;
		r->address_count = bi->counterAddressCount;
		r->addresses = COPY_ARRAY(cb, bi->pCounterAddresses, bi->counterAddressCount);
		r->counter_count = bi->counterIndexCount;
		r->ids = COPY_ARRAY(cb, bi->pCounterIndices, bi->counterIndexCount);
		r->serialize = bi->serializeRegions;
		return r->addresses && r->ids ? r : NULL;
	}
	return NULL;
}

VKAPI_ATTR void VKAPI_CALL rd_CmdBeginRenderPass2(VkCommandBuffer cb,
						  const VkRenderPassBeginInfo *bi,
						  const VkSubpassBeginInfo *si)
{
	struct rd_cmd *c = cmd_new(cb, RD_CMD_BEGIN_RENDER_PASS);
	if (c) {
		c->u.begin_rp.pass = (struct rd_render_pass *)bi->renderPass;
		c->u.begin_rp.fb = (struct rd_framebuffer *)bi->framebuffer;
		c->u.begin_rp.area = bi->renderArea;
		c->u.begin_rp.clear_count = bi->clearValueCount;
		c->u.begin_rp.clears = COPY_ARRAY(cb, bi->pClearValues, bi->clearValueCount);
		c->u.begin_rp.regions = region_request(cb, bi->pNext);
	}
}

VKAPI_ATTR void VKAPI_CALL rd_CmdBeginRenderPass(VkCommandBuffer cb,
						 const VkRenderPassBeginInfo *bi,
						 VkSubpassContents contents)
{
	rd_CmdBeginRenderPass2(cb, bi, NULL);
}

VKAPI_ATTR void VKAPI_CALL rd_CmdNextSubpass2(VkCommandBuffer cb, const VkSubpassBeginInfo *bi,
					      const VkSubpassEndInfo *ei)
{
	cmd_new(cb, RD_CMD_NEXT_SUBPASS);
}

VKAPI_ATTR void VKAPI_CALL rd_CmdNextSubpass(VkCommandBuffer cb, VkSubpassContents contents)
{
	cmd_new(cb, RD_CMD_NEXT_SUBPASS);
}

VKAPI_ATTR void VKAPI_CALL rd_CmdEndRenderPass2(VkCommandBuffer cb, const VkSubpassEndInfo *ei)
{
	cmd_new(cb, RD_CMD_END_RENDER_PASS);
}

VKAPI_ATTR void VKAPI_CALL rd_CmdEndRenderPass(VkCommandBuffer cb)
{
	cmd_new(cb, RD_CMD_END_RENDER_PASS);
}

static void rendering_attachment(struct rd_rendering_attachment *d,
				 const VkRenderingAttachmentInfo *a)
{
	memset(d, 0, sizeof(*d));
	if (!a || !a->imageView)
		return;
	d->view = (struct rd_image_view *)a->imageView;
	d->resolve = a->resolveMode != VK_RESOLVE_MODE_NONE
			     ? (struct rd_image_view *)a->resolveImageView
			     : NULL;
	d->load_op = a->loadOp;
	d->clear = a->clearValue;
}

VKAPI_ATTR void VKAPI_CALL rd_CmdBeginRendering(VkCommandBuffer cb, const VkRenderingInfo *ri)
{
	struct rd_cmd *c = cmd_new(cb, RD_CMD_BEGIN_RENDERING);
	if (!c)
		return;
	c->u.begin_rendering.flags = ri->flags;
	c->u.begin_rendering.area = ri->renderArea;
	c->u.begin_rendering.layer_count = ri->layerCount;
	c->u.begin_rendering.view_mask = ri->viewMask;
	uint32_t n = ri->colorAttachmentCount < RD_MAX_COLOR ? ri->colorAttachmentCount : RD_MAX_COLOR;
	c->u.begin_rendering.color_count = n;
	c->u.begin_rendering.color = arena_alloc(CB(cb), (n ? n : 1) * sizeof(struct rd_rendering_attachment));
	if (!c->u.begin_rendering.color)
		return;
	for (uint32_t i = 0; i < n; i++)
		rendering_attachment(&c->u.begin_rendering.color[i], &ri->pColorAttachments[i]);
	rendering_attachment(&c->u.begin_rendering.depth, ri->pDepthAttachment);
	rendering_attachment(&c->u.begin_rendering.stencil, ri->pStencilAttachment);
	c->u.begin_rendering.regions = region_request(cb, ri->pNext);
}

VKAPI_ATTR void VKAPI_CALL rd_CmdEndRendering(VkCommandBuffer cb)
{
	cmd_new(cb, RD_CMD_END_RENDERING);
}

VKAPI_ATTR void VKAPI_CALL rd_CmdExecuteCommands(VkCommandBuffer cb, uint32_t n,
						 const VkCommandBuffer *cbs)
{
	struct rd_cmd *c = cmd_new(cb, RD_CMD_EXECUTE_COMMANDS);
	if (c) {
		c->u.execute.count = n;
		c->u.execute.cbs = COPY_ARRAY(cb, (struct rd_command_buffer *const *)cbs, n);
	}
}

/* VK_INTEL_performance_query markers and overrides (rd_intel.c; their
 * effect is the executor's, at execution). */
static VkResult intel_cmd(VkCommandBuffer cb, enum rd_cmd_type type, uint64_t value,
			  VkPerformanceOverrideTypeINTEL otype, bool enable)
{
	struct rd_cmd *c = cmd_new(cb, type);
	if (!c)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	c->u.intel.value = value;
	c->u.intel.type = otype;
	c->u.intel.enable = enable;
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_CmdSetPerformanceMarkerINTEL(
	VkCommandBuffer cb, const VkPerformanceMarkerInfoINTEL *info)
{
	return intel_cmd(cb, RD_CMD_INTEL_MARKER, info->marker, 0, false);
}

VKAPI_ATTR VkResult VKAPI_CALL rd_CmdSetPerformanceStreamMarkerINTEL(
	VkCommandBuffer cb, const VkPerformanceStreamMarkerInfoINTEL *info)
{
	return intel_cmd(cb, RD_CMD_INTEL_STREAM_MARKER, info->marker, 0, false);
}

VKAPI_ATTR VkResult VKAPI_CALL rd_CmdSetPerformanceOverrideINTEL(
	VkCommandBuffer cb, const VkPerformanceOverrideInfoINTEL *info)
{
	if (info->type != VK_PERFORMANCE_OVERRIDE_TYPE_NULL_HARDWARE_INTEL &&
	    info->type != VK_PERFORMANCE_OVERRIDE_TYPE_FLUSH_GPU_CACHES_INTEL)
		return RD_ERROR(VK_ERROR_UNKNOWN, "vkCmdSetPerformanceOverrideINTEL: type %d",
				info->type);
	return intel_cmd(cb, RD_CMD_INTEL_OVERRIDE, info->parameter, info->type, info->enable);
}

/* Video coding scopes (rd_video.c).  The session parameters of the scope
 * go with each encode; begin, end and control have no effect of their own
 * (the encoder keeps no state between operations: every picture is I_PCM). */
VKAPI_ATTR void VKAPI_CALL rd_CmdBeginVideoCodingKHR(VkCommandBuffer cb,
						     const VkVideoBeginCodingInfoKHR *info)
{
	CB(cb)->video_params = (struct rd_video_params *)(uintptr_t)info->videoSessionParameters;
	cmd_new(cb, RD_CMD_BEGIN_VIDEO_CODING);
}

VKAPI_ATTR void VKAPI_CALL rd_CmdEndVideoCodingKHR(VkCommandBuffer cb,
						   const VkVideoEndCodingInfoKHR *info)
{
	(void)info;
	CB(cb)->video_params = NULL;
	cmd_new(cb, RD_CMD_END_VIDEO_CODING);
}

VKAPI_ATTR void VKAPI_CALL rd_CmdControlVideoCodingKHR(VkCommandBuffer cb,
						       const VkVideoCodingControlInfoKHR *info)
{
	(void)info;
	cmd_new(cb, RD_CMD_CONTROL_VIDEO_CODING);
}

static struct rd_image_view *picture_view(const VkVideoPictureResourceInfoKHR *r)
{
	return (struct rd_image_view *)(uintptr_t)r->imageViewBinding;
}

VKAPI_ATTR void VKAPI_CALL rd_CmdEncodeVideoKHR(VkCommandBuffer cb, const VkVideoEncodeInfoKHR *info)
{
	const VkVideoEncodeH264PictureInfoKHR *h = NULL;
	for (const VkBaseInStructure *s = info->pNext; s; s = s->pNext)
		if (s->sType == VK_STRUCTURE_TYPE_VIDEO_ENCODE_H264_PICTURE_INFO_KHR)
			h = (const void *)s;
	if (!h || !h->pStdPictureInfo || !h->naluSliceEntryCount || !CB(cb)->video_params) {
		rd_log("vkCmdEncodeVideoKHR without H.264 picture info, a slice or session "
		       "parameters: not recorded");
		return;
	}
	struct rd_cmd *c = cmd_new(cb, RD_CMD_ENCODE_VIDEO);
	struct rd_encode *op = c ? arena_alloc(CB(cb), sizeof(*op)) : NULL;
	if (!op)
		return;
	memset(op, 0, sizeof(*op));
	op->params = CB(cb)->video_params;
	op->dst = (struct rd_buffer *)(uintptr_t)info->dstBuffer;
	op->offset = info->dstBufferOffset;
	op->range = info->dstBufferRange;
	op->src = picture_view(&info->srcPictureResource);
	op->src_offset = info->srcPictureResource.codedOffset;
	op->extent = info->srcPictureResource.codedExtent;
	if (info->pSetupReferenceSlot && info->pSetupReferenceSlot->pPictureResource)
		op->setup = picture_view(info->pSetupReferenceSlot->pPictureResource);
	op->picture = *h->pStdPictureInfo;
	op->picture.pRefLists = NULL;
	if (h->pNaluSliceEntries[0].pStdSliceHeader)
		op->slice = *h->pNaluSliceEntries[0].pStdSliceHeader;
	op->slice.pWeightTable = NULL;
	c->u.encode = op;
}
