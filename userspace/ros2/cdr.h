/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CDR, the encoding of ROS 2's messages (cdr.c): OMG's Common Data
 * Representation, little-endian, as rosbag2 stores messages in MCAP and
 * Foxglove's ROS 2 readers decode them.
 */
#ifndef DCM_ROS2_CDR_H
#define DCM_ROS2_CDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/**
 * struct cdr - a message being written
 * @buf: its bytes, the 4-byte encapsulation header first
 * @len: bytes written
 * @cap: bytes allocated
 * @failed: an allocation failed: cdr_end() answers NULL
 */
struct cdr {
	unsigned char *buf;
	size_t len;
	size_t cap;
	bool failed;
};

void cdr_begin(struct cdr *c);
void cdr_u32(struct cdr *c, uint32_t v);
void cdr_i32(struct cdr *c, int32_t v);
void cdr_f64(struct cdr *c, double v);
void cdr_string(struct cdr *c, const char *s);
/* The message (the caller frees it) and its length, or NULL. */
unsigned char *cdr_end(struct cdr *c, size_t *len);

#endif /* DCM_ROS2_CDR_H */
