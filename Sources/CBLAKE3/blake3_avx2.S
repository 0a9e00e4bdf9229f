// BLAKE3's avx2 kernel: the upstream file, unchanged, assembled only on x86-64 (README.md).
#if defined(__x86_64__)
#include "upstream/blake3_avx2_x86-64_unix.S"
#endif
