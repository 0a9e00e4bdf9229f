// BLAKE3's NEON kernel: the upstream file, unchanged, compiled only on ARM (README.md).
#if defined(__aarch64__) || defined(__arm__)
#include "upstream/blake3_neon.c"
#endif
