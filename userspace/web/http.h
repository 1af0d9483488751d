/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm-web's HTTP: the page from --root (a libwebsockets file mount),
 * /metrics, and the errors (404 below /metrics, 405 with Allow for a method
 * other than GET, 400 for a WebSocket upgrade without the Foxglove
 * subprotocol).
 */
#ifndef DCM_WEB_HTTP_H
#define DCM_WEB_HTTP_H

#include <stddef.h>

#include <libwebsockets.h>

/* An HTTP connection's answer being sent: the per-session data of "http". */
struct web_http_session {
	char *body;
	size_t len, off;
};

/* The "http" protocol's libwebsockets callback. */
int web_http_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
		      size_t len);

/* The mounts: / the page from @root, /metrics the callback above. */
const struct lws_http_mount *web_http_mounts(struct lws_http_mount *root, const char *dir);

#endif /* DCM_WEB_HTTP_H */
