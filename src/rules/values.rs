//! Rules on single values, usable on their own (a form checks a field as it is typed) and by the
//! body validators.

use chrono::NaiveDate;
use rust_decimal::Decimal;

/// The text every date error starts with, as the service words it.
pub(crate) const DATE_FORMAT_MSG: &str = "Input should be a valid date in the format YYYY-MM-DD";

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// Reads a calendar date written exactly `YYYY-MM-DD` (year 0001-9999). The error is a sentence
/// for the user: the expected form, and for a date that does not exist (`2026-02-31`) why not.
pub fn parse_date(s: &str) -> Result<NaiveDate, String> {
    let b = s.as_bytes();
    let shaped = b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
    if !shaped {
        return Err(format!("{DATE_FORMAT_MSG}, for example 2026-03-31"));
    }
    // Shape checked above: every slice is ASCII digits, so the parses cannot fail.
    let num = |r: std::ops::Range<usize>| s[r].parse::<u32>().unwrap_or(0);
    let (year, month, day) = (num(0..4), num(5..7), num(8..10));
    if year == 0 {
        return Err(format!("{DATE_FORMAT_MSG}; year 0000 does not exist"));
    }
    let Some(month_name) = month.checked_sub(1).and_then(|m| MONTHS.get(m as usize)) else {
        return Err(format!(
            "{DATE_FORMAT_MSG}; month {month:02} is out of range (01 to 12)"
        ));
    };
    let year = year as i32;
    NaiveDate::from_ymd_opt(year, month, day).ok_or_else(|| {
        let days = days_in_month(year, month);
        format!(
            "{DATE_FORMAT_MSG}; day {day:02} is out of range for {month_name} {year:04}, \
             which has {days} days"
        )
    })
}

/// Number of days in a month (28 to 31).
fn days_in_month(year: i32, month: u32) -> u32 {
    (29..=31)
        .rev()
        .find(|&day| NaiveDate::from_ymd_opt(year, month, day).is_some())
        .unwrap_or(28)
}

/// Reads a decimal written in plain or scientific notation (`12`, `-0.50`, `1.5e3`): no spaces,
/// no thousands separators. `None` for anything else or a value out of `Decimal`'s range.
pub(crate) fn parse_decimal(s: &str) -> Option<Decimal> {
    let mut rest = s.strip_prefix(['+', '-']).unwrap_or(s);
    let mut mantissa_digits = 0;
    let mut seen_point = false;
    while let Some(c) = rest.chars().next() {
        match c {
            '0'..='9' => mantissa_digits += 1,
            '.' if !seen_point => seen_point = true,
            _ => break,
        }
        rest = &rest[1..];
    }
    if mantissa_digits == 0 {
        return None;
    }
    if let Some(exp) = rest.strip_prefix(['e', 'E']) {
        let digits = exp.strip_prefix(['+', '-']).unwrap_or(exp);
        if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
    } else if !rest.is_empty() {
        return None;
    }
    s.parse::<Decimal>()
        .or_else(|_| Decimal::from_scientific(s))
        .ok()
}

/// The rule of every range of days a command or a check takes (both days included): it may be a
/// single day, not end before it starts. `names` are what the user typed for each end
/// (`("--from", "--to")`); the message is the same wherever a range is refused.
pub fn check_day_range(names: (&str, &str), from: NaiveDate, to: NaiveDate) -> Result<(), String> {
    if from > to {
        return Err(format!(
            "{} {from} is after {} {to}: the range is empty",
            names.0, names.1
        ));
    }
    Ok(())
}

/// Whether `s` looks like an email address: one `@`, a local part and a domain with at least one
/// dot, no spaces or control characters, at most 254 characters. Deliberately simple: the mail
/// server is the final judge.
pub fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    let clean = |part: &str| {
        !part.is_empty()
            && !part
                .chars()
                .any(|c| c.is_whitespace() || c.is_control() || c == '@')
    };
    s.len() <= 254
        && clean(local)
        && clean(domain)
        && domain.contains('.')
        && domain
            .split('.')
            .all(|label| !label.is_empty() && !label.starts_with('-') && !label.ends_with('-'))
}

/// `period_end_month` (fiscal-year filers): a month number, 1 to 12.
pub fn check_period_end_month(month: i64) -> Result<(), String> {
    if (1..=12).contains(&month) {
        Ok(())
    } else {
        Err(format!(
            "period_end_month must be a month number from 1 to 12, not {month}"
        ))
    }
}

/// `input_vat_recovery_rate`: a percentage, 0 to 100 inclusive.
pub fn check_input_vat_recovery_rate(rate: Decimal) -> Result<(), String> {
    if (Decimal::ZERO..=Decimal::ONE_HUNDRED).contains(&rate) {
        Ok(())
    } else {
        Err(format!(
            "input_vat_recovery_rate must be a percentage from 0 to 100, not {rate}"
        ))
    }
}

