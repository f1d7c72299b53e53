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
    standardError(
        "glide-fuzz: \(message)\nusage: glide-fuzz TARGET [libFuzzer flags] [CORPUS...]\n"
            + "targets: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))")
    exit(2)
}

let arguments = CommandLine.arguments
// The target is the first argument; libFuzzer runs itself again for -merge and -fork without it,
// so the chosen target also travels in the environment.
let named = arguments.count >= 2 ? FuzzTarget(rawValue: arguments[1]) : nil
let inherited = getenv("GLIDE_FUZZ_TARGET").flatMap { FuzzTarget(rawValue: String(cString: $0)) }
guard let chosen = named ?? inherited else {
    fail(arguments.count >= 2 ? "unknown target '\(arguments[1])'" : "no target")
}
setenv("GLIDE_FUZZ_TARGET", chosen.rawValue, 1)
// A C callback captures nothing: the target and its context are globals of this program.
let target = chosen
nonisolated(unsafe) let context = FuzzContext()

#if GLIDE_FUZZ
// libFuzzer sees the command line without the target name.
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
if named != nil {
    argc -= 1
    argv![1] = argv![0]
    argv = argv! + 1
}
exit(
    LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        target.run(UnsafeRawBufferPointer(start: data, count: size), context: context)
        return 0
    })
#else
var replayed = 0
for path in arguments.dropFirst(named != nil ? 2 : 1) {
    do {
        replayed += try target.replay(path: path, context: context)
    } catch {
        fail("\(error)")
    }
}
// Nothing replayed is a mistake (a wrong path, an empty folder), not a pass.
guard replayed > 0 else { fail("\(target.rawValue): no inputs replayed (give files or folders of inputs)") }
print("glide-fuzz: \(target.rawValue): replayed \(replayed) input(s)")
#endif
