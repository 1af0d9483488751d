// SPDX-License-Identifier: GPL-2.0
/*
 * The generic netlink family "dcm": GET_INFO as do and dump, agreement with
 * the ioctl, and rejection of malformed requests.
 */
#include <sys/ioctl.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "dcm_test.h"
#include "kselftest_harness.h"

struct reply {
	int count;
	int acked;
	struct nlattr *tb[DCM_A_INFO_MAX + 1];
	uint32_t index, abi, period, flags;
	char name[DCM_NAME_LEN], driver[DCM_NAME_LEN];
};

static int on_info(struct nl_msg *msg, void *arg)
{
	static struct nla_policy pol[DCM_A_INFO_MAX + 1] = {
		[DCM_A_INFO_INDEX] = { .type = NLA_U32 },
		[DCM_A_INFO_NAME] = { .type = NLA_STRING },
		[DCM_A_INFO_DRIVER] = { .type = NLA_STRING },
		[DCM_A_INFO_ABI_VERSION] = { .type = NLA_U32 },
		[DCM_A_INFO_PERIOD_US] = { .type = NLA_U32 },
		[DCM_A_INFO_FLAGS] = { .type = NLA_U32 },
	};
	struct reply *r = arg;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, r->tb, DCM_A_INFO_MAX, pol))
		return NL_STOP;
	if (!r->tb[DCM_A_INFO_INDEX] || !r->tb[DCM_A_INFO_NAME] || !r->tb[DCM_A_INFO_DRIVER] ||
	    !r->tb[DCM_A_INFO_ABI_VERSION] || !r->tb[DCM_A_INFO_PERIOD_US] ||
	    !r->tb[DCM_A_INFO_TIME_MS] || !r->tb[DCM_A_INFO_N_DEVICES] ||
	    !r->tb[DCM_A_INFO_N_SUBDEVICES] || !r->tb[DCM_A_INFO_FLAGS])
		return NL_STOP;
	r->index = nla_get_u32(r->tb[DCM_A_INFO_INDEX]);
	r->abi = nla_get_u32(r->tb[DCM_A_INFO_ABI_VERSION]);
	r->period = nla_get_u32(r->tb[DCM_A_INFO_PERIOD_US]);
	r->flags = nla_get_u32(r->tb[DCM_A_INFO_FLAGS]);
	nla_strlcpy(r->name, r->tb[DCM_A_INFO_NAME], sizeof(r->name));
	nla_strlcpy(r->driver, r->tb[DCM_A_INFO_DRIVER], sizeof(r->driver));
	r->count++;
	return NL_OK;
}

static int on_ack(struct nl_msg *msg, void *arg)
{
	(void)msg;
	((struct reply *)arg)->acked = 1;
	return NL_STOP;
}

FIXTURE(nl) {
	struct nl_sock *sk;
	int family;
	struct reply r;
};

FIXTURE_SETUP(nl)
{
	memset(&self->r, 0, sizeof(self->r));
	self->sk = nl_socket_alloc();
	ASSERT_NE(NULL, self->sk);
	ASSERT_EQ(0, genl_connect(self->sk));
	self->family = genl_ctrl_resolve(self->sk, DCM_GENL_NAME);
	ASSERT_LT(0, self->family) TH_LOG("family %s not found", DCM_GENL_NAME);
	nl_socket_modify_cb(self->sk, NL_CB_VALID, NL_CB_CUSTOM, on_info, &self->r);
	nl_socket_modify_cb(self->sk, NL_CB_ACK, NL_CB_CUSTOM, on_ack, &self->r);
}

FIXTURE_TEARDOWN(nl)
{
	nl_socket_free(self->sk);
}

/*
 * Send GET_INFO with the given flags (attr_type < 0 puts no attribute) and
 * read until its ack or end of dump: one nl_recvmsgs() may stop after a
 * reply that came without its ack.
 */
