#!/usr/bin/env node
// SPDX-License-Identifier: GPL-2.0
//
// check_mcap.js FILE [EXPECT.json]: read an MCAP file of dcmctl record or
// dcm-flight with the reference reader @mcap/core, both ways, and say
// what it holds. Exit 0 when every check holds, 1 (the reasons on stderr)
// when one fails; the summary as JSON on stdout either way:
//
//   - indexed (McapIndexedReader: the footer, the summary, the chunk
//     indexes, then every message through them) and streamed
//     (McapStreamReader, chunk CRCs checked): the same messages in the
//     same order of each channel; the summary's Statistics count them;
//   - the data section's CRC (Data End) and the summary's (Footer),
//     computed here (Node's zlib, or by hand);
//   - every message is JSON whose members the channel's JSON schema
//     lists, with their types; or CDR (/joint_states, /imu,
//     /foot_pressure, /robot_description): its ros2msg schema parsed by
//     @foxglove/rosmsg is the message definition of
//     @foxglove/rosmsg-msgs-common (ROS 2 Humble's), or for a type of
//     dcm's (dcm_msgs/msg/FootPressure) the definitions it uses are, and
//     every message decodes with @foxglove/rosmsg2-serialization by those
//     definitions, to its last byte: its stamp its log time, its values
//     those of the JSON channels of the same frame (/joints/position,
//     /inertial: the orientation a quaternion of AngleX, Y, Z; /feet);
//     /tf's torso-to-Neck transform turns about Z by /joint_states'
//     HeadYaw; /robot_description, one message, the NAO's URDF;
//   - cut short: the file's first N bytes, for several N (after each
//     chunk, inside each of a few chunks, inside the header), streamed:
//     no error, and exactly the messages of the chunks whole in those N
//     bytes, the same as the whole file's first ones;
//   - EXPECT {"partial": true}: a file cut short as it was written (a
//     power loss, SIGKILL): no summary or footer, so only streamed: no
//     error, its whole chunks read (at least "min_messages" in all), and
//     as the whole file's, cut shorter still;
//   - EXPECT (optional): {"topics": [...] every one there, "min_messages":
//     {TOPIC: N}, "values": {TOPIC: {FIELD: VALUE}} every message's FIELD
//     within 1e-6 of VALUE, "metadata": [NAME...], "messages_each": N
//     every channel but /events has N messages (a recording's rows),
//     "event_rule": RULE an event on /events of that safety rule, "ros":
//     [TOPIC...] each with ROS 2 messages compared with their JSON}.
//
// Run by tools/testing/mcap/test_mcap.py with NODE_PATH at the packages
// npm ci installed from this directory's package-lock.json.
'use strict';

const fs = require('fs');
const zlib = require('zlib');
const { McapIndexedReader, McapStreamReader } = require('@mcap/core');
const { MessageReader } = require('@foxglove/rosmsg2-serialization');
const { ros2humble } = require('@foxglove/rosmsg-msgs-common');
const rosmsg = require('@foxglove/rosmsg');

const errors = [];
function fail(msg) {
  errors.push(msg);
}

// CRC-32 (ISO-HDLC): Node's zlib's (Node 20.15, 22.2), else computed here (Debian 12's Node 18).
const crc32 = zlib.crc32 || ((bytes) => {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
});

function le(buf, at, n) {
  let v = 0n;
  for (let i = n - 1; i >= 0; i--) v = (v << 8n) | BigInt(buf[at + i]);
  return v;
}

// The indexed reader: channels, schemas, statistics, every message.
async function readIndexed(buf) {
  const readable = {
    size: async () => BigInt(buf.length),
    read: async (offset, size) => {
      const o = Number(offset), s = Number(size);
      if (o + s > buf.length) throw new Error('read past the end');
      return buf.subarray(o, o + s);
    },
  };
  const r = await McapIndexedReader.Initialize({ readable });
  const msgs = [];
  for await (const m of r.readMessages({ validateCrcs: true })) msgs.push(m);
  const meta = [];
  for await (const m of r.readMetadata()) meta.push(m);
  return { r, msgs, meta };
}

