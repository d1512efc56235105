//! The Rust file exactly as stable rustfmt (1.9, `--edition 2021`, default
//! configuration) prints it, for the syntax this target emits.
//!
//! rustfmt is not a document printer: every node is rewritten into a string
//! for a [`Shape`] (the columns left on the current line, and the block
//! indentation of the lines after it), and a node that does not fit tries
//! its next layout. This module follows that algorithm rule for rule (the
//! list tactics, the overflow of a call's last argument, chains, closures,
//! match arms, the right-hand side of `=`, the small heuristics), so that
//! its output is what rustfmt prints for the same syntax tree. Syntax it
//! does not know is refused with an error, never printed approximately.
//!
//! It is not built on the shared Wadler printer ([`crate::printer`]):
//! rustfmt's choices are not "flat if the group fits" but width budgets per
//! construct (`fn_call_width`, `chain_width`, `struct_lit_width`, …), a
//! retry on the next line compared by line counts (`prefer_next_line`), and
//! the first line of an overflowed last argument measured with the others;
//! porting those rules as rustfmt states them is what keeps the output
//! byte-exact for any schema.
//!
//! Where rustfmt cannot fit an item or a statement (a string literal wider
//! than the line) it leaves the source text as it is: the text is then
//! this printer's, written with no width limit ([`unlimited`]).

mod exprs;
mod items;

use std::cell::{Cell, RefCell};

/// rustfmt's `max_width`.
pub const MAX_WIDTH: usize = 100;

thread_local! {
    /// The width in force: [`MAX_WIDTH`], or unlimited while an item or
    /// statement rustfmt would leave as written is written out.
    static WIDTH: Cell<usize> = const { Cell::new(MAX_WIDTH) };
}

fn max_width() -> usize {
    WIDTH.with(Cell::get)
}

/// Runs `f` with no width limit (what rustfmt cannot fit it leaves as
/// written: the text is then ours, and written without breaking lines
/// the heuristics do not break).
fn unlimited<T>(f: impl FnOnce() -> T) -> T {
    let old = WIDTH.with(|w| w.replace(UNLIMITED));
    let result = f();
    WIDTH.with(|w| w.set(old));
    result
}
const TAB: usize = 4;
/// A width no line reaches: for what rustfmt leaves as written.
const UNLIMITED: usize = 1 << 20;
/// `use_small_heuristics = "Default"` at `max_width = 100`.
const FN_CALL_WIDTH: usize = 60;
const ATTR_FN_LIKE_WIDTH: usize = 70;
const STRUCT_LIT_WIDTH: usize = 18;
const ARRAY_WIDTH: usize = 60;
const CHAIN_WIDTH: usize = 60;
const SINGLE_LINE_IF_ELSE_MAX_WIDTH: usize = 50;
const SINGLE_LINE_LET_ELSE_MAX_WIDTH: usize = 50;
const SHORT_ARRAY_ELEMENT_WIDTH_THRESHOLD: usize = 10;

/// Prints `file` as rustfmt would; an error names syntax the printer does
/// not support.
pub fn print_file(file: &syn::File) -> Result<String, String> {
    let cx = Cx::default();
    let text = cx.items(&file.items, Indent::block(0));
    if let Some(problem) = cx.unsupported.borrow_mut().take() {
        return Err(problem);
    }
    Ok(text)
}

/// The state of one printing: the first unsupported construct met, and
/// rustfmt's context flags.
#[derive(Default)]
struct Cx {
    unsupported: RefCell<Option<String>>,
    inside_macro: Cell<bool>,
    force_one_line_chain: Cell<bool>,
}

impl Cx {
    /// Records syntax the printer cannot print (the first one is reported).
    fn unsupported<T>(&self, what: impl std::fmt::Display) -> Option<T> {
        let mut slot = self.unsupported.borrow_mut();
        if slot.is_none() {
            *slot = Some(format!("the Rust layout does not support {what}"));
        }
        None
    }

    fn failed(&self) -> bool {
        self.unsupported.borrow().is_some()
    }
}

/// rustfmt's `Indent`: a block indentation and a visual alignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Indent {
    block: usize,
    align: usize,
}

