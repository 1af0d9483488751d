// SPDX-License-Identifier: GPL-2.0
/*
 * ABI 1.4 on /dev/dcm0: the live keys' handles (status words, sonar echoes,
 * board Available/Ack/Nack) read from the mapped snapshot, a frame in
 * DCM_READ_F_KEYS mode and DCM_IOC_GET, agreeing with each other in one
 * cycle and with sysfs; the snapshot's layout version; poll() in
 * DCM_READ_F_SNAPSHOT mode waking once per published cycle without read();
 * aliases owned per file, shared ones, list, get and delete with their
 * slots freed.
 */
#include <poll.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>

#include "dcm_test.h"
#include "kselftest_harness.h"

/* The live keys the simulated body updates, as a NAOqi client reads them. */
static const char *const live_keys[] = {
	"Battery/Charge/Sensor/Status",
	"Device/SubDeviceList/HeadYaw/Temperature/Sensor/Status",
	"LKneePitch/Temperature/Sensor/Status",
	"US/Left/Sensor/Value1", "US/Left/Sensor/Value2", "US/Left/Sensor/Value3",
	"US/Left/Sensor/Value4", "US/Left/Sensor/Value5", "US/Left/Sensor/Value6",
	"US/Left/Sensor/Value7", "US/Left/Sensor/Value8", "US/Left/Sensor/Value9",
	"US/Right/Sensor/Value1", "US/Right/Sensor/Value9",
	"Device/DeviceList/ChestBoard/Available",
	"Device/DeviceList/USBoard/Available",
	"TouchBoard/Available",
	"Device/DeviceList/ChestBoard/Ack",
	"Device/DeviceList/ChestBoard/Nack",
};
#define N_KEYS	(sizeof(live_keys) / sizeof(live_keys[0]))

/* Its sysfs file. */
static void sysfs_path(const char *key, char *buf, size_t len)
{
	const char *dev = "Device/DeviceList/", *sub = "Device/SubDeviceList/";

	if (!strncmp(key, dev, strlen(dev)))
		snprintf(buf, len, DCM_SYSFS "/DeviceList/%s", key + strlen(dev));
	else if (!strncmp(key, sub, strlen(sub)))
		snprintf(buf, len, DCM_SYSFS "/SubDeviceList/%s", key + strlen(sub));
	else if (!strcmp(key, "TouchBoard/Available"))
		snprintf(buf, len, DCM_SYSFS "/DeviceList/%s", key);
	else
		snprintf(buf, len, DCM_SYSFS "/SubDeviceList/%s", key);
}

static bool is_counter(const char *key)
{
	size_t n = strlen(key);

	return n > 4 && (!strcmp(key + n - 4, "/Ack") || !strcmp(key + n - 5, "/Nack"));
}

struct snap {
	void *mem;
	size_t len;
	const struct dcm_snapshot *hdr;
	const int64_t *values;
	const uint32_t *times;
};

static int snap_map(int fd, struct snap *s)
{
	s->len = 4096;
	s->mem = mmap(NULL, s->len, PROT_READ, MAP_SHARED, fd, 0);
	if (s->mem == MAP_FAILED)
		return -1;
	s->hdr = s->mem;
	if (s->hdr->size != s->len) {
		size_t len = s->hdr->size;

		munmap(s->mem, s->len);
		s->len = len;
		s->mem = mmap(NULL, s->len, PROT_READ, MAP_SHARED, fd, 0);
		if (s->mem == MAP_FAILED)
			return -1;
		s->hdr = s->mem;
	}
	s->values = (const int64_t *)((const char *)s->mem + s->hdr->values_offset);
	s->times = (const uint32_t *)((const char *)s->mem + s->hdr->times_offset);
	return 0;
}

