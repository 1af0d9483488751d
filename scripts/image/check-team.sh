#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-team.sh: the "team machine" image's checks (scripts/image-test.sh
# team), run at boot by dcm-image-check.service. The image is a Debian 12
# machine on which `apt install dcm-sim-dkms dcm-physics dcm-tools` ran, as
# a team's laptop or CI runner: no robot, no body in the firmware. It
# checks that DKMS built dcm_sim for the running kernel, that `dcm-sim
# start` alone brings up the simulated NAO (dcm_sim, dcmd@0, the robot
# standing, dcm-physics.service on the link, dcm-lola), that a LoLA
# client of the group dcm finds the robot on its feet (the FSRs bear the
# model's mass) and lets it fall (stiffness 0: the inertial angles pass 45
# degrees), that the flight recorder wrote the fall's file, and that
# `dcm-sim stop` takes it all down; a user outside root may do none of it.
#
# Prints TAP between the lines @@DCM-IMAGE-BEGIN@@ and @@DCM-IMAGE-END@@
# on the serial console, figures as "# figure: ..." lines.
set -u

USER_NAME=nao
. "$(dirname "$0")/tap.sh"
FLIGHT=/var/lib/dcm/flight

echo "@@DCM-IMAGE-BEGIN@@"
say "kernel $kver, $(systemd --version | head -1)"
: >/tmp/check.log

# -- what apt installed -----------------------------------------------------
dpkg-query -W -f='${Package} ${Version} ${Status}\n' dcm-sim-dkms dcm-physics dcm-tools \
	dcm-dkms >/tmp/check.log 2>&1
say "installed: $(grep -c ' installed$' /tmp/check.log) of 4: $(cut -d' ' -f1,2 /tmp/check.log | tr '\n' ' ')"
[ "$(grep -c ' install ok installed$' /tmp/check.log)" = 4 ]
check $? "apt installed dcm-sim-dkms, dcm-physics and dcm-tools, and dcm-dkms with them"

dkms status -m dcm-sim >/tmp/check.log 2>/dev/null
say "dkms status: $(tr '\n' ';' </tmp/check.log)"
grep -q "^dcm-sim/[^,]*, $kver, x86_64: installed" /tmp/check.log
check $? "DKMS built and installed dcm_sim for the running kernel $kver"

mod=$(modinfo -n dcm_sim 2>&1)
echo "$mod" >/tmp/check.log
case "$mod" in /lib/modules/"$kver"/updates/dkms/dcm_sim.ko*) st=0 ;; *) st=1 ;; esac
check $st "modinfo: dcm_sim is DKMS's module ($mod), dcm is dcm-dkms' ($(modinfo -n dcm 2>&1))"

# Nothing of the simulator runs before the command: dcm is loaded
# (modules-load.d), no body, no dcm0.
! grep -q '^dcm_sim ' /proc/modules && [ ! -e /dev/dcm0 ] &&
	[ "$(systemctl is-enabled dcm-physics.service 2>&1)" = static ] 2>/tmp/check.log
check $? "before the command: no dcm_sim, no dcm0, dcm-physics.service enabled by no one"

# At boot, without dcm0, dcmd@0 and the flight recorder (enabled by
# dcm-tools' preset) were skipped by dcm-physics' drop-ins, not restarted
# every 5 s: multi-user.target was reached (this service runs after it).
{
	systemctl show -p ConditionResult -p NRestarts -p ActiveState dcmd@0.service
	systemctl show -p ConditionResult -p NRestarts -p ActiveState dcm-flight.service
	systemctl is-active multi-user.target
} >/tmp/check.log 2>&1
[ "$(grep -c '^ConditionResult=no$' /tmp/check.log)" = 2 ] &&
	[ "$(grep -c '^NRestarts=0$' /tmp/check.log)" = 2 ] && grep -qx active /tmp/check.log
check $? "at boot dcmd@0 and dcm-flight are skipped (no dcm0), not restarted in a loop; multi-user.target reached ($(tr '\n' ' ' </tmp/check.log))"

# -- a user may not bring it up ---------------------------------------------
! as_user dcm-sim start >/tmp/check.log 2>&1 && grep -q 'run as root' /tmp/check.log &&
	! grep -q '^dcm_sim ' /proc/modules
