//! The link of the web client's ES modules into one script per page
//! (`web.rs`, `BUNDLES`): a page's entry module and every module it
//! imports, each a function called once with what it imports, as the
//! browser would link the modules themselves.
//!
//! Why a link and not the modules one by one: a table page imports about
//! twenty modules, and every request of a first load costs about 800 bytes
//! of headers both ways, so twenty requests alone would pass the page's
//! 60 KB goal (docs/server.md, "What the client weighs"); they would also
//! come in a chain, each module's imports found only once it came, and
//! `modulepreload` would make them parallel but not fewer. Why not a
//! bundler: the client has no build step, and needs none. The modules are
//! written to a rule small enough to read by lines ([`link`]), which the
//! link checks; what it cannot check (a name used but not imported) the
//! modules' own unit tests meet in node, which loads them as real modules.

/// Why a page's modules could not be linked into one script.
#[derive(Debug, PartialEq, thiserror::Error)]
pub(super) enum LinkError {
    /// A module imported (or the entry) is not a file of `web/`.
    #[error("no module {0} in web/")]
    Missing(String),
    /// Modules that import each other in a circle, through this one.
    #[error("{0} imports itself through others")]
    Cycle(String),
    /// A statement the link does not take: (module, line, text).
    #[error("{0}:{1}: the link takes no `{2}`")]
    Statement(String, usize, String),
    /// An import of a name its module does not export: (module, name, from).
    #[error("{0} imports `{1}`, which {2} does not export")]
    NotExported(String, String, String),
}

/// One module as the link reads it: what it imports (the parameter its
/// function takes, and from which module), what it exports, and its code
/// without its comments, its imports and its `export` keywords.
#[derive(Default)]
struct Module {
    name: String,
    imports: Vec<(Binding, String)>,
    exports: Vec<String>,
    body: String,
}

/// How an import statement binds: `{ a, b as c }` or `* as m`.
enum Binding {
    Names(Vec<(String, String)>),
    All(String),
}

/// The identifier at the start of `s`.
fn ident(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .unwrap_or(s.len());
    &s[..end]
}

/// `import { a, b as c } from './x.js';` or `import * as m from './x.js';`
/// (one statement, its lines joined) as its binding and module.
fn import(statement: &str) -> Option<(Binding, String)> {
    let rest = statement.strip_prefix("import ")?;
    let (what, from) = rest.rsplit_once(" from ")?;
    let from = from.trim().strip_suffix(';')?.trim_matches('\'');
    let file = from.strip_prefix("./").filter(|f| !f.contains('/'))?;
    let binding = match what.trim().strip_prefix("* as ") {
        Some(name) if ident(name) == name => Binding::All(name.to_owned()),
        Some(_) => return None,
        None => {
            let inner = what.trim().strip_prefix('{')?.strip_suffix('}')?;
            let names = inner.split(',').map(str::trim).filter(|n| !n.is_empty());
            let pairs = names.map(|n| match n.split_once(" as ") {
                Some((a, b)) => (a.trim().to_owned(), b.trim().to_owned()),
                None => (n.to_owned(), n.to_owned()),
            });
            Binding::Names(pairs.collect())
        }
    };
    Some((binding, file.to_owned()))
}

