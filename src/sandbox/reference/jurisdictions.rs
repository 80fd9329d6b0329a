//! Jurisdiction tables: US states and DC, Canadian provinces and territories, EU member states.
//!
//! Rates are written as decimal text (a fraction, `0.0725` for 7.25 %) so that no float is ever
//! involved; thresholds are whole currency units.

/// One row of a jurisdiction table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Jurisdiction {
    /// State, province or country code (ISO 3166-2 subdivision part, or ISO 3166-1 alpha-2 for
    /// EU member states).
    pub code: &'static str,
    pub name: &'static str,
    /// Combined rate as a decimal fraction: the state base rate in the US, GST plus PST/QST (or
    /// the HST) in Canada, the standard VAT rate in the EU.
    pub rate: &'static str,
    /// Economic nexus sales threshold in whole local currency units; 0 where there is none.
    pub threshold_sales: u32,
    /// Economic nexus transaction-count threshold; 0 where there is none.
    pub threshold_transactions: u32,
    /// Whether both thresholds must be met (rather than either).
    pub thresholds_both: bool,
    /// The tax authority's online portal, when the table knows it.
    pub portal: Option<&'static str>,
}

const fn us(
    code: &'static str,
    name: &'static str,
    rate: &'static str,
    threshold_sales: u32,
    threshold_transactions: u32,
    portal: &'static str,
) -> Jurisdiction {
    Jurisdiction {
        code,
        name,
        rate,
        threshold_sales,
        threshold_transactions,
        thresholds_both: false,
        portal: Some(portal),
    }
}

const fn both(j: Jurisdiction) -> Jurisdiction {
    Jurisdiction {
        thresholds_both: true,
        ..j
    }
}

const fn other(code: &'static str, name: &'static str, rate: &'static str) -> Jurisdiction {
    Jurisdiction {
        code,
        name,
        rate,
        threshold_sales: 0,
        threshold_transactions: 0,
        thresholds_both: false,
        portal: None,
    }
}

const fn with_portal(j: Jurisdiction, portal: &'static str) -> Jurisdiction {
    Jurisdiction {
        portal: Some(portal),
        ..j
    }
}

