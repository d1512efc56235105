//! The language-neutral model of the contract that every target generates
//! from. It is built by [`crate::load`] from `schemas/ipc/v2.json` after the
//! supported-subset check, so a target never sees a construct it cannot
//! express. Order is fixed everywhere: `types` by name (a `BTreeMap`), fields
//! in schema declaration order, methods, error codes and lanes in table order.

use std::collections::BTreeMap;

use crate::pattern::Pattern;

/// The whole contract.
#[derive(Debug, Clone, PartialEq)]
pub struct Contract {
    /// How the schema is named in generated headers, e.g. `schemas/ipc/v2.json`.
    pub source: String,
    /// The schema's `title`.
    pub title: String,
    /// The schema's top-level `description` (includes the JSON-text rules).
    pub description: String,
    /// `COPROCESS_PROTOCOL_VERSION`, stated once in `x-coprocess.protocol_version`.
    pub protocol_version: i64,
    /// The longest frame line a reader accepts, in bytes (without the `\n`).
    pub max_line_bytes: u64,
    /// The deepest container nesting a frame may have.
    pub max_depth: u32,
    /// Every `$defs` entry, by name.
    pub types: BTreeMap<String, TypeDef>,
    /// The method table, in table order.
    pub methods: Vec<Method>,
    /// The error-code table, in table order.
    pub error_codes: Vec<ErrorCode>,
    /// The lane table, in table order.
    pub lanes: Vec<Lane>,
    /// The shared message templates, by name (`binary_mismatch`, `sdk_mismatch`,
    /// `upgrade_binary`, `upgrade_sdk`, `handshake_failed`, `lane_skip`).
    pub messages: BTreeMap<String, Message>,
    /// The session client's settings every SDK generates as its defaults
    /// (`call_timeout_ms`, `start_timeout_ms`, `close_timeout_ms`,
    /// `stderr_tail_lines`), by name.
    pub client: BTreeMap<String, ClientSetting>,
    /// The support matrix (`x-coprocess.sdks`): one row per target, in
    /// table order, saying where its files go and what its language calls them.
    pub sdks: Vec<Sdk>,
    /// What each protocol version changed (`x-coprocess.history`),
    /// consecutive versions in ascending order, the last the current one.
    pub history: Vec<Version>,
    /// The compatibility rule (`x-coprocess.compatibility`), one sentence
    /// or short paragraph per clause, in table order.
    pub compatibility: Vec<String>,
    /// Which type or method plays each protocol role (`x-coprocess.roles`),
    /// resolved and checked by [`crate::roles`].
    pub roles: Roles,
    /// The schema document as read (the Rust target hands its `$defs` to typify).
    pub raw: serde_json::Value,
}

/// The protocol roles: what every target, the binary and the page rely on,
/// by the names the schema gives them ([`crate::roles`] says what each must be).
#[derive(Debug, Clone, PartialEq)]
pub struct Roles {
    /// The request envelope type.
    pub request: String,
    /// The response envelope type, the union of the next two.
    pub response: String,
    /// The response arm that carries a `result`.
    pub success_response: String,
    /// The response arm that carries an `error`.
    pub error_response: String,
    /// The JSON-RPC error object type.
    pub error_object: String,
    pub handshake: HandshakeRole,
    /// The call whose result every client reads uniformly, if the contract has one.
    pub call: Option<CallRole>,
    /// The method a client sends when it is closed, if the contract has one.
    pub close: Option<String>,
    /// The table as the schema writes it, in role order, for the page.
    pub table: Vec<RoleRow>,
}

/// The handshake method, with its params and result types.
#[derive(Debug, Clone, PartialEq)]
pub struct HandshakeRole {
    pub method: String,
    pub params: String,
    pub result: String,
}

/// The call method, its result union and that union's two arms.
#[derive(Debug, Clone, PartialEq)]
pub struct CallRole {
    pub method: String,
    /// The method's result: a union of exactly `verdict` and `passthrough`.
    pub result: String,
    /// The arm the binary derives (`success`, `text`, `error`).
    pub verdict: String,
    /// The upstream result verbatim (`content`, `isError`).
    pub passthrough: String,
}

