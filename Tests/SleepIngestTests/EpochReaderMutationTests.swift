import Foundation
import Testing
import SleepCore
import SleepIngest

/// Deterministic mutation fuzzing of the epoch-file readers, with the text readers' mutator and
/// budget (``TextReaderMutationTests``): every mutant of a small valid file must read (a regular
/// grid, one value per epoch and column) or fail with an ``IngestError`` that names the file and a
/// position. Longer runs: `SLEEPSTA_MUTATION_SECONDS=600 swift test -c release --filter EpochReaderMutationTests`.
@Suite("Epoch readers under mutation")
struct EpochReaderMutationTests {
    struct Target: Sendable {
        var name: String
        var reader: any EpochFileReader
        var fileName: String
        var seeds: @Sendable () -> [[UInt8]]
    }

    static let targets: [Target] = [
        Target(name: "ActiwatchAWDReader", reader: ActiwatchAWDReader(), fileName: "m.AWD", seeds: EpochMutationSeeds.awd),
        Target(name: "ActTrustReader", reader: ActTrustReader(), fileName: "m.txt", seeds: EpochMutationSeeds.actTrust),
        Target(name: "MotionWatchMTNReader", reader: MotionWatchMTNReader(), fileName: "m.mtn", seeds: EpochMutationSeeds.mtn),
        Target(name: "UKBiobankEpochCSVReader", reader: UKBiobankEpochCSVReader(), fileName: "m.csv", seeds: EpochMutationSeeds.ukBiobank),
        Target(name: "BBATimeSeriesReader", reader: BBATimeSeriesReader(), fileName: "m.csv", seeds: EpochMutationSeeds.bba),
        Target(name: "ActiwareCSVReader (Dutch)", reader: ActiwareCSVReader(), fileName: "m.csv", seeds: EpochMutationSeeds.actiwareDutch),
        Target(name: "ActiLifeCSVReader (trailing commas)", reader: ActiLifeCSVReader(), fileName: "m.csv", seeds: EpochMutationSeeds.actiLifeCommas),
    ]

    @Test("every mutant reads a regular grid or fails with file and position", arguments: 0..<targets.count)
    func mutants(target index: Int) throws {
        let target = Self.targets[index]
        let env = ProcessInfo.processInfo.environment
        let seconds = env["SLEEPSTA_MUTATION_SECONDS"].flatMap(Double.init)
        let iterations = env["SLEEPSTA_MUTATION_ITERATIONS"].flatMap(Int.init) ?? (seconds == nil ? TextReaderMutationTests.defaultIterations : Int.max)
        let seeds = target.seeds()
        let folder = TemporaryFolder()
        let path = folder.path + "/" + target.fileName
        for seed in seeds {
            try TextReaderMutationTests.overwrite(path, with: seed)
            #expect(throws: Never.self, "\(target.name) seed") { _ = try target.reader.read(path: path, options: IngestOptions()) }
        }
        var mutator = TextMutator(seed: 0xE90C_7E47 &+ UInt64(index) &* 0x1_0000_0001)
        let started = ContinuousClock.now
        let deadline = seconds.map { started + .milliseconds(Int($0 * 1000)) }
        var runs = 0, read = 0, refused = 0
        while runs < iterations {
            if let deadline, runs % 64 == 0, ContinuousClock.now >= deadline { break }
            let mutant = mutator.mutate(seeds[mutator.below(seeds.count)], rounds: 1 + mutator.below(3) / 2)
            try TextReaderMutationTests.overwrite(path, with: mutant)
            runs += 1
            do {
                let r = try target.reader.read(path: path, options: IngestOptions())
                read += 1
                #expect(r.count >= 1 && r.epochSeconds >= 1)
                for c in r.columns { #expect(c.values.count == r.count, "\(target.name): \(c.name) has \(c.values.count) values for \(r.count) epochs") }
                for l in r.labelColumns { #expect(l.labels.count == r.count) }
            } catch {
                refused += 1
                #expect(error.file == path, "\(target.name): error names another file: \(error)")
                #expect(!error.message.isEmpty)
                #expect(error.line != nil || error.byteOffset != nil || error.path != nil,
                        "\(target.name): no position in \(error) for mutant \(TextReaderMutationTests.shown(mutant))")
            }
        }
        print("MUTATION \(target.name): \(runs) mutants of \(seeds.count) seeds in \(ContinuousClock.now - started): \(read) read, \(refused) refused")
        #expect(read + refused == runs)
        #expect(refused > 0 && read > 0, "mutations that change nothing or break everything test little")
    }
}

/// Small valid files of each epoch format, made here from the formats' descriptions (no peer data).
enum EpochMutationSeeds {
    @Sendable static func awd() -> [[UInt8]] {
        var plain = "SUBJECT1\n01-Oct-2009\n17:00\n 4 \n0\nV012345\nM\n"
        for i in 0..<120 { plain += "\((i * 37) % 500)\(i % 50 == 7 ? " M" : "")\n" }
        var light = "X\r\n15-Mar-2021\r\n22:30\r\n2\r\n41\r\nL00042\r\nF\r\n"
        for i in 0..<90 { light += "\((i * 13) % 200) , \(i % 9),\(i % 100)\(i == 40 ? " M" : "")\r\n" }
        return [plain, light].map { Array($0.utf8) }
    }

