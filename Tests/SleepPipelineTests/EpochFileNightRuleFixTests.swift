import Foundation
import Testing
import SleepCore
import SleepIngest
import SleepPipeline
import SleepStore

/// Which data are a night: a short file is a night in bed only when it looks like one, zero
/// counts in bed are lying still, a day the device was off is not a night without sleep, and an
/// Actiware export's analysis settings are read by name in any of its languages.
@Suite("Epoch-file nights: what is a night, what is not worn, the export's settings", .serialized)
struct EpochFileNightRuleFixTests {
    static let skip = Comment(rawValue: ExternalData.skipMessage)

    /// Each night's status, notes (codes) and metrics, by night id.
    static func nights(_ w: Workspace) throws -> [String: (status: String, notes: [String], onset: Int64?, tst: Double?, facts: EpochFileNightSummary?)] {
        let db = try SleepDatabase(path: w.db)
        let rows = try db.query("""
            SELECT a.night_id, a.status, a.notes_json, a.details_json, m.sleep_onset_utc AS onset, m.total_sleep_time_min AS tst
            FROM analyses a LEFT JOIN night_metrics m ON m.analysis_id = a.id
            """)
        var out: [String: (status: String, notes: [String], onset: Int64?, tst: Double?, facts: EpochFileNightSummary?)] = [:]
        for row in rows {
            let notes = try row["notes_json"].map { try JSONDecoder().decode([NightNote].self, from: Data($0.utf8)).map(\.code) } ?? []
            let facts = try row["details_json"].map { try JSONDecoder().decode(EpochFileNightSummary.self, from: Data($0.utf8)) }
            out[row["night_id"]!] = (row["status"]!, notes, row["onset"].flatMap { Int64($0) }, row["tst"].flatMap { Double($0) }, facts)
        }
        return out
    }

    /// Writes `text` into the workspace's data folder; its path.
    static func write(_ name: String, _ text: String, in w: Workspace) throws -> String {
        let path = w.data + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func copy(_ relativePath: String, into w: Workspace) throws {
        let source = try #require(ExternalData.url(relativePath)).path
        try FileManager.default.copyItem(atPath: source, toPath: w.data + "/" + (relativePath as NSString).lastPathComponent)
    }

    // MARK: Short and odd files

    @Test("pyActigraphy's MotionWatch file (17:30–01:48): not a night in bed, no scored night before 22:00, and no rule named Actiware's",
          .enabled(if: ExternalData.available, skip))
    func motionWatchEveningIsNotANight() throws {
        let w = Workspace()
        try Self.copy("peer_test_files/pyactigraphy/test_sample.mtn", into: w)
        let summary = try w.run(tz: "Europe/London") { _ in }
        #expect(summary.failures.isEmpty, "\(summary.failures)")
        let nights = try Self.nights(w)
        let night = try #require(nights["test_sample_2018-05-23"], "\(nights.keys)")
        #expect(night.status == "insufficient-data")
        #expect(night.notes == ["not-a-night-in-bed"])
        // The last 5-s epoch starts at 01:48:05 (5978 epochs from 17:30), so the data end 6490 s
        // after the night's midnight; 04:00 is the earliest end of a night in bed.
        let db = try SleepDatabase(path: w.db)
        let json = try #require(try db.query("SELECT notes_json FROM analyses WHERE night_id = 'test_sample_2018-05-23'").first?["notes_json"])
        #expect(try JSONDecoder().decode([NightNote].self, from: Data(json.utf8))
                == [.notANightInBed(endSecondsAfterMidnight: 6490, earliestEndSecondsAfterMidnight: 14_400)])
        #expect(nights.values.allSatisfy { $0.status != "scored" })
        #expect(night.facts?.isActiware == false && night.facts?.sleepIntervalTitle == "Sleep interval by immobile minutes")
        let page = try String(contentsOfFile: w.reports + "/test_sample_2018-05-23/index.html", encoding: .utf8)
        #expect(page.contains("not a night in bed") && page.contains("ends at 01:48, before 04:00"))
        #expect(!page.contains("Actiware&#39;s") && !page.contains("Actiware's"))
    }

