/* The executor's counters by region (VK_ARM_performance_counters_by_region):
 * per tile of a tiled render pass instance. */
#include "rd_exec.h"

/* Counters by region (VK_ARM_performance_counters_by_region) -------------------*/

/* One more reader of the counter sink (STYLE 17): in each tile, a snapshot
 * at a subpass's start and a difference at its end, added to the tile's
 * region of that subpass's elements (one per view or layer); written to
 * the application's addresses after the last tile, each value as a uint32
 * (refdevice/README.md has the counters and the layout). */
void exec_region_subpass_begin(struct exec *e)
{
	if (e->phase == PHASE_TILE && e->rc.acc)
		exec_sample(e, &e->rc.begin);
}

static uint64_t region_value(uint32_t id, const struct rd_counters *d, uint32_t l)
{
	switch (id) {
	case RD_RC_SAMPLES_PASSED: return d->draw.samples_passed[l];
	case RD_RC_FS_INVOCATIONS: return d->draw.fs_invocations[l];
	case RD_RC_FRAGMENT_NS:
		return (d->draw.fs_invocations[l] + d->draw.samples_passed[l] / 4) * COST_FRAGMENT_NS;
	case RD_RC_REGION_NS: return l == 0 ? d->time_ns : 0;
	case RD_RC_TILES: return l == 0;
	default: return 0;
	}
}

void exec_region_subpass_end(struct exec *e)
{
	struct region_state *r = &e->rc;
	if (e->phase != PHASE_TILE || !r->acc)
		return;
	struct rd_counters now, d;
	exec_sample(e, &now);
	memset(&d, 0, sizeof(d));
	exec_counters_accumulate(&d, &now, &r->begin);
	uint32_t regions = r->cols * r->rows, c = r->req->counter_count;
	for (uint32_t l = 0; l < r->layers && l < RD_MAX_VIEWS; l++) {
		uint32_t element = e->s.subpass * r->layers + l;
		uint64_t *acc = r->acc + ((size_t)element * regions + r->region) * c;
		for (uint32_t k = 0; k < c; k++)
			acc[k] += region_value(r->req->ids[k], &d, l);
	}
}

static uint32_t align_up(uint32_t v, uint32_t a)
{
	return (v + a - 1) / a * a;
}

/* Sets up the regions of a tiled pass whose begin command asked for
 * counters; a request the spec forbids is reported and ignored. */
void exec_region_start(struct exec *e, const struct rd_cmd *begin, VkRect2D area)
{
	const struct rd_config *cfg = &e->dev->instance->config;
	struct region_state *r = &e->rc;
	memset(r, 0, sizeof(*r));
	bool rp = begin->type == RD_CMD_BEGIN_RENDER_PASS;
	const struct rd_region_request *req = rp ? begin->u.begin_rp.regions
						 : begin->u.begin_rendering.regions;
	if (!req)
		return;
	uint32_t subpasses = 1, views = 0;
	if (rp) {
		subpasses = begin->u.begin_rp.pass->subpass_count;
		for (uint32_t s = 0; s < subpasses; s++)
			views |= begin->u.begin_rp.pass->subpasses[s].view_mask;
		r->layers = views ? 32 - (uint32_t)__builtin_clz(views)
				  : begin->u.begin_rp.fb->layers;
	} else {
		views = begin->u.begin_rendering.view_mask;
		r->layers = views ? 32 - (uint32_t)__builtin_clz(views)
				  : begin->u.begin_rendering.layer_count;
	}
	if (!r->layers)
		r->layers = 1;
	/* VUID-VkRenderPassPerformanceCountersByRegionBeginInfoARM-counterAddressCount-11815
	 * and -counterIndexCount-11818 */
	if (req->address_count != subpasses * r->layers || !req->counter_count ||
	    req->counter_count > RD_REGION_MAX_COUNTERS) {
		rd_log("counters by region: %u addresses for %u subpasses x %u layers, %u counters "
		       "(at most %u): not written",
		       req->address_count, subpasses, r->layers, req->counter_count,
		       RD_REGION_MAX_COUNTERS);
		return;
	}
	for (uint32_t k = 0; k < req->counter_count; k++) {
		bool known = false;
		for (uint32_t i = 0; i < RD_REGION_COUNTERS; i++)
			known |= rd_region_counters[i].id == req->ids[k];
		if (!known) {
			rd_log("counters by region: counterID 0x%x is not one of the device's: "
			       "not written", req->ids[k]);
			return;
		}
	}
	r->req = req;
	r->cols = (area.extent.width + cfg->region_w - 1) / cfg->region_w;
	r->rows = (area.extent.height + cfg->region_h - 1) / cfg->region_h;
	size_t n = (size_t)req->address_count * r->cols * r->rows * req->counter_count;
	r->acc = n ? calloc(n, sizeof(*r->acc)) : NULL;
	if (n && !r->acc)
		rd_log("counters by region: out of memory; not written");
}

/* The tile at tile-grid position (tx, ty) is in region (tx * tile_w /
 * region_w, ty * tile_h / region_h): regions are whole tiles. */
void exec_region_tile(struct exec *e, uint32_t tx, uint32_t ty)
{
	const struct rd_config *cfg = &e->dev->instance->config;
	e->rc.region = tx * cfg->tile_w / cfg->region_w +
		       ty * cfg->tile_h / cfg->region_h * e->rc.cols;
}

/* Region (x, y) of element i starts at pCounterAddresses[i] + y * row
 * stride + x * region stride; the region stride is the counters' bytes
 * aligned to regionAlignment, the row stride the row's regions aligned
 * to rowStrideAlignment (the proposal's buffer size formula). */
void exec_region_write(struct exec *e)
{
	struct region_state *r = &e->rc;
	if (!r->acc)
		return;
	uint32_t c = r->req->counter_count;
	uint32_t region_stride = align_up(c * 4, RD_REGION_ALIGN);
	const struct rd_config *cfg = &e->dev->instance->config;
	uint32_t row_stride = rd_fault(cfg, RD_FAULT_REGION_ROW_STRIDE)
				      ? r->cols * region_stride
				      : align_up(r->cols * region_stride, RD_REGION_ROW_ALIGN);
	for (uint32_t i = 0; i < r->req->address_count; i++) {
		uint8_t *base = (uint8_t *)(uintptr_t)r->req->addresses[i];
		if (!base)
			continue;
		for (uint32_t y = 0; y < r->rows; y++)
			for (uint32_t x = 0; x < r->cols; x++) {
				const uint64_t *acc =
					r->acc + (((size_t)i * r->rows + y) * r->cols + x) * c;
				uint8_t *p = base + (size_t)y * row_stride + (size_t)x * region_stride;
				for (uint32_t k = 0; k < c; k++) {
					uint32_t v = (uint32_t)acc[rd_fault(cfg, RD_FAULT_REGION_ORDER)
									   ? c - 1 - k
									   : k];
					memcpy(p + 4 * k, &v, 4);
				}
			}
	}
	free(r->acc);
	r->acc = NULL;
}
