//! The organizations a Tenanted key reaches: listed once at start for the header and `:org`,
//! and the switch from one to another.

use super::{PaneFactory, Shell};
use crate::effect::OrganizationReply;
use crate::effect::{Call, Effect, Failure, Reply, RequestId};
use crate::model::tenanted::ApiVersion;
use crate::ui::pane::{Level, Pane};
use crate::ui::theme::Theme;
use crate::ui::widgets::command_line::CommandLine;

use super::NEEDS_TENANTED;

/// A call the shell makes for itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ShellCall {
    Organizations,
    /// One kind of answer to the find numbered `generation`.
    Find {
        generation: u64,
        kind: super::find::FindKind,
    },
}

impl Shell {
    /// The client speaks the Tenanted API at `version`: the shell lists the organizations the
    /// key reaches and offers `:org` when there are several.
    pub fn with_tenanted(mut self, version: ApiVersion) -> Self {
        self.tenanted = Some(version);
        self
    }

    /// Where fresh panes come from when the organization changes; without one the panes are
    /// kept and only the focused one is shown again.
    pub fn with_pane_factory(
        mut self,
        factory: impl Fn() -> Vec<Box<dyn Pane>> + Send + 'static,
    ) -> Self {
        self.pane_factory = Some(Box::new(factory) as PaneFactory);
        self
    }

    /// A call the shell makes for itself.
    pub(super) fn own_call(&mut self, kind: ShellCall, call: Call) -> Effect {
        self.next_id += 1;
        let id = RequestId(self.next_id);
        self.own_calls.insert(id, kind);
        Effect::Call {
            id,
            call: Box::new(call),
        }
    }

    /// The shell's own answers: the organizations list.
    pub(super) fn receive_own(
        &mut self,
        kind: ShellCall,
        result: Result<Reply, Failure>,
    ) -> Vec<Effect> {
        match (kind, result) {
            (ShellCall::Find { generation, kind }, result) => {
                return self.found(generation, kind, result);
            }
            (ShellCall::Organizations, Ok(Reply::Organizations(OrganizationReply::Page(page)))) => {
                self.organizations = page.items;
                let mut commands = self.base_commands.clone();
                let ids: Vec<String> = self.organizations.iter().map(|o| o.id.clone()).collect();
                if ids.len() > 1 {
                    commands.push("org".to_owned());
                    commands.sort();
                }
                self.command_line = command_line(commands, ids, self.view_names.clone());
            }
            (ShellCall::Organizations, Ok(_)) => {}
            (ShellCall::Organizations, Err(failure)) => {
                self.notify_error(format!(
                    "The organizations could not be listed: {}",
                    failure.message
                ));
            }
        }
        Vec::new()
    }

    /// The organization the header names: its name and id when the list has it.
    pub(super) fn organization_label(&self) -> String {
        let id = &self.header.organization;
        // With no organization named, calls act on the key's own: when the key reaches one
        // organization only, that is the one.
        let only = match self.organizations.as_slice() {
            [only] if id.is_empty() => Some(only),
            _ => None,
        };
        if let Some(o) = only {
            return format!("{} ({})", o.name, o.id);
        }
        let name = self
            .organizations
            .iter()
            .find(|o| &o.id == id)
            .map(|o| o.name.as_str());
        match (name, id.is_empty()) {
            (Some(name), _) => format!("{name} ({id})"),
            (None, false) => id.clone(),
            (None, true) => "the key's own".to_owned(),
        }
    }

    /// `:org [ID]`: switches the organization the dashboard acts on.
    pub(super) fn org_command(&mut self, args: &[&str]) -> Vec<Effect> {
        if self.tenanted.is_none() {
            self.notify_error(format!("Switching organization {NEEDS_TENANTED}."));
            return Vec::new();
        }
        if self.organizations.is_empty() {
            self.notify_error(
                "The organizations this key reaches are not listed yet; try again in a moment.",
            );
            return Vec::new();
        }
        if self.organizations.len() == 1 {
            let label = self.organization_label();
            self.notify_info(format!(
                "This API key reaches one organization only: {label}."
            ));
            return Vec::new();
        }
        let choices = || {
            self.organizations
                .iter()
                .map(|o| format!("{} ({})", o.id, o.name))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let wanted = args.join(" ");
        if wanted.is_empty() {
            let choices = choices();
            self.notify_error(format!("Usage: :org ID ({choices})"));
            return Vec::new();
        }
        let found = self
            .organizations
            .iter()
            .find(|o| o.id.eq_ignore_ascii_case(&wanted) || o.name.eq_ignore_ascii_case(&wanted))
            .map(|o| o.id.clone());
        let Some(id) = found else {
            let choices = choices();
            self.notify_error(format!(
                "This API key reaches no organization {wanted:?}; it reaches {choices}."
            ));
            return Vec::new();
        };
        if id == self.header.organization {
            let label = self.organization_label();
            self.notify_info(format!("Already acting on {label}."));
            return Vec::new();
        }
        if self.panes.iter().any(|p| p.has_unsaved_input()) {
            self.notify_error(
                "A form holds unsaved input: save or close it before switching organization.",
            );
            return Vec::new();
        }
        vec![Effect::SwitchOrganization(id)]
    }

    /// The runtime now acts on `organization`: the header says so, and every pane starts over
    /// (the records shown belonged to the organization left). Returns what the focused pane
    /// asks for as it loads again.
    pub fn organization_switched(&mut self, organization: &str) -> Vec<Effect> {
        organization.clone_into(&mut self.header.organization);
        self.waiting.clear();
        if let Some(factory) = &self.pane_factory {
            let panes = factory();
            if panes.len() == self.panes.len() {
                self.panes = panes;
                self.apply_columns();
                self.mark_changed();
            }
            self.jumps.clear();
        }
        self.shown = vec![false; self.panes.len()];
        self.shown[self.focus] = true;
        let label = self.organization_label();
        self.notify(Level::Success, format!("Now acting on {label}."));
        self.with_pane(self.focus, |p, ctx| p.show(ctx))
    }
}

/// The command line completing `commands`, `:theme`'s themes and `:org`'s organizations.
pub(super) fn command_line(
    commands: Vec<String>,
    organizations: Vec<String>,
    views: super::views::ViewNames,
) -> CommandLine {
    CommandLine::new(commands).with_arguments(move |command| match command {
        "theme" => Theme::available(None),
        "org" => organizations.clone(),
        "view" => views.candidates(),
        "columns" => views.columns(),
        "export" => ["csv", "json", "jsonl"].map(str::to_owned).to_vec(),
        _ => Vec::new(),
    })
}
