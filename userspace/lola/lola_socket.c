// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcm-lola's listening sockets, owned whatever a local user did first
 * (lola_guard.h; Documentation/dcm/lola.rst, "Who owns the socket").
 *
 * A LoLA client finds its server by a path in /tmp, where every local user
 * may create files. Checking what is there and then binding races with a
 * user who keeps recreating it; instead the socket is made complete under
 * a fresh name nobody can guess or occupy (bind() fails on an existing
 * name, and does not follow symlinks), then rename()d over the path: the
 * one step replaces whatever the entry is at that moment. In a sticky
 * directory (/tmp) only root (CAP_FOWNER) may replace another user's entry,
 * and nobody but root may then replace or remove the daemon's socket.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "lola_guard.h"

#define SD_LISTEN_FDS_START	3
#define MAX_INHERITED		16

static void say(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void say(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!buf || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

static const char *kind(mode_t m)
{
	if (S_ISSOCK(m))
		return "socket";
	if (S_ISLNK(m))
		return "symlink";
	if (S_ISREG(m))
		return "file";
	if (S_ISDIR(m))
		return "directory";
	if (S_ISFIFO(m))
		return "fifo";
	return "special file";
}

/* Split @path into its directory (".": the current one) and its last name. */
static int split(const char *path, char *dir, size_t dlen, const char **base)
{
	const char *slash = strrchr(path, '/');

	if (!slash) {
		snprintf(dir, dlen, ".");
		*base = path;
	} else if (slash == path) {
		snprintf(dir, dlen, "/");
		*base = slash + 1;
	} else {
		if ((size_t)(slash - path) >= dlen)
			return -ENAMETOOLONG;
		memcpy(dir, path, (size_t)(slash - path));
		dir[slash - path] = 0;
		*base = slash + 1;
	}
	if (!**base || !strcmp(*base, ".") || !strcmp(*base, ".."))
		return -EINVAL;
	return 0;
}

/* Is a live server listening on the socket at @path? */
static bool live(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	bool ret;
	int fd;

	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return false;
	ret = connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0;
	close(fd);
	return ret;
}

/*
 * Bind and listen under "DIR/.BASE.XXXXXXXX", a name of its own: @tmp gets
 * the path, @tmpbase points to its last name. The mode is set before
 * listen(), so no connection comes in under a wider one. The name must be
 * in @dfd, the directory checked (not one swapped in under @dir's path).
 */
static int bind_fresh(int dfd, const char *dir, const char *base, mode_t mode, char *tmp,
		      size_t tlen, const char **tmpbase, struct stat *st, char *err,
		      size_t errlen)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd, tries, ret;
	uint32_t r;
	mode_t old;

	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		ret = -errno;
		say(err, errlen, "socket: %s", strerror(errno));
		return ret;
	}
	for (tries = 0; tries < 100; tries++) {
		if (getrandom(&r, sizeof(r), 0) != sizeof(r))
			r = (uint32_t)rand() ^ (uint32_t)getpid() << 16;
		if ((size_t)snprintf(tmp, tlen, "%s/.%s.%08x", dir, base, r) >= tlen ||
		    strlen(tmp) >= sizeof(a.sun_path)) {
			say(err, errlen, "path too long (a socket's is at most %zu bytes, "
			    "with 10 more for its temporary name)", sizeof(a.sun_path) - 11);
			close(fd);
			return -ENAMETOOLONG;
		}
		strcpy(a.sun_path, tmp);
		old = umask(0177);
		ret = bind(fd, (struct sockaddr *)&a, sizeof(a));
		umask(old);
		if (!ret)
			break;
		if (errno != EADDRINUSE) {
			ret = -errno;
			say(err, errlen, "bind %s: %s", tmp, strerror(errno));
			close(fd);
			return ret;
		}
	}
	if (tries == 100) {
		say(err, errlen, "no free temporary name in %s", dir);
		close(fd);
		return -EADDRINUSE;
	}
	*tmpbase = strrchr(tmp, '/') + 1;
	if (fchmodat(dfd, *tmpbase, mode, 0) || fstatat(dfd, *tmpbase, st, AT_SYMLINK_NOFOLLOW) ||
	    listen(fd, 16)) {
		ret = -errno;
		say(err, errlen, "%s: %s", tmp, ret == -ENOENT ? "the directory changed" :
		    strerror(errno));
		unlinkat(dfd, *tmpbase, 0);
		close(fd);
		return ret;
	}
	return fd;
}

