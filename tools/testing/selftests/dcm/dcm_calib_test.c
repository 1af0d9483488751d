// SPDX-License-Identifier: GPL-2.0
/*
 * Joint calibration and the special commands, against the simulated body
 * with the shipped description (its body file without calibration, so that
 * every joint starts uncalibrated): a joint pushed against its stop is
 * calibrated to the simulator's true zero, the key and the chest board's
 * store take it, the joint accepts hardness, an event tells; a store that
 * cannot be written changes nothing; a corrupt store leaves the
 * description's calibration, and says so; the special commands do what
 * they say; bad requests get clean errors. Each test leaves the store
 * erased and the shipped description loaded.
 */
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "dcm_nl.h"
#include "kselftest_harness.h"
#include "dcm_test.h"

#define SUB	DCM_SYSFS "/SubDeviceList/"
#define DEV	DCM_SYSFS "/DeviceList/"
#define SIM	"/sys/kernel/debug/dcm_sim/body0/"
#define DATA	"/usr/share/dcm/"

/* ---- answers and events ---- */

struct answer {
	int err;			/* the kernel's errno, or 0 */
	int got;			/* replies parsed */
	char joint[DCM_MAX_NAME_LEN];
	uint32_t zero, previous, raw;
	uint8_t stop;
	uint32_t command;
	char text[DCM_MAX_STRING_LEN];
	int n_boards;
	char name[DCM_MAX_DEVICES][48], state[DCM_MAX_DEVICES][16];
	char version[DCM_MAX_DEVICES][40];
	uint64_t nack[DCM_MAX_DEVICES];
};

struct tconn {
	struct conn c;
	struct answer *a;
};

static int on_err(struct sockaddr_nl *nla, struct nlmsgerr *err, void *arg)
{
	struct tconn *t = arg;

	t->a->err = err->error;
	return on_error(nla, err, &t->c);
}

static void parse_board(struct answer *a, struct nlattr *nest)
{
	struct nlattr *tb[DCM_A_BRD_MAX + 1];
	int i = a->n_boards;

	if (i >= DCM_MAX_DEVICES || nla_parse_nested(tb, DCM_A_BRD_MAX, nest, NULL) ||
	    !tb[DCM_A_BRD_NAME])
		return;
	nla_strlcpy(a->name[i], tb[DCM_A_BRD_NAME], sizeof(a->name[i]));
	a->state[i][0] = a->version[i][0] = '\0';
	if (tb[DCM_A_BRD_STATE])
		nla_strlcpy(a->state[i], tb[DCM_A_BRD_STATE], sizeof(a->state[i]));
	if (tb[DCM_A_BRD_VERSION])
		nla_strlcpy(a->version[i], tb[DCM_A_BRD_VERSION], sizeof(a->version[i]));
	a->nack[i] = tb[DCM_A_BRD_NACK] ? nla_get_u64(tb[DCM_A_BRD_NACK]) : 0;
	a->n_boards++;
}

static int on_reply(struct nl_msg *msg, void *arg)
{
	struct answer *a = ((struct tconn *)arg)->a;
	struct genlmsghdr *g = genlmsg_hdr(nlmsg_hdr(msg));
	struct nlattr *nla;
	int rem;

	a->got++;
	nla_for_each_attr(nla, genlmsg_attrdata(g, 0), genlmsg_attrlen(g, 0), rem) {
		if (g->cmd == DCM_CMD_CALIBRATE) {
			switch (nla_type(nla)) {
			case DCM_A_CAL_JOINT:
				nla_strlcpy(a->joint, nla, sizeof(a->joint));
				break;
			case DCM_A_CAL_STOP:
				a->stop = nla_get_u8(nla);
				break;
			case DCM_A_CAL_ZERO:
				a->zero = nla_get_u32(nla);
				break;
			case DCM_A_CAL_PREVIOUS:
				a->previous = nla_get_u32(nla);
				break;
			case DCM_A_CAL_RAW:
				a->raw = nla_get_u32(nla);
				break;
			}
		} else if (g->cmd == DCM_CMD_SPECIAL) {
			switch (nla_type(nla)) {
			case DCM_A_SP_COMMAND:
				a->command = nla_get_u32(nla);
				break;
			case DCM_A_SP_TEXT:
				nla_strlcpy(a->text, nla, sizeof(a->text));
				break;
			case DCM_A_SP_BOARD:
				parse_board(a, nla);
				break;
			}
		}
	}
	return NL_OK;
}

static int topen(struct tconn *t, struct answer *a)
{
	t->a = a;
	if (conn_open(&t->c))
		return -1;
	nl_socket_modify_err_cb(t->c.sk, NL_CB_CUSTOM, on_err, t);
	nl_socket_modify_cb(t->c.sk, NL_CB_VALID, NL_CB_CUSTOM, on_reply, t);
	return 0;
}

/* Send a request of @cmd with @attrs already in @msg; the answer in t->a. */
static int tsend(struct tconn *t, struct nl_msg *msg)
{
	int ret;

	memset(t->a, 0, sizeof(*t->a));
	t->c.msg[0] = '\0';
	ret = nl_send_auto(t->c.sk, msg);
	nlmsg_free(msg);
	if (ret < 0)
		return ret;
	wait_done(&t->c);
	return t->a->err;
}

static struct nl_msg *new_req(struct tconn *t, uint8_t cmd)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (msg && !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, t->c.family, 0, 0, cmd,
				DCM_GENL_VERSION)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return msg;
}

/* CALIBRATE: @stop < 0 leaves STOP out, @zero < 0 ZERO, @joint NULL JOINT. */
static int calibrate(struct tconn *t, const char *joint, int stop, int64_t zero)
{
	struct nl_msg *msg = new_req(t, DCM_CMD_CALIBRATE);

	if (!msg || nla_put_u32(msg, DCM_A_CAL_INDEX, 0) ||
	    (joint && nla_put_string(msg, DCM_A_CAL_JOINT, joint)) ||
	    (stop >= 0 && nla_put_u8(msg, DCM_A_CAL_STOP, stop)) ||
	    (zero >= 0 && nla_put_u32(msg, DCM_A_CAL_ZERO, zero)))
		return -ENOMEM;
	return tsend(t, msg);
}

