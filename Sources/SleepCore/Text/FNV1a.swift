/// 64-bit FNV-1a (Fowler–Noll–Vo): a short, stable digest of text, for telling inputs apart in
/// names and keys (a sleep diary's rows in the analysis key, a recording's path in its report
/// folder). Not a security hash: it never stands in for the content SHA-256.
public struct FNV1a: Sendable {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
    public init() {}
    public mutating func add(_ text: String) {
        for b in text.utf8 { value ^= UInt64(b); value = value &* 0x0000_0100_0000_01B3 }
    }
    public var hex: String { String(value, radix: 16) }
    /// The digest of one text, in hex.
    public static func hex(_ text: String) -> String {
        var h = FNV1a()
        h.add(text)
        return h.hex
    }
}
