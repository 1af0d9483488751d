// SPDX-License-Identifier: GPL-2.0
/*
 * dcm_access_helper: what dcm_access_test.sh needs that a shell lacks.
 *
 *   as UID GID GROUPS CMD [ARG...]  run CMD as UID:GID with the supplementary
 *                                   GROUPS ("900,901", or "-" for none)
 *   open ro|rw                      open /dev/dcm0
 *   set ro|rw NAME VALUE            DCM_IOC_SET of VALUE (micro-units), now
 *   alias ro|rw                     DCM_IOC_ALIAS_CREATE
 *   watchdog ro|rw                  DCM_IOC_WATCHDOG: arm, then disarm
 *   get NAME                        DCM_IOC_GET on a read-only file
 *   mmap NAME                       the snapshot of a read-only file
 *   read                            poll() and read() a frame, read-only
 *   config                          a netlink configuration transaction
 *                                   (BEGIN, then ABORT)
 *   write PATH TEXT                 open(O_WRONLY) and write(): a sysfs key
 *
 * Each prints one line: "ok" (and a value), or the errno's name, prefixed
 * by the step that failed ("open:EACCES"); it exits 0 on success, 1 on a
 * refusal, 2 on bad usage. Every step but the one tested is expected to
 * work, so a refusal names what the kernel refused.
 */
#include <grp.h>
#include <poll.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "dcm_nl.h"

static int fail(const char *step, int err)
{
	if (step)
		printf("%s:%s\n", step, strerrorname_np(err) ?: "?");
	else
		printf("%s\n", strerrorname_np(err) ?: "?");
	return 1;
}

static int open_dev(const char *mode)
{
	if (!strcmp(mode, "rw"))
		return open(DCM_DEV, O_RDWR | O_CLOEXEC);
	if (!strcmp(mode, "ro"))
		return open(DCM_DEV, O_RDONLY | O_CLOEXEC);
	errno = EINVAL;
	return -1;
}

static int run_as(int argc, char **argv)
{
	gid_t groups[16];
	size_t n = 0;
	char *s, *tok;

	if (argc < 5)
		return 2;
	if (strcmp(argv[3], "-")) {
		for (s = argv[3]; (tok = strtok(s, ",")) && n < 16; s = NULL)
			groups[n++] = (gid_t)strtoul(tok, NULL, 10);
	}
	if (setgroups(n, groups) || setgid((gid_t)strtoul(argv[2], NULL, 10)) ||
	    setuid((uid_t)strtoul(argv[1], NULL, 10)))
		return fail("setuid", errno);
	execvp(argv[4], argv + 4);
	return fail("exec", errno);
}

static int do_set(const char *mode, const char *name, const char *value)
{
	struct dcm_point p;
	struct dcm_ioc_time t = { 0 };
	struct dcm_ioc_set s;
	int fd = open_dev(mode);

	if (fd < 0)
		return fail("open", errno);
	memset(&p, 0, sizeof(p));
	memset(&s, 0, sizeof(s));
	s.handle = dcm_lookup_handle(fd, name);
	if (!s.handle || ioctl(fd, DCM_IOC_TIME, &t))
		return fail("lookup", errno);
	p.value = strtoll(value, NULL, 10);
	p.time = t.time;
	s.update = DCM_UPDATE_CLEAR_ALL;
	s.n_points = 1;
	s.points = (uintptr_t)&p;
	if (ioctl(fd, DCM_IOC_SET, &s))
		return fail(NULL, errno);
	printf("ok\n");
	return 0;
}

static int do_alias(const char *mode)
{
	char names[1][DCM_KEY_NAME_LEN] = { "ChestBoard/Led/Red/Actuator" };
	struct dcm_ioc_alias_create a;
	uint32_t handle;
	int fd = open_dev(mode);

	if (fd < 0)
		return fail("open", errno);
	memset(&a, 0, sizeof(a));
	snprintf(a.name, sizeof(a.name), "AccessTest");
	a.n_members = 1;
	a.members = (uintptr_t)names;
	a.handles = (uintptr_t)&handle;
	if (ioctl(fd, DCM_IOC_ALIAS_CREATE, &a))
		return fail(NULL, errno);
	printf("ok\n");
	return 0;
}

