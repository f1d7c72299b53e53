import FoundationEssentials
import Geometry
import AppContract

/// The catalog's content, from a JSON file an operator edits. Image paths are relative
/// to the manifest. Unknown keys are errors (a typo must not be silently ignored), and every
/// error names its place: `screens[2].image`.
package struct Manifest: Decodable, Hashable, Sendable {
    package var title: String
    /// The brand's logo (any picture: PNG, JPEG or SVG), shown in the About sheet.
    package var logo: String?
    /// The content's translations: a String Catalog (`Localizable.xcstrings`). Its titles,
    /// subtitles and cards' words are keys looked up in the window's language; articles and
    /// search items stay as written.
    package var strings: String?
    /// A clip shown over everything until the first touch, and again after the idle reset (an
    /// attract loop).
    package var attract: String?
    package var screens: [Screen]
    /// Screens that could not be read, each with its place and what is wrong; the others are
    /// shown. (A manifest with no readable screen at all is an error.)
    package var skippedScreens: [ManifestError] = []

    package struct Card: Decodable, Hashable, Sendable {
        package var id: String
        package var title: String
        package var text: String
        package var image: String?
        /// A clip played in place of the picture (which is its poster).
        package var video: String?
    }

    package struct Screen: Decodable, Hashable, Sendable {
        /// The most text an article screen takes (256 KiB, about 40,000 words).
        package static let maximumArticleBytes = 256 << 10
        package enum Kind: String, Decodable, Hashable, Sendable { case feed, photo, article, pages, search }
        package var kind: Kind
        package var id: String
        package var title: String
        package var subtitle: String?
        // feed
        package var cards: [Card]?
        package var carousel: [String]?
        package var carouselTitle: String?
        package var carouselPosition: Int?
        // photo
        package var image: String?
        package var minScale: Double?
        package var maxScale: Double?
        package var doubleTapScale: Double?
        // article
        package var paragraphs: [String]?
        package var fontSize: Double?
        // pages
        package var count: Int?
        package var background: String?
        // search
        package var items: [String]?
        package var placeholder: String?
    }

    enum Keys: String, CodingKey, CaseIterable { case title, logo, strings, attract, screens }

    package init(from decoder: Decoder) throws {
        try rejectUnknownKeys(decoder, allowed: Keys.allCases.map(\.rawValue))
        let c = try decoder.container(keyedBy: Keys.self)
        title = try c.decodeLine(forKey: .title)
        logo = try c.decodeLineIfPresent(forKey: .logo)
        strings = try c.decodeLineIfPresent(forKey: .strings)
        attract = try c.decodeLineIfPresent(forKey: .attract)
        var list = try c.nestedUnkeyedContainer(forKey: .screens)
        var ids: Set<String> = []
        screens = []
        while !list.isAtEnd {
            let index = list.currentIndex
            do {
                let screen = try list.decode(Screen.self)
                let here = list.codingPath + [AnyKey(intValue: index)!]
                // Every id names one view in the state: a screen's tab, a card.
                guard !ids.contains("tab-" + screen.id) else {
                    throw DecodingError.dataCorrupted(
                        .init(
                            codingPath: here + [Screen.Keys.id],
                            debugDescription: "another screen or card has the id \"\(excerpt(screen.id))\""))
                }
                for (k, card) in (screen.cards ?? []).enumerated() where ids.contains(card.id) || card.id == "tab-" + screen.id {
                    throw DecodingError.dataCorrupted(
                        .init(
                            codingPath: here + [Screen.Keys.cards, AnyKey(intValue: k)!, Card.Keys.id],
                            debugDescription: "another screen or card has the id \"\(excerpt(card.id))\""))
                }
                ids.insert("tab-" + screen.id)
                for card in screen.cards ?? [] { ids.insert(card.id) }
                screens.append(screen)
            } catch let error as ManifestError {
                throw error
            } catch let error as DecodingError {
                skippedScreens.append(ManifestError(path: "", place: Self.place(of: error), message: Self.message(of: error)))
                // Step over the bad element so that the next one is read.
                if list.currentIndex == index { _ = try? list.decode(Skip.self) }
            }
        }
        if screens.isEmpty, let first = skippedScreens.first {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: first.place + ": " + first.message))
        }
    }
}

extension Manifest {
    /// Bytes of a title, subtitle or id: a line on a screen, not a book.
    package static let maximumLineBytes = 1024
    /// Bytes of a card's text.
    package static let maximumCardTextBytes = 16 * 1024
}

extension KeyedDecodingContainer {
    /// A string of at most `limit` bytes (titles, texts): a longer one is an error of its place.
    func decodeLine(forKey key: Key, limit: Int = Manifest.maximumLineBytes) throws -> String {
        try bounded(decode(String.self, forKey: key), key, limit)
    }

