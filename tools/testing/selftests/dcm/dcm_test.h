/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the dcm kselftests.
 */
#ifndef _DCM_TEST_H
#define _DCM_TEST_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/dcm.h>

#define DCM_DEV		"/dev/dcm0"
#define DCM_SYSFS	"/sys/class/dcm/dcm0"

/* Read a sysfs file into buf without its trailing newline; -errno on failure. */
static inline int dcm_read_sysfs(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	close(fd);
	buf[n] = '\0';
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}

/* Run a shell command; its exit status, or -1. */
static inline int dcm_sh(const char *cmd)
{
	int st = system(cmd);

	return st == -1 || !WIFEXITED(st) ? -1 : WEXITSTATUS(st);
}

#endif /* _DCM_TEST_H */
