#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""dcm_docs_extract.py: the shell commands the documentation shows, as a script.

    dcm_docs_extract.py [--root DIR] FILE...      the script, on stdout
    dcm_docs_extract.py --list [--root DIR] FILE...  one line a command

Reads README.md-style Markdown and reStructuredText files and prints a
shell fragment that dcm_docs_test.sh sources: for each file with commands
"doc_file NAME RUNS" (RUNS: how many are not skipped), then in document order one "doc_cmd LOCATION STATUS
TIMEOUT COMMAND" or "doc_skip LOCATION REASON COMMAND" per command.
Documentation/testing.rst ("Commands in the documentation") describes the
convention; in short:

* reStructuredText: literal blocks (after "::") and ".. code-block::
  console" blocks hold commands as lines starting with "$ " or "# " at the
  block's indentation; a line ending in "\\" or lines starting with "> "
  continue it; other lines are its output. ".. code-block:: sh" (bash,
  shell) blocks are scripts: every line is a command. Other languages
  hold no commands.
* Markdown: fenced blocks without a language or of "console" hold
  prompted commands as above, blocks of "sh" (bash, shell) are scripts.
* Markers: a comment ".. docs-test: OPTIONS" (reStructuredText) or
  "<!-- docs-test: OPTIONS -->" (Markdown) applies to every command of the
  next block; "# docs-test: OPTIONS" at the end of a command to that one.
  OPTIONS: "skip REASON" (not run), "exit=N" (the exit status it must
  have), "timeout=SEC" (runs until stopped: stopped after SEC seconds is
  success).

Exit status: 0, or 1 for a marker it does not understand (the message
names the file and line).
"""

import os
import re
import sys

SCRIPT_LANGS = {"sh", "bash", "shell"}
CONSOLE_LANGS = {"console", "shell-session", "sh-session", ""}
MARK_RST = re.compile(r"^\s*\.\.\s+docs-test:\s*(.*?)\s*$")
MARK_MD = re.compile(r"^\s*<!--\s*docs-test:\s*(.*?)\s*-->\s*$")
MARK_INLINE = re.compile(r"(?:^|\s)#[^#]*?\bdocs-test:\s*(.*?)\s*$")


class Error(Exception):
    pass


def parse_options(text, where):
    """Options of a marker: {'skip': reason or None, 'exit': N, 'timeout': S}."""
    opts = {}
    words = text.split()
    i = 0
    while i < len(words):
        w = words[i]
        if w == "skip":
            opts["skip"] = " ".join(words[i + 1:]) or "marked skip"
            break
        m = re.fullmatch(r"exit=(\d+)", w)
        if m:
            opts["exit"] = int(m.group(1))
            i += 1
            continue
        m = re.fullmatch(r"timeout=(\d+)", w)
        if m and int(m.group(1)) > 0:
            opts["timeout"] = int(m.group(1))
            i += 1
            continue
        raise Error("%s: docs-test: unknown option '%s'" % (where, w))
    return opts


class Command:
    def __init__(self, path, line, text, opts):
        self.path, self.line, self.text = path, line, text
        self.opts = dict(opts)


def prompted(path, lines, base_line, opts):
    """Commands of a console block: @lines without the block's indentation."""
    cmds = []
    cur = None
    for k, line in enumerate(lines):
        if cur is not None and (cur.text.endswith("\\") or line.startswith("> ")):
            cur.text += "\n" + (line[2:] if line.startswith("> ") else line)
            continue
        if cur is not None:
            cmds.append(cur)
            cur = None
        if line.startswith("$ ") or line.startswith("# "):
            cur = Command(path, base_line + k, line[2:].rstrip(), {})
    if cur is not None:
        cmds.append(cur)
    return finish(path, cmds, opts)


def script(path, lines, base_line, opts):
    """Commands of a script block: every logical line but comments and blanks."""
    cmds = []
    cur = None
    for k, line in enumerate(lines):
        if cur is not None:
            cur.text += "\n" + line
            if not line.endswith("\\"):
                cmds.append(cur)
                cur = None
            continue
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        cur = Command(path, base_line + k, line.rstrip(), {})
        if not line.endswith("\\"):
            cmds.append(cur)
            cur = None
    if cur is not None:
        cmds.append(cur)
    return finish(path, cmds, opts)


def finish(path, cmds, opts):
    for c in cmds:
        c.opts = dict(opts)
        m = MARK_INLINE.search(c.text.splitlines()[-1])
        if m:
            c.opts.update(parse_options(m.group(1), "%s:%d" % (path, c.line)))
    return cmds


