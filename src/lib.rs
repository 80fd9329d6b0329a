//! taxdash: a terminal dashboard for a sales-tax compliance service, its client, and a local
//! sandbox of the service.
//!
//! # A map for a newcomer
//!
//! Arrows point down only: `cli -> app -> ui -> effect -> model`, `app -> api -> config, model`,
//! `ui -> rules -> model`, `sandbox -> rules, model`. Nothing in `model`, `rules` or `api` knows
//! the terminal exists, and `ui` performs no I/O.
//!
//! | layer | what it holds |
//! |---|---|
//! | [`model`] | the wire types, one file per resource, shared by the client and the sandbox |
//! | [`rules`] | the service's rules as pure functions returning field errors; forms and sandbox call them |
//! | [`api`] | the async client: transport, retries, pacing, errors, one method per endpoint |
//! | [`effect`] | what panes ask of the runtime ([`effect::Call`]) and what comes back ([`effect::Reply`]) |
//! | [`app`] | the runtime: terminal, event loop, carrying out effects with the client |
//! | [`ui`] | the shell (header, tabs, footer, overlays), the panes, the widgets, the theme |
//! | [`sandbox`] | the local service: routes, store, demo data, auth, limits, faults |
//! | [`commands`], [`export`], [`import`] | the command-line commands besides the dashboard; `import` also backs the dashboard's `:import` |
//! | [`history`] | the history database (`SQLite`): the audit log of every write the client sends, fed from the transport through [`api::AuditSink`] |
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
//! 3. Its line in `app/calls/<resource>.rs`, which carries the call out with the client.
//! 4. A pane asks for it through `Requests::call` with an operation of its own, and gets the
//!    answer back in `PaneSpec::receive`.
//!
//! A write needs nothing more to reach the audit log: the transport records every call that is
//! not `GET` (mark a `POST` that changes nothing with `Call::reading`). A command that writes
//! gets its client from [`history::audited`], which refuses to go on without the log.

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
pub mod model;
pub mod rules;
pub mod sandbox;
pub mod ui;
