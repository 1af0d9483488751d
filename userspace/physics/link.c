// SPDX-License-Identifier: GPL-2.0
/*
 * dcm-physics: the link to dcm_sim (<linux/dcm_sim.h>). Each tick, a
 * struct dcm_sim_cmd is read, the body steps its @dt_us and a struct
 * dcm_sim_state answering its @seq is written back. Any file descriptor
 * that behaves like /dev/dcm_sim_body<N> will do (the host tests serve
 * frames through a socket pair).
 */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "physics.h"

#define DT_MAX_US	1000000	/* a tick longer than a second is refused */

/**
 * phys_check_cmd() - whether a command frame is one dcm-physics can run
 * @cmd: the frame
 * @why: filled with the reason when it is not
 * @len: @why's size
 *
 * Return: 0, or -EINVAL (wrong magic, a tick of 0 or over a second, an
 * unknown flag) or -ERANGE (a value outside <linux/dcm_sim.h>'s ranges).
 */
int phys_check_cmd(const struct dcm_sim_cmd *cmd, char *why, size_t len)
{
	int j;

	if (cmd->magic != DCM_SIM_LINK_MAGIC) {
		snprintf(why, len, "bad magic 0x%08x (not a dcm_sim link frame)", cmd->magic);
		return -EINVAL;
	}
	if (!cmd->dt_us || cmd->dt_us > DT_MAX_US) {
		snprintf(why, len, "tick %u: dt_us %u not within 1..%u", cmd->seq, cmd->dt_us,
			 DT_MAX_US);
		return -EINVAL;
	}
	for (j = 0; j < DCM_SIM_JOINTS; j++) {
		const struct dcm_sim_joint_cmd *c = &cmd->joint[j];

		if (c->flags & ~DCM_SIM_JOINT_LOOP) {
			snprintf(why, len, "tick %u: joint %d: unknown flags 0x%x", cmd->seq, j,
				 c->flags);
			return -EINVAL;
		}
		if (c->target_urad > DCM_SIM_POS_MAX_URAD || c->target_urad < -DCM_SIM_POS_MAX_URAD ||
		    c->pos_urad > DCM_SIM_POS_MAX_URAD || c->pos_urad < -DCM_SIM_POS_MAX_URAD) {
			snprintf(why, len, "tick %u: joint %d: angle out of range", cmd->seq, j);
			return -ERANGE;
		}
		if (c->limit_ma < 0 || c->limit_ma > DCM_SIM_CURRENT_MAX_MA) {
			snprintf(why, len, "tick %u: joint %d: limit_ma %d not within 0..%d",
				 cmd->seq, j, c->limit_ma, DCM_SIM_CURRENT_MAX_MA);
			return -ERANGE;
		}
	}
	return 0;
}

/**
 * phys_open_link() - open the link
 * @path: /dev/dcm_sim_body<N>, or any file that behaves like it
 * @why: filled with the reason when it cannot be opened, one line
 *	("PATH: No such file or directory (is dcm_sim loaded?)")
 * @len: @why's size
 *
 * Return: the descriptor, or -1 with errno set.
 */
int phys_open_link(const char *path, char *why, size_t len)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		int e = errno;

		snprintf(why, len, "%s: %s%s", path, strerror(e),
			 e == ENOENT ? " (is dcm_sim loaded?)" : "");
		errno = e;
	}
	return fd;
}

/*
 * Read @len bytes: one read() on a device, which gives whole frames; as
 * many as it takes on a stream. Return: @len, 0 at the end of the link (or
 * a stop) before any byte, what came before the end of a stream, or -1.
 */
static ssize_t link_read(const struct phys_link *l, void *buf, size_t len, volatile int *stop)
{
	size_t got = 0;
	ssize_t n;

	do {
		if (stop && *stop)
			return (ssize_t)got;
		n = read(l->fd, (char *)buf + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0 || !l->stream)
			return n == 0 ? (ssize_t)got : n;
		got += (size_t)n;
	} while (got < len);
	return (ssize_t)got;
}

/* Write @len bytes: one write() on a device, all of them on a stream. */
static ssize_t link_write(const struct phys_link *l, const void *buf, size_t len)
{
	size_t put = 0;
	ssize_t n;

	do {
		n = write(l->fd, (const char *)buf + put, len - put);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (!l->stream)
			return n;
		put += (size_t)n;
	} while (put < len);
	return (ssize_t)put;
}

