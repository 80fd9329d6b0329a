//! How a snapshot's record bodies are stored: packed with LZ4, each on its own.
//!
//! A record of the service is JSON of a few kilobytes (a transaction with its items is about
//! 7 KB) that packs to a fifth of it or less, and a year of transactions is tens of megabytes:
//! stored as it came, that is what the disk (or the wire to a team's server) must take at each
//! snapshot. Packed, a snapshot is written in a fraction of the time and the history is a
//! fraction of the size. A body's hash is of the record as read, so a body stored packed and
//! the same body stored as text by an earlier version are one body.
//!
//! A stored body is either text (as stored before bodies were packed) or bytes: [`PACKED`],
//! the body's length (4 bytes, little-endian) and its LZ4 block. Anything else is read as
//! UTF-8 text.

/// The first byte of a packed body. A record's JSON begins with `{` (or white space), never
/// with a control character.
const PACKED: u8 = 0x01;

/// The longest body unpacked: more than any record of the service, and a stored length beyond
/// it is a damaged body, not an allocation to make.
const LONGEST: usize = 64 * 1024 * 1024;

/// `body` as it is stored.
pub fn pack(body: &str) -> Vec<u8> {
    let mut packed = Vec::with_capacity(body.len() / 3 + 16);
    packed.push(PACKED);
    packed.extend_from_slice(&lz4_flex::compress_prepend_size(body.as_bytes()));
    packed
}

/// A stored body as the record read; `None` when it is damaged (an unpacked length beyond
/// reason, a block that does not unpack, bytes that are not UTF-8).
pub fn unpack(stored: Vec<u8>) -> Option<String> {
    let Some((&PACKED, rest)) = stored.split_first() else {
        return String::from_utf8(stored).ok();
    };
    let length = rest.get(..4)?;
    let length = u32::from_le_bytes(length.try_into().ok()?) as usize;
    // A block of LZ4 unpacks to at most 255 times its size.
    if length > LONGEST || length > rest.len().saturating_mul(255) {
        return None;
    }
    let bytes = lz4_flex::decompress_size_prepended(rest).ok()?;
    String::from_utf8(bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_packed_is_smaller_and_unpacks_to_itself() {
        let body = format!(
            r#"{{"id":"txn_1","lines":[{}]}}"#,
            (0..50)
                .map(|i| format!(r#"{{"n":{i},"amount":"10.00","currency":"USD"}}"#))
                .collect::<Vec<_>>()
                .join(",")
        );
        let packed = pack(&body);
        assert!(
            packed.len() * 3 < body.len(),
            "{} of {}",
            packed.len(),
            body.len()
        );
        assert_eq!(unpack(packed).as_deref(), Some(body.as_str()));
    }

    #[test]
    fn a_body_stored_as_text_is_read_as_it_is() {
        assert_eq!(
            unpack(br#"{"id":"cus_1"}"#.to_vec()).as_deref(),
            Some(r#"{"id":"cus_1"}"#)
        );
        assert_eq!(unpack(Vec::new()).as_deref(), Some(""));
        assert_eq!(unpack(pack("")).as_deref(), Some(""));
    }

    #[test]
    fn a_damaged_body_is_none_not_a_panic_nor_a_huge_allocation() {
        // A length of 4 GiB for a few bytes.
        assert_eq!(
            unpack(vec![PACKED, 0xff, 0xff, 0xff, 0xff, 0x10, b'a']),
            None
        );
        // A length but no block, and no length at all.
        assert_eq!(unpack(vec![PACKED, 5, 0, 0, 0]), None);
        assert_eq!(unpack(vec![PACKED, 5]), None);
        // A block cut short.
        let mut cut = pack(&"abc".repeat(1000));
        cut.truncate(cut.len() - 3);
        assert_eq!(unpack(cut), None);
    }
}
