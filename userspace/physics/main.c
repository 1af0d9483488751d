// SPDX-License-Identifier: GPL-2.0
/*
 * dcm-physics - the simulated NAO's rigid-body physics, in lockstep with
 * dcm_sim's cycle through /dev/dcm_sim_body<N> (Documentation/dcm/
 * physics.rst, dcm-physics(8)).
 */

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "nao_model.h"
#include "nao_urdf.h"
#include "num.h"
#include "optdef.h"
#include "physics.h"

static volatile int stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

#define STR_(x) #x
#define STR(x) STR_(x)

/* The options: getopt_long()'s tables and the help (common/optdef.h). */
static const struct optdef optdefs[] = {
	{ "device", 'd', 0, "PATH", "the link (default /dev/dcm_sim_body0)" },
	{ "listen", 'l', 0, "SOCKET",
	  "serve the link's frames from the one client of a unix\n"
	  "stream socket instead (a --relay elsewhere)" },
	{ "relay", 'r', 0, "PORT",
	  "no physics: carry the link's frames over the stream\n"
	  "PORT (a serial or virtio port; a name without a slash:\n"
	  "the virtio port of that name) to a --listen elsewhere" },
	{ "wait", 'w', 0, "SECONDS",
	  "--relay: wait up to SECONDS for the port (default 10)" },
	{ "substeps", 's', 0, "N",
	  "physics steps per 10 ms (default " STR(PHYS_SUBSTEPS_DEFAULT) ", 1.."
	  STR(PHYS_SUBSTEPS_MAX) ")" },
	{ "iterations", 'i', 0, "N",
	  "the solver's iterations per step (default " STR(PHYS_ITERATIONS_DEFAULT) ", 1.."
	  STR(PHYS_ITERATIONS_MAX) "):\nfewer are faster and less exact" },
	{ "ticks", 't', 0, "N", "stop after N ticks" },
	{ "stats", 'S', 0, NULL, "the figures every 1000 ticks too, not only at the end" },
	{ "bench", 'b', 0, "N", "no link: the body stands N ticks of 10 ms; the figures" },
	{ "mass", 'm', 0, NULL, "print the model's mass, kg, and exit" },
	{ "urdf", 'u', 0, NULL, "print the model as a URDF (ROS's robot description) and exit" },
	{ "help", 'h', 0, NULL, "this text" },
	{ NULL, 0, 0, NULL, NULL }
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: dcm-physics [--device PATH | --listen SOCKET] [--substeps N]\n"
		"                   [--iterations N] [--ticks N] [--stats]\n"
		"       dcm-physics --relay PORT [--wait SECONDS] [--device PATH]\n"
		"       dcm-physics --bench N [--substeps N] [--iterations N]\n"
		"       dcm-physics --mass\n"
		"       dcm-physics --urdf\n");
	optdef_print(f, optdefs, 20);
}

/* An option's number, 0 to @max (common/num.h); said on stderr if not. */
static int parse_uint(const char *opt, const char *s, unsigned long long max,
		      unsigned long long *out)
{
	if (num_parse_ull(s, 10, 0, max, out)) {
		fprintf(stderr, "dcm-physics: %s: '%s' is not a number within 0..%llu\n", opt, s,
			max);
		return -1;
	}
	return 0;
}

/* --mass: the model's mass in kg, what its FSRs bear standing. */
static int print_mass(const struct phys_opts *opts)
{
	int32_t pos[DCM_SIM_JOINTS];
	struct phys_body *b;
	int j;

	for (j = 0; j < DCM_SIM_JOINTS; j++)
		pos[j] = (int32_t)lround(phys_stand[j] * 1e6);
	b = phys_create(pos, opts);
	if (!b) {
		fprintf(stderr, "dcm-physics: cannot build the body: %s\n", strerror(errno));
		return 1;
	}
	printf("%.3f\n", phys_mass(b));
	phys_destroy(b);
	return 0;
}

