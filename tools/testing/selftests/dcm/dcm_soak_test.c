// SPDX-License-Identifier: GPL-2.0
/*
 * dcm_soak_test: load and soak. DCM_SOAK_CLIENTS clients (64) for
 * DCM_SOAK_SECONDS (10; `make soak` runs 1 000 s, 100 000 cycles), one
 * process each, in five roles: timed sets (every update kind, queues filled
 * to their bound), alias sets, frame readers (read()), snapshot readers
 * (mmap()) and sysfs writers. Meanwhile the parent injects a fault every
 * DCM_SOAK_FAULT_MS (3 000: a silent board, corrupted replies, a slow bus,
 * a cycle stall, in turn) and replaces the description every
 * DCM_SOAK_RELOAD_MS (12 000: another body, then the default). Checked all
 * along: each frame reader sees every cycle's frame or counts the gaps (a
 * reader is an ordinary process: under emulation with 64 of them it misses
 * some, 10 to 20 %: the figure is printed), and never one twice or out of
 * order; every frame and every snapshot has
 * the actuators' Values within Min/Max; a full queue refuses with ENOSPC
 * and nothing else; the mapped snapshot never stays odd longer than 200 ms
 * nor still for longer than a second outside a stall; clients survive
 * every reload (ESTALE, then a new lookup); the cycle runs on (a frame
 * reader sees at least half the periods of its time: a floor for a loaded
 * emulator, not the target, which `make bench` measures). The counts
 * (cycles, faults, reloads, clients, operations) end the output. A run of
 * 30 s or less injects a fault every 1 800 ms and reloads every 4 000 ms
 * (the first reload no later than a third of the run). Every reload must be
 * a real swap (the two descriptions differ): the controller's
 * description_swaps grows by one per reload, and a run that made none
 * fails; the count is printed.
 */
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "dcm_test.h"

#define SIM		"/sys/kernel/debug/dcm_sim/body0"
#define SUB		DCM_SYSFS "/SubDeviceList"
#define FRAME_SIZE	(sizeof(struct dcm_frame) + 8 * DCM_MAX_SUBDEVICES)
#define NKEYS		6

/* The actuators the clients command; their Min/Max are checked everywhere. */
static const char * const keys[NKEYS] = {
	"ChestBoard/Led/Red/Actuator",
	"ChestBoard/Led/Green/Actuator",
	"Face/Led/Blue/Left/0Deg/Actuator",
	"Face/Led/Blue/Right/0Deg/Actuator",
	"Ears/Led/Left/0Deg/Actuator",
	"HeadPitch/Position/Actuator",
};

/* What a client tells the parent when it ends (through a pipe). */
struct report {
	int role;
	int ok;
	unsigned long ops;	/* sets, frames, snapshot reads, writes */
	unsigned long gaps;	/* frames a reader did not see */
	unsigned long frames;	/* frames a reader saw */
	unsigned long stale;	/* reloads met (ESTALE, a new generation) */
	unsigned long full;	/* sets refused with ENOSPC: a queue at its bound */
	unsigned long stills;	/* seconds a snapshot and its cycle stood still */
	char why[256];
};

