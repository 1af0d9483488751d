# SPDX-License-Identifier: LGPL-2.1-or-later
"""The NAOqi-flavoured layer on the host: the list shapes of set, setAlias
(both forms) and createAlias are taken as NAOqi takes them and refused with
TypeError or ValueError naming the argument otherwise; each call reaches the
controller as the right method with the right arguments (a fake controller
records them); unknown names raise NoSuchKeyError naming the key, and a
RuntimeError as NAOqi's. ALMemory's key lists, user keys and events (a fake
event stream), special's and preferences' arguments, the preference files
written into a scratch directory with libdcm."""

import errno
import os
import shutil
import tempfile
import threading
import time
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
        self.known = {
            HY: Key(HY, 0x10005, ACT),
            "Device/SubDeviceList/HeadPitch/Position/Actuator/Value": Key("HP", 0x10006, ACT),
            "HeadYaw/Position/Sensor/Value": Key("HYS", 0x10007, 0),
        }
        self.aliases = {"Head": 2}
        self.now = 0xfffffff0

    def key(self, name):
        if isinstance(name, Key):
            return name
        if name not in self.known:
            raise dcm.NoSuchKeyError(errno.ENOENT, "%s: no such key" % name, "dcm_lookup",
                                     key=name)
        return self.known[name]

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
        return [self.known.get(m) if self.known.get(m) and self.known[m].actuator else None
                for m in members]

    def time(self, offset=0):
        return (self.now + offset) & 0xffffffff

    # what ALMemory uses
    TREE = {
        "Device/SubDeviceList/HeadYaw/Position/Sensor/Value": "0.25",
        "Device/SubDeviceList/HeadYaw/Position/Actuator/Value": "0.5",
        "Device/SubDeviceList/HeadYaw/Position/Actuator/Kp": "32",
        "Device/DeviceList/ChestBoard/Available": "1",
        "Device/DeviceList/ChestBoard/BodyId": "AL00123",
        "RobotConfig/Body/Type": "NAO",
    }
    VALUES = {"HeadYaw/Position/Sensor/Value": 0.25, HY: 0.5}

    def info(self):
        return dcm.Info(0, "dcm0", "fake", 1, 4, 10000, 0, 1, 2, True, True, True)

    def _full(self, key):
        if not key.startswith(("Device/", "RobotConfig/")):
            key = "Device/SubDeviceList/" + key
        return key

    def get(self, key):
        k = key[len("Device/SubDeviceList/"):] if key.startswith("Device/") else key
        if k not in self.VALUES:
            raise dcm.NoSuchKeyError(errno.ENOENT, "%s: no such key" % key, "dcm_lookup",
                                     key=key)
        return self.VALUES[k]

    def get_many(self, keys):
        self.calls.append(("get_many", list(keys)))
        return [self.get(k) for k in keys]

    def read_text(self, key):
        if self._full(key) not in self.TREE:
            raise dcm.NoSuchKeyError(errno.ENOENT, "%s: no such key" % key, "x", key=key)
        return self.TREE[self._full(key)]

    def key_flags(self, key):
        self.read_text(key)
        return {"writable", "config"} if key.endswith("/Kp") else set()

    def write_text(self, key, value):
        self.read_text(key)
        if not key.endswith("/Kp"):
            raise dcm.DcmError(errno.EINVAL, "%s: read-only key" % key, "dcm_sysfs_write")
        self.calls.append(("write_text", key, value))

    def keys(self):
        return sorted(self.TREE)

    def special(self, name):
        self.calls.append(("special", name))
        raise dcm.DcmError(errno.EPERM, "special: Operation not permitted", "dcm_nl_special")


class FakeStream:
    """Events as the netlink stream gives them, from a list."""

    def __init__(self):
        self.pending = []
        self.closed = False
        self.lock = threading.Lock()

    def read(self, timeout=None):
        with self.lock:
            out, self.pending = self.pending, []
        if not out:
            time.sleep(min(timeout or 0.01, 0.01))
        return out

    def close(self):
        self.closed = True


