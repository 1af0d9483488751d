// SPDX-License-Identifier: GPL-2.0
/*
 * Client supervision (DCM_IOC_WATCHDOG) against the default description
 * and the simulated body: a client that stops refreshing has its joints
 * hold, or every stiffness ramped down; refreshes keep the watchdog quiet;
 * a client closed or killed while armed fires it at once, disarmed it does
 * not; each firing is an event of the netlink "events" group; bad
 * arguments and read-only files are refused; a new description and a
 * controller that goes away under an armed file are survived.
 */
#include <glob.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>

#include "dcm_nl.h"
#include "kselftest_harness.h"
#include "dcm_test.h"

#define U		1000000LL
#define JOINT		"LShoulderPitch/Position/Actuator"
#define JOINT_H		"LShoulderPitch/Hardness/Actuator"
#define OTHER		"RShoulderPitch/Position/Actuator"
#define OTHER_H		"RShoulderPitch/Hardness/Actuator"
#define MAX_HARD	64

/* One value now, at once. */
static int set_now(int fd, uint32_t h, int64_t value)
{
	struct dcm_point p = { .value = value, .time = dcm_time_now(fd, 0) };

	return dcm_set_points(fd, h, DCM_UPDATE_CLEAR_ALL, &p, 1);
}

/* From @from now to @to in @ms. */
static int ramp(int fd, uint32_t h, int64_t from, int64_t to, uint32_t ms)
{
	uint32_t t = dcm_time_now(fd, 0);
	struct dcm_point p[2] = {
		{ .value = from, .time = t },
		{ .value = to, .time = t + ms },
	};

	return dcm_set_points(fd, h, DCM_UPDATE_CLEAR_ALL, p, 2);
}

static int64_t get1(int fd, uint32_t h)
{
	struct dcm_ioc_get g;
	int64_t v = INT64_MIN;
	uint32_t t;

	g = (struct dcm_ioc_get){ .n = 1, .handles = (uintptr_t)&h, .values = (uintptr_t)&v,
				  .times = (uintptr_t)&t };
	ioctl(fd, DCM_IOC_GET, &g);
	return v;
}

static int wd(int fd, uint32_t timeout, uint32_t action, uint32_t ramp_ms, uint32_t flags)
{
	struct dcm_ioc_watchdog w = {
		.timeout_ms = timeout, .action = action, .ramp_ms = ramp_ms, .flags = flags,
	};

	return ioctl(fd, DCM_IOC_WATCHDOG, &w);
}

static void sleep_ms(int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static long mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * The value an actuator is held at after its watchdog fired. The hold is
 * in the actuator's queue when the event comes, and the snapshot shows it
 * from the next cycle on, which a busy host may run late: read until the
 * value stays for 100 ms (5 s at most, times the kernel's slowdown).
 */
static int64_t held(int fd, uint32_t h)
{
	long end = mono_ms() + 5000L * dcm_test_scale();
	int64_t v = get1(fd, h), was;

	do {
		was = v;
		sleep_ms(100);
		v = get1(fd, h);
	} while (v != was && mono_ms() < end);
	return v;
}

/* Sleep until @ms after @start (monotonic). */
static void sleep_until(long start, long ms)
{
	long left = start + ms - mono_ms();

	if (left > 0)
		sleep_ms((int)left);
}

/* The events group: the watchdog events of one pid. */
struct ev_ctx {
	pid_t pid;
	int found;
	uint32_t code;
	char text[128];
};

static int ev_valid(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[DCM_A_EV_MAX + 1];
	struct ev_ctx *ctx = arg;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, DCM_A_EV_MAX, NULL) ||
	    !tb[DCM_A_EV_TYPE] || nla_get_u32(tb[DCM_A_EV_TYPE]) != DCM_EV_WATCHDOG ||
	    !tb[DCM_A_EV_VALUE] || (pid_t)nla_get_s64(tb[DCM_A_EV_VALUE]) != ctx->pid)
		return NL_OK;
	ctx->found++;
	ctx->code = tb[DCM_A_EV_CODE] ? nla_get_u32(tb[DCM_A_EV_CODE]) : UINT32_MAX;
	snprintf(ctx->text, sizeof(ctx->text), "%s",
		 tb[DCM_A_EV_TEXT] ? nla_get_string(tb[DCM_A_EV_TEXT]) : "");
	return NL_OK;
}

