/// What a run does with a file whose content hash it knows: the decision alone, from what the
/// store holds and what the folder shows, so that tests reach it without files.
package enum FileIdentity: Equatable {
    /// Same content at the same path: nothing to do.
    case unchanged
    /// Same content, and the stored path is gone: the recording keeps its nights under the new path.
    case moved(from: String)
    /// Same content as a recording stored under another path that still exists: stored once.
    case twin(of: String)
    /// Read and store the file: new content, or this run's options change what its read made.
    case read(again: ReadAgain?)

    /// - Parameters:
    ///   - storedPath: the path of the recording stored with this content, nil when none is.
    ///   - again: why the stored recording must be read again although its bytes are unchanged.
    ///   - exists: whether a path (relative to the data folder) names a file now.
    package static func decide(storedPath: String?, again: ReadAgain?, relativePath: String, exists: (String) -> Bool) -> FileIdentity {
        guard again == nil, let storedPath else { return .read(again: again) }
        if storedPath == relativePath { return .unchanged }
        return exists(storedPath) ? .twin(of: storedPath) : .moved(from: storedPath)
    }
}
