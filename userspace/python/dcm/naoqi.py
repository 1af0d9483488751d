# SPDX-License-Identifier: LGPL-2.1-or-later
"""A NAOqi-flavoured layer: the DCM and ALMemory proxies' methods with
their list shapes, ALModule and ALBroker.

A script written for NAOqi runs with its import line changed::

    # was: from naoqi import ALProxy
    from dcm.naoqi import ALProxy

    dcm = ALProxy("DCM", "nao.local", 9559)     # ip and port: not used
    mem = ALProxy("ALMemory", "nao.local", 9559)

    t = dcm.getTime(0)
    dcm.set(["HeadYaw/Hardness/Actuator/Value", "Merge", [[1.0, t]]])
    dcm.set(["HeadYaw/Position/Actuator/Value", "ClearAll",
             [[0.5, t + 1000], [0.0, t + 2000]]])
    dcm.createAlias(["Head", ["HeadYaw/Position/Actuator/Value",
                              "HeadPitch/Position/Actuator/Value"]])
    dcm.setAlias(["Head", "ClearAll", "time-separate", 0,
                  [t + 1000, t + 2000], [[0.5, 0.0], [0.2, 0.0]]])
    dcm.setAlias(["Head", "ClearAll", "time-mixed",
                  [[[0.5, t + 1000]], [[0.2, t + 500], [0.0, t + 1500]]]])
    print(mem.getData("Device/SubDeviceList/HeadYaw/Position/Sensor/Value"))
    print(mem.getDataList("HeadYaw/Position"))

DCM: set, setAlias, createAlias, getTime, getPrefix (subdevices' prefix
first, as NAOqi's), special, preferences.
ALMemory: getData, getListData, getDataList, getDataListName, insertData,
insertListData, removeData, getType, getEventList, getMicroEventList,
subscribeToEvent, subscribeToMicroEvent, unsubscribeToEvent,
unsubscribeToMicroEvent, getSubscribers; dcm's events are "DCM/Error",
"DCM/Safety", ...
(:func:`event_names`). Failures of the robot are RuntimeErrors, as NAOqi's
(and :class:`dcm.DcmError` with their errno).

Keys are taken with or without "Device/SubDeviceList/" and "/Value", as
NAOqi takes them. Times are DCM times in ms as getTime gives them (signed,
as NAOqi's; the DCM is unsigned inside: the same bits). Commands are
[value, time] or [value, time, importance].

Numbers and lists are taken as NAOqi's ALValue converts them: a float
where NAOqi takes an int (a time, getTime's offset, an importance) is cut
to its integer part, an int where it takes a float is a float, a tuple is
a list, and so is what Python 2 gave as a list (a dict's values(), map,
zip, a generator). Shapes are checked before anything is sent: a wrong type
raises TypeError,
a wrong length or an unknown update kind ValueError, each naming the
argument; an unknown key raises :class:`dcm.NoSuchKeyError` (a KeyError)
naming it. The ``parse_*`` functions are the checks alone.
"""

import errno
import functools
import inspect
import math
import numbers
import sys
import threading
import traceback
from collections import abc

from . import _args, _lib, prefs
from .core import (AliasMode, Controller, Key, PREFIX_DEV, PREFIX_ROBOT, PREFIX_SUB,
                   UpdateKind)
from .errors import DcmError, NoSuchAliasError, NoSuchKeyError
from .events import EventStream

SET_SHAPE = '[name, updateType, [[value, time], ...]]'
MIXED_SHAPE = '[alias, updateType, "time-mixed", [[[value, time], ...] per member]]'
SEPARATE_SHAPE = ('[alias, updateType, "time-separate", importance, [time, ...], '
                  '[[value per time] per member]]')
CREATE_SHAPE = '[alias, [actuator name, ...]]'

_RUNTIME = {}
_RUNTIME_LOCK = threading.Lock()


def _naoqi_error(e):
    """``e`` (a :class:`dcm.DcmError`) as an exception that is also a
    RuntimeError, which NAOqi's proxies raise: the same class otherwise
    (``except dcm.NoSuchKeyError`` and ``except RuntimeError`` both catch
    it), the same errno, message and attributes."""
    if isinstance(e, RuntimeError):
        return e
    cls = type(e)
    with _RUNTIME_LOCK:
        rc = _RUNTIME.get(cls)
        if rc is None:
            rc = type(cls.__name__, (cls, RuntimeError),
                      {"__module__": cls.__module__, "__doc__": cls.__doc__})
            _RUNTIME[cls] = rc
    new = rc(e.errno, e.message, e.function)
    new.__dict__.update(e.__dict__)
    return new


