// SPDX-License-Identifier: GPL-2.0
/*
 * Configuration transactions of the netlink family "dcm": a description
 * staged and committed shows up in sysfs; every refusal (bad or hostile
 * messages, a failing step, a failing commit, a stranger's socket, an
 * unprivileged user) changes nothing of the running description.
 */
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "dcm_nl.h"
#include "kselftest_harness.h"
#include "dcm_test.h"

#define SUB DCM_SYSFS "/SubDeviceList/"
#define DEV DCM_SYSFS "/DeviceList/"

static void expect_file(struct __test_metadata *_metadata, const char *path, const char *want)
{
	char buf[512];

	ASSERT_EQ(0, dcm_read_sysfs(path, buf, sizeof(buf))) TH_LOG("%s", path);
	EXPECT_STREQ(want, buf) TH_LOG("%s", path);
}

FIXTURE(cfg) {
	struct conn c;
};

FIXTURE_SETUP(cfg)
{
	ASSERT_EQ(0, conn_open(&self->c));
	ASSERT_EQ(0, stage_small(&self->c, "AL-BASE")) TH_LOG("%s", self->c.msg);
	ASSERT_EQ(0, commit(&self->c)) TH_LOG("%s", self->c.msg);
}

FIXTURE_TEARDOWN(cfg)
{
	conn_close(&self->c);
}

TEST_F(cfg, tree_shows_the_description)
{
	struct dcm_ioc_info info;
	int fd;

	expect_file(_metadata, SUB "HeadPitch/Position/Actuator/Min", "-0.672000");
	expect_file(_metadata, SUB "HeadPitch/Position/Actuator/Max", "0.514900");
	expect_file(_metadata, SUB "HeadPitch/Position/Actuator/Gain", "1.000000");
	expect_file(_metadata, SUB "HeadPitch/Position/Actuator/Offset", "0.000000");
	expect_file(_metadata, SUB "HeadPitch/Position/Actuator/Value", "0.000000");
	expect_file(_metadata, SUB "HeadPitch/Position/Actuator/Type", "Joint");
	expect_file(_metadata, SUB "HeadPitch/Position/Actuator/Device", "HeadBoard");
	expect_file(_metadata, SUB "HeadPitch/Position/Actuator/SubDeviceNumber", "1");
	expect_file(_metadata, SUB "HeadPitch/Position/Actuator/Kp", "12");
	ASSERT_EQ(0, access(SUB "HeadPitch/Position/Actuator/Ack", R_OK));
	expect_file(_metadata, SUB "HeadPitch/Position/Sensor/jointZeroPosition", "2071");
	expect_file(_metadata, SUB "ChestBoard/Led/Red/Actuator/Gain", "0.003922");
	expect_file(_metadata, DEV "ChestBoard/BodyId", "AL-BASE");
	expect_file(_metadata, DEV "ChestBoard/Type", "ChestBoard");
	expect_file(_metadata, DEV "HeadBoard/Bus", "RS485-1");
	expect_file(_metadata, DEV "HeadBoard/Address", "1");
	expect_file(_metadata, DCM_SYSFS "/RobotConfig/Body/Type", "NAO");
	expect_file(_metadata, DCM_SYSFS "/RobotConfig/Body/Device/Legs/Version", "-1");
	EXPECT_NE(0, access(DEV "HeadBoard/Value", F_OK));
	EXPECT_NE(0, access(SUB "HeadPitch/Position/Actuator/Bus", F_OK));
	EXPECT_NE(0, access(SUB "HeadPitch/Position/Sensor/Kp", F_OK));

	fd = open(DCM_DEV, O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, DCM_IOC_INFO, &info));
	close(fd);
	EXPECT_EQ(2, info.n_devices);
	EXPECT_EQ(3, info.n_subdevices);
	EXPECT_EQ(DCM_INFO_F_CONFIGURED, info.flags & DCM_INFO_F_CONFIGURED);
}

/* The running description's generation, from sysfs; 0 if unreadable. */
static unsigned long sysfs_generation(void)
{
	char buf[32];

	return dcm_read_sysfs(DCM_SYSFS "/generation", buf, sizeof(buf)) ? 0 :
	       strtoul(buf, NULL, 10);
}

