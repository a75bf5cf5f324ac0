/* Vulkan bring-up: instance, device selection, the per-process device
 * fixture (STYLE 6) and the device description that `vkqs info`, the JSON
 * report and the cases share. */
#ifndef VKQS_DEVICE_H
#define VKQS_DEVICE_H

#include <stdbool.h>
#include <stdint.h>

#include "compat.h"

#define VKQS_MAX_FAMILIES 16
#define VKQS_MAX_FEATURES 64
#define VKQS_MAX_EXTS 48

/* The device a run uses when --device is absent. */
#define VKQS_DEFAULT_DEVICE "refdevice"
/* The bundled reference device's driverName (refdevice/rd_instance.c). */
#define VKQS_REFDEVICE_DRIVER_NAME "refdevice"
/* The refdevice's knobs set in this environment (RD_*), "NAME=value" lines
 * in name order; "" when none. */
void vkqs_refdevice_knobs(char *buf, size_t size);

struct vkqs_family_info {
	VkQueueFlags flags;
	uint32_t count;
	uint32_t timestamp_valid_bits;
	/* VK_KHR_video_queue: the codec operations the family supports and
	 * whether it supports result status queries */
	VkVideoCodecOperationFlagsKHR video_codecs;
	bool query_result_status;
};

struct vkqs_feature_info {
	char name[80]; /* "occlusionQueryPrecise", "VK_EXT_mesh_shader.meshShaderQueries" */
	bool value;
};

struct vkqs_ext_info {
	char name[64];
	uint32_t spec_version; /* 0 when absent */
};

/* Plain data (no pointers): it crosses the probe child's pipe as bytes. */
struct vkqs_device_info {
	uint32_t index;
	uint32_t device_count;
	char name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
	char driver_name[VK_MAX_DRIVER_NAME_SIZE];
	char driver_info[VK_MAX_DRIVER_INFO_SIZE];
	uint32_t driver_id; /* VkDriverId */
	uint32_t api_version;
	uint32_t driver_version;
	uint32_t vendor_id;
	uint32_t device_id;
	VkPhysicalDeviceType type;
	float timestamp_period;
	bool timestamp_compute_and_graphics;
	uint32_t family_count;
	struct vkqs_family_info families[VKQS_MAX_FAMILIES];
	uint32_t feature_count;
	struct vkqs_feature_info features[VKQS_MAX_FEATURES];
	uint32_t ext_count; /* the query-related extensions, present or not */
	struct vkqs_ext_info exts[VKQS_MAX_EXTS];
	uint32_t layer_version; /* VK_LAYER_KHRONOS_validation's, under --validation */
	uint32_t same_driver_count; /* vkqs_probe_device only: physical devices of this
	                               driver name, this one too */
};

const char *vkqs_device_type_name(VkPhysicalDeviceType t);
/* "1.3.230" */
void vkqs_version_string(uint32_t v, char *buf, size_t size);

/* Adds the bundled reference device's manifest (found next to the running
 * binary: <dir>/refdevice/ or <dir>/) to VK_ADD_DRIVER_FILES, keeping the
 * system's drivers.  An explicit VK_DRIVER_FILES / VK_ICD_FILENAMES is the
 * user's choice and wins (the loader then ignores VK_ADD_DRIVER_FILES);
 * VKQS_NO_REFDEVICE=1 skips it.  Call before the first Vulkan call. */
void vkqs_loader_add_refdevice(void);

/* When d is the bundled reference device that vkqs_loader_add_refdevice
 * added (the user named no driver list, and the loader sees one device of
 * that driver), makes the loader load its manifest alone from now on and
 * returns the device spec that selects it then ("0"); else NULL, changing
 * nothing.  Case processes then skip loading every other driver (lavapipe
 * links LLVM: a fifth of a refdevice run's time). */
const char *vkqs_loader_only_refdevice(const struct vkqs_device_info *d);

/* Instance --------------------------------------------------------------- */
struct vkqs_instance {
	VkInstance instance;
	bool validation;
	VkDebugUtilsMessengerEXT messenger;
	uint32_t phys_count;
	VkPhysicalDevice *phys;
	/* Validation errors seen since the last vkqs_validation_take(). */
	uint32_t validation_errors;
	char validation_first[1024];
	/* A case is submitting performance query passes, or the passes as
	 * batches of one submission: the reports some layers make about them
	 * are known false (device.c, docs/validation.md). */
	bool perf_passes;
	bool perf_pass_batches;
	/* A case begins a multiview render pass instance with per-region
	 * counters, one element per view up to the highest (device.c). */
	bool region_views;
	/* The extensions newer than some validation layers that the case used
	 * (bits of device.c's table: vkqs_extension_used). */
	uint32_t newer_used;
};

/* What --validation checked with, summed over a run and all its case
 * processes (shared memory set up before they fork): the reports counted
 * as errors and those ignored, by reason (vkqs_validation_reason). */
#define VKQS_VALIDATION_REASONS 24
struct vkqs_validation_stats {
	uint32_t reports;
	uint32_t ignored;
	uint32_t ignored_by[VKQS_VALIDATION_REASONS];
};
/* Call once in the parent before any case process starts. */
bool vkqs_validation_stats_init(void);
/* The counts so far (zeros before init). */
struct vkqs_validation_stats vkqs_validation_stats(void);
/* Reason i's text and whether it is "the layer predates an extension";
 * NULL past the last. */
