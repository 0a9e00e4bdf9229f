import Foundation
import SleepCore
import SleepIngest
import SleepPipeline
import SleepReport

/// `protocol.toml` beside the reports: every value a run used, with where it came from, so a
/// methods section can cite the analysis and a later run can repeat it (the file is itself a study
/// file: `sleepsta run --study Reports/protocol.toml`).
///
/// It holds no time and no run number, so a nightly run with the same protocol leaves the file
/// (and its modification time) alone, as every report file; the `runs` row of each run records
/// the same parameters with the study file's path and digest.
enum ProtocolFile {
    static let fileName = "protocol.toml"

    /// The value each key of `options` has, as the command line spells it (empty: none given).
    static func values(_ o: PipelineOptions) -> [String: String] {
        var v: [String: String] = ["data": o.data, "db": o.db, "reports": o.reports]
        v["tz"] = o.tz
        v["interval"] = o.interval?.description
        v["metric"] = o.metric?.rawValue
        v["wake-threshold"] = o.wakeThreshold.map(NumberOption.text)
        v["kind"] = o.kind?.rawValue
        v["sleep-algorithm"] = o.sleepAlgorithm?.defaultValueDescription
        v["method"] = o.method?.rawValue
        v["units"] = o.units?.rawValue
        v["diary"] = o.noDiary ? "" : o.diary
        v["participants"] = o.participants
        v["ignore"] = o.ignore.isEmpty ? nil : o.ignore.joined(separator: ", ")
        return v
    }

    /// The file's text for the configuration a run used. `remembered`: the keys `nightly` took
    /// from the last run (``RememberedParameter/key`` names).
    static func text(_ c: PipelineConfiguration, study: StudyOptions, remembered: Set<String>) -> String {
        func source(_ key: String) -> String {
            if study.fromCommandLine.contains(key) {
                return study.study?.values[key] != nil ? "command line (overrides the study file)" : "command line"
            }
            if study.fromStudy.contains(key) { return "study file" }
            if remembered.contains(key) { return "the last run (nightly reuses it)" }
            return "default"
        }
        let p = c.parameters
        var rows: [(key: String, value: String?)] = [
            ("data", absolute(c.dataDirectory)), ("db", absolute(c.databasePath)), ("reports", absolute(c.reportsDirectory)),
            ("tz", c.timeZoneIdentifier), ("interval", p.interval.description), ("metric", p.metric.rawValue),
            ("wake-threshold", nil), ("kind", c.kindOverride?.rawValue ?? "auto"),
            ("sleep-algorithm", p.sleepAlgorithm?.rawValue ?? "auto"), ("method", p.nightMethod?.rawValue ?? "sleepsta"),
            ("units", c.units.rawValue), ("diary", c.diary.map { absolute($0.path) }),
            ("participants", c.participantsOption.map { ParticipantRule.parse($0) != nil ? $0 : absolute($0) } ?? "file"),
        ]
        if let title = study.study?.text("title") { rows.insert(("title", title), at: 0) }
        var lines = [
            "# The protocol of the last `sleepsta \(c.command)` on this database: every value it used, and where",
            "# each came from. It is a study file too: `sleepsta run --study \(fileName)` repeats the analysis.",
            "# sleepsta \(c.toolVersion); the runs table holds the same for every run (sleepsta export --what runs).",
        ]
        if let s = study.study { lines.append("# study file: \(absolute(s.path)) (sha256 \(s.digest))") }
        lines.append("")
        for row in rows {
            if row.key == "wake-threshold" {
                lines.append("wake-threshold = \(NumberOption.text(p.wakeThresholdFactor))  # \(source(row.key))")
            } else if let value = row.value {
                lines.append("\(row.key) = \(quoted(value))  # \(source(row.key))")
            } else {
                lines.append("# \(row.key): none  (\(source(row.key)))")
            }
        }
        lines.append("min-valid-nights = \(c.inclusion.minValidNights)  # \(source("min-valid-nights"))")
        lines.append("min-wear-hours = \(NumberOption.text(c.inclusion.minWearHours))  # \(source("min-wear-hours"))")
        if let d = c.diary { lines.append("# diary sha256 \(d.digest)") }
        let ignore = c.ignored.globs
        lines.append(ignore.isEmpty ? "# ignore: none" : "ignore = [\(ignore.map(quoted).joined(separator: ", "))]  # \(source("ignore"))")
        lines.append("")
        lines.append("# analysis keys (the analyses table's key of each recording kind under these parameters):")
        for (kind, key) in c.analysisKeys.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            lines.append("#   \(kind.rawValue): \(key)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes the file into the reports folder when it exists (a failed write is a warning: the
    /// run's nights are stored and its pages written).
    static func write(_ text: String, reports: String) -> String? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: reports, isDirectory: &isFolder), isFolder.boolValue else { return nil }
        do { try ReportWriter.write(text, to: reports + "/" + fileName); return nil } catch {
            return "warning: cannot write \(reports)/\(fileName): \(error.localizedDescription)"
        }
    }

    static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// A TOML basic string.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for s in text.unicodeScalars {
            switch s {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if s.value < 0x20 || s.value == 0x7F { out += String(format: "\\u%04X", s.value) } else { out.unicodeScalars.append(s) }
            }
        }
        return out + "\""
    }
}
