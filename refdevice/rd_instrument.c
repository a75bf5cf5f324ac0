/* VK_ARM_shader_instrumentation (Vulkan-Docs 1.4.360, the extension's
 * appendix and vk.xml): instrumentation objects, their metric blocks, and the three
 * metrics the interpreter counts (refdevice/README.md "Shader
 * instrumentation").  The result index is stamped on each draw and
 * dispatch when it is recorded (rd_cmd.c); the executor captures the
 * block counts of instrumented pipelines' shaders (rd_exec_draw.c). */
#include <stdlib.h>
#include <string.h>

#include "compat.h"
#include "rd.h"
#include "rd_api.h"

static const struct {
	const char *name, *description;
} metrics[RD_INSTR_METRICS] = {
	{"invocations", "Shader invocations (counted in the block the entry point starts in)"},
	{"basic_blocks", "Basic blocks entered"},
	{"instructions", "SPIR-V instructions of the blocks entered, OpLabel to terminator"},
};

VKAPI_ATTR VkResult VKAPI_CALL rd_EnumeratePhysicalDeviceShaderInstrumentationMetricsARM(
	VkPhysicalDevice physicalDevice, uint32_t *pDescriptionCount,
	VkShaderInstrumentationMetricDescriptionARM *pDescriptions)
{
	if (!pDescriptions) {
		*pDescriptionCount = RD_INSTR_METRICS;
		return VK_SUCCESS;
	}
	uint32_t w = *pDescriptionCount < RD_INSTR_METRICS ? *pDescriptionCount : RD_INSTR_METRICS;
	for (uint32_t i = 0; i < w; i++) {
		snprintf(pDescriptions[i].name, sizeof(pDescriptions[i].name), "%s", metrics[i].name);
		snprintf(pDescriptions[i].description, sizeof(pDescriptions[i].description), "%s",
			 metrics[i].description);
	}
	*pDescriptionCount = w;
	return w < RD_INSTR_METRICS ? VK_INCOMPLETE : VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_CreateShaderInstrumentationARM(
	VkDevice device, const VkShaderInstrumentationCreateInfoARM *ci,
	const VkAllocationCallbacks *pAllocator, VkShaderInstrumentationARM *pInstrumentation)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	struct rd_shader_instrumentation *in =
		rd_object_alloc(dev, pAllocator, sizeof(*in), VK_OBJECT_TYPE_SHADER_INSTRUMENTATION_ARM);
	if (!in)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	/* "set to 0 by vkCreateShaderInstrumentationARM" */
	atomic_store(&in->next_index, 0);
	pthread_mutex_init(&in->lock, NULL);
	*pInstrumentation = RD_TO_HANDLE(VkShaderInstrumentationARM, in);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL rd_DestroyShaderInstrumentationARM(
	VkDevice device, VkShaderInstrumentationARM instrumentation,
	const VkAllocationCallbacks *pAllocator)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	RD_FROM_HANDLE(rd_shader_instrumentation, in, instrumentation);
	if (!in)
		return;
	pthread_mutex_destroy(&in->lock);
	free(in->blocks);
	rd_free(pAllocator ? pAllocator : dev->has_alloc ? &dev->alloc : NULL, in);
}

/* Spec order: resultIndex, then resultSubIndex, then grouped by stages,
 * then basicBlockIndex. */
static int key_cmp(const struct rd_instr_block *a, const struct rd_instr_block *b, bool by_stage)
{
	/* the fault: stages first */
	uint32_t ka[4] = {a->result_index, a->sub_index, a->stages, a->basic_block};
	uint32_t kb[4] = {b->result_index, b->sub_index, b->stages, b->basic_block};
	if (by_stage) {
		ka[0] = a->stages, ka[2] = a->result_index;
		kb[0] = b->stages, kb[2] = b->result_index;
	}
	for (int i = 0; i < 4; i++)
		if (ka[i] != kb[i])
			return ka[i] < kb[i] ? -1 : 1;
	return 0;
}

/* The block with key k, inserted (zero) when absent; NULL without memory.
 * Called with in->lock held. */