/* One cycle's values and times of @n handles, and its cycle number. */
static void snap_read(const struct snap *s, const uint32_t *h, unsigned int n, int64_t *v,
		      uint32_t *t, uint64_t *cycle)
{
	uint32_t s1, s2;
	unsigned int i;

	do {
		s1 = __atomic_load_n(&s->hdr->seq, __ATOMIC_ACQUIRE);
		for (i = 0; i < n; i++) {
			v[i] = __atomic_load_n(&s->values[h[i] & 0xffff], __ATOMIC_RELAXED);
			t[i] = __atomic_load_n(&s->times[h[i] & 0xffff], __ATOMIC_RELAXED);
		}
		*cycle = __atomic_load_n(&s->hdr->cycle, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		s2 = __atomic_load_n(&s->hdr->seq, __ATOMIC_RELAXED);
	} while ((s1 & 1) || s1 != s2);
}

static int read_mode(int fd, uint32_t flags, uint32_t mask, struct dcm_ioc_read_mode *m)
{
	memset(m, 0, sizeof(*m));
	m->flags = flags;
	m->mask = mask;
	return ioctl(fd, DCM_IOC_READ_MODE, m);
}

static int64_t sysfs_micro(const char *key)
{
	char path[512], buf[64];

	sysfs_path(key, path, sizeof(path));
	double d;

	if (dcm_read_sysfs(path, buf, sizeof(buf)))
		return INT64_MIN;
	d = strtod(buf, NULL) * 1e6;
	return (int64_t)(d + (d < 0 ? -0.5 : 0.5));
}

FIXTURE(snap) {
	int fd;
	struct snap s;
	uint32_t h[N_KEYS];
};

FIXTURE_SETUP(snap)
{
	unsigned int i;

	self->fd = open(DCM_DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", DCM_DEV, strerror(errno));
	ASSERT_EQ(0, snap_map(self->fd, &self->s)) TH_LOG("mmap: %s", strerror(errno));
	for (i = 0; i < N_KEYS; i++) {
		struct dcm_ioc_lookup l;

		memset(&l, 0, sizeof(l));
		snprintf(l.name, sizeof(l.name), "%s", live_keys[i]);
		ASSERT_EQ(0, ioctl(self->fd, DCM_IOC_LOOKUP, &l))
			TH_LOG("lookup %s: %s", live_keys[i], strerror(errno));
		EXPECT_EQ(DCM_LOOKUP_F_KEY, l.flags) TH_LOG("%s", live_keys[i]);
		self->h[i] = l.handle;
	}
}

FIXTURE_TEARDOWN(snap)
{
	munmap(self->s.mem, self->s.len);
	close(self->fd);
}

/* The header says its layout; the arrays hold every handle. */
TEST_F(snap, layout)
{
	const struct dcm_snapshot *hdr = self->s.hdr;
	struct dcm_ioc_read_mode m;
	struct dcm_ioc_info info;
	unsigned int i;

	ASSERT_EQ(0, ioctl(self->fd, DCM_IOC_INFO, &info));
	EXPECT_EQ(DCM_SNAPSHOT_LAYOUT, hdr->layout);
	EXPECT_EQ(info.n_subdevices, hdr->n_values);
	EXPECT_LT(hdr->n_values, hdr->n_handles);
	EXPECT_LE(hdr->values_offset + 8ULL * hdr->n_handles, hdr->times_offset);
	EXPECT_LE(hdr->times_offset + 4ULL * hdr->n_handles, hdr->size);
	for (i = 0; i < sizeof(hdr->reserved) / sizeof(hdr->reserved[0]); i++)
		EXPECT_EQ(0, hdr->reserved[i]);
	for (i = 0; i < N_KEYS; i++) {
		EXPECT_EQ(hdr->generation, self->h[i] >> 16);
		EXPECT_LE(hdr->n_values, self->h[i] & 0xffff);
		EXPECT_GT(hdr->n_handles, self->h[i] & 0xffff);
	}
	ASSERT_EQ(0, read_mode(self->fd, 0, 0, &m));
	EXPECT_EQ(0, m.flags);
	EXPECT_EQ(hdr->n_values, m.n_subdevices);
	EXPECT_EQ(hdr->n_handles, m.n_handles);
	EXPECT_EQ(hdr->generation, m.generation);
	EXPECT_EQ(DCM_SNAPSHOT_LAYOUT, m.layout);
	EXPECT_EQ(sizeof(struct dcm_frame) + 8 * hdr->n_values, m.frame_size);
	ASSERT_EQ(0, read_mode(self->fd, DCM_READ_F_KEYS, DCM_READ_F_KEYS, &m));
	EXPECT_EQ(DCM_READ_F_KEYS, m.flags);
	EXPECT_EQ(sizeof(struct dcm_frame) + 8 * hdr->n_handles, m.frame_size);
	/* bad input */
	errno = 0;
	EXPECT_EQ(-1, read_mode(self->fd, 1U << 7, 1U << 7, &m));
	EXPECT_EQ(EINVAL, errno);
	memset(&m, 0, sizeof(m));
	m.reserved[2] = 1;
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_READ_MODE, &m));
	EXPECT_EQ(EINVAL, errno);
}

