// SPDX-License-Identifier: GPL-2.0
/*
 * dcm_sim - a simulated NAO body below the real dcm drivers.
 *
 * The module creates a platform device "dcm_sim" whose driver registers a
 * dcm controller flagged DCM_INFO_F_SIMULATED, so dcm0 exists with no
 * hardware, and puts simulated boards behind it:
 *
 * - four RS485 buses, RS485-1 to RS485-4, whose transport is a loopback:
 *   the command frame the dcm core builds reaches simulated motor boards
 *   that parse it with the same wire code, move their motors
 *   (sim_physics.c) and answer in Bid order;
 * - an I2C adapter, "dcm-sim I2C-chest", serving the chest board (0x20) and
 *   the battery (0x0b) register maps, reached through the real I2C
 *   transport (a "dcm-i2c" platform device naming the adapter).
 *
 * Faults and the world are set at run time in debugfs, dcm_sim/:
 * button, charging, load_ma; per RS485 bus, rs485-N/: silent (a bitmask of
 * Bids that do not answer), mre_fault (Bids whose MREs give no data), hot
 * (Bids whose motors are forced to 80 degC and above), crc_ppm (replies
 * corrupted, per million), delay_us (the bus is that much slower).
 */

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/i2c.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/property.h>
#include <linux/random.h>
#include <linux/dcm.h>

#include "sim_physics.h"
#include "../wire/dcm_regs.h"
#include "../wire/dcm_rs485.h"

#define DCM_SIM_NAME	"dcm_sim"
#define SIM_RS485_BUSES	4
#define SIM_TWO_PI_URAD	6283185LL

/* A simulated motor board: two motors and the error byte's round robin. */
struct sim_mb {
	struct sim_motor motor[DCM_MB_MOTORS];
};

struct sim_rs485 {
	struct dcm_bus bus;
	char name[16];
	struct sim_mb board[DCM_RS485_MAX_BOARDS];
	struct dcm_rs485_cmd_frame cmd;
	ktime_t last;
	u32 silent, mre_fault, hot, crc_ppm, delay_us;
};

struct dcm_sim {
	struct dcm_controller *ctrl;
	struct sim_rs485 rs485[SIM_RS485_BUSES];
	struct i2c_adapter adap;
	struct platform_device *i2c_transport;
	struct mutex lock;	/* the I2C boards' state */
	struct sim_battery battery;
	ktime_t battery_last;
	u8 chest_reg[0x40];
	u8 reg_ptr[0x80];	/* per address: the register pointer */
	bool button, charging;
	u32 load_ma;
	struct dentry *debugfs;
};

static struct platform_device *dcm_sim_pdev;

/* Microseconds since @last, at most 100 ms, and @last moved to now. */
static u32 sim_elapsed(ktime_t *last)
{
	ktime_t now = ktime_get();
	s64 us = ktime_us_delta(now, *last);

	*last = now;
	return clamp_t(s64, us, 0, 100000);
}

static s32 counts16_to_urad(u16 pos)
{
	return (s32)div_s64((s64)(s16)pos * SIM_TWO_PI_URAD, 65536);
}

static s16 urad_to_mre(s32 urad)
{
	return (s16)div_s64((s64)urad * 4096 + (urad < 0 ? -SIM_TWO_PI_URAD : SIM_TWO_PI_URAD) / 2,
			    SIM_TWO_PI_URAD);
}

/* The total current of every motor, for the battery. */
static s32 sim_motor_load(struct dcm_sim *sim)
{
	s32 ma = 0;
	int b, i, m;

	for (b = 0; b < SIM_RS485_BUSES; b++)
		for (i = 0; i < DCM_RS485_MAX_BOARDS; i++)
			for (m = 0; m < DCM_MB_MOTORS; m++)
				ma += READ_ONCE(sim->rs485[b].board[i].motor[m].current_ma);
	return ma;
}

/*
 * The RS485 loopback: the boards read the broadcast, move for the time since
 * the last one, and answer in Bid order.
 */
