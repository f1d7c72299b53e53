import Localization
/// One key of an on-screen keyboard: what it shows, what it does, and its width in units of
/// a letter key.
package struct KeyboardKey: Hashable, Sendable {
    package enum Action: Hashable, Sendable {
        /// Types this text (shifted or in katakana when the keyboard says so).
        case text(String)
        case backspace, shift, space, returnKey, dismiss
        /// Shows another page of the layout.
        case page(Int)
        /// The kana keys that change the character before the caret.
        case dakuten, handakuten, smallKana
        /// Hiragana and katakana (the kana layout's shift).
        case katakana
        /// Empties the field (the PIN pad).
        case clear
    }
    package var label: String
    package var action: Action
    package var width: Double
    package init(_ label: String, _ action: Action, width: Double = 1) { self.label = label; self.action = action; self.width = width }

    /// Repeats while held: deleting, and spaces.
    package var repeats: Bool { action == .backspace || action == .space }
    /// A key whose label is the text it types: it gets the pressed-key preview.
    package var isCharacter: Bool { if case .text = action { return true } else { return false } }
}

/// What a field is for: it picks the keyboard and its bottom row.
public enum TextContentType: String, Hashable, Sendable, CaseIterable {
    /// Ordinary text: the letter keyboard of the layout.
    case text
    /// A number: a keypad with digits, a decimal point and a minus key.
    case number
    /// A PIN: a keypad with digits and a key that clears the field.
    case pin
    /// An e-mail address: the Latin keyboards' bottom row has @ and . keys beside a shorter
    /// space bar.
    case email
    /// A web address: the Latin keyboards' bottom row has /, .com and . keys instead of a
    /// space bar.
    case url
}

/// What the return key says and does (`submitLabel`).
public enum SubmitLabel: String, Hashable, Sendable, CaseIterable {
    /// A plain return key: a text area takes a new line, a text field submits and gives up
    /// focus.
    case `return`
    /// “Done” (in the keyboard's language): submits the text and ends editing.
    case done
    /// “Go” (in the keyboard's language): submits the text and ends editing.
    case go
    /// “Search” (in the keyboard's language): submits the text and ends editing.
    case search
    /// “Next” (in the keyboard's language): submits the text and moves focus to the next editable
    /// field, or ends editing after the last one.
    case next
    /// “Send” (in the keyboard's language): submits the text and ends editing.
    case send
}

