//! The exposure history of one economic nexus (Tenanted API): every event from the start of the
//! period to registration, oldest first, as a vertical timeline with the nexus status after each
//! event coloured as in the list, the sales counted so far as money and the transaction count.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, StatefulWidget, Widget};

use super::economic::{jurisdiction, status_style};
use crate::effect::{Call, Failure, Reply, RequestId};
use crate::model::tenanted::{ExposureEvent, ExposureEventType};
use crate::model::{Nexus, NexusStatus, PageParams};
use crate::ui::keymap::Action;
use crate::ui::pane::{Ctx, Level};
use crate::ui::text;
use crate::ui::theme::Theme;
use crate::ui::widgets::timeline::{Timeline, TimelineEntry, TimelineState};

/// Events asked for per page.
const PAGE_SIZE: u32 = 100;

/// What happened, in words.
pub fn event_in_words(event: &ExposureEventType) -> String {
    match event {
        ExposureEventType::PeriodStarted => "Period started".to_owned(),
        ExposureEventType::Approaching => "Approaching the threshold".to_owned(),
        ExposureEventType::ThresholdMet => "Threshold met".to_owned(),
        ExposureEventType::Exposed => "Exposed: tax is owed without a registration".to_owned(),
        ExposureEventType::RegistrationStarted => "Registration started".to_owned(),
        ExposureEventType::Registered => "Registered".to_owned(),
        ExposureEventType::Other(other) => {
            let words = other.to_lowercase().replace('_', " ");
            let mut chars = words.chars();
            match chars.next() {
                Some(first) => first.to_uppercase().chain(chars).collect(),
                None => "Unnamed event".to_owned(),
            }
        }
    }
}

/// One event as a timeline entry.
fn entry(event: &ExposureEvent, currency: Option<&str>, theme: &Theme) -> TimelineEntry {
    let status = event.status.as_deref().map(|s| {
        let parsed = NexusStatus::parse(s);
        Span::styled(s.to_owned(), status_style(Some(&parsed), theme))
    });
    let mut figures = Vec::new();
    if let Some(sales) = event.sales_amount {
        figures.push(Span::styled("Sales ", theme.muted));
        figures.push(Span::styled(text::money(sales, currency), theme.money));
    }
    if let Some(count) = event.transaction_count {
        if !figures.is_empty() {
            figures.push(Span::styled(" · ", theme.muted));
        }
        let noun = if count == 1 {
            "transaction"
        } else {
            "transactions"
        };
        figures.push(Span::raw(format!(
            "{} {noun}",
            text::thousands(count.unsigned_abs())
        )));
    }
    let mut details = Vec::new();
    if !figures.is_empty() {
        details.push(Line::from(figures));
    }
    if !event.description.is_empty() {
        details.push(Line::from(event.description.clone()));
    }
    TimelineEntry {
        when: text::timestamp(&event.occurred_at),
        what: event_in_words(&event.event_type),
        status,
        details,
    }
}

/// The open history of one nexus.
pub struct History {
    nexus: Nexus,
    events: Vec<ExposureEvent>,
    /// Every page has arrived.
    complete: bool,
    waiting: Option<RequestId>,
    error: Option<String>,
    state: TimelineState,
}

impl History {
    /// Opens the history of `nexus` and asks for its first page.
    pub fn open(nexus: Nexus, ctx: &mut Ctx) -> Self {
        let mut history = History {
            nexus,
            events: Vec::new(),
            complete: false,
            waiting: None,
            error: None,
            state: TimelineState::default(),
        };
        history.fetch(1, ctx);
        history
    }

    fn fetch(&mut self, page: u32, ctx: &mut Ctx) {
        self.waiting = Some(ctx.call(Call::ExposureHistory {
            nexus_id: self.nexus.id.clone(),
            page: PageParams::new(page, PAGE_SIZE),
        }));
    }

    /// Cancels the page still on its way (the view is closing).
    pub fn close(&mut self, ctx: &mut Ctx) {
        if let Some(id) = self.waiting.take() {
            ctx.cancel(id);
        }
    }

    /// Takes the answer to `id` if it is the view's; answers whether it was. Pages are read to
    /// the end, one after another.
    pub fn receive(
        &mut self,
        id: RequestId,
        result: &Result<Reply, Failure>,
        ctx: &mut Ctx,
    ) -> bool {
        if self.waiting != Some(id) {
            return false;
        }
        self.waiting = None;
        match result {
            Ok(Reply::ExposureHistory(page)) => {
                self.events.extend(page.items.iter().cloned());
                if page.page < page.pages && !page.items.is_empty() {
                    self.fetch(page.page + 1, ctx);
                } else {
                    self.complete = true;
                }
            }
            Ok(_) => {}
            Err(failure) => {
                self.error = Some(failure.message.clone());
                ctx.notify(Level::Error, failure.message.clone());
            }
        }
        true
    }

    /// Scrolls for a movement action; `false` for any other.
    pub fn navigate(&mut self, action: Action) -> bool {
        self.state.navigate(action)
    }

    pub fn nexus(&self) -> &Nexus {
        &self.nexus
    }

    pub fn draw(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let [title, gap, body] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Length(1),
            Constraint::Min(1),
        ])
        .areas(area);
        let n = &self.nexus;
        let mut spans = vec![
            Span::styled(" Exposure history ", theme.title),
            Span::raw(format!("— {}", jurisdiction(n))),
        ];
        if !n.state_name.is_empty() {
            spans.push(Span::raw(format!(" {}", n.state_name)));
        }
        spans.push(Span::styled(format!("  ({})", n.id), theme.muted));
        let progress = match (&self.error, self.complete) {
            (Some(_), _) => String::new(),
            (None, true) => format!(
                "  {} event{}",
                self.events.len(),
                if self.events.len() == 1 { "" } else { "s" }
            ),
            (None, false) => "  loading…".to_owned(),
        };
        spans.push(Span::styled(progress, theme.muted));
        Paragraph::new(Line::from(spans)).render(title, buf);
        let _ = gap;
        if let Some(error) = &self.error
            && self.events.is_empty()
        {
            Paragraph::new(Line::from(Span::styled(format!(" {error}"), theme.error)))
                .render(body, buf);
            return;
        }
        let currency = n.currency.as_deref();
        let entries: Vec<TimelineEntry> = self
            .events
            .iter()
            .map(|e| entry(e, currency, theme))
            .collect();
        let empty = if self.complete {
            "No exposure events are recorded for this nexus."
        } else {
            "loading…"
        };
        let inner = Rect {
            x: body.x + 1,
            width: body.width.saturating_sub(2),
            ..body
        };
        Timeline::new(theme, &entries)
            .empty_text(empty)
            .render(inner, buf, &mut self.state);
    }
}