static struct nl_sock *ev_open(struct ev_ctx *ctx)
{
	struct nl_sock *sk = nl_socket_alloc();
	int grp;

	if (!sk || genl_connect(sk))
		return NULL;
	grp = genl_ctrl_resolve_grp(sk, DCM_GENL_NAME, DCM_GENL_MCGRP_EVENTS);
	if (grp < 0 || nl_socket_add_membership(sk, grp)) {
		nl_socket_free(sk);
		return NULL;
	}
	nl_socket_disable_seq_check(sk);
	nl_socket_set_nonblocking(sk);
	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, ev_valid, ctx);
	return sk;
}

/* The kernel's history, scanned by ev_history(). */
struct hist_ctx {
	struct ev_ctx *ev;
	uint64_t from;
	uint64_t last;
};

static int hist_valid(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[DCM_A_EV_MAX + 1];
	struct hist_ctx *h = arg;
	uint64_t seq;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, DCM_A_EV_MAX, NULL) || !tb[DCM_A_EV_SEQ])
		return NL_OK;
	seq = nla_get_u64(tb[DCM_A_EV_SEQ]);
	if (seq > h->last)
		h->last = seq;
	if (seq > h->from)
		ev_valid(msg, h->ev);
	return NL_OK;
}

/*
 * The kernel's history of events (DCM_CMD_GET_EVENTS): the watchdog events
 * of @ctx->pid numbered after @from counted into @ctx; the highest number
 * it holds into *@last. Return: 0, or -1 if the dump failed.
 */
static int ev_history(struct ev_ctx *ctx, uint64_t from, uint64_t *last)
{
	struct hist_ctx h = { .ev = ctx, .from = from };
	struct nl_sock *sk = nl_socket_alloc();
	struct nl_msg *m = nlmsg_alloc();
	int fam, r = -1;

	if (!sk || !m || genl_connect(sk))
		goto out;
	fam = genl_ctrl_resolve(sk, DCM_GENL_NAME);
	if (fam < 0 || !genlmsg_put(m, NL_AUTO_PORT, NL_AUTO_SEQ, fam, 0, NLM_F_DUMP,
				    DCM_CMD_GET_EVENTS, DCM_GENL_VERSION))
		goto out;
	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, hist_valid, &h);
	if (nl_send_auto(sk, m) < 0 || nl_recvmsgs_default(sk) < 0)
		goto out;
	if (last)
		*last = h.last;
	r = 0;
out:
	nlmsg_free(m);
	nl_socket_free(sk);
	return r;
}

/*
 * Watchdog events of @pid posted within @ms, times dcm_test_scale() (more
 * may come later): those the events group brings, or, when it brought
 * none (its socket overran: a slow guest posts an overrun event a cycle),
 * those the kernel's history holds, where safety events stay.
 */
static int ev_wait(struct nl_sock *sk, struct ev_ctx *ctx, pid_t pid, int ms)
{
	struct pollfd pfd = { .fd = nl_socket_get_fd(sk), .events = POLLIN };
	struct ev_ctx none = { .pid = -1 };
	long start = mono_ms();
	uint64_t from = 0;
	bool history;

	ms *= dcm_test_scale();
	history = !ev_history(&none, 0, &from);

	ctx->pid = pid;
	ctx->found = 0;
	ctx->text[0] = '\0';
	while (!ctx->found) {
		long left = start + ms - mono_ms();

		if (left <= 0 || poll(&pfd, 1, (int)left) <= 0)
			break;
		nl_recvmsgs_default(sk);
	}
	if (!ctx->found && history)
		ev_history(ctx, from, NULL);
	return ctx->found;
}

