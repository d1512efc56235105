//! Expressions, statements, blocks, patterns and types (rustfmt's `expr.rs`,
//! `chains.rs`, `closures.rs`, `matches.rs`, `stmt.rs`, `patterns.rs`,
//! `types.rs`).

use quote::ToTokens;
use syn::punctuated::Punctuated;
use syn::{Expr, Pat, Stmt, Type};

use super::*;

/// rustfmt's `ExprType`: a statement's expression may not be a one-line `if`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum ExprType {
    Statement,
    SubExpression,
}

pub(super) fn can_be_overflowed_expr(e: &Expr, len: usize) -> bool {
    match e {
        Expr::Match(_) => len == 1,
        Expr::If(_) | Expr::ForLoop(_) | Expr::Loop(_) | Expr::While(_) => false,
        Expr::Block(_) | Expr::Closure(_) => true,
        Expr::Array(_) | Expr::Struct(_) => len == 1,
        Expr::Macro(_) => len == 1,
        Expr::Call(_) | Expr::MethodCall(_) | Expr::Tuple(_) => len == 1,
        Expr::Reference(r) => can_be_overflowed_expr(&r.expr, len),
        Expr::Try(t) => can_be_overflowed_expr(&t.expr, len),
        Expr::Unary(u) => can_be_overflowed_expr(&u.expr, len),
        Expr::Cast(c) => can_be_overflowed_expr(&c.expr, len),
        _ => false,
    }
}

pub(super) fn is_simple_expr(e: &Expr) -> bool {
    match e {
        Expr::Lit(_) => true,
        Expr::Path(p) => p.qself.is_none() && p.path.segments.iter().all(|s| s.arguments.is_none()),
        Expr::Reference(r) => is_simple_expr(&r.expr),
        Expr::Unary(u) => is_simple_expr(&u.expr),
        Expr::Cast(c) => is_simple_expr(&c.expr),
        Expr::Field(f) => is_simple_expr(&f.base),
        Expr::Index(i) => is_simple_expr(&i.expr) && is_simple_expr(&i.index),
        Expr::Repeat(r) => is_simple_expr(&r.expr) && is_simple_expr(&r.len),
        _ => false,
    }
}

/// rustfmt's `is_block_expr`.
fn is_block_expr(e: &Expr, repr: &str) -> bool {
    match e {
        Expr::Macro(_)
        | Expr::Call(_)
        | Expr::MethodCall(_)
        | Expr::Array(_)
        | Expr::Struct(_)
        | Expr::While(_)
        | Expr::If(_)
        | Expr::Block(_)
        | Expr::Loop(_)
        | Expr::ForLoop(_)
        | Expr::Match(_) => repr.contains('\n'),
        Expr::Paren(p) => is_block_expr(&p.expr, repr),
        Expr::Binary(b) => is_block_expr(&b.right, repr),
        Expr::Index(i) => is_block_expr(&i.index, repr),
        Expr::Unary(u) => is_block_expr(&u.expr, repr),
        Expr::Try(t) => is_block_expr(&t.expr, repr),
        Expr::Closure(c) => is_block_expr(&c.body, repr),
        _ => false,
    }
}

/// A block of one expression statement without a semicolon.
fn simple_block_expr(block: &syn::Block) -> Option<&Expr> {
    match block.stmts.as_slice() {
        [Stmt::Expr(e, None)] => Some(e),
        _ => None,
    }
}

fn lit_text(lit: &syn::Lit) -> String {
    lit.to_token_stream().to_string()
}

impl Cx {
    pub(super) fn expr(&self, e: &Expr, shape: Shape) -> Option<String> {
        self.format_expr(e, ExprType::SubExpression, shape)
    }

    pub(super) fn format_expr(&self, e: &Expr, ty: ExprType, shape: Shape) -> Option<String> {
        if !attrs_of(e).is_empty() {
            return self.unsupported("attributes on expressions");
        }
        match e {
            Expr::Lit(l) => wrap_str(lit_text(&l.lit), shape),
            Expr::Path(p) => wrap_str(self.expr_path(p.qself.as_ref(), &p.path, shape)?, shape),
            Expr::Call(c) => {
                let callee = self.expr(&c.func, shape)?;
                let args: Vec<Item<'_>> = c.args.iter().map(Item::Expr).collect();
                self.overflow(args, &callee, shape, ("(", ")"), FN_CALL_WIDTH, Trailing::Vertical, None)
            }
            Expr::MethodCall(_) | Expr::Field(_) | Expr::Try(_) => self.chain(e, shape),
            Expr::Macro(m) => self.macro_call(&m.mac, shape),
            Expr::Closure(c) => self.closure(c, shape),
            Expr::Reference(r) => {
                let prefix = if r.mutability.is_some() { "&mut " } else { "&" };
                self.unary_prefix(prefix, &r.expr, shape)
            }
            Expr::Unary(u) => {
                let op = match u.op {
                    syn::UnOp::Deref(_) => "*",
                    syn::UnOp::Not(_) => "!",
                    syn::UnOp::Neg(_) => "-",
                    _ => return self.unsupported("this unary operator"),
                };
                self.unary_prefix(op, &u.expr, shape)
            }
            Expr::Return(r) => match &r.expr {
                Some(inner) => self.unary_prefix("return ", inner, shape),
                None => wrap_str("return".into(), shape),
            },
            Expr::Binary(_) => self.all_pairs(e, shape),
            Expr::Paren(p) => {
                let inner = self.expr(&p.expr, shape.offset_left(1)?.sub_width(1)?)?;
                Some(format!("({inner})"))
            }
            Expr::Tuple(t) => {
                let items: Vec<Item<'_>> = t.elems.iter().map(Item::Expr).collect();
                if items.len() == 1 {
                    return self.unsupported("one-element tuples");
                }
                self.overflow(items, "", shape, ("(", ")"), FN_CALL_WIDTH, Trailing::Vertical, None)
            }
            Expr::Array(a) => {
                let items: Vec<Item<'_>> = a.elems.iter().map(Item::Expr).collect();
                self.overflow(items, "", shape, ("[", "]"), ARRAY_WIDTH, Trailing::Vertical, None)
            }
            Expr::Struct(s) => self.struct_lit(s, shape),
            Expr::Block(b) => {
                if b.label.is_some() || !b.attrs.is_empty() {
                    return self.unsupported("labelled blocks");
                }
                self.block(&b.block, shape, false)
            }
            Expr::If(i) => self.if_expr(i, ty == ExprType::SubExpression, false, shape),
            Expr::Match(m) => self.match_expr(m, shape),
            Expr::Assign(a) => {
                let lhs = self.expr(&a.left, shape.sub_width(2)?)?;
                self.assign_rhs(format!("{lhs} ="), &a.right, shape)
            }
            _ => self.unsupported(format!("the expression `{}`", e.to_token_stream())),
        }
    }