static int special(struct tconn *t, uint32_t command)
{
	struct nl_msg *msg = new_req(t, DCM_CMD_SPECIAL);

	if (!msg || nla_put_u32(msg, DCM_A_SP_INDEX, 0) ||
	    nla_put_u32(msg, DCM_A_SP_COMMAND, command))
		return -ENOMEM;
	return tsend(t, msg);
}

struct event {
	uint32_t type, code;
	int64_t value;
	char device[DCM_MAX_NAME_LEN], text[128];
};

struct events {
	struct nl_sock *sk;
	int n;
	struct event ev[256];
};

static int on_event(struct nl_msg *msg, void *arg)
{
	struct events *e = arg;
	struct nlattr *tb[DCM_A_EV_MAX + 1];
	struct event *ev;

	if (e->n >= (int)(sizeof(e->ev) / sizeof(e->ev[0])) ||
	    genlmsg_parse(nlmsg_hdr(msg), 0, tb, DCM_A_EV_MAX, NULL) || !tb[DCM_A_EV_TYPE])
		return NL_OK;
	/*
	 * A loaded machine overruns many cycles while a description loads; no
	 * test here waits for those, and they would crowd out the others.
	 */
	if (nla_get_u32(tb[DCM_A_EV_TYPE]) == DCM_EV_OVERRUN)
		return NL_OK;
	ev = &e->ev[e->n++];
	memset(ev, 0, sizeof(*ev));
	ev->type = nla_get_u32(tb[DCM_A_EV_TYPE]);
	if (tb[DCM_A_EV_CODE])
		ev->code = nla_get_u32(tb[DCM_A_EV_CODE]);
	if (tb[DCM_A_EV_VALUE])
		ev->value = (int64_t)nla_get_u64(tb[DCM_A_EV_VALUE]);
	if (tb[DCM_A_EV_DEVICE])
		nla_strlcpy(ev->device, tb[DCM_A_EV_DEVICE], sizeof(ev->device));
	if (tb[DCM_A_EV_TEXT])
		nla_strlcpy(ev->text, tb[DCM_A_EV_TEXT], sizeof(ev->text));
	return NL_OK;
}

static int events_open(struct events *e)
{
	int grp, size = 4 << 20;

	memset(e, 0, sizeof(*e));
	e->sk = nl_socket_alloc();
	if (!e->sk || genl_connect(e->sk))
		return -1;
	grp = genl_ctrl_resolve_grp(e->sk, DCM_GENL_NAME, DCM_GENL_MCGRP_EVENTS);
	if (grp < 0)
		return -1;
	nl_socket_disable_seq_check(e->sk);
	/* Room for the bursts of overrun events of a loaded machine. */
	setsockopt(nl_socket_get_fd(e->sk), SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size));
	nl_socket_modify_cb(e->sk, NL_CB_VALID, NL_CB_CUSTOM, on_event, e);
	return nl_socket_add_membership(e->sk, grp) || nl_socket_set_nonblocking(e->sk);
}

/*
 * The first event of @type (whose text holds @text, if given) within 2 s,
 * times dcm_test_scale().
 */
static struct event *event_wait(struct events *e, uint32_t type, const char *text)
{
	struct pollfd p = { .fd = nl_socket_get_fd(e->sk), .events = POLLIN };
	int i, tries;

	for (tries = 0; tries < 40 * dcm_test_scale(); tries++) {
		for (i = 0; i < e->n; i++)
			if (e->ev[i].type == type && (!text || strstr(e->ev[i].text, text)))
				return &e->ev[i];
		if (poll(&p, 1, 50) > 0)
			nl_recvmsgs_default(e->sk);
	}
	return NULL;
}

/* ---- the world ---- */

static int read_int(const char *path)
{
	char buf[64];

	return dcm_read_sysfs(path, buf, sizeof(buf)) ? -1000000 : atoi(buf);
}

static double read_double(const char *path)
{
	char buf[64];

	return dcm_read_sysfs(path, buf, sizeof(buf)) ? -1e9 : atof(buf);
}

static double dabs(double x)
{
	return x < 0 ? -x : x;
}

static void read_str(const char *path, char *buf, size_t len)
{
	if (dcm_read_sysfs(path, buf, len))
		buf[0] = '\0';
}

