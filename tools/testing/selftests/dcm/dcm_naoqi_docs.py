#!/usr/bin/env python
# -*- encoding: UTF-8 -*-
# SPDX-License-Identifier: GPL-2.0
"""Chest LEDs: the calls of the examples of NAOqi's DCM API documentation.

NAOqi 2.x's DCM API page (doc.aldebaran.com/2-4/naoqi/sensors/dcm-api.html,
createAlias, set and setAlias) shows a script that names the three chest
LEDs "ChestLeds" (names without "Device/SubDeviceList/") and gives the
alias four timed commands made with getTime(1000) ... getTime(4000), then
the same to the red and the green LED alone, and a Merge of one command
now to the blue one; and then exits, leaving NAOqi to play the commands.
This script makes those calls, with those shapes (the values are its own:
each LED ends at a value of its own, so that whoever looks after the script
can tell which command played last), and setAlias in both of its forms as
that page describes them.

It prints one line per step, "ok" or "FAIL", then "end T": the DCM time
at which the last command ends, and "exit T": the DCM time when it ends.
dcm_naoqi_test.sh checks, through sysfs after the script exited, that the
LEDs reached their last values. On dcm the script's import line changes
("from naoqi import ..." becomes "from dcm.naoqi import ...").
"""
from __future__ import print_function

import sys

from naoqi import ALProxy

LEDS = ["ChestBoard/Led/Red/Actuator/Value",
        "ChestBoard/Led/Green/Actuator/Value",
        "ChestBoard/Led/Blue/Actuator/Value"]
LAST = {"Red": 0.75, "Green": 0.5, "Blue": 0.25}


def main():
    failures = []

    def report(ok, what):
        print(("ok   " if ok else "FAIL ") + what)
        sys.stdout.flush()
        if not ok:
            failures.append(what)

    dcm = ALProxy("DCM", "127.0.0.1", 9559)

    # createAlias returns the list, names it did not find blanked
    answer = dcm.createAlias(["ChestLeds", LEDS])
    report(answer == ["ChestLeds", LEDS], "createAlias: %s" % (answer,))

    # setAlias, both forms, a command per member
    t = dcm.getTime(0)
    dcm.setAlias(["ChestLeds", "ClearAll", "time-separate", 0,
                  [t + 200, t + 400], [[1.0, 0.0], [0.0, 1.0], [0.5, 0.0]]])
    dcm.setAlias(["ChestLeds", "ClearAll", "time-mixed",
                  [[[1.0, t + 200]], [[0.5, t + 100], [0.0, t + 300]], []]])
    report(True, "setAlias time-separate and time-mixed")

    # the alias, on and off twice, by set: four commands made by getTime
    dcm.set(["ChestLeds", "ClearAll",
             [[1.0, dcm.getTime(1000)], [0.0, dcm.getTime(2000)],
              [1.0, dcm.getTime(3000)], [LAST["Blue"], dcm.getTime(4000)]]])
    # the same to the red and the green LED alone, ClearAll
    for led in ("Red", "Green"):
        dcm.set(["ChestBoard/Led/%s/Actuator/Value" % led, "ClearAll",
                 [[1.0, dcm.getTime(1000)], [0.0, dcm.getTime(2000)],
                  [1.0, dcm.getTime(3000)], [LAST[led], dcm.getTime(4000)]]])
    end = dcm.getTime(4000)
    # and the blue one on now, merged into the alias's commands
    dcm.set(["ChestBoard/Led/Blue/Actuator/Value", "Merge", [[1.0, dcm.getTime(0)]], ])
    report(True, "set on the alias and on each LED, four commands up to getTime(4000)")

    print("end %d" % end)
    print("exit %d" % dcm.getTime(0))
    if failures:
        print("%d step(s) failed" % len(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