/// A state code as the service stores it: the subdivision part of an ISO 3166-2 code only, 1 to
/// 3 capital letters or digits (`CA`, `QC`, `NSW`, `75`). The full form `US-CA` is refused with a
/// hint rather than rewritten, so what is sent is what is stored.
pub fn check_state_code(code: &str) -> Result<(), String> {
    let well_formed = (1..=3).contains(&code.len())
        && code
            .bytes()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
    if well_formed {
        return Ok(());
    }
    let rule = "state_code must be the subdivision part of an ISO 3166-2 code: \
                1 to 3 capital letters or digits, such as CA or QC";
    match code.split_once('-') {
        Some((_, sub)) if check_state_code(sub).is_ok() => {
            Err(format!("{rule} (send {sub}, not {code})"))
        }
        _ => Err(rule.to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn dec(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    #[test]
    fn a_range_may_be_one_day_but_not_end_before_it_starts() {
        let day = |s: &str| NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap();
        let names = ("--from", "--to");
        assert!(check_day_range(names, day("2026-01-01"), day("2026-01-01")).is_ok());
        assert_eq!(
            check_day_range(names, day("2026-09-30"), day("2026-01-01")),
            Err("--from 2026-09-30 is after --to 2026-01-01: the range is empty".to_owned())
        );
    }

    #[test]
    fn dates_in_the_exact_form_are_read() {
        assert_eq!(
            parse_date("2026-02-28"),
            Ok(NaiveDate::from_ymd_opt(2026, 2, 28).unwrap())
        );
        assert_eq!(
            parse_date("2024-02-29"),
            Ok(NaiveDate::from_ymd_opt(2024, 2, 29).unwrap())
        );
        assert!(parse_date("0001-01-01").is_ok());
        assert!(parse_date("9999-12-31").is_ok());
    }

    #[test]
    fn dates_in_another_form_are_refused() {
        for bad in [
            "2026-3-1",
            "2026/03/01",
            "01-03-2026",
            "2026-03-01T00:00:00",
            " 2026-03-01",
            "+2026-03-01",
            "",
            "yesterday",
            "２０２６-03-01",
        ] {
            let err = parse_date(bad).unwrap_err();
            assert!(err.starts_with(DATE_FORMAT_MSG), "{bad}: {err}");
        }
    }

    #[test]
    fn impossible_dates_say_why() {
        assert_eq!(
            parse_date("2026-02-31").unwrap_err(),
            "Input should be a valid date in the format YYYY-MM-DD; day 31 is out of range \
             for February 2026, which has 28 days"
        );
        assert!(
            parse_date("2024-02-30")
                .unwrap_err()
                .contains("which has 29 days")
        );
        assert!(
            parse_date("2026-04-31")
                .unwrap_err()
                .contains("April 2026, which has 30 days")
        );
        assert!(
            parse_date("2026-01-00")
                .unwrap_err()
                .contains("day 00 is out of range")
        );
        assert!(
            parse_date("2026-13-01")
                .unwrap_err()
                .contains("month 13 is out of range")
        );
        assert!(
            parse_date("2026-00-10")
                .unwrap_err()
                .contains("month 00 is out of range")
        );
        assert!(parse_date("0000-01-01").unwrap_err().contains("year 0000"));
    }

    #[test]
    fn decimals_in_plain_and_scientific_notation() {
        assert_eq!(parse_decimal("12.34"), Some(dec("12.34")));
        assert_eq!(parse_decimal("-0.5"), Some(dec("-0.5")));
        assert_eq!(parse_decimal("+7"), Some(dec("7")));
        assert_eq!(parse_decimal(".5"), Some(dec("0.5")));
        assert_eq!(parse_decimal("1.5e3"), Some(dec("1500")));
        assert_eq!(parse_decimal("2E-2"), Some(dec("0.02")));
        for bad in [
            "", "-", ".", "abc", "1,000", "1_000", " 1", "1 ", "1.2.3", "1e", "e5", "NaN", "inf",
            "0x10", "1e+",
        ] {
            assert_eq!(parse_decimal(bad), None, "{bad}");
        }
        // Beyond the 96-bit range.
        assert_eq!(parse_decimal("1e40"), None);
        assert_eq!(parse_decimal("99999999999999999999999999999999"), None);
    }

    #[test]
    fn emails() {
        for ok in ["a@b.co", "first.last+tag@example.com", "x@sub.domain.org"] {
            assert!(is_email(ok), "{ok}");
        }
        for bad in [
            "",
            "plain",
            "@example.com",
            "a@",
            "a@b",
            "a b@c.com",
            "a@b..com",
            "a@@b.com",
            "a@b.com.",
            "a@-b.com",
            "a@b .com",
        ] {
            assert!(!is_email(bad), "{bad}");
        }
        assert!(!is_email(&format!("{}@example.com", "a".repeat(250))));
    }

    #[test]
    fn period_end_month_is_1_to_12() {
        assert!(check_period_end_month(1).is_ok());
        assert!(check_period_end_month(12).is_ok());
        assert!(check_period_end_month(0).is_err());
        assert!(check_period_end_month(13).is_err());
        assert_eq!(
            check_period_end_month(-1).unwrap_err(),
            "period_end_month must be a month number from 1 to 12, not -1"
        );
    }

    #[test]
    fn input_vat_recovery_rate_is_0_to_100() {
        assert!(check_input_vat_recovery_rate(Decimal::ZERO).is_ok());
        assert!(check_input_vat_recovery_rate(dec("100")).is_ok());
        assert!(check_input_vat_recovery_rate(dec("100.00")).is_ok());
        assert!(check_input_vat_recovery_rate(dec("37.5")).is_ok());
        assert!(check_input_vat_recovery_rate(dec("100.01")).is_err());
        assert!(check_input_vat_recovery_rate(dec("-0.01")).is_err());
    }

    #[test]
    fn state_codes_are_the_bare_subdivision_part() {
        for ok in ["CA", "QC", "NSW", "75", "B", "2A"] {
            assert!(check_state_code(ok).is_ok(), "{ok}");
        }
        for bad in ["", "ca", "CALI", "C A", "US_CA"] {
            assert!(check_state_code(bad).is_err(), "{bad}");
        }
        let err = check_state_code("US-CA").unwrap_err();
        assert!(err.ends_with("(send CA, not US-CA)"), "{err}");
    }
}