static int sim_rs485_xfer(struct dcm_bus *bus, u16 addr, const u8 *tx, size_t tx_len, u8 *rx,
			  size_t rx_len)
{
	struct sim_rs485 *r = container_of(bus, struct sim_rs485, bus);
	u32 dt = sim_elapsed(&r->last), i;
	size_t off = 0;
	int m, len;

	if (r->delay_us)
		usleep_range(r->delay_us, r->delay_us + 100);
	if (dcm_rs485_parse_cmd(tx, tx_len, &r->cmd) < 0)
		return -ETIMEDOUT;	/* a board ignores a bad frame */

	for (i = 0; i < r->cmd.n; i++) {
		struct sim_mb *mb = &r->board[i];
		struct dcm_rs485_reply reply = { .bid = i + 1, .seq = r->cmd.seq };
		struct dcm_mb_status st = { };
		struct dcm_mb_cmd c;

		dcm_mb_get_cmd(&r->cmd.slot[i], &c);
		for (m = 0; m < DCM_MB_MOTORS; m++) {
			struct sim_motor *mo = &mb->motor[m];

			if (!mo->i_max_ma)
				sim_motor_init(mo, 1200, 6000000, -3141592, 3141592);
			mo->calibrated = true;
			mo->mre_fault = r->mre_fault & BIT(i);
			sim_motor_command(mo, counts16_to_urad(c.position[m]),
					  (s32)c.hardness[m] * 1000);
			sim_motor_step(mo, dt);
			if ((r->hot & BIT(i)) && mo->temp_mc < 80000)
				mo->temp_mc = 80000;
			st.angle[m] = urad_to_mre(mo->pos_urad);
			st.current_ma[m] = mo->current_ma;
			st.temperature[m] = mo->temp_mc / 1000;
			st.temp_status[m] = sim_motor_temp_status(mo);
			/* The error byte: control cut for an MRE, or temperature. */
			if (mo->mre_fault)
				st.error = 0xe2;
			else if (st.temp_status[m])
				st.error = 0x20 | BIT(m);
		}
		if (r->silent & BIT(i))
			continue;
		dcm_mb_put_status(reply.data, &st);
		len = dcm_rs485_put_reply(rx + off, rx_len - off, &reply);
		if (len < 0)
			break;
		if (r->crc_ppm && get_random_u32_below(1000000) < r->crc_ppm)
			rx[off + len - 1] ^= 0x5a;
		off += len;
	}
	return off;
}

static const struct dcm_bus_ops sim_rs485_ops = {
	.xfer = sim_rs485_xfer,
};

/* The battery's registers from the simulation, stepped to now. */
static void sim_battery_regs(struct dcm_sim *sim, struct dcm_battery *b)
{
	struct sim_battery *bat = &sim->battery;
	s32 load = sim_motor_load(sim) + 1000 + sim->load_ma;
	u16 st = 0;

	bat->charging = sim->charging;
	sim_battery_step(bat, load, sim_elapsed(&sim->battery_last));
	memset(b, 0, sizeof(*b));
	b->kind = DCM_BAT_KIND_BMZ;
	b->current_ma = (s16)clamp_t(s32, bat->current_ma, S16_MIN, S16_MAX);
	b->charge = sim_battery_charge_ppm(bat) / 10000;
	b->temperature = (bat->temp_mc + 273150) / 100;
	b->voltage = 21600 + b->charge * 40;
	b->cell_min = 3600 + b->charge * 6;
	b->cell_max = b->cell_min + 20;
	b->full = div64_s64(bat->capacity_nah, 1000000);
	b->remaining = div64_s64(bat->charge_nah, 1000000);
	b->age = 100;
	st = sim_battery_status(bat);
	b->status = st;
}

static int sim_i2c_read(struct dcm_sim *sim, u16 addr, u8 *buf, u16 len)
{
	u8 reg = sim->reg_ptr[addr];
	struct dcm_battery b;
	struct dcm_chest_in in;
	u16 word;

	switch (addr) {
	case 0x20:
		in.button = sim->button;
		in.status = 0;
		dcm_chest_get_out(&sim->chest_reg[DCM_CHEST_OUT_REG], &in.out);
		dcm_chest_put_in(&sim->chest_reg[DCM_CHEST_IN_REG], &in);
		if (reg + len > sizeof(sim->chest_reg))
			return -EINVAL;
		memcpy(buf, &sim->chest_reg[reg], len);
		return 0;
	case 0x0b:
		sim_battery_regs(sim, &b);
		if (len != 2 || dcm_bat_put_word(&b, reg, &word))
			return -EIO;
		dcm_put_le16(buf, word);
		return 0;
	}
	return -ENXIO;
}

