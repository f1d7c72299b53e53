import Geometry
import Scrolling
@_spi(Hooks) import ViewCore

/// A scroll view in the touch arena: its engine hears the touch, and it claims the touch when the
/// engine starts dragging or zooming.
extension ScrollView: GestureParticipant {
    package var gestureAxes: Axes { configuration.axes }
    package var takesPinch: Bool { configuration.isZoomEnabled }

    package func isAtRest(at t: Double) -> Bool { controller.isAtRest(at: t) }

    @discardableResult
    package func follow(_ phase: TouchEvent.Phase, slot: Int, at point: Point, time t: Double) -> Gesture? {
        controller.handle(TouchEvent(phase, id: slot, location: localPoint(fromWindow: point), time: t))
    }

    package func hasClaimedTouch(at t: Double) -> Bool {
        let phase = controller.state(at: t).phase
        return phase == .dragging || phase == .zooming
    }

    package func scrubber(at point: Point, time t: Double) -> ((Point, Double) -> Void)? {
        let down = localPoint(fromWindow: point)
        guard let indicator = scrubbableIndicator(at: down, time: t) else { return nil }
        // The thumb keeps the place the finger took it by.
        let grab = indicator.axis == .vertical ? down.y - indicator.thumb.minY : down.x - indicator.thumb.minX
        return { [weak self] p, t in
            guard let self else { return }
            scrub(indicator, to: localPoint(fromWindow: p), grabOffset: grab, time: t)
        }
    }

    package func scroll(by delta: Point, at t: Double) { controller.scroll(by: delta, animated: true, at: t) }

    package func drag(by delta: Point, at t: Double) {
        // From where the content is now, not where a running fling was heading.
        controller.scroll(to: controller.state(at: t).offset + delta, animated: false, at: t)
    }

    package func release(velocity: Point, at t: Double) { controller.release(velocity: velocity, at: t) }
}

/// A scroll view brings views into sight, takes keys' scroll commands and drags' autoscroll.
extension ScrollView: ScrollingContainer, Autoscrolling {
    package func perform(_ command: ScrollCommand, at t: Double) { controller.perform(command, at: t) }
    package var isPaging: Bool { configuration.isPagingEnabled }
    package func adopt(_ gestures: GestureSettings, resampling: TouchResampling?) {
        if configuration.touchSlop != gestures.touchSlop { configuration.touchSlop = gestures.touchSlop }
        if configuration.doubleTapInterval != gestures.doubleTapInterval { configuration.doubleTapInterval = gestures.doubleTapInterval }
        if configuration.doubleTapDistance != gestures.doubleTapDistance { configuration.doubleTapDistance = gestures.doubleTapDistance }
        if configuration.touchResampling != resampling { configuration.touchResampling = resampling }
    }
    package var avoidsKeyboard: Bool { configuration.axes.contains(.vertical) && !isPaging && !scrollsTextArea }
    package func destinationDescription(at t: Double) -> String {
        positionDescription(at: controller.destination(at: t) ?? sampledOffset)
    }
}

/// A scroll view's content moves by whole pixels behind its viewport, with its indicators drawn
/// over it.
extension ScrollView: DamageSource {
    package var contentScale: Double { sampledScale }
    package func indicators(at t: Double) -> [ScrollIndicator] { indicatorGeometry(at: t) }

    package var pinnedViews: [View] { lazyContent?.pinnedViews ?? [] }

    package func takeContentShift() -> Bool {
        defer { contentShifted = false }
        return contentShifted
    }
}
