//! The document Prettier 3 builds for each statement and expression of the
//! subset (compare `prettier --debug-print-doc`): `printAssignment`'s
//! layouts, `printCallArguments` with last-argument hugging,
//! `printBinaryishExpression`, `printTernary`, `printArrowFunction`, arrays,
//! objects and unions.

use std::sync::atomic::{AtomicUsize, Ordering};

use super::parse::{is_logical, precedence, Expr, Stmt, Type};
use crate::printer::Doc;

fn text(s: impl Into<String>) -> Doc {
    Doc::text(s)
}

fn cat<const N: usize>(parts: [Doc; N]) -> Doc {
    Doc::concat(parts)
}

/// `items` joined by `,` and a line.
fn comma_line(items: Vec<Doc>) -> Doc {
    Doc::join(cat([text(","), Doc::line()]), items)
}

/// A fresh id for a group whose mode a later document asks for.
fn group_id() -> usize {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// The document of one statement.
pub fn statement(stmt: &Stmt) -> Doc {
    match stmt {
        Stmt::Assign { head, op, rhs } => cat([assignment(text(head.clone()), &format!(" {op}"), rhs), text(";")]),
        Stmt::Return { keyword, argument } => {
            let argument = if argument.is_binaryish() {
                Doc::group(cat([
                    text(" "),
                    Doc::if_break(text("("), Doc::nil()),
                    Doc::indent(cat([Doc::softline(), expr(argument, Context::Return)])),
                    Doc::softline(),
                    Doc::if_break(text(")"), Doc::nil()),
                ]))
            } else {
                cat([text(" "), expr(argument, Context::Return)])
            };
            cat([text(*keyword), argument, text(";")])
        }
        Stmt::Expression { expr: e, end } => cat([expr(e, Context::Statement), text(*end)]),
        Stmt::Function { head, params, returns } => cat([
            text(head.clone()),
            Doc::group(cat([
                text("("),
                Doc::indent(cat([Doc::softline(), comma_line(params.iter().map(|p| text(p.clone())).collect())])),
                Doc::if_break(text(","), Doc::nil()),
                Doc::softline(),
                text(format!("): {returns}")),
            ])),
            text(" {"),
        ]),
        Stmt::Annotated { head, ty } => {
            let ty = match ty {
                // A declarator's union is never kept on one line as a whole.
                Type::Union(members) if head.starts_with("let ") => Doc::group(Doc::indent(cat([
                    Doc::softline(),
                    Doc::group(cat([Doc::if_break(text("| "), Doc::nil()), union_members(members)])),
                ]))),
                Type::Union(members) if !hugs(members) => Doc::group(Doc::indent(cat([
                    Doc::if_break(cat([Doc::line(), text("| ")]), Doc::nil()),
                    union_members(members),
                ]))),
                other => type_doc(other),
            };
            cat([Doc::group(cat([text(format!("{head}: ")), ty])), text(";")])
        }
        Stmt::ObjectAlias { head, member, ty } => {
            let object = Doc::group(cat([
                text("{"),
                Doc::indent(cat([Doc::line(), text(member.clone()), type_doc(ty), Doc::if_break(text(";"), Doc::nil())])),
                Doc::line(),
                text("}"),
            ]));
            let id = group_id();
            cat([
                Doc::group(cat([
                    Doc::group(text(head.clone())),
                    text(" ="),
                    Doc::group_with_id(id, Doc::indent(Doc::line())),
                    Doc::indent_if_broken(id, object),
                ])),
                text(";"),
            ])
        }
        Stmt::TypeAlias { head, ty } => {
            // Prettier's "fluid" assignment layout, as for an object alias.
            let id = group_id();
            cat([
                Doc::group(cat([
                    Doc::group(text(head.clone())),
                    text(" ="),
                    Doc::group_with_id(id, Doc::indent(Doc::line())),
                    Doc::indent_if_broken(id, type_doc(ty)),
                ])),
                text(";"),
            ])
        }
        Stmt::Property { key, value } => cat([property(key, value), text(",")]),
        Stmt::If { condition } => {
            // Inside the parentheses a binary expression's parts are not grouped.
            let condition = match condition {
                Expr::Binary(..) => Doc::concat(binary_parts(condition, None)),
                other => expr(other, Context::Other),
            };
            Doc::group(cat([
                text("if ("),
                Doc::group(cat([Doc::indent(cat([Doc::softline(), condition])), Doc::softline()])),
                text(") {"),
            ]))
        }
        Stmt::Union { head, members } => {
            let members = Doc::join(cat([Doc::line(), text("| ")]), members.iter().map(|m| Doc::align(2, text(m.clone()))));
            let union = Doc::group(cat([Doc::if_break(text("| "), Doc::nil()), members]));
            cat([Doc::group(cat([text(head.clone()), text(" ="), Doc::group(Doc::indent(cat([Doc::line(), union])))])), text(";")])
        }
    }
}

/// The document of a type.
fn type_doc(ty: &Type) -> Doc {
    match ty {
        Type::Name(name) => text(name.clone()),
        Type::Generic(name, args) => {
            let hugs = match args.as_slice() {
                [Type::Name(_)] => true,
                [Type::Union(members)] => hugs(members),
                _ => false,
            };
            let args: Vec<Doc> = args.iter().map(type_doc).collect();
            if hugs {
                return cat([text(format!("{name}<")), Doc::concat(args), text(">")]);
            }
            cat([
                text(name.clone()),
                Doc::group(cat([text("<"), Doc::indent(cat([Doc::softline(), comma_line(args)])), Doc::softline(), text(">")])),
            ])
        }
        Type::Array(element) => match element.as_ref() {
            // A union that does not hug breaks inside its parentheses
            // (Prettier's `shouldNeedParenthesize` union).
            Type::Union(members) if !hugs(members) => cat([
                text("("),
                Doc::group(cat([Doc::indent(cat([Doc::softline(), type_doc(element)])), Doc::softline()])),
                text(")[]"),
            ]),
            Type::Union(_) | Type::Readonly(_) => cat([text("("), type_doc(element), text(")[]")]),
            other => cat([type_doc(other), text("[]")]),
        },
        Type::Readonly(operand) => cat([text("readonly "), type_doc(operand)]),
        Type::Union(members) if hugs(members) => {
            Doc::join(text(" | "), members.iter().map(type_doc))
        }
        Type::Union(members) => Doc::group(cat([Doc::if_break(text("| "), Doc::nil()), union_members(members)])),
    }
}

/// A union's members, `| ` before each after the first.
fn union_members(members: &[Type]) -> Doc {
    Doc::join(cat([Doc::line(), text("| ")]), members.iter().map(|m| Doc::align(2, type_doc(m))))
}

/// Whether Prettier keeps a union on one line, as `Reference | null`.
fn hugs(members: &[Type]) -> bool {
    const KEYWORDS: &[&str] = &["string", "number", "boolean", "bigint", "symbol", "object", "unknown", "any", "never"];
    const EMPTY: &[&str] = &["null", "undefined", "void"];
    let empty = members.iter().filter(|m| matches!(m, Type::Name(n) if EMPTY.contains(&n.as_str()))).count();
    let references = members.iter().filter(|m| matches!(m, Type::Name(n) if !EMPTY.contains(&n.as_str()) && !KEYWORDS.contains(&n.as_str()))).count();
    members.len() == 2 && empty == 1 && references == 1
}

/// `key: value` in an object literal, laid out as an assignment; a value
/// after a key narrower than 5 columns (Prettier's `isObjectPropertyWithShortKey`)
/// never moves to the next line when it is a string or a member chain.
fn property(key: &str, value: &Expr) -> Doc {
    let short_key = key.chars().count() < 5;
    let unbreakable = matches!(value, Expr::Atom(a) if is_string(a)) || is_member_chain(value);
    if short_key && unbreakable {
        return Doc::group(cat([text(format!("{key}: ")), expr(value, Context::Assigned)]));
    }
    assignment(text(key.to_string()), ":", value)
}

/// `left op right` in the layout Prettier's `chooseLayout` picks.
fn assignment(left: Doc, op: &str, right: &Expr) -> Doc {
    let left = Doc::group(left);
    if breaks_after_operator(right) {
        return Doc::group(cat([left, text(op), Doc::group(Doc::indent(cat([Doc::line(), expr(right, Context::Assigned)])))]));
    }
    if never_breaks_after_operator(right) {
        return Doc::group(cat([left, text(op), text(" "), expr(right, Context::Assigned)]));
    }
    // "fluid": the right side breaks first, then the line after the operator.
    let id = group_id();
    Doc::group(cat([
        left,
        text(op),
        Doc::group_with_id(id, Doc::indent(Doc::line())),
        Doc::indent_if_broken(id, expr(right, Context::Assigned)),
    ]))
}

/// Prettier's `shouldBreakAfterOperator`.
fn breaks_after_operator(right: &Expr) -> bool {
    match right {
        Expr::Binary(..) => true,
        Expr::Conditional(test, ..) => test.is_binaryish(),
        Expr::Atom(a) => is_string(a),
        Expr::Unary(_, inner) => matches!(inner.as_ref(), Expr::Atom(a) if is_string(a)) || is_member_chain(inner),
        Expr::Member(..) => is_member_chain(right),
        Expr::Call(..) => is_poorly_breakable_chain(right),
        _ => false,
    }
}

/// Prettier's `shouldNeverBreakAfterOperator` for the subset: template literals, and numbers or booleans.
fn never_breaks_after_operator(right: &Expr) -> bool {
    matches!(right, Expr::Atom(a) if a.starts_with('`'))
}

fn is_string(atom: &str) -> bool {
    atom.starts_with('"') || atom.starts_with('\'')
}

/// `a.b.c`: member accesses down to an identifier.
fn is_member_chain(e: &Expr) -> bool {
    match e {
        Expr::Member(object, _) => matches!(object.as_ref(), Expr::Atom(_)) || is_member_chain(object),
        _ => false,
    }
}

/// Prettier's `isPoorlyBreakableMemberOrCallChain`: a chain of calls whose
/// arguments are at most one short literal or identifier each.
fn is_poorly_breakable_chain(e: &Expr) -> bool {
    let mut node = e;
    loop {
        match node {
            Expr::Call(callee, args) => {
                let short = match args.as_slice() {
                    [] => true,
                    [Expr::Atom(a)] => a.chars().count() <= 20 && !a.starts_with('`'),
                    _ => false,
                };
                if !short {
                    return false;
                }
                node = callee;
            }
            Expr::Member(object, _) => node = object,
            Expr::Atom(_) => return true,
            _ => return false,
        }
    }
}

/// Where an expression is printed, which changes how Prettier groups it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    Statement,
    Assigned,
    Return,
    Argument,
    /// The test of a conditional that is not a `return`/`throw` argument or a call argument.
    Test,
    /// An operand of a binary expression (`true`: a logical one).
    Operand(bool),
    Other,
}