def event(type_name, number, text=""):
    return dcm.Event(0, number, type_name, 1234, 0, 0, 0, 0, 0, "", text, None)


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
        self.bad(p, [HY, "ClearAll", [[0.5, float("nan")]]], ValueError, "finite number")
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
        self.bad(p, ["Head", "ClearAll", "time-separate", 0, ["100"], [[1]]], TypeError,
                 r"argument 4\[0\] \(a time\) must be an int, got str")

    def test_create_alias(self):
        self.assertEqual(naoqi.parse_create_alias(["A", [HY, "x"]]), ("A", [HY, "x"]))
        p = naoqi.parse_create_alias
        self.bad(p, ["A"], ValueError, "2 elements, got 1")
        self.bad(p, ["A", HY], TypeError, "must be a list, got str")
        self.bad(p, ["A", []], ValueError, "1 to 256 names, got 0")
        self.bad(p, ["A", [HY, 5]], TypeError, r"argument 1\[1\] must be a string, got int")
        self.bad(p, ["A" * 64, [HY]], ValueError, "at most 63")


class Coercion(unittest.TestCase):
    """Numbers and lists as NAOqi converts them (its ALValue: a float where
    an int is documented is cut to its integer part, an int or a bool where
    a float is becomes a float; a tuple is a list) and what a script written
    for Python 2 passes as a list, which Python 3 makes a view or an
    iterator: quick_hard_access's multiple_set gives setAlias
    ``datas.values()``."""

    def test_times_and_importance_as_naoqi_reads_them(self):
        n, k, p = naoqi.parse_set([HY, "ClearAll", [[0.5, 10.7], [1, 2000.0, 2.0],
                                                     (False, True)]])
        self.assertEqual(p, [(0.5, 10, 0), (1.0, 2000, 2), (0.0, 1, 0)])
        r = naoqi.parse_set_alias(("Head", "ClearAll", "time-separate", 1.0, (100.9, 200),
                                   ((0.5, 1), [True, 2.5])))
        self.assertEqual(r, ("time-separate", "Head", dcm.UpdateKind.CLEAR_ALL, 1, [100, 200],
                             [[0.5, 1.0], [1.0, 2.5]]))

    def test_python2_lists_from_views_and_iterators(self):
        datas = {HY: [0.1, 0.2], "HeadPitch/Position/Actuator/Value": [0.3, 0.4]}
        r = naoqi.parse_set_alias(["Alias", "ClearAll", "time-separate", 0,
                                   map(int, ["100", "200"]), datas.values()])
        self.assertEqual(r[4:], ([100, 200], [[0.1, 0.2], [0.3, 0.4]]))
        self.assertEqual(naoqi.parse_create_alias(["Alias", (k for k in datas)]),
                         ("Alias", list(datas)))
        self.assertEqual(naoqi.parse_set([HY, "Merge", zip([0.5], [7])])[2], [(0.5, 7, 0)])
        # a mapping or a set is no list, to NAOqi either
        with self.assertRaisesRegex(TypeError, "must be a list, got dict"):
            naoqi.parse_create_alias(["Alias", datas])
        with self.assertRaisesRegex(TypeError, "must be a list, got set"):
            naoqi.parse_set([HY, "Merge", {(0.5, 7)}])

    def test_set_alias_one_time_form(self):
        # dcmproxy.h: setAlias(name, time, std::vector<float> commands), "ClearAll"
        self.assertEqual(naoqi.parse_set_alias_values("Head", 1000.0, (0.5, 1)),
                         ("time-separate", "Head", dcm.UpdateKind.CLEAR_ALL, 0, [1000],
                          [[0.5], [1.0]]))
        with self.assertRaisesRegex(TypeError, "must be a list"):
            naoqi.parse_set_alias_values("Head", 1000, 0.5)
        with self.assertRaisesRegex(ValueError, "1 to 256, got 0"):
            naoqi.parse_set_alias_values("Head", 1000, [])
        with self.assertRaisesRegex(TypeError, "takes one list, or"):
            naoqi.parse_set_alias_values("Head", 1000, None)


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

    def test_set_alias_one_time_form_reaches_the_controller(self):
        self.d.setAlias("Head", self.d.getTime(100.0), [0.5, 0.25])
        self.assertEqual(self.c.calls, [("set_alias_separate", "Head", [0xfffffff0 + 100 - (1 << 32)],
                                         [[0.5], [0.25]], dcm.UpdateKind.CLEAR_ALL, 0)])

    def test_module_methods(self):
        self.assertIs(self.d.ping(), True)
        self.assertEqual(self.d.version(), dcm.__version__)
        self.assertIn("getPrefix", self.d.getMethodList())
        self.assertIn("ping", self.d.getMethodList())
        self.assertEqual(self.d.getBrokerName(), "dcm")

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

    def test_get_prefix_subdevices_first(self):
        # NAOqi's order (dcmproxy.h: "device/sensors (1st string) and all
        # devices (2nd string)"), which SoftBank's quick_hard_access reads
        # as getPrefix()[0] + a subdevice, getPrefix()[1] + a device
        self.assertEqual(self.d.getPrefix(), ["Device/SubDeviceList/", "Device/DeviceList/"])
        self.assertEqual(self.d.getPrefix()[0] + HY,
                         "Device/SubDeviceList/HeadYaw/Position/Actuator/Value")

    def test_get_time_takes_numbers_as_naoqi(self):
        # quick_hard_access: go_to(..., time=3000.) -> dcm.getTime(time)
        self.assertEqual(self.d.getTime(3000.), self.d.getTime(3000))
        self.assertEqual(self.d.getTime(20.9), 4)      # cut, as C's cast
        self.assertEqual(self.d.getTime(-0.5), -16)
        self.assertEqual(self.d.getTime(True), -15)
        with self.assertRaisesRegex(TypeError, "getTime: offset must be an int, got NoneType"):
            self.d.getTime(None)
        with self.assertRaisesRegex(ValueError, "finite"):
            self.d.getTime(float("inf"))
        with self.assertRaisesRegex(ValueError, "out of"):
            self.d.getTime(float(1 << 31))

    def test_alproxy(self):
        with self.assertRaisesRegex(ValueError, "ALMotion"):
            naoqi.ALProxy("ALMotion")
        with self.assertRaisesRegex(RuntimeError, "Can't find service: 'ALMotion'"):
            naoqi.ALProxy("ALMotion", "nao.local", 9559)

    def test_alproxy_one_per_module_and_process(self):
        made = []

        def fake(cls):
            def make():
                p = cls(FakeController())
                made.append(p)
                return p
            return make
        real = naoqi.DCM, naoqi.ALMemory
        naoqi.DCM, naoqi.ALMemory = fake(naoqi.DCM), fake(naoqi.ALMemory)
        try:
            with naoqi._proxies_lock:
                naoqi._proxies.clear()
            a = naoqi.ALProxy("DCM", "nao.local", 9559)
            self.assertIs(naoqi.ALProxy("ALDCM"), a)
            m = naoqi.ALProxy("ALMemory")
            self.assertIs(naoqi.ALProxy("ALMemory", "127.0.0.1", 9559), m)
            self.assertIsNot(m, a)
            a.close()
            self.assertTrue(a.closed)
            b = naoqi.ALProxy("DCM")
            self.assertIsNot(b, a)
            self.assertFalse(b.closed)
            self.assertEqual(len(made), 3)
        finally:
            naoqi.DCM, naoqi.ALMemory = real
            with naoqi._proxies_lock:
                naoqi._proxies.clear()

    def test_failures_are_runtime_errors_as_naoqi(self):
        with self.assertRaises(RuntimeError) as cm:
            self.d.set(["Nope/Position/Actuator/Value", "ClearAll", [[0.5, 1]]])
        self.assertIsInstance(cm.exception, dcm.NoSuchKeyError)
        self.assertEqual(cm.exception.key, "Nope/Position/Actuator/Value")
        with self.assertRaises(RuntimeError) as cm:
            self.d.setAlias(["Nope", "ClearAll", "time-mixed", [[]]])
        self.assertIsInstance(cm.exception, dcm.NoSuchAliasError)
        self.assertEqual(cm.exception.alias, "Nope")

    def test_special(self):
        with self.assertRaises(RuntimeError) as cm:
            self.d.special("Diagnostic")
        self.assertIsInstance(cm.exception, dcm.DcmError)
        self.assertEqual(cm.exception.errno, errno.EPERM)
        self.assertEqual(self.c.calls, [("special", "Diagnostic")])

    def test_special_names(self):
        with self.assertRaisesRegex(ValueError, "unknown special command 'Dance': Reset, "
                                    "Version, Chain, Diagnostic, Config"):
            dcm.special("Dance")
        with self.assertRaisesRegex(TypeError, "must be a string"):
            dcm.special(3)

    def test_preferences_arguments(self):
        with self.assertRaisesRegex(ValueError, "unknown action 'Erase': Save, Load or Add"):
            self.d.preferences("Erase", "Chest", "", 0.0)
        with self.assertRaisesRegex(TypeError, "argument 0 \\(action\\) must be a string"):
            self.d.preferences(1, "Chest")
        with self.assertRaisesRegex(ValueError, "unknown preference target 'Legs'"):
            self.d.preferences("Save", "Legs", "", 0.0)
        with self.assertRaisesRegex(ValueError, "Add takes one target"):
            self.d.preferences("Add", "All", "RobotConfig/Body/Type", "NAO")
        with self.assertRaisesRegex(ValueError, "argument 2 \\(key\\) is empty"):
            self.d.preferences("Add", "Chest", "", 0.0)


