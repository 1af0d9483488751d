// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: libdcm's snapshot reader against a snapshot built in memory
 * the way the kernel lays it out (header, values, times). A hook the
 * library calls between its copy of the data and its second look at the
 * sequence count plays the cycle writing meanwhile: odd counts, counts
 * that change, a count that never settles, and handles of another
 * generation.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "libdcm-private.h"

#define N	6
#define GEN	9
#define VALUES_OFF	64
#define TIMES_OFF	(VALUES_OFF + N * 8)
#define SIZE	4096

static union {
	struct dcm_snapshot hdr;
	unsigned char bytes[SIZE];
	uint64_t align;
} mem;

static struct dcm_snapshot *hdr = &mem.hdr;

static int64_t *values(void)
{
	return (int64_t *)(mem.bytes + VALUES_OFF);
}

static uint32_t *times(void)
{
	return (uint32_t *)(mem.bytes + TIMES_OFF);
}

/* What the hook does at each call. */
static struct {
	unsigned int calls;
	unsigned int bump_until;	/* calls before which seq changes */
	bool forever;			/* seq changes at every call */
} hook;

/*
 * The writer's work during a read: the data of the next cycle (new
 * values) with the count moved on, so the copy just made is torn.
 */
static void writer(void *arg)
{
	(void)arg;
	hook.calls++;
	if (hook.forever || hook.calls < hook.bump_until) {
		hdr->seq += 2;
		hdr->cycle++;
		for (int i = 0; i < N; i++)
			values()[i] += 1000000;
	}
}

static uint32_t handle(unsigned int index)
{
	return (GEN << 16) | index;
}

static int setup(void **state)
{
	(void)state;
	memset(&mem, 0, sizeof(mem));
	memset(&hook, 0, sizeof(hook));
	hdr->seq = 40;
	hdr->n_values = N;
	hdr->cycle = 20;
	hdr->time = 5000;
	hdr->generation = GEN;
	hdr->values_offset = VALUES_OFF;
	hdr->times_offset = TIMES_OFF;
	hdr->size = SIZE;
	for (int i = 0; i < N; i++) {
		values()[i] = (i + 1) * 100000;	/* 0.1, 0.2, ... */
		times()[i] = 4990 + (uint32_t)i;
	}
	dcm_snapshot_test_hook = writer;
	dcm_snapshot_test_arg = NULL;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	dcm_snapshot_test_hook = NULL;
	return 0;
}

static void test_wrap_checks(void **state)
{
	struct dcm_snap *s;

	(void)state;
	assert_int_equal(dcm_snapshot_wrap(NULL, &mem, SIZE, false, &s), 0);
	assert_int_equal(dcm_snapshot_generation(s), GEN);
	dcm_snapshot_unmap(s);
	dcm_snapshot_unmap(NULL);

	assert_int_equal(dcm_snapshot_wrap(NULL, &mem, sizeof(*hdr) - 1, false, &s), -EPROTO);
	/* the arrays must fit in what is mapped */
	assert_int_equal(dcm_snapshot_wrap(NULL, &mem, TIMES_OFF + N * 4 - 1, false, &s),
			 -EPROTO);
	assert_int_equal(dcm_snapshot_wrap(NULL, &mem, TIMES_OFF + N * 4, false, &s), 0);
	dcm_snapshot_unmap(s);
	hdr->n_values = 0x40000000;	/* overflow bait */
	assert_int_equal(dcm_snapshot_wrap(NULL, &mem, SIZE, false, &s), -EPROTO);
	hdr->n_values = N;
	hdr->values_offset = 4;		/* inside the header */
	assert_int_equal(dcm_snapshot_wrap(NULL, &mem, SIZE, false, &s), -EPROTO);
	hdr->values_offset = VALUES_OFF + 4;	/* misaligned */
	assert_int_equal(dcm_snapshot_wrap(NULL, &mem, SIZE, false, &s), -EPROTO);
	hdr->values_offset = TIMES_OFF;	/* overlapping the times */
	assert_int_equal(dcm_snapshot_wrap(NULL, &mem, SIZE, false, &s), -EPROTO);
	assert_non_null(strstr(dcm_last_error(), "overlap"));
	hdr->values_offset = VALUES_OFF;
	hdr->times_offset = SIZE;
	assert_int_equal(dcm_snapshot_wrap(NULL, &mem, SIZE, false, &s), -EPROTO);
	assert_int_equal(dcm_snapshot_wrap(NULL, NULL, SIZE, false, &s), -EINVAL);
}

