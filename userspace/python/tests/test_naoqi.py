# SPDX-License-Identifier: LGPL-2.1-or-later
"""The NAOqi-flavoured layer on the host: the list shapes of set, setAlias
(both forms) and createAlias are taken as NAOqi takes them and refused with
TypeError or ValueError naming the argument otherwise; each call reaches the
controller as the right method with the right arguments (a fake controller
records them); unknown names raise NoSuchKeyError naming the key."""

import errno
import unittest

import dcm
from dcm import naoqi
from dcm.core import Key

ACT = dcm.core._lib.KEY_ACTUATOR
HY = "HeadYaw/Position/Actuator/Value"


class FakeController:
    """Records what the NAOqi layer asks; knows two actuators, a sensor."""

    def __init__(self):
        self.calls = []
        self.keys = {
            HY: Key(HY, 0x10005, ACT),
            "Device/SubDeviceList/HeadPitch/Position/Actuator/Value": Key("HP", 0x10006, ACT),
            "HeadYaw/Position/Sensor/Value": Key("HYS", 0x10007, 0),
        }
        self.aliases = {"Head": 2}
        self.now = 0xfffffff0

    def key(self, name):
        if isinstance(name, Key):
            return name
        if name not in self.keys:
            raise dcm.NoSuchKeyError(errno.ENOENT, "%s: no such key" % name, "dcm_lookup",
                                     key=name)
        return self.keys[name]

    def _alias(self, name):
        if name not in self.aliases:
            raise dcm.NoSuchAliasError(errno.ENOENT, "no alias", "x", alias=name)

    def set_timed(self, key, pts, kind):
        self.calls.append(("set_timed", key.handle, pts, kind))

    def set_alias_all(self, name, pts, kind):
        self._alias(name)
        self.calls.append(("set_alias_all", name, pts, kind))

    def set_alias_mixed(self, name, members, kind):
        self._alias(name)
        self.calls.append(("set_alias_mixed", name, members, kind))

    def set_alias_separate(self, name, times, values, kind, imp):
        self._alias(name)
        self.calls.append(("set_alias_separate", name, times, values, kind, imp))

    def create_alias(self, name, members):
        self.calls.append(("create_alias", name, members))
        return [self.keys.get(m) if self.keys.get(m) and self.keys[m].actuator else None
                for m in members]

    def time(self, offset=0):
        return (self.now + offset) & 0xffffffff


