// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcm-flight's directory and pid file: the directory checked (no link, no
 * one else's, no one else may write in it), one recorder a directory by
 * the write lock on flight.pid (which --dump finds it by), and the oldest
 * files pruned beyond --keep.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "flight.h"

int flight_dir_open(const char *dir, bool create, bool any_owner, char *why, size_t len)
{
	struct stat st;
	int fd, e;

	if (create && mkdir(dir, 0755) && errno != EEXIST) {
		e = errno;
		snprintf(why, len, "%s: %s", dir, strerror(e));
		return -e;
	}
	/* the directory itself no symbolic link; every file then relative to it */
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		/* O_DIRECTORY says ENOTDIR of a link, O_NOFOLLOW alone ELOOP */
		if (e == ENOTDIR && !lstat(dir, &st) && S_ISLNK(st.st_mode))
			e = ELOOP;
		if (e == ELOOP)
			snprintf(why, len, "%s: a symbolic link: refused (give the directory itself)",
				 dir);
		else
			snprintf(why, len, "%s: %s", dir, strerror(e));
		return -e;
	}
	if (fstat(fd, &st)) {
		e = errno;
		snprintf(why, len, "%s: %s", dir, strerror(e));
		close(fd);
		return -e;
	}
	if (!any_owner && st.st_uid != geteuid() && st.st_uid != 0) {
		snprintf(why, len, "%s: owned by uid %u, neither this user (uid %u) nor root: refused (its owner could put links in it)",
			 dir, (unsigned int)st.st_uid, (unsigned int)geteuid());
		close(fd);
		return -EPERM;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(why, len, "%s: writable by %s (mode %04o): refused (they could put links in it)",
			 dir, st.st_mode & S_IWOTH ? "every user" : "its group",
			 (unsigned int)(st.st_mode & 07777));
		close(fd);
		return -EPERM;
	}
	return fd;
}

/* Who holds the write lock on the pid file @fd: a pid, 0 (no one), or -errno. */
static pid_t lock_holder(int fd)
{
	struct flock fl = { .l_type = F_RDLCK, .l_whence = SEEK_SET };

	if (fcntl(fd, F_GETLK, &fl))
		return -errno;
	if (fl.l_type == F_UNLCK)
		return 0;
	/* a holder in another pid namespace has no pid here */
	return fl.l_pid > 0 ? fl.l_pid : -ESRCH;
}

int flight_pid_lock(int dirfd, pid_t *holder)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	struct stat st, now;
	char buf[32];
	int fd, e, tries, len;

	*holder = 0;
	for (tries = 0; tries < 5; tries++) {
		fd = openat(dirfd, FLIGHT_PID, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0)
			return -errno;	/* ELOOP: a symbolic link */
		if (fstat(fd, &st)) {
			e = errno;
			close(fd);
			return -e;
		}
		if (!S_ISREG(st.st_mode) || st.st_nlink != 1) {
			close(fd);
			return -EMLINK;	/* a hard link to another file, or no file */
		}
		/* a POSIX lock: F_GETLK tells flight-dump the holder's pid */
		if (fcntl(fd, F_SETLK, &fl)) {
			e = errno;
			if (e == EAGAIN || e == EACCES) {
				*holder = lock_holder(fd);
				e = EAGAIN;
			}
			close(fd);
			return -e;
		}
		/* still the file of that name: not one a recorder ending just unlinked */
		if (!fstatat(dirfd, FLIGHT_PID, &now, AT_SYMLINK_NOFOLLOW) &&
		    now.st_dev == st.st_dev && now.st_ino == st.st_ino)
			break;
		close(fd);
		fd = -1;
	}
	if (fd < 0)
		return -EAGAIN;
	len = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) || pwrite(fd, buf, (size_t)len, 0) != len) {
		e = errno;
		close(fd);
		return -e;
	}
	return fd;
}

pid_t flight_pid_holder(int dirfd, long *written)
{
	char buf[32];
	ssize_t n;
	pid_t pid;
	int fd;

	*written = 0;
	fd = openat(dirfd, FLIGHT_PID, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	*written = strtol(buf, NULL, 10);
	pid = lock_holder(fd);
	close(fd);
	return pid;
}

/* Is @name one of dcm@index's flight files: flight-*-dcmN.jsonl or .mcap? */
static bool flight_file_of(const char *name, unsigned int index)
{
	static const char *const ext[] = { "jsonl", "mcap" };
	char suffix[32];
	size_t len = strlen(name), slen, i;

	for (i = 0; i < 2; i++) {
		slen = (size_t)snprintf(suffix, sizeof(suffix), "-dcm%u.%s", index, ext[i]);
		if (!strncmp(name, "flight-", 7) && len > 7 + slen &&
		    !strcmp(name + len - slen, suffix))
			return true;
	}
	return false;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void names_free(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* The names of dcm@index's files in @dirfd but @spare, into *@names (*@n). 0 or -errno. */
static int list_files(int dirfd, unsigned int index, const char *spare, char ***names,
		      size_t *n)
{
	size_t cap = 0;
	struct dirent *de;
	char **more;
	int fd, e;
	DIR *d;

	*names = NULL;
	*n = 0;
	/* a descriptor of its own: closedir() closes it */
	fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		e = errno;
		close(fd);
		return -e;
	}
	while ((de = readdir(d))) {
		if (!flight_file_of(de->d_name, index) || (spare && !strcmp(de->d_name, spare)))
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			more = realloc(*names, cap * sizeof(**names));
			if (!more)
				goto nomem;
			*names = more;
		}
		(*names)[*n] = strdup(de->d_name);
		if (!(*names)[*n])
			goto nomem;
		(*n)++;
	}
	closedir(d);
	return 0;
nomem:
	closedir(d);
	names_free(*names, *n);
	*names = NULL;
	*n = 0;
	return -ENOMEM;
}

int flight_prune(int dirfd, unsigned int index, unsigned int keep, const char *spare)
{
	char **names;
	size_t n, i;
	int removed = 0, r;

	if (!keep)
		return 0;
	r = list_files(dirfd, index, spare, &names, &n);
	if (r)
		return r;
	/* the names begin with the date and time: the oldest first */
	if (n)
		qsort(names, n, sizeof(*names), by_name);
	if (spare)
		keep--;	/* @spare is one of those kept */
	for (i = 0; i + keep < n; i++) {
		if (!unlinkat(dirfd, names[i], 0))
			removed++;
		else if (errno != ENOENT)
			fprintf(stderr, "dcm-flight: %s: %s\n", names[i], strerror(errno));
	}
	names_free(names, n);
	return removed;
}
