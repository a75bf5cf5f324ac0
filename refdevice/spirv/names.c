/* Names of opcodes, capabilities, decorations... for messages (generated
 * rd_spirv_names.h, from Debian's spirv-headers). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "front.h"
#include "rd_spirv_names.h"

const char *rd_spirv_name(enum rd_spirv_name_kind kind, uint32_t value)
{
	static const struct {
		const struct rd_spirv_name_entry *t;
		size_t n;
	} tables[] = {
#define T(x) { rd_spirv_names_##x, sizeof(rd_spirv_names_##x) / sizeof(rd_spirv_names_##x[0]) }
		[RD_NAME_OP] = T(Op),
		[RD_NAME_CAPABILITY] = T(Capability),
		[RD_NAME_DECORATION] = T(Decoration),
		[RD_NAME_STORAGE_CLASS] = T(StorageClass),
		[RD_NAME_BUILTIN] = T(BuiltIn),
		[RD_NAME_EXECUTION_MODE] = T(ExecutionMode),
		[RD_NAME_EXECUTION_MODEL] = T(ExecutionModel),
		[RD_NAME_GLSL] = T(GLSL),
#undef T
	};
	if ((size_t)kind < sizeof(tables) / sizeof(tables[0]))
		for (size_t i = 0; i < tables[kind].n; i++)
			if (tables[kind].t[i].value == value)
				return tables[kind].t[i].name;
	return "(unknown)";
}

const char *rd_spirv_ins_name(const struct rd_ins *in)
{
	if (in->op >= RD_OP_GLSL)
		return rd_spirv_name(RD_NAME_GLSL, in->op - RD_OP_GLSL);
	return rd_spirv_name(RD_NAME_OP, in->op);
}
