/* Names newer than Debian's Vulkan 1.3.239 headers, with the values of
 * KhronosGroup/Vulkan-Headers 1.4.359 (include/vulkan/vulkan_core.h).
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
/* Its properties (extension 471): whether EarlyFragmentTests puts fragment
 * shading and multisample coverage after sample counting. */
#define VK_KHR_MAINTENANCE_5_EXTENSION_NAME "VK_KHR_maintenance5"
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_5_PROPERTIES_KHR ((VkStructureType)1000470001)
typedef struct VkPhysicalDeviceMaintenance5PropertiesKHR {
	VkStructureType sType;
	void *pNext;
	VkBool32 earlyFragmentMultisampleCoverageAfterSampleCounting;
	VkBool32 earlyFragmentSampleMaskTestBeforeSampleCounting;
	VkBool32 depthStencilSwizzleOneSupport;
	VkBool32 polygonModePointSize;
	VkBool32 nonStrictSinglePixelWideLinesUseParallelogram;
	VkBool32 nonStrictWideLinesUseParallelogram;
} VkPhysicalDeviceMaintenance5PropertiesKHR;
#endif

/* VK_KHR_maintenance7 (§6, extension 563): with the feature enabled a 32-bit
 * unsigned query result is the low 32 bits of the 64-bit one. */
#ifndef VK_KHR_maintenance7
#define VK_KHR_maintenance7 1
#define VK_KHR_MAINTENANCE_7_EXTENSION_NAME "VK_KHR_maintenance7"
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_7_FEATURES_KHR ((VkStructureType)1000562000)
typedef struct VkPhysicalDeviceMaintenance7FeaturesKHR {
	VkStructureType sType;
	void *pNext;
	VkBool32 maintenance7;
} VkPhysicalDeviceMaintenance7FeaturesKHR;
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

/* VK_KHR_maintenance9 (§6): query pools created reset; the properties and
 * queue family structure the refdevice reports. */
#ifndef VK_KHR_maintenance9
#define VK_KHR_maintenance9 1
#define VK_KHR_MAINTENANCE_9_EXTENSION_NAME "VK_KHR_maintenance9"
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_9_FEATURES_KHR ((VkStructureType)1000584000)
typedef struct VkPhysicalDeviceMaintenance9FeaturesKHR {
	VkStructureType sType;
	void *pNext;
	VkBool32 maintenance9;
} VkPhysicalDeviceMaintenance9FeaturesKHR;
#define VK_KHR_MAINTENANCE_9_SPEC_VERSION 1
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_9_PROPERTIES_KHR ((VkStructureType)1000584001)
#define VK_STRUCTURE_TYPE_QUEUE_FAMILY_OWNERSHIP_TRANSFER_PROPERTIES_KHR ((VkStructureType)1000584002)
typedef enum VkDefaultVertexAttributeValueKHR {
	VK_DEFAULT_VERTEX_ATTRIBUTE_VALUE_ZERO_ZERO_ZERO_ZERO_KHR = 0,
	VK_DEFAULT_VERTEX_ATTRIBUTE_VALUE_ZERO_ZERO_ZERO_ONE_KHR = 1,
	VK_DEFAULT_VERTEX_ATTRIBUTE_VALUE_MAX_ENUM_KHR = 0x7FFFFFFF
} VkDefaultVertexAttributeValueKHR;
typedef struct VkPhysicalDeviceMaintenance9PropertiesKHR {
	VkStructureType sType;
	void *pNext;
	VkBool32 image2DViewOf3DSparse;
	VkDefaultVertexAttributeValueKHR defaultVertexAttributeValue;
} VkPhysicalDeviceMaintenance9PropertiesKHR;
typedef struct VkQueueFamilyOwnershipTransferPropertiesKHR {
	VkStructureType sType;
	void *pNext;
	uint32_t optimalImageTransferToQueueFamilies;
} VkQueueFamilyOwnershipTransferPropertiesKHR;
#endif
#ifndef VK_QUERY_POOL_CREATE_RESET_BIT_KHR
#define VK_QUERY_POOL_CREATE_RESET_BIT_KHR ((VkQueryPoolCreateFlags)0x00000001)
#endif

/* VK_KHR_video_encode_queue (extension 300, final spec version 12) and
 * VK_KHR_video_encode_h264 (extension 39, version 14) with the H.264
 * encode Std 1.0.0 structures: 1.3.239 has only the provisional (beta)
 * encode API, which differs from the final one in struct layouts, so its
 * vulkan_beta.h is never included.  Values are the registry's (final
 * vulkan_core.h / vulkan_video_codec_h264std_encode.h, Vulkan-Headers
 * 1.3.274 on); only what the encode feedback cases and the refdevice use. */
