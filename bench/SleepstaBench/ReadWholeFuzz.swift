import Foundation
import SleepCore
import SleepIngest
import SleepstaWorkloads

/// `sleepsta-bench fuzz --target readwhole`: hostile text shapes for every format read whole —
/// the participants table, the sleep diary, the text epoch exports (Actiware, ActiLife, ActTrust,
/// UK Biobank, biobankAccelerometerAnalysis, QUT, MMASH) and Actiwatch `.AWD` — each a
/// plausible first line followed by a shape repeated up to 8 MiB: empty lines, line ends of every
/// kind, commas and semicolons, quotes that never close, long fields, one endless line, invalid
/// UTF-8, NUL bytes, rows of many short fields. Each file is written and read by its reader as
/// `run` reads it; each read must return or refuse with an ``IngestError``.
///
/// Memory: a read-whole reader holds the file's bytes and its split lines, at most 13 × the file
/// size + 16 MiB (``ReadWholeBudget``). The fuzz keeps the text it generated besides (its string
/// and the bytes written: 2 × the size), so the process's peak resident memory must stay within
/// its baseline + 15 × the largest file + 16 MiB; the run fails otherwise.
struct ReadWholeFuzz {
    let folder = NSTemporaryDirectory() + "sleepsta-fuzz-readwhole-\(UUID().uuidString)"
    let baseline = Stopwatch.peakResidentBytes()
    private(set) var largest = 0

    init() { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }

    /// The first lines a reader recognises its format by (file name, text).
    static let heads: [(String, String)] = [
        ("participants.csv", "id,group,path\n"), ("participants.csv", "id,path\n"),
        ("diary.csv", "id,night,in_bed,out_of_bed,type\n"),
        ("actiware.csv", "Actiware Export File (Version 05.00)\r\n"),
        ("actiware.csv", "\"Actiware Export File (Version 06.00)\"\r\n\"Epoch-by-Epoch Data\"\r\n\"Line\",\"Date\",\"Time\",\"Activity\"\r\n"),
        ("actilife.csv", "------------ Data File Created By ActiGraph GT3X+ ActiLife v6.13.3 Firmware v2.5.0 date format M/d/yyyy Filter Normal -----------\n"),
        ("acttrust.txt", "+--- Condor Instruments Report ---+\n"),
        ("ukb.csv", "time,acc,imputed\n"), ("bba.csv", "time,acc\n"),
        ("subject.awd", "P1\n01-Oct-2009\n12:00\n4\n30\nSN1\nM\n"),
    ]
    /// Shapes repeated after the head.
    static let units = ["\n", "\r\n", "\r", "\r\r\n", ",", ";", ",\n", " \n", "\t,\n", "\"", "\"\",", "\"a,\n", "1\n", "1,2\n", "x,y,z,w\n",
                        "\u{FEFF}", "\0", "\u{202E}", "abcdefghijklmnopqrstuvwxyz,", "10/06/2024,12:00:00,5\n", "1,\"06/10/2024\",\"12:00:00\",\"0\"\r\n"]

    mutating func execute(_ rng: inout SplitMix64) -> Fuzz.Outcome {
        let (name, head) = Self.heads[Int(rng.next() % UInt64(Self.heads.count))]
        // Mostly small files, one in 500 up to 8 MiB: the memory bound matters for the large ones.
        let target = rng.next() % 500 == 0 ? Int(rng.next() % UInt64(8 << 20)) : Int(rng.next() % 65_536)
        var bytes = Array(head.utf8)
        bytes.reserveCapacity(bytes.count + target + 64)
        while bytes.count < target {
            let unit = Array(Self.units[Int(rng.next() % UInt64(Self.units.count))].utf8)
            let times = 1 + Int(rng.next() % UInt64(max(1, (target - bytes.count) / max(1, unit.count))))
            for _ in 0..<min(times, rng.next() % 4 == 0 ? times : 64) { bytes += unit }
            if rng.next() % 50 == 0 { bytes.append(UInt8(truncatingIfNeeded: rng.next())) }   // invalid UTF-8 now and then
        }
        largest = max(largest, bytes.count)
        let path = folder + "/" + name
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return .other("cannot write \(path)") }
        bytes = []
        do throws(IngestError) {
            switch name {
            case "participants.csv":
                let rows = try ParticipantsTable.read(path: path)
                _ = ParticipantsTable.contradictions(rows, path: path)
                let matcher = ParticipantMatcher(.table(rows))
                for r in rows.prefix(50) where matcher.participant(recordingPath: r.path).id.isEmpty {
                    return .other("row \(r.row ?? 0) matches an empty participant")
                }
            case "diary.csv":
                _ = try SleepDiary.read(path: path)
            default:
                _ = try FormatDetector.readEpochs(path: path, options: IngestOptions())
            }
            return .read
        } catch {
            return error.message.isEmpty ? .other("an IngestError without a message") : .refused
        }
    }

    /// The peak's bound: baseline + 15 × the largest file + 16 MiB (see the type's comment).
    var bound: Int { baseline + 15 * largest + (16 << 20) }

    /// The process's peak against ``bound``, as a line to print, and whether it stayed within.
    func memory() -> (text: String, withinBound: Bool) {
        let peak = Stopwatch.peakResidentBytes()
        try? FileManager.default.removeItem(atPath: folder)
        return ("peak resident memory \(peak >> 20) MiB, bound \(bound >> 20) MiB (largest file \(largest) bytes, baseline \(baseline >> 20) MiB)", peak <= bound)
    }
}
