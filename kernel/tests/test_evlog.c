// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of model/dcm_evlog.c: the event log's two classes, their
 * queues and histories, the numbering and the counts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/dcm_evlog.h"

static struct dcm_evlog log_;

static int setup(void **state)
{
	(void)state;
	memset(&log_, 0, sizeof(log_));
	return 0;
}

static bool post(u32 type, s64 value, bool queue)
{
	struct dcm_event ev = { .type = type, .value = value };

	return dcm_evlog_post(&log_, &ev, 1000 + (u32)log_.next_seq, queue);
}

/* Every event's class: the safety record's kinds apart from the rest. */
static void test_classes(void **state)
{
	static const u32 safety[] = {
		DCM_EV_ERROR, DCM_EV_NACK, DCM_EV_ACK, DCM_EV_SAFETY, DCM_EV_TEMPERATURE,
		DCM_EV_BATTERY, DCM_EV_WATCHDOG, DCM_EV_FALL,
	};
	u32 t, i, n = 0;

	(void)state;
	for (t = 0; t <= DCM_EV_MAX + 5; t++) {
		bool is_safety = false;

		for (i = 0; i < ARRAY_SIZE(safety); i++)
			is_safety |= safety[i] == t;
		assert_int_equal(is_safety ? DCM_EVC_SAFETY : DCM_EVC_INFO, dcm_evlog_class(t));
		n += is_safety;
		assert_non_null(dcm_evlog_type_name(t));
	}
	assert_int_equal(ARRAY_SIZE(safety), n);
	assert_string_equal("fall", dcm_evlog_type_name(DCM_EV_FALL));
	assert_string_equal("special", dcm_evlog_type_name(DCM_EV_SPECIAL));
	assert_string_equal("other", dcm_evlog_type_name(DCM_EV_MAX + 1));
}

/* A flood of informational events displaces no safety event. */
static void test_flood_keeps_safety(void **state)
{
	struct dcm_event ev;
	u64 seq, falls[8];
	int i, k = 0, nfall = 0, nspecial = 0;

	(void)state;
	for (i = 0; i < 8 * 200; i++) {
		if (i % 200 == 7) {
			falls[k++] = log_.next_seq;
			post(DCM_EV_FALL, 1, false);
		} else {
			post(DCM_EV_SPECIAL, i, false);
		}
	}
	for (seq = 0; dcm_evlog_history(&log_, &seq, &ev); seq++) {
		if (ev.type == DCM_EV_FALL)
			assert_int_equal(falls[nfall++], ev.seq);
		else
			nspecial++;
	}
	assert_int_equal(8, nfall);
	assert_int_equal(DCM_EVENT_HISTORY, nspecial);
	assert_int_equal(8, log_.posted[DCM_EV_FALL]);
	assert_int_equal(8 * 200 - 8, log_.posted[DCM_EV_SPECIAL]);
}

/* The history walks both classes in the order posted, each seq once. */
static void test_history_order(void **state)
{
	struct dcm_event ev;
	u64 seq, prev = 0;
	int i, n = 0;

	(void)state;
	srandom(1);
	for (i = 0; i < 1000; i++)
		post(random() % 3 ? DCM_EV_CONFIG : DCM_EV_NACK, i, false);
	for (seq = 0; dcm_evlog_history(&log_, &seq, &ev); seq++) {
		assert_int_equal(seq, ev.seq);
		assert_true(n == 0 || ev.seq > prev);
		assert_int_equal(ev.seq, (u64)ev.value);
		assert_int_equal(1000 + ev.seq, ev.time);
		prev = ev.seq;
		n++;
	}
	assert_int_equal(2 * DCM_EVENT_HISTORY, n);
	/* Past the end: nothing; from a seq long gone: the next one kept. */
	seq = 1000;
	assert_false(dcm_evlog_history(&log_, &seq, &ev));
	seq = 0;
	assert_true(dcm_evlog_history(&log_, &seq, &ev));
	assert_true(seq > 0);
}

/* A full queue drops, counts by type and tells the next one queued. */
static void test_queue_drops(void **state)
{
	struct dcm_event ev;
	int i, n = 0, nsafety = 0;
	u64 prev = 0;

	(void)state;
	for (i = 0; i < DCM_EVENT_RING; i++)
		assert_true(post(DCM_EV_SPECIAL, i, true));
	for (i = 0; i < 10; i++)
		assert_false(post(DCM_EV_SPECIAL, i, true));
	/* The safety class has room of its own. */
	for (i = 0; i < 3; i++)
		assert_true(post(DCM_EV_FALL, i, true));
	assert_int_equal(10, log_.dropped[DCM_EV_SPECIAL]);
	assert_int_equal(0, log_.dropped[DCM_EV_FALL]);
	assert_int_equal(DCM_EVENT_RING + 10, log_.posted[DCM_EV_SPECIAL]);

	while (dcm_evlog_next(&log_, &ev)) {
		assert_true(n == 0 || ev.seq > prev);
		assert_int_equal(0, ev.lost);
		nsafety += ev.type == DCM_EV_FALL;
		prev = ev.seq;
		n++;
	}
	assert_int_equal(DCM_EVENT_RING + 3, n);
	assert_int_equal(3, nsafety);
	/* The next informational event carries the 10 lost before it. */
	assert_true(post(DCM_EV_CONFIG, 0, true));
	assert_true(dcm_evlog_next(&log_, &ev));
	assert_int_equal(10, ev.lost);
	assert_int_equal(DCM_EV_CONFIG, ev.type);
	assert_false(dcm_evlog_next(&log_, &ev));
	/* Not listened to: kept, neither queued nor dropped. */
	assert_false(post(DCM_EV_FALL, 9, false));
	assert_false(dcm_evlog_next(&log_, &ev));
	assert_int_equal(0, log_.dropped[DCM_EV_FALL]);
}

/* Unknown types are counted as "other" and kept as informational. */
static void test_unknown_type(void **state)
{
	struct dcm_event ev;
	u64 seq = 0;

	(void)state;
	post(DCM_EV_MAX + 7, 1, false);
	assert_int_equal(1, log_.posted[DCM_EV_UNSPEC]);
	assert_true(dcm_evlog_history(&log_, &seq, &ev));
	assert_int_equal(DCM_EV_MAX + 7, ev.type);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_classes, setup),
		cmocka_unit_test_setup(test_flood_keeps_safety, setup),
		cmocka_unit_test_setup(test_history_order, setup),
		cmocka_unit_test_setup(test_queue_drops, setup),
		cmocka_unit_test_setup(test_unknown_type, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
