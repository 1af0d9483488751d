// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcmctl calibrate and dcmctl special: joint calibration and the special
 * commands, through the generic netlink family "dcm" (root only).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json.h"
#include "libdcm.h"
#include "num.h"
#include "cmd.h"
#include "commands.h"
#include "keyname.h"
#include "special.h"

static const struct optdef calibrate_opts[] = {
	{ "force", 'f', 'f', NULL, "skip the checks that the joint is at that stop" },
	{ NULL, 0, 0, NULL, NULL }
};

static const struct dcmctl_optspec dcmctl_spec_calibrate = {
	.cmd = "calibrate", .opts = calibrate_opts,
};

static int parse_calibrate_args(int argc, char **argv, struct dcmctl_calib_args *a, char *err,
				size_t errlen)
{
	unsigned long long z;

	if (argc < 1) {
		snprintf(err, errlen, "calibrate: which joint?");
		return -EINVAL;
	}
	a->joint = argv[0];
	if (argc == 1)
		return 0;
	a->how = dcm_calib_how_from_name(argv[1]);
	if (a->how < 0) {
		snprintf(err, errlen, "calibrate: '%s' is not here, min, max or set", argv[1]);
		return -EINVAL;
	}
	if (a->how != LIBDCM_CALIB_SET) {
		if (argc > 2) {
			snprintf(err, errlen, "calibrate: unexpected argument '%s'", argv[2]);
			return -EINVAL;
		}
		return 0;
	}
	if (argc != 3) {
		snprintf(err, errlen, argc < 3 ? "calibrate: set needs the zero (0-4095)" :
			 "calibrate: unexpected argument '%s'", argc > 3 ? argv[3] : "");
		return -EINVAL;
	}
	if (num_parse_count(argv[2], 0, LIBDCM_MRE_COUNTS - 1, &z)) {
		snprintf(err, errlen, "calibrate: zero '%s' is not a count 0-4095", argv[2]);
		return -EINVAL;
	}
	a->zero = (unsigned int)z;
	return 0;
}

int dcmctl_parse_calibrate(int argc, char **argv, struct dcmctl_calib_args *a, char *err,
			   size_t errlen)
{
	struct dcmctl_getopt g;
	int c, r;

	memset(a, 0, sizeof(*a));
	a->how = LIBDCM_CALIB_HERE;
	if (dcmctl_getopt_init(&g, &dcmctl_spec_calibrate, argc, argv, err, errlen))
		return -ENOMEM;
	while ((c = dcmctl_getopt(&g, err, errlen)) > 0)
		a->force = true;	/* -f, --force */
	r = c < 0 ? -EINVAL : parse_calibrate_args(g.n_args, g.args, a, err, errlen);
	dcmctl_getopt_free(&g);
	return r;
}

void dcmctl_print_calib_text(FILE *f, const struct dcm_calib_result *r)
{
	fprintf(f, "%s: jointZeroPosition %u (was %u)", r->joint, r->zero, r->previous);
	if (r->has_raw)
		fprintf(f, ", MRE count %u", r->raw);
	fprintf(f, ", %s\n", dcm_calib_how_name(r->how) ?: "?");
}

void dcmctl_json_calib(struct json_writer *w, const struct dcm_calib_result *r)
{
	json_string(w, "joint", r->joint);
	json_string(w, "stop", dcm_calib_how_name(r->how) ?: "?");
	json_uint(w, "zero", r->zero);
	json_uint(w, "previous", r->previous);
	if (r->has_raw)
		json_uint(w, "raw", r->raw);
}

void dcmctl_print_special_text(FILE *f, const struct dcm_special_result *r)
{
	size_t i;

	fprintf(f, "%s: %s\n", dcm_special_name(r->command) ?: "?", r->text);
	for (i = 0; i < r->n_boards; i++) {
		const struct dcm_board_info *b = &r->boards[i];

		fprintf(f, "  %-19s %-14s %-10s %3u", b->name, b->type, b->bus, b->address);
		if (b->has_state)
			fprintf(f, "  %-6s ack %" PRIu64 " nack %" PRIu64 " errors %u", b->state,
				b->ack, b->nack, b->errors);
		if (r->command == LIBDCM_SPECIAL_VERSION)
			fprintf(f, "  %s", b->version[0] ? b->version : "(no answer)");
		fputc('\n', f);
	}
}

