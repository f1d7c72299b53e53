// The part of GStreamer's C API that Glide's video calls (GStreamer 1.x, Debian's
// libgstreamer1.0-0 and libgstreamer-plugins-base1.0-0), as function pointer types and the
// heads of the structures it reads: GStreamer and the codecs it brings are loaded with dlopen
// when the first video plays, so a kiosk without video neither pays for them at start nor needs
// them installed, and a board without them shows the video's place with the package to install.
// The structure heads are GStreamer 1.x's public, ABI-stable layouts (gstminiobject.h,
// gstmessage.h, gstbuffer.h, gstmemory.h).
#include <stddef.h>
#include <stdint.h>

typedef struct { uint32_t domain; int32_t code; char *message; } GlideGstError;

/// GstMiniObject: what every message, buffer and sample starts with.
typedef struct {
    size_t type;
    int32_t refcount;
    int32_t lockstate;
    uint32_t flags;
    void *copy;
    void *dispose;
    void *free;
    uint32_t privUint;
    void *privPointer;
} GlideGstMiniObject;

/// GstMessage's head: its type (GST_MESSAGE_ERROR, _EOS, _ELEMENT, ...).
typedef struct {
    GlideGstMiniObject mini;
    uint32_t type;
} GlideGstMessageHead;

enum {
    GlideGstMessageEOS = 1 << 0,
    GlideGstMessageError = 1 << 1,
    GlideGstMessageWarning = 1 << 2,
    GlideGstMessageElement = 1 << 15,
};

/// GstBuffer's head: its presentation time in nanoseconds (GST_CLOCK_TIME_NONE: all ones).
typedef struct {
    GlideGstMiniObject mini;
    void *pool;
    uint64_t pts;
    uint64_t dts;
    uint64_t duration;
} GlideGstBufferHead;

/// GstMapInfo: a mapped buffer's bytes.
typedef struct {
    void *memory;
    uint32_t flags;
    uint8_t *data;
    size_t size;
    size_t maxsize;
    void *userData[4];
    void *reserved[4];
} GlideGstMapInfo;

/// GValue: a GType and two words of data.
typedef struct { size_t type; uint64_t data[2]; } GlideGValue;

typedef int32_t (*GlideGstInitCheck)(int32_t *argc, char ***argv, GlideGstError **error);
typedef void *(*GlideGstParseLaunch)(const char *description, GlideGstError **error);
typedef void *(*GlideGstBinGetByName)(void *bin, const char *name);
typedef int32_t (*GlideGstElementSetState)(void *element, int32_t state);
typedef int32_t (*GlideGstElementSeekSimple)(void *element, int32_t format, int32_t flags, int64_t position);
typedef int32_t (*GlideGstElementQueryDuration)(void *element, int32_t format, int64_t *duration);
typedef void *(*GlideGstElementGetBus)(void *element);
typedef void *(*GlideGstBusPop)(void *bus);
typedef void (*GlideGstMessageParseError)(void *message, GlideGstError **error, char **debug);
typedef const void *(*GlideGstMessageGetStructure)(void *message);
typedef void (*GlideGstRelease)(void *object);
typedef void *(*GlideGstSampleGetBuffer)(void *sample);
typedef void *(*GlideGstSampleGetCaps)(void *sample);
typedef void *(*GlideGstCapsGetStructure)(const void *caps, uint32_t index);
typedef int32_t (*GlideGstStructureGetInt)(const void *structure, const char *field, int32_t *value);
typedef const char *(*GlideGstStructureGetName)(const void *structure);
typedef int32_t (*GlideGstBufferMap)(void *buffer, GlideGstMapInfo *info, int32_t flags);
typedef void (*GlideGstBufferUnmap)(void *buffer, GlideGstMapInfo *info);
typedef void *(*GlideGstAppSinkTryPullSample)(void *sink, uint64_t timeout);
typedef int32_t (*GlideGstAppSinkIsEOS)(void *sink);
typedef char *(*GlideGstMissingPluginText)(void *message);
typedef int32_t (*GlideGstIsMissingPluginMessage)(void *message);
typedef void (*GlideGFree)(void *memory);
typedef void (*GlideGErrorFree)(GlideGstError *error);
typedef GlideGValue *(*GlideGValueInit)(GlideGValue *value, size_t type);
typedef void (*GlideGValueSetString)(GlideGValue *value, const char *string);
typedef void (*GlideGValueSetBoolean)(GlideGValue *value, int32_t boolean);
typedef void (*GlideGValueUnset)(GlideGValue *value);
typedef void (*GlideGObjectSetProperty)(void *object, const char *name, const GlideGValue *value);
/// decodebin's "autoplug-continue": return 0 to stop decoding a stream whose caps are refused.
typedef int32_t (*GlideAutoplugContinue)(void *bin, void *pad, void *caps, void *userData);
/// A bin's "element-added" and "element-removed": each element decodebin plugs in (demuxer,
/// parser, decoder), and each it takes out again.
typedef void (*GlideElementSignal)(void *bin, void *element, void *userData);
typedef void *(*GlideGstElementGetFactory)(void *element);
typedef const char *(*GlideGstElementFactoryGetMetadata)(void *factory, const char *key);
typedef char *(*GlideGstObjectGetName)(void *object);
/// GClosureNotify: called once a signal handler is gone (disconnected, or its object
/// finalised) and no emission is running it any more.
typedef void (*GlideClosureNotify)(void *data, void *closure);
typedef unsigned long (*GlideGSignalConnectData)(void *instance, const char *signal, void *handler, void *data,
                                                 void *destroyData, int32_t flags);
