import SleepCore

/// The unit of acceleration in a raw `timestamp,x,y,z` CSV, which states none.
///
/// With gravity the unit shows itself: |a| at rest is 1 in g and 9.81 in m/s² (the reader refuses
/// the latter with the factor to divide by). Without gravity (user acceleration) it does not, and a
/// file in m/s² read as g makes every movement 9.81× too large. `auto` therefore looks at the
/// typical second of a night, which is still: a phone's user acceleration at rest is sensor noise
/// of about 0.001–0.003 g mean |axis| per second (the bundled nights: 0.0012 g), i.e. 0.01–0.03
/// m/s². When the median per-second movement lies above ``quietFloorThreshold`` (0.005, between
/// the two ranges) the file is taken to be in m/s² and converted, with a warning; `--units g` or
/// `--units m/s2` decides instead. The phone method's sleep/wake does not depend on the unit (its
/// threshold is relative to the night); charts, exports and movement sums do.
public enum AccelerationUnits: String, Sendable, CaseIterable {
    case auto
    case g
    case metresPerSecondSquared = "m/s2"

    public static let standardGravity = 9.80665
    public static let quietFloorThreshold = 0.005

    /// The median per-second movement over the seconds with data.
    public static func quietFloor(_ recording: Recording) -> Double? {
        var values: [Float] = []
        for segment in recording.segments {
            let s = segment.series
            for i in 0..<s.count where s.sampleCounts[i] > 0 && s.movement[i].isFinite { values.append(s.movement[i]) }
        }
        guard values.count >= 60 else { return nil }
        values.sort()
        return Double(values[values.count / 2])
    }

    /// Converts a gravity-free raw CSV from m/s² to g when `auto` finds its noise floor on the m/s²
    /// scale; records the unit and warns. Under `--units m/s2` the reader divided every axis value
    /// as it parsed it (``IngestOptions/rawCSVAxisScale``; gravity included or not): this records
    /// that. Other formats state their unit.
    public static func resolve(_ recording: inout Recording, option: AccelerationUnits) {
        guard recording.format == .rawCSV else { return }
        if option == .metresPerSecondSquared {
            recording.units = "m/s² (converted to g)"
            recording.warnings.append("acceleration read as m/s² and divided by \(standardGravity) (--units m/s2)")
            return
        }
        guard recording.gravity != .included else { return }
        let floor = quietFloor(recording)
        let convert: Bool
        switch option {
        case .g: return
        case .metresPerSecondSquared: return
        case .auto: convert = (floor ?? 0) > quietFloorThreshold
        }
        guard convert else { return }
        for k in recording.segments.indices {
            var s = recording.segments[k].series
            let f = Float(1 / standardGravity)
            s.movement = s.movement.map { $0 * f }
            s.legacyMovement = s.legacyMovement.map { $0 * f }
            recording.segments[k].series = s
        }
        recording.units = "m/s² (converted to g)"
        let why = option == .auto
            ? String(format: "the median second moves %.4f (per-second mean |axis|): the noise floor of user acceleration in m/s², not g (0.001–0.003 g); use --units g if the file is in g", floor ?? 0)
            : "--units m/s2"
        recording.warnings.append("acceleration read as m/s² and divided by \(standardGravity) (\(why))")
    }
}