enum { ROLE_SET, ROLE_ALIAS, ROLE_FRAME, ROLE_SNAP, ROLE_SYSFS, NROLES };
static const char * const role_name[NROLES] = {
	"set", "alias", "frame", "snapshot", "sysfs"
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double sysfs_num(const char *path)
{
	char buf[64];

	return dcm_read_sysfs(path, buf, sizeof(buf)) ? NAN : strtod(buf, NULL);
}

/* The keys' handles and Min/Max in the running description. */
struct keyset {
	uint32_t h[NKEYS];
	int64_t min[NKEYS], max[NKEYS];
	uint32_t gen;
};

static int keyset_load(int fd, struct keyset *ks)
{
	double min, max;
	int i;

	for (i = 0; i < NKEYS; i++) {
		char path[192];

		ks->h[i] = dcm_lookup_handle(fd, keys[i]);
		if (!ks->h[i])
			return -1;
		/* The key tree of a new description comes after its handles. */
		snprintf(path, sizeof(path), SUB "/%s/Min", keys[i]);
		min = sysfs_num(path);
		snprintf(path, sizeof(path), SUB "/%s/Max", keys[i]);
		max = sysfs_num(path);
		if (isnan(min) || isnan(max))
			return -1;
		ks->min[i] = llround(min * 1e6);
		ks->max[i] = llround(max * 1e6);
	}
	ks->gen = DCM_HANDLE_GEN(ks->h[0]);
	return 0;
}

/* A value outside its key's Min/Max, or -1. */
static int out_of_range(const struct keyset *ks, const __s64 *values, uint32_t n)
{
	int i;

	for (i = 0; i < NKEYS; i++) {
		uint32_t idx = DCM_HANDLE_INDEX(ks->h[i]);

		if (idx < n && (values[idx] < ks->min[i] || values[idx] > ks->max[i]))
			return i;
	}
	return -1;
}

#define FAIL(r, ...) do { snprintf((r)->why, sizeof((r)->why), __VA_ARGS__); \
			  (r)->ok = 0; return; } while (0)

/* Reload the keys after a replace (retrying while the new one arrives). */
static int relookup(int fd, struct keyset *ks)
{
	int tries;

	for (tries = 0; tries < 100; tries++) {
		if (!keyset_load(fd, ks))
			return 0;
		usleep(20000);
	}
	return -1;
}

static void run_set(int fd, int id, double end, struct report *r)
{
	struct dcm_point p[DCM_MAX_POINTS];
	unsigned int seed = id;
	struct keyset ks;
	int k = id % NKEYS;

	if (keyset_load(fd, &ks))
		FAIL(r, "lookup");
	while (now_s() < end) {
		uint32_t t = dcm_time_now(fd, 0), update = rand_r(&seed) % (DCM_UPDATE_MAX + 1);
		uint32_t n = 1 + rand_r(&seed) % 8, i;

		/* Now and then a burst past the queue's bound: ENOSPC. */
		if (rand_r(&seed) % 50 == 0) {
			update = DCM_UPDATE_MERGE;
			n = DCM_MAX_POINTS;
		}
		for (i = 0; i < n; i++) {
			int64_t span = ks.max[k] - ks.min[k];

			p[i].value = ks.min[k] + (int64_t)(rand_r(&seed) % 1000) * span / 1000;
			p[i].time = t + 10 + i * 7 + rand_r(&seed) % 5;
			p[i].importance = 0;
			memset(p[i].reserved, 0, sizeof(p[i].reserved));
		}
		if (dcm_set_points(fd, ks.h[k], update, p, n)) {
			if (errno == ESTALE) {
				r->stale++;
				if (relookup(fd, &ks))
					FAIL(r, "lookup after a reload");
				continue;
			}
			if (errno == ENOSPC) {
				r->full++;
				/* Empty it: the next sets have room. */
				dcm_set_points(fd, ks.h[k], DCM_UPDATE_CLEAR_ALL, p, 0);
				continue;
			}
			FAIL(r, "set of %u points, update %u: %s", n, update, strerror(errno));
		}
		r->ops++;
		usleep(5000 + rand_r(&seed) % 20000);
	}
}

