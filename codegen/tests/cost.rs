//! Codegen's work grows about linearly with the schema (issue 36, row 6):
//! arrays nested deeper, a longer `$ref` chain, more `$defs`, a longer
//! description. Work is counted, not timed: the allocations (their number
//! and bytes) of loading the schema and rendering every target, at two sizes
//! of each hostile shape. Exponential or quadratic growth shows as a ratio
//! far past the one a linear cost gives; the wall-clock figures are in
//! docs/benchmarks.md.

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{json, Value};

/// The system allocator, counting.
struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        BYTES.fetch_add(layout.size() as u64, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        BYTES.fetch_add(new_size as u64, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn repo_schema() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/ipc/v2.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The work of loading `schema` and rendering every target: (allocations, bytes).
fn work(schema: &Value) -> (u64, u64) {
    let text = serde_json::to_string(schema).unwrap();
    let (a, b) = (ALLOCATIONS.load(Ordering::Relaxed), BYTES.load(Ordering::Relaxed));
    let (contract, _) = codegen::load::load_str(&text, Path::new("cost.json"), "cost.json").unwrap();
    let files = codegen::targets::generate(&contract).unwrap();
    assert!(!files.is_empty());
    (ALLOCATIONS.load(Ordering::Relaxed) - a, BYTES.load(Ordering::Relaxed) - b)
}

/// One measurement at a time: the counters are the process's, so a test
/// that generates holds this while it does.
fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    ONE_AT_A_TIME.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The work the shape adds to v2.json at `small` and at `large` (twice
/// `small`), and the ratio of the two: about 2 when the cost is linear in the
/// shape's size.
fn growth(shape: impl Fn(&mut Value, usize), small: usize) -> (f64, f64) {
    let _turn = one_at_a_time();
    // Once first: what a process does only once (lazily built tables) is no one size's work.
    work(&repo_schema());
    let base = work(&repo_schema());
    let at = |n: usize| {
        let mut schema = repo_schema();
        shape(&mut schema, n);
        let (allocations, bytes) = work(&schema);
        (allocations.saturating_sub(base.0) as f64, bytes.saturating_sub(base.1) as f64)
    };
    let (s, l) = (at(small), at(2 * small));
    eprintln!("{small} -> {}: {:.0} -> {:.0} allocations, {:.0} -> {:.0} bytes", 2 * small, s.0, l.0, s.1, l.1);
    (l.0 / s.0, l.1 / s.1)
}

/// `ToolCallPassthrough.x`: arrays nested `depth` deep, of strings. On a
/// type that has no single-pass reader in v2.json already (its `content` is
/// an array), so that the work added is the arrays' alone: on `Verdict` it
/// would also take the Rust readers of `Verdict` and `CallResult` away from
/// the base's work, as much at every depth.
fn nested_arrays(schema: &mut Value, depth: usize) {
    let mut ty = json!({"type": "string"});
    for _ in 0..depth {
        ty = json!({"type": "array", "items": ty});
    }
    ty["description"] = json!("Nested.");
    schema["$defs"]["ToolCallPassthrough"]["properties"]["x"] = ty;
}

/// `Verdict.x` refers to `Link0`, whose `next` refers to `Link1`, ... `Link<n-1>`.
fn ref_chain(schema: &mut Value, links: usize) {
    for i in 0..links {
        let properties = if i + 1 == links { json!({}) } else { json!({"next": {"description": "The next link.", "$ref": format!("#/$defs/Link{}", i + 1)}}) };
        schema["$defs"][format!("Link{i}")] = json!({"description": "A link.", "type": "object", "properties": properties, "additionalProperties": false});
    }
    schema["$defs"]["Verdict"]["properties"]["x"] = json!({"description": "The chain.", "$ref": "#/$defs/Link0"});
}

/// `n` more `$defs` objects, each of one string.
fn many_defs(schema: &mut Value, n: usize) {
    for i in 0..n {
        schema["$defs"][format!("Def{i}")] = json!({"description": "A type.", "type": "object", "properties": {"a": {"description": "A string.", "type": "string"}}, "additionalProperties": false});
    }
}

/// `Verdict`'s description, `words` words long.
fn long_description(schema: &mut Value, words: usize) {
    schema["$defs"]["Verdict"]["description"] = json!(vec!["word"; words].join(" "));
}

/// At most this ratio for twice the size: linear with room for constant
/// terms (an exponential cost doubles per level of nesting, a quadratic one
/// gives 4).
const LINEAR: f64 = 2.6;

#[test]
fn nesting_arrays_deeper_costs_about_linearly_more() {
    // The generated code spells each level's type in full (`List<List<...>>`
    // in the JVM's reader of each level), so the text, and the bytes
    // allocated to write it, grow with the square of the depth, bounded by
    // `max_depth`; the number of allocations grows about linearly. Before
    // issue 36 the TypeScript layout doubled its work per level: 5 -> 10
    // levels gave 219x the allocations, and 14 levels took gigabytes.
    for small in [5, 24] {
        let (allocations, bytes) = growth(nested_arrays, small);
        assert!(allocations < 3.0 && bytes < 4.5, "{small} -> {} levels: {allocations:.2}x allocations, {bytes:.2}x bytes", 2 * small);
    }
}

#[test]
fn a_longer_ref_chain_costs_about_linearly_more() {
    let (allocations, bytes) = growth(ref_chain, 150);
    assert!(allocations < LINEAR && bytes < LINEAR, "150 -> 300 links: {allocations:.2}x allocations, {bytes:.2}x bytes");
}

#[test]
fn more_defs_cost_about_linearly_more() {
    let (allocations, bytes) = growth(many_defs, 150);
    assert!(allocations < LINEAR && bytes < LINEAR, "150 -> 300 $defs: {allocations:.2}x allocations, {bytes:.2}x bytes");
}

#[test]
fn a_longer_description_costs_about_linearly_more() {
    let (allocations, bytes) = growth(long_description, 20000);
    assert!(allocations < LINEAR && bytes < LINEAR, "20000 -> 40000 words: {allocations:.2}x allocations, {bytes:.2}x bytes");
}

#[test]
fn the_deepest_nesting_generates_on_a_callers_small_stack() {
    // The loader and the renders recurse as deep as the schema nests, and
    // how deep a frame of the stack is depends on the build (unoptimized
    // dependencies take more). So they run on threads of their own with the
    // main thread's stack, whatever thread calls them: a test's thread has
    // 2 MiB, and this one 256 KiB. Before, the loader's model and the page
    // ran on the caller's thread, and so did a target render that no
    // worker had taken yet: 48 levels overflowed a test's stack now and then.
    let _turn = one_at_a_time();
    let schema = {
        let mut schema = repo_schema();
        let deepest = (2..64).rev().find(|&depth| {
            let mut s = schema.clone();
            nested_arrays(&mut s, depth);
            codegen::load::load_str(&s.to_string(), Path::new("deep.json"), "deep.json").is_ok()
        });
        nested_arrays(&mut schema, deepest.expect("some nesting under max_depth loads"));
        schema.to_string()
    };
    let caller = std::thread::Builder::new().stack_size(256 << 10);
    let files = caller
        .spawn(move || {
            let (contract, _) = codegen::load::load_str(&schema, Path::new("deep.json"), "deep.json").unwrap();
            codegen::targets::generate(&contract).unwrap().len()
        })
        .unwrap()
        .join()
        .unwrap();
    assert!(files > 6);
}
