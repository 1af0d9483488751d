# SPDX-License-Identifier: LGPL-2.1-or-later
"""The controller: ``/dev/dcmN`` through libdcm.

:class:`Controller` is one open handle of a controller's character device:
keys by name, values, immediate and timed commands, aliases, DCM time, the
per-cycle frames, the mapped snapshot, statistics and the handle's
watchdog. Documentation/dcm/python.rst describes it with examples.
"""

import ctypes
import enum
import errno as _errno
import select
import threading
import weakref
from collections import namedtuple
from collections.abc import Sequence

from . import _args, _lib
from .errors import DcmError, NoSuchAliasError, NoSuchKeyError, StaleError, check

#: The prefix of subdevice keys; names are taken with or without it.
PREFIX_SUB = "Device/SubDeviceList/"
#: The prefix of device keys.
PREFIX_DEV = "Device/DeviceList/"
#: The prefix of the robot's configuration keys.
PREFIX_ROBOT = "RobotConfig/"
#: The device a controller is opened from by default.
DEFAULT_DEVICE = "/dev/dcm0"


class UpdateKind(enum.IntEnum):
    """What a timed command does to the commands already queued.

    The values are the kernel's; the names NAOqi's ("ClearAll", ...). Every
    function that takes a kind also takes its NAOqi name (case, '-' and
    '_' do not count: "clear-all" works) or the int.
    """
    #: Drop every queued command, queue the new ones.
    CLEAR_ALL = 0
    #: Keep them, insert the new ones by time.
    MERGE = 1
    #: Drop those after the earliest new one.
    CLEAR_AFTER = 2
    #: Drop those before the latest new one.
    CLEAR_BEFORE = 3

    @property
    def naoqi(self):
        """NAOqi's name: "ClearAll", "Merge", "ClearAfter", "ClearBefore"."""
        return _lib.text(_lib.lib().dcm_kind_to_string(int(self)))

    @classmethod
    def parse(cls, x):
        """An UpdateKind from itself, its int or a name (libdcm's reading).

        Raises TypeError or ValueError.
        """
        if isinstance(x, cls):
            return x
        if isinstance(x, int) and not isinstance(x, bool):
            try:
                return cls(x)
            except ValueError:
                raise ValueError("update kind %d is not one of 0..3 (ClearAll, Merge, "
                                 "ClearAfter, ClearBefore)" % x) from None
        if not isinstance(x, str):
            raise TypeError("the update kind must be a string (\"ClearAll\", \"Merge\", "
                            "\"ClearAfter\" or \"ClearBefore\"), got %s %r" %
                            (_args.typename(x), x))
        out = ctypes.c_int()
        if _lib.lib().dcm_kind_from_string(x.encode("utf-8", "replace"), ctypes.byref(out)):
            raise ValueError("unknown update kind %r: ClearAll, Merge, ClearAfter or "
                             "ClearBefore" % x)
        return cls(out.value)


class AliasMode(enum.IntEnum):
    """How a NAOqi setAlias gives its times ("time-mixed", "time-separate")."""
    TIME_MIXED = 0
    TIME_SEPARATE = 1

    @property
    def naoqi(self):
        """NAOqi's name: "time-mixed" or "time-separate"."""
        return _lib.text(_lib.lib().dcm_alias_mode_to_string(int(self)))

    @classmethod
    def parse(cls, x):
        """An AliasMode from itself, its int or its name; TypeError, ValueError."""
        if isinstance(x, cls):
            return x
        if isinstance(x, int) and not isinstance(x, bool):
            try:
                return cls(x)
            except ValueError:
                raise ValueError("alias mode %d is not 0 (time-mixed) or 1 "
                                 "(time-separate)" % x) from None
        if not isinstance(x, str):
            raise TypeError("the alias mode must be a string (\"time-mixed\" or "
                            "\"time-separate\"), got %s %r" % (_args.typename(x), x))
        out = ctypes.c_int()
        if _lib.lib().dcm_alias_mode_from_string(x.encode("utf-8", "replace"),
                                                 ctypes.byref(out)):
            raise ValueError("unknown alias mode %r: time-mixed or time-separate" % x)
        return cls(out.value)


class SafeAction(enum.IntEnum):
    """What the kernel does when a handle's watchdog fires."""
    #: The handle's actuators drop their queued commands and hold.
    HOLD = 0
    #: Hold, and every joint's hardness goes to 0 over ``ramp_ms``.
    RAMP = 1


class Point(namedtuple("Point", "value time importance")):
    """One timed command: reach ``value`` at DCM time ``time`` (ms).

    Any place that takes points also takes plain lists ``[value, time]`` or
    ``[value, time, importance]``, as NAOqi's set does.
    """
    __slots__ = ()

    def __new__(cls, value, time, importance=0):
        return super().__new__(cls, value, time, importance)


Info = namedtuple("Info", "index name driver abi_major abi_minor period_us time_ms "
                  "n_devices n_subdevices simulated configured running")
Info.__doc__ = """A controller as the kernel describes it (DCM_IOC_INFO).

``period_us`` is the cycle period, ``time_ms`` the DCM time when asked,
``simulated`` true when the body is dcm_sim, ``configured`` when a robot
description is loaded, ``running`` when the cycle runs."""

Stats = namedtuple("Stats", "cycles overruns last_ns mean_ns max_ns latency_max_ns "
                   "latency_hist")
Stats.__doc__ = """The cycle's statistics (DCM_IOC_STATS).

``latency_hist`` is a list of (upper bound in ns, count) pairs, the last
bound None (5 ms and more)."""