/*
 * The directory of the socket @path (@base in it), open: nobody else may
 * rename or remove what is in it, and no other dcm-lola (root's, or this
 * user's) serves there. The directory's fd, or -errno said in @err.
 */
static int open_socket_dir(const char *path, const char *dir, const char *base, uid_t me,
			   char *err, size_t errlen)
{
	struct stat ds, st;
	int dfd, ret;

	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || fstat(dfd, &ds)) {
		ret = -errno;
		say(err, errlen, "%s: %s", dir, strerror(errno));
		if (dfd >= 0)
			close(dfd);
		return ret;
	}
	if (ds.st_uid != 0 && ds.st_uid != me) {
		say(err, errlen, "the directory %s belongs to uid %u, who could replace the socket",
		    dir, (unsigned int)ds.st_uid);
		close(dfd);
		return -EPERM;
	}
	if ((ds.st_mode & (S_IWGRP | S_IWOTH)) && !(ds.st_mode & S_ISVTX)) {
		say(err, errlen, "the directory %s is writable by others and not sticky: anyone "
		    "could replace the socket", dir);
		close(dfd);
		return -EPERM;
	}
	/* Another dcm-lola (root's, or this user's) serving there is not replaced. */
	if (!fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) && S_ISSOCK(st.st_mode) &&
	    (st.st_uid == 0 || st.st_uid == me) && live(path)) {
		say(err, errlen, "a server already listens there (uid %u)", (unsigned int)st.st_uid);
		close(dfd);
		return -EADDRINUSE;
	}
	return dfd;
}

/*
 * The socket bound at @tmpbase (@tmp in full) takes the name @base.
 * Whatever is there now is replaced in one step; a directory (which
 * rename() cannot replace) is swapped with the socket, and stays under
 * the temporary name. A user recreating it meanwhile only makes us go
 * round again. 0, or -errno said in @err with the socket's name removed.
 */
static int take_path(int dfd, const char *base, const char *tmp, const char *tmpbase,
		     uid_t me, char *err, size_t errlen, char *note, size_t notelen)
{
	struct stat st;
	int ret, tries;

	for (tries = 0; tries < 1000; tries++) {
		bool there = !fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW);

		if (!renameat(dfd, tmpbase, dfd, base)) {
			if (there && (st.st_uid != me || !S_ISSOCK(st.st_mode)))
				say(note, notelen, "replaced a %s of uid %u", kind(st.st_mode),
				    (unsigned int)st.st_uid);
			else if (there)
				say(note, notelen, "replaced a stale socket");
			return 0;
		}
		if (errno != EISDIR && errno != ENOTEMPTY && errno != EEXIST)
			goto fail;
		if (!renameat2(dfd, tmpbase, dfd, base, RENAME_EXCHANGE)) {
			say(note, notelen, "moved a directory of uid %u out of the way, to %s",
			    (unsigned int)st.st_uid, tmp);
			return 0;
		}
		if (errno != ENOENT)
			goto fail;
	}
	unlinkat(dfd, tmpbase, 0);
	say(err, errlen, "could not take the path: it changed 1000 times in a row");
	return -EAGAIN;
fail:
	ret = -errno;
	if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW))
		st.st_uid = 0;
	if (ret == -EPERM || ret == -EACCES)
		say(err, errlen, "cannot replace what uid %u put there (%s): the sticky "
		    "directory lets only root (CAP_FOWNER) do it; run dcm-lola as root or "
		    "through dcm-lola.socket", (unsigned int)st.st_uid, strerror(-ret));
	else
		say(err, errlen, "rename %s: %s", tmp, strerror(-ret));
	unlinkat(dfd, tmpbase, 0);
	return ret;
}

int lola_listen(struct lola_listener *l, const char *path, mode_t mode, char *err,
		size_t errlen, char *note, size_t notelen)
{
	char dir[LOLA_PATH_MAX], tmp[LOLA_PATH_MAX + 16];
	struct stat sock;
	const char *base, *tmpbase = NULL;
	int dfd, fd, ret;
	uid_t me = geteuid();

	l->fd = -1;
	l->ours = false;
	say(note, notelen, "%s", "");
	if (strlen(path) >= sizeof(l->path)) {
		say(err, errlen, "path too long (at most %zu bytes)", sizeof(l->path) - 1);
		return -ENAMETOOLONG;
	}
	ret = split(path, dir, sizeof(dir), &base);
	if (ret) {
		say(err, errlen, "not a path of a socket");
		return ret;
	}
	dfd = open_socket_dir(path, dir, base, me, err, errlen);
	if (dfd < 0)
		return dfd;
	fd = bind_fresh(dfd, dir, base, mode, tmp, sizeof(tmp), &tmpbase, &sock, err, errlen);
	if (fd < 0) {
		close(dfd);
		return fd;
	}
	ret = take_path(dfd, base, tmp, tmpbase, me, err, errlen, note, notelen);
	close(dfd);
	if (ret) {
		close(fd);
		return ret;
	}
	snprintf(l->path, sizeof(l->path), "%s", path);
	l->fd = fd;
	l->dev = sock.st_dev;
	l->ino = sock.st_ino;
	l->ours = true;
	return 0;
}