check $? "$USER_NAME may not run dcm-sim start ($(head -n 1 /tmp/check.log))"

# -- the one command ----------------------------------------------------------
t0=$(date +%s)
dcm-sim start >/tmp/start.log 2>&1
st=$?
took=$(($(date +%s) - t0))
cp /tmp/start.log /tmp/check.log
say "figure: dcm-sim start took $took s ($(tail -n 1 /tmp/start.log))"
check $st "dcm-sim start (one command: dcm_sim, dcmd@0, standing, dcm-physics, dcm-lola)"

for u in dcmd@0.service dcm-physics.service dcm-lola.socket dcm-lola.service dcm-flight.service; do
	echo "$u $(systemctl is-active "$u")"
done >/tmp/check.log
! grep -qv ' active$' /tmp/check.log
check $? "dcmd@0, dcm-physics, dcm-lola and the flight recorder active ($(tr '\n' ' ' </tmp/check.log))"

cat /sys/kernel/debug/dcm_sim/body0/link >/tmp/check.log 2>&1
say "link: $(tr '\n' ' ' </tmp/check.log)"
grep -qx 'attached 1' /tmp/check.log
check $? "dcm-physics opens the body's link /dev/dcm_sim_body0 on this kernel (attached, no relay)"

[ "$(stat -c %a /dev/dcm_sim_body0 2>&1)" = 600 ] &&
	! as_user dcm-physics --ticks 1 --device /dev/dcm_sim_body0 >/tmp/check.log 2>&1 &&
	grep -q 'Permission denied\|Device or resource busy' /tmp/check.log
check $? "$USER_NAME may not open the link ($(head -n 1 /tmp/check.log))"

mass=$(dcm-physics --mass)
say "the model weighs $mass kg"

# -- a LoLA client stands the robot, then lets it fall -------------------------
as_user python3 - "$mass" >/tmp/lola.log 2>&1 <<'PY'
import socket, sys, time
import msgpack

MASS = float(sys.argv[1])
JOINTS = ["HeadYaw", "HeadPitch", "LShoulderPitch", "LShoulderRoll", "LElbowYaw",
          "LElbowRoll", "LWristYaw", "LHipYawPitch", "LHipRoll", "LHipPitch",
          "LKneePitch", "LAnklePitch", "LAnkleRoll", "RHipRoll", "RHipPitch",
          "RKneePitch", "RAnklePitch", "RAnkleRoll", "RShoulderPitch", "RShoulderRoll",
          "RElbowYaw", "RElbowRoll", "RWristYaw", "LHand", "RHand"]
STAND = {"LShoulderPitch": 1.4, "LShoulderRoll": 0.2, "LElbowYaw": -1.2, "LElbowRoll": -0.5,
         "RShoulderPitch": 1.4, "RShoulderRoll": -0.2, "RElbowYaw": 1.2, "RElbowRoll": 0.5,
         "LHipPitch": -0.45, "LKneePitch": 0.7, "LAnklePitch": -0.35,
         "RHipPitch": -0.45, "RKneePitch": 0.7, "RAnklePitch": -0.35}
pos = [STAND.get(j, 0.0) for j in JOINTS]

s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(60)
s.connect("/tmp/robocup")


def recv():
    """One sensor map: LoLA's 896 bytes, a MessagePack map at their start."""
    buf = b""
    while len(buf) < 896:
        chunk = s.recv(896 - len(buf))
        if not chunk:
            raise SystemExit("the socket closed after %d bytes" % len(buf))
        buf += chunk
    unp = msgpack.Unpacker(raw=False)
    unp.feed(buf)
    return next(unp)


def cycle(stiff):
    s.sendall(msgpack.packb({"Position": pos, "Stiffness": [stiff] * 25}))
    return recv()


# Stand: the posture, stiff, as a team's code holds it; the FSRs' total
# over the last 100 maps of 6 s is the model's mass within 10 %, the torso
# upright.
recv()
end = time.monotonic() + 6
maps = []
while time.monotonic() < end:
    maps.append(cycle(1.0))
