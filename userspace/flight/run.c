// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcm-flight, the flight recorder: every key of every cycle of the last
 * seconds kept in memory (the frames, read by a thread of their own into
 * a ring that loses its oldest frame); when a safety rule starts acting
 * (an event of the group "events": a cycle fault, the battery current, a
 * temperature status rising, a fall) or on demand (SIGUSR1, dcm-flight
 * --dump), the seconds before it, a few after it and the events around it
 * go into one file (write.c), written by a child of a fork so that the
 * recording goes on.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "flight.h"
#include "stop.h"

static volatile sig_atomic_t dump_asked;

static void on_dump(int sig)
{
	(void)sig;
	dump_asked = 1;
}

/* SIGINT, SIGTERM end the recorder cleanly (rec/stop.c); SIGUSR1 asks for a file. */
static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_dump };

	rec_catch_stop();
	dump_asked = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
}

/*
 * Dump now: fork, and let the child write its copy of the ring while the
 * parent (and its reader thread) goes on. The ring's lock is held across
 * the fork, so the child's copy is whole; the child never takes it.
 */
static void flight_dump(struct flight_state *st, const char *reason)
{
	double when = rec_wall_now();
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pthread_mutex_lock(&st->ring->lock);
	pid = fork();
	if (pid == 0)
		_exit(flight_write(st, reason, when) ? 1 : 0);
	pthread_mutex_unlock(&st->ring->lock);
	if (pid < 0)
		fprintf(stderr, "dcm-flight: fork: %s\n", strerror(errno));
	else
		st->dumps++;
}

/*
 * The directory, checked, and its pid file locked: one recorder a
 * directory, the lock saying which for its lifetime. The pid file's
 * descriptor (keep it open), or -1 (said).
 */
static int take_dir(struct flight_state *st)
{
	const char *dir = st->a->dir;
	char msg[512];
	pid_t holder;
	int fd;

	st->dirfd = flight_dir_open(dir, true, false, msg, sizeof(msg));
	if (st->dirfd < 0) {
		fprintf(stderr, "dcm-flight: %s\n", msg);
		return -1;
	}
	fd = flight_pid_lock(st->dirfd, &holder);
	if (fd >= 0)
		return fd;
	if (fd == -EAGAIN && holder > 0)
		fprintf(stderr, "dcm-flight: another flight recorder (pid %ld) runs on %s\n",
			(long)holder, dir);
	else if (fd == -EAGAIN)
		fprintf(stderr, "dcm-flight: %s/%s is locked: another flight recorder runs on %s\n",
			dir, FLIGHT_PID, dir);
	else
		fprintf(stderr, "dcm-flight: %s/%s: %s\n", dir, FLIGHT_PID,
			fd == -ELOOP ? "a symbolic link: refused" :
			fd == -EMLINK ? "not a file of its own (a hard link, or no regular file): refused" :
			strerror(-fd));
	return -1;
}

/* The controller, its description and its frames of every key: 0 or -1 (said). */
static int open_controller(struct flight_state *st, struct dcm **dcm, struct dcm_info *info)
{
	int r = dcm_open(st->a->device, dcm);

	if (r) {
		fprintf(stderr, "dcm-flight: %s\n", dcm_last_error());
		return -1;
	}
	if (dcm_get_info(*dcm, info) || dcm_tree_read(*dcm, st->a->root, 0, &st->tree)) {
		fprintf(stderr, "dcm-flight: %s\n", dcm_last_error());
		return -1;
	}
	st->index = info->index;
	if (!info->n_subdevices) {
		fprintf(stderr, "dcm-flight: no robot description is loaded\n");
		return -1;
	}
	if (dcm_frame_keys(*dcm, true)) {
		fprintf(stderr, "dcm-flight: %s\n", dcm_last_error());
		return -1;
	}
	return 0;
}

/* The events: the history first (kept for the dumps), then the live ones from its end. */
static int follow_events(struct flight_state *st, struct dcm_nl **nl)
{
	int r = dcm_nl_open(nl);

	if (!r) {
		r = dcm_nl_event_follow_init(*nl, &st->follow, st->index, flight_keep, st);
		if (r < 0)
			fprintf(stderr, "dcm-flight: events history: %s: an overrun of the event socket will lose events\n",
				dcm_last_error());
		r = dcm_nl_subscribe_events(*nl);
	}
	if (r)
		fprintf(stderr, "dcm-flight: events: %s\n", dcm_last_error());
	return r ? -1 : 0;
}

