// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - joint calibration as arithmetic (Documentation/dcm/wire-protocol.rst,
 * "Calibration").
 *
 * A joint's MRE counts 4096 per turn. Its jointZeroPosition is the count
 * at the joint's 0 rad; the motor board reports (count - jointZeroPosition)
 * modulo 4096 as -2048..2047, so the DCM recovers the count from what the
 * board says and the zero it sent the board. A joint held at a known angle
 * (its 0, or a mechanical stop at the position sensor's Min or Max) gives
 * its zero: the count minus the angle in counts, modulo 4096. 0 means "not
 * calibrated", so a zero that falls on 0 is taken as 1 (0.09 degree off).
 */

#include "model/dcm_calib.h"
#include "wire/dcm_wire_chest.h"

/**
 * dcm_calib_counts() - an angle in MRE counts
 * @angle_urad: the angle, micro-radians
 *
 * Return: the angle times 4096 / (2 pi), rounded to the nearest count,
 * halves away from zero; not reduced modulo 4096.
 */
s32 dcm_calib_counts(s64 angle_urad)
{
	s64 a = clamp(angle_urad, -1000000000000LL, 1000000000000LL);
	s64 n = (a < 0 ? -a : a) * (DCM_CALIB_COUNTS * 1000LL);
	s64 q = div64_s64(n + DCM_CALIB_TWO_PI_NRAD / 2, DCM_CALIB_TWO_PI_NRAD);

	return (s32)(a < 0 ? -q : q);
}

/**
 * dcm_calib_raw() - the MRE count behind what a motor board reports
 * @angle: the angle in the board's reply, (count - @zero) modulo 4096
 * @zero: the jointZeroPosition the board was configured with (0: none)
 *
 * Return: the count, 0..4095.
 */
u16 dcm_calib_raw(s16 angle, u16 zero)
{
	return (u16)((angle + zero) & (DCM_CALIB_COUNTS - 1));
}

/**
 * dcm_calib_zero() - the jointZeroPosition of a joint held at an angle
 * @raw: its MRE count there, 0..4095
 * @angle_urad: the angle it is held at, micro-radians (0, or a stop)
 * @zero: the count at the joint's 0 rad, 1..4095
 *
 * Return: 0; 1 when the count fell on 0 (which means "not calibrated") and
 * was taken as 1.
 */
int dcm_calib_zero(u16 raw, s64 angle_urad, u16 *zero)
{
	s32 z = ((s32)raw - dcm_calib_counts(angle_urad)) & (DCM_CALIB_COUNTS - 1);

	if (!z) {
		*zero = 1;
		return 1;
	}
	*zero = (u16)z;
	return 0;
}

/**
 * dcm_calib_pages_changed() - the pages of the body record that differ
 * @old: the record as the store holds it, DCM_CHEST_BODY_LEN bytes
 * @image: the record to write
 *
 * Return: a bitmask, bit p for page p (0..7).
 */
u32 dcm_calib_pages_changed(const u8 *old, const u8 *image)
{
	u32 p, pages = 0;

	for (p = 0; p < DCM_CHEST_BODY_LEN / DCM_CHEST_EE_PAGE_LEN; p++)
		if (memcmp(old + p * DCM_CHEST_EE_PAGE_LEN, image + p * DCM_CHEST_EE_PAGE_LEN,
			   DCM_CHEST_EE_PAGE_LEN))
			pages |= BIT(p);
	return pages;
}

/* Copy a name into a record's field, cut to fit with its NUL. */
static void put_name(char *dst, const char *src)
{
	size_t n = src ? strnlen(src, DCM_CHEST_NAME_LEN - 1) : 0;

	memset(dst, 0, DCM_CHEST_NAME_LEN);
	if (n)
		memcpy(dst, src, n);
}

/**
 * dcm_calib_record() - the body record with one motor's zero changed
 * @old: the record read from the store, DCM_CHEST_BODY_LEN bytes
 * @image: the record to write, DCM_CHEST_BODY_LEN bytes
 * @body_id: BodyId for a new record (when @old holds none), or NULL
 * @nick: BodyNickName for a new record, or NULL
 * @index: the motor's place, dcm_chest_calib_index()
 * @zero: its new jointZeroPosition, 0..4095 (0: none)
 * @pages: the pages of @image to commit (dcm_calib_pages_changed())
 * @old_err: 0 when @old was a valid record, else what dcm_chest_body_get()
 *	said of it
 *
 * The read-modify-write of a calibration: everything @old holds is kept
 * but the one zero. An @old that is no valid record (empty, cut halfway,
 * another layout) is replaced by a new one with @body_id, @nick and no
 * other zero.
 *
 * Return: 0; -EINVAL for a bad @index or @zero; -ENOMEM.
 */
int dcm_calib_record(const u8 *old, u8 *image, const char *body_id, const char *nick,
		     int index, u16 zero, u32 *pages, int *old_err)
{
	struct dcm_chest_body *b;
	int got, ret;

	if (index < 0 || index >= DCM_CHEST_CALIB_N || zero >= DCM_CALIB_COUNTS)
		return -EINVAL;
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	got = dcm_chest_body_get(old, b);
	if (got) {
		memset(b, 0, sizeof(*b));
		put_name(b->body_id, body_id);
		put_name(b->nick, nick);
	}
	b->zero[index] = zero;
	ret = dcm_chest_body_put(image, b);
	kfree(b);
	if (ret)
		return ret;
	*pages = dcm_calib_pages_changed(old, image);
	*old_err = got;
	return 0;
}
