#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dcm_top_test.sh: dcmctl top on an 80x24 pseudo-terminal (dcm_pty.py), with
# HeadYaw moved the way `make run` moves it (scripts/vm/demo.sh: stiffness
# on, then a position over a few hundred ms): its row shows the sensor
# going to the command; nothing passes the 80x24 screen; a resize is
# followed; a hot motor's temperature status and event show; q and Ctrl-C
# quit and give the terminal back as it was;
# --once prints one plain screen, and so does each refresh into a file;
# -j is refused. Needs python3 and dcm0 with dcmd's description.

cd "$(dirname "$0")" || exit 1
. ./dcm_tap.sh

command -v python3 >/dev/null 2>&1 || skip_all "no python3"
command -v dcmctl >/dev/null 2>&1 || skip_all "no dcmctl"
[ -d /sys/class/dcm/dcm0/SubDeviceList/HeadYaw ] || skip_all "no description loaded in dcm0"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# HeadYaw stiff, at 0 (the simulated joint takes its time to get there).
dcmctl set HeadYaw/Hardness/Actuator 1 >/dev/null &&
	dcmctl set HeadYaw/Position/Actuator 0 >/dev/null
at_zero() {
	near "$(dcmctl get -q HeadYaw/Position/Sensor/Value)" 0 0.01
}
wait_until 5 at_zero
check $? "HeadYaw stiff and at 0 rad before the view starts"

# The view, every 100 ms; the move of demo.sh, over 1 s so that the screen
# catches it on its way (a loaded VM's late cycle may cut the stiffness and
# delay it: wait for the end); then a larger terminal, then q.
./dcm_pty.py --size 80x24 --timeout 40 \
	'wait ^HeadYaw  15' 'record 0.5' \
	'sh dcmctl set HeadYaw/Position/Actuator 0.6 --in 1000 >/dev/null' \
	'record 1.5' 'wait ^HeadYaw +0\.600 +0\.(59[0-9]|60[0-9])  20' 'record 0.3' 'resize 100x30' 'wait ^HeadYaw  10' 'record 0.5' 'key q' 'exit 5' \
	-- dcmctl top --interval 100 >"$tmp/run" 2>"$tmp/err"
rc=$?
check $rc "dcmctl top ran its steps on the pseudo-terminal"
[ $rc = 0 ] || { sed 's/^/# /' "$tmp/run" "$tmp/err" | tail -n 60; }

# HeadYaw's command and sensor in each frame, in order.
awk '/^@@ frame/ { frame++ } /^\|HeadYaw / { sub(/^\|/, ""); print frame, $2, $3 }' \
	"$tmp/run" >"$tmp/headyaw"
sed 's/^/# HeadYaw frame cmd sensor: /' "$tmp/headyaw" | head -n 40

first=$(awk 'NR == 1 { print $3 }' "$tmp/headyaw")
near "${first:-9}" 0 0.02
check $? "the first frame shows HeadYaw's sensor at 0 ($first)"

# On its way: sensor values strictly between start and end, never going back.
moving=$(awk '$3 > 0.03 && $3 < 0.57 { n[$3] = 1 } END { print length(n) }' "$tmp/headyaw")
[ "${moving:-0}" -ge 2 ]
check $? "frames show HeadYaw moving: $moving sensor values between 0 and 0.6"
awk 'NR > 1 && $3 < prev - 0.01 { bad = 1 } { prev = $3 } END { exit bad }' "$tmp/headyaw"
check $? "HeadYaw's sensor only goes toward the command"
# The command (what the cycle sends) leads the sensor on the way.
awk '$3 > 0.03 && $3 < 0.57 && $2 < $3 - 0.01 { bad = 1 } END { exit bad }' "$tmp/headyaw"
check $? "on the way the command leads the sensor"

last=$(tail -n 1 "$tmp/headyaw")
# shellcheck disable=SC2086
set -- $last
near "${2:-9}" 0.6 0.01 && near "${3:-9}" 0.6 0.03
check $? "the last frame shows HeadYaw at its command: cmd $2 sensor $3"

# Every frame at 80x24 fits: 24 lines of at most 80 characters; the
# footer on the last line.
awk '
	/^@@ frame/ { if (n) check(); n = 0; w = 0; inframe = 1; next }
	/^@@/ { if (n) check(); n = 0; inframe = 0; next }
	inframe { n++; l = $0; sub(/^\|/, "", l); sub(/\|$/, "", l)
		  if (length(l) > w) w = length(l)
		  last = l }
	function check() {
		if (n == 24 && w <= 80 && last ~ /^q: quit/) frames24++
		else if (n != 30 || w > 100 || last !~ /^q: quit/) {
			bad = 1
			print "# a frame of " n " lines, " w " columns, the last: " last
		}
	}
	END { exit !(frames24 >= 5 && !bad) }
' "$tmp/run"
check $? "every frame at 80x24 has 24 lines of 80 characters at most, q: quit on the last"

grep -q '^@@ result .*overflow=0 scroll=0' "$tmp/run"
check $? "nothing wrapped or scrolled: $(grep '^@@ result' "$tmp/run")"

