import SleepCore

extension NightCatalogEntry {
    /// The nights `selectors` name (night ids or evening dates, `YYYY-MM-DD`), in catalog order;
    /// every night without selectors. A selector that names no night is a ``StoreError`` naming
    /// it and the database, with a few of its night ids to show what is meant.
    public static func select(_ selectors: [String], from catalog: [NightCatalogEntry], databasePath: String) throws -> [NightCatalogEntry] {
        guard !selectors.isEmpty else { return catalog }
        var unknown: [String] = []
        var chosen = Set<String>()
        for s in selectors {
            let hits = catalog.filter { $0.nightID == s || $0.date.description == s }
            if hits.isEmpty { unknown.append(s) }
            chosen.formUnion(hits.map(\.nightID))
        }
        guard unknown.isEmpty else {
            let examples = catalog.prefix(3).map(\.nightID).joined(separator: ", ")
            throw StoreError("no night matches \(unknown.map { "'\($0)'" }.joined(separator: ", ")) in \(databasePath); "
                             + "give night ids (e.g. \(examples)) or evening dates (YYYY-MM-DD)")
        }
        return catalog.filter { chosen.contains($0.nightID) }
    }
}
