// SPDX-License-Identifier: GPL-2.0
/*
 * dcm_sim - the I2C adapters of the simulated body and their boards.
 *
 * "dcm-sim I2C-chest" serves the chest board (0x20), the battery (0x0b,
 * SMBus words) and the ultrasound board (0x70); "dcm-sim I2C-head" the face
 * (0x40), ear (0x41), head touch (0x48) and head (0x4c) boards. Each
 * adapter gets a "dcm-i2c" platform device naming it, so the real I2C
 * transport of the dcm core carries the cycle's transfers
 * (Documentation/dcm/wire-protocol.rst, "Register maps").
 *
 * A register-map board behaves as the real ones: a write sets the register
 * pointer with its first byte and stores the rest from there, into the
 * registers the master may write; a read returns registers from the
 * pointer on. Before a read the board brings its sensor registers up to
 * date (captures, CPU temperature, touch pads).
 *
 * The chest board keeps a store of 32 pages of 32 bytes: EE_CMD loads page
 * EE_PAGE into the window (EE_WINDOW) or commits the window to it; a
 * commit keeps the store busy for a few milliseconds (STATUS bit 0), a
 * command that comes meanwhile, or names no page, fails (STATUS bit 1).
 */

#include <linux/err.h>
#include <linux/property.h>

#include "sim_body.h"

#define SIM_ADDR_CHEST		0x20
#define SIM_ADDR_BATTERY	0x0b
#define SIM_ADDR_US		0x70
#define SIM_ADDR_FACE		0x40
#define SIM_ADDR_EAR		0x41
#define SIM_ADDR_TOUCH		0x48
#define SIM_ADDR_HEAD		0x4c

/* The head board (wire-protocol.rst, "Head board") */
#define SIM_WHOAMI_HEAD		0xce
#define SIM_HEAD_TEMP		0x02	/* R: s32, milli-degrees Celsius */

#define SIM_CHEST_PROG_VERSION	"1.4.0"
#define SIM_BAT_FIRMWARE	"V1.01"

static void regs_init(struct sim_regs *r, u8 addr, u8 whoami, u8 fw, u8 wr_first, u8 wr_last)
{
	memset(r, 0, sizeof(*r));
	r->addr = addr;
	r->reg[DCM_REG_WHOAMI] = whoami;
	r->reg[DCM_REG_FW_VERSION] = fw;
	r->wr_first = wr_first;
	r->wr_last = wr_last;
}

/**
 * sim_i2c_init() - the I2C boards at power-up
 * @sim: the body
 */
void sim_i2c_init(struct dcm_sim *sim)
{
	sim_battery_init(&sim->battery, 2250LL * 1000000);
	sim->battery_last = ktime_get();
	regs_init(&sim->chest, SIM_ADDR_CHEST, DCM_WHOAMI_CHEST, 1, DCM_CHEST_OUT_REG,
		  DCM_CHEST_OUT_REG + DCM_CHEST_OUT_LEN - 1);
	memcpy(&sim->chest.reg[DCM_CHEST_PROG_VERSION], SIM_CHEST_PROG_VERSION,
	       sizeof(SIM_CHEST_PROG_VERSION) - 1);
	/* A new board: its store is erased. */
	memset(sim->store.ee, 0xff, sizeof(sim->store.ee));
	regs_init(&sim->us_board, SIM_ADDR_US, DCM_WHOAMI_US, 2, 1, 0);
	sim_us_init(&sim->us);
	memset(sim->us_left, DCM_US_NO_ECHO, DCM_US_ECHOES);
	memset(sim->us_right, DCM_US_NO_ECHO, DCM_US_ECHOES);
	regs_init(&sim->face, SIM_ADDR_FACE, DCM_WHOAMI_FACE, 1, DCM_FACE_LEDS,
		  DCM_FACE_LEDS + DCM_FACE_OUT_LEN - 1);
	regs_init(&sim->ears, SIM_ADDR_EAR, DCM_WHOAMI_EAR, 1, DCM_EAR_LEDS,
		  DCM_EAR_LEDS + DCM_EAR_OUT_LEN - 1);
	regs_init(&sim->touch, SIM_ADDR_TOUCH, DCM_WHOAMI_TOUCH, 1, DCM_TOUCH_LEDS,
		  DCM_TOUCH_LEDS + DCM_TOUCH_OUT_LEN - 1);
	regs_init(&sim->head, SIM_ADDR_HEAD, SIM_WHOAMI_HEAD, 1, 1, 0);
	sim->cpu_load = 25;
	sim->cpu.temp_mc = sim_cpu_equilibrium_mc(sim->cpu_load);
	sim->cpu_last = ktime_get();
}

