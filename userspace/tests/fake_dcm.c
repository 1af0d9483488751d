// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A fake /dev/dcmN for the unit tests (see fake_dcm.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>

#include "fake_dcm.h"

struct fake_dcm fake;

int __wrap_ioctl(int fd, unsigned long req, ...);
int __real_ioctl(int fd, unsigned long req, ...);
ssize_t __wrap_read(int fd, void *buf, size_t count);
ssize_t __real_read(int fd, void *buf, size_t count);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
int __wrap_munmap(void *addr, size_t len);
int __real_munmap(void *addr, size_t len);

void fake_snapshot(void)
{
	struct dcm_snapshot *h = &fake.snap.hdr;
	int64_t *v = (int64_t *)(fake.snap.bytes + 64);
	uint32_t *t = (uint32_t *)(fake.snap.bytes + 64 + FAKE_MAX_SUBS * 8);

	h->seq += 2;
	h->n_values = fake.n_subs;
	h->cycle = fake.cycle;
	h->time = fake.now;
	h->generation = fake.generation;
	h->values_offset = 64;
	h->times_offset = 64 + FAKE_MAX_SUBS * 8;
	h->size = FAKE_SNAP_SIZE;
	h->layout = DCM_SNAPSHOT_LAYOUT;
	h->n_handles = fake.n_subs;
	for (unsigned int i = 0; i < fake.n_subs; i++) {
		v[i] = fake.subs[i].value;
		t[i] = fake.subs[i].time;
	}
}

static int find(const char *name);

static int do_read_mode(struct dcm_ioc_read_mode *m)
{
	uint32_t flags;

	if ((m->flags | m->mask) & ~(DCM_READ_F_KEYS | DCM_READ_F_SNAPSHOT))
		return -EINVAL;
	flags = (fake.read_mode.flags & ~m->mask) | (m->flags & m->mask);
	memset(m, 0, sizeof(*m));
	m->flags = flags;
	m->n_subdevices = fake.n_subs;
	m->n_handles = fake.n_subs;
	m->frame_size = sizeof(struct dcm_frame) + fake.n_subs * sizeof(int64_t);
	m->generation = fake.generation;
	m->layout = DCM_SNAPSHOT_LAYOUT;
	fake.read_mode = *m;
	return 0;
}

/* The fake's file sees every alias; the kernel's shows its own first. */
static int do_alias_list(struct dcm_ioc_alias_list *l)
{
	struct dcm_alias_info *out = (void *)(uintptr_t)l->aliases;

	if (l->reserved)
		return -EINVAL;
	for (unsigned int i = 0; i < fake.n_aliases && i < l->n; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		memcpy(out[i].name, fake.aliases[i].name, sizeof(out[i].name));
		out[i].n_members = fake.aliases[i].n_members;
		out[i].flags = fake.aliases[i].flags;
	}
	l->n = fake.n_aliases;
	return 0;
}

static int fake_alias(const char *name, uint32_t flags)
{
	for (unsigned int i = 0; i < fake.n_aliases; i++)
		if (!strcmp(fake.aliases[i].name, name) &&
		    (!(flags & DCM_ALIAS_F_SHARED) || fake.aliases[i].flags))
			return (int)i;
	return -1;
}

/* Members: those of the last DCM_IOC_ALIAS_CREATE, whatever the alias. */
static int do_alias_get(struct dcm_ioc_alias_get *g)
{
	char (*names)[DCM_KEY_NAME_LEN] = (void *)(uintptr_t)g->members;
	uint32_t *handles = (void *)(uintptr_t)g->handles;
	int i = fake_alias(g->name, g->flags);

	if (i < 0)
		return -ENOENT;
	for (uint32_t m = 0; m < fake.aliases[i].n_members && m < g->n_members; m++) {
		int s = find(fake.create_names[m]);

		if (names)
			memcpy(names[m], fake.create_names[m], DCM_KEY_NAME_LEN);
		if (handles)
			handles[m] = s >= 0 ? fake_handle((unsigned int)s) : 0;
	}
	g->flags = fake.aliases[i].flags;
	g->n_members = fake.aliases[i].n_members;
	return 0;
}

