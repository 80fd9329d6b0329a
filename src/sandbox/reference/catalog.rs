//! The product category catalog and the back-filing terms.

use crate::model::{BackFilingTerms, ProductCategory, ProductSubcategory};

/// `(name, label)` of a category or subcategory.
type Named = (&'static str, &'static str);

/// Main categories with their subcategories: `(name, label, [(name, label)])`.
static CATALOG: &[(&str, &str, &[Named])] = &[
    (
        "PHYSICAL",
        "Physical goods",
        &[
            ("PHYSICAL_GENERAL", "General tangible goods"),
            ("GENERAL_CLOTHING", "Clothing"),
            ("GROCERY_FOOD", "Grocery food"),
            ("CATERING", "Catering"),
            ("MACHINERY", "Machinery"),
            ("RAW_MATERIALS", "Raw materials"),
            ("MEDICAL_DEVICES", "Medical devices"),
            ("MEDICINES", "Medicines - over the counter"),
            ("SUPPLEMENTS", "Supplements"),
            ("ORAL_HYGIENE", "Oral hygiene"),
            ("FEMININE_HYGIENE", "Feminine hygiene"),
            ("NEWSPAPERS", "Newspapers"),
            ("PERIODICALS", "Periodicals"),
            ("NUTRITION_BARS", "Nutrition bars"),
            ("UTILITIES_FUEL", "Utilities and fuel"),
        ],
    ),
    (
        "DIGITAL",
        "Digital products",
        &[
            ("DIGITAL_GENERAL", "General digital goods"),
            ("SAAS", "Software as a service"),
            ("B2B_SAAS", "B2B SaaS"),
            ("B2C_SAAS", "B2C SaaS"),
            ("IAAS", "Infrastructure as a service"),
            ("SOFTWARE_DOWNLOADED", "Prewritten software, downloaded"),
            (
                "SOFTWARE_ON_PERSONAL_PROPERTY",
                "Prewritten software on physical media",
            ),
            ("CUSTOM_SOFTWARE_DOWNLOADED", "Custom software, downloaded"),
            (
                "CUSTOM_SOFTWARE_ON_PERSONAL_PROPERTY",
                "Custom software on physical media",
            ),
            ("CUSTOMIZATION_OF_SOFTWARE", "Customization of software"),
        ],
    ),
    (
        "SERVICE",
        "Services",
        &[
            ("SERVICE_GENERAL", "General services"),
            ("PROFESSIONAL_SERVICE", "Professional services"),
            ("BUSINESS_SERVICE", "Business services"),
            ("PERSONAL_SERVICE", "Personal services"),
            ("TANGIBLE_PROPERTY_SERVICE", "Services to tangible property"),
            ("REAL_PROPERTY_SERVICE", "Services to real property"),
            ("AMUSEMENT_SERVICE", "Amusement services"),
            ("MEDICAL_SERVICES", "Medical services"),
            (
                "SECURITY_SERVICES_ELECTRONIC_MONITORING",
                "Security and electronic monitoring",
            ),
            (
                "GENERAL_OPTIONAL_MAINTENANCE_CONTRACTS",
                "Optional maintenance contracts",
            ),
        ],
    ),
    (
        "MISCELLANEOUS",
        "Miscellaneous",
        &[
            ("SHIPPING", "Shipping"),
            ("HANDLING", "Handling"),
            ("GIFT_CARD", "Gift cards"),
            ("GIFT_WRAPPING", "Gift wrapping"),
            ("DISCOUNT", "Discounts"),
            ("CREDIT_CARD_SURCHARGES", "Credit card surcharges"),
            ("MISCELLANEOUS_EXEMPT", "Exempt charges"),
        ],
    ),
    ("UNKNOWN", "Not yet classified", &[("UNKNOWN", "Unknown")]),
];

/// The catalog. See [`super::product_catalog`].
pub(super) fn catalog() -> Vec<ProductCategory> {
    CATALOG
        .iter()
        .map(|(name, label, subs)| ProductCategory {
            name: (*name).to_owned(),
            label: (*label).to_owned(),
            subcategories: subs
                .iter()
                .map(|(name, label)| ProductSubcategory {
                    name: (*name).to_owned(),
                    label: (*label).to_owned(),
                })
                .collect(),
        })
        .collect()
}

/// The current terms. See [`super::back_filing_terms`].
pub(super) fn terms() -> BackFilingTerms {
    BackFilingTerms {
        id: "bft_2026_10".into(),
        version: 4,
        timeline: "Back filings are prepared once the registration is active and all credentials \
                   are on file. Returns for past periods are usually submitted within 30 days of \
                   approval; jurisdictions may take a further 4 to 8 weeks to confirm receipt."
            .into(),
        penalties_and_interest: "Returns filed after their original due date may attract late \
                                 filing and late payment penalties as well as interest, \
                                 assessed by the jurisdiction. Any penalties and interest are \
                                 payable by you and are shown on the filing once the \
                                 jurisdiction assesses them."
            .into(),
        what_you_are_approving: "You approve filing returns for the listed past periods using \
                                 the transactions recorded for them, and paying the tax due \
                                 from the connected bank account. Transactions added for those \
                                 periods after approval are not included."
            .into(),
        fees: "Each back-filed return is charged at the standard per-return filing fee of your \
               plan. Jurisdiction fees, penalties and interest are passed through at cost."
            .into(),
        help_article_url: Some("https://support.taxdash.dev/articles/back-filing".into()),
        help_article_label: "Learn how back filing works".into(),
    }
}
