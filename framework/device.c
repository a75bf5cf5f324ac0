#include "device.h"
#include "util.h"
#include "vkresult.h"

#include "vkqs.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define ERR(...) (snprintf(err, errsize, __VA_ARGS__), false)
#define SETERR(...) ((void)snprintf(err, errsize, __VA_ARGS__))

const char *vkqs_device_type_name(VkPhysicalDeviceType t)
{
	switch (t) {
	case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated-gpu";
	case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete-gpu";
	case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual-gpu";
	case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
	default: return "other";
	}
}

void vkqs_version_string(uint32_t v, char *buf, size_t size)
{
	snprintf(buf, size, "%u.%u.%u", VK_API_VERSION_MAJOR(v),
		 VK_API_VERSION_MINOR(v), VK_API_VERSION_PATCH(v));
}

/* The manifest vkqs_loader_add_refdevice found, when the loader's driver
 * list was the system's plus that one alone. */
static char own_manifest[4200];

void vkqs_loader_add_refdevice(void)
{
	static const char *const where[] = {"refdevice/", ""};
	char exe[4096], manifest[4200];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0 || getenv("VKQS_NO_REFDEVICE"))
		return;
	bool user_list = getenv("VK_DRIVER_FILES") || getenv("VK_ICD_FILENAMES") ||
			 getenv("VK_ADD_DRIVER_FILES");
	exe[n] = '\0';
	char *slash = strrchr(exe, '/');
	if (!slash)
		return;
	*slash = '\0';
	size_t i = 0;
	for (; i < sizeof(where) / sizeof(where[0]); i++) {
		snprintf(manifest, sizeof(manifest), "%s/%svkqs_refdevice_icd.json", exe, where[i]);
		if (access(manifest, R_OK) == 0)
			break;
	}
	if (i == sizeof(where) / sizeof(where[0]))
		return;
	if (!user_list)
		snprintf(own_manifest, sizeof(own_manifest), "%s", manifest);
	const char *add = getenv("VK_ADD_DRIVER_FILES");
	if (add && strstr(add, manifest))
		return;
	char *value = malloc(strlen(manifest) + (add ? strlen(add) : 0) + 2);
	if (!value)
		return;
	sprintf(value, "%s%s%s", add ? add : "", add && *add ? ":" : "", manifest);
	setenv("VK_ADD_DRIVER_FILES", value, 1);
	free(value);
}

