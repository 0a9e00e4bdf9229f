import Testing
import SleepPipeline
import sleepsta

/// The terminal's progress line: what it says at each stage, and that it fits the terminal.
@Suite("Terminal progress bar")
struct TerminalProgressBarTests {
    @Test func lineSaysStageCountsBytesAndItemWithinTheWidth() {
        let p = PipelineProgress(stage: .files, done: 3, total: 12, bytesDone: 45_200_000, bytesTotal: 120_000_000, nights: 4, item: "alex.csv")
        #expect(TerminalProgressBar.line(p, width: 120) == "files 3/12 [#######.............] · 45.2 of 120.0 MB · 4 night(s) · alex.csv")
        #expect(TerminalProgressBar.line(p, width: 40).count == 39)
        let r = PipelineProgress(stage: .reports, done: 5, total: 20, item: "alex_2024-06-14")
        #expect(TerminalProgressBar.line(r, width: 80) == "reports 5/20 nights [#####...............] · alex_2024-06-14")
    }
}