/* Drop what the events socket holds. */
static void ev_drain(struct nl_sock *sk, struct ev_ctx *ctx)
{
	ctx->pid = -1;
	while (nl_recvmsgs_default(sk) >= 0)
		;
}

/* The default description, loaded by dcmd at boot, or again now. */
static int default_description(void)
{
	int fd = open(DCM_DEV, O_RDONLY), ok;

	if (fd < 0)
		return -1;
	ok = dcm_lookup_handle(fd, JOINT) && dcm_lookup_handle(fd, OTHER);
	close(fd);
	if (ok)
		return 0;
	return dcm_sh("dcmd -1 >/dev/null 2>&1");
}

FIXTURE(wd) {
	int fd;		/* the client under supervision */
	int fd2;	/* another client, never armed */
	uint32_t joint, joint_h, other, other_h;
	struct nl_sock *ev;
	struct ev_ctx ctx;
};

static void fixture_handles(struct __test_metadata *_metadata, FIXTURE_DATA(wd) *self)
{
	self->joint = dcm_lookup_handle(self->fd2, JOINT);
	self->joint_h = dcm_lookup_handle(self->fd2, JOINT_H);
	self->other = dcm_lookup_handle(self->fd2, OTHER);
	self->other_h = dcm_lookup_handle(self->fd2, OTHER_H);
	ASSERT_NE(0, self->joint);
	ASSERT_NE(0, self->joint_h);
	ASSERT_NE(0, self->other);
	ASSERT_NE(0, self->other_h);
	/* Stiff joints, at 0: their position commands are sent as they are. */
	ASSERT_EQ(0, set_now(self->fd2, self->joint_h, U));
	ASSERT_EQ(0, set_now(self->fd2, self->other_h, U));
	ASSERT_EQ(0, set_now(self->fd2, self->joint, 0));
	ASSERT_EQ(0, set_now(self->fd2, self->other, 0));
	sleep_ms(100);
}