    @Sendable static func actTrust() -> [[UInt8]] {
        var t = "+-------------+ Condor Instruments Report +-------------+\nSOFTWARE_VERSION : 1.0.13\nSUBJECT_NAME : X\n"
        t += "DEVICE_ID : abc\nDEVICE_MODEL : ActTrust1\nFIRMWARE_VERSION : 3.8\nMODE : PIM/TAT/ZCM\nINTERVAL : 60\n"
        t += "+-------------------------------------------------------+\n"
        t += "DATE/TIME;MS;EVENT;TEMPERATURE;PIM;PIMn;TAT;ZCM;LIGHT;STATE\n"
        for i in 0..<100 {
            let minute = 540 + i
            let second = i == 50 ? 26 : 0
            t += "14/03/2021 \(pad(minute / 60)):\(pad(minute % 60)):\(pad(second));0;\(i == 50 ? 1 : 0);29.\(i % 10);\(i * 17 % 900);\(Double(i * 17 % 900) / 60);\(i % 40);\(i % 23);\(i % 7).25;0\n"
        }
        return [Array(t.utf8)]
    }

    @Sendable static func mtn() -> [[UInt8]] {
        var t = "\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-8\"?><motionfile><log2 major=\"2\" minor=\"1\">\n"
        for (name, value) in [("=Device", "MW8"), ("=SerialNo", "001234"), ("=FirmwareVersion", "20"), ("=StartTime", "2021-03-14 22:30:00")] {
            t += "  <change user=\"u\" time=\"2021-03-15 10:00:00\">\n    <property><name>\(name)</name><content>\(value)</content></property></change>\n"
        }
        t += "  <change user=\"u\" time=\"2021-03-15 10:00:00\">\n    <channel><name>motion</name><units>Triaxial-Counts</units><epoch>30</epoch><offset>0</offset><data encoding=\"text\">"
        t += (0..<80).map { String($0 * 7 % 120) }.joined(separator: ",") + ",</data></channel></change>\n"
        t += "  <change user=\"u\" time=\"2021-03-15 10:00:00\">\n    <channel><name>Light</name><units>lux</units><epoch>30</epoch><offset>0</offset><data encoding=\"text\">"
        t += (0..<80).map { String(Double($0) * 1.25) }.joined(separator: ",") + ",</data></channel></change></log2></motionfile>\n"
        return [Array(t.utf8)]
    }

    @Sendable static func ukBiobank() -> [[UInt8]] {
        var t = "acceleration (mg) - 2014-12-08 10:00:00 - 2014-12-08 10:09:55 - sampleRate = 5 seconds,imputed\n"
        for i in 0..<120 { t += "\(Double(i * 37 % 400) / 10),\(i > 100 ? 1 : 0)\n" }
        return [Array(t.utf8)]
    }

