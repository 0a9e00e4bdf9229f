import Foundation
import Testing
import SleepCore
import SleepIngest

/// The text formats: ActiLife raw CSV, SensorLog, Sensor Logger, Sleep as Android, and gzip.
@Suite("Phone and text formats")
struct PhoneAndTextFormatTests {
    let folder = TemporaryFolder()

    // MARK: ActiLife raw CSV

    @Test("ActiLife raw CSV with Timestamp column: samples on the device clock, across midnight")
    func actiLifeWithTimestamps() throws {
        let (r, s) = try Fixture.samples(ActiLifeRawCSVReader(), "spec_actilife_raw_timestamps.csv", tz: "Europe/Berlin")
        #expect(s.count == 30 * 120)
        // 6/14/2024 23:59:00.000 Berlin (CEST, +02:00) = 21:59:00Z; the third row is 23:59:00.066.
        #expect(s.timestamps[0] == 1_718_402_340)
        #expect(abs(s.timestamps[2] - 1_718_402_340.066) < 1e-9)
        #expect(s.x[0] == 0.006 && s.y[0] == 0.023 && s.z[0] == 0.978)
        #expect(r.timeZoneSource == .option)
        #expect(r.quality.nominalSampleRateHz == 30)
        #expect(r.quality.deviceRangeG == 6)
        #expect(r.gravity == .included)
        #expect(r.device == "ActiGraph GT3X+ NEO1F99999999, firmware 3.2.1")
    }

    @Test("ActiLife raw CSV without Timestamp column: row k at start + k / rate")
    func actiLifePlain() throws {
        let (r, s) = try Fixture.samples(ActiLifeRawCSVReader(), "spec_actilife_raw_plain.csv")
        #expect(s.count == 30 * 60)
        #expect(s.timestamps[0] == 1_718_409_540)                      // 23:59:00 taken as UTC
        #expect(abs(s.timestamps[30] - 1_718_409_541) < 1e-9)
        #expect(r.timeZoneSource == .assumedUTC)
        #expect(r.warnings.contains { $0.contains("no time zone") })
    }