static int sim_i2c_write(struct dcm_sim *sim, u16 addr, const u8 *buf, u16 len)
{
	if (!len)
		return 0;
	switch (addr) {
	case 0x20:
		sim->reg_ptr[addr] = buf[0];
		if (buf[0] + len - 1 > sizeof(sim->chest_reg))
			return -EINVAL;
		/* LED registers only: the rest is the board's. */
		if (len > 1 && buf[0] >= DCM_CHEST_OUT_REG &&
		    buf[0] + len - 1 <= DCM_CHEST_OUT_REG + DCM_CHEST_OUT_LEN)
			memcpy(&sim->chest_reg[buf[0]], buf + 1, len - 1);
		return 0;
	case 0x0b:
		sim->reg_ptr[addr] = buf[0];
		return 0;
	}
	return -ENXIO;
}

static int sim_i2c_master_xfer(struct i2c_adapter *adap, struct i2c_msg *msgs, int num)
{
	struct dcm_sim *sim = i2c_get_adapdata(adap);
	int i, ret = 0;

	mutex_lock(&sim->lock);
	for (i = 0; i < num && !ret; i++) {
		if (msgs[i].addr >= ARRAY_SIZE(sim->reg_ptr))
			ret = -ENXIO;
		else if (msgs[i].flags & I2C_M_RD)
			ret = sim_i2c_read(sim, msgs[i].addr, msgs[i].buf, msgs[i].len);
		else
			ret = sim_i2c_write(sim, msgs[i].addr, msgs[i].buf, msgs[i].len);
	}
	mutex_unlock(&sim->lock);
	return ret ? ret : num;
}

static u32 sim_i2c_func(struct i2c_adapter *adap)
{
	return I2C_FUNC_I2C;
}

static const struct i2c_algorithm sim_i2c_algo = {
	.master_xfer = sim_i2c_master_xfer,
	.functionality = sim_i2c_func,
};

static void sim_debugfs(struct dcm_sim *sim)
{
	struct dentry *d;
	int b;

	sim->debugfs = debugfs_create_dir(DCM_SIM_NAME, NULL);
	debugfs_create_bool("button", 0644, sim->debugfs, &sim->button);
	debugfs_create_bool("charging", 0644, sim->debugfs, &sim->charging);
	debugfs_create_u32("load_ma", 0644, sim->debugfs, &sim->load_ma);
	for (b = 0; b < SIM_RS485_BUSES; b++) {
		char name[16];

		snprintf(name, sizeof(name), "rs485-%d", b + 1);
		d = debugfs_create_dir(name, sim->debugfs);
		debugfs_create_x32("silent", 0644, d, &sim->rs485[b].silent);
		debugfs_create_x32("mre_fault", 0644, d, &sim->rs485[b].mre_fault);
		debugfs_create_x32("hot", 0644, d, &sim->rs485[b].hot);
		debugfs_create_u32("crc_ppm", 0644, d, &sim->rs485[b].crc_ppm);
		debugfs_create_u32("delay_us", 0644, d, &sim->rs485[b].delay_us);
	}
}

static void sim_remove_buses(struct dcm_sim *sim, int n)
{
	while (n--)
		dcm_bus_unregister(&sim->rs485[n].bus);
}

/* The real I2C transport, on the simulated adapter. */
static int sim_add_i2c_transport(struct dcm_sim *sim, struct device *parent)
{
	const struct property_entry props[] = {
		PROPERTY_ENTRY_STRING("dcm,bus-name", "I2C-chest"),
		PROPERTY_ENTRY_U32("dcm,i2c-adapter", sim->adap.nr),
		{ }
	};
	struct platform_device_info info = {
		.parent = parent, .name = "dcm-i2c", .id = PLATFORM_DEVID_AUTO,
		.properties = props,
	};

	sim->i2c_transport = platform_device_register_full(&info);
	return PTR_ERR_OR_ZERO(sim->i2c_transport);
}