FIXTURE_SETUP(wd)
{
	ASSERT_EQ(0, default_description());
	self->fd = open(DCM_DEV, O_RDWR | O_CLOEXEC);
	self->fd2 = open(DCM_DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	ASSERT_LE(0, self->fd2);
	self->ev = ev_open(&self->ctx);
	ASSERT_NE(NULL, self->ev);
	fixture_handles(_metadata, self);
	ev_drain(self->ev, &self->ctx);
}

FIXTURE_TEARDOWN(wd)
{
	if (self->fd >= 0)
		close(self->fd);
	close(self->fd2);
	nl_socket_free(self->ev);
}

TEST(bad_arguments)
{
	struct dcm_ioc_watchdog w;
	int fd, ro, i;
	static const struct {
		struct dcm_ioc_watchdog w;
		const char *what;
	} bad[] = {
		{ { .timeout_ms = 100, .reserved = { 1 } }, "reserved[0]" },
		{ { .timeout_ms = 100, .reserved = { 0, 0, 0, 1 } }, "reserved[3]" },
		{ { .timeout_ms = 100, .flags = 2 }, "unknown flag" },
		{ { .timeout_ms = DCM_WATCHDOG_MIN_MS - 1 }, "timeout too short" },
		{ { .timeout_ms = DCM_WATCHDOG_MAX_MS + 1 }, "timeout too long" },
		{ { .timeout_ms = 100, .action = DCM_WATCHDOG_ACTION_MAX + 1 }, "action" },
		{ { .timeout_ms = 100, .action = DCM_WATCHDOG_HOLD, .ramp_ms = 10 }, "hold ramp" },
		{ { .timeout_ms = 100, .action = DCM_WATCHDOG_RAMP,
		    .ramp_ms = DCM_WATCHDOG_RAMP_MAX_MS + 1 }, "ramp too long" },
		{ { .timeout_ms = 100, .flags = DCM_WATCHDOG_F_KICK }, "kick with timeout" },
		{ { .action = DCM_WATCHDOG_RAMP, .flags = DCM_WATCHDOG_F_KICK }, "kick with action" },
		{ { .ramp_ms = 5 }, "disarm with ramp" },
		{ { .action = DCM_WATCHDOG_RAMP }, "disarm with action" },
	};

	fd = open(DCM_DEV, O_RDWR);
	ASSERT_LE(0, fd);
	for (i = 0; i < (int)(sizeof(bad) / sizeof(bad[0])); i++) {
		w = bad[i].w;
		errno = 0;
		EXPECT_EQ(-1, ioctl(fd, DCM_IOC_WATCHDOG, &w)) TH_LOG("%s", bad[i].what);
		EXPECT_EQ(EINVAL, errno) TH_LOG("%s", bad[i].what);
	}
	/* Not armed: nothing to kick; the bounds themselves are fine. */
	errno = 0;
	EXPECT_EQ(-1, wd(fd, 0, 0, 0, DCM_WATCHDOG_F_KICK));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(0, wd(fd, DCM_WATCHDOG_MAX_MS, DCM_WATCHDOG_RAMP, DCM_WATCHDOG_RAMP_MAX_MS, 0));
	EXPECT_EQ(0, wd(fd, 0, 0, 0, DCM_WATCHDOG_F_KICK));
	EXPECT_EQ(0, wd(fd, DCM_WATCHDOG_MIN_MS * 100, DCM_WATCHDOG_HOLD, 0, 0));
	EXPECT_EQ(0, wd(fd, 0, 0, 0, 0));
	EXPECT_EQ(-1, wd(fd, 0, 0, 0, DCM_WATCHDOG_F_KICK));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(0, wd(fd, 0, 0, 0, 0));
	/* Another size is another ioctl. */
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, _IOW(DCM_IOC_MAGIC, 0x09, struct dcm_ioc_time), &w));
	EXPECT_EQ(ENOTTY, errno);
	close(fd);

	/* A file open for reading only commands nothing: EBADF. */
	ro = open(DCM_DEV, O_RDONLY);
	ASSERT_LE(0, ro);
	errno = 0;
	EXPECT_EQ(-1, wd(ro, 200, DCM_WATCHDOG_HOLD, 0, 0));
	EXPECT_EQ(EBADF, errno);
	errno = 0;
	EXPECT_EQ(-1, wd(ro, 0, 0, 0, DCM_WATCHDOG_F_KICK));
	EXPECT_EQ(EBADF, errno);
	errno = 0;
	EXPECT_EQ(-1, set_now(ro, dcm_lookup_handle(ro, JOINT), 0));
	EXPECT_EQ(EBADF, errno);
	close(ro);
}

/*
 * A slow ramp, then silence: 200 ms later the joint stops where it is and
 * holds; another client's joint goes on; the event names the pid. The
 * event is waited for (the hold comes before it), then the joint read: it
 * holds where the ramp was at the deadline at the earliest and when the
 * event was seen at the latest; how soon after the deadline is a bound of
 * timing.
 */
