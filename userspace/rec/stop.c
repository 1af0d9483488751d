// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The end of a recording: SIGINT and SIGTERM set a flag the loops of
 * dcmctl record and dcm-flight test.
 */
#include <signal.h>

#include "stop.h"

volatile sig_atomic_t rec_stop_asked;

static void on_stop(int sig)
{
	(void)sig;
	rec_stop_asked = 1;
}

void rec_catch_stop(void)
{
	struct sigaction sa = { .sa_handler = on_stop };

	rec_stop_asked = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

void rec_release_stop(void)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
}