SHARE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data")


@unittest.skipUnless(os.path.exists(os.path.join(SHARE, "Device.xml")), "no userspace/data")
class Preferences(unittest.TestCase):
    """preferences("Add", ...) writes the target's file, checked by libdcm."""

    def setUp(self):
        self.etc = tempfile.mkdtemp()
        self.d = naoqi.DCM(FakeController(), etc=self.etc, share=SHARE)

    def tearDown(self):
        shutil.rmtree(self.etc)

    def test_add_writes_the_chest_file(self):
        r = self.d.preferences("Add", "Chest", "Device/DeviceList/ChestBoard/BodyNickName",
                               "HeadTurner")
        self.assertEqual(r.target, "Chest")
        self.assertEqual(r.file, os.path.join(self.etc, "body.xml"))
        self.assertEqual(r.key, "Device/DeviceList/ChestBoard/BodyNickName")
        with open(r.file) as f:
            self.assertIn("HeadTurner", f.read())

    def test_add_of_another_targets_key_is_refused_and_said(self):
        with self.assertRaises(RuntimeError) as cm:
            self.d.preferences("Add", "Chest", "HeadYaw/Position/Actuator/Kp", 40)
        e = cm.exception
        self.assertIsInstance(e, dcm.DcmError)
        self.assertIn("belongs to the Main preferences", str(e))
        self.assertTrue(any("Main" in line for line in e.log))
        self.assertFalse(os.path.exists(os.path.join(self.etc, "body.xml")))

    def test_add_value_kinds(self):
        self.assertEqual(dcm.prefs.value_text(True), "true")
        self.assertEqual(dcm.prefs.value_text(40), "40")
        self.assertEqual(dcm.prefs.value_text(0.25), "0.25")
        with self.assertRaises(TypeError):
            dcm.prefs.value_text([1])
        r = self.d.preferences("Add", "Main", "HeadYaw/Position/Actuator/Kp", 40)
        self.assertEqual(r.target, "Main")
        with self.assertRaisesRegex(RuntimeError, "Kp"):
            self.d.preferences("Add", "Main", "HeadYaw/Position/Actuator/Kp", "fast")


