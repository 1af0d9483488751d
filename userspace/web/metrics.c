// SPDX-License-Identifier: GPL-2.0
/*
 * dcm-web's metrics, in Prometheus' text exposition format 0.0.4: the
 * server's counts, the controller's information and statistics, its
 * events by type, the keys a family per rule, and dcm-lola's status.
 */
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <linux/dcm.h>

#include "clock.h"
#include "metrics.h"

/* ---- Prometheus text exposition format ---- */

/* The length of the UTF-8 sequence at @s, or 0 if it is not one. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;
	uint32_t c;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, c = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, c = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, c = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* No overlong form, no surrogate, nothing past U+10FFFF. */
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	return n;
}

/*
 * A label value: backslash, double quote and newline escaped, a byte that
 * is not UTF-8 written '?' (the format is UTF-8).
 */
static void prom_label(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	while (*p) {
		n = utf8_len(p);
		if (!n) {
			fputc('?', out);
			p++;
			continue;
		}
		if (*p == '\\' || *p == '"')
			fputc('\\', out);
		if (*p == '\n')
			fputs("\\n", out);
		else
			fwrite(p, 1, n, out);
		p += n;
	}
}

/*
 * A value, in the shortest form that reads back as the same double: 0.99,
 * not 0.98999999999999999 (%.17g's).
 */
static void prom_double(FILE *out, double v)
{
	char buf[40], *e;
	int prec;
	long x;

	if (isnan(v)) {
		fputs("NaN", out);
		return;
	}
	if (isinf(v)) {
		fputs(v > 0 ? "+Inf" : "-Inf", out);
		return;
	}
	for (prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	/* 500, not 5e+02: %g's exponent form only past 17 digits or below 1e-4 */
	e = strchr(buf, 'e');
	if (e) {
		x = strtol(e + 1, NULL, 10);
		if (x >= prec && x < 17)
			snprintf(buf, sizeof(buf), "%.*g", (int)x + 1, v);
	}
	fputs(buf, out);
}

/* A gauge of one sample, a double. */
static void prom_gauge(FILE *out, const char *name, const char *help, double v)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s gauge\n%s ", name, help, name, name);
	prom_double(out, v);
	fputc('\n', out);
}

