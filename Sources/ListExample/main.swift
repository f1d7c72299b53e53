// The README's example app, built by CI so the README never shows code that does not compile.
import GlideKit

// A million rows; only those on screen (and a small margin) exist at any time.
let rows = LazyVStack(count: 1_000_000, spacing: 1) { i in
    Label("Row \(i)", id: "row-\(i)", size: 20)
        .background(.white)
        .frame(height: 56)
        .onTap { print("tapped row \(i)") }
}
let list = ScrollView(id: "list", content: rows)
let window = Window(width: 800, height: 480, typography: try Kiosk.typography(), root: list)

// Flick the list, then tap the row that comes to rest under the finger.
let script = try InputScript.parse(
    """
    {"t":0,"touch":"down","id":0,"x":400,"y":400}
    {"t":16,"touch":"move","id":0,"x":400,"y":350}
    {"t":32,"touch":"move","id":0,"x":400,"y":300}
    {"t":48,"touch":"move","id":0,"x":400,"y":250}
    {"t":50,"touch":"up","id":0}
    {"t":5000,"touch":"down","id":0,"x":400,"y":100}
    {"t":5060,"touch":"up","id":0}
    """)
let result = try Kiosk.runHeadless(window, script: script)
print(result.state)
