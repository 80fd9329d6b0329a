//! How every value is written for a person, in one place: money (grouped, with its currency,
//! a credit negative), shares of a whole (truncated, never rounded up past what was reached),
//! rates, dates, timestamps, counts with their nouns, and sort labels. The dashboard, the
//! command-line tables and the help all write values through here; JSON and the wire keep
//! their own exact forms.
//!
//! Every figure is a [`Decimal`] written exactly, with no floating point; a minus sign is the
//! ASCII `-`.

use chrono::{DateTime, NaiveDate, Utc};
use rust_decimal::Decimal;

use super::Timestamp;

/// A duration as a person says it: `30 s`, `1.5 s`.
pub fn seconds(d: std::time::Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}

/// Groups the digits of a whole number in threes: `1234567` → `1,234,567`, `-1500` → `-1,500`.
pub fn thousands(n: impl Into<i128>) -> String {
    let n: i128 = n.into();
    let digits = group_digits(&n.unsigned_abs().to_string());
    if n < 0 { format!("-{digits}") } else { digits }
}

fn group_digits(digits: &str) -> String {
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Digits after the decimal point of a currency's minor unit (ISO 4217); 2 when not listed.
pub fn minor_digits(currency: &str) -> u32 {
    const ZERO: &[&str] = &[
        "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "VND", "VUV",
        "XAF", "XOF", "XPF",
    ];
    const THREE: &[&str] = &["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"];
    let code = currency.trim().to_ascii_uppercase();
    if ZERO.contains(&code.as_str()) {
        0
    } else if THREE.contains(&code.as_str()) {
        3
    } else {
        2
    }
}

/// Whether a figure carries a `+` when it is above zero (a difference) or only a `-` below.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sign {
    Negative,
    Always,
}

/// `value` with at least `min_scale` decimals and grouped thousands. Digits beyond `min_scale`
/// are kept (trailing zeros dropped) so nothing is ever rounded away. Zero has no sign.
fn decimal(value: Decimal, min_scale: u32, sign: Sign) -> String {
    let mut d = value.normalize();
    if d.scale() < min_scale {
        d.rescale(min_scale);
    }
    let text = d.abs().to_string();
    let (int, frac) = text.split_once('.').unwrap_or((&text, ""));
    let mut out = String::with_capacity(text.len() + int.len() / 3 + 2);
    if !d.is_zero() {
        if d.is_sign_negative() {
            out.push('-');
        } else if sign == Sign::Always {
            out.push('+');
        }
    }
    out.push_str(&group_digits(int));
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
    out
}

fn with_currency(mut figure: String, currency: Option<&str>) -> String {
    if let Some(code) = currency.map(str::trim).filter(|c| !c.is_empty()) {
        figure.push(' ');
        figure.push_str(&code.to_ascii_uppercase());
    }
    figure
}

fn money_with(amount: Decimal, currency: Option<&str>, sign: Sign) -> String {
    let digits = currency
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map_or(2, minor_digits);
    with_currency(decimal(amount, digits, sign), currency)
}

/// An amount of money: `1,234,567.89 USD`, `-12.50 EUR`, `1,500 JPY`, `0.00 USD`.
///
/// At least the currency's minor-unit decimals (two unless the currency has none or three), more
/// when the amount really has them (`0.125 USD`): the value shown is always exact. Without a
/// currency the code is left off.
pub fn money(amount: Decimal, currency: Option<&str>) -> String {
    money_with(amount, currency, Sign::Negative)
}

/// A difference of money, signed either way: `+100.00 USD`, `-4,417.32 USD`, `0.00 USD`.
pub fn money_change(amount: Decimal, currency: Option<&str>) -> String {
    money_with(amount, currency, Sign::Always)
}

/// An amount of a credit (a credit note, a refund): always read as money going back,
/// `-129.00 USD`, whichever sign the record stores it with.
pub fn credit(amount: Decimal, currency: Option<&str>) -> String {
    money(-amount.abs(), currency)
}

/// A rate given as a fraction, in percent with at least two decimals: `0.0725` → `7.25%`,
/// `0.08875` → `8.875%`, `0.06` → `6.00%`. Exact: a rate is never rounded.
pub fn rate_percent(rate: Decimal) -> String {
    let mut out = decimal(rate * Decimal::ONE_HUNDRED, 2, Sign::Negative);
    out.push('%');
    out
}