class Memory(unittest.TestCase):
    def setUp(self):
        self.c = FakeController()
        self.m = naoqi.ALMemory(self.c)
        self.stream = FakeStream()
        self.m._events = lambda index: self.stream
        with naoqi._store_lock:
            naoqi._store.clear()

    def tearDown(self):
        self.m.close()

    def test_get_data(self):
        self.assertEqual(self.m.getData("Device/SubDeviceList/HeadYaw/Position/Sensor/Value"),
                         0.25)
        self.assertEqual(self.m.getData("Device/DeviceList/ChestBoard/Available"), 1)
        self.assertEqual(self.m.getData("Device/DeviceList/ChestBoard/BodyId"), "AL00123")
        self.assertEqual(self.m.getData("HeadYaw/Position/Actuator/Kp"), 32)

    def test_get_data_not_found_as_naoqi(self):
        for key in ("Device/SubDeviceList/Nope/Position/Sensor/Value", "RobotConfig/Nope",
                    "MyApp/Nothing"):
            with self.assertRaises(RuntimeError) as cm:
                self.m.getData(key)
            e = cm.exception
            self.assertEqual(str(e), "ALMemory::getData\n\tData not found %s" % key)
            self.assertIsInstance(e, dcm.NoSuchKeyError)
            self.assertIsInstance(e, KeyError)
            self.assertEqual(e.key, key)
        with self.assertRaises(TypeError):
            self.m.getData(7)

    def test_get_list_data_one_cycle_and_text(self):
        v = self.m.getListData(["HeadYaw/Position/Sensor/Value", HY,
                                "Device/DeviceList/ChestBoard/Available"])
        self.assertEqual(v, [0.25, 0.5, 1])
        self.assertEqual(self.c.calls, [("get_many", ["HeadYaw/Position/Sensor/Value", HY])])
        with self.assertRaisesRegex(RuntimeError, "ALMemory::getListData\n\tData not found "
                                    "RobotConfig/Nope"):
            self.m.getListData(["RobotConfig/Nope"])
        with self.assertRaisesRegex(TypeError, r"keys\[1\] must be a string"):
            self.m.getListData([HY, 3])

    def test_naoqi_forms_of_memory_calls(self):
        # getData's deprecated second argument; tuples and iterators as lists
        self.assertEqual(self.m.getData("HeadYaw/Position/Sensor/Value", 0), 0.25)
        self.assertEqual(self.m.getListData(("HeadYaw/Position/Sensor/Value", HY)), [0.25, 0.5])
        self.assertEqual(self.m.getListData(k for k in [HY]), [0.5])
        # insertListData: pairs, lists or tuples
        self.m.insertListData([["MyApp/A", 1], ("MyApp/B", "two")])
        self.assertEqual(self.m.getListData(["MyApp/A", "MyApp/B"]), [1, "two"])
        with self.assertRaisesRegex(ValueError, r"element 0 must be \[key, value\]"):
            self.m.insertListData([["MyApp/C"]])
        self.assertEqual(self.m.getType("MyApp/A"), "Data")
        self.assertEqual(self.m.getType("RobotConfig/Body/Type"), "Data")
        self.assertEqual(self.m.getType("DCM/Safety"), "Event")
        with self.assertRaisesRegex(RuntimeError, "ALMemory::getType\n\tData not found X/Y"):
            self.m.getType("X/Y")
        self.assertEqual(self.m.getMicroEventList(), [])
        self.assertIs(self.m.ping(), True)
        self.assertIn("insertListData", self.m.getMethodList())

    def test_data_lists(self):
        self.m.insertData("MyApp/Speed", 3)
        names = self.m.getDataListName()
        self.assertEqual(names, sorted(FakeController.TREE) + ["MyApp/Speed"])
        self.assertEqual(self.m.getDataList("ChestBoard"),
                         ["Device/DeviceList/ChestBoard/Available",
                          "Device/DeviceList/ChestBoard/BodyId"])
        self.assertEqual(self.m.getDataList("Speed"), ["MyApp/Speed"])
        self.assertEqual(self.m.getDataList("chestboard"), [])  # NAOqi's: case counts
        with self.assertRaises(TypeError):
            self.m.getDataList(None)

    def test_insert_data(self):
        self.m.insertData("MyApp/Target", [0.5, "x"])
        self.assertEqual(self.m.getData("MyApp/Target"), [0.5, "x"])
        self.assertEqual(self.m.getListData(["MyApp/Target", HY]), [[0.5, "x"], 0.5])
        # another proxy of the process sees it
        self.assertEqual(naoqi.ALMemory(self.c).getData("MyApp/Target"), [0.5, "x"])
        # a configuration key of the tree is written to the kernel
        del self.c.calls[:]
        self.m.insertData("Device/SubDeviceList/HeadYaw/Position/Actuator/Kp", 40)
        self.m.insertData("HeadYaw/Position/Actuator/Kp", 41)
        self.assertEqual(self.c.calls, [
            ("write_text", "Device/SubDeviceList/HeadYaw/Position/Actuator/Kp", 40),
            ("write_text", "HeadYaw/Position/Actuator/Kp", 41)])
        # a value is refused, a read-only key by the kernel
        with self.assertRaisesRegex(ValueError, "is a value of the DCM: command an actuator "
                                    "with DCM.set"):
            self.m.insertData("Device/SubDeviceList/HeadYaw/Position/Actuator/Value", 1)
        with self.assertRaisesRegex(RuntimeError, "read-only"):
            self.m.insertData("Device/DeviceList/ChestBoard/BodyId", "x")
        with self.assertRaisesRegex(RuntimeError, "no such key"):
            self.m.insertData("Device/DeviceList/Nope/Available", 1)
        with self.assertRaisesRegex(ValueError, "one of dcm's events"):
            self.m.insertData("DCM/Safety", 1)

    def test_remove_data(self):
        self.m.insertData("MyApp/X", 1)
        self.m.removeData("MyApp/X")
        with self.assertRaisesRegex(RuntimeError, "Data not found MyApp/X"):
            self.m.getData("MyApp/X")
        with self.assertRaisesRegex(RuntimeError, "removeData\n\tData not found MyApp/X"):
            self.m.removeData("MyApp/X")
        with self.assertRaisesRegex(ValueError, "key of the DCM's tree"):
            self.m.removeData("RobotConfig/Body/Type")
        with self.assertRaisesRegex(ValueError, "one of dcm's events"):
            self.m.removeData("DCM/Safety")

    def test_event_names(self):
        names = self.m.getEventList()
        self.assertIn("DCM/Safety", names)
        self.assertIn("DCM/Watchdog", names)
        self.assertIn("DCM/Fall", names)
        self.assertEqual(len(names), 12)

    def wait(self, pred):
        end = time.monotonic() + 5
        while not pred() and time.monotonic() < end:
            time.sleep(0.005)
        return pred()

    def test_subscribe_module_method(self):
        class Watcher(naoqi.ALModule):
            def __init__(self, name):
                naoqi.ALModule.__init__(self, name)
                self.heard = []

            def onSafety(self, key, value, message):  # pylint: disable=invalid-name
                self.heard.append((key, value, message))

        w = Watcher("Watcher")
        try:
            self.m.subscribeToEvent("DCM/Safety", "Watcher", "onSafety")
            self.assertEqual(self.m.getSubscribers("DCM/Safety"), ["Watcher"])
            e = event("safety", 4, "brake")
            with self.stream.lock:
                self.stream.pending += [event("watchdog", 10), e]
            self.assertTrue(self.wait(lambda: w.heard))
            self.assertEqual(w.heard, [("DCM/Safety", e, "Watcher")])
            # the event is data too, as NAOqi keeps an event's last value
            self.assertEqual(self.m.getData("DCM/Safety"), e)
            self.m.unsubscribeToEvent("DCM/Safety", "Watcher")
            self.assertTrue(self.wait(lambda: self.stream.closed))
            self.assertIsNone(self.m._dispatcher)
        finally:
            w.exit()

    def test_subscribe_callable_with_fewer_arguments(self):
        heard = []

        def on_event(key, value):
            heard.append((key, value.text))

        self.m.subscribeToEvent("DCM/Special", on_event)
        with self.stream.lock:
            self.stream.pending.append(event("special", 11, "diagnostic"))
        self.assertTrue(self.wait(lambda: heard))
        self.assertEqual(heard, [("DCM/Special", "diagnostic")])
        self.m.unsubscribeToEvent("DCM/Special", on_event)
        with self.assertRaisesRegex(RuntimeError, "on_event is not subscribed to DCM/Special"):
            self.m.unsubscribeToEvent("DCM/Special", on_event)

    def test_a_failing_callback_does_not_stop_the_others(self):
        heard = []

        def bad(*_args):
            raise ZeroDivisionError("boom")

        self.m.subscribeToEvent("DCM/Error", bad)
        self.m.subscribeToEvent("DCM/Error", lambda k, v, m: heard.append(k))
        import io
        import sys
        old, sys.stderr = sys.stderr, io.StringIO()
        try:
            with self.stream.lock:
                self.stream.pending.append(event("error", 1))
            self.assertTrue(self.wait(lambda: heard))
            self.assertIn("ZeroDivisionError: boom", sys.stderr.getvalue())
        finally:
            sys.stderr = old

    def test_subscribe_with_a_message(self):
        # NAOqi's deprecated (name, module, message, method) and the micro
        # event form: the message is the callback's third argument
        class Listener(naoqi.ALModule):
            def __init__(self, name):
                naoqi.ALModule.__init__(self, name)
                self.heard = []

            def onEvent(self, key, value, message):
                self.heard.append((key, message))

        w = Listener("Messenger")
        try:
            self.m.subscribeToEvent("DCM/Error", "Messenger", "boards", "onEvent")
            self.m.subscribeToMicroEvent("DCM/Special", "Messenger", "asked", "onEvent")
            with self.stream.lock:
                self.stream.pending.append(event("error", 1))
                self.stream.pending.append(event("special", 2))
            self.assertTrue(self.wait(lambda: len(w.heard) == 2))
            self.assertEqual(w.heard, [("DCM/Error", "boards"), ("DCM/Special", "asked")])
            self.assertEqual(self.m.getSubscribers("DCM/Error"), ["Messenger"])
            self.m.unsubscribeToEvent("DCM/Error", "Messenger")
            self.m.unsubscribeToMicroEvent("DCM/Special", "Messenger")
            with self.assertRaises(TypeError):
                self.m.subscribeToEvent("DCM/Error", "Messenger", 3, "onEvent")
        finally:
            w.exit()

    def test_subscribe_refusals(self):
        with self.assertRaisesRegex(RuntimeError, "Event not found FaceDetected: dcm's events "
                                    "are DCM/Error"):
            self.m.subscribeToEvent("FaceDetected", "X", "y")
        with self.assertRaisesRegex(RuntimeError, "Module Nobody not found"):
            self.m.subscribeToEvent("DCM/Safety", "Nobody", "onSafety")
        mod = naoqi.ALModule("Somebody")
        try:
            with self.assertRaisesRegex(RuntimeError, "Module Somebody has no method onX"):
                self.m.subscribeToEvent("DCM/Safety", "Somebody", "onX")
        finally:
            mod.exit()
        with self.assertRaises(TypeError):
            self.m.subscribeToEvent("DCM/Safety", "Somebody")
        with self.assertRaisesRegex(RuntimeError, "Nobody is not subscribed"):
            self.m.unsubscribeToEvent("DCM/Safety", "Nobody")
        self.assertIsNone(self.m._dispatcher)

    def test_broker_and_module(self):
        b = naoqi.ALBroker("b", "0.0.0.0", 0, "nao.local", 9559)
        m = naoqi.ALModule("Mod")
        self.assertEqual(m.getName(), "Mod")
        self.assertIs(naoqi._modules["Mod"], m)
        b.shutdown()
        self.assertNotIn("Mod", naoqi._modules)


