#ifndef SLEEPSTA_PIXELS_H
#define SLEEPSTA_PIXELS_H
// The two per-pixel loops of the charts (SleepReport's FastGD): over libgd's true-colour rows
// (`gdImage.tpixels`, one int per pixel, 0x7FRRGGBB with alpha in the top byte), without libgd.
#include <stdint.h>

/// 2x2 box filter: dst row y, pixel x = the rounded average (ties up), per channel, of src rows
/// 2y and 2y+1, pixels 2x and 2x+1. `dst` has `height` rows of `width` pixels; `src` at least
/// twice as many of each. A NULL row is skipped.
void sleepsta_pixels_halve(int *const *src, int *const *dst, int width, int height);

/// Sets pixels xa...xb of rows ya...yb (inclusive, already clipped) to `colour`. A NULL row is skipped.
void sleepsta_pixels_fill(int *const *rows, int xa, int xb, int ya, int yb, int colour);

#endif
