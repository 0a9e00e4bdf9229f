/// GGIR parity's recording-level half: what GGIR 3.3-6 computes over the whole recording before it
/// looks at any night, made once per recording and sliced by each night (``GGIRNightMethod``).
///
/// GGIR's part 2 cleans non-wear and imputes invalid epochs from the *other days* (`g.weardec`,
/// `g.impute`), and its sustained inactivity bouts run on the whole imputed series (`g.sib.det`),
/// so no night can be computed from its own epochs. Steps (GGIR 3.3-6 sources; docs/methods.md,
/// "GGIR parity"):
/// 1. GGIR's rows: a `.cwa`'s device clock read as wall-clock time across a change of the clocks
///    (``GGIRClockView``, `GGIRread::readAxivity`); every other format keeps real time.
/// 2. Part 2 on those rows: the 2023 rule's stored scores, `g.weardec`'s clean-up and `g.impute`
///    (``GGIRPart2``), with the format's read chunks (``GGIRNonWear2023/chunkSeconds(format:)``).
/// 3. Sustained inactivity bouts (van Hees 2015, `HASIB.R`) on the whole imputed angle-z, then
///    removed from invalid epochs (`ignorenonwear = TRUE`).
public struct GGIRRecording: Sendable {
    /// Why GGIR analyses no night of a recording.
    public enum Unavailable: Error, Sendable, Equatable {
        /// The stored milestone lacks the 2023 rule's scores (stored by an older sleepsta).
        case noScores
        /// Not an hour of data from the first whole quarter hour of the clock: GGIR's part 2 is empty.
        case nothingAnalysed
    }

    /// The clock the rows were laid on (a night on another clock is computed afresh).
    public let timeline: UTCOffsetTimeline
    /// GGIR's view of the device clock, where it differs from real time.
    let clock: GGIRClockView?
    /// GGIR's rows: the recording's epochs on GGIR's clock.
    let whole: WearableEpochs
    let part2: GGIRPart2
    /// Sustained inactivity per row; false on invalid rows.
    let sib: [Bool]

    /// GGIR's part 2 and bouts over `recording` (the whole recording's epochs, with the 2023 rule's
    /// scores), as GGIR reads a file of `facts`' format on `timeline`'s clock.
    public static func make(_ recording: WearableEpochs, facts: RecordingFacts,
                            timeline: UTCOffsetTimeline) -> Result<GGIRRecording, Unavailable> {
        guard recording.ggirNonWearScore != nil else { return .failure(.noScores) }
        let clock = deviceClock(recording, facts: facts, timeline: timeline)
        let whole = clock?.epochs(recording) ?? recording
        guard let part2 = GGIRPart2(whole, chunkSeconds: GGIRNonWear2023.chunkSeconds(format: facts.format),
                                    sampleRateHz: facts.sampleRateHz, clock: clock) else {
            return .failure(.nothingAnalysed)
        }
        return .success(GGIRRecording(timeline: timeline, clock: clock, whole: whole, part2: part2,
                                      sib: sustainedInactivity(part2, count: whole.count)))
    }

    /// Step 1: a `.cwa`'s device clock keeps the offset it was set with, and GGIR reads it as
    /// wall-clock time; the view is anchored on the first and last sample, so a recording stitched
    /// from its stored nights maps as the read did.
    static func deviceClock(_ recording: WearableEpochs, facts: RecordingFacts, timeline: UTCOffsetTimeline) -> GGIRClockView? {
        guard facts.format?.readsDeviceClockAsWallClock == true, let data = recording.dataEpochs else { return nil }
        return GGIRClockView(timeline: timeline, startUTC: recording.startUTC, count: recording.count,
                             dataStartUTC: recording.epochStartUTC(data.lowerBound),
                             dataEndUTC: recording.epochStartUTC(data.upperBound + 1))
    }

    /// Step 3: van Hees 2015 bouts on the imputed angle-z of the epochs GGIR judged, none on invalid ones.
    static func sustainedInactivity(_ part2: GGIRPart2, count: Int) -> [Bool] {
        let judgedAngles = part2.judged.map { part2.angleZ[$0].isFinite ? part2.angleZ[$0] : 0 }
        var sib = [Bool](repeating: false, count: count)
        for (k, s) in VanHees2015.score(angleZDegrees: judgedAngles).enumerated() where s == .sleep {
            let i = part2.judged.lowerBound + k
            sib[i] = !part2.invalid[i]
        }
        return sib
    }

    /// The row holding UTC second `utc` (may lie outside the rows).
    func index(_ utc: Int64) -> Int {
        Int(LocalClock.floorDiv(utc - whole.startUTC, Int64(WearableEpochs.epochSeconds)))
    }

    /// GGIR's window around a night's midnight: rows starting in (noon, next noon], shifted by
    /// `shiftSeconds` (the day sleeper's 18:00 to 18:00), clamped to the judged rows.
    func window(_ w: NightWindow, shiftSeconds: Int64 = 0) -> Range<Int> {
        let from = max(part2.judged.lowerBound, index(w.startUTC + shiftSeconds) + 1)
        let to = min(part2.judged.upperBound, index(w.endUTC + shiftSeconds) + 1)
        return from..<max(from, to)
    }

    /// The runs of sustained inactivity inside `range`.
    func bouts(in range: Range<Int>) -> [ClosedRange<Int>] {
        var bouts: [ClosedRange<Int>] = []
        var i = range.lowerBound
        while i < range.upperBound {
            guard sib[i] else { i += 1; continue }
            var j = i
            while j + 1 < range.upperBound && sib[j + 1] { j += 1 }
            bouts.append(i...j)
            i = j + 1
        }
        return bouts
    }
}