    /// A QUT-format PSG night (15-s epochs, 22:00–07:00) whose wearer lies still for 4 h: in
    /// bed, zero counts are immobile, not the device off (the file has no off-wrist channel).
    static func bedNightWithStillHours() -> String {
        var lines = ["timestamp,Actiwatch activity counts,Actiware classification,Apple Watch ENMO"]
        let epochs = 9 * 240
        for i in 0..<epochs {
            let minute = i / 4
            // Awake and moving for the first and last 20 min; 4 h of zero counts from 23:00;
            // otherwise asleep with a twitch of 8 counts every 7 min.
            let count: Int
            if minute < 20 || minute >= 9 * 60 - 20 { count = 60 + (i % 5) * 10 }
            else if minute >= 60 && minute < 300 { count = 0 }
            else { count = minute % 7 == 0 && i % 4 == 0 ? 8 : 0 }
            let second = 22 * 3600 + i * 15
            let day = second >= 86_400 ? 2 : 1, sod = second % 86_400
            lines.append(String(format: "%02d/01/2000 %02d:%02d:%02d,%d,NA,NA", day, sod / 3600, sod % 3600 / 60, sod % 60, count))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("a night in bed with 4 h of zero counts: immobile sleep, not 4 h not worn; the page says which rule decided")
    func zeroCountsInBedAreStill() throws {
        let w = Workspace()
        try Self.bedNightWithStillHours().write(toFile: w.data + "/p99_n01_ready.csv", atomically: true, encoding: .utf8)
        let summary = try w.run(tz: "UTC") { _ in }
        #expect(summary.failures.isEmpty, "\(summary.failures)")
        let night = try #require(try Self.nights(w)["p99_n01_ready_2000-01-01"])
        #expect(night.status == "scored")
        #expect(night.facts?.nonWearMinutes == nil)
        // The zero run from the twitch at 22:56 to the one at 03:01: 979 epochs of 15 s.
        #expect(night.facts?.stillInBedMinutes == 244.75)
        // Sleep from the first 10-min section after 22:20 with one twitch (22:21:15) to the last
        // before the movement at 06:40 (06:37:45): 8 h 16.5 min, every epoch asleep; with the still
        // hours "not worn" it would be 4 h less.
        let tst = try #require(night.tst)
        #expect(tst == 496.5, "TST \(tst)")
        let page = try String(contentsOfFile: w.reports + "/p99_n01_ready_2000-01-01/index.html", encoding: .utf8)
        #expect(page.contains("Lying still in bed") && page.contains("not taken as not worn"), "the still hours on the page")
    }

    @Test("QUT p13_n01 (a PSG night with 4 h of zero counts in bed, a fixture of this repository): TST within 15 min of Actiware's own")
    func qutStillNight() throws {
        let w = Workspace()
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/p13_n01_ready.csv").path
        try FileManager.default.copyItem(atPath: fixture, toPath: w.data + "/p13_n01_ready.csv")
        _ = try w.run(tz: nil) { _ in }
        let night = try #require(try Self.nights(w).values.first { $0.status == "scored" })
        let tst = try #require(night.tst), file = try #require(night.facts?.fileTotalSleepMinutes)
        print("QUT p13_n01: TST \(tst) min, Actiware's labels \(file) min")
        #expect(abs(tst - file) <= 15)
    }

    // MARK: Watch-off days

    @Test("the French Actiware export's watch-off days are not-worn days set apart, not nights without sleep; its other nights unchanged",
          .enabled(if: ExternalData.available, skip))
    func frenchWatchOffDays() throws {
        let w = Workspace()
        try Self.copy("actiware_rpx/test_sample_rpx_fr.csv", into: w)
        _ = try w.run(tz: nil) { _ in }
        let nights = try Self.nights(w)
        for id in ["test_sample_rpx_fr_2015-02-10", "test_sample_rpx_fr_2015-02-11"] {
            let night = try #require(nights[id])
            #expect(night.status == "insufficient-data" && night.notes == ["not-worn-through-night"], "\(id): \(night.status) \(night.notes)")
            #expect((night.facts?.nonWearMinutes ?? 0) >= 20 * 60)
        }
        // The six nights Actiware scored keep Actiware's own TST over its SOMMEIL intervals.
        let tst = ["04": 677.0, "05": 722, "06": 674, "07": 626, "08": 703, "09": 723]
        for (day, minutes) in tst {
            let night = try #require(nights["test_sample_rpx_fr_2015-02-\(day)"])
            #expect(night.status == "scored" && night.tst == minutes, "02-\(day): \(night.status) \(night.tst ?? .nan)")
        }
    }

    // MARK: The export's settings by name

    /// A small Actiware export in German (`;`, decimal commas, `dd.mm.yyyy`) whose settings rows
    /// come in an unusual order, so that only their names tell them apart. Actiware's German
    /// words for the settings were not available; these follow the stems the reader matches.
    static func germanExport(onset: String, end: String) -> String {
        var text = """
        "Actiware-Exportdatei (Version 05.00)"
        "-------------------- Probandeneigenschaften --------------------"
        "Identität:";"X"
        "----------------- Actiwatch-Dateneigenschaften ----------------"
        "Actiwatch-Typ:";"Actiwatch 2"
        "Epochenlänge:";"30";"Sekunden"
        "Zeitzonenverschiebung:";"+01:00";"Stunden:Minuten"
        "--------------------- Analyse-Eingaben ----------------------"
        "Auswahl der Weckschwelle:";"Mittel"
        "Schlafende-Einstellung:";"\(end)";"Minuten"
        "Wert der Weckschwelle:";"20,00";"Aktivitätszählungen"
        "Algorithmus zur Erkennung von Schlafintervallen:";"Nach als unbeweglich bewerteten Minuten"
        "Schlafbeginn-Einstellung:";"\(onset)";"Minuten"
        "Schwelle für weißes Licht:";"1000,00";"Lux"
        "------------------------ Statistik ------------------------"
        "-------------------- Daten nach Epochen -------------------"
        "Zeile";"Datum";"Zeit";"Aktivität";"Schlaf/Wach";"Intervallstatus"

        """
        for i in 0..<40 {
            let sod = 22 * 3600 + i * 30
            text += String(format: "\"%d\";\"04.07.2015\";\"%02d:%02d:%02d\";\"%d\";\"0\";\"AKTIV\"\n", i + 1, sod / 3600, sod % 3600 / 60, sod % 60, i % 3)
        }
        return text
    }

    @Test("German-style export: sleep onset / end settings and wake threshold read by name with decimal commas (\"15,00\")")
    func germanSettingsByName() throws {
        let w = Workspace()
        let r = try ActiwareCSVReader().read(path: Self.write("de.csv", Self.germanExport(onset: "15,00", end: "5,00"), in: w), options: IngestOptions())
        let settings = try #require(r.actiware?.settings)
        #expect(settings == ActiwareSettings(sleepOnsetMinutes: 15, sleepEndMinutes: 5, wakeThreshold: 20,
                                             detectionAlgorithm: "Nach als unbeweglich bewerteten Minuten"))
        // A value that is not a whole number of minutes keeps Actiware's default for that setting.
        let odd = try ActiwareCSVReader().read(path: Self.write("odd.csv", Self.germanExport(onset: "7,5", end: "12"), in: w), options: IngestOptions())
        #expect(odd.actiware?.settings.sleepOnsetMinutes == 10 && odd.actiware?.settings.sleepEndMinutes == 12)
        withExtendedLifetime(w) {}
    }

