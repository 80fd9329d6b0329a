//! Which interface a profile speaks, and the settings of the Tenanted API: its release and the
//! selectors naming the organization calls act on.

use std::fmt;
use std::str::FromStr;

use super::{ConfigError, Profile};
use crate::model::tenanted::ApiVersion;

/// Environment variable choosing the interface (`v1` or `tenanted`); beats the profile's `api`.
pub const ENV_API: &str = "TAXDASH_API";

/// The interface a profile speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ApiKind {
    /// The legacy v1 interface (paths under `/v1`, `x-organization-id`).
    #[default]
    V1,
    /// The dated Tenanted API (`Api-Version`, organization selectors).
    Tenanted,
}

impl ApiKind {
    /// Every choice, as written in the config file.
    pub const NAMES: [&'static str; 2] = ["v1", "tenanted"];

    /// Reads `v1` or `tenanted` (any case, surrounding spaces ignored).
    pub fn parse(text: &str) -> Option<Self> {
        match text.trim().to_ascii_lowercase().as_str() {
            "v1" => Some(ApiKind::V1),
            "tenanted" => Some(ApiKind::Tenanted),
            _ => None,
        }
    }

    /// The name as written in the config file.
    pub fn as_str(self) -> &'static str {
        match self {
            ApiKind::V1 => "v1",
            ApiKind::Tenanted => "tenanted",
        }
    }
}

impl fmt::Display for ApiKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ApiKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ApiKind::parse(s).ok_or_else(|| RULE_API.to_owned())
    }
}

/// The rule an `api` value breaks.
pub(crate) const RULE_API: &str = "must be `v1` or `tenanted`";

/// The rule an `api_version` value breaks.
fn rule_api_version() -> String {
    let releases: Vec<String> = ApiVersion::RELEASES
        .iter()
        .map(std::string::ToString::to_string)
        .collect();
    format!(
        "must be a release date YYYY-MM-DD on or after {} (releases: {})",
        ApiVersion::DEFAULT,
        releases.join(", ")
    )
}

/// The rule a selector value breaks.
const RULE_HEADER: &str = "must be printable ASCII without spaces (it travels in an HTTP header)";

/// A setting's value, trimmed, when it is set and not blank.
pub(super) fn set(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|v| !v.is_empty())
}

fn invalid(profile: &Profile, field: &'static str, value: &str, rule: String) -> ConfigError {
    ConfigError::InvalidSetting {
        profile: profile.name.clone(),
        field,
        value: value.escape_default().to_string(),
        rule,
    }
}

/// Checks `api`, `api_version` and the selectors of a profile.
pub(super) fn validate(profile: &Profile) -> Result<(), ConfigError> {
    if let Some(api) = set(&profile.api)
        && ApiKind::parse(api).is_none()
    {
        return Err(invalid(profile, "api", api, RULE_API.to_owned()));
    }
    if let Some(version) = set(&profile.api_version)
        && ApiVersion::parse(version).is_none()
    {
        return Err(invalid(profile, "api_version", version, rule_api_version()));
    }
    for (field, value) in [
        ("organization_id", &profile.organization_id),
        ("connection_id", &profile.connection_id),
        ("entity_id", &profile.entity_id),
        ("entity_source", &profile.entity_source),
    ] {
        if let Some(v) = set(value)
            && !v.bytes().all(|b| b.is_ascii_graphic())
        {
            return Err(invalid(profile, field, v, RULE_HEADER.to_owned()));
        }
    }
    if let Some(source) = set(&profile.entity_source)
        && set(&profile.entity_id).is_none()
    {
        return Err(invalid(
            profile,
            "entity_source",
            source,
            "is only used with entity_id: set entity_id too, or remove entity_source".to_owned(),
        ));
    }
    Ok(())
}

/// Reads [`ENV_API`]; the error names the variable and the rule.
pub fn api_from_env(profile: &str, value: &str) -> Result<ApiKind, ConfigError> {
    ApiKind::parse(value).ok_or_else(|| ConfigError::InvalidSetting {
        profile: profile.to_owned(),
        field: ENV_API,
        value: value.escape_default().to_string(),
        rule: RULE_API.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;

    fn load(profile_body: &str) -> Result<Config, ConfigError> {
        Config::from_toml(&format!("[profiles.p]\n{profile_body}"))
    }

    #[test]
    fn tenanted_settings_are_read() {
        let config = load(
            "api = \"tenanted\"\napi_version = \"2026-07-21\"\nentity_id = \"ent_1\"\n\
             entity_source = \"CHECKOUT\"\n",
        )
        .unwrap();
        let p = config.profile("p").unwrap();
        assert_eq!(p.api(), ApiKind::Tenanted);
        assert_eq!(p.api_version(), Some(ApiVersion::DEFAULT));
        assert_eq!(p.entity_id(), Some("ent_1"));
        assert_eq!(p.entity_source(), Some("CHECKOUT"));
        assert_eq!(p.organization_id(), None);
        let p = load("").unwrap().profile("p").cloned().unwrap();
        assert_eq!(p.api(), ApiKind::V1);
        assert_eq!(p.api_version(), None);
        // Saved and read back unchanged.
        let text = config.to_toml().unwrap();
        assert!(text.contains("api = \"tenanted\""), "{text}");
        assert_eq!(Config::from_toml(&text).unwrap(), config);
    }

    #[test]
    fn bad_values_are_named_with_their_rule() {
        let e = load("api = \"v2\"\n").unwrap_err().to_string();
        assert!(
            e.contains("api = \"v2\"") && e.contains("`v1` or `tenanted`"),
            "{e}"
        );
        let e = load("api_version = \"2026-07-20\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("api_version = \"2026-07-20\""), "{e}");
        assert!(e.contains("release date YYYY-MM-DD"), "{e}");
        let e = load("api_version = \"latest\"\n").unwrap_err().to_string();
        assert!(e.contains("2026-10-06"), "{e}");
        let e = load("api = \"tenanted\"\nentity_source = \"CHECKOUT\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("entity_source") && e.contains("only used with entity_id"),
            "{e}"
        );
        let e = load("connection_id = \"conn 1\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("connection_id") && e.contains("HTTP header"),
            "{e}"
        );
        assert_eq!(ApiKind::parse(" Tenanted "), Some(ApiKind::Tenanted));
        let e = api_from_env("p", "v3").unwrap_err().to_string();
        assert!(
            e.contains("TAXDASH_API") && e.contains("`v1` or `tenanted`"),
            "{e}"
        );
    }
}