/*
 * Each key from the snapshot and from a frame of the same cycle: equal;
 * DCM_IOC_GET between two reads of one cycle: equal too.
 */
TEST_F(snap, frame_snapshot_get_one_cycle)
{
	size_t size = sizeof(struct dcm_frame) + 8 * self->s.hdr->n_handles;
	int64_t v[N_KEYS], gv[N_KEYS];
	uint32_t t[N_KEYS], gt[N_KEYS];
	struct dcm_ioc_read_mode m;
	struct dcm_frame *frame;
	struct dcm_ioc_get g;
	unsigned int i, tries, matched = 0, got = 0;
	uint64_t c1, c2;

	frame = calloc(1, size);
	ASSERT_NE(NULL, frame);
	/* without the mode, a frame has the subdevices only */
	ASSERT_EQ(sizeof(*frame) + 8 * self->s.hdr->n_values, read(self->fd, frame, size));
	EXPECT_EQ(self->s.hdr->n_values, frame->n_values);
	ASSERT_EQ(0, read_mode(self->fd, DCM_READ_F_KEYS, DCM_READ_F_KEYS, &m));
	errno = 0;
	EXPECT_EQ(-1, read(self->fd, frame, size - 1));
	EXPECT_EQ(EINVAL, errno);
	for (tries = 0; tries < 20 && matched < 5; tries++) {
		ASSERT_EQ((ssize_t)size, read(self->fd, frame, size));
		ASSERT_EQ(self->s.hdr->n_handles, frame->n_values);
		snap_read(&self->s, self->h, N_KEYS, v, t, &c1);
		if (c1 != frame->cycle)
			continue;	/* the next cycle came between */
		for (i = 0; i < N_KEYS; i++)
			EXPECT_EQ(v[i], frame->values[self->h[i] & 0xffff]) TH_LOG("key %u", i);
		matched++;
	}
	EXPECT_LE(1, matched);

	memset(&g, 0, sizeof(g));
	g.n = N_KEYS;
	g.handles = (uintptr_t)self->h;
	g.values = (uintptr_t)gv;
	g.times = (uintptr_t)gt;
	for (tries = 0; tries < 50 && got < 5; tries++) {
		snap_read(&self->s, self->h, N_KEYS, v, t, &c1);
		ASSERT_EQ(0, ioctl(self->fd, DCM_IOC_GET, &g)) TH_LOG("GET: %s", strerror(errno));
		snap_read(&self->s, self->h, N_KEYS, v, t, &c2);
		if (c1 != c2)
			continue;
		for (i = 0; i < N_KEYS; i++) {
			EXPECT_EQ(v[i], gv[i]) TH_LOG("%s", live_keys[i]);
			EXPECT_EQ(t[i], gt[i]) TH_LOG("%s", live_keys[i]);
		}
		got++;
	}
	EXPECT_LE(1, got);
	free(frame);
}

/*
 * Each key as sysfs shows it: a counter (Ack, Nack: sysfs reads the
 * runtime's own, which may be a cycle not yet published) between the
 * snapshots before and after; any other key equal to the snapshot when it
 * did not change between them.
 */
TEST_F(snap, match_sysfs)
{
	int64_t v1[N_KEYS], v2[N_KEYS], sys;
	uint32_t t1[N_KEYS], t2[N_KEYS];
	struct dcm_ioc_read_mode m;
	struct pollfd p = { .fd = self->fd, .events = POLLIN };
	uint64_t c1, c2;
	unsigned int i, tries;
	bool ok;

	ASSERT_EQ(0, read_mode(self->fd, DCM_READ_F_SNAPSHOT, DCM_READ_F_SNAPSHOT, &m));
	for (i = 0; i < N_KEYS; i++) {
		ok = false;
		for (tries = 0; tries < 30 && !ok; tries++) {
			snap_read(&self->s, &self->h[i], 1, &v1[i], &t1[i], &c1);
			sys = sysfs_micro(live_keys[i]);
			ASSERT_NE(INT64_MIN, sys) TH_LOG("sysfs of %s", live_keys[i]);
			/* the sysfs read is older than the next publication */
			ASSERT_EQ(1, poll(&p, 1, 10000));
			snap_read(&self->s, &self->h[i], 1, &v2[i], &t2[i], &c2);
			if (is_counter(live_keys[i]))
				ok = v1[i] <= sys && sys <= v2[i];
			else
				ok = t1[i] == t2[i] && v1[i] == sys;
		}
		EXPECT_TRUE(ok) TH_LOG("%s: sysfs %lld, snapshot %lld then %lld", live_keys[i],
				       (long long)sys, (long long)v1[i], (long long)v2[i]);
	}
	/* what the simulated body reports */
	snap_read(&self->s, self->h, N_KEYS, v1, t1, &c1);
	EXPECT_EQ(1000000, v1[14]);	/* ChestBoard/Available */
	EXPECT_LT(0, v1[17]);		/* ChestBoard/Ack */
	EXPECT_EQ(0, v1[17] % 1000000);
}

