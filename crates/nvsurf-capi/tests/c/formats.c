/* Format names: pre-G80 names resolve in the GPU's tables (texture and surface creation,
 * nvsurf_format_lookup_for), NvsurfFormatInfo's name resolves back to the same format (sRGB
 * included) and is_srgb says sRGB, the struct grows without overrunning older callers, and
 * RGBA8 of an sRGB format is its stored encoding. Expected values worked out by hand from the
 * rules in nvsurf.h and docs/formats.md. */
#include "common.h"

/* The full info of a format (every field this header has). */
static NvsurfFormatInfo info_of(const NvsurfFormat *f) {
    NvsurfFormatInfo i;
    memset(&i, 0xab, sizeof i);
    CHECK_OK(nvsurf_format_info_sized(f, &i, sizeof i));
    return i;
}

/* A texture of `format` on `gpu`, 64x64, one level: its size in bytes (0 on failure). */
static uint64_t texture_bytes(const char *gpu, const char *format, NvsurfLayout *layout) {
    NvsurfTextureParams p;
    NvsurfTexture *t = NULL;
    NvsurfTextureInfo info;
    CHECK_OK(nvsurf_texture_params_init(&p));
    p.platform = gpu;
    p.format = format;
    p.width = 64;
    p.height = 64;
    if (nvsurf_texture_create(&p, &t) != NVSURF_OK) {
        fprintf(stderr, "texture %s on %s: %s\n", format, gpu, nvsurf_last_error());
        failures++;
        return 0;
    }
    CHECK_OK(nvsurf_texture_info(t, &info));
    *layout = info.layout;
    nvsurf_texture_destroy(t);
    return info.size_bytes;
}

