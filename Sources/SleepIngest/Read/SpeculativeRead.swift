import Dispatch
import Foundation

/// Reads a recording on another thread while the caller hashes the same file, for files that
/// will almost surely be ingested (new, or of another size than the stored recording at their
/// path): hashing and reading then share the cores instead of following each other. The read is
/// the whole of it (``RecordingRead/read(_:path:options:)``, a wearable's second pass included),
/// so on a raw CSV the hash runs beside the lean first pass and the start of the second.
///
/// The result is the same as reading after hashing: the reader is the same, and the caller uses
/// the result only when the hash says the file must be ingested (an unchanged or moved file's
/// speculative read is waited for and dropped, its errors included).
public final class SpeculativeRead: @unchecked Sendable {
    private var result: Result<RecordingRead, IngestError>?
    private let finished = DispatchSemaphore(value: 0)
    private var joined = false

    /// `read`: the whole read (``RecordingRead/read(_:path:options:)``: both passes of a wearable,
    /// so that the hash overlaps the second pass too).
    public init(_ read: @escaping @Sendable () throws(IngestError) -> RecordingRead) {
        DispatchQueue.global().async {
            let r: Result<RecordingRead, IngestError>
            do throws(IngestError) { r = .success(try read()) } catch { r = .failure(error) }
            self.result = r
            self.finished.signal()
        }
    }

    /// Waits for the read (once; later calls return at once) and returns its result.
    @discardableResult
    public func wait() -> Result<RecordingRead, IngestError> {
        if !joined { finished.wait(); joined = true }
        return result!
    }

    /// Whether reading a file of `sizeBytes` (its `stat`, through a symbolic link) ahead of its hash
    /// is worth it: no recording is stored at its path, or the stored one has another size (so the
    /// content changed).
    public static func worthIt(sizeBytes: Int64, storedSizeBytes: Int64?) -> Bool {
        guard let stored = storedSizeBytes else { return true }
        return sizeBytes != stored
    }
}
