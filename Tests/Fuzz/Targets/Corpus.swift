// Kept inputs: Tests/Fuzz/Corpus/TARGET holds what the fuzzer found interesting and every
// input that once broke something; the regression tests and `glide-fuzz` replay them.
import ImageCodecs
#if canImport(Glibc)
import Glibc
#endif

extension FuzzTarget {
    /// The folder of kept inputs in this source tree.
    public var corpusDirectory: String {
        let here = #filePath  // .../Tests/Fuzz/Targets/Corpus.swift
        let fuzz = here.split(separator: "/", omittingEmptySubsequences: false).dropLast(2).joined(separator: "/")
        return fuzz + "/Corpus/" + rawValue
    }

    /// Runs the file at `path`, or every file under it when it is a folder; returns how many.
    package func replay(path: String, context: FuzzContext) throws(ImageCodecError) -> Int {
        var count = 0
        for file in FuzzTarget.files(under: path) {
            let bytes = try FileIO.readAll(path: file)
            bytes.withUnsafeBytes { run($0, context: context) }
            count += 1
        }
        return count
    }

    /// `path` itself when it is not a folder, else the files under it (hidden ones skipped), sorted.
    static func files(under path: String) -> [String] {
        guard let dir = opendir(path) else { return [path] }
        defer { closedir(dir) }
        var found: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            guard !name.hasPrefix(".") else { continue }
            found += files(under: path + "/" + name)
        }
        return found.sorted()
    }
}