// The stream reader over @bytes: its messages, or the error it threw.
function readStream(bytes) {
  const s = new McapStreamReader({ validateCrcs: true });
  const msgs = [];
  const kinds = {};
  s.append(bytes);
  try {
    for (let rec; (rec = s.nextRecord());) {
      kinds[rec.type] = (kinds[rec.type] || 0) + 1;
      if (rec.type === 'Message') msgs.push(rec);
    }
  } catch (e) {
    return { msgs, kinds, error: String(e), done: false };
  }
  return { msgs, kinds, error: null, done: s.done() };
}

function key(m) {
  return m.channelId + ':' + m.sequence + ':' + m.logTime + ':' +
    Buffer.from(m.data).toString('hex');
}

function checkCrcs(buf, r) {
  const de = Number(r.dataEndOffset);
  if (buf[de] !== 0x0f) fail('no Data End at ' + de);
  const dataCrc = Number(le(buf, de + 9, 4));
  if (dataCrc !== crc32(buf.subarray(0, de)))
    fail('the Data End CRC ' + dataCrc + ' is not that of the data section');
  const foot = buf.length - 8 - 29;
  const start = Number(r.footer.summaryStart);
  const crc = r.footer.summaryCrc;
  if (crc !== crc32(buf.subarray(start, foot + 25)))
    fail('the Footer summary CRC ' + crc + ' is not that of the summary');
  if (start !== de + 13) fail('the summary does not start after the Data End');
}

// Every message's JSON against its channel's JSON schema.
function checkJson(r, msgs) {
  const bad = new Set();
  for (const m of msgs) {
    const ch = r.channelsById.get(m.channelId);
    const sc = r.schemasById.get(ch.schemaId);
    if (ch.messageEncoding === 'cdr' && sc.encoding === 'ros2msg') continue;  // checkRos()
    if (ch.messageEncoding !== 'json' || sc.encoding !== 'jsonschema') {
      bad.add(ch.topic + ': encoding ' + ch.messageEncoding + '/' + sc.encoding);
      continue;
    }
    const props = JSON.parse(Buffer.from(sc.data).toString()).properties;
    let v;
    try {
      v = JSON.parse(Buffer.from(m.data).toString());
    } catch (e) {
      bad.add(ch.topic + ': not JSON');
      continue;
    }
    for (const [k, x] of Object.entries(v)) {
      const p = props[k];
      const types = p ? [].concat(p.type) : [];
      const t = x === null ? 'null' : Array.isArray(x) ? 'array' :
      Number.isInteger(x) ? 'integer' : typeof x;
      const ok = p && (types.includes(t) || (t === 'integer' && types.includes('number')) ||
        (t === 'null' && types.includes('number')));
      if (!ok) bad.add(ch.topic + ': member ' + k + ' (' + t + ') not in its schema');
    }
  }
  for (const b of bad) fail(b);
}

// The definitions of @foxglove/rosmsg-msgs-common for ROS 2 type @type (pkg/msg/Type): it, then its own.
function commonDefs(type) {
  const key = (t) => t.replace('/msg/', '/');
  const out = [];
  const add = (t) => {
    const d = ros2humble[key(t)];
    if (!d) throw new Error('no ' + t + ' in @foxglove/rosmsg-msgs-common');
    if (out.some((x) => x.name === d.name)) return;
    out.push(d);
    for (const f of d.definitions) if (f.isComplex) add(f.type);
  };
  add(type);
  return out;
}

// A definition's fields, comparable: name type[length].
function fields(d) {
  return d.definitions.filter((f) => !f.isConstant).map((f) => f.name + ' ' +
    f.type.replace('/msg/', '/') + (f.isArray ? '[' + (f.arrayLength || '') + ']' : ''));
}