static void sleep_ms(int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* An erased store, as a new chest board has. */
static int erase_store(void)
{
	return dcm_sh("dd if=/dev/zero bs=1024 count=1 2>/dev/null | tr '\\000' '\\377' >"
		      SIM "chest/store");
}

static int load_uncalibrated(void)
{
	return dcm_sh("dcmd -1 -b " DATA "variants/body-uncalibrated.xml >/dev/null 2>&1");
}

static int load_shipped(void)
{
	return dcm_sh("dcmd -1 >/dev/null 2>&1");
}

FIXTURE(cal) {
	struct tconn t;
	struct answer a;
	struct events e;
};

FIXTURE_SETUP(cal)
{
	ASSERT_EQ(0, access(SIM "chest/store", W_OK)) TH_LOG("no dcm_sim chest store");
	ASSERT_EQ(0, erase_store());
	ASSERT_EQ(0, dcm_sh("echo 0 >" SIM "rs485-1/silent; echo 0 >" SIM "rs485-2/silent;"
			    "echo 0 >" SIM "chest/store_cut"));
	ASSERT_EQ(0, load_uncalibrated());
	ASSERT_EQ(0, topen(&self->t, &self->a));
	ASSERT_EQ(0, events_open(&self->e));
}

FIXTURE_TEARDOWN(cal)
{
	dcm_sh("echo 0 >" SIM "rs485-1/silent; echo 0 >" SIM "rs485-2/silent;"
	       "echo 0 >" SIM "chest/store_cut");
	dcm_sh("for i in 1 2 3 4; do echo 0 >" SIM "rs485-$i/delay_us; done");
	erase_store();
	load_shipped();
	if (self->t.c.sk)
		conn_close(&self->t.c);
	nl_socket_free(self->e.sk);
}

/*
 * Against its stop, the joint's zero is the simulator's true zero; the key
 * takes it, the joint accepts hardness, an event tells.
 */
TEST_F(cal, min_stop_finds_the_true_zero)
{
	int tz = read_int(SIM "joints/HeadYaw/true_zero");
	struct event *ev;

	ASSERT_LT(0, tz);
	EXPECT_EQ(0, read_int(SUB "HeadYaw/Position/Sensor/jointZeroPosition"));
	ASSERT_EQ(0, dcm_write_sysfs(SUB "HeadYaw/Hardness/Actuator/Value", "1"));
	ASSERT_EQ(0, dcm_write_sysfs(SIM "joints/HeadYaw/push", "min"));
	/* Uncalibrated: held at 0, once the cycle took the command. */
	EXPECT_EQ(0, dcm_hardness_taken(SUB "HeadYaw/Hardness/Actuator/Value"));

	ASSERT_EQ(0, calibrate(&self->t, "HeadYaw", DCM_CALIB_MIN, -1)) TH_LOG("%s", self->t.c.msg);
	EXPECT_EQ(1, self->a.got);
	EXPECT_STREQ("HeadYaw", self->a.joint);
	EXPECT_EQ(DCM_CALIB_MIN, self->a.stop);
	EXPECT_GE(1, abs((int)self->a.zero - tz)) TH_LOG("zero %u, true %d", self->a.zero, tz);
	EXPECT_EQ(0, self->a.previous);
	EXPECT_EQ(read_int(SIM "joints/HeadYaw/mre"), (int)self->a.raw);
	EXPECT_EQ((int)self->a.zero, read_int(SUB "HeadYaw/Position/Sensor/jointZeroPosition"));

	/* Calibrated, the joint takes the hardness, and reads its stop's angle. */
	EXPECT_EQ(1, dcm_hardness_sent(SUB "HeadYaw/Hardness/Actuator/Value", 1));
	EXPECT_GT(0.003, dabs(read_double(SUB "HeadYaw/Position/Sensor/Value") -
			      read_double(SUB "HeadYaw/Position/Sensor/Min")));
	ev = event_wait(&self->e, DCM_EV_CALIBRATION, NULL);
	ASSERT_NE(NULL, ev);
	EXPECT_STREQ("HeadYaw", ev->device);
	EXPECT_EQ((int64_t)self->a.zero, ev->value);
	EXPECT_EQ(DCM_CALIB_MIN, ev->code);
	/* Another joint is still held. */
	ASSERT_EQ(0, dcm_write_sysfs(SUB "HeadPitch/Hardness/Actuator/Value", "1"));
	EXPECT_EQ(0, dcm_hardness_taken(SUB "HeadPitch/Hardness/Actuator/Value"));
}

/* The other stop, the joint at 0, and a subdevice's full name. */
TEST_F(cal, max_stop_here_and_subdevice_names)
{
	int tz;

	tz = read_int(SIM "joints/LElbowRoll/true_zero");
	ASSERT_EQ(0, dcm_write_sysfs(SIM "joints/LElbowRoll/push", "max"));
	sleep_ms(100);
	ASSERT_EQ(0, calibrate(&self->t, "Device/SubDeviceList/LElbowRoll/Position/Actuator",
			       DCM_CALIB_MAX, -1)) TH_LOG("%s", self->t.c.msg);
	EXPECT_STREQ("LElbowRoll", self->a.joint);
	EXPECT_GE(1, abs((int)self->a.zero - tz)) TH_LOG("zero %u, true %d", self->a.zero, tz);

	tz = read_int(SIM "joints/RKneePitch/true_zero");
	ASSERT_EQ(0, dcm_write_sysfs(SIM "joints/RKneePitch/position_mrad", "0"));
	sleep_ms(100);
	ASSERT_EQ(0, calibrate(&self->t, "RKneePitch/Position/Sensor", DCM_CALIB_HERE, -1))
		TH_LOG("%s", self->t.c.msg);
	EXPECT_STREQ("RKneePitch", self->a.joint);
	EXPECT_GE(1, abs((int)self->a.zero - tz)) TH_LOG("zero %u, true %d", self->a.zero, tz);
	EXPECT_EQ((int)self->a.zero, read_int(SUB "RKneePitch/Position/Sensor/jointZeroPosition"));
}

/* SET gives the zero; 0 clears it and the joint is held soft again. */
TEST_F(cal, set_and_clear)
{
	ASSERT_EQ(0, calibrate(&self->t, "HeadPitch", DCM_CALIB_SET, 4095));
	EXPECT_EQ(4095, self->a.zero);
	EXPECT_EQ(4095, read_int(SUB "HeadPitch/Position/Sensor/jointZeroPosition"));
	ASSERT_EQ(0, dcm_write_sysfs(SUB "HeadPitch/Hardness/Actuator/Value", "0.5"));
	EXPECT_EQ(0.5, dcm_hardness_sent(SUB "HeadPitch/Hardness/Actuator/Value", 0.5));

	ASSERT_EQ(0, calibrate(&self->t, "HeadPitch", DCM_CALIB_SET, 0));
	EXPECT_EQ(0, self->a.zero);
	EXPECT_EQ(4095, self->a.previous);
	EXPECT_EQ(0, read_int(SUB "HeadPitch/Position/Sensor/jointZeroPosition"));
	/* Uncalibrated again: held at 0 (0.5 sent until then). */
	EXPECT_EQ(0, dcm_hardness_taken(SUB "HeadPitch/Hardness/Actuator/Value"));
}

/*
 * The store holds the calibration: a commit of the description takes it
 * back, with the body's names; a corrupt store leaves the description's
 * and says so. Each load is of a description other than the running one
 * (a commit equal to it would keep it, and show the values it already
 * had): four real swaps, counted.
 */
TEST_F(cal, store_outlives_the_description)
{
	struct event *ev;
	long swaps;
	char s[64];

	ASSERT_EQ(0, calibrate(&self->t, "RHipPitch", DCM_CALIB_SET, 1234));
	swaps = dcm_swaps(DCM_SYSFS);
	ASSERT_LE(0, swaps);

	/* The shipped description's own calibration is replaced. */
	ASSERT_EQ(0, load_shipped());
	EXPECT_EQ(1234, read_int(SUB "RHipPitch/Position/Sensor/jointZeroPosition"));
	EXPECT_EQ(450, read_int(SUB "RHipRoll/Position/Sensor/jointZeroPosition"));
	EXPECT_NE(NULL, event_wait(&self->e, DCM_EV_CONFIG, "1 joint calibrations"));

	/* The body without calibration takes it, and the body's names, back. */
	self->e.n = 0;
	ASSERT_EQ(0, load_uncalibrated());
	EXPECT_EQ(1234, read_int(SUB "RHipPitch/Position/Sensor/jointZeroPosition"));
	EXPECT_EQ(0, read_int(SUB "RHipRoll/Position/Sensor/jointZeroPosition"));
	read_str(DEV "ChestBoard/BodyNickName", s, sizeof(s));
	EXPECT_STREQ("Nao01", s);
	ev = event_wait(&self->e, DCM_EV_CONFIG, "1 joint calibrations");
	EXPECT_NE(NULL, ev);

	/* A byte of page 3 changes: the CRC fails, the description's values stay. */
	ASSERT_EQ(0, dcm_sh("printf 'x' | dd of=" SIM "chest/store bs=1 seek=100 conv=notrunc "
			    "2>/dev/null"));
	ASSERT_EQ(0, load_shipped());
	EXPECT_EQ(3737, read_int(SUB "RHipPitch/Position/Sensor/jointZeroPosition"));
	ev = event_wait(&self->e, DCM_EV_ERROR, "corrupt");
	ASSERT_NE(NULL, ev);
	EXPECT_STREQ("ChestBoard", ev->device);
	EXPECT_EQ(EBADMSG, ev->code);

	/* Erased: empty, said as such; the description's own zero. */
	ASSERT_EQ(0, erase_store());
	ASSERT_EQ(0, load_uncalibrated());
	EXPECT_EQ(0, read_int(SUB "RHipPitch/Position/Sensor/jointZeroPosition"));
	EXPECT_NE(NULL, event_wait(&self->e, DCM_EV_CONFIG, "empty"));
	EXPECT_EQ(swaps + 4, dcm_swaps(DCM_SYSFS)) TH_LOG("a load swapped nothing");
}

/* A store that cannot be written: -EIO, and the key is not changed. */
TEST_F(cal, store_write_failure_changes_nothing)
{
	int commits = read_int(SIM "chest/commits");

	ASSERT_EQ(0, dcm_write_sysfs(SIM "chest/store_cut", "1"));
	EXPECT_EQ(-EIO, calibrate(&self->t, "HeadPitch", DCM_CALIB_SET, 2000));
	EXPECT_STREQ("the chest board's store cannot be written", self->t.c.msg);
	EXPECT_EQ(0, read_int(SUB "HeadPitch/Position/Sensor/jointZeroPosition"));
	EXPECT_EQ(commits + 1, read_int(SIM "chest/commits"));
	EXPECT_NE(NULL, event_wait(&self->e, DCM_EV_ERROR, "writing page"));
	/* Cut halfway, the record fails its CRC: the description keeps its own. */
	ASSERT_EQ(0, load_shipped());
	EXPECT_EQ(1258, read_int(SUB "HeadPitch/Position/Sensor/jointZeroPosition"));
	EXPECT_NE(NULL, event_wait(&self->e, DCM_EV_ERROR, "corrupt"));
}

/* A board that does not answer: -EIO, nothing changed. */
TEST_F(cal, lost_board)
{
	int commits = read_int(SIM "chest/commits");

	ASSERT_EQ(0, dcm_write_sysfs(SIM "rs485-1/silent", "1"));
	sleep_ms(50);
	EXPECT_EQ(-EIO, calibrate(&self->t, "HeadYaw", DCM_CALIB_MIN, -1));
	EXPECT_STREQ("the joint's motor board does not answer", self->t.c.msg);
	EXPECT_EQ(-EIO, calibrate(&self->t, "HeadYaw", DCM_CALIB_SET, 100));
	EXPECT_EQ(0, read_int(SUB "HeadYaw/Position/Sensor/jointZeroPosition"));
	EXPECT_EQ(commits, read_int(SIM "chest/commits"));
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * A board's wait holds its own controller only, not generic netlink: while
 * a calibration waits for a silent board (200 ms), another family's request
 * (the controller's family lookup) is answered. A request held behind the
 * wait cannot end before the wait does, 190 ms at least after the child
 * asked; one answered before that was not held. A host that stalls this
 * process for the whole wait proves nothing either way, so up to five
 * tries; at once (under 100 ms) is a bound of timing.
 */
TEST_F(cal, board_wait_blocks_no_other_request)
{
	long t0, t1, start = 0, took = 0;
	struct nl_sock *sk;
	int p[2], status, tries, before = 0;
	pid_t pid;

	ASSERT_EQ(0, dcm_write_sysfs(SIM "rs485-1/silent", "1"));
	sleep_ms(50);
	for (tries = 0; tries < 5 && !before; tries++) {
		ASSERT_EQ(0, pipe(p));
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid) {
			long at = now_ms();
			int ret;

			close(p[0]);
			if (write(p[1], &at, sizeof(at)) != sizeof(at))
				_exit(2);
			ret = calibrate(&self->t, "HeadYaw", DCM_CALIB_MIN, -1);
			_exit(ret == -EIO && now_ms() - at >= 190 ? 0 : 1);
		}
		close(p[1]);
		ASSERT_EQ(sizeof(start), read(p[0], &start, sizeof(start)));
		close(p[0]);
		sleep_ms(30);
		sk = nl_socket_alloc();
		ASSERT_NE(NULL, sk);
		ASSERT_EQ(0, genl_connect(sk));
		t0 = now_ms();
		EXPECT_LT(0, genl_ctrl_resolve(sk, DCM_GENL_NAME));
		t1 = now_ms();
		took = t1 - t0;
		nl_socket_free(sk);
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
			TH_LOG("the calibration did not wait for the silent board");
		before = t1 < start + 190;
		TH_LOG("try %d: the request took %ld ms, answered %ld ms after the calibration began",
		       tries + 1, took, t1 - start);
	}
	EXPECT_TRUE(before) TH_LOG("the request was answered only after the board's wait");
	DCM_TIMING_EXPECT(took < 100, "a generic netlink request took %ld ms", took);
}

/* A special command sent from a thread of its own, on its own socket. */
struct slow_special {
	struct tconn t;
	struct answer a;
	pid_t tid;		/* the thread, once it runs */
	int ret;
	int done;		/* its request returned */
};

static void *slow_special_run(void *arg)
{
	struct slow_special *s = arg;
	int ret;

	__atomic_store_n(&s->tid, (pid_t)syscall(SYS_gettid), __ATOMIC_SEQ_CST);
	ret = special(&s->t, DCM_SPECIAL_VERSION);
	s->ret = ret;
	__atomic_store_n(&s->done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

/*
 * Whether a thread of this process is in sendmsg(): a request of the
 * family runs whole in its sender's sendmsg(), so its request has not
 * returned.
 */
static int in_sendmsg(pid_t tid)
{
	char path[64], buf[128];

	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", tid);
	return !dcm_read_sysfs(path, buf, sizeof(buf)) && atol(buf) == SYS_sendmsg;
}

/*
 * A special command that waits for slow buses holds up no configuration
 * transaction of its controller: with every RS485 bus 5 ms slower a
 * transfer (rs485-N/delay_us), VERSION reads each board's version in
 * requests the cycle carries, a second or more in all; while its request is in
 * the kernel, another socket's BEGIN, a step and ABORT are answered, and
 * only then does VERSION return. By the order of events: the transaction
 * is done while the special command's sendmsg() has not returned. A host
 * that stalls this process for the whole command proves nothing, so up to
 * three tries.
 */
TEST_F_TIMEOUT(cal, slow_special_holds_up_no_transaction, 180)
{
	int i, w, tries, before = 0;
	struct slow_special s;
	char path[64];
	pthread_t th;
	struct conn c;
	pid_t tid;

	for (i = 1; i <= 4; i++) {
		snprintf(path, sizeof(path), SIM "rs485-%d/delay_us", i);
		ASSERT_EQ(0, dcm_write_sysfs(path, "5000"));
	}
	for (tries = 0; tries < 3 && !before; tries++) {
		memset(&s, 0, sizeof(s));
		ASSERT_EQ(0, topen(&s.t, &s.a));
		ASSERT_EQ(0, pthread_create(&th, NULL, slow_special_run, &s));
		tid = 0;
		for (w = 0; w < 1000 * dcm_test_scale(); w++) {
			tid = __atomic_load_n(&s.tid, __ATOMIC_SEQ_CST);
			if ((tid && in_sendmsg(tid)) || __atomic_load_n(&s.done, __ATOMIC_SEQ_CST))
				break;
			sleep_ms(10);
		}
		ASSERT_NE(0, tid);
		ASSERT_EQ(0, conn_open(&c));
		EXPECT_EQ(0, begin(&c)) TH_LOG("%s", c.msg);
		EXPECT_EQ(0, add_device(&c, "ChestBoard", "ChestBoard", "I2C-chest", 32))
			TH_LOG("%s", c.msg);
		EXPECT_EQ(0, send_req(&c, DCM_CMD_CONFIG_ABORT, NULL)) TH_LOG("%s", c.msg);
		before = in_sendmsg(tid) && !__atomic_load_n(&s.done, __ATOMIC_SEQ_CST);
		conn_close(&c);
		ASSERT_EQ(0, pthread_join(th, NULL));
		EXPECT_EQ(0, s.ret) TH_LOG("%s", s.t.c.msg);
		EXPECT_NE(NULL, strstr(s.a.text, "versions of")) TH_LOG("%s", s.a.text);
		conn_close(&s.t.c);
		TH_LOG("try %d: the transaction was %s", tries + 1,
		       before ? "answered while the special command ran" :
		       "answered after the special command");
	}
	for (i = 1; i <= 4; i++) {
		snprintf(path, sizeof(path), SIM "rs485-%d/delay_us", i);
		EXPECT_EQ(0, dcm_write_sysfs(path, "0"));
	}
	EXPECT_TRUE(before) TH_LOG("the transaction waited for the special command");
}

TEST_F(cal, bad_requests)
{
	EXPECT_EQ(-ENOENT, calibrate(&self->t, "NoSuchJoint", DCM_CALIB_MIN, -1));
	EXPECT_STREQ("no such joint in the robot description", self->t.c.msg);
	EXPECT_EQ(-ENOENT, calibrate(&self->t, "HeadYaw/Position/Nothing", DCM_CALIB_MIN, -1));
	/* Not an MRE joint of a motor board. */
	EXPECT_EQ(-EINVAL, calibrate(&self->t, "ChestBoard/Led/Red/Actuator", DCM_CALIB_SET, 1));
	EXPECT_EQ(-EINVAL, calibrate(&self->t, "LHand", DCM_CALIB_MIN, -1));
	EXPECT_EQ(-ENOENT, calibrate(&self->t, "Device/DeviceList/HeadBoard", DCM_CALIB_MIN, -1));
	/* A stop that does not exist, a zero out of range, ZERO where it does not go. */
	EXPECT_EQ(-ERANGE, calibrate(&self->t, "HeadYaw", DCM_CALIB_SET + 1, -1));
	EXPECT_EQ(-ERANGE, calibrate(&self->t, "HeadYaw", DCM_CALIB_SET, 4096));
	EXPECT_EQ(-EINVAL, calibrate(&self->t, "HeadYaw", DCM_CALIB_SET, -1));
	EXPECT_STREQ("STOP set needs ZERO", self->t.c.msg);
	EXPECT_EQ(-EINVAL, calibrate(&self->t, "HeadYaw", DCM_CALIB_MIN, 5));
	EXPECT_EQ(-EINVAL, calibrate(&self->t, NULL, DCM_CALIB_MIN, -1));
	EXPECT_EQ(-EINVAL, calibrate(&self->t, "HeadYaw", -1, -1));
	EXPECT_EQ(0, read_int(SUB "HeadYaw/Position/Sensor/jointZeroPosition"));
	/* A special command that does not exist. */
	EXPECT_EQ(-ERANGE, special(&self->t, DCM_SPECIAL_MAX + 1));
}

/*
 * Without CAP_NET_ADMIN: no calibration and no special command that acts;
 * the diagnostic, which only reads, is every user's.
 */
TEST_F(cal, unprivileged)
{
	int status;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct answer a;
		struct tconn t;

		if (setgid(1000) || setuid(1000) || topen(&t, &a))
			_exit(10);
		if (calibrate(&t, "HeadYaw", DCM_CALIB_SET, 100) != -EPERM)
			_exit(11);
		if (special(&t, DCM_SPECIAL_CHAIN) != -EPERM)
			_exit(12);
		if (special(&t, DCM_SPECIAL_CONFIG) != -EPERM)
			_exit(13);
		if (special(&t, DCM_SPECIAL_DIAGNOSTIC) != 0)
			_exit(14);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(0, read_int(SUB "HeadYaw/Position/Sensor/jointZeroPosition"));
}

/* ---- special commands ---- */

static int board(const struct answer *a, const char *name)
{
	int i;

	for (i = 0; i < a->n_boards; i++)
		if (!strcmp(a->name[i], name))
			return i;
	return -1;
}

static int n_devices(void)
{
	int fd = open(DCM_DEV, O_RDONLY), n = -1;
	struct dcm_ioc_info info;

	if (fd >= 0 && !ioctl(fd, DCM_IOC_INFO, &info))
		n = info.n_devices;
	if (fd >= 0)
		close(fd);
	return n;
}

/*
 * Chain: a silent board is not chained, ChainResult says so; back, the
 * chain's continuation finds it, and a new chain has it too.
 */
TEST_F(cal, special_chain)
{
	char cr[DCM_MAX_STRING_LEN];
	int i;

	ASSERT_EQ(0, dcm_write_sysfs(SIM "rs485-1/silent", "0x10"));
	ASSERT_EQ(0, special(&self->t, DCM_SPECIAL_CHAIN)) TH_LOG("%s", self->t.c.msg);
	EXPECT_EQ(DCM_SPECIAL_CHAIN, self->a.command);
	EXPECT_NE(NULL, strstr(self->a.text, "RS485-1 4/5")) TH_LOG("%s", self->a.text);
	read_str(DEV "ChestBoard/ChainResult", cr, sizeof(cr));
	EXPECT_STREQ(self->a.text, cr);
	EXPECT_NE(NULL, event_wait(&self->e, DCM_EV_SPECIAL, "chain: "));

	/* Back, it is found by the chain's continuation, with no reset. */
	ASSERT_EQ(0, dcm_write_sysfs(SIM "rs485-1/silent", "0"));
	for (i = 0; i < 50; i++) {
		read_str(DEV "ChestBoard/ChainResult", cr, sizeof(cr));
		if (strstr(cr, "RS485-1 5/5"))
			break;
		usleep(100000);
	}
	EXPECT_NE(NULL, strstr(cr, "RS485-1 5/5")) TH_LOG("after 5 s: %s", cr);

	ASSERT_EQ(0, special(&self->t, DCM_SPECIAL_CHAIN));
	EXPECT_STREQ("RS485-1 5/5; RS485-2 4/4; RS485-3 5/5; RS485-4 5/5", self->a.text);
	read_str(DEV "ChestBoard/ChainResult", cr, sizeof(cr));
	EXPECT_STREQ(self->a.text, cr);
}

/* Diagnostic: every device, a silent one lost; Reset clears the counters. */
TEST_F(cal, special_diagnostic_and_reset)
{
	int i, lost;

	ASSERT_EQ(0, dcm_write_sysfs(SIM "rs485-2/silent", "1"));
	sleep_ms(150);
	ASSERT_EQ(0, special(&self->t, DCM_SPECIAL_DIAGNOSTIC)) TH_LOG("%s", self->t.c.msg);
	EXPECT_EQ(n_devices(), self->a.n_boards);
	lost = board(&self->a, "RightShoulderBoard");
	ASSERT_LE(0, lost);
	EXPECT_STREQ("lost", self->a.state[lost]);
	EXPECT_LT(0, self->a.nack[lost]);
	for (i = 0; i < self->a.n_boards; i++)
		if (i != lost)
			EXPECT_STREQ("ok", self->a.state[i]) TH_LOG("%s", self->a.name[i]);
	EXPECT_NE(NULL, strstr(self->a.text, "1 lost")) TH_LOG("%s", self->a.text);
	EXPECT_NE(NULL, event_wait(&self->e, DCM_EV_SPECIAL, "diagnostic: "));

	ASSERT_EQ(0, dcm_write_sysfs(SIM "rs485-2/silent", "0"));
	EXPECT_LT(0, read_int(DEV "RightShoulderBoard/Nack"));
	ASSERT_EQ(0, special(&self->t, DCM_SPECIAL_RESET)) TH_LOG("%s", self->t.c.msg);
	EXPECT_NE(NULL, strstr(self->a.text, "cleared")) TH_LOG("%s", self->a.text);
	EXPECT_EQ(0, read_int(DEV "RightShoulderBoard/Nack"));
	EXPECT_GT(50, read_int(DEV "HeadBoard/Ack"));
	sleep_ms(100);
	ASSERT_EQ(0, special(&self->t, DCM_SPECIAL_DIAGNOSTIC));
	EXPECT_STREQ("ok", self->a.state[board(&self->a, "RightShoulderBoard")]);
	EXPECT_NE(NULL, event_wait(&self->e, DCM_EV_SPECIAL, "reset: "));
}

/* Version: every board answers; the keys that hold versions take them. */
TEST_F(cal, special_version)
{
	char s[64];
	int i;

	ASSERT_EQ(0, special(&self->t, DCM_SPECIAL_VERSION)) TH_LOG("%s", self->t.c.msg);
	EXPECT_EQ(n_devices(), self->a.n_boards);
	for (i = 0; i < self->a.n_boards; i++)
		EXPECT_NE(0, self->a.version[i][0]) TH_LOG("%s", self->a.name[i]);
	read_str(DEV "ChestBoard/ProgVersion", s, sizeof(s));
	EXPECT_STREQ(self->a.version[board(&self->a, "ChestBoard")], s);
	read_str(DEV "Battery/FirmwareVersion", s, sizeof(s));
	EXPECT_STREQ("V1.01", s);
	EXPECT_EQ(0x0203, read_int(DEV "HeadBoard/ProgVersion"));
	EXPECT_NE(NULL, event_wait(&self->e, DCM_EV_SPECIAL, "version: "));
}

/*
 * Wait up to 10 s (times dcm_test_scale()) for the description's chain to
 * be made (its boards configured: chaining runs in the cycle, after dcmd
 * has loaded it).
 * Return: 0, or -1 with @cr the last ChainResult read.
 */
static int chain_made(char *cr, size_t len)
{
	const char *all = "RS485-1 5/5; RS485-2 4/4; RS485-3 5/5; RS485-4 5/5";
	int i;

	for (i = 0; i < 100 * dcm_test_scale(); i++) {
		read_str(DEV "ChestBoard/ChainResult", cr, len);
		if (!strcmp(cr, all))
			return 0;
		sleep_ms(100);
	}
	return -1;
}

/*
 * Config: every motor board gets its structure again. The boards' counts
 * are taken once the description's chain is made (chain_made()).
 */
TEST_F(cal, special_config)
{
	char cr[DCM_MAX_STRING_LEN];
	int c1, c3;

	ASSERT_EQ(0, chain_made(cr, sizeof(cr))) TH_LOG("ChainResult: %s", cr);
	c1 = read_int(SIM "rs485-1/configs");
	c3 = read_int(SIM "rs485-3/configs");
	ASSERT_EQ(0, special(&self->t, DCM_SPECIAL_CONFIG)) TH_LOG("%s", self->t.c.msg);
	EXPECT_STREQ("15 of 15 motor boards configured", self->a.text);
	EXPECT_EQ(c1 + 4, read_int(SIM "rs485-1/configs"));
	EXPECT_EQ(c3 + 4, read_int(SIM "rs485-3/configs"));
	EXPECT_NE(NULL, event_wait(&self->e, DCM_EV_SPECIAL, "config: "));
}

/* ---- the cycle owns the buses ---- */

/* What cycle/buses says of each bus, and the cycles and the sim's broadcasts. */
struct bus_counts {
	int n;
	char name[16][24];
	uint64_t done[16], late[16], busy[16], unready[16], absent[16], requests[16];
	uint64_t wire[16];	/* the sim's cyclic broadcasts, RS485 buses */
	uint64_t cycles;
	uint64_t ack[DCM_MAX_DEVICES], nack[DCM_MAX_DEVICES];
};

/* The sim's count of broadcasts on rs485-N, from its wire file; 0 if none. */
static uint64_t sim_broadcasts(const char *bus)
{
	char path[128], line[64];
	unsigned long long v = 0;
	FILE *f;

	if (strncmp(bus, "RS485-", 6))
		return 0;
	snprintf(path, sizeof(path), SIM "rs485-%s/wire", bus + 6);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "cycles %llu", &v) == 1)
			break;
	fclose(f);
	return v;
}

/* The cycles run, by DCM_IOC_CYCLE_STATS. */
static int cycles_run(uint64_t *cycles)
{
	struct dcm_ioc_cycle_stats cs;
	int fd = open(DCM_DEV, O_RDONLY), ret;

	if (fd < 0)
		return -1;
	memset(&cs, 0, sizeof(cs));
	ret = ioctl(fd, DCM_IOC_CYCLE_STATS, &cs);
	close(fd);
	*cycles = cs.cycles;
	return ret;
}

/* What cycle/buses says of each bus. */
static int buses_read(struct bus_counts *c)
{
	unsigned long long v[12];
	char line[256];
	FILE *f;

	c->n = 0;
	f = fopen(DCM_SYSFS "/cycle/buses", "r");
	if (!f)
		return -1;
	while (c->n < 16 && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%23s %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
			   c->name[c->n], &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7],
			   &v[8], &v[9], &v[10]) != 12)
			continue;
		c->done[c->n] = v[0];
		c->late[c->n] = v[1];
		c->busy[c->n] = v[2];
		c->unready[c->n] = v[7];
		c->absent[c->n] = v[8];
		c->requests[c->n] = v[9];
		c->n++;
	}
	fclose(f);
	return 0;
}