fn expr(e: &Expr, context: Context) -> Doc {
    match e {
        Expr::Atom(a) => text(a.clone()),
        Expr::Member(object, name) => cat([expr(object, Context::Other), text(format!(".{name}"))]),
        Expr::Call(callee, args) => cat([expr(callee, Context::Other), arguments(args)]),
        Expr::New(call) => cat([text("new "), expr(call, Context::Other)]),
        Expr::Unary(op, operand) => cat([text(*op), expr(operand, Context::Other)]),
        Expr::Paren(inner) => cat([text("("), expr(inner, Context::Other), text(")")]),
        Expr::Binary(..) => binary(e, context),
        Expr::Conditional(test, consequent, alternate) => {
            let test_context = if matches!(context, Context::Return | Context::Argument) { Context::Other } else { Context::Test };
            Doc::group(cat([
                expr(test, test_context),
                Doc::indent(cat([
                    Doc::line(),
                    text("? "),
                    Doc::align(2, expr(consequent, Context::Other)),
                    Doc::line(),
                    text(": "),
                    Doc::align(2, expr(alternate, Context::Other)),
                ])),
            ]))
        }
        Expr::Arrow(params, body) => arrow(params, body).0,
        Expr::Array(items) => {
            let all_objects = items.len() > 1 && items.iter().all(|i| matches!(i, Expr::Object(m) if m.len() > 1));
            let contents = cat([
                text("["),
                Doc::indent(cat([Doc::softline(), comma_line(items.iter().map(|i| expr(i, Context::Other)).collect())])),
                Doc::if_break(text(","), Doc::nil()),
                Doc::softline(),
                text("]"),
            ]);
            if items.is_empty() {
                text("[]")
            } else if all_objects {
                Doc::broken_group(contents)
            } else {
                Doc::group(contents)
            }
        }
        Expr::Object(members) => {
            if members.is_empty() {
                return text("{}");
            }
            let members = members.iter().map(|(key, value)| match value {
                None => text(key.clone()),
                Some(value) => property(key, value),
            });
            Doc::group(cat([
                text("{"),
                Doc::indent(cat([Doc::line(), comma_line(members.collect())])),
                Doc::if_break(text(","), Doc::nil()),
                Doc::line(),
                text("}"),
            ]))
        }
    }
}