/// One row of `x-coprocess.roles`.
#[derive(Debug, Clone, PartialEq)]
pub struct RoleRow {
    /// The role (`request`, `handshake`, ...).
    pub role: String,
    /// Each key of the row but `description` (`type`, `method`, `success`, ...)
    /// with the type or method name it resolves to and its JSON pointer.
    pub names: Vec<(String, String, String)>,
    pub description: String,
}

/// One `$defs` entry.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeDef {
    /// The `$defs` key, UpperCamelCase (`Verdict`, `CallParams`).
    pub name: String,
    /// The description with the annotations folded in ([`crate::annotations`]).
    pub description: String,
    pub kind: TypeKind,
    /// `deprecated: true`: each target adds its language's marker.
    pub deprecated: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub enum TypeKind {
    /// A closed object (`additionalProperties: false`): unknown fields are rejected.
    Object(ObjectType),
    /// An open object whose values all have one type (`additionalProperties: <schema>`,
    /// no `properties`). `Ty::Any` values make it "any JSON object".
    Map {
        values: Ty,
        /// `minProperties`: the fewest members (a minimum of 0 is no bound).
        min_members: Option<u64>,
        /// `maxProperties`: the most members. Checked after the values.
        max_members: Option<u64>,
        /// `propertyNames`: what every member name must be, a [`Ty::Length`]
        /// or [`Ty::Pattern`] of a string. Checked after the values, before
        /// the count.
        names: Option<Ty>,
    },
    /// `oneOf` of closed object types, told apart by a tag (every variant
    /// requires one member with a distinct string `const`: `"type": "call"`)
    /// or else by shape (each variant has a required field, its
    /// discriminator, that no other variant declares).
    Union(Vec<UnionVariant>),
    /// A string enum (`type: string` + `enum`). One value means a literal (`"2.0"`).
    StringEnum(Vec<String>),
    /// `type: [integer, string]`: a JSON-RPC request id.
    IntegerOrString,
}

