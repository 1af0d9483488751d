/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the cycle's exchanges with the boards: what each board type sends
 * and answers (Documentation/dcm/wire-protocol.rst), over the transport of
 * its bus.
 */
#ifndef _DCM_BOARDS_H
#define _DCM_BOARDS_H

#include "core/dcm_runtime.h"

struct dcm_bus;

void dcm_board_bind(struct dcm_runtime *rt, u32 dev);
bool dcm_boards_battery_over(const struct dcm_runtime *rt);
void dcm_boards_safety(struct dcm_runtime *rt, u32 scale_ppm, u32 now);
void dcm_bus_exchange(struct dcm_runtime *rt, u32 bus, struct dcm_bus *transport, u32 now);
void dcm_bus_chain_work(struct work_struct *work);
void dcm_boards_chain_result(struct dcm_runtime *rt);
int dcm_board_configure(struct dcm_runtime *rt, u32 dev);

#endif /* _DCM_BOARDS_H */
