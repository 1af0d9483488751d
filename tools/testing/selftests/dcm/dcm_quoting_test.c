// SPDX-License-Identifier: GPL-2.0
/*
 * The netlink family's extended acks quote what a request named safely: a
 * refused configuration step names its device as the request spelt it,
 * and every byte of that name that is not printable ASCII (control
 * characters, escape sequences, DEL, bytes of 0x80 and above), and the
 * backslash, comes back as \xHH, never raw. The refused steps change
 * nothing: the transaction they were in is void, and the socket's going
 * drops it.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "dcm_nl.h"
#include "kselftest_harness.h"
#include "dcm_test.h"

/* What the kernel must send for @name: printable ASCII as is, else \xHH. */
static void quoted(const char *name, char *out, size_t size)
{
	size_t n = 0;

	for (; *name && n + 5 < size; name++) {
		unsigned char c = *name;

		if (c >= 0x20 && c < 0x7f && c != '\\')
			out[n++] = c;
		else
			n += snprintf(out + n, size - n, "\\x%02x", c);
	}
	out[n] = '\0';
}

static int printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			return 0;
	return 1;
}

FIXTURE(quote) {
	struct conn c;
};

FIXTURE_SETUP(quote)
{
	ASSERT_EQ(0, conn_open(&self->c));
}

FIXTURE_TEARDOWN(quote)
{
	conn_close(&self->c);
}

/* An escape sequence, a newline, UTF-8 and a lone 0xff in a device's name. */
TEST_F(quote, hostile_device_name)
{
	const char *name = "Bad\x1b[31m\xc3\xa9\xff\nX\\Y\x7f";

	ASSERT_EQ(0, begin(&self->c)) TH_LOG("%s", self->c.msg);
	EXPECT_EQ(-NLE_INVAL, add_device(&self->c, name, "Toaster", "RS485-1", 1));
	EXPECT_STREQ("device Bad\\x1b[31m\\xc3\\xa9\\xff\\x0aX\\x5cY\\x7f: bad device name: one component of [A-Za-z0-9_.-], under 128 bytes",
		     self->c.msg);
}

/*
 * Every byte value, one name each: the ack names the device as quoted(),
 * then says why (a bad name, or the unknown type of a good one), and is
 * printable ASCII.
 */
TEST_F(quote, every_byte)
{
	char name[8], want[64], msg[192];
	int b, bad = 0;

	for (b = 1; b < 256; b++) {
		snprintf(name, sizeof(name), "N%cN", b);
		ASSERT_EQ(0, begin(&self->c)) TH_LOG("byte 0x%02x: %s", b, self->c.msg);
		EXPECT_EQ(-NLE_INVAL, add_device(&self->c, name, "Toaster", "RS485-1", 1));
		quoted(name, want, sizeof(want));
		snprintf(msg, sizeof(msg), "device %s: %s", want,
			 isalnum(b) || strchr("_.-", b) ? "unknown device type" :
			 "bad device name: one component of [A-Za-z0-9_.-], under 128 bytes");
		if (strcmp(msg, self->c.msg) || !printable(self->c.msg)) {
			bad++;
			TH_LOG("byte 0x%02x: got \"%s\", want \"%s\"", b, self->c.msg, msg);
		}
	}
	EXPECT_EQ(0, bad);
}

/* A subdevice's name and its device's, in the message of a later step. */
TEST_F(quote, hostile_subdevice_name)
{
	char want[128];

	ASSERT_EQ(0, begin(&self->c)) TH_LOG("%s", self->c.msg);
	ASSERT_EQ(0, add_device(&self->c, "Dev", "FootBoard", "RS485-1", 3)) TH_LOG("%s",
										self->c.msg);
	EXPECT_GT(0, add_sub(&self->c, "S\r\x9b" "2J", "NoSuchType", "Dev", 1));
	EXPECT_TRUE(printable(self->c.msg)) TH_LOG("%s", self->c.msg);
	quoted("S\r\x9b" "2J", want, sizeof(want));
	EXPECT_NE(NULL, strstr(self->c.msg, want)) TH_LOG("\"%s\" does not quote \"%s\"",
							 self->c.msg, want);
}

DCM_HARNESS_MAIN
