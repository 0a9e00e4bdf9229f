import Foundation
import Testing
import SleepCore
import SleepIngest
import SleepPipeline
import SleepStore

/// `sleepsta run` on a database another program holds: a line when the wait starts, then one
/// error naming the database, the holder and what to do (exit 2), instead of 30 s of silence and
/// "SQLite error 5".
@Suite("run on a database another program holds", .serialized)
struct BusyDatabaseCLITests {
    @Test("the wait is said, and its end names the database, the holding process and the way out",
          .enabled(if: SleepstaBinary.path != nil && SQLiteHolder.binary != nil, "the sleepsta binary or the sqlite3 shell is missing"))
    func heldDatabase() throws {
        let w = Workspace()
        w.write("phone.csv", Workspace.phoneNight(startUTC: 1_718_398_800, hours: 2))
        _ = try w.run()
        let holder = try SQLiteHolder(path: w.db)
        defer { holder.release() }
        w.write("second.csv", Workspace.phoneNight(startUTC: 1_718_485_200, hours: 2))
        let started = Date()
        let outcome = try ChildProcess.sleepsta(["run", "--data", w.data, "--db", w.db, "--reports", w.reports, "--tz", "Europe/Berlin"],
                                                in: w.root, prelude: "export SLEEPSTA_BUSY_TIMEOUT=1.5",
                                                outputPrefix: w.root + "/busy").wait()
        let seconds = Date().timeIntervalSince(started)
        #expect(outcome.exitCode == 2, "\(outcome.stderr)")
        #expect(seconds < 20, "waited \(seconds) s with a 1.5 s timeout")
        #if os(Linux)
        let held = "SQLite busy: process \(holder.pid) (sqlite3)"
        #else
        let held = "SQLite busy"
        #endif
        #expect(outcome.stderr.contains("waiting for \(w.db): another program holds it (\(held)); waiting up to 1.5 s for it to let go"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("sleepsta: database \(w.db): another program holds it (\(held)) and did not let go within 1.5 s: close that program"),
                "\(outcome.stderr)")
        #expect(outcome.stderr.contains("the run lock (\(w.db).lock) refuses the second at once"))
        #expect(!outcome.stderr.contains("SQLite error 5"))

        // Once it lets go, the same command runs.
        holder.release()
        let again = try ChildProcess.sleepsta(["run", "--data", w.data, "--db", w.db, "--reports", w.reports, "--tz", "Europe/Berlin"],
                                              in: w.root, outputPrefix: w.root + "/again").wait()
        #expect(again.exitCode == 0, "\(again.stderr)")
    }

    @Test("SLEEPSTA_BUSY_TIMEOUT that is not seconds stops the run by name", .enabled(if: SleepstaBinary.path != nil, "sleepsta binary not built"))
    func badTimeout() throws {
        let w = Workspace()
        let outcome = try ChildProcess.sleepsta(["run", "--data", w.data, "--db", w.db, "--reports", w.reports], in: w.root,
                                                prelude: "export SLEEPSTA_BUSY_TIMEOUT=soon", outputPrefix: w.root + "/bad").wait()
        #expect(outcome.exitCode == 2)
        #expect(outcome.stderr.contains("SLEEPSTA_BUSY_TIMEOUT='soon': expected the seconds to wait"), "\(outcome.stderr)")
    }
}

/// `--tz +03:00`: a fixed offset places the nights on that clock (noon to noon, no DST), under
/// its one stored name, and another spelling of it is the same zone.
@Suite("--tz with a fixed UTC offset", .serialized)
struct FixedOffsetZoneTests {
    @Test("nights on the offset's clock; UTC+3 after +03:00 changes nothing; the page names the zone")
    func fixedOffsetNights() throws {
        let w = Workspace()
        // 2024-06-14 10:30Z to 14:30Z: 13:30 to 17:30 at +03:00, one night of 2024-06-14 (two on UTC).
        w.write("phone.csv", Workspace.phoneNight(startUTC: TimeZoneRerunTests.start, hours: 4))
        let zone = try ZoneTimeline.optionZone("+03:00")
        #expect(zone == "UTC+03:00")
        let first = try w.run(tz: zone)
        #expect(first.filesIngested == 1)
        let db = try SleepDatabase(path: w.db)
        #expect(try db.nightIDs() == ["phone_2024-06-14"])
        let night = try #require(try db.night(id: "phone_2024-06-14"))
        #expect(night.timeZone == "UTC+03:00" && night.timeline.transitions.isEmpty)
        #expect(LocalClock.iso8601(utcSecond: night.window.startUTC, timeline: night.timeline) == "2024-06-14T12:00:00+03:00")
        #expect(night.window.durationSeconds == 24 * 3600)
        let page = try String(contentsOfFile: w.reports + "/phone_2024-06-14/index.html", encoding: .utf8)
        #expect(page.contains("time zone UTC+03:00 (from --tz)"))

        let again = try w.run(tz: try ZoneTimeline.optionZone("UTC+3"))
        #expect(again.filesUnchanged == 1 && again.filesIngested == 0, "another spelling of the same offset is the same zone")

        // West of UTC: 07:30 to 11:30 at −03:00, the morning of the night of 2024-06-13.
        _ = try w.run(tz: try ZoneTimeline.optionZone("GMT-3"))
        #expect(try db.nightIDs() == ["phone_2024-06-13"])
        #expect(try db.night(id: "phone_2024-06-13")?.timeZone == "UTC-03:00")
    }
}
