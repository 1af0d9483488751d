// SPDX-License-Identifier: GPL-2.0
//
// dcm-web's page: subscribes to every channel of the Foxglove WebSocket
// stream (subprotocol foxglove.websocket.v1) of the server that served it
// and plots the last seconds with uPlot. The same stream Foxglove Studio
// reads; read-only.
//
// URL parameters: joints=HeadYaw,LShoulderPitch (the joints plotted; the
// list on the page changes them too), keys=/feet.LFoot_TotalWeight,...
// (any fields of any channels, plotted together; the second list),
// window=SECONDS (default 10).
'use strict';

const params = new URLSearchParams(location.search);
const WINDOW_S = Math.max(1, Number(params.get('window')) || 10);
const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b',
	'#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];

// What the test and the console may look at: window.dcmWeb.
const state = {
	connected: false,
	channels: {},		// channel id -> advertised channel
	subs: {},		// subscription id -> channel
	latest: {},		// topic -> last message
	plots: {},		// name -> Plot
	messages: 0,
	events: 0,
};
window.dcmWeb = state;

class Plot {
	// el: the element; driver: the topic whose messages add a point;
	// pick(): the series, [{label, topic, field}], from the advertised fields.
	constructor(el, driver, pick, empty) {
		this.el = el;
		this.empty = empty || 'nothing to plot in this description';
		this.driver = driver;
		this.pick = pick;
		this.series = [];
		this.data = [[]];
		this.u = null;
		this.dirty = false;
	}

	setup(fields) {
		this.series = this.pick(fields);
		this.data = [[]].concat(this.series.map(() => []));
		if (this.u)
			this.u.destroy();
		this.u = null;
		this.el.textContent = '';
		if (!this.series.length) {
			this.el.textContent = this.empty;
			return;
		}
		const opts = {
			width: Math.max(300, this.el.clientWidth || 800),
			height: 200,
			scales: { x: { time: false } },
			legend: { live: false },
			series: [{ label: 'DCM time (s)' }].concat(this.series.map((s, i) => ({
				label: s.label,
				stroke: COLORS[i % COLORS.length],
				width: 1,
				points: { show: false },
			}))),
		};
		this.u = new uPlot(opts, this.data, this.el);
	}

	add(t) {
		const d = this.data;
		d[0].push(t);
		this.series.forEach((s, i) => {
			const m = state.latest[s.topic];
			const v = m ? m[s.field] : undefined;
			d[i + 1].push(typeof v === 'number' ? v : null);
		});
		let drop = 0;
		while (drop < d[0].length && d[0][drop] < t - WINDOW_S)
			drop++;
		if (drop)
			d.forEach(a => a.splice(0, drop));
		this.dirty = true;
	}

	draw() {
		if (this.u && this.dirty) {
			this.u.setData(this.data);
			this.dirty = false;
		}
	}
}

// The fields each topic offers, from its JSON schema.
function fieldsOf(topic) {
	for (const c of Object.values(state.channels)) {
		if (c.topic !== topic)
			continue;
		try {
			const props = JSON.parse(c.schema).properties || {};
			return Object.keys(props).filter(k => props[k].type === 'number');
		} catch (e) {
			return [];
		}
	}
	return [];
}

const jointChoice = document.getElementById('joint-choice');

function chosenJoints() {
	return Array.from(jointChoice.selectedOptions).map(o => o.value);
}

function fillJointChoice() {
	const joints = fieldsOf('/joints/position');
	const wanted = (params.get('joints') || '').split(',').filter(Boolean);
	const keep = chosenJoints();
	jointChoice.textContent = '';
	joints.forEach((j, i) => {
		const o = document.createElement('option');
		o.value = o.textContent = j;
		o.selected = keep.length ? keep.includes(j) :
			wanted.length ? wanted.includes(j) : i < 2;
		jointChoice.appendChild(o);
	});
}

const keyChoice = document.getElementById('key-choice');

function chosenKeys() {
	return Array.from(keyChoice.selectedOptions).map(o => o.value);
}

// Every field of every channel that has some: "topic.field".
function fillKeyChoice() {
	const wanted = (params.get('keys') || '').split(',').filter(Boolean);
	const keep = chosenKeys();
	keyChoice.textContent = '';
	const topics = [...new Set(Object.values(state.channels).map(c => c.topic))].sort();
	for (const topic of topics)
		for (const f of fieldsOf(topic)) {
			const o = document.createElement('option');
			o.value = o.textContent = topic + '.' + f;
			o.selected = (keep.length ? keep : wanted).includes(o.value);
			keyChoice.appendChild(o);
		}
}