#ifndef VK_KHR_video_encode_queue
#define VK_KHR_video_encode_queue 1
#define VK_KHR_VIDEO_ENCODE_QUEUE_SPEC_VERSION 12
#define VK_KHR_VIDEO_ENCODE_QUEUE_EXTENSION_NAME "VK_KHR_video_encode_queue"
#define VK_STRUCTURE_TYPE_VIDEO_ENCODE_INFO_KHR ((VkStructureType)1000299000)
#define VK_STRUCTURE_TYPE_VIDEO_ENCODE_RATE_CONTROL_INFO_KHR ((VkStructureType)1000299001)
#define VK_STRUCTURE_TYPE_VIDEO_ENCODE_RATE_CONTROL_LAYER_INFO_KHR ((VkStructureType)1000299002)
#define VK_STRUCTURE_TYPE_VIDEO_ENCODE_CAPABILITIES_KHR ((VkStructureType)1000299003)
#define VK_STRUCTURE_TYPE_VIDEO_ENCODE_USAGE_INFO_KHR ((VkStructureType)1000299004)
#define VK_STRUCTURE_TYPE_QUERY_POOL_VIDEO_ENCODE_FEEDBACK_CREATE_INFO_KHR ((VkStructureType)1000299005)
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VIDEO_ENCODE_QUALITY_LEVEL_INFO_KHR ((VkStructureType)1000299006)
#define VK_STRUCTURE_TYPE_VIDEO_ENCODE_QUALITY_LEVEL_PROPERTIES_KHR ((VkStructureType)1000299007)
#define VK_STRUCTURE_TYPE_VIDEO_ENCODE_QUALITY_LEVEL_INFO_KHR ((VkStructureType)1000299008)
#define VK_STRUCTURE_TYPE_VIDEO_ENCODE_SESSION_PARAMETERS_GET_INFO_KHR ((VkStructureType)1000299009)
#define VK_STRUCTURE_TYPE_VIDEO_ENCODE_SESSION_PARAMETERS_FEEDBACK_INFO_KHR ((VkStructureType)1000299010)
#define VK_QUERY_TYPE_VIDEO_ENCODE_FEEDBACK_KHR ((VkQueryType)1000299000)
#define VK_QUERY_RESULT_STATUS_INSUFFICIENT_BITSTREAM_BUFFER_RANGE_KHR ((VkQueryResultStatusKHR)-1000299000)
#define VK_ERROR_INVALID_VIDEO_STD_PARAMETERS_KHR ((VkResult)-1000299000)
#define VK_QUEUE_VIDEO_ENCODE_BIT_KHR ((VkQueueFlagBits)0x00000040)
#define VK_BUFFER_USAGE_VIDEO_ENCODE_DST_BIT_KHR ((VkBufferUsageFlagBits)0x00008000)
#define VK_BUFFER_USAGE_VIDEO_ENCODE_SRC_BIT_KHR ((VkBufferUsageFlagBits)0x00010000)
#define VK_IMAGE_USAGE_VIDEO_ENCODE_DST_BIT_KHR ((VkImageUsageFlagBits)0x00002000)
#define VK_IMAGE_USAGE_VIDEO_ENCODE_SRC_BIT_KHR ((VkImageUsageFlagBits)0x00004000)
#define VK_IMAGE_USAGE_VIDEO_ENCODE_DPB_BIT_KHR ((VkImageUsageFlagBits)0x00008000)
#define VK_IMAGE_LAYOUT_VIDEO_ENCODE_DST_KHR ((VkImageLayout)1000299000)
#define VK_IMAGE_LAYOUT_VIDEO_ENCODE_SRC_KHR ((VkImageLayout)1000299001)
#define VK_IMAGE_LAYOUT_VIDEO_ENCODE_DPB_KHR ((VkImageLayout)1000299002)
#define VK_FORMAT_FEATURE_VIDEO_ENCODE_INPUT_BIT_KHR ((VkFormatFeatureFlagBits)0x08000000)
#define VK_FORMAT_FEATURE_VIDEO_ENCODE_DPB_BIT_KHR ((VkFormatFeatureFlagBits)0x10000000)
#define VK_PIPELINE_STAGE_2_VIDEO_ENCODE_BIT_KHR ((VkPipelineStageFlags2)0x08000000ULL)
#define VK_ACCESS_2_VIDEO_ENCODE_READ_BIT_KHR ((VkAccessFlags2)0x2000000000ULL)
#define VK_ACCESS_2_VIDEO_ENCODE_WRITE_BIT_KHR ((VkAccessFlags2)0x4000000000ULL)
#define VK_VIDEO_CODING_CONTROL_ENCODE_RATE_CONTROL_BIT_KHR ((VkVideoCodingControlFlagBitsKHR)0x00000002)
#define VK_VIDEO_CODING_CONTROL_ENCODE_QUALITY_LEVEL_BIT_KHR ((VkVideoCodingControlFlagBitsKHR)0x00000004)
typedef VkFlags VkVideoEncodeFlagsKHR;
typedef VkFlags VkVideoEncodeCapabilityFlagsKHR;
#define VK_VIDEO_ENCODE_CAPABILITY_PRECEDING_EXTERNALLY_ENCODED_BYTES_BIT_KHR 0x00000001u
#define VK_VIDEO_ENCODE_CAPABILITY_INSUFFICIENT_BITSTREAM_BUFFER_RANGE_DETECTION_BIT_KHR 0x00000002u
typedef enum VkVideoEncodeRateControlModeFlagBitsKHR {
	VK_VIDEO_ENCODE_RATE_CONTROL_MODE_DEFAULT_KHR = 0,
	VK_VIDEO_ENCODE_RATE_CONTROL_MODE_DISABLED_BIT_KHR = 0x00000001,
	VK_VIDEO_ENCODE_RATE_CONTROL_MODE_CBR_BIT_KHR = 0x00000002,
	VK_VIDEO_ENCODE_RATE_CONTROL_MODE_VBR_BIT_KHR = 0x00000004,
	VK_VIDEO_ENCODE_RATE_CONTROL_MODE_FLAG_BITS_MAX_ENUM_KHR = 0x7FFFFFFF
} VkVideoEncodeRateControlModeFlagBitsKHR;
typedef VkFlags VkVideoEncodeRateControlModeFlagsKHR;
typedef VkFlags VkVideoEncodeRateControlFlagsKHR;
typedef VkFlags VkVideoEncodeFeedbackFlagsKHR;
#define VK_VIDEO_ENCODE_FEEDBACK_BITSTREAM_BUFFER_OFFSET_BIT_KHR 0x00000001u
#define VK_VIDEO_ENCODE_FEEDBACK_BITSTREAM_BYTES_WRITTEN_BIT_KHR 0x00000002u
#define VK_VIDEO_ENCODE_FEEDBACK_BITSTREAM_HAS_OVERRIDES_BIT_KHR 0x00000004u
typedef struct VkVideoEncodeInfoKHR {
	VkStructureType sType;
	const void *pNext;
	VkVideoEncodeFlagsKHR flags;
	VkBuffer dstBuffer;
	VkDeviceSize dstBufferOffset;
	VkDeviceSize dstBufferRange;
	VkVideoPictureResourceInfoKHR srcPictureResource;
	const VkVideoReferenceSlotInfoKHR *pSetupReferenceSlot;
	uint32_t referenceSlotCount;
	const VkVideoReferenceSlotInfoKHR *pReferenceSlots;
	uint32_t precedingExternallyEncodedBytes;
} VkVideoEncodeInfoKHR;
typedef struct VkVideoEncodeCapabilitiesKHR {
	VkStructureType sType;
	void *pNext;
	VkVideoEncodeCapabilityFlagsKHR flags;
	VkVideoEncodeRateControlModeFlagsKHR rateControlModes;
	uint32_t maxRateControlLayers;
	uint64_t maxBitrate;
	uint32_t maxQualityLevels;
	VkExtent2D encodeInputPictureGranularity;
	VkVideoEncodeFeedbackFlagsKHR supportedEncodeFeedbackFlags;
} VkVideoEncodeCapabilitiesKHR;
typedef struct VkQueryPoolVideoEncodeFeedbackCreateInfoKHR {
	VkStructureType sType;
	const void *pNext;
	VkVideoEncodeFeedbackFlagsKHR encodeFeedbackFlags;
} VkQueryPoolVideoEncodeFeedbackCreateInfoKHR;
typedef struct VkVideoEncodeRateControlLayerInfoKHR {
	VkStructureType sType;
	const void *pNext;
	uint64_t averageBitrate;
	uint64_t maxBitrate;
	uint32_t frameRateNumerator;
	uint32_t frameRateDenominator;
} VkVideoEncodeRateControlLayerInfoKHR;
typedef struct VkVideoEncodeRateControlInfoKHR {
	VkStructureType sType;
	const void *pNext;
	VkVideoEncodeRateControlFlagsKHR flags;
	VkVideoEncodeRateControlModeFlagBitsKHR rateControlMode;
	uint32_t layerCount;
	const VkVideoEncodeRateControlLayerInfoKHR *pLayers;
	uint32_t virtualBufferSizeInMs;
	uint32_t initialVirtualBufferSizeInMs;
} VkVideoEncodeRateControlInfoKHR;
typedef struct VkPhysicalDeviceVideoEncodeQualityLevelInfoKHR {
	VkStructureType sType;
	const void *pNext;
	const VkVideoProfileInfoKHR *pVideoProfile;
	uint32_t qualityLevel;
} VkPhysicalDeviceVideoEncodeQualityLevelInfoKHR;
typedef struct VkVideoEncodeQualityLevelPropertiesKHR {
	VkStructureType sType;
	void *pNext;
	VkVideoEncodeRateControlModeFlagBitsKHR preferredRateControlMode;
	uint32_t preferredRateControlLayerCount;
} VkVideoEncodeQualityLevelPropertiesKHR;
typedef struct VkVideoEncodeSessionParametersGetInfoKHR {
	VkStructureType sType;
	const void *pNext;
	VkVideoSessionParametersKHR videoSessionParameters;
} VkVideoEncodeSessionParametersGetInfoKHR;
typedef struct VkVideoEncodeSessionParametersFeedbackInfoKHR {
	VkStructureType sType;
	void *pNext;
	VkBool32 hasOverrides;
} VkVideoEncodeSessionParametersFeedbackInfoKHR;
typedef VkResult(VKAPI_PTR *PFN_vkGetPhysicalDeviceVideoEncodeQualityLevelPropertiesKHR)(
	VkPhysicalDevice physicalDevice,
	const VkPhysicalDeviceVideoEncodeQualityLevelInfoKHR *pQualityLevelInfo,
	VkVideoEncodeQualityLevelPropertiesKHR *pQualityLevelProperties);
