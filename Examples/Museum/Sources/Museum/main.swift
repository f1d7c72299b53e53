// A museum guide: a header with a live clock over a list of 500 exhibits; a tap pushes the
// exhibit's page (a paging photo carousel under a page control, its text, and a ring showing
// how much of its audio tour was heard), and the back button or a swipe from the left edge
// returns to the list where it was. `Museum board` runs it on a kiosk, `Museum run --backend
// headless --script S --out DIR` on a virtual clock. Pictures are read from `Photos/`, relative
// to the working directory.
import GlideKit
#if canImport(Glibc)
import Glibc
#endif

// The museum's colours are its light theme (below); the views draw with the theme's roles, so
// the dark theme and high contrast change every one of them.
let terracotta = Color(rgb: 0xB5542B)

/// The museum's look: its paper, ink and terracotta in the light theme, a lighter terracotta on
/// the dark one's near-black.
func brand(_ window: Window) {
    window.lightTheme.background = Color(rgb: 0xF6F1E9)  // paper
    window.lightTheme.primaryText = Color(rgb: 0x1C1C1E)
    window.lightTheme.secondaryText = Color(rgb: 0x6B6B70)
    window.lightTheme.separator = Color(rgb: 0xE4DDD2)
    window.lightTheme.accent = terracotta
    window.darkTheme.accent = Color(rgb: 0xE0845C)
}

let rooms = ["Antiquities", "Medieval", "Renaissance", "Baroque", "Modern", "Photography", "Design"]
let works = [
    "Amphora with Dancers", "Bronze Mirror", "Book of Hours", "Portrait of a Merchant",
    "Still Life with Lemons", "The Harbour at Dawn", "Chair No. 14", "Untitled (Blue)",
    "Tapestry of the Seasons", "Astrolabe", "Lacquered Cabinet", "Study of Hands",
]
let photos = (0..<5).map { "Photos/photo-\($0).png" }

func title(_ i: Int) -> String { works[i % works.count] }
func room(_ i: Int) -> String { rooms[i * 5 % rooms.count] }
/// How much of the exhibit's audio tour the visitor heard, 0...1.
func heard(_ i: Int) -> Double { Double(i * 37 % 101) / 100 }

/// A ring that fills clockwise from 12 o'clock, with the percentage in the middle.
final class ProgressRing: View {
    var progress: Double { didSet { setNeedsDisplay(); label.text = percent } }
    let lineWidth: Double
    private let label: Label
    private var percent: String { "\(Int((progress * 100).rounded()))%" }

    init(progress: Double, diameter: Double, lineWidth: Double = 5) {
        self.progress = max(0, min(1, progress))
        self.lineWidth = lineWidth
        label = Label("", size: diameter * 0.25, alignment: .center, maxLines: 1)
        super.init()
        label.text = percent
        label.contentAlignment = .center
        add(label)
        frame(width: diameter, height: diameter)
    }

    override func draw(in context: inout DrawContext) {
        let c = Point(x: frame.width / 2, y: frame.height / 2)
        let r = (min(frame.width, frame.height) - lineWidth) / 2
        var track = Path()
        track.addCircle(center: c, radius: r)
        context.stroke(track, lineWidth: lineWidth, color: .separator)
        guard progress > 0 else { return }
        var arc = Path()
        arc.addArc(center: c, radius: r, startAngle: -.pi / 2, endAngle: -.pi / 2 + 2 * .pi * progress)
        context.stroke(arc, lineWidth: lineWidth, color: .accent, roundCaps: true)
    }
}

/// Seconds since midnight: local time on a board, 10:00:00 headless (the same pixels on every
/// machine); `MUSEUM_CLOCK=off` stops it, for photographs of the screen and for checking that
/// a ticking clock changes no motion.
func startOfDay(headless: Bool) -> Int {
    if headless { return 10 * 3600 }
    var now = time(nil)
    var parts = tm()
    localtime_r(&now, &parts)
    return Int(parts.tm_hour) * 3600 + Int(parts.tm_min) * 60 + Int(parts.tm_sec)
}

