// SPDX-License-Identifier: GPL-2.0
/*
 * dcmd never disturbs a running robot, against the shipped description:
 * loading the same files again keeps the running description, its
 * generation and a running client's handles and live snapshot mapping
 * (other files replace it: the old handles go stale, the old mapping
 * freezes; the check can fail); a second dcmd, started by
 * mistake without a pid file, leaves them alone too; one with the pid file
 * of a running dcmd stops before it touches the kernel, even with other
 * files, with one line and exit status 1; the daemon tells its readiness
 * (sd_notify's protocol), SIGHUP with unchanged files keeps the generation,
 * with changed ones replaces the description; SIGTERM removes the pid file.
 * Each test leaves the shipped description loaded.
 */
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>

#include "dcm_test.h"
#include "kselftest_harness.h"

#define JOINT		"HeadYaw/Position/Actuator"
#define DATA		"/usr/share/dcm/"
#define OTHER_HEAD	DATA "variants/head-no-touch.xml"
#define PIDFILE		"/run/dcm_daemon_test.pid"
#define NOTIFY		"/run/dcm_daemon_test.notify"
#define OUT		"/tmp/dcm_daemon_test.out"
#define ETC_HEAD	"/etc/dcm/head.xml"

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* The generation of the running description, from a fresh handle; 0: none. */
static uint32_t generation(int fd)
{
	return DCM_HANDLE_GEN(dcm_lookup_handle(fd, JOINT));
}

/* Does @h still name a value (DCM_IOC_GET)? Else errno says why. */
static int handle_ok(int fd, uint32_t h)
{
	struct dcm_ioc_get g;
	int64_t v;
	uint32_t t;

	g = (struct dcm_ioc_get){ .n = 1, .handles = (uintptr_t)&h, .values = (uintptr_t)&v,
				  .times = (uintptr_t)&t };
	return ioctl(fd, DCM_IOC_GET, &g) == 0;
}

/* The next notification on @s, within @ms; "" if none. */
static const char *notified(int s, int ms)
{
	static char buf[128];
	struct pollfd p = { .fd = s, .events = POLLIN };
	ssize_t n;

	buf[0] = '\0';
	if (poll(&p, 1, ms * dcm_test_scale()) != 1)
		return buf;
	n = recv(s, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

static long pidfile_pid(void)
{
	char buf[32] = "";
	FILE *f = fopen(PIDFILE, "r");
	long pid = 0;

	if (f) {
		if (fgets(buf, sizeof(buf), f))
			pid = strtol(buf, NULL, 10);
		fclose(f);
	}
	return pid;
}

FIXTURE(daemon) {
	int fd;
	uint32_t h, gen;
	int notify;		/* our NOTIFY_SOCKET */
	bool etc_head;		/* we put /etc/dcm/head.xml there */
};

FIXTURE_SETUP(daemon)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };

	self->fd = open(DCM_DEV, O_RDWR);
	ASSERT_LE(0, self->fd);
	if (!dcm_lookup_handle(self->fd, JOINT))
		ASSERT_EQ(0, dcm_sh("dcmd -1 >/dev/null 2>&1"));
	self->h = dcm_lookup_handle(self->fd, JOINT);
	ASSERT_NE(0, self->h);
	self->gen = DCM_HANDLE_GEN(self->h);
	unlink(NOTIFY);
	self->notify = socket(AF_UNIX, SOCK_DGRAM, 0);
	ASSERT_LE(0, self->notify);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", NOTIFY);
	ASSERT_EQ(0, bind(self->notify, (struct sockaddr *)&sa, sizeof(sa)));
	self->etc_head = false;
}

FIXTURE_TEARDOWN(daemon)
{
	long pid = pidfile_pid();

	if (pid > 0)
		kill((pid_t)pid, SIGTERM);
	if (self->etc_head)
		unlink(ETC_HEAD);
	close(self->notify);
	unlink(NOTIFY);
	sleep_ms(300 * dcm_test_scale());
	if (generation(self->fd) != self->gen)
		dcm_sh("dcmd -1 >/dev/null 2>&1");
	close(self->fd);
}

/* The cycle still writes the snapshot mapped: its number moves on. */
static bool snapshot_live(const volatile struct dcm_snapshot *snap)
{
	uint64_t c = snap->cycle;

	sleep_ms(100);
	return snap->cycle != c;
}

/*
 * The same files again: nothing changes, the client's handle and mapping
 * stay live, description_swaps does not count it; other files: a new
 * description, the old handle is stale and the old mapping frozen, and
 * description_swaps counts one, then one more for the way back.
 */
