//! The one warning line for a DDS or KTX2 that cannot hold a format's elements: the file gets
//! the decoded texels as 32-bit floats instead (DDS has no DXGI id for ASTC or ETC2; KTX2 has
//! no Vulkan format for some of NVIDIA's), so the line names the container that keeps them.

use super::dds::dxgi_of;
use super::kind::PicKind;
use super::vk_format::vk_of;
use nvsurf::format::Format;

/// Why writing `f` to a `kind` file stores decoded floats, and which container keeps the
/// elements, if it does; `None` when the file holds the elements as they are (or `kind` is
/// not DDS or KTX2).
pub fn decoded_warning(kind: PicKind, f: &Format) -> Option<String> {
    let name = f.name();
    match kind {
        PicKind::Dds if dxgi_of(f).is_none() => Some(match vk_of(f) {
            Some(_) => format!(
                "DDS has no DXGI format for {name}: the file holds its decoded texels as R32G32B32A32_FLOAT; \
                 write .ktx2 to keep the blocks"
            ),
            None => {
                format!("DDS has no DXGI format for {name}: the file holds its decoded texels as R32G32B32A32_FLOAT")
            }
        }),
        PicKind::Ktx2(_) if vk_of(f).is_none() => {
            Some(match dxgi_of(f) {
                Some(_) => format!(
                    "KTX2 has no Vulkan format for {name}: the file holds its decoded texels as R32G32B32A32_SFLOAT; \
                 write .dds to keep the elements"
                ),
                None => {
                    format!("KTX2 has no Vulkan format for {name}: the file holds its decoded texels as R32G32B32A32_SFLOAT")
                }
            })
        }
        _ => None,
    }
}

/// Prints [`decoded_warning`]'s line on stderr, if there is one.
pub fn warn_if_decoded(kind: PicKind, f: &Format) {
    if let Some(why) = decoded_warning(kind, f) {
        eprintln!("warning: {why}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::picture::Ktx2Options;

    #[test]
    fn astc_and_etc2_to_dds_point_to_ktx2() {
        for name in ["ASTC_2D_8X8", "ETC2_RGB"] {
            let f = Format::parse(name).unwrap();
            let w = decoded_warning(PicKind::Dds, &f).unwrap();
            assert!(w.contains(".ktx2") && w.contains("R32G32B32A32_FLOAT"), "{w}");
            assert!(decoded_warning(PicKind::Ktx2(Ktx2Options::default()), &f).is_none());
        }
        let bc7 = Format::parse("bc7").unwrap();
        assert!(decoded_warning(PicKind::Dds, &bc7).is_none());
        assert!(decoded_warning(PicKind::Png, &Format::parse("ASTC_2D_8X8").unwrap()).is_none());
    }
}
