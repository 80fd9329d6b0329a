//! The layers of the crate, declared once ([`LAYERS`]), and the test that keeps the production
//! code inside them: every `use crate::…` and every inline `crate::x::…` path (and a `super::`
//! chain that climbs out of its top-level module) is an edge from the importing file's top-level
//! module to the module named; an edge the table does not allow fails the test, naming the file,
//! the line, the edge and the rule.
//!
//! Test code is left out: `#[cfg(test)]` items and the module files they declare, files named
//! `tests.rs` or `*_tests.rs`, and files under a `tests/` folder. Comments, doc comments and
//! string literals are left out too (a doc link is not an import).

mod scan;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use scan::{Scan, scan};

/// Each top-level module, lowest first, and the modules it may import: only modules listed
/// before it, so nothing imports upward and the layers form no cycle.
#[rustfmt::skip]
pub(crate) const LAYERS: &[(&str, &[&str])] = &[
    ("clock",       &[]),
    // The wire types, and the vocabulary the layers share (the lists, the filing tolerance).
    ("model",       &["clock"]),
    // The operating system: signals, the files a user names.
    ("os",          &["model"]),
    ("rules",       &["model", "clock"]),
    // Pure judgements on records: no client, no I/O.
    ("checks",      &["rules", "model", "clock"]),
    ("config",      &["model", "checks", "clock", "os"]),
    ("credentials", &["config", "model", "os"]),
    ("api",         &["config", "credentials", "model", "clock", "os"]),
    ("effect",      &["model", "rules", "checks", "clock", "config"]),
    // The panes, the shell, the widgets: no I/O (`config` for its types).
    ("ui",          &["effect", "model", "rules", "checks", "clock", "config"]),
    // The checks' readings through the client.
    ("reads",       &["api", "checks", "rules", "model", "clock"]),
    ("export",      &["reads", "api", "effect", "checks", "rules", "model", "clock", "os"]),
    ("import",      &["reads", "api", "effect", "checks", "rules", "model", "clock", "os"]),
    ("sandbox",     &["rules", "model", "clock", "os"]),
    // A team's server: its password from the keyring and the environment, as an API key's.
    ("history",     &["api", "export", "sandbox", "effect", "reads", "checks", "rules", "model",
                      "clock", "os", "config", "credentials"]),
    // The runtime: every layer above, nothing of the command line.
    ("app",         &["clock", "model", "os", "rules", "checks", "config", "credentials", "api",
                      "effect", "ui", "reads", "export", "import", "sandbox", "history"]),
    // The command line's shape; `export` for the export's filter flags.
    ("cli",         &["config", "rules", "model", "effect", "export", "clock", "os"]),
    ("commands",    &["clock", "model", "os", "rules", "checks", "config", "credentials", "api",
                      "effect", "ui", "reads", "export", "import", "sandbox", "history", "app",
                      "cli"]),
];

/// Whether `from` may import `to`.
fn allowed(from: &str, to: &str) -> bool {
    from == to
        || LAYERS
            .iter()
            .any(|(m, may)| *m == from && may.contains(&to))
}

/// The modules `from` may import, for a message.
fn rule(from: &str) -> String {
    match LAYERS.iter().find(|(m, _)| *m == from) {
        Some((_, [])) => format!("{from} imports nothing of the crate"),
        Some((_, may)) => format!("{from} may import only {}", may.join(", ")),
        None => format!("{from} is not in the table of layers (src/layers/mod.rs)"),
    }
}

/// Whether `path` (relative to `src/`) is test code by its name: `tests.rs`, `*_tests.rs`, or
/// under a `tests/` folder.
fn test_file(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name == "tests.rs"
        || name.ends_with("_tests.rs")
        || path
            .parent()
            .is_some_and(|p| p.components().any(|c| c.as_os_str() == "tests"))
}

/// The module path of a file under `src/`: `ui/pane.rs` is `["ui", "pane"]`, `ui/mod.rs` is
/// `["ui"]`, `lib.rs` is `[]`.
fn module_path(path: &Path) -> Vec<String> {
    let mut parts: Vec<String> = path
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if let Some(last) = parts.pop() {
        let stem = last.trim_end_matches(".rs");
        if stem != "mod" && stem != "lib" {
            parts.push(stem.to_owned());
        }
    }
    parts
}

