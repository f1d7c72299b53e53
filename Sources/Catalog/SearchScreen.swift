import Geometry
import Raster
import Scrolling
import TextEditing
import UI

extension CatalogApp {
    /// The classic kiosk's text entry: a search field over a long list that filters as you
    /// type. A row tapped fills the field and puts the keyboard away; the list keeps its
    /// place under the keys (the keyboard insets it, it is not laid out again).
    func buildSearch(_ screen: Manifest.Screen) -> View {
        let items = screen.items ?? []
        let field = TextField(id: "\(screen.id)-field", placeholder: screen.placeholder ?? "Search")
        field.submitLabel = .search
        // What one keystroke costs is bounded by the query's length: a 64 KiB paste is cut here.
        field.maximumLength = SearchMatch.maximumQueryLength
        let rows: [Label] = items.enumerated().map { i, item in
            let row = Label(item, id: "\(screen.id)-item-\(i)", size: 20, color: Self.ink, maxLines: 1)
            row.padding = EdgeInsets(horizontal: 20, vertical: 14)
            row.background(.surface, cornerRadius: 10, border: Self.separator)
            return row
        }
        // Folded once here, not once per keystroke and row.
        let folded = items.map(SearchMatch.Item.init)
        let none = Label("No match", id: "\(screen.id)-none", size: 18, color: Self.tertiaryInk, alignment: .center, maxLines: 1)
        let results = Stack(
            .vertical, id: "\(screen.id)-results", spacing: 8, padding: EdgeInsets(top: 4, leading: 28, bottom: 28, trailing: 28))
        let count = Label("", id: "\(screen.id)-count", size: 15, color: Self.tertiaryInk, maxLines: 1)
        func show(_ query: String) {
            let words = SearchMatch.words(of: query)
            let shown = rows.indices.filter { folded[$0].matches(words) }.map { rows[$0] }
            results.setChildren(shown.isEmpty ? [none] : shown)
            count.setText(query.isEmpty ? "\(rows.count) destinations" : "\(shown.count) of \(rows.count)")
        }
        for row in rows {
            row.isFocusable = true  // the keypad picks a destination too
            row.onTap = { [weak field, weak row] in
                guard let field, let row else { return }
                field.text = row.text
                show(row.text)
                field.window?.focus(nil)
            }
        }
        field.onChange = { show($0) }
        show("")
        let list = ScrollView(id: screen.id, axes: .vertical, content: results)
        let top = Stack(
            .vertical, id: "\(screen.id)-top", spacing: 12, padding: EdgeInsets(top: 28, leading: 28, bottom: 12, trailing: 28),
            children: [header(screen.title, screen.subtitle), field, count])
        return Stack(.vertical, id: "\(screen.id)-screen", children: [top, list.flexible()])
    }
}

/// How the search screen matches: every word of the query starts a word of the item, ignoring
/// case and accents ("mun" finds "München", "gare l" finds "Gare de Lyon").
enum SearchMatch {
    /// Characters the search field takes: more than any item holds (a manifest's items are at
    /// most 200 bytes), few enough that a keystroke's filtering stays far under a frame.
    static let maximumQueryLength = 200

    /// An item as the matcher reads it, folded once.
    struct Item {
        let scalars: [Unicode.Scalar]
        /// Where a query word may start: a word's start, or anywhere in Japanese.
        let starts: [Int]

        init(_ text: String) {
            let scalars = SearchMatch.folded(text)
            self.scalars = scalars
            starts = scalars.indices.filter { i in
                i == 0 || !scalars[i - 1].properties.isAlphabetic || SearchMatch.isIdeographic(scalars[i])
            }
        }

        /// Whether every word (folded) starts a word of the item.
        func matches(_ words: [[Unicode.Scalar]]) -> Bool {
            words.allSatisfy { word in
                guard word.count <= scalars.count else { return false }
                return starts.contains { start in
                    start + word.count <= scalars.count && scalars[start..<(start + word.count)].elementsEqual(word)
                }
            }
        }
    }

    /// The query's words, folded, each once (a word typed twice matches where it did once).
    static func words(of query: String) -> [[Unicode.Scalar]] {
        var seen = Set<[Unicode.Scalar]>()
        return query.split(whereSeparator: { $0 == " " }).map { folded(String($0)) }.filter { seen.insert($0).inserted }
    }

    /// Lower case without accents: combining marks go, and precomposed Latin letters lose theirs.
    static func folded(_ s: String) -> [Unicode.Scalar] {
        s.lowercased().unicodeScalars.compactMap { scalar in
            scalar.properties.generalCategory == .nonspacingMark ? nil : baseLetters[scalar] ?? scalar
        }
    }

    static func matches(_ item: String, query: String) -> Bool { Item(item).matches(words(of: query)) }

    /// Japanese has no spaces: a query may start anywhere in it.
    static func isIdeographic(_ s: Unicode.Scalar) -> Bool {
        (0x3040...0x30FF).contains(s.value) || (0x4E00...0x9FFF).contains(s.value)
    }

    /// Latin letters without their accent (é → e, ß stays): the first scalar of the canonical
    /// decomposition, from a small table rather than ICU (FoundationEssentials has none). Built
    /// once: built per scalar, it made a long query take seconds.
    static let baseLetters: [Unicode.Scalar: Unicode.Scalar] = [
        "à": "a", "á": "a", "â": "a", "ä": "a", "ã": "a", "å": "a", "ç": "c", "è": "e", "é": "e", "ê": "e", "ë": "e",
        "ì": "i", "í": "i", "î": "i", "ï": "i", "ñ": "n", "ò": "o", "ó": "o", "ô": "o", "ö": "o", "õ": "o",
        "ù": "u", "ú": "u", "û": "u", "ü": "u", "ý": "y", "ÿ": "y", "œ": "o",
    ]
}
