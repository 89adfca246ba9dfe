/*
 * Adiantum in one call over a contiguous buffer: the algorithm of the kernel's
 * crypto/adiantum.c (Linux v5.0) with the inner algorithms reached through
 * the C entry points of whichever drivers the template spawned (generic,
 * SIMD or another implementation exposing the same entry points).
 *
 * P = PL || PR, |PR| = 16.  Encryption:  PM = PR + H(T, PL);  CM = E(PM);
 * CL = PL ^ XChaCha(nonce CM || 1, position 0);  CR = CM - H(T, CL).
 * H(T, L) = Poly1305_KT(le128(8|L|) || T) + NHPoly1305(L), all mod 2^128.
 * Decryption runs the same steps with D instead of E.
 *
 * adiantum_crypt_many runs the same steps over many equal-sized messages
 * (the sectors of a disk), up to ADIANTUM_LANES at a time sharing one HChaCha
 * pass and, for short streams, one stream pass (beyond the kernel, which
 * makes one request per sector).
 */
#include <string.h>

#include "adiantum_core.h"
#include "memzero.h"
#include "byteorder.h"

#define BLOCK 16
#define CHACHA_BLOCK 64
/*
 * adiantum_crypt_many makes its messages' streams together (stream_lanes)
 * up to this length, one message after another above it: measured on Zen 4
 * (AVX2), the lanes code, a pass of the 8-block rounds per block of every
 * message, gains 1.2-1.3x per 512-byte sector over the one-message streams,
 * which over longer streams run the faster 10-block code (at 1 KiB even,
 * beyond it slower).  The HChaCha pass is shared at every length.
 */
#define LANES_STREAM_MAX 512

/* r = a + b (sub = 0) or a - b (sub = 1), as 128-bit little-endian integers */
static void le128_addsub(uint8_t r[16], const uint8_t a[16], const uint8_t b[16], int sub)
{
	uint64_t alo = get_le64(a), ahi = get_le64(a + 8);
	uint64_t blo = get_le64(b), bhi = get_le64(b + 8);
	uint64_t lo, hi;

	if (sub) {
		lo = alo - blo;
		hi = ahi - bhi - (alo < blo);
	} else {
		lo = alo + blo;
		hi = ahi + bhi + (lo < alo);
	}
	put_le64(r, lo);
	put_le64(r + 8, hi);
}

/*
 * What one message's steps keep that depends on the key or the text: held
 * here, not in each step's own locals, so that it is wiped once when the
 * message (or a batch of them) is done rather than piece by piece, sixteen
 * wipes a message (a 512-byte sector paid for them as much as for its AES
 * block).
 */
struct adiantum_work {
	poly1305_core_key key;
	poly1305_core_state st;
	struct nhpoly1305_state nh;
	uint8_t block[BLOCK], msg[BLOCK], h[BLOCK], right[BLOCK], m[BLOCK], out[BLOCK];
	uint32_t state[16], subkey[8];
};

/* Poly1305 (no "+ s") of le128(8 * bulk_len) || tweak, padding a partial tail. */
static void header_hash(const struct adiantum_fast *f, struct adiantum_work *w, size_t bulk_len,
			const uint8_t *tweak, size_t tweak_len, uint8_t out[16])
{
	size_t full = tweak_len / BLOCK, tail = tweak_len % BLOCK;

	f->hash_poly->setkey(&w->key, f->header_r);
	f->hash_poly->init(&w->st);
	memset(w->block, 0, BLOCK);
	put_le64(w->block, (uint64_t)bulk_len * 8);
	f->hash_poly->blocks(&w->st, &w->key, w->block, 1, 1);
	if (full)
		f->hash_poly->blocks(&w->st, &w->key, tweak, full, 1);
	if (tail) {
		memset(w->block, 0, BLOCK);
		memcpy(w->block, tweak + full * BLOCK, tail);
		w->block[tail] = 1;
		f->hash_poly->blocks(&w->st, &w->key, w->block, 1, 0);
	}
	f->hash_poly->emit(&w->st, out);
}