typedef VkResult(VKAPI_PTR *PFN_vkGetEncodedVideoSessionParametersKHR)(
	VkDevice device, const VkVideoEncodeSessionParametersGetInfoKHR *pVideoSessionParametersInfo,
	VkVideoEncodeSessionParametersFeedbackInfoKHR *pFeedbackInfo, size_t *pDataSize, void *pData);
typedef void(VKAPI_PTR *PFN_vkCmdEncodeVideoKHR)(VkCommandBuffer commandBuffer,
						  const VkVideoEncodeInfoKHR *pEncodeInfo);
#endif

#ifndef VULKAN_VIDEO_CODEC_H264STD_ENCODE_H_
#define VULKAN_VIDEO_CODEC_H264STD_ENCODE_H_ 1
#include <vk_video/vulkan_video_codecs_common.h>
#define VK_STD_VULKAN_VIDEO_CODEC_H264_ENCODE_API_VERSION_1_0_0 VK_MAKE_VIDEO_STD_VERSION(1, 0, 0)
#define VK_STD_VULKAN_VIDEO_CODEC_H264_ENCODE_SPEC_VERSION VK_STD_VULKAN_VIDEO_CODEC_H264_ENCODE_API_VERSION_1_0_0
#define VK_STD_VULKAN_VIDEO_CODEC_H264_ENCODE_EXTENSION_NAME "VK_STD_vulkan_video_codec_h264_encode"
typedef struct StdVideoEncodeH264WeightTableFlags {
	uint32_t luma_weight_l0_flag;
	uint32_t chroma_weight_l0_flag;
	uint32_t luma_weight_l1_flag;
	uint32_t chroma_weight_l1_flag;
} StdVideoEncodeH264WeightTableFlags;
typedef struct StdVideoEncodeH264WeightTable {
	StdVideoEncodeH264WeightTableFlags flags;
	uint8_t luma_log2_weight_denom;
	uint8_t chroma_log2_weight_denom;
	int8_t luma_weight_l0[STD_VIDEO_H264_MAX_NUM_LIST_REF];
	int8_t luma_offset_l0[STD_VIDEO_H264_MAX_NUM_LIST_REF];
	int8_t chroma_weight_l0[STD_VIDEO_H264_MAX_NUM_LIST_REF][STD_VIDEO_H264_MAX_CHROMA_PLANES];
	int8_t chroma_offset_l0[STD_VIDEO_H264_MAX_NUM_LIST_REF][STD_VIDEO_H264_MAX_CHROMA_PLANES];
	int8_t luma_weight_l1[STD_VIDEO_H264_MAX_NUM_LIST_REF];
	int8_t luma_offset_l1[STD_VIDEO_H264_MAX_NUM_LIST_REF];
	int8_t chroma_weight_l1[STD_VIDEO_H264_MAX_NUM_LIST_REF][STD_VIDEO_H264_MAX_CHROMA_PLANES];
	int8_t chroma_offset_l1[STD_VIDEO_H264_MAX_NUM_LIST_REF][STD_VIDEO_H264_MAX_CHROMA_PLANES];
} StdVideoEncodeH264WeightTable;
typedef struct StdVideoEncodeH264SliceHeaderFlags {
	uint32_t direct_spatial_mv_pred_flag : 1;
	uint32_t num_ref_idx_active_override_flag : 1;
	uint32_t reserved : 30;
} StdVideoEncodeH264SliceHeaderFlags;
typedef struct StdVideoEncodeH264PictureInfoFlags {
	uint32_t IdrPicFlag : 1;
	uint32_t is_reference : 1;
	uint32_t no_output_of_prior_pics_flag : 1;
	uint32_t long_term_reference_flag : 1;
	uint32_t adaptive_ref_pic_marking_mode_flag : 1;
	uint32_t reserved : 27;
} StdVideoEncodeH264PictureInfoFlags;
typedef struct StdVideoEncodeH264ReferenceInfoFlags {
	uint32_t used_for_long_term_reference : 1;
	uint32_t reserved : 31;
} StdVideoEncodeH264ReferenceInfoFlags;
typedef struct StdVideoEncodeH264ReferenceListsInfoFlags {
	uint32_t ref_pic_list_modification_flag_l0 : 1;
	uint32_t ref_pic_list_modification_flag_l1 : 1;
	uint32_t reserved : 30;
} StdVideoEncodeH264ReferenceListsInfoFlags;
typedef struct StdVideoEncodeH264RefListModEntry {
	StdVideoH264ModificationOfPicNumsIdc modification_of_pic_nums_idc;
	uint16_t abs_diff_pic_num_minus1;
	uint16_t long_term_pic_num;
} StdVideoEncodeH264RefListModEntry;
typedef struct StdVideoEncodeH264RefPicMarkingEntry {
	StdVideoH264MemMgmtControlOp memory_management_control_operation;
	uint16_t difference_of_pic_nums_minus1;
	uint16_t long_term_pic_num;
	uint16_t long_term_frame_idx;
	uint16_t max_long_term_frame_idx_plus1;
} StdVideoEncodeH264RefPicMarkingEntry;
typedef struct StdVideoEncodeH264ReferenceListsInfo {
	StdVideoEncodeH264ReferenceListsInfoFlags flags;
	uint8_t num_ref_idx_l0_active_minus1;
	uint8_t num_ref_idx_l1_active_minus1;
	uint8_t RefPicList0[STD_VIDEO_H264_MAX_NUM_LIST_REF];
	uint8_t RefPicList1[STD_VIDEO_H264_MAX_NUM_LIST_REF];
	uint8_t refList0ModOpCount;
	uint8_t refList1ModOpCount;
	uint8_t refPicMarkingOpCount;
	uint8_t reserved1[7];
	const StdVideoEncodeH264RefListModEntry *pRefList0ModOperations;
	const StdVideoEncodeH264RefListModEntry *pRefList1ModOperations;
	const StdVideoEncodeH264RefPicMarkingEntry *pRefPicMarkingOperations;
} StdVideoEncodeH264ReferenceListsInfo;
typedef struct StdVideoEncodeH264PictureInfo {
	StdVideoEncodeH264PictureInfoFlags flags;
	uint8_t seq_parameter_set_id;
	uint8_t pic_parameter_set_id;
	uint16_t idr_pic_id;
	StdVideoH264PictureType primary_pic_type;
	uint32_t frame_num;
	int32_t PicOrderCnt;
	uint8_t temporal_id;
	uint8_t reserved1[3];
	const StdVideoEncodeH264ReferenceListsInfo *pRefLists;
} StdVideoEncodeH264PictureInfo;
typedef struct StdVideoEncodeH264ReferenceInfo {
	StdVideoEncodeH264ReferenceInfoFlags flags;
	StdVideoH264PictureType primary_pic_type;
	uint32_t FrameNum;
	int32_t PicOrderCnt;
	uint16_t long_term_pic_num;
	uint16_t long_term_frame_idx;
	uint8_t temporal_id;
} StdVideoEncodeH264ReferenceInfo;
typedef struct StdVideoEncodeH264SliceHeader {
	StdVideoEncodeH264SliceHeaderFlags flags;
	uint32_t first_mb_in_slice;
	StdVideoH264SliceType slice_type;
	int8_t slice_alpha_c0_offset_div2;
	int8_t slice_beta_offset_div2;
	int8_t slice_qp_delta;
	uint8_t reserved1;
	StdVideoH264CabacInitIdc cabac_init_idc;
	StdVideoH264DisableDeblockingFilterIdc disable_deblocking_filter_idc;
	const StdVideoEncodeH264WeightTable *pWeightTable;
} StdVideoEncodeH264SliceHeader;
#endif

