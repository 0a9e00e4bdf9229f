/// A remembered value that cannot be used: the message names it and the option that overrides it.
public struct RememberedParameterProblem: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
    public init(message: String) { self.message = message }
}

/// A parameter `nightly` takes from the last run unless its option is given.
public struct RememberedParameter: Sendable {
    /// Its key in the options a command line gives: `interval`, `tz`, … (the option without dashes).
    public var key: String
    /// Its field in `parameters_json` (inside `analysis` when ``inAnalysis``).
    public var field: String
    public var inAnalysis: Bool
    /// The option that gives it.
    public var option: String { "--" + key }

    public static let all: [RememberedParameter] = [
        .init(key: "interval", field: "interval", inAnalysis: true), .init(key: "metric", field: "metric", inAnalysis: true),
        .init(key: "wake-threshold", field: "wakeThresholdFactor", inAnalysis: true),
        .init(key: "sleep-algorithm", field: "sleepAlgorithm", inAnalysis: true), .init(key: "method", field: "nightMethod", inAnalysis: true),
        .init(key: "kind", field: "kind", inAnalysis: false), .init(key: "units", field: "units", inAnalysis: false),
        .init(key: "tz", field: "timeZone", inAnalysis: false), .init(key: "diary", field: "diary", inAnalysis: false),
        .init(key: "participants", field: "participants", inAnalysis: false),
    ]

    public static func named(_ field: String) -> RememberedParameter { all.first { $0.field == field }! }

    public func refused(_ reason: String) -> RememberedParameterProblem {
        RememberedParameterProblem(message: "\(key) \(reason), which \(option) would refuse; give \(option) to override it"
                                        + (key == "diary" ? " (or --no-diary)" : ""))
    }

    /// A decoding error of the remembered row, named by the parameter it is in.
    public static func problem(_ error: DecodingError) -> RememberedParameterProblem {
        let context: DecodingError.Context
        switch error {
        case .dataCorrupted(let c), .typeMismatch(_, let c), .valueNotFound(_, let c): context = c
        case .keyNotFound(let k, let c): context = .init(codingPath: c.codingPath + [k], debugDescription: "it is missing")
        @unknown default: return .init(message: "parameters_json does not decode (\(error))")
        }
        let keys = context.codingPath.map(\.stringValue)
        let field = keys.first == "analysis" && keys.count > 1 ? keys[1] : keys.first ?? ""
        guard let p = all.first(where: { $0.field == field && $0.inAnalysis == (keys.first == "analysis") }) else {
            return .init(message: "\(keys.joined(separator: ".")) does not decode (\(context.debugDescription)); run `sleepsta run` with the options you want to record new parameters")
        }
        return p.refused("cannot be used (\(context.debugDescription))")
    }
}
