/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the transports' drivers, as the module registers them
 * (dcm_main.c): each binds its devices and registers them with the core as
 * transports (dcm_transport_register(), include/linux/dcm.h).
 */
#ifndef _DCM_TRANSPORT_H
#define _DCM_TRANSPORT_H

/* dcm_i2c.c */
int dcm_i2c_init(void);
void dcm_i2c_exit(void);

/* dcm_spi.c */
int dcm_spi_init(void);
void dcm_spi_exit(void);

/* dcm_uart.c */
int dcm_uart_init(void);
void dcm_uart_exit(void);

#endif /* _DCM_TRANSPORT_H */