static void prom_head(FILE *out, const char *name, const char *type, const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void prom_u64(FILE *out, const char *name, const char *type, const char *help,
		     uint64_t v)
{
	prom_head(out, name, type, help);
	fprintf(out, "%s %" PRIu64 "\n", name, v);
}

static void prom_quantiles(FILE *out, const char *name, const char *help, const __u64 *ns,
			   uint64_t mean_ns, uint64_t count)
{
	static const char *const q[DCM_PCT_COUNT] = { "0.5", "0.99", "0.999", "1" };
	unsigned int i;

	prom_head(out, name, "summary", help);
	for (i = 0; i < DCM_PCT_COUNT; i++) {
		fprintf(out, "%s{quantile=\"%s\"} ", name, q[i]);
		prom_double(out, ns[i] / 1e9);
		fputc('\n', out);
	}
	fprintf(out, "%s_sum ", name);
	prom_double(out, (double)mean_ns * (double)count / 1e9);
	fprintf(out, "\n%s_count %" PRIu64 "\n", name, count);
}

/*
 * The controller's events counted by type (its sysfs file events): posted,
 * and dropped before the events group got them. Nothing from an older
 * kernel.
 */
static void prom_events(FILE *out, struct dcm_sysfs *s)
{
	static const char *const fam[2][2] = {
		{ "dcm_kernel_events_posted_total", "Events the controller posted, by type" },
		{ "dcm_kernel_events_dropped_total",
		  "Events the controller's events group did not get (its history kept them)" },
	};
	struct dcm_event_count c[32];
	int i, k, n;

	if (!s)
		return;
	n = dcm_sysfs_event_counts(s, c, sizeof(c) / sizeof(c[0]));
	for (k = 0; k < 2 && n > 0; k++) {
		prom_head(out, fam[k][0], "counter", fam[k][1]);
		for (i = 0; i < n; i++)
			fprintf(out, "%s{type=\"%s\",class=\"%s\"} %" PRIu64 "\n", fam[k][0],
				c[i].type, c[i].safety ? "safety" : "info",
				k ? c[i].dropped : c[i].posted);
	}
}

/* dcm-web's own counts, and whether the controller could be read. */
static void metrics_server(FILE *out, const struct web_counters *c, int up)
{
	prom_u64(out, "dcm_up", "gauge", "Whether the controller could be read", up);
	prom_u64(out, "dcm_web_clients", "gauge", "WebSocket clients of dcm-web", c->ws_clients);
	prom_u64(out, "dcm_web_frames_total", "counter", "Cycles dcm-web read", c->frames);
	prom_u64(out, "dcm_web_dropped_messages_total", "counter",
		 "Stream messages dropped because a client did not keep up", c->dropped);
	prom_u64(out, "dcm_web_stalled_clients_total", "counter",
		 "WebSocket clients dropped: they read nothing, or answered no ping, for --ws-timeout",
		 c->stalled);
	prom_u64(out, "dcm_events_total", "counter", "Kernel events dcm-web received", c->events);
}

/* A label of dcm_info: the first of @keys the tree has, else "". */
static void info_label(FILE *out, const struct dcm_sysfs *s, const char *name,
		       const char *const *keys)
{
	char *v = NULL;

	fprintf(out, ",%s=\"", name);
	for (; s && *keys; keys++)
		if (!dcm_sysfs_read(s, *keys, &v)) {
			prom_label(out, v);
			free(v);
			break;
		}
	fputc('"', out);
}

/*
 * The controller: its name, driver, the robot's IDs and nickname (the keys
 * dcm-lola sends in RobotConfig, lola.rst), period and state.
 */
static void metrics_info(FILE *out, const struct dcm_info *info, const struct dcm_sysfs *s,
			 const struct web_model *m, const struct dcm_values_frame *f)
{
	static const char *const body_id[] = { "Device/DeviceList/ChestBoard/BodyId",
					       "RobotConfig/Body/BodyId", NULL };
	static const char *const head_id[] = { "RobotConfig/Head/FullHeadId",
					       "Device/DeviceList/HeadBoard/FullHeadId", NULL };
	static const char *const nickname[] = { "Device/DeviceList/ChestBoard/BodyNickName",
						NULL };

	prom_head(out, "dcm_info", "gauge",
		  "The controller: name, body driver, body and head IDs, the body's nickname");
	fputs("dcm_info{name=\"", out);
	prom_label(out, info->name);
	fputs("\",driver=\"", out);
	prom_label(out, info->driver);
	fputc('"', out);
	info_label(out, s, "body_id", body_id);
	info_label(out, s, "head_id", head_id);
	info_label(out, s, "nickname", nickname);
	fputs("} 1\n", out);
	prom_gauge(out, "dcm_cycle_period_seconds", "The cycle's period", info->period_us / 1e6);
	prom_u64(out, "dcm_running", "gauge", "Whether the cycle runs",
		 !!(info->flags & DCM_INFO_F_RUNNING));
	prom_u64(out, "dcm_description_generation", "gauge",
		 "Generation of the running description", m->generation);
	prom_gauge(out, "dcm_time_seconds", "DCM time of the last cycle dcm-web read",
		   f->n_values ? f->time / 1e3 : 0);
}

/* The statistics since the description was loaded (DCM_IOC_STATS). */
static void metrics_stats(FILE *out, const struct dcm_stats *st)
{
	uint64_t cum = 0;
	unsigned int i;

	prom_u64(out, "dcm_cycles_total", "counter",
		 "Cycles run since the description was loaded", st->cycles);
	prom_u64(out, "dcm_overruns_total", "counter",
		 "Cycles that started a period or more late", st->overruns);
	prom_gauge(out, "dcm_cycle_work_last_seconds", "Work of the last cycle", st->last_ns / 1e9);
	prom_gauge(out, "dcm_cycle_work_max_seconds", "Longest work of a cycle", st->max_ns / 1e9);
	prom_gauge(out, "dcm_cycle_latency_max_seconds", "Longest wake-up latency",
		   st->latency_max_ns / 1e9);
	prom_head(out, "dcm_cycle_wakeup_latency_seconds", "histogram",
		  "Wake-up latencies (deadline to start) since the description was loaded");
	for (i = 0; i < LIBDCM_LATENCY_BUCKETS; i++) {
		uint64_t b = dcm_latency_bucket_ns(i);

		cum += st->latency_hist[i];
		if (b == UINT64_MAX) {
			fprintf(out, "dcm_cycle_wakeup_latency_seconds_bucket{le=\"+Inf\"} %"
				PRIu64 "\n", cum);
		} else {
			fputs("dcm_cycle_wakeup_latency_seconds_bucket{le=\"", out);
			prom_double(out, b / 1e9);
			fprintf(out, "\"} %" PRIu64 "\n", cum);
		}
	}
	fprintf(out, "dcm_cycle_wakeup_latency_seconds_count %" PRIu64 "\n", cum);
}

/* The cycle's statistics since they began (DCM_IOC_CYCLE_STATS), if any. */
static void metrics_cycle_stats(FILE *out, struct dcm *dcm)
{
	struct dcm_ioc_cycle_stats cs;

	memset(&cs, 0, sizeof(cs));
	if (ioctl(dcm_fd(dcm), DCM_IOC_CYCLE_STATS, &cs))
		return;
	prom_u64(out, "dcm_missed_periods_total", "counter",
		 "Periods passed over after late cycles", cs.missed);
	prom_u64(out, "dcm_late_starts_total", "counter",
		 "Cycles that started a period or more after their deadline", cs.late_starts);
	prom_u64(out, "dcm_work_overruns_total", "counter",
		 "Cycles whose work took longer than the period", cs.work_overruns);
	prom_u64(out, "dcm_late_buses_total", "counter",
		 "Bus exchanges not done when the cycle published", cs.late_buses);
	prom_u64(out, "dcm_busy_buses_total", "counter",
		 "Bus exchanges not started: the previous one had not ended", cs.busy_buses);
	prom_head(out, "dcm_bus_skipped_total", "counter",
		  "Cycles in which a bus could not exchange, by reason (ABI 1.9)");
	fprintf(out, "dcm_bus_skipped_total{reason=\"late\"} %" PRIu64 "\n",
		(uint64_t)cs.late_buses);
	fprintf(out, "dcm_bus_skipped_total{reason=\"busy\"} %" PRIu64 "\n",
		(uint64_t)cs.busy_buses);
	fprintf(out, "dcm_bus_skipped_total{reason=\"unready\"} %" PRIu64 "\n",
		(uint64_t)cs.unready_buses);
	fprintf(out, "dcm_bus_skipped_total{reason=\"absent\"} %" PRIu64 "\n",
		(uint64_t)cs.absent_buses);
	prom_u64(out, "dcm_bus_requests_total", "counter",
		 "Transfers the cycle carried for others after the exchanges (ABI 1.9)",
		 cs.bus_requests);
	prom_u64(out, "dcm_bus_requests_deferred_total", "counter",
		 "Times a bus's requests waited for a later cycle's budget (ABI 1.9)",
		 cs.deferred_requests);
	prom_u64(out, "dcm_cycle_statistics_cycles_total", "counter",
		 "Cycles since the statistics began (module load or reset)", cs.cycles);
	prom_quantiles(out, "dcm_cycle_latency_seconds",
		       "Wake-up latency percentiles since the statistics began",
		       cs.latency_ns, cs.latency_mean_ns, cs.cycles);
	prom_quantiles(out, "dcm_cycle_work_seconds",
		       "Work percentiles since the statistics began", cs.work_ns,
		       cs.work_mean_ns, cs.cycles);
	prom_u64(out, "dcm_cycle_priority", "gauge", "SCHED_FIFO priority of the cycle",
		 cs.priority);
}

/* The keys of one family in the frame; the head before the first. */
static void metrics_family(FILE *out, const struct web_family *fam, const struct web_model *m,
			   const struct dcm_values_frame *f)
{
	struct web_family other;
	bool head = false;
	size_t i;

	for (i = 0; i < m->n_metrics; i++) {
		const struct web_metric *x = &m->metrics[i];

		web_rule_family(x->rule, &other);
		if (!other.metric || strcmp(other.metric, fam->metric) || x->index >= f->n_values)
			continue;
		if (!head) {
			prom_head(out, fam->metric, fam->type, fam->help);
			head = true;
		}
		fputs(fam->metric, out);
		if (other.label) {
			fprintf(out, "{%s=\"", other.label);
			prom_label(out, x->label);
			fputs("\"}", out);
		}
		fputc(' ', out);
		prom_double(out, f->values[x->index] * other.scale);
		fputc('\n', out);
	}
}

/* The keys, a family per rule (rules sharing a family are adjacent). */
static void metrics_keys(FILE *out, const struct web_model *m, const struct dcm_values_frame *f)
{
	struct web_family fam, prev;
	unsigned int ri, rj;

	for (ri = 0; ri < web_rule_count(); ri++) {
		web_rule_family(ri, &fam);
		if (!fam.metric)
			continue;
		for (rj = 0; rj < ri; rj++) {
			web_rule_family(rj, &prev);
			if (prev.metric && !strcmp(prev.metric, fam.metric))
				break;
		}
		if (rj == ri)
			metrics_family(out, &fam, m, f);
	}
}

/**
 * web_metrics() - the metrics, in Prometheus' text exposition format 0.0.4
 * @out: where to write them
 * @dcm: the controller (its statistics ioctls)
 * @m: the model
 * @f: the last frame read, or one with no values
 * @c: the server's own counts
 *
 * Return: 0, or -errno when the controller cannot be read (the metrics
 * then say dcm_up 0).
 */
int web_metrics(FILE *out, struct dcm *dcm, const struct web_model *m,
		const struct dcm_values_frame *f, const struct web_counters *c)
{
	struct dcm_sysfs *s = NULL;
	struct dcm_info info;
	struct dcm_stats st;
	int r;

	r = dcm_get_info(dcm, &info);
	if (!r)
		r = dcm_stats(dcm, &st);
	metrics_server(out, c, !r);
	if (r)
		return r;
	if (dcm_sysfs_open(NULL, info.index, &s))
		s = NULL;
	metrics_info(out, &info, s, m, f);
	metrics_stats(out, &st);
	metrics_cycle_stats(out, dcm);
	prom_events(out, s);
	metrics_keys(out, m, f);
	if (s)
		dcm_sysfs_close(s);
	return 0;
}

/*
 * dcm-lola's status from its socket at @path into @buf (NUL-terminated).
 * Return: the bytes read, 0 when it did not answer.
 */
static size_t lola_read(const char *path, char *buf, size_t size)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct ucred cr;
	socklen_t crl = sizeof(cr);
	uint64_t deadline;
	size_t n = 0;
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path))
		return 0;
	strcpy(sa.sun_path, path);
	/* Non-blocking: a socket whose backlog is full does not stall the loop. */
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return 0;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &crl) ||
	    (cr.uid != 0 && cr.uid != getuid())) {
		close(fd);
		return 0;
	}
	/* The daemon writes its status and closes: 200 ms at most in all. */
	deadline = web_mono_ns() + 200000000ull;
	while (n < size - 1) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		uint64_t now = web_mono_ns();
		ssize_t r;

		if (now >= deadline ||
		    poll(&p, 1, (int)((deadline - now) / 1000000 + 1)) <= 0)
			break;
		r = read(fd, buf + n, size - 1 - n);
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = 0;
	return n;
}

