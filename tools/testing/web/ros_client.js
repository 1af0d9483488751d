// SPDX-License-Identifier: GPL-2.0
//
// A ROS 2 and 3D view of dcm-web for test_web.py, as Foxglove Studio sees
// it: the Foxglove WebSocket reference client (@foxglove/ws-protocol)
// subscribes to /joint_states, /imu, /foot_pressure, /tf and
// /robot_description; the CDR messages are decoded with Foxglove's ROS 2
// reader (@foxglove/rosmsg2-serialization) twice, once with the
// definitions the server's ros2msg schema gives (@foxglove/rosmsg's
// parser) and once with ROS 2's own definitions of the types
// (@foxglove/rosmsg-msgs-common, Humble); /tf is checked against
// foxglove.FrameTransforms' JSON schema of @foxglove/schemas (with ajv).
//
//   node ros_client.js URL JOINT TARGET SECONDS URDF_OUT
//
// Ends when the torso-to-Neck transform (the HeadYaw joint) came within
// 0.02 rad of TARGET, or after SECONDS; prints one JSON line (what it
// saw) and writes the URDF it received to URDF_OUT. Exit status 0 if
// reached, 1 if not, 2 on a protocol failure.
'use strict';

const fs = require('fs');
const util = require('util');
const { FoxgloveClient } = require('@foxglove/ws-protocol');
const { parse } = require('@foxglove/rosmsg');
const { MessageReader } = require('@foxglove/rosmsg2-serialization');
const common = require('@foxglove/rosmsg-msgs-common').ros2humble;
const schemas = require('@foxglove/schemas/jsonschema');
const Ajv = require('ajv');
const WebSocket = require('ws');

const [url, joint, targetText, secondsText, urdfOut] = process.argv.slice(2);
const target = Number(targetText);
const seconds = Number(secondsText);
if (!url || !joint || Number.isNaN(target) || !(seconds > 0) || !urdfOut) {
	console.error('usage: node ros_client.js URL JOINT TARGET SECONDS URDF_OUT');
	process.exit(2);
}

const TOPICS = ['/joint_states', '/imu', '/foot_pressure', '/tf', '/robot_description'];
const client = new FoxgloveClient({
	ws: new WebSocket(url, [FoxgloveClient.SUPPORTED_SUBPROTOCOL]),
});
const validateTf = new Ajv({ strict: false }).compile(schemas.FrameTransforms);
const result = {
	server: null, channels: {}, counts: {}, schema_errors: [], decode_mismatch: [],
	tf_errors: [], names: null, first: null, head: null, imu: null, feet: null,
	urdf_bytes: 0, reached: false,
};
const subs = new Map();		// subscription id -> channel
const states = new Map();	// stamp -> joint positions by name
let finished = false;

function finish(code) {
	if (finished)
		return;
	finished = true;
	console.log(JSON.stringify(result));
	client.close();
	process.exit(code);
}

setTimeout(() => finish(result.reached ? 0 : 1), seconds * 1000);

// A type of ROS 2's own (msgs-common names it without "/msg/").
function rosName(name) {
	return name.replace('/msg/', '/');
}

// The definitions a reader needs for TYPE: it first, then what it uses.
function ros2Definitions(type) {
	const out = [];
	const seen = new Set();
	const visit = name => {
		if (seen.has(name))
			return;
		seen.add(name);
		const d = common[name];
		if (!d)
			throw new Error(`ROS 2 has no type ${name}`);
		out.push(d);
		for (const f of d.definitions)
			if (f.isComplex)
				visit(f.type);
	};
	visit(rosName(type));
	return out;
}

// A definition's fields, as both parsers agree to give them.
function fields(d) {
	return JSON.stringify(d.definitions.map(f => [f.name, f.type, !!f.isArray,
		f.arrayLength ?? null, !!f.isComplex]));
}

