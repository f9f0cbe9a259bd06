import Foundation
import TriageApp

/// The process's standard output and error: where everything the app says goes
/// (`Sources/triage` is the only place that prints). Unbuffered, so a line said
/// just before a test hook's SIGKILL is not lost.
struct StandardStreams: OutputSink {
    func out(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    func err(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
