#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-calls.sh OBJ.o... - find the call circles among a program's objects.
#
# Object A "calls" object B when A has an undefined symbol that B defines
# (nm). A strongly connected component of that graph with more than one
# object is a circle: those objects can only be understood, built and
# tested together. Each circle is printed, one a line, with the symbols
# that close it; the exit status is 1 when there is one, 0 when the objects
# form a stack (2: a usage error).
#
# Usage, after a build:
#   scripts/check-calls.sh build/obj/userspace/dcmctl/*.o
#
# Only the objects given count: a symbol defined elsewhere (libdcm, libc)
# makes no edge.
set -euo pipefail

if [ $# -lt 1 ]; then
	echo "usage: $0 OBJ.o..." >&2
	exit 2
fi

for o in "$@"; do
	# "OBJ D|U SYMBOL" lines; defined: any section but U, w, v
	nm -P -g "$o" | awk -v o="$o" '
		$2 == "U" || $2 == "w" || $2 == "v" { print o, "U", $1; next }
		{ print o, "D", $1 }'
done | python3 -c '
import sys
from collections import defaultdict

defs, undefs, objs = {}, defaultdict(set), []
for line in sys.stdin:
    o, kind, sym = line.split()
    if o not in objs:
        objs.append(o)
    if kind == "D":
        defs.setdefault(sym, o)
    else:
        undefs[o].add(sym)
for o in sys.argv[1:]:
    if o not in objs:
        objs.append(o)

edges = defaultdict(dict)	# a -> b -> the symbols
for a in objs:
    for s in sorted(undefs[a]):
        b = defs.get(s)
        if b and b != a:
            edges[a].setdefault(b, []).append(s)

# Tarjan, iterative
index, low, onstack, stack, sccs, n = {}, {}, set(), [], [], 0
for root in objs:
    if root in index:
        continue
    work = [(root, iter(sorted(edges[root])))]
    index[root] = low[root] = n; n += 1
    stack.append(root); onstack.add(root)
    while work:
        v, it = work[-1]
        w = next(it, None)
        if w is not None:
            if w not in index:
                index[w] = low[w] = n; n += 1
                stack.append(w); onstack.add(w)
                work.append((w, iter(sorted(edges[w]))))
            elif w in onstack:
                low[v] = min(low[v], index[w])
            continue
        work.pop()
        if work:
            low[work[-1][0]] = min(low[work[-1][0]], low[v])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); onstack.discard(w); comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(sorted(comp))

name = lambda p: p.rsplit("/", 1)[-1]
for comp in sccs:
    print("circle of %d objects: %s" % (len(comp), " ".join(name(c) for c in comp)))
    for a in comp:
        for b in sorted(edges[a]):
            if b in comp:
                syms = edges[a][b]
                print("  %s -> %s: %s%s" % (name(a), name(b), " ".join(syms[:4]),
                      " ..." if len(syms) > 4 else ""))
if sccs:
    sys.exit(1)
print("no circle among %d objects" % len(objs))
' "$@"