// The file's ros2msg schema against the common definitions, then every message decoded.
function checkRos(r, msgs) {
  const decoded = {};
  for (const ch of r.channelsById.values()) {
    if (ch.messageEncoding !== 'cdr') continue;
    const sc = r.schemasById.get(ch.schemaId);
    if (sc.encoding !== 'ros2msg') {
      fail(ch.topic + ': cdr with a ' + sc.encoding + ' schema');
      continue;
    }
    let defs, mine;
    try {
      mine = rosmsg.parse(Buffer.from(sc.data).toString(), { ros2: true });
      // A type of dcm's: its own definition, over ROS 2's of what it uses.
      defs = ros2humble[sc.name.replace('/msg/', '/')] ? commonDefs(sc.name) :
        [mine[0]].concat(...mine.slice(1).map((d) => commonDefs(d.name)));
    } catch (e) {
      fail(ch.topic + ': ' + e);
      continue;
    }
    for (const d of defs) {
      if (d === mine[0]) continue;
      const m = d === defs[0] ? mine[0] :
        mine.find((x) => x.name && x.name.replace('/msg/', '/') === d.name);
      if (!m || fields(m).join() !== fields(d).join())
        fail(ch.topic + ': the schema\'s ' + d.name + ' (' + (m ? fields(m) : 'none') +
          ') is not the common definition (' + fields(d) + ')');
    }
    const reader = new MessageReader(defs);
    decoded[ch.topic] = [];
    for (const m of msgs) {
      if (m.channelId !== ch.id) continue;
      let v;
      try {
        v = reader.readMessage(m.data);
      } catch (e) {
        fail(ch.topic + ': a message does not decode: ' + e);
        break;
      }
      if (reader.lastReadHadTrailingBytes()) fail(ch.topic + ': bytes after the message');
      const st = v.header ?
        BigInt(v.header.stamp.sec) * 1000000000n + BigInt(v.header.stamp.nanosec) : m.logTime;
      if (st !== m.logTime) fail(ch.topic + ': stamp ' + st + ' is not the log time ' + m.logTime);
      decoded[ch.topic].push({ t: m.logTime, v });
    }
  }
  return decoded;
}

// The JSON messages of @topic by log time.
function jsonByTime(r, msgs, topic) {
  const out = new Map();
  for (const m of msgs)
    if (r.channelsById.get(m.channelId).topic === topic)
      out.set(m.logTime, JSON.parse(Buffer.from(m.data).toString()));
  return out;
}

const near = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

