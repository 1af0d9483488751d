// SPDX-License-Identifier: GPL-2.0
/*
 * A bounded random fuzzer of dcm's interfaces in the VM: the ioctls of
 * /dev/dcm0, the netlink family and the key files, as root and as an
 * unprivileged user. It passes when the kernel stays quiet (the VM run
 * fails on any Oops, WARNING or BUG, and on a hang) and the device still
 * answers afterwards.
 *
 * DCM_FUZZ_SECONDS (default 3) bounds each part; DCM_FUZZ_SEED replays a
 * run (the seed is printed). Runs last: what it changes (commands,
 * configuration keys, a description it might commit) is not undone.
 */
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "dcm_nl.h"
#include "dcm_test.h"
#include "kselftest_harness.h"

#define NOBODY 65534

static uint64_t seed0;

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static double seconds(void)
{
	const char *e = getenv("DCM_FUZZ_SECONDS");

	return e ? atof(e) : 3.0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void pick_seed(void)
{
	const char *e = getenv("DCM_FUZZ_SEED");

	seed0 = e ? strtoull(e, NULL, 0) : (uint64_t)time(NULL) * 2654435761u + getpid();
	if (!seed0)
		seed0 = 1;
	printf("# DCM_FUZZ_SEED=%#llx\n", (unsigned long long)seed0);
}

/* Pointers an argument may hold: good, NULL, unmapped, kernel, odd. */
struct ptrs {
	char *good;		/* 64 KiB, read-write */
	char *none;		/* a PROT_NONE page */
	char *ro;		/* a read-only page */
};

static uint64_t any_ptr(uint64_t *s, const struct ptrs *p)
{
	switch (rnd(s) % 8) {
	case 0:
		return 0;
	case 1:
		return (uintptr_t)p->none;
	case 2:
		return (uintptr_t)p->ro;
	case 3:
		return 0xffff888000000000ull;
	case 4:
		return (uintptr_t)p->good + 65536 - (rnd(s) % 64);
	case 5:
		return rnd(s);
	default:
		return (uintptr_t)p->good + (rnd(s) % 4096);
	}
}

static const unsigned long known[] = {
	DCM_IOC_VERSION, DCM_IOC_INFO, DCM_IOC_LOOKUP, DCM_IOC_SET, DCM_IOC_ALIAS_CREATE,
	DCM_IOC_ALIAS_SET, DCM_IOC_TIME, DCM_IOC_GET, DCM_IOC_STATS, DCM_IOC_WATCHDOG,
	DCM_IOC_READ_MODE, DCM_IOC_ALIAS_LIST, DCM_IOC_ALIAS_GET, DCM_IOC_ALIAS_DELETE,
};

struct ioctl_fuzz {
	int fds[4];
	atomic_int stop;
	atomic_long calls;
	struct ptrs p;
	uint64_t seed;
};

static void *ioctl_thread(void *arg)
{
	struct ioctl_fuzz *f = arg;
	uint64_t s = f->seed ^ (uintptr_t)pthread_self();
	uint64_t buf[64];
	unsigned long cmd;
	unsigned int i, slot;
	int fd;

	if (!s)
		s = 1;
	while (!atomic_load(&f->stop)) {
		slot = rnd(&s) % 4;
		/* Now and then a file goes and comes back while others use it. */
		if (rnd(&s) % 64 == 0) {
			fd = open(DCM_DEV, rnd(&s) & 1 ? O_RDWR : O_RDONLY);
			if (fd >= 0) {
				fd = atomic_exchange((atomic_int *)&f->fds[slot], fd);
				if (fd >= 0)
					close(fd);
			}
			continue;
		}
		cmd = known[rnd(&s) % (sizeof(known) / sizeof(known[0]))];
		switch (rnd(&s) % 6) {
		case 0:		/* another size */
			cmd = (cmd & ~(0x3fffUL << 16)) | (rnd(&s) % 512) << 16;
			break;
		case 1:		/* another number or direction */
			cmd = _IOC(rnd(&s) % 4, DCM_IOC_MAGIC, rnd(&s) % 32, rnd(&s) % 300);
			break;
		}
		for (i = 0; i < 64; i++)
			buf[i] = rnd(&s) % 4 ? rnd(&s) % 1100 : any_ptr(&s, &f->p);
		/* Small counts are likelier to get past the checks. */
		if (rnd(&s) & 1) {
			uint32_t small = rnd(&s) % 8;

			memcpy(buf, &small, sizeof(small));
		}
		fd = atomic_load((atomic_int *)&f->fds[slot]);
		ioctl(fd, cmd, rnd(&s) % 8 ? (void *)buf : (void *)(uintptr_t)any_ptr(&s, &f->p));
		atomic_fetch_add(&f->calls, 1);
	}
	return NULL;
}

static long run_ioctls(double secs, uint64_t seed)
{
	struct ioctl_fuzz f = { .seed = seed };
	pthread_t t[4];
	double end = now_s() + secs;
	int i, n;

	f.p.good = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	f.p.none = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	f.p.ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (i = 0; i < 4; i++)
		f.fds[i] = open(DCM_DEV, i & 1 ? O_RDWR : O_RDONLY);
	for (n = 0; n < 4; n++)
		if (pthread_create(&t[n], NULL, ioctl_thread, &f))
			break;
	while (now_s() < end)
		usleep(50000);
	atomic_store(&f.stop, 1);
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < 4; i++)
		if (f.fds[i] >= 0)
			close(f.fds[i]);
	return atomic_load(&f.calls);
}

