#!/usr/bin/env bash
# Runs the cargo-fuzz targets of fuzz/ for a given time each (docs/fuzzing.md).
#
#   fuzz/run.sh <line_splitter|decoder|request_lines|all> <seconds>
#
# Installs cargo-fuzz when it is missing (a nightly toolchain must be there),
# seeds fuzz/corpus/<target>/ (gitignored) from tests/conformance/corpus/*.jsonl
# and fuzz/regressions/<target>/*, writes a dictionary of the schema's names,
# runs each target in turn for <seconds> and prints libFuzzer's final figures.
# The full log of a run is fuzz/logs/<target>.log; a crash is written to
# fuzz/artifacts/<target>/ and makes the script exit 1.
set -euo pipefail

TARGETS=(line_splitter decoder request_lines)
if [[ $# -ne 2 || ! $2 =~ ^[0-9]+$ ]]; then
    echo "usage: $0 <${TARGETS[*]// /|}|all> <seconds>" >&2
    exit 2
fi
case $1 in
    all) run=("${TARGETS[@]}") ;;
    line_splitter | decoder | request_lines) run=("$1") ;;
    *) echo "unknown target '$1' (one of: ${TARGETS[*]}, all)" >&2; exit 2 ;;
esac
seconds=$2

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

if ! cargo +nightly --version >/dev/null 2>&1; then
    echo "a nightly toolchain is needed: rustup toolchain install nightly" >&2
    exit 2
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "== installing cargo-fuzz"
    cargo install cargo-fuzz --locked
fi
# cargo-fuzz has no --locked of its own: fetching with --locked first fails
# when fuzz/Cargo.lock is not the resolution of fuzz/Cargo.toml (then run
# `cargo update --manifest-path fuzz/Cargo.toml --workspace` and commit the
# lock), so the build below resolves to the committed lock and never writes it.
echo "== checking fuzz/Cargo.lock (cargo fetch --locked)"
cargo +nightly fetch --locked --manifest-path fuzz/Cargo.toml

echo "== seeding fuzz/corpus/ from tests/conformance/corpus/*.jsonl"
python3 - "$root" <<'PY'
import glob, json, os, sys

root = sys.argv[1]
schema = json.load(open(os.path.join(root, "schemas/ipc/v2.json")))
types = sorted(schema["$defs"])  # the order of frames::TYPE_NAMES
cases = []
for path in sorted(glob.glob(os.path.join(root, "tests/conformance/corpus/*.jsonl"))):
    for line in open(path, encoding="utf-8"):
        if line.strip():
            case = json.loads(line)
            if case.get("type") in types and isinstance(case.get("json"), str):
                cases.append(case)

def utf8(text):
    return text.encode("utf-8", "surrogatepass")

def write(target, name, data):
    directory = os.path.join(root, "fuzz/corpus", target)
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, name), "wb") as f:
        f.write(data)

for i, case in enumerate(cases):
    write("decoder", f"seed-{i:04}", bytes([types.index(case["type"])]) + utf8(case["json"]))
requests = [utf8(c["json"]) for c in cases if c["type"] == "Request"]
for i, request in enumerate(requests):
    write("request_lines", f"seed-{i:04}", b"\x00" + request)
write("request_lines", "seed-all", b"\x00" + b"\n".join(requests))
write("request_lines", "seed-all-crlf-small", b"\x21" + b"\r\n".join(requests) + b"\n \t\r\n\r\n")
texts = [utf8(c["json"]) for c in cases]
for i in range(0, len(texts), 8):
    ending = [b"\n", b"\r\n", b"\n\n", b"\n \t\n"][(i // 8) % 4]
    write("line_splitter", f"seed-{i:04}", bytes([i % 256, (i * 7) % 256]) + ending.join(texts[i : i + 8]))

# Every string the schema names (fields, methods, enum values) and JSON tokens.
words = set()
def walk(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "properties" and isinstance(value, dict):
                words.update(value)
            if key in ("enum", "const"):
                for item in value if isinstance(value, list) else [value]:
                    if isinstance(item, str):
                        words.add(item)
            walk(value)
    elif isinstance(node, list):
        for item in node:
            walk(item)
walk(schema["$defs"])
words.update(m["name"] for m in schema["x-coprocess"]["methods"])
tokens = [json.dumps(w) for w in sorted(words)] + [
    "{", "}", "[", "]", ":", ",", "\"\"", "null", "true", "false", "-0", "1.0", "1e2", "1E+2", "-0.0",
    "1e-400", "1e400", "1e16", "9007199254740991", "9007199254740992", "-9007199254740992",
    "9007199254740992.0", "\\u0000", "\\ud800", "\\udc00", "\\ud83d\\ude00", "\\u0061", "\\/", "\\\"",
    "\ufeff", "\r\n", "\r", "\t", "NaN", "Infinity", "2.0", "\"2.0\"",
]
def quoted(token):  # libFuzzer's dictionary syntax: printable ASCII, other bytes as \xNN
    return '"' + "".join(chr(b) if 32 <= b < 127 and b not in b'"\\' else "\\x%02x" % b for b in utf8(token)) + '"'
with open(os.path.join(root, "fuzz/corpus/json.dict"), "w") as f:
    for token in tokens:
        f.write(quoted(token) + "\n")
print(f"   {len(cases)} cases: decoder {len(cases)}, request_lines {len(requests) + 2}, "
      f"line_splitter {(len(texts) + 7) // 8} seeds; dictionary {len(tokens)} tokens")
PY

for target in "${run[@]}"; do
    mkdir -p "fuzz/corpus/$target" fuzz/logs
    for file in fuzz/regressions/"$target"/*; do
        [[ -f $file ]] && cp "$file" "fuzz/corpus/$target/regression-$(basename "$file")"
    done
    log=fuzz/logs/$target.log
    echo "== $target for ${seconds}s (log: $log)"
    status=0
    cargo +nightly fuzz run "$target" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -dict="$root/fuzz/corpus/json.dict" -print_final_stats=1 >"$log" 2>&1 || status=$?
    grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)|^Done [0-9]+ runs' "$log" || true
    grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$log" | awk '!seen[$1]++' || true
    if [[ $status -ne 0 ]]; then
        echo "!! $target failed (exit $status): see $log and fuzz/artifacts/$target/" >&2
        grep -E -m 5 'panicked at|^SUMMARY|Test unit written to' "$log" >&2 || true
        exit 1
    fi
done