impl TypeDef {
    /// The types a pattern can be on: a closed object's fields, a map's
    /// member names.
    fn tys(&self) -> impl Iterator<Item = &Ty> {
        let (fields, names) = match &self.kind {
            TypeKind::Object(object) => (object.fields.as_slice(), None),
            TypeKind::Map { names, .. } => (&[][..], names.as_ref()),
            _ => (&[][..], None),
        };
        fields.iter().map(|f| &f.ty).chain(names)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct ObjectType {
    /// Fields in schema declaration order: the order encoders emit.
    pub fields: Vec<Field>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// The name on the wire, exactly as in the schema (`duration_ms`, `isError`, `_meta`).
    pub name: String,
    /// The description with the annotations folded in ([`crate::annotations`]).
    pub description: String,
    pub ty: Ty,
    /// Required fields must be present; optional ones may be absent but, unless
    /// their type admits null, never null. Absent and null are kept apart.
    pub required: bool,
    /// `deprecated: true`: each target adds its language's marker.
    pub deprecated: bool,
}

/// The type of a field, a map value or an array item.
#[derive(Debug, Clone, PartialEq)]
pub enum Ty {
    /// Any JSON value, null included (a schema with no `type`).
    Any,
    Boolean,
    /// An integer (I-JSON safe range), with inclusive bounds (an exclusive one
    /// in the schema is the inclusive one next to it). On array items and map
    /// values only a minimum of 0 or 1.
    Integer { minimum: Option<i64>, maximum: Option<i64> },
    /// A number (`type: number`): any JSON number, integers included, read
    /// as the nearest IEEE 754 double, with bounds read the same way and
    /// compared exactly as doubles (`minimum`, `maximum`,
    /// `exclusiveMinimum`, `exclusiveMaximum`; the tighter of two on one
    /// side). On a property's own type and the items of a property's array;
    /// on map values and nested arrays without bounds.
    Number { minimum: Option<NumberBound>, maximum: Option<NumberBound> },
    String,
    /// A reference to a named type in `Contract::types`.
    Ref(String),
    /// A string whose length in Unicode code points (`minLength`,
    /// `maxLength`), or an array whose number of items (`minItems`,
    /// `maxItems`), lies within inclusive bounds. `inner` is a [`Ty::String`]
    /// or a [`Ty::Array`], and at least one bound is set (a minimum of 0 is
    /// no bound). Only on a property's own type, never on array items or map
    /// values.
    Length { inner: Box<Ty>, min: Option<u64>, max: Option<u64> },
    /// An array (a [`Ty::Array`], or a [`Ty::Length`] of one) whose items are
    /// pairwise distinct (`uniqueItems: true`). The items are strings (with
    /// or without a length or pattern), integers (with or without bounds or
    /// a divisor) or numbers (with or without bounds), booleans or string
    /// enums, compared as the values they decode to
    /// (`1.0` is `1`, `-0.0` is `0.0`), or any JSON values ([`Ty::Any`]), compared by JSON
    /// equality ([`Ty::unique_by_json`]). Checked after the items and the
    /// count; only on a property's own type.
    Unique(Box<Ty>),
    /// An integer (a [`Ty::Integer`]) or a number (a [`Ty::Number`]) that is
    /// a multiple of `divisor` (`multipleOf`). On an integer the divisor is
    /// whole, 2 or more (a fractional one is lowered to the whole divisor it
    /// means there): remainder arithmetic on 64-bit integers is exact in
    /// every language. On a number it is any positive decimal of at most
    /// [`Divisor::MAX_DIGITS`] significant digits, and the number is read as
    /// the shortest decimal that reads back as its double
    /// ([`Divisor::divides`]). Checked after the bounds; on a property's own
    /// type and the items of a property's array.
    Multiple { inner: Box<Ty>, divisor: Divisor },
    /// A string (a [`Ty::String`], or a [`Ty::Length`] of one) in which
    /// `pattern` finds a match (`pattern`: searched, not anchored, in the
    /// portable subset of [`crate::pattern`]). Checked after the length;
    /// only on a property's own type.
    Pattern { inner: Box<Ty>, pattern: Pattern },
    /// A string, integer or boolean (`inner`) that must be one value
    /// (`const`); or any JSON value ([`Ty::Any`]) that must equal a
    /// [`Constant::Json`] by JSON equality; or one of a [`Constant::OneOf`]'s
    /// values (`enum`), checked on the value read as any JSON value, then
    /// read as `inner`: [`Ty::Any`], or the one scalar kind every listed
    /// value but `null` is of ([`Ty::String`], [`Ty::Boolean`], an unbounded
    /// [`Ty::Integer`] or [`Ty::Number`]). Only on a property's own type;
    /// never nullable, but for such a `OneOf` of a scalar kind that lists
    /// `null` too: a [`Ty::Nullable`] of it reads `null` before the check.
    Const { inner: Box<Ty>, value: Constant },
    /// An array of any JSON values (a [`Ty::Array`] of [`Ty::Any`], or a
    /// [`Ty::Length`] of one) whose items at the first positions are of the
    /// JSON kinds `kinds` lists (`prefixItems`; `None`: any kind) and whose
    /// later items are of the kind `rest` (`items: {type: K}`; `None`: any).
    /// A short array is no problem. Checked after the count (`items: false`
    /// is a `maxItems` of the prefix's length), before uniqueness; only on a
    /// property's own type. Kinds are JSON Schema's type names: an integer
    /// is an integral number within ±(2^53-1), and is a number too.
    Prefix { inner: Box<Ty>, kinds: Vec<Option<String>>, rest: Option<String> },
    /// An array of items.
    Array(Box<Ty>),
    /// The type or JSON null (`type: [T, "null"]`, or `oneOf: [{$ref}, {type: null}]`).
    /// Only ever on required fields: an optional field is never nullable.
    Nullable(Box<Ty>),
}

impl Ty {
    /// Whether a [`Ty::Unique`]'s array (its `inner`) holds any JSON values,
    /// whose repeats are found by JSON equality (pairwise), not by the
    /// language's own equality of decoded values.
    pub fn unique_by_json(&self) -> bool {
        matches!(self.unbounded(), Ty::Array(item) if **item == Ty::Any)
    }

    /// Whether a [`Ty::Unique`]'s inner array type holds items that are
    /// `$defs` types (objects, unions, maps, enums), arrays or nullable
    /// values, whose repeats are found after the items are read, by JSON
    /// equality of the values they were read from (pairwise).
    pub fn unique_by_read(&self) -> bool {
        matches!(self.unbounded(), Ty::Array(item) if matches!(**item, Ty::Ref(_) | Ty::Array(_) | Ty::Nullable(_)))
    }

    /// A [`Ty::Prefix`]'s kinds as the reference page words them:
    /// `boolean, any, then string` (`any` for an item of any kind).
    pub fn prefix_text(kinds: &[Option<String>], rest: Option<&str>) -> String {
        let listed: Vec<&str> = kinds.iter().map(|k| k.as_deref().unwrap_or("any")).collect();
        format!("{}, then {}", listed.join(", "), rest.unwrap_or("any"))
    }

    /// The type a [`Ty::Nullable`] holds, or the type itself: where an
    /// inline `enum` of scalars that lists `null` keeps its [`Ty::Const`].
    pub fn non_null(&self) -> &Ty {
        if let Ty::Nullable(inner) = self { inner } else { self }
    }

    /// The type without its length bounds ([`Ty::Length`]), uniqueness
    /// ([`Ty::Unique`]), divisor ([`Ty::Multiple`]), pattern
    /// ([`Ty::Pattern`]) and value ([`Ty::Const`]): what a value of it is in
    /// every language, and how it is encoded.
    pub fn unbounded(&self) -> &Ty {
        match self {
            Ty::Length { inner, .. } | Ty::Multiple { inner, .. } | Ty::Const { inner, .. } => inner,
            Ty::Unique(inner) | Ty::Pattern { inner, .. } | Ty::Prefix { inner, .. } => inner.unbounded(),
            other => other,
        }
    }

    /// The pattern the type or its items check, if any (through a nullable
    /// wrapper and an array's count).
    pub fn pattern(&self) -> Option<&Pattern> {
        match self {
            Ty::Pattern { pattern, .. } => Some(pattern),
            Ty::Nullable(inner) | Ty::Array(inner) | Ty::Length { inner, .. } | Ty::Unique(inner) => inner.pattern(),
            _ => None,
        }
    }

    fn pattern_mut(&mut self) -> Option<&mut Pattern> {
        match self {
            Ty::Pattern { pattern, .. } => Some(pattern),
            Ty::Nullable(inner) | Ty::Array(inner) | Ty::Length { inner, .. } | Ty::Unique(inner) => inner.pattern_mut(),
            _ => None,
        }
    }
}

/// Numbers the distinct patterns of the types (from 1, by source text) in
/// the order the types, by name, and their fields declare them.
pub fn number_patterns(types: &mut BTreeMap<String, TypeDef>) {
    let mut sources: Vec<String> = Vec::new();
    for def in types.values_mut() {
        let tys: Vec<&mut Ty> = match &mut def.kind {
            TypeKind::Object(object) => object.fields.iter_mut().map(|f| &mut f.ty).collect(),
            TypeKind::Map { names: Some(names), .. } => vec![names],
            _ => Vec::new(),
        };
        for pattern in tys.into_iter().filter_map(Ty::pattern_mut) {
            pattern.number = match sources.iter().position(|s| *s == pattern.source) {
                Some(i) => i + 1,
                None => {
                    sources.push(pattern.source.clone());
                    sources.len()
                }
            };
        }
    }
}

/// One bound of a [`Ty::Number`]: a finite double, inclusive or exclusive.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NumberBound {
    pub value: f64,
    /// `exclusiveMinimum` / `exclusiveMaximum`: the value itself is outside.
    pub exclusive: bool,
}

impl NumberBound {
    /// The bound as every target's problem shows it ([`number_text`]).
    pub fn text(&self) -> String {
        number_text(self.value)
    }

