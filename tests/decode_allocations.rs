//! What a strict decode allocates, counted (not timed): a frame that is a
//! scalar (an enum's string, the version's constant) decodes without a
//! single allocation, since its strict scan has no object's keys to keep;
//! an object's scan keeps its keys on a stack that the thread's next scan
//! reuses.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use mcptest_coprocess::frames::{CacheMode, CacheSetModeParams, JsonRpcVersion};
use mcptest_coprocess::Frame;

/// The system allocator, counting the allocations of the thread that asks.
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn note_allocation() {
    // A thread being torn down has no counter left: nothing to count there.
    let _ = ALLOCATIONS.try_with(|count| count.set(count.get() + 1));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note_allocation();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The allocations `decode` makes on this thread, the value dropped.
fn allocations_of<T>(decode: impl FnOnce() -> T) -> u64 {
    let before = ALLOCATIONS.with(Cell::get);
    drop(decode());
    ALLOCATIONS.with(Cell::get) - before
}

#[test]
fn a_scalar_frame_decodes_without_allocating() {
    let mode = allocations_of(|| CacheMode::decode(r#""read_write""#).unwrap());
    assert_eq!(mode, 0, "CacheMode \"read_write\" allocated {mode} times");
    let version = allocations_of(|| JsonRpcVersion::decode(r#" "2.0" "#).unwrap());
    assert_eq!(version, 0, "JsonRpcVersion \"2.0\" allocated {version} times");
}

#[test]
fn an_object_frame_still_allocates_its_keys_once() {
    // The count above is not zero for want of counting: an object's keys go
    // on the scan's stack, an allocation that a scalar does not make (on a
    // thread of its own, whose first scan it is).
    std::thread::spawn(|| {
        let mode = allocations_of(|| CacheMode::decode(r#""off""#).unwrap());
        let params = allocations_of(|| CacheSetModeParams::decode(r#"{"mode":"off"}"#).unwrap());
        assert!(params > mode, "a CacheSetModeParams allocated {params} times, a CacheMode {mode}");
    })
    .join()
    .unwrap();
}

#[test]
fn the_scans_key_stack_is_kept_for_the_threads_next_decode() {
    // The first object's scan allocates the key stack; the frames after it
    // on the same thread, whose members allocate nothing (an enum; an empty
    // result), reuse it, a union's decode (which picks its variant by the
    // keys) included.
    std::thread::spawn(|| {
        let frame = r#"{"mode":"read_write"}"#;
        let first = allocations_of(|| CacheSetModeParams::decode(frame).unwrap());
        let again = allocations_of(|| CacheSetModeParams::decode(frame).unwrap());
        let union = allocations_of(|| mcptest_coprocess::frames::Response::decode(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#).unwrap());
        let after_union = allocations_of(|| CacheSetModeParams::decode(frame).unwrap());
        assert!(first > 0, "the first object's scan allocated nothing: is anything counted?");
        assert_eq!(again, 0, "a second CacheSetModeParams allocated {again} times");
        assert_eq!(union, 0, "a Response with an empty result allocated {union} times");
        assert_eq!(after_union, 0, "a CacheSetModeParams after a union's decode allocated {after_union} times");
    })
    .join()
    .unwrap();
}

#[test]
fn a_nested_union_led_by_its_discriminator_is_read_as_its_variant_at_once() {
    // `mcp.call`'s typed answer: a `CallResult` (a verdict or the upstream
    // result) whose first member is the verdict's discriminator, `success`,
    // is read as a verdict in the outer decode's pass, with nothing kept
    // aside; led by another member, its members are first read into a list
    // (one allocation) for the discriminators among them to pick the
    // variant. The verdict's members here allocate nothing (no string).
    use mcptest_coprocess::frames::{CallResult, ResponseOf};
    std::thread::spawn(|| {
        let led = r#"{"jsonrpc":"2.0","id":7,"result":{"success":true,"data":null,"text":null,"error":null,"duration_ms":3}}"#;
        let trailing = r#"{"jsonrpc":"2.0","id":7,"result":{"data":null,"text":null,"error":null,"duration_ms":3,"success":true}}"#;
        let decode = |text: &'static str| move || ResponseOf::<CallResult>::decode(text).unwrap();
        let _warm = allocations_of(decode(led));
        let at_once = allocations_of(decode(led));
        let listed = allocations_of(decode(trailing));
        assert_eq!(at_once, 0, "a verdict led by `success` allocated {at_once} times");
        assert_eq!(listed, 1, "a verdict led by another member allocated {listed} times");
    })
    .join()
    .unwrap();
}
