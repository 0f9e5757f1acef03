// CRC-32C for the store's files. Written in C because Swift cannot yet name the processor's
// CRC32 instruction: with it a 5 MB snapshot is verified in about 0.3 ms instead of 5 ms.
#include "crc32c.h"

#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <nmmintrin.h>
#elif defined(__aarch64__) && defined(__linux__)
#include <arm_acle.h>
#include <sys/auxv.h>
#ifndef HWCAP_CRC32
#define HWCAP_CRC32 (1 << 7)
#endif
#endif

#define POLYNOMIAL 0x82F63B78u  // Castagnoli, reflected

static uint32_t table[8][256];
static int table_ready;

static void make_table(void) {
    for (uint32_t index = 0; index < 256; index++) {
        uint32_t value = index;
        for (int bit = 0; bit < 8; bit++) value = (value & 1) ? (value >> 1) ^ POLYNOMIAL : value >> 1;
        table[0][index] = value;
    }
    for (uint32_t index = 0; index < 256; index++) {
        for (int slice = 1; slice < 8; slice++) {
            uint32_t previous = table[slice - 1][index];
            table[slice][index] = (previous >> 8) ^ table[0][previous & 0xFF];
        }
    }
    __atomic_store_n(&table_ready, 1, __ATOMIC_RELEASE);
}

uint32_t closet_crc32c_software(uint32_t crc, const void *bytes, size_t count) {
    // Building the table twice from two threads writes the same values: harmless.
    if (!__atomic_load_n(&table_ready, __ATOMIC_ACQUIRE)) make_table();
    const unsigned char *p = bytes;
    crc = ~crc;
    while (count >= 8) {
        uint32_t low, high;
        memcpy(&low, p, 4);
        memcpy(&high, p + 4, 4);
        low ^= crc;  // little-endian hosts only (x86-64, ARMv8 Linux): the store's files are little-endian
        crc = table[7][low & 0xFF] ^ table[6][(low >> 8) & 0xFF] ^ table[5][(low >> 16) & 0xFF] ^
              table[4][low >> 24] ^ table[3][high & 0xFF] ^ table[2][(high >> 8) & 0xFF] ^
              table[1][(high >> 16) & 0xFF] ^ table[0][high >> 24];
        p += 8;
        count -= 8;
    }
    while (count--) crc = (crc >> 8) ^ table[0][(crc ^ *p++) & 0xFF];
    return ~crc;
}

#if defined(__x86_64__)
// One CRC32 instruction takes three cycles but a new one can start every cycle: three
// streams over three adjacent stretches keep it busy, and their CRCs are joined by
// "appending zeros" to the earlier ones: a linear map on the 32-bit CRC register (the
// mathematics of zlib's crc32_combine), applied as four byte tables.
#define STRETCH 2048  // small enough that a 32 KiB block is mostly three streams

static uint32_t stretch_zeros[4][256];
static int stretch_ready;

// The map's column for each register bit is that bit's register fed STRETCH zero bytes, which
// the instruction itself computes (256 instructions a column); each table entry is the XOR of
// the columns of its bits. About 12,000 instructions, once per process: composing the map from
// bit matrices, as zlib does, took 190,000, a tenth of a new process that reads a stored block.
__attribute__((target("sse4.2"))) static void make_stretch_zeros(void) {
    uint32_t column[32];
    for (int bit = 0; bit < 32; bit++) {
        uint64_t value = 1u << bit;
        for (int at = 0; at < STRETCH; at += 8) value = _mm_crc32_u64(value, 0);
        column[bit] = (uint32_t)value;
    }
    for (int part = 0; part < 4; part++) {
        stretch_zeros[part][0] = 0;
        for (uint32_t n = 1; n < 256; n++) {
            stretch_zeros[part][n] = stretch_zeros[part][n & (n - 1)] ^ column[8 * part + __builtin_ctz(n)];
        }
    }
    __atomic_store_n(&stretch_ready, 1, __ATOMIC_RELEASE);
}

static uint32_t after_stretch(uint32_t crc) {
    return stretch_zeros[0][crc & 0xFF] ^ stretch_zeros[1][(crc >> 8) & 0xFF] ^ stretch_zeros[2][(crc >> 16) & 0xFF] ^
           stretch_zeros[3][crc >> 24];
}

__attribute__((target("sse4.2"))) static uint32_t hardware(uint32_t crc, const void *bytes, size_t count) {
    const unsigned char *p = bytes;
    uint64_t value = ~crc;
    if (count >= 3 * STRETCH) {
        // Built twice by two threads, the tables hold the same values: harmless.
        if (!__atomic_load_n(&stretch_ready, __ATOMIC_ACQUIRE)) make_stretch_zeros();
        while (count >= 3 * STRETCH) {
            uint64_t second = 0, third = 0;
            for (size_t at = 0; at < STRETCH; at += 8) {
                uint64_t a, b, c;
                memcpy(&a, p + at, 8);
                memcpy(&b, p + STRETCH + at, 8);
                memcpy(&c, p + 2 * STRETCH + at, 8);
                value = _mm_crc32_u64(value, a);
                second = _mm_crc32_u64(second, b);
                third = _mm_crc32_u64(third, c);
            }
            value = after_stretch((uint32_t)value) ^ (uint32_t)second;
            value = after_stretch((uint32_t)value) ^ (uint32_t)third;
            p += 3 * STRETCH;
            count -= 3 * STRETCH;
        }
    }
    while (count >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        value = _mm_crc32_u64(value, word);
        p += 8;
        count -= 8;
    }
    uint32_t rest = (uint32_t)value;
    while (count--) rest = _mm_crc32_u8(rest, *p++);
    return ~rest;
}

// One CPUID (leaf 1 always exists on x86-64), asked on first use: `__builtin_cpu_supports` links
// libgcc's CPU model, whose constructor asks ten leaves in every process, and each CPUID is a
// trap to the hypervisor in a virtual machine (about 7 µs here; a tenth of a new process's time).
static int detect(void) {
    unsigned a, b, c, d;
    __cpuid(1, a, b, c, d);
    return (c >> 20) & 1;
}
#elif defined(__aarch64__) && defined(__linux__)
__attribute__((target("+crc"))) static uint32_t hardware(uint32_t crc, const void *bytes, size_t count) {
    const unsigned char *p = bytes;
    uint32_t value = ~crc;
    while (count >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        value = __crc32cd(value, word);
        p += 8;
        count -= 8;
    }
    while (count--) value = __crc32cb(value, *p++);
    return ~value;
}

static int detect(void) { return (getauxval(AT_HWCAP) & HWCAP_CRC32) != 0; }
#else
static uint32_t hardware(uint32_t crc, const void *bytes, size_t count) {
    return closet_crc32c_software(crc, bytes, count);
}

static int detect(void) { return 0; }
#endif

// -1 unknown, 0 no, 1 yes.
static int has_hardware = -1;

int closet_crc32c_uses_hardware(void) {
    int known = __atomic_load_n(&has_hardware, __ATOMIC_ACQUIRE);
    if (known < 0) {
        known = detect() ? 1 : 0;
        __atomic_store_n(&has_hardware, known, __ATOMIC_RELEASE);
    }
    return known;
}

uint32_t closet_crc32c(uint32_t crc, const void *bytes, size_t count) {
    return closet_crc32c_uses_hardware() ? hardware(crc, bytes, count) : closet_crc32c_software(crc, bytes, count);
}
