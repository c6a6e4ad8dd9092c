//! JSON keys carry their unit: `size_bytes`, `size_elements`, `offset_bytes`, ... with the same
//! name for the same thing in every command. Older keys that named no unit stay beside the new
//! ones, because scripts read them; they are deprecated (the README lists them) and may go in
//! a later major version.

use nvsurf::FieldValue;
use serde_json::{json, Map, Value};

/// A record's `fields()` (the library's records: [`nvsurf::SurfaceRecord`],
/// [`nvsurf::TextureRecord`], ...) as a JSON object.
pub fn fields_json<'a>(fields: impl IntoIterator<Item = (&'static str, FieldValue<'a>)>) -> Map<String, Value> {
    let value = |v| match v {
        FieldValue::Uint(n) => json!(n),
        FieldValue::Float(x) => json!(x),
        FieldValue::Bool(b) => json!(b),
        FieldValue::Text(s) => json!(s),
        FieldValue::Triple(t) => json!(t),
        FieldValue::Triple64(t) => json!(t),
        FieldValue::Pair(t) => json!(t),
        FieldValue::None => Value::Null,
    };
    fields.into_iter().map(|(k, v)| (k.to_string(), value(v))).collect()
}

/// Adds `new` beside every `old` key of `v` (a JSON object) that is present, with its value.
pub fn add_unit_keys(v: &mut Value, renames: &[(&str, &str)]) {
    let Some(obj) = v.as_object_mut() else { return };
    for (old, new) in renames {
        if let Some(x) = obj.get(*old).cloned() {
            obj.entry(*new).or_insert(x);
        }
    }
}

/// Adds every deprecated `old` key beside its `new` one in `v` (a JSON object built from a
/// library record, which names only the new keys), with its value.
pub fn add_old_keys(v: &mut Value, renames: &[(&str, &str)]) {
    let Some(obj) = v.as_object_mut() else { return };
    for (old, new) in renames {
        if let Some(x) = obj.get(*new).cloned() {
            obj.entry(*old).or_insert(x);
        }
    }
}

/// The deprecated keys of the surface summary (`layout --json`, `addr --box --json`'s window).
pub const SURFACE: &[(&str, &str)] = &[("elem_size", "elem_size_bytes"), ("size", "size_elements")];
/// ... of `addr --box --json` (the top level) and its pieces.
pub const WINDOW: &[(&str, &str)] = &[("bytes", "size_bytes")];
/// ... of each piece of `addr --box --json`.
pub const PIECE: &[(&str, &str)] =
    &[("offset", "offset_bytes"), ("bytes", "len_bytes"), ("window_offset", "window_offset_bytes")];
/// ... of `texture --json`.
pub const TEXTURE: &[(&str, &str)] = &[("layer_stride", "layer_stride_bytes"), ("elem_size", "elem_size_bytes")];
/// ... of each level of `texture --json`.
pub const LEVEL: &[(&str, &str)] = &[
    ("offset", "offset_bytes"),
    ("size", "size_bytes"),
    ("elements", "size_elements"),
    ("linear_size", "linear_size_bytes"),
    ("width", "width_texels"),
    ("height", "height_texels"),
    ("depth", "depth_texels"),
];
/// ... of `texture --at ... --json`.
pub const SUBRESOURCE: &[(&str, &str)] = &[
    ("offset", "offset_bytes"),
    ("size", "size_bytes"),
    ("linear_offset", "linear_offset_bytes"),
    ("linear_size", "linear_size_bytes"),
    ("slice_offset", "slice_offset_bytes"),
    ("elements", "size_elements"),
    ("width", "width_texels"),
    ("height", "height_texels"),
    ("depth", "depth_texels"),
];
/// ... of `formats --json` and `guess --json`.
pub const ELEMENT: &[(&str, &str)] = &[("elem_size", "elem_size_bytes")];

/// Every deprecated key and its replacement (the README lists them).
#[cfg(test)]
pub fn all() -> Vec<(&'static str, &'static str)> {
    [SURFACE, WINDOW, PIECE, TEXTURE, LEVEL, SUBRESOURCE, ELEMENT].concat()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_keys_beside_old_ones() {
        let mut v = serde_json::json!({"offset": 5, "size": 7, "other": 1});
        add_unit_keys(&mut v, LEVEL);
        assert_eq!(
            (v["offset_bytes"].as_u64(), v["offset"].as_u64(), v["size_bytes"].as_u64()),
            (Some(5), Some(5), Some(7))
        );
        assert!(v.get("width_texels").is_none(), "absent keys are not invented");
        assert!(all().iter().all(|(o, n)| n.starts_with(o) || n.contains('_')));
    }
}
