import CICal

/// Placeholder so the target builds; filled in by its issue.
enum TriageICSModule {}
