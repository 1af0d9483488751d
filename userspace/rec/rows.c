// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The rows and the events of a recording: dcmctl record's CSV and JSON
 * lines, dcm-flight's whole frames, and an event as JSON (dcmctl events
 * -j, dcm-flight's files).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <linux/dcm.h>

#include "rows.h"

void rec_keys_free(struct rec_keys *k)
{
	free(k->names);
	free(k->handles);
	memset(k, 0, sizeof(*k));
}

int rec_keys_add(struct rec_keys *k, const struct dcm_tree_subdevice *sd)
{
	const char **names;
	uint32_t *handles;
	size_t i;

	for (i = 0; i < k->n; i++)
		if (k->handles[i] == sd->handle)
			return 0;	/* named twice, or by two globs: one column */
	names = realloc(k->names, (k->n + 1) * sizeof(*names));
	if (!names)
		return -ENOMEM;
	k->names = names;
	handles = realloc(k->handles, (k->n + 1) * sizeof(*handles));
	if (!handles)
		return -ENOMEM;
	k->handles = handles;
	k->names[k->n] = sd->name;
	k->handles[k->n] = sd->handle;
	k->n++;
	return 0;
}

void rec_write_header(FILE *f, int fmt, const struct rec_keys *k)
{
	size_t i;

	if (fmt != REC_CSV)
		return;	/* JSON lines: none; MCAP: rec_mcap_start() */
	fputs("cycle,time,wall,missed", f);
	for (i = 0; i < k->n; i++)
		fprintf(f, ",%s", k->names[i]);
	fputc('\n', f);
}

void rec_write_row(FILE *f, int fmt, const struct rec_keys *k, uint64_t cycle, uint32_t time,
		   double wall, uint64_t missed, const double *values)
{
	struct json_writer w;
	size_t i;

	if (fmt == REC_CSV) {
		fprintf(f, "%" PRIu64 ",%u,%.6f,%" PRIu64, cycle, time, wall, missed);
		for (i = 0; i < k->n; i++)
			fprintf(f, ",%.9g", values[LIBDCM_HANDLE_INDEX(k->handles[i])]);
		fputc('\n', f);
		return;
	}
	json_init(&w, f, false);
	json_begin_object(&w, NULL);
	json_uint(&w, "cycle", cycle);
	json_uint(&w, "time", time);
	json_double(&w, "wall", wall);
	json_uint(&w, "missed", missed);
	json_begin_object(&w, "values");
	for (i = 0; i < k->n; i++)
		json_double(&w, k->names[i], values[LIBDCM_HANDLE_INDEX(k->handles[i])]);
	json_end_object(&w);
	json_end_object(&w);
	json_finish(&w);
}

void rec_write_frame(FILE *f, uint64_t cycle, uint32_t time, double wall, uint64_t missed,
		     const double *values, size_t n)
{
	size_t j;

	fprintf(f, "{\"cycle\":%" PRIu64 ",\"time\":%u,\"wall\":%.6f,\"missed\":%" PRIu64
		",\"values\":[", cycle, time, wall, missed);
	for (j = 0; j < n; j++)
		fprintf(f, "%s%.9g", j ? "," : "", isfinite(values[j]) ? values[j] : 0.0);
	fputs("]}\n", f);
}

void rec_json_event(struct json_writer *w, const char *key, const struct dcm_event_msg *e)
{
	const char *rule;

	json_begin_object(w, key);
	json_uint(w, "index", e->index);
	json_string(w, "type", dcm_event_type_name(e->type) ? dcm_event_type_name(e->type) :
		    "unknown");
	json_uint(w, "time", e->time_ms);
	if (e->device[0])
		json_string(w, "device", e->device);
	if (e->type == DCM_EV_ERROR)
		json_uint(w, "level", e->level);
	rule = e->type == DCM_EV_SAFETY ? dcm_safety_rule_name(e->code) : NULL;
	if (rule)
		json_string(w, "rule", rule);
	json_uint(w, "code", e->code);
	json_int(w, "value", e->value);
	json_uint(w, "count", e->count);
	json_uint(w, "lost", e->lost);
	json_string(w, "text", e->text);
}
