// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: the GET_INFO reply parser, fed messages built in memory with
 * libnl (no kernel involved).
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

/* Good values */
#define V_INDEX		3
#define V_NAME		"dcm3"
#define V_DRIVER	"dcm_sim"
#define V_ABI		((1 << 16) | 7)
#define V_PERIOD	12000
#define V_TIME		0xfffffff0U
#define V_NDEV		21
#define V_NSUB		298
#define V_FLAGS		(DCM_INFO_F_SIMULATED | DCM_INFO_F_RUNNING)

static struct nl_msg *new_msg(uint8_t cmd)
{
	struct nl_msg *msg = nlmsg_alloc();

	assert_non_null(msg);
	assert_non_null(genlmsg_put(msg, NL_AUTO_PORT, 7, FAMILY, 0, 0, cmd,
				    DCM_GENL_VERSION));
	return msg;
}

/* Put every info attribute except @omit (0: none). */
static void put_info(struct nl_msg *msg, int omit)
{
	if (omit != DCM_A_INFO_INDEX)
		assert_int_equal(nla_put_u32(msg, DCM_A_INFO_INDEX, V_INDEX), 0);
	if (omit != DCM_A_INFO_NAME)
		assert_int_equal(nla_put_string(msg, DCM_A_INFO_NAME, V_NAME), 0);
	if (omit != DCM_A_INFO_DRIVER)
		assert_int_equal(nla_put_string(msg, DCM_A_INFO_DRIVER, V_DRIVER), 0);
	if (omit != DCM_A_INFO_ABI_VERSION)
		assert_int_equal(nla_put_u32(msg, DCM_A_INFO_ABI_VERSION, V_ABI), 0);
	if (omit != DCM_A_INFO_PERIOD_US)
		assert_int_equal(nla_put_u32(msg, DCM_A_INFO_PERIOD_US, V_PERIOD), 0);
	if (omit != DCM_A_INFO_TIME_MS)
		assert_int_equal(nla_put_u32(msg, DCM_A_INFO_TIME_MS, V_TIME), 0);
	if (omit != DCM_A_INFO_N_DEVICES)
		assert_int_equal(nla_put_u32(msg, DCM_A_INFO_N_DEVICES, V_NDEV), 0);
	if (omit != DCM_A_INFO_N_SUBDEVICES)
		assert_int_equal(nla_put_u32(msg, DCM_A_INFO_N_SUBDEVICES, V_NSUB), 0);
	if (omit != DCM_A_INFO_FLAGS)
		assert_int_equal(nla_put_u32(msg, DCM_A_INFO_FLAGS, V_FLAGS), 0);
}

static const struct dcm_info sentinel = {
	.index = 0xdead, .name = "untouched", .driver = "untouched",
};

/* Parse @msg, expect @want; on failure check *info was left alone. */
static void expect(struct nl_msg *msg, int want, struct dcm_info *info)
{
	int err;

	*info = sentinel;
	err = dcm_nl_parse_info(nlmsg_hdr(msg), info);
	if (err != want)
		fail_msg("parse returned %d, want %d (%s)", err, want,
			 dcm_last_error());
	if (want)
		assert_memory_equal(info, &sentinel, sizeof(*info));
	nlmsg_free(msg);
}

static void test_good(void **state)
{
	struct nl_msg *msg = new_msg(DCM_CMD_GET_INFO);
	struct dcm_info info;

	(void)state;
	put_info(msg, 0);
	expect(msg, 0, &info);
	assert_int_equal(info.index, V_INDEX);
	assert_string_equal(info.name, V_NAME);
	assert_string_equal(info.driver, V_DRIVER);
	assert_int_equal(info.abi_major, 1);
	assert_int_equal(info.abi_minor, 7);
	assert_int_equal(info.period_us, V_PERIOD);
	assert_int_equal(info.time_ms, V_TIME);
	assert_int_equal(info.n_devices, V_NDEV);
	assert_int_equal(info.n_subdevices, V_NSUB);
	assert_int_equal(info.flags, V_FLAGS);
}

static void test_unknown_attrs_ignored(void **state)
{
	struct nl_msg *msg = new_msg(DCM_CMD_GET_INFO);
	struct dcm_info info;
	uint64_t big = 1;

	(void)state;
	/* a newer ABI minor may add attributes, of any type */
	assert_int_equal(nla_put(msg, DCM_A_INFO_MAX + 1, sizeof(big), &big), 0);
	put_info(msg, 0);
	assert_int_equal(nla_put_string(msg, 200, "future"), 0);
	expect(msg, 0, &info);
	assert_int_equal(info.n_subdevices, V_NSUB);
}

