#ifndef CLOSET_CRC32C_H
#define CLOSET_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/// CRC-32C (Castagnoli), continued as zlib's crc32 is: pass 0 to start, or a previous result to continue it.
/// Uses the processor's CRC32 instruction (SSE4.2 on x86-64, the CRC extension on ARMv8)
/// when it has one, and the table-driven code otherwise; both give the same value.
uint32_t closet_crc32c(uint32_t crc, const void *bytes, size_t count);

/// The table-driven code alone, so tests can check the two against each other.
uint32_t closet_crc32c_software(uint32_t crc, const void *bytes, size_t count);

/// 1 when `closet_crc32c` runs on the processor's instruction.
int closet_crc32c_uses_hardware(void);

#endif
