// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the chest board's register map: button, LEDs, program version and
 * the store that keeps the body's identity and calibration
 * (Documentation/dcm/wire-protocol.rst, "Chest board").
 *
 * The put/get pairs are each other's inverse: the master writes actuator
 * blocks and reads sensor blocks, a simulated board does the opposite.
 */

#include "wire/dcm_wire_chest.h"

/**
 * dcm_chest_put_out() - the chest board's cyclic write block
 * @block: DCM_CHEST_OUT_LEN bytes, for registers 0x04..0x07
 * @o: LED values
 */
void dcm_chest_put_out(u8 *block, const struct dcm_chest_out *o)
{
	block[0] = o->led[0];
	block[1] = o->led[1];
	block[2] = o->led[2];
	block[3] = o->led_state;
}

/**
 * dcm_chest_get_out() - read the chest board's cyclic write block
 * @block: DCM_CHEST_OUT_LEN bytes, registers 0x04..0x07
 * @o: LED values
 */
void dcm_chest_get_out(const u8 *block, struct dcm_chest_out *o)
{
	o->led[0] = block[0];
	o->led[1] = block[1];
	o->led[2] = block[2];
	o->led_state = block[3];
}
EXPORT_SYMBOL_GPL(dcm_chest_get_out);

/**
 * dcm_chest_put_in() - the chest board's cyclic read block
 * @block: DCM_CHEST_IN_LEN bytes, for registers 0x02..0x07
 * @in: button, status and LED registers
 */
void dcm_chest_put_in(u8 *block, const struct dcm_chest_in *in)
{
	block[0] = in->button ? DCM_CHEST_BUTTON_PRESSED : 0;
	block[1] = in->status & (DCM_CHEST_ST_EE_BUSY | DCM_CHEST_ST_EE_ERROR);
	dcm_chest_put_out(block + 2, &in->out);
}
EXPORT_SYMBOL_GPL(dcm_chest_put_in);

/**
 * dcm_chest_get_in() - decode the chest board's cyclic read block
 * @block: DCM_CHEST_IN_LEN bytes, registers 0x02..0x07
 * @in: button, status and LED registers; reserved bits are ignored
 */
void dcm_chest_get_in(const u8 *block, struct dcm_chest_in *in)
{
	in->button = !!(block[0] & DCM_CHEST_BUTTON_PRESSED);
	in->status = block[1] & (DCM_CHEST_ST_EE_BUSY | DCM_CHEST_ST_EE_ERROR);
	dcm_chest_get_out(block + 2, &in->out);
}

/**
 * dcm_chest_prog_version() - the chest board's ProgVersion string
 * @block: DCM_CHEST_PROG_VERSION_LEN bytes, registers 0x10..0x1f
 * @s: where, NUL-terminated
 * @size: room in @s, DCM_CHEST_PROG_VERSION_LEN + 1 is always enough
 *
 * The string ends at its first NUL or after 16 characters.
 *
 * Return: its length; -EINVAL for a character outside printable ASCII;
 * -EMSGSIZE if @size is too small.
 */
int dcm_chest_prog_version(const u8 *block, char *s, size_t size)
{
	size_t i;

	for (i = 0; i < DCM_CHEST_PROG_VERSION_LEN && block[i]; i++)
		if (block[i] < 0x20 || block[i] > 0x7e)
			return -EINVAL;
	if (size < i + 1)
		return -EMSGSIZE;
	memcpy(s, block, i);
	s[i] = '\0';
	return (int)i;
}

#define BODY_MAGIC	"DCMB"
#define BODY_CRC	0x06
#define BODY_ID		0x10
#define BODY_NICK	0x30
#define BODY_ZERO	0x80

/**
 * dcm_chest_calib_index() - where a motor's calibration sits in the store
 * @bus: RS485 bus number, 1..4 (RS485-1..RS485-4)
 * @addr: the board's Address on it, 1..8
 * @motor: MotorNumber, 1 or 2
 *
 * Return: the index in struct dcm_chest_body.zero; -EINVAL out of range.
 */
int dcm_chest_calib_index(u8 bus, u8 addr, u8 motor)
{
	if (bus < 1 || bus > DCM_CHEST_CALIB_BUSES || addr < 1 || addr > DCM_CHEST_CALIB_ADDRS ||
	    motor < 1 || motor > 2)
		return -EINVAL;
	return ((bus - 1) * DCM_CHEST_CALIB_ADDRS + (addr - 1)) * 2 + (motor - 1);
}

/* Length of a NUL-terminated name in @s, or -EINVAL without a NUL. */
static int name_len(const char *s)
{
	int i;

	for (i = 0; i < DCM_CHEST_NAME_LEN; i++)
		if (!s[i])
			return i;
	return -EINVAL;
}

/**
 * dcm_chest_body_put() - the image of pages 0..7 of the chest board's store
 * @image: DCM_CHEST_BODY_LEN bytes
 * @b: body identity and calibration
 *
 * Return: 0; -EINVAL for a name of 32 bytes or more or a jointZeroPosition
 * above 4095.
 */
int dcm_chest_body_put(u8 *image, const struct dcm_chest_body *b)
{
	int i, id_len = name_len(b->body_id), nick_len = name_len(b->nick);

	if (id_len < 0 || nick_len < 0)
		return -EINVAL;
	for (i = 0; i < DCM_CHEST_CALIB_N; i++)
		if (b->zero[i] > 4095)
			return -EINVAL;
	memset(image, 0, DCM_CHEST_BODY_LEN);
	memcpy(image, BODY_MAGIC, 4);
	image[4] = DCM_CHEST_BODY_VERSION;
	memcpy(image + BODY_ID, b->body_id, id_len);
	memcpy(image + BODY_NICK, b->nick, nick_len);
	for (i = 0; i < DCM_CHEST_CALIB_N; i++)
		put_unaligned_le16(b->zero[i], image + BODY_ZERO + 2 * i);
	put_unaligned_le16(crc_itu_t(DCM_CRC16_INIT, image + 8, DCM_CHEST_BODY_LEN - 8),
			   image + BODY_CRC);
	return 0;
}

/**
 * dcm_chest_body_get() - decode pages 0..7 of the chest board's store
 * @image: DCM_CHEST_BODY_LEN bytes
 * @b: body identity and calibration
 *
 * Return: 0; -ENODATA if the store holds no body record (a new board:
 * erased to 0xff, or zeros); -EPROTO for another layout version; -EBADMSG
 * if the CRC does not match (a commit cut halfway); -EINVAL for a name
 * without its NUL or a jointZeroPosition above 4095.
 */
int dcm_chest_body_get(const u8 *image, struct dcm_chest_body *b)
{
	int i;

	if (memcmp(image, BODY_MAGIC, 4))
		return -ENODATA;
	if (image[4] != DCM_CHEST_BODY_VERSION)
		return -EPROTO;
	if (get_unaligned_le16(image + BODY_CRC) !=
	    crc_itu_t(DCM_CRC16_INIT, image + 8, DCM_CHEST_BODY_LEN - 8))
		return -EBADMSG;
	memcpy(b->body_id, image + BODY_ID, DCM_CHEST_NAME_LEN);
	memcpy(b->nick, image + BODY_NICK, DCM_CHEST_NAME_LEN);
	if (name_len(b->body_id) < 0 || name_len(b->nick) < 0)
		return -EINVAL;
	for (i = 0; i < DCM_CHEST_CALIB_N; i++) {
		b->zero[i] = get_unaligned_le16(image + BODY_ZERO + 2 * i);
		if (b->zero[i] > 4095)
			return -EINVAL;
	}
	return 0;
}