def _info(ci):
    return Info(ci.index, _lib.text(ci.name), _lib.text(ci.driver), ci.abi_major,
                ci.abi_minor, ci.period_us, ci.time_ms, ci.n_devices, ci.n_subdevices,
                bool(ci.flags & _lib.INFO_SIMULATED), bool(ci.flags & _lib.INFO_CONFIGURED),
                bool(ci.flags & _lib.INFO_RUNNING))


Device = namedtuple("Device", "name type bus address keys")
Device.__doc__ = """A device (board) of the description (:meth:`Controller.devices`).

``keys`` are the names of its keys below it ("Available", "Ack", ...)."""

Subdevice = namedtuple("Subdevice", "name type device number handle actuator step keys")
Subdevice.__doc__ = """A subdevice of the description (:meth:`Controller.subdevices`).

``name`` is "HeadYaw/Position/Sensor", ``device`` its board, ``number``
its SubDeviceNumber, ``handle`` its handle in the running description,
``keys`` the names of its keys ("Value", "Min", "Kp", ...)."""

AliasInfo = namedtuple("AliasInfo", "name members shared")
AliasInfo.__doc__ = """An alias in :meth:`Controller.aliases`: its name, its
number of members (blank ones included), and whether it is shared."""

Alias = namedtuple("Alias", "name shared members keys")
Alias.__doc__ = """An alias (:meth:`Controller.alias`): its member names as
they were given and each one's :class:`Key`, None for a blank member."""


def _flag_names(flags):
    out = set()
    if flags & _lib.TREE_KEY_WRITABLE:
        out.add("writable")
    if flags & _lib.TREE_KEY_CONFIG:
        out.add("config")
    if flags & _lib.TREE_KEY_COMMAND:
        out.add("command")
    return out


class Tree:
    """A controller's description as its key tree shows it (:meth:`Controller.tree`).

    Attributes:
        index: the controller (N of dcmN).
        generation: the description's generation (of the handles).
        devices: the :class:`Device` tuple, sorted by name.
        subdevices: the :class:`Subdevice` tuple, sorted by name.
        robot_keys: the RobotConfig keys, names below "RobotConfig/".

    A Tree does not change: a new description gives a new Tree.
    """
    __slots__ = ("index", "generation", "devices", "subdevices", "robot_keys", "_keys")

    def __init__(self, index, generation, devices, subdevices, robot_keys):
        self.index = index
        self.generation = generation
        self.devices = tuple(devices)
        self.subdevices = tuple(subdevices)
        self.robot_keys = tuple(robot_keys)
        self._keys = None

    def keys(self):
        """Every key's full name, sorted (a new list)."""
        if self._keys is None:
            out = [PREFIX_DEV + d.name + "/" + k for d in self.devices for k in d.keys]
            out += [PREFIX_SUB + s.name + "/" + k for s in self.subdevices for k in s.keys]
            out += [PREFIX_ROBOT + k for k in self.robot_keys]
            self._keys = tuple(sorted(out))
        return list(self._keys)

    def __repr__(self):
        return "<dcm.Tree dcm%d: %d devices, %d subdevices, %d RobotConfig keys>" % (
            self.index, len(self.devices), len(self.subdevices), len(self.robot_keys))


def _tree_keys(p):
    return tuple(_lib.text(p.keys[i].name) for i in range(p.n_keys))


def _tree(lib, t, index):
    devs = []
    for i in range(lib.dcm_tree_n_devices(t)):
        d = lib.dcm_tree_device(t, i).contents
        devs.append(Device(_lib.text(d.name), _lib.text(d.type), _lib.text(d.bus),
                           d.address, _tree_keys(d)))
    subs = []
    for i in range(lib.dcm_tree_n_subdevices(t)):
        d = lib.dcm_tree_subdevice(t, i).contents
        subs.append(Subdevice(_lib.text(d.name), _lib.text(d.type), _lib.text(d.device),
                              d.number, d.handle, bool(d.flags & _lib.KEY_ACTUATOR),
                              bool(d.flags & _lib.KEY_STEP), _tree_keys(d)))
    robot = tuple(_lib.text(lib.dcm_tree_robot_key(t, i).contents.name)
                  for i in range(lib.dcm_tree_n_robot_keys(t)))
    return Tree(index, lib.dcm_tree_generation(t), tuple(devs), tuple(subs), robot)


class Key:
    """A subdevice, looked up by name (:meth:`Controller.key`).

    Attributes:
        name: the name as it was asked.
        handle: the kernel's handle (index in the low 16 bits, the
            description's generation in the high 16 bits).
        actuator: True if it takes timed commands.
        step: True if it is not interpolated (the sonar).
    """
    __slots__ = ("name", "handle", "flags")

    def __init__(self, name, handle, flags):
        self.name = name
        self.handle = handle
        self.flags = flags

    @property
    def actuator(self):
        """True for an actuator (takes commands)."""
        return bool(self.flags & _lib.KEY_ACTUATOR)

    @property
    def step(self):
        """True for an actuator whose commands are not interpolated."""
        return bool(self.flags & _lib.KEY_STEP)

    @property
    def index(self):
        """Its index in a frame's values and in the snapshot."""
        return self.handle & 0xffff

    @property
    def generation(self):
        """The generation of the description it belongs to."""
        return self.handle >> 16

    def __repr__(self):
        return "Key(%r, handle=0x%08x%s)" % (self.name, self.handle,
                                             ", actuator" if self.actuator else "")

    def __eq__(self, other):
        return isinstance(other, Key) and other.handle == self.handle

    def __hash__(self):
        return hash(self.handle)


