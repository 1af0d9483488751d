// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: the JSON writer (escaping, UTF-8 validation, structure).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "json.h"

/* Output of json_write_string(@in), in a static buffer. */
static const char *esc(const char *in)
{
	static char out[1024];
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	json_write_string(f, in);
	fclose(f);
	assert_true(len < sizeof(out));
	memcpy(out, buf, len + 1);
	free(buf);
	return out;
}

static void test_escape_plain(void **state)
{
	(void)state;
	assert_string_equal(esc(""), "\"\"");
	assert_string_equal(esc("dcm0"), "\"dcm0\"");
	assert_string_equal(esc("Device/SubDeviceList/HeadYaw"),
			    "\"Device/SubDeviceList/HeadYaw\"");
	assert_string_equal(esc(NULL), "\"\"");
}

static void test_escape_specials(void **state)
{
	(void)state;
	assert_string_equal(esc("a\"b"), "\"a\\\"b\"");
	assert_string_equal(esc("a\\b"), "\"a\\\\b\"");
	assert_string_equal(esc("\b\f\n\r\t"), "\"\\b\\f\\n\\r\\t\"");
	assert_string_equal(esc("\x01"), "\"\\u0001\"");
	assert_string_equal(esc("\x1f"), "\"\\u001f\"");
	assert_string_equal(esc("x\x7fy"), "\"x\\u007fy\"");
	assert_string_equal(esc("</script>"), "\"</script>\"");
	assert_string_equal(esc("\"\\\""), "\"\\\"\\\\\\\"\"");
}