#ifndef VK_KHR_video_encode_h264
#define VK_KHR_video_encode_h264 1
#define VK_KHR_VIDEO_ENCODE_H264_SPEC_VERSION 14
#define VK_KHR_VIDEO_ENCODE_H264_EXTENSION_NAME "VK_KHR_video_encode_h264"
#define VK_STRUCTURE_TYPE_VIDEO_ENCODE_H264_CAPABILITIES_KHR ((VkStructureType)1000038000)
#define VK_STRUCTURE_TYPE_VIDEO_ENCODE_H264_SESSION_PARAMETERS_CREATE_INFO_KHR ((VkStructureType)1000038001)
#define VK_STRUCTURE_TYPE_VIDEO_ENCODE_H264_SESSION_PARAMETERS_ADD_INFO_KHR ((VkStructureType)1000038002)
#define VK_STRUCTURE_TYPE_VIDEO_ENCODE_H264_PICTURE_INFO_KHR ((VkStructureType)1000038003)
#define VK_STRUCTURE_TYPE_VIDEO_ENCODE_H264_DPB_SLOT_INFO_KHR ((VkStructureType)1000038004)
#define VK_STRUCTURE_TYPE_VIDEO_ENCODE_H264_NALU_SLICE_INFO_KHR ((VkStructureType)1000038005)
#define VK_STRUCTURE_TYPE_VIDEO_ENCODE_H264_PROFILE_INFO_KHR ((VkStructureType)1000038007)
#define VK_STRUCTURE_TYPE_VIDEO_ENCODE_H264_SESSION_CREATE_INFO_KHR ((VkStructureType)1000038010)
#define VK_STRUCTURE_TYPE_VIDEO_ENCODE_H264_SESSION_PARAMETERS_GET_INFO_KHR ((VkStructureType)1000038012)
#define VK_STRUCTURE_TYPE_VIDEO_ENCODE_H264_SESSION_PARAMETERS_FEEDBACK_INFO_KHR ((VkStructureType)1000038013)
#define VK_VIDEO_CODEC_OPERATION_ENCODE_H264_BIT_KHR ((VkVideoCodecOperationFlagBitsKHR)0x00010000)
typedef VkFlags VkVideoEncodeH264CapabilityFlagsKHR;
typedef VkFlags VkVideoEncodeH264StdFlagsKHR;
typedef struct VkVideoEncodeH264CapabilitiesKHR {
	VkStructureType sType;
	void *pNext;
	VkVideoEncodeH264CapabilityFlagsKHR flags;
	StdVideoH264LevelIdc maxLevelIdc;
	uint32_t maxSliceCount;
	uint32_t maxPPictureL0ReferenceCount;
	uint32_t maxBPictureL0ReferenceCount;
	uint32_t maxL1ReferenceCount;
	uint32_t maxTemporalLayerCount;
	VkBool32 expectDyadicTemporalLayerPattern;
	int32_t minQp;
	int32_t maxQp;
	VkBool32 prefersGopRemainingFrames;
	VkBool32 requiresGopRemainingFrames;
	VkVideoEncodeH264StdFlagsKHR stdSyntaxFlags;
} VkVideoEncodeH264CapabilitiesKHR;
typedef struct VkVideoEncodeH264SessionParametersAddInfoKHR {
	VkStructureType sType;
	const void *pNext;
	uint32_t stdSPSCount;
	const StdVideoH264SequenceParameterSet *pStdSPSs;
	uint32_t stdPPSCount;
	const StdVideoH264PictureParameterSet *pStdPPSs;
} VkVideoEncodeH264SessionParametersAddInfoKHR;
typedef struct VkVideoEncodeH264SessionParametersCreateInfoKHR {
	VkStructureType sType;
	const void *pNext;
	uint32_t maxStdSPSCount;
	uint32_t maxStdPPSCount;
	const VkVideoEncodeH264SessionParametersAddInfoKHR *pParametersAddInfo;
} VkVideoEncodeH264SessionParametersCreateInfoKHR;
typedef struct VkVideoEncodeH264NaluSliceInfoKHR {
	VkStructureType sType;
	const void *pNext;
	int32_t constantQp;
	const StdVideoEncodeH264SliceHeader *pStdSliceHeader;
} VkVideoEncodeH264NaluSliceInfoKHR;
typedef struct VkVideoEncodeH264PictureInfoKHR {
	VkStructureType sType;
	const void *pNext;
	uint32_t naluSliceEntryCount;
	const VkVideoEncodeH264NaluSliceInfoKHR *pNaluSliceEntries;
	const StdVideoEncodeH264PictureInfo *pStdPictureInfo;
	VkBool32 generatePrefixNalu;
} VkVideoEncodeH264PictureInfoKHR;
typedef struct VkVideoEncodeH264DpbSlotInfoKHR {
	VkStructureType sType;
	const void *pNext;
	const StdVideoEncodeH264ReferenceInfo *pStdReferenceInfo;
} VkVideoEncodeH264DpbSlotInfoKHR;
typedef struct VkVideoEncodeH264SessionParametersGetInfoKHR {
	VkStructureType sType;
	const void *pNext;
	VkBool32 writeStdSPS;
	VkBool32 writeStdPPS;
	uint32_t stdSPSId;
	uint32_t stdPPSId;
} VkVideoEncodeH264SessionParametersGetInfoKHR;
typedef struct VkVideoEncodeH264SessionParametersFeedbackInfoKHR {
	VkStructureType sType;
	void *pNext;
	VkBool32 hasStdSPSOverrides;
	VkBool32 hasStdPPSOverrides;
} VkVideoEncodeH264SessionParametersFeedbackInfoKHR;
typedef struct VkVideoEncodeH264ProfileInfoKHR {
	VkStructureType sType;
	const void *pNext;
	StdVideoH264ProfileIdc stdProfileIdc;
} VkVideoEncodeH264ProfileInfoKHR;
#endif

