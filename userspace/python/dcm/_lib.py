# SPDX-License-Identifier: LGPL-2.1-or-later
"""ctypes binding of libdcm (``libdcm.so.0``) and of the description's
library libdcm-desc (``libdcm-desc.so.0``, the preferences): structures and
prototypes.

This module is private: the rest of the package uses :func:`lib` to get the
loaded library, every function with its argument and result types declared,
so that ctypes converts and checks each argument instead of guessing;
:func:`desc_lib` gets libdcm-desc the same way, for :mod:`dcm.prefs` alone.

The library is loaded on first use, not at import: ``import dcm`` works (and
``help(dcm)`` too) on a machine without libdcm. ``$DCM_LIBDCM`` names the
library file to load instead of the soname (a build tree's
``build/lib/libdcm.so.0``); ``$DCM_LIBDCM_DESC`` names libdcm-desc's
(``build/lib/libdcm-desc.so.0``).
"""

import ctypes
import os
import threading

#: The soname the package loads (userspace/Makefile: libdcm.so.$(SOMAJOR)).
SONAME = "libdcm.so.0"
#: The description library's (userspace/Makefile: libdcm-desc.so.$(SOMAJOR)).
DESC_SONAME = "libdcm-desc.so.0"

NAME_LEN = 32
KEY_NAME_LEN = 128
ALIAS_NAME_LEN = 64
MAX_POINTS = 512
MAX_ALIAS_MEMBERS = 256
MAX_IMPORTANCE = 7
MAX_SUBDEVICES = 1024
LATENCY_BUCKETS = 10
EVENT_TEXT_LEN = 128
WATCHDOG_MIN_MS = 20
WATCHDOG_MAX_MS = 60000
WATCHDOG_RAMP_MAX_MS = 60000
MAX_NAME_LEN = 128
MAX_STRING_LEN = 256
MAX_DEVICES = 64
PATH_LEN = 4096

TREE_KEY_WRITABLE = 1 << 0
TREE_KEY_CONFIG = 1 << 1
TREE_KEY_COMMAND = 1 << 2

KEY_ACTUATOR = 1 << 0
KEY_STEP = 1 << 1

INFO_SIMULATED = 1 << 0
INFO_CONFIGURED = 1 << 1
INFO_RUNNING = 1 << 2

c_uint = ctypes.c_uint
c_int = ctypes.c_int
u8 = ctypes.c_uint8
u32 = ctypes.c_uint32
i32 = ctypes.c_int32
u64 = ctypes.c_uint64
i64 = ctypes.c_int64
size_t = ctypes.c_size_t
c_double = ctypes.c_double
c_char_p = ctypes.c_char_p
c_void_p = ctypes.c_void_p
POINTER = ctypes.POINTER


class Version(ctypes.Structure):
    """struct dcm_version"""
    _fields_ = [("magic", u32), ("major", c_uint), ("minor", c_uint)]


class Info(ctypes.Structure):
    """struct dcm_info"""
    _fields_ = [
        ("index", c_uint),
        ("name", ctypes.c_char * NAME_LEN),
        ("driver", ctypes.c_char * NAME_LEN),
        ("abi_major", c_uint),
        ("abi_minor", c_uint),
        ("period_us", u32),
        ("time_ms", u32),
        ("n_devices", c_uint),
        ("n_subdevices", c_uint),
        ("flags", u32),
    ]


class Key(ctypes.Structure):
    """struct dcm_key"""
    _fields_ = [("handle", u32), ("flags", u32)]


class TimedPoint(ctypes.Structure):
    """struct dcm_timed_point"""
    _fields_ = [("value", c_double), ("time", u32), ("importance", u8)]


class ValuesFrame(ctypes.Structure):
    """struct dcm_values_frame"""
    _fields_ = [
        ("cycle", u64),
        ("time", u32),
        ("generation", u32),
        ("n_values", size_t),
        ("values", POINTER(c_double)),
        ("capacity", size_t),
        ("priv", c_void_p),
    ]


class Stats(ctypes.Structure):
    """struct dcm_stats"""
    _fields_ = [
        ("cycles", u64),
        ("overruns", u64),
        ("last_ns", u64),
        ("mean_ns", u64),
        ("max_ns", u64),
        ("latency_max_ns", u64),
        ("latency_hist", u64 * LATENCY_BUCKETS),
    ]


class NlEvent(ctypes.Structure):
    """struct dcm_nl_event"""
    _fields_ = [("cmd", u8), ("version", u8), ("nlh", c_void_p)]


