/// The version printed by `triage --version` and put in digest headers.
public enum TriageVersion {
    /// Semantic version string.
    public static let string = "0.1.0"
}
