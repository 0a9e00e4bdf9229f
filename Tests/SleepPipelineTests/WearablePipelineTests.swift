import Foundation
import Logging
import Testing
import SleepCore
import SleepPipeline
import SleepStore
import SleepstaWorkloads
import SleepIngest

/// The wearable method end to end: the benchmark's wrist signal (100 Hz, gravity included, a
/// scripted day/night, a table afternoon) as `.cwa` and CSV, through `sleepsta run`.
@Suite("Wearable recordings through the pipeline", .serialized)
struct WearablePipelineTests {
    static func run(_ w: Workspace, kind: RecordingKind? = nil) throws -> RunSummary {
        try w.run { $0.kindOverride = kind }
    }

    @Test("3-day wrist signal, .cwa and CSV: every full night's sleep onset and wake within 20 min of the script, TST within 30 min")
    func scriptedNights() throws {
        let generator = WearableCSVGenerator(days: 3)
        let truth = generator.truth()
        #expect(truth.count == 3)   // nights starting 06-14, 06-15, 06-16 23:00 (the last is cut at 02:00)
        for format in ["cwa", "csv"] {
            let w = Workspace()
            let file = w.data + "/wrist-3d." + format
            if format == "cwa" { try SharedRecordings.writeCWA(generator, to: file) } else { try generator.write(to: file) }
            let summary = try Self.run(w)
            try? FileManager.default.removeItem(atPath: file)
            #expect(summary.failures.isEmpty, "\(summary.failures)")
            let db = try SleepDatabase(path: w.db)
            #expect(try db.query("SELECT kind FROM recordings").first?["kind"] == "wearable-24h")
            let rows = try db.query("""
                SELECT a.night_id, a.status, a.notes_json, m.sleep_onset_utc, m.wake_time_utc, m.total_sleep_time_min
                FROM analyses a LEFT JOIN night_metrics m ON m.analysis_id = a.id ORDER BY a.night_id
                """)
            #expect(rows.count == 4)
            var scored = 0
            for row in rows where row["status"] == "scored" {
                let onset = Int64(row["sleep_onset_utc"]!)!, wake = Int64(row["wake_time_utc"]!)!
                let tst = Double(row["total_sleep_time_min"]!)!
                let night = try #require(truth.first { abs($0.onsetUTC - onset) < 4 * 3600 }, "no scripted night near \(row["night_id"]!)")
                let dOn = Double(onset - night.onsetUTC) / 60, dWake = Double(wake - night.wakeUTC) / 60
                let dTST = tst - Double(night.sleepMinutes)
                print("WEARABLE \(format) \(row["night_id"]!): onset \(Self.clock(onset)) (script \(Self.clock(night.onsetUTC)), \(Self.signed(dOn)) min), "
                      + "wake \(Self.clock(wake)) (script \(Self.clock(night.wakeUTC)), \(Self.signed(dWake)) min), "
                      + "TST \(Int(tst.rounded())) min (script \(night.sleepMinutes), \(Self.signed(dTST)) min)")
                #expect(abs(dOn) <= 20 && abs(dWake) <= 20 && abs(dTST) <= 30, "\(row)")
                scored += 1
            }
            // Nights 06-14 and 06-15 are whole; 06-13 (from 02:00) and 06-16 (to 02:00) are not.
            #expect(scored == 2)
            let short = rows.filter { $0["status"] == "insufficient-data" }
            #expect(short.count == 2 && short.allSatisfy { StoredNotes.text($0["notes_json"]).contains("GGIR's includenightcrit needs 16 h") })
            // The table afternoon (06-15, 14:00–17:00) is non-wear, never sleep.
            let details = try #require(try db.query("SELECT details_json FROM analyses WHERE night_id LIKE '%2024-06-15'").first?["details_json"])
            let facts = try JSONDecoder().decode(WearableNightSummary.self, from: Data(details.utf8))
            #expect(facts.nonWearMinutes >= 120 && facts.nonWearMinutes <= 180, "\(facts.nonWearMinutes)")
            let tableSleep = try db.query("""
                SELECT COUNT(*) AS n FROM scores s JOIN analyses a ON a.id = s.analysis_id
                WHERE a.night_id LIKE '%2024-06-15' AND s.start_utc >= 1718454600 AND s.start_utc < 1718461800 AND s.state IS NOT NULL
                """)
            // 14:30–16:30 local: the blocks whose centred hour lies on the table (GGIR's rule leaves
            // the first and last 30 min of a still stretch to the worn side) are neither sleep nor wake.
            #expect(tableSleep.first?["n"] == "0")
            let folder = "wrist-3d_2024-06-15"   // the .cwa extension is dropped as the .csv one is (issue 14)
            let page = try String(contentsOfFile: w.reports + "/" + folder + "/index.html", encoding: .utf8)
            #expect(page.contains("wearable-24h: GGIR&#39;s chain") || page.contains("wearable-24h: GGIR's chain"))
            #expect(page.contains("SleepDurationInSpt") && page.contains("includenightcrit"))
        }
    }

