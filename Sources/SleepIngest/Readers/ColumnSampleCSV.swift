import SleepCore

/// The streaming core shared by the CSV readers whose samples sit in named columns of a wider
/// table (ActiLife raw export, SensorLog, Sensor Logger): after `headerLines` lines it takes the
/// time and x, y, z columns of every row, converts units to g, and feeds the ``SampleIntake``.
/// Byte-level parsing with ``FastNumber``, like ``RawCSVReader``, because these files run to
/// gigabytes for week-long recordings.
struct ColumnSampleCSV<Sink: SampleSink>: LineConsumer {
    /// How a row's time is written.
    enum TimeColumn {
        /// No time column: row k is at `startLocal + k / rateHz` on the device clock.
        case implicit(startLocal: Double, rateHz: Double)
        /// Integer nanoseconds since 1970 UTC (Sensor Logger's `time`).
        case epochNanoseconds(column: Int)
        /// ISO 8601 with a UTC offset (SensorLog's `loggingTime(txt)`); offsets become the timeline.
        case isoWithOffset(column: Int)
        /// ActiLife's `M/d/yyyy HH:mm:ss.fff` (date order from the header) on the device clock.
        case actiLife(column: Int, order: NumericDateOrder)
    }

    let path: String
    let formatName: String
    let headerLines: Int
    let time: TimeColumn
    let x: Int, y: Int, z: Int
    /// Multiplier to g (1, or 1/9.80665 for m/s²).
    let toG: Double
    var intake: SampleIntake<Sink>
    /// Raw counts (LSB) to g with the device's calibration (an ActiLife LSB export); nil: values are in g already.
    var calibration: ActiGraphCalibrationV2? = nil
    /// Rows of exactly 0, 0, 0 are taken as not measured and get the previous row's sample
    /// (ActiGraph idle-sleep mode in a CSV that did not fill it, as ActiLife and GGIR fill it).
    var fillZeroRows = false
    /// Rows filled so, and rows of zeros before the first measured row (nothing to fill them
    /// with: left out, their time kept for the rows after them).
    var zeroRowsFilled = 0
    var zeroRowsDropped = 0
    private var previous: (Double, Double, Double)? = nil
    /// Raw counts beyond this are damage, not acceleration (ActiGraph's ADCs are 12 to 16 bits).
    static var implausibleCounts: Double { 1_000_000 }
    /// Device clock to UTC (ActiLife, implicit times); nil for UTC-based times.
    let clock: DeviceClock?
    var offset: Int64? = nil
    var rows = 0
    var lastLine = 0
    private var fields = CSVFields()
    private let minimumFields: Int
    // Offsets stated by ISO timestamps.
    var initialStatedOffset: Int32? = nil
    var statedOffset: Int32? = nil
    var offsetTransitions: [UTCOffsetTimeline.Transition] = []

    init(path: String, formatName: String, headerLines: Int, time: TimeColumn, x: Int, y: Int, z: Int, toG: Double,
         intake: SampleIntake<Sink>, clock: DeviceClock?) {
        self.path = path; self.formatName = formatName; self.headerLines = headerLines; self.time = time
        self.x = x; self.y = y; self.z = z; self.toG = toG; self.intake = intake; self.clock = clock
        var needed = max(x, y, z)
        switch time {
        case .epochNanoseconds(let c), .isoWithOffset(let c), .actiLife(let c, _): needed = max(needed, c)
        case .implicit: break
        }
        minimumFields = needed + 1
    }

