/* The loader interface (loader interface version 5; LoaderDriverInterface.md)
 * and the dispatch lookup generated from rd_entrypoints.h. */
#include <string.h>

#include "rd.h"
#include "rd_api.h"

#define RD_SCOPE_G 0
#define RD_SCOPE_I 1
#define RD_SCOPE_P 2
#define RD_SCOPE_D 3

struct rd_entry {
	const char *name;
	PFN_vkVoidFunction fn;
	int scope;
};

static const struct rd_entry entries[] = {
#define X(scope, name) {"vk" #name, (PFN_vkVoidFunction)rd_##name, RD_SCOPE_##scope},
	RD_ENTRYPOINTS(X)
#undef X
	/* Extension and promoted aliases of the same functions. */
	{"vkGetPhysicalDeviceCalibrateableTimeDomainsKHR",
	 (PFN_vkVoidFunction)rd_GetPhysicalDeviceCalibrateableTimeDomainsEXT, RD_SCOPE_P},
	{"vkGetCalibratedTimestampsKHR", (PFN_vkVoidFunction)rd_GetCalibratedTimestampsEXT,
	 RD_SCOPE_D},
	{"vkResetQueryPoolEXT", (PFN_vkVoidFunction)rd_ResetQueryPool, RD_SCOPE_D},
	{"vkCmdWriteTimestamp2KHR", (PFN_vkVoidFunction)rd_CmdWriteTimestamp2, RD_SCOPE_D},
	{"vkQueueSubmit2KHR", (PFN_vkVoidFunction)rd_QueueSubmit2, RD_SCOPE_D},
	{"vkCmdPipelineBarrier2KHR", (PFN_vkVoidFunction)rd_CmdPipelineBarrier2, RD_SCOPE_D},
	{"vkCmdSetEvent2KHR", (PFN_vkVoidFunction)rd_CmdSetEvent2, RD_SCOPE_D},
	{"vkCmdResetEvent2KHR", (PFN_vkVoidFunction)rd_CmdResetEvent2, RD_SCOPE_D},
	{"vkCmdWaitEvents2KHR", (PFN_vkVoidFunction)rd_CmdWaitEvents2, RD_SCOPE_D},
	{"vkCmdBeginRenderingKHR", (PFN_vkVoidFunction)rd_CmdBeginRendering, RD_SCOPE_D},
	{"vkCmdEndRenderingKHR", (PFN_vkVoidFunction)rd_CmdEndRendering, RD_SCOPE_D},
	{"vkCreateRenderPass2KHR", (PFN_vkVoidFunction)rd_CreateRenderPass2, RD_SCOPE_D},
	{"vkCmdBeginRenderPass2KHR", (PFN_vkVoidFunction)rd_CmdBeginRenderPass2, RD_SCOPE_D},
	{"vkCmdNextSubpass2KHR", (PFN_vkVoidFunction)rd_CmdNextSubpass2, RD_SCOPE_D},
	{"vkCmdEndRenderPass2KHR", (PFN_vkVoidFunction)rd_CmdEndRenderPass2, RD_SCOPE_D},
	{"vkGetSemaphoreCounterValueKHR", (PFN_vkVoidFunction)rd_GetSemaphoreCounterValue,
	 RD_SCOPE_D},
	{"vkWaitSemaphoresKHR", (PFN_vkVoidFunction)rd_WaitSemaphores, RD_SCOPE_D},
	{"vkSignalSemaphoreKHR", (PFN_vkVoidFunction)rd_SignalSemaphore, RD_SCOPE_D},
	{"vkGetBufferDeviceAddressKHR", (PFN_vkVoidFunction)rd_GetBufferDeviceAddress,
	 RD_SCOPE_D},
	{"vkGetBufferDeviceAddressEXT", (PFN_vkVoidFunction)rd_GetBufferDeviceAddress,
	 RD_SCOPE_D},
	{"vkGetPhysicalDeviceProperties2KHR", (PFN_vkVoidFunction)rd_GetPhysicalDeviceProperties2,
	 RD_SCOPE_P},
	{"vkGetPhysicalDeviceFeatures2KHR", (PFN_vkVoidFunction)rd_GetPhysicalDeviceFeatures2,
	 RD_SCOPE_P},
	{"vkGetPhysicalDeviceFormatProperties2KHR",
	 (PFN_vkVoidFunction)rd_GetPhysicalDeviceFormatProperties2, RD_SCOPE_P},
	{"vkGetPhysicalDeviceImageFormatProperties2KHR",
	 (PFN_vkVoidFunction)rd_GetPhysicalDeviceImageFormatProperties2, RD_SCOPE_P},
	{"vkGetPhysicalDeviceQueueFamilyProperties2KHR",
	 (PFN_vkVoidFunction)rd_GetPhysicalDeviceQueueFamilyProperties2, RD_SCOPE_P},
	{"vkGetPhysicalDeviceMemoryProperties2KHR",
	 (PFN_vkVoidFunction)rd_GetPhysicalDeviceMemoryProperties2, RD_SCOPE_P},
	{"vkGetPhysicalDeviceSparseImageFormatProperties2KHR",
	 (PFN_vkVoidFunction)rd_GetPhysicalDeviceSparseImageFormatProperties2, RD_SCOPE_P},
	{"vkGetPhysicalDeviceExternalBufferPropertiesKHR",
	 (PFN_vkVoidFunction)rd_GetPhysicalDeviceExternalBufferProperties, RD_SCOPE_P},
	{"vkGetPhysicalDeviceExternalFencePropertiesKHR",
	 (PFN_vkVoidFunction)rd_GetPhysicalDeviceExternalFenceProperties, RD_SCOPE_P},
	{"vkGetPhysicalDeviceExternalSemaphorePropertiesKHR",
	 (PFN_vkVoidFunction)rd_GetPhysicalDeviceExternalSemaphoreProperties, RD_SCOPE_P},
	{"vkEnumeratePhysicalDeviceGroupsKHR", (PFN_vkVoidFunction)rd_EnumeratePhysicalDeviceGroups,
	 RD_SCOPE_I},
};

