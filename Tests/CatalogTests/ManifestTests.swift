#if canImport(Glibc)
import Glibc
#endif
import Catalog
import Geometry
import ImageCodecs
import Raster
import Runtime
import TestSupport
import Testing
import Text
import UI

/// The repository root (above `Tests/`).
let repositoryRoot = String(testsDirectory[..<testsDirectory.lastIndex(of: "/")!])
let shippedManifestPath = repositoryRoot + "/Board/content/manifest.json"

func shippedManifestText() throws -> String {
    String(decoding: try FileIO.readAll(path: shippedManifestPath), as: UTF8.self)
}

func typography() throws -> Typography {
    try Typography(fontsDirectory: FontLibrary.locateFontsDirectory(near: #filePath))
}

/// A fresh folder under /tmp for a test's manifest.
func temporaryDirectory(_ name: String) -> String {
    let dir = "/tmp/glide-catalog-tests-\(getpid())-\(name)"
    _ = mkdir(dir, 0o755)
    return dir
}

/// Writes `text` as `manifest.json` in a temporary folder whose `images` and string catalog link
/// to the shipped ones.
func writeManifest(_ text: String, name: String) throws -> String {
    let dir = temporaryDirectory(name)
    for shipped in ["images", "Localizable.xcstrings"] {
        _ = unlink(dir + "/" + shipped)
        _ = symlink(repositoryRoot + "/Board/content/" + shipped, dir + "/" + shipped)
    }
    try FileIO.writeAll(Array(text.utf8), path: dir + "/manifest.json")
    return dir + "/manifest.json"
}

/// The error that stops the whole manifest, or else the first screen that was skipped.
func parseError(_ text: String) -> ManifestError? {
    do {
        return try Manifest.parse(Array(text.utf8), path: "m.json").skippedScreens.first
    } catch {
        return error
    }
}

/// Replaces the first occurrence of `target` in `text` (the test fails if it is missing).
func replacing(
    _ text: String, _ target: String, with replacement: String,
    sourceLocation: SourceLocation = #_sourceLocation
) -> String {
    guard let r = text.range(of: target) else {
        Issue.record("\"\(target)\" is not in the manifest", sourceLocation: sourceLocation)
        return text
    }
    return text.replacingCharacters(in: r, with: replacement)
}

extension String {
    func range(of s: String) -> Range<String.Index>? {
        var i = startIndex
        while i < endIndex {
            if self[i...].hasPrefix(s) { return i..<index(i, offsetBy: s.count) }
            i = index(after: i)
        }
        return nil
    }
    func replacingCharacters(in r: Range<String.Index>, with s: String) -> String {
        String(self[..<r.lowerBound]) + s + String(self[r.upperBound...])
    }
}

@Suite struct ManifestTests {
    @Test func theShippedManifestParses() throws {
        let m = try Manifest.parse(FileIO.readAll(path: shippedManifestPath), path: shippedManifestPath)
        #expect(m.title == "Glide Catalog")
        #expect(m.screens.map(\.kind) == [.feed, .photo, .article, .article, .pages, .search, .article])
        #expect(m.screens.map(\.id) == ["feed", "photo", "article-en", "article-ja", "pages", "search", "article-ar"])
        #expect(m.screens[0].cards?.count == 9)
        #expect(m.screens[0].carousel?.count == 6)
        #expect(m.screens[4].count == 36)
        #expect(m.screens[1].maxScale == 4 && m.screens[1].doubleTapScale == 2.5)
        // Every image it names exists and decodes.
        var images = m.screens.compactMap(\.image) + (m.screens[0].carousel ?? [])
        images += (m.screens[0].cards ?? []).compactMap(\.image)
        for path in Set(images) {
            let image = try Image.read(path: repositoryRoot + "/Board/content/" + path)
            #expect(image.width > 0 && image.height > 0)
        }
    }

    @Test func syntaxErrorsSayWhatTheParserSaid() throws {
        let text = try shippedManifestText()
        let broken = replacing(text, "\"kind\": \"photo\",", with: "\"kind\": \"photo\",,")
        let error = try #require(parseError(broken))
        #expect(error.path == "m.json")
        #expect(error.description.hasPrefix("m.json: "))
        #expect(!error.message.isEmpty)
        #expect(parseError("") != nil)
        #expect(parseError("[]") != nil)
        #expect(parseError("{\"title\": \"x\"}")?.place == "screens")
    }

    @Test func unknownKeysAreNamedWithTheirPlace() throws {
        let text = try shippedManifestText()
        let typo = replacing(text, "\"minScale\": 1,", with: "\"minScael\": 1,")
        let error = try #require(parseError(typo))
        #expect(error.place == "screens[1].minScael")
        #expect(error.message.contains("unknown key"))
        let cardTypo = replacing(text, "{\"id\": \"card-2\", \"title\"", with: "{\"id\": \"card-2\", \"titel\": \"x\", \"title\"")
        #expect(parseError(cardTypo)?.place == "screens[0].cards[2].titel")
        #expect(
            parseError(replacing(text, "\"title\": \"Glide Catalog\",", with: "\"title\": \"Glide Catalog\", \"theme\": 1,"))?.place
                == "theme")
    }

    /// An article of more text than a screen is read for (2,000,000 words took 1 GB) is
    /// refused by place, and the other screens still work.
    @Test func anOverlongArticleIsRefusedByPlace() throws {
        let text = try shippedManifestText()
        let words = String(repeating: "word ", count: Manifest.Screen.maximumArticleBytes / 5 + 1)
        let long = replacing(text, "\"paragraphs\": [", with: "\"paragraphs\": [\"\(words)\", ")
        let e = try #require(parseError(long))
        #expect(e.place == "screens[2].paragraphs")
        #expect(e.message.contains("at most 262144 bytes"))
        #expect(try Manifest.parse(Array(long.utf8), path: "m.json").screens.count >= 3)
    }

    @Test func wrongTypesAndMissingKeysAreNamed() throws {
        let text = try shippedManifestText()
        let wrong = replacing(text, "\"count\": 36,", with: "\"count\": \"many\",")
        let e1 = try #require(parseError(wrong))
        #expect(e1.place == "screens[4].count")
        #expect(e1.message.contains("expected"))
        let range = replacing(text, "\"count\": 36,", with: "\"count\": 0,")
        #expect(parseError(range)?.place == "screens[4].count")
        let scale = replacing(text, "\"maxScale\": 4,", with: "\"maxScale\": -4,")
        #expect(parseError(scale)?.place == "screens[1].maxScale")
        let noImage = replacing(text, "\"image\": \"images/zoom.png\",", with: "")
        let e2 = try #require(parseError(noImage))
        #expect(e2.place == "screens[1].image")
        #expect(e2.message.contains("photo screen needs"))
        let kind = replacing(text, "\"kind\": \"pages\"", with: "\"kind\": \"slides\"")
        #expect(parseError(kind)?.place == "screens[4].kind")
        let card = replacing(text, "{\"id\": \"card-0\", \"title\": \"Evening at the lake\",", with: "{\"id\": \"card-0\",")
        #expect(parseError(card)?.place == "screens[0].cards[0].title")
    }

    @Test func aMissingImageIsReportedByPlaceAndShownAsAPlaceholder() throws {
        let text = try shippedManifestText()
        let missing = replacing(text, "\"image\": \"images/zoom.png\"", with: "\"image\": \"images/nowhere.png\"")
        let card = replacing(missing, "\"image\": \"images/card-2.png\"", with: "\"image\": \"images/gone.png\"")
        let path = try writeManifest(card, name: "missing")
        let built = AppFactory.catalog(manifestPath: path, width: 1024, height: 700, scaleFactor: 1, typography: try typography())
        let app = try #require(built.app)
        #expect(built.problems.count == 2)
        #expect(built.problems.contains { $0.hasPrefix("screens[1].image: images/nowhere.png") })
        #expect(built.problems.contains { $0.hasPrefix("screens[0].cards[2].image: images/gone.png") })
        // The rest still loads; the placeholders say what is missing.
        app.select(1)
        app.window.layoutIfNeeded()
        let placeholder = try #require(app.window.root.view(withID: "photo-image"))
        #expect(!(placeholder is ImageView))
        #expect(labels(in: placeholder).contains { $0.text.contains("missing image") && $0.text.contains("nowhere.png") })
        #expect(app.window.root.view(withID: "photo-0") is ImageView)
        let frame = PixelBuffer(width: 1024, height: 700)
        _ = app.window.render(into: frame, at: 0)
    }

    @Test func aBadScreenBecomesAnErrorTabAndTheOthersWork() throws {
        let text = try shippedManifestText()
        var bad = replacing(text, "\"count\": 36,", with: "\"count\": \"many\",")
        bad = replacing(bad, "\"maxScale\": 4,", with: "\"maxScale\": -4,")
        let path = try writeManifest(bad, name: "bad-screens")
        let built = AppFactory.catalog(manifestPath: path, width: 800, height: 600, scaleFactor: 1, typography: try typography())
        let app = try #require(built.app)
        #expect(built.problems.count == 2)
        #expect(built.problems.contains { $0.contains("manifest.json: screens[1].maxScale") }, "\(built.problems)")
        #expect(built.problems.contains { $0.contains("screens[4].count") })
        // The good screens are there in order, then one error tab per bad screen.
        for id in ["tab-feed", "tab-article-en", "tab-article-ja", "tab-content-error-0", "tab-content-error-1"] {
            #expect(app.window.root.view(withID: id) != nil, "\(id)")
        }
        #expect(app.window.root.view(withID: "tab-photo") == nil && app.window.root.view(withID: "tab-pages") == nil)
        app.select(3)
        app.window.layoutIfNeeded()
        let message = try #require(app.window.root.view(withID: "error-message") as? Label)
        #expect(message.text.contains("screens[1].maxScale"))
        _ = app.window.render(into: PixelBuffer(width: 800, height: 600), at: 0)
        // A wrong background style and a repeated id are errors of their screen too.
        #expect(
            parseError(replacing(text, "\"background\": \"prominent\"", with: "\"background\": \"loud\""))?.place
                == "screens[4].background")
        let twice = replacing(text, "\"id\": \"article-ja\"", with: "\"id\": \"article-en\"")
        #expect(parseError(twice)?.place == "screens[3].id")
        #expect(parseError(twice)?.message.contains("another screen") == true)
        // With no readable screen left, the manifest as a whole is the error.
        #expect(parseError("{\"title\": \"x\", \"screens\": [{\"kind\": \"photo\"}]}")?.place == "")
    }

    /// SVG is taken wherever a manifest names a picture (the format is sniffed, never taken
    /// from the name), and a broken one is named in the problems, as a broken PNG is.
    @Test func svgPicturesAreTakenWhereverAManifestNamesAPicture() throws {
        var text = try shippedManifestText()
        text = replacing(text, "\"image\": \"images/zoom.png\"", with: "\"image\": \"plan.svg\"")
        text = replacing(text, "\"image\": \"images/card-0.png\"", with: "\"image\": \"plan.svg\"")
        text = replacing(text, "\"image\": \"images/card-1.png\"", with: "\"image\": \"broken.svg\"")
        let path = try writeManifest(text, name: "svg")
        let folder = String(path.dropLast("/manifest.json".count))
        let plan = #"<svg xmlns="http://www.w3.org/2000/svg" width="300" height="200"><rect width="300" height="200" fill="teal"/></svg>"#
        try FileIO.writeAll(Array(plan.utf8), path: folder + "/plan.svg")
        try FileIO.writeAll(Array("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"3\"><rect".utf8), path: folder + "/broken.svg")
        let built = AppFactory.catalog(manifestPath: path, width: 800, height: 600, scaleFactor: 1, typography: try typography())
        #expect(built.app != nil)
        #expect(built.window.images.size(of: folder + "/plan.svg") == Size(width: 300, height: 200))
        #expect(
            built.problems.count == 1 && built.problems[0].contains("broken.svg") && built.problems[0].contains("invalid SVG"),
            "\(built.problems)")
    }

    @Test func anUnreadableManifestBecomesAnErrorScreen() throws {
        let text = try shippedManifestText()
        let path = try writeManifest(replacing(text, "\"title\": \"Glide Catalog\",", with: "\"title\": 7,"), name: "bad")
        let built = AppFactory.catalog(manifestPath: path, width: 800, height: 600, scaleFactor: 1, typography: try typography())
        #expect(built.app == nil)
        #expect(built.problems.count == 1 && built.problems[0].contains("manifest.json: title"), "\(built.problems)")
        built.window.layoutIfNeeded()
        let message = try #require(built.window.root.view(withID: "error-message") as? Label)
        #expect(message.text.contains("title"))
        let none = AppFactory.catalog(
            manifestPath: "/nonexistent/manifest.json", width: 800, height: 600, scaleFactor: 1,
            typography: try typography())
        #expect(none.app == nil && none.problems[0].contains("/nonexistent/manifest.json"))
    }
}

