/* Decorations (spec 3.20) and the module-level instructions before the
 * types: capabilities, extensions, imports, memory model, entry points,
 * execution modes (spec 2.4 sections 1 to 7). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "front.h"

static bool deco_supported(uint32_t deco, uint32_t *nlit)
{
	switch (deco) {
	case SpvDecorationLocation:
	case SpvDecorationComponent:
	case SpvDecorationBuiltIn:
	case SpvDecorationBinding:
	case SpvDecorationDescriptorSet:
	case SpvDecorationInputAttachmentIndex:
	case SpvDecorationOffset:
	case SpvDecorationArrayStride:
	case SpvDecorationMatrixStride:
	case SpvDecorationSpecId:
	case SpvDecorationXfbBuffer:
	case SpvDecorationXfbStride:
	case SpvDecorationStream:
		*nlit = 1;
		return true;
	case SpvDecorationFlat:
	case SpvDecorationNoPerspective:
	case SpvDecorationColMajor:
	case SpvDecorationRowMajor:
	case SpvDecorationBlock:
	case SpvDecorationBufferBlock:
	case SpvDecorationNonWritable:
	case SpvDecorationNonReadable:
	case SpvDecorationRestrict:
	case SpvDecorationAliased:
	case SpvDecorationRestrictPointer:  /* aliasing hints: memory is coherent here */
	case SpvDecorationAliasedPointer:
	case SpvDecorationCoherent:
	case SpvDecorationVolatile:
	case SpvDecorationRelaxedPrecision:
	case SpvDecorationInvariant:
	case SpvDecorationNoContraction:  /* `precise`: we never contract anyway */
	case SpvDecorationPatch:
	case SpvDecorationPerPrimitiveEXT:
		*nlit = 0;
		return true;
	default:
		return false;
	}
}

static bool builtin_supported(uint32_t b)
{
	switch (b) {
	case SpvBuiltInPosition:
	case SpvBuiltInPointSize:
	case SpvBuiltInClipDistance:
	case SpvBuiltInCullDistance:
	case SpvBuiltInVertexIndex:
	case SpvBuiltInInstanceIndex:
	case SpvBuiltInBaseVertex:
	case SpvBuiltInBaseInstance:
	case SpvBuiltInDrawIndex:
	case SpvBuiltInViewIndex:
	case SpvBuiltInFragCoord:
	case SpvBuiltInFrontFacing:
	case SpvBuiltInSampleId:
	case SpvBuiltInSamplePosition:
	case SpvBuiltInSampleMask:
	case SpvBuiltInFragDepth:
	case SpvBuiltInGlobalInvocationId:
	case SpvBuiltInLocalInvocationId:
	case SpvBuiltInWorkgroupId:
	case SpvBuiltInNumWorkgroups:
	case SpvBuiltInLocalInvocationIndex:
	case SpvBuiltInInvocationId:
	case SpvBuiltInPrimitiveId:
	case SpvBuiltInWorkgroupSize:
	case SpvBuiltInPatchVertices:
	case SpvBuiltInTessCoord:
	case SpvBuiltInTessLevelOuter:
	case SpvBuiltInTessLevelInner:
	case SpvBuiltInPrimitivePointIndicesEXT:
	case SpvBuiltInPrimitiveLineIndicesEXT:
	case SpvBuiltInPrimitiveTriangleIndicesEXT:
	case SpvBuiltInCullPrimitiveEXT:
		return true;
	default:
		return false;
	}
}

/* OpDecorate / OpMemberDecorate */
bool dec_decorate(struct rd_parse *c, const struct opdesc *od)
{
	bool member = c->op == SpvOpMemberDecorate;
	uint32_t base = member ? 3 : 2;
	if (!need_words(c, base + 1, 0xffff))
		return false;
	uint32_t id = W(c, 1), deco = W(c, base), nlit;
	if (id == 0 || id >= c->bound)
		return fail(c, "%s: target id %u out of range (bound %u)", opname(c->op), id, c->bound);
	if (!deco_supported(deco, &nlit))
		return fail(c, "unsupported decoration %s (%u)", rd_spirv_name(RD_NAME_DECORATION, deco),
			    deco);
	if (c->wc != base + 1 + nlit)
		return fail(c, "%s %s: expected %u literal%s", opname(c->op),
			    rd_spirv_name(RD_NAME_DECORATION, deco), nlit, nlit == 1 ? "" : "s");
	uint32_t value = nlit ? W(c, base + 1) : 0;
	if (deco == SpvDecorationComponent && value != 0)
		return fail(c, "unsupported decoration Component %u (only 0)", value);
	if (deco == SpvDecorationBuiltIn && !builtin_supported(value))
		return fail(c, "unsupported builtin %s (%u)", rd_spirv_name(RD_NAME_BUILTIN, value), value);
	/* Decorations come before the ids they decorate (spec 2.4), so the id
	 * must still be undefined; a later definition reads the list. */
	if (c->ids[id].kind != ID_NONE)
		return fail(c, "%s: id %u is decorated after its definition", opname(c->op), id);
	struct pdeco *q = PUSH(c, c->decos, c->ndecos, c->cap_decos);
	if (!q)
		return false;
	*q = (struct pdeco){ .member = member ? W(c, 2) : NONE, .deco = deco, .value = value,
			     .next = c->ids[id].deco };
	c->ids[id].deco = c->ndecos;
	return true;
}

