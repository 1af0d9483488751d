# SPDX-License-Identifier: LGPL-2.1-or-later
"""The robot description's preference files: NAOqi's DCM preferences
("Save", "Load", "Add") over libdcm-desc's ``dcm_prefs_*``.

The files are those dcmd loads for the controller (``/etc/dcm`` for dcm0,
``/etc/dcm/dcmN`` for dcmN, over the shipped ``/usr/share/dcm``); ``etc``
and ``share`` name others (a scratch directory in tests). Every file
written is checked first against the description and the kernel's rules
and replaced atomically: a refused change leaves the file as it was::

    import dcm.prefs
    dcm.prefs.add("Chest", "Device/DeviceList/ChestBoard/BodyNickName", "Nao42")
    dcm.prefs.load("All")          # root: the running description reloaded

A refusal raises :class:`dcm.DcmError` whose ``log`` holds libdcm's lines
(the file and line of each error).
"""

import ctypes
from collections import namedtuple

from . import _args, _lib
from .errors import DcmError

#: The targets, NAOqi's names: which preference file.
TARGETS = ("Main", "Chest", "Head", "All")

Saved = namedtuple("Saved", "target file from_file keys live changed added")
Saved.__doc__ = """One file a save wrote: its target, the file, the file it
read first ("" if none), its number of keys, the target's keys running,
those changed and those new."""

Loaded = namedtuple("Loaded", "files controller n_devices n_subdevices n_keys steps")
Loaded.__doc__ = """What a load committed: the files read, the controller,
the kernel's counts and the configuration requests sent."""

Added = namedtuple("Added", "target file from_file key added")
Added.__doc__ = """What an add did: its target, the file written, the file
read first, the key's full path, True if new in the file (else replaced)."""


def target_number(target):
    """A target's number from its name ("Main", "Chest", "Head", "All"; case
    does not matter) or the number; ValueError, TypeError otherwise."""
    if isinstance(target, int) and not isinstance(target, bool):
        if 0 <= target < len(TARGETS):
            return target
        raise ValueError("preference target %d is not 0..3 (%s)" % (target, ", ".join(TARGETS)))
    if not isinstance(target, str):
        raise TypeError("the preference target must be a string (%s), got %s %s" %
                        (", ".join(TARGETS), _args.typename(target), _args.short(target)))
    n = _lib.desc_lib().dcm_prefs_target_from_name(target.encode("utf-8", "replace"))
    if n < 0:
        raise ValueError("unknown preference target %r: %s" % (target, ", ".join(TARGETS)))
    return n


def value_text(value):
    """A value as the preference files write it: bool "true"/"false", an
    int, a float (repr), or a string as it is."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(_args.value(value, "the value"))
    if isinstance(value, str):
        return value
    raise TypeError("the value must be a string, a number or a bool, got %s %s" %
                    (_args.typename(value), _args.short(value)))


class _Opts:
    """struct dcm_prefs_opts with its strings and log callback kept alive."""

    def __init__(self, index, etc, share):
        self.log = []
        self._keep = []
        o = _lib.PrefsOpts()
        o.index = _args.integer(index, "index", 0, 0xffff)
        if etc is not None:
            o.etc = self._str(etc, "etc")
        if share is not None:
            o.share = self._str(share, "share")

        def log(_arg, _level, msg):
            self.log.append(_lib.text(msg))
        self._cb = _lib.LOG_CB(log)
        o.log = self._cb
        self.opts = o

    def _str(self, x, what):
        b = _args.name(x, what)
        self._keep.append(b)
        return b

    def check(self, ret, function):
        if ret >= 0:
            return ret
        lib = _lib.lib()
        msg = _lib.text(lib.dcm_last_error()) or ""
        if not msg:
            msg = "%s: %s" % (function, _lib.text(lib.dcm_strerror(ret)))
        e = DcmError(ret, msg, function)
        e.log = list(self.log)
        raise e


def save(target="All", index=0, etc=None, share=None):
    """NAOqi's preferences("Save", target): the running values of the keys
    the target owns into its file ("All": the three). A list of :class:`Saved`."""
    t = target_number(target)
    o = _Opts(index, etc, share)
    out = (_lib.PrefsSaved * 3)()
    n = _lib.size_t()
    o.check(_lib.desc_lib().dcm_prefs_save(ctypes.byref(o.opts), t, out, ctypes.byref(n)),
            "dcm_prefs_save")
    return [Saved(TARGETS[out[i].target], _lib.text(out[i].file), _lib.text(out[i].from_),
                  out[i].keys, out[i].live, out[i].changed, out[i].added)
            for i in range(n.value)]


def load(target="All", index=0, etc=None, share=None):
    """NAOqi's preferences("Load", target): load the description again from
    Device.xml and the preference files and commit it to the kernel in one
    transaction, as dcmd does (root). Returns :class:`Loaded`.

    Handles of the old description then fail with StaleError: a
    :class:`dcm.Controller` looks its names up again by itself.
    """
    target_number(target)
    # one target's file alone is not a description: the three are loaded
    t = TARGETS.index("All")
    o = _Opts(index, etc, share)
    out = _lib.PrefsLoaded()
    o.check(_lib.desc_lib().dcm_prefs_load(ctypes.byref(o.opts), t, ctypes.byref(out)),
            "dcm_prefs_load")
    return Loaded(_lib.text(out.files), _lib.text(out.controller), out.n_devices,
                  out.n_subdevices, out.n_keys, out.steps)


def add(target, key, value, type=None, index=0, etc=None, share=None):  # pylint: disable=redefined-builtin
    """NAOqi's preferences("Add", target, key, value): set one key in the
    target's file (Main, Chest or Head); the kernel is not touched (load
    to apply it). ``type`` "int", "float", "bool" or "string", None for the
    key's own. Returns :class:`Added`."""
    t = target_number(target)
    k = _args.name(key, "the key")
    v = value_text(value).encode("utf-8")
    ty = None if type is None else _args.name(type, "the type")
    o = _Opts(index, etc, share)
    out = _lib.PrefsAdded()
    o.check(_lib.desc_lib().dcm_prefs_add(ctypes.byref(o.opts), t, k, v, ty, ctypes.byref(out)),
            "dcm_prefs_add")
    return Added(TARGETS[out.target], _lib.text(out.file), _lib.text(out.from_),
                 _lib.text(out.key), bool(out.added))
