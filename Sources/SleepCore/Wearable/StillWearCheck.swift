/// Tells a still sleeper from a device laid down, inside the stretches that GGIR's 2013 non-wear
/// rule (``EpochStillnessNonWear``) flags.
///
/// That rule calls an hour "not worn" when two axes stay within 50 mg and 13 mg SD: a watch on a
/// table, but also a sleeper who does not turn for an hour. Taken for non-wear, such sleep is lost:
/// the guider's window starts after it and TST falls by the stretch (the wearable method's tests
/// reproduce the loss GGIR shows). Stillness inside the night is not, by itself, evidence that the
/// device was off: interval rules take worn time for non-wear mostly in sleep and sedentary spells
/// (Syed et al. 2021, "A novel algorithm to detect non-wear time from raw accelerometer data using
/// deep convolutional neural networks", Sci Rep 11:8832, doi:10.1038/s41598-021-87757-z; their 2020
/// comparison of raw and epoch rules, Sci Rep, doi:10.1038/s41598-020-62821-2, found van Hees's raw
/// rule the best of those it tested).
///
/// What tells them apart without a temperature channel is the attitude: a device put down lies at
/// one angle, and its readings change only by sensor noise and by the slow monotone drift of its
/// offset as it cools to room temperature; a resting forearm keeps making small changes of angle
/// that go back and forth over tens of minutes (van Hees et al. 2015 take a change below 5° over
/// 5 min as "no posture change"; the changes here are far below that). So per stretch the
/// 5-minute means of angle-z are followed through it:
///
///     wander = Σ |m(k+1) − m(k)| − |m(last) − m(first)|
///
/// the path of the means less its net change, which a monotone drift does not raise and the noise
/// of a 5-min mean (about 0.002° at 100 Hz) barely does. A stretch whose wander reaches
/// ``minimumWanderDegrees`` is taken as worn; the rest stay non-wear. Angle-z sees a forearm's
/// roll and pitch but not its turn about the vertical; a sleeper whose only changes are such
/// turns stays non-wear, and the night page then warns as before.
///
/// The threshold is a design choice, not fitted to labelled data: it lies 250 times above the
/// noise of a device at rest and below the wander of the generators' still sleeper (about 3° per
/// hour for a ±0.3° swing with a 25-min period).
///
/// **Turns.** Some sleepers hold one attitude to sensor noise between posture changes, with no
/// wander at all; what tells them from a device put down is what happens at the ends of the
/// stillness. Adults asleep change posture every 15–30 min on average, a still spell between two
/// changes rarely lasting much over an hour (De Koninck et al. 1992, "Sleep positions and position
/// shifts in five age groups: an ontogenetic picture", Sleep 15:143–149; Skarpsno et al. 2017,
/// "Sleep positions and nocturnal body movements based on free-living accelerometer recordings",
/// Nat Sci Sleep 9:267–275), and a change is a few seconds of movement after which the forearm
/// lies still again at a new attitude. A device laid down does not turn itself: it lies at one
/// attitude until someone picks it up and wears it, and before it was put down it was worn. So the
/// whole stillness a stretch belongs to is followed outwards (across twitches, brief movements
/// after which the attitude is as before: ``stillness(_:_:attitude:)``), and a stillness that a turn
/// of at most ``longestTurnEpochs`` joins to another still segment of at least
/// ``shortestNeighbourEpochs`` (``turnsIntoStillness(_:_:)``) is a sleeper's, and worn, when it
/// lasts no longer than ``longestSleeperStillnessEpochs``; longer than that at one attitude to half
/// a degree, it is a device put down (a night-time removal, or one laid down until morning), whose
/// stillness ends the night's sleep where it starts. Twitches alone do not clear a stillness: a
/// device on a bedside table is jolted too.
///
/// Left out on purpose: the time of day (shift workers and day sleepers sleep by day, and a rule
/// that doubts still sleep at noon would lose their sleep), and the attitude alone (a forearm can
/// lie palm down as flat as a watch on a table, or on its edge). The handling around a removal is
/// seen only through the turn's limit: a removal followed by a stillness longer than a sleeper's
/// is laid down whatever came before it.
///
/// **Temperature first, where the recording has a live sensor** (an Axivity block's, a GENEActiv
/// page's): off the wrist the sensor falls towards room temperature within tens of minutes, on the
/// wrist it stays near skin temperature (Zhou et al. 2015, "Classification of accelerometer wear
/// and non-wear events in seconds for monitoring free-living physical activity", BMJ Open
/// 5:e007447, doi:10.1136/bmjopen-2014-007447: non-wear below 26 °C on a GENEActiv, with the rate
/// of change at its edges). A stretch whose 5-min mean temperatures fall below
/// ``offWristCelsius``, or fall by ``coolingCelsius`` or more from its start, is off the wrist;
/// one that holds is worn, whatever its angle. A channel that does not move over the night (under
/// ``liveChannelCelsius`` from lowest to highest: a constant or missing sensor) says nothing, and
/// the angle decides.
public enum StillWearCheck {
    /// Epochs per mean: 5 minutes.
    public static let chunkEpochs = 300 / WearableEpochs.epochSeconds
    /// A chunk counts when at least half its epochs have data.
    static let minimumChunkData = chunkEpochs / 2
    /// Stretches with fewer 5-min means are not judged (they stay non-wear).
    public static let minimumChunks = 3
    public static let minimumWanderDegrees = 0.5
    /// Zhou et al. 2015's non-wear temperature (GENEActiv).
    public static let offWristCelsius = 26.0
    /// A fall of this much within a still stretch: the device is cooling off the wrist.
    public static let coolingCelsius = 2.0
    /// A channel whose night spans less than this carries no information.
    public static let liveChannelCelsius = 0.5
    /// The method's parameters, for the analysis key.
    public static let key = "stillwander(anglez,\(chunkEpochs * WearableEpochs.epochSeconds / 60)min,\(minimumWanderDegrees)deg)"
        + "+temperature(<\(offWristCelsius)C|fall>=\(coolingCelsius)C,live>=\(liveChannelCelsius)C)"
        + "+turns(turn<=\(longestTurnEpochs * WearableEpochs.epochSeconds)s,still>=\(shortestNeighbourEpochs * WearableEpochs.epochSeconds / 60)min,"
        + "twitch<=\(longestTwitchEpochs * WearableEpochs.epochSeconds)s,stillness<=\(longestSleeperStillnessEpochs * WearableEpochs.epochSeconds / 3600)h)"

