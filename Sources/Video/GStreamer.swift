import CGStreamer
import SharedLibraries

/// GStreamer's functions that a video calls, loaded with dlopen at the first video (see
/// CGStreamer's shim.h), and `gst_init` run once for the process.
struct GStreamer: @unchecked Sendable {
    let parseLaunch: GlideGstParseLaunch
    let binGetByName: GlideGstBinGetByName
    let setState: GlideGstElementSetState
    let seekSimple: GlideGstElementSeekSimple
    let queryDuration: GlideGstElementQueryDuration
    /// `gst_element_query_position`, which has `query_duration`'s signature.
    let queryPosition: GlideGstElementQueryDuration
    let getBus: GlideGstElementGetBus
    let busPop: GlideGstBusPop
    let parseError: GlideGstMessageParseError
    let messageStructure: GlideGstMessageGetStructure
    let miniObjectUnref: GlideGstRelease
    let objectUnref: GlideGstRelease
    let sampleBuffer: GlideGstSampleGetBuffer
    let sampleCaps: GlideGstSampleGetCaps
    let capsStructure: GlideGstCapsGetStructure
    let structureInt: GlideGstStructureGetInt
    let structureName: GlideGstStructureGetName
    let bufferMap: GlideGstBufferMap
    let bufferUnmap: GlideGstBufferUnmap
    let tryPullSample: GlideGstAppSinkTryPullSample
    /// `gst_app_sink_try_pull_preroll`: a paused pipeline's frame after a seek.
    let tryPullPreroll: GlideGstAppSinkTryPullSample
    let isEOS: GlideGstAppSinkIsEOS
    let free: GlideGFree
    let errorFree: GlideGErrorFree
    let valueInit: GlideGValueInit
    let valueSetString: GlideGValueSetString
    let valueSetBoolean: GlideGValueSetBoolean
    let valueUnset: GlideGValueUnset
    let setProperty: GlideGObjectSetProperty
    let signalConnect: GlideGSignalConnectData
    let elementFactory: GlideGstElementGetFactory
    let factoryMetadata: GlideGstElementFactoryGetMetadata
    let objectName: GlideGstObjectGetName
    /// gstreamer-pbutils' words for a missing plugin, where that library is there.
    let missingPlugin:
        (isMessage: GlideGstIsMissingPluginMessage, description: GlideGstMissingPluginText, detail: GlideGstMissingPluginText)?

    /// The process's GStreamer, or why there is none, loaded and initialised at the first use
    /// (a global: the library and its plugin registry are the process's; Swift makes it once).
    static let shared: Result<GStreamer, VideoError> = load()

    private static func load() -> Result<GStreamer, VideoError> {
        do {
            // libgstapp brings libgstbase, libgstreamer, GObject and GLib: dlsym finds theirs too.
            let app = try SharedLibrary("libgstapp-1.0.so.0", package: "libgstreamer-plugins-base1.0-0")
            let gst = try GStreamer(app, pbutils: try? SharedLibrary("libgstpbutils-1.0.so.0", package: "libgstreamer-plugins-base1.0-0"))
            let initCheck = try app.function("gst_init_check", GlideGstInitCheck.self)
            var error: UnsafeMutablePointer<GlideGstError>?
            guard initCheck(nil, nil, &error) != 0 else {
                return .failure(VideoError("GStreamer did not start: \(gst.take(error) ?? "no reason given")"))
            }
            return .success(gst)
        } catch {
            return .failure(VideoError("video needs GStreamer: \(error.description)"))
        }
    }