class Shapes(unittest.TestCase):
    def test_set_accepts_naoqi_shapes(self):
        n, k, p = naoqi.parse_set([HY, "ClearAll", [[0.5, 1000], [0.25, 2000, 3]]])
        self.assertEqual((n, k), (HY, dcm.UpdateKind.CLEAR_ALL))
        self.assertEqual(p, [(0.5, 1000, 0), (0.25, 2000, 3)])
        # tuples, ints as values, a negative (signed) time, float times with no fraction
        n, k, p = naoqi.parse_set((HY, "Merge", ((1, -1), (True, 5.0))))
        self.assertEqual(p, [(1.0, 0xffffffff, 0), (1.0, 5, 0)])
        self.assertEqual(naoqi.parse_set([HY, "ClearAll", []])[2], [])

    def bad(self, fn, args, exc, pattern):
        with self.assertRaisesRegex(exc, pattern):
            fn(args)

    def test_set_refuses_bad_shapes(self):
        p = naoqi.parse_set
        self.bad(p, HY, TypeError, r"set takes one list \[name, updateType")
        self.bad(p, None, TypeError, "got NoneType")
        self.bad(p, [HY, "ClearAll"], ValueError, "3 elements, got 2")
        self.bad(p, [HY, "ClearAll", [], 1], ValueError, "3 elements, got 4")
        self.bad(p, [7, "ClearAll", []], TypeError, r"argument 0 \(the actuator or alias name\) "
                 "must be a string, got int")
        self.bad(p, ["", "ClearAll", []], ValueError, "argument 0.*is empty")
        self.bad(p, ["x" * 200, "ClearAll", []], ValueError, "200 bytes long, at most 127")
        self.bad(p, [HY, "Replace", []], ValueError, r"argument 1 \(updateType\): unknown "
                 "update kind 'Replace'")
        self.bad(p, [HY, None, []], TypeError, r"argument 1 \(updateType\)")
        self.bad(p, [HY, "ClearAll", [0.5, 1000]], TypeError,
                 r"argument 2 \(the commands\)\[0\] must be a list \[value, time\]")
        self.bad(p, [HY, "ClearAll", [[0.5]]], ValueError, "got 1 elements")
        self.bad(p, [HY, "ClearAll", [[0.5, 1, 2, 3]]], ValueError, "got 4 elements")
        self.bad(p, [HY, "ClearAll", [["0.5", 1000]]], TypeError,
                 r"\[0\] value must be a number, got str")
        self.bad(p, [HY, "ClearAll", [[float("inf"), 1000]]], ValueError, "must be finite")
        self.bad(p, [HY, "ClearAll", [[0.5, 10.5]]], ValueError, "whole number of ms")
        self.bad(p, [HY, "ClearAll", [[0.5, "now"]]], TypeError, "time must be an int")
        self.bad(p, [HY, "ClearAll", [[0.5, 1 << 32]]], ValueError, "out of the 32-bit")
        self.bad(p, [HY, "ClearAll", [[0.5, 1, 8]]], ValueError, r"importance 8 is out of 0\.\.7")
        self.bad(p, [HY, "ClearAll", [[0.5, 1]] * 513], ValueError, "513 commands, at most 512")
        self.bad(p, [HY, "ClearAll", "abc"], TypeError, "must be a list, got str")

    def test_set_alias_time_mixed(self):
        r = naoqi.parse_set_alias(["Head", "ClearAll", "time-mixed",
                                   [[[0.5, 100]], [], [[0.1, 50, 2], [0.2, 60]]]])
        self.assertEqual(r, ("time-mixed", "Head", dcm.UpdateKind.CLEAR_ALL,
                             [[(0.5, 100, 0)], [], [(0.1, 50, 2), (0.2, 60, 0)]]))

    def test_set_alias_time_separate(self):
        r = naoqi.parse_set_alias(["Head", "Merge", "time-separate", 2, [100, 200],
                                   [[0.5, 0.6], [1, 2]]])
        self.assertEqual(r, ("time-separate", "Head", dcm.UpdateKind.MERGE, 2, [100, 200],
                             [[0.5, 0.6], [1.0, 2.0]]))

    def test_set_alias_refuses_bad_shapes(self):
        p = naoqi.parse_set_alias
        self.bad(p, "Head", TypeError, "setAlias takes one list")
        self.bad(p, ["Head", "ClearAll"], ValueError, "got 2 elements")
        self.bad(p, ["Head", "ClearAll", "time-random", []], ValueError,
                 r"argument 2 \(the time mode\): unknown alias mode 'time-random'")
        self.bad(p, ["Head", "ClearAll", 3, []], ValueError, "argument 2")
        self.bad(p, ["Head", "ClearAll", "time-mixed"], ValueError,
                 "time-mixed takes .*: 4 elements, got 3")
        self.bad(p, ["Head", "ClearAll", "time-mixed", [[0.5, 100]]], TypeError,
                 r"argument 3\[0\] \(member 0's commands\)\[0\] must be a list")
        self.bad(p, ["Head", "ClearAll", "time-mixed", []], ValueError, "1 to 256, got 0")
        self.bad(p, ["Head", "ClearAll", "time-separate", 0, [100], [[1]], 9], ValueError,
                 "time-separate takes .*: 6 elements, got 7")
        self.bad(p, ["Head", "ClearAll", "time-separate", "0", [100], [[1]]], TypeError,
                 r"argument 3 \(importance\) must be an int")
        self.bad(p, ["Head", "ClearAll", "time-separate", 0, [], [[]]], ValueError,
                 "1 to 512 times, got 0")
        self.bad(p, ["Head", "ClearAll", "time-separate", 0, [100, 200], [[1, 2], [3]]],
                 ValueError, r"argument 5\[1\] \(member 1\) has 1 values for 2 times")
        self.bad(p, ["Head", "ClearAll", "time-separate", 0, [100], [1, 2]], TypeError,
                 r"argument 5\[0\] \(member 0's values\) must be a list")
        self.bad(p, ["Head", "ClearAll", "time-separate", 0, [100.5], [[1]]], ValueError,
                 r"argument 4\[0\] \(a time\) must be a whole number")

    def test_create_alias(self):
        self.assertEqual(naoqi.parse_create_alias(["A", [HY, "x"]]), ("A", [HY, "x"]))
        p = naoqi.parse_create_alias
        self.bad(p, ["A"], ValueError, "2 elements, got 1")
        self.bad(p, ["A", HY], TypeError, "must be a list, got str")
        self.bad(p, ["A", []], ValueError, "1 to 256 names, got 0")
        self.bad(p, ["A", [HY, 5]], TypeError, r"argument 1\[1\] must be a string, got int")
        self.bad(p, ["A" * 64, [HY]], ValueError, "at most 63")


