#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H

#include <zlib.h>

/// `deflateInit2` is a macro that Swift cannot call; this wrapper passes the
/// version and struct size the macro would.
static inline int czlib_deflateInit2(z_streamp stream, int level, int method,
                                     int windowBits, int memLevel, int strategy) {
    return deflateInit2(stream, level, method, windowBits, memLevel, strategy);
}

/// `inflateInit2` is a macro as well; tests use it to inflate what we deflate.
static inline int czlib_inflateInit2(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}

#endif
