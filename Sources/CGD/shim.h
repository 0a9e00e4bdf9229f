#ifndef SLEEPSTA_CGD_SHIM_H
#define SLEEPSTA_CGD_SHIM_H
#include <gd.h>
#include <gdfontt.h>
#include <gdfonts.h>

/* gdTrueColorAlpha and gdImageSX/SY are macros that Swift cannot import. */
static inline int sleepsta_gd_rgba(int r, int g, int b, int alpha) { return gdTrueColorAlpha(r, g, b, alpha); }
static inline int sleepsta_gd_width(gdImagePtr im) { return gdImageSX(im); }
static inline int sleepsta_gd_height(gdImagePtr im) { return gdImageSY(im); }
static inline int sleepsta_gd_truecolor_pixel(gdImagePtr im, int x, int y) { return gdImageTrueColorPixel(im, x, y); }
#endif
