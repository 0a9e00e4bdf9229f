/// Writes the epoch commands' CSV lines to standard output, or to a file that appears whole or
/// not at all (``CSVOutput``).
public enum EpochCSVWriter {
    public static func write(_ lines: [String], toPath path: String?) throws {
        let out = try CSVOutput(path: path)
        try out.whole {
            for line in lines { try out.write(line) }
        }
    }
}
