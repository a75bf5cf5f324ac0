/* Timestamp queries (spec 18.5): ordering of writes that happen-after one
 * another (vkCmdWriteTimestamp and vkCmdWriteTimestamp2, every stage, on
 * every queue, across submissions and queues with calibrated timestamps),
 * the valid bits and wrap, timestampPeriod against the host clock, 32-bit
 * against 64-bit results, the copy path, calibrated timestamps (device and
 * host domains, maxDeviation, rate) and the limits that describe timestamp
 * support. */
#include "timestamp.h"

VKQS_GROUP_DECL(timestamp, stage);
VKQS_GROUP_DECL(timestamp, stage2);
VKQS_GROUP_DECL(timestamp, valid_bits);
VKQS_GROUP_DECL(timestamp, duration);
VKQS_GROUP_DECL(timestamp, result_width);
VKQS_GROUP_DECL(timestamp, copy);
VKQS_GROUP_DECL(timestamp, order);
VKQS_GROUP_DECL(timestamp, calibrated);
VKQS_GROUP_DECL(timestamp, properties);
VKQS_GROUP_DECL(timestamp, work);

/* The listing order: the groups' rows, whole unless a part says which (first, count). */
static const struct vkqs_area_part parts[] = {
	{&vkqs_timestamp_stage, 0, 0},
	{&vkqs_timestamp_stage2, 0, 0},
	{&vkqs_timestamp_valid_bits, 0, 0},
	{&vkqs_timestamp_duration, 0, 0},
	{&vkqs_timestamp_result_width, 0, 0},
	{&vkqs_timestamp_copy, 0, 0},
	{&vkqs_timestamp_order, 0, 0},
	{&vkqs_timestamp_calibrated, 0, 0},
	{&vkqs_timestamp_properties, 0, 0},
	{&vkqs_timestamp_work, 0, 0},
};

VKQS_AREA_OF_PARTS(timestamp, parts);
