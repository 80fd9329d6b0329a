//! Drawing a form: each field as a bordered input titled with its label, then the explanation of
//! a select's choice, the rule, and the errors; scrolled so the focused field is in view.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget};

use super::{Choice, Field, FieldKind, Form, Input};
use crate::ui::text;
use crate::ui::theme::Theme;
use crate::ui::widgets::wrap::wrap;

/// Rows a multi-line input shows at least and at most, its border aside.
const MULTI_LINE_ROWS: (u16, u16) = (3, 8);

/// Where a field landed in the laid-out form.
struct Placed {
    top: u16,
    input_height: u16,
    below: Vec<Line<'static>>,
}

impl Placed {
    fn bottom(&self) -> u16 {
        self.top + self.input_height + self.below.len() as u16
    }
}

impl Form {
    /// Draws the form in `area`. Takes `&mut self` to keep the focused field in view (the
    /// scroll position is remembered between frames) and to style the text inputs.
    pub fn render(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        if area.is_empty() {
            return;
        }
        let width = area.width;
        let top = error_lines(&self.form_errors(), "", width, theme);
        let mut y = if top.is_empty() {
            0
        } else {
            top.len() as u16 + 1
        };
        let mut placed = Vec::with_capacity(self.fields.len());
        for (i, field) in self.fields.iter().enumerate() {
            let spot = Placed {
                top: y,
                input_height: input_height(field, width),
                below: self.below(field, i == self.focus, width, theme),
            };
            y = spot.bottom() + 1;
            placed.push(spot);
        }
        let total = y.saturating_sub(1).max(1);
        self.scroll_into_view(&placed, area.height, total);

        // Draw the whole form on a canvas of its full height, then copy the visible rows.
        let mut canvas = Buffer::empty(Rect::new(0, 0, width, total));
        for (i, line) in top.iter().enumerate() {
            line.render(Rect::new(0, i as u16, width, 1), &mut canvas);
        }
        for (i, spot) in placed.iter().enumerate() {
            self.draw_field(i, spot, width, &mut canvas, theme);
            for (k, line) in spot.below.iter().enumerate() {
                let y = spot.top + spot.input_height + k as u16;
                line.render(Rect::new(0, y, width, 1), &mut canvas);
            }
        }
        for row in 0..area.height.min(total - self.scroll) {
            for x in 0..width {
                buf[(area.x + x, area.y + row)] = canvas[(x, self.scroll + row)].clone();
            }
        }
        let right = area.right() - 1;
        if self.scroll > 0 {
            buf[(right, area.y)].set_symbol("▲").set_style(theme.muted);
        }
        if self.scroll + area.height < total {
            buf[(right, area.bottom() - 1)]
                .set_symbol("▼")
                .set_style(theme.muted);
        }
    }

    /// Moves the scroll position so the focused field shows whole (its top, when it is taller
    /// than the area). The first field brings the form's own errors into view with it.
    fn scroll_into_view(&mut self, placed: &[Placed], height: u16, total: u16) {
        let Some(spot) = placed.get(self.focus) else {
            self.scroll = 0;
            return;
        };
        let start = if self.focus == 0 { 0 } else { spot.top };
        let end = spot.bottom();
        if end - start > height || start < self.scroll {
            self.scroll = start;
        } else if end > self.scroll + height {
            self.scroll = end - height;
        }
        self.scroll = self.scroll.min(total.saturating_sub(height));
    }

