import ArgumentParser
import Catalog
import KioskRuntime

/// `glide audit`: one of glide's apps checked against the accessibility rules, as every app's
/// own `audit` subcommand does.
struct AuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract:
            "Check an app's screens against accessibility rules (WCAG 2.2 AA, the EAA): contrast, target size, labels, overflow, keypad, timeouts, motion.",
        discussion: "Exit status: 0 with no findings, 1 with findings, 2 when the audit could not run.")

    @OptionGroup var app: AppOptions
    @OptionGroup var audit: AuditOptions
    @Flag(help: "Audit the catalog through its screenshot tour (the one `glide demo` writes): every screen it visits.")
    var tour = false

    func validate() throws {
        if tour, app.app != "catalog" { throw ValidationError("--tour is the catalog's: use --app catalog") }
        if tour, audit.script != nil { throw ValidationError("--tour and --script: give one") }
    }

    func run() throws {
        // The tour is the catalog's: its app as built, kept for the script.
        var catalog: CatalogApp?
        try AuditRuntime.run(
            audit,
            app: AppSource { width, height, scale, _, _ in
                let (window, built) = try app.makeWindow(width: width, height: height, scale: scale)
                catalog = built
                return window
            },
            script: tour ? { _ in catalog.map(CatalogTour.script) } : nil)
    }
}
