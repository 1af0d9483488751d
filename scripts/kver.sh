#!/bin/sh
# Print the release of the Debian kernel the modules are built for and the
# VM boots: $KVER if set, else the newest /lib/modules entry that has both
# headers (build/) and an image in /boot.
set -e
if [ -n "${KVER:-}" ]; then
	echo "$KVER"
	exit 0
fi
for d in $(ls -1 /lib/modules 2>/dev/null | sort -rV); do
	if [ -e "/lib/modules/$d/build/Makefile" ] && [ -e "/boot/vmlinuz-$d" ]; then
		echo "$d"
		exit 0
	fi
done
echo "kver.sh: no kernel with headers and image; run scripts/deps.sh" >&2
exit 1