/// Reads module `name`'s text (see [`link`] for what it may hold).
fn parse(name: &str, text: &str) -> Result<Module, LinkError> {
    let bad = |line: usize, text: &str| LinkError::Statement(name.into(), line, text.trim().into());
    let mut module = Module {
        name: name.to_owned(),
        ..Module::default()
    };
    let mut lines = text.lines().enumerate();
    while let Some((i, line)) = lines.next() {
        let code = line.trim_start();
        if code.starts_with("//") {
            continue;
        } else if let Some(rest) = code.strip_prefix("/*") {
            let end = match rest.split_once("*/") {
                Some((_, after)) => after,
                None => loop {
                    let Some((_, next)) = lines.next() else {
                        return Err(bad(i + 1, line));
                    };
                    if let Some((_, after)) = next.split_once("*/") {
                        break after;
                    }
                },
            };
            if end.trim().is_empty() {
                continue;
            }
            return Err(bad(i + 1, line));
        } else if line.matches('`').count() % 2 == 1 {
            // a template literal over lines: a comment could not be told from its text
            return Err(bad(i + 1, line));
        } else if line.starts_with("import ") {
            let mut statement = line.to_owned();
            while !statement.trim_end().ends_with(';') {
                let Some((_, next)) = lines.next() else {
                    return Err(bad(i + 1, line));
                };
                statement.push(' ');
                statement.push_str(next.trim());
            }
            module
                .imports
                .push(import(&statement).ok_or_else(|| bad(i + 1, line))?);
        } else if let Some(rest) = line.strip_prefix("export ") {
            let decl = ["async function ", "function ", "const ", "class "]
                .iter()
                .find_map(|k| rest.strip_prefix(k))
                .map(ident)
                .filter(|n| !n.is_empty())
                .ok_or_else(|| bad(i + 1, line))?;
            module.exports.push(decl.to_owned());
            module.body.push_str(rest);
            module.body.push('\n');
        } else {
            module.body.push_str(line);
            module.body.push('\n');
        }
    }
    Ok(module)
}

/// Module `name` and every module it imports, each once and after the
/// modules it imports, into `done`.
fn gather(
    name: &str,
    read: &impl Fn(&str) -> Option<Vec<u8>>,
    done: &mut Vec<Module>,
    open: &mut Vec<String>,
) -> Result<(), LinkError> {
    if done.iter().any(|m| m.name == name) {
        return Ok(());
    }
    if open.iter().any(|m| m == name) {
        return Err(LinkError::Cycle(name.into()));
    }
    let bytes = read(name).ok_or_else(|| LinkError::Missing(name.into()))?;
    let module = parse(name, &String::from_utf8_lossy(&bytes))?;
    open.push(name.to_owned());
    for (_, from) in &module.imports {
        gather(from, read, done, open)?;
    }
    open.pop();
    done.push(module);
    Ok(())
}

