// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - robot bodies assembled by hand in configfs.
 *
 * For boards on buses that no firmware describes, and for tests:
 *
 *   /sys/kernel/config/dcm/BODY/            mkdir: a body (not live yet)
 *       live          1: register it (it gets dcmN), 0: unregister it
 *       controller    dcmN while live, empty otherwise (read-only)
 *       dev_name      the body's device, dcm-configfs.ID (read-only)
 *       BUS/          mkdir: a bus, named as the robot description names
 *                     it (RS485-1, I2C-chest, ...); "RS485..." needs an
 *                     RS485 line, "I2C..." and "SPI..." an I2C or SPI
 *                     controller (dcm_bus_name_kind())
 *           transport the name of the device of the transport that
 *                     carries it (serial0-0, i2c-3, spi1, ...)
 *
 * A live body has a platform device "dcm-configfs.ID" that no driver
 * binds: its controller's parent, on which dcm_body_register() says what
 * is wrong. While the body is live its buses are pinned (rmdir: EBUSY),
 * no bus can be added and no transport changed (EBUSY); so the body
 * cannot be removed either (rmdir: ENOTEMPTY) before live is 0 again.
 * Every name, of a body, a bus or a transport, is printable ASCII without
 * blank (EINVAL otherwise): the kernel log quotes them as they are.
 * (Documentation/dcm/configfs.rst)
 *
 * Locks: configfs serialises mkdir and rmdir; each body's lock covers its
 * buses, their transports and its live state. It is taken in the
 * attributes' and directories' callbacks only, and kept while the body is
 * registered or unregistered, which never comes back here.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/configfs.h>
#include <linux/err.h>
#include <linux/idr.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "body/dcm_body.h"
#include "core/dcm_controller.h"

#define DCM_CFS_DRIVER	"dcm-configfs"

static DEFINE_IDA(dcm_cfs_ida);

/**
 * struct dcm_cfs_body - a body in configfs
 * @group: its directory
 * @lock: covers what follows, and the buses' transports
 * @buses: its buses (struct dcm_cfs_bus), in the order they were made
 * @n_buses: how many
 * @id: the id of its device, dcm-configfs.@id
 * @pdev: its device while live, else NULL
 * @ctrl: its controller while live, else NULL
 */
struct dcm_cfs_body {
	struct config_group group;
	struct mutex lock;		/* @buses, @pdev, @ctrl, the transports */
	struct list_head buses;
	unsigned int n_buses;
	int id;
	struct platform_device *pdev;
	struct dcm_controller *ctrl;
};

/**
 * struct dcm_cfs_bus - a bus of a body in configfs
 * @group: its directory, named as the bus
 * @body: the body (which outlives it)
 * @node: in @body->buses
 * @transport: the name of its transport's device, or ""
 */
struct dcm_cfs_bus {
	struct config_group group;
	struct dcm_cfs_body *body;
	struct list_head node;
	char transport[DCM_NAME_LEN];
};

static struct configfs_subsystem dcm_cfs_subsys;

static struct dcm_cfs_body *to_body(struct config_item *item)
{
	return container_of(to_config_group(item), struct dcm_cfs_body, group);
}

static struct dcm_cfs_bus *to_bus(struct config_item *item)
{
	return container_of(to_config_group(item), struct dcm_cfs_bus, group);
}

/* The bus's transport */

static ssize_t dcm_cfs_bus_transport_show(struct config_item *item, char *page)
{
	struct dcm_cfs_bus *bus = to_bus(item);
	ssize_t ret;

	mutex_lock(&bus->body->lock);
	ret = sysfs_emit(page, "%s\n", bus->transport);
	mutex_unlock(&bus->body->lock);
	return ret;
}

