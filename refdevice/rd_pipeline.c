/* Shader modules, layouts, descriptor sets, pipelines, render passes and
 * framebuffers. */
#include <stdlib.h>
#include <string.h>

#include "rd.h"
#include "rd_api.h"


VKAPI_ATTR VkResult VKAPI_CALL rd_CreateShaderModule(VkDevice device,
						     const VkShaderModuleCreateInfo *ci,
						     const VkAllocationCallbacks *pAllocator,
						     VkShaderModule *pModule)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	char err[256];
	struct rd_shader *sh = rd_shader_create(ci->pCode, ci->codeSize, err, sizeof(err));
	if (!sh)
		return RD_ERROR(VK_ERROR_INVALID_SHADER_NV, "vkCreateShaderModule: %s", err);
	struct rd_shader_module *m = rd_object_alloc(dev, pAllocator, sizeof(*m),
						     VK_OBJECT_TYPE_SHADER_MODULE);
	if (!m) {
		rd_shader_destroy(sh);
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	m->shader = sh;
	m->words = malloc(ci->codeSize);
	if (!m->words) {
		rd_shader_destroy(sh);
		rd_free(DEV_ALLOC(dev, pAllocator), m);
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	memcpy(m->words, ci->pCode, ci->codeSize);
	m->size = ci->codeSize;
	*pModule = RD_TO_HANDLE(VkShaderModule, m);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL rd_DestroyShaderModule(VkDevice device, VkShaderModule module,
						  const VkAllocationCallbacks *pAllocator)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	RD_FROM_HANDLE(rd_shader_module, m, module);
	if (!m)
		return;
	/* Pipelines parse their own copy, so a module may go first (spec:
	 * a module may be destroyed while pipelines made from it live). */
	rd_shader_destroy(m->shader);
	free(m->words);
	rd_free(DEV_ALLOC(dev, pAllocator), m);
}

/* Pipeline caches hold nothing: the refdevice compiles nothing. */
struct rd_pipeline_cache {
	struct rd_object base;
};

VKAPI_ATTR VkResult VKAPI_CALL rd_CreatePipelineCache(VkDevice device,
						      const VkPipelineCacheCreateInfo *ci,
						      const VkAllocationCallbacks *pAllocator,
						      VkPipelineCache *pCache)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	struct rd_pipeline_cache *c = rd_object_alloc(dev, pAllocator, sizeof(*c),
						      VK_OBJECT_TYPE_PIPELINE_CACHE);
	if (!c)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	*pCache = RD_TO_HANDLE(VkPipelineCache, c);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL rd_DestroyPipelineCache(VkDevice device, VkPipelineCache cache,
						   const VkAllocationCallbacks *pAllocator)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	rd_free(DEV_ALLOC(dev, pAllocator), (void *)cache);
}

VKAPI_ATTR VkResult VKAPI_CALL rd_GetPipelineCacheData(VkDevice device, VkPipelineCache cache,
						       size_t *pDataSize, void *pData)
{
	*pDataSize = 0;
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_MergePipelineCaches(VkDevice device, VkPipelineCache dst,
						      uint32_t count, const VkPipelineCache *src)
{
	return VK_SUCCESS;
}

/* The blend factors that read a second fragment output (dual-source). */
static bool blend_factor_src1(VkBlendFactor f)
{
	return f == VK_BLEND_FACTOR_SRC1_COLOR || f == VK_BLEND_FACTOR_ONE_MINUS_SRC1_COLOR ||
	       f == VK_BLEND_FACTOR_SRC1_ALPHA || f == VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA;
}

/* Layouts and descriptor sets ------------------------------------------------*/

VKAPI_ATTR VkResult VKAPI_CALL rd_CreateDescriptorSetLayout(
	VkDevice device, const VkDescriptorSetLayoutCreateInfo *ci,
	const VkAllocationCallbacks *pAllocator, VkDescriptorSetLayout *pLayout)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	struct rd_descriptor_set_layout *l = rd_object_alloc(
		dev, pAllocator, sizeof(*l), VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT);
	if (!l)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	l->bindings = calloc(ci->bindingCount + 1, sizeof(*l->bindings));
	if (!l->bindings) {
		rd_free(DEV_ALLOC(dev, pAllocator), l);
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	l->binding_count = ci->bindingCount;
	for (uint32_t i = 0; i < ci->bindingCount; i++) {
		l->bindings[i].binding = ci->pBindings[i].binding;
		l->bindings[i].type = ci->pBindings[i].descriptorType;
		l->bindings[i].count = ci->pBindings[i].descriptorCount;
		l->bindings[i].first = l->slot_count;
		l->slot_count += ci->pBindings[i].descriptorCount;
	}
	*pLayout = RD_TO_HANDLE(VkDescriptorSetLayout, l);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL rd_DestroyDescriptorSetLayout(VkDevice device,
							 VkDescriptorSetLayout layout,
							 const VkAllocationCallbacks *pAllocator)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	RD_FROM_HANDLE(rd_descriptor_set_layout, l, layout);
	if (!l)
		return;
	free(l->bindings);
	rd_free(DEV_ALLOC(dev, pAllocator), l);
}

VKAPI_ATTR void VKAPI_CALL rd_GetDescriptorSetLayoutSupport(
	VkDevice device, const VkDescriptorSetLayoutCreateInfo *ci,
	VkDescriptorSetLayoutSupport *pSupport)
{
	pSupport->supported = VK_TRUE;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_CreatePipelineLayout(VkDevice device,
						       const VkPipelineLayoutCreateInfo *ci,
						       const VkAllocationCallbacks *pAllocator,
						       VkPipelineLayout *pLayout)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	if (ci->setLayoutCount > RD_MAX_SETS)
		return RD_ERROR(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreatePipelineLayout: %u sets",
				ci->setLayoutCount);
	struct rd_pipeline_layout *l = rd_object_alloc(dev, pAllocator, sizeof(*l),
						       VK_OBJECT_TYPE_PIPELINE_LAYOUT);
	if (!l)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	*pLayout = RD_TO_HANDLE(VkPipelineLayout, l);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL rd_DestroyPipelineLayout(VkDevice device, VkPipelineLayout layout,
						    const VkAllocationCallbacks *pAllocator)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	rd_free(DEV_ALLOC(dev, pAllocator), (void *)layout);
}

VKAPI_ATTR VkResult VKAPI_CALL rd_CreateDescriptorPool(VkDevice device,
						       const VkDescriptorPoolCreateInfo *ci,
						       const VkAllocationCallbacks *pAllocator,
						       VkDescriptorPool *pPool)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	struct rd_descriptor_pool *p = rd_object_alloc(dev, pAllocator, sizeof(*p),
						       VK_OBJECT_TYPE_DESCRIPTOR_POOL);
	if (!p)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	*pPool = RD_TO_HANDLE(VkDescriptorPool, p);
	return VK_SUCCESS;
}

