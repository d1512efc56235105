//! Statement layout: a statement the emitters write on one line is printed
//! here, when it is wider than Prettier's 80 columns, exactly as Prettier 3
//! (default options) prints it. The emitters keep writing statements in their
//! natural flat form; this module reads that form back (only the small subset
//! of TypeScript the emitters write: calls, member access, binary and
//! conditional expressions, arrows, array and object literals, assignments,
//! `return`/`throw`, function headers and union type aliases) and builds the
//! document Prettier builds for it (`prettier --debug-print-doc` shows it),
//! which the shared [`crate::printer`] lays out. [`Out`], the text being
//! generated, passes every statement through [`statement`].
//!
//! A line this module cannot read is returned unchanged; the conformance
//! build's `prettier --check` over the committed file and every golden is
//! what proves that no such line is ever too wide.

mod doc;
mod parse;

/// Prettier's default `printWidth`.
pub const WIDTH: usize = 80;

/// The text of the file being generated.
#[derive(Default)]
pub(super) struct Out {
    buf: String,
}

impl Out {
    /// Appends one statement, written on one line; one too wide for Prettier's
    /// width is laid out as Prettier lays it out ([`statement`]).
    pub fn line(&mut self, text: impl AsRef<str>) {
        self.buf.push_str(&statement(text.as_ref()));
        self.buf.push('\n');
    }

    /// Appends one line as it is (text already as Prettier prints it).
    pub fn raw(&mut self, text: &str) {
        self.buf.push_str(text);
        self.buf.push('\n');
    }

    /// Appends an empty line, unless the text already ends with one (Prettier
    /// keeps at most one).
    pub fn blank(&mut self) {
        if !self.buf.ends_with("\n\n") {
            self.buf.push('\n');
        }
    }

    /// A section banner.
    pub fn section(&mut self, title: &str) {
        self.blank();
        self.line("// ---------------------------------------------------------------------------");
        self.line(format!("// {title}"));
        self.blank();
    }

    pub fn finish(self) -> String {
        self.buf
    }
}

/// `line` (its indentation included) as Prettier prints it: unchanged when
/// it fits in [`WIDTH`] columns or is not a statement this module reads.
pub fn statement(line: &str) -> String {
    let text = line.trim_start_matches(' ');
    let indent = line.len() - text.len();
    if line.chars().count() <= WIDTH || text.contains('\n') {
        return line.to_string();
    }
    let Some(stmt) = parse::statement(text) else {
        return line.to_string();
    };
    use crate::printer::{print, Doc};
    let doc = Doc::concat([Doc::text(" ".repeat(indent)), Doc::align(indent, doc::statement(&stmt))]);
    print(&doc, WIDTH, 2)
}

#[cfg(test)]
mod tests {
    use super::statement;

    #[test]
    fn a_line_that_fits_is_left_alone() {
        let line = "  x = f(a, b);";
        assert_eq!(statement(line), line);
    }

    #[test]
    fn a_call_too_wide_breaks_its_arguments_one_per_line_with_a_trailing_comma() {
        let line = "        previousMode = readCacheMode(member, _pathTo(path, \".previous_mode_and_more\"), false);";
        assert_eq!(
            statement(line),
            "        previousMode = readCacheMode(\n          member,\n          _pathTo(path, \".previous_mode_and_more\"),\n          false,\n        );"
        );
    }

    #[test]
    fn a_function_header_too_wide_breaks_its_parameters() {
        let line = "function readCacheSetModeParams(value: JsonValue, path: string, orNull: boolean): CacheSetModeParams {";
        assert_eq!(
            statement(line),
            "function readCacheSetModeParams(\n  value: JsonValue,\n  path: string,\n  orNull: boolean,\n): CacheSetModeParams {"
        );
    }

    #[test]
    fn a_sum_of_conditionals_on_string_indexes_breaks_one_term_per_line() {
        let line = r#"  const present = (obj["success"] === undefined ? 0 : 1) + (obj["content"] === undefined ? 0 : 2);"#;
        assert_eq!(
            statement(line),
            "  const present =\n    (obj[\"success\"] === undefined ? 0 : 1) +\n    (obj[\"content\"] === undefined ? 0 : 2);"
        );
    }

    #[test]
    fn a_conditional_assignment_breaks_after_the_operator_first() {
        let line = "        description = member === null ? null : _readString(member, _pathTo(path, \".description\"), true);";
        assert_eq!(
            statement(line),
            "        description =\n          member === null\n            ? null\n            : _readString(member, _pathTo(path, \".description\"), true);"
        );
    }

    #[test]
    fn a_generic_alias_breaks_its_arguments_then_the_line_after_the_operator() {
        // Both as Prettier 3.10.1 prints them.
        let line = "export type AMapFromStringsToListsOfNonNegativeIntegers = Readonly<Record<string, number>>;";
        assert_eq!(statement(line), "export type AMapFromStringsToListsOfNonNegativeIntegers = Readonly<\n  Record<string, number>\n>;");
        let line = "export type AMapFromStringsToListsOfNonNegativeIntegersWithALongNameXXXXXXXXXXXXXXXXXXXXXXXXX = Readonly<Record<string, AMapFromStringsToListsOfNonNegativeIntegersWithALongName>>;";
        assert_eq!(
            statement(line),
            "export type AMapFromStringsToListsOfNonNegativeIntegersWithALongNameXXXXXXXXXXXXXXXXXXXXXXXXX =\n  Readonly<\n    Record<string, AMapFromStringsToListsOfNonNegativeIntegersWithALongName>\n  >;"
        );
    }

    #[test]
    fn an_array_of_a_union_that_does_not_hug_breaks_inside_its_parentheses() {
        // As Prettier 3.10.1 prints it; `Reference | null` hugs and never breaks.
        let line = "  readonly theInnermostListOfListsOfNullableStringsWithALongName: readonly (readonly (string | null)[])[];";
        assert_eq!(
            statement(line),
            "  readonly theInnermostListOfListsOfNullableStringsWithALongName: readonly (readonly (\n    string | null\n  )[])[];"
        );
        let line = "  readonly aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa: readonly (BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB | null)[];";
        assert_eq!(statement(line), line);
    }

    #[test]
    fn a_long_union_alias_moves_to_the_next_line_then_one_member_per_line() {
        let line = "export type JsonValue = null | boolean | number | string | JsonArray | JsonObject;";
        assert_eq!(statement(line), "export type JsonValue =\n  null | boolean | number | string | JsonArray | JsonObject;");
    }
}
