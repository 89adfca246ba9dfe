"""cffi build script for ``crypto_api.algs._poly1305``: the portable
Poly1305 / NH / NHPoly1305 code -- algs/poly1305_core.c (26-bit-limb core and
``poly1305_generic_ops``), algs/poly1305_desc.c (v5.0 "poly1305" shash
descriptor), algs/nh_generic.c and algs/nhpoly1305.c (streaming NHPoly1305).

Its cdef is also where ``poly1305_core_ops``, ``nh_fn_t`` and the NHPoly1305
key/state types are declared for every other extension: those include this
builder (``ffi.include``), so a ``poly1305_core_ops *`` or ``nh_fn_t`` of one
extension is passed to another's functions as typed cdata.  Paths, flags and
``python algs/build_poly1305.py [outdir]`` come from algs/build_common.py.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from build_common import extension, header_cdef, main  # noqa: E402

CDEF = header_cdef("algs/include/poly1305_core.h") + """
/* Declared without const here so that ffi.addressof(lib, "poly1305_generic_ops")
   works (cffi turns a const global into a by-value constant); see SOURCE. */
extern poly1305_core_ops poly1305_generic_ops;
""" + header_cdef("algs/poly1305_desc.h") + """
/* nhpoly1305.h spells its sizes as expressions, which cdef does not parse: written here */
#define NH_PAIR_STRIDE 2
#define NH_MESSAGE_UNIT 16
#define NH_NUM_PASSES 4
#define NH_HASH_BYTES 32
#define NH_MESSAGE_BYTES 1024
#define NH_KEY_WORDS 268
#define NH_KEY_BYTES 1072
#define NHPOLY1305_KEY_SIZE 1088
#define NHPOLY1305_DIGEST_SIZE 16

typedef void (*nh_fn_t)(const uint32_t *key, const uint8_t *message,
                        size_t message_len, uint8_t hash[32]);

struct nhpoly1305_key {
    poly1305_core_key poly_key;
    uint32_t nh_key[268];
};

struct nhpoly1305_state {
    poly1305_core_state poly_state;
    uint8_t buffer[16];
    uint32_t buflen;
    uint32_t nh_remaining;
    uint64_t nh_hash[4];
};

void nh_generic(const uint32_t *key, const uint8_t *message, size_t message_len,
                uint8_t hash[32]);

void nhpoly1305_setkey(struct nhpoly1305_key *key, const uint8_t *raw,
                       const poly1305_core_ops *poly);
void nhpoly1305_init(struct nhpoly1305_state *state, const poly1305_core_ops *poly);
void nhpoly1305_update(struct nhpoly1305_state *state, const struct nhpoly1305_key *key,
                       const uint8_t *src, size_t len, nh_fn_t nh,
                       const poly1305_core_ops *poly);
void nhpoly1305_final(struct nhpoly1305_state *state, const struct nhpoly1305_key *key,
                      uint8_t digest[16], nh_fn_t nh, const poly1305_core_ops *poly);
void nhpoly1305_digest(const struct nhpoly1305_key *key, const uint8_t *src, size_t len,
                       uint8_t digest[16], nh_fn_t nh_bulk, nh_fn_t nh_small,
                       const poly1305_core_ops *poly);

void crypto_memzero(void *p, size_t n);

/* The digests with char pointers, so that cffi takes bytes as they are
 * (the tfm.digest fast paths) */
int poly1305_digest_bytes(const char *src, size_t len, char *digest,
                          const poly1305_core_ops *ops);
void nhpoly1305_digest_bytes(const struct nhpoly1305_key *key, const char *src, size_t len,
                             char *digest, nh_fn_t nh_bulk, const poly1305_core_ops *poly);

/* The same as the routines of the C entry point (crypto_api/digest_call.h):
 * poly1305's handle is the core ops table, nhpoly1305's a struct
 * nhpoly1305_call; nonzero: too short (the full path raises ENOKEY). */
struct nhpoly1305_call {
    const struct nhpoly1305_key *key;
    nh_fn_t nh_bulk;
    const poly1305_core_ops *poly;
};
int poly1305_digest_call(const void *handle, char *digest, const char *src, size_t len);
int nhpoly1305_digest_call(const void *handle, char *digest, const char *src, size_t len);
"""

SOURCE = """
#include "poly1305_core.h"
#include "poly1305_desc.h"
#include "nhpoly1305.h"
#include "memzero.h"

static int poly1305_digest_bytes(const char *src, size_t len, char *digest,
				 const poly1305_core_ops *ops)
{
	return poly1305_desc_digest((const uint8_t *)src, len, (uint8_t *)digest, ops);
}

static void nhpoly1305_digest_bytes(const struct nhpoly1305_key *key, const char *src, size_t len,
				    char *digest, nh_fn_t nh_bulk, const poly1305_core_ops *poly)
{
	nhpoly1305_digest(key, (const uint8_t *)src, len, (uint8_t *)digest, nh_bulk, nh_generic, poly);
}

static int poly1305_digest_call(const void *handle, char *digest, const char *src, size_t len)
{
	return poly1305_digest_bytes(src, len, digest, handle);
}

static int nhpoly1305_digest_call(const void *handle, char *digest, const char *src, size_t len)
{
	const struct nhpoly1305_call *c = handle;

	nhpoly1305_digest_bytes(c->key, src, len, digest, c->nh_bulk, c->poly);
	return 0;
}

/*
 * The cdef declares poly1305_generic_ops without const (so cffi exposes its
 * address rather than a by-value copy).  Make the accessor cffi generates for
 * it cast the const away explicitly instead of warning.  The table lives in
 * read-only memory: Python must only pass the pointer on, never write to it.
 * (A self-referencing macro is expanded only once by the preprocessor.)
 */
#define poly1305_generic_ops (*(poly1305_core_ops *)&poly1305_generic_ops)
"""

# What an extension that includes this builder must put in its own wrapper
# source: cffi checks there every type declared above.
TYPES_SOURCE = """
#include "poly1305_core.h"
#include "poly1305_desc.h"
#include "nhpoly1305.h"
"""

ffibuilder = extension(
    "crypto_api.algs._poly1305", CDEF, SOURCE,
    ["algs/poly1305_core.c", "algs/poly1305_desc.c", "algs/nh_generic.c", "algs/nhpoly1305.c"])

if __name__ == "__main__":
    main(ffibuilder)
