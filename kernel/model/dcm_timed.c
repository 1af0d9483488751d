// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - timed commands: queue, update kinds, interpolation, conversion.
 *
 * The rules are NAOqi's (Documentation/userspace-api/dcm.rst): each cycle,
 * the commands due (at or before now) apply at once, the latest winning,
 * and leave the queue; the value moves in a straight line from the last
 * point applied (or the last cycle's value) toward the next command; with no
 * command left the last value stays. Step actuators (the sonar) take a
 * command once, at its time, and are not interpolated.
 */

#include "model/dcm_pure.h"
#include "model/dcm_timed.h"

/**
 * dcm_tc_init() - an empty queue
 * @q: the queue
 * @value: the actuator's value until a command comes, micro-units
 */
void dcm_tc_init(struct dcm_tc_queue *q, s64 value)
{
	q->n = 0;
	q->value = value;
	q->time = 0;
	q->primed = false;
}

/*
 * The order of two commands: by time, then by their place in the request,
 * kept in the reserved bytes while sorting (they are zero until then, and
 * again after).
 */
static u32 place(const struct dcm_point *p)
{
	return p->reserved[0] | (u32)p->reserved[1] << 8 | (u32)p->reserved[2] << 16;
}

static bool point_before(const struct dcm_point *a, const struct dcm_point *b)
{
	if (a->time != b->time)
		return dcm_time_before(a->time, b->time);
	return place(a) < place(b);
}

/* Move p[i] down the max-heap p[0..n). */
static void sift_down(struct dcm_point *p, u32 i, u32 n)
{
	struct dcm_point tmp;
	u32 c;

	for (;;) {
		c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && point_before(&p[c], &p[c + 1]))
			c++;
		if (!point_before(&p[i], &p[c]))
			return;
		tmp = p[i];
		p[i] = p[c];
		p[c] = tmp;
		i = c;
	}
}

/*
 * Sort by time, equal times keeping the order they came in: a heap sort on
 * (time, place), O(n log n) in the worst case and in place; a request
 * already in order (the usual trajectory) is seen in one pass.
 */
static void sort_points(struct dcm_point *p, u32 n)
{
	struct dcm_point tmp;
	u32 i;

	for (i = 1; i < n; i++)
		if (dcm_time_before(p[i].time, p[i - 1].time))
			break;
	if (i >= n)
		return;
	for (i = 0; i < n; i++) {
		p[i].reserved[0] = i & 0xff;
		p[i].reserved[1] = (i >> 8) & 0xff;
		p[i].reserved[2] = (i >> 16) & 0xff;
	}
	for (i = n / 2; i-- > 0;)
		sift_down(p, i, n);
	for (i = n; i-- > 1;) {
		tmp = p[0];
		p[0] = p[i];
		p[i] = tmp;
		sift_down(p, 0, i);
	}
	for (i = 0; i < n; i++)
		memset(p[i].reserved, 0, sizeof(p[i].reserved));
}

/**
 * dcm_tc_prepare() - check and sort new timed commands
 * @pts: the commands, in any order; sorted in place by time, equal times
 *	keeping their order
 * @n: how many
 *
 * Call it before dcm_tc_set(), outside the lock that guards the queue.
 *
 * Return: 0, or -EINVAL for more than DCM_MAX_POINTS commands, an
 * importance above 7 or a reserved byte that is not zero.
 */
int dcm_tc_prepare(struct dcm_point *pts, u32 n)
{
	u32 i;

	if (n > DCM_MAX_POINTS)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (pts[i].importance > 7 || pts[i].reserved[0] || pts[i].reserved[1] ||
		    pts[i].reserved[2])
			return -EINVAL;
	sort_points(pts, n);
	return 0;
}

