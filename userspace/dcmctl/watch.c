// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcmctl watch, stats: the cycle as it runs, through read() frames (by
 * the frame loop record uses too, frames.c), DCM_IOC_STATS and
 * DCM_IOC_CYCLE_STATS.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/dcm.h>

#include "json.h"
#include "libdcm.h"
#include "cmd.h"
#include "commands.h"
#include "frames.h"
#include "keyname.h"
#include "parse.h"
#include "watch.h"

/*
 * Look every key up into @handles; a key that is no subdevice's Value (a
 * device's, a configuration key) gets handle 0 and its path in @paths: it
 * is read from sysfs each cycle. Print each failure. Return 0 or -1.
 */
static int lookup_all(struct dcm *dcm, const struct dcm_sysfs *s, char **keys, size_t n,
		      uint32_t *handles, char (*paths)[DCMCTL_KEY_LEN], FILE *err)
{
	struct dcmctl_keyref kr;
	struct dcm_key k;
	int r, ret = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		handles[i] = 0;
		r = dcm_lookup(dcm, keys[i], &k);
		if (r == -ENOENT || r == -ENAMETOOLONG || r == -EINVAL) {
			int e = s ? dcmctl_key_resolve(s, keys[i], &kr) : -ENOENT;

			if (!e) {
				snprintf(paths[i], DCMCTL_KEY_LEN, "%s", kr.path);
				continue;
			}
			dcmctl_key_error(s, keys[i], -ENOENT, err, NULL);
		} else if (r) {
			fprintf(err, "dcmctl: %s: %s\n", keys[i], dcm_last_error());
		}
		if (r)
			ret = -1;
		else
			handles[i] = k.handle;
		/* A live key (a status word, a sonar echo): frames must carry it. */
		if (!r && (k.flags & LIBDCM_KEY_LIVE) && dcm_frame_keys(dcm, true)) {
			fprintf(err, "dcmctl: %s: %s\n", keys[i], dcm_last_error());
			ret = -1;
		}
	}
	return ret;
}

/* What watch's remap needs: the keys, where they are looked up. */
struct watch_remap {
	struct dcm *dcm;
	const struct dcm_sysfs *s;
	char **keys;
	size_t n;
	uint32_t *handles;
	char (*paths)[DCMCTL_KEY_LEN];
	FILE *err;
};

/* A new description: the same names looked up again. */
static int watch_remap(void *ctx)
{
	struct watch_remap *w = ctx;

	return lookup_all(w->dcm, w->s, w->keys, w->n, w->handles, w->paths, w->err);
}

/* A sysfs key's value now: a number, or NAN (text: @text). */
static char *sysfs_value(const struct dcm_sysfs *s, const char *path)
{
	char *v = NULL, *nl;

	if (dcm_sysfs_read(s, path, &v))
		return strdup("");
	while ((nl = strchr(v, '\n')))
		*nl = ';';
	return v;
}

/*
 * One cycle's row as a JSON object: a key with a handle has its value in
 * the frame @v, one without (a sysfs-only key) is read from sysfs now.
 */
static void print_row_json(FILE *out, bool pretty, const struct watch_remap *wr,
			   const struct rec_ring_slot *m, const double *v)
{
	struct json_writer w;

	json_init(&w, out, pretty);
	json_begin_object(&w, NULL);
	json_uint(&w, "cycle", m->cycle);
	json_uint(&w, "time", m->time);
	json_begin_object(&w, "values");
	for (size_t i = 0; i < wr->n; i++) {
		char *txt;

		if (wr->handles[i]) {
			json_double(&w, wr->keys[i], v[LIBDCM_HANDLE_INDEX(wr->handles[i])]);
			continue;
		}
		txt = sysfs_value(wr->s, wr->paths[i]);
		dcmctl_json_value(&w, wr->keys[i], txt ? txt : "");
		free(txt);
	}
	json_end_object(&w);
	json_end_object(&w);
	json_finish(&w);
}

/* The same row as a text line, "-" for a sysfs key with no value. */
static void print_row_text(FILE *out, const struct watch_remap *wr,
			   const struct rec_ring_slot *m, const double *v)
{
	fprintf(out, "%" PRIu64 " %u", m->cycle, m->time);
	for (size_t i = 0; i < wr->n; i++) {
		char *txt;

		if (wr->handles[i]) {
			fprintf(out, " %.6f", v[LIBDCM_HANDLE_INDEX(wr->handles[i])]);
			continue;
		}
		txt = sysfs_value(wr->s, wr->paths[i]);
		fprintf(out, " %s", txt && *txt ? txt : "-");
		free(txt);
	}
	fputc('\n', out);
}

