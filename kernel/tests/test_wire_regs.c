// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the register map codecs (kernel/wire/dcm_regs.c and the
 * families' kernel/wire/dcm_wire_*.c): each board's blocks round trip,
 * register positions and scaling, the chest board's store across a
 * "restart", the SPI checksum, the battery's words and strings, the
 * sonar's echo meanings, LED packing, the head board's temperature, and
 * random input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "wire/dcm_regs.h"
#include "wire/dcm_rs485.h"
#include "wire/dcm_wire_battery.h"
#include "wire/dcm_wire_chest.h"
#include "wire/dcm_wire_foot.h"
#include "wire/dcm_wire_hand.h"
#include "wire/dcm_wire_head.h"
#include "wire/dcm_wire_inertial.h"
#include "wire/dcm_wire_sonar.h"

static u32 rng_state;

static void rng_seed(u32 s)
{
	rng_state = s ? s : 1;
}

static u32 rng(void)
{
	u32 x = rng_state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return rng_state = x;
}

static void rng_fill(u8 *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (u8)rng();
}

static u8 ref_crc8(const u8 *p, size_t n)
{
	u8 crc = 0;
	size_t i;
	int b;

	for (i = 0; i < n; i++) {
		crc ^= p[i];
		for (b = 0; b < 8; b++)
			crc = crc & 0x80 ? (u8)(crc << 1) ^ 0x07 : (u8)(crc << 1);
	}
	return crc;
}

static void test_chest_blocks(void **state)
{
	struct dcm_chest_out o = { { 255, 0, 128 }, 7 }, ob;
	struct dcm_chest_in in = { true, DCM_CHEST_ST_EE_BUSY, { { 1, 2, 3 }, 4 } }, ib;
	u8 block[DCM_CHEST_IN_LEN];

	(void)state;
	dcm_chest_put_out(block, &o);
	/* Registers 0x04..0x07 */
	assert_int_equal(255, block[DCM_CHEST_LED_RED - DCM_CHEST_OUT_REG]);
	assert_int_equal(0, block[DCM_CHEST_LED_GREEN - DCM_CHEST_OUT_REG]);
	assert_int_equal(128, block[DCM_CHEST_LED_BLUE - DCM_CHEST_OUT_REG]);
	assert_int_equal(7, block[DCM_CHEST_LED_STATE - DCM_CHEST_OUT_REG]);
	dcm_chest_get_out(block, &ob);
	assert_memory_equal(&o, &ob, sizeof(o));

	dcm_chest_put_in(block, &in);
	assert_int_equal(1, block[DCM_CHEST_BUTTON - DCM_CHEST_IN_REG]);
	assert_int_equal(1, block[DCM_CHEST_STATUS - DCM_CHEST_IN_REG]);
	assert_int_equal(3, block[DCM_CHEST_LED_BLUE - DCM_CHEST_IN_REG]);
	dcm_chest_get_in(block, &ib);
	assert_true(ib.button);
	assert_int_equal(in.status, ib.status);
	assert_memory_equal(&in.out, &ib.out, sizeof(in.out));
	/* ProgVersion: NUL-padded, or all 16 bytes. */
	{
		u8 pv[DCM_CHEST_PROG_VERSION_LEN] = "1.2.3";
		char s[DCM_CHEST_PROG_VERSION_LEN + 1];

		assert_int_equal(5, dcm_chest_prog_version(pv, s, sizeof(s)));
		assert_string_equal("1.2.3", s);
		assert_int_equal(-EMSGSIZE, dcm_chest_prog_version(pv, s, 5));
		memset(pv, 'v', sizeof(pv));
		assert_int_equal(16, dcm_chest_prog_version(pv, s, sizeof(s)));
		assert_int_equal(16, strlen(s));
		pv[3] = '\n';
		assert_int_equal(-EINVAL, dcm_chest_prog_version(pv, s, sizeof(s)));
	}
	/* Reserved bits are ignored. */
	block[0] = 0xfe;
	block[1] = 0xfc;
	dcm_chest_get_in(block, &ib);
	assert_false(ib.button);
	assert_int_equal(0, ib.status);
}

static void sample_body(struct dcm_chest_body *b)
{
	int i;

	memset(b, 0, sizeof(*b));
	strcpy(b->body_id, "AL00000000000001");
	strcpy(b->nick, "Nao01");
	for (i = 0; i < DCM_CHEST_CALIB_N; i++)
		b->zero[i] = (u16)(i * 61 % 4096);
}

/*
 * A chest board's store as the simulator would keep it: page writes go
 * through the 32-byte window and a commit; a restart keeps only the store.
 */
