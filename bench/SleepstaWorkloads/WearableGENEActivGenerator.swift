#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SleepCore

/// Writes the benchmark's signal (``WearableCSVGenerator``: same seed, days and script, g with
/// gravity) as a GENEActiv `.bin`, so that the GENEActiv reader and GGIR's (GGIRread's
/// `readGENEActiv`) are run on a file whose every sample and night is known.
///
/// The layout is the text/hex page format of GENEActiv's instructions ("Decoding .bin files",
/// Activinsights' GENEActiv support pages), as `GENEActivBinReader` and GGIRread's
/// `GENEActivReader.cpp` parse it:
///
/// * a 59-line header of `Key:Value` lines in sections; GGIRread reads it by position (the
///   calibration block after line 47, the page count in `Memory Status`, the first page's time
///   within the first 69 lines), so the sections and their order are those of a device's file;
/// * pages of 300 samples: `Recorded Data`, eight `Key:Value` lines (`Page Time` on the device's
///   local clock, `Temperature`, `Measurement Frequency` …) and one line of 12 hexadecimal digits
///   per sample: x, y, z as 12-bit two's complement, 10 bits of light, the button bit and a
///   reserved bit;
/// * calibration: the readers convert g = (raw × 100 − offset) / gain per axis, so the writer
///   stores raw = round((g × gain + offset) / 100), clamped to 12 bits; a step is 100 / gain
///   ≈ 0.0039 g, the ±8 g range of the device.
///
/// Lines end in CR LF, as the device's Windows software writes them. The device clock is the
/// script's local time (UTC + its offset, `Time Zone:GMT +02:00` for Berlin in summer), as a
/// device configured there records it.
public struct WearableGENEActivGenerator: Sendable {
    var signal: WearableCSVGenerator
    static let samplesPerPage = 300
    /// A device's calibration (gain in LSB·100 per g, offset in LSB·100): near the nominal 25,600
    /// and 0 of a 12-bit ±8 g sensor, a little off on every axis as each device's factory
    /// calibration is, so a reader that drops the offset or swaps the axes shows it.
    static let gain = [25_544, 25_418, 25_731]
    static let offset = [-120, 265, -340]
    static let serial = "042424"
    /// Volts and lux of the light sensor's calibration (light in lux = raw × lux / volts).
    static let volts = 300, lux = 800
    /// The signal has no light channel: a dim constant (10-bit code; 40 × 800 / 300 ≈ 107 lux).
    static let lightCode: UInt64 = 40
    /// Written when the signal carries no temperature: a constant skin temperature, which GGIR's
    /// auto-calibration ignores ("no variance"), as it ignores a file without one.
    static let constantCelsius = 32.0

    /// The signal at the device's rate (the script, seed and days are the signal's own): 50 Hz
    /// by default, a rate GENEActiv devices are set to for sleep (they offer 10 to 100 Hz).
    public init(signal: WearableCSVGenerator, rateHz: Int = 50) {
        // Page times are written to the millisecond: every page must start on a whole one.
        precondition((10...100).contains(rateHz) && (Self.samplesPerPage * 1000) % rateHz == 0,
                     "a GENEActiv rate of 10–100 Hz whose 300-sample pages start on whole milliseconds")
        var s = signal
        s.rateHz = rateHz
        self.signal = s
    }

    /// Writes the file; returns the number of samples (complete pages only: a device writes no
    /// partial page).
    @discardableResult
    public func write(to path: String) throws -> Int {
        guard let out = fopen(path, "wb") else { throw BenchError.io("cannot create \(path)") }
        defer { fclose(out) }
        let rate = signal.rateHz
        let pages = Int(signal.days * 86_400) * rate / Self.samplesPerPage
        let startLocal = signal.startEpochSecond + signal.scriptOffsetSeconds
        var header = Array(Self.header(startLocal: startLocal, days: signal.days, rateHz: rate, pages: pages,
                                       offsetSeconds: signal.scriptOffsetSeconds).utf8)
        guard fwrite(&header, 1, header.count, out) == header.count else { throw BenchError.io("write failed on \(path)") }

        let hexDigits = Array("0123456789ABCDEF".utf8)
        var hex = [UInt8](repeating: 0, count: 12 * Self.samplesPerPage + 2)
        hex[12 * Self.samplesPerPage] = 13; hex[12 * Self.samplesPerPage + 1] = 10
        var inPage = 0
        var page = 0
        var pageCelsius = Self.constantCelsius
        try signal.forEachSample { _, _, x, y, z, celsius in
            guard page < pages else { return }
            if inPage == 0 && signal.temperature { pageCelsius = celsius }
            let word = Self.raw(x, axis: 0) << 36 | Self.raw(y, axis: 1) << 24 | Self.raw(z, axis: 2) << 12
                | Self.lightCode << 2   // button 0, reserved 0
            let at = 12 * inPage
            for d in 0..<12 { hex[at + d] = hexDigits[Int(word >> UInt64(44 - 4 * d) & 0xF)] }
            inPage += 1
            if inPage == Self.samplesPerPage {
                // Sample n of the recording is at n / rate: the page's first is n = 300 · page.
                let pageMilliseconds = Int64(page * Self.samplesPerPage) * 1000 / Int64(rate)
                var lines = Array(Self.pageHeader(sequence: page, localMilliseconds: startLocal * 1000 + pageMilliseconds,
                                                  celsius: pageCelsius, rateHz: rate).utf8)
                guard fwrite(&lines, 1, lines.count, out) == lines.count, fwrite(hex, 1, hex.count, out) == hex.count else {
                    throw BenchError.io("write failed on \(path) (disk full?)")
                }
                page += 1
                inPage = 0
            }
        }
        return page * Self.samplesPerPage
    }

