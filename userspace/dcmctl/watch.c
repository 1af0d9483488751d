// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcmctl watch, stats: the cycle as it runs, through read() frames and
 * DCM_IOC_STATS.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dcmctl.h"

/* Look every key up into @handles; print each failure. Return 0 or -1. */
static int lookup_all(struct dcm *dcm, char **keys, size_t n, uint32_t *handles, FILE *err)
{
	struct dcm_key k;
	int r, ret = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		r = dcm_lookup(dcm, keys[i], &k);
		if (r == -ENOENT || r == -ENAMETOOLONG || r == -EINVAL)
			fprintf(err, "dcmctl: %s: no such key\n", keys[i]);
		else if (r)
			fprintf(err, "dcmctl: %s: %s\n", keys[i], dcm_last_error());
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

int dcmctl_watch(const struct dcmctl_opts *o, FILE *out, FILE *err)
{
	struct dcm_values_frame f = { 0 };
	struct dcmctl_watch_args a;
	struct dcm *dcm = NULL;
	uint32_t *handles = NULL;
	uint64_t seen = 0;
	char msg[256];
	size_t i;
	int r, ret = DCMCTL_EXIT_FAIL;

	if (dcmctl_parse_watch(o->argc, o->argv, &a, msg, sizeof(msg))) {
		fprintf(err, "dcmctl: %s\n", msg);
		return DCMCTL_EXIT_USAGE;
	}
	handles = calloc(a.n, sizeof(*handles));
	if (!handles) {
		fprintf(err, "dcmctl: out of memory\n");
		goto out;
	}
	if (dcmctl_open(o, &dcm, err))
		goto out;
	if (lookup_all(dcm, a.keys, a.n, handles, err))
		goto out;
	if (!o->json) {
		fprintf(out, "cycle time");
		for (i = 0; i < a.n; i++)
			fprintf(out, " %s", a.keys[i]);
		fputc('\n', out);
		fflush(out);
	}
	while (!a.cycles || seen < a.cycles) {
		r = dcm_read_frame(dcm, &f);
		if (r == -EINTR)
			continue;
		if (r) {
			fprintf(err, "dcmctl: watch: %s\n", dcm_last_error());
			goto out;
		}
		if (f.generation != LIBDCM_HANDLE_GEN(handles[0])) {
			/* a new description: the same names, new handles */
			if (lookup_all(dcm, a.keys, a.n, handles, err)) {
				fprintf(err, "dcmctl: watch: the description was replaced\n");
				goto out;
			}
			continue;	/* the next frame is of the new one */
		}
		for (i = 0; i < a.n; i++) {
			if (LIBDCM_HANDLE_INDEX(handles[i]) >= f.n_values) {
				fprintf(err, "dcmctl: watch: a frame of %zu values has no %s\n",
					f.n_values, a.keys[i]);
				goto out;
			}
		}
		if (o->json) {
			struct json_writer w;

			json_init(&w, out, o->pretty);
			json_begin_object(&w, NULL);
			json_uint(&w, "cycle", f.cycle);
			json_uint(&w, "time", f.time);
			json_begin_object(&w, "values");
			for (i = 0; i < a.n; i++)
				json_double(&w, a.keys[i], f.values[LIBDCM_HANDLE_INDEX(handles[i])]);
			json_end_object(&w);
			json_end_object(&w);
			json_finish(&w);
		} else {
			fprintf(out, "%" PRIu64 " %u", f.cycle, f.time);
			for (i = 0; i < a.n; i++)
				fprintf(out, " %.6f", f.values[LIBDCM_HANDLE_INDEX(handles[i])]);
			fputc('\n', out);
		}
		fflush(out);	/* one line per cycle, also into a pipe */
		seen++;
	}
	ret = DCMCTL_EXIT_OK;
out:
	dcm_values_frame_release(&f);
	dcm_close(dcm);
	free(handles);
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

int dcmctl_stats(const struct dcmctl_opts *o, FILE *out, FILE *err)
{
	struct dcm_stats st;
	struct dcm_info info;
	struct dcm *dcm;
	int ret = DCMCTL_EXIT_FAIL;

	if (o->argc > 0) {
		fprintf(err, "dcmctl: stats: unexpected argument '%s'\n", o->argv[0]);
		return DCMCTL_EXIT_USAGE;
	}
	if (dcmctl_open(o, &dcm, err))
		return DCMCTL_EXIT_FAIL;
	if (dcm_stats(dcm, &st)) {
		fprintf(err, "dcmctl: %s\n", dcm_last_error());
		goto out;
	}
	if (dcm_get_info(dcm, &info))
		info.period_us = 0;
	if (o->json) {
		struct json_writer w;

		json_init(&w, out, o->pretty);
		json_begin_object(&w, NULL);
		dcmctl_json_stats(&w, &st, info.period_us);
		json_end_object(&w);
		json_finish(&w);
	} else {
		dcmctl_print_stats_text(out, &st, info.period_us);
	}
	ret = DCMCTL_EXIT_OK;
out:
	dcm_close(dcm);
	fflush(out);
	return ret;
}

int dcmctl_cmd_watch(const struct dcmctl_opts *o)
{
	return dcmctl_watch(o, stdout, stderr);
}

int dcmctl_cmd_stats(const struct dcmctl_opts *o)
{
	return dcmctl_stats(o, stdout, stderr);
}
