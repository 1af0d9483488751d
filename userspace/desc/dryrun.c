// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcmd: the dry-run sink. It stages the description in the kernel's own
 * model code (kernel/model/dcm_model.c and kernel/model/dcm_types.c, built for
 * userspace over kernel/host/include/), so `dcmd -n` applies the checks the
 * kernel would, with the same messages, without a kernel: every step's
 * check, and at commit dcm_model_check() (Min/Max, and no key path going
 * through another key, which the sysfs tree could not hold).
 *
 * Built with -I kernel/host/include, the host shim of the kernel headers.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/dcm_model.h"
#include "desc.h"

struct desc_dry_sink {
	struct dcm_model *m;
	FILE *list;		/* where a commit lists the keys, or NULL */
	char why[512];
};

bool desc_kernel_device_type_ok(const char *type)
{
	return dcm_device_type_find(type) != NULL;
}

bool desc_kernel_subdevice_type_ok(const char *type)
{
	return dcm_subdevice_type_find(type) != NULL;
}

int desc_kernel_type_keys(const char *type, bool device, struct desc_type_key *out,
			  size_t max)
{
	const struct dcm_key_desc *keys;
	size_t n, i;

	if (device) {
		const struct dcm_device_type *t = dcm_device_type_find(type);

		if (!t)
			return -ENOENT;
		keys = t->keys;
		n = t->n_keys;
	} else {
		const struct dcm_subdevice_type *t = dcm_subdevice_type_find(type);

		if (!t)
			return -ENOENT;
		keys = t->keys;
		n = t->n_keys;
	}
	for (i = 0; i < n && i < max; i++) {
		out[i].name = keys[i].name;
		/* the uapi kinds are libdcm's */
		out[i].kind = keys[i].kind;
		out[i].settable = !(keys[i].flags & DCM_KEY_LIVE);
		out[i].ranged = keys[i].min < keys[i].max;
		out[i].min = keys[i].min;
		out[i].max = keys[i].max;
	}
	return (int)n;
}

struct desc_dry_sink *desc_dry_sink_new(void)
{
	return calloc(1, sizeof(struct desc_dry_sink));
}

void desc_dry_sink_free(struct desc_dry_sink *s)
{
	if (!s)
		return;
	dcm_model_free(s->m);
	free(s);
}

void desc_dry_sink_list_keys(struct desc_dry_sink *s, FILE *f)
{
	s->list = f;
}

/* A number as sysfs shows it: floats with six decimals. */
static void print_num(FILE *f, u8 kind, s64 num)
{
	char text[LIBDCM_FIXED_TEXT_LEN];

	if (kind == DCM_KEY_KIND_FLOAT && dcm_fixed_to_string(num, text, sizeof(text)) > 0)
		fprintf(f, "%s\n", text);
	else
		fprintf(f, "%lld\n", (long long)num);
}

static void print_typed(FILE *f, u8 kind, const union dcm_value *v)
{
	if (kind == DCM_KEY_KIND_STRING)
		fprintf(f, "%s\n", v->str ? v->str : "");
	else
		print_num(f, kind, v->num);
}

/* The value of the standard key @k (of kind @kind) of the device @d or its subdevice @s. */
static void print_std_key(FILE *f, u32 k, u8 kind, const struct dcm_device *d,
			  const struct dcm_subdevice *s)
{
	switch (k) {
	case DCM_KEY_VALUE:
		print_num(f, kind, s->value);
		break;
	case DCM_KEY_GAIN:
		print_num(f, kind, dcm_model_gain(s));
		break;
	case DCM_KEY_OFFSET:
		print_num(f, kind, s->offset);
		break;
	case DCM_KEY_MIN:
		print_num(f, kind, s->min);
		break;
	case DCM_KEY_MAX:
		print_num(f, kind, s->max);
		break;
	case DCM_KEY_TYPE:
		fprintf(f, "%s\n", s ? s->type->name : d->type->name);
		break;
	case DCM_KEY_DEVICE:
		fprintf(f, "%s\n", d->name);
		break;
	case DCM_KEY_SUBDEVICENUMBER:
		print_num(f, kind, s->number);
		break;
	case DCM_KEY_BUS:
		fprintf(f, "%s\n", d->bus);
		break;
	case DCM_KEY_ADDRESS:
		print_num(f, kind, d->address);
		break;
	default:	/* Ack, Nack, Error: counted by the running robot */
		print_num(f, kind, 0);
		break;
	}
}