static void run_alias(int fd, int id, double end, struct report *r)
{
	char members[3][DCM_KEY_NAME_LEN] = { 0 };
	struct dcm_ioc_alias_create c = { 0 };
	uint32_t handles[3];
	unsigned int seed = id;
	int i, have = 0;

	for (i = 0; i < 3; i++)
		snprintf(members[i], sizeof(members[i]), "%s", keys[i]);
	snprintf(c.name, sizeof(c.name), "soak%d", id);
	c.n_members = 3;
	c.members = (uintptr_t)members;
	c.handles = (uintptr_t)handles;
	while (now_s() < end) {
		uint32_t times[2];
		int64_t values[3][2];
		struct dcm_ioc_alias_set s = { 0 };
		uint32_t t = dcm_time_now(fd, 0);

		if (!have) {
			if (ioctl(fd, DCM_IOC_ALIAS_CREATE, &c))
				FAIL(r, "alias create: %s", strerror(errno));
			have = 1;
		}
		times[0] = t + 10;
		times[1] = t + 30;
		for (i = 0; i < 3; i++) {
			values[i][0] = (rand_r(&seed) % 1000) * 1000;
			values[i][1] = (rand_r(&seed) % 1000) * 1000;
		}
		snprintf(s.name, sizeof(s.name), "%s", c.name);
		s.update = DCM_UPDATE_CLEAR_ALL;
		s.mode = DCM_ALIAS_TIME_SEPARATE;
		s.n_members = 3;
		s.n_times = 2;
		s.times = (uintptr_t)times;
		s.values = (uintptr_t)values;
		if (ioctl(fd, DCM_IOC_ALIAS_SET, &s)) {
			/* A replaced description: its aliases may be gone or stale. */
			if (errno == ESTALE || errno == ENOENT) {
				r->stale++;
				have = 0;
				usleep(20000);
				continue;
			}
			FAIL(r, "alias set: %s", strerror(errno));
		}
		r->ops++;
		usleep(5000 + rand_r(&seed) % 20000);
	}
}

static void run_frame(int fd, double end, struct report *r)
{
	struct dcm_frame *f = malloc(FRAME_SIZE);
	uint32_t gen = 0, last_time = 0;
	uint64_t last = 0;
	struct keyset ks;
	ssize_t got;
	int bad;

	if (!f || keyset_load(fd, &ks))
		FAIL(r, "setup");
	while (now_s() < end) {
		got = read(fd, f, FRAME_SIZE);
		if (got < 0)
			FAIL(r, "read: %s", strerror(errno));
		if (f->generation != ks.gen) {
			r->stale++;
			if (relookup(fd, &ks))
				FAIL(r, "lookup after a reload");
			if (f->generation != ks.gen)
				continue;
		}
		if (last && f->cycle > last + 1 && f->generation == gen)
			r->gaps += f->cycle - last - 1;
		if (last && f->cycle <= last)
			FAIL(r, "frame of cycle %llu (time %u) after %llu (time %u), read %zd",
			     (unsigned long long)f->cycle, f->time, (unsigned long long)last,
			     last_time, got);
		last = f->cycle;
		last_time = f->time;
		gen = f->generation;
		bad = out_of_range(&ks, f->values, f->n_values);
		if (bad >= 0)
			FAIL(r, "frame %llu: %s = %lld outside [%lld, %lld]",
			     (unsigned long long)f->cycle, keys[bad],
			     (long long)f->values[DCM_HANDLE_INDEX(ks.h[bad])],
			     (long long)ks.min[bad], (long long)ks.max[bad]);
		r->frames++;
		r->ops++;
	}
}

static const struct dcm_snapshot *map_snap(int fd, size_t *size)
{
	long page = sysconf(_SC_PAGESIZE);
	const struct dcm_snapshot *s = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);
	size_t sz;

	if (s == MAP_FAILED)
		return NULL;
	sz = s->size;
	munmap((void *)s, page);
	s = mmap(NULL, sz, PROT_READ, MAP_SHARED, fd, 0);
	*size = sz;
	return s == MAP_FAILED ? NULL : s;
}

