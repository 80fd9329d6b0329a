use super::*;

fn no_env(_: &str) -> Option<String> {
    None
}

fn sample() -> Config {
    let mut config = Config {
        default_profile: Some("prod".into()),
        theme: Some("dark".into()),
        ..Config::default()
    };
    config.keys.insert("quit".into(), "ctrl-q".into());
    config.keys.insert("refresh".into(), "F5".into());
    let mut prod = Profile::new("prod");
    prod.organization_id = Some("org_live".into());
    prod.read_only = true;
    prod.accent = Some("magenta".into());
    config.insert_profile(prod).unwrap();
    let mut local = Profile::new("local");
    local.base_url = "http://127.0.0.1:8080".into();
    local.organization_id = Some("org_demo".into());
    local.theme = Some("light".into());
    config.insert_profile(local).unwrap();
    config
}

#[test]
fn profile_file_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nested").join("config.toml");
    let config = sample();
    config.save(&path).unwrap();
    let back = Config::load(&path).unwrap();
    assert_eq!(back, config);
    assert_eq!(back.profile("prod").unwrap().name, "prod");
    assert_eq!(back.profile_names(), ["local", "prod"]);
    // Only the config file is left: the temporary file was renamed over it.
    let entries: Vec<_> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(entries, [std::ffi::OsString::from("config.toml")]);
}

#[test]
fn saving_twice_replaces_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    let mut config = sample();
    config.save(&path).unwrap();
    config.remove_profile("prod");
    config.save(&path).unwrap();
    let back = Config::load(&path).unwrap();
    assert_eq!(back.profile_names(), ["local"]);
    assert_eq!(
        back.default_profile, None,
        "default pointed at the removed profile"
    );
}

#[cfg(unix)]
#[test]
fn saving_through_a_symlink_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("dotfiles").join("taxdash.toml");
    std::fs::create_dir_all(real.parent().unwrap()).unwrap();
    std::fs::write(&real, "").unwrap();
    let link = dir.path().join("config.toml");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    sample().save(&link).unwrap();
    assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
    assert_eq!(Config::load(&real).unwrap(), sample());
}

#[test]
fn reads_a_hand_written_file() {
    let text = r#"
        default_profile = "prod"
        theme = "mono"

        [keys]
        quit = "ctrl-q"

        [profiles.prod]
        organization_id = "org_123"
        read_only = true

        [profiles.local]
        base_url = "http://localhost:9000"
    "#;
    let config = Config::from_toml(text).unwrap();
    let prod = config.profile("prod").unwrap();
    assert_eq!(prod.base_url, DEFAULT_BASE_URL);
    assert_eq!(prod.organization_id(), Some("org_123"));
    assert!(prod.read_only);
    assert_eq!(config.profile("local").unwrap().organization_id(), None);
    assert_eq!(config.keys["quit"], "ctrl-q");
}

#[test]
fn default_base_url_is_left_out_of_the_file() {
    let text = sample().to_toml().unwrap();
    assert!(!text.contains(DEFAULT_BASE_URL), "{text}");
    assert!(text.contains("http://127.0.0.1:8080"), "{text}");
}

#[test]
fn missing_file_is_an_empty_config() {
    let dir = tempfile::tempdir().unwrap();
    let config = Config::load(&dir.path().join("absent.toml")).unwrap();
    assert_eq!(config, Config::default());
}

#[test]
fn a_named_file_must_exist() {
    let dir = tempfile::tempdir().unwrap();
    let absent = dir.path().join("absent.toml");
    let e = Config::load_named(&absent, true).unwrap_err();
    assert!(matches!(e, ConfigError::Missing { .. }), "{e:?}");
    let text = e.to_string();
    assert!(
        text.contains("absent.toml") && text.contains("does not exist"),
        "{text}"
    );
    assert_eq!(
        Config::load_named(&absent, false).unwrap(),
        Config::default()
    );
}

#[test]
fn bad_toml_names_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    std::fs::write(&path, "[profiles.prod]\nread_only = maybe\n").unwrap();
    let err = Config::load(&path).unwrap_err().to_string();
    assert!(err.contains("config.toml"), "{err}");
    assert!(err.contains("not valid"), "{err}");
}

#[test]
fn misspelt_field_is_refused() {
    let err = Config::from_toml("[profiles.prod]\nreadonly = true\n").unwrap_err();
    assert!(err.to_string().contains("readonly"), "{err}");
}

#[test]
fn plain_http_refused_for_remote_host() {
    for url in [
        "http://api.trykintsugi.com",
        "http://10.0.0.5:8080",
        "http://[2001:db8::1]/",
        "http://localhost.example.com",
    ] {
        let err = validate_base_url("prod", "base_url", url).unwrap_err();
        let message = err.to_string();
        assert!(message.contains("profile `prod`"), "{message}");
        assert!(message.contains("loopback"), "{message}");
        assert!(matches!(
            err,
            ConfigError::InvalidBaseUrl {
                problem: UrlProblem::PlainHttpNotLoopback,
                ..
            }
        ));
    }
}

#[test]
fn plain_http_accepted_for_loopback() {
    for url in [
        "http://127.0.0.1:8080",
        "http://127.3.2.1",
        "http://localhost:3000/v1",
        "http://LOCALHOST",
        "http://[::1]:8080",
    ] {
        validate_base_url("local", "base_url", url).unwrap_or_else(|err| panic!("{url}: {err}"));
    }
}

#[test]
fn https_accepted() {
    let url = validate_base_url("prod", "base_url", "https://api.trykintsugi.com").unwrap();
    assert_eq!(url.host_str(), Some("api.trykintsugi.com"));
    validate_base_url("prod", "base_url", "https://example.com:8443/prefix/").unwrap();
}