static void set_free(struct rd_descriptor_set *s)
{
	free(s->bindings);
	free(s->slots);
	free(s);
}

VKAPI_ATTR VkResult VKAPI_CALL rd_ResetDescriptorPool(VkDevice device, VkDescriptorPool pool,
						      VkDescriptorPoolResetFlags flags)
{
	RD_FROM_HANDLE(rd_descriptor_pool, p, pool);
	while (p->sets) {
		struct rd_descriptor_set *s = p->sets;
		p->sets = s->next_in_pool;
		set_free(s);
	}
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL rd_DestroyDescriptorPool(VkDevice device, VkDescriptorPool pool,
						    const VkAllocationCallbacks *pAllocator)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	if (!pool)
		return;
	rd_ResetDescriptorPool(device, pool, 0);
	rd_free(DEV_ALLOC(dev, pAllocator), (void *)pool);
}

VKAPI_ATTR VkResult VKAPI_CALL rd_AllocateDescriptorSets(VkDevice device,
							 const VkDescriptorSetAllocateInfo *ai,
							 VkDescriptorSet *pSets)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	RD_FROM_HANDLE(rd_descriptor_pool, p, ai->descriptorPool);
	for (uint32_t i = 0; i < ai->descriptorSetCount; i++) {
		struct rd_descriptor_set_layout *l = (void *)ai->pSetLayouts[i];
		struct rd_descriptor_set *s = calloc(1, sizeof(*s));
		if (s) {
			s->slots = calloc(l->slot_count + 1, sizeof(*s->slots));
			s->bindings = calloc(l->binding_count + 1, sizeof(*s->bindings));
		}
		if (!s || !s->slots || !s->bindings) {
			if (s)
				set_free(s);
			for (uint32_t k = 0; k < i; k++)
				pSets[k] = VK_NULL_HANDLE; /* still owned by the pool */
			return VK_ERROR_OUT_OF_POOL_MEMORY;
		}
		set_loader_magic_value(s);
		s->base.type = VK_OBJECT_TYPE_DESCRIPTOR_SET;
		s->base.device = dev;
		s->binding_count = l->binding_count;
		s->slot_count = l->slot_count;
		memcpy(s->bindings, l->bindings, l->binding_count * sizeof(*s->bindings));
		s->pool = p;
		s->next_in_pool = p->sets;
		p->sets = s;
		pSets[i] = RD_TO_HANDLE(VkDescriptorSet, s);
	}
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_FreeDescriptorSets(VkDevice device, VkDescriptorPool pool,
						     uint32_t count, const VkDescriptorSet *sets)
{
	RD_FROM_HANDLE(rd_descriptor_pool, p, pool);
	for (uint32_t i = 0; i < count; i++) {
		struct rd_descriptor_set **pp = &p->sets;
		while (*pp && *pp != (struct rd_descriptor_set *)sets[i])
			pp = &(*pp)->next_in_pool;
		if (*pp) {
			struct rd_descriptor_set *s = *pp;
			*pp = s->next_in_pool;
			set_free(s);
		}
	}
	return VK_SUCCESS;
}

static struct rd_descriptor_slot *slot(struct rd_descriptor_set *s, uint32_t binding,
				       uint32_t element)
{
	/* Updates past a binding's count continue into the next binding
	 * ("consecutive binding updates"); slots are laid out in binding
	 * order, so the flat index does that. */
	for (uint32_t i = 0; i < s->binding_count; i++)
		if (s->bindings[i].binding == binding) {
			uint32_t idx = s->bindings[i].first + element;
			return idx < s->slot_count ? &s->slots[idx] : NULL;
		}
	return NULL;
}