/// The keys of an on-screen keyboard drawn by Glide: layouts `en` (QWERTY), `de` (QWERTZ), `fr`
/// (AZERTY), `es`, `it`, `pt`, `nl` and `pl` (QWERTY, their accented letters on a page of
/// their own), `tr` (Turkish Q), `ru` and `uk` (ЙЦУКЕН), `el` (Greek), `ja` (the 50-sound kana
/// grid), `ar` (Arabic), `he` (Hebrew), `fa` (Persian), `number` and `pin`, each a list of pages
/// (letters, symbols, more symbols) of rows of keys.
package struct KeyboardLayout: Hashable, Sendable {
    package var name: String
    package var pages: [[[KeyboardKey]]]
    /// A grid keypad (number and PIN pads): keys of equal width, no preview.
    package var isPad: Bool

    /// What the state JSON calls each page: "letters", "symbols", "more", then a layout's own
    /// ("accents" for a Latin language's accented letters, "marks" for the Arabic and Persian
    /// hamza forms and vowel marks, "latin" for the Latin letters of a keyboard of another
    /// script); "pad" for a keypad.
    package func pageName(_ page: Int) -> String {
        if isPad { return "pad" }
        let names = ["letters", "symbols", "more"] + Self.ownPages(name)
        return names[max(0, min(page, names.count - 1))]
    }

    /// The pages a layout has after "letters", "symbols" and "more", in order.
    static func ownPages(_ name: String) -> [String] {
        switch name {
        case "ar", "fa": return ["marks", "latin"]
        case "he", "ru", "uk": return ["latin"]
        case "el": return ["accents", "latin"]
        default: return accents(name).isEmpty ? [] : ["accents"]
        }
    }

    package static let names = [
        "en", "de", "fr", "es", "it", "pt", "nl", "pl", "tr", "ru", "uk", "el", "ja", "ar", "he", "fa", "number", "pin",
    ]
    static let rightToLeftNames: Set<String> = ["ar", "he", "fa"]

    /// Whether the layout's letters are of a script written right to left (Arabic, Hebrew,
    /// Persian): their keys stay where the countries' keyboards have them, but a field typed on
    /// them reads from the right.
    package var isRightToLeft: Bool { Self.rightToLeftNames.contains(name) }

    /// The layout `name` for a field of `contentType` with `submit` on its return key; nil for
    /// a name that does not exist. Number and PIN fields get their pads whatever the name.
    package static func named(_ name: String, contentType: TextContentType = .text, submit: SubmitLabel = .return) -> KeyboardLayout? {
        guard names.contains(name) else { return nil }
        let language = ["number", "pin"].contains(name) ? "en" : name
        let ret = KeyboardKey(returnLabel(submit, language: language), .returnKey, width: 2)
        switch contentType {
        case .number:
            return pad(
                name: "number", side: KeyboardKey("-", .text("-")),
                bottom: [KeyboardKey(".", .text(".")), KeyboardKey("0", .text("0"), width: 2)], ret: ret)
        case .pin:
            return pad(name: "pin", side: KeyboardKey("C", .clear), bottom: [KeyboardKey("0", .text("0"), width: 3)], ret: ret)
        default: break
        }
        switch name {
        case "number": return named("en", contentType: .number, submit: submit)
        case "pin": return named("en", contentType: .pin, submit: submit)
        case "ja": return kana(ret: ret, contentType: contentType)
        case "ar", "he", "fa": return rightToLeft(name, ret: ret, contentType: contentType)
        default: return latin(name, ret: ret, contentType: contentType)
        }
    }

    static func keys(_ row: String) -> [KeyboardKey] {
        row.split(separator: " ").map { KeyboardKey(String($0), .text(String($0))) }
    }

    /// The letter rows of the keyboards drawn by `latin` (shift, delete and the bottom row added
    /// there): each as the country's phone keyboard has them.
    static func letterRows(_ name: String) -> [String] {
        switch name {
        case "de": return ["q w e r t z u i o p ü", "a s d f g h j k l ö ä", "y x c v b n m ß"]
        case "fr": return ["a z e r t y u i o p", "q s d f g h j k l m ù", "w x c v b n é è à ç"]
        case "es": return ["q w e r t y u i o p", "a s d f g h j k l ñ", "z x c v b n m"]
        case "pt": return ["q w e r t y u i o p", "a s d f g h j k l ç", "z x c v b n m"]
        // Turkish Q: the dotless ı where QWERTY has i, the dotted i beside ş.
        case "tr": return ["q w e r t y u ı o p ğ ü", "a s d f g h j k l ş i", "z x c v b n m ö ç"]
        // ЙЦУКЕН, with ъ and ё where phones hide them behind a long press (ь and е).
        case "ru": return ["й ц у к е н г ш щ з х ъ", "ф ы в а п р о л д ж э", "ё я ч с м и т ь б ю"]
        case "uk": return ["й ц у к е н г ш щ з х ї", "ф і в а п р о л д ж є", "ґ я ч с м и т ь б ю"]
        // The Greek question mark (;) where Q is, final sigma where W is.
        case "el": return ["; ς ε ρ τ υ θ ι ο π", "α σ δ φ γ η ξ κ λ", "ζ χ ψ ω β ν μ"]
        default: return ["q w e r t y u i o p", "a s d f g h j k l", "z x c v b n m"]
        }
    }

    /// The "accents" page's three rows of a layout: the language's accented letters (shift
    /// gives the capitals, as on the letters page) and its quotation marks; empty for a layout
    /// without the page.
    static func accents(_ name: String) -> [String] {
        switch name {
        case "es": return ["á é í ó ú ü ñ", "¿ ¡ ª º ç", "« » “ ” …"]
        case "it": return ["à è é ì ò ù", "á í î ó ú ç", "« » “ ” …"]
        case "pt": return ["á à â ã é ê í", "ó ô õ ú ü ç", "ª º « » “ ”"]
        case "nl": return ["é è ë ê á à ä", "í ï ó ö ô ú ü", "ç ñ ‘ ’ “ ”"]
        case "pl": return ["ą ć ę ł ń ó ś ź ż", "ä ö ü é", "„ ” « » …"]
        case "el": return ["ά έ ή ί ό ύ ώ", "ϊ ϋ ΐ ΰ", "« » · ’ …"]
        default: return []
        }
    }

    /// The key that leads from another script's pages to its letters (page 0).
    static func ownLettersLabel(_ name: String) -> String {
        switch name {
        case "ru", "uk": return "АБВ"
        case "el": return "ΑΒΓ"
        case "ar": return "أ ب ج"
        case "he": return "א ב ג"
        case "fa": return "ا ب پ"
        default: return "ABC"
        }
    }

    /// The Latin keyboards, and those of other scripts that have shift as they do (Cyrillic,
    /// Greek): letters, symbols and more symbols; a language's accented letters on an
    /// "accents" page a key away (the key beside "123"); for Cyrillic and Greek, the Latin
    /// letters on a "latin" page ("ABC" on each page), so "Київ 12 Kyiv" is typed on one keyboard.
    static func latin(_ name: String, ret: KeyboardKey, contentType: TextContentType) -> KeyboardLayout {
        let rows = letterRows(name)
        let currency = ["en": "$", "pl": "zł", "tr": "₺", "ru": "₽", "uk": "₴"][name] ?? "€"
        let space = KeyboardKey(spaceLabel(name), .space, width: 5)
        let hide = KeyboardKey("⌨", .dismiss, width: 1.5)
        let ownPages = ownPages(name)
        let accentRows = accents(name)
        // The Latin letters of a keyboard of another script: its last page.
        let latinKey: KeyboardKey? = ownPages.last == "latin" ? KeyboardKey("ABC", .page(2 + ownPages.count), width: 1.5) : nil
        func bottom(_ pageKey: KeyboardKey, _ extra: KeyboardKey? = nil) -> [KeyboardKey] {
            let lead = [pageKey] + (latinKey.map { [$0] } ?? []) + (extra.map { [$0] } ?? [])
            switch contentType {
            case .email:
                return lead + [
                    KeyboardKey("@", .text("@")), KeyboardKey(spaceLabel(name), .space, width: 3), KeyboardKey(".", .text(".")), hide, ret,
                ]
            case .url:
                return lead + [
                    KeyboardKey("/", .text("/")), KeyboardKey(".com", .text(".com"), width: 2), KeyboardKey(".", .text(".")), hide, ret,
                ]
            default: return lead + [KeyboardKey(",", .text(",")), space, hide, ret]
            }
        }
        let accentsKey = accentRows.isEmpty ? nil : KeyboardKey(accentRows[0].split(separator: " ").prefix(2).joined(), .page(3))
        let letters: [[KeyboardKey]] = [
            keys(rows[0]), keys(rows[1]),
            [KeyboardKey("⇧", .shift, width: 1.5)] + keys(rows[2]) + [KeyboardKey("⌫", .backspace, width: 1.5)],
            bottom(KeyboardKey("123", .page(1), width: 1.5), accentsKey),
        ]
        let ownLetters = KeyboardKey(ownLettersLabel(name), .page(0), width: 1.5)
        let symbols: [[KeyboardKey]] = [
            keys("1 2 3 4 5 6 7 8 9 0"), keys("- / : ; ( ) \(currency) & @ \""),
            [KeyboardKey("#+=", .page(2), width: 1.5)] + keys(". , ? ! ' %") + [KeyboardKey("⌫", .backspace, width: 1.5)],
            bottom(ownLetters),
        ]
        let more: [[KeyboardKey]] = [
            keys("[ ] { } # ^ * + = ~"), keys("_ \\ | < > $ € £ ¥ •"),
            [KeyboardKey("123", .page(1), width: 1.5)] + keys(". , ? ! ' %") + [KeyboardKey("⌫", .backspace, width: 1.5)],
            bottom(ownLetters),
        ]
        var pages = [letters, symbols, more]
        if !accentRows.isEmpty {
            pages.append([
                keys(accentRows[0]), keys(accentRows[1]),
                [KeyboardKey("⇧", .shift, width: 1.5)] + keys(accentRows[2]) + [KeyboardKey("⌫", .backspace, width: 1.5)],
                bottom(ownLetters),
            ])
        }
        if latinKey != nil {
            var latinLetters = latin("en", ret: ret, contentType: contentType).pages[0]
            latinLetters[3][0] = ownLetters
            pages.append(latinLetters)
        }
        return KeyboardLayout(name: name, pages: pages, isPad: false)
    }

    /// The 50-sound table as Japanese ticket machines show it: one column per consonant from
    /// あ to わ, the vowels downwards, then ん and punctuation, and the keys that add dakuten
    /// or handakuten to the kana before the caret or make it small.
    static func kana(ret: KeyboardKey, contentType: TextContentType) -> KeyboardLayout {
        let columns = [
            "あいうえお", "かきくけこ", "さしすせそ", "たちつてと", "なにぬねの", "はひふへほ",
            "まみむめも", "や「ゆ」よ", "らりるれろ", "わをんー〜", "、。？！・",
        ]
        let grid: [[KeyboardKey]] = (0..<5).map { row in
            columns.map { column in
                let c = String(Array(column)[row])
                return KeyboardKey(c, .text(c))
            }
        }
        let bottom: [KeyboardKey] = [
            KeyboardKey("123", .page(1), width: 1.5), KeyboardKey("カナ", .katakana, width: 1.5),
            KeyboardKey("゛", .dakuten), KeyboardKey("゜", .handakuten), KeyboardKey("小", .smallKana),
            KeyboardKey("空白", .space, width: 1.5), KeyboardKey("⌫", .backspace, width: 1.5), ret,
        ]
        var symbols = latin("en", ret: ret, contentType: contentType).pages[1]
        symbols[3][0] = KeyboardKey("あいう", .page(0), width: 1.5)
        var more = latin("en", ret: ret, contentType: contentType).pages[2]
        more[3][0] = KeyboardKey("あいう", .page(0), width: 1.5)
        return KeyboardLayout(name: "ja", pages: [grid + [bottom], symbols, more], isPad: false)
    }

    /// Arabic (the phone layout: letters where the Arabic PC keyboard has them, the hamza forms
    /// and vowel marks on a page of their own, Arabic-Indic digits on the number page), Persian
    /// (the Persian phone layout: پ چ ژ گ and the Persian ک and ی, the hamza forms, vowel marks
    /// and the zero-width non-joiner on a page of their own, Persian digits on the number page)
    /// and Hebrew (the Israeli standard layout, the shekel sign on the number page). Each has the
    /// Latin letters a page away, so "أحمد 12 Ahmed" is typed on one keyboard.
    static func rightToLeft(_ name: String, ret: KeyboardKey, contentType: TextContentType) -> KeyboardLayout {
        let latinPages = latin("en", ret: ret, contentType: contentType).pages
        // Arabic script: Arabic and Persian.
        let arabic = name == "ar" || name == "fa"
        let rows: [String]
        switch name {
        case "ar": rows = ["ض ص ث ق ف غ ع ه خ ح ج", "ش س ي ب ل ا ت ن م ك ط", "ذ ء ؤ ر ى ة و ز ظ د"]
        case "fa": rows = ["ض ص ث ق ف غ ع ه خ ح ج چ", "ش س ی ب ل ا ت ن م ک گ", "ظ ط ژ ز ر ذ د پ و"]
        default: rows = ["ק ר א ט ו ן ם פ", "ש ד ג כ ע י ח ל ך ף", "ז ס ב ה נ מ צ ת ץ"]
        }
        let ownLetters = ownLettersLabel(name)
        let latinKey = KeyboardKey("ABC", .page(arabic ? 4 : 3), width: 1.5)
        // The bottom rows of the Latin pages, with the layout's own letters a key away.
        func bottom(_ pageKey: KeyboardKey) -> [KeyboardKey] {
            var row = latinPages[0][3].map { key in
                switch key.action {
                case .space: return KeyboardKey(spaceLabel(name), .space, width: key.width)
                case .text(",") where arabic: return KeyboardKey("،", .text("،"))
                default: return key
                }
            }
            row[0] = pageKey
            row.insert(latinKey, at: 1)
            return row
        }
        let backspace = KeyboardKey("⌫", .backspace, width: 1.5)
        var letters: [[KeyboardKey]] = [keys(rows[0]), keys(rows[1])]
        letters.append(
            (arabic ? [KeyboardKey(name == "fa" ? "آ أ ء" : "أ إ آ", .page(3), width: 1.5)] : []) + keys(rows[2]) + [backspace])
        letters.append(bottom(KeyboardKey("123", .page(1), width: 1.5)))
        let digits: String, punctuation: String, marks: String
        switch name {
        case "ar": (digits, punctuation, marks) = ("١ ٢ ٣ ٤ ٥ ٦ ٧ ٨ ٩ ٠", "- / : ؛ ( ) ر.س & @ \"", ". ، ؟ ! ' %")
        case "fa": (digits, punctuation, marks) = ("۱ ۲ ۳ ۴ ۵ ۶ ۷ ۸ ۹ ۰", "- / : ؛ ( ) ریال & @ \"", ". ، ؟ ! « » ٪")
        default: (digits, punctuation, marks) = ("1 2 3 4 5 6 7 8 9 0", "- / : ; ( ) ₪ & @ \"", ". , ? ! ' %")
        }
        let symbols: [[KeyboardKey]] = [
            keys(digits), keys(punctuation),
            [KeyboardKey("#+=", .page(2), width: 1.5)] + keys(marks) + [backspace],
            bottom(KeyboardKey(ownLetters, .page(0), width: 1.5)),
        ]
        var more = latinPages[2]
        more[0] = keys("1 2 3 4 5 6 7 8 9 0")
        more[3] = bottom(KeyboardKey(ownLetters, .page(0), width: 1.5))
        var latinLetters = latinPages[0]
        latinLetters[3][0] = KeyboardKey(ownLetters, .page(0), width: 1.5)
        var pages = [letters, symbols, more]
        if let marks = marksPage(
            name, ownLetters: ownLetters, backspace: backspace, bottom: bottom(KeyboardKey("123", .page(1), width: 1.5)))
        {
            pages.append(marks)
        }
        pages.append(latinLetters)
        return KeyboardLayout(name: name, pages: pages, isPad: false)
    }

    /// Arabic's and Persian's page of hamza forms and vowel marks; nil for Hebrew, which has none.
    static func marksPage(_ name: String, ownLetters: String, backspace: KeyboardKey, bottom: [KeyboardKey]) -> [[KeyboardKey]]? {
        switch name {
        case "ar":
            return [
                keys("أ إ آ ٱ ئ ؤ ء لا"), keys("َ ُ ِ ً ٌ ٍ ّ ْ ـ"),
                [KeyboardKey(ownLetters, .page(0), width: 1.5)] + keys("ى ة ه ك ی") + [backspace], bottom,
            ]
        case "fa":
            // The zero-width non-joiner (نیم‌فاصله) parts the halves of words like می‌روم.
            return [
                keys("آ ا أ إ ئ ؤ ء ة"), keys("َ ُ ِ ً ٌ ٍ ّ ْ ٔ"),
                [KeyboardKey(ownLetters, .page(0), width: 1.5), KeyboardKey("نیم‌فاصله", .text("\u{200C}"), width: 2)]
                    + keys("ي ك ى ـ") + [backspace],
                bottom,
            ]
        default: return nil
        }
    }

    /// A 4 x 4 keypad: digits, delete, `side` (clear or minus), hide, and the bottom row.
    static func pad(name: String, side: KeyboardKey, bottom: [KeyboardKey], ret: KeyboardKey) -> KeyboardLayout {
        let rows = [
            keys("1 2 3") + [KeyboardKey("⌫", .backspace)], keys("4 5 6") + [side],
            keys("7 8 9") + [KeyboardKey("⌨", .dismiss)], bottom + [KeyboardKey(ret.label, .returnKey)],
        ]
        return KeyboardLayout(name: name, pages: [rows], isPad: true)
    }

    /// The return key's word for `submit` in `language` (the keyboard's own language, as the
    /// system keyboards do), from the built-in views' tables.
    static func returnLabel(_ submit: SubmitLabel, language: String) -> String {
        let word: BuiltInStrings.Word
        switch submit {
        case .return: word = .returnKey
        case .done: word = .done
        case .go: word = .go
        case .search: word = .search
        case .next: word = .next
        case .send: word = .send
        }
        return BuiltInStrings(language: language)[word]
    }

    static func spaceLabel(_ language: String) -> String { BuiltInStrings(language: language)[.space] }

    // MARK: Geometry

    /// The keys' rectangles on `page` in a keyboard of `width` x `height` points: rows of equal
    /// height, each row's keys at their widths in one unit for the whole page (the widest row
    /// fills the width), rows centred, `gap` points between keys.
    package func keyFrames(page: Int, width: Double, height: Double, gap: Double) -> [[(
        x: Double, y: Double, width: Double, height: Double
    )]] {
        let rows = pages[max(0, min(page, pages.count - 1))]
        guard !rows.isEmpty, width > 0, height > 0 else { return rows.map { $0.map { _ in (0, 0, 0, 0) } } }
        // One unit for the page: the tightest row (its keys and gaps) fills the width.
        let unit = rows.map { row in max(0, width - gap * Double(row.count + 1)) / max(0.001, row.reduce(0) { $0 + $1.width }) }.min() ?? 0
        let rowHeight = max(0, (height - gap * Double(rows.count + 1)) / Double(rows.count))
        return rows.enumerated().map { r, row in
            let units = row.reduce(0) { $0 + $1.width }
            // A shorter row stretches its wide keys (shift, delete, space), as phones do, so
            // rows line up at both edges; a row of letters only is centred instead.
            let stretchable = row.filter { !$0.isCharacter }.reduce(0) { $0 + $1.width }
            let missing = max(0, width - gap * Double(row.count + 1) - units * unit)
            let extra = stretchable > 0 ? missing / stretchable : 0
            let used = units * unit + (stretchable > 0 ? missing : 0) + gap * Double(row.count - 1)
            var x = (width - used) / 2
            let y = gap + Double(r) * (rowHeight + gap)
            return row.map { key in
                let w = key.width * unit + (key.isCharacter ? 0 : key.width * extra)
                defer { x += w + gap }
                return (x, y, w, rowHeight)
            }
        }
    }
}

