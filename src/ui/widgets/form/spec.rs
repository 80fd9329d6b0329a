//! What a form is made of: one descriptor per field, naming the wire field it fills.

/// The most choices a select may have to be drawn as a list (see
/// [`FieldSpec::is_short_select`]).
pub const SHORT_SELECT: usize = 6;

/// One choice of a select field: the value sent, the label shown, and a sentence shown under the
/// field while the choice is selected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    pub value: String,
    pub label: String,
    pub explanation: String,
}

impl Choice {
    pub fn new(
        value: impl Into<String>,
        label: impl Into<String>,
        explanation: impl Into<String>,
    ) -> Self {
        Choice {
            value: value.into(),
            label: label.into(),
            explanation: explanation.into(),
        }
    }
}

/// How a field is entered, and so how its value is sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldKind {
    /// One line of text, sent as a string.
    Text,
    /// A date typed `YYYY-MM-DD`, sent as that string.
    Date,
    /// A decimal typed in plain notation, sent as a string (never a float).
    Decimal,
    /// One of a fixed list, cycled with Left/Right or Space, sent as the choice's value. Starts
    /// with nothing chosen unless a value is given.
    Select(Vec<Choice>),
    /// Any number of a fixed list: Left/Right move among the choices, Space toggles the one
    /// under the cursor. Sent as an array of the chosen values; nothing chosen is left out
    /// (no filter, "any").
    MultiSelect(Vec<Choice>),
    /// Yes or no, toggled with Space, sent as a boolean.
    Checkbox,
    /// Several lines of text, sent as one string with `\n` between lines.
    MultiLine,
    /// A secret: typed like text, shown as bullets.
    Masked,
}

/// Describes one field of a form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldSpec {
    /// The wire name, as [`FieldError::field_path`](crate::model::FieldError::field_path)
    /// spells it: `closure_date`, or `transaction_items.0.amount` for a nested one, which
    /// [`FormValues::to_json`](super::FormValues::to_json) sends nested.
    pub name: &'static str,
    /// What people read above the input.
    pub label: &'static str,
    pub kind: FieldKind,
    /// The rule in one line, shown under the input: `"YYYY-MM-DD; past or future"`.
    pub rule: &'static str,
    /// Marked with `*`; the rules, not the form, refuse it when empty.
    pub required: bool,
    /// The most characters a text field keeps, typed or pasted, when its rule says so (a
    /// schema's `maxLength`); `None` takes the service's bound for the wire name (see
    /// [`crate::rules::max_chars`]).
    pub max_chars: Option<usize>,
}

impl FieldSpec {
    /// An optional field with no rule line.
    pub fn new(name: &'static str, label: &'static str, kind: FieldKind) -> Self {
        FieldSpec {
            name,
            label,
            kind,
            rule: "",
            required: false,
            max_chars: None,
        }
    }

    /// The same field showing `rule` under its input.
    pub fn rule(mut self, rule: &'static str) -> Self {
        self.rule = rule;
        self
    }

    /// The same field, keeping at most `max` characters.
    pub fn max_chars(mut self, max: usize) -> Self {
        self.max_chars = Some(max);
        self
    }

    /// The most characters the field keeps: its own bound, else the service's bound for its
    /// wire name (the last part of a nested one: `transaction_items.0.description` keeps what
    /// a `description` does).
    pub fn keeps_at_most(&self) -> usize {
        self.max_chars.unwrap_or_else(|| {
            let last = self.name.rsplit('.').next().unwrap_or(self.name);
            crate::rules::max_chars(last)
        })
    }

    /// The same field, marked required.
    pub fn required(mut self) -> Self {
        self.required = true;
        self
    }

    /// The choices of a select or multi-select field; none for other kinds.
    /// A select of at most [`SHORT_SELECT`] choices: drawn as the list of its choices, each
    /// with its explanation, and ↑/↓ move the choice in it (as they move the cursor in a
    /// multi-line field; Tab, Shift-Tab and Enter move to another field).
    pub fn is_short_select(&self) -> bool {
        matches!(&self.kind, FieldKind::Select(c) if !c.is_empty() && c.len() <= SHORT_SELECT)
    }

    pub fn choices(&self) -> &[Choice] {
        match &self.kind {
            FieldKind::Select(choices) | FieldKind::MultiSelect(choices) => choices,
            _ => &[],
        }
    }
}
