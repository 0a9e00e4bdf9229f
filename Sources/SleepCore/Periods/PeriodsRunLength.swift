/// Run-length helpers shared by the period detectors in this folder.
///
/// The ActiLife-compatible detectors (Choi, Troiano, Tudor-Locke) are all defined on *runs*
/// of equal epoch states: they relabel short runs and merge neighbours, which is how
/// actigraph.sleepr reproduces ActiLife (its `rleid` / `summarise` / `na.locf` rounds).
enum PeriodsRunLength {
    /// A run of equal values: `value` repeated over epochs `[start, start + length)`.
    struct Run<Value: Equatable>: Equatable {
        var value: Value
        var start: Int
        var length: Int
        var end: Int { start + length }
    }

    /// Splits `values` into maximal runs of equal values.
    static func runs<Value: Equatable>(_ values: [Value]) -> [Run<Value>] {
        var result: [Run<Value>] = []
        var index = 0
        while index < values.count {
            var next = index + 1
            while next < values.count && values[next] == values[index] { next += 1 }
            result.append(Run(value: values[index], start: index, length: next - index))
            index = next
        }
        return result
    }

    /// Merges adjacent runs that carry the same value (after some runs were relabelled).
    static func merged<Value: Equatable>(_ runs: [Run<Value>]) -> [Run<Value>] {
        var result: [Run<Value>] = []
        result.reserveCapacity(runs.count)
        for run in runs {
            if let last = result.last, last.value == run.value {
                result[result.count - 1].length += run.length
            } else {
                result.append(run)
            }
        }
        return result
    }
}
