// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * control-loop: a per-cycle control loop over libdcm.
 *
 * Every cycle (10 ms) it waits for the cycle's frame (poll() then a
 * blocking read()), reads every joint's position sensor from it, and keeps
 * the client watchdog fed; every half second it sends one joint (HeadYaw by
 * default) a timed command to the other side: reach +-AMPLITUDE rad 400 ms
 * from now. If this program stops (killed, stuck), the watchdog holds the
 * joint where it is within WATCHDOG ms (default 500). If the loop itself
 * falls that far behind, the watchdog fires: the loop says so, arms it
 * again and goes on.
 *
 *   control-loop [-d /dev/dcmN] [-j JOINT] [-a AMPLITUDE] [-s SECONDS]
 *                [-w WATCHDOG_MS]
 *
 * Prints a line per second and, at the end, how far the joint moved; then
 * sends the joint back to 0 and soft. Exits non-zero on an error or when
 * the joint did not move.
 *
 * Build: cc control-loop.c $(pkg-config --cflags --libs libdcm)
 * (Documentation/dcm/first-steps.rst).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libdcm.h>
#include <linux/dcm.h>	/* the kernel ABI, installed with libdcm */

#define MAX_JOINTS	64

struct joint {
	const char *name;	/* "HeadYaw/Position/Sensor" */
	unsigned int index;	/* its entry in a frame */
};

static int fail(const char *what, int err)
{
	fprintf(stderr, "control-loop: %s: %s\n", what,
		*dcm_last_error() ? dcm_last_error() : dcm_strerror(err));
	return 1;
}

/*
 * One long main() on purpose: this is an example a user reads top to
 * bottom, the libdcm calls in the order a control program makes them
 * (open, look up, arm the watchdog, loop on the frames, send, close).
 * Split into functions, the order would be spread over the file.
 */