    /// The lines under a field's input: the explanation of a select's choice (of a focused
    /// multi-select's choice under the cursor), the rule, the errors.
    fn below(&self, field: &Field, focused: bool, width: u16, theme: &Theme) -> Vec<Line<'static>> {
        let inner = width.saturating_sub(1);
        let mut lines = Vec::new();
        let indented = |text: String, style: Style| Line::styled(format!(" {text}"), style);
        let shown = match field.input {
            // A short select lists every explanation already.
            Input::Choice(_) if field.spec.is_short_select() => None,
            Input::Choice(chosen) => chosen,
            Input::Multi { cursor, .. } if focused => Some(cursor),
            _ => None,
        };
        if let Some(i) = shown
            && let Some(choice) = field.spec.choices().get(i)
            && !choice.explanation.is_empty()
        {
            let explanation = wrap(&choice.explanation, inner);
            lines.extend(explanation.into_iter().map(|l| indented(l, theme.base)));
        }
        if !field.spec.rule.is_empty() {
            let rule = wrap(field.spec.rule, inner);
            lines.extend(rule.into_iter().map(|l| indented(l, theme.muted)));
        }
        if let Some(note) = &field.note {
            lines.extend(
                wrap(note, inner)
                    .into_iter()
                    .map(|l| indented(l, theme.warning)),
            );
        }
        let errors = field.visible_errors(self.attempted);
        lines.extend(error_lines(&errors, " ", width, theme));
        lines
    }

    /// Draws field `i` at its place on the canvas.
    fn draw_field(
        &mut self,
        i: usize,
        spot: &Placed,
        width: u16,
        canvas: &mut Buffer,
        theme: &Theme,
    ) {
        let focused = i == self.focus;
        let attempted = self.attempted;
        let waiting = self.waiting_for(self.fields[i].spec.name);
        let field = &mut self.fields[i];
        let in_error = !field.visible_errors(attempted).is_empty();
        let border = match (focused, in_error) {
            (true, _) => theme.border_focus,
            (false, true) => theme.error,
            (false, false) => theme.border,
        };
        let text = if focused {
            theme.input_focus
        } else {
            theme.input
        };
        let required = if field.spec.required { " *" } else { "" };
        let block = Block::bordered().border_style(border).title(Span::styled(
            format!(" {}{required} ", field.spec.label),
            border,
        ));
        let rect = Rect::new(0, spot.top, width, spot.input_height);
        let inner = block.inner(rect);
        block.render(rect, canvas);

        let choices = field.spec.choices();
        match &mut field.input {
            Input::Text(area) => {
                area.set_style(text);
                area.set_cursor_line_style(Style::default());
                area.set_placeholder_style(theme.muted);
                area.set_cursor_style(if focused {
                    text.patch(theme.selection)
                } else {
                    text
                });
                (&**area).render(inner, canvas);
            }
            Input::Choice(chosen) if field.spec.is_short_select() => {
                let lines = list_lines(choices, *chosen, inner.width, |_, chosen| {
                    match (chosen, focused) {
                        (true, true) => text.patch(theme.selection),
                        (true, false) => text,
                        (false, _) => theme.muted,
                    }
                });
                Paragraph::new(lines).style(text).render(inner, canvas);
            }
            Input::Choice(chosen) => {
                let line = match chosen.and_then(|c| choices.get(c).map(|choice| (c, choice))) {
                    Some((c, choice)) => Line::from(vec![
                        Span::styled("‹ ", theme.muted),
                        Span::styled(choice.label.clone(), text),
                        Span::styled(" ›", theme.muted),
                        Span::styled(format!("  {} of {}", c + 1, choices.len()), theme.muted),
                    ]),
                    None => Line::styled(
                        waiting.unwrap_or_else(|| "nothing chosen: ←/→ to choose".to_owned()),
                        theme.muted,
                    ),
                };
                Paragraph::new(line).style(text).render(inner, canvas);
            }
            Input::Multi { cursor, chosen } => {
                let lines = multi_lines(choices, chosen, inner.width, |i| {
                    if focused && i == *cursor {
                        text.patch(theme.selection)
                    } else {
                        text
                    }
                });
                Paragraph::new(lines).style(text).render(inner, canvas);
            }
            Input::Check(on) => {
                let mark = if *on { "[x]" } else { "[ ]" };
                Paragraph::new(Span::styled(mark, text))
                    .style(text)
                    .render(inner, canvas);
            }
        }
    }
}

