//! Items and attributes (rustfmt's `items.rs`, `attr.rs`, `visitor.rs`).

use quote::ToTokens;
use syn::parse::{ParseStream, Parser};
use syn::{Item as SynItem, Visibility};

use super::exprs::BlockStmt;
use super::*;

fn vis(v: &Visibility) -> Option<String> {
    match v {
        Visibility::Public(_) => Some("pub ".into()),
        Visibility::Inherited => Some(String::new()),
        Visibility::Restricted(r) => Some(format!("pub({}) ", r.path.to_token_stream().to_string().replace(' ', ""))),
    }
}

fn parse_nested(input: ParseStream<'_>) -> syn::Result<Vec<Meta>> {
    let mut out = Vec::new();
    while !input.is_empty() {
        if input.peek(syn::Lit) {
            out.push(Meta::Lit(input.parse()?));
        } else {
            let path = input.call(syn::Path::parse_mod_style)?;
            let name = path.to_token_stream().to_string().replace(' ', "");
            if input.peek(syn::Token![=]) {
                input.parse::<syn::Token![=]>()?;
                out.push(Meta::NameValue(name, input.parse()?));
            } else if input.peek(syn::token::Paren) {
                let content;
                syn::parenthesized!(content in input);
                out.push(Meta::List(name, parse_nested(&content)?));
            } else {
                out.push(Meta::Path(name));
            }
        }
        if input.is_empty() {
            break;
        }
        input.parse::<syn::Token![,]>()?;
        if input.is_empty() {
            return Err(input.error("a trailing comma"));
        }
    }
    Ok(out)
}

/// The attribute's meta, as rustfmt's parser reads it.
fn meta_of(attr: &syn::Attribute) -> Option<Meta> {
    let path = |p: &syn::Path| p.to_token_stream().to_string().replace(' ', "");
    match &attr.meta {
        syn::Meta::Path(p) => Some(Meta::Path(path(p))),
        syn::Meta::NameValue(nv) => match &nv.value {
            syn::Expr::Lit(l) => Some(Meta::NameValue(path(&nv.path), l.lit.clone())),
            _ => None,
        },
        syn::Meta::List(l) => {
            if !matches!(l.delimiter, syn::MacroDelimiter::Paren(_)) {
                return None;
            }
            let nested = parse_nested.parse2(l.tokens.clone()).ok()?;
            Some(Meta::List(path(&l.path), nested))
        }
    }
}

/// A doc attribute's text, when it can be written as `///` lines.
fn doc_lines(attr: &syn::Attribute) -> Option<Vec<String>> {
    let syn::Meta::NameValue(nv) = &attr.meta else { return None };
    if !nv.path.is_ident("doc") || !matches!(attr.style, syn::AttrStyle::Outer) {
        return None;
    }
    let syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) = &nv.value else { return None };
    let text = s.value();
    let lines: Vec<String> = text.split('\n').map(|l| l.trim_end().to_string()).collect();
    // A line starting with `/` would make `////`, a plain comment; `\r` is not a line end of ours.
    if text.contains('\r') || lines.iter().any(|l| l.starts_with('/')) {
        return None;
    }
    Some(lines.into_iter().map(|l| format!("///{l}")).collect())
}

fn is_derive(attr: &syn::Attribute) -> bool {
    matches!(attr.style, syn::AttrStyle::Outer) && matches!(&attr.meta, syn::Meta::List(l) if l.path.is_ident("derive"))
}

impl Cx {
    /// Items one after the other at `indent`, each line ending with `\n`.
    pub(super) fn items(&self, items: &[SynItem], indent: Indent) -> String {
        let mut out = String::new();
        for item in items {
            match self.item(item, indent) {
                Some(text) => {
                    out.push_str(&indent.to_str());
                    out.push_str(&text);
                    out.push('\n');
                }
                None => {
                    if !self.failed() {
                        self.unsupported::<()>(format!("the item `{}`", item.to_token_stream()));
                    }
                    return out;
                }
            }
        }
        out
    }

    /// Attributes, each followed by a line break to `indent`.
    fn attrs(&self, attrs: &[syn::Attribute], indent: Indent) -> Option<String> {
        self.attrs_in(attrs, Shape::indented(indent))
    }