class Frame(Sequence):
    """One cycle's values, as read() on /dev/dcmN gives them.

    A sequence of floats, one per subdevice, in index order: ``frame[i]``,
    ``len(frame)``, iteration and slices work as on a tuple, and
    ``frame[key]`` takes a :class:`Key` (its index; a key of another
    description raises :class:`StaleError`).

    Attributes:
        cycle: the cycle's number, from 1, +1 per cycle.
        time: its DCM time (ms).
        generation: the description's generation.
        values: the tuple of values.
    """
    __slots__ = ("cycle", "time", "generation", "values")

    def __init__(self, cycle, time, generation, values):
        self.cycle = cycle
        self.time = time
        self.generation = generation
        self.values = values

    def __len__(self):
        return len(self.values)

    def __getitem__(self, i):
        if isinstance(i, Key):
            if i.generation != self.generation:
                raise StaleError(_errno.ESTALE,
                                 "%s: key of description %d, the frame is of %d: look it up "
                                 "again" % (i.name, i.generation, self.generation))
            return self.values[i.index]
        return self.values[i]

    def __repr__(self):
        return "<dcm.Frame cycle %d time %d, %d values>" % (self.cycle, self.time,
                                                          len(self.values))


def _closed():
    return ValueError("I/O operation on a closed dcm controller")


