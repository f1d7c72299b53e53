/// A value a control reads and writes that lives elsewhere: in the app's model, as SwiftUI's
/// `Binding` does. A control shows the value the binding gives and sets it when a person
/// changes it. When the value lives in an `@Observable` model, the control also follows
/// changes made by anything else (a timer, another control, another thread), at the next frame.
///
/// ```swift
/// @Observable final class Order { var takeaway = false; var quantity = 1 }
/// let order = Order()
/// Toggle("Takeaway", id: "takeaway", isOn: Binding(order, \.takeaway))
/// Stepper("Quantity", value: Binding(order, \.quantity), in: 1...20)
/// ```
public struct Binding<Value> {
    private let read: () -> Value
    private let write: (Value) -> Void

    /// A binding that reads with `get` and writes with `set`.
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        read = get
        write = set
    }

    /// A binding to the property at `keyPath` of `root` (a model object, held strongly).
    public init<Root: AnyObject>(_ root: Root, _ keyPath: ReferenceWritableKeyPath<Root, Value>) {
        self.init(get: { root[keyPath: keyPath] }, set: { root[keyPath: keyPath] = $0 })
    }

    /// A binding that always reads `value` and ignores writes (a preview, a control shown
    /// disabled).
    public static func constant(_ value: Value) -> Binding<Value> { Binding(get: { value }, set: { _ in }) }

    /// The value now; setting it writes through to where it lives.
    public var wrappedValue: Value {
        get { read() }
        nonmutating set { Transaction.with(transaction) { write(newValue) } }
    }

    /// The animation a control's change through this binding takes (`animation(_:)`'s); nil:
    /// the one in force, if any.
    package private(set) var transaction: Animation?

    /// This binding, its changes animated with `animation`, as SwiftUI's: a control that sets
    /// it (a tab view switching screens, a toggle) moves its own views and the app's that
    /// change with it by `animation`.
    ///
    /// ```swift
    /// TabView(selection: Binding(model, \.tab).animation(.easeInOut(duration: 0.25)), tabs: tabs)
    /// ```
    public func animation(_ animation: Animation = .default) -> Binding<Value> {
        var b = self
        b.transaction = animation
        return b
    }
}
