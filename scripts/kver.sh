#!/bin/sh
# Print the release of the kernel the modules are built for and the VM
# boots, chosen in this order, never by what happens to be newest:
#
#   1. $KVER, if set;
#   2. the running kernel, if its headers (/lib/modules/R/build) and its
#      image (/boot/vmlinuz-R) are installed;
#   3. Debian's 6.1 generic image (linux-image-amd64 of bookworm, what
#      scripts/deps.sh installs): the newest 6.1 release with headers and
#      image that is not a PREEMPT_RT (-rt-) one.
#
# A PREEMPT_RT kernel is used only when asked for (KVER=...-rt-amd64, or
# running on it): installing linux-image-rt-amd64 next to the generic one
# changes nothing. Says on stderr which kernel it chose and why.
set -e
has() {
	[ -e "/lib/modules/$1/build/Makefile" ] && [ -e "/boot/vmlinuz-$1" ]
}
if [ -n "${KVER:-}" ]; then
	echo "kver.sh: KVER=$KVER (given)" >&2
	echo "$KVER"
	exit 0
fi
run=$(uname -r)
if has "$run"; then
	echo "kver.sh: KVER=$run (the running kernel)" >&2
	echo "$run"
	exit 0
fi
for d in $(ls -1 /lib/modules 2>/dev/null | grep '^6\.1\.' | grep -v -- '-rt-' | sort -rV); do
	if has "$d"; then
		echo "kver.sh: KVER=$d (Debian 6.1, generic; the running $run has no headers or image)" >&2
		echo "$d"
		exit 0
	fi
done
echo "kver.sh: no kernel: neither the running $run nor a Debian 6.1 generic one has headers and image; run scripts/deps.sh, or set KVER" >&2
exit 1
