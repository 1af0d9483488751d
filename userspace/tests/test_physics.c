// SPDX-License-Identifier: GPL-2.0
/*
 * dcm-physics: the rigid-body NAO (physics/body.c) at 1 ms steps, and the
 * link's service (physics/link.c) against a fake dcm_sim over a socket
 * pair. The checks are on measured quantities: the FSRs' total against
 * the model's mass, the centre of pressure against the feet and the
 * centre of mass, the inertial angles, the motors' currents.
 */
#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "../nao/nao_model.h"
#include "../physics/physics.h"

#define TICK_US	10000

struct sim {
	struct phys_body *b;
	struct dcm_sim_cmd cmd;
	struct dcm_sim_state st;
	double q[DCM_SIM_JOINTS];	/* the targets, rad */
	uint32_t seq;
};

static int sim_setup(void **state)
{
	*state = calloc(1, sizeof(struct sim));
	return *state ? 0 : -1;
}

/* The body is freed here, so that a failed check leaks nothing. */
static int sim_teardown(void **state)
{
	struct sim *s = *state;

	phys_destroy(s->b);
	free(s);
	return 0;
}

static void sim_start(struct sim *s, double hardness)
{
	int32_t pos[DCM_SIM_JOINTS];
	int j;

	memset(s, 0, sizeof(*s));
	memcpy(s->q, phys_stand, sizeof(s->q));
	for (j = 0; j < DCM_SIM_JOINTS; j++)
		pos[j] = (int32_t)lround(phys_stand[j] * 1e6);
	s->b = phys_create(pos, NULL);
	assert_non_null(s->b);
	s->cmd.magic = DCM_SIM_LINK_MAGIC;
	s->cmd.dt_us = TICK_US;
	for (j = 0; j < DCM_SIM_JOINTS; j++) {
		s->cmd.joint[j].limit_ma = (int32_t)lround(phys_current_max_ma[j] * hardness);
		s->cmd.joint[j].flags = hardness > 0 ? DCM_SIM_JOINT_LOOP : 0;
	}
}

static void sim_tick(struct sim *s)
{
	int j;

	for (j = 0; j < DCM_SIM_JOINTS; j++)
		s->cmd.joint[j].target_urad = (int32_t)lround(s->q[j] * 1e6);
	s->cmd.seq = s->seq;
	phys_apply(s->b, &s->cmd);
	phys_step(s->b, s->cmd.dt_us);
	phys_state(s->b, s->seq, &s->st);
	s->seq++;
}

static void sim_run(struct sim *s, int ticks)
{
	while (ticks--)
		sim_tick(s);
}

static double foot_g(const struct dcm_sim_state *st, int foot)
{
	double sum = 0;
	int i;

	for (i = 0; i < DCM_SIM_FOOT_FSRS; i++)
		sum += st->fsr_g[foot][i];
	return sum;
}

static double total_g(const struct dcm_sim_state *st)
{
	return foot_g(st, 0) + foot_g(st, 1);
}

static double deg(int32_t urad)
{
	return urad * 1e-6 * 180 / M_PI;
}

/* Both knees' mean current over @ticks ticks, mA. */
static double knee_ma(struct sim *s, int ticks)
{
	double sum = 0;
	int t;

	for (t = 0; t < ticks; t++) {
		sim_tick(s);
		sum += s->st.current_ma[DCM_SIM_L_KNEE_PITCH] + s->st.current_ma[DCM_SIM_R_KNEE_PITCH];
	}
	return sum / (2.0 * ticks);
}

/*
 * Stand: the standing posture at full hardness with the legs' real current
 * limits. After 2 s to settle, for 10 s: the FSRs' total within 5 % of the
 * model's mass, the centre of pressure inside the support polygon, the
 * torso within 15 degrees of upright, the accelerometer reading gravity.
 */