    /// Attributes rewritten for `shape` (a field's or variant's shape keeps
    /// room for its comma, as rustfmt's does).
    fn attrs_in(&self, attrs: &[syn::Attribute], shape: Shape) -> Option<String> {
        let indent = shape.indent;
        let mut out = String::new();
        let mut i = 0;
        while i < attrs.len() {
            let attr = &attrs[i];
            if !matches!(attr.style, syn::AttrStyle::Outer) {
                return self.unsupported("inner attributes");
            }
            if let Some(lines) = doc_lines(attr) {
                for line in lines {
                    out.push_str(&line);
                    out.push_str(&indent.newline());
                }
                i += 1;
                continue;
            }
            if is_derive(attr) {
                let run: Vec<&syn::Attribute> = attrs[i..].iter().take_while(|a| is_derive(a)).collect();
                i += run.len();
                out.push_str(&self.derive(&run, shape)?);
                out.push_str(&indent.newline());
                continue;
            }
            let Some(meta) = meta_of(attr) else {
                return self.unsupported(format!("the attribute `{}`", attr.to_token_stream()));
            };
            // What rustfmt cannot fit it leaves as written: written unlimited.
            let text = match shape.offset_left(2).and_then(|s| self.meta(&meta, s)) {
                Some(text) => text,
                None => unlimited(|| Shape { width: max_width().saturating_sub(indent.width()), ..shape }.offset_left(2).and_then(|s| self.meta(&meta, s)))?,
            };
            out.push_str(&format!("#[{text}]"));
            out.push_str(&indent.newline());
            i += 1;
        }
        Some(out)
    }

    /// rustfmt's `format_derive` (consecutive derives merged).
    fn derive(&self, derives: &[&syn::Attribute], shape: Shape) -> Option<String> {
        let mut items: Vec<Option<String>> = Vec::new();
        for attr in derives {
            let syn::Meta::List(l) = &attr.meta else { return None };
            let paths = syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated.parse2(l.tokens.clone()).ok()?;
            items.extend(paths.iter().map(|p| Some(p.to_token_stream().to_string().replace(' ', ""))));
        }
        let argument_shape = shape.block_indent(TAB).with_max_width();
        let one_line_budget = shape.offset_left(11)?.sub_width(3)?.width;
        let tactic = definitive_tactic(&items, argument_shape.width, false);
        let item_str = write_list(&items, tactic, argument_shape, Trailing::Always)?;
        let nested = item_str.contains('\n') || item_str.len() > one_line_budget;
        Some(if nested {
            format!("#[derive({}{}{})]", argument_shape.indent.newline(), item_str, shape.indent.newline())
        } else {
            format!("#[derive({})]", item_str.trim_end_matches(','))
        })
    }

    /// rustfmt's `MetaItem::rewrite`.
    pub(super) fn meta(&self, m: &Meta, shape: Shape) -> Option<String> {
        match m {
            Meta::Path(p) => wrap_str(p.clone(), shape),
            Meta::NameValue(p, lit) => Some(format!("{p} = {}", lit.to_token_stream())),
            Meta::Lit(lit) => wrap_str(lit.to_token_stream().to_string(), shape),
            Meta::List(p, nested) => {
                let items: Vec<Item<'_>> = nested.iter().map(Item::Meta).collect();
                self.overflow(items, p, shape.sub_width(1)?, ("(", ")"), ATTR_FN_LIKE_WIDTH, Trailing::Never, None)
            }
        }
    }

    /// One item at `indent` (its first line not indented).
    pub(super) fn item(&self, item: &SynItem, indent: Indent) -> Option<String> {
        match self.item_in(item, indent) {
            Some(text) => Some(text),
            None if self.failed() => None,
            None => match unlimited(|| self.item_in(item, indent)) {
                Some(text) => Some(text),
                None if self.failed() => None,
                None => self.unsupported(format!("the item `{}`", item.to_token_stream())),
            },
        }
    }

