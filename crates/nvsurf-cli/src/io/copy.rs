//! Copying a range of one file into another at the same offsets: only the source's data
//! extents are copied (Linux `SEEK_DATA`/`SEEK_HOLE`), so a sparse dump stays sparse, and a
//! failure names the side that failed ("cannot read" the source, "cannot write" the output: a
//! full disk is a write failure). Sources that cannot seek (pipes) are streamed.

use std::fs::File;
use std::io::{Read, Write};
use std::os::unix::fs::FileExt;
use std::path::Path;

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// Bytes moved per read and write.
const CHUNK_BYTES: usize = 1 << 20;

/// "cannot read 'PATH': cause".
pub fn cannot_read(path: &Path) -> impl Fn(std::io::Error) -> Box<dyn std::error::Error> + '_ {
    move |e| format!("cannot read '{}': {e}", path.display()).into()
}

/// "cannot write 'PATH': cause".
pub fn cannot_write(path: &Path) -> impl Fn(std::io::Error) -> Box<dyn std::error::Error> + '_ {
    move |e| format!("cannot write '{}': {e}", path.display()).into()
}

/// The data extents of `f` within `from..to`: `(start, end)` pairs, in order. Where the file
/// system cannot tell (no `SEEK_DATA`), the whole range is data.
pub fn data_extents(f: &File, from: u64, to: u64) -> Vec<(u64, u64)> {
    use rustix::fs::{seek, SeekFrom};
    let mut out = Vec::new();
    let mut pos = from;
    while pos < to {
        let start = match seek(f, SeekFrom::Data(pos)) {
            Ok(s) => s,
            // ENXIO: no data after `pos`; anything else: the file system cannot say.
            Err(e) if e == rustix::io::Errno::NXIO => break,
            Err(_) => return vec![(from, to)],
        };
        if start >= to {
            break;
        }
        let end = match seek(f, SeekFrom::Hole(start)) {
            Ok(h) => h.min(to),
            Err(_) => to,
        };
        out.push((start, end));
        pos = end;
    }
    out
}

/// Copies `from..to` of the regular file `src` into `dst` at the same offsets, data extents
/// only: the holes of `src` stay unwritten (the caller sets `dst`'s length, which keeps them
/// holes).
pub fn copy_extents(src: &File, src_path: &Path, dst: &File, dst_path: &Path, from: u64, to: u64) -> Res<()> {
    let mut buf = vec![0u8; CHUNK_BYTES];
    for (start, end) in data_extents(src, from, to) {
        let mut pos = start;
        while pos < end {
            let n = ((end - pos) as usize).min(CHUNK_BYTES);
            src.read_exact_at(&mut buf[..n], pos).map_err(cannot_read(src_path))?;
            dst.write_all_at(&buf[..n], pos).map_err(cannot_write(dst_path))?;
            pos += n as u64;
        }
    }
    Ok(())
}

/// Copies `n` bytes (all that remain with `None`) of the stream `src` to `dst`; how many came.
pub fn copy_stream(
    src: &mut impl Read,
    src_path: &Path,
    dst: &mut impl Write,
    dst_path: &Path,
    n: Option<u64>,
) -> Res<u64> {
    let mut buf = vec![0u8; CHUNK_BYTES];
    let mut done = 0u64;
    loop {
        let want = match n {
            Some(n) if done >= n => break,
            Some(n) => ((n - done) as usize).min(CHUNK_BYTES),
            None => CHUNK_BYTES,
        };
        let got = match src.read(&mut buf[..want]) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            r => r.map_err(cannot_read(src_path))?,
        };
        if got == 0 {
            break;
        }
        dst.write_all(&buf[..got]).map_err(cannot_write(dst_path))?;
        done += got as u64;
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holes_stay_holes_and_data_is_copied() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        let src = File::create(&a).unwrap();
        // 64 MiB with data at 0 and 40 MiB: the rest is a hole.
        src.set_len(64 << 20).unwrap();
        src.write_all_at(b"head", 0).unwrap();
        src.write_all_at(b"tail", 40 << 20).unwrap();
        src.sync_all().unwrap();
        let src = File::open(&a).unwrap();
        let dst = File::create(&b).unwrap();
        copy_extents(&src, &a, &dst, &b, 0, 64 << 20).unwrap();
        dst.set_len(64 << 20).unwrap();
        dst.sync_all().unwrap();
        let got = std::fs::read(&b).unwrap();
        assert_eq!(got, std::fs::read(&a).unwrap());
        use std::os::unix::fs::MetadataExt;
        // Allocated 512-byte blocks: far less than the 64 MiB (where the file system has holes).
        let blocks = std::fs::metadata(&b).unwrap().blocks();
        if std::fs::metadata(&a).unwrap().blocks() < 1024 {
            assert!(blocks < 8 * 1024, "{blocks} blocks: the holes were written");
        }
    }

    #[test]
    fn stream_copies_say_which_side_failed() {
        let mut src: &[u8] = &[7u8; 3000];
        let mut out = Vec::new();
        assert_eq!(copy_stream(&mut src, Path::new("s"), &mut out, Path::new("d"), Some(1000)).unwrap(), 1000);
        struct Full;
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::Error::from_raw_os_error(28))
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let e = copy_stream(&mut src, Path::new("s"), &mut Full, Path::new("out.bin"), None).unwrap_err();
        assert!(e.to_string().starts_with("cannot write 'out.bin'"), "{e}");
    }
}