/* A second commit replaces the first whole: one real swap. */
TEST_F(cfg, replace)
{
	long swaps = dcm_swaps(DCM_SYSFS);

	ASSERT_LE(0, swaps);
	ASSERT_EQ(0, begin(&self->c));
	ASSERT_EQ(0, add_device(&self->c, "Battery", "Battery", "I2C-1", 11));
	ASSERT_EQ(0, commit(&self->c)) TH_LOG("%s", self->c.msg);
	EXPECT_EQ(swaps + 1, dcm_swaps(DCM_SYSFS));
	expect_file(_metadata, DEV "Battery/Address", "11");
	EXPECT_NE(0, access(DEV "ChestBoard", F_OK));
	EXPECT_NE(0, access(SUB "HeadPitch", F_OK));
	EXPECT_NE(0, access(DCM_SYSFS "/RobotConfig/Body", F_OK));
}

/*
 * The same description committed again is no swap: description_swaps and
 * the generation stay. Another BodyId is one: both move.
 */
TEST_F(cfg, same_commit_is_no_swap)
{
	long swaps = dcm_swaps(DCM_SYSFS);
	unsigned long gen = sysfs_generation();

	ASSERT_LE(0, swaps);
	ASSERT_NE(0, gen);
	ASSERT_EQ(0, stage_small(&self->c, "AL-BASE")) TH_LOG("%s", self->c.msg);
	ASSERT_EQ(0, commit(&self->c)) TH_LOG("%s", self->c.msg);
	EXPECT_EQ(swaps, dcm_swaps(DCM_SYSFS));
	EXPECT_EQ(gen, sysfs_generation());

	ASSERT_EQ(0, stage_small(&self->c, "AL-OTHER")) TH_LOG("%s", self->c.msg);
	ASSERT_EQ(0, commit(&self->c)) TH_LOG("%s", self->c.msg);
	EXPECT_EQ(swaps + 1, dcm_swaps(DCM_SYSFS));
	EXPECT_NE(gen, sysfs_generation());
	expect_file(_metadata, DEV "ChestBoard/BodyId", "AL-OTHER");
}

/* Checks at commit: the running description stays. */
TEST_F(cfg, failed_commit_changes_nothing)
{
	long swaps = dcm_swaps(DCM_SYSFS);

	ASSERT_LE(0, swaps);
	ASSERT_EQ(0, begin(&self->c));
	ASSERT_EQ(0, add_device(&self->c, "Other", "FootBoard", "I2C-2", 3));
	ASSERT_EQ(0, add_sub(&self->c, "X/Sensor", "Switch", "Other", 1));
	ASSERT_EQ(0, set_num(&self->c, "X/Sensor/Min", DCM_KEY_KIND_FLOAT, 0));
	EXPECT_EQ(-NLE_INVAL, commit(&self->c));
	EXPECT_STREQ("subdevice X/Sensor has no Max", self->c.msg);
	expect_file(_metadata, DEV "ChestBoard/BodyId", "AL-BASE");
	EXPECT_NE(0, access(DEV "Other", F_OK));
	/* The transaction is gone with the failure. */
	EXPECT_EQ(-NLE_OBJ_NOTFOUND, commit(&self->c));

	ASSERT_EQ(0, begin(&self->c));
	ASSERT_EQ(0, add_device(&self->c, "A", "FootBoard", "b", 3));
	ASSERT_EQ(0, add_sub(&self->c, "A/B", "Switch", "A", 1));
	ASSERT_EQ(0, add_sub(&self->c, "A/B/Value/C", "Switch", "A", 2));
	ASSERT_EQ(0, set_num(&self->c, "A/B/Min", DCM_KEY_KIND_FLOAT, 0));
	ASSERT_EQ(0, set_num(&self->c, "A/B/Max", DCM_KEY_KIND_FLOAT, 0));
	ASSERT_EQ(0, set_num(&self->c, "A/B/Value/C/Min", DCM_KEY_KIND_FLOAT, 0));
	ASSERT_EQ(0, set_num(&self->c, "A/B/Value/C/Max", DCM_KEY_KIND_FLOAT, 0));
	/* "A/B/Value" is both a key file and a directory: no tree. */
	EXPECT_EQ(-NLE_INVAL, commit(&self->c));
	EXPECT_STREQ("subdevice A/B/Value/C goes through the key A/B/Value", self->c.msg);
	expect_file(_metadata, DEV "ChestBoard/BodyId", "AL-BASE");
	EXPECT_NE(0, access(DEV "A", F_OK));
	/* Neither failed commit swapped anything. */
	EXPECT_EQ(swaps, dcm_swaps(DCM_SYSFS));
}

