/* Switch: a 64x64 BC7 texture with every mip level untiled, decoded to RGBA8 (and RGBA32F)
 * and tiled back, and a box of level 0 untiled through its surface, against golden files
 * made with the library's reference twins. */
#include "common.h"

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : "tests/data";
    NvsurfTextureParams p;
    NvsurfTexture *t = NULL;
    NvsurfTextureInfo info;
    NvsurfSubresourceInfo sub0;
    NvsurfLevelInfo l0;
    NvsurfFormat *fmt = NULL;
    NvsurfFormatInfo finfo;
    NvsurfSurface *s0 = NULL;
    NvsurfSurfaceInfo sinfo;
    NvsurfBox box = {1, 2, 0, 8, 5, 1};
    size_t tiled_len, rgba_len, i;
    unsigned char *tiled = read_golden(dir, "switch_bc7_64_tiled.bin", &tiled_len);
    unsigned char *rgba_golden = read_golden(dir, "switch_bc7_64_level0_rgba8.bin", &rgba_len);
    unsigned char *lin, *want_lin, *retiled, *rgba, *boxed;
    float *rgbaf;
    uint64_t off;

    CHECK_OK(nvsurf_texture_params_init(&p));
    p.platform = "switch";
    p.format = "bc7";
    p.width = 64;
    p.height = 64;
    p.levels = NVSURF_ALL_LEVELS;
    CHECK_OK(nvsurf_texture_create(&p, &t));
    CHECK_OK(nvsurf_texture_info(t, &info));
    CHECK_OK(nvsurf_texture_level(t, 0, &l0));
    CHECK_OK(nvsurf_texture_subresource(t, 0, 0, &sub0));
    EXPECT(info.layout == NVSURF_LAYOUT_BLOCKLINEAR, "layout %d", (int)info.layout);
    EXPECT(info.texels_per_elem[0] == 4 && info.texels_per_elem[1] == 4, "texels per element %ux%u",
           info.texels_per_elem[0], info.texels_per_elem[1]);
    EXPECT(info.level_count == 7 && info.elem_size_bytes == 16, "%u levels of %u-byte elements",
           info.level_count, info.elem_size_bytes);
    EXPECT(info.size_bytes == tiled_len, "size %lu, golden %lu", (unsigned long)info.size_bytes,
           (unsigned long)tiled_len);
    EXPECT(l0.elements[0] == 16 && l0.elements[1] == 16 && l0.is_blocklinear == 1, "level 0 %ux%u",
           l0.elements[0], l0.elements[1]);
    printf("switch bc7 64x64: %u levels, %lu bytes tiled, %lu linear, level 0 block log2 %u,%u,%u\n",
           info.level_count, (unsigned long)info.size_bytes, (unsigned long)info.linear_size_bytes,
           l0.block_log2[0], l0.block_log2[1], l0.block_log2[2]);

    /* Untile the whole texture: the pattern comes back. */
    want_lin = pattern((size_t)info.linear_size_bytes);
    lin = (unsigned char *)calloc((size_t)info.linear_size_bytes, 1);
    CHECK_OK(nvsurf_texture_untile(t, tiled, tiled_len, lin, (size_t)info.linear_size_bytes, 0));
    same_bytes("untiled", lin, want_lin, (size_t)info.linear_size_bytes);

    /* Tile it back: the golden dump. */
    retiled = (unsigned char *)calloc(tiled_len, 1);
    CHECK_OK(nvsurf_texture_tile(t, lin, (size_t)info.linear_size_bytes, retiled, tiled_len, 0));
    same_bytes("tiled back", retiled, tiled, tiled_len);

    /* Decode level 0 to RGBA8. */
    CHECK_OK(nvsurf_format_lookup("BC7", &fmt));
    CHECK_OK(nvsurf_format_info(fmt, &finfo));
    EXPECT(finfo.is_compressed == 1 && finfo.block_width == 4 && finfo.elem_size_bytes == 16,
           "format %s", finfo.name);
    printf("format %s: %u bytes per %ux%u block\n", finfo.name, finfo.elem_size_bytes,
           finfo.block_width, finfo.block_height);
    rgba = (unsigned char *)calloc(64 * 64 * 4, 1);
    CHECK_OK(nvsurf_decode_rgba8(fmt, lin + sub0.linear_offset_bytes, (size_t)sub0.linear_size_bytes, 0,
                                 64, 64, rgba, 64 * 64 * 4));
    EXPECT(rgba_len == 64 * 64 * 4, "golden rgba8 is %lu bytes", (unsigned long)rgba_len);
    same_bytes("decoded rgba8", rgba, rgba_golden, rgba_len);

    /* And to RGBA32F: the same pixels over 255. */
    rgbaf = (float *)calloc(64 * 64 * 4, sizeof(float));
    CHECK_OK(nvsurf_decode_rgba_f32(fmt, lin + sub0.linear_offset_bytes, (size_t)sub0.linear_size_bytes, 0,
                                    64, 64, rgbaf, 64 * 64 * 4));
    for (i = 0; i < 64 * 64 * 4; i++) {
        float want = rgba_golden[i] / 255.0f, d = rgbaf[i] - want;
        if (d > 1e-6f || d < -1e-6f) {
            fprintf(stderr, "decoded rgba32f: value %lu is %f, want %f\n", (unsigned long)i, rgbaf[i], want);
            failures++;
            break;
        }
    }
    if (i == 64 * 64 * 4) printf("decoded rgba32f: %d values match\n", 64 * 64 * 4);

    /* A box of level 0 through its surface: elements (1..9, 2..7) of the pattern's level 0. */
    CHECK_OK(nvsurf_texture_surface(t, 0, 0, &s0));
    CHECK_OK(nvsurf_surface_info(s0, &sinfo));
    boxed = (unsigned char *)calloc(8 * 5 * 16, 1);
    CHECK_OK(nvsurf_surface_untile_box(s0, &box, 0, 0, tiled + sub0.offset_bytes, (size_t)sub0.size_bytes,
                                       boxed, 8 * 5 * 16, 0));
    for (i = 0; i < 5; i++) {
        const unsigned char *want = want_lin + sub0.linear_offset_bytes + ((i + 2) * 16 + 1) * 16;
        same_bytes("box row", boxed + i * 8 * 16, want, 8 * 16);
    }
    CHECK_OK(nvsurf_texture_offset_of(t, 0, 0, 1, 2, 0, &off));
    /* Tegra gob (Tegra X1 TRM, block linear): byte (16, 2) of the first gob is at
     * (16 / 32) * 256 + (2 / 2) * 64 + ((16 % 32) / 16) * 32 + (2 % 2) * 16 + 16 % 16 = 96. */
    EXPECT(off == sub0.offset_bytes + 96, "element (1,2) at %lu", (unsigned long)off);
    printf("element (1, 2, 0) of level 0 at byte %lu\n", (unsigned long)off);

    free(boxed);
    free(rgbaf);
    free(rgba);
    free(retiled);
    free(lin);
    free(want_lin);
    free(tiled);
    free(rgba_golden);
    CHECK_OK(nvsurf_surface_destroy(s0));
    CHECK_OK(nvsurf_format_destroy(fmt));
    CHECK_OK(nvsurf_texture_destroy(t));
    if (failures) {
        fprintf(stderr, "switch_bc7: %d mismatches\n", failures);
        return 1;
    }
    printf("switch_bc7: ok\n");
    return 0;
}
