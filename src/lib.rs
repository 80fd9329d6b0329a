//! taxdash: a terminal dashboard for a sales-tax compliance service, its client, and a local
//! sandbox of the service.
//!
//! # A map for a newcomer
//!
//! The crate is in layers, and a module imports only layers below its own. The table is in
//! `src/layers/mod.rs` (`LAYERS`), and `cargo test --lib layers` checks every `crate::` path of
//! the production code against it, naming the file and line of any import it does not allow.
//! Lowest first:
//!
//! ```text
//! clock                  the day everything counts from
//! model                  wire types, and the vocabulary the layers share
//! os                     signals, the files a user names
//! rules                  the service's rules, pure
//! checks                 judgements on records, pure (no client)
//! config, credentials    the config file, the keyring
//! api                    the client
//! effect                 what the panes ask of the runtime
//! ui                     the panes, the shell, the widgets: no I/O
//! reads                  the records the checks read, through the client
//! export, import         whole lists to and from files
//! sandbox                the local service
//! history                the audit log and the snapshots
//! app                    the runtime
//! cli, commands          the command line
//! ```
//!
//! The main arrows: `commands -> app -> ui -> effect -> model`, `app -> api -> config,
//! credentials, model`, `ui -> rules, checks -> model`, `reads -> api, checks`, `export, import
//! -> reads, effect, api`, `history -> export, sandbox`, `sandbox -> rules, model`; `clock` and
//! `os` are below whoever needs them. Nothing in `model`, `rules`, `checks` or `api` knows the
//! terminal exists, and `ui` performs no I/O: it asks the runtime through [`effect`].
//!
//! Words several layers share live low: the lists by name ([`model::Resource`]), the filing
//! tolerance ([`model::Tolerance`]) and a period's sales ([`model::PeriodActivity`]) in `model`;
//! what an export or an import carries ([`effect::ListQuery`], [`effect::Format`],
//! [`effect::ImportResource`]) in `effect`, beside the call it rides on. The layer that carries
//! one out adds its own methods there (`ListQuery::from_flags` in `export`, the columns an
//! import reads in `import`).
//!
//! | layer | what it holds |
//! |---|---|
//! | [`model`] | the wire types, one file per resource, shared by the client and the sandbox |
//! | [`os`] | the signals the program races against, and the files a user names (a certificate, a file saved) |
//! | [`rules`] | the service's rules as pure functions returning field errors; forms and sandbox call them |
//! | [`checks`] | checks no other tool runs (forecasts, exemptions, filings that do not add up), pure |
//! | [`config`], [`credentials`] | the config file, and the API keys in the OS keyring |
//! | [`api`] | the async client: transport, retries, pacing, errors, one method per endpoint |
//! | [`effect`] | what panes ask of the runtime ([`effect::Call`]) and what comes back ([`effect::Reply`]) |
//! | [`ui`] | the shell (header, tabs, footer, overlays), the panes, the widgets, the theme; the settings that judge records reach the panes in their context ([`ui::pane::Ctx::judging`]) |
//! | [`reads`] | every page of a list through the client, and the readings the checks and the dashboard make with it |
//! | [`export`], [`import`] | a whole list written to a file; a file's rows checked and sent; `import` also backs the dashboard's `:import` |
//! | [`sandbox`] | the local service: routes, store, demo data, auth, limits, faults |
//! | [`history`] | the history database (`SQLite`): the audit log of every write the client sends, fed from the transport through [`api::AuditSink`], and the snapshots |
//! | [`app`] | the runtime: terminal, event loop, carrying out effects with the client |
//! | [`cli`], [`commands`] | the command line's shape, and the commands besides the dashboard |
//! | [`clock`] | the day "overdue" and "expiring" count from, and the demo data is dated around: the local date, or `--today`; fixed in tests |
//!
//! # The pane skeleton
//!
//! Every tab is built on [`ui::skeleton`]: a [`ui::skeleton::Skeleton`] owns the list (pages,
//! filter, sort, marks, loading / loaded / failed state), the screen (list, filter form,
//! detail, a form of the pane's own), the dialogs over it, and the calls on their way; a pane
//! supplies only a [`ui::skeleton::ListSpec`] and a [`ui::skeleton::PaneSpec`]. A tab with two
//! lists is a [`ui::skeleton::Switch`] of two skeletons.
//!
//! # Adding a pane
//!
//! 1. A module under `ui/panes/` with its `ListSpec` (row, filter, call, columns) and its
//!    `PaneSpec` (detail, forms, dialogs, operations, its verbs — each key and `:` command
//!    declared once, see [`ui::skeleton::verbs`] — and what the answers to its calls do).
//! 2. One line in [`ui::panes::all`].
//! 3. Its calls, if the client does not have them yet (below).
//!
//! # Adding a call
//!
//! 1. The endpoint method on [`api::Client`], in `api/endpoints/<resource>.rs`.
//! 2. A [`effect::Call`] variant (and a [`effect::Reply`] variant for a new answer type), with
//!    its words in `Call::describe` and, for a write, in `Call::is_write`.
//! 3. Its line in `app/calls/<resource>.rs`, which carries the call out with the client (a
//!    reading of every page, or one a check needs, goes in [`reads`] and is called from there).
//! 4. A pane asks for it through `Requests::call` with an operation of its own, and gets the
//!    answer back in `PaneSpec::receive`.
//!
//! A write needs nothing more to reach the audit log: the transport records every call that is
//! not `GET` (mark a `POST` that changes nothing with `Call::reading`). A command that writes
//! gets its client from [`history::audited`], over a history it has opened: without one, nothing
//! is sent.

pub mod api;
pub mod app;
pub mod checks;
pub mod cli;
pub mod clock;
pub mod commands;
pub mod config;
pub mod credentials;
pub mod effect;
pub mod export;
pub mod history;
pub mod import;
#[cfg(test)]
mod layers;
pub mod model;
pub mod os;
pub mod reads;
pub mod rules;
pub mod sandbox;
pub mod ui;