/// `(params) => body`, as printed anywhere and as a hugged last argument
/// (`.1`), the body's document built once for both (built per form, a
/// nested arrow's body would be built twice per level: exponential).
fn arrow(params: &[String], body: &Expr) -> (Doc, Doc) {
    let params = text(format!("({})", params.join(", ")));
    if matches!(body, Expr::Array(_) | Expr::Object(_) | Expr::Arrow(..)) {
        let doc = Doc::group(cat([params, text(" =>"), text(" "), expr(body, Context::Other)]));
        return (doc.clone(), doc);
    }
    let body = match body {
        // A conditional body is parenthesized only when it stays on the arrow's line.
        Expr::Paren(inner) if matches!(inner.as_ref(), Expr::Conditional(..)) => cat([
            Doc::if_break(Doc::nil(), text("(")),
            expr(inner, Context::Other),
            Doc::if_break(Doc::nil(), text(")")),
        ]),
        other => expr(other, Context::Other),
    };
    let form = |tail: Doc| Doc::group(cat([params.clone(), text(" =>"), Doc::group(cat([Doc::indent(cat([Doc::line(), body.clone()])), tail]))]));
    (form(Doc::nil()), form(cat([Doc::if_break(text(","), Doc::nil()), Doc::softline()])))
}

/// Prettier's `printCallArguments`. Each argument's document is built once
/// and shared by the layouts tried.
fn arguments(args: &[Expr]) -> Doc {
    let Some((last, init)) = args.split_last() else {
        return text("()");
    };
    let mut printed: Vec<Doc> = init.iter().map(|a| expr(a, Context::Argument)).collect();
    // The last argument as printed in place, and hugged (expanded).
    let (last, expanded) = match last {
        Expr::Arrow(params, body) => arrow(params, body),
        other => {
            let doc = expr(other, Context::Argument);
            (doc.clone(), doc)
        }
    };
    printed.push(last);
    if groups_last(args) {
        let all_broken_out = Doc::broken_group(cat([
            text("("),
            Doc::indent(cat([Doc::line(), comma_line(printed.clone())])),
            Doc::if_break(text(","), Doc::nil()),
            Doc::line(),
            text(")"),
        ]));
        let init = &printed[..init.len()];
        let with = |last: Doc| {
            let mut all = init.to_vec();
            all.push(last);
            cat([text("("), comma_line(all), text(")")])
        };
        return Doc::conditional([with(expanded.clone()), with(Doc::broken_group(expanded)), all_broken_out]);
    }
    Doc::group(cat([
        text("("),
        Doc::indent(cat([Doc::softline(), comma_line(printed)])),
        Doc::if_break(text(","), Doc::nil()),
        Doc::softline(),
        text(")"),
    ]))
}