    /// A run of epochs with data flagged non-wear, and the judgement.
    public struct Stretch: Sendable, Equatable {
        public var startEpoch: Int
        public var endEpoch: Int
        /// Whether angle-z holds without a posture change (no step above 5° between epochs, van
        /// Hees 2015's threshold), as under GGIR's rule it must. A flagged stretch that moves was
        /// flagged by something else and is left as it is.
        public var still: Bool
        /// nil when the stretch is not still or holds fewer than ``minimumChunks`` 5-min means.
        public var wanderDegrees: Double?
        /// What the temperature says: on the wrist (true), off it (false), nothing (nil: no live
        /// channel, or under two 5-min means of it).
        public var temperatureSaysWorn: Bool? = nil
        /// The whole stillness at the stretch's attitude, across twitches (epoch range), when still.
        public var stillness: Range<Int>? = nil
        /// Whether a turn joins the stillness to another still segment (``turnsIntoStillness(_:_:)``).
        public var turns = false
        /// Whether the stillness is a sleeper's between turns: turns at an end, and no longer than
        /// ``longestSleeperStillnessEpochs``.
        public var sleeperBetweenTurns: Bool {
            guard let stillness, turns else { return false }
            return stillness.count <= StillWearCheck.longestSleeperStillnessEpochs
        }
        /// Worn because of turns alone (the temperature silent, the angle not wandering).
        public var wornByTurns: Bool {
            temperatureSaysWorn == nil && (wanderDegrees ?? 0) < StillWearCheck.minimumWanderDegrees && sleeperBetweenTurns
        }
        /// Taken as worn (still, not laid down): by the temperature where it says, else by the
        /// angle's wander or by turns at the ends of its stillness.
        public var worn: Bool {
            temperatureSaysWorn ?? ((wanderDegrees ?? 0) >= StillWearCheck.minimumWanderDegrees || sleeperBetweenTurns)
        }
        /// Still at one angle: a device laid down.
        public var laidDown: Bool { still && !worn }
    }

