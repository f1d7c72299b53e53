// A kiosk app with a lazy list of a million photo rows, each row a picture file of its own: the
// window's image store keeps the decoded pictures within the memory budget (`memory_budget_mb`)
// however far the list is flung. Tests/Memory runs it headless with a thousand distinct photos
// and measures its resident memory.
//
//     PHOTOS=DIR PhotoListExample run --backend headless --script flick.jsonl --out out
import GlideKit
#if canImport(Glibc)
import Glibc
#endif

/// The PNG and JPEG files in `directory`, sorted by name.
func pictures(in directory: String) -> [String] {
    guard let dir = opendir(directory) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let lower = name.lowercased()
        if lower.hasSuffix(".png") || lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg") { names.append(directory + "/" + name) }
    }
    return names.sorted()
}

let directory = getenv("PHOTOS").map { String(cString: $0) } ?? "Board/content/images"
let photos = pictures(in: directory)
guard !photos.isEmpty else {
    print("PhotoListExample: no PNG or JPEG files in \(directory) (set PHOTOS to a directory of pictures)")
    exit(2)
}

Kiosk.run { launch in
    // Row i shows photo i modulo the number of photos: with as many photos as rows flung
    // through, every row is a decode of its own.
    let rows = LazyVStack(id: "rows", count: 1_000_000, spacing: 1) { i in
        let path = photos[i % photos.count]
        return VStack(spacing: 8, padding: EdgeInsets(12)) {
            ImageView(source: path, id: "photo-\(i)", height: 220, cornerRadius: 8)
            Label("\(i): \(path.split(separator: "/").last.map(String.init) ?? path)", size: 18)
        }
        .background(.white)
        .frame(height: 276)
    }
    return Window(
        width: launch.width, height: launch.height, scaleFactor: launch.scaleFactor,
        typography: launch.typography, root: ScrollView(id: "list", content: rows))
}