struct chest_sim {
	u8 ee[DCM_CHEST_EE_PAGES * DCM_CHEST_EE_PAGE_LEN];
	u8 window[DCM_CHEST_EE_PAGE_LEN];
};

static void store_body(struct chest_sim *c, const u8 *image, int pages)
{
	int p;

	for (p = 0; p < pages; p++) {
		memcpy(c->window, image + p * DCM_CHEST_EE_PAGE_LEN, DCM_CHEST_EE_PAGE_LEN);
		memcpy(c->ee + p * DCM_CHEST_EE_PAGE_LEN, c->window, DCM_CHEST_EE_PAGE_LEN);
	}
}

static void load_body(struct chest_sim *c, u8 *image)
{
	int p;

	for (p = 0; p < DCM_CHEST_BODY_LEN / DCM_CHEST_EE_PAGE_LEN; p++) {
		memcpy(c->window, c->ee + p * DCM_CHEST_EE_PAGE_LEN, DCM_CHEST_EE_PAGE_LEN);
		memcpy(image + p * DCM_CHEST_EE_PAGE_LEN, c->window, DCM_CHEST_EE_PAGE_LEN);
	}
}

static void test_chest_store(void **state)
{
	static struct chest_sim sim;
	struct dcm_chest_body b, back;
	u8 image[DCM_CHEST_BODY_LEN], old[DCM_CHEST_BODY_LEN];
	int i, j, k, seen[DCM_CHEST_CALIB_N] = { 0 };

	(void)state;
	/* A new board: erased store. */
	memset(sim.ee, 0xff, sizeof(sim.ee));
	load_body(&sim, image);
	assert_int_equal(-ENODATA, dcm_chest_body_get(image, &back));

	/* Calibrate, store, "restart", read back. */
	sample_body(&b);
	b.zero[dcm_chest_calib_index(1, 1, 2)] = 4095;	/* HeadPitch */
	assert_int_equal(0, dcm_chest_body_put(image, &b));
	assert_memory_equal("DCMB", image, 4);
	assert_int_equal(DCM_CHEST_BODY_VERSION, image[4]);
	store_body(&sim, image, DCM_CHEST_BODY_LEN / DCM_CHEST_EE_PAGE_LEN);
	memset(&sim.window, 0, sizeof(sim.window));
	memset(image, 0, sizeof(image));
	load_body(&sim, image);
	memset(&back, 0x55, sizeof(back));
	assert_int_equal(0, dcm_chest_body_get(image, &back));
	assert_memory_equal(&b, &back, sizeof(b));
	assert_int_equal(4095, back.zero[1]);

	/* A commit cut after 3 pages: CRC error, not half a calibration. */
	memcpy(old, image, sizeof(old));
	b.zero[60] = 1;
	strcpy(b.nick, "Nao02");
	assert_int_equal(0, dcm_chest_body_put(image, &b));
	store_body(&sim, image, 3);
	load_body(&sim, image);
	assert_int_equal(-EBADMSG, dcm_chest_body_get(image, &back));
	/* Another layout version. */
	memcpy(image, old, sizeof(old));
	image[4] = 2;
	assert_int_equal(-EPROTO, dcm_chest_body_get(image, &back));
	/* Zeros are not a record either. */
	memset(image, 0, sizeof(image));
	assert_int_equal(-ENODATA, dcm_chest_body_get(image, &back));

	/* Names up to 31 characters. */
	sample_body(&b);
	memset(b.body_id, 'x', 31);
	b.body_id[31] = '\0';
	assert_int_equal(0, dcm_chest_body_put(image, &b));
	assert_int_equal(0, dcm_chest_body_get(image, &back));
	assert_int_equal(31, strlen(back.body_id));
	b.body_id[31] = 'x';
	assert_int_equal(-EINVAL, dcm_chest_body_put(image, &b));
	sample_body(&b);
	b.zero[5] = 4096;
	assert_int_equal(-EINVAL, dcm_chest_body_put(image, &b));

	/* Calibration slots: one per bus, address and motor. */
	assert_int_equal(0, dcm_chest_calib_index(1, 1, 1));
	assert_int_equal(1, dcm_chest_calib_index(1, 1, 2));
	assert_int_equal(63, dcm_chest_calib_index(4, 8, 2));
	for (i = 1; i <= 4; i++)
		for (j = 1; j <= 8; j++)
			for (k = 1; k <= 2; k++)
				seen[dcm_chest_calib_index(i, j, k)]++;
	for (i = 0; i < DCM_CHEST_CALIB_N; i++)
		assert_int_equal(1, seen[i]);
	assert_int_equal(-EINVAL, dcm_chest_calib_index(0, 1, 1));
	assert_int_equal(-EINVAL, dcm_chest_calib_index(5, 1, 1));
	assert_int_equal(-EINVAL, dcm_chest_calib_index(1, 0, 1));
	assert_int_equal(-EINVAL, dcm_chest_calib_index(1, 9, 1));
	assert_int_equal(-EINVAL, dcm_chest_calib_index(1, 1, 0));
	assert_int_equal(-EINVAL, dcm_chest_calib_index(1, 1, 3));
}

