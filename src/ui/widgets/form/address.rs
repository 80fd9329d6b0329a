//! The address check every form with an address carries: Ctrl-L sends the address typed to
//! the service's validation, the form shows its verdict and the addresses offered; Ctrl-N moves
//! among them and Ctrl-T takes the chosen one into the fields. Each form names its own address
//! fields ([`AddressNames`]); a field a form lacks is neither read nor filled.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::{FieldValue, Form};
use crate::model::{AddressCheck, AddressFields};
use crate::ui::theme::Theme;

/// What the user asked of the address with a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AddressKey {
    Check,
    Next,
    Take,
}

/// The key's meaning, if it is one of the address keys.
fn address_key(key: &KeyEvent) -> Option<AddressKey> {
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

/// The names of a form's address fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AddressNames {
    pub street_1: &'static str,
    pub street_2: &'static str,
    pub city: &'static str,
    pub county: &'static str,
    pub state: &'static str,
    pub postal_code: &'static str,
    pub country: &'static str,
}

impl AddressNames {
    /// The names the service's own address objects use (the customer form's).
    pub const PLAIN: AddressNames = AddressNames {
        street_1: "street_1",
        street_2: "street_2",
        city: "city",
        county: "county",
        state: "state",
        postal_code: "postal_code",
        country: "country",
    };
}

/// The address the form's fields hold, as the validation reads it (the country US when none).
pub fn address_of(form: &Form, names: &AddressNames) -> AddressFields {
    let values = form.values();
    let text = |name: &str| {
        values
            .text(name)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    };
    AddressFields {
        street_1: text(names.street_1),
        street_2: text(names.street_2),
        city: text(names.city),
        county: text(names.county),
        state: text(names.state).map(|s| s.to_uppercase()),
        postal_code: text(names.postal_code),
        country: text(names.country)
            .map(|s| s.to_uppercase())
            .or(Some("US".into())),
        full_address: None,
    }
}

/// What an address key asks of the pane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AddressStep {
    /// Send this address to the validation (the panel now says "checking").
    Check(AddressFields),
    /// The chosen suggestion moved.
    Moved,
    /// The chosen suggestion was written into the fields.
    Taken,
    /// Nothing to take: no suggestion.
    Nothing,
}

/// The check's state under the form.
#[derive(Debug)]
pub struct AddressPanel {
    names: AddressNames,
    pub checking: bool,
    pub check: Option<AddressCheck>,
    pub chosen: usize,
}

impl Default for AddressPanel {
    fn default() -> Self {
        AddressPanel::new(AddressNames::PLAIN)
    }
}

impl AddressPanel {
    /// A panel for a form whose address fields are `names`.
    pub fn new(names: AddressNames) -> Self {
        AddressPanel {
            names,
            checking: false,
            check: None,
            chosen: 0,
        }
    }

    /// What `key` does to the address, if it is one of the address keys.
    pub fn key(&mut self, key: &KeyEvent, form: &mut Form) -> Option<AddressStep> {
        Some(match address_key(key)? {
            AddressKey::Check => {
                self.checking = true;
                AddressStep::Check(address_of(form, &self.names))
            }
            AddressKey::Next => {
                self.next();
                AddressStep::Moved
            }
            AddressKey::Take => {
                if self.take(form) {
                    AddressStep::Taken
                } else {
                    AddressStep::Nothing
                }
            }
        })
    }

    /// The service's verdict arrived.
    pub fn checked(&mut self, check: AddressCheck) {
        self.checking = false;
        self.chosen = 0;
        self.check = Some(check);
    }

    /// The check failed; the panel stops saying "checking".
    pub fn failed(&mut self) {
        self.checking = false;
    }

    /// The form with the panel under it.
    pub fn draw_with(&self, form: &mut Form, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let below = self.height().min(area.height / 2);
        let [top, bottom] =
            Layout::vertical([Constraint::Min(1), Constraint::Length(below)]).areas(area);
        form.render(top, buf, theme);
        self.draw(bottom, buf, theme);
    }

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
        let n = &self.names;
        for (name, value) in [
            (n.street_1, &a.street_1),
            (n.street_2, &a.street_2),
            (n.city, &a.city),
            (n.county, &a.county),
            (n.state, &a.state),
            (n.postal_code, &a.postal_code),
            (n.country, &a.country),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::widgets::form::{FieldKind, FieldSpec};

    const PREFIXED: AddressNames = AddressNames {
        street_1: "a.street_1",
        street_2: "a.street_2",
        city: "a.city",
        county: "a.county",
        state: "a.state",
        postal_code: "a.postal_code",
        country: "a.country",
    };

    fn ctrl(c: char) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)
    }

    #[test]
    fn a_form_s_own_field_names_are_read_and_filled() {
        let mut form = Form::new(
            ["a.street_1", "a.city", "a.state", "a.postal_code"]
                .map(|n| FieldSpec::new(n, n, FieldKind::Text))
                .to_vec(),
        )
        .with_value("a.street_1", "1 Main St")
        .with_value("a.state", "tx");
        let mut panel = AddressPanel::new(PREFIXED);
        assert_eq!(
            panel.key(&KeyEvent::from(KeyCode::Char('l')), &mut form),
            None
        );
        let Some(AddressStep::Check(sent)) = panel.key(&ctrl('l'), &mut form) else {
            panic!("ctrl-l checks");
        };
        assert_eq!(sent.street_1.as_deref(), Some("1 Main St"));
        assert_eq!(sent.state.as_deref(), Some("TX"));
        assert_eq!(sent.country.as_deref(), Some("US"), "US when none is typed");
        assert!(panel.checking);
        assert_eq!(panel.key(&ctrl('t'), &mut form), Some(AddressStep::Nothing));

        panel.checked(AddressCheck {
            status: "PARTIALLY_VERIFIED".into(),
            candidates: vec![AddressFields {
                street_1: Some("1 MAIN ST".into()),
                city: Some("AUSTIN".into()),
                state: Some("TX".into()),
                postal_code: Some("78701".into()),
                ..AddressFields::default()
            }],
        });
        assert!(!panel.checking);
        assert_eq!(panel.key(&ctrl('t'), &mut form), Some(AddressStep::Taken));
        let values = form.values();
        assert_eq!(values.text("a.city"), Some("AUSTIN"));
        assert_eq!(values.text("a.postal_code"), Some("78701"));
        assert_eq!(values.text("a.street_1"), Some("1 MAIN ST"));
    }
}