// The ROS 2 messages against the JSON of the same frames.
function checkRosValues(r, msgs, decoded) {
  const pos = jsonByTime(r, msgs, '/joints/position');
  let n = 0;
  for (const { t, v } of decoded['/joint_states'] || []) {
    const j = pos.get(t);
    if (!j) continue;
    if (v.name.length !== v.position.length || v.velocity.length || v.effort.length) {
      fail('/joint_states: ' + v.name.length + ' names, ' + v.position.length + ' positions');
      break;
    }
    const bad = v.name.find((name, i) => !near(v.position[i], j[name]));
    if (bad) {
      fail('/joint_states: ' + bad + ' is not /joints/position\'s of the same frame');
      break;
    }
    n++;
  }
  const inert = jsonByTime(r, msgs, '/inertial');
  let k = 0;
  for (const { t, v } of decoded['/imu'] || []) {
    const j = inert.get(t);
    if (!j) continue;
    const [hr, hp, hy] = [j.AngleX / 2, j.AngleY / 2, j.AngleZ / 2];
    const q = {
      x: Math.sin(hr) * Math.cos(hp) * Math.cos(hy) - Math.cos(hr) * Math.sin(hp) * Math.sin(hy),
      y: Math.cos(hr) * Math.sin(hp) * Math.cos(hy) + Math.sin(hr) * Math.cos(hp) * Math.sin(hy),
      z: Math.cos(hr) * Math.cos(hp) * Math.sin(hy) - Math.sin(hr) * Math.sin(hp) * Math.cos(hy),
      w: Math.cos(hr) * Math.cos(hp) * Math.cos(hy) + Math.sin(hr) * Math.sin(hp) * Math.sin(hy),
    };
    const ok = v.header.frame_id === 'torso' &&
      ['x', 'y', 'z', 'w'].every((c) => near(v.orientation[c], q[c])) &&
      ['X', 'Y', 'Z'].every((c) => near(v.angular_velocity[c.toLowerCase()], j['Gyroscope' + c]) &&
        near(v.linear_acceleration[c.toLowerCase()], j['Accelerometer' + c]));
    if (!ok) {
      fail('/imu: not /inertial\'s of the same frame: ' + JSON.stringify(v) + ' ' + JSON.stringify(j));
      break;
    }
    k++;
  }
  const feet = jsonByTime(r, msgs, '/feet');
  const fsr = ['FrontLeft', 'FrontRight', 'RearLeft', 'RearRight'];
  let p = 0;
  for (const { t, v } of decoded['/foot_pressure'] || []) {
    const j = feet.get(t);
    if (!j) continue;
    const ok = ['L', 'R'].every((f, i) => {
      const side = i ? 'right' : 'left';
      return fsr.every((x, n) => near(v[side + '_fsr'][n], j[f + 'Foot_' + x])) &&
        near(v[side + '_total_weight'], j[f + 'Foot_TotalWeight']) &&
        near(v[side + '_center_of_pressure'].x, j[f + 'Foot_CenterOfPressure_X']) &&
        near(v[side + '_center_of_pressure'].y, j[f + 'Foot_CenterOfPressure_Y']);
    });
    if (!ok) {
      fail('/foot_pressure: not /feet\'s of the same frame: ' + JSON.stringify(v));
      break;
    }
    p++;
  }
  // The head's frame turns about Z by HeadYaw, as the URDF's joint does.
  const yaw = new Map((decoded['/joint_states'] || []).map(({ t, v }) =>
    [t, v.position[v.name.indexOf('HeadYaw')]]));
  let tf = 0;
  for (const [t, v] of jsonByTime(r, msgs, '/tf')) {
    const x = v.transforms.find((y) => y.parent_frame_id === 'torso' &&
      y.child_frame_id === 'Neck');
    if (!x || !yaw.has(t)) continue;
    const q = x.rotation;
    if (!near(q.z, Math.sin(yaw.get(t) / 2)) || !near(q.w, Math.cos(yaw.get(t) / 2)) ||
        q.x !== 0 || q.y !== 0) {
      fail('/tf: Neck ' + JSON.stringify(q) + ' is not HeadYaw ' + yaw.get(t));
      break;
    }
    tf++;
  }
  const urdf = (decoded['/robot_description'] || []).map(({ v }) => v.data);
  if (decoded['/robot_description'] && (urdf.length !== 1 ||
      !/^<\?xml[^]*<robot name="NAO">[^]*<joint name="HeadYaw" type="revolute">/.test(urdf[0])))
    fail('/robot_description: ' + urdf.length + ' messages, not one URDF of the NAO');
  return { joint_states: n, imu: k, foot_pressure: p, tf, robot_description: urdf.length };
}

// The messages of each chunk (its records walked here), by the chunk indexes.
function chunkCounts(buf, r) {
  return r.chunkIndexes.map((ci) => {
    const at = Number(ci.chunkStartOffset);
    const c = at + 9;
    const slen = Number(le(buf, c + 28, 4));
    const rlen = Number(le(buf, c + 32 + slen, 8));
    let p = c + 40 + slen, n = 0;
    const end = p + rlen;
    while (p < end) {
      if (buf[p] === 0x05) n++;
      p += 9 + Number(le(buf, p + 1, 8));
    }
    return { start: at, end: at + Number(ci.chunkLength), n };
  }).sort((a, b) => a.start - b.start);
}