/* NHPoly1305 of the bulk, one update (SIMD NH from 64 bytes on, as the glue). */
static void message_hash(const struct adiantum_fast *f, struct adiantum_work *w,
			 const uint8_t *data, size_t len, uint8_t out[16])
{
	nhpoly1305_init(&w->nh, f->hash_poly);
	if (len)
		nhpoly1305_update(&w->nh, f->hash_key, data, len,
				  len >= CHACHA_BLOCK ? f->nh_bulk : f->nh_small, f->hash_poly);
	nhpoly1305_final(&w->nh, f->hash_key, out, f->nh_small, f->hash_poly);
}

static void hash_sum(const struct adiantum_fast *f, struct adiantum_work *w, const uint8_t hdr[16],
		     const uint8_t *bulk, size_t bulk_len, uint8_t out[16])
{
	message_hash(f, w, bulk, bulk_len, w->msg);
	le128_addsub(out, hdr, w->msg, 0);
}

/* The XChaCha state whose HChaCha gives the subkey for nonce CM || 01 00 .. 00. */
static void hchacha_input(const struct adiantum_fast *f, const uint8_t cm[16], uint32_t state[16])
{
	static const uint32_t sigma[4] = { 0x61707865, 0x3320646e, 0x79622d32, 0x6b206574 };

	memcpy(state, sigma, sizeof(sigma));
	for (int i = 0; i < 8; i++)
		state[4 + i] = get_le32(f->stream_key + 4 * i);
	for (int i = 0; i < 4; i++)
		state[12 + i] = get_le32(cm + 4 * i);
}

/* The state of the stream under the subkey, at stream position 0. */
static void stream_start(uint32_t state[16], const uint32_t subkey[8])
{
	memcpy(state + 4, subkey, 8 * sizeof(uint32_t));
	state[12] = 0;		/* stream position (64-bit, little-endian) */
	state[13] = 0;
	state[14] = 1;		/* nonce bytes 16..23: 01 00 .. 00 */
	state[15] = 0;
}

/* XChaCha with nonce CM || 01 00 00 00 00 00 00 00 at stream position 0. */
static void stream_xor(const struct adiantum_fast *f, struct adiantum_work *w, const uint8_t cm[16],
		       uint8_t *dst, const uint8_t *src, size_t len)
{
	int small = len <= CHACHA_BLOCK;

	if (!len)		/* a 16-byte message: no stream bytes, so no subkey either */
		return;
	hchacha_input(f, cm, w->state);
	(small ? f->hchacha_small : f->hchacha)(w->state, w->subkey, f->nrounds);
	stream_start(w->state, w->subkey);
	(small ? f->stream_small : f->stream_crypt)(w->state, dst, src, len, f->nrounds);
}

/* The stream's length: the bulk, rounded up to whole ChaCha blocks where the
 * message has room (the extra bytes land on the right part, rewritten last). */
static size_t stream_length(size_t bulk_len, size_t nbytes)
{
	if (bulk_len % CHACHA_BLOCK) {
		size_t up = bulk_len + CHACHA_BLOCK - bulk_len % CHACHA_BLOCK;

		if (up <= nbytes)
			return up;
	}
	return bulk_len;
}

/* Before the stream: the header hash hdr and CM (E(PM) to encrypt, CM itself to decrypt). */
static void first_half(const struct adiantum_fast *f, struct adiantum_work *w, const uint8_t *src,
		       size_t bulk_len, const uint8_t *tweak, size_t tweak_len, int enc,
		       uint8_t hdr[16], uint8_t cm[16])
{
	header_hash(f, w, bulk_len, tweak, tweak_len, hdr);
	hash_sum(f, w, hdr, src, bulk_len, w->h);
	memcpy(w->right, src + bulk_len, BLOCK);
	le128_addsub(w->m, w->right, w->h, 0);
	if (enc)
		f->block_encrypt(f->block_ctx, cm, w->m);
	else
		memcpy(cm, w->m, BLOCK);
}

/* After the stream: the right part, CM (or D(CM)) minus the hash of the new bulk. */
static void second_half(const struct adiantum_fast *f, struct adiantum_work *w, uint8_t *dst,
			size_t bulk_len, const uint8_t hdr[16], const uint8_t cm[16], int enc)
{
	if (!enc)
		f->block_decrypt(f->block_ctx, w->m, cm);
	else
		memcpy(w->m, cm, BLOCK);
	hash_sum(f, w, hdr, dst, bulk_len, w->h);
	le128_addsub(w->out, w->m, w->h, 1);
	memcpy(dst + bulk_len, w->out, BLOCK);
}

