// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libdcm: the snapshot that mmap() of /dev/dcmN maps, read without a
 * system call under its sequence count.
 *
 * The cycle is the only writer: it makes the count odd, writes the values,
 * their times, the cycle number and the DCM time, then makes it even
 * again. A reader loads the count (acquire), copies what it wants with
 * relaxed loads, fences (acquire) and loads the count again: the copy is
 * one cycle's if both loads are equal and even. Readers never write, so
 * any number of threads may read one mapping at once.
 *
 * Layout 1 (ABI 1.4) has one entry per handle, the live keys after the
 * subdevices (n_handles); layout 0 has the subdevices only (n_values).
 * dcm_snapshot_wait() is the per-cycle wake-up: poll() of the descriptor
 * in DCM_READ_F_SNAPSHOT mode is readable once per published snapshot.
 */
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "libdcm-private.h"

struct dcm_snap {
	struct dcm *dcm;		/* for dcm_snapshot_check(), may be NULL */
	const void *mem;
	size_t len;
	bool owned;			/* munmap() @mem when done */
	const struct dcm_snapshot *hdr;
	const int64_t *values;
	const uint32_t *times;
	uint32_t n;
	uint32_t layout;
	bool waiting;			/* the descriptor is in DCM_READ_F_SNAPSHOT mode */
	uint64_t last_cycle;		/* the cycle dcm_snapshot_wait() last reported */
};

#ifdef LIBDCM_TESTING
void (*dcm_snapshot_test_hook)(void *arg);
void *dcm_snapshot_test_arg;
#endif

int dcm_snapshot_wrap(struct dcm *dcm, const void *mem, size_t len, bool owned,
		      struct dcm_snap **out)
{
	const struct dcm_snapshot *hdr = mem;
	struct dcm_snap *s;
	uint64_t n, vo, to;
	uint32_t layout;

	if (!mem || !out)
		return dcm_set_error(-EINVAL, "dcm_snapshot_wrap: NULL argument");
	if (len < sizeof(*hdr))
		return dcm_set_error(-EPROTO, "snapshot: %zu bytes, less than its header", len);
	n = __atomic_load_n(&hdr->n_values, __ATOMIC_RELAXED);
	layout = __atomic_load_n(&hdr->layout, __ATOMIC_RELAXED);
	if (layout >= 1) {
		/* ABI 1.4: the live keys follow the subdevices in both arrays. */
		uint64_t all = __atomic_load_n(&hdr->n_handles, __ATOMIC_RELAXED);

		if (all < n)
			return dcm_set_error(-EPROTO,
					     "snapshot: %llu handles for %llu subdevices",
					     (unsigned long long)all, (unsigned long long)n);
		n = all;
	}
	vo = __atomic_load_n(&hdr->values_offset, __ATOMIC_RELAXED);
	to = __atomic_load_n(&hdr->times_offset, __ATOMIC_RELAXED);
	if (vo < sizeof(*hdr) || vo % sizeof(int64_t) || vo + n * sizeof(int64_t) > len)
		return dcm_set_error(-EPROTO,
				     "snapshot: values at %llu for %llu entries do not fit in %zu bytes",
				     (unsigned long long)vo, (unsigned long long)n, len);
	if (to < sizeof(*hdr) || to % sizeof(uint32_t) || to + n * sizeof(uint32_t) > len)
		return dcm_set_error(-EPROTO,
				     "snapshot: times at %llu for %llu entries do not fit in %zu bytes",
				     (unsigned long long)to, (unsigned long long)n, len);
	if (n && vo < to + n * sizeof(uint32_t) && to < vo + n * sizeof(int64_t))
		return dcm_set_error(-EPROTO, "snapshot: values and times overlap");
	s = calloc(1, sizeof(*s));
	if (!s)
		return dcm_set_error(-ENOMEM, "out of memory");
	s->dcm = dcm;
	s->mem = mem;
	s->len = len;
	s->owned = owned;
	s->hdr = hdr;
	s->values = (const int64_t *)((const char *)mem + vo);
	s->times = (const uint32_t *)((const char *)mem + to);
	s->n = (uint32_t)n;
	s->layout = layout;
	*out = s;
	return 0;
}

