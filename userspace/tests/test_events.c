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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_error_event),
		cmocka_unit_test(test_safety_event),
		cmocka_unit_test(test_bad_events),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
