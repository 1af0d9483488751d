#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test-completion.sh DCMCTL: the bash completion of dcmctl
# (userspace/completion/dcmctl) against a fake key tree, and against
# dcmctl's own command and option tables (DCMCTL --help, DCMCTL CMD --help):
# a command or option added to dcmctl and not to the completion fails here.
# Reports like a cmocka binary (scripts/test-lib.sh), which scripts/check.sh
# counts; exits 1 on a failure. Run by `make unit`.

set -u
DCMCTL=$(realpath "${1:?usage: test-completion.sh DCMCTL}")
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d /tmp/test-completion.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT

# shellcheck disable=SC2034 # read by test-lib.sh
suite=completion
# shellcheck source=../../scripts/test-lib.sh
. "$HERE/../../scripts/test-lib.sh"

# The fake tree: $T/dcm0 and $T/dcm1.
put() {
	mkdir -p "$(dirname "$T/$1")"
	echo "${2:-0}" >"$T/$1"
}
for j in HeadYaw HeadPitch; do
	put dcm0/SubDeviceList/$j/Position/Sensor/Value
	put dcm0/SubDeviceList/$j/Position/Sensor/jointZeroPosition 1094
	put dcm0/SubDeviceList/$j/Position/Actuator/Value
	put dcm0/SubDeviceList/$j/Position/Actuator/Kp 48
	put dcm0/SubDeviceList/$j/Hardness/Actuator/Value
done
put dcm0/SubDeviceList/ChestBoard/Led/Red/Actuator/Value
put dcm0/DeviceList/ChestBoard/Ack
put dcm0/RobotConfig/Body/Type NAO
put dcm1/SubDeviceList/Other/Value
export DCM_SYSFS_ROOT=$T

# shellcheck source=../completion/dcmctl
. "$HERE/../completion/dcmctl"

# comp LINE: COMPREPLY for LINE (the word under the cursor is its last;
# a trailing space starts an empty one), sorted, on one line.
comp() {
	read -r -a COMP_WORDS <<<"$1"
	[[ $1 == *" " ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_dcmctl 2>/dev/null
	printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
}

# expect LINE WANT
expect() {
	got=$(comp "$1")
	[ "$got" = "$2" ]
	check "'$1' completes to '$2'${got:+ (got '$got')}" $?
}

expect "dcmctl ca" "calibrate"
expect "dcmctl -j ge" "get"
expect "dcmctl get HeadY" "HeadYaw/"
expect "dcmctl get HeadYaw/Po" "HeadYaw/Position/"
expect "dcmctl get HeadYaw/Position/Actuator/" \
	"HeadYaw/Position/Actuator/Kp HeadYaw/Position/Actuator/Value"
expect "dcmctl set HeadYaw/Position/Actuator/K" "HeadYaw/Position/Actuator/Kp"
expect "dcmctl set HeadYaw/Position/Actuator " ""
expect "dcmctl watch Device/DeviceList/" "Device/DeviceList/ChestBoard/"
expect "dcmctl info RobotConfig/Body/" "RobotConfig/Body/Type"
expect "dcmctl get Dev" "Device/DeviceList/ Device/SubDeviceList/"
expect "dcmctl -d dcm1 get O" "Other/"
expect "dcmctl -r $T get Ch" "ChestBoard/"
expect "dcmctl calibrate " "HeadPitch HeadYaw"
expect "dcmctl calibrate HeadYaw m" "max min"
expect "dcmctl calibrate HeadYaw min --f" "--force"
expect "dcmctl set K 1 --kind m" "merge"
expect "dcmctl events --type s" "safety special"
expect "dcmctl watch -" "$(printf '%s\n' -d --device -r --root -j --json -p --pretty -h --help \
	-V --version -c --cycles | sort | tr '\n' ' ' | sed 's/ $//')"
expect "dcmctl set HeadYaw/Position/Actuator -0." ""
expect "dcmctl preferences a" "add"
expect "dcmctl preferences add Ch" "Chest"
expect "dcmctl special d" "diagnostic"
expect "dcmctl help pr" "preferences"

# The completion's lists are dcmctl's.
# shellcheck disable=SC2154 # _dcmctl_commands: the completion's
cmds=$("$DCMCTL" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } /^$/ && on { on = 0 }')
[ "$(echo "$cmds" | sort | tr '\n' ' ')" = "$(echo "$_dcmctl_commands" | tr ' ' '\n' | sort | tr '\n' ' ')" ]
check "the commands of dcmctl --help are the completion's ($(echo "$cmds" | tr '\n' ' '))" $?
for c in $cmds; do
	want=$("$DCMCTL" "$c" --help | awk '/^Options:/ { on = 1; next } /^$/ { on = 0 } on' |
		cut -c1-24 | grep -oE -- '(^|[ ,])--?[a-zA-Z0-9][-a-zA-Z0-9]*' | tr -d ' ,' | sort | tr '\n' ' ')
	have=$(_dcmctl_cmd_opts "$c" | tr ' ' '\n' | grep . | sort | tr '\n' ' ')
	[ "$want" = "$have" ]
	check "the options of dcmctl $c --help are the completion's ('$want')" $?
done

finish
