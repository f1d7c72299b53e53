import AppContract
import CSndFile
#if canImport(Glibc)
import Glibc
#endif

/// `speech.wav` as it is written: mono 16-bit PCM, appended utterance by utterance, with the
/// header's sizes brought up to date and the data synced after each, so that a process killed
/// (or a board losing power) midway leaves a valid, shorter WAV of what was said until then.
///
/// The track starts at the first utterance (under `--remote` the loop's clock is the machine's
/// uptime: days of silence before it would be gigabytes), and a silence between two utterances is
/// at most `maximumSilence` long; speech.jsonl's `wav` says where each utterance starts. Only one
/// utterance's sound is kept in memory: the last, until the next utterance or a stop says where
/// it is cut (at most the synthesizer's 4 KiB of text). Used on the recorder's queue only.
package final class SpeechTrack: @unchecked Sendable {
    let path: String
    let rate: Int
    /// The longest silence written between two utterances, in frames.
    let maximumSilence: Int
    private var file: OpaquePointer?
    private let sndfile: SoundFileFunctions
    /// Frames written so far.
    private(set) var length = 0
    /// The last utterance's time on the loop's clock and its frame in the track: later times are
    /// placed from it.
    private var anchor: (t: Double, frame: Int)?
    /// The last utterance's sound, written when the next utterance or a stop cuts it (or at the end).
    private var held: [Int16] = []
    /// The first write that failed: nothing more is written, and the run reports it.
    private(set) var failure: SpeechError?

    /// Creates (or empties) the WAV at `path`, not following a symbolic link planted there.
    init(path: String, rate: Int, maximumSilence seconds: Double) throws(SpeechError) {
        self.path = path
        self.rate = rate
        maximumSilence = Int(seconds * Double(rate))
        let sndfile = try SoundFileFunctions.loaded.get()
        self.sndfile = sndfile
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .unwritable(path: path, reason: String(cString: strerror(errno))) }
        var info = SF_INFO()
        info.samplerate = Int32(rate)
        info.channels = 1
        info.format = Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
        guard let file = sndfile.openDescriptor(fd, Int32(SFM_WRITE), &info, Int32(SF_TRUE)) else {
            // libsndfile has closed `fd`.
            throw .unwritable(path: path, reason: sndfile.message(nil))
        }
        self.file = file
    }

    deinit { if let file { _ = sndfile.close(file) } }

    /// Where `t` falls in the track, counted from the last utterance (nil before the first).
    private func frame(at t: Double) -> Int? {
        anchor.map { $0.frame + max(0, Int(((t - $0.t) * Double(rate)).rounded())) }
    }

    /// An utterance at `t` and its sound: the one before is cut here and written, then the
    /// silence up to this one (at most `maximumSilence`). Returns where it starts, in seconds.
    func add(_ samples: [Int16], at t: Double) -> Double {
        var start = 0
        if let natural = frame(at: t) {
            cut(at: natural)
            start = max(length, min(natural, length + maximumSilence))
            writeSilence(start - length)
            flush()
        }
        anchor = (t, start)
        held = samples
        return Double(start) / Double(rate)
    }

    /// A stop at `t`: the utterance being said ends there.
    func stop(at t: Double) {
        guard let natural = frame(at: t) else { return }
        cut(at: natural)
        flush()
    }

    /// Writes the last utterance whole and closes the file. Returns the first failure, if any.
    func close() -> SpeechError? {
        write(held[...])
        held = []
        flush()
        if let file { _ = sndfile.close(file) }
        file = nil
        return failure
    }

    /// Writes the held sound up to `frame` (where the next event starts) and lets it go.
    private func cut(at frame: Int) {
        guard let anchor else { return }
        write(held.prefix(max(0, frame - anchor.frame)))
        held = []
    }

    private func writeSilence(_ frames: Int) {
        let block = [Int16](repeating: 0, count: min(max(frames, 0), 8192))
        var left = frames
        while left > 0 && failure == nil {
            write(block.prefix(left))
            left -= min(left, block.count)
        }
    }

    private func write(_ samples: ArraySlice<Int16>) {
        guard let file, failure == nil, !samples.isEmpty else { return }
        let written = samples.withUnsafeBufferPointer { sndfile.writeShort(file, $0.baseAddress, sf_count_t($0.count)) }
        length += Int(written)
        if Int(written) != samples.count {
            var why = sndfile.message(file)
            if why.hasSuffix(".") { why.removeLast() }
            let reason = "\(why) after \(length) samples; the rest of the speech is not recorded"
            failure = .unwritable(path: path, reason: reason)
            // Said now, not only when the run ends: a kiosk under --remote runs for days.
            report("\(failure!)", level: .error)
        }
    }

    /// Brings the header's sizes up to date: what a kill leaves is a valid WAV (the written
    /// pages outlive the process; waiting for the disk after every utterance would not help that).
    private func flush() {
        guard let file else { return }
        _ = sndfile.command(file, Int32(SFC_UPDATE_HEADER_NOW), nil, 0)
    }

    /// The samples and rate of a WAV (mono, 16-bit): for tests and tools reading speech.wav back.
    package static func read(path: String) -> (samples: [Int16], rate: Int)? {
        guard let sndfile = try? SoundFileFunctions.loaded.get() else { return nil }
        var info = SF_INFO()
        guard let file = sndfile.open(path, Int32(SFM_READ), &info) else { return nil }
        defer { _ = sndfile.close(file) }
        var samples = [Int16](repeating: 0, count: Int(info.frames) * Int(max(1, info.channels)))
        let count = samples.withUnsafeMutableBufferPointer { sndfile.readShort(file, $0.baseAddress, sf_count_t($0.count)) }
        return (Array(samples.prefix(Int(count))), Int(info.samplerate))
    }
}
