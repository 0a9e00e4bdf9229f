#ifndef SLEEPSTA_CZLIB_SHIM_H
#define SLEEPSTA_CZLIB_SHIM_H
#include <zlib.h>

// inflateInit2 is a macro (it passes ZLIB_VERSION and sizeof(z_stream)), which Swift cannot call.
static inline int sleepsta_inflateInit2(z_streamp strm, int windowBits) {
    return inflateInit2(strm, windowBits);
}
#endif