// Each channel's readers: from its schema, and (if ROS 2 has the type) ROS 2's.
function readers(ch) {
	const parsed = parse(ch.schema, { ros2: true });
	const own = new MessageReader(parsed);
	let ros = null;
	if (common[rosName(ch.schemaName)]) {
		const defs = ros2Definitions(ch.schemaName);
		if (fields(parsed[0]) !== fields(defs[0]))
			result.schema_errors.push(`${ch.topic}: ${ch.schemaName} differs from ROS 2's`);
		ros = new MessageReader(defs);
	}
	// The types it uses must be ROS 2's too.
	for (const d of parsed.slice(1)) {
		const theirs = common[d.name];
		if (!theirs || fields(d) !== fields(theirs))
			result.schema_errors.push(`${ch.topic}: ${d.name} differs from ROS 2's`);
	}
	return { own, ros };
}

function stamp(h) {
	return `${h.stamp.sec}.${String(h.stamp.nanosec).padStart(9, '0')}`;
}

function angle(q) {
	return 2 * Math.atan2(Math.hypot(q.x, q.y, q.z), q.w) * Math.sign(q.z || 1);
}

function onTf(m) {
	if (!validateTf(m)) {
		result.tf_errors.push(JSON.stringify(validateTf.errors).slice(0, 300));
		return;
	}
	const t = m.transforms.find(x => x.parent_frame_id === 'torso' &&
				       x.child_frame_id === 'Neck');
	if (!t)
		return;
	const key = `${t.timestamp.sec}.${String(t.timestamp.nsec).padStart(9, '0')}`;
	const pos = states.get(key);
	if (!pos)
		return;
	const a = angle(t.rotation);
	result.head = { stamp: key, position: pos[joint], tf_angle: a,
		rotation: t.rotation, translation: t.translation,
		n_transforms: m.transforms.length };
	if (Math.abs(a - target) < 0.02 && Math.abs(a - pos[joint]) < 1e-9 &&
	    result.urdf_bytes && result.counts['/imu'] && result.counts['/foot_pressure']) {
		result.reached = true;
		finish(0);
	}
}

function onCdr(ch, r, data) {
	const m = r.own.readMessage(data);
	if (r.ros) {
		const theirs = r.ros.readMessage(data);
		if (!util.isDeepStrictEqual(m, theirs) && result.decode_mismatch.length < 5)
			result.decode_mismatch.push(ch.topic);
	}
	if (ch.topic === '/joint_states') {
		const pos = {};
		m.name.forEach((n, i) => { pos[n] = m.position[i]; });
		result.names = m.name;
		if (result.first === null)
			result.first = pos[joint];
		states.set(stamp(m.header), pos);
		if (states.size > 500)
			states.delete(states.keys().next().value);
	} else if (ch.topic === '/imu') {
		result.imu = { frame: m.header.frame_id, orientation: m.orientation,
			linear_acceleration: m.linear_acceleration };
	} else if (ch.topic === '/foot_pressure') {
		result.feet = { left: m.left_fsr, right: m.right_fsr,
			total: [m.left_total_weight, m.right_total_weight] };
	} else if (ch.topic === '/robot_description') {
		fs.writeFileSync(urdfOut, m.data);
		result.urdf_bytes = m.data.length;
	}
}

client.on('error', e => {
	console.error('ros_client: ' + (e && e.message ? e.message : e));
	finish(2);
});
client.on('serverInfo', info => { result.server = info.name; });
client.on('status', s => console.error(`ros_client: status ${s.level}: ${s.message}`));
client.on('advertise', channels => {
	for (const c of channels) {
		if (!TOPICS.includes(c.topic))
			continue;
		result.channels[c.topic] = { encoding: c.encoding, schemaName: c.schemaName,
			schemaEncoding: c.schemaEncoding };
		let r = null;
		try {
			if (c.encoding === 'cdr')
				r = readers(c);
		} catch (e) {
			result.schema_errors.push(`${c.topic}: ${e.message}`);
			continue;
		}
		subs.set(client.subscribe(c.id), { ch: c, r });
	}
});
client.on('message', ({ subscriptionId, data }) => {
	const s = subs.get(subscriptionId);
	if (!s)
		return;
	const topic = s.ch.topic;
	result.counts[topic] = (result.counts[topic] || 0) + 1;
	try {
		if (s.r)
			onCdr(s.ch, s.r, data);
		else
			onTf(JSON.parse(new TextDecoder().decode(data)));
	} catch (e) {
		result.schema_errors.push(`${topic}: ${e.message}`);
		finish(2);
	}
});
