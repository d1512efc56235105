//! Patterns on long strings (issue 36): every pattern of the golden
//! constraints contract, and patterns drawn at random within the subset
//! that the guard accepts (seeded, so a run is repeatable), each as the one
//! member of a probe type of the test contract, tried by all six testees on
//! 100,000-character strings: a long match, the same with a failing
//! suffix, long runs of each character a repetition repeats ending in one
//! the pattern may not read, and, for a pattern searched without `^`, the
//! same of a character its tries start with. A crash (Java's `StackOverflowError`), a
//! wrong verdict or a slow engine fails the proof and names the pattern;
//! the verdict is the one the Rust spelling (an automaton engine, linear in
//! the string) gives.

use codegen::pattern::{CharSet, Node, Pattern};
use serde_json::{json, Map, Value};

use crate::support::fuzz::Rng;

/// The length of every probe string, in code points.
pub const LENGTH: usize = 100_000;

/// The campaign's seed, and how many drawn patterns it keeps (the pattern
/// benchmark, tests/conformance/bench-patterns.sh, draws more).
pub const SEED: u64 = 36;
const DRAWN: usize = 24;

/// The name of the probe type of the `i`th pattern.
pub fn probe_name(i: usize) -> String {
    format!("PatternProbe{i}")
}

/// The patterns the proof tries: the golden's, each once and in order, then
/// the drawn ones.
pub fn patterns(golden: &Value) -> Vec<Pattern> {
    drawn_patterns(golden, SEED, DRAWN)
}

/// The golden's patterns, then `wanted` patterns drawn with `seed` that the
/// guard accepts.
pub fn drawn_patterns(golden: &Value, seed: u64, wanted: usize) -> Vec<Pattern> {
    let mut sources: Vec<String> = Vec::new();
    collect(golden, &mut sources);
    let mut rng = Rng::new(seed);
    let mut drawn = 0;
    for _ in 0..50_000 + 2_000 * wanted {
        if drawn == wanted {
            break;
        }
        let source = draw(&mut rng);
        if !sources.contains(&source) && Pattern::parse(&source).is_ok() {
            sources.push(source);
            drawn += 1;
        }
    }
    assert_eq!(drawn, wanted, "the guard accepted too few drawn patterns");
    sources.iter().map(|s| Pattern::parse(s).unwrap_or_else(|e| panic!("{s}: {e:?}"))).collect()
}

fn collect(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(p)) = map.get("pattern") {
                if !out.contains(p) {
                    out.push(p.clone());
                }
            }
            map.values().for_each(|v| collect(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| collect(v, out)),
        _ => {}
    }
}

/// The probe types, one per pattern: an object whose member `text` has it.
pub fn defs(patterns: &[Pattern]) -> Map<String, Value> {
    patterns
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let def = json!({
                "description": format!("Probes the pattern {} on long strings.", p.display()),
                "type": "object",
                "properties": {"text": {"description": "The probed string.", "type": "string", "pattern": p.source}},
                "required": ["text"],
                "additionalProperties": false,
            });
            (probe_name(i), def)
        })
        .collect()
}

/// The type the pattern benchmark decodes every probe frame as besides
/// its probe type: the same object with no pattern, so that the time the
/// pattern adds to a decode is the difference.
pub const PLAIN_PROBE: &str = "PatternProbePlain";

/// [`PLAIN_PROBE`]'s definition.
pub fn plain_def() -> Value {
    json!({
        "description": "Probes the decode of the pattern probes' frames without a pattern.",
        "type": "object",
        "properties": {"text": {"description": "The probed string.", "type": "string"}},
        "required": ["text"],
        "additionalProperties": false,
    })
}

/// A pattern at random: anchored or not, a few terms, groups with
/// alternatives, every quantifier, counts small and large.
fn draw(rng: &mut Rng) -> String {
    let mut out = String::new();
    if rng.chance(70) {
        out.push('^');
    }
    out.push_str(&sequence(rng, 0));
    if rng.chance(60) {
        out.push('$');
    }
    out
}

fn sequence(rng: &mut Rng, depth: usize) -> String {
    (0..1 + rng.below(3)).map(|_| term(rng, depth)).collect()
}

fn term(rng: &mut Rng, depth: usize) -> String {
    let atom = if depth < 2 && rng.chance(25) {
        let branches: Vec<String> = (0..1 + rng.below(3)).map(|_| sequence(rng, depth + 1)).collect();
        format!("(?:{})", branches.join("|"))
    } else {
        rng.pick(&["a", "b", "-", "\\.", "[a-c]", "[^a]", "\\d", "\\w", "\\s", "\\S", ".", "[0-9a-f]", "\\u{1F600}", "[\\u{1F600}-\\u{1F64F}]", "[^\\u{1F600}]"]).to_string()
    };
    let quantifier = *rng.pick(&["", "", "", "*", "+", "?", "{2}", "{1,3}", "{2,}", "{0,5}", "{40}", "{10,200}"]);
    atom + quantifier
}