/*
 * The header line, then one row a cycle until @cycles rows are out (0:
 * until interrupted). 0 when all are out, -1 when the ring failed.
 */
static int watch_cycles(const struct dcmctl_opts *o, uint64_t cycles,
			struct watch_remap *wr, struct rec_frame_keys *fk,
			FILE *out, FILE *err)
{
	struct rec_ring ring = { 0 };
	uint64_t seen = 0;
	int r, ret = -1;

	if (!o->json) {
		fprintf(out, "cycle time");
		for (size_t i = 0; i < wr->n; i++)
			fprintf(out, " %s", wr->keys[i]);
		fputc('\n', out);
		fflush(out);
	}
	/* a frame read when the row before is out */
	rec_ring_direct(&ring, wr->dcm);
	while (!cycles || seen < cycles) {
		struct rec_ring_slot m;
		const double *v;

		r = rec_ring_next(&ring, 200, fk, &m, &v, err);
		if (!r)
			continue;
		if (r < 0)
			goto out;
		if (o->json)
			print_row_json(out, o->pretty, wr, &m, v);
		else
			print_row_text(out, wr, &m, v);
		rec_ring_release(&ring);
		fflush(out);	/* one line per cycle, also into a pipe */
		seen++;
	}
	ret = 0;
out:
	rec_ring_stop(&ring);
	return ret;
}

int dcmctl_watch(const struct dcmctl_opts *o, FILE *out, FILE *err)
{
	struct watch_remap wr = { .err = err };
	struct rec_frame_keys fk = { .cmd = "watch", .remap = watch_remap, .ctx = &wr };
	struct dcmctl_watch_args a;
	struct dcm_sysfs *s = NULL;
	struct dcm *dcm = NULL;
	uint32_t *handles = NULL;
	char (*paths)[DCMCTL_KEY_LEN] = NULL;
	char **names = NULL;
	size_t n_names = 0;
	char msg[256];
	int ret = DCMCTL_EXIT_FAIL;

	if (dcmctl_parse_watch(o->argc, o->argv, &a, msg, sizeof(msg))) {
		fprintf(err, "dcmctl: %s\n", msg);
		return DCMCTL_EXIT_USAGE;
	}
	if (o->dev_index >= 0 && dcm_sysfs_open(o->root, (unsigned int)o->dev_index, &s))
		s = NULL;
	if (dcmctl_expand_globs(s, a.keys, a.n, &names, &n_names, err))
		goto out;
	if (n_names > LIBDCM_MAX_SUBDEVICES) {
		fprintf(err, "dcmctl: watch: %zu keys, at most %d\n", n_names, LIBDCM_MAX_SUBDEVICES);
		goto out;
	}
	/* a.keys points into argv: the expanded names take their place */
	free(a.keys);
	a.keys = names;
	a.n = n_names;
	handles = calloc(a.n, sizeof(*handles));
	paths = calloc(a.n, sizeof(*paths));
	if (!handles || !paths) {
		fprintf(err, "dcmctl: out of memory\n");
		goto out;
	}
	if (dcmctl_open(o, &dcm, err))
		goto out;
	if (lookup_all(dcm, s, a.keys, a.n, handles, paths, err))
		goto out;
	wr = (struct watch_remap){ .dcm = dcm, .s = s, .keys = a.keys, .n = a.n,
				   .handles = handles, .paths = paths, .err = err };
	fk.n = a.n;
	fk.handles = handles;
	fk.names = (const char *const *)a.keys;
	if (!watch_cycles(o, a.cycles, &wr, &fk, out, err))
		ret = DCMCTL_EXIT_OK;
out:
	dcm_close(dcm);
	dcm_sysfs_close(s);
	free(handles);
	free(paths);
	if (a.keys == names) {
		dcm_sysfs_strv_free(names, n_names);
		a.keys = NULL;
	}
	dcmctl_watch_args_free(&a);
	fflush(out);
	return ret;
}

/* ------------------------------------------------------------------
 * stats
 */

static const char *const bucket_names[LIBDCM_LATENCY_BUCKETS] = {
	"< 10 us", "< 20 us", "< 50 us", "< 100 us", "< 200 us",
	"< 500 us", "< 1 ms", "< 2 ms", "< 5 ms", ">= 5 ms",
};