/// The 50 states and the District of Columbia.
pub static US_STATES: [Jurisdiction; 51] = [
    us(
        "AL",
        "Alabama",
        "0.04",
        250_000,
        0,
        "https://myalabamataxes.alabama.gov",
    ),
    us("AK", "Alaska", "0", 100_000, 0, "https://arsstc.org"),
    us("AZ", "Arizona", "0.056", 100_000, 0, "https://aztaxes.gov"),
    us(
        "AR",
        "Arkansas",
        "0.065",
        100_000,
        200,
        "https://atap.arkansas.gov",
    ),
    us(
        "CA",
        "California",
        "0.0725",
        500_000,
        0,
        "https://onlineservices.cdtfa.ca.gov",
    ),
    us(
        "CO",
        "Colorado",
        "0.029",
        100_000,
        0,
        "https://mytaxes.colorado.gov",
    ),
    both(us(
        "CT",
        "Connecticut",
        "0.0635",
        100_000,
        200,
        "https://myconnect.ct.gov",
    )),
    us("DE", "Delaware", "0", 0, 0, "https://revenue.delaware.gov"),
    us(
        "DC",
        "District of Columbia",
        "0.06",
        100_000,
        200,
        "https://mytax.dc.gov",
    ),
    us(
        "FL",
        "Florida",
        "0.06",
        100_000,
        0,
        "https://floridarevenue.com/taxes/eservices",
    ),
    us(
        "GA",
        "Georgia",
        "0.04",
        100_000,
        200,
        "https://gtc.dor.ga.gov",
    ),
    us(
        "HI",
        "Hawaii",
        "0.04",
        100_000,
        200,
        "https://hitax.hawaii.gov",
    ),
    us(
        "ID",
        "Idaho",
        "0.06",
        100_000,
        0,
        "https://idahotap.gentax.us",
    ),
    us(
        "IL",
        "Illinois",
        "0.0625",
        100_000,
        0,
        "https://mytax.illinois.gov",
    ),
    us(
        "IN",
        "Indiana",
        "0.07",
        100_000,
        0,
        "https://intime.dor.in.gov",
    ),
    us(
        "IA",
        "Iowa",
        "0.06",
        100_000,
        0,
        "https://govconnect.iowa.gov",
    ),
    us(
        "KS",
        "Kansas",
        "0.065",
        100_000,
        0,
        "https://www.kdor.ks.gov/Apps/KSWebTax",
    ),
    us(
        "KY",
        "Kentucky",
        "0.06",
        100_000,
        200,
        "https://mytaxes.ky.gov",
    ),
    us(
        "LA",
        "Louisiana",
        "0.05",
        100_000,
        0,
        "https://latap.revenue.louisiana.gov",
    ),
    us(
        "ME",
        "Maine",
        "0.055",
        100_000,
        0,
        "https://revenue.maine.gov",
    ),
    us(
        "MD",
        "Maryland",
        "0.06",
        100_000,
        200,
        "https://interactive.marylandtaxes.gov",
    ),
    us(
        "MA",
        "Massachusetts",
        "0.0625",
        100_000,
        0,
        "https://mtc.dor.state.ma.us",
    ),
    us(
        "MI",
        "Michigan",
        "0.06",
        100_000,
        200,
        "https://mto.treasury.michigan.gov",
    ),
    us(
        "MN",
        "Minnesota",
        "0.06875",
        100_000,
        200,
        "https://www.mndor.state.mn.us/tp/eservices",
    ),
    us(
        "MS",
        "Mississippi",
        "0.07",
        250_000,
        0,
        "https://tap.dor.ms.gov",
    ),
    us(
        "MO",
        "Missouri",
        "0.04225",
        100_000,
        0,
        "https://mytax.mo.gov",
    ),
    us("MT", "Montana", "0", 0, 0, "https://tap.dor.mt.gov"),
    us(
        "NE",
        "Nebraska",
        "0.055",
        100_000,
        200,
        "https://revenue.nebraska.gov",
    ),
    us(
        "NV",
        "Nevada",
        "0.0685",
        100_000,
        200,
        "https://www.nevadatax.nv.gov",
    ),
    us(
        "NH",
        "New Hampshire",
        "0",
        0,
        0,
        "https://gtc.revenue.nh.gov",
    ),
    us(
        "NJ",
        "New Jersey",
        "0.06625",
        100_000,
        200,
        "https://www.njportal.com/taxation",
    ),
    us(
        "NM",
        "New Mexico",
        "0.04875",
        100_000,
        0,
        "https://tap.state.nm.us",
    ),
    both(us(
        "NY",
        "New York",
        "0.04",
        500_000,
        100,
        "https://www.tax.ny.gov/online",
    )),
    us(
        "NC",
        "North Carolina",
        "0.0475",
        100_000,
        0,
        "https://www.ncdor.gov/file-pay",
    ),
    us(
        "ND",
        "North Dakota",
        "0.05",
        100_000,
        0,
        "https://apps.nd.gov/tax/tap",
    ),
    us(
        "OH",
        "Ohio",
        "0.0575",
        100_000,
        200,
        "https://gateway.ohio.gov",
    ),
    us(
        "OK",
        "Oklahoma",
        "0.045",
        100_000,
        0,
        "https://oktap.tax.ok.gov",
    ),
    us(
        "OR",
        "Oregon",
        "0",
        0,
        0,
        "https://revenueonline.dor.oregon.gov",
    ),
    us(
        "PA",
        "Pennsylvania",
        "0.06",
        100_000,
        0,
        "https://mypath.pa.gov",
    ),
    us(
        "RI",
        "Rhode Island",
        "0.07",
        100_000,
        200,
        "https://taxportal.ri.gov",
    ),
    us(
        "SC",
        "South Carolina",
        "0.06",
        100_000,
        0,
        "https://mydorway.dor.sc.gov",
    ),
    us(
        "SD",
        "South Dakota",
        "0.042",
        100_000,
        0,
        "https://sd.gov/epath",
    ),
    us(
        "TN",
        "Tennessee",
        "0.07",
        100_000,
        0,
        "https://tntap.tn.gov",
    ),
    us(
        "TX",
        "Texas",
        "0.0625",
        500_000,
        0,
        "https://comptroller.texas.gov/taxes/file-pay",
    ),
    us(
        "UT",
        "Utah",
        "0.061",
        100_000,
        0,
        "https://tap.tax.utah.gov",
    ),
    us(
        "VT",
        "Vermont",
        "0.06",
        100_000,
        200,
        "https://myvtax.vermont.gov",
    ),
    us(
        "VA",
        "Virginia",
        "0.053",
        100_000,
        200,
        "https://www.tax.virginia.gov/business-online-services",
    ),
    us(
        "WA",
        "Washington",
        "0.065",
        100_000,
        0,
        "https://secure.dor.wa.gov",
    ),
    us(
        "WV",
        "West Virginia",
        "0.06",
        100_000,
        200,
        "https://mytaxes.wvtax.gov",
    ),
    us(
        "WI",
        "Wisconsin",
        "0.05",
        100_000,
        0,
        "https://tap.revenue.wi.gov",
    ),
    us(
        "WY",
        "Wyoming",
        "0.04",
        100_000,
        0,
        "https://excise-wyifs.wyo.gov",
    ),
];