impl Indent {
    fn block(block: usize) -> Indent {
        Indent { block, align: 0 }
    }

    fn width(self) -> usize {
        self.block + self.align
    }

    fn block_indent(self) -> Indent {
        Indent { block: self.block + TAB, align: self.align }
    }

    fn to_str(self) -> String {
        " ".repeat(self.width())
    }

    fn newline(self) -> String {
        format!("\n{}", self.to_str())
    }
}

/// rustfmt's `Shape`: `width` columns left on the first line, `indent` for
/// the lines after it, `offset` columns already used past the indent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Shape {
    width: usize,
    indent: Indent,
    offset: usize,
}

impl Shape {
    fn indented(indent: Indent) -> Shape {
        Shape { width: max_width().saturating_sub(indent.width()), indent, offset: indent.align }
    }

    fn legacy(width: usize, indent: Indent) -> Shape {
        Shape { width, indent, offset: indent.align }
    }

    fn with_max_width(self) -> Shape {
        Shape { width: max_width().saturating_sub(self.indent.width()), ..self }
    }

    fn visual_indent(self, delta: usize) -> Shape {
        let align = self.offset + delta;
        Shape { width: self.width, indent: Indent { block: self.indent.block, align }, offset: align }
    }

    fn block_indent(self, delta: usize) -> Shape {
        if self.indent.align == 0 {
            Shape { width: self.width, indent: Indent::block(self.indent.block + delta), offset: 0 }
        } else {
            Shape {
                width: self.width,
                indent: Indent { block: self.indent.block, align: self.indent.align + delta },
                offset: self.indent.align + delta,
            }
        }
    }

    fn block(self) -> Shape {
        Shape { indent: Indent::block(self.indent.block), ..self }
    }

    fn sub_width(self, delta: usize) -> Option<Shape> {
        self.width.checked_sub(delta).map(|width| Shape { width, ..self })
    }

    fn offset_left(self, delta: usize) -> Option<Shape> {
        Shape { offset: self.offset + delta, ..self }.sub_width(delta)
    }

    fn shrink_left(self, delta: usize) -> Option<Shape> {
        self.width.checked_sub(delta).map(|width| Shape {
            width,
            indent: Indent { block: self.indent.block, align: self.indent.align + delta },
            offset: self.offset + delta,
        })
    }

    fn used_width(self) -> usize {
        self.indent.block + self.offset
    }

    fn rhs_overhead(self) -> usize {
        max_width().saturating_sub(self.used_width() + self.width)
    }

    fn newline_with_offset(self) -> String {
        format!("\n{}", " ".repeat(self.indent.block + self.offset))
    }
}

fn first_line_width(s: &str) -> usize {
    s.lines().next().map_or(0, |l| l.chars().count())
}

fn last_line_width(s: &str) -> usize {
    s.rsplit('\n').next().map_or(0, |l| l.chars().count())
}

fn width(s: &str) -> usize {
    s.chars().count()
}

/// rustfmt's `filtered_str_fits`: the first line within the shape, the
/// others within the maximum width, the last leaving room where the shape ends.
fn fits(s: &str, shape: Shape) -> bool {
    if first_line_width(s) > shape.width {
        return false;
    }
    if !s.contains('\n') {
        return true;
    }
    if s.lines().skip(1).any(|l| width(l) > max_width()) {
        return false;
    }
    last_line_width(s) <= shape.used_width() + shape.width
}

fn wrap_str(s: String, shape: Shape) -> Option<String> {
    fits(&s, shape).then_some(s)
}

/// rustfmt's `last_line_extendable`: the last line is only closing delimiters.
fn last_line_extendable(s: &str) -> bool {
    if s.ends_with("\"#") {
        return true;
    }
    for c in s.chars().rev() {
        match c {
            '(' | ')' | ']' | '}' | '?' | '>' => continue,
            '\n' => break,
            c if c.is_whitespace() => continue,
            _ => return false,
        }
    }
    true
}

/// rustfmt's `DefinitiveListTactic`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tactic {
    Horizontal,
    Vertical,
    Mixed,
    SpecialMacro(usize),
}

