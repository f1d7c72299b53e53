#if canImport(Glibc)
import Glibc
#endif
import ImageCodecs
import TestSupport
import Testing

/// Only regular files are read: a FIFO named as an image would block `open` forever and
/// /dev/zero would be read up to the size limit. Both are refused at once, by path.
@Suite struct FileIOTests {
    @Test func aPathWithANULNamesNoFile() throws {
        // "/etc/hostname\0.png" used to open /etc/hostname.
        #expect(throws: ImageCodecError.io(operation: "open", path: "/etc/hostname\\0.png", errno: EINVAL)) {
            try FileIO.readAll(path: "/etc/hostname\0.png")
        }
    }

    @Test func aFIFOIsRefusedWithoutBlocking() throws {
        try withTemporaryFIFO { path in
            #expect(throws: ImageCodecError.notARegularFile(path: path, found: "a FIFO")) { try FileIO.readAll(path: path) }
            #expect(throws: ImageCodecError.notARegularFile(path: path, found: "a FIFO")) { try PNG.read(path: path) }
            #expect(throws: ImageCodecError.notARegularFile(path: path, found: "a FIFO")) { try JPEG.read(path: path) }
            #expect(throws: ImageCodecError.notARegularFile(path: path, found: "a FIFO")) { try Image.read(path: path) }
            #expect(ImageCodecError.notARegularFile(path: path, found: "a FIFO").description == "\(path) is a FIFO, not a regular file")
        }
    }

    @Test func devicesAndDirectoriesAreRefused() {
        #expect(throws: ImageCodecError.notARegularFile(path: "/dev/zero", found: "a character device")) {
            try FileIO.readAll(path: "/dev/zero")
        }
        #expect(throws: ImageCodecError.notARegularFile(path: "/tmp", found: "a directory")) { try PNG.read(path: "/tmp") }
    }

    /// A file over the limit is refused by its size, before a byte is read.
    @Test func anOversizedFileIsRefusedByItsSize() throws {
        let path = "/tmp/glide-fileio-\(getpid())-big.png"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(fd >= 0)
        #expect(ftruncate(fd, off_t(FileIO.maxImageBytes + 1)) == 0)  // sparse: no disk used
        close(fd)
        defer { unlink(path) }
        #expect(throws: ImageCodecError.fileTooLarge(path: path, limit: FileIO.maxImageBytes)) { try PNG.read(path: path) }
        #expect(throws: ImageCodecError.fileTooLarge(path: path, limit: 100)) { try FileIO.readAll(path: path, limit: 100) }
    }

    /// Standard input may be a pipe when the caller allows streams; it is still bounded.
    @Test func aPipeIsReadWhenStreamsAreAllowed() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        let text = Array("hello".utf8)
        _ = text.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
        close(fds[1])
        defer { close(fds[0]) }
        let path = "/proc/self/fd/\(fds[0])"
        #expect(throws: ImageCodecError.notARegularFile(path: path, found: "a FIFO")) { try FileIO.readAll(path: path) }
        #expect(try FileIO.readAll(path: path, limit: 100, allowingStreams: true) == text)
    }
}
