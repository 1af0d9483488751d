/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the special commands (dcm_special.c): diagnostic, versions,
 * chaining and the boards' configuration, asked of the running boards.
 */
#ifndef _DCM_SPECIAL_H
#define _DCM_SPECIAL_H

#include <linux/types.h>

struct dcm_controller;
struct dcm_runtime;

/**
 * struct dcm_special_board - one device in the answer of a special command
 * @name: its name
 * @type: its Type
 * @bus: its bus
 * @address: its address
 * @state: DIAGNOSTIC: "ok", "error", "lost" or "absent"; else NULL
 * @ack: DIAGNOSTIC: its Acks
 * @nack: DIAGNOSTIC: its Nacks
 * @errors: DIAGNOSTIC: its errors of the last 30 s
 * @version: VERSION: what it answered, or NULL if it did not
 *
 * The strings are valid during the call to &struct dcm_special_out.put only.
 */
struct dcm_special_board {
	const char *name;
	const char *type;
	const char *bus;
	u32 address;
	const char *state;
	u64 ack;
	u64 nack;
	u32 errors;
	const char *version;
};

/**
 * struct dcm_special_out - where dcm_special() puts its answer
 * @text: its one-line summary, DCM_MAX_STRING_LEN bytes
 * @put: takes one device; a non-zero return ends the command with it
 * @arg: @put's first argument
 */
struct dcm_special_out {
	char *text;
	int (*put)(void *arg, const struct dcm_special_board *b);
	void *arg;
};

int dcm_special(struct dcm_controller *ctrl, struct dcm_runtime *rt, u32 cmd,
		const struct dcm_special_out *out);

int dcm_special(struct dcm_controller *ctrl, struct dcm_runtime *rt, u32 cmd,
		const struct dcm_special_out *out);

#endif /* _DCM_SPECIAL_H */