/* The body standing at full hardness for @ticks ticks, no link. */
static int bench(unsigned long long ticks, const struct phys_opts *opts)
{
	struct phys_stats stats = { 0 };
	struct dcm_sim_cmd cmd = { .magic = DCM_SIM_LINK_MAGIC, .dt_us = 10000 };
	struct dcm_sim_state st;
	struct phys_body *b;
	int32_t pos[DCM_SIM_JOINTS];
	unsigned long long t;
	int j;

	for (j = 0; j < DCM_SIM_JOINTS; j++) {
		pos[j] = (int32_t)lround(phys_stand[j] * 1e6);
		cmd.joint[j].target_urad = pos[j];
		cmd.joint[j].pos_urad = pos[j];
		cmd.joint[j].limit_ma = phys_current_max_ma[j];
		cmd.joint[j].flags = DCM_SIM_JOINT_LOOP;
	}
	b = phys_create(pos, opts);
	if (!b) {
		fprintf(stderr, "dcm-physics: cannot build the body: %s\n", strerror(errno));
		return 1;
	}
	stats.work_ns = malloc(ticks * sizeof(uint64_t));
	if (!stats.work_ns) {
		phys_destroy(b);
		fprintf(stderr, "dcm-physics: out of memory\n");
		return 1;
	}
	stats.cap = ticks;
	for (t = 0; t < ticks && !stop; t++) {
		struct timespec t0, t1;

		cmd.seq = (uint32_t)t;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		phys_apply(b, &cmd);
		phys_step(b, cmd.dt_us);
		phys_state(b, cmd.seq, &st);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		stats.work_ns[stats.n++] = (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000 +
					   t1.tv_nsec - t0.tv_nsec;
		stats.ticks++;
		stats.last_seq = cmd.seq;
	}
	phys_destroy(b);
	phys_stats_print(&stats, stdout);
	phys_stats_free(&stats);
	return 0;
}

/*
 * --listen: a unix stream socket at @path, its one client's connection.
 * A stale socket file at @path is replaced; any other file is not.
 */
static int accept_one(const char *path)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	struct stat sb;
	int s, c;

	if (strlen(path) >= sizeof(sun.sun_path)) {
		fprintf(stderr, "dcm-physics: %s: path too long for a socket\n", path);
		return -1;
	}
	strcpy(sun.sun_path, path);
	if (!lstat(path, &sb)) {
		if (!S_ISSOCK(sb.st_mode)) {
			fprintf(stderr, "dcm-physics: %s: exists and is no socket\n", path);
			return -1;
		}
		unlink(path);
	}
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0 || bind(s, (struct sockaddr *)&sun, sizeof(sun)) || listen(s, 1)) {
		fprintf(stderr, "dcm-physics: %s: %s\n", path, strerror(errno));
		if (s >= 0)
			close(s);
		return -1;
	}
	do
		c = accept4(s, NULL, NULL, SOCK_CLOEXEC);
	while (c < 0 && errno == EINTR && !stop);
	if (c < 0 && !stop)
		fprintf(stderr, "dcm-physics: %s: %s\n", path, strerror(errno));
	close(s);
	unlink(path);
	return c;
}

/*
 * --relay NAME: a word without a slash names a virtio serial port (QEMU's
 * virtserialport name=...): its /dev node, from /sys/class/virtio-ports,
 * waited for up to @wait_s seconds (the port comes some time after
 * virtio_console is loaded; physics/port.c).
 * Return: 0, or -1 after saying what is missing.
 */
static int port_path(const char *arg, unsigned long long wait_s, char *out, size_t len)
{
	const char *sys = "/sys", *dev = "/dev";
	char why[PATH_MAX + 256];
	int rc;

	if (strchr(arg, '/')) {
		snprintf(out, len, "%s", arg);
		return 0;
	}
	rc = phys_port_find(sys, dev, arg, out, len, why, sizeof(why));
	if (rc > 0 && wait_s && !stop) {
		fprintf(stderr, "dcm-physics: waiting up to %llu s for the port %s\n", wait_s, arg);
		rc = phys_port_wait(sys, dev, arg, (unsigned int)wait_s, &stop, out, len, why,
				    sizeof(why));
	}
	if (rc)
		fprintf(stderr, "dcm-physics: %s%s\n", why,
			rc > 0 && wait_s ? " (waited for it)" : "");
	return rc ? -1 : 0;
}

/* --relay: the link's frames over the stream @arg, both ways. */
static int run_relay(const char *dev, const char *arg, unsigned long long wait_s)
{
	char port[PATH_MAX], why[PATH_MAX + 128];
	struct phys_link d = { .name = dev }, p = { .name = port, .stream = true };
	struct termios tio;
	uint64_t ticks;
	int rc;

	if (port_path(arg, wait_s, port, sizeof(port)))
		return stop ? 0 : 1;
	d.fd = phys_open_link(dev, why, sizeof(why));
	if (d.fd < 0) {
		fprintf(stderr, "dcm-physics: %s\n", why);
		return 1;
	}
	p.fd = open(port, O_RDWR | O_CLOEXEC | O_NOCTTY);
	if (p.fd < 0) {
		fprintf(stderr, "dcm-physics: %s: %s\n", port, strerror(errno));
		close(d.fd);
		return 1;
	}
	/* A serial port carries the frames' bytes as they are */
	if (!tcgetattr(p.fd, &tio)) {
		cfmakeraw(&tio);
		tcsetattr(p.fd, TCSANOW, &tio);
	}
	rc = phys_relay(&d, &p, &stop, &ticks);
	fprintf(stderr, "dcm-physics: relayed %llu ticks\n", (unsigned long long)ticks);
	close(p.fd);
	close(d.fd);
	return rc ? 1 : 0;
}

