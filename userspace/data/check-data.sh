#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check-data.sh - check the robot description files of userspace/data.
#
#   userspace/data/check-data.sh [--data DIR] [--dcmd DCMD] [--seeds DIR]
#                                [--write-seed-keys] [-v]
#
# The rules of a description are written once, in dcmd's loader and the
# kernel's model code (which dcmd -n runs, built for userspace), and in the
# schemas. This script runs them on the shipped files and adds only what is
# particular to those files:
#
# 1. The schemas: Device.xml validates against device.rng and every
#    preference file against preferences.rng (xmllint --relaxng), and the
#    schemas take or refuse the documents of schema-tests.txt.
# 2. dcmd -n: Device.xml + body.xml + head.xml, then each variant in place
#    of body.xml (variants/body-*.xml) or head.xml (variants/head-*.xml),
#    pass every check of dcmd and of the kernel (names, references, types
#    and keys, kinds, ranges, Min <= Max, Gain != 0, limits, who owns a
#    preference key, Targets, the Part rules).
# 3. On the keys dcmd -n -k lists: the default robot keeps every device and
#    subdevice, every joint is calibrated, the chest board has a BodyId and
#    a BodyNickName, no two devices share an address on a bus, and every
#    key of seed-keys.txt exists; each variant drops exactly the devices and
#    subdevices of its line in the table below, and leaves the joints
#    calibrated (body-uncalibrated.xml: none).
# 4. House rules of the shipped files: each Device comes before its
#    SubDevices; the XML files are what gen-device-xml.py writes;
#    seed-keys.txt is sorted and unique and, when the seeds are at hand
#    (--seeds DIR, $DCM_SEEDS, or ../../../shared/seeds from here), is the
#    list of the Device/SubDeviceList keys of seeds 000 and 001.
#
# DIR is the data directory (default: this script's). DCMD is the dcmd to
# run (default $DCMD, else build/bin/dcmd of the tree: make userspace).
# --write-seed-keys rewrites seed-keys.txt from the seeds. -v says what each
# check counted. Exits 0 when everything holds, 1 listing every problem.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
data=$here
dcmd=${DCMD:-$root/build/bin/dcmd}
seeds=${DCM_SEEDS:-}
write_seeds=0
verbose=0

while [ $# -gt 0 ]; do
	case $1 in
	--data) data=$(cd "${2:?--data needs a directory}" && pwd); shift 2 ;;
	--dcmd) dcmd=${2:?--dcmd needs a program}; shift 2 ;;
	--seeds) seeds=${2:?--seeds needs a directory}; shift 2 ;;
	--write-seed-keys) write_seeds=1; shift ;;
	-v) verbose=1; shift ;;
	*) echo "check-data: unknown option $1" >&2; exit 1 ;;
	esac
done
if [ -z "$seeds" ] && [ -d "$here/../../../shared/seeds" ]; then
	seeds=$here/../../../shared/seeds
fi

for tool in xmllint python3; do
	if ! command -v $tool >/dev/null 2>&1; then
		echo "check-data: $tool not found (Debian: libxml2-utils, python3)" >&2
		exit 1
	fi
done
if [ ! -x "$dcmd" ]; then
	echo "check-data: no dcmd at $dcmd: build it (make userspace) or give --dcmd" >&2
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
problems=$tmp/problems
: >"$problems"
export LC_ALL=C

bad() {
	printf '%s\n' "$*" >>"$problems"
}

info() {
	if [ "$verbose" = 1 ]; then
		printf 'check-data: %s\n' "$*"
	fi
}

