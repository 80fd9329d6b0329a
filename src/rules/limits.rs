//! Limits on text and the forms of codes the service's fields carry: how long a text may be,
//! US ZIP codes, Canadian postal codes and federal employer identification numbers (FEIN).
//!
//! Lengths follow the live document where it states a `maxLength` (ids of customers and
//! organizations: 100) and sensible bounds elsewhere: 255 characters for names, streets, cities,
//! emails and most other texts, 1,000 for free descriptions and whole addresses, 50 for phone
//! numbers and 20 for postal codes.

/// The longest text most fields take.
pub const DEFAULT_MAX_CHARS: usize = 255;

/// The longest text `field` takes, in characters.
pub fn max_chars(field: &str) -> usize {
    match field {
        // The live document's maxLength.
        "customer_id" | "organization_id" => 100,
        "description" | "full_address" | "reason" | "notes" => 1000,
        "phone" => 50,
        "postal_code" | "postalCode" => 20,
        _ => DEFAULT_MAX_CHARS,
    }
}

/// The message for a text longer than its field takes.
pub fn too_long(field: &str, max: usize, chars: usize) -> String {
    format!("{field} must be at most {max} characters; this one has {chars}")
}

/// A US ZIP code: five digits, or ZIP+4 (`94105` or `94105-1234`).
pub fn is_us_zip(code: &str) -> bool {
    let b = code.as_bytes();
    let digits = |s: &[u8]| s.iter().all(u8::is_ascii_digit);
    match b.len() {
        5 => digits(b),
        10 => digits(&b[..5]) && b[5] == b'-' && digits(&b[6..]),
        _ => false,
    }
}

/// A Canadian postal code: letter, digit, letter, space, digit, letter, digit (`K1A 0B1`), in
/// capitals; the space may be left out. D, F, I, O, Q and U are never used, nor W and Z as the
/// first letter.
pub fn is_canadian_postal_code(code: &str) -> bool {
    let chars: Vec<char> = code.chars().filter(|c| *c != ' ').collect();
    let spaces = code.chars().filter(|c| *c == ' ').count();
    let space_in_place = spaces == 0 || (spaces == 1 && code.chars().nth(3) == Some(' '));
    let letter = |c: char, first: bool| {
        c.is_ascii_uppercase() && !"DFIOQU".contains(c) && !(first && "WZ".contains(c))
    };
    chars.len() == 6
        && space_in_place
        && letter(chars[0], true)
        && chars[1].is_ascii_digit()
        && letter(chars[2], false)
        && chars[3].is_ascii_digit()
        && letter(chars[4], false)
        && chars[5].is_ascii_digit()
}

/// The rule a postal code breaks for `country` (US and CA have one), or `None`.
pub fn postal_code_rule(field: &str, country: &str, code: &str) -> Option<String> {
    match country {
        "US" if !is_us_zip(code) => Some(format!(
            "{field} must be a US ZIP code: five digits, or ZIP+4 such as 94105-1234"
        )),
        "CA" if !is_canadian_postal_code(code) => Some(format!(
            "{field} must be a Canadian postal code such as K1A 0B1 (letter digit letter, \
             digit letter digit, in capitals; the space may be left out)"
        )),
        _ => None,
    }
}

/// A federal employer identification number: nine digits, with or without a hyphen after the
/// second (`12-3456789` or `123456789`).
pub fn is_fein(fein: &str) -> bool {
    let b = fein.as_bytes();
    let digits = |s: &[u8]| s.iter().all(u8::is_ascii_digit);
    match b.len() {
        9 => digits(b),
        10 => digits(&b[..2]) && b[2] == b'-' && digits(&b[3..]),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zip_codes() {
        for ok in ["94105", "94105-1234", "00501"] {
            assert!(is_us_zip(ok), "{ok}");
        }
        for bad in [
            "9410,5",
            "9410",
            "941055",
            "94105-123",
            "94105 1234",
            "ABCDE",
            "",
            "94105-",
        ] {
            assert!(!is_us_zip(bad), "{bad}");
        }
    }

    #[test]
    fn canadian_postal_codes() {
        for ok in ["K1A 0B1", "M5V 2T6", "V6B1A1", "H2Y 1C6"] {
            assert!(is_canadian_postal_code(ok), "{ok}");
        }
        for bad in [
            "k1a 0b1", "K1A  0B1", "K1 A0B1", "D1A 0B1", "W1A 0B1", "K1O 0B1", "K1A 0B", "12345",
            "K1A-0B1", "",
        ] {
            assert!(!is_canadian_postal_code(bad), "{bad}");
        }
    }

    #[test]
    fn postal_codes_are_held_to_their_country_only() {
        assert!(
            postal_code_rule("postal_code", "US", "9410,5")
                .unwrap()
                .starts_with("postal_code must be a US ZIP code")
        );
        assert!(
            postal_code_rule("postal_code", "CA", "94105")
                .unwrap()
                .contains("K1A 0B1")
        );
        assert_eq!(postal_code_rule("postal_code", "US", "94105-1234"), None);
        assert_eq!(postal_code_rule("postal_code", "DE", "10115"), None);
        assert_eq!(postal_code_rule("postal_code", "GB", "SW1A 1AA"), None);
    }

    #[test]
    fn feins() {
        for ok in ["12-3456789", "123456789"] {
            assert!(is_fein(ok), "{ok}");
        }
        for bad in [
            "123",
            "12-345678",
            "1-23456789",
            "12-34567890",
            "12_3456789",
            "AB-3456789",
        ] {
            assert!(!is_fein(bad), "{bad}");
        }
    }

    #[test]
    fn lengths_follow_the_document_then_sensible_bounds() {
        assert_eq!(max_chars("customer_id"), 100);
        assert_eq!(max_chars("street_1"), 255);
        assert_eq!(max_chars("name"), 255);
        assert_eq!(max_chars("description"), 1000);
        assert_eq!(max_chars("postal_code"), 20);
        assert_eq!(
            too_long("street_1", 255, 10_000),
            "street_1 must be at most 255 characters; this one has 10000"
        );
    }
}
