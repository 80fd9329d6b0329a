//! The layers of the crate, declared once ([`LAYERS`]), and the test that keeps the production
//! code inside them: every `use crate::…` and every inline `crate::x::…` path (and a `super::`
//! chain that climbs out of its top-level module) is an edge from the importing file's top-level
//! module to the module named; an edge the table does not allow fails the test, naming the file,
//! the line, the edge and the rule.
//!
//! Test code is left out: `#[cfg(test)]` items and the module files they declare, files named
//! `tests.rs` or `*_tests.rs`, and files under a `tests/` folder. Comments, doc comments and
//! string literals are left out too (a doc link is not an import).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each top-level module, lowest first, and the modules it may import. A module may import a
/// module listed before it only where the table says so; nothing imports upward.
pub(crate) const LAYERS: &[(&str, &[&str])] = &[
    ("clock", &[]),
    // The wire types and the vocabulary the layers share.
    ("model", &["clock"]),
    // The operating system: signals, the files a user names.
    ("os", &["model"]),
    ("rules", &["model", "clock"]),
    // Pure judgements on records: no client, no I/O.
    ("checks", &["rules", "model", "clock"]),
    ("config", &["model", "checks", "clock", "os"]),
    ("credentials", &["config", "model", "os"]),
    ("api", &["config", "credentials", "model", "clock", "os"]),
    ("effect", &["model", "rules", "checks", "clock", "config"]),
    // The panes and the shell: no I/O (`config` for its types).
    (
        "ui",
        &["effect", "model", "rules", "checks", "clock", "config"],
    ),
    // The checks' readings through the client.
    ("reads", &["api", "checks", "rules", "model", "clock"]),
    (
        "export",
        &[
            "reads", "api", "effect", "checks", "rules", "model", "clock", "os",
        ],
    ),
    (
        "import",
        &[
            "reads", "api", "effect", "checks", "rules", "model", "clock", "os",
        ],
    ),
    ("sandbox", &["rules", "model", "clock", "os"]),
    (
        "history",
        &[
            "api", "export", "sandbox", "effect", "reads", "checks", "rules", "model", "clock",
            "os",
        ],
    ),
    // The runtime: every layer above, none of the command line's.
    (
        "app",
        &[
            "clock",
            "model",
            "os",
            "rules",
            "checks",
            "config",
            "credentials",
            "api",
            "effect",
            "ui",
            "reads",
            "export",
            "import",
            "sandbox",
            "history",
        ],
    ),
    // The command line's shape; `export` for the export's filter flags.
    (
        "cli",
        &[
            "config", "rules", "model", "effect", "export", "clock", "os",
        ],
    ),
    (
        "commands",
        &[
            "clock",
            "model",
            "os",
            "rules",
            "checks",
            "config",
            "credentials",
            "api",
            "effect",
            "ui",
            "reads",
            "export",
            "import",
            "sandbox",
            "history",
            "app",
            "cli",
        ],
    ),
];

/// Edges allowed beyond [`LAYERS`] for a while.
const FOR_NOW: &[(&str, &str)] = &[
    // removed when the shell reads history through effects
    ("ui", "history"),
    ("ui", "api"),
];

/// Whether `from` may import `to`.
fn allowed(from: &str, to: &str) -> bool {
    from == to
        || FOR_NOW.contains(&(from, to))
        || LAYERS
            .iter()
            .any(|(m, may)| *m == from && may.contains(&to))
}

/// The modules `from` may import, for a message.
fn rule(from: &str) -> String {
    match LAYERS.iter().find(|(m, _)| *m == from) {
        Some((_, [])) => format!("{from} imports nothing of the crate"),
        Some((_, may)) => format!("{from} may import only {}", may.join(", ")),
        None => format!("{from} is not in the table of layers (src/layers.rs)"),
    }
}

/// One `crate::` path in a source: its line (from 1), the top-level module it names, and the
/// text that names it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Import {
    line: usize,
    module: String,
    path: String,
}

/// What the scan of one file finds: the imports of its production code, and the modules it
/// declares for tests only (`#[cfg(test)] mod name;`).
#[derive(Debug, Default, PartialEq, Eq)]
struct Scan {
    imports: Vec<Import>,
    test_modules: Vec<String>,
}