static int dcm_sim_probe(struct platform_device *pdev)
{
	struct dcm_sim *sim;
	int b, ret;

	sim = devm_kzalloc(&pdev->dev, sizeof(*sim), GFP_KERNEL);
	if (!sim)
		return -ENOMEM;
	mutex_init(&sim->lock);
	sim_battery_init(&sim->battery, 2250LL * 1000000);
	sim->battery_last = ktime_get();

	sim->ctrl = dcm_controller_register(&pdev->dev, DCM_SIM_NAME, DCM_INFO_F_SIMULATED);
	if (IS_ERR(sim->ctrl))
		return dev_err_probe(&pdev->dev, PTR_ERR(sim->ctrl),
				     "cannot register controller\n");

	for (b = 0; b < SIM_RS485_BUSES; b++) {
		struct sim_rs485 *r = &sim->rs485[b];

		snprintf(r->name, sizeof(r->name), "RS485-%d", b + 1);
		r->bus.name = r->name;
		r->bus.kind = DCM_BUS_RS485;
		r->bus.ops = &sim_rs485_ops;
		r->last = ktime_get();
		ret = dcm_bus_register(0, &r->bus);
		if (ret)
			goto err_buses;
	}

	/*
	 * No owner: the I2C transport holds the adapter, and would pin this
	 * module; dcm_sim removes the transport before the adapter instead.
	 */
	sim->adap.owner = NULL;
	sim->adap.algo = &sim_i2c_algo;
	sim->adap.dev.parent = &pdev->dev;
	strscpy(sim->adap.name, "dcm-sim I2C-chest", sizeof(sim->adap.name));
	i2c_set_adapdata(&sim->adap, sim);
	ret = i2c_add_adapter(&sim->adap);
	if (ret)
		goto err_buses;

	ret = sim_add_i2c_transport(sim, &pdev->dev);
	if (ret)
		goto err_adapter;

	sim_debugfs(sim);
	platform_set_drvdata(pdev, sim);
	return 0;

err_adapter:
	i2c_del_adapter(&sim->adap);
err_buses:
	sim_remove_buses(sim, b);
	dcm_controller_unregister(sim->ctrl);
	return ret;
}

static int dcm_sim_remove(struct platform_device *pdev)
{
	struct dcm_sim *sim = platform_get_drvdata(pdev);

	debugfs_remove_recursive(sim->debugfs);
	platform_device_unregister(sim->i2c_transport);
	i2c_del_adapter(&sim->adap);
	sim_remove_buses(sim, SIM_RS485_BUSES);
	dcm_controller_unregister(sim->ctrl);
	return 0;
}

static struct platform_driver dcm_sim_driver = {
	.driver = {
		.name = DCM_SIM_NAME,
	},
	.probe = dcm_sim_probe,
	.remove = dcm_sim_remove,
};

static int __init dcm_sim_init(void)
{
	int ret;

	ret = platform_driver_register(&dcm_sim_driver);
	if (ret)
		return ret;

	dcm_sim_pdev = platform_device_register_simple(DCM_SIM_NAME, PLATFORM_DEVID_NONE, NULL, 0);
	if (IS_ERR(dcm_sim_pdev)) {
		platform_driver_unregister(&dcm_sim_driver);
		return PTR_ERR(dcm_sim_pdev);
	}

	/* Probing is synchronous here: fail the load if it did not bind. */
	if (!platform_get_drvdata(dcm_sim_pdev)) {
		platform_device_unregister(dcm_sim_pdev);
		platform_driver_unregister(&dcm_sim_driver);
		return -ENODEV;
	}
	return 0;
}

static void __exit dcm_sim_exit(void)
{
	platform_device_unregister(dcm_sim_pdev);
	platform_driver_unregister(&dcm_sim_driver);
}

module_init(dcm_sim_init);
module_exit(dcm_sim_exit);

MODULE_DESCRIPTION("Simulated NAO body for the dcm driver");
MODULE_LICENSE("GPL");
