#include "report.h"

#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "util.h"

static const char *const family_bits[] = {"graphics", "compute", "transfer",
					  "sparse", "protected", "video_decode",
					  "video_encode", "optical_flow"};

static void family_flags(VkQueueFlags f, char *buf, size_t size)
{
	buf[0] = '\0';
	size_t len = 0;
	for (unsigned b = 0; b < 8 && len < size; b++) {
		static const VkQueueFlags bit[] = {
			VK_QUEUE_GRAPHICS_BIT, VK_QUEUE_COMPUTE_BIT, VK_QUEUE_TRANSFER_BIT,
			VK_QUEUE_SPARSE_BINDING_BIT, VK_QUEUE_PROTECTED_BIT, 0x20, 0x40, 0x100};
		if (f & bit[b])
			len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? "+" : "",
						family_bits[b]);
	}
}

void vkqs_print_device_info(FILE *f, const struct vkqs_device_info *d)
{
	char api[32], flags[128];
	vkqs_version_string(d->api_version, api, sizeof(api));
	fprintf(f, "device %u: %s\n", d->index, d->name);
	fprintf(f, "  driver:                       %s (%s)\n", d->driver_name, d->driver_info);
	fprintf(f, "  api version:                  %s\n", api);
	fprintf(f, "  type:                         %s\n", vkqs_device_type_name(d->type));
	fprintf(f, "  vendor/device id:             0x%04x / 0x%04x\n", d->vendor_id, d->device_id);
	fprintf(f, "  timestampPeriod:              %g ns\n", (double)d->timestamp_period);
	fprintf(f, "  timestampComputeAndGraphics:  %s\n",
		d->timestamp_compute_and_graphics ? "true" : "false");
	for (uint32_t i = 0; i < d->family_count; i++) {
		family_flags(d->families[i].flags, flags, sizeof(flags));
		fprintf(f, "  queue family %u: %-26s queues %u, timestampValidBits %u\n", i,
			flags, d->families[i].count, d->families[i].timestamp_valid_bits);
	}
	fprintf(f, "  features:\n");
	for (uint32_t i = 0; i < d->feature_count; i++)
		fprintf(f, "    %-64s %s\n", d->features[i].name,
			d->features[i].value ? "true" : "false");
	fprintf(f, "  query-related extensions:\n");
	for (uint32_t i = 0; i < d->ext_count; i++) {
		if (d->exts[i].spec_version)
			fprintf(f, "    %-64s rev %u\n", d->exts[i].name, d->exts[i].spec_version);
		else
			fprintf(f, "    %-64s absent\n", d->exts[i].name);
	}
}

const char *vkqs_result_csv_status(const struct vkqs_result *r)
{
	if (!r->done)
		return "Missing";
	if (r->outcome == VKQS_OUTCOME_FLAKE || r->outcome == VKQS_OUTCOME_KNOWN_FLAKE)
		return "Flake";
	return vkqs_status_name(r->status);
}

void vkqs_print_summary(FILE *f, const struct vkqs_run *run)
{
	struct vkqs_summary s;
	vkqs_summarize(run, &s);
	fprintf(f, "\n%zu cases on %s (%s) in %.1f s: %zu Pass, %zu NotSupported, "
		   "%zu warnings, %zu expected failures, %zu flakes, %zu unexpected "
		   "(%zu unexpected passes), %zu not run",
		s.total, run->device.name, run->device.driver_name, run->wall_s, s.passed,
		s.not_supported, s.warnings, s.expected_fails, s.flakes, s.failed,
		s.unexpected_passes, s.not_run);
	if (run->validation) {
		char v[32];
		vkqs_version_string(run->device.layer_version, v, sizeof(v));
		fprintf(f, "; validation layer %s: %u reports, %u ignored (%u as predating an "
			   "extension)", v, run->vstats.reports, run->vstats.ignored,
			vkqs_validation_ignored_predating(&run->vstats));
	}
	fputc('\n', f);
	if (!run->complete)
		fprintf(f, "INCOMPLETE: %s\n", run->stopped[0] ? run->stopped : "interrupted");
	char unchecked[512];
	if (run->validation && vkqs_validation_unchecked(run->device.layer_version, unchecked,
							 sizeof(unchecked)))
		fprintf(f, "validation: layer %u.%u.%u predates %s: their reports are not counted, "
			   "so those areas are not validated\n",
			VK_API_VERSION_MAJOR(run->device.layer_version),
			VK_API_VERSION_MINOR(run->device.layer_version),
			VK_API_VERSION_PATCH(run->device.layer_version), unchecked);
	if (run->lost.at[0])
		fprintf(f, "DEVICE LOST at %s: %s; %zu cases not run\n", run->lost.at,
			run->lost.why, s.not_run);
	/* The verdict, true to the exit code: unexpected results (not run
	 * ones included) fail; an incomplete run never reads PASS. */
	if (s.unexpected)
		fprintf(f, "FAIL: %zu unexpected of %zu cases (%zu failed, %zu unexpected passes, "
			   "%zu not run)\n",
			s.unexpected, s.total, s.failed - s.unexpected_passes, s.unexpected_passes,
			s.not_run);
	else if (!run->complete)
		fprintf(f, "INCOMPLETE: 0 unexpected of the %zu cases that ran\n", s.total);
	else
		fprintf(f, "PASS: 0 unexpected of %zu cases (%zu expected failures, %zu flakes)\n",
			s.total, s.expected_fails, s.flakes);
}