/// Canada's federal GST/HST registration (country level, no province).
pub static CANADA_FEDERAL: Jurisdiction = Jurisdiction {
    code: "",
    name: "Canada",
    rate: "0.05",
    threshold_sales: 30_000,
    threshold_transactions: 0,
    thresholds_both: false,
    portal: Some(
        "https://www.canada.ca/en/revenue-agency/services/e-services/digital-services-businesses/business-account.html",
    ),
};

/// Provinces and territories; the rate is GST plus the provincial tax, or the HST.
pub static CANADIAN_PROVINCES: [Jurisdiction; 13] = [
    other("AB", "Alberta", "0.05"),
    with_portal(
        other("BC", "British Columbia", "0.12"),
        "https://www.etax.gov.bc.ca",
    ),
    with_portal(other("MB", "Manitoba", "0.12"), "https://taxcess.gov.mb.ca"),
    other("NB", "New Brunswick", "0.15"),
    other("NL", "Newfoundland and Labrador", "0.15"),
    other("NS", "Nova Scotia", "0.14"),
    other("NT", "Northwest Territories", "0.05"),
    other("NU", "Nunavut", "0.05"),
    other("ON", "Ontario", "0.13"),
    other("PE", "Prince Edward Island", "0.15"),
    with_portal(
        other("QC", "Quebec", "0.14975"),
        "https://www.revenuquebec.ca/en/online-services",
    ),
    with_portal(
        other("SK", "Saskatchewan", "0.11"),
        "https://sets.saskatchewan.ca",
    ),
    other("YT", "Yukon", "0.05"),
];

/// The EU-wide one-stop-shop pseudo-country `ZZ_EU`; the threshold is the EU-wide distance
/// selling threshold in euros.
pub static EU_ONE_STOP_SHOP: Jurisdiction = Jurisdiction {
    code: "ZZ_EU",
    name: "European Union",
    rate: "0",
    threshold_sales: 10_000,
    threshold_transactions: 0,
    thresholds_both: false,
    portal: None,
};

/// The 27 member states with their standard VAT rate.
pub static EU_MEMBER_STATES: [Jurisdiction; 27] = [
    other("AT", "Austria", "0.20"),
    other("BE", "Belgium", "0.21"),
    other("BG", "Bulgaria", "0.20"),
    other("HR", "Croatia", "0.25"),
    other("CY", "Cyprus", "0.19"),
    other("CZ", "Czechia", "0.21"),
    other("DK", "Denmark", "0.25"),
    other("EE", "Estonia", "0.24"),
    other("FI", "Finland", "0.255"),
    other("FR", "France", "0.20"),
    other("DE", "Germany", "0.19"),
    other("GR", "Greece", "0.24"),
    other("HU", "Hungary", "0.27"),
    with_portal(other("IE", "Ireland", "0.23"), "https://www.ros.ie"),
    other("IT", "Italy", "0.22"),
    other("LV", "Latvia", "0.21"),
    other("LT", "Lithuania", "0.21"),
    other("LU", "Luxembourg", "0.17"),
    other("MT", "Malta", "0.18"),
    other("NL", "Netherlands", "0.21"),
    other("PL", "Poland", "0.23"),
    other("PT", "Portugal", "0.23"),
    other("RO", "Romania", "0.21"),
    other("SK", "Slovakia", "0.23"),
    other("SI", "Slovenia", "0.22"),
    other("ES", "Spain", "0.21"),
    other("SE", "Sweden", "0.25"),
];

fn find(table: &'static [Jurisdiction], code: &str) -> Option<&'static Jurisdiction> {
    table.iter().find(|j| j.code.eq_ignore_ascii_case(code))
}

/// The table row for a country and state pair: a US state, a Canadian province (or Canada
/// itself with an empty state), `ZZ_EU`, or an EU member state (country level, empty state).
pub fn lookup(country: &str, state: &str) -> Option<&'static Jurisdiction> {
    let country = country.trim();
    let state = state.trim();
    match country.to_ascii_uppercase().as_str() {
        "US" => find(&US_STATES, state),
        "CA" if state.is_empty() => Some(&CANADA_FEDERAL),
        "CA" => find(&CANADIAN_PROVINCES, state),
        "ZZ_EU" => Some(&EU_ONE_STOP_SHOP),
        _ if state.is_empty() => find(&EU_MEMBER_STATES, country),
        _ => None,
    }
}

/// Whether a country code is an EU member state.
pub fn is_eu_member(country: &str) -> bool {
    find(&EU_MEMBER_STATES, country).is_some()
}
