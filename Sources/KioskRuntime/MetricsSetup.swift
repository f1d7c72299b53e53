import FleetMetrics
import LinuxDRM
import RemoteControl
import Runtime

extension BoardRuntime {
    /// The remote API, with the metrics the board's loop counts into.
    static func startRemote(_ configuration: RemoteConfiguration, counting driver: FrameDriver, display: DRMDisplay) throws
        -> RemoteServer
    {
        let metrics = GlideMetrics(app: Kiosk.commandName)
        count(into: metrics, driver, display: display)
        return try RemoteRuntime.start(configuration, metrics: metrics)
    }

    /// The board's loop counts into `metrics`: frames and touches through the driver, and from
    /// the display's page flips the latency from input to the panel and the blanks missed.
    static func count(into metrics: GlideMetrics, _ driver: FrameDriver, display: DRMDisplay) {
        driver.metrics = metrics
        driver.measuresLatencyAtPresent = false
        display.onFlip = { [weak metrics] inputToFlip, missedBlanks in
            guard let metrics else { return }
            for seconds in inputToFlip { metrics.inputShown(after: seconds) }
            metrics.blanksMissed(missedBlanks)
        }
    }
}
