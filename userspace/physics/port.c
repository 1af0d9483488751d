// SPDX-License-Identifier: GPL-2.0
/*
 * dcm-physics --relay NAME: the virtio serial port of that name (QEMU's
 * virtserialport name=...), found in sysfs, and when it is not there, what
 * is missing: the virtio console device, its PCI transport's driver
 * (virtio_pci) or the console's (virtio_console). Documentation/dcm/
 * physics.rst.
 */

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include <sys/stat.h>

#include "physics.h"

#define VIRTIO_VENDOR		0x1af4
#define VIRTIO_ID_CONSOLE	3
/* A virtio console on PCI: the transitional device and the modern one. */
#define VIRTIO_PCI_CONSOLE_OLD	0x1003
#define VIRTIO_PCI_CONSOLE	(0x1040 + VIRTIO_ID_CONSOLE)

/* The first line of @dir/@name/@file into @buf, its newline cut; 0 or -1. */
static int read_line(const char *dir, const char *name, const char *file, char *buf,
		     size_t len)
{
	char path[PATH_MAX];
	FILE *f;
	int rc = -1;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s/%s", dir, name, file) >= sizeof(path))
		return -1;
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (fgets(buf, (int)len, f)) {
		buf[strcspn(buf, "\n")] = '\0';
		rc = 0;
	}
	fclose(f);
	return rc;
}

/* The number in @dir/@name/@file (sysfs writes "0x1af4"), or -1. */
static long read_hex(const char *dir, const char *name, const char *file)
{
	char buf[32], *end;
	long v;

	if (read_line(dir, name, file, buf, sizeof(buf)))
		return -1;
	errno = 0;
	v = strtol(buf, &end, 16);
	return errno || end == buf ? -1 : v;
}

/* @path is a character device. */
static bool is_chr(const char *path)
{
	struct stat sb;

	return !stat(path, &sb) && S_ISCHR(sb.st_mode);
}

/* Appends ", @s" (or @s first) to @buf, as far as it fits. */
static void add_name(char *buf, size_t len, const char *s)
{
	size_t n = strlen(buf);

	if (n < len && snprintf(buf + n, len - n, "%s%s", n ? ", " : "", s) >= (int)(len - n))
		buf[len - 1] = '\0';	/* cut, and said so by nothing more */
}

/*
 * The ports of @sys by name: 0 and @out for @name's when its /dev node is
 * a device, 1 with @why when it is not (yet) or no port has that name
 * (@names then lists theirs; *@nports counts them), -1 on a path too long.
 */
static int find_named(const char *sys, const char *dev, const char *name, char *out,
		      size_t len, char *why, size_t wlen, char *names, size_t nlen, int *nports)
{
	char dir[PATH_MAX], buf[256];
	struct dirent *e;
	int rc = 1;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/class/virtio-ports", sys);
	d = opendir(dir);
	while (d && (e = readdir(d)) && rc > 0) {
		if (e->d_name[0] == '.' || read_line(dir, e->d_name, "name", buf, sizeof(buf)))
			continue;
		(*nports)++;
		add_name(names, nlen, buf);
		if (strcmp(buf, name))
			continue;
		if ((size_t)snprintf(out, len, "%s/%s", dev, e->d_name) >= len) {
			snprintf(why, wlen, "--relay %s: %s/%s: path too long", name, dev, e->d_name);
			rc = -1;
		} else if (is_chr(out)) {
			rc = 0;
		} else {
			snprintf(why, wlen, "--relay %s: the port is %s/%s in sysfs but %s is no "
				 "device (yet)", name, dir, e->d_name, out);
			rc = 2;
		}
	}
	if (d)
		closedir(d);
	return rc;
}

/* The virtio console devices of @sys's virtio bus into *@cons, those bound to a driver *@bound. */
static void count_consoles(const char *sys, int *cons, int *bound)
{
	char dir[PATH_MAX], drv[PATH_MAX];
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/bus/virtio/devices", sys);
	d = opendir(dir);
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.' || read_hex(dir, e->d_name, "device") != VIRTIO_ID_CONSOLE)
			continue;
		(*cons)++;
		if ((size_t)snprintf(drv, sizeof(drv), "%s/%s/driver", dir, e->d_name) < sizeof(drv))
			*bound += !access(drv, F_OK);
	}
	if (d)
		closedir(d);
}

/* The virtio PCI devices of @sys into *@pci, the consoles among them *@pci_cons. */
static void count_pci(const char *sys, int *pci, int *pci_cons)
{
	char dir[PATH_MAX];
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/bus/pci/devices", sys);
	d = opendir(dir);
	while (d && (e = readdir(d))) {
		long dv;

		if (e->d_name[0] == '.' || read_hex(dir, e->d_name, "vendor") != VIRTIO_VENDOR)
			continue;
		(*pci)++;
		dv = read_hex(dir, e->d_name, "device");
		*pci_cons += dv == VIRTIO_PCI_CONSOLE_OLD || dv == VIRTIO_PCI_CONSOLE;
	}
	if (d)
		closedir(d);
}

int phys_port_find(const char *sys, const char *dev, const char *name, char *out, size_t len,
		   char *why, size_t wlen)
{
	int nports = 0, cons = 0, bound = 0, pci = 0, pci_cons = 0, rc;
	char names[256] = "";

	rc = find_named(sys, dev, name, out, len, why, wlen, names, sizeof(names), &nports);
	if (rc <= 0 || rc == 2)
		return rc < 0 ? -1 : rc ? 1 : 0;
	if (nports) {
		snprintf(why, wlen, "--relay %s: no virtio serial port of that name (there are: %s)",
			 name, names);
		return 1;
	}
	/* No port at all: what is there of the console and its transport */
	count_consoles(sys, &cons, &bound);
	count_pci(sys, &pci, &pci_cons);
	if (cons && bound < cons)
		snprintf(why, wlen, "--relay %s: a virtio console device without its driver: "
			 "virtio_console is not loaded (modprobe virtio_console)", name);
	else if (cons)
		snprintf(why, wlen, "--relay %s: the virtio console has no port yet", name);
	else if (pci_cons)
		snprintf(why, wlen, "--relay %s: a virtio console on PCI but no virtio device: "
			 "virtio_pci is not loaded (modprobe -a virtio_pci virtio_console)", name);
	else if (pci)
		snprintf(why, wlen, "--relay %s: no virtio console device (the VM has no "
			 "virtio-serial: scripts/dcm-vm --physics gives it one)", name);
	else
		snprintf(why, wlen, "--relay %s: no virtio device at all: not a VM with a virtio "
			 "serial port (on the kernel that runs dcm_sim, run dcm-physics without "
			 "--relay: it opens the link itself)", name);
	return 1;
}

int phys_port_wait(const char *sys, const char *dev, const char *name, unsigned int wait_s,
		   volatile int *stop, char *out, size_t len, char *why, size_t wlen)
{
	struct timespec t0, now;
	int rc;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		rc = phys_port_find(sys, dev, name, out, len, why, wlen);
		if (rc <= 0 || *stop)
			return rc;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - t0.tv_sec >= (time_t)wait_s)
			return rc;
		nanosleep(&(struct timespec){ .tv_nsec = 100000000 }, NULL);
	}
}
