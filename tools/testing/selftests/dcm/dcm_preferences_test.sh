#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dcm_preferences_test.sh: dcmctl preferences (NAOqi's Save, Load, Add) on
# the running robot, in the VM, with the shipped description:
#
#   1. save All into a directory, load All from it: every key that is not
#      the robot's (values, counters, errors, what the boards report) reads
#      the same before and after: the model is the same, so the kernel
#      keeps the running description (description_swaps does not move);
#   2. configuration keys changed through sysfs (a joint's Kp, the Main
#      file's; a jointZeroPosition and BodyNickName, the Chest file's) are
#      saved by their own target only, and come back after a load and after
#      dcmd -1 with the saved files: four loads, each a real swap, counted;
#   3. add RobotConfig/Body/Device/LeftArm/Version -1 to a Chest file does
#      not touch the kernel; loading it drops the left arm (a real swap,
#      counted) and sends an event of type config;
#   4. malformed files (bad XML, schema violation, a key of another file,
#      a key the kernel does not know) are refused with FILE:LINE and the
#      running description stays exactly as it was;
#   5. the user nao: load is refused by the kernel (CAP_NET_ADMIN), save
#      and add into /etc/dcm by the file permissions, with clear messages.
#
# POSIX sh (busybox). TAP through dcm_tap.sh; exits 1 if a test failed.

. "$(dirname "$0")/dcm_tap.sh"

DATA=${DCM_DATA:-/usr/share/dcm}
SYS=/sys/class/dcm/dcm0
T=$(mktemp -d /tmp/dcm_preferences.XXXXXX) || exit 1
etc_made=
[ -d /etc/dcm ] || etc_made=1
cleanup() {
	rm -rf "$T"
	[ -n "$etc_made" ] && rm -rf /etc/dcm
}
trap cleanup EXIT

[ -d "$SYS" ] || skip_all "no controller dcm0"
command -v dcmctl >/dev/null || skip_all "no dcmctl"

# Show a file as TAP diagnostics.
diag() {
	sed 's/^/# /' "$1"
}

# The boot-time daemon may still be loading: a second transaction would get
# EBUSY. Wait until it said how its load went.
i=0
while [ $i -lt 300 ] && pidof dcmd >/dev/null; do
	grep -q 'loaded into\|not loaded\|refused by\|no description' /run/dcmd.log 2>/dev/null &&
		break
	sleep 0.1
	i=$((i + 1))
done

# Start from the shipped description, whatever ran before.
dcmd -1 >/dev/null 2>&1 || echo "# loading the shipped description failed"

# Every key of the running description that a description sets, with its
# value: not the robot's (Value, Ack, Nack, Error, the LIVE keys of the
# types: temperature and battery status, sonar echoes, what the boards and
# the battery report).
LIVE='/(Value|Value[1-9]|Ack|Nack|Error|Status|Age|CellVoltageMax|CellVoltageMin|FullChargeCapacity|RemainingCapacity|DeviceName|FirmwareVersion|ManufactureDate|Manufacturer|SerialNumber|Bid|BoardId|BoardId2|BootLoaderVersion|ProgVersion|StructVersion|ChainResult)$'
model() {
	dcmctl list | grep -Ev "$LIVE" >"$T/model.keys"
	# shellcheck disable=SC2046 # one argument per key
	dcmctl get $(cat "$T/model.keys")
}

# The kernel's counts, and a few keys this test changes.
snapshot() {
	dcmctl info 2>/dev/null | awk '
		/^\tdevices:/ && !d { d = $2 }
		/^\tsubdevices:/ && !s { s = $2 }
		END { print d + 0, s + 0 }'
	dcmctl get HeadYaw/Position/Actuator/Kp HeadYaw/Position/Sensor/jointZeroPosition \
		Device/DeviceList/ChestBoard/BodyNickName \
		RobotConfig/Body/Device/LeftArm/Version 2>&1
}

# ------------------------------------------------------------------
# 1. Save All, Load All: the same model

A=$T/a
model >"$T/before" 2>&1
nkeys=$(wc -l <"$T/before")
dcmctl preferences save All --etc "$A" >"$T/out" 2>&1
rc=$?
if [ $rc = 0 ] && [ -f "$A/main.xml" ] && [ -f "$A/body.xml" ] && [ -f "$A/head.xml" ] &&
	grep -q "^Chest: $A/body.xml: " "$T/out"; then
	check 0 "save All writes main.xml, body.xml and head.xml"
