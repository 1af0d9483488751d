// SPDX-License-Identifier: GPL-2.0
/*
 * Configuration transactions of the netlink family "dcm": a description
 * staged and committed shows up in sysfs; every refusal (bad or hostile
 * messages, a failing step, a failing commit, a stranger's socket, an
 * unprivileged user) changes nothing of the running description.
 */
#include <sys/ioctl.h>
#include <sys/stat.h>
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
