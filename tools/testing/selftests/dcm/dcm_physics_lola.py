#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# dcm_physics_lola.py: a LoLA client against the physics body (dcm-physics
# on dcm_sim's link), as a team's motion code drives a robot: every sensor
# map is answered with the whole Position and Stiffness arrays. Used by
# dcm_physics_test.sh, with dcm-lola serving the socket.
#
#  1. the standing posture, stiffness 1, reached through the simulator's own
#     motor models; then dcm-physics is started and puts the body on the
#     ground in that posture;
#  2. stand: for --stand seconds the FSRs' total (over 10 maps) is the
#     model's mass within 5 % and the centre of pressure stays inside the
#     support polygon in every map;
#  3. squat: the knees bent further, slowly: the knee motors' current rises,
#     the weight stays on the feet;
#  4. weight shift: hip and ankle rolls carry the torso over the left foot
#     while the right leg shortens a little (knee, hip and ankle pitch),
#     then the other way: at the end of each, at least 80 % of the weight
#     on the loaded foot;
#  5. fall: every stiffness to 0: the inertial angles pass 45 degrees
#     (within 2 s on an idle host: a check of timing, asserted only with
#     DCM_TIMING_CHECKS=1; a host busy with other work slows the lockstep
#     of cycle and physics, so that make check waits 20 s for the fall).
#
# Prints "RESULT <0|1> <what>" and "# ..." lines like dcm_lola_client.py,
# whose connection and layout it uses. Python 3 and python3-msgpack.

import argparse
import math
import os
import subprocess
import sys
import time

from dcm_lola_client import Conn, JOINTS, TIMING, info, result, results, value

IDX = {j: i for i, j in enumerate(JOINTS)}

# NAO's standing posture (rad), the one of Documentation/dcm/physics.rst:
# legs bent as a walking engine stands, arms down at the sides, hands
# closed.
STAND = {
    "HeadYaw": 0.0, "HeadPitch": 0.0,
    "LShoulderPitch": 1.4, "LShoulderRoll": 0.2, "LElbowYaw": -1.2,
    "LElbowRoll": -0.5, "LWristYaw": 0.0, "LHand": 0.0,
    "RShoulderPitch": 1.4, "RShoulderRoll": -0.2, "RElbowYaw": 1.2,
    "RElbowRoll": 0.5, "RWristYaw": 0.0, "RHand": 0.0,
    "LHipYawPitch": 0.0, "LHipRoll": 0.0, "LHipPitch": -0.45,
    "LKneePitch": 0.7, "LAnklePitch": -0.35, "LAnkleRoll": 0.0,
    "RHipRoll": 0.0, "RHipPitch": -0.45,
    "RKneePitch": 0.7, "RAnklePitch": -0.35, "RAnkleRoll": 0.0,
}

# The FSRs' places in their foot (m, X forward, Y left), LoLA's order:
# Documentation/dcm/physics.rst gives their source.
FSR_XY = [(0.07025, 0.0299), (0.07025, -0.0231), (-0.03025, 0.0299), (-0.02965, -0.0191),
          (0.07025, 0.0231), (0.07025, -0.0299), (-0.03025, 0.0191), (-0.02965, -0.0299)]
FOOT_Y = 0.05           # each ankle from the hips' middle: HipOffsetY
FOOT_X = (-0.055, 0.105)  # the soles' outline along X, in the foot
FOOT_HALF_W = 0.045     # and half their width about the ankle


def posture(d):
    return [d.get(j, 0.0) for j in JOINTS]


def fsr(pkt):
    return [value(pkt, "FSR", i) for i in range(8)]


def cop(f):
    """The centre of pressure of both feet, from the hips' middle (m)."""
    tot = sum(f)
    if tot <= 0:
        return None
    x = sum(f[i] * FSR_XY[i][0] for i in range(8)) / tot
    y = sum(f[i] * (FSR_XY[i][1] + (FOOT_Y if i < 4 else -FOOT_Y)) for i in range(8)) / tot
    return x, y


