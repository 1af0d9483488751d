// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcm-lola: the controller's frames and the sensor map made of them. Every
 * element of LoLA's sensor arrays is one index of the cycle's frame: a
 * subdevice's Value, or a live key (the joints' Temperature/Sensor/Status,
 * the battery's status word), which the frames carry after the values
 * (dcm_frame_keys()). RobotConfig's strings come from the description once
 * per description.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lola_daemon.h"

int lola_feed_init(struct lola_feed *f, struct dcm *dcm, struct dcm_sysfs *sys,
		   size_t n_values)
{
	int ret;

	f->dcm = dcm;
	f->sys = sys;
	ret = dcm_frame_keys(dcm, true);
	if (ret) {
		lola_logmsg("frames with the live keys (the Status words): %s",
			    dcm_last_error());
		return ret;
	}
	f->capacity = n_values;
	f->values = calloc(f->capacity, sizeof(double));
	if (!f->values)
		return -ENOMEM;
	return 0;
}

void lola_feed_free(struct lola_feed *f)
{
	free(f->values);
	f->values = NULL;
	f->capacity = 0;
}

int lola_feed_read(struct lola_feed *f)
{
	int ret;

	for (;;) {
		f->frame.values = f->values;
		f->frame.capacity = f->capacity;
		ret = dcm_read_frame(f->dcm, &f->frame);
		if (ret != -EMSGSIZE)
			return ret;
		free(f->values);
		f->capacity = f->frame.n_values + 64;
		f->values = calloc(f->capacity, sizeof(double));
		if (!f->values) {
			f->capacity = 0;
			return -ENOMEM;
		}
	}
}

/* A string of the tree into @out ("" if it cannot be read). */
static void read_key_str(struct dcm_sysfs *sys, const char *const *keys, char *out, size_t len)
{
	char *v = NULL;

	out[0] = 0;
	for (; *keys; keys++) {
		if (dcm_sysfs_read(sys, *keys, &v) == 0) {
			snprintf(out, len, "%s", v);
			free(v);
			return;
		}
	}
}

/*
 * RobotConfig[@idx]'s version: the option's if given, else the description's
 * @key when it is one as LoLA sends it ("6.0.0"). Nothing is made up from
 * another key: without either it is "0.0.0", and the log says why.
 */
static void robot_version(struct dcm_sysfs *sys, const char *key, const char *opt,
			  const char *optname, unsigned int idx, char *out, size_t len)
{
	const char *const keys[] = { key, NULL };

	if (opt) {
		snprintf(out, len, "%s", opt);
		return;
	}
	read_key_str(sys, keys, out, len);
	if (lola_version_valid(out))
		return;
	if (out[0])
		lola_logmsg("%s \"%s\" is not a version as LoLA sends it (N.N.N): "
			    "RobotConfig[%u] is 0.0.0 (%s sets it)", key, out, idx, optname);
	else
		lola_logmsg("no %s in the description: RobotConfig[%u] is 0.0.0 (%s sets it)",
			    key, idx, optname);
	snprintf(out, len, "0.0.0");
}

void lola_feed_map(struct lola_feed *f, const struct lola_opts *opt)
{
	static const char *const body_id[] = { "Device/DeviceList/ChestBoard/BodyId",
					       "RobotConfig/Body/BodyId", NULL };
	static const char *const head_id[] = { "RobotConfig/Head/FullHeadId",
					       "Device/DeviceList/HeadBoard/FullHeadId", NULL };
	unsigned int fld, i, missing = 0;
	struct dcm_key key;
	char name[128];

	for (fld = 0; fld < LOLA_S_FIELDS; fld++) {
		for (i = 0; i < LOLA_JOINTS; i++) {
			enum lola_src src = lola_sensor_key(fld, i, name, sizeof(name));

			f->src_index[fld][i] = -1;
			if (src == LOLA_SRC_NONE)
				continue;
			if (dcm_lookup(f->dcm, name, &key) == 0)
				f->src_index[fld][i] = (int32_t)LIBDCM_HANDLE_INDEX(key.handle);
			else if (missing++ < 5)
				lola_logmsg("no %s%s: %s[%u] is 0", src == LOLA_SRC_KEY ? "key " : "",
					    name, lola_sensor_fields[fld].name, i);
		}
	}
	if (missing > 5)
		lola_logmsg("%u sensor elements have no key (5 shown)", missing);
	read_key_str(f->sys, body_id, f->s.body_id, sizeof(f->s.body_id));
	read_key_str(f->sys, head_id, f->s.head_id, sizeof(f->s.head_id));
	robot_version(f->sys, "RobotConfig/Body/Version", opt->body_version, "--body-version", 1,
		      f->s.body_version, sizeof(f->s.body_version));
	robot_version(f->sys, "RobotConfig/Head/Version", opt->head_version, "--head-version", 3,
		      f->s.head_version, sizeof(f->s.head_version));
	f->gen = f->frame.generation;
	f->mapped = true;
}

int lola_feed_encode(struct lola_feed *f)
{
	unsigned int fld, i;

	for (fld = 0; fld < LOLA_S_FIELDS; fld++) {
		float *a = lola_sensor_array(&f->s, fld);

		for (i = 0; i < lola_sensor_fields[fld].n && i < LOLA_JOINTS; i++) {
			int32_t k = f->src_index[fld][i];
			double v;

			if (k < 0 || (!a && fld != LOLA_S_STATUS))
				continue;
			v = (size_t)k < f->frame.n_values ? f->values[k] : 0;
			if (a)
				a[i] = (float)v;
			else
				f->s.status[i] = v < 0 ? 0 : v > 127 ? 127 : (uint8_t)v;
		}
	}
	if (lola_encode_sensors(&f->s, f->pkt) != LOLA_SENSOR_SIZE) {
		lola_logmsg("internal error: the sensor map is not %d bytes", LOLA_SENSOR_SIZE);
		return -1;
	}
	return 0;
}