class Controller(_lib.Closing):
    """An open controller, ``/dev/dcmN`` (a context manager).

    ``Controller()`` opens ``/dev/dcm0``; ``Controller("/dev/dcm1")`` or
    ``Controller(index=1)`` another. The device is opened read-write, or
    read-only when write access is refused (commands then fail with
    ``EBADF``); libdcm checks the kernel's ABI version. Errors raise
    :class:`DcmError` (``FileNotFoundError``-like: ``errno`` ENOENT for a
    missing node, ENOTTY for a file that is no dcm device, EPROTO for an
    ABI the library does not speak).

    Names of keys are those of the key space, with or without the
    ``Device/SubDeviceList/`` prefix and the ``/Value`` suffix:
    ``"HeadYaw/Position/Actuator"``,
    ``"Device/SubDeviceList/HeadYaw/Position/Actuator/Value"``. Every method
    that takes a name also takes a :class:`Key`. Lookups are cached; when
    the description is replaced, a name is looked up again once.

    One Controller may be used from several threads.
    """

    def __init__(self, path=None, *, index=None):
        if path is not None and index is not None:
            raise TypeError("give a path or an index, not both")
        if index is not None:
            path = "/dev/dcm%d" % _args.integer(index, "index", 0, 0xffff)
        if path is None:
            path = DEFAULT_DEVICE
        bpath = _args.name(path, "the device path")
        self._h = None
        self._keys = {}
        self._lock = threading.Lock()
        self._frame_lock = threading.Lock()
        self._frame = None
        self._frame_buf = None
        self._snaps = weakref.WeakSet()
        self._sysfs = None
        self._tree = None
        self._path = path
        h = ctypes.c_void_p()
        check(_lib.lib().dcm_open(bpath, ctypes.byref(h)), "dcm_open")
        self._h = h

    # ---- life --------------------------------------------------------

    def close(self):
        """Close the handle (its mapped snapshots too). Closing twice is fine."""
        if self._h is None:
            return
        lib = _lib.lib()
        for s in list(self._snaps):
            s.close()
        with self._frame_lock:
            if self._frame is not None:
                lib.dcm_values_frame_release(ctypes.byref(self._frame))
                self._frame = None
        if self._sysfs is not None:
            lib.dcm_sysfs_close(self._sysfs)
            self._sysfs = None
        lib.dcm_close(self._h)
        self._h = None

    def __repr__(self):
        return "<dcm.Controller %s%s>" % (self._path, " closed" if self._h is None else "")

    @property
    def closed(self):
        """True once closed."""
        return self._h is None

    def _handle(self):
        h = self._h
        if h is None:
            raise _closed()
        return h

    @property
    def path(self):
        """The device path it was opened with."""
        return self._path

    def fileno(self):
        """The descriptor: readable (POLLIN) once per cycle, for select/poll."""
        return check(_lib.lib().dcm_poll_fd(self._handle()), "dcm_poll_fd")

    @property
    def abi_version(self):
        """The kernel's ABI version (major, minor) seen at open."""
        v = _lib.Version()
        check(_lib.lib().dcm_abi_version(self._handle(), ctypes.byref(v)), "dcm_abi_version")
        return (v.major, v.minor)

    def info(self):
        """The controller's :class:`Info`: name, driver, period, counts, state."""
        ci = _lib.Info()
        check(_lib.lib().dcm_get_info(self._handle(), ctypes.byref(ci)), "dcm_get_info")
        return _info(ci)

    def stats(self):
        """The cycle's :class:`Stats` (counts and ns)."""
        lib = _lib.lib()
        st = _lib.Stats()
        check(lib.dcm_stats(self._handle(), ctypes.byref(st)), "dcm_stats")
        hist = []
        for i in range(_lib.LATENCY_BUCKETS):
            b = lib.dcm_latency_bucket_ns(i)
            hist.append((None if b == (1 << 64) - 1 else b, st.latency_hist[i]))
        return Stats(st.cycles, st.overruns, st.last_ns, st.mean_ns, st.max_ns,
                     st.latency_max_ns, hist)

    # ---- keys and values ---------------------------------------------

    def key(self, name):
        """The :class:`Key` of a subdevice name (cached).

        Raises NoSuchKeyError (a ``KeyError`` too) for a name the running
        description does not have, ValueError for an empty or too long name.
        """
        if isinstance(name, Key):
            return name
        k = self._keys.get(name) if isinstance(name, str) else None
        if k is not None:
            return k
        b = _args.name(name, "the key name", _lib.KEY_NAME_LEN)
        out = _lib.Key()
        ret = _lib.lib().dcm_lookup(self._handle(), b, ctypes.byref(out))
        if ret == -_errno.ENOENT:
            check(ret, "dcm_lookup", NoSuchKeyError, key=name)
        check(ret, "dcm_lookup")
        k = Key(name, out.handle, out.flags)
        with self._lock:
            self._keys[name] = k
        return k

    def _forget(self, keys):
        with self._lock:
            for k in keys:
                if isinstance(k, Key):
                    self._keys.pop(k.name, None)
                else:
                    self._keys.pop(k, None)

    def _with_keys(self, names, fn):
        """fn(list of Key), looked up again once if the description changed."""
        keys = [self.key(n) for n in names]
        try:
            return fn(keys)
        except StaleError:
            if any(isinstance(n, Key) for n in names):
                raise
            self._forget(names)
            return fn([self.key(n) for n in names])

    def _get(self, keys, with_times):
        n = len(keys)
        if n > _lib.MAX_SUBDEVICES:
            raise ValueError("%d keys, at most %d at once" % (n, _lib.MAX_SUBDEVICES))
        handles = (_lib.u32 * n)(*[k.handle for k in keys])
        values = (ctypes.c_double * n)()
        times = (_lib.u32 * n)() if with_times else None
        check(_lib.lib().dcm_get(self._handle(), handles, n, values, times), "dcm_get")
        if with_times:
            return list(zip(values[:n], times[:n]))
        return values[:n]

    def _get1(self, keys):
        v = ctypes.c_double()
        h = _lib.u32(keys[0].handle)
        check(_lib.lib().dcm_get(self._handle(), ctypes.byref(h), 1, ctypes.byref(v), None),
              "dcm_get")
        return v.value

    def get(self, name):
        """The value of one subdevice (a float), from the last cycle."""
        return self._with_keys([name], self._get1)

    def get_many(self, names):
        """The values of several subdevices, all of one cycle (a list of floats)."""
        names = _args.seq(names, "names")
        if not names:
            return []
        return self._with_keys(names, lambda ks: self._get(ks, False))

    def get_with_times(self, names):
        """[(value, DCM time of its last update), ...] of several subdevices."""
        names = _args.seq(names, "names")
        if not names:
            return []
        return self._with_keys(names, lambda ks: self._get(ks, True))

    def _actuator(self, k):
        if not k.actuator:
            raise ValueError("%s is not an actuator: it takes no commands" % k.name)
        return k

    def set(self, name, value, delay_ms=0, kind=UpdateKind.CLEAR_ALL):
        """Command one actuator: reach ``value`` at DCM time now + ``delay_ms``.

        With the default ClearAll the queued commands are dropped; a delay
        of 0 applies at the next cycle (10 ms). Like writing its sysfs Value.
        """
        v = _args.value(value, "the value")
        off = _args.offset(delay_ms, "delay_ms")
        kd = UpdateKind.parse(kind)

        def go(ks):
            k = self._actuator(ks[0])
            check(_lib.lib().dcm_set_now(self._handle(), k.handle, int(kd), v, off),
                  "dcm_set_now")
        self._with_keys([name], go)

    def set_timed(self, name, points, kind=UpdateKind.CLEAR_ALL):
        """Timed commands to one actuator (NAOqi's set).

        ``points`` is a list of ``[value, time]`` or ``[value, time,
        importance]`` (or :class:`Point`), times in DCM ms (see
        :meth:`time`); at most 512. An empty list with ClearAll drops every
        queued command and keeps the last value sent. The actuator moves
        linearly from its value toward each point (a step actuator jumps).
        """
        arr, n = _args.points(points, "points")
        kd = UpdateKind.parse(kind)

        def go(ks):
            k = self._actuator(ks[0])
            check(_lib.lib().dcm_set(self._handle(), k.handle, int(kd), arr, n), "dcm_set")
        self._with_keys([name], go)

    def clear(self, name):
        """Drop every queued command of an actuator; it holds its last value."""
        self.set_timed(name, [], UpdateKind.CLEAR_ALL)

    def time(self, offset=0):
        """DCM time now plus ``offset`` ms (NAOqi's getTime): an int, 0..2**32-1.

        DCM time wraps at 2**32 ms: compare times with :func:`time_diff`.
        """
        out = _lib.u32()
        check(_lib.lib().dcm_time(self._handle(), _args.offset(offset), ctypes.byref(out)),
              "dcm_time")
        return out.value

    # ---- aliases -----------------------------------------------------

    def _alias_check(self, ret, function, alias):
        if ret == -_errno.ENOENT:
            check(ret, function, NoSuchAliasError, alias=alias)
        check(ret, function)

    def create_alias(self, name, members, shared=False):
        """Name a list of actuators (NAOqi's createAlias).

        Returns one entry per member: its :class:`Key`, or None for a name
        that is no actuator (the alias keeps it as a blank member that takes
        nothing). An alias of the same name is replaced. The alias is this
        controller object's (its open file's), freed when it is closed;
        with ``shared`` it is the controller's, seen by every client and
        kept until :meth:`delete_alias` (as dcmctl makes them).
        """
        b = _args.name(name, "the alias name", _lib.ALIAS_NAME_LEN)
        members = _args.seq(members, "the alias members")
        if not members or len(members) > _lib.MAX_ALIAS_MEMBERS:
            raise ValueError("an alias has 1 to %d members, got %d" %
                             (_lib.MAX_ALIAS_MEMBERS, len(members)))
        enc = []
        for i, m in enumerate(members):
            if isinstance(m, Key):
                m = m.name
            enc.append(_args.name(m, "member %d" % i) if m != "" else b"")
        arr = (ctypes.c_char_p * len(enc))(*enc)
        handles = (_lib.u32 * len(enc))()
        fn = "dcm_alias_create_shared" if shared else "dcm_alias_create"
        check(getattr(_lib.lib(), fn)(self._handle(), b, arr, len(enc), handles), fn)
        out = []
        for i, m in enumerate(members):
            h = handles[i]
            if not h:
                out.append(None)
                continue
            mname = m.name if isinstance(m, Key) else m
            out.append(Key(mname, h, _lib.KEY_ACTUATOR))
        return out

    def set_alias_separate(self, name, times, values, kind=UpdateKind.CLEAR_ALL,
                           importance=0):
        """NAOqi's setAlias "time-separate": one list of times for all members.

        ``values`` holds one list per member (blank members included), each
        with one value per time. Either every member takes its commands, or
        none does.
        """
        b = _args.name(name, "the alias name", _lib.ALIAS_NAME_LEN)
        times = _args.seq(times, "times")
        if not times or len(times) > _lib.MAX_POINTS:
            raise ValueError("times: 1 to %d of them, got %d" % (_lib.MAX_POINTS, len(times)))
        ts = (_lib.u32 * len(times))(*[_args.time(t, "times[%d]" % i)
                                       for i, t in enumerate(times)])
        rows = _args.seq(values, "values")
        if not rows or len(rows) > _lib.MAX_ALIAS_MEMBERS:
            raise ValueError("values: one list per member, 1 to %d, got %d" %
                             (_lib.MAX_ALIAS_MEMBERS, len(rows)))
        flat = (ctypes.c_double * (len(rows) * len(times)))()
        for m, row in enumerate(rows):
            row = _args.seq(row, "values[%d]" % m)
            if len(row) != len(times):
                raise ValueError("values[%d] has %d values for %d times" %
                                 (m, len(row), len(times)))
            for t, v in enumerate(row):
                flat[m * len(times) + t] = _args.value(v, "values[%d][%d]" % (m, t))
        kd = UpdateKind.parse(kind)
        imp = _args.importance(importance)
        self._alias_check(_lib.lib().dcm_alias_set_separate(self._handle(), b, int(kd), ts,
                                                            len(times), flat, len(rows), imp),
                          "dcm_alias_set_separate", name)

    def set_alias_mixed(self, name, points, kind=UpdateKind.CLEAR_ALL):
        """NAOqi's setAlias "time-mixed": each member its own list of points.

        ``points`` holds one list per member (blank members included, an
        empty list is allowed), each as :meth:`set_timed` takes it.
        """
        b = _args.name(name, "the alias name", _lib.ALIAS_NAME_LEN)
        per = _args.seq(points, "points")
        if not per or len(per) > _lib.MAX_ALIAS_MEMBERS:
            raise ValueError("points: one list per member, 1 to %d, got %d" %
                             (_lib.MAX_ALIAS_MEMBERS, len(per)))
        all_pts = []
        counts = (_lib.size_t * len(per))()
        for m, lst in enumerate(per):
            lst = _args.seq(lst, "points[%d]" % m)
            if len(lst) > _lib.MAX_POINTS:
                raise ValueError("points[%d] has %d commands, at most %d" %
                                 (m, len(lst), _lib.MAX_POINTS))
            counts[m] = len(lst)
            for i, p in enumerate(lst):
                all_pts.append(_args.point(p, "points[%d][%d]" % (m, i)))
        arr = (_lib.TimedPoint * max(len(all_pts), 1))()
        for i, (v, t, imp) in enumerate(all_pts):
            arr[i].value = v
            arr[i].time = t
            arr[i].importance = imp
        kd = UpdateKind.parse(kind)
        self._alias_check(_lib.lib().dcm_alias_set_mixed(self._handle(), b, int(kd), arr,
                                                         counts, len(per)),
                          "dcm_alias_set_mixed", name)

    def set_alias_all(self, name, points, kind=UpdateKind.CLEAR_ALL):
        """Every member of an alias takes the same points (NAOqi's set on an alias)."""
        b = _args.name(name, "the alias name", _lib.ALIAS_NAME_LEN)
        arr, n = _args.points(points, "points")
        kd = UpdateKind.parse(kind)
        self._alias_check(_lib.lib().dcm_alias_set_all(self._handle(), b, int(kd), arr, n),
                          "dcm_alias_set_all", name)

    # ---- frames ------------------------------------------------------

    def read_frame(self, timeout=None):
        """The next cycle's :class:`Frame`, or None if none came in ``timeout`` s.

        "Next" is per handle: a frame newer than the last this handle read
        (a cycle missed between two calls is not queued). ``timeout`` None
        waits for ever.
        """
        fd = self.fileno()
        if timeout is not None:
            p = select.poll()
            p.register(fd, select.POLLIN)
            if not p.poll(max(0, int(timeout * 1000))):
                return None
        with self._frame_lock:
            lib = _lib.lib()
            if self._frame is None:
                self._frame = _lib.ValuesFrame()
            fr = self._frame
            ret = lib.dcm_read_frame(self._handle(), ctypes.byref(fr))
            check(ret, "dcm_read_frame")
            n = fr.n_values
            return Frame(fr.cycle, fr.time, fr.generation, tuple(fr.values[:n]))

    def frames(self, count=None, timeout=1.0):
        """Iterate over frames, one per cycle (``count`` of them, or for ever).

        Raises TimeoutError if no frame comes within ``timeout`` s (a cycle
        is 10 ms: a stopped cycle, not a slow one).
        """
        if count is not None:
            count = _args.integer(count, "count", 0, 1 << 62)
        i = 0
        while count is None or i < count:
            f = self.read_frame(timeout)
            if f is None:
                raise TimeoutError("%s: no frame in %g s (is the cycle running?)" %
                                   (self._path, timeout))
            yield f
            i += 1

    # ---- the snapshot ------------------------------------------------

    def snapshot(self):
        """Map the snapshot (mmap of /dev/dcmN): :class:`Snapshot`, a context manager."""
        return Snapshot(self)

    # ---- watchdog ----------------------------------------------------

    def watchdog_arm(self, timeout_ms, action=SafeAction.HOLD, ramp_ms=0):
        """Arm (or re-arm) this handle's watchdog.

        Every command on the handle, or :meth:`watchdog_kick`, refreshes it;
        without one for ``timeout_ms`` (20..60000), or when the handle is
        closed or the process dies, the kernel runs ``action`` ("hold" or
        "ramp", a :class:`SafeAction`). Afterwards commands raise
        :class:`WatchdogFired` until it is armed again or disarmed.
        """
        if isinstance(action, str):
            try:
                action = SafeAction[action.upper()]
            except KeyError:
                raise ValueError("unknown watchdog action %r: hold or ramp" % action) from None
        elif not isinstance(action, SafeAction):
            action = SafeAction(_args.integer(action, "action", 0, 1))
        t = _args.integer(timeout_ms, "timeout_ms", _lib.WATCHDOG_MIN_MS, _lib.WATCHDOG_MAX_MS)
        r = _args.integer(ramp_ms, "ramp_ms", 0, _lib.WATCHDOG_RAMP_MAX_MS)
        check(_lib.lib().dcm_watchdog_arm(self._handle(), t, int(action), r),
              "dcm_watchdog_arm")

    def watchdog_kick(self):
        """Refresh the armed watchdog without a command."""
        check(_lib.lib().dcm_watchdog_kick(self._handle()), "dcm_watchdog_kick")

    def watchdog_disarm(self):
        """Disarm the watchdog (also clears one that fired)."""
        check(_lib.lib().dcm_watchdog_disarm(self._handle()), "dcm_watchdog_disarm")

    # ---- the key tree ------------------------------------------------

    def _sysfs_handle(self):
        if self._sysfs is None:
            s = ctypes.c_void_p()
            check(_lib.lib().dcm_sysfs_open(None, self.info().index, ctypes.byref(s)),
                  "dcm_sysfs_open")
            self._sysfs = s
        return self._sysfs

    def read_text(self, key):
        """Any key of the tree as its sysfs text: ``"RobotConfig/Body/Type"``,
        ``"Device/DeviceList/ChestBoard/BodyId"``, ``"HeadYaw/Position/Sensor/Max"``.

        Raises NoSuchKeyError for a missing key.
        """
        lib = _lib.lib()
        b = _args.name(key, "the key")
        sysfs = self._sysfs_handle()
        out = ctypes.c_void_p()
        ret = lib.dcm_sysfs_read(sysfs, b, ctypes.byref(out))
        # dcm_sysfs_read() leaves dcm_last_error() as it was: our own words.
        if ret == -_errno.ENOENT:
            raise NoSuchKeyError(ret, "%s: no such key" % key, "dcm_sysfs_read", key=key)
        if ret == -_errno.EINVAL:
            raise ValueError("%r is not a key path (an empty, '.' or '..' component, or a "
                             "trailing '/')" % key)
        if ret < 0:
            raise DcmError(ret, "%s: %s" % (key, _lib.text(lib.dcm_strerror(ret))),
                           "dcm_sysfs_read")
        try:
            return ctypes.string_at(out.value).decode("utf-8", "replace")
        finally:
            _lib.libc_free(out)

    def write_text(self, key, value):
        """Write one key of the tree as text (libdcm's ``dcm_sysfs_write``).

        A configuration key (``"HeadYaw/Position/Actuator/Kp"``, a
        ``RobotConfig`` key) needs root; an actuator's ``Value`` is a command
        (ClearAll, now) and needs the group dcm. The kernel checks the value
        against the key's kind and range. Raises NoSuchKeyError for a missing
        key, DcmError with libdcm's words otherwise (``EACCES``, ``EPERM``,
        ``EINVAL``, ``ERANGE``).
        """
        b = _args.name(key, "the key")
        if isinstance(value, bool):
            value = "1" if value else "0"
        elif isinstance(value, float):
            value = repr(_args.value(value, "the value"))
        elif not isinstance(value, (str, int)):
            raise TypeError("the value must be a string or a number, got %s %s" %
                            (_args.typename(value), _args.short(value)))
        v = _args.name(str(value), "the value") if value != "" else b""
        ret = _lib.lib().dcm_sysfs_write(self._sysfs_handle(), b, v)
        if ret == -_errno.ENOENT:
            check(ret, "dcm_sysfs_write", NoSuchKeyError, key=key)
        check(ret, "dcm_sysfs_write")

    def key_flags(self, key):
        """Who may write a key of the tree: a set of "writable", "config"
        (root writes it) and "command" (an actuator's Value: the group dcm).

        Raises NoSuchKeyError for a missing key.
        """
        b = _args.name(key, "the key")
        out = _lib.u32()
        ret = _lib.lib().dcm_sysfs_key_flags(self._sysfs_handle(), b, ctypes.byref(out))
        if ret == -_errno.ENOENT:
            raise NoSuchKeyError(ret, "%s: no such key" % key, "dcm_sysfs_key_flags", key=key)
        if ret == -_errno.EINVAL:
            raise ValueError("%r is not a key path" % key)
        check(ret, "dcm_sysfs_key_flags")
        return _flag_names(out.value)

    # ---- enumeration -------------------------------------------------

    def tree(self):
        """The running description: a :class:`Tree` of its devices,
        subdevices (each with its handle) and keys (libdcm's
        ``dcm_tree_read``, from sysfs).

        The tree is read once per description: while the description that
        was read runs (one lookup tells), the same Tree comes back.
        """
        t = self._tree
        if t is not None and self._tree_current(t):
            return t
        lib = _lib.lib()
        p = ctypes.c_void_p()
        check(lib.dcm_tree_read(self._handle(), None, 0, ctypes.byref(p)), "dcm_tree_read")
        try:
            t = _tree(lib, p, self.info().index)
        finally:
            lib.dcm_tree_free(p)
        self._tree = t
        return t

    def _tree_current(self, t):
        """True while the description t was read from runs."""
        if not t.subdevices:
            return False
        out = _lib.Key()
        ret = _lib.lib().dcm_lookup(self._handle(), t.subdevices[0].name.encode("utf-8"),
                                    ctypes.byref(out))
        return ret == 0 and out.handle >> 16 == t.generation

    def keys(self, contains=None):
        """Every key of the tree by its full name ("Device/SubDeviceList/
        HeadYaw/Position/Sensor/Value", "Device/DeviceList/ChestBoard/BodyId",
        "RobotConfig/Body/Type"), sorted; with ``contains``, those whose
        name holds that text."""
        ks = self.tree().keys()
        if contains is None:
            return ks
        if not isinstance(contains, str):
            raise TypeError("contains must be a string, got %s %s" %
                            (_args.typename(contains), _args.short(contains)))
        return [k for k in ks if contains in k]

    def devices(self):
        """The devices (boards) of the description: a list of :class:`Device`."""
        return list(self.tree().devices)

    def subdevices(self):
        """The subdevices of the description: a list of :class:`Subdevice`."""
        return list(self.tree().subdevices)

    def aliases(self):
        """The aliases this controller object sees, its own first, then the
        shared ones: a list of :class:`AliasInfo` (name, members, shared)."""
        lib = _lib.lib()
        out = ctypes.POINTER(_lib.AliasEntry)()
        n = check(lib.dcm_alias_list(self._handle(), ctypes.byref(out)), "dcm_alias_list")
        try:
            return [AliasInfo(_lib.text(out[i].name), out[i].n_members, bool(out[i].shared))
                    for i in range(n)]
        finally:
            if out:
                _lib.libc_free(ctypes.cast(out, ctypes.c_void_p))

    def alias(self, name, shared_only=False):
        """One alias: an :class:`Alias` with its member names (as they were
        given) and their keys (None for a blank member). Its own alias of
        that name first, then the shared one (only the shared one with
        ``shared_only``); NoSuchAliasError if there is none."""
        lib = _lib.lib()
        b = _args.name(name, "the alias name", _lib.ALIAS_NAME_LEN)
        d = _lib.AliasDesc()
        self._alias_check(lib.dcm_alias_show(self._handle(), b, bool(shared_only),
                                             ctypes.byref(d)), "dcm_alias_show", name)
        try:
            members = [_lib.text(d.members[i].value) for i in range(d.n_members)]
            keys = [Key(m, d.handles[i], _lib.KEY_ACTUATOR) if d.handles[i] else None
                    for i, m in enumerate(members)]
            return Alias(name, bool(d.shared), members, keys)
        finally:
            lib.dcm_alias_desc_free(ctypes.byref(d))

    def delete_alias(self, name, shared_only=False):
        """Free an alias: its own of that name first, else the shared one
        (only the shared one with ``shared_only``); NoSuchAliasError if none."""
        b = _args.name(name, "the alias name", _lib.ALIAS_NAME_LEN)
        self._alias_check(_lib.lib().dcm_alias_delete(self._handle(), b, bool(shared_only)),
                          "dcm_alias_delete", name)

    # ---- special commands --------------------------------------------

    def special(self, command):
        """Run a special command on this controller (NAOqi's DCM special):
        see :func:`dcm.special`."""
        return special(command, self.info().index)


