// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile callers of /dev/dcm0, the netlink family and the key files: what
 * once hung the controller, mixed up error messages, or got through.
 *
 * - An ioctl whose user copy faults, and stays faulting (a userfaultfd page:
 *   the copy waits until the test resolves it), holds no lock a description
 *   reload needs: the reload completes meanwhile. The ioctls copied under
 *   ctrl->lock; with mmap() waiting on it too, a fault, an mmap() and a
 *   reload deadlocked.
 * - The three-way race itself for a few seconds: DCM_IOC_GET into a
 *   PROT_NONE page, mmap()/munmap() of the device, and reloads, in one
 *   process. Before the fix this hung in D state (the VM's hung-task
 *   detection and its timeout fail the run).
 * - Every reload here commits a description that differs from the running
 *   one (another BodyId): a commit equal to the running description swaps
 *   nothing and takes no lock for writing, which would test nothing. Each
 *   test checks description_swaps grew by as many reloads as it made.
 * - Two threads on one netlink socket, each failing configuration steps:
 *   each ack carries its own request's message, whole.
 * - A key file write with a NUL inside is refused.
 * - A description with two devices at one Address of a bus, or 17 boards
 *   on an RS485 bus, is refused at the commit.
 * - A chest store whose BodyId holds control characters: refused, the
 *   description's BodyId kept, said in the log.
 */
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <time.h>
#include <linux/userfaultfd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "dcm_nl.h"
#include "dcm_test.h"
#include "kselftest_harness.h"

#define SUB DCM_SYSFS "/SubDeviceList/"
#define DEV DCM_SYSFS "/DeviceList/"
#define SIM "/sys/kernel/debug/dcm_sim/body0"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Load the small description again: a swap that takes ctrl->lock for writing. */
static int reload(const char *body_id)
{
	struct conn c;
	int ret;

	if (conn_open(&c))
		return -1;
	ret = stage_small(&c, body_id) || commit(&c);
	conn_close(&c);
	return ret ? -1 : 0;
}

FIXTURE(dev) {
	int fd;
	uint32_t h[2];
};

FIXTURE_SETUP(dev)
{
	ASSERT_EQ(0, reload("AL-HOSTILE"));
	self->fd = open(DCM_DEV, O_RDWR);
	ASSERT_LE(0, self->fd);
	self->h[0] = dcm_lookup_handle(self->fd, "HeadPitch/Position/Sensor");
	self->h[1] = dcm_lookup_handle(self->fd, "HeadPitch/Position/Actuator");
	ASSERT_NE(0, self->h[0]);
	ASSERT_NE(0, self->h[1]);
}

FIXTURE_TEARDOWN(dev)
{
	close(self->fd);
}

/* A page whose first touch waits until the test resolves it. */
struct uffd_page {
	int uffd;
	char *page;
	size_t size;
};

static int uffd_page_open(struct uffd_page *u)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };

	u->size = sysconf(_SC_PAGESIZE);
	u->uffd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (u->uffd < 0)
		return -1;
	if (ioctl(u->uffd, UFFDIO_API, &api))
		return -1;
	u->page = mmap(NULL, u->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (u->page == MAP_FAILED)
		return -1;
	reg.range.start = (unsigned long)u->page;
	reg.range.len = u->size;
	return ioctl(u->uffd, UFFDIO_REGISTER, &reg);
}

/* Wait (up to 5 s) until something touched the page; 0 if it did. */
static int uffd_page_wait(struct uffd_page *u)
{
	struct pollfd p = { .fd = u->uffd, .events = POLLIN };

	return poll(&p, 1, 5000) == 1 ? 0 : -1;
}

/* Let the touch go on: the page appears, zeroed. */
static void uffd_page_resolve(struct uffd_page *u)
{
	struct uffdio_zeropage z = { .range = { (unsigned long)u->page, u->size } };
	struct uffd_msg msg;

	while (read(u->uffd, &msg, sizeof(msg)) > 0)
		;
	ioctl(u->uffd, UFFDIO_ZEROPAGE, &z);
}

static void uffd_page_close(struct uffd_page *u)
{
	munmap(u->page, u->size);
	close(u->uffd);
}

struct blocked_call {
	int fd;
	unsigned long cmd;
	void *arg;
	atomic_int done;
	int ret, err;
};

static void *blocked_call_run(void *p)
{
	struct blocked_call *b = p;

	b->ret = ioctl(b->fd, b->cmd, b->arg);
	b->err = errno;
	atomic_store(&b->done, 1);
	return NULL;
}