    func decodeLineIfPresent(forKey key: Key, limit: Int = Manifest.maximumLineBytes) throws -> String? {
        try decodeIfPresent(String.self, forKey: key).map { try bounded($0, key, limit) }
    }

    /// An id: a line that is not empty, since it names a view in the state.
    func decodeID(forKey key: Key) throws -> String {
        let id = try decodeLine(forKey: key)
        guard !id.isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "an id must not be empty")
        }
        return id
    }

    private func bounded(_ s: String, _ key: Key, _ limit: Int) throws -> String {
        guard s.utf8.count <= limit else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self,
                debugDescription: "at most \(limit) bytes, this one \(s.utf8.count)")
        }
        return s
    }
}

/// Decodes any JSON value and keeps nothing (to step over an element that failed).
private struct Skip: Decodable { init(from decoder: Decoder) throws {} }

extension Manifest.Card {
    enum Keys: String, CodingKey, CaseIterable { case id, title, text, image, video }
    package init(from decoder: Decoder) throws {
        try rejectUnknownKeys(decoder, allowed: Keys.allCases.map(\.rawValue))
        let c = try decoder.container(keyedBy: Keys.self)
        id = try c.decodeID(forKey: .id)
        title = try c.decodeLine(forKey: .title)
        text = try c.decodeLineIfPresent(forKey: .text, limit: Manifest.maximumCardTextBytes) ?? ""
        image = try c.decodeIfPresent(String.self, forKey: .image)
        video = try c.decodeLineIfPresent(forKey: .video)
    }
}

extension Manifest.Screen {
    enum Keys: String, CodingKey, CaseIterable {
        case kind, id, title, subtitle, cards, carousel, carouselTitle, carouselPosition, image, minScale, maxScale,
            doubleTapScale, paragraphs, fontSize, count, background, items, placeholder
    }
    package init(from decoder: Decoder) throws {
        try rejectUnknownKeys(decoder, allowed: Keys.allCases.map(\.rawValue))
        let c = try decoder.container(keyedBy: Keys.self)
        kind = try c.decode(Kind.self, forKey: .kind)
        id = try c.decodeID(forKey: .id)
        title = try c.decodeLine(forKey: .title)
        subtitle = try c.decodeLineIfPresent(forKey: .subtitle)
        cards = try c.decodeIfPresent([Manifest.Card].self, forKey: .cards)
        try Self.checkUniqueIDs(of: cards ?? [], c)
        carousel = try c.decodeIfPresent([String].self, forKey: .carousel)
        carouselTitle = try c.decodeIfPresent(String.self, forKey: .carouselTitle)
        carouselPosition = try c.decodeIfPresent(Int.self, forKey: .carouselPosition)
        image = try c.decodeIfPresent(String.self, forKey: .image)
        minScale = try c.decodeIfPresent(Double.self, forKey: .minScale)
        maxScale = try c.decodeIfPresent(Double.self, forKey: .maxScale)
        doubleTapScale = try c.decodeIfPresent(Double.self, forKey: .doubleTapScale)
        paragraphs = try c.decodeIfPresent([String].self, forKey: .paragraphs)
        if let paragraphs { try Self.checkArticleSize(paragraphs, c) }
        fontSize = try c.decodeIfPresent(Double.self, forKey: .fontSize)
        count = try c.decodeIfPresent(Int.self, forKey: .count)
        background = try c.decodeIfPresent(String.self, forKey: .background)
        items = try c.decodeIfPresent([String].self, forKey: .items)
        placeholder = try c.decodeLineIfPresent(forKey: .placeholder)
        try validate(c)
    }