static const struct rd_entry *lookup(const char *name)
{
	if (!name || strncmp(name, "vk", 2) != 0)
		return NULL;
	for (size_t i = 0; i < sizeof(entries) / sizeof(entries[0]); i++)
		if (strcmp(entries[i].name, name) == 0)
			return &entries[i];
	return NULL;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL rd_GetInstanceProcAddr(VkInstance instance,
								 const char *pName)
{
	const struct rd_entry *e = lookup(pName);
	if (!e)
		return NULL;
	/* Global functions are queryable without an instance; everything
	 * else needs one (the loader also fetches device functions here). */
	if (!instance && e->scope != RD_SCOPE_G)
		return NULL;
	return e->fn;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL rd_GetDeviceProcAddr(VkDevice device,
							       const char *pName)
{
	const struct rd_entry *e = lookup(pName);
	if (!e || e->scope != RD_SCOPE_D)
		return NULL;
	return e->fn;
}

/* Exported loader interface ------------------------------------------------*/

VKAPI_ATTR VkResult VKAPI_CALL vk_icdNegotiateLoaderICDInterfaceVersion(uint32_t *pVersion);
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetInstanceProcAddr(VkInstance instance,
								    const char *pName);
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetPhysicalDeviceProcAddr(VkInstance instance,
									  const char *pName);

/* Version 5: the loader checks VkApplicationInfo::apiVersion for us, and
 * LDP_DRIVER_7 asks >= 5 of a Vulkan >= 1.1 driver. */
#define RD_LOADER_INTERFACE_VERSION 5

VKAPI_ATTR VkResult VKAPI_CALL vk_icdNegotiateLoaderICDInterfaceVersion(uint32_t *pVersion)
{
	if (*pVersion > RD_LOADER_INTERFACE_VERSION)
		*pVersion = RD_LOADER_INTERFACE_VERSION;
	return VK_SUCCESS;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetInstanceProcAddr(VkInstance instance,
								    const char *pName)
{
	return rd_GetInstanceProcAddr(instance, pName);
}

/* Must return physical-device functions only, NULL for anything else. */
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetPhysicalDeviceProcAddr(VkInstance instance,
									  const char *pName)
{
	const struct rd_entry *e = lookup(pName);
	return e && e->scope == RD_SCOPE_P ? e->fn : NULL;
}