    /// rustfmt's `rewrite_unary_prefix`.
    fn unary_prefix(&self, prefix: &str, e: &Expr, shape: Shape) -> Option<String> {
        let inner = self.expr(e, shape.offset_left(prefix.len())?)?;
        Some(format!("{prefix}{inner}"))
    }

    /// A path in expression position (turbofish generics).
    fn expr_path(&self, qself: Option<&syn::QSelf>, path: &syn::Path, shape: Shape) -> Option<String> {
        let mut out = String::new();
        let segments: Vec<&syn::PathSegment> = path.segments.iter().collect();
        let mut skip = 0;
        if let Some(q) = qself {
            let ty = self.ty(&q.ty, Shape::legacy(usize::MAX / 4, shape.indent))?;
            if q.position == 0 {
                out.push_str(&format!("<{ty}>"));
            } else {
                let trait_path: Vec<String> = segments[..q.position].iter().map(|s| self.segment(s, true)).collect::<Option<_>>()?;
                let lead = if path.leading_colon.is_some() { "::" } else { "" };
                out.push_str(&format!("<{ty} as {lead}{}>", trait_path.join("::")));
            }
            skip = q.position;
            out.push_str("::");
        } else if path.leading_colon.is_some() {
            out.push_str("::");
        }
        let rest: Vec<String> = segments[skip..].iter().map(|s| self.segment(s, true)).collect::<Option<_>>()?;
        out.push_str(&rest.join("::"));
        Some(out)
    }

    /// A path segment, flat (`turbofish`: expression paths write `::<`).
    pub(super) fn segment(&self, s: &syn::PathSegment, turbofish: bool) -> Option<String> {
        let ident = s.ident.to_string();
        match &s.arguments {
            syn::PathArguments::None => Some(ident),
            syn::PathArguments::AngleBracketed(a) => {
                let args: Vec<String> = a.args.iter().map(|g| self.generic_arg(g, Shape::legacy(usize::MAX / 4, Indent::block(0)))).collect::<Option<_>>()?;
                let sep = if turbofish { "::" } else { "" };
                Some(format!("{ident}{sep}<{}>", args.join(", ")))
            }
            syn::PathArguments::Parenthesized(_) => self.unsupported("parenthesized path arguments"),
        }
    }

    pub(super) fn generic_arg(&self, g: &syn::GenericArgument, shape: Shape) -> Option<String> {
        match g {
            syn::GenericArgument::Lifetime(l) => Some(l.to_string()),
            syn::GenericArgument::Type(t) => self.ty(t, shape),
            syn::GenericArgument::AssocType(a) if a.generics.is_none() => {
                let ty = self.ty(&a.ty, shape.offset_left(a.ident.to_string().len() + 3)?)?;
                Some(format!("{} = {ty}", a.ident))
            }
            // A const argument: a literal, or a block of one path (`{ usize::MAX }`).
            syn::GenericArgument::Const(syn::Expr::Lit(l)) => Some(l.lit.to_token_stream().to_string()),
            syn::GenericArgument::Const(syn::Expr::Block(b)) if b.block.stmts.len() == 1 => match &b.block.stmts[0] {
                syn::Stmt::Expr(syn::Expr::Path(p), None) if p.qself.is_none() => Some(format!("{{ {} }}", p.path.to_token_stream().to_string().replace(' ', ""))),
                _ => self.unsupported("this generic argument"),
            },
            _ => self.unsupported("this generic argument"),
        }
    }

