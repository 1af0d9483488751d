// SPDX-License-Identifier: GPL-2.0
/*
 * dcm_bench: what the dcm ABI costs, measured in the VM (make bench).
 *
 * Prints one line per measure: "<name> <value> <unit>". Under QEMU's TCG the
 * absolute numbers are those of an emulated CPU: compare runs, not robots.
 *
 * The rows of Documentation/dcm/benchmarks.rst (the scripts of tools/bench/rows/) run
 * its measures by name, each printing "<name>\t<value>\t<unit>" lines:
 *
 *   dcm_bench reads [KEY]      what a read of every value costs by each path:
 *                              the mapped snapshot, DCM_IOC_GET, a read()
 *                              frame (CPU time of the reader), and one sysfs
 *                              value (open, read, close of KEY's file)
 *   dcm_bench setwire N [KEY] [SLOTFILE] [BID]
 *                              N sets of KEY for "now", alternating between
 *                              two values, each at a random point of the
 *                              period; each prints "trial <returned_ns>
 *                              <on_wire_ns>": when the call returned and when
 *                              the simulated board's slot (dcm_sim's
 *                              rs485-N/slot_changed_ns, BID's) changed,
 *                              both CLOCK_MONOTONIC
 *   dcm_bench cstats [reset]   the cycle's counts (DCM_IOC_CYCLE_STATS), one
 *                              "<name> <value>" line each: cycles, missed,
 *                              late_starts, work_overruns, late_buses,
 *                              busy_buses; with reset, counted anew after
 *                              (the bounds of timing make check does not
 *                              assert: tools/bench/rows/timing.sh)
 */
#include <stdbool.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>

#include "dcm_test.h"

#define FRAME_SIZE (sizeof(struct dcm_frame) + 8 * DCM_MAX_SUBDEVICES)

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void report(const char *name, double value, const char *unit)
{
	printf("%-28s %12.1f %s\n", name, value, unit);
}

static int lookup(int fd, const char *name, uint32_t *h)
{
	struct dcm_ioc_lookup l = { 0 };

	snprintf(l.name, sizeof(l.name), "%s", name);
	if (ioctl(fd, DCM_IOC_LOOKUP, &l))
		return -1;
	*h = l.handle;
	return 0;
}

static uint32_t dcm_now(int fd)
{
	struct dcm_ioc_time t = { 0 };

	ioctl(fd, DCM_IOC_TIME, &t);
	return t.time;
}

static double cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void row(const char *name, double value, const char *unit)
{
	printf("%s\t%.1f\t%s\n", name, value, unit);
}

/* The value file of a key in sysfs: its path from the key's name. */
static void sysfs_value_path(const char *key, char *path, size_t size)
{
	snprintf(path, size, "/sys/class/dcm/dcm0/SubDeviceList/%s/Value", key);
}