static void *reload_run(void *p)
{
	atomic_int *done = p;

	atomic_store(done, reload("AL-HOSTILE2") ? 2 : 1);
	return NULL;
}

/*
 * An ioctl stuck in a user copy (@u's page) does not hold up a reload; then
 * it completes with @want_ret. The reload runs in a thread: if it waits for
 * the ioctl, the test says so and then lets the copy go, so that both end.
 */
static void stuck_copy_lets_reload(struct __test_metadata *_metadata, int fd, unsigned long cmd,
				   void *arg, struct uffd_page *u, int want_ret)
{
	struct blocked_call b = { .fd = fd, .cmd = cmd, .arg = arg };
	atomic_int reloaded = 0;
	pthread_t t, tr;
	double end;

	long swaps = dcm_swaps(DCM_SYSFS);

	ASSERT_LE(0, swaps);
	ASSERT_EQ(0, pthread_create(&t, NULL, blocked_call_run, &b));
	ASSERT_EQ(0, uffd_page_wait(u)) TH_LOG("the ioctl never touched the page");
	/* The copy now waits, for as long as the page is missing. */
	ASSERT_EQ(0, pthread_create(&tr, NULL, reload_run, &reloaded));
	end = now_s() + 5.0;
	while (!atomic_load(&reloaded) && now_s() < end)
		usleep(10000);
	EXPECT_EQ(1, atomic_load(&reloaded)) TH_LOG("a reload waited for an ioctl's user copy");
	EXPECT_EQ(0, atomic_load(&b.done));
	uffd_page_resolve(u);
	pthread_join(t, NULL);
	pthread_join(tr, NULL);
	/* AL-HOSTILE2 replaced the fixture's AL-HOSTILE: a real swap. */
	EXPECT_EQ(swaps + 1, dcm_swaps(DCM_SYSFS)) TH_LOG("the reload swapped nothing");
	EXPECT_EQ(want_ret, b.ret) TH_LOG("errno %d", b.err);
}

TEST_F(dev, get_copy_out_holds_no_lock)
{
	struct dcm_ioc_get g = { .n = 2 };
	uint32_t times[2];
	struct uffd_page u;

	if (uffd_page_open(&u))
		SKIP(return, "no userfaultfd");
	g.handles = (uintptr_t)self->h;
	g.values = (uintptr_t)u.page;
	g.times = (uintptr_t)times;
	/* Across the reload the handles name the old description: ESTALE, or a copy. */
	stuck_copy_lets_reload(_metadata, self->fd, DCM_IOC_GET, &g, &u, 0);
	uffd_page_close(&u);
}

TEST_F(dev, set_copy_in_holds_no_lock)
{
	struct dcm_ioc_set s = { .handle = self->h[1], .update = DCM_UPDATE_CLEAR_ALL,
				 .n_points = 1 };
	struct uffd_page u;

	if (uffd_page_open(&u))
		SKIP(return, "no userfaultfd");
	s.points = (uintptr_t)u.page;
	/* The points are read before the handle is: the handle went stale meanwhile. */
	stuck_copy_lets_reload(_metadata, self->fd, DCM_IOC_SET, &s, &u, -1);
	uffd_page_close(&u);
}

TEST_F(dev, argument_copy_holds_no_lock)
{
	struct uffd_page u;

	if (uffd_page_open(&u))
		SKIP(return, "no userfaultfd");
	/* The argument itself on the missing page: the copy in waits. */
	stuck_copy_lets_reload(_metadata, self->fd, DCM_IOC_INFO, u.page, &u, 0);
	uffd_page_close(&u);
}

struct race {
	int fd;
	uint32_t *handles;
	void *none;
	atomic_int stop;
	long gets, maps;
};

static void *race_get(void *p)
{
	struct race *r = p;
	struct dcm_ioc_get g = { .n = 2 };

	g.handles = (uintptr_t)r->handles;
	g.values = (uintptr_t)r->none;
	g.times = (uintptr_t)r->none;
	while (!atomic_load(&r->stop)) {
		ioctl(r->fd, DCM_IOC_GET, &g);
		r->gets++;
	}
	return NULL;
}

static void *race_mmap(void *p)
{
	struct race *r = p;
	long page = sysconf(_SC_PAGESIZE);
	void *m;

	while (!atomic_load(&r->stop)) {
		m = mmap(NULL, page, PROT_READ, MAP_SHARED, r->fd, 0);
		if (m != MAP_FAILED)
			munmap(m, page);
		r->maps++;
	}
	return NULL;
}

