// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of joint calibration's arithmetic (kernel/model/dcm_calib.c): angles
 * in MRE counts and their rounding, the count behind a motor board's reply
 * for every zero, the zero of a joint held at its stops for every true
 * zero, the 0 corner, and the read-modify-write of the chest board's body
 * record (which pages change, what is kept, a record that was not one).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/dcm_calib.h"
#include "wire/dcm_wire_chest.h"
#include "wire/dcm_wire_motor.h"

#define PAGE	DCM_CHEST_EE_PAGE_LEN

static void test_counts(void **state)
{
	s64 a;

	(void)state;
	assert_int_equal(0, dcm_calib_counts(0));
	assert_int_equal(1024, dcm_calib_counts(1570796));	/* pi / 2 */
	assert_int_equal(-1024, dcm_calib_counts(-1570796));
	assert_int_equal(2048, dcm_calib_counts(3141593));	/* pi */
	assert_int_equal(4096, dcm_calib_counts(6283185));	/* a turn, not reduced */
	/* Half a count is 766.99 urad: 767 rounds up, 766 down, both signs. */
	assert_int_equal(1, dcm_calib_counts(767));
	assert_int_equal(0, dcm_calib_counts(766));
	assert_int_equal(-1, dcm_calib_counts(-767));
	assert_int_equal(0, dcm_calib_counts(-766));
	/* Against the real number, away from the halves. */
	for (a = -7000000; a <= 7000000; a += 997) {
		double c = (double)a * 4096.0 / (2e6 * M_PI);

		if (fabs(c - trunc(c)) > 0.499 && fabs(c - trunc(c)) < 0.501)
			continue;
		assert_int_equal((s32)lround(c), dcm_calib_counts(a));
	}
	/* Absurd angles are clamped, not overflowed. */
	assert_true(dcm_calib_counts(S64_MAX) > 0);
	assert_true(dcm_calib_counts(S64_MIN) < 0);
}

/* Whatever zero the board has, the count comes back from its reply. */
static void test_raw(void **state)
{
	u32 count, zero;

	(void)state;
	assert_int_equal(4095, dcm_calib_raw(-1, 0));
	assert_int_equal(94, dcm_calib_raw(100, 4090));
	assert_int_equal(2048, dcm_calib_raw(-2048, 0));
	for (zero = 0; zero < 4096; zero += 13)
		for (count = 0; count < 4096; count++)
			assert_int_equal(count, dcm_calib_raw(dcm_mb_mre_angle(count, zero), zero));
}

/*
 * A joint of true zero Z held at angle A reads Z + counts(A) (mod 4096):
 * the zero computed is Z, at 0, at both stops of every joint of the
 * shipped robot, for every Z.
 */
static void test_zero(void **state)
{
	static const s64 stops[] = {
		0, -2085700, 2085700, -672000, 514900, -1544600, -34900, 34900, 1326500,
		-1145303, 740810, -92346, 2112528, -1189516, 922747, -397880, 769001,
	};
	u16 z, zero;
	size_t i;

	(void)state;
	for (z = 1; z < 4096; z++) {
		for (i = 0; i < ARRAY_SIZE(stops); i++) {
			u16 raw = (u16)((z + dcm_calib_counts(stops[i])) & 4095);

			assert_int_equal(0, dcm_calib_zero(raw, stops[i], &zero));
			assert_int_equal(z, zero);
		}
	}
	/* Held at its Min of -0.672 rad (-438 counts), reading 3658: zero 4096 = 0 -> 1. */
	assert_int_equal(-438, dcm_calib_counts(-672000));
	assert_int_equal(1, dcm_calib_zero(3658, -672000, &zero));
	assert_int_equal(1, zero);
	assert_int_equal(0, dcm_calib_zero(3659, -672000, &zero));
	assert_int_equal(1, zero);
	assert_int_equal(0, dcm_calib_zero(3657, -672000, &zero));
	assert_int_equal(4095, zero);
}

static void body(struct dcm_chest_body *b, const char *id, const char *nick)
{
	memset(b, 0, sizeof(*b));
	strcpy(b->body_id, id);
	strcpy(b->nick, nick);
}

/* An empty store (erased, 0xff): a new record with the identity given. */
static void test_record_new(void **state)
{
	u8 old[DCM_CHEST_BODY_LEN], image[DCM_CHEST_BODY_LEN];
	struct dcm_chest_body b;
	int idx = dcm_chest_calib_index(1, 1, 1), old_err = 1, i;
	u32 pages = 0;

	(void)state;
	memset(old, 0xff, sizeof(old));
	assert_int_equal(0, dcm_calib_record(old, image, "AL1100100000000", "Nao01", idx, 1094,
					     &pages, &old_err));
	assert_int_equal(-ENODATA, old_err);
	assert_int_equal(0xff, pages);
	assert_int_equal(0, dcm_chest_body_get(image, &b));
	assert_string_equal("AL1100100000000", b.body_id);
	assert_string_equal("Nao01", b.nick);
	for (i = 0; i < DCM_CHEST_CALIB_N; i++)
		assert_int_equal(i == idx ? 1094 : 0, b.zero[i]);

	/* No identity, and one too long for the record: cut to 31 bytes. */
	memset(old, 0, sizeof(old));
	assert_int_equal(0, dcm_calib_record(old, image, NULL,
					     "a nick name that is much too long for it", idx, 7,
					     &pages, &old_err));
	assert_int_equal(-ENODATA, old_err);
	assert_int_equal(0, dcm_chest_body_get(image, &b));
	assert_string_equal("", b.body_id);
	assert_int_equal(31, strlen(b.nick));
}

