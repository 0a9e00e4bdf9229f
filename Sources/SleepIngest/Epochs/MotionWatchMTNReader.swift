import SleepCore

/// Reads CamNtech MotionWatch `.mtn` files (MotionWatch 8, MotionWare), as pyActigraphy's `io/mtn`
/// reads them: an XML change log,
///
/// ```
/// <motionfile><log2 major="2" minor="1">
///   <change …><property><name>=Device</name><content>MW8</content></property></change>
///   <change …><property><name>=StartTime</name><content>2018-05-23 17:30:00</content></property></change>
///   <change …><channel><name>motion</name><units>Triaxial-Counts</units><epoch>5</epoch><offset>0</offset>
///             <data encoding="text">0,0,71,121,…,</data></channel></change>
///   <change …><channel><name>Light</name><units>lux</units><epoch>5</epoch>…</channel></change>
/// ```
///
/// Properties named `=…` are the device's (`Device`, `SerialNo`, `FirmwareVersion`, `StartTime` on
/// the device's local clock); `+…` are the subject's and are not kept. Each channel's values are
/// one per `epoch` seconds from the start time plus its `offset` (seconds). Kept: `motion` as
/// `activity` (counts), `Light` as `light` (lux), other numeric channels under their own names;
/// channels whose epoch or offset differ from the motion channel's are left out with a warning.
/// The file states no UTC offset. Only the text data encoding is read.
public struct MotionWatchMTNReader: EpochFileReader {
    public static let format = EpochFileFormat.motionWatchMTN
    public init() {}

    public static func accepts(fileName: String, head: [UInt8]) -> Bool {
        let text = String(decoding: head.prefix(400), as: UTF8.self)
        return text.contains("<motionfile") || (fileName.lowercased().hasSuffix(".mtn") && text.contains("<?xml"))
    }

    struct Channel { var name: String; var epoch: Int; var offset: Int; var values: [Double]; var line: Int }

    public func read(path: String, options: IngestOptions) throws(IngestError) -> EpochRecording {
        let bytes = try FileBytes.readAll(path: path, limit: 256 << 20)
        let (properties, channels) = try Self.changeLog(Array(bytes), path: path)
        let startLocalSecond = try Self.startLocalSecond(properties, path: path)
        guard let motion = channels.first(where: { $0.name == "motion" }) else {
            throw IngestError(file: path, byteOffset: 0, message: "no 'motion' channel: expected MotionWatch activity counts")
        }
        guard !motion.values.isEmpty else {
            throw IngestError(file: path, line: motion.line, message: "the motion channel holds no values")
        }
        var warnings: [String] = []
        var kept: [Channel] = [motion]
        for c in channels where c.name != "motion" {
            if c.epoch == motion.epoch && c.offset == motion.offset { kept.append(c) }
            else { warnings.append("channel '\(c.name)' has \(c.epoch)-s epochs at offset \(c.offset) s, unlike the motion channel: left out") }
        }
        let names = kept.map { c -> String in c.name == "motion" ? "activity" : EpochColumnNaming.canonical(c.name) }
        let count = kept.map(\.values.count).max()!
        var table = EpochRowTable(path: path, numericColumns: kept.indices.map { .init(name: names[$0], sourceName: kept[$0].name) })
        let start = startLocalSecond + Int64(motion.offset)
        for i in 0..<count {
            table.append(localSecond: start + Int64(i) * Int64(motion.epoch), position: motion.line,
                         values: kept.map { i < $0.values.count ? $0.values[i] : .nan })
        }
        return try table.build(format: .motionWatchMTN, epochSeconds: motion.epoch, options: options, statedOffsetSeconds: nil,
                               metadata: Self.metadata(properties), warnings: warnings)
    }

    /// The log's properties (name → content, the last change wins) and its channels, in file order.
    static func changeLog(_ text: [UInt8], path: String) throws(IngestError) -> (properties: [String: String], channels: [Channel]) {
        var scanner = XMLScanner(bytes: text)
        guard scanner.find("<motionfile") != nil else {
            throw IngestError(file: path, byteOffset: 0, message: "no <motionfile> element: expected a MotionWatch .mtn file")
        }
        var properties: [String: String] = [:]
        var channels: [Channel] = []
        // Line numbers counted on from the last channel's: once over the file, however many channels.
        var counted = (offset: 0, line: 1)
        scanner.position = 0
        while let open = scanner.findEither("<property>", "<channel>") {
            let isProperty = scanner.bytes[open + 1] == UInt8(ascii: "p")
            let closing = isProperty ? "</property>" : "</channel>"
            guard let end = scanner.find(closing) else {
                throw IngestError(file: path, byteOffset: open, message: "<\(isProperty ? "property" : "channel")> is not closed: truncated or damaged file")
            }
            let element = XMLScanner(bytes: Array(text[open..<end]))
            if isProperty {
                if let name = element.value(of: "name"), let content = element.value(of: "content") { properties[name] = content }
                continue
            }
            counted = (open, text[counted.offset..<open].reduce(counted.line) { $0 + ($1 == 10 ? 1 : 0) })
            let line = counted.line
            channels.append(try channel(element, line: line, path: path))
        }
        return (properties, channels)
    }

