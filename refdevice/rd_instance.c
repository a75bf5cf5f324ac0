/* The instance and the one physical device: what the device reports. */
#include <string.h>

#include "compat.h"
#include "rd.h"
#include "rd_api.h"

#define RD_API_VERSION VK_MAKE_API_VERSION(0, 1, 3, 239)
#define RD_DRIVER_VERSION VK_MAKE_VERSION(0, 1, 0)
#define RD_VENDOR_ID 0x10fffu /* not a registered vendor: a software device */
#define RD_DEVICE_NAME "vkqs refdevice"
#define RD_DRIVER_NAME "refdevice"

/* Device extensions, and when each is offered.  The calibrated-timestamp
 * extensions only with RD_CLOCK=host: VkTimeDomainKHR defines the device
 * domain as "incrementing according to the timestampPeriod of the device",
 * comparable with host domains; the default cost-model clock advances with
 * work, not with real time, so it cannot honestly offer that. */
enum rd_offer { RD_ALWAYS, RD_HOST_CLOCK };
static const struct {
	VkExtensionProperties props;
	enum rd_offer offer;
} device_extensions[] = {
	{{VK_EXT_HOST_QUERY_RESET_EXTENSION_NAME, 1}, RD_ALWAYS},
	{{VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME, 1}, RD_ALWAYS},
	{{VK_EXT_PRIMITIVES_GENERATED_QUERY_EXTENSION_NAME, 1}, RD_ALWAYS},
	{{VK_QCOM_ELAPSED_TIMER_QUERY_EXTENSION_NAME, VK_QCOM_ELAPSED_TIMER_QUERY_SPEC_VERSION},
	 RD_ALWAYS},
	{{VK_ARM_PERFORMANCE_COUNTERS_BY_REGION_EXTENSION_NAME,
	  VK_ARM_PERFORMANCE_COUNTERS_BY_REGION_SPEC_VERSION},
	 RD_ALWAYS},
	{{VK_KHR_PERFORMANCE_QUERY_EXTENSION_NAME, VK_KHR_PERFORMANCE_QUERY_SPEC_VERSION}, RD_ALWAYS},
	{{VK_ARM_SHADER_INSTRUMENTATION_EXTENSION_NAME, VK_ARM_SHADER_INSTRUMENTATION_SPEC_VERSION},
	 RD_ALWAYS},
	{{VK_INTEL_PERFORMANCE_QUERY_EXTENSION_NAME, VK_INTEL_PERFORMANCE_QUERY_SPEC_VERSION},
	 RD_ALWAYS},
	{{VK_KHR_VIDEO_QUEUE_EXTENSION_NAME, VK_KHR_VIDEO_QUEUE_SPEC_VERSION}, RD_ALWAYS},
	{{VK_KHR_VIDEO_ENCODE_QUEUE_EXTENSION_NAME, VK_KHR_VIDEO_ENCODE_QUEUE_SPEC_VERSION}, RD_ALWAYS},
	{{VK_KHR_VIDEO_ENCODE_H264_EXTENSION_NAME, VK_KHR_VIDEO_ENCODE_H264_SPEC_VERSION}, RD_ALWAYS},
	{{VK_KHR_VIDEO_ENCODE_FEEDBACK_2_EXTENSION_NAME, VK_KHR_VIDEO_ENCODE_FEEDBACK_2_SPEC_VERSION},
	 RD_ALWAYS},
	{{VK_KHR_MAINTENANCE_9_EXTENSION_NAME, VK_KHR_MAINTENANCE_9_SPEC_VERSION}, RD_ALWAYS},
	{{VK_EXT_COLOR_WRITE_ENABLE_EXTENSION_NAME, 1}, RD_ALWAYS},
	{{VK_EXT_CONDITIONAL_RENDERING_EXTENSION_NAME, 2}, RD_ALWAYS},
	{{VK_EXT_MESH_SHADER_EXTENSION_NAME, 1}, RD_ALWAYS},
	{{VK_KHR_DEVICE_ADDRESS_COMMANDS_EXTENSION_NAME, 1}, RD_ALWAYS},
	{{VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME, 2}, RD_HOST_CLOCK},
	{{VK_KHR_CALIBRATED_TIMESTAMPS_EXTENSION_NAME, 1}, RD_HOST_CLOCK},
};

/* Count-and-fill with VK_INCOMPLETE, the way every enumeration works. */
#define RD_ENUMERATE(count_ptr, out_ptr, src, n)                      \
	do {                                                          \
		if (!(out_ptr)) {                                     \
			*(count_ptr) = (n);                           \
			return VK_SUCCESS;                            \
		}                                                     \
		uint32_t rd_n_ = *(count_ptr) < (n) ? *(count_ptr) : (n); \
		memcpy((out_ptr), (src), rd_n_ * sizeof(*(out_ptr))); \
		*(count_ptr) = rd_n_;                                 \
		return rd_n_ < (n) ? VK_INCOMPLETE : VK_SUCCESS;      \
	} while (0)

/* Promoted to 1.1, listed so applications that look for the extensions
 * (vulkaninfo does) find them. */
static const VkExtensionProperties instance_extensions[] = {
	{VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME, 2},
	{VK_KHR_DEVICE_GROUP_CREATION_EXTENSION_NAME, 1},
	{VK_KHR_EXTERNAL_MEMORY_CAPABILITIES_EXTENSION_NAME, 1},
	{VK_KHR_EXTERNAL_FENCE_CAPABILITIES_EXTENSION_NAME, 1},
	{VK_KHR_EXTERNAL_SEMAPHORE_CAPABILITIES_EXTENSION_NAME, 1},
};

VKAPI_ATTR VkResult VKAPI_CALL rd_EnumerateInstanceExtensionProperties(
	const char *pLayerName, uint32_t *pPropertyCount, VkExtensionProperties *pProperties)
{
	if (pLayerName)
		return VK_ERROR_LAYER_NOT_PRESENT;
	uint32_t n = sizeof(instance_extensions) / sizeof(instance_extensions[0]);
	RD_ENUMERATE(pPropertyCount, pProperties, instance_extensions, n);
}

