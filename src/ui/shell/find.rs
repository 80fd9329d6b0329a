//! Find anywhere (`ctrl-k`, or `:find TEXT`). An id with a known prefix opens that record; any
//! other text is looked up as a transaction's and a customer's external id and searched among
//! customers, exemptions and transactions at once, and matched against the jurisdictions' codes
//! and names (`TX`, `US-TX`, `texas`), each leading to its registrations, nexus and filings. The answers are listed grouped by kind as they arrive;
//! a newer query drops the older one's answers. Enter on a result goes to its tab with the
//! record open.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget};

use super::Shell;
use super::layers::{Ask, LayerCx, ShellLayer};
use crate::effect::{
    Call, CustomerCall, CustomerReply, Effect, ExemptionCall, ExemptionReply, Failure, FailureKind,
    FilingCall, FilingReply, Goto, RegistrationCall, RegistrationReply, Reply, RequestId,
    TransactionCall, TransactionReply,
};
use crate::model::PageParams;
use crate::model::filters::{CustomerFilter, ExemptionFilter, TransactionFilter};
use crate::model::{Customer, Exemption, Transaction};
use crate::ui::keymap::Action;
use crate::ui::layer::{Layer, LayerOutcome};
use crate::ui::theme::Theme;
use crate::ui::widgets::help::page_block;

/// How many results of each kind are listed.
const PER_KIND: u32 = 10;

/// What one call of a find looks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FindKind {
    /// The record an id names.
    Record,
    /// The transaction a shop's own id names.
    External,
    /// The customer a shop's own id names.
    CustomerExternal,
    Customers,
    Exemptions,
    Transactions,
    /// The jurisdictions whose code or name the text matches (found here, without a call).
    Jurisdictions,
}

impl FindKind {
    fn heading(self) -> &'static str {
        match self {
            FindKind::Record => "Record",
            FindKind::External => "Transaction by external id",
            FindKind::CustomerExternal => "Customer by external id",
            FindKind::Customers => "Customers",
            FindKind::Exemptions => "Exemptions",
            FindKind::Transactions => "Transactions",
            FindKind::Jurisdictions => "Jurisdictions",
        }
    }
}

/// One result: what the list shows, and where Enter goes.
#[derive(Debug, Clone, PartialEq)]
struct Found {
    label: String,
    goto: Goto,
}

/// The answers of one kind: the results, how many there are in all, or why there are none.
#[derive(Debug, Clone, PartialEq)]
struct Group {
    kind: FindKind,
    found: Result<(Vec<Found>, u64), String>,
    /// When there are more than are listed: the way to all of them, the list searched.
    more: Option<Found>,
}

impl Group {
    /// The group of `kind`'s answers to `query`; when the service holds more than are listed,
    /// a last entry goes to all of them: the list, searched for `query`.
    fn new(kind: FindKind, found: Result<(Vec<Found>, u64), String>, query: &str) -> Self {
        let more = match &found {
            Ok((listed, total)) if *total > listed.len() as u64 => {
                listed.first().and_then(|first| {
                    Some(Found {
                        label: format!(
                            "→ all {} in {}, searched for \"{query}\"",
                            crate::model::format::thousands(*total),
                            kind.heading(),
                        ),
                        goto: the_list(&first.goto)?,
                    })
                })
            }
            _ => None,
        };
        Group { kind, found, more }
    }
}

/// The find overlay: the query, the calls still awaited and what each looks for, the groups in
/// the order they came.
#[derive(Debug, Clone, PartialEq)]
struct FindView {
    query: String,
    awaited: Vec<(RequestId, FindKind)>,
    groups: Vec<Group>,
    cursor: usize,
    scroll: u16,
}

/// What a key does to the find overlay.
enum FindOutcome {
    None,
    Close,
    Go(Box<Goto>),
}

impl FindView {
    fn results(&self) -> impl Iterator<Item = &Found> {
        self.groups.iter().flat_map(|g| {
            g.found
                .as_ref()
                .ok()
                .into_iter()
                .flat_map(|(found, _)| found.iter())
                .chain(g.more.iter())
        })
    }

