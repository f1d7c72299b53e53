/// The words Glide's own views show or say (the back button, "Page 3 of 7", the edit menu, the
/// keyboard's return key, the screen reader's announcements), one table per language. A
/// window picks the table by its language; a language without a table, or a word missing from
/// one, falls back to English, so a view never shows an empty label.
package struct BuiltInStrings: Hashable, Sendable {
    /// The language whose table this is ("en", "de", "fr", "ja", "ar", "he"); an unknown one
    /// reads English.
    package let language: String
    private let table: [Word: String]

    /// The words of `language`: its primary subtag picks the table ("de-CH" reads German).
    package init(language: String) {
        let primary = String(language.lowercased().prefix { $0.isLetter })
        self.language = BuiltInStrings.tables[primary] == nil ? "en" : primary
        table = BuiltInStrings.tables[self.language] ?? [:]
    }

    /// Every language with a table.
    package static var languages: [String] { tables.keys.sorted() }

    /// The words this language's table lacks (they read English).
    package var missingWords: [Word] { Word.allCases.filter { table[$0] == nil } }

    /// The word, in this table or else in English.
    package subscript(_ word: Word) -> String {
        table[word] ?? BuiltInStrings.english[word] ?? word.rawValue
    }

    /// `word` with its `%d` placeholders filled in order ("Page %d of %d" → "Page 3 of 7").
    package func format(_ word: Word, _ numbers: Int...) -> String {
        fill(self[word], marker: "d", with: numbers.map(String.init))
    }

    /// `word` with its `%@` placeholder replaced by `text`.
    package func format(_ word: Word, _ text: String) -> String {
        fill(self[word], marker: "@", with: [text])
    }

    /// Replaces each `%` + `marker` with the next of `values`, left to right.
    private func fill(_ pattern: String, marker: Character, with values: [String]) -> String {
        var out = "", next = values.makeIterator(), afterPercent = false
        for c in pattern {
            if afterPercent {
                afterPercent = false
                if c == marker { out += next.next() ?? ""; continue }
                out.append("%")
            }
            if c == "%" { afterPercent = true } else { out.append(c) }
        }
        return afterPercent ? out + "%" : out
    }

    /// The words built-in views use. Their raw value names them in a table.
    package enum Word: String, CaseIterable, Sendable {
        case back, pageOf, rowsOf, itemsOf, empty, allShown, percent
        case cut, copy, paste, selectAll
        case editing, characters, screenReaderOn, screenReaderOff, nothingToGoBackTo, volumePercent
        case returnKey, done, go, search, next, send, space
        case roleButton, roleText, roleHeading, roleImage, roleScrollArea, rolePageControl, roleListRow, roleAdjustable, roleTextField
        case roleSwitch, roleProgress, on, off, dimmed, inProgress, selected
        case decrease, increase
    }

    private static let english: [Word: String] = [
        .back: "Back", .pageOf: "Page %d of %d", .rowsOf: "Rows %d to %d of %d", .itemsOf: "Items %d to %d of %d",
        .empty: "Empty", .allShown: "All shown", .percent: "%d percent",
        .cut: "Cut", .copy: "Copy", .paste: "Paste", .selectAll: "Select All",
        .editing: "Editing %@", .characters: "%d characters", .screenReaderOn: "Screen reader on",
        .screenReaderOff: "Screen reader off", .nothingToGoBackTo: "Nothing to go back to", .volumePercent: "Volume %d percent",
        .returnKey: "return", .done: "Done", .go: "Go", .search: "Search", .next: "Next", .send: "Send", .space: "space",
        .roleButton: "button", .roleText: "text", .roleHeading: "heading", .roleImage: "image", .roleScrollArea: "scroll area",
        .rolePageControl: "page control", .roleListRow: "list row", .roleAdjustable: "adjustable", .roleTextField: "text field",
        .roleSwitch: "switch", .roleProgress: "progress indicator", .on: "on", .off: "off", .dimmed: "dimmed", .inProgress: "in progress",
        .selected: "selected",
        .decrease: "Decrease", .increase: "Increase",
    ]

    private static let german: [Word: String] = [
        .back: "Zurück", .pageOf: "Seite %d von %d", .rowsOf: "Zeilen %d bis %d von %d", .itemsOf: "Einträge %d bis %d von %d",
        .empty: "Leer", .allShown: "Alles sichtbar", .percent: "%d Prozent",
        .cut: "Ausschneiden", .copy: "Kopieren", .paste: "Einsetzen", .selectAll: "Alles auswählen",
        .editing: "Bearbeiten: %@", .characters: "%d Zeichen", .screenReaderOn: "Bildschirmleser an",
        .screenReaderOff: "Bildschirmleser aus", .nothingToGoBackTo: "Kein vorheriger Bildschirm", .volumePercent: "Lautstärke %d Prozent",
        .returnKey: "Return", .done: "Fertig", .go: "Los", .search: "Suchen", .next: "Weiter", .send: "Senden", .space: "Leerzeichen",
        .roleButton: "Taste", .roleText: "Text", .roleHeading: "Überschrift", .roleImage: "Bild", .roleScrollArea: "Rollbereich",
        .rolePageControl: "Seitenauswahl", .roleListRow: "Listenzeile", .roleAdjustable: "einstellbar", .roleTextField: "Textfeld",
        .roleSwitch: "Schalter", .roleProgress: "Fortschrittsanzeige", .on: "ein", .off: "aus", .dimmed: "deaktiviert",
        .inProgress: "wird ausgeführt", .selected: "ausgewählt",
        .decrease: "Verringern", .increase: "Erhöhen",
    ]

    private static let french: [Word: String] = [
        .back: "Retour", .pageOf: "Page %d sur %d", .rowsOf: "Lignes %d à %d sur %d", .itemsOf: "Éléments %d à %d sur %d",
        .empty: "Vide", .allShown: "Tout est affiché", .percent: "%d pour cent",
        .cut: "Couper", .copy: "Copier", .paste: "Coller", .selectAll: "Tout sélectionner",
        .editing: "Modification de %@", .characters: "%d caractères", .screenReaderOn: "Lecteur d’écran activé",
        .screenReaderOff: "Lecteur d’écran désactivé", .nothingToGoBackTo: "Aucun écran précédent", .volumePercent: "Volume %d pour cent",
        .returnKey: "retour", .done: "OK", .go: "Aller", .search: "Rechercher", .next: "Suivant", .send: "Envoyer", .space: "espace",
        .roleButton: "bouton", .roleText: "texte", .roleHeading: "titre", .roleImage: "image", .roleScrollArea: "zone de défilement",
        .rolePageControl: "indicateur de page", .roleListRow: "ligne de liste", .roleAdjustable: "réglable",
        .roleTextField: "champ de texte",
        .roleSwitch: "interrupteur", .roleProgress: "indicateur de progression", .on: "activé", .off: "désactivé", .dimmed: "estompé",
        .inProgress: "en cours", .selected: "sélectionné",
        .decrease: "Diminuer", .increase: "Augmenter",
    ]

    private static let japanese: [Word: String] = [
        .back: "戻る", .pageOf: "%d/%dページ", .rowsOf: "%d〜%d行目（全%d行）", .itemsOf: "%d〜%d項目（全%d項目）",
        .empty: "空", .allShown: "すべて表示", .percent: "%dパーセント",
        .cut: "カット", .copy: "コピー", .paste: "ペースト", .selectAll: "すべてを選択",
        .editing: "%@を編集中", .characters: "%d文字", .screenReaderOn: "スクリーンリーダー オン",
        .screenReaderOff: "スクリーンリーダー オフ", .nothingToGoBackTo: "戻る画面がありません", .volumePercent: "音量%dパーセント",
        .returnKey: "改行", .done: "完了", .go: "開く", .search: "検索", .next: "次へ", .send: "送信", .space: "空白",
        .roleButton: "ボタン", .roleText: "テキスト", .roleHeading: "見出し", .roleImage: "画像", .roleScrollArea: "スクロール領域",
        .rolePageControl: "ページコントロール", .roleListRow: "リストの行", .roleAdjustable: "調整可能", .roleTextField: "テキストフィールド",
        .roleSwitch: "スイッチ", .roleProgress: "進行状況インジケータ", .on: "オン", .off: "オフ", .dimmed: "淡色表示", .inProgress: "処理中", .selected: "選択中",
        .decrease: "減らす", .increase: "増やす",
    ]

    private static let arabic: [Word: String] = [
        .back: "رجوع", .pageOf: "الصفحة %d من %d", .rowsOf: "الصفوف %d إلى %d من %d", .itemsOf: "العناصر %d إلى %d من %d",
        .empty: "فارغ", .allShown: "الكل معروض", .percent: "%d بالمئة",
        .cut: "قص", .copy: "نسخ", .paste: "لصق", .selectAll: "تحديد الكل",
        .editing: "تحرير %@", .characters: "%d حرفًا", .screenReaderOn: "قارئ الشاشة يعمل",
        .screenReaderOff: "قارئ الشاشة متوقف", .nothingToGoBackTo: "لا توجد شاشة سابقة", .volumePercent: "مستوى الصوت %d بالمئة",
        .returnKey: "إدخال", .done: "تم", .go: "انتقال", .search: "بحث", .next: "التالي", .send: "إرسال", .space: "مسافة",
        .roleButton: "زر", .roleText: "نص", .roleHeading: "عنوان", .roleImage: "صورة", .roleScrollArea: "منطقة تمرير",
        .rolePageControl: "مؤشر الصفحات", .roleListRow: "صف قائمة", .roleAdjustable: "قابل للتعديل", .roleTextField: "حقل نص",
        .roleSwitch: "مفتاح", .roleProgress: "مؤشر التقدم", .on: "تشغيل", .off: "إيقاف", .dimmed: "معطل", .inProgress: "قيد التنفيذ",
        .selected: "محدد",
        .decrease: "إنقاص", .increase: "زيادة",
    ]

    private static let hebrew: [Word: String] = [
        .back: "חזרה", .pageOf: "עמוד %d מתוך %d", .rowsOf: "שורות %d עד %d מתוך %d", .itemsOf: "פריטים %d עד %d מתוך %d",
        .empty: "ריק", .allShown: "הכול מוצג", .percent: "%d אחוז",
        .cut: "גזירה", .copy: "העתקה", .paste: "הדבקה", .selectAll: "בחירת הכול",
        .editing: "עריכת %@", .characters: "%d תווים", .screenReaderOn: "קורא המסך פועל",
        .screenReaderOff: "קורא המסך כבוי", .nothingToGoBackTo: "אין מסך קודם", .volumePercent: "עוצמת שמע %d אחוז",
        .returnKey: "אישור", .done: "סיום", .go: "מעבר", .search: "חיפוש", .next: "הבא", .send: "שליחה", .space: "רווח",
        .roleButton: "כפתור", .roleText: "טקסט", .roleHeading: "כותרת", .roleImage: "תמונה", .roleScrollArea: "אזור גלילה",
        .rolePageControl: "בקרת עמודים", .roleListRow: "שורת רשימה", .roleAdjustable: "ניתן לכוונון", .roleTextField: "שדה טקסט",
        .roleSwitch: "מתג", .roleProgress: "מחוון התקדמות", .on: "פועל", .off: "כבוי", .dimmed: "מעומעם", .inProgress: "בתהליך",
        .selected: "נבחר",
        .decrease: "הקטנה", .increase: "הגדלה",
    ]

    private static let tables: [String: [Word: String]] = [
        "en": english, "de": german, "fr": french, "ja": japanese, "ar": arabic, "he": hebrew,
    ]
}