    @Test("--sleep-algorithm cole-kripke / sadeh: ActiGraph counts computed from the raw .cwa, scored per minute as ActiLife; a stored milestone without counts is read again once")
    func countsFromRaw() throws {
        let generator = WearableCSVGenerator(days: 3)
        let truth = generator.truth()
        let w = Workspace()
        try SharedRecordings.writeCWA(generator, to: w.data + "/wrist-3d.cwa")
        let db = try SleepDatabase(path: w.db)
        // 1. The default (van Hees 2015) computes no counts.
        _ = try Self.run(w)
        #expect(try db.query("SELECT COUNT(*) AS n FROM epoch_series WHERE counts_xyz_i32le IS NOT NULL").first?["n"] == "0")
        func nights(_ algorithm: String) throws -> [[String: String]] {
            try db.query("""
                SELECT a.night_id, a.status, m.sleep_onset_utc, m.wake_time_utc, m.total_sleep_time_min FROM analyses a
                LEFT JOIN night_metrics m ON m.analysis_id = a.id WHERE a.algorithm = ? ORDER BY a.night_id
                """, [algorithm])
        }
        for (choice, algorithm) in [(SleepAlgorithmChoice.coleKripke, "ggir-hdcza-colekripke-actilife"), (.sadeh, "ggir-hdcza-sadeh-actilife")] {
            let summary = try w.run { $0.parameters.sleepAlgorithm = choice }
            #expect(summary.failures.isEmpty, "\(summary.failures)")
            // 2. Counts are asked for the first time: the file is read again (once), not for Sadeh after it.
            #expect(summary.filesIngested == (choice == .coleKripke ? 1 : 0))
            #expect(try db.query("SELECT COUNT(*) AS n FROM epoch_series WHERE counts_xyz_i32le IS NULL").first?["n"] == "0")
            let quality = try #require(try db.query("SELECT activity_counts FROM recording_quality").first?["activity_counts"])
            #expect(quality.contains("computed as ActiLife does"))
            let rows = try nights(algorithm)
            #expect(rows.count == 4)
            var scored = 0
            for row in rows where row["status"] == "scored" {
                let onset = Int64(row["sleep_onset_utc"]!)!, wake = Int64(row["wake_time_utc"]!)!
                let tst = Double(row["total_sleep_time_min"]!)!
                let night = try #require(truth.first { abs($0.onsetUTC - onset) < 4 * 3600 })
                let dOn = Double(onset - night.onsetUTC) / 60, dWake = Double(wake - night.wakeUTC) / 60, dTST = tst - Double(night.sleepMinutes)
                print("WEARABLE \(choice.rawValue) \(row["night_id"]!): onset \(Self.signed(dOn)) min, wake \(Self.signed(dWake)) min, TST \(Int(tst)) min (script \(night.sleepMinutes), \(Self.signed(dTST)))")
                #expect(abs(dOn) <= 20 && abs(dWake) <= 20 && abs(dTST) <= 30, "\(row)")
                scored += 1
            }
            #expect(scored == 2)
            let page = try String(contentsOfFile: w.reports + "/wrist-3d_2024-06-15/index.html", encoding: .utf8)
            #expect(page.contains(choice == .sadeh ? "Sadeh (Sadeh et al. 1994) with ActiLife" : "Cole–Kripke (Cole et al. 1992) with ActiLife"))
            #expect(page.contains("ActiGraph counts from raw (agcounts)"))
            #expect(page.contains("minutes scored sleep by \(choice == .sadeh ? "Sadeh" : "Cole–Kripke") (ActiLife)") && !page.contains("sustained inactivity bout"))
        }
        // 3. The default again: re-derived from the database, nothing read.
        let back = try Self.run(w)
        #expect(back.filesIngested == 0 && back.failures.isEmpty)
        #expect(try nights("ggir-hdcza-vanhees2015").filter { $0["status"] == "scored" }.count == 2)
    }