static void run_snap(int fd, double end, struct report *r)
{
	double odd_since = 0, moved = now_s();
	const struct dcm_snapshot *s;
	__s64 *v = malloc(8 * DCM_MAX_SUBDEVICES);
	uint64_t last = 0;
	struct keyset ks;
	size_t size;
	int bad;

	s = map_snap(fd, &size);
	if (!s || !v || keyset_load(fd, &ks))
		FAIL(r, "setup");
	while (now_s() < end) {
		uint32_t seq1 = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE), seq2, n;
		uint64_t cycle;
		double t = now_s();

		if (seq1 & 1) {
			if (!odd_since)
				odd_since = t;
			if (t - odd_since > 0.2)
				FAIL(r, "the snapshot stayed odd %.0f ms", (t - odd_since) * 1000);
			usleep(200);
			continue;
		}
		odd_since = 0;
		n = s->n_values;
		cycle = s->cycle;
		if (n > DCM_MAX_SUBDEVICES)
			FAIL(r, "n_values %u", n);
		memcpy(v, (const char *)s + s->values_offset, 8 * n);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		seq2 = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);
		if (seq1 != seq2)
			continue;
		/*
		 * A replaced description leaves the old mapping frozen, with
		 * its own generation: a snapshot still for 300 ms asks whether
		 * the handles' generation moved on.
		 */
		if (s->generation != ks.gen ||
		    (t - moved > 0.3 &&
		     DCM_HANDLE_GEN(dcm_lookup_handle(fd, keys[0])) != ks.gen)) {
			/* Map the new one. */
			r->stale++;
			munmap((void *)s, size);
			if (relookup(fd, &ks))
				FAIL(r, "lookup after a reload");
			s = map_snap(fd, &size);
			if (!s)
				FAIL(r, "mmap after a reload: %s", strerror(errno));
			last = 0;
			moved = now_s();
			continue;
		}
		if (cycle < last)
			FAIL(r, "snapshot of cycle %llu after %llu", (unsigned long long)cycle,
			     (unsigned long long)last);
		if (cycle != last)
			moved = t;
		/*
		 * Injected stalls are at most 300 ms and reloads move to a new
		 * mapping: a snapshot still for a second is stuck if the cycle
		 * ran on meanwhile (DCM_IOC_STATS counts the cycles this
		 * mapping's publish numbers); if the cycle itself did not run
		 * (a starved emulator), it is counted, not failed: the cycle's
		 * own pace is the frame readers' check.
		 */
		if (t - moved > 1.0) {
			struct dcm_ioc_stats b;

			if (ioctl(fd, DCM_IOC_STATS, &b))
				FAIL(r, "DCM_IOC_STATS: %s", strerror(errno));
			if (s->generation == ks.gen && b.cycles > cycle + 50)
				FAIL(r, "the snapshot stayed at cycle %llu for %.1f s while the cycle ran to %llu",
				     (unsigned long long)cycle, t - moved,
				     (unsigned long long)b.cycles);
			r->stills++;
			moved = t;
		}
		last = cycle;
		bad = out_of_range(&ks, v, n);
		if (bad >= 0)
			FAIL(r, "snapshot %llu: %s outside its Min/Max", (unsigned long long)cycle,
			     keys[bad]);
		r->ops++;
		usleep(5000);
	}
}

static void run_sysfs(int id, double end, struct report *r)
{
	unsigned int seed = id;

	while (now_s() < end) {
		char path[192], buf[32];
		const char *key = keys[2 + id % 3];
		int fd, len;

		snprintf(path, sizeof(path), SUB "/%s/Value", key);
		len = snprintf(buf, sizeof(buf), "%.3f\n", (rand_r(&seed) % 1000) / 1000.0);
		fd = open(path, O_WRONLY);
		if (fd < 0) {
			/* The key tree is being replaced. */
			if (errno == ENOENT || errno == ENODEV) {
				r->stale++;
				usleep(20000);
				continue;
			}
			FAIL(r, "open %s: %s", key, strerror(errno));
		}
		if (write(fd, buf, len) != len && errno != ENODEV && errno != ENOENT) {
			close(fd);
			FAIL(r, "write %s: %s", key, strerror(errno));
		}
		close(fd);
		r->ops++;
		usleep(10000 + rand_r(&seed) % 20000);
	}
}