last = maps[-100:]
total = sum(sum(m["FSR"]) for m in last) / len(last)
tilt = max(max(abs(m["Angles"][0]), abs(m["Angles"][1])) for m in last)
print("STAND %d maps, FSRs %.3f kg (model %.3f kg), largest inertial angle %.3f rad"
      % (len(maps), total, MASS, tilt))
if not (abs(total - MASS) <= 0.1 * MASS and tilt < 0.3):
    raise SystemExit("the robot does not stand")
# Fall: every stiffness to 0, until an inertial angle passes 45 degrees
# (a generous bound: a loaded emulated machine steps the physics slowly).
t0 = time.monotonic()
while True:
    m = cycle(0.0)
    ang = max(abs(m["Angles"][0]), abs(m["Angles"][1]))
    if ang > 0.785:
        break
    if time.monotonic() - t0 > 300:
        raise SystemExit("no fall in 300 s (inertial angle %.3f rad)" % ang)
print("FALL inertial angle %.3f rad after %.1f s" % (ang, time.monotonic() - t0))
# A second more of maps, lying down.
end = time.monotonic() + 1
while time.monotonic() < end:
    cycle(0.0)
PY
st=$?
cp /tmp/lola.log /tmp/check.log
say "LoLA client: $(grep STAND /tmp/lola.log)"
grep -q '^STAND' /tmp/lola.log
check $? "$USER_NAME's LoLA client stands the robot: the FSRs bear the model's mass, the torso upright"
say "LoLA client: $(grep FALL /tmp/lola.log)"
[ "$st" = 0 ] && grep -q '^FALL' /tmp/lola.log
check $? "stiffness 0 through LoLA: the robot falls (an inertial angle past 45 degrees)"

# -- the flight recorder's file of the fall --------------------------------------
fall_file() {
	local f
	for f in "$FLIGHT"/flight-*-dcm0.jsonl; do
		[ -f "$f" ] && head -n 1 "$f" | grep -q '"reason":"fall (fallen: ' && echo "$f" && return 0
	done
	return 1
}
wait_for 60 fall_file
f=$(fall_file)
ls -l "$FLIGHT" >/tmp/check.log 2>&1
say "flight file: ${f:-none}: $(head -c 100 "${f:-/dev/null}" 2>/dev/null)"
[ -n "$f" ] && as_user grep -q '"type":"fall"' "$f" && as_user tail -n 1 "$f" | grep -q '^{"end":{"rows":'
check $? "the flight recorder wrote the fall's file in $FLIGHT, with the fall's event, readable by $USER_NAME"
ay=$(python3 - "${f:-/dev/null}" 2>/tmp/check.log <<'PY'
import json, sys
keys, ay = None, []
for line in open(sys.argv[1]):
    o = json.loads(line)
    if "flight" in o:
        keys = o["flight"]["keys"]
        ix = [k for k, name in enumerate(keys)
              if "InertialSensor/AngleX/Sensor" in name or "InertialSensor/AngleY/Sensor" in name]
    elif "cycle" in o:
        ay.append(max(abs(o["values"][k]) for k in ix))
print("%.3f %.3f" % (min(ay), max(ay)))
PY
)
say "the file's inertial angle (the larger of |AngleX| and |AngleY|): from $ay rad (least, most)"
read -r ay_min ay_max <<<"${ay:-x x}"
awk -v a="$ay_min" -v b="$ay_max" 'BEGIN { exit !(a < 0.3 && b > 0.7) }'
check $? "the file holds the robot upright before the fall and fallen after it (inertial angle $ay rad)"

# -- down again ------------------------------------------------------------------
dcm-sim stop >/tmp/check.log 2>&1 && ! grep -q '^dcm_sim ' /proc/modules &&
	[ "$(systemctl is-active dcm-physics.service)" != active ] &&
	[ "$(systemctl is-active dcm-lola.service)" != active ]
check $? "dcm-sim stop: dcm-lola and dcm-physics stopped, dcm_sim unloaded"
systemctl show -p ExecMainStatus -p Result dcm-physics.service >/tmp/phys.status
journalctl -b -u dcm-physics.service -o cat --no-pager | tail -n 3 >>/tmp/phys.status
say "dcm-physics: $(tr '\n' ' ' </tmp/phys.status)"

echo "@@DCM-IMAGE-END@@"