    /// The comparison a number must pass, as the problem words it: `>=`,
    /// `>` for a minimum, `<=`, `<` for a maximum.
    pub fn operator(&self, minimum: bool) -> &'static str {
        match (minimum, self.exclusive) {
            (true, false) => ">=",
            (true, true) => ">",
            (false, false) => "<=",
            (false, true) => "<",
        }
    }
}

/// A `multipleOf` divisor: `digits` × 10^`exponent`, `digits` without a
/// trailing zero (so each divisor has one spelling). On an integer the
/// exponent is never negative.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Divisor {
    pub digits: u64,
    pub exponent: i32,
}

impl Divisor {
    /// The most significant digits a divisor of a number may have: with
    /// fewer than 10^14, every target's remainder arithmetic (`r * 10 + 9`,
    /// `r` below the digits) stays below 2^53, exact in a double too.
    pub const MAX_DIGITS: u32 = 14;

    /// The divisor a finite positive double is, read as the shortest
    /// decimal that reads back as it (`None` past [`Self::MAX_DIGITS`]).
    pub fn of(value: f64) -> Option<Divisor> {
        let (digits, exponent) = decimal(value)?;
        (digits > 0 && digits < 10u64.pow(Self::MAX_DIGITS)).then_some(Divisor { digits, exponent })
    }

