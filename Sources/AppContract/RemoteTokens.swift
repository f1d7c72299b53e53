import Geometry

/// What a caller may do. Each scope includes the ones before it.
package enum RemoteScope: Int, Comparable, Sendable, CaseIterable {
    /// The state, screenshots, the audit and a read-only live view.
    case view
    /// Also injected input (`/events`, the live view's touches) and moving a virtual clock.
    case control
    /// Also the display's power.
    case admin

    package init?(name: String) {
        guard let scope = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = scope
    }

    package var name: String {
        switch self {
        case .view: "view"
        case .control: "control"
        case .admin: "admin"
        }
    }

    package static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// One named token and what it allows.
package struct RemoteToken: Sendable, Equatable {
    package var name: String
    package var scope: RemoteScope
    package var secret: String

    package init(name: String, scope: RemoteScope, secret: String) {
        self.name = name
        self.scope = scope
        self.secret = secret
    }
}

/// A file of named tokens (`--remote-tokens FILE`): one token a line, `NAME SCOPE TOKEN`, with
/// `#` comments and blank lines, scopes `view`, `control` and `admin`:
///
///     # name       scope    token
///     dashboard    view     Hq3v9yZk2LwP8sRt
///     fleet        admin    7fM2xQ9pL4vK8nW3
package enum TokenFile {
    static let nameCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.@".unicodeScalars)

    /// The tokens of a file's text.
    package static func parse(_ text: String) throws(TokenFileError) -> [RemoteToken] {
        var tokens: [RemoteToken] = []
        for (index, line) in textLines(text).enumerated() {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let first = fields.first, !first.hasPrefix("#") else { continue }
            func fail(_ problem: String) -> TokenFileError { TokenFileError(line: index + 1, problem: problem) }
            guard fields.count == 3 else { throw fail("expected NAME SCOPE TOKEN, found \(fields.count) fields") }
            let name = String(fields[0])
            guard name.utf8.count <= 64, name.unicodeScalars.allSatisfy(nameCharacters.contains) else {
                throw fail("the name '\(excerpt(name, limit: 40))' is not letters, digits, - _ . or @ (at most 64)")
            }
            guard let scope = RemoteScope(name: String(fields[1])) else {
                throw fail("scope '\(excerpt(String(fields[1]), limit: 20))': use view, control or admin")
            }
            let secret = String(fields[2])
            guard isAcceptableToken(secret) else {
                throw fail("the token of '\(name)' is too weak: \(tokenRule) (it is not repeated here)")
            }
            guard !tokens.contains(where: { $0.name == name }) else { throw fail("'\(name)' is named twice") }
            guard !tokens.contains(where: { $0.secret == secret }) else { throw fail("the token of '\(name)' is another name's too") }
            tokens.append(RemoteToken(name: name, scope: scope, secret: secret))
        }
        guard !tokens.isEmpty else { throw TokenFileError(line: nil, problem: "it names no token") }
        return tokens
    }
}

/// What is wrong with a token file, and on which line (1-based; nil: the whole file). Never
/// holds a token.
package struct TokenFileError: Error, Sendable, CustomStringConvertible {
    package var line: Int?
    package var problem: String

    package var description: String { (line.map { "line \($0): " } ?? "") + problem }
}
