//! The certificate upload: a path typed with Tab completion. Tab asks the runtime for the paths
//! completing the text; one candidate fills the field, several fill their common prefix, and
//! Tab again cycles through them. The runtime checks the file itself when it is sent.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use serde_json::Value;

use crate::model::{Exemption, FieldError, LocPart};
use crate::ui::theme::Theme;
use crate::ui::widgets::form::{FieldKind, FieldSpec, Form, FormOutcome, FormValues};

/// The field holding the path; the runtime's refusals name it.
pub const FILE: &str = "file";

/// The longest path the field keeps (the usual `PATH_MAX`).
const PATH_MAX_CHARS: usize = 4096;

/// Candidates shown under the field at most.
const SHOWN: usize = 8;

/// Rows kept for the form above the candidates: the field, its rule and two lines of errors.
const FORM_ROWS: u16 = 6;

/// The upload of a certificate to one exemption.
pub struct Upload {
    pub exemption: Box<Exemption>,
    pub form: Form,
    /// The paths completing the text as last asked, with the one Tab last filled in.
    candidates: Vec<String>,
    cycled: Option<usize>,
}

/// The one-field form holding `path`.
fn path_form(path: &str) -> Form {
    Form::new(vec![
        FieldSpec::new(FILE, "Certificate", FieldKind::Text)
            .rule("path of a PDF of at most 10 MB; tab completes")
            .max_chars(PATH_MAX_CHARS)
            .required(),
    ])
    .with_validator(check_path)
    .with_value(FILE, path)
}

/// The form's rule: a path is given (the runtime checks the file itself).
fn check_path(values: &FormValues) -> Vec<FieldError> {
    match values.text(FILE).map(str::trim) {
        Some(p) if !p.is_empty() => Vec::new(),
        _ => vec![FieldError::new(
            "missing",
            vec![LocPart::from("body"), LocPart::from(FILE)],
            "a path is required",
            Value::Null,
        )],
    }
}

/// The longest prefix every candidate shares.
fn common_prefix(candidates: &[String]) -> &str {
    let Some(first) = candidates.first() else {
        return "";
    };
    let mut end = first.len();
    for c in &candidates[1..] {
        end = first
            .char_indices()
            .zip(c.chars())
            .find(|((_, a), b)| a != b)
            .map_or(end.min(c.len()), |((i, _), _)| i.min(end));
    }
    &first[..end]
}

impl Upload {
    pub fn new(exemption: Exemption) -> Self {
        Upload {
            exemption: Box::new(exemption),
            form: path_form(""),
            candidates: Vec::new(),
            cycled: None,
        }
    }

    /// The path typed so far.
    pub fn path(&self) -> String {
        self.form.values().text(FILE).unwrap_or_default().to_owned()
    }

    /// Puts `path` in the field, keeping what is known to be wrong out of the way.
    fn set_path(&mut self, path: &str) {
        self.form = path_form(path);
    }

    /// Tab: answers the text to complete when the runtime must be asked, or `None` when the
    /// known candidates are cycled through.
    pub fn tab(&mut self) -> Option<String> {
        let path = self.path();
        let ours = self.candidates.len() > 1
            && (self.candidates.contains(&path) || common_prefix(&self.candidates) == path);
        if ours {
            let next = self.cycled.map_or(0, |i| (i + 1) % self.candidates.len());
            self.cycled = Some(next);
            let chosen = self.candidates[next].clone();
            self.set_path(&chosen);
            return None;
        }
        Some(path)
    }

    /// The runtime's candidates for `partial`: ignored when the text changed since.
    pub fn completions(&mut self, partial: &str, candidates: Vec<String>) {
        if self.path() != partial {
            return;
        }
        self.cycled = None;
        self.candidates = Vec::new();
        match candidates.as_slice() {
            [] => {}
            [only] => {
                let only = only.clone();
                self.set_path(&only);
            }
            many => {
                let prefix = common_prefix(many).to_owned();
                if prefix.len() > partial.len() {
                    self.set_path(&prefix);
                }
                self.candidates = candidates;
            }
        }
    }

    /// Any other key goes to the field; typing forgets the candidates.
    pub fn key(&mut self, key: KeyEvent) -> FormOutcome {
        let before = self.path();
        let outcome = self.form.handle_key(key);
        if self.path() != before || key.code == KeyCode::Backspace {
            self.candidates.clear();
            self.cycled = None;
        }
        outcome
    }

    /// The form, with the candidates listed right under it.
    pub fn render(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        if self.candidates.is_empty() {
            self.form.render(area, buf, theme);
            return;
        }
        let [form_area, list_area] =
            Layout::vertical([Constraint::Length(FORM_ROWS), Constraint::Min(0)]).areas(area);
        self.form.render(form_area, buf, theme);
        let mut lines = vec![Line::from(Span::styled(
            format!("{} matching paths (tab cycles)", self.candidates.len()),
            theme.muted,
        ))];
        for (i, c) in self.candidates.iter().take(SHOWN).enumerate() {
            let style = if self.cycled == Some(i) {
                theme.selection
            } else {
                theme.base
            };
            lines.push(Line::from(Span::styled(format!("  {c}"), style)));
        }
        Paragraph::new(lines).render(list_area, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyModifiers;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    fn upload() -> Upload {
        let e = serde_json::from_value(serde_json::json!({
            "id": "exm_1", "exemption_type": "customer", "start_date": "2025-01-01"
        }))
        .unwrap();
        Upload::new(e)
    }

    fn owned(paths: &[&str]) -> Vec<String> {
        paths.iter().map(|p| (*p).to_owned()).collect()
    }

    #[test]
    fn the_common_prefix_of_candidates() {
        assert_eq!(common_prefix(&owned(&["/tmp/ab1", "/tmp/ab2"])), "/tmp/ab");
        assert_eq!(common_prefix(&owned(&["/tmp/a", "/tmp/abc"])), "/tmp/a");
        assert_eq!(common_prefix(&owned(&["x"])), "x");
        assert_eq!(common_prefix(&[]), "");
    }

    #[test]
    fn one_candidate_fills_the_field() {
        let mut u = upload();
        u.key(key(KeyCode::Char('/')));
        assert_eq!(u.tab().as_deref(), Some("/"));
        u.completions("/", owned(&["/tmp/"]));
        assert_eq!(u.path(), "/tmp/");
        assert!(u.candidates.is_empty(), "nothing left to choose from");
    }

    #[test]
    fn several_fill_their_prefix_then_tab_cycles() {
        let mut u = upload();
        for c in "/d/c".chars() {
            u.key(key(KeyCode::Char(c)));
        }
        let asked = u.tab().unwrap();
        u.completions(&asked, owned(&["/d/cert1.pdf", "/d/cert2.pdf"]));
        assert_eq!(u.path(), "/d/cert");
        assert_eq!(u.tab(), None);
        assert_eq!(u.path(), "/d/cert1.pdf");
        assert_eq!(u.tab(), None);
        assert_eq!(u.path(), "/d/cert2.pdf");
        assert_eq!(u.tab(), None);
        assert_eq!(u.path(), "/d/cert1.pdf");
        // Typing forgets them: the next tab asks again.
        u.key(key(KeyCode::Backspace));
        assert!(u.tab().is_some());
    }

    #[test]
    fn a_late_answer_for_other_text_is_ignored() {
        let mut u = upload();
        u.key(key(KeyCode::Char('a')));
        u.completions("", owned(&["/x"]));
        assert_eq!(u.path(), "a");
    }
}