static int bench_reads(int fd, const char *key)
{
	const struct dcm_snapshot *snap;
	struct dcm_ioc_info info;
	struct dcm_frame *frame;
	int64_t *values, *copy;
	uint32_t *handles, *times, h;
	char path[512], buf[64];
	int i, j, n, loops;
	double t0;

	if (ioctl(fd, DCM_IOC_INFO, &info) || lookup(fd, key, &h)) {
		fprintf(stderr, "dcm_bench: no key %s\n", key);
		return 1;
	}
	n = info.n_subdevices;
	handles = calloc(n, sizeof(*handles));
	values = calloc(n, sizeof(*values));
	copy = calloc(n, sizeof(*copy));
	times = calloc(n, sizeof(*times));
	frame = malloc(FRAME_SIZE);
	if (!handles || !values || !copy || !times || !frame)
		return 1;
	for (i = 0; i < n; i++)
		handles[i] = (h & 0xffff0000) | i;
	row("values", n, "values");

	snap = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	if (snap == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	/* The snapshot's size says how much to map for every value. */
	{
		size_t size = snap->size;

		munmap((void *)snap, 4096);
		snap = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
		if (snap == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
	}
	loops = 20000;
	t0 = now_ns();
	for (i = 0; i < loops; i++) {
		uint32_t seq;

		do {
			seq = __atomic_load_n(&snap->seq, __ATOMIC_ACQUIRE);
			memcpy(copy, (const char *)snap + snap->values_offset,
			       sizeof(*copy) * (snap->n_values < (uint32_t)n ? snap->n_values : (uint32_t)n));
			__atomic_thread_fence(__ATOMIC_ACQUIRE);
		} while ((seq & 1) || seq != __atomic_load_n(&snap->seq, __ATOMIC_ACQUIRE));
	}
	row("snapshot_all", (now_ns() - t0) / loops, "ns");

	loops = 5000;
	t0 = now_ns();
	for (i = 0; i < loops; i++) {
		struct dcm_ioc_get g = { .n = n, .handles = (uintptr_t)handles,
					 .values = (uintptr_t)values, .times = (uintptr_t)times };

		if (ioctl(fd, DCM_IOC_GET, &g)) {
			perror("DCM_IOC_GET");
			return 1;
		}
	}
	row("ioctl_get_all", (now_ns() - t0) / loops, "ns");

	/* A frame per cycle: the reader's CPU time, not the wait for the cycle. */
	if (read(fd, frame, FRAME_SIZE) < 0) {
		perror("read");
		return 1;
	}
	loops = 200;
	t0 = cpu_ns();
	for (i = 0; i < loops; i++)
		if (read(fd, frame, FRAME_SIZE) < 0) {
			perror("read");
			return 1;
		}
	row("frame_all", (cpu_ns() - t0) / loops, "ns");

	sysfs_value_path(key, path, sizeof(path));
	loops = 2000;
	t0 = now_ns();
	for (i = 0; i < loops; i++) {
		int vfd = open(path, O_RDONLY);

		if (vfd < 0 || read(vfd, buf, sizeof(buf)) <= 0) {
			perror(path);
			return 1;
		}
		close(vfd);
	}
	row("sysfs_one", (now_ns() - t0) / loops, "ns");
	/* One value by the snapshot, for the sysfs ratio. */
	loops = 200000;
	t0 = now_ns();
	{
		volatile int64_t sink = 0;

		for (j = 0; j < loops; j++) {
			uint32_t seq;

			do {
				seq = __atomic_load_n(&snap->seq, __ATOMIC_ACQUIRE);
				sink += ((const int64_t *)((const char *)snap +
							   snap->values_offset))[j % n];
				__atomic_thread_fence(__ATOMIC_ACQUIRE);
			} while ((seq & 1) || seq != __atomic_load_n(&snap->seq, __ATOMIC_ACQUIRE));
		}
	}
	row("snapshot_one", (now_ns() - t0) / loops, "ns");
	return 0;
}

static int64_t read_slot_ns(const char *file, int bid)
{
	long long v[16] = { 0 };
	FILE *f = fopen(file, "r");
	int i;

	if (!f)
		return -1;
	for (i = 0; i < 16; i++)
		if (fscanf(f, "%lld", &v[i]) != 1)
			break;
	fclose(f);
	return bid >= 1 && bid <= 16 ? v[bid - 1] : -1;
}

static int bench_setwire(int fd, int trials, const char *key, const char *slotfile, int bid)
{
	struct dcm_ioc_info info;
	struct dcm_frame *frame = malloc(FRAME_SIZE);
	uint32_t h;
	int k, late = 0;

	if (!frame || ioctl(fd, DCM_IOC_INFO, &info) || lookup(fd, key, &h)) {
		fprintf(stderr, "dcm_bench: no key %s\n", key);
		return 1;
	}
	if (read_slot_ns(slotfile, bid) < 0) {
		fprintf(stderr, "dcm_bench: cannot read %s\n", slotfile);
		return 1;
	}
	srand(1);
	for (k = 0; k < trials; k++) {
		struct dcm_point p = { .value = k % 2 ? 250000 : 500000 };
		struct dcm_ioc_set s = { .handle = h, .update = DCM_UPDATE_CLEAR_ALL,
					 .n_points = 1, .points = (uintptr_t)&p };
		struct timespec ts;
		int64_t before, ret_ns, wire = -1;
		int w;

		/* Just after a cycle, then a random point of the period. */
		if (read(fd, frame, FRAME_SIZE) < 0) {
			perror("read");
			return 1;
		}
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(rand() % info.period_us) * 1000;
		nanosleep(&ts, NULL);
		before = read_slot_ns(slotfile, bid);
		p.time = dcm_now(fd);
		if (ioctl(fd, DCM_IOC_SET, &s)) {
			perror("DCM_IOC_SET");
			return 1;
		}
		ret_ns = (int64_t)now_ns();
		/* Its slot changes within a few cycles: look every 0.5 ms, 1 s at most. */
		for (w = 0; w < 2000; w++) {
			int64_t v = read_slot_ns(slotfile, bid);

			if (v != before) {
				wire = v;
				break;
			}
			ts.tv_nsec = 500000;
			nanosleep(&ts, NULL);
		}
		if (wire < 0)
			late++;
		printf("trial %lld %lld\n", (long long)ret_ns, (long long)wire);
	}
	free(frame);
	return late ? 2 : 0;
}

/* dcm_bench cstats [reset]: the cycle's counts, a line each. */
static int bench_cstats(int fd, bool reset)
{
	struct dcm_ioc_cycle_stats st;

	memset(&st, 0, sizeof(st));
	st.flags = reset ? DCM_CYCLE_STATS_F_RESET : 0;
	if (ioctl(fd, DCM_IOC_CYCLE_STATS, &st)) {
		perror("DCM_IOC_CYCLE_STATS");
		return 1;
	}
	printf("cycles %llu\nmissed %llu\nlate_starts %llu\nwork_overruns %llu\n"
	       "late_buses %llu\nbusy_buses %llu\n",
	       (unsigned long long)st.cycles, (unsigned long long)st.missed,
	       (unsigned long long)st.late_starts, (unsigned long long)st.work_overruns,
	       (unsigned long long)st.late_buses, (unsigned long long)st.busy_buses);
	return 0;
}

int main(int argc, char **argv)
{
	const char *actuator = argc > 1 ? argv[1] : "HeadYaw/Position/Actuator";
	static struct dcm_point pts[DCM_MAX_POINTS];
	struct dcm_ioc_stats st0, st1;
	const struct dcm_snapshot *snap;
	struct dcm_ioc_info info;
	struct dcm_frame *frame;
	uint32_t h, *handles;
	int64_t *values;
	uint32_t *times;
	int fd, i, n;
	double t0;

	fd = open(DCM_DEV, O_RDWR);
	if (fd < 0 || ioctl(fd, DCM_IOC_INFO, &info)) {
		perror(DCM_DEV);
		return 1;
	}
	if (argc > 1 && !strcmp(argv[1], "cstats"))
		return bench_cstats(fd, argc > 2 && !strcmp(argv[2], "reset"));
	if (argc > 1 && !strcmp(argv[1], "reads"))
		return bench_reads(fd, argc > 2 ? argv[2] : "HeadYaw/Position/Sensor");
	if (argc > 2 && !strcmp(argv[1], "setwire"))
		return bench_setwire(fd, atoi(argv[2]),
				     argc > 3 ? argv[3] : "HeadYaw/Position/Actuator",
				     argc > 4 ? argv[4] :
				     "/sys/kernel/debug/dcm_sim/body0/rs485-1/slot_changed_ns",
				     argc > 5 ? atoi(argv[5]) : 1);
	if (lookup(fd, actuator, &h)) {
		fprintf(stderr, "dcm_bench: no actuator %s in the running description\n", actuator);
		return 1;
	}
	n = info.n_subdevices;
	printf("# dcm_bench: %u devices, %u subdevices, period %u us, actuator %s\n",
	       info.n_devices, info.n_subdevices, info.period_us, actuator);

	ioctl(fd, DCM_IOC_STATS, &st0);

	t0 = now_ns();
	for (i = 0; i < 20000; i++)
		lookup(fd, actuator, &h);
	report("ioctl_lookup", (now_ns() - t0) / 20000, "ns/call");

	t0 = now_ns();
	for (i = 0; i < 20000; i++)
		dcm_now(fd);
	report("ioctl_time", (now_ns() - t0) / 20000, "ns/call");

	t0 = now_ns();
	for (i = 0; i < 20000; i++) {
		struct dcm_point p = { .value = i % 1000, .time = dcm_now(fd) + 50 };
		struct dcm_ioc_set s = { .handle = h, .update = DCM_UPDATE_CLEAR_ALL,
					 .n_points = 1, .points = (uintptr_t)&p };

		ioctl(fd, DCM_IOC_SET, &s);
	}
	report("ioctl_set_1_point", (now_ns() - t0) / 20000, "ns/call");

	for (i = 0; i < DCM_MAX_POINTS; i++)
		pts[DCM_MAX_POINTS - 1 - i] = (struct dcm_point){ .value = i,
								  .time = dcm_now(fd) + 10000 + i };
	t0 = now_ns();
	for (i = 0; i < 500; i++) {
		struct dcm_ioc_set s = { .handle = h, .update = DCM_UPDATE_CLEAR_ALL,
					 .n_points = DCM_MAX_POINTS, .points = (uintptr_t)pts };

		ioctl(fd, DCM_IOC_SET, &s);
	}
	report("ioctl_set_512_reversed", (now_ns() - t0) / 500, "ns/call");

	handles = calloc(n, sizeof(*handles));
	values = calloc(n, sizeof(*values));
	times = calloc(n, sizeof(*times));
	frame = malloc(FRAME_SIZE);
	if (!handles || !values || !times || !frame)
		return 1;
	for (i = 0; i < n; i++)
		handles[i] = (h & 0xffff0000) | i;
	t0 = now_ns();
	for (i = 0; i < 5000; i++) {
		struct dcm_ioc_get g = { .n = n, .handles = (uintptr_t)handles,
					 .values = (uintptr_t)values, .times = (uintptr_t)times };

		ioctl(fd, DCM_IOC_GET, &g);
	}
	report("ioctl_get_all", (now_ns() - t0) / 5000, "ns/call");

	snap = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	if (snap != MAP_FAILED) {
		volatile int64_t sink = 0;

		t0 = now_ns();
		for (i = 0; i < 200000; i++) {
			uint32_t seq;

			do {
				seq = __atomic_load_n(&snap->seq, __ATOMIC_ACQUIRE);
				sink += ((const int64_t *)((const char *)snap +
							   snap->values_offset))[i % n];
				__atomic_thread_fence(__ATOMIC_ACQUIRE);
			} while ((seq & 1) || seq != __atomic_load_n(&snap->seq, __ATOMIC_ACQUIRE));
		}
		report("mmap_read_one_value", (now_ns() - t0) / 200000, "ns/read");
		munmap((void *)snap, 4096);
	}

	/* Frames: one per cycle; the wait is the period. */
	read(fd, frame, FRAME_SIZE);
	t0 = now_ns();
	for (i = 0; i < 100; i++)
		read(fd, frame, FRAME_SIZE);
	report("read_frame_interval", (now_ns() - t0) / 100 / 1000, "us/frame");

	ioctl(fd, DCM_IOC_STATS, &st1);
	report("cycle_work_mean", st1.mean_ns / 1000.0, "us");
	report("cycle_work_max", st1.max_ns / 1000.0, "us");
	report("cycle_latency_max", st1.latency_max_ns / 1000.0, "us");
	report("cycle_overruns_during_bench", st1.overruns - st0.overruns, "cycles");
	report("cycles_during_bench", st1.cycles - st0.cycles, "cycles");
	printf("# wake-up latency histogram (us: count):");
	{
		static const char * const b[] = { "<10", "<20", "<50", "<100", "<200", "<500",
						  "<1000", "<2000", "<5000", ">=5000" };

		for (i = 0; i < 10; i++)
			printf(" %s:%llu", b[i], (unsigned long long)st1.latency_hist[i]);
	}
	printf("\n");
	close(fd);
	return 0;
}