/* Layout 1 (ABI 1.4): the live keys after the subdevices, by handle. */
static void test_layout_keys(void **state)
{
	uint32_t h[2] = { handle(1), handle(5) };
	struct dcm_snap *s;
	double v[2];
	uint32_t t[2];

	(void)state;
	hdr->n_values = 4;		/* 4 subdevices, 2 live keys */
	assert_int_equal(dcm_snapshot_wrap(NULL, &mem, SIZE, false, &s), 0);
	assert_int_equal(dcm_snapshot_layout(s), 0);
	/* layout 0: the arrays stop at the subdevices */
	assert_int_equal(dcm_snapshot_read_many(s, h, 2, v, t, NULL), -ENOENT);
	dcm_snapshot_unmap(s);

	hdr->layout = 1;
	hdr->n_handles = N;
	assert_int_equal(dcm_snapshot_wrap(NULL, &mem, SIZE, false, &s), 0);
	assert_int_equal(dcm_snapshot_layout(s), 1);
	dcm_snapshot_test_hook = NULL;
	assert_int_equal(dcm_snapshot_read_many(s, h, 2, v, t, NULL), 0);
	assert_float_equal(v[0], 0.2, 1e-9);
	assert_float_equal(v[1], 0.6, 1e-9);
	assert_int_equal(t[1], 4995);
	h[1] = handle(N);
	assert_int_equal(dcm_snapshot_read_many(s, h, 2, v, t, NULL), -ENOENT);
	dcm_snapshot_unmap(s);

	/* fewer handles than subdevices, or arrays past the mapping */
	hdr->n_handles = 3;
	assert_int_equal(dcm_snapshot_wrap(NULL, &mem, SIZE, false, &s), -EPROTO);
	hdr->n_handles = N;
	assert_int_equal(dcm_snapshot_wrap(NULL, &mem, TIMES_OFF + N * 4 - 1, false, &s),
			 -EPROTO);
}

static void test_read_stable(void **state)
{
	uint32_t h[3] = { handle(0), handle(5), handle(2) }, t[3], tm;
	struct dcm_snap *s;
	uint64_t cycle;
	double v[3], one;

	(void)state;
	assert_int_equal(dcm_snapshot_wrap(NULL, &mem, SIZE, false, &s), 0);
	assert_int_equal(dcm_snapshot_read(s, handle(1), &one, &tm), 0);
	assert_true(one == 0.2);
	assert_int_equal(tm, 4991);
	assert_int_equal(dcm_snapshot_read(s, handle(1), &one, NULL), 0);
	assert_int_equal(dcm_snapshot_read_many(s, h, 3, v, t, &cycle), 0);
	assert_true(v[0] == 0.1 && v[1] == 0.6 && v[2] == 0.3);
	assert_int_equal(t[1], 4995);
	assert_int_equal(cycle, 20);
	assert_int_equal(hook.calls, 3);	/* one try each */
	assert_int_equal(dcm_snapshot_read_many(s, h, 3, v, NULL, NULL), 0);
	dcm_snapshot_unmap(s);
}

static void test_read_odd_seq(void **state)
{
	struct dcm_snap *s;
	uint64_t cycle;
	double v;

	(void)state;
	assert_int_equal(dcm_snapshot_wrap(NULL, &mem, SIZE, false, &s), 0);
	/* the cycle is writing (odd) and never ends: the reader gives up */
	hdr->seq = 41;
	assert_int_equal(dcm_snapshot_read(s, handle(0), &v, NULL), -EAGAIN);
	assert_non_null(strstr(dcm_last_error(), "did not settle"));
	assert_int_equal(hook.calls, 0);	/* it never copied */
	/* the write ends: the next read gets the data at once */
	hdr->seq = 42;
	assert_int_equal(dcm_snapshot_read_many(s, (uint32_t[]){ handle(0) }, 1, &v, NULL,
						&cycle), 0);
	assert_true(v == 0.1);
	assert_int_equal(cycle, 20);
	assert_int_equal(hook.calls, 1);
	dcm_snapshot_unmap(s);
}