/* The events that came: kept, triggers noted, losses said. */
static void read_events(struct flight_state *st, struct dcm_nl *nl)
{
	int r = dcm_nl_recv_follow(nl, &st->follow, flight_on_event, st);

	if (r == -ENOBUFS)	/* a kernel without a history */
		flight_add_reason(st, "events lost (socket overrun)");
	else if (r < 0)
		fprintf(stderr, "dcm-flight: events: %s\n", dcm_last_error());
	if (st->follow.lost > st->lost_said) {
		/* only what the kernel's history no longer held */
		flight_add_reason(st, "events lost (gone from the kernel's history)");
		fprintf(stderr, "dcm-flight: %" PRIu64 " events lost: the kernel's history no longer held them\n",
			st->follow.lost - st->lost_said);
		st->lost_said = st->follow.lost;
	}
}

/*
 * After the events: the reader's end (-1, said), a new description (its
 * names for the frames to come), the dumps asked for or due. 0 or -1.
 */
static int step(struct flight_state *st, struct dcm *dcm)
{
	struct rec_ring *ring = st->ring;
	struct dcm_tree *nt;
	uint32_t gen;
	bool done;

	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	pthread_mutex_lock(&ring->lock);
	done = ring->done;
	gen = ring->head ? ring->meta[(ring->head - 1) % ring->slots].generation : 0;
	pthread_mutex_unlock(&ring->lock);
	if (done) {
		fprintf(stderr, "dcm-flight: %s\n", ring->why);
		return -1;
	}
	if (gen && gen != dcm_tree_generation(st->tree)) {
		if (dcm_tree_read(dcm, st->a->root, 0, &nt)) {
			fprintf(stderr, "dcm-flight: %s\n", dcm_last_error());
		} else {
			dcm_tree_free(st->tree);
			st->tree = nt;
		}
	}
	if (dump_asked) {
		dump_asked = 0;
		flight_dump(st, "on demand");
	}
	if (st->pending && rec_wall_now() >= st->due) {
		flight_dump(st, st->reason);
		st->pending = false;
		st->reason[0] = '\0';
	}
	return 0;
}

/* Record until SIGINT or SIGTERM (0), or the reader's end (-1). */
static int record(struct flight_state *st, struct dcm *dcm, struct dcm_nl *nl,
		  const struct dcm_info *info)
{
	const struct flight_args *a = st->a;
	struct pollfd pfd = { .fd = dcm_nl_event_fd(nl), .events = POLLIN };
	size_t slots;

	/* the kept seconds and the --after ones, at the controller's period */
	slots = (size_t)((a->seconds + a->after) * 1e6 /
			 (info->period_us ? info->period_us : 10000)) + 1;
	if (rec_ring_start(st->ring, dcm, slots, info->n_subdevices, true, stderr))
		return -1;
	fprintf(stderr, "dcm-flight: keeping %g s of %u keys of dcm%u (%zu frames); files in %s\n",
		a->seconds, info->n_subdevices, info->index, slots, a->dir);
	while (!rec_stop_asked) {
		if (poll(&pfd, 1, 100) > 0)
			read_events(st, nl);
		if (step(st, dcm))
			return -1;
	}
	return 0;
}

int flight_run(const struct flight_args *a)
{
	struct flight_state st = { .a = a, .dirfd = -1 };
	struct rec_ring ring = { 0 };
	struct dcm *dcm = NULL;
	struct dcm_nl *nl = NULL;
	struct dcm_info info;
	int pidfd, ret = FLIGHT_EXIT_FAIL;

	st.ring = &ring;
	/* SIGUSR1 caught before the lock says a recorder runs here: --dump may send it */
	catch_signals();
	pidfd = take_dir(&st);
	if (pidfd < 0)
		goto out;
	if (flight_events_alloc(&st)) {
		fprintf(stderr, "dcm-flight: out of memory\n");
		goto out;
	}
	if (!open_controller(&st, &dcm, &info) && !follow_events(&st, &nl) &&
	    !record(&st, dcm, nl, &info))
		ret = FLIGHT_EXIT_OK;
out:
	rec_ring_stop(&ring);
	while (waitpid(-1, NULL, 0) > 0)
		;
	if (pidfd >= 0) {
		unlinkat(st.dirfd, FLIGHT_PID, 0);
		close(pidfd);
	}
	if (st.dirfd >= 0)
		close(st.dirfd);
	rec_release_stop();
	signal(SIGUSR1, SIG_DFL);
	flight_events_free(&st);
	dcm_nl_close(nl);
	dcm_tree_free(st.tree);
	dcm_close(dcm);
	return ret;
}
