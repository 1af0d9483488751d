#!/usr/bin/env python
# -*- encoding: UTF-8 -*-
# SPDX-License-Identifier: GPL-2.0
"""Arm and head gesture: a user's script of the kind published for NAO.

Written as NAO users write them (for instance github.com/allexlima/NaoVision,
Testes.py): the module imported whole ("import naoqi", then
naoqi.ALProxy), an alias of four joints with full names, one setAlias
"Merge" "time-mixed" with one command per member, each at its own
getTime(...), the hand opened with set "ClearAll", a sleep, the hand
closed a little, and the end of the script while that last command plays.
The robot is expected stiff (the user's robot was). This script makes those
calls with those shapes; the values are its own.

Prints "ok" or "FAIL" per step, then "end T" and "exit T" (DCM times).
dcm_naoqi_test.sh runs it with the import line changed ("import naoqi"
becomes "import dcm.naoqi as naoqi") and checks, through sysfs after the
script exited, that every joint came where it was sent.
"""
from __future__ import print_function

import sys
import time

import naoqi

JOINTS = ["LElbowYaw", "LWristYaw", "HeadPitch", "HeadYaw"]
TARGETS = [-1.2, -1.0, 0.3, 0.5]
DELAYS = [1500, 1000, 600, 2000]


def main():
    failures = []

    def report(ok, what):
        print(("ok   " if ok else "FAIL ") + what)
        sys.stdout.flush()
        if not ok:
            failures.append(what)

    dcm = naoqi.ALProxy("DCM", "192.168.0.1", 9559)
    names = ["Device/SubDeviceList/%s/Position/Actuator/Value" % j for j in JOINTS]
    answer = dcm.createAlias(["Movements", names])
    report(answer == ["Movements", names], "createAlias of %d joints" % len(names))

    dcm.setAlias(["Movements", "Merge", "time-mixed",
                  [[[TARGETS[i], dcm.getTime(DELAYS[i])]] for i in range(len(JOINTS))]])
    hand = "Device/SubDeviceList/LHand/Position/Actuator/Value"
    dcm.set([hand, "ClearAll", [[0.6, dcm.getTime(1000)]]])
    report(True, "setAlias Merge time-mixed, the hand to 0.6")
    time.sleep(1)
    dcm.set([hand, "ClearAll", [[0.4, dcm.getTime(500)]]])
    end = dcm.getTime(500)
    report(True, "the hand to 0.4 in 500 ms")

    print("end %d" % end)
    print("exit %d" % dcm.getTime(0))
    if failures:
        print("%d step(s) failed" % len(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
