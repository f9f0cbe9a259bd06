import CEtPan

/// Placeholder so the target builds; filled in by its issue.
enum TriageIMAPModule {}
import CGnuTLS
