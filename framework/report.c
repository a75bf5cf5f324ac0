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

static void json_kv_str(FILE *f, const char *indent, const char *k, const char *v,
			bool comma)
{
	fprintf(f, "%s\"%s\": ", indent, k);
	vkqs_json_string(f, v);
	fputs(comma ? ",\n" : "\n", f);
}

void vkqs_json_device(FILE *f, const struct vkqs_device_info *d)
{
	char api[32], flags[128];
	vkqs_version_string(d->api_version, api, sizeof(api));
	fputs("  \"device\": {\n", f);
	fprintf(f, "    \"index\": %u,\n", d->index);
	json_kv_str(f, "    ", "name", d->name, true);
	json_kv_str(f, "    ", "driver_name", d->driver_name, true);
	json_kv_str(f, "    ", "driver_info", d->driver_info, true);
	fprintf(f, "    \"driver_id\": %u,\n", d->driver_id);
	json_kv_str(f, "    ", "api_version", api, true);
	fprintf(f, "    \"driver_version\": %u,\n", d->driver_version);
	fprintf(f, "    \"vendor_id\": %u,\n    \"device_id\": %u,\n", d->vendor_id, d->device_id);
	json_kv_str(f, "    ", "type", vkqs_device_type_name(d->type), true);
	fprintf(f, "    \"timestamp_period\": %.9g,\n", (double)d->timestamp_period);
	fprintf(f, "    \"timestamp_compute_and_graphics\": %s,\n",
		d->timestamp_compute_and_graphics ? "true" : "false");
	fputs("    \"queue_families\": [", f);
	for (uint32_t i = 0; i < d->family_count; i++) {
		family_flags(d->families[i].flags, flags, sizeof(flags));
		fprintf(f, "%s\n      {\"index\": %u, \"flags\": ", i ? "," : "", i);
		vkqs_json_string(f, flags);
		fprintf(f, ", \"queue_count\": %u, \"timestamp_valid_bits\": %u}",
			d->families[i].count, d->families[i].timestamp_valid_bits);
	}
	fputs("\n    ],\n    \"features\": {", f);
	for (uint32_t i = 0; i < d->feature_count; i++) {
		fprintf(f, "%s\n      ", i ? "," : "");
		vkqs_json_string(f, d->features[i].name);
		fprintf(f, ": %s", d->features[i].value ? "true" : "false");
	}
	fputs("\n    },\n    \"extensions\": {", f);
	for (uint32_t i = 0; i < d->ext_count; i++) {
		fprintf(f, "%s\n      ", i ? "," : "");
		vkqs_json_string(f, d->exts[i].name);
		fprintf(f, ": %u", d->exts[i].spec_version);
	}
	fputs("\n    }\n  },\n", f);
}

