# SPDX-License-Identifier: GPL-2.0
#
# Rows: what each RS485 bus puts on its line per cycle (dcm_sim's
# rs485-N/wire counters over BENCH_BYTES_CYCLES cycles, default 500): the
# broadcast's and the replies' bytes, against the payload, and the
# character times (turnarounds and silent slots included). From the bus
# with fewer boards and one with more: each board's cost and the bus's
# fixed cost, and the most boards a bus serves in one period at its baud.
#
# Payload is what a board and the master must exchange each cycle whatever
# the framing: 21 bytes a board, its 8-byte command slot, and in its reply
# the FLAGS byte (the board's state: configured, watchdog, control loops,
# free; its top 3 bits are the reply's tag, counted with it) and the 12
# data bytes. Framing is the broadcast's START ADDR CMD LEN, SEQ, FLAGS
# and CRC, and each reply's CRC (Documentation/dcm/wire-protocol.rst,
# "Budget"). A second share leaves the reply's FLAGS out (20 bytes a
# board), for comparison with the reply frame of before (66.7 % on 4
# boards).

. /share/lib.sh

H=$(how bytes)
N=${BENCH_BYTES_CYCLES:-500}
period=$(cat $DCM/period_us)
for b in 1 2 3 4; do
	cat $SIM/body0/rs485-$b/wire >/tmp/wire0.$b
done
wait_cycles "$N"
for b in 1 2 3 4; do
	cat $SIM/body0/rs485-$b/wire >/tmp/wire1.$b
	paste /tmp/wire0.$b /tmp/wire1.$b | awk -v bus="RS485-$b" '
		{ d[$1] = $4 - $2; v[$1] = $4 }
		END {
			c = d["cycles"]
			if (!c) { print bus, 0; exit }
			tx = d["tx_bytes"] / c; rx = d["rx_bytes"] / c
			# the broadcast: 6 framing + 2 (SEQ, FLAGS) + 8 a board
			n = (tx - 8) / 8
			printf "%s %d %.1f %.1f %.1f %.1f %d\n", bus, c, n, tx, rx, d["chars"] / c, v["baud"]
		}' >>/tmp/wire.txt
done
while read -r bus c n tx rx chars baud; do
	[ "$c" -gt 0 ] || { log "bytes: $bus ran no cycle"; continue; }
	payload=$(awk -v n="$n" 'BEGIN { print n * 21 }')
	row bytes "$bus boards in the cycle" "$n" boards "$H"
	row bytes "$bus bytes per cycle" "$(awk -v a="$tx" -v b="$rx" 'BEGIN { print a + b }')" bytes "$H"
	row bytes "$bus payload per cycle" "$payload" bytes "$H"
	row bytes "$bus payload share of the bytes" \
		"$(awk -v p="$payload" -v a="$tx" -v b="$rx" 'BEGIN { printf "%.1f", 100 * p / (a + b) }')" % "$H"
	row bytes "$bus payload share of the bytes, reply FLAGS not counted" \
		"$(awk -v n="$n" -v a="$tx" -v b="$rx" 'BEGIN { printf "%.1f", 100 * n * 20 / (a + b) }')" % "$H"
	row bytes "$bus character times per cycle" "$chars" chars "$H"
	row bytes "$bus payload share of the line time" \
		"$(awk -v p="$payload" -v c="$chars" 'BEGIN { printf "%.1f", 100 * p / c }')" % "$H"
	row bytes "$bus line time per cycle" \
		"$(awk -v c="$chars" -v b="$baud" 'BEGIN { printf "%.0f", c * 10 * 1000000 / b }')" us "$H"
	row bytes "$bus baud" "$baud" baud "$H"
done </tmp/wire.txt
# Per board and fixed, from the buses of fewest and most boards.
sort -n -k3 /tmp/wire.txt | awk -v p="$period" '
	NR == 1 { n1 = $3; c1 = $6; baud = $7 }
	{ n2 = $3; c2 = $6 }
	END {
		if (n2 == n1) { print "- - - -"; exit }
		per = (c2 - c1) / (n2 - n1); fixed = c1 - per * n1
		max = int((p * baud / 10 / 1000000 - fixed) / per)
		printf "%.1f %.1f %d %d\n", per, fixed, max, (max > 16 ? 16 : max)
	}' >/tmp/fit.txt
set -- $(cat /tmp/fit.txt)
row bytes "character times per board" "$1" chars "$H"
row bytes "character times per cycle, fixed" "$2" chars "$H"
row bytes "most boards in one period at the line's baud" "$3" boards "$H"
row bytes "most boards a bus may have (16 Bids) that fit" "$4" boards "$H"
