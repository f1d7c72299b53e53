/// Text to look up in the app's string catalog, as SwiftUI's `Text` looks it up: a string
/// literal given to a label, a button, a toggle, a picker's options, a tab, a navigation title
/// or an alert is one, and so is an interpolated literal, whose key has a format specifier in
/// each hole (`"\(count) tickets"` is the key `%lld tickets`, as Xcode's catalogs write it). A
/// `String` variable is shown as it is; `LocalizedStringKey(variable)` looks it up.
///
/// ```swift
/// Label("Buy a ticket")                 // looked up: "اشترِ تذكرة" in Arabic
/// Label("\(count) tickets")             // one, two, few, many: the language's plural form
/// Label(verbatim: "Dubai Marina")       // never looked up (so is any String variable)
/// ```
public struct LocalizedStringKey: Hashable, Sendable, ExpressibleByStringInterpolation {
    /// The key in the catalog: the literal, with `%lld`, `%lf` or `%@` where the values went.
    public let key: String
    /// The values, in order.
    package let arguments: [FormatArgument]
    /// Shown as it is, never looked up: a `String` handed to a view that takes keys too.
    package let isVerbatim: Bool

    /// Looks `key` up as it is (a key held in a variable); a literal needs no call.
    public init(_ key: String) {
        self.key = key
        arguments = []
        isVerbatim = false
    }

    /// `text` as it is, not looked up.
    package init(verbatim text: String) {
        key = text
        arguments = []
        isVerbatim = true
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    public init(stringInterpolation: StringInterpolation) {
        key = stringInterpolation.key
        arguments = stringInterpolation.arguments
        isVerbatim = false
    }

    /// Builds the key of an interpolated literal: a per cent sign of the text is doubled, as in
    /// the catalog's keys, and each value leaves its specifier.
    public struct StringInterpolation: StringInterpolationProtocol {
        var key = ""
        var arguments: [FormatArgument] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            key.reserveCapacity(literalCapacity + 4 * interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) {
            for c in literal { key += c == "%" ? "%%" : String(c) }
        }

        /// A count: `%lld`, and the one that chooses the plural form.
        public mutating func appendInterpolation<T: BinaryInteger>(_ value: T) {
            key += "%lld"
            arguments.append(.int(Int(clamping: value)))
        }

        /// A number with a fraction: `%lf`.
        public mutating func appendInterpolation(_ value: Double) {
            key += "%lf"
            arguments.append(.double(value))
        }

        /// Text: `%@`, shown as it is.
        public mutating func appendInterpolation(_ value: String) {
            key += "%@"
            arguments.append(.string(value))
        }

        /// An amount of money in `currency` (ISO 4217: "EUR"): `%@`, written as the language
        /// writes prices when the string is shown ("€2.50", "2,50 €").
        public mutating func appendInterpolation(_ amount: Double, currency: String) {
            key += "%@"
            arguments.append(.currency(amount, currency))
        }

        /// Anything else, by its description: `%@`.
        public mutating func appendInterpolation<T: CustomStringConvertible>(_ value: T) {
            appendInterpolation(value.description)
        }
    }
}

/// A value in a localized string's hole.
package enum FormatArgument: Hashable, Sendable {
    case int(Int)
    case double(Double)
    case string(String)
    case currency(Double, String)
}