static void test_longest_name(void **state)
{
	struct nl_msg *msg = new_msg(DCM_CMD_GET_INFO);
	struct dcm_info info;
	const char *n31 = "abcdefghijklmnopqrstuvwxyz01234";	/* 31 + NUL */

	(void)state;
	assert_int_equal(strlen(n31), DCM_NAME_LEN - 1);
	assert_int_equal(nla_put_string(msg, DCM_A_INFO_DRIVER, n31), 0);
	put_info(msg, DCM_A_INFO_DRIVER);
	expect(msg, 0, &info);
	assert_string_equal(info.driver, n31);
}

static void test_missing_each(void **state)
{
	struct dcm_info info;
	int a;

	(void)state;
	for (a = DCM_A_INFO_INDEX; a <= DCM_A_INFO_MAX; a++) {
		struct nl_msg *msg = new_msg(DCM_CMD_GET_INFO);

		put_info(msg, a);
		expect(msg, -EPROTO, &info);
		assert_non_null(strstr(dcm_last_error(), "missing"));
	}
	/* no attributes at all */
	expect(new_msg(DCM_CMD_GET_INFO), -EPROTO, &info);
	assert_non_null(strstr(dcm_last_error(), "DCM_A_INFO_INDEX missing"));
}

static void put_u32_len(struct nl_msg *msg, int type, int len)
{
	uint8_t buf[16] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	assert_int_equal(nla_put(msg, type, len, buf), 0);
}

static void test_wrong_length_u32(void **state)
{
	static const int u32_attrs[] = {
		DCM_A_INFO_INDEX, DCM_A_INFO_ABI_VERSION, DCM_A_INFO_PERIOD_US,
		DCM_A_INFO_TIME_MS, DCM_A_INFO_N_DEVICES,
		DCM_A_INFO_N_SUBDEVICES, DCM_A_INFO_FLAGS,
	};
	static const int lens[] = { 0, 1, 2, 3, 5, 8 };
	struct dcm_info info;
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(u32_attrs) / sizeof(u32_attrs[0]); i++) {
		for (j = 0; j < sizeof(lens) / sizeof(lens[0]); j++) {
			struct nl_msg *msg = new_msg(DCM_CMD_GET_INFO);

			put_u32_len(msg, u32_attrs[i], lens[j]);
			put_info(msg, u32_attrs[i]);
			expect(msg, -EPROTO, &info);
		}
	}
	/* a u64 where a u32 belongs */
	{
		struct nl_msg *msg = new_msg(DCM_CMD_GET_INFO);

		assert_int_equal(nla_put_u64(msg, DCM_A_INFO_FLAGS, 5), 0);
		put_info(msg, DCM_A_INFO_FLAGS);
		expect(msg, -EPROTO, &info);
	}
}

static void test_bad_strings(void **state)
{
	struct dcm_info info;
	struct nl_msg *msg;
	char long_name[DCM_NAME_LEN + 1];

	(void)state;
	/* not NUL-terminated */
	msg = new_msg(DCM_CMD_GET_INFO);
	assert_int_equal(nla_put(msg, DCM_A_INFO_NAME, 4, "dcm0"), 0);
	put_info(msg, DCM_A_INFO_NAME);
	expect(msg, -EPROTO, &info);

	/* empty payload */
	msg = new_msg(DCM_CMD_GET_INFO);
	assert_int_equal(nla_put(msg, DCM_A_INFO_DRIVER, 0, NULL), 0);
	put_info(msg, DCM_A_INFO_DRIVER);
	expect(msg, -EPROTO, &info);

	/* a u32 where a string belongs */
	msg = new_msg(DCM_CMD_GET_INFO);
	assert_int_equal(nla_put_u32(msg, DCM_A_INFO_NAME, 0x41424344), 0);
	put_info(msg, DCM_A_INFO_NAME);
	expect(msg, -EPROTO, &info);

	/* 32 characters + NUL: longer than DCM_NAME_LEN */
	memset(long_name, 'x', DCM_NAME_LEN);
	long_name[DCM_NAME_LEN] = '\0';
	msg = new_msg(DCM_CMD_GET_INFO);
	assert_int_equal(nla_put_string(msg, DCM_A_INFO_DRIVER, long_name), 0);
	put_info(msg, DCM_A_INFO_DRIVER);
	expect(msg, -EPROTO, &info);
}

