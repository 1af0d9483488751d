/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An MCAP writer (mcap.c), after the format's public specification
 * (https://mcap.dev/spec, major version 0): the magic, a Header, the
 * Schema and Channel records, the Messages in uncompressed Chunks each
 * with its CRC and followed by its Message Index records, Metadata, the
 * Data End with the data section's CRC, then the Summary section (Schemas,
 * Channels, Statistics, Chunk Indexes, Metadata Indexes), its Summary
 * Offsets and the Footer with the summary's CRC, so that a reader seeks.
 * What dcmctl record and dcm-flight write their MCAP files with
 * (Documentation/userspace.rst, "MCAP").
 */
#ifndef REC_MCAP_H
#define REC_MCAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The opcodes of the records (the specification's). */
enum {
	MCAP_OP_HEADER = 0x01,
	MCAP_OP_FOOTER = 0x02,
	MCAP_OP_SCHEMA = 0x03,
	MCAP_OP_CHANNEL = 0x04,
	MCAP_OP_MESSAGE = 0x05,
	MCAP_OP_CHUNK = 0x06,
	MCAP_OP_MESSAGE_INDEX = 0x07,
	MCAP_OP_CHUNK_INDEX = 0x08,
	MCAP_OP_STATISTICS = 0x0b,
	MCAP_OP_METADATA = 0x0c,
	MCAP_OP_METADATA_INDEX = 0x0d,
	MCAP_OP_SUMMARY_OFFSET = 0x0e,
	MCAP_OP_DATA_END = 0x0f,
};

#define MCAP_MAGIC	"\x89MCAP0\r\n"
#define MCAP_MAGIC_LEN	8

/* A chunk is closed once its records pass this many bytes, by default. */
#define MCAP_CHUNK_SIZE	(256 * 1024)

/* The CRC-32 of ISO-HDLC (zlib's, the specification's) of @len bytes, after @crc (0 first). */
uint32_t mcap_crc32(uint32_t crc, const void *p, size_t len);

struct mcap_writer;

/*
 * A writer into @f (a stream opened for writing, at its start; it stays
 * the caller's): the magic and the Header (@profile, @library) written.
 * A chunk is closed past @chunk_size bytes (0: MCAP_CHUNK_SIZE). Return 0
 * or -errno (*@w NULL then).
 */
int mcap_open(struct mcap_writer **w, FILE *f, const char *profile, const char *library,
	      size_t chunk_size);
/* A Schema: its id (from 1) in *@id. 0 or -errno. */
int mcap_schema(struct mcap_writer *w, const char *name, const char *encoding,
		const void *data, size_t len, uint16_t *id);
/* A Channel of schema @schema (0: none): its id (from 0) in *@id. 0 or -errno. */
int mcap_channel(struct mcap_writer *w, uint16_t schema, const char *topic,
		 const char *message_encoding, uint16_t *id);
/* A Message of @channel logged at @log_time (ns); its sequence is the channel's count. */
int mcap_message(struct mcap_writer *w, uint16_t channel, uint64_t log_time,
		 uint64_t publish_time, const void *data, size_t len);
/* A Metadata record @name of @n pairs @kv (key, value, key, value...). 0 or -errno. */
int mcap_metadata(struct mcap_writer *w, const char *name, const char *const *kv, size_t n);
/*
 * The chunk open closed now, its Message Indexes after it, and the stream
 * flushed: a reader of the file as it is then reads every message given.
 */
int mcap_flush(struct mcap_writer *w);
/* Bytes written so far (the file's size once flushed). */
uint64_t mcap_written(const struct mcap_writer *w);
/* Messages given so far. */
uint64_t mcap_messages(const struct mcap_writer *w);
/*
 * The end: the last chunk, the Data End, the Summary, its offsets, the
 * Footer and the magic; the stream flushed (not closed); @w freed. Return
 * 0 or the first error of the writer's life (-errno).
 */
int mcap_close(struct mcap_writer *w);
/* Free @w without ending the file (after an error). */
void mcap_free(struct mcap_writer *w);

#endif /* REC_MCAP_H */