/// Prettier's `shouldGroupLast` for the subset.
fn groups_last(args: &[Expr]) -> bool {
    let Some(last) = args.last() else { return false };
    let penultimate = args.len().checked_sub(2).map(|i| &args[i]);
    let could_expand = match last {
        Expr::Object(members) => !members.is_empty(),
        Expr::Array(items) => !items.is_empty(),
        Expr::Arrow(_, body) => match body.as_ref() {
            Expr::Paren(inner) => matches!(inner.as_ref(), Expr::Conditional(..)),
            body => matches!(body, Expr::Call(..) | Expr::Conditional(..) | Expr::Arrow(..) | Expr::Object(_) | Expr::Array(_)),
        },
        _ => false,
    };
    let same_kind = penultimate.is_some_and(|p| std::mem::discriminant(p) == std::mem::discriminant(last));
    could_expand && !same_kind
}

/// Prettier's `printBinaryishExpression`.
fn binary(e: &Expr, context: Context) -> Doc {
    let parent = match context {
        Context::Operand(logical) => Some(logical),
        _ => None,
    };
    let parts = binary_parts(e, parent);
    if matches!(context, Context::Assigned | Context::Return | Context::Test) {
        return Doc::group(Doc::concat(parts));
    }
    // The head (the first operand) stays, the rest is indented.
    let mut parts = parts.into_iter();
    let head = parts.next().unwrap_or_else(Doc::nil);
    Doc::group(cat([head, Doc::indent(Doc::concat(parts))]))
}

