import ArgumentParser
import Foundation
import SleepstaWorkloads

/// `sleepsta-bench shiftworker`: a generated shift worker's week and the truth of every sleep.
struct ShiftWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shiftworker",
        abstract: "Write a generated shift worker's week (CSV at 10 Hz, .cwa at 25 Hz) and the truth of every sleep.",
        discussion: """
        7.5 days from Monday 2024-06-10 00:00 in Europe/Berlin (read the files with --tz Europe/Berlin), \
        worn throughout. Writes DIR/shiftworker-<schedule>-<seed>.csv, .cwa and -truth.csv \
        (day_date,kind,onset_utc_iso,wake_utc_iso,sleep_minutes) and prints the schedule and the truth.
        """)
    @Option(help: "night | day | rotating") var schedule = "night"
    @Option(help: "Seed of the schedule's times and of the signal.") var seed: UInt64 = 1
    @Flag(help: "Add a temperature channel (the CSV then in a device export's layout).") var temperature = false
    @Option(help: "Folder for the files.") var write: String

    func run() throws {
        guard let plan = ShiftSchedule.named(schedule, seed: seed) else {
            throw ValidationError("unknown schedule \(schedule) (\(ShiftSchedule.names.joined(separator: ", ")))")
        }
        try FileManager.default.createDirectory(atPath: write, withIntermediateDirectories: true)
        let week = ShiftWorkerWeek(schedule: plan, seed: seed, temperature: temperature)
        let base = "\(write)/shiftworker-\(schedule)-\(seed)"
        let rows = try week.writeCSV(to: base + ".csv")
        let samples = try week.writeCWA(to: base + ".cwa")
        try week.writeTruthCSV(to: base + "-truth.csv")
        print(plan.timeline)
        for t in week.truth() { print("truth: \(t)") }
        print("\(base).csv: \(rows) rows; \(base).cwa: \(samples) samples; \(base)-truth.csv")
    }
}
