/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm-web's metrics at /metrics, in Prometheus' text exposition format:
 * the controller's, the server's own counts, and dcm-lola's status.
 */
#ifndef DCM_WEB_METRICS_H
#define DCM_WEB_METRICS_H

#include <stdint.h>
#include <stdio.h>

#include "libdcm.h"
#include "model.h"

/* What the metrics say besides the frame. */
struct web_counters {
	unsigned int ws_clients;	/* WebSocket connections open */
	uint64_t frames;		/* frames read */
	uint64_t dropped;		/* messages dropped for slow clients */
	uint64_t stalled;		/* clients dropped: read nothing, or answered no
					 * ping, for --ws-timeout */
	uint64_t events;		/* kernel events received */
	uint64_t events_lost;		/* events the socket overran on */
};

int web_metrics(FILE *out, struct dcm *dcm, const struct web_model *m,
		const struct dcm_values_frame *f, const struct web_counters *c);

/* dcm-lola's status socket at @path (NULL: not read) as metrics. */
void web_lola_metrics(FILE *out, const char *path);

#endif /* DCM_WEB_METRICS_H */
