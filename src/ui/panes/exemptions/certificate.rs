//! An attached certificate read on this machine: saved to a path the user types (an existing
//! file is replaced only once the user saves again), or opened with the system's viewer.

use std::path::PathBuf;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use serde_json::Value;

use super::ExemptionDetail;
use crate::effect::{Failure, FailureKind};
use crate::model::{Attachment, FieldError, LocPart};
use crate::ui::theme::Theme;
use crate::ui::widgets::form::{FieldKind, FieldSpec, Form, FormValues};

/// The field holding the path; the runtime's refusals name it.
pub const PATH: &str = "path";

/// The name the file is saved under by default: its own, or the attachment's id.
pub fn file_name(a: &Attachment) -> String {
    a.file_name
        .as_deref()
        .and_then(|n| std::path::Path::new(n).file_name())
        .map_or_else(
            || format!("{}.pdf", a.id),
            |n| n.to_string_lossy().into_owned(),
        )
}

/// The attachment of the detail to act on: the first with a location; `Err` says why none.
pub fn attachment(detail: Option<&ExemptionDetail>) -> Result<(Attachment, String), String> {
    let Some(d) = detail else {
        return Err("Open an exemption to read its certificate.".into());
    };
    let Some(files) = d.extra.as_deref() else {
        return Err("The exemption's files are still loading.".into());
    };
    let Some(first) = files.first() else {
        return Err(format!("{} has no attached file.", d.record.id));
    };
    files
        .iter()
        .find_map(|a| {
            a.file_location
                .clone()
                .filter(|l| !l.trim().is_empty())
                .map(|l| (a.clone(), l))
        })
        .ok_or_else(|| {
            format!(
                "The service gives no location for {}: it cannot be fetched here.",
                file_name(first)
            )
        })
}

/// The form's rule: a path is given.
fn check_path(values: &FormValues) -> Vec<FieldError> {
    match values.text(PATH).map(str::trim) {
        Some(p) if !p.is_empty() => Vec::new(),
        _ => vec![FieldError::new(
            "missing",
            vec![LocPart::from("body"), LocPart::from(PATH)],
            "a path is required",
            Value::Null,
        )],
    }
}

/// The save of one attachment's file.
pub struct SaveFile {
    pub attachment: Attachment,
    pub location: String,
    pub form: Form,
    /// The path the user was told exists: saving it again replaces it.
    confirmed: Option<String>,
}

impl SaveFile {
    /// The form saving `attachment`, its path prefilled in `folder` (`~/Downloads/`).
    pub fn new(attachment: Attachment, location: String, folder: &str) -> Self {
        let path = format!("{folder}{}", file_name(&attachment));
        SaveFile {
            form: Form::new(vec![
                FieldSpec::new(PATH, "Save to", FieldKind::Text)
                    .rule("a file path; ~/ is your home directory")
                    .required(),
            ])
            .with_validator(check_path)
            .with_value(PATH, path.as_str()),
            attachment,
            location,
            confirmed: None,
        }
    }

    /// The path typed.
    pub fn path(&self) -> String {
        self.form
            .values()
            .text(PATH)
            .unwrap_or_default()
            .trim()
            .to_owned()
    }

    /// Whether the file at the path typed may be replaced: the user saved again after being
    /// told it exists.
    pub fn overwrite(&self) -> bool {
        self.confirmed.as_deref() == Some(self.path().as_str())
    }

    /// A refusal: an existing file is remembered, so that saving the same path again replaces it.
    pub fn refused(&mut self, failure: &Failure) {
        if failure.kind == FailureKind::Conflict {
            self.confirmed = Some(self.path());
        }
    }

    pub fn target(&self) -> PathBuf {
        PathBuf::from(self.path())
    }

    pub fn render(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        self.form.render(area, buf, theme);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Exemption, RelatedEntityType};

    fn file(name: Option<&str>, location: Option<&str>) -> Attachment {
        Attachment {
            id: "atch_1".into(),
            related_entity_id: "exmp_1".into(),
            related_entity_type: RelatedEntityType::Exemption,
            file_name: name.map(str::to_owned),
            mime_type: Some("application/pdf".into()),
            file_size_bytes: Some(10),
            created_at: None,
            file_location: location.map(str::to_owned),
            file_location_type: None,
        }
    }

