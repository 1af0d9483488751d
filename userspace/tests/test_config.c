// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: libdcm's configuration path without a kernel: the parser of
 * the kernel's extended acks (NLMSGERR_ATTR_MSG after a capped or an
 * uncapped nlmsgerr, malformed ones), and argument checks.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <netlink/netlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "libdcm-private.h"

/*
 * An NLMSG_ERROR message: nlmsgerr, then @echo_len bytes of echoed request
 * payload unless capped, then the TLVs (a MSG attribute if @text).
 */
static struct nl_msg *ack(int flags, size_t echo_len, const char *text)
{
	struct nl_msg *msg = nlmsg_alloc_simple(NLMSG_ERROR, flags);
	struct nlmsgerr *e;
	size_t payload = sizeof(*e) + ((flags & NLM_F_CAPPED) ? 0 : echo_len);
	void *p;

	assert_non_null(msg);
	p = nlmsg_reserve(msg, payload, NLMSG_ALIGNTO);
	assert_non_null(p);
	memset(p, 0xa5, payload);
	e = p;
	e->error = -ERANGE;
	e->msg.nlmsg_len = NLMSG_HDRLEN + (uint32_t)echo_len;
	e->msg.nlmsg_type = 0x20;
	e->msg.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	if (text)
		assert_int_equal(nla_put_string(msg, NLMSGERR_ATTR_MSG, text), 0);
	assert_int_equal(nla_put_u32(msg, NLMSGERR_ATTR_OFFS, 24), 0);
	return msg;
}

static void parse(struct nl_msg *msg, char *buf, size_t len)
{
	dcm_nl_ext_ack_msg(nlmsg_data(nlmsg_hdr(msg)), buf, len);
}

static const char kmsg[] = "key HeadPitch/Position/Sensor/jointZeroPosition: the value is "
			   "outside the key's range";

static void test_ext_ack(void **state)
{
	struct nl_msg *msg;
	char buf[256];

	(void)state;
	/* capped: the TLVs follow the nlmsgerr */
	msg = ack(NLM_F_CAPPED | NLM_F_ACK_TLVS, 100, kmsg);
	parse(msg, buf, sizeof(buf));
	assert_string_equal(buf, kmsg);
	nlmsg_free(msg);

	/* uncapped: after the echoed request, whose length is not aligned */
	msg = ack(NLM_F_ACK_TLVS, 37, kmsg);
	parse(msg, buf, sizeof(buf));
	assert_string_equal(buf, kmsg);
	nlmsg_free(msg);

	/* a small buffer truncates */
	msg = ack(NLM_F_CAPPED | NLM_F_ACK_TLVS, 0, kmsg);
	parse(msg, buf, 8);
	assert_string_equal(buf, "key Hea");
	nlmsg_free(msg);

	/* no TLV flag: no message, even if bytes follow */
	msg = ack(NLM_F_CAPPED, 0, kmsg);
	strcpy(buf, "stale");
	parse(msg, buf, sizeof(buf));
	assert_string_equal(buf, "");
	nlmsg_free(msg);

	/* TLVs without a MSG attribute */
	msg = ack(NLM_F_CAPPED | NLM_F_ACK_TLVS, 0, NULL);
	parse(msg, buf, sizeof(buf));
	assert_string_equal(buf, "");
	nlmsg_free(msg);

	/* an echoed length that runs past the message: nothing, no overread */
	msg = ack(NLM_F_ACK_TLVS, 16, kmsg);
	((struct nlmsgerr *)nlmsg_data(nlmsg_hdr(msg)))->msg.nlmsg_len = 4096;
	parse(msg, buf, sizeof(buf));
	assert_string_equal(buf, "");
	((struct nlmsgerr *)nlmsg_data(nlmsg_hdr(msg)))->msg.nlmsg_len = 3;
	parse(msg, buf, sizeof(buf));
	assert_string_equal(buf, "");
	nlmsg_free(msg);
}

/* A MSG attribute without its NUL is refused rather than overread. */
static void test_ext_ack_unterminated(void **state)
{
	struct nl_msg *msg = nlmsg_alloc_simple(NLMSG_ERROR, NLM_F_CAPPED | NLM_F_ACK_TLVS);
	struct nlmsgerr *e;
	char buf[64];

	(void)state;
	e = nlmsg_reserve(msg, sizeof(*e), NLMSG_ALIGNTO);
	memset(e, 0, sizeof(*e));
	e->error = -EINVAL;
	assert_int_equal(nla_put(msg, NLMSGERR_ATTR_MSG, 4, "abcd"), 0);
	parse(msg, buf, sizeof(buf));
	assert_string_equal(buf, "");
	nlmsg_free(msg);
}

static void test_args(void **state)
{
	struct dcm_key_value v = { LIBDCM_KEY_INT, 1, NULL, 0 };

	(void)state;
	assert_int_equal(dcm_nl_config_begin(NULL, 0), -EINVAL);
	assert_int_equal(dcm_nl_config_abort(NULL, 0), -EINVAL);
	assert_int_equal(dcm_nl_config_commit(NULL, 0, NULL), -EINVAL);
	assert_int_equal(dcm_nl_config_add_device(NULL, 0, "a", "b", "c", 1), -EINVAL);
	assert_int_equal(dcm_nl_config_add_subdevice(NULL, 0, "a", "b", "c", 1), -EINVAL);
	assert_int_equal(dcm_nl_config_set_key(NULL, 0, "a/b", &v), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ext_ack),
		cmocka_unit_test(test_ext_ack_unterminated),
		cmocka_unit_test(test_args),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