TEST_F(wd, hold_on_timeout)
{
	int64_t v1, v2, o1, o2;
	long t0, te;

	ASSERT_EQ(0, wd(self->fd, 200, DCM_WATCHDOG_HOLD, 0, 0));
	ASSERT_EQ(0, ramp(self->fd2, self->other, 0, U, 2000));
	t0 = mono_ms();
	ASSERT_EQ(0, ramp(self->fd, self->joint, 0, U, 2000));

	ASSERT_EQ(1, ev_wait(self->ev, &self->ctx, getpid(), 10000));
	te = mono_ms() - t0;
	EXPECT_EQ(DCM_WATCHDOG_HOLD, self->ctx.code);
	v1 = held(self->fd2, self->joint);
	o1 = get1(self->fd2, self->other);
	sleep_ms(400);
	v2 = get1(self->fd2, self->joint);
	o2 = get1(self->fd2, self->other);
	EXPECT_EQ(v1, v2) TH_LOG("the joint moved on after the deadline: %lld, %lld",
				 (long long)v1, (long long)v2);
	/* 0.5 rad/s: 0.1 rad at the deadline, a few cycles and a wake-up more. */
	EXPECT_LE(90000, v1) TH_LOG("held at %lld, before the deadline", (long long)v1);
	EXPECT_GE(U * (te + 20) / 2000, v1) TH_LOG("held at %lld, after the event (%ld ms)",
						  (long long)v1, te);
	DCM_TIMING_EXPECT(v1 <= 250000, "held at %lld, the event after %ld ms", (long long)v1, te);
	/* The other ramp goes on (unless it has ended at U meanwhile). */
	EXPECT_TRUE(o1 + 100000 < o2 || o2 == U)
		TH_LOG("another client's joint stopped: %lld, %lld", (long long)o1, (long long)o2);

	EXPECT_NE(NULL, strstr(self->ctx.text, "timeout")) TH_LOG("%s", self->ctx.text);

	/* Fired: this file's commands are refused until it re-arms. */
	errno = 0;
	EXPECT_EQ(-1, set_now(self->fd, self->joint, 0));
	EXPECT_EQ(ETIMEDOUT, errno);
	errno = 0;
	EXPECT_EQ(-1, wd(self->fd, 0, 0, 0, DCM_WATCHDOG_F_KICK));
	EXPECT_EQ(ETIMEDOUT, errno);
	EXPECT_EQ(v2, get1(self->fd2, self->joint));
	EXPECT_EQ(0, set_now(self->fd2, self->joint, 0));
	EXPECT_EQ(0, wd(self->fd, 1000, DCM_WATCHDOG_HOLD, 0, 0));
	EXPECT_EQ(0, set_now(self->fd, self->joint, 0));
	EXPECT_EQ(0, wd(self->fd, 0, 0, 0, 0));
	EXPECT_EQ(0, set_now(self->fd, self->joint, 0));
}

/* Kicks, then commands, keep an armed watchdog from firing. */
TEST_F(wd, refresh_keeps_it_quiet)
{
	struct dcm_point end = { .value = 1500000 };
	int64_t v1, v2;
	long t0;
	int i;

	/*
	 * 1 s: the kicks and merges come every 60 ms for 1.2 s, so that one
	 * that did not refresh would let it fire, and a host that stalls the
	 * test for a moment does not.
	 */
	ASSERT_EQ(0, wd(self->fd, 1000, DCM_WATCHDOG_HOLD, 0, 0));
	t0 = mono_ms();
	end.time = dcm_time_now(self->fd, 1500);
	ASSERT_EQ(0, ramp(self->fd, self->joint, 0, end.value, 1500));
	for (i = 1; i <= 10; i++) {
		sleep_until(t0, i * 60);
		ASSERT_EQ(0, wd(self->fd, 0, 0, 0, DCM_WATCHDOG_F_KICK));
	}
	/* The same end point, merged again and again: commands refresh too. */
	for (i = 11; i <= 20; i++) {
		sleep_until(t0, i * 60);
		ASSERT_EQ(0, dcm_set_points(self->fd, self->joint, DCM_UPDATE_MERGE, &end, 1));
	}
	v1 = get1(self->fd2, self->joint);
	sleep_ms(150);
	v2 = get1(self->fd2, self->joint);
	EXPECT_LT(v1, v2) TH_LOG("the joint stopped: %lld, %lld", (long long)v1, (long long)v2);
	EXPECT_LE(600000, v1) TH_LOG("the joint is behind: %lld", (long long)v1);
	EXPECT_EQ(0, wd(self->fd, 0, 0, 0, 0));
	EXPECT_EQ(0, ev_wait(self->ev, &self->ctx, getpid(), 300));
}