def _naoqi_errors(fn):
    """A proxy method whose libdcm failures are RuntimeErrors too."""
    @functools.wraps(fn)
    def call(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except DcmError as e:
            if isinstance(e, RuntimeError):
                raise
            raise _naoqi_error(e) from None
    return call


def _listish(x):
    """True for what a NAOqi script passes as a list: a list or a tuple, and
    what Python 2 gave as a list where Python 3 gives a view or an iterator
    (``d.values()``, ``map(...)``, ``zip(...)``, a generator)."""
    if _args.is_seq(x):
        return True
    return isinstance(x, (abc.KeysView, abc.ValuesView, abc.ItemsView, abc.Iterator)) \
        and not isinstance(x, (str, bytes, bytearray))


def _plain(x, depth=0):
    """``x`` with every list-like (:func:`_listish`) made a list, down to
    the depth of NAOqi's deepest argument (setAlias time-mixed: 4)."""
    if depth > 5 or not _listish(x) or isinstance(x, abc.Mapping):
        return x
    return [_plain(y, depth + 1) for y in x]


def _whole(x, what):
    """A number where NAOqi takes an int (a time, an offset, an importance),
    as NAOqi converts it: an int as it is, a bool as 0 or 1, a float cut
    to its integer part (C's cast: 3000.0 is 3000, 10.7 is 10, -0.5 is 0)."""
    if isinstance(x, numbers.Integral):
        return int(x)
    if isinstance(x, numbers.Real):
        v = float(x)
        if not math.isfinite(v):
            raise ValueError("%s must be a finite number, got %r" % (what, x))
        return int(v)
    raise TypeError("%s must be an int, got %s %s" %
                    (what, _args.typename(x), _args.short(x)))


def _time(x, what):
    return _args.time(_whole(x, what), what)


def _point(p, what):
    """One command as NAOqi takes it: [value, time] or [value, time,
    importance], a list or a tuple; the time and importance numbers as
    :func:`_whole` reads them."""
    if hasattr(p, "value") and hasattr(p, "time") and not _args.is_seq(p):
        return _args.point(p, what)
    if not _args.is_seq(p) or len(p) not in (2, 3):
        return _args.point(p, what)  # raises, with its message
    t = _time(p[1], what + " time")
    i = _args.importance(_whole(p[2], what + " importance"), what + " importance") \
        if len(p) == 3 else 0
    return _args.value(p[0], what + " value"), t, i


def _arglist(args, method, shape, lengths):
    args = _plain(args)
    if not _args.is_seq(args):
        raise TypeError("%s takes one list %s, got %s %s" %
                        (method, shape, _args.typename(args), _args.short(args)))
    args = list(args)
    if len(args) not in lengths:
        raise ValueError("%s takes %s: %d elements, got %d" %
                         (method, shape, lengths[0], len(args)))
    return args


def _kind(x, method):
    try:
        return UpdateKind.parse(x)
    except (TypeError, ValueError) as e:
        raise type(e)("%s: argument 1 (updateType): %s" % (method, e)) from None


def _points(ps, method, what):
    lst = _args.seq(ps, "%s: %s" % (method, what))
    if len(lst) > _lib.MAX_POINTS:
        raise ValueError("%s: %s holds %d commands, at most %d" %
                         (method, what, len(lst), _lib.MAX_POINTS))
    return [_point(p, "%s: %s[%d]" % (method, what, i)) for i, p in enumerate(lst)]


def _name(x, method, what, limit=None):
    _args.name(x, "%s: %s" % (method, what), limit)
    return x


def parse_set(args):
    """Check NAOqi's set argument; return (name, UpdateKind, [(v, t, imp), ...])."""
    a = _arglist(args, "set", SET_SHAPE, (3,))
    name = _name(a[0], "set", "argument 0 (the actuator or alias name)", _lib.KEY_NAME_LEN)
    kind = _kind(a[1], "set")
    pts = _points(a[2], "set", "argument 2 (the commands)")
    return name, kind, pts


def parse_set_alias(args):
    """Check NAOqi's setAlias argument, in either form.

    Returns ("time-mixed", alias, UpdateKind, [[(v, t, imp), ...] per member])
    or ("time-separate", alias, UpdateKind, importance, [times],
    [[values] per member]).
    """
    args = _plain(args)
    if not _args.is_seq(args):
        raise TypeError("setAlias takes one list %s or %s, got %s %s" %
                        (MIXED_SHAPE, SEPARATE_SHAPE, _args.typename(args),
                         _args.short(args)))
    a = list(args)
    if len(a) < 3:
        raise ValueError("setAlias takes %s or %s: got %d elements" %
                         (MIXED_SHAPE, SEPARATE_SHAPE, len(a)))
    alias = _name(a[0], "setAlias", "argument 0 (the alias name)", _lib.ALIAS_NAME_LEN)
    kind = _kind(a[1], "setAlias")
    try:
        mode = AliasMode.parse(a[2])
    except (TypeError, ValueError) as e:
        raise type(e)("setAlias: argument 2 (the time mode): %s" % e) from None
    if mode == AliasMode.TIME_MIXED:
        if len(a) != 4:
            raise ValueError("setAlias time-mixed takes %s: 4 elements, got %d" %
                             (MIXED_SHAPE, len(a)))
        per = _args.seq(a[3], "setAlias: argument 3 (the commands of each member)")
        if not per or len(per) > _lib.MAX_ALIAS_MEMBERS:
            raise ValueError("setAlias: argument 3 holds a list per member, 1 to %d, got %d"
                             % (_lib.MAX_ALIAS_MEMBERS, len(per)))
        members = [_points(p, "setAlias", "argument 3[%d] (member %d's commands)" % (i, i))
                   for i, p in enumerate(per)]
        return "time-mixed", alias, kind, members
    if len(a) != 6:
        raise ValueError("setAlias time-separate takes %s: 6 elements, got %d" %
                         (SEPARATE_SHAPE, len(a)))
    imp = _args.importance(_whole(a[3], "setAlias: argument 3 (importance)"),
                           "setAlias: argument 3 (importance)")
    times = _args.seq(a[4], "setAlias: argument 4 (the times)")
    if not times or len(times) > _lib.MAX_POINTS:
        raise ValueError("setAlias: argument 4 holds 1 to %d times, got %d" %
                         (_lib.MAX_POINTS, len(times)))
    times = [_time(t, "setAlias: argument 4[%d] (a time)" % i)
             for i, t in enumerate(times)]
    rows = _args.seq(a[5], "setAlias: argument 5 (the values of each member)")
    if not rows or len(rows) > _lib.MAX_ALIAS_MEMBERS:
        raise ValueError("setAlias: argument 5 holds a list per member, 1 to %d, got %d" %
                         (_lib.MAX_ALIAS_MEMBERS, len(rows)))
    values = []
    for m, row in enumerate(rows):
        row = _args.seq(row, "setAlias: argument 5[%d] (member %d's values)" % (m, m))
        if len(row) != len(times):
            raise ValueError("setAlias: argument 5[%d] (member %d) has %d values for %d "
                             "times" % (m, m, len(row), len(times)))
        values.append([_args.value(v, "setAlias: argument 5[%d][%d]" % (m, i))
                       for i, v in enumerate(row)])
    return "time-separate", alias, kind, imp, times, values


def parse_set_alias_values(alias, time, commands):  # pylint: disable=redefined-outer-name
    """Check NAOqi's setAlias(alias, time, [value per member]); return it
    as the "time-separate" form of :func:`parse_set_alias` ("ClearAll",
    importance 0, the one time, a list of one value per member)."""
    alias = _name(alias, "setAlias", "argument 0 (the alias name)", _lib.ALIAS_NAME_LEN)
    if time is None or commands is None:
        raise TypeError("setAlias takes one list, or (alias, time, [value per member])")
    t = _time(time, "setAlias: argument 1 (the time)")
    vals = _args.seq(_plain(commands), "setAlias: argument 2 (a value per member)")
    if not vals or len(vals) > _lib.MAX_ALIAS_MEMBERS:
        raise ValueError("setAlias: argument 2 holds a value per member, 1 to %d, got %d" %
                         (_lib.MAX_ALIAS_MEMBERS, len(vals)))
    values = [[_args.value(v, "setAlias: argument 2[%d]" % i)] for i, v in enumerate(vals)]
    return "time-separate", alias, UpdateKind.CLEAR_ALL, 0, [t], values


def parse_create_alias(args):
    """Check NAOqi's createAlias argument; return (alias, [member names])."""
    a = _arglist(args, "createAlias", CREATE_SHAPE, (2,))
    alias = _name(a[0], "createAlias", "argument 0 (the alias name)", _lib.ALIAS_NAME_LEN)
    members = _args.seq(a[1], "createAlias: argument 1 (the actuator names)")
    if not members or len(members) > _lib.MAX_ALIAS_MEMBERS:
        raise ValueError("createAlias: argument 1 holds 1 to %d names, got %d" %
                         (_lib.MAX_ALIAS_MEMBERS, len(members)))
    for i, m in enumerate(members):
        if not isinstance(m, str):
            raise TypeError("createAlias: argument 1[%d] must be a string, got %s %s" %
                            (i, _args.typename(m), _args.short(m)))
    return alias, members


def signed_time(t):
    """A DCM time (0..2**32-1) as NAOqi gives it: a signed 32-bit int."""
    t &= 0xffffffff
    return t - (1 << 32) if t >= (1 << 31) else t


class _Module:
    """What every NAOqi module answers (NAOqi's ALModule API), as a script
    uses it to check a proxy: ``ping``, ``version``, ``getMethodList``,
    ``getBrokerName``."""

    _METHODS = ()

    def ping(self):
        """True, as NAOqi's (the robot is this machine)."""
        return True

    def version(self):  # pylint: disable=no-self-use
        """The module's version, which is libdcm's (a string)."""
        from ._version import VERSION  # pylint: disable=import-outside-toplevel
        return VERSION

    def getMethodList(self):  # pylint: disable=invalid-name
        """The names of the NAOqi methods this proxy answers."""
        return list(self._METHODS) + ["getBrokerName", "getMethodList", "ping", "version"]

    def getBrokerName(self):  # pylint: disable=invalid-name,no-self-use
        """The broker NAOqi's module lives in: here always "dcm"."""
        return "dcm"


class DCM(_Module):
    """NAOqi's DCM proxy over a :class:`dcm.Controller`.

    ``DCM()`` opens /dev/dcm0 (``DCM(path=...)`` another), and closes it in
    :meth:`close` or at the end of a ``with`` block; ``DCM(controller)``
    uses an open controller and leaves it open.
    """

    _METHODS = ("createAlias", "getPrefix", "getTime", "preferences", "set", "setAlias",
                "special")

    def __init__(self, controller=None, path=None, etc=None, share=None):
        self._own = controller is None
        self._c = Controller(path) if controller is None else controller
        self._etc = etc
        self._share = share
        self._closed = False

    @property
    def controller(self):
        """The :class:`dcm.Controller` underneath."""
        return self._c

    @property
    def closed(self):
        """True once closed (or its controller is)."""
        return self._closed or bool(getattr(self._c, "closed", False))

    def close(self):
        """Close the controller if this proxy opened it."""
        self._closed = True
        if self._own:
            self._c.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @_naoqi_errors
    def special(self, name):
        """``special("Reset" | "Version" | "Chain" | "Diagnostic" | "Config")``.

        Runs the DCM's special command (root: else RuntimeError, a
        :class:`dcm.DcmError` ``EPERM``) and returns its answer, a
        :class:`dcm.SpecialResult` (NAOqi's returns nothing: a script that
        ignores the answer runs as before). "Version" writes each board's
        versions into its keys, as NAOqi's does.
        """
        return self._c.special(name)

    @_naoqi_errors
    def preferences(self, action, target, key="", value=0.0):
        """``preferences(action, target, key, value)``: the preference files.

        ``action`` "Save" (the running values into the target's file),
        "Load" (the description read again from the files and committed;
        root) or "Add" (``key`` set to ``value`` in the target's file, to
        apply at the next Load); ``target`` "Main", "Chest", "Head" or
        "All" (Save and Load). Save and Load ignore ``key`` and ``value``
        as NAOqi does. Returns what was done: a list of
        :class:`dcm.prefs.Saved`, a :class:`dcm.prefs.Loaded` or a
        :class:`dcm.prefs.Added`. The files are dcmd's; the proxy's
        ``etc`` and ``share`` name others.
        """
        if not isinstance(action, str):
            raise TypeError("preferences: argument 0 (action) must be a string (Save, Load or "
                            "Add), got %s %s" % (_args.typename(action), _args.short(action)))
        act = action.lower()
        idx = self._c.info().index
        if act == "save":
            return prefs.save(target, idx, self._etc, self._share)
        if act == "load":
            return prefs.load(target, idx, self._etc, self._share)
        if act == "add":
            if prefs.target_number(target) == prefs.TARGETS.index("All"):
                raise ValueError("preferences: Add takes one target (Main, Chest or Head), "
                                 "not All")
            _args.name(key, "preferences: argument 2 (key)")
            return prefs.add(target, key, value, None, idx, self._etc, self._share)
        raise ValueError("preferences: unknown action %r: Save, Load or Add" % action)

    def getPrefix(self):  # pylint: disable=invalid-name
        """``["Device/SubDeviceList/", "Device/DeviceList/"]``, in NAOqi's
        order: the subdevices' base name first ("all device/sensors"), the
        devices' second, as ``getPrefix()[0] + "HeadYaw/Position/Sensor/Min"``
        reads a subdevice's key."""
        return [PREFIX_SUB, PREFIX_DEV]

    @_naoqi_errors
    def getTime(self, offset=0):  # pylint: disable=invalid-name
        """DCM time now + ``offset`` ms, as a signed int like NAOqi's.

        ``offset`` is taken as NAOqi takes its int: an int, a bool, or a
        float cut to its integer part (``getTime(3000.)``). Pass the time
        (plus some ms) as the time of a command; compare two times by
        their difference, never by < (the clock wraps).
        """
        return signed_time(self._c.time(_args.offset(_whole(offset, "getTime: offset"),
                                                     "getTime: offset")))

    @_naoqi_errors
    def set(self, args):
        """``set([name, updateType, [[value, time(, importance)], ...]])``.

        ``name`` is an actuator (with or without prefix and /Value) or an
        alias (every member takes the commands). ``updateType`` is
        "ClearAll", "Merge", "ClearAfter" or "ClearBefore". An empty list
        with "ClearAll" drops the queued commands.
        """
        name, kind, pts = parse_set(args)
        try:
            key = self._c.key(name)
        except NoSuchKeyError as e:
            try:
                self._c.set_alias_all(name, pts, kind)
                return
            except NoSuchAliasError:
                raise NoSuchKeyError(e.errno, "set: %s: no such actuator or alias" % name,
                                     "dcm_lookup", key=name) from None
        if not key.actuator:
            raise ValueError("set: %s is not an actuator: it takes no commands" % name)
        self._c.set_timed(key, pts, kind)

    @_naoqi_errors
    def setAlias(self, args, time=None, commands=None):  # pylint: disable=invalid-name,redefined-outer-name
        """Commands to the members of an alias, in NAOqi's two forms.

        ``setAlias(alias, time, [value per member])``: NAOqi's third form,
        one command to each member at one time, "ClearAll".

        ``setAlias([alias, updateType, "time-mixed", [[[value, time], ...]
        per member]])``: each member its own commands.

        ``setAlias([alias, updateType, "time-separate", importance, [time,
        ...], [[value per time] per member]])``: one list of times.

        One entry per member, blank members (names createAlias did not
        find) included. Either every member takes its commands, or none.
        """
        if time is not None or commands is not None:
            p = parse_set_alias_values(args, time, commands)
        else:
            p = parse_set_alias(args)
        if p[0] == "time-mixed":
            _, alias, kind, members = p
            self._c.set_alias_mixed(alias, members, kind)
        else:
            _, alias, kind, imp, times, values = p
            self._c.set_alias_separate(alias, times, values, kind, imp)

    @_naoqi_errors
    def createAlias(self, args):  # pylint: disable=invalid-name
        """``createAlias([alias, [actuator, ...]])``: name a list of actuators.

        Returns ``[alias, [names]]`` with each name that is no actuator
        replaced by "" (it stays in the alias as a blank member).
        """
        alias, members = parse_create_alias(args)
        keys = self._c.create_alias(alias, members)
        return [alias, [m if k is not None else "" for m, k in zip(members, keys)]]


# ---- ALMemory -----------------------------------------------------------

# The user keys of insertData, and the last value of each event: one store
# per process, as NAOqi's ALMemory is one per robot (see ALMemory).
_store_lock = threading.Lock()
_store = {}

#: The ALMemory events that are dcm's: one per event type of the netlink
#: group "events" ("DCM/Safety" for type "safety", ...).
EVENT_PREFIX = "DCM/"


def event_names():
    """The names of dcm's events as ALMemory events: "DCM/Error", "DCM/Nack",
    ..., "DCM/Special", "DCM/Fall" (one per libdcm event type)."""
    lib = _lib.lib()
    out = []
    for t in range(1, 64):
        n = lib.dcm_event_type_name(t)
        if n:
            out.append(EVENT_PREFIX + _lib.text(n).capitalize())
    return out


def _event_type(name):
    """The libdcm type name of an ALMemory event name, or None."""
    if not isinstance(name, str) or not name.startswith(EVENT_PREFIX):
        return None
    t = name[len(EVENT_PREFIX):]
    return t.lower() if name in event_names() else None


def _not_found(method, key):
    return _naoqi_error(NoSuchKeyError(errno.ENOENT, "ALMemory::%s\n\tData not found %s" %
                                       (method, key), "ALMemory." + method, key=key))


def _user_key(key):
    """A key that is no key of the DCM's tree: none under Device/ or RobotConfig/."""
    return not key.startswith(("Device/", PREFIX_ROBOT))


class _Subscription:
    __slots__ = ("event", "module", "callback", "nargs", "message")

    def __init__(self, event, module, callback, message=None):
        self.event = event
        self.module = module
        self.callback = callback
        self.nargs = _arg_count(callback)
        # the third argument of a call: the message of NAOqi's deprecated
        # four-argument subscription, else the module's name
        self.message = message if message is not None else (module or "")


def _arg_count(fn):
    """How many of (key, value, message) a callback takes, as NAOqi's Python
    bridge calls a module's method with as many as it declares."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return 3
    n = 0
    for p in sig.parameters.values():
        if p.kind == p.VAR_POSITIONAL:
            return 3
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            n += 1
    return min(n, 3)


class _Dispatcher:
    """The thread that reads dcm's events and calls the subscribers, as
    NAOqi calls them from its own threads."""

    def __init__(self, stream, memory):
        self._memory = memory
        self._stop = threading.Event()
        self._stream = stream
        self.thread = threading.Thread(target=self._run, name="dcm.naoqi events", daemon=True)
        self.thread.start()

    def _run(self):
        try:
            while not self._stop.is_set():
                for e in self._stream.read(timeout=0.1):
                    self._deliver(e)
        finally:
            self._stream.close()

    def _deliver(self, e):
        name = EVENT_PREFIX + e.type_name.capitalize()
        with _store_lock:
            _store[name] = e
        with self._memory._lock:  # pylint: disable=protected-access
            subs = [x for x in self._memory._subs if x.event == name]  # pylint: disable=protected-access
        for x in subs:
            args = (name, e, x.message)[:x.nargs]
            try:
                x.callback(*args)
            except Exception:  # pylint: disable=broad-except
                # NAOqi logs a failing callback and goes on
                sys.stderr.write("dcm.naoqi: %s's callback for %s raised:\n%s" %
                                 (x.module or getattr(x.callback, "__name__", "a callback"),
                                  name, traceback.format_exc()))

    def stop(self):
        self._stop.set()
        if threading.current_thread() is not self.thread:
            self.thread.join(2)


class ALMemory(_Module):
    """The part of NAOqi's ALMemory a DCM script uses: the keys' values,
    the list of keys, user keys and dcm's events.

    ``getData(key)`` reads a subdevice's Value through /dev/dcmN (one
    cycle, no text); any other key of the tree ("Device/DeviceList/...",
    "RobotConfig/...", a subdevice's "Min") through sysfs, as a number when
    it reads as one. ``insertData`` writes a configuration key of the tree
    (root; the kernel checks it), refuses a subdevice's Value (a command
    is ``DCM.set``), and keeps any other key in this process's store.
    ``subscribeToEvent`` calls a module's method, or a callable, for each
    of dcm's events of a type ("DCM/Safety", :func:`event_names`).
    """

    _METHODS = ("getData", "getDataList", "getDataListName", "getEventList", "getListData",
                "getMicroEventList", "getSubscribers", "getType", "insertData",
                "insertListData", "removeData", "subscribeToEvent", "subscribeToMicroEvent",
                "unsubscribeToEvent", "unsubscribeToMicroEvent")

    def __init__(self, controller=None, path=None):
        self._own = controller is None
        self._c = Controller(path) if controller is None else controller
        self._subs = []
        self._lock = threading.Lock()
        self._dispatcher = None
        # what subscribeToEvent reads: the controller's events (netlink)
        self._events = lambda index: EventStream(index=index)
        self._closed = False

    @property
    def controller(self):
        """The :class:`dcm.Controller` underneath."""
        return self._c

    @property
    def closed(self):
        """True once closed (or its controller is)."""
        return self._closed or bool(getattr(self._c, "closed", False))

    def close(self):
        """Stop the event thread; close the controller if this proxy opened it."""
        self._closed = True
        with self._lock:
            self._subs = []
            d, self._dispatcher = self._dispatcher, None
        if d is not None:
            d.stop()
        if self._own:
            self._c.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @staticmethod
    def _is_value(key):
        k = key[len(PREFIX_SUB):] if key.startswith(PREFIX_SUB) else key
        return k.endswith("/Value") and not k.startswith(("Device/", "RobotConfig/"))

    def _text(self, key):
        t = self._c.read_text(key)
        for conv in (int, float):
            try:
                return conv(t)
            except ValueError:
                pass
        return t

    def _get(self, key, method):
        with _store_lock:
            if key in _store:
                return _store[key]
        try:
            if self._is_value(key):
                return self._c.get(key)
            return self._text(key)
        except NoSuchKeyError:
            raise _not_found(method, key) from None
        except ValueError:
            # not a key path at all ("a//b"): no such data either
            raise _not_found(method, key) from None

    @_naoqi_errors
    def getData(self, key, deprecatedParameter=None):  # pylint: disable=invalid-name,unused-argument
        """The value of one key (a float for a subdevice Value).

        A key that is neither in the tree nor inserted raises RuntimeError
        (a :class:`dcm.NoSuchKeyError` too) "ALMemory::getData\\n\\tData not
        found KEY", as NAOqi does. NAOqi's second argument (deprecated,
        without effect) is taken and not used.
        """
        if isinstance(key, Key):
            return self._c.get(key)
        _args.name(key, "getData: the key")
        return self._get(key, "getData")

    @_naoqi_errors
    def getListData(self, keys):  # pylint: disable=invalid-name
        """The values of several keys; subdevice Values all of one cycle."""
        keys = _args.seq(_plain(keys), "getListData: the keys")
        for i, k in enumerate(keys):
            if not isinstance(k, (str, Key)):
                raise TypeError("getListData: the keys[%d] must be a string, got %s %s" %
                                (i, _args.typename(k), _args.short(k)))
        with _store_lock:
            stored = set(k for k in keys if isinstance(k, str) and k in _store)
        vals = [k for k in keys if isinstance(k, str) and k not in stored and self._is_value(k)]
        try:
            got = dict(zip(vals, self._c.get_many(vals))) if vals else {}
        except NoSuchKeyError as e:
            raise _not_found("getListData", e.key) from None
        out = []
        for k in keys:
            if isinstance(k, Key):
                out.append(self._c.get(k))
            elif k in got:
                out.append(got[k])
            else:
                out.append(self._get(k, "getListData"))
        return out

    @_naoqi_errors
    def getDataListName(self):  # pylint: disable=invalid-name
        """Every key's name: the tree's (full names, sorted), then the
        inserted keys and the events that came (sorted)."""
        with _store_lock:
            user = sorted(_store)
        return self._c.keys() + user

    @_naoqi_errors
    def getDataList(self, filter):  # pylint: disable=invalid-name,redefined-builtin
        """The names of the keys that contain ``filter`` (NAOqi's: a plain
        substring, case counts): ``getDataList("HeadYaw/Position")``."""
        if not isinstance(filter, str):
            raise TypeError("getDataList: the filter must be a string, got %s %s" %
                            (_args.typename(filter), _args.short(filter)))
        return [k for k in self.getDataListName() if filter in k]

    @_naoqi_errors
    def insertData(self, key, value):  # pylint: disable=invalid-name
        """Store a value under a key.

        A key of the DCM's tree: a configuration key ("Device/SubDeviceList/
        HeadYaw/Position/Actuator/Kp") is written to the kernel, which
        checks it (root; not kept across a reload: DCM.preferences "Add"
        does that); a subdevice's Value is refused with ValueError (an
        actuator takes commands through DCM.set, a sensor is the DCM's); a
        read-only key is refused by the kernel. Any other key ("MyApp/Speed")
        is kept in this process's store, read back by getData and listed by
        getDataList; other processes do not see it.
        """
        _args.name(key, "insertData: the key", _lib.KEY_NAME_LEN * 2)
        if not _user_key(key) or self._tree_key(key):
            if self._is_value(key) or key.endswith("/Value"):
                raise ValueError("insertData: %s is a value of the DCM: command an actuator "
                                 "with DCM.set, a sensor's value is the robot's" % key)
            self._c.write_text(key, value)
            return
        if _event_type(key) is not None:
            raise ValueError("insertData: %s is one of dcm's events, not a key to write" % key)
        with _store_lock:
            _store[key] = value

    @_naoqi_errors
    def insertListData(self, pairs):  # pylint: disable=invalid-name
        """``insertListData([[key, value], ...])``: insertData of each pair,
        in order (a pair is a list or a tuple of two)."""
        pairs = _args.seq(_plain(pairs), "insertListData: the list")
        for i, kv in enumerate(pairs):
            if not _args.is_seq(kv) or len(kv) != 2:
                raise ValueError("insertListData: element %d must be [key, value], got %s" %
                                 (i, _args.short(kv)))
        for key, value in pairs:
            self.insertData(key, value)

    @_naoqi_errors
    def getType(self, key):  # pylint: disable=invalid-name
        """"Event" for one of dcm's events, "Data" for a key of the tree or
        of the store; another name raises NAOqi's not-found RuntimeError."""
        _args.name(key, "getType: the key")
        if _event_type(key) is not None:
            return "Event"
        with _store_lock:
            if key in _store:
                return "Data"
        if self._tree_key(key):
            return "Data"
        raise _not_found("getType", key)

    def getMicroEventList(self):  # pylint: disable=invalid-name,no-self-use
        """dcm's events are events, none a micro event: []."""
        return []

    def _tree_key(self, key):
        try:
            self._c.key_flags(key)
            return True
        except (NoSuchKeyError, ValueError):
            return False

    @_naoqi_errors
    def removeData(self, key):  # pylint: disable=invalid-name
        """Remove a key insertData stored; keys of the DCM's tree stay."""
        _args.name(key, "removeData: the key")
        if _event_type(key) is not None:
            raise ValueError("removeData: %s is one of dcm's events: it is not removed" % key)
        with _store_lock:
            if key in _store:
                del _store[key]
                return
        if not _user_key(key) or self._tree_key(key):
            raise ValueError("removeData: %s is a key of the DCM's tree: it is not removed" % key)
        raise _not_found("removeData", key)

    def getEventList(self):  # pylint: disable=invalid-name
        """The events there are to subscribe to: dcm's, :func:`event_names`."""
        return event_names()

    @_naoqi_errors
    def subscribeToMicroEvent(self, name, module, message, method):  # pylint: disable=invalid-name
        """NAOqi's micro events: ``subscribeToEvent(name, module, message,
        method)`` (dcm's events are the same to a subscriber)."""
        return self.subscribeToEvent(name, module, message, method)

    def unsubscribeToMicroEvent(self, name, module):  # pylint: disable=invalid-name
        """``unsubscribeToEvent(name, module)``."""
        return self.unsubscribeToEvent(name, module)

    @_naoqi_errors
    def subscribeToEvent(self, name, module, method=None, callback=None):  # pylint: disable=invalid-name
        """Call back on each of dcm's events of a type.

        NAOqi's deprecated form ``subscribeToEvent(name, module, message,
        method)`` is taken too: the method is then called with the message
        as its third argument, where the three-argument form gives the
        module's name.

        ``subscribeToEvent("DCM/Safety", "MyModule", "onSafety")``: the
        method ``onSafety`` of the :class:`ALModule` named "MyModule";
        ``subscribeToEvent("DCM/Safety", callable)``: a function. It is
        called from this proxy's event thread with (name, value, module
        name) or as many of them as it takes, the value a
        :class:`dcm.Event`. A module subscribes once per event: again
        replaces its method.
        """
        if _event_type(name) is None:
            if not isinstance(name, str):
                raise TypeError("subscribeToEvent: the event name must be a string, got %s %s"
                                % (_args.typename(name), _args.short(name)))
            raise RuntimeError("ALMemory::subscribeToEvent\n\tEvent not found %s: dcm's "
                               "events are %s" % (name, ", ".join(event_names())))
        message = None
        if callback is not None:
            message, method = method, callback
            if not isinstance(message, str):
                raise TypeError("subscribeToEvent: the message must be a string, got %s %s" %
                                (_args.typename(message), _args.short(message)))
        if callable(module) and method is None:
            sub = _Subscription(name, None, module)
        else:
            if not isinstance(module, str) or not isinstance(method, str):
                raise TypeError("subscribeToEvent takes (name, module name, method name) or "
                                "(name, callable)")
            with _modules_lock:
                mod = _modules.get(module)
            if mod is None:
                raise RuntimeError("ALMemory::subscribeToEvent\n\tModule %s not found: create "
                                   "an ALModule of that name first" % module)
            fn = getattr(mod, method, None)
            if not callable(fn):
                raise RuntimeError("ALMemory::subscribeToEvent\n\tModule %s has no method %s" %
                                   (module, method))
            sub = _Subscription(name, module, fn, message)
        with self._lock:
            self._subs = [x for x in self._subs
                          if not (x.event == name and _same(x, module))] + [sub]
            if self._dispatcher is None:
                self._dispatcher = _Dispatcher(self._events(self._c.info().index), self)

    @_naoqi_errors
    def unsubscribeToEvent(self, name, module):  # pylint: disable=invalid-name
        """Stop calling back a module (by name) or a callable on an event.

        One that was not subscribed raises RuntimeError.
        """
        with self._lock:
            keep = [x for x in self._subs if not (x.event == name and _same(x, module))]
            if len(keep) == len(self._subs):
                raise RuntimeError("ALMemory::unsubscribeToEvent\n\t%s is not subscribed to %s"
                                   % (module if isinstance(module, str) else
                                      getattr(module, "__name__", repr(module)), name))
            self._subs = keep
            d = None
            if not keep:
                d, self._dispatcher = self._dispatcher, None
        if d is not None:
            d.stop()

    def getSubscribers(self, name):  # pylint: disable=invalid-name
        """The module names (or callables' names) subscribed to an event."""
        with self._lock:
            return [x.module or getattr(x.callback, "__name__", repr(x.callback))
                    for x in self._subs if x.event == name]


