//! Which organization a Tenanted request acts on: the organization selector headers.

/// Which organization a Tenanted call acts on, sent as selector headers.
///
/// The service resolves each selector among the organizations the key reaches; without one,
/// reads act on the key's home organization and writes need a selector when the key reaches
/// several organizations.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Selector {
    /// No selector: the key's home organization (and every reachable one for
    /// `GET /organizations`).
    #[default]
    Home,
    /// `Organization-Id`.
    Organization(String),
    /// `Connection-Id`: the organization owning that connection.
    Connection(String),
    /// `Entity-Id` and, to tell apart entities of the same ID, `Entity-Source`.
    Entity { id: String, source: Option<String> },
}

impl Selector {
    /// The organization ID it names, when it names one directly.
    pub fn organization_id(&self) -> Option<&str> {
        match self {
            Selector::Organization(id) => Some(id),
            _ => None,
        }
    }

    /// The headers that carry it (none for [`Selector::Home`]).
    pub(crate) fn headers(&self) -> Vec<(&'static str, &str)> {
        match self {
            Selector::Home => Vec::new(),
            Selector::Organization(id) => vec![("organization-id", id)],
            Selector::Connection(id) => vec![("connection-id", id)],
            Selector::Entity { id, source } => {
                let mut headers = vec![("entity-id", id.as_str())];
                if let Some(source) = source {
                    headers.push(("entity-source", source.as_str()));
                }
                headers
            }
        }
    }
}
