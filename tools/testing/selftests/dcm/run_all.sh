#!/bin/sh
# Run every dcm kselftest in this directory, in a fixed order; each prints
# TAP ending in "# Totals: ...". Exits non-zero if any test program failed.
# dcm_fuzz_test is last: it leaves the robot's keys and store as random
# writes left them. With arguments, only the tests named (in the same
# order); a name that is no test of the suite fails. Each test's time (in
# whole seconds, the guest's clock) follows it as a comment line.
cd "$(dirname "$0")" || exit 1
rc=0
all=""
for t in dcm_body_test.sh dcm_dcmctl_test.sh dcm_safety_test.sh dcm_access_test.sh \
	dcm_readers_test.sh dcm_safety_record_test dcm_record_test.sh dcm_flight_hostile_test.sh \
	dcm_watchdog_test dcm_chrdev_test dcm_netlink_test dcm_module_test \
	dcm_config_test \
	dcm_quoting_test dcm_hostile_test dcm_cycle_test dcm_daemon_test dcm_description_test.sh \
	dcm_preferences_test.sh dcm_calib_test dcm_calib_test.sh dcm_configfs_test.sh \
	dcm_configfs_race_test.sh dcm_refusals_test.sh dcm_transport_test.sh dcm_bodies_test.sh \
	dcm_sched_test dcm_link_test dcm_wiretime_test.sh dcm_lanes_test.sh dcm_regs_test.sh \
	dcm_client_test \
	dcm_examples_test.sh \
	dcm_python_test.sh dcm_naoqi_test.sh dcm_lola_test.sh dcm_lola_hardening_test.sh \
	dcm_lola_replay_test.sh dcm_cli_test.sh dcm_faults_test dcm_soak_test dcm_snap_test \
	dcm_top_test.sh dcm_docs_test.sh dcm_fuzz_test; do
	all="$all $t"
done
for want in "$@"; do
	case " $all " in
	*" $want "*) ;;
	*) echo "not ok 1 $want is no test of the suite"
	   echo "# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0"
	   rc=1 ;;
	esac
done
for t in $all; do
	if [ $# -gt 0 ]; then
		case " $* " in
		*" $t "*) ;;
		*) continue ;;
		esac
	fi
	echo "# selftest: $t"
	if [ ! -x "./$t" ]; then
		echo "not ok 1 $t is missing"
		echo "# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0"
		rc=1
		continue
	fi
	start=$(date +%s)
	./"$t" || rc=1
	echo "# selftest: $t took $(($(date +%s) - start)) s"
done
exit $rc
