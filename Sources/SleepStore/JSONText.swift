import Foundation
import SleepCore

/// Deterministic JSON text (sorted keys) for columns that hold small structured values.
package enum JSONText {
    package static func encode<T: Encodable>(_ value: T) throws -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return String(decoding: try e.encode(value), as: UTF8.self)
    }
    static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }

    /// A night's clock (`nights.offsets_json`): every night of a recording stores the same one, the
    /// zone's transitions from 1970 on (about 11 KB for Europe/Berlin), and a run reads it for every
    /// night several times (catalog, pages, analyses). Each distinct text is decoded and encoded once
    /// per process; the texts are few (one per zone and offset history).
    static func timeline(_ text: String) throws -> UTCOffsetTimeline {
        if let known = TimelineTexts.shared.withLock({ $0.decoded[text] }) { return known }
        let timeline = try decode(UTCOffsetTimeline.self, text)
        TimelineTexts.shared.withLock { $0.decoded[text] = timeline }
        return timeline
    }

    package static func encode(_ timeline: UTCOffsetTimeline) throws -> String {
        if let known = TimelineTexts.shared.withLock({ $0.encoded[timeline] }) { return known }
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        let text = String(decoding: try e.encode(timeline), as: UTF8.self)
        TimelineTexts.shared.withLock { $0.encoded[timeline] = text }
        return text
    }
}

/// The memo behind ``JSONText/timeline(_:)`` and ``JSONText/encode(_:)-(UTCOffsetTimeline)``,
/// shared by the report threads.
private final class TimelineTexts: @unchecked Sendable {
    struct Memo { var decoded: [String: UTCOffsetTimeline] = [:]; var encoded: [UTCOffsetTimeline: String] = [:] }
    private var memo = Memo()
    private let lock = NSLock()
    static let shared = TimelineTexts()

    func withLock<R>(_ body: (inout Memo) -> R) -> R {
        lock.lock(); defer { lock.unlock() }
        return body(&memo)
    }
}