const char *vkqs_validation_reason(unsigned i, bool *predates);
/* How many of the ignored reports were about an extension newer than the
 * layer. */
uint32_t vkqs_validation_ignored_predating(const struct vkqs_validation_stats *s);
/* Writes the extensions (and the areas using them) that the layer of
 * version v predates into buf; returns false when it predates none. */
bool vkqs_validation_unchecked(uint32_t v, char *buf, size_t size);

/* On failure writes one line to err and returns false. */
bool vkqs_instance_create(struct vkqs_instance *inst, bool validation,
			  char *err, size_t errsize);
void vkqs_instance_destroy(struct vkqs_instance *inst);

/* Physical devices whose driverName is driver_name. */
uint32_t vkqs_instance_count_driver(const struct vkqs_instance *inst, const char *driver_name);
/* Picks a physical device by spec: a decimal index, or a case-insensitive
 * substring of the device or driver name (the first match wins). */
bool vkqs_instance_select(struct vkqs_instance *inst, const char *spec,
			  uint32_t *index, char *err, size_t errsize);
void vkqs_device_describe(struct vkqs_instance *inst, uint32_t index,
			  struct vkqs_device_info *out);
bool vkqs_device_feature(const struct vkqs_device_info *info, const char *name);
bool vkqs_device_has_ext(const struct vkqs_device_info *info, const char *name);

/* Device fixture --------------------------------------------------------- */
#define VKQS_NO_FAMILY UINT32_MAX

struct vkqs_queue {
	uint32_t family;   /* VKQS_NO_FAMILY when the device has none */
	VkQueue queue;
	VkCommandPool pool;
};

struct vkqs_vk {
	struct vkqs_instance inst;
	uint32_t index;
	VkPhysicalDevice phys;
	VkDevice device;
	struct VolkDeviceTable d; /* device functions, no loader trampoline */
	struct vkqs_device_info info;
	VkPhysicalDeviceProperties props;
	VkPhysicalDeviceMemoryProperties mem;
	/* Features enabled on the device: every one the device supports,
	 * except robustness, so cases check these rather than re-query. */
	VkPhysicalDeviceFeatures2 features;
	VkPhysicalDeviceVulkan11Features f11;
	VkPhysicalDeviceVulkan12Features f12;
	VkPhysicalDeviceVulkan13Features f13;
	bool has_13;
	struct vkqs_queue gfx;      /* graphics + compute */
	struct vkqs_queue compute;  /* compute without graphics, if any */
	struct vkqs_queue transfer; /* transfer only, if any */
	/* the first family with video decode and result status queries (else
	 * any with video decode), when VK_KHR_video_decode_queue is enabled */
	struct vkqs_queue decode;
	/* the first family with video encode and result status queries (else
	 * any with video encode), when VK_KHR_video_encode_queue is enabled */
	struct vkqs_queue encode;
	VkFormat depth_format;      /* a depth format usable as attachment */
	/* Calibrated timestamps through whichever of VK_KHR_ / VK_EXT_
	 * calibrated_timestamps the fixture enabled (KHR preferred; volk's
	 * 1.3.239 tables know only EXT); NULL when the device has neither. */
	PFN_vkGetPhysicalDeviceCalibrateableTimeDomainsKHR get_calibrateable_time_domains;
	PFN_vkGetCalibratedTimestampsKHR get_calibrated_timestamps;
	/* vkCmdCopyQueryPoolResultsToMemoryKHR where VK_KHR_device_address_-
	 * commands is enabled (a Vulkan 1.3 device that has it), else NULL. */
	PFN_vkCmdCopyQueryPoolResultsToMemoryKHR copy_query_results_to_memory;
	/* How long a case waits for a fence before calling it a hang
	 * (vkqs_fence_wait): set by the runner from --timeout after
	 * vkqs_vk_create. */
	uint64_t fence_timeout_ns;
};

/* Creates instance and device for the physical device picked by spec.
 * Returns false with one line in err when the device cannot be set up. */
bool vkqs_vk_create(struct vkqs_vk *vk, const char *device_spec,
		    bool validation, char *err, size_t errsize);
void vkqs_vk_destroy(struct vkqs_vk *vk);
/* Forgets a device that may never finish its work (a lost device, a fence
 * that did not signal), without vkDestroyDevice, which would wait for that
 * work: its messenger, which reports into *vk, is destroyed (the next
 * device made in *vk would get its reports), its instance leaves the
 * live list; the device and instance stay allocated until the process
 * ends. */
void vkqs_vk_abandon(struct vkqs_vk *vk);
/* Instances made by vkqs_instance_create and neither destroyed nor
 * abandoned. */
unsigned vkqs_instances_alive(void);
/* Returns the number of validation errors since the last call and the
 * first one's text (VUID first). */
uint32_t vkqs_validation_take(struct vkqs_vk *vk, char *first, size_t size);
/* True when the validation layer is on and older than the Vulkan-Headers
 * version that added extension `ext` in its final form (device.c's table of
 * newer extensions). */
bool vkqs_layer_predates(const struct vkqs_instance *inst, const char *ext);
/* The case uses extension `name` (or a feature "EXT.feature" of it): a
 * layer older than the extension cannot judge the case (device.c). */
void vkqs_extension_used(struct vkqs_instance *inst, const char *name);
/* The extension a report of layer version `layer` is about when that layer
 * predates it, or NULL when the report counts (device.c). */
const char *vkqs_validation_predated(uint32_t layer, uint32_t newer_used, const char *id,
				     const char *msg);

#endif