    /// A type: flat when it fits, else the last segment's generics broken
    /// like a call's arguments (rustfmt's `rewrite_with_angle_brackets`).
    pub(super) fn ty(&self, t: &Type, shape: Shape) -> Option<String> {
        match t {
            Type::Path(p) => {
                if let Some(q) = &p.qself {
                    let _ = q;
                    return self.unsupported("qualified path types");
                }
                let flat = self.type_path_flat(&p.path)?;
                if width(&flat) <= shape.width {
                    return Some(flat);
                }
                let last = p.path.segments.last()?;
                let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
                    return None;
                };
                let mut prefix = String::new();
                if p.path.leading_colon.is_some() {
                    prefix.push_str("::");
                }
                for s in p.path.segments.iter().take(p.path.segments.len() - 1) {
                    prefix.push_str(&self.segment(s, false)?);
                    prefix.push_str("::");
                }
                prefix.push_str(&last.ident.to_string());
                let items: Vec<Item<'_>> = args.args.iter().map(Item::GenericArg).collect();
                let shape = shape.shrink_left(width(&prefix))?;
                let args = self.overflow(items, "", shape, ("<", ">"), max_width(), Trailing::Vertical, None)?;
                Some(format!("{prefix}{args}"))
            }
            Type::Reference(r) => {
                let mut prefix = "&".to_string();
                if let Some(l) = &r.lifetime {
                    prefix.push_str(&format!("{l} "));
                }
                if r.mutability.is_some() {
                    prefix.push_str("mut ");
                }
                let inner = self.ty(&r.elem, shape.offset_left(prefix.len())?)?;
                Some(format!("{prefix}{inner}"))
            }
            Type::Slice(s) => {
                let inner = self.ty(&s.elem, shape.offset_left(1)?.sub_width(1)?)?;
                Some(format!("[{inner}]"))
            }
            Type::Tuple(t) => {
                if t.elems.is_empty() {
                    return wrap_str("()".into(), shape);
                }
                let items: Vec<Item<'_>> = t.elems.iter().map(Item::Type).collect();
                self.overflow(items, "", shape, ("(", ")"), max_width(), Trailing::Vertical, None)
            }
            Type::Paren(p) => Some(format!("({})", self.ty(&p.elem, shape.offset_left(1)?.sub_width(1)?)?)),
            _ => self.unsupported(format!("the type `{}`", t.to_token_stream())),
        }
    }

    fn type_path_flat(&self, path: &syn::Path) -> Option<String> {
        let parts: Vec<String> = path.segments.iter().map(|s| self.segment(s, false)).collect::<Option<_>>()?;
        let lead = if path.leading_colon.is_some() { "::" } else { "" };
        Some(format!("{lead}{}", parts.join("::")))
    }

    /// A pattern, flat (rustfmt does not measure an identifier pattern
    /// against its shape, and this target's patterns are short).
    pub(super) fn pat(&self, p: &Pat, _shape: Shape) -> Option<String> {
        self.pat_flat(p)
    }

    fn pat_flat(&self, p: &Pat) -> Option<String> {
        Some(match p {
            Pat::Ident(i) => {
                if i.subpat.is_some() {
                    return self.unsupported("`@` patterns");
                }
                let mut s = String::new();
                if i.by_ref.is_some() {
                    s.push_str("ref ");
                }
                if i.mutability.is_some() {
                    s.push_str("mut ");
                }
                s.push_str(&i.ident.to_string());
                s
            }
            Pat::Path(p) => self.expr_path(p.qself.as_ref(), &p.path, Shape::legacy(usize::MAX / 4, Indent::block(0)))?,
            Pat::TupleStruct(t) => {
                let path = self.expr_path(t.qself.as_ref(), &t.path, Shape::legacy(usize::MAX / 4, Indent::block(0)))?;
                let elems: Vec<String> = t.elems.iter().map(|e| self.pat_flat(e)).collect::<Option<_>>()?;
                format!("{path}({})", elems.join(", "))
            }
            Pat::Tuple(t) => {
                let elems: Vec<String> = t.elems.iter().map(|e| self.pat_flat(e)).collect::<Option<_>>()?;
                format!("({})", elems.join(", "))
            }
            Pat::Wild(_) => "_".into(),
            Pat::Lit(l) => lit_text(&l.lit),
            Pat::Reference(r) => format!("&{}{}", if r.mutability.is_some() { "mut " } else { "" }, self.pat_flat(&r.pat)?),
            Pat::Type(t) => {
                let ty = self.ty(&t.ty, Shape::legacy(usize::MAX / 4, Indent::block(0)))?;
                format!("{}: {ty}", self.pat_flat(&t.pat)?)
            }
            Pat::Or(o) if o.leading_vert.is_none() => {
                let cases: Vec<String> = o.cases.iter().map(|c| self.pat_flat(c)).collect::<Option<_>>()?;
                cases.join(" | ")
            }
            _ => return self.unsupported(format!("the pattern `{}`", p.to_token_stream())),
        })
    }

    /// A macro call: its arguments formatted as a call's when they parse as
    /// comma-separated expressions (rustfmt's `rewrite_macro`).
    pub(super) fn macro_call(&self, mac: &syn::Macro, shape: Shape) -> Option<String> {
        let name = format!("{}!", self.type_path_flat(&mac.path)?);
        if !matches!(mac.delimiter, syn::MacroDelimiter::Paren(_)) {
            return self.unsupported(format!("the macro call `{name}` without parentheses"));
        }
        let parser = Punctuated::<Expr, syn::Token![,]>::parse_terminated;
        let Ok(args) = syn::parse::Parser::parse2(parser, mac.tokens.clone()) else {
            return self.unsupported(format!("the arguments of `{name}`"));
        };
        if args.trailing_punct() {
            return self.unsupported(format!("a trailing comma in `{name}`"));
        }
        let special = SPECIAL_CASE_MACROS.iter().find(|(m, _)| *m == name).map(|(_, n)| *n);
        let old = self.inside_macro.replace(true);
        let items: Vec<Item<'_>> = args.iter().map(Item::Expr).collect();
        let result = self.overflow(items, &name, shape, ("(", ")"), FN_CALL_WIDTH, Trailing::Never, special);
        self.inside_macro.set(old);
        result
    }

    /// rustfmt's `rewrite_all_pairs` for a binary expression.
    fn all_pairs(&self, e: &Expr, shape: Shape) -> Option<String> {
        let Expr::Binary(top) = e else { return None };
        let top_op = op_str(&top.op)?;
        let mut list: Vec<(&Expr, Option<String>)> = Vec::new();
        let mut seps_used: Vec<&str> = Vec::new();
        {
            // Recompute as rustfmt does: left spine only.
            let mut stack: Vec<&syn::ExprBinary> = Vec::new();
            let mut node = e;
            loop {
                match node {
                    Expr::Binary(b) if op_str(&b.op) == Some(top_op) => {
                        stack.push(b);
                        node = &b.left;
                    }
                    _ => {
                        let op_len = seps_used.last().map_or(0, |s: &&str| s.len());
                        let rw = if list.is_empty() {
                            self.expr(node, shape)
                        } else {
                            let rhs_offset = shape.rhs_overhead();
                            shape
                                .block_indent(TAB)
                                .with_max_width()
                                .sub_width(rhs_offset)
                                .and_then(|s| s.offset_left(op_len + 1))
                                .and_then(|s| self.expr(node, s))
                        };
                        list.push((node, rw));
                        match stack.pop() {
                            Some(b) => {
                                seps_used.push(op_str(&b.op).unwrap_or_default());
                                node = &b.right;
                            }
                            None => break,
                        }
                    }
                }
            }
        }
        self.pairs_one_line(&list, &seps_used, shape).or_else(|| self.pairs_multiline(&list, &seps_used, shape))
    }

    fn pairs_one_line(&self, list: &[(&Expr, Option<String>)], seps: &[&str], shape: Shape) -> Option<String> {
        let mut result = String::new();
        let base = shape.block();
        for ((_, rw), s) in list.iter().zip(seps) {
            let rw = rw.as_deref()?;
            if rw.contains('\n') || result.len() > shape.width {
                return None;
            }
            result.push_str(rw);
            result.push(' ');
            result.push_str(s);
            result.push(' ');
        }
        let prefix_len = result.len();
        let last = list.last()?.0;
        let cur = base.offset_left(last_line_width(&result))?;
        let last_rw = self.expr(last, cur)?;
        result.push_str(&last_rw);
        if first_line_width(&result) > shape.width {
            return None;
        }
        if result.contains('\n') && !last_rw.starts_with('{') && (last_rw.starts_with('(') || prefix_len > TAB) {
            return None;
        }
        wrap_str(result, shape)
    }

    fn pairs_multiline(&self, list: &[(&Expr, Option<String>)], seps: &[&str], shape: Shape) -> Option<String> {
        let rhs_offset = shape.rhs_overhead();
        let nested = shape.block_indent(TAB).with_max_width().sub_width(rhs_offset)?;
        let indent_str = nested.indent.newline();
        let mut result = list.first()?.1.clone()?;
        for ((e, rw), s) in list[1..].iter().zip(seps) {
            let offset = if result.contains('\n') { 0 } else { shape.used_width() };
            if last_line_width(&result) + offset <= nested.used_width() {
                let trimmed = result.rsplit('\n').next().map_or(0, |l| width(l.trim()));
                if let Some(line_shape) = shape.offset_left(s.len() + 2 + trimmed) {
                    if let Some(r) = self.expr(e, line_shape) {
                        result.push_str(&format!(" {s} {r}"));
                        continue;
                    }
                }
            }
            result.push_str(&indent_str);
            result.push_str(s);
            result.push(' ');
            result.push_str(rw.as_deref()?);
        }
        Some(result)
    }

    /// rustfmt's `rewrite_struct_lit`.
    fn struct_lit(&self, s: &syn::ExprStruct, shape: Shape) -> Option<String> {
        if s.rest.is_some() || s.dot2_token.is_some() {
            return self.unsupported("struct update syntax");
        }
        let path = self.expr_path(s.qself.as_ref(), &s.path, shape.sub_width(2)?)?;
        if s.fields.is_empty() {
            return Some(format!("{path} {{}}"));
        }
        let prefix_width = width(&path) + 3;
        let v_shape = {
            let b = shape.block_indent(TAB);
            Shape { width: max_width().saturating_sub(b.indent.width()), ..b }
        };
        let h_shape = shape.width.checked_sub(prefix_width + 2).map(|w| Shape::legacy(w.min(STRUCT_LIT_WIDTH), shape.indent));
        let one_line_width = h_shape.map_or(0, |s| s.width);
        let field_shape = v_shape.sub_width(1)?;
        let items: Vec<Option<String>> = s.fields.iter().map(|f| self.field_value(f, field_shape)).collect();
        if self.failed() {
            return None;
        }
        let tactic = match h_shape {
            Some(h) => definitive_tactic(&items, h.width, false),
            None => Tactic::Vertical,
        };
        let nested = if tactic == Tactic::Horizontal { h_shape? } else { v_shape };
        let trailing = if self.inside_macro.get() { Trailing::Never } else { Trailing::Vertical };
        let fields_str = write_list(&items, tactic, nested, trailing)?;
        let vertical = fields_str.contains('\n') || fields_str.len() > one_line_width;
        let body = if vertical {
            format!("{}{}{}", v_shape.indent.newline(), fields_str, shape.indent.newline())
        } else {
            format!(" {fields_str} ")
        };
        Some(format!("{path} {{{body}}}"))
    }

    /// rustfmt's `rewrite_field`.
    fn field_value(&self, f: &syn::FieldValue, shape: Shape) -> Option<String> {
        let name = match &f.member {
            syn::Member::Named(i) => i.to_string(),
            syn::Member::Unnamed(i) => i.index.to_string(),
        };
        if f.colon_token.is_none() {
            return wrap_str(name, shape);
        }
        let prefix = format!("{name}: ");
        if let Some(value) = shape.offset_left(prefix.len()).and_then(|s| self.expr(&f.expr, s)) {
            return Some(format!("{prefix}{value}"));
        }
        let nested = shape.block_indent(TAB).with_max_width();
        let value = self.expr(&f.expr, nested)?;
        Some(format!("{name}:{}{value}", nested.indent.newline()))
    }

    /// rustfmt's chains (block indent style).
    fn chain(&self, e: &Expr, shape: Shape) -> Option<String> {
        enum Kind<'a> {
            Method(&'a syn::ExprMethodCall),
            Field(&'a syn::Member),
        }
        struct Child<'a> {
            kind: Kind<'a>,
            tries: usize,
        }
        let mut rev: Vec<Child<'_>> = Vec::new();
        let mut tries = 0;
        let mut cur = e;
        loop {
            match cur {
                Expr::Try(t) => {
                    tries += 1;
                    cur = &t.expr;
                }
                Expr::MethodCall(m) => {
                    rev.push(Child { kind: Kind::Method(m), tries });
                    tries = 0;
                    cur = &m.receiver;
                }
                Expr::Field(f) => {
                    rev.push(Child { kind: Kind::Field(&f.member), tries });
                    tries = 0;
                    cur = &f.base;
                }
                _ => break,
            }
        }
        let parent = cur;
        let parent_tries = tries;
        let children: Vec<Child<'_>> = rev.into_iter().rev().collect();
        let child_count = children.len();
        let rewrite_child = |c: &Child<'_>, shape: Shape| -> Option<String> {
            let shape = shape.sub_width(c.tries)?;
            let text = match &c.kind {
                Kind::Method(m) => {
                    let mut callee = format!(".{}", m.method);
                    if let Some(t) = &m.turbofish {
                        let args: Vec<String> =
                            t.args.iter().map(|g| self.generic_arg(g, Shape::legacy(usize::MAX / 4, Indent::block(0)))).collect::<Option<_>>()?;
                        callee.push_str(&format!("::<{}>", args.join(", ")));
                    }
                    let args: Vec<Item<'_>> = m.args.iter().map(Item::Expr).collect();
                    self.overflow(args, &callee, shape, ("(", ")"), FN_CALL_WIDTH, Trailing::Vertical, None)?
                }
                Kind::Field(syn::Member::Named(i)) => format!(".{i}"),
                Kind::Field(syn::Member::Unnamed(i)) => format!(".{}", i.index),
            };
            Some(format!("{text}{}", "?".repeat(c.tries)))
        };
        // The parent.
        let parent_shape = shape.sub_width(parent_tries)?;
        let mut root = format!("{}{}", self.expr(parent, parent_shape)?, "?".repeat(parent_tries));
        if children.is_empty() {
            return wrap_str(root, shape);
        }
        let mut root_ends_with_block = is_block_expr(parent, &root);
        let tab_width = TAB.saturating_sub(shape.offset);
        let mut rest: &[Child<'_>] = &children;
        while root.len() <= tab_width && !root.contains('\n') {
            let Some(first) = rest.first() else { break };
            let Some(s) = shape.offset_left(root.len()) else { break };
            match rewrite_child(first, s) {
                Some(r) => root.push_str(&r),
                None => break,
            }
            root_ends_with_block = last_line_extendable(&root);
            rest = &rest[1..];
            if rest.is_empty() {
                break;
            }
        }
        if rest.is_empty() {
            return wrap_str(root, shape);
        }
        let child_shape = if root_ends_with_block { shape.block_indent(0) } else { shape.block_indent(TAB).with_max_width() };
        let mut rewrites = vec![root];
        for c in &rest[..rest.len() - 1] {
            rewrites.push(rewrite_child(c, child_shape)?);
        }
        // The last child.
        let last = rest.last()?;
        let extendable = last_line_extendable(&rewrites[0]);
        let almost_total =
            if extendable { last_line_width(&rewrites[0]) } else { rewrites.iter().map(|r| width(r)).sum() } + last.tries;
        let one_line_budget = if child_count == 1 { shape.width } else { shape.width.min(CHAIN_WIDTH) }.saturating_sub(almost_total);
        let all_in_one_line = rewrites.iter().all(|r| !r.contains('\n')) && one_line_budget > 0;
        let last_shape = if all_in_one_line {
            shape.sub_width(last.tries)?
        } else if extendable {
            child_shape.sub_width(last.tries)?
        } else {
            child_shape.sub_width(shape.rhs_overhead() + last.tries)?
        };
        let mut fits_single_line = false;
        let mut last_str = None;
        if all_in_one_line || extendable {
            if let Some(one_line_shape) = last_shape.offset_left(almost_total) {
                if let Some(rw) = rewrite_child(last, one_line_shape) {
                    let line_count = rw.lines().count();
                    let could_fit_single_line = first_line_width(&rw) <= one_line_budget;
                    if could_fit_single_line && line_count >= 5 {
                        last_str = Some(rw);
                        fits_single_line = all_in_one_line;
                    } else {
                        let last_shape = child_shape.sub_width(shape.rhs_overhead() + last.tries)?;
                        match rewrite_child(last, last_shape) {
                            Some(new_rw) if !could_fit_single_line => last_str = Some(new_rw),
                            Some(new_rw) if new_rw.lines().count() >= line_count => {
                                last_str = Some(rw);
                                fits_single_line = could_fit_single_line && all_in_one_line;
                            }
                            Some(new_rw) => last_str = Some(new_rw),
                            None => {
                                last_str = Some(rw);
                                fits_single_line = could_fit_single_line && all_in_one_line;
                            }
                        }
                    }
                }
            }
        }
        let last_str = match last_str {
            Some(s) => s,
            None => rewrite_child(last, last_shape)?,
        };
        rewrites.push(last_str);
        let connector = if fits_single_line {
            String::new()
        } else {
            if self.force_one_line_chain.get() {
                return None;
            }
            child_shape.newline_with_offset()
        };
        let mut result = rewrites[0].clone();
        for r in &rewrites[1..] {
            result.push_str(&connector);
            result.push_str(r);
        }
        wrap_str(result, shape)
    }

    /// rustfmt's `rewrite_closure_fn_decl`: `|params|` (and the offset after it).
    fn closure_prefix(&self, c: &syn::ExprClosure, shape: Shape) -> Option<(String, usize)> {
        if c.lifetimes.is_some() || c.constness.is_some() || c.movability.is_some() || c.asyncness.is_some() {
            return self.unsupported("this closure form");
        }
        if !matches!(c.output, syn::ReturnType::Default) {
            return self.unsupported("closures with a return type");
        }
        let capture = if c.capture.is_some() { "move " } else { "" };
        let nested = shape.shrink_left(capture.len())?.sub_width(4)?;
        let param_shape = nested.offset_left(1)?.visual_indent(0);
        let params: Vec<Option<String>> = c.inputs.iter().map(|p| self.pat(p, param_shape)).collect();
        if self.failed() {
            return None;
        }
        let tactic = definitive_tactic(&params, nested.width.saturating_sub(1), false);
        if tactic != Tactic::Horizontal {
            // rustfmt would break the parameters (`|a,` / `b|`), which no
            // layout it keeps for this target's closures does: no fit.
            return None;
        }
        let list = write_list(&params, Tactic::Horizontal, param_shape, Trailing::Never)?;
        let prefix = format!("{capture}|{list}|");
        let extra = last_line_width(&prefix) + 1;
        Some((prefix, extra))
    }

    /// rustfmt's `rewrite_closure`.
    fn closure(&self, c: &syn::ExprClosure, shape: Shape) -> Option<String> {
        let (prefix, extra) = self.closure_prefix(c, shape)?;
        let body_shape = shape.offset_left(extra)?;
        if let Expr::Block(b) = &*c.body {
            if b.block.stmts.is_empty() {
                return Some(format!("{prefix} {{}}"));
            }
            let inner = get_inner_expr(&c.body, &prefix);
            let without_block = if is_block_closure_forced(inner) {
                self.closure_with_block(inner, &prefix, shape)
            } else {
                self.closure_expr(inner, &prefix, body_shape)
            };
            without_block.or_else(|| Some(format!("{prefix} {}", self.expr(&c.body, body_shape)?)))
        } else {
            self.closure_expr(&c.body, &prefix, body_shape).or_else(|| self.closure_with_block(&c.body, &prefix, body_shape))
        }
    }

    fn closure_expr(&self, e: &Expr, prefix: &str, shape: Shape) -> Option<String> {
        fn allow_multi_line(e: &Expr) -> bool {
            match e {
                Expr::Match(_) | Expr::Block(_) | Expr::Loop(_) | Expr::Struct(_) => true,
                Expr::Reference(r) => allow_multi_line(&r.expr),
                Expr::Try(t) => allow_multi_line(&t.expr),
                Expr::Unary(u) => allow_multi_line(&u.expr),
                Expr::Cast(c) => allow_multi_line(&c.expr),
                _ => false,
            }
        }
        let veto_multiline = !allow_multi_line(e) && !self.inside_macro.get();
        let rw = self.expr(e, shape)?;
        if veto_multiline && rw.contains('\n') {
            return None;
        }
        Some(format!("{prefix} {rw}"))
    }

    fn closure_with_block(&self, e: &Expr, prefix: &str, shape: Shape) -> Option<String> {
        let veto = matches!(e, Expr::Call(_) | Expr::Binary(_) | Expr::Cast(_) | Expr::Assign(_) | Expr::Field(_) | Expr::Index(_) | Expr::Range(_) | Expr::Try(_))
            && !requires_semi(left_most_sub_expr(e));
        if veto {
            return None;
        }
        let block = self.block_of(&[BlockStmt::Expr(e)], shape)?;
        Some(format!("{prefix} {block}"))
    }

    /// rustfmt's `rewrite_last_closure`.
    pub(super) fn rewrite_last_closure(&self, e: &Expr, shape: Shape) -> Option<String> {
        let Expr::Closure(c) = e else { return None };
        let body: &Expr = match &*c.body {
            Expr::Block(b) if b.label.is_none() => simple_block_expr(&b.block).unwrap_or(&c.body),
            other => other,
        };
        let (prefix, extra) = self.closure_prefix(c, shape)?;
        let body_shape = shape.offset_left(extra)?;
        if is_block_closure_forced(body) {
            let with_block = self.closure_with_block(body, &prefix, body_shape)?;
            if with_block.lines().count() <= 7 {
                if let Some(single) = self.closure_expr(body, &prefix, shape) {
                    if !single.contains('\n') {
                        return Some(single);
                    }
                }
            }
            return Some(with_block);
        }
        let multi_cond = self.rewrite_cond(body, body_shape).is_some_and(|cond| cond.contains('\n') || cond.len() > body_shape.width);
        if multi_cond {
            return self.closure_with_block(body, &prefix, body_shape);
        }
        self.expr(e, shape)
    }

    /// rustfmt's `rewrite_cond`: the head of a control-flow expression.
    pub(super) fn rewrite_cond(&self, e: &Expr, shape: Shape) -> Option<String> {
        match e {
            Expr::Match(m) => {
                let cond_shape = shape.offset_left(6)?.sub_width(2)?;
                self.expr(&m.expr, cond_shape)
            }
            Expr::If(i) => self.if_cond(i, false, shape).map(|(s, _)| s),
            _ => None,
        }
    }

    /// A block: `{` statements `}` with the statements one indent deeper.
    pub(super) fn block(&self, block: &syn::Block, shape: Shape, _if_else: bool) -> Option<String> {
        let stmts: Vec<BlockStmt<'_>> = block.stmts.iter().map(BlockStmt::Stmt).collect();
        self.block_of(&stmts, shape)
    }

    pub(super) fn block_of(&self, stmts: &[BlockStmt<'_>], shape: Shape) -> Option<String> {
        if stmts.is_empty() {
            return Some("{}".into());
        }
        let inner = shape.indent.block_indent();
        let mut out = String::from("{");
        for s in stmts {
            out.push('\n');
            out.push_str(&inner.to_str());
            out.push_str(&self.stmt(s, inner)?);
        }
        out.push_str(&shape.indent.newline());
        out.push('}');
        Some(out)
    }

    /// One statement at `indent` (never fails: what rustfmt cannot format
    /// it leaves as written, which is the flat text).
    pub(super) fn stmt(&self, s: &BlockStmt<'_>, indent: Indent) -> Option<String> {
        if let BlockStmt::Stmt(Stmt::Item(item)) = s {
            return self.item(item, indent);
        }
        let rewritten = self.stmt_in(s, Shape::indented(indent));
        if self.failed() {
            return None;
        }
        match rewritten {
            Some(r) => Some(r),
            // rustfmt leaves a statement it cannot fit as written: written flat.
            None => match unlimited(|| self.stmt_in(s, Shape::indented(indent))) {
                Some(r) => Some(r),
                None => self.unsupported(format!("the statement `{}`", s.to_tokens_string())),
            },
        }
    }

    fn stmt_in(&self, s: &BlockStmt<'_>, shape: Shape) -> Option<String> {
        let ty = ExprType::Statement;
        match s {
            BlockStmt::Expr(e) => self.format_expr(e, ty, shape),
            BlockStmt::Stmt(Stmt::Expr(e, semi)) => {
                if semi.is_some() {
                    shape.sub_width(1).and_then(|sh| self.format_expr(e, ty, sh)).map(|r| format!("{r};"))
                } else {
                    self.format_expr(e, ty, shape)
                }
            }
            BlockStmt::Stmt(Stmt::Local(l)) => self.local(l, shape),
            BlockStmt::Stmt(Stmt::Item(_)) => None,
            BlockStmt::Stmt(Stmt::Macro(m)) => {
                if !m.attrs.is_empty() {
                    return self.unsupported("attributes on statements");
                }
                let semi = if m.semi_token.is_some() { ";" } else { "" };
                shape.sub_width(semi.len()).and_then(|sh| self.macro_call(&m.mac, sh)).map(|r| format!("{r}{semi}"))
            }
        }
    }

    /// rustfmt's `Local::rewrite`.
    fn local(&self, l: &syn::Local, shape: Shape) -> Option<String> {
        if !l.attrs.is_empty() {
            return self.unsupported("attributes on `let`");
        }
        let pat_shape = shape.offset_left(4)?.sub_width(1)?;
        let (pat, ty) = match &l.pat {
            Pat::Type(t) => (&*t.pat, Some(&*t.ty)),
            p => (p, None),
        };
        let pat_str = self.pat(pat, pat_shape)?;
        let mut result = format!("let {pat_str}");
        if let Some(ty) = ty {
            let ty_shape = shape.offset_left(last_line_width(&result) + 2)?.sub_width(2)?;
            let t = self.ty(ty, ty_shape)?;
            result.push_str(": ");
            result.push_str(&t);
        }
        let Some(init) = &l.init else {
            result.push(';');
            return Some(result);
        };
        result.push_str(" =");
        let nested_shape = shape.sub_width(1)?;
        result = self.assign_rhs(result, &init.expr, nested_shape)?;
        if let Some((_, diverge)) = &init.diverge {
            let Expr::Block(b) = &**diverge else {
                return self.unsupported("a `let … else` without a block");
            };
            let force_newline_else = !same_line_else_kw_and_brace(&result, nested_shape);
            if force_newline_else {
                result.push_str(&shape.indent.newline());
                result.push_str("else ");
            } else {
                result.push_str(" else ");
            }
            let max_width = shape.width.min(SINGLE_LINE_LET_ELSE_MAX_WIDTH);
            let available = max_width.saturating_sub(result.len());
            let allow_single_line = !force_newline_else && available > 0 && !result.contains('\n') && b.block.stmts.len() <= 1;
            let mut else_block = self.let_else_block(&b.block, allow_single_line, shape)?;
            if allow_single_line && !else_block.contains('\n') && else_block.len() + 1 > available {
                else_block = self.let_else_block(&b.block, false, shape)?;
            }
            result.push_str(&else_block);
        }
        result.push(';');
        Some(result)
    }

    fn let_else_block(&self, block: &syn::Block, allow_single_line: bool, shape: Shape) -> Option<String> {
        if allow_single_line {
            if let [stmt] = block.stmts.as_slice() {
                if let Some(s) = self.stmt(&BlockStmt::Stmt(stmt), Indent::block(0)) {
                    if !s.contains('\n') {
                        return Some(format!("{{ {s} }}"));
                    }
                }
            }
        }
        self.block(&block.clone(), shape, false)
    }

    /// rustfmt's `rewrite_assign_rhs` with the default tactics: `lhs` then
    /// ` rhs`, or the right-hand side on the next line, one indent deeper.
    pub(super) fn assign_rhs(&self, lhs: String, e: &Expr, shape: Shape) -> Option<String> {
        self.assign_rhs_with(lhs, shape, |s| self.expr(e, s))
    }

    /// rustfmt's `ControlFlow::rewrite_cond` for `if`: the head `if cond {`
    /// (or the whole one-line `if … else …`, then with width 0).
    fn if_cond(&self, i: &syn::ExprIf, nested_if: bool, shape: Shape) -> Option<(String, usize)> {
        self.if_cond_full(i, false, nested_if, shape)
    }

    fn if_cond_full(&self, i: &syn::ExprIf, allow_single_line: bool, nested_if: bool, shape: Shape) -> Option<(String, usize)> {
        let fresh = Shape { width: max_width().saturating_sub(shape.used_width()), ..shape };
        let constr = if nested_if { fresh.offset_left(7)? } else { fresh };
        let offset = 3;
        let cond_shape = constr.offset_left(offset)?;
        let pat_expr = match &*i.cond {
            Expr::Let(l) => {
                let pat_shape = cond_shape.offset_left(4)?.sub_width(2)?;
                let pat = self.pat(&l.pat, pat_shape)?;
                self.assign_rhs(format!("let {pat} ="), &l.expr, cond_shape)?
            }
            cond => self.expr(cond, cond_shape)?,
        };
        let one_line_budget = max_width().saturating_sub(constr.used_width() + offset + 2);
        let force_newline_brace = (pat_expr.contains('\n') || pat_expr.len() > one_line_budget)
            && (!last_line_extendable(&pat_expr) || last_line_offsetted(shape.used_width(), &pat_expr));
        if allow_single_line {
            if let Some(s) = self.if_single_line(i, &pat_expr, shape.width) {
                if s.len() <= SINGLE_LINE_IF_ELSE_MAX_WIDTH {
                    return Some((s, 0));
                }
            }
        }
        let block_sep = if force_newline_brace { shape.indent.newline() } else { " ".into() };
        let used = if pat_expr.contains('\n') { last_line_width(&pat_expr) } else { 2 + pat_expr.len() + 2 };
        Some((format!("if {pat_expr}{block_sep}"), used))
    }

    fn if_single_line(&self, i: &syn::ExprIf, pat_expr: &str, width: usize) -> Option<String> {
        let (_, else_expr) = i.else_branch.as_ref()?;
        let Expr::Block(else_block) = &**else_expr else { return None };
        let if_e = simple_block_expr(&i.then_branch)?;
        let else_e = simple_block_expr(&else_block.block)?;
        let fixed = 2 + "  {  } else {  }".len();
        let new_width = width.checked_sub(pat_expr.len() + fixed)?;
        let if_str = self.format_expr(if_e, ExprType::Statement, Shape::legacy(new_width, Indent::block(0)))?;
        let new_width = new_width.checked_sub(if_str.len())?;
        let else_str = self.format_expr(else_e, ExprType::Statement, Shape::legacy(new_width, Indent::block(0)))?;
        if if_str.contains('\n') || else_str.contains('\n') {
            return None;
        }
        let result = format!("if {pat_expr} {{ {if_str} }} else {{ {else_str} }}");
        (result.len() <= width).then_some(result)
    }

    /// rustfmt's `ControlFlow::rewrite` for `if`.
    fn if_expr(&self, i: &syn::ExprIf, allow_single_line: bool, nested_if: bool, shape: Shape) -> Option<String> {
        let (cond, used) = self.if_cond_full(i, allow_single_line, nested_if, shape)?;
        if used == 0 {
            return Some(cond);
        }
        let block_shape = Shape { width: shape.width.saturating_sub(used).min(1), ..shape };
        let block = self.block(&i.then_branch, block_shape, true)?;
        let mut result = format!("{cond}{block}");
        if let Some((_, else_expr)) = &i.else_branch {
            let shape = Shape::indented(shape.indent);
            let rewrite = match &**else_expr {
                Expr::If(next) => self.if_expr(next, false, true, shape)?,
                other => self.format_expr(other, ExprType::Statement, Shape { width: shape.width.min(1), ..shape })?,
            };
            result.push_str(" else ");
            result.push_str(&rewrite);
        }
        Some(result)
    }

    /// rustfmt's `rewrite_match`.
    fn match_expr(&self, m: &syn::ExprMatch, shape: Shape) -> Option<String> {
        let cond_shape = shape.offset_left(6)?.sub_width(2)?;
        let cond = self.expr(&m.expr, cond_shape)?;
        let block_sep = if last_line_extendable(&cond) {
            " ".to_string()
        } else if cond.contains('\n') || cond.len() + 2 > cond_shape.width {
            shape.indent.newline()
        } else {
            " ".to_string()
        };
        if m.arms.is_empty() {
            return Some(format!("match {cond}{block_sep}{{}}"));
        }
        let arm_shape = shape.block_indent(TAB).with_max_width();
        let nested = shape.indent.block_indent();
        let mut arms = Vec::new();
        for (n, arm) in m.arms.iter().enumerate() {
            arms.push(self.arm(arm, arm_shape, n + 1 == m.arms.len())?);
        }
        Some(format!("match {cond}{block_sep}{{\n{}{}\n{}}}", nested.to_str(), arms.join(&nested.newline()), shape.indent.to_str()))
    }

    fn arm(&self, arm: &syn::Arm, shape: Shape, _is_last: bool) -> Option<String> {
        if !arm.attrs.is_empty() || arm.guard.is_some() {
            return self.unsupported("match arms with attributes or guards");
        }
        let pat_shape = shape.sub_width(5)?;
        let pats = self.pat(&arm.pat, pat_shape)?;
        self.match_body(&arm.body, &pats, shape)
    }

    /// rustfmt's `rewrite_match_body`.
    fn match_body(&self, body: &Expr, pats: &str, shape: Shape) -> Option<String> {
        let arrow_shape = shape.offset_left(width(pats) + 4);
        let (extend, body) = flatten_arm_body(body);
        let is_block = matches!(body, Expr::Block(_));
        let is_empty_block = matches!(body, Expr::Block(b) if b.block.stmts.is_empty());
        let comma = if is_block { "" } else { "," };
        let next_line_indent = if !is_block || is_empty_block { shape.indent.block_indent() } else { shape.indent };
        let combine_orig = |s: &str| format!("{pats} => {s}{comma}");
        let combine_next = |s: &str| {
            if is_block {
                return format!("{pats} =>{}{s}{comma}", next_line_indent.newline());
            }
            format!("{pats} => {{{}{s}{}}}", next_line_indent.newline(), shape.indent.newline())
        };
        let orig_shape = arrow_shape.and_then(|s| s.sub_width(comma.len()));
        let orig = match orig_shape {
            Some(bs) => {
                let r = self.format_expr(body, ExprType::Statement, bs);
                match r {
                    Some(ref s) if is_block || (!s.contains('\n') && width(s) <= bs.width) => return Some(combine_orig(s)),
                    _ => r,
                }
            }
            None => None,
        };
        let orig_budget = orig_shape.map_or(0, |s| s.width);
        let next_shape = Shape::indented(next_line_indent);
        let next = self.format_expr(body, ExprType::Statement, next_shape);
        match (orig, next) {
            (Some(o), Some(n)) if prefer_next_line(&o, &n) => Some(combine_next(&n)),
            (Some(o), _) if extend && first_line_width(&o) <= orig_budget => Some(combine_orig(&o)),
            (Some(o), Some(n)) if o.contains('\n') => Some(combine_next(&n)),
            (None, Some(n)) => Some(combine_next(&n)),
            (None, None) => None,
            (Some(o), _) => Some(combine_orig(&o)),
        }
    }
}

