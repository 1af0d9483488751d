#!/usr/bin/env python
# -*- encoding: UTF-8 -*-
# SPDX-License-Identifier: GPL-2.0
"""Hardware test helpers: the calls SoftBank's own test libraries make.

SoftBank's hardware test tools (github.com/ddambreville/quick_hard_access:
subdevice.py, device.py, qha_tools.py; github.com/ddambreville/hw-tests:
conftest.py) read and command the robot through the DCM and ALMemory
proxies. This script makes their calls with their argument shapes (the
code is this script's own):

* a subdevice's keys read as ``getData(getPrefix()[0] + name + "/" + key)``
  (Min, Max, Type, Device, SubDeviceNumber, Gain, Offset) and a device's
  as ``getData(getPrefix()[1] + name + "/" + key)`` (Ack, Nack, Available,
  Type, Bus, Address);
* the fixture that stiffens the robot: the names of
  ``getDataList("Hardness/Actuator/Value")`` made an alias, then
  ``set([alias, "Merge", [[1.0, getTime(0)]]])``; and its end: ``Merge``
  of [[0.1, getTime(0)]], then of [[0., getTime(1000)]], after which the
  script exits while the hardness still goes down;
* a position of several joints: an alias of ``name + "/Value"`` and one
  setAlias "time-separate" whose times are ``[getTime(t) for t in times]``
  and whose values are a dict's ``values()`` (a list in Python 2, a view
  in Python 3), then a wait on the DCM's clock (getTime(0) differences);
* a joint sent to a position with ``getTime(3000.)`` (a float offset);
* an actuator's commands from a list of (value, delay) tuples, its name
  without the "Device/SubDeviceList/" prefix.

Prints "ok" or "FAIL" per step, the keys it read, then "end T" (when the
last command ends) and "exit T". dcm_naoqi_test.sh runs it with the import
line changed and checks, after the script exited, that every joint's
hardness came to 0 and where the head and the LED are.
"""
from __future__ import print_function

import sys

from naoqi import ALProxy

YAW = -0.3          # rad, reached with getTime(3000.)
REST = {"HeadYaw/Position/Actuator": ["0.2", "0.1"],
        "HeadPitch/Position/Actuator": ["0.05", "0.0"],
        "Time": ["500", "1000"]}
LED = "ChestBoard/Led/Green/Actuator"
LED_STEPS = [(1, 0), (1, 300), (0.5, 800)]


def dcm_wait(dcm, ms):
    """Wait ms of the DCM's clock, as the helpers do."""
    start = dcm.getTime(0)
    while dcm.getTime(0) - start < ms:
        pass


def settle(dcm, mem, key, target, tolerance, ms=10000):
    """Read key until it is within tolerance of target, at most ms of DCM time."""
    start = dcm.getTime(0)
    value = mem.getData(key)
    while abs(value - target) > tolerance and dcm.getTime(0) - start < ms:
        value = mem.getData(key)
    return value


def key_of(dcm, mem, name, key, device=False):
    """A subdevice's (or a device's) key, read with the prefix getPrefix gives."""
    return mem.getData(dcm.getPrefix()[1 if device else 0] + name + "/" + key)


def pose(dcm, datas, wait=True):
    """Several joints at once: an alias, setAlias time-separate."""
    times = [int(t) for t in datas["Time"]]
    joints = dict((k, [float(v) for v in vals]) for k, vals in datas.items() if k != "Time")
    dcm.createAlias(["Alias", [name + "/Value" for name in joints.keys()]])
    dcm.setAlias(["Alias", "ClearAll", "time-separate", 0,
                  [dcm.getTime(t) for t in times], joints.values()])
    if wait:
        dcm_wait(dcm, times[-1])


