import Foundation
import SleepCore

/// ActiGraph's per-device calibration ("calibration method 2") that turns raw accelerometer
/// counts (LSB) into g: `a = S · (raw − o)`, where `o` is the offset vector and `S` the symmetric
/// sensitivity matrix built from the device's `calibration.json` (kept inside an uncalibrated
/// `.gt3x`, or in the `.agdc` file ActiLife writes beside an LSB export):
///
///     S_ii = 1 / (sensitivityII × 0.01)
///     S_ij = 1 / (sensitivityIJ × 0.01 + 250) − 0.004        (i ≠ j)
///
/// each parameter taken at the recording's sample rate (`offsetX_32`, `sensitivityXY_32` … for
/// 32 Hz). This is the transformation ActiGraph's own reader `pygt3x` (0.7.1) applies; its test
/// data, an LSB export with its `.agdc` and ActiLife's g export of the same samples, agree with it
/// to 1e-14 g.
public struct ActiGraphCalibrationV2: Sendable, Equatable {
    public var offset: (Double, Double, Double)
    /// Rows of S.
    public var matrix: [[Double]]

    public static func == (a: Self, b: Self) -> Bool {
        a.offset == b.offset && a.matrix == b.matrix
    }

    /// From the parameters of `calibration.json` at `rateHz`; throws the name of a missing one.
    public init(parameters: [String: Double], rateHz: Int) throws(CalibrationProblem) {
        func p(_ name: String) throws(CalibrationProblem) -> Double {
            guard let v = parameters["\(name)_\(rateHz)"], v.isFinite else { throw .missing("\(name)_\(rateHz)") }
            return v
        }
        offset = (try p("offsetX"), try p("offsetY"), try p("offsetZ"))
        let xx = try p("sensitivityXX"), yy = try p("sensitivityYY"), zz = try p("sensitivityZZ")
        let xy = try p("sensitivityXY"), xz = try p("sensitivityXZ"), yz = try p("sensitivityYZ")
        func cross(_ s: Double) -> Double { 1 / (s * 0.01 + 250) - 0.004 }
        matrix = [[1 / (xx * 0.01), cross(xy), cross(xz)],
                  [cross(xy), 1 / (yy * 0.01), cross(yz)],
                  [cross(xz), cross(yz), 1 / (zz * 0.01)]]
        // Accelerometers resolve 50 to 1,000 counts per g; a cross-axis term is a small fraction
        // of that. Anything else would turn counts into nonsense (or infinities) silently.
        for i in 0..<3 {
            let d = matrix[i][i]
            guard d.isFinite, d >= 0.001, d <= 0.02 else {
                throw .implausible("a sensitivity of \(1 / d) counts per g on axis \(["X", "Y", "Z"][i]) (expected 50 to 1,000)")
            }
            for j in 0..<3 where j != i {
                guard matrix[i][j].isFinite, abs(matrix[i][j]) < d else {
                    throw .implausible("a cross-axis sensitivity (\(["X", "Y", "Z"][i])\(["X", "Y", "Z"][j])) as large as the axis's own")
                }
            }
        }
        guard offset.0.isFinite, offset.1.isFinite, offset.2.isFinite else { throw .implausible("an offset that is not a finite number") }
    }

    /// Raw counts (LSB) to g.
    @inline(__always)
    public func apply(_ x: Double, _ y: Double, _ z: Double) -> (Double, Double, Double) {
        let a = x - offset.0, b = y - offset.1, c = z - offset.2
        return (matrix[0][0] * a + matrix[0][1] * b + matrix[0][2] * c,
                matrix[1][0] * a + matrix[1][1] * b + matrix[1][2] * c,
                matrix[2][0] * a + matrix[2][1] * b + matrix[2][2] * c)
    }

    public enum CalibrationProblem: Error, Sendable, Equatable {
        case missing(String)
        case implausible(String)
        case notJSON
        case method(String)

        public var text: String {
            switch self {
            case .missing(let name): return "calibration.json has no '\(name)' (no calibration at this sample rate)"
            case .implausible(let what): return "calibration.json holds \(what)"
            case .notJSON: return "calibration.json is not a JSON object"
            case .method(let m): return "calibration method \(m) is not ActiGraph's method 2, the one sleepsta applies"
            }
        }
    }

    /// The parsed `calibration.json`: whether the samples are already calibrated, and if not, the
    /// calibration at `rateHz`.
    public static func parse(json bytes: [UInt8], rateHz: Int) throws(CalibrationProblem) -> ActiGraphCalibrationV2? {
        var data = bytes
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data.removeFirst(3) }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(data))) as? [String: Any] else { throw .notJSON }
        if let calibrated = object["isCalibrated"] as? Bool, calibrated { return nil }
        if let method = object["calibrationMethod"], "\(method)" != "2" { throw .method("\(method)") }
        var numbers: [String: Double] = [:]
        // Every number (a value of exactly 0 or 1 bridges to Bool too, so booleans are not filtered
        // out here: only the named parameters are read).
        for (k, v) in object { if let n = v as? NSNumber { numbers[k] = n.doubleValue } }
        return try ActiGraphCalibrationV2(parameters: numbers, rateHz: rateHz)
    }

    /// The calibration of an ActiLife `.agdc` file (a zip with `calibration.json` and `info.txt`),
    /// and the serial number its `info.txt` states.
    package static func agdc(path: String, rateHz: Int) throws(IngestError) -> (calibration: ActiGraphCalibrationV2, serial: String) {
        let archive = try ZipArchive(path: path)
        try archive.requireAtMostOne(of: ["calibration.json", "info.txt"], kind: ".agdc")
        guard let entry = archive.entry(named: "calibration.json") else {
            throw IngestError(file: path, byteOffset: archive.directoryOffset, message: "no calibration.json in the .agdc archive")
        }
        let bytes = try archive.open(entry).readAll(limit: 1 << 20, path: path)
        var serial = ""
        if let info = archive.entry(named: "info.txt") {
            serial = GT3XReader.Info.keyValues(try archive.open(info).readAll(limit: 1 << 20, path: path))["Serial Number"] ?? ""
        }
        let parsed: ActiGraphCalibrationV2?
        do throws(CalibrationProblem) { parsed = try parse(json: bytes, rateHz: rateHz) }
        catch { throw IngestError(file: path, path: "calibration.json", message: error.text) }
        guard let parsed else {
            throw IngestError(file: path, path: "calibration.json", message: "calibration.json says the samples are already calibrated (isCalibrated true): it holds no calibration to apply")
        }
        return (parsed, serial)
    }
}