/// A statement of a block, or an expression made one (a closure's body).
pub(super) enum BlockStmt<'a> {
    Stmt(&'a Stmt),
    Expr(&'a Expr),
}

impl BlockStmt<'_> {
    fn to_tokens_string(&self) -> String {
        match self {
            BlockStmt::Stmt(s) => s.to_token_stream().to_string(),
            BlockStmt::Expr(e) => e.to_token_stream().to_string(),
        }
    }
}

fn op_str(op: &syn::BinOp) -> Option<&'static str> {
    use syn::BinOp::*;
    Some(match op {
        Add(_) => "+",
        Sub(_) => "-",
        Mul(_) => "*",
        Div(_) => "/",
        Rem(_) => "%",
        And(_) => "&&",
        Or(_) => "||",
        Eq(_) => "==",
        Ne(_) => "!=",
        Lt(_) => "<",
        Le(_) => "<=",
        Gt(_) => ">",
        Ge(_) => ">=",
        BitAnd(_) => "&",
        BitOr(_) => "|",
        BitXor(_) => "^",
        Shl(_) => "<<",
        Shr(_) => ">>",
        _ => return None,
    })
}

fn attrs_of(e: &Expr) -> &[syn::Attribute] {
    match e {
        Expr::Lit(x) => &x.attrs,
        Expr::Path(x) => &x.attrs,
        Expr::Call(x) => &x.attrs,
        Expr::MethodCall(x) => &x.attrs,
        Expr::Closure(x) => &x.attrs,
        Expr::Match(x) => &x.attrs,
        Expr::If(x) => &x.attrs,
        Expr::Struct(x) => &x.attrs,
        _ => &[],
    }
}

