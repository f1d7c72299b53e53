import Glibc
import Raster
@testable import ImageCodecs
import TestSupport

/// Builds PNG files by hand (stored deflate blocks, our own CRC-32 and Adler-32), so the
/// decoder is tested against bytes that did not come from our encoder.
enum HandmadePNG {
    static func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }
    static func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeAndData = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typeAndData + bigEndian(crc32(typeAndData))
    }
    /// zlib stream of stored (uncompressed) deflate blocks.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let n = min(65535, data.count - offset)
            let final: UInt8 = offset + n == data.count ? 1 : 0
            out += [final, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += data[offset..<offset + n]
            offset += n
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        return out + bigEndian((b << 16) | a)
    }
    static func ihdr(width: UInt32, height: UInt32, colorType: UInt8) -> [UInt8] {
        chunk("IHDR", bigEndian(width) + bigEndian(height) + [8, colorType, 0, 0, 0])
    }
    /// An 8-bit RGBA (colour type 6) PNG from straight RGBA rows.
    static func rgba(width: Int, height: Int, straightRGBA: [UInt8]) -> [UInt8] {
        precondition(straightRGBA.count == width * height * 4)
        var raw: [UInt8] = []
        for y in 0..<height {
            raw.append(0)  // filter type None
            raw += straightRGBA[(y * width * 4)..<((y + 1) * width * 4)]
        }
        return PNG.signature + ihdr(width: UInt32(width), height: UInt32(height), colorType: 6)
            + chunk("IDAT", zlibStored(raw)) + chunk("IEND", [])
    }

    /// The same picture Adam7-interlaced: seven passes, each a small picture of every 8th,
    /// 4th, 2nd pixel; a pass with no pixels has no rows.
    static func rgbaInterlaced(width: Int, height: Int, straightRGBA: [UInt8]) -> [UInt8] {
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        var raw: [UInt8] = []
        for (x0, y0, dx, dy) in passes where x0 < width && y0 < height {
            for y in Swift.stride(from: y0, to: height, by: dy) {
                raw.append(0)
                for x in Swift.stride(from: x0, to: width, by: dx) { raw += straightRGBA[(y * width + x) * 4..<(y * width + x) * 4 + 4] }
            }
        }
        var header = ihdr(width: UInt32(width), height: UInt32(height), colorType: 6)
        header[8 + 12] = 1  // interlace method: Adam7
        header.replaceSubrange(header.count - 4..<header.count, with: bigEndian(crc32(header[4..<header.count - 4])))
        return PNG.signature + header + chunk("IDAT", zlibStored(raw)) + chunk("IEND", [])
    }
}

/// A fresh private directory, removed with its files by `remove()`.
struct TemporaryDirectory {
    let path: String
    init() {
        guard let made = try? makeTemporaryFolder(prefix: "imagecodecs") else { preconditionFailure("mkdtemp failed") }
        path = made
    }
    func remove() {
        if let dir = opendir(path) {
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name != "." && name != ".." { unlink(path + "/" + name) }
            }
            closedir(dir)
        }
        rmdir(path)
    }
}

func fixturePath(_ name: String, file: String = #filePath) -> String {
    let directory = file[..<file.lastIndex(of: "/")!]
    return "\(directory)/Fixtures/\(name)"
}

func channels(_ p: UInt32) -> (a: Int, r: Int, g: Int, b: Int) {
    (Int(p >> 24), Int((p >> 16) & 0xFF), Int((p >> 8) & 0xFF), Int(p & 0xFF))
}