static void client(int id, int role, double end, int out)
{
	struct report r = { .role = role, .ok = 1 };
	int fd = open(DCM_DEV, O_RDWR);

	if (fd < 0) {
		r.ok = 0;
		snprintf(r.why, sizeof(r.why), "open: %s", strerror(errno));
	} else {
		switch (role) {
		case ROLE_SET:
			run_set(fd, id, end, &r);
			break;
		case ROLE_ALIAS:
			run_alias(fd, id, end, &r);
			break;
		case ROLE_FRAME:
			run_frame(fd, end, &r);
			break;
		case ROLE_SNAP:
			run_snap(fd, end, &r);
			break;
		default:
			run_sysfs(id, end, &r);
			break;
		}
	}
	if (write(out, &r, sizeof(r)) != sizeof(r))
		_exit(2);
	_exit(r.ok ? 0 : 1);
}

static int env_int(const char *name, int def)
{
	const char *s = getenv(name);

	return s && *s ? atoi(s) : def;
}

static const char * const faults[][2] = {
	{ "echo 1 >" SIM "/rs485-1/silent", "echo 0 >" SIM "/rs485-1/silent" },
	{ "echo 200000 >" SIM "/rs485-2/crc_ppm", "echo 0 >" SIM "/rs485-2/crc_ppm" },
	{ "echo 2000 >" SIM "/rs485-3/delay_us", "echo 0 >" SIM "/rs485-3/delay_us" },
	{ "echo 150 >/sys/kernel/debug/dcm/dcm0/stall_ms", "true" },
};

