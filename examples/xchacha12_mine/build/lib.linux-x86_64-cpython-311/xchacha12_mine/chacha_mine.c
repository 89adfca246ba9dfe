/*
 * Portable XChaCha (any even round count) for the xchacha12_mine example.
 * Written from the ChaCha and XChaCha specifications (RFC 8439 section 2,
 * draft-irtf-cfrg-xchacha section 2); plain C, no intrinsics.
 */
#include <string.h>

#include "chacha_mine.h"

static uint32_t load32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void store32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static uint32_t rotl(uint32_t v, int n)
{
    return (v << n) | (v >> (32 - n));
}

#define QR(a, b, c, d)                        \
    do {                                      \
        a += b; d = rotl(d ^ a, 16);          \
        c += d; b = rotl(b ^ c, 12);          \
        a += b; d = rotl(d ^ a, 8);           \
        c += d; b = rotl(b ^ c, 7);           \
    } while (0)

/* The ChaCha permutation: rounds/2 double rounds over x[16], in place. */
static void permute(uint32_t x[16], int rounds)
{
    for (int i = 0; i < rounds; i += 2) {
        QR(x[0], x[4], x[8], x[12]);
        QR(x[1], x[5], x[9], x[13]);
        QR(x[2], x[6], x[10], x[14]);
        QR(x[3], x[7], x[11], x[15]);
        QR(x[0], x[5], x[10], x[15]);
        QR(x[1], x[6], x[11], x[12]);
        QR(x[2], x[7], x[8], x[13]);
        QR(x[3], x[4], x[9], x[14]);
    }
}

static void set_constants_and_key(uint32_t w[16], const uint8_t key[32])
{
    w[0] = 0x61707865;      /* "expand 32-byte k" */
    w[1] = 0x3320646e;
    w[2] = 0x79622d32;
    w[3] = 0x6b206574;
    for (int i = 0; i < 8; i++)
        w[4 + i] = load32(key + 4 * i);
}

void mine_xchacha_init(struct mine_state *st, const uint8_t key[32], const uint8_t iv[32], int rounds)
{
    uint32_t x[16];
    uint8_t subkey[32];

    /* HChaCha: the permuted state without the feed-forward, words 0-3 and 12-15. */
    set_constants_and_key(x, key);
    for (int i = 0; i < 4; i++)
        x[12 + i] = load32(iv + 4 * i);
    permute(x, rounds);
    for (int i = 0; i < 4; i++) {
        store32(subkey + 4 * i, x[i]);
        store32(subkey + 16 + 4 * i, x[12 + i]);
    }

    /* ChaCha state: subkey, then the position (iv[24..31]) and the nonce tail (iv[16..23]). */
    set_constants_and_key(st->w, subkey);
    st->w[12] = load32(iv + 24);
    st->w[13] = load32(iv + 28);
    st->w[14] = load32(iv + 16);
    st->w[15] = load32(iv + 20);
    st->rounds = rounds;
    mine_wipe(x, sizeof(x));
    mine_wipe(subkey, sizeof(subkey));
}

void mine_chacha_crypt(struct mine_state *st, uint8_t *dst, const uint8_t *src, size_t len)
{
    uint32_t x[16];
    uint8_t block[MINE_CHACHA_BLOCK];

    while (len > 0) {
        size_t n = len < MINE_CHACHA_BLOCK ? len : MINE_CHACHA_BLOCK;

        memcpy(x, st->w, sizeof(x));
        permute(x, st->rounds);
        for (int i = 0; i < 16; i++)
            store32(block + 4 * i, x[i] + st->w[i]);
        for (size_t i = 0; i < n; i++)
            dst[i] = src[i] ^ block[i];
        st->w[12]++;            /* 32-bit block counter, no carry into word 13 */
        dst += n;
        src += n;
        len -= n;
    }
    mine_wipe(x, sizeof(x));
    mine_wipe(block, sizeof(block));
}

void mine_wipe(void *p, size_t len)
{
    volatile uint8_t *v = p;

    while (len--)
        *v++ = 0;
}
