//! Runs a trace through the XF model and prints the events:
//! `cargo run -p nvxf --example run_trace -- crates/nvxf/examples/pipe_constants.xft`

use nvxf::{trace, Options, XfState};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/examples/pipe_constants.xft").into());
    let t = trace::parse(&std::fs::read_to_string(path)?, None)?;
    let mut xf = XfState::new(t.gpu, Options::default());
    for item in &t.items {
        for event in xf.step(&item.op) {
            println!("line {}: {:?}", item.line, event);
        }
    }
    for event in xf.finish() {
        println!("end: {event:?}");
    }
    Ok(())
}
