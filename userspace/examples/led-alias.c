// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * led-alias: an LED animation through an alias (NAOqi's createAlias and
 * setAlias "time-separate").
 *
 * Names the chest LED's three colours as one alias, then once a second
 * sends the alias the next second of a colour wheel: four points 250 ms
 * apart, one list of times for the three members. The kernel interpolates
 * between the points every cycle; nothing is sent in between.
 *
 *   led-alias [-d /dev/dcmN] [-s SECONDS]
 *
 * Prints what the LEDs were sent, four times a second; exits non-zero on
 * an error or when the LEDs did not change.
 *
 * Build: cc led-alias.c $(pkg-config --cflags --libs libdcm)
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <libdcm.h>

/*
 * The alias is this program's (its open file's): freed when it exits, and
 * no other program's alias of the same name is touched.
 */
#define ALIAS	"led-alias.ChestLeds"
#define POINTS	4

static const char *const members[] = {
	"ChestBoard/Led/Red/Actuator",
	"ChestBoard/Led/Green/Actuator",
	"ChestBoard/Led/Blue/Actuator",
};
#define N_MEMBERS (sizeof(members) / sizeof(members[0]))

static int fail(const char *what, int err)
{
	fprintf(stderr, "led-alias: %s: %s\n", what,
		*dcm_last_error() ? dcm_last_error() : dcm_strerror(err));
	return 1;
}

/* Colour @step of a 12-step wheel: one channel up, one down, at a time. */
static double channel(unsigned int step, unsigned int member)
{
	unsigned int s = (step + 8 * (N_MEMBERS - member)) % 12;

	return s < 4 ? s / 4.0 : s < 6 ? 1.0 : s < 10 ? (10 - s) / 4.0 : 0.0;
}

/*
 * One main() on purpose: an example a user reads top to bottom, the
 * libdcm calls in the order an LED program makes them (open, create the
 * alias, send it once a second, close).
 */
int main(int argc, char **argv)
{
	const char *device = LIBDCM_DEFAULT_DEVICE;
	uint32_t handles[N_MEMBERS], times[POINTS], now;
	double values[N_MEMBERS * POINTS], got[N_MEMBERS], first = -1;
	unsigned int seconds = 3, step = 0, s, p, m, changes = 0;
	struct dcm *dcm;
	int c, r;

	while ((c = getopt(argc, argv, "d:s:h")) != -1) {
		switch (c) {
		case 'd': device = optarg; break;
		case 's': seconds = (unsigned int)atoi(optarg); break;
		default:
			fprintf(stderr, "usage: led-alias [-d /dev/dcmN] [-s SECONDS]\n");
			return c == 'h' ? 0 : 2;
		}
	}
	r = dcm_open(device, &dcm);
	if (r)
		return fail(device, r);

	/* createAlias: a name for the three actuators; 0 for an unknown one */
	r = dcm_alias_create(dcm, ALIAS, members, N_MEMBERS, handles);
	if (r < 0)
		return fail("creating the alias", r);
	if (r != (int)N_MEMBERS) {
		fprintf(stderr, "led-alias: only %d of %zu LEDs exist\n", r, N_MEMBERS);
		return 1;
	}

	for (s = 0; s < seconds; s++) {
		/* setAlias "time-separate": 4 times, a value per member and time */
		r = dcm_time(dcm, 0, &now);
		if (r)
			return fail("dcm_time", r);
		for (p = 0; p < POINTS; p++) {
			times[p] = dcm_time_add(now, 250 * (int32_t)(p + 1));
			for (m = 0; m < N_MEMBERS; m++)
				values[m * POINTS + p] = channel(step + p, m);
		}
		step += POINTS;
		r = dcm_alias_set_separate(dcm, ALIAS, LIBDCM_CLEAR_ALL, times, POINTS, values,
					   N_MEMBERS, 0);
		if (r)
			return fail("setting the alias", r);

		/* what the LEDs were sent, four times in that second */
		for (p = 0; p < POINTS; p++) {
			usleep(250000);
			r = dcm_get(dcm, handles, N_MEMBERS, got, NULL);
			if (r)
				return fail("dcm_get", r);
			printf("red %.3f green %.3f blue %.3f\n", got[0], got[1], got[2]);
			fflush(stdout);
			if (first < 0)
				first = got[0] + 2 * got[1] + 4 * got[2];
			else if (got[0] + 2 * got[1] + 4 * got[2] != first)
				changes++;
		}
	}
	dcm_close(dcm);
	printf("%u readings differed from the first\n", changes);
	return changes ? 0 : 1;
}
