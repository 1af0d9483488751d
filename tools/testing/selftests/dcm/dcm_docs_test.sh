#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dcm_docs_test.sh [COMMANDS]: every shell command that README.md and
# Documentation/ show, run as written against the simulated robot, in
# document order, one TAP line each. COMMANDS (default dcm_docs_cmds.sh next
# to this script) is what dcm_docs_extract.py took out of the documents at
# build time (Documentation/testing.rst, "Commands in the documentation").
#
# Each document's commands run in this shell, one after the other (a cd or
# a variable carries to the next command), from a scratch directory, as
# root. Each document finds the robot as it was when the test started: when
# the one before changed it (the controllers, configfs bodies, dcmd, the
# description, /etc/dcm, the chest board's store, the joints' stiffness),
# dcmd is stopped, configfs bodies taken down, dcm_sim and dcm reloaded,
# the chest board's store and /etc/dcm put back, dcmd started again; so
# after the last one. A command fails when its exit status is not the one its
# document gives (0 unless marked "exit=N"); one marked "timeout=SEC" runs
# in its own session and is stopped with SIGINT after SEC seconds, which is
# success; one marked "skip" is reported as skipped. A command still
# running after $DOCS_LIMIT seconds (default 20) is killed and fails.

cd "$(dirname "$0")" || exit 1
here=$(pwd)
. ./dcm_tap.sh

cmds=${1:-$here/dcm_docs_cmds.sh}
case "$cmds" in /*) ;; *) cmds=$here/$cmds ;; esac
[ -r "$cmds" ] || skip_all "no $cmds (make selftests builds it)"
[ -d /sys/class/dcm/dcm0/DeviceList ] || skip_all "no description loaded in dcm0"

_dt_tmp=$(mktemp -d)
_dt_store=/sys/kernel/debug/dcm_sim/body0/chest/store
_dt_state=${DCM_SIM_STATE:-/var/lib/dcm-sim/chest_store}
_dt_limit=${DOCS_LIMIT:-20}

# What the documents may change, as it is now.
cat "$_dt_store" >"$_dt_tmp/store" 2>/dev/null
[ -f "$_dt_state" ] && cp "$_dt_state" "$_dt_tmp/state"
[ -d /etc/dcm ] && cp -a /etc/dcm "$_dt_tmp/etc-dcm"

_dt_say() {
	echo "# $*"
}

_dt_nl='
'

# _dt_now: $_dt_cs, hundredths of a second since boot (no process started).
_dt_now() {
	read -r _dt_up _dt_rest </proc/uptime
	_dt_cs=$((${_dt_up%.*} * 100 + 1${_dt_up#*.} - 100))
}

# _dt_since CS: "N.N s" since CS (as _dt_now gives it), in $_dt_took.
_dt_since() {
	_dt_now
	_dt_d=$(((_dt_cs - $1) / 10))
	_dt_took="$((_dt_d / 10)).$((_dt_d % 10)) s"
}

# _dt_first TEXT: its first line, "..." added if it has more, in $_dt_line.
_dt_first() {
	_dt_line=${1%%"$_dt_nl"*}
	[ "$_dt_line" = "$1" ] || _dt_line="$_dt_line ..."
}

_dt_alive() {
	[ -e "/proc/$1/status" ] && ! grep -q '^State:.*zombie' "/proc/$1/status" 2>/dev/null
}

_dt_dcmd_gone() {
	for _dt_p in $(pidof dcmd); do
		_dt_alive "$_dt_p" && return 1
	done
	return 0
}

# The robot as it was at the start (see above). Return 0 or 1.
_dt_fresh() {
	# shellcheck disable=SC2046
	kill $(pidof dcmd) 2>/dev/null
	wait_until 5 _dt_dcmd_gone || _dt_say "dcmd ignored SIGTERM"
	for _dt_b in /sys/kernel/config/dcm/*; do
		[ -d "$_dt_b" ] || continue
		echo 0 >"$_dt_b/live" 2>/dev/null
		for _dt_d in "$_dt_b"/*/; do
			[ -d "$_dt_d" ] && rmdir "$_dt_d"
		done
		rmdir "$_dt_b" || _dt_say "cannot remove $_dt_b"
	done
	if grep -q '^dcm_sim ' /proc/modules && ! rmmod dcm_sim; then
		_dt_say "rmmod dcm_sim failed"
		return 1
	fi
	if grep -q '^dcm ' /proc/modules && ! rmmod dcm; then
		_dt_say "rmmod dcm failed"
		return 1
	fi
	rm -rf /etc/dcm
	[ -d "$_dt_tmp/etc-dcm" ] && cp -a "$_dt_tmp/etc-dcm" /etc/dcm
	rm -f "$_dt_state"
	[ -f "$_dt_tmp/state" ] && cp "$_dt_tmp/state" "$_dt_state"
	modprobe dcm_sim || { _dt_say "modprobe dcm_sim failed"; return 1; }
	wait_until 10 test -c /dev/dcm0 -a -e "$_dt_store" ||
		{ _dt_say "no dcm0 after 10 s"; return 1; }
	[ -s "$_dt_tmp/store" ] && cat "$_dt_tmp/store" >"$_dt_store"
	# not a job of this shell: doc_file stops those
	(dcmd -f -i 0 </dev/null >>/run/dcmd.log 2>&1 &)
	wait_until 60 test -d /sys/class/dcm/dcm0/DeviceList ||
		{ _dt_say "dcmd loaded no description in 60 s"; return 1; }
}