def _same(sub, module):
    if isinstance(module, str):
        return sub.module == module
    return sub.module is None and sub.callback == module


# ---- modules and brokers ------------------------------------------------

_modules_lock = threading.Lock()
_modules = {}


class ALBroker:
    """NAOqi's ALBroker, for scripts that make one to host their modules.

    Its arguments are taken and not used: the modules of a script live in
    its own process, the robot is this machine's /dev/dcm0.
    """

    def __init__(self, name="", ip="", port=0, parent_ip="", parent_port=0):  # pylint: disable=too-many-arguments
        self.name = name
        self.ip = ip
        self.port = port
        self.parent_ip = parent_ip
        self.parent_port = parent_port

    def shutdown(self):
        """Forget every module (as NAOqi's broker ends them)."""
        with _modules_lock:
            _modules.clear()

    def getName(self):  # pylint: disable=invalid-name
        """The broker's name."""
        return self.name


class ALModule:
    """NAOqi's ALModule: an object that callbacks reach by name.

    ``ALModule.__init__(self, "Greeter")`` registers it; then
    ``memory.subscribeToEvent("DCM/Safety", "Greeter", "onSafety")`` calls
    its method ``onSafety``. A second module of the same name replaces the
    first.
    """

    def __init__(self, name):
        if not isinstance(name, str) or not name:
            raise TypeError("ALModule takes its name, a non-empty string, got %s %s" %
                            (_args.typename(name), _args.short(name)))
        self._name = name
        with _modules_lock:
            _modules[name] = self

    def getName(self):  # pylint: disable=invalid-name
        """The module's name."""
        return self._name

    def exit(self):
        """Unregister the module: callbacks by its name are no longer found."""
        with _modules_lock:
            if _modules.get(self._name) is self:
                del _modules[self._name]