/* A valid record: only the zero changes; page 0 (the CRC) and its page are written. */
static void test_record_update(void **state)
{
	u8 old[DCM_CHEST_BODY_LEN], image[DCM_CHEST_BODY_LEN];
	struct dcm_chest_body b, got;
	int idx, old_err = 1, i;
	u32 pages = 0;

	(void)state;
	body(&b, "AL-STORED", "Stored");
	for (i = 0; i < DCM_CHEST_CALIB_N; i++)
		b.zero[i] = (u16)(i * 61 % 4096);
	assert_int_equal(0, dcm_chest_body_put(old, &b));

	/* RS485-4, Address 4, motor 2: the last slot, in the last page. */
	idx = dcm_chest_calib_index(4, 4, 2);
	assert_int_equal(0, dcm_calib_record(old, image, "AL-OTHER", "Other", idx, 2336, &pages,
					     &old_err));
	assert_int_equal(0, old_err);
	assert_int_equal(BIT(0) | BIT((0x80 + 2 * idx) / PAGE), pages);
	assert_int_equal(0, dcm_chest_body_get(image, &got));
	assert_string_equal("AL-STORED", got.body_id);
	assert_string_equal("Stored", got.nick);
	for (i = 0; i < DCM_CHEST_CALIB_N; i++)
		assert_int_equal(i == idx ? 2336 : b.zero[i], got.zero[i]);
	/* Only the pages said to change differ. */
	for (i = 0; i < DCM_CHEST_BODY_LEN / PAGE; i++)
		assert_int_equal(!!(pages & BIT(i)), !!memcmp(old + i * PAGE, image + i * PAGE, PAGE));

	/* The same zero again: nothing to write. */
	memcpy(old, image, sizeof(old));
	assert_int_equal(0, dcm_calib_record(old, image, NULL, NULL, idx, 2336, &pages, &old_err));
	assert_int_equal(0, pages);

	/* 0 clears it: still a valid record. */
	assert_int_equal(0, dcm_calib_record(old, image, NULL, NULL, idx, 0, &pages, &old_err));
	assert_int_equal(0, dcm_chest_body_get(image, &got));
	assert_int_equal(0, got.zero[idx]);
}

/* A record cut halfway fails its CRC: a new record, the rest is not trusted. */
static void test_record_corrupt(void **state)
{
	u8 old[DCM_CHEST_BODY_LEN], image[DCM_CHEST_BODY_LEN];
	struct dcm_chest_body b, got;
	int idx = dcm_chest_calib_index(2, 3, 1), old_err = 0, i;
	u32 pages;

	(void)state;
	body(&b, "AL-X", "X");
	for (i = 0; i < DCM_CHEST_CALIB_N; i++)
		b.zero[i] = 100;
	assert_int_equal(0, dcm_chest_body_put(old, &b));
	memset(old + 5 * PAGE + 16, 0xff, 16);	/* page 5 cut halfway */
	assert_int_equal(-EBADMSG, dcm_chest_body_get(old, &got));
	assert_int_equal(0, dcm_calib_record(old, image, "AL-NEW", "New", idx, 3722, &pages,
					     &old_err));
	assert_int_equal(-EBADMSG, old_err);
	assert_int_equal(0, dcm_chest_body_get(image, &got));
	assert_string_equal("AL-NEW", got.body_id);
	for (i = 0; i < DCM_CHEST_CALIB_N; i++)
		assert_int_equal(i == idx ? 3722 : 0, got.zero[i]);
}

static void test_record_bad(void **state)
{
	u8 old[DCM_CHEST_BODY_LEN], image[DCM_CHEST_BODY_LEN];
	int old_err;
	u32 pages;

	(void)state;
	memset(old, 0xff, sizeof(old));
	assert_int_equal(-EINVAL, dcm_calib_record(old, image, NULL, NULL, -1, 1, &pages,
						   &old_err));
	assert_int_equal(-EINVAL, dcm_calib_record(old, image, NULL, NULL, DCM_CHEST_CALIB_N, 1,
						   &pages, &old_err));
	assert_int_equal(-EINVAL, dcm_calib_record(old, image, NULL, NULL, 0, 4096, &pages,
						   &old_err));
	assert_int_equal(-EINVAL, dcm_chest_calib_index(5, 1, 1));
	assert_int_equal(-EINVAL, dcm_chest_calib_index(1, 9, 1));
	assert_int_equal(-EINVAL, dcm_chest_calib_index(1, 1, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_raw),
		cmocka_unit_test(test_zero),
		cmocka_unit_test(test_record_new),
		cmocka_unit_test(test_record_update),
		cmocka_unit_test(test_record_corrupt),
		cmocka_unit_test(test_record_bad),
	};

	dcm_wire_init();
	return cmocka_run_group_tests_name("calib", tests, NULL, NULL);
}
