/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - joint calibration as arithmetic: an MRE count from what a motor
 * board reports, the jointZeroPosition of a joint held at a known angle,
 * and the body record of the chest board's store with one zero changed
 * (which pages to write again). Pure logic: it builds in the kernel and in
 * the host unit tests.
 */
#ifndef _DCM_CALIB_H
#define _DCM_CALIB_H

#include "model/dcm_pure.h"
#include "wire/dcm_wire_chest.h"

#define DCM_CALIB_COUNTS	4096		/* MRE counts per turn */
#define DCM_CALIB_TWO_PI_NRAD	6283185307LL	/* a turn, nano-radians */

s32 dcm_calib_counts(s64 angle_urad);
u16 dcm_calib_raw(s16 angle, u16 zero);
int dcm_calib_zero(u16 raw, s64 angle_urad, u16 *zero);
int dcm_calib_record(const u8 *old, u8 *image, const char *body_id, const char *nick,
		     int index, u16 zero, u32 *pages, int *old_err);
u32 dcm_calib_pages_changed(const u8 *old, const u8 *image);

#endif /* _DCM_CALIB_H */