static void test_imu(void **state)
{
	struct dcm_imu m = {
		.status = DCM_IMU_ST_ANGLE_VALID, .counter = 200,
		.acc = { -32768, 32767, 1024 }, .gyr = { -1, 0, 1 },
		.angle = { -31416, 31416, 0 }, .acc_raw = { -128, 127, 56 },
		.gyr_raw = { 0, 4095, 2000 },
	}, back;
	u8 block[DCM_IMU_IN_LEN], tx[80], rx[80], data[64], reg, count;
	bool read;
	int n, bit;

	(void)state;
	dcm_imu_put(block, &m);
	/* Positions: ACC_X at 0x04, ANGLE_Y at 0x12, ACC_RAW_Z at 0x18, GYR_REF at 0x1e. */
	assert_int_equal(0x00, block[0x04 - 2]);
	assert_int_equal(0x80, block[0x05 - 2]);
	assert_int_equal(0xb8, block[0x12 - 2]);	/* 31416 = 0x7ab8 */
	assert_int_equal(0x7a, block[0x13 - 2]);
	assert_int_equal(56, block[0x18 - 2]);
	assert_int_equal(0xd0, block[0x1e - 2]);	/* 2000 = 0x07d0 */
	assert_int_equal(0x07, block[0x1f - 2]);
	dcm_imu_get(block, &back);
	assert_memory_equal(&m, &back, sizeof(m));

	/* An SPI read of the cyclic block, both ends. */
	n = dcm_spi_put_read(tx, sizeof(tx), DCM_IMU_IN_REG, DCM_IMU_IN_LEN);
	assert_int_equal(DCM_IMU_IN_LEN + 3, n);
	assert_int_equal(0x82, tx[0]);
	assert_int_equal(30, tx[1]);
	assert_int_equal(0, dcm_spi_parse(tx, n, &read, &reg, &count, data));
	assert_true(read);
	assert_int_equal(DCM_IMU_IN_REG, reg);
	assert_int_equal(DCM_IMU_IN_LEN, count);
	assert_int_equal(n, dcm_spi_put_answer(rx, sizeof(rx), reg, block, count));
	{
		u8 all[2 + DCM_IMU_IN_LEN] = { 0x82, DCM_IMU_IN_LEN };

		memcpy(all + 2, block, DCM_IMU_IN_LEN);
		assert_int_equal(ref_crc8(all, sizeof(all)), rx[n - 1]);
	}
	memset(data, 0, sizeof(data));
	assert_int_equal(0, dcm_spi_get_read(rx, n, DCM_IMU_IN_REG, DCM_IMU_IN_LEN, data));
	assert_memory_equal(block, data, DCM_IMU_IN_LEN);
	/* Any flipped bit of block or checksum is caught. */
	for (bit = 16; bit < n * 8; bit++) {
		rx[bit / 8] ^= 1 << (bit % 8);
		assert_int_equal(-EBADMSG,
				 dcm_spi_get_read(rx, n, DCM_IMU_IN_REG, DCM_IMU_IN_LEN, data));
		rx[bit / 8] ^= 1 << (bit % 8);
	}
	/* An answer to another register fails the checksum too. */
	dcm_spi_put_answer(rx, sizeof(rx), DCM_IMU_IN_REG + 1, block, DCM_IMU_IN_LEN);
	assert_int_equal(-EBADMSG, dcm_spi_get_read(rx, n, DCM_IMU_IN_REG, DCM_IMU_IN_LEN, data));
	assert_int_equal(-EMSGSIZE, dcm_spi_get_read(rx, n - 1, DCM_IMU_IN_REG, DCM_IMU_IN_LEN,
						     data));

	/* A write: CTRL. */
	data[0] = DCM_IMU_CTRL_RESET_ANGLE;
	n = dcm_spi_put_write(tx, sizeof(tx), DCM_IMU_CTRL, data, 1);
	assert_int_equal(4, n);
	assert_int_equal(DCM_IMU_CTRL, tx[0]);
	assert_int_equal(ref_crc8(tx, 3), tx[3]);
	memset(data, 0, 8);
	assert_int_equal(0, dcm_spi_parse(tx, n, &read, &reg, &count, data));
	assert_false(read);
	assert_int_equal(DCM_IMU_CTRL, reg);
	assert_int_equal(1, count);
	assert_int_equal(DCM_IMU_CTRL_RESET_ANGLE, data[0]);
	tx[2] ^= 4;
	assert_int_equal(-EBADMSG, dcm_spi_parse(tx, n, &read, &reg, &count, data));

	/* Ranges. */
	assert_int_equal(-EINVAL, dcm_spi_put_read(tx, sizeof(tx), 0, 0));
	assert_int_equal(-EINVAL, dcm_spi_put_read(tx, sizeof(tx), 0, 65));
	assert_int_equal(-EINVAL, dcm_spi_put_read(tx, sizeof(tx), 0x80, 1));
	assert_int_equal(-EINVAL, dcm_spi_put_read(tx, sizeof(tx), 0x7f, 2));
	assert_int_equal(3 + 1, dcm_spi_put_read(tx, sizeof(tx), 0x7f, 1));
	assert_int_equal(-EMSGSIZE, dcm_spi_put_read(tx, 10, 0, 8));
	assert_int_equal(-EMSGSIZE, dcm_spi_put_write(tx, 10, 0, data, 8));
	assert_int_equal(-EMSGSIZE, dcm_spi_put_answer(rx, 10, 0, data, 8));
	assert_int_equal(-EMSGSIZE, dcm_spi_parse(tx, 1, &read, &reg, &count, data));
}

