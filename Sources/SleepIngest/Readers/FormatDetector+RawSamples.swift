extension FormatDetector {
    /// Readers of device and phone-app formats, most specific first; all of them come before the
    /// generic `timestamp,x,y,z` reader, which takes any 4-column CSV.
    static let rawSampleReaders: [any RecordingReader.Type] = [
        GT3XReader.self, AxivityCWAReader.self, GENEActivBinReader.self, ActiLifeRawCSVReader.self,
        SleepAsAndroidReader.self, SensorLogCSVReader.self, SensorLoggerCSVReader.self, WideRawCSVReader.self,
    ]

    /// File names of raw-sample formats beyond `.csv`/`.json`: device files, and gzip-compressed
    /// versions of every format (`night.csv.gz`, `participant.cwa.gz`).
    static func isRawSampleCandidate(fileName n: String) -> Bool {
        let plain = nameWithoutGzipSuffix(n).lowercased()
        let deviceSuffixes = [".gt3x", ".cwa", ".bin"]
        if deviceSuffixes.contains(where: { plain.hasSuffix($0) }) { return true }
        return n.lowercased().hasSuffix(".gz") && (plain.hasSuffix(".csv") || plain.hasSuffix(".json"))
    }

    /// `night.csv.gz` → `night.csv`: readers judge a compressed file by its inner name.
    static func nameWithoutGzipSuffix(_ name: String) -> String {
        name.lowercased().hasSuffix(".gz") ? String(name.dropLast(3)) : name
    }
}