TEST(soak)
{
	int nclients = env_int("DCM_SOAK_CLIENTS", 64);
	/*
	 * 10 s in make check; on a slowed kernel (make check-debug) as many
	 * times longer, or forking the clients alone can eat the whole run.
	 */
	int scale = dcm_test_scale();
	int seconds = env_int("DCM_SOAK_SECONDS", 10 * scale);
	/* A short run (make check) still sees every fault and a reload. */
	int fault_ms = env_int("DCM_SOAK_FAULT_MS", seconds > 30 ? 3000 : 1800);
	int reload_ms = env_int("DCM_SOAK_RELOAD_MS", seconds > 30 ? 12000 : 4000);
	unsigned long ops[NROLES] = { 0 }, gaps = 0, frames = 0, stale = 0, full = 0, stills = 0;
	unsigned long seen = 0;
	long swaps0, swaps;
	int nfaults = 0, nreloads = 0, nmet_due = 0, failed = 0, i, pipefd[2], variant = 0;
	double t0, end, next_fault, next_reload;
	struct dcm_ioc_stats b;
	pid_t *pids;
	int fd;

	if (access(SIM, F_OK))
		SKIP(return, "no dcm_sim");
	ASSERT_LT(0, nclients);
	pids = calloc(nclients, sizeof(*pids));
	ASSERT_NE(NULL, pids);
	fd = open(DCM_DEV, O_RDWR);
	ASSERT_LE(0, fd);
	/* The default description (a test before may have left another). */
	for (i = 0; i < NKEYS && dcm_lookup_handle(fd, keys[i]); i++)
		;
	if (i < NKEYS)
		ASSERT_EQ(0, dcm_sh("dcmd -1 >/dev/null 2>&1"));
	ASSERT_EQ(0, pipe(pipefd));
	swaps0 = dcm_swaps(DCM_SYSFS);
	ASSERT_LE(0, swaps0) TH_LOG("no " DCM_SYSFS "/description_swaps (ABI 1.6)");

	t0 = now_s();
	end = t0 + seconds;
	for (i = 0; i < nclients; i++) {
		pids[i] = fork();
		ASSERT_LE(0, pids[i]);
		if (!pids[i]) {
			close(pipefd[0]);
			client(i, i % NROLES, end, pipefd[1]);
		}
	}
	close(pipefd[1]);

	next_fault = t0 + fault_ms / 1000.0;
	/* A short run gets its reload too. */
	next_reload = t0 + fmin(reload_ms / 1000.0, seconds / 3.0);
	while (now_s() < end - 1) {
		double t = now_s();

		if (t >= next_fault) {
			const char * const *f = faults[nfaults % 4];

			dcm_sh(f[0]);
			usleep(300000);
			dcm_sh(f[1]);
			nfaults++;
			next_fault += fault_ms / 1000.0;
		} else if (t >= next_reload && t < end - 3) {
			/* Another body, then the default: each a new generation. */
			EXPECT_EQ(0, dcm_sh(variant ? "dcmd -1 >/dev/null 2>&1" :
					    "dcmd -1 -b /usr/share/dcm/variants/body-normal-arms.xml"
					    " >/dev/null 2>&1"));
			variant = !variant;
			nreloads++;
			/* Swapped with a second of the clients' time left: they meet it. */
			if (now_s() < end - 1)
				nmet_due++;
			next_reload += reload_ms / 1000.0;
		} else {
			usleep(50000);
		}
	}

	for (i = 0; i < nclients; i++) {
		struct report r;

		ASSERT_EQ(sizeof(r), read(pipefd[0], &r, sizeof(r)));
		ops[r.role] += r.ops;
		if (r.frames + r.gaps > seen)
			seen = r.frames + r.gaps;
		gaps += r.gaps;
		frames += r.frames;
		stale += r.stale;
		full += r.full;
		stills += r.stills;
		if (!r.ok) {
			failed++;
			TH_LOG("a %s client: %s", role_name[r.role], r.why);
		}
	}
	for (i = 0; i < nclients; i++) {
		int st;

		ASSERT_EQ(pids[i], waitpid(pids[i], &st, 0));
		/* 1 is a failure its report told; anything else is a crash. */
		failed += !WIFEXITED(st) || WEXITSTATUS(st) > 1;
	}
	if (variant)
		EXPECT_EQ(0, dcm_sh("dcmd -1 >/dev/null 2>&1"));
	/* Each reload, and the return to the default, replaced the description. */
	swaps = dcm_swaps(DCM_SYSFS) - swaps0;
	EXPECT_LT(0, nreloads) TH_LOG("no reload in %d s: DCM_SOAK_SECONDS of 5 or more", seconds);
	EXPECT_EQ(nreloads + variant, swaps)
		TH_LOG("%d reloads but %ld real swaps of the description", nreloads + variant, swaps);
	/*
	 * A reload that ended with the clients' time nearly over (a host so
	 * loaded that dcmd took seconds) cannot be asked to reach them.
	 */
	if (nmet_due) {
		EXPECT_LT(0, stale) TH_LOG("%d reloads in the clients' time, none met", nmet_due);
	} else if (nreloads) {
		printf("# soak: every reload ended within a second of the clients' end: "
		       "their meeting one is not checked\n");
	}
	ASSERT_EQ(0, ioctl(fd, DCM_IOC_STATS, &b));
	EXPECT_EQ(0, failed);
	/*
	 * The cycle ran on: a frame reader saw (or counted as missed) half the
	 * periods its time allowed, the reloads' own cycles aside.
	 */
	EXPECT_LE(((unsigned long)seconds * 50 - nreloads * 20) / scale, seen)
		TH_LOG("%lu cycles seen in %d s", seen, seconds);
	printf("# soak: %d s, %d clients, %lu cycles seen by a frame reader, %d faults, "
	       "%d reloads (%ld real swaps of the description, the return to the default "
	       "included); since the last load %llu cycles, %llu overruns, %llu missed "
	       "periods\n", seconds, nclients, seen, nfaults, nreloads, swaps,
	       (unsigned long long)b.cycles, (unsigned long long)b.overruns,
	       (unsigned long long)b.missed);
	printf("# soak: %lu sets (%lu refused by a full queue), %lu alias sets, %lu frames "
	       "(%lu missed), %lu snapshot reads (%lu seconds the cycle itself stood still), "
	       "%lu sysfs writes, %lu reloads met\n",
	       ops[ROLE_SET], full, ops[ROLE_ALIAS], frames, gaps, ops[ROLE_SNAP], stills,
	       ops[ROLE_SYSFS], stale);
	close(fd);
	free(pids);
}

DCM_HARNESS_MAIN