    @Test("cut inside the last row (plain or gzip, ActiLife raw CSV and SensorLog): that row dropped with a warning naming its line, the rows before it read as the file of them; a damaged row with its line end still refused",
          arguments: [("ActiLife", "spec_actilife_raw_timestamps.csv"), ("SensorLog", "spec_sensorlog.csv")])
    func cutShortLastRow(_ format: String, _ fixture: String) throws {
        let reader: any RawSampleReader = format == "ActiLife" ? ActiLifeRawCSVReader() : SensorLogCSVReader()
        func read(_ path: String) throws -> (Recording, RawSampleBuffer) {
            var s = RawSampleBuffer()
            let r = try reader.read(path: path, options: IngestOptions(timeZoneIdentifier: "Europe/Berlin"), samples: &s)
            return (r, s)
        }
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Fixture.path(fixture))))
        let lastRow = bytes[..<(bytes.count - 1)].lastIndex(of: 10)! + 1
        let lines = bytes[..<lastRow].filter { $0 == 10 }.count
        let (reference, referenceSamples) = try read(folder.write("rows-\(fixture)", String(decoding: bytes[..<lastRow], as: UTF8.self)))
        let keep = bytes[lastRow...].firstIndex(of: 44)! - lastRow + 3   // inside the second field
        let cutPath = folder.write("cut-\(fixture)", String(decoding: bytes[..<(lastRow + keep)], as: UTF8.self))
        let (cut, cutSamples) = try read(cutPath)
        #expect(cut.warnings == reference.warnings + ["file ends inside its last row (line \(lines + 1): the \(keep) bytes from offset \(lastRow) have no line end: cut short): that incomplete row was dropped; the rows before it are read"], "\(cut.warnings)")
        #expect(cutSamples.timestamps == referenceSamples.timestamps && cutSamples.x == referenceSamples.x && cutSamples.z == referenceSamples.z)
        #expect(cut.quality == reference.quality && cutSamples.count > 100)
        // The same file gzip-compressed and its stream cut inside that row: the same rows, the stream named.
        let gz = cutPath + ".gz"
        let zipped = Process()
        zipped.executableURL = URL(fileURLWithPath: "/bin/sh")
        zipped.arguments = ["-c", "gzip -c '\(Fixture.path(fixture))' | head -c $(( $(gzip -c '\(Fixture.path(fixture))' | wc -c) - 30 )) > '\(gz)'"]
        try zipped.run(); zipped.waitUntilExit()
        let (cutGz, cutGzSamples) = try read(gz)
        #expect(cutGz.warnings.last?.contains("without its end-of-stream marker (cut short)") == true, "\(cutGz.warnings)")
        let n = cutGzSamples.count
        #expect(n > cutSamples.count / 2 && n <= cutSamples.count && cutGzSamples.timestamps == Array(cutSamples.timestamps.prefix(n)))
        // Damage, not a cut: the same incomplete row with its line end is refused, naming the line.
        let damaged = folder.write("damaged-\(fixture)", String(decoding: bytes[..<(lastRow + keep)], as: UTF8.self) + "\n")
        let error = #expect(throws: IngestError.self) { try read(damaged) }
        #expect(error?.line == lines + 1, "\(String(describing: error))")
    }

    @Test("a gzip-compressed ActiLife CSV reads exactly like the plain file, detected through the .gz")
    func actiLifeGzip() throws {
        let (_, plain) = try Fixture.samples(ActiLifeRawCSVReader(), "spec_actilife_raw_timestamps.csv")
        let path = Fixture.path("spec_actilife_raw_timestamps.csv.gz")
        let reader = try FormatDetector.reader(forPath: path)
        #expect(type(of: reader).format == .actiLifeRawCSV)
        var zipped = RawSampleBuffer()
        let r = try ActiLifeRawCSVReader().read(path: path, options: IngestOptions(), samples: &zipped)
        #expect(zipped.timestamps == plain.timestamps && zipped.x == plain.x && zipped.y == plain.y && zipped.z == plain.z)
        #expect(r.compression == "gzip")
        #expect(FormatDetector.isCandidate(fileName: "night.csv.gz") && FormatDetector.isCandidate(fileName: "p1.cwa.gz"))
    }

    // MARK: SensorLog (iOS, CoreMotion columns)

    @Test("SensorLog: motionUserAcceleration in g, loggingTime with offset; gravity removed")
    func sensorLog() throws {
        let (r, s) = try Fixture.samples(SensorLogCSVReader(), "spec_sensorlog.csv")
        #expect(try type(of: FormatDetector.reader(forPath: Fixture.path("spec_sensorlog.csv"))).format == .sensorLogCSV)
        #expect(s.count == 600)
        #expect(s.timestamps[0] == 1_718_405_400)                     // 2024-06-15 00:50:00.000 +0200
        #expect(abs(s.timestamps[1] - 1_718_405_400.1) < 1e-9)
        #expect(r.gravity == .removed)
        #expect(r.timeZoneSource == .data)
        #expect(r.timeline.offset(atUTC: 1_718_405_400) == 7200)
        #expect(r.quality.nominalSampleRateHz == 10)
    }

    // MARK: Sensor Logger (iOS/Android)

    @Test("Sensor Logger: ns timestamps, m/s² converted to g; Accelerometer.csv without gravity, TotalAcceleration.csv with")
    func sensorLogger() throws {
        let (user, u) = try Fixture.samples(SensorLoggerCSVReader(), "sensor_logger/Accelerometer.csv")
        let (total, t) = try Fixture.samples(SensorLoggerCSVReader(), "sensor_logger/TotalAcceleration.csv")
        #expect(u.count == 1500 && t.count == 1500)
        #expect(abs(u.timestamps[0] - 1_718_405_400.123456789) < 1e-6)
        #expect(abs(u.timestamps[1] - u.timestamps[0] - 0.02) < 1e-6)
        #expect(user.gravity == .removed && total.gravity == .included)
        // Same movement, 1 g apart on z (the generator adds 9.80665 m/s² to TotalAcceleration's z).
        #expect(abs((t.z[10] - u.z[10]) - 1) < 1e-6)
        #expect(abs(u.x[10] - t.x[10]) < 1e-12)
        #expect(user.units == "g")
    }

    @Test("Sensor Logger's Gravity.csv and values in g instead of m/s² are refused")
    func sensorLoggerRefusals() throws {
        let gravity = folder.write("Gravity.csv", "time,seconds_elapsed,z,y,x\n1718405400000000000,0,9.8,0,0\n")
        #expect(throws: IngestError.self) { _ = try SensorLoggerCSVReader().read(path: gravity, options: IngestOptions()) }
        var rows = "time,seconds_elapsed,z,y,x\n"
        for i in 0..<50 { rows += "\(1_718_405_400_000_000_000 + i * 20_000_000),\(Double(i) * 0.02),0.98,0.01,0.02\n" }
        let inG = folder.write("TotalAcceleration.csv", rows)
        do {
            _ = try SensorLoggerCSVReader().read(path: inG, options: IngestOptions())
            Issue.record("values in g were accepted as m/s²")
        } catch {
            #expect(error.message.contains("expected acceleration in m/s²"), "\(error)")
            #expect(error.line == 2)
        }
    }

    // MARK: Sleep as Android

    @Test("Sleep as Android: a tracked record becomes a segment of 5-min bins; the hand-entered one is skipped")
    func sleepAsAndroid() throws {
        let path = Fixture.path("spec_sleep-export.csv")
        #expect(try type(of: FormatDetector.reader(forPath: path)).format == .sleepAsAndroidCSV)
        let r = try SleepAsAndroidReader().read(path: path, options: IngestOptions())
        #expect(r.segments.count == 1)
        let segment = r.segments[0]
        // Id 1718404980000 ms; 7.5 h; 90 bins of 300 s.
        #expect(segment.series.startSecond == 1_718_404_980)
        #expect(segment.series.count == 27_000)
        #expect(segment.series.sourceResolutionSeconds == 300)
        #expect(segment.series.movement[0] == 2.5 && abs(segment.series.movement[300] - 0.43) < 1e-6)   // bins 0 and 1: "2.50", "0.43"
        #expect(segment.label == "1718404980000")
        #expect(segment.postBedSurvey.contains(SurveyAnswer(question: "rating (0–5)", answer: "3.5")))
        #expect(segment.postBedSurvey.contains(SurveyAnswer(question: "comment", answer: "#home \"quiet\" night")))
        #expect(segment.events.count == 5)
        #expect(segment.events.first == RecordingEvent(label: "DEEP_START", utcSecond: 1_718_406_780))
        #expect(segment.events.last == RecordingEvent(label: "LUX", utcSecond: 1_718_405_580, value: "12.5"))
        #expect(r.timeZoneName == "Europe/Berlin" && r.timeZoneSource == .data)
        #expect(r.warnings.contains { $0.contains("added by hand") })
    }

    @Test("Sleep as Android bad input names the line", arguments: [
        ("Id,Tz,From,To,Sched,Hours,Rating,Comment,Framerate,Snore,Noise,Cycles,DeepSleep,LenAdjust,Geo,\"1:00\",\"1:05\"\n", 1, "truncated"),
        ("Id,Tz,From,To,Sched,Hours,Rating,Comment,Framerate,Snore,Noise,Cycles,DeepSleep,LenAdjust,Geo,\"1:00\",\"1:05\"\n\"abc\",\"UTC\",\"\",\"\",\"\",\"1.0\",\"0\",\"\",\"0\",\"0\",\"0\",\"3\",\"0\",\"0\",\"\",\"1\",\"2\"\n", 2, "Id 'abc'"),
        ("Id,Tz,From,To,Sched,Hours,Rating,Comment,Framerate,Snore,Noise,Cycles,DeepSleep,LenAdjust,Geo,\"1:00\",\"1:05\"\n\"1718404980000\",\"UTC\",\"\",\"\",\"\",\"1.0\",\"0\",\"\",\"0\",\"0\",\"0\",\"3\",\"0\",\"0\",\"\",\"1\",\"x\"\n", 2, "expected a number"),
        // Found by the mutation fuzzer: finite as a Double, infinite as the Float the series stores.
        ("Id,Tz,From,To,Sched,Hours,Rating,Comment,Framerate,Snore,Noise,Cycles,DeepSleep,LenAdjust,Geo,\"1:00\",\"1:05\"\n\"1718404980000\",\"UTC\",\"\",\"\",\"\",\"1.0\",\"0\",\"\",\"0\",\"0\",\"0\",\"3\",\"0\",\"0\",\"\",\"1\",\"1e39\"\n", 2, "expected a number from 0 to 1000000"),
        ("Id,Tz,From,To,Sched,Hours,Rating,Comment,Framerate,Snore,Noise,Cycles,DeepSleep,LenAdjust,Geo,\"1:00\",\"1:05\"\n\"1718404980000\",\"Mars/Base\",\"\",\"\",\"\",\"1.0\",\"0\",\"\",\"0\",\"0\",\"0\",\"3\",\"0\",\"0\",\"\",\"1\",\"2\"\n", 2, "unknown time zone"),
        ("Id,Tz,From,To,Sched,Hours,Rating,Comment,Framerate,Snore,Noise,Cycles,DeepSleep,LenAdjust,Geo,\"1:00\",\"1:05\"\n\"1718404980000\",\"UTC\",\"\",\"\",\"\",\"1.0\",\"0\",\"\",\"0\",\"0\",\"0\",\"3\",\"0\",\"0\",\"\",\"1\",\"2\"\ngarbage here\n", 3, "expected a record header"),
        ("Id,Tz,From,To,Sched,Hours,Rating,Comment,Framerate,Snore,Noise,Cycles,DeepSleep,LenAdjust,Geo,\"7:00\"\n\"1718404980000\",\"UTC\",\"\",\"\",\"\",\"8.0\",\"0\",\"Manually added\",\"0\",\"-1\",\"-1\",\"-1\",\"-1\",\"-1\",\"\",\"0.0\"\n", 2, "added by hand"),
    ])
    func sleepAsAndroidBadInput(text: String, line: Int, message: String) {
        let path = folder.write("sleep-export.csv", text)
        do {
            _ = try SleepAsAndroidReader().read(path: path, options: IngestOptions())
            Issue.record("accepted \(text.debugDescription)")
        } catch {
            #expect(error.line == line, "\(error)")
            #expect(error.message.contains(message), "\(error)")
        }
    }
}