/// `src` with comments, string literals and character literals blanked out (newlines kept, so
/// lines still count).
fn code_only(src: &str) -> Vec<char> {
    let s: Vec<char> = src.chars().collect();
    let mut out = s.clone();
    let blank = |out: &mut Vec<char>, from: usize, to: usize| {
        for c in &mut out[from..to.min(s.len())] {
            if *c != '\n' {
                *c = ' ';
            }
        }
    };
    let mut i = 0;
    while i < s.len() {
        let ident_before = i > 0 && (s[i - 1].is_alphanumeric() || s[i - 1] == '_');
        match s[i] {
            '/' if s.get(i + 1) == Some(&'/') => {
                let end = s[i..]
                    .iter()
                    .position(|&c| c == '\n')
                    .map_or(s.len(), |n| i + n);
                blank(&mut out, i, end);
                i = end;
            }
            '/' if s.get(i + 1) == Some(&'*') => {
                let (mut depth, mut j) = (0usize, i);
                while j < s.len() {
                    if s[j] == '/' && s.get(j + 1) == Some(&'*') {
                        depth += 1;
                        j += 2;
                    } else if s[j] == '*' && s.get(j + 1) == Some(&'/') {
                        depth -= 1;
                        j += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        j += 1;
                    }
                }
                blank(&mut out, i, j);
                i = j;
            }
            'r' | 'b' if !ident_before && raw_string_at(&s, i).is_some() => {
                let end = raw_string_at(&s, i).unwrap_or(i + 1);
                blank(&mut out, i, end);
                i = end;
            }
            '"' => {
                let mut j = i + 1;
                while j < s.len() && s[j] != '"' {
                    j += if s[j] == '\\' { 2 } else { 1 };
                }
                blank(&mut out, i, j + 1);
                i = j + 1;
            }
            '\'' => {
                // A character literal ('x', '\n', '\u{1F600}'), not a lifetime ('a).
                let end = if s.get(i + 1) == Some(&'\\') {
                    s.get(i + 3..)
                        .and_then(|rest| rest.iter().position(|&c| c == '\''))
                        .map(|n| i + 3 + n + 1)
                } else if s.get(i + 2) == Some(&'\'') {
                    Some(i + 3)
                } else {
                    None
                };
                match end {
                    Some(end) => {
                        blank(&mut out, i, end);
                        i = end;
                    }
                    None => i += 1,
                }
            }
            _ => i += 1,
        }
    }
    out
}

/// The end of the raw string (`r"…"`, `r#"…"#`, `br"…"`) starting at `i`, if one does.
fn raw_string_at(s: &[char], i: usize) -> Option<usize> {
    let mut j = i;
    if s.get(j) == Some(&'b') {
        j += 1;
    }
    if s.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let hashes = s[j..].iter().take_while(|&&c| c == '#').count();
    j += hashes;
    if s.get(j) != Some(&'"') {
        return None;
    }
    let closing: Vec<char> = std::iter::once('"')
        .chain(std::iter::repeat_n('#', hashes))
        .collect();
    (j + 1..s.len())
        .find(|&k| s[k..].starts_with(&closing))
        .map(|k| k + closing.len())
}