/* JSON ---------------------------------------------------------------------*/

/* Shorthands for building a member of an object. */
#define SET(o, k, v) json_object_set_new((o), (k), (v))
#define TEXT(s) vkqs_json_text(s)
#define UINT(v) json_integer((json_int_t)(v))

json_t *vkqs_json_device(const struct vkqs_device_info *d)
{
	char api[32], flags[128];
	vkqs_version_string(d->api_version, api, sizeof(api));
	json_t *o = json_object();
	SET(o, "index", UINT(d->index));
	SET(o, "name", TEXT(d->name));
	SET(o, "driver_name", TEXT(d->driver_name));
	SET(o, "driver_info", TEXT(d->driver_info));
	SET(o, "driver_id", UINT(d->driver_id));
	SET(o, "api_version", TEXT(api));
	SET(o, "driver_version", UINT(d->driver_version));
	SET(o, "vendor_id", UINT(d->vendor_id));
	SET(o, "device_id", UINT(d->device_id));
	SET(o, "type", TEXT(vkqs_device_type_name(d->type)));
	SET(o, "timestamp_period", json_real(d->timestamp_period));
	SET(o, "timestamp_compute_and_graphics", json_boolean(d->timestamp_compute_and_graphics));
	json_t *fams = json_array();
	for (uint32_t i = 0; i < d->family_count; i++) {
		family_flags(d->families[i].flags, flags, sizeof(flags));
		json_t *fam = json_object();
		SET(fam, "index", UINT(i));
		SET(fam, "flags", TEXT(flags));
		SET(fam, "queue_count", UINT(d->families[i].count));
		SET(fam, "timestamp_valid_bits", UINT(d->families[i].timestamp_valid_bits));
		json_array_append_new(fams, fam);
	}
	SET(o, "queue_families", fams);
	json_t *features = json_object();
	for (uint32_t i = 0; i < d->feature_count; i++)
		SET(features, d->features[i].name, json_boolean(d->features[i].value));
	SET(o, "features", features);
	json_t *exts = json_object();
	for (uint32_t i = 0; i < d->ext_count; i++)
		SET(exts, d->exts[i].name, UINT(d->exts[i].spec_version));
	SET(o, "extensions", exts);
	return o;
}

/* Item k of a result as a JSON string. */
static json_t *item_json(const struct vkqs_result *r, unsigned k)
{
	size_t len;
	bool failure;
	const char *t = vkqs_result_item(r, k, &len, &failure);
	char *item = strndup(t, len);
	json_t *j = TEXT(item ? item : "");
	free(item);
	return j;
}

static json_t *case_json(const struct vkqs_result *r)
{
	json_t *c = json_object();
	SET(c, "name", TEXT(r->ci->name));
	SET(c, "status", TEXT(r->done ? vkqs_status_name(r->status) : "Missing"));
	SET(c, "duration_s", json_real(r->duration_s));
	SET(c, "outcome", TEXT(vkqs_outcome_name(r->outcome)));
	if (r->process) {
		SET(c, "process", json_integer(r->process));
		SET(c, "position", UINT(r->position));
	}
	if (r->has_expected)
		SET(c, "expected", TEXT(vkqs_status_name(r->expected)));
	if (r->outcome == VKQS_OUTCOME_FLAKE || r->outcome == VKQS_OUTCOME_ORDER_DEPENDENT)
		SET(c, "rerun_status", TEXT(vkqs_status_name(r->rerun_status)));
	if (r->pin)
		SET(c, "pin", TEXT(r->pin));
	/* failures (the items at the case's status) and notes apart */
	json_t *lists[2] = {json_array(), json_array()};
	for (unsigned k = 0; k < vkqs_result_items(r); k++) {
		size_t len;
		bool failure;
		vkqs_result_item(r, k, &len, &failure);
		json_array_append_new(lists[!failure], item_json(r, k));
	}
	SET(c, "failures", lists[0]);
	SET(c, "notes", lists[1]);
	if (r->unpinned >= 0)
		SET(c, "unpinned", item_json(r, (unsigned)r->unpinned));
	if (r->order_note)
		SET(c, "order_dependent", TEXT(r->order_note));
	SET(c, "message", TEXT(r->message));
	SET(c, "spec", TEXT(r->ci->c->spec));
	if (r->log)
		SET(c, "log", TEXT(r->log));
	return c;
}

