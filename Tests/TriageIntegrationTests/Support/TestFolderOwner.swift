import Foundation

/// A sandbox built on a `TestFolder` (RunSandbox, MatrixSandbox): the folder's paths,
/// `triage` and `remove` through it.
protocol TestFolderOwner {
    /// The configuration, rules, store and outbox.
    var folder: TestFolder { get }
}

extension TestFolderOwner {
    var dir: String { folder.dir }
    var config: String { folder.config }
    var store: String { folder.store }
    var outbox: String { folder.outbox }

    /// Runs `triage ARGS --config CONFIG`.
    func triage(_ args: [String], environment: [String: String] = [:]) throws -> TriageProcess.Result {
        try folder.triage(args, environment: environment)
    }

    /// Removes the folder (the server's user stays, unused).
    func remove() {
        folder.remove()
    }
}