DCM_EXPORT int dcm_snapshot_map(struct dcm *dcm, struct dcm_snap **out)
{
	size_t len, size;
	void *p;
	int err, tries;

	if (!dcm || !out)
		return dcm_set_error(-EINVAL, "dcm_snapshot_map: NULL argument");
	*out = NULL;
	len = (size_t)sysconf(_SC_PAGESIZE);
	/* Map a page, read the size the header asks for, map that. */
	for (tries = 0; tries < 4; tries++) {
		p = mmap(NULL, len, PROT_READ, MAP_SHARED, dcm->fd, 0);
		if (p == MAP_FAILED) {
			err = -errno;
			if (err == -EINVAL && tries) {
				/* replaced by a smaller one meanwhile */
				p = NULL;
				len = (size_t)sysconf(_SC_PAGESIZE);
				continue;
			}
			return dcm_set_error(err, "%s: mmap: %s%s", dcm->path, dcm_strerror(err),
					     err == -ENODEV ? " (no description loaded)" : "");
		}
		size = __atomic_load_n(&((const struct dcm_snapshot *)p)->size, __ATOMIC_RELAXED);
		if (size == len)
			break;
		munmap(p, len);
		p = NULL;
		if (size < sizeof(struct dcm_snapshot) || size > (1U << 30))
			return dcm_set_error(-EPROTO, "%s: snapshot of %zu bytes", dcm->path, size);
		len = size;
	}
	if (!p)
		return dcm_set_error(-EAGAIN, "%s: mmap: the snapshot kept changing size",
				     dcm->path);
	err = dcm_snapshot_wrap(dcm, p, len, true, out);
	if (err)
		munmap(p, len);
	return err;
}

DCM_EXPORT void dcm_snapshot_unmap(struct dcm_snap *snap)
{
	if (!snap)
		return;
	if (snap->owned)
		munmap((void *)snap->mem, snap->len);
	free(snap);
}

DCM_EXPORT uint32_t dcm_snapshot_layout(const struct dcm_snap *snap)
{
	return snap ? snap->layout : 0;
}

static int64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

DCM_EXPORT int dcm_snapshot_wait(struct dcm_snap *snap, int timeout_ms)
{
	int64_t end = timeout_ms > 0 ? mono_ms() + timeout_ms : 0;
	struct pollfd pfd;
	uint64_t cyc;
	int r, err, left = timeout_ms;

	if (!snap || !snap->dcm)
		return dcm_set_error(-EINVAL, "dcm_snapshot_wait: no device");
	if (!snap->waiting) {
		struct dcm_ioc_read_mode m;

		if (snap->dcm->version.minor < 4)
			return dcm_set_error(-EOPNOTSUPP,
					     "%s: waiting on the snapshot needs ABI 1.4, the module has %u.%u",
					     snap->dcm->path, snap->dcm->version.major,
					     snap->dcm->version.minor);
		memset(&m, 0, sizeof(m));
		m.flags = DCM_READ_F_SNAPSHOT;
		m.mask = DCM_READ_F_SNAPSHOT;
		if (ioctl(snap->dcm->fd, DCM_IOC_READ_MODE, &m) < 0) {
			err = -errno;
			return dcm_set_error(err, "%s: DCM_IOC_READ_MODE: %s", snap->dcm->path,
					     dcm_strerror(err));
		}
		snap->waiting = true;
		snap->last_cycle = __atomic_load_n(&snap->hdr->cycle, __ATOMIC_RELAXED);
	}
	for (;;) {
		pfd.fd = snap->dcm->fd;
		pfd.events = POLLIN;
		pfd.revents = 0;
		r = poll(&pfd, 1, left);
		if (r < 0) {
			err = -errno;
			return dcm_set_error(err, "%s: poll: %s", snap->dcm->path,
					     dcm_strerror(err));
		}
		if (!r)
			return 0;
		if (pfd.revents & (POLLERR | POLLHUP))
			return dcm_set_error(-ENODEV, "%s: the controller went away",
					     snap->dcm->path);
		/*
		 * A wake-up for a snapshot the caller may have read already (one
		 * published between the last wake-up and its read): skipped.
		 */
		cyc = __atomic_load_n(&snap->hdr->cycle, __ATOMIC_RELAXED);
		if (cyc != snap->last_cycle) {
			snap->last_cycle = cyc;
			return 1;
		}
		if (!timeout_ms)
			return 0;
		if (timeout_ms > 0) {
			left = (int)(end - mono_ms());
			if (left <= 0)
				return 0;
		}
	}
}

DCM_EXPORT uint32_t dcm_snapshot_generation(const struct dcm_snap *snap)
{
	return snap ? __atomic_load_n(&snap->hdr->generation, __ATOMIC_RELAXED) : 0;
}

