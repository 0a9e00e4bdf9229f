#ifndef SLEEPSTA_CZLIB_SHIM_H
#define SLEEPSTA_CZLIB_SHIM_H
#include <zlib.h>

// inflateInit2 is a macro (it passes ZLIB_VERSION and sizeof(z_stream)), which Swift cannot call.
static inline int sleepsta_inflateInit2(z_streamp strm, int windowBits) {
    return inflateInit2(strm, windowBits);
}

// deflateInit2 is a macro too: gzip output (windowBits 15 + 16) at `level`, default memory and strategy.
static inline int sleepsta_deflateInit2(z_streamp strm, int level, int windowBits) {
    return deflateInit2(strm, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY);
}
#endif