json_t *vkqs_refdevice_knobs_json(const char *k)
{
	json_t *o = json_object();
	while (*k) {
		const char *nl = strchr(k, '\n'), *eq = strchr(k, '=');
		size_t len = nl ? (size_t)(nl - k) : strlen(k);
		if (!eq || eq > k + len)
			eq = k + len;
		char name[256], value[1024];
		snprintf(name, sizeof(name), "%.*s", (int)(eq - k), k);
		snprintf(value, sizeof(value), "%.*s", (int)(k + len - eq - (eq < k + len)),
			 eq + (eq < k + len));
		SET(o, name, TEXT(value));
		k += len + (nl ? 1 : 0);
	}
	return o;
}

bool vkqs_write_json(const struct vkqs_run *run, const char *path, char *err,
		     size_t errsize)
{
	struct vkqs_summary s;
	vkqs_summarize(run, &s);
	json_t *o = json_object();
	SET(o, "format", TEXT("vkqs-results"));
	SET(o, "format_version", UINT(1));
	SET(o, "started_at", TEXT(run->started_at));
	SET(o, "wall_s", json_real(run->wall_s));
	SET(o, "complete", json_boolean(run->complete));
	SET(o, "stopped", run->complete ? json_null()
					: TEXT(run->stopped[0] ? run->stopped
							       : "not finished: the journal of a run still "
								 "going or killed"));
	if (run->validation) {
		char v[32];
		vkqs_version_string(run->device.layer_version, v, sizeof(v));
		json_t *val = json_object(), *why = json_object();
		SET(val, "layer", TEXT(v));
		SET(val, "reports", UINT(run->vstats.reports));
		SET(val, "ignored", UINT(run->vstats.ignored));
		SET(val, "ignored_predating", UINT(vkqs_validation_ignored_predating(&run->vstats)));
		bool predates;
		for (unsigned i = 0; vkqs_validation_reason(i, &predates); i++) {
			if (!run->vstats.ignored_by[i])
				continue;
			char w[256];
			snprintf(w, sizeof(w), "%s%s", predates ? "the layer predates " : "",
				 vkqs_validation_reason(i, NULL));
			SET(why, w, UINT(run->vstats.ignored_by[i]));
		}
		SET(val, "why", why);
		SET(o, "validation", val);
	} else {
		SET(o, "validation", json_false());
	}
	SET(o, "build", TEXT(run->build));
	SET(o, "revision", TEXT(vkqs_revision()));
	SET(o, "options", TEXT(run->options));
	if (run->shard_n) {
		json_t *sh = json_object();
		SET(sh, "index", UINT(run->shard_i));
		SET(sh, "count", UINT(run->shard_n));
		SET(o, "shard", sh);
	} else {
		SET(o, "shard", json_null());
	}
	SET(o, "selected", UINT(run->selected));
	SET(o, "serial", UINT(run->serial));
	json_t *files = json_array();
	for (size_t i = 0; i < run->nexp_files; i++) {
		json_t *e = json_object();
		SET(e, "path", TEXT(run->exp_files[i].path));
		SET(e, "sha256", TEXT(run->exp_files[i].sha256));
		json_array_append_new(files, e);
	}
	SET(o, "expectations_files", files);
	/* STYLE 10: record which dispatch path the numbers paid for. */
	SET(o, "dispatch", TEXT("volk per-device table"));
	SET(o, "expectations_not_applied", TEXT(run->expectations_not_applied));
	SET(o, "expectations", run->expectations ? TEXT(run->expectations) : json_null());
	if (run->lost.at[0]) {
		json_t *lost = json_object();
		SET(lost, "at", TEXT(run->lost.at));
		SET(lost, "why", TEXT(run->lost.why));
		SET(o, "device_lost", lost);
	} else {
		SET(o, "device_lost", json_null());
	}
	SET(o, "refdevice", !strcmp(run->device.driver_name, VKQS_REFDEVICE_DRIVER_NAME)
				    ? vkqs_refdevice_knobs_json(run->refdevice)
				    : json_null());
	SET(o, "device", vkqs_json_device(&run->device));
	json_t *sum = json_object();
	SET(sum, "total", UINT(s.total));
	SET(sum, "pass", UINT(s.passed));
	SET(sum, "not_supported", UINT(s.not_supported));
	SET(sum, "warnings", UINT(s.warnings));
	SET(sum, "expected_fails", UINT(s.expected_fails));
	SET(sum, "flakes", UINT(s.flakes));
	SET(sum, "failed", UINT(s.failed));
	SET(sum, "not_run", UINT(s.not_run));
	SET(sum, "unexpected", UINT(s.unexpected));
	SET(sum, "unexpected_passes", UINT(s.unexpected_passes));
	SET(sum, "skipped_by_list", UINT(run->skipped_by_list));
	SET(o, "summary", sum);
	json_t *cases = json_array();
	for (size_t i = 0; i < run->count; i++)
		json_array_append_new(cases, case_json(&run->results[i]));
	SET(o, "cases", cases);

	struct vkqs_atomic_file af;
	if (!vkqs_atomic_open(&af, path, err, errsize)) {
		json_decref(o);
		return false;
	}
	if (!vkqs_json_dump(o, af.f)) {
		vkqs_atomic_abort(&af);
		snprintf(err, errsize, "cannot write %s: out of memory or a write error", path);
		return false;
	}
	return vkqs_atomic_commit(&af, err, errsize);
}