/* The queued commands an update keeps: [*from, *to). */
static void kept_range(const struct dcm_tc_queue *q, u32 update, const struct dcm_point *pts,
		       u32 n, u32 *from, u32 *to)
{
	*from = 0;
	*to = q->n;
	switch (update) {
	case DCM_UPDATE_CLEAR_ALL:
		*to = 0;
		break;
	case DCM_UPDATE_CLEAR_AFTER:
		/* Keep the queued commands at or before the earliest new one. */
		if (n)
			while (*to > 0 && dcm_time_before(pts[0].time, q->pts[*to - 1].time))
				(*to)--;
		break;
	case DCM_UPDATE_CLEAR_BEFORE:
		/* Keep the queued commands at or after the latest new one. */
		if (n)
			while (*from < q->n &&
			       dcm_time_before(q->pts[*from].time, pts[n - 1].time))
				(*from)++;
		break;
	}
	if (*from > *to)
		*from = *to;
}

/**
 * dcm_tc_fits() - whether an update leaves the queue within its limit
 * @q: the actuator's queue
 * @update: enum dcm_update
 * @pts: the new commands, prepared by dcm_tc_prepare()
 * @n: how many
 *
 * Return: true if dcm_tc_set() with the same arguments succeeds.
 */
bool dcm_tc_fits(const struct dcm_tc_queue *q, u32 update, const struct dcm_point *pts, u32 n)
{
	u32 from, to;

	if (update > DCM_UPDATE_MAX)
		return false;
	kept_range(q, update, pts, n, &from, &to);
	return to - from + n <= DCM_MAX_POINTS;
}

/**
 * dcm_tc_set() - queue timed commands
 * @q: the actuator's queue
 * @update: enum dcm_update: what happens to the commands already queued
 * @pts: the new commands, prepared by dcm_tc_prepare()
 * @n: how many
 *
 * CLEAR_ALL drops every queued command (with @n 0 that is all it does: the
 * last value stays); MERGE keeps them; CLEAR_AFTER drops those later than
 * the earliest new one; CLEAR_BEFORE those earlier than the latest new one.
 * New commands go after queued ones of the same time. The work is linear in
 * the queue's length.
 *
 * Return: 0, -EINVAL for an unknown @update, -ENOSPC when the queue would
 * pass DCM_MAX_POINTS; the queue is unchanged on failure.
 */
int dcm_tc_set(struct dcm_tc_queue *q, u32 update, const struct dcm_point *pts, u32 n)
{
	u32 from, to, m, i, j, k;

	if (update > DCM_UPDATE_MAX)
		return -EINVAL;
	kept_range(q, update, pts, n, &from, &to);
	m = to - from;
	if (m + n > DCM_MAX_POINTS)
		return -ENOSPC;

	if (from && m)
		memmove(q->pts, q->pts + from, m * sizeof(*q->pts));
	/* Merge from the back: a queued command goes after new ones only if later. */
	i = m;
	j = n;
	k = m + n;
	while (j > 0) {
		if (i > 0 && dcm_time_before(pts[j - 1].time, q->pts[i - 1].time))
			q->pts[--k] = q->pts[--i];
		else
			q->pts[--k] = pts[--j];
	}
	q->n = m + n;
	return 0;
}

/*
 * a + (b - a) * num / den, for 0 <= num <= den, den > 0, exact over the whole
 * s64 range: the distance is taken unsigned, and the result lies between a
 * and b.
 */
static s64 lerp(s64 a, s64 b, u32 num, u32 den)
{
	u64 dist = b >= a ? (u64)b - (u64)a : (u64)a - (u64)b;
	u64 q = div64_u64(dist, den);
	u64 part = q * num + div64_u64((dist - q * den) * num, den);

	return (s64)(b >= a ? (u64)a + part : (u64)a - part);
}

/**
 * dcm_tc_step() - the actuator's value for one cycle
 * @q: its queue
 * @now: the cycle's DCM time
 * @step_only: the actuator is not interpolated: only a due command changes it
 * @value: the value of this cycle, micro-units, before conversion
 *
 * Return: true if the value must be sent this cycle: always for an
 * interpolated actuator, only when a command came due for a step one.
 */