static ssize_t dcm_cfs_bus_transport_store(struct config_item *item, const char *page,
					   size_t count)
{
	struct dcm_cfs_bus *bus = to_bus(item);
	char name[DCM_NAME_LEN];
	size_t len = count;
	ssize_t ret = count;

	while (len && (page[len - 1] == '\n' || page[len - 1] == ' '))
		len--;
	if (len >= sizeof(name))
		return -ENAMETOOLONG;
	memcpy(name, page, len);
	name[len] = '\0';
	/* Printable ASCII, no blank: it reaches the kernel log as it is. */
	if (len && (!dcm_bus_name_ok(name) || strchr(name, '/')))
		return -EINVAL;

	mutex_lock(&bus->body->lock);
	if (bus->body->ctrl)
		ret = -EBUSY;
	else
		strscpy(bus->transport, name, sizeof(bus->transport));
	mutex_unlock(&bus->body->lock);
	return ret;
}

CONFIGFS_ATTR(dcm_cfs_bus_, transport);

static struct configfs_attribute *dcm_cfs_bus_attrs[] = {
	&dcm_cfs_bus_attr_transport,
	NULL
};

static void dcm_cfs_bus_release(struct config_item *item)
{
	kfree(to_bus(item));
}

static struct configfs_item_operations dcm_cfs_bus_item_ops = {
	.release = dcm_cfs_bus_release,
};

static const struct config_item_type dcm_cfs_bus_type = {
	.ct_item_ops = &dcm_cfs_bus_item_ops,
	.ct_attrs = dcm_cfs_bus_attrs,
	.ct_owner = THIS_MODULE,
};

/* The body: live, controller, dev_name */

/* Unpin the first @n buses of a body; under its lock. */
static void unpin_buses(struct dcm_cfs_body *body, unsigned int n)
{
	struct dcm_cfs_bus *bus;

	list_for_each_entry(bus, &body->buses, node) {
		if (!n--)
			break;
		configfs_undepend_item(&bus->group.cg_item);
	}
}

/* Give the body its controller; under its lock. */
static int body_activate(struct dcm_cfs_body *body)
{
	struct dcm_bus_ref refs[DCM_BODY_MAX_BUSES] = { };
	const char *name = config_item_name(&body->group.cg_item);
	struct platform_device_info info = {
		.name = DCM_CFS_DRIVER,
		.id = body->id,
	};
	struct platform_device *pdev;
	struct dcm_controller *ctrl;
	struct dcm_cfs_bus *bus;
	unsigned int n = 0;
	int ret;

	if (!body->n_buses) {
		pr_err("configfs body %s has no bus\n", name);
		return -EINVAL;
	}
	list_for_each_entry(bus, &body->buses, node) {
		if (!bus->transport[0]) {
			pr_err("configfs body %s: bus %s has no transport\n", name,
			       config_item_name(&bus->group.cg_item));
			return -EINVAL;
		}
		refs[n].name = config_item_name(&bus->group.cg_item);
		refs[n].transport = bus->transport;
		n++;
	}

	/* Pinned while live: an rmdir of a bus gets EBUSY. */
	n = 0;
	list_for_each_entry(bus, &body->buses, node) {
		ret = configfs_depend_item_unlocked(&dcm_cfs_subsys, &bus->group.cg_item);
		if (ret)
			goto err_unpin;
		n++;
	}

	pdev = platform_device_register_full(&info);
	if (IS_ERR(pdev)) {
		ret = PTR_ERR(pdev);
		goto err_unpin;
	}
	ctrl = dcm_body_register(&pdev->dev, DCM_CFS_DRIVER, 0, refs, n);
	if (IS_ERR(ctrl)) {
		ret = PTR_ERR(ctrl);
		goto err_pdev;
	}
	dev_info(&pdev->dev, "%s: configfs body %s, %u buses\n", dev_name(&ctrl->dev), name, n);
	body->pdev = pdev;
	body->ctrl = ctrl;
	return 0;

err_pdev:
	platform_device_unregister(pdev);
err_unpin:
	unpin_buses(body, n);
	return ret;
}

