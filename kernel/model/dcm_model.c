// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the robot description: building it step by step with a check at
 * each step, checking it whole, and looking names and key paths up.
 *
 * Every failing step leaves the model as it was and says why in a static
 * string; dcm_model_check() formats its answer into a buffer.
 */

#include "model/dcm_pure.h"
#include "model/dcm_model.h"

static const char * const std_key_names[DCM_KEY_TYPED] = {
	[DCM_KEY_VALUE] = "Value",
	[DCM_KEY_GAIN] = "Gain",
	[DCM_KEY_OFFSET] = "Offset",
	[DCM_KEY_MIN] = "Min",
	[DCM_KEY_MAX] = "Max",
	[DCM_KEY_ACK] = "Ack",
	[DCM_KEY_NACK] = "Nack",
	[DCM_KEY_ERROR] = "Error",
	[DCM_KEY_TYPE] = "Type",
	[DCM_KEY_DEVICE] = "Device",
	[DCM_KEY_SUBDEVICENUMBER] = "SubDeviceNumber",
	[DCM_KEY_BUS] = "Bus",
	[DCM_KEY_ADDRESS] = "Address",
	[DCM_KEY_AVAILABLE] = "Available",
};

/**
 * dcm_std_key_applies() - whether a standard key exists for a target
 * @target: DCM_TARGET_DEVICE or DCM_TARGET_SUBDEVICE
 * @key: enum dcm_std_key below DCM_KEY_TYPED
 *
 * Devices have Ack, Nack, Error, Type, Bus, Address and Available;
 * subdevices all but Bus, Address and Available.
 *
 * Return: true if @target has @key.
 */
bool dcm_std_key_applies(u8 target, u32 key)
{
	switch (key) {
	case DCM_KEY_ACK:
	case DCM_KEY_NACK:
	case DCM_KEY_ERROR:
	case DCM_KEY_TYPE:
		return true;
	case DCM_KEY_BUS:
	case DCM_KEY_ADDRESS:
	case DCM_KEY_AVAILABLE:
		return target == DCM_TARGET_DEVICE;
	default:
		return target == DCM_TARGET_SUBDEVICE;
	}
}

/**
 * dcm_std_key_name() - name of a standard key
 * @key: enum dcm_std_key below DCM_KEY_TYPED
 *
 * Return: the name, or NULL.
 */
const char *dcm_std_key_name(u32 key)
{
	return key < DCM_KEY_TYPED ? std_key_names[key] : NULL;
}

static u32 name_hash(const char *s, size_t len)
{
	u32 h = 2166136261u;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (u8)s[i]) * 16777619u;
	return h & ((1U << DCM_MODEL_HASH_BITS) - 1);
}

/* Look up the first @len bytes of @name in the index; -1 if absent. */
static int names_find(const struct dcm_model *m, const char *name, size_t len)
{
	int i;

	for (i = m->buckets[name_hash(name, len)]; i >= 0; i = m->names[i].next)
		if (!strncmp(m->names[i].name, name, len) && !m->names[i].name[len])
			return i;
	return -1;
}

/*
 * grow_array() - room for element @n of *@arr, an array of @n elements of
 * @size bytes
 *
 * The array's room is the power of two at or above @n, at least 8; when it
 * is full the elements move to a new allocation of twice the room. Not
 * krealloc(): an array past KMALLOC_MAX_CACHE_SIZE is pages of
 * kmalloc_large(), which krealloc() grows in place up to their order
 * without telling kmemleak. kmemleak scans such an object only as far as
 * the size it was first allocated with, and then reports what only the
 * elements past it point to (the subdevices' key arrays) as leaked.
 *
 * Return: 0, or -ENOMEM with *@arr as it was.
 */
static int grow_array(void **arr, u32 n, size_t size)
{
	void *p;

	if (n && (n < 8 || (n & (n - 1))))
		return 0;
	p = kvmalloc_array(n ? 2 * (size_t)n : 8, size, GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	if (n)
		memcpy(p, *arr, n * size);
	kvfree(*arr);
	*arr = p;
	return 0;
}

static int names_add(struct dcm_model *m, const char *name, u8 target, u32 index)
{
	u32 h = name_hash(name, strlen(name));
	struct dcm_name *n;

	if (grow_array((void **)&m->names, m->n_names, sizeof(*n)))
		return -ENOMEM;
	n = &m->names[m->n_names];
	n->name = name;
	n->target = target;
	n->index = index;
	n->next = m->buckets[h];
	m->buckets[h] = m->n_names++;
	return 0;
}

/**
 * dcm_model_alloc() - an empty description
 *
 * Return: the model, or NULL on allocation failure.
 */
struct dcm_model *dcm_model_alloc(void)
{
	struct dcm_model *m = kvzalloc(sizeof(*m), GFP_KERNEL);
	size_t i;

	if (!m)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(m->buckets); i++)
		m->buckets[i] = -1;
	return m;
}