class EventMsg(ctypes.Structure):
    """struct dcm_event_msg"""
    _fields_ = [
        ("index", c_uint),
        ("type", c_uint),
        ("time_ms", u32),
        ("level", c_uint),
        ("code", c_uint),
        ("count", c_uint),
        ("lost", c_uint),
        ("value", i64),
        ("device", ctypes.c_char * KEY_NAME_LEN),
        ("text", ctypes.c_char * EVENT_TEXT_LEN),
    ]


class TreeKey(ctypes.Structure):
    """struct dcm_tree_key"""
    _fields_ = [("name", c_char_p), ("flags", u32)]


class TreeDevice(ctypes.Structure):
    """struct dcm_tree_device"""
    _fields_ = [("name", c_char_p), ("type", c_char_p), ("bus", c_char_p),
                ("address", c_uint), ("n_keys", size_t), ("keys", POINTER(TreeKey))]


class TreeSubdevice(ctypes.Structure):
    """struct dcm_tree_subdevice"""
    _fields_ = [("name", c_char_p), ("type", c_char_p), ("device", c_char_p),
                ("number", c_uint), ("handle", u32), ("flags", u32),
                ("n_keys", size_t), ("keys", POINTER(TreeKey))]


class AliasEntry(ctypes.Structure):
    """struct dcm_alias_entry"""
    _fields_ = [("name", ctypes.c_char * ALIAS_NAME_LEN), ("n_members", u32),
                ("shared", ctypes.c_bool)]


class AliasDesc(ctypes.Structure):
    """struct dcm_alias_desc"""
    _fields_ = [("shared", ctypes.c_bool), ("n_members", size_t),
                ("members", POINTER(ctypes.c_char * KEY_NAME_LEN)), ("handles", POINTER(u32))]


class BoardInfo(ctypes.Structure):
    """struct dcm_board_info"""
    _fields_ = [
        ("name", ctypes.c_char * MAX_NAME_LEN),
        ("type", ctypes.c_char * MAX_NAME_LEN),
        ("bus", ctypes.c_char * MAX_NAME_LEN),
        ("address", c_uint),
        ("has_state", ctypes.c_bool),
        ("state", ctypes.c_char * 16),
        ("ack", u64),
        ("nack", u64),
        ("errors", c_uint),
        ("version", ctypes.c_char * 40),
    ]


class SpecialResult(ctypes.Structure):
    """struct dcm_special_result"""
    _fields_ = [("command", c_int), ("text", ctypes.c_char * MAX_STRING_LEN),
                ("n_boards", size_t), ("boards", BoardInfo * MAX_DEVICES)]


LOG_CB = ctypes.CFUNCTYPE(None, c_void_p, c_int, c_char_p)


class PrefsOpts(ctypes.Structure):
    """struct dcm_prefs_opts"""
    _fields_ = [("index", c_uint), ("file", c_char_p), ("etc", c_char_p),
                ("share", c_char_p), ("device_xml", c_char_p), ("schema_dir", c_char_p),
                ("sysfs_root", c_char_p), ("log", LOG_CB), ("log_arg", c_void_p)]


class PrefsSaved(ctypes.Structure):
    """struct dcm_prefs_saved"""
    _fields_ = [("target", c_int), ("file", ctypes.c_char * PATH_LEN),
                ("from_", ctypes.c_char * PATH_LEN), ("keys", c_uint), ("live", c_uint),
                ("changed", c_uint), ("added", c_uint)]


class PrefsLoaded(ctypes.Structure):
    """struct dcm_prefs_loaded"""
    _fields_ = [("files", ctypes.c_char * 2048), ("controller", ctypes.c_char * NAME_LEN),
                ("n_devices", c_uint), ("n_subdevices", c_uint), ("n_keys", c_uint),
                ("steps", c_uint)]


class PrefsAdded(ctypes.Structure):
    """struct dcm_prefs_added"""
    _fields_ = [("target", c_int), ("file", ctypes.c_char * PATH_LEN),
                ("from_", ctypes.c_char * PATH_LEN), ("key", ctypes.c_char * PATH_LEN),
                ("kind", c_int), ("added", ctypes.c_bool)]


EVENT_CB = ctypes.CFUNCTYPE(c_int, POINTER(NlEvent), c_void_p)
INFO_CB = ctypes.CFUNCTYPE(c_int, POINTER(Info), c_void_p)

_dcm_p = c_void_p        # struct dcm *
_nl_p = c_void_p         # struct dcm_nl *
_snap_p = c_void_p       # struct dcm_snap *
_sysfs_p = c_void_p      # struct dcm_sysfs *
_tree_p = c_void_p       # struct dcm_tree *

