# SPDX-License-Identifier: LGPL-2.1-or-later
"""The binding itself against the built libdcm: the ctypes layouts against
the C compiler's, the names of update kinds and alias modes, DCM time
arithmetic, events put in words, and the errors of opening what is no
controller (no /dev/dcmN needed)."""

import ctypes
import errno
import os
import subprocess
import unittest

import dcm
from dcm import _lib


def c_layout():
    out = subprocess.run([os.environ["DCM_LAYOUT"]], check=True, stdout=subprocess.PIPE,
                         universal_newlines=True).stdout
    return [line.split() for line in out.splitlines()]


STRUCTS = {
    "dcm_version": _lib.Version, "dcm_info": _lib.Info, "dcm_key": _lib.Key,
    "dcm_timed_point": _lib.TimedPoint, "dcm_values_frame": _lib.ValuesFrame,
    "dcm_stats": _lib.Stats, "dcm_nl_event": _lib.NlEvent, "dcm_event_msg": _lib.EventMsg,
    "dcm_tree_key": _lib.TreeKey, "dcm_tree_device": _lib.TreeDevice,
    "dcm_tree_subdevice": _lib.TreeSubdevice, "dcm_alias_entry": _lib.AliasEntry,
    "dcm_alias_desc": _lib.AliasDesc, "dcm_board_info": _lib.BoardInfo,
    "dcm_special_result": _lib.SpecialResult, "dcm_prefs_opts": _lib.PrefsOpts,
    "dcm_prefs_saved": _lib.PrefsSaved, "dcm_prefs_loaded": _lib.PrefsLoaded,
    "dcm_prefs_added": _lib.PrefsAdded,
}
# C fields whose names are Python keywords
RENAMED = {"from": "from_"}


@unittest.skipUnless(os.environ.get("DCM_LAYOUT"), "no DCM_LAYOUT (make unit sets it)")
class Layout(unittest.TestCase):
    def test_structures_match_libdcm_h(self):
        n = 0
        for s, f, off, size in c_layout():
            if s in ("const", "version"):
                continue
            cls = STRUCTS[s]
            if f == "-":
                self.assertEqual(ctypes.sizeof(cls), int(size), s)
            else:
                fd = getattr(cls, RENAMED.get(f, f))
                self.assertEqual((fd.offset, fd.size), (int(off), int(size)), "%s.%s" % (s, f))
            n += 1
        self.assertGreater(n, 100)

    def test_constants_match_libdcm_h(self):
        for s, name, val, _ in c_layout():
            if s == "const":
                self.assertEqual(getattr(_lib, name), int(val), name)

    def test_one_version(self):
        """The module's version is libdcm's, from libdcm.h, as built."""
        (line,) = [x for x in c_layout() if x[0] == "version"]
        self.assertEqual(dcm.__version__, line[1])
        self.assertEqual(dcm.lib_version(), line[1])
        self.assertRegex(dcm.__version__, r"^\d+\.\d+\.\d+$")

    def test_soname(self):
        self.assertEqual(os.path.basename(os.environ.get("DCM_LIBDCM", _lib.SONAME)),
                         _lib.SONAME)

    def test_desc_soname(self):
        """The preferences are libdcm-desc's, a library apart from libdcm."""
        self.assertEqual(os.path.basename(os.environ.get("DCM_LIBDCM_DESC", _lib.DESC_SONAME)),
                         _lib.DESC_SONAME)
        self.assertTrue(hasattr(_lib.desc_lib(), "dcm_prefs_save"))
        self.assertFalse(hasattr(_lib.lib(), "dcm_prefs_save"))


class Names(unittest.TestCase):
    def test_update_kinds(self):
        for k, n in [(0, "ClearAll"), (1, "Merge"), (2, "ClearAfter"), (3, "ClearBefore")]:
            self.assertEqual(dcm.UpdateKind(k).naoqi, n)
            self.assertIs(dcm.UpdateKind.parse(n), dcm.UpdateKind(k))
            self.assertIs(dcm.UpdateKind.parse(k), dcm.UpdateKind(k))
        self.assertIs(dcm.UpdateKind.parse("clear-after"), dcm.UpdateKind.CLEAR_AFTER)
        self.assertIs(dcm.UpdateKind.parse("CLEAR_BEFORE"), dcm.UpdateKind.CLEAR_BEFORE)
        with self.assertRaisesRegex(ValueError, "unknown update kind 'Clear'"):
            dcm.UpdateKind.parse("Clear")
        with self.assertRaisesRegex(ValueError, "not one of 0..3"):
            dcm.UpdateKind.parse(4)
        with self.assertRaises(TypeError):
            dcm.UpdateKind.parse(None)

    def test_alias_modes(self):
        self.assertIs(dcm.AliasMode.parse("time-separate"), dcm.AliasMode.TIME_SEPARATE)
        self.assertIs(dcm.AliasMode.parse("TIME_MIXED"), dcm.AliasMode.TIME_MIXED)
        self.assertEqual(dcm.AliasMode.TIME_MIXED.naoqi, "time-mixed")
        with self.assertRaisesRegex(ValueError, "time-mixed or time-separate"):
            dcm.AliasMode.parse("time-whatever")


class Time(unittest.TestCase):
    def test_diff_and_add_across_the_wrap(self):
        self.assertEqual(dcm.time_diff(5, 0xfffffffb), 10)
        self.assertEqual(dcm.time_diff(0xfffffffb, 5), -10)
        self.assertEqual(dcm.time_add(0xffffffff, 2), 1)
        self.assertEqual(dcm.time_add(1, -2), 0xffffffff)
        # NAOqi's signed times are the same bits
        self.assertEqual(dcm.time_diff(-1, 0xffffffff), 0)
        with self.assertRaises(ValueError):
            dcm.time_add(1 << 32, 0)


class Events(unittest.TestCase):
    def test_str_is_libdcm_line(self):
        e = dcm.Event(0, 4, "safety", 12345, 0, 0, 0, 0, 1, "", "late cycles", "cycle-fault")
        self.assertEqual(str(e), "dcm0 12345 safety cycle-fault on: late cycles")
        e = e._replace(lost=3)
        self.assertTrue(str(e).endswith("(3 events lost before)"))

    def test_type_names(self):
        from dcm.events import type_number
        self.assertEqual(type_number("safety"), 4)
        self.assertEqual(type_number("watchdog"), 10)
        with self.assertRaisesRegex(ValueError, "unknown event type 'bogus'"):
            type_number("bogus")


class Open(unittest.TestCase):
    def test_missing_node(self):
        with self.assertRaises(dcm.DcmError) as cm:
            dcm.open("/nonexistent/dcm7")
        e = cm.exception
        self.assertEqual(e.errno, errno.ENOENT)
        self.assertIsInstance(e, OSError)
        self.assertIn("/nonexistent/dcm7", str(e))
        self.assertEqual(e.function, "dcm_open")

    def test_not_a_dcm_device(self):
        with self.assertRaises(dcm.DcmError) as cm:
            dcm.Controller("/dev/null")
        self.assertEqual(cm.exception.errno, errno.ENOTTY)
        self.assertIn("not a dcm device", str(cm.exception))

    def test_bad_arguments(self):
        with self.assertRaises(TypeError):
            dcm.open(7)
        with self.assertRaises(TypeError):
            dcm.Controller("/dev/dcm0", index=0)
        with self.assertRaisesRegex(ValueError, "index -1 is out of"):
            dcm.Controller(index=-1)


if __name__ == "__main__":
    unittest.main()
