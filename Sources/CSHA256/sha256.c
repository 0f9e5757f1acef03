// SHA-256 (FIPS 180-4) and PBKDF2-HMAC-SHA256 (RFC 8018) for password hashes. PBKDF2's rounds
// are two SHA-256 compressions each (600,000 rounds: 1.2 million), so the compression is what
// counts: x86's SHA extensions when the processor has them (checked once with CPUID), else
// portable C. Both are held to the FIPS and RFC vectors and to each other by the tests.
#include "CSHA256.h"

#include <string.h>

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static const uint32_t INITIAL[8] = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

typedef void (*compress_fn)(uint32_t state[8], const uint8_t *blocks, size_t count);

// MARK: portable

#define ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static inline uint32_t load_be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static inline void store_be32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static void compress_portable(uint32_t state[8], const uint8_t *blocks, size_t count) {
    for (; count > 0; count--, blocks += 64) {
        uint32_t w[64];
        for (int t = 0; t < 16; t++) w[t] = load_be32(blocks + 4 * t);
        for (int t = 16; t < 64; t++) {
            uint32_t s0 = ROTR(w[t - 15], 7) ^ ROTR(w[t - 15], 18) ^ (w[t - 15] >> 3);
            uint32_t s1 = ROTR(w[t - 2], 17) ^ ROTR(w[t - 2], 19) ^ (w[t - 2] >> 10);
            w[t] = w[t - 16] + s0 + w[t - 7] + s1;
        }
        uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
        uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
        for (int t = 0; t < 64; t++) {
            uint32_t t1 = h + (ROTR(e, 6) ^ ROTR(e, 11) ^ ROTR(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t];
            uint32_t t2 = (ROTR(a, 2) ^ ROTR(a, 13) ^ ROTR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
            h = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        state[0] += a;
        state[1] += b;
        state[2] += c;
        state[3] += d;
        state[4] += e;
        state[5] += f;
        state[6] += g;
        state[7] += h;
    }
}

// MARK: x86 SHA extensions

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>

// The state is kept as the instructions want it (ABEF and CDGH); each group of four rounds adds
// the next four message words to their constants, and the schedule makes words 16-63 four at a
// time: W[t-16] + σ0(W[t-15]) (msg1), + W[t-7] (the words one to four back, aligned), + σ1 (msg2).
__attribute__((target("sha,sse4.1,ssse3"))) static void compress_instructions(uint32_t state[8],
                                                                                const uint8_t *blocks,
                                                                                size_t count) {
    const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i tmp = _mm_loadu_si128((const __m128i *)&state[0]);
    __m128i state1 = _mm_loadu_si128((const __m128i *)&state[4]);
    tmp = _mm_shuffle_epi32(tmp, 0xB1);                   // CDAB
    state1 = _mm_shuffle_epi32(state1, 0x1B);             // EFGH
    __m128i state0 = _mm_alignr_epi8(tmp, state1, 8);     // ABEF
    state1 = _mm_blend_epi16(state1, tmp, 0xF0);          // CDGH
    for (; count > 0; count--, blocks += 64) {
        const __m128i abef = state0, cdgh = state1;
        __m128i w[4];
        for (int i = 0; i < 16; i++) {
            __m128i words;
            if (i < 4) {
                words = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(blocks + 16 * i)), swap);
            } else {
                __m128i sum = _mm_add_epi32(_mm_sha256msg1_epu32(w[i & 3], w[(i + 1) & 3]),
                                            _mm_alignr_epi8(w[(i + 3) & 3], w[(i + 2) & 3], 4));
                words = _mm_sha256msg2_epu32(sum, w[(i + 3) & 3]);
            }
            w[i & 3] = words;
            __m128i message = _mm_add_epi32(words, _mm_loadu_si128((const __m128i *)&K[4 * i]));
            state1 = _mm_sha256rnds2_epu32(state1, state0, message);
            message = _mm_shuffle_epi32(message, 0x0E);
            state0 = _mm_sha256rnds2_epu32(state0, state1, message);
        }
        state0 = _mm_add_epi32(state0, abef);
        state1 = _mm_add_epi32(state1, cdgh);
    }
    tmp = _mm_shuffle_epi32(state0, 0x1B);                // FEBA
    state1 = _mm_shuffle_epi32(state1, 0xB1);             // DCHG
    state0 = _mm_blend_epi16(tmp, state1, 0xF0);          // DCBA
    state1 = _mm_alignr_epi8(state1, tmp, 8);             // ABEF -> HGFE
    _mm_storeu_si128((__m128i *)&state[0], state0);
    _mm_storeu_si128((__m128i *)&state[4], state1);
}

// Three CPUIDs, once, on first use (each a trap to the hypervisor in a virtual machine).
static int has_instructions(void) {
    unsigned a, b, c, d;
    if (__get_cpuid_max(0, 0) < 7) return 0;
    __cpuid(1, a, b, c, d);
    const int ssse3 = (c >> 9) & 1, sse41 = (c >> 19) & 1;
    __cpuid_count(7, 0, a, b, c, d);
    return ssse3 && sse41 && ((b >> 29) & 1);
}
#else
static int has_instructions(void) { return 0; }
static void compress_instructions(uint32_t state[8], const uint8_t *blocks, size_t count) {
    compress_portable(state, blocks, count);
}
#endif