// The file cut short at several places: the stream reader reads the whole chunks.
function checkTruncated(buf, streamed, chunks) {
  const cuts = new Set([0, 4, 8, 20]);
  chunks.forEach((c, i) => {
    cuts.add(c.end);
    if (i < 4 || i === chunks.length - 1) {
      cuts.add(c.start + 1);
      cuts.add(c.start + 20);
      cuts.add(Math.floor((c.start + c.end) / 2));
      cuts.add(c.end - 1);
    }
  });
  if (chunks.length) cuts.add(chunks[chunks.length - 1].end + 3);
  const results = [];
  for (const n of [...cuts].filter((x) => x < buf.length).sort((a, b) => a - b)) {
    const s = readStream(buf.subarray(0, n));
    let want = 0;
    for (const c of chunks) if (c.end <= n) want += c.n;
    if (s.error) fail('cut at ' + n + ': the stream reader failed: ' + s.error);
    if (s.msgs.length !== want)
      fail('cut at ' + n + ': ' + s.msgs.length + ' messages read, ' + want + ' in whole chunks');
    for (let i = 0; i < s.msgs.length && i < streamed.length; i++)
      if (key(s.msgs[i]) !== key(streamed[i])) {
        fail('cut at ' + n + ': message ' + i + ' differs from the whole file\'s');
        break;
      }
    results.push([n, s.msgs.length]);
  }
  return results;
}

function checkExpect(exp, r, msgs, perTopic, meta) {
  for (const t of exp.topics || [])
    if (!perTopic[t]) fail('no messages on ' + t);
  for (const [t, n] of Object.entries(exp.min_messages || {}))
    if ((perTopic[t] || 0) < n) fail(t + ': ' + (perTopic[t] || 0) + ' messages, < ' + n);
  for (const [t, fields] of Object.entries(exp.values || {})) {
    let seen = 0;
    for (const m of msgs) {
      if (r.channelsById.get(m.channelId).topic !== t) continue;
      const v = JSON.parse(Buffer.from(m.data).toString());
      for (const [f, want] of Object.entries(fields)) {
        if (typeof v[f] !== 'number' || Math.abs(v[f] - want) > 1e-6) {
          fail(t + ' cycle ' + v.cycle + ': ' + f + ' is ' + v[f] + ', sysfs says ' + want);
          return;
        }
      }
      seen++;
    }
    if (!seen) fail(t + ': no message to compare with sysfs');
  }
  if (exp.messages_each !== undefined)
    for (const c of r.channelsById.values())
      if (c.topic !== '/events' && c.topic !== '/robot_description' &&
          (perTopic[c.topic] || 0) !== exp.messages_each)
        fail(c.topic + ': ' + (perTopic[c.topic] || 0) + ' messages, the summary says ' +
          exp.messages_each + ' rows');
  if (exp.event_rule) {
    const rules = msgs.filter((m) => r.channelsById.get(m.channelId).topic === '/events')
      .map((m) => JSON.parse(Buffer.from(m.data).toString()).rule);
    if (!rules.includes(exp.event_rule))
      fail('no event of ' + exp.event_rule + ' on /events (' + rules.join(' ') + ')');
  }
  const names = meta.map((m) => m.name);
  for (const n of exp.metadata || [])
    if (!names.includes(n)) fail('no metadata record ' + n + ' (' + names.join(' ') + ')');
}

// A file cut short as written: streamed only; its chunks found by walking it.
function checkPartial(file, buf, exp) {
  const st = readStream(buf);
  if (st.error) fail('the stream reader failed: ' + st.error);
  if (st.done) fail('a file cut short has a footer');
  if (st.msgs.length < (exp.min_messages_total || 1))
    fail(st.msgs.length + ' messages read, fewer than ' + (exp.min_messages_total || 1));
  // the chunks whole in the file, by walking its records
  const chunks = [];
  let p = 8;
  while (p + 9 <= buf.length) {
    const end = p + 9 + Number(le(buf, p + 1, 8));
    if (end > buf.length) break;
    if (buf[p] === 0x06) {
      const c = p + 9, slen = Number(le(buf, c + 28, 4)), rlen = Number(le(buf, c + 32 + slen, 8));
      let q = c + 40 + slen, n = 0;
      while (q < c + 40 + slen + rlen) {
        if (buf[q] === 0x05) n++;
        q += 9 + Number(le(buf, q + 1, 8));
      }
      chunks.push({ start: p, end, n });
    }
    p = end;
  }
  const whole = chunks.reduce((a, c) => a + c.n, 0);
  if (st.msgs.length !== whole)
    fail(st.msgs.length + ' messages streamed, ' + whole + ' in the whole chunks');
  const cuts = checkTruncated(buf, st.msgs, chunks);
  console.log(JSON.stringify({ file, bytes: buf.length, partial: true, streamed: st.msgs.length,
    chunks: chunks.length, kinds: st.kinds, cuts, errors }));
  for (const e of errors) console.error('check_mcap: ' + e);
  process.exit(errors.length ? 1 : 0);
}

