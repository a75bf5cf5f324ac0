/* The commands 18.2 says "may count towards the results of queries"
 * ("rendering operations such as clears, MSAA resolves, attachment
 * load/store operations, and blits") and the copies drivers also run as
 * internal draws or dispatches, recorded outside a render pass instance on
 * images and buffers of their own. */
#ifndef VKQS_METAOP_H
#define VKQS_METAOP_H

#include "vkutil.h"

enum vkqs_meta_op {
	VKQS_META_CLEAR_COLOR_IMAGE,
	VKQS_META_CLEAR_DEPTH_IMAGE,
	VKQS_META_BLIT_IMAGE,
	VKQS_META_RESOLVE_IMAGE,
	VKQS_META_COPY_IMAGE,
	VKQS_META_COPY_BUFFER_TO_IMAGE,
	VKQS_META_FILL_BUFFER,
	VKQS_META_OP_COUNT
};

/* Every op, for a case's parameters (VKQS_PARAMS(vkqs_meta_ops,
 * vkqs_meta_op_param_name)). */
extern const enum vkqs_meta_op vkqs_meta_ops[VKQS_META_OP_COUNT];
void vkqs_meta_op_param_name(const void *param, char *buf, size_t size);

/* The case-name part ("clear_color_image") and the command
 * ("vkCmdClearColorImage") of op. */
const char *vkqs_meta_op_name(enum vkqs_meta_op op);
const char *vkqs_meta_op_command(enum vkqs_meta_op op);

/* Whether a queue of `flags` can record op (resolves, blits and depth
 * clears need graphics; the rest transfer, which graphics and compute
 * queues have too). */
bool vkqs_meta_op_on_queue(enum vkqs_meta_op op, VkQueueFlags flags);

/* Skips the case when the device cannot do op (format features, sample
 * counts); then records it into cb, outside any render pass instance,
 * with the layout transitions it needs. */
void vkqs_cmd_meta_op(struct vkqs_ctx *ctx, VkCommandBuffer cb, enum vkqs_meta_op op);

#endif