int adiantum_crypt(const struct adiantum_fast *f, uint8_t *dst, const uint8_t *src,
		   size_t nbytes, const uint8_t *tweak, size_t tweak_len, int enc)
{
	struct adiantum_work w;
	uint8_t hdr[16], cm[16];
	size_t bulk_len;

	if (nbytes < BLOCK)
		return -22;
	bulk_len = nbytes - BLOCK;
	first_half(f, &w, src, bulk_len, tweak, tweak_len, enc, hdr, cm);
	stream_xor(f, &w, cm, dst, src, stream_length(bulk_len, nbytes));
	second_half(f, &w, dst, bulk_len, hdr, cm, enc);
	memzero_explicit(&w, sizeof(w));
	memzero_explicit(hdr, sizeof(hdr));
	memzero_explicit(cm, sizeof(cm));
	return 0;
}

int adiantum_crypt_many(const struct adiantum_fast *f, uint8_t *dst, const uint8_t *src,
			size_t nbytes, const uint8_t *tweaks, size_t tweak_stride, size_t tweak_len,
			size_t count, int enc)
{
	struct adiantum_work w;
	uint8_t hdr[ADIANTUM_LANES][16], cm[ADIANTUM_LANES][16];
	uint32_t states[ADIANTUM_LANES][16], subkeys[ADIANTUM_LANES][8];
	size_t bulk_len, stream_len;

	if (nbytes < BLOCK)
		return -22;
	bulk_len = nbytes - BLOCK;
	stream_len = stream_length(bulk_len, nbytes);
	if (!f->hchacha_lanes || !f->stream_lanes || stream_len <= CHACHA_BLOCK) {
		for (size_t k = 0; k < count; k++)
			adiantum_crypt(f, dst + k * nbytes, src + k * nbytes, nbytes,
				       tweaks + k * tweak_stride, tweak_len, enc);
		return 0;
	}
	for (size_t done = 0; done < count; ) {
		unsigned lanes = count - done < ADIANTUM_LANES ? (unsigned)(count - done) : ADIANTUM_LANES;
		uint8_t *d = dst + done * nbytes;
		const uint8_t *s = src + done * nbytes;

		for (unsigned k = 0; k < lanes; k++) {
			first_half(f, &w, s + k * nbytes, bulk_len, tweaks + (done + k) * tweak_stride,
				   tweak_len, enc, hdr[k], cm[k]);
			hchacha_input(f, cm[k], states[k]);
		}
		f->hchacha_lanes(&states[0][0], &subkeys[0][0], lanes, f->nrounds);
		for (unsigned k = 0; k < lanes; k++)
			stream_start(states[k], subkeys[k]);
		if (stream_len <= LANES_STREAM_MAX)
			f->stream_lanes(&states[0][0], d, s, nbytes, stream_len, lanes, f->nrounds);
		else
			for (unsigned k = 0; k < lanes; k++)
				f->stream_crypt(states[k], d + k * nbytes, s + k * nbytes, stream_len,
						f->nrounds);
		for (unsigned k = 0; k < lanes; k++)
			second_half(f, &w, d + k * nbytes, bulk_len, hdr[k], cm[k], enc);
		done += lanes;
	}
	memzero_explicit(&w, sizeof(w));
	memzero_explicit(hdr, sizeof(hdr));
	memzero_explicit(cm, sizeof(cm));
	memzero_explicit(states, sizeof(states));
	memzero_explicit(subkeys, sizeof(subkeys));
	return 0;
}

int adiantum_encrypt(const struct adiantum_fast *f, uint8_t *dst, const uint8_t *src,
		     size_t nbytes, const uint8_t *tweak)
{
	return adiantum_crypt(f, dst, src, nbytes, tweak, 32, 1);
}

int adiantum_decrypt(const struct adiantum_fast *f, uint8_t *dst, const uint8_t *src,
		     size_t nbytes, const uint8_t *tweak)
{
	return adiantum_crypt(f, dst, src, nbytes, tweak, 32, 0);
}