/* The simulator's broadcasts and the boards' Ack and Nack. */
static void board_side(struct bus_counts *c, const struct answer *boards)
{
	char path[160];
	int i;

	for (i = 0; i < c->n; i++)
		c->wire[i] = sim_broadcasts(c->name[i]);
	for (i = 0; i < boards->n_boards; i++) {
		snprintf(path, sizeof(path), DEV "%s/Ack", boards->name[i]);
		c->ack[i] = read_int(path);
		snprintf(path, sizeof(path), DEV "%s/Nack", boards->name[i]);
		c->nack[i] = read_int(path);
	}
}

/*
 * The counts before and after, read in an order that brackets them: the
 * boards' side (what happened) outside the cycle's counts (what it says it
 * did), and the cycles outside the buses' counts.
 */
static int bus_counts_before(struct bus_counts *c, const struct answer *boards)
{
	memset(c, 0, sizeof(*c));
	if (buses_read(c))
		return -1;
	board_side(c, boards);
	return cycles_run(&c->cycles) || buses_read(c);
}

static int bus_counts_after(struct bus_counts *c, const struct answer *boards)
{
	memset(c, 0, sizeof(*c));
	if (buses_read(c) || cycles_run(&c->cycles))
		return -1;
	board_side(c, boards);
	return 0;
}

