// SPDX-License-Identifier: GPL-2.0
//
// dcm-web's WebSocket against bad clients, for test_web.py (over the ws
// package of the npm registry):
//
//   node ws_abuse.js URL
//
// Prints one JSON line: {"no_subprotocol": the HTTP status the upgrade
// without a subprotocol got, or "accepted" or "closed" (no HTTP answer),
// "wrong_subprotocol": the same for one asking only for another, "errors": N (status messages of level 2 for the bad requests), "bad": N
// (bad requests sent), "alive": bool (a good subscription still gets data
// after them), "publish_refused": bool}. Exit status 0 when all is as it
// should be, 1 otherwise.
'use strict';

const WebSocket = require('ws');

const url = process.argv[2];
const result = { no_subprotocol: null, wrong_subprotocol: null, errors: 0, bad: 0,
	alive: false, publish_refused: false };

function done() {
	console.log(JSON.stringify(result));
	const ok = result.no_subprotocol === 400 && result.wrong_subprotocol === 400 &&
		result.errors >= result.bad &&
		result.alive && result.publish_refused;
	process.exit(ok ? 0 : 1);
}

setTimeout(done, 30000);

// Without the subprotocol, or with another only: the server must not speak
// Foxglove to it, and says why in an HTTP answer.
function upgrade(protocols, key, then) {
	const ws = new WebSocket(url, protocols);
	let seen = false;
	const once = v => {
		if (seen)
			return;
		seen = true;
		result[key] = v;
		then();
	};
	ws.on('open', () => {
		ws.close();
		once('accepted');
	});
	ws.on('error', () => once('closed'));
	ws.on('unexpected-response', (req, res) => {
		res.resume();
		once(res.statusCode);
	});
}
upgrade([], 'no_subprotocol', () => upgrade(['bogus.v1'], 'wrong_subprotocol', abuse));

let started = false;
function abuse() {
	if (started)
		return;
	started = true;
	const ws = new WebSocket(url, ['foxglove.websocket.v1']);
	let channel = null;
	ws.binaryType = 'arraybuffer';
	ws.on('message', (data, isBinary) => {
		if (isBinary) {
			const v = new DataView(data);
			if (v.getUint8(0) === 1 && v.getUint32(1, true) === 77) {
				result.alive = true;
				ws.close();
				done();
			}
			return;
		}
		const m = JSON.parse(data.toString());
		if (m.op === 'advertise' && channel === null) {
			channel = m.channels.find(c => c.topic === '/joints/position').id;
			const bad = [
				'not json at all',
				'{}',
				'{"op": 5}',
				'{"op": "subscribe"}',
				'{"op": "subscribe", "subscriptions": "x"}',
				'{"op": "subscribe", "subscriptions": [{"id": -1, "channelId": 1}]}',
				'{"op": "subscribe", "subscriptions": [{"id": 1.5, "channelId": 1}]}',
				'{"op": "subscribe", "subscriptions": [{"id": 1, "channelId": 99999}]}',
				'{"op": "subscribe", "subscriptions": [{"id": 4294967296, "channelId": 1}]}',
				'{"op": "unsubscribe", "subscriptionIds": ["a"]}',
				'{"op": "advertise", "channels": [{"id": 1, "topic": "/cmd", "encoding": "json", "schemaName": "x"}]}',
				'{"op": "setParameters", "parameters": []}',
				'{"op": "callService"}',
				'{"op": "subscribe", "subscriptions": [' + '{"id": 5, "channelId": 1},'.repeat(200) + '{"id": 5, "channelId": 1}]}',
			];
			for (const b of bad)
				ws.send(b);
			ws.send(Buffer.from([2, 0, 0, 0, 0, 1, 2, 3]), { binary: true });
			result.bad = bad.length + 1;
			ws.send(JSON.stringify({ op: 'unsubscribe', subscriptionIds: [5] }));
			ws.send(JSON.stringify({ op: 'subscribe',
				subscriptions: [{ id: 77, channelId: channel }] }));
		} else if (m.op === 'status' && m.level === 2) {
			result.errors++;
			if (/read-only/.test(m.message))
				result.publish_refused = true;
		}
	});
	ws.on('error', e => {
		console.error('ws_abuse: ' + e.message);
		done();
	});
}