/*
 * The three-way race, DCM_HOSTILE_SECONDS (default 4): the reloads go on,
 * the GETs fault, the mmap() calls run, and all stop when told.
 */
TEST_F(dev, fault_mmap_reload_race)
{
	long page = sysconf(_SC_PAGESIZE);
	const char *env = getenv("DCM_HOSTILE_SECONDS");
	double end = now_s() + (env ? atof(env) : 4.0);
	struct race r = { .fd = self->fd, .handles = self->h };
	pthread_t tg, tm;
	int reloads = 0, fd;
	long swaps = dcm_swaps(DCM_SYSFS);

	ASSERT_LE(0, swaps);
	fd = open(DCM_DEV, O_RDONLY);
	ASSERT_LE(0, fd);
	r.fd = fd;
	r.none = mmap(NULL, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, r.none);
	ASSERT_EQ(0, pthread_create(&tg, NULL, race_get, &r));
	ASSERT_EQ(0, pthread_create(&tm, NULL, race_mmap, &r));
	while (now_s() < end) {
		if (reload(reloads % 2 ? "AL-RACE1" : "AL-RACE2"))
			break;
		reloads++;
	}
	atomic_store(&r.stop, 1);
	pthread_join(tg, NULL);
	pthread_join(tm, NULL);
	swaps = dcm_swaps(DCM_SYSFS) - swaps;
	TH_LOG("%d reloads (%ld real swaps), %ld faulting GETs, %ld mmap() calls", reloads,
	       swaps, r.gets, r.maps);
	EXPECT_LT(0, reloads);
	/* Two BodyIds in turn, the first not the fixture's: each a swap. */
	EXPECT_EQ(reloads, swaps);
	EXPECT_LT(0, r.gets);
	EXPECT_LT(0, r.maps);
	munmap(r.none, page);
	close(fd);
}

/* A NUL inside a key file write: refused, not cut at the NUL. */
TEST_F(dev, sysfs_embedded_nul)
{
	const char *zero = SUB "HeadPitch/Position/Sensor/jointZeroPosition";
	const char *value = SUB "HeadPitch/Position/Actuator/Value";
	const char *body = DEV "ChestBoard/BodyId";
	char buf[64];
	int fd;

	fd = open(zero, O_WRONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, write(fd, "1\0garbage", 9));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
	ASSERT_EQ(0, dcm_read_sysfs(zero, buf, sizeof(buf)));
	EXPECT_STREQ("2071", buf);

	fd = open(value, O_WRONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, write(fd, "0\0.5", 4));
	EXPECT_EQ(EINVAL, errno);
	close(fd);

	fd = open(body, O_WRONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, write(fd, "AL\0X", 4));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
	ASSERT_EQ(0, dcm_read_sysfs(body, buf, sizeof(buf)));
	EXPECT_STREQ("AL-HOSTILE", buf);
}

/* Generic netlink by hand: a message with its own sequence number. */
static int nl_send_step(int fd, int family, uint8_t cmd, uint32_t seq, const char *name)
{
	struct nl_msg *msg = nlmsg_alloc();
	struct nlmsghdr *nlh;
	int ret = -1;

	if (!msg)
		return -1;
	if (!genlmsg_put(msg, 0, seq, family, 0, NLM_F_REQUEST | NLM_F_ACK, cmd,
			 DCM_GENL_VERSION) ||
	    nla_put_u32(msg, DCM_A_CFG_INDEX, 0))
		goto out;
	if (name && (nla_put_string(msg, DCM_A_CFG_NAME, name) ||
		     nla_put_string(msg, DCM_A_CFG_TYPE, "Toaster") ||
		     nla_put_string(msg, DCM_A_CFG_BUS, "b") ||
		     nla_put_u32(msg, DCM_A_CFG_ADDRESS, 1)))
		goto out;
	nlh = nlmsg_hdr(msg);
	ret = send(fd, nlh, nlh->nlmsg_len, 0) == (ssize_t)nlh->nlmsg_len ? 0 : -1;
out:
	nlmsg_free(msg);
	return ret;
}

struct ack_race {
	int fd, family;
	atomic_int stop;
	char names[2][128];
	atomic_long acks, bad, sent, replies;
	int send_errno;
	char last_bad[256];
};

struct ack_sender {
	struct ack_race *r;
	int id;
};