/* Random ioctls from four threads, as root, then as nobody (read-only opens only). */
TEST(ioctls)
{
	struct dcm_ioc_version v;
	long calls;
	pid_t pid;
	int fd, st;

	pick_seed();
	calls = run_ioctls(seconds(), seed0);
	TH_LOG("root: %ld ioctls", calls);
	EXPECT_LT(0, calls);

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (setgid(NOBODY) || setuid(NOBODY))
			_exit(2);
		_exit(run_ioctls(seconds(), seed0 * 3) > 0 ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);

	fd = open(DCM_DEV, O_RDONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, ioctl(fd, DCM_IOC_VERSION, &v));
	EXPECT_EQ(DCM_ABI_MAGIC, v.magic);
	close(fd);
}

/* Random generic netlink requests: commands, attributes, nests, steps abandoned. */
static long run_netlink(double secs, uint64_t s)
{
	double end = now_s() + secs;
	struct nl_msg *msg;
	struct conn c;
	char payload[300];
	long sent = 0;
	int i, n, k, type;

	while (now_s() < end) {
		if (conn_open(&c))
			return sent;
		for (k = 0; k < 64; k++) {
			msg = nlmsg_alloc();
			if (!msg)
				break;
			genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, c.family, 0, 0,
				    rnd(&s) % (DCM_CMD_MAX + 3), rnd(&s) % 3);
			n = rnd(&s) % 8;
			for (i = 0; i < n; i++) {
				type = rnd(&s) % 20;
				for (unsigned int b = 0; b < sizeof(payload); b++)
					payload[b] = rnd(&s) % 3 ? 'A' + rnd(&s) % 26 : rnd(&s);
				if (rnd(&s) % 4 == 0) {
					struct nlattr *nest = nla_nest_start(msg, type);

					if (nest) {
						nla_put(msg, rnd(&s) % 8, rnd(&s) % 32, payload);
						nla_nest_end(msg, nest);
					}
				} else if (type == DCM_A_CFG_INDEX && rnd(&s) % 4) {
					nla_put_u32(msg, type, rnd(&s) % 3);
				} else {
					nla_put(msg, type, rnd(&s) % 4 ? rnd(&s) % 16 :
						rnd(&s) % sizeof(payload), payload);
				}
			}
			nl_send_auto(c.sk, msg);
			nlmsg_free(msg);
			wait_done(&c);
			sent++;
		}
		/* The socket goes with whatever transaction it had open. */
		conn_close(&c);
	}
	return sent;
}