    /// The 12-bit two's-complement code the readers turn back into `g` on `axis`:
    /// (raw × 100 − offset) / gain.
    static func raw(_ g: Double, axis: Int) -> UInt64 {
        let r = Int(((g * Double(gain[axis]) + Double(offset[axis])) / 100).rounded())
        return UInt64(bitPattern: Int64(max(-2048, min(2047, r)))) & 0xFFF
    }

    /// `2024-06-14 02:00:00:000`: GENEActiv's time stamp (milliseconds after a colon), local.
    static func timeText(localMilliseconds ms: Int64) -> String {
        let (seconds, fraction) = ms.quotientAndRemainder(dividingBy: 1000)
        let milliseconds = String(fraction)
        return String(decoding: WearableCSVGenerator.localTime(seconds), as: UTF8.self) + ":"
            + String(repeating: "0", count: 3 - milliseconds.count) + milliseconds
    }

    static func pageHeader(sequence: Int, localMilliseconds: Int64, celsius: Double, rateHz: Int) -> String {
        ["Recorded Data", "Device Unique Serial Code:\(serial)", "Sequence Number:\(sequence)",
         "Page Time:" + timeText(localMilliseconds: localMilliseconds), "Unassigned:",
         "Temperature:" + String(format: "%.1f", celsius), "Battery voltage:4.0", "Device Status:Recording",
         "Measurement Frequency:\(rateHz).0", ""].joined(separator: "\r\n")
    }

    /// The device's 59 header lines (7 sections, each closed by an empty line).
    static func header(startLocal: Int64, days: Double, rateHz: Int, pages: Int, offsetSeconds: Int64) -> String {
        func time(_ local: Int64) -> String { timeText(localMilliseconds: local * 1000) }
        let hours = abs(offsetSeconds) / 3600, minutes = abs(offsetSeconds) % 3600 / 60
        let zone = "GMT " + (offsetSeconds < 0 ? "-" : "+") + String(format: "%02d:%02d", hours, minutes)
        let endLocal = startLocal + Int64(days * 86_400)
        let lines = [
            "Device Identity", "Device Unique Serial Code:\(serial)", "Device Type:GENEActiv", "Device Model:1.2",
            "Device Firmware Version:Ver06.17 15June23", "Calibration Date:" + time(startLocal - 90 * 86_400), "",
            "Device Capabilities", "Accelerometer Range:-8 to 8", "Accelerometer Resolution:0.0039",
            "Accelerometer Units:g", "Light Meter Range:0 to 20000", "Light Meter Resolution:3 to 48",
            "Light Meter Units:lux", "Temperature Sensor Range:0 to 70", "Temperature Sensor Resolution:0.1",
            "Temperature Sensor Units:deg. C", "",
            "Configuration Info", "Measurement Frequency:\(rateHz) Hz", "Measurement Period:\(Int((days * 24).rounded(.up))) Hours",
            "Start Time:" + time(startLocal), "Time Zone:" + zone, "",
            "Trial Info", "Study Centre:", "Study Code:", "Investigator ID:", "Exercise Type:", "Config Operator ID:",
            "Config Time:" + time(startLocal - 3600), "Config Notes:", "Extract Operator ID:",
            "Extract Time:" + time(endLocal + 3600), "Extract Notes:", "",
            "Subject Info", "Device Location Code:left wrist", "Subject Code:sleepsta-bench", "Date of Birth:1900-01-01", "Sex:",
            "Height:", "Weight:", "Handedness Code:", "Subject Notes:", "",
            "Calibration Data", "x gain:\(gain[0])", "x offset:\(offset[0])", "y gain:\(gain[1])", "y offset:\(offset[1])",
            "z gain:\(gain[2])", "z offset:\(offset[2])", "Volts:\(volts)", "Lux:\(lux)", "",
            "Memory Status", "Number of Pages:\(pages)", "",
        ]
        precondition(lines.count == 59, "GGIRread reads the header by line number")
        return lines.joined(separator: "\r\n") + "\r\n"
    }
}
