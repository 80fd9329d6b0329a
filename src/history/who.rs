//! Who is at the keyboard, as the audit log and the snapshots record it: the name the config
//! file's `who` key gives (or `TAXDASH_WHO`), else the OS user and host (`dana@laptop`).

use std::sync::OnceLock;

/// The environment variable that names the person, over the config file's `who`.
pub const ENV_WHO: &str = "TAXDASH_WHO";

static NAMED: OnceLock<String> = OnceLock::new();

/// Takes `name` as the person's for the rest of the process (the config file's `who`); the
/// first call wins. An empty name is no name.
pub fn name_as(name: Option<&str>) {
    if let Some(name) = name.map(str::trim).filter(|n| !n.is_empty()) {
        let _ = NAMED.set(name.to_owned());
    }
}

/// The person: `TAXDASH_WHO`, else the name given to [`name_as`], else `user@host`.
pub fn me() -> String {
    if let Some(name) = std::env::var(ENV_WHO)
        .ok()
        .map(|n| n.trim().to_owned())
        .filter(|n| !n.is_empty())
    {
        return name;
    }
    if let Some(name) = NAMED.get() {
        return name.clone();
    }
    let user = whoami::username().unwrap_or_else(|_| "someone".to_owned());
    match whoami::hostname() {
        Ok(host) if !host.is_empty() => format!("{user}@{host}"),
        _ => user,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn without_a_name_the_os_user_and_host_are_taken() {
        let me = super::me();
        assert!(!me.trim().is_empty());
    }
}