const char *vkqs_loader_only_refdevice(const struct vkqs_device_info *d)
{
	if (!own_manifest[0] || strcmp(d->driver_name, VKQS_REFDEVICE_DRIVER_NAME) != 0 ||
	    d->same_driver_count != 1)
		return NULL;
	if (setenv("VK_DRIVER_FILES", own_manifest, 1) != 0)
		return NULL;
	unsetenv("VK_ADD_DRIVER_FILES");
	return "0";
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

extern char **environ;

void vkqs_refdevice_knobs(char *buf, size_t size)
{
	const char *knob[128];
	size_t n = 0, len = 0;
	/* what changes the device's behaviour: not RD_DEBUG (the log's
	 * detail), not RD_PROFILING_LOCK_FILE (which file a lock uses), not
	 * an empty value (the default) */
	for (char **e = environ; e && *e && n < 128; e++)
		if (!strncmp(*e, "RD_", 3) && strncmp(*e, "RD_DEBUG=", 9) != 0 &&
		    strncmp(*e, "RD_PROFILING_LOCK_FILE=", 23) != 0 && strchr(*e, '=') &&
		    strchr(*e, '=')[1] != '\0')
			knob[n++] = *e;
	qsort(knob, n, sizeof(knob[0]), cmp_str);
	buf[0] = '\0';
	for (size_t i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s\n", knob[i]);
}

/* Instance --------------------------------------------------------------- */

/* Extensions newer than a validation layer can be: the layer reports their
 * structures and enum values as invalid ("...-parameter": "does not fall
 * within the begin..end range", "...-pNext-pNext": "unknown
 * VkStructureType (N)").  Such a report says nothing about the case's usage,
 * only that the layer predates the extension (Debian's is 1.3.239): when
 * the value it names belongs to one of these extensions and the layer is
 * older than the header that added it, the report is logged as ignored and
 * not counted.  An extension's values are 1000000000 + (number - 1) * 1000
 * + offset (the registry's rule).  The version of each is the first
 * Vulkan-Headers release whose vk.xml names it (its git history;
 * docs/validation.md), the video encode ones the release that took them
 * out of beta.  ctest unit.layer_knowledge (tools/check_layer_knowledge.py)
 * fails when compat.h defines an extension this list lacks, or a case uses
 * one without marking it (vkqs_require_feature("EXT.feature"),
 * vkqs_extension_used, vkqs_layer_predates). */
static const struct {
	uint32_t number;  /* extension number */
	uint32_t version; /* the Vulkan-Headers version that added it */
	const char *name;
	const char *areas; /* the suite areas that use it */
} newer_exts[] = {
	{39, VK_MAKE_API_VERSION(0, 1, 3, 274), "VK_KHR_video_encode_h264", "video"},
	{174, VK_MAKE_API_VERSION(0, 1, 4, 351), "VK_QCOM_elapsed_timer_query",
	 "elapsed,xfb,selftest,bench,reset"},
	{300, VK_MAKE_API_VERSION(0, 1, 3, 274), "VK_KHR_video_encode_queue", "video"},
	{319, VK_MAKE_API_VERSION(0, 1, 4, 346), "VK_KHR_device_address_commands",
	 "results,stats"},
	{471, VK_MAKE_API_VERSION(0, 1, 3, 260), "VK_KHR_maintenance5", "instrumentation"},
	{516, VK_MAKE_API_VERSION(0, 1, 3, 274), "VK_KHR_video_maintenance1", "video"},
	{544, VK_MAKE_API_VERSION(0, 1, 3, 273), "VK_KHR_calibrated_timestamps", "timestamp"},
	{563, VK_MAKE_API_VERSION(0, 1, 3, 289), "VK_KHR_maintenance7", "timestamp"},
	{585, VK_MAKE_API_VERSION(0, 1, 4, 317), "VK_KHR_maintenance9", "reset,perf,video"},
	{599, VK_MAKE_API_VERSION(0, 1, 4, 353), "VK_KHR_video_encode_feedback2", "video"},
	{606, VK_MAKE_API_VERSION(0, 1, 4, 331), "VK_ARM_performance_counters_by_region",
	 "region_counters"},
	{608, VK_MAKE_API_VERSION(0, 1, 4, 345), "VK_ARM_shader_instrumentation",
	 "instrumentation"},
};
#define N_NEWER_EXTS (sizeof(newer_exts) / sizeof(newer_exts[0]))
_Static_assert(N_NEWER_EXTS <= 32, "newer_used is a 32-bit mask of newer_exts[]");

static uint32_t layer_spec_version; /* of VK_LAYER_KHRONOS_validation, when enabled */

bool vkqs_layer_predates(const struct vkqs_instance *inst, const char *ext)
{
	if (!inst->validation)
		return false;
	for (size_t i = 0; i < sizeof(newer_exts) / sizeof(newer_exts[0]); i++)
		if (strcmp(newer_exts[i].name, ext) == 0)
			return layer_spec_version < newer_exts[i].version;
	return false;
}

void vkqs_extension_used(struct vkqs_instance *inst, const char *name)
{
	for (size_t i = 0; i < N_NEWER_EXTS; i++) {
		size_t n = strlen(newer_exts[i].name);
		if (strncmp(name, newer_exts[i].name, n) == 0 && (name[n] == '\0' || name[n] == '.'))
			inst->newer_used |= 1u << i;
	}
}

/* Whether a report is about something newer than the layer, decided from
 * what the layer knows: its version against the Vulkan-Headers version
 * that added each extension.
 * - The case used an extension newer than the layer (vkqs_extension_used:
 *   it required one of the extension's features, or used its flags): the
 *   layer cannot judge that usage, so any report of the case is attributed
 *   to the extension.
 * - Otherwise a report about a value the layer does not know ("-parameter":
 *   "does not fall within the begin..end range", "-pNext-pNext": "unknown
 *   VkStructureType (N)") whose number belongs to an extension newer than
 *   the layer: an extension's values are 1000000000 + (number - 1) * 1000 +
 *   offset (the registry's rule).
 * Returns the extension's name, or NULL when the report counts. */
const char *vkqs_validation_predated(uint32_t layer, uint32_t newer_used, const char *id,
				     const char *msg)
{
	for (size_t i = 0; i < N_NEWER_EXTS; i++)
		if ((newer_used & (1u << i)) && layer < newer_exts[i].version)
			return newer_exts[i].name;
	if (!id || !msg)
		return NULL;
	size_t n = strlen(id);
	bool param = n > 10 && strcmp(id + n - 10, "-parameter") == 0;
	bool pnext = n > 12 && strcmp(id + n - 12, "-pNext-pNext") == 0;
	if (!param && !pnext)
		return NULL;
	for (const char *p = strchr(msg, '('); p; p = strchr(p + 1, '(')) {
		char *end;
		unsigned long v = strtoul(p + 1, &end, 10);
		if (*end != ')' || v < 1000000000ul || v > 1000999999ul)
			continue;
		uint32_t number = (uint32_t)((v - 1000000000ul) / 1000u) + 1;
		for (size_t i = 0; i < N_NEWER_EXTS; i++)
			if (newer_exts[i].number == number && layer < newer_exts[i].version)
				return newer_exts[i].name;
	}
	return NULL;
}

/* Reports of layers that are wrong about valid usage, each with the layer
 * versions it is known in and the condition that singles it out; ignored
 * (and logged) only there.  docs/validation.md argues each from the spec.
 * - Performance queries submitted once per pass: the layer tracked the
 *   query state without the pass, so pass 1 "begins a query not reset"
 *   (KhronosGroup/Vulkan-ValidationLayers issue 6304, fixed by PR 6546,
 *   2023-09, SDK 1.3.268).
 * - VUID-vkCmdEndQuery-queryPool-03227 on a vkCmdEndQuery that is the
 *   last command: the submit-time check compared the end's index with
 *   command_count - 1 (later layers compare with command_count).
 * - The passes as batches of one vkQueueSubmit: pass 1 and later "begin a
 *   query not reset" although a reset resets every pass (seen on 1.4.357,
 *   not on 1.4.364).
 * - counterAddressCount against a zero view mask: the layer takes the most
 *   significant bit of viewMask 0 (-1) as the layer count of a dynamic
 *   rendering instance without multiview.
 * - counterAddressCount in multiview: the VUID's L is "the index of the
 *   most significant bit of any view mask", one fewer than the views the
 *   index s * L + l must address; the layer takes the VUID literally.
 * - pMetricValues NULL: vk.xml lacks optional="true" although the
 *   command's description makes NULL the way to ask for the count. */
enum report_cond {
	COND_ANY,
	COND_PERF_PASSES,
	COND_PERF_BATCHES,
	COND_MESSAGE,
	COND_VIEWS_PLUS_ONE, /* region_views, and the count is S x (L + 1) */
};
static const struct {
	const char *id;
	uint32_t from, below; /* layer versions [from, below) */
	enum report_cond cond;
	const char *message;  /* COND_MESSAGE: the report contains this */
	const char *why;
} layer_false_reports[] = {
	{"UNASSIGNED-CoreValidation-DrawState-QueryNotReset", 0, VK_MAKE_API_VERSION(0, 1, 3, 268),
	 COND_PERF_PASSES, NULL, "per-pass performance query state (Vulkan-ValidationLayers #6304)"},
	{"VUID-vkCmdBeginQuery-None-00807", 0, VK_MAKE_API_VERSION(0, 1, 3, 268), COND_PERF_PASSES,
	 NULL, "per-pass performance query state (Vulkan-ValidationLayers #6304)"},
	{"VUID-vkCmdEndQuery-queryPool-03227", 0, VK_MAKE_API_VERSION(0, 1, 3, 268), COND_ANY, NULL,
	 "off-by-one last-command index"},
	{"VUID-vkCmdBeginQuery-None-00807", VK_MAKE_API_VERSION(0, 1, 3, 268),
	 VK_MAKE_API_VERSION(0, 1, 4, 358), COND_PERF_BATCHES, "query not reset",
	 "performance query passes as batches of one submission"},
	{"VUID-VkRenderPassPerformanceCountersByRegionBeginInfoARM-counterAddressCount-11815",
	 VK_MAKE_API_VERSION(0, 1, 4, 331), VK_MAKE_API_VERSION(0, 1, 4, 365), COND_MESSAGE,
	 "number of layers in the render pass instance (4294967295)",
	 "counterAddressCount against the top bit of a zero view mask"},
	{"VUID-VkRenderPassPerformanceCountersByRegionBeginInfoARM-counterAddressCount-11815",
	 VK_MAKE_API_VERSION(0, 1, 4, 331), VK_MAKE_API_VERSION(0, 1, 4, 365), COND_VIEWS_PLUS_ONE,
	 NULL, "counterAddressCount of a multiview instance: views, not the top view index"},
	{"VUID-vkGetShaderInstrumentationValuesARM-pMetricValues-parameter",
	 VK_MAKE_API_VERSION(0, 1, 4, 345), VK_MAKE_API_VERSION(0, 1, 4, 358), COND_MESSAGE,
	 "pMetricValues is NULL", "pMetricValues NULL to ask for the count"},
};
#define N_FALSE_REPORTS (sizeof(layer_false_reports) / sizeof(layer_false_reports[0]))

static int false_report(const struct vkqs_instance *inst,
			const VkDebugUtilsMessengerCallbackDataEXT *data)
{
	if (!data->pMessageIdName)
		return -1;
	for (size_t i = 0; i < N_FALSE_REPORTS; i++) {
		if (strcmp(data->pMessageIdName, layer_false_reports[i].id) != 0 ||
		    layer_spec_version < layer_false_reports[i].from ||
		    layer_spec_version >= layer_false_reports[i].below)
			continue;
		bool cond = false;
		switch (layer_false_reports[i].cond) {
		case COND_ANY: cond = true; break;
		case COND_PERF_PASSES: cond = inst->perf_passes; break;
		case COND_PERF_BATCHES: cond = inst->perf_pass_batches; break;
		case COND_MESSAGE: break;
		case COND_VIEWS_PLUS_ONE: {
			unsigned count, subpasses, layers;
			const char *m = data->pMessage ? strstr(data->pMessage, "counterAddressCount (")
						       : NULL;
			cond = inst->region_views && m &&
			       sscanf(m, "counterAddressCount (%u) differs from the number of "
					 "subpasses (%u) times the number of layers in the render "
					 "pass instance (%u)", &count, &subpasses, &layers) == 3 &&
			       count == subpasses * (layers + 1);
			break;
		}
		}
		if (layer_false_reports[i].message)
			cond = (cond || layer_false_reports[i].cond == COND_MESSAGE) && data->pMessage &&
			       strstr(data->pMessage, layer_false_reports[i].message);
		if (cond)
			return (int)i;
	}
	return -1;
}

/* Stats ------------------------------------------------------------------ */

static struct vkqs_validation_stats *vstats;

bool vkqs_validation_stats_init(void)
{
	if (vstats)
		return true;
	void *m = mmap(NULL, sizeof(*vstats), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		       -1, 0);
	if (m == MAP_FAILED)
		return false;
	vstats = m;
	return true;
}

struct vkqs_validation_stats vkqs_validation_stats(void)
{
	struct vkqs_validation_stats s = {0};
	if (vstats) {
		s.reports = __atomic_load_n(&vstats->reports, __ATOMIC_SEQ_CST);
		s.ignored = __atomic_load_n(&vstats->ignored, __ATOMIC_SEQ_CST);
		for (unsigned i = 0; i < VKQS_VALIDATION_REASONS; i++)
			s.ignored_by[i] = __atomic_load_n(&vstats->ignored_by[i], __ATOMIC_SEQ_CST);
	}
	return s;
}

_Static_assert(N_NEWER_EXTS + N_FALSE_REPORTS <= VKQS_VALIDATION_REASONS,
	       "VKQS_VALIDATION_REASONS is too small");

const char *vkqs_validation_reason(unsigned i, bool *predates)
{
	if (predates)
		*predates = i < N_NEWER_EXTS;
	if (i < N_NEWER_EXTS)
		return newer_exts[i].name;
	if (i < N_NEWER_EXTS + N_FALSE_REPORTS)
		return layer_false_reports[i - N_NEWER_EXTS].why;
	return NULL;
}

bool vkqs_validation_unchecked(uint32_t v, char *buf, size_t size)
{
	size_t n = 0;
	bool any = false;
	buf[0] = '\0';
	for (size_t i = 0; i < N_NEWER_EXTS; i++)
		if (v < newer_exts[i].version && n < size) {
			int k = snprintf(buf + n, size - n, "%s%s (%s)", any ? ", " : "",
					 newer_exts[i].name, newer_exts[i].areas);
			n += k > 0 ? (size_t)k : 0;
			any = true;
		}
	return any;
}

uint32_t vkqs_validation_ignored_predating(const struct vkqs_validation_stats *s)
{
	uint32_t n = 0;
	for (size_t i = 0; i < N_NEWER_EXTS; i++)
		n += s->ignored_by[i];
	return n;
}

static void count(uint32_t *c)
{
	if (vstats)
		__atomic_fetch_add(c, 1, __ATOMIC_SEQ_CST);
}

static VKAPI_ATTR VkBool32 VKAPI_CALL
debug_cb(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
	 VkDebugUtilsMessageTypeFlagsEXT types,
	 const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
	struct vkqs_instance *inst = user;
	(void)types;
	if (!(severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT))
		return VK_FALSE;
	const char *ext = vkqs_validation_predated(layer_spec_version, inst->newer_used,
						   data->pMessageIdName, data->pMessage);
	if (ext) {
		fprintf(stderr, "validation (ignored: the layer predates %s): %s\n", ext,
			data->pMessage);
		for (size_t i = 0; i < N_NEWER_EXTS; i++)
			if (newer_exts[i].name == ext && vstats)
				count(&vstats->ignored_by[i]);
		if (vstats)
			count(&vstats->ignored);
		return VK_FALSE;
	}
	int fr = false_report(inst, data);
	if (fr >= 0) {
		fprintf(stderr, "validation (ignored: a false report of this layer version, %s): %s\n",
			layer_false_reports[fr].why, data->pMessage);
		if (vstats) {
			count(&vstats->ignored_by[N_NEWER_EXTS + (size_t)fr]);
			count(&vstats->ignored);
		}
		return VK_FALSE;
	}
	if (vstats)
		count(&vstats->reports);
	if (inst->validation_errors++ == 0) {
		snprintf(inst->validation_first, sizeof(inst->validation_first),
			 "%s: %s", data->pMessageIdName ? data->pMessageIdName : "?",
			 data->pMessage ? data->pMessage : "");
	}
	/* Also in the case's log, for the engineer reading a failure. */
	fprintf(stderr, "validation: %s\n", data->pMessage ? data->pMessage : "");
	return VK_FALSE;
}

/* The layer's specVersion, or 0 when it is not installed. */
static uint32_t layer_version(const char *name)
{
	uint32_t n = 0, version = 0;
	if (vkEnumerateInstanceLayerProperties(&n, NULL) != VK_SUCCESS)
		return 0;
	VkLayerProperties *p = calloc(n ? n : 1, sizeof(*p));
	if (p && vkEnumerateInstanceLayerProperties(&n, p) == VK_SUCCESS)
		for (uint32_t i = 0; i < n && !version; i++)
			if (strcmp(p[i].layerName, name) == 0)
				version = p[i].specVersion;
	free(p);
	return version;
}

static bool has_instance_ext(const char *layer, const char *name)
{
	uint32_t n = 0;
	if (vkEnumerateInstanceExtensionProperties(layer, &n, NULL) != VK_SUCCESS)
		return false;
	VkExtensionProperties *p = calloc(n ? n : 1, sizeof(*p));
	bool found = false;
	if (p && vkEnumerateInstanceExtensionProperties(layer, &n, p) == VK_SUCCESS)
		for (uint32_t i = 0; i < n && !found; i++)
			found = strcmp(p[i].extensionName, name) == 0;
	free(p);
	return found;
}

/* The instances alive in this process, oldest first.  volk keeps one set
 * of instance-level function pointers, those of the instance loaded last;
 * an instance-level extension function (vkDestroyDebugUtilsMessengerEXT)
 * is NULL for an instance that did not enable the extension.  A case that
 * makes a second instance of its own (perf.lock.second_device) would
 * leave the run's instance calling through the second one's pointers once
 * it is gone: a crash with --no-fork --validation.  So destroying an
 * instance loads the newest one left. */
#define LIVE_MAX 8
static VkInstance live[LIVE_MAX];
static unsigned live_count, live_untracked; /* (those past LIVE_MAX) */

static void live_add(VkInstance i)
{
	if (live_count < LIVE_MAX)
		live[live_count++] = i;
	else
		live_untracked++;
}

static void live_remove(VkInstance i)
{
	unsigned k = 0;
	while (k < live_count && live[k] != i)
		k++;
	if (k < live_count) {
		memmove(&live[k], &live[k + 1], (live_count - k - 1) * sizeof(live[0]));
		live_count--;
	} else if (live_untracked) {
		live_untracked--;
	}
	if (live_count && volkGetLoadedInstance() != live[live_count - 1])
		volkLoadInstanceOnly(live[live_count - 1]);
}

bool vkqs_instance_create(struct vkqs_instance *inst, bool validation,
			  char *err, size_t errsize)
{
	memset(inst, 0, sizeof(*inst));
	if (volkInitialize() != VK_SUCCESS)
		return ERR("cannot load the Vulkan loader (libvulkan.so.1): install libvulkan1");
	if (volkGetInstanceVersion() < VK_API_VERSION_1_2)
		return ERR("the Vulkan loader is older than 1.2");

	const char *layers[1];
	const char *exts[3];
	uint32_t nlayers = 0, nexts = 0;
	/* Without handle wrapping the layer passes the application's structs
	 * down as they are: with it, it copies them and drops the structs it
	 * does not know, such as an extension's newer than the layer (a
	 * VkRenderPassPerformanceCountersByRegionBeginInfoARM would never reach
	 * the driver).  Handle wrapping checks nothing; the checks stay. */
	VkValidationFeatureDisableEXT no_wrap = VK_VALIDATION_FEATURE_DISABLE_UNIQUE_HANDLES_EXT;
	VkValidationFeaturesEXT features = {
		.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
		.disabledValidationFeatureCount = 1,
		.pDisabledValidationFeatures = &no_wrap,
	};
	bool use_features = false;
	VkInstanceCreateFlags flags = 0;
	if (validation) {
		layer_spec_version = layer_version("VK_LAYER_KHRONOS_validation");
		if (!layer_spec_version)
			return ERR("--validation: VK_LAYER_KHRONOS_validation is not installed (Debian: vulkan-validationlayers)");
		layers[nlayers++] = "VK_LAYER_KHRONOS_validation";
		/* Every report counts: the layer's default stops repeating a VUID
		 * after 10 reports per process, which would hide a later case's
		 * reports in a batch.  An engineer's own setting wins. */
		setenv("VK_LAYER_ENABLE_MESSAGE_LIMIT", "false", 0);
		exts[nexts++] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
		if (has_instance_ext("VK_LAYER_KHRONOS_validation",
				     VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME)) {
			exts[nexts++] = VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME;
			use_features = true;
		}
	}
	if (has_instance_ext(NULL, VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME)) {
		exts[nexts++] = VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME;
		flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
	}

	VkApplicationInfo app = {
		.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
		.pApplicationName = "vkqs",
		.pEngineName = "vkqs",
		.apiVersion = VK_API_VERSION_1_3,
	};
	VkDebugUtilsMessengerCreateInfoEXT dbg = {
		.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
		.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT |
				   VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
		.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
			       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
			       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
		.pfnUserCallback = debug_cb,
		.pUserData = inst,
	};
	features.pNext = &dbg; /* dbg alone creates the messenger below */
	VkInstanceCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
		.pNext = !validation ? NULL : use_features ? (const void *)&features : (const void *)&dbg,
		.flags = flags,
		.pApplicationInfo = &app,
		.enabledLayerCount = nlayers,
		.ppEnabledLayerNames = layers,
		.enabledExtensionCount = nexts,
		.ppEnabledExtensionNames = exts,
	};
	VkResult r = vkCreateInstance(&ci, NULL, &inst->instance);
	if (r == VK_ERROR_INCOMPATIBLE_DRIVER)
		return ERR("vkCreateInstance: no usable Vulkan driver (VK_ERROR_INCOMPATIBLE_DRIVER; "
			   "VK_DRIVER_FILES=%s)",
			   getenv("VK_DRIVER_FILES") ? getenv("VK_DRIVER_FILES") : "unset");
	if (r != VK_SUCCESS)
		return ERR("vkCreateInstance failed: %s", vkqs_vk_result_name(r));
	volkLoadInstanceOnly(inst->instance);
	live_add(inst->instance);
	inst->validation = validation;
	if (validation) {
		r = vkCreateDebugUtilsMessengerEXT(inst->instance, &dbg, NULL,
						   &inst->messenger);
		if (r != VK_SUCCESS) {
			vkqs_instance_destroy(inst);
			return ERR("vkCreateDebugUtilsMessengerEXT failed: %d", r);
		}
	}
	r = vkEnumeratePhysicalDevices(inst->instance, &inst->phys_count, NULL);
	if (r == VK_SUCCESS && inst->phys_count) {
		inst->phys = calloc(inst->phys_count, sizeof(*inst->phys));
		if (!inst->phys)
			r = VK_ERROR_OUT_OF_HOST_MEMORY;
		else
			r = vkEnumeratePhysicalDevices(inst->instance, &inst->phys_count,
						       inst->phys);
	}
	if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
		vkqs_instance_destroy(inst);
		return ERR("vkEnumeratePhysicalDevices failed: %s", vkqs_vk_result_name(r));
	}
	return true;
}