/* Between two tries: spin a little, then let the writer run. */
static void snap_relax(unsigned int tries)
{
	if (tries >= 100)
		sched_yield();
}

static int check_handles(const struct dcm_snap *snap, const uint32_t *handles, size_t n)
{
	uint32_t gen = dcm_snapshot_generation(snap);
	size_t i;

	for (i = 0; i < n; i++) {
		if (LIBDCM_HANDLE_GEN(handles[i]) != gen)
			return dcm_set_error(-ESTALE,
					     "snapshot: handle 0x%08x is of description %u, the mapping of %u: the description was replaced (look the keys up and map again)",
					     handles[i], LIBDCM_HANDLE_GEN(handles[i]), gen);
		if (LIBDCM_HANDLE_INDEX(handles[i]) >= snap->n)
			return dcm_set_error(-ENOENT,
					     "snapshot: handle 0x%08x: index %u past the %u values",
					     handles[i], LIBDCM_HANDLE_INDEX(handles[i]), snap->n);
	}
	return 0;
}

DCM_EXPORT int dcm_snapshot_read_many(const struct dcm_snap *snap, const uint32_t *handles,
				      size_t n, double *values, uint32_t *times,
				      uint64_t *cycle)
{
	const struct dcm_snapshot *hdr;
	unsigned int tries;
	uint32_t s1, s2, idx;
	uint64_t cyc;
	size_t i;
	int err;

	if (!snap || (n && (!handles || !values)))
		return dcm_set_error(-EINVAL, "dcm_snapshot_read: NULL argument");
	err = check_handles(snap, handles, n);
	if (err)
		return err;
	hdr = snap->hdr;
	for (tries = 0; tries < DCM_SNAP_MAX_TRIES; tries++) {
		s1 = __atomic_load_n(&hdr->seq, __ATOMIC_ACQUIRE);
		if (s1 & 1) {
			snap_relax(tries);	/* the cycle is writing */
			continue;
		}
		for (i = 0; i < n; i++) {
			idx = LIBDCM_HANDLE_INDEX(handles[i]);
			values[i] = dcm_fixed_to_double(__atomic_load_n(&snap->values[idx],
									__ATOMIC_RELAXED));
			if (times)
				times[i] = __atomic_load_n(&snap->times[idx], __ATOMIC_RELAXED);
		}
		cyc = __atomic_load_n(&hdr->cycle, __ATOMIC_RELAXED);
#ifdef LIBDCM_TESTING
		if (dcm_snapshot_test_hook)
			dcm_snapshot_test_hook(dcm_snapshot_test_arg);
#endif
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		s2 = __atomic_load_n(&hdr->seq, __ATOMIC_RELAXED);
		if (s1 == s2) {
			if (cycle)
				*cycle = cyc;
			return 0;
		}
		snap_relax(tries);	/* the cycle wrote meanwhile */
	}
	return dcm_set_error(-EAGAIN,
			     "snapshot: the sequence count did not settle in %d tries (is the cycle stuck?)",
			     DCM_SNAP_MAX_TRIES);
}

DCM_EXPORT int dcm_snapshot_read(const struct dcm_snap *snap, uint32_t handle,
				 double *value, uint32_t *time)
{
	return dcm_snapshot_read_many(snap, &handle, 1, value, time, NULL);
}

DCM_EXPORT int dcm_snapshot_check(const struct dcm_snap *snap)
{
	struct dcm_ioc_get g;
	uint32_t h, t;
	int64_t v;
	int err;

	if (!snap || !snap->dcm)
		return dcm_set_error(-EINVAL, "dcm_snapshot_check: no device");
	/* The first subdevice of the mapping's generation: ESTALE if replaced. */
	h = dcm_snapshot_generation(snap) << 16;
	memset(&g, 0, sizeof(g));
	g.n = 1;
	g.handles = (uintptr_t)&h;
	g.values = (uintptr_t)&v;
	g.times = (uintptr_t)&t;
	if (ioctl(snap->dcm->fd, DCM_IOC_GET, &g) == 0)
		return 0;
	err = -errno;
	/* ENOENT: index 0 past an empty description (fine), or none loaded */
	if (err == -ENOENT && snap->n == 0)
		return 0;
	if (err == -ESTALE || err == -ENOENT)
		return dcm_set_error(-ESTALE, "%s: the mapped description (generation %u) was replaced: map again",
				     snap->dcm->path, dcm_snapshot_generation(snap));
	return dcm_set_error(err, "%s: DCM_IOC_GET: %s", snap->dcm->path, dcm_strerror(err));
}