static void test_battery(void **state)
{
	static const u8 regs[] = {
		DCM_BAT_KIND, DCM_BAT_CURRENT, DCM_BAT_CHARGE, DCM_BAT_TEMPERATURE,
		DCM_BAT_VOLTAGE, DCM_BAT_CELL_MIN, DCM_BAT_CELL_MAX, DCM_BAT_STATUS,
		DCM_BAT_FULL, DCM_BAT_REMAINING, DCM_BAT_AGE,
	};
	struct dcm_battery b, back;
	u8 wire[2], blk[40], addr_rd[5];
	char s[64];
	u8 y, m, ser;
	u16 w;
	u32 i, j, polled[256] = { 0 };

	(void)state;
	memset(&b, 0, sizeof(b));
	/* -3.2 A, discharging, as the battery sends it: 0xf380, low byte first. */
	wire[0] = 0x80;
	wire[1] = 0xf3;
	assert_int_equal(0, dcm_bat_get_word(&b, DCM_BAT_CURRENT, get_unaligned_le16(wire)));
	assert_int_equal(-3200, b.current_ma);
	assert_int_equal(0, dcm_bat_put_word(&b, DCM_BAT_CURRENT, &w));
	assert_int_equal(0xf380, w);
	/* Charging at 1.5 A is positive. */
	assert_int_equal(0, dcm_bat_get_word(&b, DCM_BAT_CURRENT, 1500));
	assert_int_equal(1500, b.current_ma);
	/* 0.1 K: 2982 is 25.05 degC, 2731 is -0.05 degC. */
	assert_int_equal(25050, dcm_bat_mdegc(2982));
	assert_int_equal(-50, dcm_bat_mdegc(2731));
	assert_int_equal(-273150, dcm_bat_mdegc(0));

	/* Every polled register round trips. */
	for (i = 0; i < ARRAY_SIZE(regs); i++) {
		w = (u16)(0x1111 * (i + 1));
		assert_int_equal(0, dcm_bat_get_word(&b, regs[i], w));
	}
	back = b;
	memset(&b, 0, sizeof(b));
	for (i = 0; i < ARRAY_SIZE(regs); i++) {
		assert_int_equal(0, dcm_bat_put_word(&back, regs[i], &w));
		assert_int_equal((u16)(0x1111 * (i + 1)), w);
		assert_int_equal(0, dcm_bat_get_word(&b, regs[i], w));
	}
	assert_memory_equal(&b, &back, sizeof(b));
	assert_int_equal(0x1111, b.kind);
	assert_int_equal(0x4444, b.temperature);
	assert_int_equal(-EINVAL, dcm_bat_get_word(&b, DCM_BAT_SERIAL, 1));
	assert_int_equal(-EINVAL, dcm_bat_put_word(&b, 0xff, &w));

	/* Poll schedule: current every other cycle, every register once per round. */
	for (i = 0; i < 3 * DCM_BAT_POLL_CYCLES; i++) {
		if (i % 2 == 0)
			assert_int_equal(DCM_BAT_CURRENT, dcm_bat_poll_reg(i));
		polled[dcm_bat_poll_reg(i)]++;
	}
	for (i = 0; i < ARRAY_SIZE(regs); i++)
		assert_true(polled[regs[i]] >= 3);
	for (j = 0; j < 256; j++)
		if (polled[j]) {
			for (i = 0; i < ARRAY_SIZE(regs) && regs[i] != j; i++)
				;
			assert_true(i < ARRAY_SIZE(regs));
		}

	/* Status by kind. */
	b.status = 0xffff;
	b.kind = DCM_BAT_KIND_BMZ;
	assert_int_equal(0xffff, dcm_bat_status(&b));
	b.kind = DCM_BAT_KIND_SANYO;
	assert_int_equal(0xf0, dcm_bat_status(&b));
	b.kind = 7;
	assert_int_equal(0, dcm_bat_status(&b));
	assert_int_equal(0x8000, DCM_BAT_BMZ_CHARGER);
	assert_int_equal(0x1000, DCM_BAT_BMZ_DISCHARGE_OC14_ALARM);
	assert_int_equal(0x80, DCM_BAT_SANYO_CHGTF);

	/* Manufacture date. */
	assert_int_equal(10, dcm_bat_date((2010 - 1980) * 512 + 6 * 32 + 15, s, sizeof(s)));
	assert_string_equal("15-06-2010", s);
	assert_int_equal(-EINVAL, dcm_bat_date(0, s, sizeof(s)));
	assert_int_equal(-EINVAL, dcm_bat_date(13 * 32 + 1, s, sizeof(s)));
	assert_int_equal(-EMSGSIZE, dcm_bat_date(6 * 32 + 1, s, 10));

	/* Sanyo serial string. */
	assert_int_equal(23, dcm_bat_sanyo_serial(s, sizeof(s), 10, 6, 0));
	assert_string_equal("ALDE000039___PD00100600", s);
	assert_int_equal(0, dcm_bat_sanyo_serial_parse(s, &y, &m, &ser));
	assert_int_equal(10, y);
	assert_int_equal(6, m);
	assert_int_equal(0, ser);
	assert_int_equal(23, dcm_bat_sanyo_serial(s, sizeof(s), 99, 12, 0xab));
	assert_string_equal("ALDE000039___PD009912AB", s);
	assert_int_equal(0, dcm_bat_sanyo_serial_parse(s, &y, &m, &ser));
	assert_int_equal(0xab, ser);
	assert_int_equal(0, dcm_bat_sanyo_serial_parse("ALDE000039___PD009912ab", &y, &m, &ser));
	assert_int_equal(-EINVAL, dcm_bat_sanyo_serial(s, sizeof(s), 100, 1, 0));
	assert_int_equal(-EINVAL, dcm_bat_sanyo_serial(s, sizeof(s), 1, 0, 0));
	assert_int_equal(-EINVAL, dcm_bat_sanyo_serial(s, sizeof(s), 1, 13, 0));
	assert_int_equal(-EMSGSIZE, dcm_bat_sanyo_serial(s, 23, 1, 1, 0));
	assert_int_equal(-EINVAL, dcm_bat_sanyo_serial_parse("ALDE000039___PD0010060", &y, &m,
							     &ser));
	assert_int_equal(-EINVAL, dcm_bat_sanyo_serial_parse("ALDE000039___PD001013000", &y, &m,
							     &ser));
	assert_int_equal(-EINVAL, dcm_bat_sanyo_serial_parse("ALDE000039___PD00101300", &y, &m,
							     &ser));
	assert_int_equal(-EINVAL, dcm_bat_sanyo_serial_parse("ALDE000039___PD001A0600", &y, &m,
							     &ser));
	assert_int_equal(-EINVAL, dcm_bat_sanyo_serial_parse("XLDE000039___PD00100600", &y, &m,
							     &ser));

	/* SMBus blocks. */
	assert_int_equal(8, dcm_smbus_block_put(blk, sizeof(blk), "FSM-BMZ"));
	assert_int_equal(7, blk[0]);
	assert_int_equal(7, dcm_smbus_block_get(blk, 8, s, sizeof(s)));
	assert_string_equal("FSM-BMZ", s);
	memcpy(blk, "\x08" "AR-NAO \0", 9);	/* NUL-padded */
	assert_int_equal(7, dcm_smbus_block_get(blk, 9, s, sizeof(s)));
	assert_string_equal("AR-NAO ", s);
	assert_int_equal(-EMSGSIZE, dcm_smbus_block_get(blk, 8, s, sizeof(s)));
	assert_int_equal(-EMSGSIZE, dcm_smbus_block_get(blk, 9, s, 7));
	assert_int_equal(-EMSGSIZE, dcm_smbus_block_get(blk, 0, s, sizeof(s)));
	blk[0] = 33;
	assert_int_equal(-EINVAL, dcm_smbus_block_get(blk, sizeof(blk), s, sizeof(s)));
	memcpy(blk, "\x02" "a\x01", 3);
	assert_int_equal(-EINVAL, dcm_smbus_block_get(blk, 3, s, sizeof(s)));
	assert_int_equal(-EINVAL, dcm_smbus_block_put(blk, sizeof(blk),
						      "0123456789012345678901234567890123"));
	assert_int_equal(-EMSGSIZE, dcm_smbus_block_put(blk, 7, "FSM-BMZ"));
	assert_int_equal(24, dcm_smbus_block_put(blk, sizeof(blk), "ALDE000039___PD00100600"));

	/* PEC of a word read: address (write), command, address (read), data. */
	addr_rd[0] = 0x0b << 1;
	addr_rd[1] = DCM_BAT_CURRENT;
	addr_rd[2] = (0x0b << 1) | 1;
	addr_rd[3] = 0x80;
	addr_rd[4] = 0xf3;
	assert_int_equal(ref_crc8(addr_rd, 5), dcm_smbus_pec(0x0b, DCM_BAT_CURRENT, true, wire, 2));
	addr_rd[2] = 0x80;
	addr_rd[3] = 0xf3;
	assert_int_equal(ref_crc8(addr_rd, 4),
			 dcm_smbus_pec(0x0b, DCM_BAT_CURRENT, false, wire, 2));
}

