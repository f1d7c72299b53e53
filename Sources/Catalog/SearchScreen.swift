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
        let rows: [Label] = items.enumerated().map { i, item in
            let row = Label(item, id: "\(screen.id)-item-\(i)", size: 20, color: Self.ink, maxLines: 1)
            row.padding = EdgeInsets(horizontal: 20, vertical: 14)
            row.background(.white, cornerRadius: 10, border: Self.separator)
            return row
        }
        let none = Label("No match", id: "\(screen.id)-none", size: 18, color: Self.tertiaryInk, alignment: .center, maxLines: 1)
        let results = Stack(
            .vertical, id: "\(screen.id)-results", spacing: 8, padding: EdgeInsets(top: 4, leading: 28, bottom: 28, trailing: 28))
        let count = Label("", id: "\(screen.id)-count", size: 15, color: Self.tertiaryInk, maxLines: 1)
        func show(_ query: String) {
            let shown = rows.filter { SearchMatch.matches($0.text, query: query) }
            results.setChildren(shown.isEmpty ? [none] : shown)
            count.text = query.isEmpty ? "\(rows.count) destinations" : "\(shown.count) of \(rows.count)"
        }
        for row in rows {
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
    static func folded(_ s: String) -> [Character] {
        Array(
            s.lowercased().unicodeScalars.compactMap { scalar -> Character? in
                // Combining marks go, and precomposed Latin letters lose theirs.
                if scalar.properties.generalCategory == .nonspacingMark { return nil }
                let base = String(scalar).decomposedBase
                return base
            })
    }

    static func matches(_ item: String, query: String) -> Bool {
        let words = query.split(whereSeparator: { $0 == " " }).map { folded(String($0)) }
        guard !words.isEmpty else { return true }
        let text = folded(item)
        return words.allSatisfy { word in
            guard word.count <= text.count else { return false }
            for start in 0...(text.count - word.count) where start == 0 || !text[start - 1].isLetter || isIdeographic(text[start]) {
                if Array(text[start..<(start + word.count)]) == word { return true }
            }
            return false
        }
    }

    /// Japanese has no spaces: a query may start anywhere in it.
    static func isIdeographic(_ c: Character) -> Bool {
        guard let v = c.unicodeScalars.first?.value else { return false }
        return (0x3040...0x30FF).contains(v) || (0x4E00...0x9FFF).contains(v)
    }
}

private extension String {
    /// A Latin letter without its accent (é → e, ß stays): the first scalar of the canonical
    /// decomposition, from a small table rather than ICU (FoundationEssentials has none).
    var decomposedBase: Character {
        let table: [Character: Character] = [
            "à": "a", "á": "a", "â": "a", "ä": "a", "ã": "a", "å": "a", "ç": "c", "è": "e", "é": "e", "ê": "e", "ë": "e",
            "ì": "i", "í": "i", "î": "i", "ï": "i", "ñ": "n", "ò": "o", "ó": "o", "ô": "o", "ö": "o", "õ": "o",
            "ù": "u", "ú": "u", "û": "u", "ü": "u", "ý": "y", "ÿ": "y", "œ": "o",
        ]
        let c = Character(self)
        return table[c] ?? c
    }
}
