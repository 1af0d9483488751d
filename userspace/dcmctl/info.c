// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcmctl info: what the kernel reports about a controller, through both
 * faces: the character device (DCM_IOC_VERSION + DCM_IOC_INFO) and the
 * generic netlink family (DCM_CMD_GET_INFO for the same index).
 */
#include <errno.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json.h"
#include "libdcm.h"
#include "cmd.h"
#include "commands.h"
#include "info.h"
#include "keyname.h"

static const struct {
	uint32_t bit;
	const char *name;
} info_flags[] = {
	{ LIBDCM_INFO_SIMULATED,  "simulated" },
	{ LIBDCM_INFO_CONFIGURED, "configured" },
	{ LIBDCM_INFO_RUNNING,    "running" },
};

#define N_INFO_FLAGS (sizeof(info_flags) / sizeof(info_flags[0]))

void dcmctl_format_flags(uint32_t flags, char *buf, size_t len)
{
	size_t off = 0, i;

	if (len == 0)
		return;
	buf[0] = '\0';
	for (i = 0; i < N_INFO_FLAGS && off < len; i++) {
		if (!(flags & info_flags[i].bit))
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
					off ? " " : "", info_flags[i].name);
		flags &= ~info_flags[i].bit;
	}
	if (flags && off < len)
		off += (size_t)snprintf(buf + off, len - off, "%s0x%x",
					off ? " " : "", flags);
	if (off == 0)
		snprintf(buf, len, "none");
}

void dcmctl_print_info_text(FILE *f, const struct dcm_info *info)
{
	char flags[128];

	dcmctl_format_flags(info->flags, flags, sizeof(flags));
	fprintf(f, "\tindex: %u\n", info->index);
	fprintf(f, "\tname: %s\n", info->name);
	fprintf(f, "\tdriver: %s\n", info->driver);
	fprintf(f, "\tabi: %u.%u\n", info->abi_major, info->abi_minor);
	fprintf(f, "\tperiod: %u.%03u ms\n", info->period_us / 1000,
		info->period_us % 1000);
	fprintf(f, "\ttime_ms: %u\n", info->time_ms);
	fprintf(f, "\tdevices: %u\n", info->n_devices);
	fprintf(f, "\tsubdevices: %u\n", info->n_subdevices);
	fprintf(f, "\tflags: %s\n", flags);
}

void dcmctl_json_info(struct json_writer *w, const struct dcm_info *info)
{
	uint32_t rest = info->flags;
	size_t i;

	json_uint(w, "index", info->index);
	json_string(w, "name", info->name);
	json_string(w, "driver", info->driver);
	json_begin_object(w, "abi");
	json_uint(w, "major", info->abi_major);
	json_uint(w, "minor", info->abi_minor);
	json_end_object(w);
	json_uint(w, "period_us", info->period_us);
	json_uint(w, "time_ms", info->time_ms);
	json_uint(w, "devices", info->n_devices);
	json_uint(w, "subdevices", info->n_subdevices);
	json_begin_array(w, "flags");
	for (i = 0; i < N_INFO_FLAGS; i++) {
		if (info->flags & info_flags[i].bit)
			json_string(w, NULL, info_flags[i].name);
		rest &= ~info_flags[i].bit;
	}
	json_end_array(w);
	json_uint(w, "flags_raw", info->flags);
	if (rest)
		json_uint(w, "flags_unknown", rest);
}

/* Result of one path. */
struct path_result {
	int err;		/* 0 or -errno */
	char msg[320];		/* error message when err != 0 */
	struct dcm_info info;
	struct dcm_version version;	/* ioctl only */
	int family_id;			/* netlink only */
};

static void query_ioctl(const struct dcmctl_opts *o, struct path_result *r)
{
	struct dcm *dcm;

	r->err = dcm_open(o->devpath, &dcm);
	if (r->err) {
		snprintf(r->msg, sizeof(r->msg), "ioctl %s%s", dcm_last_error(),
			 dcmctl_open_hint(o->devpath, r->err));
		return;
	}
	dcm_abi_version(dcm, &r->version);
	r->err = dcm_get_info(dcm, &r->info);
	if (r->err)
		snprintf(r->msg, sizeof(r->msg), "ioctl %s", dcm_last_error());
	dcm_close(dcm);
}

static void query_netlink(long index, struct path_result *r)
{
	struct dcm_nl *nl;

	if (index < 0) {
		r->err = -EINVAL;
		snprintf(r->msg, sizeof(r->msg),
			 "netlink: cannot tell the controller index (the ioctl path failed and the device name is not dcmN); use -d dcmN");
		return;
	}
	r->err = dcm_nl_open(&nl);
	if (r->err) {
		snprintf(r->msg, sizeof(r->msg), "%s", dcm_last_error());
		return;
	}
	r->family_id = dcm_nl_family_id(nl);
	r->err = dcm_nl_get_info(nl, (unsigned int)index, &r->info);
	if (r->err)
		snprintf(r->msg, sizeof(r->msg), "%s", dcm_last_error());
	dcm_nl_close(nl);
}