/* VK_KHR_device_address_commands (§6, extension 319; Vulkan-Headers
 * 1.4.357): query results copied to a device address range. */
#ifndef VK_KHR_device_address_commands
#define VK_KHR_device_address_commands 1
#define VK_KHR_DEVICE_ADDRESS_COMMANDS_EXTENSION_NAME "VK_KHR_device_address_commands"
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEVICE_ADDRESS_COMMANDS_FEATURES_KHR \
	((VkStructureType)1000318006)
typedef struct VkPhysicalDeviceDeviceAddressCommandsFeaturesKHR {
	VkStructureType sType;
	void *pNext;
	VkBool32 deviceAddressCommands;
} VkPhysicalDeviceDeviceAddressCommandsFeaturesKHR;
typedef VkFlags VkAddressCommandFlagsKHR;
#ifndef VK_KHR_copy_memory_indirect
typedef struct VkStridedDeviceAddressRangeKHR {
	VkDeviceAddress address;
	VkDeviceSize size;
	VkDeviceSize stride;
} VkStridedDeviceAddressRangeKHR;
#endif
typedef void(VKAPI_PTR *PFN_vkCmdCopyQueryPoolResultsToMemoryKHR)(
	VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t firstQuery,
	uint32_t queryCount, const VkStridedDeviceAddressRangeKHR *pDstRange,
	VkAddressCommandFlagsKHR dstFlags, VkQueryResultFlags queryResultFlags);
