#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Raster
import UI
import Video
@_spi(Hooks) import ViewCore
import Widgets

/// The manifest's clips: a card's clip in place of its picture, and the attract loop that covers
/// the catalog until the first touch and comes back after the idle reset.
extension CatalogApp {
    /// A card's clip (`"video"`), its picture the poster; a missing file is named in the
    /// warnings and on the card.
    func videoView(_ relative: String, poster: String?, place: String, id: String) -> View {
        let path = path(of: relative)
        if access(path, R_OK) != 0 { warnings.append("\(place): \(relative): no such file") }
        let video = VideoView(path, id: id, contentMode: .fill, loops: true, poster: poster.map(path(of:)), cornerRadius: 12)
        return video.accessibilityHidden()
    }

    /// With an attract loop the catalog lies under it, in a stack of layers.
    static func layers(over catalog: View) -> Box {
        let box = Box(id: "catalog-layers")
        box.add(catalog)
        return box
    }

    /// The attract loop over `layers` (the catalog beneath it): a touch anywhere lets the
    /// visitor in, and the idle reset brings the loop back from its start.
    static func addAttract(_ path: String, to layers: Box, in window: Window) {
        let video = VideoView(path, id: "attract-video", contentMode: .fill, loops: true)
        let hint = Label("Touch to start", id: "attract-hint", size: 28, color: .white)
        hint.padding = EdgeInsets(horizontal: 28, vertical: 14)
        hint.fill = Color(rgb: 0x000000).withOpacity(0.55)
        hint.cornerRadius = 16
        hint.isFixedSize = true
        let centred = Stack(.horizontal, children: [Spacer(), hint, Spacer()])
        let attract = Overlay(
            id: "attract", alignment: .bottom, inset: EdgeInsets(top: 0, leading: 0, bottom: 48, trailing: 0), children: [video, centred])
        attract.fill = .black
        func letIn() {
            guard !attract.isHidden else { return }
            attract.isHidden = true
            video.pause()
        }
        // At the touch's start, not its end: a visitor who swipes is let in too.
        attract.onTap = letIn
        attract.onDrag = { phase, _ in if phase == .began { letIn() } }
        attract.accessibilityLabel("Touch to start")
        layers.add(attract)
        window.onIdleReset = { [weak attract, weak video] in
            attract?.isHidden = false
            video?.seek(to: 0)
            video?.play()
            return false
        }
    }
}
