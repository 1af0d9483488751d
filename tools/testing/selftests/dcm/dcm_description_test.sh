#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dcm_description_test.sh: the robot description end to end, in the VM:
# dcmd loads the shipped Device.xml + body.xml + head.xml (installed in
# /usr/share/dcm by scripts/mkinitramfs.sh) into dcm0 through netlink, and
# dcmctl reads the key tree back from sysfs.
#
#   - dcmd -1 loads the default description; the kernel's counts are the
#     dry run's (dcmd -n);
#   - every key of seed-keys.txt is a readable sysfs file, and one
#     "dcmctl get" call reads them all;
#   - each variant (userspace/data/variants) shows what it should and
#     nothing it should not, and its load is a real swap (description_swaps
#     counts it: the variants differ from each other and the default);
#   - bad descriptions are refused with their precise "FILE:LINE: message"
#     and the running description stays as it was;
#   - an unprivileged user gets the permission message and changes nothing;
#   - the running daemon reloads on SIGHUP (a real swap, counted), and
#     keeps its description when a reload fails (none).
#
# POSIX sh (busybox). Prints TAP and ends with the kselftest Totals line;
# exits 1 if a test failed.

DATA=${DCM_DATA:-/usr/share/dcm}
SYS=/sys/class/dcm/dcm0
T=$(mktemp -d /tmp/dcm_description.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT

n=0
pass=0
fail=0
skip=0

echo "TAP version 13"

ok() {
	n=$((n + 1))
	pass=$((pass + 1))
	echo "ok $n $1"
}

not_ok() {
	n=$((n + 1))
	fail=$((fail + 1))
	echo "not ok $n $1"
}

skipped() {
	n=$((n + 1))
	skip=$((skip + 1))
	echo "ok $n $1 # SKIP $2"
}

# description_swaps of dcm0: the descriptions made running, a commit equal
# to the running one not counted; -1 if it cannot be read.
swaps() {
	cat $SYS/description_swaps 2>/dev/null || echo -1
}

# Show a file as TAP diagnostics.
diag() {
	sed 's/^/# /' "$1"
}

# The first "devices: N" / "subdevices: N" of dcmctl info (the ioctl's).
kernel_counts() {
	dcmctl info 2>/dev/null | awk '
		/^\tdevices:/ && !d { d = $2 }
		/^\tsubdevices:/ && !s { s = $2 }
		END { print d + 0, s + 0 }'
}

# What dcmd -n says the kernel should get: "DEVICES SUBDEVICES".
dry_counts() {
	dcmd -n "$@" 2>/dev/null |
		sed -n 's/^kernel checks (dry run): ok, \([0-9]*\) devices, \([0-9]*\) subdevices.*/\1 \2/p'
}

# A snapshot of the running description: counts and a few keys.
snapshot() {
	kernel_counts
	dcmctl get RobotConfig/Body/Type Device/DeviceList/ChestBoard/BodyNickName \
		HeadPitch/Position/Sensor/jointZeroPosition \
		RobotConfig/Head/Device/TouchBoard/Version 2>&1
}

# The boot-time daemon (scripts/vm/init) may still be loading: a second
# transaction would get EBUSY. Wait until it said how its load went.
i=0
while [ $i -lt 300 ] && pidof dcmd >/dev/null; do
	grep -q 'loaded into\|not loaded\|refused by\|no description' /run/dcmd.log 2>/dev/null &&
		break
	sleep 0.1
	i=$((i + 1))
done

# ------------------------------------------------------------------
# The shipped description

if dcmd -1 >"$T/load.out" 2>&1 &&
	grep -q 'loaded into dcm0' "$T/load.out"; then
	ok "dcmd -1 loads the shipped description"
	sed -n 's/.*loaded into dcm0: \(.*\)/# full load: \1/p' "$T/load.out"
else
	not_ok "dcmd -1 loads the shipped description"
	diag "$T/load.out"
fi

want=$(dry_counts)
got=$(kernel_counts)
if [ -n "$want" ] && [ "$want" = "$got" ]; then
	ok "the kernel holds what the dry run counted ($got devices/subdevices)"
else
	not_ok "the kernel holds what the dry run counted (dry run '$want', kernel '$got')"
fi

grep -v '^#' "$DATA/seed-keys.txt" | grep . >"$T/keys"
nkeys=$(wc -l <"$T/keys")
missing=0
while read -r key; do
	f=$SYS/SubDeviceList/${key#Device/SubDeviceList/}
	if ! [ -f "$f" ] || ! read -r v <"$f"; then
		missing=$((missing + 1))
		[ $missing -le 10 ] && echo "# not readable in sysfs: $key"
	fi
done <"$T/keys"
if [ "$nkeys" -gt 0 ] && [ $missing = 0 ]; then
	ok "all $nkeys keys of seed-keys.txt are readable in sysfs"
else
	not_ok "keys of seed-keys.txt readable in sysfs: $missing of $nkeys missing"
fi

# shellcheck disable=SC2046 # one argument per key
if dcmctl get $(cat "$T/keys") >"$T/get.out" 2>"$T/get.err" &&
	[ "$(wc -l <"$T/get.out")" = "$nkeys" ] &&
	awk '{ print $1 }' "$T/get.out" | cmp -s - "$T/keys" &&
	awk 'NF < 2 { bad = 1 } END { exit bad }' "$T/get.out"; then
	ok "one dcmctl get reads all $nkeys seed keys, each with a value"
else
	not_ok "one dcmctl get reads all $nkeys seed keys, each with a value"
	head -5 "$T/get.err" | sed 's/^/# /'
fi

dcmctl get Nope/Position/Sensor/Value RobotConfig/Body/Type >"$T/out" 2>"$T/err"
rc=$?
if [ $rc = 1 ] && grep -qx 'dcmctl: Nope/Position/Sensor/Value: no such key' "$T/err" &&
	grep -qx 'RobotConfig/Body/Type NAO' "$T/out"; then
	ok "dcmctl get: an unknown key is an error, the others are printed"
else
	not_ok "dcmctl get: an unknown key is an error, the others are printed (rc $rc)"
	diag "$T/err"
fi

if dcmctl get -q HeadPitch/Position/Sensor/jointZeroPosition \
	Device/SubDeviceList/HeadPitch/Position/Sensor/Type \
	Device/DeviceList/ChestBoard/Bus >"$T/out" 2>&1 &&
	[ "$(sed -n 2p "$T/out")" = JointPosition ] &&
	[ "$(sed -n 1p "$T/out")" = "$(cat $SYS/SubDeviceList/HeadPitch/Position/Sensor/jointZeroPosition)" ] &&
	[ "$(sed -n 3p "$T/out")" = "$(cat $SYS/DeviceList/ChestBoard/Bus)" ]; then
	ok "dcmctl get -q with and without the Device/... prefixes"
else
	not_ok "dcmctl get -q with and without the Device/... prefixes"
	diag "$T/out"
fi

set -- $(kernel_counts)
dcmctl tree >"$T/tree" 2>&1
tdev=$(grep -c '^[^ ]' "$T/tree")
tsub=$(grep -c '^    ' "$T/tree")
if [ "$tdev" = "$1" ] && [ "$tsub" = "$2" ]; then
	ok "dcmctl tree shows the $1 devices and $2 subdevices"
else
	not_ok "dcmctl tree shows $tdev devices and $tsub subdevices, the kernel has $1 and $2"
fi

dcmctl list >"$T/list"
if [ "$(grep -c '^Device/SubDeviceList/.*/Value$' "$T/list")" = "$2" ] &&
	[ "$(grep -c '^Device/DeviceList/.*/Bus$' "$T/list")" = "$1" ] &&
	grep -qx 'RobotConfig/Body/Type' "$T/list" &&
	[ "$(dcmctl list 'HeadPitch/*/Type' | wc -l)" = \
	  "$(ls -d $SYS/SubDeviceList/HeadPitch/*/* | wc -l)" ]; then
	ok "dcmctl list: one Value per subdevice, one Bus per device, patterns"
else
	not_ok "dcmctl list: one Value per subdevice, one Bus per device, patterns"
fi

# ------------------------------------------------------------------
# NAOqi's device names (Documentation/dcm/device-xml.rst, "Device names"):
# the Device/DeviceList keys public NAOqi clients read, by the names they
# read them with.
#   B-Human's libbhuman (bhuman/BHumanCodeRelease, Src/libbhuman/bhuman.cpp):
#     TouchBoard/Available (the head is an H25), LeftHandBoard/Available
#     (the body is an H25), ChestBoard/BodyId.
#   B-Human's 2009 libbhuman (alon/bhuman2009fork, Src/libbhuman/bhuman.h,
#     lbhSensorNames) and NaoTH (BerlinUnited/NaoTH,
#     Platforms/Source/DCM/DCMHandler.cpp, initDeviceState): Ack, Nack and
#     Error of the 19 boards of naoqi_boards below.
naoqi_boards="ChestBoard Battery USBoard InertialSensor HeadBoard EarLeds FaceBoard
	LeftShoulderBoard LeftArmBoard RightShoulderBoard RightArmBoard
	LeftHipBoard LeftThighBoard LeftShinBoard LeftFootBoard
	RightHipBoard RightThighBoard RightShinBoard RightFootBoard"
{
	echo Device/DeviceList/TouchBoard/Available
	echo Device/DeviceList/LeftHandBoard/Available
	echo Device/DeviceList/ChestBoard/BodyId
	for b in $naoqi_boards; do
		for k in Available Ack Nack Error; do
			echo "Device/DeviceList/$b/$k"
		done
	done
} >"$T/naoqi"
nq=$(wc -l <"$T/naoqi")
missing=
while read -r key; do
	[ -f "$SYS/${key#Device/}" ] && cat "$SYS/${key#Device/}" >/dev/null 2>&1 ||
		missing="$missing ${key#Device/DeviceList/}"
done <"$T/naoqi"
if [ -z "$missing" ]; then
	ok "the $nq Device/DeviceList keys NAOqi clients read are sysfs files"
else
	not_ok "Device/DeviceList keys NAOqi clients read, not in sysfs:$missing"
fi

# One dcmctl get of them all, then the same keys again a little later:
# every board of NAOqi's names is there (Available 1), answers (its Ack
# grows), and its Nack is a count.
# shellcheck disable=SC2046 # one argument per key
dcmctl get $(cat "$T/naoqi") >"$T/nq1" 2>"$T/nq.err"
rc1=$?
sleep 0.5
# shellcheck disable=SC2046
dcmctl get $(grep '/Ack$' "$T/naoqi") >"$T/nq2" 2>>"$T/nq.err"
rc2=$?
if [ $rc1 = 0 ] && [ $rc2 = 0 ] &&
	awk '$1 ~ /^Device\/DeviceList\// { print $1 }' "$T/nq1" | cmp -s - "$T/naoqi"; then
	ok "one dcmctl get reads all $nq of them"
else
	not_ok "one dcmctl get reads all $nq of them (rc $rc1, $rc2)"
	head -5 "$T/nq.err" | sed 's/^/# /'
fi
bad=$(awk 'FNR == NR { if ($1 ~ /\/Ack$/) ack[$1] = $2; else if ($1 ~ /\/Available$/ && $2 != 1) print $1 "=" $2; else if ($1 ~ /\/Nack$/ && $2 !~ /^[0-9]+$/) print $1 "=" $2; next }
	!($2 > ack[$1]) { print $1 ":" ack[$1] "->" $2 }' "$T/nq1" "$T/nq2" |
	sed 's,Device/DeviceList/,,' | tr '\n' ' ')
if [ -s "$T/nq1" ] && [ -s "$T/nq2" ] && [ -z "$bad" ]; then
	ok "NAOqi's boards: Available 1, Ack growing, Nack a count (21 boards)"
else
	not_ok "NAOqi's boards: Available 1, Ack growing, Nack a count; not: ${bad:-no output}"
fi
v=$(cat "$SYS/DeviceList/LeftHandBoard/Available" 2>/dev/null)
if [ "$v" = 1 ] &&
	[ "$(dcmctl get -q Device/DeviceList/LeftHandBoard/Type)" = MotorBoard ] &&
	[ "$(dcmctl get -q LWristYaw/Position/Actuator/Device)" = LeftHandBoard ] &&
	[ "$(dcmctl get -q LHand/Position/Actuator/Device)" = LeftHandBoard ] &&
	[ "$(dcmctl get -q HeadYaw/Position/Actuator/Device)" = HeadBoard ]; then
	ok "LeftHandBoard is the wrist and hand motor board, HeadBoard the neck's (libbhuman's H25 test)"
else
	not_ok "LeftHandBoard/Available '$v'; wrist, hand and head joints on NAOqi's boards"
fi
dcmctl get Device/DeviceList/NeckBoard/Available >"$T/out" 2>"$T/err"
rc=$?
if [ $rc = 1 ] &&
	grep -qx 'dcmctl: Device/DeviceList/NeckBoard/Available: no such key' "$T/err" &&
	! [ -e "$SYS/DeviceList/NeckBoard" ] && ! [ -e "$SYS/DeviceList/LForearmBoard" ]; then
	ok "the names before NAOqi's are gone (no aliases, as in NAOqi)"
else
	not_ok "the names before NAOqi's are gone (rc $rc)"
	diag "$T/err"
fi

# ------------------------------------------------------------------
# Variants

# variant NAME -b|-H FILE: load it, compare the counts with the dry run,
# keep its key list in $T/list for absent and present.
variant() {
	name=$1
	shift
	s0=$(swaps)
	if ! dcmd -1 "$@" >"$T/v.out" 2>&1; then
		not_ok "variant $name loads"
		diag "$T/v.out"
		return 1
	fi
	if [ "$s0" -ge 0 ] && [ "$(swaps)" -gt "$s0" ]; then
		ok "variant $name replaced the running description (a real swap)"
	else
		not_ok "variant $name replaced the running description (swaps $s0 -> $(swaps))"
	fi
	want=$(dry_counts "$@")
	got=$(kernel_counts)
	if [ "$want" = "$got" ]; then
		ok "variant $name loads: $got devices/subdevices, as the dry run says"
	else
		not_ok "variant $name loads: kernel '$got', dry run '$want'"
	fi
	dcmctl list >"$T/list"
}

# absent NAME SUBDEVICE-REGEX...: no subdevice key of the list matches.
absent() {
	name=$1
	shift
	found=
	for p in "$@"; do
		grep -qE "^Device/SubDeviceList/$p" "$T/list" && found="$found $p"
	done
	if [ -z "$found" ]; then
		ok "$name"
	else
		not_ok "$name (still there:$found)"
	fi
}

# present NAME SUBDEVICE-REGEX...: each matches a subdevice key of the list.
present() {
	name=$1
	shift
	lost=
	for p in "$@"; do
		grep -qE "^Device/SubDeviceList/$p" "$T/list" || lost="$lost $p"
	done
	if [ -z "$lost" ]; then
		ok "$name"
	else
		not_ok "$name (missing:$lost)"
	fi
}

V=$DATA/variants
variant no-left-hand -b "$V/body-no-left-hand.xml"
absent "no-left-hand: no LHand/* key" 'LHand/'
present "no-left-hand: the right hand and the left wrist stay" 'RHand/' 'LWristYaw/'

variant no-legs -b "$V/body-no-legs.xml"
absent "no-legs: no leg joint, no foot" '[LR]Hip' '[LR]Knee' '[LR]Ankle' '[LR]Foot/'
present "no-legs: head and arms stay" 'HeadYaw/' 'LShoulderPitch/' 'RElbowRoll/'
if [ "$(dcmctl get -q RobotConfig/Body/Device/Legs/Version)" = -1 ]; then
	ok "no-legs: RobotConfig/Body/Device/Legs/Version is -1"
else
	not_ok "no-legs: RobotConfig/Body/Device/Legs/Version is -1"
fi

variant normal-arms -b "$V/body-normal-arms.xml"
absent "normal-arms: no wrist, no hand" '[LR]WristYaw/' '[LR]Hand/'
present "normal-arms: shoulders and elbows stay" 'LShoulderRoll/' 'RElbowYaw/'

variant uncalibrated -b "$V/body-uncalibrated.xml"
# shellcheck disable=SC2046
dcmctl get -q $(grep '/jointZeroPosition$' "$T/list") >"$T/zero" 2>&1
if [ -s "$T/zero" ] && ! grep -qvx 0 "$T/zero"; then
	ok "uncalibrated: all $(wc -l <"$T/zero") jointZeroPosition keys are 0"
else
	not_ok "uncalibrated: all jointZeroPosition keys are 0"
	diag "$T/zero"
fi

variant head-no-touch -H "$V/head-no-touch.xml"
absent "head-no-touch: no Head/Touch/* key" 'Head/Touch/'
if ! dcmctl tree | grep -q 'type TouchBoard'; then
	ok "head-no-touch: no TouchBoard device"
else
	not_ok "head-no-touch: no TouchBoard device"
fi

# ------------------------------------------------------------------
# Bad descriptions: refused, precisely, and nothing changes.

# The head-no-touch variant runs now: a refused load must leave exactly it.
before=$(snapshot)

# refused NAME PATTERN DCMD-ARGS...: dcmd -1 fails, says PATTERN (grep -E),
# and the running description is unchanged.
refused() {
	name=$1
	pattern=$2
	shift 2
	dcmd -1 "$@" >"$T/bad.out" 2>&1
	rc=$?
	after=$(snapshot)
	if [ $rc = 1 ] && grep -qE "$pattern" "$T/bad.out" && [ "$before" = "$after" ]; then
		ok "refused: $name"
	else
		not_ok "refused: $name (exit $rc)"
		diag "$T/bad.out"
		[ "$before" = "$after" ] || echo "# the running description changed"
	fi
}

B=$T/bad
mkdir -p "$B"
cat >"$B/malformed.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<DeviceXml Version="1">
  <Device Name="ChestBoard" Type="ChestBoard" Bus="I2C-chest" Address="32" Part="Body">
</DeviceXml>
EOF
refused "malformed XML" \
	"$B/malformed.xml:4: Opening and ending tag mismatch: Device line 3 and DeviceXml" \
	-c "$B/malformed.xml"

cat >"$B/schema.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<DeviceXml Version="1">
  <Device Name="ChestBoard" Type="ChestBoard" Bus="I2C-chest" Address="32" Part="Body"/>
  <SubDevice Name="ChestBoard/Led/Red/Actuator" Type="Led" Device="ChestBoard" SubDeviceNumber="1" Part="Body" Max="1"/>
</DeviceXml>
EOF
refused "schema violation (no Min)" \
	"$B/schema.xml:4: Element SubDevice failed to validate attributes" -c "$B/schema.xml"

cat >"$B/dup.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<DeviceXml Version="1">
  <Device Name="ChestBoard" Type="ChestBoard" Bus="I2C-chest" Address="32" Part="Body"/>
  <Device Name="HeadBoard" Type="MotorBoard" Bus="RS485-head" Address="2" Part="Head"/>
  <Device Name="HeadBoard" Type="MotorBoard" Bus="RS485-head" Address="3" Part="Head"/>
</DeviceXml>
EOF
refused "duplicate name" \
	"$B/dup.xml:5: duplicate name 'HeadBoard' \\(first defined at $B/dup.xml:4\\)" \
	-c "$B/dup.xml"

cat >"$B/nodev.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<DeviceXml Version="1">
  <Device Name="ChestBoard" Type="ChestBoard" Bus="I2C-chest" Address="32" Part="Body"/>
  <SubDevice Name="HeadPitch/Position/Actuator" Type="Joint" Device="HeadBoard" SubDeviceNumber="1" Part="Head" Min="-1" Max="1"/>
</DeviceXml>
EOF
refused "subdevice on a missing device" \
	"$B/nodev.xml:4: subdevice HeadPitch/Position/Actuator: no device 'HeadBoard'" \
	-c "$B/nodev.xml"

cat >"$B/addr.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<DeviceXml Version="1">
  <Device Name="ChestBoard" Type="ChestBoard" Bus="I2C-chest" Address="256" Part="Body"/>
</DeviceXml>
EOF
refused "address 256 (schema)" \
	"$B/addr.xml:3: Invalid attribute Address for element Device" -c "$B/addr.xml"

# A schema that takes any document: dcmd's own checks, then the kernel's.
mkdir -p "$T/lax"
cp "$(dirname "$0")/dcm_any.rng" "$T/lax/device.rng"
cp "$(dirname "$0")/dcm_any.rng" "$T/lax/preferences.rng"

refused "address 256 (dcmd's check)" \
	"$B/addr.xml:3: device ChestBoard: Address 256 is outside 0-255" \
	-c "$B/addr.xml" -S "$T/lax"

cat >"$B/type.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<DeviceXml Version="1">
  <Device Name="ChestBoard" Type="ChestBoard" Bus="I2C-chest" Address="32" Part="Body"/>
  <Device Name="HeadBoard" Type="MotorBord" Bus="RS485-head" Address="2" Part="Head"/>
</DeviceXml>
EOF
refused "unknown type" \
	"$B/type.xml:4: device HeadBoard: unknown device type 'MotorBord'" -c "$B/type.xml"

head -c 20000 "$DATA/Device.xml" >"$B/truncated.xml"
refused "truncated file" \
	"$B/truncated.xml:[0-9]+: (Premature end of data|Couldn't find end of Start Tag|EndTag)" \
	-c "$B/truncated.xml"

cat >"$B/range.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<Preferences Target="Chest">
  <Key Path="Device/SubDeviceList/HeadPitch/Position/Sensor/jointZeroPosition" Type="int" Value="5000"/>
</Preferences>
EOF
refused "out of range, by the kernel (its extended ack, at the key's line)" \
	"$B/range.xml:3: key HeadPitch/Position/Sensor/jointZeroPosition: the value is outside the key's range" \
	-b "$B/range.xml" -S "$T/lax"
dcmd -n -b "$B/range.xml" -S "$T/lax" >"$T/n.out" 2>&1
rc=$?
if [ $rc = 1 ] && grep -q "$B/range.xml:3: key HeadPitch/Position/Sensor/jointZeroPosition: the value is outside the key's range" "$T/n.out"; then
	ok "dcmd -n finds the same with the kernel's model code"
else
	not_ok "dcmd -n finds the same with the kernel's model code (exit $rc)"
	diag "$T/n.out"
fi

cat >"$B/pref.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<Preferences Target="Chest">
  <Key Path="Device/SubDeviceList/HeadRoll/Position/Sensor/jointZeroPosition" Type="int" Value="2000"/>
</Preferences>
EOF
refused "a preference key aimed at no element" \
	"$B/pref.xml:3: key Device/SubDeviceList/HeadRoll/Position/Sensor/jointZeroPosition: no subdevice 'HeadRoll/Position/Sensor'" \
	-b "$B/pref.xml" -S "$T/lax"

refused "a missing file" "$B/nowhere.xml: No such file or directory" -c "$B/nowhere.xml"

# ------------------------------------------------------------------
# Unprivileged

su nao -c 'dcmd -1' >"$T/nao.out" 2>&1
rc=$?
after=$(snapshot)
if [ $rc = 1 ] &&
	grep -q 'permission denied: configuring dcm needs CAP_NET_ADMIN (root)' "$T/nao.out" &&
	[ "$before" = "$after" ]; then
	ok "unprivileged user nao: permission denied, nothing changes"
else
	not_ok "unprivileged user nao: permission denied, nothing changes (exit $rc)"
	diag "$T/nao.out"
fi

# ------------------------------------------------------------------
# The daemon: SIGHUP reloads; a failed reload keeps the description.

pid=$(pidof dcmd)
# how many loads and failed reloads the daemon logged
loads() {
	grep -c 'loaded into dcm0' /run/dcmd.log
}
failed_reloads() {
	grep -c 'reload failed' /run/dcmd.log
}
# wait_for CMD VALUE: until "$(CMD)" != VALUE, 10 s at most
wait_for() {
	i=0
	while [ "$($1)" = "$2" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ "$($1)" != "$2" ]
}

if [ -z "$pid" ] || ! [ -f /run/dcmd.log ]; then
	skipped "SIGHUP reloads the description" "no dcmd daemon running"
	skipped "a failed reload keeps the running description" "no dcmd daemon running"
else
	mkdir -p /etc/dcm
	sed 's/Path="Device\/DeviceList\/ChestBoard\/BodyNickName" Type="string" Value="[^"]*"/Path="Device\/DeviceList\/ChestBoard\/BodyNickName" Type="string" Value="Reloaded"/' \
		"$DATA/body.xml" >/etc/dcm/body.xml
	l=$(loads)
	s0=$(swaps)
	kill -HUP "$pid"
	if wait_for loads "$l" &&
		[ "$(dcmctl get -q Device/DeviceList/ChestBoard/BodyNickName)" = Reloaded ] &&
		[ "$s0" -ge 0 ] && [ "$(swaps)" = $((s0 + 1)) ]; then
		ok "SIGHUP reloads the description (/etc/dcm/body.xml first): one real swap"
	else
		not_ok "SIGHUP reloads the description (/etc/dcm/body.xml first)"
		tail -5 /run/dcmd.log | sed 's/^/# /'
	fi

	printf '<Preferences Target="Chest">\n  <Key Path="x"\n' >/etc/dcm/body.xml
	f=$(failed_reloads)
	s0=$(swaps)
	kill -HUP "$pid"
	if wait_for failed_reloads "$f" &&
		grep -q '/etc/dcm/body.xml:[0-9]*: ' /run/dcmd.log &&
		[ "$(dcmctl get -q Device/DeviceList/ChestBoard/BodyNickName)" = Reloaded ] &&
		[ "$(swaps)" = "$s0" ] &&
		kill -0 "$pid" 2>/dev/null; then
		ok "a failed reload keeps the running description, and the daemon"
	else
		not_ok "a failed reload keeps the running description, and the daemon"
		tail -5 /run/dcmd.log | sed 's/^/# /'
	fi
	rm -f /etc/dcm/body.xml
	l=$(loads)
	kill -HUP "$pid"
	wait_for loads "$l" >/dev/null
fi

# Leave the shipped description loaded for whatever runs next.
dcmd -1 >/dev/null 2>&1 || echo "# restoring the shipped description failed"

echo "1..$n"
echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:$skip error:0"
[ $fail = 0 ]
