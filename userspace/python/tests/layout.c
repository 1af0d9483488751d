// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The layouts of libdcm's structures as the C compiler sees them, one line
 * each: "struct field offset size" and "struct - 0 sizeof". The Python
 * module's tests compare them with its ctypes declarations.
 */
#include <stddef.h>
#include <stdio.h>

#include "libdcm.h"
#include "libdcm-desc.h"

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
	S(dcm_tree_key);
	F(dcm_tree_key, name); F(dcm_tree_key, flags);
	S(dcm_tree_device);
	F(dcm_tree_device, name); F(dcm_tree_device, type); F(dcm_tree_device, bus);
	F(dcm_tree_device, address); F(dcm_tree_device, n_keys); F(dcm_tree_device, keys);
	S(dcm_tree_subdevice);
	F(dcm_tree_subdevice, name); F(dcm_tree_subdevice, type);
	F(dcm_tree_subdevice, device); F(dcm_tree_subdevice, number);
	F(dcm_tree_subdevice, handle); F(dcm_tree_subdevice, flags);
	F(dcm_tree_subdevice, n_keys); F(dcm_tree_subdevice, keys);
	S(dcm_alias_entry);
	F(dcm_alias_entry, name); F(dcm_alias_entry, n_members); F(dcm_alias_entry, shared);
	S(dcm_alias_desc);
	F(dcm_alias_desc, shared); F(dcm_alias_desc, n_members);
	F(dcm_alias_desc, members); F(dcm_alias_desc, handles);
	S(dcm_board_info);
	F(dcm_board_info, name); F(dcm_board_info, type); F(dcm_board_info, bus);
	F(dcm_board_info, address); F(dcm_board_info, has_state); F(dcm_board_info, state);
	F(dcm_board_info, ack); F(dcm_board_info, nack); F(dcm_board_info, errors);
	F(dcm_board_info, version);
	S(dcm_special_result);
	F(dcm_special_result, command); F(dcm_special_result, text);
	F(dcm_special_result, n_boards); F(dcm_special_result, boards);
	S(dcm_prefs_opts);
	F(dcm_prefs_opts, index); F(dcm_prefs_opts, file); F(dcm_prefs_opts, etc);
	F(dcm_prefs_opts, share); F(dcm_prefs_opts, device_xml);
	F(dcm_prefs_opts, schema_dir); F(dcm_prefs_opts, sysfs_root);
	F(dcm_prefs_opts, log); F(dcm_prefs_opts, log_arg);
	S(dcm_prefs_saved);
	F(dcm_prefs_saved, target); F(dcm_prefs_saved, file); F(dcm_prefs_saved, from);
	F(dcm_prefs_saved, keys); F(dcm_prefs_saved, live); F(dcm_prefs_saved, changed);
	F(dcm_prefs_saved, added);
	S(dcm_prefs_loaded);
	F(dcm_prefs_loaded, files); F(dcm_prefs_loaded, controller);
	F(dcm_prefs_loaded, n_devices); F(dcm_prefs_loaded, n_subdevices);
	F(dcm_prefs_loaded, n_keys); F(dcm_prefs_loaded, steps);
	S(dcm_prefs_added);
	F(dcm_prefs_added, target); F(dcm_prefs_added, file); F(dcm_prefs_added, from);
	F(dcm_prefs_added, key); F(dcm_prefs_added, kind); F(dcm_prefs_added, added);
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
	printf("const MAX_NAME_LEN %d 0\n", LIBDCM_MAX_NAME_LEN);
	printf("const MAX_STRING_LEN %d 0\n", LIBDCM_MAX_STRING_LEN);
	printf("const MAX_DEVICES %d 0\n", LIBDCM_MAX_DEVICES);
	printf("const PATH_LEN %d 0\n", LIBDCM_PATH_LEN);
	printf("const TREE_KEY_WRITABLE %u 0\n", LIBDCM_TREE_KEY_WRITABLE);
	printf("const TREE_KEY_CONFIG %u 0\n", LIBDCM_TREE_KEY_CONFIG);
	printf("const TREE_KEY_COMMAND %u 0\n", LIBDCM_TREE_KEY_COMMAND);
	/* the version the module is built with (userspace/Makefile writes it) */
	printf("version %s - 0\n", LIBDCM_VERSION);
	return 0;
}
