import AppContract
import Geometry
import Testing
@testable import UI
import ViewCore
import Widgets

/// The app's font chain (`Typography.fontChain`, the board's `fonts = ...`): a brand's face put
/// first draws the text, laid out again at once; a chain that cannot draw is refused.
@Suite struct FontChainTests {
    @Test func aBrandFaceFirstDrawsTheTextAndTheWindowFollows() throws {
        let label = Label("Departures 12:40", id: "board", size: 20)
        let w = try makeWindow(Stack(.vertical, padding: EdgeInsets(10), children: [label]), width: 400, height: 100)
        w.frames(from: 0, to: 0.05)
        let regular = try #require(label.textBounds).width
        let folder = w.typography.library.directory
        let before = w.typography.fontChain
        // DejaVu Sans Bold stands in for a brand's face: wider letters, the same lines.
        w.typography.fontChain = [folder + "/DejaVuSans-Bold.ttf"] + before
        #expect(w.needsLayout)
        w.frames(from: 0.1, to: 0.15)
        let branded = try #require(label.textBounds).width
        #expect(branded > regular * 1.05, "\(branded) against \(regular)")
        // A chain with nothing that draws text is refused; the brand face stays.
        w.typography.fontChain = ["missing.ttf", "/nowhere/either.ttf"]
        #expect(w.typography.fontChain == [folder + "/DejaVuSans-Bold.ttf"] + before)
        // The config's way, through the window's settings.
        var settings = AppSettings()
        settings.fonts = before
        w.apply(settings)
        w.frames(from: 0.2, to: 0.25)
        #expect(try #require(label.textBounds).width == regular)
    }
}
