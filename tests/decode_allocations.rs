//! What a strict decode allocates, counted (not timed): a frame that is a
//! scalar (an enum's string, the version's constant) decodes without a
//! single allocation, since its strict scan has no object's keys to keep.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use mcptest_coprocess::frames::{CacheMode, JsonRpcVersion};
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
    // on the scan's stack, one allocation that a scalar does not make.
    let mode = allocations_of(|| CacheMode::decode(r#""off""#).unwrap());
    let error = allocations_of(|| {
        mcptest_coprocess::frames::ErrorObject::decode(r#"{"code":-32600,"message":"m"}"#).unwrap()
    });
    assert!(error > mode, "an ErrorObject allocated {error} times, a CacheMode {mode}");
}
