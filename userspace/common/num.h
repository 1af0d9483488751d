/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Numbers of the dcm programs' options and arguments (dcmd, dcmctl,
 * dcm-lola, dcm-physics, dcm-web, dcm-flight): a whole string read as an integer or a double
 * within a range, with one set of rules and errors for all of them.
 *
 * The string is the number and nothing else:
 *  - no blanks, before or after (strtol()'s leading white space is refused);
 *  - an optional sign, '+' or '-', then at least one digit;
 *  - integers: digits of the base only (8 or 10): no "0x" prefix, no hex,
 *    a leading 0 is one more digit ("010" is ten in base 10);
 *  - doubles: decimal only ("1", "-0.5", ".5", "5.", "1e-3"), no hex
 *    ("0x1p3"), no NaN or infinity however spelt.
 *
 * Return 0 with the number in *@out, or a negative errno, *@out untouched:
 *  -EINVAL  not a number: NULL, empty, a blank, no digit, anything after
 *           the number, a hex double;
 *  -ERANGE  a number outside [@min, @max], overflow included; for an
 *           unsigned, any negative one ("-0" too);
 *  -EDOM    a double's NaN or infinity ("nan", "-inf", "Infinity").
 * A double too small to represent reads as the nearest one (0 or a
 * subnormal), then meets the range like any other.
 */
#ifndef DCM_NUM_H
#define DCM_NUM_H

int num_parse_ll(const char *s, long long min, long long max, long long *out);
/* @base: 8 or 10 (-EINVAL otherwise). */
int num_parse_ull(const char *s, unsigned int base, unsigned long long min,
		  unsigned long long max, unsigned long long *out);
int num_parse_double(const char *s, double min, double max, double *out);
/*
 * A count or an index as people type it: decimal digits and nothing else,
 * no sign at all ("+1" and "-0" are -EINVAL, not -ERANGE: neither is a
 * count), within [@min, @max].
 */
int num_parse_count(const char *s, unsigned long long min, unsigned long long max,
		    unsigned long long *out);

#endif /* DCM_NUM_H */