VKAPI_ATTR void VKAPI_CALL rd_UpdateDescriptorSets(VkDevice device, uint32_t writeCount,
						   const VkWriteDescriptorSet *writes,
						   uint32_t copyCount,
						   const VkCopyDescriptorSet *copies)
{
	for (uint32_t i = 0; i < writeCount; i++) {
		const VkWriteDescriptorSet *w = &writes[i];
		struct rd_descriptor_set *s = (void *)w->dstSet;
		bool is_buffer = w->descriptorType == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER ||
				 w->descriptorType == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER ||
				 w->descriptorType == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC ||
				 w->descriptorType == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
		for (uint32_t k = 0; k < w->descriptorCount; k++) {
			struct rd_descriptor_slot *d = slot(s, w->dstBinding, w->dstArrayElement + k);
			if (!d)
				continue;
			if (!is_buffer) {
				memset(d, 0, sizeof(*d));
				continue;
			}
			const VkDescriptorBufferInfo *bi = &w->pBufferInfo[k];
			d->buffer = (struct rd_buffer *)bi->buffer;
			d->offset = bi->offset;
			d->range = bi->range == VK_WHOLE_SIZE && d->buffer ? d->buffer->size - bi->offset
									   : bi->range;
		}
	}
	for (uint32_t i = 0; i < copyCount; i++) {
		const VkCopyDescriptorSet *c = &copies[i];
		for (uint32_t k = 0; k < c->descriptorCount; k++) {
			struct rd_descriptor_slot *src = slot((void *)c->srcSet, c->srcBinding,
							      c->srcArrayElement + k);
			struct rd_descriptor_slot *dst = slot((void *)c->dstSet, c->dstBinding,
							      c->dstArrayElement + k);
			if (src && dst)
				*dst = *src;
		}
	}
}

const struct rd_descriptor_slot *rd_descriptor_lookup(struct rd_descriptor_set *s,
						      uint32_t binding, uint32_t element)
{
	return s ? slot(s, binding, element) : NULL;
}

static bool is_dynamic(VkDescriptorType t)
{
	return t == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC || t == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
}

int rd_descriptor_dynamic_index(const struct rd_descriptor_set *s, uint32_t binding, uint32_t element)
{
	uint32_t before = 0;
	int found = -1;
	for (uint32_t i = 0; i < s->binding_count; i++) {
		const struct rd_descriptor_binding *b = &s->bindings[i];
		if (b->binding == binding)
			found = is_dynamic(b->type) && element < b->count ? 0 : -2;
		else if (b->binding < binding && is_dynamic(b->type))
			before += b->count;
	}
	return found == 0 ? (int)(before + element) : -1;
}

uint32_t rd_descriptor_dynamic_count(const struct rd_descriptor_set *s)
{
	uint32_t n = 0;
	for (uint32_t i = 0; s && i < s->binding_count; i++)
		if (is_dynamic(s->bindings[i].type))
			n += s->bindings[i].count;
	return n;
}

/* Render passes and framebuffers ----------------------------------------------*/

static void render_pass_free(const VkAllocationCallbacks *a, struct rd_render_pass *rp)
{
	if (!rp)
		return;
	free(rp->attachments);
	free(rp->subpasses);
	free(rp->load_views);
	rd_free(a, rp);
}