    /// No step of angle-z above ``postureChangeDegrees`` between epochs with data.
    public static let postureChangeDegrees = 5.0

    /// The non-wear stretches of `e`, each judged.
    public static func stretches(_ e: WearableEpochs) -> [Stretch] {
        var result: [Stretch] = []
        let live = isLive(e.temperature)
        var i = 0
        while i < e.count {
            guard e.hasData(i) && e.nonWear[i] else { i += 1; continue }
            var j = i
            while j < e.count && e.hasData(j) && e.nonWear[j] { j += 1 }
            var still = true, previous = Float.nan
            for k in i..<j where e.angleZ[k].isFinite {
                if previous.isFinite && Double(abs(e.angleZ[k] - previous)) > postureChangeDegrees { still = false; break }
                previous = e.angleZ[k]
            }
            var stretch = Stretch(startEpoch: i, endEpoch: j, still: still,
                                  wanderDegrees: still ? wanderDegrees(e.angleZ[i..<j], sampleCounts: e.sampleCounts[i..<j]) : nil,
                                  temperatureSaysWorn: live && still ? temperatureSaysWorn(e.temperature![i..<j]) : nil)
            if still, let attitude = medianAngle(e, i..<j) {
                let whole = stillness(e, i..<j, attitude: attitude)
                stretch.stillness = whole
                stretch.turns = turnsIntoStillness(e, whole)
            }
            result.append(stretch)
            i = j
        }
        return result
    }

    /// Whether `t` moves by at least ``liveChannelCelsius`` (a sensor that reads something).
    static func isLive(_ t: [Float]?) -> Bool {
        guard let t else { return false }
        var lo = Float.infinity, hi = -Float.infinity
        for v in t where v.isFinite { lo = min(lo, v); hi = max(hi, v) }
        return hi.isFinite && Double(hi - lo) >= liveChannelCelsius
    }

    /// The temperature's verdict on a still stretch (see the type's comment); nil under two 5-min means.
    static func temperatureSaysWorn(_ t: ArraySlice<Float>) -> Bool? {
        var means: [Double] = []
        var k = t.startIndex
        while k < t.endIndex {
            var sum = 0.0, n = 0
            for i in k..<min(k + chunkEpochs, t.endIndex) where t[i].isFinite { sum += Double(t[i]); n += 1 }
            if n > 0 { means.append(sum / Double(n)) }
            k += chunkEpochs
        }
        guard means.count >= 2, let lowest = means.min() else { return nil }
        return !(lowest < offWristCelsius || means[0] - lowest >= coolingCelsius)
    }

    /// The wander of angle-z (degrees) over consecutive 5-min means; nil with fewer than
    /// ``minimumChunks`` means.
    static func wanderDegrees(_ angleZ: ArraySlice<Float>, sampleCounts: ArraySlice<UInt16>) -> Double? {
        var means: [Double] = []
        var k = angleZ.startIndex
        while k + chunkEpochs <= angleZ.endIndex {
            var sum = 0.0, n = 0
            for i in k..<(k + chunkEpochs) where sampleCounts[i] > 0 && angleZ[i].isFinite { sum += Double(angleZ[i]); n += 1 }
            if n >= minimumChunkData { means.append(sum / Double(n)) }
            k += chunkEpochs
        }
        guard means.count >= minimumChunks else { return nil }
        var path = 0.0
        for m in 1..<means.count { path += abs(means[m] - means[m - 1]) }
        return path - abs(means[means.count - 1] - means[0])
    }

