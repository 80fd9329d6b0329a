//! Code lists: the country codes and currency codes the service accepts.

/// ISO 3166-1 alpha-2 codes officially assigned, plus `XK` (Kosovo: a user-assigned code that the
/// live service's country list carries and that tax authorities use), sorted.
const COUNTRY_CODES: &[&str] = &[
    "AD", "AE", "AF", "AG", "AI", "AL", "AM", "AO", "AQ", "AR", "AS", "AT", "AU", "AW", "AX", "AZ",
    "BA", "BB", "BD", "BE", "BF", "BG", "BH", "BI", "BJ", "BL", "BM", "BN", "BO", "BQ", "BR", "BS",
    "BT", "BV", "BW", "BY", "BZ", "CA", "CC", "CD", "CF", "CG", "CH", "CI", "CK", "CL", "CM", "CN",
    "CO", "CR", "CU", "CV", "CW", "CX", "CY", "CZ", "DE", "DJ", "DK", "DM", "DO", "DZ", "EC", "EE",
    "EG", "EH", "ER", "ES", "ET", "FI", "FJ", "FK", "FM", "FO", "FR", "GA", "GB", "GD", "GE", "GF",
    "GG", "GH", "GI", "GL", "GM", "GN", "GP", "GQ", "GR", "GS", "GT", "GU", "GW", "GY", "HK", "HM",
    "HN", "HR", "HT", "HU", "ID", "IE", "IL", "IM", "IN", "IO", "IQ", "IR", "IS", "IT", "JE", "JM",
    "JO", "JP", "KE", "KG", "KH", "KI", "KM", "KN", "KP", "KR", "KW", "KY", "KZ", "LA", "LB", "LC",
    "LI", "LK", "LR", "LS", "LT", "LU", "LV", "LY", "MA", "MC", "MD", "ME", "MF", "MG", "MH", "MK",
    "ML", "MM", "MN", "MO", "MP", "MQ", "MR", "MS", "MT", "MU", "MV", "MW", "MX", "MY", "MZ", "NA",
    "NC", "NE", "NF", "NG", "NI", "NL", "NO", "NP", "NR", "NU", "NZ", "OM", "PA", "PE", "PF", "PG",
    "PH", "PK", "PL", "PM", "PN", "PR", "PS", "PT", "PW", "PY", "QA", "RE", "RO", "RS", "RU", "RW",
    "SA", "SB", "SC", "SD", "SE", "SG", "SH", "SI", "SJ", "SK", "SL", "SM", "SN", "SO", "SR", "SS",
    "ST", "SV", "SX", "SY", "SZ", "TC", "TD", "TF", "TG", "TH", "TJ", "TK", "TL", "TM", "TN", "TO",
    "TR", "TT", "TV", "TW", "TZ", "UA", "UG", "UM", "US", "UY", "UZ", "VA", "VC", "VE", "VG", "VI",
    "VN", "VU", "WF", "WS", "XK", "YE", "YT", "ZA", "ZM", "ZW",
];

/// The pseudo country code of EU-wide (one-stop-shop) registrations.
pub const EU_ONE_STOP_SHOP: &str = "ZZ_EU";

/// The spec's `CurrencyEnum`, exactly: ISO 4217 codes, sorted.
const CURRENCIES: &[&str] = &[
    "AED", "AFN", "ALL", "AMD", "ANG", "AOA", "ARS", "AUD", "AWG", "AZN", "BAM", "BBD", "BDT",
    "BGN", "BHD", "BIF", "BMD", "BND", "BOB", "BRL", "BSD", "BTN", "BWP", "BYN", "BZD", "CAD",
    "CDF", "CHF", "CLP", "CNY", "COP", "CRC", "CUC", "CUP", "CVE", "CZK", "DJF", "DKK", "DOP",
    "DZD", "EGP", "ERN", "ETB", "EUR", "FJD", "FKP", "GBP", "GEL", "GGP", "GHS", "GIP", "GMD",
    "GNF", "GTQ", "GYD", "HKD", "HNL", "HRK", "HTG", "HUF", "IDR", "ILS", "IMP", "INR", "IQD",
    "IRR", "ISK", "JEP", "JMD", "JOD", "JPY", "KES", "KGS", "KHR", "KMF", "KPW", "KRW", "KWD",
    "KYD", "KZT", "LAK", "LBP", "LKR", "LRD", "LSL", "LYD", "MAD", "MDL", "MGA", "MKD", "MMK",
    "MNT", "MOP", "MRU", "MUR", "MVR", "MWK", "MXN", "MYR", "MZN", "NAD", "NGN", "NIO", "NOK",
    "NPR", "NZD", "OMR", "PAB", "PEN", "PGK", "PHP", "PKR", "PLN", "PYG", "QAR", "RON", "RSD",
    "RUB", "RWF", "SAR", "SBD", "SCR", "SDG", "SEK", "SGD", "SHP", "SLL", "SOS", "SPL", "SRD",
    "STN", "SVC", "SYP", "SZL", "THB", "TJS", "TMT", "TND", "TOP", "TRY", "TTD", "TVD", "TWD",
    "TZS", "UAH", "UGX", "USD", "UYU", "UZS", "VEF", "VND", "VUV", "WST", "XAF", "XCD", "XDR",
    "XOF", "XPF", "YER", "ZAR", "ZMW", "ZWD",
];