/// rustfmt's `prefer_next_line` (default tactics).
pub(super) fn prefer_next_line(orig: &str, next: &str) -> bool {
    let ends = |s: &str, c: char| s.lines().next().is_some_and(|l| l.ends_with(c));
    !next.contains('\n')
        || orig.matches('\n').count() > next.matches('\n').count() + 1
        || (ends(orig, '(') && !ends(next, '('))
        || (ends(orig, '{') && !ends(next, '{'))
        || (ends(orig, '[') && !ends(next, '['))
}

fn last_line_offsetted(start_column: usize, s: &str) -> bool {
    let Some(last) = s.rsplit('\n').next() else { return false };
    if !s.contains('\n') {
        return false;
    }
    let leading = last.chars().take_while(|c| *c == ' ').count();
    leading > start_column
}

/// rustfmt's `same_line_else_kw_and_brace`.
fn same_line_else_kw_and_brace(init: &str, shape: Shape) -> bool {
    if !init.contains('\n') {
        return shape.width.saturating_sub(init.len()) >= 7;
    }
    let init = init.trim_end();
    if !init.ends_with([')', ']', '}']) {
        return false;
    }
    let last = init.rsplit('\n').next().unwrap_or_default();
    let trimmed = last.trim_start();
    trimmed.chars().all(|c| matches!(c, ')' | ']' | '}')) && last.len() - trimmed.len() <= shape.indent.width()
}

