//! The `codegen` command line (temporary minimal form; see README).
use std::path::PathBuf;

pub fn main() -> i32 {
    let args: Vec<String> = std::env::args().collect();
    let mut out = PathBuf::from("generated");
    let mut schema = PathBuf::from("schemas/ipc/v2.json");
    let mut i = 1;
    while i < args.len() {
        match args[i].as_str() {
            "--out" => { out = PathBuf::from(&args[i + 1]); i += 1; }
            "--schema" => { schema = PathBuf::from(&args[i + 1]); i += 1; }
            _ => {}
        }
        i += 1;
    }
    let (contract, _) = match crate::load::load(&schema, &schema.to_string_lossy()) {
        Ok(c) => c,
        Err(e) => { eprintln!("{e}"); return 2; }
    };
    let files = match crate::targets::generate(&contract) {
        Ok(f) => f,
        Err(e) => { eprintln!("{e}"); return 2; }
    };
    for (rel, contents) in files {
        let path = out.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, contents).unwrap();
        println!("wrote {}", path.display());
    }
    0
}