/*
 * sysfs shows the snapshot the cycle published, as mmap() does: a Value or
 * a live key read in sysfs between two reads of one same cycle is that
 * cycle's, exactly (not a copy of its own, nor a cycle not yet published).
 */
static const struct {
	const char *handle, *sysfs;
} published[] = {
	{ "HeadYaw/Position/Sensor", "HeadYaw/Position/Sensor/Value" },
	{ "Battery/Current/Sensor", "Battery/Current/Sensor/Value" },
	{ "InertialSensor/GyroscopeZ/Sensor", "InertialSensor/GyroscopeZ/Sensor/Value" },
	{ "US/Left/Sensor/Value1", "US/Left/Sensor/Value1" },
	{ "LKneePitch/Temperature/Sensor/Status", "LKneePitch/Temperature/Sensor/Status" },
	{ "Battery/Charge/Sensor/Status", "Battery/Charge/Sensor/Status" },
};

TEST_F(snap, sysfs_is_published)
{
	unsigned int i, tries, same;
	int64_t v1, v2, sys;
	uint32_t h, t1, t2;
	uint64_t c1, c2;

	for (i = 0; i < sizeof(published) / sizeof(published[0]); i++) {
		struct dcm_ioc_lookup l;

		memset(&l, 0, sizeof(l));
		snprintf(l.name, sizeof(l.name), "%s", published[i].handle);
		ASSERT_EQ(0, ioctl(self->fd, DCM_IOC_LOOKUP, &l))
			TH_LOG("lookup %s: %s", published[i].handle, strerror(errno));
		h = l.handle;
		same = 0;
		for (tries = 0; tries < 300 && same < 5; tries++) {
			snap_read(&self->s, &h, 1, &v1, &t1, &c1);
			sys = sysfs_micro(published[i].sysfs);
			ASSERT_NE(INT64_MIN, sys) TH_LOG("sysfs of %s", published[i].sysfs);
			snap_read(&self->s, &h, 1, &v2, &t2, &c2);
			if (c1 != c2)
				continue;
			same++;
			EXPECT_EQ(v1, sys) TH_LOG("%s: sysfs %lld, cycle %llu's snapshot %lld",
						  published[i].sysfs, (long long)sys,
						  (unsigned long long)c1, (long long)v1);
		}
		EXPECT_LT(0, same) TH_LOG("%s: no sysfs read within one cycle in %u tries",
					  published[i].sysfs, tries);
	}
}