    /// `e` with the worn stretches' non-wear flags cleared and the laid-down stretches grown to
    /// their whole stillness (``grown(_:_:)``), the stretches as judged, and the epochs the growth
    /// added.
    public static func applied(_ e: WearableEpochs) -> (epochs: WearableEpochs, stretches: [Stretch], added: [Range<Int>]) {
        let found = stretches(e)
        var result = e
        var added: [Range<Int>] = []
        for s in found {
            if s.worn {
                for i in s.startEpoch..<s.endEpoch { result.nonWear[i] = false }
            } else if s.laidDown {
                for r in grown(s, e) where !r.isEmpty {
                    for i in r { result.nonWear[i] = true }
                    added.append(r)
                }
            }
        }
        return (result, found, added)
    }

    // MARK: A sleeper who turns

    /// The longest stillness at one attitude taken as a sleeper's between turns: 2 hours, beyond
    /// the hour or so that still spells between posture changes rarely exceed (see the type's comment).
    public static let longestSleeperStillnessEpochs = 2 * 3600 / WearableEpochs.epochSeconds
    /// A turn: at most 2 minutes of movement between two still segments.
    public static let longestTurnEpochs = 120 / WearableEpochs.epochSeconds
    /// The still segment on the other side of a turn: at least 5 minutes at one attitude (van Hees
    /// et al. 2015's shortest sustained inactivity).
    public static let shortestNeighbourEpochs = 300 / WearableEpochs.epochSeconds
    /// A twitch: at most a minute of movement, after which the attitude is as before.
    public static let longestTwitchEpochs = 60 / WearableEpochs.epochSeconds

    /// The median angle-z of the epochs with data in `r`; nil without any.
    static func medianAngle(_ e: WearableEpochs, _ r: Range<Int>) -> Double? {
        let angles = r.map { Double(e.angleZ[$0]) }.filter(\.isFinite).sorted()
        return angles.isEmpty ? nil : angles[angles.count / 2]
    }

    /// `core` grown outwards over the epochs at rest at `attitude` (``atRest(_:_:attitude:)``),
    /// across twitches: up to ``longestTwitchEpochs`` of other epochs followed by rest at the same
    /// attitude.
    static func stillness(_ e: WearableEpochs, _ core: Range<Int>, attitude: Double) -> Range<Int> {
        func rest(_ k: Int) -> Bool { k >= 0 && k < e.count && atRest(e, k, attitude: attitude) }
        var lo = core.lowerBound
        while true {
            if rest(lo - 1) { lo -= 1; continue }
            guard let back = (2...(longestTwitchEpochs + 1)).first(where: { rest(lo - $0) }) else { break }
            lo -= back
        }
        var hi = core.upperBound
        while true {
            if rest(hi) { hi += 1; continue }
            guard let ahead = (1...longestTwitchEpochs).first(where: { rest(hi + $0) }) else { break }
            hi += ahead + 1
        }
        return lo..<hi
    }

    /// Whether `still` is a sleeper's stillness between turns: no longer than
    /// ``longestSleeperStillnessEpochs``, and a turn joins it to another still segment.
    static func betweenTurns(_ e: WearableEpochs, _ still: Range<Int>) -> Bool {
        still.count <= longestSleeperStillnessEpochs && turnsIntoStillness(e, still)
    }

    /// Whether a stillness of at least ``shortestNeighbourEpochs`` (across twitches, as
    /// ``stillness(_:_:attitude:)`` follows it) ends within ``longestTurnEpochs`` before `still` or
    /// starts within it after: a turn between two still segments.
    static func turnsIntoStillness(_ e: WearableEpochs, _ still: Range<Int>) -> Bool {
        func stillSegment(at k: Int) -> Bool {
            guard k >= 0 && k < e.count && e.hasData(k) && Double(e.mad[k]) < restingMADG && e.angleZ[k].isFinite else { return false }
            let segment = stillness(e, k..<(k + 1), attitude: Double(e.angleZ[k]))
            return segment.count >= shortestNeighbourEpochs && !segment.overlaps(still)
        }
        for gap in 1...longestTurnEpochs {
            if stillSegment(at: still.lowerBound - gap) || stillSegment(at: still.upperBound + gap - 1) { return true }
        }
        return false
    }

    // MARK: A device laid down