    fn item_in(&self, item: &SynItem, indent: Indent) -> Option<String> {
        let (attrs, body) = match item {
            SynItem::Struct(s) => (&s.attrs, self.item_struct(s, indent)),
            SynItem::Enum(e) => (&e.attrs, self.item_enum(e, indent)),
            SynItem::Impl(i) => (&i.attrs, self.item_impl(i, indent)),
            SynItem::Fn(f) => (&f.attrs, self.item_fn(&vis(&f.vis)?, &f.sig, Some(&f.block), indent)),
            SynItem::Const(c) => {
                (&c.attrs, self.item_const(&format!("{}const {}: ", vis(&c.vis)?, c.ident), &c.ty, Some(&c.expr), indent))
            }
            SynItem::Static(st) if matches!(st.mutability, syn::StaticMutability::None) => {
                (&st.attrs, self.item_const(&format!("{}static {}: ", vis(&st.vis)?, st.ident), &st.ty, Some(&st.expr), indent))
            }
            SynItem::Mod(m) => (&m.attrs, self.item_mod(m, indent)),
            SynItem::Trait(t) => (&t.attrs, self.item_trait(t, indent)),
            SynItem::Use(u) => (&u.attrs, Some(format!("{}use {};", vis(&u.vis)?, u.tree.to_token_stream().to_string().replace(' ', "")))),
            SynItem::Type(t) => {
                if !t.generics.params.is_empty() {
                    return self.unsupported("generic type aliases");
                }
                (&t.attrs, self.assoc_type(&format!("{}type {} =", vis(&t.vis)?, t.ident), &t.ty, indent))
            }
            _ => return self.unsupported(format!("the item `{}`", item.to_token_stream())),
        };
        let attrs = self.attrs(attrs, indent)?;
        Some(format!("{attrs}{}", body?))
    }

    fn generics(&self, g: &syn::Generics) -> Option<String> {
        if g.params.is_empty() {
            return Some(String::new());
        }
        let params: Vec<String> = g.params.iter().map(|p| self.generic_param(p)).collect::<Option<_>>()?;
        Some(format!("<{}>", params.join(", ")))
    }

    /// A generic parameter, flat.
    pub(super) fn generic_param(&self, p: &syn::GenericParam) -> Option<String> {
        match p {
            syn::GenericParam::Lifetime(l) if l.bounds.is_empty() && l.attrs.is_empty() => Some(l.lifetime.to_string()),
            syn::GenericParam::Type(t) if t.attrs.is_empty() && t.default.is_none() => {
                if t.bounds.is_empty() {
                    Some(t.ident.to_string())
                } else {
                    Some(format!("{}: {}", t.ident, self.bounds(&t.bounds)?))
                }
            }
            _ => self.unsupported("this generic parameter"),
        }
    }

    /// rustfmt's `rewrite_generics` for a function: `name<…>`, the
    /// parameters broken like a call's arguments when they do not fit.
    fn fn_generics(&self, name: &str, g: &syn::Generics, shape: Shape) -> Option<String> {
        if g.params.is_empty() {
            return Some(name.to_string());
        }
        let items: Vec<Item<'_>> = g.params.iter().map(Item::GenericParam).collect();
        self.overflow(items, name, shape, ("<", ">"), max_width(), Trailing::Vertical, None)
    }

    fn bounds(&self, bounds: &syn::punctuated::Punctuated<syn::TypeParamBound, syn::Token![+]>) -> Option<String> {
        let parts: Vec<String> = bounds
            .iter()
            .map(|b| match b {
                syn::TypeParamBound::Trait(t) if t.lifetimes.is_none() && matches!(t.modifier, syn::TraitBoundModifier::None) => {
                    self.path_flat(&t.path)
                }
                syn::TypeParamBound::Lifetime(l) => Some(l.to_string()),
                _ => self.unsupported("this bound"),
            })
            .collect::<Option<_>>()?;
        Some(parts.join(" + "))
    }

    fn path_flat(&self, path: &syn::Path) -> Option<String> {
        let parts: Vec<String> = path.segments.iter().map(|s| self.segment(s, false)).collect::<Option<_>>()?;
        let lead = if path.leading_colon.is_some() { "::" } else { "" };
        Some(format!("{lead}{}", parts.join("::")))
    }

    fn where_clause(&self, w: Option<&syn::WhereClause>, indent: Indent) -> Option<String> {
        let Some(w) = w.filter(|w| !w.predicates.is_empty()) else { return Some(String::new()) };
        let inner = indent.block_indent();
        let mut out = format!("{}where", indent.newline());
        for p in &w.predicates {
            let syn::WherePredicate::Type(t) = p else { return self.unsupported("this where predicate") };
            if t.lifetimes.is_some() {
                return self.unsupported("this where predicate");
            }
            let ty = self.ty(&t.bounded_ty, Shape::legacy(UNLIMITED, inner))?;
            out.push_str(&format!("{}{ty}: {},", inner.newline(), self.bounds(&t.bounds)?));
        }
        Some(out)
    }