/// A page's script: module `entry` of `web/` and every module it imports,
/// linked into one script that runs as the browser would run the modules
/// themselves. The modules are real ES modules (the unit tests import
/// them in node), written to a rule small enough to link by reading lines:
///
/// - `import { a, b as c } from './x.js';` and `import * as m from
///   './x.js';` at the start of a line (one statement, maybe over several
///   lines), naming a file of `web/`;
/// - `export` only at the start of a line, before `function`, `async
///   function`, `const` or `class` (never `let`: an export does not change);
/// - comments on lines of their own (`//`, or `/*` to `*/`), which the link
///   leaves out: they are for the source's readers, and a fifth of its
///   weight. No template literal spans lines, so such a line is a comment.
///
/// Anything else at the start of a line that begins with `import ` or
/// `export `, a comment with code after it on its last line, or a line
/// with an odd count of backquotes is an error, and so is a cycle or an
/// import of a name its module does not export. Each module becomes a
/// function, called once in import order with what it imports and
/// returning what it exports:
///
/// ```text
/// // dom.js
/// const $1 = (({ t }) => {
/// ...its code...
/// return { el, morph };
/// })($0);
/// ```
///
/// So a module sees only its own names and those it imports, as in a
/// module of its own. The page loads the script with `type="module"`
/// (strict, and nothing leaks to the page's globals).
pub(super) fn link(
    entry: &str,
    read: impl Fn(&str) -> Option<Vec<u8>>,
) -> Result<Vec<u8>, LinkError> {
    let mut modules = Vec::new();
    gather(entry, &read, &mut modules, &mut Vec::new())?;
    let index = |name: &str| modules.iter().position(|m| m.name == name);
    let mut out = String::new();
    for (k, m) in modules.iter().enumerate() {
        let mut params = Vec::new();
        let mut args = Vec::new();
        for (binding, from) in &m.imports {
            let source = &modules[index(from).expect("gathered")];
            params.push(match binding {
                Binding::All(name) => name.clone(),
                Binding::Names(pairs) => {
                    let mut names = Vec::new();
                    for (name, local) in pairs {
                        if !source.exports.contains(name) {
                            return Err(LinkError::NotExported(
                                m.name.clone(),
                                name.clone(),
                                from.clone(),
                            ));
                        }
                        names.push(if name == local {
                            name.clone()
                        } else {
                            format!("{name}: {local}")
                        });
                    }
                    format!("{{ {} }}", names.join(", "))
                }
            });
            args.push(format!("${}", index(from).expect("gathered")));
        }
        let (params, args, exports) = (params.join(", "), args.join(", "), m.exports.join(", "));
        out.push_str(&format!("// {}\nconst ${k} = (({params}) => {{\n", m.name));
        out.push_str(&m.body);
        out.push_str(&format!("return {{ {exports} }};\n}})({args});\n"));
    }
    Ok(out.into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn linked(files: &[(&str, &str)], entry: &str) -> Result<String, LinkError> {
        let read = |n: &str| {
            files
                .iter()
                .find(|f| f.0 == n)
                .map(|f| f.1.as_bytes().to_vec())
        };
        link(entry, read).map(|b| String::from_utf8(b).unwrap())
    }

    #[test]
    fn modules_link_into_functions_called_in_import_order() {
        let a = "/* a's\n comment */\nexport const x = 1;\n  // a note\nexport function f() {}\nconst hidden = 2; // kept\n";
        let b = "import { x, f as g } from './a.js';\nimport * as all from './a.js';\nexport class B {}\ng(x, all);\n";
        let c = "import {\n  B,\n} from './b.js';\nimport { x } from './a.js';\nnew B(x);\n";
        let out = linked(&[("a.js", a), ("b.js", b), ("c.js", c)], "c.js").unwrap();
        let want = "// a.js\nconst $0 = (() => {\nconst x = 1;\nfunction f() {}\nconst hidden = 2; // kept\nreturn { x, f };\n})();\n\
            // b.js\nconst $1 = (({ x, f: g }, all) => {\nclass B {}\ng(x, all);\nreturn { B };\n})($0, $0);\n\
            // c.js\nconst $2 = (({ B }, { x }) => {\nnew B(x);\nreturn {  };\n})($1, $0);\n";
        assert_eq!(out, want);
        let err = |files: &[(&str, &str)]| linked(files, "c.js").unwrap_err().to_string();
        assert_eq!(
            err(&[("c.js", "import { y } from './a.js';\n"), ("a.js", a)]),
            "c.js imports `y`, which a.js does not export"
        );
        assert_eq!(
            err(&[("c.js", "import { y } from './a.js';\n")]),
            "no module a.js in web/"
        );
        assert_eq!(
            err(&[("c.js", "export default 1;\n")]),
            "c.js:1: the link takes no `export default 1;`"
        );
        assert_eq!(
            err(&[("c.js", "export let n = 1;\n")]),
            "c.js:1: the link takes no `export let n = 1;`"
        );
        assert_eq!(
            err(&[("c.js", "import a from './a.js';\n")]),
            "c.js:1: the link takes no `import a from './a.js';`"
        );
        assert_eq!(
            err(&[("c.js", "/* a */ f();\n")]),
            "c.js:1: the link takes no `/* a */ f();`"
        );
        assert_eq!(
            err(&[("c.js", "const s = `a\nb`;\n")]),
            "c.js:1: the link takes no `const s = `a`"
        );
        let cycle = [
            ("c.js", "import { x } from './a.js';\n"),
            ("a.js", "import { y } from './c.js';\n"),
        ];
        assert_eq!(err(&cycle), "c.js imports itself through others");
    }
}
