/// A place in edited text: a paragraph and a character (grapheme cluster) offset in it.
package struct TextPosition: Comparable, Hashable, Sendable {
    package var paragraph: Int
    package var offset: Int
    package init(paragraph: Int, offset: Int) { self.paragraph = paragraph; self.offset = offset }
    package static func < (a: TextPosition, b: TextPosition) -> Bool {
        a.paragraph != b.paragraph ? a.paragraph < b.paragraph : a.offset < b.offset
    }
}

/// What an edit changed, for a view that keeps one layout per paragraph: `replaced` old
/// paragraphs became `inserted` new ones.
package struct ParagraphChange: Hashable, Sendable {
    package var replaced: Range<Int>
    package var inserted: Int
}

/// The text of a field and its selection, edited by characters. Pure: no clocks, no
/// views. The text is kept as paragraphs so that an edit costs what its paragraph costs,
/// however long the whole text is.
package struct TextEditor {
    /// Characters a field holds at most, whatever its own maximum says: a 1 MB paste must not
    /// make a kiosk field a megabyte of layout. Its scalars and UTF-8 bytes are held to the same
    /// number, as a typed line is: one character may be thousands of scalars (a digit and 12,000
    /// zero-width joiners are one), so counting characters alone bounds nothing.
    package static let absoluteMaximumLength = 65_536
    /// Scalars each character of a field's maximum leaves room for: the longest emoji sequences
    /// people type (a family, a subdivision flag) take 7.
    package static let scalarsPerCharacter = 8

    package private(set) var paragraphs: [String] = [""]
    /// Characters per paragraph, kept with them so the total is known without counting.
    private var counts: [Int] = [0]
    /// Scalars per paragraph, likewise.
    private var scalarCounts: [Int] = [0]
    /// Characters in the text, the new lines between paragraphs included.
    package private(set) var count = 0
    /// Unicode scalars in the text, the new lines included.
    package private(set) var scalarCount = 0
    /// UTF-8 bytes of the text, the new lines included.
    package private(set) var byteCount = 0
    /// Where the selection started and where it ends (the caret, when they are equal).
    package private(set) var anchor = TextPosition(paragraph: 0, offset: 0)
    package private(set) var head = TextPosition(paragraph: 0, offset: 0)

    /// One line: new lines typed or pasted become spaces.
    package var isSingleLine: Bool
    /// Characters the text may hold (at most `absoluteMaximumLength`); nil: that.
    package var maximumLength: Int?
    /// Decides which typed or pasted characters are kept (digits only for a PIN, say).
    package var filter: ((Character) -> Bool)?

    package init(text: String = "", singleLine: Bool = true, maximumLength: Int? = nil) {
        isSingleLine = singleLine
        self.maximumLength = maximumLength
        setText(text)
    }

    /// Characters the text may hold: `maximumLength`, at most `absoluteMaximumLength`.
    package var limit: Int { min(Self.absoluteMaximumLength, max(0, maximumLength ?? Self.absoluteMaximumLength)) }
    /// Scalars the text may hold: `scalarsPerCharacter` for each character of the limit, at most
    /// `absoluteMaximumLength`.
    package var scalarLimit: Int { min(Self.absoluteMaximumLength, limit * Self.scalarsPerCharacter) }
    /// UTF-8 bytes the text may hold: `absoluteMaximumLength`. (A scalar takes at most four
    /// bytes, so below that the scalar limit already bounds the bytes.)
    package var byteLimit: Int { Self.absoluteMaximumLength }

    // MARK: Reading

    package var text: String { paragraphs.joined(separator: "\n") }
    package var selectionStart: TextPosition { min(anchor, head) }
    package var selectionEnd: TextPosition { max(anchor, head) }
    package var hasSelection: Bool { anchor != head }

    /// A position as a character offset from the start of the text (new lines count one).
    package func offset(of p: TextPosition) -> Int {
        var total = 0
        for i in 0..<min(p.paragraph, counts.count) { total += counts[i] + 1 }
        return total + p.offset
    }

    /// The position `offset` characters from the start, clamped to the text.
    package func position(atOffset offset: Int) -> TextPosition {
        var rest = max(0, offset)
        for (i, c) in counts.enumerated() {
            if rest <= c { return TextPosition(paragraph: i, offset: rest) }
            rest -= c + 1
        }
        return endPosition
    }

    package var endPosition: TextPosition { TextPosition(paragraph: paragraphs.count - 1, offset: counts[counts.count - 1]) }

    /// The selected characters (new lines between paragraphs included).
    package var selectedText: String { text(from: selectionStart, to: selectionEnd) }

    func text(from a: TextPosition, to b: TextPosition) -> String {
        if a.paragraph == b.paragraph { return String(slice(a.paragraph, a.offset, b.offset)) }
        var parts = [String(slice(a.paragraph, a.offset, counts[a.paragraph]))]
        for i in (a.paragraph + 1)..<b.paragraph { parts.append(paragraphs[i]) }
        parts.append(String(slice(b.paragraph, 0, b.offset)))
        return parts.joined(separator: "\n")
    }

    private func slice(_ p: Int, _ from: Int, _ to: Int) -> Substring {
        let s = paragraphs[p]
        let a = s.index(s.startIndex, offsetBy: from, limitedBy: s.endIndex) ?? s.endIndex
        let b = s.index(a, offsetBy: max(0, to - from), limitedBy: s.endIndex) ?? s.endIndex
        return s[a..<b]
    }

    // MARK: Selection

    package mutating func setSelection(anchor a: TextPosition, head h: TextPosition) {
        anchor = clamped(a); head = clamped(h)
    }

    package mutating func setCaret(_ p: TextPosition) { setSelection(anchor: p, head: p) }

    package mutating func selectAll() { setSelection(anchor: TextPosition(paragraph: 0, offset: 0), head: endPosition) }

    func clamped(_ p: TextPosition) -> TextPosition {
        let para = max(0, min(p.paragraph, paragraphs.count - 1))
        return TextPosition(paragraph: para, offset: max(0, min(p.offset, counts[para])))
    }

    package enum Movement: Hashable, Sendable { case left, right, lineStart, lineEnd, textStart, textEnd }

    /// Moves the caret by characters; `extending` moves only the selection's head. Left or
    /// right over a selection without extending lands on its edge.
    package mutating func move(_ m: Movement, extending: Bool = false) {
        if !extending, hasSelection, m == .left || m == .right {
            setCaret(m == .left ? selectionStart : selectionEnd)
            return
        }
        var p = head
        switch m {
        case .left:
            if p.offset > 0 {
                p.offset -= 1
            } else if p.paragraph > 0 {
                p = TextPosition(paragraph: p.paragraph - 1, offset: counts[p.paragraph - 1])
            }
        case .right:
            if p.offset < counts[p.paragraph] {
                p.offset += 1
            } else if p.paragraph < paragraphs.count - 1 {
                p = TextPosition(paragraph: p.paragraph + 1, offset: 0)
            }
        case .lineStart: p.offset = 0
        case .lineEnd: p.offset = counts[p.paragraph]
        case .textStart: p = TextPosition(paragraph: 0, offset: 0)
        case .textEnd: p = endPosition
        }
        if extending { head = p } else { setCaret(p) }
    }

    /// Selects the word (or run of spaces, or of punctuation) at `p`: letters and digits of
    /// one script make a word, so a Japanese phrase selects its kana or kanji run.
    package mutating func selectWord(at p: TextPosition) {
        let p = clamped(p)
        let chars = Array(paragraphs[p.paragraph])
        guard !chars.isEmpty else { setCaret(p); return }
        let at = p.offset < chars.count ? p.offset : chars.count - 1
        let kind = WordKind(chars[at])
        var lo = at, hi = at + 1
        while lo > 0 && WordKind(chars[lo - 1]) == kind { lo -= 1 }
        while hi < chars.count && WordKind(chars[hi]) == kind { hi += 1 }
        setSelection(anchor: TextPosition(paragraph: p.paragraph, offset: lo), head: TextPosition(paragraph: p.paragraph, offset: hi))
    }

    enum WordKind: Equatable {
        case space, punctuation, latin, kana, katakana, han, other
        init(_ c: Character) {
            guard let s = c.unicodeScalars.first else { self = .other; return }
            let v = s.value
            if c.isWhitespace {
                self = .space
            } else if (0x3041...0x309F).contains(v) {
                self = .kana
            } else if (0x30A0...0x30FF).contains(v) || (0x31F0...0x31FF).contains(v) {
                self = .katakana
            } else if (0x4E00...0x9FFF).contains(v) || (0x3400...0x4DBF).contains(v) {
                self = .han
            } else if c.isLetter || c.isNumber || c == "_" {
                self = .latin
            } else if c.isPunctuation || c.isSymbol {
                self = .punctuation
            } else {
                self = .other
            }
        }
    }

    // MARK: Editing

    /// What typing or pasting `raw` inserts: control characters and NUL dropped, new lines
    /// (CR LF, CR, LS, PS) made one `\n` (a space on one line), tabs made spaces, and the
    /// filter applied. With `scalarsAtMost`, only that many scalars are cleaned: a long paste
    /// into a field with little room left costs what fits.
    package func cleaned(_ raw: String, scalarsAtMost: Int? = nil) -> String {
        var out = String.UnicodeScalarView()
        var kept = 0
        var previousCR = false
        for s in raw.unicodeScalars {
            if let scalarsAtMost, kept >= scalarsAtMost { break }
            defer { previousCR = s == "\r" }
            switch s {
            case "\n" where previousCR: continue
            case "\r", "\n", "\u{2028}", "\u{2029}", "\u{85}": out.append(isSingleLine ? " " : "\n")
            case "\t": out.append(" ")
            default:
                if s.properties.generalCategory == .control || s.properties.generalCategory == .surrogate { continue }
                out.append(s)
            }
            kept += 1
        }
        let text = String(out)
        guard let filter else { return text }
        return String(text.filter { $0 == "\n" || filter($0) })
    }

    /// Replaces the selection with `raw` (cleaned, and cut to the whole characters that the
    /// limits on characters, scalars and bytes leave room for) and puts the caret after it.
    /// Returns the change, nil when nothing changed. Costs what the room is, not what `raw` is,
    /// when the field takes every character (no filter).
    @discardableResult
    package mutating func insert(_ raw: String) -> ParagraphChange? {
        let selected = hasSelection ? text(from: selectionStart, to: selectionEnd) : ""
        let room = Room(
            characters: limit - (count - (offset(of: selectionEnd) - offset(of: selectionStart))),
            scalars: scalarLimit - (scalarCount - selected.unicodeScalars.count),
            bytes: byteLimit - (byteCount - selected.utf8.count))
        guard room.characters > 0 && room.scalars > 0 && room.bytes > 0 || hasSelection else { return nil }
        // One scalar past the room is enough to know where the last whole character ends.
        let text = room.prefix(of: cleaned(raw, scalarsAtMost: filter == nil ? max(0, room.scalars) + 1 : nil))
        guard !text.isEmpty || hasSelection else { return nil }
        return replace(from: selectionStart, to: selectionEnd, with: text)
    }

    /// What the limits leave for an insertion.
    struct Room {
        var characters: Int, scalars: Int, bytes: Int

        /// The whole characters of `text` from its start that fit.
        func prefix(of text: String) -> String {
            var left = self
            var end = text.startIndex
            for c in text {
                left.characters -= 1
                left.scalars -= c.unicodeScalars.count
                left.bytes -= c.utf8.count
                guard left.characters >= 0, left.scalars >= 0, left.bytes >= 0 else { break }
                end = text.index(after: end)
            }
            return String(text[..<end])
        }

        /// Whether `new` fits in place of `old`.
        func allows(replacing old: Character, with new: Character) -> Bool {
            new.unicodeScalars.count - old.unicodeScalars.count <= scalars && new.utf8.count - old.utf8.count <= bytes
        }
    }

    /// Deletes the selection, or the character before the caret.
    @discardableResult
    package mutating func deleteBackward() -> ParagraphChange? { delete(.left) }

    /// Deletes the selection, or the character after the caret.
    @discardableResult
    package mutating func deleteForward() -> ParagraphChange? { delete(.right) }

    private mutating func delete(_ direction: Movement) -> ParagraphChange? {
        if hasSelection { return replace(from: selectionStart, to: selectionEnd, with: "") }
        let from = head
        move(direction)
        guard head != from else { return nil }
        return replace(from: min(from, head), to: max(from, head), with: "")
    }

    /// Replaces the character before the caret with what `transform` makes of it (the kana
    /// keyboard's dakuten and small-kana keys); nil leaves it.
    @discardableResult
    package mutating func transformCharacterBeforeCaret(_ transform: (Character) -> Character?) -> ParagraphChange? {
        let room = Room(characters: 0, scalars: scalarLimit - scalarCount, bytes: byteLimit - byteCount)
        guard !hasSelection, head.offset > 0,
            let old = slice(head.paragraph, head.offset - 1, head.offset).first, let new = transform(old), new != old,
            filter?(new) ?? true, room.allows(replacing: old, with: new)
        else { return nil }
        return replace(from: TextPosition(paragraph: head.paragraph, offset: head.offset - 1), to: head, with: String(new))
    }

    /// Sets the whole text (cleaned and cut to the limit, as if pasted) with the caret at its end.
    @discardableResult
    package mutating func setText(_ raw: String) -> ParagraphChange {
        let old = 0..<paragraphs.count
        paragraphs = [""]; counts = [0]; scalarCounts = [0]; count = 0; scalarCount = 0; byteCount = 0
        anchor = TextPosition(paragraph: 0, offset: 0); head = anchor
        insert(raw)
        return ParagraphChange(replaced: old, inserted: paragraphs.count)
    }

    private mutating func replace(from a: TextPosition, to b: TextPosition, with text: String) -> ParagraphChange {
        let before = slice(a.paragraph, 0, a.offset)
        let after = slice(b.paragraph, b.offset, counts[b.paragraph])
        var pieces = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let caretParagraph = a.paragraph + pieces.count - 1
        pieces[0] = String(before) + pieces[0]
        // Counted after joining: a combining mark typed after a letter joins its character.
        let caretOffset = pieces[pieces.count - 1].count
        pieces[pieces.count - 1] += after
        let range = a.paragraph..<(b.paragraph + 1)
        let newCounts = pieces.map(\.count), newScalarCounts = pieces.map(\.unicodeScalars.count)
        let newLines = pieces.count - range.count
        count += newCounts.reduce(0, +) - counts[range].reduce(0, +) + newLines
        scalarCount += newScalarCounts.reduce(0, +) - scalarCounts[range].reduce(0, +) + newLines
        byteCount += pieces.reduce(0) { $0 + $1.utf8.count } - paragraphs[range].reduce(0) { $0 + $1.utf8.count } + newLines
        paragraphs.replaceSubrange(range, with: pieces)
        counts.replaceSubrange(range, with: newCounts)
        scalarCounts.replaceSubrange(range, with: newScalarCounts)
        setCaret(TextPosition(paragraph: caretParagraph, offset: min(caretOffset, counts[caretParagraph])))
        return ParagraphChange(replaced: range, inserted: pieces.count)
    }

    /// The scalar offset of character `offset` in paragraph `p` (for a layout of it).
    package func scalarOffset(of offset: Int, inParagraph p: Int) -> Int {
        slice(p, 0, offset).unicodeScalars.count
    }

    /// The character boundary nearest a scalar offset in paragraph `p` (a caret never lands
    /// inside a character).
    package func characterOffset(ofScalar scalar: Int, inParagraph p: Int) -> Int {
        var scalars = 0, chars = 0
        for c in paragraphs[max(0, min(p, paragraphs.count - 1))] {
            let n = c.unicodeScalars.count
            if scalars + n > scalar { return scalar - scalars > n / 2 ? chars + 1 : chars }
            scalars += n; chars += 1
        }
        return chars
    }
}
