#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh: the robot image's own checks, run at boot by
# dcm-image-check.service (scripts/image-test.sh installs both into the
# image; neither is in dcm's packages). It checks what a robot's user sees
# after `apt install` of dcm's packages: the group dcm, /dev/dcm0, the
# modules DKMS built for the running kernel and loaded at boot, dcmd@0
# READY with its journal, a member of dcm reading and commanding, dcm-lola
# enabled and a LoLA client served, the flight recorder running as its
# user and writing a file on demand. On the generic kernel it then powers
# off for the next boot; on Debian's PREEMPT_RT kernel (the second boot) it
# also purges the packages and checks nothing of them is left.
#
# Prints TAP between the lines @@DCM-IMAGE-BEGIN@@ and @@DCM-IMAGE-END@@
# on the serial console, figures as "# figure: ..." lines, then powers off.
set -u

USER_NAME=nao
PKGS="dcm-dkms dcm-tools libdcm0 libdcm-desc0 python3-dcm"
. "$(dirname "$0")/tap.sh"

echo "@@DCM-IMAGE-BEGIN@@"
say "kernel $kver, $(systemd --version | head -1)"
: >/tmp/check.log

# -- the group, the device ----------------------------------------------
getent group dcm >/tmp/check.log
check $? "the group dcm exists ($(getent group dcm))"

# dcm-web is a package of its own, which this image does not install: its
# libwebsockets (and OpenSSL through it) are not there either.
! dpkg-query -W -f='${Package} ${Status}\n' 'dcm-web' 'libwebsockets*' 2>/dev/null |
	grep ' installed$' >/tmp/check.log
check $? "no dcm-web, no libwebsockets: dcm-tools does not bring them"

wait_for 60 test -c /dev/dcm0
[ "$(stat -c %G:%a /dev/dcm0 2>&1 | tee /tmp/check.log)" = dcm:664 ]
check $? "/dev/dcm0 belongs to the group dcm, mode 0664 ($(stat -c '%U:%G %a' /dev/dcm0 2>&1))"

# -- DKMS and the modules ------------------------------------------------
# (dkms writes "Broken pipe" on stderr from a pipe of its own)
dkms status -m dcm >/tmp/check.log 2>/dev/null
say "dkms status: $(tr '\n' ';' </tmp/check.log)"
grep -q "^dcm/[^,]*, $kver, x86_64: installed" /tmp/check.log
check $? "DKMS built and installed dcm for the running kernel $kver"

for k in /lib/modules/*/; do
	k=$(basename "$k")
	[ -d "/lib/modules/$k/build" ] || continue
	dkms status -m dcm -k "$k" 2>&1 | grep -q ': installed' || echo "no dcm for $k"
done >/tmp/check.log
[ ! -s /tmp/check.log ]
check $? "DKMS built dcm for every kernel of the image: $(cd /lib/modules && echo *)"

mod=$(modinfo -n dcm 2>&1)
echo "$mod" >/tmp/check.log
case "$mod" in /lib/modules/"$kver"/updates/dkms/dcm.ko*) st=0 ;; *) st=1 ;; esac
check $st "modinfo: dcm is DKMS's module ($mod, version $(modinfo -F version dcm 2>/dev/null))"

[ -d /sys/module/dcm ] && grep -q '^dcm ' /proc/modules
check $? "dcm loaded at boot (modules-load.d)"

[ "$(cat /sys/module/dcm/parameters/gid 2>/dev/null)" = "$(getent group dcm | cut -d: -f3)" ] \
	2>/tmp/check.log
check $? "modprobe.d gave dcm the group's gid ($(cat /sys/module/dcm/parameters/gid 2>/dev/null))"

# -- dcmd@0 ---------------------------------------------------------------
# shellcheck disable=SC2016 # expanded by that sh
wait_for 300 sh -c '[ "$(systemctl show -P ActiveState dcmd@0.service)" = active ]'
systemctl show -p ActiveState -p SubState -p StatusText -p NRestarts dcmd@0.service >/tmp/check.log
say "dcmd@0: $(tr '\n' ' ' </tmp/check.log)"
grep -qx ActiveState=active /tmp/check.log
check $? "dcmd@0 reached READY (active, Type=notify)"

ready=$(systemctl show -P ActiveEnterTimestampMonotonic dcmd@0.service)
say "figure: boot to dcmd@0 READY: $(awk -v u="$ready" 'BEGIN { printf "%.1f", u / 1e6 }') s" \
	"(kernel start to READY=1, $kver)"

journalctl -b -u dcmd@0.service -o cat --no-pager >/tmp/journal 2>&1
say "dcmd@0's journal: $(wc -l </tmp/journal) lines, first: $(head -1 /tmp/journal)"
say "its most frequent lines (numbers as N):"
sed 's/[0-9][0-9.]*/N/g' /tmp/journal | sort | uniq -c | sort -rn | head -3 | sed 's/^/#   /'
grep -q . /tmp/journal && journalctl -b -o cat _COMM=dcmd --no-pager | grep -q .
check $? "dcmd@0's lines are in the journal"