VKAPI_ATTR VkResult VKAPI_CALL rd_EnumerateInstanceVersion(uint32_t *pApiVersion)
{
	*pApiVersion = RD_API_VERSION;
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_CreateInstance(const VkInstanceCreateInfo *pCreateInfo,
						 const VkAllocationCallbacks *pAllocator,
						 VkInstance *pInstance)
{
	for (uint32_t i = 0; i < pCreateInfo->enabledExtensionCount; i++) {
		bool ok = false;
		for (size_t k = 0; k < sizeof(instance_extensions) / sizeof(instance_extensions[0]); k++)
			ok |= !strcmp(instance_extensions[k].extensionName,
				      pCreateInfo->ppEnabledExtensionNames[i]);
		if (!ok)
			return RD_ERROR(VK_ERROR_EXTENSION_NOT_PRESENT,
					"vkCreateInstance: extension %s is not supported",
					pCreateInfo->ppEnabledExtensionNames[i]);
	}
	struct rd_instance *inst = rd_object_alloc(NULL, pAllocator, sizeof(*inst),
						   VK_OBJECT_TYPE_INSTANCE);
	if (!inst)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	if (pAllocator) {
		inst->alloc = *pAllocator;
		inst->has_alloc = true;
	}
	inst->api_version = pCreateInfo->pApplicationInfo && pCreateInfo->pApplicationInfo->apiVersion
				    ? pCreateInfo->pApplicationInfo->apiVersion
				    : VK_API_VERSION_1_0;
	rd_config_load(&inst->config);
	if (inst->config.invalid) {
		rd_free(pAllocator, inst);
		return VK_ERROR_INITIALIZATION_FAILED; /* the reason is on stderr */
	}
	inst->phys = rd_object_alloc(NULL, pAllocator, sizeof(*inst->phys),
				     VK_OBJECT_TYPE_PHYSICAL_DEVICE);
	if (!inst->phys) {
		rd_free(pAllocator, inst);
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	inst->phys->instance = inst;
	*pInstance = RD_TO_HANDLE(VkInstance, inst);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL rd_DestroyInstance(VkInstance instance,
					      const VkAllocationCallbacks *pAllocator)
{
	RD_FROM_HANDLE(rd_instance, inst, instance);
	if (!inst)
		return;
	rd_free(pAllocator, inst->phys);
	rd_free(pAllocator, inst);
}

VKAPI_ATTR VkResult VKAPI_CALL rd_EnumeratePhysicalDevices(VkInstance instance,
							   uint32_t *pPhysicalDeviceCount,
							   VkPhysicalDevice *pPhysicalDevices)
{
	RD_FROM_HANDLE(rd_instance, inst, instance);
	VkPhysicalDevice pd = RD_TO_HANDLE(VkPhysicalDevice, inst->phys);
	RD_ENUMERATE(pPhysicalDeviceCount, pPhysicalDevices, &pd, 1u);
}

VKAPI_ATTR VkResult VKAPI_CALL rd_EnumeratePhysicalDeviceGroups(
	VkInstance instance, uint32_t *pCount, VkPhysicalDeviceGroupProperties *pProps)
{
	RD_FROM_HANDLE(rd_instance, inst, instance);
	if (!pProps) {
		*pCount = 1;
		return VK_SUCCESS;
	}
	if (*pCount < 1)
		return VK_INCOMPLETE;
	*pCount = 1;
	pProps[0].physicalDeviceCount = 1;
	pProps[0].physicalDevices[0] = RD_TO_HANDLE(VkPhysicalDevice, inst->phys);
	pProps[0].subsetAllocation = VK_FALSE;
	return VK_SUCCESS;
}

/* Limits: at least the spec's "Required Limits", sized for a software
 * device.  Timestamp fields come from the knobs at query time. */
const VkPhysicalDeviceLimits rd_limits = {
	.maxImageDimension1D = 4096,
	.maxImageDimension2D = 4096,
	.maxImageDimension3D = 256,
	.maxImageDimensionCube = 4096,
	.maxImageArrayLayers = 256,
	.maxTexelBufferElements = 65536,
	.maxUniformBufferRange = 16384,
	.maxStorageBufferRange = 1u << 27,
	.maxPushConstantsSize = 256,
	.maxMemoryAllocationCount = 4096,
	.maxSamplerAllocationCount = 4000,
	.bufferImageGranularity = 1,
	.maxBoundDescriptorSets = RD_MAX_SETS,
	.maxPerStageDescriptorSamplers = 16,
	.maxPerStageDescriptorUniformBuffers = 12,
	.maxPerStageDescriptorStorageBuffers = 8,
	.maxPerStageDescriptorSampledImages = 16,
	.maxPerStageDescriptorStorageImages = 4,
	.maxPerStageDescriptorInputAttachments = 4,
	.maxPerStageResources = 128,
	.maxDescriptorSetSamplers = 96,
	.maxDescriptorSetUniformBuffers = 72,
	.maxDescriptorSetUniformBuffersDynamic = 8,
	.maxDescriptorSetStorageBuffers = 24,
	.maxDescriptorSetStorageBuffersDynamic = 4,
	.maxDescriptorSetSampledImages = 96,
	.maxDescriptorSetStorageImages = 24,
	.maxDescriptorSetInputAttachments = 4,
	.maxVertexInputAttributes = RD_MAX_LOCATIONS,
	.maxVertexInputBindings = RD_MAX_BINDINGS,
	.maxVertexInputAttributeOffset = 2047,
	.maxVertexInputBindingStride = 2048,
	.maxVertexOutputComponents = 64,
	/* tessellation: the spec's required minimums (rd_tess.h, rd_spirv.h;
	 * 120 per-patch components are 30 Patch Locations) */
	.maxTessellationGenerationLevel = RD_MAX_TESS_LEVEL,
	.maxTessellationPatchSize = RD_MAX_PATCH_VERTICES,
	.maxTessellationControlPerVertexInputComponents = 64,
	.maxTessellationControlPerVertexOutputComponents = 64,
	.maxTessellationControlPerPatchOutputComponents = 120,
	.maxTessellationControlTotalOutputComponents = 2048,
	.maxTessellationEvaluationInputComponents = 64,
	.maxTessellationEvaluationOutputComponents = 64,
	/* geometry: the spec's required minimums (RD_MAX_GS_* in rd_spirv.h) */
	.maxGeometryShaderInvocations = RD_MAX_GS_INVOCATIONS,
	.maxGeometryInputComponents = 64,
	.maxGeometryOutputComponents = 64,
	.maxGeometryOutputVertices = RD_MAX_GS_OUTPUT_VERTICES,
	.maxGeometryTotalOutputComponents = 1024,
	.maxFragmentInputComponents = 64,
	.maxFragmentOutputAttachments = 4,
	.maxFragmentCombinedOutputResources = 12,
	.maxComputeSharedMemorySize = 16384,
	.maxComputeWorkGroupCount = {65535, 65535, 65535},
	.maxComputeWorkGroupInvocations = 128,
	.maxComputeWorkGroupSize = {128, 128, 64},
	.subPixelPrecisionBits = 8,
	.subTexelPrecisionBits = 4,
	.mipmapPrecisionBits = 4,
	.maxDrawIndexedIndexValue = UINT32_MAX,
	.maxDrawIndirectCount = 1u << 30, /* multiDrawIndirect */
	.maxSamplerLodBias = 2.0f,
	.maxSamplerAnisotropy = 1.0f,
	.maxViewports = 1,
	.maxViewportDimensions = {4096, 4096},
	.viewportBoundsRange = {-8192.0f, 8191.0f},
	.minMemoryMapAlignment = 64,
	.minTexelBufferOffsetAlignment = 16,
	.minUniformBufferOffsetAlignment = 16,
	.minStorageBufferOffsetAlignment = 16,
	.minTexelOffset = -8,
	.maxTexelOffset = 7,
	.minTexelGatherOffset = -8,
	.maxTexelGatherOffset = 7,
	.minInterpolationOffset = -0.5f,
	.maxInterpolationOffset = 0.4375f,
	.subPixelInterpolationOffsetBits = 4,
	.maxFramebufferWidth = 4096,
	.maxFramebufferHeight = 4096,
	.maxFramebufferLayers = 256,
	.framebufferColorSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT,
	.framebufferDepthSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT,
	.framebufferStencilSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT,
	.framebufferNoAttachmentsSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT,
	.maxColorAttachments = 4,
	.sampledImageColorSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT,
	.sampledImageIntegerSampleCounts = VK_SAMPLE_COUNT_1_BIT,
	.sampledImageDepthSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT,
	.sampledImageStencilSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT,
	.storageImageSampleCounts = VK_SAMPLE_COUNT_1_BIT,
	.maxSampleMaskWords = 1,
	.timestampComputeAndGraphics = VK_TRUE,
	.timestampPeriod = 1.0f,
	.maxClipDistances = 8,
	.maxCullDistances = 8,
	.maxCombinedClipAndCullDistances = 8,
	.discreteQueuePriorities = 2,
	.pointSizeRange = {1.0f, 64.0f},
	.lineWidthRange = {1.0f, 1.0f},
	.pointSizeGranularity = 1.0f,
	.lineWidthGranularity = 0.0f,
	.strictLines = VK_FALSE,
	.standardSampleLocations = VK_TRUE,
	.optimalBufferCopyOffsetAlignment = 1,
	.optimalBufferCopyRowPitchAlignment = 1,
	.nonCoherentAtomSize = 64,
};

static void fill_uuid(uint8_t uuid[VK_UUID_SIZE], uint8_t tag)
{
	static const char id[] = "vkqs-refdevice";
	memset(uuid, 0, VK_UUID_SIZE);
	memcpy(uuid, id, sizeof(id) - 1 < VK_UUID_SIZE ? sizeof(id) - 1 : VK_UUID_SIZE);
	uuid[VK_UUID_SIZE - 1] = tag;
}

VKAPI_ATTR void VKAPI_CALL rd_GetPhysicalDeviceProperties(VkPhysicalDevice physicalDevice,
							  VkPhysicalDeviceProperties *p)
{
	RD_FROM_HANDLE(rd_physical_device, pd, physicalDevice);
	memset(p, 0, sizeof(*p));
	p->apiVersion = RD_API_VERSION;
	p->driverVersion = RD_DRIVER_VERSION;
	p->vendorID = RD_VENDOR_ID;
	p->deviceID = 1;
	p->deviceType = VK_PHYSICAL_DEVICE_TYPE_CPU;
	snprintf(p->deviceName, sizeof(p->deviceName), "%s", RD_DEVICE_NAME);
	fill_uuid(p->pipelineCacheUUID, 1);
	p->limits = rd_limits;
	p->limits.timestampPeriod = pd->instance->config.timestamp_period;
	if (rd_fault(&pd->instance->config, RD_FAULT_TS_PERIOD))
		p->limits.timestampPeriod *= 2.0f;
}

static void fill_driver(VkPhysicalDeviceDriverProperties *d)
{
	/* No registered VkDriverId: a value outside the registry's. */
	d->driverID = (VkDriverId)0x7fff0001;
	snprintf(d->driverName, sizeof(d->driverName), "%s", RD_DRIVER_NAME);
	snprintf(d->driverInfo, sizeof(d->driverInfo), "vkqs reference device 0.1");
	d->conformanceVersion = (VkConformanceVersion){0, 0, 0, 0};
}

static void fill_11(VkPhysicalDeviceVulkan11Properties *p)
{
	fill_uuid(p->deviceUUID, 2);
	fill_uuid(p->driverUUID, 3);
	p->subgroupSize = 1;
	p->subgroupSupportedStages = VK_SHADER_STAGE_COMPUTE_BIT;
	p->subgroupSupportedOperations = VK_SUBGROUP_FEATURE_BASIC_BIT;
	p->pointClippingBehavior = VK_POINT_CLIPPING_BEHAVIOR_ALL_CLIP_PLANES;
	p->maxMultiviewViewCount = RD_MAX_VIEWS;
	p->maxMultiviewInstanceIndex = (1u << 27) - 1;
	p->maxPerSetDescriptors = 1024;
	p->maxMemoryAllocationSize = 1ull << 31;
}

static void fill_12(VkPhysicalDeviceVulkan12Properties *p)
{
	VkPhysicalDeviceDriverProperties d = {0};
	fill_driver(&d);
	p->driverID = d.driverID;
	memcpy(p->driverName, d.driverName, sizeof(p->driverName));
	memcpy(p->driverInfo, d.driverInfo, sizeof(p->driverInfo));
	p->denormBehaviorIndependence = VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_ALL;
	p->roundingModeIndependence = VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_ALL;
	p->maxUpdateAfterBindDescriptorsInAllPools = 0;
	/* "Required Limits": each UpdateAfterBind descriptor limit is at least
	 * the corresponding non-UpdateAfterBind one (they count descriptors of
	 * every set layout, with or without UPDATE_AFTER_BIND_POOL). */
	p->maxPerStageDescriptorUpdateAfterBindSamplers = rd_limits.maxPerStageDescriptorSamplers;
	p->maxPerStageDescriptorUpdateAfterBindUniformBuffers =
		rd_limits.maxPerStageDescriptorUniformBuffers;
	p->maxPerStageDescriptorUpdateAfterBindStorageBuffers =
		rd_limits.maxPerStageDescriptorStorageBuffers;
	p->maxPerStageDescriptorUpdateAfterBindSampledImages =
		rd_limits.maxPerStageDescriptorSampledImages;
	p->maxPerStageDescriptorUpdateAfterBindStorageImages =
		rd_limits.maxPerStageDescriptorStorageImages;
	p->maxPerStageDescriptorUpdateAfterBindInputAttachments =
		rd_limits.maxPerStageDescriptorInputAttachments;
	p->maxPerStageUpdateAfterBindResources = rd_limits.maxPerStageResources;
	p->maxDescriptorSetUpdateAfterBindSamplers = rd_limits.maxDescriptorSetSamplers;
	p->maxDescriptorSetUpdateAfterBindUniformBuffers = rd_limits.maxDescriptorSetUniformBuffers;
	p->maxDescriptorSetUpdateAfterBindUniformBuffersDynamic =
		rd_limits.maxDescriptorSetUniformBuffersDynamic;
	p->maxDescriptorSetUpdateAfterBindStorageBuffers = rd_limits.maxDescriptorSetStorageBuffers;
	p->maxDescriptorSetUpdateAfterBindStorageBuffersDynamic =
		rd_limits.maxDescriptorSetStorageBuffersDynamic;
	p->maxDescriptorSetUpdateAfterBindSampledImages = rd_limits.maxDescriptorSetSampledImages;
	p->maxDescriptorSetUpdateAfterBindStorageImages = rd_limits.maxDescriptorSetStorageImages;
	p->maxDescriptorSetUpdateAfterBindInputAttachments =
		rd_limits.maxDescriptorSetInputAttachments;
	p->supportedDepthResolveModes = VK_RESOLVE_MODE_SAMPLE_ZERO_BIT;
	p->supportedStencilResolveModes = VK_RESOLVE_MODE_SAMPLE_ZERO_BIT;
	p->independentResolveNone = VK_TRUE;
	p->independentResolve = VK_TRUE;
	p->maxTimelineSemaphoreValueDifference = UINT64_MAX;
	p->framebufferIntegerColorSampleCounts = VK_SAMPLE_COUNT_1_BIT;
}

static void fill_13(VkPhysicalDeviceVulkan13Properties *p)
{
	p->minSubgroupSize = 1;
	p->maxSubgroupSize = 1;
	p->maxComputeWorkgroupSubgroups = 128;
	p->requiredSubgroupSizeStages = VK_SHADER_STAGE_COMPUTE_BIT;
	p->maxInlineUniformBlockSize = 256;
	p->maxPerStageDescriptorInlineUniformBlocks = 4;
	p->maxPerStageDescriptorUpdateAfterBindInlineUniformBlocks = 4;
	p->maxDescriptorSetInlineUniformBlocks = 4;
	p->maxDescriptorSetUpdateAfterBindInlineUniformBlocks = 4;
	p->maxInlineUniformTotalSize = 1024;
	p->storageTexelBufferOffsetAlignmentBytes = 16;
	p->uniformTexelBufferOffsetAlignmentBytes = 16;
	p->maxBufferSize = 1ull << 31;
}

VKAPI_ATTR void VKAPI_CALL rd_GetPhysicalDeviceProperties2(VkPhysicalDevice physicalDevice,
							   VkPhysicalDeviceProperties2 *pProperties)
{
	rd_GetPhysicalDeviceProperties(physicalDevice, &pProperties->properties);
	for (VkBaseOutStructure *s = pProperties->pNext; s; s = s->pNext) {
		switch ((int)s->sType) {
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES:
			fill_driver((VkPhysicalDeviceDriverProperties *)s);
			break;
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_9_PROPERTIES_KHR: {
			VkPhysicalDeviceMaintenance9PropertiesKHR *m9 = (void *)s;
			m9->image2DViewOf3DSparse = VK_FALSE; /* no sparse, no 3D images */
			/* A vertex input with no attribute description reads the
			 * zeroed invocation (rd_draw.c, shade_vertex). */
			m9->defaultVertexAttributeValue = VK_DEFAULT_VERTEX_ATTRIBUTE_VALUE_ZERO_ZERO_ZERO_ZERO_KHR;
			break;
		}
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_COUNTERS_BY_REGION_PROPERTIES_ARM: {
			RD_FROM_HANDLE(rd_physical_device, pd, physicalDevice);
			const struct rd_config *c = &pd->instance->config;
			VkPhysicalDevicePerformanceCountersByRegionPropertiesARM *p = (void *)s;
			p->maxPerRegionPerformanceCounters = RD_REGION_MAX_COUNTERS;
			p->performanceCounterRegionSize = (VkExtent2D){c->region_w, c->region_h};
			p->rowStrideAlignment = RD_REGION_ROW_ALIGN;
			p->regionAlignment = RD_REGION_ALIGN;
			p->identityTransformOrder = VK_TRUE;
			break;
		}
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_QUERY_PROPERTIES_KHR:
			/* vkCmdCopyQueryPoolResults shares the one results writer */
			((VkPhysicalDevicePerformanceQueryPropertiesKHR *)s)->allowCommandBufferQueryCopies =
				VK_TRUE;
			break;
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INSTRUMENTATION_PROPERTIES_ARM: {
			RD_FROM_HANDLE(rd_physical_device, pd, physicalDevice);
			VkPhysicalDeviceShaderInstrumentationPropertiesARM *p = (void *)s;
			p->numMetrics = RD_INSTR_METRICS;
			p->perBasicBlockGranularity = pd->instance->config.instrument_blocks;
			break;
		}
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES:
			fill_11((VkPhysicalDeviceVulkan11Properties *)s);
			break;
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES:
			fill_12((VkPhysicalDeviceVulkan12Properties *)s);
			break;
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES:
			fill_13((VkPhysicalDeviceVulkan13Properties *)s);
			break;
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES: {
			VkPhysicalDeviceIDProperties *p = (void *)s;
			fill_uuid(p->deviceUUID, 2);
			fill_uuid(p->driverUUID, 3);
			p->deviceLUIDValid = VK_FALSE;
			break;
		}
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_PROPERTIES: {
			VkPhysicalDeviceMultiviewProperties *p = (void *)s;
			p->maxMultiviewViewCount = RD_MAX_VIEWS;
			p->maxMultiviewInstanceIndex = (1u << 27) - 1;
			break;
		}
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES: {
			VkPhysicalDeviceSubgroupProperties *p = (void *)s;
			p->subgroupSize = 1;
			p->supportedStages = VK_SHADER_STAGE_COMPUTE_BIT;
			p->supportedOperations = VK_SUBGROUP_FEATURE_BASIC_BIT;
			break;
		}
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_POINT_CLIPPING_PROPERTIES:
			((VkPhysicalDevicePointClippingProperties *)s)->pointClippingBehavior =
				VK_POINT_CLIPPING_BEHAVIOR_ALL_CLIP_PLANES;
			break;
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES: {
			VkPhysicalDeviceMaintenance3Properties *p = (void *)s;
			p->maxPerSetDescriptors = 1024;
			p->maxMemoryAllocationSize = 1ull << 31;
			break;
		}
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES:
			((VkPhysicalDeviceMaintenance4Properties *)s)->maxBufferSize = 1ull << 31;
			break;
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_PROPERTIES:
			((VkPhysicalDeviceTimelineSemaphoreProperties *)s)
				->maxTimelineSemaphoreValueDifference = UINT64_MAX;
			break;
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_STENCIL_RESOLVE_PROPERTIES: {
			VkPhysicalDeviceDepthStencilResolveProperties *p = (void *)s;
			p->supportedDepthResolveModes = VK_RESOLVE_MODE_SAMPLE_ZERO_BIT;
			p->supportedStencilResolveModes = VK_RESOLVE_MODE_SAMPLE_ZERO_BIT;
			p->independentResolveNone = VK_TRUE;
			p->independentResolve = VK_TRUE;
			break;
		}
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_PROPERTIES_EXT: {
			/* The spec's required limits ("Limit Requirements"),
			 * multiview up to every view the device has. */
			VkPhysicalDeviceMeshShaderPropertiesEXT *p = (void *)s;
			p->maxTaskWorkGroupTotalCount = 1u << 22;
			p->maxMeshWorkGroupTotalCount = 1u << 22;
			for (int k = 0; k < 3; k++) {
				p->maxTaskWorkGroupCount[k] = p->maxMeshWorkGroupCount[k] = 65535;
				p->maxTaskWorkGroupSize[k] = p->maxMeshWorkGroupSize[k] = 128;
			}
			p->maxTaskWorkGroupInvocations = p->maxMeshWorkGroupInvocations = RD_MAX_MESH_INVOCATIONS;
			p->maxTaskPayloadSize = RD_MAX_TASK_PAYLOAD;
			p->maxTaskSharedMemorySize = 32768;
			p->maxTaskPayloadAndSharedMemorySize = 32768;
			p->maxMeshSharedMemorySize = 28672;
			p->maxMeshPayloadAndSharedMemorySize = 28672;
			p->maxMeshOutputMemorySize = 32768;
			p->maxMeshPayloadAndOutputMemorySize = 48128;
			p->maxMeshOutputComponents = 128;
			p->maxMeshOutputVertices = RD_MAX_MESH_VERTICES;
			p->maxMeshOutputPrimitives = RD_MAX_MESH_PRIMITIVES;
			p->maxMeshOutputLayers = 8;
			p->maxMeshMultiviewViewCount = RD_MAX_VIEWS;
			p->meshOutputPerVertexGranularity = 1;
			p->meshOutputPerPrimitiveGranularity = 1;
			p->maxPreferredTaskWorkGroupInvocations = 32;
			p->maxPreferredMeshWorkGroupInvocations = 32;
			p->prefersLocalInvocationVertexOutput = VK_FALSE;
			p->prefersLocalInvocationPrimitiveOutput = VK_FALSE;
			p->prefersCompactVertexOutput = VK_FALSE;
			p->prefersCompactPrimitiveOutput = VK_FALSE;
			break;
		}
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_PROPERTIES_EXT: {
			/* Vertex streams 0 to 3 from geometry shaders, any
			 * primitive on any of them; rasterization from stream 0
			 * only; sizes at least the spec's required limits. */
			VkPhysicalDeviceTransformFeedbackPropertiesEXT *p = (void *)s;
			p->maxTransformFeedbackStreams = RD_MAX_STREAMS;
			p->maxTransformFeedbackBuffers = RD_MAX_XFB_BUFFERS;
			p->maxTransformFeedbackBufferSize = 1ull << 31;
			p->maxTransformFeedbackStreamDataSize = 512;
			p->maxTransformFeedbackBufferDataSize = 512;
			p->maxTransformFeedbackBufferDataStride = 512;
			p->transformFeedbackQueries = VK_TRUE;
			p->transformFeedbackStreamsLinesTriangles = VK_TRUE;
			p->transformFeedbackRasterizationStreamSelect = VK_FALSE;
			p->transformFeedbackDraw = VK_FALSE;
			break;
		}
		default:
			break; /* left as the application initialised it */
		}
	}
}

/* Features: what the device implements (refdevice/README.md). */
static void fill_features(VkPhysicalDeviceFeatures *f)
{
	memset(f, 0, sizeof(*f));
	f->robustBufferAccess = VK_TRUE;
	f->geometryShader = VK_TRUE;
	f->tessellationShader = VK_TRUE;
	f->shaderTessellationAndGeometryPointSize = VK_TRUE;
	f->fullDrawIndexUint32 = VK_TRUE;
	f->independentBlend = VK_TRUE;
	f->depthClamp = VK_TRUE;
	f->depthBounds = VK_TRUE;
	f->largePoints = VK_TRUE;
	f->occlusionQueryPrecise = VK_TRUE;
	f->pipelineStatisticsQuery = VK_TRUE;
	f->vertexPipelineStoresAndAtomics = VK_TRUE;
	f->fragmentStoresAndAtomics = VK_TRUE;
	f->sampleRateShading = VK_TRUE;
	f->inheritedQueries = VK_TRUE;
	f->multiDrawIndirect = VK_TRUE;
	f->shaderInt64 = VK_TRUE;
}

VKAPI_ATTR void VKAPI_CALL rd_GetPhysicalDeviceFeatures(VkPhysicalDevice physicalDevice,
							VkPhysicalDeviceFeatures *pFeatures)
{
	fill_features(pFeatures);
}

VKAPI_ATTR void VKAPI_CALL rd_GetPhysicalDeviceFeatures2(VkPhysicalDevice physicalDevice,
							 VkPhysicalDeviceFeatures2 *pFeatures)
{
	fill_features(&pFeatures->features);
	for (VkBaseOutStructure *s = pFeatures->pNext; s; s = s->pNext) {
		switch ((int)s->sType) {
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_9_FEATURES_KHR:
			((VkPhysicalDeviceMaintenance9FeaturesKHR *)s)->maintenance9 = VK_TRUE;
			break;
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VIDEO_ENCODE_FEEDBACK_2_FEATURES_KHR:
			((VkPhysicalDeviceVideoEncodeFeedback2FeaturesKHR *)s)->videoEncodeFeedback2 = VK_TRUE;
			break;
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CONDITIONAL_RENDERING_FEATURES_EXT:
			/* secondaries run in the primary's state, predicate included */
			((VkPhysicalDeviceConditionalRenderingFeaturesEXT *)s)->conditionalRendering = VK_TRUE;
			((VkPhysicalDeviceConditionalRenderingFeaturesEXT *)s)->inheritedConditionalRendering =
				VK_TRUE;
			break;
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COLOR_WRITE_ENABLE_FEATURES_EXT:
			((VkPhysicalDeviceColorWriteEnableFeaturesEXT *)s)->colorWriteEnable = VK_TRUE;
			break;
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEVICE_ADDRESS_COMMANDS_FEATURES_KHR:
			((VkPhysicalDeviceDeviceAddressCommandsFeaturesKHR *)s)->deviceAddressCommands = VK_TRUE;
			break;
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES:
			((VkPhysicalDeviceVulkan11Features *)s)->multiview = VK_TRUE;
			((VkPhysicalDeviceVulkan11Features *)s)->shaderDrawParameters = VK_TRUE;
			break;
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DRAW_PARAMETERS_FEATURES:
			((VkPhysicalDeviceShaderDrawParametersFeatures *)s)->shaderDrawParameters = VK_TRUE;
			break;
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES: {
			VkPhysicalDeviceVulkan12Features *f = (void *)s;
			f->hostQueryReset = VK_TRUE;
			f->drawIndirectCount = VK_TRUE;
			f->timelineSemaphore = VK_TRUE;
			f->bufferDeviceAddress = VK_TRUE;
			f->scalarBlockLayout = VK_TRUE;
			f->uniformBufferStandardLayout = VK_TRUE;
			f->separateDepthStencilLayouts = VK_TRUE;
			f->imagelessFramebuffer = VK_FALSE;
			break;
		}
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES: {
			VkPhysicalDeviceVulkan13Features *f = (void *)s;
			f->synchronization2 = VK_TRUE;
			f->dynamicRendering = VK_TRUE;
			f->maintenance4 = VK_TRUE;
			f->shaderTerminateInvocation = VK_TRUE;
			f->shaderDemoteToHelperInvocation = VK_TRUE;
			break;
		}
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_FEATURES:
			((VkPhysicalDeviceMultiviewFeatures *)s)->multiview = VK_TRUE;
			break;
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES:
			((VkPhysicalDeviceHostQueryResetFeatures *)s)->hostQueryReset = VK_TRUE;
			break;
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES:
			((VkPhysicalDeviceTimelineSemaphoreFeatures *)s)->timelineSemaphore = VK_TRUE;
			break;
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES:
			((VkPhysicalDeviceSynchronization2Features *)s)->synchronization2 = VK_TRUE;
			break;
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES:
			((VkPhysicalDeviceDynamicRenderingFeatures *)s)->dynamicRendering = VK_TRUE;
			break;
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SCALAR_BLOCK_LAYOUT_FEATURES:
			((VkPhysicalDeviceScalarBlockLayoutFeatures *)s)->scalarBlockLayout = VK_TRUE;
			break;
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES:
			((VkPhysicalDeviceBufferDeviceAddressFeatures *)s)->bufferDeviceAddress = VK_TRUE;
			break;
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_FEATURES_EXT: {
			/* no primitiveFragmentShadingRateMeshShader (no shading rates) */
			VkPhysicalDeviceMeshShaderFeaturesEXT *f = (void *)s;
			f->taskShader = VK_TRUE;
			f->meshShader = VK_TRUE;
			f->multiviewMeshShader = VK_TRUE;
			f->primitiveFragmentShadingRateMeshShader = VK_FALSE;
			f->meshShaderQueries = VK_TRUE;
			break;
		}
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT: {
			VkPhysicalDeviceTransformFeedbackFeaturesEXT *f = (void *)s;
			f->transformFeedback = VK_TRUE;
			f->geometryStreams = VK_TRUE;
			break;
		}
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ELAPSED_TIMER_QUERY_FEATURES_QCOM:
			((VkPhysicalDeviceElapsedTimerQueryFeaturesQCOM *)s)->elapsedTimerQuery = VK_TRUE;
			break;
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_QUERY_FEATURES_KHR: {
			VkPhysicalDevicePerformanceQueryFeaturesKHR *f = (void *)s;
			f->performanceCounterQueryPools = VK_TRUE;
			f->performanceCounterMultipleQueryPools = VK_TRUE;
			break;
		}
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INSTRUMENTATION_FEATURES_ARM:
			((VkPhysicalDeviceShaderInstrumentationFeaturesARM *)s)->shaderInstrumentation =
				VK_TRUE;
			break;
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_COUNTERS_BY_REGION_FEATURES_ARM:
			((VkPhysicalDevicePerformanceCountersByRegionFeaturesARM *)s)
				->performanceCountersByRegion = VK_TRUE;
			break;
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVES_GENERATED_QUERY_FEATURES_EXT: {
			VkPhysicalDevicePrimitivesGeneratedQueryFeaturesEXT *f = (void *)s;
			f->primitivesGeneratedQuery = VK_TRUE;
			f->primitivesGeneratedQueryWithRasterizerDiscard = VK_TRUE;
			f->primitivesGeneratedQueryWithNonZeroStreams = VK_TRUE;
			break;
		}
		default:
			break;
		}
	}
}

VKAPI_ATTR void VKAPI_CALL rd_GetPhysicalDeviceFormatProperties(VkPhysicalDevice physicalDevice,
								VkFormat format,
								VkFormatProperties *p)
{
	const struct rd_format_info *fi = rd_format(format);
	memset(p, 0, sizeof(*p));
	if (!fi)
		return;
	p->optimalTilingFeatures = fi->optimal_features;
	/* Linear images: transfers only. */
	p->linearTilingFeatures = fi->optimal_features & (VK_FORMAT_FEATURE_TRANSFER_SRC_BIT |
							  VK_FORMAT_FEATURE_TRANSFER_DST_BIT);
	p->bufferFeatures = fi->buffer_features;
}

VKAPI_ATTR void VKAPI_CALL rd_GetPhysicalDeviceFormatProperties2(VkPhysicalDevice physicalDevice,
								 VkFormat format,
								 VkFormatProperties2 *p)
{
	rd_GetPhysicalDeviceFormatProperties(physicalDevice, format, &p->formatProperties);
	for (VkBaseOutStructure *s = p->pNext; s; s = s->pNext)
		if (s->sType == VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3) {
			VkFormatProperties3 *p3 = (void *)s;
			p3->linearTilingFeatures = p->formatProperties.linearTilingFeatures;
			p3->optimalTilingFeatures = p->formatProperties.optimalTilingFeatures;
			p3->bufferFeatures = p->formatProperties.bufferFeatures;
		}
}

VKAPI_ATTR VkResult VKAPI_CALL rd_GetPhysicalDeviceImageFormatProperties(
	VkPhysicalDevice physicalDevice, VkFormat format, VkImageType type, VkImageTiling tiling,
	VkImageUsageFlags usage, VkImageCreateFlags flags, VkImageFormatProperties *p)
{
	const struct rd_format_info *fi = rd_format(format);
	memset(p, 0, sizeof(*p));
	if (!fi || type != VK_IMAGE_TYPE_2D || flags)
		return VK_ERROR_FORMAT_NOT_SUPPORTED;
	VkFormatFeatureFlags have = tiling == VK_IMAGE_TILING_OPTIMAL
					    ? fi->optimal_features
					    : fi->optimal_features & (VK_FORMAT_FEATURE_TRANSFER_SRC_BIT |
								      VK_FORMAT_FEATURE_TRANSFER_DST_BIT);
	static const struct {
		VkImageUsageFlags usage;
		VkFormatFeatureFlags need;
	} map[] = {
		{VK_IMAGE_USAGE_TRANSFER_SRC_BIT, VK_FORMAT_FEATURE_TRANSFER_SRC_BIT},
		{VK_IMAGE_USAGE_TRANSFER_DST_BIT, VK_FORMAT_FEATURE_TRANSFER_DST_BIT},
		{VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT},
		{VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
		 VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT},
		{VK_IMAGE_USAGE_VIDEO_ENCODE_SRC_BIT_KHR, VK_FORMAT_FEATURE_VIDEO_ENCODE_INPUT_BIT_KHR},
		{VK_IMAGE_USAGE_VIDEO_ENCODE_DPB_BIT_KHR, VK_FORMAT_FEATURE_VIDEO_ENCODE_DPB_BIT_KHR},
	};
	VkImageUsageFlags known = 0;
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		known |= map[i].usage;
		if ((usage & map[i].usage) && !(have & map[i].need))
			return VK_ERROR_FORMAT_NOT_SUPPORTED;
	}
	if (usage & ~known)
		return VK_ERROR_FORMAT_NOT_SUPPORTED;
	p->maxExtent = (VkExtent3D){4096, 4096, 1};
	p->maxMipLevels = 1;
	p->maxArrayLayers = 256;
	p->sampleCounts = VK_SAMPLE_COUNT_1_BIT;
	if (tiling == VK_IMAGE_TILING_OPTIMAL &&
	    (usage & (VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
		      VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT)) &&
	    !(fi->is_uint || fi->is_sint))
		p->sampleCounts |= VK_SAMPLE_COUNT_4_BIT;
	p->maxResourceSize = 1ull << 31;
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_GetPhysicalDeviceImageFormatProperties2(
	VkPhysicalDevice physicalDevice, const VkPhysicalDeviceImageFormatInfo2 *info,
	VkImageFormatProperties2 *p)
{
	for (const VkBaseInStructure *s = info->pNext; s; s = s->pNext)
		if (s->sType == VK_STRUCTURE_TYPE_VIDEO_PROFILE_LIST_INFO_KHR) {
			if (!rd_video_image_profiles_ok(info->pNext))
				return VK_ERROR_VIDEO_PROFILE_CODEC_NOT_SUPPORTED_KHR;
		} else if (s->sType != VK_STRUCTURE_TYPE_IMAGE_STENCIL_USAGE_CREATE_INFO) {
			return VK_ERROR_FORMAT_NOT_SUPPORTED; /* external memory etc. */
		}
	return rd_GetPhysicalDeviceImageFormatProperties(physicalDevice, info->format, info->type,
							 info->tiling, info->usage, info->flags,
							 &p->imageFormatProperties);
}

VKAPI_ATTR void VKAPI_CALL rd_GetPhysicalDeviceSparseImageFormatProperties(
	VkPhysicalDevice physicalDevice, VkFormat format, VkImageType type,
	VkSampleCountFlagBits samples, VkImageUsageFlags usage, VkImageTiling tiling,
	uint32_t *pPropertyCount, VkSparseImageFormatProperties *pProperties)
{
	*pPropertyCount = 0; /* no sparse resources */
}

VKAPI_ATTR void VKAPI_CALL rd_GetPhysicalDeviceSparseImageFormatProperties2(
	VkPhysicalDevice physicalDevice, const VkPhysicalDeviceSparseImageFormatInfo2 *pFormatInfo,
	uint32_t *pPropertyCount, VkSparseImageFormatProperties2 *pProperties)
{
	*pPropertyCount = 0;
}

/* Family 0: graphics+compute+transfer, two queues; family 1: transfer only,
 * with other timestampValidBits so masking is exercised; family 2: video
 * encode (rd_video.c); family 3: compute+transfer (an "async compute"
 * family: dispatches, copies, queries, no render passes). */
static void fill_family(const struct rd_config *c, uint32_t i, VkQueueFamilyProperties *p)
{
	p->queueFlags = i == RD_FAMILY_GRAPHICS
				? VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT
			: i == RD_FAMILY_ENCODE	 ? VK_QUEUE_VIDEO_ENCODE_BIT_KHR
			: i == RD_FAMILY_COMPUTE ? VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT
						 : VK_QUEUE_TRANSFER_BIT;
	p->queueCount = i == RD_FAMILY_GRAPHICS ? RD_GRAPHICS_QUEUES : 1;
	p->timestampValidBits = rd_family_valid_bits(c, i);
	p->minImageTransferGranularity = (VkExtent3D){1, 1, 1};
}

VKAPI_ATTR void VKAPI_CALL rd_GetPhysicalDeviceQueueFamilyProperties(
	VkPhysicalDevice physicalDevice, uint32_t *pCount, VkQueueFamilyProperties *pProps)
{
	RD_FROM_HANDLE(rd_physical_device, pd, physicalDevice);
	if (!pProps) {
		*pCount = RD_FAMILY_COUNT;
		return;
	}
	if (*pCount > RD_FAMILY_COUNT)
		*pCount = RD_FAMILY_COUNT;
	for (uint32_t i = 0; i < *pCount; i++)
		fill_family(&pd->instance->config, i, &pProps[i]);
}

VKAPI_ATTR void VKAPI_CALL rd_GetPhysicalDeviceQueueFamilyProperties2(
	VkPhysicalDevice physicalDevice, uint32_t *pCount, VkQueueFamilyProperties2 *pProps)
{
	RD_FROM_HANDLE(rd_physical_device, pd, physicalDevice);
	if (!pProps) {
		*pCount = RD_FAMILY_COUNT;
		return;
	}
	if (*pCount > RD_FAMILY_COUNT)
		*pCount = RD_FAMILY_COUNT;
	for (uint32_t i = 0; i < *pCount; i++) {
		fill_family(&pd->instance->config, i, &pProps[i].queueFamilyProperties);
		for (VkBaseOutStructure *s = pProps[i].pNext; s; s = s->pNext)
			if (s->sType == VK_STRUCTURE_TYPE_QUEUE_FAMILY_VIDEO_PROPERTIES_KHR)
				((VkQueueFamilyVideoPropertiesKHR *)s)->videoCodecOperations =
					i == RD_FAMILY_ENCODE ? VK_VIDEO_CODEC_OPERATION_ENCODE_H264_BIT_KHR
							      : 0;
			else if (s->sType == VK_STRUCTURE_TYPE_QUEUE_FAMILY_QUERY_RESULT_STATUS_PROPERTIES_KHR)
				((VkQueueFamilyQueryResultStatusPropertiesKHR *)s)->queryResultStatusSupport =
					i == RD_FAMILY_ENCODE;
			/* VK_KHR_maintenance9: every family reads an image another
			 * family wrote without an ownership transfer (one memory,
			 * no compression). */
			else if (s->sType == VK_STRUCTURE_TYPE_QUEUE_FAMILY_OWNERSHIP_TRANSFER_PROPERTIES_KHR)
				((VkQueueFamilyOwnershipTransferPropertiesKHR *)s)
					->optimalImageTransferToQueueFamilies = (1u << RD_FAMILY_COUNT) - 1;
	}
}

/* One heap of host memory; every type host-visible and coherent. */
static void fill_memory(VkPhysicalDeviceMemoryProperties *m)
{
	memset(m, 0, sizeof(*m));
	m->memoryHeapCount = 1;
	m->memoryHeaps[0].size = 2ull << 30;
	m->memoryHeaps[0].flags = VK_MEMORY_HEAP_DEVICE_LOCAL_BIT;
	m->memoryTypeCount = 1;
	m->memoryTypes[0].heapIndex = 0;
	m->memoryTypes[0].propertyFlags =
		VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
		VK_MEMORY_PROPERTY_HOST_COHERENT_BIT | VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
}

VKAPI_ATTR void VKAPI_CALL rd_GetPhysicalDeviceMemoryProperties(
	VkPhysicalDevice physicalDevice, VkPhysicalDeviceMemoryProperties *p)
{
	fill_memory(p);
}

VKAPI_ATTR void VKAPI_CALL rd_GetPhysicalDeviceMemoryProperties2(
	VkPhysicalDevice physicalDevice, VkPhysicalDeviceMemoryProperties2 *p)
{
	fill_memory(&p->memoryProperties);
}

VKAPI_ATTR VkResult VKAPI_CALL rd_EnumerateDeviceExtensionProperties(
	VkPhysicalDevice physicalDevice, const char *pLayerName, uint32_t *pPropertyCount,
	VkExtensionProperties *pProperties)
{
	RD_FROM_HANDLE(rd_physical_device, pd, physicalDevice);
	if (pLayerName)
		return VK_ERROR_LAYER_NOT_PRESENT;
	const struct rd_config *c = &pd->instance->config;
	VkExtensionProperties offered[sizeof(device_extensions) / sizeof(device_extensions[0])];
	uint32_t n = 0;
	for (size_t i = 0; i < sizeof(device_extensions) / sizeof(device_extensions[0]); i++)
		if (device_extensions[i].offer == RD_ALWAYS ||
		    (device_extensions[i].offer == RD_HOST_CLOCK && c->host_clock))
			offered[n++] = device_extensions[i].props;
	RD_ENUMERATE(pPropertyCount, pProperties, offered, n);
}

VKAPI_ATTR VkResult VKAPI_CALL rd_EnumerateDeviceLayerProperties(
	VkPhysicalDevice physicalDevice, uint32_t *pPropertyCount, VkLayerProperties *pProperties)
{
	*pPropertyCount = 0;
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_GetPhysicalDeviceToolProperties(
	VkPhysicalDevice physicalDevice, uint32_t *pToolCount,
	VkPhysicalDeviceToolProperties *pToolProperties)
{
	*pToolCount = 0;
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL rd_GetPhysicalDeviceExternalBufferProperties(
	VkPhysicalDevice physicalDevice, const VkPhysicalDeviceExternalBufferInfo *info,
	VkExternalBufferProperties *p)
{
	memset(&p->externalMemoryProperties, 0, sizeof(p->externalMemoryProperties));
}

VKAPI_ATTR void VKAPI_CALL rd_GetPhysicalDeviceExternalFenceProperties(
	VkPhysicalDevice physicalDevice, const VkPhysicalDeviceExternalFenceInfo *info,
	VkExternalFenceProperties *p)
{
	p->exportFromImportedHandleTypes = 0;
	p->compatibleHandleTypes = 0;
	p->externalFenceFeatures = 0;
}

VKAPI_ATTR void VKAPI_CALL rd_GetPhysicalDeviceExternalSemaphoreProperties(
	VkPhysicalDevice physicalDevice, const VkPhysicalDeviceExternalSemaphoreInfo *info,
	VkExternalSemaphoreProperties *p)
{
	p->exportFromImportedHandleTypes = 0;
	p->compatibleHandleTypes = 0;
	p->externalSemaphoreFeatures = 0;
}

/* The device domain and the host's CLOCK_MONOTONIC. */
VKAPI_ATTR VkResult VKAPI_CALL rd_GetPhysicalDeviceCalibrateableTimeDomainsEXT(
	VkPhysicalDevice physicalDevice, uint32_t *pTimeDomainCount, VkTimeDomainEXT *pTimeDomains)
{
	static const VkTimeDomainEXT domains[] = {VK_TIME_DOMAIN_DEVICE_EXT,
						  VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT};
	RD_ENUMERATE(pTimeDomainCount, pTimeDomains, domains, 2u);
}

/* VK_ARM_performance_counters_by_region: the counters of the graphics
 * family (refdevice/README.md says exactly what each counts); the transfer
 * family runs no render passes and has none. */
const struct rd_region_counter rd_region_counters[RD_REGION_COUNTERS] = {
	{RD_RC_SAMPLES_PASSED, "samples_passed"},
	{RD_RC_FS_INVOCATIONS, "fragment_shader_invocations"},
	{RD_RC_FRAGMENT_NS, "fragment_ns"},
	{RD_RC_REGION_NS, "region_ns"},
	{RD_RC_TILES, "tiles"},
};

VKAPI_ATTR VkResult VKAPI_CALL rd_EnumeratePhysicalDeviceQueueFamilyPerformanceCountersByRegionARM(
	VkPhysicalDevice physicalDevice, uint32_t queueFamilyIndex, uint32_t *pCounterCount,
	VkPerformanceCounterARM *pCounters, VkPerformanceCounterDescriptionARM *pCounterDescriptions)
{
	uint32_t n = queueFamilyIndex == RD_FAMILY_GRAPHICS ? RD_REGION_COUNTERS : 0;
	if (!pCounters && !pCounterDescriptions) {
		*pCounterCount = n;
		return VK_SUCCESS;
	}
	uint32_t w = *pCounterCount < n ? *pCounterCount : n;
	for (uint32_t i = 0; i < w; i++) {
		if (pCounters)
			pCounters[i].counterID = rd_region_counters[i].id;
		if (pCounterDescriptions) {
			pCounterDescriptions[i].flags = 0;
			snprintf(pCounterDescriptions[i].name, sizeof(pCounterDescriptions[i].name), "%s",
				 rd_region_counters[i].name);
		}
	}
	*pCounterCount = w;
	return w < n ? VK_INCOMPLETE : VK_SUCCESS;
}