/* Every subdevice of type JointHardness: */
static int hardness_handles(int fd, uint32_t *h, int max)
{
	const char *prefix = DCM_SYSFS "/SubDeviceList/";
	glob_t g;
	size_t i;
	int n = 0;

	if (glob(DCM_SYSFS "/SubDeviceList/*/Hardness/Actuator", 0, NULL, &g))
		return 0;
	for (i = 0; i < g.gl_pathc && n < max; i++) {
		h[n] = dcm_lookup_handle(fd, g.gl_pathv[i] + strlen(prefix));
		if (h[n])
			n++;
	}
	globfree(&g);
	return n;
}

/*
 * RAMP: after the deadline, every joint's stiffness goes linearly to 0 over
 * ramp_ms, not before, and is 0 after.
 */
TEST_F(wd, ramp_stiffness_down)
{
	int64_t h0[MAX_HARD], a, b, c;
	uint32_t h[MAX_HARD];
	long t0, tb;
	double lo, hi, frac;
	int n, i, checked = 0;

	n = hardness_handles(self->fd2, h, MAX_HARD);
	ASSERT_LE(20, n);
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, set_now(self->fd2, h[i], U));
	sleep_ms(300);
	for (i = 0; i < n; i++)
		h0[i] = get1(self->fd2, h[i]);

	ASSERT_EQ(0, wd(self->fd, 200, DCM_WATCHDOG_RAMP, 1000, 0));
	t0 = mono_ms();
	sleep_until(t0, 100);
	/* Read before the deadline (a host that stalled us past it: not checked). */
	for (i = 0; i < n; i++) {
		a = get1(self->fd2, h[i]);
		if (mono_ms() - t0 >= 190) {
			TH_LOG("hardness %d read %ld ms on: not before the deadline", i,
			       mono_ms() - t0);
			break;
		}
		EXPECT_EQ(h0[i], a) TH_LOG("hardness %d fell before the deadline: %lld, %lld", i,
					   (long long)h0[i], (long long)a);
	}
	sleep_until(t0, 700);
	tb = mono_ms() - t0;
	/*
	 * Fired at 200 ms at the earliest: at most this much of the way done
	 * when the reads end (te). Fired by 450 ms, on an idle host: at least
	 * this much done when they begin (tb).
	 */
	for (i = 0, checked = 0; i < n; i++) {
		long te;

		b = get1(self->fd2, h[i]);
		te = mono_ms() - t0;
		if (h0[i] < 300000)
			continue;
		frac = (double)b / (double)h0[i];
		lo = 1.0 - (te - 200) / 1000.0 - 0.1;
		hi = 1.0 - (tb - 450) / 1000.0 + 0.05;
		EXPECT_TRUE(frac > lo) TH_LOG("hardness %d at %ld ms: %.3f of %lld, not above %.2f",
					      i, te, frac, (long long)h0[i], lo);
		DCM_TIMING_EXPECT(frac < hi, "hardness %d at %ld ms: %.3f of %lld, not below %.2f",
				  i, tb, frac, (long long)h0[i], hi);
		checked++;
	}
	EXPECT_LE(20, checked);
	ASSERT_EQ(1, ev_wait(self->ev, &self->ctx, getpid(), 10000));
	EXPECT_EQ(DCM_WATCHDOG_RAMP, self->ctx.code);
	/* The ramp ends at 0: every hardness, within a generous deadline. */
	for (i = 0; i < n; i++) {
		long end = mono_ms() + 10000L * dcm_test_scale();

		while ((c = get1(self->fd2, h[i])) != 0 && mono_ms() < end)
			sleep_ms(20);
		EXPECT_EQ(0, c) TH_LOG("hardness %d is %lld after the ramp", i, (long long)c);
	}

	/* Stiffness back for what follows. */
	for (i = 0; i < n; i++)
		EXPECT_EQ(0, set_now(self->fd2, h[i], U));
}