systemctl is-enabled dcmd@0.service >/tmp/check.log 2>&1
check $? "dcmd@0 enabled by the package's preset"

# -- a user of the group reads and commands -------------------------------
id -nG "$USER_NAME" | tr ' ' '\n' | grep -qx dcm
check $? "$USER_NAME is a member of dcm ($(id "$USER_NAME"))"

as_user dcmctl info >/tmp/check.log 2>&1 && grep -q 'dcm0' /tmp/check.log
check $? "$USER_NAME: dcmctl info"

# dcmctl get prints "KEY VALUE".
v=$(as_user dcmctl get HeadYaw/Position/Sensor 2>/tmp/check.log | awk '{ print $NF }')
case "$v" in '' | *[!0-9.eE+-]*) st=1 ;; *) st=0 ;; esac
check $st "$USER_NAME: dcmctl get HeadYaw/Position/Sensor reads $v"

as_user dcmctl set HeadYaw/Hardness/Actuator 1 >/tmp/check.log 2>&1 &&
	as_user dcmctl set HeadYaw/Position/Actuator 0.5 --in 300 >>/tmp/check.log 2>&1
check $? "$USER_NAME: dcmctl set HeadYaw's stiffness and a timed position"
sleep 2
v=$(as_user dcmctl get HeadYaw/Position/Sensor 2>>/tmp/check.log | awk '{ print $NF }')
near "${v:-9}" 0.5 0.01
check $? "the joint followed the command: HeadYaw/Position/Sensor reads $v"
as_user dcmctl set HeadYaw/Hardness/Actuator 0 >/dev/null 2>&1

useradd -M -s /usr/sbin/nologin guest 2>/dev/null
! runuser -u guest -- dcmctl set HeadYaw/Hardness/Actuator 1 >/tmp/check.log 2>&1
check $? "a user not in dcm may not command ($(head -1 /tmp/check.log))"
runuser -u guest -- dcmctl get HeadYaw/Position/Sensor >/tmp/check.log 2>&1
check $? "but may read"

# -- dcm-lola and a LoLA client --------------------------------------------
systemctl enable --now dcm-lola.socket dcm-lola.service >/tmp/check.log 2>&1
check $? "systemctl enable --now dcm-lola.socket dcm-lola.service"
[ "$(stat -c %G:%a /tmp/robocup 2>&1)" = dcm:660 ] &&
	systemctl is-active -q dcm-lola.socket 2>>/tmp/check.log
check $? "the socket unit binds /tmp/robocup for the group dcm ($(stat -c '%U:%G %a' /tmp/robocup 2>&1))"
as_user python3 - >/tmp/check.log 2>&1 <<'PY'
import socket, msgpack
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(30)
s.connect("/tmp/robocup")
for i in range(3):
    buf = b""
    while len(buf) < 896:
        chunk = s.recv(896 - len(buf))
        if not chunk:
            raise SystemExit("the socket closed after %d bytes" % len(buf))
        buf += chunk
    m = msgpack.Unpacker(raw=False)
    m.feed(buf)
    packet = next(m)
    assert len(packet["Position"]) == 25, packet.keys()
    assert len(packet["RobotConfig"]) == 4
# a command: the chest LED, as a LoLA client sends one
s.sendall(msgpack.packb({"Chest": [0.0, 0.5, 0.0]}))
print("HeadYaw", packet["Position"][0], "RobotConfig", packet["RobotConfig"])
PY
st=$?
say "LoLA client: $(tail -1 /tmp/check.log)"
check $st "$USER_NAME's LoLA client read three sensor maps from /tmp/robocup and sent a command"
systemctl show -p ActiveState dcm-lola.service >/tmp/check.log
grep -qx ActiveState=active /tmp/check.log
check $? "dcm-lola.service active after serving the client"

# -- the flight recorder ---------------------------------------------------
# shellcheck disable=SC2016 # expanded by that sh
wait_for 120 sh -c '[ "$(systemctl show -P ActiveState dcm-flight.service)" = active ] &&
	[ -s /var/lib/dcm/flight/flight.pid ]'
systemctl is-enabled dcm-flight.service >/tmp/check.log 2>&1 &&
	systemctl show -p ActiveState -p NRestarts dcm-flight.service >>/tmp/check.log &&
	grep -qx ActiveState=active /tmp/check.log