void dcmctl_json_special(struct json_writer *w, const struct dcm_special_result *r)
{
	size_t i;

	json_string(w, "command", dcm_special_name(r->command) ?: "?");
	json_string(w, "text", r->text);
	json_begin_array(w, "boards");
	for (i = 0; i < r->n_boards; i++) {
		const struct dcm_board_info *b = &r->boards[i];

		json_begin_object(w, NULL);
		json_string(w, "name", b->name);
		json_string(w, "type", b->type);
		json_string(w, "bus", b->bus);
		json_uint(w, "address", b->address);
		if (b->has_state) {
			json_string(w, "state", b->state);
			json_uint(w, "ack", b->ack);
			json_uint(w, "nack", b->nack);
			json_uint(w, "errors", b->errors);
		}
		if (r->command == LIBDCM_SPECIAL_VERSION) {
			if (b->version[0])
				json_string(w, "version", b->version);
			else
				json_null(w, "version");
		}
		json_end_object(w);
	}
	json_end_array(w);
}

/* The controller index of -d, for netlink; prints why not on @err. */
static int nl_index(const struct dcmctl_opts *o, const char *what, FILE *err)
{
	if (o->dev_index < 0) {
		fprintf(err, "dcmctl: %s: cannot tell the controller index from '%s'; use -d dcmN\n",
			what, o->devpath);
		return -EINVAL;
	}
	return 0;
}

/* ------------------------------------------------------------------
 * Is the joint where the calibration says it is?
 */

static double dabs(double v)
{
	return v < 0 ? -v : v;
}

/* A number key of the tree; -1 if there is none. */
static int sysfs_number(const struct dcm_sysfs *s, const char *key, double *v)
{
	char *text = NULL;
	bool integer;
	int r = dcm_sysfs_read(s, key, &text);

	if (!r)
		r = dcmctl_number(text, v, &integer);
	free(text);
	return r ? -1 : 0;
}

/*
 * The stiffness @joint is commanded (@cmd) and the hardness it is sent
 * (@sent): its line of the controller's safety/hardness ("<subdevice>
 * <commanded> <sent>", ABI 1.10). The hardness sent, its Hardness Value, is
 * the commanded one after the stiffness rules: a cycle fault makes it 0
 * and brings it back over 2 s, the battery rule lowers it, an uncalibrated
 * or too hot joint is sent 0; the command is what the joint holds once they
 * let go. A kernel without the file: both are the Value. Return 0, or -1
 * (no hardness for this joint).
 */
static int joint_stiffness(const struct dcm_sysfs *s, const char *joint, double *cmd,
			   double *sent)
{
	char path[PATH_MAX], want[DCMCTL_KEY_LEN], line[512];
	bool integer, found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/safety/hardness", dcm_sysfs_path(s));
	f = fopen(path, "re");
	if (!f) {
		snprintf(want, sizeof(want), "%s/Hardness/Actuator/Value", joint);
		if (sysfs_number(s, want, sent))
			return -1;
		*cmd = *sent;
		return 0;
	}
	snprintf(want, sizeof(want), "%s/Hardness/Actuator", joint);
	while (!found && fgets(line, sizeof(line), f)) {
		char *save = NULL, *name = strtok_r(line, " \n", &save);
		char *c = strtok_r(NULL, " \n", &save), *v = strtok_r(NULL, " \n", &save);

		found = name && c && v && !strcmp(name, want) &&
			!dcmctl_number(c, cmd, &integer) && !dcmctl_number(v, sent, &integer);
	}
	fclose(f);
	return found ? 0 : -1;
}

/*
 * The joint's position sensor over DCMCTL_CALIB_SAMPLES cycles: the last
 * value and how far it moved (max - min). Frames of /dev/dcmN; without
 * them, sysfs read every 20 ms. Return 0 or -1.
 */
static int sample_sensor(const struct dcmctl_opts *o, const struct dcm_sysfs *s,
			 const char *sensor, double *last, double *moved)
{
	struct dcm_values_frame f = { 0 };
	double lo = 0, hi = 0, v = 0;
	struct dcm *dcm = NULL;
	struct dcm_key k;
	int i, r = -1;

	if (!dcm_open(o->devpath, &dcm) && !dcm_lookup(dcm, sensor, &k)) {
		for (i = 0; i <= DCMCTL_CALIB_SAMPLES; i++) {
			if (dcm_read_frame(dcm, &f) ||
			    LIBDCM_HANDLE_INDEX(k.handle) >= f.n_values)
				break;
			v = f.values[LIBDCM_HANDLE_INDEX(k.handle)];
			lo = !i || v < lo ? v : lo;
			hi = !i || v > hi ? v : hi;
		}
		r = i > DCMCTL_CALIB_SAMPLES ? 0 : -1;
	}
	dcm_values_frame_release(&f);
	dcm_close(dcm);
	for (i = 0; r && i <= DCMCTL_CALIB_SAMPLES; i++) {
		if (i)
			usleep(20000);
		if (sysfs_number(s, sensor, &v))
			return -1;
		lo = !i || v < lo ? v : lo;
		hi = !i || v > hi ? v : hi;
	}
	*last = v;
	*moved = hi - lo;
	return 0;
}