static void free_keys(union dcm_value *keys, const struct dcm_key_desc *desc, u32 n)
{
	u32 i;

	if (!keys)
		return;
	for (i = 0; i < n; i++)
		if (desc[i].kind == DCM_KEY_KIND_STRING)
			kfree(keys[i].str);
	kfree(keys);
}

/**
 * dcm_model_free() - free a description and everything it owns
 * @m: the model, or NULL
 */
void dcm_model_free(struct dcm_model *m)
{
	u32 i;

	if (!m)
		return;
	for (i = 0; i < m->n_devices; i++) {
		struct dcm_device *d = &m->devices[i];

		kfree(d->name);
		kfree(d->bus);
		free_keys(d->keys, d->type->keys, d->type->n_keys);
	}
	for (i = 0; i < m->n_subdevices; i++) {
		struct dcm_subdevice *s = &m->subdevices[i];

		kfree(s->name);
		free_keys(s->keys, s->type->keys, s->type->n_keys);
	}
	for (i = 0; i < m->n_robot_keys; i++) {
		kfree(m->robot_keys[i].path);
		if (m->robot_keys[i].kind == DCM_KEY_KIND_STRING)
			kfree(m->robot_keys[i].value.str);
	}
	kvfree(m->subdevices);
	kvfree(m->robot_keys);
	kvfree(m->names);
	kvfree(m);
}

/* n / d rounded to nearest, half away from zero; d > 0. */
static s64 div_round_s64(s64 n, u32 d)
{
	u64 un = n < 0 ? 0ULL - (u64)n : (u64)n;
	u64 q = div64_u64(un + d / 2, d);

	if (un + d / 2 < un)	/* wrapped: only near the s64 limits */
		q = div64_u64(un, d);
	return n < 0 ? -(s64)q : (s64)q;
}

