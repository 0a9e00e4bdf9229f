import Testing
import SleepCore

/// `--tz` beyond IANA names: fixed UTC offsets (one spelling stored), and the nearest real zone
/// ids suggested for a name that is not one.
@Suite("Zone names: fixed offsets and suggestions")
struct ZoneNameTests {
    /// A slice of the IANA ids, enough for every rule of the suggestions.
    static let known = ["Africa/Abidjan", "America/Argentina/Buenos_Aires", "America/New_York", "America/Sao_Paulo", "Asia/Kolkata",
                        "Asia/Tokyo", "Australia/Sydney", "Etc/GMT-3", "Europe/Berlin", "Europe/Bern", "Europe/Brussels",
                        "Europe/Lisbon", "Europe/London", "Europe/Paris", "Pacific/Auckland", "UTC"]

    @Test("fixed offsets in every documented spelling, and what is not one")
    func fixedOffsets() {
        let cases: [(String, Int32?)] = [
            ("+01:00", 3600), ("-05:30", -19_800), ("+0100", 3600), ("-0530", -19_800), ("+01", 3600), ("+1", 3600), ("+5:45", 20_700),
            ("UTC+1", 3600), ("utc+01:00", 3600), ("UTC-03:30", -12_600), ("GMT-3", -10_800), ("gmt+0530", 19_800), ("+00:00", 0),
            ("+14:00", 50_400), ("-12:00", -43_200),
            ("+15:00", nil), ("-13", nil), ("+01:60", nil), ("+1:0", nil), ("+100", nil), ("+01:00:00", nil), ("01:00", nil),
            ("UTC", nil), ("UTC1", nil), ("Europe/Berlin", nil), ("Etc/GMT-3", nil), ("+", nil), ("", nil), ("+0١", nil),
        ]
        for (text, seconds) in cases { #expect(ZoneName.fixedOffsetSeconds(text) == seconds, "\(text)") }
        #expect(ZoneName.fixedOffsetName(3600) == "UTC+01:00")
        #expect(ZoneName.fixedOffsetName(-19_800) == "UTC-05:30")
        #expect(ZoneName.fixedOffsetName(0) == "UTC")
        // The stored spelling is itself accepted, and names the same offset.
        for s: Int32 in [3600, -19_800, 20_700, 50_400, -43_200] {
            #expect(ZoneName.fixedOffsetSeconds(ZoneName.fixedOffsetName(s)) == s)
        }
    }

    @Test("suggestions: the same id but for case, then the city, then the nearest spellings")
    func suggestions() {
        #expect(ZoneName.suggestions(for: "europe/berlin", among: Self.known) == ["Europe/Berlin"])
        #expect(ZoneName.suggestions(for: "EUROPE/LONDON", among: Self.known) == ["Europe/London"])
        #expect(ZoneName.suggestions(for: "Berlin", among: Self.known) == ["Europe/Berlin"])
        #expect(ZoneName.suggestions(for: "new york", among: Self.known) == ["America/New_York"])
        #expect(ZoneName.suggestions(for: "buenos_aires", among: Self.known) == ["America/Argentina/Buenos_Aires"])
        // One letter missing, swapped, wrong: the nearest first.
        #expect(ZoneName.suggestions(for: "Europe/Berln", among: Self.known).first == "Europe/Berlin")
        #expect(ZoneName.suggestions(for: "Europe/Belrin", among: Self.known).first == "Europe/Berlin")
        #expect(ZoneName.suggestions(for: "Europe/Pariss", among: Self.known) == ["Europe/Paris"])
        #expect(ZoneName.suggestions(for: "Asia/Tokio", among: Self.known) == ["Asia/Tokyo"])
        #expect(ZoneName.suggestions(for: "Berln", among: Self.known).first == "Europe/Berlin")
        #expect(ZoneName.suggestions(for: "Lisbn", among: Self.known) == ["Europe/Lisbon"])
        // Ties are in id order, and the list is bounded.
        #expect(ZoneName.suggestions(for: "Europe/Bernn", among: Self.known).first == "Europe/Bern")
        #expect(ZoneName.suggestions(for: "Europe/Ber", among: Self.known, limit: 2).count <= 2)
        // Nothing near: no guess.
        #expect(ZoneName.suggestions(for: "Mars/Olympus_Mons", among: Self.known).isEmpty)
        #expect(ZoneName.suggestions(for: "CEST", among: Self.known).isEmpty)
        #expect(ZoneName.suggestions(for: "", among: Self.known).isEmpty)
    }

    @Test("the edit distance counts insertions, deletions, substitutions and neighbour swaps, and stops past its bound")
    func editDistance() {
        func d(_ a: String, _ b: String, _ bound: Int = 9) -> Int { ZoneName.editDistance(Array(a), Array(b), bound: bound) }
        #expect(d("berlin", "berlin") == 0)
        #expect(d("berln", "berlin") == 1)
        #expect(d("belrin", "berlin") == 1)
        #expect(d("barlin", "berlin") == 1)
        #expect(d("kitten", "sitting") == 3)
        #expect(d("", "abc") == 3)
        #expect(d("abcdef", "uvwxyz", 2) == 3, "past the bound: bound + 1")
        #expect(d("a", "abcdefgh", 2) == 3)
    }
}
