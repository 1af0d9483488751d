#!/usr/bin/env python
# -*- encoding: UTF-8 -*-
# SPDX-License-Identifier: GPL-2.0
"""Head turn: a script written for NAOqi's Python SDK.

It turns NAO's head through the DCM (stiffness on, an alias of HeadYaw and
HeadPitch, timed commands), reads the joints back from ALMemory, lists and
inserts memory keys, asks the DCM for a diagnostic and hears its answer as
an ALMemory event, and saves the chest preferences with a nickname for the
next boot. It prints one line per step, "ok" or "FAIL", and exits 1 if a
step failed.

dcm_naoqi_test.sh runs it on dcm with one line changed, the import:
"from naoqi import ..." becomes "from dcm.naoqi import ...".
"""
from __future__ import print_function

import sys
import time

from naoqi import ALProxy, ALModule, ALBroker

ROBOT_IP = "nao.local"
PORT = 9559
YAW = 0.4      # rad
PITCH = 0.1    # rad
NICKNAME = "HeadTurner"


class SpecialListener(ALModule):
    """Collects what the DCM raises when it ran a special command."""

    def __init__(self, name):
        ALModule.__init__(self, name)
        self.heard = []

    def onSpecial(self, key, value, message):
        self.heard.append((key, value, message))


def wait_for(memory, key, target, tolerance, timeout):
    """Read key until it is within tolerance of target, at most timeout s."""
    end = time.time() + timeout
    value = memory.getData(key)
    while abs(value - target) > tolerance and time.time() < end:
        time.sleep(0.05)
        value = memory.getData(key)
    return value


def turn(ip, port):
    """The head to (YAW, PITCH) in one second, through the alias HeadTurn
    (with a proxy of its own, as a helper of a bigger program makes one)."""
    dcm = ALProxy("DCM", ip, port)
    t = dcm.getTime(0)
    dcm.setAlias(["HeadTurn", "ClearAll", "time-separate", 0,
                  [t + 500, t + 1000], [[YAW / 2, YAW], [PITCH / 2, PITCH]]])


def main():
    failures = []

    def report(ok, what):
        print(("ok   " if ok else "FAIL ") + what)
        sys.stdout.flush()
        if not ok:
            failures.append(what)

    broker = ALBroker("headTurnBroker", "0.0.0.0", 0, ROBOT_IP, PORT)
    dcm = ALProxy("DCM", ROBOT_IP, PORT)
    memory = ALProxy("ALMemory", ROBOT_IP, PORT)

    subdevices, devices = dcm.getPrefix()[0], dcm.getPrefix()[1]
    report(devices == "Device/DeviceList/" and subdevices == "Device/SubDeviceList/",
           "getPrefix: %s, %s" % (devices, subdevices))

    # Stiffness on, now.
    t = dcm.getTime(0)
    for joint in ("HeadYaw", "HeadPitch"):
        dcm.set([subdevices + joint + "/Hardness/Actuator/Value", "Merge", [[1.0, t]]])

    # The head to (YAW, PITCH) in one second, through an alias.
    names = [subdevices + "HeadYaw/Position/Actuator/Value",
             subdevices + "HeadPitch/Position/Actuator/Value"]
    created = dcm.createAlias(["HeadTurn", names])
    report(created == ["HeadTurn", names], "createAlias: %s" % (created,))
    turn(ROBOT_IP, PORT)
    wait_for(memory, subdevices + "HeadYaw/Position/Actuator/Value", YAW, 0.001, 10.0)
    yaw = wait_for(memory, subdevices + "HeadYaw/Position/Sensor/Value", YAW, 0.01, 10.0)
    report(abs(yaw - YAW) <= 0.01, "HeadYaw reached %.3f rad (sensor %.3f)" % (YAW, yaw))

    # Both joints of one cycle.
    values = memory.getListData([subdevices + "HeadYaw/Position/Actuator/Value",
                                 subdevices + "HeadPitch/Position/Sensor/Value",
                                 devices + "ChestBoard/Available"])
    report(abs(values[0] - YAW) < 0.002 and abs(values[1] - PITCH) <= 0.05
           and values[2] in (0, 1),
           "getListData: %s" % (values,))

    # What memory holds.
    head = memory.getDataList("HeadYaw/Position/Sensor")
    report(subdevices + "HeadYaw/Position/Sensor/Value" in head,
           "getDataList(\"HeadYaw/Position/Sensor\"): %d keys" % len(head))
    every = memory.getDataListName()
    report(devices + "ChestBoard/Available" in every and "RobotConfig/Body/Type" in every,
           "getDataListName: %d keys" % len(every))

    # A key of this program's.
    memory.insertData("HeadTurner/Target", YAW)
    report(memory.getData("HeadTurner/Target") == YAW, "insertData, getData of a new key")
    try:
        memory.getData("HeadTurner/Nothing")
        report(False, "getData of a missing key raises")
    except RuntimeError as e:
        report("not found" in str(e), "getData of a missing key: %s" % str(e).split("\n")[-1])

    # The DCM's diagnostic, heard as an event.
    listener = SpecialListener("SpecialListener")
    memory.subscribeToEvent("DCM/Special", "SpecialListener", "onSpecial")
    dcm.special("Diagnostic")
    end = time.time() + 10
    while not listener.heard and time.time() < end:
        time.sleep(0.05)
    memory.unsubscribeToEvent("DCM/Special", "SpecialListener")
    report(len(listener.heard) >= 1 and listener.heard[0][0] == "DCM/Special"
           and listener.heard[0][2] == "SpecialListener",
           "subscribeToEvent: %d DCM/Special event(s)" % len(listener.heard))

    # The chest preferences saved, and a nickname for the next boot.
    dcm.preferences("Save", "Chest", "", 0.0)
    dcm.preferences("Add", "Chest", devices + "ChestBoard/BodyNickName", NICKNAME)
    report(True, "preferences Save and Add")

    broker.shutdown()
    if failures:
        print("%d step(s) failed" % len(failures))
        return 1
    print("done: the head is at %.2f, %.2f" % (YAW, PITCH))
    return 0


if __name__ == "__main__":
    sys.exit(main())
