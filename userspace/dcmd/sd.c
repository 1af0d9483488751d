// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcmd: the two things it needs of systemd, written from their documented
 * protocols (no libsystemd): is stderr the journal, and the service
 * manager's readiness notification.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "dcmd.h"

/*
 * systemd connects a service's stderr to the journal and says so in
 * $JOURNAL_STREAM ("DEVICE:INODE" of that stream). Inherited by a child
 * whose stderr was redirected, it no longer matches: compare.
 */
bool dcmd_stderr_is_journal(void)
{
	const char *env = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;
	int n = 0;

	if (!env || sscanf(env, "%llu:%llu%n", &dev, &ino, &n) != 2 || env[n])
		return false;
	if (fstat(STDERR_FILENO, &st) < 0)
		return false;
	return (unsigned long long)st.st_dev == dev && (unsigned long long)st.st_ino == ino;
}

/*
 * sd_notify(3)'s protocol: one datagram to the AF_UNIX socket named by
 * $NOTIFY_SOCKET (a path, or "@name" for the abstract namespace).
 */
int dcmd_notify(const char *state)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t len, slen;
	socklen_t alen;
	ssize_t n;
	int fd, e;

	if (!path || !*path)
		return 0;
	len = strlen(path);
	if ((path[0] != '/' && path[0] != '@') || len >= sizeof(sa.sun_path))
		return -EINVAL;
	memcpy(sa.sun_path, path, len);
	if (path[0] == '@')
		sa.sun_path[0] = '\0';
	alen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len +
			   (path[0] == '/'));
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	slen = strlen(state);
	n = sendto(fd, state, slen, MSG_NOSIGNAL, (struct sockaddr *)&sa, alen);
	e = errno;
	close(fd);
	if (n < 0)
		return -e;
	return (size_t)n == slen ? 1 : -EIO;
}
