import Foundation
import TriageApp
import TriageCore

/// Questions on the terminal for `triage init`: each prints its question (with
/// the default in brackets: Enter takes it) on standard output and reads one line
/// from standard input. An answer the check refuses is said and asked again, a few
/// times; the end of the input is a usage error (64), so nothing is written.
struct Prompter {
    let context: Context
    /// Tries per question before giving up.
    static let attempts = 5

    /// Whether standard input is a terminal: `init` asks only there.
    static var standardInputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// Says `text` (a line or more) on standard output.
    func say(_ text: String) {
        context.out(text + "\n")
    }

    /// Asks `question` until `check` takes the answer (or the default, for an empty
    /// one); `check` returns the value, or the problem to say.
    func ask<T>(_ question: String, default fallback: String? = nil, _ check: (String) -> Result<T, AnswerProblem>) throws -> T {
        for _ in 0..<Self.attempts {
            context.out(question + (fallback.map { " [\($0)]" } ?? "") + ": ")
            guard let line = readLine(strippingNewline: true) else {
                context.out("\n")
                throw SimpleError(.usage, "init: the input ended before every question was answered; nothing was written")
            }
            let answer = line.trimmingCharacters(in: .whitespaces)
            switch check(answer.isEmpty ? (fallback ?? "") : answer) {
            case .success(let value): return value
            case .failure(let problem): say("  " + problem.message)
            }
        }
        throw SimpleError(.usage, "init: no usable answer after \(Self.attempts) tries; nothing was written")
    }

    /// Why an answer was not taken.
    struct AnswerProblem: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }
}
