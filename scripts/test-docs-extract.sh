#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-docs-extract.sh: the documentation's commands as dcm_docs_test.sh
# gets them (tools/testing/selftests/dcm/dcm_docs_extract.py): samples of
# each block kind and marker of Documentation/testing.rst ("Commands in the
# documentation"), a marker it does not know refused, and the tree's own
# documents read without an error. Reports like cmocka (scripts/test-lib.sh).
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
suite=docs-extract
# shellcheck source=scripts/test-lib.sh
. "$top/scripts/test-lib.sh"

x=$top/tools/testing/selftests/dcm/dcm_docs_extract.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check_log=$tmp/log

cat >"$tmp/a.rst" <<'DOC'
A literal block::

  $ dcmctl info
  ioctl /dev/dcm0:
  # echo 1 > /sys/x
  $ for i in 1 2; do \
        echo $i; done
  $ dcmctl get Nope   # docs-test: exit=1

.. docs-test: skip on the build host

Host only::

  $ make check
  # apt-get install foo

Not commands (no prompt, deeper prompts are output)::

  dcmctl [-d DEVICE] COMMAND
      # a comment, not a command

.. code-block:: c

  # include <stdio.h>
  $ not a command either

.. code-block:: console

   $ dcmctl events --type safety   # live; docs-test: timeout=3
   # cat /sys/a \
   > /sys/b

.. code-block:: sh

  make -C userspace     # every line
  # a comment line
  scripts/x \
      --y
DOC
cat >"$tmp/b.md" <<'DOC'
# A title, not a command

```sh
make run     # a host command
```

<!-- docs-test: exit=2 -->
```
$ dcmctl nope
output
```

```c
# define X
```
DOC
cat >"$tmp/want" <<'DOC'
a.rst:3		dcmctl info
a.rst:5		echo 1 > /sys/x
a.rst:6		for i in 1 2; do \\n      echo $i; done
a.rst:8	exit=1	dcmctl get Nope   # docs-test: exit=1
a.rst:14	skip=on the build host	make check
a.rst:15	skip=on the build host	apt-get install foo
a.rst:29	timeout=3	dcmctl events --type safety   # live; docs-test: timeout=3
a.rst:30		cat /sys/a \\n/sys/b
a.rst:35		make -C userspace     # every line
a.rst:37		scripts/x \\n    --y
b.md:4		make run     # a host command
b.md:9	exit=2	dcmctl nope
DOC
(cd "$tmp" && python3 "$x" --list a.rst b.md) >"$tmp/got" 2>"$tmp/log"
diff -u "$tmp/want" "$tmp/got" >>"$tmp/log"
check "every kind of block and marker, in document order" $?

(cd "$tmp" && python3 "$x" a.rst b.md) >"$tmp/script" 2>"$tmp/log"
grep -qxF "doc_file 'a.rst' 8" "$tmp/script" &&
	grep -qxF "doc_skip 'a.rst:14' 'on the build host' 'make check'" "$tmp/script" &&
	grep -qxF "doc_cmd 'a.rst:8' 1 0 'dcmctl get Nope   # docs-test: exit=1'" "$tmp/script" &&
	grep -qxF "doc_cmd 'a.rst:29' 0 3 'dcmctl events --type safety   # live; docs-test: timeout=3'" \
		"$tmp/script" &&
	sh -n "$tmp/script" 2>>"$tmp/log"
check "the script dcm_docs_test.sh sources, quoted for sh" $?

printf 'x::\n\n  $ ls   # docs-test: exit=one\n' >"$tmp/bad.rst"
(cd "$tmp" && python3 "$x" bad.rst) >"$tmp/log" 2>&1
[ $? = 1 ] && grep -q "bad.rst:3: docs-test: unknown option 'exit=one'" "$tmp/log"
check "a marker it does not know is refused, with its place" $?

(cd "$top" && python3 "$x" --list README.md $(find Documentation -name '*.rst' | sort)) \
	>"$tmp/docs" 2>"$tmp/log"
st=$?
[ $st = 0 ] && [ "$(wc -l <"$tmp/docs")" -gt 20 ]
check "the tree's documents: $(wc -l <"$tmp/docs") commands" $?

finish
