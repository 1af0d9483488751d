#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check-dts.sh [DTS]: check a device tree of the robot (default dts/nao.dts)
# against dtc, the robot description and the bindings.
#
# 1. dtc compiles it to $O/<name>.dtb without a warning.
# 2. Its body node (compatible "aldebaran,nao-body") has as many
#    aldebaran,buses as aldebaran,bus-names, no name twice, and exactly the
#    buses userspace/data/Device.xml puts boards on; each RS485 bus refers to
#    an aldebaran,nao-rs485 node; every I2C and SPI board of Device.xml is a
#    node of its compatible, at its Address, under the controller the body
#    gives that bus; and there is no board node Device.xml lacks.
# 3. With dt-schema (Debian's dt-schema, scripts/deps.sh): our bindings
#    (Documentation/devicetree/bindings/) pass yamllint and dt-doc-validate,
#    their examples compile and validate, and the dtb
#    passes dt-validate against them, dt-schema's core schemas and the
#    kernel's schemas of the controllers the dts uses, taken from Debian's
#    linux-source-6.1 tarball (KERNEL_SCHEMAS below), with the vendor prefix
#    "aldebaran" added to the kernel's vendor-prefixes.yaml, which lacks it
#    (Documentation/devicetree/bindings/vendor-prefix.rst). The kernel
#    version the tarball holds is the era of Debian's dt-schema, so the two
#    agree. Without dt-validate, or without the tarball, this step is
#    skipped with a note, unless DCM_DT_SCHEMA=1 requires it.
#
# dt-doc-validate and dt-validate print their findings and exit 0 all the
# same, so any output of theirs is a failure here. Exits non-zero on any
# failure.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
O=${O:-$top/build}
dts=${1:-$top/dts/nao.dts}
xml=$top/userspace/data/Device.xml
bindings=${DCM_DT_BINDINGS:-$top/Documentation/devicetree/bindings}
TARBALL=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
name=$(basename "$dts" .dts)
shown=${dts#"$top"/}
mkdir -p "$O"
dtb=$O/$name.dtb

# The kernel's binding schemas the dts needs: its controllers' and what
# they refer to (dt-schema's core ones come with dt-schema).
KERNEL_SCHEMAS="
	vendor-prefixes.yaml
	clock/fixed-clock.yaml
	interrupt-controller/arm,gic.yaml
	serial/serial.yaml
	serial/snps-dw-apb-uart.yaml
	i2c/snps,designware-i2c.yaml
	spi/snps,dw-apb-ssi.yaml
	spi/spi-controller.yaml
	spi/spi-peripheral-props.yaml
	spi/cdns,qspi-nor-peripheral-props.yaml
	spi/samsung,spi-peripheral-props.yaml
	spi/nvidia,tegra210-quad-peripheral-props.yaml
"

fail() {
	echo "check-dts: $*" >&2
	exit 1
}

# 1. dtc
if ! dtc -I dts -O dtb -o "$dtb" "$dts" 2>"$O/dtc.log" || [ -s "$O/dtc.log" ]; then
	cat "$O/dtc.log" >&2
	fail "dtc failed or warned on $shown"
fi

# 2. The body against Device.xml. The decompiled dtb has one property a
# line, phandles as numbers and string lists joined by \0.
sed -n 's/.*<Device [^>]*Type="\([^"]*\)"[^>]*Bus="\([^"]*\)"[^>]*Address="\([^"]*\)".*/xml \1 \2 \3/p' \
	"$xml" >"$O/$name.xml-buses"
[ -s "$O/$name.xml-buses" ] || fail "no Device with Type, Bus and Address in $xml"
dtc -q -I dtb -O dts "$dtb" | awk '
	function path(   p, d) {
		p = ""
		for (d = 2; d <= depth; d++)
			p = p "/" stack[d]
		return p == "" ? "/" : p
	}
	function value(line) {
		sub(/^[^=]*= */, "", line)
		sub(/;$/, "", line)
		return line
	}
	{ sub(/^[ \t]+/, "") }
	/ \{$/ { stack[++depth] = $1; next }
	/^\};$/ { depth--; next }
	/^compatible = / {
		c = value($0)
		gsub(/"/, "", c)
		sub(/\\0.*/, "", c)
		print "compat " path() " " c
	}
	/^reg = </ { r = value($0); gsub(/[<>]/, "", r); split(r, cells, " ")
		printf "reg %s %d\n", path(), cells[1] }
	/^phandle = </ { h = value($0); gsub(/[<>]/, "", h); printf "phandle %d %s\n", h, path() }
	/^aldebaran,buses = / {
		b = value($0)
		gsub(/[<>]/, "", b)
		nb = split(b, hs, " ")
		for (i = 1; i <= nb; i++)
			printf "ref %s %d %d\n", path(), i, hs[i]
		print "nrefs " path() " " nb
	}
	/^aldebaran,bus-names = / {
		s = value($0)
		gsub(/"/, "", s)
		nn = split(s, names, /\\0/)
		for (i = 1; i <= nn; i++)
			printf "name %s %d %s\n", path(), i, names[i]
		print "nnames " path() " " nn
	}' >"$O/$name.dt-facts"

cat "$O/$name.xml-buses" "$O/$name.dt-facts" | awk -v dts="$shown" '
	BEGIN {
		board["ChestBoard"] = "aldebaran,nao-chest-board"
		board["Battery"] = "aldebaran,nao-battery"
		board["USBoard"] = "aldebaran,nao-us-board"
		board["HeadBoard"] = "aldebaran,nao-head-board"
		board["FaceBoard"] = "aldebaran,nao-face-board"
		board["EarBoard"] = "aldebaran,nao-ear-board"
		board["TouchBoard"] = "aldebaran,nao-touch-board"
		board["InertialBoard"] = "aldebaran,nao-inertial-board"
		for (t in board)
			isboard[board[t]] = 1
	}
	function err(msg) { print "check-dts: " dts ": " msg >"/dev/stderr"; bad = 1 }
	function parent(p) { sub(/\/[^\/]*$/, "", p); return p == "" ? "/" : p }
	$1 == "xml" {
		xmlbus[$3] = 1
		if ($2 in board) {
			nx++
			xtype[nx] = $2; xbus[nx] = $3; xaddr[nx] = $4
		}
		next
	}
	$1 == "compat" {
		compat[$2] = $3
		if ($3 == "aldebaran,nao-body")
			body[++nbody] = $2
		next
	}
	$1 == "reg" { reg[$2] = $3; next }
	$1 == "phandle" { node[$2] = $3; next }
	$1 == "ref" { ref[$2, $3] = $4; next }
	$1 == "nrefs" { nrefs[$2] = $3; next }
	$1 == "name" { bname[$2, $3] = $4; next }
	$1 == "nnames" { nnames[$2] = $3; next }
	END {
		if (nbody != 1) {
			err("wants one aldebaran,nao-body node, has " nbody + 0)
			exit 1
		}
		b = body[1]
		if (nrefs[b] + 0 == 0 || nrefs[b] != nnames[b])
			err(b ": " nrefs[b] + 0 " aldebaran,buses for " nnames[b] + 0 " aldebaran,bus-names")
		for (i = 1; i <= nnames[b]; i++) {
			n = bname[b, i]
			if (n in seen)
				err(b ": bus " n " named twice")
			seen[n] = 1
			if (!(n in xmlbus))
				err(b ": bus " n " has no board in Device.xml")
			t = node[ref[b, i]]
			if (t == "") {
				err(b ": bus " n ": no node for aldebaran,buses entry " i)
				continue
			}
			target[n] = t
			if (n ~ /^RS485-/ && compat[t] != "aldebaran,nao-rs485")
				err(b ": bus " n ": " t " is not an aldebaran,nao-rs485 node")
			if (n !~ /^RS485-/ && compat[t] == "aldebaran,nao-rs485")
				err(b ": bus " n ": " t " is an RS485 line")
		}
		for (n in xmlbus)
			if (!(n in seen))
				err(b ": Device.xml has boards on " n ", the body lacks it")
		for (i = 1; i <= nx; i++) {
			c = board[xtype[i]]
			want = target[xbus[i]]
			found = ""
			for (p in compat)
				if (compat[p] == c)
					found = found " " p
			sub(/^ /, "", found)
			if (found == "") {
				err("no " c " node (Device.xml: " xtype[i] " on " xbus[i] ")")
				continue
			}
			if (found ~ / /) {
				err("several " c " nodes: " found)
				continue
			}
			if (want != "" && parent(found) != want)
				err(found ": on " parent(found) ", but " xbus[i] " is " want)
			if (!(found in reg))
				err(found ": no reg (Device.xml Address " xaddr[i] ")")
			else if (reg[found] != xaddr[i])
				err(found ": reg " reg[found] ", Device.xml Address " xaddr[i])
			used[found] = 1
		}
		for (p in compat)
			if ((compat[p] in isboard) && !(p in used))
				err(p ": " compat[p] " is not a board of Device.xml")
		if (!bad)
			printf "check-dts: %s: %d buses, %d I2C/SPI boards as in Device.xml\n",
				dts, nnames[b], nx
		exit bad
	}' || fail "$shown does not describe the robot of userspace/data/Device.xml"

# 3. dt-schema
if ! command -v dt-validate >/dev/null || ! command -v dt-mk-schema >/dev/null ||
	! command -v dt-doc-validate >/dev/null || [ ! -r "$TARBALL" ]; then
	[ "${DCM_DT_SCHEMA:-0}" = 1 ] && fail "dt-schema or $TARBALL missing; run scripts/deps.sh"
	echo "check-dts: dt-schema or $TARBALL missing, bindings not validated (scripts/deps.sh)"
	exit 0
fi

# One schema tree: the kernel's files at their paths, our bindings at
# theirs (dt-doc-validate checks each $id against its path in the tree).
# The kernel's files are extracted once (stamp newer than the tarball and
# than this script, which lists them).
schemas=$O/dt-schemas
kstamp=$schemas/.kernel.stamp
if [ ! -e "$kstamp" ] || [ "$TARBALL" -nt "$kstamp" ] || [ "$0" -nt "$kstamp" ]; then
	rm -rf "$schemas"
	mkdir -p "$schemas"
	members=
	for f in $KERNEL_SCHEMAS; do
		members="$members linux-source-6.1/Documentation/devicetree/bindings/$f"
	done
	# --occurrence: stop reading once each is found (Documentation/ comes
	# first in the tarball), not at its end.
	# shellcheck disable=SC2086 # a word list
	tar -xJf "$TARBALL" -C "$schemas" --strip-components=4 --occurrence=1 $members ||
		fail "cannot extract the kernel's binding schemas from $TARBALL"
	# The prefix a submission adds to the kernel's vendor-prefixes.yaml.
	awk '{ print }
	     /^  "\^alcatel,\.\*":$/ { getline; print
		print "  \"^aldebaran,.*\":"
		print "    description: Aldebaran Robotics (SoftBank Robotics)" }' \
		"$schemas/vendor-prefixes.yaml" >"$schemas/vendor-prefixes.yaml.new"
	grep -q '"^aldebaran,' "$schemas/vendor-prefixes.yaml.new" ||
		fail "could not add aldebaran to vendor-prefixes.yaml"
	mv "$schemas/vendor-prefixes.yaml.new" "$schemas/vendor-prefixes.yaml"
	touch "$kstamp"
fi
rm -rf "$schemas/misc"
mkdir -p "$schemas/misc"
cp "$bindings"/misc/aldebaran,*.yaml "$schemas/misc/"

out=$O/dt-schema.log
: >"$out"
if command -v yamllint >/dev/null; then
	(cd "$bindings" && yamllint -f parsable -d '{extends: relaxed, rules: {line-length: {max: 100}}}' \
		misc/aldebaran,*.yaml) >>"$out" 2>&1 || true
fi
for f in "$schemas"/misc/aldebaran,*.yaml; do
	dt-doc-validate -u "$schemas" "$f" >>"$out" 2>&1 || echo "dt-doc-validate failed on $f" >>"$out"
done
if [ ! -s "$out" ]; then
	dt-mk-schema -j -o "$O/dt-schema.json" "$schemas" >>"$out" 2>&1 ||
		echo "dt-mk-schema failed" >>"$out"
fi
if [ ! -s "$out" ]; then
	# Each binding's examples, as the kernel's dt_binding_check does:
	# compiled (the wrapper's needless #address-cells aside) and validated.
	for f in "$schemas"/misc/aldebaran,*.yaml; do
		ex=$O/dt-examples/$(basename "$f" .yaml)
		mkdir -p "$O/dt-examples"
		dt-extract-example "$f" >"$ex.dts" 2>>"$out" &&
			dtc -Wno-avoid_unnecessary_addr_size -I dts -O dtb -o "$ex.dtb" "$ex.dts" \
				>>"$out" 2>&1 &&
			dt-validate -s "$O/dt-schema.json" "$ex.dtb" >>"$out" 2>&1 ||
			echo "the examples of $f do not compile or validate" >>"$out"
	done
fi
if [ ! -s "$out" ]; then
	# -m: a compatible no schema knows is a failure too, but for the
	# root's (the board's own, which a robot image's dts sets).
	dt-validate -m -s "$O/dt-schema.json" "$dtb" 2>&1 |
		grep -v ": /: failed to match any schema with compatible: \['aldebaran,nao'\]$" \
			>>"$out" || true
fi
if [ -s "$out" ]; then
	# The vendor prefix findings list every known prefix: cut.
	sed "s|$schemas/|Documentation/devicetree/bindings/|g" "$out" | cut -c 1-400 >&2
	fail "dt-schema: the bindings or $shown do not validate"
fi
echo "check-dts: dt-schema: $(ls "$schemas"/misc/aldebaran,*.yaml | wc -l) bindings, their examples and $(basename "$dtb") validate"