/// Decimals a share is shown with, everywhere.
pub const SHARE_DECIMALS: u32 = 1;

/// `part` in percent of `whole`, exact; `None` when `whole` is zero (nothing to be a share of)
/// or the quotient does not fit.
pub fn percent_of(part: Decimal, whole: Decimal) -> Option<Decimal> {
    if whole.is_zero() {
        return None;
    }
    part.checked_mul(Decimal::ONE_HUNDRED)?.checked_div(whole)
}

/// A share in percent as it is shown: cut toward zero at [`SHARE_DECIMALS`], so 95.86 is 95.8
/// and 99.99 never reads 100. A verdict on a share (a tolerance) is taken on this value, so what
/// is shown and what is decided agree.
pub fn shown_share(percent: Decimal) -> Decimal {
    percent.trunc_with_scale(SHARE_DECIMALS)
}

/// `actual - expected` as a share of `expected`, in percent as shown (cut toward zero at
/// [`SHARE_DECIMALS`]); `None` when nothing was expected.
pub fn share_off(expected: Decimal, actual: Decimal) -> Option<Decimal> {
    percent_of(actual - expected, expected.abs()).map(shown_share)
}

/// A share in percent: `95.8%`, `0.0%`, `-10.7%` (truncated, see [`shown_share`]).
pub fn share(percent: Decimal) -> String {
    let mut out = decimal(shown_share(percent), SHARE_DECIMALS, Sign::Negative);
    out.push('%');
    out
}

/// A share that is a difference, signed either way: `+9.0%`, `-10.7%`.
pub fn share_change(percent: Decimal) -> String {
    let mut out = decimal(shown_share(percent), SHARE_DECIMALS, Sign::Always);
    out.push('%');
    out
}

/// A percentage given by a person (a tolerance), exact, with at least the decimals of a share:
/// `5` → `5.0%`, `2.25` → `2.25%`.
pub fn percent(value: Decimal) -> String {
    let mut out = decimal(value, SHARE_DECIMALS, Sign::Negative);
    out.push('%');
    out
}

/// The English name of a state, province or region by its ISO 3166-2 code (`Texas` for `US`
/// `TX`, `Ontario` for `CA` `ON`, `Berlin` for `DE` `BE`), for a record that names its place only
/// by its code; `None` for a code the standard does not hold (`ZZ_EU`).
pub fn subdivision_name(country: &str, state: &str) -> Option<&'static str> {
    rust_iso3166::iso3166_2::from_code(&format!("{country}-{state}")).map(|s| s.name)
}

/// A calendar date: `2026-11-15`.
pub fn date(d: NaiveDate) -> String {
    d.format("%Y-%m-%d").to_string()
}

/// A span of days, both ends included: `2026-07-01 – 2026-09-30`.
pub fn period(start: NaiveDate, end: NaiveDate) -> String {
    format!("{} – {}", date(start), date(end))
}

/// A month: `2026-11`.
pub fn month(d: NaiveDate) -> String {
    d.format("%Y-%m").to_string()
}

/// A point in time to the minute, in UTC: `2026-11-15 13:04 UTC`, whatever offset and
/// precision it was sent with.
pub fn timestamp(t: &Timestamp) -> String {
    utc_time(t.0)
}

/// [`timestamp`] of a `DateTime` in UTC.
pub fn utc_time(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%d %H:%M UTC").to_string()
}

/// A point in time to the second, in UTC, where the order of events within a minute matters
/// (the audit log, snapshots): `2026-11-15 13:04:59 UTC`.
pub fn utc_time_seconds(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%d %H:%M:%S UTC").to_string()
}

/// A point in time to the millisecond, in UTC, for the audit log's own detail (two writes a
/// second apart must read apart): `2026-11-15 13:04:59.123 UTC`.
pub fn utc_time_millis(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%d %H:%M:%S%.3f UTC").to_string()
}

/// The plural of an English noun: `filing` → `filings`, `tax` → `taxes`, `entry` → `entries`.
/// Only the last word changes: `exempt sale` → `exempt sales`.
pub fn plural_of(noun: &str) -> String {
    let vowel_before_y = noun
        .strip_suffix('y')
        .and_then(|stem| stem.chars().last())
        .is_some_and(|c| "aeiou".contains(c));
    if let Some(stem) = noun.strip_suffix('y').filter(|_| !vowel_before_y) {
        format!("{stem}ies")
    } else if ["s", "x", "z", "ch", "sh"]
        .iter()
        .any(|e| noun.ends_with(e))
    {
        format!("{noun}es")
    } else {
        format!("{noun}s")
    }
}