    /// A whole divisor.
    pub fn whole(n: u64) -> Divisor {
        let mut divisor = Divisor { digits: n, exponent: 0 };
        while divisor.digits > 0 && divisor.digits.is_multiple_of(10) {
            divisor.digits /= 10;
            divisor.exponent += 1;
        }
        divisor
    }

    /// The divisor as a whole number, when it is one within `u64`.
    pub fn as_whole(&self) -> Option<u64> {
        let scale = 10u64.checked_pow(u32::try_from(self.exponent).ok()?)?;
        self.digits.checked_mul(scale)
    }

    /// The divisor's double (the nearest one to the decimal).
    pub fn value(&self) -> f64 {
        format!("{}e{}", self.digits, self.exponent).parse().unwrap_or(f64::NAN)
    }

    /// The divisor as every target's problem writes it ([`number_text`]).
    pub fn text(&self) -> String {
        number_text(self.value())
    }

    /// The divisor as part of a name (`5`, `15Em1` for 1.5, `1Em4` for 0.0001).
    pub fn ident(&self) -> String {
        match self.as_whole() {
            Some(n) => n.to_string(),
            None => format!("{}Em{}", self.digits, -self.exponent),
        }
    }

    /// Whether a double is a multiple of the divisor, read as the shortest
    /// decimal that reads back as it: `D` × 10^`a` over `digits` × 10^`exponent`
    /// is whole. Zero is a multiple of every divisor; a value with a finer
    /// last digit than the divisor's is none (its digits end in no zero); else
    /// the digits times 10^(`a` - `exponent`) are divided by `digits`,
    /// digit by digit. Every target's runtime does exactly this.
    pub fn divides(&self, value: f64) -> bool {
        match decimal(value.abs()) {
            Some((0, _)) => true,
            Some((digits, a)) if a >= self.exponent => {
                let m = self.digits;
                let mut r = digits.to_string().bytes().fold(0u64, |r, d| (r * 10 + u64::from(d - b'0')) % m);
                for _ in 0..(a - self.exponent) {
                    if r == 0 {
                        break;
                    }
                    r = r * 10 % m;
                }
                r == 0
            }
            _ => false,
        }
    }
}

impl std::fmt::Display for Divisor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text())
    }
}

/// A finite double's shortest decimal that reads back as it, as digits
/// without a trailing zero and a power of ten: `0.0075` is (75, -4), `0` is
/// (0, 0). `None` for infinities and NaN.
fn decimal(value: f64) -> Option<(u64, i32)> {
    if !value.is_finite() {
        return None;
    }
    // Rust's `{:e}` gives the shortest round-trip digits: `7.5e-3`, `1e308`.
    let scientific = format!("{:e}", value.abs());
    let (mantissa, exponent) = scientific.split_once('e')?;
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mut digits: u64 = format!("{whole}{fraction}").parse().ok()?;
    let mut exponent = exponent.parse::<i32>().ok()? - i32::try_from(fraction.len()).ok()?;
    if digits == 0 {
        return Some((0, 0));
    }
    while digits.is_multiple_of(10) {
        digits /= 10;
        exponent += 1;
    }
    Some((digits, exponent))
}

