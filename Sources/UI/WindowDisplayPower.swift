import AppContract

extension Window {
    /// The loop switched the panel off or on: the app is told through `onDisplayPower`.
    package func displayPowerChanged(on: Bool) { onDisplayPower?(on) }
}
