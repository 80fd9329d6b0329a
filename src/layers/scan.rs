//! Finding the imports of one source file: its `crate::` paths (in `use` items, groups, inline
//! paths and macros) and the `super::` chains that climb out of its top-level module, with
//! comments, string literals and `#[cfg(test)]` items left out.

/// One `crate::` path in a source: its line (from 1), the top-level module it names, and the
/// text that names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Import {
    pub line: usize,
    pub module: String,
    pub path: String,
}

/// What the scan of one file finds: the imports of its production code, and the modules it
/// declares for tests only (`#[cfg(test)] mod name;`).
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Scan {
    pub imports: Vec<Import>,
    pub test_modules: Vec<String>,
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
pub(super) fn scan(src: &str, depth: usize) -> Scan {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