static int do_watchdog(const char *mode)
{
	struct dcm_ioc_watchdog w;
	int fd = open_dev(mode);

	if (fd < 0)
		return fail("open", errno);
	memset(&w, 0, sizeof(w));
	w.timeout_ms = 1000;
	w.action = DCM_WATCHDOG_HOLD;
	if (ioctl(fd, DCM_IOC_WATCHDOG, &w))
		return fail(NULL, errno);
	memset(&w, 0, sizeof(w));
	if (ioctl(fd, DCM_IOC_WATCHDOG, &w))
		return fail("disarm", errno);
	printf("ok\n");
	return 0;
}

static int do_get(const char *name)
{
	struct dcm_ioc_get g;
	int64_t v = 0;
	uint32_t h, t;
	int fd = open_dev("ro");

	if (fd < 0)
		return fail("open", errno);
	h = dcm_lookup_handle(fd, name);
	if (!h)
		return fail("lookup", errno);
	memset(&g, 0, sizeof(g));
	g.n = 1;
	g.handles = (uintptr_t)&h;
	g.values = (uintptr_t)&v;
	g.times = (uintptr_t)&t;
	if (ioctl(fd, DCM_IOC_GET, &g))
		return fail(NULL, errno);
	printf("ok %lld\n", (long long)v);
	return 0;
}

static int do_mmap(const char *name)
{
	const struct dcm_snapshot *snap;
	long size = sysconf(_SC_PAGESIZE);
	uint32_t h, seq;
	int64_t v;
	int fd = open_dev("ro");

	if (fd < 0)
		return fail("open", errno);
	h = dcm_lookup_handle(fd, name);
	if (!h)
		return fail("lookup", errno);
	snap = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	if (snap == MAP_FAILED)
		return fail(NULL, errno);
	do {
		seq = __atomic_load_n(&snap->seq, __ATOMIC_ACQUIRE);
		v = ((const int64_t *)((const char *)snap + snap->values_offset))
			[DCM_HANDLE_INDEX(h)];
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while ((seq & 1) || seq != __atomic_load_n(&snap->seq, __ATOMIC_ACQUIRE));
	printf("ok %lld\n", (long long)v);
	return 0;
}

static int do_read(void)
{
	size_t size = sizeof(struct dcm_frame) + 8 * DCM_MAX_SUBDEVICES;
	struct dcm_frame *f = malloc(size);
	int fd = open_dev("ro");
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	if (fd < 0)
		return fail("open", errno);
	if (!f || poll(&pfd, 1, 10000) != 1)
		return fail("poll", errno ?: ETIMEDOUT);
	if (read(fd, f, size) <= 0)
		return fail(NULL, errno);
	printf("ok %u\n", f->n_values);
	return 0;
}

static int do_config(void)
{
	struct conn c;
	int ret;

	if (conn_open(&c))
		return fail("netlink", errno ?: EIO);
	ret = begin(&c);
	if (ret) {
		printf("%s\n", ret == -NLE_PERM ? "EPERM" : nl_geterror(ret));
		return 1;
	}
	send_req(&c, DCM_CMD_CONFIG_ABORT, NULL);
	conn_close(&c);
	printf("ok\n");
	return 0;
}

static int do_write(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return fail("open", errno);
	if (write(fd, text, strlen(text)) < 0)
		return fail("write", errno);
	close(fd);
	printf("ok\n");
	return 0;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	int ret = 2;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(cmd, "as"))
		ret = run_as(argc - 1, argv + 1);
	else if (!strcmp(cmd, "open") && argc == 3)
		ret = open_dev(argv[2]) < 0 ? fail(NULL, errno) : (printf("ok\n"), 0);
	else if (!strcmp(cmd, "set") && argc == 5)
		ret = do_set(argv[2], argv[3], argv[4]);
	else if (!strcmp(cmd, "alias") && argc == 3)
		ret = do_alias(argv[2]);
	else if (!strcmp(cmd, "watchdog") && argc == 3)
		ret = do_watchdog(argv[2]);
	else if (!strcmp(cmd, "get") && argc == 3)
		ret = do_get(argv[2]);
	else if (!strcmp(cmd, "mmap") && argc == 3)
		ret = do_mmap(argv[2]);
	else if (!strcmp(cmd, "read") && argc == 2)
		ret = do_read();
	else if (!strcmp(cmd, "config") && argc == 2)
		ret = do_config();
	else if (!strcmp(cmd, "write") && argc == 4)
		ret = do_write(argv[2], argv[3]);
	if (ret == 2)
		fprintf(stderr, "usage: see the head of dcm_access_helper.c\n");
	return ret;
}
