//! DDS headers through the CLI's self-description (`picture::describe_dds` on the bytes, and
//! `picture::describe_file`, which also checks the data's length against the file): what
//! `tile` and `convert` read before any flag is filled. Errors are fine; a panic is the finding.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nvsurf_cli::picture::{describe_dds, describe_file, PicKind};
use nvsurf_fuzz::scratch_file;

fuzz_target!(|data: &[u8]| {
    if let Ok(d) = describe_dds(data) {
        // A description is only returned for a shape whose size is known to fit.
        assert!(d.shape().checked_bytes(&d.format).is_ok());
        let _ = (d.summary(), d.texture_type(), d.mismatch("format", "x"));
    }
    let path = scratch_file("dds", data);
    if let Ok(Some(d)) = describe_file(&path, PicKind::Dds) {
        let need = d.shape().checked_bytes(&d.format).expect("checked when described");
        assert!(need as u64 <= data.len() as u64, "the data the header claims is in the file");
    }
});
