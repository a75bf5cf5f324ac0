/* Prototypes of every entry point in rd_entrypoints.h, with the exact type
 * of its PFN_vk* pointer, so a definition that disagrees fails to compile. */
#ifndef RD_API_H
#define RD_API_H

#include <vulkan/vulkan_core.h>

#include "compat.h"

#include "rd_entrypoints.h"

#define RD_DECLARE(scope, name) extern __typeof__(*(PFN_vk##name)0) rd_##name;
RD_ENTRYPOINTS(RD_DECLARE)
#undef RD_DECLARE

#endif