# After the resize: 30 lines, the joints' full names.
awk '/^@@ frame/ { n = 0 } /^\|/ { n++; if (n == 30 && /^\|q: quit/) ok30 = 1 }
     /^\|LShoulderPitch / { full = 1 } END { exit !(ok30 && full) }' "$tmp/run"
check $? "after a resize to 100x30 the screen has 30 lines and full joint names"

grep -q '^@@ result status=0 .*restored=yes alt=off cursor=on' "$tmp/run"
check $? "q quits with status 0, the terminal back as it was"

# Ctrl-Z gives the terminal back while stopped (here, an orphaned process
# group, it is not stopped and draws again); Ctrl-C quits as well.
./dcm_pty.py --size 80x24 --timeout 20 'wait ^HeadYaw  15' 'key \x1a' 'record 0.5' \
	'wait ^HeadYaw  5' 'key \x03' 'exit 5' \
	-- dcmctl top >"$tmp/int" 2>&1
grep -q '^@@ result status=0 .*restored=yes alt=off cursor=on' "$tmp/int"
check $? "Ctrl-Z then Ctrl-C: it quits with status 0, the terminal back: $(grep '^@@ result' "$tmp/int")"

# --once: one screen, no control sequence, 80x24 by default off a terminal.
dcmctl top --once >"$tmp/once" 2>&1
rc=$?
esc=$(printf '\033')
lines=$(wc -l <"$tmp/once")
width=$(awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }' "$tmp/once")
[ $rc = 0 ] && [ "$lines" = 24 ] && [ "$width" -le 80 ] && ! grep -q "$esc" "$tmp/once" &&
	grep -q '^HeadYaw  *0\.6' "$tmp/once" && grep -q '^battery' "$tmp/once"
check $? "top --once: $lines lines, $width columns at most, plain text, HeadYaw at 0.6"
COLUMNS=120 LINES=30 dcmctl top --once | awk 'END { exit NR != 30 }'
check $? "top --once takes \$COLUMNS x \$LINES"

# Live into a file: each refresh as plain text, a blank line after it.
timeout 2 dcmctl top --interval 200 >"$tmp/stream" 2>&1 </dev/null
screens=$(grep -c '^q: quit' "$tmp/stream")
width=$(awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }' "$tmp/stream")
blank=$(awk '/^q: quit/ { q = NR } NR == q + 1 && /^$/ { n++ } END { print n + 0 }' "$tmp/stream")
[ "$screens" -ge 2 ] && [ "$blank" = "$screens" ] && [ "$width" -le 80 ] &&
	! grep -q "$esc" "$tmp/stream" && grep -q '^HeadYaw ' "$tmp/stream"
check $? "top into a file: $screens screens of plain text, each then a blank line, $width columns at most"

dcmctl -j top >"$tmp/json" 2>"$tmp/json.err"
rc=$?
[ $rc = 2 ] && [ ! -s "$tmp/json" ] && grep -q 'top: no JSON output' "$tmp/json.err"
check $? "-j top is refused: exit $rc, $(head -n 1 "$tmp/json.err")"

dcmctl top --interval 10 >/dev/null 2>"$tmp/usage"
rc=$?
[ $rc = 2 ] && grep -q "invalid interval '10'" "$tmp/usage"
check $? "top --interval 10: a usage error (exit $rc)"

# The neck board's motors held at 80 degC (dcm_sim's rs485-1/hot): HeadYaw's
# temperature status 2 (stiffness 70 %) and the neck's temperature events
# show up while top runs. The motors cool over minutes: dcm_sim is reloaded after.
hot=/sys/kernel/debug/dcm_sim/body0/rs485-1/hot
if [ -w "$hot" ] && command -v dcm-sim-reload >/dev/null 2>&1; then
	./dcm_pty.py --size 80x40 --timeout 40 'wait ^HeadYaw  15' \
		"sh echo 1 >$hot" 'wait ^HeadYaw +[-0-9.]+ +[-0-9.]+ +70 +8[0-9] 2  15' \
		'wait ^events, last 30 s: [0-9]+ \([0-9]+ error, [1-9][0-9]* safety\) 10' \
		'wait s ago  temperature Head(Yaw|Pitch)/Temperature/Sensor: temperature status 2:  10' \
		'key q' 'exit 5' \
		-- dcmctl top --interval 100 >"$tmp/hot" 2>&1
	rc=$?
	[ $rc = 0 ] || grep -v '^|' "$tmp/hot" | sed 's/^/# /'
	[ $rc = 0 ] || grep -E '^\|(HeadYaw|events| )' "$tmp/hot" | tail -n 8 | sed 's/^/# /'
	check $rc "a hot neck board: HeadYaw shows status 2 at 70 % and the temperature event"
	echo 0 >"$hot"
	dcm-sim-reload
	check $? "dcm_sim reloaded: the robot cool again"
else
	skip=$((skip + 1))
	n=$((n + 1))
	echo "ok $n a hot neck board # SKIP no $hot or no dcm-sim-reload"
fi

totals
