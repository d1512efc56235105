use super::{Dialect, Pattern, Tries};

fn render(source: &str, dialect: Dialect) -> String {
    Pattern::parse(source).unwrap_or_else(|e| panic!("{source}: {e:?}")).render(dialect)
}

fn refusal(source: &str) -> String {
    match Pattern::parse(source) {
        Ok(p) => panic!("{source} was accepted as {:?}", p.node),
        Err(e) => format!("{} | {}", e.problem, e.fix),
    }
}

#[test]
fn anchors_mean_the_ends_of_the_string_in_every_engine() {
    assert_eq!(render("^a$", Dialect::EcmaScript), "^a$");
    assert_eq!(render("^a$", Dialect::Python), "^a\\Z");
    assert_eq!(render("^a$", Dialect::Java), "^a\\z");
    assert_eq!(render("^a$", Dialect::DotNet), "^a\\z");
    assert_eq!(render("^a$", Dialect::Go), "^a$");
    assert_eq!(render("^a$", Dialect::Rust), "^a$");
}

#[test]
fn shorthand_classes_and_the_dot_are_spelled_out_as_code_point_ranges() {
    assert_eq!(render("\\d", Dialect::Python), "[0-9]");
    assert_eq!(render("\\w", Dialect::Go), "[0-9A-Z_a-z]");
    assert_eq!(render("\\D", Dialect::Rust), "[^0-9]");
    assert_eq!(render(".", Dialect::Java), "[^\\x0A\\x0D\\x{2028}\\x{2029}]");
    assert_eq!(render(".", Dialect::Python), "[^\\x0A\\x0D\\u2028\\u2029]");
    // .NET matches UTF-16 units: an astral code point is its surrogate pair,
    // and a negated class never matches half of one.
    assert_eq!(render(".", Dialect::DotNet), "(?:[^\\x0A\\x0D\\u2028\\u2029\\uD800-\\uDFFF]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF])");
    assert_eq!(render("[\\u{1F600}-\\u{1F602}]", Dialect::DotNet), "(?:\\uD83D[\\uDE00-\\uDE02])");
    assert_eq!(render("\\u{1F600}+", Dialect::DotNet), "(?>(?:\\uD83D\\uDE00)+)");
    assert_eq!(render("\\u{1F600}+", Dialect::EcmaScript), "\\u{1F600}+");
}

#[test]
fn dotnet_repeats_atomically_and_reads_a_run_of_any_code_point_as_units() {
    // Issue 36's pattern benchmark: .NET 3.1's interpreter took 20 to 38 ms
    // on `^\S+\s\S+$` and 100,000 characters, an alternation per character
    // and a run given back one character at a time when `\s` failed.
    assert_eq!(render("^\\S+\\s\\S+$", Dialect::DotNet), "^(?>[^\\x09-\\x0D \\xA0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF]+)[\\x09-\\x0D \\xA0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF](?>[^\\x09-\\x0D \\xA0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF]+)\\z");
    // A count counts code points: a pair stays one.
    assert_eq!(render("^.{2}$", Dialect::DotNet), "^(?>(?:[^\\x0A\\x0D\\u2028\\u2029\\uD800-\\uDFFF]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF]){2})\\z");
    assert_eq!(render("^[^\"]*$", Dialect::DotNet), "^(?>[^\\x22]*)\\z");
}

#[test]
fn class_syntax_characters_are_escaped_as_each_engine_needs() {
    assert_eq!(render("[&~\\-\\[\\]^]", Dialect::Java), "[\\&\\-\\[\\]\\^\\~]");
    assert_eq!(render("[&~\\-\\[\\]^]", Dialect::EcmaScript), "[&\\-\\[\\]\\^~]");
    // Quotes and backticks never reach a string literal unescaped.
    assert_eq!(render("[\"'`]", Dialect::Go), "[\\x22\\x27\\x60]");
    assert_eq!(render("^a/b", Dialect::EcmaScript), "^a\\/b");
}

#[test]
fn groups_capture_nothing_and_counts_are_kept() {
    assert_eq!(render("^(ab|cd){2,3}", Dialect::Rust), "^(?:ab|cd){2,3}");
    assert_eq!(render("^a{2,}b{3}c?", Dialect::Python), "^a{2,}b{3}c?");
}