    @Test("a raw CSV with gravity over one night is a phone with a warning; --kind wearable-24h gives it the wearable method, too short")
    func gravityNight() throws {
        let w = Workspace()
        var lines = ["timestamp,x,y,z"]
        for s in 0..<(8 * 3600) { lines.append("\(1_718_402_400 + s),0.0100,-0.9990,0.0400") }
        w.write("night.csv", lines.joined(separator: "\n") + "\n")
        _ = try Self.run(w)
        let db = try SleepDatabase(path: w.db)
        let r = try #require(try db.query("SELECT r.kind, r.kind_reason, (SELECT group_concat(text, char(10)) FROM recording_warnings w WHERE w.recording_id = r.id) AS warnings FROM recordings r").first)
        #expect(r["kind"] == "phone-in-bed" && r["kind_reason"]!.contains("gravity over only 8 h"))
        #expect(r["warnings"]!.contains("includes gravity"))
        let forced = try Self.run(w, kind: .wearable24h)
        #expect(forced.filesIngested == 1)   // another kind: read again
        let a = try #require(try db.query("SELECT a.kind, a.status, a.notes_json FROM analyses a JOIN recordings r ON r.id = (SELECT recording_id FROM nights WHERE id = a.night_id) WHERE a.kind = 'wearable-24h'").first)
        #expect(a["status"] == "insufficient-data")
    }

    @Test("a wearable file with gravity removed gets no fake sleep: its nights are unsuitable, with the reason")
    func gravityRemoved() throws {
        let w = Workspace()
        w.write("phone.csv", Workspace.phoneNight(startUTC: 1_718_402_400))
        _ = try Self.run(w, kind: .wearable24h)
        let db = try SleepDatabase(path: w.db)
        let a = try #require(try db.query("SELECT status, status_reason, notes_json FROM analyses").first)
        #expect(a["status"] == "unsuitable" && a["status_reason"] == "" && StoredNotes.text(a["notes_json"]).contains("needs raw acceleration with gravity"))
        #expect(try db.query("SELECT (SELECT group_concat(text, char(10)) FROM recording_warnings w WHERE w.recording_id = r.id) AS warnings FROM recordings r").first!["warnings"]!.contains("gravity was removed"))
    }