    /// Up/Down (`k`/`j`) move, Enter goes, Esc closes.
    fn handle_key(&mut self, key: KeyEvent) -> FindOutcome {
        let count = self.results().count();
        match key.code {
            KeyCode::Esc | KeyCode::Char('q') => return FindOutcome::Close,
            KeyCode::Down | KeyCode::Char('j') => {
                self.cursor = (self.cursor + 1).min(count.saturating_sub(1));
            }
            KeyCode::Up | KeyCode::Char('k') => self.cursor = self.cursor.saturating_sub(1),
            KeyCode::Enter => {
                if let Some(found) = self.results().nth(self.cursor) {
                    return FindOutcome::Go(Box::new(found.goto.clone()));
                }
            }
            _ => {}
        }
        FindOutcome::None
    }

    fn lines(&self, theme: &Theme) -> (Vec<Line<'static>>, usize) {
        let mut lines = Vec::new();
        let mut index = 0;
        let mut cursor_line = 0;
        for group in &self.groups {
            let heading = match &group.found {
                Ok((found, total)) if found.is_empty() => format!("{}: none", group.kind.heading()),
                Ok((found, total)) if *total > found.len() as u64 => {
                    format!("{} ({} of {total})", group.kind.heading(), found.len())
                }
                Ok(_) => group.kind.heading().to_owned(),
                Err(why) => format!("{}: {why}", group.kind.heading()),
            };
            lines.push(Line::styled(
                heading,
                theme.title.add_modifier(Modifier::BOLD),
            ));
            if let Ok((found, _)) = &group.found {
                for f in found.iter().chain(group.more.iter()) {
                    let style = if index == self.cursor {
                        cursor_line = lines.len();
                        theme.selection
                    } else {
                        theme.base
                    };
                    lines.push(Line::from(Span::styled(format!("  {}", f.label), style)));
                    index += 1;
                }
            }
            lines.push(Line::default());
        }
        for (_, kind) in &self.awaited {
            lines.push(Line::styled(
                format!("{}: searching…", kind.heading()),
                theme.muted,
            ));
        }
        (lines, cursor_line)
    }

    /// Draws the overlay over the whole of `area`.
    fn render(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let (lines, cursor_line) = self.lines(theme);
        let visible = usize::from(area.height.saturating_sub(2)).max(1);
        let top = usize::from(self.scroll);
        let top = if cursor_line < top {
            cursor_line
        } else if cursor_line >= top + visible {
            cursor_line + 1 - visible
        } else {
            top
        };
        self.scroll = u16::try_from(top).unwrap_or(u16::MAX);
        let block = page_block(
            format!(" Find \"{}\" ", self.query),
            " ↑/↓ move  Enter open ",
            theme,
        );
        Clear.render(area, buf);
        Paragraph::new(lines)
            .block(block)
            .style(theme.base)
            .scroll((self.scroll, 0))
            .render(area, buf);
    }
}

impl Layer for FindView {
    fn draw(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        self.render(area, buf, theme);
    }
}

impl ShellLayer for FindView {
    /// Another find (or any command) from the results ends this find and opens the command
    /// line; Enter on a result goes to it.
    fn key(&mut self, key: KeyEvent, cx: &mut LayerCx) -> LayerOutcome {
        match cx.keys.action(&key) {
            Some(Action::Find) => {
                cx.ask(Ask::CommandLine("find "));
                return LayerOutcome::Close;
            }
            Some(Action::CommandLine) => {
                cx.ask(Ask::CommandLine(""));
                return LayerOutcome::Close;
            }
            _ => {}
        }
        match self.handle_key(key) {
            FindOutcome::None => LayerOutcome::Keep,
            FindOutcome::Close => LayerOutcome::Close,
            FindOutcome::Go(goto) => {
                cx.ask(Ask::Goto(goto));
                LayerOutcome::Close
            }
        }
    }