/// A finite double as ECMAScript's `Number.prototype.toString` writes it:
/// the shortest digits that read back as the same double, positional from
/// 1e-6 up to 1e21 and with an exponent (`1e+21`, `1.5e-7`) outside,
/// `-0` as `0`. Every target words a number in a problem this way.
pub fn number_text(value: f64) -> String {
    if value == 0.0 {
        return "0".to_string();
    }
    if value < 0.0 {
        return format!("-{}", number_text(-value));
    }
    let Some((significant, exponent)) = decimal(value) else { return value.to_string() };
    let digits = significant.to_string();
    let k = digits.len() as i64;
    // value = 0.digits × 10^n
    let n = i64::from(exponent) + k;
    if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        format!("{}.{}", &digits[..n as usize], &digits[n as usize..])
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat((-n) as usize))
    } else {
        let sign = if n - 1 < 0 { '-' } else { '+' };
        let rest = if k == 1 { String::new() } else { format!(".{}", &digits[1..]) };
        format!("{}{rest}e{sign}{}", &digits[..1], (n - 1).abs())
    }
}

/// The value of a `const`: a string, an integer within ±(2^53-1) or a
/// boolean, read as that type; or any other JSON value (null, an object, an
/// array, a fractional number), read as any JSON value and compared by JSON
/// equality: numbers by value as doubles (`1` is `1.0`), objects whatever
/// their member order, arrays item by item, `true` never `1`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Constant {
    String(String),
    Integer(i64),
    Boolean(bool),
    /// The value as compact JSON text (members in the schema's order).
    Json(String),
    /// Any of several JSON values (`enum`), read as any JSON value and
    /// compared by JSON equality: the values as compact JSON text, joined by
    /// `, ` (`1, "a", null`), which is how every target's problem lists them
    /// and, between `[` and `]`, the values as one JSON array.
    OneOf(String),
}

impl Constant {
    /// The schema keyword that writes it: `enum` for a [`Constant::OneOf`],
    /// `const` for the others.
    pub fn keyword(&self) -> &'static str {
        if let Constant::OneOf(_) = self { "enum" } else { "const" }
    }

    /// The value as JSON text (`"call"`, `5`, `true`): how every target's
    /// problem shows it; a [`Constant::OneOf`]'s values as one JSON array.
    pub fn json(&self) -> String {
        match self {
            Constant::String(s) => serde_json::Value::from(s.as_str()).to_string(),
            Constant::Integer(n) => n.to_string(),
            Constant::Boolean(b) => b.to_string(),
            Constant::Json(text) => text.clone(),
            Constant::OneOf(listed) => format!("[{listed}]"),
        }
    }

    /// The values a member may hold: one for a `const`, each listed one
    /// for an `enum` (empty only for text no loader wrote).
    pub fn values(&self) -> Vec<serde_json::Value> {
        match self {
            Constant::OneOf(listed) => serde_json::from_str(&format!("[{listed}]")).unwrap_or_default(),
            other => serde_json::from_str(&other.json()).map(|value| vec![value]).unwrap_or_default(),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct UnionVariant {
    /// The variant's type name (a `TypeKind::Object`).
    pub type_name: String,
    /// Told apart by shape (`tag` is `None`): the required field whose
    /// presence selects this variant, declared by no other variant. Tagged
    /// (`tag` is `Some`): the member every variant requires with a string
    /// `const`, the same name in each variant.
    pub discriminator: String,
    /// The variant's value of the tag member (its `const`), in a tagged
    /// union: the variant is the one whose value the member holds.
    pub tag: Option<String>,
}

/// The tag member and its values, in variant order, when the variants are
/// told apart by a tag (a `const` member) rather than by shape.
pub fn union_tag(variants: &[UnionVariant]) -> Option<(&str, Vec<&str>)> {
    let first = variants.first()?;
    let values: Option<Vec<&str>> = variants.iter().map(|v| v.tag.as_deref()).collect();
    Some((first.discriminator.as_str(), values?))
}

/// One row of the method table.
#[derive(Debug, Clone, PartialEq)]
pub struct Method {
    /// The wire name (`mcp.call`).
    pub name: String,
    pub description: String,
    /// The params type name.
    pub params: String,
    /// Whether `params` must be present (otherwise it may be omitted).
    pub params_required: bool,
    /// The result type name.
    pub result: String,
}

/// One row of the error-code table.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorCode {
    pub code: i64,
    /// UpperCamelCase name (`ParseError`).
    pub name: String,
    pub description: String,
}

/// One row of the lane table.
#[derive(Debug, Clone, PartialEq)]
pub struct Lane {
    /// The YAML key (`agents`).
    pub key: String,
    /// Whether an SDK can drive it over the coprocess.
    pub drivable: bool,
    /// Who runs it: `the SDK`, or the CLI command with a `<suite>` placeholder.
    pub runs_via: String,
    pub description: String,
}

/// One default of the session client (`x-coprocess.client`).
#[derive(Debug, Clone, PartialEq)]
pub struct ClientSetting {
    /// A positive integer: milliseconds for a `_ms` setting, else a count.
    pub value: u64,
    pub description: String,
}

/// One row of the support matrix (`x-coprocess.sdks`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sdk {
    /// The codegen target it is generated by (`rust`, `python`, ...).
    pub key: String,
    /// How people call it (`Python`, `.NET`).
    pub name: String,
    /// The frame types and the version pin, relative to the output root
    /// (`/`-separated, inside it).
    pub frames: String,
    /// The session client, beside `frames` (same directory).
    pub client: String,
    /// What the SDK's language calls the frames' home: the Python module,
    /// the npm package of the TypeScript SDK, the Go package, the Java
    /// package, the .NET namespace or the Rust module path. The row's key for
    /// it is the target's [`crate::sdks::Language::name_key`].
    pub namespace: String,
}

