/// The ordering demo's translations, in the String Catalog format an app keeps as
/// `Localizable.xcstrings` (Xcode's, and translators' tools'): English is the source, Arabic and
/// German its languages. The demo carries it in its binary; an app reads its file with
/// `StringCatalog(contentsOf:)`.
extension OrderApp {
    static let strings = #"""
        {
          "sourceLanguage": "en",
          "strings": {
            "Add": {
              "localizations": {
                "ar": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "أضف"
                  }
                },
                "de": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "Hinzufügen"
                  }
                }
              }
            },
            "Bakery": {
              "localizations": {
                "ar": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "المخبوزات"
                  }
                },
                "de": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "Backwaren"
                  }
                }
              }
            },
            "Cancel": {
              "localizations": {
                "ar": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "إلغاء"
                  }
                },
                "de": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "Abbrechen"
                  }
                }
              }
            },
            "Cart": {
              "localizations": {
                "ar": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "السلة"
                  }
                },
                "de": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "Warenkorb"
                  }
                }
              }
            },
            "Cart · %lld": {
              "localizations": {
                "ar": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "السلة · %lld"
                  }
                },
                "de": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "Warenkorb · %lld"
                  }
                }
              }
            },
            "Coffee": {
              "localizations": {
                "ar": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "القهوة"
                  }
                },
                "de": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "Kaffee"
                  }
                }
              }
            },
            "Continue": {
              "localizations": {
                "ar": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "متابعة"
                  }
                },
                "de": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "Weiter"
                  }
                }
              }
            },
            "Desserts": {
              "localizations": {
                "ar": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "الحلويات"
                  }
                },
                "de": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "Desserts"
                  }
                }
              }
            },
            "English": {
              "localizations": {
                "ar": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "العربية"
                  }
                },
                "de": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "Deutsch"
                  }
                }
              }
            },
            "Order": {
              "localizations": {
                "ar": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "الطلب"
                  }
                },
                "de": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "Bestellung"
                  }
                }
              }
            },
            "Pay": {
              "localizations": {
                "ar": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "ادفع"
                  }
                },
                "de": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "Bezahlen"
                  }
                }
              }
            },
            "Pay now?": {
              "localizations": {
                "ar": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "الدفع الآن؟"
                  }
                },
                "de": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "Jetzt bezahlen?"
                  }
                }
              }
            },
            "Salads": {
              "localizations": {
                "ar": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "السلطات"
                  }
                },
                "de": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "Salate"
                  }
                }
              }
            },
            "Sandwiches": {
              "localizations": {
                "ar": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "الساندويتشات"
                  }
                },
                "de": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "Sandwiches"
                  }
                }
              }
            },
            "Still there?": {
              "localizations": {
                "ar": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "هل ما زلت هنا؟"
                  }
                },
                "de": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "Noch da?"
                  }
                }
              }
            },
            "Takeaway": {
              "localizations": {
                "ar": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "سفري"
                  }
                },
                "de": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "Zum Mitnehmen"
                  }
                }
              }
            },
            "Tea": {
              "localizations": {
                "ar": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "الشاي"
                  }
                },
                "de": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "Tee"
                  }
                }
              }
            },
            "Thank you! Order %lld is on its way": {
              "localizations": {
                "ar": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "شكرًا! الطلب %lld في الطريق"
                  }
                },
                "de": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "Danke! Bestellung %lld ist unterwegs"
                  }
                }
              }
            },
            "The card terminal will ask for your card.": {
              "localizations": {
                "ar": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "سيطلب منك جهاز الدفع بطاقتك."
                  }
                },
                "de": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "Das Kartenterminal fragt nach deiner Karte."
                  }
                }
              }
            },
            "The order starts over in 20 seconds.": {
              "localizations": {
                "ar": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "سيبدأ الطلب من جديد بعد ٢٠ ثانية."
                  }
                },
                "de": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "Die Bestellung beginnt in 20 Sekunden von vorn."
                  }
                }
              }
            },
            "Total %@": {
              "localizations": {
                "ar": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "المجموع %@"
                  }
                },
                "de": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "Summe %@"
                  }
                }
              }
            },
            "Total %@ · takeaway": {
              "localizations": {
                "ar": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "المجموع %@ · سفري"
                  }
                },
                "de": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "Summe %@ · zum Mitnehmen"
                  }
                }
              }
            },
            "Your order": {
              "localizations": {
                "ar": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "طلبك"
                  }
                },
                "de": {
                  "stringUnit": {
                    "state": "translated",
                    "value": "Deine Bestellung"
                  }
                }
              }
            }
          },
          "version": "1.0"
        }
        """#
}