static void test_stand(void **state)
{
	struct sim *sp = *state;
	double mass_g, cop[2];
	int t;

	sim_start(sp, 1.0);
	mass_g = phys_mass(sp->b) * 1000;
	assert_true(mass_g > 5000 && mass_g < 5600);	/* a NAO: about 5.3 kg */
	sim_run(sp, 200);
	for (t = 0; t < 1000; t++) {
		sim_tick(sp);
		if (fabs(total_g(&sp->st) - mass_g) > 0.05 * mass_g)
			fail_msg("t=%.2f s: the FSRs bear %.0f g, the body is %.0f g",
				 2 + t * 0.01, total_g(&sp->st), mass_g);
		assert_true(phys_cop(sp->b, cop));
		if (!phys_in_support(sp->b, cop))
			fail_msg("t=%.2f s: centre of pressure (%.3f, %.3f) outside the feet",
				 2 + t * 0.01, cop[0], cop[1]);
		assert_true(fabs(deg(sp->st.angle_urad[0])) < 15);
		assert_true(fabs(deg(sp->st.angle_urad[1])) < 15);
	}
	/* Both feet bear weight; the accelerometer reads about -1 g on Z */
	assert_true(foot_g(&sp->st, 0) > 0.3 * mass_g && foot_g(&sp->st, 1) > 0.3 * mass_g);
	assert_true(sp->st.acc_ug[2] < -900000 && sp->st.acc_ug[2] > -1100000);
	/* The board's convention: pitched forward, acc X = +sin(pitch) g */
	assert_true(fabs(sp->st.acc_ug[0] - sin(sp->st.angle_urad[1] * 1e-6) * 1e6) < 20000);
	assert_true(fabs(sp->st.acc_ug[1] + sin(sp->st.angle_urad[0] * 1e-6) * 1e6) < 20000);
	/* Every leg motor draws current, none beyond its limit */
	for (t = DCM_SIM_L_HIP_YAW_PITCH; t <= DCM_SIM_R_ANKLE_ROLL; t++)
		assert_true(sp->st.current_ma[t] > 0 && sp->st.current_ma[t] <= 2000);
}

/* Fall: from standing, all loops off: the torso past 45 degrees within 2 s. */
static void test_fall(void **state)
{
	struct sim *sp = *state;
	int t, j, fallen = -1;

	sim_start(sp, 1.0);
	sim_run(sp, 100);
	assert_true(fabs(deg(sp->st.angle_urad[1])) < 15);
	for (j = 0; j < DCM_SIM_JOINTS; j++) {
		sp->cmd.joint[j].flags = 0;
		sp->cmd.joint[j].limit_ma = 0;
	}
	for (t = 0; t < 200 && fallen < 0; t++) {
		sim_tick(sp);
		if (fabs(deg(sp->st.angle_urad[0])) > 45 || fabs(deg(sp->st.angle_urad[1])) > 45)
			fallen = t;
	}
	if (fallen < 0)
		fail_msg("still up after 2 s: roll %.1f, pitch %.1f degrees",
			 deg(sp->st.angle_urad[0]), deg(sp->st.angle_urad[1]));
	/* No loop: no current */
	for (j = 0; j < DCM_SIM_JOINTS; j++)
		assert_int_equal(sp->st.current_ma[j], 0);
}

/*
 * Squat: the knees bent 0.5 rad more in 2 s, hips and ankles half as much
 * each the other way (the torso keeps its pitch). The knees' torque grows
 * with their lever arm, so their currents rise; at rest, the centre of
 * pressure is under the centre of mass (statics): it moves as the centre
 * of mass does; the FSRs still bear the weight.
 */
static void test_squat(void **state)
{
	struct sim *sp = *state;
	double mass_g, before_ma, after_ma, cop0[2], cop1[2], com0[3], com1[3];
	int t;

	sim_start(sp, 1.0);
	mass_g = phys_mass(sp->b) * 1000;
	sim_run(sp, 200);
	before_ma = knee_ma(sp, 50);
	assert_true(phys_cop(sp->b, cop0));
	phys_com(sp->b, com0);
	for (t = 1; t <= 200; t++) {
		double d = 0.5 * t / 200;

		sp->q[DCM_SIM_L_KNEE_PITCH] = sp->q[DCM_SIM_R_KNEE_PITCH] = 0.70 + d;
		sp->q[DCM_SIM_L_HIP_PITCH] = sp->q[DCM_SIM_R_HIP_PITCH] = -0.45 - d / 2;
		sp->q[DCM_SIM_L_ANKLE_PITCH] = sp->q[DCM_SIM_R_ANKLE_PITCH] = -0.35 - d / 2;
		sim_tick(sp);
	}
	sim_run(sp, 150);
	after_ma = knee_ma(sp, 50);
	assert_true(phys_cop(sp->b, cop1));
	phys_com(sp->b, com1);
	print_message("squat: knees %.0f -> %.0f mA, CoM x %.1f -> %.1f mm, CoP x %.1f -> %.1f mm, "
		      "CoM z %.1f -> %.1f mm\n", before_ma, after_ma, com0[0] * 1e3, com1[0] * 1e3,
		      cop0[0] * 1e3, cop1[0] * 1e3, com0[2] * 1e3, com1[2] * 1e3);
	assert_true(com1[2] < com0[2] - 0.01);		/* it went down */
	assert_true(after_ma > before_ma + 50);
	assert_true(fabs(total_g(&sp->st) - mass_g) < 0.05 * mass_g);
	/* The centre of pressure followed the centre of mass, within 5 mm */
	assert_true(fabs((cop1[0] - cop0[0]) - (com1[0] - com0[0])) < 0.005);
	assert_true(fabs(cop1[0] - com1[0]) < 0.01);
}

