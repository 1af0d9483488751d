/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Netlink helpers of the dcm kselftests: a connection to the family "dcm"
 * that reads every answer to its ack and keeps the extended-ack message,
 * and the configuration requests.
 */
#ifndef _DCM_NL_H
#define _DCM_NL_H

#include <stdint.h>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "dcm_test.h"

struct conn {
	struct nl_sock *sk;
	int family;
	int acked;
	char msg[256];		/* extended ack message of the last error */
};

/*
 * A request is done at its ack: one nl_recvmsgs() may return after a reply
 * and before the ack, so read until the ack (or an error) comes.
 */
static inline int on_ack(struct nl_msg *msg, void *arg)
{
	(void)msg;
	((struct conn *)arg)->acked = 1;
	return NL_STOP;
}

static inline int wait_done(struct conn *c)
{
	int ret;

	c->acked = 0;
	do {
		ret = nl_recvmsgs_default(c->sk);
	} while (ret >= 0 && !c->acked);
	return ret < 0 ? ret : 0;
}

/* The extended ack's message of an error or ack into @buf ("" if none). */
static inline void err_msg(struct nlmsgerr *err, char *buf, size_t size)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)err - 1;
	struct nlattr *a;
	int len, rem;

	buf[0] = '\0';
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	len = nlh->nlmsg_len - NLMSG_HDRLEN - sizeof(*err);
	a = (struct nlattr *)((char *)err + sizeof(*err));
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
		len -= NLMSG_ALIGN(err->msg.nlmsg_len - NLMSG_HDRLEN);
		a = (struct nlattr *)((char *)a + NLMSG_ALIGN(err->msg.nlmsg_len - NLMSG_HDRLEN));
	}
	nla_for_each_attr(a, a, len, rem)
		if (nla_type(a) == NLMSGERR_ATTR_MSG)
			snprintf(buf, size, "%s", (char *)nla_data(a));
}

static inline int on_error(struct sockaddr_nl *nla, struct nlmsgerr *err, void *arg)
{
	struct conn *c = arg;

	(void)nla;
	err_msg(err, c->msg, sizeof(c->msg));
	return NL_STOP;
}

static inline int conn_open(struct conn *c)
{
	int one = 1;

	memset(c, 0, sizeof(*c));
	c->sk = nl_socket_alloc();
	if (!c->sk || genl_connect(c->sk))
		return -1;
	setsockopt(nl_socket_get_fd(c->sk), SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	c->family = genl_ctrl_resolve(c->sk, DCM_GENL_NAME);
	if (c->family < 0)
		return -1;
	nl_socket_modify_err_cb(c->sk, NL_CB_CUSTOM, on_error, c);
	nl_socket_modify_cb(c->sk, NL_CB_ACK, NL_CB_CUSTOM, on_ack, c);
	return 0;
}

static inline void conn_close(struct conn *c)
{
	nl_socket_free(c->sk);
	c->sk = NULL;
}

/* Attributes of one request; a NULL string or a negative number is left out. */
struct req {
	const char *name, *type, *bus, *device, *str;
	int64_t address, number, kind;
	int64_t num;
	int has_num;
	uint32_t den;		/* if set: DCM_A_CFG_VALUE_DEN */
	int raw_type;		/* if set: one extra raw attribute */
	const void *raw;
	int raw_len;
	int no_index;
};

static inline int send_req(struct conn *c, uint8_t cmd, const struct req *r)
{
	struct nl_msg *msg = nlmsg_alloc();
	int ret = -NLE_NOMEM;

	if (!msg)
		return ret;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, c->family, 0, 0, cmd, DCM_GENL_VERSION))
		goto out;
	if ((!r || !r->no_index) && nla_put_u32(msg, DCM_A_CFG_INDEX, 0))
		goto out;
	if (r) {
		if ((r->name && nla_put_string(msg, DCM_A_CFG_NAME, r->name)) ||
		    (r->type && nla_put_string(msg, DCM_A_CFG_TYPE, r->type)) ||
		    (r->bus && nla_put_string(msg, DCM_A_CFG_BUS, r->bus)) ||
		    (r->device && nla_put_string(msg, DCM_A_CFG_DEVICE, r->device)) ||
		    (r->str && nla_put_string(msg, DCM_A_CFG_VALUE_STRING, r->str)) ||
		    (r->address >= 0 && nla_put_u32(msg, DCM_A_CFG_ADDRESS, r->address)) ||
		    (r->number >= 0 && nla_put_u32(msg, DCM_A_CFG_NUMBER, r->number)) ||
		    (r->kind >= 0 && nla_put_u8(msg, DCM_A_CFG_KIND, r->kind)) ||
		    (r->has_num && nla_put_s64(msg, DCM_A_CFG_VALUE_INT, r->num)) ||
		    (r->den && nla_put_u32(msg, DCM_A_CFG_VALUE_DEN, r->den)) ||
		    (r->raw_type && nla_put(msg, r->raw_type, r->raw_len, r->raw)))
			goto out;
	}
	c->msg[0] = '\0';
	ret = nl_send_auto(c->sk, msg);
	if (ret >= 0)
		ret = wait_done(c);
