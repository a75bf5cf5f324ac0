/* Names newer than Debian's Vulkan 1.3.239 headers, from
 * ../shared/spec/new_extensions.md (values of the 1.4.359 header).
 * The only place such names are defined: each one guarded so that newer
 * headers win.  Include this instead of volk.h / vulkan.h directly. */
#ifndef VKQS_COMPAT_H
#define VKQS_COMPAT_H

#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include <volk.h>

/* VK_QCOM_elapsed_timer_query (new_extensions.md §1; extension 174) */
#ifndef VK_QCOM_elapsed_timer_query
#define VK_QCOM_elapsed_timer_query 1
#define VK_QCOM_ELAPSED_TIMER_QUERY_SPEC_VERSION 1
#define VK_QCOM_ELAPSED_TIMER_QUERY_EXTENSION_NAME "VK_QCOM_elapsed_timer_query"
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ELAPSED_TIMER_QUERY_FEATURES_QCOM ((VkStructureType)1000173000)
#define VK_QUERY_TYPE_TIME_ELAPSED_QCOM ((VkQueryType)1000173000)
typedef struct VkPhysicalDeviceElapsedTimerQueryFeaturesQCOM {
	VkStructureType sType;
	void *pNext;
	VkBool32 elapsedTimerQuery;
} VkPhysicalDeviceElapsedTimerQueryFeaturesQCOM;
#endif

/* VK_KHR_video_maintenance1 (extension 516; new_extensions.md §6 names it,
 * the values are the registry's): inline queries. */
#ifndef VK_KHR_video_maintenance1
#define VK_KHR_video_maintenance1 1
#define VK_KHR_VIDEO_MAINTENANCE_1_SPEC_VERSION 1
#define VK_KHR_VIDEO_MAINTENANCE_1_EXTENSION_NAME "VK_KHR_video_maintenance1"
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VIDEO_MAINTENANCE_1_FEATURES_KHR ((VkStructureType)1000515000)
#define VK_STRUCTURE_TYPE_VIDEO_INLINE_QUERY_INFO_KHR ((VkStructureType)1000515001)
#define VK_VIDEO_SESSION_CREATE_INLINE_QUERIES_BIT_KHR ((VkVideoSessionCreateFlagBitsKHR)0x00000004)
typedef struct VkPhysicalDeviceVideoMaintenance1FeaturesKHR {
	VkStructureType sType;
	void *pNext;
	VkBool32 videoMaintenance1;
} VkPhysicalDeviceVideoMaintenance1FeaturesKHR;
typedef struct VkVideoInlineQueryInfoKHR {
	VkStructureType sType;
	const void *pNext;
	VkQueryPool queryPool;
	uint32_t firstQuery;
	uint32_t queryCount;
} VkVideoInlineQueryInfoKHR;
#endif

/* VK_ARM_performance_counters_by_region (§2; extension 606). */
#ifndef VK_ARM_performance_counters_by_region
#define VK_ARM_performance_counters_by_region 1
#define VK_ARM_PERFORMANCE_COUNTERS_BY_REGION_SPEC_VERSION 1
#define VK_ARM_PERFORMANCE_COUNTERS_BY_REGION_EXTENSION_NAME "VK_ARM_performance_counters_by_region"
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_COUNTERS_BY_REGION_FEATURES_ARM ((VkStructureType)1000605000)
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_COUNTERS_BY_REGION_PROPERTIES_ARM ((VkStructureType)1000605001)
#define VK_STRUCTURE_TYPE_PERFORMANCE_COUNTER_ARM ((VkStructureType)1000605002)
#define VK_STRUCTURE_TYPE_PERFORMANCE_COUNTER_DESCRIPTION_ARM ((VkStructureType)1000605003)
#define VK_STRUCTURE_TYPE_RENDER_PASS_PERFORMANCE_COUNTERS_BY_REGION_BEGIN_INFO_ARM ((VkStructureType)1000605004)
typedef VkFlags VkPerformanceCounterDescriptionFlagsARM;
typedef struct VkPhysicalDevicePerformanceCountersByRegionFeaturesARM {
	VkStructureType sType;
	void *pNext;
	VkBool32 performanceCountersByRegion;
} VkPhysicalDevicePerformanceCountersByRegionFeaturesARM;
typedef struct VkPhysicalDevicePerformanceCountersByRegionPropertiesARM {
	VkStructureType sType;
	void *pNext;
	uint32_t maxPerRegionPerformanceCounters;
	VkExtent2D performanceCounterRegionSize;
	uint32_t rowStrideAlignment;
	uint32_t regionAlignment;
	VkBool32 identityTransformOrder;
} VkPhysicalDevicePerformanceCountersByRegionPropertiesARM;
typedef struct VkPerformanceCounterARM {
	VkStructureType sType;
	void *pNext;
	uint32_t counterID;
} VkPerformanceCounterARM;
typedef struct VkPerformanceCounterDescriptionARM {
	VkStructureType sType;
	void *pNext;
	VkPerformanceCounterDescriptionFlagsARM flags;
	char name[VK_MAX_DESCRIPTION_SIZE];
} VkPerformanceCounterDescriptionARM;
typedef struct VkRenderPassPerformanceCountersByRegionBeginInfoARM {
	VkStructureType sType;
	void *pNext;
	uint32_t counterAddressCount;
	const VkDeviceAddress *pCounterAddresses;
	VkBool32 serializeRegions;
	uint32_t counterIndexCount;
	uint32_t *pCounterIndices;
} VkRenderPassPerformanceCountersByRegionBeginInfoARM;
typedef VkResult(VKAPI_PTR *PFN_vkEnumeratePhysicalDeviceQueueFamilyPerformanceCountersByRegionARM)(
	VkPhysicalDevice physicalDevice, uint32_t queueFamilyIndex, uint32_t *pCounterCount,
	VkPerformanceCounterARM *pCounters, VkPerformanceCounterDescriptionARM *pCounterDescriptions);
