import Foundation
import Testing
import SleepCore
import SleepstaWorkloads

/// The wearable method over the family of generated sleepers (``SleeperFamily``): every way of
/// lying still the generators know (the script's, slow wander, turns every 20–60 min, hourly turns
/// with rare twitches, breathing), two seeds each and one with a temperature channel, and devices
/// laid down flat and on their side, at night and in the day, in every recording.
@Suite("Generated sleepers: every sleep model's nights within 30/30/45 min, laid-down devices never asleep")
struct SleeperFamilyTests {
    static let members = SleeperFamily.members(seeds: [1, 2])

    @Test("sleepsta's default method", arguments: SleepModel.allCases)
    func model(_ model: SleepModel) throws {
        for member in Self.members where member.model == model {
            let epochs = try SleeperFamily.epochs(member)
            let outcomes = SleeperFamily.outcomes(member, epochs: epochs, method: WearableNightMethod())
            #expect(outcomes.count == 3, "\(member): \(outcomes)")
            for o in outcomes {
                print("SLEEPER \(o)")
                #expect(o.status == .scored && o.within(onset: 30, wake: 30, tst: 45), "\(o)")
                #expect(o.sleepWhileLaidDownMinutes == 0, "\(o)")
            }
        }
    }

    @Test("GGIR's 2013 rule alone loses the laid-down devices to sleep on the same files (the family tells the rules apart)")
    func ruleMatters() throws {
        let member = SleeperFamily.Member(model: .hourlyTurns, seed: 1, temperature: false)
        let epochs = try SleeperFamily.epochs(member)
        let plain = SleeperFamily.outcomes(member, epochs: epochs, method: WearableNightMethod(judgesStillness: false))
        #expect(plain.reduce(0) { $0 + $1.sleepWhileLaidDownMinutes } > 60, "\(plain)")
    }
}
