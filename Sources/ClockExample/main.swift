// The README's "Write your own kiosk app" example, built by CI (and compared with the README).
import GlideKit

/// Slow work off the loop: a network request, a file, a database.
func fetchGreeting() async -> String {
    try? await Task.sleep(for: .milliseconds(300))
    return "Welcome to the museum"
}

Kiosk.run { launch in  // launch.width, launch.height (pixels, rotation applied),
    // launch.scaleFactor, launch.typography
    let clock = Label("0:00", id: "clock", size: 40, alignment: .center)
    let greeting = Label("…", id: "greeting", size: 22, alignment: .center)
    let root = VStack(spacing: 16, padding: EdgeInsets(40)) {
        clock; greeting
    }
    let window = Window(
        width: launch.width, height: launch.height,
        scaleFactor: launch.scaleFactor, typography: launch.typography, root: root)
    var seconds = 0
    window.every(1.0) {  // repeating, on the loop's clock
        seconds += 1
        clock.text = "\(seconds / 60):\(seconds % 60 < 10 ? "0" : "")\(seconds % 60)"
    }
    window.after(10) { greeting.color = Color(rgb: 0x0A84FF) }  // one-shot

    // The handler runs on the loop and may touch views; only the String crosses threads.
    let greetings = window.channel { (text: String) in greeting.text = text }
    Task.detached { greetings.send(await fetchGreeting()) }
    return window
}