static void test_sonar(void **state)
{
	struct dcm_us u = { .counter = 255, .status = DCM_US_ST_PERIODIC,
			    .result_mode = DCM_US_M_DUAL | DCM_US_M_PERIODIC, .mono = 40 },
		      back;
	u8 block[DCM_US_IN_LEN];
	int i;

	(void)state;
	for (i = 0; i < DCM_US_ECHOES; i++) {
		u.left[i] = i < 2 ? (u8)(40 + 80 * i) : DCM_US_NO_ECHO;	/* 0.40, 1.20, 2.55... */
		u.right[i] = i == 0 ? DCM_US_ERROR : (u8)(25 * i);
	}
	dcm_us_put(block, &u);
	assert_int_equal(255, block[DCM_US_COUNTER - DCM_US_IN_REG]);
	assert_int_equal(40, block[DCM_US_MONO - DCM_US_IN_REG]);
	assert_int_equal(40, block[DCM_US_LEFT - DCM_US_IN_REG]);
	assert_int_equal(120, block[DCM_US_LEFT + 1 - DCM_US_IN_REG]);
	assert_int_equal(255, block[DCM_US_LEFT + 9 - DCM_US_IN_REG]);
	assert_int_equal(0, block[DCM_US_RIGHT - DCM_US_IN_REG]);
	assert_int_equal(225, block[DCM_US_RIGHT + 9 - DCM_US_IN_REG]);
	assert_int_equal(DCM_US_IN_LEN, DCM_US_RIGHT + 10 - DCM_US_IN_REG);
	dcm_us_get(block, &back);
	assert_memory_equal(&u, &back, sizeof(u));

	/* What an echo byte means (seed: 0 error, 2.55 m no echo). */
	assert_int_equal(DCM_US_ECHO_ERROR, dcm_us_echo_kind(0));
	assert_int_equal(DCM_US_ECHO_NONE, dcm_us_echo_kind(255));
	assert_int_equal(DCM_US_ECHO_VALID, dcm_us_echo_kind(1));
	assert_int_equal(DCM_US_ECHO_VALID, dcm_us_echo_kind(25));
	assert_int_equal(DCM_US_ECHO_VALID, dcm_us_echo_kind(254));

	/* Modes of seed 000. */
	for (i = 0; i <= 3; i++)
		assert_true(dcm_us_mode_ok(i));
	assert_true(dcm_us_mode_ok(4));
	assert_true(dcm_us_mode_ok(12));
	assert_true(dcm_us_mode_ok(68));
	assert_true(dcm_us_mode_ok(0x4f));
	assert_false(dcm_us_mode_ok(16));
	assert_false(dcm_us_mode_ok(32));
	assert_false(dcm_us_mode_ok(127));
	assert_false(dcm_us_mode_ok(128));
	assert_int_equal(1, DCM_US_M_RX_RIGHT);
	assert_int_equal(2, DCM_US_M_TX_RIGHT);
	assert_int_equal(4, DCM_US_M_DUAL);
	assert_int_equal(8, DCM_US_M_TX_BOTH);
	assert_int_equal(64, DCM_US_M_PERIODIC);
}