    fn awaited(&self) -> Vec<RequestId> {
        self.awaited.iter().map(|(id, _)| *id).collect()
    }

    /// An answer: its results are listed; a record read by its id opens at once.
    fn receive(
        &mut self,
        id: RequestId,
        result: Result<Reply, Failure>,
        cx: &mut LayerCx,
    ) -> LayerOutcome {
        let Some(at) = self.awaited.iter().position(|(awaited, _)| *awaited == id) else {
            return LayerOutcome::Keep;
        };
        let (_, kind) = self.awaited.remove(at);
        let found = match result {
            Ok(reply) => match record_goto(reply, &self.query) {
                Some(Ok(goto)) if kind == FindKind::Record => {
                    cx.ask(Ask::Goto(Box::new(goto)));
                    return LayerOutcome::Close;
                }
                Some(Ok(goto)) => Ok((
                    vec![Found {
                        label: describe_goto(&goto),
                        goto,
                    }],
                    1,
                )),
                Some(Err(listed)) => Ok(listed),
                None => Err("unexpected answer".to_owned()),
            },
            Err(f) if f.kind == FailureKind::NotFound => Ok((Vec::new(), 0)),
            Err(f) => Err(f.message),
        };
        self.groups.push(Group::new(kind, found, &self.query));
        LayerOutcome::Keep
    }
}

/// The kind of record an id's prefix names, and the call that reads it.
fn record_call(id: &str) -> Option<Result<Call, String>> {
    let prefix = id.split_once('_').map(|(p, _)| p)?;
    let id = id.to_owned();
    Some(match prefix {
        "regs" => Ok(RegistrationCall::Get { id, reveal: None }.into()),
        "cust" => Ok(CustomerCall::Get { id }.into()),
        "tran" => Ok(TransactionCall::Get { id }.into()),
        "exmp" => Ok(ExemptionCall::Get { id }.into()),
        "file" => Ok(FilingCall::Get { id }.into()),
        "phys" => Err(
            "The service reads a physical nexus only in its list: open Nexus and its physical view."
                .to_owned(),
        ),
        _ => return None,
    })
}

fn customer_label(c: &Customer) -> String {
    let name = c.name.as_deref().unwrap_or("(no name)");
    let email = c.email.as_deref().unwrap_or("");
    format!("{name}  {email}  {}", c.id)
}

fn exemption_label(e: &Exemption) -> String {
    let who = e.customer_name.as_deref().unwrap_or("");
    let place = e.jurisdiction.as_deref().unwrap_or("");
    let status = e
        .status
        .as_ref()
        .map(ToString::to_string)
        .unwrap_or_default();
    format!("{who}  {place}  {status}  {}", e.id)
}

fn transaction_label(t: &Transaction) -> String {
    let who = t
        .customer
        .as_ref()
        .and_then(|c| c.name.as_deref())
        .unwrap_or("");
    let state = t.state.as_deref().unwrap_or("");
    format!("{}  {who}  {state}  {}", t.external_id, t.id)
}