    @Test("a miscalibrated wrist (offset and scale per axis) is auto-calibrated and read again through the fit")
    func autoCalibration() throws {
        // 26 h at 5 Hz: still for 60 s in each of 24 orientations spread over the sphere, moving in
        // between; the device adds an offset and a scale error per axis.
        let w = Workspace()
        var rng = SleepstaWorkloads.SplitMix64(seed: 3)
        var lines = ["timestamp,x,y,z"]
        let t0 = 1_718_380_800
        var g = (0.0, 0.0, 1.0)
        for s in 0..<(26 * 3600) {
            if s % 120 == 0 {
                let k = Double((s / 120) % 24)
                let theta = acos(1 - 2 * (k + 0.5) / 24), phi = k * 2.399963
                g = (sin(theta) * cos(phi), sin(theta) * sin(phi), cos(theta))
            }
            let moving = s % 120 >= 60
            for i in 0..<5 {
                let wobble = moving ? 0.3 * sin(Double(s * 5 + i)) : 0
                let (x, y, z) = (g.0 + wobble + 0.003 * rng.gaussian(), g.1 + 0.003 * rng.gaussian(), g.2 + 0.003 * rng.gaussian())
                // The device's error: raw = true / scale − offset (so the fit should find offset, scale).
                let raw = (x / 1.02 - 0.03, y / 0.98 + 0.02, z / 1.01 - 0.05)
                lines.append("\(t0 + s).\(i * 2),\(String(format: "%.5f", raw.0)),\(String(format: "%.5f", raw.1)),\(String(format: "%.5f", raw.2))")
            }
        }
        w.write("wrist.csv", lines.joined(separator: "\n") + "\n")
        let summary = try Self.run(w)
        #expect(summary.failures.isEmpty)
        let db = try SleepDatabase(path: w.db)
        let recording = try #require(try db.recording(forNight: try db.nightIDs()[0]))
        #expect(recording.kind == .wearable24h)
        let q = recording.quality
        #expect(q.calibration?.hasPrefix("applied") == true, "\(q.calibration ?? "")")
        let before = try #require(q.calibrationErrorBeforeMilliG), after = try #require(q.calibrationErrorAfterMilliG)
        print("CALIBRATION error \(before) mg → \(after) mg, offset \(q.calibrationOffsetG ?? []), scale \(q.calibrationScale ?? [])")
        #expect(before > 20 && after < 2)
        let offset = try #require(q.calibrationOffsetG), scale = try #require(q.calibrationScale)
        for (found, truth) in zip(offset + scale, [0.03, -0.02, 0.05, 1.02, 0.98, 1.01]) { #expect(abs(found - truth) < 0.002) }
        // Calibrated still epochs have |a| ≈ 1 g, so ENMO of the still minutes is near 0.
        let e = try #require(try db.night(id: try db.nightIDs()[0])?.epochs)
        let still = (0..<e.count).filter { e.hasData($0) && (e.epochStartUTC($0) - 1_718_380_800) % 120 < 55 && (e.epochStartUTC($0) - 1_718_380_800) % 120 >= 5 }
        let meanStillENMO = still.map { Double(e.enmo[$0]) }.reduce(0, +) / Double(still.count)
        #expect(meanStillENMO < 0.003, "\(meanStillENMO)")
    }

    @Test("a plain CSV's lean first pass (the recording and calibration features on both cores, the milestone in the second pass) gives what the full first pass gave, bit for bit: calibrated and not",
          arguments: [true, false])
    func leanFirstPass(calibrated: Bool) throws {
        // 26 h at 5 Hz: still in 24 orientations (the fit applies) or always in one (skipped).
        let w = Workspace()
        var lines = ["timestamp,x,y,z"]
        let t0 = 1_718_380_800
        var g = (0.0, 0.0, 1.0)
        for s in 0..<(26 * 3600) {
            if calibrated && s % 120 == 0 {
                let k = Double((s / 120) % 24)
                let theta = acos(1 - 2 * (k + 0.5) / 24), phi = k * 2.399963
                g = (sin(theta) * cos(phi), sin(theta) * sin(phi), cos(theta))
            }
            for i in 0..<5 {
                let wobble = s % 120 >= 60 ? 0.3 * sin(Double(s * 5 + i)) : 0.001 * sin(Double(s + i))
                let raw = ((g.0 + wobble) / 1.02 - 0.03, g.1 / 0.98 + 0.02, g.2 / 1.01 - 0.05)
                lines.append("\(t0 + s).\(i * 2),\(String(format: "%.5f", raw.0)),\(String(format: "%.5f", raw.1)),\(String(format: "%.5f", raw.2))")
            }
        }
        w.write("wrist.csv", lines.joined(separator: "\n") + "\n")
        let path = w.data + "/wrist.csv"
        let options = IngestOptions(timeZoneIdentifier: "Europe/Berlin")
        let lean = try WearableMilestonePasses.read(reader: RawCSVReader(), path: path, options: options)
        #expect(lean.sink == nil && lean.features != nil)
        // The full first pass, as before: the whole milestone with the features.
        let (recording, sink) = try WearableMilestonePasses.milestonePass(RawCSVReader(), path: path, options: options,
                                                             sink: SplitWearableSink(collectCalibrationFeatures: true, statisticsOnWorker: true))
        #expect(lean.features == sink.calibrationFeatures)
        let full = WearableMilestonePasses(recording: recording, sink: sink, reader: RawCSVReader(), options: options)
        var a = lean.recording, b = full.recording
        let ea = try #require(try WearableMilestonePasses.wearableEpochs(lean, path: path, recording: &a))
        let eb = try #require(try WearableMilestonePasses.wearableEpochs(full, path: path, recording: &b))
        #expect(a.quality == b.quality && a.warnings == b.warnings)
        #expect(a.quality.calibration?.hasPrefix(calibrated ? "applied" : "skipped") == true, "\(a.quality.calibration ?? "")")
        func bits(_ v: [Float]) -> [UInt32] { v.map(\.bitPattern) }
        #expect(ea.startUTC == eb.startUTC && ea.sampleCounts == eb.sampleCounts && ea.nonWear == eb.nonWear && ea.count > 18_000)
        #expect(bits(ea.enmo) == bits(eb.enmo) && bits(ea.angleZ) == bits(eb.angleZ) && bits(ea.mad) == bits(eb.mad))
    }

    @Test("a plain CSV's calibrated pass replays its samples straight to the milestone: the same epochs and statistics as a full second read, bit for bit",
          arguments: ["clean", "stepsBack", "keptBack", "iso"])
    func calibratedReplay(shape: String) throws {
        // 3 h at 25 Hz with gravity, a header, a CRLF row; "stepsBack": one timestamp 0.46 s
        // earlier than the row before, in the second before (the intake drops it); "keptBack": one
        // a little earlier in the same second (the intake keeps it); either way no replay, the
        // milestone comes from a full read. "iso": ISO 8601 timestamps (not the mapped path's:
        // replaySamples declines before a sample).
        let w = Workspace()
        var lines = ["timestamp,x,y,z"]
        let t0 = 1_718_380_800
        for i in 0..<(3 * 3600 * 25) {
            let a = Double(i)
            let x = 0.2 * sin(a * 0.0007) + 0.01 * sin(a * 0.9), y = 0.3 * cos(a * 0.0003), z = -0.9 + 0.02 * sin(a * 0.31)
            var t = "\(t0 + i / 25).\(String(format: "%02d", (i % 25) * 4))"
            if shape == "stepsBack" && i == 40_000 { t = "\(t0 + i / 25 - 1).50" }   // 0.46 s back, into the second before: dropped
            if shape == "keptBack" && i == 40_002 { t = "\(t0 + i / 25).02" }        // before the row's .04, same second: kept
            if shape == "iso" {
                let sec = i / 25   // t0 is 2024-06-14T16:00:00Z
                t = String(format: "2024-06-14T%02d:%02d:%02d.%03dZ", 16 + sec / 3600, sec / 60 % 60, sec % 60, (i % 25) * 40)
            }
            lines.append("\(t),\(String(format: "%.4f", x)),\(String(format: "%.4f", y)),\(String(format: "%.4f", z))" + (i == 500 ? "\r" : ""))
        }
        w.write("wrist.csv", lines.joined(separator: "\n") + "\n")
        let path = w.data + "/wrist.csv"
        let options = IngestOptions(timeZoneIdentifier: "Europe/Berlin")
        let reader = RawCSVReader()
        let first = try WearableMilestonePasses.read(reader: reader, path: path, options: options)
        // The ISO file's first read (the serial reader) handed every sample on, but the mapped path does not take it.
        #expect(RawCSVReader.passedEverySample(first.recording) == (shape == "clean" || shape == "iso"))
        var probe = RawSampleBuffer()
        // Called anyway, the replay stops at a step back (ForwardingConsumer) and declines ISO times.
        #expect(try reader.replaySamples(path: path, samples: &probe) == (shape == "clean"))
        if shape == "clean" {
            // The replay hands on exactly what the first read's intake handed its sink.
            var handed = RawSampleBuffer()
            _ = try reader.read(path: path, options: options, samples: &handed)
            func bits(_ v: [Double]) -> [UInt64] { v.map(\.bitPattern) }
            #expect(probe.timestamps.count == 3 * 3600 * 25)
            #expect(bits(probe.timestamps) == bits(handed.timestamps) && bits(probe.x) == bits(handed.x)
                    && bits(probe.y) == bits(handed.y) && bits(probe.z) == bits(handed.z))
        }

        let calibration = LinearCalibration(offset: [0.012, -0.031, 0.004], scale: [1.013, 0.987, 1.002])
        let replayed = try WearableMilestonePasses.calibratedPass(reader, path: path, options: options, firstRead: first.recording, calibration: calibration)
        let full = try WearableMilestonePasses.milestonePass(reader, path: path, options: options, sink: SplitWearableSink(calibration: calibration)).1
        let a = try replayed.finish(), b = try full.finish()
        func bits(_ v: [Float]) -> [UInt32] { v.map(\.bitPattern) }
        func bits(_ v: [[Double]]) -> [[UInt64]] { v.map { $0.map(\.bitPattern) } }
        #expect(a.epochs.count == 3 * 720 && a.epochs.startUTC == b.epochs.startUTC)
        #expect(a.epochs.sampleCounts == b.epochs.sampleCounts && a.epochs.nonWear == b.epochs.nonWear)
        #expect(bits(a.epochs.enmo) == bits(b.epochs.enmo) && bits(a.epochs.angleZ) == bits(b.epochs.angleZ) && bits(a.epochs.mad) == bits(b.epochs.mad))
        #expect(bits(a.statistics.mean) == bits(b.statistics.mean) && bits(a.statistics.m2) == bits(b.statistics.m2)
                && bits(a.statistics.minimum) == bits(b.statistics.minimum) && bits(a.statistics.maximum) == bits(b.statistics.maximum))
        #expect(replayed.outOfOrderSamples == full.outOfOrderSamples)
    }

    @Test("a wrist CSV cut short, plain or gzip: its milestone is the complete rows' one, bit for bit (for gzip the fast path hands the cut stream to the serial reader, which gets a fresh milestone: the first attempt's samples and batches are gone)")
    func cutShortMilestone() throws {
        let w = Workspace()
        var text = "timestamp,x,y,z\n"
        let t0 = 1_718_380_800
        for i in 0..<(3 * 3600 * 25) {
            let a = Double(i)
            let x = 0.2 * sin(a * 0.0007) + 0.01 * sin(a * 0.9), y = 0.3 * cos(a * 0.0003), z = -0.9 + 0.02 * sin(a * 0.31)
            text += "\(t0 + i / 25).\(String(format: "%02d", (i % 25) * 4)),\(String(format: "%.4f", x)),\(String(format: "%.4f", y)),\(String(format: "%.4f", z))\n"
        }
        let bytes = Array(text.utf8)
        let cutAt = bytes.count * 4 / 5 + 7
        let lastRow = bytes[..<cutAt].lastIndex(of: 10)! + 1
        w.write("complete.csv", String(decoding: bytes[..<lastRow], as: UTF8.self))
        w.write("cut.csv", String(decoding: bytes[..<cutAt], as: UTF8.self))
        w.write("whole.csv", text)
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/sh")
        // The gzip file of the whole text, cut at 4/5 of its compressed bytes.
        gzip.arguments = ["-c", "cd '\(w.data)' && gzip -c whole.csv > whole.csv.gz && head -c $(( $(wc -c < whole.csv.gz) * 4 / 5 )) whole.csv.gz > cut.csv.gz"]
        try gzip.run(); gzip.waitUntilExit()
        let options = IngestOptions(timeZoneIdentifier: "Europe/Berlin")
        // The first pass with the whole milestone (what a .csv.gz gets; a plain file's lean first
        // pass leaves the milestone to the second, which replays the same samples).
        func milestone(_ name: String) throws -> (Recording, WearableEpochSink) {
            try WearableMilestonePasses.milestonePass(RawCSVReader(), path: w.data + "/" + name, options: options,
                                         sink: SplitWearableSink(collectCalibrationFeatures: true, statisticsOnWorker: true))
        }
        let (reference, referenceSink) = try milestone("complete.csv")
        func bits(_ v: [Float]) -> [UInt32] { v.map(\.bitPattern) }
        func bits(_ v: [[Double]]) -> [[UInt64]] { v.map { $0.map(\.bitPattern) } }
        let b = try referenceSink.finish()
        for name in ["cut.csv", "cut.csv.gz"] {
            let (recording, sink) = try milestone(name)
            #expect(recording.warnings.last?.contains("cut short") == true, "\(name): \(recording.warnings)")
            let a = try sink.finish()
            #expect(sink.calibrationFeatures == referenceSink.calibrationFeatures || name == "cut.csv.gz", "\(name)")
            if name == "cut.csv" {
                #expect(a.epochs.startUTC == b.epochs.startUTC && a.epochs.sampleCounts == b.epochs.sampleCounts && a.epochs.nonWear == b.epochs.nonWear)
                #expect(bits(a.epochs.enmo) == bits(b.epochs.enmo) && bits(a.epochs.angleZ) == bits(b.epochs.angleZ) && bits(a.epochs.mad) == bits(b.epochs.mad))
                #expect(bits(a.statistics.mean) == bits(b.statistics.mean) && bits(a.statistics.m2) == bits(b.statistics.m2))
                #expect(recording.quality == reference.quality)
                // The lean first pass drops the cut row too, and its second pass replays the rows before it.
                let lean = try WearableMilestonePasses.read(reader: RawCSVReader(), path: w.data + "/cut.csv", options: options)
                #expect(lean.sink == nil && lean.features == referenceSink.calibrationFeatures && lean.recording.quality == reference.quality)
                var r = lean.recording
                let e = try WearableMilestonePasses.wearableEpochs(lean, path: w.data + "/cut.csv", recording: &r)
                #expect(e?.sampleCounts == b.epochs.sampleCounts && e.map { bits($0.enmo) } == bits(b.epochs.enmo))
            } else {
                // Cut elsewhere (at 4/5 of the compressed bytes): every epoch it has is the whole
                // file's, and the samples arrived once each, in order.
                let whole = try milestone("whole.csv").1.finish()
                let n = a.epochs.count
                #expect(n > 1000 && n < whole.epochs.count && a.epochs.startUTC == whole.epochs.startUTC && sink.outOfOrderSamples == 0)
                #expect(Array(a.epochs.sampleCounts.prefix(n - 1)) == Array(whole.epochs.sampleCounts.prefix(n - 1)))
                #expect(Array(bits(a.epochs.enmo).prefix(n - 1)) == Array(bits(whole.epochs.enmo).prefix(n - 1)))
                #expect(a.epochs.sampleCounts.reduce(0) { $0 + Int($1) } == recording.quality.sampleCount)
            }
        }
    }

    @Test("a file rewritten between the two passes stops the replay where the intake would have objected (a step back, a time far ahead): the pass is read in full")
    func replayStopsOnChangedFile() throws {
        let w = Workspace()
        let path = w.data + "/wrist.csv"
        func write(_ edit: (Int, inout Int) -> Void) {
            var lines = ["timestamp,x,y,z"]
            for i in 0..<20_000 {
                var centis = 1_718_380_800 * 100 + i * 4
                edit(i, &centis)
                lines.append("\(centis / 100).\(String(format: "%02d", centis % 100)),0.0100,-0.9800,0.1800")
            }
            w.write("wrist.csv", lines.joined(separator: "\n") + "\n")
        }
        write { _, _ in }
        let first = try WearableMilestonePasses.read(reader: RawCSVReader(), path: path, options: IngestOptions())
        #expect(RawCSVReader.passedEverySample(first.recording))
        var clean = RawSampleBuffer()
        #expect(try RawCSVReader().replaySamples(path: path, samples: &clean) && clean.timestamps.count == 20_000)
        // Rewritten: 2 s back at row 10 000 (the intake would refuse the file) ...
        write { i, c in if i == 10_000 { c -= 200 } }
        var back = RawSampleBuffer()
        #expect(try RawCSVReader().replaySamples(path: path, samples: &back) == false)
        #expect(back.timestamps.count == 10_000)
        // ... or a row 100 days ahead (past the 62-day span: it would be refused, not stretch the epochs).
        write { i, c in if i == 15_000 { c += 100 * 86_400 * 100 } }
        var ahead = RawSampleBuffer()
        #expect(try RawCSVReader().replaySamples(path: path, samples: &ahead) == false)
        #expect(ahead.timestamps.count == 15_000)
        // calibratedPass then reads the file in full, whose intake reports the problem.
        #expect(throws: IngestError.self) {
            _ = try WearableMilestonePasses.calibratedPass(RawCSVReader(), path: path, options: IngestOptions(), firstRead: first.recording,
                                              calibration: LinearCalibration(offset: [0, 0, 0], scale: [1, 1, 1]))
        }
    }

    @Test("the real wearable files of other projects' test suites run through run and get the wearable method (too short: insufficient-data)",
          .enabled(if: ExternalData.available, Comment(rawValue: ExternalData.skipMessage)))
    func peerDeviceFiles() throws {
        let w = Workspace()
        let files = ["peer_test_files/ggir/actigraph_testfile.gt3x", "peer_test_files/ggirread/GENEActiv_testfile.bin",
                     "peer_test_files/ggirread/ax3_testfile.cwa", "peer_test_files/ggirread/ax3_testfile_corrupt_blocks_0_13_14_142_143_144.cwa",
                     "peer_test_files/ggirread/ax6_testfile.cwa", "agcounts_link_100hz/example.gt3x"]
        for f in files {
            let source = try #require(ExternalData.url(f))
            try FileManager.default.copyItem(atPath: source.path, toPath: w.data + "/" + source.lastPathComponent)
        }
        let summary = try Self.run(w)
        #expect(summary.failures.isEmpty, "\(summary.failures)")
        let db = try SleepDatabase(path: w.db)
        let rows = try db.query("""
            SELECT r.path, r.kind, a.status, a.notes_json FROM analyses a JOIN nights n ON n.id = a.night_id
            JOIN recordings r ON r.id = n.recording_id ORDER BY r.path
            """)
        for r in rows { print("PEER \(r["path"]!): \(r["kind"]!), \(r["status"]!): \(StoredNotes.text(r["notes_json"]))") }
        #expect(Set(rows.map { $0["path"]! }).count == files.count - summary.failures.count)
        #expect(rows.allSatisfy { $0["kind"] == "wearable-24h" && $0["status"] == "insufficient-data"
                                  && StoredNotes.text($0["notes_json"]).contains("GGIR's includenightcrit needs 16 h") })
    }

    /// Metrics of the bundled phone nights as `run` computed them before recording kinds existed
    /// (the phone method is unchanged: ``NightAnalyzer``).
    @Test("the phone nights in Data/ keep their metrics exactly")
    func bundledPhoneNights() throws {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let w = Workspace()
        for name in ["phone-1hz-alex.csv", "sleepsta-app-export.json"] {
            try FileManager.default.copyItem(atPath: repo.path + "/Data/" + name, toPath: w.data + "/" + name)
        }
        _ = try Self.run(w)
        let db = try SleepDatabase(path: w.db)
        let rows = try db.query("""
            SELECT a.night_id, r.kind, m.sleep_onset_utc, m.wake_time_utc, m.total_sleep_time_min, m.waso_min, m.awakenings,
                   m.sleep_efficiency_pct, m.light_min, m.deep_min
            FROM analyses a JOIN night_metrics m ON m.analysis_id = a.id JOIN nights n ON n.id = a.night_id
            JOIN recordings r ON r.id = n.recording_id ORDER BY a.night_id
            """)
        let pinned = rows.map { r in ["night_id", "sleep_onset_utc", "wake_time_utc", "total_sleep_time_min", "waso_min", "awakenings", "sleep_efficiency_pct", "light_min", "deep_min"].map { r[$0]! }.joined(separator: "|") }
        for line in pinned { print("PHONE \(line)") }
        #expect(rows.allSatisfy { $0["kind"] == "phone-in-bed" })
        #expect(pinned == Self.pinnedPhoneNights, "\(pinned)")
    }

    static let pinnedPhoneNights = [
        "phone-1hz-alex_2024-06-14|1718400000|1718427000|440.0|10.0|1|93.02325581395348|330.0|110.0",
        "sleepsta-app-export_2024-03-29|1711752000|1711776600|370.0|40.0|4|84.0909090909091|270.0|100.0",
        // The app's nights of 03-30 and 03-31 close their totals at :05, :15 …; 10-min intervals
        // follow them (issue 14), so wake totals are no longer split 5/5 into two sleep intervals.
        "sleepsta-app-export_2024-03-30|1711840500|1711861500|320.0|30.0|3|82.05128205128206|240.0|80.0",
        "sleepsta-app-export_2024-03-31|1711919700|1711945500|420.0|10.0|1|91.30434782608695|310.0|110.0",
    ]

    static func clock(_ utc: Int64) -> String {
        let local = utc + 7200
        return String(format: "%02d:%02d", (local % 86_400) / 3600, (local % 3600) / 60)
    }
    static func signed(_ v: Double) -> String { String(format: "%+.1f", v) }
}