/* Take the body's controller away; under its lock. */
static void body_deactivate(struct dcm_cfs_body *body)
{
	dcm_body_unregister(body->ctrl);
	platform_device_unregister(body->pdev);
	body->ctrl = NULL;
	body->pdev = NULL;
	unpin_buses(body, body->n_buses);
}

static ssize_t dcm_cfs_body_live_show(struct config_item *item, char *page)
{
	struct dcm_cfs_body *body = to_body(item);
	bool live;

	mutex_lock(&body->lock);
	live = body->ctrl;
	mutex_unlock(&body->lock);
	return sysfs_emit(page, "%d\n", live);
}

static ssize_t dcm_cfs_body_live_store(struct config_item *item, const char *page,
				       size_t count)
{
	struct dcm_cfs_body *body = to_body(item);
	bool live;
	int ret;

	ret = kstrtobool(page, &live);
	if (ret)
		return ret;

	mutex_lock(&body->lock);
	if (live && body->ctrl)
		ret = -EBUSY;
	else if (live)
		ret = body_activate(body);
	else if (body->ctrl)
		body_deactivate(body);
	mutex_unlock(&body->lock);
	return ret ? ret : count;
}

static ssize_t dcm_cfs_body_controller_show(struct config_item *item, char *page)
{
	struct dcm_cfs_body *body = to_body(item);
	ssize_t ret;

	mutex_lock(&body->lock);
	ret = sysfs_emit(page, "%s\n", body->ctrl ? dev_name(&body->ctrl->dev) : "");
	mutex_unlock(&body->lock);
	return ret;
}

static ssize_t dcm_cfs_body_dev_name_show(struct config_item *item, char *page)
{
	return sysfs_emit(page, DCM_CFS_DRIVER ".%d\n", to_body(item)->id);
}

CONFIGFS_ATTR(dcm_cfs_body_, live);
CONFIGFS_ATTR_RO(dcm_cfs_body_, controller);
CONFIGFS_ATTR_RO(dcm_cfs_body_, dev_name);

static struct configfs_attribute *dcm_cfs_body_attrs[] = {
	&dcm_cfs_body_attr_live,
	&dcm_cfs_body_attr_controller,
	&dcm_cfs_body_attr_dev_name,
	NULL
};

/* mkdir BODY/BUS */
static struct config_group *dcm_cfs_bus_make(struct config_group *group, const char *name)
{
	struct dcm_cfs_body *body = to_body(&group->cg_item);
	struct dcm_cfs_bus *bus;

	if (strlen(name) >= DCM_NAME_LEN)
		return ERR_PTR(-ENAMETOOLONG);
	if (!dcm_bus_name_ok(name))
		return ERR_PTR(-EINVAL);

	bus = kzalloc(sizeof(*bus), GFP_KERNEL);
	if (!bus)
		return ERR_PTR(-ENOMEM);

	mutex_lock(&body->lock);
	if (body->ctrl || body->n_buses >= DCM_BODY_MAX_BUSES) {
		int ret = body->ctrl ? -EBUSY : -ENOSPC;

		mutex_unlock(&body->lock);
		kfree(bus);
		return ERR_PTR(ret);
	}
	config_group_init_type_name(&bus->group, name, &dcm_cfs_bus_type);
	bus->body = body;
	list_add_tail(&bus->node, &body->buses);
	body->n_buses++;
	mutex_unlock(&body->lock);
	return &bus->group;
}

/*
 * rmdir BODY/BUS: a pinned bus (live body) never comes here. Off the list
 * now, not at release, which an open attribute file may delay.
 */
static void dcm_cfs_bus_drop(struct config_group *group, struct config_item *item)
{
	struct dcm_cfs_body *body = to_body(&group->cg_item);
	struct dcm_cfs_bus *bus = to_bus(item);

	mutex_lock(&body->lock);
	list_del(&bus->node);
	body->n_buses--;
	mutex_unlock(&body->lock);
	config_item_put(item);
}

