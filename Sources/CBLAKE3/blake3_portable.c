// The upstream file, unchanged (README.md).
#include "upstream/blake3_portable.c"
