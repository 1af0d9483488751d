#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dcm_access_test.sh: who may do what, in the VM with the default
# description (dcmd loads it at boot) and dcm loaded with gid=900 (the
# group dcm; /etc/modprobe.d/dcm.conf). Reading is open to everyone;
# commanding needs the group dcm (/dev/dcm0 and actuator Value files are
# 0664 root:dcm) and a file open for writing, which the kernel checks
# itself; configuration needs CAP_NET_ADMIN, whatever the file modes.
#
# The user nao (uid 1000) runs each step twice: outside the group dcm,
# then with dcm as a supplementary group (dcm_access_helper as ...).
#
# POSIX sh (busybox). Prints TAP and ends with the kselftest Totals line.

SYS=/sys/class/dcm/dcm0
SUB=$SYS/SubDeviceList
DIR=$(cd "$(dirname "$0")" && pwd)
H=$DIR/dcm_access_helper
DCM_GID=900

. "$DIR/dcm_tap.sh"

LED=ChestBoard/Led/Red/Actuator
LED2=ChestBoard/Led/Green/Actuator
SENSOR=HeadYaw/Position/Sensor
KP=$SUB/HeadYaw/Position/Actuator/Kp

if [ ! -d "$SUB/HeadYaw" ] || [ ! -x "$H" ]; then
	skip_all "no default description or no dcm_access_helper"
fi

# nao outside the group dcm; nao in it.
other() {
	"$H" as 1000 1000 - "$@"
}
member() {
	"$H" as 1000 1000 $DCM_GID "$@"
}

# expect WANT CMD...: CMD's one-line answer is WANT (and its status fits).
expect() {
	want=$1
	shift
	got=$("$@" 2>&1)
	st=$?
	case "$want" in
	ok*) [ "$st" = 0 ] || return 1 ;;
	*) [ "$st" = 1 ] || return 1 ;;
	esac
	case "$got" in
	"$want"*) return 0 ;;
	esac
	echo "# $*: $got"
	return 1
}

val() {
	cat "$SUB/$1/Value"
}

# 1. The policy in place: modes, groups, the module parameter.
[ "$(cat /sys/module/dcm/parameters/gid)" = $DCM_GID ]
check $? "dcm's gid parameter is $DCM_GID (modprobe.d)"
[ "$(stat -c '%a %u %g' /dev/dcm0)" = "664 0 $DCM_GID" ]
check $? "/dev/dcm0 is 0664 root:dcm ($(stat -c '%a %u %g' /dev/dcm0))"
[ "$(stat -c '%a %g' $SUB/$LED/Value)" = "664 $DCM_GID" ] &&
	[ "$(stat -c '%a' $SUB/$SENSOR/Value)" = 444 ] &&
	[ "$(stat -c '%a %g' $KP)" = "644 $DCM_GID" ] &&
	[ "$(stat -c '%a %g' $SYS/period_us)" = "644 0" ]
check $? "actuator Value 0664, sensor Value 0444, config keys and period_us 0644"
[ "$(stat -c '%a %u %g' $SYS/safety/hardness)" = "444 0 0" ]
check $? "safety/hardness is 0444 root:root ($(stat -c '%a %u %g' $SYS/safety/hardness))"

# 2. Outside the group: everything reads.
v=$(other cat $SUB/$SENSOR/Value) && [ -n "$v" ]
check $? "nao reads a sysfs key ($v)"
v=$(other dcmctl get $SENSOR/Value 2>&1)
check $? "nao runs dcmctl get ($v)"
v=$(other cat $SYS/safety/hardness) &&
	printf '%s\n' "$v" | grep -q '^HeadYaw/Hardness/Actuator -\{0,1\}[0-9]*\.[0-9]\{6\} -\{0,1\}[0-9]*\.[0-9]\{6\}$'
check $? "nao reads safety/hardness, each joint's stiffness commanded and sent ($(printf '%s\n' "$v" | grep '^HeadYaw/'))"
expect "ok" other "$H" get $SENSOR
check $? "nao reads values with DCM_IOC_GET on a read-only file"
expect "ok" other "$H" mmap $SENSOR
check $? "nao maps the snapshot of a read-only file"
expect "ok" other "$H" read
check $? "nao polls and reads frames of a read-only file"