/* The battery's registers from the simulation, stepped to now. */
static void sim_battery_regs(struct dcm_sim *sim, struct dcm_battery *b)
{
	struct sim_battery *bat = &sim->battery;
	s32 load = sim_motor_load(sim) + 1000 + READ_ONCE(sim->load_ma);

	bat->charging = READ_ONCE(sim->charging);
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
	b->status = sim_battery_status(bat);
}

static int sim_battery_read(struct dcm_sim *sim, u8 *buf, u16 len)
{
	struct dcm_battery b;
	u16 word;

	if (sim->battery_reg == DCM_BAT_FIRMWARE)
		return dcm_smbus_block_put(buf, len, SIM_BAT_FIRMWARE) < 0 ? -EIO : 0;
	sim_battery_regs(sim, &b);
	if (len != 2 || dcm_bat_put_word(&b, sim->battery_reg, &word))
		return -EIO;
	dcm_put_le16(buf, word);
	return 0;
}

/* A board's sensor registers, brought up to date before a read. */
static void sim_refresh(struct dcm_sim *sim, struct sim_regs *r)
{
	u64 now = ktime_to_us(ktime_get());
	struct dcm_chest_in in;

	if (r == &sim->chest) {
		in.button = READ_ONCE(sim->button);
		in.status = (now < sim->store.busy_until ? DCM_CHEST_ST_EE_BUSY : 0) |
			    (sim->store.failed ? DCM_CHEST_ST_EE_ERROR : 0);
		dcm_chest_get_out(&r->reg[DCM_CHEST_OUT_REG], &in.out);
		dcm_chest_put_in(&r->reg[DCM_CHEST_IN_REG], &in);
	} else if (r == &sim->us_board) {
		sim_us_step(&sim->us, now, sim->us_left, sim->us_right);
		r->reg[DCM_US_MODE] = sim->us.mode;
		dcm_us_put(&r->reg[DCM_US_IN_REG], &sim->us.regs);
	} else if (r == &sim->touch) {
		r->reg[DCM_TOUCH_PADS] = READ_ONCE(sim->head_touch) & DCM_TOUCH_MASK;
	} else if (r == &sim->head) {
		sim_cpu_step(&sim->cpu, READ_ONCE(sim->cpu_load), sim_elapsed(&sim->cpu_last));
		dcm_put_le32(&r->reg[SIM_HEAD_TEMP], (u32)sim->cpu.temp_mc);
	}
}

static int sim_regs_read(struct dcm_sim *sim, struct sim_regs *r, u8 *buf, u16 len)
{
	if (r->ptr + len > SIM_REGS)
		return -EIO;
	sim_refresh(sim, r);
	memcpy(buf, &r->reg[r->ptr], len);
	r->ptr += len;
	return 0;
}

/* EE_CMD: load a page into the window, or commit the window to a page. */
static void sim_chest_command(struct dcm_sim *sim, u8 cmd, u64 now)
{
	struct sim_chest_store *st = &sim->store;
	u8 page = sim->chest.reg[DCM_CHEST_EE_PAGE], *window;
	size_t n = DCM_CHEST_EE_PAGE_LEN;

	window = &sim->chest.reg[DCM_CHEST_EE_WINDOW];
	if (now < st->busy_until || page >= DCM_CHEST_EE_PAGES ||
	    (cmd != DCM_CHEST_EE_LOAD && cmd != DCM_CHEST_EE_COMMIT)) {
		st->failed = true;
		return;
	}
	st->failed = false;
	if (cmd == DCM_CHEST_EE_LOAD) {
		memcpy(window, st->ee + page * DCM_CHEST_EE_PAGE_LEN, n);
		return;
	}
	/* A commit cut halfway (debugfs chest/store_cut): half a page, failed. */
	if (st->cut && !--st->cut) {
		n /= 2;
		st->failed = true;
	}
	memcpy(st->ee + page * DCM_CHEST_EE_PAGE_LEN, window, n);
	st->busy_until = now + SIM_CHEST_COMMIT_US;
	st->commits++;
}

/* The chest board's registers the master may write, or its command. */
static void sim_chest_write(struct dcm_sim *sim, u8 reg, u8 v, u64 now)
{
	if (reg == DCM_CHEST_EE_CMD)
		sim_chest_command(sim, v, now);
	else if ((reg >= DCM_CHEST_OUT_REG && reg <= DCM_CHEST_EE_PAGE) ||
		 (reg >= DCM_CHEST_EE_WINDOW &&
		  reg < DCM_CHEST_EE_WINDOW + DCM_CHEST_EE_PAGE_LEN))
		sim->chest.reg[reg] = v;
}

static int sim_regs_write(struct dcm_sim *sim, struct sim_regs *r, const u8 *buf, u16 len)
{
	u64 now = ktime_to_us(ktime_get());
	u16 i;

	if (buf[0] + len - 1 > SIM_REGS)
		return -EIO;
	r->ptr = buf[0];
	for (i = 1; i < len; i++, r->ptr++) {
		if (r == &sim->us_board && r->ptr == DCM_US_MODE)
			sim_us_write_mode(&sim->us, buf[i], now);
		else if (r == &sim->chest)
			sim_chest_write(sim, r->ptr, buf[i], now);
		else if (r->ptr >= r->wr_first && r->ptr <= r->wr_last)
			r->reg[r->ptr] = buf[i];
	}
	return 0;
}

