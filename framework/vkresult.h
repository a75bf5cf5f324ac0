/* The name of a VkResult ("VK_ERROR_DEVICE_LOST"; "VkResult(?)" for one
 * this list lacks). */
#ifndef VKQS_VKRESULT_H
#define VKQS_VKRESULT_H

#include <vulkan/vulkan_core.h>

const char *vkqs_vk_result_name(VkResult r);

#endif
