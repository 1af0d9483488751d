/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The end of a recording (stop.c): SIGINT and SIGTERM, caught, end dcmctl
 * record and dcm-flight cleanly.
 */
#ifndef REC_STOP_H
#define REC_STOP_H

#include <signal.h>

/* Set by SIGINT or SIGTERM once rec_catch_stop() ran. */
extern volatile sig_atomic_t rec_stop_asked;

/*
 * SIGINT and SIGTERM set rec_stop_asked (cleared first); no SA_RESTART:
 * a blocked read() returns EINTR.
 */
void rec_catch_stop(void);
/* SIGINT and SIGTERM as they were by default. */
void rec_release_stop(void);

#endif /* REC_STOP_H */
