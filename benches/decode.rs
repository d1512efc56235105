//! Strict decoding next to parsing the same bytes into `serde_json::Value`,
//! in one run: `cargo bench --bench decode`. Figures go to docs/benchmarks.md.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use mcptest_coprocess::frames::{CallParams, Request, RequestOf, ResponseOf, Verdict};
use mcptest_coprocess::Frame;

const HANDSHAKE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"coprocess/handshake","params":{"protocol_version":2,"sdk":"rust","sdk_version":"1.0.1"}}"#;
const CALL: &str = r#"{"jsonrpc":"2.0","id":7,"method":"mcp.call","params":{"tool":"get_weather","arguments":{"city":"Paris","units":"metric","days":3}}}"#;
const VERDICT: &str = r#"{"jsonrpc":"2.0","id":7,"result":{"success":true,"data":{"temperature":21,"sky":"sunny"},"text":"sunny","error":null,"duration_ms":3}}"#;

/// An `mcp.call` request with its params typed, in one pass.
fn strict_call(text: &str) -> CallParams {
    let request = RequestOf::<CallParams>::decode(text).expect("valid frame");
    request.params.expect("params present")
}

/// A response to an `mcp.call` that asked for a verdict (no passthrough).
fn strict_verdict(text: &str) -> Verdict {
    match ResponseOf::<Verdict>::decode(text).expect("valid frame") {
        ResponseOf::SuccessResponse(success) => success.result,
        ResponseOf::ErrorResponse(_) => panic!("not a result"),
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("decode");
    group.throughput(Throughput::Elements(1));
    group.bench_function("handshake request/strict", |b| b.iter(|| Request::decode(std::hint::black_box(HANDSHAKE)).expect("valid")));
    group.bench_function("handshake request/Value", |b| b.iter(|| serde_json::from_str::<serde_json::Value>(std::hint::black_box(HANDSHAKE)).expect("valid")));
    group.bench_function("mcp.call request/strict", |b| b.iter(|| strict_call(std::hint::black_box(CALL))));
    group.bench_function("mcp.call request/Value", |b| b.iter(|| serde_json::from_str::<serde_json::Value>(std::hint::black_box(CALL)).expect("valid")));
    group.bench_function("verdict response/strict", |b| b.iter(|| strict_verdict(std::hint::black_box(VERDICT))));
    group.bench_function("verdict response/Value", |b| b.iter(|| serde_json::from_str::<serde_json::Value>(std::hint::black_box(VERDICT)).expect("valid")));
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(std::time::Duration::from_secs(2)).warm_up_time(std::time::Duration::from_millis(500));
    targets = bench
}
criterion_main!(benches);
