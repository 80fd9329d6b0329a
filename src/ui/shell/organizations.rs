//! The organizations a Tenanted key reaches: listed once at start for the header and `:org`,
//! and the switch from one to another.

use super::calls::ShellCall;
use super::{NEEDS_TENANTED, PaneFactory, Shell};
use crate::effect::Goto;
use crate::effect::{Call, Effect, OrganizationCall};
use crate::model::PageParams;
use crate::model::tenanted::{ApiVersion, Organization};
use crate::ui::pane::{Level, Pane};

/// What the portfolio's `Enter` shows in the organization it opens.
pub(super) enum Opening {
    Overview,
    /// The list a count opens.
    List(Box<Goto>),
}

impl Shell {
    /// The client speaks the Tenanted API at `version`: the shell lists the organizations the
    /// key reaches and offers `:org` when there are several.
    pub fn with_tenanted(mut self, version: ApiVersion) -> Self {
        self.session.tenanted = Some(version);
        self
    }

    /// Where fresh panes come from when the organization changes; without one the panes are
    /// kept and only the focused one is shown again.
    pub fn with_pane_factory(
        mut self,
        factory: impl Fn() -> Vec<Box<dyn Pane>> + Send + 'static,
    ) -> Self {
        self.tabs.factory = Some(Box::new(factory) as PaneFactory);
        self
    }

    /// `Enter` on the portfolio: acts on `organization` (switching to it first when the
    /// dashboard acts on another) and shows its Overview, or the list `then` opens there;
    /// `ctrl-o` comes back to where it was asked from.
    pub(super) fn open_organization(
        &mut self,
        organization: &str,
        then: Option<Box<Goto>>,
    ) -> Vec<Effect> {
        if organization == self.session.header.organization
            || (self.session.header.organization.is_empty()
                && self.session.organizations.len() == 1)
        {
            return self.show_in_organization(then.map_or(Opening::Overview, Opening::List));
        }
        if self.tabs.panes.iter().any(|p| p.has_unsaved_input()) {
            self.notify_error(
                "A form holds unsaved input: save or close it before switching organization.",
            );
            return Vec::new();
        }
        self.session.after_switch = Some(then.map_or(Opening::Overview, Opening::List));
        vec![Effect::SwitchOrganization(organization.to_owned())]
    }

    /// Shows the Overview, or the list `then` opens; the place left (the portfolio, which
    /// outlives the switch) is where `ctrl-o` comes back to.
    fn show_in_organization(&mut self, opening: Opening) -> Vec<Effect> {
        if let Opening::List(goto) = opening {
            return self.goto(&goto);
        }
        let Some(overview) = self.tabs.panes.iter().position(|p| p.is_overview()) else {
            return Vec::new();
        };
        let from = self.spot();
        self.jumped_from(from);
        self.focus_pane(overview)
    }

    /// Asks for the organizations the key reaches (the first hundred).
    pub(super) fn list_organizations(&mut self) -> Effect {
        let call = Call::Organizations(OrganizationCall::List {
            page: PageParams::new(1, 100),
        });
        self.own_call(ShellCall::Organizations, call)
    }

    /// The organizations the key reaches were listed: the header names the one acted on, and
    /// `:org` completes them when there are several.
    pub(super) fn organizations_listed(&mut self, organizations: Vec<Organization>) {
        let ids = organizations.iter().map(|o| o.id.clone()).collect();
        self.commands.set_organizations(ids);
        self.session.organizations = organizations;
    }

    /// The organization the header names: its name and id when the list has it.
    pub(super) fn organization_label(&self) -> String {
        let id = &self.session.header.organization;
        // With no organization named, calls act on the key's own: when the key reaches one
        // organization only, that is the one.
        let only = match self.session.organizations.as_slice() {
            [only] if id.is_empty() => Some(only),
            _ => None,
        };
        if let Some(o) = only {
            return format!("{} ({})", o.name, o.id);
        }
        let name = self
            .session
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
        if self.session.tenanted.is_none() {
            self.notify_error(format!("Switching organization {NEEDS_TENANTED}."));
            return Vec::new();
        }
        if self.session.organizations.is_empty() {
            self.notify_error(
                "The organizations this key reaches are not listed yet; try again in a moment.",
            );
            return Vec::new();
        }
        if self.session.organizations.len() == 1 {
            let label = self.organization_label();
            self.notify_info(format!(
                "This API key reaches one organization only: {label}."
            ));
            return Vec::new();
        }
        let choices = || {
            self.session
                .organizations
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
            .session
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
        if id == self.session.header.organization {
            let label = self.organization_label();
            self.notify_info(format!("Already acting on {label}."));
            return Vec::new();
        }
        if self.tabs.panes.iter().any(|p| p.has_unsaved_input()) {
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
        organization.clone_into(&mut self.session.header.organization);
        let kept: Vec<bool> = self
            .tabs
            .panes
            .iter()
            .map(|p| p.outlives_organization())
            .collect();
        self.calls
            .forget_panes(|pane| kept.get(pane).copied().unwrap_or(false));
        let mut effects = Vec::new();
        if let Some(factory) = &self.tabs.factory {
            let panes = factory();
            if panes.len() == self.tabs.panes.len() {
                let old = std::mem::replace(&mut self.tabs.panes, panes);
                for (index, pane) in old.into_iter().enumerate() {
                    if kept[index] {
                        self.tabs.panes[index] = pane;
                    }
                }
                self.apply_columns();
                // The new panes flag the rows changed in this organization's snapshots.
                effects.push(self.read_changed());
            }
            self.jumps.clear();
        }
        self.tabs.shown = vec![false; self.tabs.panes.len()];
        self.tabs.shown[self.tabs.focus] = true;
        let label = self.organization_label();
        let text = match self.snapshot_stopped() {
            Some(stopped) => format!("Now acting on {label}. {stopped}"),
            None => format!("Now acting on {label}."),
        };
        self.notify(Level::Success, text);
        if let Some(opening) = self.session.after_switch.take() {
            effects.extend(self.show_in_organization(opening));
            return effects;
        }
        let focus = self.tabs.focus;
        effects.extend(self.with_pane(focus, |p, ctx| p.show(ctx)));
        effects
    }
}
