// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libdcm: the aliases a handle sees, one alias's members, and deleting one
 * (DCM_IOC_ALIAS_LIST, DCM_IOC_ALIAS_GET, DCM_IOC_ALIAS_DELETE, ABI 1.4).
 * Creating and setting them is in values.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "libdcm-private.h"

/* The ioctls of this file came with ABI 1.4. */
static int need_14(const struct dcm *dcm, const char *what)
{
	if (dcm->version.minor >= 4)
		return 0;
	return dcm_set_error(-EOPNOTSUPP, "%s: %s needs ABI 1.4, the module has %u.%u",
			     dcm->path, what, dcm->version.major, dcm->version.minor);
}

static int alias_name(const char *name, char out[DCM_ALIAS_NAME_LEN], const char *what)
{
	if (!name || !*name)
		return dcm_set_error(-EINVAL, "%s: empty alias name", what);
	if (strnlen(name, DCM_ALIAS_NAME_LEN) >= DCM_ALIAS_NAME_LEN)
		return dcm_set_error(-ENAMETOOLONG, "%s: %.40s...: name longer than %d bytes",
				     what, name, DCM_ALIAS_NAME_LEN - 1);
	memset(out, 0, DCM_ALIAS_NAME_LEN);
	memcpy(out, name, strlen(name));
	return 0;
}

static int ioc_err(const struct dcm *dcm, const char *what, const char *name)
{
	int err = -errno;

	if (err == -ENOENT && name)
		return dcm_set_error(err, "%s: no alias %s for this handle", dcm->path, name);
	return dcm_set_error(err, "%s: %s: %s", dcm->path, what, dcm_strerror(err));
}

DCM_EXPORT int dcm_alias_list(struct dcm *dcm, struct dcm_alias_entry **out)
{
	struct dcm_ioc_alias_list l;
	struct dcm_alias_info *info = NULL;
	struct dcm_alias_entry *e = NULL;
	uint32_t room = 0, i, n;
	int err;

	if (!dcm || !out)
		return dcm_set_error(-EINVAL, "dcm_alias_list: NULL argument");
	*out = NULL;
	err = need_14(dcm, "dcm_alias_list");
	if (err)
		return err;
	/* Ask the count, then fetch; again if aliases came meanwhile. */
	for (;;) {
		memset(&l, 0, sizeof(l));
		l.n = room;
		l.aliases = (uintptr_t)info;
		if (ioctl(dcm->fd, DCM_IOC_ALIAS_LIST, &l) < 0) {
			err = ioc_err(dcm, "DCM_IOC_ALIAS_LIST", NULL);
			free(info);
			return err;
		}
		if (l.n <= room)
			break;
		room = l.n;
		free(info);
		info = calloc(room, sizeof(*info));
		if (!info)
			return dcm_set_error(-ENOMEM, "out of memory");
	}
	n = l.n;
	if (n) {
		e = calloc(n, sizeof(*e));
		if (!e) {
			free(info);
			return dcm_set_error(-ENOMEM, "out of memory");
		}
	}
	for (i = 0; i < n; i++) {
		memcpy(e[i].name, info[i].name, sizeof(e[i].name));
		e[i].name[sizeof(e[i].name) - 1] = '\0';
		e[i].n_members = info[i].n_members;
		e[i].shared = info[i].flags & DCM_ALIAS_F_SHARED;
	}
	free(info);
	*out = e;
	return (int)n;
}

DCM_EXPORT int dcm_alias_show(struct dcm *dcm, const char *name, bool shared_only,
			      struct dcm_alias_desc *out)
{
	struct dcm_ioc_alias_get g;
	char (*members)[DCM_KEY_NAME_LEN] = NULL;
	uint32_t *handles = NULL, room = 0;
	int err;

	if (!dcm || !out)
		return dcm_set_error(-EINVAL, "dcm_alias_show: NULL argument");
	memset(out, 0, sizeof(*out));
	err = need_14(dcm, "dcm_alias_show");
	if (err)
		return err;
	for (;;) {
		memset(&g, 0, sizeof(g));
		err = alias_name(name, g.name, "dcm_alias_show");
		if (err)
			goto fail;
		g.flags = shared_only ? DCM_ALIAS_F_SHARED : 0;
		g.n_members = room;
		g.members = (uintptr_t)members;
		g.handles = (uintptr_t)handles;
		if (ioctl(dcm->fd, DCM_IOC_ALIAS_GET, &g) < 0) {
			err = ioc_err(dcm, "DCM_IOC_ALIAS_GET", name);
			goto fail;
		}
		if (g.n_members <= room)
			break;
		/* The alias was replaced by a bigger one meanwhile: again. */
		room = g.n_members;
		free(members);
		free(handles);
		members = calloc(room, sizeof(*members));
		handles = calloc(room, sizeof(*handles));
		if (!members || !handles) {
			err = dcm_set_error(-ENOMEM, "out of memory");
			goto fail;
		}
	}
	out->shared = g.flags & DCM_ALIAS_F_SHARED;
	out->n_members = g.n_members;
	out->members = (void *)members;
	out->handles = handles;
	for (room = 0; room < g.n_members; room++)
		out->members[room][LIBDCM_KEY_NAME_LEN - 1] = '\0';
	return 0;
fail:
	free(members);
	free(handles);
	return err;
}

DCM_EXPORT void dcm_alias_desc_free(struct dcm_alias_desc *d)
{
	if (!d)
		return;
	free(d->members);
	free(d->handles);
	memset(d, 0, sizeof(*d));
}

DCM_EXPORT int dcm_alias_delete(struct dcm *dcm, const char *name, bool shared_only)
{
	struct dcm_ioc_alias_delete d;
	int err;

	if (!dcm)
		return dcm_set_error(-EINVAL, "dcm_alias_delete: NULL argument");
	err = need_14(dcm, "dcm_alias_delete");
	if (err)
		return err;
	memset(&d, 0, sizeof(d));
	err = alias_name(name, d.name, "dcm_alias_delete");
	if (err)
		return err;
	d.flags = shared_only ? DCM_ALIAS_F_SHARED : 0;
	if (ioctl(dcm->fd, DCM_IOC_ALIAS_DELETE, &d) < 0)
		return ioc_err(dcm, "DCM_IOC_ALIAS_DELETE", name);
	return 0;
}