int main(int argc, char **argv)
{
	const char *device = LIBDCM_DEFAULT_DEVICE, *joint = "HeadYaw";
	double amplitude = 0.5, lo = 1e9, hi = -1e9, sensor = 0;
	struct dcm_values_frame frame;
	struct joint joints[MAX_JOINTS];
	const struct dcm_tree_subdevice *sd;
	char name[LIBDCM_KEY_NAME_LEN];
	struct dcm_tree *tree = NULL;
	struct dcm_key act, hard;
	unsigned int seconds = 3, cycles = 0, n_joints = 0, me = 0, i, fired = 0;
	unsigned int watchdog_ms = 500;
	struct dcm *dcm;
	int c, r, side = 1;

	while ((c = getopt(argc, argv, "d:j:a:s:w:h")) != -1) {
		switch (c) {
		case 'd': device = optarg; break;
		case 'j': joint = optarg; break;
		case 'a': amplitude = atof(optarg); break;
		case 's': seconds = (unsigned int)atoi(optarg); break;
		case 'w': watchdog_ms = (unsigned int)atoi(optarg); break;
		default:
			fprintf(stderr, "usage: control-loop [-d /dev/dcmN] [-j JOINT] "
				"[-a AMPLITUDE] [-s SECONDS] [-w WATCHDOG_MS]\n");
			return c == 'h' ? 0 : 2;
		}
	}

	r = dcm_open(device, &dcm);
	if (r)
		return fail(device, r);

	/* Every joint's position sensor, and where it sits in a frame. */
	r = dcm_tree_read(dcm, NULL, 0, &tree);
	if (r)
		return fail("reading the description", r);
	for (i = 0; i < dcm_tree_n_subdevices(tree) && n_joints < MAX_JOINTS; i++) {
		sd = dcm_tree_subdevice(tree, i);
		if (strcmp(sd->type, "JointPosition"))
			continue;
		joints[n_joints].name = sd->name;
		joints[n_joints].index = LIBDCM_HANDLE_INDEX(sd->handle);
		if (!strncmp(sd->name, joint, strlen(joint)) && sd->name[strlen(joint)] == '/')
			me = n_joints;
		n_joints++;
	}
	if (!n_joints) {
		fprintf(stderr, "control-loop: no joints in the description\n");
		return 1;
	}
	printf("%u joints read per cycle; commanding %s (kernel ABI %d.x)\n", n_joints, joint,
	       DCM_ABI_MAJOR);

	/* The joint: stiffness on, its actuator's handle. */
	snprintf(name, sizeof(name), "%s/Position/Actuator", joint);
	r = dcm_lookup(dcm, name, &act);
	if (r)
		return fail(name, r);
	snprintf(name, sizeof(name), "%s/Hardness/Actuator", joint);
	r = dcm_lookup(dcm, name, &hard);
	if (!r)
		r = dcm_set_now(dcm, hard.handle, LIBDCM_CLEAR_ALL, 1.0, 0);
	if (r)
		return fail(name, r);

	/* The watchdog: that long without a command or a kick, the joint holds. */
	r = dcm_watchdog_arm(dcm, watchdog_ms, LIBDCM_WATCHDOG_HOLD, 0);
	if (r)
		return fail("arming the watchdog", r);

	memset(&frame, 0, sizeof(frame));
	while (cycles < seconds * 100) {
		struct pollfd p = { .fd = dcm_poll_fd(dcm), .events = POLLIN };

		/* One frame per cycle: poll() says it is there, read() takes it. */
		if (poll(&p, 1, 1000) <= 0) {
			fprintf(stderr, "control-loop: no cycle for a second\n");
			return 1;
		}
		r = dcm_read_frame(dcm, &frame);
		if (r == -EINTR)
			continue;
		if (r)
			return fail("reading a frame", r);
		cycles++;

		sensor = frame.values[joints[me].index];
		if (sensor < lo)
			lo = sensor;
		if (sensor > hi)
			hi = sensor;

		if (cycles % 50 == 1) {
			/* a timed command: reach the other side 400 ms from now */
			struct dcm_timed_point pt = {
				.value = side * amplitude,
				.time = dcm_time_add(frame.time, 400),
			};

			r = dcm_set(dcm, act.handle, LIBDCM_CLEAR_ALL, &pt, 1);
			side = -side;
		} else {
			r = dcm_watchdog_kick(dcm);
		}
		if (r == -ETIMEDOUT) {
			/* this loop was late past the timeout: the joint held */
			fired++;
			fprintf(stderr, "control-loop: cycle %u: the watchdog fired (the loop "
				"was %u ms late); arming it again\n", cycles, watchdog_ms);
			r = dcm_watchdog_arm(dcm, watchdog_ms, LIBDCM_WATCHDOG_HOLD, 0);
		}
		if (r)
			return fail("commanding", r);
		if (cycles % 100 == 0) {
			double sum = 0;

			for (i = 0; i < n_joints; i++)
				sum += frame.values[joints[i].index] *
				       frame.values[joints[i].index];
			printf("t=%u ms cycle %u: %s %+.3f rad (all joints: sum of squares %.3f)\n",
			       frame.time, cycles, joints[me].name, sensor, sum);
			fflush(stdout);
		}
	}

	/*
	 * Leave the joint as found: back to 0 in 300 ms, then soft. Timed
	 * commands outlive the program once the watchdog is disarmed.
	 */
	dcm_watchdog_disarm(dcm);
	{
		struct dcm_timed_point home = { .value = 0, .time = dcm_time_add(frame.time, 300) };
		struct dcm_timed_point soft = { .value = 0, .time = dcm_time_add(frame.time, 400) };

		if (dcm_set(dcm, act.handle, LIBDCM_CLEAR_ALL, &home, 1) ||
		    dcm_set(dcm, hard.handle, LIBDCM_CLEAR_ALL, &soft, 1))
			fprintf(stderr, "control-loop: %s\n", dcm_last_error());
	}
	dcm_values_frame_release(&frame);
	printf("%u cycles; %s moved over %.3f rad (%+.3f to %+.3f); the watchdog fired %u "
	       "times\n", cycles, joints[me].name, hi - lo, lo, hi, fired);
	dcm_tree_free(tree);
	dcm_close(dcm);
	return hi - lo > amplitude / 2 ? 0 : 1;
}