impl Sdk {
    /// The directory both files are in (`""` at the output root).
    pub fn directory(&self) -> &str {
        self.frames.rsplit_once('/').map_or("", |(dir, _)| dir)
    }

    /// The file name of `path` without its directory and extension.
    pub fn stem(path: &str) -> &str {
        let file = path.rsplit_once('/').map_or(path, |(_, file)| file);
        file.rsplit_once('.').map_or(file, |(stem, _)| stem)
    }
}

/// One row of the version history (`x-coprocess.history`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    pub version: i64,
    /// What this version changed from the one before (or what it was).
    pub changes: String,
}

/// A message template with `{placeholder}` holes.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    pub template: String,
    pub description: String,
}

/// A piece of a message template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    Text(String),
    Hole(String),
}

impl Message {
    /// Splits the template into literal text and `{name}` holes.
    pub fn segments(&self) -> Vec<Segment> {
        split_template(&self.template)
    }

    /// The hole names in order of first appearance.
    pub fn holes(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for segment in self.segments() {
            if let Segment::Hole(name) = segment {
                if !out.contains(&name) {
                    out.push(name);
                }
            }
        }
        out
    }
}

/// Splits `a {x} b` into `[Text("a "), Hole("x"), Text(" b")]`.
pub fn split_template(template: &str) -> Vec<Segment> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else { break };
        if open > 0 {
            out.push(Segment::Text(rest[..open].to_string()));
        }
        out.push(Segment::Hole(rest[open + 1..open + close].to_string()));
        rest = &rest[open + close + 1..];
    }
    if !rest.is_empty() {
        out.push(Segment::Text(rest.to_string()));
    }
    out
}

impl Contract {
    /// The named type, if it exists (the loader guarantees every `Ty::Ref` resolves).
    pub fn type_def(&self, name: &str) -> Option<&TypeDef> {
        self.types.get(name)
    }

    /// The message template of that name (the loader guarantees the six standard ones).
    pub fn message(&self, name: &str) -> &str {
        self.messages.get(name).map(|m| m.template.as_str()).unwrap_or_default()
    }

    /// Whether any type or member is marked `deprecated` (the generated files
    /// then allow their own use of what they mark).
    pub fn has_deprecated(&self) -> bool {
        self.types.values().any(|d| d.deprecated || matches!(&d.kind, TypeKind::Object(o) if o.fields.iter().any(|f| f.deprecated)))
    }

    /// The lanes an SDK cannot drive, in table order.
    pub fn unsupported_lanes(&self) -> impl Iterator<Item = &Lane> {
        self.lanes.iter().filter(|lane| !lane.drivable)
    }