class Tree(unittest.TestCase):
    def test_keys_are_full_names_sorted(self):
        t = dcm.Tree(0, 1,
                     [dcm.Device("ChestBoard", "ChestBoard", "i2c", 1, ("Available", "Ack"))],
                     [dcm.Subdevice("HeadYaw/Position/Sensor", "Joint", "HeadBoard", 1, 5,
                                    False, False, ("Value", "Max"))],
                     ["Body/Type"])
        self.assertEqual(t.keys(), [
            "Device/DeviceList/ChestBoard/Ack", "Device/DeviceList/ChestBoard/Available",
            "Device/SubDeviceList/HeadYaw/Position/Sensor/Max",
            "Device/SubDeviceList/HeadYaw/Position/Sensor/Value", "RobotConfig/Body/Type"])

    def test_callback_argument_counts(self):
        self.assertEqual(naoqi._arg_count(lambda: 0), 0)
        self.assertEqual(naoqi._arg_count(lambda k, v: 0), 2)
        self.assertEqual(naoqi._arg_count(lambda *a: 0), 3)
        self.assertEqual(naoqi._arg_count(lambda a, b, c, d=1: 0), 3)

        class M:
            def cb(self, key):
                pass
        self.assertEqual(naoqi._arg_count(M().cb), 1)


if __name__ == "__main__":
    unittest.main()
