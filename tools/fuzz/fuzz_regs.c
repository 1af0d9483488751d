// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer: hostile answers of the register boards (SPI and I2C/SMBus):
 * the SPI read answer and frame parser, SMBus blocks, and every block
 * decoder of the boards (chest, its store's body record, battery words and
 * strings, inertial unit, sonar, head, face, ear, foot).
 */
#include <linux/kernel.h>

#include "wire/dcm_regs.h"
#include "wire/dcm_wire_battery.h"
#include "wire/dcm_wire_chest.h"
#include "wire/dcm_wire_foot.h"
#include "wire/dcm_wire_head.h"
#include "wire/dcm_wire_inertial.h"
#include "wire/dcm_wire_sonar.h"

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	u8 block[1024] = { 0 }, out[DCM_SPI_MAX + 8], reg, count;
	struct dcm_chest_body body;
	struct dcm_chest_in cin;
	struct dcm_chest_out cout;
	struct dcm_battery bat = { 0 };
	struct dcm_foot_in foot;
	struct dcm_imu imu;
	struct dcm_us us;
	u8 level[64];
	char s[64];
	bool rd;
	u8 y, m, ser;

	if (size < 3)
		return 0;
	reg = data[0] & 0x7f;
	count = data[1] % (DCM_SPI_MAX + 1);
	dcm_spi_get_read(data + 2, size - 2, reg, count, out);
	dcm_spi_parse(data + 2, size - 2, &rd, &reg, &count, out);
	dcm_smbus_block_get(data + 2, size - 2, s, sizeof(s));
	dcm_bat_get_word(&bat, data[0], (u16)(data[1] | data[2] << 8));
	dcm_bat_status(&bat);
	dcm_bat_mdegc((u16)(data[1] | data[2] << 8));
	dcm_bat_date((u16)(data[1] | data[2] << 8), s, sizeof(s));

	memcpy(block, data, size < sizeof(block) ? size : sizeof(block));
	dcm_chest_get_in(block, &cin);
	dcm_chest_get_out(block, &cout);
	dcm_chest_prog_version(block, s, sizeof(s));
	dcm_chest_body_get(block, &body);
	dcm_foot_get_in(block, &foot);
	dcm_head_get_in(block);
	dcm_face_get(block, level);
	dcm_led4_get(block, level, 16);
	dcm_imu_get(block, &imu);
	dcm_us_get(block, &us);

	memcpy(s, data, size < sizeof(s) ? size : sizeof(s));
	s[sizeof(s) - 1] = '\0';
	dcm_bat_sanyo_serial_parse(s, &y, &m, &ser);
	return 0;
}
