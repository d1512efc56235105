pub use strict::DecodeError;
/// A type of the contract that decodes strictly and encodes as one line.
pub trait Frame: ::std::marker::Sized + ::serde::Serialize {
    /// The `$defs` name.
    const TYPE_NAME: &'static str;
    /// Decodes frame text under the contract's JSON-text and shape rules.
    ///
    /// # Errors
    ///
    /// A [`DecodeError`] saying where and why the text breaks the contract.
    fn decode(text: &str) -> ::std::result::Result<Self, DecodeError>;
    /// Decodes an already-parsed value (for example a response's `result`).
    ///
    /// # Errors
    ///
    /// A [`DecodeError`] saying where and why the value breaks the contract.
    fn from_value(value: ::serde_json::Value) -> ::std::result::Result<Self, DecodeError>;
    /// Encodes as one line of JSON: fields in schema order, no newline.
    fn encode(&self) -> ::std::string::String {
        ::serde_json::to_string(self).unwrap_or_default()
    }
}
fn checked_text<'t>(
    type_name: &'static str,
    text: &'t str,
) -> ::std::result::Result<::std::borrow::Cow<'t, str>, DecodeError> {
    strict::check_text(text, MAX_DEPTH)
        .map_err(|(path, problem)| DecodeError::new(type_name, path, problem))
}
/// Checks a union's frame text and picks its variant by which
/// discriminator fields are present at the top level (from the scan).
fn checked_variant<'t>(
    type_name: &'static str,
    text: &'t str,
    discriminators: &[&str],
) -> ::std::result::Result<(::std::borrow::Cow<'t, str>, usize), DecodeError> {
    let mut checked = strict::scan(text, MAX_DEPTH)
        .map_err(|(path, problem)| DecodeError::new(type_name, path, problem))?;
    if !checked.text.trim_start().starts_with('{') {
        let value: ::serde_json::Value = ::serde_json::from_str(&checked.text).map_err(|e| {
            DecodeError::new(type_name, "$", strict::problem_from_serde(&e.to_string()))
        })?;
        return Err(DecodeError::new(
            type_name,
            "$",
            format!("expected object, got {}", strict::kind(&value)),
        ));
    }
    let chosen = strict::pick_variant(discriminators, |d| checked.has_top_level_key(d))
        .map_err(|p| DecodeError::new(type_name, "$", p))?;
    Ok((::std::mem::take(&mut checked.text), chosen))
}
/// Deserializes checked text; only a failure pays for tracking the path.
fn strict_from_text<T: ::serde::de::DeserializeOwned>(
    type_name: &'static str,
    text: &str,
) -> ::std::result::Result<T, DecodeError> {
    ::serde_json::from_str(text)
        .or_else(|_| explain(type_name, &mut ::serde_json::Deserializer::from_str(text)))
}
/// Deserializes the variant a nested union's members pick, from the members
/// read once by the outer decode; only a failure pays for tracking the path.
fn strict_from_members<T: ::serde::de::DeserializeOwned>(
    type_name: &'static str,
    members: &strict::UnionMembers<'_>,
) -> ::std::result::Result<T, DecodeError> {
    T::deserialize(members.replay()).or_else(|_| explain(type_name, members.replay()))
}
/// Deserializes a parsed value; only a failure pays for tracking the path.
fn strict_from_value<T: ::serde::de::DeserializeOwned>(
    type_name: &'static str,
    value: ::serde_json::Value,
) -> ::std::result::Result<T, DecodeError> {
    T::deserialize(&value).or_else(|_| explain(type_name, value))
}
/// Deserializes again, tracking the path, to say where and why it fails
/// (nested unions reading ahead no variant: see `strict::explaining`).
fn explain<'de, T: ::serde::Deserialize<'de>, D: ::serde::Deserializer<'de>>(
    type_name: &'static str,
    de: D,
) -> ::std::result::Result<T, DecodeError>
where
    D::Error: ::std::fmt::Display,
{
    let explained = strict::explaining(|| ::serde_path_to_error::deserialize(de));
    explained.map_err(|e| {
        let message = e.inner().to_string();
        let mut path = strict::json_path(e.path());
        if let Some((problem, inner)) = message.split_once(strict::INNER_PATH) {
            let inner = inner.split(" at line ").next().unwrap_or(inner);
            path.push_str(inner.strip_prefix('$').unwrap_or(inner));
            return DecodeError::new(type_name, path, problem);
        }
        let problem = strict::problem_from_serde(&message);
        if problem.starts_with("unknown field") {
            path = strict::parent_path(&path);
        }
        DecodeError::new(type_name, path, problem)
    })
}
