#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-calls.sh [-i [-I DIR]...] [-l PAGE] FILE... - the circles, and the
# arrows up a layer, of the graph of a program's files.
#
# The graph: by default the FILEs are objects, and object A "calls" object
# B when A has an undefined symbol that B defines (nm). With -i the FILEs
# are sources, and file A "includes" file B when A has an #include "..."
# line that names B: looked for in A's own folder, then in each -I DIR in
# turn, as the compiler does.
#
# A strongly connected component of that graph with more than one file is
# a circle: those files can only be understood, built and tested
# together. Each circle is printed, one a line, with the symbols (or the
# include lines) that close it; the exit status is 1 when there is one, 0
# when the files form a stack (2: a usage error).
#
# With -l PAGE the files are grouped by layer, and it is the layers that
# must form a stack, each using only the layers below it. The layers and
# their order are read from PAGE (Documentation/dcm/architecture.rst): each
# literal block of it whose lines at its left edge start with kernel/ or
# userspace/ is a stack of layers, top down, the first word of each such
# line a layer (a folder, or a file such as kernel/dcm_main.c; a line of
# several in braces, userspace/{dcmctl,dcmd}/, is one rank of peers, which
# may not use one another). A layer may use the layers below it in a stack
# that has it. A file's layer is the longest that is its path or a folder
# of it (paths from the top of the tree). Every arrow that is not down, the
# file to file arrows that make it, and every circle between layers, are
# printed; the exit status is 1 when there is one.
#
# Usage, after a build:
#   scripts/check-calls.sh build/obj/userspace/dcmctl/*.o
#   scripts/check-calls.sh -l Documentation/dcm/architecture.rst kernel/*/*.o
#   scripts/check-calls.sh -i -I kernel -I include kernel/core/*.[ch]
#
# Only the files given count: a symbol defined elsewhere (libdcm, libc, the
# kernel) or a header not given makes no arrow.
set -euo pipefail

if [ $# -lt 1 ]; then
	echo "usage: $0 [-i [-I DIR]...] [-l PAGE] FILE..." >&2
	exit 2
fi
top=$(cd "$(dirname "$0")/.." && pwd)

exec python3 - "$top" "$@" <<'EOF'
import os
import re
import subprocess
import sys
from collections import defaultdict

top = sys.argv[1]
args = sys.argv[2:]
includes, incdirs, page, files = False, [], None, []
while args:
    a = args.pop(0)
    if a == "-i":
        includes = True
    elif a == "-I" and args:
        incdirs.append(os.path.abspath(args.pop(0)))
    elif a == "-l" and args:
        page = args.pop(0)
    elif a.startswith("-"):
        print("check-calls.sh: unknown option %s" % a, file=sys.stderr)
        sys.exit(2)
    else:
        files.append(os.path.abspath(a))
if not files:
    print("check-calls.sh: no file", file=sys.stderr)
    sys.exit(2)
files = list(dict.fromkeys(files))
given = set(files)
rel = lambda p: os.path.relpath(p, top)

edges = defaultdict(dict)	# a -> b -> what makes the arrow
if includes:
    inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
    for a in files:
        with open(a, errors="replace") as f:
            text = f.read()
        for name in inc.findall(text):
            for d in [os.path.dirname(a)] + incdirs:
                b = os.path.normpath(os.path.join(d, name))
                if os.path.exists(b):
                    break
            else:
                continue
            if b in given and b != a:
                edges[a].setdefault(b, []).append('"%s"' % name)
else:
    defs, undefs = {}, defaultdict(set)
    for o in files:
        out = subprocess.run(["nm", "-P", "-g", o], check=True,
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            f = line.split()
            if len(f) < 2:
                continue
            if f[1] in ("U", "w", "v"):
                undefs[o].add(f[0])
            else:
                defs.setdefault(f[0], o)
    for a in files:
        for s in sorted(undefs[a]):
            b = defs.get(s)
            if b and b != a:
                edges[a].setdefault(b, []).append(s)


def sccs_of(nodes, succ):
    """Tarjan, iterative: the components of more than one node."""
    index, low, onstack, stack, out, n = {}, {}, set(), [], [], 0
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(succ(root))))]
        index[root] = low[root] = n
        n += 1
        stack.append(root)
        onstack.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = n
                    n += 1
                    stack.append(w)
                    onstack.add(w)
                    work.append((w, iter(sorted(succ(w)))))
                elif w in onstack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    onstack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def shown(what):
    return " ".join(what[:4]) + (" ..." if len(what) > 4 else "")


