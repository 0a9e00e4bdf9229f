/// Counted nouns for pages, logs and notes: `1 night`, `2 nights`, `0 awakenings`.
public enum Plural {
    /// `n` and the noun, singular for exactly 1; `plural` defaults to the singular + "s".
    public static func count(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(n) \(n == 1 ? singular : plural ?? singular + "s")"
    }
}