static int do_alias_delete(struct dcm_ioc_alias_delete *d)
{
	int i = fake_alias(d->name, d->flags);

	if (d->reserved || (d->flags & ~DCM_ALIAS_F_SHARED))
		return -EINVAL;
	if (i < 0)
		return -ENOENT;
	memmove(&fake.aliases[i], &fake.aliases[i + 1],
		(fake.n_aliases - (unsigned int)i - 1) * sizeof(fake.aliases[0]));
	fake.n_aliases--;
	return 0;
}

void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	if (fd != fake.fd || fd < 0)
		return __real_mmap(addr, len, prot, flags, fd, off);
	if ((prot & PROT_WRITE) || off || len > FAKE_SNAP_SIZE) {
		errno = (prot & PROT_WRITE) ? EPERM : EINVAL;
		return MAP_FAILED;
	}
	fake.maps++;
	fake.map_len = len;
	return fake.snap.bytes;
}

int __wrap_munmap(void *addr, size_t len)
{
	if (addr == fake.snap.bytes) {
		fake.unmaps++;
		return 0;
	}
	return __real_munmap(addr, len);
}

void fake_reset(void)
{
	memset(&fake, 0, sizeof(fake));
	fake.fd = -1;
	fake.now = 1000;
	fake.generation = FAKE_GEN;
	fake.subs[0] = (struct fake_sub){ "HeadYaw/Position/Actuator", DCM_LOOKUP_F_ACTUATOR, 0, 0 };
	fake.subs[1] = (struct fake_sub){ "HeadYaw/Position/Sensor", 0, 100000, 990 };
	fake.subs[2] = (struct fake_sub){ "Face/Led/Red/Left/0Deg/Actuator",
					  DCM_LOOKUP_F_ACTUATOR, 0, 0 };
	fake.subs[3] = (struct fake_sub){ "US/Actuator",
					  DCM_LOOKUP_F_ACTUATOR | DCM_LOOKUP_F_STEP, 0, 0 };
	fake.subs[4] = (struct fake_sub){ "HeadPitch/Position/Actuator", DCM_LOOKUP_F_ACTUATOR,
					  -500000, 0 };
	fake.n_subs = 5;
	fake.abi_minor = DCM_ABI_MINOR;
	fake.stats.cycles = 1234;
	fake.stats.overruns = 2;
	fake.stats.last_ns = 12345;
	fake.stats.mean_ns = 11000;
	fake.stats.max_ns = 50000;
	fake.stats.latency_max_ns = 123456;
	fake_snapshot();
	for (int i = 0; i < 10; i++)
		fake.stats.latency_hist[i] = (uint64_t)(10 - i);
}

uint32_t fake_handle(unsigned int index)
{
	return (fake.generation << 16) | index;
}

static int find(const char *name)
{
	char buf[DCM_KEY_NAME_LEN];
	const char *p = name;
	size_t len;
	unsigned int i;

	if (!strncmp(p, "Device/SubDeviceList/", 21))
		p += 21;
	snprintf(buf, sizeof(buf), "%s", p);
	len = strlen(buf);
	if (len > 6 && !strcmp(buf + len - 6, "/Value"))
		buf[len - 6] = '\0';
	for (i = 0; i < fake.n_subs; i++)
		if (!strcmp(fake.subs[i].name, buf))
			return (int)i;
	return -1;
}

static int handle_index(uint32_t h)
{
	if (DCM_HANDLE_GEN(h) != fake.generation)
		return -ESTALE;
	if (DCM_HANDLE_INDEX(h) >= fake.n_subs)
		return -ENOENT;
	return (int)DCM_HANDLE_INDEX(h);
}

