import FoundationEssentials
import Synchronization

/// An app's translations in Apple's String Catalog format (`Localizable.xcstrings`, the JSON
/// Xcode writes and translators' tools read): for each key, its string in each language, with
/// plural variations by CLDR category and, for a string of several counts, substitutions
/// (`%#@tickets@`). Read once at start; a label looks its key up in the window's language.
///
/// A key the catalog lacks, or lacks in the language, falls back to the catalog's source
/// language and then to the key itself, so a screen never shows an empty label; the window
/// logs each missing key once.
public struct StringCatalog: Sendable {
    /// The language the keys are written in ("en").
    public let sourceLanguage: String
    private let strings: [String: Entry]
    /// The keys already reported missing, with their language: each is logged once.
    private let reported = ReportedKeys()

    /// The catalog in `json`, the bytes of an `.xcstrings` file.
    /// - Throws: `StringCatalogError` naming what is wrong, for JSON that is not a catalog.
    public init(json: [UInt8]) throws(StringCatalogError) {
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: Data(json))
        } catch {
            throw StringCatalogError(reason: "not a string catalog: \(error)")
        }
        guard !file.sourceLanguage.isEmpty else { throw StringCatalogError(reason: "its sourceLanguage is empty") }
        sourceLanguage = file.sourceLanguage
        strings = file.strings
    }

    /// The catalog in the file at `path` (an app's `Localizable.xcstrings`, found as its
    /// pictures are: relative to the working directory, or absolute).
    /// - Throws: `StringCatalogError` naming the file and what is wrong with it.
    public init(contentsOf path: String) throws(StringCatalogError) {
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: URL(filePath: path)))
        } catch {
            throw StringCatalogError(reason: "\(path) cannot be read: \(error)")
        }
        do {
            try self.init(json: bytes)
        } catch {
            throw StringCatalogError(reason: "\(path): \(error.reason)")
        }
    }

    /// An empty catalog: every key shows as it is.
    public init() {
        sourceLanguage = "en"
        strings = [:]
    }

    /// Every language the catalog has a string in, the source language first.
    public var languages: [String] {
        let all = Set(strings.values.flatMap { $0.localizations?.keys.map { $0 } ?? [] })
        return [sourceLanguage] + all.subtracting([sourceLanguage]).sorted()
    }

    /// `key` in `language`, its holes filled by `formats` (digits and separators of that
    /// language); nil when neither the language nor the source language has it.
    package func string(for key: LocalizedStringKey, language: String, formats: LocaleFormats) -> String? {
        guard let entry = strings[key.key] else { return nil }
        for candidate in Self.candidates(language, source: sourceLanguage) {
            guard let unit = entry.localizations?[candidate],
                let text = unit.resolved(arguments: key.arguments, language: candidate, formats: formats)
            else { continue }
            return text
        }
        return nil
    }

    /// True the first time `key` is found missing in `language` (a language other than the
    /// source language, of a catalog that has strings; a key with words, not only holes such as
    /// a price's "%@", and not marked `shouldTranslate: false`): the time to log it.
    package func noteMissing(_ key: String, language: String) -> Bool {
        guard !strings.isEmpty, strings[key]?.shouldTranslate != false, Self.hasWords(key),
            Self.candidates(language, source: nil).last != sourceLanguage, !has(key, in: language)
        else { return false }
        return reported.insert(language + "\u{0}" + key)
    }

    /// Whether `key` has a letter outside its format specifiers ("%lld tickets" has, "%@" not).
    static func hasWords(_ key: String) -> Bool {
        var inSpecifier = false
        for c in key {
            if inSpecifier {
                if "@dDiuUxXoOfFeEgGsc%".contains(c) { inSpecifier = false }
            } else if c == "%" {
                inSpecifier = true
            } else if c.isLetter {
                return true
            }
        }
        return false
    }

    /// Whether the catalog has `key` in `language` itself (not through a fallback).
    package func has(_ key: String, in language: String) -> Bool {
        guard let entry = strings[key] else { return false }
        return Self.candidates(language, source: nil).contains { entry.localizations?[$0] != nil }
    }

    /// "pt-BR" is looked for as itself, then as "pt", then in the source language.
    static func candidates(_ language: String, source: String?) -> [String] {
        let tag = String(language.map { $0 == "_" ? "-" : $0 })
        var out = [tag]
        if let dash = tag.firstIndex(of: "-") { out.append(String(tag[..<dash])) }
        if let source, !out.contains(source) { out.append(source) }
        return out
    }

    // MARK: The file's shape

    struct File: Decodable, Sendable {
        var sourceLanguage: String
        var strings: [String: Entry]
    }

    struct Entry: Decodable, Sendable {
        var localizations: [String: Unit]?
        /// False for text that stays as written in every language (a name, a Japanese article's
        /// title): never reported missing.
        var shouldTranslate: Bool?
    }

    /// A string of one language: a plain string unit, or variations by plural category, with
    /// substitutions for a string of several counts.
    struct Unit: Decodable, Sendable {
        struct StringUnit: Decodable, Sendable {
            var state: String?
            var value: String
        }
        struct Variations: Decodable, Sendable {
            var plural: [String: Unit]?
            var device: [String: Unit]?
        }
        struct Substitution: Decodable, Sendable {
            var argNum: Int?
            var formatSpecifier: String?
            var variations: Variations?
        }
        var stringUnit: StringUnit?
        var variations: Variations?
        var substitutions: [String: Substitution]?

        /// The string for these arguments: the plural form of the first count, substitutions
        /// filled, then every hole; nil when this language has no usable string.
        func resolved(arguments: [FormatArgument], language: String, formats: LocaleFormats) -> String? {
            guard var format = pattern(count: Self.firstCount(arguments), language: language) else { return nil }
            for (name, substitution) in substitutions ?? [:] {
                let index = (substitution.argNum ?? 1) - 1
                let count = arguments.indices.contains(index) ? Self.count(arguments[index]) : nil
                guard let unit = Unit(substitution.variations), let part = unit.pattern(count: count, language: language) else { continue }
                // The variant's own hole, %arg, is the argument it counts.
                let specifier = "%\(index + 1)$" + (substitution.formatSpecifier ?? "lld")
                format = format.replacing("%#@\(name)@", with: part.replacing("%arg", with: specifier))
            }
            return FormatString.fill(format, with: arguments, formats: formats)
        }

        private init?(_ variations: Variations?) {
            guard let variations else { return nil }
            self.variations = variations
        }

        /// The plain string, or the plural form `count` takes (`other` when the catalog has
        /// no string for its category), or the device variation for every device.
        private func pattern(count: Int?, language: String) -> String? {
            if let plural = variations?.plural {
                let category = count.map { PluralRules.category(of: $0, language: language) } ?? .other
                return (plural[category.rawValue] ?? plural["other"])?.pattern(count: count, language: language)
            }
            if let device = variations?.device {
                return (device["other"] ?? device.values.first)?.pattern(count: count, language: language)
            }
            guard let unit = stringUnit, unit.state != "new" || !unit.value.isEmpty else { return nil }
            return unit.value
        }

        static func firstCount(_ arguments: [FormatArgument]) -> Int? { arguments.lazy.compactMap(count).first }

        static func count(_ argument: FormatArgument) -> Int? {
            if case .int(let n) = argument { return n }
            return nil
        }
    }
}

/// A set shared by a catalog's copies, safe from any thread.
final class ReportedKeys: Sendable {
    private let keys = Mutex<Set<String>>([])
    func insert(_ key: String) -> Bool { keys.withLock { $0.insert(key).inserted } }
}

/// Why a string catalog could not be read.
public struct StringCatalogError: Error, CustomStringConvertible, Sendable {
    /// What is wrong, for the log.
    public let reason: String
    public var description: String { reason }
}
