//! What each demo organization looks like: its business, registrations and catalogue size.

use crate::model::{FilingFrequency as F, RegistrationStatus as S, TaxType as T};

/// One registration an organization holds.
pub struct RegSpec {
    pub country: &'static str,
    pub state: &'static str,
    pub status: S,
    pub frequency: F,
    /// Days after the end of a period that the return is due.
    pub filing_days: i64,
    pub tax_type: Option<T>,
    /// A frequency change the jurisdiction has announced, effective on the next 1 January.
    pub next_frequency: Option<F>,
}

/// A registration outside the US (no tax type).
const fn reg(
    country: &'static str,
    state: &'static str,
    status: S,
    frequency: F,
    filing_days: i64,
) -> RegSpec {
    RegSpec {
        country,
        state,
        status,
        frequency,
        filing_days,
        tax_type: None,
        next_frequency: None,
    }
}

/// A US registration.
const fn us(state: &'static str, status: S, frequency: F, filing_days: i64, tax: T) -> RegSpec {
    RegSpec {
        country: "US",
        state,
        status,
        frequency,
        filing_days,
        tax_type: Some(tax),
        next_frequency: None,
    }
}

/// What an organization means a US state without a registration to show, by its own sales: the
/// demo's transactions are shaped so that the state's figures, counted by its rule, say so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aim {
    /// At least [`crate::rules::APPROACHING_AT`] of the thresholds, not met.
    Approaching,
    /// Approaching, with sales of the last 90 days that carry it over the thresholds within a
    /// year at their pace (a state with a rolling window, so that the forecast sees it at any
    /// anchor).
    Crossing,
    /// The thresholds met.
    Exposed,
}

/// A product line: a base product and the variants it is sold in.
pub struct ProductLine {
    pub name: &'static str,
    pub category: &'static str,
    pub subcategory: &'static str,
    pub sku: &'static str,
    pub description: &'static str,
    pub variants: &'static [&'static str],
}

const fn line(
    name: &'static str,
    category: &'static str,
    subcategory: &'static str,
    sku: &'static str,
    description: &'static str,
    variants: &'static [&'static str],
) -> ProductLine {
    ProductLine {
        name,
        category,
        subcategory,
        sku,
        description,
        variants,
    }
}

/// The shape of one demo organization.
pub struct Profile {
    pub legal_name: &'static str,
    pub domain: &'static str,
    pub registrations: &'static [RegSpec],
    /// Member state of identification of the EU one-stop-shop registration, if there is one,
    /// and the countries it covers (the last one removed).
    pub oss: Option<(&'static str, &'static [&'static str])>,
    /// Jurisdictions with physical presence, cycled through for the physical nexus records.
    pub physical_places: &'static [(&'static str, &'static str)],
    pub physical_nexus: usize,
    /// Whether every US state gets an economic nexus row (otherwise only those with activity).
    pub nexus_all_states: bool,
    /// Whether the generator places on purpose, around the anchor, what needs attention: returns
    /// overdue and coming due, certificates expiring and just expired, states exposed and
    /// approaching without a registration.
    pub attention: bool,
    /// US states without a registration whose sales are made to approach or meet their
    /// thresholds (see [`Aim`]).
    pub nexus_aims: &'static [(&'static str, Aim)],
    pub customers: usize,
    /// Share of customers outside the US, in percent: `(Canada, EU)`.
    pub foreign_customers: (u32, u32),
    pub exemptions: usize,
    pub products: &'static [ProductLine],
    pub product_count: usize,
    /// Typical monthly taxable sales in one registered state, in cents.
    pub monthly_sales_cents: (i64, i64),
}

