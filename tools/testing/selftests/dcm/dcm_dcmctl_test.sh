#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dcm_dcmctl_test.sh: dcmctl's timed commands against the real cycle, in the
# VM, with the default robot description (dcmd loads it at boot) and the
# simulated body moving the joints:
#
#   - dcmctl time advances, and adds its offset;
#   - a ramp: HeadYaw to 0.3 rad in 300 ms, seen cycle by cycle by dcmctl
#     watch (read() frames): the actuator goes up in steps, the sensor
#     follows; dcmctl get (sysfs) agrees with the last frame;
#   - several points (VALUE@MS) run in order;
#   - list takes get's globs ('*/Hardness/Actuator': each stiffness Value),
#     and exits 1 when its pattern matches nothing;
#   - an alias of the 26 Position/Actuator keys, set time-separate to one
#     value, moves them all (each held in its Min/Max); blank members are
#     marked;
#   - set on an alias name: both members of a1 take the value; a member
#     name of 130 bytes is a blank member, not an error;
#   - alias list, show and delete (dcmctl's aliases are shared);
#   - an eye LED asked 0.4 reads back quantized by its Gain;
#   - dcmctl stats counts cycles;
#   - the -j output of every command is one well-formed JSON object (a line
#     per cycle for watch);
#   - errors (unknown key, a sensor as target, a bad value, a bad kind, an
#     alias set of the wrong member count) exit non-zero with a message and
#     change nothing.
#
# POSIX sh (busybox). Prints TAP and ends with the kselftest Totals line;
# exits 1 if a test failed.

