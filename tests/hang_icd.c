/* A Vulkan driver that never answers: the loader's first call into it,
 * vk_icdNegotiateLoaderICDInterfaceVersion, blocks forever, as a driver
 * whose kernel module is wedged can (runner_robust.sh lifecycle: such a
 * driver costs `vkqs run` its --timeout and one line, never the job). */
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

EXPORT int vk_icdNegotiateLoaderICDInterfaceVersion(unsigned *version);
EXPORT void *vk_icdGetInstanceProcAddr(void *instance, const char *name);

EXPORT int vk_icdNegotiateLoaderICDInterfaceVersion(unsigned *version)
{
	(void)version;
	for (;;)
		pause();
}

EXPORT void *vk_icdGetInstanceProcAddr(void *instance, const char *name)
{
	(void)instance;
	(void)name;
	for (;;)
		pause();
}
