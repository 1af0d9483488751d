# SPDX-License-Identifier: GPL-2.0
#
# Rows: the physics body (scripts/dcm-vm --physics, which scripts/bench.sh
# passes): the cycle's work (p50, p99 over BENCH_PHYSICS_CYCLES cycles,
# 3000 by default) with the simulator's own models, then while dcm-physics
# on the host steps the body through "dcm-physics --relay" and dcm_sim's
# link; the ratios; the link's ticks and the ticks whose state came late
# (debugfs dcm_sim/body0/link), and the real-time factor that makes: the
# ticks answered in time over the ticks. What one tick's physics costs on
# the host, dcm-physics prints when it ends (an INFO line of the report).

. /share/lib.sh

H=$(how physics)
N=${BENCH_PHYSICS_CYCLES:-3000}
LINKDBG=$SIM/body0/link
[ -r "$DCM/stats/percentiles" ] && [ -w "$DCM/stats/reset" ] ||
	{ log "physics: no $DCM/stats/percentiles or reset: nothing to add"; exit 0; }
[ -r "$LINKDBG" ] || { log "physics: no $LINKDBG: nothing to add"; exit 0; }
modprobe virtio_pci 2>/dev/null
modprobe virtio_console 2>/dev/null
# The port appears once the driver has probed it: up to 5 s.
i=0
while ! grep -qsx dcm.physics /sys/class/virtio-ports/*/name && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
grep -qsx dcm.physics /sys/class/virtio-ports/*/name ||
	{ log "physics: no virtio port dcm.physics (dcm-vm --physics)"; exit 0; }

# link_field NAME: a number of the link's debugfs file ("NAME N" lines).
link_field() {
	awk -v k="$1" '$1 == k { print $2 }' "$LINKDBG"
}

# Every joint stiff, so that the body holds its posture under the physics
# (set takes one key: a command each).
for k in $(dcmctl list 'Device/SubDeviceList/*/Hardness/Actuator/Value'); do
	dcmctl set "$k" 1 >/dev/null || log "physics: $k: not stiffened"
done
sleep 1

set -- $(measure_work "$N")
off50=$1 off99=$2

dcm-physics --relay dcm.physics 2>/tmp/bench-physics.err &
rp=$!
sleep 2
t0=$(link_field ticks)
m0=$(link_field missed)
set -- $(measure_work "$N")
on50=$1 on99=$2
t1=$(link_field ticks)
m1=$(link_field missed)
kill "$rp"
wait "$rp"
log "physics: $(cat /tmp/bench-physics.err)"
ticks=$((t1 - t0))
missed=$((m1 - m0))

row physics "cycle work p50, the simulator's own models" "$(us "$off50")" us "$H"
row physics "cycle work p99, the simulator's own models" "$(us "$off99")" us "$H"
row physics "cycle work p50, physics body on the link" "$(us "$on50")" us "$H"
row physics "cycle work p99, physics body on the link" "$(us "$on99")" us "$H"
row physics "work p50 with physics / without" "$(ratio "$on50" "$off50")" x "$H"
row physics "work p99 with physics / without" "$(ratio "$on99" "$off99")" x "$H"
row physics "link ticks" "$ticks" ticks "$H"
row physics "ticks whose state came late" "$missed" ticks "$H"
row physics "real-time factor (ticks answered in time / ticks)" \
	"$(ratio "$((ticks - missed))" "$ticks")" x "$H"
exit 0