static VkResult render_pass_alloc(struct rd_device *dev, const VkAllocationCallbacks *a,
				  uint32_t attachments, uint32_t subpasses,
				  struct rd_render_pass **out)
{
	struct rd_render_pass *rp = rd_object_alloc(dev, a, sizeof(*rp),
						    VK_OBJECT_TYPE_RENDER_PASS);
	if (!rp)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	rp->attachment_count = attachments;
	rp->subpass_count = subpasses;
	rp->attachments = calloc(attachments + 1, sizeof(*rp->attachments));
	rp->subpasses = calloc(subpasses + 1, sizeof(*rp->subpasses));
	rp->load_views = calloc((size_t)attachments * subpasses + 1, sizeof(*rp->load_views));
	if (!rp->attachments || !rp->subpasses || !rp->load_views) {
		render_pass_free(a, rp);
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	*out = rp;
	return VK_SUCCESS;
}

/* Subpass s uses attachment att: it loads the views (or, without
 * multiview, the layers) no earlier subpass used; used[att] collects them. */
static void note_use(struct rd_render_pass *rp, uint32_t *used, uint32_t att, uint32_t s)
{
	if (att == VK_ATTACHMENT_UNUSED || att >= rp->attachment_count)
		return;
	uint32_t mask = rp->subpasses[s].view_mask ? rp->subpasses[s].view_mask : UINT32_MAX;
	rp->load_views[s * rp->attachment_count + att] |= mask & ~used[att];
}

static void finish_uses(struct rd_render_pass *rp)
{
	uint32_t *used = calloc(rp->attachment_count + 1, sizeof(*used));
	if (!used)
		return; /* nothing is loaded: only reached when out of memory */
	for (uint32_t s = 0; s < rp->subpass_count; s++) {
		const struct rd_subpass *sp = &rp->subpasses[s];
		for (uint32_t c = 0; c < sp->color_count; c++) {
			note_use(rp, used, sp->color[c], s);
			note_use(rp, used, sp->resolve[c], s);
		}
		for (uint32_t i = 0; i < sp->input_count; i++)
			note_use(rp, used, sp->input[i], s);
		note_use(rp, used, sp->depth_stencil, s);
		for (uint32_t a = 0; a < rp->attachment_count; a++)
			used[a] |= rp->load_views[s * rp->attachment_count + a];
	}
	free(used);
}

/* VkRenderPassCreateInfo and VkRenderPassCreateInfo2 name the fields the
 * device keeps alike; one macro reads both (mask_of_s may use `s`, the
 * subpass index). */
#define FILL_RENDER_PASS(rp, ci, mask_of_s)                                             \
	do {                                                                            \
		for (uint32_t i = 0; i < (ci)->attachmentCount; i++) {                   \
			(rp)->attachments[i].format = (ci)->pAttachments[i].format;     \
			(rp)->attachments[i].samples = (ci)->pAttachments[i].samples;   \
			(rp)->attachments[i].load_op = (ci)->pAttachments[i].loadOp;    \
			(rp)->attachments[i].stencil_load_op =                          \
				(ci)->pAttachments[i].stencilLoadOp;                    \
		}                                                                       \
		for (uint32_t s = 0; s < (ci)->subpassCount; s++) {                      \
			struct rd_subpass *sp = &(rp)->subpasses[s];                    \
			uint32_t n = (ci)->pSubpasses[s].colorAttachmentCount;          \
			sp->color_count = n < RD_MAX_COLOR ? n : RD_MAX_COLOR;          \
			for (uint32_t c = 0; c < sp->color_count; c++) {                \
				sp->color[c] =                                          \
					(ci)->pSubpasses[s].pColorAttachments[c].attachment; \
				sp->resolve[c] =                                        \
					(ci)->pSubpasses[s].pResolveAttachments          \
						? (ci)->pSubpasses[s]                    \
							  .pResolveAttachments[c]        \
							  .attachment                    \
						: VK_ATTACHMENT_UNUSED;                  \
			}                                                               \
			n = (ci)->pSubpasses[s].inputAttachmentCount;                   \
			sp->input_count = n < RD_MAX_INPUT ? n : RD_MAX_INPUT;          \
			for (uint32_t k = 0; k < sp->input_count; k++)                  \
				sp->input[k] =                                          \
					(ci)->pSubpasses[s].pInputAttachments[k].attachment; \
			sp->depth_stencil =                                             \
				(ci)->pSubpasses[s].pDepthStencilAttachment              \
					? (ci)->pSubpasses[s].pDepthStencilAttachment->attachment \
					: VK_ATTACHMENT_UNUSED;                          \
			sp->view_mask = (mask_of_s);                                    \
		}                                                                       \
		finish_uses(rp);                                                        \
	} while (0)

VKAPI_ATTR VkResult VKAPI_CALL rd_CreateRenderPass(VkDevice device, const VkRenderPassCreateInfo *ci,
						   const VkAllocationCallbacks *pAllocator,
						   VkRenderPass *pRenderPass)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	struct rd_render_pass *rp;
	VkResult r = render_pass_alloc(dev, pAllocator, ci->attachmentCount, ci->subpassCount, &rp);
	if (r != VK_SUCCESS)
		return r;
	const VkRenderPassMultiviewCreateInfo *mv = NULL;
	for (const VkBaseInStructure *p = ci->pNext; p; p = p->pNext)
		if (p->sType == VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO)
			mv = (const void *)p;
	FILL_RENDER_PASS(rp, ci, mv && s < mv->subpassCount ? mv->pViewMasks[s] : 0);
	*pRenderPass = RD_TO_HANDLE(VkRenderPass, rp);
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_CreateRenderPass2(VkDevice device,
						    const VkRenderPassCreateInfo2 *ci,
						    const VkAllocationCallbacks *pAllocator,
						    VkRenderPass *pRenderPass)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	struct rd_render_pass *rp;
	VkResult r = render_pass_alloc(dev, pAllocator, ci->attachmentCount, ci->subpassCount, &rp);
	if (r != VK_SUCCESS)
		return r;
	FILL_RENDER_PASS(rp, ci, ci->pSubpasses[s].viewMask);
	*pRenderPass = RD_TO_HANDLE(VkRenderPass, rp);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL rd_DestroyRenderPass(VkDevice device, VkRenderPass renderPass,
						const VkAllocationCallbacks *pAllocator)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	render_pass_free(DEV_ALLOC(dev, pAllocator), (struct rd_render_pass *)renderPass);
}

VKAPI_ATTR void VKAPI_CALL rd_GetRenderAreaGranularity(VkDevice device, VkRenderPass renderPass,
						       VkExtent2D *pGranularity)
{
	*pGranularity = (VkExtent2D){1, 1};
}

VKAPI_ATTR VkResult VKAPI_CALL rd_CreateFramebuffer(VkDevice device,
						    const VkFramebufferCreateInfo *ci,
						    const VkAllocationCallbacks *pAllocator,
						    VkFramebuffer *pFramebuffer)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	if (ci->flags & VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT)
		return RD_ERROR(VK_ERROR_FEATURE_NOT_PRESENT,
				"vkCreateFramebuffer: imageless framebuffers are not supported");
	struct rd_framebuffer *fb = rd_object_alloc(dev, pAllocator, sizeof(*fb),
						    VK_OBJECT_TYPE_FRAMEBUFFER);
	if (!fb)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	fb->attachments = calloc(ci->attachmentCount + 1, sizeof(*fb->attachments));
	if (!fb->attachments) {
		rd_free(DEV_ALLOC(dev, pAllocator), fb);
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	fb->width = ci->width;
	fb->height = ci->height;
	fb->layers = ci->layers;
	fb->attachment_count = ci->attachmentCount;
	for (uint32_t i = 0; i < ci->attachmentCount; i++)
		fb->attachments[i] = (struct rd_image_view *)ci->pAttachments[i];
	*pFramebuffer = RD_TO_HANDLE(VkFramebuffer, fb);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL rd_DestroyFramebuffer(VkDevice device, VkFramebuffer framebuffer,
						 const VkAllocationCallbacks *pAllocator)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	RD_FROM_HANDLE(rd_framebuffer, fb, framebuffer);
	if (!fb)
		return;
	free(fb->attachments);
	rd_free(DEV_ALLOC(dev, pAllocator), fb);
}