else
	check 1 "save All writes main.xml, body.xml and head.xml (exit $rc)"
	diag "$T/out"
fi

dcmd -n -M "$A/main.xml" -b "$A/body.xml" -H "$A/head.xml" >"$T/out" 2>&1
check $? "the saved files pass dcmd -n (schemas, loader, the kernel's checks)"

s0=$(swaps)
dcmctl preferences load All --etc "$A" >"$T/out" 2>&1
rc=$?
s1=$(swaps)
model >"$T/after" 2>&1
if [ $rc = 0 ] && grep -q "^description .*$A/body.xml.* loaded into dcm0: " "$T/out" &&
	[ "$nkeys" -gt 1000 ] && cmp -s "$T/before" "$T/after"; then
	check 0 "load All of the saved files: all $nkeys keys read the same"
else
	check 1 "load All of the saved files: the same $nkeys keys (exit $rc)"
	diag "$T/out"
	diff "$T/before" "$T/after" | head -10 | sed 's/^/# /'
fi
[ "$s0" -ge 0 ] && [ "$s1" = "$s0" ]
check $? "load All of the saved files: the running description stays (swaps $s0 -> $s1)"

# ------------------------------------------------------------------
# 2. Changes through sysfs: saved by their owner, kept across a reload

zero=$(cat $SYS/SubDeviceList/HeadYaw/Position/Sensor/jointZeroPosition)
newzero=$((zero == 4095 ? 1 : zero + 1))
if echo 41 >$SYS/SubDeviceList/HeadYaw/Position/Actuator/Kp &&
	echo $newzero >$SYS/SubDeviceList/HeadYaw/Position/Sensor/jointZeroPosition &&
	echo Saved >$SYS/DeviceList/ChestBoard/BodyNickName; then
	check 0 "Kp, jointZeroPosition and BodyNickName written through sysfs"
else
	check 1 "Kp, jointZeroPosition and BodyNickName written through sysfs"
fi

dcmctl preferences save Chest --etc "$A" >"$T/out" 2>&1 &&
	dcmctl preferences save main --etc "$A" >>"$T/out" 2>&1
rc=$?
if [ $rc = 0 ] &&
	grep -q "HeadYaw/Position/Actuator/Kp\" Type=\"int\" Value=\"41\"" "$A/main.xml" &&
	grep -q "HeadYaw/Position/Sensor/jointZeroPosition\" Type=\"int\" Value=\"$newzero\"" "$A/body.xml" &&
	grep -q "BodyNickName\" Type=\"string\" Value=\"Saved\"" "$A/body.xml" &&
	! grep -q 'jointZeroPosition\|BodyNickName' "$A/main.xml" &&
	! grep -q '/Kp"' "$A/body.xml"; then
	check 0 "save Chest and Main: each file gets the keys it owns"
else
	check 1 "save Chest and Main: each file gets the keys it owns (exit $rc)"
	diag "$T/out"
fi

# the shipped description, then the saved files again
s0=$(swaps)
dcmd -1 >/dev/null 2>&1
if [ "$(dcmctl get -q HeadYaw/Position/Actuator/Kp)" = 41 ]; then
	check 1 "the shipped description has the shipped Kp"
else
	check 0 "the shipped description has the shipped Kp"
fi
want="41
$newzero
Saved"
dcmctl preferences load All --etc "$A" >"$T/out" 2>&1
rc=$?
got=$(dcmctl get -q HeadYaw/Position/Actuator/Kp HeadYaw/Position/Sensor/jointZeroPosition \
	Device/DeviceList/ChestBoard/BodyNickName)
if [ $rc = 0 ] && [ "$got" = "$want" ]; then
	check 0 "load All: the saved changes are back"
else
	check 1 "load All: the saved changes are back (exit $rc, got $(echo $got))"
	diag "$T/out"
fi

dcmd -1 >/dev/null 2>&1
dcmd -1 -M "$A/main.xml" -b "$A/body.xml" -H "$A/head.xml" >"$T/out" 2>&1
rc=$?
got=$(dcmctl get -q HeadYaw/Position/Actuator/Kp HeadYaw/Position/Sensor/jointZeroPosition \
	Device/DeviceList/ChestBoard/BodyNickName)
if [ $rc = 0 ] && [ "$got" = "$want" ]; then
	check 0 "dcmd -1 -M -b -H with the saved files: the changes are back"