    /// rustfmt's `rewrite_fn_base` (block indent, `fn_params_layout = "Tall"`).
    fn item_fn(&self, vis: &str, sig: &syn::Signature, body: Option<&syn::Block>, indent: Indent) -> Option<String> {
        if sig.constness.is_some() || sig.asyncness.is_some() || sig.unsafety.is_some() || sig.abi.is_some() || sig.variadic.is_some() {
            return self.unsupported("qualified functions");
        }
        let mut result = format!("{vis}fn ");
        let overhead = if body.is_some() && sig.generics.where_clause.as_ref().is_none_or(|w| w.predicates.is_empty()) { 4 } else { 2 };
        let used_width = indent.width() + result.len();
        let generics_shape = Shape { width: max_width().saturating_sub(used_width + overhead), indent, offset: used_width };
        result.push_str(&self.fn_generics(&sig.ident.to_string(), &sig.generics, generics_shape)?);
        let ret = match &sig.output {
            syn::ReturnType::Default => String::new(),
            syn::ReturnType::Type(_, t) => format!("-> {}", self.ty(t, Shape::indented(indent).offset_left(3)?)?),
        };
        let where_str = self.where_clause(sig.generics.where_clause.as_ref(), indent)?;
        let overhead = if ret.is_empty() { 2 } else { 3 };
        let mut used = indent.width() + result.len() + ret.len() + overhead;
        if body.is_none() {
            used += 1;
        } else if where_str.is_empty() {
            used += 2;
        }
        // Broken generics (or return type) force the parameters vertical.
        let one_line_budget = if result.contains('\n') || ret.contains('\n') { 0 } else { max_width().saturating_sub(used) };
        let param_indent = indent.block_indent();
        let multi_line_budget = max_width().saturating_sub(param_indent.width() + 1);
        let param_shape = Shape::legacy(multi_line_budget, param_indent);
        // A parameter rustfmt cannot fit it writes as written (flat).
        let params: Vec<Option<String>> = sig
            .inputs
            .iter()
            .map(|p| self.fn_param(p, param_shape).or_else(|| unlimited(|| self.fn_param(p, Shape::indented(param_indent)))))
            .collect();
        if self.failed() {
            return None;
        }
        let tactic = definitive_tactic(&params, one_line_budget, false);
        let list = write_list(&params, tactic, param_shape, Trailing::Vertical)?;
        // rustfmt's `no_params_and_over_max_width`: no parameters, and `(`,
        // one more column and the return type's first line pass the width:
        // the `)` goes on a line of its own.
        let ret_first_line = ret.lines().next().map_or(0, |l| l.chars().count());
        if sig.inputs.is_empty() && indent.width() + last_line_width(&result) + 2 + ret_first_line > max_width() {
            result.push_str(&format!("({})", indent.newline()));
        } else if tactic == Tactic::Horizontal {
            result.push_str(&format!("({list})"));
        } else {
            result.push_str(&format!("({}{list}{})", param_indent.newline(), indent.newline()));
        }
        if !ret.is_empty() {
            result.push(' ');
            result.push_str(&ret);
        }
        result.push_str(&where_str);
        match body {
            None => result.push(';'),
            Some(block) => {
                // rustfmt's `rewrite_fn_before_block`: the brace on its own line
                // after a where clause, or when ` {` passes the item's width
                // (measured on the last line as written, indentation included).
                let newline_brace = !where_str.is_empty() || last_line_width(&result) + 2 > max_width().saturating_sub(indent.width());
                let sep = if newline_brace { indent.newline() } else { " ".to_string() };
                let stmts: Vec<BlockStmt<'_>> = block.stmts.iter().map(BlockStmt::Stmt).collect();
                result.push_str(&sep);
                result.push_str(&self.block_of(&stmts, Shape::indented(indent))?);
            }
        }
        Some(result)
    }

