/*
 * A small portable XChaCha core for the xchacha12_mine example driver.
 *
 * mine_xchacha_init() derives the subkey with HChaCha and sets up the
 * 16-word ChaCha state for a 32-byte XChaCha IV (nonce 24 bytes, then the
 * 64-bit little-endian block position); mine_chacha_crypt() XORs the key
 * stream into a buffer and advances the block counter (32-bit, word 12),
 * a partial final block included, so that a request can be fed in pieces
 * whose lengths (except the last) are multiples of 64 bytes.
 */
#ifndef XCHACHA12_MINE_H
#define XCHACHA12_MINE_H

#include <stddef.h>
#include <stdint.h>

#define MINE_CHACHA_BLOCK 64

struct mine_state {
    uint32_t w[16];
    int rounds;
};

void mine_xchacha_init(struct mine_state *st, const uint8_t key[32], const uint8_t iv[32], int rounds);
void mine_chacha_crypt(struct mine_state *st, uint8_t *dst, const uint8_t *src, size_t len);
void mine_wipe(void *p, size_t len);

#endif