#endif

/* VK_KHR_device_address_commands with VK_EXT_conditional_rendering
 * (Vulkan-Docs 1.4.360): conditional rendering on an address range. */
#ifndef VK_STRUCTURE_TYPE_CONDITIONAL_RENDERING_BEGIN_INFO_2_EXT
#define VK_STRUCTURE_TYPE_CONDITIONAL_RENDERING_BEGIN_INFO_2_EXT ((VkStructureType)1000318012)
typedef struct VkDeviceAddressRangeKHR {
	VkDeviceAddress address;
	VkDeviceSize size;
} VkDeviceAddressRangeKHR;
typedef struct VkConditionalRenderingBeginInfo2EXT {
	VkStructureType sType;
	const void *pNext;
	VkDeviceAddressRangeKHR addressRange;
	VkAddressCommandFlagsKHR addressFlags;
	VkConditionalRenderingFlagsEXT flags;
} VkConditionalRenderingBeginInfo2EXT;
typedef void(VKAPI_PTR *PFN_vkCmdBeginConditionalRendering2EXT)(
	VkCommandBuffer commandBuffer,
	const VkConditionalRenderingBeginInfo2EXT *pConditionalRenderingBegin);
#endif

/* VK_KHR_video_encode_feedback2 (extension 599, first in Vulkan-Headers 1.4.353):
 * more encode feedback values, per picture partition feedback. */
