import CGD

extension ChartRenderer {
    /// Sets up libgd's FreeType font cache. libgd creates it lazily on first use, which is not
    /// thread-safe; afterwards text rendering takes the cache's lock. Call once before rendering
    /// charts on several threads (see TOOLCHAIN notes: `gdFontCacheSetup()`).
    public static func prepareForConcurrentRendering() {
        _ = gdFontCacheSetup()
    }
}
