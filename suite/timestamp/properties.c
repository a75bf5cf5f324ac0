/* vkqs.timestamp.properties.*: timestampComputeAndGraphics, timestampPeriod and
 * timestampValidBits as the spec requires them. */
#include "timestamp.h"
#include "verdict.h"

static bool any_family_has_timestamps(const struct vkqs_ctx *ctx)
{
	for (uint32_t i = 0; i < ctx->vk->info.family_count; i++)
		if (ctx->vk->info.families[i].timestamp_valid_bits)
			return true;
	return false;
}

/* properties.* -------------------------------------------------------------*/

static void properties_period_positive(struct vkqs_ctx *ctx, const void *param)
{
	if (!any_family_has_timestamps(ctx))
		vkqs_skip(ctx, "no queue family reports timestampValidBits > 0");
	float period = ctx->vk->props.limits.timestampPeriod;
	VKQS_EXPECTF(ctx, period > 0.0f && isfinite(period),
		"expected timestampPeriod to be a positive finite number of nanoseconds, got %g",
		(double)period);
}

static void properties_compute_and_graphics(struct vkqs_ctx *ctx, const void *param)
{
	if (!ctx->vk->props.limits.timestampComputeAndGraphics)
		vkqs_skip(ctx, "timestampComputeAndGraphics is VK_FALSE: no family "
			       "is promised timestamp support");
	for (uint32_t i = 0; i < ctx->vk->info.family_count; i++) {
		const struct vkqs_family_info *f = &ctx->vk->info.families[i];
		if (!(f->flags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)))
			continue;
		VKQS_EXPECTF(ctx, f->timestamp_valid_bits > 0,
			"expected queue family %u (flags 0x%x) to report timestampValidBits > 0 "
			"as timestampComputeAndGraphics is VK_TRUE",
			i, (unsigned)f->flags);
	}
}

/* Every family's timestampValidBits in range, and the families as a
 * truth table in a note (flags and bits: what a driver engineer reads
 * first).  A family that cannot record command buffers (sparse binding
 * only: no vkCmdWriteTimestamp can run on it) but reports bits claims a
 * support it cannot have: CompatibilityWarning (radv: "Timestamps are not
 * valid on dedicated sparse queue", Mesa 25.2.0 release notes). */
static void properties_valid_bits_range(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	const VkQueueFlags records = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT |
				     VK_QUEUE_TRANSFER_BIT | VK_QUEUE_VIDEO_DECODE_BIT_KHR |
				     VK_QUEUE_VIDEO_ENCODE_BIT_KHR;
	char table[1024] = "";
	size_t len = 0;
	for (uint32_t i = 0; i < ctx->vk->info.family_count; i++) {
		const struct vkqs_family_info *f = &ctx->vk->info.families[i];
		uint32_t bits = f->timestamp_valid_bits;
		if (len < sizeof(table))
			len += (size_t)snprintf(table + len, sizeof(table) - len,
						"%sfamily %u flags 0x%x: %u bits", i ? "; " : "", i,
						(unsigned)f->flags, bits);
		VKQS_EXPECTF(ctx, bits == 0 || (bits >= 36 && bits <= 64),
			"expected queue family %u (flags 0x%x) timestampValidBits to be 0 or "
			"36..64, got %u",
			i, (unsigned)f->flags, bits);
		if (bits && !(f->flags & records))
			vkqs_compat_warning(ctx, "queue family %u (flags 0x%x: no graphics, compute, "
					    "transfer or video) reports timestampValidBits %u, but no "
					    "command buffer of it can write a timestamp",
					    i, (unsigned)f->flags, bits);
	}
	vkqs_note(ctx, "%s", table);
}

static const struct vkqs_case cases[] = {
	{.name = "properties.timestamp_period_positive",
	 .fn = properties_period_positive,
	 .spec = PERIOD_SPEC},
	{.name = "properties.compute_and_graphics_valid_bits",
	 .fn = properties_compute_and_graphics,
	 .spec = "18.5: If the timestampComputeAndGraphics limit is VK_TRUE, timestamps "
		 "are supported by every queue family that supports either graphics or "
		 "compute operations"},
	{.name = "properties.valid_bits_range",
	 .fn = properties_valid_bits_range,
	 .spec = "VkQueueFamilyProperties: The valid range for the count is 36 to 64 "
		 "bits, or a value of 0, indicating no support for timestamps"},
};

VKQS_GROUP(timestamp, properties, cases);
