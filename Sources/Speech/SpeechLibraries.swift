import CEspeakNG
import CSndFile
import SharedLibraries

/// The espeak-ng functions `ESpeak` calls, loaded at the first utterance (see `CEspeakNG`'s
/// shim.h for why), once per process.
struct ESpeakFunctions: @unchecked Sendable {
    let initialize: GlideEspeakInitialize
    let setSynthCallback: GlideEspeakSetSynthCallback
    let setVoiceByName: GlideEspeakSetVoiceByName
    let setParameter: GlideEspeakSetParameter
    let synth: GlideEspeakSynth
    let synchronize: GlideEspeakSynchronize

    static let loaded = Result { () throws(SharedLibraryError) in
        let library = try SharedLibrary("libespeak-ng.so.1", package: "libespeak-ng1")
        return ESpeakFunctions(
            initialize: try library.function("espeak_Initialize", GlideEspeakInitialize.self),
            setSynthCallback: try library.function("espeak_SetSynthCallback", GlideEspeakSetSynthCallback.self),
            setVoiceByName: try library.function("espeak_SetVoiceByName", GlideEspeakSetVoiceByName.self),
            setParameter: try library.function("espeak_SetParameter", GlideEspeakSetParameter.self),
            synth: try library.function("espeak_Synth", GlideEspeakSynth.self),
            synchronize: try library.function("espeak_Synchronize", GlideEspeakSynchronize.self))
    }.mapError(SpeechError.libraryMissing)
}

/// The libsndfile functions `SpeechTrack` calls, loaded when a track is first written or read
/// (see `CSndFile`'s shim.h), once per process.
struct SoundFileFunctions: @unchecked Sendable {
    let open: GlideSfOpen
    let openDescriptor: GlideSfOpenFd
    let close: GlideSfClose
    let errorText: GlideSfStrerror
    let writeShort: GlideSfWriteShort
    let readShort: GlideSfReadShort
    let command: GlideSfCommand

    static let loaded = Result { () throws(SharedLibraryError) in
        let library = try SharedLibrary("libsndfile.so.1", package: "libsndfile1")
        return SoundFileFunctions(
            open: try library.function("sf_open", GlideSfOpen.self),
            openDescriptor: try library.function("sf_open_fd", GlideSfOpenFd.self),
            close: try library.function("sf_close", GlideSfClose.self),
            errorText: try library.function("sf_strerror", GlideSfStrerror.self),
            writeShort: try library.function("sf_write_short", GlideSfWriteShort.self),
            readShort: try library.function("sf_read_short", GlideSfReadShort.self),
            command: try library.function("sf_command", GlideSfCommand.self))
    }.mapError(SpeechError.libraryMissing)

    /// libsndfile's message for the last error of `file` (nil: of the last open).
    func message(_ file: OpaquePointer?) -> String { errorText(file).map { String(cString: $0) } ?? "unknown error" }
}