/// Prettier's `printBinaryishExpressions`: a chain of operators of one
/// precedence is flattened. `parent` is the kind of the binary expression
/// this one is an operand of (`true`: logical), if any.
fn binary_parts(e: &Expr, parent: Option<bool>) -> Vec<Doc> {
    let Expr::Binary(op, left, right) = e else {
        return vec![Doc::group(expr(e, Context::Other))];
    };
    let mine = is_logical(op);
    let mut parts = match left.as_ref() {
        Expr::Binary(left_op, ..) if flattens(op, left_op) => binary_parts(left, Some(mine)),
        other => vec![Doc::group(expr(other, Context::Operand(mine)))],
    };
    let right_doc = cat([text(op.clone()), Doc::line(), expr(right, Context::Operand(mine))]);
    // Grouped when neither the parent nor either side is the same kind of node.
    let kind = |x: &Expr| match x {
        Expr::Binary(o, ..) => Some(is_logical(o)),
        _ => None,
    };
    let grouped = parent != Some(mine) && kind(left) != Some(mine) && kind(right) != Some(mine);
    parts.push(text(" "));
    parts.push(if grouped { Doc::group(right_doc) } else { right_doc });
    parts
}

/// Prettier's `shouldFlatten`.
fn flattens(parent: &str, child: &str) -> bool {
    if precedence(parent) != precedence(child) {
        return false;
    }
    let equality = |op: &str| matches!(op, "===" | "!==" | "==" | "!=");
    let multiplicative = |op: &str| matches!(op, "*" | "/" | "%");
    let mixed_multiplicative = multiplicative(parent) && multiplicative(child) && parent != child;
    let both_equality = equality(parent) && equality(child);
    !(both_equality || mixed_multiplicative)
}