/* Pipelines --------------------------------------------------------------------*/

static void pipeline_free(const VkAllocationCallbacks *a, struct rd_pipeline *p)
{
	if (!p)
		return;
	rd_shader_destroy(p->vs);
	rd_shader_destroy(p->fs);
	rd_shader_destroy(p->cs);
	rd_shader_destroy(p->gs_shader);
	rd_shader_destroy(p->tcs);
	rd_shader_destroy(p->tes);
	rd_shader_destroy(p->task);
	rd_shader_destroy(p->mesh);
	rd_free(a, p);
}

/* Each pipeline parses its own copy of a stage's code: the module may be
 * destroyed while the pipeline lives. */
static VkResult load_stage(const VkPipelineShaderStageCreateInfo *st, enum rd_stage stage,
			   struct rd_shader **out, struct rd_entry_info *info)
{
	RD_FROM_HANDLE(rd_shader_module, m, st->module);
	char err[256];
	const uint32_t *words = NULL;
	size_t size = 0;
	const VkShaderModuleCreateInfo *inline_ci = NULL;
	for (const VkBaseInStructure *p = st->pNext; p; p = p->pNext)
		if (p->sType == VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO)
			inline_ci = (const void *)p;
	if (inline_ci) {
		words = inline_ci->pCode;
		size = inline_ci->codeSize;
	} else if (m) {
		words = m->words;
		size = m->size;
	}
	if (!words)
		return RD_ERROR(VK_ERROR_INVALID_SHADER_NV, "pipeline: stage without a module");
	*out = rd_shader_create(words, size, err, sizeof(err));
	if (!*out)
		return RD_ERROR(VK_ERROR_INVALID_SHADER_NV, "pipeline: %s", err);
	/* Not implemented: refused rather than run with the default values. */
	if (st->pSpecializationInfo && st->pSpecializationInfo->mapEntryCount) {
		rd_shader_destroy(*out);
		*out = NULL;
		return RD_ERROR(VK_ERROR_FEATURE_NOT_PRESENT,
				"pipeline: specialization constants are not implemented");
	}
	if (!rd_shader_entry(*out, st->pName, stage, info, err, sizeof(err)))
		return RD_ERROR(VK_ERROR_INVALID_SHADER_NV, "pipeline: %s", err);
	return VK_SUCCESS;
}

/* Tessellation ("Tessellation"): both shaders; the domain, spacing,
 * vertex order, point mode and OutputVertices from either stage, the same
 * where both declare one ("must be the same"); patchControlPoints and the
 * domain origin from pTessellationState. */
