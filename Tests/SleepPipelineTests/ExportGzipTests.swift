import Foundation
import Testing
import SleepPipeline

/// `export --output FILE.gz`: the same CSV, gzip-compressed, much smaller where rows repeat their
/// analysis's fields (every epochs row holds the parameters key).
@Suite("Exports written gzip-compressed")
struct ExportGzipTests {
    /// `path` decompressed by gzip, which also checks the stream's CRC and length.
    static func gunzip(_ path: String) throws -> Data {
        let out = path + ".out"
        let r = try ChildProcess(shell: "exec gzip -dc \(SleepstaBinary.quoted(path)) > \(SleepstaBinary.quoted(out))", outputPrefix: path + ".gzip").wait()
        #expect(r.exitCode == 0, "gzip reads \(path): \(r.stderr)")
        defer { try? FileManager.default.removeItem(atPath: out) }
        return try Data(contentsOf: URL(fileURLWithPath: out))
    }

    @Test("epochs, intervals, nights, runs and an export without rows to .csv.gz: gzip gives back the .csv byte for byte; epochs shrink at least tenfold")
    func gzipOutput() throws {
        let w = Workspace()
        w.write("alex.csv", Workspace.phoneNight(startUTC: PipelineTests.night1Start))
        _ = try w.run()
        // exclusions: no row (no inclusion rule), the header alone, still a whole gzip file.
        for table in [ExportTable.epochs, .intervals, .nights, .runs, .exclusions] {
            let plain = w.root + "/\(table.rawValue).csv", packed = plain + ".gz"
            let rows = try Exporter(configuration: ExportConfiguration(databasePath: w.db, table: table, outputPath: plain)).run()
            #expect(try Exporter(configuration: ExportConfiguration(databasePath: w.db, table: table, outputPath: packed)).run() == rows)
            let csv = try Data(contentsOf: URL(fileURLWithPath: plain))
            #expect(try Self.gunzip(packed) == csv, "\(table.rawValue)")
            let size = try FileManager.default.attributesOfItem(atPath: packed)[.size] as? Int ?? 0
            if table == .epochs { #expect(rows > 100 && size * 10 < csv.count, "\(csv.count) bytes → \(size)") }
            #expect(!(try FileManager.default.contentsOfDirectory(atPath: w.root)).contains { $0.contains(".tmp-") }, "no temporary file left")
        }
    }

    @Test("pandas reads the compressed epochs export as it is", .enabled(if: Pandas.available, Pandas.skipMessage))
    func pandasReadsGzip() throws {
        let w = Workspace()
        w.write("alex.csv", Workspace.phoneNight(startUTC: PipelineTests.night1Start))
        _ = try w.run()
        let rows = try Exporter(configuration: ExportConfiguration(databasePath: w.db, table: .epochs, outputPath: w.root + "/e.csv.gz")).run()
        let check = try Pandas.run("""
            import sys, pandas as pd
            e = pd.read_csv(sys.argv[1])
            assert e["parameters_key"].nunique() == 1 and e["analysis_id"].nunique() == 1
            print("ok", len(e))
            """, arguments: [w.root + "/e.csv.gz"])
        #expect(check.status == 0 && check.output.trimmingCharacters(in: .whitespacesAndNewlines) == "ok \(rows)", "\(check.output)")
    }
}
