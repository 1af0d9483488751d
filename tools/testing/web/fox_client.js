// SPDX-License-Identifier: GPL-2.0
//
// A Foxglove WebSocket client for test_web.py: the reference client of the
// npm registry (@foxglove/ws-protocol's FoxgloveClient, over the ws
// package), installed into the build tree by the test.
//
//   node fox_client.js URL TOPIC FIELD TARGET SECONDS
//
// Subscribes to TOPIC and prints one JSON line when FIELD came within 0.02
// of TARGET, or when SECONDS passed: {"channels": [...topics],
// "messages": N, "first": V, "last": V, "reached": bool, "ids_ok": bool}.
// Exit status 0 if reached, 1 if not, 2 on a protocol failure.
'use strict';

const { FoxgloveClient } = require('@foxglove/ws-protocol');
const WebSocket = require('ws');

const [url, topic, field, targetText, secondsText] = process.argv.slice(2);
const target = Number(targetText);
const seconds = Number(secondsText);
if (!url || !topic || !field || Number.isNaN(target) || !(seconds > 0)) {
	console.error('usage: node fox_client.js URL TOPIC FIELD TARGET SECONDS');
	process.exit(2);
}

const client = new FoxgloveClient({
	ws: new WebSocket(url, [FoxgloveClient.SUPPORTED_SUBPROTOCOL]),
});
const decoder = new TextDecoder();
const result = { server: null, channels: [], messages: 0, first: null, last: null,
	reached: false, ids_ok: true };
let subId = null;

function finish(code) {
	console.log(JSON.stringify(result));
	client.close();
	process.exit(code);
}

setTimeout(() => finish(result.reached ? 0 : 1), seconds * 1000);

client.on('error', e => {
	console.error('fox_client: ' + (e && e.message ? e.message : e));
	finish(2);
});
client.on('serverInfo', info => { result.server = info.name; });
client.on('status', s => console.error(`fox_client: status ${s.level}: ${s.message}`));
client.on('advertise', channels => {
	for (const c of channels) {
		result.channels.push(c.topic);
		if (c.topic === topic && subId === null)
			subId = client.subscribe(c.id);
	}
	if (subId === null) {
		console.error(`fox_client: no channel ${topic}`);
		finish(2);
	}
});
client.on('message', ({ subscriptionId, data }) => {
	if (subscriptionId !== subId) {
		result.ids_ok = false;
		return;
	}
	const m = JSON.parse(decoder.decode(data));
	const v = m[field];
	if (typeof v !== 'number')
		return;
	result.messages++;
	if (result.first === null)
		result.first = v;
	result.last = v;
	if (Math.abs(v - target) < 0.02) {
		result.reached = true;
		finish(0);
	}
});