    /// Each card's id differs from the others'.
    private static func checkUniqueIDs(of cards: [Manifest.Card], _ c: KeyedDecodingContainer<Keys>) throws {
        var cardIDs: Set<String> = []
        for (k, card) in cards.enumerated() where !cardIDs.insert(card.id).inserted {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: c.codingPath + [Keys.cards, AnyKey(intValue: k)!, Manifest.Card.Keys.id],
                    debugDescription: "another card has the id \"\(excerpt(card.id))\""))
        }
    }

    /// Text is laid out whole, at about 500 bytes of memory per byte of text: an article is
    /// kept to what a kiosk screen is read for.
    private static func checkArticleSize(_ paragraphs: [String], _ c: KeyedDecodingContainer<Keys>) throws {
        let bytes = paragraphs.reduce(0) { $0 + $1.utf8.count }
        guard bytes <= maximumArticleBytes else {
            throw DecodingError.dataCorruptedError(
                forKey: .paragraphs, in: c,
                debugDescription:
                    "an article holds at most \(maximumArticleBytes) bytes of text, this one \(bytes): split it into several screens")
        }
    }

    /// The checks across keys once all are decoded: the search items, the background, what
    /// the kind needs, and the scales and font size.
    private func validate(_ c: KeyedDecodingContainer<Keys>) throws {
        if let items, items.count > 10_000 || items.contains(where: { $0.utf8.count > 200 || $0.contains("\n") }) {
            throw DecodingError.dataCorruptedError(
                forKey: .items, in: c,
                debugDescription: "a search screen lists at most 10000 items of one line of at most 200 bytes")
        }
        if let b = background, !["automatic", "prominent", "minimal"].contains(b) {
            throw DecodingError.dataCorruptedError(
                forKey: .background, in: c,
                debugDescription: "\"\(excerpt(b))\" is not one of automatic, prominent, minimal")
        }
        switch kind {
        case .feed: if cards == nil { throw missing(.cards, c) }
        case .photo: if image == nil { throw missing(.image, c) }
        case .article: if paragraphs == nil { throw missing(.paragraphs, c) }
        case .search: if items == nil { throw missing(.items, c) }
        case .pages:
            guard let n = count else { throw missing(.count, c) }
            guard n >= 1 && n <= 10_000 else {
                throw DecodingError.dataCorruptedError(forKey: .count, in: c, debugDescription: "count must lie in 1...10000")
            }
        }
        for (key, v) in [(Keys.minScale, minScale), (.maxScale, maxScale), (.doubleTapScale, doubleTapScale), (.fontSize, fontSize)] {
            if let v, !(v.isFinite && v >= 0.01 && v <= 100) {
                throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "must be a number from 0.01 to 100")
            }
        }
    }

    private func missing(_ key: Keys, _ c: KeyedDecodingContainer<Keys>) -> Error {
        DecodingError.keyNotFound(
            key, .init(codingPath: c.codingPath, debugDescription: "a \(kind.rawValue) screen needs \"\(key.rawValue)\""))
    }
}

struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { stringValue = String(intValue); self.intValue = intValue }
}

func rejectUnknownKeys(_ decoder: Decoder, allowed: [String]) throws {
    let c = try decoder.container(keyedBy: AnyKey.self)
    for key in c.allKeys where !allowed.contains(key.stringValue) {
        throw DecodingError.dataCorrupted(
            .init(
                codingPath: c.codingPath + [key],
                debugDescription: "unknown key \"\(excerpt(key.stringValue))\" (expected one of \(allowed.joined(separator: ", ")))"))
    }
}

/// A manifest problem, with where it is.
package struct ManifestError: Error, CustomStringConvertible, Hashable {
    package var path: String
    package var place: String
    package var message: String
    package var description: String { "\(path): \(place.isEmpty ? "" : place + ": ")\(message)" }
}

extension Manifest {
    /// Parses manifest text; errors name the place (`screens[1].cards[0].title`) and, for syntax
    /// errors, what the JSON parser said.
    package static func parse(_ bytes: [UInt8], path: String) throws(ManifestError) -> Manifest {
        do {
            var manifest = try JSONDecoder().decode(Manifest.self, from: Data(bytes))
            if let duplicate = JSONDuplicateKeys.first(in: bytes) {
                throw ManifestError(
                    path: path, place: "line \(duplicate.line)",
                    message: "\"\(excerpt(duplicate.name, limit: 40))\" is given twice in one object")
            }
            for i in manifest.skippedScreens.indices { manifest.skippedScreens[i].path = path }
            return manifest
        } catch let error as ManifestError {
            throw error
        } catch let error as DecodingError {
            throw ManifestError(path: path, place: place(of: error), message: message(of: error))
        } catch {
            throw ManifestError(path: path, place: "", message: "\(error)")
        }
    }

    static func render(_ path: [CodingKey]) -> String {
        var s = ""
        for k in path {
            if let i = k.intValue { s += "[\(i)]" } else { s += (s.isEmpty ? "" : ".") + excerpt(k.stringValue) }
        }
        return s
    }

    static func place(of error: DecodingError) -> String {
        switch error {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c): return render(c.codingPath)
        case .keyNotFound(let key, let c): return render(c.codingPath + [key])
        @unknown default: return ""
        }
    }

    /// What the decoder said, cut like every echo: its own messages repeat the value they
    /// refused (an unknown `kind` of a megabyte).
    static func message(of error: DecodingError) -> String { excerpt(fullMessage(of: error), limit: 300) }

    private static func fullMessage(of error: DecodingError) -> String {
        switch error {
        case .typeMismatch(let type, let c): return "expected \(type): \(c.debugDescription)"
        case .valueNotFound(_, let c): return c.debugDescription
        case .keyNotFound(let key, let c):
            return c.debugDescription.contains("needs") ? c.debugDescription : "missing \"\(key.stringValue)\""
        case .dataCorrupted(let c):
            var m = c.debugDescription
            if let underlying = c.underlyingError { m += " (\(underlying))" }
            return m
        @unknown default: return "invalid"
        }
    }
}