int main(void) {
    static const struct {
        const char *gpu, *format, *name;
        uint64_t bytes;
        uint32_t elem;
    } pre_g80[] = {
        /* The NV097 (Kelvin) table's texture formats on nv2a, NV40's on nv40. */
        {"nv2a", "A8R8G8B8", "nv2a:A8R8G8B8", 64 * 64 * 4, 4},
        {"nv2a", "DXT1", "nv2a:DXT1", 16 * 16 * 8, 8},
        {"nv2a", "L8", "nv2a:L8", 64 * 64, 1},
        {"nv2a", "A8B8G8R8", "nv2a:A8B8G8R8", 64 * 64 * 4, 4},
        {"nv40", "A8R8G8B8", "nv40:A8R8G8B8", 64 * 64 * 4, 4},
    };
    static const char *round_trip[] = {"bc1_srgb", "bc1", "RGBA8_SRGB", "astc_8x8_srgb", "zeta:Z24_S8",
                                       "Z24_S8", "BC7_SRGB_BLOCK", "A8B8G8R8_srgb", "nv10:A8R8G8B8"};
    size_t k;
    NvsurfFormat *f = NULL, *g = NULL;
    NvsurfFormatInfo a, b;
    unsigned char block[8], rgba[64];
    float lin[64];

    for (k = 0; k < sizeof pre_g80 / sizeof pre_g80[0]; k++) {
        NvsurfLayout layout = NVSURF_LAYOUT_PITCH;
        NvsurfSurfaceParams sp;
        NvsurfSurface *s = NULL;
        NvsurfSurfaceInfo si;
        uint64_t n = texture_bytes(pre_g80[k].gpu, pre_g80[k].format, &layout);
        EXPECT(n == pre_g80[k].bytes && layout == NVSURF_LAYOUT_SWIZZLED, "%s on %s: %lu bytes, layout %d",
               pre_g80[k].format, pre_g80[k].gpu, (unsigned long)n, (int)layout);
        CHECK_OK(nvsurf_surface_params_init(&sp));
        sp.platform = pre_g80[k].gpu;
        sp.format = pre_g80[k].format;
        sp.width = 64;
        sp.height = 64;
        CHECK_OK(nvsurf_surface_create(&sp, &s));
        CHECK_OK(nvsurf_surface_info(s, &si));
        EXPECT(si.size_bytes == pre_g80[k].bytes, "surface %s on %s: %lu bytes", pre_g80[k].format,
               pre_g80[k].gpu, (unsigned long)si.size_bytes);
        if (strcmp(pre_g80[k].format, "DXT1") == 0) {
            /* Issue #41 item 4: compressed blocks lie in rows before G80, never swizzled: block
             * (1,0) right after block (0,0), block (0,1) a row of 16 blocks later. */
            uint64_t off1 = 0, off2 = 0;
            CHECK_OK(nvsurf_surface_offset_of(s, 1, 0, 0, &off1));
            CHECK_OK(nvsurf_surface_offset_of(s, 0, 1, 0, &off2));
            EXPECT(si.layout == NVSURF_LAYOUT_PITCH && off1 == 8 && off2 == 16 * 8,
                   "DXT1 surface on %s: layout %d, offsets %lu %lu", pre_g80[k].gpu, (int)si.layout,
                   (unsigned long)off1, (unsigned long)off2);
        } else {
            EXPECT(si.layout == NVSURF_LAYOUT_SWIZZLED, "surface %s on %s: layout %d", pre_g80[k].format,
                   pre_g80[k].gpu, (int)si.layout);
        }
        nvsurf_surface_destroy(s);
        CHECK_OK(nvsurf_format_lookup_for(pre_g80[k].gpu, pre_g80[k].format, &f));
        a = info_of(f);
        EXPECT(strcmp(a.name, pre_g80[k].name) == 0 && a.elem_size_bytes == pre_g80[k].elem && a.is_srgb == 0,
               "%s on %s: name %s, %u bytes", pre_g80[k].format, pre_g80[k].gpu, a.name, a.elem_size_bytes);
        nvsurf_format_destroy(f);
    }
    /* Without a GPU, A8R8G8B8 is G80's colour format BGRA8_UNORM. */
    CHECK_OK(nvsurf_format_lookup("A8R8G8B8", &f));
    a = info_of(f);
    EXPECT(strcmp(a.name, "BGRA8_UNORM") == 0, "A8R8G8B8 without a GPU: %s", a.name);
    nvsurf_format_destroy(f);
    /* A GPU whose table lacks a pre-G80 row: refused in one line naming the generations. */
    EXPECT(nvsurf_format_lookup_for("nv10", "A8L8", &f) == NVSURF_ERR_UNSUPPORTED &&
               strstr(nvsurf_last_error(), "A8L8") != NULL,
           "A8L8 on nv10: %s", nvsurf_last_error());
    EXPECT(nvsurf_format_lookup_for("nv9999", "L8", &f) == NVSURF_ERR_UNKNOWN_NAME, "unknown gpu: %s",
           nvsurf_last_error());
    EXPECT(nvsurf_format_lookup_for(NULL, "L8", &f) == NVSURF_ERR_NULL, "NULL gpu");

    /* Names resolve back to the same format; is_srgb says sRGB. */
    for (k = 0; k < sizeof round_trip / sizeof round_trip[0]; k++) {
        CHECK_OK(nvsurf_format_lookup(round_trip[k], &f));
        a = info_of(f);
        CHECK_OK(nvsurf_format_lookup(a.name, &g));
        b = info_of(g);
        EXPECT(memcmp(&a, &b, sizeof a) == 0, "%s: name %s looks up another format (%s)", round_trip[k], a.name,
               b.name);
        EXPECT(a.is_srgb == (uint32_t)(strstr(round_trip[k], "srgb") || strstr(round_trip[k], "SRGB")), "%s: is_srgb %u",
               round_trip[k], a.is_srgb);
        nvsurf_format_destroy(f);
        nvsurf_format_destroy(g);
    }
    CHECK_OK(nvsurf_format_lookup("bc1_srgb", &f));
    a = info_of(f);
    EXPECT(strcmp(a.name, "DXT1_srgb") == 0 && a.is_srgb == 1 && a.is_compressed == 1, "bc1_srgb: %s srgb %u",
           a.name, a.is_srgb);

    /* The struct as first published: nvsurf_format_info writes NVSURF_FORMAT_INFO_V1_BYTES
     * and nothing after them; the sized call with that size does the same; below it is
     * refused with the struct untouched. */
    memset(&b, 0xcd, sizeof b);
    CHECK_OK(nvsurf_format_info(f, &b));
    EXPECT(memcmp(&a, &b, NVSURF_FORMAT_INFO_V1_BYTES) == 0 && b.is_srgb == 0xcdcdcdcdu,
           "nvsurf_format_info: name %s, is_srgb %x", b.name, b.is_srgb);
    memset(&b, 0xcd, sizeof b);
    CHECK_OK(nvsurf_format_info_sized(f, &b, NVSURF_FORMAT_INFO_V1_BYTES));
    EXPECT(memcmp(&a, &b, NVSURF_FORMAT_INFO_V1_BYTES) == 0 && b.is_srgb == 0xcdcdcdcdu, "V1 size: is_srgb %x",
           b.is_srgb);
    memset(&b, 0xcd, sizeof b);
    EXPECT(nvsurf_format_info_sized(f, &b, NVSURF_FORMAT_INFO_V1_BYTES - 1) == NVSURF_ERR_BUFFER_TOO_SMALL &&
               strstr(nvsurf_last_error(), "out_size_bytes") != NULL && (unsigned char)b.name[0] == 0xcd,
           "short struct: %s", nvsurf_last_error());
    EXPECT(sizeof(NvsurfFormatInfo) == NVSURF_FORMAT_INFO_V1_BYTES + 4, "sizeof %lu",
           (unsigned long)sizeof(NvsurfFormatInfo));

    /* RGBA8 of an sRGB format is the stored encoding (R5 = 16 -> 132, G6 = 4 -> 16), floats
     * are linear. */
    memset(block, 0x80, sizeof block);
    CHECK_OK(nvsurf_decode_rgba8(f, block, sizeof block, 0, 4, 4, rgba, sizeof rgba));
    for (k = 0; k < 16; k++) {
        EXPECT(rgba[4 * k] == 132 && rgba[4 * k + 1] == 16 && rgba[4 * k + 2] == 0 && rgba[4 * k + 3] == 255,
               "pixel %lu: %u %u %u %u", (unsigned long)k, rgba[4 * k], rgba[4 * k + 1], rgba[4 * k + 2],
               rgba[4 * k + 3]);
    }
    CHECK_OK(nvsurf_decode_rgba_f32(f, block, sizeof block, 0, 4, 4, lin, 64));
    EXPECT(lin[0] > 0.2307f && lin[0] < 0.2308f && lin[3] == 1.0f, "linear R %f", (double)lin[0]);
    nvsurf_format_destroy(f);

    if (failures) {
        fprintf(stderr, "formats: %d failures\n", failures);
        return 1;
    }
    printf("formats: pre-G80 names, full names, is_srgb, struct growth and sRGB RGBA8 pass\n");
    return 0;
}
