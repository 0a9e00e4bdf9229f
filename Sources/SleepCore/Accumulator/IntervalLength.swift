/// The length of the intervals movement is summed over (the app's 10 minutes, or 15, or any other).
///
/// Parsed from `10m`, `15min`, `900s`, `1h`, `30s`. A bare number is refused because minutes and
/// seconds are both plausible.
public struct IntervalLength: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let seconds: Int

    public init?(seconds: Int) {
        guard seconds > 0, seconds <= 86_400 else { return nil }
        self.seconds = seconds
    }

    /// A stored length is checked as a parsed one is: an interval of 0 s, a negative one or one
    /// beyond a day is a decoding error, not a division by zero or an allocation later.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let seconds = try container.decode(Int.self, forKey: .seconds)
        guard Self(seconds: seconds) != nil else {
            throw DecodingError.dataCorruptedError(forKey: .seconds, in: container,
                                                   debugDescription: "\(seconds) s is not an interval length (1 s to 1 day)")
        }
        self.seconds = seconds
    }

    private enum CodingKeys: String, CodingKey { case seconds }

    public static let tenMinutes = IntervalLength(seconds: 600)!
    public static let fifteenMinutes = IntervalLength(seconds: 900)!

    public init?(parsing text: String) {
        let t = text.trimmingASCIIWhitespace().lowercased()
        let units: [(String, Int)] = [("min", 60), ("m", 60), ("h", 3600), ("s", 1)]
        for (suffix, factor) in units where t.hasSuffix(suffix) {
            let number = t.dropLast(suffix.count)
            guard let v = Int(number), v > 0 else { return nil }
            self.init(seconds: v * factor)
            return
        }
        return nil
    }

    /// Compact label: `10m`, `15m`, `90s`, `1h`.
    public var description: String {
        if seconds % 3600 == 0 { return "\(seconds / 3600)h" }
        if seconds % 60 == 0 { return "\(seconds / 60)m" }
        return "\(seconds)s"
    }

    public static func < (a: IntervalLength, b: IntervalLength) -> Bool { a.seconds < b.seconds }
}

extension String {
    func trimmingASCIIWhitespace() -> Substring {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\n" || f == "\r" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\n" || l == "\r" { s.removeLast() }
        return s
    }
}
