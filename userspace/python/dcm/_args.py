# SPDX-License-Identifier: LGPL-2.1-or-later
"""Checks and conversions of the arguments, shared by the module's layers.

Each function takes what the caller gave and a short description of it for
the message (``what``), and returns the C-ready value or raises TypeError
(the wrong kind of object) or ValueError (the right kind, a wrong value).
Nothing here calls the kernel.
"""

import math
import numbers
from collections.abc import Sequence

from . import _lib

TIME_MIN = -(1 << 31)
TIME_MAX = (1 << 32) - 1


def typename(x):
    """The type of ``x`` for a message: "int", "NoneType", ..."""
    return type(x).__name__


def is_seq(x):
    """True for a list-like argument (a sequence that is not text)."""
    return isinstance(x, Sequence) and not isinstance(x, (str, bytes, bytearray))


def seq(x, what):
    """``x`` as a list, or TypeError if it is not a list-like sequence."""
    if not is_seq(x):
        raise TypeError("%s must be a list, got %s %s" % (what, typename(x), short(x)))
    return list(x)


def short(x):
    """repr(x), cut at 60 characters."""
    r = repr(x)
    return r if len(r) <= 60 else r[:57] + "..."


def name(x, what, limit=None):
    """A non-empty name as UTF-8 bytes (limit: bytes allowed with the NUL)."""
    if isinstance(x, bytes):
        b = x
    elif isinstance(x, str):
        b = x.encode("utf-8")
    else:
        raise TypeError("%s must be a string, got %s %s" % (what, typename(x), short(x)))
    if not b:
        raise ValueError("%s is empty" % what)
    if b"\0" in b:
        raise ValueError("%s %r holds a NUL character" % (what, x))
    if limit is not None and len(b) >= limit:
        raise ValueError("%s %s is %d bytes long, at most %d" % (what, short(x), len(b), limit - 1))
    return b


def value(x, what):
    """A finite real number as float (True and False are 1.0 and 0.0)."""
    if not isinstance(x, numbers.Real):
        raise TypeError("%s must be a number, got %s %s" % (what, typename(x), short(x)))
    v = float(x)
    if not math.isfinite(v):
        raise ValueError("%s must be finite, got %r" % (what, x))
    return v


def time(x, what):
    """A DCM time (ms) as an unsigned 32-bit int.

    Accepts an int (or a float with no fraction) from -2**31 to 2**32 - 1:
    NAOqi's times are signed, the DCM's unsigned, the same bits ("just
    cast").
    """
    if isinstance(x, bool):
        raise TypeError("%s must be an int (DCM time in ms), got bool" % what)
    if isinstance(x, numbers.Integral):
        t = int(x)
    elif isinstance(x, numbers.Real) and math.isfinite(float(x)) and float(x).is_integer():
        t = int(x)
    elif isinstance(x, numbers.Real):
        raise ValueError("%s must be a whole number of ms, got %r" % (what, x))
    else:
        raise TypeError("%s must be an int (DCM time in ms), got %s %s" %
                        (what, typename(x), short(x)))
    if t < TIME_MIN or t > TIME_MAX:
        raise ValueError("%s %d is out of the 32-bit DCM time" % (what, t))
    return t & 0xffffffff


def integer(x, what, lo, hi):
    """An int from lo to hi."""
    if isinstance(x, bool) or not isinstance(x, numbers.Integral):
        raise TypeError("%s must be an int, got %s %s" % (what, typename(x), short(x)))
    if not lo <= int(x) <= hi:
        raise ValueError("%s %d is out of %d..%d" % (what, int(x), lo, hi))
    return int(x)


def offset(x, what="offset"):
    """A signed 32-bit millisecond offset."""
    return integer(x, what, -(1 << 31), (1 << 31) - 1)


def importance(x, what="importance"):
    """A command's importance, 0..7."""
    return integer(x, what, 0, _lib.MAX_IMPORTANCE)


def point(p, what):
    """One timed command, [value, time] or [value, time, importance], as a tuple."""
    if hasattr(p, "value") and hasattr(p, "time") and not is_seq(p):
        items = [p.value, p.time, getattr(p, "importance", 0)]
    else:
        if not is_seq(p):
            raise TypeError("%s must be a list [value, time] or [value, time, importance], "
                            "got %s %s" % (what, typename(p), short(p)))
        items = list(p)
    if len(items) not in (2, 3):
        raise ValueError("%s must be [value, time] or [value, time, importance], "
                         "got %d elements: %s" % (what, len(items), short(p)))
    v = value(items[0], what + " value")
    t = time(items[1], what + " time")
    i = importance(items[2], what + " importance") if len(items) == 3 else 0
    return v, t, i


def points(ps, what, allow_empty=True):
    """A list of timed commands as a ctypes array of struct dcm_timed_point."""
    lst = seq(ps, what)
    if not lst and not allow_empty:
        raise ValueError("%s is empty" % what)
    if len(lst) > _lib.MAX_POINTS:
        raise ValueError("%s has %d commands, at most %d" % (what, len(lst), _lib.MAX_POINTS))
    arr = (_lib.TimedPoint * max(len(lst), 1))()
    for i, p in enumerate(lst):
        v, t, imp = point(p, "%s[%d]" % (what, i))
        arr[i].value = v
        arr[i].time = t
        arr[i].importance = imp
    return arr, len(lst)
