#ifndef CLOSET_CSHA256_H
#define CLOSET_CSHA256_H

#include <stddef.h>
#include <stdint.h>

/// PBKDF2-HMAC-SHA256 (RFC 8018 §5.2) into `out` (`out_length` bytes), on the processor's
/// SHA-256 instructions when it has them (x86's SHA extensions), portable C otherwise.
void closet_pbkdf2_sha256(const uint8_t *password, size_t password_length, const uint8_t *salt,
                          size_t salt_length, uint32_t iterations, uint8_t *out, size_t out_length);

/// SHA-256 of `length` bytes into `digest` (32 bytes), by the same compression.
void closet_sha256(const uint8_t *bytes, size_t length, uint8_t digest[32]);

/// 1 when the SHA instructions are used, 0 for the portable code; `closet_sha256_force_portable`
/// makes every later call use the portable code (for tests that hold the two to each other).
int closet_sha256_uses_instructions(void);
void closet_sha256_force_portable(int portable);

#endif