/* Ends what vkqs tracks of inst: its messenger, its place in the live
 * list, its memory; the instance itself only when destroy is set (an
 * abandoned one stays, with its device, until the process ends). */
static void instance_release(struct vkqs_instance *inst, bool destroy)
{
	/* its own pointers: another instance may have been loaded since */
	if (inst->instance && volkGetLoadedInstance() != inst->instance)
		volkLoadInstanceOnly(inst->instance);
	if (inst->messenger)
		vkDestroyDebugUtilsMessengerEXT(inst->instance, inst->messenger, NULL);
	if (inst->instance) {
		if (destroy)
			vkDestroyInstance(inst->instance, NULL);
		live_remove(inst->instance);
	}
	free(inst->phys);
	memset(inst, 0, sizeof(*inst));
}

void vkqs_instance_destroy(struct vkqs_instance *inst)
{
	instance_release(inst, true);
}

/* A physical device's properties with its driver properties chained. */
static void driver_properties(VkPhysicalDevice phys, VkPhysicalDeviceProperties2 *p,
			      VkPhysicalDeviceDriverProperties *drv)
{
	*drv = (VkPhysicalDeviceDriverProperties){
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
	*p = (VkPhysicalDeviceProperties2){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
					   .pNext = drv};
	vkGetPhysicalDeviceProperties2(phys, p);
}

uint32_t vkqs_instance_count_driver(const struct vkqs_instance *inst, const char *driver_name)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < inst->phys_count; i++) {
		VkPhysicalDeviceProperties2 p;
		VkPhysicalDeviceDriverProperties drv;
		driver_properties(inst->phys[i], &p, &drv);
		n += strcmp(drv.driverName, driver_name) == 0;
	}
	return n;
}

