// BLAKE3's sse41 kernel: the upstream file, unchanged, assembled only on x86-64 (README.md).
#if defined(__x86_64__)
#include "upstream/blake3_sse41_x86-64_unix.S"
#endif
