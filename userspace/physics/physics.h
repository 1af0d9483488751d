/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm-physics: a rigid-body NAO (ODE) stepped in lockstep with the cycle,
 * and the link to dcm_sim that feeds it (Documentation/dcm/physics.rst).
 *
 * Integers at the frame boundary (struct dcm_sim_cmd, struct
 * dcm_sim_state), doubles inside.
 */
#ifndef DCM_PHYSICS_H
#define DCM_PHYSICS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/dcm_sim.h>

#define PHYS_TICK_US		10000	/* the tick --substeps counts steps in */
#define PHYS_SUBSTEPS_DEFAULT	10	/* per 10 ms tick: 1 ms steps */
#define PHYS_SUBSTEPS_MAX	1000
#define PHYS_ITERATIONS_DEFAULT	60	/* ODE's solver's, per step */
#define PHYS_ITERATIONS_MAX	1000
#define PHYS_STATS_EVERY	1000	/* --stats: the figures every so many ticks */

struct phys_body;

/**
 * struct phys_opts - how the physics steps
 * @substeps: steps per 10 ms tick (1..PHYS_SUBSTEPS_MAX): the step's
 *	length; a longer tick takes as many more steps
 * @iterations: the iterations of ODE's solver in a step
 *	(1..PHYS_ITERATIONS_MAX): fewer are faster and less exact
 */
struct phys_opts {
	unsigned int substeps;
	unsigned int iterations;
};

#define PHYS_OPTS_DEFAULT { PHYS_SUBSTEPS_DEFAULT, PHYS_ITERATIONS_DEFAULT }

struct phys_body *phys_create(const int32_t pos_urad[DCM_SIM_JOINTS],
			      const struct phys_opts *opts);
void phys_destroy(struct phys_body *b);
void phys_apply(struct phys_body *b, const struct dcm_sim_cmd *cmd);
void phys_step(struct phys_body *b, uint32_t dt_us);
void phys_state(const struct phys_body *b, uint32_t seq, struct dcm_sim_state *st);

double phys_mass(const struct phys_body *b);
void phys_com(const struct phys_body *b, double com[3]);
bool phys_cop(const struct phys_body *b, double cop[2]);
bool phys_in_support(const struct phys_body *b, const double p[2]);

/* The link (link.c) */

/**
 * struct phys_link - one end of a link
 * @fd: its descriptor
 * @name: its name in messages
 * @stream: a byte stream (a socket, a pipe, a port), whose frames come back
 *	to back and may come in pieces; else the device, one frame a read()
 */
struct phys_link {
	int fd;
	const char *name;
	bool stream;
};

/**
 * struct phys_stats - what dcm-physics measured while it served
 * @ticks: the ticks answered
 * @missed: the link's count of late or missing states (the last frame's)
 * @relinks: the times the link was opened again (the body built again)
 * @link_ticks: @ticks when the last link began
 * @first_seq: the last link's first tick's number
 * @last_seq: the last one's
 * @work_ns: each tick's physics time, ns (@n of them, at most @cap)
 * @n: how many in @work_ns
 * @cap: its size
 */
struct phys_stats {
	uint64_t ticks;
	uint32_t missed;
	uint32_t relinks;
	uint64_t link_ticks;
	uint32_t first_seq, last_seq;
	uint64_t *work_ns;
	size_t n, cap;
};

int phys_open_link(const char *path, char *why, size_t len);
int phys_check_cmd(const struct dcm_sim_cmd *cmd, char *why, size_t len);
int phys_serve(const struct phys_link *l, const struct phys_opts *opts, uint64_t max_ticks,
	       volatile int *stop, unsigned int report_every, struct phys_stats *stats);
int phys_relay(const struct phys_link *dev, const struct phys_link *port, volatile int *stop,
	       uint64_t *ticks);
/*
 * The virtio serial port @name (QEMU's virtserialport name=...): its device
 * node under @dev (normally /dev) into @out, from @sys (normally /sys)'s
 * class/virtio-ports. Return: 0 found; 1 not (yet) there, @why saying what
 * is missing (the port, virtio_console, virtio_pci, any virtio device);
 * -1 on an error said in @why.
 */
int phys_port_find(const char *sys, const char *dev, const char *name, char *out, size_t len,
		   char *why, size_t wlen);
/*
 * phys_port_find() every 0.1 s until the port is there, @wait_s seconds
 * have passed or *@stop is set: its last result.
 */
int phys_port_wait(const char *sys, const char *dev, const char *name, unsigned int wait_s,
		   volatile int *stop, char *out, size_t len, char *why, size_t wlen);
void phys_stats_print(const struct phys_stats *stats, FILE *f);
void phys_stats_free(struct phys_stats *stats);

#endif /* DCM_PHYSICS_H */