static bool contains_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++) {
		size_t i = 0;
		while (i < n && hay[i] &&
		       tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
			i++;
		if (i == n)
			return true;
	}
	return n == 0;
}

bool vkqs_instance_select(struct vkqs_instance *inst, const char *spec,
			  uint32_t *index, char *err, size_t errsize)
{
	if (inst->phys_count == 0)
		return ERR("the Vulkan loader found no physical device (is a driver installed? VK_DRIVER_FILES=%s)",
			   getenv("VK_DRIVER_FILES") ? getenv("VK_DRIVER_FILES") : "unset");
	unsigned long long idx;
	if (vkqs_parse_u64(spec, 0, UINT32_MAX, &idx)) {
		if (idx >= inst->phys_count)
			return ERR("no device with index %llu (the loader sees %u; see `vkqs devices`)",
				   idx, inst->phys_count);
		*index = (uint32_t)idx;
		return true;
	}
	/* a substring must name one device: an ambiguous one is refused */
	uint32_t found = 0;
	char names[256] = "";
	for (uint32_t i = 0; i < inst->phys_count; i++) {
		VkPhysicalDeviceProperties2 p;
		VkPhysicalDeviceDriverProperties drv;
		driver_properties(inst->phys[i], &p, &drv);
		if (contains_ci(p.properties.deviceName, spec) ||
		    contains_ci(drv.driverName, spec) || contains_ci(drv.driverInfo, spec)) {
			if (!found++)
				*index = i;
			size_t n = strlen(names);
			snprintf(names + n, sizeof(names) - n, "%s%u (%.40s)", n ? ", " : "", i,
				 p.properties.deviceName);
		}
	}
	if (found == 1)
		return true;
	if (found > 1)
		return ERR("'%s' matches %u devices: %s; give an index or more of the name (see "
			   "`vkqs devices`)",
			   spec, found, names);
	return ERR("no device matches '%s' (see `vkqs devices`)", spec);
}

/* Device description ----------------------------------------------------- */

/* The query-related extensions that `info` and the JSON report list. */
static const char *const query_exts[] = {
	VK_EXT_HOST_QUERY_RESET_EXTENSION_NAME,
	VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME,
	VK_KHR_CALIBRATED_TIMESTAMPS_EXTENSION_NAME,
	VK_KHR_PERFORMANCE_QUERY_EXTENSION_NAME,
	VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME,
	VK_EXT_PRIMITIVES_GENERATED_QUERY_EXTENSION_NAME,
	VK_EXT_MESH_SHADER_EXTENSION_NAME,
	VK_QCOM_ELAPSED_TIMER_QUERY_EXTENSION_NAME,
	VK_ARM_PERFORMANCE_COUNTERS_BY_REGION_EXTENSION_NAME,
	VK_ARM_SHADER_INSTRUMENTATION_EXTENSION_NAME,
	VK_INTEL_PERFORMANCE_QUERY_EXTENSION_NAME,
	VK_KHR_ACCELERATION_STRUCTURE_EXTENSION_NAME,
	VK_KHR_DEFERRED_HOST_OPERATIONS_EXTENSION_NAME,
	VK_KHR_RAY_QUERY_EXTENSION_NAME,
	VK_KHR_RAY_TRACING_PIPELINE_EXTENSION_NAME,
	VK_KHR_RAY_TRACING_MAINTENANCE_1_EXTENSION_NAME,
	VK_KHR_VIDEO_QUEUE_EXTENSION_NAME,
	VK_KHR_VIDEO_DECODE_QUEUE_EXTENSION_NAME,
	VK_KHR_VIDEO_DECODE_H264_EXTENSION_NAME,
	VK_KHR_VIDEO_MAINTENANCE_1_EXTENSION_NAME,
	VK_KHR_VIDEO_ENCODE_QUEUE_EXTENSION_NAME,
	VK_KHR_VIDEO_ENCODE_H264_EXTENSION_NAME,
	VK_KHR_MAINTENANCE_9_EXTENSION_NAME,
	VK_KHR_MAINTENANCE_7_EXTENSION_NAME,
	VK_KHR_MAINTENANCE_5_EXTENSION_NAME,
	VK_EXT_COLOR_WRITE_ENABLE_EXTENSION_NAME,
	VK_EXT_EXTENDED_DYNAMIC_STATE_3_EXTENSION_NAME,
	VK_EXT_CONDITIONAL_RENDERING_EXTENSION_NAME,
	VK_NV_RAY_TRACING_EXTENSION_NAME,
	VK_KHR_VIDEO_ENCODE_FEEDBACK_2_EXTENSION_NAME,
	VK_EXT_OPACITY_MICROMAP_EXTENSION_NAME,
	VK_HUAWEI_CLUSTER_CULLING_SHADER_EXTENSION_NAME,
	VK_KHR_DEVICE_ADDRESS_COMMANDS_EXTENSION_NAME,
	VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME,
	VK_KHR_MULTIVIEW_EXTENSION_NAME,
	VK_KHR_DYNAMIC_RENDERING_EXTENSION_NAME,
};

