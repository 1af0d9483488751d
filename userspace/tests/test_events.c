// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: the event parser and formatter, fed DCM_CMD_EVENT messages
 * built in memory with libnl (no kernel involved).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <netlink/netlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/genl/genl.h>

#include "libdcm-private.h"

#define FAMILY 0x1d

static struct nl_msg *new_msg(uint8_t cmd)
{
	struct nl_msg *msg = nlmsg_alloc();

	assert_non_null(msg);
	assert_non_null(genlmsg_put(msg, NL_AUTO_PORT, 0, FAMILY, 0, 0, cmd, DCM_GENL_VERSION));
	return msg;
}

static void put_base(struct nl_msg *msg, uint32_t type)
{
	assert_int_equal(nla_put_u32(msg, DCM_A_EV_INDEX, 2), 0);
	assert_int_equal(nla_put_u32(msg, DCM_A_EV_TYPE, type), 0);
	assert_int_equal(nla_put_u32(msg, DCM_A_EV_TIME, 0xfffffffeU), 0);
}

static void test_error_event(void **state)
{
	struct nl_msg *msg = new_msg(DCM_CMD_EVENT);
	struct dcm_event_msg e;
	char line[256];

	(void)state;
	put_base(msg, DCM_EV_ERROR);
	assert_int_equal(nla_put_string(msg, DCM_A_EV_DEVICE, "LegsBoard"), 0);
	assert_int_equal(nla_put_u32(msg, DCM_A_EV_LEVEL, 6), 0);
	assert_int_equal(nla_put_u32(msg, DCM_A_EV_CODE, 0x43), 0);
	assert_int_equal(nla_put_s64(msg, DCM_A_EV_VALUE, -5), 0);
	assert_int_equal(nla_put_string(msg, DCM_A_EV_TEXT, "motor 1: over current"), 0);
	assert_int_equal(nla_put_u32(msg, DCM_A_EV_LOST, 3), 0);
	assert_int_equal(dcm_nl_parse_event(nlmsg_hdr(msg), &e), 0);
	assert_int_equal(e.index, 2);
	assert_int_equal(e.type, DCM_EV_ERROR);
	assert_int_equal(e.time_ms, 0xfffffffeU);
	assert_string_equal(e.device, "LegsBoard");
	assert_int_equal(e.level, 6);
	assert_int_equal(e.code, 0x43);
	assert_true(e.value == -5);
	assert_int_equal(e.lost, 3);
	dcm_event_format(&e, line, sizeof(line));
	assert_string_equal(line, "dcm2 4294967294 error level 6 code 0x43 LegsBoard: "
			    "motor 1: over current (3 events lost before)");
	/* the length of the whole line, as snprintf(), whatever the buffer */
	assert_int_equal(dcm_event_format(&e, line, sizeof(line)), 95);
	assert_int_equal(dcm_event_format(&e, line, 70), 95);
	assert_int_equal(strlen(line), 69);
	assert_int_equal(dcm_event_format(&e, line, 10), 95);
	assert_string_equal(line, "dcm2 4294");
	assert_int_equal(dcm_event_format(NULL, line, sizeof(line)), -EINVAL);
	nlmsg_free(msg);
}

static void test_safety_event(void **state)
{
	struct nl_msg *msg = new_msg(DCM_CMD_EVENT);
	struct dcm_event_msg e;
	char line[256];

	(void)state;
	put_base(msg, DCM_EV_SAFETY);
	assert_int_equal(nla_put_u32(msg, DCM_A_EV_CODE, DCM_SAFETY_CYCLE_FAULT), 0);
	assert_int_equal(nla_put_s64(msg, DCM_A_EV_VALUE, 1), 0);
	assert_int_equal(dcm_nl_parse_event(nlmsg_hdr(msg), &e), 0);
	assert_string_equal(e.device, "");
	dcm_event_format(&e, line, sizeof(line));
	assert_string_equal(line, "dcm2 4294967294 safety cycle-fault on");
	nlmsg_free(msg);
}

