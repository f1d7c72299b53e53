import UI

/// An app whose screens the accessibility audit can read: views laid out beside the pixels they
/// drew (a Glide window). An app that draws its own pixels has no views to check, so the audit
/// command and the remote API's `/audit` know an app by this role, not by its type.
package protocol AuditableApp: AnyObject {
    /// The window whose views the audit checks against the screen's pixels.
    var auditedWindow: Window { get }
}

extension Window: AuditableApp {
    package var auditedWindow: Window { self }
}