/*
 * Weight shift: hip rolls and ankle rolls tilt the legs so that the torso
 * moves over one foot while the other leg shortens (its knee bends 0.15 rad
 * more, its hip and ankle half as much each), slowly (2 s), then hold 1 s:
 * at least 80 % of the weight on that foot.
 */
static void shift(struct sim *sp, int foot)
{
	double side = foot ? -1 : 1, mass_g, share;
	int t;

	sim_start(sp, 1.0);
	mass_g = phys_mass(sp->b) * 1000;
	sim_run(sp, 100);
	for (t = 1; t <= 200; t++) {
		double a = 0.28 * side * t / 200, k = 0.15 * t / 200;
		int knee = foot ? DCM_SIM_L_KNEE_PITCH : DCM_SIM_R_KNEE_PITCH;

		/* Hip roll -a moves the feet to the right of the hips: the torso left */
		sp->q[DCM_SIM_L_HIP_ROLL] = sp->q[DCM_SIM_R_HIP_ROLL] = -a;
		sp->q[DCM_SIM_L_ANKLE_ROLL] = sp->q[DCM_SIM_R_ANKLE_ROLL] = a;
		/* The other leg: pitch joints hip, knee, ankle in a row */
		sp->q[knee] = 0.70 + k;
		sp->q[knee - 1] = -0.45 - k / 2;
		sp->q[knee + 1] = -0.35 - k / 2;
		sim_tick(sp);
	}
	sim_run(sp, 100);
	share = foot_g(&sp->st, foot) / total_g(&sp->st);
	print_message("shift to the %s foot: %.0f %% of %.0f g there (body %.0f g)\n",
		      foot ? "right" : "left", share * 100, total_g(&sp->st), mass_g);
	assert_true(share >= 0.80);
	assert_true(fabs(total_g(&sp->st) - mass_g) < 0.05 * mass_g);
}

static void test_shift_left(void **state)
{
	shift(*state, 0);
}

static void test_shift_right(void **state)
{
	shift(*state, 1);
}

/* ---- the link, against a fake dcm_sim over a socket pair ---- */

static void fake_cmd(struct dcm_sim_cmd *c, uint32_t seq)
{
	int j;

	memset(c, 0, sizeof(*c));
	c->magic = DCM_SIM_LINK_MAGIC;
	c->seq = seq;
	c->dt_us = TICK_US;
	c->missed = 2;
	for (j = 0; j < DCM_SIM_JOINTS; j++) {
		c->joint[j].target_urad = (int32_t)lround(phys_stand[j] * 1e6);
		c->joint[j].pos_urad = c->joint[j].target_urad;
		c->joint[j].limit_ma = phys_current_max_ma[j];
		c->joint[j].flags = DCM_SIM_JOINT_LOOP;
	}
}

/*
 * Runs phys_serve() in a child on @fd, @stream or not, @other (the
 * parent's end, or -1) closed there; exits 0 or 1.
 */
static pid_t serve_fd(int fd, int other, bool stream, uint64_t max_ticks)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (!pid) {
		if (other >= 0)
			close(other);
		struct phys_link l = { .fd = fd, .name = "fake", .stream = stream };
		struct phys_stats st;
		int rc;

		rc = phys_serve(&l, NULL, max_ticks, NULL, 0, &st);
		phys_stats_free(&st);
		_exit(rc ? 1 : 0);
	}
	return pid;
}

/* Runs phys_serve() in a child on one end; returns the other end. */
static int serve_child(pid_t *pid, uint64_t max_ticks)
{
	int sv[2];

	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
	*pid = serve_fd(sv[1], sv[0], false, max_ticks);
	close(sv[1]);
	return sv[0];
}