out:
	nlmsg_free(msg);
	return ret;
}

#define NOATTR .address = -1, .number = -1, .kind = -1

static inline int begin(struct conn *c)
{
	return send_req(c, DCM_CMD_CONFIG_BEGIN, NULL);
}

static inline int commit(struct conn *c)
{
	return send_req(c, DCM_CMD_CONFIG_COMMIT, NULL);
}

static inline int add_device(struct conn *c, const char *name, const char *type, const char *bus,
		      int64_t address)
{
	struct req r = { NOATTR, .name = name, .type = type, .bus = bus };

	r.address = address;
	return send_req(c, DCM_CMD_CONFIG_ADD_DEVICE, &r);
}

static inline int add_sub(struct conn *c, const char *name, const char *type, const char *device,
		   int64_t number)
{
	struct req r = { NOATTR, .name = name, .type = type, .device = device };

	r.number = number;
	return send_req(c, DCM_CMD_CONFIG_ADD_SUBDEVICE, &r);
}

static inline int set_num(struct conn *c, const char *path, int kind, int64_t num)
{
	struct req r = { NOATTR, .name = path, .has_num = 1 };

	r.kind = kind;
	r.num = num;
	return send_req(c, DCM_CMD_CONFIG_SET_KEY, &r);
}

static inline int set_frac(struct conn *c, const char *path, int64_t num, uint32_t den)
{
	struct req r = { NOATTR, .name = path, .has_num = 1, .den = den };

	r.kind = DCM_KEY_KIND_FLOAT;
	r.num = num;
	return send_req(c, DCM_CMD_CONFIG_SET_KEY, &r);
}

static inline int set_str(struct conn *c, const char *path, const char *str)
{
	struct req r = { NOATTR, .name = path, .str = str };

	r.kind = DCM_KEY_KIND_STRING;
	return send_req(c, DCM_CMD_CONFIG_SET_KEY, &r);
}

/* A small robot: a chest board, a motor board with one joint, a LED. */
static inline int stage_small(struct conn *c, const char *body_id)
{
	return begin(c) ||
	       add_device(c, "ChestBoard", "ChestBoard", "I2C-chest", 32) ||
	       add_device(c, "HeadBoard", "MotorBoard", "RS485-1", 1) ||
	       add_sub(c, "HeadPitch/Position/Actuator", "Joint", "HeadBoard", 1) ||
	       add_sub(c, "HeadPitch/Position/Sensor", "JointPosition", "HeadBoard", 1) ||
	       add_sub(c, "ChestBoard/Led/Red/Actuator", "Led", "ChestBoard", 1) ||
	       set_num(c, "HeadPitch/Position/Actuator/Min", DCM_KEY_KIND_FLOAT, -672000) ||
	       set_num(c, "Device/SubDeviceList/HeadPitch/Position/Actuator/Max",
		       DCM_KEY_KIND_FLOAT, 514900) ||
	       set_num(c, "HeadPitch/Position/Actuator/Kp", DCM_KEY_KIND_INT, 12) ||
	       set_num(c, "HeadPitch/Position/Sensor/Min", DCM_KEY_KIND_FLOAT, -672000) ||
	       set_num(c, "HeadPitch/Position/Sensor/Max", DCM_KEY_KIND_FLOAT, 514900) ||
	       set_num(c, "HeadPitch/Position/Sensor/jointZeroPosition", DCM_KEY_KIND_INT, 2071) ||
	       set_num(c, "ChestBoard/Led/Red/Actuator/Min", DCM_KEY_KIND_FLOAT, 0) ||
	       set_num(c, "ChestBoard/Led/Red/Actuator/Max", DCM_KEY_KIND_FLOAT, 1000000) ||
	       set_num(c, "ChestBoard/Led/Red/Actuator/Gain", DCM_KEY_KIND_FLOAT, 3922) ||
	       set_str(c, "Device/DeviceList/ChestBoard/BodyId", body_id) ||
	       set_str(c, "RobotConfig/Body/Type", "NAO") ||
	       set_num(c, "RobotConfig/Body/Device/Legs/Version", DCM_KEY_KIND_INT, -1);
}

#endif /* _DCM_NL_H */
