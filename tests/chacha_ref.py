"""A pure-Python ChaCha permutation written from RFC 8439 §2.1–2.3, the one
independent reference the ChaCha/HChaCha/XChaCha tests build on."""

import struct

M32 = 0xFFFFFFFF


def _rotl(v, n):
    return ((v << n) | (v >> (32 - n))) & M32


def _qr(x, a, b, c, d):
    x[a] = (x[a] + x[b]) & M32; x[d] = _rotl(x[d] ^ x[a], 16)
    x[c] = (x[c] + x[d]) & M32; x[b] = _rotl(x[b] ^ x[c], 12)
    x[a] = (x[a] + x[b]) & M32; x[d] = _rotl(x[d] ^ x[a], 8)
    x[c] = (x[c] + x[d]) & M32; x[b] = _rotl(x[b] ^ x[c], 7)


def ref_permute(words, nrounds):
    """The 16 state words after ``nrounds`` rounds (no feed-forward)."""
    x = list(words)
    for _ in range(nrounds // 2):
        _qr(x, 0, 4, 8, 12); _qr(x, 1, 5, 9, 13); _qr(x, 2, 6, 10, 14); _qr(x, 3, 7, 11, 15)
        _qr(x, 0, 5, 10, 15); _qr(x, 1, 6, 11, 12); _qr(x, 2, 7, 8, 13); _qr(x, 3, 4, 9, 14)
    return x


def ref_hchacha_words(words, nrounds):
    """HChaCha of a 16-word state (RFC 8439's rounds, draft-irtf-cfrg-xchacha
    §2.2): words 0..3 and 12..15 of the rounds, no feed-forward."""
    x = ref_permute(words, nrounds)
    return x[0:4] + x[12:16]


def ref_keystream(words, nbytes, nrounds):
    """Keystream for a 16-word state; only word 12 counts (32-bit wrap)."""
    st_ = list(words)
    out = bytearray()
    while len(out) < nbytes:
        x = ref_permute(st_, nrounds)
        out += struct.pack("<16I", *((x[i] + st_[i]) & M32 for i in range(16)))
        st_[12] = (st_[12] + 1) & M32
    return bytes(out[:nbytes])