def inside_support(f):
    """The centre of pressure lies within the two soles' hull (a box here:
    the soles side by side, the hull of two equal rectangles)."""
    c = cop(f)
    if c is None:
        return False
    x, y = c
    return FOOT_X[0] <= x <= FOOT_X[1] and -FOOT_Y - FOOT_HALF_W <= y <= FOOT_Y + FOOT_HALF_W


class Client:
    def __init__(self, a):
        self.a = a
        self.c = Conn(a.socket)
        self.pkt = self.c.recv()
        self.pos = posture(STAND)
        self.stiff = [1.0] * 25

    def cycle(self):
        self.c.send({"Position": self.pos, "Stiffness": self.stiff})
        self.pkt = self.c.recv()
        return self.pkt

    def ramp(self, target, seconds):
        """From the positions sent now to target, linearly, over seconds
        of sensor maps (about 100 a second)."""
        start = list(self.pos)
        n = max(1, int(seconds * 100))
        for k in range(1, n + 1):
            self.pos = [s + (t - s) * k / n for s, t in zip(start, target)]
            self.cycle()

    def hold(self, seconds, each=None):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.cycle()
            if each:
                each(self.pkt)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--socket", default="/tmp/robocup")
    p.add_argument("--physics", default="dcm-physics", help="the physics daemon's command")
    p.add_argument("--mass", type=float, required=True, help="the model's mass, kg")
    p.add_argument("--stand", type=float, default=10.0, help="seconds of standing checked")
    p.add_argument("--shift", type=float, default=0.28, help="the hip and ankle rolls, rad")
    p.add_argument("--lift", type=float, default=0.15,
                   help="how much more the unloaded leg's knee bends, rad")
    p.add_argument("--log", default="/tmp/dcm-physics.log")
    a = p.parse_args()
    scale = max(1, int(os.environ.get("DCM_TEST_TIMEOUT_SCALE", "1") or 1))
    cl = Client(a)

    # 1. The posture on the simulator's own motors, before any physics.
    cl.pos = [value(cl.pkt, "Position", i) for i in range(25)]
    cl.ramp(posture(STAND), 1.5)
    cl.hold(0.5)
    err = max(abs(value(cl.pkt, "Position", i) - STAND[j])
              for i, j in enumerate(JOINTS) if not j.endswith("Hand"))
    result(err < 0.05, "the standing posture reached, stiffness 1 (worst joint %.3f rad off)"
           % err)
    log = open(a.log, "w")
    phys = subprocess.Popen(a.physics.split(), stderr=log, stdout=log)
    try:
        run(cl, a, scale)
    finally:
        phys.terminate()
        phys.wait(10)
        log.close()
    with open(a.log) as f:
        for line in f:
            info("dcm-physics: " + line.rstrip())
    return 0 if all(results) else 1