/* Closed while armed: the action runs at once. */
TEST_F(wd, close_fires)
{
	int64_t v1, v2;
	long t0, tc, te;

	ASSERT_EQ(0, wd(self->fd, 5000, DCM_WATCHDOG_HOLD, 0, 0));
	t0 = mono_ms();
	ASSERT_EQ(0, ramp(self->fd, self->joint, 0, U, 2000));
	sleep_ms(300);
	close(self->fd);
	tc = mono_ms() - t0;
	self->fd = -1;
	/* The event comes after the hold: then the joint holds. */
	ASSERT_EQ(1, ev_wait(self->ev, &self->ctx, getpid(), 10000));
	te = mono_ms() - t0;
	EXPECT_NE(NULL, strstr(self->ctx.text, "closed")) TH_LOG("%s", self->ctx.text);
	v1 = held(self->fd2, self->joint);
	sleep_ms(400);
	v2 = get1(self->fd2, self->joint);
	EXPECT_EQ(v1, v2);
	EXPECT_LT(100000, v1);
	/* Not after the event (te); at once after close() (tc) on an idle host. */
	EXPECT_GE(U * (te + 20) / 2000, v1) TH_LOG("held at %lld, event at %ld ms",
						  (long long)v1, te);
	DCM_TIMING_EXPECT(v1 < U * (tc + 100) / 2000, "held at %lld, closed at %ld ms",
			  (long long)v1, tc);
}

