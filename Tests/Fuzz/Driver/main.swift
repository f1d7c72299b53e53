// glide-fuzz TARGET [libFuzzer flags] [CORPUS...]
//
// Built by Tests/Fuzz/run.sh with -DGLIDE_FUZZ, AddressSanitizer and coverage: libFuzzer runs
// TARGET. Built plainly (every `swift build`), it replays the given files or folders through
// TARGET once each, which is what a crash reproducer needs.
import CFuzzer
import FuzzTargets
import Runtime
#if canImport(Glibc)
import Glibc
#endif

func fail(_ message: String) -> Never {
    standardError("glide-fuzz: \(message)\nusage: glide-fuzz TARGET [libFuzzer flags] [CORPUS...]\n"
                  + "targets: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))")
    exit(2)
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else { fail("no target") }
guard let chosen = FuzzTarget(rawValue: arguments[1]) else { fail("unknown target '\(arguments[1])'") }
// A C callback captures nothing: the target and its context are globals of this program.
nonisolated(unsafe) let target = chosen
nonisolated(unsafe) let context = FuzzContext()

#if GLIDE_FUZZ
// libFuzzer sees the command line without the target name.
var argc = CommandLine.argc - 1
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
argv![1] = argv![0]
argv = argv! + 1
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
    target.run(UnsafeRawBufferPointer(start: data, count: size), context: context)
    return 0
})
#else
var replayed = 0
for path in arguments.dropFirst(2) {
    do {
        replayed += try target.replay(path: path, context: context)
    } catch {
        fail("\(error)")
    }
}
print("glide-fuzz: \(target.rawValue): replayed \(replayed) input(s)")
#endif