# What the documents' commands may change, in a few lines: the controllers,
# the bodies made in configfs, dcmd, the description (its cycle count starts
# again when it is replaced), /etc/dcm, the chest board's store, the joints'
# stiffness. When it is what it was after the last fresh start, the robot
# needs none.
_dt_signature() {
	ls /sys/class/dcm /sys/kernel/config/dcm 2>/dev/null | tr '\n' ' '
	echo
	pidof dcmd
	find /etc/dcm -type f 2>/dev/null | sort | while read -r _dt_f; do md5sum <"$_dt_f"; done
	md5sum <"$_dt_store" 2>/dev/null
	cat /sys/class/dcm/dcm0/SubDeviceList/*/Hardness/Actuator/Value 2>/dev/null | md5sum
}

_dt_clean() {
	[ "$(_dt_signature)" = "$_dt_sig" ] &&
		[ "$(cat /sys/class/dcm/dcm0/stats/cycles 2>/dev/null || echo 0)" -ge "$_dt_cycles" ]
}

_dt_mark_clean() {
	_dt_sig=$(_dt_signature)
	_dt_cycles=$(cat /sys/class/dcm/dcm0/stats/cycles 2>/dev/null || echo 0)
}

# _dt_fresh_if_needed WHAT: a fresh start if the robot is not as it was.
_dt_fresh_if_needed() {
	if _dt_clean; then
		_dt_say "$1: the robot is as it was"
		return
	fi
	_dt_signature >"$_dt_tmp/sig"
	printf '%s\n' "$_dt_sig" | diff - "$_dt_tmp/sig" | sed -n 's/^[-+][^-+]/# changed: &/p'
	_dt_now
	_dt_t0=$_dt_cs
	_dt_fresh
	_dt_st=$?
	_dt_since "$_dt_t0"
	check $_dt_st "$1: the robot as it was (fresh start, $_dt_took)"
	_dt_mark_clean
}

# doc_file NAME RUNS: the commands that follow are NAME's, RUNS of them run.
doc_file() {
	cd "$here" || exit 1
	# Background jobs a document left: stopped with it.
	for _dt_j in $(jobs -p); do
		[ "$_dt_j" = "$_dt_guard" ] || kill "$_dt_j" 2>/dev/null
	done
	[ "${2:-1}" -gt 0 ] && _dt_fresh_if_needed "$1"
	_dt_say "$1"
	rm -rf "$_dt_tmp/work"
	mkdir -p "$_dt_tmp/work"
	cd "$_dt_tmp/work" || exit 1
}

# _dt_report STATUS LOCATION COMMAND [NOTE]: the TAP line, the output if it failed.
_dt_report() {
	_dt_first "$3"
	check "$1" "$2: $_dt_line${4:+ ($4)}"
	if [ "$1" != 0 ]; then
		printf '%s\n' "$3" | sed 's/^/#   $ /'
		sed 's/^/#   /' "$_dt_tmp/out" | head -n 40
		[ -f "$_dt_tmp/guard" ] && sed 's/^/#   docs test: /' "$_dt_tmp/guard"
	fi
	rm -f "$_dt_tmp/guard"
}

# doc_cmd LOCATION STATUS TIMEOUT COMMAND
doc_cmd() {
	_dt_loc=$1
	_dt_exp=$2
	_dt_to=$3
	_dt_cmd=$4
	_dt_now
	_dt_t0=$_dt_cs
	if [ "$_dt_to" != 0 ]; then
		# Its own session: SIGINT reaches all of it, as Ctrl-C would.
		setsid sh -c "$_dt_cmd" </dev/null >"$_dt_tmp/out" 2>&1 &
		_dt_pid=$!
		_dt_i=0
		while _dt_alive "$_dt_pid" && [ $_dt_i -lt $((_dt_to * 10)) ]; do
			sleep 0.1
			_dt_i=$((_dt_i + 1))
		done
		if _dt_alive "$_dt_pid"; then
			kill -INT -- "-$_dt_pid" 2>/dev/null
			wait_until 3 eval '! _dt_alive "$_dt_pid"' ||
				kill -KILL -- "-$_dt_pid" 2>/dev/null
			wait "$_dt_pid" 2>/dev/null
			_dt_report 0 "$_dt_loc" "$_dt_cmd" "stopped after ${_dt_to} s"
			return
		fi
		wait "$_dt_pid"
		_dt_rc=$?
	else
		# In this shell (its cd and variables last); the guard watches.
		_dt_seq=$((_dt_seq + 1))
		echo "$_dt_seq $_dt_t0" >"$_dt_tmp/running"
		{ eval "$_dt_cmd"; } </dev/null >"$_dt_tmp/out" 2>&1
		_dt_rc=$?
		echo "$_dt_seq 0" >"$_dt_tmp/running"
	fi
	_dt_since "$_dt_t0"
	_dt_note="exit $_dt_rc, $_dt_took"
	[ "$_dt_exp" = 0 ] || _dt_note="$_dt_note, $_dt_exp documented"
	[ "$_dt_rc" = "$_dt_exp" ]
	_dt_report $? "$_dt_loc" "$_dt_cmd" "$_dt_note"
}

# doc_skip LOCATION REASON COMMAND
doc_skip() {
	n=$((n + 1))
	skip=$((skip + 1))
	_dt_first "$3"
	echo "ok $n $1: $_dt_line # SKIP $2"
}

# The guard: a command of this shell still running after $_dt_limit s is
# killed with every other child of this shell but the guard.
_dt_seq=0
echo "0 0" >"$_dt_tmp/running"
sh -c 'limit=$(($1 * 100))
	while sleep 1; do
		read -r seq t0 <"$2/running" || exit 0
		[ "$t0" = 0 ] && continue
		read -r up rest </proc/uptime
		now=$((${up%.*} * 100 + 1${up#*.} - 100))
		[ $((now - t0)) -ge "$limit" ] || continue
		echo "still running after $(($limit / 100)) s: killed" >"$2/guard"
		for s in /proc/[0-9]*/stat; do
			read -r pid comm state ppid rest <"$s" 2>/dev/null || continue
			[ "$ppid" = "$PPID" ] && [ "$pid" != $$ ] && kill -KILL "$pid"
		done
		echo "$seq 0" >"$2/running"
	done' guard "$_dt_limit" "$_dt_tmp" &
_dt_guard=$!

_dt_mark_clean
# shellcheck source=/dev/null
. "$cmds"

cd "$here" || exit 1
for _dt_j in $(jobs -p); do
	kill "$_dt_j" 2>/dev/null
done
wait 2>/dev/null
echo "0 0" >"$_dt_tmp/running"
# The robot back as it was for what runs next.
_dt_fresh_if_needed "after the documents"
rm -rf "$_dt_tmp"
totals
