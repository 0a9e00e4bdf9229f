#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SleepPipeline

/// A one-line progress bar on a terminal (files, bytes, nights), redrawn in place with `\r` at
/// most ten times a second. The command creates it only when stderr is a terminal, so cron and
/// pipes get no bar at all. Log lines clear it first (``ProgressAwareLogHandler``) and it comes
/// back with the next update.
public final class TerminalProgressBar: PipelineProgressObserver, @unchecked Sendable {
    private let fd: Int32
    private let lock = NSLock()
    private var visible = false
    private var lastDraw: ContinuousClock.Instant?
    private var lastStage: PipelineProgress.Stage?
    private static let redrawInterval = Duration.milliseconds(100)

    public init(fileDescriptor: Int32 = STDERR_FILENO) { fd = fileDescriptor }

    public func update(_ progress: PipelineProgress) {
        lock.lock(); defer { lock.unlock() }
        let now = ContinuousClock.now
        let stageChanged = progress.stage != lastStage
        if !stageChanged, progress.done < progress.total, let last = lastDraw, now - last < Self.redrawInterval { return }
        lastDraw = now; lastStage = progress.stage
        emit("\r" + Self.line(progress, width: terminalWidth()) + "\u{1B}[K")
        visible = true
    }

    /// Removes the bar from the screen (before a log line, or at the end).
    public func clear() {
        lock.lock(); defer { lock.unlock() }
        if visible { emit("\r\u{1B}[K"); visible = false }
    }

    public func finish() { clear() }

    /// The bar's text for `progress`, at most `width - 1` characters (so it never wraps).
    public static func line(_ p: PipelineProgress, width: Int) -> String {
        let barWidth = 20
        let filled = Int((p.fraction * Double(barWidth)).rounded(.down))
        let bar = "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: barWidth - filled) + "]"
        var parts: [String]
        switch p.stage {
        case .files:
            parts = ["files \(p.done)/\(p.total) \(bar)", "\(megabytes(p.bytesDone)) of \(megabytes(p.bytesTotal)) MB", "\(p.nights) night(s)"]
        case .analyses:
            parts = ["analyses \(p.done)/\(p.total) nights \(bar)"]
        case .reports:
            parts = ["reports \(p.done)/\(p.total) nights \(bar)"]
        }
        if !p.item.isEmpty { parts.append(p.item) }
        let text = parts.joined(separator: " · ")
        let limit = max(10, width - 1)
        return text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f", Double(bytes) / 1_000_000)
    }

    private func terminalWidth() -> Int {
        var size = winsize()
        if ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }

    private func emit(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n <= 0 { return }   // a terminal that went away: nothing to do about a progress bar
            offset += n
        }
    }
}