/// The first demo organization: a maker of building sensors with a monitoring subscription,
/// selling across North America and into the EU.
pub static FULL: Profile = Profile {
    legal_name: "Lumenfield Systems, Inc.",
    domain: "lumenfield.com",
    registrations: &[
        us("CA", S::Registered, F::Monthly, 30, T::SalesTax),
        us("ID", S::Registered, F::Quarterly, 20, T::SalesAndUseTax),
        us("TX", S::Registered, F::Monthly, 20, T::SalesAndUseTax),
        us("NY", S::Registered, F::Quarterly, 20, T::SalesAndUseTax),
        RegSpec {
            country: "US",
            state: "WA",
            status: S::Registered,
            frequency: F::Monthly,
            filing_days: 25,
            tax_type: Some(T::SalesTax),
            next_frequency: Some(F::Quarterly),
        },
        us("AL", S::Registered, F::Monthly, 20, T::SalesTax),
        us("FL", S::Registered, F::Monthly, 20, T::SalesTax),
        us("IL", S::Registered, F::Quarterly, 20, T::SalesTax),
        us("PA", S::Registered, F::Monthly, 20, T::SalesTax),
        us("OH", S::Registered, F::SemiAnnually, 23, T::SalesTax),
        us("GA", S::Processing, F::Unknown, 20, T::SalesTax),
        us("NC", S::Registered, F::Quarterly, 20, T::SalesTax),
        us("NJ", S::Registered, F::Quarterly, 20, T::SalesTax),
        us("MA", S::Registered, F::Monthly, 20, T::SalesTax),
        us("CO", S::Registered, F::Monthly, 20, T::SalesTax),
        us("AZ", S::Validating, F::Monthly, 20, T::SalesTax),
        us("MI", S::Deregistering, F::Monthly, 20, T::SalesTax),
        us("VA", S::Deregistered, F::Quarterly, 20, T::SalesTax),
        us("TN", S::Cancelled, F::Unknown, 20, T::SalesTax),
        us("MN", S::AwaitingClarification, F::Unknown, 20, T::SalesTax),
        us("UT", S::SelfManaged, F::Quarterly, 30, T::SalesTax),
        us("WI", S::Unregistered, F::Unknown, 20, T::UseTax),
        us("NV", S::Registered, F::Annually, 30, T::SalesTax),
        us("MD", S::Registered, F::Quarterly, 20, T::SalesTax),
        reg("CA", "", S::Registered, F::Quarterly, 30),
        reg("CA", "BC", S::Registered, F::Monthly, 30),
        reg("CA", "QC", S::Registered, F::Annually, 90),
        reg("CA", "SK", S::Processing, F::Unknown, 20),
        reg("CA", "MB", S::Registered, F::AnnualFiscalYear, 30),
        reg("ZZ_EU", "", S::Registered, F::Quarterly, 30),
    ],
    oss: Some(("IE", &["DE", "FR", "ES", "IT", "NL", "AT", "PL", "BE"])),
    physical_places: &[
        ("US", "CA"),
        ("US", "TX"),
        ("US", "WA"),
        ("US", "CA"),
        ("US", "NY"),
        ("US", "ID"),
        ("US", "CO"),
        ("US", "IL"),
        ("US", "GA"),
        ("US", "PA"),
        ("US", "NC"),
        ("US", "FL"),
        ("US", "MA"),
        ("US", "AZ"),
        ("US", "MI"),
        ("US", "NJ"),
        ("US", "OH"),
        ("US", "UT"),
        ("US", "VA"),
        ("US", "TN"),
        ("US", "MN"),
        ("US", "WI"),
        ("US", "NV"),
        ("US", "MD"),
        ("US", "AL"),
        ("CA", "BC"),
        ("CA", "QC"),
        ("CA", "ON"),
        ("DE", "BE"),
        ("IE", "D"),
    ],
    physical_nexus: 40,
    nexus_all_states: true,
    attention: true,
    nexus_aims: &[
        ("LA", Aim::Approaching),
        ("KY", Aim::Approaching),
        ("MS", Aim::Crossing),
        ("ME", Aim::Crossing),
        ("SC", Aim::Exposed),
    ],
    customers: 200,
    foreign_customers: (12, 8),
    exemptions: 400,
    products: &[
        line(
            "Sensor Hub",
            "PHYSICAL",
            "PHYSICAL_GENERAL",
            "LF-HUB",
            "Wireless hub that connects up to 64 sensors.",
            &["Gen 2", "Gen 3"],
        ),
        line(
            "Motion Sensor",
            "PHYSICAL",
            "PHYSICAL_GENERAL",
            "LF-MOT",
            "Passive infrared motion sensor, battery powered.",
            &["White", "Black", "4-pack"],
        ),
        line(
            "Door Contact Sensor",
            "PHYSICAL",
            "PHYSICAL_GENERAL",
            "LF-DCS",
            "Magnetic contact sensor for doors and windows.",
            &["Single", "6-pack"],
        ),
        line(
            "Leak Detector",
            "PHYSICAL",
            "PHYSICAL_GENERAL",
            "LF-LEAK",
            "Water leak detector with an 85 dB siren.",
            &["Standard", "Probe kit"],
        ),
        line(
            "Smart Thermostat",
            "PHYSICAL",
            "PHYSICAL_GENERAL",
            "LF-THERM",
            "Programmable thermostat with occupancy learning.",
            &["Residential", "Commercial"],
        ),
        line(
            "Indoor Camera",
            "PHYSICAL",
            "PHYSICAL_GENERAL",
            "LF-CAMI",
            "1080p indoor camera with local recording.",
            &["Standard", "Pro"],
        ),
        line(
            "Outdoor Camera",
            "PHYSICAL",
            "PHYSICAL_GENERAL",
            "LF-CAMO",
            "Weatherproof 2K camera with night vision.",
            &["Standard", "Solar"],
        ),
        line(
            "Mounting Kit",
            "PHYSICAL",
            "PHYSICAL_GENERAL",
            "LF-MNT",
            "Brackets, anchors and adhesive pads for sensors.",
            &["Small", "Large"],
        ),
        line(
            "Replacement Battery Pack",
            "PHYSICAL",
            "PHYSICAL_GENERAL",
            "LF-BAT",
            "Lithium battery pack for sensors and cameras.",
            &["2-pack", "10-pack"],
        ),
        line(
            "Installer Toolkit",
            "PHYSICAL",
            "MACHINERY",
            "LF-TOOL",
            "Tool case for certified installers.",
            &["Standard"],
        ),
        line(
            "Logo Hoodie",
            "PHYSICAL",
            "GENERAL_CLOTHING",
            "LF-HOOD",
            "Cotton hoodie with the Lumenfield logo.",
            &["S", "M", "L", "XL"],
        ),
        line(
            "Monitoring Cloud",
            "DIGITAL",
            "B2B_SAAS",
            "LF-CLOUD",
            "Hosted monitoring dashboard for business sites, billed monthly.",
            &["Starter", "Business", "Enterprise"],
        ),
        line(
            "Home App Premium",
            "DIGITAL",
            "B2C_SAAS",
            "LF-APP",
            "Premium features of the consumer mobile app.",
            &["Monthly", "Annual"],
        ),
        line(
            "Config Studio",
            "DIGITAL",
            "SOFTWARE_DOWNLOADED",
            "LF-STUDIO",
            "Desktop software to plan and configure installations.",
            &["Single seat", "Team"],
        ),
        line(
            "Custom Integration Package",
            "DIGITAL",
            "CUSTOM_SOFTWARE_DOWNLOADED",
            "LF-INTEG",
            "Integration built to a customer's building management system.",
            &["Standard"],
        ),
        line(
            "Data Retention",
            "DIGITAL",
            "IAAS",
            "LF-RET",
            "Extended cloud storage for video and sensor history.",
            &["1 TB", "5 TB"],
        ),
        line(
            "On-site Installation",
            "SERVICE",
            "TANGIBLE_PROPERTY_SERVICE",
            "LF-INST",
            "Installation of sensors and hubs by a certified technician.",
            &["Per device", "Per site"],
        ),
        line(
            "Professional Monitoring",
            "SERVICE",
            "SECURITY_SERVICES_ELECTRONIC_MONITORING",
            "LF-PMON",
            "Round-the-clock alarm monitoring with dispatch.",
            &["Monthly", "Annual"],
        ),
        line(
            "Onboarding Workshop",
            "SERVICE",
            "PROFESSIONAL_SERVICE",
            "LF-WORK",
            "Remote training session for facility teams.",
            &["Half day", "Full day"],
        ),
        line(
            "Extended Warranty",
            "SERVICE",
            "GENERAL_OPTIONAL_MAINTENANCE_CONTRACTS",
            "LF-WAR",
            "Optional warranty extension with advance replacement.",
            &["2 years", "3 years"],
        ),
        line(
            "Device Repair",
            "SERVICE",
            "TANGIBLE_PROPERTY_SERVICE",
            "LF-REP",
            "Out-of-warranty repair of a returned device.",
            &["Standard"],
        ),
        line(
            "Ground Shipping",
            "MISCELLANEOUS",
            "SHIPPING",
            "LF-SHIP",
            "Ground delivery charge.",
            &["Standard"],
        ),
        line(
            "Expedited Handling",
            "MISCELLANEOUS",
            "HANDLING",
            "LF-HAND",
            "Priority picking and packing.",
            &["Standard"],
        ),
        line(
            "Gift Card",
            "MISCELLANEOUS",
            "GIFT_CARD",
            "LF-GIFT",
            "Store gift card.",
            &["$25", "$50", "$100"],
        ),
    ],
    product_count: 60,
    monthly_sales_cents: (1_500_000, 9_000_000),
};