#define MERGE_MODE(field, none)                                                                   \
	do {                                                                                      \
		if (c->field != (none) && e->field != (none) && c->field != e->field)              \
			return RD_ERROR(VK_ERROR_INVALID_SHADER_NV,                                \
					"pipeline: the tessellation stages declare different " #field); \
		t->field = c->field != (none) ? c->field : e->field;                              \
	} while (0)

static VkResult tessellation_state(const VkGraphicsPipelineCreateInfo *ci, struct rd_pipeline *p)
{
	if (!p->tcs || !p->tes)
		return RD_ERROR(VK_ERROR_INVALID_SHADER_NV,
				"pipeline: a tessellation control shader without an evaluation shader or "
				"the other way round");
	const VkPipelineTessellationStateCreateInfo *ts = ci->pTessellationState;
	if (!ts)
		return RD_ERROR(VK_ERROR_INVALID_SHADER_NV, "pipeline: tessellation without pTessellationState");
	struct rd_entry_info *c = &p->tcs_info, *e = &p->tes_info;
	struct rd_entry_info merged, *t = &merged;
	MERGE_MODE(tess_domain, RD_TESS_NONE);
	MERGE_MODE(tess_spacing, RD_SPACING_NONE);
	MERGE_MODE(tess_order, RD_ORDER_NONE);
	MERGE_MODE(tess_output_vertices, 0u);
	if (t->tess_domain == RD_TESS_NONE || !t->tess_output_vertices)
		return RD_ERROR(VK_ERROR_INVALID_SHADER_NV,
				"pipeline: no tessellation domain (Triangles, Quads, IsoLines) or OutputVertices "
				"in either stage");
	/* the control shader runs OutputVertices invocations (interface.c
	 * needs it there; a count only the evaluation stage declares is not
	 * supported) */
	if (c->tess_output_vertices != t->tess_output_vertices)
		return RD_ERROR(VK_ERROR_FEATURE_NOT_PRESENT,
				"pipeline: OutputVertices only in the evaluation shader is not supported");
	struct rd_graphics_state *g = &p->gs;
	g->patch_control_points = ts->patchControlPoints;
	g->tess = (struct rd_tess_params){
		.domain = t->tess_domain,
		.spacing = t->tess_spacing,
		.order = t->tess_order,
		.point_mode = c->tess_point_mode || e->tess_point_mode,
	};
	for (const VkBaseInStructure *s = ts->pNext; s; s = s->pNext)
		if (s->sType == VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_DOMAIN_ORIGIN_STATE_CREATE_INFO)
			g->tess.lower_left = ((const VkPipelineTessellationDomainOriginStateCreateInfo *)s)
						     ->domainOrigin == VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT;
	return VK_SUCCESS;
}

static VkResult graphics_pipeline(struct rd_device *dev, const VkGraphicsPipelineCreateInfo *ci,
				  const VkAllocationCallbacks *a, struct rd_pipeline **out)
{
	struct rd_pipeline *p = rd_object_alloc(dev, a, sizeof(*p), VK_OBJECT_TYPE_PIPELINE);
	if (!p)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	p->bind_point = VK_PIPELINE_BIND_POINT_GRAPHICS;
	VkResult r = VK_SUCCESS;
	for (uint32_t i = 0; i < ci->stageCount && r == VK_SUCCESS; i++) {
		const VkPipelineShaderStageCreateInfo *st = &ci->pStages[i];
		if (st->stage == VK_SHADER_STAGE_VERTEX_BIT)
			r = load_stage(st, RD_STAGE_VERTEX, &p->vs, &p->vs_info);
		else if (st->stage == VK_SHADER_STAGE_FRAGMENT_BIT)
			r = load_stage(st, RD_STAGE_FRAGMENT, &p->fs, &p->fs_info);
		else if (st->stage == VK_SHADER_STAGE_GEOMETRY_BIT)
			r = load_stage(st, RD_STAGE_GEOMETRY, &p->gs_shader, &p->gs_info);
		else if (st->stage == VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT)
			r = load_stage(st, RD_STAGE_TESS_CONTROL, &p->tcs, &p->tcs_info);
		else if (st->stage == VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT)
			r = load_stage(st, RD_STAGE_TESS_EVAL, &p->tes, &p->tes_info);
		else if (st->stage == VK_SHADER_STAGE_TASK_BIT_EXT)
			r = load_stage(st, RD_STAGE_TASK, &p->task, &p->task_info);
		else if (st->stage == VK_SHADER_STAGE_MESH_BIT_EXT)
			r = load_stage(st, RD_STAGE_MESH, &p->mesh, &p->mesh_info);
		else
			r = RD_ERROR(VK_ERROR_FEATURE_NOT_PRESENT,
				     "vkCreateGraphicsPipelines: stage 0x%x is not supported",
				     st->stage);
	}
	/* VUID-VkGraphicsPipelineCreateInfo-stage-02096: a vertex or a mesh
	 * shader, not both; a task shader only with a mesh shader */
	if (r == VK_SUCCESS && !p->vs == !p->mesh)
		r = RD_ERROR(VK_ERROR_FEATURE_NOT_PRESENT,
			     "vkCreateGraphicsPipelines: %s", p->vs ? "a vertex and a mesh shader"
								   : "no vertex or mesh shader");
	if (r == VK_SUCCESS && p->task && !p->mesh)
		r = RD_ERROR(VK_ERROR_FEATURE_NOT_PRESENT,
			     "vkCreateGraphicsPipelines: a task shader without a mesh shader");
	if (r == VK_SUCCESS && p->mesh && (p->gs_shader || p->tcs || p->tes))
		r = RD_ERROR(VK_ERROR_FEATURE_NOT_PRESENT,
			     "vkCreateGraphicsPipelines: a mesh shader with geometry or tessellation");
	if (r == VK_SUCCESS && (p->tcs || p->tes))
		r = tessellation_state(ci, p);
	if (r != VK_SUCCESS) {
		pipeline_free(a, p);
		return r;
	}
	struct rd_graphics_state *g = &p->gs;
	g->vs = p->vs;
	g->vs_info = p->vs_info;
	g->fs = p->fs;
	g->fs_info = p->fs_info;
	g->gs = p->gs_shader;
	g->gs_info = p->gs_info;
	g->tcs = p->tcs;
	g->tcs_info = p->tcs_info;
	g->tes = p->tes;
	g->tes_info = p->tes_info;
	g->task = p->task;
	g->task_info = p->task_info;
	g->mesh = p->mesh;
	g->mesh_info = p->mesh_info;
	if (p->mesh) /* the mesh shader's output primitive (no input assembly state) */
		g->topology = p->mesh_info.mesh_output == RD_MESH_OUT_POINTS ? VK_PRIMITIVE_TOPOLOGY_POINT_LIST
			      : p->mesh_info.mesh_output == RD_MESH_OUT_LINES ? VK_PRIMITIVE_TOPOLOGY_LINE_LIST
									       : VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
	/* the fault: EarlyFragmentTests ignored, so counting follows the shader */
	if (rd_fault(&dev->instance->config, RD_FAULT_EARLY_COUNT_LATE))
		g->fs_info.early_fragment_tests = false;

	/* a mesh pipeline ignores vertex input state (spec "Graphics Pipelines") */
	const VkPipelineVertexInputStateCreateInfo *vi = p->mesh ? NULL : ci->pVertexInputState;
	if (vi) {
		for (uint32_t i = 0; i < vi->vertexBindingDescriptionCount; i++) {
			uint32_t b = vi->pVertexBindingDescriptions[i].binding;
			if (b < RD_MAX_BINDINGS) {
				p->binding_strides[b] = vi->pVertexBindingDescriptions[i].stride;
				p->binding_rates[b] = vi->pVertexBindingDescriptions[i].inputRate;
			}
		}
		g->attribute_count = vi->vertexAttributeDescriptionCount < RD_MAX_LOCATIONS
					     ? vi->vertexAttributeDescriptionCount
					     : RD_MAX_LOCATIONS;
		for (uint32_t i = 0; i < g->attribute_count; i++) {
			const VkVertexInputAttributeDescription *d = &vi->pVertexAttributeDescriptions[i];
			g->attributes[i] = (struct rd_vertex_attribute){d->location, d->binding,
									d->offset, d->format};
		}
	}
	if (ci->pInputAssemblyState && !p->mesh) {
		g->topology = ci->pInputAssemblyState->topology;
		g->primitive_restart = ci->pInputAssemblyState->primitiveRestartEnable;
	}
	if (ci->pDynamicState)
		for (uint32_t i = 0; i < ci->pDynamicState->dynamicStateCount; i++) {
			switch (ci->pDynamicState->pDynamicStates[i]) {
			case VK_DYNAMIC_STATE_VIEWPORT: p->dynamic_mask |= RD_DYN_VIEWPORT; break;
			case VK_DYNAMIC_STATE_SCISSOR: p->dynamic_mask |= RD_DYN_SCISSOR; break;
			case VK_DYNAMIC_STATE_LINE_WIDTH: p->dynamic_mask |= RD_DYN_LINE_WIDTH; break;
			case VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT:
				p->dynamic_mask |= RD_DYN_COLOR_WRITE_ENABLE;
				break;
			case VK_DYNAMIC_STATE_DEPTH_BOUNDS: p->dynamic_mask |= RD_DYN_DEPTH_BOUNDS; break;
			case VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK:
				p->dynamic_mask |= RD_DYN_STENCIL_COMPARE;
				break;
			case VK_DYNAMIC_STATE_STENCIL_WRITE_MASK:
				p->dynamic_mask |= RD_DYN_STENCIL_WRITE;
				break;
			case VK_DYNAMIC_STATE_STENCIL_REFERENCE:
				p->dynamic_mask |= RD_DYN_STENCIL_REFERENCE;
				break;
			case VK_DYNAMIC_STATE_BLEND_CONSTANTS:
				p->dynamic_mask |= RD_DYN_BLEND_CONSTANTS;
				break;
			case VK_DYNAMIC_STATE_DEPTH_BIAS:
				break; /* no depth bias: state unused */
			default:
				rd_log("vkCreateGraphicsPipelines: dynamic state %d is not supported",
				       ci->pDynamicState->pDynamicStates[i]);
				pipeline_free(a, p);
				return VK_ERROR_FEATURE_NOT_PRESENT;
			}
		}
	if (ci->pViewportState) {
		if (ci->pViewportState->pViewports)
			g->viewport = ci->pViewportState->pViewports[0];
		if (ci->pViewportState->pScissors)
			g->scissor = ci->pViewportState->pScissors[0];
	}
	const VkPipelineRasterizationStateCreateInfo *rs = ci->pRasterizationState;
	if (rs) {
		g->rasterizer_discard = rs->rasterizerDiscardEnable;
		g->polygon_mode = rs->polygonMode;
		g->cull_mode = rs->cullMode;
		g->front_face = rs->frontFace;
		g->depth_clamp = rs->depthClampEnable;
		g->line_width = rs->lineWidth;
	}
	g->samples = VK_SAMPLE_COUNT_1_BIT;
	g->sample_mask = ~0u;
	const VkPipelineMultisampleStateCreateInfo *ms = ci->pMultisampleState;
	if (ms && !g->rasterizer_discard) {
		g->samples = ms->rasterizationSamples;
		if (ms->pSampleMask)
			g->sample_mask = ms->pSampleMask[0];
		g->sample_shading = ms->sampleShadingEnable && ms->minSampleShading > 0.0f;
		/* the fault: samples alpha to coverage removes still counted */
		g->alpha_to_coverage = ms->alphaToCoverageEnable &&
				       !rd_fault(&dev->instance->config, RD_FAULT_A2C_COUNTED);
	}
	const VkPipelineDepthStencilStateCreateInfo *ds = ci->pDepthStencilState;
	if (ds && !g->rasterizer_discard) {
		g->depth_test = ds->depthTestEnable;
		g->depth_write = ds->depthWriteEnable;
		g->depth_compare = ds->depthCompareOp;
		g->depth_bounds_test = ds->depthBoundsTestEnable;
		g->min_depth_bounds = ds->minDepthBounds;
		g->max_depth_bounds = ds->maxDepthBounds;
		g->stencil_test = ds->stencilTestEnable;
		g->front = ds->front;
		g->back = ds->back;
	}
	const VkPipelineColorBlendStateCreateInfo *cb = ci->pColorBlendState;
	if (cb && !g->rasterizer_discard)
		for (uint32_t i = 0; i < cb->attachmentCount && i < RD_MAX_COLOR; i++) {
			const VkPipelineColorBlendAttachmentState *b = &cb->pAttachments[i];
			const char *why = NULL;
			if (b->blendEnable && (blend_factor_src1(b->srcColorBlendFactor) ||
					       blend_factor_src1(b->dstColorBlendFactor) ||
					       blend_factor_src1(b->srcAlphaBlendFactor) ||
					       blend_factor_src1(b->dstAlphaBlendFactor)))
				why = "dual-source factors (dualSrcBlend is not offered)";
			else if (b->blendEnable && b->colorBlendOp > VK_BLEND_OP_MAX)
				why = "advanced blend operations";
			else if (b->blendEnable && b->alphaBlendOp > VK_BLEND_OP_MAX)
				why = "advanced blend operations";
			else if (b->blendEnable && (p->dynamic_mask & RD_DYN_BLEND_CONSTANTS))
				why = "dynamic blend constants";
			if (why) {
				pipeline_free(a, p);
				return RD_ERROR(VK_ERROR_FEATURE_NOT_PRESENT,
						"vkCreateGraphicsPipelines: blending (attachment %u) with %s "
						"is not implemented", i, why);
			}
			g->blend[i] = *b;
			g->color_write_mask[i] = b->colorWriteMask;
		}
	if (cb && !g->rasterizer_discard)
		memcpy(g->blend_constants, cb->blendConstants, sizeof(g->blend_constants));
	else
		for (uint32_t i = 0; i < RD_MAX_COLOR; i++)
			g->color_write_mask[i] = 0xf;
	/* VK_EXT_color_write_enable: a disabled attachment is written as with
	 * colorWriteMask 0 */
	for (const VkBaseInStructure *s = cb && !g->rasterizer_discard ? cb->pNext : NULL; s; s = s->pNext)
		if (s->sType == VK_STRUCTURE_TYPE_PIPELINE_COLOR_WRITE_CREATE_INFO_EXT) {
			const VkPipelineColorWriteCreateInfoEXT *cw = (const void *)s;
			for (uint32_t i = 0; i < cw->attachmentCount && i < RD_MAX_COLOR; i++)
				if (!cw->pColorWriteEnables[i])
					g->color_write_mask[i] = 0;
		}
	if (ci->renderPass) {
		struct rd_render_pass *rp = (void *)ci->renderPass;
		if (ci->subpass < rp->subpass_count)
			p->view_mask = rp->subpasses[ci->subpass].view_mask;
	} else {
		for (const VkBaseInStructure *s = ci->pNext; s; s = s->pNext)
			if (s->sType == VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO)
				p->view_mask = ((const VkPipelineRenderingCreateInfo *)s)->viewMask;
	}
	*out = p;
	return VK_SUCCESS;
}

/* VK_PIPELINE_CREATE_2_INSTRUMENT_SHADERS_BIT_ARM in VkPipelineCreate-
 * Flags2CreateInfoKHR, with VK_ARM_shader_instrumentation enabled. */
static bool instrumented(const struct rd_device *dev, const void *chain)
{
	for (const VkBaseInStructure *s = chain; s; s = s->pNext)
		if (s->sType == VK_STRUCTURE_TYPE_PIPELINE_CREATE_FLAGS_2_CREATE_INFO_KHR)
			return dev->shader_instrumentation &&
			       (((const VkPipelineCreateFlags2CreateInfoKHR *)s)->flags &
				VK_PIPELINE_CREATE_2_INSTRUMENT_SHADERS_BIT_ARM);
	return false;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_CreateGraphicsPipelines(VkDevice device, VkPipelineCache cache,
							  uint32_t count,
							  const VkGraphicsPipelineCreateInfo *cis,
							  const VkAllocationCallbacks *pAllocator,
							  VkPipeline *pPipelines)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	VkResult result = VK_SUCCESS;
	for (uint32_t i = 0; i < count; i++) {
		struct rd_pipeline *p = NULL;
		VkResult r = graphics_pipeline(dev, &cis[i], DEV_ALLOC(dev, pAllocator), &p);
		if (r == VK_SUCCESS)
			p->instrumented = instrumented(dev, cis[i].pNext);
		pPipelines[i] = r == VK_SUCCESS ? RD_TO_HANDLE(VkPipeline, p) : VK_NULL_HANDLE;
		if (r != VK_SUCCESS)
			result = r;
	}
	return result;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_CreateComputePipelines(VkDevice device, VkPipelineCache cache,
							 uint32_t count,
							 const VkComputePipelineCreateInfo *cis,
							 const VkAllocationCallbacks *pAllocator,
							 VkPipeline *pPipelines)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	VkResult result = VK_SUCCESS;
	for (uint32_t i = 0; i < count; i++) {
		pPipelines[i] = VK_NULL_HANDLE;
		struct rd_pipeline *p = rd_object_alloc(dev, DEV_ALLOC(dev, pAllocator), sizeof(*p),
							VK_OBJECT_TYPE_PIPELINE);
		if (!p) {
			result = VK_ERROR_OUT_OF_HOST_MEMORY;
			continue;
		}
		p->bind_point = VK_PIPELINE_BIND_POINT_COMPUTE;
		p->instrumented = instrumented(dev, cis[i].pNext);
		VkResult r = load_stage(&cis[i].stage, RD_STAGE_COMPUTE, &p->cs, &p->cs_info);
		if (r != VK_SUCCESS) {
			pipeline_free(DEV_ALLOC(dev, pAllocator), p);
			result = r;
			continue;
		}
		pPipelines[i] = RD_TO_HANDLE(VkPipeline, p);
	}
	return result;
}

VKAPI_ATTR void VKAPI_CALL rd_DestroyPipeline(VkDevice device, VkPipeline pipeline,
					      const VkAllocationCallbacks *pAllocator)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	pipeline_free(DEV_ALLOC(dev, pAllocator), (struct rd_pipeline *)pipeline);
}