TEST(netlink)
{
	long sent;
	pid_t pid;
	int st;

	pick_seed();
	sent = run_netlink(seconds(), seed0 * 5);
	TH_LOG("root: %ld requests", sent);
	EXPECT_LT(0, sent);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (setgid(NOBODY) || setuid(NOBODY))
			_exit(2);
		_exit(run_netlink(seconds() / 2, seed0 * 7) > 0 ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* The key files, up to 400 of them. */
static int list_files(const char *dir, char (*out)[256], int n, int max)
{
	struct dirent *e;
	char path[256];
	struct stat st;
	DIR *d = opendir(dir);

	if (!d)
		return n;
	while (n < max && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= (int)sizeof(path))
			continue;
		if (lstat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode))
			n = list_files(path, out, n, max);
		else if (S_ISREG(st.st_mode))
			snprintf(out[n++], 256, "%s", path);
	}
	closedir(d);
	return n;
}

static const char *const hostile[] = {
	"", "\n", "nan", "NaN", "inf", "-inf", "1e309", "1e-309", "0x10", " 1", "1 ", "1\n\n",
	"9223372036854775807", "9223372036854775808", "-9223372036854775809",
	"99999999999999999999.999999", "-0", "+", "-", ".", "1.", ".5", "1..2", "1e", "true",
	"\x1b[31m", "a\tb", "\xff\xfe",
};

struct sysfs_fuzz {
	char (*files)[256];
	int n;
	atomic_int stop;
	atomic_long reads;
};

static void *sysfs_reader(void *arg)
{
	struct sysfs_fuzz *f = arg;
	char buf[4096];
	int i = 0, fd;

	while (!atomic_load(&f->stop)) {
		fd = open(f->files[i++ % f->n], O_RDONLY);
		if (fd >= 0) {
			if (read(fd, buf, sizeof(buf)) >= 0)
				atomic_fetch_add(&f->reads, 1);
			close(fd);
		}
	}
	return NULL;
}

static long run_sysfs(struct sysfs_fuzz *f, double secs, uint64_t s)
{
	static char big[8192];
	double end = now_s() + secs;
	char buf[64];
	long writes = 0;
	size_t len;
	const char *w;
	int fd;

	memset(big, '7', sizeof(big));
	while (now_s() < end) {
		fd = open(f->files[rnd(&s) % f->n], O_WRONLY);
		if (fd < 0)
			continue;
		switch (rnd(&s) % 4) {
		case 0:
			w = big;
			len = rnd(&s) % sizeof(big);
			break;
		case 1:
			len = rnd(&s) % sizeof(buf);
			for (size_t i = 0; i < len; i++)
				buf[i] = rnd(&s);
			w = buf;
			break;
		case 2:
			len = snprintf(buf, sizeof(buf), "%d%c%d", (int)(rnd(&s) % 100),
				       0, (int)(rnd(&s) % 100));
			w = buf;
			break;
		default:
			w = hostile[rnd(&s) % (sizeof(hostile) / sizeof(hostile[0]))];
			len = strlen(w);
			break;
		}
		if (write(fd, w, len) < 0 && errno == EFAULT)
			break;
		writes++;
		close(fd);
	}
	return writes;
}

/* Hostile writes to every writable key file, with readers all along. */
TEST(sysfs)
{
	struct sysfs_fuzz f = { };
	pthread_t t[2];
	long writes;
	pid_t pid;
	int st;

	pick_seed();
	f.files = calloc(400, 256);
	ASSERT_NE(NULL, f.files);
	f.n = list_files(DCM_SYSFS "/SubDeviceList", f.files, 0, 300);
	f.n = list_files(DCM_SYSFS "/DeviceList", f.files, f.n, 400);
	if (!f.n)
		SKIP(return, "no key tree");
	ASSERT_EQ(0, pthread_create(&t[0], NULL, sysfs_reader, &f));
	ASSERT_EQ(0, pthread_create(&t[1], NULL, sysfs_reader, &f));
	writes = run_sysfs(&f, seconds(), seed0 * 11);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (setgid(NOBODY) || setuid(NOBODY))
			_exit(2);
		run_sysfs(&f, seconds() / 2, seed0 * 13);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	atomic_store(&f.stop, 1);
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	TH_LOG("%d files, %ld writes, %ld reads", f.n, writes, atomic_load(&f.reads));
	EXPECT_LT(0, writes);
	EXPECT_LT(0, atomic_load(&f.reads));
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	free(f.files);
}

DCM_HARNESS_MAIN