else
	check 1 "dcmd -1 -M -b -H with the saved files: the changes are back (exit $rc)"
	diag "$T/out"
fi
check_swaps "$s0" "$(swaps)" 4 "shipped, saved, shipped, saved"

# ------------------------------------------------------------------
# 3. Add a structural key, then load it

C=$T/c
mkdir -p "$C"
cp "$A/body.xml" "$C/body.xml"
dcmctl preferences add Chest RobotConfig/Body/Device/LeftArm/Version -1 --file "$C/body.xml" \
	>"$T/out" 2>&1
rc=$?
if [ $rc = 0 ] && grep -q "RobotConfig/Body/Device/LeftArm/Version = -1 (replaced)" "$T/out" &&
	grep -q 'LeftArm/Version" Type="int" Value="-1"' "$C/body.xml" &&
	[ -d $SYS/SubDeviceList/LShoulderPitch ] &&
	[ "$(dcmctl get -q RobotConfig/Body/Device/LeftArm/Version)" = 2 ]; then
	check 0 "add Chest LeftArm/Version -1: in the file, not in the kernel"
else
	check 1 "add Chest LeftArm/Version -1: in the file, not in the kernel (exit $rc)"
	diag "$T/out"
fi

# The commit is one of the config events (the chest store read is another).
dcmctl events --type config --timeout $((6 * slow)) >"$T/events" 2>&1 &
evpid=$!
sleep "$(scaled 1)"
s0=$(swaps)
dcmctl preferences load Chest --file "$C/body.xml" --etc "$A" >"$T/out" 2>&1
rc=$?
check_swaps "$s0" "$(swaps)" 1 "load Chest --file"
wait $evpid
evrc=$?
dcmctl list >"$T/list"
if [ $rc = 0 ] && grep -q "$C/body.xml" "$T/out" &&
	! grep -qE '^Device/SubDeviceList/(LShoulder|LElbow|LWrist|LHand)' "$T/list" &&
	grep -q '^Device/SubDeviceList/RShoulderPitch/' "$T/list" &&
	! grep -q '^Device/DeviceList/LeftShoulderBoard/' "$T/list" &&
	[ "$(dcmctl get -q RobotConfig/Body/Device/LeftArm/Version)" = -1 ]; then
	check 0 "load Chest --file: no left arm any more, the right one stays"
else
	check 1 "load Chest --file: no left arm any more, the right one stays (exit $rc)"
	diag "$T/out"
fi
if [ $evrc = 0 ] && grep -q '^dcm0 [0-9]* config: robot description: ' "$T/events"; then
	check 0 "the load sent an event of type config"
else
	check 1 "the load sent an event of type config (events exit $evrc)"
	diag "$T/events"
fi

# ------------------------------------------------------------------
# 4. Malformed files: refused with FILE:LINE, nothing changes

before=$(snapshot)

# refused NAME PATTERN ARGS...: dcmctl preferences load ARGS fails, says
# PATTERN (grep -E), and the running description is unchanged.
refused() {
	name=$1
	pattern=$2
	shift 2
	dcmctl preferences load "$@" >"$T/bad.out" 2>&1
	rc=$?
	after=$(snapshot)
	if [ $rc = 1 ] && grep -qE "$pattern" "$T/bad.out" && [ "$before" = "$after" ]; then
		check 0 "refused: $name"
	else
		check 1 "refused: $name (exit $rc)"
		diag "$T/bad.out"
		[ "$before" = "$after" ] || echo "# the running description changed"
	fi
}

B=$T/bad
mkdir -p "$B"
cat >"$B/xml.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<Preferences Target="Chest">
  <Key Path="RobotConfig/Body/Type" Type="string" Value="NAO">
</Preferences>
EOF
refused "bad XML" \
	"^dcmctl: $B/xml.xml:4: Opening and ending tag mismatch: Key line 3 and Preferences" \
	Chest --file "$B/xml.xml" --etc "$A"
grep -q "not loaded: " "$T/bad.out" || echo "# no 'not loaded' line"

cat >"$B/schema.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<Preferences Target="Main">
  <Key Path="Device/SubDeviceList/HeadYaw/Position/Actuator/Kp" Type="int"/>
</Preferences>
EOF
refused "schema violation (a Key without Value)" "^dcmctl: $B/schema.xml:3: " \
	Main --file "$B/schema.xml" --etc "$A"

