// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcmd and systemd: is stderr the journal, and the journal's priority
 * prefix of a log line (libsystemd's SD_* of <systemd/sd-daemon.h>). The
 * readiness notification is libsystemd's sd_notify(), called in main.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <syslog.h>
#include <unistd.h>
#include <sys/stat.h>

#include <systemd/sd-daemon.h>

#include "dcmd.h"

/*
 * systemd connects a service's stderr to the journal and says so in
 * $JOURNAL_STREAM ("DEVICE:INODE" of that stream). Inherited by a child
 * whose stderr was redirected, it no longer matches: compare.
 */
bool dcmd_stderr_is_journal(void)
{
	const char *env = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;
	int n = 0;

	if (!env || sscanf(env, "%llu:%llu%n", &dev, &ino, &n) != 2 || env[n])
		return false;
	if (fstat(STDERR_FILENO, &st) < 0)
		return false;
	return (unsigned long long)st.st_dev == dev && (unsigned long long)st.st_ino == ino;
}

const char *dcmd_journal_prefix(int prio)
{
	static const char *const prefix[] = {
		[LOG_EMERG] = SD_EMERG,
		[LOG_ALERT] = SD_ALERT,
		[LOG_CRIT] = SD_CRIT,
		[LOG_ERR] = SD_ERR,
		[LOG_WARNING] = SD_WARNING,
		[LOG_NOTICE] = SD_NOTICE,
		[LOG_INFO] = SD_INFO,
		[LOG_DEBUG] = SD_DEBUG,
	};

	return prio >= LOG_EMERG && prio <= LOG_DEBUG ? prefix[prio] : SD_ERR;
}