class Snapshot(_lib.Closing):
    """The controller's values mapped read-only: reads without a system call.

    Made by :meth:`Controller.snapshot`; a context manager (unmapped at the
    end, or by :meth:`close`, or when its controller closes). Reads are
    consistent under the snapshot's sequence count. Once the description is
    replaced the mapping stops changing and reads raise StaleError: map again.
    """

    def __init__(self, controller):
        self._c = controller
        self._s = None
        s = ctypes.c_void_p()
        check(_lib.lib().dcm_snapshot_map(controller._handle(), ctypes.byref(s)),
              "dcm_snapshot_map")
        self._s = s
        controller._snaps.add(self)

    def close(self):
        """Unmap; closing twice is fine."""
        if self._s is not None:
            _lib.lib().dcm_snapshot_unmap(self._s)
            self._s = None

    def _snap(self):
        if self._s is None:
            raise ValueError("the snapshot is unmapped")
        return self._s

    @property
    def generation(self):
        """The generation of the mapped description."""
        return _lib.lib().dcm_snapshot_generation(self._snap())

    def check(self):
        """Raise StaleError if the mapped description no longer runs (one ioctl)."""
        check(_lib.lib().dcm_snapshot_check(self._snap()), "dcm_snapshot_check")

    def read_many(self, names, with_times=False):
        """Values of several subdevices of one cycle: (values, cycle).

        With ``with_times``, (values, times, cycle), times the DCM time of
        each one's last update.
        """
        names = _args.seq(names, "names")
        keys = [self._c.key(n) for n in names]
        n = len(keys)
        handles = (_lib.u32 * max(n, 1))(*[k.handle for k in keys])
        values = (ctypes.c_double * max(n, 1))()
        times = (_lib.u32 * max(n, 1))()
        cycle = _lib.u64()
        check(_lib.lib().dcm_snapshot_read_many(self._snap(), handles, n, values, times,
                                                ctypes.byref(cycle)),
              "dcm_snapshot_read")
        if with_times:
            return values[:n], times[:n], cycle.value
        return values[:n], cycle.value

    def read(self, name):
        """One subdevice's value (a float)."""
        k = self._c.key(name)
        v = ctypes.c_double()
        h = _lib.u32(k.handle)
        check(_lib.lib().dcm_snapshot_read_many(self._snap(), ctypes.byref(h), 1,
                                                ctypes.byref(v), None, None),
              "dcm_snapshot_read")
        return v.value


