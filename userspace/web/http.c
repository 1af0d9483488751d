// SPDX-License-Identifier: GPL-2.0
/*
 * dcm-web's HTTP: / serves the page's files (libwebsockets' file mount of
 * --root), /metrics the metrics (metrics.c), anything below /metrics 404;
 * a method other than GET 405 (with Allow), a WebSocket upgrade that does
 * not ask for the Foxglove subprotocol 400; an answer that stalls is
 * closed after --http-timeout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "http.h"
#include "metrics.h"
#include "server.h"

#define CHUNK 4096	/* bytes of an answer a writable callback */

static const struct lws_http_mount mount_metrics = {
	.mountpoint = "/metrics",
	.mountpoint_len = 8,
	.origin = "http",
	.origin_protocol = LWSMPRO_CALLBACK,
};

const struct lws_http_mount *web_http_mounts(struct lws_http_mount *root, const char *dir)
{
	memset(root, 0, sizeof(*root));
	root->mount_next = &mount_metrics;
	root->mountpoint = "/";
	root->mountpoint_len = 1;
	root->origin = dir;
	root->def = "index.html";
	root->origin_protocol = LWSMPRO_FILE;
	return root;
}

/*
 * An error answer with a line of text, and Allow: @allow if not NULL,
 * written at once; the caller then has the connection closed.
 */
static void http_error(struct lws *wsi, unsigned int code, const char *allow, const char *text)
{
	unsigned char buf[LWS_PRE + 512], *start = buf + LWS_PRE, *p = start;
	unsigned char *end = buf + sizeof(buf) - 1;
	size_t n = strlen(text);

	if (lws_add_http_header_status(wsi, code, &p, end) ||
	    (allow && lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_ALLOW,
						   (const unsigned char *)allow,
						   (int)strlen(allow), &p, end)) ||
	    lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CONTENT_TYPE,
					 (const unsigned char *)"text/plain; charset=utf-8", 25,
					 &p, end) ||
	    lws_add_http_header_by_token(wsi, WSI_TOKEN_CONNECTION,
					 (const unsigned char *)"close", 5, &p, end) ||
	    lws_add_http_header_content_length(wsi, n, &p, end) ||
	    lws_finalize_http_header(wsi, &p, end) || (size_t)(end - p) < n)
		return;
	memcpy(p, text, n);
	p += n;
	lws_write(wsi, start, (size_t)(p - start), LWS_WRITE_HTTP_HEADERS);
}

/*
 * The answer to a WebSocket upgrade refused, sent on the socket itself:
 * libwebsockets has begun the upgrade and writes no HTTP answer in it, and
 * hangs up once the callback returns. Plain TCP (dcm-web has no TLS),
 * nothing sent on the connection yet; the answer fits a socket's buffer.
 */
