// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The events dcm-flight keeps, for its files: the safety ones in a ring of
 * their own, so that a flood of others cannot push them out before a
 * dump; and the triggers among them (a safety rule starting, a
 * temperature status rising, a fall), which make a dump due.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <linux/dcm.h>

#include "flight.h"
#include "json.h"
#include "rows.h"

#define FLIGHT_EVENTS		1024	/* the others */
#define FLIGHT_SAFETY_EVENTS	256

int flight_events_alloc(struct flight_state *st)
{
	st->safety.slots = FLIGHT_SAFETY_EVENTS;
	st->safety.ev = calloc(st->safety.slots, sizeof(*st->safety.ev));
	st->other.slots = FLIGHT_EVENTS;
	st->other.ev = calloc(st->other.slots, sizeof(*st->other.ev));
	return st->safety.ev && st->other.ev ? 0 : -ENOMEM;
}

void flight_events_free(struct flight_state *st)
{
	free(st->safety.ev);
	free(st->other.ev);
	st->safety.ev = NULL;
	st->other.ev = NULL;
}

static void keep_event(struct flight_state *st, const struct dcm_nl_event *ev,
		       const struct dcm_event_msg *e)
{
	struct flight_event_ring *r = dcm_event_type_safety(e->type) ? &st->safety : &st->other;
	struct flight_kept_event *k;

	if (!r->ev)
		return;
	k = &r->ev[r->n++ % r->slots];
	k->order = st->order++;
	k->has_seq = !dcm_nl_event_seq(ev->nlh, &k->seq);
	k->e = *e;
}

/* An event of the history read at the start, or after the fork: kept, no trigger. */
int flight_keep(const struct dcm_nl_event *ev, void *arg)
{
	struct flight_state *st = arg;
	struct dcm_event_msg e;

	if (!dcm_nl_parse_event(ev->nlh, &e) && e.index == st->index)
		keep_event(st, ev, &e);
	return 0;
}

/* Does @e ask for a dump: a safety rule starting, a temperature status rising, a fall? */
static bool flight_trigger(const struct dcm_event_msg *e)
{
	if (e->type == DCM_EV_SAFETY || e->type == DCM_EV_FALL)
		return e->value == 1;
	if (e->type == DCM_EV_TEMPERATURE)
		return e->value > e->code;
	return false;
}

void flight_add_reason(struct flight_state *st, const char *why)
{
	size_t len = strlen(st->reason);

	if (strstr(st->reason, why))
		return;
	snprintf(st->reason + len, sizeof(st->reason) - len, "%s%s", len ? "; " : "", why);
}

/* A live event, or one read from the history after an overrun. */
int flight_on_event(const struct dcm_nl_event *ev, void *arg)
{
	struct flight_state *st = arg;
	struct dcm_event_msg e;
	char why[160];

	if ((ev->cmd != DCM_CMD_EVENT && ev->cmd != DCM_CMD_GET_EVENTS) ||
	    dcm_nl_parse_event(ev->nlh, &e) || e.index != st->index)
		return 0;
	keep_event(st, ev, &e);
	if (!flight_trigger(&e))
		return 0;
	if (e.type == DCM_EV_SAFETY)
		snprintf(why, sizeof(why), "safety %s%s%s",
			 dcm_safety_rule_name(e.code) ? dcm_safety_rule_name(e.code) : "rule",
			 e.device[0] ? " " : "", e.device);
	else if (e.type == DCM_EV_FALL)
		snprintf(why, sizeof(why), "fall (%s)", e.text);
	else
		snprintf(why, sizeof(why), "temperature %s status %u",
			 e.device, (unsigned int)e.value);
	flight_add_reason(st, why);
	if (!st->pending) {
		st->pending = true;
		st->due = rec_wall_now() + st->a->after;
	}
	return 0;
}

/* The oldest kept event of @r not yet written, or NULL. */
static const struct flight_kept_event *ring_at(const struct flight_event_ring *r, uint64_t i)
{
	return i < r->n ? &r->ev[i % r->slots] : NULL;
}

int flight_each_event(const struct flight_state *st, uint32_t from,
		      int (*fn)(const struct dcm_event_msg *e, void *arg), void *arg)
{
	uint64_t i = st->safety.n > st->safety.slots ? st->safety.n - st->safety.slots : 0;
	uint64_t j = st->other.n > st->other.slots ? st->other.n - st->other.slots : 0;
	const struct flight_kept_event *a, *b, *k;
	int n = 0, r;

	for (;;) {
		a = ring_at(&st->safety, i);
		b = ring_at(&st->other, j);
		if (!a && !b)
			break;
		if (a && (!b || a->order < b->order)) {
			k = a;
			i++;
		} else {
			k = b;
			j++;
		}
		/* the kept seconds and a second before them: what led there */
		if ((int32_t)(k->e.time_ms - (from - 1000)) < 0)
			continue;
		r = fn(&k->e, arg);
		if (r < 0)
			return r;
		n++;
	}
	return n;
}

/* What a JSON line of an event needs: the file, and the kept event (its seq). */
struct line_ctx {
	FILE *f;
};

static int write_line(const struct dcm_event_msg *e, void *arg)
{
	const struct flight_kept_event *k = (const void *)((const char *)e -
							    offsetof(struct flight_kept_event, e));
	struct line_ctx *c = arg;
	struct json_writer w;

	json_init(&w, c->f, false);
	json_begin_object(&w, NULL);
	rec_json_event(&w, "event", e);
	if (k->has_seq)
		json_uint(&w, "seq", k->seq);
	json_end_object(&w);
	json_end_object(&w);
	json_finish(&w);
	return 0;
}

unsigned int flight_write_events(const struct flight_state *st, FILE *f, uint32_t from)
{
	struct line_ctx c = { f };
	int n = flight_each_event(st, from, write_line, &c);

	return n > 0 ? (unsigned int)n : 0;
}