cat >"$B/owner.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<Preferences Target="Chest">
  <Key Path="RobotConfig/Body/Type" Type="string" Value="NAO"/>
  <Key Path="Device/SubDeviceList/HeadYaw/Position/Actuator/Kp" Type="int" Value="12"/>
</Preferences>
EOF
refused "a key of another file" \
	"^dcmctl: $B/owner.xml:4: key Device/SubDeviceList/HeadYaw/Position/Actuator/Kp belongs to the Main preferences, not to the Chest preferences" \
	Chest --file "$B/owner.xml" --etc "$A"

cat >"$B/nosub.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<Preferences Target="Chest">
  <Key Path="Device/SubDeviceList/HeadRoll/Position/Sensor/jointZeroPosition" Type="int" Value="2000"/>
</Preferences>
EOF
refused "a key of no subdevice" \
	"^dcmctl: $B/nosub.xml:3: key Device/SubDeviceList/HeadRoll/Position/Sensor/jointZeroPosition: no subdevice 'HeadRoll/Position/Sensor'" \
	Chest --file "$B/nosub.xml" --etc "$A"

# Schemas that take any document: the kernel's own refusal, at the key's line.
mkdir -p "$T/lax"
cp "$(dirname "$0")/dcm_any.rng" "$T/lax/device.rng"
cp "$(dirname "$0")/dcm_any.rng" "$T/lax/preferences.rng"
cat >"$B/unknown.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<Preferences Target="Main">
  <Key Path="Device/SubDeviceList/HeadYaw/Position/Actuator/Kp" Type="int" Value="12"/>
  <Key Path="Device/SubDeviceList/HeadYaw/Position/Actuator/Kq" Type="int" Value="12"/>
</Preferences>
EOF
refused "a key the kernel does not know (its refusal, all or nothing)" \
	"^dcmctl: $B/unknown.xml:4: key HeadYaw/Position/Actuator/Kq: " \
	Main --file "$B/unknown.xml" --etc "$A" --schemas "$T/lax"
grep -q "refused by the kernel: the running description is unchanged" "$T/bad.out" ||
	echo "# no 'refused by the kernel' line"

# ------------------------------------------------------------------
# 5. The user nao

su nao -c "dcmctl preferences load All" >"$T/nao.out" 2>&1
rc=$?
after=$(snapshot)
if [ $rc = 1 ] &&
	grep -q '^dcmctl: permission denied: configuring dcm needs CAP_NET_ADMIN (root)$' "$T/nao.out" &&
	[ "$before" = "$after" ]; then
	check 0 "nao: load refused by the kernel, nothing changes"
else
	check 1 "nao: load refused by the kernel, nothing changes (exit $rc)"
	diag "$T/nao.out"
fi

mkdir -p /etc/dcm
[ -e /etc/dcm/body.xml ] && cp /etc/dcm/body.xml "$T/etc-body.xml"
su nao -c "dcmctl preferences save Chest" >"$T/nao.out" 2>&1
rc=$?
if [ $rc = 1 ] &&
	grep -q "^dcmctl: /etc/dcm/body.xml: cannot write: Permission denied (writing the robot's preference files needs root)$" "$T/nao.out" &&
	grep -q "^dcmctl: /etc/dcm/body.xml not written$" "$T/nao.out" &&
	{ [ -e "$T/etc-body.xml" ] || [ ! -e /etc/dcm/body.xml ]; } &&
	[ -z "$(ls -A /etc/dcm | grep -v '^body.xml$')" ]; then
	check 0 "nao: save into /etc/dcm refused by the file permissions"
else
	check 1 "nao: save into /etc/dcm refused by the file permissions (exit $rc)"
	diag "$T/nao.out"
fi

su nao -c "dcmctl preferences add Head RobotConfig/Head/Device/Camera/Version 2" >"$T/nao.out" 2>&1
rc=$?
if [ $rc = 1 ] && grep -q "^dcmctl: /etc/dcm/head.xml: cannot write: Permission denied" "$T/nao.out" &&
	[ ! -e /etc/dcm/head.xml ]; then
	check 0 "nao: add into /etc/dcm refused by the file permissions"
else
	check 1 "nao: add into /etc/dcm refused by the file permissions (exit $rc)"
	diag "$T/nao.out"
fi

# Leave the shipped description loaded for whatever runs next.
dcmd -1 >/dev/null 2>&1 || echo "# restoring the shipped description failed"

totals