static void dcm_cfs_body_release(struct config_item *item)
{
	struct dcm_cfs_body *body = to_body(item);

	mutex_destroy(&body->lock);
	ida_free(&dcm_cfs_ida, body->id);
	kfree(body);
}

static struct configfs_item_operations dcm_cfs_body_item_ops = {
	.release = dcm_cfs_body_release,
};

static struct configfs_group_operations dcm_cfs_body_group_ops = {
	.make_group = dcm_cfs_bus_make,
	.drop_item = dcm_cfs_bus_drop,
};

static const struct config_item_type dcm_cfs_body_type = {
	.ct_item_ops = &dcm_cfs_body_item_ops,
	.ct_group_ops = &dcm_cfs_body_group_ops,
	.ct_attrs = dcm_cfs_body_attrs,
	.ct_owner = THIS_MODULE,
};

/*
 * mkdir BODY: any name of printable ASCII without blank, which the kernel's
 * messages about the body quote as it is.
 */
static struct config_group *dcm_cfs_body_make(struct config_group *group, const char *name)
{
	struct dcm_cfs_body *body;
	const char *c;

	for (c = name; *c; c++)
		if (*c < 0x21 || *c > 0x7e)
			return ERR_PTR(-EINVAL);

	body = kzalloc(sizeof(*body), GFP_KERNEL);
	if (!body)
		return ERR_PTR(-ENOMEM);
	body->id = ida_alloc(&dcm_cfs_ida, GFP_KERNEL);
	if (body->id < 0) {
		int ret = body->id;

		kfree(body);
		return ERR_PTR(ret);
	}
	mutex_init(&body->lock);
	INIT_LIST_HEAD(&body->buses);
	config_group_init_type_name(&body->group, name, &dcm_cfs_body_type);
	return &body->group;
}

/*
 * rmdir BODY: its buses are gone, so it is not live (a live body's buses
 * are pinned); unregistered here all the same should that ever change.
 */
static void dcm_cfs_body_drop(struct config_group *group, struct config_item *item)
{
	struct dcm_cfs_body *body = to_body(item);

	mutex_lock(&body->lock);
	if (body->ctrl)
		body_deactivate(body);
	mutex_unlock(&body->lock);
	config_item_put(item);
}

static struct configfs_group_operations dcm_cfs_group_ops = {
	.make_group = dcm_cfs_body_make,
	.drop_item = dcm_cfs_body_drop,
};

static const struct config_item_type dcm_cfs_type = {
	.ct_group_ops = &dcm_cfs_group_ops,
	.ct_owner = THIS_MODULE,
};

static struct configfs_subsystem dcm_cfs_subsys = {
	.su_group = {
		.cg_item = {
			.ci_namebuf = "dcm",
			.ci_type = &dcm_cfs_type,
		},
	},
	.su_mutex = __MUTEX_INITIALIZER(dcm_cfs_subsys.su_mutex),
};

/**
 * dcm_body_configfs_init() - register the configfs subsystem "dcm"
 *
 * Context: process, at module load. Each directory made in it holds a
 * reference on the module: the module cannot be unloaded while a body
 * exists there.
 *
 * Return: 0 or a negative errno.
 */
int dcm_body_configfs_init(void)
{
	int ret;

	config_group_init(&dcm_cfs_subsys.su_group);
	ret = configfs_register_subsystem(&dcm_cfs_subsys);
	if (ret)
		pr_err("cannot register the configfs subsystem: %d\n", ret);
	return ret;
}

/**
 * dcm_body_configfs_exit() - unregister it
 *
 * Context: process, at module unload, when no body is left (each one's
 * directory holds the module).
 */
void dcm_body_configfs_exit(void)
{
	configfs_unregister_subsystem(&dcm_cfs_subsys);
	ida_destroy(&dcm_cfs_ida);
}