/* Extension feature structs chained when the extension is present; the
 * same chain enables them on the fixture's device. */
struct ext_features {
	VkPhysicalDeviceTransformFeedbackFeaturesEXT xfb;
	VkPhysicalDevicePrimitivesGeneratedQueryFeaturesEXT pgq;
	VkPhysicalDeviceMeshShaderFeaturesEXT mesh;
	VkPhysicalDevicePerformanceQueryFeaturesKHR perf;
	VkPhysicalDeviceElapsedTimerQueryFeaturesQCOM elapsed;
	VkPhysicalDevicePerformanceCountersByRegionFeaturesARM region;
	VkPhysicalDeviceShaderInstrumentationFeaturesARM instr;
	VkPhysicalDeviceMaintenance9FeaturesKHR m9;
	VkPhysicalDeviceAccelerationStructureFeaturesKHR accel;
	VkPhysicalDeviceRayQueryFeaturesKHR rq;
	VkPhysicalDeviceRayTracingPipelineFeaturesKHR rtp;
	VkPhysicalDeviceRayTracingMaintenance1FeaturesKHR rtm1;
	VkPhysicalDeviceVideoMaintenance1FeaturesKHR vm1;
	VkPhysicalDeviceMaintenance7FeaturesKHR m7;
	VkPhysicalDeviceColorWriteEnableFeaturesEXT cwe;
	VkPhysicalDeviceExtendedDynamicState3FeaturesEXT eds3;
	VkPhysicalDeviceConditionalRenderingFeaturesEXT cond;
	VkPhysicalDeviceOpacityMicromapFeaturesEXT omm;
	VkPhysicalDeviceClusterCullingShaderFeaturesHUAWEI ccs;
	VkPhysicalDeviceVideoEncodeFeedback2FeaturesKHR fb2;
	VkPhysicalDeviceDeviceAddressCommandsFeaturesKHR dac;
};

/* Fills info->exts (the query-related extensions, present or not) from
 * one enumeration of the device's extensions. */
static void describe_exts(VkPhysicalDevice phys, struct vkqs_device_info *o)
{
	uint32_t n = 0;
	VkExtensionProperties *p = NULL;
	if (vkEnumerateDeviceExtensionProperties(phys, NULL, &n, NULL) == VK_SUCCESS) {
		p = calloc(n ? n : 1, sizeof(*p));
		if (!p || vkEnumerateDeviceExtensionProperties(phys, NULL, &n, p) != VK_SUCCESS)
			n = 0;
	}
	for (size_t i = 0; i < sizeof(query_exts) / sizeof(query_exts[0]); i++) {
		struct vkqs_ext_info *e = &o->exts[o->ext_count++];
		snprintf(e->name, sizeof(e->name), "%s", query_exts[i]);
		for (uint32_t k = 0; k < n; k++)
			if (strcmp(p[k].extensionName, query_exts[i]) == 0)
				e->spec_version = p[k].specVersion;
	}
	free(p);
}

/* Links the present extensions' feature structs after `tail` (every
 * extension named here is one of query_exts, so info->exts knows it). */
static void chain_ext_features(const struct vkqs_device_info *info, struct ext_features *e,
			       void **tail)
{
	memset(e, 0, sizeof(*e));
#define LINK(field, stype, ext)                            \
	if (vkqs_device_has_ext(info, ext)) {              \
		e->field.sType = stype;                    \
		*tail = &e->field;                         \
		tail = &e->field.pNext;                    \
	}
	LINK(xfb, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT,
	     VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME)
	LINK(pgq, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVES_GENERATED_QUERY_FEATURES_EXT,
	     VK_EXT_PRIMITIVES_GENERATED_QUERY_EXTENSION_NAME)
	LINK(mesh, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_FEATURES_EXT,
	     VK_EXT_MESH_SHADER_EXTENSION_NAME)
	LINK(perf, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_QUERY_FEATURES_KHR,
	     VK_KHR_PERFORMANCE_QUERY_EXTENSION_NAME)
	LINK(elapsed, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ELAPSED_TIMER_QUERY_FEATURES_QCOM,
	     VK_QCOM_ELAPSED_TIMER_QUERY_EXTENSION_NAME)
	LINK(region, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_COUNTERS_BY_REGION_FEATURES_ARM,
	     VK_ARM_PERFORMANCE_COUNTERS_BY_REGION_EXTENSION_NAME)
	LINK(instr, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INSTRUMENTATION_FEATURES_ARM,
	     VK_ARM_SHADER_INSTRUMENTATION_EXTENSION_NAME)
	LINK(m9, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_9_FEATURES_KHR,
	     VK_KHR_MAINTENANCE_9_EXTENSION_NAME)
	LINK(accel, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_FEATURES_KHR,
	     VK_KHR_ACCELERATION_STRUCTURE_EXTENSION_NAME)
	LINK(rq, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_QUERY_FEATURES_KHR,
	     VK_KHR_RAY_QUERY_EXTENSION_NAME)
	LINK(rtp, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_FEATURES_KHR,
	     VK_KHR_RAY_TRACING_PIPELINE_EXTENSION_NAME)
	LINK(vm1, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VIDEO_MAINTENANCE_1_FEATURES_KHR,
	     VK_KHR_VIDEO_MAINTENANCE_1_EXTENSION_NAME)
	LINK(rtm1, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_MAINTENANCE_1_FEATURES_KHR,
	     VK_KHR_RAY_TRACING_MAINTENANCE_1_EXTENSION_NAME)
	LINK(m7, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_7_FEATURES_KHR,
	     VK_KHR_MAINTENANCE_7_EXTENSION_NAME)
	LINK(cwe, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COLOR_WRITE_ENABLE_FEATURES_EXT,
	     VK_EXT_COLOR_WRITE_ENABLE_EXTENSION_NAME)
	LINK(eds3, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT,
	     VK_EXT_EXTENDED_DYNAMIC_STATE_3_EXTENSION_NAME)
	LINK(cond, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CONDITIONAL_RENDERING_FEATURES_EXT,
	     VK_EXT_CONDITIONAL_RENDERING_EXTENSION_NAME)
	LINK(omm, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_OPACITY_MICROMAP_FEATURES_EXT,
	     VK_EXT_OPACITY_MICROMAP_EXTENSION_NAME)
	LINK(ccs, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CLUSTER_CULLING_SHADER_FEATURES_HUAWEI,
	     VK_HUAWEI_CLUSTER_CULLING_SHADER_EXTENSION_NAME)
	LINK(fb2, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VIDEO_ENCODE_FEEDBACK_2_FEATURES_KHR,
	     VK_KHR_VIDEO_ENCODE_FEEDBACK_2_EXTENSION_NAME)
	/* enabled only on Vulkan 1.3 devices (its dependencies are core there) */
	if (info->api_version >= VK_API_VERSION_1_3)
		LINK(dac, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEVICE_ADDRESS_COMMANDS_FEATURES_KHR,
		     VK_KHR_DEVICE_ADDRESS_COMMANDS_EXTENSION_NAME)
#undef LINK
	*tail = NULL;
}

static void add_feature(struct vkqs_device_info *o, const char *name, VkBool32 v)
{
	if (o->feature_count >= VKQS_MAX_FEATURES)
		return;
	struct vkqs_feature_info *f = &o->features[o->feature_count++];
	snprintf(f->name, sizeof(f->name), "%s", name);
	f->value = v == VK_TRUE;
}

void vkqs_device_describe(struct vkqs_instance *inst, uint32_t index,
			  struct vkqs_device_info *o)
{
	VkPhysicalDevice phys = inst->phys[index];
	memset(o, 0, sizeof(*o));
	o->index = index;
	o->device_count = inst->phys_count;
	o->layer_version = inst->validation ? layer_spec_version : 0;

