/* Unit tests of the framework: status table, names and globs, the registry,
 * expectations parsing, outcome classification and the reporters.
 * Usage: test_framework [OUTPUT_DIR]  (reports are written there for
 * tools/check_reports.py to cross-check). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "device.h"
#include "expect.h"
#include "record.h"
#include "registry.h"
#include "report.h"
#include "util.h"

static int passed, failed;

#define T(cond)                                                                  \
	do {                                                                     \
		if (cond) {                                                      \
			passed++;                                                \
		} else {                                                         \
			failed++;                                                \
			fprintf(stderr, "%s:%d: FAILED: %s\n", __FILE__, __LINE__, #cond); \
		}                                                                \
	} while (0)

/* A path or name built into buf: the test fails if it does not fit (and
 * gcc 14's -Wformat-truncation sees the result used). */
#define FMT(buf, ...) T(snprintf((buf), sizeof(buf), __VA_ARGS__) < (int)sizeof(buf))

static void test_status(void)
{
	for (int i = 0; i < VKQS_STATUS_COUNT; i++) {
		enum vkqs_status s;
		T(vkqs_status_parse(vkqs_status_name((enum vkqs_status)i), &s) && s == (enum vkqs_status)i);
	}
	enum vkqs_status s;
	T(!vkqs_status_parse("pass", &s)); /* words are case-sensitive, as in CTS */
	T(!vkqs_status_parse("", &s));
	T(vkqs_status_success(VKQS_PASS) && vkqs_status_success(VKQS_NOT_SUPPORTED));
	T(vkqs_status_success(VKQS_QUALITY_WARNING) && vkqs_status_success(VKQS_COMPATIBILITY_WARNING));
	T(!vkqs_status_success(VKQS_FAIL) && !vkqs_status_success(VKQS_CRASH) &&
	  !vkqs_status_success(VKQS_TIMEOUT) && !vkqs_status_success(VKQS_INTERNAL_ERROR) &&
	  !vkqs_status_success(VKQS_RESOURCE_ERROR));
	T(vkqs_status_severity(VKQS_FAIL) > vkqs_status_severity(VKQS_QUALITY_WARNING));
}

static void test_names_and_globs(void)
{
	T(vkqs_name_valid("vkqs.results.get.size_64_wait"));
	T(!vkqs_name_valid("vkqs.Results.get"));
	T(!vkqs_name_valid("vkqs..get"));
	T(!vkqs_name_valid("vkqs.get."));
	T(!vkqs_name_valid(".vkqs"));
	T(!vkqs_name_valid("vkqs.get-x"));
	T(!vkqs_name_valid(""));
	T(vkqs_glob_match("vkqs.*", "vkqs.a.b.c"));
	T(vkqs_glob_match("*.size_64_*", "vkqs.results.get.size_64_wait"));
	T(!vkqs_glob_match("vkqs.occlusion.*", "vkqs.results.get"));
	T(vkqs_glob_match("vkqs.results.get.size_?4", "vkqs.results.get.size_64"));
	T(vkqs_glob_match("vkqs.a.[bc]", "vkqs.a.c"));
}

/* A fake area list for the registry. */
struct tparam {
	int samples;
};
static void tparam_name(const void *p, char *buf, size_t size)
{
	snprintf(buf, size, "samples_%d", ((const struct tparam *)p)->samples);
}
static void noop(struct vkqs_ctx *ctx, const void *param)
{
	(void)ctx;
	(void)param;
}
static const struct tparam tparams[] = {{1}, {4}};
static const struct vkqs_case good_cases[] = {
	{"group.single", noop, "18.3"},
	{"group.param", noop, "18.3", VKQS_PARAMS(tparams, tparam_name)},
	{"group.hidden", noop, "x", .flags = VKQS_CASE_SELFTEST},
};
static const struct vkqs_case dup_cases[] = {
	{"group.single", noop, "18.3"},
	{"group.single", noop, "18.3"},
};
static const struct vkqs_case bad_cases[] = {{"Group.Bad", noop, "x"}};
static const struct vkqs_area good = {"alpha", good_cases, VKQS_ARRAY_LEN(good_cases), NULL, 0};
static const struct vkqs_area other_area = {"beta", good_cases, 1, NULL, 0};
static const struct vkqs_area dup_area = {"beta", dup_cases, VKQS_ARRAY_LEN(dup_cases), NULL, 0};
static const struct vkqs_area bad = {"gamma", bad_cases, VKQS_ARRAY_LEN(bad_cases), NULL, 0};
/* An area of groups, listed out of their order: x's rows around y's. */
static const struct vkqs_case gx_cases[] = {
	{"x.one", noop, "18.3"}, {"x.two", noop, "18.3"}, {"x.three", noop, "18.3"}};
