// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libdcm: the watchdog of a handle's commands (DCM_IOC_WATCHDOG).
 *
 * The kernel checks every field again; the checks here give the caller a
 * message that says which one is wrong, and spare a read-only handle or an
 * older kernel the system call.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#include "libdcm-private.h"

/* The ioctl, with a message for each refusal the kernel may answer. */
static int watchdog_ioctl(struct dcm *dcm, struct dcm_ioc_watchdog *w, const char *what)
{
	const char *hint = "";
	int err;

	if (dcm->read_only)
		return dcm_set_error(-EBADF,
				     "%s: %s: the device was opened read-only: the watchdog needs write access (group dcm)",
				     dcm->path, what);
	if (dcm->version.minor < 1)
		return dcm_set_error(-EOPNOTSUPP,
				     "%s: %s: the kernel's ABI %u.%u has no watchdog (1.1 and later)",
				     dcm->path, what, dcm->version.major, dcm->version.minor);
	if (ioctl(dcm->fd, DCM_IOC_WATCHDOG, w) == 0)
		return 0;
	err = -errno;
	switch (err) {
	case -ENOENT:
		hint = " (no watchdog is armed)";
		break;
	case -ETIMEDOUT:
		hint = " (the watchdog fired: arm it again or disarm it)";
		break;
	case -EBADF:
		hint = " (the device is not open for writing)";
		break;
	}
	return dcm_set_error(err, "%s: %s: %s%s", dcm->path, what, dcm_strerror(err), hint);
}

DCM_EXPORT int dcm_watchdog_arm(struct dcm *dcm, uint32_t timeout_ms,
				enum dcm_safe_action action, uint32_t ramp_ms)
{
	struct dcm_ioc_watchdog w;

	if (!dcm)
		return dcm_set_error(-EINVAL, "dcm_watchdog_arm: NULL argument");
	if (timeout_ms < LIBDCM_WATCHDOG_MIN_MS || timeout_ms > LIBDCM_WATCHDOG_MAX_MS)
		return dcm_set_error(-EINVAL, "dcm_watchdog_arm: timeout %u ms, not %d to %d",
				     timeout_ms, LIBDCM_WATCHDOG_MIN_MS,
				     LIBDCM_WATCHDOG_MAX_MS);
	if (action != LIBDCM_WATCHDOG_HOLD && action != LIBDCM_WATCHDOG_RAMP)
		return dcm_set_error(-EINVAL, "dcm_watchdog_arm: unknown action %d",
				     (int)action);
	if (action == LIBDCM_WATCHDOG_HOLD ? ramp_ms != 0 :
					    ramp_ms > LIBDCM_WATCHDOG_RAMP_MAX_MS)
		return dcm_set_error(-EINVAL,
				     "dcm_watchdog_arm: ramp %u ms (hold: 0, ramp: at most %d)",
				     ramp_ms, LIBDCM_WATCHDOG_RAMP_MAX_MS);
	memset(&w, 0, sizeof(w));
	w.timeout_ms = timeout_ms;
	w.action = (uint32_t)action;
	w.ramp_ms = ramp_ms;
	return watchdog_ioctl(dcm, &w, "DCM_IOC_WATCHDOG (arm)");
}

DCM_EXPORT int dcm_watchdog_kick(struct dcm *dcm)
{
	struct dcm_ioc_watchdog w;

	if (!dcm)
		return dcm_set_error(-EINVAL, "dcm_watchdog_kick: NULL argument");
	memset(&w, 0, sizeof(w));
	w.flags = DCM_WATCHDOG_F_KICK;
	return watchdog_ioctl(dcm, &w, "DCM_IOC_WATCHDOG (kick)");
}

DCM_EXPORT int dcm_watchdog_disarm(struct dcm *dcm)
{
	struct dcm_ioc_watchdog w;

	if (!dcm)
		return dcm_set_error(-EINVAL, "dcm_watchdog_disarm: NULL argument");
	memset(&w, 0, sizeof(w));
	return watchdog_ioctl(dcm, &w, "DCM_IOC_WATCHDOG (disarm)");
}