    /// An epoch lies at rest when its MAD is below this (g): sensor noise alone gives about 3 mg.
    public static let restingMADG = 0.010
    /// … and its angle-z within this of the resting attitude (degrees).
    public static let restingAngleDegrees = 0.5
    /// GGIR's rule judges 15-min blocks on centred hours, so a still stretch's first and last half
    /// hour or so stay "worn"; a laid-down stretch grows over them by at most this many epochs.
    static let maximumGrowthEpochs = 45 * 60 / WearableEpochs.epochSeconds
    /// Still stretches outside the sleep window of at least this many epochs are laid down
    /// (``laidDownOutside(_:window:)``): 10 minutes.
    public static let minimumLaidDownEpochs = 600 / WearableEpochs.epochSeconds

    static func atRest(_ e: WearableEpochs, _ i: Int, attitude: Double) -> Bool {
        e.hasData(i) && Double(e.mad[i]) < restingMADG && abs(Double(e.angleZ[i]) - attitude) <= restingAngleDegrees
    }

    /// The epochs just before and after a laid-down stretch that are at rest at its attitude (its
    /// median angle-z): the rest of the time the device lay there, which GGIR's blocks leave out.
    static func grown(_ s: Stretch, _ e: WearableEpochs) -> [Range<Int>] {
        guard let attitude = medianAngle(e, s.startEpoch..<s.endEpoch) else { return [] }
        var lo = s.startEpoch
        while lo > 0 && s.startEpoch - lo < maximumGrowthEpochs && !e.nonWear[lo - 1] && atRest(e, lo - 1, attitude: attitude) { lo -= 1 }
        var hi = s.endEpoch
        while hi < e.count && hi - s.endEpoch < maximumGrowthEpochs && !e.nonWear[hi] && atRest(e, hi, attitude: attitude) { hi += 1 }
        return [lo..<s.startEpoch, s.endEpoch..<hi]
    }

    /// Whether a live temperature channel says the epochs `r` were on the wrist: it decides first,
    /// here as for the stretches GGIR's rule flags (a still nap at skin temperature is worn).
    static func atSkin(_ e: WearableEpochs, _ r: Range<Int>) -> Bool {
        guard isLive(e.temperature), let t = e.temperature else { return false }
        return temperatureSaysWorn(t[r]) == true
    }

    /// Runs of at least ``minimumLaidDownEpochs`` epochs at rest at one attitude (each within
    /// ``restingAngleDegrees`` of the run's first minute) that lie wholly outside `window`: a
    /// device taken off for a shower or laid on a table for less than GGIR's hour. Outside the
    /// sleep window such stillness is not a sleeper's: awake, a worn wrist does not hold one angle
    /// to half a degree for ten minutes. Inside it, the same stillness is deep sleep, and left alone;
    /// outside it too when a turn joins it to another still segment (a sleeper the window missed:
    /// see the type's comment on turns), or when a live temperature channel reads skin temperature
    /// (a nap). Without either, a nap held at one attitude to half a degree, with no turn, cannot be
    /// told from a device put down, and is taken as not worn: no sleep is made of a table.
    public static func laidDownOutside(_ e: WearableEpochs, window: EpochSpan) -> [Range<Int>] {
        var result: [Range<Int>] = []
        let minute = 60 / WearableEpochs.epochSeconds
        var i = 0
        while i + minute <= e.count {
            var sum = 0.0, whole = !e.nonWear[i]
            for k in i..<(i + minute) where whole {
                if e.hasData(k) && e.angleZ[k].isFinite { sum += Double(e.angleZ[k]) } else { whole = false }
            }
            guard whole else { i += 1; continue }
            let attitude = sum / Double(minute)
            var j = i
            while j < e.count && !e.nonWear[j] && atRest(e, j, attitude: attitude) { j += 1 }
            if j - i >= minimumLaidDownEpochs && (j <= window.startEpoch || i >= window.endEpoch)
                && !betweenTurns(e, stillness(e, i..<j, attitude: attitude)) && !atSkin(e, i..<j) {
                result.append(i..<j)
                i = j
            } else {
                i = max(i + 1, j)
            }
        }
        return result
    }
}
