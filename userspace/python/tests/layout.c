// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The layouts of libdcm's structures as the C compiler sees them, one line
 * each: "struct field offset size" and "struct - 0 sizeof". The Python
 * module's tests compare them with its ctypes declarations.
 */
#include <stddef.h>
#include <stdio.h>

#include "libdcm.h"

#define F(s, f) printf("%s %s %zu %zu\n", #s, #f, offsetof(struct s, f), \
		       sizeof(((struct s *)0)->f))
#define S(s) printf("%s - 0 %zu\n", #s, sizeof(struct s))

int main(void)
{
	S(dcm_version);
	F(dcm_version, magic); F(dcm_version, major); F(dcm_version, minor);
	S(dcm_info);
	F(dcm_info, index); F(dcm_info, name); F(dcm_info, driver);
	F(dcm_info, abi_major); F(dcm_info, abi_minor); F(dcm_info, period_us);
	F(dcm_info, time_ms); F(dcm_info, n_devices); F(dcm_info, n_subdevices);
	F(dcm_info, flags);
	S(dcm_key);
	F(dcm_key, handle); F(dcm_key, flags);
	S(dcm_timed_point);
	F(dcm_timed_point, value); F(dcm_timed_point, time); F(dcm_timed_point, importance);
	S(dcm_values_frame);
	F(dcm_values_frame, cycle); F(dcm_values_frame, time); F(dcm_values_frame, generation);
	F(dcm_values_frame, n_values); F(dcm_values_frame, values);
	F(dcm_values_frame, capacity); F(dcm_values_frame, priv);
	S(dcm_stats);
	F(dcm_stats, cycles); F(dcm_stats, overruns); F(dcm_stats, last_ns);
	F(dcm_stats, mean_ns); F(dcm_stats, max_ns); F(dcm_stats, latency_max_ns);
	F(dcm_stats, latency_hist);
	S(dcm_nl_event);
	F(dcm_nl_event, cmd); F(dcm_nl_event, version); F(dcm_nl_event, nlh);
	S(dcm_event_msg);
	F(dcm_event_msg, index); F(dcm_event_msg, type); F(dcm_event_msg, time_ms);
	F(dcm_event_msg, level); F(dcm_event_msg, code); F(dcm_event_msg, count);
	F(dcm_event_msg, lost); F(dcm_event_msg, value); F(dcm_event_msg, device);
	F(dcm_event_msg, text);
	/* the constants the module copies */
	printf("const NAME_LEN %d 0\n", LIBDCM_NAME_LEN);
	printf("const KEY_NAME_LEN %d 0\n", LIBDCM_KEY_NAME_LEN);
	printf("const ALIAS_NAME_LEN %d 0\n", LIBDCM_ALIAS_NAME_LEN);
	printf("const MAX_POINTS %d 0\n", LIBDCM_MAX_POINTS);
	printf("const MAX_ALIAS_MEMBERS %d 0\n", LIBDCM_MAX_ALIAS_MEMBERS);
	printf("const MAX_IMPORTANCE %d 0\n", LIBDCM_MAX_IMPORTANCE);
	printf("const MAX_SUBDEVICES %d 0\n", LIBDCM_MAX_SUBDEVICES);
	printf("const LATENCY_BUCKETS %d 0\n", LIBDCM_LATENCY_BUCKETS);
	printf("const EVENT_TEXT_LEN %d 0\n", LIBDCM_EVENT_TEXT_LEN);
	printf("const WATCHDOG_MIN_MS %d 0\n", LIBDCM_WATCHDOG_MIN_MS);
	printf("const WATCHDOG_MAX_MS %d 0\n", LIBDCM_WATCHDOG_MAX_MS);
	printf("const WATCHDOG_RAMP_MAX_MS %d 0\n", LIBDCM_WATCHDOG_RAMP_MAX_MS);
	printf("const KEY_ACTUATOR %u 0\n", LIBDCM_KEY_ACTUATOR);
	printf("const KEY_STEP %u 0\n", LIBDCM_KEY_STEP);
	printf("const INFO_SIMULATED %u 0\n", LIBDCM_INFO_SIMULATED);
	printf("const INFO_CONFIGURED %u 0\n", LIBDCM_INFO_CONFIGURED);
	printf("const INFO_RUNNING %u 0\n", LIBDCM_INFO_RUNNING);
	return 0;
}