/// Every edge the table does not allow, in `files` (paths relative to `src/`, and their
/// sources), as `file:line: a -> b (path): rule`; and every top-level module missing from the
/// table.
fn violations(files: &[(PathBuf, String)]) -> Vec<String> {
    let scans: Vec<(&PathBuf, Vec<String>, Scan)> = files
        .iter()
        .map(|(path, src)| {
            let module = module_path(path);
            let found = scan(src, module.len());
            (path, module, found)
        })
        .collect();
    // The module files declared for tests only, as module paths.
    let test_only: BTreeSet<Vec<String>> = scans
        .iter()
        .flat_map(|(_, module, found)| {
            found.test_modules.iter().map(move |name| {
                let mut child = module.clone();
                child.push(name.clone());
                child
            })
        })
        .collect();
    let mut out = Vec::new();
    let mut unknown: BTreeMap<String, &PathBuf> = BTreeMap::new();
    for (path, module, found) in &scans {
        let Some(top) = module.first() else {
            continue; // the crate root
        };
        if test_file(path) || test_only.iter().any(|t| module.starts_with(t)) {
            continue;
        }
        if !LAYERS.iter().any(|(m, _)| m == top) {
            unknown.entry(top.clone()).or_insert(path);
            continue;
        }
        for import in &found.imports {
            if !allowed(top, &import.module) {
                out.push(format!(
                    "src/{}:{}: {top} -> {} ({}): {}",
                    path.display(),
                    import.line,
                    import.module,
                    import.path,
                    rule(top)
                ));
            }
        }
    }
    for (top, path) in unknown {
        out.push(format!(
            "src/{}: module {top} is not in the table of layers (src/layers/mod.rs)",
            path.display()
        ));
    }
    out
}

/// Every `.rs` file under `dir`, relative to `root`, with its source (`main.rs`, the binary,
/// left out).
fn sources(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("src/ is readable")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            sources(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let relative = path.strip_prefix(root).expect("under src/").to_path_buf();
            if relative != Path::new("main.rs") {
                let src = std::fs::read_to_string(&path).expect("a source is readable");
                out.push((relative, src));
            }
        }
    }
}

#[test]
fn production_code_imports_only_what_its_layer_allows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &root, &mut files);
    let found = violations(&files);
    assert!(
        found.is_empty(),
        "{} import(s) against the layers (src/layers/mod.rs):\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_table_names_each_module_once_and_only_lower_ones_as_allowed() {
    let names: Vec<&str> = LAYERS.iter().map(|(m, _)| *m).collect();
    let unique: BTreeSet<&str> = names.iter().copied().collect();
    assert_eq!(unique.len(), names.len(), "a module twice: {names:?}");
    for (at, (module, may)) in LAYERS.iter().enumerate() {
        for to in *may {
            let below = names[..at].contains(to);
            assert!(
                below,
                "{module} may import {to}, which is not listed before it"
            );
        }
    }
}

#[test]
fn an_import_against_the_layers_is_named_with_its_file_line_edge_and_rule() {
    let files = vec![
        (
            PathBuf::from("model/filing.rs"),
            "use crate::clock;\n\nuse crate::checks::filings::Tolerance;\n".to_owned(),
        ),
        (
            PathBuf::from("model/mod.rs"),
            "#[cfg(test)]\nmod testing;\n".to_owned(),
        ),
        // Test code may import anything.
        (
            PathBuf::from("model/testing.rs"),
            "use crate::app;\n".to_owned(),
        ),
        (
            PathBuf::from("model/tests.rs"),
            "use crate::app;\n".to_owned(),
        ),
        (
            PathBuf::from("ui/pane.rs"),
            "use crate::history::X;\n".to_owned(),
        ),
        (
            PathBuf::from("gadgets/mod.rs"),
            "use crate::model;\n".to_owned(),
        ),
    ];
    assert_eq!(
        violations(&files),
        vec![
            "src/model/filing.rs:3: model -> checks (crate::checks): model may import only \
             clock"
                .to_owned(),
            "src/ui/pane.rs:1: ui -> history (crate::history): ui may import only effect, \
             model, rules, checks, clock, config"
                .to_owned(),
            "src/gadgets/mod.rs: module gadgets is not in the table of layers (src/layers/mod.rs)"
                .to_owned(),
        ]
    );
}