def dedent(block):
    ind = min((len(l) - len(l.lstrip()) for l in block if l.strip()), default=0)
    return [l[ind:].rstrip() if l.strip() else "" for l in block]


def indent_of(line):
    return len(line) - len(line.lstrip())


def rst_commands(path, text):
    lines = text.split("\n")
    cmds = []
    pending = {}
    i = 0
    while i < len(lines):
        line = lines[i]
        m = MARK_RST.match(line)
        if m:
            pending = parse_options(m.group(1), "%s:%d" % (path, i + 1))
            i += 1
            continue
        kind = None
        d = re.match(r"^(\s*)\.\.\s+(?:code-block|code|sourcecode)::\s*(\S*)\s*$", line)
        if d:
            lang = d.group(2).lower()
            kind = "script" if lang in SCRIPT_LANGS else \
                "console" if lang in CONSOLE_LANGS else "none"
        elif line.rstrip().endswith("::") and not line.lstrip().startswith(".."):
            kind = "console"
        if not kind:
            i += 1
            continue
        base = indent_of(line)
        j = i + 1
        # directive options, then the blank line(s)
        while j < len(lines) and kind and d and lines[j].strip().startswith(":") and \
                indent_of(lines[j]) > base:
            j += 1
        block, start = [], None
        while j < len(lines):
            if lines[j].strip() and indent_of(lines[j]) <= base:
                break
            if lines[j].strip() and start is None:
                start = j
            if start is not None:
                block.append(lines[j])
            j += 1
        while block and not block[-1].strip():
            block.pop()
        if block and kind != "none":
            body = dedent(block)
            fn = script if kind == "script" else prompted
            cmds += fn(path, body, start + 1, pending)
        if block:
            pending = {}
        i = j
    return cmds


def md_commands(path, text):
    lines = text.split("\n")
    cmds = []
    pending = {}
    i = 0
    while i < len(lines):
        m = MARK_MD.match(lines[i])
        if m:
            pending = parse_options(m.group(1), "%s:%d" % (path, i + 1))
            i += 1
            continue
        f = re.match(r"^(\s*)(```+|~~~+)\s*([\w-]*)", lines[i])
        if not f:
            i += 1
            continue
        fence, lang = f.group(2), f.group(3).lower()
        j = i + 1
        block = []
        while j < len(lines) and not lines[j].strip().startswith(fence):
            block.append(lines[j])
            j += 1
        body = dedent(block)
        if lang in SCRIPT_LANGS:
            cmds += script(path, body, i + 2, pending)
        elif lang in CONSOLE_LANGS:
            cmds += prompted(path, body, i + 2, pending)
        pending = {}
        i = j + 1
    return cmds


def quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


def main():
    args = sys.argv[1:]
    root, listing = None, False
    while args and args[0].startswith("--"):
        if args[0] == "--root":
            root = args[1]
            args = args[2:]
        elif args[0] == "--list":
            listing = True
            args = args[1:]
        else:
            sys.exit(__doc__)
    out = ["# Generated by dcm_docs_extract.py from the documentation: do not edit."]
    try:
        for f in args:
            name = os.path.relpath(f, root) if root else f
            with open(f, encoding="utf-8") as fh:
                text = fh.read()
            cmds = md_commands(name, text) if f.endswith(".md") else rst_commands(name, text)
            if not cmds:
                continue
            if not listing:
                runs = sum(1 for c in cmds if "skip" not in c.opts)
                out.append("doc_file %s %d" % (quote(name), runs))
            for c in cmds:
                loc = "%s:%d" % (c.path, c.line)
                if listing:
                    flags = " ".join("%s=%s" % kv for kv in sorted(c.opts.items()))
                    out.append("%s\t%s\t%s" % (loc, flags, c.text.replace("\n", "\\n")))
                elif "skip" in c.opts:
                    out.append("doc_skip %s %s %s" % (quote(loc), quote(c.opts["skip"]),
                                                      quote(c.text)))
                else:
                    out.append("doc_cmd %s %d %d %s" % (quote(loc), c.opts.get("exit", 0),
                                                        c.opts.get("timeout", 0),
                                                        quote(c.text)))
    except Error as e:
        print("dcm_docs_extract.py: %s" % e, file=sys.stderr)
        return 1
    if listing:
        out = out[1:]
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
