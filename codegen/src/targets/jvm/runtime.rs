//! The part of `Coprocess.java` that does not depend on the schema, apart from
//! the nesting limit, kept in `Runtime.java` (a class javac and
//! google-java-format check directly): the strict JSON reader (Jackson's streaming parser plus
//! the I-JSON checks), the error types, the decoding path, and the shared
//! decode/encode helpers every generated type calls.

/// The runtime as written: a Java class whose members between the
/// `// runtime: <section>` markers are spliced into `Coprocess`.
const SOURCE: &str = include_str!("Runtime.java");

/// The members of one section of [`SOURCE`], ending in a newline (empty when
/// the marker is missing, which a test rules out).
fn section(name: &str) -> &'static str {
    let marker = format!("    // runtime: {name}\n\n");
    let Some(start) = SOURCE.find(&marker).map(|at| at + marker.len()) else {
        return "";
    };
    let end = SOURCE[start..].find("\n\n    // runtime: ").map_or(SOURCE.len(), |at| start + at + 1);
    &SOURCE[start..end]
}

/// The public support types: the encodable interface and the two exceptions.
pub fn support_types() -> &'static str {
    section("support types")
}

/// The private machinery; the nesting limit is read from the generated
/// `MAX_DEPTH` constant.
pub fn helpers() -> &'static str {
    section("helpers")
}

/// What the typed envelopes need to read and write their member (over the
/// generated `MEMBER_DECODERS`).
pub fn member_support() -> &'static str {
    section("typed envelope members")
}

/// The imports the file needs, sorted: the runtime's own, and `Optional`
/// for the generated `laneCliHint`.
pub fn imports() -> Vec<&'static str> {
    let mut imports: Vec<&str> = SOURCE
        .lines()
        .filter_map(|line| line.strip_prefix("import ").and_then(|rest| rest.strip_suffix(';')))
        .chain(["java.util.Optional"])
        .collect();
    imports.sort_unstable();
    imports
}

use crate::targets::claims::identifier;

/// The name a runtime member declares when it is not public (so the pruner
/// may leave it out): `decodeBoolean`, `MAX_SAFE_INTEGER`, `Path`.
pub fn private_name(line: &str) -> Option<&str> {
    if line.starts_with("public ") || !(line.starts_with("private ") || line.starts_with("static ")) {
        return None;
    }
    for keyword in [" class ", " interface ", " record ", " enum "] {
        if let Some((_, rest)) = line.split_once(keyword) {
            return identifier(rest);
        }
    }
    let head = line.split(['(', '=']).next()?.trim_end();
    head.rsplit([' ', '>']).next().and_then(identifier)
}

/// The identifiers of `code` that can use a private runtime member. A type
/// or a constant (upper-case initial) uses it wherever it is named; a helper
/// method (lower-case initial: the runtime's private members with one are
/// all methods) only where it is called, unqualified or as
/// `Coprocess.name(`, or referenced as `::name`. A record component, its
/// accessor call (`value.name()`) or a parameter of that name
/// (`this.name`) is no use, so a schema member named like a helper
/// (`itemsWithin`) keeps nothing alive that Error Prone's UnusedMethod would
/// then refuse.
pub fn used_names(code: &str) -> std::collections::BTreeSet<&str> {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let mut out = std::collections::BTreeSet::new();
    let mut at = 0;
    while at < code.len() {
        let rest = &code[at..];
        let Some(start) = rest.find(is_ident) else { break };
        let word_start = at + start;
        let len = code[word_start..].find(|c: char| !is_ident(c)).unwrap_or(code.len() - word_start);
        let word = &code[word_start..word_start + len];
        at = word_start + len;
        let before = &code[..word_start];
        if before.ends_with(is_ident) || word.starts_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        if !word.starts_with(|c: char| c.is_ascii_lowercase()) || before.ends_with("::") {
            out.insert(word);
            continue;
        }
        if !code[at..].trim_start_matches(' ').starts_with('(') {
            continue;
        }
        let qualified_by_coprocess = before.strip_suffix('.').map(|q| {
            q.strip_suffix("Coprocess").is_some_and(|head| !head.ends_with(is_ident))
        });
        if qualified_by_coprocess.unwrap_or(true) {
            out.insert(word);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_method_is_used_where_it_is_called_or_referenced_only() {
        for code in ["x = itemsWithin(a, p);", "return Coprocess.itemsWithin (a);", "decodeList(n, p, Coprocess::itemsWithin)"] {
            assert!(used_names(code).contains("itemsWithin"), "{code}");
        }
        for code in ["String itemsWithin, long n)", "this.itemsWithin = itemsWithin;", "value.itemsWithin()", "MyCoprocess.itemsWithin(x)", "itemsWithinAll(x)"] {
            assert!(!used_names(code).contains("itemsWithin"), "{code}");
        }
        let names = used_names("new Path(null); n = MAX_DEPTH + 1;");
        assert!(names.contains("Path") && names.contains("MAX_DEPTH"), "{names:?}");
    }

    #[test]
    fn every_section_is_found_and_ends_before_the_next_marker() {
        for text in [support_types(), helpers(), member_support()] {
            assert!(text.starts_with("    ") && text.ends_with("}\n"), "{text:?}");
            assert!(!text.contains("// runtime:"), "{text}");
        }
        assert!(support_types().contains("public interface Encodable"));
        assert!(member_support().contains("private static void writeMember"));
        assert!(imports().contains(&"java.util.Optional") && imports().contains(&"java.io.IOException"));
    }
}