func labels(in view: View) -> [Label] {
    var out: [Label] = []
    if let l = view as? Label { out.append(l) }
    for c in view.children { out += labels(in: c) }
    return out
}

/// Manifest errors repeat at most a short excerpt of what they refuse.
@Suite struct ManifestEchoTests {
    @Test func longValuesAreCutInErrors() throws {
        let huge = String(repeating: "b", count: 1_000_000)
        for screen in [
            #"{"kind":"pages","id":"p","title":"P","count":3,"background":"\#(huge)"}"#,
            #"{"kind":"\#(huge)","id":"p","title":"P"}"#,
            #"{"kind":"pages","id":"p","title":"P","count":3,"\#(huge)":1}"#,
        ] {
            let text = #"{"title":"M","screens":[\#(screen),{"kind":"pages","id":"q","title":"Q","count":2}]}"#
            let manifest = try Manifest.parse(Array(text.utf8), path: "m.json")
            let error = try #require(manifest.skippedScreens.first)
            #expect("\(error)".utf8.count < 600, "\("\(error)".prefix(200))")
        }
        let id = String(repeating: "i", count: 1000)
        let dup =
            #"{"title":"M","screens":[{"kind":"pages","id":"\#(id)","title":"P","count":3},{"kind":"pages","id":"\#(id)","title":"Q","count":2}]}"#
        let m = try Manifest.parse(Array(dup.utf8), path: "m.json")
        #expect("\(try #require(m.skippedScreens.first))".utf8.count < 600)
    }
}

