// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The MCAP writer: records made in memory (little-endian, strings and
 * byte arrays after their uint32 length, maps after their uint32 byte
 * length), written out as they are done. The messages go into a chunk in
 * memory; a full chunk is written whole, its CRC over its records, then
 * one Message Index per channel of it. Schemas and Channels go out of
 * any chunk, before the messages that name them, so that a reader of a
 * file cut short reads every chunk written whole. The data section's CRC
 * runs over every byte from the magic to the Data End; the summary's from
 * the Summary section to the Footer's summary_offset_start.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "mcap.h"

/*
 * The CRC-32 eight bytes at a time ("slicing by 8"): table[0] is the
 * bytewise table of the reflected polynomial 0x04c11db7, table[k] the CRC
 * of a byte followed by k zero bytes. Made at the first call; the tables
 * are the same whoever makes them.
 */
static uint32_t crc_table[8][256];

static void crc_tables(void)
{
	uint32_t c;
	unsigned int i, k;

	for (i = 0; i < 256; i++) {
		c = i;
		for (k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_table[0][i] = c;
	}
	for (i = 0; i < 256; i++)
		for (k = 1; k < 8; k++)
			crc_table[k][i] = (crc_table[k - 1][i] >> 8) ^
					  crc_table[0][crc_table[k - 1][i] & 0xff];
}

uint32_t mcap_crc32(uint32_t crc, const void *p, size_t len)
{
	static bool made;
	const unsigned char *b = p;
	uint32_t x, y;

	if (!made) {
		crc_tables();
		made = true;
	}
	crc = ~crc;
	for (; len >= 8; len -= 8, b += 8) {
		x = crc ^ ((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
			   (uint32_t)b[3] << 24);
		y = (uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 |
		    (uint32_t)b[7] << 24;
		crc = crc_table[7][x & 0xff] ^ crc_table[6][(x >> 8) & 0xff] ^
		      crc_table[5][(x >> 16) & 0xff] ^ crc_table[4][x >> 24] ^
		      crc_table[3][y & 0xff] ^ crc_table[2][(y >> 8) & 0xff] ^
		      crc_table[1][(y >> 16) & 0xff] ^ crc_table[0][y >> 24];
	}
	while (len--)
		crc = crc_table[0][(crc ^ *b++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

/* A growing byte buffer; a failed growth is kept in @err, the bytes dropped. */
struct mcap_buf {
	unsigned char *p;
	size_t len, cap;
	int err;
};

static void buf_put(struct mcap_buf *b, const void *p, size_t n)
{
	unsigned char *q;
	size_t cap;

	if (b->err)
		return;
	if (b->len + n > b->cap) {
		cap = b->cap ? b->cap : 256;
		while (cap < b->len + n)
			cap *= 2;
		q = realloc(b->p, cap);
		if (!q) {
			b->err = -ENOMEM;
			return;
		}
		b->p = q;
		b->cap = cap;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

/* An unsigned integer of @size bytes, little-endian. */
static void buf_le(struct mcap_buf *b, uint64_t v, unsigned int size)
{
	unsigned char le[8];
	unsigned int i;

	for (i = 0; i < size; i++)
		le[i] = (unsigned char)(v >> (8 * i));
	buf_put(b, le, size);
}

#define buf_u8(b, v)	buf_le((b), (v), 1)
#define buf_u16(b, v)	buf_le((b), (v), 2)
#define buf_u32(b, v)	buf_le((b), (v), 4)
#define buf_u64(b, v)	buf_le((b), (v), 8)

static void buf_str(struct mcap_buf *b, const char *s)
{
	size_t n = strlen(s);

	buf_u32(b, n);
	buf_put(b, s, n);
}

/* Record @op of content @c appended to @b: opcode, uint64 length, content. */
static void buf_record(struct mcap_buf *b, uint8_t op, const struct mcap_buf *c)
{
	buf_u8(b, op);
	buf_u64(b, c->len);
	buf_put(b, c->p, c->len);
	if (c->err && !b->err)
		b->err = c->err;
}

/* A message's place in the chunk open. */
struct mcap_idx {
	uint64_t time, offset;
};

struct mcap_chan {
	uint64_t count;			/* messages in the file */
	struct mcap_idx *idx;		/* in the chunk open */
	size_t n_idx, cap_idx;
};

struct mcap_writer {
	FILE *f;
	uint64_t pos;			/* bytes written */
	uint32_t crc;			/* the section's so far */
	int err;			/* the first error */
	size_t chunk_size;
	struct mcap_buf chunk;		/* the records of the chunk open */
	uint64_t chunk_start, chunk_end;	/* its messages' times */
	struct mcap_buf rec;		/* a record's content, being made */
	struct mcap_buf sum_schemas, sum_channels, sum_chunks, sum_meta;
	struct mcap_chan *chans;
	uint16_t n_chans, n_schemas;
	uint64_t messages, t_start, t_end;
	uint32_t chunks, metadata;
};

static void fail(struct mcap_writer *w, int err)
{
	if (!w->err)
		w->err = err;
}

/* @n bytes out, into the section's CRC. */
static void out(struct mcap_writer *w, const void *p, size_t n)
{
	if (w->err)
		return;
	if (n && fwrite(p, 1, n, w->f) != n) {
		fail(w, errno ? -errno : -EIO);
		return;
	}
	w->crc = mcap_crc32(w->crc, p, n);
	w->pos += n;
}

/* The record @op of w->rec written out (and appended to @sum, if given). */
static void out_record(struct mcap_writer *w, uint8_t op, struct mcap_buf *sum)
{
	struct mcap_buf r = { 0 };

	buf_record(&r, op, &w->rec);
	if (r.err)
		fail(w, r.err);
	else
		out(w, r.p, r.len);
	if (sum)
		buf_put(sum, r.p, r.len);
	if (sum && sum->err)
		fail(w, sum->err);
	free(r.p);
	w->rec.len = 0;
}

int mcap_open(struct mcap_writer **wp, FILE *f, const char *profile, const char *library,
	      size_t chunk_size)
{
	struct mcap_writer *w = calloc(1, sizeof(*w));

	*wp = NULL;
	if (!w)
		return -ENOMEM;
	w->f = f;
	w->chunk_size = chunk_size ? chunk_size : MCAP_CHUNK_SIZE;
	out(w, MCAP_MAGIC, MCAP_MAGIC_LEN);
	buf_str(&w->rec, profile);
	buf_str(&w->rec, library);
	out_record(w, MCAP_OP_HEADER, NULL);
	if (w->err) {
		int err = w->err;

		mcap_free(w);
		return err;
	}
	*wp = w;
	return 0;
}

int mcap_schema(struct mcap_writer *w, const char *name, const char *encoding,
		const void *data, size_t len, uint16_t *id)
{
	if (w->n_schemas == UINT16_MAX)
		return -ENOSPC;
	/* out of any chunk: the chunk open goes first */
	if (w->chunk.len && mcap_flush(w))
		return w->err;
	*id = ++w->n_schemas;
	buf_u16(&w->rec, *id);
	buf_str(&w->rec, name);
	buf_str(&w->rec, encoding);
	buf_u32(&w->rec, len);
	buf_put(&w->rec, data, len);
	out_record(w, MCAP_OP_SCHEMA, &w->sum_schemas);
	return w->err;
}

int mcap_channel(struct mcap_writer *w, uint16_t schema, const char *topic,
		 const char *message_encoding, uint16_t *id)
{
	struct mcap_chan *c;

	if (w->n_chans == UINT16_MAX)
		return -ENOSPC;
	if (w->chunk.len && mcap_flush(w))
		return w->err;
	c = realloc(w->chans, (w->n_chans + 1u) * sizeof(*c));
	if (!c)
		return -ENOMEM;
	w->chans = c;
	memset(&c[w->n_chans], 0, sizeof(*c));
	*id = w->n_chans++;
	buf_u16(&w->rec, *id);
	buf_u16(&w->rec, schema);
	buf_str(&w->rec, topic);
	buf_str(&w->rec, message_encoding);
	buf_u32(&w->rec, 0);	/* metadata: an empty map */
	out_record(w, MCAP_OP_CHANNEL, &w->sum_channels);
	return w->err;
}

int mcap_message(struct mcap_writer *w, uint16_t channel, uint64_t log_time,
		 uint64_t publish_time, const void *data, size_t len)
{
	struct mcap_chan *c;
	struct mcap_idx *idx;

	if (w->err)
		return w->err;
	if (channel >= w->n_chans)
		return -EINVAL;
	c = &w->chans[channel];
	if (c->n_idx == c->cap_idx) {
		idx = realloc(c->idx, (c->cap_idx ? c->cap_idx * 2 : 64) * sizeof(*idx));
		if (!idx)
			return -ENOMEM;
		c->idx = idx;
		c->cap_idx = c->cap_idx ? c->cap_idx * 2 : 64;
	}
	c->idx[c->n_idx].time = log_time;
	c->idx[c->n_idx++].offset = w->chunk.len;
	if (!w->chunk.len || log_time < w->chunk_start)
		w->chunk_start = log_time;
	if (!w->chunk.len || log_time > w->chunk_end)
		w->chunk_end = log_time;
	buf_u16(&w->rec, channel);
	buf_u32(&w->rec, (uint32_t)c->count);
	buf_u64(&w->rec, log_time);
	buf_u64(&w->rec, publish_time);
	buf_put(&w->rec, data, len);
	buf_record(&w->chunk, MCAP_OP_MESSAGE, &w->rec);
	w->rec.len = 0;
	if (w->chunk.err)
		fail(w, w->chunk.err);
	if (!w->messages || log_time < w->t_start)
		w->t_start = log_time;
	if (!w->messages || log_time > w->t_end)
		w->t_end = log_time;
	c->count++;
	w->messages++;
	if (w->chunk.len >= w->chunk_size)
		mcap_flush(w);
	return w->err;
}

int mcap_metadata(struct mcap_writer *w, const char *name, const char *const *kv, size_t n)
{
	struct mcap_buf map = { 0 };
	uint64_t at;
	size_t i;

	if (w->chunk.len && mcap_flush(w))
		return w->err;
	for (i = 0; i < 2 * n; i++)
		buf_str(&map, kv[i]);
	buf_str(&w->rec, name);
	buf_u32(&w->rec, map.len);
	buf_put(&w->rec, map.p, map.len);
	if (map.err)
		fail(w, map.err);
	free(map.p);
	at = w->pos;
	out_record(w, MCAP_OP_METADATA, NULL);
	/* its index: offset, length (opcode and length included), name */
	buf_u64(&w->rec, at);
	buf_u64(&w->rec, w->pos - at);
	buf_str(&w->rec, name);
	{
		struct mcap_buf r = { 0 };

		buf_record(&r, MCAP_OP_METADATA_INDEX, &w->rec);
		buf_put(&w->sum_meta, r.p, r.len);
		if (r.err || w->sum_meta.err)
			fail(w, -ENOMEM);
		free(r.p);
		w->rec.len = 0;
	}
	w->metadata++;
	return w->err;
}

/*
 * The Message Index of each channel of the chunk just written, from
 * @mi_start; each channel's offset into @offsets (a map of the Chunk
 * Index: uint16 channel, uint64 offset).
 */
static void out_message_indexes(struct mcap_writer *w, struct mcap_buf *offsets)
{
	struct mcap_chan *c;
	uint16_t id;
	size_t i;

	for (id = 0; id < w->n_chans; id++) {
		c = &w->chans[id];
		if (!c->n_idx)
			continue;
		buf_u16(offsets, id);
		buf_u64(offsets, w->pos);
		buf_u16(&w->rec, id);
		buf_u32(&w->rec, c->n_idx * 16);
		for (i = 0; i < c->n_idx; i++) {
			buf_u64(&w->rec, c->idx[i].time);
			buf_u64(&w->rec, c->idx[i].offset);
		}
		out_record(w, MCAP_OP_MESSAGE_INDEX, NULL);
		c->n_idx = 0;
	}
}

/* The chunk open, whole, then its Message Indexes; its Chunk Index into the summary. */
static void out_chunk(struct mcap_writer *w)
{
	struct mcap_buf offsets = { 0 };
	uint64_t start = w->pos, len, mi_start;

	buf_u64(&w->rec, w->chunk_start);
	buf_u64(&w->rec, w->chunk_end);
	buf_u64(&w->rec, w->chunk.len);		/* uncompressed_size */
	buf_u32(&w->rec, mcap_crc32(0, w->chunk.p, w->chunk.len));
	buf_str(&w->rec, "");			/* compression: none */
	buf_u64(&w->rec, w->chunk.len);
	buf_put(&w->rec, w->chunk.p, w->chunk.len);
	out_record(w, MCAP_OP_CHUNK, NULL);
	len = w->pos - start;
	mi_start = w->pos;
	out_message_indexes(w, &offsets);
	buf_u64(&w->rec, w->chunk_start);
	buf_u64(&w->rec, w->chunk_end);
	buf_u64(&w->rec, start);
	buf_u64(&w->rec, len);
	buf_u32(&w->rec, offsets.len);
	buf_put(&w->rec, offsets.p, offsets.len);
	buf_u64(&w->rec, w->pos - mi_start);	/* message_index_length */
	buf_str(&w->rec, "");
	buf_u64(&w->rec, w->chunk.len);		/* compressed_size: the same */
	buf_u64(&w->rec, w->chunk.len);
	if (offsets.err)
		fail(w, offsets.err);
	free(offsets.p);
	{
		struct mcap_buf r = { 0 };

		buf_record(&r, MCAP_OP_CHUNK_INDEX, &w->rec);
		buf_put(&w->sum_chunks, r.p, r.len);
		if (r.err || w->sum_chunks.err)
			fail(w, -ENOMEM);
		free(r.p);
		w->rec.len = 0;
	}
	w->chunk.len = 0;
	w->chunks++;
}

int mcap_flush(struct mcap_writer *w)
{
	if (w->chunk.len)
		out_chunk(w);
	if (!w->err && fflush(w->f))
		fail(w, -errno);
	return w->err;
}

uint64_t mcap_written(const struct mcap_writer *w)
{
	return w->pos + w->chunk.len;
}

uint64_t mcap_messages(const struct mcap_writer *w)
{
	return w->messages;
}

/* The Statistics record's content into w->rec. */
static void make_statistics(struct mcap_writer *w)
{
	uint16_t id;

	buf_u64(&w->rec, w->messages);
	buf_u16(&w->rec, w->n_schemas);
	buf_u32(&w->rec, w->n_chans);
	buf_u32(&w->rec, 0);			/* attachments */
	buf_u32(&w->rec, w->metadata);
	buf_u32(&w->rec, w->chunks);
	buf_u64(&w->rec, w->t_start);
	buf_u64(&w->rec, w->t_end);
	buf_u32(&w->rec, w->n_chans * 10u);	/* channel_message_counts */
	for (id = 0; id < w->n_chans; id++) {
		buf_u16(&w->rec, id);
		buf_u64(&w->rec, w->chans[id].count);
	}
}

/* A group of the summary out, its Summary Offset into @offsets. */
static void out_group(struct mcap_writer *w, uint8_t op, const struct mcap_buf *g,
		      struct mcap_buf *offsets)
{
	if (!g->len)
		return;
	buf_u8(offsets, op);
	buf_u64(offsets, w->pos);
	buf_u64(offsets, g->len);
	out(w, g->p, g->len);
}

int mcap_close(struct mcap_writer *w)
{
	struct mcap_buf offsets = { 0 }, stats = { 0 };
	uint64_t summary_start, offset_start;
	int err;

	if (w->chunk.len)
		out_chunk(w);
	buf_u32(&w->rec, w->crc);
	out_record(w, MCAP_OP_DATA_END, NULL);
	summary_start = w->pos;
	w->crc = 0;
	make_statistics(w);
	buf_record(&stats, MCAP_OP_STATISTICS, &w->rec);
	w->rec.len = 0;
	out_group(w, MCAP_OP_SCHEMA, &w->sum_schemas, &offsets);
	out_group(w, MCAP_OP_CHANNEL, &w->sum_channels, &offsets);
	out_group(w, MCAP_OP_STATISTICS, &stats, &offsets);
	out_group(w, MCAP_OP_CHUNK_INDEX, &w->sum_chunks, &offsets);
	out_group(w, MCAP_OP_METADATA_INDEX, &w->sum_meta, &offsets);
	offset_start = w->pos;
	/* each Summary Offset: opcode, group start, group length (17 bytes) */
	for (size_t i = 0; i + 17 <= offsets.len; i += 17) {
		buf_put(&w->rec, offsets.p + i, 17);
		out_record(w, MCAP_OP_SUMMARY_OFFSET, NULL);
	}
	if (offsets.err || stats.err)
		fail(w, -ENOMEM);
	free(offsets.p);
	free(stats.p);
	/* the Footer: its CRC runs to summary_offset_start, included */
	{
		struct mcap_buf r = { 0 };

		buf_u8(&r, MCAP_OP_FOOTER);
		buf_u64(&r, 20);
		buf_u64(&r, summary_start);
		buf_u64(&r, offset_start);
		buf_u32(&r, mcap_crc32(w->crc, r.p, r.len));
		out(w, r.p, r.len);
		free(r.p);
	}
	out(w, MCAP_MAGIC, MCAP_MAGIC_LEN);
	if (!w->err && fflush(w->f))
		fail(w, -errno);
	err = w->err;
	mcap_free(w);
	return err;
}

void mcap_free(struct mcap_writer *w)
{
	uint16_t id;

	if (!w)
		return;
	for (id = 0; id < w->n_chans; id++)
		free(w->chans[id].idx);
	free(w->chans);
	free(w->chunk.p);
	free(w->rec.p);
	free(w->sum_schemas.p);
	free(w->sum_channels.p);
	free(w->sum_chunks.p);
	free(w->sum_meta.p);
	free(w);
}
