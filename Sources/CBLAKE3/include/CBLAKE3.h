// BLAKE3 1.8.6's C API (upstream/blake3.h, unchanged).
#include "../upstream/blake3.h"