static void test_leds(void **state)
{
	u8 lv[DCM_FACE_N], back[DCM_FACE_N], block[DCM_FACE_N];
	int i;

	(void)state;
	/* Face: 6 bits, one byte per LED, clamped. */
	for (i = 0; i < DCM_FACE_N; i++)
		lv[i] = (u8)(i * 5);
	dcm_face_put(block, lv);
	for (i = 0; i < DCM_FACE_N; i++)
		assert_int_equal(lv[i] > 63 ? 63 : lv[i], block[i]);
	dcm_face_get(block, back);
	assert_memory_equal(block, back, DCM_FACE_N);
	block[0] = 0xff;
	dcm_face_get(block, back);
	assert_int_equal(63, back[0]);
	for (i = 0; i < 64; i++) {
		memset(lv, i, sizeof(lv));
		dcm_face_put(block, lv);
		dcm_face_get(block, back);
		assert_memory_equal(lv, back, DCM_FACE_N);
	}

	/* Ears: 20 LEDs, two per byte, LED 2i in the low nibble. */
	for (i = 0; i < DCM_EAR_N; i++)
		lv[i] = (u8)(i % 16);
	dcm_led4_put(block, lv, DCM_EAR_N);
	assert_int_equal(0x10, block[0]);
	assert_int_equal(0x32, block[1]);
	assert_int_equal(0x10, block[8]);	/* LEDs 16, 17 */
	dcm_led4_get(block, back, DCM_EAR_N);
	assert_memory_equal(lv, back, DCM_EAR_N);
	lv[0] = 16;
	lv[1] = 255;
	dcm_led4_put(block, lv, DCM_EAR_N);
	assert_int_equal(0xff, block[0]);
	/* Head: 12 LEDs in 6 bytes. */
	memset(block, 0xaa, sizeof(block));
	for (i = 0; i < DCM_TOUCH_N; i++)
		lv[i] = 15;
	dcm_led4_put(block, lv, DCM_TOUCH_N);
	for (i = 0; i < DCM_TOUCH_OUT_LEN; i++)
		assert_int_equal(0xff, block[i]);
	assert_int_equal(0xaa, block[DCM_TOUCH_OUT_LEN]);
}