def time_diff(a, b):
    """``a - b`` in ms, signed, right across the wrap of DCM time (libdcm)."""
    return _lib.lib().dcm_time_diff(_args.time(a, "a"), _args.time(b, "b"))


def time_add(t, ms):
    """``t + ms``, wrapping like the DCM clock."""
    return _lib.lib().dcm_time_add(_args.time(t, "t"), _args.offset(ms, "ms"))


Board = namedtuple("Board", "name type bus address state ack nack errors version")
Board.__doc__ = """One board of a special command's answer: ``state`` ("ok",
"error", "lost", "absent"; None when the command does not say), its Ack
and Nack counts, errors of the last 30 s, ``version`` ("" if it did not
answer a Version)."""

SpecialResult = namedtuple("SpecialResult", "command text boards")
SpecialResult.__doc__ = """What a special command answered: its name, the
kernel's summary and a :class:`Board` per board."""

#: The special commands, NAOqi's names ("Reset", ...) and libdcm's.
SPECIALS = ("reset", "version", "chain", "diagnostic", "config")


def special(command, index=0):
    """Run a special command (NAOqi's ``DCM.special``) on controller ``index``.

    ``command``: "Reset" (clear the counters and errors, chain, configure),
    "Version" (every board's versions, into its keys), "Chain" (chain the
    RS485 buses again), "Diagnostic" (every board's state) or "Config"
    (configure the motor boards again); case does not matter. Needs root
    (CAP_NET_ADMIN): else DcmError ``EPERM``. Returns a :class:`SpecialResult`.
    """
    lib = _lib.lib()
    if not isinstance(command, str):
        raise TypeError("the special command must be a string (%s), got %s %s" %
                        (", ".join(c.capitalize() for c in SPECIALS), _args.typename(command),
                         _args.short(command)))
    cmd = lib.dcm_special_from_name(_args.name(command, "the special command"))
    if cmd < 0:
        raise ValueError("unknown special command %r: %s" %
                         (command, ", ".join(c.capitalize() for c in SPECIALS)))
    idx = _args.integer(index, "index", 0, 0xffff)
    nl = ctypes.c_void_p()
    check(lib.dcm_nl_open(ctypes.byref(nl)), "dcm_nl_open")
    try:
        res = _lib.SpecialResult()
        check(lib.dcm_nl_special(nl, idx, cmd, ctypes.byref(res)), "dcm_nl_special")
    finally:
        lib.dcm_nl_close(nl)
    boards = []
    for i in range(min(res.n_boards, _lib.MAX_DEVICES)):
        b = res.boards[i]
        boards.append(Board(_lib.text(b.name), _lib.text(b.type), _lib.text(b.bus), b.address,
                            _lib.text(b.state) if b.has_state else None, b.ack, b.nack,
                            b.errors, _lib.text(b.version)))
    return SpecialResult(_lib.text(lib.dcm_special_name(cmd)), _lib.text(res.text), boards)