void dcmctl_print_stats_text(FILE *f, const struct dcm_stats *st, uint32_t period_us)
{
	unsigned int i;

	fprintf(f, "cycles: %" PRIu64 "\n", st->cycles);
	fprintf(f, "overruns: %" PRIu64 "\n", st->overruns);
	if (period_us)
		fprintf(f, "period: %u.%03u ms\n", period_us / 1000, period_us % 1000);
	fprintf(f, "work: last %.1f us, mean %.1f us, max %.1f us\n", st->last_ns / 1e3,
		st->mean_ns / 1e3, st->max_ns / 1e3);
	fprintf(f, "wake-up latency: max %.1f us\n", st->latency_max_ns / 1e3);
	fprintf(f, "latency histogram:\n");
	for (i = 0; i < LIBDCM_LATENCY_BUCKETS; i++)
		fprintf(f, "\t%9s: %" PRIu64 "\n", bucket_names[i], st->latency_hist[i]);
}

void dcmctl_json_stats(struct json_writer *w, const struct dcm_stats *st, uint32_t period_us)
{
	unsigned int i;

	json_uint(w, "cycles", st->cycles);
	json_uint(w, "overruns", st->overruns);
	if (period_us)
		json_uint(w, "period_us", period_us);
	json_uint(w, "last_ns", st->last_ns);
	json_uint(w, "mean_ns", st->mean_ns);
	json_uint(w, "max_ns", st->max_ns);
	json_uint(w, "latency_max_ns", st->latency_max_ns);
	json_begin_array(w, "latency_histogram");
	for (i = 0; i < LIBDCM_LATENCY_BUCKETS; i++) {
		uint64_t below = dcm_latency_bucket_ns(i);

		json_begin_object(w, NULL);
		if (below == UINT64_MAX)
			json_null(w, "below_ns");
		else
			json_uint(w, "below_ns", below);
		json_uint(w, "count", st->latency_hist[i]);
		json_end_object(w);
	}
	json_end_array(w);
}

/*
 * What DCM_IOC_CYCLE_STATS adds (ABI 1.5): missed periods, work overruns,
 * late buses, percentiles, the priority and CPUs. Nothing from an older
 * kernel.
 */
static void stats_cycle(struct dcm *dcm, struct json_writer *w, FILE *out)
{
	struct dcm_ioc_cycle_stats cs;
	static const char *const pct[DCM_PCT_COUNT] = { "p50", "p99", "p99_9", "max" };
	unsigned int i;

	memset(&cs, 0, sizeof(cs));
	if (ioctl(dcm_fd(dcm), DCM_IOC_CYCLE_STATS, &cs))
		return;
	if (!w) {
		fprintf(out, "missed: %" PRIu64 "\n", (uint64_t)cs.missed);
		fprintf(out, "work overruns: %" PRIu64 "\n", (uint64_t)cs.work_overruns);
		fprintf(out, "late buses: %" PRIu64 ", busy %" PRIu64 ", unready %" PRIu64
			", absent %" PRIu64 "\n", (uint64_t)cs.late_buses, (uint64_t)cs.busy_buses,
			(uint64_t)cs.unready_buses, (uint64_t)cs.absent_buses);
		fprintf(out, "bus requests: %" PRIu64 " carried, %" PRIu64 " deferred\n",
			(uint64_t)cs.bus_requests, (uint64_t)cs.deferred_requests);
		fprintf(out, "wake-up latency: p50 %.1f us, p99 %.1f us, p99.9 %.1f us\n",
			cs.latency_ns[DCM_PCT_50] / 1e3, cs.latency_ns[DCM_PCT_99] / 1e3,
			cs.latency_ns[DCM_PCT_999] / 1e3);
		fprintf(out, "work: p50 %.1f us, p99 %.1f us, p99.9 %.1f us\n",
			cs.work_ns[DCM_PCT_50] / 1e3, cs.work_ns[DCM_PCT_99] / 1e3,
			cs.work_ns[DCM_PCT_999] / 1e3);
		fprintf(out, "priority: SCHED_FIFO %u, cpus 0x%" PRIx64 "\n", cs.priority,
			(uint64_t)cs.cpus);
		return;
	}
	json_uint(w, "missed", cs.missed);
	json_uint(w, "work_overruns", cs.work_overruns);
	json_uint(w, "late_buses", cs.late_buses);
	json_uint(w, "busy_buses", cs.busy_buses);
	json_uint(w, "unready_buses", cs.unready_buses);
	json_uint(w, "absent_buses", cs.absent_buses);
	json_uint(w, "bus_requests", cs.bus_requests);
	json_uint(w, "deferred_requests", cs.deferred_requests);
	json_begin_object(w, "latency_ns");
	for (i = 0; i < DCM_PCT_COUNT; i++)
		json_uint(w, pct[i], cs.latency_ns[i]);
	json_end_object(w);
	json_begin_object(w, "work_ns");
	for (i = 0; i < DCM_PCT_COUNT; i++)
		json_uint(w, pct[i], cs.work_ns[i]);
	json_end_object(w);
	json_uint(w, "priority", cs.priority);
	json_uint(w, "cpus", cs.cpus);
}