# name: (restype, argtypes)
_PROTOTYPES = {
    "dcm_strerror": (c_char_p, [c_int]),
    "dcm_last_error": (c_char_p, []),
    "dcm_lib_version": (c_char_p, []),
    "dcm_open": (c_int, [c_char_p, POINTER(_dcm_p)]),
    "dcm_close": (None, [_dcm_p]),
    "dcm_fd": (c_int, [_dcm_p]),
    "dcm_path": (c_char_p, [_dcm_p]),
    "dcm_abi_version": (c_int, [_dcm_p, POINTER(Version)]),
    "dcm_get_info": (c_int, [_dcm_p, POINTER(Info)]),
    "dcm_kind_from_string": (c_int, [c_char_p, POINTER(c_int)]),
    "dcm_kind_to_string": (c_char_p, [c_int]),
    "dcm_alias_mode_from_string": (c_int, [c_char_p, POINTER(c_int)]),
    "dcm_alias_mode_to_string": (c_char_p, [c_int]),
    "dcm_lookup": (c_int, [_dcm_p, c_char_p, POINTER(Key)]),
    "dcm_set": (c_int, [_dcm_p, u32, c_int, POINTER(TimedPoint), size_t]),
    "dcm_set_now": (c_int, [_dcm_p, u32, c_int, c_double, i32]),
    "dcm_alias_create": (c_int, [_dcm_p, c_char_p, POINTER(c_char_p), size_t,
                                 POINTER(u32)]),
    "dcm_alias_set_separate": (c_int, [_dcm_p, c_char_p, c_int, POINTER(u32), size_t,
                                       POINTER(c_double), size_t, u8]),
    "dcm_alias_set_mixed": (c_int, [_dcm_p, c_char_p, c_int, POINTER(TimedPoint),
                                    POINTER(size_t), size_t]),
    "dcm_alias_set_all": (c_int, [_dcm_p, c_char_p, c_int, POINTER(TimedPoint), size_t]),
    "dcm_time": (c_int, [_dcm_p, i32, POINTER(u32)]),
    "dcm_get": (c_int, [_dcm_p, POINTER(u32), size_t, POINTER(c_double), POINTER(u32)]),
    "dcm_watchdog_arm": (c_int, [_dcm_p, u32, c_int, u32]),
    "dcm_watchdog_kick": (c_int, [_dcm_p]),
    "dcm_watchdog_disarm": (c_int, [_dcm_p]),
    "dcm_read_frame": (c_int, [_dcm_p, POINTER(ValuesFrame)]),
    "dcm_values_frame_release": (None, [POINTER(ValuesFrame)]),
    "dcm_poll_fd": (c_int, [_dcm_p]),
    "dcm_stats": (c_int, [_dcm_p, POINTER(Stats)]),
    "dcm_latency_bucket_ns": (u64, [c_uint]),
    "dcm_snapshot_map": (c_int, [_dcm_p, POINTER(_snap_p)]),
    "dcm_snapshot_read_many": (c_int, [_snap_p, POINTER(u32), size_t, POINTER(c_double),
                                       POINTER(u32), POINTER(u64)]),
    "dcm_snapshot_generation": (u32, [_snap_p]),
    "dcm_snapshot_check": (c_int, [_snap_p]),
    "dcm_snapshot_unmap": (None, [_snap_p]),
    "dcm_nl_open": (c_int, [POINTER(_nl_p)]),
    "dcm_nl_close": (None, [_nl_p]),
    "dcm_nl_get_info": (c_int, [_nl_p, c_uint, POINTER(Info)]),
    "dcm_nl_dump_info": (c_int, [_nl_p, INFO_CB, c_void_p]),
    "dcm_nl_subscribe_events": (c_int, [_nl_p]),
    "dcm_nl_event_fd": (c_int, [_nl_p]),
    "dcm_nl_recv": (c_int, [_nl_p, EVENT_CB, c_void_p]),
    "dcm_nl_parse_event": (c_int, [c_void_p, POINTER(EventMsg)]),
    "dcm_event_type_name": (c_char_p, [c_uint]),
    "dcm_event_type_parse": (c_int, [c_char_p]),
    "dcm_safety_rule_name": (c_char_p, [c_uint]),
    "dcm_event_format": (c_int, [POINTER(EventMsg), c_char_p, size_t]),
    "dcm_sysfs_open": (c_int, [c_char_p, c_uint, POINTER(_sysfs_p)]),
    "dcm_sysfs_close": (None, [_sysfs_p]),
    "dcm_sysfs_read": (c_int, [_sysfs_p, c_char_p, POINTER(c_void_p)]),
    "dcm_sysfs_write": (c_int, [_sysfs_p, c_char_p, c_char_p]),
    "dcm_sysfs_key_flags": (c_int, [_sysfs_p, c_char_p, POINTER(u32)]),
    "dcm_get_prefix": (POINTER(c_char_p), [POINTER(size_t)]),
    "dcm_tree_read": (c_int, [_dcm_p, c_char_p, c_uint, POINTER(_tree_p)]),
    "dcm_tree_free": (None, [_tree_p]),
    "dcm_tree_generation": (u32, [_tree_p]),
    "dcm_tree_n_devices": (size_t, [_tree_p]),
    "dcm_tree_device": (POINTER(TreeDevice), [_tree_p, size_t]),
    "dcm_tree_n_subdevices": (size_t, [_tree_p]),
    "dcm_tree_subdevice": (POINTER(TreeSubdevice), [_tree_p, size_t]),
    "dcm_tree_n_robot_keys": (size_t, [_tree_p]),
    "dcm_tree_robot_key": (POINTER(TreeKey), [_tree_p, size_t]),
    "dcm_alias_create_shared": (c_int, [_dcm_p, c_char_p, POINTER(c_char_p), size_t,
                                        POINTER(u32)]),
    "dcm_alias_list": (c_int, [_dcm_p, POINTER(POINTER(AliasEntry))]),
    "dcm_alias_show": (c_int, [_dcm_p, c_char_p, ctypes.c_bool, POINTER(AliasDesc)]),
    "dcm_alias_desc_free": (None, [POINTER(AliasDesc)]),
    "dcm_alias_delete": (c_int, [_dcm_p, c_char_p, ctypes.c_bool]),
    "dcm_nl_special": (c_int, [_nl_p, c_uint, c_int, POINTER(SpecialResult)]),
    "dcm_special_name": (c_char_p, [c_int]),
    "dcm_special_from_name": (c_int, [c_char_p]),
    "dcm_time_diff": (i32, [u32, u32]),
    "dcm_time_add": (u32, [u32, i32]),
}

