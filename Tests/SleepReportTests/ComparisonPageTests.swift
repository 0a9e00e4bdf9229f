import Foundation
import Testing
import SleepCore
import SleepReport

/// Issue 14 item 7: the comparison page's onset and wake as clock times, a caution for few nights.
@Suite("Comparison page")
struct ComparisonPageTests {
    @Test("means of minutes after noon read as clock times, past midnight too")
    func clockTimes() {
        #expect(ComparisonPages.clockAfterNoon(660) == "23:00")
        #expect(ComparisonPages.clockAfterNoon(1106) == "06:26")
        #expect(ComparisonPages.clockAfterNoon(nil) == "–")
    }
}