bool dcm_tc_step(struct dcm_tc_queue *q, u32 now, bool step_only, s64 *value)
{
	bool due = false;
	u32 i = 0;

	/*
	 * Every due command applies, the latest wins, and becomes the point the
	 * line starts from: the trajectory goes through the commands, whatever
	 * the cycle's phase.
	 */
	while (i < q->n && !dcm_time_before(now, q->pts[i].time)) {
		q->value = q->pts[i].value;
		q->time = q->pts[i].time;
		q->primed = true;
		due = true;
		i++;
	}
	if (i) {
		q->n -= i;
		memmove(q->pts, q->pts + i, q->n * sizeof(*q->pts));
	}

	if (!step_only && q->n && q->primed) {
		s32 span = (s32)(q->pts[0].time - q->time);
		s32 done = (s32)(now - q->time);

		if (done > 0 && span > 0)
			q->value = lerp(q->value, q->pts[0].value, done, span);
	}

	q->time = now;
	q->primed = true;
	*value = q->value;
	return due || !step_only;
}

/* |a| * b / c rounded to nearest (half up), with the sign of a; saturated. */
static s64 mul_div_round(s64 a, u64 b, u64 c)
{
	u64 ua = a < 0 ? 0ULL - (u64)a : (u64)a;
	u64 q = dcm_mul_div(ua, b, c), r;

	if (q >= (u64)S64_MAX)
		return a < 0 ? S64_MIN : S64_MAX;
	r = ua * b - q * c;	/* exact: the remainder is below c */
	if (r >= c - r)
		q++;
	return a < 0 ? -(s64)q : (s64)q;
}

/**
 * dcm_from_raw() - a raw number of the boards as a value of the key space
 * @c: the subdevice's conversion
 * @raw: the raw number
 *
 * Return: @raw * Gain + Offset, micro-units, rounded, saturated at the s64
 * limits.
 */
s64 dcm_from_raw(const struct dcm_conv *c, s64 raw)
{
	u64 g = c->gain < 0 ? 0ULL - (u64)c->gain : (u64)c->gain;
	s64 v = mul_div_round(raw, g, c->gain_den);

	if (c->gain < 0)
		v = v == S64_MIN ? S64_MAX : -v;
	/* Saturated stays saturated. */
	if (v == S64_MAX || v == S64_MIN)
		return v;
	if (__builtin_add_overflow(v, c->offset, &v))
		return c->offset < 0 ? S64_MIN : S64_MAX;
	return v;
}

/**
 * dcm_to_raw() - the raw number to send for a value
 * @c: the actuator's conversion
 * @value: the value, micro-units
 *
 * The value is first held within Min and Max, then has Offset removed and is
 * divided by Gain, rounding to nearest. The raw number is the one whose
 * value, dcm_from_raw(), is nearest to the request within Min and Max: that
 * is what the actuator's Value key then reads (an LED asked 0.4 with a Gain
 * of 1/256 reads 0.398). When no raw number within s64 reaches Min..Max,
 * the s64 limit nearest to it: saturated, never wrapped.
 *
 * Return: the raw number.
 */
s64 dcm_to_raw(const struct dcm_conv *c, s64 value)
{
	u64 g = c->gain < 0 ? 0ULL - (u64)c->gain : (u64)c->gain;
	s64 v = value, d, raw, back, next;
	s64 step = c->gain < 0 ? -1 : 1;

	if (v < c->min)
		v = c->min;
	if (v > c->max)
		v = c->max;
	if (__builtin_sub_overflow(v, c->offset, &d))
		d = c->offset < 0 ? S64_MAX : S64_MIN;
	raw = mul_div_round(d, c->gain_den, g);
	if (c->gain < 0)
		raw = raw == S64_MIN ? S64_MAX : -raw;
	back = dcm_from_raw(c, raw);
	/*
	 * One step back inside Min..Max, unless raw is already at an s64
	 * limit: no raw number beyond it exists, and that limit is then the
	 * nearest there is (a Gain so small that Min..Max needs more).
	 */
	if (back > c->max && __builtin_sub_overflow(raw, step, &next) == 0)
		raw = next;
	else if (back < c->min && __builtin_add_overflow(raw, step, &next) == 0)
		raw = next;
	return raw;
}