/* The keys of a device (@s NULL) or of a subdevice, "PATH VALUE" a line. */
static void list_element(FILE *f, const struct dcm_model *m, u8 target, u32 index)
{
	const struct dcm_subdevice *s = NULL;
	const struct dcm_key_desc *keys;
	const struct dcm_device *d;
	const char *prefix, *name;
	u32 k, n_keys;

	if (target == DCM_TARGET_SUBDEVICE) {
		s = &m->subdevices[index];
		d = &m->devices[s->device];
		prefix = DCM_PREFIX_SUBDEVICE;
		name = s->name;
		keys = s->type->keys;
		n_keys = s->type->n_keys;
	} else {
		d = &m->devices[index];
		prefix = DCM_PREFIX_DEVICE;
		name = d->name;
		keys = d->type->keys;
		n_keys = d->type->n_keys;
	}
	for (k = 0; k < DCM_KEY_TYPED + n_keys; k++) {
		struct dcm_keyref ref = { .target = target, .index = index, .key = k };
		u8 kind;

		if (k < DCM_KEY_TYPED && !dcm_std_key_applies(target, k))
			continue;
		kind = dcm_keyref_kind(m, &ref);
		fprintf(f, "%s%s/%s ", prefix, name,
			k < DCM_KEY_TYPED ? dcm_std_key_name(k) : keys[k - DCM_KEY_TYPED].name);
		if (k >= DCM_KEY_TYPED)
			print_typed(f, kind, s ? &s->keys[k - DCM_KEY_TYPED] :
					 &d->keys[k - DCM_KEY_TYPED]);
		else
			print_std_key(f, k, kind, d, s);
	}
}

/* Every key of a checked model, as the sysfs tree would hold them. */
static void list_keys(FILE *f, const struct dcm_model *m)
{
	u32 i;

	for (i = 0; i < m->n_devices; i++)
		list_element(f, m, DCM_TARGET_DEVICE, i);
	for (i = 0; i < m->n_subdevices; i++)
		list_element(f, m, DCM_TARGET_SUBDEVICE, i);
	for (i = 0; i < m->n_robot_keys; i++) {
		fprintf(f, "%s ", m->robot_keys[i].path);
		print_typed(f, m->robot_keys[i].kind, &m->robot_keys[i].value);
	}
}

static void drop(struct desc_dry_sink *s)
{
	dcm_model_free(s->m);
	s->m = NULL;
}

/* As the kernel's step_failed(): "WHAT NAME: WHY", and the model is gone. */
static int step_failed(struct desc_dry_sink *s, const char *what, const char *name,
		       const char *why, int ret)
{
	snprintf(s->why, sizeof(s->why), "%s %s: %s", what, name, why);
	drop(s);
	return ret;
}

static int no_transaction(struct desc_dry_sink *s)
{
	snprintf(s->why, sizeof(s->why), "no configuration transaction open: send BEGIN first");
	return -ENOENT;
}

static int dry_begin(void *ctx)
{
	struct desc_dry_sink *s = ctx;

	drop(s);
	s->m = dcm_model_alloc();
	if (!s->m) {
		snprintf(s->why, sizeof(s->why), "out of memory");
		return -ENOMEM;
	}
	return 0;
}

static int dry_add_device(void *ctx, const char *name, const char *type,
			  const char *bus, unsigned int address)
{
	struct desc_dry_sink *s = ctx;
	const char *why = NULL;
	int r;

	if (!s->m)
		return no_transaction(s);
	r = dcm_model_add_device(s->m, name, type, bus, address, &why);
	return r ? step_failed(s, "device", name, why, r) : 0;
}

static int dry_add_subdevice(void *ctx, const char *name, const char *type,
			     const char *device, unsigned int number)
{
	struct desc_dry_sink *s = ctx;
	const char *why = NULL;
	int r;

	if (!s->m)
		return no_transaction(s);
	r = dcm_model_add_subdevice(s->m, name, type, device, number, &why);
	return r ? step_failed(s, "subdevice", name, why, r) : 0;
}

static int dry_set_key(void *ctx, const char *path, const struct dcm_key_value *v)
{
	struct desc_dry_sink *s = ctx;
	const char *why = NULL;
	int r;

	if (!s->m)
		return no_transaction(s);
	if (v->den > 1)
		r = dcm_model_set_fraction(s->m, path, v->num, v->den, &why);
	else
		r = dcm_model_set_key(s->m, path, (u8)v->kind, v->num, v->str, &why);
	return r ? step_failed(s, "key", path, why, r) : 0;
}

static int dry_commit(void *ctx, struct dcm_config_counts *counts)
{
	struct desc_dry_sink *s = ctx;
	int r;

	if (!s->m)
		return no_transaction(s);
	r = dcm_model_check(s->m, s->why, sizeof(s->why));
	if (!r && s->list)
		list_keys(s->list, s->m);
	if (!r && counts) {
		counts->n_devices = s->m->n_devices;
		counts->n_subdevices = s->m->n_subdevices;
		counts->n_keys = s->m->n_robot_keys;
	}
	/* the transaction ends either way; keep nothing */
	drop(s);
	return r;
}

static void dry_abort(void *ctx)
{
	drop(ctx);
}

static const char *dry_why(void *ctx)
{
	struct desc_dry_sink *s = ctx;

	return s->why;
}

const struct desc_sink desc_dry_sink_ops = {
	.begin = dry_begin,
	.add_device = dry_add_device,
	.add_subdevice = dry_add_subdevice,
	.set_key = dry_set_key,
	.commit = dry_commit,
	.abort = dry_abort,
	.why = dry_why,
};