/* One frame: 1, 0 at the end of the link (or a stop), -1 on an error. */
static int read_cmd(const struct phys_link *l, volatile int *stop, struct dcm_sim_cmd *cmd)
{
	char why[128];
	ssize_t n;

	n = link_read(l, cmd, sizeof(*cmd), stop);
	if (n == 0)
		return 0;
	if (n < 0) {
		fprintf(stderr, "dcm-physics: %s: %s\n", l->name, strerror(errno));
		return -1;
	}
	if ((size_t)n != sizeof(*cmd)) {
		if (stop && *stop)
			return 0;
		fprintf(stderr, "dcm-physics: %s: short frame (%zd of %zu bytes)\n", l->name, n,
			sizeof(*cmd));
		return -1;
	}
	if (phys_check_cmd(cmd, why, sizeof(why))) {
		fprintf(stderr, "dcm-physics: %s: %s\n", l->name, why);
		return -1;
	}
	return 1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void stats_add(struct phys_stats *s, uint64_t ns)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 4096;
		uint64_t *w = realloc(s->work_ns, cap * sizeof(*w));

		if (!w)
			return;		/* the figures then cover the first ticks */
		s->work_ns = w;
		s->cap = cap;
	}
	s->work_ns[s->n++] = ns;
}

/*
 * A frame that does not follow @prev on the same open link: the link was
 * opened again (a relay started anew over a --listen stream), and the body
 * is built again. Open, the ticks follow each other, and each one the
 * reader skipped counts as missed; the missed count starts again at each
 * open, and the tick numbers go on.
 */
static bool new_link(const struct dcm_sim_cmd *prev, const struct dcm_sim_cmd *cmd)
{
	uint32_t gap = cmd->seq - prev->seq;

	if (gap == 1)
		return false;
	if (gap == 0 || gap > INT32_MAX)
		return true;
	return (uint64_t)cmd->missed < (uint64_t)prev->missed + gap - 1;
}

/**
 * phys_serve() - serve a link until it ends
 * @l: the link: /dev/dcm_sim_body<N> or any descriptor alike, or a stream
 *	that carries the same frames back to back (dcm-physics --listen)
 * @opts: how the physics steps
 * @max_ticks: stop after so many ticks (0: never)
 * @stop: set (by a signal handler) to stop after the tick under way
 * @report_every: print the figures so far every so many ticks (0: never)
 * @stats: filled with the figures (phys_stats_free() frees them)
 *
 * The first frame's joint positions build the body, and so do those of a
 * frame from a link opened again (a relay started anew over the same
 * stream: new_link()). A read that ends the file ends the service. Errors
 * are printed on stderr, one line each.
 *
 * Return: 0, or -1 after an error (a short or bad frame, a failed write).
 */
/* The body built in the pose of the command @cmd; NULL (said on stderr) when it cannot be. */
static struct phys_body *body_at(const struct dcm_sim_cmd *cmd, const struct phys_opts *opts)
{
	int32_t pos[DCM_SIM_JOINTS];
	struct phys_body *b;
	int j;

	for (j = 0; j < DCM_SIM_JOINTS; j++)
		pos[j] = cmd->joint[j].pos_urad;
	b = phys_create(pos, opts);
	if (!b)
		fprintf(stderr, "dcm-physics: cannot build the body: %s\n", strerror(errno));
	return b;
}

/* One tick: @cmd applied, the body stepped, its state written back. -1 when it cannot be. */
static int tick(const struct phys_link *l, struct phys_body *b, const struct dcm_sim_cmd *cmd,
		struct phys_stats *stats)
{
	struct dcm_sim_state st;
	uint64_t t0 = now_ns();
	ssize_t n;

	phys_apply(b, cmd);
	phys_step(b, cmd->dt_us);
	phys_state(b, cmd->seq, &st);
	stats_add(stats, now_ns() - t0);
	n = link_write(l, &st, sizeof(st));
	if (n != (ssize_t)sizeof(st)) {
		fprintf(stderr, "dcm-physics: %s: state of tick %u: %s\n", l->name, cmd->seq,
			n < 0 ? strerror(errno) : "short write");
		return -1;
	}
	stats->ticks++;
	stats->last_seq = cmd->seq;
	stats->missed = cmd->missed;
	return 0;
}

int phys_serve(const struct phys_link *l, const struct phys_opts *opts, uint64_t max_ticks,
	       volatile int *stop, unsigned int report_every, struct phys_stats *stats)
{
	struct dcm_sim_cmd cmd, prev;
	struct phys_body *b;
	int rc;

	memset(stats, 0, sizeof(*stats));
	rc = read_cmd(l, stop, &cmd);
	if (rc <= 0)
		return rc;
	b = body_at(&cmd, opts);
	if (!b)
		return -1;
	stats->first_seq = cmd.seq;
	for (;;) {
		rc = tick(l, b, &cmd, stats);
		if (rc)
			break;
		if (report_every && stats->ticks % report_every == 0)
			phys_stats_print(stats, stderr);
		if (max_ticks && stats->ticks >= max_ticks)
			break;
		prev = cmd;
		rc = read_cmd(l, stop, &cmd);
		if (rc <= 0)
			break;
		if (new_link(&prev, &cmd)) {
			fprintf(stderr, "dcm-physics: %s: tick %u after %u: the link was opened "
				"again; the body is built again\n", l->name, cmd.seq, prev.seq);
			phys_destroy(b);
			b = body_at(&cmd, opts);
			if (!b)
				return -1;
			stats->relinks++;
			stats->link_ticks = stats->ticks;
			stats->first_seq = cmd.seq;
		}
	}
	phys_destroy(b);
	return rc < 0 ? -1 : 0;
}

