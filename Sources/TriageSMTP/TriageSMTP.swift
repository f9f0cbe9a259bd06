import CCurl

/// Placeholder so the target builds; filled in by its issue.
enum TriageSMTPModule {}
import CShims
