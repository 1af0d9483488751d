// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: calibration and special commands without a kernel: the
 * answers' parsers (messages built in memory with libnl), the names of
 * stops and commands, dcmctl calibrate's arguments, and what dcmctl prints
 * of an answer, as text and as JSON.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <netlink/netlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/genl/genl.h>

#include "json.h"
#include "libdcm-private.h"
#include "libdcm.h"
#include "special.h"

#define FAMILY 0x1d

static struct nl_msg *new_msg(uint8_t cmd)
{
	struct nl_msg *msg = nlmsg_alloc();

	assert_non_null(msg);
	assert_non_null(genlmsg_put(msg, NL_AUTO_PORT, 7, FAMILY, 0, 0, cmd, DCM_GENL_VERSION));
	return msg;
}

/* A calibration answer without the attribute @omit (0: all of them). */
static struct nl_msg *calib_msg(int omit, uint32_t zero)
{
	struct nl_msg *msg = new_msg(DCM_CMD_CALIBRATE);

	assert_int_equal(0, nla_put_u32(msg, DCM_A_CAL_INDEX, 0));
	if (omit != DCM_A_CAL_JOINT)
		assert_int_equal(0, nla_put_string(msg, DCM_A_CAL_JOINT, "HeadYaw"));
	if (omit != DCM_A_CAL_STOP)
		assert_int_equal(0, nla_put_u8(msg, DCM_A_CAL_STOP, DCM_CALIB_MIN));
	if (omit != DCM_A_CAL_ZERO)
		assert_int_equal(0, nla_put_u32(msg, DCM_A_CAL_ZERO, zero));
	if (omit != DCM_A_CAL_PREVIOUS)
		assert_int_equal(0, nla_put_u32(msg, DCM_A_CAL_PREVIOUS, 0));
	if (omit != DCM_A_CAL_RAW)
		assert_int_equal(0, nla_put_u32(msg, DCM_A_CAL_RAW, 3830));
	return msg;
}

static void test_parse_calibrate(void **state)
{
	struct dcm_calib_result r;
	struct nl_msg *msg;

	(void)state;
	msg = calib_msg(0, 1094);
	assert_int_equal(0, dcm_nl_parse_calibrate(nlmsg_hdr(msg), &r));
	assert_string_equal("HeadYaw", r.joint);
	assert_int_equal(LIBDCM_CALIB_MIN, r.how);
	assert_int_equal(1094, r.zero);
	assert_int_equal(0, r.previous);
	assert_true(r.has_raw);
	assert_int_equal(3830, r.raw);
	nlmsg_free(msg);

	/* RAW is optional; the others are not; values stay in range. */
	msg = calib_msg(DCM_A_CAL_RAW, 7);
	assert_int_equal(0, dcm_nl_parse_calibrate(nlmsg_hdr(msg), &r));
	assert_false(r.has_raw);
	nlmsg_free(msg);
	msg = calib_msg(DCM_A_CAL_JOINT, 7);
	assert_int_equal(-EPROTO, dcm_nl_parse_calibrate(nlmsg_hdr(msg), &r));
	nlmsg_free(msg);
	msg = calib_msg(DCM_A_CAL_ZERO, 7);
	assert_int_equal(-EPROTO, dcm_nl_parse_calibrate(nlmsg_hdr(msg), &r));
	nlmsg_free(msg);
	msg = calib_msg(0, 4096);
	assert_int_equal(-EPROTO, dcm_nl_parse_calibrate(nlmsg_hdr(msg), &r));
	assert_non_null(strstr(dcm_last_error(), "range"));
	nlmsg_free(msg);
	/* Another command's message. */
	msg = new_msg(DCM_CMD_SPECIAL);
	assert_int_equal(-EPROTO, dcm_nl_parse_calibrate(nlmsg_hdr(msg), &r));
	nlmsg_free(msg);
	/* A u32 of 2 bytes. */
	msg = new_msg(DCM_CMD_CALIBRATE);
	assert_int_equal(0, nla_put_string(msg, DCM_A_CAL_JOINT, "HeadYaw"));
	assert_int_equal(0, nla_put_u8(msg, DCM_A_CAL_STOP, 0));
	assert_int_equal(0, nla_put_u16(msg, DCM_A_CAL_ZERO, 5));
	assert_int_equal(0, nla_put_u32(msg, DCM_A_CAL_PREVIOUS, 0));
	assert_int_equal(-EPROTO, dcm_nl_parse_calibrate(nlmsg_hdr(msg), &r));
	nlmsg_free(msg);
}