def read_layers(page):
    """The stacks of PAGE's literal blocks: lists of ranks, top down."""
    stacks, block, edge, stack = [], False, None, []
    with open(page) as f:
        lines = f.read().splitlines()
    for line in lines + [""]:
        indent = len(line) - len(line.lstrip())
        if block and line.strip() and indent == 0:
            block = False
        if block and line.strip():
            if edge is None:
                edge = indent
            m = re.match(r"((?:kernel|userspace)/\S*)", line.lstrip())
            if indent == edge and m:
                word = m.group(1)
                b = re.match(r"(.*)\{([^}]*)\}(.*)", word)
                names = [b.group(1) + x + b.group(3) for x in b.group(2).split(",")] if b else [word]
                stack.append([x.rstrip("/") for x in names])
        if not block:
            if len(stack) > 1:
                stacks.append(stack)
            stack = []
            if line.rstrip().endswith("::"):
                block, edge = True, None
    return stacks


bad = 0
if page:
    stacks = read_layers(page)
    below = defaultdict(set)	# a layer -> the layers it may use
    layers = set()
    for s in stacks:
        for i, rank in enumerate(s):
            for layer in rank:
                layers.add(layer)
                for lower in s[i + 1:]:
                    below[layer].update(lower)
    if not layers:
        print("check-calls.sh: no layer in %s" % page, file=sys.stderr)
        sys.exit(2)

    def layer_of(p):
        r = rel(p)
        best = None
        for layer in layers:
            # a file layer holds its object too: kernel/dcm_main.c its .o
            same = os.path.splitext(r)[0] == os.path.splitext(layer)[0]
            if (same or r.startswith(layer + "/")) and \
               (best is None or len(layer) > len(best)):
                best = layer
        return best

    of = {}
    for p in files:
        of[p] = layer_of(p)
        if of[p] is None:
            print("check-calls.sh: %s is in no layer of %s" % (rel(p), page),
                  file=sys.stderr)
            sys.exit(2)
    ledges = defaultdict(lambda: defaultdict(list))
    for a in files:
        for b, what in edges[a].items():
            la, lb = of[a], of[b]
            if la != lb:
                ledges[la][lb].append((a, b, what))
    used = sorted(set(of.values()))
    for la in used:
        for lb in sorted(ledges[la]):
            if lb in below[la]:
                continue
            bad = 1
            up = "up" if la in below[lb] else "across"
            print("arrow %s: %s -> %s" % (up, la, lb))
            for a, b, what in ledges[la][lb]:
                print("  %s -> %s: %s" % (rel(a), rel(b), shown(what)))
    for comp in sccs_of(used, lambda v: ledges[v].keys()):
        bad = 1
        print("circle of %d layers: %s" % (len(comp), " ".join(comp)))
    if not bad:
        print("%d files in %d layers, each using only the layers below it"
              % (len(files), len(used)))
    sys.exit(bad)

name = rel
sccs = sccs_of(files, lambda v: edges[v].keys())
for comp in sccs:
    print("circle of %d files: %s" % (len(comp), " ".join(name(c) for c in comp)))
    for a in comp:
        for b in sorted(edges[a]):
            if b in comp:
                print("  %s -> %s: %s" % (name(a), name(b), shown(edges[a][b])))
if sccs:
    sys.exit(1)
print("no circle among %d files" % len(files))
EOF