static void test_bad_events(void **state)
{
	struct dcm_event_msg e, keep;
	struct nl_msg *msg;

	(void)state;
	memset(&keep, 0x5a, sizeof(keep));

	/* Not an event */
	msg = new_msg(DCM_CMD_GET_INFO);
	put_base(msg, DCM_EV_ERROR);
	e = keep;
	assert_int_equal(dcm_nl_parse_event(nlmsg_hdr(msg), &e), -EPROTO);
	assert_memory_equal(&e, &keep, sizeof(e));
	nlmsg_free(msg);

	/* TIME missing */
	msg = new_msg(DCM_CMD_EVENT);
	assert_int_equal(nla_put_u32(msg, DCM_A_EV_INDEX, 0), 0);
	assert_int_equal(nla_put_u32(msg, DCM_A_EV_TYPE, DCM_EV_CONFIG), 0);
	assert_int_equal(dcm_nl_parse_event(nlmsg_hdr(msg), &e), -EPROTO);
	nlmsg_free(msg);

	/* TYPE of the wrong size */
	msg = new_msg(DCM_CMD_EVENT);
	assert_int_equal(nla_put_u32(msg, DCM_A_EV_INDEX, 0), 0);
	assert_int_equal(nla_put_u16(msg, DCM_A_EV_TYPE, DCM_EV_CONFIG), 0);
	assert_int_equal(nla_put_u32(msg, DCM_A_EV_TIME, 1), 0);
	assert_int_equal(dcm_nl_parse_event(nlmsg_hdr(msg), &e), -EPROTO);
	nlmsg_free(msg);

	/* A text longer than the library keeps */
	msg = new_msg(DCM_CMD_EVENT);
	put_base(msg, DCM_EV_CONFIG);
	{
		char big[LIBDCM_EVENT_TEXT_LEN + 10];

		memset(big, 'x', sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		assert_int_equal(nla_put_string(msg, DCM_A_EV_TEXT, big), 0);
	}
	assert_int_equal(dcm_nl_parse_event(nlmsg_hdr(msg), &e), -EPROTO);
	nlmsg_free(msg);

	assert_int_equal(dcm_nl_parse_event(NULL, &e), -EINVAL);
}

static void test_names(void **state)
{
	unsigned int t;

	(void)state;
	for (t = 1; t <= DCM_EV_MAX; t++) {
		assert_non_null(dcm_event_type_name(t));
		assert_int_equal(dcm_event_type_parse(dcm_event_type_name(t)), (int)t);
	}
	assert_null(dcm_event_type_name(0));
	assert_null(dcm_event_type_name(DCM_EV_MAX + 1));
	assert_int_equal(dcm_event_type_parse("nonsense"), -EINVAL);
	assert_string_equal(dcm_safety_rule_name(DCM_SAFETY_BRAKE), "brake");
	assert_null(dcm_safety_rule_name(99));
}

/*
 * The follower's decisions: each number once, in order; a gap first read
 * from the history; live events the history gave already skipped; a
 * numbering that starts again followed from there.
 */
static void test_follow_step(void **state)
{
	struct dcm_event_follow f = { .index = 0 };

	(void)state;
	/* not known yet: the first event sets the place */
	assert_int_equal(dcm_event_follow_step(&f, 7), DCM_FOLLOW_PASS);
	assert_true(f.known);
	assert_int_equal(f.next, 8);
	assert_int_equal(dcm_event_follow_step(&f, 8), DCM_FOLLOW_PASS);
	assert_int_equal(f.next, 9);
	/* 9 and 10 dropped: a gap, f unchanged until the history is read */
	assert_int_equal(dcm_event_follow_step(&f, 11), DCM_FOLLOW_GAP);
	assert_int_equal(f.next, 9);
	f.next = 11;	/* as the catch-up leaves it */
	assert_int_equal(dcm_event_follow_step(&f, 11), DCM_FOLLOW_PASS);
	assert_int_equal(f.next, 12);
	/* after an overrun, the history gave 12 to 19: those still queued are skipped */
	f.dup_from = 12;
	f.dup_below = 20;
	f.next = 20;
	assert_int_equal(dcm_event_follow_step(&f, 12), DCM_FOLLOW_SKIP);
	assert_int_equal(dcm_event_follow_step(&f, 19), DCM_FOLLOW_SKIP);
	assert_int_equal(f.next, 20);
	assert_int_equal(dcm_event_follow_step(&f, 20), DCM_FOLLOW_PASS);
	assert_int_equal(f.next, 21);
	assert_int_equal(f.dup_from, f.dup_below);	/* nothing more to skip */
	/* a number below the place the history never gave: a new numbering */
	assert_int_equal(dcm_event_follow_step(&f, 15), DCM_FOLLOW_PASS);
	assert_int_equal(f.next, 16);
	f.next = 100;
	assert_int_equal(dcm_event_follow_step(&f, 0), DCM_FOLLOW_PASS);
	assert_int_equal(f.next, 1);
	assert_int_equal(dcm_event_follow_step(&f, 1), DCM_FOLLOW_PASS);
}

static void test_safety_types(void **state)
{
	(void)state;
	assert_true(dcm_event_type_safety(DCM_EV_FALL));
	assert_true(dcm_event_type_safety(DCM_EV_SAFETY));
	assert_true(dcm_event_type_safety(DCM_EV_TEMPERATURE));
	assert_true(dcm_event_type_safety(DCM_EV_BATTERY));
	assert_true(dcm_event_type_safety(DCM_EV_NACK));
	assert_true(dcm_event_type_safety(DCM_EV_ACK));
	assert_true(dcm_event_type_safety(DCM_EV_ERROR));
	assert_true(dcm_event_type_safety(DCM_EV_WATCHDOG));
	assert_false(dcm_event_type_safety(DCM_EV_SPECIAL));
	assert_false(dcm_event_type_safety(DCM_EV_OVERRUN));
	assert_false(dcm_event_type_safety(DCM_EV_CONFIG));
	assert_false(dcm_event_type_safety(DCM_EV_CALIBRATION));
	assert_false(dcm_event_type_safety(0));
	assert_false(dcm_event_type_safety(1000));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_error_event),
		cmocka_unit_test(test_safety_event),
		cmocka_unit_test(test_bad_events),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_follow_step),
		cmocka_unit_test(test_safety_types),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