class ProxyError(RuntimeError, ValueError):
    """ALProxy of a module that is not here: NAOqi's RuntimeError, and a
    ValueError (an argument of the wrong value)."""


_proxies_lock = threading.Lock()
_proxies = {}


def ALProxy(name, ip=None, port=None):  # pylint: disable=invalid-name,unused-argument
    """NAOqi's ALProxy for "DCM" (or "ALDCM") and "ALMemory".

    ``ip`` and ``port`` are accepted and ignored: the robot is this
    machine's /dev/dcm0. As NAOqi has one DCM and one ALMemory, a process
    has one proxy of each: every ALProxy("DCM") gives the same
    :class:`DCM` (one open /dev/dcm0: an alias one created is found through
    the others) until it is closed. Another module raises
    :class:`ProxyError`, a RuntimeError as NAOqi's.
    """
    if name in ("DCM", "ALDCM"):
        cls = DCM
    elif name == "ALMemory":
        cls = ALMemory
    else:
        cls = None
    if cls is not None:
        with _proxies_lock:
            p = _proxies.get(cls)
            if p is None or p.closed:
                p = cls()
                _proxies[cls] = p
            return p
    raise ProxyError("ALProxy::ALProxy\n\tCan't find service: %r is not provided here "
                     "(DCM, ALDCM, ALMemory)" % (name,))