/// A short select's choices one under the other, `(•)` marking the chosen one, each followed by
/// its explanation (on the same line when it fits, else wrapped under the label). `style` gives
/// the label's style, from its index and whether it is the chosen one.
fn list_lines(
    choices: &[Choice],
    chosen: Option<usize>,
    width: u16,
    style: impl Fn(usize, bool) -> Style,
) -> Vec<Line<'static>> {
    let width = usize::from(width.max(1));
    let mut lines = Vec::new();
    for (i, choice) in choices.iter().enumerate() {
        let is_chosen = chosen == Some(i);
        let mark = if is_chosen { "(•) " } else { "( ) " };
        let head = Span::styled(format!("{mark}{}", choice.label), style(i, is_chosen));
        let explanation = choice.explanation.as_str();
        let together = 4 + text::width(&choice.label) + 2 + text::width(explanation);
        if explanation.is_empty() {
            lines.push(Line::from(head));
        } else if together <= width {
            lines.push(Line::from(vec![
                head,
                Span::raw("  "),
                Span::raw(explanation.to_owned()),
            ]));
        } else {
            lines.push(Line::from(head));
            let room = u16::try_from(width.saturating_sub(4)).unwrap_or(u16::MAX);
            lines.extend(
                wrap(explanation, room)
                    .into_iter()
                    .map(|part| Line::raw(format!("    {part}"))),
            );
        }
    }
    lines
}

/// A multi-select's choices as `[x] EXPOSED  [ ] APPROACHING`, wrapped to `width`, each
/// choice styled by `style` (given its index, to mark the cursor).
fn multi_lines(
    choices: &[Choice],
    chosen: &[bool],
    width: u16,
    style: impl Fn(usize) -> Style,
) -> Vec<Line<'static>> {
    let width = usize::from(width.max(1));
    let mut lines = Vec::new();
    let mut line: Vec<Span<'static>> = Vec::new();
    let mut used = 0;
    for (i, choice) in choices.iter().enumerate() {
        let mark = if chosen.get(i).copied().unwrap_or(false) {
            "[x]"
        } else {
            "[ ]"
        };
        let item = format!("{mark} {}", choice.label);
        let len = item.chars().count();
        if used > 0 && used + 2 + len > width {
            lines.push(Line::from(std::mem::take(&mut line)));
            used = 0;
        }
        if used > 0 {
            line.push(Span::raw("  "));
            used += 2;
        }
        line.push(Span::styled(item, style(i)));
        used += len;
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(Line::from(line));
    }
    lines
}

/// How many rows a field's bordered input takes in a form `width` wide.
fn input_height(field: &Field, width: u16) -> u16 {
    match (&field.spec.kind, &field.input) {
        (FieldKind::MultiLine, Input::Text(area)) => {
            let (least, most) = MULTI_LINE_ROWS;
            (area.lines().len() as u16).clamp(least, most) + 2
        }
        (FieldKind::Select(choices), Input::Choice(chosen)) if field.spec.is_short_select() => {
            let rows = list_lines(choices, *chosen, width.saturating_sub(2), |_, _| {
                Style::default()
            });
            rows.len() as u16 + 2
        }
        (FieldKind::MultiSelect(choices), Input::Multi { chosen, .. }) => {
            let rows = multi_lines(choices, chosen, width.saturating_sub(2), |_| {
                Style::default()
            });
            rows.len() as u16 + 2
        }
        _ => 3,
    }
}

/// Errors as lines `width` wide in the error style, after `indent`, each marked with `✗` so they
/// read without colour.
fn error_lines(errors: &[&str], indent: &str, width: u16, theme: &Theme) -> Vec<Line<'static>> {
    let room = width.saturating_sub(indent.len() as u16 + 2);
    let mut lines = Vec::new();
    for error in errors {
        for (k, part) in wrap(error, room).into_iter().enumerate() {
            let mark = if k == 0 { "✗ " } else { "  " };
            lines.push(Line::styled(format!("{indent}{mark}{part}"), theme.error));
        }
    }
    lines
}