/// Where the item after an attribute ending at `from` ends: after its `;`, or after the block
/// of its first `{` (further attributes before it are part of it).
fn item_end(s: &[char], from: usize) -> usize {
    let mut i = from;
    let mut depth = 0usize;
    while i < s.len() {
        match s[i] {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            ';' if depth == 0 => return i + 1,
            '{' if depth == 0 => {
                let mut braces = 0usize;
                while i < s.len() {
                    match s[i] {
                        '{' => braces += 1,
                        '}' => {
                            braces -= 1;
                            if braces == 0 {
                                return i + 1;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
                return s.len();
            }
            _ => {}
        }
        i += 1;
    }
    s.len()
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The identifier at `i` (after spaces), and where it ends.
fn ident_at(s: &[char], mut i: usize) -> (String, usize) {
    while i < s.len() && s[i].is_whitespace() {
        i += 1;
    }
    let start = i;
    while i < s.len() && is_ident(s[i]) {
        i += 1;
    }
    (s[start..i].iter().collect(), i)
}

/// Scans one file whose module sits `depth` modules below the crate root (`ui/pane.rs`: 2,
/// `ui/mod.rs`: 1).
fn scan(src: &str, depth: usize) -> Scan {
    let mut s = code_only(src);
    let text: String = s.iter().collect();
    if text.contains("#![cfg(test)]") {
        return Scan::default();
    }
    let mut found = Scan::default();
    // Test code out: each `#[cfg(test)]` item, blanked; a module file it declares, noted.
    let attr: Vec<char> = "#[cfg(test)]".chars().collect();
    let mut i = 0;
    while i + attr.len() <= s.len() {
        if s[i..].starts_with(&attr) {
            let end = item_end(&s, i + attr.len());
            let item: String = s[i + attr.len()..end].iter().collect();
            let words: Vec<&str> = item
                .split(|c: char| !is_ident(c))
                .filter(|w| !w.is_empty())
                .collect();
            if item.trim_end().ends_with(';')
                && let Some(at) = words.iter().position(|w| *w == "mod")
                && let Some(name) = words.get(at + 1)
            {
                found.test_modules.push((*name).to_owned());
            }
            for c in &mut s[i..end] {
                if *c != '\n' {
                    *c = ' ';
                }
            }
            i = end;
        } else {
            i += 1;
        }
    }
    let line_of = |at: usize| s[..at].iter().filter(|&&c| c == '\n').count() + 1;
    let text: String = s.iter().collect();
    for (byte, _) in text.match_indices("crate::") {
        let at = text[..byte].chars().count();
        if at > 0 && is_ident(s[at - 1]) {
            continue;
        }
        let after = at + "crate::".len();
        let mut j = after;
        while j < s.len() && s[j].is_whitespace() {
            j += 1;
        }
        let modules: Vec<String> = if s.get(j) == Some(&'{') {
            let end = item_end(&s, j);
            let group: String = s[j + 1..end.saturating_sub(1)].iter().collect();
            top_level_items(&group)
                .into_iter()
                .map(|item| ident_at(&item.chars().collect::<Vec<_>>(), 0).0)
                .collect()
        } else {
            vec![ident_at(&s, after).0]
        };
        for module in modules.into_iter().filter(|m| !m.is_empty() && m != "self") {
            found.imports.push(Import {
                line: line_of(at),
                path: format!("crate::{module}"),
                module,
            });
        }
    }
    // A `super::` chain that climbs to the crate root names a top-level module too.
    if depth > 0 {
        let chain = "super::".repeat(depth);
        for (byte, _) in text.match_indices(&chain) {
            let at = text[..byte].chars().count();
            if at > 0 && (is_ident(s[at - 1]) || s[at - 1] == ':') {
                continue;
            }
            let after = at + chain.len();
            let (module, end) = ident_at(&s, after);
            if module.is_empty() || module == "super" {
                continue;
            }
            found.imports.push(Import {
                line: line_of(at),
                module,
                path: s[at..end].iter().collect(),
            });
        }
    }
    found
}

/// The items of a `{…}` group at its top level: `a::b, c::{d, e}` is `a::b` and `c::{d, e}`.
fn top_level_items(group: &str) -> Vec<String> {
    let mut items = vec![String::new()];
    let mut depth = 0usize;
    for c in group.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                items.push(String::new());
                continue;
            }
            _ => {}
        }
        if let Some(last) = items.last_mut() {
            last.push(c);
        }
    }
    items.retain(|i| !i.trim().is_empty());
    items
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
            "src/{}: module {top} is not in the table of layers (src/layers.rs)",
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
        "{} import(s) against the layers (src/layers.rs):\n{}",
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
    for (from, to) in FOR_NOW {
        assert!(names.contains(from) && names.contains(to), "{from} -> {to}");
    }
}

#[test]
fn imports_are_found_in_uses_groups_inline_paths_and_macros() {
    let src = "use crate::model::Filing;\n\
               use crate::{\n    api::{Client, ApiError},\n    rules,\n};\n\
               fn f() { let d = crate::clock::today(); }\n\
               macro_rules! m { () => { $crate::effect::Call::Quit }; }\n\
               pub(crate) fn g() {}\n\
               use mycrate::ui::Nothing;\n";
    let found: Vec<(usize, String)> = scan(src, 1)
        .imports
        .into_iter()
        .map(|i| (i.line, i.module))
        .collect();
    assert_eq!(
        found,
        vec![
            (1, "model".to_owned()),
            (2, "api".to_owned()),
            (2, "rules".to_owned()),
            (6, "clock".to_owned()),
            (7, "effect".to_owned()),
        ]
    );
}

#[test]
fn comments_strings_and_test_code_are_not_imports() {
    let src = "//! See [`crate::api`].\n\
               /// Like [`crate::api::Client`].\n\
               // crate::api\n\
               /* crate::api /* nested */ crate::api */\n\
               const S: &str = \"crate::api\";\n\
               const R: &str = r#\"crate::api \"quoted\"\"#;\n\
               const C: char = '\"'; fn l<'a>(x: &'a str) -> &'a str { x }\n\
               #[cfg(test)]\nmod tests {\n    use crate::api::Client;\n    fn f() { crate::api::x(); }\n}\n\
               #[cfg(test)]\nfn helper() -> crate::api::Client { todo!() }\n\
               #[cfg(test)]\nuse crate::api::Y;\n\
               #[cfg(test)]\npub mod testing;\n\
               use crate::model::Filing;\n";
    let found = scan(src, 1);
    assert_eq!(
        found.imports,
        vec![Import {
            line: 19,
            module: "model".to_owned(),
            path: "crate::model".to_owned(),
        }]
    );
    assert_eq!(found.test_modules, vec!["testing".to_owned()]);
}

#[test]
fn a_super_chain_out_of_the_module_is_an_import() {
    let src = "use super::super::api::Client;\nuse super::pane::Pane;\n";
    let found = scan(src, 2);
    assert_eq!(found.imports.len(), 1);
    assert_eq!(found.imports[0].module, "api");
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
            "src/gadgets/mod.rs: module gadgets is not in the table of layers (src/layers.rs)"
                .to_owned(),
        ]
    );
}
