//! Who is who on the sandbox's Tenanted API: the organizations as the directory describes them,
//! the credentials and what they reach, the platform connections that selectors resolve, and the
//! users of each organization. Plain data, documented in the README.

/// The partner API key: it reaches both demo organizations (home: `orgn_demo_1`). Not a v1 key.
pub const DEMO_PARTNER_KEY: &str = "demo-partner-key";
/// Session token of the Owner of `orgn_demo_1` (for the users and API-key endpoints).
pub const DEMO_SESSION_OWNER: &str = "demo-session-owner";
/// Session token of a Member of `orgn_demo_1` (lists users, cannot create keys).
pub const DEMO_SESSION_MEMBER: &str = "demo-session-member";

/// An organization's directory entry. `state` and `country_code` are `None` when unset.
#[derive(Debug, Clone, Copy)]
pub struct OrgInfo {
    pub id: &'static str,
    pub name: &'static str,
    pub state: Option<&'static str>,
    pub country_code: Option<&'static str>,
    /// RFC 3339, UTC.
    pub created_at: &'static str,
}

/// The demo organizations, in the order of the store.
pub const ORGANIZATIONS: [OrgInfo; 2] = [
    OrgInfo {
        id: "orgn_demo_1",
        name: "Acme Outdoor Supply",
        state: Some("CA"),
        country_code: Some("US"),
        created_at: "2024-03-04T17:20:00Z",
    },
    OrgInfo {
        id: "orgn_demo_2",
        name: "Northwind Digital",
        state: None,
        country_code: None,
        created_at: "2025-01-13T09:05:00Z",
    },
];

/// The directory entry of organization `id`.
pub fn org_info(id: &str) -> Option<&'static OrgInfo> {
    ORGANIZATIONS.iter().find(|o| o.id == id)
}

/// An API key beyond the per-organization keys of the store (which reach their own organization
/// only): the organizations it reaches, the first being its home.
pub struct PartnerKey {
    pub key: &'static str,
    pub reaches: &'static [&'static str],
}

pub const PARTNER_KEYS: [PartnerKey; 1] = [PartnerKey {
    key: DEMO_PARTNER_KEY,
    reaches: &["orgn_demo_1", "orgn_demo_2"],
}];

/// What a user may do in an organization.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Owner,
    Admin,
    Member,
}

impl Role {
    pub const ALL: [Role; 3] = [Role::Owner, Role::Admin, Role::Member];

    /// The name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Owner => "OWNER",
            Role::Admin => "ADMIN",
            Role::Member => "MEMBER",
        }
    }

    /// Reads a role name in any case.
    pub fn parse(text: &str) -> Option<Role> {
        Role::ALL
            .into_iter()
            .find(|r| r.as_str().eq_ignore_ascii_case(text.trim()))
    }

    /// Whether the role may manage API keys.
    pub fn manages_keys(self) -> bool {
        matches!(self, Role::Owner | Role::Admin)
    }
}

/// A signed-in user's session token.
pub struct Session {
    pub token: &'static str,
    pub organization_id: &'static str,
    pub role: Role,
}

pub const SESSIONS: [Session; 2] = [
    Session {
        token: DEMO_SESSION_OWNER,
        organization_id: "orgn_demo_1",
        role: Role::Owner,
    },
    Session {
        token: DEMO_SESSION_MEMBER,
        organization_id: "orgn_demo_1",
        role: Role::Member,
    },
];

/// The session with token `token`.
pub fn session(token: &str) -> Option<&'static Session> {
    SESSIONS.iter().find(|s| s.token == token)
}

/// A user as the directory starts: `(organization, id, email, role, status)`.
pub const DEMO_USERS: [(&str, &str, &str, Role, &str); 3] = [
    (
        "orgn_demo_1",
        "user_demo_owner",
        "owner@acme-outdoor.example",
        Role::Owner,
        "ACTIVE",
    ),
    (
        "orgn_demo_1",
        "user_demo_member",
        "member@acme-outdoor.example",
        Role::Member,
        "ACTIVE",
    ),
    (
        "orgn_demo_2",
        "user_demo_2_owner",
        "owner@northwind.example",
        Role::Owner,
        "ACTIVE",
    ),
];

/// A platform connection: `Connection-Id`, and the entity it carries (`Entity-Id`,
/// `Entity-Source`).
pub struct Connection {
    pub id: &'static str,
    pub organization_id: &'static str,
    pub entity_id: &'static str,
    pub entity_source: &'static str,
}

pub const CONNECTIONS: [Connection; 3] = [
    Connection {
        id: "conn_demo_1_checkout",
        organization_id: "orgn_demo_1",
        entity_id: "ent_store_100",
        entity_source: "CHECKOUT",
    },
    Connection {
        id: "conn_demo_1_erp",
        organization_id: "orgn_demo_1",
        entity_id: "ent_erp_7",
        entity_source: "INTERNAL_ERP",
    },
    Connection {
        id: "conn_demo_2_billing",
        organization_id: "orgn_demo_2",
        entity_id: "ent_store_100",
        entity_source: "BILLING_PLATFORM",
    },
];