#[test]
fn what_engines_read_differently_is_refused_with_a_fix() {
    assert!(refusal("(?=a)").contains("lookaround"));
    assert!(refusal("(?<!a)b").contains("lookaround"));
    assert!(refusal("(a)\\1").contains("backreference"));
    assert!(refusal("(?<n>a)").contains("named group"));
    assert!(refusal("\\bword").contains("word boundaries"));
    assert!(refusal("\\p{L}").contains("Unicode property"));
    assert!(refusal("a+?").contains("lazy"));
    assert!(refusal("[]").contains("matches no character"));
    assert!(refusal("a{1001}").contains("above 1000"));
    assert!(refusal("a{3,2}").contains("out of order"));
    assert!(refusal("a{").contains("lone `{`"));
    assert!(refusal("a]").contains("lone `]`"));
    assert!(refusal("\\q").contains("not an escape"));
    assert!(refusal("[a[]").contains("nested class"));
    assert!(refusal("^*").contains("anchor"));
    assert!(refusal("\\uD83D").contains("lone surrogate"));
    assert!(refusal("(ab").contains("unclosed group"));
    assert!(refusal("ab)").contains("unmatched"));
}

#[test]
fn repetitions_a_backtracking_engine_could_take_exponential_time_on_are_refused() {
    assert!(refusal("^(a+)+$").contains("can stop or go on"));
    assert!(refusal("(a?)*").contains("empty string"));
    assert!(refusal("(a|ab)*c").contains("can start alike"));
    assert!(refusal("([a-z]|\\d|x)+").contains("can start alike"));
    assert!(refusal("(\\w+\\s?)*").contains("can stop or go on"));
    assert!(refusal("(a{2}a?)+").contains("can stop or go on"));
    // One way to consume the input: accepted.
    assert!(Pattern::parse("^(?:ab|cd)+$").is_ok());
    assert!(Pattern::parse("^[a-z]+(?:-[a-z]+)*$").is_ok());
    assert!(Pattern::parse("(a+)?").is_ok());
    assert!(Pattern::parse("^\\d+(?:,\\d+)*$").is_ok());
    assert!(Pattern::parse("^https?://[^/]+(?:/[^/]+)*$").is_ok());
}

#[test]
fn repetitions_that_can_split_the_same_text_are_refused_as_polynomial() {
    // Issue 36, row 3: 128 s in Python on 30 characters.
    let refused = refusal("^\\d*\\d*\\d*\\d*\\d*\\d*\\d*\\d*\\d*\\d*\\d*\\d*$");
    assert!(refused.contains("`\\d*` can stop or go on at the same character") && refused.contains("polynomial"), "{refused}");
    assert!(refusal("^.*\\.json$").contains("`.*` can stop or go on"));
    assert!(refusal("^(?:\\d+,)*\\d+$").contains("`(?:\\d+,)*` can stop or go on"));
    assert!(refusal("^[a-z]+[a-z0-9]*$").contains("polynomial"));
    assert!(refusal("^(?:ab|ac)x*$").contains("`ab` and `ac` can start alike"));
    assert!(refusal("^(?:a?)?$").contains("in two ways"));
    // `$` reads the end of the string, which no repetition repeats.
    assert!(Pattern::parse("^a*(?:b|$)").is_ok());
    assert!(Pattern::parse("^[^.]*\\.json$").is_ok());
    assert!(Pattern::parse(":$").is_ok());
    assert!(Pattern::parse("^\\S+\\s\\S+$").is_ok());
}

#[test]
fn a_search_without_a_start_anchor_reads_a_bounded_text_per_try() {
    // 12 s in Python on 100,000 letters: every try reads to the end.
    assert!(refusal("[a-z]+:").contains("searched without `^`"));
    assert!(refusal("x+$").contains("searched without `^`"));
    assert!(refusal("(?:ba+){2}").contains("searched without `^`"));
    assert!(refusal("a{101}").contains("101 characters"));
    assert!(Pattern::parse("^a{101}").is_ok());
    // Issue 36's pattern benchmark: a bounded try is paid at every position.
    // On 100,000 characters, `\S{40}$` took 350 ms in Java, 250 in .NET, 73
    // in Go; `a{1,3}$` 13 ms in .NET.
    assert!(refusal("\\S{40}$").contains("40 characters"));
    assert!(refusal("a{1,3}$").contains("3 characters"));
    assert!(refusal("\\s\\s(?:\\s(?:\\s\\s{1,3})?)?$").contains("7 characters"));
    assert!(refusal("\\.json$").contains("5 characters"));
    assert!(Pattern::parse("a\\w$").is_ok());
    assert!(Pattern::parse("a[0-9]+").is_ok());
    assert!(Pattern::parse("[a-z]+").is_ok());
    assert!(Pattern::parse("(?:ba+)+").is_ok());
    assert!(Pattern::parse("^x+$|^y").is_ok());
    assert!(refusal("^x+$|y+$").contains("searched without `^`"));
    assert!(refusal("a^b").contains("never matches"));
    assert!(Pattern::parse("(?:a|^)b").is_ok());
    assert!(Pattern::parse("(?:^|,)x").is_ok());
}