    @Sendable static func bba() -> [[UInt8]] {
        var t = "time,acc,light,moderate-vigorous,sedentary,sleep,MET\n"
        for i in 0..<100 {
            let s = 13 * 3600 + 29 * 60 + 50 + i * 30
            t += "2014-05-07 \(pad(s / 3600)):\(pad(s / 60 % 60)):\(pad(s % 60)).439000+0100 [Europe/London],\(i == 40 ? "" : String(Double(i * 37 % 90) / 3)),0.0,0.0,\(i % 2),\(1 - i % 2),1.5\n"
        }
        return [Array(t.utf8)]
    }

    @Sendable static func actiwareDutch() -> [[UInt8]] {
        let pad42 = String(repeating: ",", count: 8)
        var t = "\u{FEFF}Actiware-exportbestand (versie 05.00)\(pad42)\n\(pad42)\n"
        t += "----------------- Subjecteigenschappen ----------------\(pad42)\nIdentiteit:,1\(pad42)\n"
        t += "----------------- Actiwatch-gegevenseigenschappen ----------------\(pad42)\n"
        t += "Type Actiwatch:,Spectrum Plus\(pad42)\nTijdzone-offset:,+01:00,uren:minuten\(pad42)\nPeriodelengte:,15,seconden\(pad42)\n"
        t += "Serienummer Actiwatch:,P00001\(pad42)\n"
        // Analysis inputs (read by their names) and a statistics section (Actiware's own intervals).
        t += "--------------------- Analyse-invoeren ----------------------\(pad42)\n"
        t += "Waakdrempelselectie:,Gemiddeld\(pad42)\nWaakdrempelwaarde:,\"40,00\",aantal activiteiten\(pad42)\n"
        t += "Slaapintervaldetectie-algoritme,Op minuten gescoord als onbeweeglijk\(pad42)\n"
        t += "Instelling aanvang slaap:,10,minuten\(pad42)\nInstelling einde van slaap:,10,minuten\(pad42)\n"
        t += "------------------------ Statistieken ------------------------\(pad42)\n"
        t += "Intervaltype,Intervalnr.,Begindatum,Begindag,Begintijd,Einddatum,Einddag,Eindtijd,Duur,Slaaptijd,Waaktijd,Efficiëntie,#Waakvoorvallen\n"
        t += "RUST,1,23/11/2019,za,06:02:30,23/11/2019,za,06:19:45,\"17,25\",\"12,00\",\"5,25\",\"69,57\",4\n"
        t += "SLAAP,1,23/11/2019,za,06:05:00,23/11/2019,za,06:19:30,\"14,50\",\"12,00\",\"2,50\",\"69,57\",3\n"
        t += "-------------------- Gegevens per-periode -------------------\(pad42)\n\(pad42)\n"
        t += "Lijn,Datum,Tijd,Status niet-om-pols,Activiteit,Markering,Slapen/waken,Intervalstatus\(pad42)\n\(pad42)\n"
        for i in 0..<80 {
            let s = 6 * 3600 + i * 15
            t += "\(i + 1),23/11/2019,\(pad(s / 3600)):\(pad(s / 60 % 60)):\(pad(s % 60)),\(i < 10 ? 1 : 0),\(i < 10 ? "NaN" : String(i * 3 % 70)),0,\(i < 10 ? "NaN" : String(i % 2)),ACTIEF\(pad42)\n"
        }
        return [Array(t.utf8)]
    }

    @Sendable static func actiLifeCommas() -> [[UInt8]] {
        var t = "------------ Data File Created By ActiGraph wGT3XBT ActiLife v6.13.3 Firmware v1.8.0 date format M/d/yyyy Filter Normal -\n"
        for line in ["Serial Number: MOS0000000000", "Start Time 21:35:00", "Start Date 8/15/2016", "Epoch Period (hh:mm:ss) 00:00:05",
                     "Download Time 18:59:15", "Download Date 8/24/2016", "Current Memory Address: 0", "Current Battery Voltage: 4.03     Mode = 61",
                     "--------------------------------------------------"] {
            t += line + ",,,,,,,,\n"
        }
        for i in 0..<100 { t += "\(i * 31 % 400),\(i * 7 % 300),\(i * 11 % 200),\(i % 3),0,0,5,0,0\n" }
        return [Array(t.utf8)]
    }

    static func pad(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
}
