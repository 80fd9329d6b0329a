//! A minimal, valid one-page PDF: a title and lines of text in Helvetica.

use std::fmt::Write as _;

/// Writes a one-page US Letter PDF with `title` in large type and `lines` below it. Text outside
/// printable ASCII is replaced by `?` (the standard Helvetica encoding covers no more here).
pub fn one_page(title: &str, lines: &[String]) -> Vec<u8> {
    let mut content = format!("BT /F1 18 Tf 72 720 Td ({}) Tj ET\n", escape(title));
    content.push_str("BT /F1 11 Tf 72 684 Td 16 TL\n");
    for line in lines {
        let _ = writeln!(content, "({}) Tj T*", escape(line));
    }
    content.push_str("ET\n");

    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_owned(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_owned(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] \
         /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>"
            .to_owned(),
        format!(
            "<< /Length {} >>\nstream\n{content}endstream",
            content.len()
        ),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_owned(),
    ];

    // The binary comment line marks the file as binary for transfer tools.
    let mut pdf = b"%PDF-1.4\n%\xE2\xE3\xCF\xD3\n".to_vec();
    let mut offsets = Vec::with_capacity(objects.len());
    for (i, body) in objects.iter().enumerate() {
        offsets.push(pdf.len());
        pdf.extend_from_slice(format!("{} 0 obj\n{body}\nendobj\n", i + 1).as_bytes());
    }
    let xref_at = pdf.len();
    let mut tail = format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1);
    for offset in offsets {
        let _ = writeln!(tail, "{offset:010} 00000 n ");
    }
    let _ = write!(
        tail,
        "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref_at}\n%%EOF",
        objects.len() + 1
    );
    pdf.extend_from_slice(tail.as_bytes());
    pdf
}

/// Text for a PDF string literal: backslash and parentheses escaped, non-ASCII replaced.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' | '(' | ')' => {
                out.push('\\');
                out.push(c);
            }
            ' '..='~' => out.push(c),
            _ => out.push('?'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cross_reference_table_points_at_each_object() {
        let pdf = one_page("Certificate (test)", &["Ünïcode \\ line".into()]);
        assert!(pdf.starts_with(b"%PDF-1.4\n"));
        assert!(pdf.ends_with(b"%%EOF"));
        let text = String::from_utf8_lossy(&pdf);
        let startxref: usize = text
            .rsplit("startxref\n")
            .next()
            .and_then(|rest| rest.lines().next())
            .and_then(|n| n.parse().ok())
            .unwrap();
        assert!(pdf[startxref..].starts_with(b"xref\n0 6\n"));
        let table = &text[text.find("xref\n0 6\n").unwrap() + 9..];
        for (i, entry) in table.lines().take(6).enumerate().skip(1) {
            assert_eq!(entry.len(), 19, "entries are 20 bytes with the newline");
            let offset: usize = entry[..10].parse().unwrap();
            assert!(pdf[offset..].starts_with(format!("{i} 0 obj\n").as_bytes()));
        }
        assert!(text.contains("(Certificate \\(test\\)) Tj"));
        assert!(text.contains("(?n?code \\\\ line) Tj"));
    }

    #[test]
    fn stream_length_matches_its_content() {
        let pdf = one_page("T", &["a".into(), "b".into()]);
        let text = String::from_utf8(pdf[15..].to_vec()).unwrap();
        let length: usize = text
            .split("/Length ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap();
        let start = text.find("stream\n").unwrap() + 7;
        let end = text.find("endstream").unwrap();
        assert_eq!(end - start, length);
    }
}
