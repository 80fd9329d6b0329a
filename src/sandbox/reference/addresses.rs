//! Which postal codes belong to which state or province: the first three digits of a US ZIP
//! code, the first letter of a Canadian postal code. Demo addresses are checked against them.

/// The three-digit ZIP prefixes of each US state the demo data places people and sales in,
/// as inclusive ranges.
const ZIP_PREFIXES: &[(&str, &[(u16, u16)])] = &[
    ("AL", &[(350, 369)]),
    ("AZ", &[(850, 865)]),
    ("CA", &[(900, 961)]),
    ("CO", &[(800, 816)]),
    ("CT", &[(60, 69)]),
    ("FL", &[(320, 349)]),
    ("GA", &[(300, 319), (398, 399)]),
    ("IA", &[(500, 528)]),
    ("ID", &[(832, 838)]),
    ("IL", &[(600, 629)]),
    ("IN", &[(460, 479)]),
    ("KY", &[(400, 427)]),
    ("LA", &[(700, 714)]),
    ("MA", &[(10, 27)]),
    ("MD", &[(206, 219)]),
    ("MI", &[(480, 499)]),
    ("MN", &[(550, 567)]),
    ("MO", &[(630, 658)]),
    ("NC", &[(270, 289)]),
    ("NE", &[(680, 693)]),
    ("NJ", &[(70, 89)]),
    ("NM", &[(870, 884)]),
    ("NV", &[(889, 898)]),
    ("NY", &[(100, 149)]),
    ("OH", &[(430, 459)]),
    ("OK", &[(730, 749)]),
    ("OR", &[(970, 979)]),
    ("PA", &[(150, 196)]),
    ("SC", &[(290, 299)]),
    ("TN", &[(370, 385)]),
    ("TX", &[(750, 799), (885, 885)]),
    ("UT", &[(840, 847)]),
    ("VA", &[(201, 201), (220, 246)]),
    ("WA", &[(980, 994)]),
    ("WI", &[(530, 549)]),
];

/// The first letters of each Canadian province's postal codes.
const POSTAL_LETTERS: &[(&str, &str)] = &[
    ("AB", "T"),
    ("BC", "V"),
    ("MB", "R"),
    ("NS", "B"),
    ("ON", "KLMNP"),
    ("QC", "GHJ"),
    ("SK", "S"),
];

/// Whether `code` is a postal code of `state` in `country`: `Some(true)` or `Some(false)` for a
/// US state or Canadian province the tables know, `None` otherwise.
pub fn postal_code_fits(country: &str, state: &str, code: &str) -> Option<bool> {
    match country {
        "US" => {
            let (_, ranges) = ZIP_PREFIXES.iter().find(|(s, _)| *s == state)?;
            let fits = code.len() == 5
                && code.bytes().all(|b| b.is_ascii_digit())
                && code[..3]
                    .parse::<u16>()
                    .is_ok_and(|p| ranges.iter().any(|(lo, hi)| (*lo..=*hi).contains(&p)));
            Some(fits)
        }
        "CA" => {
            let (_, letters) = POSTAL_LETTERS.iter().find(|(s, _)| *s == state)?;
            Some(code.chars().next().is_some_and(|c| letters.contains(c)))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zip_code_fits_its_own_state_only() {
        assert_eq!(postal_code_fits("US", "CA", "94105"), Some(true));
        assert_eq!(postal_code_fits("US", "CT", "94105"), Some(false));
        assert_eq!(postal_code_fits("US", "CT", "06103"), Some(true));
        assert_eq!(
            postal_code_fits("US", "MA", "6103"),
            Some(false),
            "five digits"
        );
        assert_eq!(postal_code_fits("CA", "ON", "M5V 2T6"), Some(true));
        assert_eq!(postal_code_fits("CA", "BC", "M5V 2T6"), Some(false));
        assert_eq!(postal_code_fits("US", "ZZ", "94105"), None);
        assert_eq!(postal_code_fits("DE", "", "10115"), None);
    }
}