    /// The two other explanations of a sleep end that differs from Actiware's, checked against the
    /// Actiware 5 manual: a count of 1 in a 30-s epoch is immobile (mobile needs at least the
    /// epoch's number of 15-s units, appendix A-3: 2 at 30 s), and an invalid epoch (missing, or
    /// off the wrist) is neither immobile nor mobile (appendix B-4), so it is the one epoch a
    /// section may hold that is not immobile, and a second one breaks the section.
    @Test("Actiware's mobility at 30 s: 1 count immobile, 2 mobile, an invalid epoch not immobile; two invalid epochs break a sleep-end section")
    func mobilityAtThirtySeconds() {
        #expect(ActiwareIntervals.mobile(counts: [0, 1, 2, .nan], epochSeconds: 30) == [false, false, true, nil])
        // 20 epochs of 10 min at 30 s, in a rest interval of 40: one invalid epoch keeps the last
        // section (end 39), two (at 35 and 36) end the last section at the first of them (35).
        var counts = [Double](repeating: 0, count: 40)
        counts[35] = .nan
        let one = ActiwareIntervals.sleepInterval(mobile: ActiwareIntervals.mobile(counts: counts, epochSeconds: 30), rest: 0..<40, epochSeconds: 30)
        counts[36] = .nan
        let two = ActiwareIntervals.sleepInterval(mobile: ActiwareIntervals.mobile(counts: counts, epochSeconds: 30), rest: 0..<40, epochSeconds: 30)
        #expect(one == 0..<39 && two == 0..<35, "\(String(describing: one)) \(String(describing: two))")
    }