function makePlots() {
	const all = (topic, re) => fieldsOf(topic).filter(f => !re || re.test(f))
		.map(f => ({ label: f, topic, field: f }));
	state.plots = {
		joints: new Plot(document.getElementById('plot-joints'), '/joints/position', () => {
			const s = [];
			for (const j of chosenJoints()) {
				s.push({ label: j + ' sensor', topic: '/joints/position', field: j });
				s.push({ label: j + ' command', topic: '/joints/command', field: j });
			}
			return s;
		}),
		// '*': a point a cycle, whichever of its channels comes first.
		keys: new Plot(document.getElementById('plot-keys'), '*', () => chosenKeys().map(k => {
			const dot = k.lastIndexOf('.');
			return { label: k, topic: k.slice(0, dot), field: k.slice(dot + 1) };
		}), 'choose keys in the list'),
		temperatures: new Plot(document.getElementById('plot-temperatures'), '/temperatures',
			() => all('/temperatures')),
		battery: new Plot(document.getElementById('plot-battery'), '/battery',
			() => all('/battery', /^(?!.*_Status$)/)),
		feet: new Plot(document.getElementById('plot-feet'), '/feet',
			() => all('/feet', /^(?!.*CenterOfPressure)/)),
		cop: new Plot(document.getElementById('plot-cop'), '/feet',
			() => all('/feet', /CenterOfPressure/)),
		inertial: new Plot(document.getElementById('plot-inertial'), '/inertial',
			() => all('/inertial', /^Angle/)),
	};
	for (const p of Object.values(state.plots))
		p.setup();
}

jointChoice.addEventListener('change', () => state.plots.joints && state.plots.joints.setup());
keyChoice.addEventListener('change', () => state.plots.keys && state.plots.keys.setup());

function showCycle(m) {
	const st = document.getElementById('cycle-stats');
	st.textContent = `cycles ${m.cycles}, overruns ${m.overruns}, missed ${m.missed}, ` +
		`work overruns ${m.work_overruns}; latency p50 ${m.latency_us.p50.toFixed(1)} us, ` +
		`p99 ${m.latency_us.p99.toFixed(1)} us, p99.9 ${m.latency_us.p99_9.toFixed(1)} us, ` +
		`max ${m.latency_us.max.toFixed(1)} us`;
	const h = document.getElementById('histogram');
	const max = Math.max(1, ...m.histogram.map(b => b.count));
	h.textContent = '';
	let prev = 0;
	for (const b of m.histogram) {
		const bar = document.createElement('div');
		bar.className = 'bar';
		bar.style.height = (100 * Math.log1p(b.count) / Math.log1p(max)) + '%';
		const label = document.createElement('span');
		label.textContent = b.below_us === null ? `>= ${prev} us` : `< ${b.below_us} us`;
		const n = document.createElement('b');
		n.textContent = b.count;
		bar.append(n, label);
		h.appendChild(bar);
		if (b.below_us !== null)
			prev = b.below_us;
	}
}

function showEvent(m) {
	const li = document.createElement('li');
	li.textContent = `${m.dcm_time_ms} ms ${m.type}${m.device ? ' ' + m.device : ''}: ${m.text}`;
	const ol = document.getElementById('events');
	ol.insertBefore(li, ol.firstChild);
	while (ol.children.length > 200)
		ol.removeChild(ol.lastChild);
	state.events++;
}

function onData(topic, m) {
	state.messages++;
	if (topic === '/cycle') {
		showCycle(m);
		return;
	}
	if (topic === '/events') {
		showEvent(m);
		return;
	}
	state.latest[topic] = m;
	if (topic === '/joints/position')
		document.getElementById('cycle').textContent =
			`cycle ${m.cycle}, DCM time ${m.dcm_time_ms} ms`;
	for (const p of Object.values(state.plots)) {
		if (p.driver === topic) {
			p.add(m.dcm_time_ms / 1000);
		} else if (p.driver === '*' && m.cycle !== p.lastCycle) {
			p.lastCycle = m.cycle;
			p.add(m.dcm_time_ms / 1000);
		}
	}
}

let nextSub = 1;

function connect() {
	const status = document.getElementById('status');
	const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
	const ws = new WebSocket(`${proto}//${location.host}/`, 'foxglove.websocket.v1');
	const decoder = new TextDecoder();
	ws.binaryType = 'arraybuffer';
	ws.onopen = () => {
		state.connected = true;
		status.textContent = 'connected';
		status.className = 'connected';
	};
	ws.onclose = () => {
		state.connected = false;
		status.textContent = 'disconnected: trying again';
		status.className = 'closed';
		setTimeout(connect, 2000);
	};
	ws.onmessage = ev => {
		if (typeof ev.data !== 'string') {
			const v = new DataView(ev.data);
			if (v.getUint8(0) !== 1)
				return;
			const c = state.subs[v.getUint32(1, true)];
			if (!c)
				return;
			onData(c.topic, JSON.parse(decoder.decode(new Uint8Array(ev.data, 13))));
			return;
		}
		const m = JSON.parse(ev.data);
		if (m.op === 'advertise') {
			const subs = [];
			for (const c of m.channels) {
				state.channels[c.id] = c;
				const id = nextSub++;
				state.subs[id] = c;
				subs.push({ id, channelId: c.id });
			}
			ws.send(JSON.stringify({ op: 'subscribe', subscriptions: subs }));
			fillJointChoice();
			fillKeyChoice();
			makePlots();
		} else if (m.op === 'unadvertise') {
			for (const id of m.channelIds) {
				delete state.channels[id];
				for (const [s, c] of Object.entries(state.subs))
					if (c.id === id)
						delete state.subs[s];
			}
		} else if (m.op === 'status') {
			console.log('dcm-web:', m.message);
		}
	};
}

setInterval(() => {
	for (const p of Object.values(state.plots))
		p.draw();
}, 100);
connect();