check $? "dcm-flight enabled by the package's preset and active ($(tr '\n' ' ' </tmp/check.log))"
fpid=$(systemctl show -P MainPID dcm-flight.service)
{
	stat -c '%U:%G' "/proc/$fpid"
	id dcm-flight
	ps -L -o cls=,rtprio= -p "$fpid"
} >/tmp/check.log 2>&1
[ "$(stat -c %U "/proc/$fpid")" = dcm-flight ] && ! id -nG dcm-flight | tr ' ' '\n' | grep -qx dcm &&
	ps -L -o cls=,rtprio= -p "$fpid" | grep -q '^ *FF *1$'
check $? "it runs as dcm-flight, not in dcm, its reader thread at SCHED_FIFO 1 ($(tr '\n' ' ' </tmp/check.log))"
! as_user dcmctl flight-dump --timeout 5 >/tmp/check.log 2>&1
check $? "$USER_NAME may not ask the recorder for a file ($(head -1 /tmp/check.log))"
f=$(dcmctl flight-dump 2>/tmp/check.log)
st=$?
rows=$(as_user grep -c '^{"cycle"' "$f" 2>/dev/null)
say "flight file: $f, $rows rows, $(stat -c '%U:%G %a %s' "$f" 2>&1) bytes"
[ "$st" = 0 ] && case "$f" in /var/lib/dcm/flight/flight-*-dcm0.jsonl) true ;; *) false ;; esac &&
	as_user head -n 1 "$f" | grep -q '"reason":"on demand"' &&
	as_user tail -n 1 "$f" | grep -q '^{"end":{"rows":' && [ "${rows:-0}" -ge 100 ] &&
	[ "$(readlink /var/lib/dcm/flight/flight-latest.jsonl)" = "$(basename "$f")" ]
check $? "root's flight-dump: a file in /var/lib/dcm/flight that $USER_NAME reads, on demand, $rows rows"

# -- the second flavour, then purge ----------------------------------------
case "$kver" in
*-rt-*)
	grep -q PREEMPT_RT /sys/kernel/realtime 2>/dev/null || uname -v | grep -q PREEMPT_RT
	check $? "the running kernel is PREEMPT_RT ($(uname -v))"

	for p in $PKGS; do dpkg -L "$p"; done 2>/dev/null | sort -u >/tmp/files
	say "the packages own $(wc -l </tmp/files) paths"
	t0=$(date +%s)
	# shellcheck disable=SC2086 # a list of packages
	DEBIAN_FRONTEND=noninteractive apt-get purge -y $PKGS >/tmp/purge.log 2>&1
	st=$?
	say "figure: apt-get purge took $(($(date +%s) - t0)) s"
	cp /tmp/purge.log /tmp/check.log
	check $st "apt-get purge $PKGS"

	# shellcheck disable=SC2086 # a list of packages
	dpkg -l $PKGS 2>/dev/null | grep '^[a-z][a-z] ' | grep -v '^un\|^pn' >/tmp/check.log
	[ ! -s /tmp/check.log ]
	check $? "dpkg knows none of the packages any more"
	# Directories (and /lib, a link to one on Debian 12) are shared with
	# other packages: only dcm's own must be gone.
	while read -r f; do
		if [ -d "$f" ]; then
			case "$f" in
			/usr/src/dcm-* | /usr/share/dcm | /usr/share/doc/dcm* | /etc/dcm | \
				/usr/lib/python3/dist-packages/dcm) echo "left: $f/" ;;
			esac
		elif [ -e "$f" ] || [ -L "$f" ]; then
			echo "left: $f"
		fi
	done </tmp/files >/tmp/check.log
	[ ! -s /tmp/check.log ]
	check $? "no file of the packages is left"
	{
		ls -d /var/lib/dkms/dcm /usr/src/dcm-* 2>/dev/null
		find /lib/modules -name 'dcm*.ko*' 2>/dev/null
		find /etc/systemd/system -name 'dcm*' ! -name 'dcm-image-check.service'
		ls /etc/dcm 2>/dev/null
		ls -d /var/lib/dcm 2>/dev/null
	} >/tmp/check.log
	[ ! -s /tmp/check.log ]
	check $? "no DKMS tree, no module, no enabled unit, no /etc/dcm, no flight files left"
	# (pgrep matches the 15 characters of a process's name: two patterns)
	{
		pgrep -a 'dcmd|dcm-lola'
		pgrep -a dcmctl
	} >/tmp/check.log
	[ ! -s /tmp/check.log ]
	check $? "no dcmd, dcm-lola or flight recorder runs after the purge"
	# Debian leaves a package's system group in place on purge (files may
	# still carry its gid; Debian Policy 9.2.2, and the sysusers practice):
	# the group dcm stays.
	getent group dcm >/tmp/check.log
	check $? "the group dcm stays after the purge, as Debian does with system groups"
	;;
esac

echo "@@DCM-IMAGE-END@@"