class Proxy(unittest.TestCase):
    def setUp(self):
        self.c = FakeController()
        self.d = naoqi.DCM(self.c)

    def test_set_goes_to_the_actuator(self):
        self.d.set([HY, "ClearAll", [[0.5, 1000]]])
        self.d.set(["Device/SubDeviceList/HeadPitch/Position/Actuator/Value", "Merge", []])
        self.assertEqual(self.c.calls, [
            ("set_timed", 0x10005, [(0.5, 1000, 0)], dcm.UpdateKind.CLEAR_ALL),
            ("set_timed", 0x10006, [], dcm.UpdateKind.MERGE)])

    def test_set_on_an_alias_goes_to_every_member(self):
        self.d.set(["Head", "ClearAll", [[0.1, 10]]])
        self.assertEqual(self.c.calls, [("set_alias_all", "Head", [(0.1, 10, 0)],
                                         dcm.UpdateKind.CLEAR_ALL)])

    def test_set_unknown_name_raises_naming_it(self):
        with self.assertRaises(dcm.NoSuchKeyError) as cm:
            self.d.set(["HeadYawww/Position/Actuator/Value", "ClearAll", [[0.5, 1]]])
        e = cm.exception
        self.assertIsInstance(e, KeyError)
        self.assertEqual(e.errno, errno.ENOENT)
        self.assertEqual(e.key, "HeadYawww/Position/Actuator/Value")
        self.assertIn("HeadYawww/Position/Actuator/Value: no such actuator or alias", str(e))
        self.assertEqual(self.c.calls, [])

    def test_set_sensor_refused(self):
        with self.assertRaisesRegex(ValueError, "is not an actuator"):
            self.d.set(["HeadYaw/Position/Sensor/Value", "ClearAll", [[0.5, 1]]])

    def test_bad_shape_sends_nothing(self):
        with self.assertRaises(ValueError):
            self.d.set([HY, "ClearAll", [[0.5, 1], [0.5]]])
        with self.assertRaises(ValueError):
            self.d.setAlias(["Head", "ClearAll", "time-separate", 0, [1, 2], [[1, 2], [1]]])
        self.assertEqual(self.c.calls, [])

    def test_set_alias_both_forms(self):
        self.d.setAlias(["Head", "ClearAll", "time-mixed", [[[0.5, 100]], [[0.1, 50]]]])
        self.d.setAlias(["Head", "ClearBefore", "time-separate", 1, [100, 200],
                         [[0.5, 0.6], [0.1, 0.2]]])
        self.assertEqual(self.c.calls, [
            ("set_alias_mixed", "Head", [[(0.5, 100, 0)], [(0.1, 50, 0)]],
             dcm.UpdateKind.CLEAR_ALL),
            ("set_alias_separate", "Head", [100, 200], [[0.5, 0.6], [0.1, 0.2]],
             dcm.UpdateKind.CLEAR_BEFORE, 1)])

    def test_set_alias_unknown_alias(self):
        with self.assertRaises(dcm.NoSuchAliasError):
            self.d.setAlias(["Nope", "ClearAll", "time-mixed", [[]]])

    def test_create_alias_blanks_unknown_names(self):
        r = self.d.createAlias(["A", [HY, "Nope/Position/Actuator/Value",
                                      "HeadYaw/Position/Sensor/Value"]])
        self.assertEqual(r, ["A", [HY, "", ""]])

    def test_get_time_is_signed_like_naoqi(self):
        self.assertEqual(self.d.getTime(0), -16)
        self.assertEqual(self.d.getTime(20), 4)
        with self.assertRaises(TypeError):
            self.d.getTime("0")

    def test_get_prefix(self):
        self.assertEqual(self.d.getPrefix(), ["Device/DeviceList/", "Device/SubDeviceList/"])

    def test_alproxy(self):
        with self.assertRaisesRegex(ValueError, "ALMotion"):
            naoqi.ALProxy("ALMotion")


if __name__ == "__main__":
    unittest.main()
