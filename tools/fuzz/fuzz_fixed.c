// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer: hostile decimal text through the kernel's one reader of
 * numbers (key file writes, the configuration's values, libdcm): every
 * number it accepts is written back by dcm_fixed_format() and read again
 * to the same value; an integer it accepts reads the same as a fixed-point
 * number of it does, in millionths.
 */
#include <linux/kernel.h>

#include "model/dcm_fixed.h"

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	char text[256], back[DCM_FIXED_TEXT_LEN];
	unsigned int extra, flags, max_extra;
	s64 v, w;

	if (!size)
		return 0;
	flags = data[0] & 1 ? DCM_DECIMAL_EXPONENT : 0;
	max_extra = (data[0] >> 1) % 16;
	size--;
	data++;
	if (size >= sizeof(text))
		size = sizeof(text) - 1;
	memcpy(text, data, size);
	text[size] = '\0';

	dcm_decimal_parse(text, size, flags, max_extra, &v, &extra);
	if (!dcm_fixed_parse(text, &v)) {
		if (dcm_fixed_format(v, back, sizeof(back)) < 0)
			__builtin_trap();
		if (dcm_fixed_parse(back, &w) || w != v)
			__builtin_trap();
	}
	if (!dcm_int_parse(text, &v)) {
		if (!dcm_fixed_parse(text, &w) && (v > S64_MAX / 1000000 || v < S64_MIN / 1000000 ||
						   w != v * 1000000))
			__builtin_trap();
	}
	return 0;
}
