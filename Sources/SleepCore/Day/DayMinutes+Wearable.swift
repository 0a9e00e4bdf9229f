extension DayMinutes {
    /// A wrist day's minutes. Outside its sleep periods each minute takes the class most of its
    /// 5-s epochs have (ties: the earlier class in ``DayMinuteClass`` order): no data; awake (worn,
    /// with data); not worn, by why: the temperature decided where the recording has a live
    /// channel, else stillness at one attitude (`laidDownUTC`), else GGIR's 2013 rule (no movement
    /// for so long). Then every minute from a period's onset to its wake takes the period's kind,
    /// and sleep carried from the day before (to `carriedUntilUTC`) is ``DayMinuteClass/carriedSleep``.
    public static func wearable(window: NightWindow, epochs e: WearableEpochs, laidDownUTC: [[Int64]], temperatureDecides: Bool,
                                periods: [SleepPeriod], carriedUntilUTC: Int64?) -> DayMinutes {
        var day = DayMinutes(window: window)
        let classes = DayMinuteClass.allCases.count
        var counts = [Int](repeating: 0, count: day.classes.count * classes)
        let step = Int64(WearableEpochs.epochSeconds)
        func laidDown(_ t: Int64) -> Bool { laidDownUTC.contains { $0.count == 2 && $0[0] <= t && t < $0[1] } }
        var t = window.startUTC
        while t < window.endUTC {
            let minute = Int((t - window.startUTC) / 60)
            let i = Int(LocalClock.floorDiv(t - e.startUTC, step))
            var c = DayMinuteClass.noData
            if i >= 0 && i < e.count && e.hasData(i) {
                if !e.nonWear[i] { c = .awake } else if temperatureDecides { c = .notWornTemperature } else if laidDown(t) { c = .notWornStill } else { c = .notWornNoMovement }
            }
            counts[minute * classes + Int(c.rawValue)] += 1
            t += step
        }
        for m in day.classes.indices {
            let row = counts[(m * classes)..<((m + 1) * classes)]
            if let best = row.indices.max(by: { row[$0] < row[$1] || (row[$0] == row[$1] && $0 > $1) }) {
                day.classes[m] = DayMinuteClass(rawValue: UInt8(best - m * classes)) ?? .noData
            }
        }
        if let until = carriedUntilUTC { day.mark(fromUTC: window.startUTC, toUTC: until, as: .carriedSleep) }
        for p in periods { day.mark(fromUTC: p.sleepOnsetUTC, toUTC: p.wakeTimeUTC, as: DayMinuteClass(p.kind)) }
        return day
    }

    /// A day of a method that sees only whether a minute has data: minutes with data are awake,
    /// the rest no data, then the periods' minutes by kind (phones, the file's epochs).
    public static func fromCoverage(window: NightWindow, hasData: (Int64) -> Bool, notWorn: (Int64) -> Bool = { _ in false },
                                    periods: [SleepPeriod]) -> DayMinutes {
        var day = DayMinutes(window: window)
        for m in day.classes.indices {
            let t = window.startUTC + Int64(m) * 60
            day.classes[m] = !hasData(t) ? .noData : (notWorn(t) ? .notWornNoMovement : .awake)
        }
        for p in periods { day.mark(fromUTC: p.sleepOnsetUTC, toUTC: p.wakeTimeUTC, as: DayMinuteClass(p.kind)) }
        return day
    }
}
