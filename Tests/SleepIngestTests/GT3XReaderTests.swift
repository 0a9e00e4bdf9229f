import Foundation
import Testing
import SleepCore
import SleepIngest

@Suite("ActiGraph .gt3x reader")
struct GT3XReaderTests {
    static let example = "agcounts_link_100hz/example.gt3x"

    @Test("example.gt3x decodes to exactly pygt3x's samples (18000 × 3 axes, times 10 ms apart)",
          .enabled(if: ExternalData.available, Comment(rawValue: ExternalData.skipMessage)))
    func matchesPygt3x() throws {
        let path = try #require(ExternalData.url(Self.example)).path
        var buffer = RawSampleBuffer()
        let r = try GT3XReader().read(path: path, options: IngestOptions(), samples: &buffer)
        let text = try #require(try ExternalData.text("agcounts_link_100hz/example_raw_100hz_pygt3x.csv"))
        let rows = TestCSV.rows(text).dropFirst()
        #expect(buffer.count == rows.count)
        // info.txt says TimeZone -05:00:00: local 08:34:00 is 13:34:00Z.
        #expect(r.timeZoneSource == .data)
        #expect(r.timeline.offset(atUTC: 1_686_663_240) == -18_000)
        var matched = 0
        var maxDifference = 0.0
        for (i, row) in rows.enumerated() where i < buffer.count {
            let local = try #require(ISOLocal.seconds(row[0]))
            let sameTime = abs(buffer.timestamps[i] - 18_000 - local) < 1e-6
            let dx = abs(buffer.x[i] - Double(row[1])!), dy = abs(buffer.y[i] - Double(row[2])!), dz = abs(buffer.z[i] - Double(row[3])!)
            maxDifference = max(maxDifference, dx, dy, dz)
            // The CSV holds k/256 g printed with 6 decimals (half-way cases such as 0.0078125 land 5e-7 away).
            let half = 5e-7 + 1e-12
            if sameTime && dx <= half && dy <= half && dz <= half { matched += 1 }
        }
        ReferenceReport.record("example.gt3x vs pygt3x 0.7.1 (samples: time, x, y, z)", matched: matched, total: rows.count,
                               note: "max |Δ| \(maxDifference) g")
        #expect(matched == rows.count)
        #expect(r.quality.nominalSampleRateHz == 100)
        #expect(r.quality.sampleCount == 18_000)
        #expect(r.quality.deviceRangeG == 8)
        #expect(r.quality.idleSleepSecondsFilled == 0)
        #expect(r.gravity == .included)
        #expect(r.device?.contains("TAS1H52220588") == true)
    }

    @Test("example.gt3x read by sleepsta, then ActiGraph counts: all 36 × 3 ActiLife 5-s counts",
          .enabled(if: ExternalData.available, Comment(rawValue: ExternalData.skipMessage)))
    func countsFromGT3X() throws {
        let path = try #require(ExternalData.url(Self.example)).path
        var buffer = RawSampleBuffer()
        _ = try GT3XReader().read(path: path, options: IngestOptions(), samples: &buffer)
        let epochs = try ActiGraphCounts.counts(x: buffer.x, y: buffer.y, z: buffer.z, sampleRateHz: 100, epochSeconds: 5)
        let rows = TestCSV.rows(try #require(try ExternalData.text("agcounts_link_100hz/example5sec_actilife_counts.csv")))
        let column = { (name: String) in rows[0].firstIndex(of: name)! }
        var matched = 0, total = 0
        for (i, row) in rows.dropFirst().enumerated() where i < epochs.count {
            matched += (epochs.axis1[i] == Int(row[column("axis1")])! ? 1 : 0) + (epochs.axis2[i] == Int(row[column("axis2")])! ? 1 : 0)
                + (epochs.axis3[i] == Int(row[column("axis3")])! ? 1 : 0)
            total += 3
        }
        ReferenceReport.record("example.gt3x → sleepsta reader → counts vs ActiLife 6.13.4 5-s counts", matched: matched, total: total)
        #expect(total == 108 && matched == total)
    }

    @Test("the offset the file states wins over --tz; a --tz that disagrees gets one warning; the device clock keeps one offset",
          .enabled(if: ExternalData.available, Comment(rawValue: ExternalData.skipMessage)))
    func zoneOption() throws {
        let path = try #require(ExternalData.url(Self.example)).path
        // America/Chicago agrees with the stated −05:00 in June: no warning.
        let r = try GT3XReader().read(path: path, options: IngestOptions(timeZoneIdentifier: "America/Chicago"))
        #expect(r.timeZoneSource == .data && !r.warnings.contains { $0.contains("disagrees") })
        // 2023-06-13 08:34 at the stated −05:00 = 13:34Z.
        #expect(r.segments[0].series.startSecond == 1_686_663_240)
        let other = try GT3XReader().read(path: path, options: IngestOptions(timeZoneIdentifier: "Europe/Berlin"))
        #expect(other.timeZoneSource == .data && other.timeZoneName == "UTC-05:00")
        #expect(other.warnings.filter { $0.contains("--tz Europe/Berlin disagrees") }.count == 1)
        #expect(other.segments[0].series.startSecond == 1_686_663_240, "the file's offset converts the device clock")
    }
}

/// `2023-06-13T08:34:00.010` → local seconds since 1970 (no offset).
enum ISOLocal {
    static func seconds(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { b -> Double? in
            guard let t = ISOTimestamp.parse(b.baseAddress!, 0, b.count) else { return nil }
            return Double(t.localSeconds) + t.fraction
        }
    }
}