static void test_escape_utf8(void **state)
{
	(void)state;
	/* valid sequences pass through unchanged */
	assert_string_equal(esc("\xc3\xa9"), "\"\xc3\xa9\"");		/* é */
	assert_string_equal(esc("\xe6\x9c\xba"), "\"\xe6\x9c\xba\"");	/* 机 */
	assert_string_equal(esc("\xf0\x9f\xa4\x96"), "\"\xf0\x9f\xa4\x96\"");
	assert_string_equal(esc("\xef\xbf\xbf"), "\"\xef\xbf\xbf\"");	/* U+FFFF */
	assert_string_equal(esc("\xf4\x8f\xbf\xbf"), "\"\xf4\x8f\xbf\xbf\"");

	/* invalid bytes become U+FFFD, one per byte */
	assert_string_equal(esc("\xff"), "\"\\ufffd\"");
	assert_string_equal(esc("a\x80z"), "\"a\\ufffdz\"");		/* lone continuation */
	assert_string_equal(esc("\xc0\xaf"), "\"\\ufffd\\ufffd\"");	/* overlong '/' */
	assert_string_equal(esc("\xe0\x80\xaf"), "\"\\ufffd\\ufffd\\ufffd\"");
	assert_string_equal(esc("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");	/* surrogate */
	assert_string_equal(esc("\xf4\x90\x80\x80"),
			    "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");	/* > U+10FFFF */
	assert_string_equal(esc("\xc3"), "\"\\ufffd\"");		/* cut at the end */
	assert_string_equal(esc("\xe6\x9c"), "\"\\ufffd\\ufffd\"");
	assert_string_equal(esc("\xc3\n"), "\"\\ufffd\\n\"");
}

/* Run @fn against a memstream writer, return the text (caller frees). */
static char *render(void (*fn)(struct json_writer *), bool pretty, int *rc)
{
	struct json_writer w;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	json_init(&w, f, pretty);
	fn(&w);
	*rc = json_finish(&w);
	fclose(f);
	return buf;
}

static void doc_info(struct json_writer *w)
{
	json_begin_object(w, NULL);
	json_begin_object(w, "ioctl");
	json_string(w, "name", "dcm\"0");
	json_uint(w, "period_us", 10000);
	json_int(w, "errno", -2);
	json_bool(w, "ok", true);
	json_null(w, "none");
	json_begin_array(w, "flags");
	json_string(w, NULL, "simulated");
	json_string(w, NULL, "running");
	json_end_array(w);
	json_begin_array(w, "empty");
	json_end_array(w);
	json_end_object(w);
	json_double(w, "x", 0.1);
	json_double(w, "nan", NAN);
	json_uint(w, "max", UINT64_MAX);
	json_int(w, "min", INT64_MIN);
	json_end_object(w);
}

static void test_document(void **state)
{
	int rc;
	char *s = render(doc_info, false, &rc);

	(void)state;
	assert_int_equal(rc, 0);
	assert_string_equal(s,
		"{\"ioctl\":{\"name\":\"dcm\\\"0\",\"period_us\":10000,"
		"\"errno\":-2,\"ok\":true,\"none\":null,"
		"\"flags\":[\"simulated\",\"running\"],\"empty\":[]},"
		"\"x\":0.1,\"nan\":null,\"max\":18446744073709551615,"
		"\"min\":-9223372036854775808}\n");
	free(s);
}

static void doc_small(struct json_writer *w)
{
	json_begin_object(w, NULL);
	json_uint(w, "a", 1);
	json_begin_array(w, "b");
	json_uint(w, NULL, 2);
	json_end_array(w);
	json_begin_object(w, "c");
	json_end_object(w);
	json_end_object(w);
}

static void test_pretty(void **state)
{
	int rc;
	char *s = render(doc_small, true, &rc);

	(void)state;
	assert_int_equal(rc, 0);
	assert_string_equal(s,
		"{\n"
		"  \"a\": 1,\n"
		"  \"b\": [\n"
		"    2\n"
		"  ],\n"
		"  \"c\": {}\n"
		"}\n");
	free(s);
}

static void doc_unbalanced(struct json_writer *w)
{
	json_begin_object(w, NULL);
	json_begin_array(w, "a");
	json_end_object(w);	/* wrong closer */
}

static void doc_key_in_array(struct json_writer *w)
{
	json_begin_array(w, NULL);
	json_uint(w, "k", 1);
	json_end_array(w);
}

static void doc_missing_key(struct json_writer *w)
{
	json_begin_object(w, NULL);
	json_uint(w, NULL, 1);
	json_end_object(w);
}

static void doc_two_roots(struct json_writer *w)
{
	json_uint(w, NULL, 1);
	json_uint(w, NULL, 2);
}

static void test_misuse(void **state)
{
	int rc;

	(void)state;
	free(render(doc_unbalanced, false, &rc));
	assert_int_equal(rc, -1);
	free(render(doc_key_in_array, false, &rc));
	assert_int_equal(rc, -1);
	free(render(doc_missing_key, false, &rc));
	assert_int_equal(rc, -1);
	free(render(doc_two_roots, false, &rc));
	assert_int_equal(rc, -1);
}

static void doc_doubles(struct json_writer *w)
{
	json_begin_array(w, NULL);
	json_double(w, NULL, 1.0);
	json_double(w, NULL, -2.5);
	json_double(w, NULL, 1e300);
	json_double(w, NULL, 2.0943951);
	json_double(w, NULL, INFINITY);
	json_end_array(w);
}

static void test_doubles(void **state)
{
	int rc;
	char *s = render(doc_doubles, false, &rc);

	(void)state;
	assert_int_equal(rc, 0);
	assert_string_equal(s, "[1,-2.5,1e+300,2.0943951,null]\n");
	free(s);
}

/* A message written into a memory stream: closed, its final newlines gone. */
static void test_mem_message(void **state)
{
	struct json_writer w;
	char *buf = NULL, *m;
	size_t sz, len = 99;
	FILE *f = open_memstream(&buf, &sz);

	(void)state;
	assert_non_null(f);
	json_init(&w, f, false);
	json_begin_object(&w, NULL);
	json_uint(&w, "a", 1);
	json_end_object(&w);
	assert_int_equal(json_finish(&w), 0);
	fputc('\n', f);
	m = json_mem_message(f, &buf, &len);
	assert_ptr_equal(m, buf);
	assert_string_equal(m, "{\"a\":1}");
	assert_int_equal(len, 7);
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &sz);
	assert_non_null(f);
	assert_string_equal(json_mem_message(f, &buf, NULL), "");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mem_message),
		cmocka_unit_test(test_escape_plain),
		cmocka_unit_test(test_escape_specials),
		cmocka_unit_test(test_escape_utf8),
		cmocka_unit_test(test_document),
		cmocka_unit_test(test_pretty),
		cmocka_unit_test(test_misuse),
		cmocka_unit_test(test_doubles),
	};

	return cmocka_run_group_tests_name("json", tests, NULL, NULL);
}