/* A client killed while armed: its joint holds, the event names it. */
TEST_F(wd, killed_client_fires)
{
	int64_t v1, v2;
	int p[2], st;
	long t0, tk;
	pid_t pid;
	char c;

	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int fd = open(DCM_DEV, O_RDWR);

		if (fd < 0 || wd(fd, 10000, DCM_WATCHDOG_HOLD, 0, 0) ||
		    ramp(fd, dcm_lookup_handle(fd, OTHER), 0, U, 2000))
			_exit(1);
		if (write(p[1], "r", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(p[1]);
	ASSERT_EQ(1, read(p[0], &c, 1));
	close(p[0]);
	t0 = mono_ms();
	sleep_ms(300);
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	tk = mono_ms() - t0;
	/* The event comes after the hold: then the joint holds. */
	ASSERT_EQ(1, ev_wait(self->ev, &self->ctx, pid, 10000));
	EXPECT_EQ(DCM_WATCHDOG_HOLD, self->ctx.code);
	v1 = get1(self->fd2, self->other);
	sleep_ms(400);
	v2 = get1(self->fd2, self->other);
	EXPECT_EQ(v1, v2);
	EXPECT_LT(100000, v1);
	/* The ramp began before t0: at once after the kill on an idle host. */
	DCM_TIMING_EXPECT(v1 < 400000, "held at %lld, killed %ld ms after the ramp was set",
			  (long long)v1, tk);
}

/* Disarmed, then closed: nothing happens; the commands run on. */
TEST_F(wd, disarm_then_close)
{
	int64_t v1, v2 = 0;
	int i;

	ASSERT_EQ(0, wd(self->fd, 200, DCM_WATCHDOG_RAMP, 100, 0));
	ASSERT_EQ(0, ramp(self->fd, self->joint, 0, U, 2000));
	ASSERT_EQ(0, wd(self->fd, 0, 0, 0, 0));
	close(self->fd);
	self->fd = -1;
	sleep_ms(300);
	v1 = get1(self->fd2, self->joint);
	/*
	 * The ramp runs on to its end (U, to the actuator's quantisation),
	 * however slowly the guest runs.
	 */
	for (i = 0; i < 200 * dcm_test_scale(); i++) {
		v2 = get1(self->fd2, self->joint);
		if (llabs(v2 - U) < 1000)
			break;
		sleep_ms(50);
	}
	EXPECT_GT(1000, llabs(v2 - U)) TH_LOG("%lld, then %lld", (long long)v1, (long long)v2);
	EXPECT_LT(v1, v2);
	EXPECT_EQ(U, get1(self->fd2, self->joint_h));
	EXPECT_EQ(0, ev_wait(self->ev, &self->ctx, getpid(), 300));
}

/*
 * A new description while armed: the old indexes name nothing, the action
 * still runs (and posts); commands to the new description are held.
 */
TEST_F(wd, new_description)
{
	long swaps = dcm_swaps(DCM_SYSFS);
	int64_t v1, v2;
	long t0, te;

	ASSERT_LE(0, swaps);
	ASSERT_EQ(0, wd(self->fd, 300, DCM_WATCHDOG_HOLD, 0, 0));
	ASSERT_EQ(0, ramp(self->fd, self->joint, 0, U, 2000));
	/* Another description: the same files would leave the running one. */
	ASSERT_EQ(0, dcm_sh("dcmd -1 -H /usr/share/dcm/variants/head-no-touch.xml >/dev/null 2>&1"));
	ASSERT_EQ(swaps + 1, dcm_swaps(DCM_SYSFS)) TH_LOG("the load swapped nothing");
	ASSERT_EQ(1, ev_wait(self->ev, &self->ctx, getpid(), 3000));
	errno = 0;
	EXPECT_EQ(-1, set_now(self->fd, self->joint, 0));
	EXPECT_TRUE(errno == ESTALE || errno == ETIMEDOUT);

	fixture_handles(_metadata, self);
	ASSERT_EQ(0, wd(self->fd, 200, DCM_WATCHDOG_HOLD, 0, 0));
	t0 = mono_ms();
	ASSERT_EQ(0, ramp(self->fd, self->joint, 0, U, 2000));
	ASSERT_EQ(1, ev_wait(self->ev, &self->ctx, getpid(), 10000));
	te = mono_ms() - t0;
	v1 = held(self->fd2, self->joint);
	sleep_ms(300);
	v2 = get1(self->fd2, self->joint);
	EXPECT_EQ(v1, v2);
	EXPECT_GE(U * (te + 20) / 2000, v1) TH_LOG("held at %lld, event at %ld ms",
						  (long long)v1, te);
	DCM_TIMING_EXPECT(v1 < 250000, "held at %lld, event at %ld ms", (long long)v1, te);
	/* The shipped description again, for what runs next. */
	EXPECT_EQ(0, dcm_sh("dcmd -1 >/dev/null 2>&1"));
	EXPECT_EQ(swaps + 2, dcm_swaps(DCM_SYSFS));
}

/*
 * The controller goes away under armed files: the deadline passes on a
 * dead controller, files are closed after; then the stack comes back.
 */
TEST(controller_removed)
{
	struct dcm_ioc_info info;
	int fd1, fd2;

	ASSERT_EQ(0, default_description());
	fd1 = open(DCM_DEV, O_RDWR);
	fd2 = open(DCM_DEV, O_RDWR);
	ASSERT_LE(0, fd1);
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, wd(fd1, 100, DCM_WATCHDOG_RAMP, 500, 0));
	ASSERT_EQ(0, wd(fd2, 5000, DCM_WATCHDOG_HOLD, 0, 0));
	ASSERT_EQ(0, set_now(fd1, dcm_lookup_handle(fd1, JOINT), 0));
	ASSERT_EQ(0, dcm_sh("rmmod dcm_sim"));
	sleep_ms(300);
	errno = 0;
	EXPECT_EQ(-1, wd(fd1, 0, 0, 0, DCM_WATCHDOG_F_KICK));
	EXPECT_EQ(ENODEV, errno);
	EXPECT_EQ(-1, ioctl(fd2, DCM_IOC_INFO, &info));
	EXPECT_EQ(0, close(fd1));
	EXPECT_EQ(0, close(fd2));
	ASSERT_EQ(0, dcm_sh("modprobe dcm_sim"));
	EXPECT_EQ(0, dcm_sh("dcmd -1 >/dev/null 2>&1"));
}

DCM_HARNESS_MAIN