static void put_board(struct nl_msg *msg, const char *name, const char *state, uint64_t nack,
		      const char *version, bool no_ack)
{
	struct nlattr *nest = nla_nest_start(msg, DCM_A_SP_BOARD);

	assert_non_null(nest);
	if (name)
		assert_int_equal(0, nla_put_string(msg, DCM_A_BRD_NAME, name));
	assert_int_equal(0, nla_put_string(msg, DCM_A_BRD_TYPE, "MotorBoard"));
	assert_int_equal(0, nla_put_string(msg, DCM_A_BRD_BUS, "RS485-1"));
	assert_int_equal(0, nla_put_u32(msg, DCM_A_BRD_ADDRESS, 2));
	if (state) {
		assert_int_equal(0, nla_put_string(msg, DCM_A_BRD_STATE, state));
		if (!no_ack)
			assert_int_equal(0, nla_put_u64(msg, DCM_A_BRD_ACK, 1ULL << 40));
		assert_int_equal(0, nla_put_u64(msg, DCM_A_BRD_NACK, nack));
		assert_int_equal(0, nla_put_u32(msg, DCM_A_BRD_ERRORS, 1));
	}
	if (version)
		assert_int_equal(0, nla_put_string(msg, DCM_A_BRD_VERSION, version));
	nla_nest_end(msg, nest);
}

static struct nl_msg *special_msg(int command, const char *text)
{
	struct nl_msg *msg = new_msg(DCM_CMD_SPECIAL);

	assert_int_equal(0, nla_put_u32(msg, DCM_A_SP_INDEX, 0));
	assert_int_equal(0, nla_put_u32(msg, DCM_A_SP_COMMAND, command));
	if (text)
		assert_int_equal(0, nla_put_string(msg, DCM_A_SP_TEXT, text));
	return msg;
}

static void test_parse_special(void **state)
{
	struct dcm_special_result *r = calloc(1, sizeof(*r));
	struct nl_msg *msg;

	(void)state;
	assert_non_null(r);
	msg = special_msg(DCM_SPECIAL_DIAGNOSTIC, "2 devices: 1 ok, 0 error, 1 lost, 0 absent");
	put_board(msg, "HeadBoard", "ok", 0, NULL, false);
	put_board(msg, "LeftShoulderBoard", "lost", 12, NULL, false);
	assert_int_equal(0, nla_put_u32(msg, 99, 1));	/* a newer kernel's */
	assert_int_equal(0, dcm_nl_parse_special(nlmsg_hdr(msg), r));
	assert_int_equal(LIBDCM_SPECIAL_DIAGNOSTIC, r->command);
	assert_string_equal("2 devices: 1 ok, 0 error, 1 lost, 0 absent", r->text);
	assert_int_equal(2, r->n_boards);
	assert_string_equal("LeftShoulderBoard", r->boards[1].name);
	assert_string_equal("MotorBoard", r->boards[1].type);
	assert_string_equal("RS485-1", r->boards[1].bus);
	assert_int_equal(2, r->boards[1].address);
	assert_true(r->boards[1].has_state);
	assert_string_equal("lost", r->boards[1].state);
	assert_true(r->boards[1].ack == 1ULL << 40);
	assert_int_equal(12, r->boards[1].nack);
	assert_int_equal(1, r->boards[1].errors);
	nlmsg_free(msg);

	msg = special_msg(DCM_SPECIAL_VERSION, "versions of 1 of 1 boards read");
	put_board(msg, "HeadBoard", NULL, 0, "515", false);
	assert_int_equal(0, dcm_nl_parse_special(nlmsg_hdr(msg), r));
	assert_false(r->boards[0].has_state);
	assert_string_equal("515", r->boards[0].version);
	nlmsg_free(msg);

	/* No TEXT; a board without its name; a state without its counters. */
	msg = special_msg(DCM_SPECIAL_CHAIN, NULL);
	assert_int_equal(-EPROTO, dcm_nl_parse_special(nlmsg_hdr(msg), r));
	nlmsg_free(msg);
	msg = special_msg(DCM_SPECIAL_DIAGNOSTIC, "x");
	put_board(msg, NULL, "ok", 0, NULL, false);
	assert_int_equal(-EPROTO, dcm_nl_parse_special(nlmsg_hdr(msg), r));
	nlmsg_free(msg);
	msg = special_msg(DCM_SPECIAL_DIAGNOSTIC, "x");
	put_board(msg, "HeadBoard", "ok", 0, NULL, true);
	assert_int_equal(-EPROTO, dcm_nl_parse_special(nlmsg_hdr(msg), r));
	nlmsg_free(msg);
	free(r);
}

