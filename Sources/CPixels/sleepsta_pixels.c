// C, not Swift, because SleepReport is compiled without optimisation (it lays out pages and
// charts, and a fresh build is markedly shorter that way: docs/performance.md, Set-up), and these
// two loops are the only per-pixel work of a report: every night chart is drawn on a doubled
// canvas (2400 x 840) and halved. SwiftPM compiles C targets optimised in release builds.
#include "sleepsta_pixels.h"

void sleepsta_pixels_halve(int *const *src, int *const *dst, int width, int height) {
    for (int y = 0; y < height; y++) {
        const uint32_t *a = (const uint32_t *)src[2 * y], *b = (const uint32_t *)src[2 * y + 1];
        uint32_t *out = (uint32_t *)dst[y];
        if (!a || !b || !out) continue;
        for (int x = 0; x < width; x++) {
            // Two channels per 32-bit lane, 16 bits each: four bytes sum to at most 1020.
            uint32_t p0 = a[2 * x], p1 = a[2 * x + 1], p2 = b[2 * x], p3 = b[2 * x + 1];
            uint32_t rb = (p0 & 0x00FF00FFu) + (p1 & 0x00FF00FFu) + (p2 & 0x00FF00FFu) + (p3 & 0x00FF00FFu);
            uint32_t ag = ((p0 >> 8) & 0x00FF00FFu) + ((p1 >> 8) & 0x00FF00FFu)
                        + ((p2 >> 8) & 0x00FF00FFu) + ((p3 >> 8) & 0x00FF00FFu);
            out[x] = (((rb + 0x00020002u) >> 2) & 0x00FF00FFu) | ((((ag + 0x00020002u) >> 2) & 0x00FF00FFu) << 8);
        }
    }
}

void sleepsta_pixels_fill(int *const *rows, int xa, int xb, int ya, int yb, int colour) {
    for (int y = ya; y <= yb; y++) {
        int *row = rows[y];
        if (!row) continue;
        for (int x = xa; x <= xb; x++) row[x] = colour;
    }
}
