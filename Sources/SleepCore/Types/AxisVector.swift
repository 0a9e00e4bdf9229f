extension SIMD4 where Scalar == Double {
    /// Lane by lane `Swift.min(self, v)`, which is `v < self ? v : self`: the scalar function's
    /// choice in every case, so an equal zero of the other sign or a NaN is kept or taken exactly as
    /// it would be. For per-axis minima kept as (x, y, z, 0) vectors.
    @inlinable @inline(__always)
    public mutating func formMinimum(with v: Self) { replace(with: v, where: v .< self) }

    /// Lane by lane `Swift.max(self, v)`, which is `v >= self ? v : self` (see ``formMinimum(with:)``).
    @inlinable @inline(__always)
    public mutating func formMaximum(with v: Self) { replace(with: v, where: v .>= self) }
}