int dcmctl_calib_check(const struct dcmctl_opts *o, const struct dcmctl_calib_args *a,
		       FILE *err)
{
	char key[DCMCTL_KEY_LEN], sensor[DCMCTL_KEY_LEN];
	const char *how = dcm_calib_how_name(a->how) ?: "?";
	double hard, sent, zero, stop, pos, moved;
	struct dcm_sysfs *s;
	int refused = 0;

	if (a->how == LIBDCM_CALIB_SET)
		return 0;
	s = dcmctl_open_sysfs(o, err);
	if (!s)
		return -1;
	snprintf(sensor, sizeof(sensor), "%s/Position/Sensor/Value", a->joint);
	if (sysfs_number(s, sensor, &pos)) {
		/* not a joint of this robot: the kernel says so */
		dcm_sysfs_close(s);
		return 0;
	}
	/* The stiffness commanded, not the hardness sent: the rules cut it for a while only. */
	if (!joint_stiffness(s, a->joint, &hard, &sent) && hard > 0) {
		char now[64] = "";

		if (sent != hard)
			snprintf(now, sizeof(now), "; %g sent now, cut by the safety rules", sent);
		fprintf(err, "dcmctl: calibrate %s %s: its stiffness is %g (%s/Hardness/Actuator, as commanded%s): a stiff joint is held where it was commanded; set it to 0 and move the joint by hand (dcmctl set %s/Hardness/Actuator 0)\n",
			a->joint, how, hard, a->joint, now, a->joint);
		refused++;
	}
	if (sample_sensor(o, s, sensor, &pos, &moved)) {
		fprintf(err, "dcmctl: calibrate %s %s: cannot read its sensor\n", a->joint, how);
		refused++;
	} else if (moved > DCMCTL_CALIB_STILL) {
		fprintf(err, "dcmctl: calibrate %s %s: it is moving (%.3f rad over %d cycles, more than %.2f)\n",
			a->joint, how, moved, DCMCTL_CALIB_SAMPLES, DCMCTL_CALIB_STILL);
		refused++;
	}
	snprintf(key, sizeof(key), "%s/Position/Sensor/jointZeroPosition", a->joint);
	/* an uncalibrated joint's sensor tells nothing of where it is */
	if ((a->how == LIBDCM_CALIB_MIN || a->how == LIBDCM_CALIB_MAX) &&
	    !sysfs_number(s, key, &zero) && zero != 0) {
		snprintf(key, sizeof(key), "%s/Position/Sensor/%s", a->joint,
			 a->how == LIBDCM_CALIB_MIN ? "Min" : "Max");
		if (!sysfs_number(s, key, &stop) && dabs(pos - stop) > DCMCTL_CALIB_TOLERANCE) {
			fprintf(err, "dcmctl: calibrate %s %s: its sensor reads %.3f rad, %.3f from its %s (%.3f): not against that stop (tolerance %.2f rad)\n",
				a->joint, how, pos, dabs(pos - stop),
				a->how == LIBDCM_CALIB_MIN ? "Min" : "Max", stop,
				DCMCTL_CALIB_TOLERANCE);
			refused++;
		}
	}
	dcm_sysfs_close(s);
	if (refused)
		fprintf(err, "dcmctl: calibrate %s %s: nothing written; --force calibrates anyway\n",
			a->joint, how);
	return refused ? 1 : 0;
}

/* The command line that puts @r's previous zero back. */
static void undo_line(const struct dcmctl_opts *o, const struct dcm_calib_result *r, char *buf,
		      size_t len)
{
	snprintf(buf, len, "dcmctl%s%s calibrate %s set %u", o->device ? " -d " : "",
		 o->device ? o->device : "", r->joint, r->previous);
}

