/// Where a run is, for a progress display: which stage, how many of its items are done, and for
/// the file stage how many bytes. The pipeline reports; an observer (a terminal bar, or nothing)
/// decides what to show.
public struct PipelineProgress: Sendable, Equatable {
    public enum Stage: String, Sendable {
        /// Hashing, reading and storing recordings (items are files, with bytes).
        case files
        /// Re-deriving analyses from stored base series (items are nights).
        case analyses
        /// Rendering report pages and charts (items are nights).
        case reports
    }

    public var stage: Stage
    public var done: Int
    public var total: Int
    public var bytesDone: Int64
    public var bytesTotal: Int64
    /// Nights stored or analysed so far in this run.
    public var nights: Int
    /// The file or night being worked on.
    public var item: String

    public init(stage: Stage, done: Int, total: Int, bytesDone: Int64 = 0, bytesTotal: Int64 = 0, nights: Int = 0, item: String = "") {
        self.stage = stage; self.done = done; self.total = total
        self.bytesDone = bytesDone; self.bytesTotal = bytesTotal; self.nights = nights; self.item = item
    }

    /// Fraction done in [0, 1]: by bytes in the file stage (files differ in size by 1000×), by items otherwise.
    public var fraction: Double {
        if stage == .files && bytesTotal > 0 { return min(1, max(0, Double(bytesDone) / Double(bytesTotal))) }
        return total > 0 ? min(1, max(0, Double(done) / Double(total))) : 1
    }
}

/// Receives progress from a run. Called on the run's thread.
public protocol PipelineProgressObserver: AnyObject, Sendable {
    func update(_ progress: PipelineProgress)
    /// The run is over (successfully or not): remove any display.
    func finish()
}
