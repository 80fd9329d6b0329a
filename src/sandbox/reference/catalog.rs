//! The product category catalog and the back-filing terms.

use crate::model::{BackFilingTerms, ProductCategory, ProductSubcategory};

/// A subcategory: `(name, description, example, is_frequent)`.
type Sub = (&'static str, &'static str, &'static str, bool);

/// Main categories with their subcategories: `(name, [subcategory])`.
static CATALOG: &[(&str, &[Sub])] = &[
    (
        "PHYSICAL",
        &[
            (
                "PHYSICAL_GENERAL",
                "General tangible goods",
                "Furniture, toys, electronics",
                true,
            ),
            (
                "GENERAL_CLOTHING",
                "Clothing",
                "T-shirts, jackets, shoes",
                false,
            ),
            (
                "GROCERY_FOOD",
                "Grocery food",
                "Bread, milk, fresh produce",
                false,
            ),
            (
                "CATERING",
                "Catering",
                "Prepared meals delivered for events",
                false,
            ),
            (
                "MACHINERY",
                "Machinery",
                "Industrial presses, forklifts",
                false,
            ),
            (
                "RAW_MATERIALS",
                "Raw materials",
                "Steel sheet, lumber, resin",
                false,
            ),
            (
                "MEDICAL_DEVICES",
                "Medical devices",
                "Blood pressure monitors, crutches",
                false,
            ),
            (
                "MEDICINES",
                "Medicines - over the counter",
                "Pain relievers, cough syrup",
                false,
            ),
            (
                "SUPPLEMENTS",
                "Supplements",
                "Vitamins, protein powder",
                false,
            ),
            (
                "ORAL_HYGIENE",
                "Oral hygiene",
                "Toothpaste, toothbrushes, dental floss",
                false,
            ),
            (
                "FEMININE_HYGIENE",
                "Feminine hygiene",
                "Tampons, sanitary pads",
                false,
            ),
            (
                "NEWSPAPERS",
                "Newspapers",
                "Daily and weekly newspapers",
                false,
            ),
            ("PERIODICALS", "Periodicals", "Magazines, journals", false),
            (
                "NUTRITION_BARS",
                "Nutrition bars",
                "Protein bars, granola bars",
                false,
            ),
            (
                "UTILITIES_FUEL",
                "Utilities and fuel",
                "Heating oil, propane, electricity",
                false,
            ),
        ],
    ),
    (
        "DIGITAL",
        &[
            (
                "DIGITAL_GENERAL",
                "General digital goods",
                "E-books, music and video downloads",
                false,
            ),
            (
                "SAAS",
                "Software as a service",
                "Hosted software used through a browser",
                true,
            ),
            (
                "B2B_SAAS",
                "B2B SaaS",
                "Accounting or CRM software sold to businesses",
                false,
            ),
            (
                "B2C_SAAS",
                "B2C SaaS",
                "Photo editing or fitness apps sold to consumers",
                false,
            ),
            (
                "IAAS",
                "Infrastructure as a service",
                "Cloud servers, hosted storage",
                false,
            ),
            (
                "SOFTWARE_DOWNLOADED",
                "Prewritten software, downloaded",
                "Off-the-shelf software delivered by download",
                false,
            ),
            (
                "SOFTWARE_ON_PERSONAL_PROPERTY",
                "Prewritten software on physical media",
                "Off-the-shelf software on a disc or USB drive",
                false,
            ),
            (
                "CUSTOM_SOFTWARE_DOWNLOADED",
                "Custom software, downloaded",
                "Software written for one customer, delivered by download",
                false,
            ),
            (
                "CUSTOM_SOFTWARE_ON_PERSONAL_PROPERTY",
                "Custom software on physical media",
                "Software written for one customer, on a disc or USB drive",
                false,
            ),
            (
                "CUSTOMIZATION_OF_SOFTWARE",
                "Customization of software",
                "Configuring or extending software for a customer",
                false,
            ),
        ],
    ),
    (
        "SERVICE",
        &[
            (
                "SERVICE_GENERAL",
                "General services",
                "Services with no more specific subcategory",
                false,
            ),
            (
                "PROFESSIONAL_SERVICE",
                "Professional services",
                "Legal, accounting, consulting",
                false,
            ),
            (
                "BUSINESS_SERVICE",
                "Business services",
                "Data processing, staffing, bookkeeping",
                false,
            ),
            (
                "PERSONAL_SERVICE",
                "Personal services",
                "Hair cutting, dry cleaning, fitness training",
                false,
            ),
            (
                "TANGIBLE_PROPERTY_SERVICE",
                "Services to tangible property",
                "Repairs, cleaning or alteration of goods",
                false,
            ),
            (
                "REAL_PROPERTY_SERVICE",
                "Services to real property",
                "Landscaping, janitorial services, pest control",
                false,
            ),
            (
                "AMUSEMENT_SERVICE",
                "Amusement services",
                "Admissions to events, amusement parks",
                false,
            ),
            (
                "MEDICAL_SERVICES",
                "Medical services",
                "Doctor visits, lab tests",
                false,
            ),
            (
                "SECURITY_SERVICES_ELECTRONIC_MONITORING",
                "Security and electronic monitoring",
                "Alarm monitoring, security guards",
                false,
            ),
            (
                "GENERAL_OPTIONAL_MAINTENANCE_CONTRACTS",
                "Optional maintenance contracts",
                "Extended warranties, service plans",
                false,
            ),
        ],
    ),
    (
        "MISCELLANEOUS",
        &[
            (
                "SHIPPING",
                "Shipping",
                "Delivery charges billed to the customer",
                true,
            ),
            ("HANDLING", "Handling", "Handling or packing charges", false),
            (
                "GIFT_CARD",
                "Gift cards",
                "Gift cards and stored-value cards",
                false,
            ),
            (
                "GIFT_WRAPPING",
                "Gift wrapping",
                "Gift wrapping charges",
                false,
            ),
            (
                "DISCOUNT",
                "Discounts",
                "Order-level discounts and coupons",
                false,
            ),
            (
                "CREDIT_CARD_SURCHARGES",
                "Credit card surcharges",
                "Surcharges for paying by card",
                false,
            ),
            (
                "MISCELLANEOUS_EXEMPT",
                "Exempt charges",
                "Charges exempt from tax, such as deposits",
                false,
            ),
        ],
    ),
    (
        "UNKNOWN",
        &[("UNKNOWN", "Unknown", "Products not yet classified", false)],
    ),
];

/// The catalog. See [`super::product_catalog`].
pub(super) fn catalog() -> Vec<ProductCategory> {
    CATALOG
        .iter()
        .map(|(name, subs)| ProductCategory {
            name: (*name).to_owned(),
            subcategories: subs
                .iter()
                .map(
                    |(name, description, example, frequent)| ProductSubcategory {
                        name: (*name).to_owned(),
                        description: (*description).to_owned(),
                        example: (*example).to_owned(),
                        is_frequent: Some(*frequent),
                    },
                )
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
