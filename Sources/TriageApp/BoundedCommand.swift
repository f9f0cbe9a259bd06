import CChildGroup
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a shell command with bounded time and output: `/bin/sh -c COMMAND` in
/// a process group of its own, standard input from `/dev/null`, standard output
/// captured up to a limit, standard error kept only for its first few bytes, and
/// no other descriptor of triage's.
///
/// The command's process group is what gets killed (SIGKILL), so anything the
/// command started goes too: when the time is up, when the output is too long,
/// when triage gets SIGTERM, SIGINT or SIGHUP while waiting (`CChildGroup`), and
/// whatever is left in the group once the command itself has exited.
package struct BoundedCommand {
    /// Seconds the command may take, from start to exit.
    package var timeout: Double
    /// The most bytes of standard output accepted.
    package var outputLimit: Int
    /// The bytes of standard error kept (the rest is read and dropped).
    package var errorLimit = 4096
    /// What the command reads on standard input (written as it reads, within the
    /// same time limit); nil for `/dev/null`.
    package var input: Data? = nil

    /// How a run ended.
    package enum Outcome {
        /// The command exited (`status`) or was killed by a signal (`signal`, else 0).
        case finished(status: Int32, signal: Int32, output: Data, errorOutput: Data)
        /// Still running when the time was up; its group was killed.
        case timedOut
        /// It printed more than `outputLimit` bytes; its group was killed.
        case outputTooLarge
        /// `/bin/sh` could not be started.
        case cannotStart(String)
    }

    /// Runs `command` and waits for it, never longer than `timeout` (plus the
    /// moment it takes to kill it).
    package func run(_ command: String) -> Outcome {
        run(executable: "/bin/sh", arguments: ["-c", command])
    }

    /// Runs the program at `executable` with `arguments` (no shell between), as `run` does.
    package func run(executable: String, arguments: [String]) -> Outcome {
        var inPipe: [Int32] = [-1, -1]
        if input != nil {
            // A program that exits without reading must make the write fail (EPIPE), not
            // kill triage: SIGPIPE is ignored (the spawned program gets it back at its default).
            signal(SIGPIPE, SIG_IGN)
            guard Self.makePipe(&inPipe) else { return .cannotStart(Self.describe(errno)) }
            // Written in the poll loop: a program that stops reading must not block triage.
            _ = fcntl(inPipe[1], F_SETFL, fcntl(inPipe[1], F_GETFL) | O_NONBLOCK)
        }
        defer { if inPipe[0] >= 0 { close(inPipe[0]) } }
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        guard Self.makePipe(&outPipe) else { return .cannotStart(Self.describe(errno)) }
        guard Self.makePipe(&errPipe) else {
            let e = errno
            close(outPipe[0]); close(outPipe[1])
            return .cannotStart(Self.describe(e))
        }
        defer { close(outPipe[0]); close(errPipe[0]) }

        Self.closeOnExec()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if input != nil {
            posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Signals triage ignores (SIGPIPE) or blocks are the command's business: reset them.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGQUIT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var noneBlocked = sigset_t()
        sigemptyset(&noneBlocked)
        posix_spawnattr_setsigmask(&attributes, &noneBlocked)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = ProcessInfo.processInfo.environment.map { strdup($0.key + "=" + $0.value) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }

        // A SIGTERM between the spawn and the guard would leave the command behind: hold
        // those signals until the guard is in place.
        var guarded = sigset_t(), previousMask = sigset_t()
        sigemptyset(&guarded)
        for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&guarded, signal) }
        pthread_sigmask(SIG_BLOCK, &guarded, &previousMask)
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        close(outPipe[1]); close(errPipe[1])
        if inPipe[0] >= 0 { close(inPipe[0]); inPipe[0] = -1 }
        if spawned == 0 { triage_child_group_guard(pid) }
        pthread_sigmask(SIG_SETMASK, &previousMask, nil)
        guard spawned == 0 else {
            if inPipe[1] >= 0 { close(inPipe[1]) }
            return .cannotStart(Self.describe(spawned))
        }

        let outcome = collect(pid: pid, input: inPipe[1], output: outPipe[0], errors: errPipe[0])
        // The group id stays reserved until `pid` is reaped (it is at worst a zombie
        // now), so this reaches exactly the command's leftovers.
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        triage_child_group_release()
        switch outcome {
        case .finished(_, _, let output, let errorOutput):
            let signal = status & 0x7f
            return .finished(status: signal == 0 ? (status >> 8) & 0xff : 0, signal: signal,
                             output: output, errorOutput: errorOutput)
        default:
            return outcome
        }
    }

    /// Reads both pipes until the command has exited and closed them, the time is
    /// up, or the output is over the limit. Does not reap `pid`.
    /// `input` is the write end of its standard input (-1 for none), closed here.
    private func collect(pid: pid_t, input: Int32, output: Int32, errors: Int32) -> Outcome {
        let start = Self.monotonic()
        var out = Data(), err = Data()
        var open: [Int32] = [output, errors]
        var inputFD = input
        var pending = self.input ?? Data()
        defer { if inputFD >= 0 { close(inputFD) } }
        if inputFD >= 0 && pending.isEmpty { close(inputFD); inputFD = -1 }
        var exitedAt: Double?
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let now = Self.monotonic()
            if now - start >= timeout { return .timedOut }
            if exitedAt == nil && Self.hasExited(pid) { exitedAt = now }
            // Once the command has exited, what it left running gets a moment to
            // finish writing, not the whole timeout.
            if let exitedAt, open.isEmpty || now - exitedAt > 0.2 { break }
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if inputFD >= 0 { fds.append(pollfd(fd: inputFD, events: Int16(POLLOUT), revents: 0)) }
            let wait = max(1, Int32(min(timeout - (now - start), 0.05) * 1000))
            let ready = poll(&fds, nfds_t(fds.count), open.isEmpty ? 10 : wait)
            if ready < 0 && errno != EINTR { return .cannotStart("poll: " + Self.describe(errno)) }
            guard ready > 0 else { continue }
            for entry in fds where entry.revents != 0 {
                if entry.fd == inputFD {
                    let written = pending.withUnsafeBytes { write(inputFD, $0.baseAddress!, min($0.count, 65536)) }
                    if written > 0 { pending.removeFirst(written) }
                    // Done, or the program closed its end (EPIPE): no more input.
                    if pending.isEmpty || (written < 0 && errno != EAGAIN && errno != EINTR) {
                        close(inputFD)
                        inputFD = -1
                    }
                    continue
                }
                let n = read(entry.fd, &buffer, buffer.count)
                if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                if n <= 0 {
                    open.removeAll { $0 == entry.fd }
                    continue
                }
                if entry.fd == output {
                    out.append(contentsOf: buffer[0..<n])
                    if out.count > outputLimit { return .outputTooLarge }
                } else if err.count < errorLimit {
                    err.append(contentsOf: buffer[0..<min(n, errorLimit - err.count)])
                }
            }
        }
        return .finished(status: 0, signal: 0, output: out, errorOutput: err)
    }

    /// Whether `pid` has ended, without reaping it (its pid, and so its group id,
    /// stays reserved until `waitpid`).
    private static func hasExited(_ pid: pid_t) -> Bool {
        var info = siginfo_t()
        guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else { return errno == ECHILD }
        return info.si_signo == SIGCHLD
    }

    /// A pipe whose ends are closed on exec (the spawn duplicates the write end onto 1 or 2).
    private static func makePipe(_ fds: inout [Int32]) -> Bool {
        guard pipe(&fds) == 0 else { return false }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// Marks every descriptor above standard error close-on-exec, so the command gets
    /// only its three: a descriptor triage inherited (a pipe cron reads to its end, the
    /// socket a parent watches for triage's exit) must not be held by what the command
    /// leaves behind.
    private static func closeOnExec() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return }
        for fd in names.compactMap({ Int32($0) }) where fd > 2 {
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0 && flags & FD_CLOEXEC == 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
        }
    }

    private static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    private static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }
}