def run(cl, a, scale):
    # The physics takes over at the relay's first tick and the body settles
    # on its feet (2 s, as the host tests let it): then the FSRs bear the
    # model's mass, no longer the simulator's fixed split of the weight.
    cl.hold(2.0 * scale)

    # 2. Stand. The weight is judged as balance code reads FSRs, over 10
    # maps (about 0.1 s): one map may mix two ticks of the physics (the
    # feet's boards answer on two buses), and the emulated guest's cycle
    # jitters; the worst single map is shown too.
    totals = []
    bad_c = n = 0
    tilt = 0.0

    def stand_sample(pkt):
        nonlocal bad_c, n, tilt
        f = fsr(pkt)
        totals.append(sum(f))
        n += 1
        bad_c += not inside_support(f)
        tilt = max(tilt, abs(value(pkt, "Angles", 0)), abs(value(pkt, "Angles", 1)))

    cl.hold(a.stand, stand_sample)
    win = [sum(totals[i:i + 10]) / 10 for i in range(max(0, len(totals) - 9))]
    worst = max((abs(w - a.mass) / a.mass for w in win), default=1.0)
    worst1 = max((abs(t - a.mass) / a.mass for t in totals), default=1.0)
    result(n >= 100 and worst <= 0.05,
           "stand: the FSRs' total within 5 %% of the model's %.3f kg over every 10 maps of "
           "%.0f s (%d maps; worst %.1f %%, worst single map %.1f %%)"
           % (a.mass, a.stand, n, 100 * worst, 100 * worst1))
    result(n > 0 and bad_c == 0,
           "stand: the centre of pressure inside the support polygon in all %d maps (%d outside)"
           % (n, bad_c))
    result(tilt < 0.2, "stand: the torso upright (largest inertial angle %.3f rad)" % tilt)

    # 3. Squat: knees 0.5 rad more, hips and ankles half each, over 2 s.
    knees = (IDX["LKneePitch"], IDX["RKneePitch"])
    i_stand = sum(value(cl.pkt, "Current", k) for k in knees)
    squat = dict(STAND)
    for side in "LR":
        squat[side + "KneePitch"] += 0.5
        squat[side + "HipPitch"] -= 0.25
        squat[side + "AnklePitch"] -= 0.25
    cl.ramp(posture(squat), 2.0)
    cl.hold(1.0)
    i_squat = sum(value(cl.pkt, "Current", k) for k in knees)
    tot = sum(fsr(cl.pkt))
    result(i_squat > i_stand * 1.2,
           "squat: the knees' current rises with the bend (%.3f A -> %.3f A)" % (i_stand, i_squat))
    result(abs(tot - a.mass) / a.mass < 0.05,
           "squat: the weight stays on the feet (%.3f kg)" % tot)
    cl.ramp(posture(STAND), 2.0)
    cl.hold(1.0)

    # 4. Weight shift: the pelvis over one foot and then the other, slowly.
    for side, sign, feet, other in (("left", 1, range(0, 4), "R"),
                                    ("right", -1, range(4, 8), "L")):
        shift = dict(STAND)
        for leg in "LR":
            # hip roll -a puts the feet right of the hips: the torso left
            shift[leg + "HipRoll"] = -sign * a.shift
            shift[leg + "AnkleRoll"] = sign * a.shift
        shift[other + "KneePitch"] += a.lift
        shift[other + "HipPitch"] -= a.lift / 2
        shift[other + "AnklePitch"] -= a.lift / 2
        cl.ramp(posture(shift), 3.0)
        cl.hold(1.0)
        f = fsr(cl.pkt)
        share = sum(f[i] for i in feet) / max(sum(f), 1e-9)
        result(share >= 0.8, "weight shift through LoLA: %.0f %% of the weight on the %s foot "
               "(FSRs %s)" % (100 * share, side, " ".join("%.2f" % v for v in f)))
        cl.ramp(posture(STAND), 3.0)
        cl.hold(1.0)

    # 5. Fall: stiffness 0 everywhere.
    cl.stiff = [0.0] * 25
    t0 = time.monotonic()
    fell = None
    while time.monotonic() - t0 < 20.0 * scale:
        cl.cycle()
        ang = max(abs(value(cl.pkt, "Angles", 0)), abs(value(cl.pkt, "Angles", 1)))
        if ang > math.pi / 4:
            fell = time.monotonic() - t0
            break
    what = ("fall: stiffness 0, the inertial angles past 45 degrees in %s s"
            % ("%.2f" % fell if fell is not None else "more than %d" % (20 * scale)))
    result(fell is not None, what)
    if fell is not None and TIMING:
        result(fell <= 2.0 * scale, what + " (at most 2)")
    elif fell is not None and fell > 2.0 * scale:
        info("timing, not asserted: " + what + " (2 on an idle host)")
    cl.hold(1.0)


if __name__ == "__main__":
    sys.exit(main())