bool vkqs_write_json(const struct vkqs_run *run, const char *path, char *err,
		     size_t errsize)
{
	struct vkqs_atomic_file af;
	if (!vkqs_atomic_open(&af, path, err, errsize))
		return false;
	FILE *f = af.f;
	struct vkqs_summary s;
	vkqs_summarize(run, &s);
	fputs("{\n  \"format\": \"vkqs-results\",\n  \"format_version\": 1,\n", f);
	json_kv_str(f, "  ", "started_at", run->started_at, true);
	fprintf(f, "  \"wall_s\": %.3f,\n", run->wall_s);
	fprintf(f, "  \"complete\": %s,\n", run->complete ? "true" : "false");
	fputs("  \"stopped\": ", f);
	if (run->complete)
		fputs("null", f);
	else
		vkqs_json_string(f, run->stopped[0] ? run->stopped
						 : "not finished: the journal of a run still going or killed");
	fputs(",\n", f);
	if (run->validation) {
		char v[32];
		vkqs_version_string(run->device.layer_version, v, sizeof(v));
		fputs("  \"validation\": {\"layer\": ", f);
		vkqs_json_string(f, v);
		fprintf(f, ", \"reports\": %u, \"ignored\": %u, \"ignored_predating\": %u, \"why\": {",
			run->vstats.reports, run->vstats.ignored, vkqs_validation_ignored_predating(&run->vstats));
		bool first = true;
		bool predates;
		for (unsigned i = 0; vkqs_validation_reason(i, &predates); i++) {
			if (!run->vstats.ignored_by[i])
				continue;
			char why[256];
			snprintf(why, sizeof(why), "%s%s", predates ? "the layer predates " : "",
				 vkqs_validation_reason(i, NULL));
			fputs(first ? "" : ", ", f);
			vkqs_json_string(f, why);
			fprintf(f, ": %u", run->vstats.ignored_by[i]);
			first = false;
		}
		fputs("}},\n", f);
	} else {
		fputs("  \"validation\": false,\n", f);
	}
	fputs("  \"build\": ", f);
	vkqs_json_string(f, run->build);
	fputs(",\n  \"options\": ", f);
	vkqs_json_string(f, run->options);
	if (run->shard_n)
		fprintf(f, ",\n  \"shard\": {\"index\": %u, \"count\": %u}", run->shard_i,
			run->shard_n);
	else
		fputs(",\n  \"shard\": null", f);
	fprintf(f, ",\n  \"selected\": %zu,\n  \"serial\": %zu,\n  \"expectations_files\": [",
		run->selected, run->serial);
	for (size_t i = 0; i < run->nexp_files; i++) {
		fputs(i ? ", {\"path\": " : "{\"path\": ", f);
		vkqs_json_string(f, run->exp_files[i].path);
		fputs(", \"sha256\": ", f);
		vkqs_json_string(f, run->exp_files[i].sha256);
		fputc('}', f);
	}
	fputs("],\n", f);
	/* STYLE 10: record which dispatch path the numbers paid for. */
	json_kv_str(f, "  ", "dispatch", "volk per-device table", true);
	fputs("  \"expectations_not_applied\": ", f);
	vkqs_json_string(f, run->expectations_not_applied);
	fputs(",\n", f);
	if (run->expectations)
		json_kv_str(f, "  ", "expectations", run->expectations, true);
	else
		fputs("  \"expectations\": null,\n", f);
	if (run->lost.at[0]) {
		fputs("  \"device_lost\": {\"at\": ", f);
		vkqs_json_string(f, run->lost.at);
		fputs(", \"why\": ", f);
		vkqs_json_string(f, run->lost.why);
		fputs("},\n", f);
	} else {
		fputs("  \"device_lost\": null,\n", f);
	}
	if (!strcmp(run->device.driver_name, VKQS_REFDEVICE_DRIVER_NAME)) {
		/* the knobs: tiler and immediate runs are told apart */
		fputs("  \"refdevice\": {", f);
		const char *k = run->refdevice;
		for (bool first = true; *k; first = false) {
			const char *nl = strchr(k, '\n'), *eq = strchr(k, '=');
			size_t len = nl ? (size_t)(nl - k) : strlen(k);
			if (!eq || eq > k + len)
				eq = k + len;
			char name[256], value[1024];
			snprintf(name, sizeof(name), "%.*s", (int)(eq - k), k);
			snprintf(value, sizeof(value), "%.*s", (int)(k + len - eq - (eq < k + len)),
				 eq + (eq < k + len));
			fputs(first ? "" : ", ", f);
			vkqs_json_string(f, name);
			fputs(": ", f);
			vkqs_json_string(f, value);
			k += len + (nl ? 1 : 0);
		}
		fputs("},\n", f);
	} else {
		fputs("  \"refdevice\": null,\n", f);
	}
	vkqs_json_device(f, &run->device);
	fprintf(f,
		"  \"summary\": {\"total\": %zu, \"pass\": %zu, \"not_supported\": %zu, "
		"\"warnings\": %zu, \"expected_fails\": %zu, \"flakes\": %zu, "
		"\"failed\": %zu, \"not_run\": %zu, \"unexpected\": %zu, "
		"\"unexpected_passes\": %zu, \"skipped_by_list\": %zu},\n",
		s.total, s.passed, s.not_supported, s.warnings, s.expected_fails, s.flakes,
		s.failed, s.not_run, s.unexpected, s.unexpected_passes, run->skipped_by_list);
	fputs("  \"cases\": [", f);
	for (size_t i = 0; i < run->count; i++) {
		const struct vkqs_result *r = &run->results[i];
		fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
		vkqs_json_string(f, r->ci->name);
		fputs(", \"status\": ", f);
		vkqs_json_string(f, r->done ? vkqs_status_name(r->status) : "Missing");
		fprintf(f, ", \"duration_s\": %.6f, \"outcome\": \"%s\"", r->duration_s,
			vkqs_outcome_name(r->outcome));
		if (r->process)
			fprintf(f, ", \"process\": %ld, \"position\": %u", r->process, r->position);
		if (r->has_expected)
			fprintf(f, ", \"expected\": \"%s\"", vkqs_status_name(r->expected));
		if (r->outcome == VKQS_OUTCOME_FLAKE || r->outcome == VKQS_OUTCOME_ORDER_DEPENDENT)
			fprintf(f, ", \"rerun_status\": \"%s\"", vkqs_status_name(r->rerun_status));
		if (r->pin) {
			fputs(", \"pin\": ", f);
			vkqs_json_string(f, r->pin);
		}
		/* failures (the items at the case's status) and notes apart */
		for (int pass = 0; pass < 2; pass++) {
			fputs(pass ? "], \"notes\": [" : ", \"failures\": [", f);
			bool first = true;
			for (unsigned k = 0; k < vkqs_result_items(r); k++) {
				size_t len;
				bool failure;
				const char *t = vkqs_result_item(r, k, &len, &failure);
				if (failure == (pass == 1))
					continue;
				char *item = strndup(t, len);
				fputs(first ? "" : ", ", f);
				vkqs_json_string(f, item ? item : "");
				free(item);
				first = false;
			}
		}
		fputc(']', f);
		if (r->unpinned >= 0) {
			size_t len;
			bool failure;
			const char *t = vkqs_result_item(r, (unsigned)r->unpinned, &len, &failure);
			char *item = strndup(t, len);
			fputs(", \"unpinned\": ", f);
			vkqs_json_string(f, item ? item : "");
			free(item);
		}
		if (r->order_note) {
			fputs(", \"order_dependent\": ", f);
			vkqs_json_string(f, r->order_note);
		}
		fputs(", \"message\": ", f);
		vkqs_json_string(f, r->message);
		fputs(", \"spec\": ", f);
		vkqs_json_string(f, r->ci->c->spec);
		if (r->log) {
			fputs(", \"log\": ", f);
			vkqs_json_string(f, r->log);
		}
		fputc('}', f);
	}
	fputs("\n  ]\n}\n", f);
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