# 3. Outside the group: no command, no configuration.
expect EACCES other "$H" open rw
check $? "nao cannot open /dev/dcm0 for writing"
expect EBADF other "$H" set ro $LED 500000
check $? "nao's read-only file cannot DCM_IOC_SET (the kernel refuses: EBADF)"
expect EBADF other "$H" alias ro
check $? "nor DCM_IOC_ALIAS_CREATE"
expect EBADF other "$H" watchdog ro
check $? "nor DCM_IOC_WATCHDOG"
echo 0 >$SUB/$LED/Value
sleep 0.05
! other dcmctl set $LED 0.5 >/dev/null 2>&1
check $? "nao's dcmctl set is refused"
expect open:EACCES other "$H" write $SUB/$LED/Value 0.5
check $? "nao cannot write an actuator's Value"
sleep 0.05
[ "$(val $LED)" = 0.000000 ]
check $? "the LED did not change ($(val $LED))"
expect open:EACCES other "$H" write $KP 5
check $? "nao cannot write a configuration key"
expect open:EACCES other "$H" write $SYS/safety/hardness "HeadYaw/Hardness/Actuator 0 0"
check $? "nao cannot write safety/hardness"
expect EPERM other "$H" config
check $? "nao cannot open a netlink configuration transaction"

# 4. In the group dcm: commands, through /dev/dcm0 and sysfs.
expect ok member "$H" set rw $LED 250000
check $? "a member of dcm sends DCM_IOC_SET"
sleep 0.05
v=$(val $LED)
near "$v" 0.25 0.004
check $? "and the LED follows ($v)"
expect EBADF member "$H" set ro $LED 500000
check $? "a member's read-only file still cannot command (EBADF)"
expect ok member "$H" watchdog rw
check $? "a member arms and disarms a watchdog"
expect ok member "$H" write $SUB/$LED2/Value 0.5
check $? "a member writes an actuator's Value"
sleep 0.05
v=$(val $LED2)
near "$v" 0.5 0.004
check $? "and it takes effect ($v)"
member dcmctl set $LED 0.75 >/dev/null 2>&1
check $? "a member's dcmctl set works"
echo 0 >$SUB/$LED/Value
echo 0 >$SUB/$LED2/Value

# 5. In the group dcm: still no configuration, whatever the file modes.
kp=$(cat $KP)
expect open:EACCES member "$H" write $KP 5
check $? "a member cannot open a configuration key for writing (0644)"
chmod 0666 $KP
expect write:EPERM member "$H" write $KP 5
check $? "made writable, the key still refuses a member (CAP_NET_ADMIN)"
chmod 0644 $KP
[ "$(cat $KP)" = "$kp" ]
check $? "and keeps its value ($kp)"
p=$(cat $SYS/period_us)
chmod 0666 $SYS/period_us
expect write:EPERM member "$H" write $SYS/period_us 12000
check $? "period_us made writable refuses a member too"
chmod 0644 $SYS/period_us
[ "$(cat $SYS/period_us)" = "$p" ]
check $? "and the period stays $p us"
expect EPERM member "$H" config
check $? "a member cannot open a netlink configuration transaction"

# 6. Root: the kernel's checks hold for root too; configuration works.
expect EBADF "$H" set ro $LED 500000
check $? "root's read-only file cannot command either (EBADF)"
expect ok "$H" write $KP "$kp"
check $? "root writes a configuration key"
expect open:EACCES "$H" write $SYS/safety/hardness "HeadYaw/Hardness/Actuator 0 0"
check $? "root cannot write safety/hardness: it has no store"
chmod 0666 $SYS/safety/hardness
expect write:EIO member "$H" write $SYS/safety/hardness "HeadYaw/Hardness/Actuator 0 0"
check $? "made writable, safety/hardness still takes no write (EIO)"
chmod 0444 $SYS/safety/hardness
expect ok "$H" config
check $? "root opens and aborts a configuration transaction"

totals