static void test_truncated(void **state)
{
	struct dcm_info info;
	struct nl_msg *msg;
	struct nlmsghdr *nlh;
	unsigned int full, cut;

	(void)state;
	/* every shorter length of a good message must fail cleanly */
	msg = new_msg(DCM_CMD_GET_INFO);
	put_info(msg, 0);
	nlh = nlmsg_hdr(msg);
	full = nlh->nlmsg_len;
	for (cut = 0; cut < full; cut++) {
		nlh->nlmsg_len = cut;
		info = sentinel;
		if (dcm_nl_parse_info(nlh, &info) != -EPROTO)
			fail_msg("length %u of %u accepted", cut, full);
		assert_memory_equal(&info, &sentinel, sizeof(info));
	}
	nlh->nlmsg_len = full;
	expect(msg, 0, &info);
}

static void test_corrupt_attr_header(void **state)
{
	struct dcm_info info;
	struct nl_msg *msg;
	struct nlattr *nla;

	(void)state;
	/* an attribute whose nla_len is below the header size */
	msg = new_msg(DCM_CMD_GET_INFO);
	put_info(msg, 0);
	nla = nlmsg_find_attr(nlmsg_hdr(msg), GENL_HDRLEN, DCM_A_INFO_TIME_MS);
	assert_non_null(nla);
	nla->nla_len = 2;
	expect(msg, -EPROTO, &info);

	/* an attribute that claims to run past the message */
	msg = new_msg(DCM_CMD_GET_INFO);
	put_info(msg, 0);
	nla = nlmsg_find_attr(nlmsg_hdr(msg), GENL_HDRLEN, DCM_A_INFO_FLAGS);
	assert_non_null(nla);
	nla->nla_len = 64;
	expect(msg, -EPROTO, &info);
}

static void test_wrong_message(void **state)
{
	struct dcm_info info;
	struct nl_msg *msg;

	(void)state;
	/* another command */
	msg = new_msg(DCM_CMD_GET_INFO + 1);
	put_info(msg, 0);
	expect(msg, -EPROTO, &info);

	msg = new_msg(DCM_CMD_UNSPEC);
	put_info(msg, 0);
	expect(msg, -EPROTO, &info);

	/* a control message */
	msg = new_msg(DCM_CMD_GET_INFO);
	put_info(msg, 0);
	nlmsg_hdr(msg)->nlmsg_type = NLMSG_ERROR;
	expect(msg, -EPROTO, &info);

	msg = new_msg(DCM_CMD_GET_INFO);
	put_info(msg, 0);
	nlmsg_hdr(msg)->nlmsg_type = NLMSG_DONE;
	expect(msg, -EPROTO, &info);

	/* NULL arguments */
	assert_int_equal(dcm_nl_parse_info(NULL, &info), -EINVAL);
	msg = new_msg(DCM_CMD_GET_INFO);
	assert_int_equal(dcm_nl_parse_info(nlmsg_hdr(msg), NULL), -EINVAL);
	nlmsg_free(msg);
}

static void test_nle_mapping(void **state)
{
	(void)state;
	assert_int_equal(dcm_nle_to_errno(-NLE_OBJ_NOTFOUND), -ENOENT);
	assert_int_equal(dcm_nle_to_errno(NLE_OBJ_NOTFOUND), -ENOENT);
	assert_int_equal(dcm_nle_to_errno(-NLE_PERM), -EPERM);
	assert_int_equal(dcm_nle_to_errno(-NLE_NOACCESS), -EACCES);
	assert_int_equal(dcm_nle_to_errno(-NLE_AGAIN), -EAGAIN);
	assert_int_equal(dcm_nle_to_errno(-NLE_SEQ_MISMATCH), -EPROTO);
	assert_int_equal(dcm_nle_to_errno(-NLE_DUMP_INTR), -EINTR);
	assert_int_equal(dcm_nle_to_errno(0), 0);
	assert_int_equal(dcm_nle_to_errno(-9999), -EIO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_unknown_attrs_ignored),
		cmocka_unit_test(test_longest_name),
		cmocka_unit_test(test_missing_each),
		cmocka_unit_test(test_wrong_length_u32),
		cmocka_unit_test(test_bad_strings),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_corrupt_attr_header),
		cmocka_unit_test(test_wrong_message),
		cmocka_unit_test(test_nle_mapping),
	};

	return cmocka_run_group_tests_name("nl_parse", tests, NULL, NULL);
}