/* All of @len from a stream */
static void read_all(int fd, void *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, (char *)buf + got, len - got);

		assert_true(n > 0);
		got += (size_t)n;
	}
}

static int child_status(pid_t pid)
{
	int status;

	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* Each frame answered with its seq, whole, in range; EOF ends it (0). */
static void test_link_serves(void **state)
{
	struct dcm_sim_cmd c;
	struct dcm_sim_state st;
	uint32_t seq;
	pid_t pid;
	int fd;

	(void)state;
	fd = serve_child(&pid, 0);
	for (seq = 100; seq < 150; seq++) {
		fake_cmd(&c, seq);
		assert_int_equal(write(fd, &c, sizeof(c)), sizeof(c));
		assert_int_equal(read(fd, &st, sizeof(st)), sizeof(st));
		assert_int_equal(st.magic, DCM_SIM_LINK_MAGIC);
		assert_int_equal(st.seq, seq);
		assert_true(st.flags == 0);
		assert_true(labs(st.pos_urad[DCM_SIM_L_KNEE_PITCH] - 700000) < 50000);
	}
	/* Standing: the feet bear about the robot's weight */
	assert_true(total_g(&st) > 5000 && total_g(&st) < 5600);
	shutdown(fd, SHUT_WR);
	assert_int_equal(child_status(pid), 0);
	close(fd);
}

/* --ticks: the service stops after so many */
static void test_link_max_ticks(void **state)
{
	struct dcm_sim_cmd c;
	struct dcm_sim_state st;
	pid_t pid;
	int fd, i;

	(void)state;
	fd = serve_child(&pid, 3);
	for (i = 0; i < 3; i++) {
		fake_cmd(&c, i);
		assert_int_equal(write(fd, &c, sizeof(c)), sizeof(c));
		assert_int_equal(read(fd, &st, sizeof(st)), sizeof(st));
	}
	assert_int_equal(child_status(pid), 0);
	assert_int_equal(read(fd, &st, sizeof(st)), 0);
	close(fd);
}

/* A short frame, a bad magic, out-of-range values: refused, exit 1. */
static void hostile(const void *frame, size_t len)
{
	struct dcm_sim_cmd c;
	struct dcm_sim_state st;
	pid_t pid;
	int fd;

	fd = serve_child(&pid, 0);
	/* A good first tick, then the hostile one */
	fake_cmd(&c, 1);
	assert_int_equal(write(fd, &c, sizeof(c)), sizeof(c));
	assert_int_equal(read(fd, &st, sizeof(st)), sizeof(st));
	assert_int_equal(write(fd, frame, len), (ssize_t)len);
	assert_int_equal(child_status(pid), 1);
	close(fd);
}

static void test_link_hostile(void **state)
{
	struct dcm_sim_cmd c;
	char why[128];

	(void)state;
	fake_cmd(&c, 2);
	hostile(&c, sizeof(c) - 4);			/* short */
	c.magic = 0x12345678;
	assert_int_equal(phys_check_cmd(&c, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "magic"));
	hostile(&c, sizeof(c));
	fake_cmd(&c, 2);
	c.dt_us = 0;
	assert_int_equal(phys_check_cmd(&c, why, sizeof(why)), -EINVAL);
	hostile(&c, sizeof(c));
	fake_cmd(&c, 2);
	c.joint[5].limit_ma = -1;
	assert_int_equal(phys_check_cmd(&c, why, sizeof(why)), -ERANGE);
	hostile(&c, sizeof(c));
	fake_cmd(&c, 2);
	c.joint[3].target_urad = DCM_SIM_POS_MAX_URAD + 1;
	assert_int_equal(phys_check_cmd(&c, why, sizeof(why)), -ERANGE);
	hostile(&c, sizeof(c));
	fake_cmd(&c, 2);
	c.joint[0].flags = 0x80;
	assert_int_equal(phys_check_cmd(&c, why, sizeof(why)), -EINVAL);
	hostile(&c, sizeof(c));
	fake_cmd(&c, 2);
	assert_int_equal(phys_check_cmd(&c, why, sizeof(why)), 0);
}

/* --listen's stream: frames in pieces are put together; answered whole */
static void test_link_stream(void **state)
{
	struct dcm_sim_cmd c;
	struct dcm_sim_state st;
	uint32_t seq;
	pid_t pid;
	int sv[2];

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	pid = serve_fd(sv[1], sv[0], true, 0);
	close(sv[1]);
	for (seq = 7; seq < 27; seq++) {
		size_t half = sizeof(c) / 2 + seq;

		fake_cmd(&c, seq);
		assert_int_equal(write(sv[0], &c, half), (ssize_t)half);
		usleep(1000);
		assert_int_equal(write(sv[0], (char *)&c + half, sizeof(c) - half),
				 (ssize_t)(sizeof(c) - half));
		read_all(sv[0], &st, sizeof(st));
		assert_int_equal(st.magic, DCM_SIM_LINK_MAGIC);
		assert_int_equal(st.seq, seq);
	}
	/* A frame cut by the end of the stream is an error */
	assert_int_equal(write(sv[0], &c, 100), 100);
	shutdown(sv[0], SHUT_WR);
	assert_int_equal(child_status(pid), 1);
	close(sv[0]);
}

/*
 * A link opened again over --listen's stream (a relay started anew): its
 * first frame's posture builds the body again. Frames that skip ticks the
 * link counted missed are the same link.
 */
static void test_link_relinks(void **state)
{
	struct dcm_sim_cmd c;
	struct dcm_sim_state st;
	uint32_t seq;
	pid_t pid;
	int sv[2], j;

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	pid = serve_fd(sv[1], sv[0], true, 0);
	close(sv[1]);
	for (seq = 100; seq < 130; seq += seq < 120 ? 1 : 3) {
		fake_cmd(&c, seq);
		/* two ticks skipped after 120, each counted missed */
		c.missed = seq < 120 ? 2 : 2 + 2 * ((seq - 120) / 3 + 1);
		assert_int_equal(write(sv[0], &c, sizeof(c)), (ssize_t)sizeof(c));
		read_all(sv[0], &st, sizeof(st));
		assert_int_equal(st.seq, seq);
		assert_true(labs(st.pos_urad[DCM_SIM_L_KNEE_PITCH] - 700000) < 50000);
	}
	/* Opened again later, the legs straight: the missed count starts at 0 */
	fake_cmd(&c, 400);
	c.missed = 0;
	for (j = 0; j < DCM_SIM_JOINTS; j++)
		c.joint[j].target_urad = c.joint[j].pos_urad = 0;
	assert_int_equal(write(sv[0], &c, sizeof(c)), (ssize_t)sizeof(c));
	read_all(sv[0], &st, sizeof(st));
	assert_int_equal(st.seq, 400);
	assert_true(labs(st.pos_urad[DCM_SIM_L_KNEE_PITCH]) < 50000);
	shutdown(sv[0], SHUT_WR);
	assert_int_equal(child_status(pid), 0);
	close(sv[0]);
}

/*
 * --relay: the device's frames carried over a stream to a --listen
 * elsewhere and back: the "kernel" end gets each tick's state.
 */
static void test_link_relay(void **state)
{
	struct dcm_sim_cmd c;
	struct dcm_sim_state st;
	int dev[2], port[2];
	pid_t relay, server;
	uint32_t seq;

	(void)state;
	/* Each child holds its own ends only, so that closing ends them */
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, port), 0);
	server = serve_fd(port[1], port[0], true, 0);
	close(port[1]);
	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, dev), 0);
	relay = fork();
	assert_true(relay >= 0);
	if (!relay) {
		struct phys_link d = { .fd = dev[1], .name = "dev" };
		struct phys_link p = { .fd = port[0], .name = "port", .stream = true };
		uint64_t ticks;
		int rc;

		close(dev[0]);
		rc = phys_relay(&d, &p, NULL, &ticks);
		_exit(rc || ticks != 30 ? 1 : 0);
	}
	close(dev[1]);
	close(port[0]);
	for (seq = 1; seq <= 30; seq++) {
		fake_cmd(&c, seq);
		assert_int_equal(write(dev[0], &c, sizeof(c)), sizeof(c));
		assert_int_equal(read(dev[0], &st, sizeof(st)), sizeof(st));
		assert_int_equal(st.seq, seq);
	}
	assert_true(total_g(&st) > 5000 && total_g(&st) < 5600);
	/* The device closed: the relay ends, then the server */
	close(dev[0]);
	assert_int_equal(child_status(relay), 0);
	assert_int_equal(child_status(server), 0);
}

