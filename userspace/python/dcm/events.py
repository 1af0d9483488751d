# SPDX-License-Identifier: LGPL-2.1-or-later
"""The controllers' events: the multicast group "events" of the netlink
family dcm, as libdcm receives and parses them.

Errors of boards, Nack bursts and Acks, safety rules acting, temperature
status, battery status bits, cycle overruns, descriptions committed,
calibrations, watchdogs fired and special commands: each one an
:class:`Event`. Listening needs no privilege::

    with dcm.events(types=["safety", "watchdog"]) as ev:
        for e in ev:
            print(e)     # "dcm0 12345 safety cycle-fault on: ..."
"""

import ctypes
import errno as _errno
import select
import time as _time
from collections import namedtuple

from . import _args, _lib
from .errors import check

_Event = namedtuple("Event", "index type type_name time level code count lost value "
                    "device text rule")


class Event(_Event):
    """One event.

    Attributes:
        index: the controller (N of dcmN).
        type: its type number (enum dcm_event_type).
        type_name: "error", "nack", "ack", "safety", "temperature",
            "battery", "overrun", "config", "calibration", "watchdog",
            "special", "fall".
        time: DCM time (ms).
        level: error level 1..7 (error events).
        code, count, value: as the type says (Documentation/userspace-api/dcm.rst).
        lost: events the kernel dropped just before this one.
        device: the device or subdevice, or "".
        text: the kernel's words, or "".
        rule: for safety events, the rule: "cycle-fault",
            "battery-current", "calibration", "brake"; else None.

    ``str(event)`` is libdcm's line, as ``dcmctl events`` prints it.
    """
    __slots__ = ()

    def __str__(self):
        m = _lib.EventMsg()
        m.index, m.type, m.time_ms, m.level = self.index, self.type, self.time, self.level
        m.code, m.count, m.lost, m.value = self.code, self.count, self.lost, self.value
        m.device = self.device.encode("utf-8")[:_lib.KEY_NAME_LEN - 1]
        m.text = self.text.encode("utf-8")[:_lib.EVENT_TEXT_LEN - 1]
        buf = ctypes.create_string_buffer(512)
        _lib.lib().dcm_event_format(ctypes.byref(m), buf, len(buf))
        return _lib.text(buf.value)


def _event(m):
    lib = _lib.lib()
    tn = _lib.text(lib.dcm_event_type_name(m.type))
    rule = _lib.text(lib.dcm_safety_rule_name(m.code)) if tn == "safety" else None
    return Event(m.index, m.type, tn, m.time_ms, m.level, m.code, m.count, m.lost, m.value,
                 _lib.text(m.device), _lib.text(m.text), rule)


def type_number(name):
    """The number of an event type name ("safety" -> 4); ValueError if unknown."""
    b = _args.name(name, "the event type")
    n = _lib.lib().dcm_event_type_parse(b)
    if n < 0:
        raise ValueError("unknown event type %r" % name)
    return n


class EventStream(_lib.Closing):
    """A subscription to the events (a context manager and an iterator).

    ``types``: names or numbers of the types to keep (None: all);
    ``index``: the controller to keep (None: all). Iterating waits for
    events for ever; :meth:`read` waits at most a timeout. When the socket
    overran and the kernel's events were lost, ``overruns`` counts it and
    reading goes on.
    """

    def __init__(self, types=None, index=None):
        lib = _lib.lib()
        self._types = None
        if types is not None:
            self._types = set()
            for t in _args.seq(types, "types"):
                self._types.add(type_number(t) if isinstance(t, str) else
                                _args.integer(t, "event type", 1, 255))
        self._index = None if index is None else _args.integer(index, "index", 0, 0xffff)
        self.overruns = 0
        self._pending = []
        self._nl = None
        nl = ctypes.c_void_p()
        check(lib.dcm_nl_open(ctypes.byref(nl)), "dcm_nl_open")
        self._nl = nl
        try:
            check(lib.dcm_nl_subscribe_events(nl), "dcm_nl_subscribe_events")
        except BaseException:
            self.close()
            raise
        self._cb = _lib.EVENT_CB(self._on_message)

    def _on_message(self, ev_p, _arg):
        try:
            m = _lib.EventMsg()
            if _lib.lib().dcm_nl_parse_event(ev_p.contents.nlh, ctypes.byref(m)) == 0:
                e = _event(m)
                if (self._types is None or e.type in self._types) and \
                        (self._index is None or e.index == self._index):
                    self._pending.append(e)
        except Exception:  # pylint: disable=broad-except
            pass  # never raise through C; a message that does not parse is skipped
        return 0

    def close(self):
        """Leave the group and close the socket; closing twice is fine."""
        if self._nl is not None:
            _lib.lib().dcm_nl_close(self._nl)
            self._nl = None

    def fileno(self):
        """The event socket's descriptor, for select/poll."""
        if self._nl is None:
            raise ValueError("the event stream is closed")
        return check(_lib.lib().dcm_nl_event_fd(self._nl), "dcm_nl_event_fd")

    def _drain(self):
        ret = _lib.lib().dcm_nl_recv(self._nl, self._cb, None)
        if ret == -_errno.ENOBUFS:
            self.overruns += 1
            return
        check(ret, "dcm_nl_recv")

    def read(self, timeout=None):
        """The events that came (a list), waiting up to ``timeout`` s for one.

        Returns [] at the timeout; ``timeout`` None waits for ever, 0 does
        not wait.
        """
        fd = self.fileno()
        end = None if timeout is None else _time.monotonic() + timeout
        while True:
            self._drain()
            if self._pending:
                out, self._pending = self._pending, []
                return out
            left = None if end is None else end - _time.monotonic()
            if left is not None and left <= 0:
                return []
            p = select.poll()
            p.register(fd, select.POLLIN)
            p.poll(None if left is None else max(1, int(left * 1000)))

    def __iter__(self):
        while True:
            for e in self.read(None):
                yield e


def events(types=None, index=None):
    """Subscribe to the events: an :class:`EventStream`."""
    return EventStream(types, index)
