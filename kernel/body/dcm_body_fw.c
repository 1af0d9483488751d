// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the body driver: a robot body that firmware describes.
 *
 * A platform device whose firmware node (device tree, ACPI PRP0001 with a
 * _DSD, or a software node) is compatible with "aldebaran,nao-body", or a
 * platform device named "dcm-body" or "dcm-sim-body" (a simulated body,
 * dcm_sim's), with two properties:
 *
 * - "aldebaran,buses": references to the nodes of the transports that
 *   carry its buses: an RS485 line (the UART's "aldebaran,nao-rs485"
 *   child), an I2C or SPI controller with the robot's boards on it;
 * - "aldebaran,bus-names": one name each, in the same order, the Bus that
 *   the robot description gives the boards on it ("RS485-1", "I2C-chest").
 *
 * Probing waits (-EPROBE_DEFER) until every transport has bound, and says
 * once which one it waits for; then the body gets its controller, dcmN
 * (Documentation/devicetree/bindings/misc/aldebaran,nao-body.yaml,
 * Documentation/dcm/bring-up.rst).
 */

#include <linux/err.h>
#include <linux/mod_devicetable.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/property.h>
#include <linux/slab.h>

#include "body/dcm_body.h"
#include "core/dcm_controller.h"

#define BUSES_PROP	"aldebaran,buses"
#define NAMES_PROP	"aldebaran,bus-names"

/*
 * The bodies waiting for a transport, and for which bus: the wait is said
 * once, not at every retry of the driver core's.
 */
struct waiting {
	struct list_head node;
	const struct device *dev;
	unsigned int bus;
};

static DEFINE_MUTEX(waiting_lock);
static LIST_HEAD(waiting_list);

/*
 * Whether @dev's wait for bus @bus is new; with @bus < 0, forget @dev's
 * (every body's if @dev is NULL).
 */
static bool waiting_new(const struct device *dev, int bus)
{
	struct waiting *w, *tmp;
	bool found = false;

	mutex_lock(&waiting_lock);
	list_for_each_entry_safe(w, tmp, &waiting_list, node) {
		if (dev && w->dev != dev)
			continue;
		if (bus >= 0 && w->bus == bus) {
			found = true;
			continue;
		}
		list_del(&w->node);
		kfree(w);
	}
	if (bus >= 0 && !found) {
		w = kzalloc(sizeof(*w), GFP_KERNEL);
		if (w) {
			w->dev = dev;
			w->bus = bus;
			list_add(&w->node, &waiting_list);
		}
	}
	mutex_unlock(&waiting_lock);
	return bus >= 0 && !found;
}

struct dcm_body_fw {
	struct dcm_controller *ctrl;
};

/* Read the body's buses; one message and -EINVAL when they are wrong. */
static int read_buses(struct device *dev, const char **names, struct dcm_bus_ref *refs)
{
	struct fwnode_handle *fwnode = dev_fwnode(dev), *ref;
	int n, i, ret;

	n = device_property_string_array_count(dev, NAMES_PROP);
	if (n == -EINVAL || !n)
		return dev_err_probe(dev, -EINVAL, "%s is missing\n", NAMES_PROP);
	if (n < 0)
		return dev_err_probe(dev, -EINVAL, "%s is not a list of strings\n", NAMES_PROP);
	if (n > DCM_BODY_MAX_BUSES)
		return dev_err_probe(dev, -EINVAL, "%d buses: at most %d\n", n,
				     DCM_BODY_MAX_BUSES);
	ret = device_property_read_string_array(dev, NAMES_PROP, names, n);
	if (ret != n)
		return dev_err_probe(dev, -EINVAL, "%s cannot be read\n", NAMES_PROP);
	if (!device_property_present(dev, BUSES_PROP))
		return dev_err_probe(dev, -EINVAL, "%s is missing\n", BUSES_PROP);
	for (i = 0; i <= n; i++) {
		ref = fwnode_find_reference(fwnode, BUSES_PROP, i);
		if (i == n) {
			if (IS_ERR(ref))
				break;
			fwnode_handle_put(ref);
			ret = dev_err_probe(dev, -EINVAL, "%s: more references than %d names\n",
					    BUSES_PROP, n);
			goto err;
		}
		if (IS_ERR(ref)) {
			ret = dev_err_probe(dev, -EINVAL, "bus %s: %s[%d] does not resolve (%pe)\n",
					    names[i], BUSES_PROP, i, ref);
			goto err;
		}
		refs[i].name = names[i];
		refs[i].fwnode = ref;
	}
	return n;

err:
	while (i-- > 0 && i < n)
		fwnode_handle_put(refs[i].fwnode);
	return ret;
}

static int dcm_body_fw_probe(struct platform_device *pdev)
{
	const struct platform_device_id *id = platform_get_device_id(pdev);
	struct dcm_claim_why why;
	struct dcm_bus_ref refs[DCM_BODY_MAX_BUSES] = { };
	const char *names[DCM_BODY_MAX_BUSES];
	struct device *dev = &pdev->dev;
	const char *driver = "dcm-body";
	struct dcm_body_fw *body;
	u32 flags = 0;
	int n, i, ret = 0;

	if (id) {
		driver = id->name;
		flags = id->driver_data;
	}
	body = devm_kzalloc(dev, sizeof(*body), GFP_KERNEL);
	if (!body)
		return -ENOMEM;
	n = read_buses(dev, names, refs);
	if (n < 0)
		return n;

	body->ctrl = dcm_body_register(dev, driver, flags, refs, n);
	if (IS_ERR(body->ctrl)) {
		ret = PTR_ERR(body->ctrl);
		for (i = 0; ret == -EPROBE_DEFER && i < n; i++) {
			if (dcm_buses_check(&refs[i], 1, &why) != -EPROBE_DEFER)
				continue;
			if (waiting_new(dev, i))
				dev_info(dev, "bus %s waits for its transport %pfw\n",
					 names[i], refs[i].fwnode);
			break;
		}
	} else {
		waiting_new(dev, -1);
		platform_set_drvdata(pdev, body);
		dev_info(dev, "%s: %d buses\n", dev_name(&body->ctrl->dev), n);
	}
	for (i = 0; i < n; i++)
		fwnode_handle_put(refs[i].fwnode);
	return ret;
}

static int dcm_body_fw_remove(struct platform_device *pdev)
{
	struct dcm_body_fw *body = platform_get_drvdata(pdev);

	waiting_new(&pdev->dev, -1);
	dcm_body_unregister(body->ctrl);
	return 0;
}

/* Matched through ACPI PRP0001 too: not behind of_match_ptr(). */
static const struct of_device_id dcm_body_of_match[] = {
	{ .compatible = "aldebaran,nao-body" },
	{ }
};
MODULE_DEVICE_TABLE(of, dcm_body_of_match);

static const struct platform_device_id dcm_body_ids[] = {
	{ .name = "dcm-body" },
	{ .name = "dcm-sim-body", .driver_data = DCM_INFO_F_SIMULATED },
	{ }
};
MODULE_DEVICE_TABLE(platform, dcm_body_ids);

static struct platform_driver dcm_body_fw_driver = {
	.driver = {
		.name = "dcm-body",
		.of_match_table = dcm_body_of_match,
	},
	.probe = dcm_body_fw_probe,
	.remove = dcm_body_fw_remove,
	.id_table = dcm_body_ids,
};

/**
 * dcm_body_fw_init() - register the body driver
 *
 * Return: 0 or a negative errno.
 */
int dcm_body_fw_init(void)
{
	return platform_driver_register(&dcm_body_fw_driver);
}

/**
 * dcm_body_fw_exit() - unregister it
 */
void dcm_body_fw_exit(void)
{
	platform_driver_unregister(&dcm_body_fw_driver);
	waiting_new(NULL, -1);
}