#endif

/* VK_ARM_shader_instrumentation (§3): the header values (bit 39 and bit 11),
 * not the proposal's stale ones. */
#ifndef VK_ARM_shader_instrumentation
#define VK_ARM_shader_instrumentation 1
VK_DEFINE_NON_DISPATCHABLE_HANDLE(VkShaderInstrumentationARM)
#define VK_ARM_SHADER_INSTRUMENTATION_SPEC_VERSION 1
#define VK_ARM_SHADER_INSTRUMENTATION_EXTENSION_NAME "VK_ARM_shader_instrumentation"
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INSTRUMENTATION_FEATURES_ARM ((VkStructureType)1000607000)
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INSTRUMENTATION_PROPERTIES_ARM ((VkStructureType)1000607001)
#define VK_STRUCTURE_TYPE_SHADER_INSTRUMENTATION_CREATE_INFO_ARM ((VkStructureType)1000607002)
#define VK_STRUCTURE_TYPE_SHADER_INSTRUMENTATION_METRIC_DESCRIPTION_ARM ((VkStructureType)1000607003)
#define VK_OBJECT_TYPE_SHADER_INSTRUMENTATION_ARM ((VkObjectType)1000607000)
#define VK_PIPELINE_CREATE_2_INSTRUMENT_SHADERS_BIT_ARM 0x8000000000ULL
#define VK_SHADER_CREATE_INSTRUMENT_SHADER_BIT_ARM 0x00000800u
typedef VkFlags VkShaderInstrumentationValuesFlagsARM;
typedef struct VkPhysicalDeviceShaderInstrumentationFeaturesARM {
	VkStructureType sType;
	void *pNext;
	VkBool32 shaderInstrumentation;
} VkPhysicalDeviceShaderInstrumentationFeaturesARM;
typedef struct VkPhysicalDeviceShaderInstrumentationPropertiesARM {
	VkStructureType sType;
	void *pNext;
	uint32_t numMetrics;
	VkBool32 perBasicBlockGranularity;
} VkPhysicalDeviceShaderInstrumentationPropertiesARM;
typedef struct VkShaderInstrumentationCreateInfoARM {
	VkStructureType sType;
	void *pNext;
} VkShaderInstrumentationCreateInfoARM;
typedef struct VkShaderInstrumentationMetricDescriptionARM {
	VkStructureType sType;
	void *pNext;
	char name[VK_MAX_DESCRIPTION_SIZE];
	char description[VK_MAX_DESCRIPTION_SIZE];
} VkShaderInstrumentationMetricDescriptionARM;
typedef struct VkShaderInstrumentationMetricDataHeaderARM {
	uint32_t resultIndex;
	uint32_t resultSubIndex;
	VkShaderStageFlags stages;
	uint32_t basicBlockIndex;
} VkShaderInstrumentationMetricDataHeaderARM;
typedef VkResult(VKAPI_PTR *PFN_vkEnumeratePhysicalDeviceShaderInstrumentationMetricsARM)(
	VkPhysicalDevice physicalDevice, uint32_t *pDescriptionCount,
	VkShaderInstrumentationMetricDescriptionARM *pDescriptions);
typedef VkResult(VKAPI_PTR *PFN_vkCreateShaderInstrumentationARM)(
	VkDevice device, const VkShaderInstrumentationCreateInfoARM *pCreateInfo,
	const VkAllocationCallbacks *pAllocator, VkShaderInstrumentationARM *pInstrumentation);