/* Live keys take no command; a GET may name every handle at once. */
TEST_F(snap, keys_read_only_get_limit)
{
	const struct dcm_snapshot *hdr = self->s.hdr;
	uint32_t n = hdr->n_handles > DCM_MAX_SUBDEVICES ? hdr->n_handles : DCM_MAX_SUBDEVICES;
	struct dcm_point p = { .value = 0, .time = dcm_time_now(self->fd, 100) };
	struct dcm_ioc_get g;
	uint32_t *h, *t, i;
	int64_t *v;

	errno = 0;
	EXPECT_EQ(-1, dcm_set_points(self->fd, self->h[0], DCM_UPDATE_CLEAR_ALL, &p, 1));
	EXPECT_EQ(EINVAL, errno);

	h = calloc(n + 1, sizeof(*h));
	v = calloc(n + 1, sizeof(*v));
	t = calloc(n + 1, sizeof(*t));
	ASSERT_TRUE(h && v && t);
	for (i = 0; i < n + 1; i++)
		h[i] = (hdr->generation << 16) | (i % hdr->n_handles);
	memset(&g, 0, sizeof(g));
	g.n = n;
	g.handles = (uintptr_t)h;
	g.values = (uintptr_t)v;
	g.times = (uintptr_t)t;
	EXPECT_EQ(0, ioctl(self->fd, DCM_IOC_GET, &g)) TH_LOG("GET of %u: %s", n, strerror(errno));
	g.n = n + 1;
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_GET, &g));
	EXPECT_EQ(EINVAL, errno);
	/* past the handles */
	h[0] = (hdr->generation << 16) | hdr->n_handles;
	g.n = 1;
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_GET, &g));
	EXPECT_EQ(ENOENT, errno);
	/* a fault in the answer, with the file's buffer: EFAULT, then fine again */
	h[0] = self->h[0];
	g.values = 8;
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_GET, &g));
	EXPECT_EQ(EFAULT, errno);
	g.values = (uintptr_t)v;
	EXPECT_EQ(0, ioctl(self->fd, DCM_IOC_GET, &g));
	free(h);
	free(v);
	free(t);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * DCM_READ_F_SNAPSHOT: poll() wakes once per published snapshot, without
 * read(); the poll that reports it takes it. A snapshot read after the
 * wake-up may already be a newer one than the wake-up was for: the next
 * poll reports that one at once (a repeat), which a client skips by its
 * cycle number (dcm_snapshot_wait() does).
 */
TEST_F(snap, poll_once_per_cycle)
{
	struct pollfd p = { .fd = self->fd, .events = POLLIN };
	struct dcm_ioc_read_mode m;
	uint64_t cycle, prev, first, t0, wakes = 0, repeats = 0, quiet = 0, tries = 0;
	int64_t v;
	uint32_t t;

	/* The old mode: readable until read(), again and again. */
	ASSERT_EQ(1, poll(&p, 1, 10000));
	EXPECT_EQ(1, poll(&p, 1, 0));
	EXPECT_EQ(1, poll(&p, 1, 0));

	ASSERT_EQ(0, read_mode(self->fd, DCM_READ_F_SNAPSHOT, DCM_READ_F_SNAPSHOT, &m));
	EXPECT_EQ(DCM_READ_F_SNAPSHOT, m.flags);
	ASSERT_EQ(1, poll(&p, 1, 10000));
	snap_read(&self->s, self->h, 1, &v, &t, &first);
	prev = first;
	t0 = now_ns();
	while (now_ns() - t0 < 500000000ULL) {
		ASSERT_EQ(1, poll(&p, 1, 10000)) TH_LOG("no wake-up in 10 s");
		EXPECT_EQ(POLLIN, p.revents);
		snap_read(&self->s, self->h, 1, &v, &t, &cycle);
		/* never an older snapshot than the last one read */
		EXPECT_LE(prev, cycle);
		if (cycle == prev)
			repeats++;
		prev = cycle;
		wakes++;
		/* taken: at once after it, no second report (unless a newer one came) */
		tries++;
		if (poll(&p, 1, 0) == 0)
			quiet++;
		else
			wakes++;
	}
	TH_LOG("%llu wake-ups (%llu repeats) for %llu cycles; %llu of %llu polls at once quiet",
	       (unsigned long long)wakes, (unsigned long long)repeats,
	       (unsigned long long)(prev - first), (unsigned long long)quiet,
	       (unsigned long long)tries);
	/* once per cycle: no more wake-ups than cycles, give or take the repeats */
	EXPECT_GE(prev - first + repeats + 1, wakes);
	EXPECT_LE(repeats * 4, wakes);
	/*
	 * and, on an idle host, a wake-up for most cycles, the poll right
	 * after a read quiet: a host that stalls the reader past a cycle
	 * makes one wake-up stand for several cycles, and a new snapshot come
	 * between the read and the poll (timing).
	 */
	DCM_TIMING_EXPECT((prev - first) / 2 <= wakes, "%llu wake-ups for %llu cycles",
			  (unsigned long long)wakes, (unsigned long long)(prev - first));
	DCM_TIMING_EXPECT(tries / 2 <= quiet, "%llu of %llu polls at once quiet",
			  (unsigned long long)quiet, (unsigned long long)tries);
	EXPECT_LT(0, wakes);

	/* back to the old mode */
	ASSERT_EQ(0, read_mode(self->fd, 0, DCM_READ_F_SNAPSHOT, &m));
	EXPECT_EQ(0, m.flags);
	ASSERT_EQ(1, poll(&p, 1, 10000));
	EXPECT_EQ(1, poll(&p, 1, 0));
}