def main():
    failures = []

    def report(ok, what):
        print(("ok   " if ok else "FAIL ") + what)
        sys.stdout.flush()
        if not ok:
            failures.append(what)

    dcm = ALProxy("DCM", "127.0.0.1", 9559)
    mem = ALProxy("ALMemory", "127.0.0.1", 9559)

    prefix = dcm.getPrefix()
    report(prefix[0] == "Device/SubDeviceList/" and prefix[1] == "Device/DeviceList/",
           "getPrefix: %s" % (prefix,))

    # a subdevice's keys and a device's
    act = "HeadYaw/Position/Actuator"
    lo, hi = key_of(dcm, mem, act, "Min"), key_of(dcm, mem, act, "Max")
    kind, board = key_of(dcm, mem, act, "Type"), key_of(dcm, mem, act, "Device")
    number = key_of(dcm, mem, act, "SubDeviceNumber")
    gain, offset = key_of(dcm, mem, act, "Gain"), key_of(dcm, mem, act, "Offset")
    report(isinstance(lo, float) and isinstance(hi, float) and lo < 0 < hi,
           "HeadYaw's Min %r and Max %r" % (lo, hi))
    report(kind == "Joint" and board == "HeadBoard" and number == 1,
           "HeadYaw's Type %r, Device %r, SubDeviceNumber %r" % (kind, board, number))
    report(isinstance(gain, (int, float)) and isinstance(offset, (int, float)),
           "HeadYaw's Gain %r, Offset %r" % (gain, offset))
    ack, nack = key_of(dcm, mem, board, "Ack", True), key_of(dcm, mem, board, "Nack", True)
    avail = key_of(dcm, mem, board, "Available", True)
    btype = key_of(dcm, mem, board, "Type", True)
    bus, address = key_of(dcm, mem, board, "Bus", True), key_of(dcm, mem, board, "Address", True)
    report(isinstance(ack, int) and ack > 0 and isinstance(nack, int) and avail == 1,
           "%s's Ack %r, Nack %r, Available %r" % (board, ack, nack, avail))
    report(btype == "MotorBoard" and bool(bus) and address is not None,
           "%s's Type %r, Bus %r, Address %r" % (board, btype, bus, address))

    # the fixture: every joint stiff
    hardness = mem.getDataList("Hardness/Actuator/Value")
    dcm.createAlias(["Hardness", hardness])
    dcm.set(["Hardness", "Merge", [[1.0, dcm.getTime(0)]]])
    dcm_wait(dcm, 100)
    stiff = mem.getListData(hardness)
    report(len(hardness) >= 20 and all(h == 1.0 for h in stiff),
           "stiff: %d joints' Hardness at 1.0" % len(hardness))

    # the head to a pose, waited for on the DCM's clock
    pose(dcm, REST)
    yaw = settle(dcm, mem, prefix[0] + "HeadYaw/Position/Sensor/Value", 0.1, 0.02)
    pitch = settle(dcm, mem, prefix[0] + "HeadPitch/Position/Sensor/Value", 0.0, 0.02)
    report(abs(yaw - 0.1) < 0.02 and abs(pitch - 0.0) < 0.02,
           "pose: HeadYaw %.3f (0.1), HeadPitch %.3f (0.0)" % (yaw, pitch))

    # a joint sent to a position in 3000. ms, waited for
    t = dcm.getTime(3000.)
    dcm.set([act + "/Value", "ClearAll", [[float(YAW), t]]])
    dcm_wait(dcm, 3000.)
    yaw = settle(dcm, mem, prefix[0] + "HeadYaw/Position/Sensor/Value", YAW, 0.02)
    report(abs(yaw - YAW) < 0.02, "go to %.1f with getTime(3000.): HeadYaw %.3f" % (YAW, yaw))

    # an LED's commands from (value, delay) tuples
    dcm.set([LED + "/Value", "ClearAll",
             [[float(v), dcm.getTime(d)] for v, d in LED_STEPS]])

    # the fixture's end: soft again, the last command a second from now
    dcm.set(["Hardness", "Merge", [[0.1, dcm.getTime(0)]]])
    dcm.set(["Hardness", "Merge", [[0., dcm.getTime(1000)]]])
    end = dcm.getTime(1000)
    report(True, "soft in one second: Merge [[0.1, now]], [[0., getTime(1000)]]")

    print("end %d" % end)
    print("exit %d" % dcm.getTime(0))
    if failures:
        print("%d step(s) failed" % len(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
