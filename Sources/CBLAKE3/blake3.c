// The upstream file, unchanged (README.md).
#include "upstream/blake3.c"