	VkPhysicalDeviceDriverProperties drv = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
	VkPhysicalDeviceProperties2 p = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &drv};
	vkGetPhysicalDeviceProperties2(phys, &p);
	snprintf(o->name, sizeof(o->name), "%s", p.properties.deviceName);
	snprintf(o->driver_name, sizeof(o->driver_name), "%s", drv.driverName);
	snprintf(o->driver_info, sizeof(o->driver_info), "%s", drv.driverInfo);
	o->driver_id = (uint32_t)drv.driverID;
	o->api_version = p.properties.apiVersion;
	o->driver_version = p.properties.driverVersion;
	o->vendor_id = p.properties.vendorID;
	o->device_id = p.properties.deviceID;
	o->type = p.properties.deviceType;
	o->timestamp_period = p.properties.limits.timestampPeriod;
	o->timestamp_compute_and_graphics =
		p.properties.limits.timestampComputeAndGraphics == VK_TRUE;

	uint32_t nf = 0;
	vkGetPhysicalDeviceQueueFamilyProperties(phys, &nf, NULL);
	VkQueueFamilyProperties qf[VKQS_MAX_FAMILIES];
	if (nf > VKQS_MAX_FAMILIES)
		nf = VKQS_MAX_FAMILIES;
	vkGetPhysicalDeviceQueueFamilyProperties(phys, &nf, qf);
	o->family_count = nf;
	for (uint32_t i = 0; i < nf; i++) {
		o->families[i].flags = qf[i].queueFlags;
		o->families[i].count = qf[i].queueCount;
		o->families[i].timestamp_valid_bits = qf[i].timestampValidBits;
	}
	describe_exts(phys, o);
	/* the video properties, chained only where VK_KHR_video_queue exists */
	if (vkqs_device_has_ext(o, VK_KHR_VIDEO_QUEUE_EXTENSION_NAME)) {
		VkQueueFamilyProperties2 q2[VKQS_MAX_FAMILIES];
		VkQueueFamilyVideoPropertiesKHR qv[VKQS_MAX_FAMILIES];
		VkQueueFamilyQueryResultStatusPropertiesKHR qs[VKQS_MAX_FAMILIES];
		for (uint32_t i = 0; i < nf; i++) {
			qs[i] = (VkQueueFamilyQueryResultStatusPropertiesKHR){
				.sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_QUERY_RESULT_STATUS_PROPERTIES_KHR};
			qv[i] = (VkQueueFamilyVideoPropertiesKHR){
				.sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_VIDEO_PROPERTIES_KHR, .pNext = &qs[i]};
			q2[i] = (VkQueueFamilyProperties2){
				.sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_PROPERTIES_2, .pNext = &qv[i]};
		}
		uint32_t n2 = nf;
		vkGetPhysicalDeviceQueueFamilyProperties2(phys, &n2, q2);
		for (uint32_t i = 0; i < n2 && i < nf; i++) {
			o->families[i].video_codecs = qv[i].videoCodecOperations;
			o->families[i].query_result_status = qs[i].queryResultStatusSupport == VK_TRUE;
		}
	}

	VkPhysicalDeviceVulkan11Features f11 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
	VkPhysicalDeviceVulkan12Features f12 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, .pNext = &f11};
	VkPhysicalDeviceFeatures2 f = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f12};
	struct ext_features e;
	chain_ext_features(o, &e, &f11.pNext);
	vkGetPhysicalDeviceFeatures2(phys, &f);

	add_feature(o, "occlusionQueryPrecise", f.features.occlusionQueryPrecise);
	add_feature(o, "pipelineStatisticsQuery", f.features.pipelineStatisticsQuery);
	add_feature(o, "inheritedQueries", f.features.inheritedQueries);
	add_feature(o, "geometryShader", f.features.geometryShader);
	add_feature(o, "tessellationShader", f.features.tessellationShader);
	add_feature(o, "hostQueryReset", f12.hostQueryReset);
	add_feature(o, "multiview", f11.multiview);
	add_feature(o, "timelineSemaphore", f12.timelineSemaphore);
	add_feature(o, "bufferDeviceAddress", f12.bufferDeviceAddress);
#define EXTF(ext, s, m) if (vkqs_device_has_ext(o, ext)) add_feature(o, ext "." #m, e.s.m)
	EXTF(VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME, xfb, transformFeedback);
	EXTF(VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME, xfb, geometryStreams);
	EXTF(VK_EXT_PRIMITIVES_GENERATED_QUERY_EXTENSION_NAME, pgq, primitivesGeneratedQuery);
	EXTF(VK_EXT_PRIMITIVES_GENERATED_QUERY_EXTENSION_NAME, pgq, primitivesGeneratedQueryWithRasterizerDiscard);
	EXTF(VK_EXT_PRIMITIVES_GENERATED_QUERY_EXTENSION_NAME, pgq, primitivesGeneratedQueryWithNonZeroStreams);
	EXTF(VK_EXT_MESH_SHADER_EXTENSION_NAME, mesh, meshShader);
	EXTF(VK_EXT_MESH_SHADER_EXTENSION_NAME, mesh, taskShader);
	EXTF(VK_EXT_MESH_SHADER_EXTENSION_NAME, mesh, meshShaderQueries);
	EXTF(VK_EXT_MESH_SHADER_EXTENSION_NAME, mesh, multiviewMeshShader);
	EXTF(VK_KHR_PERFORMANCE_QUERY_EXTENSION_NAME, perf, performanceCounterQueryPools);
	EXTF(VK_KHR_PERFORMANCE_QUERY_EXTENSION_NAME, perf, performanceCounterMultipleQueryPools);
	EXTF(VK_QCOM_ELAPSED_TIMER_QUERY_EXTENSION_NAME, elapsed, elapsedTimerQuery);
	EXTF(VK_ARM_PERFORMANCE_COUNTERS_BY_REGION_EXTENSION_NAME, region, performanceCountersByRegion);
	EXTF(VK_ARM_SHADER_INSTRUMENTATION_EXTENSION_NAME, instr, shaderInstrumentation);
	EXTF(VK_KHR_MAINTENANCE_9_EXTENSION_NAME, m9, maintenance9);
	EXTF(VK_KHR_ACCELERATION_STRUCTURE_EXTENSION_NAME, accel, accelerationStructure);
	EXTF(VK_KHR_ACCELERATION_STRUCTURE_EXTENSION_NAME, accel, accelerationStructureHostCommands);
	EXTF(VK_KHR_RAY_QUERY_EXTENSION_NAME, rq, rayQuery);
	EXTF(VK_KHR_RAY_TRACING_PIPELINE_EXTENSION_NAME, rtp, rayTracingPipeline);
	EXTF(VK_KHR_VIDEO_MAINTENANCE_1_EXTENSION_NAME, vm1, videoMaintenance1);
	EXTF(VK_KHR_RAY_TRACING_MAINTENANCE_1_EXTENSION_NAME, rtm1, rayTracingMaintenance1);
	EXTF(VK_KHR_MAINTENANCE_7_EXTENSION_NAME, m7, maintenance7);
	EXTF(VK_EXT_COLOR_WRITE_ENABLE_EXTENSION_NAME, cwe, colorWriteEnable);
	EXTF(VK_EXT_EXTENDED_DYNAMIC_STATE_3_EXTENSION_NAME, eds3,
	     extendedDynamicState3AlphaToCoverageEnable);
	EXTF(VK_EXT_CONDITIONAL_RENDERING_EXTENSION_NAME, cond, conditionalRendering);
	EXTF(VK_EXT_OPACITY_MICROMAP_EXTENSION_NAME, omm, micromap);
	EXTF(VK_HUAWEI_CLUSTER_CULLING_SHADER_EXTENSION_NAME, ccs, clustercullingShader);
	EXTF(VK_KHR_VIDEO_ENCODE_FEEDBACK_2_EXTENSION_NAME, fb2, videoEncodeFeedback2);
	if (o->api_version >= VK_API_VERSION_1_3)
		EXTF(VK_KHR_DEVICE_ADDRESS_COMMANDS_EXTENSION_NAME, dac, deviceAddressCommands);
