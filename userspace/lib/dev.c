// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libdcm: the character device /dev/dcmN (versioned ioctls).
 *
 * A handle's state is written once in dcm_open() and only read afterwards;
 * the ioctls themselves are safe to issue concurrently on one descriptor,
 * so no lock is needed (values.c and snapshot.c keep it that way: they
 * work in the caller's memory).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "libdcm-private.h"

/* Copy a fixed-size kernel string, always NUL-terminated. */
static void copy_name(char *dst, const char *src, size_t size)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	memset(dst + n, 0, size - n);
}

int dcm_check_version(const char *path, const struct dcm_ioc_version *v,
		      struct dcm_version *out)
{
	if (v->magic != DCM_ABI_MAGIC)
		return dcm_set_error(-EPROTO,
				     "%s: bad ABI magic 0x%08x (expected 0x%08x): not a dcm device or a foreign module",
				     path, v->magic, DCM_ABI_MAGIC);
	if (v->major != DCM_ABI_MAJOR)
		return dcm_set_error(-EPROTO,
				     "%s: kernel ABI %u.%u, libdcm speaks %u.x: rebuild libdcm or load a matching dcm.ko",
				     path, v->major, v->minor, DCM_ABI_MAJOR);
	out->magic = v->magic;
	out->major = v->major;
	out->minor = v->minor;
	return 0;
}

void dcm_info_from_ioc(const struct dcm_ioc_info *ioc, struct dcm_info *info)
{
	memset(info, 0, sizeof(*info));
	info->index = ioc->index;
	copy_name(info->name, ioc->name, sizeof(info->name));
	copy_name(info->driver, ioc->driver, sizeof(info->driver));
	info->abi_major = ioc->abi_version >> 16;
	info->abi_minor = ioc->abi_version & 0xffff;
	info->period_us = ioc->period_us;
	info->time_ms = ioc->time_ms;
	info->n_devices = ioc->n_devices;
	info->n_subdevices = ioc->n_subdevices;
	info->flags = ioc->flags;
}

DCM_EXPORT int dcm_open(const char *path, struct dcm **out)
{
	struct dcm_ioc_version v;
	struct dcm *dcm;
	size_t len;
	int err;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!path)
		path = LIBDCM_DEFAULT_DEVICE;

	len = strlen(path);
	dcm = calloc(1, sizeof(*dcm) + len + 1);
	if (!dcm)
		return dcm_set_error(-ENOMEM, "out of memory");
	memcpy(dcm->path, path, len + 1);

	dcm->fd = open(path, O_RDWR | O_CLOEXEC);
	if (dcm->fd < 0 && (errno == EACCES || errno == EPERM ||
			    errno == EROFS)) {
		dcm->fd = open(path, O_RDONLY | O_CLOEXEC);
		dcm->read_only = true;
	}
	if (dcm->fd < 0) {
		err = -errno;
		dcm_set_error(err, "%s: %s", path, dcm_strerror(err));
		goto fail;
	}

	memset(&v, 0, sizeof(v));
	if (ioctl(dcm->fd, DCM_IOC_VERSION, &v) < 0) {
		err = -errno;
		if (err == -ENOTTY || err == -EINVAL)
			err = dcm_set_error(-ENOTTY,
					    "%s: not a dcm device (DCM_IOC_VERSION: %s)",
					    path, dcm_strerror(err));
		else
			dcm_set_error(err, "%s: DCM_IOC_VERSION: %s", path,
				      dcm_strerror(err));
		goto fail_close;
	}
	err = dcm_check_version(path, &v, &dcm->version);
	if (err)
		goto fail_close;

	*out = dcm;
	return 0;

fail_close:
	close(dcm->fd);
fail:
	free(dcm);
	return err;
}

DCM_EXPORT int dcm_open_index(unsigned int index, struct dcm **out)
{
	char path[32];

	snprintf(path, sizeof(path), "/dev/dcm%u", index);
	return dcm_open(path, out);
}

DCM_EXPORT void dcm_close(struct dcm *dcm)
{
	if (!dcm)
		return;
	close(dcm->fd);
	free(dcm);
}

DCM_EXPORT int dcm_fd(const struct dcm *dcm)
{
	return dcm ? dcm->fd : -EINVAL;
}

DCM_EXPORT const char *dcm_path(const struct dcm *dcm)
{
	return dcm ? dcm->path : NULL;
}

DCM_EXPORT int dcm_abi_version(const struct dcm *dcm, struct dcm_version *ver)
{
	if (!dcm || !ver)
		return -EINVAL;
	*ver = dcm->version;
	return 0;
}

DCM_EXPORT int dcm_get_info(struct dcm *dcm, struct dcm_info *info)
{
	struct dcm_ioc_info ioc;
	int err;

	if (!dcm || !info)
		return -EINVAL;
	memset(&ioc, 0, sizeof(ioc));
	if (ioctl(dcm->fd, DCM_IOC_INFO, &ioc) < 0) {
		err = -errno;
		return dcm_set_error(err, "%s: DCM_IOC_INFO: %s", dcm->path,
				     dcm_strerror(err));
	}
	dcm_info_from_ioc(&ioc, info);
	return 0;
}