static void test_names(void **state)
{
	(void)state;
	assert_int_equal(LIBDCM_CALIB_HERE, dcm_calib_how_from_name("here"));
	assert_int_equal(LIBDCM_CALIB_MAX, dcm_calib_how_from_name("MAX"));
	assert_int_equal(-EINVAL, dcm_calib_how_from_name("middle"));
	assert_int_equal(-EINVAL, dcm_calib_how_from_name(NULL));
	assert_string_equal("set", dcm_calib_how_name(LIBDCM_CALIB_SET));
	assert_null(dcm_calib_how_name(4));
	assert_null(dcm_calib_how_name(-1));
	assert_int_equal(LIBDCM_SPECIAL_DIAGNOSTIC, dcm_special_from_name("Diagnostic"));
	assert_int_equal(LIBDCM_SPECIAL_CONFIG, dcm_special_from_name("config"));
	assert_int_equal(-EINVAL, dcm_special_from_name("reboot"));
	assert_string_equal("chain", dcm_special_name(LIBDCM_SPECIAL_CHAIN));
	assert_null(dcm_special_name(5));
	/* Without a handle, nothing is sent. */
	assert_int_equal(-EINVAL, dcm_nl_calibrate(NULL, 0, "HeadYaw", 0, 0, NULL));
	assert_int_equal(-EINVAL, dcm_nl_special(NULL, 0, 0, NULL));
}

static int parse(const char *line, struct dcmctl_calib_args *a, char *err)
{
	char buf[128], *argv[8];
	int argc = 0;

	snprintf(buf, sizeof(buf), "%s", line);
	for (char *t = strtok(buf, " "); t && argc < 8; t = strtok(NULL, " "))
		argv[argc++] = t;
	return dcmctl_parse_calibrate(argc, argv, a, err, 256);
}

static void test_calibrate_args(void **state)
{
	struct dcmctl_calib_args a;
	char err[256];

	(void)state;
	assert_int_equal(0, parse("HeadYaw", &a, err));
	assert_int_equal(LIBDCM_CALIB_HERE, a.how);
	assert_int_equal(0, parse("LElbowRoll/Position/Sensor max", &a, err));
	assert_int_equal(LIBDCM_CALIB_MAX, a.how);
	assert_int_equal(0, parse("HeadYaw set 4095", &a, err));
	assert_int_equal(LIBDCM_CALIB_SET, a.how);
	assert_int_equal(4095, a.zero);
	assert_int_equal(0, parse("HeadYaw set 0", &a, err));
	assert_int_equal(0, a.zero);
	assert_int_equal(-EINVAL, parse("", &a, err));
	assert_string_equal("calibrate: which joint?", err);
	assert_int_equal(-EINVAL, parse("HeadYaw set 4096", &a, err));
	assert_non_null(strstr(err, "0-4095"));
	assert_int_equal(-EINVAL, parse("HeadYaw set -1", &a, err));
	assert_int_equal(-EINVAL, parse("HeadYaw set 12x", &a, err));
	assert_int_equal(-EINVAL, parse("HeadYaw set", &a, err));
	assert_int_equal(-EINVAL, parse("HeadYaw set 1 2", &a, err));
	assert_int_equal(-EINVAL, parse("HeadYaw min 1", &a, err));
	assert_int_equal(-EINVAL, parse("HeadYaw middle", &a, err));
	assert_non_null(strstr(err, "'middle'"));
}

