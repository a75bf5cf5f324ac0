/* VK_INTEL_performance_query (spec 18.10): initialisation, parameters,
 * configurations and the report a query writes.  The report is opaque to
 * the application in the spec ("handed over to a library"); the reference
 * device documents its own (refdevice/README.md "Intel performance
 * queries") so that its self-tests can read the marker back.  Every count
 * in it is a reader of the one counter sink: a query's begin/end
 * difference of struct rd_counters. */
#include <stdlib.h>
#include <string.h>

#include "rd.h"
#include "rd_api.h"

/* Report words, in order (README table). */
enum {
	W_MAGIC, W_MARKER, W_STREAM_MARKER, W_CONFIG, W_ELAPSED_NS, W_DRAWS, W_DISPATCHES,
	W_VS_INVOCATIONS, W_FS_INVOCATIONS, W_CS_INVOCATIONS, W_SAMPLES_PASSED, W_COMMANDS,
	W_RENDER_PASSES, W_BYTES_TRANSFERRED, W_OVERRIDES, W_RESERVED
};
_Static_assert(W_RESERVED + 1 == RD_INTEL_REPORT_WORDS, "the report is 16 words");

void rd_intel_report(uint64_t *w, const struct rd_counters *d, const struct rd_intel_state *s)
{
	memset(w, 0, RD_INTEL_REPORT_WORDS * sizeof(*w));
	uint64_t samples = 0;
	for (int v = 0; v < RD_MAX_VIEWS; v++)
		samples += d->draw.samples_passed[v];
	w[W_MAGIC] = RD_INTEL_MAGIC | (uint64_t)RD_INTEL_REPORT_WORDS << 48;
	w[W_MARKER] = s->marker;
	w[W_STREAM_MARKER] = s->stream_marker;
	w[W_CONFIG] = s->config;
	w[W_ELAPSED_NS] = d->time_ns;
	w[W_DRAWS] = d->draws;
	w[W_DISPATCHES] = d->dispatches;
	w[W_VS_INVOCATIONS] = d->draw.vs_invocations;
	w[W_FS_INVOCATIONS] = rd_fs_invocations(&d->draw);
	w[W_CS_INVOCATIONS] = d->cs_invocations;
	w[W_SAMPLES_PASSED] = samples;
	w[W_COMMANDS] = d->commands;
	w[W_RENDER_PASSES] = d->render_passes;
	w[W_BYTES_TRANSFERRED] = d->bytes_transferred;
	w[W_OVERRIDES] = (s->null_hardware ? 1u : 0u) | (uint64_t)s->flushes << 32;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_InitializePerformanceApiINTEL(
	VkDevice device, const VkInitializePerformanceApiInfoINTEL *info)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	(void)info;
	atomic_store(&dev->intel_initialized, true);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL rd_UninitializePerformanceApiINTEL(VkDevice device)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	atomic_store(&dev->intel_initialized, false);
}

VKAPI_ATTR VkResult VKAPI_CALL rd_GetPerformanceParameterINTEL(VkDevice device,
							       VkPerformanceParameterTypeINTEL parameter,
							       VkPerformanceValueINTEL *value)
{
	(void)device;
	switch (parameter) {
	case VK_PERFORMANCE_PARAMETER_TYPE_HW_COUNTERS_SUPPORTED_INTEL:
		value->type = VK_PERFORMANCE_VALUE_TYPE_BOOL_INTEL;
		value->data.valueBool = VK_TRUE;
		return VK_SUCCESS;
	case VK_PERFORMANCE_PARAMETER_TYPE_STREAM_MARKER_VALID_BITS_INTEL:
		value->type = VK_PERFORMANCE_VALUE_TYPE_UINT32_INTEL;
		value->data.value32 = RD_INTEL_STREAM_BITS;
		return VK_SUCCESS;
	default:
		return RD_ERROR(VK_ERROR_VALIDATION_FAILED_EXT,
				"vkGetPerformanceParameterINTEL: parameter %d", parameter);
	}
}

VKAPI_ATTR VkResult VKAPI_CALL rd_AcquirePerformanceConfigurationINTEL(
	VkDevice device, const VkPerformanceConfigurationAcquireInfoINTEL *info,
	VkPerformanceConfigurationINTEL *pConfiguration)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	if (info->type != VK_PERFORMANCE_CONFIGURATION_TYPE_COMMAND_QUEUE_METRICS_DISCOVERY_ACTIVATED_INTEL)
		return RD_ERROR(VK_ERROR_INITIALIZATION_FAILED,
				"vkAcquirePerformanceConfigurationINTEL: type %d", info->type);
	struct rd_performance_configuration *c = rd_object_alloc(
		dev, NULL, sizeof(*c), VK_OBJECT_TYPE_PERFORMANCE_CONFIGURATION_INTEL);
	if (!c)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	c->id = atomic_fetch_add(&dev->intel_next_config, 1) + 1;
	*pConfiguration = RD_TO_HANDLE(VkPerformanceConfigurationINTEL, c);
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_ReleasePerformanceConfigurationINTEL(
	VkDevice device, VkPerformanceConfigurationINTEL configuration)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	RD_FROM_HANDLE(rd_performance_configuration, c, configuration);
	if (c) {
		/* a queue that still has it set runs with none */
		for (int f = 0; f < RD_FAMILY_COUNT; f++)
			for (int k = 0; k < RD_GRAPHICS_QUEUES; k++) {
				struct rd_queue *q = dev->queues[f][k];
				uint64_t id = c->id;
				if (q)
					atomic_compare_exchange_strong(&q->intel_config, &id, 0);
			}
		rd_free(DEV_ALLOC(dev, NULL), c);
	}
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_QueueSetPerformanceConfigurationINTEL(
	VkQueue queue, VkPerformanceConfigurationINTEL configuration)
{
	RD_FROM_HANDLE(rd_queue, q, queue);
	RD_FROM_HANDLE(rd_performance_configuration, c, configuration);
	atomic_store(&q->intel_config, c ? c->id : 0);
	return VK_SUCCESS;
}