/**
 * phys_relay() - carry a link's frames over a stream, both ways
 * @dev: the link (/dev/dcm_sim_body<N>)
 * @port: a stream to a dcm-physics --listen elsewhere (a virtio or serial
 *	port of the VM, ...)
 * @stop: set (by a signal handler) to stop after the tick under way
 * @ticks: the frames carried each way so far
 *
 * For a physics that runs outside the machine of the link: each command
 * frame read from @dev is written whole to @port, then the state read
 * whole from @port is written to @dev, in lockstep. The frames are
 * checked where the physics runs.
 *
 * Return: 0 when either side ends or on a stop, -1 on an error (printed).
 */
int phys_relay(const struct phys_link *dev, const struct phys_link *port, volatile int *stop,
	       uint64_t *ticks)
{
	struct dcm_sim_cmd cmd;
	struct dcm_sim_state st;
	ssize_t n;

	*ticks = 0;
	for (;;) {
		n = link_read(dev, &cmd, sizeof(cmd), stop);
		if (n == 0)
			return 0;
		if (n != (ssize_t)sizeof(cmd)) {
			if (n > 0 && stop && *stop)
				return 0;
			fprintf(stderr, "dcm-physics: %s: %s\n", dev->name,
				n < 0 ? strerror(errno) : "short frame");
			return -1;
		}
		if (link_write(port, &cmd, sizeof(cmd)) != (ssize_t)sizeof(cmd)) {
			fprintf(stderr, "dcm-physics: %s: %s\n", port->name, strerror(errno));
			return -1;
		}
		n = link_read(port, &st, sizeof(st), NULL);
		if (n == 0)
			return 0;
		if (n != (ssize_t)sizeof(st)) {
			fprintf(stderr, "dcm-physics: %s: %s\n", port->name,
				n < 0 ? strerror(errno) : "short frame");
			return -1;
		}
		if (link_write(dev, &st, sizeof(st)) != (ssize_t)sizeof(st)) {
			fprintf(stderr, "dcm-physics: %s: state of tick %u: %s\n", dev->name,
				st.seq, strerror(errno));
			return -1;
		}
		(*ticks)++;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/**
 * phys_stats_print() - the figures, one line
 * @stats: what phys_serve() measured (its samples get sorted)
 * @f: where to
 *
 * The ticks served, the link's missed count, the mean and 99th percentile
 * of one tick's physics, the real-time factor (a 10 ms tick over the mean
 * work) and the ticks served over the ticks that passed.
 */
void phys_stats_print(const struct phys_stats *stats, FILE *f)
{
	uint64_t sum = 0, p99 = 0;
	uint32_t elapsed = 0;
	double mean = 0;
	size_t i;

	if (stats->n) {
		qsort(stats->work_ns, stats->n, sizeof(uint64_t), cmp_u64);
		for (i = 0; i < stats->n; i++)
			sum += stats->work_ns[i];
		mean = (double)sum / stats->n;
		p99 = stats->work_ns[(stats->n * 99) / 100 < stats->n ? (stats->n * 99) / 100 :
				     stats->n - 1];
	}
	if (stats->ticks > stats->link_ticks)
		elapsed = stats->last_seq - stats->first_seq + 1;
	fprintf(f, "dcm-physics: %llu ticks, %u missed, physics %.3f ms mean, %.3f ms p99 a tick, "
		"real-time factor %.2f, %llu of %u ticks served",
		(unsigned long long)stats->ticks, stats->missed, mean / 1e6, p99 / 1e6,
		mean > 0 ? 1e7 / mean : 0, (unsigned long long)(stats->ticks - stats->link_ticks),
		elapsed);
	if (stats->relinks)
		fprintf(f, " (the last link's; opened %u times)", stats->relinks + 1);
	fputc('\n', f);
}

/**
 * phys_stats_free() - free what phys_serve() kept
 * @stats: its figures
 */
void phys_stats_free(struct phys_stats *stats)
{
	free(stats->work_ns);
	stats->work_ns = NULL;
	stats->n = stats->cap = 0;
}
