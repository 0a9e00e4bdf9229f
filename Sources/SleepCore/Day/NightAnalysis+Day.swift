extension NightAnalysis {
    /// The analysis with its day's periods and minutes where its method did not give them: methods
    /// with one sleep period a night (phones: a recording of the time in bed; GGIR parity, which
    /// keeps GGIR's one window a night and says so where that window began with sleep already under
    /// way; epoch files, with the file's other rest intervals as periods of their own).
    public func withDay(_ night: NightData) -> NightAnalysis {
        var a = self
        let source: SleepPeriodSource = night.guide == nil ? .data : .diary
        let main = status == .scored ? metrics.flatMap { SleepPeriod(main: $0, source: source) } : nil
        if a.periods == nil {
            let found = (main.map { [$0] } ?? []) + (kind == .epochFile ? Self.fileRestPeriods(night, main: main) : [])
            a.periods = found.isEmpty ? nil : found
        }
        if kind == .wearable24h, parameters.nightMethod == .ggir, let m = main,
           m.sleepOnsetUTC < night.window.startUTC + Int64(WearableDayPeriods.carriedLeadMinutes * 60) {
            a.notes.append(.ggirSleepUnderWayAtDayStart)
        }
        if a.day == nil { a.day = Self.dayMinutes(night, analysis: a) }
        return a
    }

    /// The minutes of a day whose method gave none: by the wrist epochs' non-wear as the method
    /// judged it, else by the file's epochs (not worn where a diary's `nonwear` row says so), else
    /// by the per-second series' samples (none where a diary's `nonwear` row says so).
    static func dayMinutes(_ night: NightData, analysis a: NightAnalysis) -> DayMinutes {
        let W = night.window, periods = a.periods ?? []
        if let e = night.epochs, e.count > 0, let w = a.wearable {
            return .wearable(window: W, epochs: w.judgedNonWear(e), laidDownUTC: w.laidDownSpansUTC ?? [], temperatureDecides: false,
                             periods: periods, carriedUntilUTC: nil)
        }
        if let f = night.epochFile {
            let off = night.diaryNotWornUTC
            return .fromCoverage(window: W, hasData: { t in t + 60 > f.startUTC && t < f.endUTC },
                                 notWorn: { t in off.contains { $0[0] <= t && t < $0[1] } }, periods: periods)
        }
        // A phone's diary `nonwear` rows are no data, as its method took them (``PhoneInBedMethod``).
        let s = night.series.removingData(in: night.diaryNotWornUTC).series
        return .fromCoverage(window: W, hasData: { t in
            let lo = Int(max(t, s.startSecond) - s.startSecond), hi = Int(min(t + 60, s.endSecond) - s.startSecond)
            return hi > lo && s.sampleCounts[lo..<hi].contains { $0 > 0 }
        }, periods: periods)
    }

    /// Actiware's REST intervals of the day other than the main period's, each a period with the
    /// file's own statistics (its SLEEP interval of the same number gives onset and wake).
    static func fileRestPeriods(_ night: NightData, main: SleepPeriod?) -> [SleepPeriod] {
        guard let intervals = night.epochFile?.actiware?.intervals else { return [] }
        let W = night.window
        return intervals.filter { $0.kind == .rest && $0.startUTC >= W.startUTC && $0.startUTC < W.endUTC }.compactMap { rest in
            if let m = main, rest.startUTC < m.inBedEndUTC && m.inBedStartUTC < rest.endUTC { return nil }   // the main period's own
            let sleep = intervals.first { $0.kind == .sleep && $0.number == rest.number && $0.startUTC >= rest.startUTC && $0.endUTC <= rest.endUTC }
            guard let s = sleep, let stats = s.statistics ?? rest.statistics else { return nil }
            let spt = Double(s.endUTC - s.startUTC) / 60, tib = Double(rest.endUTC - rest.startUTC) / 60
            guard stats.sleepMinutes >= SleepPeriod.napMinimumSleepMinutes else { return nil }
            return SleepPeriod(kind: SleepPeriod.otherKind(sleepPeriodMinutes: spt), source: .data, inBedStartUTC: rest.startUTC,
                               inBedEndUTC: rest.endUTC, sleepOnsetUTC: s.startUTC, wakeTimeUTC: s.endUTC, sleepPeriodMinutes: spt,
                               totalSleepTimeMinutes: stats.sleepMinutes, wasoMinutes: stats.wakeMinutes, awakenings: stats.wakeBouts ?? 0,
                               sleepEfficiencyPercent: tib > 0 ? stats.sleepMinutes / tib * 100 : 0)
        }
    }
}