    /// One `<channel>` element: its name, epoch, offset and text-encoded values.
    static func channel(_ element: XMLScanner, line: Int, path: String) throws(IngestError) -> Channel {
        guard let name = element.value(of: "name"), let epochText = element.value(of: "epoch") else {
            throw IngestError(file: path, line: line, message: "channel without <name> or <epoch>")
        }
        guard let epoch = Int(epochText), epoch > 0, epoch <= 86_400 else {
            throw IngestError(file: path, line: line, message: "channel '\(name.prefix(30))': epoch '\(epochText.prefix(20))', expected seconds between 1 and 86400")
        }
        let offsetText = element.value(of: "offset") ?? "0"
        guard let offset = Int(offsetText), (-86_400...86_400).contains(offset) else {
            throw IngestError(file: path, line: line, message: "channel '\(name.prefix(30))': offset '\(offsetText.prefix(20))', expected whole seconds")
        }
        guard let data = element.value(of: "data") else {
            throw IngestError(file: path, line: line, message: "channel '\(name.prefix(30))' has no <data encoding=\"text\">")
        }
        var values: [Double] = []
        // Field by field over the bytes: an array of every field first would cost 32 bytes per comma.
        let bytes = Array(data.utf8)
        var start = 0
        for i in 0...bytes.count where i == bytes.count || bytes[i] == 0x2C {
            let f = String(decoding: bytes[start..<i], as: UTF8.self).trimmingXMLSpace
            start = i + 1
            if f.isEmpty { continue }
            guard let v = Double(f), v.isFinite else {
                throw IngestError(file: path, line: line, message: "channel '\(name.prefix(30))': value '\(f.prefix(20))' is not a number")
            }
            values.append(v)
            guard values.count <= EpochRowTable.maximumEpochs else {
                throw IngestError(file: path, line: line, message: "channel '\(name.prefix(30))' holds more than \(EpochRowTable.maximumEpochs) epochs")
            }
        }
        return Channel(name: name, epoch: epoch, offset: offset, values: values, line: line)
    }

    /// `=StartTime` on the device's local clock.
    static func startLocalSecond(_ properties: [String: String], path: String) throws(IngestError) -> Int64 {
        guard let startText = properties["=StartTime"] else {
            throw IngestError(file: path, byteOffset: 0, message: "no =StartTime property: expected the recording's start on the device clock")
        }
        let parts = startText.split(separator: " ")
        guard parts.count == 2, let date = LocalClockText.date(String(parts[0]), order: .yearFirst),
              let second = LocalClockText.secondOfDay(String(parts[1])) else {
            throw IngestError(file: path, byteOffset: 0, message: "=StartTime '\(startText.prefix(40))': expected yyyy-MM-dd HH:MM:SS")
        }
        return LocalClockText.localSecond(date, secondOfDay: second)
    }

    /// The device's properties (`=…`; the subject's `+…` are not kept) and the device's name.
    static func metadata(_ properties: [String: String]) -> [String: String] {
        var metadata: [String: String] = [:]
        for (key, value) in properties where key.hasPrefix("=") { metadata[String(key.dropFirst()).lowercased()] = value }
        var device = "CamNtech MotionWatch" + (properties["=Device"].map { " \($0)" } ?? "")
        if let s = properties["=SerialNo"], !s.isEmpty { device += " #\(s)" }
        if let f = properties["=FirmwareVersion"], !f.isEmpty { device += ", firmware \(f)" }
        metadata["device"] = device
        return metadata
    }
}

/// Just enough XML for the MotionWatch log: finding tags and the text of simple child elements
/// (no entities, no CDATA, which the format does not use).
struct XMLScanner {
    let bytes: [UInt8]
    var position = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// Offset of the next `tag` from `position`; moves `position` past it.
    mutating func find(_ tag: String) -> Int? {
        let needle = Array(tag.utf8)
        guard let at = Self.index(of: needle, in: bytes, from: position) else { return nil }
        position = at + needle.count
        return at
    }

    /// The nearer of two tags.
    mutating func findEither(_ a: String, _ b: String) -> Int? {
        let na = Self.index(of: Array(a.utf8), in: bytes, from: position), nb = Self.index(of: Array(b.utf8), in: bytes, from: position)
        guard let at = [na, nb].compactMap({ $0 }).min() else { return nil }
        position = at + 1
        return at
    }

    /// The text of the first `<name …>text</name>` child.
    func value(of name: String) -> String? {
        let open = Array("<\(name)".utf8), close = Array("</\(name)>".utf8)
        var from = 0
        while let at = Self.index(of: open, in: bytes, from: from) {
            let after = at + open.count
            guard after < bytes.count else { return nil }
            if bytes[after] == UInt8(ascii: ">") || bytes[after] == UInt8(ascii: " ") {
                guard let gt = bytes[after...].firstIndex(of: UInt8(ascii: ">")), let end = Self.index(of: close, in: bytes, from: gt + 1) else { return nil }
                return String(decoding: bytes[(gt + 1)..<end], as: UTF8.self)
            }
            from = after
        }
        return nil
    }

    static func index(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, start >= 0, bytes.count >= needle.count else { return nil }
        var i = start
        let last = bytes.count - needle.count
        while i <= last {
            if bytes[i] == needle[0] {
                var k = 1
                while k < needle.count && bytes[i + k] == needle[k] { k += 1 }
                if k == needle.count { return i }
            }
            i += 1
        }
        return nil
    }
}

extension String {
    /// Without leading and trailing spaces, tabs, carriage returns and line feeds.
    var trimmingXMLSpace: String {
        var s = unicodeScalars[...]
        while let f = s.first, f == " " || f == "\t" || f == "\r" || f == "\n" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" || l == "\n" { s = s.dropLast() }
        return String(String.UnicodeScalarView(s))
    }
}