/* Sequence numbers: the thread in bit 30, BEGIN or ADD_DEVICE in bit 0. */
static void *ack_send(void *p)
{
	struct ack_sender *s = p;
	uint32_t n = 0;

	while (!atomic_load(&s->r->stop)) {
		n += 2;
		n &= 0x3ffffffe;
		if (nl_send_step(s->r->fd, s->r->family, DCM_CMD_CONFIG_BEGIN,
				 (uint32_t)s->id << 30 | n, NULL) ||
		    nl_send_step(s->r->fd, s->r->family, DCM_CMD_CONFIG_ADD_DEVICE,
				 (uint32_t)s->id << 30 | n | 1, s->r->names[s->id])) {
			s->r->send_errno = errno;
			break;
		}
		atomic_fetch_add(&s->r->sent, 2);
		usleep(200);
	}
	return NULL;
}

/* Each ack read: its message must be its request's, or the step's literal. */
static void *ack_recv(void *p)
{
	struct ack_race *r = p;
	char buf[16384], want[200];
	struct nlmsghdr *nlh;
	ssize_t n;

	while (!atomic_load(&r->stop)) {
		n = recv(r->fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n <= 0) {
			usleep(100);
			continue;
		}
		atomic_fetch_add(&r->replies, 1);
		for (nlh = (struct nlmsghdr *)buf; NLMSG_OK(nlh, n); nlh = NLMSG_NEXT(nlh, n)) {
			struct nlmsgerr *e = NLMSG_DATA(nlh);
			struct nlattr *a;
			const char *msg = NULL;
			int len, rem, id = nlh->nlmsg_seq >> 30 & 1;

			if (nlh->nlmsg_type != NLMSG_ERROR || !(nlh->nlmsg_seq & 1) || !e->error)
				continue;
			atomic_fetch_add(&r->acks, 1);
			len = nlh->nlmsg_len - NLMSG_HDRLEN - sizeof(*e);
			a = (struct nlattr *)(e + 1);
			if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
				len -= NLMSG_ALIGN(e->msg.nlmsg_len - NLMSG_HDRLEN);
				a = (struct nlattr *)((char *)a +
						      NLMSG_ALIGN(e->msg.nlmsg_len - NLMSG_HDRLEN));
			}
			nla_for_each_attr(a, a, len, rem)
				if (nla_type(a) == NLMSGERR_ATTR_MSG)
					msg = nla_data(a);
			snprintf(want, sizeof(want), "device %s: unknown device type",
				 r->names[id]);
			if (!msg || (strcmp(msg, want) &&
				     strcmp(msg, "the transaction failed at a step: send BEGIN") &&
				     strcmp(msg, "no configuration transaction open: send BEGIN first"))) {
				atomic_fetch_add(&r->bad, 1);
				snprintf(r->last_bad, sizeof(r->last_bad), "%.200s",
					 msg ? msg : "(none)");
			}
		}
	}
	return NULL;
}