static struct sim_regs *sim_board(struct dcm_sim *sim, struct sim_i2c *bus, u16 addr)
{
	struct sim_regs *boards[SIM_I2C_BUSES][4] = {
		[SIM_I2C_CHEST] = { &sim->chest, &sim->us_board },
		[SIM_I2C_HEAD] = { &sim->face, &sim->ears, &sim->touch, &sim->head },
	};
	size_t i, b = bus - sim->i2c;

	for (i = 0; i < ARRAY_SIZE(boards[b]) && boards[b][i]; i++)
		if (boards[b][i]->addr == addr)
			return boards[b][i];
	return NULL;
}

static int sim_i2c_msg(struct dcm_sim *sim, struct sim_i2c *bus, struct i2c_msg *msg)
{
	bool rd = msg->flags & I2C_M_RD;
	struct sim_regs *r;

	if (bus == &sim->i2c[SIM_I2C_CHEST] && msg->addr == SIM_ADDR_BATTERY) {
		if (rd)
			return sim_battery_read(sim, msg->buf, msg->len);
		if (msg->len)
			sim->battery_reg = msg->buf[0];
		return 0;
	}
	r = sim_board(sim, bus, msg->addr);
	if (!r)
		return -ENXIO;	/* nobody acknowledges the address */
	if (!msg->len)
		return 0;
	return rd ? sim_regs_read(sim, r, msg->buf, msg->len) :
		    sim_regs_write(sim, r, msg->buf, msg->len);
}

static int sim_i2c_master_xfer(struct i2c_adapter *adap, struct i2c_msg *msgs, int num)
{
	struct sim_i2c *bus = i2c_get_adapdata(adap);
	struct dcm_sim *sim = bus->sim;
	int i, ret = 0;

	mutex_lock(&sim->lock);
	for (i = 0; i < num && !ret; i++)
		ret = sim_i2c_msg(sim, bus, &msgs[i]);
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

/* The real I2C transport, on a simulated adapter. */
static int sim_add_transport(struct sim_i2c *bus, struct device *parent)
{
	const struct property_entry props[] = {
		PROPERTY_ENTRY_STRING("dcm,bus-name", bus->bus_name),
		PROPERTY_ENTRY_U32("dcm,i2c-adapter", bus->adap.nr),
		{ }
	};
	struct platform_device_info info = {
		.parent = parent, .name = "dcm-i2c", .id = PLATFORM_DEVID_AUTO,
		.properties = props,
	};

	bus->transport = platform_device_register_full(&info);
	if (IS_ERR(bus->transport)) {
		int ret = PTR_ERR(bus->transport);

		bus->transport = NULL;
		return ret;
	}
	return 0;
}

/**
 * sim_i2c_add() - the I2C adapters and their transports
 * @sim: the body
 * @parent: the simulated body's device
 *
 * Return: 0 or a negative errno; on error nothing is left registered.
 */
int sim_i2c_add(struct dcm_sim *sim, struct device *parent)
{
	static const char *const names[SIM_I2C_BUSES] = { "I2C-chest", "I2C-head" };
	int b, ret;

	for (b = 0; b < SIM_I2C_BUSES; b++) {
		struct sim_i2c *bus = &sim->i2c[b];

		bus->sim = sim;
		bus->bus_name = names[b];
		/*
		 * No owner: the I2C transport holds the adapter, and would pin
		 * this module; dcm_sim removes the transport before the adapter
		 * instead.
		 */
		bus->adap.owner = NULL;
		bus->adap.algo = &sim_i2c_algo;
		bus->adap.dev.parent = parent;
		snprintf(bus->adap.name, sizeof(bus->adap.name), "dcm-sim %s", names[b]);
		i2c_set_adapdata(&bus->adap, bus);
		ret = i2c_add_adapter(&bus->adap);
		if (ret)
			goto err;
		bus->added = true;
		ret = sim_add_transport(bus, parent);
		if (ret)
			goto err;
	}
	return 0;

err:
	sim_i2c_remove(sim);
	return ret;
}

/**
 * sim_i2c_remove() - remove the transports, then the adapters
 * @sim: the body
 */
void sim_i2c_remove(struct dcm_sim *sim)
{
	int b;

	for (b = SIM_I2C_BUSES - 1; b >= 0; b--) {
		struct sim_i2c *bus = &sim->i2c[b];

		if (bus->transport)
			platform_device_unregister(bus->transport);
		bus->transport = NULL;
		if (bus->added)
			i2c_del_adapter(&bus->adap);
		bus->added = false;
	}
}