fn get_inner_expr<'e>(e: &'e Expr, prefix: &str) -> &'e Expr {
    if let Expr::Block(b) = e {
        let needs_block = b.block.stmts.len() > 1 || prefix.contains('\n') || b.label.is_some();
        if !needs_block {
            if let Some(Stmt::Expr(inner, None)) = b.block.stmts.first() {
                return get_inner_expr(inner, prefix);
            }
        }
    }
    e
}

fn is_block_closure_forced(e: &Expr) -> bool {
    match e {
        Expr::If(_) | Expr::While(_) | Expr::ForLoop(_) => true,
        Expr::Reference(r) => is_block_closure_forced(&r.expr),
        Expr::Try(t) => is_block_closure_forced(&t.expr),
        Expr::Unary(u) => is_block_closure_forced(&u.expr),
        Expr::Cast(c) => is_block_closure_forced(&c.expr),
        _ => false,
    }
}

fn requires_semi(e: &Expr) -> bool {
    !matches!(e, Expr::If(_) | Expr::Match(_) | Expr::Block(_) | Expr::While(_) | Expr::Loop(_) | Expr::ForLoop(_))
}

fn left_most_sub_expr(e: &Expr) -> &Expr {
    match e {
        Expr::Call(c) => left_most_sub_expr(&c.func),
        Expr::Binary(b) => left_most_sub_expr(&b.left),
        Expr::Cast(c) => left_most_sub_expr(&c.expr),
        Expr::Field(f) => left_most_sub_expr(&f.base),
        Expr::Index(i) => left_most_sub_expr(&i.expr),
        Expr::Try(t) => left_most_sub_expr(&t.expr),
        Expr::MethodCall(m) => left_most_sub_expr(&m.receiver),
        _ => e,
    }
}