/// rustfmt's `definitive_tactic` (items already rewritten; `None` counts
/// as empty, as rustfmt's unrewritten items do).
fn definitive_tactic(items: &[Option<String>], limit: usize, mixed: bool) -> Tactic {
    let total: usize = items.iter().map(|i| i.as_deref().map_or(0, width)).sum::<usize>() + 2 * items.len().saturating_sub(1);
    let multiline = items.iter().any(|i| i.as_deref().is_some_and(|s| s.contains('\n')));
    if total <= limit && !multiline {
        Tactic::Horizontal
    } else if mixed {
        Tactic::Mixed
    } else {
        Tactic::Vertical
    }
}

/// rustfmt's `SeparatorTactic`: when a list ends with a comma.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Trailing {
    Always,
    Vertical,
    Never,
}

/// rustfmt's `write_list` for comma-separated items without comments.
fn write_list(items: &[Option<String>], tactic: Tactic, shape: Shape, trailing: Trailing) -> Option<String> {
    let items: Vec<&str> = items.iter().map(|i| i.as_deref()).collect::<Option<Vec<_>>>()?;
    let indent = " ".repeat(shape.indent.width());
    let mut out = String::new();
    let mut line_len = 0usize;
    let last = items.len().saturating_sub(1);
    let trailing_comma = match trailing {
        Trailing::Always => true,
        Trailing::Vertical => tactic == Tactic::Vertical,
        Trailing::Never => false,
    };
    for (i, item) in items.iter().enumerate() {
        let mut separate = i < last || trailing_comma;
        match tactic {
            Tactic::Horizontal => {
                if i > 0 {
                    out.push(' ');
                }
            }
            Tactic::SpecialMacro(before) => {
                if i == 0 {
                } else if i < before {
                    out.push(' ');
                } else if i <= before + 1 {
                    out.push('\n');
                    out.push_str(&indent);
                } else {
                    out.push(' ');
                }
            }
            Tactic::Vertical => {
                if i > 0 {
                    out.push('\n');
                    out.push_str(&indent);
                }
            }
            Tactic::Mixed => {
                let total = width(item) + usize::from(separate);
                if line_len > 0 && line_len + 1 + total > shape.width {
                    out.push('\n');
                    out.push_str(&indent);
                    line_len = 0;
                } else if line_len > 0 {
                    out.push(' ');
                    line_len += 1;
                }
                if i == last {
                    separate = trailing != Trailing::Never;
                }
                line_len += total;
            }
        }
        out.push_str(item);
        if separate {
            out.push(',');
        }
    }
    Some(out)
}