/// `noun` as `n` of it reads: the singular for one, the plural otherwise (zero included).
pub fn noun(n: impl Into<i128>, noun: &str) -> String {
    if n.into() == 1 {
        noun.to_owned()
    } else {
        plural_of(noun)
    }
}

/// A count with its noun: `1 jurisdiction`, `0 filings`, `1,204 exempt sales`.
pub fn count(n: impl Into<i128>, singular: &str) -> String {
    let n: i128 = n.into();
    format!("{} {}", thousands(n), noun(n, singular))
}

/// The mark of an ascending sort, on a column's header and in the list's title.
pub const ASCENDING: &str = "▲";
/// The mark of a descending sort.
pub const DESCENDING: &str = "▼";

/// A flag as every screen writes it: `yes` or `no`.
pub fn yes_no(flag: bool) -> &'static str {
    if flag { "yes" } else { "no" }
}

/// A service code in words, as one label everywhere: `WAREHOUSE_AND_INVENTORY_PRESENCE` →
/// `Warehouse and inventory presence`.
pub fn code_words(code: &str) -> String {
    let lower = code.replace('_', " ").to_lowercase();
    let mut chars = lower.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// A column's title as a word in a sentence: `Customer name` → `customer name`; a title in
/// capitals (`ID`, `VAT`) keeps them.
pub fn label(title: &str) -> String {
    title
        .split(' ')
        .map(|word| {
            if word.chars().filter(char::is_ascii_alphabetic).count() > 1
                && word.chars().all(|c| !c.is_lowercase())
            {
                word.to_owned()
            } else {
                word.to_lowercase()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// How a list is sorted, in words: `sorted by customer name ▲`, `sorted by date ▼`.
pub fn sorted_by(title: &str, descending: bool) -> String {
    format!(
        "sorted by {} {}",
        label(title),
        if descending { DESCENDING } else { ASCENDING }
    )
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use super::*;

    fn dec(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    #[test]
    fn a_place_known_by_its_code_is_named_by_the_standard() {
        for (country, state, name) in [
            ("US", "TX", "Texas"),
            ("CA", "ON", "Ontario"),
            ("DE", "BE", "Berlin"),
            ("IE", "D", "Dublin"),
        ] {
            assert_eq!(subdivision_name(country, state), Some(name));
        }
        assert_eq!(subdivision_name("ZZ_EU", ""), None);
        assert_eq!(subdivision_name("US", "QQ"), None);
    }

    #[test]
    fn money_is_grouped_exact_and_carries_its_currency() {
        assert_eq!(money(dec("1234567.89"), Some("USD")), "1,234,567.89 USD");
        assert_eq!(money(dec("41228.32"), Some("usd")), "41,228.32 USD");
        assert_eq!(money(dec("999"), None), "999.00");
        assert_eq!(money(dec("1000"), None), "1,000.00");
        assert_eq!(money(dec("0.125"), Some("USD")), "0.125 USD");
        assert_eq!(money(dec("1500"), Some("JPY")), "1,500 JPY");
        assert_eq!(money(dec("1.5"), Some("KWD")), "1.500 KWD");
        assert_eq!(money(dec("4731"), Some(" cad ")), "4,731.00 CAD");
        assert_eq!(money(dec("12"), Some("")), "12.00");
    }

    #[test]
    fn a_negative_amount_and_a_credit_read_with_a_minus() {
        assert_eq!(money(dec("-1234.5"), Some("eur")), "-1,234.50 EUR");
        assert_eq!(money(dec("-100000.10"), Some("CAD")), "-100,000.10 CAD");
        // A credit note's amount, stored positive or negative, reads as money going back.
        assert_eq!(credit(dec("129"), Some("USD")), "-129.00 USD");
        assert_eq!(credit(dec("-1356"), Some("USD")), "-1,356.00 USD");
        assert_eq!(credit(dec("0"), Some("USD")), "0.00 USD");
        // A difference says its direction either way.
        assert_eq!(money_change(dec("100"), Some("USD")), "+100.00 USD");
        assert_eq!(money_change(dec("-4417.32"), Some("USD")), "-4,417.32 USD");
    }

    #[test]
    fn zero_has_no_sign() {
        assert_eq!(money(dec("0"), Some("USD")), "0.00 USD");
        assert_eq!(money(dec("-0.00"), None), "0.00");
        assert_eq!(money_change(dec("0"), Some("USD")), "0.00 USD");
        assert_eq!(share(dec("-0.04")), "0.0%");
        assert_eq!(share_change(dec("0.09")), "0.0%");
    }

    #[test]
    fn a_share_is_cut_never_rounded_up() {
        let reached = percent_of(dec("95864.92"), dec("100000")).unwrap();
        assert_eq!(share(reached), "95.8%");
        assert_eq!(share(dec("95.864")), "95.8%");
        assert_eq!(share(dec("99.99")), "99.9%");
        assert_eq!(share(dec("100")), "100.0%");
        assert_eq!(share(dec("122.48")), "122.4%");
        assert_eq!(share(dec("0")), "0.0%");
        // A negative share is cut toward zero too: -5.04 % is not over 5 %.
        assert_eq!(share_change(dec("-5.04")), "-5.0%");
        assert_eq!(share_change(dec("-10.714")), "-10.7%");
        assert_eq!(share_change(dec("9.09")), "+9.0%");
        assert_eq!(shown_share(dec("-5.09")), dec("-5.0"));
        assert_eq!(percent_of(dec("1"), Decimal::ZERO), None);
        // A percentage given by a person is written exactly.
        assert_eq!(percent(dec("5")), "5.0%");
        assert_eq!(percent(dec("2.25")), "2.25%");
    }

    #[test]
    fn rates_in_percent() {
        assert_eq!(rate_percent(dec("0.0725")), "7.25%");
        assert_eq!(rate_percent(dec("0.08875")), "8.875%");
        assert_eq!(rate_percent(dec("0.06")), "6.00%");
        assert_eq!(rate_percent(dec("0")), "0.00%");
    }

    #[test]
    fn dates_and_months() {
        let d = NaiveDate::from_ymd_opt(2026, 11, 5).unwrap();
        assert_eq!(date(d), "2026-11-05");
        assert_eq!(month(d), "2026-11");
        let end = NaiveDate::from_ymd_opt(2026, 11, 30).unwrap();
        assert_eq!(period(d, end), "2026-11-05 – 2026-11-30");
    }

    #[test]
    fn a_timestamp_reads_to_the_minute_in_utc_whatever_it_was_sent_as() {
        let t = Timestamp::parse("2026-11-15T08:04:59-05:00").unwrap();
        assert_eq!(timestamp(&t), "2026-11-15 13:04 UTC");
        let t = Timestamp::parse("2026-11-26T22:13:19.330661491Z").unwrap();
        assert_eq!(timestamp(&t), "2026-11-26 22:13 UTC");
        let t = Timestamp::parse("2024-03-21T21:29:00.684802").unwrap();
        assert_eq!(timestamp(&t), "2024-03-21 21:29 UTC");
        assert_eq!(utc_time_seconds(t.0), "2024-03-21 21:29:00 UTC");
        assert_eq!(utc_time_millis(t.0), "2024-03-21 21:29:00.684 UTC");
    }

    #[test]
    fn a_count_agrees_with_its_noun() {
        assert_eq!(count(1, "jurisdiction"), "1 jurisdiction");
        assert_eq!(count(0, "filing"), "0 filings");
        assert_eq!(count(2, "jurisdiction"), "2 jurisdictions");
        assert_eq!(count(1204, "exempt sale"), "1,204 exempt sales");
        assert_eq!(count(3, "entry"), "3 entries");
        assert_eq!(count(3, "day"), "3 days");
        assert_eq!(count(2, "tax"), "2 taxes");
        assert_eq!(noun(1_u64, "figure"), "figure");
        assert_eq!(count(-1_i64, "day"), "-1 days");
        assert_eq!(thousands(0_u64), "0");
        assert_eq!(thousands(999_u32), "999");
        assert_eq!(thousands(1_000_000_u64), "1,000,000");
        assert_eq!(thousands(-1500_i64), "-1,500");
    }

    #[test]
    fn a_sort_is_said_with_the_columns_label() {
        assert_eq!(
            sorted_by("Customer name", false),
            "sorted by customer name ▲"
        );
        assert_eq!(sorted_by("Date", true), "sorted by date ▼");
        assert_eq!(label("Tax ID"), "tax ID");
    }
}