/* JUnit --------------------------------------------------------------------*/

bool vkqs_write_junit(const struct vkqs_run *run, const char *path, char *err,
		      size_t errsize)
{
	struct vkqs_atomic_file af;
	if (!vkqs_atomic_open(&af, path, err, errsize))
		return false;
	FILE *f = af.f;
	struct vkqs_summary s;
	vkqs_summarize(run, &s);
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<testsuites tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\" time=\"%.3f\">\n",
		s.total, s.unexpected, s.not_supported, run->wall_s);
	fputs("  <testsuite name=\"vkqs\" ", f);
	fprintf(f, "tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" time=\"%.3f\" timestamp=\"",
		s.total, s.unexpected, s.not_supported, run->wall_s);
	vkqs_xml_text(f, run->started_at);
	fputs("\" hostname=\"", f);
	vkqs_xml_text(f, run->device.name);
	fputs("\">\n", f);
	/* a run that did not finish says so here too (the results model) */
	fprintf(f, "    <properties><property name=\"complete\" value=\"%s\"/>"
		   "<property name=\"not_run\" value=\"%zu\"/>",
		run->complete ? "true" : "false", s.not_run);
	if (!run->complete) {
		fputs("<property name=\"stopped\" value=\"", f);
		vkqs_xml_text(f, run->stopped[0] ? run->stopped : "not finished");
		fputs("\"/>", f);
	}
	fputs("</properties>\n", f);
	for (size_t i = 0; i < run->count; i++) {
		const struct vkqs_result *r = &run->results[i];
		const char *name = r->ci->name, *dot = strrchr(name, '.');
		fputs("    <testcase classname=\"", f);
		fprintf(f, "%.*s", (int)(dot - name), name);
		fputs("\" name=\"", f);
		vkqs_xml_text(f, dot + 1);
		fprintf(f, "\" time=\"%.6f\">\n", r->duration_s);
		fprintf(f, "      <properties><property name=\"status\" value=\"%s\"/>"
			   "<property name=\"outcome\" value=\"%s\"/></properties>\n",
			vkqs_result_csv_status(r), vkqs_outcome_name(r->outcome));
		if (vkqs_outcome_unexpected(r->outcome)) {
			fprintf(f, "      <failure type=\"%s\" message=\"",
				r->done ? vkqs_status_name(r->status) : "Missing");
			vkqs_xml_text(f, r->message);
			fputs("\">", f);
			vkqs_xml_text(f, r->ci->c->spec);
			fputs("</failure>\n", f);
		} else if (r->done && r->status == VKQS_NOT_SUPPORTED) {
			fputs("      <skipped message=\"", f);
			vkqs_xml_text(f, r->message);
			fputs("\"/>\n", f);
		}
		if (r->log) {
			fputs("      <system-err>", f);
			vkqs_xml_text(f, r->log);
			fputs("</system-err>\n", f);
		}
		fputs("    </testcase>\n", f);
	}
	fputs("  </testsuite>\n</testsuites>\n", f);
	return vkqs_atomic_commit(&af, err, errsize);
}

/* results.csv (deqp-runner: "name,Status,duration_s") ----------------------*/

bool vkqs_write_csv(const struct vkqs_run *run, const char *path, char *err,
		    size_t errsize)
{
	struct vkqs_atomic_file af;
	if (!vkqs_atomic_open(&af, path, err, errsize))
		return false;
	for (size_t i = 0; i < run->count; i++) {
		const struct vkqs_result *r = &run->results[i];
		fprintf(af.f, "%s,%s,%.6f\n", r->ci->name, vkqs_result_csv_status(r),
			r->duration_s);
	}
	return vkqs_atomic_commit(&af, err, errsize);
}