/* A missing link: one line that says what to check */
static void test_link_missing(void **state)
{
	char why[256];

	(void)state;
	errno = 0;
	assert_int_equal(phys_open_link("/nonexistent/dcm_sim_body0", why, sizeof(why)), -1);
	assert_int_equal(errno, ENOENT);
	assert_string_equal(why, "/nonexistent/dcm_sim_body0: No such file or directory "
			    "(is dcm_sim loaded?)");
}

/*
 * --relay NAME's lookup in a fake sysfs (@sys) and /dev (@dev): what is
 * there decides what the message names as missing.
 */
struct fake_sys {
	char root[64], sys[96], dev[96];
};

/* @root/@rel with @text in it, its directories made. */
static void put(const char *root, const char *rel, const char *text)
{
	char path[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		assert_true(!mkdir(path, 0755) || errno == EEXIST);
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int fake_sys_setup(void **state)
{
	struct fake_sys *fs = calloc(1, sizeof(*fs));

	assert_non_null(fs);
	snprintf(fs->root, sizeof(fs->root), "/tmp/test_physics.XXXXXX");
	assert_non_null(mkdtemp(fs->root));
	snprintf(fs->sys, sizeof(fs->sys), "%s/sys", fs->root);
	snprintf(fs->dev, sizeof(fs->dev), "%s/dev", fs->root);
	assert_int_equal(mkdir(fs->sys, 0755), 0);
	assert_int_equal(mkdir(fs->dev, 0755), 0);
	*state = fs;
	return 0;
}

static int fake_sys_teardown(void **state)
{
	struct fake_sys *fs = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fs->root);
	assert_int_equal(system(cmd), 0);
	free(fs);
	return 0;
}

/* phys_port_find() of "dcm.physics" is 1 and its message holds @want. */
static void port_missing(const struct fake_sys *fs, const char *want)
{
	char out[256], why[512];

	assert_int_equal(phys_port_find(fs->sys, fs->dev, "dcm.physics", out, sizeof(out), why,
					sizeof(why)), 1);
	if (!strstr(why, want))
		fail_msg("'%s' does not say '%s'", why, want);
}

static void test_port_lookup(void **state)
{
	struct fake_sys *fs = *state;
	char out[256], why[512], path[256];

	/* Not a VM: no virtio device at all */
	put(fs->sys, "bus/pci/devices/0000:00:01.0/vendor", "0x8086\n");
	port_missing(fs, "no virtio device at all");
	port_missing(fs, "without --relay");
	/* A virtio PCI device, but no console among them */
	put(fs->sys, "bus/pci/devices/0000:00:02.0/vendor", "0x1af4\n");
	put(fs->sys, "bus/pci/devices/0000:00:02.0/device", "0x1001\n");
	port_missing(fs, "no virtio console device");
	/* QEMU's virtio-serial-pci, no virtio_pci: nothing on the virtio bus */
	put(fs->sys, "bus/pci/devices/0000:00:03.0/vendor", "0x1af4\n");
	put(fs->sys, "bus/pci/devices/0000:00:03.0/device", "0x1003\n");
	port_missing(fs, "virtio_pci is not loaded");
	/* virtio_pci made the virtio devices; no virtio_console binds the console */
	put(fs->sys, "bus/virtio/devices/virtio0/device", "0x0002\n");
	put(fs->sys, "bus/virtio/devices/virtio1/device", "0x0003\n");
	port_missing(fs, "virtio_console is not loaded");
	/* Bound, but the port is not there yet */
	snprintf(path, sizeof(path), "%s/bus/virtio/devices/virtio1/driver", fs->sys);
	assert_int_equal(mkdir(path, 0755), 0);
	port_missing(fs, "the virtio console has no port yet");
	/* Ports, not that one: their names are said */
	put(fs->sys, "class/virtio-ports/vport1p1/name", "org.qemu.guest_agent.0\n");
	port_missing(fs, "no virtio serial port of that name (there are: org.qemu.guest_agent.0)");
	/* The port in sysfs, its /dev node not yet (or not a device) */
	put(fs->sys, "class/virtio-ports/vport1p2/name", "dcm.physics\n");
	port_missing(fs, "is no device (yet)");
	put(fs->dev, "vport1p2", "a regular file\n");
	port_missing(fs, "is no device (yet)");
	/* Its node a character device (here a link to /dev/null): found */
	snprintf(path, sizeof(path), "%s/vport1p2", fs->dev);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(symlink("/dev/null", path), 0);
	assert_int_equal(phys_port_find(fs->sys, fs->dev, "dcm.physics", out, sizeof(out), why,
					sizeof(why)), 0);
	assert_string_equal(out, path);
	/* A name is matched whole: no prefix, no other case */
	assert_int_equal(phys_port_find(fs->sys, fs->dev, "dcm", out, sizeof(out), why,
					sizeof(why)), 1);
	assert_int_equal(phys_port_find(fs->sys, fs->dev, "DCM.PHYSICS", out, sizeof(out), why,
					sizeof(why)), 1);
}

/* A path that cannot fit is refused, not cut */
static void test_port_long(void **state)
{
	struct fake_sys *fs = *state;
	char out[16], why[512];

	put(fs->sys, "class/virtio-ports/vport1p2/name", "dcm.physics\n");
	assert_int_equal(phys_port_find(fs->sys, fs->dev, "dcm.physics", out, sizeof(out), why,
					sizeof(why)), -1);
	assert_non_null(strstr(why, "path too long"));
}

/*
 * The port comes while the relay waits (virtio_console loaded after it was
 * started): it is found. The wait is generous; only that it is found is
 * checked. And a stop asked for ends the wait at once.
 */
static void test_port_wait(void **state)
{
	struct fake_sys *fs = *state;
	volatile int stop = 0;
	char out[256], why[512], path[256];
	pid_t pid;

	put(fs->sys, "bus/virtio/devices/virtio1/device", "0x0003\n");
	snprintf(path, sizeof(path), "%s/vport1p2", fs->dev);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		nanosleep(&(struct timespec){ .tv_nsec = 300000000 }, NULL);
		put(fs->sys, "class/virtio-ports/vport1p2/name", "dcm.physics\n");
		_exit(symlink("/dev/null", path) ? 1 : 0);
	}
	assert_int_equal(phys_port_wait(fs->sys, fs->dev, "dcm.physics", 120, &stop, out,
					sizeof(out), why, sizeof(why)), 0);
	assert_string_equal(out, path);
	assert_int_equal(child_status(pid), 0);

	stop = 1;
	assert_int_equal(phys_port_wait(fs->sys, fs->dev, "other", 3600, &stop, out,
					sizeof(out), why, sizeof(why)), 1);
	assert_non_null(strstr(why, "no virtio serial port of that name"));
}