    private init(_ app: SharedLibrary, pbutils: SharedLibrary?) throws(SharedLibraryError) {
        parseLaunch = try app.function("gst_parse_launch", GlideGstParseLaunch.self)
        binGetByName = try app.function("gst_bin_get_by_name", GlideGstBinGetByName.self)
        setState = try app.function("gst_element_set_state", GlideGstElementSetState.self)
        seekSimple = try app.function("gst_element_seek_simple", GlideGstElementSeekSimple.self)
        queryDuration = try app.function("gst_element_query_duration", GlideGstElementQueryDuration.self)
        queryPosition = try app.function("gst_element_query_position", GlideGstElementQueryDuration.self)
        getBus = try app.function("gst_element_get_bus", GlideGstElementGetBus.self)
        busPop = try app.function("gst_bus_pop", GlideGstBusPop.self)
        parseError = try app.function("gst_message_parse_error", GlideGstMessageParseError.self)
        messageStructure = try app.function("gst_message_get_structure", GlideGstMessageGetStructure.self)
        miniObjectUnref = try app.function("gst_mini_object_unref", GlideGstRelease.self)
        objectUnref = try app.function("gst_object_unref", GlideGstRelease.self)
        sampleBuffer = try app.function("gst_sample_get_buffer", GlideGstSampleGetBuffer.self)
        sampleCaps = try app.function("gst_sample_get_caps", GlideGstSampleGetCaps.self)
        capsStructure = try app.function("gst_caps_get_structure", GlideGstCapsGetStructure.self)
        structureInt = try app.function("gst_structure_get_int", GlideGstStructureGetInt.self)
        structureName = try app.function("gst_structure_get_name", GlideGstStructureGetName.self)
        bufferMap = try app.function("gst_buffer_map", GlideGstBufferMap.self)
        bufferUnmap = try app.function("gst_buffer_unmap", GlideGstBufferUnmap.self)
        tryPullSample = try app.function("gst_app_sink_try_pull_sample", GlideGstAppSinkTryPullSample.self)
        tryPullPreroll = try app.function("gst_app_sink_try_pull_preroll", GlideGstAppSinkTryPullSample.self)
        isEOS = try app.function("gst_app_sink_is_eos", GlideGstAppSinkIsEOS.self)
        free = try app.function("g_free", GlideGFree.self)
        errorFree = try app.function("g_error_free", GlideGErrorFree.self)
        valueInit = try app.function("g_value_init", GlideGValueInit.self)
        valueSetString = try app.function("g_value_set_string", GlideGValueSetString.self)
        valueSetBoolean = try app.function("g_value_set_boolean", GlideGValueSetBoolean.self)
        valueUnset = try app.function("g_value_unset", GlideGValueUnset.self)
        setProperty = try app.function("g_object_set_property", GlideGObjectSetProperty.self)
        signalConnect = try app.function("g_signal_connect_data", GlideGSignalConnectData.self)
        elementFactory = try app.function("gst_element_get_factory", GlideGstElementGetFactory.self)
        factoryMetadata = try app.function("gst_element_factory_get_metadata", GlideGstElementFactoryGetMetadata.self)
        objectName = try app.function("gst_object_get_name", GlideGstObjectGetName.self)
        missingPlugin = try? pbutils.map { library throws(SharedLibraryError) in
            (
                try library.function("gst_is_missing_plugin_message", GlideGstIsMissingPluginMessage.self),
                try library.function("gst_missing_plugin_message_get_description", GlideGstMissingPluginText.self),
                try library.function("gst_missing_plugin_message_get_installer_detail", GlideGstMissingPluginText.self)
            )
        }
    }

    /// A GError's message, freed.
    func take(_ error: UnsafeMutablePointer<GlideGstError>?) -> String? {
        guard let error else { return nil }
        defer { errorFree(error) }
        return error.pointee.message.map { String(cString: $0) }
    }

    /// A string GLib allocated, freed.
    func take(_ text: UnsafeMutablePointer<CChar>?) -> String? {
        guard let text else { return nil }
        defer { free(text) }
        return String(cString: text)
    }

    /// Connects `handler` (a C function pointer) to `signal` of `instance`, with `owner` as its
    /// data. The handler holds `owner` until GLib lets it go: a streaming thread may still emit
    /// the signal after the pipeline's last reference is dropped (decodebin takes its elements out
    /// on GStreamer's thread pool), and must not find its data freed.
    func connect(_ signal: String, of instance: UnsafeMutableRawPointer, to handler: UnsafeMutableRawPointer, owner: AnyObject) {
        let release = unsafeBitCast(Self.releaseOwner, to: UnsafeMutableRawPointer.self)
        _ = signalConnect(instance, signal, handler, Unmanaged.passRetained(owner).toOpaque(), release, 0)
    }

    private static let releaseOwner: GlideClosureNotify = { data, _ in
        guard let data else { return }
        Unmanaged<AnyObject>.fromOpaque(data).release()
    }

    /// Sets the string property `name` of a GObject (`g_object_set` is variadic: Swift cannot call it).
    func set(_ name: String, to value: String, on object: UnsafeMutableRawPointer) {
        // G_TYPE_STRING: the fundamental type 16, shifted by G_TYPE_FUNDAMENTAL_SHIFT (2).
        set(name, type: 16 << 2, on: object) { valueSetString(&$0, value) }
    }

    /// Sets the boolean property `name` of a GObject.
    func set(_ name: String, to value: Bool, on object: UnsafeMutableRawPointer) {
        // G_TYPE_BOOLEAN: the fundamental type 5.
        set(name, type: 5 << 2, on: object) { valueSetBoolean(&$0, value ? 1 : 0) }
    }

    private func set(_ name: String, type: Int, on object: UnsafeMutableRawPointer, value: (inout GlideGValue) -> Void) {
        var v = GlideGValue()
        _ = valueInit(&v, type)
        value(&v)
        setProperty(object, name, &v)
        valueUnset(&v)
    }
}

/// Why a video does not play: its message names the file's problem, or the Debian package to
/// install.
package struct VideoError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, for the log and the video's place on screen.
    package let message: String

    package init(_ message: String) { self.message = message }

    package var description: String { message }
}