static bool name_char_ok(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

/*
 * A path: components of [A-Za-z0-9_.-], none empty, "." or "..", joined by
 * single '/'; at most @max_parts components (1 for a device name).
 */
static bool path_ok(const char *s, unsigned int max_parts)
{
	size_t len = strlen(s), i, start = 0;
	unsigned int parts = 1;

	if (!len || len >= DCM_MAX_NAME_LEN)
		return false;
	for (i = 0; i <= len; i++) {
		if (i == len || s[i] == '/') {
			size_t n = i - start;

			if (!n || (n == 1 && s[start] == '.') ||
			    (n == 2 && s[start] == '.' && s[start + 1] == '.'))
				return false;
			if (i < len && ++parts > max_parts)
				return false;
			start = i + 1;
		} else if (!name_char_ok(s[i])) {
			return false;
		}
	}
	return true;
}

/* First path component equal to @word? */
static bool first_part_is(const char *s, const char *word)
{
	size_t n = strlen(word);

	return !strncmp(s, word, n) && (s[n] == '/' || !s[n]);
}

/* Device, DeviceList, SubDeviceList, RobotConfig: the key space's own words. */
static bool reserved_first_part(const char *s)
{
	return first_part_is(s, DCM_DIR_ROOT) || first_part_is(s, DCM_DIR_DEVICES) ||
	       first_part_is(s, DCM_DIR_SUBDEVICES) || first_part_is(s, DCM_DIR_ROBOTCONFIG);
}

/**
 * dcm_string_ok() - whether text may be a string key's value
 * @s: the text, NUL-terminated
 *
 * Return: true for under DCM_MAX_STRING_LEN bytes with no control character
 * (below 0x20, or 0x7f): the rule of the configuration, of sysfs, and of
 * the chest board's store.
 */
bool dcm_string_ok(const char *s)
{
	size_t i;

	for (i = 0; s[i]; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return false;
	return i < DCM_MAX_STRING_LEN;
}

/**
 * dcm_model_add_device() - add a device to a description being built
 * @m: the model
 * @name: unique name, one path component
 * @type: a device Type (dcm_device_type_find())
 * @bus: Bus name, one path component
 * @address: Address, 0-255
 * @why: set to a static explanation when the step fails
 *
 * Return: 0, or -EINVAL (bad argument), -EEXIST (name taken), -ENOSPC
 * (DCM_MAX_DEVICES reached), -ENOMEM; the model is unchanged on failure.
 */
int dcm_model_add_device(struct dcm_model *m, const char *name, const char *type,
			 const char *bus, u32 address, const char **why)
{
	const struct dcm_device_type *t;
	struct dcm_device *d;
	int ret;

	if (!path_ok(name, 1)) {
		*why = "bad device name: one component of [A-Za-z0-9_.-], under 128 bytes";
		return -EINVAL;
	}
	if (reserved_first_part(name)) {
		*why = "a device name cannot be a reserved word";
		return -EINVAL;
	}
	t = dcm_device_type_find(type);
	if (!t) {
		*why = "unknown device type";
		return -EINVAL;
	}
	if (!path_ok(bus, 1)) {
		*why = "bad bus name: one component of [A-Za-z0-9_.-]";
		return -EINVAL;
	}
	if (address > 255) {
		*why = "device address is outside 0-255";
		return -EINVAL;
	}
	if (names_find(m, name, strlen(name)) >= 0) {
		*why = "duplicate name";
		return -EEXIST;
	}
	if (m->n_devices >= DCM_MAX_DEVICES) {
		*why = "too many devices";
		return -ENOSPC;
	}

	d = &m->devices[m->n_devices];
	memset(d, 0, sizeof(*d));
	d->type = t;
	d->address = address;
	d->name = kstrdup(name, GFP_KERNEL);
	d->bus = kstrdup(bus, GFP_KERNEL);
	if (t->n_keys)
		d->keys = kcalloc(t->n_keys, sizeof(*d->keys), GFP_KERNEL);
	ret = -ENOMEM;
	if (!d->name || !d->bus || (t->n_keys && !d->keys))
		goto err;
	ret = names_add(m, d->name, DCM_TARGET_DEVICE, m->n_devices);
	if (ret)
		goto err;
	m->n_devices++;
	return 0;

err:
	kfree(d->name);
	kfree(d->bus);
	kfree(d->keys);
	*why = "out of memory";
	return ret;
}

/**
 * dcm_model_add_subdevice() - add a subdevice to a description being built
 * @m: the model
 * @name: unique name, a path ("HeadPitch/Position/Actuator") whose first
 *	component is none of Device, DeviceList, SubDeviceList, RobotConfig
 * @type: a subdevice Type (dcm_subdevice_type_find())
 * @device: name of a device added before
 * @number: SubDeviceNumber, from 1, unique for this device and type
 * @why: set to a static explanation when the step fails
 *
 * Gain starts at 1.0, Offset and Value at 0; Min and Max must be set before
 * the description is committed.
 *
 * Return: 0, or -EINVAL, -ENOENT (no such device), -EEXIST, -ENOSPC,
 * -ENOMEM; the model is unchanged on failure.
 */
int dcm_model_add_subdevice(struct dcm_model *m, const char *name, const char *type,
			    const char *device, u32 number, const char **why)
{
	const struct dcm_subdevice_type *t;
	struct dcm_subdevice *s;
	int dev, ret;
	u32 i;

	if (!path_ok(name, 16)) {
		*why = "bad subdevice name: [A-Za-z0-9_.-] components joined by '/'";
		return -EINVAL;
	}
	if (reserved_first_part(name)) {
		*why = "a subdevice name cannot start with a reserved word";
		return -EINVAL;
	}
	t = dcm_subdevice_type_find(type);
	if (!t) {
		*why = "unknown subdevice type";
		return -EINVAL;
	}
	dev = names_find(m, device, strlen(device));
	if (dev < 0 || m->names[dev].target != DCM_TARGET_DEVICE) {
		*why = "the subdevice's device does not exist";
		return -ENOENT;
	}
	dev = m->names[dev].index;
	if (number < 1 || number > 255) {
		*why = "SubDeviceNumber is outside 1-255";
		return -EINVAL;
	}
	for (i = 0; i < m->n_subdevices; i++) {
		if (m->subdevices[i].device == (u32)dev && m->subdevices[i].type == t &&
		    m->subdevices[i].number == number) {
			*why = "SubDeviceNumber taken by a subdevice of this type on this device";
			return -EEXIST;
		}
	}
	if (names_find(m, name, strlen(name)) >= 0) {
		*why = "duplicate name";
		return -EEXIST;
	}
	if (m->n_subdevices >= DCM_MAX_SUBDEVICES) {
		*why = "too many subdevices";
		return -ENOSPC;
	}

	*why = "out of memory";
	if (grow_array((void **)&m->subdevices, m->n_subdevices, sizeof(*s)))
		return -ENOMEM;
	s = &m->subdevices[m->n_subdevices];
	memset(s, 0, sizeof(*s));
	s->type = t;
	s->device = dev;
	s->number = number;
	s->gain = DCM_MICRO;
	s->gain_den = 1;
	s->name = kstrdup(name, GFP_KERNEL);
	if (t->n_keys)
		s->keys = kcalloc(t->n_keys, sizeof(*s->keys), GFP_KERNEL);
	ret = -ENOMEM;
	if (!s->name || (t->n_keys && !s->keys))
		goto err;
	ret = names_add(m, s->name, DCM_TARGET_SUBDEVICE, m->n_subdevices);
	if (ret)
		goto err;
	m->n_subdevices++;
	return 0;

err:
	kfree(s->name);
	kfree(s->keys);
	return ret;
}

/**
 * dcm_model_lookup() - find a device or subdevice by name
 * @m: the model
 * @name: a subdevice name with or without "Device/SubDeviceList/", a device
 *	name with or without "Device/DeviceList/", or a RobotConfig key path
 * @target: set to DCM_TARGET_*
 * @index: set to the index in the model's array for @target
 *
 * Return: 0, or -ENOENT.
 */
int dcm_model_lookup(const struct dcm_model *m, const char *name, u8 *target, u32 *index)
{
	size_t plen = strlen(DCM_PREFIX_SUBDEVICE), dlen = strlen(DCM_PREFIX_DEVICE);
	u8 want = DCM_TARGET_NONE;
	int i;

	if (!strncmp(name, DCM_PREFIX_SUBDEVICE, plen)) {
		name += plen;
		want = DCM_TARGET_SUBDEVICE;
	} else if (!strncmp(name, DCM_PREFIX_DEVICE, dlen)) {
		name += dlen;
		want = DCM_TARGET_DEVICE;
	}
	i = names_find(m, name, strlen(name));
	if (i < 0 || (want && m->names[i].target != want))
		return -ENOENT;
	*target = m->names[i].target;
	*index = m->names[i].index;
	return 0;
}

/* The key called by the first @len bytes of @key, for a target of a type. */
static int resolve_key(u8 target, const struct dcm_key_desc *keys, u32 n_keys,
		       const char *key, size_t len, u32 *id)
{
	u32 i;

	for (i = 0; i < DCM_KEY_TYPED; i++) {
		if (dcm_std_key_applies(target, i) && !strncmp(std_key_names[i], key, len) &&
		    !std_key_names[i][len]) {
			*id = i;
			return 0;
		}
	}
	for (i = 0; i < n_keys; i++) {
		if (!strncmp(keys[i].name, key, len) && !keys[i].name[len]) {
			*id = DCM_KEY_TYPED + i;
			return 0;
		}
	}
	return -ENOENT;
}

/**
 * dcm_model_resolve() - resolve a full key path
 * @m: the model
 * @path: "Device/SubDeviceList/<subdevice>/<key>", "<subdevice>/<key>",
 *	"Device/DeviceList/<device>/<key>" or "RobotConfig/..."
 * @ref: the key found
 *
 * One hash look-up of the name and a scan of its type's few keys.
 *
 * Return: 0, or -ENOENT.
 */
int dcm_model_resolve(const struct dcm_model *m, const char *path, struct dcm_keyref *ref)
{
	size_t plen = strlen(DCM_PREFIX_SUBDEVICE), dlen = strlen(DCM_PREFIX_DEVICE);
	u8 want = DCM_TARGET_SUBDEVICE;
	const char *slash;
	int i;

	if (first_part_is(path, DCM_DIR_ROBOTCONFIG)) {
		i = names_find(m, path, strlen(path));
		if (i < 0 || m->names[i].target != DCM_TARGET_ROBOT)
			return -ENOENT;
		ref->target = DCM_TARGET_ROBOT;
		ref->index = m->names[i].index;
		ref->key = 0;
		return 0;
	}
	if (!strncmp(path, DCM_PREFIX_SUBDEVICE, plen)) {
		path += plen;
	} else if (!strncmp(path, DCM_PREFIX_DEVICE, dlen)) {
		path += dlen;
		want = DCM_TARGET_DEVICE;
	}
	slash = strrchr(path, '/');
	if (!slash)
		return -ENOENT;
	i = names_find(m, path, slash - path);
	if (i < 0 || m->names[i].target != want)
		return -ENOENT;
	ref->target = want;
	ref->index = m->names[i].index;
	if (want == DCM_TARGET_DEVICE) {
		const struct dcm_device_type *t = m->devices[ref->index].type;

		return resolve_key(want, t->keys, t->n_keys, slash + 1, strlen(slash + 1),
				   &ref->key);
	}
	return resolve_key(want, m->subdevices[ref->index].type->keys,
			   m->subdevices[ref->index].type->n_keys, slash + 1, strlen(slash + 1),
			   &ref->key);
}

static const struct dcm_key_desc *typed_desc(const struct dcm_model *m,
					     const struct dcm_keyref *ref)
{
	u32 k = ref->key - DCM_KEY_TYPED;

	if (ref->target == DCM_TARGET_DEVICE)
		return &m->devices[ref->index].type->keys[k];
	return &m->subdevices[ref->index].type->keys[k];
}

static union dcm_value *typed_value(struct dcm_model *m, const struct dcm_keyref *ref)
{
	u32 k = ref->key - DCM_KEY_TYPED;

	if (ref->target == DCM_TARGET_DEVICE)
		return &m->devices[ref->index].keys[k];
	return &m->subdevices[ref->index].keys[k];
}

/**
 * dcm_keyref_kind() - kind of the value a key holds
 * @m: the model
 * @ref: a key resolved in @m
 *
 * Return: enum dcm_key_kind.
 */
u8 dcm_keyref_kind(const struct dcm_model *m, const struct dcm_keyref *ref)
{
	if (ref->target == DCM_TARGET_ROBOT)
		return m->robot_keys[ref->index].kind;
	if (ref->key >= DCM_KEY_TYPED)
		return typed_desc(m, ref)->kind;
	switch (ref->key) {
	case DCM_KEY_VALUE:
	case DCM_KEY_GAIN:
	case DCM_KEY_OFFSET:
	case DCM_KEY_MIN:
	case DCM_KEY_MAX:
		return DCM_KEY_KIND_FLOAT;
	case DCM_KEY_TYPE:
	case DCM_KEY_DEVICE:
	case DCM_KEY_BUS:
	case DCM_KEY_ERROR:
		return DCM_KEY_KIND_STRING;
	default:
		return DCM_KEY_KIND_INT;
	}
}

static int check_value(u8 kind, s64 num, const char *str, const char **why)
{
	switch (kind) {
	case DCM_KEY_KIND_STRING:
		if (!str || !dcm_string_ok(str)) {
			*why = "bad string value: control characters, or 256 bytes or more";
			return -EINVAL;
		}
		return 0;
	case DCM_KEY_KIND_BOOL:
		if (num != 0 && num != 1) {
			*why = "a bool value is 0 or 1";
			return -EINVAL;
		}
		return 0;
	case DCM_KEY_KIND_INT:
	case DCM_KEY_KIND_FLOAT:
		return 0;
	default:
		*why = "unknown key kind";
		return -EINVAL;
	}
}

static int set_robot_key(struct dcm_model *m, const char *path, u8 kind, s64 num,
			 const char *str, const char **why)
{
	size_t plen = strlen(DCM_PREFIX_ROBOTCONFIG);
	struct dcm_robot_key *rk;
	char *s = NULL;
	int i, ret;

	if (!path_ok(path, 16) || strncmp(path, DCM_PREFIX_ROBOTCONFIG, plen) || !path[plen]) {
		*why = "bad RobotConfig key path";
		return -EINVAL;
	}
	if (kind == DCM_KEY_KIND_STRING) {
		s = kstrdup(str, GFP_KERNEL);
		if (!s)
			goto nomem;
	}
	i = names_find(m, path, strlen(path));
	if (i >= 0 && m->names[i].target != DCM_TARGET_ROBOT) {
		kfree(s);
		*why = "the path is a device's or a subdevice's name";
		return -EEXIST;
	}
	if (i >= 0) {
		/* A later layer (a preference file) overrides. */
		rk = &m->robot_keys[m->names[i].index];
		if (rk->kind == DCM_KEY_KIND_STRING)
			kfree(rk->value.str);
		rk->kind = kind;
		if (s)
			rk->value.str = s;
		else
			rk->value.num = num;
		return 0;
	}
	if (m->n_robot_keys >= DCM_MAX_KEYS) {
		kfree(s);
		*why = "too many RobotConfig keys";
		return -ENOSPC;
	}
	if (grow_array((void **)&m->robot_keys, m->n_robot_keys, sizeof(*rk))) {
		kfree(s);
		goto nomem;
	}
	rk = &m->robot_keys[m->n_robot_keys];
	rk->kind = kind;
	if (s)
		rk->value.str = s;
	else
		rk->value.num = num;
	rk->path = kstrdup(path, GFP_KERNEL);
	ret = rk->path ? names_add(m, rk->path, DCM_TARGET_ROBOT, m->n_robot_keys) : -ENOMEM;
	if (ret) {
		kfree(rk->path);
		kfree(s);
		goto nomem;
	}
	m->n_robot_keys++;
	return 0;

nomem:
	*why = "out of memory";
	return -ENOMEM;
}

/**
 * dcm_model_set_key() - set a key of a description being built
 * @m: the model
 * @path: a key path (dcm_model_resolve()); a RobotConfig key is created
 *	if it does not exist
 * @kind: enum dcm_key_kind of the value; must be the key's kind
 * @num: the value of an INT, BOOL or FLOAT key (FLOAT in micro-units)
 * @str: the value of a STRING key
 * @why: set to a static explanation when the step fails
 *
 * Settable are Value, Gain, Offset, Min and Max of subdevices, the keys
 * their types mark DCM_KEY_CONFIG or DCM_KEY_STATIC, and RobotConfig keys.
 * Setting a key again replaces its value: that is how preference files
 * override Device.xml.
 *
 * Return: 0, or -EINVAL, -ENOENT (no such key), -EPERM (a key the robot
 * or the structure sets), -ERANGE, -ENOSPC, -ENOMEM; the model is unchanged
 * on failure.
 */
int dcm_model_set_key(struct dcm_model *m, const char *path, u8 kind, s64 num,
		      const char *str, const char **why)
{
	const struct dcm_key_desc *desc;
	struct dcm_subdevice *s;
	struct dcm_keyref ref;
	union dcm_value *v;
	int ret;

	ret = check_value(kind, num, str, why);
	if (ret)
		return ret;
	if (first_part_is(path, DCM_DIR_ROBOTCONFIG))
		return set_robot_key(m, path, kind, num, str, why);

	if (dcm_model_resolve(m, path, &ref)) {
		*why = "no such device, subdevice or key";
		return -ENOENT;
	}
	if (ref.key < DCM_KEY_TYPED) {
		if (ref.target != DCM_TARGET_SUBDEVICE || ref.key > DCM_KEY_MAX) {
			*why = "this key is set by the structure or the robot, not a description";
			return -EPERM;
		}
		if (kind != DCM_KEY_KIND_FLOAT) {
			*why = "Value, Gain, Offset, Min and Max are floats";
			return -EINVAL;
		}
		s = &m->subdevices[ref.index];
		switch (ref.key) {
		case DCM_KEY_VALUE:
			s->value = num;
			break;
		case DCM_KEY_GAIN:
			if (!num) {
				*why = "Gain cannot be 0";
				return -ERANGE;
			}
			s->gain = num;
			s->gain_den = 1;
			break;
		case DCM_KEY_OFFSET:
			s->offset = num;
			break;
		case DCM_KEY_MIN:
			s->min = num;
			s->set |= DCM_SET_MIN;
			break;
		case DCM_KEY_MAX:
			s->max = num;
			s->set |= DCM_SET_MAX;
			break;
		}
		return 0;
	}

	desc = typed_desc(m, &ref);
	if (desc->flags & DCM_KEY_LIVE) {
		*why = "this key is set by the robot, not by a description";
		return -EPERM;
	}
	if (kind != desc->kind) {
		*why = "the value is not of the key's kind";
		return -EINVAL;
	}
	if (!dcm_key_desc_in_range(desc, num)) {
		*why = "the value is outside the key's range";
		return -ERANGE;
	}
	v = typed_value(m, &ref);
	if (kind == DCM_KEY_KIND_STRING) {
		char *dup = kstrdup(str, GFP_KERNEL);

		if (!dup) {
			*why = "out of memory";
			return -ENOMEM;
		}
		kfree(v->str);
		v->str = dup;
	} else {
		v->num = num;
	}
	return 0;
}

/*
 * In the key tree a key is a file and a name component a directory: the
 * path of a subdevice may not go through a key of a shorter one ("A/B" has
 * Value, so no "A/B/Value/C"), nor a RobotConfig key through another.
 */
static int check_paths(const struct dcm_model *m, char *why, size_t len)
{
	const char *name, *next;
	size_t p, n;
	u32 i, key;
	int j;

	for (i = 0; i < m->n_subdevices; i++) {
		name = m->subdevices[i].name;
		for (p = 0; name[p]; p++) {
			if (name[p] != '/')
				continue;
			j = names_find(m, name, p);
			if (j < 0 || m->names[j].target != DCM_TARGET_SUBDEVICE)
				continue;
			next = strchr(name + p + 1, '/');
			n = next ? (size_t)(next - name - p - 1) : strlen(name + p + 1);
			if (!resolve_key(DCM_TARGET_SUBDEVICE,
					 m->subdevices[m->names[j].index].type->keys,
					 m->subdevices[m->names[j].index].type->n_keys,
					 name + p + 1, n, &key)) {
				snprintf(why, len, "subdevice %s goes through the key %.*s", name,
					 (int)(p + 1 + n), name);
				return -EINVAL;
			}
		}
	}
	for (i = 0; i < m->n_robot_keys; i++) {
		name = m->robot_keys[i].path;
		for (p = 0; name[p]; p++) {
			if (name[p] == '/' && names_find(m, name, p) >= 0) {
				snprintf(why, len, "RobotConfig key %s goes through the key %.*s",
					 name, (int)p, name);
				return -EINVAL;
			}
		}
	}
	return 0;
}

/**
 * dcm_model_set_fraction() - set a float key to a fraction of micro-units
 * @m: the model
 * @path: a key path whose kind is float
 * @num: numerator, micro-units
 * @den: denominator, from 1
 * @why: set to a static explanation when the step fails
 *
 * A Gain keeps the fraction exactly (1/255 is 1000000 / 255); any other
 * float key takes @num / @den rounded to the micro-unit.
 *
 * Return: as dcm_model_set_key(), and -EINVAL for a @den of 0.
 */
int dcm_model_set_fraction(struct dcm_model *m, const char *path, s64 num, u32 den,
			   const char **why)
{
	struct dcm_keyref ref;
	int ret;

	if (!den) {
		*why = "a fraction's denominator cannot be 0";
		return -EINVAL;
	}
	if (first_part_is(path, DCM_DIR_ROBOTCONFIG) || dcm_model_resolve(m, path, &ref) ||
	    ref.target != DCM_TARGET_SUBDEVICE || ref.key != DCM_KEY_GAIN)
		return dcm_model_set_key(m, path, DCM_KEY_KIND_FLOAT, div_round_s64(num, den),
					 NULL, why);
	ret = dcm_model_set_key(m, path, DCM_KEY_KIND_FLOAT, num, NULL, why);
	if (!ret)
		m->subdevices[ref.index].gain_den = den;
	return ret;
}

/**
 * dcm_model_gain() - a subdevice's Gain in micro-units, rounded
 * @s: the subdevice
 *
 * Return: Gain, as the key space shows it.
 */
s64 dcm_model_gain(const struct dcm_subdevice *s)
{
	return div_round_s64(s->gain, s->gain_den);
}

static bool str_equal(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static bool value_equal(u8 kind, const union dcm_value *a, const union dcm_value *b)
{
	if (kind == DCM_KEY_KIND_STRING)
		return str_equal(a->str, b->str);
	return a->num == b->num;
}

/*
 * Typed keys, but for the LIVE ones (the cycle sets them in a running
 * description); NULL @a or @b: that element has all of them at 0.
 */
static bool keys_equal(const union dcm_value *a, const union dcm_value *b,
		       const struct dcm_key_desc *desc, u32 n)
{
	static const union dcm_value none;
	u32 i;

	if (a == b)
		return true;
	for (i = 0; i < n; i++)
		if (!(desc[i].flags & DCM_KEY_LIVE) &&
		    !value_equal(desc[i].kind, a ? &a[i] : &none, b ? &b[i] : &none))
			return false;
	return true;
}

/**
 * dcm_model_equal() - are two descriptions the same robot description
 * @a: a model
 * @b: another
 *
 * The same devices, subdevices and RobotConfig keys, in the same order,
 * with the same names, types and key values, but for what the robot sets
 * in a running description: its LIVE keys, and each subdevice's Value
 * (the cycle keeps the latest there; the description's is only the value
 * to start from). What a client sees of them (key paths, handles) is the
 * same. Used at commit to keep a running description that a reload would
 * only repeat. The caller keeps string keys from changing meanwhile.
 *
 * Return: true if equal.
 */
bool dcm_model_equal(const struct dcm_model *a, const struct dcm_model *b)
{
	u32 i;

	if (a->n_devices != b->n_devices || a->n_subdevices != b->n_subdevices ||
	    a->n_robot_keys != b->n_robot_keys)
		return false;
	for (i = 0; i < a->n_devices; i++) {
		const struct dcm_device *x = &a->devices[i], *y = &b->devices[i];

		if (x->type != y->type || x->address != y->address ||
		    !str_equal(x->name, y->name) || !str_equal(x->bus, y->bus) ||
		    !keys_equal(x->keys, y->keys, x->type->keys, x->type->n_keys))
			return false;
	}
	for (i = 0; i < a->n_subdevices; i++) {
		const struct dcm_subdevice *x = &a->subdevices[i], *y = &b->subdevices[i];

		if (x->type != y->type || x->device != y->device || x->number != y->number ||
		    x->gain != y->gain || x->gain_den != y->gain_den ||
		    x->offset != y->offset || x->min != y->min || x->max != y->max ||
		    x->set != y->set || !str_equal(x->name, y->name) ||
		    !keys_equal(x->keys, y->keys, x->type->keys, x->type->n_keys))
			return false;
	}
	for (i = 0; i < a->n_robot_keys; i++) {
		const struct dcm_robot_key *x = &a->robot_keys[i], *y = &b->robot_keys[i];

		if (x->kind != y->kind || !str_equal(x->path, y->path) ||
		    !value_equal(x->kind, &x->value, &y->value))
			return false;
	}
	return true;
}

/* One device per Address on a bus; at most DCM_BUS_RS485_MAX_BOARDS RS485 boards. */
static int check_buses(const struct dcm_model *m, char *why, size_t len)
{
	const struct dcm_device *d, *e;
	u32 i, j, n;

	for (i = 0; i < m->n_devices; i++) {
		d = &m->devices[i];
		n = 0;
		for (j = 0; j < m->n_devices; j++) {
			e = &m->devices[j];
			if (strcmp(d->bus, e->bus))
				continue;
			if (j < i && e->address == d->address) {
				snprintf(why, len,
					 "devices %s and %s have the same Address %u on bus %s",
					 e->name, d->name, d->address, d->bus);
				return -EINVAL;
			}
			if (e->type->flags & DCM_DEV_RS485)
				n++;
		}
		if ((d->type->flags & DCM_DEV_RS485) && n > DCM_BUS_RS485_MAX_BOARDS) {
			snprintf(why, len, "bus %s has %u RS485 boards, at most %u can have a Bid",
				 d->bus, n, DCM_BUS_RS485_MAX_BOARDS);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Whether the raw number of the value @v, (@v - Offset) / Gain, fits in s64:
 * an actuator whose Min or Max needs more can never be sent its range
 * (Gain -0.000000000000001 with Offset 10000).
 */
static bool raw_fits(const struct dcm_subdevice *s, s64 v)
{
	u64 g = s->gain < 0 ? 0ULL - (u64)s->gain : (u64)s->gain;
	u64 ud;
	s64 d;

	if (__builtin_sub_overflow(v, s->offset, &d))
		return false;
	ud = d < 0 ? 0ULL - (u64)d : (u64)d;
	return dcm_mul_div(ud, s->gain_den, g) < (u64)S64_MAX;
}

/**
 * dcm_model_check() - check a whole description before it is published
 * @m: the model
 * @why: where to write the reason of a failure
 * @len: size of @why
 *
 * Return: 0, or -EINVAL with @why naming the first fault found: no device,
 * two devices with one Address on one bus, more than
 * DCM_BUS_RS485_MAX_BOARDS boards on an RS485 bus, a subdevice without Min
 * or Max, or with Min above Max, an actuator whose Min or Max would need a
 * raw number beyond s64, a path that goes through a key.
 */
int dcm_model_check(const struct dcm_model *m, char *why, size_t len)
{
	int ret;
	u32 i;

	if (!m->n_devices) {
		snprintf(why, len, "the description has no device");
		return -EINVAL;
	}
	ret = check_buses(m, why, len);
	if (ret)
		return ret;
	for (i = 0; i < m->n_subdevices; i++) {
		const struct dcm_subdevice *s = &m->subdevices[i];

		if (!(s->set & DCM_SET_MIN) || !(s->set & DCM_SET_MAX)) {
			snprintf(why, len, "subdevice %s has no %s", s->name,
				 s->set & DCM_SET_MIN ? "Max" : "Min");
			return -EINVAL;
		}
		if (s->min > s->max) {
			snprintf(why, len, "subdevice %s has Min above Max", s->name);
			return -EINVAL;
		}
		if ((s->type->flags & DCM_SUB_ACTUATOR) &&
		    (!raw_fits(s, s->min) || !raw_fits(s, s->max))) {
			snprintf(why, len, "subdevice %s: Min or Max needs a raw number beyond s64",
				 s->name);
			return -EINVAL;
		}
	}
	return check_paths(m, why, len);
}