    @Test("settings rows by name in English, French, Dutch and Spanish; an unknown language by their order")
    func settingsRowNames() {
        typealias I = ActiwareCSVReader.AnalysisInput
        let cases: [(String, I?)] = [
            ("Wake Threshold Value:", .wakeThreshold), ("Wake Threshold Selection:", nil), ("White Light Threshold:", nil),
            ("Sleep Interval Detection Algorithm:", .detectionAlgorithm), ("Sleep Onset Setting:", .sleepOnset), ("Sleep End Setting:", .sleepEnd),
            ("Valeur du seuil d'éveil :", .wakeThreshold), ("Sélection du seuil d'éveil :", nil), ("Seuil de lumière blanche  :", nil),
            ("Paramètre de début de sommeil :", .sleepOnset), ("Paramètre de fin de sommeil :", .sleepEnd),
            ("Waakdrempelwaarde:", .wakeThreshold), ("Waakdrempelselectie:", nil), ("Instelling aanvang slaap:", .sleepOnset),
            ("Instelling einde van slaap:", .sleepEnd), ("Slaapintervaldetectie-algoritme", .detectionAlgorithm),
            ("Valor del umbral de vigilia:", .wakeThreshold), ("Ajuste de inicio del sueño:", .sleepOnset), ("Ajuste de fin del sueño:", .sleepEnd),
            ("Actogram Start Hour:", nil),
        ]
        for (name, expected) in cases {
            #expect(I.named(name) == expected, "\(name)")
        }
        var unknown = ActiwareCSVReader.AnalysisInputs()
        for (name, value, unit) in [("Xa:", "Medium", ""), ("Xb:", "35,00", "y"), ("Xc:", "By minutes", ""), ("Xd:", "12", "minutes"), ("Xe:", "8,00", "min")] {
            unknown.read(name: name, value: value, unit: unit)
        }
        #expect(unknown.settings == ActiwareSettings(sleepOnsetMinutes: 12, sleepEndMinutes: 8, wakeThreshold: 35, detectionAlgorithm: "By minutes"))
    }

    @Test("the English export rewritten German-style (;, decimal commas, German settings names): all 7 sleep intervals still to the second",
          .enabled(if: ExternalData.available, skip))
    func germanRewriteOfEnglishExport() throws {
        let english = try #require(try ExternalData.text("actiware_rpx/test_sample_rpx_eng.csv"))
        let names = ["Wake Threshold Value:": "Wert der Weckschwelle:", "Sleep Onset Setting:": "Schlafbeginn-Einstellung:",
                     "Sleep End Setting:": "Schlafende-Einstellung:"]
        var out: [String] = []
        // "\r\n" is one Character in Swift: split on it as well as on "\n".
        for line in english.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            var fields = TestCSV.rows(String(line)).first ?? []
            fields = fields.map { f in
                if let german = names[f] { return german }
                guard f.contains("."), case .value = EpochNumber.parse(f), !f.contains(":") else { return f }
                return f.replacingOccurrences(of: ".", with: ",")
            }
            if fields.first.map({ names.values.contains($0) && $0 != "Wert der Weckschwelle:" }) == true { fields[1] += ",00" }
            out.append(line.isEmpty ? "" : fields.map { "\"\($0)\"" }.joined(separator: ";"))
        }
        let w = Workspace()
        let path = try Self.write("de.csv", out.joined(separator: "\r\n"), in: w)
        let file = try ActiwareCSVReader().read(path: path, options: IngestOptions())
        let analysis = try #require(file.actiware as ActiwareFileAnalysis?)
        #expect(analysis.settings.sleepOnsetMinutes == 10 && analysis.settings.sleepEndMinutes == 10 && analysis.settings.wakeThreshold == 40)
        let counts = try #require(file.column(named: "activity")).values
        let mobile = ActiwareIntervals.mobile(counts: counts, epochSeconds: file.epochSeconds)
        func index(_ utc: Int64) -> Int { Int((utc - file.firstEpochStartUTC) / Int64(file.epochSeconds)) }
        var exact = 0
        for rest in analysis.intervals where rest.kind == .rest {
            let stated = try #require(analysis.intervals.first { $0.kind == .sleep && $0.number == rest.number })
            let ours = try #require(ActiwareIntervals.sleepInterval(mobile: mobile, rest: index(rest.startUTC)..<index(rest.endUTC),
                                                                     epochSeconds: file.epochSeconds, settings: analysis.settings))
            let start: Int64 = file.startUTC(ofEpoch: ours.lowerBound), end: Int64 = file.startUTC(ofEpoch: ours.upperBound)
            if start == stated.startUTC && end == stated.endUTC { exact += 1 }
        }
        #expect(exact == 7)
        withExtendedLifetime(w) {}
    }
}