static int alias_create(int fd, const char *name, uint32_t flags, const char *const *members,
			uint32_t n)
{
	char names[4][DCM_KEY_NAME_LEN];
	struct dcm_ioc_alias_create a;
	uint32_t handles[4], i;

	memset(&a, 0, sizeof(a));
	memset(names, 0, sizeof(names));
	snprintf(a.name, sizeof(a.name), "%s", name);
	for (i = 0; i < n; i++)
		snprintf(names[i], sizeof(names[i]), "%s", members[i]);
	a.n_members = n;
	a.flags = flags;
	a.members = (uintptr_t)names;
	a.handles = (uintptr_t)handles;
	return ioctl(fd, DCM_IOC_ALIAS_CREATE, &a);
}

/* Members of the alias @fd sees as @name: count, and the first's name. */
static int alias_get(int fd, const char *name, uint32_t flags, char *first, uint32_t *out_flags)
{
	char names[4][DCM_KEY_NAME_LEN];
	struct dcm_ioc_alias_get g;
	uint32_t handles[4];

	memset(&g, 0, sizeof(g));
	snprintf(g.name, sizeof(g.name), "%s", name);
	g.flags = flags;
	g.n_members = 4;
	g.members = (uintptr_t)names;
	g.handles = (uintptr_t)handles;
	if (ioctl(fd, DCM_IOC_ALIAS_GET, &g))
		return -errno;
	if (first)
		strcpy(first, names[0]);
	if (out_flags)
		*out_flags = g.flags;
	return (int)g.n_members;
}

static int alias_delete(int fd, const char *name, uint32_t flags)
{
	struct dcm_ioc_alias_delete d;

	memset(&d, 0, sizeof(d));
	snprintf(d.name, sizeof(d.name), "%s", name);
	d.flags = flags;
	return ioctl(fd, DCM_IOC_ALIAS_DELETE, &d) ? -errno : 0;
}

static int alias_list(int fd, struct dcm_alias_info *out, uint32_t room)
{
	struct dcm_ioc_alias_list l;

	memset(&l, 0, sizeof(l));
	l.n = room;
	l.aliases = (uintptr_t)out;
	return ioctl(fd, DCM_IOC_ALIAS_LIST, &l) ? -errno : (int)l.n;
}

static const char *const yaw[] = { "HeadYaw/Position/Actuator" };
static const char *const pitch[] = { "HeadPitch/Position/Actuator", "HeadYaw/Position/Actuator" };

/* Two files, one name: each its own alias; closing one frees only its own. */
TEST(alias_ownership)
{
	struct dcm_alias_info info[8];
	int a = open(DCM_DEV, O_RDWR), b = open(DCM_DEV, O_RDWR), c;
	char first[DCM_KEY_NAME_LEN];
	uint32_t flags;

	ASSERT_LE(0, a);
	ASSERT_LE(0, b);
	ASSERT_EQ(0, alias_create(a, "selftest.same", 0, yaw, 1));
	ASSERT_EQ(0, alias_create(b, "selftest.same", 0, pitch, 2));
	EXPECT_EQ(1, alias_get(a, "selftest.same", 0, first, &flags));
	EXPECT_STREQ("HeadYaw/Position/Actuator", first);
	EXPECT_EQ(0, flags);
	EXPECT_EQ(2, alias_get(b, "selftest.same", 0, first, NULL));
	EXPECT_STREQ("HeadPitch/Position/Actuator", first);
	EXPECT_EQ(1, alias_list(a, info, 8));
	EXPECT_STREQ("selftest.same", info[0].name);
	EXPECT_EQ(1, info[0].n_members);

	/* a third file sees neither */
	c = open(DCM_DEV, O_RDWR);
	ASSERT_LE(0, c);
	EXPECT_EQ(-ENOENT, alias_get(c, "selftest.same", 0, NULL, NULL));
	EXPECT_EQ(0, alias_list(c, info, 8));

	/* a shared alias: everyone sees it, an own one hides it from its file */
	ASSERT_EQ(0, alias_create(c, "selftest.shared", DCM_ALIAS_F_SHARED, pitch, 2));
	EXPECT_EQ(2, alias_get(a, "selftest.shared", 0, NULL, &flags));
	EXPECT_EQ(DCM_ALIAS_F_SHARED, flags);
	EXPECT_EQ(2, alias_list(a, info, 8));
	EXPECT_STREQ("selftest.same", info[0].name);
	EXPECT_STREQ("selftest.shared", info[1].name);
	EXPECT_EQ(DCM_ALIAS_F_SHARED, info[1].flags);
	ASSERT_EQ(0, alias_create(a, "selftest.shared", 0, yaw, 1));
	EXPECT_EQ(1, alias_get(a, "selftest.shared", 0, NULL, &flags));
	EXPECT_EQ(0, flags);
	EXPECT_EQ(2, alias_get(a, "selftest.shared", DCM_ALIAS_F_SHARED, NULL, NULL));
	EXPECT_EQ(2, alias_list(a, info, 8));	/* the hidden shared one is not listed */
	EXPECT_EQ(2, alias_get(b, "selftest.shared", 0, NULL, NULL));

	/* close frees the file's own aliases, not the shared one */
	close(c);
	close(a);
	EXPECT_EQ(2, alias_get(b, "selftest.same", 0, NULL, NULL));
	EXPECT_EQ(2, alias_list(b, info, 8));
	EXPECT_EQ(0, alias_delete(b, "selftest.shared", 0));
	EXPECT_EQ(-ENOENT, alias_delete(b, "selftest.shared", 0));
	/* delete takes the file's own first */
	EXPECT_EQ(-ENOENT, alias_delete(b, "selftest.same", DCM_ALIAS_F_SHARED));
	EXPECT_EQ(0, alias_delete(b, "selftest.same", 0));
	EXPECT_EQ(0, alias_list(b, info, 8));
	close(b);
}