    fn detail(files: Option<Vec<Attachment>>) -> ExemptionDetail {
        let exemption: Exemption = serde_json::from_value(serde_json::json!({
            "id": "exmp_1", "exemption_type": "customer", "status": "ACTIVE",
            "start_date": "2025-01-01"
        }))
        .unwrap();
        let mut detail =
            crate::ui::skeleton::RecordDetail::new(exemption, &super::super::EXEMPTION);
        detail.extra = files;
        detail
    }

    #[test]
    fn the_file_to_fetch_or_why_there_is_none() {
        assert!(attachment(None).unwrap_err().contains("Open an exemption"));
        assert!(
            attachment(Some(&detail(None)))
                .unwrap_err()
                .contains("still loading")
        );
        assert_eq!(
            attachment(Some(&detail(Some(Vec::new())))).unwrap_err(),
            "exmp_1 has no attached file."
        );
        let unplaced = detail(Some(vec![file(Some("cert.pdf"), None)]));
        assert_eq!(
            attachment(Some(&unplaced)).unwrap_err(),
            "The service gives no location for cert.pdf: it cannot be fetched here."
        );
        let placed = detail(Some(vec![
            file(Some("cert.pdf"), None),
            file(Some("../../etc/other.pdf"), Some("https://files.example/x")),
        ]));
        let (found, location) = attachment(Some(&placed)).unwrap();
        assert_eq!(location, "https://files.example/x");
        assert_eq!(file_name(&found), "other.pdf", "only the name's last part");
        assert_eq!(file_name(&file(None, None)), "atch_1.pdf");
    }

    #[test]
    fn the_view_key_fetches_the_file_then_opens_it_saying_what_to_do_without_a_viewer() {
        use crate::effect::{Call, Effect, ExemptionCall, ExemptionReply, Reply};
        use crate::ui::keymap::Action;
        use crate::ui::pane::Level;
        use crate::ui::skeleton::Skeleton;
        use crate::ui::skeleton::testing::Fixture;

        let mut h = Fixture::new(Skeleton::<super::super::Exemptions>::default());
        h.load(vec![detail(None).record], ExemptionReply::Page);
        h.action(Action::Open);
        let calls = h.calls();
        let files = calls
            .iter()
            .find(|(_, c)| matches!(c, Call::Exemptions(ExemptionCall::Attachments { .. })))
            .map(|(id, _)| *id)
            .expect("the files are asked for");
        h.action(Action::OpenFile);
        assert_eq!(h.notices.last().map(|n| n.0), Some(Level::Info));
        assert!(h.notices.last().unwrap().1.contains("still loading"));
        h.answer(
            files,
            Ok(Reply::Exemptions(ExemptionReply::Attachments(vec![file(
                Some("cert.pdf"),
                Some("https://files.example/cert.pdf"),
            )]))),
        );
        h.calls();
        h.action(Action::OpenFile);
        let calls = h.calls();
        let [
            (
                fetch,
                Call::Exemptions(ExemptionCall::FetchAttachment {
                    location,
                    file_name,
                }),
            ),
        ] = calls.as_slice()
        else {
            panic!("one fetch: {calls:?}");
        };
        assert_eq!(location, "https://files.example/cert.pdf");
        assert_eq!(file_name, "cert.pdf");
        let fetched = PathBuf::from("/tmp/taxdash-x/cert.pdf");
        h.answer(
            *fetch,
            Ok(Reply::Exemptions(ExemptionReply::Fetched(fetched.clone()))),
        );
        let opened = h.effects.iter().find_map(|e| match e {
            Effect::OpenFile { path, otherwise } => Some((path.clone(), otherwise.clone())),
            _ => None,
        });
        let (path, otherwise) = opened.expect("the file is handed to the viewer");
        assert_eq!(path, fetched);
        assert_eq!(otherwise, "Save the certificate with w instead.");
    }

    #[test]
    fn an_existing_file_is_replaced_only_after_the_user_was_told() {
        let mut save = SaveFile::new(file(Some("cert.pdf"), Some("/x")), "/x".into(), "");
        assert!(save.path().ends_with("cert.pdf"), "{}", save.path());
        assert!(!save.overwrite());
        save.refused(&Failure {
            kind: FailureKind::Conflict,
            message: "exists".into(),
            fields: Vec::new(),
        });
        assert!(save.overwrite(), "the same path, saved again");
        let form = std::mem::replace(&mut save.form, Form::new(Vec::new()));
        save.form = form.with_value(PATH, "/tmp/elsewhere.pdf");
        assert!(!save.overwrite(), "another path is asked again");
    }
}