    /// Every distinct pattern of the contract, by number (the loader numbers
    /// them in the order the types, by name, and their fields declare them).
    pub fn patterns(&self) -> Vec<&Pattern> {
        let mut out: Vec<&Pattern> = Vec::new();
        for def in self.types.values() {
            for pattern in def.tys().filter_map(Ty::pattern) {
                if !out.iter().any(|p| p.number == pattern.number) {
                    out.push(pattern);
                }
            }
        }
        out.sort_by_key(|p| p.number);
        out
    }

    /// The support-matrix row of a target (the loader guarantees one per
    /// target; a contract built by hand without it is refused by
    /// [`crate::targets::generate`]).
    pub fn sdk(&self, key: &str) -> Option<&Sdk> {
        self.sdks.iter().find(|sdk| sdk.key == key)
    }

    /// The error code with that name.
    pub fn error_code(&self, name: &str) -> Option<i64> {
        self.error_codes.iter().find(|c| c.name == name).map(|c| c.code)
    }
}

#[cfg(test)]
mod tests {
    use super::number_text;

    #[test]
    fn numbers_are_written_as_ecmascript_writes_them() {
        // Each pair as `String(x)` prints it in Node.js.
        let cases: &[(f64, &str)] = &[
            (0.0, "0"),
            (-0.0, "0"),
            (1.0, "1"),
            (-2.5, "-2.5"),
            (1.1, "1.1"),
            (0.1 + 0.2, "0.30000000000000004"),
            (100.0, "100"),
            (1e20, "100000000000000000000"),
            (1e21, "1e+21"),
            (1.5e21, "1.5e+21"),
            (123456789012345680000.0, "123456789012345680000"),
            (0.000001, "0.000001"),
            (0.0000015, "0.0000015"),
            (1e-7, "1e-7"),
            (1.25e-7, "1.25e-7"),
            (f64::MAX, "1.7976931348623157e+308"),
            (5e-324, "5e-324"),
            (9007199254740993.0, "9007199254740992"),
            (12.5, "12.5"),
            (0.5, "0.5"),
        ];
        for (value, text) in cases {
            assert_eq!(number_text(*value), *text, "{value:e}");
        }
    }
}

#[cfg(test)]
mod divisor_tests {
    use super::Divisor;

    fn divisor(value: f64) -> Divisor {
        Divisor::of(value).expect("a divisor")
    }

    #[test]
    fn a_divisor_is_read_as_its_shortest_decimal() {
        assert_eq!(divisor(0.0001), Divisor { digits: 1, exponent: -4 });
        assert_eq!(divisor(2.5), Divisor { digits: 25, exponent: -1 });
        assert_eq!(divisor(1500.0), Divisor { digits: 15, exponent: 2 });
        assert_eq!(divisor(1500.0).as_whole(), Some(1500));
        assert_eq!(divisor(2.5).as_whole(), None);
        assert_eq!(divisor(0.0001).text(), "0.0001");
        assert_eq!(divisor(1.5e-7).text(), "1.5e-7");
        assert_eq!(divisor(1.5e-7).ident(), "15Em8");
        assert_eq!(Divisor::of(0.123456789012345), None, "15 significant digits");
        assert_eq!(Divisor::whole(20), Divisor { digits: 2, exponent: 1 });
    }

    #[test]
    fn a_number_is_a_multiple_when_its_shortest_decimal_divides() {
        let cases: &[(f64, f64, bool)] = &[
            (0.0075, 0.0001, true),
            (0.00751, 0.0001, false),
            (4.5, 1.5, true),
            (35.0, 1.5, false),
            (19.99, 0.01, true),
            (1_070_468.14, 0.01, true),
            (1_070_468.145, 0.01, false),
            (5.35, 2.675, true),
            (0.3, 0.1, true),
            (0.1 + 0.2, 0.1, false),
            (3.0 * 0.1, 0.1, false),
            (0.0, 0.7, true),
            (-0.0, 0.7, true),
            (-4.5, 1.5, true),
            (1e308, 0.123456789, false),
            (1e308, 1e-8, true),
            (5e-324, 0.5, false),
            (12_391_239_123.0, 1e-8, true),
            (1e21, 7.0, false),
            (7e21, 7.0, true),
        ];
        for &(value, d, expected) in cases {
            assert_eq!(divisor(d).divides(value), expected, "{value} / {d}");
        }
    }
}
