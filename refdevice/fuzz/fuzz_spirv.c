/* Fuzz target for the SPIR-V interpreter: arbitrary bytes go to
 * rd_shader_create(); a module that passes is looked up for a "main" entry
 * point of every stage and each one found runs once, with a zeroed
 * invocation, 256 bytes of zero push constants and a 1 KiB zeroed buffer
 * behind every descriptor.  Nothing may crash, leak or hang (the step limit
 * bounds every run).
 *
 * With -DVKQS_LIBFUZZER this is a libFuzzer target; without it, main()
 * replays the files named on the command line (directories: every file in
 * them), so CI can run a corpus anywhere. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rd_spirv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct fuzz_buffers {
	struct rd_buffer_range range;
	uint8_t bytes[1024];  /* enough for the seeds to run to the end */
};

static const struct rd_buffer_range *fuzz_buffer(void *user, uint32_t set, uint32_t binding, uint32_t element)
{
	(void)set, (void)binding, (void)element;
	return &((struct fuzz_buffers *)user)->range;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The module must be 4-byte aligned: copy it. */
	uint32_t *words = malloc(size / 4 * 4 + 4);
	if (!words)
		return 0;
	memcpy(words, data, size);
	char err[256];
	struct rd_shader *s = rd_shader_create(words, size, err, sizeof(err));
	free(words);
	if (!s)
		return 0;
	static const enum rd_stage stages[] = { RD_STAGE_VERTEX, RD_STAGE_FRAGMENT, RD_STAGE_COMPUTE };
	for (size_t i = 0; i < sizeof(stages) / sizeof(stages[0]); i++) {
		struct rd_entry_info info;
		if (!rd_shader_entry(s, "main", stages[i], &info, err, sizeof(err)))
			continue;
		static const uint8_t push[256];
		struct fuzz_buffers buf;
		memset(&buf, 0, sizeof(buf));
		buf.range.data = buf.bytes;
		buf.range.size = sizeof(buf.bytes);
		struct rd_exec_env env = { .push_constants = push, .buffer = fuzz_buffer, .user = &buf };
		struct rd_invocation inv;
		memset(&inv, 0, sizeof(inv));
		uint8_t *wg = info.workgroup_memory_size ? calloc(1, info.workgroup_memory_size) : NULL;
		inv.workgroup_memory = wg;
		rd_shader_run(s, &info, &env, &inv, err, sizeof(err));
		free(wg);
	}
	rd_shader_destroy(s);
	return 0;
}

#ifdef VKQS_LIBFUZZER
/* Half the time, mutate like SPIR-V rather than like bytes: replace a word
 * with an id below the bound, a small literal, a bit flip or another word
 * of the module, or delete or duplicate a whole instruction.  Byte-level
 * mutations alone almost never yield a module that passes validation, so
 * the handlers would hardly run. */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

static uint32_t get_word(const uint8_t *d, size_t i)
{
	uint32_t w;
	memcpy(&w, d + 4 * i, 4);
	return w;
}

static void put_word(uint8_t *d, size_t i, uint32_t w)
{
	memcpy(d + 4 * i, &w, 4);
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	uint32_t r = seed * 2654435761u + 1;
#define NEXT() (r ^= r << 13, r ^= r >> 17, r ^= r << 5, r)
	if (size < 28 || size % 4 || (NEXT() & 1))
		return LLVMFuzzerMutate(data, size, max_size);
	size_t n = size / 4, i = 5 + NEXT() % (n - 5);
	uint32_t bound = get_word(data, 3);
	switch (NEXT() % 6) {
	case 0:
		put_word(data, i, bound ? NEXT() % bound : 0);
		break;
	case 1:
		put_word(data, i, NEXT() % 8);
		break;
	case 2:
		put_word(data, i, get_word(data, i) ^ (1u << (NEXT() % 32)));
		break;
	case 3:
		put_word(data, i, get_word(data, 5 + NEXT() % (n - 5)));
		break;
	default: {
		/* Find the instruction that contains word i. */
		size_t at = 5, len = 0;
		while (at < n) {
			len = get_word(data, at) >> 16;
			if (len == 0 || at + len > n)
				return LLVMFuzzerMutate(data, size, max_size);
			if (i < at + len)
				break;
			at += len;
		}
		if (at >= n)
			return size;
		if (r & 1) {  /* delete */
			memmove(data + 4 * at, data + 4 * (at + len), 4 * (n - at - len));
			return size - 4 * len;
		}
		if (size + 4 * len > max_size)
			return size;
		memmove(data + 4 * (at + len), data + 4 * at, 4 * (n - at));
		return size + 4 * len;
	}
	}
#undef NEXT
	return size;
}
#else
#include <dirent.h>
#include <sys/stat.h>

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "%s: cannot open\n", path);
		return -1;
	}
	size_t cap = 4096, n = 0, got;
	uint8_t *buf = malloc(cap);
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			uint8_t *q = realloc(buf, cap * 2);
			if (!q) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = q;
			cap *= 2;
		}
	}
	fclose(f);
	if (!buf) {
		fprintf(stderr, "%s: out of memory\n", path);
		return -1;
	}
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int files = 0, errors = 0;
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		struct stat sb;
		if (stat(argv[i], &sb) == 0 && S_ISDIR(sb.st_mode)) {
			DIR *d = opendir(argv[i]);
			struct dirent *de;
			if (!d) {
				fprintf(stderr, "%s: cannot open\n", argv[i]);
				errors++;
				continue;
			}
			while ((de = readdir(d)) != NULL) {
				char path[4096];
				struct stat fsb;
				snprintf(path, sizeof(path), "%s/%s", argv[i], de->d_name);
				if (stat(path, &fsb) != 0 || !S_ISREG(fsb.st_mode))
					continue;
				errors += run_file(path) != 0;
				files++;
			}
			closedir(d);
		} else {
			errors += run_file(argv[i]) != 0;
			files++;
		}
	}
	printf("%d inputs replayed, %d unreadable\n", files, errors);
	return errors ? 1 : 0;
}
#endif