impl Shell {
    /// `:find TEXT`: starts a find, its answers listed as they come.
    pub(super) fn find(&mut self, query: &str) -> Vec<Effect> {
        let query = query.trim().to_owned();
        if query.is_empty() {
            self.notify_error("Usage: :find ID, external id or text".to_owned());
            return Vec::new();
        }
        let mut calls: Vec<(FindKind, Call)> = Vec::new();
        match record_call(&query) {
            Some(Err(why)) => {
                self.notify_info(why);
                return Vec::new();
            }
            Some(Ok(call)) => calls.push((FindKind::Record, call)),
            None => {
                let page = PageParams::new(1, PER_KIND);
                let search = Some(query.clone());
                calls.push((
                    FindKind::External,
                    TransactionCall::GetByExternal {
                        external_id: query.clone(),
                    }
                    .into(),
                ));
                calls.push((
                    FindKind::CustomerExternal,
                    CustomerCall::GetByExternal {
                        external_id: query.clone(),
                    }
                    .into(),
                ));
                calls.push((
                    FindKind::Customers,
                    CustomerCall::List {
                        filter: CustomerFilter {
                            search_query: search.clone(),
                            ..CustomerFilter::default()
                        },
                        page,
                    }
                    .into(),
                ));
                calls.push((
                    FindKind::Exemptions,
                    ExemptionCall::List {
                        filter: ExemptionFilter {
                            search_query: search.clone(),
                            ..ExemptionFilter::default()
                        },
                        page,
                    }
                    .into(),
                ));
                calls.push((
                    FindKind::Transactions,
                    TransactionCall::List {
                        filter: TransactionFilter {
                            search_query: search,
                            ..TransactionFilter::default()
                        },
                        page,
                    }
                    .into(),
                ));
            }
        }
        let places = jurisdictions(&query);
        let groups = if places.is_empty() {
            Vec::new()
        } else {
            let count = places.len() as u64;
            vec![Group::new(
                FindKind::Jurisdictions,
                Ok((places, count)),
                &query,
            )]
        };
        self.open_layer(|cx| {
            let awaited = calls
                .into_iter()
                .map(|(kind, call)| (cx.call(call), kind))
                .collect();
            Box::new(FindView {
                query,
                awaited,
                groups,
                cursor: 0,
                scroll: 0,
            })
        })
    }
}

/// The jurisdictions `query` names by code (`TX`, `US-TX`, `ON`) or by name (`texas`, three
/// letters or more of it), each as three results: its registrations, its economic nexus and its
/// filings, each list filtered to the jurisdiction.
fn jurisdictions(query: &str) -> Vec<Found> {
    use crate::model::filters::{FilingFilter, NexusFilter, RegistrationFilter};
    let q = query.trim().to_lowercase();
    let named = |t: &&crate::ui::widgets::state_map::Tile| {
        let Some(state) = t.state else {
            return false;
        };
        let code = format!("{}-{state}", t.country).to_lowercase();
        q == state.to_lowercase()
            || q == code
            || (q.chars().count() >= 3 && t.name.to_lowercase().contains(&q))
    };
    crate::ui::widgets::state_map::TILES
        .iter()
        .filter(named)
        .take(PER_KIND as usize / 3)
        .flat_map(|t| {
            let state = t.state.unwrap_or_default().to_owned();
            let country = t.country.to_owned();
            let place = format!("{} ({country}-{state})", t.name);
            [
                Found {
                    label: format!("{place} · registrations"),
                    goto: Goto::registrations(RegistrationFilter {
                        state_code: Some(state.clone()),
                        country_code_in: vec![country.clone()],
                        ..RegistrationFilter::default()
                    }),
                },
                Found {
                    label: format!("{place} · economic nexus"),
                    goto: Goto::nexus(NexusFilter {
                        state_code: Some(state.clone()),
                        country_code_in: vec![country.clone()],
                        ..NexusFilter::default()
                    }),
                },
                Found {
                    label: format!("{place} · filings"),
                    goto: Goto::filings(FilingFilter {
                        state_code: Some(state),
                        country_code: vec![country],
                        ..FilingFilter::default()
                    }),
                },
            ]
        })
        .collect()
}