#ifndef VK_KHR_video_encode_feedback2
#define VK_KHR_video_encode_feedback2 1
#define VK_KHR_VIDEO_ENCODE_FEEDBACK_2_SPEC_VERSION 1
#define VK_KHR_VIDEO_ENCODE_FEEDBACK_2_EXTENSION_NAME "VK_KHR_video_encode_feedback2"
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VIDEO_ENCODE_FEEDBACK_2_FEATURES_KHR \
	((VkStructureType)1000598000)
#define VK_STRUCTURE_TYPE_VIDEO_ENCODE_FEEDBACK_2_CAPABILITIES_KHR ((VkStructureType)1000598001)
#define VK_STRUCTURE_TYPE_QUERY_POOL_VIDEO_ENCODE_PER_PARTITION_FEEDBACK_CREATE_INFO_KHR \
	((VkStructureType)1000598002)
#define VK_VIDEO_ENCODE_FEEDBACK_AVERAGE_QUANTIZATION_BIT_KHR 0x8u
#define VK_VIDEO_ENCODE_FEEDBACK_MIN_QUANTIZATION_BIT_KHR 0x10u
#define VK_VIDEO_ENCODE_FEEDBACK_MAX_QUANTIZATION_BIT_KHR 0x20u
#define VK_VIDEO_ENCODE_FEEDBACK_INTRA_PIXELS_BIT_KHR 0x40u
#define VK_VIDEO_ENCODE_FEEDBACK_INTER_PIXELS_BIT_KHR 0x80u
#define VK_VIDEO_ENCODE_FEEDBACK_SKIPPED_PIXELS_BIT_KHR 0x100u
#define VK_VIDEO_ENCODE_FEEDBACK_PICTURE_PARTITION_COUNT_BIT_KHR \
	0x200u