/* Both answers as one JSON object, each with its error where it failed. */
static void print_info_json(const struct dcmctl_opts *o, FILE *out,
			    const struct path_result *io, const struct path_result *nl)
{
	struct json_writer w;

	json_init(&w, out, o->pretty);
	json_begin_object(&w, NULL);

	json_begin_object(&w, "ioctl");
	json_string(&w, "device", o->devpath);
	if (io->err) {
		json_string(&w, "error", io->msg);
		json_int(&w, "errno", -io->err);
	} else {
		dcmctl_json_info(&w, &io->info);
	}
	json_end_object(&w);

	json_begin_object(&w, "netlink");
	json_string(&w, "family", "dcm");
	if (nl->err) {
		json_string(&w, "error", nl->msg);
		json_int(&w, "errno", -nl->err);
	} else {
		json_uint(&w, "family_id", (uint64_t)nl->family_id);
		dcmctl_json_info(&w, &nl->info);
	}
	json_end_object(&w);

	json_end_object(&w);
	json_finish(&w);
}

static int run_info(const struct dcmctl_opts *o, FILE *out, FILE *err)
{
	struct path_result io, nl;
	long index;
	int n;

	if (dcmctl_plain_args(o, "info", o->argc, &n, err))
		return DCMCTL_EXIT_USAGE;
	if (n)
		return dcmctl_info_keys(o, n, out, err);

	memset(&io, 0, sizeof(io));
	memset(&nl, 0, sizeof(nl));
	query_ioctl(o, &io);
	index = io.err ? o->dev_index : (long)io.info.index;
	query_netlink(index, &nl);

	if (io.err)
		fprintf(err, "dcmctl: %s\n", io.msg);
	if (nl.err)
		fprintf(err, "dcmctl: %s\n", nl.msg);

	if (o->json) {
		print_info_json(o, out, &io, &nl);
	} else {
		if (!io.err) {
			fprintf(out, "ioctl %s:\n", o->devpath);
			dcmctl_print_info_text(out, &io.info);
		}
		if (!nl.err) {
			fprintf(out, "netlink dcm:\n");
			dcmctl_print_info_text(out, &nl.info);
		}
	}
	fflush(out);

	return (io.err || nl.err) ? DCMCTL_EXIT_FAIL : DCMCTL_EXIT_OK;
}

/* ------------------------------------------------------------------
 * info KEY...
 */

static int regular_only(const struct dirent *e)
{
	return e->d_type == DT_REG || e->d_type == DT_UNKNOWN;
}

static const char *const where_names[] = {
	[DCMCTL_KEY_SUB] = "subdevice",
	[DCMCTL_KEY_DEV] = "device",
	[DCMCTL_KEY_ROBOT] = "robot",
};

/* One key: its owner's keys (the files of its directory) with their values. */
static int info_key(const struct dcm_sysfs *s, const char *typed, struct json_writer *w,
		    bool json, FILE *out, FILE *err)
{
	char rel[DCMCTL_KEY_LEN], dir[DCMCTL_KEY_LEN + 256], key[DCMCTL_KEY_LEN * 2];
	struct dcmctl_keyref k;
	struct dirent **ents;
	int r, i, n;

	if (json) {
		json_begin_object(w, NULL);
		json_string(w, "key", typed);
	}
	r = dcmctl_key_resolve(s, typed, &k);
	if (!r)
		r = dcm_sysfs_key_path(k.owner, rel, sizeof(rel));
	if (r) {
		dcmctl_key_error(s, typed, r, err, json ? w : NULL);
		if (json)
			json_end_object(w);
		return -1;
	}
	snprintf(dir, sizeof(dir), "%s/%s", dcm_sysfs_path(s), rel);
	n = scandir(dir, &ents, regular_only, alphasort);
	if (json) {
		json_string(w, "path", k.path);
		json_string(w, "owner", k.owner);
		json_string(w, "kind", where_names[k.where]);
		json_begin_object(w, "keys");
	} else {
		fprintf(out, "%s: %s %s\n", k.path, where_names[k.where], k.owner);
	}
	for (i = 0; i < n; i++) {
		char *value = NULL;

		snprintf(key, sizeof(key), "%s/%s", k.owner, ents[i]->d_name);
		if (!dcm_sysfs_read(s, key, &value)) {
			if (json) {
				dcmctl_json_value(w, ents[i]->d_name, value);
			} else {
				char *nl;

				while ((nl = strchr(value, '\n')))
					*nl = ';';
				fprintf(out, "\t%s: %s\n", ents[i]->d_name, value);
			}
		}
		free(value);
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
	if (json) {
		json_end_object(w);
		json_end_object(w);
	}
	return 0;
}

int dcmctl_info_keys(const struct dcmctl_opts *o, int n, FILE *out, FILE *err)
{
	struct json_writer w;
	struct dcm_sysfs *s;
	int i, ret = DCMCTL_EXIT_OK;

	s = dcmctl_open_sysfs(o, err);
	if (!s)
		return DCMCTL_EXIT_FAIL;
	if (o->json) {
		json_init(&w, out, o->pretty);
		json_begin_array(&w, NULL);
	}
	for (i = 0; i < n; i++)
		if (info_key(s, o->argv[i], &w, o->json, out, err))
			ret = DCMCTL_EXIT_FAIL;
	if (o->json) {
		json_end_array(&w);
		json_finish(&w);
	}
	dcm_sysfs_close(s);
	fflush(out);
	return ret;
}

const struct dcmctl_command dcmctl_cmd_info = {
	.name = "info",
	.run = run_info,
	.args = "[KEY...]",
	.help = "the controller, through both the ioctl and the netlink path; with\n"
		"KEYs, what each key is: its subdevice or device, and that one's keys\n"
		"and their values",
	.details = "A KEY takes every form get takes.",
};