/// A single record's answer as where to go (`Ok`), or a page's answer as results (`Err`).
fn record_goto(reply: Reply, query: &str) -> Option<Result<Goto, (Vec<Found>, u64)>> {
    let search = Some(query.to_owned());
    Some(match reply {
        Reply::Registrations(RegistrationReply::One(r)) => Ok(Goto::Registrations {
            filter: crate::model::filters::RegistrationFilter::default(),
            open: Some(r),
        }),
        Reply::Customers(CustomerReply::One(c)) => Ok(Goto::Customers {
            filter: CustomerFilter::default(),
            open: Some(c),
        }),
        Reply::Transactions(TransactionReply::One(t)) => Ok(Goto::Transactions {
            filter: TransactionFilter::default(),
            open: Some(*t),
        }),
        Reply::Exemptions(ExemptionReply::One(e)) => Ok(Goto::Exemptions {
            filter: ExemptionFilter::default(),
            open: Some(*e),
        }),
        Reply::Filings(FilingReply::One(f)) => Ok(Goto::Filings {
            filter: crate::model::filters::FilingFilter::default(),
            open: Some(*f),
        }),
        Reply::Customers(CustomerReply::Page(page)) => Err((
            page.items
                .into_iter()
                .map(|c| Found {
                    label: customer_label(&c),
                    goto: Goto::Customers {
                        filter: CustomerFilter {
                            search_query: search.clone(),
                            ..CustomerFilter::default()
                        },
                        open: Some(c),
                    },
                })
                .collect(),
            page.total,
        )),
        Reply::Exemptions(ExemptionReply::Page(page)) => Err((
            page.items
                .into_iter()
                .map(|e| Found {
                    label: exemption_label(&e),
                    goto: Goto::Exemptions {
                        filter: ExemptionFilter {
                            search_query: search.clone(),
                            ..ExemptionFilter::default()
                        },
                        open: Some(e),
                    },
                })
                .collect(),
            page.total,
        )),
        Reply::Transactions(TransactionReply::Page(page)) => Err((
            page.items
                .into_iter()
                .map(|t| Found {
                    label: transaction_label(&t),
                    goto: Goto::Transactions {
                        filter: TransactionFilter {
                            search_query: search.clone(),
                            ..TransactionFilter::default()
                        },
                        open: Some(t),
                    },
                })
                .collect(),
            page.total,
        )),
        _ => return None,
    })
}

/// The list a found record was found in, with nothing opened: where "all N" goes.
fn the_list(goto: &Goto) -> Option<Goto> {
    Some(match goto {
        Goto::Transactions { filter, .. } => Goto::Transactions {
            filter: filter.clone(),
            open: None,
        },
        Goto::Customers { filter, .. } => Goto::Customers {
            filter: filter.clone(),
            open: None,
        },
        Goto::Exemptions { filter, .. } => Goto::Exemptions {
            filter: filter.clone(),
            open: None,
        },
        _ => return None,
    })
}

/// A single found record in words (the external id's transaction).
fn describe_goto(goto: &Goto) -> String {
    match goto {
        Goto::Transactions { open: Some(t), .. } => transaction_label(t),
        Goto::Customers { open: Some(c), .. } => customer_label(c),
        Goto::Exemptions { open: Some(e), .. } => exemption_label(e),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::filters::TransactionFilter;

    #[test]
    fn ten_of_56_leads_to_all_56_in_the_list_searched() {
        let filter = TransactionFilter {
            search_query: Some("Northwind".into()),
            ..TransactionFilter::default()
        };
        let listed: Vec<Found> = (0..10)
            .map(|i| Found {
                label: format!("sale {i}"),
                goto: Goto::Transactions {
                    filter: filter.clone(),
                    open: None,
                },
            })
            .collect();
        let mut view = FindView {
            query: "Northwind".into(),
            awaited: Vec::new(),
            groups: vec![Group::new(
                FindKind::Transactions,
                Ok((listed, 56)),
                "Northwind",
            )],
            cursor: 0,
            scroll: 0,
        };
        let (lines, _) = view.lines(&Theme::default());
        let text: Vec<String> = lines.iter().map(ToString::to_string).collect();
        assert_eq!(text[0], "Transactions (10 of 56)");
        assert_eq!(
            text[11],
            "  → all 56 in Transactions, searched for \"Northwind\""
        );
        for _ in 0..20 {
            view.handle_key(KeyEvent::from(KeyCode::Down));
        }
        match view.handle_key(KeyEvent::from(KeyCode::Enter)) {
            FindOutcome::Go(goto) => assert_eq!(*goto, Goto::Transactions { filter, open: None }),
            _ => panic!("Enter on the last entry goes to the list"),
        }
        // All listed: no such entry.
        let all = Group::new(FindKind::Customers, Ok((Vec::new(), 0)), "x");
        assert!(all.more.is_none());
    }
}