/// A recording read again (another `--sleep-algorithm` that needs its counts) keeps every analysis
/// stored for it: each parameter set is derived again for the new nights in the same transaction,
/// a diary-guided one with the guides stored with it.
@Suite("Analyses survive a re-read", .serialized)
struct AnalysesSurviveRereadTests {
    @Test("10 min, then 15 min, then a diary, then cole-kripke (the file read again for its counts): every analysis is still there, the diary's unchanged")
    func newcomerSequence() throws {
        let w = Workspace()
        try SharedRecordings.writeCWA(WearableCSVGenerator(days: 3), to: w.data + "/wrist-3d.cwa")
        let db = try SleepDatabase(path: w.db)
        func keys() throws -> [String: Int] {
            Dictionary(uniqueKeysWithValues: try db.query("SELECT parameters_key AS k, COUNT(*) AS n FROM analyses GROUP BY 1").map { ($0["k"]!, Int($0["n"]!)!) })
        }
        func diaryMetrics() throws -> [[String: String]] {
            try db.query("""
                SELECT a.night_id, a.status, m.in_bed_start_utc, m.sleep_onset_utc, m.wake_time_utc, m.total_sleep_time_min
                FROM analyses a LEFT JOIN night_metrics m ON m.analysis_id = a.id WHERE a.parameters_key LIKE '%diary=%' ORDER BY a.night_id
                """)
        }
        _ = try w.run()
        let nights = try db.nightIDs().count
        let first = try keys()
        #expect(nights == 4 && first.count == 1)
        _ = try w.run { $0.parameters.interval = IntervalLength(seconds: 900)! }
        #expect(try keys().count == 2)
        try "id,night,in_bed,out_of_bed,type\nwrist-3d,2024-06-14,22:30,07:30,sleep\nwrist-3d,2024-06-15,14:00,14:40,nap\n"
            .write(toFile: w.root + "/diary.csv", atomically: true, encoding: .utf8)
        let diary = try SleepDiary.read(path: w.root + "/diary.csv")
        _ = try w.run { $0.diary = diary }
        #expect(try keys().count == 3)
        let guided = try diaryMetrics()
        #expect(guided.count == nights)
        #expect(try db.query("SELECT COUNT(*) AS n FROM analysis_guides")[0]["n"] == "1", "one night has a diary row")
        let napRow = [["night_id": "wrist-3d_2024-06-15", "kind": "nap", "source": "the sleep diary (diary.csv row 3)"]]
        let storedNap = "SELECT a.night_id, g.kind, g.source FROM analysis_diary_periods g JOIN analyses a ON a.id = g.analysis_id"
        #expect(try db.query(storedNap) == napRow, "the nap row is kept with its night's diary-guided analysis")

        // Counts are asked for: the file is read again, and nothing stored before is lost.
        let summary = try w.run { $0.parameters.sleepAlgorithm = .coleKripke }
        #expect(summary.filesIngested == 1, "read again for its counts")
        let after = try keys()
        #expect(after.count == 4 && after.values.allSatisfy { $0 == nights }, "\(after)")
        #expect(try diaryMetrics() == guided, "the diary-guided nights are the same, derived from the stored guide")
        #expect(try db.query("SELECT COUNT(*) AS n FROM analysis_guides")[0]["n"] == "1")
        #expect(try db.query(storedNap) == napRow, "derived again with the diary's other periods stored with it")
        // The 15-min export still finds its analyses.
        #expect(try db.storedIntervalSeconds() == [600, 900])
    }
}
