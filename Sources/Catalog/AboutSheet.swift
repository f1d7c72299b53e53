import Controls
import Geometry
import Localization
import Glibc
import Observation
@_spi(Hooks) import ViewCore
import Widgets

/// Whether the About sheet shows: state a binding follows.
@Observable package final class AboutModel {
    package var isShown = false
}

extension CatalogApp {
    /// The sidebar's About button and the sheet it opens: the manifest's logo (an SVG in the
    /// shipped content, drawn crisp at the panel's scale), the title, and what Glide is.
    /// The logo is decoded when the sheet first opens, not at start (librsvg's load and first
    /// render would delay the first frame); a logo that is not there is reported at start.
    func makeAbout(manifest: Manifest) -> Button {
        if let logo = manifest.logo, access(path(of: logo), R_OK) != 0 {
            warnings.append("logo: \(logo): \(String(cString: strerror(errno)))")
        }
        root.sheet(id: "about", isPresented: Binding(about, \.isShown)) { [unowned self] in aboutContent(manifest) }
        return Button("About", id: "about-button", icon: Icon("info"), style: .plain) { [unowned self] in
            about.isShown = true
        }
    }

    private func aboutContent(_ manifest: Manifest) -> View {
        var rows: [View] = []
        if manifest.logo != nil {
            rows.append(imageView(manifest.logo, place: "logo", id: "about-logo", label: "Logo", width: 128, height: 128, mode: .fit))
        }
        rows.append(Label(LocalizedStringKey(manifest.title), id: "about-title", alignment: .center).font(.title2).bold())
        rows.append(
            Label(
                "Glide — touch scrolling for kiosks. Every pixel drawn by Glide's own rasteriser, shown through DRM/KMS.",
                color: Self.tertiaryInk, alignment: .center
            ).font(.subheadline))
        rows.append(Button("Close", id: "about-close") { [unowned self] in about.isShown = false })
        return Stack(
            .vertical, spacing: 14, padding: EdgeInsets(top: 8, leading: 28, bottom: 28, trailing: 28), alignment: .center, children: rows)
    }

    /// The manifest's string catalog, in the window before its screens are built; one that
    /// cannot be read is a warning, and the words show as written.
    func loadStrings(_ manifest: Manifest) {
        guard let file = manifest.strings else { return }
        do {
            window.stringCatalog = try StringCatalog(contentsOf: path(of: file))
        } catch {
            warnings.append("strings: \(error)")
        }
    }

    /// `relative` as a path: relative to the manifest's folder unless absolute.
    func path(of relative: String) -> String {
        relative.hasPrefix("/") ? relative : manifestDirectory + "/" + relative
    }
}