int dcmctl_calibrate(const struct dcmctl_opts *o, FILE *out, FILE *err)
{
	struct dcmctl_calib_args a;
	struct dcm_calib_result r;
	struct dcm_nl *nl;
	char why[256], undo[DCMCTL_KEY_LEN + 64];
	int ret;

	if (dcmctl_parse_calibrate(o->argc, o->argv, &a, why, sizeof(why))) {
		fprintf(err, "dcmctl: %s\n", why);
		return DCMCTL_EXIT_USAGE;
	}
	if (nl_index(o, "calibrate", err))
		return DCMCTL_EXIT_USAGE;
	if (!a.force && dcmctl_calib_check(o, &a, err))
		return DCMCTL_EXIT_FAIL;
	ret = dcm_nl_open(&nl);
	if (!ret) {
		ret = dcm_nl_calibrate(nl, (unsigned int)o->dev_index, a.joint, a.how, a.zero, &r);
		dcm_nl_close(nl);
	}
	if (ret) {
		fprintf(err, "dcmctl: calibrate %s: %s\n", a.joint, dcm_last_error());
		return DCMCTL_EXIT_FAIL;
	}
	undo_line(o, &r, undo, sizeof(undo));
	if (o->json) {
		struct json_writer w;

		json_init(&w, out, o->pretty);
		json_begin_object(&w, NULL);
		dcmctl_json_calib(&w, &r);
		json_bool(&w, "forced", a.force);
		json_string(&w, "undo", undo);
		json_end_object(&w);
		json_finish(&w);
	} else {
		dcmctl_print_calib_text(out, &r);
		fprintf(out, "undo: %s\n", undo);
	}
	fflush(out);
	return DCMCTL_EXIT_OK;
}

int dcmctl_special(const struct dcmctl_opts *o, FILE *out, FILE *err)
{
	struct dcm_special_result *r;
	struct dcm_nl *nl;
	int cmd, ret, n;

	if (dcmctl_plain_args(o, "special", 1, &n, err))
		return DCMCTL_EXIT_USAGE;
	if (n != 1) {
		fprintf(err, "dcmctl: special: %s\n", n ? "one command only" :
			"which command? reset, version, chain, diagnostic or config");
		return DCMCTL_EXIT_USAGE;
	}
	cmd = dcm_special_from_name(o->argv[0]);
	if (cmd < 0) {
		fprintf(err, "dcmctl: special: '%s' is not reset, version, chain, diagnostic or config\n",
			o->argv[0]);
		return DCMCTL_EXIT_USAGE;
	}
	if (nl_index(o, "special", err))
		return DCMCTL_EXIT_USAGE;
	r = calloc(1, sizeof(*r));
	if (!r) {
		fprintf(err, "dcmctl: out of memory\n");
		return DCMCTL_EXIT_FAIL;
	}
	ret = dcm_nl_open(&nl);
	if (!ret) {
		ret = dcm_nl_special(nl, (unsigned int)o->dev_index, cmd, r);
		dcm_nl_close(nl);
	}
	if (ret) {
		fprintf(err, "dcmctl: special %s: %s\n", o->argv[0], dcm_last_error());
		free(r);
		return DCMCTL_EXIT_FAIL;
	}
	if (o->json) {
		struct json_writer w;

		json_init(&w, out, o->pretty);
		json_begin_object(&w, NULL);
		dcmctl_json_special(&w, r);
		json_end_object(&w);
		json_finish(&w);
	} else {
		dcmctl_print_special_text(out, r);
	}
	fflush(out);
	free(r);
	return DCMCTL_EXIT_OK;
}

const struct dcmctl_command dcmctl_cmd_calibrate = {
	.name = "calibrate",
	.run = dcmctl_calibrate,
	.args = "JOINT [here|min|max|set ZERO] [--force]",
	.help = "calibrate a joint's MRE (root): the joint is at 0 rad (here, the\n"
		"default) or against its stop at Min or Max; or set its\n"
		"jointZeroPosition (0 clears it); kept in the chest board",
	.details = "here, min and max first check that the joint is where they say:\n"
		"its stiffness commanded is 0 (a stiff joint is held where it was\n"
		"commanded; not the hardness sent, which the safety rules cut for a\n"
		"while: safety/hardness in sysfs shows both);\n"
		"it is still (moved less than 0.01 rad over 5 cycles); and for min and\n"
		"max, its sensor is within 0.2 rad of the description's Min (or Max).\n"
		"A failed check is said and nothing is written (exit 1); --force skips\n"
		"the checks. A success prints the command that undoes it\n"
		"(dcmctl calibrate JOINT set PREVIOUS).",
	.spec = &dcmctl_spec_calibrate,
};

const struct dcmctl_command dcmctl_cmd_special = {
	.name = "special",
	.run = dcmctl_special,
	.args = "reset|version|chain|diagnostic|config",
	.help = "special commands: clear counters and chain again; boards' versions;\n"
		"chain the RS485 buses; every board's state (diagnostic: every user);\n"
		"configure the motor boards again (all but diagnostic: root)",
};