static void test_head(void **state)
{
	static const s32 temps[] = { 0, 45000, -1, -40000, 125000, S32_MAX, S32_MIN };
	u8 block[DCM_HEAD_IN_LEN];
	size_t i;

	(void)state;
	/* The CPU temperature: s32 milli-degrees Celsius, little-endian. */
	dcm_head_put_in(block, 0x12345678);
	assert_int_equal(0x78, block[0]);
	assert_int_equal(0x56, block[1]);
	assert_int_equal(0x34, block[2]);
	assert_int_equal(0x12, block[3]);
	for (i = 0; i < ARRAY_SIZE(temps); i++) {
		dcm_head_put_in(block, temps[i]);
		assert_int_equal(temps[i], dcm_head_get_in(block));
	}
}

static void test_foot_hand(void **state)
{
	struct dcm_foot_in in = { { true, false }, { 0, 65535, 25000, 1 } }, back;
	struct dcm_rs485_slot slot;
	struct dcm_rs485_reply r = { .bid = 5 }, rb;
	u8 led[3] = { 255, 1, 0 }, led2[3], buf[64];
	int i;

	(void)state;
	assert_true(DCM_FOOT_IN_LEN <= DCM_RS485_DATA_LEN);
	assert_true(DCM_FOOT_OUT_LEN <= DCM_RS485_SLOT_LEN);
	assert_true(DCM_HAND_IN_LEN <= DCM_RS485_DATA_LEN);
	/* The foot's cyclic read block is its RS485 reply data. */
	dcm_foot_put_in(r.data, &in);
	assert_int_equal(1, r.data[0]);
	assert_int_equal(0xff, r.data[4]);	/* FSR FrontRight at 0x06 */
	assert_int_equal(0xa8, r.data[6]);	/* 25000 = 0x61a8 */
	assert_int_equal(0x61, r.data[7]);
	assert_int_equal(DCM_RS485_REPLY_FRAME, dcm_rs485_put_reply(buf, sizeof(buf), &r));
	assert_int_equal(DCM_RS485_REPLY_FRAME, dcm_rs485_parse_reply(buf, sizeof(buf), 5, 0, &rb));
	dcm_foot_get_in(rb.data, &back);
	assert_memory_equal(&in, &back, sizeof(in));
	for (i = 0; i < 4; i++) {
		in.bumper[0] = i & 1;
		in.bumper[1] = i & 2;
		dcm_foot_put_in(r.data, &in);
		assert_int_equal(i, r.data[0]);
		dcm_foot_get_in(r.data, &back);
		assert_memory_equal(&in, &back, sizeof(in));
	}
	/* The LED registers are its slot. */
	memset(slot.b, 0x77, sizeof(slot.b));
	dcm_foot_put_slot(&slot, led);
	assert_memory_equal(led, slot.b, 3);
	for (i = 3; i < DCM_RS485_SLOT_LEN; i++)
		assert_int_equal(0, slot.b[i]);
	dcm_foot_get_slot(&slot, led2);
	assert_memory_equal(led, led2, 3);
}

