/// Nights whose sleep was measured twice: two recordings of one participant (a wrist device and a
/// phone, two exports of one device, a file copied under a second name) whose scored sleep periods
/// overlap in time.
///
/// Why it matters: a participant's means, Table 1 and the valid-night counts take every scored
/// night of every recording of the participant, so one sleep measured by two recordings is
/// counted twice and weighs double. Which recording to keep is a choice of the study (the device
/// of record, the better worn one), not of the method, so the night is flagged, never dropped.
///
/// Definition: the sleep periods `[onset, wake)` of two scored nights overlap when each begins
/// before the other ends (touching end to start is no overlap); both nights are flagged. Nights of
/// one recording never overlap each other in this sense (its analyses under other parameters are
/// the same sleep, not a second measurement).
public enum SleepPeriodOverlap {
    /// One scored night's sleep period, with the recording and participant it belongs to; `id`
    /// names the night in the result (an analysis id).
    public struct Period: Sendable, Equatable {
        public var id: Int64
        public var participant: String
        public var recording: String
        public var onsetUTC: Int64
        public var wakeUTC: Int64
        public init(id: Int64, participant: String, recording: String, onsetUTC: Int64, wakeUTC: Int64) {
            self.id = id; self.participant = participant; self.recording = recording
            self.onsetUTC = onsetUTC; self.wakeUTC = wakeUTC
        }
    }

    /// The ids of the periods that overlap a period of another recording of the same participant.
    public static func overlapping(_ periods: [Period]) -> Set<Int64> {
        var result = Set<Int64>()
        for (_, group) in Dictionary(grouping: periods.filter { $0.wakeUTC > $0.onsetUTC }, by: \.participant) {
            // Sweep in onset order, keeping the periods still open at the current onset.
            var open: [Period] = []
            for p in group.sorted(by: { ($0.onsetUTC, $0.id) < ($1.onsetUTC, $1.id) }) {
                open.removeAll { $0.wakeUTC <= p.onsetUTC }
                for q in open where q.recording != p.recording {
                    result.insert(q.id); result.insert(p.id)
                }
                open.append(p)
            }
        }
        return result
    }
}