void web_lola_metrics(FILE *out, const char *path)
{
	char buf[8192], *line, *save;
	int up;

	if (!path)
		return;
	up = lola_read(path, buf, sizeof(buf)) > 0;
	fprintf(out, "# HELP dcm_lola_up Whether dcm-lola's status socket answered\n"
		"# TYPE dcm_lola_up gauge\ndcm_lola_up %d\n", up);
	if (!up)
		return;
	/*
	 * "word number" lines: clients and commander are gauges, and a time
	 * in ms ("uptime_ms", "ramp_ms") a gauge in seconds; the rest counts.
	 */
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char word[48], name[80], tail;
		unsigned long long v;
		bool gauge, ms;
		size_t wl;

		if (sscanf(line, "%47[a-z_] %llu%c", word, &v, &tail) != 2)
			continue;
		wl = strlen(word);
		ms = wl > 3 && !strcmp(word + wl - 3, "_ms");
		gauge = ms || !strcmp(word, "clients") || !strcmp(word, "commander");
		if (ms)
			snprintf(name, sizeof(name), "dcm_lola_%.*s_seconds", (int)(wl - 3), word);
		else
			snprintf(name, sizeof(name), "dcm_lola_%s%s", word,
				 gauge || (wl > 6 && !strcmp(word + wl - 6, "_total")) ?
				 "" : "_total");
		fprintf(out, "# HELP %s dcm-lola's status: %s\n# TYPE %s %s\n%s ", name, word, name,
			gauge ? "gauge" : "counter", name);
		if (ms)
			prom_double(out, v / 1e3);
		else
			fprintf(out, "%llu", v);
		fputc('\n', out);
	}
}