static int forced_portable = 0;

static compress_fn chosen(void) {
    static int known = -1;
    if (known < 0) known = has_instructions();
    return known && !forced_portable ? compress_instructions : compress_portable;
}

int closet_sha256_uses_instructions(void) { return chosen() == compress_instructions && has_instructions(); }

void closet_sha256_force_portable(int portable) { forced_portable = portable; }

// MARK: hashing

typedef struct {
    uint32_t state[8];
    uint8_t buffer[64];
    size_t buffered;
    uint64_t length;
    compress_fn compress;
} hasher;

static void begin(hasher *h, compress_fn compress) {
    memcpy(h->state, INITIAL, sizeof INITIAL);
    h->buffered = 0;
    h->length = 0;
    h->compress = compress;
}

static void update(hasher *h, const uint8_t *bytes, size_t length) {
    h->length += length;
    if (h->buffered > 0) {
        size_t take = 64 - h->buffered < length ? 64 - h->buffered : length;
        memcpy(h->buffer + h->buffered, bytes, take);
        h->buffered += take;
        bytes += take;
        length -= take;
        if (h->buffered < 64) return;
        h->compress(h->state, h->buffer, 1);
        h->buffered = 0;
    }
    if (length >= 64) {
        h->compress(h->state, bytes, length / 64);
        bytes += length / 64 * 64;
        length %= 64;
    }
    memcpy(h->buffer, bytes, length);
    h->buffered = length;
}

static void finish(hasher *h, uint8_t digest[32]) {
    uint64_t bits = h->length * 8;
    uint8_t pad[72] = {0x80};
    size_t padding = (h->buffered < 56 ? 56 : 120) - h->buffered;
    for (int i = 0; i < 8; i++) pad[padding + i] = (uint8_t)(bits >> (56 - 8 * i));
    update(h, pad, padding + 8);
    for (int i = 0; i < 8; i++) store_be32(digest + 4 * i, h->state[i]);
}

void closet_sha256(const uint8_t *bytes, size_t length, uint8_t digest[32]) {
    hasher h;
    begin(&h, chosen());
    update(&h, bytes, length);
    finish(&h, digest);
}

// MARK: PBKDF2

void closet_pbkdf2_sha256(const uint8_t *password, size_t password_length, const uint8_t *salt,
                          size_t salt_length, uint32_t iterations, uint8_t *out, size_t out_length) {
    const compress_fn compress = chosen();
    uint8_t key[64] = {0};
    if (password_length > 64) {
        closet_sha256(password, password_length, key);
    } else if (password_length > 0) {
        memcpy(key, password, password_length);
    }
    // HMAC's inner and outer keys, each one compressed block: every round starts from these.
    uint8_t pad[64];
    uint32_t inner[8], outer[8];
    for (int i = 0; i < 64; i++) pad[i] = key[i] ^ 0x36;
    memcpy(inner, INITIAL, sizeof INITIAL);
    compress(inner, pad, 1);
    for (int i = 0; i < 64; i++) pad[i] = key[i] ^ 0x5c;
    memcpy(outer, INITIAL, sizeof INITIAL);
    compress(outer, pad, 1);

    // A round's message is one block: the 32-byte digest, then SHA-256's padding for 96 bytes.
    uint8_t block[64] = {0};
    block[32] = 0x80;
    block[62] = 0x03;  // 96 × 8 = 768 bits
    for (uint32_t index = 1; out_length > 0; index++) {
        // U1 = HMAC(salt ‖ INT(index)).
        hasher h;
        memcpy(h.state, inner, sizeof inner);
        h.buffered = 0;
        h.length = 64;
        h.compress = compress;
        update(&h, salt, salt_length);
        uint8_t count[4];
        store_be32(count, index);
        update(&h, count, 4);
        uint8_t u[32];
        finish(&h, u);
        memcpy(h.state, outer, sizeof outer);
        h.buffered = 0;
        h.length = 64;
        update(&h, u, 32);
        finish(&h, u);
        uint32_t result[8];
        for (int i = 0; i < 8; i++) result[i] = load_be32(u + 4 * i);
        // U2 … Uc, each two compressions from the keys' states, XORed into the result.
        memcpy(block, u, 32);
        for (uint32_t round = 1; round < iterations; round++) {
            uint32_t state[8];
            memcpy(state, inner, sizeof state);
            compress(state, block, 1);
            for (int i = 0; i < 8; i++) store_be32(block + 4 * i, state[i]);
            memcpy(state, outer, sizeof state);
            compress(state, block, 1);
            for (int i = 0; i < 8; i++) {
                store_be32(block + 4 * i, state[i]);
                result[i] ^= state[i];
            }
        }
        uint8_t chunk[32];
        for (int i = 0; i < 8; i++) store_be32(chunk + 4 * i, result[i]);
        size_t take = out_length < 32 ? out_length : 32;
        memcpy(out, chunk, take);
        out += take;
        out_length -= take;
    }
}