/* @fn's output to a string (free it). */
#define CAPTURE(buf, call) do {						\
	size_t len_;							\
	FILE *f_ = open_memstream(&(buf), &len_);			\
	assert_non_null(f_);						\
	call;								\
	fclose(f_);							\
} while (0)

static void test_output(void **state)
{
	struct dcm_calib_result c = { .joint = "HeadYaw", .how = LIBDCM_CALIB_MIN, .zero = 1094,
				      .previous = 0, .raw = 3830, .has_raw = true };
	struct dcm_special_result *r = calloc(1, sizeof(*r));
	struct json_writer w;
	char *out = NULL;

	(void)state;
	assert_non_null(r);
	CAPTURE(out, dcmctl_print_calib_text(f_, &c));
	assert_string_equal("HeadYaw: jointZeroPosition 1094 (was 0), MRE count 3830, min\n", out);
	free(out);
	CAPTURE(out, (json_init(&w, f_, false), json_begin_object(&w, NULL),
		      dcmctl_json_calib(&w, &c), json_end_object(&w), json_finish(&w)));
	assert_string_equal("{\"joint\":\"HeadYaw\",\"stop\":\"min\",\"zero\":1094,\"previous\":0,"
			    "\"raw\":3830}\n", out);
	free(out);

	r->command = LIBDCM_SPECIAL_DIAGNOSTIC;
	strcpy(r->text, "1 devices: 0 ok, 0 error, 1 lost, 0 absent");
	r->n_boards = 1;
	strcpy(r->boards[0].name, "HeadBoard");
	strcpy(r->boards[0].type, "MotorBoard");
	strcpy(r->boards[0].bus, "RS485-1");
	r->boards[0].address = 1;
	r->boards[0].has_state = true;
	strcpy(r->boards[0].state, "lost");
	r->boards[0].ack = 10;
	r->boards[0].nack = 3;
	CAPTURE(out, dcmctl_print_special_text(f_, r));
	assert_string_equal("diagnostic: 1 devices: 0 ok, 0 error, 1 lost, 0 absent\n"
			    "  HeadBoard           MotorBoard     RS485-1      1  lost   ack 10 nack 3 errors 0\n",
			    out);
	free(out);
	CAPTURE(out, (json_init(&w, f_, false), json_begin_object(&w, NULL),
		      dcmctl_json_special(&w, r), json_end_object(&w), json_finish(&w)));
	assert_string_equal("{\"command\":\"diagnostic\",\"text\":\"1 devices: 0 ok, 0 error, 1 lost, 0 absent\","
			    "\"boards\":[{\"name\":\"HeadBoard\",\"type\":\"MotorBoard\",\"bus\":\"RS485-1\","
			    "\"address\":1,\"state\":\"lost\",\"ack\":10,\"nack\":3,\"errors\":0}]}\n", out);
	free(out);

	/* Version: a board that did not answer is null. */
	r->command = LIBDCM_SPECIAL_VERSION;
	r->boards[0].has_state = false;
	CAPTURE(out, (json_init(&w, f_, false), json_begin_object(&w, NULL),
		      dcmctl_json_special(&w, r), json_end_object(&w), json_finish(&w)));
	assert_non_null(strstr(out, "\"version\":null"));
	free(out);
	strcpy(r->boards[0].version, "1.4.0");
	CAPTURE(out, dcmctl_print_special_text(f_, r));
	assert_non_null(strstr(out, "  1.4.0\n"));
	free(out);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_calibrate),
		cmocka_unit_test(test_parse_special),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_calibrate_args),
		cmocka_unit_test(test_output),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
