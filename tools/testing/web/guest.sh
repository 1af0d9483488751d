#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest's half of test_web.py: checks that /init brought the loopback
# up, brings up the network card that QEMU
# forwards the host's ports to (10.0.2.15, user networking), starts dcm-lola
# (whose status the metrics read), dcm-web on port 8080 and a second one
# for the hostile peers' tests on port 8081 (64 descriptors: 16
# connections; 2 s timeouts; 4 WebSocket clients), and answers the host's
# requests on port 9000, one line a connection:
#   set KEY VALUE [ARGS]   dcmctl set KEY VALUE [ARGS]; answers "ok" or the error
#   hot BUS MASK           the simulator holds the motors of MASK's boards on
#                          RS485 bus BUS hot (debugfs rs485-BUS/hot)
#   stat2                  the second dcm-web's CPU time, log and descriptors:
#                          "ok UTIME STIME CLK_TCK ACCEPT_LINES LINES FDS"
#                          (/proc/PID/stat's ticks; lines of its log naming
#                          accept, all lines; descriptors open)
#   flood PORT N SECS      flood.py: N idle connections to 127.0.0.1:PORT,
#                          held SECS at most, in the background
#   floodstat              its state: "ok OPENED CLOSED DONE"
#   quit                   stops the dcm-webs and ends the run
set -u

if [ "${1:-}" = --ctl ]; then
	read -r cmd args || exit 0
	case "$cmd" in
	set)
		# shellcheck disable=SC2086 # the arguments are words
		if out=$(dcmctl set $args 2>&1); then echo ok; else echo "error: $out"; fi
		;;
	hot)
		# shellcheck disable=SC2086 # the arguments are words
		set -- $args
		case "$1:$2" in
		[1-4]:0x[0-9a-fA-F]* | [1-4]:[0-9]*)
			if echo "$2" 2>/tmp/hot.err >/sys/kernel/debug/dcm_sim/body0/rs485-"$1"/hot; then
				echo ok
			else
				echo "error: $(cat /tmp/hot.err)"
			fi
			;;
		*) echo "error: hot BUS MASK, not '$args'" ;;
		esac
		;;
	stat2)
		pid=$(cat /tmp/dcm-web2.pid)
		# After "PID (comm) ": field 3 (state) is $1, utime (14) $12.
		# shellcheck disable=SC2086 # the fields are words
		if st=$(sed 's/^.*) //' /proc/"$pid"/stat 2>/dev/null) && set -- $st &&
			[ $# -ge 13 ]; then
			echo "ok ${12} ${13} $(getconf CLK_TCK 2>/dev/null || echo 100)" \
				"$(grep -c accept /tmp/dcm-web2.log)" "$(wc -l </tmp/dcm-web2.log)" \
				"$(set -- /proc/"$pid"/fd/*; echo $#)"
		else
			echo "error: no dcm-web $pid"
		fi
		;;
	flood)
		# shellcheck disable=SC2086 # the arguments are words
		set -- $args
		rm -f /tmp/flood.state
		python3 /share/flood.py "$1" "$2" "$3" </dev/null >/tmp/flood.log 2>&1 &
		i=0
		while [ ! -e /tmp/flood.state ] && [ $i -lt 100 ]; do
			i=$((i + 1))
			sleep 0.1
		done
		if [ -e /tmp/flood.state ]; then echo ok; else echo "error: $(cat /tmp/flood.log)"; fi
		;;
	floodstat)
		if [ -e /tmp/flood.state ]; then
			echo "ok $(cat /tmp/flood.state)"
		else
			echo "error: no flood: $(cat /tmp/flood.log 2>/dev/null)"
		fi
		;;
	quit)
		touch /tmp/web-test-quit
		echo ok
		;;
	*)
		echo "error: unknown request '$cmd'"
		;;
	esac
	exit 0
fi

# The waits below stretch by DCM_TEST_TIMEOUT_SCALE (the debug kernel's).
scale=${DCM_TEST_TIMEOUT_SCALE:-1}
scale=${scale%%.*}
case "$scale" in '' | *[!0-9]* | 0) scale=1 ;; esac

modprobe virtio_pci 2>/dev/null
modprobe virtio_net || { echo "guest: no virtio_net" >&2; exit 1; }
i=0
while ! ip link show eth0 >/dev/null 2>&1; do
	i=$((i + 1))
	[ $i -gt $((100 * scale)) ] && { echo "guest: no eth0" >&2; exit 1; }
	sleep 0.1
done
# The VM's /init brings the loopback up (flood.py connects through it).
ip -o link show lo | grep -q '[<,]UP[,>]' || { echo "guest: lo is down" >&2; exit 1; }
ip link set eth0 up
ip addr add 10.0.2.15/24 dev eth0

# The description dcmd loads: the joints' keys are there.
i=0
while ! dcmctl get HeadYaw/Position/Sensor >/dev/null 2>&1; do
	i=$((i + 1))
	[ $i -gt $((600 * scale)) ] && { echo "guest: no description loaded" >&2; exit 1; }
	sleep 0.1
done

# dcm-lola, whose status socket (/tmp/robocup.status) the metrics read.
dcm-lola 2>/tmp/dcm-lola.log &
lola=$!
i=0
while [ ! -S /tmp/robocup.status ]; do
	i=$((i + 1))
	[ $i -gt $((300 * scale)) ] && { echo "guest: dcm-lola did not start" >&2; cat /tmp/dcm-lola.log >&2; exit 1; }
	sleep 0.1
done

# Its timeouts (5 s by default) stretch by the scale too: the debug
# kernel's guest, tenfold slower, starves dcm-web of the CPU for seconds,
# and a client that reads was dropped as stalled. Its WebSocket timeout is
# 30 s: test_slow_reader_keeps_events keeps a client from reading while a
# motor turns hot. The second one's timeouts are what the hostile peers'
# tests are about: those stay.
dcm-web -v -p 8080 -t $((5 * scale)) -w $((30 * scale)) 2>/tmp/dcm-web.log &
web=$!
# The hostile peers' (test_web.py's test_flood and test_stalled_ws).
# shellcheck disable=SC3045 # busybox's ash has ulimit -n
(ulimit -n 64 && exec dcm-web -v -p 8081 -l none -m 4 -t 2 -w 2) 2>/tmp/dcm-web2.log &
web2=$!
echo $web2 >/tmp/dcm-web2.pid
nc -ll -p 9000 -e "$0" --ctl &
ctl=$!
while [ ! -e /tmp/web-test-quit ]; do
	if ! kill -0 $web 2>/dev/null; then
		echo "guest: dcm-web exited" >&2
		cat /tmp/dcm-web.log >&2
		kill $ctl $lola
		exit 1
	fi
	sleep 0.2
done
kill $web $web2
wait $web
st=$?
wait $web2
st2=$?
kill $ctl $lola 2>/dev/null
# dcm-lola gone too: nothing holds dcm0 after this script (make
# check-debug unloads dcm then, for kmemleak's last scan).
wait $lola 2>/dev/null
cat /tmp/dcm-web.log
echo "guest: the second dcm-web exited with $st2, its log ($(wc -l </tmp/dcm-web2.log) lines) ends:"
tail -n 30 /tmp/dcm-web2.log
[ "$st" = 0 ] && st=$st2
# SIGTERM: dcm-web exits 0.
exit $st
