#include "status.h"

#include <string.h>

static const struct {
	const char *name;
	bool success;
	int severity;
} status_table[VKQS_STATUS_COUNT] = {
#define X(e, n, s, v) [VKQS_##e] = {n, s, v},
	VKQS_STATUS_LIST(X)
#undef X
};

const char *vkqs_status_name(enum vkqs_status s)
{
	return (unsigned)s < VKQS_STATUS_COUNT ? status_table[s].name : "?";
}

bool vkqs_status_parse(const char *name, enum vkqs_status *out)
{
	for (int i = 0; i < VKQS_STATUS_COUNT; i++) {
		if (strcmp(name, status_table[i].name) == 0) {
			*out = (enum vkqs_status)i;
			return true;
		}
	}
	return false;
}

bool vkqs_status_success(enum vkqs_status s)
{
	return (unsigned)s < VKQS_STATUS_COUNT && status_table[s].success;
}

int vkqs_status_severity(enum vkqs_status s)
{
	return (unsigned)s < VKQS_STATUS_COUNT ? status_table[s].severity : 99;
}
