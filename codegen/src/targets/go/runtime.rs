//! The schema-independent part of the Go file lives in `runtime.go`, a real
//! Go file of package `mcptest` that gofmt and go vet check directly (the
//! Go conformance build does, with a stub for `MaxDepth`). Everything below
//! its import block is spliced into `coprocess.go` after the generated code;
//! its imports are the ones the generated file may use.

/// `runtime.go` as written.
pub const SOURCE: &str = include_str!("runtime.go");

/// The runtime's declarations: everything after the import block.
pub fn body() -> &'static str {
    match SOURCE.split_once("\n)\n") {
        Some((_, rest)) => rest.trim_start_matches('\n'),
        None => SOURCE,
    }
}

/// The import paths of `runtime.go`'s import block, in its order.
pub fn imports() -> Vec<&'static str> {
    let Some((_, block)) = SOURCE.split_once("\nimport (\n") else { return Vec::new() };
    let block = block.split_once("\n)\n").map_or(block, |(imports, _)| imports);
    block.lines().filter_map(|line| line.trim().strip_prefix('"')?.strip_suffix('"')).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_body_starts_after_the_imports_and_every_import_is_read() {
        assert!(super::body().starts_with("// DecodingError"), "{}", &super::body()[..40]);
        assert_eq!(super::imports().first(), Some(&"encoding/json"));
        assert!(super::imports().contains(&"unicode/utf8"));
        assert!(!super::body().contains("\nimport ("));
    }
}
