/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - a fixed-size histogram of durations with log-linear buckets, for
 * the cycle's percentiles: each power of two is cut into DCM_HIST_SUB
 * buckets, so that a percentile read from it is within 1/DCM_HIST_SUB
 * (6.25 %) of the true value, from 1 ns to 2^DCM_HIST_MAX_BITS ns (68 s);
 * the values below DCM_HIST_SUB ns have a bucket each. Adding a sample is a
 * few instructions and never allocates: the cycle adds two per period.
 * Pure logic: it builds in the kernel and in the host unit tests.
 */
#ifndef _DCM_HIST_H
#define _DCM_HIST_H

#include "model/dcm_pure.h"

#define DCM_HIST_SUB_BITS	4
#define DCM_HIST_SUB		BIT(DCM_HIST_SUB_BITS)
#define DCM_HIST_MAX_BITS	36
#define DCM_HIST_BUCKETS	((DCM_HIST_MAX_BITS - DCM_HIST_SUB_BITS + 1) * DCM_HIST_SUB)

/**
 * struct dcm_hist - durations seen, by bucket
 * @count: samples per bucket
 * @n: samples
 * @sum: their sum, ns
 * @max: the largest, ns
 */
struct dcm_hist {
	u64 count[DCM_HIST_BUCKETS];
	u64 n;
	u64 sum;
	u64 max;
};

/**
 * dcm_hist_index() - the bucket of a duration
 * @v: the duration, ns
 *
 * Return: 0 to DCM_HIST_BUCKETS - 1; durations of 2^DCM_HIST_MAX_BITS ns or
 * more share the last bucket.
 */
static inline u32 dcm_hist_index(u64 v)
{
	u32 e;

	if (v < DCM_HIST_SUB)
		return v;
	e = 63 - __builtin_clzll(v);	/* v's highest bit: e >= DCM_HIST_SUB_BITS */
	if (e >= DCM_HIST_MAX_BITS)
		return DCM_HIST_BUCKETS - 1;
	return (e - DCM_HIST_SUB_BITS + 1) * DCM_HIST_SUB +
	       ((v >> (e - DCM_HIST_SUB_BITS)) & (DCM_HIST_SUB - 1));
}

/**
 * dcm_hist_upper() - the largest duration of a bucket
 * @i: the bucket, below DCM_HIST_BUCKETS
 *
 * Return: that duration, ns.
 */
static inline u64 dcm_hist_upper(u32 i)
{
	u32 e, sub;

	if (i < 2 * DCM_HIST_SUB)
		return i;
	e = i / DCM_HIST_SUB + DCM_HIST_SUB_BITS - 1;
	sub = i % DCM_HIST_SUB;
	return (((u64)DCM_HIST_SUB + sub + 1) << (e - DCM_HIST_SUB_BITS)) - 1;
}

/**
 * dcm_hist_add() - account one duration
 * @h: the histogram
 * @v: the duration, ns
 */
static inline void dcm_hist_add(struct dcm_hist *h, u64 v)
{
	h->count[dcm_hist_index(v)]++;
	h->n++;
	h->sum += v;
	if (v > h->max)
		h->max = v;
}

/**
 * dcm_hist_percentile() - a percentile of the durations seen
 * @h: the histogram
 * @ppm: which one, in parts per million: 500000 is the median, 999000
 *	p99.9; 1000000 the maximum
 *
 * The smallest duration that at least @ppm of the samples do not exceed,
 * as the upper end of its bucket (never above the largest seen): at most
 * 1/DCM_HIST_SUB more than the true one. In the last bucket (durations past
 * 2^DCM_HIST_MAX_BITS ns), the largest seen.
 *
 * Return: the duration, ns; 0 with no sample.
 */
static inline u64 dcm_hist_percentile(const struct dcm_hist *h, u32 ppm)
{
	u64 rank, seen = 0;
	u32 i;

	if (!h->n)
		return 0;
	if (ppm >= 1000000)
		return h->max;
	/* The rank of the sample, from 1: ceil(n * ppm / 10^6). */
	rank = dcm_mul_div(h->n, ppm, 1000000);
	if (rank * 1000000 < h->n * ppm || !rank)
		rank++;
	for (i = 0; i < DCM_HIST_BUCKETS; i++) {
		seen += h->count[i];
		/* The last bucket has no upper end: the largest seen is its. */
		if (seen >= rank)
			return i == DCM_HIST_BUCKETS - 1 ? h->max :
			       min_t(u64, dcm_hist_upper(i), h->max);
	}
	return h->max;
}

#endif /* _DCM_HIST_H */
