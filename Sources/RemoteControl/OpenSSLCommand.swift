import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The `openssl` command, for the two things NIOSSL's API does not offer: making a key and a
/// self-signed certificate, and a certificate's SHA-256 fingerprint. The BoringSSL inside
/// swift-nio-ssl is no API of it (its C module is not a product, and its maintainers say it
/// changes with every update, apple/swift-nio-ssl#484), and a second crypto library linked in
/// for these (swift-crypto and swift-certificates did it) doubles the TLS code of every build.
/// Debian's packages make their certificates with this command too (ssl-cert, at install).
enum OpenSSLCommand {
    /// Why a run did not succeed, in words for the log.
    struct Failure: Error, CustomStringConvertible, Equatable {
        let description: String
    }

    /// What `openssl` printed (its standard output and error together) when it exited with 0.
    /// `command` is another name for it (a test's missing one).
    static func run(_ arguments: [String], command: String = "openssl") throws(Failure) -> String {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw Failure(description: "pipe: " + String(cString: strerror(errno))) }
        // Glibc's module leaves pipe2 out: no other child may keep the pipe open (and the read hang).
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let pid: pid_t
        do {
            defer { _ = close(fds[1]) }
            pid = try spawn(command, arguments, output: fds[1])
        } catch {
            _ = close(fds[0])
            throw error
        }
        let output = readToEnd(fds[0])
        _ = close(fds[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw Failure(description: "waitpid: " + String(cString: strerror(errno))) }
        }
        let text = String(decoding: output, as: UTF8.self)
        // 127 and not a word: the child could not start the command. Some posix_spawn
        // implementations say so only that way (qemu-user's, as under Board/cross.sh), not with
        // ENOENT from the call.
        if status == 127 << 8, output.isEmpty { throw missing(command) }
        // WIFEXITED and WEXITSTATUS are macros Swift does not import.
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else {
            let said = text.split(whereSeparator: \.isNewline).filter { !$0.allSatisfy { $0 == "-" } }.prefix(3)
            let end = status & 0x7F == 0 ? "exited with \((status >> 8) & 0xFF)" : "was killed by signal \(status & 0x7F)"
            throw Failure(
                description: "\(command) \(arguments.first ?? "") \(end)" + (said.isEmpty ? "" : ": " + said.joined(separator: " ")))
        }
        return text
    }

    private static func missing(_ command: String) -> Failure {
        Failure(description: "no \(command) command on PATH (Debian's package openssl)")
    }

    /// Starts `command` from PATH with standard input from /dev/null and its output into `output`.
    private static func spawn(_ command: String, _ arguments: [String], output: Int32) throws(Failure) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, output, 2)
        let argv = ([command] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, command, &actions, nil, argv, environ)
        guard result == 0 else {
            let why = String(cString: strerror(result))
            throw result == ENOENT ? missing(command) : Failure(description: "starting \(command): \(why)")
        }
        return pid
    }

    /// What the child writes, up to EOF; a megabyte at most (it prints a few lines).
    private static func readToEnd(_ fd: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 20 {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        return bytes
    }
}