static int do_lookup(struct dcm_ioc_lookup *l)
{
	size_t len = strnlen(l->name, sizeof(l->name));
	int i;

	if (!len || len == sizeof(l->name) || l->reserved[0] || l->reserved[1])
		return -EINVAL;
	i = find(l->name);
	if (i < 0)
		return -ENOENT;
	l->handle = fake_handle((unsigned int)i);
	l->flags = fake.subs[i].flags;
	return 0;
}

static int check_points(const struct dcm_point *p, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (p[i].importance > 7 || p[i].reserved[0] || p[i].reserved[1] ||
		    p[i].reserved[2])
			return -EINVAL;
	return 0;
}

static int do_set(const struct dcm_ioc_set *s)
{
	int i;

	if (s->reserved || s->update > DCM_UPDATE_MAX || s->n_points > DCM_MAX_POINTS)
		return -EINVAL;
	i = handle_index(s->handle);
	if (i < 0)
		return i;
	if (!(fake.subs[i].flags & DCM_LOOKUP_F_ACTUATOR))
		return -EINVAL;
	if (s->n_points > FAKE_MAX_RECORD)
		return -E2BIG;
	fake.set = *s;
	memcpy(fake.set_points, (void *)(uintptr_t)s->points, s->n_points * sizeof(struct dcm_point));
	return check_points(fake.set_points, s->n_points);
}

static int do_create(struct dcm_ioc_alias_create *a)
{
	char (*names)[DCM_KEY_NAME_LEN] = (void *)(uintptr_t)a->members;
	uint32_t *handles = (void *)(uintptr_t)a->handles;
	size_t len = strnlen(a->name, sizeof(a->name));

	if (!len || len == sizeof(a->name) || (a->flags & ~DCM_ALIAS_F_SHARED) || !a->n_members ||
	    a->n_members > DCM_MAX_ALIAS_MEMBERS)
		return -EINVAL;
	fake.create = *a;
	for (uint32_t m = 0; m < a->n_members; m++) {
		int i;

		if (strnlen(names[m], DCM_KEY_NAME_LEN) == DCM_KEY_NAME_LEN) {
			/* as the kernel: too long to be a key, a blank member */
			memset(fake.create_names[m], 0, DCM_KEY_NAME_LEN);
			handles[m] = 0;
			continue;
		}
		memcpy(fake.create_names[m], names[m], DCM_KEY_NAME_LEN);
		i = find(names[m]);
		handles[m] = i >= 0 && (fake.subs[i].flags & DCM_LOOKUP_F_ACTUATOR) ?
			     fake_handle((unsigned int)i) : 0;
	}
	fake.alias_members = a->n_members;
	/* ABI 1.4: remembered for list, get and delete; replaced by name and owner */
	{
		unsigned int i;

		for (i = 0; i < fake.n_aliases; i++)
			if (!strcmp(fake.aliases[i].name, a->name) &&
			    fake.aliases[i].flags == a->flags)
				break;
		if (i == fake.n_aliases) {
			if (i == FAKE_ALIASES)
				return -ENOSPC;
			fake.n_aliases++;
		}
		snprintf(fake.aliases[i].name, sizeof(fake.aliases[i].name), "%s", a->name);
		fake.aliases[i].n_members = a->n_members;
		fake.aliases[i].flags = a->flags;
	}
	return 0;
}

