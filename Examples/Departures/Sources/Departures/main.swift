// A departures board: a live clock (a timer), a list that gains a departure at the top every
// few seconds without moving what the reader is looking at (POS-3), and a second page with the
// line's details, under a page control. `Departures board` runs it on a kiosk's display,
// `Departures run --backend headless --script S --out DIR` renders it on a virtual clock.
import GlideKit
#if canImport(Glibc)
import Glibc
#endif

let ink = Color(rgb: 0xFFC83D)  // amber on a dark board
let dim = Color(rgb: 0x8A93A6)
let board = Color(rgb: 0x0E1524)
let rowFill = Color(rgb: 0x17203A)

struct Departure {
    var minutes: Int  // minutes after midnight
    var destination: String
    var platform: String
    var note: String
}

/// Seconds since midnight: local time on a board; a fixed 09:41:00 headless, so a script gives
/// the same pixels on every machine. `DEPARTURES_TIME=HH:MM:SS` fixes it on a board too (a
/// demo, or the virtual board comparing its frame with the headless one).
func startOfDay(headless: Bool) -> Int {
    if let fixed = getenv("DEPARTURES_TIME").map({ String(cString: $0) }) {
        let parts = fixed.split(separator: ":").compactMap { Int($0) }
        if parts.count == 3, (0..<24).contains(parts[0]), (0..<60).contains(parts[1]), (0..<60).contains(parts[2]) {
            return parts[0] * 3600 + parts[1] * 60 + parts[2]
        }
        report("DEPARTURES_TIME must be HH:MM:SS, not '\(fixed)'; ignored")
    }
    if headless { return 9 * 3600 + 41 * 60 }
    var now = time(nil)
    var parts = tm()
    localtime_r(&now, &parts)
    return Int(parts.tm_hour) * 3600 + Int(parts.tm_min) * 60 + Int(parts.tm_sec)
}

func clockText(_ seconds: Int) -> String {
    let s = seconds % 86_400
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return "\(two(s / 3600)):\(two(s / 60 % 60)):\(two(s % 60))"
}

/// The timetable the board cycles through: destination, platform, note.
let timetable: [(String, String, String)] = [
    ("Zürich HB", "4", "On time"), ("Basel SBB", "7", "On time"), ("Genève-Aéroport", "2", "+3 min"),
    ("Luzern", "12", "On time"), ("Chur", "9", "On time"), ("Bern", "3", "Platform change"),
    ("Lugano", "8", "+5 min"), ("St. Gallen", "5", "On time"), ("Interlaken Ost", "11", "On time"),
    ("Schaffhausen", "6", "Cancelled"), ("Winterthur", "1", "On time"), ("Olten", "10", "+1 min"),
]

func departure(_ n: Int, after start: Int) -> Departure {
    let (destination, platform, note) = timetable[n % timetable.count]
    return Departure(minutes: start / 60 + 2 + n * 4, destination: destination, platform: platform, note: note)
}

func row(_ d: Departure, id: String) -> View {
    let time = Label(clockText(d.minutes * 60).dropLast(3).description, size: 26, color: ink, maxLines: 1)
        .frame(width: 84)
    let place = VStack(spacing: 2) {
        Label(d.destination, size: 22, color: .white, maxLines: 1)
        Label(d.note, size: 15, color: d.note == "On time" ? dim : Color(rgb: 0xFF7A6B), maxLines: 1)
    }
    let platform = Label(d.platform, size: 26, color: ink, alignment: .trailing, maxLines: 1).frame(width: 48)
    let line = HStack(id: id, spacing: 12, padding: EdgeInsets(horizontal: 16, vertical: 10)) {
        time; place; platform
    }
    line.background(rowFill, cornerRadius: 10)
    return line
}

Kiosk.run { launch in
    let start = startOfDay(headless: launch.isHeadless)
    let clock = Label(clockText(start), id: "clock", size: 30, color: ink, alignment: .trailing, maxLines: 1)
    let header = HStack(id: "header", spacing: 12, padding: EdgeInsets(horizontal: 20, vertical: 12)) {
        Label("Departures", size: 30, color: .white, maxLines: 1)
        Spacer()
        clock.frame(width: 150)
    }
    header.background(Color(rgb: 0x1B2A4A))

    var made = 0
    func nextRow() -> View {
        defer { made += 1 }
        return row(departure(made, after: start), id: "dep-\(made)")
    }
    let rows = VStack(id: "rows", spacing: 8, padding: EdgeInsets(12)) {
        for _ in 0..<10 { nextRow() }
    }
    let list = ScrollView(id: "departures", axes: .vertical, content: rows)

    let detail = VStack(id: "detail", spacing: 14, padding: EdgeInsets(24)) {
        Label("About this board", size: 28, color: .white)
        Label(
            "Trains leave every few minutes. New departures appear at the top of the list; what you are reading stays where it is.",
            size: 18, color: dim)
        Label("Swipe back to the departures, or tap the dots below.", size: 18, color: dim)
    }
    var paging = ScrollConfiguration()
    paging.isPagingEnabled = true
    let pager = ScrollView(
        id: "pager", axes: .horizontal, configuration: paging,
        content: Stack(.horizontal, id: "pages", children: [list, detail]))
    pager.sizesPagesToViewport = true
    let dots = PageControl(id: "pager-dots", scrollView: pager, backgroundStyle: .prominent)
    let body = Overlay(
        id: "body", alignment: UnitPoint(x: 0.5, y: 1), inset: EdgeInsets(bottom: 10),
        children: [pager, dots])

    let root = VStack(id: "root") {
        header; body.flexible()
    }
    root.background(board)
    let window = Window(
        width: launch.width, height: launch.height, scaleFactor: launch.scaleFactor,
        typography: launch.typography, root: root)
    window.background = board

    // The clock ticks on the loop's clock: exact virtual seconds headless. `DEPARTURES_CLOCK=off`
    // stops it (the check compares motion with and without it).
    var elapsed = 0
    if getenv("DEPARTURES_CLOCK").map({ String(cString: $0) }) != "off" {
        window.every(1) {
            elapsed += 1
            clock.text = clockText(start + elapsed)
        }
    }
    // A new departure at the top every 5 s; the row being read keeps its place.
    window.every(5) { rows.insert(nextRow(), at: 0) }
    return window
}
