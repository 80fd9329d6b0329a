//! The exposure history of one economic nexus (Tenanted API): every event from the start of the
//! period to registration, oldest first, as a vertical timeline with the nexus status after each
//! event coloured as in the list, the sales counted so far as money and the transaction count.

use crate::effect::{NexusCall, NexusReply};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, StatefulWidget, Widget};

use super::status::{jurisdiction, status_style};
use crate::effect::{Call, Failure, Reply};
use crate::model::tenanted::{ExposureEvent, ExposureEventType};
use crate::model::{Nexus, NexusStatus, PageParams};
use crate::ui::keymap::Action;
use crate::ui::pane::{Ctx, Level};
use crate::ui::skeleton::PaneView;
use crate::ui::text;
use crate::ui::theme::Theme;
use crate::ui::widgets::form::Form;
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
        figures.push(Span::raw(text::count(count, "transaction")));
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
    error: Option<String>,
    state: TimelineState,
}

impl History {
    /// The history of `nexus`, before its first page (ask for it with [`History::page_call`]).
    pub fn new(nexus: Nexus) -> Self {
        History {
            nexus,
            events: Vec::new(),
            complete: false,
            error: None,
            state: TimelineState::default(),
        }
    }

    /// The call for page `page` of the history.
    pub fn page_call(&self, page: u32) -> Call {
        Call::Nexus(NexusCall::ExposureHistory {
            nexus_id: self.nexus.id.clone(),
            page: PageParams::new(page, PAGE_SIZE),
        })
    }

    /// Takes the answer to a page; returns the call for the next page while there is one. Pages
    /// are read to the end, one after another.
    pub fn receive(&mut self, result: Result<Reply, Failure>, ctx: &mut Ctx) -> Option<Call> {
        match result {
            Ok(Reply::Nexus(NexusReply::ExposureHistory(page))) => {
                let more = page.page < page.pages && !page.items.is_empty();
                self.events.extend(page.items);
                if more {
                    return Some(self.page_call(page.page + 1));
                }
                self.complete = true;
            }
            Ok(reply) => {
                crate::ui::skeleton::unexpected("the exposure history", &reply, ctx);
                self.complete = true;
            }
            Err(failure) => {
                self.error = Some(failure.message.clone());
                ctx.notify(Level::Error, failure.message);
            }
        }
        None
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
            (None, true) => format!("  {}", text::count(self.events.len() as u64, "event")),
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

impl PaneView for History {
    fn form(&self) -> Option<&Form> {
        None
    }

    fn form_mut(&mut self) -> Option<&mut Form> {
        None
    }

    fn subtitle(&self) -> String {
        format!("exposure history of {}", jurisdiction(&self.nexus))
    }

    fn draw(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        History::draw(self, area, buf, theme);
    }
}