/* The value of decoration deco on id (member NONE) or on one of its members. */
bool get_deco(const struct rd_parse *c, uint32_t id, uint32_t member, uint32_t deco, uint32_t *value)
{
	for (uint32_t i = c->ids[id].deco; i; i = c->decos[i - 1].next) {
		const struct pdeco *q = &c->decos[i - 1];
		if (q->member == member && q->deco == deco) {
			if (value)
				*value = q->value;
			return true;
		}
	}
	return false;
}

/* ------------------------------------------------------------------------ */
/* Module-level instructions (spec 3.42.5-3.42.6, 3.42.2-3.42.4)             */

bool dec_ignore(struct rd_parse *c, const struct opdesc *od)
{
	return true;
}

bool dec_string(struct rd_parse *c, const struct opdesc *od)
{
	const char *s;
	uint32_t next;
	if (!need_words(c, 3, 0xffff) || !get_string(c, 2, &s, &next))
		return false;
	return new_id(c, W(c, 1), ID_STRING) != NULL;
}

bool dec_capability(struct rd_parse *c, const struct opdesc *od)
{
	if (!need_words(c, 2, 2))
		return false;
	uint32_t cap = W(c, 1);
	switch (cap) {
	case SpvCapabilityShader:
		c->caps_shader = true;
		return true;
	case SpvCapabilityMatrix:
	case SpvCapabilitySampleRateShading:
	case SpvCapabilityClipDistance:
	case SpvCapabilityCullDistance:
	case SpvCapabilityMultiView:
	case SpvCapabilityTransformFeedback:
	case SpvCapabilityInputAttachment:
	case SpvCapabilityDrawParameters:
	case SpvCapabilityInt64:
	case SpvCapabilityPhysicalStorageBufferAddresses:
	/* OpGroupNonUniformElect only: the other group operations are
	 * opcodes this interpreter refuses (subgroupSize is 1). */
	case SpvCapabilityGroupNonUniform:
		return true;
	/* these implicitly declare Shader (spec 3.31, "Implicitly Declares") */
	case SpvCapabilityGeometry:
	case SpvCapabilityGeometryPointSize:
	case SpvCapabilityGeometryStreams:
	case SpvCapabilityTessellation:
	case SpvCapabilityTessellationPointSize:
	case SpvCapabilityMeshShadingEXT:
		c->caps_shader = true;
		return true;
	case SpvCapabilityDemoteToHelperInvocation:
		c->caps_demote = true;
		return true;
	default:
		return fail(c, "unsupported capability %s (%u)", rd_spirv_name(RD_NAME_CAPABILITY, cap), cap);
	}
}

bool dec_extension(struct rd_parse *c, const struct opdesc *od)
{
	static const char *const ok[] = {
		"SPV_KHR_storage_buffer_storage_class",
		"SPV_KHR_multiview",
		"SPV_KHR_shader_draw_parameters",
		"SPV_KHR_terminate_invocation",
		"SPV_EXT_demote_to_helper_invocation",
		"SPV_EXT_mesh_shader",
		"SPV_KHR_physical_storage_buffer",
		"SPV_EXT_physical_storage_buffer",
	};
	const char *s;
	uint32_t next;
	if (!get_string(c, 1, &s, &next))
		return false;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (strcmp(s, ok[i]) == 0)
			return true;
	return fail(c, "unsupported extension %s", s);
}

bool dec_ext_inst_import(struct rd_parse *c, const struct opdesc *od)
{
	const char *s;
	uint32_t next;
	if (!need_words(c, 3, 0xffff) || !get_string(c, 2, &s, &next))
		return false;
	if (strcmp(s, "GLSL.std.450") != 0)
		return fail(c, "unsupported extended instruction set %s", s);
	if (!new_id(c, W(c, 1), ID_EXTSET))
		return false;
	return true;
}

bool dec_memory_model(struct rd_parse *c, const struct opdesc *od)
{
	if (!need_words(c, 3, 3))
		return false;
	if (c->memory_model)
		return fail(c, "second OpMemoryModel");
	if ((W(c, 1) != SpvAddressingModelLogical && W(c, 1) != SpvAddressingModelPhysicalStorageBuffer64) ||
	    W(c, 2) != SpvMemoryModelGLSL450)
		return fail(c, "unsupported memory model (addressing %u, memory %u): only Logical or "
			    "PhysicalStorageBuffer64 with GLSL450", W(c, 1), W(c, 2));
	c->memory_model = true;
	return true;
}

/* Entry points and execution modes are read again at the end, when the
 * functions and constants they name exist. */
bool dec_entry_point(struct rd_parse *c, const struct opdesc *od)
{
	if (!need_words(c, 4, 0xffff))
		return false;
	uint32_t *q = PUSH(c, c->entry_pos, c->nentry_pos, c->cap_entry_pos);
	/* A tessellation control shader's outputs are shared by the patch's
	 * invocations: dec_variable places them in shared memory. */
	if (W(c, 1) == SpvExecutionModelTessellationControl)
		c->tcs_module = true;
	/* So are a mesh shader's, by the workgroup's invocations. */
	if (W(c, 1) == SpvExecutionModelMeshEXT)
		c->mesh_module = true;
	return q && (*q = c->pos, true);
}

bool dec_execution_mode(struct rd_parse *c, const struct opdesc *od)
{
	if (!need_words(c, 3, 0xffff))
		return false;
	uint32_t *q = PUSH(c, c->mode_pos, c->nmode_pos, c->cap_mode_pos);
	return q && (*q = c->pos, true);
}