#[test]
fn other_bad_urls_refused() {
    let problem = |url| match validate_base_url("p", "base_url", url) {
        Err(ConfigError::InvalidBaseUrl { problem, .. }) => problem,
        other => panic!("{url}: {other:?}"),
    };
    assert!(matches!(problem("not a url"), UrlProblem::Malformed(_)));
    assert!(matches!(
        problem("ftp://example.com"),
        UrlProblem::UnsupportedScheme(_)
    ));
    assert_eq!(
        problem("https://example.com/?a=1"),
        UrlProblem::HasQueryOrFragment
    );
    assert_eq!(
        problem("https://user:hunter2@example.com"),
        UrlProblem::HasCredentials
    );
}

#[test]
fn password_in_url_is_not_echoed() {
    let err =
        validate_base_url("p", "base_url", "https://user:Sup3rS3cret@example.com").unwrap_err();
    assert!(!err.to_string().contains("Sup3rS3cret"), "{err}");
    assert!(!format!("{err:?}").contains("Sup3rS3cret"));
}

#[test]
fn invalid_profile_url_fails_the_load() {
    let err = Config::from_toml("[profiles.stage]\nbase_url = \"http://stage.example.com\"\n")
        .unwrap_err()
        .to_string();
    assert!(err.contains("profile `stage`"), "{err}");
    assert!(err.contains("http://"), "{err}");
}

#[test]
fn profile_names_are_checked() {
    for bad in ["", "has space", "new\nline", "ünï", &"x".repeat(65)] {
        assert!(validate_profile_name(bad).is_err(), "{bad:?}");
        assert!(Config::default().insert_profile(Profile::new(bad)).is_err());
    }
    for good in ["prod", "eu-west_2", "v1.test"] {
        validate_profile_name(good).unwrap();
    }
}

#[test]
fn default_path_prefers_override_then_env() {
    let flag = Path::new("/tmp/flag.toml");
    let env = |name: &str| (name == ENV_CONFIG).then(|| "/tmp/env.toml".to_owned());
    assert_eq!(Config::default_path(Some(flag), &env).unwrap(), flag);
    assert_eq!(
        Config::default_path(None, &env).unwrap(),
        Path::new("/tmp/env.toml")
    );
    let empty = |name: &str| (name == ENV_CONFIG).then(String::new);
    match Config::default_path(None, &empty) {
        Ok(path) => assert!(path.ends_with(Path::new("taxdash").join(CONFIG_FILE_NAME))),
        Err(err) => assert!(matches!(err, ConfigError::NoConfigDir)),
    }
    match Config::default_path(None, &no_env) {
        Ok(path) => assert!(path.ends_with(CONFIG_FILE_NAME)),
        Err(err) => assert!(matches!(err, ConfigError::NoConfigDir)),
    }
}

#[test]
fn a_saved_view_joins_the_file_leaving_the_rest_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    let before = "# my settings\ntheme = \"light\" # bright rooms\n\n[keys]\nquit = \"ctrl-q\"\n";
    std::fs::write(&path, before).unwrap();
    let view = SavedView {
        sort: Some("-date".into()),
        filter: [
            ("state_code".to_owned(), ViewValue::Text("GA".into())),
            ("marketplace".to_owned(), ViewValue::Bool(true)),
            (
                "exempt".to_owned(),
                ViewValue::List(vec!["EXEMPT".into(), "PARTIALLY_EXEMPT".into()]),
            ),
        ]
        .into_iter()
        .collect(),
    };
    save_view(&path, "transactions", "georgia", &view).unwrap();
    let after = std::fs::read_to_string(&path).unwrap();
    assert!(after.starts_with(before), "{after}");
    assert!(after.contains("[views.transactions.georgia]"), "{after}");
    let config = Config::load(&path).unwrap();
    assert_eq!(config.views["transactions"]["georgia"], view);
    assert_eq!(config.theme.as_deref(), Some("light"));
    // Saved again under the same name: replaced, not doubled.
    let other = SavedView {
        sort: None,
        ..view.clone()
    };
    save_view(&path, "transactions", "georgia", &other).unwrap();
    let config = Config::load(&path).unwrap();
    assert_eq!(config.views["transactions"]["georgia"], other);
    assert_eq!(config.views.len(), 1);
}

#[test]
fn a_view_is_saved_into_a_file_not_there_yet() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new").join("config.toml");
    save_view(&path, "filings", "late", &SavedView::default()).unwrap();
    let config = Config::load(&path).unwrap();
    assert_eq!(config.views["filings"]["late"], SavedView::default());
}

#[test]
fn mouse_and_columns_are_read_from_the_file() {
    let config = Config::from_toml(
        "mouse = false\n\n[columns]\ntransactions = [\"date\", \"customer\", \"total\"]\n",
    )
    .unwrap();
    assert_eq!(config.mouse, Some(false));
    assert_eq!(
        config.columns["transactions"],
        ["date", "customer", "total"]
    );
    assert_eq!(Config::from_toml("").unwrap().mouse, None);
}

#[test]
fn a_failed_save_names_the_users_file_not_the_temporary_one() {
    let dir = tempfile::tempdir().unwrap();
    let gone = dir.path().join("gone");
    let failed = tempfile::Builder::new()
        .prefix(".config.toml.")
        .suffix(".tmp")
        .tempfile_in(&gone)
        .unwrap_err();
    assert!(failed.to_string().contains(".config.toml."), "{failed}");
    let said = ConfigError::Write {
        path: dir.path().join("config.toml"),
        source: crate::os::files::without_temporary_path(failed),
    }
    .to_string();
    assert!(said.contains("config.toml: "), "{said}");
    assert!(!said.contains(".config.toml."), "{said}");
    assert!(said.contains("No such file or directory"), "{said}");
}