TEST_F(daemon, same_files_keep_the_generation)
{
	const volatile struct dcm_snapshot *snap;
	long swaps = dcm_swaps(DCM_SYSFS);
	char buf[16];
	uint32_t g2;
	void *p;

	ASSERT_LE(0, swaps);
	ASSERT_EQ(0, dcm_read_sysfs(DCM_SYSFS "/generation", buf, sizeof(buf)));
	EXPECT_EQ(self->gen, strtoul(buf, NULL, 10)) TH_LOG("sysfs generation %s", buf);
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	snap = p;
	ASSERT_EQ(self->gen, snap->generation);

	ASSERT_EQ(0, dcm_sh("dcmd -1 >" OUT " 2>&1"));
	EXPECT_EQ(0, dcm_sh("grep -q 'loaded into dcm0: unchanged, the running one stays' " OUT));
	EXPECT_EQ(self->gen, generation(self->fd));
	EXPECT_TRUE(handle_ok(self->fd, self->h));
	EXPECT_EQ(self->gen, snap->generation);
	EXPECT_TRUE(snapshot_live(snap));
	EXPECT_EQ(swaps, dcm_swaps(DCM_SYSFS));

	ASSERT_EQ(0, dcm_sh("dcmd -1 -H " OTHER_HEAD " >" OUT " 2>&1"));
	g2 = generation(self->fd);
	EXPECT_NE(self->gen, g2);
	EXPECT_FALSE(handle_ok(self->fd, self->h));
	EXPECT_EQ(ESTALE, errno);
	EXPECT_FALSE(snapshot_live(snap));
	EXPECT_EQ(swaps + 1, dcm_swaps(DCM_SYSFS));
	ASSERT_EQ(0, dcm_read_sysfs(DCM_SYSFS "/generation", buf, sizeof(buf)));
	EXPECT_EQ(g2, strtoul(buf, NULL, 10)) TH_LOG("sysfs generation %s", buf);
	munmap(p, 4096);
	ASSERT_EQ(0, dcm_sh("dcmd -1 >/dev/null 2>&1"));
	EXPECT_NE(g2, generation(self->fd));
	EXPECT_EQ(swaps + 2, dcm_swaps(DCM_SYSFS));
	self->gen = generation(self->fd);
}

/* A second dcmd, no pid file: it commits, but the same: nobody notices. */
TEST_F(daemon, second_dcmd_by_mistake)
{
	int st = -1, i;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		setenv("NOTIFY_SOCKET", NOTIFY, 1);
		if (!freopen(OUT, "w", stderr))
			_exit(126);
		execlp("dcmd", "dcmd", "-f", (char *)NULL);
		_exit(127);
	}
	EXPECT_STREQ("READY=1", notified(self->notify, 20000));
	EXPECT_EQ(self->gen, generation(self->fd));
	EXPECT_TRUE(handle_ok(self->fd, self->h));
	kill(pid, SIGTERM);
	EXPECT_STREQ("STOPPING=1", notified(self->notify, 5000));
	for (i = 0; i < 50 * dcm_test_scale() && waitpid(pid, &st, WNOHANG) == 0; i++)
		sleep_ms(100);
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/*
 * A daemon with a pid file; a second one with the same pid file and other
 * files stops first; SIGHUP with the same files keeps the generation, with
 * other files replaces the description; SIGTERM removes the pid file.
 */
TEST_F(daemon, pidfile_and_reload)
{
	char cmd[256];
	uint32_t g2;
	long pid;
	struct stat st;
	int i;

	unlink(PIDFILE);
	ASSERT_EQ(0, dcm_sh("NOTIFY_SOCKET=" NOTIFY " dcmd -p " PIDFILE " >" OUT " 2>&1"));
	ASSERT_STREQ("READY=1", notified(self->notify, 5000));
	pid = pidfile_pid();
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, kill((pid_t)pid, 0));
	EXPECT_EQ(self->gen, generation(self->fd));

	/* the second: one line, exit 1, the kernel untouched */
	EXPECT_EQ(1, dcm_sh("dcmd -f -p " PIDFILE " -H " OTHER_HEAD " >" OUT " 2>&1"));
	snprintf(cmd, sizeof(cmd),
		 "grep -q 'pid file %s is locked: dcmd already running (pid %ld)' %s",
		 PIDFILE, pid, OUT);
	EXPECT_EQ(0, dcm_sh(cmd));
	EXPECT_NE(0, dcm_sh("grep -q 'loaded into' " OUT));
	EXPECT_EQ(self->gen, generation(self->fd));
	EXPECT_TRUE(handle_ok(self->fd, self->h));
	EXPECT_EQ(pid, pidfile_pid());

	/* SIGHUP, the same files */
	ASSERT_EQ(0, kill((pid_t)pid, SIGHUP));
	EXPECT_STREQ("RELOADING=1", notified(self->notify, 5000));
	EXPECT_STREQ("READY=1", notified(self->notify, 20000));
	EXPECT_EQ(self->gen, generation(self->fd));
	EXPECT_TRUE(handle_ok(self->fd, self->h));

	/* SIGHUP, another head file in /etc/dcm */
	if (stat(ETC_HEAD, &st) == 0) {
		TH_LOG("%s exists: the reload with another file is not tried", ETC_HEAD);
	} else {
		mkdir("/etc/dcm", 0755);
		ASSERT_EQ(0, dcm_sh("cp " OTHER_HEAD " " ETC_HEAD));
		self->etc_head = true;
		ASSERT_EQ(0, kill((pid_t)pid, SIGHUP));
		EXPECT_STREQ("RELOADING=1", notified(self->notify, 5000));
		EXPECT_STREQ("READY=1", notified(self->notify, 20000));
		g2 = generation(self->fd);
		EXPECT_NE(self->gen, g2);
		EXPECT_FALSE(handle_ok(self->fd, self->h));
		unlink(ETC_HEAD);
		self->etc_head = false;
		ASSERT_EQ(0, kill((pid_t)pid, SIGHUP));
		EXPECT_STREQ("RELOADING=1", notified(self->notify, 5000));
		EXPECT_STREQ("READY=1", notified(self->notify, 20000));
		EXPECT_NE(g2, generation(self->fd));
		self->gen = generation(self->fd);
	}

	ASSERT_EQ(0, kill((pid_t)pid, SIGTERM));
	EXPECT_STREQ("STOPPING=1", notified(self->notify, 5000));
	for (i = 0; i < 3 * dcm_test_scale() && !kill((pid_t)pid, 0); i++)
		sleep_ms(100);
	EXPECT_NE(0, kill((pid_t)pid, 0));
	EXPECT_NE(0, access(PIDFILE, F_OK));
}

DCM_HARNESS_MAIN