cd "$data"
variants=$(ls variants/*.xml 2>/dev/null || true)

# ---------------------------------------------------------------------------
# 1. The schemas.

for f in Device.xml body.xml head.xml $variants; do
	case $f in
	Device.xml) schema=device.rng ;;
	*) schema=preferences.rng ;;
	esac
	if ! xmllint --noout --relaxng "$schema" "$f" >"$tmp/out" 2>&1; then
		bad "$f does not validate against $schema: $(tr '\n' ' ' <"$tmp/out")"
	fi
done

n_cases=0
while read -r expect schema doc; do
	case $expect in
	good | bad) ;;
	*) continue ;;
	esac
	n_cases=$((n_cases + 1))
	printf '%s\n' "$doc" >"$tmp/doc.xml"
	if xmllint --noout --relaxng "$schema" "$tmp/doc.xml" >/dev/null 2>&1; then
		[ "$expect" = good ] || bad "$schema accepts $doc"
	else
		[ "$expect" = bad ] || bad "$schema refuses $doc"
	fi
done <schema-tests.txt
info "schemas: the files validate; $n_cases documents of schema-tests.txt judged right"

# ---------------------------------------------------------------------------
# 2. dcmd -n, and the keys it lists (-k).

# keys NAME [dcmd options]: the keys of a robot into $tmp/NAME, or a problem.
keys() {
	name=$1
	shift
	if ! "$dcmd" -n -k -c Device.xml -M none -S . "$@" >"$tmp/$name" 2>"$tmp/err"; then
		bad "dcmd -n $*: $(grep -v '^dcmd: description:' "$tmp/err" | tr '\n' ' ')"
		: >"$tmp/$name"
		return 1
	fi
}

# elements FILE KIND: the devices (DeviceList) or subdevices (SubDeviceList)
# of a key list.
elements() {
	sed -n "s|^Device/$2/\\(.*\\)/Type .*|\\1|p" "$1" | sort
}

# uncalibrated FILE: the joints of a key list whose jointZeroPosition is 0.
uncalibrated() {
	awk '/^Device\/SubDeviceList\/.*\/Type JointPosition$/ {
		n = $1; sub(/^Device\/SubDeviceList\//, "", n); sub(/\/Type$/, "", n)
		joint[n] = 1
	}
	/\/jointZeroPosition / {
		n = $1; sub(/^Device\/SubDeviceList\//, "", n); sub(/\/jointZeroPosition$/, "", n)
		zero[n] = ($2 == 0)
	}
	END { for (n in joint) if (!(n in zero) || zero[n]) print n }' "$1" | sort
}

keys default -b body.xml -H head.xml || true
"$dcmd" -n -c Device.xml -M none -S . -b body.xml -H head.xml >"$tmp/summary" 2>&1 || true
elements "$tmp/default" DeviceList >"$tmp/devices"
elements "$tmp/default" SubDeviceList >"$tmp/subdevices"
n_devices=$(wc -l <"$tmp/devices")
n_subdevices=$(wc -l <"$tmp/subdevices")
info "Device.xml + body.xml + head.xml: $n_devices devices, $n_subdevices subdevices, $(wc -l <"$tmp/default") keys"

# The default robot has everything; its keys are the reference.
if [ -s "$tmp/default" ]; then
	if ! grep -q '^absent parts: none$' "$tmp/summary"; then
		bad "body.xml + head.xml drop parts: $(grep '^absent parts:' "$tmp/summary")"
	fi
	if ! grep -q '^devices: \([0-9]*\) of \1$' "$tmp/summary" ||
	   ! grep -q '^subdevices: \([0-9]*\) of \1$' "$tmp/summary"; then
		bad "body.xml + head.xml drop devices or subdevices: the default robot must have everything"
	fi
	for j in $(uncalibrated "$tmp/default"); do
		bad "$j: not calibrated by body.xml (jointZeroPosition 0)"
	done
	for k in BodyId BodyNickName; do
		grep -q "^Device/DeviceList/ChestBoard/$k ." "$tmp/default" ||
			bad "body.xml: no ChestBoard $k"
	done
	awk '/^Device\/DeviceList\/.*\/Bus / { n = $1; sub(/\/Bus$/, "", n); bus[n] = $2 }
	     /^Device\/DeviceList\/.*\/Address / { n = $1; sub(/\/Address$/, "", n); addr[n] = $2 }
	     END { for (n in bus) print bus[n] " " addr[n] " " substr(n, 19) }' "$tmp/default" |
		sort >"$tmp/addresses"
	awk '{ k = $1 " " $2; if (k in seen) print "Device.xml: " $1 " address " $2 \
		" is taken by " seen[k] " and " $3; else seen[k] = $3 }' "$tmp/addresses" |
		while read -r line; do bad "$line"; done
fi

# ---------------------------------------------------------------------------
# 3. Seed keys.

if [ -n "$seeds" ]; then
	for f in "$seeds"/000_* "$seeds"/001_*; do
		if [ -f "$f" ]; then
			grep -aohE 'Device/SubDeviceList/[A-Za-z0-9_./-]*' "$f" || true
		fi
	done | sed -E 's|/+|/|g; s|[/.]+$||' | awk -F/ 'NF >= 4' | sort -u >"$tmp/seed-keys"
	if [ "$write_seeds" = 1 ]; then
		cp "$tmp/seed-keys" seed-keys.txt
	fi
	if ! cmp -s "$tmp/seed-keys" seed-keys.txt; then
		bad "seed-keys.txt differs from the keys of $seeds" \
		    "(missing $(comm -23 "$tmp/seed-keys" seed-keys.txt | wc -l)," \
		    "extra $(comm -13 "$tmp/seed-keys" seed-keys.txt | wc -l)); rerun with --write-seed-keys"
	fi
	info "seed-keys.txt matches the $(wc -l <"$tmp/seed-keys") keys of seeds 000 and 001 in $seeds"
elif [ "$write_seeds" = 1 ]; then
	echo "check-data: --write-seed-keys needs the seeds (--seeds DIR)" >&2
	exit 1
fi

sort -cu seed-keys.txt 2>/dev/null || bad "seed-keys.txt is not sorted and unique"
if [ -s "$tmp/default" ]; then
	cut -d' ' -f1 "$tmp/default" | sort >"$tmp/paths"
	sort -u seed-keys.txt | comm -23 - "$tmp/paths" >"$tmp/missing"
	while read -r k; do
		bad "seed-keys.txt: $k is not a key of Device.xml + body.xml + head.xml"
	done <"$tmp/missing"
fi
info "seed-keys.txt: $(wc -l <seed-keys.txt) keys, each a key of the default robot"

# ---------------------------------------------------------------------------
# 4. Variants: exactly what each drops (Documentation/dcm/device-xml.rst).
# FILE: dropped subdevices (name prefixes) | dropped devices

leg="HipYawPitch HipRoll HipPitch KneePitch AnklePitch AnkleRoll"
legs_subs=$(for s in L R; do for j in $leg; do printf '%s%s/ ' $s $j; done; done)
legs_devs=$(for s in Left Right; do for b in PelvisBoard HipBoard ThighBoard ShinBoard FootBoard; do
	printf '%s%s ' $s $b; done; done)
cat >"$tmp/table" <<EOF
body-no-left-hand.xml: LHand/ | LeftHandTouchBoard
body-no-legs.xml: $legs_subs LFoot/ RFoot/ | $legs_devs
body-normal-arms.xml: LWristYaw/ LHand/ RWristYaw/ RHand/ | LeftHandBoard LeftHandTouchBoard RightHandBoard RightHandTouchBoard
body-uncalibrated.xml: |
head-no-touch.xml: Head/Touch/ Head/Led/ | TouchBoard
EOF

found=$(for f in $variants; do basename "$f"; done | sort | tr '\n' ' ')
want=$(cut -d: -f1 "$tmp/table" | sort | tr '\n' ' ')
[ "$found" = "$want" ] || bad "variants/: files $found, expected $want"

while IFS=: read -r base spec; do
	[ -f "variants/$base" ] || continue
	case $base in
	head-*) keys variant -b body.xml -H "variants/$base" || continue ;;
	*) keys variant -b "variants/$base" -H head.xml || continue ;;
	esac
	prefixes=${spec%%|*}
	devs=${spec#*|}
	elements "$tmp/variant" SubDeviceList | comm -23 "$tmp/subdevices" - >"$tmp/dropped"
	for p in $prefixes; do
		awk -v p="$p" 'index($0, p) == 1' "$tmp/subdevices"
	done | sort -u >"$tmp/want"
	if ! cmp -s "$tmp/dropped" "$tmp/want"; then
		bad "variants/$base: drops $(comm -23 "$tmp/dropped" "$tmp/want" | tr '\n' ' ')unexpectedly," \
		    "keeps $(comm -13 "$tmp/dropped" "$tmp/want" | tr '\n' ' ')unexpectedly"
	fi
	elements "$tmp/variant" DeviceList | comm -23 "$tmp/devices" - >"$tmp/dropped"
	printf '%s\n' $devs | sort >"$tmp/want"
	sed -i '/^$/d' "$tmp/want"
	if ! cmp -s "$tmp/dropped" "$tmp/want"; then
		bad "variants/$base: drops devices $(tr '\n' ' ' <"$tmp/dropped")expected $(tr '\n' ' ' <"$tmp/want")"
	fi
	zero=$(uncalibrated "$tmp/variant" | tr '\n' ' ')
	joints=$(grep -c '/Type JointPosition$' "$tmp/variant" || true)
	if [ "$base" = body-uncalibrated.xml ]; then
		[ "$(echo $zero | wc -w)" = "$joints" ] || bad "variants/$base: some joints are calibrated"
	elif [ -n "$zero" ]; then
		bad "variants/$base: ${zero}not calibrated"
	fi
	info "variants/$base: $(elements "$tmp/variant" SubDeviceList | wc -l) subdevices and $(elements "$tmp/variant" DeviceList | wc -l) devices kept"
done <"$tmp/table"

# ---------------------------------------------------------------------------
# 5. House rules of the shipped files.

late=$(xmllint --xpath 'count(/DeviceXml/SubDevice[@Device = following-sibling::Device/@Name])' \
	Device.xml 2>/dev/null || echo 0)
[ "$late" = 0 ] || bad "Device.xml: $late SubDevices come before their Device (dcmd takes any order; the shipped files declare each Device first)"

if [ -f gen-device-xml.py ] && ! python3 gen-device-xml.py --check -o . >"$tmp/out" 2>&1; then
	bad "the XML files are not gen-device-xml.py's output: $(tr '\n' ' ' <"$tmp/out")"
fi
info "the XML files are gen-device-xml.py's output"

if [ -s "$problems" ]; then
	sed 's/^/check-data: /' "$problems" >&2
	echo "check-data: $(wc -l <"$problems") problem(s)" >&2
	exit 1
fi
echo "check-data: ok: $n_devices devices, $n_subdevices subdevices," \
     "$(wc -l <seed-keys.txt) seed keys present, $((2 + $(echo $variants | wc -w))) preference files," \
     "$(wc -l <"$tmp/table") variants"
