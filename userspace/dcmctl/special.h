/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcmctl calibrate and special (special.c), through netlink.
 */
#ifndef DCMCTL_SPECIAL_H
#define DCMCTL_SPECIAL_H

#include <stdbool.h>
#include <stdio.h>

#include "cmd.h"
#include "json.h"
#include "libdcm.h"

/* dcmctl calibrate JOINT [here|min|max|set ZERO] */
struct dcmctl_calib_args {
	const char *joint;		/* into argv */
	int how;			/* enum dcm_calib_how, default here */
	unsigned int zero;		/* set */
	bool force;			/* --force: no plausibility checks */
};

/* Parse calibrate's arguments. Return: 0, or -EINVAL with @err set. */
int dcmctl_parse_calibrate(int argc, char **argv, struct dcmctl_calib_args *a, char *err,
			   size_t errlen);

/*
 * calibrate's plausibility checks (not for set; --force skips them): the
 * joint is soft, still (it moved at most DCMCTL_CALIB_STILL rad over
 * DCMCTL_CALIB_SAMPLES cycles) and, for min and max of a calibrated joint,
 * its sensor is within DCMCTL_CALIB_TOLERANCE rad of its Position/Sensor's
 * Min or Max. Each failure is said on @err. Return 0 (go on), 1 (refused),
 * -1 (the tree cannot be read: said on @err).
 */
#define DCMCTL_CALIB_TOLERANCE	0.2	/* rad */
#define DCMCTL_CALIB_STILL	0.01	/* rad */
#define DCMCTL_CALIB_SAMPLES	5	/* cycles */
int dcmctl_calib_check(const struct dcmctl_opts *o, const struct dcmctl_calib_args *a,
		       FILE *err);

int dcmctl_calibrate(const struct dcmctl_opts *o, FILE *out, FILE *err);
int dcmctl_special(const struct dcmctl_opts *o, FILE *out, FILE *err);

/* Output of the answers (exposed for the unit tests). */
void dcmctl_print_calib_text(FILE *f, const struct dcm_calib_result *r);
void dcmctl_json_calib(struct json_writer *w, const struct dcm_calib_result *r);
void dcmctl_print_special_text(FILE *f, const struct dcm_special_result *r);
void dcmctl_json_special(struct json_writer *w, const struct dcm_special_result *r);

#endif /* DCMCTL_SPECIAL_H */
