import Logging
import SleepPipeline
import SleepCore

/// swift-log's stderr handler (ISO 8601 timestamp, level, label, message), made to clear the
/// progress bar before each line so a log line never lands in the middle of the bar.
public struct ProgressAwareLogHandler: LogHandler {
    private var inner: StreamLogHandler
    private let bar: TerminalProgressBar?

    public init(label: String, level: Logger.Level, bar: TerminalProgressBar?) {
        inner = StreamLogHandler.standardError(label: label)
        inner.logLevel = level
        self.bar = bar
    }

    /// A log line is one line: control characters in the message (a newline in a file name would
    /// forge a line) are escaped, see ``PrintableText``.
    public func log(event: LogEvent) {
        bar?.clear()
        var event = event
        let text = event.message.description
        let printable = PrintableText.escaped(text)
        if printable != text { event.message = Logger.Message(stringLiteral: printable) }
        inner.log(event: event)
    }

    public var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    public var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }
}