static int do_alias_set(const struct dcm_ioc_alias_set *a)
{
	uint32_t total = 0;

	if (!a->name[0] || a->update > DCM_UPDATE_MAX || a->mode > DCM_ALIAS_MODE_MAX ||
	    a->importance > 7 || a->n_members > DCM_MAX_ALIAS_MEMBERS ||
	    (a->mode == DCM_ALIAS_SAME && fake.abi_minor < 3))
		return -EINVAL;
	for (int i = 0; i < 7; i++)
		if (a->reserved[i])
			return -EINVAL;
	if (a->mode == DCM_ALIAS_SAME) {
		/* one list for every member; n_members 0 or the alias's count */
		if (a->n_times > DCM_MAX_POINTS)
			return -EINVAL;
		if (strcmp(a->name, fake.create.name))
			return -ENOENT;
		if (a->n_members && fake.alias_members && a->n_members != fake.alias_members)
			return -EINVAL;
		if (a->n_times > FAKE_MAX_RECORD)
			return -E2BIG;
		fake.aset = *a;
		memcpy(fake.aset_points, (void *)(uintptr_t)a->points,
		       a->n_times * sizeof(struct dcm_point));
		return check_points(fake.aset_points, a->n_times);
	}
	if (!a->n_members)
		return -EINVAL;
	if (a->mode == DCM_ALIAS_TIME_SEPARATE ? !a->n_times || a->n_times > DCM_MAX_POINTS :
						 a->n_times != 0)
		return -EINVAL;
	if (strcmp(a->name, fake.create.name))
		return -ENOENT;
	if (fake.alias_members && a->n_members != fake.alias_members)
		return -EINVAL;
	fake.aset = *a;
	if (a->mode == DCM_ALIAS_TIME_SEPARATE) {
		if (a->n_times * a->n_members > FAKE_MAX_RECORD)
			return -E2BIG;
		memcpy(fake.aset_times, (void *)(uintptr_t)a->times, a->n_times * 4);
		memcpy(fake.aset_values, (void *)(uintptr_t)a->values,
		       a->n_times * a->n_members * 8);
		return 0;
	}
	memcpy(fake.aset_counts, (void *)(uintptr_t)a->counts, a->n_members * 4);
	for (uint32_t m = 0; m < a->n_members; m++)
		total += fake.aset_counts[m];
	if (total > FAKE_MAX_RECORD)
		return -E2BIG;
	memcpy(fake.aset_points, (void *)(uintptr_t)a->points, total * sizeof(struct dcm_point));
	return check_points(fake.aset_points, total);
}

/* The kernel's checks and states of DCM_IOC_WATCHDOG. */
static int do_watchdog(const struct dcm_ioc_watchdog *w)
{
	for (int i = 0; i < 4; i++)
		if (w->reserved[i])
			return -EINVAL;
	if (w->flags & ~DCM_WATCHDOG_F_KICK)
		return -EINVAL;
	fake.wd = *w;
	if (w->flags || !w->timeout_ms) {
		if ((w->flags && w->timeout_ms) || w->action || w->ramp_ms)
			return -EINVAL;
		if (!w->flags) {
			fake.wd_state = FAKE_WD_OFF;
			return 0;
		}
		return fake.wd_state == FAKE_WD_ARMED ? 0 :
		       fake.wd_state == FAKE_WD_FIRED ? -ETIMEDOUT : -ENOENT;
	}
	if (w->timeout_ms < DCM_WATCHDOG_MIN_MS || w->timeout_ms > DCM_WATCHDOG_MAX_MS ||
	    w->action > DCM_WATCHDOG_ACTION_MAX ||
	    (w->action == DCM_WATCHDOG_HOLD && w->ramp_ms) ||
	    w->ramp_ms > DCM_WATCHDOG_RAMP_MAX_MS)
		return -EINVAL;
	fake.wd_state = FAKE_WD_ARMED;
	return 0;
}

static int do_get(const struct dcm_ioc_get *g)
{
	const uint32_t *h = (const void *)(uintptr_t)g->handles;
	int64_t *v = (void *)(uintptr_t)g->values;
	uint32_t *t = (void *)(uintptr_t)g->times;

	if (g->reserved || !g->n || g->n > DCM_MAX_SUBDEVICES)
		return -EINVAL;
	for (uint32_t i = 0; i < g->n; i++)
		if (handle_index(h[i]) < 0)
			return handle_index(h[i]);
	for (uint32_t i = 0; i < g->n; i++) {
		v[i] = fake.subs[DCM_HANDLE_INDEX(h[i])].value;
		t[i] = fake.subs[DCM_HANDLE_INDEX(h[i])].time;
	}
	return 0;
}