def prefixes():
    """The base names of the key space (libdcm's ``dcm_get_prefix``):
    "Device/DeviceList/", "Device/SubDeviceList/", "RobotConfig/"."""
    n = _lib.size_t()
    arr = _lib.lib().dcm_get_prefix(ctypes.byref(n))
    return [_lib.text(arr[i]) for i in range(n.value)]


def lib_version():
    """The version of the loaded libdcm ("0.8.0"), the module's own
    (``dcm.__version__``) when the two are of one build."""
    return _lib.text(_lib.lib().dcm_lib_version())


def open(path=None, *, index=None):  # pylint: disable=redefined-builtin
    """Open a controller: ``with dcm.open() as c: ...`` (see :class:`Controller`)."""
    return Controller(path, index=index)


def controllers():
    """Every controller (netlink GET_INFO dump): a list of :class:`Info`."""
    lib = _lib.lib()
    nl = ctypes.c_void_p()
    check(lib.dcm_nl_open(ctypes.byref(nl)), "dcm_nl_open")
    out = []

    def cb(info_p, _arg):
        out.append(_info(info_p.contents))
        return 0
    try:
        ccb = _lib.INFO_CB(cb)
        check(lib.dcm_nl_dump_info(nl, ccb, None), "dcm_nl_dump_info")
    finally:
        lib.dcm_nl_close(nl)
    return out