/* ---- socket activation ---- */

static struct {
	bool parsed;
	int n;
	int fd[MAX_INHERITED];
	bool claimed[MAX_INHERITED];
} inh;

static void parse_inherited(void)
{
	const char *pid = getenv("LISTEN_PID"), *fds = getenv("LISTEN_FDS");
	char *end;
	long n;
	int i;

	if (inh.parsed)
		return;
	inh.parsed = true;
	if (!pid || !fds || strtol(pid, &end, 10) != getpid() || *end)
		return;
	n = strtol(fds, &end, 10);
	if (*end || n <= 0)
		return;
	if (n > MAX_INHERITED)
		n = MAX_INHERITED;
	for (i = 0; i < n; i++) {
		inh.fd[i] = SD_LISTEN_FDS_START + i;
		fcntl(inh.fd[i], F_SETFD, FD_CLOEXEC);
	}
	inh.n = (int)n;
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	unsetenv("LISTEN_FDNAMES");
}

static bool bound_to(int fd, char *path, size_t len)
{
	struct sockaddr_un a;
	socklen_t alen = sizeof(a);

	memset(&a, 0, sizeof(a));
	if (getsockname(fd, (struct sockaddr *)&a, &alen) || a.sun_family != AF_UNIX ||
	    alen <= offsetof(struct sockaddr_un, sun_path) || !a.sun_path[0])
		return false;
	snprintf(path, len, "%.*s", (int)(alen - offsetof(struct sockaddr_un, sun_path)),
		 a.sun_path);
	return true;
}

int lola_listen_inherited(struct lola_listener *l, const char *path, char *err, size_t errlen)
{
	char bound[LOLA_PATH_MAX + 1];
	int i, type, flags;
	socklen_t len = sizeof(type);

	l->fd = -1;
	l->ours = false;
	parse_inherited();
	for (i = 0; i < inh.n; i++) {
		if (inh.claimed[i] || !bound_to(inh.fd[i], bound, sizeof(bound)) ||
		    strcmp(bound, path))
			continue;
		if (getsockopt(inh.fd[i], SOL_SOCKET, SO_TYPE, &type, &len) ||
		    type != SOCK_STREAM) {
			say(err, errlen, "the service manager passed %s, not a stream socket",
			    path);
			return -EINVAL;
		}
		flags = fcntl(inh.fd[i], F_GETFL);
		if (flags < 0 || fcntl(inh.fd[i], F_SETFL, flags | O_NONBLOCK)) {
			say(err, errlen, "%s: %s", path, strerror(errno));
			return -errno;
		}
		inh.claimed[i] = true;
		l->fd = inh.fd[i];
		snprintf(l->path, sizeof(l->path), "%s", path);
		return 1;
	}
	return 0;
}

int lola_inherited_unclaimed(char *path, size_t len)
{
	int i;

	for (i = 0; i < inh.n; i++) {
		if (inh.claimed[i])
			continue;
		if (!bound_to(inh.fd[i], path, len))
			snprintf(path, len, "(not a unix socket)");
		close(inh.fd[i]);
		inh.claimed[i] = true;
		return SD_LISTEN_FDS_START + i;
	}
	return -1;
}

void lola_unlisten(struct lola_listener *l)
{
	struct stat st;

	if (l->fd < 0)
		return;
	close(l->fd);
	l->fd = -1;
	/* Only the file put there, not what root may have put there since. */
	if (l->ours && !lstat(l->path, &st) && st.st_dev == l->dev && st.st_ino == l->ino)
		unlink(l->path);
	l->ours = false;
}

int lola_peer_trusted(int fd, uid_t uid, uid_t *peer_uid)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len))
		return -errno;
	*peer_uid = cred.uid;
	return cred.uid == 0 || cred.uid == uid ? 0 : -EPERM;
}
