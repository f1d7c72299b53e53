// Glide's fuzz targets (issue 13): each reads a fuzzer's bytes, runs one part of Glide on them
// and checks what must hold whatever the input. `glide-fuzz` runs them under libFuzzer and
// AddressSanitizer (Tests/Fuzz/run.sh); FuzzRegressionTests replays the kept corpora.

public enum FuzzTarget: String, CaseIterable, Sendable {
    case script, manifest, config
    case feelCSV = "feel-csv"
    case png, jpeg, svg, font, text, raster, scroll, touches, typing, tokens

    /// Runs one input. A broken invariant stops the process (the fuzzer keeps the input).
    public func run(_ bytes: UnsafeRawBufferPointer, context: FuzzContext) {
        switch self {
        case .script: fuzzScript(bytes)
        case .manifest: fuzzManifest(bytes)
        case .config: fuzzConfig(bytes)
        case .feelCSV: fuzzFeelCSV(bytes)
        case .png: fuzzPNG(bytes)
        case .jpeg: fuzzJPEG(bytes)
        case .svg: fuzzSVG(bytes)
        case .font: fuzzFont(bytes, context: context.text())
        case .text: fuzzText(bytes, context: context.text())
        case .raster: fuzzRaster(bytes)
        case .scroll: fuzzScroll(bytes)
        case .touches: fuzzTouches(bytes, context: context.text())
        case .typing: fuzzTyping(bytes, context: context.text())
        case .tokens: fuzzTokens(bytes)
        }
    }
}

/// What targets keep between inputs (the fonts), made on first use.
public final class FuzzContext {
    private var textContext: TextFuzzContext?
    public init() {}

    func text() -> TextFuzzContext {
        if let textContext { return textContext }
        do {
            let made = try TextFuzzContext()
            textContext = made
            return made
        } catch {
            fatalError("cannot open the shipped fonts: \(error)")
        }
    }
}
