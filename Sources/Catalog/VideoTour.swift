import AppContract
import Geometry
import UI

/// The clips' screenshot tour (`glide demo` runs it last, on `Board/content/video.json`): the
/// attract loop at two times, the first touch that lets the visitor in, the feed scrolled while
/// its cards play, and the feed at rest with the clips going on. Every frame is the clips' at
/// that virtual time, so the tour's screenshots are the same on every machine.
package enum VideoTour {
    /// The manifest beside the shipped catalog's that has the clips.
    package static let manifestName = "video.json"

    package static func script(for window: Window) -> InputScript {
        var b = ScriptBuilder(scale: window.scaleFactor)
        window.layoutIfNeeded()
        let size = window.sizeInPoints
        b.wait(500); b.shot("video-01-attract")
        b.wait(1000); b.shot("video-02-attract-later")
        b.tap(Point(x: size.width / 2, y: size.height / 2))
        b.wait(900); b.shot("video-03-feed")
        if let feed = window.root.view(withID: "clips")?.frameInWindow {
            b.swipe(from: Point(x: feed.midX, y: feed.maxY - 80), to: Point(x: feed.midX, y: feed.maxY - 260), ms: 150)
            b.wait(120); b.shot("video-04-scrolling")
        }
        b.wait(1500); b.shot("video-05-rest")
        return InputScript(entries: b.entries)
    }
}