static void upgrade_refused(struct lws *wsi)
{
	static const char answer[] =
		"HTTP/1.1 400 Bad Request\r\n"
		"Content-Type: text/plain; charset=utf-8\r\n"
		"Content-Length: 75\r\n"
		"Connection: close\r\n\r\n"
		"400 Bad Request: the WebSocket's subprotocol must be " WEB_SUBPROTOCOL "\n";
	int fd = lws_get_socket_fd(wsi);

	_Static_assert(sizeof("400 Bad Request: the WebSocket's subprotocol must be "
			      WEB_SUBPROTOCOL "\n") - 1 == 75, "Content-Length");
	if (fd >= 0)
		(void)send(fd, answer, sizeof(answer) - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
}

/* Whether the Sec-WebSocket-Protocol list of the request names ours. */
static int asks_foxglove(struct lws *wsi)
{
	char list[256], *tok, *save;

	if (lws_hdr_copy(wsi, list, sizeof(list), WSI_TOKEN_PROTOCOL) <= 0)
		return 0;
	for (tok = strtok_r(list, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save))
		if (!strcmp(tok, WEB_SUBPROTOCOL))
			return 1;
	return 0;
}

/* The metrics now, into @hs. Return: 0, or -1. */
static int metrics_body(struct web_server *s, struct web_http_session *hs)
{
	static const struct dcm_values_frame empty;
	size_t sz;
	FILE *f;

	hs->body = NULL;
	f = open_memstream(&hs->body, &sz);
	if (!f)
		return -1;
	web_metrics(f, s->dcm, &s->model, s->counters.frames ? &s->frame : &empty,
		    &s->counters);
	web_lola_metrics(f, s->o.lola_status);
	if (fclose(f)) {
		free(hs->body);
		hs->body = NULL;
		return -1;
	}
	hs->len = strlen(hs->body);
	hs->off = 0;
	return 0;
}

/* A request of the /metrics mount: its headers sent, its body to follow. */
static int http_request(struct lws *wsi, struct web_http_session *hs, const char *path)
{
	struct web_server *s = web_server_of(wsi);
	unsigned char hdr[LWS_PRE + 512], *p, *end;

	/*
	 * The mount /metrics, nothing below it. libwebsockets passes the
	 * whole path (or, in some versions, what follows the mount point).
	 */
	if (!strncmp(path, "/metrics", 8))
		path += 8;
	if (*path && strcmp(path, "/")) {
		lws_return_http_status(wsi, HTTP_STATUS_NOT_FOUND, NULL);
		return -1;
	}
	if (metrics_body(s, hs))
		return -1;
	p = hdr + LWS_PRE;
	end = hdr + sizeof(hdr) - 1;
	if (lws_add_http_common_headers(wsi, HTTP_STATUS_OK,
					"text/plain; version=0.0.4; charset=utf-8",
					hs->len, &p, end) ||
	    lws_finalize_write_http_header(wsi, hdr + LWS_PRE, &p, end))
		return 1;
	/* A client that does not read the answer: closed (--http-timeout). */
	lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, (int)s->o.http_timeout);
	lws_callback_on_writable(wsi);
	return 0;
}

/* The next chunk of the body. */
static int http_write(struct lws *wsi, struct web_http_session *hs)
{
	size_t n = hs->len - hs->off;
	unsigned char *b;
	int last;

	if (n > CHUNK)
		n = CHUNK;
	last = hs->off + n == hs->len;
	b = malloc(LWS_PRE + n + 1);
	if (!b)
		return -1;
	memcpy(b + LWS_PRE, hs->body + hs->off, n);
	if (lws_write(wsi, b + LWS_PRE, n,
		      last ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) != (int)n) {
		free(b);
		return 1;
	}
	free(b);
	hs->off += n;
	if (!last) {
		lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT,
				(int)web_server_of(wsi)->o.http_timeout);
		lws_callback_on_writable(wsi);
		return 0;
	}
	free(hs->body);
	hs->body = NULL;
	if (lws_http_transaction_completed(wsi))
		return -1;
	return 0;
}

int web_http_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
		      size_t len)
{
	struct web_http_session *hs = user;

	switch (reason) {
	case LWS_CALLBACK_HTTP:
		return http_request(wsi, hs, in ? (const char *)in : "");
	case LWS_CALLBACK_HTTP_WRITEABLE:
		if (!hs->body)
			break;
		return http_write(wsi, hs);
	case LWS_CALLBACK_CLOSED_HTTP:
		free(hs ? hs->body : NULL);
		if (hs)
			hs->body = NULL;
		break;
	case LWS_CALLBACK_FILTER_HTTP_CONNECTION:
		/* Every request, the page's and the metrics': GET only. */
		if (lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0)
			break;
		http_error(wsi, HTTP_STATUS_METHOD_NOT_ALLOWED, "GET",
			   "405 Method Not Allowed: dcm-web answers GET only\n");
		return -1;
	case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
		/*
		 * A WebSocket must ask for the Foxglove subprotocol: else a
		 * 400 saying so, and the connection is hung up (-1; 1, "the
		 * answer is written", would need it written through
		 * libwebsockets, which this stage does not do).
		 */
		if (!strcasecmp(in ? (const char *)in : "", "websocket") && asks_foxglove(wsi))
			break;
		upgrade_refused(wsi);
		return -1;
	case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
	case LWS_CALLBACK_ESTABLISHED:
		/* A WebSocket without our subprotocol: refused. */
		return -1;
	default:
		break;
	}
	return lws_callback_http_dummy(wsi, reason, user, in, len);
}
