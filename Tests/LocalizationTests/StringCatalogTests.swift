import Testing
@testable import Localization

/// A catalog in Xcode's format: plain strings, plural variations, a substitution, the
/// fallbacks, and JSON that is not a catalog.
@Suite struct StringCatalogTests {
    static let json = #"""
        {
          "sourceLanguage" : "en",
          "version" : "1.0",
          "strings" : {
            "Buy a ticket" : {
              "localizations" : {
                "ar" : { "stringUnit" : { "state" : "translated", "value" : "اشترِ تذكرة" } },
                "de" : { "stringUnit" : { "state" : "translated", "value" : "Fahrkarte kaufen" } }
              }
            },
            "%lld tickets" : {
              "localizations" : {
                "en" : { "variations" : { "plural" : {
                  "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld ticket" } },
                  "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld tickets" } } } } },
                "ar" : { "variations" : { "plural" : {
                  "zero" : { "stringUnit" : { "state" : "translated", "value" : "لا تذاكر" } },
                  "one" : { "stringUnit" : { "state" : "translated", "value" : "تذكرة واحدة" } },
                  "two" : { "stringUnit" : { "state" : "translated", "value" : "تذكرتان" } },
                  "few" : { "stringUnit" : { "state" : "translated", "value" : "%lld تذاكر" } },
                  "many" : { "stringUnit" : { "state" : "translated", "value" : "%lld تذكرة" } },
                  "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld تذكرة" } } } } }
              }
            },
            "%lld adults, %lld children" : {
              "localizations" : {
                "en" : {
                  "stringUnit" : { "state" : "translated", "value" : "%#@adults@, %#@children@" },
                  "substitutions" : {
                    "adults" : { "argNum" : 1, "formatSpecifier" : "lld", "variations" : { "plural" : {
                      "one" : { "stringUnit" : { "state" : "translated", "value" : "%arg adult" } },
                      "other" : { "stringUnit" : { "state" : "translated", "value" : "%arg adults" } } } } },
                    "children" : { "argNum" : 2, "formatSpecifier" : "lld", "variations" : { "plural" : {
                      "one" : { "stringUnit" : { "state" : "translated", "value" : "%arg child" } },
                      "other" : { "stringUnit" : { "state" : "translated", "value" : "%arg children" } } } } }
                  }
                }
              }
            },
            "Total: %@" : {
              "localizations" : { "de" : { "stringUnit" : { "state" : "translated", "value" : "Summe: %@" } } }
            },
            "Not yet" : { "localizations" : { "de" : { "stringUnit" : { "state" : "new", "value" : "" } } } }
          }
        }
        """#

    func lookup(_ key: LocalizedStringKey, _ language: String, digits: LocaleFormats.Digits = .standard) throws -> String? {
        let catalog = try StringCatalog(json: Array(Self.json.utf8))
        return catalog.string(for: key, language: language, formats: LocaleFormats(language: language, digits: digits))
    }

    @Test func pluralFormsByLanguage() throws {
        func tickets(_ n: Int, _ language: String, digits: LocaleFormats.Digits = .standard) throws -> String? {
            try lookup("\(n) tickets", language, digits: digits)
        }
        #expect(try tickets(1, "en") == "1 ticket")
        #expect(try tickets(2, "en") == "2 tickets")
        #expect(
            try [0, 1, 2, 3, 11, 100].map { try tickets($0, "ar") } == [
                "لا تذاكر", "تذكرة واحدة", "تذكرتان", "3 تذاكر", "11 تذكرة", "100 تذكرة",
            ])
        #expect(try tickets(3, "ar", digits: .native) == "٣ تذاكر")
        // German has no string for it: English, the source language.
        #expect(try tickets(1, "de") == "1 ticket")
    }

    @Test func keysFallBackAndInterpolationsKeepTheirValues() throws {
        #expect(try lookup("Buy a ticket", "ar-AE") == "اشترِ تذكرة")
        #expect(try lookup("Buy a ticket", "fr") == nil)  // the key itself is shown, and logged
        #expect(try lookup("Total: \("€5")", "de") == "Summe: €5")
        #expect(try lookup("Not yet", "de") == nil)  // a string still "new" and empty is missing
        #expect(try lookup("\(1) adults, \(3) children", "en") == "1 adult, 3 children")
        #expect(StringCatalog.hasWords("%lld tickets") && !StringCatalog.hasWords("%@") && !StringCatalog.hasWords("%1$lld · %2$@"))
        let key: LocalizedStringKey = "\(7) tickets at 50% off"
        #expect(key.key == "%lld tickets at 50%% off")
    }

    @Test func formatStringsFillAsPrintfDoes() {
        let en = LocaleFormats(language: "en"), de = LocaleFormats(language: "de")
        #expect(FormatString.fill("%2$@ %1$lld", with: [.int(3), .string("x")], formats: en) == "x 3")
        #expect(FormatString.fill("%.2f%%", with: [.double(2.5)], formats: de) == "2,50%")
        #expect(FormatString.fill("%@ and %@", with: [.string("a")], formats: en) == "a and %@")
        #expect(FormatString.fill("100%", with: [], formats: en) == "100%")
        #expect(FormatString.fill("%lf km", with: [.double(2.5)], formats: de) == "2,5 km")
        #expect(FormatString.fill("%lld", with: [.int(42)], formats: LocaleFormats(language: "fa")) == "۴۲")
    }

    @Test(arguments: [
        "", "{", "[]", #"{"strings":{}}"#, #"{"sourceLanguage":"","strings":{}}"#,
        #"{"sourceLanguage":"en","strings":{"a":{"localizations":{"en":{"stringUnit":7}}}}}"#,
    ])
    func whatIsNotACatalogIsSaid(_ text: String) {
        #expect(throws: StringCatalogError.self) { try StringCatalog(json: Array(text.utf8)) }
    }
}
