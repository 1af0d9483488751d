// SPDX-License-Identifier: GPL-2.0
/*
 * dcm_bench: what the dcm ABI costs, measured in the VM (make bench).
 *
 * Prints one line per measure: "<name> <value> <unit>". Under QEMU's TCG the
 * absolute numbers are those of an emulated CPU: compare runs, not robots.
 */
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
