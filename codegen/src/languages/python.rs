//! The Python row of the support matrix: the word for its name, the files'
//! extension, and the language's rules for both,
//! with the keywords the target escapes.

use super::{dotted, ends_with, identifier, Language, Problem};
use crate::model::Sdk;

/// The support matrix's word for Python: the frames' module, dotted.
pub const LANGUAGE: Language = Language { key: "python", name_key: "module", what: "Python module", extension: ".py", check };

/// The module is dotted identifiers, and the frames file is where Python
/// imports it from (`mcptest._coprocess` is `.../mcptest/_coprocess.py`);
/// the client's file name is a module name too.
fn check(sdk: &Sdk) -> Result<(), Problem> {
    dotted(sdk, "module", "Python module", ".", KEYWORDS, "mcptest._coprocess")?;
    ends_with(&sdk.frames, &format!("{}.py", sdk.namespace.replace('.', "/")), "frames", "where Python imports the module from")?;
    let client = Sdk::stem(&sdk.client);
    if !identifier(client, KEYWORDS) {
        return Err(Problem::new("client", format!("`{client}` is not a Python module name"), "name the file with a Python identifier, like `_client.py`"));
    }
    Ok(())
}

/// Python's hard keywords: a property with one of these names gets a `_` suffix.
/// Builtins (`type`, `id`, `format`) stay: they are valid attribute names.
pub const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];
