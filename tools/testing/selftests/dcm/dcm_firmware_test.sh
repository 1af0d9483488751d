#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dcm_firmware_test.sh: bodies that firmware gets wrong. Run in a VM booted
# with scripts/dcm-vm exec --rs485-uart --acpi scripts/vm/bad-bodies.asl:
# dcm is loaded alone (no dcm_sim) and the ACPI tables describe the good
# body of scripts/vm/body.asl (BODY, RS485-1 on COM2) and the bad ones of
# bad-bodies.asl. Each bad body gets exactly one clear message from the body
# driver naming its fault and no controller; the one waiting for a transport
# that never comes is listed in devices_deferred with its bus; of two bodies
# claiming one transport, one gets it and the other is told who has it.
# Any kernel warning or oops fails the run (scripts/dcm-vm).
#
# POSIX sh (busybox). Prints TAP and ends with the kselftest Totals line.

. "$(dirname "$0")/dcm_tap.sh"

DEFERRED=/sys/kernel/debug/devices_deferred

# body PATH: the platform device of the ACPI device at PATH (\_SB_.BWAI),
# as a sysfs path; empty if there is none.
body() {
	for a in /sys/bus/acpi/devices/*; do
		[ "$(cat "$a/path" 2>/dev/null)" = "$1" ] || continue
		[ -e "$a/physical_node" ] && readlink -f "$a/physical_node"
		return
	done
}

# messages DEV: the body driver's lines about DEV (dev_err/dev_info: "dcm-body
# NAME: ..."; the driver core's own "probe of NAME failed" is not one).
messages() {
	dmesg | sed 's/^\[[ 0-9.]*\] //' | grep -F "dcm-body $(basename "$1"): "
}

# controllers_of DEV: how many dcmN have DEV as their parent.
controllers_of() {
	c=0
	for d in /sys/class/dcm/dcm*; do
		[ -e "$d" ] || continue
		[ "$(readlink -f "$d/device")" = "$1" ] && c=$((c + 1))
	done
	echo $c
}

if [ -d /sys/module/dcm_sim ] || ! grep -qwF 'dcm_vm.sim=0' /proc/cmdline; then
	skip_all "not booted with --rs485-uart (dcm_sim is loaded)"
fi
if [ -z "$(body '\_SB_.BWAI')" ]; then
	skip_all "no bad bodies (boot with --acpi scripts/vm/bad-bodies.asl)"
fi

# The driver core retries deferred probes as other drivers bind: let the
# boot's binding settle.
sleep 1

# bad PATH WHAT PATTERN: the body at PATH failed with one message matching
# PATTERN (grep -E), is not bound and has no controller.
bad() {
	dev=$(body "$1")
	[ -n "$dev" ]
	check $? "$1 ($2) is a platform device ($(basename "$dev"))"
	msgs=$(messages "$dev")
	cnt=$(printf '%s' "$msgs" | grep -c .)
	[ "$cnt" = 1 ] && printf '%s\n' "$msgs" | grep -qE "$3"
	check $? "$1: one message naming the fault ($cnt: $(printf '%s' "$msgs" | head -n 2 | tr '\n' '|'))"
	[ ! -e "$dev/driver" ] && [ "$(controllers_of "$dev")" = 0 ] &&
		! grep -qF "$(basename "$dev")" $DEFERRED
	check $? "$1: not bound, no controller, not deferred"
}

bad '\_SB_.BNNM' "no aldebaran,bus-names" 'aldebaran,bus-names.*missing'
bad '\_SB_.BNRF' "two names, one reference" 'RS485-4.*aldebaran,buses.*(resolve|missing)'
bad '\_SB_.BCNT' "one name, two references" 'aldebaran,buses.*more references'

# A bus whose transport never comes: deferred, said once, listed.
dev=$(body '\_SB_.BWAI')
name=$(basename "$dev")
msgs=$(messages "$dev")
cnt=$(printf '%s' "$msgs" | grep -c .)
[ "$cnt" = 1 ] && printf '%s\n' "$msgs" | grep -q 'RS485-2.*NOTR'
check $? "\\_SB_.BWAI (bus without a transport): one message naming the bus and its node ($cnt: $msgs)"
line=$(grep -F "$name" $DEFERRED)
printf '%s\n' "$line" | grep -q 'RS485-2.*NOTR'
check $? "\\_SB_.BWAI is in devices_deferred with its bus ($line)"
[ ! -e "$dev/driver" ] && [ "$(controllers_of "$dev")" = 0 ]
check $? "\\_SB_.BWAI: not bound, no controller"

# Two bodies, one transport: exactly one controller, on one of them; the
# other told which controller carries its bus.
good=$(body '\_SB_.BODY')
dup=$(body '\_SB_.BDUP')
ndcm=$(ls -d /sys/class/dcm/dcm* 2>/dev/null | wc -l)
[ "$ndcm" = 1 ]
check $? "one controller in all ($ndcm)"
g=$(controllers_of "$good")
d=$(controllers_of "$dup")
if [ "$g" = 1 ] && [ "$d" = 0 ]; then
	winner=$good
	loser=$dup
	st=0
elif [ "$g" = 0 ] && [ "$d" = 1 ]; then
	winner=$dup
	loser=$good
	st=0
else
	st=1
fi
check $st "it belongs to one of BODY and BDUP ($g, $d)"
if [ $st = 0 ]; then
	[ -e "$winner/driver" ] && [ "$(basename "$(readlink -f "$winner/driver")")" = dcm-body ]
	check $? "$(basename "$winner") is bound to dcm-body"
	# It may have waited for the transport first (said once), if it
	# probed before the RS485 line bound; then one error.
	ctrl=$(basename "$(ls -d /sys/class/dcm/dcm*)")
	msgs=$(messages "$loser" | grep -v ' waits for its transport ')
	cnt=$(printf '%s' "$msgs" | grep -c .)
	[ "$cnt" = 1 ] && printf '%s\n' "$msgs" | grep -q "RS485-1.* $ctrl's bus RS485-1"
	check $? "$(basename "$loser") gets one error: its bus is $ctrl's ($msgs)"
	[ ! -e "$loser/driver" ] && ! grep -qF "$(basename "$loser")" $DEFERRED
	check $? "$(basename "$loser") is not bound and not deferred"
fi
# The one controller has the lowest free index, dcm0, however the two
# bodies' probes interleaved.
[ -e /sys/class/dcm/dcm0 ]
check $? "the controller is dcm0 ($(ls /sys/class/dcm | tr '\n' ' '))"
drv=$(dcmctl info 2>/dev/null | sed -n "s/^[[:space:]]*driver: //p" | head -n 1)
[ "$drv" = dcm-body ]
check $? "dcm0 is a firmware body's (driver '$drv')"

totals