#undef EXTF
}

bool vkqs_device_feature(const struct vkqs_device_info *info, const char *name)
{
	for (uint32_t i = 0; i < info->feature_count; i++)
		if (strcmp(info->features[i].name, name) == 0)
			return info->features[i].value;
	return false;
}

bool vkqs_device_has_ext(const struct vkqs_device_info *info, const char *name)
{
	for (uint32_t i = 0; i < info->ext_count; i++)
		if (strcmp(info->exts[i].name, name) == 0)
			return info->exts[i].spec_version != 0;
	return false;
}

/* Device fixture --------------------------------------------------------- */

static uint32_t find_family(const struct vkqs_device_info *info, VkQueueFlags want,
			    VkQueueFlags exclude)
{
	for (uint32_t i = 0; i < info->family_count; i++) {
		VkQueueFlags f = info->families[i].flags;
		if ((f & want) == want && !(f & exclude) && info->families[i].count)
			return i;
	}
	return VKQS_NO_FAMILY;
}

static VkFormat pick_depth_format(VkPhysicalDevice phys)
{
	/* D16_UNORM must support depth attachment (spec "Required Format
	 * Support"); the others are preferred for their precision. */
	static const VkFormat cands[] = {VK_FORMAT_D32_SFLOAT,
					 VK_FORMAT_D24_UNORM_S8_UINT,
					 VK_FORMAT_D16_UNORM};
	for (size_t i = 0; i < sizeof(cands) / sizeof(cands[0]); i++) {
		VkFormatProperties fp;
		vkGetPhysicalDeviceFormatProperties(phys, cands[i], &fp);
		if (fp.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT)
			return cands[i];
	}
	return VK_FORMAT_D16_UNORM;
}

