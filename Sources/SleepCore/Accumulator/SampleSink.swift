/// Receives raw samples from a reader, in time order, one at a time (so readers stream and
/// nothing holds a whole file unless a sink chooses to).
public protocol SampleSink: SendableMetatype {
    /// `timestamp` in UTC seconds since 1970 (fractional); acceleration in g.
    mutating func add(timestamp: Double, x: Double, y: Double, z: Double)

    /// `count` samples in order, as structure of arrays: the same as adding them one by one (the
    /// default), which a sink may do in runs (``WearableEpochSink``).
    mutating func add(timestamps: UnsafePointer<Double>, x: UnsafePointer<Double>, y: UnsafePointer<Double>,
                      z: UnsafePointer<Double>, count: Int)

    /// Makes this sink, which a reader fed partway before giving up, the sink `original` was
    /// (a copy taken before the reader began), for another reader to feed from the first sample
    /// (the serial raw-CSV reader after the fast path). A value sink just becomes `original`
    /// (the default); a sink whose state lives elsewhere (``ThreadedSampleSink``'s worker thread)
    /// must end that state first, since a copy shares it with the samples already handed on.
    mutating func rewind(to original: Self)

    /// Whether the parallel raw-CSV path may keep the samples of whole seconds from this sink,
    /// summing them on its parser threads instead (the per-second series), and hand it only what
    /// ``wantsChunkFeatures`` asks for. False (the default): the sink gets every sample, in order,
    /// from one thread.
    static var takesWholeSeconds: Bool { get }
    /// Whether such a sink wants the calibration features of those samples (``absorb(_:)``).
    static var wantsChunkFeatures: Bool { get }
    /// The calibration features of samples this sink did not get one by one (see
    /// ``takesWholeSeconds``): they follow, in time order, every sample it got before.
    mutating func absorb(_ features: AutoCalibration.FeatureCollector.Chunk)

    /// A reading of the device's temperature sensor (°C) at `timestamp` (UTC seconds), from formats
    /// that carry one (an Axivity block, a GENEActiv page). Sinks that have no use for it ignore it
    /// (the default).
    mutating func addTemperature(timestamp: Double, celsius: Double)
}

extension SampleSink {
    public mutating func add(timestamps: UnsafePointer<Double>, x: UnsafePointer<Double>, y: UnsafePointer<Double>,
                             z: UnsafePointer<Double>, count: Int) {
        for i in 0..<count { add(timestamp: timestamps[i], x: x[i], y: y[i], z: z[i]) }
    }
    public mutating func rewind(to original: Self) { self = original }
    public static var takesWholeSeconds: Bool { false }
    public static var wantsChunkFeatures: Bool { false }
    public mutating func absorb(_ features: AutoCalibration.FeatureCollector.Chunk) {
        preconditionFailure("\(Self.self) takes every sample")
    }
    public mutating func addTemperature(timestamp: Double, celsius: Double) {}
}

/// Keeps every sample as contiguous arrays (structure of arrays), for computations that need the
/// raw signal at its native rate, such as ActiGraph counts. Memory grows with the recording: use it
/// for files that fit (a 7-day 100 Hz recording is about 1.9 GB as Double).
public struct RawSampleBuffer: SampleSink, Sendable {
    public var timestamps: [Double] = []
    public var x: [Double] = []
    public var y: [Double] = []
    public var z: [Double] = []

    public init(reservingCapacity n: Int = 0) {
        timestamps.reserveCapacity(n); x.reserveCapacity(n); y.reserveCapacity(n); z.reserveCapacity(n)
    }

    public mutating func add(timestamp: Double, x: Double, y: Double, z: Double) {
        timestamps.append(timestamp); self.x.append(x); self.y.append(y); self.z.append(z)
    }

    public var count: Int { timestamps.count }

    /// The sample rate in Hz from the median spacing of the timestamps, rounded to a whole number
    /// (device rates are integers; jitter of logging apps is not), or nil with fewer than 2 samples.
    public var nominalSampleRateHz: Int? {
        guard timestamps.count > 1 else { return nil }
        let step = max(1, timestamps.count / 10_000)
        var diffs: [Double] = []
        var i = step
        while i < timestamps.count { diffs.append(timestamps[i] - timestamps[i - 1]); i += step }
        diffs.sort()
        let median = diffs[diffs.count / 2]
        guard median > 0 else { return nil }
        return Int((1 / median).rounded())
    }
}

/// Discards samples (the default when only the per-second base series is wanted).
public struct DiscardingSampleSink: SampleSink, Sendable {
    public init() {}
    @inlinable public mutating func add(timestamp: Double, x: Double, y: Double, z: Double) {}
    public static var takesWholeSeconds: Bool { true }
    public mutating func absorb(_ features: AutoCalibration.FeatureCollector.Chunk) {}
}
