# SPDX-License-Identifier: LGPL-2.1-or-later
"""A NAOqi-flavoured layer: the DCM proxy's methods with its list shapes.

A script written for NAOqi's DCM proxy ports by changing how it gets the
proxy::

    # NAOqi:  dcm = ALProxy("DCM", "nao.local", 9559)
    from dcm.naoqi import ALProxy
    dcm = ALProxy("DCM")
    mem = ALProxy("ALMemory")

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

Keys are taken with or without "Device/SubDeviceList/" and "/Value", as
NAOqi takes them. Times are DCM times in ms as getTime gives them (signed,
as NAOqi's; the DCM is unsigned inside: the same bits). Commands are
[value, time] or [value, time, importance].

Shapes are checked before anything is sent: a wrong type raises TypeError,
a wrong length or an unknown update kind ValueError, each naming the
argument; an unknown key raises :class:`dcm.NoSuchKeyError` (a KeyError)
naming it. The ``parse_*`` functions are the checks alone.
"""

from . import _args, _lib
from .core import (AliasMode, Controller, Key, PREFIX_DEV, PREFIX_SUB,
                   UpdateKind)
from .errors import NoSuchAliasError, NoSuchKeyError

SET_SHAPE = '[name, updateType, [[value, time], ...]]'
MIXED_SHAPE = '[alias, updateType, "time-mixed", [[[value, time], ...] per member]]'
SEPARATE_SHAPE = ('[alias, updateType, "time-separate", importance, [time, ...], '
                  '[[value per time] per member]]')
CREATE_SHAPE = '[alias, [actuator name, ...]]'


def _arglist(args, method, shape, lengths):
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
    return [_args.point(p, "%s: %s[%d]" % (method, what, i)) for i, p in enumerate(lst)]


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
    imp = _args.importance(a[3], "setAlias: argument 3 (importance)")
    times = _args.seq(a[4], "setAlias: argument 4 (the times)")
    if not times or len(times) > _lib.MAX_POINTS:
        raise ValueError("setAlias: argument 4 holds 1 to %d times, got %d" %
                         (_lib.MAX_POINTS, len(times)))
    times = [_args.time(t, "setAlias: argument 4[%d] (a time)" % i)
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


class DCM:
    """NAOqi's DCM proxy over a :class:`dcm.Controller`.

    ``DCM()`` opens /dev/dcm0 (``DCM(path=...)`` another), and closes it in
    :meth:`close` or at the end of a ``with`` block; ``DCM(controller)``
    uses an open controller and leaves it open.
    """

    def __init__(self, controller=None, path=None):
        self._own = controller is None
        self._c = Controller(path) if controller is None else controller

    @property
    def controller(self):
        """The :class:`dcm.Controller` underneath."""
        return self._c

    def close(self):
        """Close the controller if this proxy opened it."""
        if self._own:
            self._c.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def getPrefix(self):  # pylint: disable=invalid-name
        """["Device/DeviceList/", "Device/SubDeviceList/"]: the key prefixes."""
        return [PREFIX_DEV, PREFIX_SUB]

    def getTime(self, offset=0):  # pylint: disable=invalid-name
        """DCM time now + ``offset`` ms, as a signed int like NAOqi's.

        Pass it (plus some ms) as the time of a command; compare two times
        by their difference, never by < (the clock wraps).
        """
        return signed_time(self._c.time(_args.offset(offset, "getTime: offset")))

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

    def setAlias(self, args):  # pylint: disable=invalid-name
        """Commands to the members of an alias, in NAOqi's two forms.

        ``setAlias([alias, updateType, "time-mixed", [[[value, time], ...]
        per member]])``: each member its own commands.

        ``setAlias([alias, updateType, "time-separate", importance, [time,
        ...], [[value per time] per member]])``: one list of times.

        One entry per member, blank members (names createAlias did not
        find) included. Either every member takes its commands, or none.
        """
        p = parse_set_alias(args)
        if p[0] == "time-mixed":
            _, alias, kind, members = p
            self._c.set_alias_mixed(alias, members, kind)
        else:
            _, alias, kind, imp, times, values = p
            self._c.set_alias_separate(alias, times, values, kind, imp)

    def createAlias(self, args):  # pylint: disable=invalid-name
        """``createAlias([alias, [actuator, ...]])``: name a list of actuators.

        Returns ``[alias, [names]]`` with each name that is no actuator
        replaced by "" (it stays in the alias as a blank member).
        """
        alias, members = parse_create_alias(args)
        keys = self._c.create_alias(alias, members)
        return [alias, [m if k is not None else "" for m, k in zip(members, keys)]]


class ALMemory:
    """The part of NAOqi's ALMemory a DCM script uses: the keys' values.

    ``getData(key)`` reads a subdevice's Value through /dev/dcmN (one
    cycle, no text); any other key of the tree ("Device/DeviceList/...",
    "RobotConfig/...", a subdevice's "Min") through sysfs, as a number when
    it reads as one.
    """

    def __init__(self, controller=None, path=None):
        self._own = controller is None
        self._c = Controller(path) if controller is None else controller

    @property
    def controller(self):
        """The :class:`dcm.Controller` underneath."""
        return self._c

    def close(self):
        """Close the controller if this proxy opened it."""
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

    def getData(self, key):  # pylint: disable=invalid-name
        """The value of one key (a float for a subdevice Value)."""
        if isinstance(key, Key):
            return self._c.get(key)
        _args.name(key, "getData: the key")
        if self._is_value(key):
            return self._c.get(key)
        return self._text(key)

    def getListData(self, keys):  # pylint: disable=invalid-name
        """The values of several keys; subdevice Values all of one cycle."""
        keys = _args.seq(keys, "getListData: the keys")
        vals = [k for k in keys if isinstance(k, str) and self._is_value(k)]
        got = dict(zip(vals, self._c.get_many(vals))) if vals else {}
        return [got[k] if k in got else self.getData(k) for k in keys]


def ALProxy(name, ip=None, port=None):  # pylint: disable=invalid-name,unused-argument
    """NAOqi's ALProxy for "DCM" (or "ALDCM") and "ALMemory".

    ``ip`` and ``port`` are accepted and ignored: the robot is this
    machine's /dev/dcm0.
    """
    if name in ("DCM", "ALDCM"):
        return DCM()
    if name == "ALMemory":
        return ALMemory()
    raise ValueError("ALProxy: %r is not provided here (DCM, ALDCM, ALMemory)" % name)