/* Random blocks into every decoder: no crash, decode(encode(decode)) stable. */
static void test_fuzz(void **state)
{
	u8 blk[256], blk2[256], data[64], y, m, ser, reg, count;
	struct dcm_chest_body body;
	struct dcm_chest_in ci, ci2;
	struct dcm_imu im, im2;
	struct dcm_us us, us2;
	struct dcm_foot_in fi, fi2;
	char s[64];
	bool read;
	u32 it, len;

	(void)state;
	rng_seed(77);
	for (it = 0; it < 100000; it++) {
		len = rng() % sizeof(blk);
		rng_fill(blk, sizeof(blk));

		dcm_chest_get_in(blk, &ci);
		dcm_chest_put_in(blk2, &ci);
		dcm_chest_get_in(blk2, &ci2);
		assert_memory_equal(&ci, &ci2, sizeof(ci));
		dcm_imu_get(blk, &im);
		dcm_imu_put(blk2, &im);
		dcm_imu_get(blk2, &im2);
		assert_memory_equal(&im, &im2, sizeof(im));
		dcm_us_get(blk, &us);
		dcm_us_put(blk2, &us);
		dcm_us_get(blk2, &us2);
		assert_memory_equal(&us, &us2, sizeof(us));
		dcm_foot_get_in(blk, &fi);
		dcm_foot_put_in(blk2, &fi);
		dcm_foot_get_in(blk2, &fi2);
		assert_memory_equal(&fi, &fi2, sizeof(fi));

		if (it & 1) {
			memcpy(blk, "DCMB\x01", 5);
			if (it & 2) {
				u16 c = crc_itu_t(DCM_CRC16_INIT, blk + 8, 248);

				put_unaligned_le16(c, blk + 6);
			}
		}
		if (!dcm_chest_body_get(blk, &body)) {
			assert_int_equal(0, dcm_chest_body_put(blk2, &body));
			assert_int_equal(0, dcm_chest_body_get(blk2, &body));
		}
		dcm_spi_parse(blk, len > 70 ? 70 : len, &read, &reg, &count, data);
		dcm_spi_get_read(blk, len, blk[0] & 0x7f, blk[1], data);
		if (dcm_smbus_block_get(blk, len, s, sizeof(s)) >= 0)
			assert_true(strlen(s) <= DCM_BAT_BLOCK_MAX);
		len = rng() % 30;
		for (count = 0; count < len; count++)
			s[count] = "ALDE039_P0123456789ABx"[rng() % 22];
		s[len] = '\0';
		if (rng() % 2)
			memcpy(s, "ALDE000039___PD00", len < 17 ? len : 17);
		if (!dcm_bat_sanyo_serial_parse(s, &y, &m, &ser)) {
			char s2[32];

			assert_int_equal(23, dcm_bat_sanyo_serial(s2, sizeof(s2), y, m, ser));
		}
		dcm_bat_date((u16)rng(), s, sizeof(s));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chest_blocks),
		cmocka_unit_test(test_chest_store),
		cmocka_unit_test(test_imu),
		cmocka_unit_test(test_battery),
		cmocka_unit_test(test_sonar),
		cmocka_unit_test(test_leds),
		cmocka_unit_test(test_head),
		cmocka_unit_test(test_foot_hand),
		cmocka_unit_test(test_fuzz),
	};

	dcm_wire_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