static const struct vkqs_case gy_cases[] = {{"y.one", noop, "18.3"}};
static const struct vkqs_group gx = {gx_cases, VKQS_ARRAY_LEN(gx_cases)};
static const struct vkqs_group gy = {gy_cases, VKQS_ARRAY_LEN(gy_cases)};
static const struct vkqs_area_part interleaved[] = {{&gx, 0, 2}, {&gy, 0, 0}, {&gx, 2, 0}};
static const struct vkqs_area_part row_twice[] = {{&gx, 0, 0}, {&gy, 0, 0}, {&gx, 2, 0}};
static const struct vkqs_area_part row_missing[] = {{&gx, 0, 2}, {&gy, 0, 0}};
static const struct vkqs_area_part past_end[] = {{&gx, 0, 4}, {&gy, 0, 0}};
static const struct vkqs_area of_parts = {"delta", NULL, 0, interleaved, 3};
static const struct vkqs_area twice = {"delta", NULL, 0, row_twice, 3};
static const struct vkqs_area missing = {"delta", NULL, 0, row_missing, 2};
static const struct vkqs_area beyond = {"delta", NULL, 0, past_end, 2};

static void test_registry(void)
{
	char err[256];
	struct vkqs_registry r;
	const struct vkqs_area *const ok_list[] = {&good, NULL};
	T(vkqs_registry_build(&r, ok_list, false, err, sizeof(err)));
	T(r.count == 3);
	T(r.count == 3 && !strcmp(r.cases[0].name, "vkqs.alpha.group.single"));
	T(r.count == 3 && !strcmp(r.cases[1].name, "vkqs.alpha.group.param_samples_1"));
	T(r.count == 3 && !strcmp(r.cases[2].name, "vkqs.alpha.group.param_samples_4"));
	T(r.count == 3 && ((const struct tparam *)r.cases[2].param)->samples == 4);
	T(vkqs_registry_find(&r, "vkqs.alpha.group.single") == &r.cases[0]);
	T(vkqs_registry_find(&r, "vkqs.alpha.group.hidden") == NULL);
	vkqs_registry_free(&r);
	T(vkqs_registry_build(&r, ok_list, true, err, sizeof(err)) && r.count == 4);
	vkqs_registry_free(&r);

	/* The same case name in two areas is two names. */
	const struct vkqs_area *const two_list[] = {&good, &other_area, NULL};
	T(vkqs_registry_build(&r, two_list, false, err, sizeof(err)) && r.count == 4);
	vkqs_registry_free(&r);
	const struct vkqs_area *const dup2_list[] = {&dup_area, NULL};
	T(!vkqs_registry_build(&r, dup2_list, false, err, sizeof(err)) && strstr(err, "duplicate"));
	const struct vkqs_area *const bad_list[] = {&bad, NULL};
	T(!vkqs_registry_build(&r, bad_list, false, err, sizeof(err)) && strstr(err, "malformed"));

	/* SHA-256 (FIPS 180-2 examples; 55 and 56 bytes cross the padding edge). */
	char h[65];
	vkqs_sha256_hex("", 0, h);
	T(!strcmp(h, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
	vkqs_sha256_hex("abc", 3, h);
	T(!strcmp(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
	vkqs_sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, h);
	T(!strcmp(h, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));

	/* Parts: listing order is part order; each group row exactly once. */
	const struct vkqs_area *const parts_list[] = {&of_parts, NULL};
	T(vkqs_registry_build(&r, parts_list, false, err, sizeof(err)) && r.count == 4);
	T(r.count == 4 && !strcmp(r.cases[1].name, "vkqs.delta.x.two") &&
	  !strcmp(r.cases[2].name, "vkqs.delta.y.one") &&
	  !strcmp(r.cases[3].name, "vkqs.delta.x.three"));
	vkqs_registry_free(&r);
	const struct vkqs_area *const twice_list[] = {&twice, NULL};
	T(!vkqs_registry_build(&r, twice_list, false, err, sizeof(err)) &&
	  strstr(err, "x.three is listed by 2 parts"));
	const struct vkqs_area *const missing_list[] = {&missing, NULL};
	T(!vkqs_registry_build(&r, missing_list, false, err, sizeof(err)) &&
	  strstr(err, "x.three is listed by 0 parts"));
	const struct vkqs_area *const beyond_list[] = {&beyond, NULL};
	T(!vkqs_registry_build(&r, beyond_list, false, err, sizeof(err)) && strstr(err, "outside"));

	/* The real suite: every name valid and unique, every case cites the spec. */
	T(vkqs_registry_build(&r, vkqs_areas, true, err, sizeof(err)));
	T(r.count >= 40);
	for (size_t i = 0; i < r.count; i++)
		T(r.cases[i].c->spec && r.cases[i].c->spec[0]);
	vkqs_registry_free(&r);
}

static void test_expectations(const char *dir)
{
	char err[256];
	struct vkqs_expectations e = {0};
	T(vkqs_parse_fails(&e,
			   "# comment\n\nvkqs.a.b,Fail\n  vkqs.a.c,Crash  \r\nvkqs.a.d,Timeout,1.5\n",
			   "f.txt", err, sizeof(err)));
	T(e.nfails == 3);
	const enum vkqs_status *s = vkqs_expected_status(&e, "vkqs.a.c");
	T(s && *s == VKQS_CRASH);
	T(vkqs_expected_status(&e, "vkqs.a.x") == NULL);
	T(!vkqs_parse_fails(&e, "vkqs.a.e\n", "f.txt", err, sizeof(err)) && strstr(err, "f.txt:1"));
	T(!vkqs_parse_fails(&e, "ok.x,Fail\nvkqs.a.e,Broken\n", "f.txt", err, sizeof(err)) &&
	  strstr(err, "f.txt:2") && strstr(err, "Broken"));
	T(!vkqs_parse_fails(&e, "vkqs.a.f,Pass\n", "f.txt", err, sizeof(err)));
	T(!vkqs_parse_fails(&e, "vkqs.a.b,Fail\n", "f.txt", err, sizeof(err)) && strstr(err, "twice"));
	T(!vkqs_parse_fails(&e, ",Fail\n", "f.txt", err, sizeof(err)));

	T(vkqs_parse_regexes(&e.flakes, "# flakes\nvkqs\\.timestamp\\..*\n^vkqs\\.x$\n", "fl.txt",
			     err, sizeof(err)));
	T(vkqs_regex_list_match(&e.flakes, "vkqs.timestamp.stage.a"));
	T(vkqs_regex_list_match(&e.flakes, "vkqs.x"));
	T(!vkqs_regex_list_match(&e.flakes, "vkqs.xy"));
	T(!vkqs_parse_regexes(&e.skips, "vkqs.(unclosed\n", "sk.txt", err, sizeof(err)) &&
	  strstr(err, "sk.txt:1"));

	/* Pins: each failure must match a pin whole; notes are not pinned. */
	struct vkqs_expectations pe = {0};
	T(vkqs_parse_fails(&pe, "# must: x\n# pin: got [0-9]+, want 4\nvkqs.p.a,Fail\nvkqs.p.b,Fail\n",
			   "p.txt", err, sizeof(err)));
	struct vkqs_case_inst pci = {.name = "vkqs.p.a"}, pci2 = {.name = "vkqs.p.b"};
	struct vkqs_result pr = {.ci = &pci, .done = true, .status = VKQS_FAIL};
	snprintf(pr.message, sizeof(pr.message), "x.c:1: got 5, want 4");
	vkqs_classify(&pr, &pe);
	T(pr.outcome == VKQS_OUTCOME_EXPECTED && !pr.pin);
	snprintf(pr.message, sizeof(pr.message), "x.c:9: another check broke");
	vkqs_classify(&pr, &pe);
	T(pr.outcome == VKQS_OUTCOME_NOT_PINNED && pr.pin && vkqs_outcome_unexpected(pr.outcome));
	/* anchored: the pin inside a longer failure does not match it */
	snprintf(pr.message, sizeof(pr.message), "x.c:1: got 5, want 4 and more");
	vkqs_classify(&pr, &pe);
	T(pr.outcome == VKQS_OUTCOME_NOT_PINNED && pr.unpinned == 0);
	/* items: a pinned failure, a second failure, a note */
	snprintf(pr.message, sizeof(pr.message), "x.c:1: got 5, want 4; x.c:2: no verdict; "
						 "x.c:3: got 6, want 4; x.c:4: new bug");
	const char *texts[] = {"x.c:1: got 5, want 4", "x.c:2: no verdict", "x.c:3: got 6, want 4",
			       "x.c:4: new bug"};
	bool fl[] = {true, false, true, true};
	T(vkqs_result_items_from(&pr, texts, fl, 4) && vkqs_result_items(&pr) == 4);
	size_t ilen;
	bool ifail;
	const char *it = vkqs_result_item(&pr, 1, &ilen, &ifail);
	T(ilen == strlen("x.c:2: no verdict") && !strncmp(it, "x.c:2: no verdict", ilen) && !ifail);
	vkqs_classify(&pr, &pe);
	T(pr.outcome == VKQS_OUTCOME_NOT_PINNED && pr.unpinned == 3);
	T(vkqs_result_items_from(&pr, texts, fl, 3)); /* without the new bug */
	vkqs_classify(&pr, &pe);
	T(pr.outcome == VKQS_OUTCOME_EXPECTED);
	pr.items.n = 0;
	pr.ci = &pci2; /* no pin: any Fail is expected */
	vkqs_classify(&pr, &pe);
	T(pr.outcome == VKQS_OUTCOME_EXPECTED);
	vkqs_expectations_free(&pe);
	/* two pins for one entry, one per failure */
	T(vkqs_parse_fails(&pe, "# pin: a\n# pin: b\nvkqs.p.a,Fail\n", "p.txt", err, sizeof(err)));
	T(pe.nfails == 1 && pe.fails[0].pins.n == 2);
	vkqs_expectations_free(&pe);
	T(!vkqs_parse_fails(&pe, "# pin: (a\nvkqs.p.a,Fail\n", "p.txt", err, sizeof(err)) &&
	  strstr(err, "bad pin regex"));
	vkqs_expectations_free(&pe);
	T(!vkqs_parse_fails(&pe, "#pin: a\nvkqs.p.a,Fail\n", "p.txt", err, sizeof(err)) &&
	  strstr(err, "p.txt:1: a malformed pin"));
	vkqs_expectations_free(&pe);
	T(!vkqs_parse_fails(&pe, "# Pin: a\nvkqs.p.a,Fail\n", "p.txt", err, sizeof(err)) &&
	  strstr(err, "malformed pin"));
	vkqs_expectations_free(&pe);
	T(vkqs_parse_fails(&pe, "# pinned down: a comment\nvkqs.p.a,Fail\n", "p.txt", err,
			   sizeof(err)));
	vkqs_expectations_free(&pe);

	/* Classification. */
	struct vkqs_case_inst ci = {.name = "vkqs.a.b"};
	struct vkqs_result r = {.ci = &ci, .done = true, .status = VKQS_FAIL};
	vkqs_classify(&r, &e);
	T(r.outcome == VKQS_OUTCOME_EXPECTED && r.has_expected);
	r.status = VKQS_PASS;
	vkqs_classify(&r, &e);
	T(r.outcome == VKQS_OUTCOME_UNEXPECTED_PASS && vkqs_outcome_unexpected(r.outcome));
	r.status = VKQS_CRASH;
	vkqs_classify(&r, &e);
	T(r.outcome == VKQS_OUTCOME_UNEXPECTED);
	struct vkqs_case_inst ci2 = {.name = "vkqs.timestamp.q"};
	struct vkqs_result r2 = {.ci = &ci2, .done = true, .status = VKQS_FAIL};
	vkqs_classify(&r2, &e);
	T(r2.outcome == VKQS_OUTCOME_KNOWN_FLAKE && !vkqs_outcome_unexpected(r2.outcome));
	r2.status = VKQS_NOT_SUPPORTED;
	vkqs_classify(&r2, &e);
	T(r2.outcome == VKQS_OUTCOME_OK);
	r2.done = false;
	vkqs_classify(&r2, &e);
	T(r2.outcome == VKQS_OUTCOME_NOT_RUN && vkqs_outcome_unexpected(r2.outcome));
	vkqs_expectations_free(&e);

	/* Loading: a prefix with no files is an error; one file is enough. */
	T(!vkqs_expectations_load(&e, "/nonexistent/prefix", err, sizeof(err)) &&
	  strstr(err, "no expectations"));
	/* A list of prefixes adds up: the driver's, then one GPU's; each file
	 * is recorded with its SHA-256. */
	char pre[2][512], path[600];
	for (int i = 0; i < 2; i++) {
		FMT(pre[i], "%s/exp%d", dir, i);
		FMT(path, "%s-%s.txt", pre[i], i ? "skips" : "serial");
		FILE *f = fopen(path, "w");
		T(f != NULL);
		if (f) {
			fputs(i ? "^vkqs\\.b\\.\n" : "^vkqs\\.a\\.\n", f);
			fclose(f);
		}
	}
	char both[1100];
	FMT(both, "%s,%s", pre[0], pre[1]);
	T(vkqs_expectations_load(&e, both, err, sizeof(err)) && e.nfiles == 2);
	T(vkqs_regex_list_match(&e.serial, "vkqs.a.x") && vkqs_regex_list_match(&e.skips, "vkqs.b.x"));
	T(!vkqs_regex_list_match(&e.skips, "vkqs.a.x"));
	T(e.nfiles == 2 && strlen(e.files[1].sha256) == 64 && strstr(e.files[1].path, "exp1-skips.txt"));
	vkqs_expectations_free(&e);
	FMT(both, "%s,/nonexistent/prefix", pre[0]);
	T(!vkqs_expectations_load(&e, both, err, sizeof(err)) && strstr(err, "/nonexistent/prefix"));

	/* Entries under one comment block are one known bug (the console
	 * groups by it): pins between entries do not split a block; a comment
	 * after an entry or a blank line begins one; the title is the block's
	 * first line that is not a pin. */
	T(vkqs_parse_fails(&e,
			   "# header\n\n# must: bug one\n# Observed: x\n# pin: a\nvkqs.a.b,Fail\n"
			   "# pin: b\nvkqs.a.c,Fail\nvkqs.a.d,Fail\n# the same in d\nvkqs.a.e,Fail\n"
			   "\nvkqs.a.f,Crash\n",
			   "g.txt", err, sizeof(err)));
	const struct vkqs_expected_fail *b = vkqs_expected_fail(&e, "vkqs.a.b"),
					*c = vkqs_expected_fail(&e, "vkqs.a.c"),
					*d = vkqs_expected_fail(&e, "vkqs.a.d"),
					*x = vkqs_expected_fail(&e, "vkqs.a.e"),
					*f = vkqs_expected_fail(&e, "vkqs.a.f");
	T(b && c && d && x && f);
	T(b->block_line == 3 && c->block_line == 3 && d->block_line == 3 && b->line == 6);
	T(!strcmp(b->title, "must: bug one") && !strcmp(b->file, "g.txt"));
	T(x->block_line == 10 && !strcmp(x->title, "the same in d"));
	T(f->block_line == 10); /* no comment of its own: the block before */
	vkqs_expectations_free(&e);

	/* Scope lines (expect.h): every key present must match. */
	struct vkqs_expect_target t = {.driver_info = "Mesa 25.0.7", .device_name = "NVIDIA H200",
				       .driver_id = 4};
	char spath[1100];
	const char *stexts[] = {"# driver ids: VK_DRIVER_ID_NVIDIA_PROPRIETARY\n# devices: h200\n",
			       "# driver ids: 4, 13\n# driver versions: Mesa 22.3.6\n",
			       "# devices: H100\n"};
	for (int i = 0; i < 3; i++) {
		FMT(spath, "%s/scope%d-fails.txt", dir, i);
		FILE *sf = fopen(spath, "w");
		T(sf != NULL);
		if (sf) {
			fputs(stexts[i], sf);
			fclose(sf);
		}
	}
	FMT(both, "%s/scope0,%s/scope1,%s/scope2", dir, dir, dir);
	T(vkqs_expectations_load_for(&e, both, &t, err, sizeof(err)) && e.nfiles == 1 &&
	  strstr(e.files[0].path, "scope0-fails.txt") &&
	  strstr(e.not_applied, "scope1-fails.txt (driver ids: 4, 13; driver versions: Mesa 22.3.6)") &&
	  strstr(e.not_applied, "scope2-fails.txt (devices: H100)"));
	vkqs_expectations_free(&e);
	FMT(both, "%s/scope1,%s/scope2", dir, dir);
	T(!vkqs_expectations_load_for(&e, both, &t, err, sizeof(err)) &&
	  strstr(err, "no expectations for this device (NVIDIA H200"));
	T(vkqs_driver_id_name(10) && !strcmp(vkqs_driver_id_name(10), "VK_DRIVER_ID_GOOGLE_SWIFTSHADER"));
	T(vkqs_driver_id_name(0) == NULL && vkqs_driver_id_name(0x7fff0001) == NULL);
}

/* A JSON string's value, "" when it is none. */
static const char *js(const json_t *v)
{
	return json_string_value(v) ? json_string_value(v) : "";
}

/* A run record with every status, special characters included, written by
 * all three reporters into dir. */
static void test_reporters(const char *dir)
{
	static const struct vkqs_case c = {"x", noop, "18.2 \"quoted\" <spec> & more"};
	static struct vkqs_case_inst ci[VKQS_STATUS_COUNT + 1];
	struct vkqs_result res[VKQS_STATUS_COUNT + 1];
	memset(res, 0, sizeof(res));
	for (int i = 0; i <= VKQS_STATUS_COUNT; i++) {
		snprintf(ci[i].name, sizeof(ci[i].name), "vkqs.unit.reporters.case_%d", i);
		ci[i].c = &c;
		res[i].ci = &ci[i];
		res[i].done = i < VKQS_STATUS_COUNT; /* the last one was never run */
		res[i].status = (enum vkqs_status)(i % VKQS_STATUS_COUNT);
		res[i].duration_s = 0.001 * i;
		snprintf(res[i].message, sizeof(res[i].message),
			 "line1\nline2 \"q\" <tag> & \\ \t \x01 end %d", i);
		vkqs_classify(&res[i], NULL);
	}
	res[1].log = strdup("child said <this> & \"that\"\n");
	res[2].log = strdup("bad \xff byte \xc3\xa9"); /* a driver's log need not be UTF-8 */
	struct vkqs_run run = {
		.complete = true,
		.validation = true,
		.count = VKQS_STATUS_COUNT + 1,
		.results = res,
		.wall_s = 1.5,
	};
	snprintf(run.device.name, sizeof(run.device.name), "unit \"device\" <0>");
	snprintf(run.device.driver_name, sizeof(run.device.driver_name), "unit");
	run.device.family_count = 1;
	run.device.families[0].flags = VK_QUEUE_GRAPHICS_BIT;
	snprintf(run.started_at, sizeof(run.started_at), "2026-01-01T00:00:00Z");
	/* What the layer said: its version, counts, and the reasons by name. */
	run.device.layer_version = VK_MAKE_API_VERSION(0, 1, 4, 357);
	run.vstats.reports = 2;
	run.vstats.ignored = 3;
	run.vstats.ignored_by[0] = 1; /* the first newer extension */
	/* the first false report: the first reason that is not a predating one */
	unsigned fr = 0;
	bool pre = true;
	while (fr < VKQS_VALIDATION_REASONS && vkqs_validation_reason(fr, &pre) && pre)
		fr++;
	T(fr < VKQS_VALIDATION_REASONS && !pre);
	run.vstats.ignored_by[fr] = 2;

	char p[3][4096], err[256];
	FMT(p[0], "%s/unit.json", dir);
	FMT(p[1], "%s/unit.xml", dir);
	FMT(p[2], "%s/unit.csv", dir);
	T(vkqs_write_json(&run, p[0], err, sizeof(err)));
	T(vkqs_write_junit(&run, p[1], err, sizeof(err)));
	T(vkqs_write_csv(&run, p[2], err, sizeof(err)));
	/* read back through jansson: the validation block by name, strings
	 * with their escapes, a log that is no UTF-8 made valid */
	json_error_t jerr;
	json_t *doc = json_load_file(p[0], JSON_REJECT_DUPLICATES, &jerr);
	T(doc != NULL);
	json_t *val = json_object_get(doc, "validation"), *why = json_object_get(val, "why");
	T(!strcmp(js(json_object_get(val, "layer")), "1.4.357"));
	T(json_integer_value(json_object_get(val, "reports")) == 2 &&
	  json_integer_value(json_object_get(val, "ignored")) == 3 &&
	  json_integer_value(json_object_get(val, "ignored_predating")) == 1);
	bool predates;
	const char *r0 = vkqs_validation_reason(0, &predates), *r9 = vkqs_validation_reason(fr, NULL);
	char want[300];
	FMT(want, "the layer predates %s", r0 ? r0 : "?");
	T(predates && json_integer_value(json_object_get(why, want)) == 1);
	T(json_integer_value(json_object_get(why, r9 ? r9 : "?")) == 2 && json_object_size(why) == 2);
	T(vkqs_validation_reason(VKQS_VALIDATION_REASONS, NULL) == NULL);
	json_t *cases = json_object_get(doc, "cases");
	T(json_array_size(cases) == VKQS_STATUS_COUNT + 1);
	json_t *c1 = json_array_get(cases, 1), *c2 = json_array_get(cases, 2);
	T(!strcmp(js(json_object_get(c1, "log")),
		  "child said <this> & \"that\"\n"));
	T(!strcmp(js(json_object_get(c2, "log")), "bad \xef\xbf\xbd byte \xc3\xa9"));
	T(!strcmp(js(json_object_get(c1, "spec")), c.spec));
	T(!strcmp(js(json_object_get(json_object_get(doc, "device"), "name")),
		  "unit \"device\" <0>"));
	T(json_is_false(json_object_get(json_array_get(cases, VKQS_STATUS_COUNT), "done")) ||
	  !strcmp(js(json_object_get(json_array_get(cases, VKQS_STATUS_COUNT),
						   "status")), "Missing"));
	json_decref(doc);
	char *csv = vkqs_read_file(p[2], NULL);
	T(csv && strstr(csv, "vkqs.unit.reporters.case_7,Crash,0.007000\n"));
	T(csv && strstr(csv, "vkqs.unit.reporters.case_9,Missing,"));
	free(csv);
	/* No temporary file is left behind; an unwritable path is an error. */
	char tmp[4200];
	FMT(tmp, "%s.tmp.%ld", p[0], (long)getpid());
	struct stat st;
	T(stat(tmp, &st) != 0);
	T(!vkqs_write_json(&run, "/nonexistent/dir/x.json", err, sizeof(err)) &&
	  strstr(err, "/nonexistent/dir/x.json"));

	struct vkqs_summary s;
	vkqs_summarize(&run, &s);
	T(s.total == 10 && s.passed == 1 && s.not_supported == 1 && s.warnings == 2);
	T(s.unexpected == 6); /* Fail, ResourceError, InternalError, Crash, Timeout, not run */
	free(res[1].log);
	free(res[2].log);
}

/* Bench statistics: quantiles between ranks, outliers beyond 5 scaled
 * MADs rejected, figures over the samples kept. */
static void test_bench_stats(void)
{
	const double a[] = {4, 1, 3, 100, 2};
	struct vkqs_bench_stats st;
	vkqs_bench_summarize(a, 5, &st);
	T(st.samples == 4 && st.rejected == 1);
	T(st.median == 2.5 && st.min == 1 && st.max == 4);
	T(st.p10 > 1 && st.p10 < 2 && st.p90 > 3 && st.p90 < 4);
	T(st.mad == 1);
	const double same[] = {7, 7, 7};
	vkqs_bench_summarize(same, 3, &st);
	T(st.samples == 3 && st.rejected == 0 && st.median == 7 && st.mad == 0);
	vkqs_bench_summarize(a, 0, &st);
	T(st.samples == 0);
}

/* Whether a layer report is about something newer than the layer, decided
 * from the layer's version (device.c): reports recorded from the layers
 * vkqs meets (Debian 12's 1.3.239, Debian 13's 1.4.309, chromium-common's
 * 1.4.352 and 1.4.364, SDK 1.4.357), so the rule is checked on any machine. */
static uint32_t used(const char *ext)
{
	struct vkqs_instance inst;
	memset(&inst, 0, sizeof(inst));
	if (ext)
		vkqs_extension_used(&inst, ext);
	return inst.newer_used;
}

static void test_layer_versions(void)
{
	static const struct {
		uint32_t layer;
		const char *used; /* an extension the case used, or NULL */
		const char *id, *msg;
		const char *want; /* the extension the report is ignored for, or NULL */
	} rec[] = {
		/* 1.3.239 (Debian 12): a structure it does not know, whether or
		 * not the case declared the extension */
		{VK_MAKE_API_VERSION(0, 1, 3, 239), NULL, "VUID-VkRenderPassBeginInfo-pNext-pNext",
		 "vkCmdBeginRenderPass: pRenderPassBegin->pNext chain includes a structure with "
		 "unknown VkStructureType (1000605000).",
		 "VK_ARM_performance_counters_by_region"},
		{VK_MAKE_API_VERSION(0, 1, 3, 239), "VK_KHR_maintenance9.maintenance9",
		 "VUID-VkQueryPoolCreateInfo-flags-zerobitmask",
		 "vkCreateQueryPool: pCreateInfo->flags is 0x1, must be 0.", "VK_KHR_maintenance9"},
		/* 1.4.309 (Debian 13): flag bits and VUIDs it cannot judge */
		{VK_MAKE_API_VERSION(0, 1, 4, 309), "VK_ARM_shader_instrumentation.shaderInstrumentation",
		 "VUID-VkPipelineCreateFlags2CreateInfo-flags-parameter",
		 "vkCreateGraphicsPipelines: pCreateInfos[0].pNext<VkPipelineCreateFlags2CreateInfo>.flags "
		 "contains flag bits (0x8000000000) which are not recognized members of "
		 "VkPipelineCreateFlagBits2.", "VK_ARM_shader_instrumentation"},
		{VK_MAKE_API_VERSION(0, 1, 4, 309), "VK_KHR_maintenance9",
		 "VUID-vkGetQueryPoolResults-None-09401",
		 "vkGetQueryPoolResults: Query 0 in VkQueryPool 0x1 is uninitialized.",
		 "VK_KHR_maintenance9"},
		{VK_MAKE_API_VERSION(0, 1, 4, 309), "VK_KHR_maintenance9",
		 "VUID-vkCmdCopyQueryPoolResults-None-09402",
		 "vkCmdCopyQueryPoolResults: Query 0 in VkQueryPool 0x1 is uninitialized.",
		 "VK_KHR_maintenance9"},
		/* the same flag bit with no extension declared: a real report */
		{VK_MAKE_API_VERSION(0, 1, 4, 309), NULL,
		 "VUID-VkPipelineCreateFlags2CreateInfo-flags-parameter",
		 "contains flag bits (0x8000000000) which are not recognized", NULL},
		/* 1.4.352 (chromium-common 150): knows VK_KHR_device_address_commands
		 * (1.4.346), so its reports of such a case count */
		{VK_MAKE_API_VERSION(0, 1, 4, 352), "VK_KHR_device_address_commands.deviceAddressCommands",
		 "VUID-vkCmdCopyQueryPoolResultsToMemoryKHR-flags-13077",
		 "pDstRange->address must be a multiple of 4", NULL},
		/* 1.4.357 and 1.4.364 know every extension vkqs uses */
		{VK_MAKE_API_VERSION(0, 1, 4, 357), "VK_KHR_maintenance9", "VUID-vkGetQueryPoolResults-None-09401",
		 "Query 0 in VkQueryPool 0x1 is uninitialized.", NULL},
		{VK_MAKE_API_VERSION(0, 1, 4, 364), "VK_ARM_shader_instrumentation",
		 "VUID-VkPipelineCreateFlags2CreateInfo-flags-parameter", "not recognized", NULL},
		{VK_MAKE_API_VERSION(0, 1, 4, 364), NULL, "VUID-VkRenderPassBeginInfo-pNext-pNext",
		 "unknown VkStructureType (1000605000).", NULL},
		/* an ordinary report counts under every layer */
		{VK_MAKE_API_VERSION(0, 1, 3, 239), NULL, "VUID-vkCmdDraw-None-08600",
		 "The VkPipeline statically uses descriptor set 0, but it is not bound.", NULL},
	};
	for (size_t i = 0; i < sizeof(rec) / sizeof(rec[0]); i++) {
		const char *got = vkqs_validation_predated(rec[i].layer, used(rec[i].used), rec[i].id,
							   rec[i].msg);
		bool ok = rec[i].want ? got && strcmp(got, rec[i].want) == 0 : got == NULL;
		if (!ok)
			fprintf(stderr, "layer record %zu (%s): got %s, expected %s\n", i, rec[i].id,
				got ? got : "counted", rec[i].want ? rec[i].want : "counted");
		T(ok);
	}
}

/* The message's items and the status they make (check.c): a note keeps
 * Pass; a Fail then the oracle giving up stays Fail (issue 43: a driver's
 * garbage is no harness error); an InternalError alone is one. */
static void nan_case(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	vkqs_report(ctx, VKQS_PASS, __FILE__, __LINE__, "value 1 undefined, no verdict");
	VKQS_EXPECT_EQ(ctx, 94714222264344ull, 2648);
	vkqs_internal_error(ctx, "the oracle cannot tell");
}

static void internal_only(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	vkqs_internal_error(ctx, "the harness broke");
}

static void test_items(void)
{
	static const struct vkqs_case c1 = {"t.nan", nan_case, "x"}, c2 = {"t.int", internal_only, "x"};
	static struct vkqs_ctx ctx;
	vkqs_case_execute(&ctx, &c1, NULL, NULL);
	T(ctx.status == VKQS_FAIL && ctx.items.n == 3);
	T(ctx.items.it[0].status == VKQS_PASS && ctx.items.it[1].status == VKQS_FAIL &&
	  ctx.items.it[2].status == VKQS_INTERNAL_ERROR);
	T(!strncmp(ctx.message + ctx.items.it[2].start, "test_framework.c:", 17));
	vkqs_case_execute(&ctx, &c2, NULL, NULL);
	T(ctx.status == VKQS_INTERNAL_ERROR && ctx.items.n == 1);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/tmp";
	test_status();
	test_names_and_globs();
	test_registry();
	test_expectations(dir);
	test_reporters(dir);
	test_bench_stats();
	test_layer_versions();
	test_items();
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
