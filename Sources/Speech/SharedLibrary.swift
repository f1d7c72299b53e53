import CEspeakNG
import CSndFile
#if canImport(Glibc)
import Glibc
#endif

/// A library Speech loads with dlopen when speech is first made, and the functions it takes
/// from it: espeak-ng and libsndfile bring some thirty libraries between them, which a kiosk
/// that never speaks need not load at every start. A system without one still runs; speech
/// then fails with a message naming the library and the Debian package that has it.
struct SharedLibrary {
    private let handle: UnsafeMutableRawPointer
    let name: String
    let package: String

    init(_ name: String, package: String) throws(SpeechError) {
        self.name = name
        self.package = package
        // RTLD_LOCAL: its symbols stay its own; dlsym below asks this library only.
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else { throw Self.error(name, package) }
        self.handle = handle
    }

    /// The function `symbol`, as the C function pointer type `T` its header gives it.
    func function<T>(_ symbol: String, _: T.Type) throws(SpeechError) -> T {
        guard let address = dlsym(handle, symbol) else { throw Self.error(name, package) }
        return unsafeBitCast(address, to: T.self)
    }

    private static func error(_ name: String, _ package: String) -> SpeechError {
        .libraryMissing(library: name, package: package, reason: dlerror().map { String(cString: $0) } ?? "not found")
    }
}

/// The espeak-ng functions `ESpeak` calls, loaded once per process.
struct ESpeakFunctions: @unchecked Sendable {
    let initialize: GlideEspeakInitialize
    let setSynthCallback: GlideEspeakSetSynthCallback
    let setVoiceByName: GlideEspeakSetVoiceByName
    let setParameter: GlideEspeakSetParameter
    let synth: GlideEspeakSynth
    let synchronize: GlideEspeakSynchronize

    static let loaded: Result<ESpeakFunctions, SpeechError> = Result { () throws(SpeechError) in
        let library = try SharedLibrary("libespeak-ng.so.1", package: "libespeak-ng1")
        return ESpeakFunctions(
            initialize: try library.function("espeak_Initialize", GlideEspeakInitialize.self),
            setSynthCallback: try library.function("espeak_SetSynthCallback", GlideEspeakSetSynthCallback.self),
            setVoiceByName: try library.function("espeak_SetVoiceByName", GlideEspeakSetVoiceByName.self),
            setParameter: try library.function("espeak_SetParameter", GlideEspeakSetParameter.self),
            synth: try library.function("espeak_Synth", GlideEspeakSynth.self),
            synchronize: try library.function("espeak_Synchronize", GlideEspeakSynchronize.self))
    }
}

/// The libsndfile functions `SpeechTrack` calls, loaded once per process.
struct SoundFileFunctions: @unchecked Sendable {
    let open: GlideSfOpen
    let openDescriptor: GlideSfOpenFd
    let close: GlideSfClose
    let errorText: GlideSfStrerror
    let writeShort: GlideSfWriteShort
    let readShort: GlideSfReadShort
    let command: GlideSfCommand

    static let loaded: Result<SoundFileFunctions, SpeechError> = Result { () throws(SpeechError) in
        let library = try SharedLibrary("libsndfile.so.1", package: "libsndfile1")
        return SoundFileFunctions(
            open: try library.function("sf_open", GlideSfOpen.self),
            openDescriptor: try library.function("sf_open_fd", GlideSfOpenFd.self),
            close: try library.function("sf_close", GlideSfClose.self),
            errorText: try library.function("sf_strerror", GlideSfStrerror.self),
            writeShort: try library.function("sf_write_short", GlideSfWriteShort.self),
            readShort: try library.function("sf_read_short", GlideSfReadShort.self),
            command: try library.function("sf_command", GlideSfCommand.self))
    }

    /// libsndfile's message for the last error of `file` (nil: of the last open).
    func message(_ file: OpaquePointer?) -> String { errorText(file).map { String(cString: $0) } ?? "unknown error" }
}