/* An alias set reaches the file's own alias; another file's is not found. */
TEST(alias_set_own)
{
	int a = open(DCM_DEV, O_RDWR), b = open(DCM_DEV, O_RDWR);
	struct dcm_point p = { .value = 100000, .time = 0 };
	struct dcm_ioc_alias_set s;

	ASSERT_LE(0, a);
	ASSERT_LE(0, b);
	ASSERT_EQ(0, alias_create(a, "selftest.set", 0, yaw, 1));
	p.time = dcm_time_now(a, 50);
	memset(&s, 0, sizeof(s));
	snprintf(s.name, sizeof(s.name), "selftest.set");
	s.mode = DCM_ALIAS_SAME;
	s.n_times = 1;
	s.points = (uintptr_t)&p;
	EXPECT_EQ(0, ioctl(a, DCM_IOC_ALIAS_SET, &s)) TH_LOG("%s", strerror(errno));
	errno = 0;
	EXPECT_EQ(-1, ioctl(b, DCM_IOC_ALIAS_SET, &s));
	EXPECT_EQ(ENOENT, errno);
	p.value = 0;
	p.time = dcm_time_now(a, 50);
	EXPECT_EQ(0, ioctl(a, DCM_IOC_ALIAS_SET, &s));
	close(a);
	close(b);
}

