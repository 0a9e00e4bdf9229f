import Foundation

/// Locates the external reference data (`../shared/external/` next to the repository, or the
/// folder named by `SLEEPSTA_EXTERNAL`). Tests that need it are disabled with a clear message
/// when it is absent, so a bare clone still passes.
enum ExternalData {
    static let root: URL? = {
        if let env = ProcessInfo.processInfo.environment["SLEEPSTA_EXTERNAL"], !env.isEmpty {
            let url = URL(fileURLWithPath: env, isDirectory: true)
            return FileManager.default.fileExists(atPath: url.path) ? url : nil
        }
        // #filePath = <repo>/Tests/SleepPipelineTests/Support/ExternalData.swift
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        let candidate = url.deletingLastPathComponent().appendingPathComponent("shared/external", isDirectory: true)
        return FileManager.default.fileExists(atPath: candidate.path) ? candidate : nil
    }()

    static var available: Bool { root != nil }

    static let skipMessage = "../shared/external not found (set SLEEPSTA_EXTERNAL to its path); reference comparison skipped"

    static func url(_ relativePath: String) -> URL? {
        root?.appendingPathComponent(relativePath)
    }

    /// The file's text, or nil when the external folder is missing.
    static func text(_ relativePath: String) throws -> String? {
        guard let url = url(relativePath) else { return nil }
        return try String(contentsOf: url, encoding: .utf8)
    }
}

/// Prints one line per reference comparison so that `make test` shows matched / total.
enum ReferenceReport {
    static func record(_ name: String, matched: Int, total: Int, note: String = "") {
        let pct = total == 0 ? 100.0 : 100.0 * Double(matched) / Double(total)
        let line = "REFERENCE \(name): \(matched)/\(total) matched (\(String(format: "%.2f", pct)) %)" + (note.isEmpty ? "" : " — \(note)")
        print(line)
    }
}

/// Minimal CSV splitting for reference files in tests (quoted fields, no embedded newlines).
enum TestCSV {
    static func rows(_ text: String, separator: Character = ",") -> [[String]] {
        text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map { line in
            var fields: [String] = []
            var current = ""
            var quoted = false
            for ch in line {
                if ch == "\"" { quoted.toggle() }
                else if ch == separator && !quoted { fields.append(current); current = "" }
                else if ch != "\r" { current.append(ch) }
            }
            fields.append(current)
            return fields
        }
    }
}