/// What a list item is, for the overflow rules of `overflow.rs`.
#[derive(Clone, Copy)]
enum Item<'a> {
    Expr(&'a syn::Expr),
    Type(&'a syn::Type),
    /// A nested attribute meta item, already parsed.
    Meta(&'a Meta),
    /// A tuple struct's or variant's field.
    Field(&'a syn::Field),
    /// A function's generic parameter.
    GenericParam(&'a syn::GenericParam),
    /// A type's generic argument.
    GenericArg(&'a syn::GenericArgument),
}

/// An attribute's meta item, parsed from its tokens the way rustfmt's
/// parser reads it.
#[derive(Clone)]
enum Meta {
    Path(String),
    List(String, Vec<Meta>),
    NameValue(String, syn::Lit),
    Lit(syn::Lit),
}

impl Item<'_> {
    fn rewrite(&self, cx: &Cx, shape: Shape) -> Option<String> {
        match self {
            Item::Expr(e) => cx.expr(e, shape),
            Item::Type(t) => cx.ty(t, shape),
            Item::Meta(m) => cx.meta(m, shape),
            Item::Field(f) => {
                if !f.attrs.is_empty() {
                    return cx.unsupported("attributes on tuple fields");
                }
                cx.field(f, shape)
            }
            Item::GenericParam(p) => wrap_str(cx.generic_param(p)?, shape),
            Item::GenericArg(g) => cx.generic_arg(g, shape),
        }
    }

    fn can_be_overflowed(&self, len: usize) -> bool {
        match self {
            Item::Expr(e) => exprs::can_be_overflowed_expr(e, len),
            Item::Type(t) => can_be_overflowed_type(t, len),
            Item::Meta(m) => len == 1 && !matches!(m, Meta::Lit(_)),
            Item::GenericArg(syn::GenericArgument::Type(t)) => can_be_overflowed_type(t, len),
            Item::Field(_) | Item::GenericParam(_) | Item::GenericArg(_) => false,
        }
    }

    fn is_simple(&self) -> bool {
        match self {
            Item::Expr(e) => exprs::is_simple_expr(e),
            Item::Meta(m) => matches!(m, Meta::Path(_) | Meta::Lit(_)),
            _ => false,
        }
    }

    fn is_nested_call(&self) -> bool {
        match self {
            Item::Expr(e) => matches!(e, syn::Expr::Call(_) | syn::Expr::MethodCall(_) | syn::Expr::Macro(_)),
            _ => false,
        }
    }
}

fn can_be_overflowed_type(t: &syn::Type, len: usize) -> bool {
    match t {
        syn::Type::Tuple(_) => len == 1,
        syn::Type::Reference(r) => can_be_overflowed_type(&r.elem, len),
        _ => false,
    }
}

/// rustfmt's `overflow::Context`: a callee (or attribute name) and its
/// delimited items.
struct Overflow<'a> {
    items: Vec<Item<'a>>,
    ident: String,
    prefix: &'static str,
    suffix: &'static str,
    one_line_shape: Shape,
    nested_shape: Shape,
    item_max_width: usize,
    one_line_width: usize,
    /// The trailing-comma rule (a macro's list never gets one it did not have).
    trailing: Trailing,
    /// Macro calls that rustfmt formats like `format!` (first argument special).
    special_macro: Option<usize>,
}

impl Cx {
    #[allow(clippy::too_many_arguments)]
    fn overflow(
        &self,
        items: Vec<Item<'_>>,
        ident: &str,
        shape: Shape,
        delims: (&'static str, &'static str),
        item_max_width: usize,
        trailing: Trailing,
        special_macro: Option<usize>,
    ) -> Option<String> {
        let used_width = if ident.contains('\n') { last_line_width(ident).saturating_sub(shape.used_width()) } else { width(ident) };
        let one_line_width = shape.width.saturating_sub(used_width + 2);
        let one_line_shape = shape
            .offset_left(last_line_width(ident) + 1)
            .and_then(|s| s.sub_width(1))
            .unwrap_or(Shape { width: 0, ..shape });
        let nested = shape.block().block_indent(TAB).with_max_width();
        let nested_shape = Shape { width: nested.width.saturating_sub(1), ..nested };
        let o = Overflow {
            items,
            ident: ident.to_string(),
            prefix: delims.0,
            suffix: delims.1,
            one_line_shape,
            nested_shape,
            item_max_width,
            one_line_width,
            trailing,
            special_macro,
        };
        let (extendable, items_str) = self.overflow_items(&o)?;
        Some(self.wrap_items(&o, &items_str, shape, extendable))
    }

    fn overflow_items(&self, o: &Overflow<'_>) -> Option<(bool, String)> {
        let mut list: Vec<Option<String>> = o.items.iter().map(|i| i.rewrite(self, o.nested_shape)).collect();
        if self.failed() {
            return None;
        }
        let tactic = self.try_overflow_last_item(o, &mut list);
        let items_str = write_list(&list, tactic, o.nested_shape, o.trailing)?;
        Some((tactic == Tactic::Horizontal, items_str))
    }

    fn try_overflow_last_item(&self, o: &Overflow<'_>, list: &mut [Option<String>]) -> Tactic {
        let n = o.items.len();
        let combine_arg_with_callee = n == 1 && matches!(o.items[0], Item::Expr(_)) && width(&o.ident) < TAB;
        let overflow_last = combine_arg_with_callee || o.items.last().is_some_and(|i| i.can_be_overflowed(n));
        // The last item as first rewritten (at the nested shape, in this
        // context): where rustfmt rewrites it again below, the text is the
        // same, and reusing it keeps nested calls from being laid out again
        // at every level.
        let rewritten_last = list.last().cloned().flatten();
        let placeholder = if overflow_last {
            let old = self.force_one_line_chain.get();
            if let Some(Item::Expr(e)) = o.items.last() {
                if !combine_arg_with_callee && matches!(e, syn::Expr::MethodCall(_)) {
                    self.force_one_line_chain.set(true);
                }
            }
            let result = self.last_item_shape(o, list).and_then(|shape| {
                let rewrite = self.rewrite_last_item_with_overflow(o, shape)?;
                list[n - 1] = Some(rewrite.split('\n').next().unwrap_or_default().to_string());
                Some(rewrite)
            });
            self.force_one_line_chain.set(old);
            result
        } else {
            None
        };
        let mut tactic = definitive_tactic(list, o.item_max_width.min(o.one_line_width), false);
        match (overflow_last, tactic, placeholder) {
            (true, Tactic::Horizontal, Some(overflowed)) if n == 1 => {
                if overflowed.matches('\n').count() == 1 {
                    if rewritten_last.as_deref().is_some_and(|s| !s.contains('\n')) {
                        list[n - 1] = rewritten_last;
                    } else {
                        list[n - 1] = Some(overflowed);
                    }
                } else {
                    list[n - 1] = Some(overflowed);
                }
            }
            (true, Tactic::Horizontal, Some(overflowed)) => list[n - 1] = Some(overflowed),
            _ if n > 0 => {
                list[n - 1] = rewritten_last;
                if n == 1
                    && o.one_line_width != 0
                    && list[0].as_deref().is_some_and(|s| !s.contains('\n') && width(s) <= o.one_line_width)
                {
                    tactic = Tactic::Horizontal;
                } else {
                    tactic = definitive_tactic(list, o.item_max_width.min(o.one_line_width), false);
                    if tactic == Tactic::Vertical {
                        if let Some(before) = o.special_macro {
                            let all_simple = n > before && o.items[..before].iter().all(Item::is_simple) && o.items[before + 1..].iter().all(Item::is_simple);
                            if all_simple
                                && definitive_tactic(&list[..before], o.nested_shape.width, false) == Tactic::Horizontal
                                && definitive_tactic(&list[before + 1..], o.nested_shape.width, false) == Tactic::Horizontal
                            {
                                tactic = Tactic::SpecialMacro(before);
                            }
                        } else if o.items.iter().all(Item::is_simple)
                            && list.iter().all(|i| i.as_deref().map_or(0, width) <= SHORT_ARRAY_ELEMENT_WIDTH_THRESHOLD)
                        {
                            tactic = Tactic::Mixed;
                        }
                    }
                }
            }
            _ => {}
        }
        tactic
    }

    fn last_item_shape(&self, o: &Overflow<'_>, list: &[Option<String>]) -> Option<Shape> {
        if list.len() == 1 && !o.items[0].is_nested_call() {
            return Some(o.one_line_shape);
        }
        let offset: usize = list[..list.len() - 1].iter().map(|i| 2 + i.as_deref().map_or(0, |s| s.len())).sum();
        Shape { width: o.item_max_width.min(o.one_line_shape.width), ..o.one_line_shape }.offset_left(offset)
    }

    fn rewrite_last_item_with_overflow(&self, o: &Overflow<'_>, shape: Shape) -> Option<String> {
        let last = o.items.last()?;
        match last {
            Item::Expr(e) => match e {
                syn::Expr::Closure(_) => {
                    let closures = o.items.iter().filter(|i| matches!(i, Item::Expr(syn::Expr::Closure(_)))).count();
                    if closures > 1 {
                        None
                    } else {
                        self.rewrite_last_closure(e, shape)
                    }
                }
                syn::Expr::If(_) | syn::Expr::ForLoop(_) | syn::Expr::Loop(_) | syn::Expr::While(_) | syn::Expr::Match(_) => {
                    let multi = self.rewrite_cond(e, shape).is_some_and(|c| c.contains('\n'));
                    if multi {
                        None
                    } else {
                        self.expr(e, shape)
                    }
                }
                _ => self.expr(e, shape),
            },
            item => item.rewrite(self, shape),
        }
    }

    fn wrap_items(&self, o: &Overflow<'_>, items_str: &str, shape: Shape, extendable: bool) -> String {
        let shape = Shape { width: shape.width.saturating_sub(last_line_width(&o.ident)), ..shape };
        let extend_width = if items_str.is_empty() { 2 } else { first_line_width(items_str) + 1 };
        let fits_one_line = items_str.len() + 2 <= shape.width;
        let force_single_line =
            (self.inside_macro.get() && !items_str.contains('\n') && fits_one_line) || (extendable && extend_width <= shape.width);
        let mut result = format!("{}{}", o.ident, o.prefix);
        if force_single_line {
            result.push_str(items_str);
        } else {
            if !items_str.is_empty() {
                result.push_str(&o.nested_shape.indent.newline());
                result.push_str(items_str);
            }
            result.push_str(&shape.block().indent.newline());
        }
        result.push_str(o.suffix);
        result
    }
}

#[cfg(test)]
mod tests {
    use super::print_file;

    fn printed(code: &str) -> Result<String, String> {
        print_file(&syn::parse_str(code).expect("test code parses"))
    }

    #[test]
    fn a_closure_as_the_last_argument_hugs_and_its_body_breaks_inside() {
        let code = r#"fn f() -> R { let value: ::serde_json::Value = ::serde_json::from_str(&checked.text).map_err(|e| DecodeError::new(type_name, "$", strict::problem_from_serde(&e.to_string())))?; value }"#;
        let expected = concat!(
            "fn f() -> R {\n",
            "    let value: ::serde_json::Value = ::serde_json::from_str(&checked.text).map_err(|e| {\n",
            "        DecodeError::new(type_name, \"$\", strict::problem_from_serde(&e.to_string()))\n",
            "    })?;\n",
            "    value\n",
            "}\n",
        );
        assert_eq!(printed(code).as_deref(), Ok(expected));
    }

    #[test]
    fn derives_merge_and_break_one_per_line_with_a_trailing_comma_past_the_width() {
        let code = "#[derive(::serde::Deserialize, ::serde::Serialize, Clone, Copy, Debug, Eq, Hash)] #[derive(Ord, PartialEq, PartialOrd)] pub enum E { A }";
        let expected = concat!(
            "#[derive(\n",
            "    ::serde::Deserialize,\n    ::serde::Serialize,\n    Clone,\n    Copy,\n    Debug,\n    Eq,\n    Hash,\n",
            "    Ord,\n    PartialEq,\n    PartialOrd,\n",
            ")]\n",
            "pub enum E {\n    A,\n}\n",
        );
        assert_eq!(printed(code).as_deref(), Ok(expected));
        assert_eq!(printed("#[derive(Clone)] #[derive(Default)] struct S;").as_deref(), Ok("#[derive(Clone, Default)]\nstruct S;\n"));
    }

    #[test]
    fn an_impl_header_too_long_for_one_line_puts_for_and_the_brace_on_their_own_lines() {
        let code = "impl ::std::convert::From<::serde_json::Map<::std::string::String, ::serde_json::Value>> for McpObject { fn f(&self) {} }";
        let expected = concat!(
            "impl ::std::convert::From<::serde_json::Map<::std::string::String, ::serde_json::Value>>\n",
            "    for McpObject\n",
            "{\n",
            "    fn f(&self) {}\n",
            "}\n",
        );
        assert_eq!(printed(code).as_deref(), Ok(expected));
    }

    #[test]
    fn what_rustfmt_cannot_fit_is_written_on_one_line_as_rustfmt_leaves_it() {
        let long = "x".repeat(110);
        let code = format!("#[serde(alias(\"{long}\"))] struct S; fn f() {{ out.push_str(\"{long}\"); }}");
        let expected = format!("#[serde(alias(\"{long}\"))]\nstruct S;\nfn f() {{\n    out.push_str(\"{long}\");\n}}\n");
        assert_eq!(printed(&code), Ok(expected));
    }

    #[test]
    fn syntax_the_layout_does_not_know_is_refused_not_printed() {
        let err = printed("fn f() { loop { break; } }").expect_err("a loop is not supported");
        assert!(err.contains("does not support"), "{err}");
        assert!(printed("async fn f() {}").is_err());
    }
}
