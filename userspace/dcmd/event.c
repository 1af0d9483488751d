// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcmd: the line it logs for an event of its controller (dcmd.h).
 */
#include "libdcm.h"
#include "dcmd.h"

int dcmd_event_line(const struct dcm_event_msg *e, bool numbered, char *buf, size_t len)
{
	struct dcm_event_msg shown = *e;

	/*
	 * DCM_A_EV_LOST counts the events the kernel numbered before this
	 * one and did not send. Once the follower knows the numbering it sees
	 * them as a gap: it reads them from the history (they are logged
	 * before this one) or counts them in follow.lost, which dcmd logs on
	 * its own line. Saying the count here as well would call lost the
	 * events just logged.
	 */
	if (numbered)
		shown.lost = 0;
	return dcm_event_format(&shown, buf, len);
}