/// rustfmt's `flatten_arm_body`.
fn flatten_arm_body(body: &Expr) -> (bool, &Expr) {
    if let Expr::Block(b) = body {
        if b.label.is_none() {
            if let Some(inner) = simple_block_expr(&b.block) {
                if matches!(inner, Expr::Block(_)) {
                    return flatten_arm_body(inner);
                }
                return (can_flatten_block_around_this(inner), inner);
            }
            return (false, body);
        }
    }
    (can_flatten_block_around_this(body), body)
}

fn can_flatten_block_around_this(e: &Expr) -> bool {
    match e {
        Expr::If(_) | Expr::ForLoop(_) | Expr::While(_) => false,
        Expr::Loop(_) | Expr::Match(_) | Expr::Block(_) | Expr::Closure(_) | Expr::Array(_) | Expr::Call(_) | Expr::MethodCall(_) | Expr::Macro(_) | Expr::Struct(_) | Expr::Tuple(_) => true,
        Expr::Reference(r) => can_flatten_block_around_this(&r.expr),
        Expr::Try(t) => can_flatten_block_around_this(&t.expr),
        Expr::Unary(u) => can_flatten_block_around_this(&u.expr),
        Expr::Index(i) => can_flatten_block_around_this(&i.expr),
        Expr::Cast(c) => can_flatten_block_around_this(&c.expr),
        _ => false,
    }
}

const SPECIAL_CASE_MACROS: &[(&str, usize)] = &[
    ("eprint!", 0),
    ("eprintln!", 0),
    ("format!", 0),
    ("format_args!", 0),
    ("print!", 0),
    ("println!", 0),
    ("panic!", 0),
    ("unreachable!", 0),
    ("debug!", 0),
    ("error!", 0),
    ("info!", 0),
    ("warn!", 0),
    ("assert!", 1),
    ("debug_assert!", 1),
    ("write!", 1),
    ("writeln!", 1),
    ("assert_eq!", 2),
    ("assert_ne!", 2),
    ("debug_assert_eq!", 2),
    ("debug_assert_ne!", 2),
];