typedef VkFlags VkVideoEncodePerPartitionFeedbackFlagsKHR;
#define VK_VIDEO_ENCODE_PER_PARTITION_FEEDBACK_STATUS_BIT_KHR 0x1u
#define VK_VIDEO_ENCODE_PER_PARTITION_FEEDBACK_BITSTREAM_BUFFER_OFFSET_BIT_KHR 0x2u
#define VK_VIDEO_ENCODE_PER_PARTITION_FEEDBACK_BITSTREAM_BYTES_WRITTEN_BIT_KHR 0x4u
typedef struct VkPhysicalDeviceVideoEncodeFeedback2FeaturesKHR {
	VkStructureType sType;
	void *pNext;
	VkBool32 videoEncodeFeedback2;
} VkPhysicalDeviceVideoEncodeFeedback2FeaturesKHR;
typedef struct VkVideoEncodeFeedback2CapabilitiesKHR {
	VkStructureType sType;
	void *pNext;
	uint32_t maxPerPartitionFeedbackEntries;
	VkVideoEncodePerPartitionFeedbackFlagsKHR supportedPerPartitionEncodeFeedbackFlags;
} VkVideoEncodeFeedback2CapabilitiesKHR;
typedef struct VkQueryPoolVideoEncodePerPartitionFeedbackCreateInfoKHR {
	VkStructureType sType;
	const void *pNext;
	uint32_t maxPerPartitionFeedbackEntries;
	VkVideoEncodePerPartitionFeedbackFlagsKHR perPartitionEncodeFeedbackFlags;
} VkQueryPoolVideoEncodePerPartitionFeedbackCreateInfoKHR;
#endif

/* 1.3.239 has only the _EXT spelling, with the same value (§8). */
#ifndef VK_ERROR_VALIDATION_FAILED
#define VK_ERROR_VALIDATION_FAILED ((VkResult)-1000011001)
#endif

#endif
