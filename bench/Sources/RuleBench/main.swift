// Rule evaluations per second (messages × rules) for a 50-rule set, on one core.
//
//   cd bench && swift run -c release RuleBench [seconds]
//
// Each round evaluates every message against every rule with the full
// evaluator: the message index is built once per message, then all 50 queries
// run and the matching rules' actions are planned. No rule stops, so every
// message meets all 50 rules. Rates are per second of this thread's CPU time,
// so other work on a shared machine does not skew them (wall-clock rate shown too).
import Foundation
import TriageCore

let seconds = CommandLine.arguments.count > 1 ? Double(CommandLine.arguments[1]) ?? 3 : 3

// MARK: - Fifty rules, in the shapes people write

var ruleText = """
rule "cc is for information only" when cc:me -to:me then label "no push", digest "FYI"
rule "receipts to reconcile" when label:money OR from:{bank.example shop.example} subject:(receipt OR invoice) then queue rec
rule "reply to the boss" when from:boss@example.test is:unread then remind "Reply to {from.name}: {subject}" in 2 days, flag
rule "station in range" when subject:"now broadcasting" from:alerts@radio.example then remind "Listen" near 38.9717,-95.2353 radius 3 mi arriving
rule "lists stay out of the inbox" when list:dev.lists.example then move "Lists/dev", mark read, digest "Lists"
rule "big attachments" when has:attachment larger:5M then label "big"
rule "pdf invoices" when filename:pdf subject:{invoice bill statement} then queue rec
rule "calendar" when filename:ics OR subject:"invitation" then queue invitations in 1 day
rule "old unread" when is:unread older_than:30d then label "stale"
rule "recent starred" when is:starred newer_than:2d then flag

"""
let domains = ["alpha.example", "beta.example", "gamma.example", "delta.example", "epsilon.example",
               "zeta.example", "eta.example", "theta.example", "iota.example", "kappa.example"]
let words = ["report", "meeting", "lunch", "deadline", "release", "budget", "travel", "offer", "order", "update",
             "security", "password", "welcome", "newsletter", "weekly", "summary", "shipping", "delivery", "sale", "ticket"]
for i in 0..<10 {
    ruleText += "rule \"domain \(i)\" when from:\(domains[i]) -to:me then label \"d\(i)\", digest \"Domains\"\n"
}
for i in 0..<10 {
    ruleText += "rule \"subject \(i)\" when subject:(\(words[i]) OR \(words[i + 10])) -from:me then label \"s\(i)\"\n"
}
for i in 0..<10 {
    ruleText += "rule \"phrase \(i)\" when \"\(words[i]) \(words[19 - i])\" OR from:\"person \(i)\" then queue q\(i)\n"
}
for i in 0..<10 {
    ruleText += "rule \"list \(i)\" when list:list\(i).\(domains[i]) OR (label:project-\(i) to:me) then move \"Lists/\(i)\", mark read\n"
}

let zone = TimeZone(identifier: "America/Chicago")!
let environment = RuleEnvironment(identities: ["me@example.test", "me.alias@example.test"], timeZone: zone)
let (compiledOrNil, diagnostics) = RuleLoader.load([RuleSource(path: "bench.rules", text: ruleText)], folder: "bench",
                                                   environment: environment)
guard let rules = compiledOrNil, diagnostics.isEmpty else {
    print(DiagnosticRenderer.render(diagnostics, sources: ["bench.rules": ruleText]))
    exit(1)
}
precondition(rules.rules.count == 50, "expected 50 rules, got \(rules.rules.count)")

// MARK: - A thousand varied messages


struct Seeded: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return state
    }
}
var random = Seeded(state: 42)
let nowSeconds: Int64 = 1_772_463_600  // 2026-03-02T09:00:00-06:00
var messages: [Message] = []
for i in 0..<1000 {
    var m = Message()
    let domain = domains[Int.random(in: 0..<domains.count, using: &random)]
    let person = Int.random(in: 0..<20, using: &random)
    m.from = [Address(name: "Person \(person) Example", address: "person.\(person)@mail.\(domain)")]
    m.to = i % 3 == 0 ? [Address(name: "Me", address: "me@example.test")]
                      : [Address(name: "Team", address: "team@\(domain)"), Address(address: "other@x.test")]
    if i % 4 == 0 { m.cc = [Address(address: "me.alias@example.test"), Address(name: "Carol", address: "carol@\(domain)")] }
    let subjectWords = (0..<6).map { _ in words[Int.random(in: 0..<words.count, using: &random)] }
    m.subject = "Re: " + subjectWords.joined(separator: " ").capitalized
    m.snippet = (0..<30).map { _ in words[Int.random(in: 0..<words.count, using: &random)] }.joined(separator: " ")
        + " — please see the attached notes and reply by Friday."
    if i % 5 == 0 { m.listID = "list\(i % 10).\(domains[i % 10])" }
    if i % 7 == 0 { m.server.labels = ["project-\(i % 10)", "no push"] }
    if i % 6 == 0 { m.attachments = ["notes-\(i).pdf"] }
    if i % 2 == 0 { m.server.flags = ["\\Seen"] }
    m.size = 2_000 + (i * 7919) % 8_000_000
    m.date = MessageDate(secondsSince1970: nowSeconds - Int64((i * 3_600) % (90 * 86_400)), utcOffsetSeconds: -21_600)
    m.messageID = "m\(i)@\(domain)"
    messages.append(m)
}


// MARK: - Measure

let now = Date(timeIntervalSince1970: TimeInterval(nowSeconds))
@MainActor func run(rounds: Int) -> (evaluations: Int, matches: Int) {
    var matches = 0
    for _ in 0..<rounds {
        for message in messages {
            matches &+= RuleEvaluator.evaluate(message, rules: rules, now: now).matches.count
        }
    }
    return (rounds * messages.count * rules.rules.count, matches)
}

_ = run(rounds: 2)  // warm up

/// CPU seconds used by this thread: the rate stays honest on a machine shared with other work.
func cpuSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

var evaluations = 0
var matched = 0
let wallStart = Date()
let cpuStart = cpuSeconds()
while cpuSeconds() - cpuStart < seconds {
    let result = run(rounds: 5)
    evaluations += result.evaluations
    matched += result.matches
}
let fullCPU = cpuSeconds() - cpuStart
let fullWall = Date().timeIntervalSince(wallStart)

// Matching alone, with each message indexed once beforehand.
let indexes = messages.map { rules.index($0) }
var hits = 0
var matchEvaluations = 0
let matchStart = cpuSeconds()
while cpuSeconds() - matchStart < seconds / 2 {
    for index in indexes {
        for position in 0..<rules.rules.count where rules.matches(ruleAt: position, in: index, now: nowSeconds) { hits &+= 1 }
    }
    matchEvaluations += indexes.count * rules.rules.count
}
let matchCPU = cpuSeconds() - matchStart

func rate(_ n: Int, _ s: Double) -> String { String(format: "%.2f million", Double(n) / s / 1e6) }
print("rules: \(rules.rules.count), messages: \(messages.count), matches per message: \(String(format: "%.2f", Double(matched) / Double(evaluations / rules.rules.count)))")
print("full evaluation (index + 50 queries + plan): \(rate(evaluations, fullCPU)) rule evaluations per CPU second (\(rate(evaluations, fullWall)) per wall-clock second)")
print("queries alone on indexed messages:          \(rate(matchEvaluations, matchCPU)) rule evaluations per CPU second (\(hits) hits)")
