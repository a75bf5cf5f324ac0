/* What the video cases share: a video session with its memory bound, and
 * session parameters, both destroyed at case end. */
#ifndef VKQS_VIDEO_SESSION_H
#define VKQS_VIDEO_SESSION_H

#include "vkutil.h"

/* vkCreateVideoSessionKHR, then every memory binding it asks for
 * (device-local where a type allows it). */
VkVideoSessionKHR vkqs_video_session(struct vkqs_ctx *ctx, const VkVideoSessionCreateInfoKHR *ci);
/* vkCreateVideoSessionParametersKHR for `session`, `next` (the codec's
 * create info) in its pNext chain. */
VkVideoSessionParametersKHR vkqs_video_params(struct vkqs_ctx *ctx, VkVideoSessionKHR session,
					      const void *next);
/* The picture format for `usage` under the profile list: the one that is
 * `prefer`, else the first (NotSupported when there is none). */
VkVideoFormatPropertiesKHR vkqs_video_format(struct vkqs_ctx *ctx, const void *profile_list,
					     VkImageUsageFlags usage, VkFormat prefer);
/* A 2D picture of fp's format and extent, concurrent on the families
 * fams[0] and fams[1], device-local, `usage`; its view has view_usage
 * (VkImageViewUsageCreateInfo).  profile_list: the VkVideoProfileListInfoKHR. */
void vkqs_video_picture(struct vkqs_ctx *ctx, const void *profile_list,
			const VkVideoFormatPropertiesKHR *fp, VkExtent2D extent,
			VkImageUsageFlags usage, VkImageUsageFlags view_usage, const uint32_t fams[2],
			VkImage *img, VkImageView *view);
/* One image barrier (synchronization2) on the picture's colour subresource. */
void vkqs_video_barrier(struct vkqs_ctx *ctx, VkCommandBuffer cb, VkImage img, VkImageLayout from,
			VkImageLayout to, VkPipelineStageFlags2 src, VkAccessFlags2 src_access,
			VkPipelineStageFlags2 dst, VkAccessFlags2 dst_access);
/* The status word of an unavailable query (reset, or created with
 * VK_QUERY_POOL_CREATE_RESET_BIT_KHR and not yet used), read with
 * WITH_STATUS and no WAIT into a word that held `guard`: written, and 0.
 * 1.4.360 queries.adoc: with WITH_STATUS "results for all queries ... are
 * copied to pData, along with an extra status value written directly
 * after the results of each query"; "A value of zero indicates that the
 * results are not yet available".  The word is written for every query, as
 * the availability word is (an unwritten one fails the same way).  `r` is
 * the call's return code ("may return VK_NOT_READY": VK_SUCCESS warns). */
void vkqs_video_expect_unavailable(struct vkqs_ctx *ctx, VkResult r, int64_t status, int64_t guard,
				   const char *what);

#endif