/* A body cannot be built with 0 substeps or iterations, nor too many */
static void test_create_refuses(void **state)
{
	int32_t pos[DCM_SIM_JOINTS] = { 0 };
	struct phys_opts o[] = {
		{ 0, PHYS_ITERATIONS_DEFAULT }, { PHYS_SUBSTEPS_MAX + 1, PHYS_ITERATIONS_DEFAULT },
		{ PHYS_SUBSTEPS_DEFAULT, 0 }, { PHYS_SUBSTEPS_DEFAULT, PHYS_ITERATIONS_MAX + 1 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(o) / sizeof(o[0]); i++) {
		errno = 0;
		assert_null(phys_create(pos, &o[i]));
		assert_int_equal(errno, EINVAL);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_stand, sim_setup, sim_teardown),
		cmocka_unit_test_setup_teardown(test_fall, sim_setup, sim_teardown),
		cmocka_unit_test_setup_teardown(test_squat, sim_setup, sim_teardown),
		cmocka_unit_test_setup_teardown(test_shift_left, sim_setup, sim_teardown),
		cmocka_unit_test_setup_teardown(test_shift_right, sim_setup, sim_teardown),
		cmocka_unit_test(test_link_serves),
		cmocka_unit_test(test_link_max_ticks),
		cmocka_unit_test(test_link_hostile),
		cmocka_unit_test(test_link_missing),
		cmocka_unit_test(test_link_stream),
		cmocka_unit_test(test_link_relinks),
		cmocka_unit_test(test_link_relay),
		cmocka_unit_test(test_create_refuses),
		cmocka_unit_test_setup_teardown(test_port_lookup, fake_sys_setup, fake_sys_teardown),
		cmocka_unit_test_setup_teardown(test_port_long, fake_sys_setup, fake_sys_teardown),
		cmocka_unit_test_setup_teardown(test_port_wait, fake_sys_setup, fake_sys_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
