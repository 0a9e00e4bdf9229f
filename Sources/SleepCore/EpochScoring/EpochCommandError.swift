/// Why `score`, `periods` or `counts` could not run, apart from an unreadable file (which is an
/// `IngestError` naming file and line).
public enum EpochCommandError: Error, CustomStringConvertible, Equatable {
    /// The options do not make sense (unknown algorithm or variant, impossible epoch length …): exit 2.
    case usage(String)
    /// The file was read but cannot be processed as asked (no such column, unsupported sample rate …): exit 1.
    case input(String)

    public var description: String {
        switch self {
        case .usage(let m), .input(let m): return m
        }
    }

    /// The exit code the CLI uses for this error.
    public var exitCode: Int32 {
        switch self {
        case .usage: return 2
        case .input: return 1
        }
    }
}