# libdcm-desc's (<libdcm-desc.h>): the preferences.
_DESC_PROTOTYPES = {
    "dcm_prefs_save": (c_int, [POINTER(PrefsOpts), c_int, POINTER(PrefsSaved),
                               POINTER(size_t)]),
    "dcm_prefs_load": (c_int, [POINTER(PrefsOpts), c_int, POINTER(PrefsLoaded)]),
    "dcm_prefs_add": (c_int, [POINTER(PrefsOpts), c_int, c_char_p, c_char_p, c_char_p,
                              POINTER(PrefsAdded)]),
    "dcm_prefs_target_name": (c_char_p, [c_int]),
    "dcm_prefs_target_from_name": (c_int, [c_char_p]),
}

_lock = threading.Lock()
_lib = None
_desc_lib = None
_libc = None


def _load(what, env, soname, package, prototypes):
    path = os.environ.get(env) or soname
    try:
        so = ctypes.CDLL(path, use_errno=True)
    except OSError as e:
        raise ImportError(
            "dcm: cannot load %s (%s): %s; install %s (make install) or "
            "set %s to the library file" % (what, path, e, package, env)) from e
    for name, (res, args) in prototypes.items():
        try:
            fn = getattr(so, name)
        except AttributeError as e:
            raise ImportError("dcm: %s has no %s: %s too old for this module" %
                              (path, name, what)) from e
        fn.restype = res
        fn.argtypes = args
    return so


def lib():
    """The loaded libdcm, every prototype declared (loaded on first call).

    Raises ImportError if the library cannot be loaded.
    """
    global _lib
    if _lib is None:
        with _lock:
            if _lib is None:
                _lib = _load("libdcm", "DCM_LIBDCM", SONAME, "libdcm0", _PROTOTYPES)
    return _lib


def desc_lib():
    """The loaded libdcm-desc (the preferences), every prototype declared
    (loaded on first call, after libdcm, which it needs and whose
    dcm_last_error() says why a call of it failed).

    Raises ImportError if the library cannot be loaded.
    """
    global _desc_lib
    lib()
    if _desc_lib is None:
        with _lock:
            if _desc_lib is None:
                _desc_lib = _load("libdcm-desc", "DCM_LIBDCM_DESC", DESC_SONAME,
                                  "libdcm-desc0", _DESC_PROTOTYPES)
    return _desc_lib


def libc_free(ptr):
    """free(3) of a pointer libdcm allocated for the caller."""
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None)
        _libc.free.argtypes = [c_void_p]
        _libc.free.restype = None
    _libc.free(ptr)


def text(b):
    """A C string of the library as str (None stays None)."""
    if b is None:
        return None
    return b.decode("utf-8", "replace")


class Closing:
    """A context manager whose exit, and whose collection, call close()."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # pylint: disable=broad-except
            pass