/* A failing step voids the transaction; its message names what failed. */
TEST_F(cfg, failed_steps)
{
	static const struct {
		const char *name, *type, *device;
		int64_t number;
		int err;
		const char *msg;
	} subs[] = {
		{ "Y", "Lamp", "ChestBoard", 1, -NLE_INVAL, "subdevice Y: unknown subdevice type" },
		{ "Y", "Led", "Nowhere", 1, -NLE_OBJ_NOTFOUND,
		  "subdevice Y: the subdevice's device does not exist" },
		{ "Y", "Led", "ChestBoard", 1, -NLE_EXIST,
		  "subdevice Y: SubDeviceNumber taken by a subdevice of this type on this device" },
		{ "ChestBoard", "Led", "ChestBoard", 2, -NLE_EXIST,
		  "subdevice ChestBoard: duplicate name" },
		{ "a/../b", "Led", "ChestBoard", 2, -NLE_INVAL,
		  "subdevice a/../b: bad subdevice name: [A-Za-z0-9_.-] components joined by '/'" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(subs) / sizeof(subs[0]); i++) {
		ASSERT_EQ(0, begin(&self->c));
		ASSERT_EQ(0, add_device(&self->c, "ChestBoard", "ChestBoard", "I2C", 1));
		ASSERT_EQ(0, add_sub(&self->c, "Z", "Led", "ChestBoard", 1));
		EXPECT_EQ(subs[i].err, add_sub(&self->c, subs[i].name, subs[i].type,
					       subs[i].device, subs[i].number)) TH_LOG("%u", i);
		EXPECT_STREQ(subs[i].msg, self->c.msg);
		EXPECT_EQ(-NLE_OBJ_NOTFOUND, commit(&self->c));
	}

	ASSERT_EQ(0, begin(&self->c));
	EXPECT_EQ(-NLE_INVAL, add_device(&self->c, "X", "Toaster", "b", 1));
	EXPECT_STREQ("device X: unknown device type", self->c.msg);
	ASSERT_EQ(0, begin(&self->c));
	ASSERT_EQ(0, add_device(&self->c, "X", "FootBoard", "b", 1));
	EXPECT_EQ(-NLE_EXIST, add_device(&self->c, "X", "FootBoard", "b", 2));
	ASSERT_EQ(0, begin(&self->c));
	ASSERT_EQ(0, add_device(&self->c, "X", "MotorBoard", "b", 1));
	ASSERT_EQ(0, add_sub(&self->c, "S", "JointPosition", "X", 1));
	EXPECT_EQ(-NLE_RANGE, set_num(&self->c, "S/jointZeroPosition", DCM_KEY_KIND_INT, 4096));
	EXPECT_STREQ("key S/jointZeroPosition: the value is outside the key's range",
		     self->c.msg);
	ASSERT_EQ(0, begin(&self->c));
	ASSERT_EQ(0, add_device(&self->c, "X", "MotorBoard", "b", 1));
	EXPECT_EQ(-NLE_PERM, set_num(&self->c, "Device/DeviceList/X/Bid", DCM_KEY_KIND_INT, 1));
	ASSERT_EQ(0, begin(&self->c));
	ASSERT_EQ(0, add_device(&self->c, "X", "ChestBoard", "b", 1));
	EXPECT_EQ(-NLE_INVAL, set_str(&self->c, "Device/DeviceList/X/BodyId", "two\nlines"));
	ASSERT_EQ(0, begin(&self->c));
	EXPECT_EQ(-NLE_OBJ_NOTFOUND, set_num(&self->c, "Nothing/Value", DCM_KEY_KIND_FLOAT, 0));
	EXPECT_STREQ("key Nothing/Value: no such device, subdevice or key", self->c.msg);

	expect_file(_metadata, DEV "ChestBoard/BodyId", "AL-BASE");
	expect_file(_metadata, SUB "HeadPitch/Position/Sensor/jointZeroPosition", "2071");
}

/* Malformed and hostile messages are refused by the policy. */
TEST_F(cfg, bad_messages)
{
	char big[300];
	uint8_t u8v = 1;
	uint32_t u32v = 256;
	struct req r;

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ASSERT_EQ(0, begin(&self->c));

	/* Missing attributes. */
	EXPECT_EQ(-NLE_INVAL, add_device(&self->c, "X", "FootBoard", NULL, 1));
	EXPECT_EQ(-NLE_INVAL, add_device(&self->c, "X", "FootBoard", "b", -1));
	EXPECT_EQ(-NLE_INVAL, add_sub(&self->c, "X", "Led", "ChestBoard", -1));
	r = (struct req){ NOATTR, .name = "RobotConfig/A" };
	r.kind = DCM_KEY_KIND_INT;
	EXPECT_EQ(-NLE_INVAL, send_req(&self->c, DCM_CMD_CONFIG_SET_KEY, &r));
	r = (struct req){ NOATTR, .name = "RobotConfig/A", .has_num = 1 };
	r.kind = DCM_KEY_KIND_STRING;
	EXPECT_EQ(-NLE_INVAL, send_req(&self->c, DCM_CMD_CONFIG_SET_KEY, &r));
	r = (struct req){ NOATTR, .no_index = 1 };
	EXPECT_EQ(-NLE_INVAL, send_req(&self->c, DCM_CMD_CONFIG_BEGIN, &r));

	/* Out of range, oversized, wrong type. */
	EXPECT_EQ(-NLE_RANGE, add_device(&self->c, "X", "FootBoard", "b", 256));
	EXPECT_EQ(-NLE_RANGE, add_sub(&self->c, "X", "Led", "ChestBoard", 0));
	EXPECT_EQ(-NLE_INVAL, add_device(&self->c, big, "FootBoard", "b", 1));
	r = (struct req){ NOATTR, .name = "RobotConfig/A", .has_num = 1 };
	r.kind = 9;
	EXPECT_EQ(-NLE_RANGE, send_req(&self->c, DCM_CMD_CONFIG_SET_KEY, &r));
	r = (struct req){ NOATTR, .name = "X", .type = "FootBoard", .bus = "b",
			  .raw_type = DCM_A_CFG_ADDRESS, .raw = &u8v, .raw_len = 1 };
	EXPECT_EQ(-NLE_INVAL, send_req(&self->c, DCM_CMD_CONFIG_ADD_DEVICE, &r));
	/* A string attribute without its NUL. */
	r = (struct req){ NOATTR, .type = "FootBoard", .bus = "b", .raw_type = DCM_A_CFG_NAME,
			  .raw = "abc", .raw_len = 3 };
	r.address = 1;
	EXPECT_EQ(-NLE_INVAL, send_req(&self->c, DCM_CMD_CONFIG_ADD_DEVICE, &r));
	/* A denominator: only for floats, never 0. */
	r = (struct req){ NOATTR, .name = "RobotConfig/A", .has_num = 1, .den = 3 };
	r.kind = DCM_KEY_KIND_INT;
	EXPECT_EQ(-NLE_INVAL, send_req(&self->c, DCM_CMD_CONFIG_SET_KEY, &r));
	u32v = 0;
	r = (struct req){ NOATTR, .name = "RobotConfig/A", .has_num = 1,
			  .raw_type = DCM_A_CFG_VALUE_DEN, .raw = &u32v, .raw_len = 4 };
	r.kind = DCM_KEY_KIND_FLOAT;
	EXPECT_EQ(-NLE_RANGE, send_req(&self->c, DCM_CMD_CONFIG_SET_KEY, &r));
	u32v = 256;
	/* Answer-only attributes and unknown ones. */
	r = (struct req){ NOATTR, .raw_type = DCM_A_CFG_N_DEVICES, .raw = &u32v, .raw_len = 4 };
	EXPECT_GT(0, send_req(&self->c, DCM_CMD_CONFIG_BEGIN, &r));
	r = (struct req){ NOATTR, .raw_type = DCM_A_CFG_MAX + 3, .raw = &u32v, .raw_len = 4 };
	EXPECT_GT(0, send_req(&self->c, DCM_CMD_CONFIG_BEGIN, &r));

	expect_file(_metadata, DEV "ChestBoard/BodyId", "AL-BASE");
}

/*
 * Each operation takes the attributes its spec lists and no other, even of
 * its own attribute set; the refusal comes before the step runs, so the
 * transaction stays open and whole.
 */
TEST_F(cfg, attribute_not_of_the_operation)
{
	uint8_t kind = DCM_KEY_KIND_INT;
	struct req r;

	r = (struct req){ NOATTR, .name = "X" };
	EXPECT_EQ(-NLE_INVAL, send_req(&self->c, DCM_CMD_CONFIG_BEGIN, &r));
	ASSERT_EQ(0, begin(&self->c));
	r = (struct req){ NOATTR, .name = "X", .type = "FootBoard", .bus = "b",
			  .raw_type = DCM_A_CFG_KIND, .raw = &kind, .raw_len = 1 };
	r.address = 1;
	EXPECT_EQ(-NLE_INVAL, send_req(&self->c, DCM_CMD_CONFIG_ADD_DEVICE, &r));
	r = (struct req){ NOATTR, .name = "X", .type = "Led", .device = "ChestBoard", .bus = "b" };
	r.number = 1;
	EXPECT_EQ(-NLE_INVAL, send_req(&self->c, DCM_CMD_CONFIG_ADD_SUBDEVICE, &r));
	r = (struct req){ NOATTR, .name = "RobotConfig/A", .bus = "b", .has_num = 1 };
	r.kind = DCM_KEY_KIND_INT;
	EXPECT_EQ(-NLE_INVAL, send_req(&self->c, DCM_CMD_CONFIG_SET_KEY, &r));
	r = (struct req){ NOATTR, .name = "X" };
	EXPECT_EQ(-NLE_INVAL, send_req(&self->c, DCM_CMD_CONFIG_COMMIT, &r));
	EXPECT_EQ(-NLE_INVAL, send_req(&self->c, DCM_CMD_CONFIG_ABORT, &r));
	/* No step failed: the transaction is still open. */
	EXPECT_EQ(0, send_req(&self->c, DCM_CMD_CONFIG_ABORT, NULL));
	expect_file(_metadata, DEV "ChestBoard/BodyId", "AL-BASE");
}

TEST_F(cfg, no_transaction)
{
	EXPECT_EQ(-NLE_OBJ_NOTFOUND, add_device(&self->c, "X", "FootBoard", "b", 1));
	EXPECT_EQ(-NLE_OBJ_NOTFOUND, commit(&self->c));
	EXPECT_EQ(-NLE_OBJ_NOTFOUND, send_req(&self->c, DCM_CMD_CONFIG_ABORT, NULL));
	ASSERT_EQ(0, begin(&self->c));
	EXPECT_EQ(0, send_req(&self->c, DCM_CMD_CONFIG_ABORT, NULL));
	EXPECT_EQ(-NLE_OBJ_NOTFOUND, commit(&self->c));
	expect_file(_metadata, DEV "ChestBoard/BodyId", "AL-BASE");
}

/* One transaction per controller; it dies with its socket. */
TEST_F(cfg, one_owner)
{
	struct conn other;

	ASSERT_EQ(0, conn_open(&other));
	ASSERT_EQ(0, begin(&self->c));
	EXPECT_EQ(-NLE_BUSY, begin(&other));
	EXPECT_STREQ("another socket has a configuration transaction open", other.msg);
	EXPECT_EQ(-NLE_BUSY, commit(&other));
	conn_close(&self->c);
	EXPECT_EQ(0, stage_small(&other, "AL-OTHER"));
	EXPECT_EQ(0, commit(&other));
	expect_file(_metadata, DEV "ChestBoard/BodyId", "AL-OTHER");
	conn_close(&other);
	ASSERT_EQ(0, conn_open(&self->c));
}

/* ---- a request of the committing socket while its commit runs ---- */

#define STALL "/sys/kernel/debug/dcm/dcm0/stall_ms"
#define BEING_COMMITTED "another socket's configuration transaction is being committed"
#define NO_TXN "no configuration transaction open: send BEGIN first"

/* Requests as one buffer of netlink messages, sent by a thread of its own. */
struct sender {
	int fd;
	char buf[1024];
	size_t len;
	pid_t tid;		/* the thread, once it runs */
	int done;		/* its send() returned */
	ssize_t ret;
};

/* Append a config-* request (INDEX 0, and NAME TYPE BUS ADDRESS if @name). */
static int put_req(struct sender *s, int family, uint32_t seq, uint8_t cmd, const char *name)
{
	struct nl_msg *m = nlmsg_alloc();
	struct nlmsghdr *h;
	int ret = -1;

	if (!m)
		return -1;
	if (!genlmsg_put(m, 0, seq, family, 0, NLM_F_REQUEST | NLM_F_ACK, cmd, DCM_GENL_VERSION) ||
	    nla_put_u32(m, DCM_A_CFG_INDEX, 0))
		goto out;
	if (name && (nla_put_string(m, DCM_A_CFG_NAME, name) ||
		     nla_put_string(m, DCM_A_CFG_TYPE, "FootBoard") ||
		     nla_put_string(m, DCM_A_CFG_BUS, "I2C-chest") ||
		     nla_put_u32(m, DCM_A_CFG_ADDRESS, 0x40)))
		goto out;
	h = nlmsg_hdr(m);
	if (s->len + NLMSG_ALIGN(h->nlmsg_len) > sizeof(s->buf))
		goto out;
	memcpy(s->buf + s->len, h, h->nlmsg_len);
	s->len += NLMSG_ALIGN(h->nlmsg_len);
	ret = 0;
out:
	nlmsg_free(m);
	return ret;
}

static void *sender_run(void *arg)
{
	struct sender *s = arg;

	__atomic_store_n(&s->tid, (pid_t)syscall(SYS_gettid), __ATOMIC_SEQ_CST);
	s->ret = send(s->fd, s->buf, s->len, 0);
	__atomic_store_n(&s->done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

/*
 * Whether a thread of this process is in send() (the system call sendto):
 * a request of the family runs whole in its sender's system call, so its
 * answer is not there yet.
 */
static int in_send(pid_t tid)
{
	char path[64], buf[128];

	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", tid);
	return !dcm_read_sysfs(path, buf, sizeof(buf)) &&
	       (atol(buf) == SYS_sendto || atol(buf) == SYS_sendmsg);
}

static int sender_done(struct sender *s)
{
	return __atomic_load_n(&s->done, __ATOMIC_SEQ_CST);
}

/* What came back on a socket, in order: a reply, or an error or ack. */
struct answer {
	uint32_t seq;
	int reply;		/* a COMMIT reply (else NLMSG_ERROR) */
	int err;		/* NLMSG_ERROR: 0 (ack) or -errno */
	uint32_t n_devices;	/* reply: DCM_A_CFG_N_DEVICES */
	char msg[256];		/* NLMSG_ERROR: the extended ack's text */
};

/* Every answer queued on @fd (all are: their requests returned). */
static int read_answers(int fd, struct answer *a, int max)
{
	static char buf[65536];
	int n = 0;
	ssize_t len;

	while ((len = recv(fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0) {
		struct nlmsghdr *h = (struct nlmsghdr *)buf;
		int rest = len;

		for (; NLMSG_OK(h, rest) && n < max; h = NLMSG_NEXT(h, rest), n++) {
			struct answer *x = &a[n];

			memset(x, 0, sizeof(*x));
			x->seq = h->nlmsg_seq;
			if (h->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = nlmsg_data(h);

				x->err = e->error;
				err_msg(e, x->msg, sizeof(x->msg));
			} else {
				struct nlattr *tb[DCM_A_CFG_MAX + 1];

				x->reply = 1;
				if (!genlmsg_parse(h, 0, tb, DCM_A_CFG_MAX, NULL) &&
				    tb[DCM_A_CFG_N_DEVICES])
					x->n_devices = nla_get_u32(tb[DCM_A_CFG_N_DEVICES]);
			}
		}
	}
	return n;
}

/* The index of the first answer to @seq (a reply if @reply), or -1. */
static int answer_of(const struct answer *a, int n, uint32_t seq, int reply)
{
	int i;

	for (i = 0; i < n; i++)
		if (a[i].seq == seq && a[i].reply == reply)
			return i;
	return -1;
}

/* The commit in progress, as another socket sees it: its ABORT's refusal. */
static int being_committed(struct conn *probe)
{
	return send_req(probe, DCM_CMD_CONFIG_ABORT, NULL) == -NLE_BUSY &&
	       strstr(probe->msg, "being committed");
}

static int n_devices_running(void)
{
	struct dcm_ioc_info info;
	int fd = open(DCM_DEV, O_RDONLY), n = -1;

	if (fd >= 0 && !ioctl(fd, DCM_IOC_INFO, &info))
		n = info.n_devices;
	if (fd >= 0)
		close(fd);
	return n;
}

/*
 * A request of the committing socket itself, sent by another thread while
 * its commit reads the chest store, waits for the commit and is answered
 * after it, as after the transaction's end (userspace-api/dcm.rst,
 * "Netlink"): an ADD_DEVICE and a BEGIN pipelined in one message get
 * ENOENT ("no configuration transaction open") and a new transaction;
 * the description committed is the one staged, whole, without the device;
 * another socket got EBUSY meanwhile.
 *
 * The store is read by requests the cycle carries: the cycle held back
 * 1 s (its debugfs stall_ms, as a busy host stalls it) keeps the commit in
 * its store read. By the order of events, never the clock: another socket
 * sees the commit in progress (EBUSY, "being committed"), then the second
 * thread's send() starts, and the commit is still seen in progress
 * while that thread has not returned; the commit's answer is on the
 * socket before the second thread's. A host that stalls this process for
 * the whole commit proves nothing, so up to three tries.
 */
TEST_F_TIMEOUT(cfg, own_request_during_commit, 180)
{
	int tries, w, n, ic, ia, ib, raced = 0;
	char body[32];
	struct answer ans[16];
	struct sender a, b;
	struct conn own, probe;
	pthread_t ta, tb;
	long swaps;

	ASSERT_EQ(0, conn_open(&probe));
	for (tries = 0; tries < 3 && !raced; tries++) {
		const uint32_t sa = 1000 + tries * 10, sb = sa + 1;

		ASSERT_EQ(0, conn_open(&own));
		snprintf(body, sizeof(body), "AL-RACE%d", tries);
		ASSERT_EQ(0, stage_small(&own, body)) TH_LOG("%s", own.msg);
		swaps = dcm_swaps(DCM_SYSFS);
		ASSERT_LE(0, swaps);

		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		a.fd = b.fd = nl_socket_get_fd(own.sk);
		ASSERT_EQ(0, put_req(&a, own.family, sa, DCM_CMD_CONFIG_COMMIT, NULL));
		ASSERT_EQ(0, put_req(&b, own.family, sb, DCM_CMD_CONFIG_ADD_DEVICE, "Extra"));
		ASSERT_EQ(0, put_req(&b, own.family, sb + 1, DCM_CMD_CONFIG_BEGIN, NULL));

		ASSERT_EQ(0, dcm_write_sysfs(STALL, "1000"));
		ASSERT_EQ(0, pthread_create(&ta, NULL, sender_run, &a));
		for (w = 0; w < 1000 * dcm_test_scale() && !sender_done(&a); w++) {
			if (being_committed(&probe))
				break;
			usleep(10000);
		}
		if (!sender_done(&a) && strstr(probe.msg, "being committed")) {
			pid_t tid = 0;

			ASSERT_EQ(0, pthread_create(&tb, NULL, sender_run, &b));
			for (w = 0; w < 1000 * dcm_test_scale(); w++) {
				tid = __atomic_load_n(&b.tid, __ATOMIC_SEQ_CST);
				if ((tid && in_send(tid)) || sender_done(&b))
					break;
				usleep(10000);
			}
			raced = tid && in_send(tid) && being_committed(&probe) &&
				!sender_done(&b) && !sender_done(&a);
			/* What another socket is told meanwhile. */
			if (raced)
				EXPECT_STREQ(BEING_COMMITTED, probe.msg);
			ASSERT_EQ(0, pthread_join(tb, NULL));
		} else {
			/* The commit was over before it was seen: send them after it. */
			TH_LOG("try %d: the commit was not seen in progress (%s)", tries + 1,
			       probe.msg);
			sender_run(&b);
		}
		ASSERT_EQ(0, pthread_join(ta, NULL));
		EXPECT_EQ((ssize_t)a.len, a.ret);
		EXPECT_EQ((ssize_t)b.len, b.ret);
		TH_LOG("try %d: the second thread's requests were %s", tries + 1,
		       raced ? "sent while the commit ran" : "not seen waiting for the commit");

		/* Answered in order: the commit, then the other thread's, as after it. */
		n = read_answers(a.fd, ans, 16);
		ic = answer_of(ans, n, sa, 1);
		ia = answer_of(ans, n, sb, 0);
		ib = answer_of(ans, n, sb + 1, 0);
		ASSERT_LE(0, ic) TH_LOG("no commit reply among %d answers", n);
		ASSERT_LE(0, ia);
		ASSERT_LE(0, ib);
		EXPECT_EQ(2, ans[ic].n_devices);
		w = answer_of(ans, n, sa, 0);
		ASSERT_LE(0, w);
		EXPECT_EQ(0, ans[w].err) TH_LOG("%s", ans[w].msg);
		EXPECT_LT(ic, ia) TH_LOG("the step was answered before the commit");
		EXPECT_EQ(-ENOENT, ans[ia].err) TH_LOG("%s", ans[ia].msg);
		EXPECT_STREQ(NO_TXN, ans[ia].msg);
		EXPECT_EQ(0, ans[ib].err) TH_LOG("%s", ans[ib].msg);
		EXPECT_LT(ia, ib);

		/* The staged description, whole, without the device. */
		EXPECT_EQ(swaps + 1, dcm_swaps(DCM_SYSFS));
		expect_file(_metadata, DEV "ChestBoard/BodyId", body);
		EXPECT_NE(0, access(DEV "Extra", F_OK));
		EXPECT_EQ(2, n_devices_running());
		/* The BEGIN opened the socket's next transaction. */
		EXPECT_EQ(-NLE_BUSY, send_req(&probe, DCM_CMD_CONFIG_ABORT, NULL));
		EXPECT_STREQ("another socket has a configuration transaction open", probe.msg);
		EXPECT_EQ(0, send_req(&own, DCM_CMD_CONFIG_ABORT, NULL)) TH_LOG("%s", own.msg);
		conn_close(&own);
	}
	conn_close(&probe);
	EXPECT_TRUE(raced) TH_LOG("the second thread was never seen waiting for the commit");
}

/* Without CAP_NET_ADMIN: info yes, configuration no. */
TEST_F(cfg, unprivileged)
{
	int status;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct conn c;
		uint32_t idx = 0;
		struct nl_msg *msg;

		if (setgid(1000) || setuid(1000) || conn_open(&c))
			_exit(10);
		if (begin(&c) != -NLE_PERM)
			_exit(11);
		if (add_device(&c, "X", "FootBoard", "b", 1) != -NLE_PERM)
			_exit(12);
		msg = nlmsg_alloc();
		genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, c.family, 0, 0, DCM_CMD_GET_INFO,
			    DCM_GENL_VERSION);
		nla_put_u32(msg, DCM_A_INFO_INDEX, idx);
		if (nl_send_auto(c.sk, msg) < 0 || wait_done(&c))
			_exit(13);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	expect_file(_metadata, DEV "ChestBoard/BodyId", "AL-BASE");
}

/* Configuration keys: root may write them, checked; nobody else. */
TEST_F(cfg, sysfs_writes)
{
	const char *zero = SUB "HeadPitch/Position/Sensor/jointZeroPosition";
	const char *body = DEV "ChestBoard/BodyId";
	struct stat st;
	int fd, status;
	pid_t pid;

	ASSERT_EQ(0, stat(zero, &st));
	EXPECT_EQ(0644, st.st_mode & 0777);
	ASSERT_EQ(0, stat(SUB "HeadPitch/Position/Sensor/Min", &st));
	EXPECT_EQ(0444, st.st_mode & 0777);

	fd = open(zero, O_WRONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(5, write(fd, "2100\n", 5));
	EXPECT_EQ(-1, write(fd, "4096", 4));
	EXPECT_EQ(ERANGE, errno);
	EXPECT_EQ(-1, write(fd, "12a", 3));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
	expect_file(_metadata, zero, "2100");

	fd = open(body, O_WRONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(7, write(fd, "AL-NEW\n", 7));
	EXPECT_EQ(-1, write(fd, "a\tb", 3));
	close(fd);
	expect_file(_metadata, body, "AL-NEW");

	EXPECT_EQ(-1, open(SUB "HeadPitch/Position/Actuator/Min", O_WRONLY));
	EXPECT_EQ(-1, open(DCM_SYSFS "/RobotConfig/Body/Type", O_WRONLY));

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		char buf[32];

		if (setgid(1000) || setuid(1000))
			_exit(10);
		if (open(zero, O_WRONLY) >= 0 || errno != EACCES)
			_exit(11);
		if (dcm_read_sysfs(zero, buf, sizeof(buf)) || strcmp(buf, "2100"))
			_exit(12);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* A file of a replaced description answers an error, never stale memory. */
TEST_F(cfg, open_file_across_replace)
{
	char buf[64];
	long swaps;
	int fd;

	fd = open(DEV "ChestBoard/BodyId", O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_LT(0, pread(fd, buf, sizeof(buf), 0));
	swaps = dcm_swaps(DCM_SYSFS);
	ASSERT_EQ(0, stage_small(&self->c, "AL-NEXT"));
	ASSERT_EQ(0, commit(&self->c));
	EXPECT_EQ(swaps + 1, dcm_swaps(DCM_SYSFS));
	EXPECT_EQ(-1, pread(fd, buf, sizeof(buf), 0));
	EXPECT_EQ(ENODEV, errno);
	close(fd);
	expect_file(_metadata, DEV "ChestBoard/BodyId", "AL-NEXT");
}

DCM_HARNESS_MAIN