@Suite struct ManifestLengthTests {
    @Test func titlesAndTextsHaveLimitsInBytes() throws {
        let long = String(repeating: "日", count: 400)  // 1,200 bytes
        let text =
            #"{"title":"M","screens":[{"kind":"pages","id":"p","title":"\#(long)","count":3},"#
            + #"{"kind":"pages","id":"q","title":"Q","subtitle":"\#(long)","count":2},{"kind":"pages","id":"r","title":"R","count":2}]}"#
        let m = try Manifest.parse(Array(text.utf8), path: "m.json")
        #expect(m.screens.map(\.id) == ["r"])
        #expect(m.skippedScreens.map(\.place) == ["screens[0].title", "screens[1].subtitle"])
        #expect(m.skippedScreens.first?.message.contains("at most 1024 bytes, this one 1200") == true)
    }
}

@Suite struct ManifestIdentityTests {
    func skipped(_ screens: String) throws -> [String] {
        let text = #"{"title":"M","screens":[\#(screens),{"kind":"pages","id":"ok","title":"OK","count":2}]}"#
        return try Manifest.parse(Array(text.utf8), path: "m.json").skippedScreens.map { "\($0.place): \($0.message)" }
    }

    @Test func everyIdNamesOneView() throws {
        let card = { (id: String) in #"{"id":"\#(id)","title":"T"}"# }
        #expect(
            try skipped(#"{"kind":"feed","id":"f","title":"F","cards":[\#(card("a")),\#(card("a"))]}"#)
                == [#"screens[0].cards[1].id: another card has the id "a""#])
        #expect(try skipped(#"{"kind":"feed","id":"f","title":"F","cards":[\#(card(""))]}"#).first?.contains("must not be empty") == true)
        #expect(try skipped(#"{"kind":"pages","id":"","title":"P","count":2}"#).first?.contains("must not be empty") == true)
        // A card named like a tab ("tab-" and a screen's id), before or after that screen.
        #expect(
            try skipped(#"{"kind":"feed","id":"f","title":"F","cards":[\#(card("tab-f"))]}"#)
                == [#"screens[0].cards[0].id: another screen or card has the id "tab-f""#])
        #expect(
            try skipped(
                #"{"kind":"feed","id":"f","title":"F","cards":[\#(card("tab-p"))]},{"kind":"pages","id":"p","title":"P","count":2}"#)
                == [#"screens[1].id: another screen or card has the id "p""#])
    }

    @Test func scalesAreSane() throws {
        #expect(
            try skipped(#"{"kind":"photo","id":"p","title":"P","image":"x.png","minScale":5e-324}"#)
                == ["screens[0].minScale: must be a number from 0.01 to 100"])
    }
}

@Suite struct ManifestDuplicateKeyTests {
    /// JSONDecoder keeps the last of two equal names; a manifest naming one twice is refused,
    /// with the line.
    @Test func aNameGivenTwiceIsRefused() throws {
        let shipped = try shippedManifestText()
        #expect(parseError(shipped) == nil)
        // The shipped manifest with its title given again on a line of its own after the first brace.
        let twice = replacing(shipped, "{", with: "{\n\"title\": \"Again\",")
        let error = try #require(parseError(twice))
        #expect(error.message.contains("\"title\" is given twice"), "\(error)")
        #expect(error.place.hasPrefix("line "), "\(error)")
    }
}