/// Whether `code` is a country code the service accepts: an ISO 3166-1 alpha-2 code in actual use
/// (upper case, `US`, `DE`; `XK` included) or `ZZ_EU`.
pub fn is_country_code(code: &str) -> bool {
    code == EU_ONE_STOP_SHOP || COUNTRY_CODES.binary_search(&code).is_ok()
}

/// Whether `code` is one of the currencies of the spec's `CurrencyEnum` (upper case, `USD`).
pub fn is_currency(code: &str) -> bool {
    CURRENCIES.binary_search(&code).is_ok()
}

/// The currency a country's returns are filed in, where taxdash knows it for sure (the
/// countries the service files in); `None` for any other, which is then shown without one.
pub fn filing_currency(country: &str) -> Option<&'static str> {
    match country {
        "US" => Some("USD"),
        "CA" => Some("CAD"),
        "GB" => Some("GBP"),
        "AU" => Some("AUD"),
        EU_ONE_STOP_SHOP => Some("EUR"),
        _ => None,
    }
}

/// A short hint for a near miss of a country code, or `None`.
pub(crate) fn country_hint(code: &str) -> Option<String> {
    let upper = code.trim().to_ascii_uppercase();
    match upper.as_str() {
        "UK" => Some("the United Kingdom is GB".to_owned()),
        "EU" => Some("EU-wide registrations use ZZ_EU".to_owned()),
        _ if upper != code && is_country_code(&upper) => Some(format!("write it as {upper}")),
        _ => None,
    }
}

/// A short hint for a near miss of a currency code, or `None`.
pub(crate) fn currency_hint(code: &str) -> Option<String> {
    let upper = code.trim().to_ascii_uppercase();
    (upper != code && is_currency(&upper)).then(|| format!("write it as {upper}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted_and_unique(list: &[&str]) -> bool {
        list.windows(2).all(|w| w[0] < w[1])
    }

    #[test]
    fn lists_are_sorted_so_binary_search_works() {
        assert!(sorted_and_unique(COUNTRY_CODES));
        assert!(sorted_and_unique(CURRENCIES));
    }

    #[test]
    fn lists_have_the_documented_sizes() {
        // 249 official assignments plus XK; the spec's CurrencyEnum has 162 members.
        assert_eq!(COUNTRY_CODES.len(), 250);
        assert_eq!(CURRENCIES.len(), 162);
    }

    #[test]
    fn country_codes() {
        for ok in ["US", "CA", "DE", "GB", "AX", "XK", "ZZ_EU"] {
            assert!(is_country_code(ok), "{ok}");
        }
        for bad in ["us", "UK", "EU", "ZZ", "USA", "U", "", " US", "zz_eu", "AA"] {
            assert!(!is_country_code(bad), "{bad}");
        }
    }

    #[test]
    fn currencies() {
        for ok in ["USD", "EUR", "CAD", "GBP", "ZWD", "AED", "SPL"] {
            assert!(is_currency(ok), "{ok}");
        }
        // XYZ is no currency; ZWG and XAU are real ISO 4217 codes but not in the spec's list.
        for bad in ["XYZ", "usd", "US", "USDD", "", "ZWG", "XAU"] {
            assert!(!is_currency(bad), "{bad}");
        }
    }

    #[test]
    fn hints_for_near_misses() {
        assert_eq!(
            country_hint("uk").as_deref(),
            Some("the United Kingdom is GB")
        );
        assert_eq!(
            country_hint("EU").as_deref(),
            Some("EU-wide registrations use ZZ_EU")
        );
        assert_eq!(country_hint("de").as_deref(), Some("write it as DE"));
        assert_eq!(country_hint("QQ"), None);
        assert_eq!(currency_hint("eur").as_deref(), Some("write it as EUR"));
        assert_eq!(currency_hint("XYZ"), None);
    }
}