/// The kana keyboard's modifier keys and its katakana page, as character maps.
package enum Kana {
    static let dakuten: [Character: Character] = {
        var m: [Character: Character] = [:]
        let plain = Array("かきくけこさしすせそたちつてとはひふへほうカキクケコサシスセソタチツテトハヒフヘホウ")
        let voiced = Array("がぎぐげござじずぜぞだぢづでどばびぶべぼゔガギグゲゴザジズゼゾダヂヅデドバビブベボヴ")
        for (a, b) in zip(plain, voiced) { m[a] = b }
        return m
    }()
    static let handakuten: [Character: Character] = {
        var m: [Character: Character] = [:]
        for (a, b) in zip(Array("はひふへほハヒフヘホ"), Array("ぱぴぷぺぽパピプペポ")) { m[a] = b }
        return m
    }()
    static let small: [Character: Character] = {
        var m: [Character: Character] = [:]
        for (a, b) in zip(Array("あいうえおつやゆよわアイウエオツヤユヨワ"), Array("ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮ")) { m[a] = b }
        return m
    }()

    /// The dakuten key: か → が, and a voiced kana back to plain (a second press undoes).
    package static func addingDakuten(_ c: Character) -> Character? {
        if let v = dakuten[c] { return v }
        if let p = handakuten.first(where: { $0.value == c })?.key { return dakuten[p] }
        return dakuten.first { $0.value == c }?.key
    }

    /// The handakuten key: は → ぱ (ば → ぱ too), and ぱ back to は.
    package static func addingHandakuten(_ c: Character) -> Character? {
        if let v = handakuten[c] { return v }
        if let plain = dakuten.first(where: { $0.value == c })?.key, let v = handakuten[plain] { return v }
        return handakuten.first { $0.value == c }?.key
    }

    /// The small-kana key: つ → っ, and back.
    package static func toggledSmall(_ c: Character) -> Character? {
        small[c] ?? small.first { $0.value == c }?.key
    }

    /// Hiragana as katakana (the kana keyboard's shift); other characters as they are.
    package static func katakana(_ s: String) -> String {
        String(
            String.UnicodeScalarView(s.unicodeScalars.map { (0x3041...0x3096).contains($0.value) ? Unicode.Scalar($0.value + 0x60)! : $0 }))
    }
}