async function main() {
  const file = process.argv[2];
  const exp = process.argv[3] ? JSON.parse(fs.readFileSync(process.argv[3], 'utf8')) : {};
  const buf = fs.readFileSync(file);
  if (exp.partial) checkPartial(file, buf, exp);
  let ix;
  try {
    ix = await readIndexed(buf);
  } catch (e) {
    fail('the indexed reader failed: ' + e);
    console.log(JSON.stringify({ file, errors }));
    process.exit(1);
  }
  const { r, msgs, meta } = ix;
  const st = readStream(buf);
  if (st.error) fail('the stream reader failed: ' + st.error);
  if (!st.done) fail('the stream reader did not reach the footer and the magic');
  // the same messages: per channel in the same order
  const byCh = (list) => {
    const m = {};
    for (const x of list) (m[x.channelId] = m[x.channelId] || []).push(key(x));
    return m;
  };
  const a = byCh(msgs), b = byCh(st.msgs);
  for (const ch of new Set([...Object.keys(a), ...Object.keys(b)]))
    if ((a[ch] || []).join() !== (b[ch] || []).join())
      fail('channel ' + ch + ': the indexed and the streamed readers differ');
  const perTopic = {};
  for (const m of msgs) {
    const t = r.channelsById.get(m.channelId).topic;
    perTopic[t] = (perTopic[t] || 0) + 1;
  }
  const stats = r.statistics;
  if (!stats) fail('no Statistics');
  else {
    if (Number(stats.messageCount) !== msgs.length)
      fail('Statistics: ' + stats.messageCount + ' messages, ' + msgs.length + ' read');
    if (stats.channelCount !== r.channelsById.size) fail('Statistics: channel count');
    if (stats.schemaCount !== r.schemasById.size) fail('Statistics: schema count');
    if (stats.chunkCount !== r.chunkIndexes.length) fail('Statistics: chunk count');
    for (const [ch, n] of stats.channelMessageCounts)
      if (Number(n) !== (a[ch] || []).length) fail('Statistics: channel ' + ch + ' count');
  }
  for (const op of [0x03, 0x04, 0x0b, 0x08])
    if (!r.summaryOffsetsByOpcode.has(op)) fail('no Summary Offset for opcode ' + op);
  checkCrcs(buf, r);
  checkJson(r, msgs);
  const decoded = checkRos(r, msgs);
  const ros = checkRosValues(r, msgs, decoded);
  for (const t of exp.ros || [])
    if (!ros[t.replace('/', '')]) fail(t + ': no ROS 2 message compared with its JSON');
  const chunks = chunkCounts(buf, r);
  const cuts = checkTruncated(buf, st.msgs, chunks);
  checkExpect(exp, r, msgs, perTopic, meta);
  const out = {
    file, bytes: buf.length, messages: msgs.length, streamed: st.msgs.length,
    schemas: r.schemasById.size, channels: [...r.channelsById.values()].map((c) => ({
      id: c.id, topic: c.topic, schema: r.schemasById.get(c.schemaId).name,
      encoding: c.messageEncoding, messages: perTopic[c.topic] || 0,
    })),
    ros, chunks: chunks.length, metadata: meta.map((m) => ({ name: m.name,
      values: Object.fromEntries(m.metadata) })),
    cuts, errors,
  };
  console.log(JSON.stringify(out));
  for (const e of errors) console.error('check_mcap: ' + e);
  process.exit(errors.length ? 1 : 0);
}

main().catch((e) => {
  console.error('check_mcap: ' + (e && e.stack ? e.stack : e));
  process.exit(1);
});
