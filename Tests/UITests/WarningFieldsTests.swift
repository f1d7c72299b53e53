import Logging
import NIOConcurrencyHelpers
import Testing
@testable import UI

/// A warning about a view carries its id as a field of its own (the journal's GLIDE_VIEW), so
/// `journalctl GLIDE_VIEW=card-3` finds what a fleet's kiosks said about that view.
@Suite struct WarningFieldsTests {
    final class Collector: Sendable {
        let fields = NIOLockedValueBox<[Logger.Metadata]>([])
        struct Handler: LogHandler {
            let collector: Collector
            var metadata: Logger.Metadata = [:]
            var logLevel: Logger.Level = .info
            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }
            func log(event: LogEvent) { collector.fields.withLockedValue { $0.append(event.metadata ?? [:]) } }
        }
    }

    @Test func aWarningAboutAViewNamesItsID() throws {
        let collector = Collector()
        // A stack given no height shows none of its content: it is warned about.
        let squeezed = Stack(.vertical, id: "squeezed", children: [Label("hidden")])
        squeezed.height = 0
        let root = Stack(.vertical, children: [squeezed])
        let w = Window(width: 400, height: 100, scaleFactor: 1, typography: try makeTypography(), root: root)
        w.log = Logger(label: "test.window") { _ in Collector.Handler(collector: collector) }
        w.frames(from: 0, to: 0)
        let views = collector.fields.withLockedValue { $0 }.compactMap { $0["view"] }
        #expect(views.contains("squeezed"), "\(views)")
    }
}