    fn fn_param(&self, p: &syn::FnArg, shape: Shape) -> Option<String> {
        match p {
            syn::FnArg::Receiver(r) => {
                if !r.attrs.is_empty() || r.colon_token.is_some() {
                    return self.unsupported("this `self` parameter");
                }
                let mut s = String::new();
                if let Some((_, lifetime)) = &r.reference {
                    s.push('&');
                    if let Some(l) = lifetime {
                        s.push_str(&format!("{l} "));
                    }
                }
                if r.mutability.is_some() {
                    s.push_str("mut ");
                }
                s.push_str("self");
                Some(s)
            }
            syn::FnArg::Typed(t) => {
                if !t.attrs.is_empty() {
                    return self.unsupported("attributes on parameters");
                }
                let pat = self.pat(&t.pat, shape)?;
                let ty = self.ty(&t.ty, shape.offset_left(width(&pat) + 2)?)?;
                Some(format!("{pat}: {ty}"))
            }
        }
    }

    /// rustfmt's `rewrite_static` for a `const`.
    fn item_const(&self, prefix: &str, ty: &syn::Type, expr: Option<&syn::Expr>, indent: Indent) -> Option<String> {
        // The type after the name, else on the next line, one indent deeper.
        let (prefix, ty_str) = match Shape::indented(indent).offset_left(prefix.len() + 2).and_then(|s| self.ty(ty, s)) {
            Some(t) => (prefix, t),
            None => {
                let nested = indent.block_indent();
                let t = self.ty(ty, Shape::indented(nested))?;
                (prefix.trim_end(), format!("{}{t}", nested.newline()))
            }
        };
        let Some(expr) = expr else {
            return Some(format!("{prefix}{ty_str};"));
        };
        let lhs = format!("{prefix}{ty_str} =");
        let shape = Shape::legacy(max_width().saturating_sub(indent.block + 1), indent);
        Some(format!("{};", self.assign_rhs(lhs, expr, shape)?))
    }

    /// `type Name = Type;` (rustfmt's `rewrite_associated_type`).
    fn assoc_type(&self, lhs: &str, ty: &syn::Type, indent: Indent) -> Option<String> {
        let shape = Shape::indented(indent).sub_width(1)?;
        let text = self.assign_rhs_with(lhs.to_string(), shape, |s| self.ty(ty, s))?;
        Some(format!("{text};"))
    }

    fn item_mod(&self, m: &syn::ItemMod, indent: Indent) -> Option<String> {
        if m.unsafety.is_some() {
            return self.unsupported("unsafe modules");
        }
        let head = format!("{}mod {}", vis(&m.vis)?, m.ident);
        match &m.content {
            None => Some(format!("{head};")),
            Some((_, items)) if items.is_empty() => Some(format!("{head} {{}}")),
            Some((_, items)) => {
                let inner = self.items(items, indent.block_indent());
                if self.failed() {
                    return None;
                }
                Some(format!("{head} {{\n{inner}{}}}", indent.to_str()))
            }
        }
    }

    fn item_trait(&self, t: &syn::ItemTrait, indent: Indent) -> Option<String> {
        if t.unsafety.is_some() || t.auto_token.is_some() || !t.generics.params.is_empty() || t.generics.where_clause.is_some() {
            return self.unsupported("this trait form");
        }
        let mut head = format!("{}trait {}", vis(&t.vis)?, t.ident);
        if !t.supertraits.is_empty() {
            head.push_str(&format!(": {}", self.bounds(&t.supertraits)?));
        }
        if t.items.is_empty() {
            return Some(format!("{head} {{}}"));
        }
        let inner = indent.block_indent();
        let mut out = format!("{head} {{\n");
        for item in &t.items {
            let text = self.member(|| {
                let (attrs, body) = match item {
                    syn::TraitItem::Const(c) if c.generics.params.is_empty() => {
                        (&c.attrs, self.item_const(&format!("const {}: ", c.ident), &c.ty, c.default.as_ref().map(|(_, e)| e), inner))
                    }
                    syn::TraitItem::Fn(f) => (&f.attrs, self.item_fn("", &f.sig, f.default.as_ref(), inner)),
                    _ => return self.unsupported("this trait item"),
                };
                Some(format!("{}{}", self.attrs(attrs, inner)?, body?))
            })?;
            out.push_str(&inner.to_str());
            out.push_str(&text);
            out.push('\n');
        }
        out.push_str(&indent.to_str());
        out.push('}');
        Some(out)
    }

