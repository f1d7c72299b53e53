import ImageCodecs
import Raster
import AppContract
import Text
import UI
#if canImport(Glibc)
import Glibc
#endif

/// Builds the apps `glide` can run, by name, for any backend.
package enum AppFactory {
    package static let names = ["catalog", "gallery", "list", "order"]

    package struct Error: Swift.Error, CustomStringConvertible {
        package var description: String
    }

    /// Finds the shipped catalog manifest: `$GLIDE_CONTENT/manifest.json`, else
    /// `Board/content/manifest.json` walking up from the executable.
    package static func defaultManifestPath() throws(Error) -> String {
        if let env = getenv("GLIDE_CONTENT") { return String(cString: env) + "/manifest.json" }
        var dir = executablePath() ?? "."
        var searched: [String] = []
        while let slash = dir.lastIndex(of: "/") {
            dir = String(dir[..<slash])
            let candidate = dir + "/Board/content/manifest.json"
            searched.append(candidate)
            if access(candidate, R_OK) == 0 { return candidate }
        }
        throw Error(
            description: "no content manifest found (set GLIDE_CONTENT or pass --manifest); looked at \(searched.joined(separator: ", "))")
    }

    /// Loads the fonts shipped with Glide (`$GLIDE_FONTS`, or `Fonts/` above the executable).
    package static func typography() throws -> Typography {
        let places = FontSearchPlaces.forExecutable()
        return try Typography(
            fontsDirectory: FontLibrary.locateFontsDirectory(
                glideFonts: places.glideFonts, searchingUpFrom: places.startingPoints, warn: { report($0, level: .warning) }))
    }

    /// The catalog from a manifest file; a manifest that cannot be read or parsed becomes a
    /// screen that says what is wrong, so a kiosk never shows nothing.
    package static func catalog(
        manifestPath: String, width: Int, height: Int, scaleFactor: Double,
        typography: Typography
    ) -> (app: CatalogApp?, window: Window, problems: [String]) {
        let directory = manifestPath.contains("/") ? String(manifestPath[..<manifestPath.lastIndex(of: "/")!]) : "."
        do {
            let bytes = try FileIO.readAll(path: manifestPath, limit: FileIO.maxManifestBytes)
            let manifest = try Manifest.parse(bytes, path: manifestPath)
            let app = CatalogApp(
                manifest: manifest, manifestDirectory: directory, width: width, height: height,
                scaleFactor: scaleFactor, typography: typography)
            return (app, app.window, app.warnings)
        } catch {
            let message = "\(error)"
            let root = CatalogApp.errorView("The content could not be loaded\n\n\(message)")
            return (nil, Window(width: width, height: height, scaleFactor: scaleFactor, typography: typography, root: root), [message])
        }
    }

    /// Two-line rows (10,000 unless told), built as they come into view: a list of any length
    /// costs what its visible rows cost.
    package static func list(
        width: Int, height: Int, scaleFactor: Double, typography: Typography,
        rows count: Int = defaultRows
    ) -> Window {
        let total = max(0, count)
        let rows = LazyVStack(id: "rows", count: total, spacing: 1) { listRow($0, of: total) }
        return Window(
            width: width, height: height, scaleFactor: scaleFactor, typography: typography,
            root: ScrollView(id: "list", content: rows))
    }

    package static let defaultRows = 10_000

    /// Row `i` of the list app: a title and a subtitle on white, focusable.
    package static func listRow(_ i: Int, of total: Int) -> View {
        let row = Stack(.vertical, id: "row-\(i)", spacing: 2, padding: EdgeInsets(horizontal: 20, vertical: 10))
        row.setChildren([
            Label("Item \(i + 1)", size: 20, maxLines: 1),
            Label("Row \(i + 1) of \(total)", size: 14, color: .secondaryText, maxLines: 1),
        ])
        row.fill = .surface
        row.isFocusable = true
        return row
    }
}

/// The app called `name` ("catalog" with the shipped or `$GLIDE_CONTENT` manifest, "gallery", "list" or "order") at
/// `width`×`height` pixels and `scaleFactor`, for any backend. Catalog content problems are
/// passed to `report`; the app still shows what it can.
package func makeApp(
    name: String, width: Int, height: Int, scaleFactor: Double = 1, manifestPath: String? = nil,
    rows: Int = AppFactory.defaultRows, report: (String) -> Void = { _ in }
) throws -> App {
    try AppFactory.window(
        named: name, width: width, height: height, scaleFactor: scaleFactor,
        manifestPath: manifestPath, rows: rows, report: report
    ).window
}

extension AppFactory {
    /// The window of the app called `name`, and the catalog controller when it is the catalog
    /// (its tour needs it).
    package static func window(
        named name: String, width: Int, height: Int, scaleFactor: Double, manifestPath: String?,
        rows: Int = defaultRows, report: (String) -> Void
    ) throws -> (window: Window, catalog: CatalogApp?) {
        let typography = try typography()
        switch name {
        case "catalog":
            let path = try manifestPath ?? defaultManifestPath()
            let built = catalog(manifestPath: path, width: width, height: height, scaleFactor: scaleFactor, typography: typography)
            built.problems.forEach(report)
            return (built.window, built.app)
        case "list":
            return (list(width: width, height: height, scaleFactor: scaleFactor, typography: typography, rows: rows), nil)
        case "order":
            return (OrderApp.window(width: width, height: height, scaleFactor: scaleFactor, typography: typography), nil)
        case "gallery":
            return (GalleryApp.window(width: width, height: height, scaleFactor: scaleFactor, typography: typography), nil)
        default:
            throw Error(description: "unknown app '\(name)' (\(names.joined(separator: ", ")))")
        }
    }
}
