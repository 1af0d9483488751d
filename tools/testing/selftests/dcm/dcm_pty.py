#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""dcm_pty.py: run a full-screen program on a pseudo-terminal and watch its screen.

    dcm_pty.py [--size COLSxROWS] [--timeout SEC] STEP... -- PROG [ARG...]

PROG runs as the session leader of a new pseudo-terminal of that size (80x24
by default) whose output goes through a small VT100 screen model: cursor
moves (CUP, CUU/CUD/CUF/CUB), erase in line and in display (EL, ED), CR, LF,
BS, the alternate screen and the cursor's visibility; other sequences are
taken and ignored. A character written past the right edge is counted as an
overflow (it would wrap), a line feed on the last line as a scroll. The
steps, in order:

    wait REGEX [SEC]   until a line of the screen matches (default 10 s)
    record SEC         for SEC seconds, print the screen each time the
                       program has written and paused ("@@ frame T" then the
                       lines, each between '|')
    sh CMD             run the shell command CMD, wait for it
    key TEXT           type TEXT (Python escapes: \\x03 is Ctrl-C)
    resize COLSxROWS   resize the terminal (the program gets SIGWINCH)
    exit [SEC]         wait for the program to exit (default 5 s)

At the end it prints the last screen and one line
"@@ result status=N overflow=N scroll=N restored=yes|no alt=on|off cursor=on|off"
(status: the program's exit status, or "running" if it did not exit and was
killed; restored: the terminal's local modes are those it started with).
Exit status: 0 if every step did what it says, else 1 (a wait that timed
out, a program still running at "exit").
"""

import codecs
import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time


class Screen:
    def __init__(self, cols, rows):
        self.cols, self.rows = cols, rows
        self.lines = [[" "] * cols for _ in range(rows)]
        self.r = self.c = 0
        self.overflow = 0
        self.scroll = 0
        self.alt = False
        self.cursor = True
        self.state = "text"
        self.seq = ""

    def resize(self, cols, rows):
        old = self.lines
        self.lines = [[" "] * cols for _ in range(rows)]
        for i in range(min(rows, len(old))):
            for j in range(min(cols, len(old[i]))):
                self.lines[i][j] = old[i][j]
        self.cols, self.rows = cols, rows
        self.r = min(self.r, rows - 1)
        self.c = min(self.c, cols - 1)

    def text(self):
        return ["".join(line).rstrip() for line in self.lines]

    def clear(self, r0, c0, r1, c1):
        for r in range(r0, r1 + 1):
            for c in range(c0 if r == r0 else 0, (c1 if r == r1 else self.cols - 1) + 1):
                self.lines[r][c] = " "

    def linefeed(self):
        if self.r == self.rows - 1:
            self.scroll += 1
            self.lines.pop(0)
            self.lines.append([" "] * self.cols)
        else:
            self.r += 1

    def csi(self, seq):
        final, body = seq[-1], seq[:-1]
        private = body.startswith("?")
        params = [int(p) if p.isdigit() else 0 for p in body.lstrip("?").split(";")] if body.lstrip("?") else []
        p0 = params[0] if params else 0
        if private:
            if final in "hl" and 1049 in params:
                self.alt = final == "h"
                self.clear(0, 0, self.rows - 1, self.cols - 1)
            if final in "hl" and 25 in params:
                self.cursor = final == "h"
            return
        if final in "Hf":
            row = (params[0] if len(params) > 0 and params[0] else 1) - 1
            col = (params[1] if len(params) > 1 and params[1] else 1) - 1
            self.r, self.c = min(row, self.rows - 1), min(col, self.cols - 1)
        elif final == "K":
            if p0 == 0:
                if self.c < self.cols:
                    self.clear(self.r, self.c, self.r, self.cols - 1)
            elif p0 == 1:
                self.clear(self.r, 0, self.r, min(self.c, self.cols - 1))
            else:
                self.clear(self.r, 0, self.r, self.cols - 1)
        elif final == "J":
            if p0 == 0:
                self.clear(self.r, min(self.c, self.cols - 1), self.rows - 1, self.cols - 1)
            elif p0 == 1:
                self.clear(0, 0, self.r, min(self.c, self.cols - 1))
            else:
                self.clear(0, 0, self.rows - 1, self.cols - 1)
        elif final == "A":
            self.r = max(0, self.r - max(p0, 1))
        elif final == "B":
            self.r = min(self.rows - 1, self.r + max(p0, 1))
        elif final == "C":
            self.c = min(self.cols - 1, self.c + max(p0, 1))
        elif final == "D":
            self.c = max(0, self.c - max(p0, 1))

    def feed(self, data):
        for ch in data:
            if self.state == "esc":
                if ch == "[":
                    self.state, self.seq = "csi", ""
                else:
                    self.state = "text"
                continue
            if self.state == "csi":
                self.seq += ch
                if "\x40" <= ch <= "\x7e":
                    self.csi(self.seq)
                    self.state = "text"
                continue
            if ch == "\x1b":
                self.state = "esc"
            elif ch == "\r":
                self.c = 0
            elif ch == "\n":
                self.linefeed()
            elif ch == "\b":
                self.c = max(0, self.c - 1)
            elif ch == "\t":
                self.c = min(self.cols - 1, (self.c // 8 + 1) * 8)
            elif ch >= " ":
                if self.c >= self.cols:
                    # the terminal would wrap: the line did not fit
                    self.overflow += 1
                    self.c = 0
                    self.linefeed()
                self.lines[self.r][self.c] = ch
                self.c += 1


def set_size(fd, cols, rows):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


def parse_size(s):
    m = re.fullmatch(r"(\d+)x(\d+)", s)
    if not m:
        sys.exit("dcm_pty.py: bad size '%s' (COLSxROWS)" % s)
    return int(m.group(1)), int(m.group(2))


def main():
    argv = sys.argv[1:]
    if "--" not in argv:
        sys.exit(__doc__)
    cut = argv.index("--")
    opts, prog = argv[:cut], argv[cut + 1:]
    cols, rows, timeout = 80, 24, 60.0
    steps = []
    i = 0
    while i < len(opts):
        if opts[i] == "--size":
            cols, rows = parse_size(opts[i + 1])
            i += 2
        elif opts[i] == "--timeout":
            timeout = float(opts[i + 1])
            i += 2
        else:
            steps.append(opts[i])
            i += 1
    if not prog:
        sys.exit("dcm_pty.py: no program")

    master, slave = os.openpty()
    set_size(slave, cols, rows)
    before = termios.tcgetattr(slave)

    def child_setup():
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    env = dict(os.environ, TERM="vt100", COLUMNS="", LINES="")
    proc = subprocess.Popen(prog, stdin=slave, stdout=slave, stderr=slave,
                            preexec_fn=child_setup, env=env, close_fds=True)
    screen = Screen(cols, rows)
    decoder = codecs.getincrementaldecoder("latin-1")()
    deadline = time.monotonic() + timeout
    ok = True

    def pump(wait):
        """Read what the program wrote within @wait s; True if something came."""
        got = False
        end = time.monotonic() + wait
        while True:
            left = end - time.monotonic()
            r, _, _ = select.select([master], [], [], max(left, 0))
            if not r:
                return got
            try:
                data = os.read(master, 65536)
            except OSError:
                return got
            if not data:
                return got
            screen.feed(decoder.decode(data))
            got = True
            end = time.monotonic() + 0.03   # until it pauses

    def show(tag):
        print("@@ %s %.2f" % (tag, time.monotonic()))
        for line in screen.text():
            print("|%s|" % line)
        sys.stdout.flush()

    for step in steps:
        word, _, arg = step.partition(" ")
        if time.monotonic() > deadline:
            print("@@ timeout before step '%s'" % step)
            ok = False
            break
        if word == "wait":
            m = re.fullmatch(r"(.*?)(?: (\d+(?:\.\d+)?))?", arg)
            rx, sec = re.compile(m.group(1)), float(m.group(2) or 10)
            end = time.monotonic() + sec
            while not any(rx.search(line) for line in screen.text()):
                if time.monotonic() > end or proc.poll() is not None and not pump(0.05):
                    print("@@ wait '%s': not seen in %g s" % (m.group(1), sec))
                    show("screen")
                    ok = False
                    break
                pump(0.1)
        elif word == "record":
            end = time.monotonic() + float(arg)
            while time.monotonic() < end:
                if pump(min(0.2, max(end - time.monotonic(), 0))):
                    show("frame")
        elif word == "sh":
            rc = subprocess.call(arg, shell=True, stdout=sys.stderr, stderr=sys.stderr)
            if rc:
                print("@@ sh '%s': exit status %d" % (arg, rc))
                ok = False
            pump(0)
        elif word == "key":
            os.write(master, arg.encode("latin-1").decode("unicode_escape").encode("latin-1"))
            pump(0.05)
        elif word == "resize":
            cols, rows = parse_size(arg)
            set_size(master, cols, rows)
            screen.resize(cols, rows)
            pump(0.05)
        elif word == "exit":
            end = time.monotonic() + float(arg or 5)
            while proc.poll() is None and time.monotonic() < end:
                pump(0.05)
            pump(0.1)
            if proc.poll() is None:
                print("@@ exit: still running after %s s" % (arg or 5))
                ok = False
        else:
            sys.exit("dcm_pty.py: unknown step '%s'" % step)
    status = proc.poll()
    if status is None:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        status = "running"
    pump(0.05)
    after = termios.tcgetattr(slave)
    show("last")
    print("@@ result status=%s overflow=%d scroll=%d restored=%s alt=%s cursor=%s" % (
        status, screen.overflow, screen.scroll, "yes" if after[3] == before[3] else "no",
        "on" if screen.alt else "off", "on" if screen.cursor else "off"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