static int request(struct nl_sock *sk, struct reply *r, int family, int flags, int attr_type,
		   const void *data, int len)
{
	struct nl_msg *msg = nlmsg_alloc();
	int ret;

	if (!msg)
		return -NLE_NOMEM;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, flags,
			 DCM_CMD_GET_INFO, DCM_GENL_VERSION)) {
		nlmsg_free(msg);
		return -NLE_NOMEM;
	}
	if (attr_type >= 0 && nla_put(msg, attr_type, len, data)) {
		nlmsg_free(msg);
		return -NLE_NOMEM;
	}
	ret = nl_send_auto(sk, msg);
	nlmsg_free(msg);
	if (ret < 0)
		return ret;
	r->acked = 0;
	do {
		ret = nl_recvmsgs_default(sk);
	} while (ret >= 0 && !r->acked && !(flags & NLM_F_DUMP));
	return ret < 0 ? ret : 0;
}

TEST_F(nl, get_info_matches_ioctl)
{
	struct dcm_ioc_info info;
	uint32_t idx = 0;
	int fd;

	ASSERT_EQ(0, request(self->sk, &self->r, self->family, 0, DCM_A_INFO_INDEX, &idx, 4));
	ASSERT_EQ(1, self->r.count);

	fd = open(DCM_DEV, O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, DCM_IOC_INFO, &info));
	close(fd);

	EXPECT_EQ(info.index, self->r.index);
	EXPECT_STREQ(info.name, self->r.name);
	EXPECT_STREQ(info.driver, self->r.driver);
	EXPECT_EQ(info.abi_version, self->r.abi);
	EXPECT_EQ(info.period_us, self->r.period);
	EXPECT_EQ(info.flags, self->r.flags);
}

TEST_F(nl, dump_lists_dcm0)
{
	ASSERT_EQ(0, request(self->sk, &self->r, self->family, NLM_F_DUMP, -1, NULL, 0));
	ASSERT_EQ(1, self->r.count);
	EXPECT_STREQ("dcm0", self->r.name);
	EXPECT_STREQ("dcm-sim-body", self->r.driver);
}

TEST_F(nl, missing_index)
{
	EXPECT_EQ(-NLE_INVAL, request(self->sk, &self->r, self->family, 0, -1, NULL, 0));
	EXPECT_EQ(0, self->r.count);
}

TEST_F(nl, no_such_controller)
{
	uint32_t idx = 7;

	EXPECT_EQ(-NLE_NODEV, request(self->sk, &self->r, self->family, 0, DCM_A_INFO_INDEX, &idx, 4));
	EXPECT_EQ(0, self->r.count);
}

TEST_F(nl, index_out_of_range)
{
	uint32_t idx = 0xffffffff;

	EXPECT_GT(0, request(self->sk, &self->r, self->family, 0, DCM_A_INFO_INDEX, &idx, 4));
	EXPECT_EQ(0, self->r.count);
}

TEST_F(nl, wrong_attribute_length)
{
	uint8_t one = 0;
	uint64_t eight = 0;

	EXPECT_EQ(-NLE_INVAL, request(self->sk, &self->r, self->family, 0, DCM_A_INFO_INDEX, &one, 1));
	EXPECT_EQ(-NLE_INVAL, request(self->sk, &self->r, self->family, 0, DCM_A_INFO_INDEX, &eight, 8));
	EXPECT_EQ(0, self->r.count);
}

TEST_F(nl, unknown_attribute)
{
	uint32_t v = 0;

	EXPECT_GT(0, request(self->sk, &self->r, self->family, 0, DCM_A_INFO_MAX + 5, &v, 4));
	EXPECT_EQ(0, self->r.count);
}

TEST_F(nl, unknown_command)
{
	struct nl_msg *msg = nlmsg_alloc();

	ASSERT_NE(NULL, msg);
	ASSERT_NE(NULL, genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, self->family, 0, 0,
				    DCM_CMD_MAX + 10, DCM_GENL_VERSION));
	ASSERT_LE(0, nl_send_auto(self->sk, msg));
	nlmsg_free(msg);
	EXPECT_EQ(-NLE_OPNOTSUPP, nl_recvmsgs_default(self->sk));
}

TEST_F(nl, events_group_exists)
{
	EXPECT_LT(0, genl_ctrl_resolve_grp(self->sk, DCM_GENL_NAME, DCM_GENL_MCGRP_EVENTS));
}

DCM_HARNESS_MAIN