    /// rustfmt's `format_impl` and `format_impl_ref_and_type`.
    fn item_impl(&self, i: &syn::ItemImpl, indent: Indent) -> Option<String> {
        if i.defaultness.is_some() || i.unsafety.is_some() || i.generics.where_clause.as_ref().is_some_and(|w| !w.predicates.is_empty()) {
            return self.unsupported("this impl form");
        }
        let mut result = format!("impl{}", self.generics(&i.generics)?);
        let trait_overhead = if let Some((bang, path, _)) = &i.trait_ {
            if bang.is_some() {
                return self.unsupported("negative impls");
            }
            let used = 1 + width(&result);
            let shape = Shape::indented(Indent::block(indent.width() + used));
            match self.path_type(path, shape) {
                Some(s) if !s.contains('\n') => result.push_str(&format!(" {s}")),
                _ => {
                    let offset = indent.block_indent();
                    let s = self.path_type(path, Shape::indented(offset))?;
                    result.push_str(&format!("{}{s}", offset.newline()));
                }
            }
            4
        } else {
            0
        };
        let used = last_line_width(&result) + trait_overhead + 2;
        let budget = max_width().saturating_sub(used + 1);
        let for_kw = if i.trait_.is_some() { "for " } else { "" };
        match self.ty(&i.self_ty, Shape::legacy(budget, indent)) {
            Some(s) if !s.contains('\n') => result.push_str(&format!(" {for_kw}{s}")),
            _ => {
                let offset = indent.block_indent();
                result.push_str(&format!("{}{for_kw}", offset.newline()));
                let budget = max_width().saturating_sub(last_line_width(&result));
                result.push_str(&self.ty(&i.self_ty, Shape::legacy(budget, offset))?);
            }
        }
        let sep = if result.contains('\n') { indent.newline() } else { " ".into() };
        if i.items.is_empty() {
            return Some(format!("{result}{sep}{{}}"));
        }
        let inner = indent.block_indent();
        let mut out = format!("{result}{sep}{{\n");
        for item in &i.items {
            let text = self.member(|| {
            let (attrs, body) = match item {
                syn::ImplItem::Fn(f) => (&f.attrs, self.item_fn(&vis(&f.vis)?, &f.sig, Some(&f.block), inner)),
                syn::ImplItem::Const(c) if c.generics.params.is_empty() => {
                    (&c.attrs, self.item_const(&format!("{}const {}: ", vis(&c.vis)?, c.ident), &c.ty, Some(&c.expr), inner))
                }
                syn::ImplItem::Type(t) if t.generics.params.is_empty() => {
                    (&t.attrs, self.assoc_type(&format!("{}type {} =", vis(&t.vis)?, t.ident), &t.ty, inner))
                }
                _ => return self.unsupported("this impl item"),
            };
            Some(format!("{}{}", self.attrs(attrs, inner)?, body?))
            })?;
            out.push_str(&inner.to_str());
            out.push_str(&text);
            out.push('\n');
        }
        out.push_str(&indent.to_str());
        out.push('}');
        Some(out)
    }

    /// An impl's or trait's member, left as written (unlimited) where
    /// rustfmt cannot fit it, as rustfmt's visitor does for each member.
    fn member(&self, f: impl Fn() -> Option<String>) -> Option<String> {
        match f() {
            Some(text) => Some(text),
            None if self.failed() => None,
            None => unlimited(f),
        }
    }

    /// A path as a type (a trait reference).
    fn path_type(&self, path: &syn::Path, shape: Shape) -> Option<String> {
        let ty = syn::Type::Path(syn::TypePath { qself: None, path: path.clone() });
        self.ty(&ty, shape)
    }

    fn item_struct(&self, s: &syn::ItemStruct, indent: Indent) -> Option<String> {
        if s.generics.where_clause.is_some() {
            return self.unsupported("where clauses on structs");
        }
        let head = format!("{}struct {}{}", vis(&s.vis)?, s.ident, self.generics(&s.generics)?);
        match &s.fields {
            syn::Fields::Unit => Some(format!("{head};")),
            syn::Fields::Named(named) => self.named_fields(&head, named, indent),
            syn::Fields::Unnamed(fields) => {
                let shape = Shape::indented(indent).sub_width(1)?;
                let items: Vec<Item<'_>> = fields.unnamed.iter().map(Item::Field).collect();
                let text = self.overflow(items, &head, shape, ("(", ")"), FN_CALL_WIDTH, Trailing::Vertical, None)?;
                Some(format!("{text};"))
            }
        }
    }