    mutating func line(_ p: UnsafeMutablePointer<UInt8>, _ start: Int, _ end: Int, number: Int) throws(IngestError) {
        lastLine = number
        if number <= headerLines || start == end { return }
        fields.split(p, start, end)
        guard fields.count >= minimumFields else {
            throw IngestError(file: path, line: number, message: "row has \(fields.count) fields; expected at least \(minimumFields) (\(formatName))")
        }
        let t = try timestamp(p, line: number)
        var gx = try value(p, x, "x", line: number), gy = try value(p, y, "y", line: number), gz = try value(p, z, "z", line: number)
        if fillZeroRows && gx == 0 && gy == 0 && gz == 0 {
            guard let last = previous else { zeroRowsDropped += 1; rows += 1; return }
            (gx, gy, gz) = last
            zeroRowsFilled += 1
        } else if let calibration {
            (gx, gy, gz) = calibration.apply(gx, gy, gz)
            let limit = RawCSVReader.implausibleG
            if !(abs(gx) <= limit && abs(gy) <= limit && abs(gz) <= limit) {
                let (axis, g) = !(abs(gx) <= limit) ? ("x", gx) : !(abs(gy) <= limit) ? ("y", gy) : ("z", gz)
                throw IngestError(file: path, line: number, message: "\(axis) = \(g) g after the device's calibration is not a plausible acceleration (limit ±\(Int(RawCSVReader.implausibleG)) g): a damaged row or the wrong calibration file")
            }
        }
        previous = (gx, gy, gz)
        do { try intake.add(timestamp: t, x: gx, y: gy, z: gz) }
        catch {
            var refused = IngestError(file: path, line: number, message: IngestError.message(for: error))
            refused.sampleRefused = true
            throw refused
        }
        rows += 1
    }

    /// `mutating` only so that the call does not copy `self`: called from ``line(_:_:_:number:)``
    /// (a mutating context) as a non-mutating method, it copied all 2.5 KB of this reader (its
    /// intake and the sink inside) for every field, three times a row: a quarter of an ActiLife
    /// raw CSV's read.
    @inline(__always)
    mutating func value(_ p: UnsafeMutablePointer<UInt8>, _ k: Int, _ axis: String, line: Int) throws(IngestError) -> Double {
        let (a, b) = fields.bounds[k]
        switch FastNumber.parse(p, a, b) {
        case .number(let v):
            let g = v * toG
            if calibration == nil, abs(g) > RawCSVReader.implausibleG {
                throw IngestError(file: path, line: line, message: "\(axis) = \(v) is not a plausible acceleration (limit ±\(Int(RawCSVReader.implausibleG)) g): wrong units or a damaged row")
            }
            if calibration != nil, abs(g) > Self.implausibleCounts {
                throw IngestError(file: path, line: line, message: "\(axis) = \(v) counts is not a plausible raw accelerometer value (limit ±\(Int(Self.implausibleCounts))): a damaged row")
            }
            return g
        case .notFinite:
            throw IngestError(file: path, line: line, message: "\(axis) is NaN or infinite; expected a finite number")
        case .invalid:
            throw IngestError(file: path, line: line, message: "\(axis) = '\(fields.string(p, k).prefix(40))' is not a number")
        }
    }

    mutating func timestamp(_ p: UnsafeMutablePointer<UInt8>, line: Int) throws(IngestError) -> Double {
        switch time {
        case .implicit(let startLocal, let rate):
            let local = startLocal + Double(rows) / rate
            return local - Double(deviceOffset(local))
        case .epochNanoseconds(let c):
            let (a, b) = fields.bounds[c]
            var v: Int64 = 0
            var i = a
            guard b > a else { throw badTime(p, c, line, "integer nanoseconds since 1970") }
            while i < b {
                let d = Int64(p[i]) - 48
                guard d >= 0 && d <= 9, v < Int64.max / 10 - 10 else { throw badTime(p, c, line, "integer nanoseconds since 1970") }
                v = v * 10 + d
                i += 1
            }
            return Double(v / 1_000_000_000) + Double(v % 1_000_000_000) * 1e-9
        case .isoWithOffset(let c):
            let (a, b) = fields.bounds[c]
            guard let ts = ISOTimestamp.parse(p, a, b), let o = ts.offsetSeconds else {
                throw badTime(p, c, line, "a date and time with a UTC offset, e.g. 2024-06-15 00:50:00.000 +0200")
            }
            let utc = ts.localSeconds - Int64(o)
            if initialStatedOffset == nil { initialStatedOffset = o }
            else if statedOffset != o { offsetTransitions.append(.init(utcSecond: utc, offsetSeconds: o)) }
            statedOffset = o
            return Double(utc) + ts.fraction
        case .actiLife(let c, let order):
            let (a, b) = fields.bounds[c]
            guard let local = ActiLifeTimeText.localSeconds(p, a, b, order: order) else {
                throw badTime(p, c, line, "ActiLife's date and time, e.g. 6/14/2024 23:59:00.000")
            }
            return local - Double(deviceOffset(local))
        }
    }

    mutating func deviceOffset(_ local: Double) -> Int64 {
        if let offset { return offset }
        let o = clock?.offset(atFirstLocalSecond: Int64(local.rounded(.down))) ?? 0
        offset = o
        return o
    }