/* A joint's position sensor, read every 20 ms while a ramp runs. */
struct ramp_watch {
	volatile int stop;
	int n, backwards;
	double first, last;
};

static void *ramp_watch(void *arg)
{
	struct ramp_watch *w = arg;
	double v;

	while (!w->stop) {
		v = read_double(SUB "LShoulderPitch/Position/Sensor/Value");
		if (!w->n)
			w->first = v;
		else if (v < w->last - 0.005)
			w->backwards++;
		w->last = v;
		w->n++;
		sleep_ms(20);
	}
	return NULL;
}

/*
 * The out-of-band work (the diagnostic, versions, configuration, the chest
 * store by calibration) back to back while a joint follows a ramp: it is
 * carried by the cycle after each bus's exchange, so it costs no exchange.
 * Every cycle of every bus is counted once, by what became of it (every
 * bus the same count, no more than the cycles); no bus is unready or
 * absent meanwhile; each exchange counted was a broadcast on the
 * simulated wire and every board's Ack grows with the exchanges (the
 * boards' side read outside the cycle's counts, which it brackets); the
 * requests were carried (versions and configurations on the RS485 buses,
 * the store on the chest's I2C bus); the joint follows its ramp to the
 * end, never back. With DCM_TIMING_CHECKS=1 (an idle host): no exchange
 * busy or late at all.
 */