SYS=/sys/class/dcm/dcm0
T=$(mktemp -d /tmp/dcm_dcmctl.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/dcm_tap.sh"

# Show a file as TAP diagnostics.
diag() {
	sed 's/^/# /' "$1"
}


# The value of a key, as dcmctl get -q prints it.
get() {
	dcmctl get -q "$1"
}

# Is each line of file $1 (or the whole file with $2 = whole) one JSON
# object (or, with $3 = array, one array)? A small structural check: outside
# strings the brackets balance and never go negative, the text starts with
# '{' and ends with the bracket that closes it, nothing follows, strings
# end, escapes are honoured. (busybox has no jq.)
json_ok() {
	awk -v whole="$2" -v open="$([ "$3" = array ] && echo "[" || echo "{")" '
	function check(s,    i, c, depth, instr, esc, first, closed) {
		depth = 0; instr = 0; esc = 0; first = ""; closed = 0
		for (i = 1; i <= length(s); i++) {
			c = substr(s, i, 1)
			if (instr) {
				if (esc) esc = 0
				else if (c == "\\") esc = 1
				else if (c == "\"") instr = 0
				continue
			}
			if (c ~ /[ \t\r\n]/) continue
			if (closed) return 0	# something after the object
			if (first == "") first = c
			if (c == "\"") instr = 1
			else if (c == "{" || c == "[") depth++
			else if (c == "}" || c == "]") {
				if (--depth < 0) return 0
				if (depth == 0) closed = 1
			}
		}
		return closed && !instr && first == open
	}
	{ if (whole) text = text $0 "\n"; else if (!check($0)) bad++; lines++ }
	END {
		if (whole) exit !(lines > 0 && check(text))
		exit !(lines > 0 && !bad)
	}' "$1"
}

if [ ! -d "$SYS/DeviceList/HeadBoard" ] || ! command -v dcmctl >/dev/null; then
	skip_all "no default description or no dcmctl"
fi

ACT=HeadYaw/Position/Actuator
SENS=HeadYaw/Position/Sensor

# 1. DCM time advances; an offset adds.
t1=$(dcmctl time)
sleep 0.2
t2=$(dcmctl time)
t3=$(dcmctl time 100000)
[ -n "$t1" ] && [ $((t2 - t1)) -ge 150 ] && [ $((t2 - t1)) -le 5000 ] &&
	[ $((t3 - t2)) -ge 100000 ] && [ $((t3 - t2)) -le 105000 ]
check $? "dcmctl time advances ($t1 -> $t2) and adds an offset ($t3)"

# 2. A ramp seen through watch: the actuator steps up, the sensor follows.
dcmctl set HeadYaw/Hardness/Actuator 1 >"$T/out" 2>&1
check $? "dcmctl set HeadYaw/Hardness/Actuator 1"
# watch first (it prints its header once its keys are looked up), then the
# command, so the frames cover the whole ramp: 60 cycles, times the
# slowdown (the ramp starts when dcmctl set has run). The ramp runs again
# (up to 10 times) when the frames could not show it whole, by the host's
# timing, not dcm's: the ramp ended (the time dcmctl set prints) after the
# last frame, as dcmctl set started late; or a cycle fault (the guest
# stalled past 500 ms) cut the hardness, and a joint whose hardness sent is
# 0 has its command follow its sensor. The checks below are of the first
# run that the frames show whole, or of the last one.
wcycles=$((60 * slow))
tries=0
while :; do
	tries=$((tries + 1))
	dcmctl set $ACT 0 >/dev/null
	i=0
	while ! near "$(get $SENS/Value)" 0 0.01 && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	wait_until 3 unfaulted
	safe0=$(safety_state)
	dcmctl watch $ACT $SENS --cycles $wcycles >"$T/watch" 2>"$T/watch.err" &
	wpid=$!
	i=0
	while [ ! -s "$T/watch" ] && [ $i -lt $((100 * slow)) ]; do
		sleep 0.02
		i=$((i + 1))
	done
	dcmctl set $ACT 0.3 --in 300 >"$T/set" 2>&1
	set_rc=$?
	wait $wpid
	watch_rc=$?
	last_act=$(tail -1 "$T/watch" | awk '{ print $3 }')
	got=$(get $ACT/Value)
	safe1=$(safety_state)
	# the ramp's end, as dcmctl set prints it: "0.300000 at TIME (+300 ms)"
	end=$(sed -n 's/.* at \([0-9]*\) (+300 ms)$/\1/p' "$T/set")
	last_t=$(tail -1 "$T/watch" | awk '{ print $2 }')
	whole=1
	[ "$safe1" = "$safe0" ] || whole=0
	[ -n "$end" ] && [ -n "$last_t" ] && [ "$last_t" -lt "$end" ] && whole=0
	[ $whole = 1 ] || [ $tries -ge 10 ] && break
	echo "# run $tries of the ramp not seen whole (safety $safe0 -> $safe1; ends at ${end:-?}, last frame ${last_t:-?}): again"
done
[ $set_rc = 0 ] && grep -q "^$ACT: clear-all, 1 point" "$T/set" && grep -q "0.300000 at .*(+300 ms)" "$T/set"
check $? "dcmctl set $ACT 0.3 --in 300: $(tail -1 "$T/set")"
lines=$(awk 'NR > 1' "$T/watch" | wc -l)
[ $watch_rc = 0 ] && [ "$(head -1 "$T/watch")" = "cycle time $ACT $SENS" ] && [ "$lines" = $wcycles ]
check $? "dcmctl watch --cycles $wcycles: a header and $wcycles lines (rc $watch_rc)"
[ $watch_rc = 0 ] || diag "$T/watch.err"
# cycles and times strictly increase; the actuator never goes down, takes
# intermediate values (a ramp, not a jump) and ends at 0.3 (quantized)
awk 'NR > 1 {
	if (NR > 2 && ($1 <= c || $2 <= t || $3 < a - 0.000001)) bad = 1
	if ($3 > 0.01 && $3 < 0.29) mid++
	c = $1; t = $2; a = $3
} END { exit !(!bad && mid >= 5 && a > 0.2995 && a < 0.3005) }' "$T/watch"
r=$?
check $r "the actuator ramps 0 -> 0.3 ($(awk 'NR > 1 && $3 > 0.01 && $3 < 0.29' "$T/watch" | wc -l) steps between, ends $(tail -1 "$T/watch" | awk '{ print $3 }'))"
[ $r = 0 ] || diag "$T/watch"
awk 'NR == 2 { s0 = $4 } NR > 1 { s = $4 } END { exit !(s0 < 0.05 && s > 0.2) }' "$T/watch"
check $? "the sensor follows ($(awk 'NR == 2 { print $4 }' "$T/watch") -> $(tail -1 "$T/watch" | awk '{ print $4 }'))"
[ "$got" = "$last_act" ]
check $? "dcmctl get agrees with the last frame ($got, $last_act)"
sleep "$(scaled 0.5)"
s_get=$(get $SENS/Value)
near "$s_get" 0.3 0.02
check $? "the joint settles at the command ($s_get)"

# 3. Several points: each applies at its time, in order. (A joint with no
# stiffness has its command follow its sensor: stiffen them all first.) The
# times and the samples between them stretch by the slowdown.
for h in /sys/class/dcm/dcm0/SubDeviceList/*/Hardness/Actuator/Value; do
	echo 1 >"$h"
done
p1=$((100 * slow))
p2=$((400 * slow))
dcmctl set HeadPitch/Position/Actuator 0.2@$p1 -0.2@$p2 --kind merge >"$T/out" 2>&1
rc=$?
sleep "$(scaled 0.2)"
mid=$(get HeadPitch/Position/Actuator/Value)
sleep "$(scaled 0.4)"
end=$(get HeadPitch/Position/Actuator/Value)
[ $rc = 0 ] && awk -v m="$mid" 'BEGIN { exit !(m < 0.2 && m > -0.2) }' && near "$end" -0.2 0.0002
check $? "two points 0.2@$p1 -0.2@$p2: between them $mid, at the end $end"

# 4. An alias of the 26 Position/Actuator keys, set time-separate.
dcmctl list '*/Position/Actuator/Value' | sed -e 's|^Device/SubDeviceList/||' \
	-e 's|/Value$||' >"$T/joints"
nj=$(wc -l <"$T/joints")
# shellcheck disable=SC2046
dcmctl alias create alljoints $(cat "$T/joints") >"$T/alias" 2>&1
rc=$?
[ "$nj" = 26 ] && [ $rc = 0 ] && [ "$(head -1 "$T/alias")" = "alias alljoints: 26 members, 0 blank" ]
check $? "dcmctl alias create alljoints: $(head -1 "$T/alias")"
# list's pattern is get's and watch's glob: a subdevice without its /Value
# lists its Value, every one the tree has; a pattern that matches nothing
# exits 1.
dcmctl list '*/Hardness/Actuator' >"$T/hard" 2>&1
rc=$?
nh=$(dcmctl list | grep -c '^Device/SubDeviceList/.*/Hardness/Actuator/Value$')
[ $rc = 0 ] && [ "$nh" -gt 0 ] && [ "$(wc -l <"$T/hard")" = "$nh" ] &&
	[ "$(grep -c '/Hardness/Actuator/Value$' "$T/hard")" = "$nh" ]
check $? "dcmctl list '*/Hardness/Actuator': $(wc -l <"$T/hard") of $nh stiffness values (exit $rc)"
dcmctl list 'NoSuchJoint*' >"$T/none" 2>&1
rc=$?
[ $rc = 1 ] && [ "$(cat "$T/none")" = "dcmctl: NoSuchJoint*: no key matches" ]
check $? "dcmctl list 'NoSuchJoint*' exits 1 (exit $rc: $(head -1 "$T/none"))"
# Min and Max of each joint, to know where a value is held: "JOINT MIN MAX"
# shellcheck disable=SC2046
dcmctl get -q $(sed 's|.*|&/Min &/Max|' "$T/joints") |
	awk 'NR % 2 { lo = $1; next } { print lo, $1 }' >"$T/minmax"
awk 'NR == FNR { j[FNR] = $1; next } { print j[FNR], $0 }' "$T/joints" "$T/minmax" >"$T/range"
alias_moves() {
	v=$1
	vals=
	while read -r _; do
		vals="$vals $v"
	done <"$T/joints"
	# shellcheck disable=SC2086
	dcmctl alias set alljoints --separate --times 0 $vals >"$T/aset" 2>&1 || return 1
	sleep "$(scaled 0.1)"
	# shellcheck disable=SC2046
	dcmctl get -q $(sed 's|$|/Value|' "$T/joints") >"$T/values"
	awk 'NR == FNR { r[FNR] = $0; next } { print r[FNR], $1 }' "$T/range" "$T/values" >"$T/after"
	[ "$(wc -l <"$T/after")" = 26 ] || return 1
	awk -v v="$v" '{
		e = v; if (e < $2) e = $2; if (e > $3) e = $3
		d = $4 - e; if (d < 0) d = -d
		if (d > 0.0002) { print "# " $1 ": " $4 ", expected " e; bad = 1 }
	} END { exit bad }' "$T/after"
}
alias_moves 0.05
check $? "alias set alljoints --separate --times 0 (26 x 0.05): every joint reads 0.05 (or its limit)"
alias_moves -0.05
check $? "the same with -0.05: every joint moved again"
grep -q "^alias alljoints: time-separate, clear-all, 26 members, 1 time" "$T/aset"
check $? "alias set says what it did: $(head -1 "$T/aset")"
dcmctl alias create some $ACT Nope/Position/Actuator $SENS >"$T/alias" 2>&1
rc=$?
[ $rc = 0 ] && grep -q "^alias some: 3 members, 2 blank" "$T/alias" &&
	grep -q "Nope/Position/Actuator (blank: no such actuator)" "$T/alias" &&
	grep -q "$SENS (blank: no such actuator)" "$T/alias"
check $? "blank members are marked (an unknown name, a sensor)"

# 4b. set on an alias name (NAOqi's set): every member the same command; a
# member name too long for a key is blank, not an error.
long=$(printf 'x%.0s' $(seq 1 130))
dcmctl alias create a1 HeadYaw/Position/Actuator "$long" HeadPitch/Position/Actuator \
	>"$T/alias" 2>&1
rc=$?
[ $rc = 0 ] && grep -q "^alias a1: 3 members, 1 blank" "$T/alias"
check $? "alias create with a 130-byte member name: $(head -1 "$T/alias")"
# Both members at $1, within a joint's quantization (as above).
both_at() {
	near "$(get HeadYaw/Position/Actuator/Value)" "$1" 0.0002 &&
		near "$(get HeadPitch/Position/Actuator/Value)" "$1" 0.0002
}
alias_both() {
	dcmctl set a1 "$1" >"$T/aset1" 2>&1 || return 1
	wait_until 3 both_at "$1"
}
alias_both 0.1
check $? "dcmctl set a1 0.1: HeadYaw and HeadPitch both read 0.1 ($(head -1 "$T/aset1"))"
alias_both -0.1
check $? "dcmctl set a1 -0.1: both read -0.1"
grep -q "^alias a1: clear-all, 1 point" "$T/aset1"
check $? "set on an alias says so: $(head -1 "$T/aset1")"

# 4c. alias list, show, delete: dcmctl's aliases are shared; delete frees them.
dcmctl alias list >"$T/alist" 2>&1
rc=$?
[ $rc = 0 ] && grep -q "^a1	3 members$" "$T/alist" && grep -q "^alljoints	26 members$" "$T/alist"
check $? "alias list shows a1 and alljoints: $(tr '\n' ' ' <"$T/alist")"
dcmctl alias show a1 >"$T/ashow" 2>&1
rc=$?
[ $rc = 0 ] && grep -q "^alias a1: 3 members, 1 blank" "$T/ashow" &&
	grep -q "^	HeadPitch/Position/Actuator$" "$T/ashow"
check $? "alias show a1: its members, the blank one marked"
dcmctl -j alias list >"$T/json" && json_ok "$T/json" whole array && grep -q '"a1"' "$T/json"
check $? "-j alias list is one JSON array"
dcmctl -j alias show a1 >"$T/json" && json_ok "$T/json" whole object &&
	grep -Eq '"blank": ?1' "$T/json"
check $? "-j alias show is one JSON object"
dcmctl alias delete a1 some >"$T/adel" 2>&1 && ! dcmctl alias list | grep -q "^a1	" &&
	! dcmctl alias show a1 >/dev/null 2>&1
check $? "alias delete a1 some: gone from the list ($(head -1 "$T/adel"))"
dcmctl alias delete a1 >/dev/null 2>"$T/err"
[ $? = 1 ] && grep -q "no alias a1" "$T/err"
check $? "an unknown alias to delete: exit 1, $(head -1 "$T/err")"
dcmctl alias show >/dev/null 2>"$T/err"
[ $? = 2 ] && grep -q "which alias" "$T/err"
check $? "alias show without a name: exit 2, $(head -1 "$T/err")"
# 4d. watch of live keys (their handles, in frames): one value per cycle each.
dcmctl watch HeadYaw/Position/Sensor Device/DeviceList/ChestBoard/Available \
	HeadYaw/Temperature/Sensor/Status --cycles 3 >"$T/wkeys" 2>&1
rc=$?
[ $rc = 0 ] && [ "$(wc -l <"$T/wkeys")" = 4 ] &&
	awk 'NR > 1 && ($4 != "1.000000" || NF != 5) { bad = 1 } END { exit bad }' "$T/wkeys"
check $? "watch of live keys: ChestBoard/Available reads 1 in each frame ($(tail -1 "$T/wkeys"))"

# 5. An eye LED asked 0.4 reads back quantized by its Gain.
LED=Face/Led/Red/Left/0Deg/Actuator
dcmctl set $LED 0.4 >/dev/null 2>&1
rc=$?
sleep "$(scaled 0.1)"
led=$(get $LED/Value)
gain=$(get $LED/Gain)
want=$(awk -v g="$gain" 'BEGIN { r = int(0.4 / g + 0.5); printf "%.6f", r * g }')
[ $rc = 0 ] && [ "$led" != 0.400000 ] && near "$led" "$want" 0.000002
check $? "an eye LED asked 0.4 reads $led (Gain $gain: $want)"

# 6. stats: the cycles go on.
c1=$(dcmctl stats | awk '/^cycles:/ { print $2 }')
sleep 0.2
# 10 cycles on (20 in the 0.2 s on an idle host), however long they take.
stats_on() {
	dcmctl stats >"$T/stats"
	c2=$(awk '/^cycles:/ { print $2 }' "$T/stats")
	[ -n "$c1" ] && [ $((c2 - c1)) -ge 10 ]
}
wait_until 10 stats_on
[ -n "$c1" ] && [ $((c2 - c1)) -ge 10 ] && grep -q "^latency histogram:" "$T/stats" &&
	[ "$(grep -cE ' (us|ms): ' "$T/stats")" = 10 ]
check $? "dcmctl stats: cycles $c1 -> $c2, a latency histogram of 10 buckets"

# 7. JSON, every command.
jcheck() {
	what=$1
	open=$2
	shift 2
	"$@" >"$T/json" 2>"$T/json.err"
	rc=$?
	[ $rc = 0 ] && json_ok "$T/json" whole "$open"
	r=$?
	check $r "-j $what is one JSON $open"
	[ $r = 0 ] || { diag "$T/json"; diag "$T/json.err"; }
}
jcheck time object dcmctl -j time
jcheck "time 50" object dcmctl -j time 50
jcheck set object dcmctl -j set $ACT 0.1
jcheck "set (points)" object dcmctl -j set $ACT 0.1@0 0.2@100 --kind merge --importance 3
jcheck "alias create" object dcmctl -j alias create some $ACT Nope/Position/Actuator
jcheck "alias set --separate" object dcmctl -j alias set some --separate --times 0,100 0.1,0.2 0,0
jcheck "alias set --mixed" object dcmctl -j alias set some --mixed 0.1@0,0.2@100 ""
jcheck stats object dcmctl -j stats
jcheck "-p stats" object dcmctl -j -p stats
jcheck get array dcmctl -j get $ACT/Value
dcmctl -j watch $ACT $SENS --cycles 5 >"$T/json" 2>&1
rc=$?
[ $rc = 0 ] && [ "$(wc -l <"$T/json")" = 5 ] && json_ok "$T/json" &&
	grep -q "\"values\":{\"$ACT\":" "$T/json"
check $? "-j watch: 5 lines, each one JSON object"
r=0
json_ok "$T/json" whole || r=$?
[ "$r" != 0 ]
check $? "the JSON check refuses what is not one object (5 lines together)"

# 8. Errors: a message, a non-zero status, nothing changed.
dcmctl set $ACT 0.25 >/dev/null
sleep "$(scaled 0.1)"
before=$(get $ACT/Value)
err_case() {
	what=$1
	want_rc=$2
	want_msg=$3
	shift 3
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	sleep 0.05
	after=$(get $ACT/Value)
	[ $rc = "$want_rc" ] && grep -q -- "$want_msg" "$T/err" && [ "$after" = "$before" ]
	r=$?
	check $r "$what: exit $rc, $(head -1 "$T/err")"
	[ $r = 0 ] || { diag "$T/out"; diag "$T/err"; echo "# value $before -> $after"; }
}
err_case "an unknown key" 1 "^dcmctl: Nope/Position/Actuator: no such key or alias$" \
	dcmctl set Nope/Position/Actuator 0.1
err_case "a sensor as the target" 1 "$SENS: not an actuator" dcmctl set $SENS 0.1
err_case "a bad value" 2 "invalid value 'abc'" dcmctl set $ACT abc
err_case "a NaN" 2 "invalid value 'nan'" dcmctl set $ACT nan
err_case "a bad kind" 2 "invalid kind 'sometimes'" dcmctl set $ACT 0.1 --kind sometimes
err_case "a bad point" 2 "invalid point '0.1@soon'" dcmctl set $ACT 0.1@soon
err_case "an alias set of the wrong member count" 1 "alias set alljoints: .*Invalid argument" \
	dcmctl alias set alljoints --separate --times 0 0.1 0.1
err_case "an unknown alias" 1 "no such alias" dcmctl alias set nosuchalias --mixed 0.1@0
err_case "an unknown key to watch" 1 "Nope: no such key" dcmctl watch $ACT Nope --cycles 1
dcmctl -j set Nope/Position/Actuator 0.1 >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 1 ] && [ ! -s "$T/out" ] && grep -q "no such key" "$T/err"
check $? "-j with an error: exit 1, the message on stderr, nothing on stdout"

totals