/// The second demo organization: a small bakeware shop, mostly in the north-east US.
pub static SMALL: Profile = Profile {
    legal_name: "Harbor & Pine Bakeware LLC",
    domain: "harborandpine.com",
    registrations: &[
        us("NY", S::Registered, F::Quarterly, 20, T::SalesAndUseTax),
        us("NJ", S::Registered, F::Quarterly, 20, T::SalesTax),
        us("PA", S::Registered, F::Monthly, 20, T::SalesTax),
        us("MA", S::Registered, F::Annually, 20, T::SalesTax),
        us("CT", S::Registered, F::Quarterly, 20, T::SalesTax),
        us("FL", S::Validating, F::Unknown, 20, T::SalesTax),
        us("IL", S::Deregistered, F::Quarterly, 20, T::SalesTax),
        reg("CA", "", S::Registered, F::Annually, 90),
    ],
    oss: None,
    physical_places: &[("US", "NY"), ("US", "NJ"), ("US", "PA"), ("US", "MA")],
    physical_nexus: 6,
    nexus_all_states: false,
    attention: false,
    nexus_aims: &[],
    customers: 20,
    foreign_customers: (10, 0),
    exemptions: 30,
    products: &[
        line(
            "Cast Iron Skillet",
            "PHYSICAL",
            "PHYSICAL_GENERAL",
            "HP-SKIL",
            "Pre-seasoned cast iron skillet.",
            &["8 in", "10 in", "12 in"],
        ),
        line(
            "Loaf Pan",
            "PHYSICAL",
            "PHYSICAL_GENERAL",
            "HP-LOAF",
            "Aluminized steel loaf pan.",
            &["1 lb", "2 lb"],
        ),
        line(
            "Linen Apron",
            "PHYSICAL",
            "GENERAL_CLOTHING",
            "HP-APRN",
            "Washed linen apron with pockets.",
            &["Natural", "Charcoal"],
        ),
        line(
            "Sourdough Flour",
            "PHYSICAL",
            "GROCERY_FOOD",
            "HP-FLOUR",
            "Stone-ground bread flour.",
            &["5 lb"],
        ),
        line(
            "Recipe e-Book",
            "DIGITAL",
            "DIGITAL_GENERAL",
            "HP-EBOOK",
            "Downloadable book of seasonal recipes.",
            &["Standard"],
        ),
        line(
            "Baking Class",
            "SERVICE",
            "PERSONAL_SERVICE",
            "HP-CLASS",
            "Hands-on bread baking class.",
            &["In person", "Online"],
        ),
        line(
            "Gift Card",
            "MISCELLANEOUS",
            "GIFT_CARD",
            "HP-GIFT",
            "Shop gift card.",
            &["$25", "$50"],
        ),
    ],
    product_count: 14,
    monthly_sales_cents: (300_000, 1_800_000),
};