TEST_F(cal, out_of_band_costs_no_exchange)
{
	struct bus_counts c0, c1;
	struct answer boards;
	struct ramp_watch w = { 0 };
	struct dcm_point p[2];
	char cr[DCM_MAX_STRING_LEN];
	uint64_t dc, sum[16], least = 0, late = 0, busy = 0;
	uint32_t h, t0;
	pthread_t th;
	int fd, i, b, tz;
	double start;

	ASSERT_EQ(0, chain_made(cr, sizeof(cr))) TH_LOG("ChainResult: %s", cr);
	tz = read_int(SIM "joints/LShoulderPitch/true_zero");
	ASSERT_EQ(0, calibrate(&self->t, "LShoulderPitch", DCM_CALIB_SET, tz));
	ASSERT_EQ(0, dcm_write_sysfs(SUB "LShoulderPitch/Hardness/Actuator/Value", "1"));
	sleep_ms(300);
	ASSERT_EQ(0, special(&self->t, DCM_SPECIAL_DIAGNOSTIC));
	boards = self->a;
	ASSERT_LT(0, boards.n_boards);

	fd = open(DCM_DEV, O_RDWR);
	ASSERT_LE(0, fd);
	h = dcm_lookup_handle(fd, "LShoulderPitch/Position/Actuator");
	ASSERT_NE(0, h);
	start = read_double(SUB "LShoulderPitch/Position/Sensor/Value");
	t0 = dcm_time_now(fd, 50);
	memset(p, 0, sizeof(p));
	p[0].value = (int64_t)(start * 1e6);
	p[0].time = t0;
	p[1].value = (int64_t)((start + 0.6) * 1e6);
	p[1].time = t0 + 3000;
	ASSERT_EQ(0, dcm_set_points(fd, h, DCM_UPDATE_CLEAR_ALL, p, 2));
	ASSERT_EQ(0, bus_counts_before(&c0, &boards));
	ASSERT_EQ(0, pthread_create(&th, NULL, ramp_watch, &w));

	for (i = 0; i < 5; i++)
		EXPECT_EQ(0, special(&self->t, DCM_SPECIAL_DIAGNOSTIC));
	EXPECT_EQ(0, special(&self->t, DCM_SPECIAL_VERSION));
	EXPECT_EQ(0, special(&self->t, DCM_SPECIAL_CONFIG));
	EXPECT_STREQ("15 of 15 motor boards configured", self->a.text);
	EXPECT_EQ(0, calibrate(&self->t, "HeadPitch", DCM_CALIB_SET, 3000));
	EXPECT_EQ(0, calibrate(&self->t, "HeadPitch", DCM_CALIB_SET, 0));
	ASSERT_EQ(0, bus_counts_after(&c1, &boards));

	/* The ramp to its end (3 s from t0), then a little more. */
	while ((int32_t)(dcm_time_now(fd, 0) - (t0 + 3300)) < 0)
		sleep_ms(50);
	w.stop = 1;
	pthread_join(th, NULL);
	close(fd);

	dc = c1.cycles - c0.cycles;
	ASSERT_EQ(c0.n, c1.n);
	ASSERT_LT(0, c1.n);
	ASSERT_LT(50, dc) TH_LOG("the work took %llu cycles", (unsigned long long)dc);
	for (b = 0; b < c1.n; b++) {
		uint64_t d = c1.done[b] - c0.done[b], l = c1.late[b] - c0.late[b];
		uint64_t bz = c1.busy[b] - c0.busy[b], un = c1.unready[b] - c0.unready[b];
		uint64_t ab = c1.absent[b] - c0.absent[b];

		sum[b] = d + l + bz + un + ab;
		/* Every cycle of every bus counted once: the same count for each. */
		EXPECT_GE(dc + 1, sum[b]) TH_LOG("%s: %llu cycles, %llu counted", c1.name[b],
						 (unsigned long long)dc, (unsigned long long)sum[b]);
		EXPECT_GE(1, labs((long)(sum[b] - sum[0])))
			TH_LOG("%s: %llu cycles counted, %s %llu", c1.name[b],
			       (unsigned long long)sum[b], c1.name[0], (unsigned long long)sum[0]);
		EXPECT_EQ(0, un) TH_LOG("%s unready", c1.name[b]);
		EXPECT_EQ(0, ab) TH_LOG("%s absent", c1.name[b]);
		/* Each exchange counted, late ones too, was a broadcast on the wire. */
		if (!strncmp(c1.name[b], "RS485-", 6)) {
			EXPECT_LT(0, c1.requests[b] - c0.requests[b]) TH_LOG("%s", c1.name[b]);
			EXPECT_LE(d + l, c1.wire[b] - c0.wire[b] + 1)
				TH_LOG("%s: %llu exchanges, %llu broadcasts", c1.name[b],
				       (unsigned long long)(d + l),
				       (unsigned long long)(c1.wire[b] - c0.wire[b]));
		}
		if (!strcmp(c1.name[b], "I2C-chest"))
			EXPECT_LT(0, c1.requests[b] - c0.requests[b]);
		least = b ? (d + l < least ? d + l : least) : d + l;
		late += l;
		busy += bz;
	}
	/* Every board answered each exchange of its bus. */
	for (i = 0; i < boards.n_boards; i++) {
		if (strcmp(boards.state[i], "ok"))
			continue;
		EXPECT_EQ(c0.nack[i], c1.nack[i]) TH_LOG("%s", boards.name[i]);
		EXPECT_LE(least, c1.ack[i] - c0.ack[i] + 1)
			TH_LOG("%s: Ack +%llu for %llu exchanges", boards.name[i],
			       (unsigned long long)(c1.ack[i] - c0.ack[i]),
			       (unsigned long long)least);
	}
	DCM_TIMING_EXPECT(!busy && !late, "%llu exchanges busy, %llu late in %llu cycles",
			  (unsigned long long)busy, (unsigned long long)late,
			  (unsigned long long)dc);
	/* The ramp: forward only, to its end. */
	EXPECT_LT(10, w.n);
	EXPECT_EQ(0, w.backwards) TH_LOG("the joint went back %d times", w.backwards);
	EXPECT_GT(0.05, dabs(w.last - (start + 0.6)))
		TH_LOG("from %f to %f, %f wanted", w.first, w.last, start + 0.6);
}

DCM_HARNESS_MAIN
