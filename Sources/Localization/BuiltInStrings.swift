/// The words Glide's own views show or say (the back button, "Page 3 of 7", the edit menu, the
/// keyboard's return key, the screen reader's announcements), one table per language. A
/// window picks the table by its language; a language without a table, or a word missing from
/// one, falls back to English, so a view never shows an empty label.
package struct BuiltInStrings: Hashable, Sendable {
    /// The language whose table this is ("en", "de", "fr", "ja", "ar", "he", "es", "it", "pt",
    /// "nl", "pl", "ru", "uk", "tr", "el", "fa"); an unknown one reads English.
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

    private static let spanish: [Word: String] = [
        .back: "Atrás", .pageOf: "Página %d de %d", .rowsOf: "Filas %d a %d de %d", .itemsOf: "Elementos %d a %d de %d",
        .empty: "Vacío", .allShown: "Todo visible", .percent: "%d por ciento",
        .cut: "Cortar", .copy: "Copiar", .paste: "Pegar", .selectAll: "Seleccionar todo",
        .editing: "Editando %@", .characters: "%d caracteres", .screenReaderOn: "Lector de pantalla activado",
        .screenReaderOff: "Lector de pantalla desactivado", .nothingToGoBackTo: "No hay pantalla anterior",
        .volumePercent: "Volumen %d por ciento",
        .returnKey: "intro", .done: "OK", .go: "Ir", .search: "Buscar", .next: "Siguiente", .send: "Enviar", .space: "espacio",
        .roleButton: "botón", .roleText: "texto", .roleHeading: "encabezado", .roleImage: "imagen",
        .roleScrollArea: "área de desplazamiento", .rolePageControl: "indicador de página", .roleListRow: "fila de lista",
        .roleAdjustable: "ajustable", .roleTextField: "campo de texto",
        .roleSwitch: "interruptor", .roleProgress: "indicador de progreso", .on: "activado", .off: "desactivado",
        .dimmed: "atenuado", .inProgress: "en curso", .selected: "seleccionado",
        .decrease: "Reducir", .increase: "Aumentar",
    ]

    private static let italian: [Word: String] = [
        .back: "Indietro", .pageOf: "Pagina %d di %d", .rowsOf: "Righe da %d a %d di %d",
        .itemsOf: "Elementi da %d a %d di %d",
        .empty: "Vuoto", .allShown: "Tutto visibile", .percent: "%d per cento",
        .cut: "Taglia", .copy: "Copia", .paste: "Incolla", .selectAll: "Seleziona tutto",
        .editing: "Modifica di %@", .characters: "%d caratteri", .screenReaderOn: "Lettore schermo attivo",
        .screenReaderOff: "Lettore schermo disattivato", .nothingToGoBackTo: "Nessuna schermata precedente",
        .volumePercent: "Volume %d per cento",
        .returnKey: "invio", .done: "Fine", .go: "Vai", .search: "Cerca", .next: "Avanti", .send: "Invia", .space: "spazio",
        .roleButton: "pulsante", .roleText: "testo", .roleHeading: "intestazione", .roleImage: "immagine",
        .roleScrollArea: "area di scorrimento", .rolePageControl: "indicatore di pagina", .roleListRow: "riga dell’elenco",
        .roleAdjustable: "regolabile", .roleTextField: "campo di testo",
        .roleSwitch: "interruttore", .roleProgress: "indicatore di avanzamento", .on: "attivo", .off: "disattivo",
        .dimmed: "non disponibile", .inProgress: "in corso", .selected: "selezionato",
        .decrease: "Diminuisci", .increase: "Aumenta",
    ]

    private static let portuguese: [Word: String] = [
        .back: "Voltar", .pageOf: "Página %d de %d", .rowsOf: "Linhas %d a %d de %d", .itemsOf: "Itens %d a %d de %d",
        .empty: "Vazio", .allShown: "Tudo visível", .percent: "%d por cento",
        .cut: "Recortar", .copy: "Copiar", .paste: "Colar", .selectAll: "Selecionar tudo",
        .editing: "Editando %@", .characters: "%d caracteres", .screenReaderOn: "Leitor de tela ativado",
        .screenReaderOff: "Leitor de tela desativado", .nothingToGoBackTo: "Não há tela anterior",
        .volumePercent: "Volume %d por cento",
        .returnKey: "retorno", .done: "OK", .go: "Ir", .search: "Buscar", .next: "Seguinte", .send: "Enviar", .space: "espaço",
        .roleButton: "botão", .roleText: "texto", .roleHeading: "cabeçalho", .roleImage: "imagem",
        .roleScrollArea: "área de rolagem", .rolePageControl: "indicador de página", .roleListRow: "linha da lista",
        .roleAdjustable: "ajustável", .roleTextField: "campo de texto",
        .roleSwitch: "interruptor", .roleProgress: "indicador de progresso", .on: "ativado", .off: "desativado",
        .dimmed: "esmaecido", .inProgress: "em andamento", .selected: "selecionado",
        .decrease: "Diminuir", .increase: "Aumentar",
    ]

    private static let dutch: [Word: String] = [
        .back: "Terug", .pageOf: "Pagina %d van %d", .rowsOf: "Rijen %d tot en met %d van %d",
        .itemsOf: "Onderdelen %d tot en met %d van %d",
        .empty: "Leeg", .allShown: "Alles zichtbaar", .percent: "%d procent",
        .cut: "Knip", .copy: "Kopieer", .paste: "Plak", .selectAll: "Selecteer alles",
        .editing: "%@ bewerken", .characters: "%d tekens", .screenReaderOn: "Schermlezer aan",
        .screenReaderOff: "Schermlezer uit", .nothingToGoBackTo: "Geen vorig scherm", .volumePercent: "Volume %d procent",
        .returnKey: "return", .done: "Gereed", .go: "Ga", .search: "Zoek", .next: "Volgende", .send: "Verstuur", .space: "spatie",
        .roleButton: "knop", .roleText: "tekst", .roleHeading: "kop", .roleImage: "afbeelding", .roleScrollArea: "scrollgebied",
        .rolePageControl: "paginaregelaar", .roleListRow: "lijstrij", .roleAdjustable: "aanpasbaar", .roleTextField: "tekstveld",
        .roleSwitch: "schakelaar", .roleProgress: "voortgangsindicator", .on: "aan", .off: "uit", .dimmed: "gedimd",
        .inProgress: "bezig", .selected: "geselecteerd",
        .decrease: "Verlaag", .increase: "Verhoog",
    ]

    private static let polish: [Word: String] = [
        .back: "Wstecz", .pageOf: "Strona %d z %d", .rowsOf: "Wiersze od %d do %d z %d", .itemsOf: "Elementy od %d do %d z %d",
        .empty: "Puste", .allShown: "Wszystko widoczne", .percent: "%d procent",
        .cut: "Wytnij", .copy: "Kopiuj", .paste: "Wklej", .selectAll: "Zaznacz wszystko",
        .editing: "Edycja: %@", .characters: "Znaki: %d", .screenReaderOn: "Czytnik ekranu włączony",
        .screenReaderOff: "Czytnik ekranu wyłączony", .nothingToGoBackTo: "Brak poprzedniego ekranu",
        .volumePercent: "Głośność %d procent",
        .returnKey: "enter", .done: "Gotowe", .go: "Idź", .search: "Szukaj", .next: "Dalej", .send: "Wyślij", .space: "spacja",
        .roleButton: "przycisk", .roleText: "tekst", .roleHeading: "nagłówek", .roleImage: "obrazek",
        .roleScrollArea: "obszar przewijania", .rolePageControl: "wskaźnik stron", .roleListRow: "wiersz listy",
        .roleAdjustable: "regulowany", .roleTextField: "pole tekstowe",
        .roleSwitch: "przełącznik", .roleProgress: "wskaźnik postępu", .on: "włączony", .off: "wyłączony",
        .dimmed: "przygaszony", .inProgress: "w toku", .selected: "zaznaczony",
        .decrease: "Zmniejsz", .increase: "Zwiększ",
    ]

    private static let russian: [Word: String] = [
        .back: "Назад", .pageOf: "Страница %d из %d", .rowsOf: "Строки с %d по %d из %d", .itemsOf: "Элементы с %d по %d из %d",
        .empty: "Пусто", .allShown: "Показано всё", .percent: "Процентов: %d",
        .cut: "Вырезать", .copy: "Скопировать", .paste: "Вставить", .selectAll: "Выбрать все",
        .editing: "Редактирование: %@", .characters: "Символов: %d", .screenReaderOn: "Чтение с экрана включено",
        .screenReaderOff: "Чтение с экрана выключено", .nothingToGoBackTo: "Нет предыдущего экрана",
        .volumePercent: "Громкость, процентов: %d",
        .returnKey: "ввод", .done: "Готово", .go: "Перейти", .search: "Поиск", .next: "Далее", .send: "Отправить",
        .space: "пробел",
        .roleButton: "кнопка", .roleText: "текст", .roleHeading: "заголовок", .roleImage: "изображение",
        .roleScrollArea: "область прокрутки", .rolePageControl: "индикатор страниц", .roleListRow: "строка списка",
        .roleAdjustable: "регулируемый", .roleTextField: "текстовое поле",
        .roleSwitch: "переключатель", .roleProgress: "индикатор выполнения", .on: "включено", .off: "выключено",
        .dimmed: "недоступно", .inProgress: "выполняется", .selected: "выбрано",
        .decrease: "Уменьшить", .increase: "Увеличить",
    ]

    private static let ukrainian: [Word: String] = [
        .back: "Назад", .pageOf: "Сторінка %d з %d", .rowsOf: "Рядки від %d до %d із %d",
        .itemsOf: "Елементи від %d до %d із %d",
        .empty: "Порожньо", .allShown: "Показано все", .percent: "Відсотків: %d",
        .cut: "Вирізати", .copy: "Скопіювати", .paste: "Вставити", .selectAll: "Вибрати все",
        .editing: "Редагування: %@", .characters: "Символів: %d", .screenReaderOn: "Читання з екрана ввімкнено",
        .screenReaderOff: "Читання з екрана вимкнено", .nothingToGoBackTo: "Немає попереднього екрана",
        .volumePercent: "Гучність, відсотків: %d",
        .returnKey: "ввід", .done: "Готово", .go: "Перейти", .search: "Пошук", .next: "Далі", .send: "Надіслати",
        .space: "пробіл",
        .roleButton: "кнопка", .roleText: "текст", .roleHeading: "заголовок", .roleImage: "зображення",
        .roleScrollArea: "область прокручування", .rolePageControl: "індикатор сторінок", .roleListRow: "рядок списку",
        .roleAdjustable: "регульований", .roleTextField: "текстове поле",
        .roleSwitch: "перемикач", .roleProgress: "індикатор виконання", .on: "увімкнено", .off: "вимкнено",
        .dimmed: "недоступно", .inProgress: "виконується", .selected: "вибрано",
        .decrease: "Зменшити", .increase: "Збільшити",
    ]

    private static let turkish: [Word: String] = [
        .back: "Geri", .pageOf: "Sayfa %d, toplam %d", .rowsOf: "Satır %d ile %d arası, toplam %d",
        .itemsOf: "Öğe %d ile %d arası, toplam %d",
        .empty: "Boş", .allShown: "Tümü gösteriliyor", .percent: "yüzde %d",
        .cut: "Kes", .copy: "Kopyala", .paste: "Yapıştır", .selectAll: "Tümünü seç",
        .editing: "%@ düzenleniyor", .characters: "%d karakter", .screenReaderOn: "Ekran okuyucu açık",
        .screenReaderOff: "Ekran okuyucu kapalı", .nothingToGoBackTo: "Önceki ekran yok", .volumePercent: "Ses düzeyi yüzde %d",
        .returnKey: "giriş", .done: "Bitti", .go: "Git", .search: "Ara", .next: "Sonraki", .send: "Gönder", .space: "boşluk",
        .roleButton: "düğme", .roleText: "metin", .roleHeading: "başlık", .roleImage: "görüntü", .roleScrollArea: "kaydırma alanı",
        .rolePageControl: "sayfa denetimi", .roleListRow: "liste satırı", .roleAdjustable: "ayarlanabilir",
        .roleTextField: "metin alanı",
        .roleSwitch: "anahtar", .roleProgress: "ilerleme göstergesi", .on: "açık", .off: "kapalı", .dimmed: "soluk",
        .inProgress: "devam ediyor", .selected: "seçili",
        .decrease: "Azalt", .increase: "Artır",
    ]

    private static let greek: [Word: String] = [
        .back: "Πίσω", .pageOf: "Σελίδα %d από %d", .rowsOf: "Γραμμές %d έως %d από %d", .itemsOf: "Στοιχεία %d έως %d από %d",
        .empty: "Κενό", .allShown: "Εμφανίζονται όλα", .percent: "%d τοις εκατό",
        .cut: "Αποκοπή", .copy: "Αντιγραφή", .paste: "Επικόλληση", .selectAll: "Επιλογή όλων",
        .editing: "Επεξεργασία: %@", .characters: "%d χαρακτήρες", .screenReaderOn: "Αναγνώστης οθόνης ενεργός",
        .screenReaderOff: "Αναγνώστης οθόνης ανενεργός", .nothingToGoBackTo: "Δεν υπάρχει προηγούμενη οθόνη",
        .volumePercent: "Ένταση %d τοις εκατό",
        .returnKey: "επιστροφή", .done: "Τέλος", .go: "Μετάβαση", .search: "Αναζήτηση", .next: "Επόμενο", .send: "Αποστολή",
        .space: "διάστημα",
        .roleButton: "κουμπί", .roleText: "κείμενο", .roleHeading: "επικεφαλίδα", .roleImage: "εικόνα",
        .roleScrollArea: "περιοχή κύλισης", .rolePageControl: "δείκτης σελίδας", .roleListRow: "γραμμή λίστας",
        .roleAdjustable: "ρυθμιζόμενο", .roleTextField: "πεδίο κειμένου",
        .roleSwitch: "διακόπτης", .roleProgress: "δείκτης προόδου", .on: "ενεργό", .off: "ανενεργό", .dimmed: "αχνό",
        .inProgress: "σε εξέλιξη", .selected: "επιλεγμένο",
        .decrease: "Μείωση", .increase: "Αύξηση",
    ]

    private static let persian: [Word: String] = [
        .back: "بازگشت", .pageOf: "صفحهٔ %d از %d", .rowsOf: "ردیف‌های %d تا %d از %d", .itemsOf: "موارد %d تا %d از %d",
        .empty: "خالی", .allShown: "همه نمایش داده شد", .percent: "%d درصد",
        .cut: "برش", .copy: "کپی", .paste: "جای‌گذاری", .selectAll: "انتخاب همه",
        .editing: "ویرایش %@", .characters: "%d نویسه", .screenReaderOn: "صفحه‌خوان روشن",
        .screenReaderOff: "صفحه‌خوان خاموش", .nothingToGoBackTo: "صفحهٔ قبلی وجود ندارد", .volumePercent: "میزان صدا %d درصد",
        .returnKey: "ورود", .done: "تمام", .go: "برو", .search: "جستجو", .next: "بعدی", .send: "ارسال", .space: "فاصله",
        .roleButton: "دکمه", .roleText: "متن", .roleHeading: "عنوان", .roleImage: "تصویر", .roleScrollArea: "ناحیهٔ پیمایش",
        .rolePageControl: "کنترل صفحه", .roleListRow: "ردیف فهرست", .roleAdjustable: "قابل تنظیم", .roleTextField: "فیلد متن",
        .roleSwitch: "کلید", .roleProgress: "نشانگر پیشرفت", .on: "روشن", .off: "خاموش", .dimmed: "غیرفعال",
        .inProgress: "در حال انجام", .selected: "انتخاب‌شده",
        .decrease: "کاهش", .increase: "افزایش",
    ]

    private static let tables: [String: [Word: String]] = [
        "en": english, "de": german, "fr": french, "ja": japanese, "ar": arabic, "he": hebrew,
        "es": spanish, "it": italian, "pt": portuguese, "nl": dutch, "pl": polish, "ru": russian, "uk": ukrainian,
        "tr": turkish, "el": greek, "fa": persian,
    ]
}
