#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-check-dts.sh: scripts/check-dts.sh refuses broken copies of
# dts/nao.dts (each one fault, made with sed) and of a binding, and takes
# the shipped ones. Run by `make unit`.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
O=${O:-$top/build}
export O
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-check-dts.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0
n=0

# refused NAME DESCRIPTION SED-ARGS...: check-dts.sh fails on the copy.
refused() {
	name=$1
	what=$2
	shift 2
	n=$((n + 1))
	sed "$@" "$top/dts/nao.dts" >"$tmp/$name.dts"
	if cmp -s "$top/dts/nao.dts" "$tmp/$name.dts"; then
		echo "test-check-dts: FAIL: $what: the sed changed nothing"
		fails=$((fails + 1))
	elif "$top/scripts/check-dts.sh" "$tmp/$name.dts" >/dev/null 2>"$tmp/$name.log"; then
		echo "test-check-dts: FAIL: $what: accepted"
		fails=$((fails + 1))
	else
		echo "test-check-dts: ok: $what: $(grep -m1 -v "^	" "$tmp/$name.log" | sed "s|$tmp/||" | cut -c 1-150)"
	fi
	rm -f "$O/$name.dtb" "$O/$name.dt-facts" "$O/$name.xml-buses"
}

# refused_binding NAME DESCRIPTION SED-SCRIPT: check-dts.sh fails with a
# copy of our bindings where misc/NAME.yaml went through the sed.
refused_binding() {
	n=$((n + 1))
	rm -rf "$tmp/bindings"
	mkdir -p "$tmp/bindings/misc"
	cp "$top"/Documentation/devicetree/bindings/misc/*.yaml "$tmp/bindings/misc/"
	sed -i "$3" "$tmp/bindings/misc/$1.yaml"
	if cmp -s "$top/Documentation/devicetree/bindings/misc/$1.yaml" \
		"$tmp/bindings/misc/$1.yaml"; then
		echo "test-check-dts: FAIL: $2: the sed changed nothing"
		fails=$((fails + 1))
	elif DCM_DT_BINDINGS=$tmp/bindings "$top/scripts/check-dts.sh" >/dev/null \
		2>"$tmp/binding.log"; then
		echo "test-check-dts: FAIL: $2: accepted"
		fails=$((fails + 1))
	else
		echo "test-check-dts: ok: $2: $(grep -m1 -v "^	" "$tmp/binding.log" |
			sed "s|$tmp/||" | cut -c 1-150)"
	fi
}

refused bad-dtc "a dtc warning (reg without unit address)" \
	-e 's/battery@b {/battery {/'
refused bad-name "a bus name Device.xml lacks" \
	-e 's/"I2C-head", "SPI-chest"/"I2C-head", "SPI-head"/'
refused bad-count "fewer buses than names" \
	-e 's/<&i2c_head>, <&spi_chest>;/<\&i2c_head>;/'
refused bad-addr "a board at another address than Device.xml's" \
	-e 's/reg = <0x4c>;/reg = <0x4d>;/' -e 's/head-board@4c/head-board@4d/'
refused bad-bus "the chest and head I2C buses swapped" \
	-e 's/<&i2c_chest>, <&i2c_head>/<\&i2c_head>, <\&i2c_chest>/'
if command -v dt-validate >/dev/null; then
	refused bad-prop "an old property on the RS485 line (binding)" \
		-e 's/current-speed = <1000000>;/current-speed = <1000000>; dcm,bus-name = "RS485-1";/'
	refused bad-ctrl "a UART without its interrupts (kernel binding)" \
		-e '0,/interrupts = <0 32 4>;/s///'
	refused_binding aldebaran,nao-rs485 "a binding with an untyped property" \
		's|^  current-speed:$|  aldebaran,speed:\n    description: untyped\n  current-speed:|'
	refused_binding aldebaran,nao-i2c-board "a binding whose example breaks it" \
		's|^            reg = <0x20>;$|            reg = <0x20>, <0x21>;|'
fi

n=$((n + 1))
if "$top/scripts/check-dts.sh" >"$tmp/good.log" 2>&1; then
	echo "test-check-dts: ok: dts/nao.dts is accepted"
else
	cat "$tmp/good.log"
	echo "test-check-dts: FAIL: dts/nao.dts is refused"
	fails=$((fails + 1))
fi
echo "test-check-dts: $n cases, $fails wrong"
[ "$fails" = 0 ]