/// The long strings a pattern is tried on.
pub fn strings(pattern: &Pattern, rng: &mut Rng) -> Vec<String> {
    let mut matched = Written::default();
    let mut pump = true;
    write(&pattern.node, rng, &mut matched, &mut pump);
    let matched = matched.text;
    let mut out = vec![matched.clone(), matched + "\u{0}"];
    let mut repeated = Vec::new();
    repeated_sets(&pattern.node, &mut repeated);
    for set in repeated.iter().take(3) {
        let c = pick(set, rng);
        out.push(std::iter::repeat_n(c, LENGTH).chain(['\u{0}']).collect());
        out.push(std::iter::repeat_n(c, LENGTH).chain(['!']).collect());
    }
    // Searched without `^`, the pattern is tried at every position: a long
    // run of a character a try starts with makes every try read.
    if !pattern.source.starts_with('^') {
        let c = pick(&starts(&pattern.node), rng);
        out.push(std::iter::repeat_n(c, LENGTH).chain(['\u{0}']).collect());
        out.push(std::iter::repeat_n(c, LENGTH).chain(['!']).collect());
    }
    out
}

/// A string being written, and its length in code points.
#[derive(Default)]
struct Written {
    text: String,
    chars: usize,
}

impl Written {
    fn push(&mut self, c: char) {
        self.text.push(c);
        self.chars += 1;
    }
}

/// Appends a string the node matches; the first unbounded repetition met
/// while `pump` holds repeats until the string is [`LENGTH`] long.
fn write(node: &Node, rng: &mut Rng, out: &mut Written, pump: &mut bool) {
    match node {
        Node::Empty | Node::Start | Node::End => {}
        Node::Literal(c) => out.push(*c),
        Node::Class(set) => out.push(pick(set, rng)),
        Node::Concat(nodes) => nodes.iter().for_each(|n| write(n, rng, out, pump)),
        Node::Alternation(branches) => write(&rng.pick(branches).node, rng, out, pump),
        Node::Group(inner) => write(inner, rng, out, pump),
        Node::Repeat { node: inner, min, max, .. } => {
            let count = match max {
                Some(max) => *min as usize + rng.below((max - min) as usize + 1),
                None => *min as usize + rng.below(3),
            };
            for _ in 0..count {
                write(inner, rng, out, pump);
            }
            if max.is_none() && *pump {
                *pump = false;
                let mut guard = 0;
                while out.chars < LENGTH && guard < LENGTH {
                    let mut no_pump = false;
                    write(inner, rng, out, &mut no_pump);
                    guard += 1;
                }
            }
        }
    }
}

/// The sets of code points each repetition can start a repeat with.
fn repeated_sets(node: &Node, out: &mut Vec<CharSet>) {
    match node {
        Node::Concat(nodes) => nodes.iter().for_each(|n| repeated_sets(n, out)),
        Node::Alternation(branches) => branches.iter().for_each(|b| repeated_sets(&b.node, out)),
        Node::Group(inner) => repeated_sets(inner, out),
        Node::Repeat { node: inner, max, .. } => {
            if max.is_none_or(|m| m > 1) {
                out.push(starts(inner));
            }
            repeated_sets(inner, out);
        }
        _ => {}
    }
}

/// Some code points a match of the node can start with.
fn starts(node: &Node) -> CharSet {
    match node {
        Node::Literal(c) => CharSet::of([(*c as u32, *c as u32)]),
        Node::Class(set) => set.clone(),
        Node::Concat(nodes) => nodes.iter().map(starts).find(|s| !s.is_empty()).unwrap_or_default(),
        Node::Alternation(branches) => branches.iter().fold(CharSet::default(), |all, b| all.union(&starts(&b.node))),
        Node::Group(inner) | Node::Repeat { node: inner, .. } => starts(inner),
        _ => CharSet::default(),
    }
}

/// A code point of the set, most often its first (ASCII where it has any).
fn pick(set: &CharSet, rng: &mut Rng) -> char {
    let Some(&(low, high)) = (if rng.chance(70) { set.ranges.first() } else { set.ranges.get(rng.below(set.ranges.len().max(1))) }) else { return 'a' };
    let code = low + (rng.below((high - low).min(50) as usize + 1) as u32);
    char::from_u32(code).unwrap_or('a')
}

/// The inputs of the pattern benchmark (tests/conformance/bench-patterns.sh),
/// written under `dir`: `probes.tsv`, one probe a line (the probe type's
/// name, a tab, the frame's JSON text), which every engine's harness reads;
/// `index.tsv`, the same lines' pattern, expected verdict and string (the
/// probe's number, the pattern's, `valid` or `invalid`, the string's length
/// in code points, its last three code points escaped, the pattern as a
/// literal); and the probe contract `patterns-bench.json`, whose output
/// the harnesses are built on.
pub fn write_bench(dir: &std::path::Path, patterns: &[Pattern], seed: u64) -> std::io::Result<usize> {
    use std::io::Write as _;
    std::fs::create_dir_all(dir)?;
    let mut probes = std::io::BufWriter::new(std::fs::File::create(dir.join("probes.tsv"))?);
    let mut index = std::io::BufWriter::new(std::fs::File::create(dir.join("index.tsv"))?);
    let mut rng = Rng::new(seed);
    let mut count = 0;
    for (i, pattern) in patterns.iter().enumerate() {
        for text in strings(pattern, &mut rng) {
            let verdict = if pattern.finds(&text) { "valid" } else { "invalid" };
            let ending: String = text.chars().rev().take(3).collect::<Vec<_>>().into_iter().rev().flat_map(char::escape_default).collect();
            writeln!(probes, "{}\t{}", probe_name(i), json!({"text": text}))?;
            writeln!(index, "{count}\t{i}\t{verdict}\t{}\t{ending}\t{}", text.chars().count(), pattern.display())?;
            count += 1;
        }
    }
    probes.flush()?;
    index.flush()?;
    Ok(count)
}