/* What the command line asks for. */
struct phys_args {
	const char *dev, *listen_path, *relay;
	struct phys_opts popts;
	unsigned long long ticks, bench_ticks, wait_s;
	int every, mass, urdf;
};

/* A count option (--substeps, --iterations): 1 to @max. */
static int count_arg(const char *opt, const char *s, unsigned long long max,
		     unsigned int *out)
{
	unsigned long long v;

	if (parse_uint(opt, s, max, &v))
		return -1;
	if (!v) {
		fprintf(stderr, "dcm-physics: %s: at least 1\n", opt);
		return -1;
	}
	*out = (unsigned int)v;
	return 0;
}

/* One option @c (its argument in optarg) into @a: 0, or -1 after saying why. */
static int parse_opt(int c, struct phys_args *a)
{
	int r = 0;

	if (c == 'd') {
		a->dev = optarg;
	} else if (c == 'l') {
		a->listen_path = optarg;
	} else if (c == 'r') {
		a->relay = optarg;
	} else if (c == 'w') {
		r = parse_uint("--wait", optarg, 3600, &a->wait_s);
	} else if (c == 's') {
		r = count_arg("--substeps", optarg, PHYS_SUBSTEPS_MAX, &a->popts.substeps);
	} else if (c == 'i') {
		r = count_arg("--iterations", optarg, PHYS_ITERATIONS_MAX, &a->popts.iterations);
	} else if (c == 't') {
		r = parse_uint("--ticks", optarg, UINT32_MAX, &a->ticks);
	} else if (c == 'S') {
		a->every = 1;
	} else if (c == 'b') {
		r = parse_uint("--bench", optarg, 10000000, &a->bench_ticks);
		if (!r && !a->bench_ticks) {
			fprintf(stderr, "dcm-physics: --bench: at least 1 tick\n");
			r = -1;
		}
	} else if (c == 'm') {
		a->mass = 1;
	} else if (c == 'u') {
		a->urdf = 1;
	} else {
		usage(stderr);
		r = -1;
	}
	return r;
}

/*
 * The options into @a: 0 to run, 1 when the help is printed, -1 on a
 * usage error (said on stderr).
 */
static int parse_args(int argc, char **argv, struct phys_args *a)
{
	struct option opts[sizeof(optdefs) / sizeof(optdefs[0])];
	char sopts[2 * sizeof(optdefs) / sizeof(optdefs[0]) + 2];
	char why[256];
	int c;

	if (optdef_getopt(optdefs, ":", opts, sopts, sizeof(sopts))) {
		fprintf(stderr, "dcm-physics: the option table is too large\n");
		return -1;
	}
	optind = 0;	/* glibc: full reinitialisation */
	opterr = 0;
	while ((c = optdef_next(optdefs, argc, argv, sopts, opts, why, sizeof(why))) != -1) {
		if (c == '?') {
			fprintf(stderr, "dcm-physics: %s\n", why);
			usage(stderr);
			return -1;
		}
		if (c == 'h') {
			usage(stdout);
			return 1;
		}
		if (parse_opt(c, a))
			return -1;
	}
	if (optind < argc) {
		fprintf(stderr, "dcm-physics: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return -1;
	}
	return 0;
}

/* One link, a client of the socket or the simulated body's device, served until the end. */
static int serve(const struct phys_args *a)
{
	struct phys_link link = { .fd = -1 };
	struct phys_stats stats;
	char why[PATH_MAX + 128];
	int rc;

	if (a->listen_path) {
		link.fd = accept_one(a->listen_path);
		link.name = a->listen_path;
		link.stream = true;
	} else {
		link.fd = phys_open_link(a->dev, why, sizeof(why));
		link.name = a->dev;
		if (link.fd < 0)
			fprintf(stderr, "dcm-physics: %s\n", why);
	}
	if (link.fd < 0)
		return stop ? 0 : 1;
	rc = phys_serve(&link, &a->popts, a->ticks, &stop, a->every ? PHYS_STATS_EVERY : 0,
			&stats);
	close(link.fd);
	phys_stats_print(&stats, stderr);
	phys_stats_free(&stats);
	return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct phys_args a = { .dev = "/dev/dcm_sim_body0", .popts = PHYS_OPTS_DEFAULT,
			       .wait_s = 10 };
	struct sigaction sa;
	int r;

	r = parse_args(argc, argv, &a);
	if (r)
		return r > 0 ? 0 : 2;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: a blocked read returns */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	if (a.mass)
		return print_mass(&a.popts);
	if (a.urdf)
		return nao_urdf_write(stdout) || fflush(stdout) ? 1 : 0;
	if (a.bench_ticks)
		return bench(a.bench_ticks, &a.popts);

	if (a.listen_path && a.relay) {
		fprintf(stderr, "dcm-physics: --listen and --relay: one or the other\n");
		return 2;
	}
	if (a.relay)
		return run_relay(a.dev, a.relay, a.wait_s);
	return serve(&a);
}