int __wrap_ioctl(int fd, unsigned long req, ...)
{
	unsigned int nr = FAKE_NR(req);
	va_list ap;
	void *arg;
	int r = 0;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);

	fake.calls[nr]++;
	if (fake.fail_errno[nr]) {
		errno = fake.fail_errno[nr];
		return -1;
	}
	switch (req) {
	case DCM_IOC_VERSION: {
		struct dcm_ioc_version v = { DCM_ABI_MAGIC, DCM_ABI_MAJOR,
					     (uint16_t)fake.abi_minor };

		fake.fd = fd;
		memcpy(arg, &v, sizeof(v));
		break;
	}
	case DCM_IOC_INFO: {
		struct dcm_ioc_info info;

		memset(&info, 0, sizeof(info));
		info.abi_version = DCM_ABI_VERSION;
		strcpy(info.name, "dcm0");
		strcpy(info.driver, "dcm_sim");
		info.period_us = 10000;
		info.time_ms = fake.now;
		info.n_subdevices = fake.info_n_subs ? fake.info_n_subs : fake.n_subs;
		info.n_devices = fake.info_n_devices;
		info.flags = DCM_INFO_F_CONFIGURED | DCM_INFO_F_RUNNING;
		memcpy(arg, &info, sizeof(info));
		break;
	}
	case DCM_IOC_LOOKUP:
		r = do_lookup(arg);
		break;
	case DCM_IOC_SET:
		r = fake.wd_state == FAKE_WD_FIRED ? -ETIMEDOUT : do_set(arg);
		break;
	case DCM_IOC_ALIAS_CREATE:
		r = do_create(arg);
		break;
	case DCM_IOC_ALIAS_SET:
		r = do_alias_set(arg);
		break;
	case DCM_IOC_TIME: {
		struct dcm_ioc_time *t = arg;

		t->time = fake.now + (uint32_t)t->offset;
		break;
	}
	case DCM_IOC_GET:
		r = do_get(arg);
		break;
	case DCM_IOC_STATS:
		memcpy(arg, &fake.stats, sizeof(fake.stats));
		break;
	case DCM_IOC_WATCHDOG:
		r = do_watchdog(arg);
		break;
	case DCM_IOC_READ_MODE:
		r = do_read_mode(arg);
		break;
	case DCM_IOC_ALIAS_LIST:
		r = do_alias_list(arg);
		break;
	case DCM_IOC_ALIAS_GET:
		r = do_alias_get(arg);
		break;
	case DCM_IOC_ALIAS_DELETE:
		r = do_alias_delete(arg);
		break;
	default:
		r = -ENOTTY;
		break;
	}
	if (r) {
		errno = -r;
		return -1;
	}
	return 0;
}

ssize_t __wrap_read(int fd, void *buf, size_t count)
{
	struct dcm_frame *f = buf;
	size_t size = sizeof(*f) + fake.n_subs * sizeof(f->values[0]);

	if (fd != fake.fd || fd < 0)
		return __real_read(fd, buf, count);
	fake.reads++;
	if (fake.read_errno) {
		errno = fake.read_errno;
		fake.read_errno = 0;
		return -1;
	}
	if (count < size) {
		errno = EINVAL;
		return -1;
	}
	if (fake.reads == fake.bump_generation_at)
		fake.generation++;
	fake.cycle++;
	fake.now += 10;
	for (unsigned int i = 0; i < fake.n_subs; i++)
		fake.subs[i].value += fake.ramp;
	memset(f, 0, sizeof(*f));
	f->cycle = fake.cycle;
	f->time = fake.now;
	f->n_values = fake.n_subs;
	f->generation = fake.generation;
	for (unsigned int i = 0; i < fake.n_subs; i++)
		f->values[i] = fake.subs[i].value;
	fake_snapshot();
	return (ssize_t)size;
}