#[test]
fn counts_and_sizes_past_what_every_engine_compiles_are_refused() {
    // Issue 36, row 5: Go panics at start-up on this one.
    assert!(refusal("^(?:[0-9a-f]{2}){1,512}$").contains("multiply to 1024"));
    assert!(refusal("^(?:.{1000}){1000}$").contains("multiply to 1000000"));
    assert!(refusal("^(?:(?:a{10}){10}b){11}$").contains("multiply to 1100"));
    assert!(Pattern::parse("^(?:[0-9a-f]{2})+$").is_ok());
    assert!(Pattern::parse("^(?:(?:a{10}){10}b){10}$").is_ok());
    // Within Go's counts, past Rust's size limit.
    let large = format!("^{}$", "(?:.{1000})".repeat(40));
    assert!(refusal(&large).contains("too large for Rust's `regex` crate"), "{}", refusal(&large));
    let deep = format!("{}a{}", "(".repeat(101), ")".repeat(101));
    assert!(refusal(&deep).contains("nested deeper than 100"));
}

#[test]
fn java_repeats_possessively_and_tries_a_branch_that_matches_nothing_last() {
    assert_eq!(render("^[a-z]+(?:-[a-z]+)*$", Dialect::Java), "^[a-z]++(?:-[a-z]++)*+\\z");
    assert_eq!(render("^(?:ab|cd){2,3}x?$", Dialect::Java), "^(?:ab|cd){2,3}+x?+\\z");
    assert_eq!(render("^(?:x(?:|b))*$", Dialect::Java), "^(?:x(?:b|))*+\\z");
    assert_eq!(render("^(?:x(?:|b))*$", Dialect::Python), "^(?:x(?:|b))*\\Z");
}

#[test]
fn a_syntax_problem_names_the_character_it_stops_at() {
    let error = Pattern::parse("ab(?=c)").unwrap_err();
    assert_eq!(error.offset, Some(2));
    assert_eq!(Pattern::parse("^(a+)+$").unwrap_err().offset, None);
}

#[test]
fn the_problem_shows_the_pattern_as_a_literal_with_control_characters_escaped() {
    let pattern = Pattern::parse("^\\d\t$").unwrap();
    assert_eq!(pattern.problem(), "expected string matching /^\\d\\x09$/");
}

/// The Rust spelling, compiled by the `regex` crate, reads each pattern as
/// ECMA-262 with the `u` flag does (the expected verdicts are ECMA's; the
/// other engines are held to the same ones by tests/constraints/proof.rs).
#[test]
fn the_rust_spelling_matches_as_ecmascript_does() {
    let cases: &[(&str, &str, bool)] = &[
        ("^a$", "a\n", false),
        ("^\\d+$", "\u{662}", false),
        ("\\w", "\u{e9}", false),
        ("^.$", "\u{1F600}", true),
        ("^.$", "\r", false),
        ("^.$", "\u{85}", true),
        ("^\\s$", "\u{a0}", true),
        ("^\\s$", "\u{85}", false),
        ("^\\S$", "\u{1F600}", true),
        ("^[^a]$", "\u{1F600}", true),
        ("[\\u{1F600}-\\u{1F602}]", "x\u{1F601}", true),
        ("^[&~\\-\\[\\]^]+$", "&~-[]^", true),
        ("b", "abc", true),
    ];
    for &(source, text, expected) in cases {
        let rendered = render(source, Dialect::Rust);
        let regex = regex::Regex::new(&rendered).unwrap_or_else(|e| panic!("{source} as {rendered}: {e}"));
        assert_eq!(regex.is_match(text), expected, "{source} (as {rendered}) on {text:?}");
    }
}

#[test]
fn a_search_tries_at_the_start_at_the_end_or_everywhere() {
    let tries = |source: &str| Pattern::parse(source).unwrap_or_else(|e| panic!("{source}: {e:?}")).tries();
    assert_eq!(tries("^a"), Tries::AtStart);
    assert_eq!(tries("^a$"), Tries::AtStart);
    assert_eq!(tries("^a|^b$"), Tries::AtStart);
    assert_eq!(tries("a$"), Tries::AtEnd);
    assert_eq!(tries("[ab]b?$"), Tries::AtEnd);
    assert_eq!(tries("$"), Tries::AtEnd);
    assert_eq!(tries("a"), Tries::Everywhere);
    assert_eq!(tries("\\da+"), Tries::Everywhere);
    // Each branch ends at the end, but the sequence does not: tried everywhere.
    assert_eq!(tries("a$|b$"), Tries::Everywhere);
}

#[test]
fn read_from_the_end_no_repetition_keeps_what_it_read() {
    // Read from the end, `(?>b?)` would keep the `b` of `xb` that `[ab]` needs.
    let pattern = Pattern::parse("[ab]b?$").unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(pattern.render(Dialect::DotNet), "[ab](?>b?)\\z");
    assert_eq!(pattern.render_from_end(Dialect::DotNet), "[ab]b?\\z");
}
