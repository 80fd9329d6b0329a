//! The address check of the new-customer form: Ctrl-L sends the address typed to the service's
//! validation, the form shows its verdict and the addresses offered; Ctrl-N moves among them
//! and Ctrl-T takes the chosen one into the fields.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use crate::model::{AddressCheck, AddressFields};
use crate::ui::theme::Theme;
use crate::ui::widgets::form::{FieldValue, Form};

/// What the user asked of the address with a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddressKey {
    Check,
    Next,
    Take,
}

/// The key's meaning, if it is one of the address keys.
pub fn address_key(key: &KeyEvent) -> Option<AddressKey> {
    if !key.modifiers.contains(KeyModifiers::CONTROL) {
        return None;
    }
    match key.code {
        KeyCode::Char('l') => Some(AddressKey::Check),
        KeyCode::Char('n') => Some(AddressKey::Next),
        KeyCode::Char('t') => Some(AddressKey::Take),
        _ => None,
    }
}

/// The address fields of the customer form, as the validation reads them.
pub fn address_of(form: &Form) -> AddressFields {
    let values = form.values();
    let text = |name: &str| {
        values
            .text(name)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    };
    AddressFields {
        street_1: text("street_1"),
        street_2: text("street_2"),
        city: text("city"),
        county: text("county"),
        state: text("state").map(|s| s.to_uppercase()),
        postal_code: text("postal_code"),
        country: text("country")
            .map(|s| s.to_uppercase())
            .or(Some("US".into())),
        full_address: None,
    }
}

/// The check's state under the form.
#[derive(Debug, Default)]
pub struct AddressPanel {
    pub checking: bool,
    pub check: Option<AddressCheck>,
    pub chosen: usize,
}

impl AddressPanel {
    /// Lines drawn under the form.
    pub fn height(&self) -> u16 {
        let candidates = self.check.as_ref().map_or(0, |c| c.candidates.len().min(5));
        1 + u16::try_from(candidates).unwrap_or(5)
    }

    pub fn next(&mut self) {
        if let Some(c) = &self.check
            && !c.candidates.is_empty()
        {
            self.chosen = (self.chosen + 1) % c.candidates.len().min(5);
        }
    }

    /// Fills the form's address fields with the chosen address; answers whether one was taken.
    pub fn take(&self, form: &mut Form) -> bool {
        let Some(a) = self
            .check
            .as_ref()
            .and_then(|c| c.candidates.get(self.chosen))
        else {
            return false;
        };
        for (name, value) in [
            ("street_1", &a.street_1),
            ("city", &a.city),
            ("county", &a.county),
            ("state", &a.state),
            ("postal_code", &a.postal_code),
            ("country", &a.country),
        ] {
            if let Some(v) = value {
                form.fill(name, FieldValue::from(v.as_str()));
            }
        }
        true
    }

    pub fn draw(&self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let mut lines = Vec::new();
        let status = match (&self.check, self.checking) {
            (_, true) => Line::from(Span::styled("Address: checking…", theme.muted)),
            (None, false) => Line::from(Span::styled(
                "Address: not checked (ctrl-l checks it)",
                theme.muted,
            )),
            (Some(c), false) => {
                let style = match c.status.as_str() {
                    "VERIFIED" => theme.status_good,
                    "PARTIALLY_VERIFIED" | "UNVERIFIED" => theme.status_pending,
                    _ => theme.status_bad,
                };
                let hint = if c.candidates.is_empty() {
                    "  no suggestion; ctrl-l checks again"
                } else {
                    "  ctrl-n next, ctrl-t takes it"
                };
                Line::from(vec![
                    Span::raw("Address: "),
                    Span::styled(c.status.clone(), style),
                    Span::styled(hint, theme.muted),
                ])
            }
        };
        lines.push(status);
        if let Some(c) = &self.check {
            for (i, a) in c.candidates.iter().take(5).enumerate() {
                let (mark, style) = if i == self.chosen {
                    ("› ", theme.key)
                } else {
                    ("  ", theme.base)
                };
                lines.push(Line::from(Span::styled(
                    format!("{mark}{}", a.one_line()),
                    style,
                )));
            }
        }
        Paragraph::new(lines).render(area, buf);
    }
}
