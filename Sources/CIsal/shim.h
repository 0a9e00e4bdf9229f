#ifndef SLEEPSTA_CISAL_SHIM_H
#define SLEEPSTA_CISAL_SHIM_H
// Intel ISA-L's igzip inflate (Debian libisal-dev): gzip at about 1.1 GB/s of output here, against
// zlib's 0.5 GB/s (README, Performance). The inflate state holds large tables: it lives on the heap,
// behind these helpers, so Swift never copies it.
#include <stdint.h>
#include <stdlib.h>
#include <isa-l/igzip_lib.h>

typedef struct inflate_state sleepsta_isal_state;

/// A state ready for the first member of a gzip stream (header parsed, CRC-32 checked), or NULL.
static inline sleepsta_isal_state *sleepsta_isal_new(void) {
    sleepsta_isal_state *s = (sleepsta_isal_state *)malloc(sizeof(sleepsta_isal_state));
    if (!s) return NULL;
    isal_inflate_init(s);
    s->crc_flag = ISAL_GZIP;
    return s;
}

static inline void sleepsta_isal_free(sleepsta_isal_state *s) { free(s); }

/// Starts the next member of a multi-member stream, keeping the input not yet consumed.
static inline void sleepsta_isal_next_member(sleepsta_isal_state *s) {
    uint8_t *in = s->next_in;
    uint32_t avail = s->avail_in;
    isal_inflate_reset(s);
    s->crc_flag = ISAL_GZIP;
    s->next_in = in;
    s->avail_in = avail;
}

/// Inflates from `in` (`in_len` bytes) into `out` (`out_cap` bytes). Sets how many input bytes were
/// consumed and output bytes produced. Returns 1 when the member ended (trailer checked), 0 when
/// more input or output room is needed, and ISA-L's negative status on corrupt data.
static inline int sleepsta_isal_inflate(sleepsta_isal_state *s, const uint8_t *in, uint32_t in_len, uint32_t *in_used,
                                        uint8_t *out, uint32_t out_cap, uint32_t *out_used) {
    s->next_in = (uint8_t *)in;
    s->avail_in = in_len;
    s->next_out = out;
    s->avail_out = out_cap;
    int status = isal_inflate(s);
    *in_used = in_len - s->avail_in;
    *out_used = out_cap - s->avail_out;
    if (status < 0) return status;
    return s->block_state == ISAL_BLOCK_FINISH ? 1 : 0;
}
#endif
