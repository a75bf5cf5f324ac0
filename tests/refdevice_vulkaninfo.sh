#!/usr/bin/env bash
# vulkaninfo, with the reference device as the only driver, runs to the end
# and shows it.  Usage: refdevice_vulkaninfo.sh MANIFEST
set -u
out=$(VK_DRIVER_FILES=$1 vulkaninfo 2>&1)
rc=$?
if [ $rc -ne 0 ]; then
	echo "vulkaninfo exited $rc"; echo "$out" | tail -20; exit 1
fi
for want in 'deviceName *= vkqs refdevice' 'VkPhysicalDeviceVulkan13Properties' 'timestampValidBits *= 48' \
	'VkPhysicalDeviceMemoryProperties' 'occlusionQueryPrecise *= true' 'VK_QCOM_elapsed_timer_query' \
	'VK_ARM_performance_counters_by_region' 'VK_KHR_performance_query' 'VK_ARM_shader_instrumentation' \
	'allowCommandBufferQueryCopies *= true' 'performanceCounterQueryPools *= true' \
	'VK_KHR_video_encode_queue' 'VK_KHR_video_encode_h264'; do
	echo "$out" | grep -Eq "$want" || { echo "vulkaninfo output lacks /$want/"; exit 1; }
done
# And on the tile-based architecture.
out=$(RD_ARCH=tiler VK_DRIVER_FILES=$1 vulkaninfo 2>&1) || { echo "vulkaninfo (RD_ARCH=tiler) failed"; exit 1; }
echo "$out" | grep -q 'VK_ARM_performance_counters_by_region' ||
	{ echo "vulkaninfo (RD_ARCH=tiler) lacks VK_ARM_performance_counters_by_region"; exit 1; }
echo "vulkaninfo: $(echo "$out" | wc -l) lines, refdevice shown with its query extensions"