/* Two threads of one socket, failing steps: every ack has its own message. */
TEST(ext_ack_shared_socket)
{
	struct ack_race r = { };
	struct ack_sender s[2] = { { &r, 0 }, { &r, 1 } };
	pthread_t ts[2], tr;
	struct conn c;
	int one = 1, rcv = 1 << 20;

	ASSERT_EQ(0, conn_open(&c));
	r.fd = nl_socket_get_fd(c.sk);
	r.family = c.family;
	setsockopt(r.fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(r.fd, SOL_SOCKET, SO_RCVBUF, &rcv, sizeof(rcv));
	strcpy(r.names[0], "A");
	memset(r.names[1], 'B', 120);
	ASSERT_EQ(0, pthread_create(&tr, NULL, ack_recv, &r));
	ASSERT_EQ(0, pthread_create(&ts[0], NULL, ack_send, &s[0]));
	ASSERT_EQ(0, pthread_create(&ts[1], NULL, ack_send, &s[1]));
	sleep(3);
	atomic_store(&r.stop, 1);
	pthread_join(ts[0], NULL);
	pthread_join(ts[1], NULL);
	pthread_join(tr, NULL);
	TH_LOG("%ld requests sent (errno %d), %ld replies read, %ld failing steps acked",
	       atomic_load(&r.sent), r.send_errno, atomic_load(&r.replies), atomic_load(&r.acks));
	EXPECT_LT(0, atomic_load(&r.acks));
	EXPECT_EQ(0, atomic_load(&r.bad)) TH_LOG("an ack said: %s", r.last_bad);
	conn_close(&c);
}

/* The commit refuses a shared Address on a bus, and a 17th RS485 board. */
TEST(bus_addresses_refused)
{
	char name[32];
	struct conn c;
	int i;

	ASSERT_EQ(0, conn_open(&c));
	ASSERT_EQ(0, begin(&c));
	ASSERT_EQ(0, add_device(&c, "ChestBoard", "ChestBoard", "I2C-chest", 32));
	ASSERT_EQ(0, add_device(&c, "Battery", "Battery", "I2C-chest", 32));
	EXPECT_EQ(-NLE_INVAL, commit(&c));
	EXPECT_STREQ("devices ChestBoard and Battery have the same Address 32 on bus I2C-chest",
		     c.msg);

	ASSERT_EQ(0, begin(&c));
	for (i = 1; i <= 17; i++) {
		snprintf(name, sizeof(name), "Board%d", i);
		ASSERT_EQ(0, add_device(&c, name, "MotorBoard", "RS485-1", i));
	}
	EXPECT_EQ(-NLE_INVAL, commit(&c));
	EXPECT_STREQ("bus RS485-1 has 17 RS485 boards, at most 16 can have a Bid", c.msg);
	conn_close(&c);
	/* The running description stayed. */
	ASSERT_EQ(0, dcm_read_sysfs(DEV "ChestBoard/BodyId", name, sizeof(name)));
	EXPECT_STRNE("", name);
}

static uint16_t crc_itu_t(uint16_t crc, const uint8_t *p, size_t len)
{
	int bit;

	while (len--) {
		crc ^= (uint16_t)(*p++ << 8);
		for (bit = 0; bit < 8; bit++)
			crc = crc & 0x8000 ? (uint16_t)(crc << 1) ^ 0x1021 : (uint16_t)(crc << 1);
	}
	return crc;
}

/* Write the simulated chest store: a body record, the rest erased. */
static int write_store(const char *body_id, const char *nick)
{
	uint8_t image[1024];
	uint16_t crc;
	int fd, ok;

	memset(image, 0xff, sizeof(image));
	memset(image, 0, 256);
	memcpy(image, "DCMB", 4);
	image[4] = 1;
	memcpy(image + 0x10, body_id, strlen(body_id));
	memcpy(image + 0x30, nick, strlen(nick));
	crc = crc_itu_t(0xffff, image + 8, 256 - 8);
	image[6] = crc & 0xff;
	image[7] = crc >> 8;
	fd = open(SIM "/chest/store", O_WRONLY);
	if (fd < 0)
		return -1;
	ok = write(fd, image, sizeof(image)) == (ssize_t)sizeof(image);
	close(fd);
	return ok ? 0 : -1;
}

/* A store holding escape sequences and newlines in BodyId: refused. */
TEST(chest_store_control_characters)
{
	char buf[64];
	int erased;
	long swaps;

	if (access(SIM "/chest/store", W_OK))
		SKIP(return, "no simulated chest store");
	ASSERT_EQ(0, write_store("\x1b[31mEVIL\nX", "Nick"));
	dcm_sh("dmesg -C");
	swaps = dcm_swaps(DCM_SYSFS);
	EXPECT_EQ(0, reload("AL-DESC"));
	/* Another BodyId, and the store's nickname: whatever ran before, a swap. */
	EXPECT_EQ(swaps + 1, dcm_swaps(DCM_SYSFS));
	ASSERT_EQ(0, dcm_read_sysfs(DEV "ChestBoard/BodyId", buf, sizeof(buf)));
	EXPECT_STREQ("AL-DESC", buf);
	/* The valid one of the record still applies. */
	ASSERT_EQ(0, dcm_read_sysfs(DEV "ChestBoard/BodyNickName", buf, sizeof(buf)));
	EXPECT_STREQ("Nick", buf);
	EXPECT_EQ(0, dcm_sh("dmesg | grep -q 'chest store: BodyId holds a control character'"));
	EXPECT_NE(0, dcm_sh("dmesg | grep -q 'EVIL'"));

	/* Erased again, as the other tests expect it. */
	memset(buf, 0, sizeof(buf));
	erased = dcm_sh("dd if=/dev/zero bs=1024 count=1 2>/dev/null | tr '\\000' '\\377' >"
			SIM "/chest/store");
	EXPECT_EQ(0, erased);
	EXPECT_EQ(0, reload("AL-HOSTILE"));
}

DCM_HARNESS_MAIN