/* The cycle starts writing during the first copy, and does not end. */
static void writer_starts(void *arg)
{
	(void)arg;
	hook.calls++;
	if (hook.calls == 1) {
		hdr->seq++;
		values()[0] = 7000000;
	}
}

static void test_read_writer_starts(void **state)
{
	struct dcm_snap *s;
	double v = 0;

	(void)state;
	assert_int_equal(dcm_snapshot_wrap(NULL, &mem, SIZE, false, &s), 0);
	/*
	 * The cycle starts writing during the first copy: the count is odd
	 * at the second look, the copy is dropped, and the reader waits for
	 * an even count. The writer never ends here: -EAGAIN, not the torn
	 * value.
	 */
	dcm_snapshot_test_hook = writer_starts;
	assert_int_equal(dcm_snapshot_read(s, handle(0), &v, NULL), -EAGAIN);
	assert_int_equal(hook.calls, 1);
	/* it ends: the new value */
	hdr->seq++;
	assert_int_equal(dcm_snapshot_read(s, handle(0), &v, NULL), 0);
	assert_true(v == 7.0);
	dcm_snapshot_unmap(s);
}

static void test_read_changing_seq(void **state)
{
	uint32_t h[2] = { handle(0), handle(3) };
	struct dcm_snap *s;
	uint64_t cycle;
	double v[2];

	(void)state;
	assert_int_equal(dcm_snapshot_wrap(NULL, &mem, SIZE, false, &s), 0);
	/* two cycles pass during the first two copies: the third is kept */
	hook.bump_until = 3;
	assert_int_equal(dcm_snapshot_read_many(s, h, 2, v, NULL, &cycle), 0);
	assert_int_equal(hook.calls, 3);
	assert_int_equal(cycle, 22);
	/* values and cycle of one cycle: both bumped twice */
	assert_true(v[0] == 2.1);
	assert_true(v[1] == 2.4);
	assert_int_equal(hdr->seq, 44);

	/* a count that never settles: -EAGAIN after the bounded tries */
	hook.forever = true;
	hook.calls = 0;
	assert_int_equal(dcm_snapshot_read_many(s, h, 2, v, NULL, &cycle), -EAGAIN);
	assert_int_equal(hook.calls, DCM_SNAP_MAX_TRIES);
	dcm_snapshot_unmap(s);
}

static void test_read_stale(void **state)
{
	uint32_t h[2] = { handle(0), (GEN + 1) << 16 };
	struct dcm_snap *s;
	double v[2] = { 42, 42 };

	(void)state;
	assert_int_equal(dcm_snapshot_wrap(NULL, &mem, SIZE, false, &s), 0);
	/* a handle of the new description on the old mapping */
	assert_int_equal(dcm_snapshot_read_many(s, h, 2, v, NULL, NULL), -ESTALE);
	assert_non_null(strstr(dcm_last_error(), "was replaced"));
	assert_true(v[0] == 42);	/* checked before anything is read */
	assert_int_equal(hook.calls, 0);
	assert_int_equal(dcm_snapshot_read(s, (GEN - 1) << 16, v, NULL), -ESTALE);
	/* an index past the snapshot */
	assert_int_equal(dcm_snapshot_read(s, handle(N), v, NULL), -ENOENT);
	assert_int_equal(dcm_snapshot_read(NULL, handle(0), v, NULL), -EINVAL);
	assert_int_equal(dcm_snapshot_read(s, handle(0), NULL, NULL), -EINVAL);
	/* no device to ask */
	assert_int_equal(dcm_snapshot_check(s), -EINVAL);
	dcm_snapshot_unmap(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_wrap_checks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_layout_keys, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_stable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_odd_seq, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_writer_starts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_changing_seq, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_stale, setup, teardown),
	};

	return cmocka_run_group_tests_name("snapshot", tests, NULL, NULL);
}