static struct rd_instr_block *block_at(struct rd_shader_instrumentation *in,
				       const struct rd_instr_block *k, bool by_stage)
{
	size_t lo = 0, hi = in->count;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = key_cmp(&in->blocks[mid], k, by_stage);
		if (c == 0)
			return &in->blocks[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (in->count == in->cap) {
		size_t cap = in->cap ? 2 * in->cap : 64;
		struct rd_instr_block *n = realloc(in->blocks, cap * sizeof(*n));
		if (!n)
			return NULL;
		in->blocks = n;
		in->cap = cap;
	}
	memmove(&in->blocks[lo + 1], &in->blocks[lo], (in->count - lo) * sizeof(*in->blocks));
	in->count++;
	in->blocks[lo] = *k;
	memset(in->blocks[lo].values, 0, sizeof(in->blocks[lo].values));
	return &in->blocks[lo];
}

/* Adds v to a block's values (the fault: replaces them, so nothing
 * aggregates over submissions). */
static void add_values(const struct rd_config *cfg, struct rd_instr_block *b,
		       const uint64_t v[RD_INSTR_METRICS])
{
	for (int m = 0; m < RD_INSTR_METRICS; m++)
		b->values[m] = (rd_fault(cfg, RD_FAULT_INSTR_NO_AGGREGATE) ? 0 : b->values[m]) + v[m];
}

void rd_instr_capture(struct rd_device *dev, struct rd_shader_instrumentation *in,
		      uint32_t result_index, VkShaderStageFlagBits stage,
		      const struct rd_shader *shader, const struct rd_entry_info *entry,
		      const uint64_t *counts)
{
	const struct rd_config *cfg = &dev->instance->config;
	uint32_t n = rd_shader_block_count(shader), first = rd_shader_entry_block(shader, entry);
	struct rd_instr_block k = {result_index, 0, (uint32_t)stage, 0, {0}};
	bool by_stage = rd_fault(cfg, RD_FAULT_INSTR_STAGE_ORDER);
	pthread_mutex_lock(&in->lock);
	if (!cfg->instrument_blocks) {
		/* perBasicBlockGranularity VK_FALSE: "all metrics for the shader
		 * are reported as basic block index 0" */
		uint64_t v[RD_INSTR_METRICS] = {counts[first], 0, 0};
		for (uint32_t i = 0; i < n; i++) {
			v[1] += counts[i];
			v[2] += counts[i] * rd_shader_block_instructions(shader, i);
		}
		struct rd_instr_block *b = block_at(in, &k, by_stage);
		if (b)
			add_values(cfg, b, v);
	} else {
		/* A block per basic block entered, and always the entry block
		 * (an action with no invocations still has its metrics). */
		for (uint32_t i = 0; i < n; i++) {
			if (!counts[i] && i != first)
				continue;
			k.basic_block = i;
			struct rd_instr_block *b = block_at(in, &k, by_stage);
			if (!b)
				break;
			uint64_t v[RD_INSTR_METRICS] = {i == first ? counts[i] : 0, counts[i],
							counts[i] * rd_shader_block_instructions(shader, i)};
			add_values(cfg, b, v);
		}
	}
	pthread_mutex_unlock(&in->lock);
}

#define BLOCK_BYTES (sizeof(VkShaderInstrumentationMetricDataHeaderARM) + 8 * RD_INSTR_METRICS)

VKAPI_ATTR VkResult VKAPI_CALL rd_GetShaderInstrumentationValuesARM(
	VkDevice device, VkShaderInstrumentationARM instrumentation, uint32_t *pMetricBlockCount,
	void *pMetricValues, VkShaderInstrumentationValuesFlagsARM flags)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	RD_FROM_HANDLE(rd_shader_instrumentation, in, instrumentation);
	pthread_mutex_lock(&in->lock);
	size_t avail = in->count;
	if (!pMetricValues) {
		*pMetricBlockCount = (uint32_t)avail;
		pthread_mutex_unlock(&in->lock);
		return VK_SUCCESS;
	}
	size_t w = *pMetricBlockCount < avail ? *pMetricBlockCount : avail;
	uint8_t *out = pMetricValues;
	for (size_t i = 0; i < w; i++) {
		const struct rd_instr_block *b = &in->blocks[i];
		VkShaderInstrumentationMetricDataHeaderARM h = {b->result_index, b->sub_index,
								b->stages, b->basic_block};
		if (rd_fault(&dev->instance->config, RD_FAULT_INSTR_HEADER_SWAP))
			h.resultIndex = b->basic_block, h.basicBlockIndex = b->result_index;
		memcpy(out + i * BLOCK_BYTES, &h, sizeof(h));
		memcpy(out + i * BLOCK_BYTES + sizeof(h), b->values, sizeof(b->values));
	}
	pthread_mutex_unlock(&in->lock);
	*pMetricBlockCount = (uint32_t)w;
	if (rd_fault(&dev->instance->config, RD_FAULT_INSTR_NO_INCOMPLETE))
		return VK_SUCCESS;
	return w < avail ? VK_INCOMPLETE : VK_SUCCESS;
}

/* "sets all metric blocks to zero"; not a reset: recorded result indices
 * stay valid, so the blocks stay. */
VKAPI_ATTR void VKAPI_CALL rd_ClearShaderInstrumentationMetricsARM(
	VkDevice device, VkShaderInstrumentationARM instrumentation)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	RD_FROM_HANDLE(rd_shader_instrumentation, in, instrumentation);
	pthread_mutex_lock(&in->lock);
	if (rd_fault(&dev->instance->config, RD_FAULT_INSTR_CLEAR_RESETS))
		in->count = 0;
	for (size_t i = 0; i < in->count; i++)
		memset(in->blocks[i].values, 0, sizeof(in->blocks[i].values));
	pthread_mutex_unlock(&in->lock);
}

/* Recording: active from begin to end in this command buffer; each draw
 * and dispatch recorded meanwhile takes the next result index (rd_cmd.c). */
VKAPI_ATTR void VKAPI_CALL rd_CmdBeginShaderInstrumentationARM(
	VkCommandBuffer commandBuffer, VkShaderInstrumentationARM instrumentation)
{
	struct rd_command_buffer *cb = (struct rd_command_buffer *)commandBuffer;
	cb->instr_active = (struct rd_shader_instrumentation *)instrumentation;
}

VKAPI_ATTR void VKAPI_CALL rd_CmdEndShaderInstrumentationARM(VkCommandBuffer commandBuffer)
{
	struct rd_command_buffer *cb = (struct rd_command_buffer *)commandBuffer;
	cb->instr_active = NULL;
}