/* Slots: 64 per file and 64 shared; freed by delete and by close. */
TEST(alias_slots)
{
	struct dcm_alias_info info[2 * DCM_MAX_ALIASES];
	char name[32];
	int fd, i, round;

	/* Shared aliases other tests left (dcmctl's, the fuzzer's) go first. */
	fd = open(DCM_DEV, O_RDWR);
	ASSERT_LE(0, fd);
	round = alias_list(fd, info, 2 * DCM_MAX_ALIASES);
	ASSERT_LE(0, round);
	for (i = 0; i < round; i++)
		EXPECT_EQ(0, alias_delete(fd, info[i].name, DCM_ALIAS_F_SHARED))
			TH_LOG("%s", info[i].name);
	close(fd);

	/* many files, each filling its slots, closed: never exhausted */
	for (round = 0; round < 5; round++) {
		fd = open(DCM_DEV, O_RDWR);
		ASSERT_LE(0, fd);
		for (i = 0; i < DCM_MAX_ALIASES; i++) {
			snprintf(name, sizeof(name), "selftest.%d", i);
			ASSERT_EQ(0, alias_create(fd, name, 0, yaw, 1))
				TH_LOG("round %d alias %d: %s", round, i, strerror(errno));
		}
		errno = 0;
		EXPECT_EQ(-1, alias_create(fd, "selftest.one-more", 0, yaw, 1));
		EXPECT_EQ(ENOSPC, errno);
		/* replacing one takes no slot */
		EXPECT_EQ(0, alias_create(fd, "selftest.3", 0, pitch, 2));
		EXPECT_EQ(DCM_MAX_ALIASES, alias_list(fd, info, 2 * DCM_MAX_ALIASES));
		close(fd);
	}
	/* create and delete, far more than 64 times, on one file */
	fd = open(DCM_DEV, O_RDWR);
	ASSERT_LE(0, fd);
	for (i = 0; i < 300; i++) {
		snprintf(name, sizeof(name), "selftest.cd%d", i);
		ASSERT_EQ(0, alias_create(fd, name, i & 1 ? DCM_ALIAS_F_SHARED : 0, yaw, 1))
			TH_LOG("create %d: %s", i, strerror(errno));
		ASSERT_EQ(0, alias_delete(fd, name, 0)) TH_LOG("delete %d", i);
	}
	EXPECT_EQ(0, alias_list(fd, info, 2 * DCM_MAX_ALIASES));
	/* the shared set: 64, then ENOSPC, and delete frees them */
	for (i = 0; i < DCM_MAX_ALIASES; i++) {
		snprintf(name, sizeof(name), "selftest.s%d", i);
		ASSERT_EQ(0, alias_create(fd, name, DCM_ALIAS_F_SHARED, yaw, 1))
			TH_LOG("shared %d: %s (leftover shared aliases?)", i, strerror(errno));
	}
	errno = 0;
	EXPECT_EQ(-1, alias_create(fd, "selftest.s-more", DCM_ALIAS_F_SHARED, yaw, 1));
	EXPECT_EQ(ENOSPC, errno);
	/* the file's own slots are its own */
	EXPECT_EQ(0, alias_create(fd, "selftest.own", 0, yaw, 1));
	EXPECT_EQ(DCM_MAX_ALIASES + 1, alias_list(fd, info, 2));
	EXPECT_STREQ("selftest.own", info[0].name);
	for (i = 0; i < DCM_MAX_ALIASES; i++) {
		snprintf(name, sizeof(name), "selftest.s%d", i);
		ASSERT_EQ(0, alias_delete(fd, name, DCM_ALIAS_F_SHARED));
	}
	EXPECT_EQ(1, alias_list(fd, NULL, 0));
	close(fd);
}

/* Bad input: clear errors, no oops; a read-only file may list, not delete. */
TEST(alias_bad_input)
{
	int fd = open(DCM_DEV, O_RDWR), ro = open(DCM_DEV, O_RDONLY);
	struct dcm_ioc_alias_delete d;
	struct dcm_ioc_alias_list l;
	struct dcm_ioc_alias_get g;

	ASSERT_LE(0, fd);
	ASSERT_LE(0, ro);
	errno = 0;
	EXPECT_EQ(-1, alias_create(fd, "selftest.bad", 1U << 5, yaw, 1));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-EINVAL, alias_delete(fd, "", 0));
	EXPECT_EQ(-EINVAL, alias_delete(fd, "x", 1U << 3));
	memset(&d, 'x', sizeof(d));
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, DCM_IOC_ALIAS_DELETE, &d));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-EBADF, alias_delete(ro, "x", 0));
	EXPECT_EQ(0, alias_list(ro, NULL, 0));
	memset(&l, 0, sizeof(l));
	l.reserved = 1;
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, DCM_IOC_ALIAS_LIST, &l));
	EXPECT_EQ(EINVAL, errno);
	/* an answer that does not fit the caller's memory */
	ASSERT_EQ(0, alias_create(fd, "selftest.f", 0, yaw, 1));
	l.reserved = 0;
	l.n = 4;
	l.aliases = 8;
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, DCM_IOC_ALIAS_LIST, &l));
	EXPECT_EQ(EFAULT, errno);
	memset(&g, 0, sizeof(g));
	snprintf(g.name, sizeof(g.name), "selftest.f");
	g.n_members = 1;
	g.members = 8;
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, DCM_IOC_ALIAS_GET, &g));
	EXPECT_EQ(EFAULT, errno);
	g.members = 0;
	g.n_members = 0;
	EXPECT_EQ(0, ioctl(fd, DCM_IOC_ALIAS_GET, &g));	/* the count only */
	EXPECT_EQ(1, g.n_members);
	close(ro);
	close(fd);
}

DCM_HARNESS_MAIN