func clockText(_ s: Int) -> String {
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return "\(two(s / 3600 % 24)):\(two(s / 60 % 60)):\(two(s % 60))"
}

func exhibitRow(_ i: Int, open: @escaping (Int) -> Void) -> View {
    HStack(id: "exhibit-\(i)", spacing: 14) {
        ProgressRing(progress: heard(i), diameter: 44)
        VStack(spacing: 2) {
            Label(title(i), size: 19, maxLines: 1)
            Label("No. \(i + 1) · \(room(i))", size: 14, color: .secondaryText, maxLines: 1)
        }
    }
    .padding(.horizontal, 16).padding(.vertical, 10)
    .background(.surface)
    .focusable()  // the keypad opens an exhibit too (`glide audit`'s keypad rule)
    .onTap { open(i) }
}

func exhibitPage(_ i: Int) -> View {
    var paging = ScrollConfiguration()
    paging.isPagingEnabled = true
    let carousel = ScrollView(id: "photos", axes: .horizontal, configuration: paging) {
        for k in 0..<photos.count {
            ImageView(source: photos[(i + k) % photos.count], contentMode: .fill)
                .accessibilityLabel("\(title(i)), photograph \(k + 1) of \(photos.count)")
        }
    }
    carousel.sizesPagesToViewport = true
    let dots = PageControl(id: "photo-dots", scrollView: carousel, backgroundStyle: .prominent)
    let gallery = Overlay(id: "gallery", alignment: .bottom, inset: EdgeInsets(bottom: 8), children: [carousel, dots])
        .frame(height: 260)
    return ScrollView(id: "exhibit-page") {
        VStack(id: "exhibit-\(i)-page", spacing: 16) {
            gallery
            VStack(spacing: 6) {
                Label(title(i), size: 26)
                Label("Room: \(room(i)) · Object no. \(1000 + i)", size: 15, color: .secondaryText)
                Label(
                    "Swipe the photographs to see the object from every side. The audio guide tells "
                        + "its story in four minutes; the ring shows how much of it you have heard.",
                    size: 17)
            }.padding(.horizontal, 20)
            HStack(spacing: 16) {
                ProgressRing(progress: heard(i), diameter: 84, lineWidth: 9)
                Label("of the audio tour heard", size: 17, color: .secondaryText).frame(height: 84, alignment: .leading)
            }.padding(.horizontal, 20).padding(.bottom, 24)
        }
    }.background(.background)
}

Kiosk.run { launch in
    let start = startOfDay(headless: launch.isHeadless)
    let ticking = getenv("MUSEUM_CLOCK").map { String(cString: $0) } != "off"
    let clock = Label(clockText(start), id: "clock", size: 22, color: .white, alignment: .trailing, maxLines: 1)
    let header = HStack(id: "header", spacing: 12) {
        Label("City Museum", size: 24, color: .white, maxLines: 1)
        Spacer()
        clock.frame(width: 110)
    }.padding(.horizontal, 20).padding(.vertical, 12).background(terracotta)

    var guide: NavigationStack!
    let list = ScrollView(id: "exhibits") {
        LazyVStack(count: 500, spacing: 1) { i in
            exhibitRow(i) { guide.push(exhibitPage($0), title: title($0)) }
        }
    }.background(.separator)
    guide = NavigationStack(id: "guide", root: list, title: "Exhibits")

    let window = Window(
        width: launch.width, height: launch.height, scaleFactor: launch.scaleFactor,
        typography: launch.typography,
        root: VStack {
            header; guide
        })
    brand(window)
    var elapsed = 0
    if ticking {
        window.every(1) {
            elapsed += 1
            clock.text = clockText(start + elapsed)
        }
    }
    return window
}
