import Controls
import Observation
import Raster
import UI
import Localization

/// What a visitor has ordered so far, and where the ordering stands: the order app's model.
/// Views follow it; nothing updates a label by hand.
@Observable package final class OrderModel {
    /// Quantity by product index.
    package var cart: [Int: Int] = [:]
    package var takeaway = false
    package var showingCart = false
    package var confirming = false
    package var paying = false
    package var paidOrders = 0
    /// The "Still there?" question before the idle reset is showing.
    package var askingStillThere = false
    /// The kiosk's language: the header's language button cycles English, Arabic, German.
    package var language = "en"

    package init() {}

    package var itemCount: Int { cart.values.reduce(0, +) }
    package var totalCents: Int { cart.reduce(0) { $0 + OrderApp.product($1.key).cents * $1.value } }
}

/// The restaurant-ordering kiosk (`glide run --app order`): a grid of 500 products in sections
/// by category (the category's name pinned over its products), a takeaway switch and the cart button over it, the cart in a sheet (a stepper per
/// line), a confirmation alert before paying, and a spinner while the card terminal answers.
package enum OrderApp {
    package struct Product {
        package var name: String
        package var category: String
        package var cents: Int
        package var hue: UInt32
    }

    static let categories: [(name: String, items: [String], hue: UInt32)] = [
        ("Coffee", ["Espresso", "Americano", "Cappuccino", "Flat white", "Latte", "Mocha", "Cortado"], 0x8D5B3E),
        ("Tea", ["Green tea", "Earl Grey", "Chai latte", "Mint tea", "Rooibos"], 0x5B8E3E),
        ("Bakery", ["Croissant", "Pain au chocolat", "Cinnamon bun", "Muffin", "Bagel", "Scone"], 0xD9A441),
        ("Sandwiches", ["Club", "Caprese", "Falafel wrap", "Tuna melt", "BLT"], 0xC0533A),
        ("Salads", ["Caesar", "Greek", "Quinoa bowl", "Niçoise"], 0x3E8E7E),
        ("Desserts", ["Cheesecake", "Brownie", "Tiramisu", "Fruit cup", "Cookie"], 0x8E3E6D),
    ]

    package static let productCount = 500

    /// The products of each category, in the menu's order: the grid's sections.
    package static let sections: [[Int]] = {
        let names = categories.map(\.name)
        var out = Array(repeating: [Int](), count: names.count)
        for i in 0..<productCount { out[names.firstIndex(of: product(i).category) ?? 0].append(i) }
        return out
    }()

    /// Product `i`: the menu's items over and over, in numbered sizes after the first round.
    package static func product(_ i: Int) -> Product {
        let all = categories.flatMap { c in c.items.map { (c.name, $0, c.hue) } }
        let (category, name, hue) = all[i % all.count]
        let round = i / all.count
        return Product(
            name: round == 0 ? name : "\(name) \(round + 1)", category: category, cents: 250 + (i * 37) % 900, hue: hue)
    }

    /// The app's window over `model`.
    package static func window(
        model: OrderModel = OrderModel(), width: Int, height: Int, scaleFactor: Double, typography: Typography
    ) -> Window {
        let grid = LazyVGrid(
            id: "products", columns: [GridItem(.adaptive(minimum: 170))], sections: sections.map(\.count), spacing: 12,
            padding: EdgeInsets(12),
            header: { s in
                Label(LocalizedStringKey(categories[s].name), id: "category-\(s)", size: 22, maxLines: 1).bold()
                    .padding(EdgeInsets(horizontal: 4, vertical: 6))
            }
        ) { s, i in card(sections[s][i], model: model) }
        let root = VStack(spacing: 0) {
            header(model: model)
            Divider()
            ScrollView(id: "menu", content: grid)
        }
        .alert(
            "Pay now?", id: "confirm", isPresented: Binding(model, \.confirming),
            message: "The card terminal will ask for your card.",
            buttons: [
                AlertButton("Cancel", role: .cancel),
                AlertButton("Pay") { model.paying = true },
            ]
        )
        .sheet(id: "cart-sheet", isPresented: Binding(model, \.showingCart)) { cartSheet(model: model) }
        .alert(
            "Still there?", id: "still-there", isPresented: Binding(model, \.askingStillThere),
            message: "The order starts over in 20 seconds.", buttons: [AlertButton("Continue", role: .cancel)])
        root.fill = .background
        let window = Window(width: width, height: height, scaleFactor: scaleFactor, typography: typography, root: root)
        // Its words in English, Arabic and German; Arabic lays it out right to left.
        window.stringCatalog = (try? StringCatalog(json: Array(strings.utf8))) ?? StringCatalog()
        window.followsLanguageDirection = true
        root.follow { [weak window] _ in window?.language = model.language }
        // Left alone for two minutes the kiosk starts over for the next visitor, and says so 20
        // seconds before, with a button for more time (the EAA's "enough time").
        window.idleResetSeconds = 120
        window.idleResetWarningSeconds = 20
        window.onIdleResetWarning = { model.askingStillThere = true }
        window.onIdleReset = {
            model.cart = [:]; model.takeaway = false; model.askingStillThere = false
            return false
        }
        // The card terminal answers after two seconds; the order is then placed and the cart emptied.
        root.follow { [weak window] _ in
            guard model.paying, let window else { return }
            window.after(2) {
                model.paying = false
                model.paidOrders += 1
                model.cart = [:]
                model.showingCart = false
            }
        }
        return window
    }

    /// The title, the takeaway switch and the cart button in one row; in two where they do not
    /// fit in one (a portrait panel at 200 % text), the title above; in three at 300 %.
    static func header(model: OrderModel) -> View {
        func cart() -> Button {
            Button("Cart", id: "cart", icon: Icon("shopping_cart"), style: .prominent) { model.showingCart = true }
                .follow {
                    $0.setTitle(model.itemCount == 0 ? "Cart" : "Cart · \(model.itemCount)"); $0.isEnabled = model.itemCount > 0
                }
        }
        func title() -> Label {
            Label("Order", id: "title", size: 28, maxLines: 1).bold()
                .follow { $0.setText(model.paidOrders == 0 ? "Order" : "Thank you! Order \(model.paidOrders) is on its way") }
        }
        func takeaway() -> Toggle { Toggle("Takeaway", id: "takeaway", isOn: Binding(model, \.takeaway)) }
        // The language's own name ("العربية" in Arabic); a tap moves on to the next.
        func language() -> Button {
            Button("English", id: "language") {
                model.language = ["en": "ar", "ar": "de"][model.language] ?? "en"
            }
        }
        return ViewThatFits(
            HStack(spacing: 16, padding: EdgeInsets(horizontal: 16, vertical: 8)) {
                title().fixedSize()
                Spacer(minLength: 8)
                language().fixedSize()
                takeaway().fixedSize()
                cart().fixedSize()
            },
            VStack(spacing: 4, padding: EdgeInsets(horizontal: 16, vertical: 8)) {
                title()
                HStack(spacing: 16) {
                    language().fixedSize()
                    takeaway().fixedSize()
                    Spacer(minLength: 8)
                    cart().fixedSize()
                }
            },
            // 300 % text on a portrait panel: one above the other.
            VStack(spacing: 4, padding: EdgeInsets(horizontal: 16, vertical: 8)) {
                title()
                language()
                takeaway()
                cart()
            })
    }

    static func card(_ i: Int, model: OrderModel) -> View {
        let p = product(i)
        return VStack(id: "product-\(i)", spacing: 6, padding: EdgeInsets(10)) {
            Box(fill: Color(rgb: p.hue), cornerRadius: 8, height: 72)
            Label(p.name, size: 17).fontWeight(.semibold)
            Label("\(Double(p.cents) / 100, currency: "EUR")", size: 14, color: .secondaryText)
            Button("Add", id: "add-\(i)", icon: Icon("add")) { model.cart[i, default: 0] += 1 }
        }.background(.surface, cornerRadius: 12)
    }

    static func cartSheet(model: OrderModel) -> View {
        let lines = VStack(id: "cart-lines", spacing: 4) {}
            .follow { stack in
                // A stepper's title is shown as it is: its price is written in the kiosk's
                // language here, and again when the language changes (the model says which).
                let formats = LocaleFormats(language: model.language)
                stack.setChildren(
                    model.cart.keys.sorted().map { i in
                        Stepper(
                            "\(product(i).name) · \(formats.currency(Double(product(i).cents) / 100, code: "EUR"))", id: "line-\(i)",
                            value: Binding(get: { model.cart[i] ?? 0 }, set: { model.cart[i] = $0 == 0 ? nil : $0 }), in: 0...20)
                    })
            }
        let total = Label("", id: "total", size: 20, maxLines: 1).bold()
            .follow {
                let total = Double(model.totalCents) / 100
                $0.setText(model.takeaway ? "Total \(total, currency: "EUR") · takeaway" : "Total \(total, currency: "EUR")")
            }
        let spinner = ProgressView("Paying", id: "paying").follow { $0.isHidden = !model.paying }
        let pay = Button("Pay", id: "pay", style: .prominent) { model.confirming = true }
            .follow { $0.isEnabled = model.itemCount > 0 && !model.paying }
        return VStack(spacing: 12, padding: EdgeInsets(horizontal: 16, vertical: 8)) {
            Label("Your order", size: 22).bold()
            lines
            Divider()
            HStack(spacing: 12) {
                total.layoutPriority(1); Spacer(); spinner; pay.fixedSize()
            }
        }
    }
}