typedef void(VKAPI_PTR *PFN_vkDestroyShaderInstrumentationARM)(
	VkDevice device, VkShaderInstrumentationARM instrumentation,
	const VkAllocationCallbacks *pAllocator);
typedef void(VKAPI_PTR *PFN_vkCmdBeginShaderInstrumentationARM)(
	VkCommandBuffer commandBuffer, VkShaderInstrumentationARM instrumentation);
typedef void(VKAPI_PTR *PFN_vkCmdEndShaderInstrumentationARM)(VkCommandBuffer commandBuffer);
typedef VkResult(VKAPI_PTR *PFN_vkGetShaderInstrumentationValuesARM)(
	VkDevice device, VkShaderInstrumentationARM instrumentation, uint32_t *pMetricBlockCount,
	void *pMetricValues, VkShaderInstrumentationValuesFlagsARM flags);
typedef void(VKAPI_PTR *PFN_vkClearShaderInstrumentationMetricsARM)(
	VkDevice device, VkShaderInstrumentationARM instrumentation);
#endif

/* VK_KHR_maintenance5's pipeline flags (§ "From maintenance5"): the only
 * way to give a pipeline VK_PIPELINE_CREATE_2_INSTRUMENT_SHADERS_BIT_ARM. */
#ifndef VK_KHR_maintenance5
#define VK_STRUCTURE_TYPE_PIPELINE_CREATE_FLAGS_2_CREATE_INFO_KHR ((VkStructureType)1000470005)
typedef VkFlags64 VkPipelineCreateFlags2KHR;
typedef struct VkPipelineCreateFlags2CreateInfoKHR {
	VkStructureType sType;
	const void *pNext;
	VkPipelineCreateFlags2KHR flags;
} VkPipelineCreateFlags2CreateInfoKHR;
#endif

/* VK_KHR_calibrated_timestamps (§5): 1.3.239 has only the EXT names; the
 * KHR sType reuses the EXT number 1000184000. */
#ifndef VK_KHR_calibrated_timestamps
#define VK_KHR_calibrated_timestamps 1
#define VK_KHR_CALIBRATED_TIMESTAMPS_SPEC_VERSION 1
#define VK_KHR_CALIBRATED_TIMESTAMPS_EXTENSION_NAME "VK_KHR_calibrated_timestamps"
#define VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_KHR ((VkStructureType)1000184000)
typedef VkTimeDomainEXT VkTimeDomainKHR;
#define VK_TIME_DOMAIN_DEVICE_KHR VK_TIME_DOMAIN_DEVICE_EXT
#define VK_TIME_DOMAIN_CLOCK_MONOTONIC_KHR VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT
#define VK_TIME_DOMAIN_CLOCK_MONOTONIC_RAW_KHR VK_TIME_DOMAIN_CLOCK_MONOTONIC_RAW_EXT
#define VK_TIME_DOMAIN_QUERY_PERFORMANCE_COUNTER_KHR VK_TIME_DOMAIN_QUERY_PERFORMANCE_COUNTER_EXT
typedef VkCalibratedTimestampInfoEXT VkCalibratedTimestampInfoKHR;
typedef VkResult(VKAPI_PTR *PFN_vkGetPhysicalDeviceCalibrateableTimeDomainsKHR)(
	VkPhysicalDevice physicalDevice, uint32_t *pTimeDomainCount, VkTimeDomainKHR *pTimeDomains);
typedef VkResult(VKAPI_PTR *PFN_vkGetCalibratedTimestampsKHR)(
	VkDevice device, uint32_t timestampCount, const VkCalibratedTimestampInfoKHR *pTimestampInfos,
	uint64_t *pTimestamps, uint64_t *pMaxDeviation);
#endif

/* VK_KHR_maintenance9 (§6): query pools created reset. */
#ifndef VK_KHR_maintenance9
#define VK_KHR_maintenance9 1
#define VK_KHR_MAINTENANCE_9_EXTENSION_NAME "VK_KHR_maintenance9"
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_9_FEATURES_KHR ((VkStructureType)1000584000)
typedef struct VkPhysicalDeviceMaintenance9FeaturesKHR {
	VkStructureType sType;
	void *pNext;
	VkBool32 maintenance9;
} VkPhysicalDeviceMaintenance9FeaturesKHR;
#endif
#ifndef VK_QUERY_POOL_CREATE_RESET_BIT_KHR
#define VK_QUERY_POOL_CREATE_RESET_BIT_KHR ((VkQueryPoolCreateFlags)0x00000001)
#endif

/* 1.3.239 has only the _EXT spelling, with the same value (§8). */
#ifndef VK_ERROR_VALIDATION_FAILED
#define VK_ERROR_VALIDATION_FAILED ((VkResult)-1000011001)
#endif

#endif