bool vkqs_vk_create(struct vkqs_vk *vk, const char *device_spec,
		    bool validation, char *err, size_t errsize)
{
	memset(vk, 0, sizeof(*vk));
	vk->gfx.family = vk->compute.family = vk->transfer.family = vk->decode.family =
		vk->encode.family = VKQS_NO_FAMILY;
	if (!vkqs_instance_create(&vk->inst, validation, err, errsize))
		return false;
	if (!vkqs_instance_select(&vk->inst, device_spec, &vk->index, err, errsize))
		goto fail;
	vk->phys = vk->inst.phys[vk->index];
	vkqs_device_describe(&vk->inst, vk->index, &vk->info);
	vkGetPhysicalDeviceProperties(vk->phys, &vk->props);
	vkGetPhysicalDeviceMemoryProperties(vk->phys, &vk->mem);
	if (vk->props.apiVersion < VK_API_VERSION_1_2) {
		SETERR("device '%s' supports Vulkan %u.%u; vkqs needs 1.2 or later",
		    vk->info.name, VK_API_VERSION_MAJOR(vk->props.apiVersion),
		    VK_API_VERSION_MINOR(vk->props.apiVersion));
		goto fail;
	}
	vk->has_13 = vk->props.apiVersion >= VK_API_VERSION_1_3;

	/* Enable every supported feature but robustness (it changes what the
	 * driver does on out-of-bounds access and costs speed). */
	struct ext_features e;
	vk->f11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
	vk->f12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
	vk->f13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
	vk->features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
	vk->features.pNext = &vk->f11;
	vk->f11.pNext = &vk->f12;
	void **tail = &vk->f12.pNext;
	if (vk->has_13) {
		vk->f12.pNext = &vk->f13;
		tail = &vk->f13.pNext;
	}
	chain_ext_features(&vk->info, &e, tail);
	vkGetPhysicalDeviceFeatures2(vk->phys, &vk->features);
	vk->features.features.robustBufferAccess = VK_FALSE;
	vk->f13.robustImageAccess = VK_FALSE;
	/* Needs VK_KHR_fragment_shading_rate, which the fixture does not enable. */
	e.mesh.primitiveFragmentShadingRateMeshShader = VK_FALSE;
	/* Of the dynamic states of VK_EXT_extended_dynamic_state3 the suite
	 * sets alpha-to-coverage only; some others need extensions the
	 * fixture does not enable. */
	VkBool32 a2c = e.eds3.extendedDynamicState3AlphaToCoverageEnable;
	void *eds3_next = e.eds3.pNext;
	e.eds3 = (VkPhysicalDeviceExtendedDynamicState3FeaturesEXT){
		.sType = e.eds3.sType, .pNext = eds3_next,
		.extendedDynamicState3AlphaToCoverageEnable = a2c};
	/* The extension structs live on this stack frame: unlink them after
	 * device creation so vk->features stays valid. */

	const char *exts[VKQS_MAX_EXTS];
	uint32_t next = 0;
	static const char *const enable[] = {
		VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME,
		VK_EXT_PRIMITIVES_GENERATED_QUERY_EXTENSION_NAME,
		VK_EXT_MESH_SHADER_EXTENSION_NAME,
		VK_KHR_PERFORMANCE_QUERY_EXTENSION_NAME,
		VK_QCOM_ELAPSED_TIMER_QUERY_EXTENSION_NAME,
		VK_ARM_PERFORMANCE_COUNTERS_BY_REGION_EXTENSION_NAME,
		VK_ARM_SHADER_INSTRUMENTATION_EXTENSION_NAME,
		VK_INTEL_PERFORMANCE_QUERY_EXTENSION_NAME,
		VK_KHR_MAINTENANCE_9_EXTENSION_NAME,
		VK_KHR_MAINTENANCE_7_EXTENSION_NAME,
		VK_EXT_COLOR_WRITE_ENABLE_EXTENSION_NAME,
		VK_EXT_EXTENDED_DYNAMIC_STATE_3_EXTENSION_NAME,
		VK_EXT_CONDITIONAL_RENDERING_EXTENSION_NAME,
		VK_NV_RAY_TRACING_EXTENSION_NAME,
		VK_HUAWEI_CLUSTER_CULLING_SHADER_EXTENSION_NAME,
	};
	/* Video decode and encode (suite/video: result status and encode
	 * feedback queries). */
	static const char *const enable_video[] = {
		VK_KHR_VIDEO_QUEUE_EXTENSION_NAME,
		VK_KHR_VIDEO_DECODE_QUEUE_EXTENSION_NAME,
		VK_KHR_VIDEO_DECODE_H264_EXTENSION_NAME,
		VK_KHR_VIDEO_MAINTENANCE_1_EXTENSION_NAME,
		VK_KHR_VIDEO_ENCODE_QUEUE_EXTENSION_NAME,
		VK_KHR_VIDEO_ENCODE_H264_EXTENSION_NAME,
		VK_KHR_VIDEO_ENCODE_FEEDBACK_2_EXTENSION_NAME,
	};
	/* Acceleration structures (suite/accel) with what they depend on. */
	static const char *const enable_accel[] = {
		VK_KHR_ACCELERATION_STRUCTURE_EXTENSION_NAME,
		VK_KHR_DEFERRED_HOST_OPERATIONS_EXTENSION_NAME,
		VK_KHR_RAY_QUERY_EXTENSION_NAME,
		VK_KHR_RAY_TRACING_PIPELINE_EXTENSION_NAME,
		VK_KHR_RAY_TRACING_MAINTENANCE_1_EXTENSION_NAME,
		VK_EXT_OPACITY_MICROMAP_EXTENSION_NAME, /* also needs synchronization2: 1.3 */
	};
	for (size_t i = 0; i < sizeof(enable) / sizeof(enable[0]); i++)
		if (vkqs_device_has_ext(&vk->info, enable[i]))
			exts[next++] = enable[i];
	if (vkqs_device_has_ext(&vk->info, VK_KHR_ACCELERATION_STRUCTURE_EXTENSION_NAME) &&
	    vkqs_device_has_ext(&vk->info, VK_KHR_DEFERRED_HOST_OPERATIONS_EXTENSION_NAME))
		for (size_t i = 0; i < sizeof(enable_accel) / sizeof(enable_accel[0]); i++)
			if (vkqs_device_has_ext(&vk->info, enable_accel[i]) &&
			    (vk->has_13 || strcmp(enable_accel[i], VK_EXT_OPACITY_MICROMAP_EXTENSION_NAME)))
				exts[next++] = enable_accel[i];
	bool video = vkqs_device_has_ext(&vk->info, VK_KHR_VIDEO_QUEUE_EXTENSION_NAME) &&
		     (vkqs_device_has_ext(&vk->info, VK_KHR_VIDEO_DECODE_QUEUE_EXTENSION_NAME) ||
		      vkqs_device_has_ext(&vk->info, VK_KHR_VIDEO_ENCODE_QUEUE_EXTENSION_NAME));
	if (video)
		for (size_t i = 0; i < sizeof(enable_video) / sizeof(enable_video[0]); i++)
			if (vkqs_device_has_ext(&vk->info, enable_video[i]))
				exts[next++] = enable_video[i];
	/* Its dependencies are core in Vulkan 1.3 (chain_ext_features). */
	bool dac = vk->has_13 &&
		   vkqs_device_has_ext(&vk->info, VK_KHR_DEVICE_ADDRESS_COMMANDS_EXTENSION_NAME);
	if (dac)
		exts[next++] = VK_KHR_DEVICE_ADDRESS_COMMANDS_EXTENSION_NAME;
	/* Calibrated timestamps: the KHR name where present, else EXT. */
	if (vkqs_device_has_ext(&vk->info, VK_KHR_CALIBRATED_TIMESTAMPS_EXTENSION_NAME))
		exts[next++] = VK_KHR_CALIBRATED_TIMESTAMPS_EXTENSION_NAME;
	else if (vkqs_device_has_ext(&vk->info, VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME))
		exts[next++] = VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME;

	vk->gfx.family = find_family(&vk->info, VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT, 0);
	vk->compute.family = find_family(&vk->info, VK_QUEUE_COMPUTE_BIT, VK_QUEUE_GRAPHICS_BIT);
	vk->transfer.family = find_family(&vk->info, VK_QUEUE_TRANSFER_BIT,
					  VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT);
	/* A decode family that is also one of the three above is left out (a
	 * family is created once; such a device's video cases are NotSupported). */
	vk->decode.family = VKQS_NO_FAMILY;
	for (uint32_t i = 0; video && i < vk->info.family_count; i++)
		if ((vk->info.families[i].flags & VK_QUEUE_VIDEO_DECODE_BIT_KHR) &&
		    vk->info.families[i].count && i != vk->gfx.family && i != vk->compute.family &&
		    i != vk->transfer.family &&
		    (vk->decode.family == VKQS_NO_FAMILY ||
		     (vk->info.families[i].query_result_status &&
		      !vk->info.families[vk->decode.family].query_result_status)))
			vk->decode.family = i;
	/* Likewise an encode family (the first one with result status support,
	 * else any). */
	vk->encode.family = VKQS_NO_FAMILY;
	for (uint32_t i = 0;
	     video && vkqs_device_has_ext(&vk->info, VK_KHR_VIDEO_ENCODE_QUEUE_EXTENSION_NAME) &&
	     i < vk->info.family_count;
	     i++)
		if ((vk->info.families[i].flags & VK_QUEUE_VIDEO_ENCODE_BIT_KHR) &&
		    vk->info.families[i].count && i != vk->gfx.family && i != vk->compute.family &&
		    i != vk->transfer.family && i != vk->decode.family &&
		    (vk->encode.family == VKQS_NO_FAMILY ||
		     (vk->info.families[i].query_result_status &&
		      !vk->info.families[vk->encode.family].query_result_status)))
			vk->encode.family = i;
	if (vk->gfx.family == VKQS_NO_FAMILY) {
		SETERR("device '%s' has no graphics+compute queue family", vk->info.name);
		goto fail;
	}
	static const float prio = 1.0f;
	VkDeviceQueueCreateInfo qci[5];
	uint32_t nq = 0;
	struct vkqs_queue *qs[5] = {&vk->gfx, &vk->compute, &vk->transfer, &vk->decode, &vk->encode};
	for (int i = 0; i < 5; i++) {
		if (qs[i]->family == VKQS_NO_FAMILY)
			continue;
		qci[nq++] = (VkDeviceQueueCreateInfo){
			.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
			.queueFamilyIndex = qs[i]->family,
			.queueCount = 1,
			.pQueuePriorities = &prio,
		};
	}
	VkDeviceCreateInfo dci = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
		.pNext = &vk->features,
		.queueCreateInfoCount = nq,
		.pQueueCreateInfos = qci,
		.enabledExtensionCount = next,
		.ppEnabledExtensionNames = exts,
	};
	VkResult r = vkCreateDevice(vk->phys, &dci, NULL, &vk->device);
	*tail = NULL;
	if (r != VK_SUCCESS) {
		SETERR("vkCreateDevice failed on '%s': %d", vk->info.name, r);
		goto fail;
	}
	volkLoadDeviceTable(&vk->d, vk->device);
	for (int i = 0; i < 5; i++) {
		if (qs[i]->family == VKQS_NO_FAMILY)
			continue;
		vk->d.vkGetDeviceQueue(vk->device, qs[i]->family, 0, &qs[i]->queue);
		VkCommandPoolCreateInfo pci = {
			.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
			.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
			.queueFamilyIndex = qs[i]->family,
		};
		r = vk->d.vkCreateCommandPool(vk->device, &pci, NULL, &qs[i]->pool);
		if (r != VK_SUCCESS) {
			SETERR("vkCreateCommandPool failed: %d", r);
			goto fail;
		}
	}
	vk->depth_format = pick_depth_format(vk->phys);
	if (dac)
		vk->copy_query_results_to_memory =
			(PFN_vkCmdCopyQueryPoolResultsToMemoryKHR)vkGetDeviceProcAddr(
				vk->device, "vkCmdCopyQueryPoolResultsToMemoryKHR");
	if (vkqs_device_has_ext(&vk->info, VK_KHR_CALIBRATED_TIMESTAMPS_EXTENSION_NAME)) {
		vk->get_calibrateable_time_domains =
			(PFN_vkGetPhysicalDeviceCalibrateableTimeDomainsKHR)vkGetInstanceProcAddr(
				vk->inst.instance, "vkGetPhysicalDeviceCalibrateableTimeDomainsKHR");
		vk->get_calibrated_timestamps = (PFN_vkGetCalibratedTimestampsKHR)vkGetDeviceProcAddr(
			vk->device, "vkGetCalibratedTimestampsKHR");
	} else if (vkqs_device_has_ext(&vk->info, VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME)) {
		vk->get_calibrateable_time_domains =
			(PFN_vkGetPhysicalDeviceCalibrateableTimeDomainsKHR)
				vkGetPhysicalDeviceCalibrateableTimeDomainsEXT;
		vk->get_calibrated_timestamps =
			(PFN_vkGetCalibratedTimestampsKHR)vk->d.vkGetCalibratedTimestampsEXT;
	}
	return true;
fail:
	vkqs_vk_destroy(vk);
	return false;
}

void vkqs_vk_destroy(struct vkqs_vk *vk)
{
	if (vk->device) {
		vk->d.vkDeviceWaitIdle(vk->device);
		struct vkqs_queue *qs[5] = {&vk->gfx, &vk->compute, &vk->transfer, &vk->decode,
					    &vk->encode};
		for (int i = 0; i < 5; i++)
			if (qs[i]->pool)
				vk->d.vkDestroyCommandPool(vk->device, qs[i]->pool, NULL);
		vk->d.vkDestroyDevice(vk->device, NULL);
	}
	vkqs_instance_destroy(&vk->inst);
	memset(vk, 0, sizeof(*vk));
}

void vkqs_vk_abandon(struct vkqs_vk *vk)
{
	instance_release(&vk->inst, false);
	memset(vk, 0, sizeof(*vk));
}

unsigned vkqs_instances_alive(void)
{
	return live_count + live_untracked;
}

uint32_t vkqs_validation_take(struct vkqs_vk *vk, char *first, size_t size)
{
	uint32_t n = vk->inst.validation_errors;
	if (n && first)
		snprintf(first, size, "%s", vk->inst.validation_first);
	vk->inst.validation_errors = 0;
	vk->inst.validation_first[0] = '\0';
	return n;
}

