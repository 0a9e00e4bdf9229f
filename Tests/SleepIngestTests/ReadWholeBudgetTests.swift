import Foundation
import Testing
import SleepCore
import SleepIngest

/// Text formats read whole count their lines and fields before allocating them and refuse a file
/// whose split would cost more than ``ReadWholeBudget`` allows (12 bytes per byte + 16 MiB); the
/// split itself is unchanged for every file within it.
@Suite("Read-whole text formats: counted before allocated, within a stated multiple of the file size")
struct ReadWholeBudgetTests {
    static let size = 8 << 20   // past the 16 MiB allowance once multiplied: 8 MiB × 16 > 8 MiB × 12 + 16 MiB

    static func refusal(_ body: () throws -> Void) -> IngestError? {
        do { try body(); return nil } catch let e as IngestError { return e } catch { return IngestError(file: "?", message: "\(error)") }
    }

    @Test("lines, fields and line numbers are those the splitter always made (quotes, CRLF, blank lines, BOM, ; delimiter)")
    func splitUnchanged() throws {
        let text = "\u{FEFF}a,b,c\r\n\r\n\"x, y\",\"q\"\"t\" , z \n,,\n  ,\t\n\rlast"
        let t = try DelimitedText(path: "t.csv", bytes: Array(text.utf8))
        #expect(t.lines.map(\.number) == [1, 2, 3, 4, 5, 6])
        #expect(t.lines.map(\.fields) == [["a", "b", "c"], [""], ["x, y", "q\"t", "z"], ["", "", ""], ["", ""], ["\rlast"]])
        #expect(t.lines.map(\.isBlank) == [false, true, false, true, true, false])
        let semi = try DelimitedText(path: "s.csv", bytes: Array("a;b;c\n1;2,5;3\n".utf8))
        #expect(semi.delimiter == 0x3B && semi.lines[1].fields == ["1", "2,5", "3"])
    }

    @Test("the projection is never below what a split allocates, and 16 bytes a line for blank lines (they share their fields)")
    func projection() {
        func measure(_ s: String, _ d: UInt8? = 0x2C) -> ReadWholeBudget.Measure {
            Array(s.utf8).withUnsafeBufferPointer { ReadWholeBudget.measure($0, delimiter: d) }
        }
        #expect(measure("\n\n\n").projected == 3 * 16)
        #expect(measure(" , \r\n\t,\n").projected == 2 * 16)   // blank: spaces, tabs, delimiters and the line end's CR
        #expect(measure("a\n").projected == 16 + 48 + 16)
        #expect(measure("\r,x\n").projected == 16 + 48 + 32)   // a CR before the end is content
        #expect(measure(String(repeating: "a", count: 20) + ",b\n").projected == 16 + 48 + 32 + 48 + 20)
        #expect(measure("ab\ncd", nil).projected == 2 * 16 && measure("ab\ncd", nil).lines == 2)
        let commas = measure(String(repeating: ",", count: 1000))
        #expect(commas.widest.fields == 1001 && commas.shape == "line 1 of 1001 fields")
    }

    @Test("hostile shapes are refused after counting, naming the file and what makes them costly")
    func hostileShapes() throws {
        let shapes: [(String, [UInt8])] = [
            ("empty lines", [UInt8](repeating: 0x0A, count: Self.size)),
            ("one line of commas", [UInt8](repeating: 0x2C, count: Self.size)),
            ("short lines", Array(String(repeating: "1\n", count: Self.size / 2).utf8)),
        ]
        for (what, bytes) in shapes {
            let e = Self.refusal { _ = try DelimitedText(path: "hostile.csv", bytes: bytes) }
            #expect(e?.file == "hostile.csv" && e?.message.contains("more than 12 bytes per byte") == true, "\(what): \(String(describing: e))")
        }
        let commas = Self.refusal { _ = try DelimitedText(path: "c.csv", bytes: [UInt8](repeating: 0x2C, count: Self.size)) }
        #expect(commas?.message.contains("line 1 of \(Self.size + 1) fields") == true, "\(String(describing: commas))")
        let blank = Self.refusal { _ = try DelimitedText(path: "b.csv", bytes: [UInt8](repeating: 0x0A, count: Self.size)) }
        #expect(blank?.message.contains("\(Self.size) lines") == true, "\(String(describing: blank))")
        // Blank lines of 2 bytes or more (CRLF, a delimiter) share one array: 16 bytes a line fit the budget.
        for line in ["\r\n", ",\n", "  ,  \n"] {
            let blank = try DelimitedText(path: "s.csv", bytes: Array(String(repeating: line, count: Self.size / line.utf8.count).utf8))
            #expect(blank.lines.count == Self.size / line.utf8.count && blank.lines.allSatisfy(\.isBlank))
        }
    }

    @Test("the sleep diary and an Actiwatch .AWD are held to the same budget; a diary row stays at most 4 KiB")
    func diaryAndAWD() throws {
        let diary = Self.refusal { _ = try SleepDiary.parse(String(repeating: "\n", count: Self.size), path: "d.csv") }
        #expect(diary?.file == "d.csv" && diary?.message.contains("\(Self.size) lines") == true, "\(String(describing: diary))")
        let long = Self.refusal { _ = try SleepDiary.parse("id,night,in_bed,out_of_bed\n" + String(repeating: "x", count: 4097) + "\n", path: "d.csv") }
        #expect(long?.line == 2 && long?.message.contains("at most 4096") == true)
        let ok = try SleepDiary.parse("\u{FEFF}id,night,in_bed,out_of_bed\r\nalex,2024-03-30,23:10,07:05\r\n\r\n", path: "d.csv")
        #expect(ok.entries.count == 1 && ok.problems.isEmpty)

        let folder = NSTemporaryDirectory() + "sleepsta-awd-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/empty-lines.awd"
        try Data(Array("P1\n01-Oct-2009\n12:00\n4\n30\nSN1\nM\n".utf8) + [UInt8](repeating: 0x0A, count: Self.size)).write(to: URL(fileURLWithPath: path))
        let awd = Self.refusal { _ = try ActiwatchAWDReader().read(path: path, options: IngestOptions()) }
        #expect(awd?.file == path && awd?.message.contains("more than 12 bytes per byte") == true, "\(String(describing: awd))")
    }
}