    fn named_fields(&self, head: &str, named: &syn::FieldsNamed, indent: Indent) -> Option<String> {
        if named.named.is_empty() {
            return Some(format!("{head} {{}}"));
        }
        let inner = indent.block_indent();
        let mut out = format!("{head} {{\n");
        for f in &named.named {
            out.push_str(&inner.to_str());
            let shape = Shape::indented(inner).sub_width(1)?;
            out.push_str(&self.attrs_in(&f.attrs, shape)?);
            out.push_str(&self.field(f, shape)?);
            out.push_str(",\n");
        }
        out.push_str(&indent.to_str());
        out.push('}');
        Some(out)
    }

    /// A struct field without its attributes (`pub name: Type`; rustfmt's
    /// `rewrite_struct_field`: the type after the name, else on the next line).
    pub(super) fn field(&self, f: &syn::Field, shape: Shape) -> Option<String> {
        // (A tuple field's prefix is its visibility, `pub ` with its space, and
        // rustfmt puts one more before a type it moves: `pub  Type<…>`.)
        let (prefix, spacing) = match &f.ident {
            Some(ident) => (format!("{}{ident}:", vis(&f.vis)?), " "),
            None => (vis(&f.vis)?, ""),
        };
        if let Some(ty) = shape.offset_left(width(&prefix) + spacing.len()).and_then(|s| self.ty(&f.ty, s)) {
            if !ty.contains('\n') {
                return Some(format!("{prefix}{spacing}{ty}"));
            }
        }
        let empty = prefix.is_empty();
        let text = self.assign_rhs_with(prefix, shape, |s| self.ty(&f.ty, s))?;
        Some(if empty { text.trim_start().to_string() } else { text })
    }

    fn item_enum(&self, e: &syn::ItemEnum, indent: Indent) -> Option<String> {
        if e.generics.where_clause.is_some() {
            return self.unsupported("where clauses on enums");
        }
        let head = format!("{}enum {}{}", vis(&e.vis)?, e.ident, self.generics(&e.generics)?);
        if e.variants.is_empty() {
            return Some(format!("{head} {{}}"));
        }
        let inner = indent.block_indent();
        let mut out = format!("{head} {{\n");
        for v in &e.variants {
            if v.discriminant.is_some() {
                return self.unsupported("enum discriminants");
            }
            out.push_str(&inner.to_str());
            let shape = Shape::indented(inner).sub_width(1)?;
            out.push_str(&self.attrs_in(&v.attrs, shape)?);
            let text = match &v.fields {
                syn::Fields::Unit => v.ident.to_string(),
                syn::Fields::Unnamed(fields) => {
                    let items: Vec<Item<'_>> = fields.unnamed.iter().map(Item::Field).collect();
                    self.overflow(items, &v.ident.to_string(), shape, ("(", ")"), FN_CALL_WIDTH, Trailing::Vertical, None)?
                }
                syn::Fields::Named(_) => return self.unsupported("struct variants"),
            };
            out.push_str(&text);
            out.push_str(",\n");
        }
        out.push_str(&indent.to_str());
        out.push('}');
        Some(out)
    }

    /// rustfmt's `rewrite_assign_rhs` for any right-hand side.
    pub(super) fn assign_rhs_with(&self, lhs: String, shape: Shape, rw: impl Fn(Shape) -> Option<String>) -> Option<String> {
        let last = last_line_width(&lhs).saturating_sub(if lhs.contains('\n') { shape.indent.width() } else { 0 });
        let orig_shape = shape.offset_left(last + 1).unwrap_or(Shape { width: 0, offset: shape.offset + last + 1, ..shape });
        let orig = rw(orig_shape);
        if self.failed() {
            return None;
        }
        let rhs = match orig {
            Some(ref s) if !s.contains('\n') && width(s) <= orig_shape.width => format!(" {s}"),
            _ => {
                let new_shape = Shape::indented(orig_shape.indent.block_indent()).sub_width(orig_shape.rhs_overhead())?;
                let new = rw(new_shape);
                let new_indent = orig_shape.indent.block_indent().newline();
                match (orig, new) {
                    (Some(o), Some(n)) if !fits(&n, new_shape) => format!(" {o}"),
                    (Some(o), Some(n)) if exprs::prefer_next_line(&o, &n) => format!("{new_indent}{n}"),
                    (None, Some(n)) => format!("{new_indent}{n}"),
                    (None, None) => return None,
                    (Some(o), _) => format!(" {o}"),
                }
            }
        };
        Some(lhs + &rhs)
    }
}
