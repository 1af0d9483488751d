# SPDX-License-Identifier: GPL-2.0
#
# Rows: what reading the values costs by each path (dcm_bench reads): every
# value from the mapped snapshot, by DCM_IOC_GET, by a read() frame (the
# reader's CPU time: a frame waits for its cycle), and one value through
# sysfs (open, read, close), each against the snapshot.

. /share/lib.sh

H=$(how reads)
"$SELFTESTS/dcm_bench" reads >/tmp/reads.txt || { log "dcm_bench reads failed"; exit 1; }
v() { awk -v k="$1" -F '\t' '$1 == k { print $2 }' /tmp/reads.txt; }
n=$(v values)
snap=$(v snapshot_all)
one=$(v snapshot_one)
row reads "values read" "$n" values "$H"
row reads "snapshot (mmap), every value" "$snap" ns "$H"
row reads "DCM_IOC_GET, every value" "$(v ioctl_get_all)" ns "$H"
row reads "read() frame, every value (CPU)" "$(v frame_all)" ns "$H"
row reads "snapshot (mmap), one value" "$one" ns "$H"
row reads "sysfs, one value (open, read, close)" "$(v sysfs_one)" ns "$H"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }'; }
row reads "DCM_IOC_GET / snapshot" "$(ratio "$(v ioctl_get_all)" "$snap")" x "$H"
row reads "read() frame / snapshot" "$(ratio "$(v frame_all)" "$snap")" x "$H"
row reads "sysfs one value / snapshot one value" "$(ratio "$(v sysfs_one)" "$one")" x "$H"