/*
 * The controller's events counted by type (its sysfs file "events"): how
 * many it posted, how many of them the events group did not get. Nothing
 * for an older kernel.
 */
static void stats_events(const struct dcmctl_opts *o, unsigned int index, struct json_writer *w,
			 FILE *out)
{
	struct dcm_event_count c[32];
	uint64_t posted[2] = { 0, 0 }, dropped = 0;
	struct dcm_sysfs *s;
	int i, n;

	if (dcm_sysfs_open(o->root, index, &s))
		return;
	n = dcm_sysfs_event_counts(s, c, sizeof(c) / sizeof(c[0]));
	dcm_sysfs_close(s);
	if (n <= 0)
		return;
	if (w) {
		json_begin_object(w, "events");
		for (i = 0; i < n; i++) {
			json_begin_object(w, c[i].type);
			json_string(w, "class", c[i].safety ? "safety" : "info");
			json_uint(w, "posted", c[i].posted);
			json_uint(w, "dropped", c[i].dropped);
			json_end_object(w);
		}
		json_end_object(w);
		return;
	}
	for (i = 0; i < n; i++) {
		posted[c[i].safety] += c[i].posted;
		dropped += c[i].dropped;
	}
	fprintf(out, "events: %" PRIu64 " safety, %" PRIu64 " informational, %" PRIu64
		" not sent to the events group", posted[1], posted[0], dropped);
	for (i = 0; i < n; i++)
		if (c[i].dropped)
			fprintf(out, "%s %s %" PRIu64, i ? "," : ":", c[i].type, c[i].dropped);
	fputc('\n', out);
}

int dcmctl_stats(const struct dcmctl_opts *o, FILE *out, FILE *err)
{
	struct dcm_stats st;
	struct dcm_info info;
	struct dcm *dcm;
	int n, ret = DCMCTL_EXIT_FAIL;

	if (dcmctl_plain_args(o, "stats", 0, &n, err))
		return DCMCTL_EXIT_USAGE;
	if (dcmctl_open(o, &dcm, err))
		return DCMCTL_EXIT_FAIL;
	if (dcm_stats(dcm, &st)) {
		fprintf(err, "dcmctl: %s\n", dcm_last_error());
		goto out;
	}
	if (dcm_get_info(dcm, &info)) {
		info.period_us = 0;
		info.index = o->dev_index >= 0 ? (unsigned int)o->dev_index : 0;
	}
	if (o->json) {
		struct json_writer w;

		json_init(&w, out, o->pretty);
		json_begin_object(&w, NULL);
		dcmctl_json_stats(&w, &st, info.period_us);
		stats_cycle(dcm, &w, out);
		stats_events(o, info.index, &w, out);
		json_end_object(&w);
		json_finish(&w);
	} else {
		dcmctl_print_stats_text(out, &st, info.period_us);
		stats_cycle(dcm, NULL, out);
		stats_events(o, info.index, NULL, out);
	}
	ret = DCMCTL_EXIT_OK;
out:
	dcm_close(dcm);
	fflush(out);
	return ret;
}

const struct dcmctl_command dcmctl_cmd_watch = {
	.name = "watch",
	.run = dcmctl_watch,
	.args = "KEY... [--cycles N]",
	.help = "one line per cycle (read() frames): cycle, DCM time, each value",
	.details = "KEY takes every form get takes, globs too ('*/Position/Sensor'); a\n"
		"key that is no subdevice's value (a device's, a configuration key) is\n"
		"read from sysfs each cycle.",
	.spec = &dcmctl_spec_watch,
};

const struct dcmctl_command dcmctl_cmd_stats = {
	.name = "stats",
	.run = dcmctl_stats,
	.args = "",
	.help = "the cycle's timing: cycles, overruns, work time, wake-up latency\n"
		"histogram",
};