    func badTime(_ p: UnsafeMutablePointer<UInt8>, _ c: Int, _ line: Int, _ expected: String) -> IngestError {
        IngestError(file: path, line: line, message: "time '\(fields.string(p, c).prefix(40))' is not valid; expected \(expected)")
    }

    /// The timeline of ISO offsets seen, if any.
    var statedTimeline: UTCOffsetTimeline? {
        initialStatedOffset.map { UTCOffsetTimeline(initialOffsetSeconds: $0, transitions: offsetTransitions) }
    }

    /// Refuses files with no rows and files whose mean |a| says the unit is wrong.
    func checkUnits(expectedUnit: String) throws(IngestError) {
        guard rows > 0 else {
            throw IngestError(file: path, line: max(lastLine, 1), message: lastLine == 0 ? "empty file: expected \(formatName)" : "no sample rows after the header: expected \(formatName)")
        }
        guard rows > zeroRowsDropped else {
            throw IngestError(file: path, line: headerLines + 1, message: "every row is 0, 0, 0: nothing was measured (\(formatName))")
        }
        let m = intake.meanNorm
        if expectedUnit == "g" && m > 6 && m < 14 {
            throw IngestError(file: path, line: headerLines + 1, message: "mean |a| is \(String(format1: m)), which is gravity in m/s²; expected acceleration in g")
        }
        if expectedUnit == "m/s²" && m > 0.06 && m < 0.14 {
            throw IngestError(file: path, line: headerLines + 1, message: "mean |a| is \(String(format1: m * 9.80665)) m/s², which is gravity in g; expected acceleration in m/s²")
        }
    }
}

/// Positions of year, month and day in a numeric date (`M/d/yyyy` → month, day, year).
struct NumericDateOrder: Equatable, Sendable {
    var year: Int, month: Int, day: Int
    /// From an ActiLife/.NET format string such as `M/d/yyyy`, `dd.MM.yyyy`, `yyyy-MM-dd`.
    init?(format: String) {
        var order: [Character] = []
        for ch in format where "yMd".contains(ch) && order.last != ch { order.append(ch) }
        guard order.count == 3, let y = order.firstIndex(of: "y"), let m = order.firstIndex(of: "M"), let d = order.firstIndex(of: "d") else { return nil }
        year = y; month = m; day = d
    }
}

/// ActiLife's time stamps on the device clock.
enum ActiLifeTimeText {
    /// `6/14/2024 23:59:00.033` (date order from the header; `.` or `,` before the fraction).
    static func localSeconds(_ p: UnsafePointer<UInt8>, _ a: Int, _ b: Int, order: NumericDateOrder) -> Double? {
        var numbers: [Int] = []
        numbers.reserveCapacity(6)
        var i = a
        var fraction = 0.0
        while i < b && numbers.count < 6 {
            guard p[i] >= 48 && p[i] <= 57 else { return nil }
            var v = 0, digits = 0
            while i < b && p[i] >= 48 && p[i] <= 57 && digits < 5 { v = v * 10 + Int(p[i]) - 48; i += 1; digits += 1 }
            numbers.append(v)
            if i < b {
                let sep = p[i]
                if numbers.count == 6 { break }
                if numbers.count == 3 ? sep != 32 && sep != 84 : !(sep == 47 || sep == 45 || sep == 46 || sep == 58) { return nil }
                i += 1
            }
        }
        guard numbers.count == 6 else { return nil }
        if i < b {
            guard p[i] == 46 || p[i] == 44 else { return nil }
            i += 1
            var scale = 0.1
            while i < b, p[i] >= 48 && p[i] <= 57 { fraction += Double(p[i] - 48) * scale; scale /= 10; i += 1 }
            guard i == b else { return nil }
        }
        let date = [numbers[0], numbers[1], numbers[2]]
        let (year, month, day) = (date[order.year], date[order.month], date[order.day])
        let (h, m, s) = (numbers[3], numbers[4], numbers[5])
        guard (1...12).contains(month), (1...31).contains(day), year >= 1900, h < 24, m < 60, s < 61 else { return nil }
        let days = CivilDate(year: year, month: month, day: day).daysSinceEpoch
        return Double(days * 86_400 + Int64(h * 3600 + m * 60 + s)) + fraction
    }
}
